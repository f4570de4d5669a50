/*
 * game_harness.c - the checks every game must pass (game_harness.h),
 * through game.h alone: nothing here knows a game's rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <msgpack.h>
#include "game_harness.h"
#include "jw.h"
#include "mps.h"
#include "pcg.h"

/* A game longer than this does not end. */
#define MAX_PLIES 100000

/* One game at a time: its states, buffers and the actions played. */
typedef struct run {
    const game_api *g;
    game_options *options;
    char what[GAME_OPTIONS_TEXT_MAX + 64];    /* "goofspiel players=3 ... seed 7" */
    void *state, *copy;
    msgpack_sbuffer a, b;
    jw ja, jb;
    pcg32 rng;
    game_action legal[GAME_MAX_ACTIONS], other[GAME_MAX_ACTIONS];
    game_action *played;
    uint64_t *hashes;
    int nplayed;
    long scrambled, scramble_changed;          /* over the whole check */
} run;

static int is_word(const char *s, const char *alphabet)
{
    return s && *s && strspn(s, alphabet) == strlen(s);
}

/* ---- the declaration and its options ----------------------------------- */

static void check_declaration(const game_api *g)
{
    if (!is_word(g->name, "abcdefghijklmnopqrstuvwxyz0123456789_") || game_find(g->name) != g)
        fail_msg("'%s' is not a name the registry finds it by", g->name ? g->name : "");
    if (!g->description || !*g->description)
        fail_msg("%s: no description", g->name);
    assert_true(g->state_size > 0);
    assert_true(g->init && g->seats && g->team_of && g->to_move && g->decision_name &&
                g->legal && g->apply && g->public_view && g->format && g->parse &&
                g->pack_action && g->pack_observation && g->result && g->hash && g->render);
    int n = 0;
    for (const int *c = g->seat_counts; *c; c++, n++)
        if (*c < 1 || *c > GAME_MAX_SEATS || (n && *c <= c[-1]))
            fail_msg("%s: seat counts not rising within 1..%d", g->name, GAME_MAX_SEATS);
    if (n == 0)
        fail_msg("%s: no seat count", g->name);
    int players = 0;
    for (int i = 0; i < g->noptions; i++) {
        const game_option *o = &g->options[i];
        if (!is_word(o->name, "abcdefghijklmnopqrstuvwxyz_") || !o->help || !*o->help)
            fail_msg("%s: option %d has no [a-z_] name or no help", g->name, i);
        players |= strcmp(o->name, "players") == 0;
    }
    if (n > 1 && !players)
        fail_msg("%s: several seat counts but no 'players' option", g->name);
    if (game_options_text_max(g) > GAME_OPTIONS_TEXT_MAX)
        fail_msg("%s: its options' text may pass %d bytes", g->name, GAME_OPTIONS_TEXT_MAX);
}

/* The canonical text reads back into the same options. */
static void check_options_text(const game_options *o, const char *name)
{
    char text[GAME_OPTIONS_TEXT_MAX + 1], again[GAME_OPTIONS_TEXT_MAX + 1], err[256];
    game_options *back = game_options_new(game_options_game(o));
    assert_non_null(back);
    game_options_format(o, text, sizeof text);
    if (game_options_parse(back, text, err, sizeof err) < 0)
        fail_msg("%s: its options text '%s' does not read back: %s", name, text, err);
    game_options_format(back, again, sizeof again);
    assert_string_equal(text, again);
    game_options_free(back);
}

/* ---- one decision ------------------------------------------------------ */

static void pack_obs(run *r, const void *state, int seat, msgpack_sbuffer *sb)
{
    msgpack_packer pk;
    sb->size = 0;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    r->g->pack_observation(&pk, state, seat);
}

static int same_bytes(const msgpack_sbuffer *a, const msgpack_sbuffer *b)
{
    return a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
}

