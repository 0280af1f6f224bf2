/* svd.c: randomised truncated SVD of a sparse matrix.  See svd.h.
 *
 * With A m × n and l = rank + oversample (at most min(m, n)) directions,
 * this is the row-space algorithm (Y = A Ω; power iterations; Q_L = orth(Y);
 * the SVD of B = Q_Lᵀ A) with every m × l matrix left out, so that memory
 * grows with the columns and the entries, not with the rows times l (two
 * m × l matrices are 5 GB at 1.6 M chunks and 266 directions):
 *   Q₀ = orth((AᵀA)^q Ω) (Ω n × l Gaussian, q = power_iters; the cheaper
 *   P L of an LU factorisation between the products: only the spanned space
 *   matters there, Halko et al. section 4.5), so that K = A Q₀ spans what Y
 *   spans;
 *   M = AᵀA Q₀ = Aᵀ K and C = Q₀ᵀ M = KᵀK = W Δ Wᵀ (l × l);
 *   with Q_L = K W Δ^-½ (orthonormal), Bᵀ = Aᵀ Q_L = M W Δ^-½ = Q₂ F for
 *   M = Q₂ R₂ and F = R₂ W Δ^-½; F = Uf Σ Vfᵀ (a small SVD);
 *   then A ≈ Q_L B and V = Q₂ Uf (and U = A V Σ⁻¹ when asked).
 * Each product AᵀA X is made a block of rows at a time (gram_apply): the
 * same q + 1 passes of A and Aᵀ as the row-space form.
 * Dense matrices are column-major, as LAPACK wants them; the sparse products
 * read a row-major single-precision copy of the dense factor so that their
 * inner loops run over contiguous memory. */
#include "svd.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lapack.h"

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

/* The Gram product Z = Aᵀ (A X), for X cols × l (row-major, single
 * precision) and Z cols × l (row-major, double), made a block of
 * BLOCK_ROWS rows of A at a time so that A X is never held whole: for each
 * block, W = A_b X (split by rows over the threads), then Z += A_bᵀ W (split
 * by columns of A: a thread owns a range of Z's rows and adds, in row order,
 * the entries of the block that fall in it).  Every entry of W and of Z is
 * summed in the same order whatever the number of threads. */
#define BLOCK_ROWS 8192

struct gram {
	const struct ev_csr *a;
	const float *x;
	double *w;		/* BLOCK_ROWS × l, row-major: A_b X */
	double *z;		/* cols × l, row-major */
	int l;
	int nt;
	int colcut[MAX_THREADS + 1];	/* thread t owns columns [colcut[t], colcut[t + 1]) */
	int b0, b1;		/* the block: rows [b0, b1) */
};

struct gram_job {
	struct gram *g;
	int t;
};

/* The inner loops, compiled for the vector units the machine has (GCC picks
 * at load time). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define VECTOR_CLONES
#endif

VECTOR_CLONES
static void *
gram_rows(void *arg)
{
	const struct gram_job *j = arg;
	const struct gram *g = j->g;
	int nb = g->b1 - g->b0, l = g->l, i, c;
	int lo = g->b0 + (int)((int64_t)nb * j->t / g->nt);
	int hi = g->b0 + (int)((int64_t)nb * (j->t + 1) / g->nt);
	int64_t p;

	for (i = lo; i < hi; i++) {
		double *acc = g->w + (size_t)(i - g->b0) * l;

		memset(acc, 0, (size_t)l * sizeof *acc);
		for (p = g->a->rowptr[i]; p < g->a->rowptr[i + 1]; p++) {
			const float *xr = g->x + (size_t)g->a->col[p] * l;
			double v = g->a->val[p];

			for (c = 0; c < l; c++)
				acc[c] += v * xr[c];
		}
	}
	return NULL;
}

VECTOR_CLONES
static void *
gram_cols(void *arg)
{
	const struct gram_job *j = arg;
	const struct gram *g = j->g;
	int c0 = g->colcut[j->t], c1 = g->colcut[j->t + 1], l = g->l, i, c, k;
	int64_t p;

	for (i = g->b0; i < g->b1; i++) {
		const double *wr = g->w + (size_t)(i - g->b0) * l;

		for (p = g->a->rowptr[i]; p < g->a->rowptr[i + 1]; p++) {
			double *zr, v;

			if ((c = g->a->col[p]) < c0 || c >= c1)
				continue;
			zr = g->z + (size_t)c * l;
			v = g->a->val[p];
			for (k = 0; k < l; k++)
				zr[k] += v * wr[k];
		}
	}
	return NULL;
}

/* Run fn for jobs 0 .. nt-1, job 0 in this thread; a thread that cannot be
 * started has its job run here. */
