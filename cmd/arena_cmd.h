/*
 * arena_cmd.h - what the `arena` program's commands share: the database
 * path (--db), the one-line error, --help detection, opening the
 * database; and the commands that live in files of their own.
 */
#ifndef ARENA_CMD_H
#define ARENA_CMD_H

#include <stdio.h>
#include "arena_tourney.h"
#include "cli.h"
#include "arena_db.h"

extern const char *ac_db_path;    /* --db FILE; "arena.db" by default */

/* Prints "arena: <message>" on stderr and returns 2 (bad arguments). */
int ac_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 if --help or -h is among the arguments. */
int ac_help(int argc, char **argv);
/* A command's flags from its table (common/cli.h), its positional
 * arguments into positional[max]. 0 parsed; 1 after --help (head, the
 * flags' lines, tail: NULL for none); 2 after the error line, which
 * starts "WHAT: " unless what is NULL (an unknown option points at
 * --help). */
int ac_parse(const char *what, const cli_flag *flags, int argc, char **argv,
             const char **positional, int *n, int max, const char *head, const char *tail);
/* CLI_CALL's function for --format table|csv|json: ctx is the int that
 * takes ARENA_TABLE, ARENA_CSV or ARENA_JSON. */
int ac_set_format(void *ctx, const char *flag, const char *value, char *err, size_t size);
/* The database at ac_db_path (created when `create`), or NULL after the
 * error line. */
arena_db *ac_open(int create);

/* Text from outside (a bot's reason, a ladder's name) written as a JSON
 * string, a CSV field or, for a table, with control characters shown as
 * '?'. `format` is ARENA_TABLE, ARENA_CSV or ARENA_JSON. */
void ac_put_text(FILE *out, int format, const char *s);

/* Milliseconds since the epoch as "2025-01-31T12:00:00Z" (UTC). */
void ac_put_time(FILE *out, int64_t ms);

/* arena bot add|list|remove|retire|disable|enable (arena_cmd_bot.c) */
int ac_bot(int argc, char **argv);
/* arena bot test BOT|--cmd CMD (arena_cmd_bottest.c) */
int ac_bot_test(int argc, char **argv);

/* Games of the registry, each once: what `--game G` (repeatable) names. */
#define AC_MAX_GAMES 16
typedef struct ac_games {
    const game_api *game[AC_MAX_GAMES];
    int n;
} ac_games;
/* CLI_CALL's function for a repeatable --game: ctx is the ac_games that
 * takes it (a game named twice counts once). */
int ac_add_game(void *ctx, const char *flag, const char *value, char *err, size_t size);
/* Every game of the registry, in its order. */
void ac_every_game(ac_games *games);
/* The games' names, space-separated, into buf. */
void ac_games_text(const ac_games *games, char *buf, size_t size);

/* What the check found, game by game. */
typedef struct ac_checked {
    ac_games plays, fails;              /* the games it played, and did not */
    char why[AC_MAX_GAMES][512];        /* why[i]: why it did not play fails.game[i] */
} ac_checked;
/* The check of bot test, as bot add runs it: in each of `games`, a short
 * match against the random bot in each seat, reported on `out` under
 * `label`, each bot limited to memory_mb (-1: the referee's default; 0:
 * none). 0 it ran (*got says where the bot plays), 2 it cannot be tried
 * (the error printed). */
int ac_bot_check(const char *label, const char *cmd, const char *cwd, const char *env,
                 const ac_games *games, int64_t memory_mb, FILE *out, ac_checked *got);
/* Why it failed: "GAME: why; GAME: why" for the games it failed (one
 * game: its why alone), into buf. */
void ac_checked_why(const ac_checked *got, char *buf, size_t size);
/* The one rule of `bot add` and a submission (the gateway): checked in
 * the declared `games`, the bot must play each; none declared, it is
 * checked in every game and plays those it passed (one at least). *plays
 * gets the games it plays (when the check could not run: the declared
 * ones, or every game), failed the games it failed and why the reasons
 * (ac_checked_why), whenever it ran. 0 passed, 1 refused, 2 the check
 * could not run (the error printed). */
int ac_bot_check_games(const char *label, const char *cmd, const char *cwd, const char *env,
                       const ac_games *games, int64_t memory_mb, FILE *out, ac_games *plays,
                       char *failed, size_t fsize, char *why, size_t wsize);

/* arena worker add|list|revoke (arena_cmd_worker.c) */
int ac_worker(int argc, char **argv);

/* arena replay|rerun|export MATCH_ID (arena_cmd_match.c) */
int ac_replay(int argc, char **argv);
int ac_rerun(int argc, char **argv);
int ac_export(int argc, char **argv);

/* CLI_CALL's function for a tournament's --format (round-robin, gauntlet,
 * ...): ctx is the int that takes the arena_format. */
int ac_set_tournament_format(void *ctx, const char *flag, const char *value, char *err,
                             size_t size);
/* The flags every run of matches shares (game and options, time control,
 * workers, logs), after the command's `own` flags, parsed into
 * spec and run; BOTS... into names. A spec with format -1 takes its format
 * from its game (2 v 2 or one against one). 0, 1 after --help (head, the
 * flags, tail), 2 after a reported error. */
int ac_spec_flags(int argc, char **argv, const cli_flag *own, const char *head,
                  const char *tail, arena_spec *spec, arena_run *run, char *referee,
                  size_t referee_size, const char **names, int *nnames, int max_names);
/* The default --concurrency (-1) for the spec's seats, or a check of the
 * one given. 0, or -1 after a message. */
int ac_fit_concurrency(const arena_spec *spec, int seats, arena_run *run);
/* The workers run asks for can be had (--concurrency 0 needs --listen;
 * the CURVE keys go together): 0, or -1 after the error line. */
int ac_run_check(const arena_run *run);
/* Every bot of spec still registered, playing the spec's game, its
 * command runnable where it runs: 0, or -1 after the error line. */
int ac_bots_ready(arena_db *db, const arena_spec *spec);
/* arena sprt A B [--play] (arena_cmd_sprt.c) */
int ac_sprt(int argc, char **argv);
/* Catches SIGINT and SIGTERM from now on: the flag they set. */
const volatile int *ac_catch_stops(void);
/* arena history BOT (arena_cmd_history.c) */
int ac_history(int argc, char **argv);
/* arena check, arena backup FILE (arena_cmd_db.c) */
int ac_check(int argc, char **argv);
int ac_backup(int argc, char **argv);
/* A command's exit code rc, after the damage line when a query met a
 * damaged file (then 1 if rc was 0): what it is and what to do. */
int ac_damage_said(int rc);
/* arena user add|list|revoke, arena gateway, arena submit
 * (arena_cmd_gateway.c) */
int ac_user(int argc, char **argv);
int ac_gateway(int argc, char **argv);
int ac_submit(int argc, char **argv);
/* arena connect, arena relay: remote bots (arena_cmd_connect.c) */
int ac_connect(int argc, char **argv);
int ac_relay(int argc, char **argv);
/* arena ladder (arena_cmd_ladder.c) */
int ac_ladder(int argc, char **argv);

#endif
