/*
 * test_dense.c - the dense kernels (dense.h) against the textbook forms on
 * small hand-made matrices: the Cholesky factor against the triple loop,
 * the inverse's diagonal against a full Gauss-Jordan inverse, the solve
 * against the matrix it solves. Sizes cover every remainder of the kernels'
 * groups of four rows and columns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "test_ratings.h"

static const int SIZES[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 17, 23 };

/* A symmetric positive definite matrix like an information matrix:
 * negative off-diagonal entries (games between players), a diagonal that
 * outweighs its row by `prior`. Full, both triangles. */
static void information(int n, double prior, uint64_t seed, double *a)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            double v = -(double)(seed >> 11) / 9007199254740992.0 * 10;
            a[i * n + j] = a[j * n + i] = v;
        }
    }
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                sum -= a[i * n + j];
        a[i * n + i] = sum + prior;
    }
}

/* The textbook Cholesky, column by column: lower triangle of l. */
static void textbook_cholesky(int n, const double *a, double *l)
{
    memset(l, 0, (size_t)n * (size_t)n * sizeof *l);
    for (int j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (int k = 0; k < j; k++)
            d -= l[j * n + k] * l[j * n + k];
        l[j * n + j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double s = a[i * n + j];
            for (int k = 0; k < j; k++)
                s -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = s / l[j * n + j];
        }
    }
}

void gauss_jordan_inverse(int n, const double *a, double *inv)
{
    double m[MAX_N][2 * MAX_N];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 2 * n; j++)
            m[i][j] = j < n ? a[i * n + j] : j - n == i ? 1 : 0;
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(m[i][c]) > fabs(m[p][c]))
                p = i;
        for (int j = 0; j < 2 * n; j++) {
            double t = m[c][j];
            m[c][j] = m[p][j];
            m[p][j] = t;
        }
        double d = m[c][c];
        for (int j = 0; j < 2 * n; j++)
            m[c][j] /= d;
        for (int i = 0; i < n; i++) {
            double f = m[i][c];
            if (i != c)
                for (int j = 0; j < 2 * n; j++)
                    m[i][j] -= f * m[c][j];
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            inv[i * n + j] = m[i][n + j];
}

static void test_cholesky_matches_the_textbook(void **state)
{
    (void)state;
    double a[MAX_N * MAX_N], l[MAX_N * MAX_N], want[MAX_N * MAX_N];
    for (size_t s = 0; s < sizeof SIZES / sizeof *SIZES; s++) {
        int n = SIZES[s];
        information(n, 0.5, 1000 + (uint64_t)n, a);
        memcpy(l, a, sizeof a);
        assert_int_equal(rt_dense_cholesky(n, l), 0);
        textbook_cholesky(n, a, want);
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++)
                assert_near(l[i * n + j], want[i * n + j], 1e-12 * fabs(want[j * n + j]));
    }
}

static void test_inverse_diagonal_matches_the_full_inverse(void **state)
{
    (void)state;
    double a[MAX_N * MAX_N], l[MAX_N * MAX_N], inv[MAX_N * MAX_N];
    double diag[MAX_N], tmp[4 * MAX_N];
    for (size_t s = 0; s < sizeof SIZES / sizeof *SIZES; s++) {
        int n = SIZES[s];
        information(n, 0.25, 2000 + (uint64_t)n, a);
        memcpy(l, a, sizeof a);
        assert_int_equal(rt_dense_cholesky(n, l), 0);
        rt_dense_inverse_diagonal(n, l, diag, tmp);
        gauss_jordan_inverse(n, a, inv);
        for (int i = 0; i < n; i++) {
            assert_true(diag[i] > 0);
            assert_near(diag[i], inv[i * n + i], 1e-10 * inv[i * n + i]);
        }
    }
}

static void test_solve_solves(void **state)
{
    (void)state;
    double a[MAX_N * MAX_N], l[MAX_N * MAX_N], x[MAX_N], b[MAX_N];
    for (size_t s = 0; s < sizeof SIZES / sizeof *SIZES; s++) {
        int n = SIZES[s];
        information(n, 1, 3000 + (uint64_t)n, a);
        memcpy(l, a, sizeof a);
        assert_int_equal(rt_dense_cholesky(n, l), 0);
        for (int i = 0; i < n; i++)
            x[i] = b[i] = i % 3 - 1 + 0.25 * i;
        rt_dense_solve(n, l, x);
        for (int i = 0; i < n; i++) {
            double ax = 0;
            for (int j = 0; j < n; j++)
                ax += a[i * n + j] * x[j];
            assert_near(ax, b[i], 1e-10);
        }
    }
}

/* A matrix that is not positive definite is refused whether its bad
 * pivot falls in a group of four rows (its first or last) or after them. */
static void test_indefinite_is_refused(void **state)
{
    (void)state;
    double a[MAX_N * MAX_N];
    const int bad[] = { 0, 3, 5, 8, 10 };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        int n = 11;
        information(n, 1, 4000 + k, a);
        a[bad[k] * n + bad[k]] = -1;
        assert_int_equal(rt_dense_cholesky(n, a), -1);
    }
    assert_int_equal(rt_dense_cholesky(0, a), 0);
}

int run_dense_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cholesky_matches_the_textbook),
        cmocka_unit_test(test_inverse_diagonal_matches_the_full_inverse),
        cmocka_unit_test(test_solve_solves),
        cmocka_unit_test(test_indefinite_is_refused),
    };
    return cmocka_run_group_tests_name("dense", tests, NULL, NULL);
}
