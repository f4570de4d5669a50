/*
 * test_arena_events.c - Swiss and knockout (arena_events.c, pure): pairings
 * from hand-made standings, byes, tie-breaks, and rounds replayed from
 * stored scores.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "arena_events.h"

static const int identity[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

static void meet(unsigned char *met, int n, int a, int b)
{
    met[a * n + b] = met[b * n + a] = 1;
}

/* Down the ranking; a bot meets the next one it has not met. */
static void swiss_pairs_down_the_ranking(void **state)
{
    (void)state;
    unsigned char met[36] = { 0 };
    int had_bye[6] = { 0 }, ranked[6] = { 3, 1, 4, 0, 5, 2 }, pair[6], rematches;
    assert_int_equal(arena_swiss_pair(6, ranked, met, had_bye, pair, &rematches), -1);
    int want[6] = { 3, 1, 4, 0, 5, 2 };
    assert_memory_equal(pair, want, sizeof want);
    assert_int_equal(rematches, 0);
    meet(met, 6, 3, 1);                /* 3 met 1: 3 floats down to 4 */
    assert_int_equal(arena_swiss_pair(6, ranked, met, had_bye, pair, &rematches), -1);
    int want2[6] = { 3, 4, 1, 0, 5, 2 };
    assert_memory_equal(pair, want2, sizeof want2);
    assert_int_equal(rematches, 0);
}

/* A greedy pairing would strand the last two, who met: backtracking finds
 * the pairing without a rematch. */
static void swiss_backtracks_to_avoid_a_rematch(void **state)
{
    (void)state;
    unsigned char met[16] = { 0 };
    int had_bye[4] = { 0 }, pair[4], rematches;
    meet(met, 4, 2, 3);                /* greedy: 0-1, then 2-3 again */
    assert_int_equal(arena_swiss_pair(4, identity, met, had_bye, pair, &rematches), -1);
    int want[4] = { 0, 2, 1, 3 };
    assert_memory_equal(pair, want, sizeof want);
    assert_int_equal(rematches, 0);
}

/* Everyone has met everyone: the documented fallback pairs straight down. */
static void swiss_falls_back_to_rematches(void **state)
{
    (void)state;
    unsigned char met[16] = { 0 };
    int had_bye[4] = { 0 }, pair[4], rematches;
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            meet(met, 4, a, b);
    arena_swiss_pair(4, identity, met, had_bye, pair, &rematches);
    int want[4] = { 0, 1, 2, 3 };
    assert_memory_equal(pair, want, sizeof want);
    assert_int_equal(rematches, 2);
}

/* The bye: the lowest-ranked bot without one yet. */
static void swiss_bye_to_the_lowest_without_one(void **state)
{
    (void)state;
    unsigned char met[25] = { 0 };
    int had_bye[5] = { 0 }, pair[4], rematches;
    assert_int_equal(arena_swiss_pair(5, identity, met, had_bye, pair, &rematches), 4);
    had_bye[4] = 1;
    assert_int_equal(arena_swiss_pair(5, identity, met, had_bye, pair, &rematches), 3);
    int want[4] = { 0, 1, 2, 4 };
    assert_memory_equal(pair, want, sizeof want);
    for (int i = 0; i < 5; i++)
        had_bye[i] = 1;
    assert_int_equal(arena_swiss_pair(5, identity, met, had_bye, pair, &rematches), 4);
}

/* Stores every game of the current round: the bot in `winners` (a bit
 * per entrant) wins; neither: seat 0 wins. */
static void play_round(arena_event *ev, arena_event_score *scores, unsigned winners)
{
    for (int i = 0; i < ev->ngames; i++) {
        const arena_game *g = &ev->game[i];
        int w = (winners >> g->seat[1]) & 1;
        scores[g->index] = (arena_event_score){ 1, { w ? 0.0 : 1.0, w ? 1.0 : 0.0 } };
    }
}

/* Three bots, 2 rounds of one seed pair each: byes score a draw's worth,
 * and the ranking breaks a points tie by Buchholz, then the seed order. */
