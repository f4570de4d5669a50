/*
 * test_ref_job.c - the worker link's `job`, written by the arena
 * (ref_link_job_pack) and read by a worker (ref_job_read) into the config a
 * match plays: every field lands where it belongs, with its unit, and
 * values that tell fields apart (pondering both ways, a memory limit in
 * MiB); terms out of their range are refused; and the worker's `result`
 * (ref_link_result_pack) read back by the arena (arena_job_result_read).
 * The fuzzers (fuzz_worker_job, fuzz_worker_result) only check that no
 * message crashes the readers; this checks what they read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "arena_pool.h"
#include "ref_job.h"

typedef struct job_spec {
    int ponder;
    int64_t memory_mb;      /* -1: not sent, as the arena does without a limit */
    ref_clock_mode clock;
    int strikes;
} job_spec;

/* A job of two bots as the arena would submit it. */
static void pack_job(msgpack_sbuffer *sb, const job_spec *js)
{
    static arena_job job;
    memset(&job, 0, sizeof job);
    job.id = 77;
    snprintf(job.game, sizeof job.game, "warchest");
    job.seed = 4242;
    job.nbots = 2;
    snprintf(job.cmd[0], sizeof job.cmd[0], "bots/a");
    snprintf(job.cmd[1], sizeof job.cmd[1], "bots/b --x");
    snprintf(job.cwd[0], sizeof job.cwd[0], "/srv/a");
    snprintf(job.env[1], sizeof job.env[1], "BOT_LEVEL=3\nBOT_NAME=b");
    job.relay[1] = 1;                           /* seat 1: a remote bot's relay */
    ref_terms *t = &job.terms;
    t->move_ms = 120, t->bank_ms = 3300, t->handshake_ms = 4500;
    t->strikes = js->strikes;
    t->memory_mb = js->memory_mb;
    job.log_bytes = 5000;
    t->clock = js->clock;
    t->wall_ceiling_pct = 250;
    t->ponder = js->ponder;
    ref_link_job_pack(sb, &job);
}

/* Reads the job `js` describes into *j: 0, or -1 with err. */
static int try_job(const job_spec *js, ref_job *j, char *err, size_t size)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    pack_job(&sb, js);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    int rc = ref_job_read(&u.data, j, err, size);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return rc;
}

/* Reads the job `js` describes into *j; fails the test if it is refused.
 * The config keeps no pointer into the message, only into the job. */
static void read_job(const job_spec *js, ref_job *j)
{
    char err[256] = "";
    if (try_job(js, j, err, sizeof err) < 0)
        fail_msg("the job is refused: %s", err);
}

static void test_every_field(void **state)
{
    (void)state;
    ref_job j;
    read_job(&(job_spec){ 1, 96, REF_CLOCK_WALL, 3 }, &j);
    const ref_config *c = &j.cfg;
    assert_string_equal(c->game->name, "warchest");
    assert_int_equal(c->seed, 4242);
    assert_int_equal(c->nbots, 2);
    assert_string_equal(c->bot_cmd[0], "bots/a");
    assert_string_equal(c->bot_cmd[1], "bots/b --x");
    assert_string_equal(c->bot_cwd[0], "/srv/a");
    assert_null(c->bot_cwd[1]);                 /* "": the referee's own */
    assert_null(c->bot_env[0][0]);              /* none registered */
    assert_string_equal(c->bot_env[1][0], "BOT_LEVEL=3");
    assert_string_equal(c->bot_env[1][1], "BOT_NAME=b");
    assert_null(c->bot_env[1][2]);
    assert_int_equal(c->bot_relay[0], 0);       /* sandboxed as ever */
    assert_int_equal(c->bot_relay[1], 1);       /* the relay, run outside the sandbox */
    assert_int_equal(c->terms.move_ms, 120);
    assert_int_equal(c->terms.bank_ms, 3300);
    assert_int_equal(c->terms.handshake_ms, 4500);
    assert_int_equal(c->terms.clock, REF_CLOCK_WALL);
    assert_int_equal(c->terms.wall_ceiling_pct, 250);
    assert_true(ref_terms_wall_ceiling(&c->terms) > 2.49 &&
                ref_terms_wall_ceiling(&c->terms) < 2.51);
    assert_int_equal(c->terms.ponder, 1);
    assert_int_equal(c->terms.strikes, 3);
    assert_int_equal(ref_terms_memory_bytes(&c->terms, c->limits.memory_bytes),
                     (uint64_t)96 << 20);   /* MiB on the link */
    assert_int_equal(j.link.id, 77);
    assert_int_equal(j.link.log_bytes, 5000);
    ref_job_free(&j);
}

