/*
 * bot.c - the C SDK's transport (bot.h): hello, welcome, requests, answers,
 * updates and the end, for any game. Messages are decoded with common/mps
 * (every count checked against the bytes before anything is allocated) and
 * written with common/mpw.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>
#include "bot.h"
#include "kv.h"
#include "mps.h"
#include "mpw.h"

struct bot_conn {
    void *ctx, *sock;
    int seat;
    bot_welcome welcome;
    bot_result result;
    char decision[32];             /* the request's */
    void (*on_update)(void *, int, const msgpack_object *);
    void *user;
    msgpack_sbuffer out;           /* the message being sent */
    msgpack_unpacked msg;          /* the request being answered */
    int have_msg;
    msgpack_sbuffer raw;           /* the request's observation and actions, repacked */
    bot_action *actions;
    char *texts;                   /* the actions' notations, NUL-separated */
    size_t actions_cap, texts_cap;
};

static int send_out(bot_conn *b)
{
    return zmq_send(b->sock, b->out.data, b->out.size, 0) < 0 ? -1 : 0;
}

/* Receives one message into b->msg. 0 or -1. */
static int receive(bot_conn *b)
{
    if (b->have_msg)
        msgpack_unpacked_destroy(&b->msg);
    b->have_msg = 0;
    zmq_msg_t m;
    zmq_msg_init(&m);
    if (zmq_msg_recv(&m, b->sock, 0) < 0) {
        zmq_msg_close(&m);
        return -1;
    }
    int rc = mps_decode(zmq_msg_data(&m), zmq_msg_size(&m), &b->msg);
    zmq_msg_close(&m);
    b->have_msg = rc == 0;
    return rc;
}

bot_conn *bot_connect(const char *name, const char *version)
{
    const char *endpoint = getenv("ARENA_ENDPOINT"), *token = getenv("ARENA_TOKEN");
    if (!endpoint || !token) {
        fprintf(stderr, "bot: ARENA_ENDPOINT and ARENA_TOKEN are not set; "
                        "run this bot from the referee\n");
        return NULL;
    }
    bot_conn *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    int linger = 0;
    b->seat = -1;
    b->result.culprit = -1;
    msgpack_sbuffer_init(&b->out);
    msgpack_sbuffer_init(&b->raw);
    b->ctx = zmq_ctx_new();
    b->sock = zmq_socket(b->ctx, ZMQ_DEALER);
    zmq_setsockopt(b->sock, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_connect(b->sock, endpoint) < 0) {
        fprintf(stderr, "bot: cannot connect to %s: %s\n", endpoint, zmq_strerror(errno));
        bot_close(b);
        return NULL;
    }
    msgpack_packer pk;
    mpw_begin(&b->out, &pk);
    mpw_message(&pk, "hello", 4);
    mpw_str(&pk, "protocol"); msgpack_pack_int(&pk, BOT_PROTOCOL);
    mpw_str(&pk, "token");    mpw_str(&pk, token);
    mpw_str(&pk, "name");     mpw_str(&pk, name);
    mpw_str(&pk, "version");  mpw_str(&pk, version);
    if (send_out(b) < 0) {
        bot_close(b);
        return NULL;
    }
    return b;
}

static void take_welcome(bot_conn *b, const msgpack_object *m)
{
    bot_welcome *w = &b->welcome;
    int64_t v;
    mps_get_str(m, "game", w->game, sizeof w->game);
    mps_get_str(m, "options", w->options, sizeof w->options);
    w->seat = mps_get_int(m, "seat", &v) == 0 && v >= 0 && v < BOT_MAX_SEATS ? (int)v : -1;
    w->seats = mps_get_int(m, "seats", &v) == 0 && v > 0 && v <= BOT_MAX_SEATS ? (int)v : 0;
    w->team = mps_get_int(m, "team", &v) == 0 ? (int)v : -1;
    mps_get_int(mps_get(m, "time"), "move_ms", &w->move_ms);
    mps_get_int(mps_get(m, "time"), "bank_ms", &w->bank_ms);
    b->seat = w->seat;
}

static void take_end(bot_conn *b, const msgpack_object *m)
{
    bot_result *r = &b->result;
    const msgpack_object *scores = mps_get(m, "scores");
    if (scores && scores->type == MSGPACK_OBJECT_ARRAY && scores->via.array.size <= BOT_MAX_SEATS) {
        r->seats = (int)scores->via.array.size;
        for (int i = 0; i < r->seats; i++) {
            const msgpack_object *s = &scores->via.array.ptr[i];
            r->scores[i] = s->type == MSGPACK_OBJECT_FLOAT64 || s->type == MSGPACK_OBJECT_FLOAT32
                               ? s->via.f64
                               : s->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? (double)s->via.u64
                                                                            : 0;
        }
    }
    mps_get_str(m, "reason", r->reason, sizeof r->reason);
    mps_get_str(m, "detail", r->detail, sizeof r->detail);
    int64_t c;
    r->culprit = mps_get_int(m, "culprit", &c) == 0 ? (int)c : -1;
}

/* Makes room for n actions whose notations take `text` bytes. 0 or -1. */
static int reserve(bot_conn *b, size_t n, size_t text)
{
    if (n > b->actions_cap) {
        bot_action *a = realloc(b->actions, n * sizeof *a);
        if (!a)
            return -1;
        b->actions = a;
        b->actions_cap = n;
    }
    if (text > b->texts_cap) {
        char *t = realloc(b->texts, text);
        if (!t)
            return -1;
        b->texts = t;
        b->texts_cap = text;
    }
    return 0;
}

