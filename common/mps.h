/*
 * mps.h - "msgpack, safely": decoding messages from a peer we do not trust.
 *
 * msgpack-c sizes its allocations by the element counts a message claims,
 * so a 10-byte message can ask for gigabytes. mps_check walks the bytes
 * first, allocating nothing: every container must claim no more elements
 * than bytes remain, nesting is bounded, and the buffer must be exactly
 * one object. Only then does mps_decode unpack it, into a zone whose size
 * is thus bounded by the message's. The referee and the C SDK both use it.
 */
#ifndef MPS_H
#define MPS_H

#include <stddef.h>
#include <stdint.h>
#include <msgpack.h>

/* Containers nest at most this deep (msgpack-c's unpack stack); a scalar
 * may sit inside all of them. */
#define MPS_MAX_DEPTH 32

/* 0 if `data` is exactly one well-formed msgpack object within the limits. */
int mps_check(const char *data, size_t size);
/* Checks, then unpacks into `result`, which owns a copy of the bytes and
 * so outlives `data`; msgpack_unpacked_destroy it after. Returns 0, or -1
 * for anything but one clean object (nothing to destroy then). */
int mps_decode(const char *data, size_t size, msgpack_unpacked *result);

/* Map lookups; NULL / -1 when the key is absent or of another type. */
const msgpack_object *mps_get(const msgpack_object *map, const char *key);
int mps_get_str(const msgpack_object *map, const char *key, char *buf, size_t size);
int mps_get_int(const msgpack_object *map, const char *key, int64_t *out);
int mps_get_u64(const msgpack_object *map, const char *key, uint64_t *out);

#endif
