/* test_faiss_flatmap.c: lib/store/faiss_flatmap.cpp -- a Flat index (and an
 * IDMap of one), by inner product or L2, searched with its vectors mapped
 * from the file gives Faiss's own ids, scores and order, to the bit, for one
 * query and a few (scored eight vectors at a time: faiss_scan.cpp), and for
 * a batch (Faiss's BLAS path), with k below and above Faiss's reservoir
 * threshold; the prefix is where Faiss puts
 * the vectors; vectors not aligned, other indexes and files cut short are
 * left to Faiss's reader; and the index file evkit writes (vfile.c) has its
 * vectors aligned, so that a search maps them.  The same of an IVF-Flat
 * index with its centroids mapped (its lists, every one or a few not
 * empty, mapped as Faiss maps them), searched by Faiss and by
 * faiss_scan.cpp. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>

#include "faiss_flatmap.h"
#include "faiss_scan.h"
#include "test_util.h"
#include "vfaiss.h"

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

/* idx written after pad bytes (its vectors aligned), the file open, its
 * size in *size: it is not mapped when the file is cut short anywhere (every
 * 997 bytes, and its last byte), nor from a byte past the index's start. */
static int
written_cut_short(const FaissIndex *idx, int pad, int64_t *size)
{
	FaissIndex *mapped = NULL;
	int fd = written(idx, pad, size);

	for (int64_t cut = 0; cut < *size; cut += 997)
		cr_assert_eq(ev_faiss_flat_map(fd, pad, cut, &mapped), 0, "cut to %lld bytes",
		    (long long)cut);
	cr_assert_eq(ev_faiss_flat_map(fd, pad, *size - 1, &mapped), 0, "the last id cut short");
	cr_assert_eq(ev_faiss_flat_map(fd, pad + 1, *size, &mapped), 0, "not at the index");
	cr_assert_null(mapped);
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
	fd = written_cut_short(idx, pad, &size);
	cr_assert_eq(ev_faiss_flat_map(fd, pad, size, &mapped), 1);
	faiss_Index_free(mapped);
	close(fd);
	cr_assert_eq(faiss_index_factory(&ivf, D, "IVF4,PQ4", METRIC_INNER_PRODUCT), 0);
	cr_assert_eq(faiss_Index_train(ivf, N, vecs), 0);
	cr_assert_eq(ev_faiss_flat_prefix(ivf), -1);
	fd = written(ivf, 0, &size);
	cr_assert_eq(ev_faiss_flat_map(fd, 0, size, &mapped), 0, "an IVF index of PQ codes");
	close(fd);
	cr_assert_eq(ev_faiss_flat_prefix(NULL), -1);
	faiss_Index_free(ivf);
	faiss_Index_free(idx);
}

/* idx of factory, holding count vectors, written to path as evkit writes
 * an index file (its header line, padded, then Faiss's bytes). */
static void
written_by_evkit(const FaissIndex *idx, const char *factory, long long count)
{
	struct ev_vfile_header h = { 0 };
	struct ev_err err = { 0 };
	char *tmp;

	h.store_id = "s1";
	h.generation = 3;
	h.dim = D;
	h.count = count;
	h.model = "m1";
	h.factory = (char *)factory;
	cr_assert_not_null(tmp = ev_vfaiss_write_tmp(path, &h, idx, &err), "%s", err.msg);
	cr_assert_eq(rename(tmp, path), 0);
	free(tmp);
}