static void swiss_replays_rounds_byes_and_tie_breaks(void **state)
{
    (void)state;
    const char *why;
    int size = arena_event_size(ARENA_SWISS, 3, 2, 2, &why);
    assert_int_equal(size, 2 * 1 * 2);
    arena_event_score *scores = calloc((size_t)size, sizeof *scores);
    arena_event ev;
    int seeds[3] = { 2, 0, 1 };         /* entrant 2 is the top seed */
    arena_event_replay(ARENA_SWISS, 3, 2, 2, 9, seeds, scores, &ev);
    assert_int_equal(ev.round, 0);
    assert_int_equal(ev.ngames, 2);
    assert_int_equal(ev.bye_bot, 1);    /* the lowest seed sits out */
    assert_int_equal(ev.game[0].seat[0], 2);
    assert_int_equal(ev.game[0].seat[1], 0);
    assert_int_equal(ev.game[1].seat[0], 0);   /* the seed pair: seats swapped */
    assert_int_equal(ev.game[1].seat[1], 2);
    assert_true(ev.game[0].seed == ev.game[1].seed);
    /* 1-1: each wins with seat 0 */
    for (int i = 0; i < 2; i++)
        scores[ev.game[i].index] = (arena_event_score){ 1, { 1, 0 } };
    arena_event_replay(ARENA_SWISS, 3, 2, 2, 9, seeds, scores, &ev);
    assert_int_equal(ev.round, 1);
    assert_int_equal(ev.points[1], 1.0);       /* the bye: games / 2 */
    assert_int_equal(ev.points[0], 1.0);
    assert_int_equal(ev.points[2], 1.0);
    /* all on 1 point, Buchholz 1 for 0 and 2, 0 for the bye: seeds decide
     * 2 above 0; the bye goes to the lowest without one, entrant 0 */
    assert_int_equal(ev.bye_bot, 0);
    assert_int_equal(ev.game[0].index, 2);
    assert_int_equal(ev.game[0].seat[0], 2);
    assert_int_equal(ev.game[0].seat[1], 1);
    play_round(&ev, scores, 1u << 1);          /* 1 beats 2 twice */
    arena_event_replay(ARENA_SWISS, 3, 2, 2, 9, seeds, scores, &ev);
    assert_true(ev.done);
    assert_int_equal(ev.ngames, 0);
    assert_int_equal(ev.points[1], 3.0);
    assert_int_equal(ev.points[0], 2.0);
    assert_int_equal(ev.points[2], 1.0);
    int want[3] = { 1, 0, 2 };
    assert_memory_equal(ev.rank, want, sizeof want);
    /* Buchholz: the points of the opponents met (2 met both: 3 + 2),
     * byes none; never the bot's own points. */
    assert_true(ev.buchholz[0] == 1.0 && ev.buchholz[1] == 1.0 && ev.buchholz[2] == 5.0);
    assert_int_equal(ev.byes[0], 1);
    assert_int_equal(ev.byes[1], 1);
    free(scores);
}

/* Five bots: a bracket of 8, the top three seeds have byes; 1 and 2 can
 * only meet in the final. */
static void knockout_bracket_and_byes(void **state)
{
    (void)state;
    const char *why;
    int size = arena_event_size(ARENA_KNOCKOUT, 5, 2, 0, &why);
    assert_int_equal(size, 4 * (2 + 2 * ARENA_KO_EXTRA_PAIRS));
    arena_event_score *scores = calloc((size_t)size, sizeof *scores);
    arena_event ev;
    int seeds[5] = { 4, 3, 2, 1, 0 };   /* entrant 4 is seed 1 */
    arena_event_replay(ARENA_KNOCKOUT, 5, 2, 0, 1, seeds, scores, &ev);
    /* round 1: seed 4 v seed 5 only (entrants 1 and 0), the higher in seat 0 */
    assert_int_equal(ev.ngames, 2);
    assert_int_equal(ev.game[0].seat[0], 1);
    assert_int_equal(ev.game[0].seat[1], 0);
    assert_int_equal(ev.byes[4] + ev.byes[3] + ev.byes[2], 3);
    play_round(&ev, scores, 1u << 0);         /* seed 5 wins */
    arena_event_replay(ARENA_KNOCKOUT, 5, 2, 0, 1, seeds, scores, &ev);
    assert_int_equal(ev.out_in[1], 0);
    assert_int_equal(ev.round, 1);
    /* semifinals: seed 1 v seed 5 (entrant 0), seed 2 v seed 3 */
    assert_int_equal(ev.ngames, 4);
    assert_int_equal(ev.game[0].index, 6);     /* after round 1's tie of 6 slots */
    assert_int_equal(ev.game[0].seat[0], 4);
    assert_int_equal(ev.game[0].seat[1], 0);
    assert_int_equal(ev.game[2].seat[0], 3);
    assert_int_equal(ev.game[2].seat[1], 2);
    play_round(&ev, scores, 1u << 4 | 1u << 3);   /* the higher seeds win */
    arena_event_replay(ARENA_KNOCKOUT, 5, 2, 0, 1, seeds, scores, &ev);
    assert_int_equal(ev.round, 2);
    assert_int_equal(ev.game[0].seat[0], 4);
    assert_int_equal(ev.game[0].seat[1], 3);
    play_round(&ev, scores, 1u << 3);         /* seed 2 wins the final */
    arena_event_replay(ARENA_KNOCKOUT, 5, 2, 0, 1, seeds, scores, &ev);
    assert_true(ev.done);
    int want[5] = { 3, 4, 2, 0, 1 };           /* winner, finalist, semis by seed, round 1 */
    assert_memory_equal(ev.rank, want, sizeof want);
    free(scores);
}

