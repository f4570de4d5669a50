/*
 * web_cli.c - `arena serve`: flags, start, wait for SIGINT or SIGTERM, stop.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "kv.h"
#include "web.h"
#include "web_cli.h"

static const char help[] =
    "usage: arena [--db FILE] serve [--listen HOST:PORT] [--threads N] [--per-address N]\n"
    "  Serves the database read-only over HTTP: leaderboard, bots, matches with a\n"
    "  replay viewer, live; and the JSON API the pages use (web/API.md).\n"
    "  --listen HOST:PORT  address to listen on (default 127.0.0.1:8080; a bare PORT\n"
    "                      is on 127.0.0.1; 0.0.0.0:PORT serves every interface;\n"
    "                      port 0 picks a free one)\n"
    "  --threads N         connections served at once, a thread each (default 512,\n"
    "                      1 to 4096); more wait in a queue of 64\n"
    "  --per-address N     connections one client address may hold (an IPv6 one: its\n"
    "                      /64); more are closed at once (default 32; 0: no limit,\n"
    "                      behind a reverse proxy that bounds them itself)\n"
    "A request head must arrive within 5 s, an idle kept-alive connection is closed\n"
    "after 3 s (docs/SECURITY.md). It never writes: run it beside a tournament or a\n"
    "ladder on the same file.\n";

int web_serve_main(int argc, char **argv, const char *db_path)
{
    web_options o = { .db_path = db_path, .listen = "127.0.0.1:8080", .threads = WEB_THREADS,
                      .per_address = WEB_PER_ADDRESS };
    for (int i = 0; i < argc; i++) {
        int64_t n;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--listen") && i + 1 < argc) {
            o.listen = argv[++i];
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (kv_i64(argv[++i], 1, 4096, &n) != 0) {
                fprintf(stderr, "arena: --threads must be a number from 1 to 4096\n");
                return 2;
            }
            o.threads = (int)n;
        } else if (!strcmp(argv[i], "--per-address") && i + 1 < argc) {
            if (kv_i64(argv[++i], 0, 4096, &n) != 0) {
                fprintf(stderr, "arena: --per-address must be a number from 0 to 4096\n");
                return 2;
            }
            o.per_address = (int)n;
        } else {
            fprintf(stderr, "arena: serve: unknown or incomplete option '%s' (see arena serve --help)\n",
                    argv[i]);
            return 2;
        }
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    /* Blocked before civetweb's threads start, so they inherit the mask
     * and the signal comes to sigwait here. */
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    web_server *s;
    char err[512];
    if (web_start(&o, &s, err, sizeof err) != 0) {
        fprintf(stderr, "arena: serve: %s\n", err);
        return 1;
    }
    const char *host = strrchr(o.listen, ':') ? o.listen : "127.0.0.1:";
    printf("arena serve: http://%.*s:%d/ (%s, read-only)\n",
           (int)(strrchr(host, ':') - host), host, web_port(s), db_path);
    fflush(stdout);
    int sig;
    sigwait(&stop, &sig);
    web_stop(s);
    printf("arena serve: stopped\n");
    return 0;
}
