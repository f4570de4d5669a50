/*
 * kv.c - strict numbers and key=value lists (kv.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kv.h"

int kv_i64(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    if (!text || !*text || *text == ' ' || *text == '+')
        return -1;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int kv_u64(const char *text, uint64_t *out)
{
    char *end;
    if (!text || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int kv_x64(const char *text, uint64_t *out)
{
    size_t n = text ? strspn(text, "0123456789abcdefABCDEF") : 0;
    if (n == 0 || n > 16 || text[n])
        return -1;
    *out = strtoull(text, NULL, 16);
    return 0;
}

int kv_f64(const char *text, double lo, double hi, double *out)
{
    char *end;
    if (!text || !*text || *text == ' ')
        return -1;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int kv_next(const char **cursor, char *key, size_t key_size, char *value, size_t value_size,
            char *err, size_t err_size)
{
    const char *p = *cursor;
    while (*p == ' ')
        p++;
    if (!*p) {
        *cursor = p;
        return 0;
    }
    size_t len = strcspn(p, " "), klen = strcspn(p, "= ");
    if (klen >= len) {
        snprintf(err, err_size, "'%.*s': expected key=value", (int)len, p);
        return -1;
    }
    if (klen == 0 || klen >= key_size || len - klen - 1 >= value_size) {
        snprintf(err, err_size, "'%.*s': %s", (int)len, p,
                 klen == 0 ? "no key before '='" : "too long");
        return -1;
    }
    memcpy(key, p, klen);
    key[klen] = 0;
    memcpy(value, p + klen + 1, len - klen - 1);
    value[len - klen - 1] = 0;
    *cursor = p + len;
    return 1;
}
