/*
 * test_gw_proto.c - the gateway's requests as a stranger may send them
 * (gateway/gw_proto.c): each field of the wrong type, too long, not
 * printable, an unknown or repeated game, too many games, a name outside
 * [A-Za-z0-9_.-], another protocol, not a map, bytes after the message,
 * a count larger than the message; each refused with its reason. And a
 * request and a reply written and read back whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <msgpack.h>

#include "gw.h"

/* A submit header with one field replaced: key, and its value packed by
 * `put` (NULL: the field left out). */
typedef void put_fn(msgpack_packer *pk);

static void put_long_name(msgpack_packer *pk)
{
    char s[100];
    memset(s, 'a', sizeof s);
    msgpack_pack_str(pk, sizeof s);
    msgpack_pack_str_body(pk, s, sizeof s);
}
static void put_int(msgpack_packer *pk) { msgpack_pack_int(pk, 7); }
static void put_slash(msgpack_packer *pk)
{
    msgpack_pack_str(pk, 6);
    msgpack_pack_str_body(pk, "../bot", 6);
}
static void put_escape(msgpack_packer *pk)
{
    msgpack_pack_str(pk, 9);
    msgpack_pack_str_body(pk, "run\x1b[31m!", 9);
}
static void put_nul(msgpack_packer *pk)
{
    msgpack_pack_str(pk, 3);
    msgpack_pack_str_body(pk, "a\0b", 3);
}
static void put_games(msgpack_packer *pk, int n, const char *name)
{
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        msgpack_pack_str(pk, strlen(name));
        msgpack_pack_str_body(pk, name, strlen(name));
    }
}
static void put_nine_games(msgpack_packer *pk) { put_games(pk, 9, "warchest"); }
static void put_twice(msgpack_packer *pk) { put_games(pk, 2, "warchest"); }
static void put_unknown_game(msgpack_packer *pk) { put_games(pk, 1, "chess"); }

static void str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str(pk, strlen(s));
    msgpack_pack_str_body(pk, s, strlen(s));
}

static int read_with(const char *key, put_fn *put, char *why, size_t size)
{
    const char *keys[] = { "type", "protocol", "name", "version", "games", "cmd" };
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 6);
    for (int i = 0; i < 6; i++) {
        str(&pk, keys[i]);
        if (!strcmp(keys[i], key))
            put(&pk);
        else if (i == 0)
            str(&pk, "submit");
        else if (i == 1)
            msgpack_pack_int(&pk, GW_PROTOCOL);
        else if (i == 4)
            put_games(&pk, 1, "goofspiel");
        else
            str(&pk, i == 5 ? "python3 bot.py" : "ok");
    }
    gw_request r;
    int rc = gw_request_read(sb.data, sb.size, &r, why, size);
    msgpack_sbuffer_destroy(&sb);
    return rc;
}

static void test_fields_refused(void **state)
{
    (void)state;
    struct { const char *key; put_fn *put; const char *why; } cases[] = {
        { "name", put_long_name, "too long" },
        { "name", put_int, "no text 'name'" },
        { "name", put_slash, "1-63 characters" },
        { "version", put_escape, "not printable" },
        { "cmd", put_escape, "not printable" },
        { "cmd", put_nul, "not printable" },
        { "games", put_nine_games, "at most 8 games" },
        { "games", put_twice, "named twice" },
        { "games", put_unknown_game, "no game 'chess'" },
        { "games", put_int, "a list" },
        { "protocol", put_int, "protocol 7" },
        { "type", put_escape, "unknown request" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[256] = "";
        assert_int_equal(read_with(cases[i].key, cases[i].put, why, sizeof why), -1);
        if (!strstr(why, cases[i].why))
            fail_msg("%s: refused for '%s', not '%s'", cases[i].key, why, cases[i].why);
    }
    char why[256];
    assert_int_equal(read_with("none", NULL, why, sizeof why), 0);   /* the honest one */
}

static void test_bytes_refused(void **state)
{
    (void)state;
    char why[256];
    gw_request r;
    /* not msgpack, an array, a map claiming 2^32 - 1 entries, trailing bytes */
    const char junk[] = "hello";
    const unsigned char array[] = { 0x91, 0x01 };
    const unsigned char huge[] = { 0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 'a' };
    const unsigned char trailing[] = { 0x80, 0x00 };
    assert_int_equal(gw_request_read(junk, 5, &r, why, sizeof why), -1);
    assert_int_equal(gw_request_read(array, sizeof array, &r, why, sizeof why), -1);
    assert_int_equal(gw_request_read(huge, sizeof huge, &r, why, sizeof why), -1);
    assert_int_equal(gw_request_read(trailing, sizeof trailing, &r, why, sizeof why), -1);
    assert_int_equal(gw_request_read(NULL, 0, &r, why, sizeof why), -1);
}

static void test_round_trip(void **state)
{
    (void)state;
    gw_request r = { .op = GW_SUBMIT, .ngames = 2 }, back;
    strcpy(r.name, "mybot");
    strcpy(r.version, "2.1-rc");
    strcpy(r.games[0], "warchest");
    strcpy(r.games[1], "goofspiel");
    strcpy(r.cmd, "python3 bot.py --fast");
    void *buf;
    size_t len;
    char why[256];
    assert_int_equal(gw_request_write(&r, &buf, &len), 0);
    assert_int_equal(gw_request_read(buf, len, &back, why, sizeof why), 0);
    free(buf);
    assert_int_equal(back.op, GW_SUBMIT);
    assert_string_equal(back.name, "mybot");
    assert_string_equal(back.version, "2.1-rc");
    assert_int_equal(back.ngames, 2);
    assert_string_equal(back.games[1], "goofspiel");
    assert_string_equal(back.cmd, r.cmd);
    r.op = GW_RETIRE;
    strcpy(r.bot, "mybot@2.1-rc");
    strcpy(r.reason, "old");
    assert_int_equal(gw_request_write(&r, &buf, &len), 0);
    assert_int_equal(gw_request_read(buf, len, &back, why, sizeof why), 0);
    free(buf);
    assert_int_equal(back.op, GW_RETIRE);
    assert_string_equal(back.bot, "mybot@2.1-rc");
    strcpy(r.bot, "mybot@../x");
    assert_int_equal(gw_request_write(&r, &buf, &len), 0);
    assert_int_equal(gw_request_read(buf, len, &back, why, sizeof why), -1);
    free(buf);

    gw_reply out = { .accepted = 1, .text = "seat 0: ok\n" }, in;
    strcpy(out.message, "accepted: mybot@2.1-rc");
    memset(out.hash, 'a', 64);
    out.hash[64] = 0;
    assert_int_equal(gw_reply_write(&out, &buf, &len), 0);
    assert_int_equal(gw_reply_read(buf, len, &in, why, sizeof why), 0);
    free(buf);
    assert_true(in.accepted);
    assert_string_equal(in.message, out.message);
    assert_string_equal(in.text, out.text);
    assert_string_equal(in.hash, out.hash);
    gw_reply_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_refused),
        cmocka_unit_test(test_bytes_refused),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
