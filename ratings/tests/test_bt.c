/*
 * test_bt.c - the Bradley-Terry fit and game aggregation.
 *
 * Expected values come from closed forms, not from the fit: two players
 * (r = 400 log10(s / (1 - s)), sigma from the binomial Fisher information),
 * exactly-BT-consistent data (ratings are the generating strengths), trees
 * (each edge fits its own score), symmetric designs (equal ratings), small
 * information matrices inverted by hand, and the ML score equations
 * (expected score == actual score) checked directly on random data.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "test_ratings.h"

#define EPN (400.0 / log(10.0))   /* Elo per natural unit */

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

static int fit(int n, const rt_pair *pairs, size_t n_pairs, double prior,
               int mode, int anchor_player, double anchor, double *rating,
               double *sigma, rt_bt_info *info)
{
    rt_bt_options o;
    rt_bt_default_options(&o);
    o.prior_draws = prior;
    o.sigma_mode = mode;
    o.dispersion = 0;         /* the closed forms below are of the win/loss information */
    o.anchor_player = anchor_player;
    o.anchor = anchor;
    o.tolerance = 1e-9;
    return rt_bt_fit(n, pairs, n_pairs, &o, NULL, 0, rating, sigma, info);
}

/* Two players, symmetric prior: theta_0 = -theta_1 = t solves
 * score_0 + prior/2 = n sigmoid(2t) + prior sigmoid(t). Bisection. */
static double symmetric_pair_t(double score0, double games, double prior)
{
    double lo = 0.0, hi = 30.0;
    for (int it = 0; it < 200; it++) {
        double t = 0.5 * (lo + hi);
        double f = games * sigmoid(2 * t) + prior * sigmoid(t) -
                   (score0 + prior / 2);
        if (f > 0)
            hi = t;
        else
            lo = t;
    }
    return 0.5 * (lo + hi);
}

/* ---- two players -------------------------------------------------------- */

static void test_two_players_closed_form(void **state)
{
    (void)state;
    /* 60 wins, 20 draws, 20 losses: score 0.7 */
    rt_pair p = {0, 1, 60, 20, 20};
    double r[2], s[2];
    rt_bt_info info;
    assert_int_equal(fit(2, &p, 1, 0.0, RT_BT_SIGMA_EXACT, -1, 0.0, r, s,
                         &info), RT_OK);
    double diff = 400.0 * log10(0.7 / 0.3);          /* 147.1907 */
    assert_near(diff, 147.1907, 1e-4);
    assert_near(r[0] - r[1], diff, 1e-6);
    assert_near(r[0], diff / 2, 1e-6);        /* mean anchored */
    assert_near(r[1], -diff / 2, 1e-6);

    /* Var(theta_0 - theta_1) = 1 / (n p (1 - p)) = 1/21; each
     * mean-anchored rating carries half the difference: 18.954 Elo */
    double sd_diff = EPN * sqrt(1.0 / (100 * 0.7 * 0.3));   /* 37.9083 */
    assert_near(sd_diff, 37.9083, 1e-4);
    assert_near(s[0], sd_diff / 2, 1e-6);
    assert_near(s[1], sd_diff / 2, 1e-6);
    assert_true(info.log_likelihood < 0.0);

    /* anchored on player 1 at 1500: the difference keeps all the error */
    assert_int_equal(fit(2, &p, 1, 0.0, RT_BT_SIGMA_EXACT, 1, 1500.0, r, s,
                         NULL), RT_OK);
    assert_near(r[1], 1500.0, 0.0);
    assert_near(r[0], 1500.0 + diff, 1e-6);
    assert_near(s[1], 0.0, 0.0);
    assert_near(s[0], sd_diff, 1e-6);

    /* DIAGONAL: 1/H_ii = 1/(n p (1-p)) per player */
    assert_int_equal(fit(2, &p, 1, 0.0, RT_BT_SIGMA_DIAGONAL, -1, 0.0, r, s,
                         &info), RT_OK);
    assert_int_equal(info.sigma_mode, RT_BT_SIGMA_DIAGONAL);
    assert_near(r[0] - r[1], diff, 1e-6);
    assert_near(s[0], sd_diff, 1e-6);
    assert_near(s[1], sd_diff, 1e-6);

    /* LOS of the fitted pair: Phi(diff / sqrt(2) / (sd_diff / 2)) */
    assert_int_equal(fit(2, &p, 1, 0.0, RT_BT_SIGMA_EXACT, -1, 0.0, r, s,
                         NULL), RT_OK);
    assert_near(rt_los(r[0], s[0], r[1], s[1]),
                0.5 * erfc(-(diff / (sd_diff / 2 * sqrt(2.0))) /
                           sqrt(2.0)), 1e-12);
}

