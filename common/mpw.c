/*
 * mpw.c - msgpack writing helpers (mpw.h).
 */
#include <string.h>
#include "mpw.h"

void mpw_begin(msgpack_sbuffer *sb, msgpack_packer *pk)
{
    sb->size = 0;
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
}

void mpw_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

void mpw_message(msgpack_packer *pk, const char *type, size_t fields)
{
    msgpack_pack_map(pk, fields + 1);
    mpw_str(pk, "type");
    mpw_str(pk, type);
}

void mpw_str_or_nil(msgpack_packer *pk, const char *s)
{
    if (s)
        mpw_str(pk, s);
    else
        msgpack_pack_nil(pk);
}

void mpw_int_or_nil(msgpack_packer *pk, int64_t v, int64_t none)
{
    if (v == none)
        msgpack_pack_nil(pk);
    else
        msgpack_pack_int64(pk, v);
}

void mpw_bool(msgpack_packer *pk, int v)
{
    if (v)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
}
