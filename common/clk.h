/*
 * clk.h - the one clock of the programs.
 *
 * Deadlines, durations and benchmarks read the monotonic clock; what
 * records and the database show reads the wall clock. A time control (the
 * referee's decisions and its time bank) reads its time through a
 * clk_source: the monotonic clock, unless a test gives its own. The
 * referee's tests drive one from their bots, so that what a decision
 * costs the bank is an exact number, not a range.
 */
#ifndef CLK_H
#define CLK_H

#include <stdint.h>

/* A source of monotonic microseconds. */
typedef struct clk_source {
    int64_t (*now_us)(void *ctx);
    void *ctx;
} clk_source;

/* The source's time; with src NULL, clk_mono_us(). */
int64_t clk_now_us(const clk_source *src);

int64_t clk_mono_us(void);          /* CLOCK_MONOTONIC */
int64_t clk_mono_ms(void);
double  clk_mono_s(void);
int64_t clk_wall_ms(void);          /* Unix time, for records */
void    clk_sleep_ms(int64_t ms);   /* the whole time, signals or not */

#endif
