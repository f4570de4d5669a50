/*
 * test_referee_clock.c - the time control, to the microsecond.
 *
 *   test_referee_clock BADBOT RANDOM
 *
 * The referee reads a clock its bots drive (run_use_log_clock): badbot's
 * `think` says how long each decision took, and the clock moves by
 * exactly that, whatever the machine's load. So every expectation here is
 * exact: which decision times out, what each recorded decision took, and
 * the bank each request announced. The same lines, printed before each
 * answer, show where the record marks a seat's log for each decision.
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

/* Seat 1 thinks `think` (badbot's list) under move_ms / bank_ms. */
static run *thinking_match(int64_t move_ms, int64_t bank_ms, const char *think)
{
    char args[128];
    snprintf(args, sizeof args, "think %s", think);
    run *r = run_new();
    r->cfg.terms.move_ms = move_ms;
    r->cfg.terms.bank_ms = bank_ms;
    run_use_log_clock(r);
    run_badbot(r, 1, args);
    return r;
}

/* The banks seat 1's requests announced, in order; returns how many. */
static int banks_seen(const run *r, int64_t *out, int cap)
{
    char *log = run_log(r, 1, NULL);
    int n = 0;
    long long b;
    for (char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (sscanf(p, "bank %lld", &b) == 1 && n < cap)
            out[n++] = b;
    free(log);
    return n;
}

/* Every answer of seat 1 that counted took exactly `micros`. */
static void expect_answers_took(const ref_record *rec, uint32_t micros)
{
    for (size_t i = 0; i < rec->ndecisions; i++)
        if (rec->decisions[i].seat == 1 && !rec->decisions[i].substituted &&
            rec->decisions[i].micros != micros)
            fail_msg("decision %zu took %u us, not %u", i, rec->decisions[i].micros, micros);
}

/* Each answer overruns the 100 ms move time by 50 ms: the 1,000 ms bank
 * pays for exactly 20, announcing 1000, 950, ..., 0; the 21st is late. */
static void test_bank_pays_each_overrun_exactly(void **state)
{
    run *r = thinking_match(100, 1000, "150");
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 1);
    assert_string_equal(r->rec.detail, "seat 1: no action within 150 ms");
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_int_equal(own, 20);
    assert_int_equal(subs, 0);
    expect_answers_took(&r->rec, 150000);
    int64_t bank[64] = { 0 };
    assert_int_equal(banks_seen(r, bank, 64), 21);
    for (int k = 0; k < 21; k++)
        assert_int_equal(bank[k], 1000 - 50 * k);
    run_free(r);
}

/* Answers that take exactly the move time never touch the bank. */
static void test_answers_within_the_move_time_keep_the_bank(void **state)
{
    run *r = thinking_match(100, 1000, "100");
    run_option(r, "round_limit", "8");
    run_play(r);
    assert_game_result(&r->rec);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_true(own > 8);
    assert_int_equal(subs, 0);
    expect_answers_took(&r->rec, 100000);
    int64_t bank[512] = { 0 };
    int n = banks_seen(r, bank, 512);
    assert_int_equal(n, own);
    for (int k = 0; k < n; k++)
        assert_int_equal(bank[k], 1000);
    run_free(r);
}

/* A decision may take the move time and the whole bank, not a
 * microsecond more: 1,100 ms is in time and empties the bank; the next
 * 1,100 ms is late. */
static void test_the_deadline_is_move_time_plus_bank(void **state)
{
    run *r = thinking_match(100, 1000, "1100");
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 1);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_int_equal(own, 1);
    expect_answers_took(&r->rec, 1100000);
    int64_t bank[8] = { 0 };
    assert_int_equal(banks_seen(r, bank, 8), 2);
    assert_int_equal(bank[0], 1000);
    assert_int_equal(bank[1], 0);
    run_free(r);
}

/* With strikes, a late decision is played for the bot and empties its
 * bank; answers in the move time then carry on to the game's end. */
