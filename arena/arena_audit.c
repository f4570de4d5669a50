/*
 * arena_audit.c - re-simulating every stored match (arena_audit.h).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "arena_audit.h"
#include "clk.h"
#include "ref_record.h"

/* What the row says against what its record says: 0, or -1 with err. */
static int row_agrees(const arena_match *m, const ref_record *rec, char *err, size_t size)
{
    if (strcmp(m->game, rec->game) || m->seed != rec->seed || strcmp(m->options, rec->options) ||
        m->seats != rec->seats) {
        snprintf(err, size, "the row is %s seed %" PRIu64 " with %d seats, its record %s seed "
                 "%" PRIu64 " with %d", m->game, m->seed, m->seats, rec->game, rec->seed,
                 rec->seats);
        return -1;
    }
    for (int i = 0; i < m->seats; i++)
        if (m->score[i] != rec->score[i]) {
            snprintf(err, size, "seat %d scored %g in the row, %g in its record", i,
                     m->score[i], rec->score[i]);
            return -1;
        }
    if (strcmp(m->reason, rec->reason) || m->culprit != rec->culprit) {
        snprintf(err, size, "the row ends by %s (culprit %d), its record by %s (culprit %d)",
                 m->reason, m->culprit, rec->reason, rec->culprit);
        return -1;
    }
    if (m->hash != rec->hash || (size_t)m->decisions != rec->ndecisions) {
        snprintf(err, size, "the row has %d decisions and hash %016" PRIx64 ", its record %zu "
                 "and %016" PRIx64, m->decisions, m->hash, rec->ndecisions, rec->hash);
        return -1;
    }
    return 0;
}

/* One stored match: 0 it replays to its row, or -1 with err. */
static int audit_one(const arena_match *m, char *err, size_t size)
{
    if (!m->record) {
        snprintf(err, size, "no record");
        return -1;
    }
    ref_record rec;
    const game_api *g;
    char why[256];
    if (ref_record_parse(&rec, &g, m->record, why, sizeof why) < 0) {
        snprintf(err, size, "unreadable record: %s", why);
        return -1;
    }
    int rc;
    if (ref_record_verify(&rec, g, why, sizeof why) < 0) {
        snprintf(err, size, "mismatch: %s", why);
        rc = -1;
    } else {
        rc = row_agrees(m, &rec, err, size);
    }
    ref_record_free(&rec);
    return rc;
}

int arena_audit_replay(arena_db *db, FILE *out, FILE *progress, int64_t every, int64_t *checked,
                       char *err, size_t size)
{
    int64_t last = 0;
    int bad = 0;
    double t0 = clk_mono_s();
    *checked = 0;
    for (;;) {
        arena_match m;
        int rc = arena_db_match_next(db, last, &m);
        if (rc == 1)
            break;
        if (rc < 0) {
            snprintf(err, size, "cannot read the match after %" PRId64, last);
            return -1;
        }
        last = m.id;
        char why[512];
        if (audit_one(&m, why, sizeof why) < 0) {
            fprintf(out, "match %" PRId64 ": %s\n", m.id, why);
            bad++;
        }
        arena_match_free(&m);
        if (++*checked % (every > 0 ? every : INT64_MAX) == 0 && progress)
            fprintf(progress, "arena: replayed %" PRId64 " matches, %d do not match (%.0f s)\n",
                    *checked, bad, clk_mono_s() - t0);
    }
    double spent = clk_mono_s() - t0;
    if (progress)
        fprintf(progress, "arena: replayed %" PRId64 " matches in %.2f s (%.0f us a match, read "
                "and replayed), %d do not match\n", *checked, spent,
                *checked ? spent * 1e6 / (double)*checked : 0.0, bad);
    return bad;
}
