/*
 * arena.c - the `arena` program: bots, tournaments, standings, replays.
 *
 *   arena [--db FILE] bot add NAME --cmd CMD [--game G]... [--cwd DIR] [--version V]
 *                     [--env K=V]...
 *   arena [--db FILE] bot test NAME|--cmd CMD [--game G]... | bot list | bot remove NAME
 *   arena [--db FILE] tournament [options] [BOTS...] | tournament --resume
 *   arena [--db FILE] ladder [--name NAME] [options]
 *   arena [--db FILE] standings | crosstable | matches [--tournament ID] [--format F]
 *   arena [--db FILE] replay MATCH_ID | rerun MATCH_ID | check [--replay] | sprt A B [--play]
 *   arena bench [--games N] | --web | --ladder | --coordinator | --remote
 *   arena user add NAME --endpoint E --out FILE | user list | user revoke NAME
 *   arena gateway --listen ENDPOINT | submit --credentials FILE ... DIR|ARCHIVE
 *
 * Every command has --help. Bad arguments exit 2 with one line naming the
 * problem; nothing stored is ever touched by a command that fails.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <sched.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena_bench.h"
#include "arena_cmd.h"
#include "web_bench.h"
#include "web_cli.h"
#include "cli.h"
#include "kv.h"
#include "arena_db.h"
#include "arena_plan.h"
#include "arena_report.h"
#include "arena_show.h"
#include "arena_tourney.h"
#include "game_cli.h"
#include "ref_log.h"
#include "ref_match.h"
#include "ref_record.h"
#include "zauth.h"

/* ---- tournaments -------------------------------------------------------- */

static const char tournament_head[] =
    "usage: arena tournament [options] [BOTS...]     (no BOTS: the game's active bots)\n"
    "       arena tournament --resume                (carry on the last unfinished one)\n";
static const char tournament_tail[] =
    "The game's own options are the flags from --option on (see `referee games`).\n"
    "Running the same command again resumes it: stored matches are not played twice.\n"
    "Ctrl-C (or SIGTERM) stops it after storing what is finished, and says how to resume.\n";

/* The tournament's bots into spec: the last unfinished tournament's with
 * --resume, else the named ones, else every active bot. 0, or -1 said. */
static int tournament_bots(arena_db *db, int resume, const char **names, int nnames,
                           arena_spec *spec)
{
    if (resume) {
        arena_tournament t;
        if (nnames || arena_db_tournament_latest_unfinished(db, &t) != 0)
            return ac_fail(nnames ? "--resume takes no bots: it carries on the last tournament"
                                  : "no unfinished tournament to resume"), -1;
        if (arena_spec_from_tournament(&t, spec) < 0)
            return ac_fail("tournament %" PRId64 " cannot be resumed: unknown format '%s'",
                           t.id, t.format), -1;
        return 0;
    }
    if (!nnames) {
        arena_bot *bots;
        int n = arena_db_bot_list(db, &bots);
        for (int i = 0; i < n && spec->nbots < 64; i++) {
            if (strcmp(bots[i].status, "active"))         /* disabled or retired */
                continue;
            if (arena_bot_plays(&bots[i], spec->game))
                spec->bot[spec->nbots++] = bots[i].id;
            else
                fprintf(stderr, "arena: left out %s: it plays %s, not %s\n", bots[i].label,
                        bots[i].plays, spec->game);
        }
        if (n > 0)
            free(bots);
        return 0;
    }
    for (int i = 0; i < nnames; i++) {
        arena_bot b;
        int found = arena_db_bot_by_name(db, names[i], &b);
        if (found != 0)
            return ac_fail(found > 0 ? "unknown bot '%s' (see arena bot list)"
                                     : "cannot look up '%s'", names[i]), -1;
        for (int j = 0; j < spec->nbots; j++)
            if (spec->bot[j] == b.id)
                return ac_fail("bot '%s' is named twice", names[i]), -1;
        spec->bot[spec->nbots++] = b.id;
    }
    return 0;
}

