/*
 * arena_report.c - standings (Bradley-Terry with intervals, LOS) and
 * crosstables, written as tables, CSV or JSON.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena_ladder_fit.h"
#include "arena_report.h"
#include "jw.h"
#include "ratings.h"

/* A JSON string: names are checked when bots are added, but a table is
 * never the place that relies on it. */
static void put_json_str(FILE *out, const char *s)
{
    jw w;
    jw_init(&w);
    jw_str(&w, s);
    fputs(jw_failed(&w) ? "null" : w.buf, out);
    jw_free(&w);
}

int arena_report_format(const char *name)
{
    if (!strcmp(name, "table"))
        return ARENA_TABLE;
    if (!strcmp(name, "csv"))
        return ARENA_CSV;
    if (!strcmp(name, "json"))
        return ARENA_JSON;
    return -1;
}

typedef struct row {
    arena_rating r;
    double bt, ci, los;       /* los: P(stronger than the next row) */
    int at;                   /* its index in the tally, kept through the sort */
} row;

static int by_bt(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->bt != y->bt)
        return x->bt < y->bt ? 1 : -1;
    return strcmp(x->r.name, y->r.name);
}

/* One kind's matches gathered as they stream by, so that memory depends on
 * the bots and the pairs that met, never on the number of matches: the bots
 * (rows, in the order first seen, which is the fit's), their counts and live
 * Elo (replayed in the order played), the per-pair totals of the
 * Bradley-Terry games (an arena_lfit numbering the bots as the rows), the
 * 2 v 2 team games while every match is one, and for a crosstable each
 * pair's W-D-L by seat 0's score. */
typedef struct tally {
    row *rows;
    int n, cap;
    arena_lfit *pairs;
    arena_lfit *cells;        /* the crosstable's; NULL when not asked for */
    rt_team_game *teams;
    size_t nteams, team_cap;
    int team_fit;             /* every match so far 2 v 2 */
    int64_t unrated;          /* a match that cannot be rated, or 0 */
} tally;

/* The row of bot id, added if new; -1 when out of memory. */
static int tally_bot(tally *t, int64_t id)
{
    int at = arena_lfit_bot(t->pairs, id);
    if (at < 0 || (t->cells && arena_lfit_bot(t->cells, id) != at))
        return -1;
    if (at < t->n)
        return at;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        row *rows = realloc(t->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return -1;
        t->rows = rows;
        t->cap = cap;
    }
    row *r = &t->rows[t->n++];
    memset(r, 0, sizeof *r);
    r->r.bot_id = id;
    r->r.elo = ARENA_ELO_START;
    r->at = at;
    return at;
}

/* `times` team games g: 0, or -1 out of memory. */
static int push_team(tally *t, rt_team_game g, int64_t times)
{
    for (int64_t k = 0; k < times; k++) {
        if (t->nteams == t->team_cap) {
            size_t cap = t->team_cap ? 2 * t->team_cap : 256;
            rt_team_game *v = realloc(t->teams, cap * sizeof *v);
            if (!v)
                return -1;
            t->teams = v;
            t->team_cap = cap;
        }
        t->teams[t->nteams++] = g;
    }
    return 0;
}

/* A 2 v 2 match as a team game, kept while every match is one. */
static int add_team_game(tally *t, const arena_match *m, const int *at)
{
    t->team_fit = t->team_fit && arena_match_two_v_two(m);
    if (!t->team_fit) {
        free(t->teams);
        t->teams = NULL;
        t->nteams = t->team_cap = 0;
        return 0;
    }
    int a[2] = {0}, b[2] = {0}, na = 0, nb = 0;
    for (int i = 0; i < 4; i++) {
        if (m->team[i] == m->team[0])
            a[na++] = at[i];
        else
            b[nb++] = at[i];
    }
    return push_team(t, (rt_team_game){ { a[0], a[1] }, { b[0], b[1] }, m->score[0] }, 1);
}

/* Counts, live Elo and the fit's input of one match (an arena_match_fn):
 * 0, 1 for a match that cannot be rated (t->unrated), -1 out of memory. */
