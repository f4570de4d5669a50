/*
 * web_replay.c - GET /api/matches/ID: everything the replay viewer needs,
 * computed here by re-simulating the stored record with the game's own
 * engine, so the page shows what the engine says, not what it guesses.
 *
 * `view=full` (the default) sends the whole truth; `view=N` sends what
 * seat N knew: each state is the game's own observation for that seat
 * (game_api.write_json), other seats' actions in their public form
 * (game_api.public_view: a face-down coin stays face down) until the game
 * shows them (game_api.revealed: a Goofspiel bid once its round is settled;
 * the decision says from which step), and only that seat's log. The
 * browser never receives what the seat could not see by the match's end.
 *
 * A match in play (an id from ARENA_PLAYING_BASE: arena_db_playing.h) is
 * served the same way from its record so far, marked `playing`: the same
 * views by the same code, its decisions checked to replay (the worker's
 * word until the arena checks the whole record), and once stored, the
 * finished match itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena_db_playing.h"
#include "game.h"
#include "kv.h"
#include "ref_log.h"
#include "ref_record.h"
#include "web_internal.h"

static void seats_json(web_req *r, const arena_match *m)
{
    jw *w = &r->out;
    jw_key(w, "seats");
    jw_arr(w);
    for (int i = 0; i < m->seats; i++) {
        arena_bot b;
        int found = arena_db_bot_by_id(r->db, m->bot[i], &b) == 0;
        jw_obj(w);
        jw_key(w, "seat");
        jw_int(w, i);
        jw_key(w, "bot_id");
        jw_int(w, m->bot[i]);
        jw_key(w, "bot");
        jw_str(w, found ? b.label : NULL);
        jw_key(w, "version");
        jw_str(w, found ? b.version : NULL);
        jw_key(w, "team");
        jw_int(w, m->team[i]);
        jw_key(w, "score");
        jw_num(w, m->score[i]);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void header_json(web_req *r, const arena_match *m, int view)
{
    jw *w = &r->out;
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seed);
    jw_key(w, "id");
    jw_int(w, m->id);
    jw_key(w, "game");
    jw_str(w, m->game);
    jw_key(w, "options");
    jw_str(w, m->options);
    jw_key(w, "seed");
    jw_str(w, seed);                   /* 64 bits: a string, as JavaScript numbers are doubles */
    jw_key(w, "players");
    jw_int(w, m->seats);
    jw_key(w, "tournament");
    if (m->tournament_id)
        jw_int(w, m->tournament_id);
    else
        jw_null(w);
    jw_key(w, "reason");
    jw_str(w, m->reason);
    jw_key(w, "culprit");
    if (m->culprit >= 0)
        jw_int(w, m->culprit);
    else
        jw_null(w);
    jw_key(w, "detail");
    jw_str(w, m->detail);
    jw_key(w, "started_ms");
    jw_int(w, m->started_ms);
    jw_key(w, "finished_ms");
    jw_int(w, m->finished_ms);
    jw_key(w, "view");
    jw_int(w, view);
    seats_json(r, m);
}

/* One state for the view: the game's JSON, or its text picture. */
static void state_json(jw *w, const game_api *g, const void *state, int view, char *text,
                       size_t size)
{
    if (g->write_json) {
        g->write_json(w, state, view);
        return;
    }
    /* A game without a JSON view: its picture is the whole truth, so a
     * seat's view gets none. */
    if (view >= 0)
        jw_null(w);
    else
        jw_str(w, g->render(state, text, size) >= 0 ? text : NULL);
}

/* A decision's CPU or wait time in milliseconds; null when not measured
 * (records older than the clock line, or a platform that cannot say). */
static void measured_ms(jw *w, uint32_t us)
{
    if (us == REF_UNMEASURED)
        jw_null(w);
    else
        jw_num(w, us / 1000.0);
}

/* In seat `view`'s view: for each decision another seat took out of its
 * sight (its public view differs), the step after which the game shows it
 * whole (game_api.revealed), or 0. NULL when nothing is ever revealed,
 * and without memory (then nothing is). Leaves `state` at the end. */
