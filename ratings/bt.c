/*
 * bt.c - Bradley-Terry maximum-likelihood ratings over a whole result set.
 *
 * This is the arena's leaderboard: where Elo updates (elo.c) depend on the
 * order games were played, the BT fit uses every result at once and gives
 * each rating a standard error. The model, prior, method and error
 * estimates are documented at rt_bt_fit in ratings.h; this file follows it.
 *
 * Flow: validate -> build a per-player adjacency list (CSR) from the pairs
 * -> cyclic MM sweeps in gamma = exp(theta) space -> (EXACT) assemble the
 * information matrix, Newton-polish and reuse its Cholesky factor for the
 * standard errors, or (DIAGONAL) take 1/H_ii -> anchor and scale to Elo.
 */
#include "ratings.h"
#include "dense.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Elo per natural-log unit of strength: 400 / ln(10). */
#define ELO_PER_NAT 173.71779276130073

/* With EXACT, MM only warms up for Newton. A well-mixed pool converges in
 * a few dozen sweeps and never reaches this; a chain-like pool would need
 * 10^5 and more, where three Newton steps finish from wherever MM got. */
#define EXACT_MM_SWEEPS 100


void rt_bt_default_options(rt_bt_options *opt)
{
    assert(opt);
    opt->prior_draws = 1.0;
    opt->anchor = 0.0;
    opt->anchor_player = -1;
    opt->tolerance = 1e-6;
    opt->max_iterations = 100000;
    opt->max_newton = 20;
    opt->sigma_mode = RT_BT_SIGMA_AUTO;
    opt->dispersion = 1;
    opt->start = NULL;
}

static int resolve_mode(int n_players, int mode)
{
    if (mode == RT_BT_SIGMA_AUTO)
        return n_players <= RT_BT_EXACT_MAX_PLAYERS ? RT_BT_SIGMA_EXACT
                                                    : RT_BT_SIGMA_DIAGONAL;
    return mode;
}

/* ---- workspace ---------------------------------------------------------- */

/* Everything the fit needs, carved out of one block. Doubles come first so
 * every array is naturally aligned whatever the sizes. */
typedef struct {
    double *gamma;      /* [n] exp(theta), the MM variable */
    double *theta;      /* [n] */
    double *target;     /* [n] actual score + prior/2 */
    double *games;      /* [n] games played + prior */
    double *vec;        /* [n] gradient / solve right-hand side */
    double *trial;      /* [n] line-search point */
    double *tmp;        /* [4n] scratch for the inverse diagonal */
    double *adj_games;  /* [2P] games on each half-edge */
    double *hess;       /* [n*n] or NULL */
    size_t *adj_off;    /* [n+1] CSR row starts */
    int *adj_opp;       /* [2P] opponent on each half-edge */
    unsigned char *reach; /* [2n] reachability marks (prior 0 only) */
} workspace;

/* n-sized double arrays in the block: six vectors plus tmp's four */
#define N_VECTORS 10

/* Bytes for the layout below, or SIZE_MAX if that overflows size_t. */
static size_t workspace_bytes(int n_players, size_t n_pairs, int mode)
{
    size_t n = (size_t)n_players;
    if (n_pairs > SIZE_MAX / 64 || n > SIZE_MAX / 64)
        return SIZE_MAX;
    size_t n_sq = 0;
    if (mode == RT_BT_SIGMA_EXACT) {
        if (n != 0 && n > SIZE_MAX / 16 / n)
            return SIZE_MAX;
        n_sq = n * n;
    }
    size_t doubles = N_VECTORS * n + 2 * n_pairs + n_sq;
    return doubles * sizeof(double) + (n + 1) * sizeof(size_t) +
           2 * n_pairs * sizeof(int) + 2 * n;
}

