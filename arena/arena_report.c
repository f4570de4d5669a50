/*
 * arena_report.c - standings (Bradley-Terry with intervals, LOS) and
 * crosstables, written as tables, CSV or JSON.
 */
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

/* Rows with every figure filled, best first. Count, or -1. */
static int build_rows(arena_db *db, int64_t tid, row **out, char *err, size_t size)
{
    arena_rating *res = NULL;
    arena_pair_result *pairs = NULL;
    int n = arena_db_results(db, tid, &res);
    int np = n < 0 ? -1 : arena_db_pair_results(db, tid, &pairs);
    if (n < 0 || np < 0) {
        snprintf(err, size, "cannot read results from the database");
        free(res);
        free(pairs);
        return -1;
    }
    row *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
    rt_pair *rp = calloc((size_t)(np ? np : 1), sizeof *rp);
    double *rating = calloc((size_t)(n ? n : 1), sizeof *rating);
    double *sigma = calloc((size_t)(n ? n : 1), sizeof *sigma);
    int rc = -1;
    if (!rows || !rp || !rating || !sigma) {
        snprintf(err, size, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        rows[i].r = res[i];
    int k = 0;
    for (int i = 0; i < np; i++) {
        int a = index_of(rows, n, pairs[i].a), b = index_of(rows, n, pairs[i].b);
        if (a >= 0 && b >= 0)
            rp[k++] = (rt_pair){ a, b, pairs[i].a_wins, pairs[i].draws, pairs[i].b_wins };
    }
    if (n > 0) {
        rt_bt_options o;
        rt_bt_default_options(&o);
        int fit = rt_bt_fit(n, rp, (size_t)k, &o, NULL, 0, rating, sigma, NULL);
        if (fit < 0) {
            snprintf(err, size, "the rating fit failed (code %d)", fit);
            goto out;
        }
    }
    for (int i = 0; i < n; i++) {
        rows[i].bt = rating[i];
        rows[i].ci = RT_Z95 * sigma[i];
    }
    /* LOS needs each row's sigma after sorting: keep it in ci meanwhile. */
    qsort(rows, (size_t)n, sizeof *rows, by_bt);
    for (int i = 0; i + 1 < n; i++)
        rows[i].los = rt_los(rows[i].bt, rows[i].ci / RT_Z95, rows[i + 1].bt,
                             rows[i + 1].ci / RT_Z95);
    if (n > 0)
        rows[n - 1].los = NAN;
    *out = rows;
    rows = NULL;
    rc = n;
out:
    free(rows);
    free(rp);
    free(rating);
    free(sigma);
    free(res);
    free(pairs);
    return rc;
}

int arena_standings(arena_db *db, int64_t tid, int format, FILE *out, char *err, size_t size)
{
    row *rows;
    int n = build_rows(db, tid, &rows, err, size);
    if (n < 0)
        return -1;
    if (format == ARENA_CSV)
        fprintf(out, "rank,bot,elo,ci95,live_elo,games,wins,draws,losses,score_pct,los_next\n");
    else if (format == ARENA_JSON)
        fprintf(out, "[");
    else
        fprintf(out, "%4s  %-20s %6s %5s %6s %6s  %-13s %6s %5s\n", "rank", "bot", "elo", "±",
                "live", "games", "w-d-l", "score", "los");
    for (int i = 0; i < n; i++) {
        const row *r = &rows[i];
        double pct = r->r.games ? 100.0 * r->r.points / r->r.games : 0;
        char wdl[40], los[16];
        snprintf(wdl, sizeof wdl, "%d-%d-%d", r->r.wins, r->r.draws, r->r.losses);
        if (isnan(r->los))
            snprintf(los, sizeof los, "-");
        else
            snprintf(los, sizeof los, "%.0f%%", 100 * r->los);
        if (format == ARENA_CSV)
            fprintf(out, "%d,%s,%.1f,%.1f,%.1f,%d,%d,%d,%d,%.1f,%s\n", i + 1, r->r.name, r->bt,
                    r->ci, r->r.elo, r->r.games, r->r.wins, r->r.draws, r->r.losses, pct,
                    isnan(r->los) ? "" : los);
        else if (format == ARENA_JSON) {
            fprintf(out, "%s\n  {\"rank\": %d, \"bot\": \"%s\", \"elo\": %.1f, \"ci95\": %.1f, "
                         "\"live_elo\": %.1f, \"games\": %d, \"wins\": %d, \"draws\": %d, "
                         "\"losses\": %d, \"score_pct\": %.1f, \"los_next\": ",
                    i ? "," : "", i + 1, r->r.name, r->bt, r->ci, r->r.elo, r->r.games,
                    r->r.wins, r->r.draws, r->r.losses, pct);
            if (isnan(r->los))
                fprintf(out, "null}");
            else
                fprintf(out, "%.4f}", r->los);
        } else
            fprintf(out, "%4d  %-20s %+6.0f %5.0f %6.0f %6d  %-13s %5.1f%% %5s\n", i + 1,
                    r->r.name, r->bt, r->ci, r->r.elo, r->r.games, wdl, pct, los);
    }
    if (format == ARENA_JSON)
        fprintf(out, "%s]\n", n ? "\n" : "");
    free(rows);
    return 0;
}

int arena_crosstable(arena_db *db, int64_t tid, int format, FILE *out, char *err, size_t size)
{
    row *rows;
    arena_pair_result *pairs = NULL;
    int n = build_rows(db, tid, &rows, err, size);
    if (n < 0)
        return -1;
    int np = arena_db_pair_results(db, tid, &pairs);
    if (np < 0) {
        free(rows);
        snprintf(err, size, "cannot read results from the database");
        return -1;
    }
    /* cell[i][j]: row i's wins, draws, losses against row j */
    int (*cell)[3] = calloc((size_t)(n ? n * n : 1), sizeof *cell);
    if (!cell) {
        free(rows);
        free(pairs);
        snprintf(err, size, "out of memory");
        return -1;
    }
    for (int k = 0; k < np; k++) {
        int a = index_of(rows, n, pairs[k].a), b = index_of(rows, n, pairs[k].b);
        if (a < 0 || b < 0)
            continue;
        int *ab = cell[a * n + b], *ba = cell[b * n + a];
        ab[0] += pairs[k].a_wins, ab[1] += pairs[k].draws, ab[2] += pairs[k].b_wins;
        ba[0] += pairs[k].b_wins, ba[1] += pairs[k].draws, ba[2] += pairs[k].a_wins;
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
    free(pairs);
    return 0;
}
