/*
 * arena_cmd_db.c - the database file itself: `arena check` (the file
 * whole, the ratings and summaries equal to a recompute), `arena backup
 * FILE` (a consistent copy of a live database), and what every command
 * says when it met a damaged file.
 */
#include <stdio.h>
#include <string.h>

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

int ac_check(int argc, char **argv)
{
    if (argc || ac_help(argc, argv)) {
        puts("usage: arena check    (the file whole; stored ratings and per-bot summaries\n"
             "                        must equal a recompute from the matches)");
        return argc ? 2 : 0;
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
    arena_db_close(db);
    if (rc < 0)
        return ac_fail("cannot check: %s", err);
    if (rc > 0 && !strcmp(what, "the file"))
        fprintf(stderr, "arena: %s is damaged: %s\n", ac_db_path, err);
    else if (rc > 0)
        fprintf(stderr, "arena: %s differ from the matches: %s\n", what, err);
    if (rc > 0)
        return 1;
    printf("ratings equal a recompute from the match table\n"
           "per-bot summaries equal a recompute from the match seats\n"
           "the file is whole (SQLite's quick_check)\n");
    return 0;
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
