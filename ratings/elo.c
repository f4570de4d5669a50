/*
 * elo.c - the logistic Elo curve, the incremental Elo update, and the
 * likelihood-of-superiority summary used on fitted ratings.
 *
 * These are the small building blocks: the BT fit (bt.c) and the SPRT
 * (sprt.c) use the same 400*log10 scale defined here, so a number printed
 * anywhere in the arena means the same thing.
 */
#include "ratings.h"

#include <assert.h>
#include <math.h>

double rt_elo_expected(double diff)
{
    /* 10^(-d/400) overflows only beyond |d| ~ 123000, where the answer is
     * 0 or 1 to double precision anyway, so no special casing is needed. */
    return 1.0 / (1.0 + pow(10.0, -diff / 400.0));
}

double rt_elo_from_score(double score)
{
    assert(score >= 0.0 && score <= 1.0);
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return 400.0 * log10(score / (1.0 - score));
}

double rt_elo_delta(double rating_a, double rating_b, double score_a,
                    double k)
{
    assert(score_a >= 0.0 && score_a <= 1.0);
    assert(k >= 0.0);
    return k * (score_a - rt_elo_expected(rating_a - rating_b));
}

void rt_elo_update(double *rating_a, double *rating_b, double score_a,
                   double k)
{
    assert(rating_a && rating_b && rating_a != rating_b);
    double d = rt_elo_delta(*rating_a, *rating_b, score_a, k);
    *rating_a += d;
    *rating_b -= d;
}

double rt_normal_cdf(double x)
{
    /* erfc keeps full relative precision in the lower tail, where
     * 0.5 * (1 + erf(...)) would cancel to 0 long before the true value. */
    return 0.5 * erfc(-x / sqrt(2.0));
}

double rt_los(double r_i, double sigma_i, double r_j, double sigma_j)
{
    assert(sigma_i >= 0.0 && sigma_j >= 0.0);
    double d = r_i - r_j;
    double s = sqrt(sigma_i * sigma_i + sigma_j * sigma_j);
    if (s == 0.0)
        return d > 0.0 ? 1.0 : d < 0.0 ? 0.0 : 0.5;
    return rt_normal_cdf(d / s);
}

void rt_los_matrix(int n, const double *rating, const double *sigma,
                   double *out)
{
    assert(n >= 0);
    assert(n == 0 || (rating && sigma && out));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            out[(size_t)i * (size_t)n + (size_t)j] =
                rt_los(rating[i], sigma[i], rating[j], sigma[j]);
}
