/*
 * arena_ladder_fit.c - per-pair totals of a ladder and their warm-started
 * Bradley-Terry fit (arena_ladder_fit.h).
 *
 * Bots get dense indices in the order first seen; a pair (i < j) is a slot
 * of `pairs`, found through an open-addressing table keyed by (i, j). Both
 * tables double when half full, so an add is O(1) amortized. The pairs'
 * table is filled lazily, when a pair is looked up: pairs known to be new
 * (arena_lfit_add_new: a report's stored totals, ~400,000 pairs at a
 * million matches) are only appended, and never hashed when nothing looks
 * one up after.
 */
#include <assert.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "arena_ladder_fit.h"

struct arena_lfit {
    int n, bot_cap;               /* bots seen; capacity of id, games, rating */
    int64_t *id;
    long *games;
    double *rating;               /* the last fit's, Elo; 0 before */
    int *bot_slot;                /* hash of id -> index + 1; bot_cap * 2 slots */
    rt_pair *pairs;
    size_t np, pair_cap;
    size_t *pair_slot;            /* hash of (i, j) -> index + 1; pair_cap * 2 slots */
    size_t hashed;                /* pairs[0 .. hashed) are in pair_slot */
    void *work;                   /* the fit's workspace, kept between fits */
    size_t work_size;
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static uint64_t pair_key(int i, int j)
{
    return (uint64_t)(uint32_t)i << 32 | (uint32_t)j;
}

arena_lfit *arena_lfit_new(void)
{
    return calloc(1, sizeof(arena_lfit));
}

void arena_lfit_free(arena_lfit *f)
{
    if (!f)
        return;
    free(f->id);
    free(f->games);
    free(f->rating);
    free(f->bot_slot);
    free(f->pairs);
    free(f->pair_slot);
    free(f->work);
    free(f);
}

/* The table slot of bot `id`: its index + 1 there, or 0 (free). */
static int *bot_find(const arena_lfit *f, int64_t id)
{
    size_t mask = (size_t)f->bot_cap * 2 - 1;
    for (size_t h = mix((uint64_t)id) & mask;; h = (h + 1) & mask) {
        int *s = &f->bot_slot[h];
        if (*s == 0 || f->id[*s - 1] == id)
            return s;
    }
}

static int bots_grow(arena_lfit *f)
{
    int cap = f->bot_cap ? 2 * f->bot_cap : 64;
    int64_t *id = realloc(f->id, (size_t)cap * sizeof *id);
    if (id)
        f->id = id;
    long *games = realloc(f->games, (size_t)cap * sizeof *games);
    if (games)
        f->games = games;
    double *rating = realloc(f->rating, (size_t)cap * sizeof *rating);
    if (rating)
        f->rating = rating;
    int *slot = calloc((size_t)cap * 2, sizeof *slot);
    if (!id || !games || !rating || !slot) {
        free(slot);
        return -1;
    }
    free(f->bot_slot);
    f->bot_slot = slot;
    f->bot_cap = cap;
    for (int i = 0; i < f->n; i++)
        *bot_find(f, f->id[i]) = i + 1;
    return 0;
}

/* The index of bot `id`, added if new; -1 when out of memory. */
static int bot_index(arena_lfit *f, int64_t id)
{
    if (f->bot_cap == 0 && bots_grow(f) < 0)
        return -1;
    int *s = bot_find(f, id);
    if (*s)
        return *s - 1;
    if (f->n + 1 > f->bot_cap) {
        if (bots_grow(f) < 0)
            return -1;
        s = bot_find(f, id);
    }
    f->id[f->n] = id;
    f->games[f->n] = 0;
    f->rating[f->n] = 0.0;
    *s = ++f->n;
    return f->n - 1;
}

static size_t *pair_find(const arena_lfit *f, int i, int j)
{
    size_t mask = f->pair_cap * 2 - 1;
    for (size_t h = mix(pair_key(i, j)) & mask;; h = (h + 1) & mask) {
        size_t *s = &f->pair_slot[h];
        if (*s == 0 || (f->pairs[*s - 1].i == i && f->pairs[*s - 1].j == j))
            return s;
    }
}

static int pairs_grow(arena_lfit *f)
{
    size_t cap = f->pair_cap ? 2 * f->pair_cap : 256;
    rt_pair *pairs = realloc(f->pairs, cap * sizeof *pairs);
    if (pairs)
        f->pairs = pairs;
    size_t *slot = calloc(cap * 2, sizeof *slot);
    if (!pairs || !slot) {
        free(slot);
        return -1;
    }
    free(f->pair_slot);
    f->pair_slot = slot;
    f->pair_cap = cap;
    f->hashed = 0;                /* hashed again at the next look-up */
    return 0;
}

/* Room for one pair more. 0, or -1 (memory). */
static int pairs_room(arena_lfit *f)
{
    return f->np + 1 > f->pair_cap ? pairs_grow(f) : 0;
}

/* Puts the pairs not yet in the table there. */
static void pairs_hash(arena_lfit *f)
{
    for (; f->hashed < f->np; f->hashed++)
        *pair_find(f, f->pairs[f->hashed].i, f->pairs[f->hashed].j) = f->hashed + 1;
}

/* i < j, the counts turned with them; -1 if the indexes or counts are bad. */
static int orient(const arena_lfit *f, int *i, int *j, long *w, long *l, long d)
{
    if (*i < 0 || *j < 0 || *i == *j || *i >= f->n || *j >= f->n || *w < 0 || d < 0 || *l < 0)
        return -1;
    if (*i > *j) {
        int t = *i;
        *i = *j;
        *j = t;
        long x = *w;
        *w = *l;
        *l = x;
    }
    return 0;
}

static void count(arena_lfit *f, rt_pair *p, long w, long d, long l)
{
    p->wins_i += w;
    p->draws += d;
    p->wins_j += l;
    f->games[p->i] += w + d + l;
    f->games[p->j] += w + d + l;
}

/* Adds w wins of bot index i, d draws and l wins of bot index j. */
static int add_at(arena_lfit *f, int i, int j, long w, long d, long l)
{
    if (orient(f, &i, &j, &w, &l, d) < 0 || pairs_room(f) < 0)
        return -1;
    pairs_hash(f);
    size_t *s = pair_find(f, i, j);
    if (*s == 0) {
        f->pairs[f->np] = (rt_pair){ i, j, 0, 0, 0 };
        *s = ++f->np;
        f->hashed = f->np;
    }
    count(f, &f->pairs[*s - 1], w, d, l);
    return 0;
}

/* Adds w wins of a, d draws and l wins of b. */
static int add_games(arena_lfit *f, int64_t a, int64_t b, long w, long d, long l)
{
    if (a == b)
        return -1;
    return add_at(f, bot_index(f, a), bot_index(f, b), w, d, l);
}

int arena_lfit_add_at(arena_lfit *f, int i, int j, double score_i)
{
    if (!(score_i == 0.0 || score_i == 0.5 || score_i == 1.0))
        return -1;
    return add_at(f, i, j, score_i == 1.0, score_i == 0.5, score_i == 0.0);
}

int arena_lfit_add_counts(arena_lfit *f, int i, int j, int64_t w, int64_t d, int64_t l)
{
    return add_at(f, i, j, (long)w, (long)d, (long)l);
}

int arena_lfit_add_new(arena_lfit *f, int i, int j, int64_t w, int64_t d, int64_t l)
{
    long wl = (long)w, ll = (long)l;
    if (orient(f, &i, &j, &wl, &ll, (long)d) < 0 || pairs_room(f) < 0)
        return -1;
    f->pairs[f->np] = (rt_pair){ i, j, 0, 0, 0 };
    count(f, &f->pairs[f->np++], wl, (long)d, ll);
    return 0;
}

int arena_lfit_add(arena_lfit *f, int64_t a, int64_t b, double score_a)
{
    if (!(score_a == 0.0 || score_a == 0.5 || score_a == 1.0))
        return -1;
    return add_games(f, a, b, score_a == 1.0, score_a == 0.5, score_a == 0.0);
}

int arena_lfit_add_match(arena_lfit *f, const arena_match *m)
{
    if (m->seats != 2 || m->team[0] == m->team[1])
        return -1;
    double s = m->score[0];
    return arena_lfit_add(f, m->bot[0], m->bot[1], s > 0.0 && s < 1.0 ? 0.5 : s);
}

int arena_lfit_load(arena_lfit *f, arena_db *db, int64_t ladder_id)
{
    arena_pair_result *p = NULL;
    int n = arena_db_ladder_pairs(db, ladder_id, &p);
    int rc = n < 0 ? -1 : 0;
    for (int k = 0; rc == 0 && k < n; k++)
        rc = add_games(f, p[k].a, p[k].b, p[k].a_wins, p[k].draws, p[k].b_wins);
    free(p);
    return rc;
}

int arena_lfit_bot(arena_lfit *f, int64_t id)
{
    return bot_index(f, id);
}

const rt_pair *arena_lfit_pairs(const arena_lfit *f, size_t *np)
{
    *np = f->np;
    return f->pairs;
}

int arena_lfit_games(const arena_lfit *f, int64_t bot)
{
    if (f->bot_cap == 0)
        return 0;
    int s = *bot_find(f, bot);
    return s ? (int)f->games[s - 1] : 0;
}

static int best_first(const void *a, const void *b)
{
    const arena_fit_row *x = a, *y = b;
    if (x->rating != y->rating)
        return x->rating < y->rating ? 1 : -1;
    return (x->bot_id > y->bot_id) - (x->bot_id < y->bot_id);
}

int arena_lfit_fit(arena_lfit *f, arena_fit_row **out, rt_bt_info *info, char *err,
                   size_t size)
{
    *out = NULL;
    rt_bt_options o;
    rt_bt_default_options(&o);
    o.sigma_mode = f->n <= ARENA_LFIT_EXACT_MAX ? RT_BT_SIGMA_EXACT : RT_BT_SIGMA_DIAGONAL;
    o.start = f->rating;
    size_t need = rt_bt_workspace_size(f->n, f->np, &o);
    if (need > f->work_size) {
        void *w = need == SIZE_MAX ? NULL : realloc(f->work, need);
        if (!w) {
            snprintf(err, size, "out of memory");
            return -1;
        }
        f->work = w;
        f->work_size = need;
    }
    double *rating = calloc((size_t)f->n + 1, sizeof *rating);
    double *sigma = calloc((size_t)f->n + 1, sizeof *sigma);
    arena_fit_row *rows = calloc((size_t)f->n + 1, sizeof *rows);
    int rc = rating && sigma && rows ? rt_bt_fit(f->n, f->pairs, f->np, &o, f->work,
                                                 f->work_size, rating, sigma, info)
                                     : RT_ERR_WORKSPACE;
    if (rc < 0) {
        snprintf(err, size, "the rating fit failed (code %d)", rc);
        free(rows);
        rows = NULL;
    } else {
        memcpy(f->rating, rating, (size_t)f->n * sizeof *rating);
        for (int i = 0; i < f->n; i++)
            rows[i] = (arena_fit_row){ .bot_id = f->id[i], .rating = rating[i],
                                       .ci95 = RT_Z95 * sigma[i], .games = (int)f->games[i] };
        qsort(rows, (size_t)f->n, sizeof *rows, best_first);
    }
    free(rating);
    free(sigma);
    *out = rows;
    return rc < 0 ? -1 : f->n;
}