static size_t *reveal_steps(const ref_record *rec, const game_api *g, void *state,
                            const game_options *options, int view)
{
    if (view < 0 || !g->revealed || rec->ndecisions == 0)
        return NULL;
    size_t *at = calloc(rec->ndecisions, sizeof *at);
    size_t *pending = malloc(rec->ndecisions * sizeof *pending), npending = 0;
    if (!at || !pending) {
        free(at), free(pending);
        return NULL;
    }
    g->init(state, options, rec->seed);
    for (size_t i = 0; i < rec->ndecisions; i++) {
        const ref_decision *d = &rec->decisions[i];
        if (d->seat != view && g->public_view(d->action) != d->action)
            pending[npending++] = i;
        g->apply(state, d->action);
        for (size_t k = 0; k < npending;) {
            const ref_decision *p = &rec->decisions[pending[k]];
            if (g->revealed(state, view, p->seat, p->action)) {
                at[pending[k]] = i + 1;
                pending[k] = pending[--npending];
            } else {
                k++;
            }
        }
    }
    free(pending);
    return at;
}

/* The match's stored logs, by seat (NULL: none kept for that seat). */
typedef struct seat_logs {
    arena_log *all;
    int n;
    const arena_log *of[GAME_MAX_SEATS];
} seat_logs;

/* What decision d's seat printed while making it: its log from the seat's
 * previous mark (*mark) to d's, as kept; null when the record has no mark,
 * the database no log, or the seat printed nothing then. */
static void decision_log(jw *w, const ref_decision *d, const seat_logs *logs, uint64_t *mark)
{
    const arena_log *l = logs->of[d->seat];
    size_t start, end;
    jw_key(w, "log");
    if (d->log_end == REF_LOG_UNMARKED || !l ||
        ref_log_span(l->text, l->len, l->bytes, *mark, d->log_end, &start, &end) != 0 ||
        start == end)
        jw_null(w);
    else
        jw_strn(w, l->text + start, end - start);
    if (d->log_end != REF_LOG_UNMARKED)
        *mark = d->log_end;
}

/* The decisions as `view` saw them, each with how it was made and what its
 * seat printed (only the viewing seat's in a seat view); `state` starts
 * at the game's start and ends at its end. */
static void decisions_json(jw *w, const ref_record *rec, const game_api *g, void *state,
                           int view, const size_t *revealed_at, const seat_logs *logs)
{
    char text[160];
    uint64_t mark[GAME_MAX_SEATS] = { 0 };
    jw_key(w, "decisions");
    jw_arr(w);
    for (size_t i = 0; i < rec->ndecisions; i++) {
        const ref_decision *d = &rec->decisions[i];
        game_action a = view >= 0 && d->seat != view ? g->public_view(d->action) : d->action;
        g->format(a, text, sizeof text);
        jw_obj(w);
        jw_key(w, "seat");
        jw_int(w, d->seat);
        jw_key(w, "decision");
        jw_str(w, g->decision_name(state));
        jw_key(w, "action");
        jw_str(w, text);
        jw_key(w, "revealed");            /* a hidden action, from the step the game shows it */
        if (revealed_at && revealed_at[i]) {
            g->format(d->action, text, sizeof text);
            jw_obj(w);
            jw_key(w, "step");
            jw_int(w, (int64_t)revealed_at[i]);
            jw_key(w, "action");
            jw_str(w, text);
            jw_obj_end(w);
        } else {
            jw_null(w);
        }
        jw_key(w, "ms");
        jw_num(w, d->micros / 1000.0);
        jw_key(w, "cpu_ms");
        measured_ms(w, d->cpu_us);
        jw_key(w, "wait_ms");
        measured_ms(w, d->wait_us);
        jw_key(w, "link_ms");           /* a remote seat's link allowance */
        measured_ms(w, d->remote ? d->link_us : REF_UNMEASURED);
        jw_key(w, "substituted");
        jw_bool(w, d->substituted);
        if (view < 0 || d->seat == view) {
            decision_log(w, d, logs, &mark[d->seat]);
        } else {
            jw_key(w, "log");
            jw_null(w);
        }
        jw_obj_end(w);
        g->apply(state, d->action);
    }
    jw_arr_end(w);
}

