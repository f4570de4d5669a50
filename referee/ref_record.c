/*
 * ref_record.c - writing, reading and verifying match records.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kv.h"
#include "ref_match.h"
#include "ref_record.h"

void ref_record_init(ref_record *r)
{
    memset(r, 0, sizeof *r);
    r->culprit = -1;
}

void ref_record_free(ref_record *r)
{
    free(r->decisions);
    r->decisions = NULL;
    r->ndecisions = r->capacity = 0;
}

int ref_record_add(ref_record *r, const ref_decision *d)
{
    if (r->ndecisions == r->capacity) {
        size_t cap = r->capacity ? 2 * r->capacity : 256;
        ref_decision *grown = realloc(r->decisions, cap * sizeof *grown);
        if (!grown)
            return -1;
        r->decisions = grown;
        r->capacity = cap;
    }
    r->decisions[r->ndecisions++] = *d;
    return 0;
}

int ref_record_write(const ref_record *r, const game_api *g, FILE *f)
{
    char text[128];
    fprintf(f, "arena-record 1\ngame %s\noptions %s\nseed %" PRIu64 "\n",
            r->game, r->options, r->seed);
    if (r->isolation[0])
        fprintf(f, "isolation %s\n", r->isolation);
    if (r->clock[0])
        fprintf(f, "clock %s\n", r->clock);
    for (int i = 0; i < r->seats; i++)
        fprintf(f, "bot %d %s %s\n", i, r->name[i][0] ? r->name[i] : "-",
                r->version[i][0] ? r->version[i] : "-");
    for (size_t i = 0; i < r->ndecisions; i++) {
        const ref_decision *d = &r->decisions[i];
        g->format(d->action, text, sizeof text);
        fprintf(f, "decision %d %.3f", d->seat, d->micros / 1000.0);
        if (d->cpu_us != REF_UNMEASURED)
            fprintf(f, " cpu=%.3f", d->cpu_us / 1000.0);
        if (d->wait_us != REF_UNMEASURED)
            fprintf(f, " wait=%.3f", d->wait_us / 1000.0);
        if (d->remote)
            fprintf(f, " link=%.3f", d->link_us / 1000.0);
        if (d->log_end != REF_LOG_UNMARKED)
            fprintf(f, " log=%" PRIu64, d->log_end);
        fprintf(f, " %s %s\n", d->substituted ? "random" : "-", text);
    }
    fprintf(f, "result");
    for (int i = 0; i < r->seats; i++)
        fprintf(f, " %g", r->score[i]);
    fprintf(f, "\nreason %s\n", r->reason);
    if (r->culprit < 0)
        fprintf(f, "culprit -\n");
    else
        fprintf(f, "culprit %d\n", r->culprit);
    fprintf(f, "detail %s\nhash %016" PRIx64 "\n", r->detail, r->hash);
    return ferror(f) ? -1 : 0;
}

/* Names and versions are single words; anything else becomes '_'. */
static int parse_bot(ref_record *r, char *rest)
{
    char *save = NULL;
    char *idx = strtok_r(rest, " ", &save), *name = strtok_r(NULL, " ", &save), *ver = strtok_r(NULL, " ", &save);
    if (!idx || !name || !ver)
        return -1;
    int64_t i;
    if (kv_i64(idx, 0, GAME_MAX_SEATS - 1, &i) < 0 || i != r->seats)
        return -1;
    snprintf(r->name[i], sizeof r->name[i], "%s", strcmp(name, "-") ? name : "");
    snprintf(r->version[i], sizeof r->version[i], "%s", strcmp(ver, "-") ? ver : "");
    r->seats++;
    return 0;
}

static uint32_t micros_of(double ms)
{
    return (uint32_t)(ms * 1000.0 + 0.5);
}

/* A time in milliseconds (0 to 4e6) into microseconds: 0, or -1. The
 * writer's "%.3f" is read digit by digit (exactly, and without strtod,
 * a tenth of a replay's parse); any other spelling through kv_f64. */
