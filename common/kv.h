/*
 * kv.h - strict text parsing: whole numbers, reals and "key=value" lists.
 *
 * Everything read from a user, a file, a worker or a bot goes through
 * these: a number is the whole text (no sign where none may be, no spaces,
 * no trailing junk) and within its range, or it is refused. No atoi.
 */
#ifndef KV_H
#define KV_H

#include <stddef.h>
#include <stdint.h>

/* A whole decimal number in [lo, hi], nothing else: 0, or -1. */
int kv_i64(const char *text, int64_t lo, int64_t hi, int64_t *out);
/* A whole decimal number from 0 to 2^64-1, no sign: 0, or -1. */
int kv_u64(const char *text, uint64_t *out);
/* 1 to 16 hexadecimal digits, nothing else (a hash): 0, or -1. */
int kv_x64(const char *text, uint64_t *out);
/* A finite real number in [lo, hi]: 0, or -1. */
int kv_f64(const char *text, double lo, double hi, double *out);

/* Reads the next "key=value" of a space-separated list at *cursor and
 * moves past it: 1 with key and value copied, 0 at the end, -1 with a
 * one-line reason (no '=', an empty key, a key or value too long). */
int kv_next(const char **cursor, char *key, size_t key_size, char *value, size_t value_size,
            char *err, size_t err_size);

#endif
