/*
 * ratings_bench.c - times the Bradley-Terry fit at arena scale.
 *
 * Generates 1,000,000 games among 1,000 bots (fixed seed; true strengths
 * drawn from Normal(0, 200 Elo); every game between a uniformly random
 * pair), aggregates them into pairs, fits, and reports the fit time, peak
 * resident memory, iteration counts, the correlation between fitted and
 * true ratings, and how often the true rating fell inside the reported 95%
 * interval (which should be close to 95% if the sigmas are honest; it is
 * 94.5-95.8% over seeds 1-3 and the default, and was 98.2% before the fit
 * scaled its variances by the dispersion the draws leave).
 *
 * Outcomes: with p the logistic expected score, a draw happens with
 * probability 0.3 * 4p(1-p) and the rest is split so the expected score is
 * exactly p, matching the fit's draws-count-half model.
 *
 * With "team" for the mode, the games are 2 v 2 instead (four distinct
 * bots drawn at random, a team as strong as its players' mean, no draws)
 * and the fit is rt_team_fit's (dense Newton, exact sigmas): the 2 v 2
 * table of `arena standings`. 100,000 games among 1,000 bots is that
 * table's size in the reports' benchmark file (docs/PERFORMANCE.md).
 *
 * Usage: ratings_bench [bots] [games] [seed] [exact|diagonal|auto|team]
 */
#define _POSIX_C_SOURCE 200809L
#include "ratings.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* splitmix64: tiny, fast, and the same sequence on every platform */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* uniform in [0, 1) with 53 random bits */
static double next_unit(uint64_t *s)
{
    return (double)(next_u64(s) >> 11) * 0x1.0p-53;
}