static int tally_match(const arena_match *m, void *ctx)
{
    tally *t = ctx;
    int at[ARENA_MAX_SEATS] = { 0 };
    double elo[ARENA_MAX_SEATS];
    for (int i = 0; i < m->seats; i++)
        if ((at[i] = tally_bot(t, m->bot[i])) < 0)
            return -1;
    for (int i = 0; i < m->seats; i++) {
        row *r = &t->rows[at[i]];
        r->r.games++;
        r->r.points += m->score[i];
        r->r.wins += m->score[i] == 1.0;
        r->r.draws += m->score[i] > 0.0 && m->score[i] < 1.0;
        r->r.losses += m->score[i] == 0.0;
        elo[i] = r->r.elo;
    }
    rt_game games[ARENA_MAX_SEATS * (ARENA_MAX_SEATS - 1) / 2];
    int ng = arena_elo_match(m, elo) == 0 ? rt_match_games(m->seats, m->team, at, m->score, games)
                                          : -1;
    if (ng < 0) {
        t->unrated = m->id;
        return 1;
    }
    for (int i = 0; i < m->seats; i++)
        t->rows[at[i]].r.elo = elo[i];
    for (int g = 0; g < ng; g++)
        if (arena_lfit_add_at(t->pairs, games[g].a, games[g].b, games[g].score_a) != 0)
            return -1;
    if (add_team_game(t, m, at) != 0)
        return -1;
    if (t->cells && m->seats == 2 && m->bot[0] != m->bot[1]) {
        double s = m->score[0] == 1.0 ? 1.0 : m->score[0] > 0.0 ? 0.5 : 0.0;
        if (arena_lfit_add_at(t->cells, at[0], at[1], s) != 0)
            return -1;
    }
    return 0;
}

/* ---- the same tally from the stored totals (arena_db_totals_each) ---- */

static int totals_bot(void *ctx, int64_t bot, int games, int wins, int draws, int losses,
                      double points, double elo)
{
    tally *t = ctx;
    int at = tally_bot(t, bot);
    if (at < 0)
        return -1;
    arena_rating *r = &t->rows[at].r;
    r->games = games;
    r->wins = wins;
    r->draws = draws;
    r->losses = losses;
    r->points = points;
    r->elo = elo;
    return 0;
}

/* The index of a bot the totals listed: a pair or a team of unlisted
 * bots is damage (-1), never a new row. */
static int listed(tally *t, int64_t bot)
{
    int at = arena_lfit_bot(t->pairs, bot);
    return at >= 0 && at < t->n ? at : -1;
}

static int totals_pair(void *ctx, int64_t a, int64_t b, int64_t wins_a, int64_t draws,
                       int64_t wins_b)
{
    tally *t = ctx;
    int i = listed(t, a), j = listed(t, b);
    /* one row a pair (the key of result_pairs): appended, not looked up */
    if (i < 0 || j < 0 || arena_lfit_add_new(t->pairs, i, j, wins_a, draws, wins_b) != 0)
        return -1;
    return t->cells ? arena_lfit_add_new(t->cells, i, j, wins_a, draws, wins_b) : 0;
}

static int totals_team(void *ctx, const int64_t a[2], const int64_t b[2], double score_a,
                       int64_t games)
{
    tally *t = ctx;
    rt_team_game g = { { listed(t, a[0]), listed(t, a[1]) }, { listed(t, b[0]), listed(t, b[1]) },
                       score_a };
    if (g.a[0] < 0 || g.a[1] < 0 || g.b[0] < 0 || g.b[1] < 0 || games < 0)
        return -1;
    return push_team(t, g, games);
}

static const arena_totals_fn TOTALS = { totals_bot, totals_pair, totals_team };

static void tally_free(tally *t)
{
    free(t->rows);
    arena_lfit_free(t->pairs);
    arena_lfit_free(t->cells);
    free(t->teams);
}

/* The Bradley-Terry fit of the tally's rows, their names, best first with
 * the LOS of each over the next: on team strengths when every match is
 * 2 v 2, else on the games between every two seats of different teams. */
