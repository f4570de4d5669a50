/*
 * dense.c - Cholesky factorisation, solves and the diagonal of the inverse
 * for the BT fits' information matrices (see dense.h, bt.c, team.c).
 *
 * The matrix is n x n with n up to a few thousand (8 MB at 1000 players,
 * 32 MB at 2000). Inner loops are unit-stride dot products over rows, with
 * four independent partial sums (the four lanes of one vector) so they are
 * not bound by the add latency, and several rows at a time so each load
 * serves several sums. The two kernels are built twice, for AVX2 (one
 * instruction a vector) and for any x86-64 (two SSE2 halves), the CPU
 * choosing at load time; the lanes add the same sums either way. Sums run
 * in a fixed order (no -ffast-math reassociation, no fused multiply-add),
 * so results are identical from run to run and machine to machine, and the
 * same bits as one row at a time would give.
 * At 1000 players the factorisation takes about 30 ms and the inverse
 * diagonal 25 ms (one row at a time and with the sums' lanes left to the
 * compiler, which added them one by one, both took 65-75 ms; measured at
 * load 11-14 on the 2-core machine).
 */
#include "dense.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>

/* rows of the factor formed together, and rows of the inverse's columns */
#define ROWS 4
/* columns of the inverse solved together */
#define BLOCK 4

/* Four doubles side by side (GCC and Clang vector extension): the partial
 * sums s0..s3 of a dot product, added lane by lane with the rounding of
 * scalar code (no fused multiply-add: AVX2 alone does not enable it). */
typedef double quad __attribute__((vector_size(32)));
/* The same, read from any double (no alignment beyond a double's). */
typedef double quad_at __attribute__((vector_size(32), aligned(8), may_alias));

#define load(p) (*(const quad_at *)(const void *)(p))

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define KERNEL
#endif

static double *row(double *a, int n, int i)
{
    return a + (size_t)i * (size_t)n;
}

static const double *crow(const double *a, int n, int i)
{
    return a + (size_t)i * (size_t)n;
}

/* out[q] = x[q] . y over n, for q < m (m <= ROWS). Each sum is four partial
 * sums, s_p over k = p mod 4 and the tail into s0, added as (s0 + s1) +
 * (s2 + s3): a fixed order whatever m, so the same bits one row or ROWS at
 * a time. */
KERNEL static void dots(const double *const x[ROWS], int m, const double *y, int n,
                        double out[ROWS])
{
    quad acc[ROWS];
    for (int q = 0; q < ROWS; q++)
        acc[q] = (quad){ 0.0, 0.0, 0.0, 0.0 };
    int k = 0;
    if (m == ROWS) {
        for (; k + 4 <= n; k += 4) {
            quad yk = load(y + k);
            for (int q = 0; q < ROWS; q++)
                acc[q] += load(x[q] + k) * yk;
        }
    } else {
        for (; k + 4 <= n; k += 4) {
            quad yk = load(y + k);
            for (int q = 0; q < m; q++)
                acc[q] += load(x[q] + k) * yk;
        }
    }
    for (int q = 0; q < m; q++) {
        double s0 = acc[q][0];
        for (int t = k; t < n; t++)
            s0 += x[q][t] * y[t];
        out[q] = (s0 + acc[q][1]) + (acc[q][2] + acc[q][3]);
    }
}

static double dot(const double *x, const double *y, int n)
{
    const double *xs[ROWS] = { x };
    double out[ROWS];
    dots(xs, 1, y, n, out);
    return out[0];
}

/* Row i of L from row i of a: entries j0..i-1 and the diagonal, entries
 * below j0 already done. -1 if the pivot is not positive. */
