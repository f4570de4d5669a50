/*
 * test_arena_matchmake.c - the ladder's pairing rules on a simulated
 * ladder: bots with true strengths play seed pairs (results drawn from the
 * Elo curve of their true gap), a few pairs in flight at once as in a real
 * ladder, the live Elo moving after each match. Checks the properties
 * arena_matchmake.h promises, not particular draws.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "arena_matchmake.h"
#include "pcg.h"
#include "ratings.h"

#define MAXBOTS 40
#define INFLIGHT 4            /* pairs running at once */

typedef struct sim {
    arena_mm_bot bot[MAXBOTS];
    double truth[MAXBOTS];
    int n;
    arena_mm_params p;
    uint64_t seed;
    int64_t pair;
    int flight[INFLIGHT][4];  /* seats of the pairs in flight; [0] -1: empty */
    pcg32 luck;               /* the results' dice */
    double gap_sum[2];        /* |true gap| of pairings: all, and by window */
    int log[4096][4];         /* every pairing, for the determinism check */
} sim;

static void sim_init(sim *s, int n, uint64_t seed, int seats)
{
    memset(s, 0, sizeof *s);
    arena_mm_default(&s->p);
    s->p.seats = seats;
    s->seed = seed;
    pcg32_seed(&s->luck, seed ^ 0x5eed, 7);
    for (int i = 0; i < INFLIGHT; i++)
        s->flight[i][0] = -1;
    for (int i = 0; i < n; i++) {
        s->bot[i] = (arena_mm_bot){ .id = i + 1, .rating = 1500 };
        s->truth[i] = -400 + 800.0 * i / (n - 1);       /* spread over 800 Elo */
    }
    s->n = n;
}

/* One match of a pairing: the winner drawn from the true gap, then Elo. */
static void play(sim *s, const int seat[4])
{
    double a = s->truth[seat[0]], b = s->truth[seat[1]];
    if (s->p.seats == 4) {
        a = (a + s->truth[seat[2]]) / 2;
        b = (b + s->truth[seat[3]]) / 2;
    }
    double win = pcg32_next(&s->luck) / 4294967296.0 < rt_elo_expected(a - b) ? 1.0 : 0.0;
    double ra = s->bot[seat[0]].rating, rb = s->bot[seat[1]].rating;
    if (s->p.seats == 4) {
        ra = (ra + s->bot[seat[2]].rating) / 2;
        rb = (rb + s->bot[seat[3]].rating) / 2;
    }
    double d = rt_elo_delta(ra, rb, win, 16);
    for (int k = 0; k < s->p.seats; k++) {
        s->bot[seat[k]].rating += k % 2 == 0 ? d : -d;
        s->bot[seat[k]].games++;
    }
}

/* Finishes the oldest pair in flight (both its matches), freeing its bots. */
static void finish(sim *s, int slot)
{
    if (s->flight[slot][0] < 0)
        return;
    int swapped[4];
    arena_mm_swap(s->p.seats, s->flight[slot], swapped);
    play(s, s->flight[slot]);
    play(s, swapped);
    for (int k = 0; k < s->p.seats; k++)
        s->bot[s->flight[slot][k]].busy -= 2;
    s->flight[slot][0] = -1;
}

/* Plans the next pair into a slot (finishing whatever ran there); checks
 * the invariants of every pairing. Returns the |true gap| of the pairing. */
static double step(sim *s)
{
    int slot = (int)(s->pair % INFLIGHT);
    finish(s, slot);
    int seat[4];
    assert_int_equal(arena_mm_pick(s->bot, s->n, &s->p, s->seed, s->pair, seat), 1);
    for (int k = 0; k < s->p.seats; k++) {
        assert_true(seat[k] >= 0 && seat[k] < s->n);
        for (int j = 0; j < k; j++)
            assert_int_not_equal(seat[k], seat[j]);          /* no bot plays itself */
        s->bot[seat[k]].busy += 2;
        assert_true(s->bot[seat[k]].busy <= s->p.per_bot);   /* never over its share */
    }
    if (s->pair < 4096)
        memcpy(s->log[s->pair], seat, sizeof seat);
    memcpy(s->flight[slot], seat, sizeof seat);
    s->pair++;
    return fabs(s->truth[seat[0]] - s->truth[seat[1]]);
}

