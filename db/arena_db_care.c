/*
 * arena_db_care.c - keeping the database file whole: noticing damage
 * wherever a query meets it, checking the whole file, and copying a live
 * database consistently (SQLite's online backup).
 *
 * SQLite reports a damaged page as SQLITE_CORRUPT from whichever query
 * reads it; a caller that only sees "no row" or "cannot list" would make
 * that look like an empty table. Its error log (SQLITE_CONFIG_LOG) sees
 * every such report, so one hook tells the arena, whatever it was doing,
 * that the file is damaged.
 */
#define _POSIX_C_SOURCE 200809L
#include "arena_db_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t damage_seen;

static void on_sqlite_log(void *ctx, int code, const char *msg)
{
    (void)ctx;
    (void)msg;
    if ((code & 0xff) == SQLITE_CORRUPT)
        damage_seen = 1;
}

int arena_db_watch_damage(void)
{
    return sqlite3_config(SQLITE_CONFIG_LOG, on_sqlite_log, NULL) == SQLITE_OK ? 0 : -1;
}

int arena_db_damage_seen(void) { return damage_seen; }

int arena_db_integrity(arena_db *db, char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "PRAGMA quick_check", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret;
    if (rc == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        ret = line && !strcmp(line, "ok") ? 0 : 1;
        if (ret)
            adb_err(err, size, "%s", line ? line : "quick_check gave no answer");
    } else if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB) {
        adb_err(err, size, "%s", sqlite3_errmsg(db->h));
        ret = 1;
    } else {
        ret = adb_sqlerr(db, err, size, "cannot check the file");
    }
    sqlite3_finalize(st);
    return ret;
}

/* Copies every page of db into the open handle `to` in one read
 * transaction (step -1: a writer in another process goes on meanwhile, in
 * WAL mode, and the copy is the database as of its start). A busy source
 * (a checkpoint, a recovery) is waited for, a few seconds at most. */
static int copy_pages(arena_db *db, sqlite3 *to, char *err, size_t size)
{
    sqlite3_backup *b = sqlite3_backup_init(to, "main", db->h, "main");
    if (!b) {
        adb_err(err, size, "cannot start the backup: %s", sqlite3_errmsg(to));
        return -1;
    }
    int rc;
    for (int tries = 0; (rc = sqlite3_backup_step(b, -1)) != SQLITE_DONE; tries++) {
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || tries >= 100)
            break;
        nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
    }
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        adb_err(err, size, "the backup stopped: %s", sqlite3_errstr(rc));
        return -1;
    }
    return 0;
}

void arena_db_unlink(const char *path)
{
    char side[4200];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

int arena_db_backup(arena_db *db, const char *path, char *err, size_t size)
{
    struct stat sb;
    if (!path || !*path) {
        adb_err(err, size, "the backup needs a file name");
        return -1;
    }
    if (stat(path, &sb) == 0 || errno != ENOENT) {
        adb_err(err, size, "%s exists: a backup goes to a new file", path);
        return -1;
    }
    sqlite3 *to = NULL;
    int ret = -1;
    if (sqlite3_open_v2(path, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        adb_err(err, size, "cannot create %s: %s", path, to ? sqlite3_errmsg(to) : "no memory");
    } else if (copy_pages(db, to, err, size) == 0) {
        /* A copy of damage is no backup: the copy is checked whole. */
        arena_db copy = { .h = to };
        char why[256];
        int whole = arena_db_integrity(&copy, why, sizeof why);
        if (whole == 0)
            ret = 0;
        else
            adb_err(err, size, "the copy is damaged, as its source must be (%s)", why);
    }
    sqlite3_close(to);
    if (ret != 0)
        arena_db_unlink(path);
    return ret;
}
