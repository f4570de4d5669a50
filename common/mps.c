/*
 * mps.c - msgpack from an untrusted peer: check, then decode.
 */
#include <string.h>
#include "mps.h"

/* Reads a big-endian unsigned of `width` bytes at *pos, if present. */
static int read_be(const uint8_t *p, size_t n, size_t *pos, int width, uint64_t *out)
{
    if ((size_t)width > n - *pos)
        return -1;
    uint64_t v = 0;
    for (int i = 0; i < width; i++)
        v = v << 8 | p[(*pos)++];
    *out = v;
    return 0;
}

/* One object from *pos: its header, then its payload or elements. */
static int walk(const uint8_t *p, size_t n, size_t *pos, int depth)
{
    if (depth > MPS_MAX_DEPTH || *pos >= n)
        return -1;
    uint8_t b = p[(*pos)++];
    uint64_t skip = 0, elems = 0, v;
    int container = 0;

    if (b <= 0x7f || b >= 0xe0)                 /* fixint */
        return 0;
    if ((b & 0xe0) == 0xa0) {                   /* fixstr */
        skip = b & 0x1f;
    } else if ((b & 0xf0) == 0x90) {            /* fixarray */
        elems = b & 0x0f;
        container = 1;
    } else if ((b & 0xf0) == 0x80) {            /* fixmap */
        elems = 2 * (uint64_t)(b & 0x0f);
        container = 1;
    } else {
        switch (b) {
        case 0xc0: case 0xc2: case 0xc3:        /* nil, false, true */
            return 0;
        case 0xcc: case 0xd0: skip = 1; break;
        case 0xcd: case 0xd1: skip = 2; break;
        case 0xce: case 0xd2: case 0xca: skip = 4; break;
        case 0xcf: case 0xd3: case 0xcb: skip = 8; break;
        case 0xd4: skip = 2; break;             /* fixext: type + data */
        case 0xd5: skip = 3; break;
        case 0xd6: skip = 5; break;
        case 0xd7: skip = 9; break;
        case 0xd8: skip = 17; break;
        case 0xc4: case 0xd9:                   /* bin8, str8 */
            if (read_be(p, n, pos, 1, &skip)) return -1;
            break;
        case 0xc5: case 0xda:
            if (read_be(p, n, pos, 2, &skip)) return -1;
            break;
        case 0xc6: case 0xdb:
            if (read_be(p, n, pos, 4, &skip)) return -1;
            break;
        case 0xc7: case 0xc8: case 0xc9:        /* ext: length, type, data */
            if (read_be(p, n, pos, b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4, &v)) return -1;
            skip = v + 1;
            break;
        case 0xdc: case 0xdd:
            if (read_be(p, n, pos, b == 0xdc ? 2 : 4, &elems)) return -1;
            container = 1;
            break;
        case 0xde: case 0xdf:
            if (read_be(p, n, pos, b == 0xde ? 2 : 4, &v)) return -1;
            elems = 2 * v;
            container = 1;
            break;
        default:                                /* 0xc1: never used */
            return -1;
        }
    }
    if (!container) {
        if (skip > n - *pos)
            return -1;
        *pos += (size_t)skip;
        return 0;
    }
    /* msgpack-c's unpacker holds at most MPS_MAX_DEPTH open containers,
     * an empty one too: one more is refused there, so here. */
    if (depth >= MPS_MAX_DEPTH)
        return -1;
    if (elems > n - *pos)           /* every element takes at least a byte */
        return -1;
    for (uint64_t i = 0; i < elems; i++)
        if (walk(p, n, pos, depth + 1) < 0)
            return -1;
    return 0;
}

int mps_check(const char *data, size_t size)
{
    size_t pos = 0;
    if (!data || size == 0 || walk((const uint8_t *)data, size, &pos, 0) < 0)
        return -1;
    return pos == size ? 0 : -1;
}

int mps_decode(const char *data, size_t size, msgpack_unpacked *result)
{
    msgpack_unpacked_init(result);
    if (mps_check(data, size) < 0)
        return -1;
    /* Unpacked strings point into the bytes they came from, so the bytes
     * go into the object's own zone: the result outlives the caller's
     * buffer (a ZeroMQ message, usually closed at once). */
    msgpack_zone *zone = msgpack_zone_new(MSGPACK_ZONE_CHUNK_SIZE);
    char *copy = zone ? msgpack_zone_malloc(zone, size) : NULL;
    size_t off = 0;
    if (!copy) {
        msgpack_zone_free(zone);
        return -1;
    }
    memcpy(copy, data, size);
    if (msgpack_unpack(copy, size, &off, zone, &result->data) != MSGPACK_UNPACK_SUCCESS ||
        off != size) {
        msgpack_zone_free(zone);
        return -1;
    }
    result->zone = zone;
    return 0;
}

const msgpack_object *mps_get(const msgpack_object *map, const char *key)
{
    if (!map || map->type != MSGPACK_OBJECT_MAP)
        return NULL;
    size_t len = strlen(key);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object *k = &map->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == len &&
            (len == 0 || memcmp(k->via.str.ptr, key, len) == 0))   /* "" may have no ptr */
            return &map->via.map.ptr[i].val;
    }
    return NULL;
}

int mps_get_str(const msgpack_object *map, const char *key, char *buf, size_t size)
{
    const msgpack_object *v = mps_get(map, key);
    if (!v || v->type != MSGPACK_OBJECT_STR || v->via.str.size >= size)
        return -1;
    if (v->via.str.size)
        memcpy(buf, v->via.str.ptr, v->via.str.size);
    buf[v->via.str.size] = 0;
    if (memchr(buf, 0, v->via.str.size))
        return -1;                  /* an embedded NUL would truncate */
    return 0;
}

int mps_get_int(const msgpack_object *map, const char *key, int64_t *out)
{
    const msgpack_object *v = mps_get(map, key);
    if (!v)
        return -1;
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= INT64_MAX)
        *out = (int64_t)v->via.u64;
    else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        *out = v->via.i64;
    else
        return -1;
    return 0;
}

int mps_get_u64(const msgpack_object *map, const char *key, uint64_t *out)
{
    const msgpack_object *v = mps_get(map, key);
    if (!v || v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return -1;
    *out = v->via.u64;
    return 0;
}
