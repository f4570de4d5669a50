/*
 * arena_cmd_ladder.c - `arena ladder`: the ladder service's command line
 * (arena_ladder.h does the work). It shares every flag of a run of matches
 * with `arena tournament` (ac_spec_flags) and adds the ladder's own.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "arena_cmd.h"
#include "arena_ladder.h"
#include "arena_plan.h"
#include "cli.h"
#include "ref_log.h"

static const char ladder_head[] =
    "usage: arena ladder [--name NAME] [options]\n"
    "A competition that runs until SIGTERM or Ctrl-C: it pairs the active bots (arena bot\n"
    "list), fewest games first and near in rating, plays each pairing as a seed pair with\n"
    "the seats swapped, and rates them as it goes. Bots added, new versions, bots disabled\n"
    "or retired from another shell are picked up within seconds.\n";
static const char ladder_tail[] =
    "The game's own options are the flags from --option on (see `referee games`).\n"
    "Without --name the same command finds its ladder (of the same game and options) again\n"
    "and goes on: no match lost, none counted twice; a new one is named after its game\n"
    "(warchest; warchest-2 for another of other options). Several ladders share one\n"
    "database; --ladder NAME in other commands takes a unique beginning of a name. On a stop, running matches have --grace seconds to finish and be stored.\n"
    "With --gate sprt a new version (bot add NAME --version V, an older version active)\n"
    "is on trial: it plays only that older version, in seed pairs, until the SPRT over\n"
    "their games accepts H1 (it joins the ladder) or H0 (it is disabled with the reason),\n"
    "or --gate-max-games pass undecided (disabled as inconclusive). arena bot list shows\n"
    "it as trial with the test's state; a stopped ladder goes on with the trial where it\n"
    "was. arena bot enable after a failed gate lets the version in anyway. A version that\n"
    "passes plays beside the one it beat, unless --retire-old retires that one.\n"
    "See it with: arena standings --ladder NAME; arena bot list (statuses and reasons).\n";

int ac_ladder(int argc, char **argv)
{
    arena_spec spec;
    arena_spec_default(&spec);
    spec.format = -1;               /* the game's: one against one, or 2 v 2 */
    arena_run run = { .log_bytes = REF_LOG_DEFAULT_CAP, .keep_logs = -1, .concurrency = -1 };
    arena_ladder_opts o;
    arena_ladder_default(&o);
    char referee[PATH_MAX + 32], err[512];
    const char *gate = NULL;
    cli_sibling("../referee/referee", referee, sizeof referee);
    run.referee = referee;
    const cli_flag own[] = {
        CLI_ARG("--name", CLI_STR, "NAME", "the ladder (default: the one of this game and options, else a new one named after the game)",
                &o.name),
        CLI_NUM("--max-forfeits", CLI_INT, "N", "disable a bot after N forfeits in a row "
                "(crash, timeout, protocol error) here, with the reason (default 5; 0: never)",
                &o.max_forfeits, 0, 1000000),
        CLI_NUM("--per-bot", CLI_INT, "N", "matches a bot may be in at once (default 2: one "
                "seed pair)", &o.per_bot, 2, 1000),
        CLI_NUM("--fit-every", CLI_INT, "M", "refresh the Bradley-Terry fit and the rating "
                "history every M matches (default 100)", &o.fit_every, 1, INT32_MAX),
        CLI_NUM("--fit-seconds", CLI_F64, "T", "...or after T seconds with new matches "
                "(default 60)", &o.fit_seconds, 0.1, 1e9),
        CLI_NUM("--grace", CLI_F64, "S", "on a stop, running matches have S seconds to finish "
                "(default 30)", &o.grace_s, 0, 1e9),
        CLI_NUM("--reload", CLI_F64, "S", "read the bots again every S seconds (default 2)",
                &o.reload_s, 0.05, 3600),
        CLI_NUM("--log-seconds", CLI_F64, "S", "not on a terminal: a progress line every S "
                "seconds (default 60)", &o.log_s, 0.1, 1e9),
        CLI_NUM("--matches", CLI_I64, "N", "play N matches in this run, then stop (default: "
                "until stopped)", &o.matches, 1, (int64_t)1 << 40),
        CLI_ARG("--gate", CLI_STR, "sprt", "a new version first plays its previous version "
                "and joins only if the SPRT accepts H1 (default: no gate)", &gate),
        CLI_ARG("--retire-old", CLI_SWITCH, NULL, "--gate sprt: a version that passes retires "
                "the one it beat (default: both play on)", &o.retire_old),
        CLI_NUM("--gate-elo0", CLI_F64, "E", "the gate's H0: elo <= E (default 0)",
                &o.gate.p.elo0, -1000, 1000),
        CLI_NUM("--gate-elo1", CLI_F64, "E", "the gate's H1: elo >= E (default 10)",
                &o.gate.p.elo1, -1000, 1000),
        CLI_NUM("--gate-alpha", CLI_F64, "A", "the gate's false-pass rate (default 0.05)",
                &o.gate.p.alpha, 1e-9, 0.5),
        CLI_NUM("--gate-beta", CLI_F64, "B", "the gate's false-fail rate (default 0.05)",
                &o.gate.p.beta, 1e-9, 0.5),
        CLI_NUM("--gate-max-games", CLI_INT, "N", "undecided after N games: the version is "
                "disabled as inconclusive (default 2000)", &o.gate.max_games, 2, INT32_MAX),
        CLI_END,
    };
    const char *names[1];
    int nnames = 0;
    int flagged = ac_spec_flags(argc, argv, own, ladder_head, ladder_tail, &spec, &run, referee,
                                sizeof referee, names, &nnames, 0);
    if (flagged)
        return flagged == 1 ? 0 : 2;
    if (run.concurrency == 0 && !run.remote.listen)
        return ac_fail("--concurrency 0 leaves only remote workers: give --listen ENDPOINT too");
    if (gate && strcmp(gate, "sprt"))
        return ac_fail("--gate wants sprt, not '%s'", gate);
    o.gate.on = gate != NULL;
    if (o.retire_old && !o.gate.on)
        return ac_fail("--retire-old retires the version a new one beats at its gate: give "
                       "--gate sprt too");
    if (o.gate.p.elo0 >= o.gate.p.elo1)
        return ac_fail("--gate-elo0 %g must be below --gate-elo1 %g", o.gate.p.elo0,
                       o.gate.p.elo1);
    int seats, teams;
    if (arena_spec_shape(&spec, &seats, &teams, err, sizeof err) < 0)
        return ac_fail("%s", err);
    if (ac_fit_concurrency(&spec, seats, &run) < 0)
        return 2;
    arena_db *db = ac_open(1);
    if (!db)
        return 2;
    run.stop = ac_catch_stops();
    int rc = 0;
    if (arena_ladder_run(db, &spec, &run, &o, err, sizeof err) < 0)
        rc = (ac_fail("%s", err), 1);
    arena_db_close(db);
    return rc;
}
