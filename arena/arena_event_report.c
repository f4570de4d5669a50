/*
 * arena_event_report.c - a Swiss or knockout tournament's own results, as
 * the event decided them (arena_events.h), beside the Elo standings every
 * tournament ends with: Swiss points with the byes' and the Buchholz
 * tie-break; a knockout's bracket, tie by tie, and its winner. One
 * replay of the event (event_load) feeds both the CLI's text and the
 * web's JSON (web/API.md `/api/event`).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena_events.h"
#include "arena_report.h"
#include "arena_tourney.h"
#include "jw.h"

/* The event replayed, with its entrants' seeds and names: large, so on the
 * heap, one per call (the web serves several at once). */
typedef struct event_view {
    arena_spec spec[1];
    arena_event ev[1];
    int rounds;                                /* knockout: the bracket's rounds */
    int seedpos[ARENA_EVENT_MAX_BOTS];         /* entrant -> seed - 1 */
    char label[ARENA_EVENT_MAX_BOTS][128];
} event_view;

static void print_swiss(const event_view *v, FILE *out)
{
    const arena_event *ev = v->ev;
    fprintf(out, "swiss, %d round%s%s: points (a bye: half its games' points), then Buchholz "
            "(the opponents' points)\n", v->spec->rounds, v->spec->rounds == 1 ? "" : "s",
            ev->done ? "" : " (not finished)");
    fprintf(out, "%4s  %-20s %6s %8s %4s %4s\n", "rank", "bot", "points", "buchholz", "byes",
            "seed");
    for (int k = 0; k < v->spec->nbots; k++) {
        int i = ev->rank[k];
        fprintf(out, "%4d  %-20s %6.1f %8.1f %4d %4d\n", k + 1, v->label[i], ev->points[i],
                ev->buchholz[i], ev->byes[i], v->seedpos[i] + 1);
    }
}

static const char *round_name(int round, int rounds, char *buf, size_t size)
{
    int left = rounds - round;
    if (left == 1)
        return "final";
    if (left == 2)
        return "semifinals";
    if (left == 3)
        return "quarterfinals";
    snprintf(buf, size, "round %d", round + 1);
    return buf;
}

static void print_knockout(const event_view *v, FILE *out)
{
    const arena_event *ev = v->ev;
    fprintf(out, "knockout: seeds [n] by rating at the start; each tie's points over its games "
            "(tie-break pairs included)\n");
    for (int k = 0, shown = -1; k < ev->nties; k++) {
        const arena_ko_tie *t = &ev->tie[k];
        char buf[32], hi[160], lo[160];
        if (t->round != shown)
            fprintf(out, "%s:\n", round_name(shown = t->round, v->rounds, buf, sizeof buf));
        snprintf(hi, sizeof hi, "[%d] %s", v->seedpos[t->hi] + 1, v->label[t->hi]);
        if (t->lo < 0) {
            fprintf(out, "  %-26s bye\n", hi);
            continue;
        }
        snprintf(lo, sizeof lo, "[%d] %s", v->seedpos[t->lo] + 1, v->label[t->lo]);
        fprintf(out, "  %-26s %4.1f - %-4.1f %-26s ", hi, t->points_hi, t->points_lo, lo);
        if (t->winner >= 0)
            fprintf(out, "%s goes through%s\n", v->label[t->winner],
                    t->points_hi == t->points_lo ? " (level: the higher seed)" : "");
        else
            fprintf(out, "(%d game%s played)\n", t->games, t->games == 1 ? "" : "s");
    }
    if (ev->done)
        fprintf(out, "winner: %s\n", v->label[ev->rank[0]]);
}

/* Replays tournament tid's event into *out (malloc'ed: free it): 1, 0 not
 * a Swiss or knockout (*out NULL), -1 with err. */
