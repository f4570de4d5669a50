/*
 * arena_show.h - one stored match for a person: `arena match ID` and the
 * record and log text it and `arena matches` print.
 *
 * A log is bytes a bot wrote: it is shown with control bytes (but newlines
 * and tabs) and invalid UTF-8 as \xNN, so a hostile log cannot drive the
 * terminal; the detail of a forfeit goes through ac_put_text.
 */
#ifndef ARENA_SHOW_H
#define ARENA_SHOW_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"

/* Prints match `id`: bots (name, version, id) by seat, result, reason and
 * detail, decisions and time used per seat, and each seat's log: its last
 * `tail_lines` lines, or whole when tail_lines < 0. 0, 1 no such match,
 * -1 with err. */
int arena_show_match(arena_db *db, int64_t id, int tail_lines, FILE *out, char *err,
                     size_t size);

/* One seat's log (`len` bytes kept of `bytes` written), escaped: its last
 * `tail_lines` lines, or whole when tail_lines < 0. */
void arena_show_log(FILE *out, int seat, const char *text, size_t len, uint64_t bytes,
                    int tail_lines);

#endif
