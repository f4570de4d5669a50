/*
 * ratings.h - rating math for the arena: Elo, Bradley-Terry fits, SPRT.
 *
 * A pure library: no I/O, no globals, no hidden state. The tournament
 * runner records results and calls in here to turn them into ratings,
 * confidence intervals and stop/continue verdicts; nothing in here knows
 * about any game or about bots.
 *
 * Scale. Every rating and difference is "logistic Elo": a difference of D
 * means an expected score of 1 / (1 + 10^(-D/400)) for the higher player.
 * Internally the fit works in natural units (theta = D * ln(10) / 400).
 *
 * Memory. Only the two batch routines (game aggregation and the BT fit)
 * need scratch memory. Each has a *_workspace_size() function; the caller
 * passes a buffer at least that large (any malloc'd block is suitably
 * aligned). The BT fit also accepts NULL, in which case it makes exactly
 * one malloc of rt_bt_workspace_size() bytes and frees it before returning.
 *
 * Files: elo.c (Elo, a match's Elo update for any seats and teams, score
 * conversions, LOS), aggregate.c (games -> pairs),
 * bt.c (Bradley-Terry fit), dense.c (the Cholesky kernels the fit uses for
 * its covariance), sprt.c (sequential probability ratio test), team.c
 * (Bradley-Terry on the strengths of two-player teams).
 */
#ifndef RATINGS_H
#define RATINGS_H

#include <stddef.h>

/* ---- status codes ------------------------------------------------------- */

enum {
    RT_OK = 0,
    RT_NOT_CONVERGED = 1,    /* result usable but iteration cap reached */
    RT_ERR_ARG = -1,         /* bad index, negative count, bad option */
    RT_ERR_WORKSPACE = -2,   /* workspace too small or allocation failed */
    RT_ERR_NO_MLE = -3,      /* prior_draws == 0 and no finite ML solution */
    RT_ERR_NUMERIC = -4      /* information matrix not positive definite */
};

/* ---- Elo ---------------------------------------------------------------- */

/* Expected score of a player rated `diff` Elo above the opponent, in (0,1). */
double rt_elo_expected(double diff);

/* Inverse of rt_elo_expected: Elo difference for a score fraction in [0,1].
 * Returns -INFINITY at 0 and +INFINITY at 1. */
double rt_elo_from_score(double score);

/* Rating change for player a after one game against b. score_a is 1, 0.5
 * or 0 (any value in [0,1] is accepted, e.g. an averaged match score).
 * Player b's change is the negation (Elo is zero-sum for equal K). */
double rt_elo_delta(double rating_a, double rating_b, double score_a,
                    double k);

/* Applies rt_elo_delta to both ratings in place. */
void rt_elo_update(double *rating_a, double *rating_b, double score_a,
                   double k);

/* ---- Elo for one match of any number of seats --------------------------- */

#define RT_ELO_MAX_SEATS 64

/*
 * The live Elo update of one match, seat by seat:
 *   team[i]    seat i's team, any value >= 0 (teammates win and lose together,
 *              so their scores must be equal);
 *   player[i]  who sits in seat i: seats with equal values are one player
 *              (a bot playing itself), rated once;
 *   score[i]   seat i's score in [0, 1] (1 win, 0.5 draw, 0 loss);
 *   rating[i]  on entry, the rating of seat i's player (equal for the seats
 *              of one player); on return, that player's rating after the match.
 * A team plays as the mean rating of its seats. Every two teams play one Elo
 * game at K / (teams - 1), scored by comparing their scores (higher 1, equal
 * 0.5, lower 0), so a team moves by less than K however many teams there are.
 * Each seat's change is its team's; a player in several seats gets each of
 * them in turn, in seat order. Teams are taken in the order of their first
 * seat, so the numbers do not depend on how teams are labelled.
 * Two seats against each other give exactly rt_elo_update; two teams of two,
 * exactly rt_elo_update on the two team means with each member moving by its
 * team's change.
 * Returns RT_OK, or RT_ERR_ARG with `rating` untouched: seats outside
 * 2..RT_ELO_MAX_SEATS, fewer than two teams, a negative team, teammates
 * scored apart, a score outside [0, 1], seats of one player rated apart, or
 * K negative or not finite.
 */
int rt_elo_match(int seats, const int *team, const int *player,
                 const double *score, double k, double *rating);

/* ---- results ------------------------------------------------------------ */

/* One game: player a against player b, score_a is 1 (a won), 0.5 or 0. */
typedef struct {
    int a, b;
    double score_a;
} rt_game;

