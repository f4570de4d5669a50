/*
 * arena_tourney.c - the tournament runner.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena_plan.h"
#include "arena_pool.h"
#include "arena_tourney.h"
#include "clk.h"
#include "game.h"
#include "kv.h"
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
    s->move_ms = 1000;
    s->bank_ms = 10000;
    s->handshake_ms = 10000;
    s->elo_k = 16;
    s->memory_mb = -1;
}

void arena_spec_to_tournament(const arena_spec *s, int planned, arena_tournament *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->game, sizeof t->game, "%s", s->game);
    snprintf(t->format, sizeof t->format, "%s", arena_format_name(s->format));
    t->games = s->games;
    snprintf(t->options, sizeof t->options, "%s", s->options);
    t->seed = s->seed;
    t->nbots = s->nbots;
    memcpy(t->bot, s->bot, sizeof t->bot);
    t->move_ms = s->move_ms;
    t->bank_ms = s->bank_ms;
    t->handshake_ms = s->handshake_ms;
    t->strikes = s->strikes;
    t->elo_k = s->elo_k;
    t->memory_mb = s->memory_mb;
    t->planned = planned;
}

int arena_spec_from_tournament(const arena_tournament *t, arena_spec *s)
{
    arena_spec_default(s);
    snprintf(s->game, sizeof s->game, "%s", t->game);
    s->format = arena_format_parse(t->format);
    s->games = t->games;
    snprintf(s->options, sizeof s->options, "%s", t->options);
    s->seed = t->seed;
    s->nbots = t->nbots;
    memcpy(s->bot, t->bot, sizeof s->bot);
    s->move_ms = t->move_ms;
    s->bank_ms = t->bank_ms;
    s->handshake_ms = t->handshake_ms;
    s->strikes = t->strikes;
    s->elo_k = t->elo_k;
    s->memory_mb = t->memory_mb;
    return s->format < 0 ? -1 : 0;
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

int arena_check_command(const char *cmd, const char *cwd, char *err, size_t size)
{
    char word[1024];
    const char *p = cmd;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, " \t");
        if (!len) {
            snprintf(err, size, "the command is empty");
            return -1;
        }
        if (len >= sizeof word) {
            snprintf(err, size, "the command's first word is too long");
            return -1;
        }
        memcpy(word, p, len);
        word[len] = 0;
        p += len;
        if (!strchr(word, '=') || word[0] == '=')
            break;                  /* VAR=value words come first */
    }
    if (strpbrk(word, "'\"$`\\|&;<>()"))
        return 0;                   /* shell syntax: let the shell judge */
    if (strchr(word, '/')) {
        char path[2048];
        if (word[0] != '/' && cwd && *cwd)
            snprintf(path, sizeof path, "%s/%s", cwd, word);
        else
            snprintf(path, sizeof path, "%s", word);
        if (access(path, X_OK) == 0)
            return 0;
        snprintf(err, size, "cannot run %s: %s", path, strerror(errno));
        return -1;
    }
    static const char *const builtins[] = { "exec", "env", "cd", "nice", "timeout", NULL };
    for (int i = 0; builtins[i]; i++)
        if (!strcmp(word, builtins[i]))
            return 0;
    const char *path = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
    char *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char full[2048];
        snprintf(full, sizeof full, "%s/%s", *d ? d : ".", word);
        if (access(full, X_OK) == 0)
            return 0;
    }
    snprintf(err, size, "command not found: %s", word);
    return -1;
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

/* Each seat's team, as the game deals them at the start of the match:
 * 0, or -1 with err. */
static int seat_teams(const game_api *g, const char *options, uint64_t seed, int seats,
                      int *team, char *err, size_t size)
{
    game_options *opts = game_options_new(g);
    void *state = malloc(g->state_size);
    int rc = -1;
    if (!opts || !state) {
        snprintf(err, size, "out of memory");
        goto out;
    }
    if (game_options_parse(opts, options, err, size) < 0)
        goto out;
    const char *why = g->init(state, opts, seed);
    if (why) {
        snprintf(err, size, "%s", why);
        goto out;
    }
    for (int i = 0; i < seats; i++)
        team[i] = g->team_of(state, i);
    rc = 0;
out:
    game_options_free(opts);
    free(state);
    return rc;
}

/* A worker's result into a match row; 0 or -1 with err. */
static int to_match(const arena_job_result *res, const arena_spec *spec, const arena_game *g,
                    int64_t tid, arena_match *m, char *err, size_t size)
{
    memset(m, 0, sizeof *m);
    FILE *f = fmemopen(res->record, strlen(res->record), "r");
    if (!f) {
        snprintf(err, size, "cannot read a match record");
        return -1;
    }
    ref_record rec;
    const game_api *game;
    char why[256];
    int rc = ref_record_read(&rec, &game, f, why, sizeof why);
    fclose(f);
    if (rc < 0) {
        snprintf(err, size, "a worker sent a bad record: %s", why);
        return -1;
    }
    m->tournament_id = tid;
    m->game_index = g->index;
    snprintf(m->game, sizeof m->game, "%s", spec->game);
    m->seed = g->seed;
    snprintf(m->options, sizeof m->options, "%s", rec.options);
    if (strcmp(rec.game, spec->game) != 0 || rec.seats != g->seats) {
        snprintf(err, size, "a worker played %s with %d seats, the plan has %s with %d",
                 rec.game, rec.seats, spec->game, g->seats);
        ref_record_free(&rec);
        return -1;
    }
    if (seat_teams(game, rec.options, rec.seed, rec.seats, m->team, why, sizeof why) < 0) {
        snprintf(err, size, "a worker's record: %s", why);
        ref_record_free(&rec);
        return -1;
    }
    m->seats = rec.seats;
    for (int i = 0; i < rec.seats; i++) {
        m->bot[i] = spec->bot[g->seat[i]];
        m->score[i] = rec.score[i];
    }
    snprintf(m->reason, sizeof m->reason, "%s", rec.reason);
    m->culprit = rec.culprit;
    snprintf(m->detail, sizeof m->detail, "%s", rec.detail);
    m->decisions = (int)rec.ndecisions;
    m->hash = rec.hash;
    m->record = res->record;
    m->started_ms = res->started_ms;
    m->finished_ms = res->finished_ms;
    m->elo_k = spec->elo_k;
    m->logs = res->logs;
    m->nlogs = res->nlogs;
    ref_record_free(&rec);
    return 0;
}

