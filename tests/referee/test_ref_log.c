/*
 * test_ref_log.c - a bot's log kept under a byte cap (referee/ref_log.c):
 * the excerpt of a log file, whole or head + marker + tail, and where a
 * span of the whole log lies in it (ref_log_span), so that the lines a
 * seat printed for each decision are found in what the database kept.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "ref_log.h"

/* A log of n bytes: numbered lines, so that every span's text is its own. */
static char *make_log(const char *path, size_t n)
{
    char *whole = malloc(n + 32);
    size_t len = 0;
    for (int line = 0; len < n; line++)
        len += (size_t)snprintf(whole + len, 32, "line %06d\n", line);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(whole, 1, n, f), n);
    fclose(f);
    return whole;
}

/* Every span of the whole log, by steps, against the excerpt under cap:
 * a span inside what was kept reads the same bytes; one that touches
 * what was left out reads the marker where the cut is. */
static void check_spans(size_t n, size_t cap, size_t stride)
{
    char path[] = "/tmp/test_ref_log.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char *whole = make_log(path, n);
    ref_log l;
    assert_int_equal(ref_log_read(&l, path, cap), 0);
    assert_true(l.bytes == n && l.len <= (cap > n ? n : cap));
    const char *cut = strstr(l.text, "\n[arena: ");
    size_t head = cut ? (size_t)(cut - l.text) : (l.len == n ? n : 0);
    size_t tail_from = n - (l.len - (cut ? (size_t)(strchr(cut + 1, '\n') + 1 - l.text) : head));
    for (size_t from = 0; from <= n; from += stride)
        for (size_t to = from; to <= n; to += stride) {
            size_t start, end;
            assert_int_equal(ref_log_span(l.text, l.len, l.bytes, from, to, &start, &end), 0);
            assert_true(start <= end && end <= l.len);
            if (to <= head || from >= tail_from) {
                assert_int_equal(end - start, to - from);
                assert_memory_equal(l.text + start, whole + from, to - from);
            } else if (cut) {
                assert_non_null(memmem(l.text + start, end - start, "bytes left out]", 15));
            }
        }
    ref_log_free(&l);
    free(whole);
    unlink(path);
}

static void test_whole_log(void **state)
{
    (void)state;
    check_spans(1000, 4096, 7);
}

static void test_head_and_tail(void **state)
{
    (void)state;
    check_spans(100000, 1000, 613);
    check_spans(123456, 9999, 1777);
}

static void test_marker_does_not_fit(void **state)
{
    (void)state;
    check_spans(5000, 20, 97);             /* the tail alone */
}

static void test_spans_out_of_range(void **state)
{
    (void)state;
    const char text[] = "abcdef";
    size_t start, end;
    assert_int_equal(ref_log_span(text, 6, 6, 4, 99, &start, &end), 0);  /* past the end */
    assert_true(start == 4 && end == 6);
    assert_int_equal(ref_log_span(text, 6, 6, 5, 2, &start, &end), 0);   /* backwards */
    assert_true(start == 2 && end == 2);
    assert_int_equal(ref_log_span(text, 6, 3, 0, 1, &start, &end), -1);  /* longer than its log */
    assert_int_equal(ref_log_span("", 0, 500, 10, 400, &start, &end), 0); /* nothing kept */
    assert_true(start == 0 && end == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_log),
        cmocka_unit_test(test_head_and_tail),
        cmocka_unit_test(test_marker_does_not_fit),
        cmocka_unit_test(test_spans_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
