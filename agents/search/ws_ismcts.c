/*
 * ws_ismcts.c - the search of ws_ismcts.h.
 *
 * The tree is a flat array of nodes (index 0 is the root) and one
 * open-addressing hash table from (parent, edge) to child, so finding the
 * children a determinization allows costs one probe per legal action, and
 * a node needs no child list. A generation number retires the whole table
 * between searches without clearing it. Both start small and double as the
 * search needs, up to the tree's limit, so memory follows the budget.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ws_ismcts.h"
#include "wc_rng.h"

typedef struct node {
    uint32_t visits;            /* iterations through this edge */
    uint32_t avail;             /* iterations in which it could be chosen */
    uint32_t stamp;             /* last iteration that counted it available */
    double   value;             /* sum of results for the side that chose it */
} node;

typedef struct slot {
    uint64_t edge;              /* the action as the searching seat sees it */
    uint32_t parent, child;
    uint32_t generation;        /* the slot is in use for this search only */
} slot;

typedef struct step {
    uint32_t node;
    uint8_t  side;              /* side that chose the edge into `node` */
} step;

#define MAX_DEPTH 4096

#define FIRST_NODES 4096

struct ws_tree {
    node    *nodes;
    uint32_t max_nodes, capacity, used;   /* limit, allocated, in use */
    slot    *slots;
    uint32_t mask;              /* slots - 1, a power of two minus one */
    uint32_t generation, iteration;
    int      full;                  /* this search wanted a node it could not have */
    step     path[MAX_DEPTH];
    wc_action acts[WC_MAX_ACTIONS];
    uint32_t kids[WC_MAX_ACTIONS];
};

ws_tree *ws_tree_new(uint32_t max_nodes)
{
    if (max_nodes < 2 || max_nodes > (1u << 30))
        return NULL;
    ws_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->max_nodes = max_nodes;
    t->capacity = max_nodes < FIRST_NODES ? max_nodes : FIRST_NODES;
    t->mask = 2 * FIRST_NODES - 1;
    t->nodes = malloc(t->capacity * sizeof *t->nodes);
    t->slots = calloc(t->mask + 1, sizeof *t->slots);
    if (!t->nodes || !t->slots) {
        ws_tree_free(t);
        return NULL;
    }
    return t;
}

void ws_tree_free(ws_tree *t)
{
    if (!t)
        return;
    free(t->nodes);
    free(t->slots);
    free(t);
}

void ws_ismcts_default(ws_ismcts_config *c)
{
    c->exploration = 0.7;
    ws_rollout_default(&c->rollout);
}

static uint64_t edge_of(const wc_action *a, int mine)
{
    wc_action seen = mine ? *a : wc_action_public(a);
    uint64_t e;
    memcpy(&e, &seen, sizeof e);
    return e;
}

static uint32_t slot_hash(uint32_t parent, uint64_t edge)
{
    uint64_t x = edge ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    return (uint32_t)x;
}

/* The child of `parent` along `edge`, or 0 if it has none. */
static uint32_t find_child(const ws_tree *t, uint32_t parent, uint64_t edge)
{
    for (uint32_t i = slot_hash(parent, edge) & t->mask;; i = (i + 1) & t->mask) {
        const slot *sl = &t->slots[i];
        if (sl->generation != t->generation)
            return 0;
        if (sl->parent == parent && sl->edge == edge)
            return sl->child;
    }
}

/* Doubles the nodes and the table (keeping it at most half full), or
 * returns -1, leaving the tree as it was, at the limit or out of memory. */
static int grow(ws_tree *t)
{
    if (t->capacity == t->max_nodes)
        return -1;
    uint32_t capacity = t->capacity > t->max_nodes / 2 ? t->max_nodes : 2 * t->capacity;
    uint32_t size = t->mask + 1;
    while (size < 2 * capacity)
        size *= 2;
    node *nodes = realloc(t->nodes, capacity * sizeof *nodes);
    if (!nodes)
        return -1;
    t->nodes = nodes;
    slot *slots = size > t->mask + 1 ? calloc(size, sizeof *slots) : NULL;
    if (size > t->mask + 1 && !slots)
        return -1;
    if (slots) {
        for (uint32_t i = 0; i <= t->mask; i++) {
            const slot *sl = &t->slots[i];
            if (sl->generation != t->generation)
                continue;
            uint32_t j = slot_hash(sl->parent, sl->edge) & (size - 1);
            while (slots[j].generation == t->generation)
                j = (j + 1) & (size - 1);
            slots[j] = *sl;
        }
        free(t->slots);
        t->slots = slots;
        t->mask = size - 1;
    }
    t->capacity = capacity;
    return 0;
}

static int has_room(ws_tree *t)
{
    if (t->used < t->capacity || grow(t) == 0)
        return 1;
    t->full = 1;
    return 0;
}

static uint32_t add_child(ws_tree *t, uint32_t parent, uint64_t edge)
{
    assert(t->used < t->capacity);
    uint32_t i = slot_hash(parent, edge) & t->mask;
    while (t->slots[i].generation == t->generation)
        i = (i + 1) & t->mask;       /* the table is at most half full */
    uint32_t child = t->used++;
    t->nodes[child] = (node){ 0, 0, 0, 0.0 };
    t->slots[i] = (slot){ edge, parent, child, t->generation };
    return child;
}

