/*
 * arena_jobs.c - planned matches into workers' jobs, and their results
 * back into match rows (arena_jobs.h).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena_jobs.h"
#include "game.h"
#include "ref_match.h"
#include "ref_record.h"

/* Each seat's team, as the game deals them at the start of the match, and
 * (canon not NULL) the options' canonical text: 0, or -1 with err. */
static int seat_teams(const game_api *g, const char *options, uint64_t seed, int seats,
                      int *team, char *canon, size_t canon_size, char *err, size_t size)
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
    if (canon && game_options_format(opts, canon, canon_size) >= canon_size) {
        snprintf(err, size, "the game's options are too long");
        goto out;
    }
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

/* options in canonical text (what a record states): 0, or -1 with err. */
static int canonical_options(const game_api *g, const char *text, char *out, size_t len,
                             char *err, size_t size)
{
    game_options *opts = game_options_new(g);
    if (!opts) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    int rc = game_options_parse(opts, text, err, size);
    if (rc == 0)
        game_options_format(opts, out, len);
    game_options_free(opts);
    return rc;
}

/* The record answers the job the arena handed out, and replays to what it
 * states: the seed, the game and its options are the plan's, and the
 * engine re-simulates every decision to the stated end (a normal end's
 * scores and reason are the engine's; a forfeit's culprit and reason are
 * the referee's word, but the decisions before it must replay and the
 * game must not have ended). The bots' names in the record are what the
 * bots said in their hello, not the registry's: the seats' bots stored are
 * the plan's, never the worker's. 0, or -1 with err. */
static int check_answers_job(const ref_record *rec, const game_api *game, const arena_spec *spec,
                             const arena_seating *g, char *err, size_t size)
{
    char want[GAME_OPTIONS_TEXT_MAX + 1], got[GAME_OPTIONS_TEXT_MAX + 1], why[256];
    if (strcmp(rec->game, spec->game) != 0 || rec->seats != g->seats) {
        snprintf(err, size, "a worker played %s with %d seats, the plan has %s with %d",
                 rec->game, rec->seats, spec->game, g->seats);
        return -1;
    }
    if (rec->seed != g->seed) {
        snprintf(err, size, "a worker's record is of seed %" PRIu64 ", the plan's is %" PRIu64,
                 rec->seed, g->seed);
        return -1;
    }
    if (canonical_options(game, spec->options, want, sizeof want, why, sizeof why) < 0 ||
        canonical_options(game, rec->options, got, sizeof got, why, sizeof why) < 0) {
        snprintf(err, size, "a worker's record: options: %s", why);
        return -1;
    }
    if (strcmp(want, got) != 0) {
        snprintf(err, size, "a worker's record has options '%s', the plan's are '%s'", got,
                 want);
        return -1;
    }
    if (ref_record_verify(rec, game, why, sizeof why) < 0) {
        snprintf(err, size, "a worker's record does not replay: %s", why);
        return -1;
    }
    return 0;
}

int arena_match_from_result(const arena_job_result *res, const arena_spec *spec,
                            const arena_seating *g, arena_match *m, char *err, size_t size)
{
    memset(m, 0, sizeof *m);
    ref_record rec;
    const game_api *game;
    char why[256];
    if (ref_record_parse(&rec, &game, res->record, why, sizeof why) < 0) {
        snprintf(err, size, "a worker sent a bad record: %s", why);
        return -1;
    }
    m->game_index = (int)g->index;
    snprintf(m->game, sizeof m->game, "%s", spec->game);
    m->seed = g->seed;
    snprintf(m->options, sizeof m->options, "%s", rec.options);
    if (check_answers_job(&rec, game, spec, g, err, size) < 0) {
        ref_record_free(&rec);
        return -1;
    }
    if (seat_teams(game, rec.options, rec.seed, rec.seats, m->team, NULL, 0, why,
                   sizeof why) < 0) {
        snprintf(err, size, "a worker's record: %s", why);
        ref_record_free(&rec);
        return -1;
    }
    m->seats = rec.seats;
    for (int i = 0; i < rec.seats; i++) {
        m->bot[i] = g->bot[i];
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

int arena_match_from_verdict(const arena_job_result *res, const arena_spec *spec,
                             const arena_seating *s, arena_match *m, char *err, size_t size)
{
    memset(m, 0, sizeof *m);
    const game_api *g = game_find(spec->game);
    if (!g) {
        snprintf(err, size, "no game %s", spec->game);
        return -1;
    }
    if (res->culprit >= s->seats) {
        snprintf(err, size, "a verdict blames seat %d of %d", res->culprit, s->seats);
        return -1;
    }
    m->game_index = (int)s->index;
    snprintf(m->game, sizeof m->game, "%s", spec->game);
    m->seed = s->seed;
    m->seats = s->seats;
    if (seat_teams(g, spec->options, s->seed, s->seats, m->team, m->options, sizeof m->options,
                   err, size) < 0)
        return -1;
    m->culprit = res->culprit;
    for (int i = 0; i < s->seats; i++) {
        m->bot[i] = s->bot[i];
        /* A forfeit: the culprit's team loses, the others win. Void: one
         * side of nobody's result, which nothing rates or counts. */
        m->score[i] = m->culprit >= 0 && m->team[i] != m->team[m->culprit];
    }
    if (m->culprit < 0)
        memset(m->team, 0, sizeof m->team);
    snprintf(m->reason, sizeof m->reason, "%s",
             m->culprit >= 0 ? ARENA_KILLED_REFEREE : ARENA_VOID);
    snprintf(m->detail, sizeof m->detail, "%s", res->error ? res->error : "");
    m->started_ms = res->started_ms;
    m->finished_ms = res->finished_ms;
    m->elo_k = spec->elo_k;
    return 0;
}

void arena_job_for(const arena_spec *spec, const arena_seating *g, int64_t log_bytes,
                   arena_db *db, arena_job *job)
{
    memset(job, 0, sizeof *job);
    job->id = g->index;
    snprintf(job->game, sizeof job->game, "%s", spec->game);
    snprintf(job->options, sizeof job->options, "%s", spec->options);
    job->seed = g->seed;
    job->nbots = g->seats;
    for (int i = 0; i < g->seats; i++) {
        arena_bot b;
        job->bot_id[i] = g->bot[i];
        if (arena_db_bot_by_id(db, g->bot[i], &b) == 0) {
            snprintf(job->cmd[i], sizeof job->cmd[i], "%s", b.cmd);
            snprintf(job->cwd[i], sizeof job->cwd[i], "%s", b.cwd);
            snprintf(job->env[i], sizeof job->env[i], "%s", b.env);
            snprintf(job->hash[i], sizeof job->hash[i], "%s", b.content_hash);
            job->relay[i] = arena_db_remote_relay_cmd(db, b.id, job->cmd[i],
                                                      sizeof job->cmd[i]) == 1;
        }
    }
    job->terms = spec->terms;
    job->log_bytes = log_bytes;
}

int arena_result_contended(const arena_job_result *res)
{
    return !res->error && res->record && strstr(res->record, "\nreason " REF_CONTENDED "\n");
}
