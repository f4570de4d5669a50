/*
 * team.c - a Bradley-Terry fit on team strengths (ratings.h): per-player
 * ratings from 2-versus-2 results, where a team is as strong as the mean
 * of its two players.
 *
 * In natural units (theta = Elo * ln10 / 400) a game's log-likelihood is
 * s log p + (1 - s) log(1 - p) with p = logistic(x . theta), x holding +1/2
 * for team A's players and -1/2 for team B's. The gradient is
 * sum x (s - p); the Hessian, -sum p (1 - p) x x^T, plus the prior's
 * diagonal. Full Newton steps with backtracking on the log-likelihood.
 *
 * Far from the fit (a step above CG_UNTIL) the Newton step is solved by
 * conjugate gradients on products with the Hessian, game by game, with
 * no matrix: O(games) a product where a factorisation is O(n^3). Close
 * to it, by the Cholesky factor, whose last one also gives the sigmas;
 * so at 1000 players the fit factors twice instead of six times and ends
 * where the same Newton iteration ends (a step below STEP_TOL).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dense.h"
#include "ratings.h"

#define MAX_NEWTON 100
#define STEP_TOL 1e-10
/* a step above this is followed by one solved by conjugate gradients */
#define CG_UNTIL 1e-2
/* conjugate gradients stop at this residual relative to the gradient */
#define CG_TOL 1e-3
#define CG_MAX 200

static double logistic(double x)
{
    return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
}

