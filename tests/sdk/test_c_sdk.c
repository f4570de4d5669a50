/*
 * test_c_sdk.c - the C SDK reads the shared fixtures (tests/sdk/fixtures,
 * which the Python and JavaScript SDKs read too) field by field.
 *
 *   test_c_sdk FIXTURES_DIR
 *
 * This program plays the referee over a real ZeroMQ socket: it takes the
 * SDK's hello, sends it the fixtures' bytes, and checks every field the
 * transport (bot.h) and the War Chest layer (wc_bot.h) give the bot
 * against the same bytes decoded apart (mps.h). The fixtures' values tell
 * fields apart, so a field read from the wrong key shows. bot_seed is
 * checked against the environments a bot may be started in.
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
#include <zmq.h>
#include "mps.h"
#include "wc_bot.h"

static const char *fixtures_dir;

/* ---- the fixtures, as bytes and decoded apart ---------------------------- */

typedef struct fixture {
    char *data;
    size_t size;
    msgpack_unpacked msg;
} fixture;

static void load(fixture *f, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.msgpack", fixtures_dir, name);
    FILE *in = fopen(path, "rb");
    if (!in)
        fail_msg("no fixture %s", path);
    f->data = malloc(1 << 16);
    assert_non_null(f->data);
    f->size = fread(f->data, 1, 1 << 16, in);
    fclose(in);
    assert_int_equal(mps_decode(f->data, f->size, &f->msg), 0);
}

static void unload(fixture *f)
{
    msgpack_unpacked_destroy(&f->msg);
    free(f->data);
}

static int64_t raw_int(const msgpack_object *m, const char *key)
{
    int64_t v;
    if (mps_get_int(m, key, &v) < 0)
        fail_msg("the fixture has no integer '%s'", key);
    return v;
}

/* An integer, or -1 for nil. */
static int64_t raw_int_or_nil(const msgpack_object *m, const char *key)
{
    const msgpack_object *v = mps_get(m, key);
    return v && v->type == MSGPACK_OBJECT_NIL ? -1 : raw_int(m, key);
}

static const char *raw_str(const msgpack_object *m, const char *key)
{
    static char buf[8][1024];
    static int next;
    char *b = buf[next++ % 8];
    if (mps_get_str(m, key, b, sizeof buf[0]) < 0)
        return "(nil)";
    return b;
}

static const msgpack_object *raw_at(const msgpack_object *array, uint32_t i)
{
    assert_true(array && array->type == MSGPACK_OBJECT_ARRAY && i < array->via.array.size);
    return &array->via.array.ptr[i];
}

/* ---- a referee end of the socket ------------------------------------------ */

typedef struct referee {
    void *ctx, *sock;
    char dir[64];
    uint8_t id[256];
    size_t idlen;
} referee;

static void referee_open(referee *r)
{
    snprintf(r->dir, sizeof r->dir, "/tmp/arena-csdk-XXXXXX");
    assert_non_null(mkdtemp(r->dir));
    char endpoint[128];
    snprintf(endpoint, sizeof endpoint, "ipc://%s/seat", r->dir);
    r->ctx = zmq_ctx_new();
    r->sock = zmq_socket(r->ctx, ZMQ_ROUTER);
    int linger = 0;
    zmq_setsockopt(r->sock, ZMQ_LINGER, &linger, sizeof linger);
    assert_int_equal(zmq_bind(r->sock, endpoint), 0);
    setenv("ARENA_ENDPOINT", endpoint, 1);
    setenv("ARENA_TOKEN", "0123456789abcdef0123456789abcdef", 1);
}

/* The SDK's hello: every field as PROTOCOL.md says. */
static void referee_hello(referee *r)
{
    int n = zmq_recv(r->sock, r->id, sizeof r->id, 0);
    assert_true(n > 0);
    r->idlen = (size_t)n;
    char body[1024];
    n = zmq_recv(r->sock, body, sizeof body, 0);
    assert_true(n > 0);
    msgpack_unpacked u;
    assert_int_equal(mps_decode(body, (size_t)n, &u), 0);
    assert_string_equal(raw_str(&u.data, "type"), "hello");
    assert_int_equal(raw_int(&u.data, "protocol"), 1);
    assert_string_equal(raw_str(&u.data, "token"), "0123456789abcdef0123456789abcdef");
    assert_string_equal(raw_str(&u.data, "name"), "c-sdk-test");
    assert_string_equal(raw_str(&u.data, "version"), "7.5");
    msgpack_unpacked_destroy(&u);
}

