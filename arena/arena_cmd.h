/*
 * arena_cmd.h - what the `arena` program's commands share: the database
 * path (--db), the one-line error, --help detection, opening the
 * database; and the commands that live in files of their own.
 */
#ifndef ARENA_CMD_H
#define ARENA_CMD_H

#include <stdio.h>
#include "arena_db.h"

extern const char *ac_db_path;    /* --db FILE; "arena.db" by default */

/* Prints "arena: <message>" on stderr and returns 2 (bad arguments). */
int ac_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 if --help or -h is among the arguments. */
int ac_help(int argc, char **argv);
/* The database at ac_db_path (created when `create`), or NULL after the
 * error line. */
arena_db *ac_open(int create);

/* Text from outside (a bot's reason, a ladder's name) written as a JSON
 * string, a CSV field or, for a table, with control characters shown as
 * '?'. `format` is ARENA_TABLE, ARENA_CSV or ARENA_JSON. */
void ac_put_text(FILE *out, int format, const char *s);

/* arena bot add|list|remove|retire|disable|enable (arena_cmd_bot.c) */
int ac_bot(int argc, char **argv);
/* arena replay|rerun|export MATCH_ID (arena_cmd_match.c) */
int ac_replay(int argc, char **argv);
int ac_rerun(int argc, char **argv);
int ac_export(int argc, char **argv);

#endif