/* log(logistic(x)), without overflow. */
static double log_logistic(double x)
{
    return x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

/* x . theta for one game: the difference of the team means. */
static double margin(const rt_team_game *g, const double *theta)
{
    return (theta[g->a[0]] + theta[g->a[1]] - theta[g->b[0]] - theta[g->b[1]]) / 2;
}

static double log_likelihood(int n, const rt_team_game *games, size_t ng, double prior,
                             const double *theta)
{
    double ll = 0;
    for (size_t k = 0; k < ng; k++) {
        double d = margin(&games[k], theta), s = games[k].score_a;
        ll += s * log_logistic(d) + (1 - s) * log_logistic(-d);
    }
    for (int i = 0; i < n; i++)
        ll += prior * (0.5 * log_logistic(theta[i]) + 0.5 * log_logistic(-theta[i]));
    return ll;
}

/* The gradient into g and the negated Hessian (lower triangle) into h,
 * unless h is NULL. */
static void derivatives(int n, const rt_team_game *games, size_t ng, double prior,
                        const double *theta, double *g, double *h)
{
    memset(g, 0, (size_t)n * sizeof *g);
    if (h)
        memset(h, 0, (size_t)n * (size_t)n * sizeof *h);
    for (size_t k = 0; k < ng; k++) {
        const rt_team_game *gm = &games[k];
        double p = logistic(margin(gm, theta)), w = p * (1 - p);
        int who[4] = { gm->a[0], gm->a[1], gm->b[0], gm->b[1] };
        double x[4] = { 0.5, 0.5, -0.5, -0.5 };
        for (int u = 0; u < 4; u++) {
            g[who[u]] += x[u] * (gm->score_a - p);
            for (int v = 0; h && v < 4; v++) {
                int i = who[u], j = who[v];
                if (j <= i)     /* each (u, v) once into the lower triangle */
                    h[i * n + j] += w * x[u] * x[v];
            }
        }
    }
    for (int i = 0; i < n; i++) {
        double p = logistic(theta[i]);
        g[i] += prior * (0.5 - p);
        if (h)
            h[i * n + i] += prior * p * (1 - p);
    }
}

/* The weight p (1 - p) of every game at theta into w, the prior's part
 * of the negated Hessian (diagonal) into prior_w and the whole diagonal
 * into d. */
static void weights(int n, const rt_team_game *games, size_t ng, double prior,
                    const double *theta, double *w, double *prior_w, double *d)
{
    for (int i = 0; i < n; i++) {
        double p = logistic(theta[i]);
        prior_w[i] = d[i] = prior * p * (1 - p);
    }
    for (size_t k = 0; k < ng; k++) {
        const rt_team_game *gm = &games[k];
        double p = logistic(margin(gm, theta));
        w[k] = p * (1 - p);
        d[gm->a[0]] += w[k] / 4;
        d[gm->a[1]] += w[k] / 4;
        d[gm->b[0]] += w[k] / 4;
        d[gm->b[1]] += w[k] / 4;
    }
}

/* out = H v without H: sum w x (x . v) over the games, x = +-1/2, plus
 * the prior's diagonal. */
static void hessian_times(int n, const rt_team_game *games, size_t ng, const double *w,
                          const double *prior_w, const double *v, double *out)
{
    for (int i = 0; i < n; i++)
        out[i] = prior_w[i] * v[i];
    for (size_t k = 0; k < ng; k++) {
        const rt_team_game *gm = &games[k];
        double t = w[k] * margin(gm, v) / 2;
        out[gm->a[0]] += t;
        out[gm->a[1]] += t;
        out[gm->b[0]] -= t;
        out[gm->b[1]] -= t;
    }
}

static double dot(int n, const double *x, const double *y)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* The Newton step H s = g by conjugate gradients preconditioned by H's
 * diagonal, to a residual CG_TOL of g's, into s. w: ng doubles of
 * scratch, v: 6 n. Every iterate ascends (CG from 0 on a positive
 * definite H), so a stop at CG_MAX still gives the line search a
 * direction. */
static void cg_step(int n, const rt_team_game *games, size_t ng, double prior,
                    const double *theta, const double *g, double *s, double *w, double *v)
{
    double *d = v, *prior_w = d + n, *r = prior_w + n, *z = r + n, *p = z + n, *q = p + n;
    weights(n, games, ng, prior, theta, w, prior_w, d);
    for (int i = 0; i < n; i++) {
        s[i] = 0;
        r[i] = g[i];
        p[i] = z[i] = r[i] / d[i];
    }
    double rz = dot(n, r, z), stop = CG_TOL * CG_TOL * dot(n, g, g);
    for (int it = 0; it < CG_MAX && dot(n, r, r) > stop; it++) {
        hessian_times(n, games, ng, w, prior_w, p, q);
        double alpha = rz / dot(n, p, q);
        for (int i = 0; i < n; i++) {
            s[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            z[i] = r[i] / d[i];
        }
        double next = dot(n, r, z), beta = next / rz;
        rz = next;
        for (int i = 0; i < n; i++)
            p[i] = z[i] + beta * p[i];
    }
}

/* sigma[i] in Elo of theta_i - mean(theta), from the Cholesky factor l of
 * the negated Hessian: with S its inverse, Var = S_ii - 2/n (S 1)_i +
 * 1'S1 / n^2. The diagonal of S comes from the factor in one pass, S 1
 * from one solve (u, tmp: n and 4 n doubles of scratch): n^3/6
 * multiply-adds where a solve per player took n^3. */
static void mean_anchored_sigma(int n, const double *l, double *u, double *tmp,
                                double *sigma)
{
    rt_dense_inverse_diagonal(n, l, sigma, tmp);
    for (int i = 0; i < n; i++)
        u[i] = 1;
    rt_dense_solve(n, l, u);
    double total = 0, scale = 400 / log(10);
    for (int i = 0; i < n; i++)
        total += u[i];
    for (int i = 0; i < n; i++) {
        double v = sigma[i] - 2 * u[i] / n + total / ((double)n * n);
        sigma[i] = sqrt(fmax(v, 0)) * scale;
    }
}

int rt_team_fit(int n, const rt_team_game *games, size_t ng, double prior,
                double *rating, double *sigma, int *iterations)
{
    if (n < 1 || (ng && !games) || !rating || !(prior > 0) || !isfinite(prior))
        return RT_ERR_ARG;
    for (size_t k = 0; k < ng; k++) {
        const rt_team_game *g = &games[k];
        for (int u = 0; u < 2; u++)
            if (g->a[u] < 0 || g->a[u] >= n || g->b[u] < 0 || g->b[u] >= n)
                return RT_ERR_ARG;
        if (!(g->score_a >= 0 && g->score_a <= 1))
            return RT_ERR_ARG;
    }
    size_t nn = (size_t)n * (size_t)n;
    double *mem = malloc((nn + 8 * (size_t)n) * sizeof *mem);
    if (!mem)
        return RT_ERR_WORKSPACE;
    /* tmp: the inverse diagonal's 4 n doubles of scratch */
    double *h = mem, *theta = h + nn, *g = theta + n, *step = g + n, *trial = step + n,
           *tmp = trial + n;
    /* conjugate gradients' scratch: a weight a game and six vectors */
    double *cg = malloc((ng + 6 * (size_t)n) * sizeof *cg);
    if (!cg) {
        free(mem);
        return RT_ERR_WORKSPACE;
    }
    memset(theta, 0, (size_t)n * sizeof *theta);
    int rc = RT_NOT_CONVERGED, it, factored = 0;
    double ll = log_likelihood(n, games, ng, prior, theta), last = INFINITY;
    for (it = 1; it <= MAX_NEWTON; it++) {
        /* derivatives() leaves the gradient in g either way */
        factored = !(last > CG_UNTIL);
        derivatives(n, games, ng, prior, theta, g, factored ? h : NULL);
        if (!factored) {
            cg_step(n, games, ng, prior, theta, g, step, cg, cg + ng);
        } else if (rt_dense_cholesky(n, h) < 0) {
            rc = RT_ERR_NUMERIC;
            break;
        } else {
            memcpy(step, g, (size_t)n * sizeof *step);
            rt_dense_solve(n, h, step);
        }
        /* Halve until the likelihood does not fall: a concave objective
         * makes this rare, but it keeps the iteration monotone. */
        double t = 1, next = ll, biggest = 0;
        for (int halvings = 0; halvings < 40; halvings++, t /= 2) {
            for (int i = 0; i < n; i++)
                trial[i] = theta[i] + t * step[i];
            next = log_likelihood(n, games, ng, prior, trial);
            if (next >= ll - 1e-12 * fabs(ll))
                break;
        }
        for (int i = 0; i < n; i++) {
            biggest = fmax(biggest, fabs(trial[i] - theta[i]));
            theta[i] = trial[i];
        }
        ll = next;
        last = biggest;
        if (biggest < STEP_TOL && factored) {
            rc = RT_OK;
            break;
        }
    }
    if (iterations)
        *iterations = it > MAX_NEWTON ? MAX_NEWTON : it;
    double scale = 400 / log(10), mean = 0;
    for (int i = 0; i < n; i++)
        mean += theta[i] / n;
    for (int i = 0; i < n; i++)
        rating[i] = (theta[i] - mean) * scale;
    /* The factor of the last Newton step is the negated Hessian's at the
     * fit, but for a step below STEP_TOL (a change of its entries of
     * that order relative, far below what sigma is printed to). */
    if (sigma && rc >= 0 && !factored) {   /* MAX_NEWTON steps, none near */
        derivatives(n, games, ng, prior, theta, g, h);
        if (rt_dense_cholesky(n, h) < 0)
            rc = RT_ERR_NUMERIC;
    }
    if (sigma && rc >= 0)
        mean_anchored_sigma(n, h, step, tmp, sigma);
    free(cg);
    free(mem);
    return rc;
}
