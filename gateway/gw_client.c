/*
 * gw_client.c - `arena submit`'s side of the gateway (gw.h): a DEALER
 * socket with CURVE (the participant's key, the arena's public key from
 * the credentials), one request, its reply. A socket monitor tells a
 * refused key (the gateway's ZAP answer) from a gateway that is not
 * there, so either is said plainly instead of waiting out the timeout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "clk.h"
#include "gw.h"
#include "txt.h"

int gw_monitor_event(void *mon)
{
    zmq_msg_t m;
    zmq_msg_init(&m);
    if (zmq_msg_recv(&m, mon, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&m);
        return 0;
    }
    uint16_t event = 0;
    if (zmq_msg_size(&m) >= 2)
        memcpy(&event, zmq_msg_data(&m), 2);
    int more = zmq_msg_more(&m);
    zmq_msg_close(&m);
    if (more) {                               /* the endpoint's frame */
        zmq_msg_init(&m);
        zmq_msg_recv(&m, mon, 0);
        zmq_msg_close(&m);
    }
    if (event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH || event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL)
        return 1;
    return event == ZMQ_EVENT_DISCONNECTED ? 2 : event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED ? 3 : 0;
}

int gw_call(const gw_cred *c, const gw_request *r, int timeout_ms, gw_reply *out, char *err,
            size_t size)
{
    void *head;
    size_t head_len;
    if (size)
        err[0] = 0;
    if (gw_request_write(r, &head, &head_len) < 0) {
        txt_set(err, size, "out of memory");
        return -1;
    }
    void *ctx = zmq_ctx_new(), *mon = NULL;
    int rc = -1;
    void *sock = gw_link_open(ctx, c->endpoint, c->server_public, c->secret, &mon, err, size);
    if (!sock)
        goto out;
    int sent = r->op == GW_SUBMIT
                   ? zmq_send(sock, head, head_len, ZMQ_SNDMORE) >= 0 &&
                         zmq_send(sock, r->archive, r->archive_len, 0) >= 0
                   : zmq_send(sock, head, head_len, 0) >= 0;
    if (!sent) {
        txt_set(err, size, "cannot send: %s", zmq_strerror(errno));
        goto out;
    }
    int64_t deadline = clk_mono_ms() + timeout_ms;
    int admitted = 0;
    while (rc < 0) {
        int64_t left = deadline - clk_mono_ms();
        if (left <= 0) {
            txt_set(err, size, "no answer from the gateway at %s in %d s", c->endpoint,
                    timeout_ms / 1000);
            break;
        }
        zmq_pollitem_t items[] = { { .socket = sock, .events = ZMQ_POLLIN },
                                   { .socket = mon, .events = ZMQ_POLLIN } };
        if (zmq_poll(items, 2, left < 500 ? left : 500) < 0 && errno != EINTR)
            break;
        if (items[1].revents & ZMQ_POLLIN) {
            int ev = gw_monitor_event(mon);
            admitted |= ev == 3;
            if (ev == 1 || (ev == 2 && !admitted)) {   /* a wrong server key: no handshake */
                txt_set(err, size, "the gateway at %s refused these credentials (not a "
                        "participant's key, or not this arena's)", c->endpoint);
                break;
            }
            if (ev == 2) {           /* what was sent is lost with the connection */
                txt_set(err, size, "the gateway at %s closed the connection: the submission "
                        "may be over its size limit (ask the organizer), or it restarted",
                        c->endpoint);
                break;
            }
        }
        if (!(items[0].revents & ZMQ_POLLIN))
            continue;
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) >= 0 &&
            gw_reply_read(zmq_msg_data(&m), zmq_msg_size(&m), out, err, size) == 0)
            rc = 0;
        else if (!err[0])
            txt_set(err, size, "an unreadable reply");
        zmq_msg_close(&m);
        if (rc < 0)
            break;
    }
out:
    free(head);
    gw_link_close(sock, mon);
    zmq_ctx_term(ctx);
    return rc;
}

void *gw_link_open(void *ctx, const char *endpoint, const zauth_key server_public,
                   const zauth_key secret, void **mon, char *err, size_t size)
{
    static int links;                 /* each its own monitor's name */
    char name[64];
    snprintf(name, sizeof name, "inproc://gw-link-monitor-%d", links++);
    void *sock = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 2000;
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_socket_monitor(sock, name,
                       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                           ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED);
    *mon = zmq_socket(ctx, ZMQ_PAIR);
    zmq_connect(*mon, name);
    if (zauth_client(sock, server_public, secret, err, size) < 0) {
        gw_link_close(sock, *mon);
        return NULL;
    }
    if (zmq_connect(sock, endpoint) < 0) {
        txt_set(err, size, "cannot reach %s: %s", endpoint, zmq_strerror(errno));
        gw_link_close(sock, *mon);
        return NULL;
    }
    return sock;
}

void gw_link_close(void *sock, void *mon)
{
    if (sock)
        zmq_socket_monitor(sock, NULL, 0);
    if (mon)
        zmq_close(mon);
    if (sock)
        zmq_close(sock);
}
