/* faiss_scan.cpp: an IVF-Flat search with its lists scanned eight vectors
 * at a time.  See faiss_scan.h. */
#include "faiss_scan.h"

#include <cstddef>
#include <cstring>

#include <sys/mman.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#include <omp.h>
#include <unistd.h>
#include <exception>
#include <new>
#include <typeinfo>
#include <vector>

#include <faiss/IndexFlat.h>
#include <faiss/IndexIVFFlat.h>
#include <faiss/invlists/InvertedLists.h>
#include <faiss/impl/ResultHandler.h>
#include <faiss/invlists/OnDiskInvertedLists.h>
#include <faiss/utils/Heap.h>
#include <faiss/utils/distances.h>

namespace {

typedef faiss::CMin<float, int64_t> HeapForIP;	/* Faiss's heap of an IP search */
typedef faiss::Index::idx_t Id;

/* The j-th float at p, which need not be aligned (an index file's lists
 * are mapped at whatever offset the file has them). */
inline float
at(const unsigned char *p, size_t j)
{
	float v;

	std::memcpy(&v, p + j * sizeof v, sizeof v);
	return v;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The scan asks for the bytes of the next eight vectors before it reads
 * them, this many bytes past the place it reads in the current eight: a
 * processor's own prefetcher does not follow eight streams at once.  On
 * 29 MB of vectors of 256 dimensions out of the cache, 6.0 ms without,
 * 4.3 with the next eight's same place, 3.7 with 1 KB past it, 4.0 with 8
 * KB; in the cache, no change. */
#define PREFETCH_AHEAD 1024

/* inner_products() of eight vectors with AVX2: lane v of one register is
 * vector v's sum, each lane adding x[j] y_v[j] dimension by dimension, as
 * the scalar code does (a product rounded, then the sum rounded: the
 * target has no fused multiply-add, and the file is built with
 * -ffp-contract=off), so every score is the same to the bit.  The vectors'
 * floats are read eight at a time and transposed in registers. */
__attribute__((target("avx2"))) void
inner_products8_avx2(const float *x, const unsigned char *y, size_t d, float *ip)
{
	size_t vb = d * sizeof(float);
	__m256 s = _mm256_setzero_ps();
	size_t j = 0;

#define EV_ROW(v) _mm256_loadu_ps(reinterpret_cast<const float *>(y + (v) * vb) + j)
#define EV_ADD(c, o) s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_set1_ps(x[j + (o)]), (c)))
	for (; j + 8 <= d; j += 8) {
		if (j % 16 == 0)	/* a cache line a vector */
			for (size_t v = 0; v < 8; v++)
				_mm_prefetch(reinterpret_cast<const char *>(y + (8 + v) * vb + j * sizeof(float) +
				    PREFETCH_AHEAD), _MM_HINT_T0);
		__m256 t0 = _mm256_unpacklo_ps(EV_ROW(0), EV_ROW(1));
		__m256 t1 = _mm256_unpackhi_ps(EV_ROW(0), EV_ROW(1));
		__m256 t2 = _mm256_unpacklo_ps(EV_ROW(2), EV_ROW(3));
		__m256 t3 = _mm256_unpackhi_ps(EV_ROW(2), EV_ROW(3));
		__m256 t4 = _mm256_unpacklo_ps(EV_ROW(4), EV_ROW(5));
		__m256 t5 = _mm256_unpackhi_ps(EV_ROW(4), EV_ROW(5));
		__m256 t6 = _mm256_unpacklo_ps(EV_ROW(6), EV_ROW(7));
		__m256 t7 = _mm256_unpackhi_ps(EV_ROW(6), EV_ROW(7));
		/* u0: dimensions j and j+4 of vectors 0-3 and of 4-7; u1: j+1, j+5 ... */
		__m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xee);
		__m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xee);
		__m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xee);
		__m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xee);

		EV_ADD(_mm256_permute2f128_ps(u0, u4, 0x20), 0);
		EV_ADD(_mm256_permute2f128_ps(u1, u5, 0x20), 1);
		EV_ADD(_mm256_permute2f128_ps(u2, u6, 0x20), 2);
		EV_ADD(_mm256_permute2f128_ps(u3, u7, 0x20), 3);
		EV_ADD(_mm256_permute2f128_ps(u0, u4, 0x31), 4);
		EV_ADD(_mm256_permute2f128_ps(u1, u5, 0x31), 5);
		EV_ADD(_mm256_permute2f128_ps(u2, u6, 0x31), 6);
		EV_ADD(_mm256_permute2f128_ps(u3, u7, 0x31), 7);
	}
	for (; j < d; j++)
		EV_ADD(_mm256_setr_ps(at(y, j), at(y + vb, j), at(y + 2 * vb, j),
		    at(y + 3 * vb, j), at(y + 4 * vb, j), at(y + 5 * vb, j), at(y + 6 * vb, j),
		    at(y + 7 * vb, j)), 0);