static int event_load(arena_db *db, int64_t tid, event_view **out, char *err, size_t size)
{
    arena_tournament t;
    arena_spec spec;
    *out = NULL;
    if (arena_db_tournament_get(db, tid, &t) != 0 || arena_spec_from_tournament(&t, &spec) < 0) {
        snprintf(err, size, "cannot read tournament %" PRId64, tid);
        return -1;
    }
    if (spec.format != ARENA_SWISS && spec.format != ARENA_KNOCKOUT)
        return 0;
    event_view *v = calloc(1, sizeof *v);
    int seed_order[ARENA_EVENT_MAX_BOTS];
    if (!v) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    *v->spec = spec;
    if (arena_event_now(db, v->spec, tid, seed_order, v->ev, err, size) < 0) {
        free(v);
        return -1;
    }
    for (int b = 1; b < spec.nbots; b *= 2)
        v->rounds++;
    for (int i = 0; i < spec.nbots; i++) {
        arena_bot b;
        v->seedpos[seed_order[i]] = i;
        int ok = arena_db_bot_by_id(db, spec.bot[i], &b) == 0;
        snprintf(v->label[i], sizeof v->label[i], "%s", ok ? b.label : "?");
    }
    *out = v;
    return 1;
}

int arena_event_results(arena_db *db, int64_t tid, FILE *out, char *err, size_t size)
{
    event_view *v;
    int rc = event_load(db, tid, &v, err, size);
    if (rc <= 0)
        return rc;
    if (v->spec->format == ARENA_SWISS)
        print_swiss(v, out);
    else
        print_knockout(v, out);
    free(v);
    return 1;
}

/* ---- the same as JSON ----------------------------------------------------- */

/* {"bot", "bot_id", "seed", "points"}: entrant i in a tie. */
static void put_entrant(jw *w, const event_view *v, int i, double points)
{
    jw_obj(w);
    jw_key(w, "bot");
    jw_str(w, v->label[i]);
    jw_key(w, "bot_id");
    jw_int(w, v->spec->bot[i]);
    jw_key(w, "seed");
    jw_int(w, v->seedpos[i] + 1);
    jw_key(w, "points");
    jw_num(w, points);
    jw_obj_end(w);
}

static void put_swiss(jw *w, const event_view *v)
{
    const arena_event *ev = v->ev;
    jw_key(w, "rounds");
    jw_int(w, v->spec->rounds);
    jw_key(w, "swiss");
    jw_arr(w);
    for (int k = 0; k < v->spec->nbots; k++) {
        int i = ev->rank[k];
        jw_obj(w);
        jw_key(w, "rank");
        jw_int(w, k + 1);
        jw_key(w, "bot");
        jw_str(w, v->label[i]);
        jw_key(w, "bot_id");
        jw_int(w, v->spec->bot[i]);
        jw_key(w, "points");
        jw_num(w, ev->points[i]);
        jw_key(w, "buchholz");
        jw_num(w, ev->buchholz[i]);
        jw_key(w, "byes");
        jw_int(w, ev->byes[i]);
        jw_key(w, "seed");
        jw_int(w, v->seedpos[i] + 1);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void put_knockout(jw *w, const event_view *v)
{
    const arena_event *ev = v->ev;
    jw_key(w, "rounds");
    jw_int(w, v->rounds);
    jw_key(w, "bracket");
    jw_arr(w);
    for (int k = 0; k < ev->nties; k++) {
        const arena_ko_tie *t = &ev->tie[k];
        char buf[32];
        jw_obj(w);
        jw_key(w, "round");
        jw_int(w, t->round + 1);
        jw_key(w, "name");
        jw_str(w, round_name(t->round, v->rounds, buf, sizeof buf));
        jw_key(w, "hi");
        put_entrant(w, v, t->hi, t->points_hi);
        jw_key(w, "lo");
        if (t->lo >= 0)
            put_entrant(w, v, t->lo, t->points_lo);
        else
            jw_null(w);
        jw_key(w, "games");
        jw_int(w, t->games);
        jw_key(w, "winner");
        jw_str(w, t->winner >= 0 ? v->label[t->winner] : NULL);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_key(w, "winner");
    jw_str(w, ev->done ? v->label[ev->rank[0]] : NULL);
}

int arena_event_json(arena_db *db, int64_t tid, jw *w, char *err, size_t size)
{
    event_view *v;
    int rc = event_load(db, tid, &v, err, size);
    if (rc <= 0)
        return rc;
    jw_key(w, "done");
    jw_bool(w, v->ev->done);
    if (v->spec->format == ARENA_SWISS)
        put_swiss(w, v);
    else
        put_knockout(w, v);
    free(v);
    return 1;
}
