/* test_svd.c: the randomised truncated SVD against matrices whose
 * decomposition is known by construction: A = H₁ diag(σ) H₂ᵀ, with H₁ and H₂
 * Householder reflections (exactly orthogonal). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svd.h"

/* Column j of the reflection I - 2 w wᵀ / (wᵀ w) of order n. */
static double
refl(const double *w, int n, int i, int j)
{
	double ww = 0;

	for (int k = 0; k < n; k++)
		ww += w[k] * w[k];
	return (i == j ? 1.0 : 0.0) - 2.0 * w[i] * w[j] / ww;
}

struct known {
	int m, n, r;
	double *a;		/* m × n row-major */
	double *ut, *vt;	/* m × r and n × r row-major: the singular vectors */
	double *sig;
	struct ev_csr csr;
	double *s, *v, *u;	/* known_svd()'s result: rank values, n × rank, m × rank */
};

static void
known_make(struct known *k, int m, int n, const double *sig, int r)
{
	double *w1 = malloc(m * sizeof *w1), *w2 = malloc(n * sizeof *w2);

	memset(k, 0, sizeof *k);
	k->m = m;
	k->n = n;
	k->r = r;
	k->a = calloc((size_t)m * n, sizeof *k->a);
	k->ut = malloc((size_t)m * r * sizeof *k->ut);
	k->vt = malloc((size_t)n * r * sizeof *k->vt);
	k->sig = malloc(r * sizeof *k->sig);
	for (int i = 0; i < m; i++)
		w1[i] = sin(1.0 + i * 0.7) + 0.3;
	for (int j = 0; j < n; j++)
		w2[j] = cos(2.0 + j * 1.3) - 0.2;
	for (int t = 0; t < r; t++) {
		k->sig[t] = sig[t];
		for (int i = 0; i < m; i++)
			k->ut[i * r + t] = refl(w1, m, i, t);
		for (int j = 0; j < n; j++)
			k->vt[j * r + t] = refl(w2, n, j, t);
	}
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			for (int t = 0; t < r; t++)
				k->a[i * n + j] += k->ut[i * r + t] * sig[t] * k->vt[j * r + t];
	/* every entry stored, in float (the embedder's precision) */
	k->csr.rows = m;
	k->csr.cols = n;
	k->csr.rowptr = malloc((m + 1) * sizeof *k->csr.rowptr);
	k->csr.col = malloc((size_t)m * n * sizeof *k->csr.col);
	k->csr.val = malloc((size_t)m * n * sizeof *k->csr.val);
	for (int i = 0; i <= m; i++)
		k->csr.rowptr[i] = (int64_t)i * n;
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			/* columns stored in a scrambled order: any order is allowed */
			int jj = (j * 7 + 3) % n;

			k->csr.col[i * n + j] = jj;
			k->csr.val[i * n + j] = (float)k->a[i * n + jj];
		}
	free(w1);
	free(w2);
}

static void
known_free(struct known *k)
{
	free(k->a);
	free(k->ut);
	free(k->vt);
	free(k->sig);
	free(k->csr.rowptr);
	free(k->csr.col);
	free(k->csr.val);
	free(k->s);
	free(k->v);
	free(k->u);
}

/* known_make(k, m, n, sig, r), then its rank-rank SVD into k->s, k->v and,
 * with_u, k->u, which must succeed. */
static void
known_svd(struct known *k, int m, int n, const double *sig, int r, int rank, int with_u)
{
	struct ev_err err = { 0 };

	known_make(k, m, n, sig, r);
	k->s = malloc(rank * sizeof *k->s);
	k->v = malloc((size_t)n * rank * sizeof *k->v);
	k->u = with_u ? malloc((size_t)m * rank * sizeof *k->u) : NULL;
	cr_assert_eq(ev_svd_sparse(&k->csr, rank, NULL, k->s, k->v, k->u, &err), 0, "%s", err.msg);
}

/* The sum of a[t * sa] * b[t * sb] for t from 0 to n - 1, in that order. */
static double
dot(const double *a, int sa, const double *b, int sb, int n)
{
	double d = 0;

	for (int t = 0; t < n; t++)
		d += a[t * sa] * b[t * sb];
	return d;
}