#undef EV_ADD
#undef EV_ROW
	_mm256_storeu_ps(ip, s);
}

/* Whether the processor runs inner_products8_avx2(). */
bool
have_avx2()
{
	static const bool yes = __builtin_cpu_supports("avx2");

	return yes;
}
#endif

/* The inner products of query x with the m vectors at y (d floats each, m
 * at most 8) into ip, each summed as Faiss's fvec_inner_product_ref() sums:
 * one float, x[0] y[0] first.  The eight sums are independent, so the
 * processor overlaps them (with AVX2, in one register). */
void
inner_products(const float *x, const unsigned char *y, size_t d, size_t m, float *ip)
{
	size_t vb = d * sizeof(float);	/* a vector's bytes */

#if defined(__x86_64__) && defined(__GNUC__)
	if (m == 8 && have_avx2()) {
		inner_products8_avx2(x, y, d, ip);
		return;
	}
#endif
	if (m == 8) {
		const unsigned char *y0 = y, *y1 = y + vb, *y2 = y + 2 * vb, *y3 = y + 3 * vb;
		const unsigned char *y4 = y + 4 * vb, *y5 = y + 5 * vb, *y6 = y + 6 * vb;
		const unsigned char *y7 = y + 7 * vb;
		float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;

		for (size_t j = 0; j < d; j++) {
			float xj = x[j];

			s0 += xj * at(y0, j);
			s1 += xj * at(y1, j);
			s2 += xj * at(y2, j);
			s3 += xj * at(y3, j);
			s4 += xj * at(y4, j);
			s5 += xj * at(y5, j);
			s6 += xj * at(y6, j);
			s7 += xj * at(y7, j);
		}
		ip[0] = s0, ip[1] = s1, ip[2] = s2, ip[3] = s3;
		ip[4] = s4, ip[5] = s5, ip[6] = s6, ip[7] = s7;
		return;
	}
	for (size_t v = 0; v < m; v++) {
		const unsigned char *yv = y + v * vb;
		float s = 0;

		for (size_t j = 0; j < d; j++)
			s += x[j] * at(yv, j);
		ip[v] = s;
	}
}

/* Offer the inner products of query x with the m vectors vecs (d floats
 * each) to the heap (simi, idxi) of k, each in turn, as Faiss's scanners do:
 * kept when it beats the heap's worst; vector j's id is the j-th of the
 * 64-bit ids at ids (aligned or not), or j when ids is NULL. */
void
offer_vectors(const float *x, const unsigned char *vecs, const unsigned char *ids, size_t m,
    size_t d, int64_t k, float *simi, int64_t *idxi)
{
	for (size_t j = 0; j < m; j += 8) {
		size_t b = m - j < 8 ? m - j : 8;
		float ip[8];

		inner_products(x, vecs + j * d * sizeof(float), d, b, ip);
		for (size_t v = 0; v < b; v++) {
			int64_t id = (int64_t)(j + v);

			if (!HeapForIP::cmp(simi[0], ip[v]))
				continue;
			if (ids != nullptr)
				std::memcpy(&id, ids + (j + v) * sizeof id, sizeof id);
			faiss::heap_replace_top<HeapForIP>((size_t)k, simi, idxi, ip[v], id);
		}
	}
}

/* The nprobe lists of query x (keys, best first, and their scores), as
 * ivf's quantizer's search() picks them: a flat index by inner product
 * scanned here when Faiss would scan it pair by pair (fewer queries than
 * its BLAS threshold), else Faiss's own search. */
