/*
 * arena_ladder.c - the ladder service (arena_ladder.h): plan seed pairs
 * by matchmaking, hand them to the worker pool, store each result with
 * the ladder's id, and keep watch on the bots, their forfeits and the fit.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena_beat.h"
#include "arena_jobs.h"
#include "arena_ladder.h"
#include "arena_ladder_fit.h"
#include "arena_matchmake.h"
#include "arena_plan.h"
#include "arena_pool.h"
#include "arena_report.h"
#include "clk.h"

void arena_ladder_default(arena_ladder_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_forfeits = 5;
    o->per_bot = 2;
    o->fit_every = 100;
    o->fit_seconds = 60;
    o->grace_s = 30;
    o->reload_s = 2;
    o->log_s = 60;
    arena_gate_default(&o->gate);
}

/* A match handed to the pool and not yet back. */
typedef struct flight {
    int used;
    arena_seating s;
} flight;

/* The service's state: its row, the active bots as matchmaking sees them
 * (with their labels for messages), and the matches in flight. */
typedef struct ladder {
    arena_db *db;
    arena_beat beat;          /* its row among the arenas at work */
    const arena_spec *spec;
    const arena_run *run;
    const arena_ladder_opts *o;
    arena_ladder l;
    arena_mm_params mm;
    arena_pool *pool;
    arena_mm_bot *bots;           /* the active bots, nbots of them */
    char (*label)[128];
    int nbots;
    arena_gate *trials;           /* new versions on trial (out of matchmaking) */
    int ntrials;
    int64_t *passed;              /* versions that passed their gate (judged once a run) */
    int npassed;
    int64_t *elsewhere;           /* active bots of other games, said left out (once) */
    int nelsewhere;
    flight *fl;                   /* the matches in flight, nfl slots */
    int nfl;
    int64_t pair;                 /* the next seed pair to plan */
    int64_t planned, stored, abandoned, lost, since_fit;
    double t0, last_reload, last_fit, last_log;
    int tty, stopping;
    int waiting;                  /* too few bots to pair, said */
    int said_no_relay;            /* remote bots left out (no local workers), said */
    double stop_at;
    arena_lfit *lfit;             /* 2 seats: the fit's totals, kept as matches are stored */
    arena_ladder_stats st;
} ladder;

