/*
 * web_server.c - the HTTP side of `arena serve` (web.h): civetweb with no
 * document root (it serves no file of its own accord), one handler that
 * routes GET and HEAD to the built-in assets and the JSON API, and the
 * same strict headers on every answer.
 *
 * civetweb gives each open connection a worker thread until it closes,
 * idle or not. So there are many workers (WEB_THREADS: an idle one costs
 * its stack's few touched pages), short timeouts for a request head and
 * for an idle keep-alive connection, and a bound on the connections of one
 * client address (web_gate.c): a connection past it is shut at once, so a
 * few addresses cannot hold every worker. The API borrows a read-only
 * database handle per request from a small pool (web_readers.c).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <civetweb.h>
#include "arena_read.h"
#include "kv.h"
#include "web.h"
#include "web_assets.h"
#include "web_internal.h"

struct web_server {
    struct mg_context *ctx;
    web_cache *cache;
    web_gate *gate;
    pthread_mutex_t gate_mu;  /* one scan at a time */
    int per_address;
    web_readers *readers;
    char db_path[1024];
    int port;
};

/* Scripts, styles, images and data from this server only; no inline
 * script or style, no frames, no forms elsewhere, no plugins. */
static const char SECURITY_HEADERS[] =
    "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'\r\n"
    "X-Content-Type-Options: nosniff\r\n"
    "X-Frame-Options: DENY\r\n"
    "Referrer-Policy: no-referrer\r\n"
    "Cross-Origin-Resource-Policy: same-origin\r\n";

static const char *reason_phrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 414: return "URI Too Long";
    case 503: return "Service Unavailable";
    default:  return "Internal Server Error";
    }
}

static void respond(struct mg_connection *c, int status, const char *type, const char *cache,
                 const void *body, size_t n)
{
    const struct mg_request_info *ri = mg_get_request_info(c);
    mg_printf(c,
              "HTTP/1.1 %d %s\r\nContent-Type: %s%s\r\nContent-Length: %zu\r\n"
              "Cache-Control: %s\r\n%s%s\r\n",
              status, reason_phrase(status), type,
              strncmp(type, "text/", 5) == 0 ? "; charset=utf-8" : "", n, cache, SECURITY_HEADERS,
              status == 405 ? "Allow: GET, HEAD\r\n" : "");
    if (strcmp(ri->request_method, "HEAD") != 0)
        mg_write(c, body, n);
}

static void send_error(struct mg_connection *c, int status, const char *why)
{
    jw w;
    jw_init(&w);
    jw_obj(&w);
    jw_key(&w, "error");
    jw_str(&w, why);
    jw_obj_end(&w);
    const char *body = jw_failed(&w) ? "{}" : w.buf;
    respond(c, status, "application/json", "no-store", body, strlen(body));
    jw_free(&w);
}

typedef int api_fn(web_req *r);

typedef struct route {
    const char *path;
    int prefix;                       /* the path is a prefix: the rest goes to the handler */
    api_fn *fn;
    const char *const *params;        /* NULL-terminated keys the route accepts */
} route;

static const char *const P_NONE[] = { NULL };
static const char *const P_REPORT[] = { "game", "players", "tournament", "ladder", NULL };
static const char *const P_MATCHES[] = { "bot", "game", "players", "tournament", "ladder", "reason",
                                         "result", "before", "limit", NULL };
static const char *const P_MATCH[] = { "view", NULL };
static const char *const P_EVENT[] = { "tournament", NULL };
static const char *const P_GATES[] = { "ladder", "bot", NULL };
static const char *const P_SPRT[] = { "a", "b", "game", "players", "tournament", "ladder", "elo0",
                                      "elo1", "alpha", "beta", NULL };

static const route routes[] = {
    { "/api/standings", 0, web_api_standings, P_REPORT },
    { "/api/crosstable", 0, web_api_crosstable, P_REPORT },
    { "/api/matches", 0, web_api_matches, P_MATCHES },
    { "/api/matches/", 1, web_api_match, P_MATCH },
    { "/api/bots/", 1, web_api_bot, P_NONE },
    { "/api/live", 0, web_api_live, P_NONE },
    { "/api/games", 0, web_api_games, P_NONE },
    { "/api/event", 0, web_api_event, P_EVENT },
    { "/api/gates", 0, web_api_gates, P_GATES },
    { "/api/sprt", 0, web_api_sprt, P_SPRT },
};

