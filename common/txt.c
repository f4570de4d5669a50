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

int txt_utf8_text(const void *text, size_t n)
{
    const unsigned char *s = text;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c < 0x20 || c == 0x7f)
            return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
        if (!len || c > 0xf4 || i + len > n)
            return 0;
        unsigned cp = c & (0x7f >> len);
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
            return 0;
        i += len;
    }
    return 1;
}