/* Carves a block of workspace_bytes() bytes into the arrays. */
static void workspace_carve(int n_players, size_t n_pairs, int mode,
                            void *base, workspace *w)
{
    size_t n = (size_t)n_players;
    size_t n_sq = mode == RT_BT_SIGMA_EXACT ? n * n : 0;
    double *d = base;
    w->gamma = d;
    w->theta = d + n;
    w->target = d + 2 * n;
    w->vec = d + 3 * n;
    w->trial = d + 4 * n;
    w->games = d + 5 * n;
    w->tmp = d + 6 * n;
    w->adj_games = d + N_VECTORS * n;
    w->hess = n_sq ? w->adj_games + 2 * n_pairs : NULL;
    /* One malloc'd block carved into arrays of several types: each part is
     * only ever accessed as the type it is carved as. */
    // cppcheck-suppress invalidPointerCast
    w->adj_off = (size_t *)(w->adj_games + 2 * n_pairs + n_sq);
    w->adj_opp = (int *)(w->adj_off + n + 1);
    w->reach = (unsigned char *)(w->adj_opp + 2 * n_pairs);
}

size_t rt_bt_workspace_size(int n_players, size_t n_pairs,
                            const rt_bt_options *opt)
{
    rt_bt_options def;
    if (!opt) {
        rt_bt_default_options(&def);
        opt = &def;
    }
    if (n_players < 0)
        return 0;
    return workspace_bytes(n_players, n_pairs,
                           resolve_mode(n_players, opt->sigma_mode));
}

/* ---- setup -------------------------------------------------------------- */

static int validate(int n_players, const rt_pair *pairs, size_t n_pairs,
                    const rt_bt_options *opt)
{
    if (n_players < 0 || (n_pairs > 0 && !pairs))
        return RT_ERR_ARG;
    if (!(opt->prior_draws >= 0.0) || !isfinite(opt->prior_draws) ||
        !(opt->tolerance > 0.0) || !isfinite(opt->anchor) ||
        opt->max_iterations < 0 || opt->max_newton < 0 ||
        opt->anchor_player < -1 || opt->anchor_player >= n_players ||
        opt->sigma_mode < RT_BT_SIGMA_AUTO ||
        opt->sigma_mode > RT_BT_SIGMA_NONE)
        return RT_ERR_ARG;
    for (int i = 0; opt->start && i < n_players; i++)
        if (!(fabs(opt->start[i]) <= RT_BT_MAX_START))
            return RT_ERR_ARG;
    for (size_t k = 0; k < n_pairs; k++) {
        const rt_pair *p = &pairs[k];
        if (p->i < 0 || p->i >= n_players || p->j < 0 ||
            p->j >= n_players || p->i == p->j || p->wins_i < 0 ||
            p->draws < 0 || p->wins_j < 0)
            return RT_ERR_ARG;
    }
    return RT_OK;
}

static double pair_games(const rt_pair *p)
{
    return (double)p->wins_i + (double)p->draws + (double)p->wins_j;
}

/* Builds the CSR adjacency (one half-edge per pair and direction, pairs
 * without games dropped) and each player's score and game totals. */
static void build_graph(int n, const rt_pair *pairs, size_t n_pairs,
                        double prior, workspace *w)
{
    size_t *off = w->adj_off;
    for (int p = 0; p <= n; p++)
        off[p] = 0;
    for (int p = 0; p < n; p++) {
        w->target[p] = 0.5 * prior;
        w->games[p] = prior;
    }
    for (size_t k = 0; k < n_pairs; k++) {
        const rt_pair *p = &pairs[k];
        if (pair_games(p) == 0.0)
            continue;
        off[p->i + 1]++;
        off[p->j + 1]++;
        w->target[p->i] += (double)p->wins_i + 0.5 * (double)p->draws;
        w->target[p->j] += (double)p->wins_j + 0.5 * (double)p->draws;
        w->games[p->i] += pair_games(p);
        w->games[p->j] += pair_games(p);
    }
    for (int p = 0; p < n; p++)
        off[p + 1] += off[p];
    /* fill using off[] as cursors, which leaves off[p] at the start of
     * p + 1; shifting by one restores the row starts */
    for (size_t k = 0; k < n_pairs; k++) {
        const rt_pair *p = &pairs[k];
        double g = pair_games(p);
        if (g == 0.0)
            continue;
        size_t a = off[p->i]++, b = off[p->j]++;
        w->adj_opp[a] = p->j;
        w->adj_games[a] = g;
        w->adj_opp[b] = p->i;
        w->adj_games[b] = g;
    }
    for (int p = n; p > 0; p--)
        off[p] = off[p - 1];
    off[0] = 0;
}

static int mark(int edge, const unsigned char *from, unsigned char *to)
{
    if (!edge || !*from || *to)
        return 0;
    *to = 1;
    return 1;
}

