/*
 * dense.h - internal: the dense symmetric positive-definite kernels that
 * bt.c and team.c need for Newton steps and exact standard errors. Not
 * part of the public API; ratings.h is.
 *
 * Matrices are n x n, row-major, and only the lower triangle (j <= i) is
 * read or written, so callers may leave the upper triangle as garbage.
 */
#ifndef RT_DENSE_H
#define RT_DENSE_H

/* Overwrites the lower triangle of a with L, a = L L^T. Returns 0, or -1
 * if a is not (numerically) positive definite. */
int rt_dense_cholesky(int n, double *a);

/* Solves L L^T x = b in place (x holds b on entry). */
void rt_dense_solve(int n, const double *l, double *x);

/* diag[i] = (L L^T)^-1 [i][i]; tmp is 4 n doubles of scratch. */
void rt_dense_inverse_diagonal(int n, const double *l, double *diag,
                               double *tmp);

#endif /* RT_DENSE_H */
