/*
 * test_web_gate.c - the bound on connections per client address
 * (web/web_gate.c): sockets it knew stay, new ones are admitted while
 * their address holds fewer than the bound and shut past it, an IPv6
 * address counts by its /64, and a descriptor reused by another peer is a
 * new socket. The server's side of it (listing the sockets, shutting them)
 * is tests/web/test_web_idle.mjs.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "web_internal.h"

static web_gate_sock v4(int fd, int a, int port)
{
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    sa.sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)a);
    web_gate_sock s;
    web_gate_sock_of(&s, fd, (const struct sockaddr *)&sa);
    return s;
}

static web_gate_sock v6(int fd, const char *addr, int port)
{
    struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
    assert_int_equal(inet_pton(AF_INET6, addr, &sa.sin6_addr), 1);
    web_gate_sock s;
    web_gate_sock_of(&s, fd, (const struct sockaddr *)&sa);
    return s;
}

/* The descriptors shut by a scan of s. */
static int shut_count(web_gate *g, web_gate_sock *s, int n, int *shut_fds)
{
    assert_int_equal(web_gate_scan(g, s, n), 0);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (s[i].shut)
            shut_fds[k++] = s[i].fd;
    return k;
}

static void test_bound_per_address(void **state)
{
    web_gate *g = web_gate_new(3);
    web_gate_sock s[8];
    int shut[8];
    /* address .2 opens 2, then 3 more: the first 3 stay, 2 are shut */
    s[0] = v4(10, 2, 5000), s[1] = v4(11, 2, 5001);
    assert_int_equal(shut_count(g, s, 2, shut), 0);
    s[0] = v4(10, 2, 5000), s[1] = v4(11, 2, 5001), s[2] = v4(12, 2, 5002);
    s[3] = v4(13, 2, 5003), s[4] = v4(14, 2, 5004);
    /* another address alongside is not counted with it */
    s[5] = v4(15, 3, 6000), s[6] = v4(16, 3, 6001), s[7] = v4(17, 3, 6002);
    assert_int_equal(shut_count(g, s, 8, shut), 2);
    assert_int_equal(shut[0], 13);
    assert_int_equal(shut[1], 14);
    /* the shut ones still listed (civetweb has not closed them yet) are
     * not admitted later, and the known ones are never shut */
    s[0] = v4(13, 2, 5003), s[1] = v4(10, 2, 5000), s[2] = v4(11, 2, 5001), s[3] = v4(12, 2, 5002);
    assert_int_equal(shut_count(g, s, 4, shut), 1);
    assert_int_equal(shut[0], 13);
    /* one closes: a new one fits again */
    s[0] = v4(10, 2, 5000), s[1] = v4(11, 2, 5001), s[2] = v4(18, 2, 5005);
    assert_int_equal(shut_count(g, s, 3, shut), 0);
    web_gate_free(g);
}

static void test_reused_descriptor(void **state)
{
    web_gate *g = web_gate_new(1);
    web_gate_sock s[2];
    int shut[2];
    s[0] = v4(10, 2, 5000);
    assert_int_equal(shut_count(g, s, 1, shut), 0);
    /* descriptor 10 closed and reused by another client's connection, with
     * a new one of that client beside it: the reused one is new too, so one
     * of the two is shut, not both admitted */
    s[0] = v4(10, 4, 7000), s[1] = v4(11, 4, 7001);
    assert_int_equal(shut_count(g, s, 2, shut), 1);
    web_gate_free(g);
}

static void test_ipv6_by_prefix(void **state)
{
    web_gate *g = web_gate_new(2);
    /* three hosts of one /64: one too many; another /64 apart; a v4-mapped
     * address counts with its IPv4 one */
    web_gate_sock s[6] = { v6(20, "2001:db8:1:2::1", 100), v6(21, "2001:db8:1:2::ff:2", 101),
                           v6(22, "2001:db8:1:2:abcd::3", 102), v6(23, "2001:db8:1:3::1", 103),
                           v6(24, "::ffff:127.0.0.9", 104), v4(25, 9, 105) };
    int shut[6];
    assert_int_equal(shut_count(g, s, 6, shut), 1);
    assert_int_equal(shut[0], 22);
    assert_int_equal(s[0].port + s[1].port + s[2].port + s[3].port + s[4].port + s[5].port, 615);
    web_gate_sock m = v6(1, "::ffff:127.0.0.9", 1), p = v4(1, 9, 1);
    assert_memory_equal(m.key, p.key, sizeof m.key);
    web_gate_free(g);
}

static void test_no_bound(void **state)
{
    web_gate *g = web_gate_new(0);
    web_gate_sock s[64];
    int shut[64];
    for (int i = 0; i < 64; i++)
        s[i] = v4(100 + i, 2, 9000 + i);
    assert_int_equal(shut_count(g, s, 64, shut), 0);
    web_gate_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_per_address),
        cmocka_unit_test(test_reused_descriptor),
        cmocka_unit_test(test_ipv6_by_prefix),
        cmocka_unit_test(test_no_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