static int read_ms(const char *text, uint32_t *us)
{
    uint64_t whole = 0, frac = 0;
    const char *c = text;
    while (*c >= '0' && *c <= '9' && c - text < 8)
        whole = whole * 10 + (uint64_t)(*c++ - '0');
    int digits = 0;
    if (c > text && *c == '.')
        for (c++; *c >= '0' && *c <= '9' && digits < 4; c++, digits++)
            frac = frac * 10 + (uint64_t)(*c - '0');
    if (c > text && !*c && digits >= 1 && digits <= 3 && whole <= 4000000 &&
        (whole < 4000000 || frac == 0)) {
        for (; digits < 3; digits++)
            frac *= 10;
        *us = (uint32_t)(whole * 1000 + frac);
        return 0;
    }
    double t;
    if (kv_f64(text, 0, 4e6, &t) < 0)
        return -1;
    *us = micros_of(t);
    return 0;
}

/* "SEAT MS [cpu=MS] [wait=MS] [link=MS] [log=BYTES] HOW ACTION"; unknown KEY=VALUE
 * fields are skipped, so that a later field does not make old readers
 * fail. */
static int parse_decision(ref_record *r, const game_api *g, char *rest)
{
    char *save = NULL;
    char *seat = strtok_r(rest, " ", &save), *ms = strtok_r(NULL, " ", &save);
    char *how = strtok_r(NULL, " ", &save);
    ref_decision d = { .cpu_us = REF_UNMEASURED, .wait_us = REF_UNMEASURED,
                       .log_end = REF_LOG_UNMARKED };
    for (; how && strchr(how, '='); how = strtok_r(NULL, " ", &save)) {
        uint32_t *field = !strncmp(how, "cpu=", 4)    ? &d.cpu_us
                          : !strncmp(how, "wait=", 5) ? &d.wait_us
                          : !strncmp(how, "link=", 5) ? &d.link_us : NULL;
        d.remote |= field == &d.link_us;
        if (field && read_ms(strchr(how, '=') + 1, field) < 0)
            return -1;
        int64_t bytes;
        if (!strncmp(how, "log=", 4)) {
            if (kv_i64(how + 4, 0, INT64_MAX, &bytes) < 0)
                return -1;
            d.log_end = (uint64_t)bytes;
        }
    }
    char *action = strtok_r(NULL, "", &save);
    int64_t s;
    if (!seat || !ms || !how || !action || !g || g->parse(action, &d.action) < 0)
        return -1;
    if (read_ms(ms, &d.micros) < 0 || kv_i64(seat, 0, r->seats - 1, &s) < 0)
        return -1;
    d.seat = (uint8_t)s;
    d.substituted = strcmp(how, "random") == 0;
    return ref_record_add(r, &d);
}

/* The fields a record gives once: a second "game" line, say, would make
 * the decisions read so far mean something else. */
static const char *const once_keys[] = { "game",   "options", "seed",    "isolation",
                                         "clock",  "result",  "reason",  "culprit",
                                         "detail", "hash",    NULL };

/* key's bit in a set of once_keys, 0 for the other keys. */
static unsigned once_bit(const char *key)
{
    for (unsigned k = 0; once_keys[k]; k++)
        if (!strcmp(key, once_keys[k]))
            return 1u << k;
    return 0;
}

/* One "KEY VALUE" line of a record (after its first) into r: 0, or 1 when
 * the key is unknown, given twice, or its value unreadable. */
static int parse_field(ref_record *r, const game_api **g, const char *key, char *rest,
                       unsigned *seen)
{
    /* Most lines are decisions: read before the once_keys are looked up
     * (a replay reads every record the arena stores). */
    if (!strcmp(key, "decision"))
        return parse_decision(r, *g, rest) != 0;
    unsigned bit = once_bit(key);
    int bad = (*seen & bit) != 0;
    *seen |= bit;
    if (bad) {
        /* refused below, with its line */
    } else if (!strcmp(key, "game")) {
        snprintf(r->game, sizeof r->game, "%s", rest);
        bad = !(*g = game_find(rest));
    } else if (!strcmp(key, "options")) {
        snprintf(r->options, sizeof r->options, "%s", rest);
    } else if (!strcmp(key, "seed")) {
        bad = kv_u64(rest, &r->seed) < 0;
    } else if (!strcmp(key, "isolation")) {
        snprintf(r->isolation, sizeof r->isolation, "%s", rest);
    } else if (!strcmp(key, "clock")) {
        snprintf(r->clock, sizeof r->clock, "%s", rest);
    } else if (!strcmp(key, "bot")) {
        bad = parse_bot(r, rest);
    } else if (!strcmp(key, "result")) {
        char *save = NULL, *tok = strtok_r(rest, " ", &save);
        for (int i = 0; i < r->seats; i++, tok = strtok_r(NULL, " ", &save)) {
            if (!tok || kv_f64(tok, 0, 1, &r->score[i]) < 0)
                bad = 1;
        }
    } else if (!strcmp(key, "reason")) {
        snprintf(r->reason, sizeof r->reason, "%s", rest);
    } else if (!strcmp(key, "culprit")) {
        int64_t c = -1;
        bad = strcmp(rest, "-") && kv_i64(rest, 0, r->seats - 1, &c) < 0;
        r->culprit = (int)c;
    } else if (!strcmp(key, "detail")) {
        snprintf(r->detail, sizeof r->detail, "%s", rest);
    } else if (!strcmp(key, "hash")) {
        bad = kv_x64(rest, &r->hash) < 0;
    } else {
        bad = 1;
    }
    return bad;
}

