/*
 * fuzz_worker_result.c - the arena reading a worker's `result` message
 * (arena_job_result_read), then the match record it carries, as
 * arena_tourney.c does before storing anything.
 *
 * Oracle: a result has an error or a record, never neither; nothing leaks
 * on any path.
 */
#include <string.h>
#include "arena_pool.h"
#include "fuzz.h"
#include "mps.h"
#include "ref_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    msgpack_unpacked u;
    if (mps_decode((const char *)data, size, &u) < 0)
        return 0;
    arena_job_result res;
    arena_job_result_read(&u.data, &res);
    FUZZ_CHECK(res.error || res.record);
    if (res.record) {
        FILE *f = fmemopen(res.record, strlen(res.record) + 1, "r");
        if (f) {
            ref_record rec;
            const game_api *g;
            char err[256];
            if (ref_record_read(&rec, &g, f, err, sizeof err) == 0)
                ref_record_free(&rec);
            fclose(f);
        }
    }
    arena_job_result_free(&res);
    msgpack_unpacked_destroy(&u);
    return 0;
}
