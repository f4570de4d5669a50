/*
 * fuzz_observation.c - the C SDK's War Chest layer reading an observation
 * (wc_unpack.c), as a bot gets it in every request.
 *
 * Oracle: what decodes is a consistent view: the viewer is one of the
 * seats, one entry per seat, every unit on the board owned by a seat, the
 * pending step's seat a seat; and the same bytes decode the same way.
 */
#include <string.h>
#include "fuzz.h"
#include "wc_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wc_observation o, again;
    if (wc_unpack_observation_bytes((const char *)data, size, &o) < 0)
        return 0;
    FUZZ_CHECK(o.nseats == 2 || o.nseats == 4);
    FUZZ_CHECK(o.seat < o.nseats);
    FUZZ_CHECK(o.to_move == WC_NONE || o.to_move < o.nseats);
    FUZZ_CHECK(o.turn < o.nseats && o.initiative < o.nseats);
    for (int h = 0; h < WC_NHEX; h++)
        if (o.hex_unit[h] != WC_NONE) {
            FUZZ_CHECK(o.hex_unit[h] < WC_NUNITS);
            FUZZ_CHECK(o.unit_owner[o.hex_unit[h]] < o.nseats);
        }
    for (int u = 0; u < WC_NUNITS; u++)
        FUZZ_CHECK(o.unit_owner[u] == WC_NONE || o.unit_owner[u] < o.nseats);
    FUZZ_CHECK(o.pending.kind == WC_NONE || o.pending.seat < o.nseats);
    FUZZ_CHECK(wc_unpack_observation_bytes((const char *)data, size, &again) == 0);
    /* The decoder zeroes the whole struct, padding included, before filling it. */
    FUZZ_CHECK(memcmp(&o, &again, sizeof o) == 0); // NOLINT(bugprone-suspicious-memory-comparison)
    return 0;
}
