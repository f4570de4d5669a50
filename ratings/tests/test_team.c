/*
 * test_team.c - the team-strength Bradley-Terry fit, against values worked
 * out by hand and a simulation whose true strengths are known.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "ratings.h"
#include "test_ratings.h"

static rt_team_game game(int a0, int a1, int b0, int b1, double s)
{
    return (rt_team_game){ { a0, a1 }, { b0, b1 }, s };
}

/* Every split of four equal players, every game drawn: all equal, at 0. */
static void test_symmetric_results_give_equal_ratings(void **state)
{
    rt_team_game g[30];
    int n = 0;
    for (int k = 0; k < 10; k++) {
        g[n++] = game(0, 1, 2, 3, 0.5);
        g[n++] = game(0, 2, 1, 3, k % 2 ? 1 : 0);   /* split evenly */
        g[n++] = game(0, 3, 1, 2, k % 2 ? 0 : 1);
    }
    double r[4], s[4];
    assert_int_equal(rt_team_fit(4, g, (size_t)n, 1, r, s, NULL), RT_OK);
    for (int i = 0; i < 4; i++) {
        assert_near(r[i], 0, 1e-9);
        assert_near(s[i], s[0], 1e-9);
        assert_true(s[i] > 0);
    }
}

/* Always the same split, team A scoring 3/4: by symmetry each side's two
 * players rate alike, and the team means differ by 400 log10(3), so each
 * player sits at +-200 log10(3) = +-95.424. A vanishing prior. */
static void test_fixed_split_splits_the_gap_evenly(void **state)
{
    rt_team_game g[80];
    for (int k = 0; k < 80; k++)
        g[k] = game(0, 1, 2, 3, k < 60 ? 1 : 0);
    double r[4];
    assert_int_equal(rt_team_fit(4, g, 80, 1e-8, r, NULL, NULL), RT_OK);
    double half = 200 * log10(3.0);
    assert_near(r[0], half, 1e-3);
    assert_near(r[1], half, 1e-3);
    assert_near(r[2], -half, 1e-3);
    assert_near(r[3], -half, 1e-3);
}

/* A "team" of one player twice is that player: the fit reduces to the
 * two-player case. 60 wins, 20 draws, 20 losses: a score of 0.7, a gap of
 * 400 log10(0.7/0.3) = 147.1907, and Var(theta) = 1/(100 * 0.7 * 0.3) in
 * natural units, so sigma(gap) = 37.9083 Elo and each mean-anchored
 * rating's sigma is half that, 18.9541. */
static void test_doubled_players_reduce_to_two_player_bt(void **state)
{
    rt_team_game g[100];
    for (int k = 0; k < 100; k++)
        g[k] = game(0, 0, 1, 1, k < 60 ? 1 : k < 80 ? 0.5 : 0);
    double r[2], s[2];
    assert_int_equal(rt_team_fit(2, g, 100, 1e-9, r, s, NULL), RT_OK);
    assert_near(r[0] - r[1], 400 * log10(0.7 / 0.3), 1e-3);
    assert_near(s[0], 37.9083 / 2, 1e-3);
    assert_near(s[1], 37.9083 / 2, 1e-3);
}

/* Rotating partners among 8 players of known strength: the fit recovers
 * them, and the truth lies within 3 sigma of every estimate. */