static int cmd_tournament(int argc, char **argv)
{
    arena_spec spec;
    arena_spec_default(&spec);
    arena_run run = { .log_bytes = REF_LOG_DEFAULT_CAP, .keep_logs = -1, .concurrency = -1,
                      .remote_wait_s = 60 };
    char referee[PATH_MAX + 32], err[512];
    cli_sibling("../referee/referee", referee, sizeof referee);
    run.referee = referee;
    int resume = 0, nnames = 0;
    const char *names[64];
    const cli_flag own[] = {
        CLI_CALL("--format", "F", "round-robin (default), gauntlet (the first bot plays all "
                 "others), teams (2 v 2, partners rotating over every split), or free-for-all "
                 "(games of 3 or more seats, each for itself), swiss (--rounds rounds, each "
                 "pairing bots of equal score) or knockout (seeded by rating, the winner of "
                 "each tie goes on); swiss and knockout plan a round when the one before is "
                 "stored", ac_set_tournament_format, &spec.format),
        CLI_NUM("--rounds", CLI_INT, "R", "swiss: rounds to play (default: enough to leave "
                "one winner, ceil(log2 bots))", &spec.rounds, 1, 63),
        CLI_NUM("--games", CLI_INT, "N", "games per pairing, even: seed pairs with seats "
                "swapped (default 10)", &spec.games, 2, ARENA_MAX_GAMES),
        CLI_ARG("--resume", CLI_SWITCH, NULL, "carry on the last unfinished tournament", &resume),
        CLI_NUM("--rating-interval", CLI_INT, "N", "print the standings every N matches",
                &run.rating_interval, 1, INT32_MAX),
        CLI_NUM("--remote-wait", CLI_I64, "S", "a match of a remote bot that is not connected "
                "waits up to S seconds, the others playing meanwhile, then is skipped: the "
                "tournament stops unfinished, --resume plays it (default 60)",
                &run.remote_wait_s, 0, 86400 * 7),
        CLI_END,
    };
    int flagged = ac_spec_flags(argc, argv, own, tournament_head, tournament_tail, &spec, &run,
                                referee, sizeof referee, names, &nnames, 64);
    if (flagged)
        return flagged == 1 ? 0 : 2;
    if (ac_run_check(&run) < 0)
        return 2;
    arena_db *db;
    if (arena_db_open(&db, ac_db_path, 0, err, sizeof err) < 0)
        return ac_fail("%s%s", err, access(ac_db_path, F_OK) != 0
                                     ? " (register bots first: arena bot add NAME --cmd CMD)" : "");
    int rc = 2;
    if (tournament_bots(db, resume, names, nnames, &spec) < 0)
        goto out;
    const char *why;
    int seats, teams;
    if (arena_spec_shape(&spec, &seats, &teams, err, sizeof err) < 0) {
        ac_fail("%s", err);
        goto out;
    }
    if (spec.rounds && spec.format != ARENA_SWISS) {
        ac_fail("--rounds is for --format swiss");
        goto out;
    }
    if (spec.format == ARENA_SWISS && !spec.rounds)     /* ceil(log2 bots): one winner left */
        for (int reach = 1; reach < spec.nbots; reach *= 2)
            spec.rounds++;
    if (arena_spec_plan_size(&spec, seats, &why) < 0) {
        ac_fail("%s", why);
        goto out;
    }
    if (ac_fit_concurrency(&spec, seats, &run) < 0)
        goto out;
    if (ac_bots_ready(db, &spec) < 0)
        goto out;
    int64_t tid = 0;
    run.stop = ac_catch_stops();
    if (arena_tourney_run(db, &spec, &run, &tid, err, sizeof err) < 0) {
        ac_fail("%s", err);
        rc = *run.stop ? 130 : 1;
        goto out;
    }
    rc = 0;
    if (!run.quiet) {
        printf("tournament %" PRId64 " finished\n\n", tid);
        arena_match_filter f = { .tournament_id = tid };
        int event = arena_event_results(db, tid, stdout, err, sizeof err);
        if (event > 0)
            printf("\nElo over its matches:\n");
        if (event < 0 || arena_standings(db, &f, ARENA_TABLE, stdout, err, sizeof err) < 0)
            rc = ac_fail("%s", err);
    }
out:
    arena_db_close(db);
    return rc;
}

/* ---- reports ------------------------------------------------------------ */

/* Every bot's label by id, read once: a listing of a million matches
 * names their seats without a query each. */
typedef struct bot_label {
    int64_t id;
    char label[sizeof ((arena_bot *)0)->label];
} bot_label;

