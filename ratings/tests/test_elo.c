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

int run_elo_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expected_score),
        cmocka_unit_test(test_score_to_elo),
        cmocka_unit_test(test_k32_update),
        cmocka_unit_test(test_los),
    };
    return cmocka_run_group_tests_name("elo", tests, NULL, NULL);
}