static void test_pondering_off_and_no_memory_limit(void **state)
{
    (void)state;
    ref_job defaults, j;
    memset(&defaults, 0, sizeof defaults);
    ref_config_default(&defaults.cfg);
    read_job(&(job_spec){ 0, -1, REF_CLOCK_CPU, 0 }, &j);
    assert_int_equal(j.cfg.terms.ponder, 0);
    assert_int_equal(j.cfg.terms.clock, REF_CLOCK_CPU);
    assert_int_equal(j.cfg.terms.memory_mb, -1);
    assert_int_equal(ref_terms_memory_bytes(&j.cfg.terms, j.cfg.limits.memory_bytes),
                     defaults.cfg.limits.memory_bytes);
    ref_job_free(&j);
}

/* Terms out of their range are refused by the one check (ref_terms_check),
 * not played under a default the arena never asked for. */
static void test_terms_out_of_range_refused(void **state)
{
    (void)state;
    ref_job j;
    char err[256] = "";
    assert_int_equal(try_job(&(job_spec){ 0, -1, REF_CLOCK_CPU, REF_TERMS_STRIKES_MAX + 1 }, &j,
                             err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed job: the terms' strikes"));
    ref_job_free(&j);
    assert_int_equal(try_job(&(job_spec){ 0, REF_TERMS_MEMORY_MB_MAX + 1, REF_CLOCK_CPU, 0 },
                             &j, err, sizeof err), -1);
    assert_non_null(strstr(err, "memory_mb"));
    ref_job_free(&j);
    assert_int_equal(try_job(&(job_spec){ 0, -1, REF_CLOCK_CPU, REF_TERMS_STRIKES_MAX }, &j, err,
                             sizeof err), 0);
    ref_job_free(&j);
}

/* A worker's result, written as ref_worker.c writes it and read as the
 * arena reads it: every field, each log with its seat. */
static void test_result_round_trip(void **state)
{
    (void)state;
    char log0[] = "seat zero\n", log1[] = "one\0bytes", record[] = "game warchest\n";
    ref_link_result r = { .id = 41, .record = record, .started_ms = 1000,
                          .finished_ms = 2500, .nlogs = 2 };
    r.logs[0] = (ref_log){ .text = log0, .len = strlen(log0), .bytes = 10 };
    r.logs[1] = (ref_log){ .text = log1, .len = sizeof log1 - 1, .bytes = 99999 };
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    ref_link_result_pack(&sb, &r);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    arena_job_result out;
    arena_job_result_read(&u.data, &out);
    assert_int_equal(out.id, 41);
    assert_null(out.error);
    assert_string_equal(out.record, "game warchest\n");
    assert_int_equal(out.started_ms, 1000);
    assert_int_equal(out.finished_ms, 2500);
    assert_int_equal(out.nlogs, 2);
    assert_int_equal(out.logs[1].seat, 1);
    assert_int_equal(out.logs[1].len, sizeof log1 - 1);
    assert_memory_equal(out.logs[1].text, log1, sizeof log1 - 1);
    assert_int_equal(out.logs[1].bytes, 99999);
    assert_int_equal(out.worker, -1);
    assert_int_equal(out.culprit, -1);
    arena_job_result_free(&out);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field),
        cmocka_unit_test(test_pondering_off_and_no_memory_limit),
        cmocka_unit_test(test_terms_out_of_range_refused),
        cmocka_unit_test(test_result_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
