/* faiss_scan.cpp: an IVF-Flat search with its lists scanned eight vectors
 * at a time.  See faiss_scan.h. */
#include "faiss_scan.h"

#include <cstddef>
#include <exception>
#include <new>
#include <typeinfo>
#include <vector>

#include <faiss/IndexFlat.h>
#include <faiss/IndexIVFFlat.h>
#include <faiss/invlists/InvertedLists.h>
#include <faiss/utils/Heap.h>
#include <faiss/utils/distances.h>

namespace {

typedef faiss::CMin<float, int64_t> HeapForIP;	/* Faiss's heap of an IP search */
typedef faiss::Index::idx_t Id;

/* The inner products of query x with the m vectors y (d floats each, m at
 * most 8) into ip, each summed as Faiss's fvec_inner_product_ref() sums:
 * one float, x[0] y[0] first.  The eight sums are independent, so the
 * processor overlaps them. */
void
inner_products(const float *x, const float *y, size_t d, size_t m, float *ip)
{
	if (m == 8) {
		const float *y0 = y, *y1 = y + d, *y2 = y + 2 * d, *y3 = y + 3 * d;
		const float *y4 = y + 4 * d, *y5 = y + 5 * d, *y6 = y + 6 * d, *y7 = y + 7 * d;
		float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;

		for (size_t j = 0; j < d; j++) {
			float xj = x[j];

			s0 += xj * y0[j];
			s1 += xj * y1[j];
			s2 += xj * y2[j];
			s3 += xj * y3[j];
			s4 += xj * y4[j];
			s5 += xj * y5[j];
			s6 += xj * y6[j];
			s7 += xj * y7[j];
		}
		ip[0] = s0, ip[1] = s1, ip[2] = s2, ip[3] = s3;
		ip[4] = s4, ip[5] = s5, ip[6] = s6, ip[7] = s7;
		return;
	}
	for (size_t v = 0; v < m; v++) {
		const float *yv = y + v * d;
		float s = 0;

		for (size_t j = 0; j < d; j++)
			s += x[j] * yv[j];
		ip[v] = s;
	}
}

/* Offer the inner products of query x with the m vectors vecs (d floats
 * each) to the heap (simi, idxi) of k, each in turn, as Faiss's scanners do:
 * kept when it beats the heap's worst; vector j's id is ids[j], or j when
 * ids is NULL. */
void
offer_vectors(const float *x, const float *vecs, const Id *ids, size_t m, size_t d,
    int64_t k, float *simi, int64_t *idxi)
{
	for (size_t j = 0; j < m; j += 8) {
		size_t b = m - j < 8 ? m - j : 8;
		float ip[8];

		inner_products(x, vecs + j * d, d, b, ip);
		for (size_t v = 0; v < b; v++)
			if (HeapForIP::cmp(simi[0], ip[v]))
				faiss::heap_replace_top<HeapForIP>((size_t)k, simi, idxi, ip[v],
				    ids != nullptr ? ids[j + v] : (int64_t)(j + v));
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
		offer_vectors(x + i * ivf->d, flat->get_xb(), nullptr, (size_t)flat->ntotal,
		    (size_t)flat->d, (int64_t)nprobe, simi, idxi);
		faiss::heap_reorder<HeapForIP>(nprobe, simi, idxi);
	}
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

	offer_vectors(x, reinterpret_cast<const float *>(codes.get()), ids.get(), size,
	    (size_t)ivf->d, k, simi, idxi);
}

}  // namespace

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
		ivf->invlists->prefetch_lists(keys.data(), (int)(n * (int64_t)nprobe));
#pragma omp parallel for if (n > 1) reduction(| : failed)
		for (int64_t i = 0; i < n; i++) {
			float *simi = distances + i * k;
			int64_t *idxi = labels + i * k;

			try {
				faiss::heap_heapify<HeapForIP>((size_t)k, simi, idxi);
				for (size_t p = 0; p < nprobe; p++) {
					int64_t key = keys[(size_t)i * nprobe + p];

					if (key >= 0 && key < (int64_t)ivf->nlist)
						scan_list(ivf, key, x + i * ivf->d, k, simi, idxi);
					else if (key >= 0)
						failed |= 1;	/* Faiss throws on a list past nlist */
				}
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
