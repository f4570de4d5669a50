/*
 * ref_terms.c - a match's terms: defaults, checks and flags (ref_terms.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "kv.h"
#include "ref_terms.h"

void ref_terms_default(ref_terms *t)
{
    memset(t, 0, sizeof *t);
    t->move_ms = 1000;
    t->bank_ms = 10000;
    t->handshake_ms = 10000;
    t->memory_mb = -1;
    t->clock = REF_CLOCK_CPU;
    t->wall_ceiling_pct = 300;
}

int ref_terms_check(const ref_terms *t, char *err, size_t size)
{
    const char *bad = NULL;
    if (t->move_ms < 1 || t->move_ms > REF_TERMS_MS_MAX)
        bad = "move_ms";
    else if (t->bank_ms < 0 || t->bank_ms > REF_TERMS_MS_MAX)
        bad = "bank_ms";
    else if (t->handshake_ms < 1 || t->handshake_ms > REF_TERMS_MS_MAX)
        bad = "handshake_ms";
    else if (t->strikes < 0 || t->strikes > REF_TERMS_STRIKES_MAX)
        bad = "strikes";
    else if (t->memory_mb < -1 || t->memory_mb > REF_TERMS_MEMORY_MB_MAX)
        bad = "memory_mb";
    else if (t->clock != REF_CLOCK_CPU && t->clock != REF_CLOCK_WALL)
        bad = "clock";
    else if (t->wall_ceiling_pct < 100 || t->wall_ceiling_pct > REF_WALL_CEILING_MAX * 100)
        bad = "wall ceiling";
    else if (t->ponder != 0 && t->ponder != 1)
        bad = "ponder";
    if (bad)
        snprintf(err, size, "the terms' %s is out of its range", bad);
    return bad ? -1 : 0;
}

double ref_terms_wall_ceiling(const ref_terms *t)
{
    return t->wall_ceiling_pct / 100.0;
}

uint64_t ref_terms_memory_bytes(const ref_terms *t, uint64_t dflt)
{
    return t->memory_mb < 0 ? dflt : (uint64_t)t->memory_mb << 20;
}

int ref_clock_mode_parse(const char *text, ref_clock_mode *out)
{
    if (!strcmp(text, "cpu"))
        *out = REF_CLOCK_CPU;
    else if (!strcmp(text, "wall"))
        *out = REF_CLOCK_WALL;
    else
        return -1;
    return 0;
}

const char *ref_clock_mode_name(ref_clock_mode mode)
{
    return mode == REF_CLOCK_WALL ? "wall" : "cpu";
}

/* ---- flags --------------------------------------------------------------- */

static int set_clock(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    if (ref_clock_mode_parse(value, &((ref_terms *)ctx)->clock) == 0)
        return 0;
    snprintf(err, size, "%s must be cpu or wall, not '%s'", flag, value);
    return -1;
}

/* A factor on the command line, a whole percent in the terms: what the
 * tournament row stores and the worker link carries. */
static int set_ceiling(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    double x;
    if (kv_f64(value, 1, REF_WALL_CEILING_MAX, &x) < 0) {
        snprintf(err, size, "%s wants a number from 1 to %g, not '%s'", flag,
                 REF_WALL_CEILING_MAX, value);
        return -1;
    }
    ((ref_terms *)ctx)->wall_ceiling_pct = (int)(x * 100 + 0.5);
    return 0;
}

void ref_terms_flags(ref_terms *t, cli_flag rows[REF_TERMS_FLAGS + 1])
{
    const cli_flag flags[REF_TERMS_FLAGS + 1] = {
        CLI_NUM("--move-ms", CLI_I64, "N", "time per decision (default 1000)", &t->move_ms, 1,
                REF_TERMS_MS_MAX),
        CLI_NUM("--bank-ms", CLI_I64, "N", "time bank for overruns (default 10000)", &t->bank_ms,
                0, REF_TERMS_MS_MAX),
        CLI_NUM("--handshake-ms", CLI_I64, "N", "time from start to hello (default 10000)",
                &t->handshake_ms, 1, REF_TERMS_MS_MAX),
        CLI_NUM("--strikes", CLI_INT, "N", "0: forfeit at the first illegal action or timeout; "
                "N: a random legal action instead, forfeit at the N-th", &t->strikes, 0,
                REF_TERMS_STRIKES_MAX),
        CLI_NUM("--memory-mb", CLI_I64, "N", "real memory of each bot (its cgroup; without one, "
                "its address space, which sanitizer builds of bots need lifted with 0) "
                "(default 2048; 0: no limit)", &t->memory_mb, 0, REF_TERMS_MEMORY_MB_MAX),
        CLI_CALL("--clock", "cpu|wall", "what a decision is charged: the CPU time of all the "
                 "bot's processes and threads or the wall time it did not wait for a CPU, "
                 "whichever is more (default), or wall time", set_clock, t),
        CLI_CALL("--wall-ceiling", "X", "--clock cpu: a decision starved of CPU ends after "
                 "10 x X times its time (move + bank left) in wall time (default 3)",
                 set_ceiling, t),
        CLI_ARG("--ponder", CLI_SWITCH, NULL, "let bots run between their turns (default: "
                "that CPU is charged to their next decision, and frozen there once seen "
                "pondering)", &t->ponder),
        CLI_END,
    };
    memcpy(rows, flags, sizeof flags);
}
