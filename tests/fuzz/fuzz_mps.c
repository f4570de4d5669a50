/*
 * fuzz_mps.c - common/mps.c, the reader every peer's msgpack goes through.
 *
 * Oracle: what mps_check accepts, msgpack-c unpacks whole (exactly the
 * bytes, nothing left), and mps_decode gives the same object (compared by
 * its bytes packed again: NaN is not equal to itself); lookups on any
 * decoded object never read outside it.
 */
#include <string.h>
#include "fuzz.h"
#include "mps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *bytes = (const char *)data;
    int ok = mps_check(bytes, size) == 0;
    msgpack_unpacked u;
    FUZZ_CHECK((mps_decode(bytes, size, &u) == 0) == ok);
    if (!ok)
        return 0;
    msgpack_unpacked plain;
    msgpack_unpacked_init(&plain);
    size_t off = 0;
    FUZZ_CHECK(msgpack_unpack_next(&plain, bytes, size, &off) == MSGPACK_UNPACK_SUCCESS);
    FUZZ_CHECK(off == size);
    msgpack_sbuffer a, b;
    msgpack_sbuffer_init(&a);
    msgpack_sbuffer_init(&b);
    msgpack_pack_object(&(msgpack_packer){ &a, msgpack_sbuffer_write }, plain.data);
    msgpack_pack_object(&(msgpack_packer){ &b, msgpack_sbuffer_write }, u.data);
    FUZZ_CHECK(a.size == b.size && memcmp(a.data, b.data, a.size) == 0);
    msgpack_sbuffer_destroy(&a);
    msgpack_sbuffer_destroy(&b);
    msgpack_unpacked_destroy(&plain);

    static const char *const keys[] = { "type", "token", "protocol", "id", "index", "text",
                                        "seed", "record", "" };
    char text[64];
    int64_t i64;
    uint64_t u64;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const msgpack_object *v = mps_get(&u.data, keys[k]);
        if (mps_get_str(&u.data, keys[k], text, sizeof text) == 0)
            FUZZ_CHECK(v && strlen(text) == v->via.str.size);
        mps_get_int(&u.data, keys[k], &i64);
        mps_get_u64(&u.data, keys[k], &u64);
    }
    msgpack_unpacked_destroy(&u);
    return 0;
}
