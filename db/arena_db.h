/*
 * arena_db.h - the arena's SQLite database: bots, tournaments, matches and
 * ratings, in WAL mode with a versioned schema.
 *
 * Every match goes in with its rating update in one transaction, so a
 * crash at any moment leaves either both or neither, and the ratings table
 * always equals a replay of the matches table (arena_db_check_ratings).
 * All text the user gave (names, commands) is bound as parameters, never
 * pasted into SQL. Every statement over these tables is in this folder:
 * what the web shows is read by arena_read.h.
 */
#ifndef ARENA_DB_H
#define ARENA_DB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "ref_terms.h"

/* Seats a match may have in memory (the schema itself has no limit) and
 * bots a tournament may enter. */
#define ARENA_MAX_SEATS 8
#define ARENA_MAX_BOTS 64
#define ARENA_ELO_START 1500.0

typedef struct arena_db arena_db;

/* The schema this arena writes (PRAGMA user_version): the number of
 * migrations in arena_db_schema.c, which asserts the two agree. */
#define ARENA_DB_SCHEMA 20

/* Opens (creating the file when `create`), sets WAL, foreign keys and a
 * busy timeout, and migrates the schema to the latest version. Returns 0,
 * or -1 with a one-line reason ("no database at X", "X is not an arena
 * database", "X was written by a newer arena (schema 7)"). */
int  arena_db_open(arena_db **db, const char *path, int create, char *err, size_t size);
/* For readers beside a running arena (the web): opens without ever
 * writing (read-only, query_only; in WAL a reader never blocks the
 * writer). Refuses a file of another schema version, since migrating
 * would write. Such a connection is for one thread at a time (it has no
 * mutex: a pool may hand it from thread to thread, never to two at once).
 * 0, or -1 with a one-line reason. */
int  arena_db_open_readonly(arena_db **db, const char *path, char *err, size_t size);
void arena_db_close(arena_db *db);
int  arena_db_schema_version(arena_db *db);
/* A batch: the writes until arena_db_batch_commit are one transaction, each
 * call's own a savepoint in it (all or nothing still), so that one commit
 * (the WAL's frames written once) serves several results. Nothing written
 * in it is durable, or seen by other connections, before the commit. 0, or
 * -1 with err (batch_commit: the batch is gone, rolled back). */
int  arena_db_batch_begin(arena_db *db, char *err, size_t size);
int  arena_db_batch_commit(arena_db *db, char *err, size_t size);

/* ---- bots ---------------------------------------------------------------- */

/* A bot row is one version of a bot: `bot add NAME --version V` for a
 * registered NAME adds a row of its own (its own rating; the old version
 * keeps its history). A version's status says whether it plays:
 * active (provisional while it has fewer than ARENA_PROVISIONAL_GAMES
 * games, a status shown, not stored), disabled (with a reason: by hand,
 * or by a ladder after too many forfeits in a row; enable brings it back)
 * or retired (for good; kept with its history). A ladder run with
 * `--gate sprt` keeps a new version on trial (shown "trial": active, its
 * reason starting with ARENA_BOT_TRIAL) until its SPRT against the
 * previous version decides; the note is written by the ladder and says
 * how the test stands. */
#define ARENA_PROVISIONAL_GAMES 20
#define ARENA_BOT_TRIAL "on trial: "

typedef struct arena_bot {
    int64_t id;
    char name[64];
    char cmd[1024];
    char cwd[512];            /* "" = the arena's working directory */
    char version[64];
    char env[2048];           /* its own environment: NAME=VALUE lines (ref_env.h) */
    int  removed;             /* kept for past matches, no longer playing */
    char status[16];          /* "active", "disabled", "retired" (stored) */
    char reason[256];         /* why it is disabled or retired, or a trial note; "" if none */
    int64_t status_ms;        /* when the status last changed; 0: never */
    int64_t previous_id;      /* the version this one follows; 0: the first */
    int  games;               /* rated matches played (the live rating's count) */
    double elo;               /* the live rating */
    char label[128];          /* name as shown: told apart from its other versions */
    char plays[256];          /* the games it plays: registry names, space-separated, in
                                 alphabetical order (bot_games, schema 14) */
    int64_t owner_id;         /* the participant who submitted it (users); 0: the organizer */
    char owner[64];           /* their name, "" for none (getters) */
    char content_hash[65];    /* its files in the store (DB.store/HASH); "" for a bot by path */
} arena_bot;