static double next_normal(uint64_t *s)
{
    /* Box-Muller; 1 - u keeps the log argument away from 0 */
    double u = 1.0 - next_unit(s), v = next_unit(s);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "ratings_bench: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

/* The 2 v 2 fit on `games` random games among `bots` (see the top). */
static int team_bench(int bots, size_t games, uint64_t seed)
{
    if (bots < 4)
        return fprintf(stderr, "ratings_bench: team needs 4 bots or more\n"), 2;
    double *truth = xmalloc((size_t)bots * sizeof *truth);
    for (int i = 0; i < bots; i++)
        truth[i] = 200.0 * next_normal(&seed);
    rt_team_game *g = xmalloc(games * sizeof *g);
    for (size_t k = 0; k < games; k++) {
        int p[4];
        for (int u = 0; u < 4; u++) {
            int fresh;
            do {
                p[u] = (int)(next_u64(&seed) % (uint64_t)bots);
                fresh = 1;
                for (int v = 0; v < u; v++)
                    fresh &= p[v] != p[u];
            } while (!fresh);
        }
        double d = (truth[p[0]] + truth[p[1]] - truth[p[2]] - truth[p[3]]) / 2;
        double s = next_unit(&seed) < rt_elo_expected(d) ? 1.0 : 0.0;
        g[k] = (rt_team_game){ { p[0], p[1] }, { p[2], p[3] }, s };
    }
    double *rating = xmalloc((size_t)bots * sizeof *rating);
    double *sigma = xmalloc((size_t)bots * sizeof *sigma);
    int iterations = 0;
    double t0 = seconds_now();
    int rc = rt_team_fit(bots, g, games, 1.0, rating, sigma, &iterations);
    double t_fit = seconds_now() - t0;
    double mt = 0, sum_sigma = 0;
    int inside = 0;
    for (int i = 0; i < bots; i++)
        mt += truth[i] / bots;
    for (int i = 0; i < bots; i++) {
        sum_sigma += sigma[i];
        inside += fabs(rating[i] - (truth[i] - mt)) <= RT_Z95 * sigma[i];
    }
    printf("bots               %d\n", bots);
    printf("team games         %zu\n", games);
    printf("fit time           %.3f s%s\n", t_fit, rc == RT_OK ? "" : " (not converged)");
    printf("peak memory        %.1f MiB (ru_maxrss)\n", peak_mib());
    printf("newton steps       %d\n", iterations);
    printf("mean sigma         %.2f Elo\n", sum_sigma / bots);
    printf("95%% CI coverage    %.1f%%\n", 100.0 * inside / bots);
    free(truth);
    free(g);
    free(rating);
    free(sigma);
    return rc < 0;
}

int main(int argc, char **argv)
{
    int bots = argc > 1 ? atoi(argv[1]) : 1000;
    size_t games = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 1000000;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 20240601;
    const char *mode = argc > 4 ? argv[4] : "auto";
    if (!strcmp(mode, "team"))
        return team_bench(bots, games, seed);
    int sigma_mode = !strcmp(mode, "exact")      ? RT_BT_SIGMA_EXACT
                     : !strcmp(mode, "diagonal") ? RT_BT_SIGMA_DIAGONAL
                     : !strcmp(mode, "auto")     ? RT_BT_SIGMA_AUTO
                                                 : -1;
    if (bots < 2 || games == 0 || sigma_mode < 0) {
        fprintf(stderr, "usage: ratings_bench [bots>=2] [games>0] [seed] "
                        "[exact|diagonal|auto|team]\n");
        return 2;
    }

    double *truth = xmalloc((size_t)bots * sizeof *truth);
    for (int i = 0; i < bots; i++)
        truth[i] = 200.0 * next_normal(&seed);

    rt_game *g = xmalloc(games * sizeof *g);
    for (size_t k = 0; k < games; k++) {
        int a = (int)(next_u64(&seed) % (uint64_t)bots), b;
        do
            b = (int)(next_u64(&seed) % (uint64_t)bots);
        while (b == a);
        double p = rt_elo_expected(truth[a] - truth[b]);
        double draw = 0.3 * 4.0 * p * (1.0 - p);
        double u = next_unit(&seed);
        g[k] = (rt_game){a, b, u < p - draw / 2 ? 1.0
                               : u < p + draw / 2 ? 0.5 : 0.0};
    }

    double t0 = seconds_now();
    size_t agg_bytes = rt_aggregate_workspace_size(bots, games);
    void *agg_work = xmalloc(agg_bytes);
    rt_pair *pairs = xmalloc(games * sizeof *pairs);
    size_t n_pairs = 0;
    if (rt_aggregate_games(bots, g, games, agg_work, agg_bytes, pairs,
                           &n_pairs) != RT_OK) {
        fprintf(stderr, "ratings_bench: aggregation failed\n");
        free(agg_work);
        free(pairs);
        free(truth);
        free(g);
        return 1;
    }
    free(agg_work);
    double t_agg = seconds_now() - t0;

    double *rating = xmalloc((size_t)bots * sizeof *rating);
    double *sigma = xmalloc((size_t)bots * sizeof *sigma);
    rt_bt_options opt;
    rt_bt_default_options(&opt);
    opt.sigma_mode = sigma_mode;
    size_t fit_bytes = rt_bt_workspace_size(bots, n_pairs, &opt);
    void *fit_work = xmalloc(fit_bytes);
    rt_bt_info info;
    int status = 0;
    t0 = seconds_now();
    int rc = rt_bt_fit(bots, pairs, n_pairs, &opt, fit_work, fit_bytes,
                       rating, sigma, &info);
    double t_fit = seconds_now() - t0;
    if (rc < 0) {
        fprintf(stderr, "ratings_bench: fit failed (%d)\n", rc);
        status = 1;
        goto done;
    }

    /* truth re-centred on its own mean, as the fit is */
    double mt = 0, mr = 0;
    for (int i = 0; i < bots; i++) {
        mt += truth[i];
        mr += rating[i];
    }
    mt /= bots;
    mr /= bots;
    double sxy = 0, sxx = 0, syy = 0, sum_sigma = 0;
    int inside = 0;
    for (int i = 0; i < bots; i++) {
        double x = truth[i] - mt, y = rating[i] - mr;
        sxy += x * y;
        sxx += x * x;
        syy += y * y;
        sum_sigma += sigma[i];
        inside += fabs(rating[i] - x) <= RT_Z95 * sigma[i];
    }

    printf("bots               %d\n", bots);
    printf("games              %zu\n", games);
    printf("distinct pairs     %zu\n", n_pairs);
    printf("aggregate time     %.3f s\n", t_agg);
    printf("fit time           %.3f s\n", t_fit);
    printf("fit workspace      %.1f MiB\n", fit_bytes / 1048576.0);
    printf("peak memory        %.1f MiB (ru_maxrss)\n", peak_mib());
    printf("mm iterations      %d\n", info.iterations);
    printf("newton steps       %d\n", info.newton_steps);
    printf("sigma mode         %s\n",
           info.sigma_mode == RT_BT_SIGMA_EXACT ? "exact" : "diagonal");
    printf("final residual     %.3g Elo%s\n", info.residual,
           rc == RT_OK ? "" : " (not converged)");
    printf("correlation        %.6f\n", sxy / sqrt(sxx * syy));
    printf("mean sigma         %.2f Elo\n", sum_sigma / bots);
    printf("dispersion         %.4f (variances scaled for draws)\n", info.dispersion);
    printf("95%% CI coverage    %.1f%%\n", 100.0 * inside / bots);

done:
    free(truth);
    free(g);
    free(pairs);
    free(rating);
    free(sigma);
    free(fit_work);
    return status;
}
