/*
 * arena_audit.h - `arena check --replay`: every stored match re-simulated
 * from its record, and its row compared with what the record states.
 */
#ifndef ARENA_AUDIT_H
#define ARENA_AUDIT_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"

/* Walks every match in id order, one in memory at a time: its record must
 * read, replay (ref_record_verify) and agree with its row (game, seed,
 * options, seats, scores, reason, culprit, decisions, hash). Each one that
 * does not is named on `out`, a line each; `progress` (NULL: none) gets a
 * line every `every` matches and at the end. *checked counts the matches
 * walked. The count that do not match, or -1 with err (the database). */
int arena_audit_replay(arena_db *db, FILE *out, FILE *progress, int64_t every, int64_t *checked,
                       char *err, size_t size);

#endif
