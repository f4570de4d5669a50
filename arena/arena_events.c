/*
 * arena_events.c - Swiss and knockout replayed from stored scores (the
 * rules and their reasons are in arena_events.h).
 */
#include <assert.h>
#include <string.h>
#include "arena_events.h"

int arena_event_size(int format, int nbots, int games, int rounds, const char **why)
{
    if (format != ARENA_SWISS && format != ARENA_KNOCKOUT) {
        *why = "not an event format";
        return -1;
    }
    if (nbots < 2 || nbots > ARENA_EVENT_MAX_BOTS) {
        *why = "Swiss and knockout take 2 to 64 bots";
        return -1;
    }
    if (games < 2 || games % 2 || games > ARENA_EVENT_MAX_GAMES) {
        *why = "--games must be an even number from 2 to 20 in Swiss and knockout: a pairing "
               "is seed pairs, each seed played with the seats both ways";
        return -1;
    }
    if (format == ARENA_SWISS && (rounds < 1 || rounds > ARENA_EVENT_MAX_ROUNDS)) {
        *why = "--rounds must be from 1 to 63";
        return -1;
    }
    if (format == ARENA_SWISS)
        return rounds * (nbots / 2) * games;
    return (nbots - 1) * (games + 2 * ARENA_KO_EXTRA_PAIRS);
}

/* ---- Swiss --------------------------------------------------------------- */

typedef struct search {
    int n, *list, *partner;       /* list: bots in ranking order; partner: -1 unpaired */
    const unsigned char *met;
    int nbots;
    long steps;
} search;

/* Pairs the rest of s->list without a rematch: 1 done, 0 impossible or
 * the step budget spent. */
static int pair_rest(search *s)
{
    int first = 0;
    while (first < s->n && s->partner[first] >= 0)
        first++;
    if (first == s->n)
        return 1;
    for (int j = first + 1; j < s->n; j++) {
        if (s->partner[j] >= 0 || s->met[s->list[first] * s->nbots + s->list[j]])
            continue;
        if (++s->steps > ARENA_SWISS_SEARCH)
            return 0;
        s->partner[first] = j;
        s->partner[j] = first;
        if (pair_rest(s))
            return 1;
        s->partner[first] = s->partner[j] = -1;
    }
    return 0;
}

int arena_swiss_pair(int nbots, const int *ranked, const unsigned char *met,
                     const int *had_bye, int *pair, int *rematches)
{
    int bye = -1, list[ARENA_EVENT_MAX_BOTS] = { 0 }, partner[ARENA_EVENT_MAX_BOTS], n = 0;
    assert(nbots >= 2 && nbots <= ARENA_EVENT_MAX_BOTS);
    if (nbots % 2) {
        bye = ranked[nbots - 1];
        for (int i = nbots - 1; i >= 0; i--)
            if (!had_bye[ranked[i]]) {
                bye = ranked[i];
                break;
            }
    }
    for (int i = 0; i < nbots; i++)
        if (ranked[i] != bye)
            list[n++] = ranked[i];
    for (int i = 0; i < n; i++)
        partner[i] = -1;
    search s = { n, list, partner, met, nbots, 0 };
    if (!pair_rest(&s))                    /* the fallback: straight down */
        for (int i = 0; i < n; i++)
            partner[i] = i ^ 1;
    *rematches = 0;
    for (int i = 0, k = 0; i < n; i++)
        if (partner[i] > i) {
            pair[2 * k] = list[i];
            pair[2 * k + 1] = list[partner[i]];
            *rematches += met[list[i] * nbots + list[partner[i]]] != 0;
            k++;
        }
    return bye;
}

/* Does a rank before b: points, then Buchholz, then the seed order. */
static int swiss_before(const arena_event *ev, const int *seedpos, int a, int b)
{
    if (ev->points[a] != ev->points[b])
        return ev->points[a] > ev->points[b];
    if (ev->buchholz[a] != ev->buchholz[b])
        return ev->buchholz[a] > ev->buchholz[b];
    return seedpos[a] < seedpos[b];
}

