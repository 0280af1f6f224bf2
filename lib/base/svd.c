/* svd.c: randomised truncated SVD of a sparse matrix.  See svd.h.
 *
 * With A m × n and l = rank + oversample (at most min(m, n)) directions:
 *   Y = A Ω (Ω n × l Gaussian); Q = orth(Y);
 *   repeat power_iters times: Q = orth(A orth(Aᵀ Q));
 *   (orth is Householder QR at the end, and the cheaper P L of an LU
 *   factorisation in between: only the spanned space matters there);
 *   Bᵀ = Aᵀ Q (n × l) = Q₂ R; R = Uᵣ Σ Vᵣᵀ (a small l × l SVD);
 *   then A ≈ Q Qᵀ A = (Q Vᵣ) Σ (Q₂ Uᵣ)ᵀ, so V = Q₂ Uᵣ and U = Q Vᵣ.
 * Dense matrices are column-major, as LAPACK wants them.  The sparse
 * products read a row-major copy of the dense factor so that their inner
 * loops run over contiguous memory; they are split by rows over a few
 * threads, each writing its own rows, so the result does not depend on the
 * number of threads. */
#include "svd.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* LAPACK and BLAS, Fortran calling convention (hidden string lengths last). */
extern void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau,
	double *work, const int *lwork, int *info);
extern void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda,
	const double *tau, double *work, const int *lwork, int *info);
extern void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda,
	double *s, double *u, const int *ldu, double *vt, const int *ldvt, double *work,
	const int *lwork, int *iwork, int *info, size_t jobz_len);
extern void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dlaswp_(const int *n, double *a, const int *lda, const int *k1, const int *k2,
	const int *ipiv, const int *incx);
extern void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
	const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
	const double *beta, double *c, const int *ldc, size_t ta_len, size_t tb_len);

#define MAX_THREADS 8

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
ev_svd_gaussian(uint64_t *state, double *x, size_t n)
{
	const double two_pi = 6.283185307179586476925286766559;
	size_t i;

	for (i = 0; i < n; i += 2) {
		/* 53-bit uniforms in (0, 1] and [0, 1) */
		double u1 = ((splitmix64(state) >> 11) + 1.0) * 0x1.0p-53;
		double u2 = (splitmix64(state) >> 11) * 0x1.0p-53;
		double r = sqrt(-2.0 * log(u1));

		x[i] = r * cos(two_pi * u2);
		if (i + 1 < n)
			x[i + 1] = r * sin(two_pi * u2);
	}
}

/* One sparse product Y = S X: S is nrows × ncols in CSR form, X ncols × l
 * row-major, Y nrows × l column-major.  Rows [lo, hi) only. */
struct spmm_job {
	const int64_t *ptr;
	const int32_t *idx;
	const float *val;
	int nrows;
	const float *x;
	double *y;
	int l;
	int lo, hi;
	double *acc;		/* l doubles of scratch */
};

/* Compiled for the vector units the machine has (GCC picks at load time). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void *
spmm_rows(void *arg)
{
	struct spmm_job *j = arg;
	double *acc = j->acc;
	int i, c, l = j->l;
	int64_t p;

	for (i = j->lo; i < j->hi; i++) {
		memset(acc, 0, (size_t)l * sizeof *acc);
		for (p = j->ptr[i]; p < j->ptr[i + 1]; p++) {
			const float *xr = j->x + (size_t)j->idx[p] * l;
			double w = j->val[p];

			for (c = 0; c < l; c++)
				acc[c] += w * xr[c];
		}
		for (c = 0; c < l; c++)
			j->y[i + (size_t)c * j->nrows] = acc[c];
	}
	return NULL;
}

static int
nthreads_for(int64_t work)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (work < 200000 || n < 2)
		return 1;
	return n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static int
spmm(const int64_t *ptr, const int32_t *idx, const float *val, int nrows, const float *x,
	double *y, int l, double *scratch)
{
	struct spmm_job jobs[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	int t, nt = nthreads_for(ptr[nrows] * (int64_t)l), started = 0;

	for (t = 0; t < nt; t++) {
		jobs[t] = (struct spmm_job){ ptr, idx, val, nrows, x, y, l,
			(int)((int64_t)nrows * t / nt), (int)((int64_t)nrows * (t + 1) / nt),
			scratch + (size_t)t * l };
	}
	for (t = 1; t < nt; t++) {
		if (pthread_create(&tid[t], NULL, spmm_rows, &jobs[t]) != 0)
			break;
		started = t;
	}
	spmm_rows(&jobs[0]);
	/* threads that could not be started: do their rows here */
	for (t = started + 1; t < nt; t++)
		spmm_rows(&jobs[t]);
	for (t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	return 0;
}

/* Copy column-major a (rows × cols) into row-major b, in single precision
 * (the sparse products are bound by memory traffic; their sums are double). */
static void
to_rowmajor(const double *a, float *b, int rows, int cols)
{
	int i, j;

	for (j = 0; j < cols; j++)
		for (i = 0; i < rows; i++)
			b[(size_t)i * cols + j] = (float)a[i + (size_t)j * rows];
}

