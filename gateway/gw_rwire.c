/*
 * gw_rwire.c - a remote bot's messages through the gateway (gw.h): one
 * msgpack map each, every field written, read as untrusted (common/mps.h)
 * with each field checked for its type, size and characters; a data
 * message's second frame is the bot's or the referee's message, passed as
 * it is (the referee judges it).
 */
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "gw.h"
#include "mps.h"
#include "mpw.h"
#include "txt.h"

static const char *const types[] = { "attach", "attached", "refused", "ping",  "pong",
                                     "start",  "data",     "close",   "error", "open",
                                     "opened", "absent",   "detached", NULL };

int gw_rmsg_write(const gw_rmsg *m, void **buf, size_t *len)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    mpw_begin(&sb, &pk);
    mpw_message(&pk, m->type, 11);
    mpw_str(&pk, "protocol");
    msgpack_pack_int(&pk, GW_PROTOCOL);
    mpw_str(&pk, "session");
    msgpack_pack_uint64(&pk, m->session);
    mpw_str(&pk, "bot");
    mpw_str(&pk, m->bot);
    mpw_str(&pk, "bot_id");
    msgpack_pack_int64(&pk, m->bot_id);
    mpw_str(&pk, "t");
    msgpack_pack_int64(&pk, m->t);
    mpw_str(&pk, "seat");
    msgpack_pack_int64(&pk, m->seat);
    mpw_str(&pk, "seed");
    msgpack_pack_uint64(&pk, m->seed);
    mpw_str(&pk, "token");
    mpw_str(&pk, m->token);
    mpw_str(&pk, "message");
    mpw_str(&pk, m->message);
    mpw_str(&pk, "ended");
    msgpack_pack_int64(&pk, m->ended);
    mpw_str(&pk, "status");
    msgpack_pack_int64(&pk, m->status);
    *buf = sb.data;
    *len = sb.size;
    return sb.data ? 0 : -1;
}

/* An optional text: absent "", else a string that fits and is printable. */
static int text(const msgpack_object *map, const char *key, char *buf, size_t size)
{
    const msgpack_object *o = mps_get(map, key);
    buf[0] = 0;
    if (!o)
        return 0;
    if (o->type != MSGPACK_OBJECT_STR || o->via.str.size >= size ||
        (o->via.str.size && !txt_utf8_text(o->via.str.ptr, o->via.str.size)))
        return -1;
    memcpy(buf, o->via.str.ptr, o->via.str.size);
    buf[o->via.str.size] = 0;
    return strlen(buf) == o->via.str.size ? 0 : -1;
}

/* An optional integer: absent 0. */
static int number(const msgpack_object *map, const char *key, int64_t *v)
{
    *v = 0;
    return mps_get(map, key) ? mps_get_int(map, key, v) : 0;
}

static int unsigned_number(const msgpack_object *map, const char *key, uint64_t *v)
{
    *v = 0;
    return mps_get(map, key) ? mps_get_u64(map, key, v) : 0;
}

int gw_rmsg_read(const void *data, size_t len, gw_rmsg *m, char *why, size_t size)
{
    memset(m, 0, sizeof *m);
    msgpack_unpacked u;
    if (mps_decode(data, len, &u) < 0) {
        txt_set(why, size, "not a msgpack message");
        return -1;
    }
    const msgpack_object *map = &u.data;
    int64_t protocol = 0;
    int known = 0, rc = -1;
    if (map->type == MSGPACK_OBJECT_MAP && mps_get_str(map, "type", m->type, sizeof m->type) == 0)
        for (int i = 0; types[i]; i++)
            known |= !strcmp(types[i], m->type);
    if (!known)
        txt_set(why, size, "not a remote bot's message");
    else if (mps_get_int(map, "protocol", &protocol) < 0 || protocol != GW_PROTOCOL)
        txt_set(why, size, "protocol %lld, where this gateway speaks %d: update the arena "
                "program", (long long)protocol, GW_PROTOCOL);
    else if (unsigned_number(map, "session", &m->session) < 0 ||
             number(map, "bot_id", &m->bot_id) < 0 || number(map, "t", &m->t) < 0 ||
             number(map, "seat", &m->seat) < 0 || unsigned_number(map, "seed", &m->seed) < 0 ||
             number(map, "ended", &m->ended) < 0 || number(map, "status", &m->status) < 0 ||
             text(map, "bot", m->bot, sizeof m->bot) < 0 ||
             text(map, "token", m->token, sizeof m->token) < 0 ||
             text(map, "message", m->message, sizeof m->message) < 0)
        txt_set(why, size, "a %s message with a bad field", m->type);
    else if (m->seat < 0 || m->seat >= 64)
        txt_set(why, size, "a seat out of range");
    else if (m->ended < 0 || m->ended > 2 || m->status < 0 || m->status > 255)
        txt_set(why, size, "an end out of range");
    else
        rc = 0;
    msgpack_unpacked_destroy(&u);
    return rc;
}

int gw_rmsg_send(void *sock, const gw_rmsg *m, const void *frame, size_t frame_len)
{
    void *buf;
    size_t len;
    if (gw_rmsg_write(m, &buf, &len) < 0)
        return -1;
    int rc = zmq_send(sock, buf, len, ZMQ_DONTWAIT | (frame ? ZMQ_SNDMORE : 0)) < 0 ? -1 : 0;
    if (rc == 0 && frame)
        rc = zmq_send(sock, frame, frame_len, ZMQ_DONTWAIT) < 0 ? -1 : 0;
    free(buf);
    return rc;
}

int gw_rmsg_recv(void *sock, gw_rmsg *m, void *frame, char *why, size_t size)
{
    zmq_msg_t head, *f = frame;
    zmq_msg_init(&head);
    zmq_msg_init(f);
    if (zmq_msg_recv(&head, sock, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&head);
        return 0;
    }
    int more = zmq_msg_more(&head), n = 1;
    while (more) {                        /* the frame, then any more dropped */
        zmq_msg_t extra, *into = f;
        if (n > 1) {
            zmq_msg_init(&extra);
            into = &extra;
        }
        if (zmq_msg_recv(into, sock, 0) < 0)
            break;
        more = zmq_msg_more(into);
        if (n > 1)
            zmq_msg_close(into);
        n++;
    }
    int rc = gw_rmsg_read(zmq_msg_data(&head), zmq_msg_size(&head), m, why, size) == 0 ? 1 : -1;
    zmq_msg_close(&head);
    return rc;
}
