/*
 * arena_fetch.c - a worker's fetch of a bot's files, answered from the
 * store (arena_fetch.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena_fetch.h"
#include "clk.h"
#include "store.h"

typedef struct packed {
    char    hash[REF_LINK_HASH_HEX + 1];
    void   *buf;
    size_t  len;
    int64_t used_ms;                    /* the least recently used goes first */
} packed;

struct arena_fetch {
    packed kept[ARENA_FETCH_KEEP];
};

arena_fetch *arena_fetch_new(void) { return calloc(1, sizeof(arena_fetch)); }

void arena_fetch_free(arena_fetch *f)
{
    if (!f)
        return;
    for (int i = 0; i < ARENA_FETCH_KEEP; i++)
        free(f->kept[i].buf);
    free(f);
}

/* The stored folder `dir` packed, when its files still hash to `hash`:
 * 0 with *buf malloc'ed, or -1 with err. */
static int pack_stored(const char *dir, const char *hash, void **buf, size_t *len, char *err,
                       size_t size)
{
    store_tree t;
    store_tree_init(&t, REF_LINK_MAX_ARCHIVE, ARENA_FETCH_MAX_FILES);
    char hex[STORE_HASH_HEX + 1];
    int rc = store_read_dir(&t, dir, err, size);
    if (rc == 0) {
        store_tree_hash(&t, hex);
        if (strcmp(hex, hash) != 0) {
            snprintf(err, size, "its stored files changed (they hash to %.12s...)", hex);
            rc = -1;
        }
    }
    if (rc == 0)
        rc = store_pack(&t, buf, len, err, size);
    if (rc == 0 && *len > REF_LINK_MAX_ARCHIVE) {
        snprintf(err, size, "its archive is over %d MB", REF_LINK_MAX_ARCHIVE >> 20);
        free(*buf);
        rc = -1;
    }
    store_tree_free(&t);
    return rc;
}

/* The archive of `hash` stored at `dir`: kept, or packed now and kept. */
static const packed *archive_of(arena_fetch *f, const char *hash, const char *dir, char *err,
                                size_t size)
{
    packed *slot = &f->kept[0];
    for (int i = 0; i < ARENA_FETCH_KEEP; i++) {
        if (f->kept[i].buf && !strcmp(f->kept[i].hash, hash)) {
            f->kept[i].used_ms = clk_mono_ms();
            return &f->kept[i];
        }
        if (f->kept[i].used_ms < slot->used_ms)
            slot = &f->kept[i];
    }
    void *buf;
    size_t len;
    if (pack_stored(dir, hash, &buf, &len, err, size) < 0)
        return NULL;
    free(slot->buf);
    *slot = (packed){ .buf = buf, .len = len, .used_ms = clk_mono_ms() };
    snprintf(slot->hash, sizeof slot->hash, "%s", hash);
    return slot;
}

int arena_fetch_answer(arena_fetch *f, const ref_link_job *job, const msgpack_object *m,
                       const char *who, int *served, msgpack_sbuffer *sb)
{
    ref_link_bot b = { .id = -1 };
    const char *dir = NULL;
    if (ref_link_fetch_read(m, &b.id, b.hash) < 0)
        snprintf(b.error, sizeof b.error, "a malformed fetch (it needs an id and a hash)");
    else if (!job || job->id != b.id)
        snprintf(b.error, sizeof b.error, "match %" PRId64 " is not yours", b.id + 1);
    else if (*served >= ARENA_FETCH_PER_BOT * job->nbots)
        snprintf(b.error, sizeof b.error, "%d fetches for one match are enough", *served);
    for (int i = 0; !b.error[0] && job && i < job->nbots && !dir; i++)
        if (!strcmp(job->hash[i], b.hash))
            dir = job->cwd[i];
    if (!b.error[0] && !dir)
        snprintf(b.error, sizeof b.error, "%s is not a bot of your match", b.hash);
    const packed *a = NULL;
    char why[200] = "";
    if (dir && !(a = archive_of(f, b.hash, dir, why, sizeof why)))
        snprintf(b.error, sizeof b.error, "cannot send %.12s...: %s", b.hash, why);
    if (a) {
        b.archive = a->buf;
        b.len = a->len;
        ++*served;
    } else {
        fprintf(stderr, "arena: refused %s a bot's files: %s\n", who, b.error);
    }
    sb->size = 0;
    ref_link_bot_pack(sb, &b);
    return a ? 0 : -1;
}