/* Replace column-major a (m × n, m >= n) by an orthonormal basis of its
 * columns.  work holds lwork doubles, tau n. */
static int
orthonormalise(double *a, int m, int n, double *tau, double *work, int lwork, struct ev_err *err)
{
	int info = 0;

	dgeqrf_(&m, &n, a, &m, tau, work, &lwork, &info);
	if (info == 0)
		dorgqr_(&m, &n, &n, a, &m, tau, work, &lwork, &info);
	if (info != 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "qr factorisation failed (lapack info %d)", info);
	return 0;
}

/* Replace column-major a (m × n, m >= n) by P L of its LU factorisation
 * A = P L U: a basis of a space that contains A's range, cheaper than QR and
 * good enough between power iterations (as in Halko et al. section 4.5). */
static void
lu_basis(double *a, int m, int n, int *ipiv)
{
	int info = 0, one = 1, minus1 = -1, i, j;

	dgetrf_(&m, &n, a, &m, ipiv, &info);
	/* info > 0 (a zero pivot) leaves L usable: its columns stay independent */
	for (j = 0; j < n; j++) {
		double *c = a + (size_t)j * m;

		for (i = 0; i < j; i++)
			c[i] = 0;
		c[j] = 1;
	}
	/* undo the row interchanges, last first */
	dlaswp_(&n, a, &m, &one, &n, ipiv, &minus1);
}

/* The workspace that dgeqrf and dorgqr need for an m × n matrix. */
static int
qr_lwork(int m, int n)
{
	double q1 = 0, q2 = 0, dummy = 0;
	int info = 0, minus1 = -1;

	dgeqrf_(&m, &n, &dummy, &m, &dummy, &q1, &minus1, &info);
	dorgqr_(&m, &n, &n, &dummy, &m, &dummy, &q2, &minus1, &info);
	return (int)(q1 > q2 ? q1 : q2) + 1;
}

static int
check_csr(const struct ev_csr *a, int rank, struct ev_err *err)
{
	int i;
	int64_t p;

	if (a == NULL || a->rows < 1 || a->cols < 1 || a->rowptr == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "the matrix is empty");
	if (rank < 1 || rank > a->rows || rank > a->cols)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
			"rank %d is not within 1..%d (a %d × %d matrix)", rank,
			a->rows < a->cols ? a->rows : a->cols, a->rows, a->cols);
	if (a->rowptr[0] != 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "row offsets do not start at 0");
	for (i = 0; i < a->rows; i++)
		if (a->rowptr[i + 1] < a->rowptr[i])
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "row offsets decrease at row %d", i);
	for (p = 0; p < a->rowptr[a->rows]; p++)
		if (a->col[p] < 0 || a->col[p] >= a->cols)
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "column %d out of range at entry %lld",
				(int)a->col[p], (long long)p);
	return 0;
}

