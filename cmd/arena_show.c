/*
 * arena_show.c - `arena match ID`: one stored match as a person reads it,
 * and the escaping every report applies to text a bot could have written.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arena_cmd.h"
#include "arena_report.h"
#include "arena_show.h"
#include "ref_record.h"

/* Length of the valid UTF-8 sequence at s (1-4), or 0. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
             : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || n > left || (n == 2 && s[0] < 0xC2) || (n == 4 && s[0] > 0xF4))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (n == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
        (n == 4 && s[0] == 0xF0 && s[1] < 0x90) || (n == 4 && s[0] == 0xF4 && s[1] >= 0x90))
        return 0;
    return n;
}

/* Writes a log's bytes: newlines and tabs kept, other control bytes and
 * bytes that are not UTF-8 as \xNN. */
static void put_log(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned c = p[i];
        size_t n = utf8_len(p + i, len - i);
        if (n > 1) {
            fwrite(p + i, 1, n, out);
            i += n;
            continue;
        }
        i++;
        if (n == 0 || c == 0x7f || (c < 0x20 && c != '\n' && c != '\t'))
            fprintf(out, "\\x%02x", c);
        else
            fputc((int)c, out);
    }
}

/* The start of the last `lines` lines of a log (a final newline does not
 * start an empty line). */
static size_t tail_start(const char *s, size_t len, int lines)
{
    size_t i = len;
    if (i && s[i - 1] == '\n')
        i--;
    while (i > 0) {
        if (s[i - 1] == '\n' && --lines == 0)
            break;
        i--;
    }
    return i;
}

void arena_show_log(FILE *out, int seat, const char *text, size_t len, uint64_t bytes,
                    int tail_lines)
{
    size_t from = tail_lines < 0 ? 0 : tail_start(text, len, tail_lines);
    fprintf(out, "--- seat %d log: %" PRIu64 " bytes%s%s ---\n", seat, bytes,
            len < bytes ? ", excerpt kept" : "",
            from > 0 ? " (its last lines; --logs shows all that is kept)" : "");
    put_log(out, text + from, len - from);
    if (len > from && text[len - 1] != '\n')
        fputc('\n', out);
}

static void show_logs(arena_db *db, int64_t id, int seats, int tail_lines, FILE *out)
{
    arena_log *logs = NULL;
    int n = arena_db_match_logs(db, id, &logs);
    if (n <= 0) {
        fprintf(out, "logs: %s\n", n < 0 ? "cannot be read" : "none kept");
        return;
    }
    for (int k = 0; k < n; k++) {
        const arena_log *l = &logs[k];
        if (l->seat >= seats)
            continue;
        arena_show_log(out, l->seat, l->text, l->len, l->bytes, tail_lines);
    }
    arena_logs_free(logs, n);
}

/* What each seat's own decisions took, from the stored record: wall
 * time, CPU time and time waiting for a CPU (ref_record.h), the latter two
 * only where every decision measured them. */
typedef struct seat_time {
    int      count;
    uint64_t wall_us, cpu_us, wait_us;
    int      cpu_known, wait_known;
    int      remote;            /* a remote bot's seat: link_us its link's allowance */
    uint64_t link_us;
} seat_time;

static void seat_times(const arena_match *m, seat_time *t, char *clock, size_t clock_size)
{
    memset(t, 0, sizeof *t * ARENA_MAX_SEATS);
    for (int i = 0; i < ARENA_MAX_SEATS; i++)
        t[i].cpu_known = t[i].wait_known = 1;
    clock[0] = 0;
    FILE *f = m->record ? fmemopen(m->record, strlen(m->record), "r") : NULL;
    if (!f)
        return;
    ref_record rec;
    const game_api *g;
    char err[256];
    if (ref_record_read(&rec, &g, f, err, sizeof err) == 0) {
        snprintf(clock, clock_size, "%s", rec.clock);
        for (size_t i = 0; i < rec.ndecisions; i++) {
            const ref_decision *d = &rec.decisions[i];
            if (d->seat >= ARENA_MAX_SEATS || d->substituted)
                continue;
            seat_time *s = &t[d->seat];
            s->count++;
            s->wall_us += d->micros;
            s->cpu_known &= d->cpu_us != REF_UNMEASURED;
            s->wait_known &= d->wait_us != REF_UNMEASURED;
            s->cpu_us += d->cpu_us != REF_UNMEASURED ? d->cpu_us : 0;
            s->wait_us += d->wait_us != REF_UNMEASURED ? d->wait_us : 0;
            s->remote |= d->remote;
            s->link_us += d->remote ? d->link_us : 0;
        }
        ref_record_free(&rec);
    }
    fclose(f);
}

/* "  1.234s", or "       -" when not measured. */
static void put_seconds(FILE *out, int known, uint64_t us)
{
    if (known)
        fprintf(out, " %8.3fs", (double)us / 1e6);
    else
        fprintf(out, " %9s", "-");
}

int arena_show_match(arena_db *db, int64_t id, int tail_lines, FILE *out, char *err,
                     size_t size)
{
    arena_match m;
    int found = arena_db_match_get(db, id, &m);
    if (found != 0) {
        snprintf(err, size, found > 0 ? "no match %" PRId64 : "cannot read match %" PRId64, id);
        return found > 0 ? 1 : -1;
    }
    fprintf(out, "match %" PRId64 ": %s, seed %" PRIu64 ", %s", m.id, m.game, m.seed, m.options);
    if (m.tournament_id)
        fprintf(out, ", tournament %" PRId64 " game %d", m.tournament_id, m.game_index + 1);
    fprintf(out, "\n");
    seat_time t[ARENA_MAX_SEATS];
    char clock[64];
    seat_times(&m, t, clock, sizeof clock);
    fprintf(out, "%4s  %-24s %-10s %6s %5s %9s %9s %9s %9s\n", "seat", "bot", "version",
            "bot id", "score", "decisions", "time", "cpu", "cpu wait");
    for (int i = 0; i < m.seats; i++) {
        arena_bot b;
        int known = arena_db_bot_by_id(db, m.bot[i], &b) == 0;
        fprintf(out, "%4d  %-24s %-10s %6" PRId64 " %5g %9d", i, known ? b.label : "?",
                known && b.version[0] ? b.version : "-", m.bot[i], m.score[i], t[i].count);
        put_seconds(out, 1, t[i].wall_us);
        put_seconds(out, t[i].cpu_known && t[i].count, t[i].cpu_us);
        put_seconds(out, t[i].wait_known && t[i].count, t[i].wait_us);
        fputc('\n', out);
    }
    if (clock[0])
        fprintf(out, "clock: %s\n", clock);
    for (int i = 0; i < m.seats; i++)
        if (t[i].remote && t[i].count)
            fprintf(out, "seat %d played remotely: %.3f s of its time was its link's round trip, "
                    "not charged (%.1f ms a decision)\n", i, (double)t[i].link_us / 1e6,
                    (double)t[i].link_us / 1e3 / t[i].count);
    fprintf(out, "result: %s", m.reason);
    if (m.culprit >= 0)
        fprintf(out, " (seat %d)", m.culprit);
    fputs(": ", out);
    ac_put_text(out, ARENA_TABLE, m.detail);
    fprintf(out, "\n%d decisions, %.3f s\n", m.decisions,
            (double)(m.finished_ms - m.started_ms) / 1000);
    show_logs(db, m.id, m.seats, tail_lines, out);
    arena_match_free(&m);
    return 0;
}
