/*
 * clk.c - the one clock of the programs (clk.h).
 */
#include <errno.h>
#include <time.h>
#include "clk.h"

static int64_t read_us(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int64_t clk_now_us(const clk_source *src)
{
    return src ? src->now_us(src->ctx) : clk_mono_us();
}

int64_t clk_mono_us(void)
{
    return read_us(CLOCK_MONOTONIC);
}

int64_t clk_mono_ms(void)
{
    return read_us(CLOCK_MONOTONIC) / 1000;
}

double clk_mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int64_t clk_wall_ms(void)
{
    return read_us(CLOCK_REALTIME) / 1000;
}

void clk_sleep_ms(int64_t ms)
{
    if (ms <= 0)
        return;
    struct timespec t = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}