/* The decisions and the state before the first and after each: 0, or -1
 * with r->error set (a record that does not replay). */
static int replay_json(web_req *r, const ref_record *rec, const game_api *g, int view,
                       const seat_logs *logs, int playing)
{
    jw *w = &r->out;
    char err[256];
    if (playing ? ref_record_verify_so_far(rec, g, err, sizeof err) != 0
                : ref_record_verify(rec, g, err, sizeof err) != 0)
        return web_fail(r, 409, "the %s record does not replay: %s",
                        playing ? "match's" : "stored", err);
    game_options *options = game_options_new(g);
    void *state = calloc(1, g->state_size);
    char *picture = g->write_json ? NULL : malloc(1 << 16);
    if (!options || !state || (!g->write_json && !picture) ||
        game_options_parse(options, rec->options, err, sizeof err) < 0 ||
        g->init(state, options, rec->seed)) {
        game_options_free(options), free(state), free(picture);
        return web_fail(r, 409, "the stored record's game cannot be set up");
    }
    size_t *revealed_at = reveal_steps(rec, g, state, options, view);
    jw_key(w, "clock");               /* how decisions were charged; null in older records */
    jw_str(w, *rec->clock ? rec->clock : NULL);
    g->init(state, options, rec->seed);
    decisions_json(w, rec, g, state, view, revealed_at, logs);
    free(revealed_at);
    g->init(state, options, rec->seed);
    jw_key(w, "states");
    jw_arr(w);
    state_json(w, g, state, view, picture, 1 << 16);
    for (size_t i = 0; i < rec->ndecisions; i++) {
        g->apply(state, rec->decisions[i].action);
        state_json(w, g, state, view, picture, 1 << 16);
    }
    jw_arr_end(w);
    game_options_free(options), free(state), free(picture);
    return 0;
}

/* The match's kept logs (schema 3, the author's loop), by seat: 0, or
 * web_fail. */
static int read_logs(web_req *r, int64_t id, int seats, seat_logs *logs)
{
    memset(logs, 0, sizeof *logs);
    logs->n = arena_db_match_logs(r->db, id, &logs->all);
    if (logs->n < 0)
        return web_fail(r, 503, "cannot read the logs of match %lld", (long long)id);
    for (int i = 0; i < logs->n; i++)
        if (logs->all[i].seat >= 0 && logs->all[i].seat < seats)
            logs->of[logs->all[i].seat] = &logs->all[i];
    return 0;
}

/* Each seat's kept log, or only the viewing seat's: an empty list where
 * the database keeps none. */
