/*
 * wc_hash.c - a 64-bit fingerprint of everything that decides a state's
 * future: options, generator, counters, every coin zone, the board, the
 * markers, the draft and the pending follow-ups. Derived masks are left
 * out because they follow from the per-hex arrays.
 *
 * Each field is folded in turn through the SplitMix64 finalizer, so the
 * value depends only on field values, never on memory layout, padding or
 * byte order: the same game gives the same hash on every machine.
 */
#include "wc_internal.h"

static uint64_t fold(uint64_t h, uint64_t v)
{
    uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t fold_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        for (size_t j = i; j < n && j < i + 8; j++)
            w |= (uint64_t)p[j] << (8 * (j - i));
        h = fold(h, w);
    }
    return h;
}

uint64_t wc_hash(const wc_state *s)
{
    const wc_options *o = &s->opt;
    uint64_t h = 0x5741524348455354ULL;
    h = fold(h, o->players | o->setup << 8 | o->royal_guard << 16 |
                (uint64_t)o->round_limit << 24 | (uint64_t)o->initiative << 40);
    h = fold_bytes(h, &o->units[0][0], sizeof o->units);
    h = fold(h, s->rng.state);
    h = fold(h, s->rng.inc);
    h = fold(h, s->phase | s->nseats << 8 | s->turn << 16 | s->initiative << 24 |
                (uint64_t)s->claimed << 32 | (uint64_t)s->winner << 40 |
                (uint64_t)s->end_reason << 48 | (uint64_t)s->markers << 56);
    h = fold(h, s->round | (uint64_t)s->draft_pool << 16 |
                (uint64_t)s->draft_step << 32 | (uint64_t)s->draft_first << 40);
    h = fold_bytes(h, s->unit_owner, sizeof s->unit_owner);
    h = fold_bytes(h, &s->coins[0][0][0], sizeof s->coins);
    h = fold_bytes(h, s->hex_unit, sizeof s->hex_unit);
    h = fold_bytes(h, s->hex_coins, sizeof s->hex_coins);
    h = fold(h, s->control[0]);
    h = fold(h, s->control[1]);
    h = fold(h, s->nframes);
    for (int i = 0; i < s->nframes; i++) {
        const wc_frame *f = &s->frames[i];
        h = fold(h, f->kind | f->seat << 8 | f->unit << 16 | (uint64_t)f->hex << 24 |
                    (uint64_t)f->arg << 32);
    }
    return h;
}