/* Insertion sort of ev->rank: 64 entrants at most. */
static void sort_rank(int nbots, const arena_event *ev, const int *seedpos,
                      int (*before)(const arena_event *, const int *, int, int), int *rank)
{
    for (int i = 1; i < nbots; i++) {
        int x = rank[i], j = i;
        for (; j > 0 && before(ev, seedpos, x, rank[j - 1]); j--)
            rank[j] = rank[j - 1];
        rank[j] = x;
    }
}

static void rank_swiss(int nbots, const int *opp, const int *nopp, int stride,
                       const int *seedpos, arena_event *ev)
{
    for (int a = 0; a < nbots; a++) {
        ev->buchholz[a] = 0;
        for (int i = 0; i < nopp[a]; i++)
            ev->buchholz[a] += ev->points[opp[a * stride + i]];
        ev->rank[a] = a;
    }
    sort_rank(nbots, ev, seedpos, swiss_before, ev->rank);
}

static void replay_swiss(int nbots, int games, int rounds, uint64_t seed, const int *seedpos,
                         const arena_event_score *scores, arena_event *ev)
{
    unsigned char met[ARENA_EVENT_MAX_BOTS * ARENA_EVENT_MAX_BOTS];
    int opp[ARENA_EVENT_MAX_BOTS * ARENA_EVENT_MAX_ROUNDS], nopp[ARENA_EVENT_MAX_BOTS] = { 0 };
    int pair[ARENA_EVENT_MAX_BOTS] = { 0 }, P = nbots / 2, rematches;
    memset(met, 0, sizeof met);
    for (int r = 0; r < rounds; r++) {
        rank_swiss(nbots, opp, nopp, ARENA_EVENT_MAX_ROUNDS, seedpos, ev);
        int bye = arena_swiss_pair(nbots, ev->rank, met, ev->byes, pair, &rematches);
        int base = r * P * games;
        for (int p = 0; p < P; p++)
            for (int k = 0; k < games; k++) {
                int index = base + p * games + k;
                if (scores[index].stored)
                    continue;
                ev->game[ev->ngames++] = (arena_game){
                    index, arena_pair_seed(seed, r * (games / 2) + k / 2), 2,
                    { pair[2 * p + k % 2], pair[2 * p + 1 - k % 2], 0, 0 } };
            }
        if (ev->ngames) {
            ev->round = r;
            ev->bye_bot = bye;
            return;
        }
        for (int p = 0; p < P; p++) {
            int a = pair[2 * p], b = pair[2 * p + 1];
            for (int k = 0; k < games; k++) {
                const arena_event_score *s = &scores[base + p * games + k];
                ev->points[a] += s->score[k % 2];
                ev->points[b] += s->score[1 - k % 2];
            }
            met[a * nbots + b] = met[b * nbots + a] = 1;
            opp[a * ARENA_EVENT_MAX_ROUNDS + nopp[a]++] = b;
            opp[b * ARENA_EVENT_MAX_ROUNDS + nopp[b]++] = a;
        }
        if (bye >= 0) {
            ev->points[bye] += games / 2.0;
            ev->byes[bye]++;
        }
    }
    rank_swiss(nbots, opp, nopp, ARENA_EVENT_MAX_ROUNDS, seedpos, ev);
    ev->round = rounds;
    ev->done = 1;
}

/* ---- knockout ------------------------------------------------------------ */

/* Bracket order of seeds 1..B: 1 v B, then the halves recursively, so the
 * top two seeds meet only in the final. */
static void bracket(int B, int *order)
{
    order[0] = 1;
    for (int m = 1; m < B; m *= 2)
        for (int i = m - 1; i >= 0; i--) {
            order[2 * i] = order[i];
            order[2 * i + 1] = 2 * m + 1 - order[i];
        }
}

/* One tie between hi (the higher seed) and lo, its slots from `base`:
 * the winner, or -1 with its next games added to ev->game. */
