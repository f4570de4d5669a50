/*
 * test_arena_plan.c - tournament plans (arena_plan.c, pure): who meets
 * whom, in which seats, under which seeds, for every format.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "arena_plan.h"

static arena_game *plan(int format, int seats, int nbots, int games, int *n)
{
    const char *why = NULL;
    *n = arena_plan_size(format, seats, nbots, games, &why);
    assert_true(*n > 0);
    arena_game *p = calloc((size_t)*n, sizeof *p);
    assert_non_null(p);
    for (int i = 0; i < *n; i++) {
        arena_plan_game(format, seats, nbots, 7, i, &p[i]);
        assert_int_equal(p[i].index, i);
    }
    return p;
}

/* The plan's order written out as nested loops, the obvious way: the
 * computed games must be exactly these. */
static int reference(int format, int seats, int nbots, int games, arena_game *out)
{
    int n = 0, k = format == ARENA_FREE_FOR_ALL ? seats : 2;
    for (int unit = 0; unit < games / k; unit++) {
        uint64_t s = arena_pair_seed(7, unit);
        for (int a = 0; a < nbots; a++)
            for (int b = a + 1; b < nbots; b++) {
                if (format == ARENA_ROUND_ROBIN || (format == ARENA_GAUNTLET && a == 0)) {
                    out[n] = (arena_game){ n, s, 2, { a, b } }, n++;
                    out[n] = (arena_game){ n, s, 2, { b, a } }, n++;
                }
                for (int c = b + 1; c < nbots; c++) {
                    if (format == ARENA_FREE_FOR_ALL && k == 3)
                        for (int r = 0; r < 3; r++) {
                            int g[3] = { a, b, c };
                            out[n] = (arena_game){ n, s, 3, { g[r], g[(r + 1) % 3],
                                                              g[(r + 2) % 3] } }, n++;
                        }
                    for (int d = c + 1; d < nbots && format == ARENA_TEAMS; d++) {
                        const int split[3][4] = { { a, c, b, d }, { a, b, c, d },
                                                  { a, b, d, c } };
                        for (int x = 0; x < 3; x++) {
                            const int *q = split[x];
                            out[n] = (arena_game){ n, s, 4, { q[0], q[1], q[2], q[3] } }, n++;
                            out[n] = (arena_game){ n, s, 4, { q[1], q[0], q[3], q[2] } }, n++;
                        }
                    }
                }
            }
    }
    return n;
}

