/*
 * fuzz_worker_fetch.c - the two messages that carry a bot's files by hash
 * (ref_link.h): a worker's `fetch`, as the arena reads it, and the
 * arena's `bot` answer, as a worker reads it, its archive then read and
 * checked as the worker's cache does (store_read_archive, small limits).
 *
 * Oracle: a fetch read has a well-formed hash; an answer read has either
 * an archive within REF_LINK_MAX_ARCHIVE or a reason; a tree read from the
 * archive stays within its limits; nothing leaks on any path.
 */
#include <string.h>
#include "fuzz.h"
#include "mps.h"
#include "ref_link.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    msgpack_unpacked u;
    if (mps_decode((const char *)data, size, &u) < 0)
        return 0;
    int64_t id;
    char hash[REF_LINK_HASH_HEX + 1];
    if (ref_link_fetch_read(&u.data, &id, hash) == 0)
        FUZZ_CHECK(ref_link_hash_ok(hash));
    ref_link_bot b;
    if (ref_link_bot_read(&u.data, &b) == 0) {
        FUZZ_CHECK(ref_link_hash_ok(b.hash));
        FUZZ_CHECK(b.archive ? b.len <= REF_LINK_MAX_ARCHIVE : b.error[0] != 0);
        if (b.archive) {
            store_tree t;
            char err[256];
            store_tree_init(&t, 1 << 20, 100);
            if (store_read_archive(&t, b.archive, b.len, err, sizeof err) == 0) {
                FUZZ_CHECK(t.n <= 100 && t.bytes <= (1 << 20));
                char hex[STORE_HASH_HEX + 1];
                store_tree_hash(&t, hex);
                FUZZ_CHECK(ref_link_hash_ok(hex));
            }
            store_tree_free(&t);
        }
    }
    msgpack_unpacked_destroy(&u);
    return 0;
}