static void say(const ladder *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const ladder *L, const char *fmt, ...)
{
    if (L->run->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%sarena: ladder %s: ", L->tty ? "\r\033[K" : "", L->l.name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- the bots ------------------------------------------------------------ */

static int find_bot(const ladder *L, int64_t id)
{
    for (int i = 0; i < L->nbots; i++)
        if (L->bots[i].id == id)
            return i;
    return -1;
}

static int id_in(const int64_t *ids, int n, int64_t id)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return 1;
    return 0;
}

/* id appended to *ids: 0, or -1 out of memory. */
static int id_add(int64_t **ids, int *n, int64_t id)
{
    int64_t *grown = realloc(*ids, ((size_t)*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *ids = grown;
    grown[(*n)++] = id;
    return 0;
}

static int has_passed(const ladder *L, int64_t id)
{
    return id_in(L->passed, L->npassed, id);
}

/* list[i] passed its gate against g->opponent: with --retire-old the
 * version it beat is retired (as fishtest merges a patch and Kaggle keeps
 * the newest), else the log says it keeps playing. 0, or -1 with err. */
static int retire_beaten(ladder *L, const arena_bot *list, int n, int i, const arena_gate *g,
                         char *err, size_t size)
{
    const arena_bot *old = NULL;
    for (int k = 0; k < n; k++)
        if (list[k].id == g->opponent && !list[k].removed && !strcmp(list[k].status, "active"))
            old = &list[k];
    if (!old)
        return 0;                  /* retired already (a run before), or set aside by hand */
    if (!L->o->retire_old) {
        say(L, "%s keeps playing beside %s (--retire-old retires the version a new one beats)",
            old->label, list[i].label);
        return 0;
    }
    char reason[sizeof old->reason];
    int len = snprintf(reason, sizeof reason, "replaced by %s, which passed its SPRT gate "
                       "against it in ladder %.60s", list[i].label, L->l.name);
    if (len >= (int)sizeof reason)         /* a long label: the end says enough */
        snprintf(reason, sizeof reason, "replaced by a version that passed its SPRT gate");
    if (arena_db_bot_retire_id(L->db, old->id, reason, err, size) < 0)
        return -1;
    say(L, "%s retired: %s", old->label, reason);
    return 0;
}

/* With a gate: whether list[i] (active) stays out of matchmaking, on
 * trial (added to trials) or disabled now by its verdict. A verdict is
 * said once; a note is written when it changes. 1 out, 0 plays, -1 err. */
static int gate(ladder *L, const arena_bot *list, int n, int i, arena_gate *trials, int *ntrials,
                char *err, size_t size)
{
    arena_gate g = { .opponent = arena_gate_opponent(list, n, i) };
    if (!L->o->gate.on || !g.opponent || has_passed(L, list[i].id))
        return 0;
    for (int k = 0; k < n; k++)
        if (list[k].id == g.opponent)
            snprintf(g.opponent_label, sizeof g.opponent_label, "%s", list[k].label);
    if (arena_gate_judge(L->db, L->l.id, &L->o->gate, &list[i], &g, err, size) < 0)
        return -1;
    for (int k = 0; k < *ntrials; k++)
        if (trials[k].bot == g.opponent && g.state == ARENA_GATE_TRIAL)
            g.state = ARENA_GATE_WAIT;
    char text[sizeof list[i].reason];
    arena_gate_text(&g, &L->o->gate, L->l.name, text, sizeof text);
    /* Stored before it is acted on: a ladder killed between the two
     * judges it again, and finds the row there. */
    if (g.state != ARENA_GATE_TRIAL && g.state != ARENA_GATE_WAIT &&
        arena_gate_store(L->db, L->l.id, &L->o->gate, &g, clk_wall_ms(), err, size) < 0)
        return -1;
    int rc = 0;
    if (g.state == ARENA_GATE_PASSED) {
        if (id_add(&L->passed, &L->npassed, list[i].id) < 0) {
            snprintf(err, size, "out of memory");
            return -1;
        }
        rc = arena_db_bot_note_id(L->db, list[i].id, text, err, size);
        say(L, "%s %s: it joins the ladder", list[i].label, text);
        return rc < 0 || retire_beaten(L, list, n, i, &g, err, size) < 0 ? -1 : 0;
    }
    if (g.state == ARENA_GATE_FAILED || g.state == ARENA_GATE_CAPPED) {
        rc = arena_db_bot_disable_id(L->db, list[i].id, text, err, size);
        if (rc == 0)
            say(L, "%s disabled: %s", list[i].label, text);
        return rc < 0 ? -1 : 1;
    }
    if (strcmp(list[i].reason, text) &&
        arena_db_bot_note_id(L->db, list[i].id, text, err, size) < 0)
        return -1;
    int known = 0;
    for (int k = 0; k < L->ntrials; k++)
        known |= L->trials[k].bot == g.bot;
    if (!known)
        say(L, "%s is on trial: it plays %s until its SPRT decides (H0 elo %g, H1 elo %g, "
            "%ld games so far)", list[i].label, g.opponent_label, L->o->gate.p.elo0,
            L->o->gate.p.elo1, g.t.w + g.t.d + g.t.l);
    trials[(*ntrials)++] = g;
    return 1;
}

/* A ladder with too few active bots to pair plays nothing: it says so
 * once, and how to add one, instead of waiting in silence. */
static void say_waiting(ladder *L)
{
    int waiting = L->nbots < L->mm.seats && L->ntrials == 0;
    if (waiting && !L->waiting)
        say(L, "waiting for bots: %d active, a match needs %d; add one from another shell "
            "(arena --db FILE bot add NAME --cmd CMD), it is picked up within %g s",
            L->nbots, L->mm.seats, L->o->reload_s);
    L->waiting = waiting;
}

/* The bots of other games are out of this ladder: in the list as if
 * removed, so nothing here pairs, gates or retires them (a gate's chain
 * of versions walks past them to the version before that plays here).
 * Each active one is said left out once a run. 0, or -1 out of memory. */
static int leave_out_other_games(ladder *L, arena_bot *list, int n)
{
    for (int i = 0; i < n; i++) {
        if (list[i].removed || arena_bot_plays(&list[i], L->spec->game))
            continue;
        list[i].removed = 1;
        if (strcmp(list[i].status, "active") || id_in(L->elsewhere, L->nelsewhere, list[i].id))
            continue;
        if (id_add(&L->elsewhere, &L->nelsewhere, list[i].id) < 0)
            return -1;
        say(L, "%s left out: it plays %s, not %s", list[i].label, list[i].plays, L->spec->game);
    }
    return 0;
}

/* Reads the active bots of the ladder's game again, with their games in
 * this ladder; says who joined and who left; judges the new versions on
 * trial. 0, or -1 with err. */
static int reload(ladder *L, char *err, size_t size)
{
    arena_bot *list = NULL;
    int n = arena_db_bot_list(L->db, &list);
    if (n < 0) {
        snprintf(err, size, "cannot read the bots");
        return -1;
    }
    if (leave_out_other_games(L, list, n) < 0) {
        free(list);
        snprintf(err, size, "out of memory");
        return -1;
    }
    arena_mm_bot *bots = calloc((size_t)n + 1, sizeof *bots);
    char (*label)[128] = calloc((size_t)n + 1, sizeof *label);
    arena_gate *trials = calloc((size_t)n + 1, sizeof *trials);
    int k = 0, ntrials = 0, rc = bots && label && trials ? 0 : -1, out = 0;
    int64_t now = clk_wall_ms();
    for (int i = 0; rc == 0 && i < n; i++) {
        /* A remote bot plays only while connected: away, it is skipped,
         * not forfeited; and only where this machine has workers of its
         * own (arena_job_relays). */
        arena_remote_bot r;
        if (!L->run->concurrency && arena_db_remote_get(L->db, list[i].id, &r) == 0) {
            if (!L->said_no_relay++)
                say(L, "remote bots do not play in this ladder: their matches are played by "
                    "this machine's workers (--concurrency 1 or more), not by remote ones");
            continue;
        }
        if (list[i].removed || strcmp(list[i].status, "active") ||
            arena_db_remote_ready(L->db, list[i].id, now) == 0)
            continue;
        if ((out = gate(L, list, n, i, trials, &ntrials, err, size)) != 0) {
            rc = out < 0 ? -2 : 0;
            continue;
        }
        arena_ladder_record rec = { .games = L->lfit ? arena_lfit_games(L->lfit, list[i].id) : 0 };
        if (!L->lfit && arena_db_ladder_record(L->db, L->l.id, list[i].id, 0, &rec) < 0) {
            rc = -1;
            break;
        }
        bots[k] = (arena_mm_bot){ .id = list[i].id, .rating = list[i].elo, .games = rec.games };
        snprintf(label[k], sizeof label[k], "%s", list[i].label);
        if (find_bot(L, list[i].id) < 0)
            say(L, "%s plays (%d games here, Elo %.0f)", label[k], rec.games, list[i].elo);
        k++;
    }
    for (int i = 0; rc == 0 && i < L->nbots; i++) {
        int stays = 0;
        for (int j = 0; j < k; j++)
            stays |= bots[j].id == L->bots[i].id;
        if (!stays)
            say(L, "%s no longer plays (not active, or a remote bot not connected)",
                L->label[i]);
    }
    free(list);
    if (rc < 0) {
        free(bots);
        free(label);
        free(trials);
        if (rc == -1)
            snprintf(err, size, "cannot read the bots' games in the ladder");
        return -1;
    }
    free(L->bots);
    free(L->label);
    free(L->trials);
    L->bots = bots;
    L->label = label;
    L->nbots = k;
    L->trials = trials;
    L->ntrials = ntrials;
    L->last_reload = clk_mono_s();
    say_waiting(L);
    return 0;
}

/* A bot's match count and rating after a stored match. */
static void refresh_bot(ladder *L, int64_t id)
{
    int i = find_bot(L, id);
    arena_bot b;
    if (i >= 0 && arena_db_bot_by_id(L->db, id, &b) == 0) {
        L->bots[i].rating = b.elo;
        L->bots[i].games++;
    }
}

/* After a forfeit: the culprit's forfeits in a row, and at the limit its
 * automatic disabling with the reason. 0, or -1 with err. */
static int check_forfeits(ladder *L, int64_t bot, char *err, size_t size)
{
    if (L->o->max_forfeits <= 0)
        return 0;
    arena_ladder_record rec;
    if (arena_db_ladder_record(L->db, L->l.id, bot, L->o->max_forfeits, &rec) < 0) {
        snprintf(err, size, "cannot read a bot's forfeits");
        return -1;
    }
    if (rec.forfeits_in_a_row < L->o->max_forfeits)
        return 0;
    char reason[256];
    snprintf(reason, sizeof reason, "%d forfeits in a row in ladder %s (%s), last match %" PRId64,
             rec.forfeits_in_a_row, L->l.name, rec.last_reason, rec.last_match);
    int changed = arena_db_bot_disable_id(L->db, bot, reason, err, size);
    if (changed < 0)
        return -1;
    int i = find_bot(L, bot);
    if (changed == 0 && i >= 0) {
        say(L, "%s disabled: %s (arena bot enable to bring it back)", L->label[i], reason);
        L->bots[i] = L->bots[L->nbots - 1];
        memcpy(L->label[i], L->label[L->nbots - 1], sizeof L->label[i]);
        L->nbots--;
    }
    return 0;
}

/* ---- planning -------------------------------------------------------------- */

static int free_slots(const ladder *L)
{
    int n = 0;
    for (int i = 0; i < L->nfl; i++)
        n += !L->fl[i].used;
    return n;
}

static flight *slot_of(ladder *L, int64_t index)
{
    for (int i = 0; i < L->nfl; i++)
        if (L->fl[i].used && L->fl[i].s.index == index)
            return &L->fl[i];
    return NULL;
}

static int submit(ladder *L, const arena_seating *s, char *err, size_t size)
{
    flight *f = NULL;
    for (int i = 0; i < L->nfl && !f; i++)
        if (!L->fl[i].used)
            f = &L->fl[i];
    if (!f) {
        snprintf(err, size, "no room for a match in flight");
        return -1;
    }
    arena_job job;
    arena_job_for(L->spec, s, L->run->log_bytes, L->db, &job);
    if (arena_pool_submit(L->pool, &job) < 0) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    f->used = 1;
    f->s = *s;
    return 0;
}

/* The matches in flight bot `id` is in. */
static int busy_of(const ladder *L, int64_t id)
{
    int n = 0;
    for (int k = 0; k < L->nfl; k++)
        for (int s = 0; L->fl[k].used && s < L->fl[k].s.seats; s++)
            n += L->fl[k].s.bot[s] == id;
    return n;
}

/* Plans the next seed pair: two matches on one seed, the second with the
 * sides swapped (bots by id, seated as in `seat`). 0, or -1 with err. */
static int plan_pair(ladder *L, const int64_t *seat, char *err, size_t size)
{
    int order[4] = { 0 }, swapped[4] = { 0 };
    for (int i = 0; i < L->mm.seats; i++)
        order[i] = i;
    arena_mm_swap(L->mm.seats, order, swapped);
    uint64_t seed = arena_pair_seed(L->l.seed, (int)L->pair);
    for (int k = 0; k < 2; k++) {
        arena_seating s = { .index = 2 * L->pair + k, .seed = seed, .seats = L->mm.seats };
        for (int i = 0; i < L->mm.seats; i++)
            s.bot[i] = seat[k ? swapped[i] : order[i]];
        if (submit(L, &s, err, size) < 0)
            return -1;
        L->planned++;
    }
    L->pair++;
    return 0;
}

static int may_plan(const ladder *L)
{
    return !L->stopping && free_slots(L) >= 2 &&
           (L->o->matches <= 0 || L->planned < L->o->matches);
}

/* Trials first: each new version on trial against the version it must
 * beat, a seed pair at a time while both have room and the cap allows
 * (its games are counted again when the pair is stored). */
static int plan_trials(ladder *L, char *err, size_t size)
{
    for (int i = 0; i < L->ntrials && may_plan(L); i++) {
        const arena_gate *g = &L->trials[i];
        long games = g->t.w + g->t.d + g->t.l + busy_of(L, g->bot);
        if (g->state != ARENA_GATE_TRIAL || games >= L->o->gate.max_games ||
            busy_of(L, g->bot) + 2 > L->mm.per_bot || busy_of(L, g->opponent) + 2 > L->mm.per_bot)
            continue;
        assert(L->mm.seats == 2);           /* the gate is refused on 2 v 2 ladders */
        const int64_t seat[2] = { g->bot, g->opponent };
        if (plan_pair(L, seat, err, size) < 0)
            return -1;
    }
    return 0;
}

/* Plans seed pairs while there is room: the trials', then matchmaking's.
 * 0, or -1 with err. */
static int plan(ladder *L, char *err, size_t size)
{
    if (plan_trials(L, err, size) < 0)
        return -1;
    while (may_plan(L)) {
        for (int i = 0; i < L->nbots; i++)
            L->bots[i].busy = busy_of(L, L->bots[i].id);
        int pick[4] = { 0 };
        int64_t seat[4] = { 0 };
        if (!arena_mm_pick(L->bots, L->nbots, &L->mm, L->l.seed, L->pair, pick))
            return 0;
        for (int i = 0; i < L->mm.seats; i++)
            seat[i] = L->bots[pick[i]].id;
        if (plan_pair(L, seat, err, size) < 0)
            return -1;
    }
    return 0;
}

/* ---- results --------------------------------------------------------------- */

/* One result: stored, played again (contended, or its record refused), or
 * dropped with a message.
 * 0, or -1 with err when the ladder cannot go on (the database). */
static int take(ladder *L, arena_job_result *res, char *err, size_t size)
{
    flight *f = slot_of(L, res->id);
    if (!f)
        return 0;                 /* not ours: a worker's stale answer */
    arena_seating s = f->s;
    arena_match m;
    char why[512];
    int made = res->deaths ? arena_match_from_verdict(res, L->spec, &s, &m, why, sizeof why)
             : res->error ? -1
                          : arena_match_from_result(res, L->spec, &s, &m, why, sizeof why);
    if (made < 0 && !res->deaths && !res->error && arena_pool_refuse(L->pool, res, why) == 0)
        return 0;                 /* the flight stays: another worker plays it */
    if (made == 0 && !res->deaths && arena_result_contended(res)) {
        f->used = 0;
        say(L, "match %" PRId64 " was contended (a bot waited for a CPU): played again",
            res->id);
        return submit(L, &f->s, err, size);
    }
    f->used = 0;
    if (made < 0) {
        L->lost++;
        say(L, "match %" PRId64 " could not be played: %s", res->id,
            res->error && !res->deaths ? res->error : why);
        return 0;
    }
    m.ladder_id = L->l.id;
    int got = arena_db_match_store(L->db, &m, why, sizeof why);
    if (got < 0) {
        snprintf(err, size, "match %" PRId64 ": %s", res->id, why);
        return -1;
    }
    if (got == 1) {
        say(L, "match %" PRId64 " was already stored: not counted again", res->id);
        return 0;
    }
    if (L->lfit && !ARENA_MATCH_VOID(&m) && arena_lfit_add_match(L->lfit, &m) < 0) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    L->stored++;
    L->l.matches++;
    L->since_fit++;
    for (int i = 0; i < s.seats; i++)
        refresh_bot(L, s.bot[i]);
    for (int i = 0; i < L->ntrials; i++)      /* a trial game: judge it at once */
        if (L->trials[i].bot == s.bot[0] || L->trials[i].bot == s.bot[1])
            L->last_reload = -1e9;
    if (m.culprit >= 0 && m.culprit < s.seats)
        return check_forfeits(L, s.bot[m.culprit], err, size);
    return 0;
}

/* ---- ratings and progress ------------------------------------------------ */

/* The BT fit of the ladder's matches into its rating history. */
static int refresh_fit(ladder *L, char *err, size_t size)
{
    arena_match_filter f = { .ladder_id = L->l.id, .seats = L->mm.seats };
    snprintf(f.game, sizeof f.game, "%s", L->spec->game);
    double t = clk_mono_s();
    arena_fit_row *rows = NULL;
    int n = L->lfit ? arena_lfit_fit(L->lfit, &rows, NULL, err, size)
                    : arena_report_fit(L->db, &f, &rows, err, size);
    if (n < 0 || arena_db_fit_store(L->db, L->l.id, clk_wall_ms(), L->l.matches, rows, n, err,
                                    size) < 0) {
        free(rows);
        return -1;
    }
    int first = n ? find_bot(L, rows[0].bot_id) : -1;
    t = clk_mono_s() - t;
    L->st.fits++;
    L->st.fit_s += t;
    L->st.fit_max_s = t > L->st.fit_max_s ? t : L->st.fit_max_s;
    say(L, "ratings refreshed: %d bots over %" PRId64 " matches in %.0f ms%s%s", n,
        L->l.matches, 1000 * t, first >= 0 ? ", first " : "",
        first >= 0 ? L->label[first] : "");
    free(rows);
    L->since_fit = 0;
    L->last_fit = clk_mono_s();
    return 0;
}

static int by_rating(const void *a, const void *b)
{
    const arena_mm_bot *x = *(const arena_mm_bot *const *)a, *y = *(const arena_mm_bot *const *)b;
    return (x->rating < y->rating) - (x->rating > y->rating);
}

static void progress(ladder *L, double now)
{
    if (L->run->quiet || (!L->tty && now - L->last_log < L->o->log_s))
        return;
    L->last_log = now;
    const arena_mm_bot *top[5] = { 0 };
    /* An array of pointers to the bots, sorted by rating. */
    const arena_mm_bot **all = calloc((size_t)L->nbots + 1, sizeof(const arena_mm_bot *));
    int n = 0;
    for (int i = 0; all && i < L->nbots; i++)
        all[i] = &L->bots[i];
    if (all)
        qsort(all, (size_t)L->nbots, sizeof(const arena_mm_bot *), by_rating);
    for (; all && n < 5 && n < L->nbots; n++)
        top[n] = all[n];
    char line[512];
    int pending = arena_pool_pending(L->pool), busy = pending < L->run->concurrency
                                                           ? pending : L->run->concurrency;
    double minutes = (now - L->t0) / 60;
    int len = snprintf(line, sizeof line, "%" PRId64 " matches (%" PRId64 " this run, %.1f/min),"
                       " queue %d, workers busy %d/%d, top:", L->l.matches, L->stored,
                       minutes > 0 ? L->stored / minutes : 0.0, pending - busy, busy,
                       L->run->concurrency);
    for (int i = 0; i < n && len < (int)sizeof line; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %s %.0f",
                        L->label[top[i] - L->bots], top[i]->rating);
    free(all);
    if (L->tty)
        fprintf(stderr, "\r\033[K%s", line);
    else
        fprintf(stderr, "arena: ladder %s: %s\n", L->l.name, line);
}

/* ---- the run ----------------------------------------------------------------- */

static int open_ladder(ladder *L, char *err, size_t size)
{
    const arena_ladder_opts *o = L->o;
    if (o->name && o->name[0])
        snprintf(L->l.name, sizeof L->l.name, "%s", o->name);
    else if (arena_db_ladder_default(L->db, L->spec->game, L->spec->options, L->l.name,
                                     sizeof L->l.name) < 0) {
        snprintf(err, size, "cannot name the ladder: give --name");
        return -1;
    }
    snprintf(L->l.game, sizeof L->l.game, "%s", L->spec->game);
    snprintf(L->l.options, sizeof L->l.options, "%s", L->spec->options);
    L->l.seed = L->spec->seed;
    int found = arena_db_ladder_open(L->db, &L->l, err, size);
    if (found < 0)
        return -1;
    if (found && (strcmp(L->l.game, L->spec->game) || strcmp(L->l.options, L->spec->options))) {
        snprintf(err, size, "ladder %s plays %s %s, not %s %s: give another --name", L->l.name,
                 L->l.game, L->l.options, L->spec->game, L->spec->options);
        return -1;
    }
    L->pair = (L->l.next_index + 1) / 2;
    if (found)
        say(L, "going on: %" PRId64 " matches stored, next seed pair %" PRId64, L->l.matches,
            L->pair);
    else
        say(L, "started: %s %s (seed %" PRIu64 ")", L->l.game, L->l.options, L->l.seed);
    return 0;
}

static int setup(ladder *L, char *err, size_t size)
{
    int seats, teams;
    if (arena_spec_shape(L->spec, &seats, &teams, err, size) < 0)
        return -1;
    if (!(seats == 2 && teams == 2) && !(seats == 4 && teams == 2)) {
        snprintf(err, size, "a ladder plays 2 seats or 2 v 2; these options give %d seats in "
                 "%d teams", seats, teams);
        return -1;
    }
    if (L->o->gate.on && seats != 2) {
        snprintf(err, size, "--gate sprt needs a one-against-one ladder (these options give %d "
                 "seats)", seats);
        return -1;
    }
    arena_mm_default(&L->mm);
    L->mm.seats = seats;
    L->mm.per_bot = L->o->per_bot;
    L->nfl = 2 * L->run->concurrency + 2;
    L->nfl += L->nfl % 2;
    L->fl = calloc((size_t)L->nfl, sizeof *L->fl);
    if (!L->fl) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    if (open_ladder(L, err, size) < 0)
        return -1;
    if (seats == 2) {
        double t = clk_mono_s();
        L->lfit = arena_lfit_new();
        if (!L->lfit || arena_lfit_load(L->lfit, L->db, L->l.id) < 0) {
            snprintf(err, size, "cannot read the ladder's results per pair");
            return -1;
        }
        if (L->l.matches > 0)
            say(L, "results per pair read in %.0f ms", 1000 * (clk_mono_s() - t));
    }
    if (reload(L, err, size) < 0)
        return -1;
    L->pool = arena_pool_start(L->run->concurrency, L->run->affinity, L->run->referee,
                               L->run->sandbox, &L->run->remote, err, size);
    if (L->pool)
        arena_beat_start(&L->beat, L->db, arena_owner_new(), 0, L->l.id, L->pool);
    return L->pool ? 0 : -1;
}

/* One turn of the loop: plan, wait a little for a result, take it, keep
 * watch. 1 to go on, 0 when stopped, -1 with err. */
static int turn(ladder *L, char *err, size_t size)
{
    double now = clk_mono_s();
    int done_planning = L->o->matches > 0 && L->planned >= L->o->matches;
    if (!L->stopping && ((L->run->stop && *L->run->stop) ||
                         (done_planning && arena_pool_pending(L->pool) == 0))) {
        L->stopping = 1;
        L->stop_at = now;
        if (L->run->stop && *L->run->stop && arena_pool_pending(L->pool))
            say(L, "stopping: %d matches running have %.0f s to finish",
                arena_pool_pending(L->pool), L->o->grace_s);
    }
    if (L->stopping && (arena_pool_pending(L->pool) == 0 || now - L->stop_at >= L->o->grace_s))
        return 0;
    if (!L->stopping && now - L->last_reload >= L->o->reload_s && reload(L, err, size) < 0)
        return -1;
    if (plan(L, err, size) < 0)
        return -1;
    arena_beat_tick(&L->beat, L->db, L->pool);
    arena_job_result res;
    double wait = clk_mono_s();
    int got = arena_pool_next(L->pool, &res, 250, err, size);
    L->st.wait_s += clk_mono_s() - wait;
    if (got < 0)
        return -1;
    if (got) {
        int rc = take(L, &res, err, size);
        arena_job_result_free(&res);
        if (rc < 0)
            return -1;
        if (L->run->keep_logs >= 0 && L->stored % 64 == 0)
            arena_db_logs_prune(L->db, L->run->keep_logs, NULL, 0);
    }
    now = clk_mono_s();
    if (L->since_fit > 0 && (L->since_fit >= L->o->fit_every ||
                             now - L->last_fit >= L->o->fit_seconds) &&
        refresh_fit(L, err, size) < 0)
        return -1;
    progress(L, now);
    return 1;
}

int arena_ladder_run(arena_db *db, const arena_spec *spec, const arena_run *run,
                     const arena_ladder_opts *o, char *err, size_t size)
{
    ladder L = { .db = db, .spec = spec, .run = run, .o = o, .tty = isatty(2) };
    L.t0 = L.last_fit = L.last_log = clk_mono_s();
    int rc = setup(&L, err, size);
    L.st.setup_s = clk_mono_s() - L.t0;
    while (rc == 0 && (rc = turn(&L, err, size)) == 1)
        rc = 0;
    /* A trial game stored last (while stopping, nothing is re-read) is
     * judged now, so the verdict it decided is this run's, not the next's. */
    if (rc == 0 && L.last_reload < 0)
        rc = reload(&L, err, size);
    if (rc == 0 && L.since_fit > 0)
        rc = refresh_fit(&L, err, size);
    if (L.pool) {
        L.abandoned = arena_pool_pending(L.pool);
        arena_beat_stop(&L.beat, db, L.pool);
        arena_pool_stop(L.pool);
    }
    if (rc == 0 && !run->quiet) {
        if (L.tty)
            fputc('\n', stderr);
        say(&L, "stopped: %" PRId64 " matches stored this run (%" PRId64 " in all), %" PRId64
            " abandoned, %" PRId64 " not playable; run the same command to go on", L.stored,
            L.l.matches, L.abandoned, L.lost);
    }
    L.st.stored = L.stored;
    L.st.wall_s = clk_mono_s() - L.t0;
    if (o->stats)
        *o->stats = L.st;
    arena_lfit_free(L.lfit);
    free(L.bots);
    free(L.label);
    free(L.trials);
    free(L.passed);
    free(L.elsewhere);
    free(L.fl);
    return rc;
}