static int rate_rows(arena_db *db, tally *t, char *err, size_t size)
{
    int n = t->n;
    size_t np;
    const rt_pair *pairs = arena_lfit_pairs(t->pairs, &np);
    double *rating = calloc((size_t)n + 1, sizeof *rating);
    double *sigma = calloc((size_t)n + 1, sizeof *sigma);
    if (!rating || !sigma) {
        free(rating);
        free(sigma);
        snprintf(err, size, "out of memory");
        return -1;
    }
    int fit = RT_OK;
    if (n > 0 && !t->team_fit) {
        rt_bt_options o;
        rt_bt_default_options(&o);
        fit = rt_bt_fit(n, pairs, np, &o, NULL, 0, rating, sigma, NULL);
    } else if (n > 0) {
        fit = rt_team_fit(n, t->teams, t->nteams, 1.0, rating, sigma, NULL);
    }
    for (int i = 0; i < n; i++) {
        row *r = &t->rows[i];
        r->bt = rating[i];
        r->ci = RT_Z95 * sigma[i];
        arena_bot b;
        if (arena_db_bot_by_id(db, r->r.bot_id, &b) == 0)
            snprintf(r->r.name, sizeof r->r.name, "%s", b.label);
        else
            snprintf(r->r.name, sizeof r->r.name, "bot%" PRId64, r->r.bot_id);
    }
    free(rating);
    free(sigma);
    if (fit < 0) {
        snprintf(err, size, "the rating fit failed (code %d)", fit);
        return -1;
    }
    if (n > 1)                 /* no rows (no match of the kind): t->rows is NULL */
        qsort(t->rows, (size_t)n, sizeof *t->rows, by_bt);
    for (int i = 0; i + 1 < n; i++)
        t->rows[i].los = rt_los(t->rows[i].bt, t->rows[i].ci / RT_Z95, t->rows[i + 1].bt,
                                t->rows[i + 1].ci / RT_Z95);
    if (n > 0)
        t->rows[n - 1].los = NAN;
    return 0;
}

/* The rows of one kind of match, rated, best first, in *t (free it with
 * tally_free; with_cells: the crosstable's cells too). 0, or -1 with err. */
static int build_rows(arena_db *db, const arena_match_filter *kind, int with_cells, tally *t,
                      char *err, size_t size)
{
    memset(t, 0, sizeof *t);
    t->team_fit = 1;
    t->pairs = arena_lfit_new();
    t->cells = with_cells ? arena_lfit_new() : NULL;
    if (!t->pairs || (with_cells && !t->cells)) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    /* The kind's totals when the database keeps them; else its matches. */
    int rc = arena_db_totals_each(db, kind, &TOTALS, t, &t->team_fit);
    if (rc == 1) {
        t->team_fit = 1;
        rc = arena_db_result_each(db, kind, tally_match, t);
    } else if (rc != 0) {
        rc = -1;
    }
    if (rc == 1)
        snprintf(err, size, "match %" PRId64 " cannot be rated", t->unrated);
    else if (rc != 0)
        snprintf(err, size, "cannot read the matches from the database");
    t->team_fit = t->team_fit && t->n > 0;
    return rc == 0 ? rate_rows(db, t, err, size) : -1;
}

int arena_report_fit(arena_db *db, const arena_match_filter *kind, arena_fit_row **out,
                     char *err, size_t size)
{
    tally t;
    if (build_rows(db, kind, 0, &t, err, size) < 0) {
        tally_free(&t);
        return -1;
    }
    arena_fit_row *fit = calloc((size_t)t.n + 1, sizeof *fit);
    if (!fit) {
        tally_free(&t);
        snprintf(err, size, "out of memory");
        return -1;
    }
    for (int i = 0; i < t.n; i++)
        fit[i] = (arena_fit_row){ .bot_id = t.rows[i].r.bot_id, .rating = t.rows[i].bt,
                                  .ci95 = t.rows[i].ci, .games = t.rows[i].r.games };
    int n = t.n;
    tally_free(&t);
    *out = fit;
    return n;
}

/* One table of the standings: a kind of match and its rows. */
typedef struct table {
    arena_match_filter kind;
    row *rows;
    int n;
    int team_fit;
} table;