static const char *packed_text(run *r, game_action action, char *text, size_t size)
{
    msgpack_packer pk;
    msgpack_unpacked u;
    r->a.size = 0;
    msgpack_packer_init(&pk, &r->a, msgpack_sbuffer_write);
    r->g->pack_action(&pk, action);
    if (mps_decode(r->a.data, r->a.size, &u) < 0 || u.data.type != MSGPACK_OBJECT_MAP)
        fail_msg("%s: an action packs into no single msgpack map", r->what);
    if (mps_get_str(&u.data, "text", text, size) < 0)
        fail_msg("%s: an action's map has no \"text\"", r->what);
    msgpack_unpacked_destroy(&u);
    return text;
}

/* Notation both ways, the packed map's text, and the public view's. */
static void check_action(run *r, game_action action)
{
    const game_api *g = r->g;
    char text[128], again[128], map_text[128];
    game_action back = ~action, view = g->public_view(action), view_back;
    if (g->format(action, text, sizeof text) <= 0)
        fail_msg("%s: an action has no notation", r->what);
    if (g->parse(text, &back) < 0 || back != action)
        fail_msg("%s: '%s' does not parse back to its action", r->what, text);
    g->format(back, again, sizeof again);
    assert_string_equal(text, again);
    if (strcmp(packed_text(r, action, map_text, sizeof map_text), text))
        fail_msg("%s: '%s' is packed as '%s'", r->what, text, map_text);
    if (g->public_view(view) != view)
        fail_msg("%s: the public view of '%s' hides more when viewed again", r->what, text);
    g->format(view, again, sizeof again);
    if (strcmp(packed_text(r, view, map_text, sizeof map_text), again))
        fail_msg("%s: the public view '%s' is packed as '%s'", r->what, again, map_text);
    /* A public view may hide what its notation needs ("bid ?"); if it
     * parses, it is itself. */
    if (g->parse(again, &view_back) == 0 && view_back != view)
        fail_msg("%s: the public view '%s' parses to another action", r->what, again);
}

static void json_of(run *r, const void *state, int seat, jw *w)
{
    jw_reset(w);
    r->g->write_json(w, state, seat);
    if (jw_failed(w) || w->len == 0 || w->buf[0] != '{')
        fail_msg("%s: no JSON object for seat %d", r->what, seat);
}

/* Each seat's observation: one map, the same bytes twice; its JSON view. */
static void check_views(run *r, int seats)
{
    for (int seat = 0; seat < seats; seat++) {
        msgpack_unpacked u;
        pack_obs(r, r->state, seat, &r->a);
        pack_obs(r, r->state, seat, &r->b);
        if (mps_decode(r->a.data, r->a.size, &u) < 0 || u.data.type != MSGPACK_OBJECT_MAP)
            fail_msg("%s: seat %d's observation is not one msgpack map", r->what, seat);
        msgpack_unpacked_destroy(&u);
        if (!same_bytes(&r->a, &r->b))
            fail_msg("%s: seat %d's observation packs differently twice", r->what, seat);
    }
    if (r->g->write_json)
        for (int seat = -1; seat < seats; seat++)
            json_of(r, r->state, seat, &r->ja);
    char text[256];
    if (r->g->render(r->state, text, sizeof text) <= 0)
        fail_msg("%s: render writes nothing", r->what);
}