/* The dot products of the first k columns of a and of b (n rows, sa and sb
 * columns) are the identity matrix, to tol (up to sign: their magnitudes). */
static void
expect_identity(const double *a, int sa, const double *b, int sb, int k, int n, int up_to_sign,
	double tol)
{
	for (int i = 0; i < k; i++)
		for (int j = 0; j < k; j++) {
			double d = dot(a + i, sa, b + j, sb, n);

			cr_expect(fabs((up_to_sign ? fabs(d) : d) - (i == j)) < tol,
			    "<column %d, column %d> = %.12f", i, j, d);
		}
}

/* s[0..n) are the known singular values sig[0..n), to 1e-5. */
static void
check_sigmas(const double *s, const double *sig, int n)
{
	for (int i = 0; i < n; i++)
		cr_expect(fabs(s[i] - sig[i]) < 1e-5, "sigma %d: %.9f, want %.9f", i, s[i], sig[i]);
}

/* The rank-rank SVD of an m × n matrix whose singular values are sig[0..r)
 * by construction finds the first rank of them. */
static void
check_leading_values(int m, int n, const double *sig, int r, int rank)
{
	struct known k;

	known_svd(&k, m, n, sig, r, rank, 0);
	check_sigmas(k.s, sig, rank);
	known_free(&k);
}

/* The singular values most tests decompose. */
static const double sig6[] = { 10, 7, 5, 3, 2, 1 };

Test(svd, recovers_the_singular_values_of_a_low_rank_matrix)
{
	check_leading_values(40, 30, sig6, 6, 6);
}

/* The rank-rank SVD of an m × n matrix of the singular values sig6 finds the
 * known right singular vectors, up to sign, and when check_values, the
 * leading values. */
static void
check_known_vectors(int m, int n, int rank, int check_values)
{
	struct known k;

	known_svd(&k, m, n, sig6, 6, rank, 0);
	if (check_values)
		check_sigmas(k.s, sig6, rank);
	/* |<v_i, v_true_j>| is the identity: same vectors up to sign */
	expect_identity(k.v, rank, k.vt, 6, rank, n, 1, 1e-5);
	known_free(&k);
}

Test(svd, right_singular_vectors_span_the_known_subspace)
{
	check_known_vectors(40, 30, 4, 0);
}

Test(svd, left_and_right_vectors_satisfy_a_v_equals_sigma_u)
{
	static const double sig[] = { 9, 4, 2.5, 1, 0.5 };
	struct known k;

	known_svd(&k, 35, 25, sig, 5, 3, 1);
	for (int i = 0; i < 3; i++)
		for (int r = 0; r < 35; r++) {
			double av = dot(k.a + r * 25, 1, k.v + i, 3, 25);

			cr_expect(fabs(av - k.s[i] * k.u[r * 3 + i]) < 1e-5, "row %d, component %d", r,
			    i);
		}
	known_free(&k);
}

Test(svd, decaying_spectrum_truncated_to_the_leading_values)
{
	double sig[20];

	for (int i = 0; i < 20; i++)
		sig[i] = pow(0.5, i);
	check_leading_values(50, 20, sig, 20, 5);
}

Test(svd, many_rows_are_taken_a_block_at_a_time_over_several_threads)
{
	/* 20,000 rows: three blocks of rows, and enough work for every
	 * processor; the same values and vectors as a small matrix gives */
	check_known_vectors(20000, 40, 4, 1);
}

Test(svd, right_singular_vectors_are_orthonormal)
{
	struct known k;

	known_svd(&k, 40, 30, sig6, 6, 5, 0);
	expect_identity(k.v, 5, k.v, 5, 5, 30, 0, 1e-9);
	known_free(&k);
}

Test(svd, sign_makes_the_largest_entry_positive)
{
	struct known k;

	known_svd(&k, 40, 30, sig6, 3, 3, 0);
	for (int i = 0; i < 3; i++) {
		double big = 0;

		for (int t = 0; t < 30; t++)
			if (fabs(k.v[t * 3 + i]) > fabs(big))
				big = k.v[t * 3 + i];
		cr_expect_gt(big, 0, "component %d", i);
	}
	known_free(&k);
}