static void test_two_players_prior(void **state)
{
    (void)state;
    rt_pair p = {0, 1, 60, 20, 20};
    double r[2], s[2];
    assert_int_equal(fit(2, &p, 1, 1.0, RT_BT_SIGMA_EXACT, -1, 0.0, r, s,
                         NULL), RT_OK);
    double t = symmetric_pair_t(70.0, 100.0, 1.0);
    assert_near(r[0], t * EPN, 1e-6);
    assert_near(r[1], -t * EPN, 1e-6);
    /* the prior only shrinks */
    assert_true(r[0] - r[1] < 400.0 * log10(0.7 / 0.3));
    assert_true(r[0] - r[1] > 140.0);
}

static void test_all_wins(void **state)
{
    (void)state;
    rt_pair p = {0, 1, 10, 0, 0};
    double r[2], s[2];
    /* no prior: the ML rating is infinite */
    assert_int_equal(fit(2, &p, 1, 0.0, RT_BT_SIGMA_EXACT, -1, 0.0, r, s,
                         NULL), RT_ERR_NO_MLE);
    /* one virtual draw each: 10.5 = 10 sigmoid(2t) + sigmoid(t) */
    for (int mode = RT_BT_SIGMA_EXACT; mode <= RT_BT_SIGMA_DIAGONAL; mode++) {
        assert_int_equal(fit(2, &p, 1, 1.0, mode, -1, 0.0, r, s, NULL),
                         RT_OK);
        double t = symmetric_pair_t(10.0, 10.0, 1.0);
        assert_near(r[0], t * EPN, 1e-6);
        assert_near(r[1], -t * EPN, 1e-6);
        assert_true(isfinite(s[0]) && s[0] > 0.0);
    }
}

/* ---- three and more ----------------------------------------------------- */

/* Strengths 9 : 3 : 1 predict 75%, 75% and 90%; data matching them
 * exactly is fitted exactly: 400 log10(9), 400 log10(3), 0. */
static const rt_pair transitive[3] = {
    {0, 1, 75, 0, 25}, {1, 2, 75, 0, 25}, {0, 2, 90, 0, 10},
};

static void test_three_transitive(void **state)
{
    (void)state;
    double r[3], s[3];
    assert_int_equal(fit(3, transitive, 3, 0.0, RT_BT_SIGMA_EXACT, 2, 0.0, r,
                         s, NULL), RT_OK);
    assert_near(r[0], 400 * log10(9.0), 1e-6);     /* 381.697 */
    assert_near(r[1], 400 * log10(3.0), 1e-6);     /* 190.849 */
    assert_near(r[2], 0.0, 0.0);

    /* information with C grounded: n p (1-p) = 18.75 (A-B), 18.75 (B-C),
     * 9 (A-C) -> [[27.75, -18.75], [-18.75, 37.5]], det 689.0625 */
    double det = 27.75 * 37.5 - 18.75 * 18.75;
    assert_near(det, 689.0625, 1e-12);
    double var_a = 37.5 / det, var_b = 27.75 / det, cov = 18.75 / det;
    assert_near(s[0], EPN * sqrt(var_a), 1e-6);    /* 40.53 */
    assert_near(s[1], EPN * sqrt(var_b), 1e-6);    /* 34.86 */
    assert_near(s[2], 0.0, 0.0);

    /* mean anchor: Var(theta_i - mean) = c' C c, c = e_i - 1/3 */
    assert_int_equal(fit(3, transitive, 3, 0.0, RT_BT_SIGMA_EXACT, -1, 0.0,
                         r, s, NULL), RT_OK);
    double m = 400 * log10(27.0) / 3;                     /* mean rating */
    assert_near(r[0], 400 * log10(9.0) - m, 1e-6);
    assert_near(r[1], 400 * log10(3.0) - m, 1e-6);
    assert_near(r[2], -m, 1e-6);
    double cmat[3][3] = {{var_a, cov, 0}, {cov, var_b, 0}, {0, 0, 0}};
    for (int i = 0; i < 3; i++) {
        double c[3], v = 0;
        for (int k = 0; k < 3; k++)
            c[k] = (k == i) - 1.0 / 3;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                v += c[a] * cmat[a][b] * c[b];
        assert_near(s[i], EPN * sqrt(v), 1e-6);
    }
}