/* What each seat may not see, dealt afresh: its bytes stay the same. */
static void check_hidden(run *r, int seats, int mover, int nlegal)
{
    const game_api *g = r->g;
    if (!g->scramble_hidden)
        return;
    for (int seat = 0; seat < seats; seat++) {
        memcpy(r->copy, r->state, g->state_size);
        g->scramble_hidden(r->copy, seat, pcg32_next(&r->rng));
        r->scrambled++;
        r->scramble_changed += g->hash(r->copy) != g->hash(r->state);
        pack_obs(r, r->state, seat, &r->a);
        pack_obs(r, r->copy, seat, &r->b);
        if (!same_bytes(&r->a, &r->b))
            fail_msg("%s, ply %d: seat %d's observation changes with what it may not see",
                     r->what, r->nplayed, seat);
        if (g->write_json) {
            json_of(r, r->state, seat, &r->ja);
            json_of(r, r->copy, seat, &r->jb);
            if (r->ja.len != r->jb.len || memcmp(r->ja.buf, r->jb.buf, r->ja.len))
                fail_msg("%s, ply %d: seat %d's JSON view changes with what it may not see",
                         r->what, r->nplayed, seat);
        }
        if (seat == mover && (g->to_move(r->copy) != mover ||
                              g->legal(r->copy, r->other) != nlegal ||
                              memcmp(r->legal, r->other, sizeof r->legal[0] * (size_t)nlegal)))
            fail_msg("%s, ply %d: seat %d's choices change with what it may not see",
                     r->what, r->nplayed, seat);
    }
}

static int by_value(const void *a, const void *b)
{
    game_action x = *(const game_action *)a, y = *(const game_action *)b;
    return (x > y) - (x < y);
}

/* A decision: who moves, what it may do, each codec, each seat's view. */
static int check_decision(run *r, int seats, int codecs)
{
    const game_api *g = r->g;
    double score[GAME_MAX_SEATS];
    char reason[64], detail[256];
    int mover = g->to_move(r->state);
    if (mover >= seats)
        fail_msg("%s: seat %d of %d to move", r->what, mover, seats);
    if (g->result(r->state, score, reason, sizeof reason, detail, sizeof detail))
        fail_msg("%s, ply %d: a result while seat %d is to move", r->what, r->nplayed, mover);
    const char *name = g->decision_name(r->state);
    if (!name || !*name)
        fail_msg("%s: a decision without a name", r->what);
    int n = g->legal(r->state, r->legal);
    if (n < 1 || n > GAME_MAX_ACTIONS)
        fail_msg("%s, ply %d: %d legal actions", r->what, r->nplayed, n);
    memcpy(r->other, r->legal, sizeof r->legal[0] * (size_t)n);
    qsort(r->other, (size_t)n, sizeof r->other[0], by_value);
    for (int i = 1; i < n; i++)
        if (r->other[i] == r->other[i - 1])
            fail_msg("%s, ply %d: an action listed twice", r->what, r->nplayed);
    if (codecs)
        for (int i = 0; i < n; i++)
            check_action(r, r->legal[i]);
    check_views(r, seats);
    check_hidden(r, seats, mover, n);
    return n;
}

/* ---- a whole game ------------------------------------------------------ */

static void check_end(run *r, int seats, double score[GAME_MAX_SEATS])
{
    const game_api *g = r->g;
    char reason[64], detail[256];
    if (g->legal(r->state, r->legal) != 0)
        fail_msg("%s: legal actions after the end", r->what);
    if (!g->result(r->state, score, reason, sizeof reason, detail, sizeof detail))
        fail_msg("%s: over without a result", r->what);
    if (!is_word(reason, "abcdefghijklmnopqrstuvwxyz_") || !*detail)
        fail_msg("%s: the end's reason '%s' is not one word, or no detail", r->what, reason);
    double shares = 0;              /* each team's score once: the win, shared */
    for (int seat = 0; seat < seats; seat++) {
        if (!(score[seat] >= 0 && score[seat] <= 1))
            fail_msg("%s: seat %d scores %g", r->what, seat, score[seat]);
        int first = 1;
        for (int other = 0; other < seat; other++)
            if (g->team_of(r->state, seat) == g->team_of(r->state, other)) {
                first = 0;
                if (score[seat] != score[other])
                    fail_msg("%s: partners %d and %d score apart", r->what, other, seat);
            }
        shares += first ? score[seat] : 0;
    }
    if (shares < 1 - 1e-9 || shares > 1 + 1e-9)
        fail_msg("%s: the teams' scores add up to %g, not 1", r->what, shares);
    check_views(r, seats);
}