/* 1 when the bot plays `game` (a registry name), else 0. */
int  arena_bot_plays(const arena_bot *b, const char *game);

/* Names: 1-63 chars of [A-Za-z0-9_.-]. A removed bot's name may be reused.
 * A version is added with the games it plays (bot->plays: games of the
 * registry, each once; "" the default game), the only games tournaments
 * and ladders schedule it in.
 * A bot is referred to as NAME (its newest registered version) or
 * NAME@VERSION. Its label, in every table, is its name, followed by
 * "@VERSION" when another row has the same name (or "#ID" when that does
 * not tell them apart either). */
/* A bot with an owner_id is added only where its name is new or the
 * newest registered version of it is that participant's. */
int  arena_db_bot_add(arena_db *db, const arena_bot *bot, char *err, size_t size);
int  arena_db_bot_remove(arena_db *db, const char *ref, char *err, size_t size);
/* 0 found, 1 no such registered bot, -1 error. */
int  arena_db_bot_by_name(arena_db *db, const char *ref, arena_bot *out);
int  arena_db_bot_by_id(arena_db *db, int64_t id, arena_bot *out);   /* removed too */
/* Registered bots (every status) by name, then version order; *out is
 * malloc'ed (free it). Returns the count or -1. */
int  arena_db_bot_list(arena_db *db, arena_bot **out);
/* The status shown: "trial" for an active bot on trial (its reason starts
 * with ARENA_BOT_TRIAL), "provisional" for an active bot with few games. */
const char *arena_bot_status_shown(const arena_bot *b);
/* Sets a registered bot's status ("active", "disabled", "retired") with
 * its reason. A retired bot stays retired. 0, or -1 with err. */
int  arena_db_bot_set_status(arena_db *db, const char *ref, const char *status,
                             const char *reason, char *err, size_t size);
/* The same by id, inside or outside a transaction (the ladder's automatic
 * disable). Only an active bot changes: 0 changed, 1 not active, -1 error. */
int  arena_db_bot_disable_id(arena_db *db, int64_t id, const char *reason, char *err,
                             size_t size);
/* Retires an active bot by id (a ladder's --retire-old): 0, 1 not active,
 * -1 error. */
int  arena_db_bot_retire_id(arena_db *db, int64_t id, const char *reason, char *err,
                            size_t size);
/* An active bot's reason, its status and status time unchanged (the
 * ladder's gate notes). 0 changed, 1 not active, -1 with err. */
int  arena_db_bot_note_id(arena_db *db, int64_t id, const char *reason, char *err,
                          size_t size);

/* ---- participants (arena_db_user.c) -------------------------------------- */

/* A participant: known to the gateway by their CURVE public key, until
 * revoked (then refused from their next request on). */
typedef struct arena_user {
    int64_t id;
    char name[64];            /* 1-63 characters of [A-Za-z0-9_.-], as bots' */
    char public_key[41];      /* Z85 */
    char endpoint[256];       /* the gateway's, as their credentials say */
    int64_t added_ms;
    int64_t revoked_ms;       /* 0: not revoked */
    int  bots;                /* their registered bot versions (lists) */
} arena_user;

