/*
 * seat_view.c - the seat-view test's two helpers (test_web_views.sh),
 * linked against the games alone, never against the web:
 *
 *   seat_view make IN OUT     a hand-made match: IN's game, options, seed and
 *                             bots, played by a fixed policy that takes a
 *                             hidden action (public_view differs: a War Chest
 *                             coin face down, a recruit; every Goofspiel bid)
 *                             every third decision when one is legal, else
 *                             cycles through the legal ones; written to OUT
 *                             as a complete record
 *   seat_view expect REC SEAT what seat SEAT knew in REC, as JSON: "states",
 *                             the game's own view of each state for that seat
 *                             (game_api.write_json, before the first decision
 *                             and after each), and "decisions": each action
 *                             as the seat saw it (its own whole, another's in
 *                             public_view form), "hidden" when that differs,
 *                             and "revealed": the first step whose state
 *                             shows the seat the whole action (revealed()),
 *                             with the action, or null.
 *
 * Bad arguments: a one-line error and exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "jw.h"
#include "ref_record.h"

static int fail(const char *what, const char *why)
{
    fprintf(stderr, "seat_view: %s: %s\n", what, why);
    return 2;
}

static int read_record(const char *path, ref_record *r, const game_api **g)
{
    char err[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(path, "cannot open");
    ref_record_init(r);
    int rc = ref_record_read(r, g, f, err, sizeof err);
    fclose(f);
    return rc ? fail(path, err) : 0;
}

/* A state of r's game at its start; NULL with a message. */
static void *start(const ref_record *r, const game_api *g, game_options **options)
{
    char err[256];
    void *state = calloc(1, g->state_size);
    *options = game_options_new(g);
    if (!state || !*options || game_options_parse(*options, r->options, err, sizeof err) < 0 ||
        g->init(state, *options, r->seed)) {
        free(state);
        game_options_free(*options);
        fail(r->game, "cannot set up the game");
        return NULL;
    }
    return state;
}

static int make(const char *in, const char *out)
{
    ref_record r;
    const game_api *g;
    game_options *options;
    if (read_record(in, &r, &g))
        return 2;
    void *state = start(&r, g, &options);
    if (!state)
        return 2;
    r.ndecisions = 0;
    static game_action legal[GAME_MAX_ACTIONS];
    for (unsigned step = 0; g->to_move(state) >= 0; step++) {
        int n = g->legal(state, legal), hidden = 0;
        for (int i = 0; i < n; i++)
            if (g->public_view(legal[i]) != legal[i])
                legal[hidden++] = legal[i];            /* the hidden ones first */
        /* Hidden on every third decision at least (all of them would
         * recruit and pass to the round limit), else one of all in turn. */
        game_action a = hidden && (step % 3 == 0 || hidden == n) ? legal[step / 3 % (unsigned)hidden]
                        : legal[step * 7 % (unsigned)n];
        ref_decision d = { .action = a, .micros = 1000 + step, .cpu_us = REF_UNMEASURED,
                           .wait_us = REF_UNMEASURED, .seat = (uint8_t)g->to_move(state),
                           .log_end = REF_LOG_UNMARKED };
        if (ref_record_add(&r, &d) < 0)
            return fail(in, "out of memory");
        g->apply(state, a);
    }
    g->result(state, r.score, r.reason, sizeof r.reason, r.detail, sizeof r.detail);
    r.culprit = -1;
    r.hash = g->hash(state);
    FILE *f = fopen(out, "w");
    int rc = !f || ref_record_write(&r, g, f) < 0;
    if (f && fclose(f))
        rc = 1;
    free(state);
    game_options_free(options);
    ref_record_free(&r);
    return rc ? fail(out, "cannot write") : 0;
}

static int expect(const char *path, const char *seat_text)
{
    ref_record r;
    const game_api *g;
    game_options *options;
    char *end, text[160];
    long seat = strtol(seat_text, &end, 10);
    if (read_record(path, &r, &g))
        return 2;
    if (*end || end == seat_text || seat < 0 || seat >= r.seats)
        return fail(seat_text, "not a seat of the record");
    void *state = start(&r, g, &options);
    void *later = calloc(1, g->state_size);
    if (!state || !later || !g->write_json) {
        free(state);
        free(later);
        return fail(path, "no state or no JSON view");
    }
    jw w;
    jw_init(&w);
    jw_obj(&w);
    jw_key(&w, "states");
    jw_arr(&w);
    g->write_json(&w, state, (int)seat);
    for (size_t i = 0; i < r.ndecisions; i++) {
        g->apply(state, r.decisions[i].action);
        g->write_json(&w, state, (int)seat);
    }
    jw_arr_end(&w);
    jw_key(&w, "decisions");
    jw_arr(&w);
    for (size_t i = 0; i < r.ndecisions; i++) {
        const ref_decision *d = &r.decisions[i];
        int own = d->seat == seat, hidden = !own && g->public_view(d->action) != d->action;
        jw_obj(&w);
        jw_key(&w, "seat");
        jw_int(&w, d->seat);
        g->format(own ? d->action : g->public_view(d->action), text, sizeof text);
        jw_key(&w, "action");
        jw_str(&w, text);
        jw_key(&w, "hidden");
        jw_bool(&w, hidden);
        /* The step (states after it) from which the game shows it whole:
         * replayed afresh from the start for each, the plain way. */
        size_t at = 0;
        if (hidden && g->revealed) {
            g->init(later, options, r.seed);
            for (size_t j = 0; j < r.ndecisions && !at; j++) {
                g->apply(later, r.decisions[j].action);
                if (j >= i && g->revealed(later, (int)seat, d->seat, d->action))
                    at = j + 1;
            }
        }
        jw_key(&w, "revealed");
        if (at) {
            g->format(d->action, text, sizeof text);
            jw_obj(&w);
            jw_key(&w, "step");
            jw_int(&w, (int64_t)at);
            jw_key(&w, "action");
            jw_str(&w, text);
            jw_obj_end(&w);
        } else {
            jw_null(&w);
        }
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    int rc = jw_failed(&w) ? fail(path, "out of memory") : 0;
    if (!rc)
        printf("%.*s\n", (int)w.len, w.buf);
    jw_free(&w);
    free(state);
    free(later);
    game_options_free(options);
    ref_record_free(&r);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "make"))
        return make(argv[2], argv[3]);
    if (argc == 4 && !strcmp(argv[1], "expect"))
        return expect(argv[2], argv[3]);
    fprintf(stderr, "usage: seat_view make IN OUT | seat_view expect RECORD SEAT\n");
    return 2;
}