/* The same seed and actions again: the same hashes, the same end. */
static void check_replay(run *r, uint64_t seed, const double score[GAME_MAX_SEATS], int seats)
{
    const game_api *g = r->g;
    double again[GAME_MAX_SEATS];
    char reason[64], detail[256];
    assert_null(g->init(r->copy, r->options, seed));
    for (int i = 0; i < r->nplayed; i++) {
        int n = g->legal(r->copy, r->other), found = 0;
        for (int k = 0; k < n && !found; k++)
            found = r->other[k] == r->played[i];
        if (!found)
            fail_msg("%s: replayed, ply %d is not legal", r->what, i);
        g->apply(r->copy, r->played[i]);
        if (g->hash(r->copy) != r->hashes[i])
            fail_msg("%s: replayed, ply %d reaches another state", r->what, i);
    }
    assert_int_equal(g->to_move(r->copy), -1);
    assert_true(g->result(r->copy, again, reason, sizeof reason, detail, sizeof detail));
    assert_memory_equal(score, again, sizeof again[0] * (size_t)seats);
}

static void play(run *r, uint64_t seed, int codecs)
{
    const game_api *g = r->g;
    char text[GAME_OPTIONS_TEXT_MAX + 1];
    game_options_format(r->options, text, sizeof text);
    snprintf(r->what, sizeof r->what, "%s %s, seed %llu", g->name, text,
             (unsigned long long)seed);
    const char *why = g->init(r->state, r->options, seed);
    if (why)
        fail_msg("%s: refused: %s", r->what, why);
    int seats = g->seats(r->state);
    /* A state is a plain value: a copy plays on alone. */
    assert_null(g->init(r->copy, r->options, seed));
    uint64_t start = g->hash(r->state);
    assert_true(g->hash(r->copy) == start);
    if (g->to_move(r->copy) >= 0 && g->legal(r->copy, r->other) > 0) {
        g->apply(r->copy, r->other[0]);
        assert_true(g->hash(r->state) == start);
    }
    for (r->nplayed = 0; g->to_move(r->state) >= 0; r->nplayed++) {
        if (r->nplayed >= MAX_PLIES)
            fail_msg("%s: no end after %d actions", r->what, MAX_PLIES);
        int n = check_decision(r, seats, codecs);
        r->played[r->nplayed] = r->legal[pcg32_below(&r->rng, (uint32_t)n)];
        g->apply(r->state, r->played[r->nplayed]);
        r->hashes[r->nplayed] = g->hash(r->state);
    }
    double score[GAME_MAX_SEATS];
    check_end(r, seats, score);
    check_replay(r, seed, score, seats);
}

/* ---- the whole check --------------------------------------------------- */

static void run_open(run *r, const game_api *g)
{
    memset(r, 0, sizeof *r);
    r->g = g;
    r->state = calloc(1, g->state_size);
    r->copy = calloc(1, g->state_size);
    r->played = calloc(MAX_PLIES, sizeof r->played[0]);
    r->hashes = calloc(MAX_PLIES, sizeof r->hashes[0]);
    assert_true(r->state && r->copy && r->played && r->hashes);
    msgpack_sbuffer_init(&r->a);
    msgpack_sbuffer_init(&r->b);
    jw_init(&r->ja);
    jw_init(&r->jb);
    pcg32_seed(&r->rng, 0x6861726e657373ULL, 7);
}

static void run_close(run *r)
{
    free(r->state);
    free(r->copy);
    free(r->played);
    free(r->hashes);
    msgpack_sbuffer_destroy(&r->a);
    msgpack_sbuffer_destroy(&r->b);
    jw_free(&r->ja);
    jw_free(&r->jb);
}

/* Option `o`'s values to try alone: an INT's ends and default, every
 * choice, a TEXT's default. The values it must refuse into `refused`:
 * their count. */
