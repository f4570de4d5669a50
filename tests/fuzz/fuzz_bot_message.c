/*
 * fuzz_bot_message.c - the referee reading what a bot sends: its hello
 * and its actions (referee/ref_reply.c), after mps has checked the bytes.
 *
 * The input is one message, judged both as a hello (for a fixed token)
 * and as the answer to a request offering the legal actions of a War
 * Chest opening and of a Goofspiel one. Oracle: a hello is good only with
 * the exact token and protocol 1, and leaves one printable word as name
 * and version; an action read is one of those offered, by index or by its
 * exact notation; every verdict says why, and never crashes or leaks.
 */
#include <string.h>
#include "fuzz.h"
#include "mps.h"
#include "ref_reply.h"

static const char token[] = "0123456789abcdef0123456789abcdef";

static void printable_word(const char *w)
{
    for (; *w; w++)
        FUZZ_CHECK(*w > ' ' && *w <= '~');
}

static void as_hello(const msgpack_object *m)
{
    char name[64], version[64], why[128] = "", got[64];
    int64_t protocol;
    const char *bad = ref_hello_read(m, token, name, sizeof name, version, sizeof version, why,
                                     sizeof why);
    if (bad) {
        FUZZ_CHECK(why[0]);
        return;
    }
    FUZZ_CHECK(mps_get_str(m, "token", got, sizeof got) == 0 && !strcmp(got, token));
    FUZZ_CHECK(mps_get_int(m, "protocol", &protocol) == 0 && protocol == 1);
    printable_word(name);
    printable_word(version);
}

static void as_action(const msgpack_object *m, const game_api *g)
{
    static game_action legal[GAME_MAX_ACTIONS];
    static unsigned char state[1 << 16];
    FUZZ_CHECK(g->state_size <= sizeof state);
    game_options *o = game_options_new(g);
    FUZZ_CHECK(o && g->init(state, o, 1) == NULL);
    int n = g->legal(state, legal), index = -1;
    char why[160] = "";
    int rc = ref_action_read(m, g, legal, n, &index, why, sizeof why);
    if (rc == 0) {
        FUZZ_CHECK(index >= 0 && index < n);
        const msgpack_object *text = mps_get(m, "text");
        int64_t i;
        if (mps_get_int(m, "index", &i) < 0 && text && text->type == MSGPACK_OBJECT_STR) {
            char mine[128];
            g->format(legal[index], mine, sizeof mine);
            FUZZ_CHECK(strlen(mine) == text->via.str.size &&
                       !memcmp(mine, text->via.str.ptr, text->via.str.size));
        }
    } else {
        FUZZ_CHECK(why[0]);
    }
    game_options_free(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    msgpack_unpacked u;
    if (mps_decode((const char *)data, size, &u) < 0)
        return 0;
    as_hello(&u.data);
    for (int k = 0; k < game_count(); k++)
        as_action(&u.data, game_at(k));
    msgpack_unpacked_destroy(&u);
    return 0;
}
