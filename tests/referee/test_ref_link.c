/*
 * test_ref_link.c - a remote seat's link allowance (ref_turn.h), to the
 * microsecond: the rule alone (wall time, round trip, bound -> charge),
 * then one decision's clock driven by hand through ref_turn (its verdict,
 * its deadline, its bank, what its record line holds), and the relay's
 * note that carries the round trip (ref_relay.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "ref_relay.h"
#include "ref_turn.h"

/* The bound: 250 ms, or half the move time when that is less. */
static void test_bound_is_250_ms_or_half_the_move(void **state)
{
    (void)state;
    assert_int_equal(ref_link_bound_us(1000), 250000);
    assert_int_equal(ref_link_bound_us(2000), 250000);
    assert_int_equal(ref_link_bound_us(500), 250000);
    assert_int_equal(ref_link_bound_us(300), 150000);
    assert_int_equal(ref_link_bound_us(100), 50000);
    assert_int_equal(ref_link_bound_us(1), 500);
}

/* The charge: the wall time less the round trip, up to the bound; a link
 * not measured yet allows nothing, and a charge is never negative. */
static void test_charge_is_wall_less_the_bounded_round_trip(void **state)
{
    (void)state;
    assert_int_equal(ref_link_allowance_us(-1, 250000), 0);
    assert_int_equal(ref_link_allowance_us(0, 250000), 0);
    assert_int_equal(ref_link_allowance_us(30000, 250000), 30000);
    assert_int_equal(ref_link_allowance_us(250000, 250000), 250000);
    assert_int_equal(ref_link_allowance_us(900000, 250000), 250000);
    assert_int_equal(ref_link_charge_us(100000, 30000, 250000), 70000);
    assert_int_equal(ref_link_charge_us(100000, -1, 250000), 100000);
    assert_int_equal(ref_link_charge_us(20000, 30000, 250000), 0);
    /* A participant's program that holds its pongs back 900 ms gains the
     * bound, no more. */
    assert_int_equal(ref_link_charge_us(400000, 900000, 250000), 150000);
}

/* ---- one decision, its clock driven ---------------------------------------- */

static int64_t fake_now;

static int64_t fake_clock(void *ctx)
{
    (void)ctx;
    return fake_now;
}

static const clk_source driven = { fake_clock, NULL };

/* The wall clock, 100 ms a move, seat 0 remote (its link as said), seat 1
 * local; both banks as given. */
static void clocks(ref_clocks *k, int64_t link_us, int64_t bank_ms)
{
    memset(k, 0, sizeof *k);
    k->want = k->mode = REF_CLOCK_WALL;
    k->move_ms = 100;
    k->wall_ceiling = 3;
    k->unmetered = 1;
    k->clock = &driven;
    k->n = 2;
    k->mover = -1;
    for (int i = 0; i < 2; i++)
        k->seat[i].bank_us = bank_ms * 1000;
    k->seat[0].remote = 1;
    k->seat[0].link_us = link_us;
}

/* Seat i answers after `took` us: the verdict, the decision as recorded. */
static ref_turn_verdict answer_after(ref_clocks *k, int i, int64_t took, ref_decision *d)
{
    ref_turn t;
    fake_now = 1000000;
    ref_turn_open(k, i, &t);
    ref_turn_begin(k, &t);
    fake_now += took;
    ref_turn_measure(k, &t, d);
    ref_turn_verdict v = ref_turn_judge(k, &t, d, 1);
    if (v == REF_TURN_IN_TIME)
        ref_turn_charge(k, &t);
    ref_clocks_turn_end(k, i);
    return v;
}

static void test_a_remote_answer_is_charged_less_its_link(void **state)
{
    (void)state;
    ref_clocks k;
    ref_decision d;
    clocks(&k, 40000, 0);
    /* 130 ms at the referee, 40 of them the link: 90 ms, in time. */
    assert_int_equal(answer_after(&k, 0, 130000, &d), REF_TURN_IN_TIME);
    assert_int_equal(d.micros, 130000);
    assert_int_equal(d.remote, 1);
    assert_int_equal(d.link_us, 40000);
    /* The same 130 ms from the local seat: late, and nothing allowed. */
    assert_int_equal(answer_after(&k, 1, 130000, &d), REF_TURN_LATE);
    assert_int_equal(d.remote, 0);
    assert_int_equal(d.link_us, 0);
    /* 150 ms less 40: 110, over the 100 ms with no bank. */
    assert_int_equal(answer_after(&k, 0, 150000, &d), REF_TURN_LATE);
}