/* A level tie: another seed pair, with a fresh seed; level through every
 * tie-break pair: the higher seed goes on. */
static void knockout_level_ties(void **state)
{
    (void)state;
    arena_event_score scores[2 + 2 * ARENA_KO_EXTRA_PAIRS] = { 0 };
    arena_event ev;
    int seeds[2] = { 1, 0 };
    arena_event_replay(ARENA_KNOCKOUT, 2, 2, 0, 5, seeds, scores, &ev);
    assert_int_equal(ev.ngames, 2);
    for (int pair = 0; pair <= ARENA_KO_EXTRA_PAIRS; pair++) {
        uint64_t seed = ev.game[0].seed;
        for (int i = 0; i < ev.ngames; i++)    /* 1-1: seat 0 wins each */
            scores[ev.game[i].index] = (arena_event_score){ 1, { 1, 0 } };
        arena_event_replay(ARENA_KNOCKOUT, 2, 2, 0, 5, seeds, scores, &ev);
        if (pair == ARENA_KO_EXTRA_PAIRS)
            break;
        assert_false(ev.done);
        assert_int_equal(ev.ngames, 2);
        assert_int_equal(ev.game[0].index, 2 + 2 * pair);
        assert_int_equal(ev.game[0].seat[0], 1);   /* the higher seed first */
        assert_true(ev.game[0].seed != seed);
    }
    assert_true(ev.done);
    assert_int_equal(ev.out_in[0], 0);         /* the lower seed is out */
    assert_int_equal(ev.out_in[1], -1);
    /* a tie-break pair won 2-0 decides at once */
    memset(scores, 0, sizeof scores);
    scores[0] = scores[1] = (arena_event_score){ 1, { 0.5, 0.5 } };
    scores[2] = (arena_event_score){ 1, { 0, 1 } };
    scores[3] = (arena_event_score){ 1, { 1, 0 } };   /* entrant 0 in seat 0 */
    arena_event_replay(ARENA_KNOCKOUT, 2, 2, 0, 5, seeds, scores, &ev);
    assert_true(ev.done);
    assert_int_equal(ev.out_in[1], 0);
}

static void sizes_and_bad_input(void **state)
{
    (void)state;
    const char *why;
    assert_int_equal(arena_event_size(ARENA_SWISS, 7, 4, 3, &why), 3 * 3 * 4);
    assert_int_equal(arena_event_size(ARENA_SWISS, 7, 3, 3, &why), -1);
    assert_int_equal(arena_event_size(ARENA_SWISS, 7, 22, 3, &why), -1);
    assert_int_equal(arena_event_size(ARENA_SWISS, 7, 2, 0, &why), -1);
    assert_int_equal(arena_event_size(ARENA_SWISS, 1, 2, 1, &why), -1);
    assert_int_equal(arena_event_size(ARENA_KNOCKOUT, 65, 2, 0, &why), -1);
    assert_int_equal(arena_event_size(ARENA_ROUND_ROBIN, 4, 2, 0, &why), -1);
    assert_int_equal(arena_format_parse("swiss"), ARENA_SWISS);
    assert_int_equal(arena_format_parse("knockout"), ARENA_KNOCKOUT);
    assert_int_equal(arena_plan_size(ARENA_SWISS, 2, 4, 2, &why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(swiss_pairs_down_the_ranking),
        cmocka_unit_test(swiss_backtracks_to_avoid_a_rematch),
        cmocka_unit_test(swiss_falls_back_to_rematches),
        cmocka_unit_test(swiss_bye_to_the_lowest_without_one),
        cmocka_unit_test(swiss_replays_rounds_byes_and_tie_breaks),
        cmocka_unit_test(knockout_bracket_and_byes),
        cmocka_unit_test(knockout_level_ties),
        cmocka_unit_test(sizes_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