/* One propagation sweep over the pairs. fwd[x]: player 0 reaches x along
 * "scored against" edges; bwd[x]: x reaches player 0. */
static int propagate(const rt_pair *pairs, size_t n_pairs, int reverse,
                     unsigned char *fwd, unsigned char *bwd)
{
    int changed = 0;
    for (size_t t = 0; t < n_pairs; t++) {
        const rt_pair *p = &pairs[reverse ? n_pairs - 1 - t : t];
        int i_scored = p->wins_i + p->draws > 0;
        int j_scored = p->wins_j + p->draws > 0;
        changed |= mark(i_scored, &fwd[p->i], &fwd[p->j]);
        changed |= mark(j_scored, &fwd[p->j], &fwd[p->i]);
        changed |= mark(i_scored, &bwd[p->j], &bwd[p->i]);
        changed |= mark(j_scored, &bwd[p->i], &bwd[p->j]);
    }
    return changed;
}

/* Zermelo/Ford: without a prior, the ML ratings are finite iff the graph
 * "i scored against j" is strongly connected. Sweeps alternate direction so
 * a chain listed in either order resolves in a couple of passes; the worst
 * case is O(pairs * players), paid only when prior_draws == 0. */
static int strongly_connected(int n, const rt_pair *pairs, size_t n_pairs,
                              unsigned char *reach)
{
    unsigned char *fwd = reach, *bwd = reach + n;
    memset(reach, 0, 2 * (size_t)n);
    fwd[0] = bwd[0] = 1;
    for (int pass = 0; propagate(pairs, n_pairs, pass & 1, fwd, bwd); pass++)
        ;
    for (int p = 0; p < n; p++)
        if (!fwd[p] || !bwd[p])
            return 0;
    return 1;
}

/* ---- likelihood pieces -------------------------------------------------- */

