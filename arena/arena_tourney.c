/*
 * arena_tourney.c - the tournament runner.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena_beat.h"
#include "arena_events.h"
#include "arena_jobs.h"
#include "arena_plan.h"
#include "arena_pool.h"
#include "arena_report.h"
#include "arena_tourney.h"
#include "clk.h"
#include "game.h"
#include "kv.h"
#include "ref_match.h"
#include "ref_record.h"

void arena_spec_default(arena_spec *s)
{
    memset(s, 0, sizeof *s);
    s->format = ARENA_ROUND_ROBIN;
    s->games = 10;
    const game_api *g = game_default();
    snprintf(s->game, sizeof s->game, "%s", g->name);
    game_options *o = game_options_new(g);
    if (o)
        game_options_format(o, s->options, sizeof s->options);
    game_options_free(o);
    s->seed = 1;
    ref_terms_default(&s->terms);
    s->elo_k = 16;
}

/* The members a spec and its tournament row share, each of one type and
 * size in both: copied as they are, one way or the other (SPEC_COPY, with
 * dst and src in scope). What differs is the format (the spec's typed, the
 * row's text) and the row's id and counts. */
#define SPEC_SHARED(X) X(game) X(games) X(options) X(seed) X(nbots) X(bot) X(terms) X(elo_k)
#define SPEC_COPY(f) \
    _Static_assert(sizeof dst->f == sizeof src->f, #f " differs"); \
    memcpy(&dst->f, &src->f, sizeof dst->f);

void arena_spec_to_tournament(const arena_spec *src, int planned, arena_tournament *dst)
{
    memset(dst, 0, sizeof *dst);
    SPEC_SHARED(SPEC_COPY)
    if (src->format == ARENA_SWISS)
        snprintf(dst->format, sizeof dst->format, "swiss rounds=%d", src->rounds);
    else
        snprintf(dst->format, sizeof dst->format, "%s", arena_format_name(src->format));
    dst->planned = planned;
}

int arena_spec_from_tournament(const arena_tournament *src, arena_spec *dst)
{
    arena_spec_default(dst);
    SPEC_SHARED(SPEC_COPY)
    int rounds, end = 0;
    if (sscanf(src->format, "swiss rounds=%d%n", &rounds, &end) == 1 && !src->format[end]) {
        dst->format = ARENA_SWISS;
        dst->rounds = rounds;
    } else {
        dst->format = arena_format_parse(src->format);
    }
    return dst->format < 0 ? -1 : 0;
}

int arena_spec_shape(const arena_spec *s, int *seats, int *teams, char *err, size_t size)
{
    const game_api *g = game_find(s->game);
    if (!g) {
        snprintf(err, size, "unknown game '%s'", s->game);
        return -1;
    }
    game_options *o = game_options_new(g);
    int rc = o ? 0 : -1;
    if (!o)
        snprintf(err, size, "out of memory");
    if (rc == 0)
        rc = game_options_parse(o, s->options, err, size);
    if (rc == 0)
        rc = game_shape(o, seats, teams, err, size);
    game_options_free(o);
    return rc;
}

int arena_spec_plan_size(const arena_spec *s, int seats, const char **why)
{
    if (s->format == ARENA_SWISS || s->format == ARENA_KNOCKOUT)
        return seats == 2 ? arena_event_size(s->format, s->nbots, s->games, s->rounds, why)
                          : (*why = "Swiss and knockout are for 2-player games", -1);
    return arena_plan_size(s->format, seats, s->nbots, s->games, why);
}

/* ---- progress ----------------------------------------------------------- */

static void leader(arena_db *db, int64_t tid, char *buf, size_t size)
{
    arena_rating *r = NULL;
    int n = arena_db_results(db, tid, &r), best = -1;
    for (int i = 0; i < n; i++)
        if (r[i].games && (best < 0 || r[i].points / r[i].games > r[best].points / r[best].games))
            best = i;
    if (best >= 0)
        snprintf(buf, size, "%s %.0f%%", r[best].name, 100 * r[best].points / r[best].games);
    else
        snprintf(buf, size, "-");
    free(r);
}

static void progress(arena_db *db, int64_t tid, int done, int total, int started_done,
                     double t0, int tty, double *last)
{
    double now = clk_mono_s();
    if (!tty && done != total && now - *last < 10 && done % (total / 10 + 1))
        return;
    *last = now;
    int fresh = done - started_done;
    double eta = fresh > 0 ? (now - t0) / fresh * (total - done) : 0;
    char lead[160];
    leader(db, tid, lead, sizeof lead);
    if (tty) {
        int width = 30, fill = total ? done * width / total : width;
        fprintf(stderr, "\r[%.*s%.*s] %d/%d  ETA %d:%02d  leader %s   ", fill,
                "##############################", width - fill,
                "..............................", done, total, (int)eta / 60, (int)eta % 60,
                lead);
        if (done == total)
            fprintf(stderr, "\n");
    } else {
        fprintf(stderr, "arena: %d/%d matches, ETA %d:%02d, leader %s\n", done, total,
                (int)eta / 60, (int)eta % 60, lead);
    }
}

/* ---- results ------------------------------------------------------------ */

/* Plan game `g` as a seating of the spec's bots. */
static arena_seating seating_of(const arena_spec *spec, const arena_game *g)
{
    arena_seating s = { .index = g->index, .seed = g->seed, .seats = g->seats };
    for (int i = 0; i < g->seats; i++)
        s.bot[i] = spec->bot[g->seat[i]];
    return s;
}

/* A match whose bot ran out of time waiting for a CPU (REF_CONTENDED) is
 * not stored: it is played again from its seed, at one match fewer at
 * once, which is said. The same machine overloaded at one match at a time,
 * again and again, stops the tournament (resumable) rather than loop. */
#define MAX_REPLAYS_AT_ONE 5
/* The most results stored in one commit (arena_db_batch_begin): enough to
 * divide the commit's cost, few enough that progress is seen as it goes. */
#define BATCH_RESULTS 64

static int replay_contended(arena_pool *pool, const arena_spec *spec, const arena_run *run,
                            const arena_game *g, arena_db *db, int *concurrency, int *replays,
                            char *err, size_t size)
{
    if (*concurrency == 1 && ++*replays > MAX_REPLAYS_AT_ONE) {
        snprintf(err, size, "match %d: a bot ran out of time waiting for a CPU %d times at "
                 "one match at a time: this machine is too loaded%s", g->index + 1,
                 MAX_REPLAYS_AT_ONE, spec->terms.clock != REF_CLOCK_WALL ? "" :
                 " for --clock wall (use --clock cpu)");
        return -1;
    }
    int lowered = *concurrency > 1;
    if (lowered)
        arena_pool_limit(pool, --*concurrency);
    fprintf(stderr, "arena: match %d was contended (a bot ran out of time waiting for a "
            "CPU): playing it again from its seed; concurrency %s %d\n", g->index + 1,
            lowered ? "lowered to" : "stays at", *concurrency);
    arena_job job;
    arena_seating seating = seating_of(spec, g);
    arena_job_for(spec, &seating, run->log_bytes, db, &job);
    return arena_pool_submit(pool, &job) < 0 ? (snprintf(err, size, "out of memory"), -1) : 0;
}

/* Jobs waiting for workers at any moment: enough to keep every worker
 * busy, few enough that memory does not grow with the plan. */
static int window(const arena_run *run)
{
    return 2 * run->concurrency + (run->remote.listen ? 64 : 0) + 2;
}

/* Walks the plan's indexes, skipping the stored ones, read from the
 * database a batch at a time: memory stays flat however long the plan. */
typedef struct plan_cursor {
    int  next, total;         /* the next index to consider; the plan's size */
    int *stored, n, pos;      /* a batch of stored indexes, ascending */
    int  whole;               /* the batch holds every stored index after it began */
} plan_cursor;

enum { STORED_BATCH = 4096 };

/* The next index not stored: 1, 0 when the plan is done, -1 on a read error. */
static int cursor_next(plan_cursor *c, arena_db *db, int64_t tid, int *index)
{
    for (; c->next < c->total; c->next++) {
        while (c->pos < c->n && c->stored[c->pos] < c->next)
            c->pos++;
        if (c->pos == c->n && !c->whole) {
            free(c->stored);
            c->n = arena_db_tournament_done(db, tid, c->next, STORED_BATCH, &c->stored);
            if (c->n < 0)
                return -1;
            c->pos = 0;
            c->whole = c->n < STORED_BATCH;
        }
        if (c->pos < c->n && c->stored[c->pos] == c->next)
            continue;
        *index = c->next++;
        return 1;
    }
    return 0;
}

/* ---- events (Swiss, knockout): rounds planned from stored results ---------- */

typedef struct event_state {
    int size;                          /* 0: not an event */
    int stale;                         /* scores to read again: another arena stores too */
    int seed_order[ARENA_EVENT_MAX_BOTS];
    arena_event_score *scores;         /* by game index */
    unsigned char *submitted;          /* by game index: handed to a worker here */
    arena_event ev;
} event_state;

/* The stored scores from the database, the event replayed from them: 0,
 * or -1 with err. */
static int event_load(event_state *e, const arena_spec *spec, arena_db *db, int64_t tid,
                      char *err, size_t size)
{
    arena_match *m = NULL;
    arena_match_filter f = { .tournament_id = tid };
    int n = arena_db_match_list(db, &f, &m);
    if (n < 0) {
        snprintf(err, size, "cannot read the tournament's matches");
        return -1;
    }
    memset(e->scores, 0, (size_t)e->size * sizeof *e->scores);
    for (int i = 0; i < n; i++)
        if (m[i].game_index >= 0 && m[i].game_index < e->size && m[i].seats == 2)
            e->scores[m[i].game_index] = (arena_event_score){ 1, { m[i].score[0],
                                                                   m[i].score[1] } };
    free(m);
    e->stale = 0;
    arena_event_replay(spec->format, spec->nbots, spec->games, spec->rounds, spec->seed,
                       e->seed_order, e->scores, &e->ev);
    return 0;
}

/* Seeds the entrants by their rating at the start
 * (arena_db_tournament_start_elo) and loads what is stored; 0, or -1 with err. */
static int event_start(event_state *e, const arena_spec *spec, int total, arena_db *db,
                       int64_t tid, char *err, size_t size)
{
    double elo[ARENA_EVENT_MAX_BOTS];
    e->size = total;
    e->scores = calloc((size_t)total, sizeof *e->scores);
    e->submitted = calloc((size_t)total, 1);
    if (!e->scores || !e->submitted ||
        arena_db_tournament_start_elo(db, tid, spec->nbots, spec->bot, elo) < 0) {
        snprintf(err, size, "cannot read the entrants' ratings");
        return -1;
    }
    for (int i = 0; i < spec->nbots; i++) {    /* strongest first; ties: entrant order */
        int j = i;
        for (; j > 0 && elo[i] > elo[e->seed_order[j - 1]]; j--)
            e->seed_order[j] = e->seed_order[j - 1];
        e->seed_order[j] = i;
    }
    return event_load(e, spec, db, tid, err, size);
}

/* The plan's game `index`, or the event's (from the round being played):
 * 0, or -1 if the event has no such game now. */
static int planned_game(const event_state *e, const arena_spec *spec, int seats, int index,
                        arena_game *g)
{
    if (!e->size) {
        arena_plan_game(spec->format, seats, spec->nbots, spec->seed, index, g);
        return 0;
    }
    for (int i = 0; i < e->ev.ngames; i++)
        if (e->ev.game[i].index == index) {
            *g = e->ev.game[i];
            return 0;
        }
    return -1;
}

static void event_free(event_state *e)
{
    free(e->scores);
    free(e->submitted);
}

int arena_event_now(arena_db *db, const arena_spec *spec, int64_t tid, int *seed_order,
                    arena_event *ev, char *err, size_t size)
{
    const char *why;
    event_state e = { 0 };
    int total = arena_spec_plan_size(spec, 2, &why);
    if (total < 0) {
        snprintf(err, size, "%s", why);
        return -1;
    }
    int rc = event_start(&e, spec, total, db, tid, err, size);
    if (rc == 0) {
        memcpy(seed_order, e.seed_order, sizeof e.seed_order);
        *ev = e.ev;
    }
    event_free(&e);
    return rc;
}

/* ---- sharing a tournament with other arenas ------------------------------ */

/* A claim lasts this long unless its arena renews it, which a live arena
 * does every ARENA_BEAT_MS (with its row, arena_beat.h): an arena that
 * dies frees its matches this soon. A live arena whose claim lapsed anyway
 * (stalled for seconds) costs a match played twice, never stored twice:
 * the matches' unique index refuses it. */
#define LEASE_MS 10000

typedef struct share {
    int64_t owner;            /* this arena's claims and row, random */
    arena_beat beat;          /* its row, while its pool runs */
    int     shared;           /* a claim was refused: another arena is at work */
    int     waiting;          /* "waiting for ..." was said */
    int     here;             /* matches this arena stored */
    int     absent;           /* matches left this pass: a remote bot not connected */
    int64_t absent_bot;       /* one of those bots */
    int64_t absent_since_ms;  /* waiting for them since (0: not waiting) */
} share;

static void share_start(share *sh)
{
    *sh = (share){ .owner = arena_owner_new() };
}

/* The tournament's stored matches, or `fallback` if they cannot be read. */
static int stored_count(arena_db *db, int64_t tid, int fallback)
{
    arena_tournament t;
    return arena_db_tournament_get(db, tid, &t) == 0 ? t.done : fallback;
}

/* Renews this arena's row and claims when due; where another arena shares
 * the tournament, *done follows what both stored. */
static void share_tick(share *sh, arena_db *db, int64_t tid, int *done, arena_pool *pool)
{
    if (!arena_beat_tick(&sh->beat, db, pool))
        return;
    arena_db_claims_renew(db, sh->owner, clk_wall_ms(), LEASE_MS);
    if (sh->shared)
        *done = stored_count(db, tid, *done);
}

/* A seat's remote bot that is not connected now, or 0. */
static int64_t absent_seat(arena_db *db, const arena_seating *s)
{
    int64_t now = clk_wall_ms();
    for (int i = 0; i < s->seats; i++)
        if (arena_db_remote_ready(db, s->bot[i], now) == 0)
            return s->bot[i];
    return 0;
}

/* Hands out plan games until the window is full or the plan is walked,
 * claiming each first: a game another arena holds is left to it. */
static int fill(arena_pool *pool, plan_cursor *c, const arena_spec *spec, int seats,
                const arena_run *run, arena_db *db, int64_t tid, share *sh, char *err,
                size_t size)
{
    int index, got;
    while (arena_pool_pending(pool) < window(run) &&
           (got = cursor_next(c, db, tid, &index)) != 0) {
        arena_game g;
        arena_job job;
        int claimed = got < 0 ? -1 : arena_db_claim(db, tid, index, sh->owner, clk_wall_ms(),
                                                    LEASE_MS);
        if (claimed < 0) {
            snprintf(err, size, "cannot read or claim the tournament's matches");
            return -1;
        }
        if (!claimed) {
            sh->shared = 1;
            continue;
        }
        arena_plan_game(spec->format, seats, spec->nbots, spec->seed, index, &g);
        arena_seating seating = seating_of(spec, &g);
        int64_t away = absent_seat(db, &seating);
        if (away) {                   /* left for this pass: not a forfeit */
            arena_db_claims_drop(db, tid, sh->owner, index);
            sh->absent++;
            sh->absent_bot = away;
            continue;
        }
        arena_job_for(spec, &seating, run->log_bytes, db, &job);
        if (arena_pool_submit(pool, &job) < 0) {
            snprintf(err, size, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* The event's games of the round being played, not yet handed out here,
 * each claimed first, within the window. */
static int event_fill(arena_pool *pool, event_state *e, const arena_spec *spec,
                      const arena_run *run, arena_db *db, int64_t tid, share *sh, char *err,
                      size_t size)
{
    if ((e->stale || sh->shared) && event_load(e, spec, db, tid, err, size) < 0)
        return -1;
    arena_event_replay(spec->format, spec->nbots, spec->games, spec->rounds, spec->seed,
                       e->seed_order, e->scores, &e->ev);
    for (int i = 0; i < e->ev.ngames && arena_pool_pending(pool) < window(run); i++) {
        const arena_game *g = &e->ev.game[i];
        if (e->submitted[g->index])
            continue;
        int claimed = arena_db_claim(db, tid, g->index, sh->owner, clk_wall_ms(), LEASE_MS);
        if (claimed < 0) {
            snprintf(err, size, "cannot claim the tournament's matches");
            return -1;
        }
        if (!claimed) {
            sh->shared = 1;
            continue;
        }
        arena_job job;
        arena_seating seating = seating_of(spec, g);
        arena_job_for(spec, &seating, run->log_bytes, db, &job);
        if (arena_pool_submit(pool, &job) < 0) {
            snprintf(err, size, "out of memory");
            return -1;
        }
        e->submitted[g->index] = 1;
    }
    return 0;
}

/* The next games to play, whatever the format. */
static int hand_out(arena_pool *pool, plan_cursor *c, event_state *e, const arena_spec *spec,
                    int seats, const arena_run *run, arena_db *db, int64_t tid, share *sh,
                    char *err, size_t size)
{
    if (e->size)
        return event_fill(pool, e, spec, run, db, tid, sh, err, size);
    return fill(pool, c, spec, seats, run, db, tid, sh, err, size);
}

/* An event with nothing in flight here: 1 when it is decided; 0 when
 * another arena holds games of the round (read again, and anything not
 * stored may be claimed again once their claims lapse). */
static int event_walked(arena_db *db, int64_t tid, event_state *e, const arena_spec *spec,
                        share *sh, const arena_run *run, int *done)
{
    char err[256];
    *done = stored_count(db, tid, *done);
    if (event_load(e, spec, db, tid, err, sizeof err) == 0 && e->ev.done)
        return 1;
    if (!run->quiet && !sh->waiting++)
        fprintf(stderr, "arena: waiting for %d matches another arena is playing\n",
                arena_db_claims_others(db, tid, sh->owner, clk_wall_ms()));
    memset(e->submitted, 0, (size_t)e->size);
    return 0;
}

/* Called with nothing in flight and the plan walked: 1 when every match is
 * stored; 0 when some are another arena's (the cursor starts over, so that
 * the claims of an arena that died are taken over once they lapse). */
static int walked(arena_db *db, int64_t tid, plan_cursor *c, share *sh, const arena_run *run,
                  int *done)
{
    *done = stored_count(db, tid, *done);
    if (*done >= c->total)
        return 1;
    if (sh->absent) {                 /* remote bots away: wait, then stop */
        int64_t now = clk_mono_ms();
        arena_bot b;
        if (!sh->absent_since_ms && !run->quiet)
            fprintf(stderr, "arena: %d match%s wait%s for remote bot %s to connect (up to "
                    "%" PRId64 " s)\n", sh->absent, sh->absent == 1 ? "" : "es",
                    sh->absent == 1 ? "s" : "", arena_db_bot_by_id(db, sh->absent_bot, &b) == 0
                    ? b.label : "?", run->remote_wait_s);
        if (!sh->absent_since_ms)
            sh->absent_since_ms = now;
        if (now - sh->absent_since_ms >= run->remote_wait_s * 1000)
            return 2;
        sh->absent = 0;
    } else {
        sh->absent_since_ms = 0;
    }
    if (sh->absent_since_ms) {
        free(c->stored);
        *c = (plan_cursor){ .total = c->total };
        return 0;
    }
    if (!run->quiet && !sh->waiting++)
        fprintf(stderr, "arena: waiting for %d matches another arena is playing\n",
                arena_db_claims_others(db, tid, sh->owner, clk_wall_ms()));
    free(c->stored);
    *c = (plan_cursor){ .total = c->total };
    return 0;
}

static void standings_now(arena_db *db, int64_t tid, int done, int total)
{
    arena_match_filter f = { .tournament_id = tid };
    char err[256];
    printf("standings after %d of %d matches:\n", done, total);
    if (arena_standings(db, &f, ARENA_TABLE, stdout, err, sizeof err) < 0)
        printf("(cannot show them: %s)\n", err);
    fflush(stdout);
}

/* One result (or a verdict: arena_pool.h) into the database: 0 stored, 1
 * stored already (by another arena, whose claim outlived ours), 2 refused
 * (its record does not replay to its job: the pool hands the match to
 * another worker), 3 not stored because a bot lost it waiting for a CPU (its
 * record replays: to be played again), or -1 with err. */
static int store_result(arena_db *db, arena_pool *pool, const arena_spec *spec, int seats,
                        event_state *e, int64_t tid, int total, const arena_job_result *res,
                        char *err, size_t size)
{
    arena_game g;
    if ((res->error && !res->deaths) || res->id < 0 || res->id >= total ||
        planned_game(e, spec, seats, (int)res->id, &g) < 0) {
        snprintf(err, size, "match %" PRId64 " could not be played: %s", res->id + 1,
                 res->error ? res->error : "bad job id");
        return -1;
    }
    arena_match m;
    char why[512];
    arena_seating seating = seating_of(spec, &g);
    int rc = res->deaths ? arena_match_from_verdict(res, spec, &seating, &m, why, sizeof why)
                         : arena_match_from_result(res, spec, &seating, &m, why, sizeof why);
    if (rc < 0 && !res->deaths && arena_pool_refuse(pool, res, why) == 0)
        return 2;
    if (rc == 0 && !res->deaths && arena_result_contended(res))
        return 3;
    m.tournament_id = tid;
    if (rc == 0)
        rc = arena_db_match_store(db, &m, why, sizeof why);
    if (rc < 0)
        snprintf(err, size, "match %" PRId64 ": %s", res->id + 1, why);
    if (rc == 0 && e->size)
        e->scores[res->id] = (arena_event_score){ 1, { m.score[0], m.score[1] } };
    e->stale |= rc == 1;                  /* another arena's result: read it */
    return rc;
}

/* The tournament is played: it is marked finished, its claims dropped, its
 * logs pruned, and the arena says who played what. 0 or -1 with err. */
static int finish(arena_db *db, int64_t tid, const arena_run *run, const share *sh, int ndone,
                  char *err, size_t size)
{
    int done = stored_count(db, tid, ndone + sh->here);
    arena_db_tournament_finish(db, tid);
    arena_db_claims_drop(db, tid, 0, -1);
    if (run->keep_logs >= 0 && arena_db_logs_prune(db, run->keep_logs, err, size) < 0)
        return -1;
    int played = done - ndone;
    if (!run->quiet && played > sh->here)
        fprintf(stderr, "arena: %d match%s played here, %d by another arena, %d stored before\n",
                sh->here, sh->here == 1 ? "" : "es", played - sh->here, ndone);
    else if (!run->quiet && ndone)
        fprintf(stderr, "arena: %d match%s played, %d stored before\n", played,
                played == 1 ? "" : "es", ndone);
    else if (!run->quiet)
        fprintf(stderr, "arena: %d match%s played\n", done, done == 1 ? "" : "es");
    return 0;
}

/* Every bot of the spec plays its game (the callers chose them so; a
 * tournament resumed or played by another command is held to it too), and
 * a remote bot only where this machine has workers (arena_job_relays):
 * 0, or -1 with the first that does not. */
static int bots_play_game(arena_db *db, const arena_spec *spec, const arena_run *run, char *err,
                          size_t size)
{
    for (int i = 0; i < spec->nbots; i++) {
        arena_bot b;
        if (arena_db_bot_by_id(db, spec->bot[i], &b) != 0) {
            snprintf(err, size, "cannot read bot %" PRId64, spec->bot[i]);
            return -1;
        }
        if (!arena_bot_plays(&b, spec->game)) {
            snprintf(err, size, "bot %s does not play %s (it plays %s)", b.label, spec->game,
                     b.plays);
            return -1;
        }
        arena_remote_bot r;
        if (run->concurrency == 0 && arena_db_remote_get(db, b.id, &r) == 0) {
            snprintf(err, size, "bot %s is a remote bot: its matches are played by this "
                     "machine's workers (--concurrency 1 or more), not by remote ones", b.label);
            return -1;
        }
    }
    return 0;
}

int arena_tourney_run(arena_db *db, const arena_spec *spec, const arena_run *run,
                      int64_t *tournament_id, char *err, size_t size)
{
    assert(!run->enough || (spec->format != ARENA_SWISS && spec->format != ARENA_KNOCKOUT));
    int concurrency = 0;
    const char *why;
    int seats = 0, teams = 0;
    /* A resumed tournament's terms come from its row: workers would refuse
     * every job of terms out of range, so it is refused here, once. */
    if (arena_spec_shape(spec, &seats, &teams, err, size) < 0 ||
        ref_terms_check(&spec->terms, err, size) < 0 ||
        bots_play_game(db, spec, run, err, size) < 0)
        return -1;
    int total = arena_spec_plan_size(spec, seats, &why);
    if (total < 0) {
        snprintf(err, size, "%s", why);
        return -1;
    }
    arena_tournament t;
    arena_spec_to_tournament(spec, total, &t);
    if (arena_db_tournament_open(db, &t, err, size) < 0)
        return -1;
    *tournament_id = t.id;
    if (arena_db_tournament_get(db, t.id, &t) != 0) {
        snprintf(err, size, "cannot read the tournament's matches");
        return -1;
    }
    int ndone = t.done, done = ndone, tty = isatty(2), rc = -1, ending = 0;
    plan_cursor c = { .total = total };
    event_state e = { 0 };
    arena_pool *pool = NULL;
    share sh;
    share_start(&sh);
    if ((spec->format == ARENA_SWISS || spec->format == ARENA_KNOCKOUT) &&
        event_start(&e, spec, total, db, t.id, err, size) < 0) {
        event_free(&e);
        return -1;
    }
    int left = e.size && e.ev.done ? 0 : total - ndone;
    if (left > 0) {
        int workers = run->concurrency < left ? run->concurrency : left;
        pool = arena_pool_start(workers, run->affinity, run->referee, run->sandbox, &run->remote,
                                err, size);
        concurrency = workers;
        if (pool)
            arena_beat_start(&sh.beat, db, sh.owner, t.id, 0, pool);
        if (!pool) {
            event_free(&e);
            return -1;
        }
    }
    if (!run->quiet && ndone)
        fprintf(stderr, "arena: resuming tournament %" PRId64 ": %d of %d matches stored\n",
                t.id, ndone, total);
    else if (!run->quiet)
        fprintf(stderr, "arena: tournament %" PRId64 ": planning %s%d matches%s\n", t.id,
                spec->format == ARENA_KNOCKOUT ? "at most " : "", total,
                e.size ? ", a round at a time" : "");
    if (pool && run->remote.listen)
        fprintf(stderr, "arena: workers connect to %s (referee worker --connect ...)\n",
                arena_pool_listening(pool));
    int replays = 0, batched = 0;  /* results stored in the open batch */
    double t0 = clk_mono_s(), last = 0;
    while (pool) {
        /* The results already waiting go in one batch with the claims of
         * the jobs handed out after them: one commit for them all. No job
         * is handed out (arena_pool_next) while it is open, so a worker's
         * result is durable before it is given another job. */
        arena_job_result res;
        int got = batched && batched < BATCH_RESULTS ? arena_pool_take(pool, &res, err, size) : 0;
        if (got < 0)
            goto out;
        if (!got) {
            if (run->stop && *run->stop) {
                snprintf(err, size, "stopped: %d of %d matches stored; run the same command "
                         "again (or arena tournament --resume) to play the rest",
                         stored_count(db, t.id, done), total);
                goto out;
            }
            if (!batched && arena_db_batch_begin(db, err, size) < 0)
                goto out;
            share_tick(&sh, db, t.id, &done, pool);
            if (hand_out(pool, &c, &e, spec, seats, run, db, t.id, &sh, err, size) < 0)
                goto out;
            batched = 0;
            if (arena_db_batch_commit(db, err, size) < 0)
                goto out;
            int over = arena_pool_pending(pool) != 0 ? 0
                       : e.size ? event_walked(db, t.id, &e, spec, &sh, run, &done)
                                : walked(db, t.id, &c, &sh, run, &done);
            if (over == 2) {
                snprintf(err, size, "%d match%s skipped: a remote bot was not connected within "
                         "%" PRId64 " s (not forfeited); %d of %d matches stored; arena "
                         "tournament --resume plays the rest", sh.absent,
                         sh.absent == 1 ? "" : "es", run->remote_wait_s,
                         stored_count(db, t.id, done), total);
                goto out;
            }
            if (over)
                break;
            int idle = arena_pool_pending(pool) == 0;    /* waiting on another arena */
            got = arena_pool_next(pool, &res, idle ? 1000 : 250, err, size);
            if (got < 0)
                goto out;
            if (!got) {
                if (!run->quiet && tty)
                    progress(db, t.id, done, total, ndone, t0, tty, &last);
                continue;
            }
            if (arena_db_batch_begin(db, err, size) < 0) {
                arena_job_result_free(&res);
                goto out;
            }
        }
        batched++;
        int stored = store_result(db, pool, spec, seats, &e, t.id, total, &res, err, size);
        if (stored == 3) {
            arena_game g;
            int again = planned_game(&e, spec, seats, (int)res.id, &g) < 0 ? -1 : 0;
            if (again < 0)
                snprintf(err, size, "match %" PRId64 " is not in the round", res.id + 1);
            else
                again = replay_contended(pool, spec, run, &g, db, &concurrency, &replays, err,
                                         size);
            arena_job_result_free(&res);
            if (again < 0)
                goto out;
            continue;
        }
        if (stored == 0 || stored == 1)
            arena_db_claims_drop(db, t.id, sh.owner, (int)res.id);
        arena_job_result_free(&res);
        if (stored < 0)
            goto out;
        if (stored >= 1)
            continue;         /* 1: another arena's after all (its claim had lapsed);
                               * 2: refused, another worker plays it */
        done++;
        sh.here++;
        if (run->keep_logs >= 0 && done % 64 == 0)
            arena_db_logs_prune(db, run->keep_logs, NULL, 0);
        if (!run->quiet)
            progress(db, t.id, done, total, ndone, t0, tty, &last);
        if (run->rating_interval > 0 && sh.here % run->rating_interval == 0 && done < total)
            standings_now(db, t.id, done, total);
        if (run->enough && !ending && run->enough(run->enough_ctx, db, t.id)) {
            ending = 1;                 /* hand out no new pair: the twin of the last */
            c.total = c.next + c.next % 2;
        }
    }
    if (finish(db, t.id, run, &sh, ndone, err, size) < 0)
        goto out;
    rc = 0;
out:
    if (arena_db_batch_commit(db, rc < 0 ? NULL : err, rc < 0 ? 0 : size) < 0)
        rc = -1;                  /* what was stored stays stored, even on an error */
    arena_beat_stop(&sh.beat, db, pool);
    arena_pool_stop(pool);
    if (pool && rc < 0)
        arena_db_claims_drop(db, t.id, sh.owner, -1);
    free(c.stored);
    event_free(&e);
    return rc;
}
