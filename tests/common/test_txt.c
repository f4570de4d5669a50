/*
 * test_txt.c - txt_set and txt_append (common/txt.h): text cut to fit and
 * always terminated, a full buffer left as it is, no buffer no harm.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "txt.h"

static void test_set_cuts_to_fit(void **state)
{
    (void)state;
    char buf[8];
    memset(buf, 'x', sizeof buf);
    txt_set(buf, sizeof buf, "seat %d: %s", 1, "too long");
    assert_string_equal(buf, "seat 1:");
    txt_set(buf, sizeof buf, "%s", "ok");
    assert_string_equal(buf, "ok");
    txt_set(NULL, 8, "nothing");      /* no buffer: nothing written */
    txt_set(buf, 0, "nothing");
    assert_string_equal(buf, "ok");
}

static void test_append_stops_at_the_end(void **state)
{
    (void)state;
    char buf[12] = "";
    txt_append(buf, sizeof buf, "%s", "memory");
    txt_append(buf, sizeof buf, " %s", "pids");
    assert_string_equal(buf, "memory pids");
    txt_append(buf, sizeof buf, " %s", "cpu");      /* full: stays as it is */
    assert_string_equal(buf, "memory pids");
    char small[6] = "ab";
    txt_append(small, sizeof small, "%d", 123456);
    assert_string_equal(small, "ab123");
    char unterminated[4] = { 'a', 'b', 'c', 'd' };  /* no NUL: never read past */
    txt_append(unterminated, sizeof unterminated, "e");
    assert_memory_equal(unterminated, "abcd", 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_cuts_to_fit),
        cmocka_unit_test(test_append_stops_at_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