static int option_values(const game_option *o, char values[][64], int *nvalues,
                         char refused[][64])
{
    int n = 0, nrefused = 0;
    snprintf(values[n++], 64, "%s", o->def);
    if (o->kind == GAME_OPT_INT) {
        snprintf(values[n++], 64, "%lld", (long long)o->lo);
        snprintf(values[n++], 64, "%lld", (long long)o->hi);
        snprintf(refused[nrefused++], 64, "%lld", (long long)o->lo - 1);
        snprintf(refused[nrefused++], 64, "%lld", (long long)o->hi + 1);
        snprintf(refused[nrefused++], 64, "x");
    }
    for (int i = 0; o->kind == GAME_OPT_CHOICE && o->choices[i] && n < 16; i++)
        snprintf(values[n++], 64, "%s", o->choices[i]);
    if (o->kind == GAME_OPT_CHOICE)
        snprintf(refused[nrefused++], 64, "no-such-choice");
    *nvalues = n;
    return nrefused;
}

/* Each declared value alone: accepted, and a game or a one-line refusal;
 * each value outside the declaration refused with a reason. */
static void check_each_option(run *r)
{
    const game_api *g = r->g;
    char values[20][64], refused[3][64], err[256];
    for (int i = 0; i < g->noptions; i++) {
        const game_option *opt = &g->options[i];
        int n, nrefused = option_values(opt, values, &n, refused);
        for (int v = 0; v < n; v++) {
            r->options = game_options_new(g);
            assert_non_null(r->options);
            if (game_options_set(r->options, opt->name, values[v], err, sizeof err) < 0)
                fail_msg("%s: %s=%s refused: %s", g->name, opt->name, values[v], err);
            check_options_text(r->options, g->name);
            const char *why = g->init(r->state, r->options, 1);
            if (why && (!*why || strchr(why, '\n')))
                fail_msg("%s: %s=%s refused without a one-line reason", g->name, opt->name,
                         values[v]);
            if (!why)
                play(r, 1, 0);
            game_options_free(r->options);
        }
        game_options *o = game_options_new(g);
        assert_non_null(o);
        for (int k = 0; k < nrefused; k++) {
            err[0] = 0;
            if (game_options_set(o, opt->name, refused[k], err, sizeof err) == 0 || !*err)
                fail_msg("%s: %s=%s accepted, or refused without a reason", g->name,
                         opt->name, refused[k]);
        }
        game_options_free(o);
    }
}

static void check_seat_count(run *r, int count, int games)
{
    char players[16], err[256];
    int seats, teams;
    r->options = game_options_new(r->g);
    assert_non_null(r->options);
    snprintf(players, sizeof players, "%d", count);
    if (game_shape(r->options, &seats, &teams, err, sizeof err) < 0)
        fail_msg("%s: its defaults make no game: %s", r->g->name, err);
    if (seats != count &&
        game_options_set(r->options, "players", players, err, sizeof err) < 0)
        fail_msg("%s: %d seats declared, but: %s", r->g->name, count, err);
    assert_int_equal(game_shape(r->options, &seats, &teams, err, sizeof err), 0);
    assert_int_equal(seats, count);
    check_options_text(r->options, r->g->name);
    for (int i = 0; i < games; i++)
        play(r, 1000 * (uint64_t)count + (uint64_t)i, 1);
    game_options_free(r->options);
}

void game_harness_check(const game_api *g, int games)
{
    const char *longer = getenv("ARENA_TEST_LONG");
    if (longer && strcmp(longer, "1") == 0)
        games *= 10;
    check_declaration(g);
    run r;
    run_open(&r, g);
    for (const int *count = g->seat_counts; *count; count++)
        check_seat_count(&r, *count, games);
    check_each_option(&r);
    /* The scramble changed something: the check above could fail. */
    if (g->scramble_hidden && r.scramble_changed == 0)
        fail_msg("%s: scramble_hidden never changed a state", g->name);
    run_close(&r);
}
