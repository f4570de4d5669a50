/*
 * test_ref_job.c - the worker link's `job`, written by the arena
 * (ref_link_job_pack) and read by a worker (ref_job_read) into the config a
 * match plays: every field lands where it belongs, with its unit, and
 * values that tell fields apart (pondering both ways, a memory limit in
 * MiB); terms out of their range are refused; and the worker's `result`
 * (ref_link_result_pack) read back by the arena (arena_job_result_read);
 * a bot named by its content hash, and the `fetch` of its files and the
 * arena's `bot` answer, each read back, a malformed hash refused.
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
#include "mpw.h"
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
    memset(job.hash[1], 'e', REF_LINK_HASH_HEX);    /* a submitted bot, by its hash */
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
    assert_string_equal(j.link.hash[0], "");    /* by path */
    assert_int_equal(strlen(j.link.hash[1]), REF_LINK_HASH_HEX);
    assert_int_equal(strspn(j.link.hash[1], "e"), REF_LINK_HASH_HEX);
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

/* Unpacks sb's message into u (destroy it). */
static void unpack(const msgpack_sbuffer *sb, msgpack_unpacked *u)
{
    msgpack_unpacked_init(u);
    assert_int_equal(msgpack_unpack_next(u, sb->data, sb->size, NULL), MSGPACK_UNPACK_SUCCESS);
}

/* A job whose bot's hash is not 64 lowercase hex digits is refused: a
 * worker makes a folder's name of it. */
static void test_job_bad_hash_refused(void **state)
{
    (void)state;
    const char *bad[] = { "../../etc", "ABCDEF", "", "0123456789abcdef0123456789abcdef"
                          "0123456789abcdef0123456789abcdeg" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        mpw_message(&pk, REF_LINK_JOB, 5);
        mpw_str(&pk, REF_LINK_ID);      msgpack_pack_int64(&pk, 3);
        mpw_str(&pk, REF_LINK_GAME);    mpw_str(&pk, "warchest");
        mpw_str(&pk, REF_LINK_OPTIONS); mpw_str(&pk, "");
        mpw_str(&pk, REF_LINK_SEED);    msgpack_pack_uint64(&pk, 1);
        mpw_str(&pk, REF_LINK_BOTS);
        msgpack_pack_array(&pk, 1);
        msgpack_pack_map(&pk, 2);
        mpw_str(&pk, REF_LINK_CMD);  mpw_str(&pk, "./bot");
        mpw_str(&pk, REF_LINK_HASH); mpw_str(&pk, bad[k]);
        msgpack_unpacked u;
        unpack(&sb, &u);
        ref_link_job job;
        char err[256] = "";
        assert_int_equal(ref_link_job_read(&u.data, &job, err, sizeof err), -1);
        assert_non_null(strstr(err, "hash is not 64 hex digits"));
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }
}

/* A worker's fetch and the arena's answer, each way: the archive's bytes
 * as sent; a refusal's reason; a malformed hash refused. */
static void test_fetch_and_bot(void **state)
{
    (void)state;
    char hash[REF_LINK_HASH_HEX + 1];
    memset(hash, '7', REF_LINK_HASH_HEX);
    hash[REF_LINK_HASH_HEX] = 0;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    ref_link_fetch_pack(&sb, 12, hash);
    msgpack_unpacked u;
    unpack(&sb, &u);
    int64_t id = -1;
    char got[REF_LINK_HASH_HEX + 1];
    assert_int_equal(ref_link_fetch_read(&u.data, &id, got), 0);
    assert_int_equal(id, 12);
    assert_string_equal(got, hash);
    msgpack_unpacked_destroy(&u);

    sb.size = 0;
    ref_link_fetch_pack(&sb, 12, "/etc/passwd");
    unpack(&sb, &u);
    assert_int_equal(ref_link_fetch_read(&u.data, &id, got), -1);
    msgpack_unpacked_destroy(&u);

    const char archive[] = "\x1f\x8b not really gzip\0with a NUL";
    ref_link_bot b = { .id = 12, .archive = archive, .len = sizeof archive };
    snprintf(b.hash, sizeof b.hash, "%s", hash);
    sb.size = 0;
    ref_link_bot_pack(&sb, &b);
    unpack(&sb, &u);
    ref_link_bot r;
    assert_int_equal(ref_link_bot_read(&u.data, &r), 0);
    assert_int_equal(r.id, 12);
    assert_string_equal(r.hash, hash);
    assert_int_equal(r.len, sizeof archive);
    assert_memory_equal(r.archive, archive, sizeof archive);
    msgpack_unpacked_destroy(&u);

    b.archive = NULL;
    snprintf(b.error, sizeof b.error, "not a bot of your match");
    sb.size = 0;
    ref_link_bot_pack(&sb, &b);
    unpack(&sb, &u);
    assert_int_equal(ref_link_bot_read(&u.data, &r), 0);
    assert_null(r.archive);
    assert_string_equal(r.error, "not a bot of your match");
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
        cmocka_unit_test(test_job_bad_hash_refused),
        cmocka_unit_test(test_fetch_and_bot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
