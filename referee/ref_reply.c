/*
 * ref_reply.c - a bot's hello and actions, read and judged (ref_reply.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "mps.h"
#include "ref_match.h"
#include "ref_msg.h"
#include "ref_reply.h"

/* Keeps names and versions to one printable word. */
static void clean_word(char *w)
{
    for (char *p = w; *p; p++)
        if (*p <= ' ' || *p > '~')
            *p = '_';
}

const char *ref_hello_read(const msgpack_object *hello, const char *token, char *name,
                           size_t name_size, char *version, size_t version_size, char *why,
                           size_t size)
{
    char type[16], got[64];
    int64_t protocol;
    if (mps_get_str(hello, "type", type, sizeof type) < 0 || strcmp(type, "hello")) {
        snprintf(why, size, "expected hello, got something else");
        return REF_MALFORMED;
    }
    if (mps_get_int(hello, "protocol", &protocol) < 0 || protocol != REF_PROTOCOL_VERSION) {
        snprintf(why, size, "a hello of another protocol version; this referee speaks %d",
                 REF_PROTOCOL_VERSION);
        return REF_PROTOCOL;
    }
    if (mps_get_str(hello, "token", got, sizeof got) < 0 || strcmp(got, token)) {
        snprintf(why, size, "a hello with a wrong token");
        return REF_BAD_TOKEN;
    }
    if (mps_get_str(hello, "name", name, name_size) < 0)
        name[0] = 0;
    if (mps_get_str(hello, "version", version, version_size) < 0)
        version[0] = 0;
    clean_word(name);
    clean_word(version);
    return NULL;
}

static const char *type_name(const msgpack_object *o)
{
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: return "nil";
    case MSGPACK_OBJECT_BOOLEAN: return "a boolean";
    case MSGPACK_OBJECT_FLOAT32: case MSGPACK_OBJECT_FLOAT64: return "a float";
    case MSGPACK_OBJECT_STR: return "a string";
    case MSGPACK_OBJECT_ARRAY: return "an array";
    case MSGPACK_OBJECT_MAP: return "a map";
    default: return "binary data";
    }
}

/* By text: exactly one of the offered notations. */
static int by_text(const msgpack_object *text, const game_api *g, const game_action *legal,
                   int n, int *index, char *why, size_t size)
{
    uint32_t len = text->via.str.size;
    char shown[64], mine[128];
    if (len >= sizeof mine) {
        snprintf(why, size, "its text is too long to be an action (%" PRIu32 " bytes)", len);
        return 1;
    }
    for (int k = 0; k < n; k++) {
        g->format(legal[k], mine, sizeof mine);
        if (strlen(mine) == len && !memcmp(mine, text->via.str.ptr, len)) {
            *index = k;
            return 0;
        }
    }
    /* Shown as one printable line, whatever the bot sent. */
    uint32_t cut = len < sizeof shown - 1 ? len : (uint32_t)sizeof shown - 1;
    for (uint32_t k = 0; k < cut; k++) {
        char c = text->via.str.ptr[k];
        shown[k] = c >= ' ' && c <= '~' && c != '\'' ? c : '?';
    }
    shown[cut] = 0;
    snprintf(why, size, "'%s%s' is not a legal action here", shown, len > cut ? "..." : "");
    return 1;
}

int ref_action_read(const msgpack_object *reply, const game_api *g, const game_action *legal,
                    int n, int *index, char *why, size_t size)
{
    const msgpack_object *i = mps_get(reply, "index"), *text = mps_get(reply, "text");
    if (i && i->type == MSGPACK_OBJECT_NIL)
        i = NULL;           /* nil counts as absent */
    if (text && text->type == MSGPACK_OBJECT_NIL)
        text = NULL;
    if (i && i->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        if (i->via.u64 >= (uint64_t)n) {
            snprintf(why, size, "index %" PRIu64 " is not one of the %d actions offered",
                     i->via.u64, n);
            return 1;
        }
        *index = (int)i->via.u64;
        return 0;
    }
    if (i && i->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
        snprintf(why, size, "index %" PRId64 " is not one of the %d actions offered", i->via.i64,
                 n);
        return 1;
    }
    if (i) {
        snprintf(why, size, "has an index that is %s, not an integer", type_name(i));
        return -1;
    }
    if (!text) {
        snprintf(why, size, "has neither an index nor a text");
        return -1;
    }
    if (text->type != MSGPACK_OBJECT_STR) {
        snprintf(why, size, "has a text that is %s, not a string", type_name(text));
        return -1;
    }
    return by_text(text, g, legal, n, index, why, size);
}