Test(flatmap, the_index_file_evkit_writes_is_mapped_when_searched)
{
	struct ev_vfile_header back = { 0 };
	struct ev_err err = { 0 };
	FaissIndex *idx = made("IDMap,Flat", METRIC_INNER_PRODUCT), *read;

	written_by_evkit(idx, "IDMap,Flat", N);
	cr_assert_eq(ev_vfaiss_read(path, FAISS_IO_FLAG_MMAP, &back, &read, &err), 1, "%s", err.msg);
	cr_assert_str_eq(back.store_id, "s1", "the padded header reads as written");
	cr_assert_eq(back.count, N);
	cr_assert(ev_faiss_flat_mapped(read));
	assert_same_search(idx, read, NQ);
	faiss_Index_free(read);
	ev_vfile_header_release(&back);
	/* read without mapping: Faiss's own reader, the same index */
	cr_assert_eq(ev_vfaiss_read(path, 0, &back, &read, &err), 1, "%s", err.msg);
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

/* Set index's nprobe, as ev-search-vec --nprobe does. */
static void
set_nprobe(FaissIndex *idx, int nprobe)
{
	FaissParameterSpace *ps = NULL;
	struct ev_err err = { 0 };

	cr_assert_eq(ev_vfaiss_param(&ps, idx, "nprobe", nprobe, &err), 1, "%s", err.msg);
	faiss_ParameterSpace_free(ps);
}

/* An IVF-Flat index of nlist lists by metric, trained on vecs, holding the
 * first n of them (ids 5 i + 2), written to visit 3 lists. */
static FaissIndex *
ivf_made(int nlist, FaissMetricType metric, int n)
{
	static idx_t ids[N];
	char factory[32];
	FaissIndex *idx;

	for (int i = 0; i < N; i++)
		ids[i] = 5 * i + 2;
	snprintf(factory, sizeof factory, "IVF%d,Flat", nlist);
	cr_assert_eq(faiss_index_factory(&idx, D, factory, metric), 0, "%s", faiss_get_last_error());
	cr_assert_eq(faiss_Index_train(idx, N, vecs), 0, "%s", faiss_get_last_error());
	cr_assert_eq(faiss_Index_add_with_ids(idx, n, vecs, ids), 0, "%s", faiss_get_last_error());
	set_nprobe(idx, 3);
	return idx;
}

/* idx written after an aligned prefix, mapped: 1 with *mapped, or 0. */
static int
ivf_mapped(FaissIndex *idx, int shift, FaissIndex **mapped)
{
	long prefix = ev_faiss_flat_prefix(idx);
	int pad = (int)((EV_FAISS_FLAT_ALIGN - prefix % EV_FAISS_FLAT_ALIGN) % EV_FAISS_FLAT_ALIGN);
	int64_t size;
	int fd = written(idx, pad + shift, &size), r;

	cr_assert_eq(prefix, 98, "the IVF's header, nlist, nprobe and its quantizer's header");
	r = ev_faiss_flat_map(fd, pad + shift, size, mapped);
	close(fd);	/* the mapping stays */
	return r;
}

/* The first n queries searched for k in mapped by faiss_scan.cpp give the
 * bytes Faiss's own search of idx gives. */
static void
assert_scan_as_faiss(FaissIndex *idx, FaissIndex *mapped, int n, int k)
{
	static float d1[NQ * KMAX], d2[NQ * KMAX];
	static int64_t l1[NQ * KMAX];
	static idx_t l2[NQ * KMAX];

	cr_assert_eq(ev_faiss_scan_search(mapped, n, queries, k, d1, l1), 1);
	cr_assert_eq(faiss_Index_search(idx, n, queries, k, d2, l2), 0);
	cr_assert_eq(memcmp(l1, l2, (size_t)n * k * sizeof *l1), 0, "n %d, k %d: the same ids", n, k);
	cr_assert_eq(memcmp(d1, d2, (size_t)n * k * sizeof *d1), 0, "n %d, k %d: the same scores", n,
	    k);
}

Test(flatmap, a_mapped_ivf_index_searches_as_faiss_does)
{
	static const FaissMetricType metrics[] = { METRIC_INNER_PRODUCT, METRIC_L2 };

	for (int m = 0; m < 2; m++) {
		FaissIndex *idx = ivf_made(16, metrics[m], N), *mapped;

		cr_assert_eq(ivf_mapped(idx, EV_FAISS_FLAT_ALIGN, &mapped), 1, "metric %d", m);
		cr_assert(ev_faiss_flat_mapped(mapped));
		cr_assert_not(ev_faiss_flat_mapped(idx));
		cr_assert_eq(faiss_Index_ntotal(mapped), N);
		cr_assert_eq(faiss_Index_d(mapped), D);
		assert_same_search(idx, mapped, 1);	/* the centroids scored pair by pair */
		assert_same_search(idx, mapped, NQ);	/* a batch: BLAS */
		set_nprobe(idx, 16);	/* (the mapped index visits the 3 written) */
		set_nprobe(mapped, 16);
		assert_same_search(idx, mapped, 1);
		if (metrics[m] == METRIC_INNER_PRODUCT) {
			assert_scan_as_faiss(idx, mapped, 1, 50);
			assert_scan_as_faiss(idx, mapped, NQ, KMAX);
		}
		faiss_Index_free(mapped);
		faiss_Index_free(idx);
	}
}

Test(flatmap, an_ivf_index_with_few_lists_not_empty_is_mapped_too)
{
	/* 5 vectors in at most 5 of 64 lists: Faiss writes the sizes sparse */
	FaissIndex *idx = ivf_made(64, METRIC_INNER_PRODUCT, 5), *mapped;

	cr_assert_eq(ivf_mapped(idx, 0, &mapped), 1);
	cr_assert_eq(faiss_Index_ntotal(mapped), 5);
	assert_same_search(idx, mapped, 1);
	assert_scan_as_faiss(idx, mapped, 1, 50);
	faiss_Index_free(mapped);
	faiss_Index_free(idx);
}

Test(flatmap, ivf_centroids_not_aligned_and_damaged_ivf_files_are_left_to_faiss)
{
	FaissIndex *idx = ivf_made(16, METRIC_INNER_PRODUCT, N), *mapped = NULL;
	long prefix = ev_faiss_flat_prefix(idx);
	int pad = (int)((EV_FAISS_FLAT_ALIGN - prefix % EV_FAISS_FLAT_ALIGN) % EV_FAISS_FLAT_ALIGN);
	int64_t size, ntotal = N - 1;
	int fd;

	cr_assert_eq(ivf_mapped(idx, 4, &mapped), 0, "not aligned");
	cr_assert_null(mapped);
	fd = written_cut_short(idx, pad, &size);
	close(fd);
	/* a count its lists do not hold */
	fd = open(path, O_RDWR);
	cr_assert_eq(pwrite(fd, &ntotal, sizeof ntotal, pad + 4 + 4), (ssize_t)sizeof ntotal);
	cr_assert_eq(ev_faiss_flat_map(fd, pad, size, &mapped), 0, "lists of another count");
	close(fd);
	faiss_Index_free(idx);
}

Test(flatmap, the_ivf_index_file_evkit_writes_has_its_centroids_mapped_when_searched)
{
	struct ev_vfile_header back = { 0 };
	struct ev_err err = { 0 };
	FaissIndex *idx = ivf_made(16, METRIC_INNER_PRODUCT, N), *read;

	written_by_evkit(idx, "IVF16,Flat", N);
	cr_assert_eq(ev_vfaiss_read(path, FAISS_IO_FLAG_MMAP, &back, &read, &err), 1, "%s", err.msg);
	cr_assert(ev_faiss_flat_mapped(read));
	assert_same_search(idx, read, 1);
	assert_scan_as_faiss(idx, read, 1, 50);
	faiss_Index_free(read);
	ev_vfile_header_release(&back);
	faiss_Index_free(idx);
}
