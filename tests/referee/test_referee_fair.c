/*
 * test_referee_fair.c - the fair clocks (ref_match.h): a decision charged
 * by the CPU its bot used, all its threads together, or by its wall time
 * not spent waiting for a CPU, so that a sleeping bot spends its time as
 * a thinking one does; a bot starved of CPU by the machine
 * never charged (CPU clock) or its timeout recorded as `contended` (wall
 * clock); a bot seen thinking between its turns frozen there, so that it
 * cannot ponder.
 *
 *   test_referee_fair BADBOT RANDOM
 *
 * Real bot processes (badbot's spin and ponder modes). Thresholds are wide
 * and one-sided where the machine's load could move a figure, and the
 * contention is made by the test itself: the test, its hogs and the bots
 * are pinned to one CPU.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "match_run.h"
#include "ref_meter.h"

/* A short match: seat 1 runs badbot `args`. */
static run *short_match(const char *args, ref_clock_mode mode)
{
    run *r = run_new();
    run_option(r, "round_limit", "3");
    r->cfg.terms.clock = mode;
    run_badbot(r, 1, args);
    return r;
}

static const ref_decision *first_of(const ref_record *rec, int seat)
{
    for (size_t i = 0; i < rec->ndecisions; i++)
        if (rec->decisions[i].seat == seat)
            return &rec->decisions[i];
    fail_msg("seat %d made no decision", seat);
    return NULL;
}

static void test_contended_rule(void **state)
{
    (void)state;
    /* budget 1000 us: under 750 of CPU and waiting a quarter of the wall */
    assert_true(ref_meter_contended(1000, 2000, 100, 500));
    assert_false(ref_meter_contended(1000, 2000, 100, 499));   /* not waiting much */
    assert_false(ref_meter_contended(1000, 2000, 750, 1900));  /* it did think */
    assert_false(ref_meter_contended(1000, 2000, -1, 1900));   /* unknown CPU */
    assert_false(ref_meter_contended(1000, 2000, 100, -1));    /* unknown waiting */
}

/* Under the CPU clock a decision costs its CPU time or its wall time not
 * spent waiting for a CPU, whichever is more. */
static void test_charge_rule(void **state)
{
    (void)state;
    /* 150 ms of wall, 100 of them waiting for a CPU: 50 were its own */
    assert_int_equal(ref_meter_charge(10000, 150000, 100000), 50000);
    /* asleep the whole time: the wall is charged */
    assert_int_equal(ref_meter_charge(1000, 150000, 0), 150000);
    assert_int_equal(ref_meter_charge(1000, 150000, -1), 150000);     /* unknown wait */
    /* threads: more CPU than wall */
    assert_int_equal(ref_meter_charge(400000, 150000, 20000), 400000);
    /* waits summed over threads may exceed the wall: the CPU still counts */
    assert_int_equal(ref_meter_charge(30000, 150000, 290000), 30000);
}

/* Sleeping costs no CPU, but it is charged like thinking: a bot that
 * sleeps forever times out at its budget, long before the wall ceiling. */
static void test_sleeper_times_out(void **state)
{
    (void)state;
    run *r = short_match("slow 5000", REF_CLOCK_CPU);
    r->cfg.terms.move_ms = 100;
    r->cfg.terms.bank_ms = 0;
    r->cfg.terms.wall_ceiling_pct = 300;
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 1);
    if (!strstr(r->rec.detail, "not waiting for a CPU, over its 100 ms"))
        fail_msg("detail '%s'", r->rec.detail);
    if (strncmp(r->rec.clock, "cpu ceiling=3 ", 14))
        fail_msg("clock line '%s'", r->rec.clock);
    run_free(r);
}

/* A bot that sleeps 150 ms before each answer, well under the wall
 * ceiling (3 x 300 ms), spends its bank like one that thinks: about 50 ms
 * a decision from 200, so the fifth decision or so is late (later on a
 * busy machine, where the waits of the referee's threads meanwhile are
 * taken off too; never, were sleeping free). */
static void test_sleeper_spends_its_bank(void **state)
{
    (void)state;
    run *r = run_new();
    r->cfg.terms.clock = REF_CLOCK_CPU;
    r->cfg.terms.move_ms = 100;
    r->cfg.terms.bank_ms = 200;
    r->cfg.terms.wall_ceiling_pct = 300;
    run_badbot(r, 1, "slow 150");
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 1);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    if (own < 2 || own > 30)
        fail_msg("%d decisions in time", own);
    assert_non_null(strstr(r->rec.detail, "not waiting for a CPU"));
    run_free(r);
}

/* One thread's 150 ms of CPU fits a 400 ms budget; four threads' 600 ms
 * do not: every thread's CPU counts. */
static void test_threads_share_the_budget(void **state)
{
    (void)state;
    run *r = short_match("spin 1:150", REF_CLOCK_CPU);
    r->cfg.terms.move_ms = 400;
    r->cfg.terms.bank_ms = 0;
    r->cfg.terms.wall_ceiling_pct = 10000;        /* the load may slow it, not the test */
    run_play(r);
    assert_game_result(&r->rec);
    const ref_decision *d = first_of(&r->rec, 1);
    assert_true(d->cpu_us >= 140000 && d->cpu_us != REF_UNMEASURED);
    assert_true(d->wait_us != REF_UNMEASURED);
    run_free(r);

    r = short_match("spin 4:600", REF_CLOCK_CPU);
    r->cfg.terms.move_ms = 400;
    r->cfg.terms.bank_ms = 0;
    r->cfg.terms.wall_ceiling_pct = 10000;
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 1);
    if (!strstr(r->rec.detail, "ms of CPU, over its 400 ms"))
        fail_msg("detail '%s'", r->rec.detail);
    run_free(r);
}

