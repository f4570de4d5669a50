/*
 * web_internal.h - what the web_*.c files share: a request as the API
 * handlers see it (its parsed query, the thread's database, the JSON
 * being written) and the helpers they answer with.
 */
#ifndef WEB_INTERNAL_H
#define WEB_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"
#include "jw.h"

#define WEB_MAX_PARAMS 12
#define WEB_MAX_QUERY 2048       /* longer query strings: 414 */
#define WEB_MAX_VALUE 256        /* a decoded value, NUL included */

typedef struct web_query {
    int n;
    struct {
        char key[24];
        char value[WEB_MAX_VALUE];
    } p[WEB_MAX_PARAMS];
} web_query;

typedef struct web_cache web_cache;

typedef struct web_req {
    arena_db *db;             /* this thread's read-only handle */
    web_cache *cache;
    const char *path_rest;    /* the path after a route's prefix ("/api/bots/NAME") */
    web_query q;
    jw out;                   /* the body of a 200 */
    int status;               /* set by web_fail */
    char error[256];
    int64_t as_of_ms;         /* the oldest cached answer used (web_cache_get), 0: none */
} web_req;

/* Parses `qs` (NULL: none), accepting only the keys in `allowed`
 * (NULL-terminated): 0, or an HTTP status (400, 414) with r->error. */
int  web_query_parse(web_req *r, const char *qs, const char *const *allowed);
/* The value of `key`, or NULL when absent. */
const char *web_param(const web_req *r, const char *key);
/* `key` as a whole number in [lo, hi], `dflt` when absent: 0, or -1
 * after web_fail(400) naming the parameter. */
int  web_param_i64(web_req *r, const char *key, int64_t lo, int64_t hi, int64_t dflt,
                   int64_t *out);

/* The same for a number in [lo, hi]. */
int  web_param_f64(web_req *r, const char *key, double lo, double hi, double dflt, double *out);

/* Records an error answer: returns -1, so handlers `return web_fail(...)`. */
int  web_fail(web_req *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The API's handlers: each writes r->out and returns 0, or web_fail. */
/* The ladder named by the `ladder` parameter: its id in *id (0 when not
 * given): 0, or web_fail (404 for a name no ladder has). web_api.c. */
int  web_param_ladder(web_req *r, int64_t *id);
/* Which matches: game, players, tournament or ladder (not both) into f:
 * 0, or web_fail. web_api.c. */
int  web_param_filter(web_req *r, arena_match_filter *f);
/* A bot by reference: NAME (its newest registered version), NAME@VERSION,
 * or a label NAME#ID (any bot, removed too). 0 with *id, or web_fail(404).
 * web_api_matches.c. */
int  web_bot_id(web_req *r, const char *ref, int64_t *id);

int  web_api_standings(web_req *r);
int  web_api_crosstable(web_req *r);
int  web_api_matches(web_req *r);
int  web_api_bot(web_req *r);
int  web_api_live(web_req *r);
int  web_api_gates(web_req *r);            /* web_api_sprt.c */
int  web_api_sprt(web_req *r);
int  web_api_games(web_req *r);
int  web_api_event(web_req *r);            /* a Swiss or knockout's own results */
int  web_api_match(web_req *r);            /* web_replay.c */

/* ---- web_cache.c: reports that cost a whole-table read --------------------- */

/* A report: its JSON for filter f into out: 0, or -1 with err. */
typedef int web_report_fn(arena_db *db, const arena_match_filter *f, FILE *out, char *err,
                          size_t size);
typedef struct web_report {
    web_report_fn *fn;
    int timed;                /* it changes without a match: kept on time alone */
} web_report;

web_cache *web_cache_new(const char *db_path);
void web_cache_free(web_cache *c);
/* The report's JSON for filter f (a report is known by its address: each
 * one a static web_report), fresh enough: computed at most once per
 * change of the matches table (and then at most every few seconds; a
 * request meanwhile gets the last one at once while it is at most 5 s
 * old, and waits for a new one past that). Copies it into r->out as a
 * value, and lowers r->as_of_ms to its time: 0, or web_fail. */
int  web_cache_get(web_cache *c, web_req *r, const web_report *what,
                   const arena_match_filter *f);

/* ---- web_gate.c: connections per client address ----------------------------- */

typedef struct web_gate_sock {
    int fd;
    unsigned char key[9];     /* the client: 4 and its IPv4 address, or 6 and its /64 */
    int port;                 /* the client's port */
    int known, shut;          /* set by web_gate_scan */
} web_gate_sock;

struct sockaddr;
/* The socket fd whose peer is an IPv4 or IPv6 address (a v4-mapped IPv6
 * one counts as IPv4) as the gate keys it. */
void web_gate_sock_of(web_gate_sock *s, int fd, const struct sockaddr *peer);

typedef struct web_gate web_gate;
/* A gate letting one client address hold per_address connections (0: no
 * limit). */
web_gate *web_gate_new(int per_address);
void web_gate_free(web_gate *g);
/* Given every connection open now (s, n; reordered), marks `shut` the new
 * ones past their address's bound and remembers the rest: 0, or -1 out of
 * memory (nothing marked). Not thread-safe: the caller holds a lock. */
int  web_gate_scan(web_gate *g, web_gate_sock *s, int n);

/* ---- web_readers.c: the pool of read-only database handles ------------------ */

typedef struct web_readers web_readers;
web_readers *web_readers_new(const char *db_path, int max);
void web_readers_free(web_readers *p);
/* Borrows a handle (waits while all max are lent): 0, or -1 with err. */
int  web_readers_take(web_readers *p, arena_db **out, char *err, size_t size);
void web_readers_give(web_readers *p, arena_db *db);

#endif
