/*
 * test_elo.c - Elo curve, K-factor updates and LOS, checked against values
 * worked out by hand (noted beside each constant).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ratings.h"
#include "test_ratings.h"

static void test_expected_score(void **state)
{
    (void)state;
    /* 1 / (1 + 10^-0.25) = 1 / 1.5623413 = 0.6400650 */
    assert_near(rt_elo_expected(100.0), 0.6400650, 1e-7);
    assert_near(rt_elo_expected(-100.0), 0.3599350, 1e-7);
    /* 1 / (1 + 10^-1) = 10/11 */
    assert_near(rt_elo_expected(400.0), 10.0 / 11.0, 1e-12);
    assert_near(rt_elo_expected(0.0), 0.5, 0.0);
    for (double d = -1000.0; d <= 1000.0; d += 37.5)
        assert_near(rt_elo_expected(d) + rt_elo_expected(-d), 1.0,
                    1e-12);
}

static void test_score_to_elo(void **state)
{
    (void)state;
    /* 400 log10(0.75 / 0.25) = 400 log10(3) = 190.848502 */
    assert_near(rt_elo_from_score(0.75), 190.848502, 1e-6);
    assert_near(rt_elo_from_score(0.25), -190.848502, 1e-6);
    assert_near(rt_elo_from_score(0.5), 0.0, 1e-12);
    /* 10/11 is the +400 score */
    assert_near(rt_elo_from_score(10.0 / 11.0), 400.0, 1e-9);
    assert_true(isinf(rt_elo_from_score(1.0)) && rt_elo_from_score(1.0) > 0);
    assert_true(isinf(rt_elo_from_score(0.0)) && rt_elo_from_score(0.0) < 0);
    for (double s = 0.01; s < 1.0; s += 0.07)
        assert_near(rt_elo_expected(rt_elo_from_score(s)), s, 1e-12);
}

static void test_k32_update(void **state)
{
    (void)state;
    /* 1500 vs 1600: E = 0.3599350. K = 32.
     * win:  32 * (1 - 0.3599350)   = +20.48208
     * draw: 32 * (0.5 - 0.3599350) =  +4.48208
     * loss: 32 * (0 - 0.3599350)   = -11.51792 */
    assert_near(rt_elo_delta(1500, 1600, 1.0, 32), 20.48208, 1e-5);
    assert_near(rt_elo_delta(1500, 1600, 0.5, 32), 4.48208, 1e-5);
    assert_near(rt_elo_delta(1500, 1600, 0.0, 32), -11.51792, 1e-5);

    double a = 1500, b = 1600;
    rt_elo_update(&a, &b, 1.0, 32);
    assert_near(a, 1520.48208, 1e-5);
    assert_near(b, 1579.51792, 1e-5);

    /* equal ratings, K = 16: a win is worth exactly K/2 */
    a = 1200, b = 1200;
    rt_elo_update(&a, &b, 1.0, 16);
    assert_near(a, 1208.0, 1e-12);
    assert_near(b, 1192.0, 1e-12);
    /* a draw between equals changes nothing */
    a = b = 1000;
    rt_elo_update(&a, &b, 0.5, 16);
    assert_near(a, 1000.0, 0.0);
    assert_near(b, 1000.0, 0.0);
}