static void test_a_timeout_empties_the_bank(void **state)
{
    run *r = thinking_match(100, 1000, "30,2000,100");
    r->cfg.terms.strikes = 2;
    run_option(r, "round_limit", "8");
    run_play(r);
    assert_game_result(&r->rec);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_int_equal(subs, 1);
    int64_t bank[512] = { 0 };
    int n = banks_seen(r, bank, 512);
    assert_int_equal(n, own + subs);
    assert_int_equal(bank[0], 1000);
    assert_int_equal(bank[1], 1000);
    for (int k = 2; k < n; k++)
        assert_int_equal(bank[k], 0);
    /* The substituted decision is the second of seat 1's. */
    for (size_t i = 0, k = 0; i < r->rec.ndecisions; i++)
        if (r->rec.decisions[i].seat == 1)
            assert_int_equal(r->rec.decisions[i].substituted, ++k == 2);
    run_free(r);
}

/* Under the CPU clock, a bot that takes 150 ms of the clock and no CPU
 * (asleep, as far as the referee can tell) is charged those 150 ms less
 * what its threads and the referee's truly waited for a CPU meanwhile
 * (real time, a little: under 25 ms a decision even on a busy machine):
 * most decisions take 25 to 50 ms from the bank, none more than the
 * clock moved, and once the bank is gone a decision is late. */
static void test_cpu_clock_charges_sleep(void **state)
{
    (void)state;
    run *r = thinking_match(100, 1000, "150");
    r->cfg.terms.clock = REF_CLOCK_CPU;
    r->cfg.terms.wall_ceiling_pct = 300;
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 1);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    int64_t bank[64] = { 0 };
    int n = banks_seen(r, bank, 64);
    assert_int_equal(n, own + 1);
    assert_true(own >= 20 && own <= 40);
    /* A decision may pay less on a machine so loaded that the referee's
     * own threads wait long for a CPU (a fresh root's CI beside other
     * builds: 4 ms once, its 46 others waited); most must pay for
     * their sleep, and none more than the clock moved. */
    int light = 0;
    for (int k = 1; k < n; k++) {
        int64_t paid = bank[k - 1] - bank[k];
        if (bank[k] < 1000 - 50 * k || (bank[k] > 0 && (paid < 0 || paid > 51)))
            fail_msg("request %d announced a bank of %lld ms after %lld", k,
                     (long long)bank[k], (long long)bank[k - 1]);
        light += bank[k] > 0 && paid < 24;
    }
    if (light * 4 > n)
        fail_msg("%d of %d decisions paid under 24 ms of their 50 ms of sleep", light, n);
    run_free(r);
}

/* Each decision's log mark ends what its seat printed while deciding:
 * seat 1's lines of each turn fall between its previous mark and this one,
 * in order; seat 0 (random) prints nothing. */
static void test_log_marks_each_decision(void **state)
{
    (void)state;
    run *r = thinking_match(100, 1000, "1");
    run_play(r);
    size_t size;
    char *log = run_log(r, 1, &size);
    int64_t bank[256] = { 0 };
    int nbanks = banks_seen(r, bank, 256), turns = 0;
    uint64_t from = 0;
    for (size_t i = 0; i < r->rec.ndecisions; i++) {
        const ref_decision *d = &r->rec.decisions[i];
        assert_true(d->log_end != REF_LOG_UNMARKED);
        if (d->seat == 0) {
            assert_int_equal(d->log_end, 0);
            continue;
        }
        assert_true(d->log_end >= from && d->log_end <= size);
        char want[64];
        assert_true(turns < nbanks);
        snprintf(want, sizeof want, "bank %lld\nclock +1000\n", (long long)bank[turns]);
        assert_int_equal(d->log_end - from, strlen(want));
        assert_memory_equal(log + from, want, strlen(want));
        from = d->log_end;
        turns++;
    }
    assert_int_equal(turns, nbanks);
    assert_true(turns > 10);
    free(log);
    run_free(r);
}

int main(int argc, char **argv)
{
    if (run_paths(argc, argv) < 0)
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bank_pays_each_overrun_exactly),
        cmocka_unit_test(test_answers_within_the_move_time_keep_the_bank),
        cmocka_unit_test(test_the_deadline_is_move_time_plus_bank),
        cmocka_unit_test(test_a_timeout_empties_the_bank),
        cmocka_unit_test(test_cpu_clock_charges_sleep),
        cmocka_unit_test(test_log_marks_each_decision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