static void test_the_bank_pays_what_is_left_after_the_link(void **state)
{
    (void)state;
    ref_clocks k;
    ref_decision d;
    clocks(&k, 20000, 50);
    /* 130 ms less 20: 110, 10 over the move time, off the 50 ms bank. */
    assert_int_equal(answer_after(&k, 0, 130000, &d), REF_TURN_IN_TIME);
    assert_int_equal(k.seat[0].bank_us, 40000);
    /* The local seat pays all 30. */
    assert_int_equal(answer_after(&k, 1, 130000, &d), REF_TURN_IN_TIME);
    assert_int_equal(k.seat[1].bank_us, 20000);
}

/* A link said to take 5 s (pongs held back) is allowed the bound: half of
 * the 100 ms move, 50 ms; and the deadline moves by that much only. */
static void test_held_pongs_gain_the_bound_only(void **state)
{
    (void)state;
    ref_clocks k;
    ref_decision d;
    clocks(&k, 5000000, 0);
    assert_int_equal(answer_after(&k, 0, 150000, &d), REF_TURN_IN_TIME);
    assert_int_equal(d.link_us, 50000);
    assert_int_equal(answer_after(&k, 0, 150001, &d), REF_TURN_LATE);
    ref_turn t;
    fake_now = 7000000;
    ref_turn_open(&k, 0, &t);
    assert_int_equal(ref_turn_wake(&k, &t), 7000000 + 100000 + 50000);
    /* No answer by then: it timed out, its link said in why. */
    fake_now += 150001;
    ref_turn_measure(&k, &t, &d);
    assert_int_equal(ref_turn_judge(&k, &t, &d, 0), REF_TURN_LATE);
    char why[200];
    assert_int_equal(ref_turn_timed_out(&k, &t, &d, why, sizeof why), 0);
    assert_string_equal(why, "no action within 150 ms, less 50 ms for its link, over its 100 ms");
}

/* An answer quicker than the allowance is charged nothing, and its
 * record says what was taken off: its whole wall time. */
static void test_an_answer_within_the_link_is_free(void **state)
{
    (void)state;
    ref_clocks k;
    ref_decision d;
    clocks(&k, 40000, 50);
    assert_int_equal(answer_after(&k, 0, 25000, &d), REF_TURN_IN_TIME);
    assert_int_equal(d.micros, 25000);
    assert_int_equal(d.link_us, 25000);
    assert_int_equal(k.seat[0].bank_us, 50000);
}

/* A link not measured yet allows nothing. */
static void test_an_unmeasured_link_allows_nothing(void **state)
{
    (void)state;
    ref_clocks k;
    ref_decision d;
    clocks(&k, -1, 0);
    assert_int_equal(answer_after(&k, 0, 100000, &d), REF_TURN_IN_TIME);
    assert_int_equal(d.link_us, 0);
    assert_int_equal(d.remote, 1);
    assert_int_equal(answer_after(&k, 0, 100001, &d), REF_TURN_LATE);
}

/* ---- the relay's note -------------------------------------------------------- */

static void test_a_note_reads_back_and_nothing_else_does(void **state)
{
    (void)state;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    ref_relay_note in = { .rtt_us = 12345, .ended = 1, .status = 3 }, out;
    ref_relay_note_write(&sb, &in);
    assert_int_equal(ref_relay_note_read(sb.data, sb.size, &out), 0);
    assert_int_equal(out.rtt_us, 12345);
    assert_int_equal(out.ended, 1);
    assert_int_equal(out.status, 3);
    in = (ref_relay_note){ .rtt_us = -2 };
    ref_relay_note_write(&sb, &in);
    assert_int_equal(ref_relay_note_read(sb.data, sb.size, &out), -1);
    in = (ref_relay_note){ .rtt_us = 1, .ended = 3 };
    ref_relay_note_write(&sb, &in);
    assert_int_equal(ref_relay_note_read(sb.data, sb.size, &out), -1);
    assert_int_equal(ref_relay_note_read("\x81\xa4type\xa6" "action", 13, &out), -1);
    assert_int_equal(ref_relay_note_read("\xc1", 1, &out), -1);
    msgpack_sbuffer_destroy(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_is_250_ms_or_half_the_move),
        cmocka_unit_test(test_charge_is_wall_less_the_bounded_round_trip),
        cmocka_unit_test(test_a_remote_answer_is_charged_less_its_link),
        cmocka_unit_test(test_the_bank_pays_what_is_left_after_the_link),
        cmocka_unit_test(test_held_pongs_gain_the_bound_only),
        cmocka_unit_test(test_an_answer_within_the_link_is_free),
        cmocka_unit_test(test_an_unmeasured_link_allows_nothing),
        cmocka_unit_test(test_a_note_reads_back_and_nothing_else_does),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
