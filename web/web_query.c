/*
 * web_query.c - a request's query string, parsed strictly: known keys
 * only, each once, values decoded and bounded, numbers whole and in range.
 * Anything else is a 400 that names the problem, never a guess.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <civetweb.h>
#include "kv.h"
#include "web_internal.h"

int web_fail(web_req *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    r->status = status;
    return -1;
}

static int allowed_key(const char *key, const char *const *allowed)
{
    for (; allowed && *allowed; allowed++)
        if (!strcmp(key, *allowed))
            return 1;
    return 0;
}

/* 1 when every '%' in s[0..n) starts a %XX escape. */
static int escapes_ok(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '%' && !(i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
                             isxdigit((unsigned char)s[i + 2])))
            return 0;
    return 1;
}

/* Decodes one "key=value" of n bytes into the next slot: 0 or -1. */
static int add_pair(web_req *r, const char *s, size_t n, const char *const *allowed)
{
    const char *eq = memchr(s, '=', n);
    if (!escapes_ok(s, n)) {
        web_fail(r, 400, "a malformed %%-escape in the query string");
        return -1;
    }
    size_t klen = eq ? (size_t)(eq - s) : n, vlen = eq ? n - klen - 1 : 0;
    char key[WEB_MAX_VALUE];
    if (klen >= sizeof r->q.p[0].key || klen == 0) {
        web_fail(r, 400, "unknown parameter");
        return -1;
    }
    int kd = mg_url_decode(s, (int)klen, key, sizeof key, 1);
    if (kd < 0 || strlen(key) != (size_t)kd || !allowed_key(key, allowed)) {
        web_fail(r, 400, "unknown parameter '%.*s'", kd > 0 ? kd : 0, kd > 0 ? key : "");
        return -1;
    }
    if (web_param(r, key)) {
        web_fail(r, 400, "parameter '%s' given twice", key);
        return -1;
    }
    if (r->q.n == WEB_MAX_PARAMS) {
        web_fail(r, 400, "too many parameters");
        return -1;
    }
    char *value = r->q.p[r->q.n].value;
    int vd = vlen >= WEB_MAX_VALUE * 3 ? -1
           : mg_url_decode(eq ? eq + 1 : "", (int)vlen, value, WEB_MAX_VALUE, 1);
    if (vd < 0 || vd >= WEB_MAX_VALUE - 1) {
        web_fail(r, 400, "parameter '%s' is too long", key);
        return -1;
    }
    if (strlen(value) != (size_t)vd) {
        web_fail(r, 400, "parameter '%s' holds a NUL byte", key);
        return -1;
    }
    snprintf(r->q.p[r->q.n].key, sizeof r->q.p[0].key, "%s", key);
    r->q.n++;
    return 0;
}

int web_query_parse(web_req *r, const char *qs, const char *const *allowed)
{
    r->q.n = 0;
    if (!qs || !*qs)
        return 0;
    if (strlen(qs) > WEB_MAX_QUERY) {
        web_fail(r, 414, "the query string is longer than %d bytes", WEB_MAX_QUERY);
        return 414;
    }
    while (*qs) {
        size_t n = strcspn(qs, "&");
        if (n > 0 && add_pair(r, qs, n, allowed) < 0)
            return r->status;
        qs += n + (qs[n] == '&');
    }
    return 0;
}

int web_param_f64(web_req *r, const char *key, double lo, double hi, double dflt, double *out)
{
    const char *v = web_param(r, key);
    if (!v || !*v) {
        *out = dflt;
        return 0;
    }
    if (kv_f64(v, lo, hi, out) != 0)
        return web_fail(r, 400, "parameter '%s' must be a number from %g to %g", key, lo, hi);
    return 0;
}

const char *web_param(const web_req *r, const char *key)
{
    for (int i = 0; i < r->q.n; i++)
        if (!strcmp(r->q.p[i].key, key))
            return r->q.p[i].value;
    return NULL;
}

int web_param_i64(web_req *r, const char *key, int64_t lo, int64_t hi, int64_t dflt,
                  int64_t *out)
{
    const char *v = web_param(r, key);
    if (!v || !*v) {
        *out = dflt;
        return 0;
    }
    if (kv_i64(v, lo, hi, out) != 0)
        return web_fail(r, 400, "parameter '%s' must be a whole number from %lld to %lld", key,
                        (long long)lo, (long long)hi);
    return 0;
}