static void test_rotating_partners_recover_true_strengths(void **state)
{
    enum { N = 8, GAMES = 20000 };
    const double truth[N] = { -300, -200, -100, -20, 20, 100, 200, 300 };
    rt_team_game *g = malloc(GAMES * sizeof *g);
    assert_non_null(g);
    uint64_t x = 12345;
    for (int k = 0; k < GAMES; k++) {
        int p[N];
        for (int i = 0; i < N; i++)
            p[i] = i;
        for (int i = 0; i < 4; i++) {       /* four distinct players */
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            int j = i + (int)((x >> 33) % (uint64_t)(N - i));
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        double d = (truth[p[0]] + truth[p[1]] - truth[p[2]] - truth[p[3]]) / 2;
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        double u = (double)(x >> 11) / 9007199254740992.0;
        g[k] = game(p[0], p[1], p[2], p[3], u < rt_elo_expected(d) ? 1 : 0);
    }
    double r[N], s[N];
    int iterations = 0;
    assert_int_equal(rt_team_fit(N, g, GAMES, 1, r, s, &iterations), RT_OK);
    assert_true(iterations < 20);
    for (int i = 0; i < N; i++) {
        assert_true(s[i] > 0 && s[i] < 30);
        if (fabs(r[i] - truth[i]) > 3 * s[i])
            fail_msg("player %d: fitted %.1f, true %.1f, sigma %.1f", i, r[i], truth[i], s[i]);
    }
    free(g);
}

/* The fit and its sigmas against the definitions: at the fit, the
 * gradient built here game by game is zero (the first steps are solved by
 * conjugate gradients, the last by the factor); the negated Hessian,
 * inverted in full (Gauss-Jordan), gives the variance of theta_i -
 * mean(theta) summed from every entry of the inverse. 9 players (more
 * than two groups of four and a remainder), uneven partners and a draw
 * now and then. */
static void test_sigma_matches_the_full_inverse(void **state)
{
    enum { N = 9, GAMES = 300 };
    rt_team_game g[GAMES];
    uint64_t x = 777;
    for (int k = 0; k < GAMES; k++) {
        int p[4];
        for (int u = 0; u < 4; u++) {
            int fresh;
            do {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                p[u] = (int)((x >> 33) % N);
                fresh = 1;
                for (int v = 0; v < u; v++)
                    fresh &= p[v] != p[u];
            } while (!fresh);
        }
        double s = (x >> 20) % 7 == 0 ? 0.5 : (p[0] + p[1] + (int)(x >> 40) % 5) > (p[2] + p[3]);
        g[k] = game(p[0], p[1], p[2], p[3], s);
    }
    double r[N], s[N], prior = 1;
    int iterations = 0;
    assert_int_equal(rt_team_fit(N, g, GAMES, prior, r, s, &iterations), RT_OK);
    assert_true(iterations <= 8);      /* as many as Newton's alone */
    /* theta = r / scale + c, where c puts the prior's gradient at zero
     * (the games' gradients sum to zero): sum logistic(theta_i) = N/2 */
    double scale = 400 / log(10), theta[N], lo = -5, hi = 5;
    for (int it = 0; it < 200; it++) {
        double c = (lo + hi) / 2, sum = 0;
        for (int i = 0; i < N; i++)
            sum += 1 / (1 + exp(-(r[i] / scale + c)));
        *(sum > N / 2.0 ? &hi : &lo) = c;
    }
    for (int i = 0; i < N; i++)
        theta[i] = r[i] / scale + (lo + hi) / 2;
    double h[N * N] = { 0 }, inv[N * N], grad[N] = { 0 };
    for (int k = 0; k < GAMES; k++) {
        int who[4] = { g[k].a[0], g[k].a[1], g[k].b[0], g[k].b[1] };
        double xs[4] = { 0.5, 0.5, -0.5, -0.5 }, d = 0;
        for (int u = 0; u < 4; u++)
            d += xs[u] * theta[who[u]];
        double p = 1 / (1 + exp(-d));
        for (int u = 0; u < 4; u++) {
            grad[who[u]] += xs[u] * (g[k].score_a - p);
            for (int v = 0; v < 4; v++)
                h[who[u] * N + who[v]] += p * (1 - p) * xs[u] * xs[v];
        }
    }
    for (int i = 0; i < N; i++) {
        double p = 1 / (1 + exp(-theta[i]));
        grad[i] += prior * (0.5 - p);
        h[i * N + i] += prior * p * (1 - p);
        assert_near(grad[i], 0, 1e-9);
    }
    gauss_jordan_inverse(N, h, inv);
    for (int i = 0; i < N; i++) {
        /* c = e_i - 1/N: c' S c */
        double var = 0;
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                var += ((j == i) - 1.0 / N) * inv[j * N + k] * ((k == i) - 1.0 / N);
        assert_near(s[i], sqrt(var) * scale, 1e-6 * s[i]);
    }
}

static void test_bad_arguments_are_refused(void **state)
{
    rt_team_game ok = game(0, 1, 2, 3, 1), bad_index = game(0, 1, 2, 4, 1);
    rt_team_game bad_score = game(0, 1, 2, 3, 1.5);
    double r[4], s[4];
    assert_int_equal(rt_team_fit(0, &ok, 1, 1, r, s, NULL), RT_ERR_ARG);
    assert_int_equal(rt_team_fit(4, &bad_index, 1, 1, r, s, NULL), RT_ERR_ARG);
    assert_int_equal(rt_team_fit(4, &bad_score, 1, 1, r, s, NULL), RT_ERR_ARG);
    assert_int_equal(rt_team_fit(4, &ok, 1, 0, r, s, NULL), RT_ERR_ARG);
    assert_int_equal(rt_team_fit(4, &ok, 1, 1, NULL, s, NULL), RT_ERR_ARG);
    /* No games at all: the prior alone, everyone at 0. */
    assert_int_equal(rt_team_fit(4, NULL, 0, 1, r, s, NULL), RT_OK);
    assert_near(r[3], 0, 1e-12);
}

int run_team_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symmetric_results_give_equal_ratings),
        cmocka_unit_test(test_fixed_split_splits_the_gap_evenly),
        cmocka_unit_test(test_doubled_players_reduce_to_two_player_bt),
        cmocka_unit_test(test_rotating_partners_recover_true_strengths),
        cmocka_unit_test(test_sigma_matches_the_full_inverse),
        cmocka_unit_test(test_bad_arguments_are_refused),
    };
    return cmocka_run_group_tests_name("team", tests, NULL, NULL);
}
