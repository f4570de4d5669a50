/*
 * ref_link.h - the worker link's two messages that carry a match, each
 * way: the arena's `job` (ref_link_job_pack, read by a worker with
 * ref_link_job_read) and the worker's `result` (ref_link_result_pack,
 * read by the arena with ref_link_result_read). Their keys are the
 * REF_LINK_* names below; ARCHITECTURE.md ("The worker link") shows the
 * messages whole. Both readers take untrusted bytes: a field of the
 * wrong type or range is an error or its default, never a crash
 * (tests/fuzz/fuzz_worker_job.c, fuzz_worker_result.c).
 */
#ifndef REF_LINK_H
#define REF_LINK_H

#include <msgpack.h>
#include <stdint.h>
#include "game.h"
#include "ref_env.h"
#include "ref_log.h"
#include "ref_terms.h"

#define REF_LINK_TYPE          "type"
#define REF_LINK_JOB           "job"         /* the type of a job */
#define REF_LINK_RESULT        "result"      /* the type of a result */
#define REF_LINK_PROGRESS      "progress"    /* the type of a match's record so far */
#define REF_LINK_ID            "id"
/* a job's */
#define REF_LINK_GAME          "game"
#define REF_LINK_OPTIONS       "options"
#define REF_LINK_SEED          "seed"
#define REF_LINK_BOTS          "bots"        /* [{cmd, cwd, env}] in seat order */
#define REF_LINK_CMD           "cmd"
#define REF_LINK_CWD           "cwd"
#define REF_LINK_ENV           "env"
#define REF_LINK_RELAY         "relay"       /* true: the arena's relay to a remote bot */
#define REF_LINK_TIME          "time"        /* the time control's terms */
#define REF_LINK_MOVE_MS       "move_ms"
#define REF_LINK_BANK_MS       "bank_ms"
#define REF_LINK_HANDSHAKE_MS  "handshake_ms"
#define REF_LINK_CLOCK         "clock"
#define REF_LINK_CEILING_PCT   "ceiling_pct"
#define REF_LINK_PONDER        "ponder"
#define REF_LINK_STRIKES       "strikes"
#define REF_LINK_MEMORY_MB     "memory_mb"   /* absent: the referee's default */
#define REF_LINK_LOG_BYTES     "log_bytes"
/* a result's */
#define REF_LINK_ERROR         "error"       /* the referee could not run it, or nil */
#define REF_LINK_RECORD        "record"      /* the match record's text, or nil */
#define REF_LINK_STARTED_MS    "started_ms"
#define REF_LINK_FINISHED_MS   "finished_ms"
#define REF_LINK_LOGS          "logs"        /* [{bytes, text: bin}] in seat order */
#define REF_LINK_BYTES         "bytes"
#define REF_LINK_TEXT          "text"
/* a bot's files by content hash (store.h): the job names it, a worker that
 * lacks it asks with `fetch` {id, hash}, the arena answers `bot` {id,
 * hash, archive: bin (a .tar.gz) | error} */
#define REF_LINK_HASH          "hash"        /* a job's bot: 64 hex digits, absent by path */
#define REF_LINK_FETCH         "fetch"
#define REF_LINK_BOT           "bot"
#define REF_LINK_ARCHIVE       "archive"
#define REF_LINK_HASH_HEX      64
#define REF_LINK_MAX_ARCHIVE   (256 << 20)   /* a `bot` answer's archive, at most */

