/* test_faiss_prefetch.c: lib/store/faiss_prefetch.cpp -- the prefetch
 * threads of an IVF index's mapped lists, set and read back; other indexes
 * have none; searches give the same hits whatever the threads. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>

#include "faiss_prefetch.h"
#include "test_util.h"

enum { N = 2000, D = 8, K = 5 };

/* An index of factory over N fixed pseudo-random vectors, written to path
 * and read back with io_flags. */
static FaissIndex *
index_of(const char *factory, const char *path, int io_flags)
{
	static float v[N * D];
	static idx_t ids[N];
	FaissIndex *idx, *back;
	unsigned s = 7;

	for (int i = 0; i < N * D; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (float)((s >> 8) % 2001) / 1000.0f - 1.0f;
	}
	for (int i = 0; i < N; i++)
		ids[i] = 10 * i;
	cr_assert_eq(faiss_index_factory(&idx, D, factory, METRIC_INNER_PRODUCT), 0);
	cr_assert_eq(faiss_Index_train(idx, N, v), 0, "%s", faiss_get_last_error());
	cr_assert_eq(faiss_Index_add_with_ids(idx, N, v, ids), 0, "%s", faiss_get_last_error());
	cr_assert_eq(faiss_write_index_fname(idx, path), 0, "%s", faiss_get_last_error());
	faiss_Index_free(idx);
	cr_assert_eq(faiss_read_index_fname(path, io_flags, &back), 0, "%s", faiss_get_last_error());
	return back;
}

Test(faiss_prefetch, a_mapped_ivf_index_takes_the_threads_given)
{
	char path[] = "/tmp/evkit-prefetch-XXXXXX";
	FaissIndex *idx;
	float q[D] = { 1, 0, 0, 0, 0, 0, 0, 0 }, sc[K], sc2[K];
	idx_t ids[K], ids2[K];

	tu_tmpfile(path, 0, "", 0);	/* an empty file Faiss writes over */
	idx = index_of("IVF16,Flat", path, FAISS_IO_FLAG_MMAP);
	cr_assert_eq(ev_faiss_prefetch_get(idx), 32, "Faiss's own default");
	cr_assert_eq(faiss_Index_search(idx, 1, q, K, sc, ids), 0);
	cr_assert_eq(ev_faiss_prefetch_threads(idx, 1), 1);
	cr_assert_eq(ev_faiss_prefetch_get(idx), 1);
	cr_assert_eq(faiss_Index_search(idx, 1, q, K, sc2, ids2), 0);
	cr_assert_eq(memcmp(ids, ids2, sizeof ids), 0, "the same hits");
	cr_assert_eq(memcmp(sc, sc2, sizeof sc), 0, "the same scores");
	cr_assert_eq(ev_faiss_prefetch_threads(idx, 0), 1);
	cr_assert_eq(ev_faiss_prefetch_get(idx), 0);
	cr_assert_eq(ev_faiss_prefetch_threads(idx, -3), 1);
	cr_assert_eq(ev_faiss_prefetch_get(idx), 0, "below 0 is none");
	faiss_Index_free(idx);
	unlink(path);
}

Test(faiss_prefetch, other_indexes_have_no_mapped_lists)
{
	char path[] = "/tmp/evkit-prefetch-XXXXXX";
	FaissIndex *idx;

	tu_tmpfile(path, 0, "", 0);	/* an empty file Faiss writes over */
	idx = index_of("IVF16,Flat", path, 0);	/* read whole: lists in memory */
	cr_assert_eq(ev_faiss_prefetch_threads(idx, 1), 0);
	cr_assert_eq(ev_faiss_prefetch_get(idx), -1);
	faiss_Index_free(idx);
	idx = index_of("IDMap,Flat", path, FAISS_IO_FLAG_MMAP);	/* no lists at all */
	cr_assert_eq(ev_faiss_prefetch_threads(idx, 1), 0);
	cr_assert_eq(ev_faiss_prefetch_get(idx), -1);
	faiss_Index_free(idx);
	unlink(path);
}

Test(faiss_prefetch, the_default_is_one_a_processor_at_most_four)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int want = cpus > 4 ? 4 : (int)cpus;

	cr_assert_eq(ev_faiss_prefetch_default(), want);
}