static void
run_jobs(void *(*fn)(void *), struct gram_job *jobs, int nt)
{
	pthread_t tid[MAX_THREADS];
	int t, started = 0;

	for (t = 1; t < nt; t++) {
		if (pthread_create(&tid[t], NULL, fn, &jobs[t]) != 0)
			break;
		started = t;
	}
	fn(&jobs[0]);
	for (t = started + 1; t < nt; t++)
		fn(&jobs[t]);
	for (t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
}

static int
nthreads_for(int64_t work)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (work < 200000 || n < 2)
		return 1;
	return n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Set g's thread count and split A's columns among the threads so that each
 * gets about as many entries.  colnnz[c] counts column c's entries. */
static void
gram_plan(struct gram *g, const int64_t *colnnz)
{
	const struct ev_csr *a = g->a;
	int64_t nnz = a->rowptr[a->rows], sum = 0;
	int t = 1, c;

	g->nt = nthreads_for(nnz * (int64_t)g->l);
	g->colcut[0] = 0;
	for (c = 0; c < a->cols && t < g->nt; c++) {
		sum += colnnz[c];
		if (sum * g->nt >= nnz * t)
			g->colcut[t++] = c + 1;
	}
	while (t <= g->nt)
		g->colcut[t++] = a->cols;
}

/* g->z = Aᵀ (A g->x). */
static void
gram_apply(struct gram *g)
{
	struct gram_job jobs[MAX_THREADS];
	int t;

	memset(g->z, 0, (size_t)g->a->cols * g->l * sizeof *g->z);
	for (t = 0; t < g->nt; t++)
		jobs[t] = (struct gram_job){ g, t };
	for (g->b0 = 0; g->b0 < g->a->rows; g->b0 = g->b1) {
		g->b1 = g->a->rows - g->b0 > BLOCK_ROWS ? g->b0 + BLOCK_ROWS : g->a->rows;
		run_jobs(gram_rows, jobs, g->nt);
		run_jobs(gram_cols, jobs, g->nt);
	}
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

/* Copy row-major a (rows × cols) into column-major b. */
static void
to_colmajor(const double *a, double *b, int rows, int cols)
{
	int i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			b[i + (size_t)j * rows] = a[(size_t)i * cols + j];
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

/* The workspace of one decomposition (l directions of an m × n matrix). */
struct sparse_svd {
	struct gram g;		/* its z (n × l) ends as V's l columns */
	int m, n, l, lwork;
	int64_t *colnnz;	/* entries a column */
	double *y;		/* n × l, column-major: Q₀, then M, then Q₂ */
	float *x;		/* n × l, row-major single-precision copy for the products */
	double *tau, *work, *c, *delta, *r, *f, *uf, *vft, *sf;
	int *ipiv, *iwork;
};

static void
sparse_svd_free(struct sparse_svd *w)
{
	free(w->colnnz);
	free(w->y);
	free(w->x);
	free(w->g.z);
	free(w->g.w);
	free(w->tau);
	free(w->work);
	free(w->c);
	free(w->r);
	free(w->f);
	free(w->uf);
	free(w->vft);
	free(w->delta);
	free(w->sf);
	free(w->ipiv);
	free(w->iwork);
}

/* Allocate w's matrices for l directions of a, plan its Gram products, and
 * size one LAPACK workspace for dgeqrf, dorgqr, dsyev and dgesdd.  Returns
 * 0, or -1 with *err set (w then holds what was allocated). */
static int
sparse_svd_alloc(struct sparse_svd *w, const struct ev_csr *a, int l, struct ev_err *err)
{
	int m = a->rows, n = a->cols, info = 0, minus1 = -1;
	double q1 = 0, q2 = 0;

	w->m = m;
	w->n = n;
	w->l = l;
	w->colnnz = calloc((size_t)n, sizeof *w->colnnz);
	w->y = malloc((size_t)n * l * sizeof *w->y);
	w->x = malloc((size_t)n * l * sizeof *w->x);
	w->g.z = malloc((size_t)n * l * sizeof *w->g.z);
	w->g.w = malloc((size_t)(m < BLOCK_ROWS ? m : BLOCK_ROWS) * l * sizeof *w->g.w);
	w->tau = malloc((size_t)l * sizeof *w->tau);
	w->c = malloc((size_t)l * l * sizeof *w->c);
	w->r = calloc((size_t)l * l, sizeof *w->r);
	w->f = malloc((size_t)l * l * sizeof *w->f);
	w->uf = malloc((size_t)l * l * sizeof *w->uf);
	w->vft = malloc((size_t)l * l * sizeof *w->vft);
	w->delta = malloc((size_t)l * sizeof *w->delta);
	w->sf = malloc((size_t)l * sizeof *w->sf);
	w->ipiv = malloc((size_t)l * sizeof *w->ipiv);
	w->iwork = malloc((size_t)8 * l * sizeof *w->iwork);
	if (!w->colnnz || !w->y || !w->x || !w->g.z || !w->g.w || !w->tau || !w->c || !w->r ||
	    !w->f || !w->uf || !w->vft || !w->delta || !w->sf || !w->ipiv || !w->iwork)
		return ev_err_nomem(err);
	for (int64_t p = 0; p < a->rowptr[m]; p++)
		w->colnnz[a->col[p]]++;
	w->g.a = a;
	w->g.x = w->x;
	w->g.l = l;
	gram_plan(&w->g, w->colnnz);

	w->lwork = qr_lwork(n, l);
	dsyev_("V", "U", &l, w->c, &l, w->delta, &q1, &minus1, &info, 1, 1);
	dgesdd_("S", &l, &l, w->f, &l, w->sf, w->uf, &l, w->vft, &l, &q2, &minus1, w->iwork,
		&info, 1);
	if ((int)q1 + 1 > w->lwork)
		w->lwork = (int)q1 + 1;
	if ((int)q2 + 1 > w->lwork)
		w->lwork = (int)q2 + 1;
	if ((w->work = malloc((size_t)w->lwork * sizeof *w->work)) == NULL)
		return ev_err_nomem(err);
	return 0;
}

/* Q₀ = orth((AᵀA)^q Ω), an LU basis between the products; then rounded
 * to the single precision the products read, so that M below is AᵀA Q₀
 * to double precision.  Q₀ in y (column-major) and x (row-major).  Returns
 * 0, or -1 with *err set. */
static int
range_basis(struct sparse_svd *w, const struct ev_svd_opts *opts, struct ev_err *err)
{
	int n = w->n, l = w->l;
	uint64_t state = opts->seed;

	ev_svd_gaussian(&state, w->g.z, (size_t)n * l);	/* Ω row by row */
	to_colmajor(w->g.z, w->y, n, l);
	for (int it = 0; it < opts->power_iters; it++) {
		to_rowmajor(w->y, w->x, n, l);
		gram_apply(&w->g);
		to_colmajor(w->g.z, w->y, n, l);
		if (it + 1 < opts->power_iters)
			lu_basis(w->y, n, l, w->ipiv);
	}
	if (orthonormalise(w->y, n, l, w->tau, w->work, w->lwork, err) == -1)
		return -1;
	to_rowmajor(w->y, w->x, n, l);
	for (size_t q = 0; q < (size_t)n * l; q++)
		w->y[q] = (float)w->y[q];
	return 0;
}

/* From Q₀ (range_basis()): M = AᵀA Q₀ (in g.z, row-major: Mᵀ column-major);
 * C = Q₀ᵀ M = KᵀK for K = A Q₀, made symmetric, C = W Δ Wᵀ; M = Q₂ R₂ (Q₂
 * in y); and the small SVD F = Uf Σ Vfᵀ.  Returns 0, or -1 with *err set. */
static int
small_svd(struct sparse_svd *w, struct ev_err *err)
{
	int n = w->n, l = w->l, info = 0, i, j;
	double one = 1.0, zero = 0.0, tol, *c = w->c, *y = w->y;

	gram_apply(&w->g);
	dgemm_("N", "N", &l, &l, &n, &one, w->g.z, &l, y, &n, &zero, c, &l, 1, 1);
	for (j = 0; j < l; j++)
		for (i = 0; i < j; i++)
			c[i + (size_t)j * l] = c[j + (size_t)i * l] =
			    (c[i + (size_t)j * l] + c[j + (size_t)i * l]) / 2;
	dsyev_("V", "U", &l, c, &l, w->delta, w->work, &w->lwork, &info, 1, 1);
	if (info != 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"eigendecomposition failed (lapack info %d)", info);

	/* M = Q₂ R₂ */
	to_colmajor(w->g.z, y, n, l);
	dgeqrf_(&n, &l, y, &n, w->tau, w->work, &w->lwork, &info);
	if (info == 0) {
		for (j = 0; j < l; j++)
			for (i = 0; i <= j; i++)
				w->r[i + (size_t)j * l] = y[i + (size_t)j * n];
		dorgqr_(&n, &l, &l, y, &n, w->tau, w->work, &w->lwork, &info);
	}
	if (info != 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"qr factorisation failed (lapack info %d)", info);

	/* With Q_L an orthonormal basis of K's range, Bᵀ = Aᵀ Q_L = Q₂ F for
	 * F = R₂ W Δ^-½ (F Fᵀ = R₂ C⁺ R₂ᵀ); directions of K below 10⁻⁵ of its
	 * largest are left out (its null space, and rounding).  F = Uf Σ Vfᵀ. */
	dgemm_("N", "N", &l, &l, &l, &one, w->r, &l, c, &l, &zero, w->f, &l, 1, 1);
	tol = w->delta[l - 1] * 1e-10;
	for (j = 0; j < l; j++) {
		double scale = w->delta[j] > tol && w->delta[j] > 0 ? 1.0 / sqrt(w->delta[j]) : 0;

		for (i = 0; i < l; i++)
			w->f[i + (size_t)j * l] *= scale;
	}
	dgesdd_("S", &l, &l, w->f, &l, w->sf, w->uf, &l, w->vft, &l, w->work, &w->lwork, w->iwork,
		&info, 1);
	if (info != 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "singular value decomposition failed "
			"(lapack info %d)", info);
	return 0;
}

int
ev_svd_sparse(const struct ev_csr *a, int rank, const struct ev_svd_opts *opts,
	double *s, double *v, double *u, struct ev_err *err)
{
	static const struct ev_svd_opts defaults = EV_SVD_OPTS_INIT;
	struct sparse_svd w = { 0 };
	double one = 1.0, zero = 0.0, *vfull;
	int m, n, l, i, j, rc = -1;

	if (opts == NULL)
		opts = &defaults;
	if (check_csr(a, rank, err) == -1)
		return -1;
	m = a->rows;
	n = a->cols;
	l = rank + (opts->oversample > 0 ? opts->oversample : 0);
	if (l > m)
		l = m;
	if (l > n)
		l = n;
	if (sparse_svd_alloc(&w, a, l, err) == -1 || range_basis(&w, opts, err) == -1 ||
	    small_svd(&w, err) == -1)
		goto out;

	/* V = Q₂ Uf, columns by falling singular value */
	vfull = w.g.z;		/* no longer needed: n × l */
	dgemm_("N", "N", &n, &l, &l, &one, w.y, &n, w.uf, &l, &zero, vfull, &n, 1, 1);
	for (i = 0; i < rank; i++) {
		double big = 0, sign = 1;
		double *vc = vfull + (size_t)i * n;

		for (j = 0; j < n; j++)
			if (fabs(vc[j]) > big) {
				big = fabs(vc[j]);
				sign = vc[j] < 0 ? -1 : 1;
			}
		s[i] = w.sf[i];
		for (j = 0; j < n; j++)
			v[(size_t)j * rank + i] = sign * vc[j];
	}
	/* U = A V Σ⁻¹ (a zero singular value leaves its column zero) */
	if (u != NULL)
		for (i = 0; i < m; i++)
			for (int k = 0; k < rank; k++) {
				double d = 0;

				for (int64_t p = a->rowptr[i]; p < a->rowptr[i + 1]; p++)
					d += a->val[p] * v[(size_t)a->col[p] * rank + k];
				u[(size_t)i * rank + k] = s[k] > 0 ? d / s[k] : 0;
			}
	rc = 0;
out:
	sparse_svd_free(&w);
	return rc;
}
