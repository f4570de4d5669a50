/*
 * match_run.c - one match with real bot processes for the referee's tests
 * (match_run.h): a temp log directory, a unique marker on every bot's
 * command line, and after the match the proof that nothing was left: no
 * process carries the marker (in its command line or, for the bots' own
 * children such as `sleep`, its environment), and the test process has
 * no children at all.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "match_run.h"

const char *badbot_path, *random_path;
static int match_count;

/* ---- processes ---------------------------------------------------------- */

/* Reads a whole small /proc file; returns its length, -1 when unreadable. */
static ssize_t read_proc(const char *pid, const char *what, char *buf, size_t size)
{
    char path[300];
    snprintf(path, sizeof path, "/proc/%s/%s", pid, what);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t n = 0;
    ssize_t r;
    while (n < size && (r = read(fd, buf + n, size - n)) > 0)
        n += (size_t)r;
    close(fd);
    return (ssize_t)n;
}

/* Processes whose command line or environment holds `marker`; each is
 * printed and then killed, so one failure does not leak into the next. */
static int strays(const char *marker)
{
    static char buf[1 << 17];
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int found = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        pid_t pid = (pid_t)atoi(de->d_name);
        if (pid == getpid())
            continue;
        int hit = 0;
        const char *what[] = { "cmdline", "environ" };
        for (int k = 0; k < 2 && !hit; k++) {
            ssize_t n = read_proc(de->d_name, what[k], buf, sizeof buf);
            hit = n > 0 && memmem(buf, (size_t)n, marker, strlen(marker)) != NULL;
        }
        if (hit) {
            ssize_t n = read_proc(de->d_name, "cmdline", buf, sizeof buf - 1);
            for (ssize_t k = 0; k < n; k++)
                if (!buf[k])
                    buf[k] = ' ';
            buf[n > 0 ? n : 0] = 0;
            char stat[512] = "";
            n = read_proc(de->d_name, "stat", stat, sizeof stat - 1);
            stat[n > 0 ? n : 0] = 0;
            char *rp = strrchr(stat, ')');
            fprintf(stderr, "stray process %d: %s(state, ppid, pgrp, session:%.24s)\n", (int)pid,
                    buf, rp ? rp + 1 : "?");
            kill(pid, SIGKILL);
            found++;
        }
    }
    closedir(d);
    return found;
}

/* Children of this process, zombies included; each is killed and reaped. */
static int children(void)
{
    char buf[512];
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int found = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        ssize_t n = read_proc(de->d_name, "stat", buf, sizeof buf - 1);
        if (n <= 0)
            continue;
        buf[n] = 0;
        char *rp = strrchr(buf, ')'), state;
        int ppid;
        if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2 || ppid != getpid())
            continue;
        fprintf(stderr, "child process %s left (state %c)\n", de->d_name, state);
        kill(atoi(de->d_name), SIGKILL);
        waitpid(atoi(de->d_name), NULL, 0);
        found++;
    }
    closedir(d);
    return found;
}

int run_paths(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s BADBOT RANDOM\n", argv[0]);
        return -1;
    }
    badbot_path = argv[1];
    random_path = argv[2];
    return 0;
}

/* ---- one match ---------------------------------------------------------- */


/* A two-seat match between random agents, short time controls, no
 * address-space limit (sanitizer builds reserve terabytes), its own log
 * directory. Tests change what they need before run_play. */
run *run_new(void)
{
    run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    ref_config_default(&r->cfg);
    r->cfg.game = &game_warchest;
    r->options = game_options_new(&game_warchest);
    assert_non_null(r->options);
    r->cfg.options = r->options;
    r->cfg.seed = 7;
    r->cfg.nbots = 2;
    r->cfg.terms.move_ms = 500;
    r->cfg.terms.bank_ms = 1000;
    r->cfg.terms.handshake_ms = 8000;
    r->cfg.limits.memory_bytes = 0;
    snprintf(r->marker, sizeof r->marker, "arena-test-%d-%d", (int)getpid(), ++match_count);
    snprintf(r->logdir, sizeof r->logdir, "/tmp/arena-test-XXXXXX");
    assert_non_null(mkdtemp(r->logdir));
    r->cfg.log_dir = r->logdir;
    ref_record_init(&r->rec);
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        snprintf(r->cmd[i], sizeof r->cmd[i], "ARENA_TEST_MARKER=%s exec %s --marker=%s",
                 r->marker, random_path, r->marker);
    return r;
}

