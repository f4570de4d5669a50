/*
 * pcg.h - PCG32, the one pseudo-random generator of the project.
 *
 * PCG32 (M. O'Neill, "PCG: A Family of Simple Fast Space-Efficient
 * Statistically Good Algorithms for Random Number Generation", 2014), the
 * XSH-RR output on a 64-bit LCG with multiplier 6364136223846793005. The
 * state is 16 bytes that copy with `=`, so a game state holding one copies
 * its future. Bounded draws reject the low, biased tail so every value in
 * [0, n) is exactly equally likely; the sequence is the same on every
 * machine. The engines, the bench and the sample bots all draw from it.
 */
#ifndef PCG_H
#define PCG_H

#include <assert.h>
#include <stdint.h>

typedef struct pcg32 { uint64_t state, inc; } pcg32;

static inline uint32_t pcg32_next(pcg32 *g)
{
    uint64_t old = g->state;
    g->state = old * 6364136223846793005ULL + g->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

/* The reference seeding: stream from `seq`, then two steps around `seed`. */
static inline void pcg32_seed(pcg32 *g, uint64_t seed, uint64_t seq)
{
    g->state = 0;
    g->inc = (seq << 1) | 1;
    pcg32_next(g);
    g->state += seed;
    pcg32_next(g);
}

/* Uniform in [0, n), n >= 1. */
static inline uint32_t pcg32_below(pcg32 *g, uint32_t n)
{
    assert(n >= 1);
    uint32_t threshold = (uint32_t)(-n) % n;
    for (;;) {
        uint32_t r = pcg32_next(g);
        if (r >= threshold)
            return r % n;
    }
}

#endif