static void referee_send(referee *r, const fixture *f)
{
    assert_true(zmq_send(r->sock, r->id, r->idlen, ZMQ_SNDMORE) >= 0);
    assert_true(zmq_send(r->sock, f->data, f->size, 0) >= 0);
}

static void referee_close(referee *r)
{
    zmq_close(r->sock);
    zmq_ctx_term(r->ctx);
    char path[128];
    snprintf(path, sizeof path, "%s/seat", r->dir);
    unlink(path);
    rmdir(r->dir);
}

/* ---- the checks ---------------------------------------------------------- */

static int updates_seen, update_seat;
static char update_text[64];

static void on_update(void *user, int seat, const msgpack_object *action)
{
    updates_seen++;
    update_seat = seat;
    mps_get_str(action, "text", update_text, sizeof update_text);
}

static void expect_zone(const msgpack_object *raw, const uint8_t zone[WC_NCOINS], const char *what)
{
    assert_true(raw && raw->type == MSGPACK_OBJECT_MAP);
    int total = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        total += zone[c] != 0;
    if ((uint32_t)total != raw->via.map.size)
        fail_msg("%s: %d coins decoded, %u sent", what, total, raw->via.map.size);
    for (int c = 0; c < WC_NCOINS; c++)
        if (zone[c] && raw_int(raw, wc_coin_name(c)) != zone[c])
            fail_msg("%s: %s decoded as %d", what, wc_coin_name(c), zone[c]);
}

static int hex_raw(const msgpack_object *m, const char *key)
{
    const char *name = raw_str(m, key);
    return strcmp(name, "(nil)") ? wc_hex_by_name(name) : WC_NONE;
}

static int coin_raw(const msgpack_object *m, const char *key)
{
    const char *name = raw_str(m, key);
    return strcmp(name, "(nil)") ? wc_coin_by_name(name) : WC_NONE;
}