void
pick_lists(const faiss::IndexIVFFlat *ivf, int64_t n, const float *x, size_t nprobe,
    float *coarse, Id *keys)
{
	const faiss::IndexFlat *flat = dynamic_cast<const faiss::IndexFlat *>(ivf->quantizer);

	if (flat == nullptr || typeid(*flat) != typeid(faiss::IndexFlatIP) ||
	    n >= faiss::distance_compute_blas_threshold) {
		ivf->quantizer->search(n, x, (Id)nprobe, coarse, keys);
		return;
	}
	for (int64_t i = 0; i < n; i++) {
		float *simi = coarse + (size_t)i * nprobe;
		Id *idxi = keys + (size_t)i * nprobe;

		faiss::heap_heapify<HeapForIP>(nprobe, simi, idxi);
		offer_vectors(x + i * ivf->d, reinterpret_cast<const unsigned char *>(flat->get_xb()),
		    nullptr, (size_t)flat->ntotal,
		    (size_t)flat->d, (int64_t)nprobe, simi, idxi);
		faiss::heap_reorder<HeapForIP>(nprobe, simi, idxi);
	}
}

/* Advise the kernel of the pages of the n lists keys (some -1) of ivf,
 * when they are mapped from its file (Faiss's OnDiskInvertedLists), with
 * madvise() advice: the codes, then the ids, of each list. */
void
advise_lists(const faiss::IndexIVFFlat *ivf, const Id *keys, size_t n, int advice)
{
	const faiss::OnDiskInvertedLists *lists =
	    dynamic_cast<const faiss::OnDiskInvertedLists *>(ivf->invlists);
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (lists == nullptr)
		return;
	for (size_t i = 0; i < n; i++) {
		size_t size;
		uintptr_t from, to;

		if (keys[i] < 0 || (size_t)keys[i] >= ivf->nlist ||
		    (size = lists->list_size((size_t)keys[i])) == 0)
			continue;
		from = (uintptr_t)lists->get_codes((size_t)keys[i]) & ~(page - 1);
		to = (uintptr_t)lists->get_ids((size_t)keys[i]) + size * sizeof(Id);
		if (to > from)
			(void)madvise((void *)from, to - from, advice);
	}
}

/* Ask the kernel for the pages of the n lists keys (some -1) of ivf when
 * they are mapped from its file: first to read them ahead, all at once,
 * so that the disk serves those not in the page cache side by side (64
 * lists faulted in one by one took 0.4 s); then to map them, list by
 * list, a call each.  The scan then takes no page fault, and its requests
 * for the next vectors' bytes (inner_products8_avx2()) find their pages
 * mapped: a request for an unmapped page is dropped.  (At 1 M chunks of
 * 256 dimensions, 64 lists: the scan's CPU time 1 to 1.5 ms less a query,
 * of 21; mapped alone, or asked ahead alone, nothing gained.) */
void
read_ahead(const faiss::IndexIVFFlat *ivf, const Id *keys, size_t n)
{
	advise_lists(ivf, keys, n, MADV_WILLNEED);
#ifdef MADV_POPULATE_READ
	advise_lists(ivf, keys, n, MADV_POPULATE_READ);	/* (Linux 5.14: else faults) */
#endif
}

/* Scan list key of ivf for query x into the heap (simi, idxi) of k, as
 * Faiss's IVFFlatScanner::scan_codes() does. */
void
scan_list(const faiss::IndexIVFFlat *ivf, int64_t key, const float *x, int64_t k, float *simi,
    int64_t *idxi)
{
	const faiss::InvertedLists *lists = ivf->invlists;
	size_t size = lists->list_size((size_t)key);

	if (size == 0)
		return;
	faiss::InvertedLists::ScopedCodes codes(lists, (size_t)key);
	faiss::InvertedLists::ScopedIds ids(lists, (size_t)key);

	offer_vectors(x, codes.get(), reinterpret_cast<const unsigned char *>(ids.get()), size,
	    (size_t)ivf->d, k, simi, idxi);
}

/* The inner products of query x with every vector of list key of ivf,
 * in the list's order, into ip (room for the list's size). */
void
list_products(const faiss::IndexIVFFlat *ivf, int64_t key, const float *x, float *ip)
{
	const faiss::InvertedLists *lists = ivf->invlists;
	size_t size = lists->list_size((size_t)key), d = (size_t)ivf->d;

	if (size == 0)
		return;
	faiss::InvertedLists::ScopedCodes codes(lists, (size_t)key);

	for (size_t j = 0; j < size; j += 8)
		inner_products(x, codes.get() + j * d * sizeof(float), d, size - j < 8 ? size - j : 8,
		    ip + j);
}