typedef struct ref_link_job {
    int64_t  id;                  /* the arena's: a game_index */
    char     game[32];            /* the game's registry name */
    char     options[GAME_OPTIONS_TEXT_MAX + 1];   /* its options' text */
    uint64_t seed;
    int      nbots;
    char     cmd[GAME_MAX_SEATS][1024];
    char     cwd[GAME_MAX_SEATS][512];             /* "": the worker's */
    char     env[GAME_MAX_SEATS][REF_ENV_TEXT];    /* each bot's registered environment */
    char     hash[GAME_MAX_SEATS][REF_LINK_HASH_HEX + 1];   /* its files' hash, "": by path */
    int      relay[GAME_MAX_SEATS];  /* 1: cmd is the arena's own relay to a remote bot
                                        (`arena relay`), run outside the sandbox */
    ref_terms terms;
    int64_t  log_bytes;           /* each seat's log excerpt is cut to this (ref_log.h) */
    int64_t  bot_id[GAME_MAX_SEATS];   /* the arena's own: its bots, never sent */
} ref_link_job;

/* Appends the `job` message for *job to sb. */
void ref_link_job_pack(msgpack_sbuffer *sb, const ref_link_job *job);
/* The job map `m` into *job: what it lacks keeps its default (the terms'
 * and REF_LOG_DEFAULT_CAP), and its id is read first, so that an error can
 * be answered. 0, or -1 with err: "malformed job..." (the terms checked by
 * ref_terms_check). */
int  ref_link_job_read(const msgpack_object *m, ref_link_job *job, char *err, size_t size);

typedef struct ref_link_result {
    int64_t id;
    char   *error;                /* malloc'ed, or NULL */
    char   *record;               /* malloc'ed, or NULL */
    int64_t started_ms, finished_ms;
    ref_log logs[GAME_MAX_SEATS]; /* the seats' log excerpts (texts malloc'ed) */
    int     log_seat[GAME_MAX_SEATS];   /* ... each of seat: its place in the message */
    int     nlogs;
} ref_link_result;

/* Appends the `result` message for *r to sb (a NULL error or record: nil). */
void ref_link_result_pack(msgpack_sbuffer *sb, const ref_link_result *r);
/* The result map `m` into *r (free it with ref_link_result_free): a log
 * entry that is not {bytes, text: bin} is skipped (logs are for people;
 * the record is what is checked). A result with neither an error nor a
 * record says so in its error. */
void ref_link_result_read(const msgpack_object *m, ref_link_result *r);
void ref_link_result_free(ref_link_result *r);

/* 1 when s is a content hash as the store names it: 64 lowercase hex digits. */
int  ref_link_hash_ok(const char *s);

/* The worker's `fetch` of a bot's files, for its job `id`. */
void ref_link_fetch_pack(msgpack_sbuffer *sb, int64_t id, const char *hash);
/* Reads a `fetch`: 0, or -1 (no id, or no well-formed hash). */
int  ref_link_fetch_read(const msgpack_object *m, int64_t *id, char hash[REF_LINK_HASH_HEX + 1]);

/* The arena's answer to a fetch: the archive, or why not (archive NULL). */
typedef struct ref_link_bot {
    int64_t     id;
    char        hash[REF_LINK_HASH_HEX + 1];
    const void *archive;          /* points into the message read; NULL with error */
    size_t      len;
    char        error[256];
} ref_link_bot;
void ref_link_bot_pack(msgpack_sbuffer *sb, const ref_link_bot *b);
/* Reads a `bot` answer (untrusted: its archive over REF_LINK_MAX_ARCHIVE,
 * or neither archive nor error, is an error). 0, or -1 (malformed). */
int  ref_link_bot_read(const msgpack_object *m, ref_link_bot *b);

/* A match in play: worker -> `{type: progress, id, record}`, the record so
 * far (ref_record_write of its decisions until now: its result lines say
 * nothing yet), at most every REF_LINK_PROGRESS_MS while it plays, for the
 * web to show (web/API.md). Appends it to sb. */
#define REF_LINK_PROGRESS_MS 500
void ref_link_progress_pack(msgpack_sbuffer *sb, int64_t id, const char *record);
/* Its id into *id and its record (malloc'ed), or NULL when it has none.
 * Untrusted bytes: the record is only text here. */
char *ref_link_progress_read(const msgpack_object *m, int64_t *id);

#endif
