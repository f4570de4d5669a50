/*
 * web.h - `arena serve`: the database over HTTP, read-only.
 *
 * Pages (leaderboard, bot, matches, a match's replay, live) are static
 * files built into the program (web/assets/, uPlot from npm); each page
 * draws what the JSON API (web/API.md) returns, and so can anyone else.
 * The server opens the database read-only (a WAL reader beside a running
 * tournament or ladder), answers GET and HEAD only, and runs nothing. It
 * holds no SQL: what each route reads is db/arena_read.h's, in one read
 * transaction a request.
 *
 * web_server.c   civetweb, routes, headers (CSP), assets, errors
 * web_query.c    a request's query string, strictly parsed
 * web_api.c      standings, crosstable, matches, bots, live
 * web_replay.c   one match: its record re-simulated into states per view
 * web_cache.c    standings and crosstables, recomputed when matches land
 * web_gate.c     connections per client address, bounded
 * web_readers.c  the pool of read-only database handles
 */
#ifndef WEB_H
#define WEB_H

#include <stddef.h>

typedef struct web_options {
    const char *db_path;
    const char *listen;       /* "127.0.0.1:8080"; "PORT" alone means 127.0.0.1:PORT */
    int threads;              /* worker threads: connections open at once (0: WEB_THREADS) */
    int per_address;          /* connections one client address may open (0: no limit) */
} web_options;

/* The defaults of `arena serve` (docs/SECURITY.md says why these numbers). */
#define WEB_THREADS 512           /* civetweb holds a thread per open connection */
#define WEB_PER_ADDRESS 32        /* a browser opens 6 a host; room for a NAT's few */
#define WEB_READERS 8             /* database handles, lent one a request */
#define WEB_HEAD_TIMEOUT_MS 5000  /* a request head must arrive whole within this */
#define WEB_IDLE_TIMEOUT_MS 3000  /* an idle keep-alive connection is closed after */
#define WEB_QUEUE 64              /* accepted connections waiting for a thread */
#define WEB_BACKLOG 1024          /* connections the kernel holds before accept */

typedef struct web_server web_server;

/* Starts serving; 0 with *out, or -1 with a one-line reason (the
 * database cannot be read, the address is taken or malformed). */
int  web_start(const web_options *o, web_server **out, char *err, size_t size);
/* The port actually bound (useful with port 0). */
int  web_port(const web_server *s);
void web_stop(web_server *s);

#endif