/* ---- contention made on one CPU ---------------------------------------- */

static volatile int hogging;
enum { HOGS = 7 };         /* more than the bot, whatever its cgroup weighs */

static void *hog(void *unused)
{
    (void)unused;
    volatile unsigned long x = 0;
    while (hogging)
        x++;
    return NULL;
}

/* Plays r with this process, HOGS spinning threads and the bots (which
 * inherit the mask) on one CPU. */
static void play_contended(run *r)
{
    cpu_set_t old, one;
    assert_int_equal(sched_getaffinity(0, sizeof old, &old), 0);
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &old)) {
            CPU_SET(c, &one);
            break;
        }
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
    pthread_t t[HOGS];
    hogging = 1;
    for (int i = 0; i < HOGS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, hog, NULL), 0);
    run_play(r);
    hogging = 0;
    for (int i = 0; i < HOGS; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(sched_setaffinity(0, sizeof old, &old), 0);
}

/* 70 ms of CPU against a 100 ms budget, with at most half of one CPU (a
 * quarter, or a half when the bot's cgroup has a share of its own):
 * under the wall clock that is a timeout the machine caused. */
static void test_wall_clock_contended(void **state)
{
    (void)state;
    run *r = short_match("spin 1:70", REF_CLOCK_WALL);
    r->cfg.terms.move_ms = 100;
    r->cfg.terms.bank_ms = 0;
    play_contended(r);
    assert_string_equal(r->rec.reason, REF_CONTENDED);
    assert_int_equal(r->rec.culprit, 1);
    assert_true(r->rec.score[0] == 0 && r->rec.score[1] == 0);
    assert_non_null(strstr(r->rec.detail, "overloaded"));
    assert_verifies(&r->rec);
    run_free(r);
}

/* The same under the CPU clock: nobody is charged for waiting. */
static void test_cpu_clock_not_charged(void **state)
{
    (void)state;
    run *r = short_match("spin 1:40", REF_CLOCK_CPU);
    r->cfg.terms.move_ms = 100;
    r->cfg.terms.bank_ms = 0;
    r->cfg.terms.wall_ceiling_pct = 20000;
    play_contended(r);
    assert_game_result(&r->rec);
    uint64_t waited = 0;
    for (size_t i = 0; i < r->rec.ndecisions; i++)
        if (r->rec.decisions[i].seat == 1)
            waited += r->rec.decisions[i].wait_us;
    assert_true(waited > 40000);       /* it did wait for the CPU, a lot */
    run_free(r);
}

/* ---- no free pondering -------------------------------------------------- */

/* The ponderer's CPU outside its own decisions, against what its
 * opponent thought meanwhile. */
static void ponder_share(int ponder, double *outside, double *opponent, char *clock, size_t size)
{
    run *r = run_new();
    run_option(r, "round_limit", "4");
    r->cfg.terms.ponder = ponder;
    r->cfg.terms.wall_ceiling_pct = 10000;
    run_badbot(r, 0, "ponder");
    run_badbot(r, 1, "spin 1:25");
    run_play(r);
    assert_game_result(&r->rec);
    double own = 0, other = 0;
    for (size_t i = 0; i < r->rec.ndecisions; i++)
        *(r->rec.decisions[i].seat == 0 ? &own : &other) += r->rec.decisions[i].cpu_us / 1000.0;
    char *log = run_log(r, 0, NULL), *cpu = strstr(log, "cpu ");
    assert_non_null(cpu);
    *outside = atof(cpu + 4) - own;
    *opponent = other;
    snprintf(clock, size, "%s", r->rec.clock);
    free(log);
    run_free(r);
}

static void test_no_free_pondering(void **state)
{
    (void)state;
    double outside, opponent;
    char clock[64];
    ponder_share(0, &outside, &opponent, clock, sizeof clock);
    if (!strstr(clock, "between=frozen")) {
        print_message("no freezer here (%s): pondering is charged instead\n", clock);
        skip();
    }
    print_message("frozen: %.0f ms outside its turns, opponent thought %.0f ms\n", outside,
                  opponent);
    assert_true(opponent > 200);
    assert_true(outside < opponent / 4);
    ponder_share(1, &outside, &opponent, clock, sizeof clock);
    print_message("--ponder: %.0f ms outside its turns, opponent thought %.0f ms\n", outside,
                  opponent);
    assert_non_null(strstr(clock, "between=ponder"));
    /* Left running, it thinks while its opponent does: a third of that at
     * least, even when a busy machine gives the two of them one core
     * between them (149-493 ms beside 325 seen then); frozen, under a
     * tenth (17-37 ms). */
    assert_true(outside > opponent / 3);
}

int main(int argc, char **argv)
{
    if (run_paths(argc, argv) < 0)
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contended_rule),
        cmocka_unit_test(test_charge_rule),
        cmocka_unit_test(test_sleeper_times_out),
        cmocka_unit_test(test_sleeper_spends_its_bank),
        cmocka_unit_test(test_threads_share_the_budget),
        cmocka_unit_test(test_wall_clock_contended),
        cmocka_unit_test(test_cpu_clock_not_charged),
        cmocka_unit_test(test_no_free_pondering),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
