/*
 * test_games.c - the checks of game_harness.h over every game of the
 * registry (games/registry.c), a few random games at each seat count; each
 * game's own tests run them at length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "game_harness.h"

static void test_every_game_of_the_registry(void **state)
{
    assert_true(game_count() >= 1);
    for (int i = 0; i < game_count(); i++)
        game_harness_check(game_at(i), 5);
}

/* The registry finds each game by its name, and no two share one. */
static void test_registry_names(void **state)
{
    for (int i = 0; i < game_count(); i++) {
        assert_ptr_equal(game_find(game_at(i)->name), game_at(i));
        for (int k = 0; k < i; k++)
            assert_string_not_equal(game_at(i)->name, game_at(k)->name);
    }
    assert_ptr_equal(game_default(), game_at(0));
    assert_null(game_find("no-such-game"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_names),
        cmocka_unit_test(test_every_game_of_the_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
