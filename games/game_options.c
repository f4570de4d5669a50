/*
 * game_options.c - option values of any game, parsed and checked against
 * its declaration (game.h): the one place option text is read.
 *
 * A value is kept as a number (INT: the value; CHOICE: the choice's index)
 * and as text (TEXT: the value). The canonical text lists options in their
 * declared order, so the same options always give the same text: that
 * text is what records, tournament keys and jobs carry.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "kv.h"

typedef struct game_value {
    int64_t number;
    char   *text;                  /* TEXT only, malloc'ed */
    int     given;
} game_value;

struct game_options {
    const game_api *game;
    game_value      v[];
};

static int find(const game_api *g, const char *key)
{
    for (int i = 0; i < g->noptions; i++)
        if (!strcmp(g->options[i].name, key))
            return i;
    return -1;
}

static int choice_index(const game_option *d, const char *value)
{
    for (int i = 0; d->choices[i]; i++)
        if (!strcmp(d->choices[i], value))
            return i;
    return -1;
}

/* What a value must be, for a reason: "a whole number from 1 to 10000". */
static void expected(const game_option *d, char *buf, size_t size)
{
    if (d->kind == GAME_OPT_INT) {
        snprintf(buf, size, "a whole number from %" PRId64 " to %" PRId64, d->lo, d->hi);
        return;
    }
    if (d->kind == GAME_OPT_TEXT) {
        snprintf(buf, size, "text of at most %" PRId64 " bytes", d->hi);
        return;
    }
    size_t n = 0;
    for (int i = 0; d->choices[i] && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i == 0 ? "" : d->choices[i + 1] ? ", " : " or ",
                              d->choices[i]);
}

/* Checks `value` for option d; stores it in *v when good. NULL or why not. */
static const char *store(const game_option *d, game_value *v, const char *value)
{
    int64_t n;
    if (d->kind == GAME_OPT_INT) {
        if (kv_i64(value, d->lo, d->hi, &n) < 0)
            return "";
        v->number = n;
        return NULL;
    }
    if (d->kind == GAME_OPT_CHOICE) {
        int i = choice_index(d, value);
        if (i < 0)
            return "";
        v->number = i;
        return NULL;
    }
    if (strlen(value) > (size_t)d->hi || strchr(value, ' '))
        return "";
    const char *why = d->check && *value ? d->check(value) : NULL;
    if (why)
        return why;
    char *copy = strdup(value);
    if (!copy)
        return "out of memory";
    free(v->text);
    v->text = copy;
    return NULL;
}

game_options *game_options_new(const game_api *g)
{
    game_options *o = calloc(1, sizeof *o + (size_t)g->noptions * sizeof o->v[0]);
    if (!o)
        return NULL;
    o->game = g;
    for (int i = 0; i < g->noptions; i++) {
        const char *why = store(&g->options[i], &o->v[i], g->options[i].def);
        assert(!why && "a declared default must be a valid value");
        if (why) {
            game_options_free(o);
            return NULL;
        }
    }
    return o;
}

void game_options_free(game_options *o)
{
    if (!o)
        return;
    for (int i = 0; i < o->game->noptions; i++)
        free(o->v[i].text);
    free(o);
}

const game_api *game_options_game(const game_options *o) { return o->game; }

int game_options_set(game_options *o, const char *key, const char *value, char *err, size_t size)
{
    const game_api *g = o->game;
    int i = find(g, key);
    if (i < 0) {
        int n = snprintf(err, size, "%s has no option '%s' (it has", g->name, key);
        for (int k = 0; k < g->noptions && n > 0 && (size_t)n < size; k++)
            n += snprintf(err + n, size - (size_t)n, " %s", g->options[k].name);
        if (n > 0 && (size_t)n < size)
            snprintf(err + n, size - (size_t)n, "%s)", g->noptions ? "" : " none");
        return -1;
    }
    const game_option *d = &g->options[i];
    const char *why = store(d, &o->v[i], value);
    if (why) {
        char want[256];
        expected(d, want, sizeof want);
        snprintf(err, size, "%s must be %s, not '%s'%s%s", key, want, value, *why ? ": " : "", why);
        return -1;
    }
    o->v[i].given = 1;
    return 0;
}

int game_options_parse(game_options *o, const char *text, char *err, size_t size)
{
    char key[64], why[256];
    size_t cap = strlen(text) + 1;
    char *value = malloc(cap);
    if (!value) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    int rc = 0, got;
    while ((got = kv_next(&text, key, sizeof key, value, cap, why, sizeof why)) > 0)
        if ((rc = game_options_set(o, key, value, err, size)) < 0)
            break;
    if (got < 0) {
        snprintf(err, size, "option %s", why);
        rc = -1;
    }
    free(value);
    return rc;
}

int game_options_given(const game_options *o, const char *key)
{
    int i = find(o->game, key);
    return i >= 0 && o->v[i].given;
}

static const char *value_text(const game_options *o, int i)
{
    const game_option *d = &o->game->options[i];
    if (d->kind == GAME_OPT_TEXT)
        return o->v[i].text;
    if (d->kind == GAME_OPT_CHOICE)
        return d->choices[o->v[i].number];
    return NULL;
}

size_t game_options_format(const game_options *o, char *buf, size_t size)
{
    const game_api *g = o->game;
    size_t n = 0;
    if (size)
        buf[0] = 0;
    for (int i = 0; i < g->noptions; i++) {
        const game_option *d = &g->options[i];
        char number[24];
        const char *text = value_text(o, i);
        if (!text) {
            snprintf(number, sizeof number, "%" PRId64, o->v[i].number);
            text = number;
        }
        if (!(d->flags & GAME_OPT_SHOWN) && !strcmp(text, d->def))
            continue;
        int k = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s=%s",
                         n ? " " : "", d->name, text);
        n += (size_t)k;
    }
    return n;
}

size_t game_options_text_max(const game_api *g)
{
    size_t n = 0;
    for (int i = 0; i < g->noptions; i++) {
        const game_option *d = &g->options[i];
        size_t longest = 20;               /* an int64 */
        if (d->kind == GAME_OPT_TEXT)
            longest = (size_t)d->hi;
        else if (d->kind == GAME_OPT_CHOICE)
            for (int k = 0; d->choices[k]; k++)
                longest = strlen(d->choices[k]) > longest ? strlen(d->choices[k]) : longest;
        n += 1 + strlen(d->name) + 1 + longest;
    }
    return n;
}

int64_t game_option_int(const game_options *o, int index)
{
    assert(index >= 0 && index < o->game->noptions);
    return o->v[index].number;
}

const char *game_option_text(const game_options *o, int index)
{
    assert(index >= 0 && index < o->game->noptions);
    const char *t = value_text(o, index);
    return t ? t : "";
}

int game_shape(const game_options *o, int *seats, int *teams, char *err, size_t size)
{
    const game_api *g = o->game;
    void *state = malloc(g->state_size);
    if (!state) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    const char *why = g->init(state, o, 0);
    if (why) {
        snprintf(err, size, "%s", why);
        free(state);
        return -1;
    }
    *seats = g->seats(state);
    int seen = 0;
    *teams = 0;
    for (int s = 0; s < *seats; s++) {
        int t = g->team_of(state, s);
        if (t >= 0 && t < 31 && !(seen & (1 << t))) {
            seen |= 1 << t;
            ++*teams;
        }
    }
    free(state);
    return 0;
}