static void logs_json(web_req *r, const seat_logs *logs, int view)
{
    jw *w = &r->out;
    jw_key(w, "logs");
    jw_arr(w);
    for (int i = 0; i < logs->n; i++) {
        const arena_log *l = &logs->all[i];
        if (view >= 0 && l->seat != view)
            continue;
        jw_obj(w);
        jw_key(w, "seat");
        jw_int(w, l->seat);
        jw_key(w, "bytes");
        jw_int(w, (int64_t)l->bytes);
        jw_key(w, "text");
        jw_strn(w, l->text, l->len);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static int read_view(web_req *r, int seats, int *view)
{
    const char *v = web_param(r, "view");
    int64_t seat;
    *view = -1;
    if (!v || !*v || !strcmp(v, "full"))
        return 0;
    if (kv_i64(v, 0, seats - 1, &seat) != 0)
        return web_fail(r, 400, "view must be full or a seat from 0 to %d", seats - 1);
    *view = (int)seat;
    return 0;
}

/* Match m in play from its row p (its record handed over to m). */
static void match_from_playing(arena_playing *p, arena_match *m)
{
    memset(m, 0, sizeof *m);
    m->id = p->id;
    m->tournament_id = p->tournament_id;
    m->ladder_id = p->ladder_id;
    m->game_index = (int)p->job;
    snprintf(m->game, sizeof m->game, "%s", p->game);
    snprintf(m->options, sizeof m->options, "%s", p->options ? p->options : "");
    m->seed = p->seed;
    m->seats = p->seats;
    for (int i = 0; i < p->seats; i++)
        m->bot[i] = p->bot[i], m->team[i] = i;
    m->culprit = -1;
    m->started_ms = p->started_ms;
    m->record = p->record;
    p->record = NULL;
}

/* Match id into *m: a stored match, or one in play (*playing) or stored
 * since it was (its id from ARENA_PLAYING_BASE). 0, or web_fail. */
static int find_match(web_req *r, int64_t id, arena_match *m, int *playing)
{
    *playing = 0;
    if (id >= ARENA_PLAYING_BASE) {
        arena_playing p;
        int rc = arena_db_playing_get(r->db, id, &p);
        if (rc == 0 && !p.match_id && p.seats >= 2)
            match_from_playing(&p, m), *playing = 1;
        else if (rc == 0)
            id = p.match_id;              /* stored since: the finished match */
        arena_playing_clear(&p);
        if (rc != 0 || *playing || !id)
            return rc == 0 && *playing ? 0 : web_fail(r, rc < 0 ? 503 : 404, rc < 0 ?
                   "cannot read match %lld" : "no match %lld (one in play is forgotten a minute "
                   "after it ends unstored)", (long long)id);
    }
    int rc = arena_db_match_get(r->db, id, m);
    return rc == 0 ? 0 : web_fail(r, rc == 1 ? 404 : 503, rc == 1 ? "no match %lld"
                                  : "cannot read match %lld", (long long)id);
}

/* A record so far answers its match's row: its game, options, seed and
 * seats (the stored ones were checked so by the arena). */
static int answers(const ref_record *rec, const arena_match *m, char *err, size_t size)
{
    if (strcmp(rec->game, m->game) || strcmp(rec->options, m->options) ||
        rec->seed != m->seed || rec->seats != m->seats) {
        snprintf(err, size, "the worker's record so far is of another match");
        return 0;
    }
    return 1;
}

/* 1 when a seat of match m is a remote bot (or that cannot be read): its
 * participant reads this web, so while the match plays no view of it is
 * served (each would show some seat's hidden holdings). */
static int remote_seat(web_req *r, const arena_match *m)
{
    for (int i = 0; i < m->seats; i++) {
        arena_remote_bot rb;
        if (arena_db_remote_get(r->db, m->bot[i], &rb) != 1)
            return 1;
    }
    return 0;
}

int web_api_match(web_req *r)
{
    int64_t id;
    if (kv_i64(r->path_rest, 1, INT64_MAX, &id) != 0)
        return web_fail(r, 400, "a match id is a whole number from 1");
    arena_match m = { 0 };
    int view, playing;
    if (find_match(r, id, &m, &playing) != 0)
        return -1;
    id = m.id;
    const game_api *g = NULL;
    ref_record rec;
    ref_record_init(&rec);
    char err[256];
    snprintf(err, sizeof err, playing ? "no decision yet" : "no record stored");
    if (playing && remote_seat(r, &m)) {
        snprintf(err, sizeof err, "a match with a remote bot is shown once it ends (its "
                 "participant could read the other seats' hidden holdings while it plays)");
        free(m.record);
        m.record = NULL;
    }
    FILE *f = m.record ? fmemopen(m.record, strlen(m.record), "r") : NULL;
    int readable = f && ref_record_read(&rec, &g, f, err, sizeof err) == 0 &&
                   (!playing || answers(&rec, &m, err, sizeof err));
    if (f)
        fclose(f);
    seat_logs logs = { 0 };
    int rc = read_view(r, m.seats, &view);
    if (rc == 0 && !playing)              /* logs come with the stored match */
        rc = read_logs(r, id, m.seats, &logs);
    if (rc == 0) {
        jw_obj(&r->out);
        header_json(r, &m, view);
        jw_key(&r->out, "playing");
        jw_bool(&r->out, playing);
        if (readable)
            rc = replay_json(r, &rec, g, view, &logs, playing);
        else {
            jw_key(&r->out, "unavailable");    /* a match stored without its record */
            jw_str(&r->out, err);
        }
        if (rc == 0) {
            logs_json(r, &logs, view);
            jw_obj_end(&r->out);
        }
    }
    arena_logs_free(logs.all, logs.n);
    ref_record_free(&rec);
    arena_match_free(&m);
    return rc;
}