/* Adds u (u->id set): 0, or -1 with err (a bad or taken name or key). */
int  arena_db_user_add(arena_db *db, arena_user *u, char *err, size_t size);
/* Every participant by name; *out malloc'ed. Count or -1. */
int  arena_db_user_list(arena_db *db, arena_user **out);
/* By name, by public key: 0 found, 1 none, -1 error. */
int  arena_db_user_get(arena_db *db, const char *name, arena_user *out);
int  arena_db_user_by_key(arena_db *db, const char *public_key, arena_user *out);
/* Revokes a participant: 0, 1 revoked already, -1 with err (unknown). */
int  arena_db_user_revoke(arena_db *db, const char *name, char *err, size_t size);

/* A submission through the gateway, accepted or refused, as stored. */
typedef struct arena_submission {
    int64_t user_id;
    const char *bot, *version;
    const char *games;        /* space-separated game names ("" for none given) */
    const char *content_hash; /* NULL when refused before it was stored */
    int64_t bytes;            /* as sent */
    int accepted;
    const char *reason;       /* the verdict's line */
    int64_t bot_id;           /* the version registered; 0 for none */
} arena_submission;
int  arena_db_submission_add(arena_db *db, const arena_submission *s, char *err, size_t size);
/* A participant's submissions since since_ms (the rate limit): count, -1. */
int  arena_db_submissions_since(arena_db *db, int64_t user_id, int64_t since_ms);
/* When bot_id, a participant's, was last checked: its newest accepted
 * submission's time (wall clock, ms), 0 if none, -1 on error. */
int64_t arena_db_bot_checked_ms(arena_db *db, int64_t user_id, int64_t bot_id);

/* ---- tournaments -------------------------------------------------------- */

/* A tournament is identified by everything that decides its matches and
 * their ratings: the fields from `game` to `elo_k`, the terms' included. The same command
 * gives the same fields, so running it again finds the same tournament. */
typedef struct arena_tournament {
    int64_t id;
    char game[32];            /* the game's registry name */
    char format[16];          /* round-robin, ..., "swiss rounds=R", knockout */
    int  games;               /* per pairing */
    char options[512];        /* game options text, e.g. "players=2 setup=draft ..." */
    uint64_t seed;
    int  nbots;
    int64_t bot[ARENA_MAX_BOTS];      /* entrants, in order */
    ref_terms terms;          /* what its matches are played under (ref_terms.h) */
    double elo_k;
    int  planned;             /* matches in the plan */
    int  done;                /* matches stored (filled by the getters) */
    int  finished;
} arena_tournament;

/* Finds the tournament with t's identifying fields, or creates it; fills
 * t->id (and, when found, every stored field). Returns 0 created, 1 found,
 * -1 error. */
int  arena_db_tournament_open(arena_db *db, arena_tournament *t, char *err, size_t size);
int  arena_db_tournament_get(arena_db *db, int64_t id, arena_tournament *out);  /* 0, 1, -1 */
/* The most recent tournament not yet finished: 0, 1 none, -1 error. */
int  arena_db_tournament_latest_unfinished(arena_db *db, arena_tournament *out);
int  arena_db_tournament_finish(arena_db *db, int64_t id);
/* game_index values already stored, from `from` on, ascending, at most
 * `limit` of them (0: all); *out malloc'ed. Count or -1. */
int  arena_db_tournament_done(arena_db *db, int64_t id, int from, int limit, int **out);
/* Swiss and knockout seed their entrants by rating at the start: each
 * bot's rating before its first match of tournament `id` (none yet: its
 * live rating), into elo[i] for bot[i], so a resumed event seeds as its
 * first run did. 0, or -1 on an error. */
int  arena_db_tournament_start_elo(arena_db *db, int64_t id, int nbots, const int64_t *bot,
                                   double *elo);

/* ---- claims: arenas sharing a tournament, and the arenas at work
 * (arena_db_claim.c) ----------------------------------------------------- */

/* An arena claims each match before handing it to a worker: 1 claimed (it
 * is not stored, and no other live arena holds it), 0 not (stored, or
 * another owner's claim is unexpired), -1 error. A claim lasts until
 * now_ms + lease_ms unless renewed; an arena that dies stops renewing, and
 * its matches go to whoever claims them next. */
