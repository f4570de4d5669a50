/*
 * ref_terms.h - the terms a match is played under: its time control and
 * the limits its bots live with, in one struct.
 *
 * They are parsed once (ref_terms_flags: `referee play` and every `arena`
 * command that runs matches), checked once (ref_terms_check), and passed
 * down by value: in the arena's spec and its stored tournament row
 * (db/arena_db_tournament.c reads and writes the columns), in the worker
 * link's job (ref_link.c) and in the referee's ref_config. A new knob is a
 * member here with its default and its check, a flag row, a key in the
 * link's codec and a column in the tournament row's migration.
 */
#ifndef REF_TERMS_H
#define REF_TERMS_H

#include <stddef.h>
#include <stdint.h>
#include "cli.h"

/* What a decision is charged (the time control's clock).
 *   cpu:  the CPU time the bot used (its control group: every process and
 *         thread) or its wall time less the time it (and the referee)
 *         waited for a CPU, whichever is more (ref_meter_charge): a
 *         sleeping or blocked bot spends its time as a thinking one does;
 *         a bot is never charged for waiting for a CPU.
 *   wall: the time from request to answer, whatever the machine did. */
typedef enum ref_clock_mode { REF_CLOCK_CPU, REF_CLOCK_WALL } ref_clock_mode;

typedef struct ref_terms {
    int64_t  move_ms;             /* per decision, before the bank is touched */
    int64_t  bank_ms;             /* overruns draw from it; a decision taking longer
                                     than both is late, whenever its answer comes */
    int64_t  handshake_ms;        /* from start to hello */
    int      strikes;             /* 0: forfeit at once; N: random substitute, forfeit at N */
    int64_t  memory_mb;           /* each bot's real memory; -1: the referee's default
                                     (ref_config.limits), 0: no limit */
    ref_clock_mode clock;         /* default REF_CLOCK_CPU */
    int      wall_ceiling_pct;    /* cpu clock: a decision starved of CPU ends after
                                     REF_STARVED (10) x this percent of its time (move
                                     + bank left) of wall time, waits included, as
                                     `contended` if the machine caused it (default 300) */
    int      ponder;              /* 1: bots run between their turns; 0 (default):
                                     frozen (cgroup freezer) where the machine can,
                                     else that CPU is charged to their next decision */
} ref_terms;

/* The ranges ref_terms_check allows (and the flags take). */
#define REF_TERMS_MS_MAX          36000000     /* ten hours */
#define REF_TERMS_STRIKES_MAX     1000
#define REF_TERMS_MEMORY_MB_MAX   ((int64_t)1 << 30)
#define REF_WALL_CEILING_MAX      1000.0       /* x the decision's time */

/* 1000 ms a move, a 10 s bank, 10 s to say hello, no strikes, the
 * referee's memory limit, the CPU clock with a 3x wall ceiling, frozen. */
void ref_terms_default(ref_terms *t);
/* 0 when every term is in its range, or -1 with the first that is not. */
int  ref_terms_check(const ref_terms *t, char *err, size_t size);

/* The ceiling as a factor of the decision's time (3.0 for 300). */
double   ref_terms_wall_ceiling(const ref_terms *t);
/* The memory limit in bytes: the terms', or `dflt` for -1. */
uint64_t ref_terms_memory_bytes(const ref_terms *t, uint64_t dflt);

/* "cpu" or "wall"; 0, or -1 for anything else. */
int  ref_clock_mode_parse(const char *text, ref_clock_mode *out);
const char *ref_clock_mode_name(ref_clock_mode mode);

/* The flags that set *t, as rows of a cli.h table ending with CLI_END
 * (--move-ms, --bank-ms, --handshake-ms, --strikes, --memory-mb, --clock,
 * --wall-ceiling, --ponder): join them to a command's own (cli_join). */
#define REF_TERMS_FLAGS 8
void ref_terms_flags(ref_terms *t, cli_flag rows[REF_TERMS_FLAGS + 1]);

#endif
