/*
 * sprt.c - sequential probability ratio test for "is A better than B".
 *
 * Used to stop a head-to-head match (e.g. a new bot against the current
 * champion) as soon as the evidence settles a question like "at least
 * +5 Elo, or not better than 0". The statistic is the generalized SPRT
 * that fishtest uses; see ratings.h for the model and its choices.
 *
 * Core: for a multinomial over score values x_k with observed counts n_k,
 * the most likely distribution with mean score s is
 *     p_k = phat_k / (1 + lambda (x_k - s)),
 * where lambda solves sum_k phat_k (x_k - s) / (1 + lambda (x_k - s)) = 0
 * (a Lagrange condition; the left side is strictly decreasing in lambda on
 * the interval where every denominator is positive, so the root is unique
 * and a safeguarded Newton/bisection finds it). Then
 *     log L(s) = sum n_k log phat_k - sum n_k log(1 + lambda (x_k - s)),
 * and the LLR of s1 against s0 is the difference of the last sums.
 */
#include "ratings.h"

#include <assert.h>
#include <math.h>

/* Count given to empty outcomes when the data cannot otherwise have the
 * hypothesised mean (fishtest uses the same value). */
#define EMPTY_CELL 1e-3

/* Root of the Lagrange condition for mean s; cnt[k] > 0 for all k given. */
static double solve_lambda(int m, const double *x, const double *cnt,
                           double total, double s)
{
    double a_min = INFINITY, a_max = -INFINITY;
    for (int k = 0; k < m; k++) {
        a_min = fmin(a_min, x[k] - s);
        a_max = fmax(a_max, x[k] - s);
    }
    assert(a_min < 0.0 && a_max > 0.0);
    /* lambda must keep 1 + lambda * a > 0 for every a in [a_min, a_max] */
    double lo = -1.0 / a_max, hi = -1.0 / a_min;
    double lambda = 0.0;
    for (int it = 0; it < 200; it++) {
        double f = 0.0, df = 0.0;
        for (int k = 0; k < m; k++) {
            double a = x[k] - s, q = 1.0 + lambda * a;
            f += cnt[k] / total * a / q;
            df -= cnt[k] / total * a * a / (q * q);
        }
        if (f > 0.0)
            lo = lambda;        /* f decreases: root lies above */
        else if (f < 0.0)
            hi = lambda;
        else
            return lambda;
        double next = lambda - f / df;
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - lambda) <= 1e-15 * (1.0 + fabs(lambda)))
            return next;
        lambda = next;
    }
    return lambda;
}

/* sum_k n_k log(1 + lambda(s) (x_k - s)): the log-likelihood lost by
 * forcing the mean to s. */
static double mean_constraint_cost(int m, const double *x, const double *cnt,
                                   double total, double s)
{
    double lambda = solve_lambda(m, x, cnt, total, s);
    double cost = 0.0;
    for (int k = 0; k < m; k++)
        cost += cnt[k] * log1p(lambda * (x[k] - s));
    return cost;
}

/* Does the support of the observed outcomes straddle s strictly? */
static int reachable(int m, const double *x, const double *cnt, double s)
{
    int below = 0, above = 0;
    for (int k = 0; k < m; k++) {
        if (cnt[k] > 0.0 && x[k] < s)
            below = 1;
        if (cnt[k] > 0.0 && x[k] > s)
            above = 1;
    }
    return below && above;
}

static double gsprt_llr(int m, const double *score, const long *counts,
                        double elo0, double elo1)
{
    assert(m <= 5);
    double x[5], cnt[5];
    double total = 0.0;
    for (int k = 0; k < m; k++) {
        if (counts[k] < 0)
            return NAN;
        total += (double)counts[k];
    }
    if (!isfinite(elo0) || !isfinite(elo1))
        return NAN;
    if (total == 0.0)
        return 0.0;

    double s0 = rt_elo_expected(elo0), s1 = rt_elo_expected(elo1);
    if (!(s0 > 0.0 && s0 < 1.0 && s1 > 0.0 && s1 < 1.0))
        return NAN;     /* |elo| beyond ~6000: no distribution has that mean */
    int regularize = 0;
    for (int k = 0; k < m; k++)
        cnt[k] = (double)counts[k];
    if (!reachable(m, score, cnt, s0) || !reachable(m, score, cnt, s1))
        regularize = 1;

    /* Keep only outcomes that carry a count: zero-count outcomes add
     * nothing to the LLR, and dropping them keeps lambda's interval as wide
     * as the data allow. */
    int used = 0;
    total = 0.0;
    for (int k = 0; k < m; k++) {
        double c = counts[k] > 0 ? (double)counts[k]
                                 : regularize ? EMPTY_CELL : 0.0;
        if (c > 0.0) {
            x[used] = score[k];
            cnt[used] = c;
            used++;
            total += c;
        }
    }
    return mean_constraint_cost(used, x, cnt, total, s0) -
           mean_constraint_cost(used, x, cnt, total, s1);
}

double rt_sprt_llr_trinomial(double elo0, double elo1,
                             long wins, long draws, long losses)
{
    static const double score[3] = {0.0, 0.5, 1.0};
    long counts[3] = {losses, draws, wins};
    return gsprt_llr(3, score, counts, elo0, elo1);
}

double rt_sprt_llr_pentanomial(double elo0, double elo1, const long pairs[5])
{
    /* a game pair's score, per game: 0, 1/4, ..., 1 */
    static const double score[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    if (!pairs)
        return NAN;
    return gsprt_llr(5, score, pairs, elo0, elo1);
}

double rt_sprt_lower_bound(double alpha, double beta)
{
    return log(beta / (1.0 - alpha));
}

double rt_sprt_upper_bound(double alpha, double beta)
{
    return log((1.0 - beta) / alpha);
}

rt_sprt_verdict rt_sprt_decide(double llr, double alpha, double beta)
{
    assert(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0);
    if (llr >= rt_sprt_upper_bound(alpha, beta))
        return RT_SPRT_ACCEPT_H1;
    if (llr <= rt_sprt_lower_bound(alpha, beta))
        return RT_SPRT_ACCEPT_H0;
    return RT_SPRT_CONTINUE;
}

static int check_params(const rt_sprt_params *p, const rt_sprt_result *out)
{
    if (!p || !out)
        return 0;
    /* alpha + beta < 1 is exactly what puts lower < 0 < upper */
    return isfinite(p->elo0) && isfinite(p->elo1) && p->elo0 < p->elo1 &&
           p->alpha > 0.0 && p->beta > 0.0 && p->alpha + p->beta < 1.0;
}

static int finish(const rt_sprt_params *p, double llr, rt_sprt_result *out)
{
    if (isnan(llr))
        return RT_ERR_ARG;
    out->llr = llr;
    out->lower = rt_sprt_lower_bound(p->alpha, p->beta);
    out->upper = rt_sprt_upper_bound(p->alpha, p->beta);
    out->verdict = rt_sprt_decide(llr, p->alpha, p->beta);
    return RT_OK;
}

int rt_sprt_trinomial(const rt_sprt_params *p, long wins, long draws,
                      long losses, rt_sprt_result *out)
{
    if (!check_params(p, out))
        return RT_ERR_ARG;
    return finish(p, rt_sprt_llr_trinomial(p->elo0, p->elo1, wins, draws,
                                           losses), out);
}

int rt_sprt_pentanomial(const rt_sprt_params *p, const long pairs[5],
                        rt_sprt_result *out)
{
    if (!check_params(p, out))
        return RT_ERR_ARG;
    return finish(p, rt_sprt_llr_pentanomial(p->elo0, p->elo1, pairs), out);
}
