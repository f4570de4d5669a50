/*
 * test_ratings.h - the ratings test groups, run by test_main.c. Each
 * returns cmocka's count of failed tests.
 */
#ifndef TEST_RATINGS_H
#define TEST_RATINGS_H

/* cmocka 1.1's assert_float_equal compares as float, which is far too
 * coarse here; this one compares doubles: |a - b| <= eps (NaN fails). */
#define assert_near(a, b, eps) \
    assert_near_impl((a), (b), (eps), #a, #b, __FILE__, __LINE__)
void assert_near_impl(double a, double b, double eps, const char *ea,
                      const char *eb, const char *file, int line);

/* The full inverse of the n x n matrix a (n <= MAX_N, both triangles) by
 * Gauss-Jordan elimination with partial pivoting: the straightforward
 * reference the kernels and the fits' sigmas are checked against. */
enum { MAX_N = 23 };
void gauss_jordan_inverse(int n, const double *a, double *inv);

int run_elo_tests(void);
int run_bt_tests(void);
int run_sprt_tests(void);
int run_team_tests(void);
int run_dense_tests(void);

#endif
