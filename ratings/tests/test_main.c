/*
 * test_main.c - entry point of test_ratings (registered with ctest): runs
 * the Elo, Bradley-Terry, SPRT, team and dense-kernel groups and fails
 * if any test failed. Also home of the shared assert_near helper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "test_ratings.h"

void assert_near_impl(double a, double b, double eps, const char *ea,
                      const char *eb, const char *file, int line)
{
    if (a == b || fabs(a - b) <= eps)
        return;
    print_error("%s = %.17g\n%s = %.17g\n|difference| %.3g > %.3g\n", ea, a,
                eb, b, fabs(a - b), eps);
    _fail(file, line);
}

int main(void)
{
    int failed = 0;
    failed += run_elo_tests();
    failed += run_bt_tests();
    failed += run_sprt_tests();
    failed += run_team_tests();
    failed += run_dense_tests();
    return failed == 0 ? 0 : 1;
}