/* New bots reach K games first: two bots join an established ladder and
 * are each paired in every pair until they have K games. */
static void test_new_bots_first(void **state)
{
    (void)state;
    static sim s;
    sim_init(&s, 20, 11, 2);
    s.p.per_bot = 4;
    for (int i = 0; i < 2000; i++)
        step(&s);
    int established = s.bot[0].games;
    assert_true(established > 100);
    for (int k = 0; k < 2; k++) {                        /* two newcomers */
        s.bot[s.n] = (arena_mm_bot){ .id = s.n + 1, .rating = 1500 };
        s.truth[s.n] = k ? 300 : -300;
        s.n++;
    }
    int pairs = 0;
    while (s.bot[20].games < s.p.provisional || s.bot[21].games < s.p.provisional) {
        step(&s);
        assert_true(++pairs <= 2 * s.p.provisional);   /* a share of every pair */
    }
    /* In those pairs they played at their full share: each pair in flight
     * (INFLIGHT at a time) holds a newcomer. */
    assert_true(pairs <= s.p.provisional + INFLIGHT);
    assert_true(s.bot[0].games - established < s.p.provisional);
}

/* As ratings settle, pairings come nearer in true strength, well below
 * what random pairing gives. */
static void test_gap_shrinks(void **state)
{
    (void)state;
    static sim s;
    sim_init(&s, 30, 5, 2);
    double first = 0, last = 0;
    const int window = 300, total = 4000;
    for (int i = 0; i < total; i++) {
        double g = step(&s);
        if (i < window)
            first += g;
        if (i >= total - window)
            last += g;
    }
    first /= window;
    last /= window;
    /* Random pairs of 30 bots evenly over 800 Elo: mean gap 800 * 31/90. */
    double random = 800.0 * 31 / 90;
    print_message("mean true gap: first %d pairs %.0f, last %d %.0f (random pairing %.0f)\n",
                  window, first, window, last, random);
    assert_true(last < 0.7 * first);
    assert_true(last < 0.5 * random);
    /* Every bot keeps playing: games stay level (rule 2). */
    int lo = s.bot[0].games, hi = lo;
    for (int i = 0; i < s.n; i++) {
        lo = s.bot[i].games < lo ? s.bot[i].games : lo;
        hi = s.bot[i].games > hi ? s.bot[i].games : hi;
    }
    assert_true(hi - lo <= 2 * INFLIGHT * 2);
}

/* The same seed and results: the same schedule; another seed: another. */
static void test_reproducible(void **state)
{
    (void)state;
    static sim a, b, c;
    sim_init(&a, 12, 99, 2);
    sim_init(&b, 12, 99, 2);
    sim_init(&c, 12, 98, 2);
    for (int i = 0; i < 1000; i++) {
        step(&a);
        step(&b);
        step(&c);
    }
    assert_memory_equal(a.log, b.log, sizeof a.log[0] * 1000);
    assert_true(memcmp(a.log, c.log, sizeof a.log[0] * 1000) != 0);
}

/* Four seats: two teams, partners rotate, per-bot limits hold. */
static void test_four_seats(void **state)
{
    (void)state;
    static sim s;
    sim_init(&s, 8, 3, 4);
    s.p.per_bot = 4;          /* 8 bots, INFLIGHT pairs of 4: each bot in 2 pairs */
    int partners[8][8] = {{0}};
    for (int i = 0; i < 600; i++) {
        step(&s);
        const int *seat = s.log[i];
        partners[seat[0]][seat[2]]++;
        partners[seat[2]][seat[0]]++;
        partners[seat[1]][seat[3]]++;
        partners[seat[3]][seat[1]]++;
    }
    for (int i = 0; i < 8; i++) {
        int distinct = 0;
        for (int j = 0; j < 8; j++)
            distinct += partners[i][j] > 0;
        assert_true(distinct >= 3);
    }
    /* The split rotates even when the draw does not: three bots far
     * apart from the first are drawn nearest first nearly always, yet
     * the first bot partners each of them in turn. */
    arena_mm_bot far[4] = { { 1, 2000, 0, 0 }, { 2, 2000, 9, 0 }, { 3, 2300, 9, 0 },
                            { 4, 2600, 9, 0 } };
    int partner_of_first[4] = { 0 }, seat[4];
    for (int pair = 0; pair < 300; pair++) {
        assert_int_equal(arena_mm_pick(far, 4, &s.p, 5, pair, seat), 1);
        assert_int_equal(seat[0], 0);
        partner_of_first[seat[2]]++;
    }
    for (int b = 1; b < 4; b++)
        assert_true(partner_of_first[b] > 80 && partner_of_first[b] < 120);
    int in[4] = { 0, 1, 2, 3 }, out[4];
    arena_mm_swap(4, in, out);
    assert_true(out[0] == 1 && out[1] == 0 && out[2] == 3 && out[3] == 2);
}

