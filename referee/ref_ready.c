/*
 * ref_ready.c - the worker link's `ready` message (ref_ready.h).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "game.h"
#include "mps.h"
#include "mpw.h"
#include "ref_ready.h"
#include "ref_worker.h"

static int add_game(ref_ready *h, const char *name, size_t len, char *err, size_t size)
{
    char want[32];
    snprintf(want, sizeof want, "%.*s", (int)(len < sizeof want ? len : sizeof want - 1), name);
    if (len >= sizeof want || !game_find(want)) {
        snprintf(err, size, "no game named '%.*s' here", (int)(len < 64 ? len : 64), name);
        return -1;
    }
    for (int i = 0; i < h->ngames; i++)
        if (!strcmp(h->games[i], want))
            return 0;
    if (h->ngames < REF_READY_GAMES)
        snprintf(h->games[h->ngames++], sizeof h->games[0], "%s", want);
    return 0;
}

int ref_ready_local(ref_ready *h, const char *only, char *err, size_t size)
{
    memset(h, 0, sizeof *h);
    h->protocol = REF_WORKER_PROTOCOL;
    h->pid = getpid();
    h->capacity = 1;              /* a worker plays its matches one at a time */
    if (!only) {
        for (int i = 0; i < game_count(); i++)
            if (add_game(h, game_at(i)->name, strlen(game_at(i)->name), err, size) < 0)
                return -1;
        return 0;
    }
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || add_game(h, p, len, err, size) < 0) {
            if (len == 0)
                snprintf(err, size, "an empty game name in '%s'", only);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

void ref_ready_pack(msgpack_sbuffer *sb, const ref_ready *h)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 5);
    mpw_str(&pk, "type");     mpw_str(&pk, "ready");
    mpw_str(&pk, "protocol"); msgpack_pack_int64(&pk, h->protocol);
    mpw_str(&pk, "pid");      msgpack_pack_int64(&pk, h->pid);
    mpw_str(&pk, "games");
    msgpack_pack_array(&pk, (size_t)h->ngames);
    for (int i = 0; i < h->ngames; i++)
        mpw_str(&pk, h->games[i]);
    mpw_str(&pk, "capacity"); msgpack_pack_int(&pk, h->capacity);
}

void ref_ready_read(const msgpack_object *m, ref_ready *h)
{
    memset(h, 0, sizeof *h);
    h->protocol = -1;
    h->capacity = 1;
    mps_get_int(m, "protocol", &h->protocol);
    mps_get_int(m, "pid", &h->pid);
    int64_t capacity;
    if (mps_get_int(m, "capacity", &capacity) == 0 && capacity >= 1 && capacity <= 1024)
        h->capacity = (int)capacity;
    const msgpack_object *a = mps_get(m, "games");
    if (!a || a->type != MSGPACK_OBJECT_ARRAY)
        return;
    for (uint32_t i = 0; i < a->via.array.size && h->ngames < REF_READY_GAMES; i++) {
        const msgpack_object *g = &a->via.array.ptr[i];
        if (g->type == MSGPACK_OBJECT_STR && g->via.str.size > 0 &&
            g->via.str.size < sizeof h->games[0]) {
            memcpy(h->games[h->ngames], g->via.str.ptr, g->via.str.size);
            h->games[h->ngames++][g->via.str.size] = 0;
        }
    }
    if (h->ngames == 0 && a->via.array.size > 0)
        snprintf(h->games[h->ngames++], sizeof h->games[0], "%s", "?");  /* none it names */
}

int ref_ready_plays(const ref_ready *h, const char *game)
{
    if (h->ngames == 0)
        return 1;
    for (int i = 0; i < h->ngames; i++)
        if (!strcmp(h->games[i], game))
            return 1;
    return 0;
}
