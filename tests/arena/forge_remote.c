/*
 * forge_remote.c - a remote bot's side that sends for a session not its
 * own: attached to its participant's own bot (credentials, NAME), it sends
 * a data frame (a hello) for SESSION (hex: another bot's match, read from
 * the gateway's log) and prints what the gateway answers. Exit 0 when the
 * gateway refused it, 1 when it did not answer so, 2 on bad usage.
 *
 * usage: forge_remote CREDENTIALS NAME SESSION
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "clk.h"
#include "gw.h"

/* The next message of `type` within 10 s: 1, else 0. */
static int await(void *sock, const char *type, gw_rmsg *m)
{
    int64_t deadline = clk_mono_ms() + 10000;
    while (clk_mono_ms() < deadline) {
        zmq_pollitem_t item = { .socket = sock, .events = ZMQ_POLLIN };
        if (zmq_poll(&item, 1, 200) <= 0)
            continue;
        zmq_msg_t f;
        char why[256];
        int got = gw_rmsg_recv(sock, m, &f, why, sizeof why);
        zmq_msg_close(&f);
        if (got > 0 && !strcmp(m->type, type))
            return 1;
        if (got > 0 && !strcmp(m->type, "refused"))
            return 0;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: forge_remote CREDENTIALS NAME SESSION\n");
        return 2;
    }
    gw_cred cred;
    char err[512];
    if (gw_cred_read(argv[1], &cred, err, sizeof err) < 0) {
        fprintf(stderr, "forge_remote: %s\n", err);
        return 2;
    }
    void *ctx = zmq_ctx_new(), *mon = NULL;
    void *sock = gw_link_open(ctx, cred.endpoint, cred.server_public, cred.secret, &mon, err,
                              sizeof err);
    int rc = 1;
    gw_rmsg m = { .type = "attach" };
    snprintf(m.bot, sizeof m.bot, "%s", argv[2]);
    if (sock && gw_rmsg_send(sock, &m, NULL, 0) == 0 && await(sock, "attached", &m)) {
        static const char hello[] = "\x82\xa4type\xa5hello\xa5token\xa1x";
        gw_rmsg forged = { .type = "data", .session = strtoull(argv[3], NULL, 16) };
        gw_rmsg_send(sock, &forged, hello, sizeof hello - 1);
        if (await(sock, "error", &m)) {
            printf("%s\n", m.message);
            rc = 0;
        }
    } else {
        fprintf(stderr, "forge_remote: not attached: %s\n", sock ? m.message : err);
    }
    gw_link_close(sock, mon);
    zmq_ctx_term(ctx);
    return rc;
}