/* Too few bots with room: no pairing. */
static void test_no_room(void **state)
{
    (void)state;
    arena_mm_params p;
    arena_mm_default(&p);
    arena_mm_bot bots[3] = { { 1, 1500, 0, 0 }, { 2, 1500, 0, 2 }, { 3, 1500, 0, 2 } };
    int seat[4];
    assert_int_equal(arena_mm_pick(bots, 3, &p, 1, 0, seat), 0);      /* one free bot */
    bots[1].busy = 0;
    assert_int_equal(arena_mm_pick(bots, 3, &p, 1, 0, seat), 1);
    assert_true((seat[0] == 0 && seat[1] == 1) || (seat[0] == 1 && seat[1] == 0));
    assert_int_equal(arena_mm_pick(bots, 1, &p, 1, 0, seat), 0);
    assert_int_equal(arena_mm_pick(bots, 0, &p, 1, 0, seat), 0);
    /* A pair is two matches: a bot one match short of its share has no
     * room for one. */
    p.per_bot = 3;
    bots[1].busy = 2;
    assert_int_equal(arena_mm_pick(bots, 3, &p, 1, 0, seat), 0);
    bots[1].busy = 1;
    assert_int_equal(arena_mm_pick(bots, 3, &p, 1, 0, seat), 1);
}

/* How often bots[1] is drawn as bots[0]'s opponent over `n` pairs (bots[0]
 * has the fewest games, so it is always first). */
static int drawn(const arena_mm_bot *bots, int nbots, const arena_mm_params *p, int n)
{
    int count = 0, seat[4];
    for (int pair = 0; pair < n; pair++) {
        assert_int_equal(arena_mm_pick(bots, nbots, p, 11, pair, seat), 1);
        assert_int_equal(seat[0], 0);
        count += seat[1] == 1;
    }
    return count;
}

/* Rules 3 and 4 in numbers: the window is the rating gap to the first bot
 * (exp(-d^2/2s^2): 200 Elo away weighs 0.14 against 1 at s = 100, 0.80
 * at s = 300 for a provisional bot); the wide draw (10%) reaches a bot
 * 1000 Elo away, which the window alone never does. 2000 pairs, fixed
 * seeds: the counts are exact, the bounds wide of the expected. */
static void test_rating_window(void **state)
{
    (void)state;
    arena_mm_params p;
    arena_mm_default(&p);
    arena_mm_bot bots[3] = { { 1, 2000, 20, 0 }, { 2, 2200, 100, 0 }, { 3, 2000, 100, 0 } };
    int settled = drawn(bots, 3, &p, 2000);         /* expected 2000 * (0.9 * 0.12 + 0.05) */
    assert_true(settled > 200 && settled < 450);
    bots[0].games = 19;                              /* provisional: s three times wider */
    int provisional = drawn(bots, 3, &p, 2000);     /* expected 2000 * (0.9 * 0.44 + 0.05) */
    assert_true(provisional > 750 && provisional < 1050);

    bots[0].games = 20;
    bots[1].rating = 3000;                           /* out of the window */
    int wide = drawn(bots, 3, &p, 2000);            /* expected 2000 * 0.05 */
    assert_true(wide > 50 && wide < 160);
    p.wide = 0;
    assert_int_equal(drawn(bots, 3, &p, 2000), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_bots_first),
        cmocka_unit_test(test_gap_shrinks),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_four_seats),
        cmocka_unit_test(test_no_room),
        cmocka_unit_test(test_rating_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