static void test_los(void **state)
{
    (void)state;
    /* difference 20, sigmas 12 and 16: sqrt(144 + 256) = 20, Phi(1) */
    assert_near(rt_los(20, 12, 0, 16), 0.8413447, 1e-7);
    assert_near(rt_los(0, 12, 20, 16), 0.1586553, 1e-7);
    /* Phi(1.959964) = 0.975: difference of RT_Z95 sigmas */
    assert_near(rt_los(RT_Z95 * 5.0, 3.0, 0.0, 4.0), 0.975, 1e-9);
    assert_near(rt_los(7, 3, 7, 4), 0.5, 1e-15);
    assert_near(rt_los(1, 0, 0, 0), 1.0, 0.0);
    assert_near(rt_los(0, 0, 1, 0), 0.0, 0.0);
    assert_near(rt_los(1, 0, 1, 0), 0.5, 0.0);
    /* far tail keeps precision: Phi(-10) = 7.619853e-24 */
    assert_near(rt_los(0, 1, 10, 0) / 7.619853e-24, 1.0, 1e-6);

    double r[3] = {10, 0, -30}, s[3] = {5, 6, 7}, m[9];
    rt_los_matrix(3, r, s, m);
    for (int i = 0; i < 3; i++) {
        assert_near(m[i * 3 + i], 0.5, 1e-15);
        for (int j = 0; j < 3; j++)
            assert_near(m[i * 3 + j] + m[j * 3 + i], 1.0, 1e-12);
    }
    assert_near(m[0 * 3 + 1], rt_los(10, 5, 0, 6), 0.0);
    assert_true(m[0 * 3 + 2] > m[0 * 3 + 1]);
}

/* ---- one match, any seats ------------------------------------------------ */

/* The arena's rule before it moved here (schema 1: 2 seats head to head,
 * 4 seats as teams 0+2 against 1+3), kept as the oracle that the general
 * rule gives exactly the same numbers. */