/*
 * One match of any number of seats as two-player games, for the
 * Bradley-Terry fit (team/player/score as for rt_elo_match, player values
 * being the fit's player indexes): one game between every two seats on
 * different teams with different players, scored by comparing the seats'
 * scores (higher 1, equal 0.5, lower 0), the lower seat as player a. Two
 * seats give the one game between them. A match of n seats counts as up
 * to n - 1 games for each seat, which are not independent: intervals from
 * such a fit come out narrower than they should. out must hold
 * seats * (seats - 1) / 2 games. Returns the count, or RT_ERR_ARG (as
 * rt_elo_match refuses, without the ratings).
 */
int rt_match_games(int seats, const int *team, const int *player,
                   const double *score, rt_game *out);

/* ---- likelihood of superiority ------------------------------------------ */

/* Standard normal CDF. */
double rt_normal_cdf(double x);

/* 1.959963984540054: multiply a sigma by this for a 95% half-interval. */
#define RT_Z95 1.959963984540054

/*
 * Likelihood of superiority: the probability that player i is truly
 * stronger than j, given ratings r and standard errors sigma (Elo) from a
 * fit, treating the two estimates as independent normals:
 *
 *     LOS(i,j) = Phi((r_i - r_j) / sqrt(sigma_i^2 + sigma_j^2))
 *
 * The fit's estimates are in fact correlated (they share opponents); the
 * independence form is the conventional, slightly conservative summary.
 * LOS(i,j) + LOS(j,i) == 1; two zero sigmas give 0, 0.5 or 1.
 */
double rt_los(double r_i, double sigma_i, double r_j, double sigma_j);

/* Fills out[i*n + j] = LOS(i,j) for all i, j (n*n doubles). */
void rt_los_matrix(int n, const double *rating, const double *sigma,
                   double *out);

/* Aggregated results between two players, from player i's point of view.
 * A list may name a pair more than once and in either orientation. */
typedef struct {
    int i, j;
    long wins_i, draws, wins_j;
} rt_pair;

/* Bytes of workspace rt_aggregate_games needs. */
size_t rt_aggregate_workspace_size(int n_players, size_t n_games);

/*
 * Folds per-game results into one rt_pair per distinct pair of players.
 * `out` must hold n_games entries (the worst case); *n_out receives the
 * count used. Output pairs have i < j and are sorted by (i, j), so the
 * result does not depend on the order of the games. Linear time (two
 * counting-sort passes). Returns RT_OK, RT_ERR_ARG (index out of range,
 * a == b, score not 0/0.5/1) or RT_ERR_WORKSPACE.
 */
int rt_aggregate_games(int n_players, const rt_game *games, size_t n_games,
                       void *work, size_t work_size,
                       rt_pair *out, size_t *n_out);

/* ---- Bradley-Terry fit -------------------------------------------------- */

/*
 * Model. P(i beats j) = 1 / (1 + exp(-(theta_i - theta_j))). A draw counts
 * as half a win and half a loss, so a pair contributes
 *     s log p_ij + (n - s) log(1 - p_ij),   s = wins_i + draws/2,
 * to the log-likelihood. The fitted ratings therefore reproduce each
 * player's total score exactly (the ML equations are "expected score ==
 * actual score"), which is what Ordo does by default. This is not
 * BayesElo's drawelo model. With many draws the reported sigmas are a
 * little conservative, since a draw carries less variance than a coin flip
 * yet is counted as one game of information.
 *
 * Prior. Each player also gets `prior_draws` virtual draws against a fixed
 * virtual player at theta = 0. This is BayesElo's "virtual draws" idea in
 * its simplest form (BayesElo spreads its virtual draws over each player's
 * actual opponents instead). It makes the log-likelihood strictly concave,
 * so the maximum exists and is unique for any data: a player with only
 * wins gets a large but finite rating, and a player with no games sits at
 * the pool's centre with a wide interval. The virtual games shrink ratings
 * slightly towards each other, by a fraction of the order of
 * prior_draws / games played.
 * prior_draws = 0 gives the plain ML fit; it then requires the "beat or
 * drew" graph to be strongly connected (Zermelo's condition) and returns
 * RT_ERR_NO_MLE otherwise.
 *
 * Method. Cyclic minorization-maximization (Hunter 2004: Zermelo's
 * iteration, Gauss-Seidel order). A sweep costs O(pairs), never lowers the
 * likelihood and needs no step-size control. Two refinements cut the
 * sweeps for the 1000-bot benchmark from ~40000 to 36: each player is
 * updated through the smaller of its points won and points lost (both are
 * valid MM steps; the wins form crawls for a player scoring 95%), and
 * after each sweep the common level of all ratings, which only the prior
 * pins down, is solved exactly. Converged means every player's expected
 * points match the actual ones to `tolerance`, measured as
 * max |log(actual / expected)| in Elo units.
 * With EXACT sigmas, MM runs at most 100 sweeps and damped Newton steps on
 * the full information matrix finish the fit; the final Cholesky factor
 * then yields the standard errors. Badly connected pools (long chains),
 * where MM alone would need 10^5 sweeps and more, take a few Newton steps.
 * With DIAGONAL or NONE such a pool may stop at max_iterations and return
 * RT_NOT_CONVERGED.
 *
 * Anchoring. theta is shifted afterwards so the mean rating is `anchor`,
 * or, if anchor_player >= 0, so that player is rated `anchor`.
 *
 * Uncertainty. sigma_i is the standard error of the reported (anchored)
 * rating, from the observed information matrix H (negated Hessian of the
 * log-likelihood, prior included):
 *   EXACT: sigma_i^2 = c^T H^-1 c with c = e_i - 1/n (mean anchor) or
 *          c = e_i - e_anchor (player anchor), using a dense Cholesky
 *          factor: O(n^3/3) multiply-adds and n*n doubles of workspace
 *          (8 MB and ~0.06 s for 1000 players; 32 MB and ~0.6 s for
 *          2000). Exact inversion is cheap enough at arena sizes, so no
 *          sparse or iterative approximation is used.
 *   DIAGONAL: sigma_i^2 = 1 / H_ii, the error if every opponent's rating
 *          were known exactly. O(pairs), no n*n memory. Close to EXACT in
 *          a large, well-mixed pool; too small in a sparse or chained one.
 *   AUTO:  EXACT up to RT_BT_EXACT_MAX_PLAYERS players, else DIAGONAL.
 *   NONE:  skipped; sigma may be NULL.
 * With prior_draws = 0, H is singular along "shift everyone"; the contrasts
 * c above are insensitive to that direction, so any grounded inverse gives
 * the same answer, and the fit grounds player 0.
 *
 * Determinism: same inputs in the same order give bit-identical outputs.
 */