/* UCB1 over the children this determinization allows, each counted once
 * as available; returns the chosen child. */
static uint32_t select_child(ws_tree *t, int n, double c)
{
    uint32_t best = 0;
    double best_score = -1.0;
    for (int i = 0; i < n; i++) {
        uint32_t k = t->kids[i];
        node *nd = &t->nodes[k];
        if (k == 0 || nd->stamp == t->iteration)
            continue;
        nd->stamp = t->iteration;
        nd->avail++;
        double score = nd->value / nd->visits +
                       c * sqrt(log((double)nd->avail) / nd->visits);
        if (score > best_score) {
            best_score = score;
            best = k;
        }
    }
    return best;
}

/* The r-th index of kids[] (0-based) holding `want`. */
static int nth_with(const uint32_t *kids, int n, uint32_t want, uint32_t r)
{
    for (int i = 0; i < n; i++)
        if (kids[i] == want && r-- == 0)
            return i;
    assert(!"fewer entries than counted");
    return 0;
}

/* One iteration: determinize, select, expand one node, roll out, back up. */
static void iterate(ws_tree *t, const wc_observation *o, const wc_action *root_acts,
                    int root_n, const ws_ismcts_config *cfg, wc_rng *rng)
{
    wc_state s;
    uint64_t deal = (uint64_t)wc_rng_next(rng) << 32 | wc_rng_next(rng);
    wc_determinize(o, deal, &s);
    t->iteration++;
    uint32_t at = 0;
    int depth = 0;
    while (!wc_is_over(&s) && depth < MAX_DEPTH) {
        const wc_action *acts = root_acts;
        int n = root_n;
        if (at != 0) {
            n = wc_legal_actions(&s, t->acts);
            acts = t->acts;
        }
        int mover = wc_to_move(&s), mine = mover == o->seat;
        uint32_t fresh = 0;
        for (int i = 0; i < n; i++) {
            t->kids[i] = find_child(t, at, edge_of(&acts[i], mine));
            fresh += t->kids[i] == 0;
        }
        int pick;
        uint32_t next;
        if (fresh && has_room(t)) {
            pick = nth_with(t->kids, n, 0, wc_rng_below(rng, fresh));
            next = add_child(t, at, edge_of(&acts[pick], mine));
        } else if (fresh == (uint32_t)n) {
            break;                   /* the tree is full: roll out from here */
        } else {
            next = select_child(t, n, cfg->exploration);
            uint32_t ways = 0;       /* hidden coins: many actions, one edge */
            for (int i = 0; i < n; i++)
                ways += t->kids[i] == next;
            pick = nth_with(t->kids, n, next, wc_rng_below(rng, ways));
        }
        t->path[depth++] = (step){ next, (uint8_t)wc_side_of(&s, mover) };
        wc_apply(&s, &acts[pick]);
        at = next;
        if (t->nodes[next].visits == 0)
            break;                   /* a new node: its first result is a rollout */
    }
    double v = ws_rollout_run(&s, &cfg->rollout, rng);
    for (int d = 0; d < depth; d++) {
        node *nd = &t->nodes[t->path[d].node];
        nd->visits++;
        nd->value += t->path[d].side == 0 ? v : 1.0 - v;
    }
}

int ws_ismcts_search(ws_tree *t, const wc_observation *o, const wc_action *acts, int n,
                     const ws_ismcts_config *cfg, const ws_limits *lim, uint64_t seed,
                     ws_report *rep)
{
    assert(n >= 1 && o->to_move == o->seat);
    assert(lim->playouts > 0 || (lim->deadline_us >= 0 && lim->clock_us));
    wc_rng rng;
    wc_rng_seed(&rng, seed, 0x49534d435453ULL);
    t->generation++;
    t->used = 1;
    t->full = 0;
    t->nodes[0] = (node){ 0, 0, 0, 0.0 };
    uint64_t done = 0;
    while (!(lim->playouts && done >= lim->playouts) &&
           !(lim->deadline_us >= 0 && lim->clock_us() >= lim->deadline_us)) {
        iterate(t, o, acts, n, cfg, &rng);
        done++;
    }
    int choice = -1;
    uint32_t most = 0;
    double value = 0.0;
    for (int i = 0; i < n; i++) {
        uint32_t visits;
        double mean;
        ws_ismcts_root_stats(t, &acts[i], &visits, &mean);
        if (visits > most || (visits == most && visits > 0 && mean > value)) {
            most = visits;
            value = mean;
            choice = i;
        }
    }
    if (rep)
        *rep = (ws_report){ choice, done, t->used, most, value, t->full };
    return choice;
}

void ws_ismcts_root_stats(const ws_tree *t, const wc_action *a, uint32_t *visits,
                          double *mean)
{
    uint32_t k = find_child(t, 0, edge_of(a, 1));
    *visits = k ? t->nodes[k].visits : 0;
    *mean = k && *visits ? t->nodes[k].value / *visits : 0.0;
}