int  arena_db_claim(arena_db *db, int64_t tournament_id, int index, int64_t owner,
                    int64_t now_ms, int64_t lease_ms);
/* Every claim of `owner` extended to now_ms + lease_ms: 0 or -1. */
int  arena_db_claims_renew(arena_db *db, int64_t owner, int64_t now_ms, int64_t lease_ms);
/* The tournament's matches claimed by other owners, unexpired and not
 * stored: a count, or -1. */
int  arena_db_claims_others(arena_db *db, int64_t tournament_id, int64_t owner,
                            int64_t now_ms);
/* Drops one match's claim (index >= 0: it is stored), every claim of `owner`
 * (index < 0: it stops), or with owner 0 and index < 0 every claim of the
 * tournament (it is finished): 0 or -1. */
int  arena_db_claims_drop(arena_db *db, int64_t tournament_id, int64_t owner, int index);

/* An arena at work, as the live page shows it (arena_runs, schema 12). */
typedef struct arena_run_row {
    int64_t owner;            /* its claims' owner */
    int64_t tournament_id;    /* what it plays: a tournament, or */
    int64_t ladder_id;        /* a ladder (0: not this one) */
    char    host[256];
    int64_t pid;
    int     workers;          /* ready workers, local and remote */
    int     taken;            /* matches handed to them, not yet stored */
    char    listening[256];   /* where remote workers connect; "" for none */
    int64_t started_ms, seen_ms;
} arena_run_row;

/* Writes (or refreshes) the arena's row: 0 or -1. */
int  arena_db_run_seen(arena_db *db, const arena_run_row *r);
/* Deletes the row of `owner` (it stops): 0 or -1. */
int  arena_db_run_end(arena_db *db, int64_t owner);
/* Deletes the rows last seen before before_ms (arenas killed long ago):
 * how many, or -1. */
int  arena_db_runs_forget(arena_db *db, int64_t before_ms);

/* ---- workers (schema 16) ---------------------------------------------- */

/* A remote worker the arena admits by its CURVE key (arena worker add). */
typedef struct arena_worker_row {
    int64_t id;
    char    name[64];
    char    key[41];          /* its public key, Z85 */
    int64_t added_ms;
    int64_t seen_ms;          /* 0: never heard */
    int64_t matches;          /* results taken from it */
    int64_t revoked_ms;       /* 0: admitted */
} arena_worker_row;

/* Adds a worker: NAME (letters, digits, '.', '_', '-'; at most 63) and
 * its public key, both unused so far. 0, or -1 with err. */
int  arena_db_worker_add(arena_db *db, const char *name, const char *key, int64_t now_ms,
                         char *err, size_t size);
/* Revokes NAME's key: arenas refuse it from their next beat on. 0, or -1
 * with err (no such worker, already revoked). */
int  arena_db_worker_revoke(arena_db *db, const char *name, int64_t now_ms, char *err,
                            size_t size);
/* Every worker, in the order added: the count, *out malloc'ed; or -1. */
int  arena_db_worker_list(arena_db *db, arena_worker_row **out);
/* The worker with this key was heard at seen_ms and `matches` more of its
 * results were taken: 0 (also when no worker has the key), or -1. */
int  arena_db_worker_seen(arena_db *db, const char *key, int64_t seen_ms, int64_t matches);

/* ---- matches ------------------------------------------------------------ */

/* A match judged without a result (arena_jobs.h: its referee died twice,
 * nobody to blame): stored, so it counts as played, with every seat on
 * team 0 scoring 0, culprit -1 and no record; no rating, standing, pair
 * result or W-D-L counts it. */
#define ARENA_VOID "void"
/* The forfeit of a seat whose bot the worker blamed when its referee died
 * twice playing it (arena_jobs.h). */
#define ARENA_KILLED_REFEREE "killed_referee"
/* Whether m is a void match. */
#define ARENA_MATCH_VOID(m) (!strcmp((m)->reason, ARENA_VOID))

