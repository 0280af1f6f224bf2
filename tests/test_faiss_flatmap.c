/* test_faiss_flatmap.c: lib/store/faiss_flatmap.cpp -- a Flat index (and an
 * IDMap of one), by inner product or L2, searched with its vectors mapped
 * from the file gives Faiss's own ids, scores and order, to the bit, for one
 * query and a few (scored eight vectors at a time: faiss_scan.cpp), and for
 * a batch (Faiss's BLAS path), with k below and above Faiss's reservoir
 * threshold; the prefix is where Faiss puts
 * the vectors; vectors not aligned, other indexes and files cut short are
 * left to Faiss's reader; and the index file evkit writes (vfile.c) has its
 * vectors aligned, so that a search maps them. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>

#include "faiss_flatmap.h"
#include "faiss_scan.h"
#include "test_util.h"
#include "vfile.h"

enum { N = 1501, D = 24, NQ = 30, KMAX = 120 };

static float vecs[N * D], queries[NQ * D];
static char dir[] = "/tmp/evkit-flatmap-XXXXXX";
static char path[256];

static void
setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/index", dir);
	tu_fill_floats(vecs, N * D, 5);
	memcpy(vecs + 90 * D, vecs + 30 * D, D * sizeof *vecs);	/* scores that tie */
	tu_fill_floats(queries, NQ * D, 9);
}

static void
teardown(void)
{
	unlink(path);
	rmdir(dir);
}

TestSuite(flatmap, .init = setup, .fini = teardown);

/* A new index of factory ("IDMap,Flat" or "Flat") and metric holding vecs
 * (ids 3 i + 1 for IDMap).  (Faiss's C API as evkit builds it adds with
 * ids only: a plain Flat is read back from an IDMap's file, where it is
 * serialised whole after the IDMap's header.) */
static FaissIndex *
made(const char *factory, FaissMetricType metric)
{
	static idx_t ids[N];
	FaissIndex *idx, *flat;
	FILE *f;

	for (int i = 0; i < N; i++)
		ids[i] = 3 * i + 1;
	cr_assert_eq(faiss_index_factory(&idx, D, "IDMap,Flat", metric), 0, "%s",
	    faiss_get_last_error());
	cr_assert_eq(faiss_Index_add_with_ids(idx, N, vecs, ids), 0, "%s", faiss_get_last_error());
	if (strcmp(factory, "Flat") != 0)
		return idx;
	cr_assert_eq(faiss_write_index_fname(idx, path), 0, "%s", faiss_get_last_error());
	faiss_Index_free(idx);
	cr_assert_not_null(f = fopen(path, "rb"));
	cr_assert_eq(fseek(f, 37, SEEK_SET), 0);
	cr_assert_eq(faiss_read_index(f, 0, &flat), 0, "%s", faiss_get_last_error());
	fclose(f);
	return flat;
}

/* idx written to path after pad bytes; the file open, its size in *size. */
static int
written(const FaissIndex *idx, int pad, int64_t *size)
{
	FILE *f = fopen(path, "wb");
	struct stat sb;
	int fd;

	cr_assert_not_null(f);
	for (int i = 0; i < pad; i++)
		putc('#', f);
	cr_assert_eq(faiss_write_index(idx, f), 0, "%s", faiss_get_last_error());
	cr_assert_eq(fclose(f), 0);
	fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fstat(fd, &sb), 0);
	*size = sb.st_size;
	return fd;
}

/* The first n queries give the same bytes searched in a and in b, for k of
 * 50 (Faiss keeps the best in a heap) and of 120 (in its reservoir). */