static int by_label_id(const void *a, const void *b)
{
    const bot_label *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

typedef struct match_printer {
    arena_db *db;
    bot_label *labels;        /* by id */
    int nlabels, cap, format, shown;
    FILE *out;
} match_printer;

/* A seat's label: a registered bot's from the list, a removed one's read
 * once and kept in its place; "?" when none. */
static const char *seat_label(match_printer *mp, int64_t id)
{
    bot_label key = { .id = id };
    bot_label *b = bsearch(&key, mp->labels, (size_t)mp->nlabels, sizeof key, by_label_id);
    if (b)
        return b->label;
    arena_bot bot;
    snprintf(key.label, sizeof key.label, "%s",
             arena_db_bot_by_id(mp->db, id, &bot) == 0 ? bot.label : "?");
    if (mp->nlabels == mp->cap) {
        int cap = 2 * mp->cap + 16;
        bot_label *grown = realloc(mp->labels, (size_t)cap * sizeof *grown);
        if (!grown)
            return "?";
        mp->labels = grown;
        mp->cap = cap;
    }
    int at = 0;
    while (at < mp->nlabels && mp->labels[at].id < id)
        at++;
    memmove(&mp->labels[at + 1], &mp->labels[at], (size_t)(mp->nlabels - at) * sizeof key);
    mp->labels[at] = key;
    mp->nlabels++;
    return mp->labels[at].label;
}

/* One match as a row of the listing (an arena_match_fn): printed as it
 * is read, so the listing holds one match at a time. */
static int print_match(const arena_match *m, void *ctx)
{
    match_printer *mp = ctx;
    FILE *out = mp->out;
    int format = mp->format;
    char bots[256] = "", scores[64] = "";
    int bl = 0, sl = 0;
    for (int i = 0; i < m->seats; i++) {
        bl += snprintf(bots + bl, sizeof bots - (size_t)bl, "%s%s",
                       i ? (format == ARENA_TABLE ? " v " : " ") : "", seat_label(mp, m->bot[i]));
        sl += snprintf(scores + sl, sizeof scores - (size_t)sl, "%s%g",
                       i ? (format == ARENA_TABLE ? "-" : " ") : "", m->score[i]);
    }
    double secs = (m->finished_ms - m->started_ms) / 1000.0;
    char culprit[16] = "";
    if (m->culprit >= 0)
        snprintf(culprit, sizeof culprit, "%d", m->culprit);
    if (format == ARENA_CSV) {
        fprintf(out, "%" PRId64 ",%" PRId64 ",%" PRIu64 ",%s,%s,%s,%s,%d,%.3f,", m->id,
                m->tournament_id, m->seed, bots, scores, m->reason, culprit, m->decisions, secs);
        ac_put_text(out, ARENA_CSV, m->detail);
        fputc('\n', out);
    } else if (format == ARENA_JSON) {
        fprintf(out, "%s\n  {\"id\": %" PRId64 ", \"tournament\": %" PRId64 ", \"seed\": %" PRIu64
                     ", \"bots\": \"%s\", \"scores\": \"%s\", \"reason\": \"%s\", \"culprit\": %s,"
                     " \"decisions\": %d, \"seconds\": %.3f, \"detail\": ",
                mp->shown ? "," : "", m->id, m->tournament_id, m->seed, bots, scores, m->reason,
                culprit[0] ? culprit : "null", m->decisions, secs);
        ac_put_text(out, ARENA_JSON, m->detail);
        fputc('}', out);
    } else {
        fprintf(out, "%6" PRId64 " %4" PRId64 "  %-40s %-9s %-14s %7d  ", m->id,
                m->tournament_id, bots, scores, m->reason, m->decisions);
        ac_put_text(out, ARENA_TABLE, m->detail);
        fputc('\n', out);
    }
    mp->shown++;
    return 0;
}

static int print_matches(arena_db *db, int64_t tid, int format, FILE *out)
{
    arena_bot *bots = NULL;
    int nb = arena_db_bot_list(db, &bots);
    bot_label *labels = calloc((size_t)(nb > 0 ? nb : 1), sizeof *labels);
    if (nb < 0 || !labels) {
        free(bots);
        free(labels);
        return ac_fail("cannot read the bots");
    }
    for (int i = 0; i < nb; i++) {
        labels[i].id = bots[i].id;
        snprintf(labels[i].label, sizeof labels[i].label, "%s", bots[i].label);
    }
    free(bots);
    qsort(labels, (size_t)nb, sizeof *labels, by_label_id);
    if (format == ARENA_CSV)
        fprintf(out, "id,tournament,seed,bots,scores,reason,culprit,decisions,seconds,detail\n");
    else if (format == ARENA_JSON)
        fprintf(out, "[");
    else
        fprintf(out, "%6s %4s  %-40s %-9s %-14s %7s  %s\n", "match", "tour", "seats", "result",
                "reason", "moves", "detail");
    match_printer mp = { db, labels, nb, nb > 0 ? nb : 1, format, 0, out };
    arena_match_filter f = { .tournament_id = tid };
    int rc = arena_db_match_each(db, &f, print_match, &mp);
    free(mp.labels);
    if (rc != 0)
        return ac_fail("cannot read the matches");
    if (format == ARENA_JSON)
        fprintf(out, "%s]\n", mp.shown ? "\n" : "");
    return 0;
}

static const char standings_tail[] =
    "elo: a Bradley-Terry fit over the chosen matches, 0 for the average bot, with its 95%\n"
    "interval's half-width (+-); it does not depend on the order the games were played.\n"
    "live: the Elo updated after each match as it was stored (1500 to start, K from\n"
    "--elo-k), the scale `arena history` shows; it does depend on that order.\n"
    "los: the likelihood that the bot is stronger than the one ranked below it.\n";

/* standings, crosstable, matches */
static int cmd_report(int argc, char **argv, const char *what)
{
    int64_t tid = 0;
    int players = 0, format = ARENA_TABLE;
    const char *ladder = NULL;
    cli_flag flags[] = {
        CLI_NUM("--tournament", CLI_I64, "ID", "that tournament's matches only", &tid, 1, 1e18),
        CLI_CALL("--format", "table|csv|json", "the output (default table)", ac_set_format,
                 &format),
        CLI_ARG("--ladder", CLI_STR, "NAME", "that ladder's matches only (a unique beginning "
                "of its name will do)", &ladder),
        CLI_NUM("--players", CLI_INT, "N", "games of N seats only (default: a table for "
                "each number of seats)", &players, 2, ARENA_MAX_SEATS),
        CLI_END,
    };
    int is_matches = !strcmp(what, "matches"), is_standings = !strcmp(what, "standings");
    if (!is_standings)            /* --players is the standings' alone, --ladder not matches' */
        flags[is_matches ? 2 : 3] = (cli_flag)CLI_END;
    char head[128];
    snprintf(head, sizeof head, "usage: arena %s [options]\n", what);
    int parsed = ac_parse(what, flags, argc, argv, NULL, NULL, 0, head,
                          is_standings ? standings_tail : NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[512];
    arena_tournament t;
    arena_ladder l;
    arena_match_filter f = { .tournament_id = tid, .seats = players };
    if (tid && arena_db_tournament_get(db, tid, &t) != 0) {
        arena_db_close(db);
        return ac_fail("no tournament %" PRId64, tid);
    }
    if (ladder && tid) {
        arena_db_close(db);
        return ac_fail("--ladder and --tournament choose different matches: give one");
    }
    if (ladder && arena_db_ladder_find(db, ladder, &l, err, sizeof err) != 0) {
        arena_db_close(db);
        return ac_fail("%s", err);
    }
    if (ladder)
        f.ladder_id = l.id;
    int rc = 0, event = 0;
    if (is_standings && tid && format == ARENA_TABLE &&          /* Swiss, knockout: theirs */
        (event = arena_event_results(db, tid, stdout, err, sizeof err)) > 0)
        printf("\nElo over its matches:\n");
    if (event < 0 ||
        (!strcmp(what, "crosstable") &&
         arena_crosstable(db, &f, format, stdout, err, sizeof err) < 0) ||
        (!strcmp(what, "standings") &&
         arena_standings(db, &f, format, stdout, err, sizeof err) < 0))
        rc = ac_fail("%s", err);
    else if (!strcmp(what, "matches"))
        rc = print_matches(db, tid, format, stdout);
    arena_db_close(db);
    return rc;
}

static const char match_head[] =
    "usage: arena match MATCH_ID [--logs] [--tail N]\n"
    "Shows a stored match: each seat's bot (name, version, id), score, decisions and time\n"
    "used; the result, its reason and detail; and each seat's log as the tournament kept it\n"
    "(arena tournament --log-bytes).\n";

static int cmd_match(int argc, char **argv)
{
    int64_t id = 0, tail = 10;
    int logs = 0, n = 0;
    const char *ids[1];
    const cli_flag flags[] = {
        CLI_ARG("--logs", CLI_SWITCH, NULL, "each seat's log whole", &logs),
        CLI_NUM("--tail", CLI_I64, "N", "the last N lines of each seat's log (default 10)",
                &tail, 0, INT32_MAX),
        CLI_END,
    };
    int parsed = ac_parse("match", flags, argc, argv, ids, &n, 1, match_head, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n)
        return ac_fail("match needs a MATCH_ID (arena matches lists them)");
    if (kv_i64(ids[0], 1, INT64_MAX, &id) < 0)
        return ac_fail("a match number is wanted, not '%s'", ids[0]);
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[256];
    int rc = arena_show_match(db, id, logs ? -1 : (int)tail, stdout, err, sizeof err);
    arena_db_close(db);
    return rc ? ac_fail("%s", err) : 0;
}

static const char usage[] =
    "usage: arena [--db FILE] COMMAND ...      (default database: ./arena.db)\n"
    "  bot add|list|...       register bots and versions; retire, disable, enable\n"
    "  tournament             round-robin, gauntlet, teams, free-for-all, swiss, knockout\n"
    "  ladder                 a competition that runs until stopped and rates bots as it goes\n"
    "  standings              rank, Elo with 95%% interval, games, W-D-L, score\n"
    "  crosstable             results pair by pair\n"
    "  matches                every stored match: bots, result, reason and its detail\n"
    "  match MATCH_ID         one match: seats, result, time used, each bot's log\n"
    "  export MATCH_ID [FILE] write a match record, for referee replay and referee show\n"
    "  export --tournament ID DIR | --ladder NAME DIR   every match's record into DIR\n"
    "  export MATCH_ID --html FILE   the match as one page to share (no server needed)\n"
    "  replay MATCH_ID        verify a stored match record\n"
    "  rerun MATCH_ID         play a stored match again with the same bots and seed\n"
    "  check [--replay]       the file whole; stored ratings against a recompute;\n"
    "                         --replay also re-simulates every stored match's record\n"
    "  backup FILE            a consistent copy of the database, even while it is written\n"
    "  history BOT            a bot's rating over time: live Elo per match, or a ladder's fits\n"
    "  sprt A B [--play]      is A stronger than B by X Elo? fishtest's SPRT on seed pairs:\n"
    "                         over stored games, or playing pairs until it decides\n"
    "  bench                  matches per minute at concurrency 1 and 2, cpu vs wall clock\n"
    "  keygen PATH            a CURVE key pair for the worker link: PATH and PATH.pub\n"
    "  user add|list|revoke   participants, each with a credentials file to submit with\n"
    "  gateway --listen E     the participants' entrance: submissions stored, checked, added\n"
    "  submit                 a participant's bot sent to the gateway (--list: their bots)\n"
    "  connect                a participant's remote bot played from their machine\n"
    "  relay                  a remote bot's seat, run by the referee (not by hand)\n"
    "  worker add|list|revoke remote workers admitted by their keys (--curve-key), at once\n"
    "  bench --web            the web's routes timed at a million matches\n"
    "  bench --ladder         the ladder's overhead per match; its BT refresh at 1M matches\n"
    "  bench --coordinator    matches a minute one arena takes from workers answering at once\n"
    "  bench --remote         workers in network namespaces against the same local (root)\n"
    "  serve                  the web: leaderboard, bots, matches, replays (read-only)\n"
    "Each command takes --help; --version prints the release.\n";

/* arena keygen PATH: the arena's key pair, or a worker's. */
static int cmd_keygen(int argc, char **argv)
{
    if (ac_help(argc, argv)) {
        printf("usage: arena keygen PATH\n"
               "Writes a CURVE key pair: PATH (the secret key, mode 0600) and PATH.pub.\n"
               "The arena takes its own with --curve-key PATH and lists its workers' .pub\n"
               "keys in the file given to --curve-workers; each worker takes\n"
               "--curve-server ARENA.pub --curve-key ITS_PATH (docker/README.md).\n");
        return 0;
    }
    if (argc != 1 || argv[0][0] == '-')
        return ac_fail("keygen needs exactly one PATH");
    char err[512];
    if (zauth_keygen(argv[0], err, sizeof err) < 0)
        return ac_fail("%s", err);
    printf("wrote %s (secret) and %s.pub\n", argv[0], argv[0]);
    return 0;
}

static int run_command(const char *cmd, int n, char **rest)
{
    if (!strcmp(cmd, "bot"))
        return ac_bot(n, rest);
    if (!strcmp(cmd, "worker"))
        return ac_worker(n, rest);
    if (!strcmp(cmd, "ladder"))
        return ac_ladder(n, rest);
    if (!strcmp(cmd, "tournament"))
        return cmd_tournament(n, rest);
    if (!strcmp(cmd, "standings") || !strcmp(cmd, "crosstable") || !strcmp(cmd, "matches"))
        return cmd_report(n, rest, cmd);
    if (!strcmp(cmd, "export"))
        return ac_export(n, rest);
    if (!strcmp(cmd, "match"))
        return cmd_match(n, rest);
    if (!strcmp(cmd, "replay"))
        return ac_replay(n, rest);
    if (!strcmp(cmd, "rerun"))
        return ac_rerun(n, rest);
    if (!strcmp(cmd, "check"))
        return ac_check(n, rest);
    if (!strcmp(cmd, "backup"))
        return ac_backup(n, rest);
    if (!strcmp(cmd, "history"))
        return ac_history(n, rest);
    if (!strcmp(cmd, "sprt"))
        return ac_sprt(n, rest);
    if (!strcmp(cmd, "user"))
        return ac_user(n, rest);
    if (!strcmp(cmd, "gateway"))
        return ac_gateway(n, rest);
    if (!strcmp(cmd, "submit"))
        return ac_submit(n, rest);
    if (!strcmp(cmd, "connect"))
        return ac_connect(n, rest);
    if (!strcmp(cmd, "relay"))
        return ac_relay(n, rest);
    if (!strcmp(cmd, "keygen"))
        return cmd_keygen(n, rest);
    if (!strcmp(cmd, "serve"))
        return web_serve_main(n, rest, ac_db_path);
    if (!strcmp(cmd, "bench") && n > 0 && !strcmp(rest[0], "--web"))
        return web_bench_main(n - 1, rest + 1);
    if (!strcmp(cmd, "bench")) {
        char referee[PATH_MAX + 32], bot[PATH_MAX + 32];
        cli_sibling("../referee/referee", referee, sizeof referee);
        cli_sibling("../agents/random", bot, sizeof bot);
        if (n > 0 && !strcmp(rest[0], "--ladder"))
            return arena_bench_ladder_main(n - 1, rest + 1, referee, bot);
        if (n > 0 && !strcmp(rest[0], "--coordinator"))
            return arena_bench_coord_main(n - 1, rest + 1, referee, bot);
        if (n > 0 && !strcmp(rest[0], "--remote"))
            return arena_bench_remote_main(n - 1, rest + 1, referee, bot);
        return arena_bench_main(n, rest, referee, bot);
    }
    return ac_fail("unknown command '%s' (see arena --help)", cmd);
}

int main(int argc, char **argv)
{
    char extra[64];
    snprintf(extra, sizeof extra, "(database schema %d)", ARENA_DB_SCHEMA);
    if (cli_version(argc, argv, "arena", extra))
        return 0;
    /* The database (and its -wal, -shm) is the arena's alone: no bot, even
     * one shown the folder holding it, may read it (docs/SECURITY.md). */
    umask(077);
    int i = 1;
    while (i < argc && !strcmp(argv[i], "--db")) {
        if (i + 1 >= argc)
            return ac_fail("--db needs a file name");
        ac_db_path = argv[i + 1];
        i += 2;
    }
    if (i >= argc || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
        printf(usage);
        return i >= argc ? 2 : 0;
    }
    const char *cmd = argv[i];
    /* --db may also come after the command. */
    char *rest[256];
    int n = 0;
    for (int k = i + 1; k < argc && n < 256; k++) {
        if (!strcmp(argv[k], "--db")) {
            if (k + 1 >= argc)
                return ac_fail("--db needs a file name");
            ac_db_path = argv[++k];
            continue;
        }
        rest[n++] = argv[k];
    }
    arena_db_watch_damage();
    return ac_damage_said(run_command(cmd, n, rest));
}