static void print_rows(const table *t, int format, int *first, FILE *out)
{
    for (int i = 0; i < t->n; i++) {
        const row *r = &t->rows[i];
        double pct = r->r.games ? 100.0 * r->r.points / r->r.games : 0;
        char wdl[40], los[16];
        snprintf(wdl, sizeof wdl, "%d-%d-%d", r->r.wins, r->r.draws, r->r.losses);
        if (isnan(r->los))
            snprintf(los, sizeof los, "-");
        else
            snprintf(los, sizeof los, "%.0f%%", 100 * r->los);
        if (format == ARENA_CSV) {
            fprintf(out, "%d,%s,%.1f,%.1f,%.1f,%d,%d,%d,%d,%.1f,%s,%d,%s\n", i + 1, r->r.name,
                    r->bt, r->ci, r->r.elo, r->r.games, r->r.wins, r->r.draws, r->r.losses, pct,
                    isnan(r->los) ? "" : los, t->kind.seats, t->kind.game);
        } else if (format == ARENA_JSON) {
            fprintf(out, "%s\n  {\"players\": %d, \"rank\": %d, \"bot\": ",
                    *first ? "" : ",", t->kind.seats, i + 1);
            put_json_str(out, r->r.name);
            fprintf(out, ", \"elo\": %.1f, "
                         "\"ci95\": %.1f, \"live_elo\": %.1f, \"games\": %d, \"wins\": %d, "
                         "\"draws\": %d, \"losses\": %d, \"score_pct\": %.1f, \"los_next\": ",
                    r->bt, r->ci, r->r.elo, r->r.games, r->r.wins, r->r.draws, r->r.losses, pct);
            if (isnan(r->los))
                fprintf(out, "null");
            else
                fprintf(out, "%.4f", r->los);
            fprintf(out, ", \"game\": ");
            put_json_str(out, t->kind.game);
            fprintf(out, "}");
            *first = 0;
        } else {
            fprintf(out, "%4d  %-20s %+6.0f %5.0f %6.0f %6d  %-13s %5.1f%% %5s\n", i + 1,
                    r->r.name, r->bt, r->ci, r->r.elo, r->r.games, wdl, pct, los);
        }
    }
}

/* The table's heading line: its game when the listing has several, its
 * number of players, and how they were rated when not head to head. */
static void print_heading(const table *t, int games, int blank, FILE *out)
{
    fprintf(out, "%s", blank ? "\n" : "");
    if (games > 1)
        fprintf(out, "%s: ", t->kind.game);
    fprintf(out, "%d players", t->kind.seats);
    if (t->team_fit)
        fprintf(out, " (2 v 2; team = mean of its players)");
    else if (t->kind.seats > 2)
        fprintf(out, " (games and w-d-l count matches; the elo fit takes every two seats of "
                "different teams as a game)");
    fprintf(out, "\n");
}

/* The kinds of match f selects, each rated into its table: count or -1.
 * With none, one empty table of f's kind, so the listing has a header. */
static int build_tables(arena_db *db, const arena_match_filter *f, table **out, char *err,
                        size_t size)
{
    arena_match_filter *kinds = NULL;
    int nk = arena_db_match_kinds(db, f, &kinds);
    table *t = calloc((size_t)(nk > 0 ? nk : 1), sizeof *t);
    if (nk < 0 || !t) {
        snprintf(err, size, "cannot read the matches from the database");
        free(kinds);
        free(t);
        return -1;
    }
    for (int k = 0; k < nk; k++) {
        tally y;
        int rc = build_rows(db, &kinds[k], 0, &y, err, size);
        t[k] = (table){ kinds[k], y.rows, y.n, y.team_fit };
        y.rows = NULL;             /* the table keeps them; the totals go */
        tally_free(&y);
        if (rc < 0) {
            for (int j = 0; j <= k; j++)
                free(t[j].rows);
            free(kinds);
            free(t);
            return -1;
        }
    }
    if (nk == 0) {
        t[0].kind = *f;
        t[0].kind.seats = f->seats ? f->seats : 2;
    }
    free(kinds);
    *out = t;
    return nk > 0 ? nk : 1;
}

int arena_standings(arena_db *db, const arena_match_filter *f, int format, FILE *out,
                    char *err, size_t size)
{
    static const arena_match_filter any;
    table *t = NULL;
    int nt = build_tables(db, f ? f : &any, &t, err, size), first = 1, games = 1;
    if (nt < 0)
        return -1;
    for (int k = 1; k < nt; k++)
        games += strcmp(t[k].kind.game, t[k - 1].kind.game) != 0;   /* kinds come by game */
    if (format == ARENA_CSV)
        fprintf(out, "rank,bot,elo,ci95,live_elo,games,wins,draws,losses,score_pct,los_next,"
                     "players,game\n");
    else if (format == ARENA_JSON)
        fprintf(out, "[");
    for (int k = 0; k < nt; k++) {
        if (format == ARENA_TABLE) {
            if (nt > 1 || t[k].kind.seats > 2)
                print_heading(&t[k], games, k > 0, out);
            fprintf(out, "%4s  %-20s %6s %5s %6s %6s  %-13s %6s %5s\n", "rank", "bot", "elo", "±",
                    "live", "games", "w-d-l", "score", "los");
        }
        print_rows(&t[k], format, &first, out);
        free(t[k].rows);
    }
    if (format == ARENA_JSON)
        fprintf(out, "%s]\n", first ? "" : "\n");
    free(t);
    return 0;
}

