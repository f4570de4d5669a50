/*
 * arena_report.c - standings (Bradley-Terry with intervals, LOS) and
 * crosstables, written as tables, CSV or JSON.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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
} row;

static int by_bt(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->bt != y->bt)
        return x->bt < y->bt ? 1 : -1;
    return strcmp(x->r.name, y->r.name);
}

static int index_of(const row *rows, int n, int64_t id)
{
    for (int i = 0; i < n; i++)
        if (rows[i].r.bot_id == id)
            return i;
    return -1;
}

/* The bots of `list`, each once, with names; returns the count or -1. */
static int collect_bots(arena_db *db, const arena_match *list, int nm, row **out)
{
    row *rows = calloc((size_t)nm * ARENA_MAX_SEATS + 1, sizeof *rows);
    int n = 0;
    if (!rows)
        return -1;
    for (int k = 0; k < nm; k++)
        for (int i = 0; i < list[k].seats; i++) {
            if (index_of(rows, n, list[k].bot[i]) >= 0)
                continue;
            arena_bot b;
            row *r = &rows[n++];
            r->r.bot_id = list[k].bot[i];
            if (arena_db_bot_by_id(db, r->r.bot_id, &b) == 0)
                snprintf(r->r.name, sizeof r->r.name, "%s", b.label);
            else
                snprintf(r->r.name, sizeof r->r.name, "bot%" PRId64, r->r.bot_id);
            r->r.elo = ARENA_ELO_START;
        }
    *out = rows;
    return n;
}

/* 2 v 2: two teams of two seats, the fit on team strengths applies. */
static int two_v_two(const arena_match *m)
{
    int size0 = 0;
    for (int i = 0; i < m->seats; i++) {
        if (m->team[i] != m->team[0] && m->team[i] != m->team[1])
            return 0;
        size0 += m->team[i] == m->team[0];
    }
    return m->seats == 4 && m->team[0] != m->team[1] && size0 == 2;
}

/* The Bradley-Terry input of one match into pairs[*np] or teams[*np]
 * (at[i]: seat i's row). 0, or -1 for a match the fit cannot read. */
static int fit_input(const arena_match *m, const int *at, int team_fit, rt_pair *pairs,
                     rt_team_game *teams, size_t *np)
{
    if (team_fit) {
        int a[2] = {0}, b[2] = {0}, na = 0, nb = 0;
        for (int i = 0; i < 4; i++) {
            if (m->team[i] == m->team[0])
                a[na++] = at[i];
            else
                b[nb++] = at[i];
        }
        teams[(*np)++] = (rt_team_game){ { a[0], a[1] }, { b[0], b[1] }, m->score[0] };
        return 0;
    }
    rt_game games[ARENA_MAX_SEATS * (ARENA_MAX_SEATS - 1) / 2];
    int n = rt_match_games(m->seats, m->team, at, m->score, games);
    for (int g = 0; g < n; g++) {
        int lo = games[g].a < games[g].b, i = lo ? games[g].a : games[g].b;
        int j = lo ? games[g].b : games[g].a;
        double s = lo ? games[g].score_a : 1.0 - games[g].score_a;
        pairs[(*np)++] = (rt_pair){ i, j, s == 1.0, s == 0.5, s == 0.0 };
    }
    return n < 0 ? -1 : 0;
}

/* Counts, live Elo (replayed in the order played, this kind only) and the
 * Bradley-Terry fit: on team strengths when every match is 2 v 2, else on
 * the games between every two seats of different teams. A void match
 * (ARENA_VOID) is no game. */