/* Offer the m scores ip of list key of ivf, in the list's order, to the
 * heap (simi, idxi) of k, as scan_list() offers them. */
void
offer_scores(const faiss::IndexIVFFlat *ivf, int64_t key, const float *ip, size_t m, int64_t k,
    float *simi, int64_t *idxi)
{
	const faiss::InvertedLists *lists = ivf->invlists;

	if (m == 0)
		return;
	faiss::InvertedLists::ScopedIds ids(lists, (size_t)key);

	for (size_t j = 0; j < m; j++)
		if (HeapForIP::cmp(simi[0], ip[j]))
			faiss::heap_replace_top<HeapForIP>((size_t)k, simi, idxi, ip[j], ids[j]);
}

/* Whether list key is one of ivf's (Faiss throws on a list past nlist). */
inline bool
list_ok(const faiss::IndexIVFFlat *ivf, int64_t key)
{
	return key < (int64_t)ivf->nlist;
}

/* The floats a query's lists must hold, in all, for its scan to be split
 * over two threads (SPLIT_FLOATS, 4 MB): below it, waking the second thread
 * costs about what it saves. */
#define SPLIT_FLOATS ((size_t)1 << 20)

/* Where the scan of one query's nprobe lists keys (some -1) is split: the
 * first lists (before the place returned) are scanned into the heap on
 * this thread, the others' inner products computed on a second one beside
 * it, about half the floats each; nprobe when the lists are too few or too
 * small to split, or the process has one processor to run on. */
size_t
split_point(const faiss::IndexIVFFlat *ivf, const Id *keys, size_t nprobe)
{
	std::vector<size_t> sizes(nprobe, 0);
	size_t total = 0, half = 0, p;

	if (nprobe < 2 || omp_get_max_threads() < 2 || omp_get_num_procs() < 2)
		return nprobe;
	for (p = 0; p < nprobe; p++)
		if (keys[p] >= 0 && list_ok(ivf, keys[p]))
			total += (sizes[p] = ivf->invlists->list_size((size_t)keys[p]));
	if (total * (size_t)ivf->d < SPLIT_FLOATS)
		return nprobe;
	for (p = 0; p < nprobe && 2 * (half + sizes[p]) <= total; p++)
		half += sizes[p];
	return p;
}

/* Scan one query x's nprobe lists keys (some -1) of ivf into the heap
 * (simi, idxi) of k (heapified), offering every vector in the lists'
 * order, as Faiss does.  From split_point() on, the inner products are
 * computed on a second thread while this one scans the lists before it,
 * then offered here in their order: the heap sees exactly what a scan on
 * one thread shows it; not split unless may_split (a query of a batch,
 * whose queries are spread over the threads already).  Returns 0, or 1
 * when a key is past the lists or Faiss threw (on either thread: an
 * exception cannot leave a parallel section). */
int
scan_query(const faiss::IndexIVFFlat *ivf, const Id *keys, size_t nprobe, const float *x,
    int64_t k, float *simi, int64_t *idxi, bool may_split)
{
	size_t split = may_split ? split_point(ivf, keys, nprobe) : nprobe, total = 0;
	std::vector<size_t> at(nprobe + 1, 0);
	std::vector<float> ip;
	int failed = 0;

	for (size_t p = split; p < nprobe; p++) {
		at[p] = total;
		if (keys[p] >= 0 && list_ok(ivf, keys[p]))
			total += ivf->invlists->list_size((size_t)keys[p]);
	}
	at[nprobe] = total;
	ip.resize(total);
#pragma omp parallel sections num_threads(2) if (split < nprobe) reduction(| : failed)
	{
#pragma omp section
		try {
			for (size_t p = 0; p < split; p++) {
				if (keys[p] >= 0 && list_ok(ivf, keys[p]))
					scan_list(ivf, keys[p], x, k, simi, idxi);
				else if (keys[p] >= 0)
					failed |= 1;
			}
		} catch (const std::exception &) {
			failed |= 1;
		}
#pragma omp section
		try {
			for (size_t p = split; p < nprobe; p++)
				if (keys[p] >= 0 && list_ok(ivf, keys[p]))
					list_products(ivf, keys[p], x, ip.data() + at[p]);
		} catch (const std::exception &) {
			failed |= 1;
		}
	}
	if (failed)
		return 1;
	for (size_t p = split; p < nprobe; p++) {
		if (keys[p] >= 0 && list_ok(ivf, keys[p]))
			offer_scores(ivf, keys[p], ip.data() + at[p], at[p + 1] - at[p], k, simi, idxi);
		else if (keys[p] >= 0)
			failed |= 1;
	}
	return failed;
}