static void test_games_computed_from_their_index(void **state)
{
    const int cases[][4] = { { ARENA_ROUND_ROBIN, 2, 2, 2 }, { ARENA_ROUND_ROBIN, 2, 7, 6 },
                             { ARENA_GAUNTLET, 2, 5, 4 },     { ARENA_TEAMS, 4, 4, 2 },
                             { ARENA_TEAMS, 4, 7, 4 },        { ARENA_FREE_FOR_ALL, 3, 3, 3 },
                             { ARENA_FREE_FOR_ALL, 3, 6, 6 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n;
        const int *k = cases[c];
        arena_game *p = plan(k[0], k[1], k[2], k[3], &n);
        arena_game *want = calloc((size_t)n, sizeof *want);
        assert_non_null(want);
        assert_int_equal(reference(k[0], k[1], k[2], k[3], want), n);
        for (int i = 0; i < n; i++) {
            assert_true(p[i].seed == want[i].seed);
            assert_int_equal(p[i].seats, want[i].seats);
            assert_memory_equal(p[i].seat, want[i].seat, sizeof p[i].seat);
        }
        free(want);
        free(p);
    }
    (void)state;
}

/* The last game of the largest plans, without planning the rest. */
static void test_large_plans_by_index(void **state)
{
    const char *why;
    int n = arena_plan_size(ARENA_ROUND_ROBIN, 2, 64, 48000, &why);
    assert_int_equal(n, 64 * 63 / 2 * 48000);
    arena_game g;
    arena_plan_game(ARENA_ROUND_ROBIN, 2, 64, 7, n - 1, &g);
    assert_int_equal(g.seat[0], 63);                       /* the last pairing, swapped */
    assert_int_equal(g.seat[1], 62);
    assert_true(g.seed == arena_pair_seed(7, 48000 / 2 - 1));
    assert_int_equal(arena_plan_size(ARENA_ROUND_ROBIN, 2, 64, 52000, &why), -1);
    assert_non_null(strstr(why, "100 million"));
    assert_int_equal(arena_plan_size(ARENA_ROUND_ROBIN, 2, 2, 1000002, &why), -1);
    assert_non_null(strstr(why, "from 2 to 1000000"));
    (void)state;
}

static void test_round_robin_seed_pairs(void **state)
{
    int n;
    arena_game *p = plan(ARENA_ROUND_ROBIN, 2, 3, 4, &n);
    assert_int_equal(n, 3 * 4);
    int met[3][3] = { { 0 } };
    for (int i = 0; i < n; i += 2) {
        assert_int_equal(p[i].seats, 2);
        assert_true(p[i].seed == p[i + 1].seed);           /* one seed, seats swapped */
        assert_int_equal(p[i].seat[0], p[i + 1].seat[1]);
        assert_int_equal(p[i].seat[1], p[i + 1].seat[0]);
        met[p[i].seat[0]][p[i].seat[1]]++;
    }
    assert_int_equal(met[0][1] + met[1][0], 2);
    assert_int_equal(met[0][2] + met[2][0], 2);
    assert_int_equal(met[1][2] + met[2][1], 2);
    assert_true(p[0].seed != p[6].seed);                   /* the next pair, another seed */
    free(p);
}

static void test_gauntlet_hero_everywhere(void **state)
{
    int n;
    arena_game *p = plan(ARENA_GAUNTLET, 2, 4, 2, &n);
    assert_int_equal(n, 3 * 2);
    for (int i = 0; i < n; i++)
        assert_true(p[i].seat[0] == 0 || p[i].seat[1] == 0);
    free(p);
}

static void test_teams_partners_in_seats_0_and_2(void **state)
{
    int n;
    arena_game *p = plan(ARENA_TEAMS, 4, 4, 2, &n);
    assert_int_equal(n, 3 * 2);
    int splits = 0;
    for (int i = 0; i < n; i += 2) {
        assert_int_equal(p[i].seats, 4);
        /* The pair swaps sides: seats 0 and 2 become 1 and 3. */
        assert_int_equal(p[i].seat[0], p[i + 1].seat[1]);
        assert_int_equal(p[i].seat[2], p[i + 1].seat[3]);
        int partner = p[i].seat[0] == 0 ? p[i].seat[2] : p[i].seat[2] == 0 ? p[i].seat[0] : -1;
        if (partner < 0)
            partner = p[i].seat[1] == 0 ? p[i].seat[3] : p[i].seat[1];
        splits |= 1 << partner;
    }
    assert_int_equal(splits, (1 << 1) | (1 << 2) | (1 << 3));  /* bot 0 with each partner */
    free(p);
}

static void test_free_for_all_groups_and_rotations(void **state)
{
    int n;
    arena_game *p = plan(ARENA_FREE_FOR_ALL, 3, 4, 6, &n);
    assert_int_equal(n, 4 * 6);                       /* C(4,3) groups, 6 games each */
    int in_seat[4][3] = { { 0 } }, groups[16] = { 0 };
    for (int i = 0; i < n; i++) {
        assert_int_equal(p[i].seats, 3);
        int mask = 0;
        for (int s = 0; s < 3; s++) {
            in_seat[p[i].seat[s]][s]++;
            mask |= 1 << p[i].seat[s];
        }
        assert_int_equal(__builtin_popcount(mask), 3);   /* three different bots */
        groups[mask]++;
        if (i % 3) {
            /* One seed per rotation group, the seats turned by one. */
            assert_true(p[i].seed == p[i - 1].seed);
            for (int s = 0; s < 3; s++)
                assert_int_equal(p[i].seat[s], p[i - 1].seat[(s + 1) % 3]);
        }
    }
    for (int mask = 0; mask < 16; mask++)
        assert_int_equal(groups[mask], __builtin_popcount(mask) == 3 ? 6 : 0);
    for (int b = 0; b < 4; b++)
        for (int s = 0; s < 3; s++)
            assert_int_equal(in_seat[b][s], 3 * 6 / 3);  /* 3 groups, each seat a third */
    assert_true(p[0].seed != p[12].seed);             /* the second unit, another seed */
    free(p);
}

static void test_sizes_refused(void **state)
{
    const char *why = NULL;
    assert_int_equal(arena_plan_size(ARENA_ROUND_ROBIN, 2, 1, 2, &why), -1);
    assert_int_equal(arena_plan_size(ARENA_ROUND_ROBIN, 2, 3, 3, &why), -1);
    assert_non_null(strstr(why, "even"));
    assert_int_equal(arena_plan_size(ARENA_TEAMS, 4, 3, 2, &why), -1);
    assert_int_equal(arena_plan_size(ARENA_FREE_FOR_ALL, 3, 2, 3, &why), -1);
    assert_non_null(strstr(why, "as many bots as seats"));
    assert_int_equal(arena_plan_size(ARENA_FREE_FOR_ALL, 3, 4, 4, &why), -1);
    assert_non_null(strstr(why, "multiple of the seats"));
    assert_int_equal(arena_plan_size(ARENA_FREE_FOR_ALL, 5, 6, 5, &why), -1);
    assert_int_equal(arena_plan_size(ARENA_FREE_FOR_ALL, 4, 64, 1000000, &why), -1);
    assert_non_null(strstr(why, "100 million"));
    assert_int_equal(arena_format_parse("free-for-all"), ARENA_FREE_FOR_ALL);
    assert_string_equal(arena_format_name(ARENA_FREE_FOR_ALL), "free-for-all");
    assert_int_equal(arena_format_parse("melee"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_games_computed_from_their_index),
        cmocka_unit_test(test_large_plans_by_index),
        cmocka_unit_test(test_round_robin_seed_pairs),
        cmocka_unit_test(test_gauntlet_hero_everywhere),
        cmocka_unit_test(test_teams_partners_in_seats_0_and_2),
        cmocka_unit_test(test_free_for_all_groups_and_rotations),
        cmocka_unit_test(test_sizes_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
