/*
 * wc_game.c - War Chest behind the referee's game interface (game.h):
 * options from text, actions as 64-bit values, and the msgpack shapes of
 * observations and actions that sdk/PROTOCOL.md documents.
 *
 * The engine (wc_*.c) stays free of I/O and of msgpack; this adapter is the
 * only War Chest code the referee links that knows about either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <msgpack.h>
#include "game.h"
#include "wc.h"
#include "wc_pack.h"

/* ---- the declaration ---------------------------------------------------- */

enum { OPT_PLAYERS, OPT_SETUP, OPT_ROYAL_GUARD, OPT_ROUND_LIMIT, OPT_UNITS, OPT_INITIATIVE,
       NOPTIONS };

static const char *const player_counts[] = { "2", "4", NULL };
static const char *const setups[] = { "dealt", "draft", "fixed", "first-game", "gaugamela",
                                      "bannockburn", "crecy", NULL };
static const char *const guards[] = { "2018", "revised", NULL };
static const char *const initiatives[] = { "random", "0", "1", "2", "3", NULL };

/* "archer,knight,lancer,scout/cavalry,...": each seat's units, into o. */
static const char *parse_units(const char *value, wc_options *o)
{
    char copy[256];
    size_t whole = strlen(value);
    if (whole >= sizeof copy)
        return "too long";
    memcpy(copy, value, whole + 1);
    memset(o->units, WC_NONE, sizeof o->units);
    int seat = 0, i = 0;
    for (char *p = copy; ; ) {
        size_t len = strcspn(p, ",/");
        char sep = p[len];
        p[len] = 0;
        int u = wc_coin_by_name(p);
        if (u < 0 || u >= WC_NUNITS)
            return "unknown unit name";
        if (seat >= WC_MAX_SEATS || i >= 4)
            return "too many units or seats";
        o->units[seat][i++] = (uint8_t)u;
        if (!sep)
            break;
        if (sep == '/') {
            seat++;
            i = 0;
        }
        p += len + 1;
    }
    return NULL;
}

static const char *check_units(const char *value)
{
    wc_options o;
    return parse_units(value, &o);
}

static const game_option declared[NOPTIONS] = {
    [OPT_PLAYERS] = { "players", GAME_OPT_CHOICE, "2", 0, 0, player_counts,
                      "seats: 4 plays 2 v 2, partners in seats 0 and 2", GAME_OPT_SHOWN, NULL },
    [OPT_SETUP] = { "setup", GAME_OPT_CHOICE, "dealt", 0, 0, setups,
                    "units dealt at random, drafted, given (units=), or a named scenario",
                    GAME_OPT_SHOWN, NULL },
    [OPT_ROYAL_GUARD] = { "royal_guard", GAME_OPT_CHOICE, "2018", 0, 0, guards,
                          "which printing of the Royal Guard's tactic", GAME_OPT_SHOWN, NULL },
    [OPT_ROUND_LIMIT] = { "round_limit", GAME_OPT_INT, "100", 1, 10000, NULL,
                          "rounds before a draw", GAME_OPT_SHOWN, NULL },
    [OPT_UNITS] = { "units", GAME_OPT_TEXT, "", 0, 255, NULL,
                    "setup=fixed: each seat's units, 'archer,knight,lancer,scout/cavalry,...'",
                    0, check_units },
    [OPT_INITIATIVE] = { "initiative", GAME_OPT_CHOICE, "random", 0, 0, initiatives,
                         "fixed set-ups: the seat that starts with the initiative", 0, NULL },
};

static const int seat_counts[] = { 2, 4, 0 };

/* The declared options into the engine's. NULL, or why they make no game. */
static const char *engine_options(const game_options *g, wc_options *o)
{
    wc_options_default(o);
    const char *setup = game_option_text(g, OPT_SETUP), *units = game_option_text(g, OPT_UNITS);
    int players = game_option_int(g, OPT_PLAYERS) == 1 ? 4 : 2;
    int initiative = (int)game_option_int(g, OPT_INITIATIVE) - 1;   /* -1: random */
    if (wc_options_preset(o, setup) == 0) {
        if (players != 2)
            return "the named set-ups are for 2 players";
        if (*units)
            return "units= goes with setup=fixed, not a named set-up";
    } else {
        o->setup = !strcmp(setup, "draft") ? WC_SETUP_DRAFT
                 : !strcmp(setup, "fixed") ? WC_SETUP_FIXED : WC_SETUP_DEALT;
        if ((o->setup == WC_SETUP_FIXED) != (*units != 0))
            return *units ? "units= needs setup=fixed" : "setup=fixed needs units=";
        if (*units)
            parse_units(units, o);
        if (initiative >= 0 && o->setup != WC_SETUP_FIXED)
            return "initiative= goes with a fixed set-up";
    }
    o->players = (uint8_t)players;
    o->royal_guard = (uint8_t)game_option_int(g, OPT_ROYAL_GUARD);
    o->round_limit = (uint16_t)game_option_int(g, OPT_ROUND_LIMIT);
    if (initiative >= 0)
        o->initiative = (uint8_t)initiative;
    return wc_options_invalid(o);
}