static void expect_observation(const msgpack_object *m, const wc_observation *o)
{
    assert_int_equal(o->seat, raw_int(m, "seat"));
    assert_int_equal(o->nseats, raw_int(m, "seats"));
    assert_string_equal(wc_decision_name(o->decision), raw_str(m, "decision"));
    assert_int_equal(o->to_move == WC_NONE ? -1 : o->to_move, raw_int_or_nil(m, "to_move"));
    assert_int_equal(o->turn, raw_int(m, "turn"));
    assert_int_equal(o->round, raw_int(m, "round"));
    assert_int_equal(o->round_limit, raw_int(m, "round_limit"));
    assert_int_equal(o->initiative, raw_int(m, "initiative"));
    assert_int_equal(o->claimed, mps_get(m, "initiative_claimed")->via.boolean);
    assert_int_equal(o->markers, raw_int(m, "markers"));
    assert_int_equal(o->royal_guard == WC_GUARD_REVISED, !strcmp(raw_str(m, "royal_guard"), "revised"));
    static const char *const phases[] = { "draft", "play", "over" };
    assert_string_equal(phases[o->phase], raw_str(m, "phase"));
    const msgpack_object *players = mps_get(m, "players");
    for (uint32_t p = 0; p < players->via.array.size; p++) {
        const msgpack_object *pl = raw_at(players, p);
        assert_int_equal(o->bag_count[p], raw_int(pl, "bag"));
        assert_int_equal(o->hand_count[p], raw_int(pl, "hand"));
        assert_int_equal(o->discard_down_count[p], raw_int(pl, "facedown"));
        expect_zone(mps_get(pl, "supply"), o->supply[p], "supply");
        expect_zone(mps_get(pl, "discard"), o->discard_up[p], "discard");
        expect_zone(mps_get(pl, "removed"), o->removed[p], "removed");
        const msgpack_object *units = mps_get(pl, "units");
        for (uint32_t k = 0; k < units->via.array.size; k++) {
            char name[32];
            const msgpack_object *u = raw_at(units, k);
            snprintf(name, sizeof name, "%.*s", (int)u->via.str.size, u->via.str.ptr);
            assert_int_equal(o->unit_owner[wc_coin_by_name(name)], p);
        }
    }
    expect_zone(mps_get(m, "hand"), o->hand, "hand");
    expect_zone(mps_get(m, "bag"), o->bag, "bag");
    expect_zone(mps_get(m, "facedown"), o->discard_down, "facedown");
    const msgpack_object *board = mps_get(m, "board");
    int on_board = 0;
    for (int h = 0; h < WC_NHEX; h++)
        on_board += o->hex_unit[h] != WC_NONE;
    assert_int_equal(on_board, board->via.array.size);
    for (uint32_t k = 0; k < board->via.array.size; k++) {
        const msgpack_object *u = raw_at(board, k);
        int h = hex_raw(u, "hex");
        assert_int_equal(o->hex_unit[h], coin_raw(u, "unit"));
        assert_int_equal(o->hex_coins[h], raw_int(u, "coins"));
        assert_int_equal(o->unit_owner[o->hex_unit[h]], raw_int(u, "seat"));
    }
    const msgpack_object *control = mps_get(m, "control");
    for (uint32_t k = 0; k < control->via.map.size; k++) {
        char name[8];
        const msgpack_object *key = &control->via.map.ptr[k].key;
        const msgpack_object *side = &control->via.map.ptr[k].val;
        snprintf(name, sizeof name, "%.*s", (int)key->via.str.size, key->via.str.ptr);
        wc_mask bit = (wc_mask)1 << wc_hex_by_name(name);
        int want = side->type == MSGPACK_OBJECT_NIL ? -1 : (int)side->via.u64;
        int got = o->control[0] & bit ? 0 : o->control[1] & bit ? 1 : -1;
        assert_int_equal(got, want);
    }
    const msgpack_object *pool = mps_get(m, "draft_pool");
    assert_int_equal(__builtin_popcount(o->draft_pool), pool->via.array.size);
    const msgpack_object *pending = mps_get(m, "pending");
    if (pending->type == MSGPACK_OBJECT_NIL) {
        assert_int_equal(o->pending.kind, WC_NONE);
        return;
    }
    assert_string_equal(wc_decision_name(o->pending.kind + 2), raw_str(pending, "decision"));
    assert_int_equal(o->pending.seat, raw_int(pending, "seat"));
    assert_int_equal(o->pending.unit, coin_raw(pending, "unit"));
    assert_int_equal(o->pending.hex, hex_raw(pending, "hex"));
    if (o->pending.kind == WC_FRAME_FOOTMAN)
        assert_int_equal(o->pending.arg, hex_raw(pending, "other_hex"));
    if (o->pending.kind == WC_FRAME_PRIEST)
        assert_int_equal(o->pending.arg, coin_raw(pending, "coin"));
}

static void expect_request(const fixture *f, const wc_request *req)
{
    const msgpack_object *m = &f->msg.data, *acts = mps_get(m, "actions");
    const bot_request *b = &req->base;
    assert_int_equal(b->id, raw_int(m, "id"));
    assert_string_equal(b->decision, raw_str(m, "decision"));
    assert_int_equal(b->move_ms, raw_int(mps_get(m, "time"), "move_ms"));
    assert_int_equal(b->bank_ms, raw_int(mps_get(m, "time"), "bank_ms"));
    assert_int_equal(b->nactions, acts->via.array.size);
    assert_int_equal(req->nactions, b->nactions);
    for (int i = 0; i < b->nactions; i++) {
        assert_string_equal(b->actions[i].text, raw_str(raw_at(acts, (uint32_t)i), "text"));
        wc_action a;
        assert_int_equal(wc_action_parse(b->actions[i].text, &a), 0);
        assert_true(wc_action_equal(&a, &req->actions[i]));
    }
    expect_observation(mps_get(m, "observation"), &req->obs);
}