/* log(1 / (1 + exp(-x))) without overflow for either sign of x. */
static double log_sigmoid(double x)
{
    return x >= 0.0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

static double log_likelihood(int n, const rt_pair *pairs, size_t n_pairs,
                             double prior, const double *theta)
{
    double ll = 0.0;
    for (size_t k = 0; k < n_pairs; k++) {
        const rt_pair *p = &pairs[k];
        double s_i = (double)p->wins_i + 0.5 * (double)p->draws;
        double s_j = (double)p->wins_j + 0.5 * (double)p->draws;
        double d = theta[p->i] - theta[p->j];
        if (s_i > 0.0)
            ll += s_i * log_sigmoid(d);
        if (s_j > 0.0)
            ll += s_j * log_sigmoid(-d);
    }
    if (prior > 0.0)
        for (int i = 0; i < n; i++)
            ll += 0.5 * prior * (log_sigmoid(theta[i]) +
                                 log_sigmoid(-theta[i]));
    return ll;
}

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* Directional derivative of the log-likelihood at theta along d. The
 * Newton line search uses this rather than comparing log-likelihoods:
 * close to the optimum a step gains ~1e-13 while the log-likelihood, a
 * sum of ~1e5 terms of order one, carries ~1e-10 of rounding noise; the
 * slope has no large common part to cancel. */
static double slope(const rt_pair *pairs, size_t n_pairs, int n,
                    double prior, const double *theta, const double *d)
{
    double s = 0.0;
    for (size_t k = 0; k < n_pairs; k++) {
        const rt_pair *p = &pairs[k];
        double games = pair_games(p);
        double s_i = (double)p->wins_i + 0.5 * (double)p->draws;
        double e = games * sigmoid(theta[p->i] - theta[p->j]);
        s += (s_i - e) * (d[p->i] - d[p->j]);
    }
    if (prior > 0.0)
        for (int i = 0; i < n; i++)
            s += prior * (0.5 - sigmoid(theta[i])) * d[i];
    return s;
}

/* Player i's expected points won and lost against the current gammas
 * (virtual draws against the reference included). */
static void expected_split(const workspace *w, int i, double prior,
                           double *won, double *lost)
{
    const double *gamma = w->gamma;
    double gi = gamma[i], sw = 0.0, sl = 0.0;
    if (prior > 0.0) {
        sw = prior / (gi + 1.0);
        sl = sw;                        /* reference gamma is 1 */
    }
    for (size_t e = w->adj_off[i]; e < w->adj_off[i + 1]; e++) {
        double gj = gamma[w->adj_opp[e]];
        double q = w->adj_games[e] / (gi + gj);
        sw += q;
        sl += q * gj;
    }
    *won = gi * sw;
    *lost = sl;
}

/* The MM multiplier for gamma_i (see run_mm): 1 exactly at the optimum,
 * and its log is player i's score residual on the side used. */
static double mm_ratio(const workspace *w, int i, double prior)
{
    double won = w->target[i], lost = w->games[i] - won;
    double e_won, e_lost;
    expected_split(w, i, prior, &e_won, &e_lost);
    /* strong connectivity or the prior guarantees both sides */
    assert(won > 0.0 && lost > 0.0);
    return won <= lost ? won / e_won : e_lost / lost;
}

/* max_i |log mm_ratio| in Elo. */
static double max_residual(int n, const workspace *w, double prior)
{
    double r = 0.0;
    for (int i = 0; i < n; i++)
        if (w->games[i] > 0.0)
            r = fmax(r, fabs(log(mm_ratio(w, i, prior))));
    return r * ELO_PER_NAT;
}

/* ---- MM ----------------------------------------------------------------- */

static double mean_log(int n, const double *gamma)
{
    double m = 0.0;
    for (int i = 0; i < n; i++)
        m += log(gamma[i]);
    return n > 0 ? m / n : 0.0;
}

/* The shift c maximising the likelihood of theta + c, solved exactly.
 * Real games only see differences, so only the prior cares about c:
 * the optimum has sum_i sigmoid(theta_i + c) = n / 2. Returns log-space c.
 *
 * Why this exists: MM's surrogate for player i is as stiff as the points
 * i won (or lost), but along "everyone up by c" the true curvature is only
 * the prior's (1/4 per virtual draw). Plain MM therefore crawls along that
 * one direction at a rate of about 1 - prior/(4 * games), tens of
 * thousands of sweeps for a big pool. An exact line search along it after
 * each sweep removes the slow mode and keeps the ascent monotone. */
static double best_shift(int n, const double *gamma)
{
    double lo = -50.0, hi = 50.0, c = 0.0;
    for (int it = 0; it < 100; it++) {
        double f = -0.5 * n, df = 0.0;
        double e = exp(c);
        for (int i = 0; i < n; i++) {
            double g = gamma[i] * e;
            double p = g / (1.0 + g);
            f += p;
            df += p * (1.0 - p);
        }
        /* f rises with c: keep a bracket and fall back to bisection */
        if (f > 0.0)
            hi = c;
        else
            lo = c;
        double next = df > 0.0 ? c - f / df : 0.5 * (lo + hi);
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - c) <= 1e-14)
            return next;
        c = next;
    }
    return c;
}

/*
 * Cyclic MM (Hunter 2004), newest opponents' values used at once. For
 * player i with others fixed, two minorizers of the log-likelihood are
 * available: Zermelo's, in terms of wins,
 *     gamma_i <- gamma_i * actual_won / expected_won,
 * and the same construction applied to 1/gamma_i, in terms of losses,
 *     gamma_i <- gamma_i * expected_lost / actual_lost.
 * Either update maximises a minorizer, so the likelihood never goes down.
 * The wins form is as stiff as the player's points won, the losses form as
 * the points lost, while the true curvature is n p (1 - p), smaller than
 * both. Taking the form for the smaller side (wins for weak players,
 * losses for strong ones) keeps the ratio near one for everyone; the
 * wins-only form crawls for a player scoring 95%, at ~5% per sweep.
 */
static int run_mm(int n, workspace *w, double prior, double tol,
                  int max_iter, double *residual)
{
    double *gamma = w->gamma;
    double res = INFINITY;
    int it = 0;
    while (it < max_iter) {
        it++;
        res = 0.0;
        for (int i = 0; i < n; i++) {
            if (w->games[i] == 0.0)
                continue;   /* no games and no prior: nothing to fit */
            double ratio = mm_ratio(w, i, prior);
            res = fmax(res, fabs(log(ratio)));
            gamma[i] *= ratio;
        }
        double c = prior > 0.0 ? best_shift(n, gamma) : -mean_log(n, gamma);
        if (c != 0.0) {
            double scale = exp(c);
            for (int i = 0; i < n; i++)
                gamma[i] *= scale;
        }
        res *= ELO_PER_NAT;
        if (res <= tol)
            break;
    }
    *residual = res;
    return it;
}

