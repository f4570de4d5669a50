/*
 * arena_cmd_match.c - commands on one stored match: replay (verify its
 * record), rerun (play it again and say where it first differs), export.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include "arena_cmd.h"
#include "arena_show.h"
#include "arena_tourney.h"
#include "kv.h"
#include "ref_env.h"
#include "ref_log.h"
#include "ref_match.h"
#include "ref_record.h"
#include "web_page.h"

static int load_match(arena_db *db, const char *arg, arena_match *m, ref_record *rec,
                      const game_api **g)
{
    int64_t id;
    char err[256];
    if (kv_i64(arg, 1, INT64_MAX, &id) < 0)
        return ac_fail("a match number is wanted, not '%s'", arg);
    if (arena_db_match_get(db, id, m) != 0)
        return ac_fail("no match %" PRId64, id);
    if (!m->record) {             /* judged unplayed (arena_jobs.h: a verdict) */
        int rc = ac_fail("match %" PRId64 " has no record: it was judged, not played (%s: %s)",
                         id, m->reason, m->detail);
        arena_match_free(m);
        return rc;
    }
    if (ref_record_parse(rec, g, m->record, err, sizeof err) < 0) {
        arena_match_free(m);
        return ac_fail("match %" PRId64 ": the stored record is unreadable: %s", id, err);
    }
    return 0;
}

int ac_replay(int argc, char **argv)
{
    if (argc != 1 || ac_help(argc, argv)) {
        puts("usage: arena replay MATCH_ID    (re-simulate the stored record and verify it)");
        return argc == 1 ? 0 : 2;
    }
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    arena_match m = { 0 };
    ref_record rec = { 0 };
    const game_api *g = NULL;
    int rc = load_match(db, argv[0], &m, &rec, &g);
    arena_db_close(db);
    if (rc)
        return rc;
    assert(g);                          /* load_match names the record's game */
    char err[256];
    if (ref_record_verify(&rec, g, err, sizeof err) < 0) {
        fprintf(stderr, "arena: match %" PRId64 ": mismatch: %s\n", m.id, err);
        rc = 1;
    } else {
        printf("match %" PRId64 ": verified, %zu decisions, %s, hash %016" PRIx64 "\n", m.id,
               rec.ndecisions, rec.reason, rec.hash);
    }
    ref_record_free(&rec);
    arena_match_free(&m);
    return rc;
}

static void print_logs(const char *dir, int seats)
{
    for (int i = 0; i < seats; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/seat%d.log", dir, i);
        ref_log l;
        if (ref_log_read(&l, path, REF_LOG_MAX_CAP) < 0) {
            printf("--- seat %d log: cannot be read: %s ---\n", i, strerror(errno));
            continue;
        }
        arena_show_log(stdout, i, l.text, l.len, l.bytes, -1);
        ref_log_free(&l);
    }
}