typedef struct arena_match {
    int64_t id;
    int64_t tournament_id;    /* 0: none (a rerun, a ladder's match) */
    int64_t ladder_id;        /* 0: none; else game_index is the ladder's count */
    int  game_index;          /* position in the tournament's plan, -1 if none */
    char game[32];            /* the game's registry name */
    uint64_t seed;
    char options[512];
    int  seats;               /* 2 .. ARENA_MAX_SEATS; one stored row per seat */
    int64_t bot[ARENA_MAX_SEATS];
    int  team[ARENA_MAX_SEATS];       /* seats of one team win and lose together */
    double score[ARENA_MAX_SEATS];    /* 1 the win, 0 a loss, between: a share of it */
    char reason[32];
    int  culprit;             /* seat, or -1 */
    char detail[256];
    int  decisions;
    uint64_t hash;
    char *record;             /* the match record text (malloc'ed by getters) */
    int64_t started_ms, finished_ms;   /* Unix time, milliseconds */
    double elo_k;             /* K used for this match's rating update */
    const struct arena_log *logs;   /* store only: seats' log excerpts (may be NULL) */
    int  nlogs;
} arena_match;

/* Stores the match and, in the same transaction, updates each seat's bot
 * rating (rt_elo_match in ratings/, K = m->elo_k: every team plays as the
 * mean of its seats) and appends rating_history rows. Sets m->id. A second match with the
 * same (tournament_id, game_index), or (ladder_id, game_index), is refused
 * (returns 1): nothing is ever counted twice. 0 stored, 1 duplicate, -1 error. */
int  arena_db_match_store(arena_db *db, arena_match *m, char *err, size_t size);
int  arena_db_match_get(arena_db *db, int64_t id, arena_match *out);   /* 0, 1, -1 */
/* The match with the lowest id above after_id, its record with it: a walk
 * over every match that holds one in memory at a time. 0, 1 none, -1. */
int  arena_db_match_next(arena_db *db, int64_t after_id, arena_match *out);
/* Which matches a list or report covers: every field 0 or "" means any. */
typedef struct arena_match_filter {
    int64_t tournament_id;
    int64_t ladder_id;
    char game[32];
    int  seats;
    int64_t bot_id;           /* only the matches this bot plays in (0: any) */
} arena_match_filter;

/* The matches `f` selects (NULL: all), in the order played, without their
 * records. *out malloc'ed. Count or -1. */
int  arena_db_match_list(arena_db *db, const arena_match_filter *f, arena_match **out);

/* The same matches one at a time, without their records: fn sees each (its
 * copy lives until fn returns) and returns 0 to go on, else to stop.
 * Memory stays flat whatever their number: what reports at a million
 * matches read them by. 0 when every match was seen, fn's value when it
 * stopped, or -1 on a read error (a damaged match included). */
typedef int arena_match_fn(const arena_match *m, void *ctx);
int  arena_db_match_each(arena_db *db, const arena_match_filter *f, arena_match_fn *fn,
                         void *ctx);
/* The same with the results alone, for ratings (a void match is no game:
 * left out): fn sees each match's id, seats, bots, teams, scores and Elo K,
 * the other fields zero. */
int  arena_db_result_each(arena_db *db, const arena_match_filter *f, arena_match_fn *fn,
                          void *ctx);

/* The kinds of match `f` selects, each once: a game and a number of seats,
 * ordered by game name, then seats. *out malloc'ed (each entry's
 * tournament_id is f's). Count or -1. */
int  arena_db_match_kinds(arena_db *db, const arena_match_filter *f, arena_match_filter **out);
void arena_match_free(arena_match *m);                                 /* the record */

/* A bot's live Elo, one step per rated match it played, oldest first
 * (rating_history): the match, when it finished, its tournament (0: none)
 * or ladder ("": none), the bot's score (its first seat's), its Elo before
 * and after, and its opponents' labels separated by spaces (cut at 511
 * bytes). Count, with *out malloc'ed; or -1. */
