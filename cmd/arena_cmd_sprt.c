/*
 * arena_cmd_sprt.c - `arena sprt A B`: fishtest's SPRT between two bots
 * (arena_sprt.c), over their stored games, or with --play over games it
 * plays until the test decides, as fastchess's -sprt does. Those games are
 * an ordinary round-robin tournament of A v B (arena_tourney.c plays it;
 * the test, asked after each stored match, ends it early), so standings,
 * matches, the web and a resume see it like any other.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "arena_cmd.h"
#include "arena_plan.h"
#include "arena_report.h"
#include "arena_sprt.h"
#include "ref_log.h"

static const char sprt_head[] =
    "usage: arena sprt A B [--elo0 E] [--elo1 E] [--alpha A] [--beta B] [--tournament ID]\n"
    "                      [--seats N]\n"
    "       arena sprt A B --play [--max-games N] [--elo0 E] ... [tournament flags]\n"
    "Tests H1 \"A is stronger than B by elo1 Elo\" against H0 \"by elo0\", counting seed pairs\n"
    "(a deal played from both seats) as units, as fishtest does. Without --play it answers\n"
    "over the stored games: exit 0 H1 accepted, 1 H0 accepted, 3 keep playing. With --play it\n"
    "plays seed pairs of A v B until the test decides or --max-games are played, a line per\n"
    "pair, the verdict at the end, and exits 0 either way.\n";
static const char sprt_tail[] =
    "With --play the flags from --concurrency on are those of arena tournament: the games\n"
    "are a round-robin tournament of A and B of at most --max-games games (arena standings,\n"
    "matches, the web show it). Running the same command again resumes it, or says the\n"
    "verdict it reached; the pairs in flight when the test decides are played and stored,\n"
    "but the verdict stands as of the pair that reached it.\n";

#define SPRT_MAX_GAMES_DEFAULT 2000   /* as the ladder's --gate-max-games */

typedef struct sprt_opts {
    rt_sprt_params p;
    int play, max_games, seats;
    int64_t tournament_id;
} sprt_opts;

/* The test, asked by the tournament runner after each stored match: a
 * line per new seed pair; nonzero once decided. */
typedef struct sprt_watch {
    int64_t a, b;
    rt_sprt_params p;
    long pairs;               /* pairs the last line counted */
} sprt_watch;