static int tie(int hi, int lo, int games, int base, int round, uint64_t seed,
               const arena_event_score *scores, arena_event *ev)
{
    int S = games + 2 * ARENA_KO_EXTRA_PAIRS;
    double diff = 0;
    arena_ko_tie *t = &ev->tie[ev->nties++];
    *t = (arena_ko_tie){ .round = round, .hi = hi, .lo = lo, .winner = -1 };
    for (int leg = 0, from = 0, n = games; leg <= ARENA_KO_EXTRA_PAIRS;
         leg++, from += n, n = 2) {
        int missing = 0;
        for (int k = from; k < from + n; k++) {
            const arena_event_score *s = &scores[base + k];
            int flip = (k - from) % 2;
            if (s->stored) {
                ev->points[hi] += s->score[flip];
                ev->points[lo] += s->score[1 - flip];
                t->points_hi += s->score[flip];
                t->points_lo += s->score[1 - flip];
                t->games++;
                diff += s->score[flip] - s->score[1 - flip];
                continue;
            }
            missing = 1;
            ev->game[ev->ngames++] = (arena_game){
                base + k, arena_pair_seed(seed, round * (S / 2) + k / 2), 2,
                { flip ? lo : hi, flip ? hi : lo, 0, 0 } };
        }
        if (missing)
            return -1;
        if (diff != 0)
            return t->winner = diff > 0 ? hi : lo;
    }
    return t->winner = hi;                 /* level after every tie-break pair */
}

static void replay_knockout(int nbots, int games, uint64_t seed, const int *seed_order,
                            const int *seedpos, const arena_event_score *scores,
                            arena_event *ev)
{
    int B = 1, order[2 * ARENA_EVENT_MAX_BOTS], alive[2 * ARENA_EVENT_MAX_BOTS], base = 0;
    while (B < nbots)
        B *= 2;
    bracket(B, order);
    for (int i = 0; i < B; i++)
        alive[i] = order[i] <= nbots ? seed_order[order[i] - 1] : -1;
    int r = 0;
    for (int n = B; n > 1; n /= 2, r++) {
        int ties = 0, pending = 0;
        for (int i = 0; i < n / 2; i++) {
            int a = alive[2 * i], b = alive[2 * i + 1], w;
            if (a < 0 || b < 0) {          /* a bye: round 1 only */
                w = a < 0 ? b : a;
                assert(w >= 0);
                ev->byes[w] = 1;
                ev->tie[ev->nties++] = (arena_ko_tie){ .round = r, .hi = w, .lo = -1,
                                                       .winner = w };
            } else {
                int hi = seedpos[a] < seedpos[b] ? a : b, lo = hi == a ? b : a;
                w = tie(hi, lo, games, base + ties * (games + 2 * ARENA_KO_EXTRA_PAIRS), r,
                        seed, scores, ev);
                ties++;
                if (w < 0)
                    pending = 1;
                else
                    ev->out_in[w == hi ? lo : hi] = r;
            }
            alive[i] = w;
        }
        base += ties * (games + 2 * ARENA_KO_EXTRA_PAIRS);
        if (pending) {
            ev->round = r;
            return;
        }
    }
    ev->round = r;
    ev->done = 1;
}

/* Knockout standing: who went further ranks first, then the higher seed. */
static int reach_before(const arena_event *ev, const int *seedpos, int a, int b)
{
    int ra = ev->out_in[a] < 0 ? ARENA_EVENT_MAX_BOTS : ev->out_in[a];
    int rb = ev->out_in[b] < 0 ? ARENA_EVENT_MAX_BOTS : ev->out_in[b];
    return ra != rb ? ra > rb : seedpos[a] < seedpos[b];
}

void arena_event_replay(int format, int nbots, int games, int rounds, uint64_t seed,
                        const int *seed_order, const arena_event_score *scores,
                        arena_event *ev)
{
    int seedpos[ARENA_EVENT_MAX_BOTS];
    assert(nbots >= 2 && nbots <= ARENA_EVENT_MAX_BOTS);
    memset(ev, 0, sizeof *ev);
    ev->bye_bot = -1;
    for (int i = 0; i < nbots; i++) {
        seedpos[seed_order[i]] = i;
        ev->out_in[i] = -1;
    }
    if (format == ARENA_SWISS) {
        replay_swiss(nbots, games, rounds, seed, seedpos, scores, ev);
    } else {
        replay_knockout(nbots, games, seed, seed_order, seedpos, scores, ev);
        for (int i = 0; i < nbots; i++)
            ev->rank[i] = i;
        sort_rank(nbots, ev, seedpos, reach_before, ev->rank);
    }
}