static void serve_api(struct mg_connection *c, const route *rt, const char *path,
                      web_server *srv)
{
    const struct mg_request_info *ri = mg_get_request_info(c);
    web_req *r = calloc(1, sizeof *r);
    if (!r) {
        send_error(c, 503, "out of memory");
        return;
    }
    jw_init(&r->out);
    r->cache = srv->cache;
    r->path_rest = path + strlen(rt->path);
    arena_db *db = NULL;
    if (web_query_parse(r, ri->query_string, rt->params) != 0) {
        send_error(c, r->status, r->error);
    } else if (web_readers_take(srv->readers, &db, r->error, sizeof r->error) != 0) {
        send_error(c, 503, r->error);
    } else {
        r->db = db;
        /* One read transaction a request: every query of a page sees the
         * same snapshot, and the read lock is taken once, not per query
         * (a bot page runs hundreds of small ones). */
        char why[256];
        int rc = arena_read_begin(db, why, sizeof why) == 0
                     ? rt->fn(r) : web_fail(r, 503, "cannot read the database: %s", why);
        arena_read_end(db);
        if (rc != 0)
            send_error(c, r->status ? r->status : 503, r->error);
        else if (jw_failed(&r->out))
            send_error(c, 503, "out of memory");
        else
            respond(c, 200, "application/json", "no-store", r->out.buf, r->out.len);
        web_readers_give(srv->readers, db);
    }
    jw_free(&r->out);
    free(r);
}

static int handle(struct mg_connection *c, void *data)
{
    web_server *srv = data;
    const struct mg_request_info *ri = mg_get_request_info(c);
    const char *path = ri->local_uri_raw ? ri->local_uri_raw : "";
    if (strcmp(ri->request_method, "GET") != 0 && strcmp(ri->request_method, "HEAD") != 0) {
        send_error(c, 405, "only GET and HEAD are served: this server never writes");
        return 405;
    }
    if (ri->query_string && strlen(ri->query_string) > WEB_MAX_QUERY) {
        send_error(c, 414, "the query string is too long");
        return 414;
    }
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        const route *rt = &routes[i];
        size_t n = strlen(rt->path);
        if (rt->prefix ? strncmp(path, rt->path, n) == 0 && path[n] : strcmp(path, rt->path) == 0) {
            serve_api(c, rt, path, srv);
            return 200;
        }
    }
    const web_asset *a = web_asset_find(path);
    if (!a) {
        send_error(c, 404, strncmp(path, "/api/", 5) == 0 ? "no such API route" : "no such page");
        return 404;
    }
    respond(c, 200, a->type, "no-cache", a->data, a->size);
    return 200;
}

/* The server's open connections (sockets whose local port is ours and which
 * have a peer) into *out: their count, or -1. */
static int list_connections(int port, web_gate_sock **out)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0, cap = 0;
    web_gate_sock *v = NULL;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        struct sockaddr_storage peer, self;
        socklen_t pn = sizeof peer, sn = sizeof self;
        int fd = atoi(de->d_name);
        if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd == dirfd(d) ||
            getsockname(fd, (struct sockaddr *)&self, &sn) != 0 ||
            getpeername(fd, (struct sockaddr *)&peer, &pn) != 0)
            continue;
        const struct sockaddr_in *s4 = (void *)&self;
        const struct sockaddr_in6 *s6 = (void *)&self;
        if ((peer.ss_family != AF_INET && peer.ss_family != AF_INET6) ||
            ntohs(self.ss_family == AF_INET6 ? s6->sin6_port : s4->sin_port) != port)
            continue;
        if (n == cap) {
            web_gate_sock *grown = realloc(v, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *v);
            if (!grown)
                break;
            v = grown;
        }
        web_gate_sock_of(&v[n++], fd, (const struct sockaddr *)&peer);
    }
    if (d)
        closedir(d);
    *out = v;
    return d ? n : -1;
}

/* A connection opens: civetweb 1.15 says nothing yet of whose it is, so
 * the gate (web_gate.c) weighs every open socket, and those it refuses are
 * shut at once (civetweb then sees their input end and closes them, their
 * workers free again). The descriptor stays civetweb's to close. Between
 * the listing and the shutdown a descriptor may be closed and reused: then
 * a new connection is shut (its client sees a reset, as from any full
 * server), or a file is asked to shut down (ENOTSOCK, nothing happens). */
static int connection_open(const struct mg_connection *c, void **data)
{
    web_server *srv = mg_get_user_data(mg_get_context(c));
    web_gate_sock *v = NULL;
    *data = NULL;
    if (srv->per_address <= 0)
        return 0;
    pthread_mutex_lock(&srv->gate_mu);
    int n = list_connections(srv->port, &v);
    if (n >= 0 && web_gate_scan(srv->gate, v, n) == 0)
        for (int i = 0; i < n; i++)
            if (v[i].shut)
                shutdown(v[i].fd, SHUT_RDWR);
    pthread_mutex_unlock(&srv->gate_mu);
    free(v);
    return 0;
}

/* "HOST:PORT" or "PORT" into civetweb's form, refusing anything else; a
 * bare port listens on the loopback only. 0, or -1 with err. */
