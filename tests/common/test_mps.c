/*
 * test_mps.c - mps_check and mps_decode (common/mps.h) on hand-made bytes:
 * exactly one object is taken; bytes after it, a cut object, a container
 * claiming more elements than bytes remain, and nesting past the limit
 * are refused, by both.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "mps.h"

/* Both calls agree: 0 for one clean object, -1 otherwise. */
static int both(const char *data, size_t size)
{
    msgpack_unpacked u;
    int checked = mps_check(data, size), decoded = mps_decode(data, size, &u);
    if (decoded == 0)
        msgpack_unpacked_destroy(&u);
    assert_int_equal(checked, decoded);
    return checked;
}

static void test_one_object(void **state)
{
    (void)state;
    static const char map[] = { (char)0x81, (char)0xa1, 'a', 0x01 };   /* {"a": 1} */
    assert_int_equal(both(map, sizeof map), 0);
    msgpack_unpacked u;
    assert_int_equal(mps_decode(map, sizeof map, &u), 0);
    int64_t a = 0;
    assert_int_equal(mps_get_int(&u.data, "a", &a), 0);
    assert_int_equal(a, 1);
    msgpack_unpacked_destroy(&u);
}

static void test_bytes_after_the_object(void **state)
{
    (void)state;
    static const char two[] = { (char)0x81, (char)0xa1, 'a', 0x01, (char)0xc0 };
    assert_int_equal(both(two, sizeof two), -1);
    static const char nils[] = { (char)0xc0, (char)0xc0 };
    assert_int_equal(both(nils, sizeof nils), -1);
}

static void test_cut_and_overclaimed(void **state)
{
    (void)state;
    static const char cut[] = { (char)0x82, (char)0xa1, 'a', 0x01 };   /* a second pair missing */
    assert_int_equal(both(cut, sizeof cut), -1);
    static const char str[] = { (char)0xa5, 'a', 'b' };                 /* 5 bytes claimed, 2 */
    assert_int_equal(both(str, sizeof str), -1);
    static const char one[] = { (char)0xa3, 'a', 'b' };                 /* one byte short */
    assert_int_equal(both(one, sizeof one), -1);
    /* An array32 of 4,294,967,295 elements in 9 bytes. */
    static const char huge[] = { (char)0xdd, (char)0xff, (char)0xff, (char)0xff, (char)0xff,
                                 0x01, 0x02, 0x03, 0x04 };
    assert_int_equal(both(huge, sizeof huge), -1);
    assert_int_equal(both(NULL, 0), -1);
}

static void test_nesting_limit(void **state)
{
    (void)state;
    char deep[MPS_MAX_DEPTH + 2];
    memset(deep, (char)0x91, sizeof deep);          /* [[[[...]]]] */
    deep[sizeof deep - 1] = (char)0xc0;
    assert_int_equal(both(deep, sizeof deep), -1);
    char ok[MPS_MAX_DEPTH + 1];                     /* 32 arrays around a nil */
    memset(ok, (char)0x91, sizeof ok);
    ok[sizeof ok - 1] = (char)0xc0;
    assert_int_equal(both(ok, sizeof ok), 0);
    /* An empty container one deeper is one container too many for
     * msgpack-c's unpacker: refused by the check too (found by fuzz_mps,
     * where the check passed and the decode failed). */
    ok[sizeof ok - 1] = (char)0x90;
    assert_int_equal(both(ok, sizeof ok), -1);
    ok[sizeof ok - 1] = (char)0x80;
    assert_int_equal(both(ok, sizeof ok), -1);
    ok[sizeof ok - 2] = (char)0x90;                  /* 31 arrays around an empty one */
    assert_int_equal(both(ok, sizeof ok - 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_object),
        cmocka_unit_test(test_bytes_after_the_object),
        cmocka_unit_test(test_cut_and_overclaimed),
        cmocka_unit_test(test_nesting_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