static void
assert_same_search(FaissIndex *a, FaissIndex *b, int n)
{
	static float d1[NQ * KMAX], d2[NQ * KMAX];
	static idx_t l1[NQ * KMAX], l2[NQ * KMAX];

	for (int k = 50; k <= KMAX; k += KMAX - 50) {
		cr_assert_eq(faiss_Index_search(a, n, queries, k, d1, l1), 0, "%s", faiss_get_last_error());
		cr_assert_eq(faiss_Index_search(b, n, queries, k, d2, l2), 0, "%s", faiss_get_last_error());
		cr_assert_eq(memcmp(l1, l2, (size_t)n * k * sizeof *l1), 0, "the same ids, in order");
		cr_assert_eq(memcmp(d1, d2, (size_t)n * k * sizeof *d1), 0, "the same scores, to the bit");
	}
}

Test(flatmap, a_mapped_flat_index_searches_as_faiss_does)
{
	static const char *const factories[] = { "IDMap,Flat", "Flat" };
	static const FaissMetricType metrics[] = { METRIC_INNER_PRODUCT, METRIC_L2 };

	for (int f = 0; f < 2; f++)
		for (int m = 0; m < 2; m++) {
			FaissIndex *idx = made(factories[f], metrics[m]), *mapped;
			long prefix = ev_faiss_flat_prefix(idx);
			int64_t size;
			int pad = (int)((EV_FAISS_FLAT_ALIGN - prefix % EV_FAISS_FLAT_ALIGN) % EV_FAISS_FLAT_ALIGN);
			int fd = written(idx, pad + EV_FAISS_FLAT_ALIGN, &size);
			float first[D];

			cr_assert_eq(prefix, f == 0 ? 82 : 45, "%s", factories[f]);
			/* the prefix is where Faiss wrote the first vector */
			cr_assert_eq(pread(fd, first, sizeof first, pad + EV_FAISS_FLAT_ALIGN + prefix),
			    (ssize_t)sizeof first);
			cr_assert_eq(memcmp(first, vecs, sizeof first), 0);
			cr_assert_eq(ev_faiss_flat_map(fd, pad + EV_FAISS_FLAT_ALIGN, size, &mapped), 1,
			    "%s", factories[f]);
			close(fd);	/* the mapping stays */
			cr_assert(ev_faiss_flat_mapped(mapped));
			cr_assert_not(ev_faiss_flat_mapped(idx));
			cr_assert_eq(faiss_Index_ntotal(mapped), N);
			cr_assert_eq(faiss_Index_d(mapped), D);
			assert_same_search(idx, mapped, 1);	/* scored pair by pair */
			assert_same_search(idx, mapped, 19);	/* ... up to Faiss's threshold */
			assert_same_search(idx, mapped, NQ);	/* a batch: BLAS */
			cr_assert_neq(faiss_Index_reset(mapped), 0, "read only");
			faiss_Index_free(mapped);
			faiss_Index_free(idx);
		}
}

Test(flatmap, vectors_not_aligned_other_indexes_and_short_files_are_left_to_faiss)
{
	FaissIndex *idx = made("IDMap,Flat", METRIC_INNER_PRODUCT), *mapped = NULL, *ivf;
	long prefix = ev_faiss_flat_prefix(idx);
	int pad = (int)((EV_FAISS_FLAT_ALIGN - prefix % EV_FAISS_FLAT_ALIGN) % EV_FAISS_FLAT_ALIGN);
	int64_t size;
	int fd;

	fd = written(idx, pad + 4, &size);
	cr_assert_eq(ev_faiss_flat_map(fd, pad + 4, size, &mapped), 0, "not aligned");
	cr_assert_null(mapped);
	close(fd);
	fd = written(idx, pad, &size);
	for (int64_t cut = 0; cut < size; cut += 997)
		cr_assert_eq(ev_faiss_flat_map(fd, pad, cut, &mapped), 0, "cut to %lld bytes",
		    (long long)cut);
	cr_assert_eq(ev_faiss_flat_map(fd, pad, size - 1, &mapped), 0, "an id cut short");
	cr_assert_eq(ev_faiss_flat_map(fd, pad + 1, size, &mapped), 0, "not at the index");
	cr_assert_eq(ev_faiss_flat_map(fd, pad, size, &mapped), 1);
	faiss_Index_free(mapped);
	close(fd);
	cr_assert_eq(faiss_index_factory(&ivf, D, "IVF4,Flat", METRIC_INNER_PRODUCT), 0);
	cr_assert_eq(faiss_Index_train(ivf, N, vecs), 0);
	cr_assert_eq(ev_faiss_flat_prefix(ivf), -1);
	fd = written(ivf, 0, &size);
	cr_assert_eq(ev_faiss_flat_map(fd, 0, size, &mapped), 0, "an IVF index");
	close(fd);
	cr_assert_eq(ev_faiss_flat_prefix(NULL), -1);
	faiss_Index_free(ivf);
	faiss_Index_free(idx);
}