int
ev_svd_sparse(const struct ev_csr *a, int rank, const struct ev_svd_opts *opts,
	double *s, double *v, double *u, struct ev_err *err)
{
	static const struct ev_svd_opts defaults = EV_SVD_OPTS_INIT;
	int64_t *cptr = NULL, *fill = NULL, nnz;
	int32_t *cidx = NULL;
	float *cval = NULL;
	double *y = NULL, *z = NULL, *tau = NULL, *work = NULL, *vfull = NULL, *ufull = NULL;
	float *tm = NULL, *tn = NULL;
	double *scratch = NULL, *r = NULL, *ur = NULL, *vrt = NULL, *sl = NULL;
	int *iwork = NULL, *ipiv = NULL;
	int m, n, l, lwork, it, i, j, info = 0, rc = -1;
	double one = 1.0, zero = 0.0;
	uint64_t state;

	if (opts == NULL)
		opts = &defaults;
	if (check_csr(a, rank, err) == -1)
		return -1;
	m = a->rows;
	n = a->cols;
	nnz = a->rowptr[m];
	l = rank + (opts->oversample > 0 ? opts->oversample : 0);
	if (l > m)
		l = m;
	if (l > n)
		l = n;

	/* Aᵀ in CSR form (that is, A in CSC form), rows in order within a column */
	cptr = calloc((size_t)n + 1, sizeof *cptr);
	fill = calloc((size_t)n, sizeof *fill);
	cidx = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *cidx);
	cval = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *cval);
	y = malloc((size_t)m * l * sizeof *y);
	tm = malloc((size_t)m * l * sizeof *tm);
	z = malloc((size_t)n * l * sizeof *z);
	tn = malloc((size_t)n * l * sizeof *tn);
	tau = malloc((size_t)l * sizeof *tau);
	scratch = malloc((size_t)MAX_THREADS * l * sizeof *scratch);
	r = calloc((size_t)l * l, sizeof *r);
	ur = malloc((size_t)l * l * sizeof *ur);
	vrt = malloc((size_t)l * l * sizeof *vrt);
	sl = malloc((size_t)l * sizeof *sl);
	iwork = malloc((size_t)8 * l * sizeof *iwork);
	ipiv = malloc((size_t)l * sizeof *ipiv);
	if (!ipiv || !cptr || !fill || !cidx || !cval || !y || !tm || !z || !tn || !tau || !scratch || !r ||
	    !ur || !vrt || !sl || !iwork) {
		ev_err_nomem(err);
		goto out;
	}
	for (int64_t p = 0; p < nnz; p++)
		cptr[a->col[p] + 1]++;
	for (j = 0; j < n; j++)
		cptr[j + 1] += cptr[j];
	for (i = 0; i < m; i++)
		for (int64_t p = a->rowptr[i]; p < a->rowptr[i + 1]; p++) {
			int c = a->col[p];
			int64_t q = cptr[c] + fill[c]++;

			cidx[q] = i;
			cval[q] = a->val[p];
		}

	lwork = qr_lwork(m, l);
	{
		int ln = qr_lwork(n, l);

		if (ln > lwork)
			lwork = ln;
	}
	work = malloc((size_t)lwork * sizeof *work);
	if (work == NULL) {
		ev_err_nomem(err);
		goto out;
	}

	/* Y = A Ω, Q = orth(Y) */
	state = opts->seed;
	ev_svd_gaussian(&state, z, (size_t)n * l);
	for (size_t q = 0; q < (size_t)n * l; q++)
		tn[q] = (float)z[q];
	spmm(a->rowptr, a->col, a->val, m, tn, y, l, scratch);
	if (opts->power_iters > 0)
		lu_basis(y, m, l, ipiv);
	else if (orthonormalise(y, m, l, tau, work, lwork, err) == -1)
		goto out;
	for (it = 0; it < opts->power_iters; it++) {
		to_rowmajor(y, tm, m, l);
		spmm(cptr, cidx, cval, n, tm, z, l, scratch);
		lu_basis(z, n, l, ipiv);
		to_rowmajor(z, tn, n, l);
		spmm(a->rowptr, a->col, a->val, m, tn, y, l, scratch);
		if (it + 1 < opts->power_iters)
			lu_basis(y, m, l, ipiv);
		else if (orthonormalise(y, m, l, tau, work, lwork, err) == -1)
			goto out;
	}

	/* Bᵀ = Aᵀ Q = Q₂ R */
	to_rowmajor(y, tm, m, l);
	spmm(cptr, cidx, cval, n, tm, z, l, scratch);
	dgeqrf_(&n, &l, z, &n, tau, work, &lwork, &info);
	if (info != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "qr factorisation failed (lapack info %d)", info);
		goto out;
	}
	for (j = 0; j < l; j++)
		for (i = 0; i <= j; i++)
			r[i + (size_t)j * l] = z[i + (size_t)j * n];
	dorgqr_(&n, &l, &l, z, &n, tau, work, &lwork, &info);
	if (info != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "qr factorisation failed (lapack info %d)", info);
		goto out;
	}

	/* R = Uᵣ Σ Vᵣᵀ */
	{
		double q = 0;
		int minus1 = -1, sw;
		double *swork;

		dgesdd_("S", &l, &l, r, &l, sl, ur, &l, vrt, &l, &q, &minus1, iwork, &info, 1);
		sw = (int)q + 1;
		swork = malloc((size_t)sw * sizeof *swork);
		if (swork == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		dgesdd_("S", &l, &l, r, &l, sl, ur, &l, vrt, &l, swork, &sw, iwork, &info, 1);
		free(swork);
		if (info != 0) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "singular value decomposition failed "
				"(lapack info %d)", info);
			goto out;
		}
	}

	/* V = Q₂ Uᵣ (n × l), U = Q Vᵣ (m × l) */
	free(tm);
	free(tn);
	tm = tn = NULL;
	vfull = malloc((size_t)n * l * sizeof *vfull);
	if (u != NULL)
		ufull = malloc((size_t)m * l * sizeof *ufull);
	if (vfull == NULL || (u != NULL && ufull == NULL)) {
		ev_err_nomem(err);
		goto out;
	}
	dgemm_("N", "N", &n, &l, &l, &one, z, &n, ur, &l, &zero, vfull, &n, 1, 1);
	if (u != NULL)
		dgemm_("N", "T", &m, &l, &l, &one, y, &m, vrt, &l, &zero, ufull, &m, 1, 1);
	for (i = 0; i < rank; i++) {
		double big = 0, sign = 1;
		double *vc = vfull + (size_t)i * n;

		for (j = 0; j < n; j++)
			if (fabs(vc[j]) > big) {
				big = fabs(vc[j]);
				sign = vc[j] < 0 ? -1 : 1;
			}
		s[i] = sl[i];
		for (j = 0; j < n; j++)
			v[(size_t)j * rank + i] = sign * vc[j];
		if (u != NULL)
			for (j = 0; j < m; j++)
				u[(size_t)j * rank + i] = sign * ufull[j + (size_t)i * m];
	}
	rc = 0;
out:
	free(cptr);
	free(fill);
	free(cidx);
	free(cval);
	free(y);
	free(tm);
	free(z);
	free(tn);
	free(vfull);
	free(ufull);
	free(tau);
	free(work);
	free(scratch);
	free(r);
	free(ur);
	free(vrt);
	free(sl);
	free(iwork);
	free(ipiv);
	return rc;
}
