/*
 * test_jw.c - JSON writing (common/jw.c): commas by depth, and every
 * string escaped so untrusted text (bot names, logs) stays a string:
 * quotes, control bytes, <>&, U+2028/9, and bytes that are not UTF-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "jw.h"

static void check_str(const char *in, size_t n, const char *want)
{
    jw w;
    jw_init(&w);
    jw_strn(&w, in, n);
    assert_false(jw_failed(&w));
    assert_string_equal(w.buf, want);
    jw_free(&w);
}

static void test_escapes(void **state)
{
    check_str("plain", 5, "\"plain\"");
    check_str("<script>alert(1)</script>", 25,
              "\"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\"");
    check_str("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
    check_str("\n\t\x01\x7f", 4, "\"\\u000a\\u0009\\u0001\\u007f\"");
    check_str("x&y", 3, "\"x\\u0026y\"");
    check_str("\xe2\x80\xa8|\xe2\x80\xa9", 7, "\"\\u2028|\\u2029\"");
    check_str("caf\xc3\xa9 \xf0\x9f\x8e\xb2", 10, "\"caf\xc3\xa9 \xf0\x9f\x8e\xb2\"");   /* valid UTF-8 kept */
    check_str("\xff\xc3", 2, "\"\\ufffd\\ufffd\"");                              /* not UTF-8 */
    check_str("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");                              /* overlong */
    check_str("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");                   /* surrogate */
    check_str("a\0b", 3, "\"a\\u0000b\"");
    /* plain runs on both sides of each escape, and a cut sequence at the end */
    check_str("ab<cd>ef&&gh\"", 13, "\"ab\\u003ccd\\u003eef\\u0026\\u0026gh\\\"\"");
    check_str("", 0, "\"\"");
    check_str("name \xc3", 6, "\"name \\ufffd\"");
}

static void check_int(int64_t v, const char *want)
{
    jw w;
    jw_init(&w);
    jw_int(&w, v);
    assert_string_equal(w.buf, want);
    jw_free(&w);
}

static void test_integers(void **state)
{
    check_int(0, "0");
    check_int(7, "7");
    check_int(-10, "-10");
    check_int(1234567890123, "1234567890123");
    check_int(INT64_MAX, "9223372036854775807");
    check_int(INT64_MIN, "-9223372036854775808");
}

static void test_structure(void **state)
{
    jw w;
    jw_init(&w);
    jw_obj(&w);
    jw_key(&w, "a");
    jw_arr(&w);
    jw_int(&w, -3);
    jw_num(&w, 0.5);
    jw_num(&w, 1.0 / 0.0);
    jw_bool(&w, 1);
    jw_null(&w);
    jw_str(&w, NULL);
    jw_obj(&w);
    jw_obj_end(&w);
    jw_arr_end(&w);
    jw_key(&w, "k\"");
    jw_raw(&w, "[1]", 3);
    jw_obj_end(&w);
    assert_string_equal(w.buf, "{\"a\":[-3,0.5,null,true,null,null,{}],\"k\\\"\":[1]}");
    jw_reset(&w);
    jw_arr(&w);
    jw_arr_end(&w);
    assert_string_equal(w.buf, "[]");
    jw_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_integers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
