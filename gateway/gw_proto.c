/*
 * gw_proto.c - the gateway's requests and replies on the wire (gw.h),
 * msgpack maps written one way (common/mpw.h) and read as untrusted
 * (common/mps.h: every count checked against the bytes before anything is
 * unpacked), every field checked for its type, length and characters
 * before anyone uses it. Pure: no I/O.
 *
 *   submit: {type: "submit", protocol, name, version, games: [..], cmd}
 *           then a second frame: the archive's bytes
 *   remote: {type: "remote", protocol, name, version, games: [..]}: a remote
 *           bot registered, no files (it plays through `arena connect`)
 *   list:   {type: "list", protocol}
 *   disable, retire: {type, protocol, bot, reason}
 *   reply:  {type: "reply", protocol, accepted, message, text, hash}
 */
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "gw.h"
#include "mps.h"
#include "mpw.h"
#include "txt.h"

int gw_name_ok(const char *text)
{
    size_t n = strlen(text);
    if (n < 1 || n > 63)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

static int finish(msgpack_sbuffer *sb, void **buf, size_t *len)
{
    *buf = sb->data;
    *len = sb->size;
    return sb->data ? 0 : -1;
}

int gw_request_write(const gw_request *r, void **buf, size_t *len)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    mpw_begin(&sb, &pk);
    if (r->op == GW_LIST) {
        mpw_message(&pk, "list", 1);
        mpw_str(&pk, "protocol");
        msgpack_pack_int(&pk, GW_PROTOCOL);
        return finish(&sb, buf, len);
    }
    if (r->op == GW_DISABLE || r->op == GW_RETIRE) {
        mpw_message(&pk, r->op == GW_DISABLE ? "disable" : "retire", 3);
        mpw_str(&pk, "protocol");
        msgpack_pack_int(&pk, GW_PROTOCOL);
        mpw_str(&pk, "bot");
        mpw_str(&pk, r->bot);
        mpw_str(&pk, "reason");
        mpw_str(&pk, r->reason);
        return finish(&sb, buf, len);
    }
    int remote = r->op == GW_REMOTE;
    mpw_message(&pk, remote ? "remote" : "submit", remote ? 4 : 5);
    mpw_str(&pk, "protocol");
    msgpack_pack_int(&pk, GW_PROTOCOL);
    mpw_str(&pk, "name");
    mpw_str(&pk, r->name);
    mpw_str(&pk, "version");
    mpw_str(&pk, r->version);
    mpw_str(&pk, "games");
    msgpack_pack_array(&pk, (size_t)r->ngames);
    for (int i = 0; i < r->ngames; i++)
        mpw_str(&pk, r->games[i]);
    if (!remote) {
        mpw_str(&pk, "cmd");
        mpw_str(&pk, r->cmd);
    }
    return finish(&sb, buf, len);
}

int gw_reply_write(const gw_reply *r, void **buf, size_t *len)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    mpw_begin(&sb, &pk);
    mpw_message(&pk, "reply", 5);
    mpw_str(&pk, "protocol");
    msgpack_pack_int(&pk, GW_PROTOCOL);
    mpw_str(&pk, "accepted");
    mpw_bool(&pk, r->accepted);
    mpw_str(&pk, "message");
    mpw_str(&pk, r->message);
    mpw_str(&pk, "text");
    mpw_str(&pk, r->text ? r->text : "");
    mpw_str(&pk, "hash");
    mpw_str(&pk, r->hash);
    return finish(&sb, buf, len);
}

/* A string field into buf: present, a string, fitting, printable text. */
static int text_field(const msgpack_object *map, const char *key, char *buf, size_t size,
                      char *why, size_t whysize)
{
    const msgpack_object *o = mps_get(map, key);
    if (!o || o->type != MSGPACK_OBJECT_STR) {
        txt_set(why, whysize, "the request has no text '%s'", key);
        return -1;
    }
    if (o->via.str.size >= size || !txt_utf8_text(o->via.str.ptr, o->via.str.size)) {
        txt_set(why, whysize, "'%s' is too long (at most %zu bytes) or not printable text", key,
                size - 1);
        return -1;
    }
    memcpy(buf, o->via.str.ptr, o->via.str.size);
    buf[o->via.str.size] = 0;
    return 0;
}

/* The map of a message of `type` and this protocol: 0, or -1 with why. */
static int open_message(const void *data, size_t len, const char *type, msgpack_unpacked *u,
                        char *why, size_t size)
{
    if (mps_decode(data, len, u) < 0) {
        txt_set(why, size, "not a msgpack message");
        return -1;
    }
    const msgpack_object *map = &u->data;
    char got[16];
    int64_t protocol = 0;
    if (map->type != MSGPACK_OBJECT_MAP || mps_get_str(map, "type", got, sizeof got) < 0 ||
        (type && strcmp(got, type))) {
        txt_set(why, size, "not a %s message", type ? type : "gateway");
        msgpack_unpacked_destroy(u);
        return -1;
    }
    if (mps_get_int(map, "protocol", &protocol) < 0 || protocol != GW_PROTOCOL) {
        txt_set(why, size, "protocol %lld, where this gateway speaks %d: update the arena "
                           "program you submit with", (long long)protocol, GW_PROTOCOL);
        msgpack_unpacked_destroy(u);
        return -1;
    }
    return 0;
}

