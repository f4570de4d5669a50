/*
 * test_search.c - the search bots' pure core (agents/search): ISMCTS plays
 * only legal actions in 2- and 4-player games, repeats itself exactly from
 * a seed, stops at its playout count or its deadline, survives a full
 * tree, takes an immediate win and stops an immediate loss in hand-made
 * positions; so does the alpha-beta search (ws_pimc); the rollouts return
 * values in [0, 1]; the time budget never spends what the time control
 * does not give.
 */
#include <stdio.h>
#include <string.h>
#include "wct.h"
#include "wc_rng.h"
#include "ws_budget.h"
#include "ws_eval.h"
#include "ws_ismcts.h"
#include "ws_pimc.h"
#include "ws_rollout.h"

static wc_action acts[WC_MAX_ACTIONS];
static ws_tree *tree;

static int setup(void **state) { (void)state; tree = ws_tree_new(1 << 17); return tree ? 0 : -1; }
static int teardown(void **state) { (void)state; ws_tree_free(tree); return 0; }

static ws_ismcts_config config(int policy)
{
    ws_ismcts_config c;
    ws_ismcts_default(&c);
    c.rollout.policy = policy;
    return c;
}

/* Searches the position for its mover, by ISMCTS (depth 0, a budget of
 * playouts) or by alpha-beta to `depth` (a budget of determinizations),
 * and returns the chosen action's text. */
static const char *choose_by(const wc_state *s, int depth, uint64_t budget, uint64_t seed,
                             ws_report *rep)
{
    static char text[64];
    wc_observation o;
    wc_observe(s, wc_to_move(s), &o);
    int n = wc_legal_actions(s, acts);
    ws_ismcts_config c = config(WS_ROLLOUT_KIND);
    ws_pimc_config ab = { depth };
    ws_limits lim = { budget, -1, NULL };
    int i = depth ? ws_pimc_search(&o, acts, n, &ab, &lim, seed, rep)
                  : ws_ismcts_search(tree, &o, acts, n, &c, &lim, seed, rep);
    assert_true(i >= 0 && i < n);
    wc_action_format(&acts[i], text, sizeof text);
    return text;
}

static const char *choose(const wc_state *s, uint64_t playouts, uint64_t seed, ws_report *rep)
{
    return choose_by(s, 0, playouts, seed, rep);
}

/* Side A holds 5 of its 6 locations; its Knight stands on a sixth. */
static void win_in_one(wc_state *s)
{
    wct_position(s, "knight archer", "scout pikeman");
    for (const char *const *h = (const char *const[]){ "d4", "e5", "g3", NULL }; *h; h++)
        wct_control(s, *h, 0);                   /* with e2 and h1: 5 of 6 */
    wct_put(s, "i2", "knight", 1);
    wct_put(s, "f4", "scout", 2);
    wct_give(s, 0, WC_HAND, "knight archer royal");
    wct_give(s, 1, WC_HAND, "scout pikeman pikeman");
}

/* Side B needs one more location and its Scout stands on i2 with coins to
 * take it in every deal; only the Knight's attack stops it. */
static void loss_in_one(wc_state *s)
{
    wct_position(s, "knight archer", "scout pikeman");
    wct_control(s, "g3", 0);
    for (const char *const *h = (const char *const[]){ "c6", "d4", "e5", NULL }; *h; h++)
        wct_control(s, *h, 1);                   /* with d7 and g6: 5 of 6 */
    wct_put(s, "h2", "knight", 2);
    wct_put(s, "i2", "scout", 1);
    wct_give(s, 0, WC_HAND, "knight archer");
    wct_give(s, 1, WC_HAND, "scout scout");      /* its Royal Coin is in its bag */
}

static void takes_an_immediate_win(void **state)
{
    (void)state;
    wc_state s;
    win_in_one(&s);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ws_report rep;
        assert_string_equal(choose(&s, 400, seed, &rep), "control knight i2");
        assert_true(rep.value > 0.99);
    }
}

static void stops_an_immediate_loss(void **state)
{
    (void)state;
    wc_state s;
    loss_in_one(&s);
    ws_report rep;
    assert_string_equal(choose(&s, 3000, 7, &rep), "attack knight h2 x i2");
}