typedef struct arena_elo_step {
    int64_t match_id, finished_ms, tournament_id;
    char ladder[128];
    double score, elo_before, elo_after;
    char opponents[512];
} arena_elo_step;
int  arena_db_elo_history(arena_db *db, int64_t bot_id, arena_elo_step **out);

/* ---- ladders ------------------------------------------------------------ */

/* A ladder runs for as long as it is let: its matches carry its id and a
 * game_index counting the matches it planned, so a match is stored once
 * whatever happens to the ladder. Its name identifies it. */
typedef struct arena_ladder {
    int64_t id;
    char name[128];
    char game[32];
    char options[512];        /* game options text */
    uint64_t seed;            /* the schedule's seed */
    int64_t next_index;       /* one past the highest game_index stored (getters) */
    int64_t matches;          /* matches stored (getters) */
} arena_ladder;

/* Finds the ladder named l->name (then every field is read back: 1), or
 * creates it with l's game, options and seed (0). -1 with err. */
int  arena_db_ladder_open(arena_db *db, arena_ladder *l, char *err, size_t size);
int  arena_db_ladder_get(arena_db *db, const char *name, arena_ladder *out);  /* 0, 1, -1 */
/* The ladder named ref, else the one ladder whose name begins with ref:
 * 0 found; 1 none, 2 several (err says which), -1 error (err). */
int  arena_db_ladder_find(arena_db *db, const char *ref, arena_ladder *out, char *err,
                          size_t size);
/* The name a ladder of this game and options gets without --name: the
 * oldest such ladder's (the same command goes on with it), else the
 * game's name, or GAME-2, GAME-3... when that is taken by a ladder of
 * other options. 0, or -1 (a database error, or no room in name). */
int  arena_db_ladder_default(arena_db *db, const char *game, const char *options, char *name,
                             size_t size);

/* How a bot has done in a ladder: matches, and the forfeits it made in a
 * row in its latest matches there (up to `max`): their count, the last
 * match and its reason. */
typedef struct arena_ladder_record {
    int64_t bot_id;
    int  games;
    int  forfeits_in_a_row;
    int64_t last_match;       /* the latest forfeit's match; 0: none */
    char last_reason[32];
} arena_ladder_record;
int  arena_db_ladder_record(arena_db *db, int64_t ladder_id, int64_t bot_id, int max,
                            arena_ladder_record *out);

/* A Bradley-Terry fit of a ladder, kept as its rating history: one row
 * per bot and fit. */
typedef struct arena_fit_row {
    int64_t bot_id;
    double rating, ci95;      /* ci95: half the 95% interval; 0 when unknown */
    int games;
} arena_fit_row;
int  arena_db_fit_store(arena_db *db, int64_t ladder_id, int64_t at_ms, int64_t matches,
                        const arena_fit_row *rows, int n, char *err, size_t size);

/* A decision of a ladder's SPRT gate (arena_ladder_gate.h): the new
 * version, the older one it had to beat, the test's hypotheses and its
 * answer on their games (from the new version's side). */
typedef struct arena_gate_verdict {
    int64_t ladder_id, bot_id, opponent_id;
    const char *outcome;          /* passed, failed, capped, overruled (let in by hand) */
    double elo0, elo1, alpha, beta;
    double llr, lower, upper;
    long wins, draws, losses, pairs;
    int64_t decided_ms;
} arena_gate_verdict;
/* Stores v once: the same outcome for the same two bots in the same ladder
 * is already stored (a ladder judges again after a restart). 1 stored, 0
 * already there, -1 with err. */
int  arena_db_gate_verdict_store(arena_db *db, const arena_gate_verdict *v, char *err,
                                 size_t size);
/* A bot's history in a ladder (0: every ladder), oldest first: *at_ms
 * and *rows malloc'ed alike. Count or -1. */
int  arena_db_fit_history(arena_db *db, int64_t ladder_id, int64_t bot_id, int64_t **at_ms,
                          arena_fit_row **rows);