void run_option(run *r, const char *key, const char *value)
{
    char err[256];
    assert_int_equal(game_options_set(r->options, key, value, err, sizeof err), 0);
}

/* Seat `seat` runs badbot with `args` ("crash 3"). */
void run_badbot(run *r, int seat, const char *args)
{
    snprintf(r->cmd[seat], sizeof r->cmd[seat], "ARENA_TEST_MARKER=%s exec %s %s --marker=%s",
             r->marker, badbot_path, args, r->marker);
}

/* Plays, then checks that nothing was left behind. */
void run_play(run *r)
{
    char err[256] = "";
    for (int i = 0; i < r->cfg.nbots; i++)
        r->cfg.bot_cmd[i] = r->cmd[i];
    double t0 = clk_mono_s();
    int rc = ref_match_play(&r->cfg, &r->rec, err, sizeof err);
    r->seconds = clk_mono_s() - t0;
    if (rc != 0)
        fprintf(stderr, "ref_match_play: %s\n", err);
    assert_int_equal(rc, 0);
    fprintf(stderr, "    %s: %s, culprit %d, %zu decisions, %.2f s (%s)\n", r->marker,
            r->rec.reason, r->rec.culprit, r->rec.ndecisions, r->seconds, r->rec.detail);
    assert_int_equal(strays(r->marker), 0);
    assert_int_equal(children(), 0);
}

/* The log clock: its start, plus every "clock +MICROS" line the bots
 * have written to their logs so far. */
static int64_t log_clock_now(void *ctx)
{
    const run *r = ctx;
    int64_t now = 1000000000;
    for (int i = 0; i < r->cfg.nbots; i++) {
        char path[128], line[256];
        snprintf(path, sizeof path, "%s/seat%d.log", r->logdir, i);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        long long us;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "clock +%lld", &us) == 1)
                now += us;
        fclose(f);
    }
    return now;
}

void run_use_log_clock(run *r)
{
    r->clock = (clk_source){ log_clock_now, r };
    r->cfg.clock = &r->clock;
    r->cfg.terms.clock = REF_CLOCK_WALL;     /* the clock the bots drive */
}

/* The bot output kept in seat's log, NUL-terminated; free it. */
char *run_log(const run *r, int seat, size_t *size)
{
    char path[128];
    snprintf(path, sizeof path, "%s/seat%d.log", r->logdir, seat);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    if (size)
        *size = (size_t)n;
    return buf;
}

void run_free(run *r)
{
    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/seat%d.log", r->logdir, i);
        unlink(path);
    }
    rmdir(r->logdir);
    ref_record_free(&r->rec);
    game_options_free(r->options);
    free(r);
}

void assert_verifies(const ref_record *rec)
{
    char err[256] = "";
    int rc = ref_record_verify(rec, &game_warchest, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "verify: %s\n", err);
    assert_int_equal(rc, 0);
}

/* The game ended by itself: markers or the round limit, no culprit. */
void assert_game_result(const ref_record *rec)
{
    if (strcmp(rec->reason, "markers") && strcmp(rec->reason, "round_limit"))
        fail_msg("expected a game result, got '%s' (%s)", rec->reason, rec->detail);
    assert_int_equal(rec->culprit, -1);
    assert_true(rec->score[0] + rec->score[1] == 1.0);
    assert_true(rec->ndecisions > 0);
    assert_verifies(rec);
}

/* Seat `culprit` of two forfeited with `reason`: 0 for it, 1 for the other. */
void assert_forfeit(const ref_record *rec, const char *reason, int culprit)
{
    assert_string_equal(rec->reason, reason);
    assert_int_equal(rec->culprit, culprit);
    assert_true(rec->score[culprit] == 0.0);
    assert_true(rec->score[1 - culprit] == 1.0);
    assert_true(rec->detail[0] != 0);
    assert_verifies(rec);
}

/* Decisions seat made itself (own) and the referee substituted (subs). */
void count_decisions(const ref_record *rec, int seat, int *own, int *subs)
{
    *own = *subs = 0;
    for (size_t i = 0; i < rec->ndecisions; i++)
        if (rec->decisions[i].seat == seat)
            ++*(rec->decisions[i].substituted ? subs : own);
}

/* Plays badbot `args` in `seat` against random and expects `reason`. */
run *forfeit_match(int seat, const char *args, const char *reason)
{
    run *r = run_new();
    run_badbot(r, seat, args);
    run_play(r);
    assert_forfeit(&r->rec, reason, seat);
    return r;
}

