/*
 * mpw.h - msgpack writing: the few shapes every message here is made of.
 *
 * The referee, the worker link, the C SDK, the bench and the games all
 * write msgpack maps keyed by strings; these helpers are the one way they
 * do it. Maps are written with their count first (msgpack's rule), so a
 * writer states how many fields follow; mpw_message puts "type" first.
 */
#ifndef MPW_H
#define MPW_H

#include <stdint.h>
#include <msgpack.h>

/* Empties `sb` and points `pk` at it: the start of a new message. */
void mpw_begin(msgpack_sbuffer *sb, msgpack_packer *pk);
/* A map of 1 + `fields` entries whose first is "type": `type`. */
void mpw_message(msgpack_packer *pk, const char *type, size_t fields);
void mpw_str(msgpack_packer *pk, const char *s);
void mpw_str_or_nil(msgpack_packer *pk, const char *s);           /* NULL: nil */
void mpw_int_or_nil(msgpack_packer *pk, int64_t v, int64_t none);  /* v == none: nil */
void mpw_bool(msgpack_packer *pk, int v);

#endif