static void test_symmetric_results_equal(void **state)
{
    (void)state;
    /* rock-paper-scissors: each beats the next 7-3 */
    rt_pair cycle[3] = {{0, 1, 7, 0, 3}, {1, 2, 7, 0, 3}, {2, 0, 7, 0, 3}};
    /* round robin, every pair 3-4-3 */
    rt_pair rr[6];
    int k = 0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            rr[k++] = (rt_pair){i, j, 3, 4, 3};
    double r[4], s[4];
    for (double prior = 0.0; prior <= 2.0; prior += 1.0) {
        assert_int_equal(fit(3, cycle, 3, prior, RT_BT_SIGMA_EXACT, -1, 0.0,
                             r, s, NULL), RT_OK);
        for (int i = 0; i < 3; i++) {
            assert_near(r[i], 0.0, 1e-7);
            assert_near(s[i], s[0], 1e-9);
        }
        assert_int_equal(fit(4, rr, 6, prior, RT_BT_SIGMA_EXACT, -1, 25.0, r,
                             s, NULL), RT_OK);
        for (int i = 0; i < 4; i++) {
            assert_near(r[i], 25.0, 1e-7);
            assert_near(s[i], s[0], 1e-9);
        }
    }
}

/* A chain is a tree, so each link fits its own score exactly: 6-4 is
 * 400 log10(1.5) = 70.437 Elo per link. Chains are MM's slowest case. */
static void test_chain(void **state)
{
    (void)state;
    enum { N = 30 };
    rt_pair chain[N - 1];
    for (int k = 0; k < N - 1; k++)
        chain[k] = (rt_pair){k, k + 1, 6, 0, 4};
    double r[N], s[N];
    rt_bt_info info;
    for (int mode = RT_BT_SIGMA_EXACT; mode <= RT_BT_SIGMA_DIAGONAL; mode++) {
        assert_int_equal(fit(N, chain, N - 1, 0.0, mode, N - 1, 0.0, r, s,
                             &info), RT_OK);
        for (int k = 0; k < N; k++)
            assert_near(r[k], (N - 1 - k) * 400 * log10(1.5), 1e-6);
        /* with the last player anchored, variances add along the chain:
         * each link contributes 1 / (10 * 0.6 * 0.4) */
        if (mode == RT_BT_SIGMA_EXACT)
            for (int k = 0; k < N; k++)
                assert_near(s[k], EPN * sqrt((N - 1 - k) / 2.4),
                            1e-6);
    }
}

/* Players 0-1 and 2-3 never met: no common scale without a prior. */
static void test_disconnected(void **state)
{
    (void)state;
    rt_pair p[2] = {{0, 1, 5, 2, 3}, {2, 3, 1, 1, 8}};
    double r[4], s[4];
    assert_int_equal(fit(4, p, 2, 0.0, RT_BT_SIGMA_EXACT, -1, 0.0, r, s,
                         NULL), RT_ERR_NO_MLE);
    assert_int_equal(fit(4, p, 2, 1.0, RT_BT_SIGMA_EXACT, -1, 0.0, r, s,
                         NULL), RT_OK);
    /* with the prior each group is pulled to the reference: symmetric
     * pairs around 0 */
    assert_near(r[0], -r[1], 1e-6);
    assert_near(r[2], -r[3], 1e-6);
    assert_true(r[0] > 0 && r[3] > 0);
}

/* With draws, the sigmas shrink by the square root of the dispersion:
 * Pearson's statistic per degree of freedom. 60-20-20 at p = 0.7:
 * (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 0.21 / (100 - 1) = 0.76960. */
