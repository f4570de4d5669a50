/*
 * test_sprt.c - SPRT bounds, verdicts and log-likelihood ratios.
 *
 * The library finds each hypothesis's distribution through a Lagrange
 * multiplier. The checks here use other routes to the same number: the
 * exact binomial SPRT when there are no draws, a direct 1-D maximisation
 * over the draw rate for the trinomial, and the normal approximation
 * LLR ~ N (s1 - s0)(2 mean - s0 - s1) / (2 var) for a general pentanomial.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "ratings.h"
#include "test_ratings.h"

/* logistic Elo -> score, via exp rather than the library's pow */
static double score_of(double elo)
{
    return 1.0 / (1.0 + exp(-elo * log(10.0) / 400.0));
}

static double binomial_llr(double elo0, double elo1, double w, double l)
{
    double s0 = score_of(elo0), s1 = score_of(elo1);
    return w * log(s1 / s0) + l * log((1 - s1) / (1 - s0));
}

/* max over d of W log(s - d/2) + D log d + L log(1 - s - d/2): the
 * trinomial with mean s, profiled over its draw rate d. The objective is
 * concave in d; bisect on its derivative. */
static double trinomial_profile(double s, double w, double d, double l)
{
    double lo = 0.0, hi = 2 * fmin(s, 1 - s);
    for (int it = 0; it < 300; it++) {
        double x = 0.5 * (lo + hi);
        double deriv = -0.5 * w / (s - x / 2) + d / x -
                       0.5 * l / (1 - s - x / 2);
        if (deriv > 0)
            lo = x;
        else
            hi = x;
    }
    double x = 0.5 * (lo + hi);
    return w * log(s - x / 2) + d * log(x) + l * log(1 - s - x / 2);
}

static void test_bounds(void **state)
{
    (void)state;
    /* alpha = beta = 0.05: +-log(19) = +-2.944439 */
    assert_near(rt_sprt_upper_bound(0.05, 0.05), 2.944439, 1e-6);
    assert_near(rt_sprt_lower_bound(0.05, 0.05), -2.944439, 1e-6);
    /* alpha 0.05, beta 0.10: log(0.1/0.95) = -2.251292, log(18) = 2.890372 */
    assert_near(rt_sprt_lower_bound(0.05, 0.10), -2.251292, 1e-6);
    assert_near(rt_sprt_upper_bound(0.05, 0.10), 2.890372, 1e-6);
}

static void test_verdict_at_bounds(void **state)
{
    (void)state;
    double up = log(0.95 / 0.05), lo = log(0.05 / 0.95);
    assert_int_equal(rt_sprt_decide(up, 0.05, 0.05), RT_SPRT_ACCEPT_H1);
    assert_int_equal(rt_sprt_decide(lo, 0.05, 0.05), RT_SPRT_ACCEPT_H0);
    assert_int_equal(rt_sprt_decide(nextafter(up, 0), 0.05, 0.05),
                     RT_SPRT_CONTINUE);
    assert_int_equal(rt_sprt_decide(nextafter(lo, 0), 0.05, 0.05),
                     RT_SPRT_CONTINUE);
    assert_int_equal(rt_sprt_decide(0.0, 0.05, 0.05), RT_SPRT_CONTINUE);
    assert_int_equal(rt_sprt_decide(10.0, 0.05, 0.05), RT_SPRT_ACCEPT_H1);
    assert_int_equal(rt_sprt_decide(-10.0, 0.05, 0.05), RT_SPRT_ACCEPT_H0);
}

/* elo0 = 0, elo1 = 100: s0 = 0.5, s1 = 0.640065.
 * per win  log(0.640065/0.5) = +0.246962
 * per loss log(0.359935/0.5) = -0.328684  */
static void test_binomial_exact(void **state)
{
    (void)state;
    rt_sprt_params p = {0.0, 100.0, 0.05, 0.05};
    rt_sprt_result res;

    /* 20 W, 5 L: 4.93924 - 1.64342 = 3.29582 >= 2.944 -> H1 */
    assert_int_equal(rt_sprt_trinomial(&p, 20, 0, 5, &res), RT_OK);
    assert_near(res.llr, 3.29582, 1e-4);
    assert_near(res.llr, binomial_llr(0, 100, 20, 5), 1e-9);
    assert_int_equal(res.verdict, RT_SPRT_ACCEPT_H1);
    assert_near(res.upper, log(19.0), 1e-12);
    assert_near(res.lower, -log(19.0), 1e-12);

    /* 15 W, 5 L: 3.70443 - 1.64342 = 2.06101 -> continue */
    assert_int_equal(rt_sprt_trinomial(&p, 15, 0, 5, &res), RT_OK);
    assert_near(res.llr, 2.06101, 1e-4);
    assert_int_equal(res.verdict, RT_SPRT_CONTINUE);

    /* 5 W, 15 L: 1.23481 - 4.93026 = -3.69545 -> H0 */
    assert_int_equal(rt_sprt_trinomial(&p, 5, 0, 15, &res), RT_OK);
    assert_near(res.llr, -3.69545, 1e-4);
    assert_int_equal(res.verdict, RT_SPRT_ACCEPT_H0);

    /* a realistic bound pair */
    assert_near(rt_sprt_llr_trinomial(-1.75, 0.25, 10200, 0, 9800),
                binomial_llr(-1.75, 0.25, 10200, 9800), 1e-8);
}

