/*
 * arena_fill.c - synthetic matches for benchmarks (arena_fill.h).
 */
#include <stdio.h>
#include <string.h>
#include "arena_fill.h"

#define FORFEIT_ONE_IN 50

uint64_t arena_fill_rand(uint64_t *rng)
{
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return *rng;
}

void arena_fill_match(arena_match *m, int bots, int64_t retired, uint64_t *rng)
{
    static const double side[3] = {0, 0.5, 1};
    memset(m, 0, sizeof *m);
    int r = (int)(arena_fill_rand(rng) % 10);
    m->seats = r < 8 ? 2 : r == 8 ? 3 : 4;
    snprintf(m->game, sizeof m->game, m->seats == 3 ? "trio" : "duel");
    for (int i = 0; i < m->seats; i++) {
        int fresh;
        do {
            m->bot[i] = 1 + (int64_t)(arena_fill_rand(rng) % (uint64_t)bots);
            fresh = 1;
            for (int j = 0; j < i; j++)
                fresh &= m->bot[j] != m->bot[i];
        } while (!fresh);
        m->team[i] = m->seats == 4 ? i % 2 : i;
    }
    if (retired && m->seats == 2)           /* a seat the other bots never take */
        m->bot[0] = retired;
    double s = side[arena_fill_rand(rng) % 3];
    m->culprit = -1;
    snprintf(m->reason, sizeof m->reason, "markers");
    if (m->seats != 3 && arena_fill_rand(rng) % FORFEIT_ONE_IN == 0) {
        m->culprit = (int)(arena_fill_rand(rng) % (uint64_t)m->seats);
        s = m->team[m->culprit] == 0 ? 0 : 1;       /* the culprit's team loses */
        snprintf(m->reason, sizeof m->reason, "timeout");
        snprintf(m->detail, sizeof m->detail, "seat %d went over its move time", m->culprit);
    }
    for (int i = 0; i < m->seats; i++)
        m->score[i] = m->seats == 3 ? (i == 0 ? s : 0) : (m->team[i] == 0 ? s : 1 - s);
    m->game_index = -1;
    m->seed = arena_fill_rand(rng);
    m->hash = arena_fill_rand(rng);
    m->decisions = 100;
    m->elo_k = 16;
    snprintf(m->options, sizeof m->options, "players=%d", m->seats);
}
