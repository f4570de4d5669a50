/*
 * txt.h - bounded text into a caller's buffer: an error message set, a
 * list appended to. Both always leave the buffer terminated and never
 * write past it; a NULL or empty buffer takes nothing.
 */
#ifndef TXT_H
#define TXT_H

#include <stdarg.h>
#include <stddef.h>

/* Sets buf to the formatted text, cut to fit. */
void txt_set(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* txt_set with the arguments as a va_list, for a caller's own variadic
 * function. */
void txt_vset(char *buf, size_t size, const char *fmt, va_list ap);

/* Appends the formatted text to what buf holds, cut to fit; a full buffer
 * stays as it is. */
void txt_append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 if the n bytes are well-formed UTF-8 (no overlong form, surrogate or
 * code point past U+10FFFF) holding no control character (C0, DEL, C1):
 * text from outside fit to show and to keep in a line. Else 0. */
int txt_utf8_text(const void *text, size_t n);

#endif
