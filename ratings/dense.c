/*
 * dense.c - Cholesky factorisation, solves and the diagonal of the inverse
 * for the BT fit's information matrix (see dense.h, bt.c).
 *
 * The matrix is n x n with n up to a few thousand (8 MB at 1000 players,
 * 32 MB at 2000). Inner loops are unit-stride dot products over rows, with
 * several independent partial sums so they are not bound by the add
 * latency. Sums run in a fixed order (no -ffast-math reassociation), so
 * results are identical from run to run. At 1000 players the factorisation
 * and the inverse diagonal take about 30 ms each.
 */
#include "dense.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>

#define BLOCK 4

static double dot(const double *x, const double *y, int n)
{
    /* four partial sums: a single running sum is bound by the add
     * latency, and a fixed split keeps results reproducible */
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += x[k] * y[k];
        s1 += x[k + 1] * y[k + 1];
        s2 += x[k + 2] * y[k + 2];
        s3 += x[k + 3] * y[k + 3];
    }
    for (; k < n; k++)
        s0 += x[k] * y[k];
    return (s0 + s1) + (s2 + s3);
}

static double *row(double *a, int n, int i)
{
    return a + (size_t)i * (size_t)n;
}

static const double *crow(const double *a, int n, int i)
{
    return a + (size_t)i * (size_t)n;
}

int rt_dense_cholesky(int n, double *a)
{
    assert(n >= 0 && (n == 0 || a));
    for (int i = 0; i < n; i++) {
        double *ri = row(a, n, i);
        for (int j = 0; j < i; j++) {
            const double *rj = row(a, n, j);
            ri[j] = (ri[j] - dot(ri, rj, j)) / rj[j];
        }
        double d = ri[i] - dot(ri, ri, i);
        /* Positive definiteness shows up here and nowhere else; a pivot
         * tiny against the original diagonal means the information matrix
         * has a (numerically) flat direction. */
        if (!(d > 0.0) || !(d > ri[i] * 1e-14) || !isfinite(d))
            return -1;
        ri[i] = sqrt(d);
    }
    return 0;
}

void rt_dense_solve(int n, const double *l, double *x)
{
    /* L y = b, forward, rows contiguous */
    for (int i = 0; i < n; i++) {
        const double *ri = crow(l, n, i);
        x[i] = (x[i] - dot(ri, x, i)) / ri[i];
    }
    /* L^T x = y, backward: column access of L, done as row updates so the
     * inner loop stays unit-stride */
    for (int i = n - 1; i >= 0; i--) {
        const double *ri = crow(l, n, i);
        x[i] /= ri[i];
        double xi = x[i];
        for (int k = 0; k < i; k++)
            x[k] -= ri[k] * xi;
    }
}

void rt_dense_inverse_diagonal(int n, const double *l, double *diag,
                               double *tmp)
{
    /* (L L^T)^-1 = L^-T L^-1, so its i-th diagonal entry is the squared
     * norm of y = L^-1 e_i. y is zero above row i, which makes the total
     * n^3/6 multiply-adds, half the cost of forming the inverse. Columns
     * i0..i0+3 are solved together: tmp holds their rows interleaved,
     * tmp[(r - i0) * 4 + c] = y_{i0+c}[r], and rows above a column's own
     * start come out as exact zeros. */
    for (int i0 = 0; i0 < n; i0 += BLOCK) {
        int b = n - i0 < BLOCK ? n - i0 : BLOCK;
        double norm[BLOCK] = {0.0, 0.0, 0.0, 0.0};
        for (int r = i0; r < n; r++) {
            const double *rr = crow(l, n, r);
            double s[BLOCK] = {0.0, 0.0, 0.0, 0.0};
            const double *y = tmp;
            for (int k = i0; k < r; k++, y += BLOCK) {
                double v = rr[k];
                s[0] += v * y[0];
                s[1] += v * y[1];
                s[2] += v * y[2];
                s[3] += v * y[3];
            }
            double *yr = tmp + (size_t)(r - i0) * BLOCK;
            for (int c = 0; c < BLOCK; c++) {
                double e = c < b && r == i0 + c ? 1.0 : 0.0;
                yr[c] = (e - s[c]) / rr[r];
                norm[c] += yr[c] * yr[c];
            }
        }
        for (int c = 0; c < b; c++)
            diag[i0 + c] = norm[c];
    }
}