int ref_record_parse(ref_record *r, const game_api **g, const char *text, char *err,
                     size_t size)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f) {
        ref_record_init(r);
        *g = NULL;
        snprintf(err, size, "cannot read the record (out of memory)");
        return -1;
    }
    int rc = ref_record_read(r, g, f, err, size);
    fclose(f);
    return rc;
}

int ref_record_read(ref_record *r, const game_api **g, FILE *f, char *err, size_t size)
{
    char line[1024];
    int lineno = 0, said = 0;    /* said: lines that are not blank */
    unsigned seen = 0;           /* once_keys given so far */
    *g = NULL;
    ref_record_init(r);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strcspn(line, "\r\n");
        if (line[len] == 0 && !feof(f)) {
            snprintf(err, size, "line %d: too long", lineno);
            ref_record_free(r);
            return -1;
        }
        line[len] = 0;
        /* Blank lines carry nothing: an editor's or a shell's extra newline
         * must not make a record unreadable. */
        if (line[strspn(line, " \t")] == 0)
            continue;
        said++;
        char *rest = strchr(line, ' ');
        if (rest)
            *rest++ = 0;
        else
            rest = line + len;
        int bad = said == 1 ? strcmp(line, "arena-record") || strcmp(rest, "1")
                            : parse_field(r, g, line, rest, &seen);
        if (bad && said == 1) {
            snprintf(err, size, "not a match record (it begins with '%.40s%s%.20s', not "
                     "'arena-record 1')", line, *rest ? " " : "", rest);
            ref_record_free(r);
            return -1;
        }
        if (bad) {
            snprintf(err, size, "line %d: cannot read '%s%s%.60s'", lineno, line,
                     *rest ? " " : "", rest);
            ref_record_free(r);
            return -1;
        }
    }
    if (said == 0) {
        snprintf(err, size, "not a match record (it is empty)");
        ref_record_free(r);
        return -1;
    }
    if (!*g || !(seen & once_bit("hash")) || !r->seats) {
        snprintf(err, size, "not a complete match record (%s missing)",
                 !*g ? "game" : !r->seats ? "bots" : "hash");
        ref_record_free(r);
        return -1;
    }
    return 0;
}

/* A forfeit ends a match the game itself has not ended; every other
 * reason is the game's own. */
static int is_forfeit(const char *reason)
{
    static const char *const codes[] = { REF_TIMEOUT, REF_CRASH, REF_EXIT, REF_DISCONNECT,
                                         REF_DISCONNECTED,
                                         REF_MALFORMED, REF_OVERSIZED, REF_ILLEGAL,
                                         REF_BAD_TOKEN, REF_UNKNOWN_ID, REF_OUT_OF_TURN,
                                         REF_PROTOCOL, REF_MEMORY, REF_PROCESSES,
                                         REF_FLOOD, REF_CONTENDED, NULL };
    for (int i = 0; codes[i]; i++)
        if (!strcmp(reason, codes[i]))
            return 1;
    return 0;
}

/* Plays the record's decisions from the start: each by the seat to move,
 * each legal there. 0, or -1 with err. */
static int replay_decisions(const ref_record *r, const game_api *g, void *state,
                            game_action *legal, char *err, size_t size)
{
    for (size_t i = 0; i < r->ndecisions; i++) {
        const ref_decision *d = &r->decisions[i];
        char text[128];           /* the action's notation, made only to say what failed:
                                   * formatting each one was most of a replay's cost */
        if (g->to_move(state) != d->seat) {
            g->format(d->action, text, sizeof text);
            snprintf(err, size, "decision %zu (%s): seat %d recorded, seat %d to move",
                     i + 1, text, d->seat, g->to_move(state));
            return -1;
        }
        int n = g->legal(state, legal), found = 0;
        for (int k = 0; k < n && !found; k++)
            found = legal[k] == d->action;
        if (!found) {
            g->format(d->action, text, sizeof text);
            snprintf(err, size, "decision %zu (%s): not legal there", i + 1, text);
            return -1;
        }
        g->apply(state, d->action);
    }
    return 0;
}

