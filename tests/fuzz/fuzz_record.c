/*
 * fuzz_record.c - ref_record_read, the reader of match records (files a
 * user hands to `referee replay`, records a worker sends the arena).
 *
 * Oracle: a record that reads writes back to text that reads again to the
 * same record, and writing that one gives the same text; verifying it
 * either passes or says why, and nothing leaks on any path.
 */
#include <string.h>
#include "fuzz.h"
#include "ref_record.h"

/* The record written out; free it. */
static char *written(const ref_record *r, const game_api *g, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    FUZZ_CHECK(f && ref_record_write(r, g, f) == 0);
    fclose(f);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    ref_record r;
    const game_api *g;
    char err[256];
    int rc = ref_record_read(&r, &g, f, err, sizeof err);
    fclose(f);
    if (rc < 0)
        return 0;

    size_t len, len2;
    char *text = written(&r, g, &len);
    f = fmemopen(text, len, "r");
    ref_record back;
    const game_api *g2;
    FUZZ_CHECK(f && ref_record_read(&back, &g2, f, err, sizeof err) == 0);
    fclose(f);
    FUZZ_CHECK(g2 == g && back.seats == r.seats && back.ndecisions == r.ndecisions);
    char *again = written(&back, g2, &len2);
    FUZZ_CHECK(len == len2 && memcmp(text, again, len) == 0);
    if (r.ndecisions <= 2000)
        ref_record_verify(&r, g, err, sizeof err);
    free(again);
    free(text);
    ref_record_free(&back);
    ref_record_free(&r);
    return 0;
}