/* ev_faiss_scan_flat_ip() with Faiss's result handler res, offered each
 * query's scores one vector after another, as exhaustive_inner_product_seq()
 * offers them. */
template <class Handler>
void
scan_flat(Handler &res, int64_t n, const float *x, const unsigned char *xb, size_t ntotal,
    size_t d)
{
	typename Handler::SingleResultHandler resi(res);

	for (int64_t i = 0; i < n; i++) {
		resi.begin((size_t)i);
		for (size_t j = 0; j < ntotal; j += 8) {
			size_t b = ntotal - j < 8 ? ntotal - j : 8;
			float ip[8];

			inner_products(x + (size_t)i * d, xb + j * d * sizeof(float), d, b, ip);
			for (size_t v = 0; v < b; v++)
				resi.add_result(ip[v], (Id)(j + v));
		}
		resi.end();
	}
}

}  // namespace

extern "C" int
ev_faiss_scan_flat_ip(int64_t n, const float *x, const void *xb, int64_t ntotal, int64_t d,
    int64_t k, float *distances, int64_t *labels)
{
	const unsigned char *y = static_cast<const unsigned char *>(xb);

	if (n < 0 || n >= faiss::distance_compute_blas_threshold || k < 1 || d < 1 || ntotal < 0)
		return 0;
	try {
		if (k < faiss::distance_compute_min_k_reservoir) {
			faiss::HeapResultHandler<HeapForIP> res((size_t)n, distances, labels, (size_t)k);

			scan_flat(res, n, x, y, (size_t)ntotal, (size_t)d);
		} else {
			faiss::ReservoirResultHandler<HeapForIP> res((size_t)n, distances, labels,
			    (size_t)k);

			scan_flat(res, n, x, y, (size_t)ntotal, (size_t)d);
		}
		return 1;
	} catch (const std::exception &) {
		return 0;
	}
}

extern "C" int
ev_faiss_scan_search(const FaissIndex *index, int64_t n, const float *x, int64_t k,
    float *distances, int64_t *labels)
{
	const faiss::Index *base = reinterpret_cast<const faiss::Index *>(index);
	const faiss::IndexIVFFlat *ivf = dynamic_cast<const faiss::IndexIVFFlat *>(base);

	if (ivf == nullptr || typeid(*ivf) != typeid(faiss::IndexIVFFlat) ||
	    ivf->metric_type != faiss::METRIC_INNER_PRODUCT ||
	    ivf->max_codes != 0 || ivf->nprobe < 1 || n < 1 || k < 1)
		return 0;	/* (Faiss says what is wrong with nprobe 0) */
	try {
		size_t nprobe = ivf->nprobe < ivf->nlist ? ivf->nprobe : ivf->nlist;
		std::vector<Id> keys((size_t)n * nprobe);
		std::vector<float> coarse((size_t)n * nprobe);
		int failed = 0;	/* (exceptions do not leave an OpenMP loop) */

		pick_lists(ivf, n, x, nprobe, coarse.data(), keys.data());
		read_ahead(ivf, keys.data(), keys.size());
#pragma omp parallel for if (n > 1) reduction(| : failed)
		for (int64_t i = 0; i < n; i++) {
			float *simi = distances + i * k;
			int64_t *idxi = labels + i * k;

			try {
				faiss::heap_heapify<HeapForIP>((size_t)k, simi, idxi);
				failed |= scan_query(ivf, keys.data() + (size_t)i * nprobe, nprobe,
				    x + i * ivf->d, k, simi, idxi, n == 1);
				faiss::heap_reorder<HeapForIP>((size_t)k, simi, idxi);
			} catch (const std::exception &) {
				failed |= 1;
			}
		}
		return failed ? 0 : 1;
	} catch (const std::exception &) {
		return 0;
	}
}
