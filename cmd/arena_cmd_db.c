/*
 * arena_cmd_db.c - the database file itself: `arena check` (the file
 * whole, the ratings and summaries equal to a recompute, and with
 * --replay every record re-simulated to its row), `arena backup
 * FILE` (a consistent copy of a live database), and what every command
 * says when it met a damaged file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arena_audit.h"
#include "arena_cmd.h"

int ac_damage_said(int rc)
{
    if (!arena_db_damage_seen())
        return rc;
    fprintf(stderr,
            "arena: %s is damaged (SQLite: database disk image is malformed); what was read "
            "from it may be missing or wrong. Restore a backup (arena backup FILE makes one of "
            "a live database), or save what can be read: sqlite3 %s .recover | sqlite3 "
            "recovered.db\n",
            ac_db_path, ac_db_path);
    return rc ? rc : 1;
}

/* `arena check --replay`: every stored record re-simulated, progress on
 * stderr. 0 all match, 1 some do not (named on stdout), 2 cannot check. */
static int check_replays(arena_db *db)
{
    char err[256];
    int64_t checked = 0;
    int bad = arena_audit_replay(db, stdout, stderr, 10000, &checked, err, sizeof err);
    if (bad < 0)
        return ac_fail("cannot replay the matches: %s", err);
    if (bad > 0) {
        fprintf(stderr, "arena: %d of %" PRId64 " stored matches do not replay to their rows\n",
                bad, checked);
        return 1;
    }
    printf("every stored match (%" PRId64 ") replays to its row\n", checked);
    return 0;
}

int ac_check(int argc, char **argv)
{
    int replay = argc == 1 && !strcmp(argv[0], "--replay");
    if ((argc && !replay) || ac_help(argc, argv)) {
        puts("usage: arena check [--replay]    (the file whole; stored ratings, per-bot\n"
             "                    summaries and the reports' result totals must equal a\n"
             "                    recompute from the matches;\n"
             "                    --replay: every stored match re-simulated from its record\n"
             "                    must give its row)");
        return argc && !replay ? 2 : 0;
    }
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[512];
    const char *what = "the file";
    int rc = arena_db_integrity(db, err, sizeof err);
    if (rc == 0) {
        rc = arena_db_check_ratings(db, err, sizeof err);
        what = "ratings";
    }
    if (rc == 0) {
        rc = arena_db_check_summaries(db, err, sizeof err);
        what = "per-bot summaries";
    }
    if (rc == 0) {
        rc = arena_db_check_totals(db, err, sizeof err);
        what = "result totals";
    }
    if (rc != 0) {
        arena_db_close(db);
        if (rc < 0)
            return ac_fail("cannot check: %s", err);
        if (!strcmp(what, "the file"))
            fprintf(stderr, "arena: %s is damaged: %s\n", ac_db_path, err);
        else
            fprintf(stderr, "arena: %s differ from the matches: %s\n", what, err);
        return 1;
    }
    printf("ratings equal a recompute from the match table\n"
           "per-bot summaries equal a recompute from the match seats\n"
           "result totals equal a replay of the matches\n"
           "the file is whole (SQLite's quick_check)\n");
    rc = replay ? check_replays(db) : 0;
    arena_db_close(db);
    return rc;
}

static const char backup_help[] =
    "usage: arena backup FILE\n"
    "Copies the database (--db) into the new FILE as it stands, consistently, while\n"
    "tournaments and ladders go on writing it (SQLite's online backup); the copy is\n"
    "checked whole. To restore, stop the arena and use FILE as its --db.\n";

int ac_backup(int argc, char **argv)
{
    if (ac_help(argc, argv)) {
        fputs(backup_help, stdout);
        return 0;
    }
    if (argc != 1 || argv[0][0] == '-')
        return ac_fail("backup needs exactly one FILE, the copy to make");
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[512];
    int rc = arena_db_backup(db, argv[0], err, sizeof err);
    arena_db_close(db);
    if (rc < 0) {
        fprintf(stderr, "arena: backup: %s\n", err);
        return 1;
    }
    printf("backed up %s to %s\n", ac_db_path, argv[0]);
    return 0;
}
