/*
 * ref_bench_bot.c - `bench-bot`: the leanest legal bot, for `referee bench`.
 *
 * It decodes every message with common/mps.c, exactly as the raw
 * ping-pong peer does, and answers each request with its first action,
 * without building an observation. A match between two of these measures
 * what the referee itself costs per decision; a match of SDK bots adds
 * what the SDK's decoding costs the bot.
 */
#include <stdlib.h>
#include <string.h>
#include <zmq.h>
#include "mps.h"
#include "mpw.h"

int main(void)
{
    const char *endpoint = getenv("ARENA_ENDPOINT"), *token = getenv("ARENA_TOKEN");
    if (!endpoint || !token)
        return 2;
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_DEALER);
    zmq_connect(sock, endpoint);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 5);
    mpw_str(&pk, "type");     mpw_str(&pk, "hello");
    mpw_str(&pk, "protocol"); msgpack_pack_int(&pk, 1);
    mpw_str(&pk, "token");    mpw_str(&pk, token);
    mpw_str(&pk, "name");     mpw_str(&pk, "bench-bot");
    mpw_str(&pk, "version");  mpw_str(&pk, "1");
    zmq_send(sock, sb.data, sb.size, 0);
    for (;;) {
        zmq_msg_t m;
        msgpack_unpacked u;
        char type[16] = "";
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) < 0 || mps_decode(zmq_msg_data(&m), zmq_msg_size(&m), &u))
            break;
        zmq_msg_close(&m);
        mps_get_str(&u.data, "type", type, sizeof type);
        int64_t id = 0;
        mps_get_int(&u.data, "id", &id);
        msgpack_unpacked_destroy(&u);
        if (!strcmp(type, "end"))
            break;
        if (strcmp(type, "request"))
            continue;
        sb.size = 0;
        msgpack_pack_map(&pk, 3);
        mpw_str(&pk, "type");  mpw_str(&pk, "action");
        mpw_str(&pk, "id");    msgpack_pack_int64(&pk, id);
        mpw_str(&pk, "index"); msgpack_pack_int(&pk, 0);
        zmq_send(sock, sb.data, sb.size, 0);
    }
    msgpack_sbuffer_destroy(&sb);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    return 0;
}
