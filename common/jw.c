/*
 * jw.c - JSON writing (jw.h): a buffer that grows, commas by depth, and
 * strings escaped with UTF-8 checked.
 */
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jw.h"

void jw_init(jw *w)
{
    memset(w, 0, sizeof *w);
    w->first[0] = 1;
}

void jw_free(jw *w)
{
    free(w->buf);
    jw_init(w);
}

void jw_reset(jw *w)
{
    char *buf = w->buf;
    size_t cap = w->cap;
    jw_init(w);
    w->buf = buf;
    w->cap = cap;
    if (buf)
        buf[0] = 0;
}

int jw_failed(const jw *w) { return w->failed; }

static int reserve(jw *w, size_t n)
{
    if (w->failed)
        return -1;
    if (w->len + n + 1 <= w->cap)
        return 0;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->len + n + 1)
        cap *= 2;
    char *b = realloc(w->buf, cap);
    if (!b) {
        w->failed = 1;
        return -1;
    }
    w->buf = b;
    w->cap = cap;
    return 0;
}

static void put(jw *w, const char *s, size_t n)
{
    if (reserve(w, n) < 0)
        return;
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = 0;
}

/* Before any value: the comma when a sibling came before it. */
static void value_start(jw *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (!w->first[w->depth])
        put(w, ",", 1);
    w->first[w->depth] = 0;
}

static void begin(jw *w, char c)
{
    value_start(w);
    put(w, &c, 1);
    assert(w->depth + 1 < JW_DEPTH);
    w->first[++w->depth] = 1;
}

static void end(jw *w, char c)
{
    assert(w->depth > 0 && !w->after_key);
    w->depth--;
    put(w, &c, 1);
}

void jw_obj(jw *w) { begin(w, '{'); }
void jw_obj_end(jw *w) { end(w, '}'); }
void jw_arr(jw *w) { begin(w, '['); }
void jw_arr_end(jw *w) { end(w, ']'); }

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
               : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    uint32_t cp = len == 1 ? s[0] : len == 2 ? s[0] & 0x1Fu : len == 3 ? s[0] & 0x0Fu : s[0] & 0x07u;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* A byte that goes out as it is: printable ASCII but for the quote, the
 * backslash and <>&. */
static int plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7F && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

/* Writes \uXXXX for code point cp (below 0x10000) at d: 6 bytes. */
static size_t unicode_escape(char *d, unsigned cp)
{
    static const char hex[] = "0123456789abcdef";
    d[0] = '\\';
    d[1] = 'u';
    for (int i = 0; i < 4; i++)
        d[2 + i] = hex[(cp >> (12 - 4 * i)) & 15];
    return 6;
}

/* Writes at d the escape of the byte, or of the UTF-8 sequence, at p (n
 * bytes left): at most 6 bytes written per byte taken. Says how many
 * bytes it took and adds what it wrote to *out. */
static size_t escape_one(char *d, size_t *out, const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    size_t len = utf8_len(p, n);
    if (len == 0) {
        *out += unicode_escape(d, 0xFFFD);
        return 1;
    }
    if (c == '"' || c == '\\') {
        d[0] = '\\';
        d[1] = (char)c;
        *out += 2;
        return 1;
    }
    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7F) {
        *out += unicode_escape(d, c);
        return 1;
    }
    if (len == 3 && c == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
        *out += unicode_escape(d, p[2] == 0xA8 ? 0x2028 : 0x2029);
        return 3;
    }
    memcpy(d, p, len);
    *out += len;
    return len;
}

/* Room for the worst case is made once (6 bytes out per byte in, and the
 * quotes); runs of plain bytes are then copied whole: names and keys are
 * mostly that, and the replay's JSON is megabytes of them. */
static void escaped(jw *w, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    if (n > (SIZE_MAX - 3) / 6 || reserve(w, 6 * n + 2) < 0) {
        w->failed = 1;
        return;
    }
    char *d = w->buf;
    size_t len = w->len;
    d[len++] = '"';
    for (size_t i = 0; i < n;) {
        size_t run = i;
        while (run < n && plain(p[run]))
            run++;
        if (run > i) {
            memcpy(d + len, s + i, run - i);
            len += run - i;
            i = run;
        } else {
            i += escape_one(d + len, &len, p + i, n - i);
        }
    }
    d[len++] = '"';
    d[len] = 0;
    w->len = len;
}

void jw_key(jw *w, const char *key)
{
    assert(!w->after_key);
    value_start(w);
    escaped(w, key, strlen(key));
    put(w, ":", 1);
    w->after_key = 1;
}

void jw_strn(jw *w, const char *s, size_t n)
{
    value_start(w);
    escaped(w, s, n);
}

void jw_str(jw *w, const char *s)
{
    if (!s)
        jw_null(w);
    else
        jw_strn(w, s, strlen(s));
}

void jw_int(jw *w, int64_t v)
{
    char b[24], *end = b + sizeof b, *d = end;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        *--d = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--d = '-';
    value_start(w);
    put(w, d, (size_t)(end - d));
}

void jw_num(jw *w, double v)
{
    if (!isfinite(v)) {
        jw_null(w);
        return;
    }
    char b[32] = "";
    int n = snprintf(b, sizeof b, "%.10g", v);
    value_start(w);
    put(w, b, (size_t)n);
}

void jw_bool(jw *w, int v)
{
    value_start(w);
    put(w, v ? "true" : "false", v ? 4 : 5);
}

void jw_null(jw *w)
{
    value_start(w);
    put(w, "null", 4);
}

void jw_raw(jw *w, const char *json, size_t n)
{
    value_start(w);
    put(w, json, n);
}