static int cholesky_row(int n, double *a, int i, int j0)
{
    double *ri = row(a, n, i);
    for (int j = j0; j < i; j++) {
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
    return 0;
}

int rt_dense_cholesky(int n, double *a)
{
    assert(n >= 0 && (n == 0 || a));
    /* Row by row, L_ij = (a_ij - L_i. . L_j.) / L_jj. Rows are taken ROWS
     * at a time for their entries left of the group, where each loaded
     * piece of row j serves ROWS sums. */
    for (int i0 = 0; i0 < n; i0 += ROWS) {
        int m = n - i0 < ROWS ? n - i0 : ROWS;
        double *r[ROWS] = { NULL };
        for (int q = 0; q < m; q++)
            r[q] = row(a, n, i0 + q);
        for (int j = 0; j < i0; j++) {
            const double *rj = row(a, n, j);
            double s[ROWS];
            dots((const double *const *)r, m, rj, j, s);
            for (int q = 0; q < m; q++)
                r[q][j] = (r[q][j] - s[q]) / rj[j];
        }
        for (int q = 0; q < m; q++)
            if (cholesky_row(n, a, i0 + q, i0) < 0)
                return -1;
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

/* Rows r0..r0+m-1 of the columns i0..i0+BLOCK-1 of L^-1 into y (see
 * rt_dense_inverse_diagonal), their squares added to norm. The sums over
 * the rows above r0 are formed for the m rows together; each row then
 * adds the rows of the group above it and is solved, in the order one row
 * at a time would take. */
KERNEL static void inverse_rows(int n, const double *l, int i0, int b, int r0, int m,
                                double *y, quad *norm)
{
    const double *rr[ROWS];
    quad acc[ROWS];
    for (int q = 0; q < m; q++) {
        rr[q] = crow(l, n, r0 + q);
        acc[q] = (quad){ 0.0, 0.0, 0.0, 0.0 };
    }
    const double *yk = y;
    if (m == ROWS) {
        for (int k = i0; k < r0; k++, yk += BLOCK) {
            quad v = load(yk);
            for (int q = 0; q < ROWS; q++)
                acc[q] += rr[q][k] * v;
        }
    } else {
        for (int k = i0; k < r0; k++, yk += BLOCK) {
            quad v = load(yk);
            for (int q = 0; q < m; q++)
                acc[q] += rr[q][k] * v;
        }
    }
    for (int q = 0; q < m; q++) {
        int r = r0 + q;
        const double *yg = y + (size_t)(r0 - i0) * BLOCK;
        for (int k = r0; k < r; k++, yg += BLOCK)
            acc[q] += rr[q][k] * load(yg);
        quad e = { 0.0, 0.0, 0.0, 0.0 };
        int c = r - i0;
        if (c < b)
            e[c] = 1.0;
        double dr = rr[q][r];
        quad d = { dr, dr, dr, dr };
        quad v = (e - acc[q]) / d;
        *(quad_at *)(void *)(y + (size_t)(r - i0) * BLOCK) = v;
        *norm += v * v;
    }
}

void rt_dense_inverse_diagonal(int n, const double *l, double *diag,
                               double *tmp)
{
    /* (L L^T)^-1 = L^-T L^-1, so its i-th diagonal entry is the squared
     * norm of y = L^-1 e_i. y is zero above row i, which makes the total
     * n^3/6 multiply-adds, half the cost of forming the inverse. Columns
     * i0..i0+BLOCK-1 are solved together: tmp holds their rows interleaved,
     * tmp[(r - i0) * BLOCK + c] = y_{i0+c}[r], and rows above a column's
     * own start come out as exact zeros. Each column's sums run over k in
     * order, so grouping rows or columns changes no bit. */
    for (int i0 = 0; i0 < n; i0 += BLOCK) {
        int b = n - i0 < BLOCK ? n - i0 : BLOCK;
        quad norm = { 0.0, 0.0, 0.0, 0.0 };
        for (int r0 = i0; r0 < n; r0 += ROWS)
            inverse_rows(n, l, i0, b, r0, n - r0 < ROWS ? n - r0 : ROWS, tmp, &norm);
        for (int c = 0; c < b; c++)
            diag[i0 + c] = norm[c];
    }
}
