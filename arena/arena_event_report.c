/*
 * arena_event_report.c - a Swiss or knockout tournament's own results, as
 * the event decided them (arena_events.h), beside the Elo standings every
 * tournament ends with: Swiss points with the byes' and the Buchholz
 * tie-break; a knockout's bracket, tie by tie, and its winner.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arena_events.h"
#include "arena_report.h"
#include "arena_tourney.h"

typedef struct event_view {
    const arena_spec *spec;
    const arena_event *ev;
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
    int rounds = 0;
    for (int b = 1; b < v->spec->nbots; b *= 2)
        rounds++;
    fprintf(out, "knockout: seeds [n] by rating at the start; each tie's points over its games "
            "(tie-break pairs included)\n");
    for (int k = 0, shown = -1; k < ev->nties; k++) {
        const arena_ko_tie *t = &ev->tie[k];
        char buf[32], hi[160], lo[160];
        if (t->round != shown)
            fprintf(out, "%s:\n", round_name(shown = t->round, rounds, buf, sizeof buf));
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

int arena_event_results(arena_db *db, int64_t tid, FILE *out, char *err, size_t size)
{
    arena_tournament t;
    arena_spec spec;
    if (arena_db_tournament_get(db, tid, &t) != 0 || arena_spec_from_tournament(&t, &spec) < 0) {
        snprintf(err, size, "cannot read tournament %" PRId64, tid);
        return -1;
    }
    if (spec.format != ARENA_SWISS && spec.format != ARENA_KNOCKOUT)
        return 0;
    static arena_event ev;                 /* large; one report at a time */
    static event_view v;
    int seed_order[ARENA_EVENT_MAX_BOTS];
    if (arena_event_now(db, &spec, tid, seed_order, &ev, err, size) < 0)
        return -1;
    memset(&v, 0, sizeof v);
    v.spec = &spec;
    v.ev = &ev;
    for (int i = 0; i < spec.nbots; i++) {
        arena_bot b;
        v.seedpos[seed_order[i]] = i;
        snprintf(v.label[i], sizeof v.label[i], "%s",
                 arena_db_bot_by_id(db, spec.bot[i], &b) == 0 ? b.label : "?");
    }
    if (spec.format == ARENA_SWISS)
        print_swiss(&v, out);
    else
        print_knockout(&v, out);
    v.spec = NULL;                         /* spec is this call's: nothing keeps it */
    return 1;
}