enum {
    RT_BT_SIGMA_AUTO = 0,
    RT_BT_SIGMA_EXACT,
    RT_BT_SIGMA_DIAGONAL,
    RT_BT_SIGMA_NONE
};

#define RT_BT_EXACT_MAX_PLAYERS 2000

typedef struct {
    double prior_draws;   /* virtual draws per player, >= 0; default 1 */
    double anchor;        /* mean rating, or anchor_player's; default 0 */
    int anchor_player;    /* -1 (default) anchors the mean */
    double tolerance;     /* Elo; default 1e-6 */
    int max_iterations;   /* MM sweeps; default 100000 */
    int max_newton;       /* Newton steps (EXACT only); default 20 */
    int sigma_mode;       /* RT_BT_SIGMA_*; default AUTO */
    int dispersion;       /* 1 (default): sigmas scaled by the scores' dispersion
                           * when there are draws (see rt_bt_fit); 0: not */
    const double *start;  /* NULL (default): MM starts from equal ratings; else
                           * start[n_players] Elo ratings (any anchor; a former
                           * fit's, for a warm start): the same optimum, fewer
                           * sweeps when the data changed little */
} rt_bt_options;

/* The largest |start| rating: exp(start / 173.7) stays finite. */
#define RT_BT_MAX_START 1e5

/* The least dispersion rt_bt_fit assumes: a few drawn games between equals
 * would otherwise make the intervals vanish. */
#define RT_BT_MIN_DISPERSION 0.25

typedef struct {
    int iterations;       /* MM sweeps done */
    int newton_steps;     /* Newton steps taken */
    int sigma_mode;       /* mode actually used (AUTO resolved) */
    double residual;      /* final max |log(actual/expected)|, Elo units */
    double log_likelihood;/* at the solution, prior terms included */
    double dispersion;    /* the factor the variances were scaled by; 1: none */
} rt_bt_info;

void rt_bt_default_options(rt_bt_options *opt);

/* Bytes of workspace rt_bt_fit needs for these sizes and options
 * (SIZE_MAX if that does not fit in a size_t). About
 * 24 bytes per pair and 90 per player, plus 8 n^2 with EXACT sigmas. */
size_t rt_bt_workspace_size(int n_players, size_t n_pairs,
                            const rt_bt_options *opt);

/*
 * Fits ratings to the pairs. rating[n_players] is required. sigma may be
 * NULL (it is then not written; choose RT_BT_SIGMA_NONE to skip the work
 * too). info may be NULL; opt NULL means defaults; work NULL means one
 * internal allocation. Returns RT_OK,
 * RT_NOT_CONVERGED (outputs still filled with the best estimate) or an
 * RT_ERR_* code (outputs untouched).
 *
 * Sigmas: a draw counts as half a win, so the fit's information counts a
 * game as a win or a loss (score variance p(1-p)); a game that may be
 * drawn varies less, and with draws the variances are scaled by the
 * scores' dispersion (Pearson's statistic per degree of freedom, as a
 * quasi-binomial model; at least RT_BT_MIN_DISPERSION). Without, 30%
 * draws between equals make 95% intervals cover 98% (ratings_bench).
 */
