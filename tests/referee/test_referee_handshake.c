/*
 * test_referee_handshake.c - the referee refuses every malformed hello.
 *
 *   test_referee_handshake BADBOT RANDOM
 *
 * One match per form of hello (badbot.c, `hellos`): a missing, empty,
 * wrong-typed or wrong token (even the right bytes as bin, or followed by
 * a NUL); a missing or wrong protocol; a missing or wrong type; trailing
 * bytes, two frames, an array. Each is dropped (any process may reach an
 * endpoint: a bad hello may not be the seat's bot's), and when the
 * handshake time runs out without a valid one, the match ends, before any
 * decision, in the seat's forfeit with the reason of the hello dropped, as
 * the table gives; the bot must never have been welcomed: it heard nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "match_run.h"

typedef struct refusal {
    const char *form;       /* badbot's name for the hello */
    const char *reason;     /* the forfeit it must cause */
} refusal;

/* Seat `seat` says the hello `form`; the match must end in its forfeit
 * for `reason`, with nothing said to it. */
static void expect_refused(int seat, const refusal *x)
{
    char args[64];
    snprintf(args, sizeof args, "hello %s", x->form);
    run *r = run_new();
    r->cfg.terms.handshake_ms = 1500;
    run_badbot(r, seat, args);
    run_play(r);
    if (strcmp(r->rec.reason, x->reason) != 0 || r->rec.culprit != seat)
        fail_msg("hello '%s' from seat %d: ended by '%s' of seat %d (%s), expected '%s'",
                 x->form, seat, r->rec.reason, r->rec.culprit, r->rec.detail, x->reason);
    assert_forfeit(&r->rec, x->reason, seat);
    assert_int_equal(r->rec.ndecisions, 0);
    char *log = run_log(r, seat, NULL);
    if (strstr(log, "recv "))
        fail_msg("hello '%s' was answered:\n%s", x->form, log);
    free(log);
    run_free(r);
}

static void expect_all_refused(const refusal *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect_refused((int)(i % 2), &list[i]);
}

static void test_token_missing_empty_wrong_typed_or_wrong(void **state)
{
    static const refusal list[] = {
        { "notoken", REF_BAD_TOKEN },    { "emptytoken", REF_BAD_TOKEN },
        { "inttoken", REF_BAD_TOKEN },   { "niltoken", REF_BAD_TOKEN },
        { "bintoken", REF_BAD_TOKEN },   { "shorttoken", REF_BAD_TOKEN },
        { "longtoken", REF_BAD_TOKEN },  { "uppertoken", REF_BAD_TOKEN },
        { "nultoken", REF_BAD_TOKEN },
    };
    expect_all_refused(list, sizeof list / sizeof list[0]);
}

static void test_protocol_missing_or_wrong(void **state)
{
    static const refusal list[] = {
        { "noprotocol", REF_PROTOCOL }, { "strprotocol", REF_PROTOCOL },
        { "protocol0", REF_PROTOCOL },  { "protocol2", REF_PROTOCOL },
        { "floatprotocol", REF_PROTOCOL },
    };
    expect_all_refused(list, sizeof list / sizeof list[0]);
}

static void test_wrong_shape(void **state)
{
    static const refusal list[] = {
        { "notype", REF_MALFORMED },   { "wrongtype", REF_MALFORMED },
        { "trailing", REF_MALFORMED }, { "twoframes", REF_MALFORMED },
        { "array", REF_MALFORMED },
    };
    expect_all_refused(list, sizeof list / sizeof list[0]);
}

/* The existing forms: a wrong token of the right length, protocol 99. */
static void test_wrong_token_and_version(void **state)
{
    run *r = forfeit_match(1, "badtoken", REF_BAD_TOKEN);
    assert_int_equal(r->rec.ndecisions, 0);
    run_free(r);
    r = forfeit_match(0, "version", REF_PROTOCOL);
    assert_int_equal(r->rec.ndecisions, 0);
    run_free(r);
}

/* A good hello is welcomed once; saying it again is out of turn. */
static void test_hello_twice(void **state)
{
    run *r = forfeit_match(1, "hello twice", REF_OUT_OF_TURN);
    char *log = run_log(r, 1, NULL);
    assert_non_null(strstr(log, "recv welcome\n"));
    free(log);
    run_free(r);
}

/* No hello at all: the handshake's time runs out. */
static void test_no_hello(void **state)
{
    run *r = run_new();
    r->cfg.terms.handshake_ms = 1000;
    snprintf(r->cmd[0], sizeof r->cmd[0], "ARENA_TEST_MARKER=%s exec sleep 300", r->marker);
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 0);
    assert_int_equal(r->rec.ndecisions, 0);
    assert_true(r->seconds >= 0.9);
    run_free(r);
}

int main(int argc, char **argv)
{
    if (run_paths(argc, argv) < 0)
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_token_missing_empty_wrong_typed_or_wrong),
        cmocka_unit_test(test_protocol_missing_or_wrong),
        cmocka_unit_test(test_wrong_shape),
        cmocka_unit_test(test_wrong_token_and_version),
        cmocka_unit_test(test_hello_twice),
        cmocka_unit_test(test_no_hello),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