/* ---- actions as 64-bit values ----------------------------------------- */

static game_action to_game(const wc_action *a)
{
    game_action g = 0;
    memcpy(&g, a, sizeof *a);
    return g;
}

static wc_action from_game(game_action g)
{
    wc_action a;
    memcpy(&a, &g, sizeof a);
    return a;
}

/* ---- the interface ----------------------------------------------------- */

static const char *init(void *state, const game_options *options, uint64_t seed)
{
    wc_options o;
    const char *why = engine_options(options, &o);
    return why ? why : wc_init(state, &o, seed);
}

static int seats(const void *state) { return ((const wc_state *)state)->nseats; }
static int team_of(const void *state, int seat) { return wc_side_of(state, seat); }
static int to_move(const void *state) { return wc_to_move(state); }

static const char *decision_name(const void *state)
{
    return wc_decision_name(wc_decision(state));
}

static int legal(const void *state, game_action *out)
{
    wc_action all[WC_MAX_ACTIONS];
    int n = wc_legal_actions(state, all);
    for (int i = 0; i < n; i++)
        out[i] = to_game(&all[i]);
    return n;
}

static void apply(void *state, game_action g)
{
    wc_action a = from_game(g);
    wc_apply(state, &a);
}

static game_action public_view(game_action g)
{
    wc_action a = from_game(g);
    wc_action p = wc_action_public(&a);
    return to_game(&p);
}

static int format(game_action g, char *buf, size_t size)
{
    wc_action a = from_game(g);
    return wc_action_format(&a, buf, size);
}

static int parse(const char *text, game_action *out)
{
    wc_action a;
    if (wc_action_parse(text, &a) < 0)
        return -1;
    *out = to_game(&a);
    return 0;
}

static int result(const void *state, double score[GAME_MAX_SEATS], char *reason, size_t size,
                  char *detail, size_t detail_size)
{
    const wc_state *s = state;
    if (!wc_is_over(s))
        return 0;
    for (int seat = 0; seat < s->nseats; seat++)
        score[seat] = s->winner == WC_NONE ? 0.5 : wc_side_of(s, seat) == s->winner;
    int markers = s->end_reason == WC_END_MARKERS;
    snprintf(reason, size, "%s", markers ? "markers" : "round_limit");
    snprintf(detail, detail_size, "%s", markers ? "all markers placed" : "round limit reached");
    return 1;
}

static uint64_t hash(const void *state) { return wc_hash(state); }
static int render(const void *state, char *buf, size_t size) { return wc_render(state, buf, size); }
static void write_json(struct jw *w, const void *state, int seat) { wc_write_json(w, state, seat); }

/* Every other seat's hidden coins, and the draws to come. */
static void scramble_hidden(void *state, int seat, uint64_t seed)
{
    wc_state *s = state;
    wc_rng rng;
    pcg32_seed(&rng, seed, 0x68696464656eULL);
    for (int other = 0; other < s->nseats; other++)
        if (other != seat)
            wc_scramble_hidden(s, other, &rng);
    s->rng.state ^= pcg32_next(&rng) | 1;
}


const game_api game_warchest = {
    .name = "warchest",
    .description = "War Chest: bag-building battles on a hex board, 2 players or 2 v 2",
    .seat_counts = seat_counts,
    .options = declared,
    .noptions = NOPTIONS,
    .state_size = sizeof(wc_state),
    .init = init,
    .seats = seats,
    .team_of = team_of,
    .to_move = to_move,
    .decision_name = decision_name,
    .legal = legal,
    .apply = apply,
    .public_view = public_view,
    .format = format,
    .parse = parse,
    .pack_action = wc_pack_action,
    .pack_observation = wc_pack_observation,
    .result = result,
    .hash = hash,
    .render = render,
    .write_json = write_json,
    .scramble_hidden = scramble_hidden,
};