int arena_crosstable(arena_db *db, const arena_match_filter *f, int format, FILE *out,
                     char *err, size_t size)
{
    arena_match_filter kind = {0}, *kinds = NULL;
    if (f)
        kind = *f;
    kind.seats = 2;
    int nk = arena_db_match_kinds(db, &kind, &kinds);
    if (nk < 0) {
        snprintf(err, size, "cannot read the matches from the database");
        return -1;
    }
    if (nk > 1) {
        snprintf(err, size, "2-player matches of %s and %s are stored: choose a game", kinds[0].game,
                 kinds[1].game);
        free(kinds);
        return -1;
    }
    free(kinds);
    tally t;
    if (build_rows(db, &kind, 1, &t, err, size) < 0) {
        tally_free(&t);
        return -1;
    }
    /* cell[i][j]: row i's wins, draws, losses against row j (by their
     * indices in the tally), from the very matches the ranking was built
     * from */
    int n = t.n;
    const row *rows = t.rows;
    int (*cell)[3] = calloc((size_t)(n ? n * n : 1), sizeof *cell);
    if (!cell) {
        tally_free(&t);
        snprintf(err, size, "out of memory");
        return -1;
    }
    size_t np;
    const rt_pair *pairs = arena_lfit_pairs(t.cells, &np);
    for (size_t k = 0; k < np; k++) {
        const rt_pair *p = &pairs[k];
        int *c = cell[p->i * n + p->j], *d = cell[p->j * n + p->i];
        c[0] = d[2] = (int)p->wins_i;
        c[1] = d[1] = (int)p->draws;
        c[2] = d[0] = (int)p->wins_j;
    }
    if (format == ARENA_TABLE) {
        fprintf(out, "%-4s%-20s", "", "bot");
        for (int j = 0; j < n; j++)
            fprintf(out, " %11d", j + 1);
        fprintf(out, "\n");
    } else if (format == ARENA_CSV) {
        fprintf(out, "bot,opponent,wins,draws,losses\n");
    } else {
        fprintf(out, "[");
    }
    int first = 1;
    for (int i = 0; i < n; i++) {
        if (format == ARENA_TABLE)
            fprintf(out, "%-4d%-20s", i + 1, rows[i].r.name);
        for (int j = 0; j < n; j++) {
            int *c = cell[rows[i].at * n + rows[j].at];
            int games = c[0] + c[1] + c[2];
            if (format == ARENA_TABLE) {
                char text[32];
                if (i == j)
                    snprintf(text, sizeof text, "x");
                else if (!games)
                    snprintf(text, sizeof text, ".");
                else
                    snprintf(text, sizeof text, "%d-%d-%d", c[0], c[1], c[2]);
                fprintf(out, " %11s", text);
            } else if (i != j && games) {
                if (format == ARENA_CSV)
                    fprintf(out, "%s,%s,%d,%d,%d\n", rows[i].r.name, rows[j].r.name, c[0], c[1],
                            c[2]);
                else {
                    fprintf(out, "%s\n  {\"bot\": ", first ? "" : ",");
                    put_json_str(out, rows[i].r.name);
                    fprintf(out, ", \"opponent\": ");
                    put_json_str(out, rows[j].r.name);
                    fprintf(out, ", \"wins\": %d, \"draws\": %d, \"losses\": %d}", c[0], c[1],
                            c[2]);
                }
                first = 0;
            }
        }
        if (format == ARENA_TABLE)
            fprintf(out, "\n");
    }
    if (format == ARENA_JSON)
        fprintf(out, "%s]\n", first ? "" : "\n");
    free(cell);
    tally_free(&t);
    return 0;
}
