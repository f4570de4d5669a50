/*
 * jw.h - JSON writing into a growing buffer: the one way the arena writes
 * JSON for the web (pages' API, a game's view of a state).
 *
 * Commas are placed by the writer, strings are always escaped: control
 * bytes, quotes and backslashes, '<', '>' and '&' (so JSON never closes a
 * script tag it might sit in), U+2028/U+2029, and bytes that are not
 * UTF-8 (each becomes U+FFFD). Untrusted text (bot names, logs) can go
 * through jw_str as it is. Out of memory sticks: every later call does
 * nothing and jw_failed says so.
 */
#ifndef JW_H
#define JW_H

#include <stddef.h>
#include <stdint.h>

#define JW_DEPTH 32

typedef struct jw {
    char *buf;
    size_t len, cap;
    int failed;
    int depth;
    unsigned char first[JW_DEPTH];   /* nothing written yet at this depth */
    unsigned char after_key;         /* the next value completes a key */
} jw;

void jw_init(jw *w);
void jw_free(jw *w);
void jw_reset(jw *w);                 /* empty again, keeps the buffer */
int  jw_failed(const jw *w);

void jw_obj(jw *w);                   /* { */
void jw_obj_end(jw *w);               /* } */
void jw_arr(jw *w);                   /* [ */
void jw_arr_end(jw *w);               /* ] */
void jw_key(jw *w, const char *key);  /* "key": (keys are escaped too) */

void jw_str(jw *w, const char *s);    /* NULL writes null */
void jw_strn(jw *w, const char *s, size_t n);
void jw_int(jw *w, int64_t v);
void jw_num(jw *w, double v);         /* NaN and infinities write null */
void jw_bool(jw *w, int v);
void jw_null(jw *w);
/* A value already in JSON (a nested document this writer produced). */
void jw_raw(jw *w, const char *json, size_t n);

#endif