Test(svd, same_input_and_seed_give_identical_output)
{
	double sig[12];
	struct known k;
	double s1[4], s2[4], *v1 = malloc(30 * 4 * sizeof *v1), *v2 = malloc(30 * 4 * sizeof *v2);
	struct ev_err err = { 0 };

	for (int i = 0; i < 12; i++)
		sig[i] = 12 - i;
	known_make(&k, 40, 30, sig, 12);
	cr_assert_eq(ev_svd_sparse(&k.csr, 4, NULL, s1, v1, NULL, &err), 0);
	cr_assert_eq(ev_svd_sparse(&k.csr, 4, NULL, s2, v2, NULL, &err), 0);
	cr_expect_eq(memcmp(s1, s2, sizeof s1), 0);
	cr_expect_eq(memcmp(v1, v2, 30 * 4 * sizeof *v1), 0);
	free(v1);
	free(v2);
	known_free(&k);
}

Test(svd, rank_above_the_smaller_side_is_refused)
{
	static const double sig[] = { 3, 2, 1 };
	struct known k;
	double s[31], *v = malloc(30 * 31 * sizeof *v);
	struct ev_err err = { 0 };

	known_make(&k, 40, 30, sig, 3);
	cr_assert_eq(ev_svd_sparse(&k.csr, 31, NULL, s, v, NULL, &err), -1);
	cr_expect_eq(err.code, EV_EXIT_USAGE);
	cr_expect_str_eq(err.msg, "rank 31 is not within 1..30 (a 40 × 30 matrix)");
	cr_assert_eq(ev_svd_sparse(&k.csr, 0, NULL, s, v, NULL, &err), -1);
	cr_expect_str_eq(err.msg, "rank 0 is not within 1..30 (a 40 × 30 matrix)");
	free(v);
	known_free(&k);
}

Test(svd, rank_equal_to_the_smaller_side_is_exact)
{
	double sig[8];

	for (int i = 0; i < 8; i++)
		sig[i] = 8 - i;
	check_leading_values(12, 8, sig, 8, 8);
}

Test(svd, column_out_of_range_is_refused)
{
	int64_t ptr[] = { 0, 1, 2 };
	int32_t col[] = { 0, 5 };
	float val[] = { 1, 1 };
	struct ev_csr a = { 2, 2, ptr, col, val };
	double s[1], v[2];
	struct ev_err err = { 0 };

	cr_assert_eq(ev_svd_sparse(&a, 1, NULL, s, v, NULL, &err), -1);
	cr_expect_eq(err.code, EV_EXIT_USAGE);
	cr_expect_str_eq(err.msg, "column 5 out of range at entry 1");
}

Test(svd, empty_rows_and_columns_are_fine)
{
	/* a 3 × 4 matrix with one empty row and one empty column: σ = 2, 1 */
	int64_t ptr[] = { 0, 1, 1, 2 };
	int32_t col[] = { 2, 0 };
	float val[] = { 2, -1 };
	struct ev_csr a = { 3, 4, ptr, col, val };
	double s[2], v[8];
	struct ev_err err = { 0 };

	cr_assert_eq(ev_svd_sparse(&a, 2, NULL, s, v, NULL, &err), 0, "%s", err.msg);
	cr_expect(fabs(s[0] - 2) < 1e-6, "%.12f", s[0]);
	cr_expect(fabs(s[1] - 1) < 1e-6, "%.12f", s[1]);
	cr_expect(fabs(v[2 * 2 + 0] - 1) < 1e-6);	/* v1 = e3 */
	cr_expect(fabs(v[0 * 2 + 1] - 1) < 1e-6);	/* v2 = e1, sign made positive */
}

Test(svd, gaussian_numbers_have_mean_zero_and_unit_variance)
{
	uint64_t st = 42;
	size_t n = 200000;
	double *x = malloc(n * sizeof *x), mean = 0, var = 0;

	ev_svd_gaussian(&st, x, n);
	for (size_t i = 0; i < n; i++)
		mean += x[i];
	mean /= n;
	for (size_t i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	var /= n;
	cr_expect(fabs(mean) < 0.01, "mean %f", mean);
	cr_expect(fabs(var - 1) < 0.01, "variance %f", var);
	free(x);
}
