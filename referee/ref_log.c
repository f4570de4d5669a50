/*
 * ref_log.c - excerpts of bots' logs under a byte cap (see ref_log.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ref_log.h"

#define OMITTED_FMT "\n[arena: %" PRIu64 " bytes left out]\n"

static int read_at(int fd, char *buf, size_t len, off_t at)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, buf + got, len - got, at + (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -1 : (int)(errno = EIO, -1);
        got += (size_t)n;
    }
    return 0;
}

/* The head's share of an excerpt's room: the tail gets the rest. Both the
 * excerpt (split) and the reading of one (excerpt_shape) use it. */
static size_t head_of(size_t room)
{
    return room / 4;
}

/* The head and tail sizes of an excerpt of `bytes` under `cap`, and the
 * marker between them; head + marker + tail <= cap. */
static void split(uint64_t bytes, size_t cap, size_t *head, size_t *tail, char *mark,
                  size_t msize)
{
    *head = *tail = 0;
    mark[0] = 0;
    if (bytes <= cap) {
        *head = (size_t)bytes;
        return;
    }
    int m = snprintf(mark, msize, OMITTED_FMT, bytes - cap);
    if (m < 0 || (size_t)m >= cap) {
        mark[0] = 0;
        *tail = cap;
        return;
    }
    size_t room = cap - (size_t)m;
    *head = head_of(room);
    *tail = room - *head;
    /* The marker counts what it stands for exactly. */
    snprintf(mark, msize, OMITTED_FMT, bytes - *head - *tail);
}

static int assemble(ref_log *out, uint64_t bytes, size_t cap, int fd)
{
    memset(out, 0, sizeof *out);
    out->bytes = bytes;
    size_t head, tail;
    char mark[64];
    split(bytes, cap, &head, &tail, mark, sizeof mark);
    size_t mlen = strlen(mark);
    out->text = malloc(head + mlen + tail + 1);
    if (!out->text)
        return -1;
    char *p = out->text;
    off_t tail_at = (off_t)(bytes - tail);
    if (fd >= 0 && (read_at(fd, p, head, 0) < 0 ||
                    read_at(fd, p + head + mlen, tail, tail_at) < 0)) {
        free(out->text);
        out->text = NULL;
        return -1;
    }
    memcpy(p + head, mark, mlen);
    out->len = head + mlen + tail;
    out->text[out->len] = 0;
    return 0;
}

int ref_log_read(ref_log *out, const char *path, size_t cap)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? assemble(out, 0, cap, -1) : -1;
    struct stat st;
    int rc = fstat(fd, &st) == 0 ? assemble(out, (uint64_t)st.st_size, cap, fd) : -1;
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

void ref_log_free(ref_log *l)
{
    free(l->text);
    l->text = NULL;
    l->len = 0;
}

/* The head, marker and tail lengths of an excerpt (text, len) of a log of
 * `bytes`, from the marker's own count: 0, or -1. */
static int excerpt_shape(const char *text, size_t len, uint64_t bytes, size_t *head,
                         size_t *mlen, size_t *tail)
{
    *mlen = *tail = 0;
    *head = len;
    if (len == bytes)
        return 0;                                    /* the whole log */
    if (len > bytes)
        return -1;
    char mark[64];
    /* The marker counts the bytes it stands for, bytes - head - tail =
     * bytes - (len - mlen): try each length its count could have. */
    size_t bare = (size_t)snprintf(mark, sizeof mark, OMITTED_FMT, (uint64_t)0) - 1;
    for (size_t digits = 1; digits <= 20; digits++) {
        size_t m = bare + digits;
        if (m > len)
            break;
        uint64_t left_out = bytes - (len - m);
        if ((size_t)snprintf(mark, sizeof mark, OMITTED_FMT, left_out) != m)
            continue;
        size_t h = head_of(len - m);
        if (memcmp(text + h, mark, m) == 0) {
            *head = h, *mlen = m, *tail = len - m - h;
            return 0;
        }
    }
    *head = 0;                                       /* the marker did not fit: the tail alone */
    *tail = len;
    return 0;
}

/* Position in the excerpt of byte `at` of the whole log; one in the part
 * left out is the marker's start (is_end 0) or end (is_end 1). */
static size_t excerpt_at(uint64_t at, uint64_t bytes, size_t head, size_t mlen, size_t tail,
                         int is_end)
{
    if (at <= head)
        return (size_t)at;
    if (at >= bytes - tail)
        return head + mlen + (size_t)(at - (bytes - tail));
    return is_end ? head + mlen : head;
}

int ref_log_span(const char *text, size_t len, uint64_t bytes, uint64_t from, uint64_t to,
                 size_t *start, size_t *end)
{
    size_t head, mlen, tail;
    *start = *end = 0;
    if (excerpt_shape(text, len, bytes, &head, &mlen, &tail) != 0)
        return -1;
    to = to < bytes ? to : bytes;
    from = from < to ? from : to;
    *start = excerpt_at(from, bytes, head, mlen, tail, 0);
    *end = excerpt_at(to, bytes, head, mlen, tail, 1);
    if (*end < *start)
        *end = *start;
    return 0;
}
