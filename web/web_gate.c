/*
 * web_gate.c - how many connections each client address holds, so that one
 * address cannot take every worker thread of `arena serve` (civetweb gives
 * each open connection a thread until it closes). Pure: the caller lists
 * the server's open sockets (web_server.c); the gate says which to shut.
 *
 * civetweb 1.15 tells nothing of a connection before its request head has
 * come (mg_get_request_info is NULL in init_connection), so the gate works
 * on the sockets themselves: each time a connection opens, the server
 * lists them all, and the gate compares the list with the one it admitted
 * before. Sockets it knew stay; new ones are admitted while their address
 * holds fewer than per_address, and the rest are shut. A socket is known
 * by its descriptor and its peer both, so a descriptor reused by another
 * connection is a new socket.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include "web_internal.h"

struct web_gate {
    int per_address;
    int n, cap;
    web_gate_sock *admitted;  /* sorted by descriptor */
};

web_gate *web_gate_new(int per_address)
{
    web_gate *g = calloc(1, sizeof *g);
    if (g)
        g->per_address = per_address;
    return g;
}

void web_gate_free(web_gate *g)
{
    if (g)
        free(g->admitted);
    free(g);
}

void web_gate_sock_of(web_gate_sock *s, int fd, const struct sockaddr *peer)
{
    static const unsigned char v4_mapped[12] = { [10] = 0xff, [11] = 0xff };
    const struct sockaddr_in *p4 = (const void *)peer;
    const struct sockaddr_in6 *p6 = (const void *)peer;
    int v6 = peer->sa_family == AF_INET6;
    const unsigned char *a6 = v6 ? p6->sin6_addr.s6_addr : NULL;
    memset(s, 0, sizeof *s);
    s->fd = fd;
    s->port = ntohs(v6 ? p6->sin6_port : p4->sin_port);
    if (!v6 || !memcmp(a6, v4_mapped, sizeof v4_mapped)) {
        s->key[0] = 4;
        memcpy(s->key + 1, v6 ? a6 + 12 : (const unsigned char *)&p4->sin_addr, 4);
    } else {
        s->key[0] = 6;
        memcpy(s->key + 1, a6, 8);           /* its /64 */
    }
}

static int by_fd(const void *a, const void *b)
{
    const web_gate_sock *x = a, *y = b;
    return (x->fd > y->fd) - (x->fd < y->fd);
}

/* By address, known ones first, then by descriptor. */
static int by_address(const void *a, const void *b)
{
    const web_gate_sock *x = a, *y = b;
    int c = memcmp(x->key, y->key, sizeof x->key);
    if (c)
        return c;
    if (x->known != y->known)
        return y->known - x->known;
    return (x->fd > y->fd) - (x->fd < y->fd);
}

static int same(const web_gate_sock *a, const web_gate_sock *b)
{
    return a->fd == b->fd && a->port == b->port && !memcmp(a->key, b->key, sizeof a->key);
}

int web_gate_scan(web_gate *g, web_gate_sock *s, int n)
{
    if (n > g->cap) {
        web_gate_sock *grown = realloc(g->admitted, (size_t)n * sizeof *grown);
        if (!grown)
            return -1;
        g->admitted = grown;
        g->cap = n;
    }
    for (int i = 0; i < n; i++) {
        const web_gate_sock *hit = g->n ? bsearch(&s[i], g->admitted, (size_t)g->n,
                                                  sizeof *hit, by_fd) : NULL;
        s[i].known = hit && same(hit, &s[i]);
    }
    qsort(s, (size_t)n, sizeof *s, by_address);
    int run = 0;
    g->n = 0;
    for (int i = 0; i < n; i++) {
        run = i > 0 && !memcmp(s[i].key, s[i - 1].key, sizeof s[i].key) ? run + 1 : 0;
        s[i].shut = !s[i].known && g->per_address > 0 && run >= g->per_address;
        if (!s[i].shut)
            g->admitted[g->n++] = s[i];
    }
    qsort(g->admitted, (size_t)g->n, sizeof *g->admitted, by_fd);
    return 0;
}