static int read_games(const msgpack_object *map, gw_request *r, char *why, size_t size)
{
    const msgpack_object *g = mps_get(map, "games");
    if (!g || g->type != MSGPACK_OBJECT_ARRAY || g->via.array.size > GW_MAX_GAMES) {
        txt_set(why, size, "'games' must be a list of at most %d games", GW_MAX_GAMES);
        return -1;
    }
    for (uint32_t i = 0; i < g->via.array.size; i++) {
        const msgpack_object *o = &g->via.array.ptr[i];
        char *dst = r->games[r->ngames];
        if (o->type != MSGPACK_OBJECT_STR || o->via.str.size >= sizeof r->games[0]) {
            txt_set(why, size, "a game that is not a short name");
            return -1;
        }
        memcpy(dst, o->via.str.ptr, o->via.str.size);
        dst[o->via.str.size] = 0;
        if (strlen(dst) != o->via.str.size || !game_find(dst)) {
            txt_set(why, size, "no game '%.31s' here (see referee games)",
                    txt_utf8_text(dst, strlen(dst)) ? dst : "?");
            return -1;
        }
        for (int k = 0; k < r->ngames; k++)
            if (!strcmp(r->games[k], dst)) {
                txt_set(why, size, "the game %s is named twice", dst);
                return -1;
            }
        r->ngames++;
    }
    return 0;
}

/* NAME or NAME@VERSION, each part a name. */
static int bot_ref_ok(const char *ref)
{
    char name[128];
    snprintf(name, sizeof name, "%s", ref);
    char *at = strchr(name, '@');
    if (at)
        *at = 0;
    return gw_name_ok(name) && (!at || gw_name_ok(at + 1));
}

/* disable or retire: the bot and the reason. 0, or -1 with why. */
static int read_change(const msgpack_object *map, gw_request *r, char *why, size_t size)
{
    if (text_field(map, "bot", r->bot, sizeof r->bot, why, size) < 0 ||
        text_field(map, "reason", r->reason, sizeof r->reason, why, size) < 0)
        return -1;
    if (!bot_ref_ok(r->bot)) {
        txt_set(why, size, "a bot is NAME or NAME@VERSION");
        return -1;
    }
    return 0;
}

int gw_request_read(const void *data, size_t len, gw_request *r, char *why, size_t size)
{
    memset(r, 0, sizeof *r);
    msgpack_unpacked u;
    if (open_message(data, len, NULL, &u, why, size) < 0)
        return -1;
    const msgpack_object *map = &u.data;
    char type[16];
    mps_get_str(map, "type", type, sizeof type);
    int rc = 0;
    if (!strcmp(type, "list")) {
        r->op = GW_LIST;
    } else if (!strcmp(type, "disable") || !strcmp(type, "retire")) {
        r->op = type[0] == 'd' ? GW_DISABLE : GW_RETIRE;
        rc = read_change(map, r, why, size);
    } else if (strcmp(type, "submit") && strcmp(type, "remote")) {
        txt_set(why, size, "an unknown request '%s' (submit, remote, list, disable, retire)",
                txt_utf8_text(type, strlen(type)) ? type : "?");
        rc = -1;
    } else if ((r->op = type[0] == 'r' ? GW_REMOTE : GW_SUBMIT),
               text_field(map, "name", r->name, sizeof r->name, why, size) < 0 ||
                   text_field(map, "version", r->version, sizeof r->version, why, size) < 0 ||
                   (r->op == GW_SUBMIT &&
                    text_field(map, "cmd", r->cmd, sizeof r->cmd, why, size) < 0) ||
                   read_games(map, r, why, size) < 0) {
        rc = -1;
    } else if (!gw_name_ok(r->name) || !gw_name_ok(r->version)) {
        txt_set(why, size, "a bot's name and version are 1-63 characters of letters, digits, "
                           "'_', '.', '-'");
        rc = -1;
    } else if (r->op == GW_SUBMIT && !r->cmd[0]) {
        txt_set(why, size, "no command to run the bot");
        rc = -1;
    } else if (r->op == GW_REMOTE && !r->ngames) {
        txt_set(why, size, "a remote bot names the games it plays (--game)");
        rc = -1;
    }
    msgpack_unpacked_destroy(&u);
    return rc;
}

int gw_reply_read(const void *data, size_t len, gw_reply *r, char *why, size_t size)
{
    memset(r, 0, sizeof *r);
    msgpack_unpacked u;
    if (open_message(data, len, "reply", &u, why, size) < 0)
        return -1;
    const msgpack_object *map = &u.data;
    const msgpack_object *acc = mps_get(map, "accepted"), *text = mps_get(map, "text");
    int rc = -1;
    if (acc && acc->type == MSGPACK_OBJECT_BOOLEAN && text && text->type == MSGPACK_OBJECT_STR &&
        mps_get_str(map, "message", r->message, sizeof r->message) == 0 &&
        mps_get_str(map, "hash", r->hash, sizeof r->hash) == 0 &&
        (r->text = malloc(text->via.str.size + 1))) {
        memcpy(r->text, text->via.str.ptr, text->via.str.size);
        r->text[text->via.str.size] = 0;
        r->accepted = acc->via.boolean;
        rc = 0;
    } else {
        txt_set(why, size, "a reply the arena program cannot read");
    }
    msgpack_unpacked_destroy(&u);
    return rc;
}

void gw_reply_free(gw_reply *r)
{
    free(r->text);
    r->text = NULL;
}