static void test_dispersion(void **state)
{
    (void)state;
    rt_bt_options o;
    rt_bt_default_options(&o);
    o.prior_draws = 0.0;
    o.sigma_mode = RT_BT_SIGMA_EXACT;
    assert_int_equal(o.dispersion, 1);                       /* on by default */
    rt_pair p = {0, 1, 60, 20, 20};
    double r[2], s[2];
    rt_bt_info info;
    assert_int_equal(rt_bt_fit(2, &p, 1, &o, NULL, 0, r, s, &info), RT_OK);
    double phi = (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 0.21 / 99;
    assert_near(info.dispersion, phi, 1e-9);
    double sd_diff = EPN * sqrt(1.0 / (100 * 0.7 * 0.3));
    assert_near(s[0], sd_diff / 2 * sqrt(phi), 1e-6);
    assert_near(r[0] - r[1], 400.0 * log10(0.7 / 0.3), 1e-6);  /* ratings unchanged */

    /* No draws: wins and losses are what the model counts; exactly 1. */
    rt_pair q = {0, 1, 70, 0, 30};
    assert_int_equal(rt_bt_fit(2, &q, 1, &o, NULL, 0, r, s, &info), RT_OK);
    assert_true(info.dispersion == 1.0);
    assert_near(s[0], EPN * sqrt(1.0 / (100 * 0.7 * 0.3)) / 2, 1e-6);

    /* Every game drawn: the floor, not a zero interval. */
    rt_pair d = {0, 1, 0, 50, 0};
    assert_int_equal(rt_bt_fit(2, &d, 1, &o, NULL, 0, r, s, &info), RT_OK);
    assert_true(info.dispersion == RT_BT_MIN_DISPERSION);
    assert_true(s[0] > 0);
}

/* Player 2 never played: theta_2 = 0 exactly (0.5 = sigmoid(theta_2)); its
 * information is the prior's 1/4 only. Covariance is block diagonal, so
 * the mean-anchored variances follow from the eigen-decomposition of the
 * 0-1 block: eigenvalues c (along (1,1)) and 2a + c (along (1,-1)). */
static void test_unplayed_player(void **state)
{
    (void)state;
    rt_pair p = {0, 1, 60, 20, 20};
    double r[3], s[3];
    assert_int_equal(fit(3, &p, 1, 1.0, RT_BT_SIGMA_EXACT, -1, 0.0, r, s,
                         NULL), RT_OK);
    double t = symmetric_pair_t(70.0, 100.0, 1.0);
    assert_near(r[0], t * EPN, 1e-6);
    assert_near(r[1], -t * EPN, 1e-6);
    assert_near(r[2], 0.0, 1e-6);

    double a = 100 * sigmoid(2 * t) * sigmoid(-2 * t);
    double c = sigmoid(t) * sigmoid(-t);
    double var2 = (4.0 / 9) / 0.25 + (1.0 / 9) * 2.0 / c;
    double var0 = (1.0 / 18) / c + 0.5 / (2 * a + c) + (1.0 / 9) / 0.25;
    assert_near(s[2], EPN * sqrt(var2), 1e-6);
    assert_near(s[0], EPN * sqrt(var0), 1e-6);
    assert_near(s[1], s[0], 1e-9);

    /* DIAGONAL: 1/H_22 = 1/0.25 exactly: 2 * 173.7 = 347.4 Elo */
    assert_int_equal(fit(3, &p, 1, 1.0, RT_BT_SIGMA_DIAGONAL, -1, 0.0, r, s,
                         NULL), RT_OK);
    assert_near(s[2], 2 * EPN, 1e-9);
}

/* ---- random pools ------------------------------------------------------- */

static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

/* n players, strengths spread over ~600 Elo, n_pairs random pairings of
 * 1-8 games. Draws make every pair count in both directions. */
static size_t random_pool(int n, size_t n_pairs, uint64_t seed, rt_pair *p)
{
    for (size_t k = 0; k < n_pairs; k++) {
        int i = (int)(lcg(&seed) % (uint64_t)n), j;
        do
            j = (int)(lcg(&seed) % (uint64_t)n);
        while (j == i);
        p[k] = (rt_pair){i, j, 0, 0, 0};
        int games = 1 + (int)(lcg(&seed) % 8);
        double pr = sigmoid((i - j) * 3.5 / n);
        for (int g = 0; g < games; g++) {
            double u = (double)(lcg(&seed) % 1000000) / 1e6;
            if (u < pr * 0.8)
                p[k].wins_i++;
            else if (u < pr * 0.8 + 0.2)
                p[k].draws++;
            else
                p[k].wins_j++;
        }
    }
    return n_pairs;
}

/* At the optimum, every player's expected score (including the virtual
 * draws) equals the actual one. With a prior the absolute level is not
 * visible through the anchor, so recover it first from the summed
 * equations: sum_i sigmoid(theta_i) = n / 2. */
static void check_score_equations(int n, const rt_pair *p, size_t np,
                                  double prior, const double *rating)
{
    double shift = 0.0;
    if (prior > 0.0) {
        double lo = -2000, hi = 2000;
        for (int it = 0; it < 200; it++) {
            double mid = 0.5 * (lo + hi), f = -n / 2.0;
            for (int i = 0; i < n; i++)
                f += sigmoid((rating[i] + mid) / EPN);
            if (f > 0)
                hi = mid;
            else
                lo = mid;
        }
        shift = 0.5 * (lo + hi);
    }
    double *actual = calloc((size_t)n, sizeof(double));
    double *expect = calloc((size_t)n, sizeof(double));
    assert_non_null(actual);
    assert_non_null(expect);
    for (size_t k = 0; k < np; k++) {
        double games = (double)(p[k].wins_i + p[k].draws + p[k].wins_j);
        double pr = sigmoid((rating[p[k].i] - rating[p[k].j]) / EPN);
        actual[p[k].i] += p[k].wins_i + 0.5 * p[k].draws;
        actual[p[k].j] += p[k].wins_j + 0.5 * p[k].draws;
        expect[p[k].i] += games * pr;
        expect[p[k].j] += games * (1 - pr);
    }
    for (int i = 0; i < n; i++) {
        actual[i] += prior / 2;
        expect[i] += prior * sigmoid((rating[i] + shift) / EPN);
        assert_near(expect[i], actual[i], 1e-6 * (1 + actual[i]));
    }
    free(actual);
    free(expect);
}

static void test_random_pool(void **state)
{
    (void)state;
    enum { N = 40, P = 300 };
    rt_pair p[P];
    random_pool(N, P, 12345, p);
    double r1[N], r2[N], s1[N], s2[N];
    rt_bt_info info;
    for (double prior = 0.0; prior <= 1.0; prior += 1.0) {
        assert_int_equal(fit(N, p, P, prior, RT_BT_SIGMA_EXACT, -1, 0.0, r1,
                             s1, &info), RT_OK);
        check_score_equations(N, p, P, prior, r1);
        /* MM alone reaches the same point as MM + Newton */
        assert_int_equal(fit(N, p, P, prior, RT_BT_SIGMA_DIAGONAL, -1, 0.0,
                             r2, s2, &info), RT_OK);
        /* a well-mixed pool needs a few dozen sweeps (plain wins-only MM
         * without the shift step needs over a thousand here) */
        assert_in_range(info.iterations, 1, 150);
        check_score_equations(N, p, P, prior, r2);
        for (int i = 0; i < N; i++)
            assert_near(r1[i], r2[i], 1e-5);
        /* strengths increase with index by construction */
        assert_true(r1[N - 1] > r1[0] + 200);
    }
    /* repeatable bit for bit */
    assert_int_equal(fit(N, p, P, 1.0, RT_BT_SIGMA_EXACT, -1, 0.0, r2, s2,
                         NULL), RT_OK);
    assert_memory_equal(r1, r2, sizeof r1);
    assert_memory_equal(s1, s2, sizeof s1);
}

/* A warm start (a former fit's ratings, shifted: the anchor does not
 * matter) reaches the cold fit's optimum in fewer sweeps; after a few
 * more games it still lands on the new data's optimum. Bad starts are
 * refused. */
static void test_warm_start(void **state)
{
    (void)state;
    enum { N = 40, P = 300 };
    rt_pair p[P];
    random_pool(N, P, 4242, p);
    double cold[N], warm[N], start[N];
    rt_bt_info ci, wi;
    rt_bt_options o;
    rt_bt_default_options(&o);
    assert_null(o.start);
    o.sigma_mode = RT_BT_SIGMA_DIAGONAL;
    assert_int_equal(rt_bt_fit(N, p, P - 10, &o, NULL, 0, start, NULL, &ci), RT_OK);
    for (int i = 0; i < N; i++)
        start[i] += 1500.0;
    assert_int_equal(rt_bt_fit(N, p, P, &o, NULL, 0, cold, NULL, &ci), RT_OK);
    o.start = start;
    assert_int_equal(rt_bt_fit(N, p, P, &o, NULL, 0, warm, NULL, &wi), RT_OK);
    for (int i = 0; i < N; i++)
        assert_near(warm[i], cold[i], 1e-5);
    assert_true(wi.iterations < ci.iterations);
    start[3] = NAN;
    assert_int_equal(rt_bt_fit(N, p, P, &o, NULL, 0, warm, NULL, NULL), RT_ERR_ARG);
    start[3] = 2 * RT_BT_MAX_START;
    assert_int_equal(rt_bt_fit(N, p, P, &o, NULL, 0, warm, NULL, NULL), RT_ERR_ARG);
}

/* The same results written j-first, or split into several rows, fit the
 * same ratings. */
static void test_pair_orientation(void **state)
{
    (void)state;
    enum { N = 12, P = 60 };
    rt_pair p[P], q[2 * P];
    random_pool(N, P, 777, p);
    for (int k = 0; k < P; k++) {
        rt_pair a = p[k];
        q[2 * k] = (rt_pair){a.j, a.i, a.wins_j / 2, a.draws, a.wins_i};
        q[2 * k + 1] = (rt_pair){a.i, a.j, 0, 0, a.wins_j - a.wins_j / 2};
    }
    double r1[N], r2[N], s1[N], s2[N];
    assert_int_equal(fit(N, p, P, 1.0, RT_BT_SIGMA_EXACT, 3, 100.0, r1, s1,
                         NULL), RT_OK);
    assert_int_equal(fit(N, q, 2 * P, 1.0, RT_BT_SIGMA_EXACT, 3, 100.0, r2,
                         s2, NULL), RT_OK);
    for (int i = 0; i < N; i++) {
        assert_near(r1[i], r2[i], 1e-7);
        assert_near(s1[i], s2[i], 1e-7);
    }
}

/* ---- interface ---------------------------------------------------------- */

static void test_workspace_and_errors(void **state)
{
    (void)state;
    rt_pair p[3] = {{0, 1, 5, 2, 3}, {1, 2, 4, 4, 4}, {2, 0, 1, 0, 1}};
    double r[3], s[3], r_ref[3];
    rt_bt_options o;
    rt_bt_default_options(&o);
    assert_int_equal(rt_bt_fit(3, p, 3, &o, NULL, 0, r_ref, s, NULL), RT_OK);

    size_t need = rt_bt_workspace_size(3, 3, &o);
    assert_true(need > 0);
    void *w = malloc(need ? need : 1);
    assert_non_null(w);
    assert_int_equal(rt_bt_fit(3, p, 3, &o, w, need, r, s, NULL), RT_OK);
    assert_memory_equal(r, r_ref, sizeof r);
    r[0] = 42.0;
    assert_int_equal(rt_bt_fit(3, p, 3, &o, w, need - 1, r, s, NULL),
                     RT_ERR_WORKSPACE);
    assert_near(r[0], 42.0, 0.0);   /* outputs untouched on error */
    free(w);

    rt_pair bad[4][1] = {{{0, 0, 1, 0, 0}}, {{0, 3, 1, 0, 0}},
                         {{0, 1, -1, 0, 0}}, {{-1, 1, 1, 0, 0}}};
    for (int k = 0; k < 4; k++)
        assert_int_equal(rt_bt_fit(3, bad[k], 1, &o, NULL, 0, r, s, NULL),
                         RT_ERR_ARG);
    o.anchor_player = 3;
    assert_int_equal(rt_bt_fit(3, p, 3, &o, NULL, 0, r, s, NULL),
                     RT_ERR_ARG);
    rt_bt_default_options(&o);
    o.prior_draws = -1;
    assert_int_equal(rt_bt_fit(3, p, 3, &o, NULL, 0, r, s, NULL),
                     RT_ERR_ARG);

    /* iteration cap: still a usable estimate, flagged as such */
    rt_bt_default_options(&o);
    o.sigma_mode = RT_BT_SIGMA_DIAGONAL;
    o.max_iterations = 1;
    rt_bt_info info;
    assert_int_equal(rt_bt_fit(3, p, 3, &o, NULL, 0, r, s, &info),
                     RT_NOT_CONVERGED);
    assert_int_equal(info.iterations, 1);
    assert_true(info.residual > o.tolerance && isfinite(r[0]));

    /* NONE: no sigma work, NaN written if asked */
    rt_bt_default_options(&o);
    o.sigma_mode = RT_BT_SIGMA_NONE;
    assert_int_equal(rt_bt_fit(3, p, 3, &o, NULL, 0, r, s, NULL), RT_OK);
    assert_true(isnan(s[0]));
    assert_near(r[0], r_ref[0], 1e-5);
    assert_true(rt_bt_workspace_size(3, 3, &o) < need);

    /* empty pool */
    assert_int_equal(rt_bt_fit(0, NULL, 0, NULL, NULL, 0, NULL, NULL, NULL),
                     RT_OK);
}

static void test_aggregate(void **state)
{
    (void)state;
    rt_game g[7] = {
        {2, 1, 1.0}, {0, 1, 1.0}, {2, 0, 0.0}, {1, 0, 0.5},
        {0, 2, 1.0}, {1, 2, 0.5}, {0, 1, 0.0},
    };
    size_t need = rt_aggregate_workspace_size(3, 7);
    void *w = malloc(need);
    rt_pair out[7];
    size_t n_out = 99;
    assert_int_equal(rt_aggregate_games(3, g, 7, w, need, out, &n_out),
                     RT_OK);
    assert_int_equal(n_out, 3);
    /* (0,1): 0 won, drew, lost.  (0,2): 0 won twice.  (1,2): 2 won, draw */
    rt_pair want[3] = {{0, 1, 1, 1, 1}, {0, 2, 2, 0, 0}, {1, 2, 0, 1, 1}};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(out[k].i, want[k].i);
        assert_int_equal(out[k].j, want[k].j);
        assert_int_equal(out[k].wins_i, want[k].wins_i);
        assert_int_equal(out[k].draws, want[k].draws);
        assert_int_equal(out[k].wins_j, want[k].wins_j);
    }
    rt_game badscore = {0, 1, 0.25}, self = {1, 1, 1.0}, range = {0, 3, 1};
    assert_int_equal(rt_aggregate_games(3, &badscore, 1, w, need, out,
                                        &n_out), RT_ERR_ARG);
    assert_int_equal(rt_aggregate_games(3, &self, 1, w, need, out, &n_out),
                     RT_ERR_ARG);
    assert_int_equal(rt_aggregate_games(3, &range, 1, w, need, out, &n_out),
                     RT_ERR_ARG);
    assert_int_equal(rt_aggregate_games(3, g, 7, w, need - 1, out, &n_out),
                     RT_ERR_WORKSPACE);
    free(w);

    /* fitting games = fitting their aggregate: 0.7 score closed form */
    rt_game many[100];
    for (int k = 0; k < 100; k++) {
        double sc = k < 60 ? 1.0 : k < 80 ? 0.5 : 0.0;
        many[k] = k % 2 ? (rt_game){0, 1, sc} : (rt_game){1, 0, 1.0 - sc};
    }
    need = rt_aggregate_workspace_size(2, 100);
    w = malloc(need);
    rt_pair agg[100];
    assert_int_equal(rt_aggregate_games(2, many, 100, w, need, agg, &n_out),
                     RT_OK);
    free(w);
    assert_int_equal(n_out, 1);
    double r[2], s[2];
    assert_int_equal(fit(2, agg, n_out, 0.0, RT_BT_SIGMA_EXACT, -1, 0.0, r,
                         s, NULL), RT_OK);
    assert_near(r[0] - r[1], 400 * log10(0.7 / 0.3), 1e-6);
}

int run_bt_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players_closed_form),
        cmocka_unit_test(test_dispersion),
        cmocka_unit_test(test_two_players_prior),
        cmocka_unit_test(test_all_wins),
        cmocka_unit_test(test_three_transitive),
        cmocka_unit_test(test_symmetric_results_equal),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_disconnected),
        cmocka_unit_test(test_unplayed_player),
        cmocka_unit_test(test_random_pool),
        cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_pair_orientation),
        cmocka_unit_test(test_workspace_and_errors),
        cmocka_unit_test(test_aggregate),
    };
    return cmocka_run_group_tests_name("bradley_terry", tests, NULL, NULL);
}
