/*
 * arena_cmd_history.c - `arena history BOT`: a bot's rating over time, as
 * a table, CSV or JSON. Without --ladder, its live Elo after each rated
 * match (rating_history, arena_db_elo_history); with --ladder NAME, the
 * ladder's Bradley-Terry fits of it (rating_fits, arena_db_fit_history).
 * Names and labels come from outside and go through ac_put_text.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arena_cmd.h"
#include "arena_report.h"

static const char history_help[] =
    "usage: arena history BOT [--ladder NAME] [--format table|csv|json]\n"
    "A bot's rating over time, oldest first. BOT is NAME (its newest version) or\n"
    "NAME@VERSION. Without --ladder: its live Elo after each rated match it played, with\n"
    "the match, when it finished (UTC), its tournament or ladder, the opponents, the bot's\n"
    "score and the Elo change. With --ladder: each Bradley-Terry fit of that ladder that\n"
    "rated it (arena ladder --fit-every), with the 95% interval's half-width and the games\n"
    "the fit counted.\n";

static void print_elo(FILE *out, int format, const arena_elo_step *s, int n)
{
    if (format == ARENA_TABLE)
        fprintf(out, "%7s  %-20s  %5s  %7s  %7s  %6s  %s\n", "match", "finished", "score",
                "before", "after", "change", "opponents, where");
    else if (format == ARENA_CSV)
        fputs("match,finished,tournament,ladder,score,elo_before,elo_after,change,opponents\n",
              out);
    else
        fputs("[", out);
    for (int i = 0; i < n; i++) {
        const arena_elo_step *e = &s[i];
        double change = e->elo_after - e->elo_before;
        if (format == ARENA_JSON)
            fprintf(out, "%s\n  {\"match\": %" PRId64 ", \"finished\": \"", i ? "," : "",
                    e->match_id);
        else
            fprintf(out, format == ARENA_TABLE ? "%7" PRId64 "  " : "%" PRId64 ",", e->match_id);
        ac_put_time(out, e->finished_ms);
        if (format == ARENA_TABLE) {
            fprintf(out, "  %5.3g  %7.1f  %7.1f  %+6.1f  ", e->score, e->elo_before,
                    e->elo_after, change);
            ac_put_text(out, format, e->opponents);
            if (e->tournament_id)
                fprintf(out, ", tournament %" PRId64, e->tournament_id);
            else if (e->ladder[0])
                fputs(", ladder ", out);
            ac_put_text(out, format, e->tournament_id ? "" : e->ladder);
            fputc('\n', out);
            continue;
        }
        if (format == ARENA_CSV) {
            fprintf(out, ",%" PRId64 ",", e->tournament_id);
            ac_put_text(out, format, e->ladder);
            fprintf(out, ",%g,%.2f,%.2f,%.2f,", e->score, e->elo_before, e->elo_after, change);
        } else {
            fprintf(out, "\", \"tournament\": %" PRId64 ", \"ladder\": ", e->tournament_id);
            ac_put_text(out, format, e->ladder);
            fprintf(out, ", \"score\": %g, \"elo_before\": %.2f, \"elo_after\": %.2f,"
                    " \"change\": %.2f, \"opponents\": ", e->score, e->elo_before,
                    e->elo_after, change);
        }
        ac_put_text(out, format, e->opponents);
        fputs(format == ARENA_JSON ? "}" : "\n", out);
    }
    if (format == ARENA_JSON)
        fprintf(out, "%s]\n", n ? "\n" : "");
}

static void print_fits(FILE *out, int format, const int64_t *at_ms, const arena_fit_row *r,
                       int n)
{
    if (format == ARENA_TABLE)
        fprintf(out, "%4s  %-20s  %7s  %6s  %6s\n", "fit", "at", "rating", "ci95", "games");
    else if (format == ARENA_CSV)
        fputs("fit,at,rating,ci95,games\n", out);
    else
        fputs("[", out);
    for (int i = 0; i < n; i++) {
        if (format == ARENA_TABLE)
            fprintf(out, "%4d  ", i + 1);
        else if (format == ARENA_CSV)
            fprintf(out, "%d,", i + 1);
        else
            fprintf(out, "%s\n  {\"fit\": %d, \"at\": \"", i ? "," : "", i + 1);
        ac_put_time(out, at_ms[i]);
        if (format == ARENA_TABLE)
            fprintf(out, "  %7.1f  %6.1f  %6d\n", r[i].rating, r[i].ci95, r[i].games);
        else if (format == ARENA_CSV)
            fprintf(out, ",%.2f,%.2f,%d\n", r[i].rating, r[i].ci95, r[i].games);
        else
            fprintf(out, "\", \"rating\": %.2f, \"ci95\": %.2f, \"games\": %d}", r[i].rating,
                    r[i].ci95, r[i].games);
    }
    if (format == ARENA_JSON)
        fprintf(out, "%s]\n", n ? "\n" : "");
}

/* Prints the history: 0, or 2 after the error line. */
static int history(arena_db *db, const char *ref, const char *ladder, int format)
{
    arena_bot bot;
    arena_ladder l;
    if (arena_db_bot_by_name(db, ref, &bot) != 0)
        return ac_fail("no bot '%s' (arena bot list shows them)", ref);
    char err[256];
    if (ladder && arena_db_ladder_find(db, ladder, &l, err, sizeof err) != 0)
        return ac_fail("%s", err);
    if (ladder) {
        int64_t *at = NULL;
        arena_fit_row *rows = NULL;
        int n = arena_db_fit_history(db, l.id, bot.id, &at, &rows);
        if (n >= 0)
            print_fits(stdout, format, at, rows, n);
        free(at);
        free(rows);
        return n < 0 ? ac_fail("cannot read the ladder's fits") : 0;
    }
    arena_elo_step *steps;
    int n = arena_db_elo_history(db, bot.id, &steps);
    if (n < 0)
        return ac_fail("cannot read the rating history");
    print_elo(stdout, format, steps, n);
    free(steps);
    return 0;
}

int ac_history(int argc, char **argv)
{
    const char *ref[1], *ladder = NULL;
    int format = ARENA_TABLE, n = 0;
    const cli_flag flags[] = {
        CLI_ARG("--ladder", CLI_STR, "NAME", "that ladder's Bradley-Terry fits of the bot",
                &ladder),
        CLI_CALL("--format", "table|csv|json", "the output (default table)", ac_set_format,
                 &format),
        CLI_END,
    };
    int parsed = ac_parse("history", flags, argc, argv, ref, &n, 1, history_help, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n)
        return ac_fail("history needs a BOT (arena bot list shows them)");
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    int rc = history(db, ref[0], ladder, format);
    arena_db_close(db);
    return rc;
}
