/*
 * gs.c - Goofspiel's rules (gs.h): dealing, bidding, settling a round,
 * scores, the hash and the notation of a bid.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "gs.h"

void gs_options_default(gs_options *o)
{
    memset(o, 0, sizeof *o);
    o->players = 2;
    o->cards = 13;
    o->prizes = GS_PRIZES_RANDOM;
    o->tie = GS_TIE_DISCARD;
    o->reveal = GS_REVEAL_BIDS;
}

const char *gs_options_invalid(const gs_options *o)
{
    if (o->players < 2 || o->players > GS_MAX_SEATS)
        return "players must be from 2 to 4";
    if (o->cards < 1 || o->cards > GS_MAX_CARDS)
        return "cards must be from 1 to 26";
    if (o->prizes > GS_PRIZES_DESCENDING || o->tie > GS_TIE_SPLIT || o->reveal > GS_REVEAL_WINNER)
        return "unknown prize order, tie rule or reveal rule";
    return NULL;
}

const char *gs_init(gs_state *s, const gs_options *o, uint64_t seed)
{
    const char *why = gs_options_invalid(o);
    if (why)
        return why;
    memset(s, 0, sizeof *s);            /* padding too: the hash reads bytes */
    s->opt = *o;
    int k = o->cards;
    for (int i = 0; i < k; i++)
        s->prize[i] = (uint8_t)(o->prizes == GS_PRIZES_DESCENDING ? k - i : i + 1);
    if (o->prizes == GS_PRIZES_RANDOM) {
        pcg32 rng;
        pcg32_seed(&rng, seed, 0x474f4f46ULL);          /* "GOOF" */
        for (int i = k - 1; i > 0; i--) {              /* Fisher-Yates */
            int j = (int)pcg32_below(&rng, (uint32_t)i + 1);
            uint8_t t = s->prize[i];
            s->prize[i] = s->prize[j];
            s->prize[j] = t;
        }
    }
    for (int p = 0; p < o->players; p++)
        s->hand[p] = (1u << k) - 1;
    memset(s->winner, GS_NONE, sizeof s->winner);
    s->to_move = 0;
    return NULL;
}

int gs_legal(const gs_state *s, uint8_t *out)
{
    if (gs_is_over(s))
        return 0;
    int n = 0;
    for (int v = 1; v <= s->opt.cards; v++)
        if (s->hand[s->to_move] & (1u << (v - 1)))
            out[n++] = (uint8_t)v;
    return n;
}

/* Every bid of the round is in: the highest takes the prize. */
static void settle(gs_state *s)
{
    const uint8_t *bid = s->bid[s->round];
    int best = 0, nbest = 0;
    for (int p = 0; p < s->opt.players; p++) {
        if (bid[p] > best) {
            best = bid[p];
            nbest = 0;
        }
        nbest += bid[p] == best;
    }
    uint32_t value = (uint32_t)s->prize[s->round] * GS_UNIT;
    if (nbest == 1) {
        for (int p = 0; p < s->opt.players; p++)
            if (bid[p] == best) {
                s->winner[s->round] = (uint8_t)p;
                s->points[p] += value;
            }
    } else if (s->opt.tie == GS_TIE_SPLIT) {
        for (int p = 0; p < s->opt.players; p++)
            if (bid[p] == best)
                s->points[p] += value / (uint32_t)nbest;
    }
    s->round++;
}

void gs_apply(gs_state *s, int card)
{
    assert(!gs_is_over(s) && card >= 1 && card <= s->opt.cards);
    assert(s->hand[s->to_move] & (1u << (card - 1)));
    s->hand[s->to_move] &= ~(1u << (card - 1));
    s->bid[s->round][s->to_move] = (uint8_t)card;
    if (++s->to_move < s->opt.players)
        return;
    settle(s);
    s->to_move = gs_is_over(s) ? GS_NONE : 0;
}

void gs_scores(const gs_state *s, double score[GS_MAX_SEATS])
{
    uint32_t best = 0;
    int nbest = 0;
    for (int p = 0; p < s->opt.players; p++)
        best = s->points[p] > best ? s->points[p] : best;
    for (int p = 0; p < s->opt.players; p++)
        nbest += s->points[p] == best;
    for (int p = 0; p < s->opt.players; p++)
        score[p] = s->points[p] == best ? 1.0 / nbest : 0.0;
}

/* FNV-1a over the state's bytes (zeroed padding: gs_init memsets). */
uint64_t gs_hash(const gs_state *s)
{
    const unsigned char *b = (const unsigned char *)s;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < sizeof *s; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

int gs_format(int card, char *buf, size_t size)
{
    return card ? snprintf(buf, size, "bid %d", card) : snprintf(buf, size, "bid ?");
}

int gs_parse(const char *text, int *card)
{
    int v = 0, digits = 0;
    if (strncmp(text, "bid ", 4) != 0)
        return -1;
    for (const char *p = text + 4; *p; p++, digits++) {
        if (*p < '0' || *p > '9' || digits == 2)
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (!digits || v < 1 || v > GS_MAX_CARDS || (text[4] == '0'))
        return -1;
    *card = v;
    return 0;
}

void gs_scramble_hidden(gs_state *s, int seat, pcg32 *rng)
{
    if (gs_is_over(s))
        return;                         /* no round in progress, no prize to come */
    for (int i = s->opt.cards - 1; i > s->round + 1; i--) {
        int j = s->round + 1 + (int)pcg32_below(rng, (uint32_t)(i - s->round));
        uint8_t t = s->prize[i];
        s->prize[i] = s->prize[j];
        s->prize[j] = t;
    }
    for (int p = 0; p < s->opt.players; p++) {
        uint8_t *bid = &s->bid[s->round][p];
        if (p == seat || !*bid || !s->hand[p])
            continue;
        int k = (int)pcg32_below(rng, (uint32_t)__builtin_popcount(s->hand[p])), v = 0;
        for (uint32_t m = s->hand[p]; m; m &= m - 1)
            if (k-- == 0)
                v = __builtin_ctz(m) + 1;
        assert(v > 0);                  /* k is below the hand's size */
        s->hand[p] = (s->hand[p] & ~(1u << (v - 1))) | (1u << (*bid - 1));
        *bid = (uint8_t)v;
    }
}
