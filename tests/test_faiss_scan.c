/* test_faiss_scan.c: lib/store/faiss_scan.cpp -- the IVF-Flat search with
 * lists scanned eight vectors at a time gives Faiss's own ids, scores and
 * order, to the bit, for one query and for batches (whose lists Faiss's
 * quantizer picks through BLAS), with lists in memory or mapped from the
 * file; other indexes are left to Faiss. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>

#include "faiss_scan.h"
#include "test_util.h"

/* 37 dimensions: each vector is scanned in the eight-wide path and the
 * tail of a list (list sizes are not multiples of eight). */
enum { N = 3001, D = 37, NQ = 25, KMAX = 400 };

static float vecs[N * D], queries[NQ * D];

/* Set index's nprobe. */
static void
set_nprobe(FaissIndex *idx, int nprobe)
{
	FaissParameterSpace *ps;

	cr_assert_eq(faiss_ParameterSpace_new(&ps), 0);
	cr_assert_eq(faiss_ParameterSpace_set_index_parameter(ps, idx, "nprobe", nprobe), 0);
	faiss_ParameterSpace_free(ps);
}

/* An IVF-Flat index by inner product over vecs (ids 7 i), nprobe set;
 * mapped from a file when path is not NULL. */
static FaissIndex *
ivf_index(const char *factory, int nprobe, const char *path)
{
	static idx_t ids[N];
	FaissIndex *idx, *back;

	tu_fill_floats(vecs, N * D, 11);
	memcpy(vecs + 100 * D, vecs + 40 * D, D * sizeof *vecs);	/* a tie */
	for (int i = 0; i < N; i++)
		ids[i] = 7 * i;
	cr_assert_eq(faiss_index_factory(&idx, D, factory, METRIC_INNER_PRODUCT), 0);
	cr_assert_eq(faiss_Index_train(idx, N, vecs), 0, "%s", faiss_get_last_error());
	cr_assert_eq(faiss_Index_add_with_ids(idx, N, vecs, ids), 0, "%s", faiss_get_last_error());
	if (path != NULL) {
		cr_assert_eq(faiss_write_index_fname(idx, path), 0, "%s", faiss_get_last_error());
		faiss_Index_free(idx);
		cr_assert_eq(faiss_read_index_fname(path, FAISS_IO_FLAG_MMAP, &back), 0, "%s",
		    faiss_get_last_error());
		idx = back;
	}
	set_nprobe(idx, nprobe);
	return idx;
}

/* The first n queries searched for k by ev_faiss_scan_search() and by
 * faiss_Index_search() give the same bytes. */
static void
assert_as_faiss(FaissIndex *idx, int n, int k)
{
	static float d1[NQ * KMAX], d2[NQ * KMAX];
	static int64_t l1[NQ * KMAX];
	static idx_t l2[NQ * KMAX];

	tu_fill_floats(queries, NQ * D, 5);
	memcpy(queries + D, vecs + 40 * D, D * sizeof *queries);	/* meets the tie */
	cr_assert_eq(ev_faiss_scan_search(idx, n, queries, k, d1, l1), 1, "n %d k %d", n, k);
	cr_assert_eq(faiss_Index_search(idx, n, queries, k, d2, l2), 0);
	for (int i = 0; i < n * k; i++) {
		cr_assert_eq(l1[i], (int64_t)l2[i], "n %d k %d: hit %d: id %lld, Faiss %lld", n, k, i,
		    (long long)l1[i], (long long)l2[i]);
		cr_assert_eq(memcmp(&d1[i], &d2[i], sizeof d1[i]), 0,
		    "n %d k %d: hit %d: score %.9g, Faiss %.9g", n, k, i, d1[i], d2[i]);
	}
}

Test(faiss_scan, one_query_and_batches_as_faiss_searches_them)
{
	FaissIndex *idx = ivf_index("IVF16,Flat", 5, NULL);

	assert_as_faiss(idx, 1, 10);
	assert_as_faiss(idx, 2, 1);
	assert_as_faiss(idx, 3, 100);
	assert_as_faiss(idx, NQ, 10);	/* 20 queries or more: BLAS picks the lists */
	assert_as_faiss(idx, 4, KMAX);	/* more than the lists hold: ids -1 */
	faiss_Index_free(idx);
}