static void team_takes_an_immediate_win(void **state)
{
    (void)state;
    wc_state s;
    wct_position4(&s, "knight", "scout", "archer", "pikeman");
    for (const char *const *h = (const char *const[]){ "d4", "e5", "g3", "h4", NULL }; *h; h++)
        wct_control(&s, *h, 0);                  /* with b5, e2 and h1: 7 of 8 */
    wct_put(&s, "i2", "knight", 1);
    wct_give(&s, 0, WC_HAND, "knight royal");
    wct_give(&s, 1, WC_HAND, "scout");
    ws_report rep;
    assert_string_equal(choose(&s, 400, 3, &rep), "control knight i2");
}

/* Random 2- and 4-player games: at every few decisions the search answers
 * with one of the mover's legal actions (the engine asserts that every
 * action applied inside the search is legal too), with values in [0, 1]. */
static void plays_legal_actions(void **state)
{
    (void)state;
    static wc_action real[WC_MAX_ACTIONS];
    for (int players = 2; players <= 4; players += 2)
        for (uint64_t g = 0; g < 6; g++) {
            wc_options opt;
            wc_options_default(&opt);
            opt.players = (uint8_t)players;
            opt.setup = g % 3 == 2 ? WC_SETUP_DRAFT : WC_SETUP_DEALT;
            wc_state s;
            assert_null(wc_init(&s, &opt, 77 + g));
            wc_rng rng;
            wc_rng_seed(&rng, g, 9);
            for (int step = 0; !wc_is_over(&s) && step < 400; step++) {
                int n = wc_legal_actions(&s, real);
                int pick = (int)wc_rng_below(&rng, (uint32_t)n);
                if (step % 9 == 0) {
                    wc_observation o;
                    wc_observe(&s, wc_to_move(&s), &o);
                    ws_ismcts_config c = config(step % 2 ? WS_ROLLOUT_KIND : WS_ROLLOUT_UNIFORM);
                    c.rollout.plies = step % 4 == 0 ? 12 : 0;
                    ws_limits lim = { 60, -1, NULL };
                    ws_report rep;
                    pick = ws_ismcts_search(tree, &o, real, n, &c, &lim, g + (uint64_t)step, &rep);
                    assert_true(pick >= 0 && pick < n);
                    assert_true(wc_is_legal(&s, &real[pick]));
                    assert_true(rep.value >= 0.0 && rep.value <= 1.0);
                    assert_int_equal(rep.playouts, 60);
                }
                wc_apply(&s, &real[pick]);
            }
        }
}

static void state_after(wc_state *s, int players, int plies)
{
    wc_options opt;
    wc_options_default(&opt);
    opt.players = (uint8_t)players;
    wc_init(s, &opt, 5);
    wc_rng rng;
    wc_rng_seed(&rng, 5, 5);
    for (int i = 0; i < plies && !wc_is_over(s); i++) {
        int n = wc_legal_actions(s, acts);
        wc_apply(s, &acts[ws_greedy_choose(s, acts, n, &rng)]);
    }
}

/* The mover's view after `plies` greedy decisions; its legal actions go
 * into acts[]; returns how many. */
static int mover_view(int players, int plies, wc_observation *o)
{
    wc_state s;
    state_after(&s, players, plies);
    wc_observe(&s, wc_to_move(&s), o);
    return wc_legal_actions(&s, acts);
}

static void repeats_itself_from_a_seed(void **state)
{
    (void)state;
    wc_state s;
    state_after(&s, 2, 25);
    ws_report a, b, c;
    char first[64];
    snprintf(first, sizeof first, "%s", choose(&s, 500, 11, &a));
    int n = wc_legal_actions(&s, acts);
    uint32_t visits_a[WC_MAX_ACTIONS];
    for (int i = 0; i < n; i++) {
        double mean;
        ws_ismcts_root_stats(tree, &acts[i], &visits_a[i], &mean);
    }
    assert_string_equal(choose(&s, 500, 11, &b), first);
    int same = 1;
    for (int i = 0; i < n; i++) {
        uint32_t v;
        double mean;
        ws_ismcts_root_stats(tree, &acts[i], &v, &mean);
        assert_int_equal(v, visits_a[i]);
    }
    assert_int_equal(a.nodes, b.nodes);
    assert_true(a.value == b.value);
    choose(&s, 500, 12, &c);                     /* another seed, another search */
    for (int i = 0; i < n; i++) {
        uint32_t v;
        double mean;
        ws_ismcts_root_stats(tree, &acts[i], &v, &mean);
        same &= v == visits_a[i];
    }
    assert_false(same);
}

static int64_t fake_now;
static int64_t fake_clock(void) { return fake_now += 1000; }   /* 1 ms a reading */

