/*
 * txt.c - bounded text into a caller's buffer (txt.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "txt.h"

void txt_vset(char *buf, size_t size, const char *fmt, va_list ap)
{
    if (buf && size)
        vsnprintf(buf, size, fmt, ap);
}

void txt_set(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    txt_vset(buf, size, fmt, ap);
    va_end(ap);
}

void txt_append(char *buf, size_t size, const char *fmt, ...)
{
    if (!buf || !size)
        return;
    size_t len = strnlen(buf, size);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}