/* ---- information matrix ------------------------------------------------- */

/* H = -Hessian of the log-likelihood at gamma (lower triangle), and the
 * gradient into w->vec. */
static void assemble(int n, workspace *w, double prior)
{
    double *h = w->hess;
    const double *gamma = w->gamma;
    for (int i = 0; i < n; i++)
        memset(h + (size_t)i * (size_t)n, 0, (size_t)(i + 1) * sizeof(double));
    for (int i = 0; i < n; i++) {
        double gi = gamma[i];
        double *hi = h + (size_t)i * (size_t)n;
        double expected = 0.0, info = 0.0;
        if (prior > 0.0) {
            double p = gi / (gi + 1.0);
            expected += prior * p;
            info += prior * p / (gi + 1.0);     /* p (1 - p) */
        }
        for (size_t e = w->adj_off[i]; e < w->adj_off[i + 1]; e++) {
            int j = w->adj_opp[e];
            /* n p (1 - p) with 1 - p as g_j / (g_i + g_j): 1.0 - p would
             * lose the digits of a lopsided pair's small side */
            double won = w->adj_games[e] * gi / (gi + gamma[j]);
            double v = won * gamma[j] / (gi + gamma[j]);
            expected += won;
            info += v;
            if (j < i)          /* each pair lands in the lower triangle once */
                hi[j] -= v;
        }
        hi[i] = info;
        w->vec[i] = w->target[i] - expected;
    }
    if (prior == 0.0 && n > 0) {
        /* H is singular along "shift everyone". Stiffening one diagonal
         * entry pins that direction without changing any contrast
         * c^T H^-1 c (sum c = 0) or the Newton step up to a shift. */
        double *h00 = &h[0];
        *h00 += *h00 > 0.0 ? *h00 : 1.0;
    }
}

static void set_theta(int n, workspace *w, const double *theta)
{
    for (int i = 0; i < n; i++) {
        w->theta[i] = theta[i];
        w->gamma[i] = exp(theta[i]);
    }
}

/* Newton steps on the information matrix, leaving its Cholesky factor at
 * the final theta in w->hess for the standard errors. */
static int newton_polish(int n, const rt_pair *pairs, size_t n_pairs,
                         workspace *w, double prior, double tol,
                         int max_newton, int *steps)
{
    *steps = 0;
    for (;;) {
        assemble(n, w, prior);
        if (rt_dense_cholesky(n, w->hess) != 0)
            return RT_ERR_NUMERIC;
        rt_dense_solve(n, w->hess, w->vec);   /* vec = H^-1 grad */
        double step = 0.0;
        for (int i = 0; i < n; i++)
            step = fmax(step, fabs(w->vec[i]));
        if (step * ELO_PER_NAT <= tol || *steps >= max_newton)
            return RT_OK;
        /* Halving line search on the slope along the step: ll is concave,
         * so a non-negative slope at t means ll rose all the way to t;
         * allowing down to -slope0/2 admits a full step that slightly
         * overshoots a near-quadratic optimum (it still gains). */
        double slope0 = slope(pairs, n_pairs, n, prior, w->theta, w->vec);
        if (!(slope0 > 0.0))
            return RT_OK;   /* no ascent left to rounding */
        double t = 1.0;
        int accepted = 0;
        for (int half = 0; half < 40 && !accepted; half++) {
            for (int i = 0; i < n; i++)
                w->trial[i] = w->theta[i] + t * w->vec[i];
            if (slope(pairs, n_pairs, n, prior, w->trial, w->vec) >=
                -0.5 * slope0)
                accepted = 1;
            else
                t *= 0.5;
        }
        if (!accepted)
            return RT_OK;
        if (prior == 0.0) {
            /* the grounded step may drift the whole pool; centre it so
             * exp(theta) keeps the widest range before overflow */
            double m = 0.0;
            for (int i = 0; i < n; i++)
                m += w->trial[i];
            for (int i = 0; i < n; i++)
                w->trial[i] -= m / n;
        }
        set_theta(n, w, w->trial);
        ++*steps;
    }
}