static void stops_at_its_budget(void **state)
{
    (void)state;
    wc_observation o;
    int n = mover_view(4, 30, &o);
    ws_ismcts_config c = config(WS_ROLLOUT_KIND);
    ws_report rep;
    ws_limits by_count = { 123, -1, NULL };
    ws_ismcts_search(tree, &o, acts, n, &c, &by_count, 1, &rep);
    assert_int_equal(rep.playouts, 123);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        uint32_t v;
        double mean;
        ws_ismcts_root_stats(tree, &acts[i], &v, &mean);
        sum += v;
    }
    assert_int_equal(sum, 123);                   /* every iteration went through the root */
    fake_now = 0;
    ws_limits by_clock = { 0, 40000, fake_clock };  /* one reading per iteration */
    ws_ismcts_search(tree, &o, acts, n, &c, &by_clock, 1, &rep);
    assert_int_equal(rep.playouts, 39);
    fake_now = 50000;                            /* already past the deadline */
    assert_int_equal(ws_ismcts_search(tree, &o, acts, n, &c, &by_clock, 1, &rep), -1);
    assert_int_equal(rep.playouts, 0);
    ws_limits both = { 10, 1000000000, fake_clock };
    fake_now = 0;
    ws_ismcts_search(tree, &o, acts, n, &c, &both, 1, &rep);
    assert_int_equal(rep.playouts, 10);
}

static void survives_a_full_tree(void **state)
{
    (void)state;
    ws_tree *small = ws_tree_new(8);
    assert_non_null(small);
    wc_observation o;
    int n = mover_view(2, 10, &o);
    ws_ismcts_config c = config(WS_ROLLOUT_KIND);
    ws_limits lim = { 300, -1, NULL };
    ws_report rep;
    int i = ws_ismcts_search(small, &o, acts, n, &c, &lim, 3, &rep);
    assert_true(i >= 0 && i < n);
    assert_int_equal(rep.playouts, 300);
    assert_int_equal(rep.nodes, 8);
    assert_true(rep.tree_full);
    ws_tree_free(small);
    assert_null(ws_tree_new(1));
}

/* A tree starts small and doubles: a fresh one and one already grown by
 * other searches give the same search, node for node. */
static void grows_as_needed(void **state)
{
    (void)state;
    wc_observation o;
    int n = mover_view(2, 20, &o);
    ws_ismcts_config c = config(WS_ROLLOUT_KIND);
    c.rollout.plies = 4;
    ws_limits lim = { 20000, -1, NULL };
    ws_report fresh_rep, used_rep;
    ws_tree *fresh = ws_tree_new(1 << 20);
    assert_non_null(fresh);
    int a = ws_ismcts_search(fresh, &o, acts, n, &c, &lim, 9, &fresh_rep);
    int b = ws_ismcts_search(tree, &o, acts, n, &c, &lim, 9, &used_rep);
    assert_int_equal(a, b);
    assert_int_equal(fresh_rep.nodes, 20001);
    assert_false(fresh_rep.tree_full);
    assert_int_equal(used_rep.nodes, fresh_rep.nodes);
    for (int i = 0; i < n; i++) {
        uint32_t v1, v2;
        double m1, m2;
        ws_ismcts_root_stats(fresh, &acts[i], &v1, &m1);
        ws_ismcts_root_stats(tree, &acts[i], &v2, &m2);
        assert_int_equal(v1, v2);
        assert_true(m1 == m2);
    }
    ws_tree_free(fresh);
}

static void rollouts_judge_in_range(void **state)
{
    (void)state;
    wc_rng rng;
    wc_rng_seed(&rng, 1, 1);
    for (int policy = 0; policy < WS_NROLLOUTS; policy++) {
        assert_int_equal(ws_rollout_by_name(ws_rollout_name(policy)), policy);
        for (int plies = 0; plies <= 30; plies += 30) {
            ws_rollout r;
            ws_rollout_default(&r);
            r.policy = policy;
            r.plies = plies;
            wc_state s;
            state_after(&s, 2, 6);
            double v = ws_rollout_run(&s, &r, &rng);
            assert_true(v >= 0.0 && v <= 1.0);
            assert_null(wc_check(&s));
            if (plies == 0) {                    /* to the end: a result */
                assert_true(wc_is_over(&s));
                assert_true(v == 0.0 || v == 0.5 || v == 1.0);
            }
        }
    }
    assert_int_equal(ws_rollout_by_name("smart"), -1);
}