/* ---- logs ------------------------------------------------------------------ */

/* A seat's log as a match keeps it: the excerpt the worker cut under the
 * tournament's cap (the head and tail of a longer log around a line saying
 * how much was left out), and the whole log's size. Bytes, not text: a
 * bot may write anything, and whoever shows it escapes it. */
typedef struct arena_log {
    int      seat;
    uint64_t bytes;           /* the whole log's size */
    char    *text;            /* the excerpt, len bytes, NUL-terminated (malloc'ed) */
    size_t   len;
} arena_log;

/* The stored logs of a match, by seat; *out malloc'ed (arena_logs_free).
 * Seats without a stored log are absent. Count, or -1. */
int  arena_db_match_logs(arena_db *db, int64_t match_id, arena_log **out);
void arena_logs_free(arena_log *logs, int n);
/* Retention: deletes the logs of every match but the newest `keep` that
 * have any (their results stay). The count of matches whose logs went, or -1. */
int  arena_db_logs_prune(arena_db *db, int64_t keep, char *err, size_t size);

/* ---- ratings and results ------------------------------------------------ */

typedef struct arena_rating {
    int64_t bot_id;
    char name[128];           /* the bot's label (see arena_bot) */
    double elo;               /* the live rating, updated match by match */
    int games, wins, draws, losses;
    double points;
} arena_rating;

/* Per bot over the matches of one tournament (0: all matches); bots with
 * games only, ordered by name. *out malloc'ed. Count or -1. `elo` is the
 * live rating (over all matches, whatever the filter). */
int  arena_db_results(arena_db *db, int64_t tournament_id, arena_rating **out);

typedef struct arena_pair_result {
    int64_t a, b;             /* bot ids, a < b */
    int a_wins, draws, b_wins;
} arena_pair_result;
/* 2-player results aggregated per pair of bots; *out malloc'ed. Count or -1. */
int  arena_db_pair_results(arena_db *db, int64_t tournament_id, arena_pair_result **out);
/* The same over one ladder's matches (ladder_id > 0). */
int  arena_db_ladder_pairs(arena_db *db, int64_t ladder_id, arena_pair_result **out);

/* The Elo rule every stored match is rated by (rt_elo_match with the
 * match's bots as players): elo[i] holds seat i's bot's rating and is
 * updated in place. 0, or -1 for a match that cannot be rated. */
int  arena_elo_match(const arena_match *m, double elo[ARENA_MAX_SEATS]);
/* 2 v 2: two teams of two seats, where the fit on team strengths applies. */
int  arena_match_two_v_two(const arena_match *m);

/* Recomputes every rating from the matches table in id order and compares
 * it with the stored ratings. 0 equal, 1 different (why in err), -1 error. */
int  arena_db_check_ratings(arena_db *db, char *err, size_t size);
/* The result totals of one kind of match (schema 18, arena_db_totals.c):
 * what the standings, the crosstable and a ladder's fit sum from a kind's
 * rated matches, kept as they are stored, so a report costs what its bots
 * and pairs cost, not its matches. `kind` is a game and seats ("" and 0:
 * the only one there is) within every match, a tournament's or a
 * ladder's. fn's functions see each bot (in the order first seen: games,
 * W-D-L, points, live Elo replayed within the kind from 1500), each pair
 * of bots met (a < b, in the order first met: a's wins, draws, b's wins)
 * and, when every match is 2 v 2 (*team_fit 1), each team game (team a
 * in seat order, its score) with how often it was played; a nonzero
 * return stops (-1). 0 read (nothing for a kind never played), 1 the
 * totals cannot answer (a bot's filter, several kinds, matches changed by
 * hand, a result they do not hold): read the matches. -1 error. */