/* ---- standard errors ---------------------------------------------------- */

/* sigma^2 of each anchored rating, c^T H^-1 c, from the Cholesky factor. */
static void exact_variance(int n, workspace *w, int anchor_player,
                           double *var)
{
    rt_dense_inverse_diagonal(n, w->hess, var, w->tmp);
    double *u = w->vec;
    if (anchor_player < 0) {
        /* c = e_i - 1/n:  M_ii - 2 (M 1)_i / n + 1'M1 / n^2 */
        for (int i = 0; i < n; i++)
            u[i] = 1.0;
        rt_dense_solve(n, w->hess, u);
        double total = 0.0;
        for (int i = 0; i < n; i++)
            total += u[i];
        for (int i = 0; i < n; i++)
            var[i] += -2.0 * u[i] / n + total / ((double)n * n);
    } else {
        /* c = e_i - e_k:  M_ii - 2 M_ik + M_kk */
        for (int i = 0; i < n; i++)
            u[i] = i == anchor_player ? 1.0 : 0.0;
        rt_dense_solve(n, w->hess, u);
        double mkk = u[anchor_player];
        for (int i = 0; i < n; i++)
            var[i] += -2.0 * u[i] + mkk;
        var[anchor_player] = 0.0;
    }
    for (int i = 0; i < n; i++)
        var[i] = fmax(var[i], 0.0);   /* rounding can dip below zero */
}

static void diagonal_variance(int n, const workspace *w, double prior,
                              int anchor_player, double *var)
{
    const double *gamma = w->gamma;
    for (int i = 0; i < n; i++) {
        double gi = gamma[i], info = 0.0;
        if (prior > 0.0)
            info += prior * gi / ((gi + 1.0) * (gi + 1.0));
        for (size_t e = w->adj_off[i]; e < w->adj_off[i + 1]; e++) {
            double gj = gamma[w->adj_opp[e]];
            info += w->adj_games[e] * gi * gj / ((gi + gj) * (gi + gj));
        }
        var[i] = info > 0.0 ? 1.0 / info : INFINITY;
    }
    if (anchor_player >= 0)
        var[anchor_player] = 0.0;
}

/* ---- driver ------------------------------------------------------------- */

/*
 * The dispersion of the game scores about the fit: Pearson's statistic
 * sum (s - p)^2 / p(1 - p) over the games, per degree of freedom (games
 * less the n - 1 free ratings), as a quasi-binomial model estimates it.
 * The information above counts each game as a win or a loss, with score
 * variance p(1 - p); a draw scores 0.5, and a game that may be drawn has
 * less variance (p(1 - p) - P(draw)/4), so without this the intervals come
 * out too wide: with 30% draws between equals, 1/sqrt(0.7) = 1.2 times,
 * and 95% intervals cover 98%. Without draws the model is exact: 1. The
 * floor keeps a handful of drawn games from claiming certainty.
 */
static double dispersion(int n, const rt_pair *pairs, size_t n_pairs, const double *theta)
{
    double chi2 = 0.0, games = 0.0;
    int drawn = 0;
    for (size_t k = 0; k < n_pairs; k++) {
        const rt_pair *q = &pairs[k];
        double p = 1.0 / (1.0 + exp(theta[q->j] - theta[q->i]));
        double v = p * (1.0 - p);
        if (!(v > 0.0))
            continue;
        chi2 += ((double)q->wins_i * (1.0 - p) * (1.0 - p) + (double)q->draws * (0.5 - p) * (0.5 - p) +
                 (double)q->wins_j * p * p) / v;
        games += (double)(q->wins_i + q->draws + q->wins_j);
        drawn |= q->draws > 0;
    }
    double df = games - (n - 1);
    if (!drawn || df < 1.0)
        return 1.0;
    double phi = chi2 / df;
    return phi > RT_BT_MIN_DISPERSION ? phi : RT_BT_MIN_DISPERSION;
}