/* The kind policy takes a location far more often than uniform would. */
static void kind_policy_prefers_control(void **state)
{
    (void)state;
    wc_state s;
    wct_position(&s, "knight archer", "scout pikeman");
    wct_put(&s, "i2", "knight", 1);
    wct_give(&s, 0, WC_HAND, "knight archer royal");
    int n = wc_legal_actions(&s, acts), control = 0;
    ws_rollout r;
    ws_rollout_default(&r);
    wc_rng rng;
    wc_rng_seed(&rng, 2, 2);
    for (int t = 0; t < 1000; t++)
        control += acts[ws_rollout_choose(&s, acts, n, &r, &rng)].kind == WC_ACT_CONTROL;
    assert_true(n > 10);
    assert_true(control > 1000 / 4);
}

static void budget_stays_within_the_clock(void **state)
{
    (void)state;
    assert_int_equal(ws_budget_ms(500, 1000, 10000), 500);
    int64_t margin = ws_budget_margin_ms(1000);
    assert_true(margin >= 20);
    assert_int_equal(ws_budget_ms(2000, 1000, 0), 1000 - margin);
    assert_int_equal(ws_budget_ms(0, 1000, 0), 1000 - margin);
    assert_int_equal(ws_budget_ms(2000, 1000, 3200), 1000 - margin + 100);
    assert_int_equal(ws_budget_ms(100, 10, 0), 0);
    assert_int_equal(ws_budget_ms(100, -5, -5), 0);
    for (int64_t move = 0; move <= 5000; move += 37)
        for (int64_t bank = 0; bank <= 60000; bank += 997)
            for (int64_t want = 0; want <= 8000; want += 1999) {
                int64_t ms = ws_budget_ms(want, move, bank);
                assert_true(ms >= 0);
                assert_true(ms <= (move > 20 ? move - 20 : 0) + bank / 32);
                if (want)
                    assert_true(ms <= want);
            }
}

/* ws_pimc on the same positions: the win, the defence, legal actions in
 * random games, its budgets, the same answer from the same seed. */
static void pimc_wins_and_defends(void **state)
{
    (void)state;
    wc_state s;
    win_in_one(&s);
    ws_report rep;
    assert_string_equal(choose_by(&s, 2, 3, 1, &rep), "control knight i2");
    assert_int_equal(rep.playouts, 3);
    loss_in_one(&s);
    assert_string_equal(choose_by(&s, 2, 4, 1, &rep), "attack knight h2 x i2");
}

static void pimc_plays_legal_and_repeats(void **state)
{
    (void)state;
    for (int players = 2; players <= 4; players += 2)
        for (int plies = 0; plies < 90; plies += 15) {
            wc_state s;
            state_after(&s, players, plies);
            if (wc_is_over(&s))
                continue;
            ws_report a, b;
            char first[64];
            snprintf(first, sizeof first, "%s", choose_by(&s, 2, 2, 5, &a));
            assert_string_equal(choose_by(&s, 2, 2, 5, &b), first);
            assert_true(a.value == b.value);
        }
    wc_observation o;
    int n = mover_view(2, 12, &o);
    ws_pimc_config c = { 3 };
    ws_report rep;
    fake_now = 0;
    ws_limits by_clock = { 0, 20000, fake_clock };
    assert_true(ws_pimc_search(&o, acts, n, &c, &by_clock, 1, &rep) >= 0);
    assert_true(rep.playouts >= 1);              /* one reading per 512 nodes */
    fake_now = 30000;
    assert_int_equal(ws_pimc_search(&o, acts, n, &c, &by_clock, 1, &rep), -1);
    assert_int_equal(rep.playouts, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(takes_an_immediate_win),
        cmocka_unit_test(stops_an_immediate_loss),
        cmocka_unit_test(team_takes_an_immediate_win),
        cmocka_unit_test(plays_legal_actions),
        cmocka_unit_test(repeats_itself_from_a_seed),
        cmocka_unit_test(stops_at_its_budget),
        cmocka_unit_test(survives_a_full_tree),
        cmocka_unit_test(grows_as_needed),
        cmocka_unit_test(rollouts_judge_in_range),
        cmocka_unit_test(kind_policy_prefers_control),
        cmocka_unit_test(budget_stays_within_the_clock),
        cmocka_unit_test(pimc_wins_and_defends),
        cmocka_unit_test(pimc_plays_legal_and_repeats),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