/* The request in b->msg into *req: 1, or -1 if it cannot be answered. */
static int take_request(bot_conn *b, bot_request *req)
{
    const msgpack_object *m = &b->msg.data, *acts = mps_get(m, "actions");
    const msgpack_object *obs = mps_get(m, "observation");
    int64_t id;
    if (mps_get_int(m, "id", &id) < 0 || id < 0 || id > UINT32_MAX || !obs || !acts ||
        acts->type != MSGPACK_OBJECT_ARRAY || acts->via.array.size == 0)
        return -1;
    size_t n = acts->via.array.size, text = 0;
    for (size_t i = 0; i < n; i++) {
        const msgpack_object *t = mps_get(&acts->via.array.ptr[i], "text");
        if (!t || t->type != MSGPACK_OBJECT_STR || memchr(t->via.str.ptr, 0, t->via.str.size))
            return -1;
        text += t->via.str.size + 1;
    }
    if (reserve(b, n, text) < 0)
        return -1;
    msgpack_packer pk;
    mpw_begin(&b->raw, &pk);
    msgpack_pack_object(&pk, *obs);
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        const msgpack_object *a = &acts->via.array.ptr[i], *t = mps_get(a, "text");
        size_t start = b->raw.size;
        msgpack_pack_object(&pk, *a);
        b->actions[i].raw_size = b->raw.size - start;
        b->actions[i].map = a;
        memcpy(b->texts + off, t->via.str.ptr, t->via.str.size);
        b->texts[off + t->via.str.size] = 0;
        b->actions[i].text = b->texts + off;
        off += t->via.str.size + 1;
    }
    /* The raw buffer has stopped moving: point into it. */
    size_t at = b->raw.size;
    for (size_t i = n; i-- > 0;) {
        at -= b->actions[i].raw_size;
        b->actions[i].raw = b->raw.data + at;
    }
    req->id = (uint32_t)id;
    if (mps_get_str(m, "decision", b->decision, sizeof b->decision) < 0)
        b->decision[0] = 0;
    req->decision = b->decision;
    req->observation = b->raw.data;
    req->observation_size = at;
    req->observation_map = obs;
    req->nactions = (int)n;
    req->actions = b->actions;
    req->move_ms = req->bank_ms = 0;
    mps_get_int(mps_get(m, "time"), "move_ms", &req->move_ms);
    mps_get_int(mps_get(m, "time"), "bank_ms", &req->bank_ms);
    return 1;
}

int bot_next(bot_conn *b, bot_request *req)
{
    for (;;) {
        char type[16] = "?";
        if (receive(b) < 0) {
            fprintf(stderr, "bot: lost the connection to the referee\n");
            return -1;
        }
        const msgpack_object *m = &b->msg.data;
        int rc = 2;                       /* 2: keep reading */
        int64_t seat;
        if (mps_get_str(m, "type", type, sizeof type) < 0) {
            rc = -1;
        } else if (!strcmp(type, "welcome")) {
            take_welcome(b, m);
        } else if (!strcmp(type, "update")) {
            const msgpack_object *action = mps_get(m, "action");
            if (b->on_update && mps_get_int(m, "seat", &seat) == 0 && action)
                b->on_update(b->user, (int)seat, action);
        } else if (!strcmp(type, "error")) {
            char code[32] = "?", text[256] = "";
            mps_get_str(m, "code", code, sizeof code);
            mps_get_str(m, "message", text, sizeof text);
            fprintf(stderr, "bot: the referee says %s: %s\n", code, text);
        } else if (!strcmp(type, "end")) {
            take_end(b, m);
            rc = 0;
        } else if (!strcmp(type, "request")) {
            rc = take_request(b, req);
        }
        if (rc < 0)
            fprintf(stderr, "bot: cannot understand a '%s' message from the referee\n", type);
        if (rc != 2)
            return rc;
    }
}

static int answer(bot_conn *b, const bot_request *req, int index, const char *text)
{
    msgpack_packer pk;
    mpw_begin(&b->out, &pk);
    mpw_message(&pk, "action", 2);
    mpw_str(&pk, "id");
    msgpack_pack_uint32(&pk, req->id);
    if (text) {
        mpw_str(&pk, "text");
        mpw_str(&pk, text);
    } else {
        mpw_str(&pk, "index");
        msgpack_pack_int(&pk, index);
    }
    return send_out(b);
}

int bot_answer(bot_conn *b, const bot_request *req, int index)
{
    return answer(b, req, index, NULL);
}

int bot_answer_text(bot_conn *b, const bot_request *req, const char *text)
{
    return answer(b, req, 0, text);
}

const bot_welcome *bot_welcomed(const bot_conn *b) { return &b->welcome; }
int bot_seat(const bot_conn *b) { return b->seat; }
const bot_result *bot_last_result(const bot_conn *b) { return &b->result; }

void bot_on_update(bot_conn *b, void (*fn)(void *, int, const msgpack_object *), void *user)
{
    b->on_update = fn;
    b->user = user;
}

int bot_close(bot_conn *b)
{
    if (!b)
        return 0;
    if (b->sock)
        zmq_close(b->sock);
    if (b->ctx)
        zmq_ctx_term(b->ctx);
    if (b->have_msg)
        msgpack_unpacked_destroy(&b->msg);
    msgpack_sbuffer_destroy(&b->out);
    msgpack_sbuffer_destroy(&b->raw);
    free(b->actions);
    free(b->texts);
    free(b);
    return 0;
}

int bot_seed(uint32_t *seed)
{
    const char *text = getenv("ARENA_BOT_SEED");
    uint64_t value = 1;
    if (text && (kv_u64(text, &value) < 0 || value > BOT_SEED_MAX)) {
        fprintf(stderr, "ARENA_BOT_SEED must be a whole number from 0 to %u, not '%s'\n",
                BOT_SEED_MAX, text);
        return -1;
    }
    *seed = (uint32_t)value;
    return 0;
}
