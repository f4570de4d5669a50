/*
 * ref_log.h - the part of a bot's log a match keeps.
 *
 * A bot's output goes to a bounded file while it plays (proc/). What a
 * match hands on (a worker's result, then the arena's database) is an
 * excerpt under a byte cap: the whole log when it fits, else its head and
 * its tail around one line saying how much was left out. The tail gets
 * most of the room, since that is where a traceback or a last message is.
 */
#ifndef REF_LOG_H
#define REF_LOG_H

#include <stddef.h>
#include <stdint.h>

#define REF_LOG_DEFAULT_CAP (64 << 10)
#define REF_LOG_MAX_CAP     (16 << 20)

typedef struct ref_log {
    char    *text;     /* malloc'ed, len bytes (not text-safe: any bytes) */
    size_t   len;
    uint64_t bytes;    /* the log's whole size */
} ref_log;

/* Reads the excerpt of the file at `path` under `cap` bytes (0: none kept,
 * an empty excerpt). A missing file is an empty log. 0, or -1 with errno
 * (out of memory, a read error). */
int  ref_log_read(ref_log *out, const char *path, size_t cap);
void ref_log_free(ref_log *l);

/* Where the bytes [from, to) of a whole log of `bytes` are in an excerpt
 * of it that ref_log_read made (text, len): *start and *end index the
 * excerpt. What was left out maps to the line standing for it, so a span
 * across the cut shows the cut. 0, or -1 when the excerpt is not of the
 * shape ref_log_read makes (longer than its log). */
int  ref_log_span(const char *text, size_t len, uint64_t bytes, uint64_t from, uint64_t to,
                  size_t *start, size_t *end);

#endif