static int listen_spec(const char *text, char *out, size_t size, char *err, size_t esize)
{
    const char *colon = strrchr(text, ':');
    const char *port = colon ? colon + 1 : text;
    char host[64] = "127.0.0.1";
    int64_t p;
    if (kv_i64(port, 0, 65535, &p) != 0) {
        snprintf(err, esize, "--listen %s: the port must be a number from 0 to 65535", text);
        return -1;
    }
    if (colon) {
        size_t n = (size_t)(colon - text);
        unsigned char addr[16];
        int v6 = n > 2 && text[0] == '[' && text[n - 1] == ']';
        if (n == 0 || n >= sizeof host) {
            snprintf(err, esize, "--listen %s: give HOST:PORT", text);
            return -1;
        }
        memcpy(host, text + v6, n - 2 * v6);
        host[n - 2 * v6] = 0;
        if (inet_pton(v6 ? AF_INET6 : AF_INET, host, addr) != 1) {
            snprintf(err, esize, "--listen %s: the host must be an IP address", text);
            return -1;
        }
        if (v6)
            return snprintf(out, size, "[%s]:%d", host, (int)p) >= (int)size ? -1 : 0;
    }
    snprintf(out, size, "%s:%d", host, (int)p);
    return 0;
}

static void web_server_free(web_server *s)
{
    web_cache_free(s->cache);
    web_gate_free(s->gate);
    pthread_mutex_destroy(&s->gate_mu);
    web_readers_free(s->readers);
    free(s);
}

int web_start(const web_options *o, web_server **out, char *err, size_t size)
{
    char ports[96], threads[16], queue[16], backlog[16], head_ms[16], idle_ms[16];
    if (listen_spec(o->listen ? o->listen : "127.0.0.1:8080", ports, sizeof ports, err, size))
        return -1;
    arena_db *probe;
    if (arena_db_open_readonly(&probe, o->db_path, err, size) != 0)
        return -1;
    arena_db_close(probe);
    web_server *s = calloc(1, sizeof *s);
    if (!s || strlen(o->db_path) >= sizeof s->db_path) {
        free(s);
        snprintf(err, size, "out of memory, or a database path too long");
        return -1;
    }
    snprintf(s->db_path, sizeof s->db_path, "%s", o->db_path);
    int nthreads = o->threads > 0 ? o->threads : WEB_THREADS;
    s->cache = web_cache_new(s->db_path);
    s->gate = web_gate_new(o->per_address);
    s->per_address = o->per_address;
    pthread_mutex_init(&s->gate_mu, NULL);
    s->readers = web_readers_new(s->db_path, WEB_READERS);
    snprintf(threads, sizeof threads, "%d", nthreads);
    snprintf(queue, sizeof queue, "%d", WEB_QUEUE);
    snprintf(backlog, sizeof backlog, "%d", WEB_BACKLOG);
    snprintf(head_ms, sizeof head_ms, "%d", WEB_HEAD_TIMEOUT_MS);
    snprintf(idle_ms, sizeof idle_ms, "%d", WEB_IDLE_TIMEOUT_MS);
    const char *opts[] = {
        "listening_ports", ports, "num_threads", threads, "connection_queue", queue,
        "listen_backlog", backlog,
        /* request_timeout_ms bounds the whole head of a first request (and
         * each wait to send); keep_alive_timeout_ms the wait for the next
         * head on a kept connection */
        "request_timeout_ms", head_ms, "enable_keep_alive", "yes", "keep_alive_timeout_ms", idle_ms,
        /* A response is two writes (headers, then body): with Nagle's
         * algorithm the body waits for the client's delayed ACK of the
         * headers, 40 ms on Linux, on every keep-alive request. */
        "tcp_nodelay", "1", NULL,
    };
    struct mg_callbacks cb = { 0 };
    cb.init_connection = connection_open;
    mg_init_library(0);
    s->ctx = s->cache && s->gate && s->readers ? mg_start(&cb, s, opts) : NULL;
    if (!s->ctx) {
        snprintf(err, size, "cannot listen on %s (in use, or not an address of this machine)",
                 ports);
        web_server_free(s);
        return -1;
    }
    mg_set_request_handler(s->ctx, "/", handle, s);
    struct mg_server_port sp[2];
    int port = mg_get_server_ports(s->ctx, 2, sp) > 0 ? sp[0].port : -1;
    pthread_mutex_lock(&s->gate_mu);          /* connection_open reads it already */
    s->port = port;
    pthread_mutex_unlock(&s->gate_mu);
    *out = s;
    return 0;
}

int web_port(const web_server *s) { return s->port; }

void web_stop(web_server *s)
{
    if (!s)
        return;
    mg_stop(s->ctx);
    web_server_free(s);
    mg_exit_library();
}