static int fit(int n, const rt_pair *pairs, size_t n_pairs,
               const rt_bt_options *opt, int mode, workspace *w,
               double *rating, double *sigma, rt_bt_info *info)
{
    double prior = opt->prior_draws;
    if (prior == 0.0 && n > 1 && !strongly_connected(n, pairs, n_pairs,
                                                     w->reach))
        return RT_ERR_NO_MLE;

    build_graph(n, pairs, n_pairs, prior, w);
    for (int i = 0; i < n; i++)
        w->gamma[i] = opt->start ? exp(opt->start[i] / ELO_PER_NAT) : 1.0;
    double residual;
    int budget = opt->max_iterations;
    if (mode == RT_BT_SIGMA_EXACT && budget > EXACT_MM_SWEEPS)
        budget = EXACT_MM_SWEEPS;
    int iterations = run_mm(n, w, prior, opt->tolerance, budget, &residual);
    for (int i = 0; i < n; i++)
        w->theta[i] = log(w->gamma[i]);

    int steps = 0;
    if (mode == RT_BT_SIGMA_EXACT) {
        int rc = newton_polish(n, pairs, n_pairs, w, prior, opt->tolerance,
                               opt->max_newton, &steps);
        if (rc != RT_OK)
            return rc;
    }
    residual = max_residual(n, w, prior);
    /* gamma = exp(theta) over- or underflows only for a prior-free pool
     * spread over more than ~1400 natural units (~240000 Elo) */
    for (int i = 0; i < n; i++)
        if (!isfinite(w->theta[i]) || !(w->gamma[i] > 0.0) ||
            !isfinite(w->gamma[i]))
            return RT_ERR_NUMERIC;
    if (!isfinite(residual))
        return RT_ERR_NUMERIC;

    /* Outputs are written only from here on, so errors leave them alone. */
    double shift = 0.0;
    if (opt->anchor_player >= 0) {
        shift = w->theta[opt->anchor_player];
    } else {
        for (int i = 0; i < n; i++)
            shift += w->theta[i];
        shift = n > 0 ? shift / n : 0.0;
    }
    for (int i = 0; i < n; i++)
        rating[i] = (w->theta[i] - shift) * ELO_PER_NAT + opt->anchor;
    if (opt->anchor_player >= 0)
        rating[opt->anchor_player] = opt->anchor;  /* exactly, not ~ */

    double phi = opt->dispersion ? dispersion(n, pairs, n_pairs, w->theta) : 1.0;
    if (sigma) {
        if (mode == RT_BT_SIGMA_EXACT)
            exact_variance(n, w, opt->anchor_player, sigma);
        else if (mode == RT_BT_SIGMA_DIAGONAL)
            diagonal_variance(n, w, prior, opt->anchor_player, sigma);
        for (int i = 0; i < n; i++)
            sigma[i] = mode == RT_BT_SIGMA_NONE ? NAN
                                                : sqrt(sigma[i] * phi) * ELO_PER_NAT;
    }
    if (info) {
        info->iterations = iterations;
        info->newton_steps = steps;
        info->sigma_mode = mode;
        info->residual = residual;
        info->dispersion = phi;
        info->log_likelihood = log_likelihood(n, pairs, n_pairs, prior,
                                              w->theta);
    }
    return residual <= opt->tolerance ? RT_OK : RT_NOT_CONVERGED;
}

int rt_bt_fit(int n_players, const rt_pair *pairs, size_t n_pairs,
              const rt_bt_options *opt, void *work, size_t work_size,
              double *rating, double *sigma, rt_bt_info *info)
{
    rt_bt_options def;
    if (!opt) {
        rt_bt_default_options(&def);
        opt = &def;
    }
    if (!rating && n_players > 0)
        return RT_ERR_ARG;
    int rc = validate(n_players, pairs, n_pairs, opt);
    if (rc != RT_OK)
        return rc;

    int mode = resolve_mode(n_players, opt->sigma_mode);
    size_t need = workspace_bytes(n_players, n_pairs, mode);
    if (need == SIZE_MAX)
        return RT_ERR_WORKSPACE;
    void *owned = NULL;
    if (!work) {
        owned = malloc(need ? need : 1);
        if (!owned)
            return RT_ERR_WORKSPACE;
        work = owned;
    } else if (work_size < need) {
        return RT_ERR_WORKSPACE;
    }
    assert((uintptr_t)work % _Alignof(double) == 0);

    workspace w;
    workspace_carve(n_players, n_pairs, mode, work, &w);
    rc = fit(n_players, pairs, n_pairs, opt, mode, &w, rating, sigma, info);
    free(owned);
    return rc;
}