Test(faiss_scan, mapped_lists_as_faiss_searches_them)
{
	char path[] = "/tmp/evkit-scan-XXXXXX";
	FaissIndex *idx;

	tu_tmpfile(path, 0, "", 0);	/* an empty file Faiss writes over */
	idx = ivf_index("IVF32,Flat", 8, path);
	assert_as_faiss(idx, 1, 100);
	assert_as_faiss(idx, NQ, 100);
	faiss_Index_free(idx);
	unlink(path);
}

Test(faiss_scan, nprobe_past_the_lists_visits_them_all)
{
	FaissIndex *idx = ivf_index("IVF8,Flat", 50, NULL);

	assert_as_faiss(idx, 1, 10);
	assert_as_faiss(idx, 5, 10);
	faiss_Index_free(idx);
}

Test(faiss_scan, other_indexes_are_left_to_faiss)
{
	FaissIndex *idx;
	float d[10];
	int64_t l[10];

	tu_fill_floats(queries, NQ * D, 5);
	cr_assert_eq(faiss_index_factory(&idx, D, "Flat", METRIC_INNER_PRODUCT), 0);
	cr_assert_eq(ev_faiss_scan_search(idx, 1, queries, 10, d, l), 0, "flat");
	faiss_Index_free(idx);
	idx = ivf_index("IVF16,Flat", 5, NULL);
	cr_assert_eq(ev_faiss_scan_search(idx, 1, queries, 0, d, l), 0, "k 0");
	set_nprobe(idx, 0);
	cr_assert_eq(ev_faiss_scan_search(idx, 1, queries, 10, d, l), 0, "nprobe 0");
	faiss_Index_free(idx);
	cr_assert_eq(faiss_index_factory(&idx, D, "IVF4,Flat", METRIC_L2), 0);
	cr_assert_eq(ev_faiss_scan_search(idx, 1, queries, 10, d, l), 0, "L2");
	faiss_Index_free(idx);
}

/* A query whose lists hold more than a million floats has the inner products
 * of its later lists computed on a second thread (with two processors to run
 * on) and offered to the heap in the lists' order: the same ids, scores and
 * order as Faiss's, with a thousand vectors stored twice over (ties at the
 * hundredth place too). */
Test(faiss_scan, a_large_query_split_over_two_threads_as_faiss_searches_it)
{
	enum { BN = 24000, BD = 48, BK = 100, BQ = 6 };
	float *v = malloc((size_t)BN * BD * sizeof *v), q[BQ * BD], d1[BK], d2[BK];
	idx_t *ids = malloc(BN * sizeof *ids), l2[BK];
	int64_t l1[BK];
	FaissIndex *idx;

	cr_assert(v != NULL && ids != NULL);
	tu_fill_floats(v, (size_t)BN * BD, 3);
	for (int i = 0; i < 1000; i++)
		memcpy(v + (size_t)(BN - 1 - i) * BD, v + (size_t)i * BD, BD * sizeof *v);
	for (int i = 0; i < BN; i++)
		ids[i] = 3 * i + 1;
	tu_fill_floats(q, BQ * BD, 9);
	memcpy(q, v + 5 * BD, BD * sizeof *q);	/* meets a vector stored twice */
	cr_assert_eq(faiss_index_factory(&idx, BD, "IVF8,Flat", METRIC_INNER_PRODUCT), 0);
	cr_assert_eq(faiss_Index_train(idx, BN, v), 0, "%s", faiss_get_last_error());
	cr_assert_eq(faiss_Index_add_with_ids(idx, BN, v, ids), 0, "%s", faiss_get_last_error());
	set_nprobe(idx, 8);	/* every list: 1,152,000 floats */
	for (int i = 0; i < BQ; i++) {
		cr_assert_eq(ev_faiss_scan_search(idx, 1, q + i * BD, BK, d1, l1), 1);
		cr_assert_eq(faiss_Index_search(idx, 1, q + i * BD, BK, d2, l2), 0);
		for (int j = 0; j < BK; j++) {
			cr_assert_eq(l1[j], (int64_t)l2[j], "query %d hit %d: id %lld, Faiss %lld", i, j,
			    (long long)l1[j], (long long)l2[j]);
			cr_assert_eq(memcmp(&d1[j], &d2[j], sizeof d1[j]), 0, "query %d hit %d", i, j);
		}
	}
	faiss_Index_free(idx);
	free(ids);
	free(v);
}
