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

typedef struct wcg_options {
    wc_options wc;
    char setup[16];     /* as the user named it: dealt, draft, a preset, fixed */
} wcg_options;

/* ---- options ----------------------------------------------------------- */

static void options_default(void *p)
{
    wcg_options *o = p;
    memset(o, 0, sizeof *o);
    wc_options_default(&o->wc);
    strcpy(o->setup, "dealt");
}

/* "archer,knight,lancer,scout/cavalry,..." : each seat's units. */
static const char *set_units(wcg_options *o, const char *value)
{
    char copy[256];
    if (strlen(value) >= sizeof copy)
        return "units: too long";
    strcpy(copy, value);
    memset(o->wc.units, WC_NONE, sizeof o->wc.units);
    int seat = 0, i = 0;
    for (char *p = copy; ; ) {
        size_t len = strcspn(p, ",/");
        char sep = p[len];
        p[len] = 0;
        int u = wc_coin_by_name(p);
        if (u < 0 || u >= WC_NUNITS)
            return "units: unknown unit name";
        if (seat >= WC_MAX_SEATS || i >= 4)
            return "units: too many units or seats";
        o->wc.units[seat][i++] = (uint8_t)u;
        if (!sep)
            break;
        if (sep == '/') {
            seat++;
            i = 0;
        }
        p += len + 1;
    }
    o->wc.setup = WC_SETUP_FIXED;
    strcpy(o->setup, "fixed");
    return NULL;
}

static const char *options_set(void *p, const char *key, const char *value)
{
    wcg_options *o = p;
    char *end;
    if (strcmp(key, "players") == 0) {
        if (strcmp(value, "2") && strcmp(value, "4"))
            return "players must be 2 or 4";
        o->wc.players = (uint8_t)atoi(value);
    } else if (strcmp(key, "setup") == 0) {
        if (strcmp(value, "dealt") == 0)
            o->wc.setup = WC_SETUP_DEALT;
        else if (strcmp(value, "draft") == 0)
            o->wc.setup = WC_SETUP_DRAFT;
        else if (strcmp(value, "fixed") == 0)
            o->wc.setup = WC_SETUP_FIXED;
        else if (wc_options_preset(&o->wc, value) < 0)
            return "setup must be dealt, draft, fixed, first-game, gaugamela, bannockburn or crecy";
        snprintf(o->setup, sizeof o->setup, "%s", value);
    } else if (strcmp(key, "units") == 0) {
        return set_units(o, value);
    } else if (strcmp(key, "initiative") == 0) {
        long v = strtol(value, &end, 10);
        if (strcmp(value, "random") == 0)
            o->wc.initiative = WC_NONE;
        else if (*value && !*end && v >= 0 && v < WC_MAX_SEATS)
            o->wc.initiative = (uint8_t)v;
        else
            return "initiative must be a seat number or random";
    } else if (strcmp(key, "royal_guard") == 0) {
        if (strcmp(value, "2018") == 0)
            o->wc.royal_guard = WC_GUARD_2018;
        else if (strcmp(value, "revised") == 0)
            o->wc.royal_guard = WC_GUARD_REVISED;
        else
            return "royal_guard must be 2018 or revised";
    } else if (strcmp(key, "round_limit") == 0) {
        long v = strtol(value, &end, 10);
        if (!*value || *end || v < 1 || v > 10000)
            return "round_limit must be a whole number from 1 to 10000";
        o->wc.round_limit = (uint16_t)v;
    } else {
        return "unknown option (players, setup, units, initiative, royal_guard, round_limit)";
    }
    return NULL;
}

static int options_format(const void *p, char *buf, size_t size)
{
    const wcg_options *o = p;
    int n = snprintf(buf, size, "players=%d setup=%s royal_guard=%s round_limit=%d",
                     o->wc.players, o->setup,
                     o->wc.royal_guard == WC_GUARD_REVISED ? "revised" : "2018",
                     o->wc.round_limit);
    if (strcmp(o->setup, "fixed") == 0) {
        n += snprintf(buf + n, size > (size_t)n ? size - n : 0, " units=");
        for (int seat = 0; seat < o->wc.players; seat++)
            for (int i = 0; i < 4 && o->wc.units[seat][i] != WC_NONE; i++)
                n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "%s%s",
                              i ? "," : seat ? "/" : "", wc_coin_name(o->wc.units[seat][i]));
        n += snprintf(buf + n, size > (size_t)n ? size - n : 0, " initiative=");
        if (o->wc.initiative == WC_NONE)
            n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "random");
        else
            n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "%d", o->wc.initiative);
    }
    return n;
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

static const char *init(void *state, const void *options, uint64_t seed)
{
    return wc_init(state, &((const wcg_options *)options)->wc, seed);
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

static int result(const void *state, double score[GAME_MAX_SEATS], char *reason, size_t size)
{
    const wc_state *s = state;
    if (!wc_is_over(s))
        return 0;
    for (int seat = 0; seat < s->nseats; seat++)
        score[seat] = s->winner == WC_NONE ? 0.5 : wc_side_of(s, seat) == s->winner;
    snprintf(reason, size, "%s", s->end_reason == WC_END_MARKERS ? "markers" : "round_limit");
    return 1;
}

static uint64_t hash(const void *state) { return wc_hash(state); }
static int render(const void *state, char *buf, size_t size) { return wc_render(state, buf, size); }


const game_api game_warchest = {
    .name = "warchest",
    .state_size = sizeof(wc_state),
    .options_size = sizeof(wcg_options),
    .options_default = options_default,
    .options_set = options_set,
    .options_format = options_format,
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
};