typedef struct arena_totals_fn {
    int (*bot)(void *ctx, int64_t bot, int games, int wins, int draws, int losses, double points,
               double elo);
    int (*pair)(void *ctx, int64_t a, int64_t b, int64_t wins_a, int64_t draws, int64_t wins_b);
    int (*team)(void *ctx, const int64_t a[2], const int64_t b[2], double score_a,
                int64_t games);
} arena_totals_fn;
int  arena_db_totals_each(arena_db *db, const arena_match_filter *kind, const arena_totals_fn *fn,
                          void *ctx, int *team_fit);
/* Replays every match into fresh totals and compares them with the stored
 * ones, when the reports would read them (not after matches were changed
 * by hand). 0 equal, 1 different (the first difference in err), -1. */
int  arena_db_check_totals(arena_db *db, char *err, size_t size);
/* Recomputes the per-bot summaries (schema 11: W-D-L by opponent, the
 * matches each bot forfeited) from the seats and compares them with the
 * stored ones. 0 equal, 1 different (the first difference in err), -1
 * error. */
int  arena_db_check_summaries(arena_db *db, char *err, size_t size);

/* ---- the file itself (arena_db_care.c) ------------------------------------ */

/* Hooks SQLite's error log so that a damaged page met by any query, in any
 * database of this process, is remembered: call once, before the first
 * database is opened. 0, or -1 when SQLite was started already. */
int  arena_db_watch_damage(void);
/* 1 once a query has met a damaged page since arena_db_watch_damage. */
int  arena_db_damage_seen(void);
/* PRAGMA quick_check over the whole file: 0 intact, 1 damaged (the first
 * problem in err), -1 error. */
int  arena_db_integrity(arena_db *db, char *err, size_t size);
/* A consistent copy of the open database into the new file `path`
 * (SQLite's online backup: writers in other processes go on), checked
 * whole; nothing is left at path on failure. 0, or -1 with err. */
int  arena_db_backup(arena_db *db, const char *path, char *err, size_t size);
/* Removes a closed database file and its -wal and -shm. */
void arena_db_unlink(const char *path);

/* ---- remote bots (arena_db_remote.c, schema 17) ---------------------------- */

/* A remote bot: it plays from its participant's machine (`arena connect`)
 * through the gateway, which keeps its connection state here. */
typedef struct arena_remote_bot {
    int64_t bot_id;
    int connected;            /* the gateway holds a connection for it */
    int64_t since_ms;         /* connected, or gone, since (0: never connected) */
    int64_t seen_ms;          /* its last message through the gateway */
    char gateway[256];        /* where the arena's relays reach the gateway */
} arena_remote_bot;

#define ARENA_REMOTE_FRESH_MS 15000   /* a connection not heard longer is gone */
#define ARENA_REMOTE_ABSENT_MS 3600000 /* gone longer: shown absent (bot list's default) */

/* Marks a registered version remote: 0, or -1 with err. */
int arena_db_remote_add(arena_db *db, int64_t bot_id, char *err, size_t size);
/* 0 remote (*out), 1 not a remote bot, -1 error. */
int arena_db_remote_get(arena_db *db, int64_t bot_id, arena_remote_bot *out);
/* The gateway's word: connected or not, heard at now_ms. 0, or -1. */
int arena_db_remote_state(arena_db *db, int64_t bot_id, int connected, const char *gateway,
                          int64_t now_ms);
/* 1 when the bot may be scheduled now (not remote, or connected and heard
 * within ARENA_REMOTE_FRESH_MS of now_ms), 0 when not, -1 error. */
int arena_db_remote_ready(arena_db *db, int64_t bot_id, int64_t now_ms);
/* For a remote bot, the command of the arena's relay that plays its seat
 * (this program's `relay`, the database's path) into cmd: 1; 0 not a
 * remote bot; -1 error. */
int arena_db_remote_relay_cmd(arena_db *db, int64_t bot_id, char *cmd, size_t size);
/* Its state in a word or two: "connected", "not connected", "absent"
 * (gone longer than absent_after_ms), or "" for a bot that is not remote. */
const char *arena_remote_bot_state(const arena_remote_bot *r, int64_t now_ms, int64_t absent_after_ms);

#endif