static void test_a_match_of_fixtures(void **state)
{
    static const char *const requests[] = { "request-4p", "request-turn", "request-priest",
                                            "request-footman", "request-draft" };
    fixture welcome, update_own, update_public, end, error;
    load(&welcome, "welcome-4p");
    load(&update_own, "update-own");
    load(&update_public, "update-public");
    load(&end, "end-4p-draw");
    load(&error, "error");
    referee r;
    referee_open(&r);
    bot_conn *bot = bot_connect("c-sdk-test", "7.5");
    assert_non_null(bot);
    bot_on_update(bot, on_update, NULL);
    referee_hello(&r);
    referee_send(&r, &welcome);
    static wc_request req;
    for (size_t k = 0; k < sizeof requests / sizeof requests[0]; k++) {
        fixture f;
        load(&f, requests[k]);
        const fixture *update = k % 2 ? &update_own : &update_public;
        referee_send(&r, update);
        referee_send(&r, &f);
        assert_int_equal(wc_bot_next(bot, &req), 1);
        expect_request(&f, &req);
        assert_int_equal(updates_seen, (int)k + 1);
        assert_int_equal(update_seat, raw_int(&update->msg.data, "seat"));
        assert_string_equal(update_text, raw_str(mps_get(&update->msg.data, "action"), "text"));
        unload(&f);
    }
    const bot_welcome *w = bot_welcomed(bot);
    const msgpack_object *wm = &welcome.msg.data;
    assert_string_equal(w->game, raw_str(wm, "game"));
    assert_string_equal(w->options, raw_str(wm, "options"));
    assert_int_equal(w->seat, raw_int(wm, "seat"));
    assert_int_equal(w->seats, raw_int(wm, "seats"));
    assert_int_equal(w->team, raw_int(wm, "team"));
    assert_int_equal(w->move_ms, raw_int(mps_get(wm, "time"), "move_ms"));
    assert_int_equal(w->bank_ms, raw_int(mps_get(wm, "time"), "bank_ms"));

    referee_send(&r, &error);
    referee_send(&r, &end);
    assert_int_equal(wc_bot_next(bot, &req), 0);
    const bot_result *res = bot_last_result(bot);
    const msgpack_object *em = &end.msg.data, *scores = mps_get(em, "scores");
    assert_int_equal(res->seats, scores->via.array.size);
    for (int i = 0; i < res->seats; i++)
        assert_true(res->scores[i] == raw_at(scores, (uint32_t)i)->via.f64);
    assert_string_equal(res->reason, raw_str(em, "reason"));
    assert_int_equal(res->culprit, raw_int_or_nil(em, "culprit"));
    assert_string_equal(res->detail, raw_str(em, "detail"));
    bot_close(bot);
    referee_close(&r);
    unload(&welcome);
    unload(&update_own);
    unload(&update_public);
    unload(&end);
    unload(&error);
}

/* A forfeit's end names its culprit. */
static void test_a_forfeit(void **state)
{
    fixture welcome, end;
    load(&welcome, "welcome-4p");
    load(&end, "end-forfeit");
    referee r;
    referee_open(&r);
    bot_conn *bot = bot_connect("c-sdk-test", "7.5");
    assert_non_null(bot);
    referee_hello(&r);
    referee_send(&r, &welcome);
    referee_send(&r, &end);
    static wc_request req;
    assert_int_equal(wc_bot_next(bot, &req), 0);
    const bot_result *res = bot_last_result(bot);
    assert_int_equal(res->culprit, raw_int(&end.msg.data, "culprit"));
    assert_string_equal(res->reason, raw_str(&end.msg.data, "reason"));
    assert_string_equal(res->detail, raw_str(&end.msg.data, "detail"));
    bot_close(bot);
    referee_close(&r);
    unload(&welcome);
    unload(&end);
}

/* bot_seed: the referee's value, the documented fallback when unset, and
 * a refusal (seed untouched) for anything not a whole number in range. */
static void test_bot_seed(void **state)
{
    (void)state;
    uint32_t seed = 0;
    assert_int_equal(unsetenv("ARENA_BOT_SEED"), 0);
    assert_int_equal(bot_seed(&seed), 0);
    assert_int_equal(seed, 1);
    const char *good[] = {"2147483647", "0", "4294967295", "42"};
    const uint32_t want[] = {2147483647u, 0, 4294967295u, 42};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        assert_int_equal(setenv("ARENA_BOT_SEED", good[i], 1), 0);
        assert_int_equal(bot_seed(&seed), 0);
        assert_int_equal(seed, want[i]);
    }
    const char *bad[] = {"", "x", "-1", "+3", " 7", "7 ", "4294967296", "99999999999999999999999",
                         "0x10", "1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(setenv("ARENA_BOT_SEED", bad[i], 1), 0);
        seed = 77;
        assert_int_equal(bot_seed(&seed), -1);
        assert_int_equal(seed, 77);
    }
    assert_int_equal(unsetenv("ARENA_BOT_SEED"), 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_c_sdk FIXTURES_DIR\n");
        return 2;
    }
    fixtures_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_match_of_fixtures),
        cmocka_unit_test(test_a_forfeit),
        cmocka_unit_test(test_bot_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
