/*
 * test_ref_job.c - a worker link `job` (the shape arena_pool.c sends), read
 * by ref_job_read into the config a match plays: every field lands where
 * it belongs, with its unit, and values that tell fields apart (pondering
 * both ways, a memory limit in MiB). The fuzzer (fuzz_worker_job) only
 * checks that no job crashes the reader; this checks what it reads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "mpw.h"
#include "ref_job.h"

typedef struct job_spec {
    int ponder;
    int64_t memory_mb;      /* -1: not sent, as the arena does without a limit */
    const char *clock;
} job_spec;

/* A job as arena_pool.c's send_job writes it. */
static void pack_job(msgpack_sbuffer *sb, const job_spec *js)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, js->memory_mb >= 0 ? 10 : 9);
    mpw_str(&pk, "type");    mpw_str(&pk, "job");
    mpw_str(&pk, "id");      msgpack_pack_int64(&pk, 77);
    mpw_str(&pk, "game");    mpw_str(&pk, "warchest");
    mpw_str(&pk, "options"); mpw_str(&pk, "");
    mpw_str(&pk, "seed");    msgpack_pack_uint64(&pk, 4242);
    mpw_str(&pk, "bots");
    msgpack_pack_array(&pk, 2);
    for (int i = 0; i < 2; i++) {
        msgpack_pack_map(&pk, 3);
        mpw_str(&pk, "cmd"); mpw_str(&pk, i ? "bots/b --x" : "bots/a");
        mpw_str(&pk, "cwd"); mpw_str(&pk, i ? "" : "/srv/a");
        mpw_str(&pk, "env"); mpw_str(&pk, "");
    }
    mpw_str(&pk, "time");
    msgpack_pack_map(&pk, 6);
    mpw_str(&pk, "clock");        mpw_str(&pk, js->clock);
    mpw_str(&pk, "ceiling_pct");  msgpack_pack_int(&pk, 250);
    mpw_str(&pk, "ponder");       msgpack_pack_int(&pk, js->ponder);
    mpw_str(&pk, "move_ms");      msgpack_pack_int64(&pk, 120);
    mpw_str(&pk, "bank_ms");      msgpack_pack_int64(&pk, 3300);
    mpw_str(&pk, "handshake_ms"); msgpack_pack_int64(&pk, 4500);
    mpw_str(&pk, "strikes");   msgpack_pack_int(&pk, 3);
    mpw_str(&pk, "log_bytes"); msgpack_pack_int64(&pk, 65536);
    if (js->memory_mb >= 0) {
        mpw_str(&pk, "memory_mb");
        msgpack_pack_int64(&pk, js->memory_mb);
    }
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