/* A score as the record holds it: written with %g, six digits, so a
 * three-way tie's 1/3 reads back as 0.333333; equal to that many. */
static int same_score(double recorded, double score)
{
    return fabs(recorded - score) < 1e-6;
}

/* A forfeit loses for the culprit's team and wins for the others; a
 * contended decision (ref_match.h) scores nobody. 0, or -1 with err. */
static int check_forfeit(const ref_record *r, const game_api *g, const void *state, char *err,
                         size_t size)
{
    if (r->culprit < 0 || r->culprit >= r->seats) {
        snprintf(err, size, "forfeit '%s' without a culprit", r->reason);
        return -1;
    }
    int team = g->team_of(state, r->culprit), none = !strcmp(r->reason, REF_CONTENDED);
    for (int i = 0; i < r->seats; i++) {
        double want = none || g->team_of(state, i) == team ? 0 : 1;
        if (!same_score(r->score[i], want)) {
            snprintf(err, size, "seat %d scored %g, the forfeit by seat %d gives %g", i,
                     r->score[i], r->culprit, want);
            return -1;
        }
    }
    return 0;
}

/* The end the record states against the game's own, after its last
 * decision: reason, culprit, scores and the final hash. 0, or -1 with err. */
static int check_ending(const ref_record *r, const game_api *g, const void *state, char *err,
                        size_t size)
{
    double score[GAME_MAX_SEATS];
    char reason[64], detail[256];
    int over = g->result(state, score, reason, sizeof reason, detail, sizeof detail);
    if (is_forfeit(r->reason)) {
        if (over) {
            snprintf(err, size, "the game ended by %s before the recorded forfeit", reason);
            return -1;
        }
        if (check_forfeit(r, g, state, err, size) < 0)
            return -1;
    } else {
        if (!over || strcmp(reason, r->reason)) {
            snprintf(err, size, "the game %s, the record says it ended by %s",
                     over ? "ended otherwise" : "is not over", r->reason);
            return -1;
        }
        if (r->culprit != -1) {
            snprintf(err, size, "the game ended by %s, yet seat %d is named culprit", reason,
                     r->culprit);
            return -1;
        }
        for (int i = 0; i < r->seats; i++)
            if (!same_score(r->score[i], score[i])) {
                snprintf(err, size, "seat %d scored %g, the record says %g", i, score[i],
                         r->score[i]);
                return -1;
            }
    }
    if (g->hash(state) != r->hash) {
        snprintf(err, size, "final hash %016" PRIx64 ", the record says %016" PRIx64,
                 g->hash(state), r->hash);
        return -1;
    }
    return 0;
}

/* Re-simulates the decisions, and the ending too when `ended`. */
static int verify(const ref_record *r, const game_api *g, int ended, char *err, size_t size)
{
    game_options *options = game_options_new(g);
    void *state = calloc(1, g->state_size);
    game_action *legal = malloc(GAME_MAX_ACTIONS * sizeof *legal);
    int rc = -1;
    if (!options || !state || !legal) {
        snprintf(err, size, "out of memory");
        goto out;
    }
    if (game_options_parse(options, r->options, err, size) < 0)
        goto out;
    const char *why = g->init(state, options, r->seed);
    if (why) {
        snprintf(err, size, "options: %s", why);
        goto out;
    }
    if (g->seats(state) != r->seats) {
        snprintf(err, size, "record has %d bots, game has %d seats", r->seats, g->seats(state));
        goto out;
    }
    if (replay_decisions(r, g, state, legal, err, size) == 0 &&
        (!ended || check_ending(r, g, state, err, size) == 0))
        rc = 0;
out:
    game_options_free(options);
    free(state);
    free(legal);
    return rc;
}

int ref_record_verify(const ref_record *r, const game_api *g, char *err, size_t size)
{
    return verify(r, g, 1, err, size);
}

int ref_record_verify_so_far(const ref_record *r, const game_api *g, char *err, size_t size)
{
    return verify(r, g, 0, err, size);
}