static void job_for(const arena_spec *spec, const arena_game *g, int64_t log_bytes, arena_db *db,
                    arena_job *job)
{
    memset(job, 0, sizeof *job);
    job->id = g->index;
    snprintf(job->game, sizeof job->game, "%s", spec->game);
    snprintf(job->options, sizeof job->options, "%s", spec->options);
    job->seed = g->seed;
    job->nbots = g->seats;
    for (int i = 0; i < g->seats; i++) {
        arena_bot b;
        if (arena_db_bot_by_id(db, spec->bot[g->seat[i]], &b) == 0) {
            snprintf(job->cmd[i], sizeof job->cmd[i], "%s", b.cmd);
            snprintf(job->cwd[i], sizeof job->cwd[i], "%s", b.cwd);
        }
    }
    job->move_ms = spec->move_ms;
    job->bank_ms = spec->bank_ms;
    job->handshake_ms = spec->handshake_ms;
    job->strikes = spec->strikes;
    job->memory_mb = spec->memory_mb;
    job->log_bytes = log_bytes;
}

int arena_tourney_run(arena_db *db, const arena_spec *spec, const arena_run *run,
                      int64_t *tournament_id, char *err, size_t size)
{
    const char *why;
    int seats, teams;
    if (arena_spec_shape(spec, &seats, &teams, err, size) < 0)
        return -1;
    int total = arena_plan_size(spec->format, seats, spec->nbots, spec->games, &why);
    if (total < 0) {
        snprintf(err, size, "%s", why);
        return -1;
    }
    arena_game *plan = malloc((size_t)total * sizeof *plan);
    int *done_list = NULL, rc = -1;
    arena_pool *pool = NULL;
    if (!plan) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    arena_plan(spec->format, seats, spec->nbots, spec->games, spec->seed, plan);

    arena_tournament t;
    arena_spec_to_tournament(spec, total, &t);
    if (arena_db_tournament_open(db, &t, err, size) < 0)
        goto out;
    *tournament_id = t.id;
    int ndone = arena_db_tournament_done(db, t.id, &done_list);
    if (ndone < 0) {
        snprintf(err, size, "cannot read the tournament's matches");
        goto out;
    }
    char *stored = calloc((size_t)total, 1);
    if (!stored) {
        snprintf(err, size, "out of memory");
        goto out;
    }
    for (int i = 0; i < ndone; i++)
        if (done_list[i] >= 0 && done_list[i] < total)
            stored[done_list[i]] = 1;
    int remaining = total - ndone;
    if (!run->quiet && ndone)
        fprintf(stderr, "arena: resuming tournament %" PRId64 ": %d of %d matches stored\n", t.id,
                ndone, total);
    if (remaining > 0) {
        int workers = run->concurrency < remaining ? run->concurrency : remaining;
        pool = arena_pool_start(workers, run->referee, &run->remote, err, size);
        if (!pool) {
            free(stored);
            goto out;
        }
        if (run->remote.listen)
            fprintf(stderr, "arena: workers connect to %s (referee worker --connect ...)\n",
                    arena_pool_listening(pool));
        for (int i = 0; i < total; i++)
            if (!stored[i]) {
                arena_job job;
                job_for(spec, &plan[i], run->log_bytes, db, &job);
                arena_pool_submit(pool, &job);
            }
    }
    free(stored);
    int tty = isatty(2), done = ndone;
    double t0 = clk_mono_s(), last = 0;
    while (pool && arena_pool_pending(pool) > 0) {
        arena_job_result res;
        int got = arena_pool_next(pool, &res, 250, err, size);
        if (got < 0)
            goto out;
        if (!got) {
            if (!run->quiet && tty)
                progress(db, t.id, done, total, ndone, t0, tty, &last);
            continue;
        }
        if (res.error || res.id < 0 || res.id >= total) {
            snprintf(err, size, "match %" PRId64 " could not be played: %s", res.id + 1,
                     res.error ? res.error : "bad job id");
            arena_job_result_free(&res);
            goto out;
        }
        arena_match m;
        char why2[512];
        if (to_match(&res, spec, &plan[res.id], t.id, &m, why2, sizeof why2) < 0 ||
            arena_db_match_store(db, &m, why2, sizeof why2) < 0) {
            snprintf(err, size, "match %" PRId64 ": %s", res.id + 1, why2);
            arena_job_result_free(&res);
            goto out;
        }
        arena_job_result_free(&res);
        done++;
        if (run->keep_logs >= 0 && done % 64 == 0)
            arena_db_logs_prune(db, run->keep_logs, NULL, 0);
        if (!run->quiet)
            progress(db, t.id, done, total, ndone, t0, tty, &last);
    }
    arena_db_tournament_finish(db, t.id);
    if (run->keep_logs >= 0 && arena_db_logs_prune(db, run->keep_logs, err, size) < 0)
        goto out;
    rc = 0;
out:
    arena_pool_stop(pool);
    free(plan);
    free(done_list);
    return rc;
}