Test(flatmap, the_index_file_evkit_writes_is_mapped_when_searched)
{
	struct ev_vfile_header h = { 0 }, back = { 0 };
	struct ev_err err = { 0 };
	FaissIndex *idx = made("IDMap,Flat", METRIC_INNER_PRODUCT), *read;
	char *tmp;

	h.store_id = "s1";
	h.generation = 3;
	h.dim = D;
	h.count = N;
	h.model = "m1";
	h.factory = "IDMap,Flat";
	tmp = ev_vfile_write_tmp(path, &h, idx, &err);
	cr_assert_not_null(tmp, "%s", err.msg);
	cr_assert_eq(rename(tmp, path), 0);
	free(tmp);
	cr_assert_eq(ev_vfile_read(path, FAISS_IO_FLAG_MMAP, &back, &read, &err), 1, "%s", err.msg);
	cr_assert_str_eq(back.store_id, "s1", "the padded header reads as written");
	cr_assert_eq(back.count, N);
	cr_assert(ev_faiss_flat_mapped(read));
	assert_same_search(idx, read, NQ);
	faiss_Index_free(read);
	ev_vfile_header_release(&back);
	/* read without mapping: Faiss's own reader, the same index */
	cr_assert_eq(ev_vfile_read(path, 0, &back, &read, &err), 1, "%s", err.msg);
	cr_assert_not(ev_faiss_flat_mapped(read));
	assert_same_search(idx, read, 1);
	faiss_Index_free(read);
	ev_vfile_header_release(&back);
	faiss_Index_free(idx);
}

Test(flatmap, a_few_queries_are_scored_eight_vectors_at_a_time_as_faiss_scores_them)
{
	static float d1[19 * KMAX], d2[19 * KMAX];
	static idx_t l1[19 * KMAX], l2[19 * KMAX];
	FaissIndex *flat = made("Flat", METRIC_INNER_PRODUCT);

	for (int n = 1; n <= 19; n += 18)
		for (int k = 50; k <= KMAX; k += KMAX - 50) {
			cr_assert_eq(ev_faiss_scan_flat_ip(n, queries, vecs, N, D, k, d1, l1), 1);
			cr_assert_eq(faiss_Index_search(flat, n, queries, k, d2, l2), 0);
			cr_assert_eq(memcmp(l1, l2, (size_t)n * k * sizeof *l1), 0, "n %d, k %d", n, k);
			cr_assert_eq(memcmp(d1, d2, (size_t)n * k * sizeof *d1), 0, "n %d, k %d", n, k);
		}
	/* fewer vectors than k: the rest missing, as Faiss has them */
	cr_assert_eq(ev_faiss_scan_flat_ip(1, queries, vecs, 3, D, 5, d1, l1), 1);
	cr_assert(l1[0] >= 0 && l1[1] >= 0 && l1[2] >= 0 && l1[2] < 3);
	cr_assert_eq(l1[3], -1);
	cr_assert_eq(l1[4], -1);
	/* Faiss's BLAS threshold (20 queries) and over: left to Faiss */
	cr_assert_eq(ev_faiss_scan_flat_ip(20, queries, vecs, N, D, 10, d1, l1), 0);
	faiss_Index_free(flat);
}
