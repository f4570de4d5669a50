/*
 * test_ref_job.c - the worker link's `job`, written by the arena
 * (arena_job_pack, arena_pool.c) and read by a worker (ref_job_read) into
 * the config a match plays: every field lands where it belongs, with its
 * unit, and values that tell fields apart (pondering both ways, a memory
 * limit in MiB). The fuzzer (fuzz_worker_job) only checks that no job
 * crashes the reader; this checks what it reads.
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
    const char *clock;
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
    job.move_ms = 120, job.bank_ms = 3300, job.handshake_ms = 4500;
    job.strikes = 3;
    job.memory_mb = js->memory_mb;
    job.log_bytes = 65536;
    snprintf(job.clock, sizeof job.clock, "%s", js->clock);
    job.wall_ceiling_pct = 250;
    job.ponder = js->ponder;
    arena_job_pack(sb, &job);
}

/* Reads the job `js` describes into *j; fails the test if it is refused. */
static void read_job(const job_spec *js, ref_job *j)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    pack_job(&sb, js);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    char err[256] = "";
    int rc = ref_job_read(&u.data, j, err, sizeof err);
    if (rc < 0)
        fail_msg("the job is refused: %s", err);
    /* The config keeps no pointer into the message, only into the job. */
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

static void test_every_field(void **state)
{
    (void)state;
    ref_job j;
    read_job(&(job_spec){ 1, 96, "wall" }, &j);
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
    assert_int_equal(c->move_ms, 120);
    assert_int_equal(c->bank_ms, 3300);
    assert_int_equal(c->handshake_ms, 4500);
    assert_int_equal(c->clock_mode, REF_CLOCK_WALL);
    assert_true(c->wall_ceiling > 2.49 && c->wall_ceiling < 2.51);
    assert_int_equal(c->ponder, 1);
    assert_int_equal(c->strikes, 3);
    assert_int_equal(c->limits.memory_bytes, (uint64_t)96 << 20);   /* MiB on the link */
    ref_job_free(&j);
}

static void test_pondering_off_and_no_memory_limit(void **state)
{
    (void)state;
    ref_job defaults, j;
    memset(&defaults, 0, sizeof defaults);
    ref_config_default(&defaults.cfg);
    read_job(&(job_spec){ 0, -1, "cpu" }, &j);
    assert_int_equal(j.cfg.ponder, 0);
    assert_int_equal(j.cfg.clock_mode, REF_CLOCK_CPU);
    assert_int_equal(j.cfg.limits.memory_bytes, defaults.cfg.limits.memory_bytes);
    ref_job_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field),
        cmocka_unit_test(test_pondering_off_and_no_memory_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