static int rate_rows(const arena_match *list, int nm, row *rows, int n, int *fit_teams,
                     char *err, size_t size)
{
    int team_fit = nm > 0;
    for (int k = 0; k < nm; k++)
        team_fit = team_fit && (ARENA_MATCH_VOID(&list[k]) || two_v_two(&list[k]));
    *fit_teams = team_fit;
    size_t per = team_fit ? 1 : ARENA_MAX_SEATS * (ARENA_MAX_SEATS - 1) / 2, np = 0;
    double *rating = calloc((size_t)n + 1, sizeof *rating);
    double *sigma = calloc((size_t)n + 1, sizeof *sigma);
    rt_pair *pairs = calloc((size_t)nm * per + 1, sizeof *pairs);
    rt_team_game *teams = calloc((size_t)nm + 1, sizeof *teams);
    int rc = -1;
    if (!rating || !sigma || !pairs || !teams) {
        snprintf(err, size, "out of memory");
        goto out;
    }
    for (int k = 0; k < nm; k++) {
        const arena_match *m = &list[k];
        int at[ARENA_MAX_SEATS];
        double elo[ARENA_MAX_SEATS];
        if (ARENA_MATCH_VOID(m))
            continue;
        for (int i = 0; i < m->seats; i++) {
            at[i] = index_of(rows, n, m->bot[i]);
            row *r = &rows[at[i]];
            r->r.games++;
            r->r.points += m->score[i];
            r->r.wins += m->score[i] == 1.0;
            r->r.draws += m->score[i] > 0.0 && m->score[i] < 1.0;
            r->r.losses += m->score[i] == 0.0;
            elo[i] = r->r.elo;
        }
        if (arena_elo_match(m, elo) != 0 || fit_input(m, at, team_fit, pairs, teams, &np) != 0) {
            snprintf(err, size, "match %" PRId64 " cannot be rated", m->id);
            goto out;
        }
        for (int i = 0; i < m->seats; i++)
            rows[at[i]].r.elo = elo[i];
    }
    int fit = RT_OK;
    if (n > 0 && !team_fit) {
        rt_bt_options o;
        rt_bt_default_options(&o);
        fit = rt_bt_fit(n, pairs, np, &o, NULL, 0, rating, sigma, NULL);
    } else if (n > 0) {
        fit = rt_team_fit(n, teams, np, 1.0, rating, sigma, NULL);
    }
    if (fit < 0) {
        snprintf(err, size, "the rating fit failed (code %d)", fit);
        goto out;
    }
    for (int i = 0; i < n; i++) {
        rows[i].bt = rating[i];
        rows[i].ci = RT_Z95 * sigma[i];
    }
    qsort(rows, (size_t)n, sizeof *rows, by_bt);
    for (int i = 0; i + 1 < n; i++)
        rows[i].los = rt_los(rows[i].bt, rows[i].ci / RT_Z95, rows[i + 1].bt,
                             rows[i + 1].ci / RT_Z95);
    if (n > 0)
        rows[n - 1].los = NAN;
    rc = 0;
out:
    free(rating);
    free(sigma);
    free(pairs);
    free(teams);
    return rc;
}

/* Rows for one kind of match, best first. Count, or -1. The matches they
 * were built from go to *matches when asked for (free them), else are
 * freed. */
static int build_rows(arena_db *db, const arena_match_filter *kind, row **out,
                      arena_match **matches, int *nmatches, int *team_fit, char *err,
                      size_t size)
{
    arena_match *list = NULL;
    int nm = arena_db_match_list(db, kind, &list);
    if (nm < 0) {
        snprintf(err, size, "cannot read the matches from the database");
        return -1;
    }
    row *rows = NULL;
    int n = collect_bots(db, list, nm, &rows);
    if (n < 0 || rate_rows(list, nm, rows, n, team_fit, err, size) < 0) {
        if (n < 0)
            snprintf(err, size, "out of memory");
        free(rows);
        free(list);
        return -1;
    }
    if (matches) {
        *matches = list;
        *nmatches = nm;
    } else {
        free(list);
    }
    *out = rows;
    return n;
}

int arena_report_fit(arena_db *db, const arena_match_filter *kind, arena_fit_row **out,
                     char *err, size_t size)
{
    row *rows = NULL;
    int team_fit, n = build_rows(db, kind, &rows, NULL, NULL, &team_fit, err, size);
    if (n < 0)
        return -1;
    arena_fit_row *fit = calloc((size_t)n + 1, sizeof *fit);
    if (!fit) {
        free(rows);
        snprintf(err, size, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++)
        fit[i] = (arena_fit_row){ .bot_id = rows[i].r.bot_id, .rating = rows[i].bt,
                                  .ci95 = rows[i].ci, .games = rows[i].r.games };
    free(rows);
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
        t[k].kind = kinds[k];
        t[k].n = build_rows(db, &kinds[k], &t[k].rows, NULL, NULL, &t[k].team_fit, err, size);
        if (t[k].n < 0) {
            for (int j = 0; j < k; j++)
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
    row *rows;
    arena_match *list;
    int nm, team_fit;
    int n = build_rows(db, &kind, &rows, &list, &nm, &team_fit, err, size);
    if (n < 0)
        return -1;
    /* cell[i][j]: row i's wins, draws, losses against row j, from the
     * very matches the ranking was built from */
    int (*cell)[3] = calloc((size_t)(n ? n * n : 1), sizeof *cell);
    if (!cell) {
        free(rows);
        free(list);
        snprintf(err, size, "out of memory");
        return -1;
    }
    for (int k = 0; k < nm; k++) {
        const arena_match *m = &list[k];
        if (m->bot[0] == m->bot[1])
            continue;
        int a = index_of(rows, n, m->bot[0]), b = index_of(rows, n, m->bot[1]);
        int r = m->score[0] == 1.0 ? 0 : m->score[0] > 0.0 ? 1 : 2;
        cell[a * n + b][r]++;
        cell[b * n + a][2 - r]++;
    }
    free(list);
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
            int *c = cell[i * n + j];
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
    free(rows);
    return 0;
}