int rt_bt_fit(int n_players, const rt_pair *pairs, size_t n_pairs,
              const rt_bt_options *opt, void *work, size_t work_size,
              double *rating, double *sigma, rt_bt_info *info);

/* ---- SPRT --------------------------------------------------------------- */

/*
 * Sequential probability ratio test of H0: "A is elo0 stronger than B"
 * against H1: "A is elo1 stronger", elo1 > elo0, on logistic Elo: the
 * hypotheses fix the expected score per game at s = rt_elo_expected(elo).
 * (Fishtest also offers "normalized" Elo, which scales by the observed
 * score spread; this library uses logistic Elo only.)
 *
 * The LLR is fishtest's generalized SPRT: the results are a multinomial
 * over the possible scores, and each hypothesis is represented by the
 * maximum-likelihood distribution whose mean score is s (found by a 1-D
 * root solve). LLR = sum_k n_k log(p1_k / p0_k). For a trinomial with no
 * draws this is exactly the binomial SPRT. When the observed outcomes
 * cannot have mean s (e.g. only wins so far), empty categories get a count
 * of 1e-3, as fishtest does (fishtest always does; here only when needed,
 * so results with every hypothesis reachable are exact).
 *
 * Bounds: stop for H0 when LLR <= log(beta / (1 - alpha)), for H1 when
 * LLR >= log((1 - beta) / alpha).
 */

typedef enum {
    RT_SPRT_CONTINUE = 0,
    RT_SPRT_ACCEPT_H0 = -1,
    RT_SPRT_ACCEPT_H1 = 1
} rt_sprt_verdict;

typedef struct {
    double elo0, elo1;    /* logistic Elo, elo0 < elo1 */
    double alpha, beta;   /* false-positive / false-negative rates */
} rt_sprt_params;

typedef struct {
    double llr;
    double lower, upper;  /* the two stopping bounds */
    rt_sprt_verdict verdict;
} rt_sprt_result;

double rt_sprt_lower_bound(double alpha, double beta);
double rt_sprt_upper_bound(double alpha, double beta);
rt_sprt_verdict rt_sprt_decide(double llr, double alpha, double beta);

/* LLR from single-game counts (player A's wins, draws, losses). */
double rt_sprt_llr_trinomial(double elo0, double elo1,
                             long wins, long draws, long losses);

/* LLR from game-pair counts: pairs[k] = number of game pairs in which A
 * scored k/2 points out of 2 (k = 0..4: LL, LD, DD or WL, WD, WW). Pairs
 * of games with colours reversed are correlated; counting them as units
 * gives fishtest's pentanomial model. */
double rt_sprt_llr_pentanomial(double elo0, double elo1, const long pairs[5]);

/* LLR, bounds and verdict in one call. Returns RT_OK or RT_ERR_ARG. */
int rt_sprt_trinomial(const rt_sprt_params *p, long wins, long draws,
                      long losses, rt_sprt_result *out);
int rt_sprt_pentanomial(const rt_sprt_params *p, const long pairs[5],
                        rt_sprt_result *out);

/* ---- team games: a Bradley-Terry fit on team strengths ------------------ */

/*
 * Two teams of two. A team's strength is the mean of its members' ratings,
 * and team A's expected score is rt_elo_expected(strength_A - strength_B);
 * a draw counts half a win, as in rt_bt_fit. Each player also gets
 * `prior_draws` virtual draws against a reference player at 0, which keeps
 * the fit finite and pins the level; the result is then shifted so the
 * mean rating is 0. sigma is the exact standard error of each mean-anchored
 * rating, from the inverse observed information. Newton's method on a
 * strictly concave log-likelihood: it converges in a handful of steps,
 * the first ones solved by conjugate gradients (O(games) each), the last
 * two by a Cholesky factor, O(n^3): about 0.1 s at 1000 players.
 */
typedef struct {
    int a[2], b[2];          /* player indexes of team A and team B */
    double score_a;          /* 1, 0.5 or 0 (any value in [0,1] works) */
} rt_team_game;

/* Returns RT_OK, RT_NOT_CONVERGED (best estimate filled), RT_ERR_ARG, or
 * RT_ERR_WORKSPACE (one malloc of O(n^2) failed). */
int rt_team_fit(int n_players, const rt_team_game *games, size_t n_games,
                double prior_draws, double *rating, double *sigma,
                int *iterations);

#endif /* RATINGS_H */