static void old_rule(int seats, const int *player, const double *score, double k, double *elo)
{
    if (seats == 2 && player[0] != player[1]) {
        rt_elo_update(&elo[0], &elo[1], score[0], k);
        return;
    }
    double delta[4];
    if (seats == 2) {
        delta[0] = rt_elo_delta(elo[0], elo[1], score[0], k);
        delta[1] = -delta[0];
    } else {
        double a = (elo[0] + elo[2]) / 2.0, b = (elo[1] + elo[3]) / 2.0;
        double d = rt_elo_delta(a, b, score[0], k);
        delta[0] = delta[2] = d;
        delta[1] = delta[3] = -d;
    }
    for (int i = 0; i < seats; i++)
        for (int j = 0; j < seats; j++)
            if (player[j] == player[i])
                elo[j] += delta[i];
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next_u32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

static void test_match_same_as_before(void **state)
{
    (void)state;
    static const int team2[2] = {0, 1}, team4[4] = {0, 1, 0, 1};
    static const double sides[3] = {1.0, 0.5, 0.0};
    for (int n = 0; n < 20000; n++) {
        int seats = n % 2 ? 4 : 2;
        int player[4] = { 0 };
        double rating[8], elo[4], mine[4], score[4];
        for (int p = 0; p < 8; p++)
            rating[p] = 1000.0 + (double)(next_u32() % 100000) / 97.0;
        for (int i = 0; i < seats; i++)     /* a few players, so some sit twice */
            player[i] = (int)(next_u32() % (seats == 2 ? 3 : 5));
        double s0 = sides[next_u32() % 3];
        for (int i = 0; i < seats; i++) {
            score[i] = i % 2 ? 1.0 - s0 : s0;
            elo[i] = mine[i] = rating[player[i]];
        }
        double k = (double)(next_u32() % 64);
        old_rule(seats, player, score, k, elo);
        assert_int_equal(rt_elo_match(seats, seats == 2 ? team2 : team4, player, score, k, mine),
                         RT_OK);
        for (int i = 0; i < seats; i++)
            assert_true(memcmp(&elo[i], &mine[i], sizeof elo[i]) == 0); // NOLINT(bugprone-suspicious-memory-comparison): bit for bit, on purpose
    }
}

static void test_match_three_teams(void **state)
{
    (void)state;
    /* 1500, 1600, 1700; seat 0 wins, the other two lose (tie between them).
     * K = 32 over 2 opponents: 16 per pair.
     *   0 v 1: 16 (1 - E(-100))   = 10.2410400   E(-100) = 0.3599350
     *   0 v 2: 16 (1 - E(-200))   = 12.1559508   E(-200) = 0.2402531
     *   1 v 2: 16 (0.5 - E(-100)) =  2.2410400
     * seat 0: +22.3969908; seat 1: -10.2410400 + 2.2410400 = -8; seat 2: -14.3969908 */
    int team[3] = {0, 1, 2}, player[3] = {0, 1, 2};
    double score[3] = {1, 0, 0}, r[3] = {1500, 1600, 1700};
    assert_int_equal(rt_elo_match(3, team, player, score, 32, r), RT_OK);
    assert_near(r[0], 1522.3969908, 1e-6);
    assert_near(r[1], 1592.0, 1e-9);
    assert_near(r[2], 1685.6030092, 1e-6);

    /* Labels do not matter: the same match with teams called 7, 3, 5. */
    int team2[3] = {7, 3, 5};
    double r2[3] = {1500, 1600, 1700};
    assert_int_equal(rt_elo_match(3, team2, player, score, 32, r2), RT_OK);
    for (int i = 0; i < 3; i++)
        assert_true(r2[i] == r[i]);

    /* Six seats, three teams of two, equal means (1500 each): the winners
     * gain 2 x 10 x 0.5 = 10 (K = 20 over 2 opponents), the two losing
     * teams lose 5 each (a tie between them moves nothing). */
    int t6[6] = {0, 1, 2, 0, 1, 2}, p6[6] = {0, 1, 2, 3, 4, 5};
    double s6[6] = {1, 0, 0, 1, 0, 0}, r6[6] = {1400, 1500, 1600, 1600, 1500, 1400};
    assert_int_equal(rt_elo_match(6, t6, p6, s6, 20, r6), RT_OK);
    static const double want6[6] = {1410, 1495, 1595, 1610, 1495, 1395};
    for (int i = 0; i < 6; i++)
        assert_near(r6[i], want6[i], 1e-9);

    /* A draw between three equals moves nobody. */
    double sd[3] = {0.5, 0.5, 0.5}, rd[3] = {1500, 1500, 1500};
    assert_int_equal(rt_elo_match(3, team, player, sd, 32, rd), RT_OK);
    for (int i = 0; i < 3; i++)
        assert_near(rd[i], 1500, 0.0);
}

static void test_match_refuses(void **state)
{
    (void)state;
    int team[3] = {0, 1, 2}, player[3] = {0, 1, 2};
    double score[3] = {1, 0, 0}, r[3] = {1500, 1600, 1700};
    int one_team[3] = {4, 4, 4}, neg[3] = {0, -1, 2}, twice[3] = {0, 1, 0};
    double apart[3] = {1, 0, 0.5}, big[3] = {1.5, 0, 0}, nan_s[3] = {NAN, 0, 0};
    int mates[3] = {0, 1, 0};
    assert_int_equal(rt_elo_match(1, team, player, score, 32, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(RT_ELO_MAX_SEATS + 1, team, player, score, 32, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, one_team, player, score, 32, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, neg, player, score, 32, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, mates, player, apart, 32, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, team, player, big, 32, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, team, player, nan_s, 32, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, team, player, score, -1, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, team, player, score, NAN, r), RT_ERR_ARG);
    assert_int_equal(rt_elo_match(3, team, twice, score, 32, r), RT_ERR_ARG);  /* 1500 v 1700 */
    assert_int_equal(rt_elo_match(3, NULL, player, score, 32, r), RT_ERR_ARG);
    assert_true(r[0] == 1500 && r[1] == 1600 && r[2] == 1700);           /* untouched */
}

int run_elo_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expected_score),
        cmocka_unit_test(test_score_to_elo),
        cmocka_unit_test(test_k32_update),
        cmocka_unit_test(test_los),
        cmocka_unit_test(test_match_same_as_before),
        cmocka_unit_test(test_match_three_teams),
        cmocka_unit_test(test_match_refuses),
    };
    return cmocka_run_group_tests_name("elo", tests, NULL, NULL);
}
