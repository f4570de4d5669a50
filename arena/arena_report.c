/*
 * arena_report.c - standings (Bradley-Terry with intervals, LOS) and
 * crosstables, written as tables, CSV or JSON.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena_report.h"
#include "ratings.h"

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
    row *rows = calloc((size_t)(nm * ARENA_MAX_SEATS + 1), sizeof *rows);
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
                snprintf(r->r.name, sizeof r->r.name, "%s", b.name);
            else
                snprintf(r->r.name, sizeof r->r.name, "bot%" PRId64, r->r.bot_id);
            r->r.elo = ARENA_ELO_START;
        }
    *out = rows;
    return n;
}

/* Counts, live Elo (replayed in the order played, this mode only) and the
 * Bradley-Terry fit: pairs for 2 seats, team strengths for 4. */
static int rate_rows(const arena_match *list, int nm, int seats, row *rows, int n,
                     char *err, size_t size)
{
    double *rating = calloc((size_t)n + 1, sizeof *rating);
    double *sigma = calloc((size_t)n + 1, sizeof *sigma);
    rt_pair *pairs = calloc((size_t)nm + 1, sizeof *pairs);
    rt_team_game *teams = calloc((size_t)nm + 1, sizeof *teams);
    int rc = -1, np = 0;
    if (!rating || !sigma || !pairs || !teams) {
        snprintf(err, size, "out of memory");
        goto out;
    }
    for (int k = 0; k < nm; k++) {
        const arena_match *m = &list[k];
        int at[ARENA_MAX_SEATS];
        double elo[ARENA_MAX_SEATS];
        for (int i = 0; i < m->seats; i++) {
            at[i] = index_of(rows, n, m->bot[i]);
            row *r = &rows[at[i]];
            r->r.games++;
            r->r.points += m->score[i];
            r->r.wins += m->score[i] == 1.0;
            r->r.draws += m->score[i] == 0.5;
            r->r.losses += m->score[i] == 0.0;
            elo[i] = r->r.elo;
        }
        arena_elo_match(m->seats, m->bot, m->score, m->elo_k, elo);
        for (int i = 0; i < m->seats; i++)
            rows[at[i]].r.elo = elo[i];
        if (seats == 2 && at[0] != at[1]) {
            int a = at[0] < at[1] ? 0 : 1, b = 1 - a;
            pairs[np++] = (rt_pair){ at[a], at[b], m->score[a] == 1.0, m->score[a] == 0.5,
                                     m->score[b] == 1.0 };
        } else if (seats == 4) {
            teams[np++] = (rt_team_game){ { at[0], at[2] }, { at[1], at[3] }, m->score[0] };
        }
    }
    int fit = RT_OK;
    if (n > 0 && seats == 2) {
        rt_bt_options o;
        rt_bt_default_options(&o);
        fit = rt_bt_fit(n, pairs, (size_t)np, &o, NULL, 0, rating, sigma, NULL);
    } else if (n > 0) {
        fit = rt_team_fit(n, teams, (size_t)np, 1.0, rating, sigma, NULL);
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

/* Rows for one mode, best first. Count, or -1. The matches they were
 * built from go to *matches when asked for (free them), else are freed. */
static int build_rows(arena_db *db, int64_t tid, int seats, row **out, arena_match **matches,
                      int *nmatches, char *err, size_t size)
{
    arena_match *list = NULL;
    int nm = arena_db_match_list(db, tid, seats, &list);
    if (nm < 0) {
        snprintf(err, size, "cannot read the matches from the database");
        return -1;
    }
    row *rows = NULL;
    int n = collect_bots(db, list, nm, &rows);
    if (n < 0 || rate_rows(list, nm, seats, rows, n, err, size) < 0) {
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

static void print_rows(const row *rows, int n, int seats, int format, int *first, FILE *out)
{
    for (int i = 0; i < n; i++) {
        const row *r = &rows[i];
        double pct = r->r.games ? 100.0 * r->r.points / r->r.games : 0;
        char wdl[40], los[16];
        snprintf(wdl, sizeof wdl, "%d-%d-%d", r->r.wins, r->r.draws, r->r.losses);
        if (isnan(r->los))
            snprintf(los, sizeof los, "-");
        else
            snprintf(los, sizeof los, "%.0f%%", 100 * r->los);
        if (format == ARENA_CSV) {
            fprintf(out, "%d,%s,%.1f,%.1f,%.1f,%d,%d,%d,%d,%.1f,%s,%d\n", i + 1, r->r.name,
                    r->bt, r->ci, r->r.elo, r->r.games, r->r.wins, r->r.draws, r->r.losses, pct,
                    isnan(r->los) ? "" : los, seats);
        } else if (format == ARENA_JSON) {
            fprintf(out, "%s\n  {\"players\": %d, \"rank\": %d, \"bot\": \"%s\", \"elo\": %.1f, "
                         "\"ci95\": %.1f, \"live_elo\": %.1f, \"games\": %d, \"wins\": %d, "
                         "\"draws\": %d, \"losses\": %d, \"score_pct\": %.1f, \"los_next\": ",
                    *first ? "" : ",", seats, i + 1, r->r.name, r->bt, r->ci, r->r.elo,
                    r->r.games, r->r.wins, r->r.draws, r->r.losses, pct);
            if (isnan(r->los))
                fprintf(out, "null}");
            else
                fprintf(out, "%.4f}", r->los);
            *first = 0;
        } else {
            fprintf(out, "%4d  %-20s %+6.0f %5.0f %6.0f %6d  %-13s %5.1f%% %5s\n", i + 1,
                    r->r.name, r->bt, r->ci, r->r.elo, r->r.games, wdl, pct, los);
        }
    }
}

int arena_standings(arena_db *db, int64_t tid, int players, int format, FILE *out,
                    char *err, size_t size)
{
    row *rows[2] = { NULL, NULL };
    int n[2] = { 0, 0 };
    static const int modes[2] = { 2, 4 };
    for (int k = 0; k < 2; k++) {
        if (players && players != modes[k])
            continue;
        n[k] = build_rows(db, tid, modes[k], &rows[k], NULL, NULL, err, size);
        if (n[k] < 0) {
            free(rows[0]);
            return -1;
        }
    }
    /* Both tables only when both kinds of game were played. */
    int both = n[0] > 0 && n[1] > 0, first = 1;
    if (format == ARENA_CSV)
        fprintf(out, "rank,bot,elo,ci95,live_elo,games,wins,draws,losses,score_pct,los_next,"
                     "players\n");
    else if (format == ARENA_JSON)
        fprintf(out, "[");
    for (int k = 0; k < 2; k++) {
        if (!rows[k] || (players == 0 && n[k] == 0 && (k == 1 || n[1] > 0)))
            continue;
        if (format == ARENA_TABLE) {
            if (both || modes[k] == 4)
                fprintf(out, "%s%s\n", k && both ? "\n" : "",
                        modes[k] == 2 ? "2 players" : "4 players (2 v 2; team = mean of its players)");
            fprintf(out, "%4s  %-20s %6s %5s %6s %6s  %-13s %6s %5s\n", "rank", "bot", "elo", "±",
                    "live", "games", "w-d-l", "score", "los");
        }
        print_rows(rows[k], n[k], modes[k], format, &first, out);
    }
    if (format == ARENA_JSON)
        fprintf(out, "%s]\n", first ? "" : "\n");
    free(rows[0]);
    free(rows[1]);
    return 0;
}

int arena_crosstable(arena_db *db, int64_t tid, int format, FILE *out, char *err, size_t size)
{
    row *rows;
    arena_match *list;
    int nm;
    int n = build_rows(db, tid, 2, &rows, &list, &nm, err, size);
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
        int r = m->score[0] == 1.0 ? 0 : m->score[0] == 0.5 ? 1 : 2;
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
                else
                    fprintf(out, "%s\n  {\"bot\": \"%s\", \"opponent\": \"%s\", \"wins\": %d, "
                                 "\"draws\": %d, \"losses\": %d}",
                            first ? "" : ",", rows[i].r.name, rows[j].r.name, c[0], c[1], c[2]);
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
