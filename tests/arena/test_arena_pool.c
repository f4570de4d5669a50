/*
 * test_arena_pool.c - the worker link's version check, with a real pool
 * and real ZeroMQ peers standing in for remote workers: a worker that says
 * another protocol is refused with a log line and told to stop, and never
 * counted; one that says this arena's protocol is taken. A remote bot's
 * match (a relay seat) is never handed to a remote worker.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <zmq.h>
#include "arena_pool.h"
#include "mps.h"
#include "mpw.h"
#include "ref_worker.h"

static void say_ready_capacity(void *sock, int64_t protocol, int64_t capacity)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    mpw_begin(&sb, &pk);
    mpw_message(&pk, "ready", 3);
    mpw_str(&pk, "protocol"); msgpack_pack_int64(&pk, protocol);
    mpw_str(&pk, "pid");      msgpack_pack_int(&pk, 999999);
    mpw_str(&pk, "capacity"); msgpack_pack_int64(&pk, capacity);
    assert_true(zmq_send(sock, sb.data, sb.size, 0) >= 0);
    msgpack_sbuffer_destroy(&sb);
}

static void say_ready(void *sock, int64_t protocol)
{
    say_ready_capacity(sock, protocol, 1);
}

/* The next message the pool sends this peer within 2 s: its "type". */
static int receive_type(void *sock, char *type, size_t size, char *reason, size_t rsize)
{
    zmq_pollitem_t item = { sock, 0, ZMQ_POLLIN, 0 };
    if (zmq_poll(&item, 1, 2000) != 1)
        return -1;
    char buf[4096];
    int n = zmq_recv(sock, buf, sizeof buf, 0);
    msgpack_unpacked u;
    if (n < 0 || mps_decode(buf, (size_t)n, &u) < 0)
        return -1;
    int rc = mps_get_str(&u.data, "type", type, size);
    reason[0] = 0;
    mps_get_str(&u.data, "reason", reason, rsize);
    int64_t id;
    if (mps_get_int(&u.data, "id", &id) == 0)
        snprintf(reason, rsize, "%lld", (long long)id);   /* a job: its id */
    msgpack_unpacked_destroy(&u);
    return rc;
}

static void test_another_protocol_is_refused(void **state)
{
    char dir[] = "/tmp/arena-pool-test-XXXXXX", endpoint[128], err[256], log[160];
    assert_non_null(mkdtemp(dir));
    snprintf(endpoint, sizeof endpoint, "ipc://%s/remote", dir);
    snprintf(log, sizeof log, "%s/stderr", dir);
    /* The pool logs to stderr: catch it in a file. */
    fflush(stderr);
    int saved = dup(2);
    FILE *f = freopen(log, "w", stderr);
    assert_non_null(f);
    arena_remote remote = { .listen = endpoint };
    arena_pool *p = arena_pool_start(0, 0, "/bin/true", NULL, &remote, err, sizeof err);
    assert_non_null(p);
    void *ctx = zmq_ctx_new(), *old = zmq_socket(ctx, ZMQ_DEALER), *good = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 0;
    zmq_setsockopt(old, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(good, ZMQ_LINGER, &linger, sizeof linger);
    assert_int_equal(zmq_connect(old, endpoint), 0);
    assert_int_equal(zmq_connect(good, endpoint), 0);
    say_ready(old, REF_WORKER_PROTOCOL + 1);
    arena_job_result res;
    for (int i = 0; i < 10 && arena_pool_workers(p) == 0; i++)
        assert_int_equal(arena_pool_next(p, &res, 100, err, sizeof err), 0);
    char type[16], reason[32];
    assert_int_equal(receive_type(old, type, sizeof type, reason, sizeof reason), 0);
    assert_string_equal(type, "stop");
    assert_string_equal(reason, "protocol_version");
    assert_int_equal(arena_pool_workers(p), 0);

    say_ready(good, REF_WORKER_PROTOCOL);
    for (int i = 0; i < 50 && arena_pool_workers(p) == 0; i++)
        assert_int_equal(arena_pool_next(p, &res, 100, err, sizeof err), 0);
    assert_int_equal(arena_pool_workers(p), 1);

    arena_pool_stop(p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[1024] = "";
    FILE *in = fopen(log, "r");
    assert_non_null(in);
    size_t n = fread(text, 1, sizeof text - 1, in);
    text[n] = 0;
    fclose(in);
    char want[128];
    snprintf(want, sizeof want, "speaks link protocol %d; this arena speaks %d",
             REF_WORKER_PROTOCOL + 1, REF_WORKER_PROTOCOL);
    assert_non_null(strstr(text, want));
    assert_int_equal(strchr(text, '\n') - text + 1, (long)strlen(text));   /* one line */
    zmq_close(old);
    zmq_close(good);
    zmq_ctx_term(ctx);
    unlink(log);
    rmdir(dir);
}

/* A remote worker with room for two matches is handed the plain one only:
 * the match with a remote bot's seat (played through the arena's relay,
 * which speaks with the arena's key) waits for a worker of this machine. */
static void test_relay_stays_local(void **state)
{
    (void)state;
    char dir[] = "/tmp/arena-pool-test-XXXXXX", endpoint[128], err[256];
    assert_non_null(mkdtemp(dir));
    snprintf(endpoint, sizeof endpoint, "ipc://%s/remote", dir);
    arena_remote remote = { .listen = endpoint };
    arena_pool *p = arena_pool_start(0, 0, "/bin/true", NULL, &remote, err, sizeof err);
    assert_non_null(p);
    arena_job relayed = { .id = 7, .nbots = 2, .relay = { 0, 1 } };
    arena_job plain = { .id = 8, .nbots = 2 };
    snprintf(relayed.game, sizeof relayed.game, "goofspiel");
    snprintf(plain.game, sizeof plain.game, "goofspiel");
    assert_int_equal(arena_job_relays(&relayed), 1);
    assert_int_equal(arena_job_relays(&plain), 0);
    assert_int_equal(arena_pool_submit(p, &relayed), 0);
    assert_int_equal(arena_pool_submit(p, &plain), 0);
    void *ctx = zmq_ctx_new(), *w = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 0;
    zmq_setsockopt(w, ZMQ_LINGER, &linger, sizeof linger);
    assert_int_equal(zmq_connect(w, endpoint), 0);
    say_ready_capacity(w, REF_WORKER_PROTOCOL, 2);
    arena_job_result res;
    for (int i = 0; i < 50 && arena_pool_workers(p) == 0; i++)
        assert_int_equal(arena_pool_next(p, &res, 100, err, sizeof err), 0);
    assert_int_equal(arena_pool_workers(p), 1);
    char type[16], id[32];
    int jobs = 0;
    for (int i = 0; i < 20; i++) {   /* 2 s of the pool's turns: pings, and one job */
        assert_int_equal(arena_pool_next(p, &res, 100, err, sizeof err), 0);
        zmq_pollitem_t item = { w, 0, ZMQ_POLLIN, 0 };
        while (zmq_poll(&item, 1, 0) == 1 &&
               receive_type(w, type, sizeof type, id, sizeof id) == 0)
            if (!strcmp(type, "job")) {
                assert_string_equal(id, "8");
                jobs++;
            }
    }
    assert_int_equal(jobs, 1);
    assert_int_equal(arena_pool_pending(p), 2);
    arena_pool_stop(p);
    zmq_close(w);
    zmq_ctx_term(ctx);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_another_protocol_is_refused),
        cmocka_unit_test(test_relay_stays_local),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