static int decided(void *ctx, arena_db *db, int64_t tournament_id)
{
    sprt_watch *w = ctx;
    arena_match_filter f = { .tournament_id = tournament_id, .seats = 2 };
    arena_sprt_tally t;
    char err[256];
    if (arena_sprt_tally_of(db, w->a, w->b, &f, &w->p, 1, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena: cannot count the games (playing on): %s\n", err);
        return 0;
    }
    if (t.pairs > w->pairs) {
        w->pairs = t.pairs;
        arena_sprt_line(&t, stdout);
        fflush(stdout);
    }
    return t.r.verdict != RT_SPRT_CONTINUE;
}

/* The tournament's verdict, up to the pair that decided it, with the
 * tournament's number; a test out of games says so. Exit status. */
static int verdict(arena_db *db, const sprt_watch *w, int64_t tid, int max_games)
{
    arena_match_filter f = { .tournament_id = tid, .seats = 2 };
    char err[256];
    arena_tournament t;
    if (arena_db_tournament_get(db, tid, &t) != 0)
        return ac_fail("cannot read tournament %" PRId64, tid);
    printf("tournament %" PRId64 ": %d games stored\n", tid, t.done);
    int v = arena_sprt(db, w->a, w->b, &f, &w->p, 1, stdout, err, sizeof err);
    if (v == -2)
        return ac_fail("%s", err);
    if (v == RT_SPRT_CONTINUE)
        printf("undecided after --max-games %d games\n", max_games);
    return 0;
}

/* A and B by name, two bots: 0, or -1 after the error line. */
static int two_bots(arena_db *db, const char **names, arena_bot *a, arena_bot *b)
{
    for (int i = 0; i < 2; i++)
        if (arena_db_bot_by_name(db, names[i], i ? b : a) != 0)
            return ac_fail("unknown bot '%s' (see arena bot list)", names[i]), -1;
    if (a->id == b->id)
        return ac_fail("a bot cannot be tested against itself"), -1;
    return 0;
}

/* --play: A v B a seed pair at a time until decided or out of games. */
static int play(const sprt_opts *o, const char **names, arena_spec *spec, arena_run *run)
{
    rt_sprt_result r;
    long none[5] = { 0 };
    if (o->tournament_id || o->seats)
        return ac_fail("--tournament and --seats test a stored record: not with --play");
    int max_games = o->max_games ? o->max_games : SPRT_MAX_GAMES_DEFAULT;
    if (max_games % 2)
        return ac_fail("--max-games wants an even number (whole seed pairs), not %d",
                       max_games);
    if (rt_sprt_pentanomial(&o->p, none, &r) != RT_OK)
        return ac_fail("bad SPRT bounds: need elo0 < elo1 and 0 < alpha, beta < 1");
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    arena_bot a, b;
    sprt_watch w = { .p = o->p };
    char err[512];
    int rc = 2, seats, teams;
    if (two_bots(db, names, &a, &b) < 0)
        goto out;
    w.a = a.id, w.b = b.id;
    spec->format = ARENA_ROUND_ROBIN;
    spec->games = max_games;
    spec->nbots = 2;
    spec->bot[0] = a.id, spec->bot[1] = b.id;
    if (arena_spec_shape(spec, &seats, &teams, err, sizeof err) < 0) {
        ac_fail("%s", err);
        goto out;
    }
    if (ac_fit_concurrency(spec, seats, run) < 0 || ac_bots_ready(db, spec) < 0)
        goto out;
    arena_tournament t;
    const char *why;
    int total = arena_spec_plan_size(spec, seats, &why);
    if (total < 0) {
        ac_fail("%s", why);
        goto out;
    }
    arena_spec_to_tournament(spec, total, &t);
    if (arena_db_tournament_open(db, &t, err, sizeof err) < 0) {
        ac_fail("%s", err);
        goto out;
    }
    if (decided(&w, db, t.id)) {             /* a run before this one decided */
        arena_db_tournament_finish(db, t.id);
        rc = verdict(db, &w, t.id, max_games);
        goto out;
    }
    arena_run watched = *run;
    watched.enough = decided;
    watched.enough_ctx = &w;
    watched.stop = ac_catch_stops();
    if (arena_tourney_run(db, spec, &watched, &t.id, err, sizeof err) < 0) {
        ac_fail("%s", err);
        rc = *watched.stop ? 130 : 1;
        goto out;
    }
    rc = verdict(db, &w, t.id, max_games);
out:
    arena_db_close(db);
    return rc;
}

/* Without --play: the test over the stored record. */
static int record(const sprt_opts *o, const char **names)
{
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    arena_bot a, b;
    char err[256];
    int rc = 2;
    if (two_bots(db, names, &a, &b) == 0) {
        arena_match_filter f = { .tournament_id = o->tournament_id,
                                 .seats = o->seats ? o->seats : 2 };
        int v = arena_sprt(db, a.id, b.id, &f, &o->p, 0, stdout, err, sizeof err);
        rc = v == -2 ? ac_fail("%s", err) : v == RT_SPRT_ACCEPT_H1 ? 0
           : v == RT_SPRT_ACCEPT_H0 ? 1 : 3;
    }
    arena_db_close(db);
    return rc;
}

int ac_sprt(int argc, char **argv)
{
    sprt_opts o = { .p = ARENA_SPRT_DEFAULTS };
    const cli_flag own[] = {
        CLI_ARG("--play", CLI_SWITCH, NULL, "play seed pairs of A v B until the test decides",
                &o.play),
        CLI_NUM("--max-games", CLI_INT, "N", "--play: at most N games, even (default 2000)",
                &o.max_games, 2, ARENA_MAX_GAMES),
        CLI_NUM("--elo0", CLI_F64, "E", "H0: A is stronger by E Elo (default 0)", &o.p.elo0,
                -1e9, 1e9),
        CLI_NUM("--elo1", CLI_F64, "E", "H1: A is stronger by E Elo (default 10)", &o.p.elo1,
                -1e9, 1e9),
        CLI_NUM("--alpha", CLI_F64, "A", "chance of accepting H1 when H0 holds (default 0.05)",
                &o.p.alpha, -1e9, 1e9),
        CLI_NUM("--beta", CLI_F64, "B", "chance of accepting H0 when H1 holds (default 0.05)",
                &o.p.beta, -1e9, 1e9),
        CLI_NUM("--tournament", CLI_I64, "ID", "without --play: that tournament's games only",
                &o.tournament_id, 1, 1e18),
        CLI_NUM("--seats", CLI_INT, "N", "without --play: games of N seats where A's team "
                "opposes B's (default 2)", &o.seats, 2, ARENA_MAX_SEATS),
        CLI_END,
    };
    const char *names[2];
    int n = 0, play_flag = 0;
    for (int i = 0; i < argc; i++)
        play_flag |= !strcmp(argv[i], "--play");
    if (play_flag || ac_help(argc, argv)) {
        arena_spec spec;
        arena_spec_default(&spec);
        arena_run run = { .log_bytes = REF_LOG_DEFAULT_CAP, .keep_logs = -1, .concurrency = -1 };
        char referee[PATH_MAX + 32];
        cli_sibling("../referee/referee", referee, sizeof referee);
        run.referee = referee;
        int flagged = ac_spec_flags(argc, argv, own, sprt_head, sprt_tail, &spec, &run, referee,
                                    sizeof referee, names, &n, 2);
        if (flagged)
            return flagged == 1 ? 0 : 2;
        if (n != 2)
            return ac_fail("sprt --play needs two bots, A and B (see --help)");
        if (ac_run_check(&run) < 0)
            return 2;
        return play(&o, names, &spec, &run);
    }
    if (ac_parse("sprt", own, argc, argv, names, &n, 2, sprt_head, sprt_tail))
        return 2;                   /* --help went the --play way */
    if (n != 2)
        return ac_fail("sprt needs two bots, A and B (see --help)");
    if (o.max_games)
        return ac_fail("--max-games is for --play");
    return record(&o, names);
}
