/* svd.h: a randomised truncated singular value decomposition of a sparse
 * matrix (Halko, Martinsson and Tropp 2011, algorithms 4.4 and 5.1, worked
 * in the column space): a Gaussian random projection, power iterations of
 * AᵀA (an LU basis between them, as Halko et al. suggest), a QR
 * factorisation and a small symmetric eigenproblem.  Memory grows with the
 * columns and the entries, not with the rows times the rank.
 * The dense work is LAPACK's and BLAS's (dgetrf, dgeqrf, dorgqr, dsyev,
 * dgemm; Fortran symbols, loaded on first use: lapack.h); the sparse products are ours,
 * split over the processors with pthreads.
 *
 * Bottom layer: includes only err.h (and lapack.h).  Knows nothing of text or the store.
 * The result depends only on the matrix, the options and the seed, not on
 * the number of processors: the same input gives the same output on the same
 * machine. */
#ifndef EV_SVD_H
#define EV_SVD_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* A sparse matrix in compressed sparse row form: row i's entries are
 * col[rowptr[i] .. rowptr[i+1]) and val[...], columns in any order, no
 * duplicates.  The caller owns the arrays. */
struct ev_csr {
	int rows;
	int cols;
	int64_t *rowptr;	/* rows + 1 offsets; rowptr[0] == 0 */
	int32_t *col;		/* rowptr[rows] column numbers, each in [0, cols) */
	float *val;		/* rowptr[rows] values */
};

/* The tuning of ev_svd_sparse(); EV_SVD_OPTS_INIT holds the defaults. */
struct ev_svd_opts {
	int oversample;		/* extra random directions beyond rank (10) */
	int power_iters;	/* power iterations (3) */
	uint64_t seed;		/* seed of the Gaussian projection */
};

#define EV_SVD_OPTS_INIT { .oversample = 10, .power_iters = 3, .seed = 0x65766b6974ULL }

/* Compute the rank leading singular triplets of A (rows × cols): A ≈ U Σ Vᵀ.
 * s receives rank singular values, largest first; v (cols × rank, row-major:
 * v[j * rank + i] is the i-th right singular vector's j-th entry) the right
 * singular vectors; u (rows × rank, row-major), when not NULL, the left ones.
 * Signs are fixed so that the entry of largest magnitude of each right
 * singular vector is positive.  opts may be NULL (the defaults).
 * Returns 0, or -1 with *err set: code 2 when rank is not within
 * 1 .. min(rows, cols) or the matrix is malformed, code 1 when memory runs
 * out or LAPACK fails. */
int ev_svd_sparse(const struct ev_csr *a, int rank, const struct ev_svd_opts *opts,
	double *s, double *v, double *u, struct ev_err *err);

/* Fill x[0..n) with standard normal numbers drawn from the generator state
 * *state (splitmix64 and Box-Muller: the same state gives the same numbers on
 * every machine). */
void ev_svd_gaussian(uint64_t *state, double *x, size_t n);

#endif