static void remove_logs(const char *dir, int seats)
{
    for (int i = 0; i < seats; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/seat%d.log", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

/* Which seat's decision differs first, and how: the bot to look at. */
static void print_divergence(const ref_record *old, const ref_record *fresh, const game_api *g,
                             const arena_bot *bots, size_t i)
{
    char was[128] = "", now[128] = "";
    if (i < old->ndecisions)
        g->format(old->decisions[i].action, was, sizeof was);
    if (i < fresh->ndecisions)
        g->format(fresh->decisions[i].action, now, sizeof now);
    if (i < old->ndecisions && i < fresh->ndecisions) {
        int seat = fresh->decisions[i].seat;
        printf("decision #%zu differs first: seat %d (%s) chose '%s', stored '%s'\n", i + 1,
               seat, bots[seat].label, now, was);
    } else if (i < old->ndecisions) {
        printf("the rerun ended before decision #%zu (seat %d's '%s' in the stored match)\n",
               i + 1, old->decisions[i].seat, was);
    } else if (i < fresh->ndecisions) {
        printf("the stored match ended before decision #%zu (seat %d's '%s' in the rerun)\n",
               i + 1, fresh->decisions[i].seat, now);
    } else {
        printf("every decision is the same; the end differs (%s)\n", fresh->reason);
    }
}

int ac_rerun(int argc, char **argv)
{
    int logs = argc == 2 && !strcmp(argv[1], "--logs");
    if (argc != 1 + logs || ac_help(argc, argv)) {
        puts("usage: arena rerun MATCH_ID [--logs]\n"
             "Plays the match again (same bots, seed, options, time control) and compares it\n"
             "with the stored one; where they differ, names the first decision that does,\n"
             "its seat and bot. --logs prints each seat's log of the rerun. Its bots are\n"
             "sandboxed as $ARENA_SANDBOX says, else auto.");
        return ac_help(argc, argv) ? 0 : 2;
    }
    ref_sandbox_mode mode;
    char why[512];
    if (ref_sandbox_mode_choose(NULL, &mode, why, sizeof why) < 0)
        return ac_fail("%s", why);
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    arena_match m = { 0 };
    ref_record old = { 0 }, fresh;
    const game_api *g = NULL;
    int rc = load_match(db, argv[0], &m, &old, &g);
    if (rc) {
        arena_db_close(db);
        return rc;
    }
    assert(g);                          /* load_match names the record's game */
    ref_config c;
    ref_config_default(&c);
    c.sandbox = mode;
    arena_tournament t;
    arena_spec spec;
    if (m.tournament_id && arena_db_tournament_get(db, m.tournament_id, &t) == 0 &&
        arena_spec_from_tournament(&t, &spec) == 0) {
        c.terms = spec.terms;             /* the tournament's, as its workers had them */
    }
    arena_bot bots[ARENA_MAX_SEATS];
    ref_env env[ARENA_MAX_SEATS];
    char err[512] = "out of memory";
    int env_ok = 1;
    for (int i = 0; i < m.seats; i++) {
        if (arena_db_bot_by_id(db, m.bot[i], &bots[i]) != 0) {
            arena_db_close(db);
            rc = ac_fail("match %" PRId64 ": its bot #%" PRId64 " cannot be read", m.id, m.bot[i]);
            ref_record_free(&old);
            arena_match_free(&m);
            return rc;
        }
        c.bot_cmd[i] = bots[i].cmd;
        c.bot_cwd[i] = bots[i].cwd[0] ? bots[i].cwd : NULL;
        if (ref_env_parse(&env[i], bots[i].env, err, sizeof err) < 0)
            env_ok = 0;           /* checked when added: only a hand-edited row */
        c.bot_env[i] = env[i].entry;
    }
    arena_db_close(db);
    game_options *options = game_options_new(g);
    c.game = g;
    c.options = options;
    c.seed = m.seed;
    c.nbots = m.seats;
    ref_record_init(&fresh);
    char log_dir[PATH_MAX];
    snprintf(log_dir, sizeof log_dir, "%s/arena-rerun-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (logs && !mkdtemp(log_dir)) {
        rc = ac_fail("cannot make a folder for the logs: %s: %s", log_dir, strerror(errno));
        goto out;
    }
    c.log_dir = logs ? log_dir : NULL;
    if (!env_ok || !options || game_options_parse(options, m.options, err, sizeof err) < 0 ||
        ref_match_play(&c, &fresh, err, sizeof err) < 0) {
        rc = ac_fail("rerun failed: %s", err);
        goto out;
    }
    size_t diverge = 0;
    while (diverge < old.ndecisions && diverge < fresh.ndecisions &&
           old.decisions[diverge].action == fresh.decisions[diverge].action)
        diverge++;
    int same = diverge == old.ndecisions && diverge == fresh.ndecisions &&
               !strcmp(old.reason, fresh.reason) && old.hash == fresh.hash;
    for (int i = 0; i < m.seats; i++)
        same = same && old.score[i] == fresh.score[i];
    printf("match %" PRId64 " rerun: %s (%s), %zu decisions, hash %016" PRIx64 "\n", m.id,
           fresh.reason, fresh.detail, fresh.ndecisions, fresh.hash);
    if (same) {
        printf("identical to the stored match\n");
    } else {
        printf("different from the stored match (%s, %zu decisions, hash %016" PRIx64 ")\n",
               old.reason, old.ndecisions, old.hash);
        print_divergence(&old, &fresh, g, bots, diverge);
        rc = 1;
    }
    if (logs)
        print_logs(log_dir, m.seats);
out:
    if (logs)
        remove_logs(log_dir, m.seats);
    game_options_free(options);
    ref_record_free(&old);
    ref_record_free(&fresh);
    arena_match_free(&m);
    return rc;
}

/* One match's record into the open file out: 0, or -1. */
static int write_record(const arena_match *m, FILE *out)
{
    return m->record && fputs(m->record, out) != EOF ? 0 : -1;
}

/* Every match a tournament or ladder chose into dir, match-ID.rec each
 * (the folder made when missing). 0, or 2 or 1 after the error line. */
static int export_many(arena_db *db, const arena_match_filter *f, const char *dir)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return ac_fail("cannot make the folder %s: %s", dir, strerror(errno));
    arena_match *list;
    int n = arena_db_match_list(db, f, &list);
    if (n < 0)
        return ac_fail("cannot read the matches");
    int rc = 0, wrote = 0;
    for (int k = 0; k < n && rc == 0; k++) {
        char path[PATH_MAX];
        arena_match m;
        if ((size_t)snprintf(path, sizeof path, "%s/match-%" PRId64 ".rec", dir, list[k].id) >=
            sizeof path) {
            rc = ac_fail("the folder's name is too long");
            break;
        }
        if (arena_db_match_get(db, list[k].id, &m) != 0) {
            rc = ac_fail("cannot read match %" PRId64, list[k].id);
            break;
        }
        FILE *out = fopen(path, "w");
        int bad = !out || write_record(&m, out) < 0;
        bad |= out && fclose(out) != 0;
        arena_match_free(&m);
        if (bad)
            rc = (ac_fail("cannot write %s: %s", path, strerror(errno)), 1);
        else
            wrote++;
    }
    free(list);
    if (rc == 0)
        printf("wrote %d record%s to %s (referee replay FILE, referee show FILE)\n", wrote,
               wrote == 1 ? "" : "s", dir);
    return rc;
}

static const char export_head[] =
    "usage: arena export MATCH_ID [FILE]\n"
    "       arena export MATCH_ID --html FILE\n"
    "       arena export --tournament ID DIR | --ladder NAME DIR\n"
    "Writes a stored match record to FILE (default: standard output), or every match of a\n"
    "tournament or ladder to DIR as match-ID.rec (DIR made when missing), for referee\n"
    "replay FILE and referee show FILE. --html writes one page that needs no server and\n"
    "nothing from the internet: the replay viewer (board, decisions, each seat's view and\n"
    "log) with the match inside, to share a game as a file.\n";

int ac_export(int argc, char **argv)
{
    int64_t tid = 0, id;
    const char *ladder = NULL, *html = NULL, *pos[2];
    int n = 0;
    const cli_flag flags[] = {
        CLI_NUM("--tournament", CLI_I64, "ID", "every match of that tournament, into DIR", &tid,
                1, 1e18),
        CLI_ARG("--ladder", CLI_STR, "NAME", "every match of that ladder (a unique beginning of "
                "its name will do), into DIR", &ladder),
        CLI_ARG("--html", CLI_STR, "FILE", "the match as one self-contained page", &html),
        CLI_END,
    };
    int parsed = ac_parse("export", flags, argc, argv, pos, &n, 2, export_head, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (tid && ladder)
        return ac_fail("export: --tournament and --ladder choose different matches: give one");
    if (html && (tid || ladder || n != 1))
        return ac_fail("export --html FILE takes one MATCH_ID");
    if ((tid || ladder) && n != 1)
        return ac_fail("export --%s needs one DIR, the folder for the records",
                       tid ? "tournament" : "ladder");
    if (!tid && !ladder && n < 1)
        return ac_fail("export needs a MATCH_ID, or --tournament ID DIR, or --ladder NAME DIR");
    if (!tid && !ladder && kv_i64(pos[0], 1, INT64_MAX, &id) < 0)
        return ac_fail("a match number is wanted, not '%s'", pos[0]);
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[512];
    arena_tournament t;
    arena_ladder l;
    arena_match_filter f = { .tournament_id = tid };
    int rc;
    if (tid && arena_db_tournament_get(db, tid, &t) != 0)
        rc = ac_fail("no tournament %" PRId64, tid);
    else if (ladder && arena_db_ladder_find(db, ladder, &l, err, sizeof err) != 0)
        rc = ac_fail("%s", err);
    else if (tid || ladder) {
        f.ladder_id = ladder ? l.id : 0;
        rc = export_many(db, &f, pos[0]);
    } else if (html) {
        FILE *out = fopen(html, "w");
        rc = out ? 0 : ac_fail("cannot write %s: %s", html, strerror(errno));
        if (out && web_match_page(db, id, out, err, sizeof err) < 0)
            rc = ac_fail("export --html: %s", err);
        if (out && fclose(out) != 0 && rc == 0)
            rc = ac_fail("cannot write %s", html);
        if (rc)
            unlink(html);
        else
            printf("wrote match %" PRId64 " to %s: open it in a browser\n", id, html);
    } else {
        arena_match m;
        int found = arena_db_match_get(db, id, &m);
        arena_db_close(db);
        if (found != 0)
            return ac_fail(found > 0 ? "no match %" PRId64 : "cannot read match %" PRId64, id);
        rc = 0;
        FILE *out = n == 2 ? fopen(pos[1], "w") : stdout;
        if (!out) {
            rc = ac_fail("cannot write %s: %s", pos[1], strerror(errno));
        } else {
            int bad = write_record(&m, out) < 0;
            bad |= out == stdout ? fflush(out) != 0 : fclose(out) != 0;   /* closed either way */
            if (bad)
                rc = ac_fail("cannot write the record of match %" PRId64 "%s%s", id,
                             n == 2 ? " to " : "", n == 2 ? pos[1] : "");
        }
        arena_match_free(&m);
        return rc;
    }
    arena_db_close(db);
    return rc;
}