static void test_trinomial_vs_profile(void **state)
{
    (void)state;
    struct { double e0, e1; long w, d, l; } c[] = {
        {0, 10, 120, 200, 100},
        {-5, 5, 3000, 9000, 2800},
        {0, 5, 10, 1000, 12},
        {0, 50, 7, 3, 2},
        {-20, 20, 40, 10, 45},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        double want =
            trinomial_profile(score_of(c[k].e1), c[k].w, c[k].d, c[k].l) -
            trinomial_profile(score_of(c[k].e0), c[k].w, c[k].d, c[k].l);
        double got = rt_sprt_llr_trinomial(c[k].e0, c[k].e1, c[k].w, c[k].d,
                                           c[k].l);
        assert_near(got, want, 1e-7 * (1 + fabs(want)));
    }
    /* swapping the players mirrors the hypotheses */
    assert_near(rt_sprt_llr_trinomial(0, 10, 120, 200, 100),
                rt_sprt_llr_trinomial(-0.0, -10, 100, 200, 120),
                1e-12);
}

static void test_pentanomial(void **state)
{
    (void)state;
    /* only LL and WW pairs: a binomial over pairs with P(WW) = s */
    long ww[5] = {30, 0, 0, 0, 45};
    assert_near(rt_sprt_llr_pentanomial(0, 20, ww),
                binomial_llr(0, 20, 45, 30), 1e-9);

    /* only pair scores 0, 1/2, 1: the same multinomial as a trinomial */
    long tri[5] = {100, 0, 300, 0, 130};
    assert_near(rt_sprt_llr_pentanomial(0, 10, tri),
                trinomial_profile(score_of(10), 130, 300, 100) -
                trinomial_profile(score_of(0), 130, 300, 100), 1e-7);

    /* general case against the normal approximation (small elo gap, large
     * sample: the two agree to well under 1%) */
    long pent[5] = {500, 3000, 7000, 3300, 560};
    double n = 0, mean = 0, var = 0;
    for (int k = 0; k < 5; k++)
        n += pent[k];
    for (int k = 0; k < 5; k++)
        mean += pent[k] / n * (k / 4.0);
    for (int k = 0; k < 5; k++)
        var += pent[k] / n * (k / 4.0 - mean) * (k / 4.0 - mean);
    double s0 = score_of(0), s1 = score_of(5);
    double approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
    double got = rt_sprt_llr_pentanomial(0, 5, pent);
    assert_true(approx > 1.0);   /* a non-trivial case */
    assert_near(got, approx, 0.005 * fabs(approx));

    rt_sprt_params p = {0, 5, 0.05, 0.05};
    rt_sprt_result res;
    assert_int_equal(rt_sprt_pentanomial(&p, pent, &res), RT_OK);
    assert_near(res.llr, got, 0.0);
    assert_int_equal(res.verdict, got >= log(19.0)    ? RT_SPRT_ACCEPT_H1
                                  : got <= -log(19.0) ? RT_SPRT_ACCEPT_H0
                                                      : RT_SPRT_CONTINUE);
}

static void test_degenerate(void **state)
{
    (void)state;
    rt_sprt_params p = {0, 10, 0.05, 0.05};
    rt_sprt_result res;
    /* no games: no evidence */
    assert_int_equal(rt_sprt_trinomial(&p, 0, 0, 0, &res), RT_OK);
    assert_near(res.llr, 0.0, 0.0);
    assert_int_equal(res.verdict, RT_SPRT_CONTINUE);
    /* only wins: neither mean is reachable without the 1e-3 cells; the
     * evidence must still point to H1 and grow with the count */
    double l10 = rt_sprt_llr_trinomial(0, 10, 10, 0, 0);
    double l20 = rt_sprt_llr_trinomial(0, 10, 20, 0, 0);
    assert_true(isfinite(l10) && l10 > 0 && l20 > l10);
    double d = rt_sprt_llr_trinomial(0, 10, 0, 50, 0);   /* only draws */
    assert_true(isfinite(d) && d < 0);   /* a 50% score favours elo0 = 0 */

    /* bad parameters */
    rt_sprt_params bad[] = {
        {10, 0, 0.05, 0.05}, {0, 10, 0.0, 0.05}, {0, 10, 0.05, 0.0},
        {0, 10, 0.6, 0.5}, {NAN, 10, 0.05, 0.05},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        assert_int_equal(rt_sprt_trinomial(&bad[k], 1, 1, 1, &res),
                         RT_ERR_ARG);
    assert_int_equal(rt_sprt_trinomial(&p, -1, 1, 1, &res), RT_ERR_ARG);
    long neg[5] = {1, 1, -1, 1, 1};
    assert_int_equal(rt_sprt_pentanomial(&p, neg, &res), RT_ERR_ARG);
}

int run_sprt_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_verdict_at_bounds),
        cmocka_unit_test(test_binomial_exact),
        cmocka_unit_test(test_trinomial_vs_profile),
        cmocka_unit_test(test_pentanomial),
        cmocka_unit_test(test_degenerate),
    };
    return cmocka_run_group_tests_name("sprt", tests, NULL, NULL);
}
