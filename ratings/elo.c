/*
 * elo.c - the logistic Elo curve, the incremental Elo update (of two
 * players, and of one match of any number of seats and teams), and the
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

/* Each seat's team as an index 0..n-1 in the order of the teams' first
 * seats; returns the number of teams. */
static int number_teams(int seats, const int *team, int *idx)
{
    int n = 0;
    for (int i = 0; i < seats; i++) {
        idx[i] = n;
        for (int j = 0; j < i; j++)
            if (team[j] == team[i]) {
                idx[i] = idx[j];
                break;
            }
        if (idx[i] == n)
            n++;
    }
    return n;
}

/* What both rt_elo_match and rt_match_games ask of a match (rating may
 * be NULL: not checked). */
static int match_ok(int seats, const int *team, const int *player,
                    const double *score, const double *rating)
{
    if (seats < 2 || seats > RT_ELO_MAX_SEATS || !team || !player || !score)
        return 0;
    int two_teams = 0;
    for (int i = 0; i < seats; i++) {
        if (team[i] < 0 || !(score[i] >= 0.0 && score[i] <= 1.0))
            return 0;
        for (int j = 0; j < i; j++)
            if ((team[j] == team[i] && score[j] != score[i]) ||
                (rating && player[j] == player[i] && rating[j] != rating[i]))
                return 0;
        two_teams |= team[i] != team[0];
    }
    return two_teams;
}

/* Seat a's result against seat b: 1, 0.5 or 0. */
static double versus(double score_a, double score_b)
{
    return score_a > score_b ? 1.0 : score_a < score_b ? 0.0 : 0.5;
}

int rt_match_games(int seats, const int *team, const int *player,
                   const double *score, rt_game *out)
{
    if (!match_ok(seats, team, player, score, NULL) || !out)
        return RT_ERR_ARG;
    int n = 0;
    for (int i = 0; i < seats; i++)
        for (int j = i + 1; j < seats; j++)
            if (team[i] != team[j] && player[i] != player[j])
                out[n++] = (rt_game){ player[i], player[j], versus(score[i], score[j]) };
    return n;
}

int rt_elo_match(int seats, const int *team, const int *player,
                 const double *score, double k, double *rating)
{
    if (!match_ok(seats, team, player, score, rating) || !rating || !isfinite(k) || k < 0.0)
        return RT_ERR_ARG;
    int idx[RT_ELO_MAX_SEATS], first[RT_ELO_MAX_SEATS], members[RT_ELO_MAX_SEATS] = {0};
    double mean[RT_ELO_MAX_SEATS] = {0}, delta[RT_ELO_MAX_SEATS] = {0};
    int nteams = number_teams(seats, team, idx);
    assert(nteams >= 2);        /* match_ok */
    /* Summed in seat order: a team of one has exactly its player's rating. */
    for (int i = 0; i < seats; i++) {
        if (members[idx[i]]++ == 0)
            first[idx[i]] = i;
        mean[idx[i]] += rating[i];
    }
    for (int t = 0; t < nteams; t++)
        mean[t] /= members[t];
    /* One delta per pair of teams, added to one and taken from the other:
     * the two teams' changes are exact negatives, as in rt_elo_update. */
    double kk = k / (nteams - 1);
    for (int a = 0; a < nteams; a++)
        for (int b = a + 1; b < nteams; b++) {
            double s = versus(score[first[a]], score[first[b]]);
            double d = rt_elo_delta(mean[a], mean[b], s, kk);
            delta[a] += d;
            delta[b] -= d;
        }
    for (int i = 0; i < seats; i++)
        for (int j = 0; j < seats; j++)
            if (player[j] == player[i])
                rating[j] += delta[idx[i]];
    return RT_OK;
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
