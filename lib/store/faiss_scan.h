/* faiss_scan.h: the search of an inverted-file index of full vectors by
 * inner product (Faiss's IndexIVFFlat), with its lists scanned eight
 * vectors at a time.
 *
 * Bottom layer: includes Faiss's C API types only.  Debian builds Faiss for
 * the baseline x86-64 processor, where its inner product of two vectors is
 * one chain of dependent additions (about four cycles a dimension), and at
 * 1 M documents the scan of 64 lists (25,000 vectors of 256 dimensions) was
 * the largest part of a query.  Here eight vectors are summed side by side, each
 * in Faiss's order (one float sum, dimension by dimension, no fused
 * multiply-add), so every score is Faiss's to the bit; the lists are those
 * Faiss's quantizer picks, visited in its order, and the best k are kept in
 * Faiss's own heap: ids, scores and their order are exactly Faiss's
 * (tests/test_faiss_scan.c compares them).  Lists mapped from the index
 * file are asked of the kernel all at once before the scan, so that those
 * not in the page cache are read side by side, then mapped, so that the
 * scan can ask for the next vectors' bytes ahead; Faiss's prefetch threads
 * (faiss_prefetch.h) are not started: they read every byte of the lists
 * once more, beside the scan, and at 1 M vectors of 768 dimensions were a
 * quarter of a query's CPU time. */
#ifndef EV_FAISS_SCAN_H
#define EV_FAISS_SCAN_H

#include <stdint.h>

#include <faiss/c_api/Index_c.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Search the n queries x (n x d floats) in index for their k best vectors,
 * as faiss_Index_search() does, into distances and labels (n x k each;
 * missing hits have label -1).  Returns 1 when searched, 0 when not: index
 * is not a plain IndexIVFFlat by inner product with an unlimited max_codes,
 * or Faiss threw (memory ran out, a list is damaged).  Then distances and
 * labels hold nothing of use, and the caller searches through Faiss, which
 * says what is wrong.  Never throws. */
int ev_faiss_scan_search(const FaissIndex *index, int64_t n, const float *x, int64_t k,
	float *distances, int64_t *labels);

/* The k best of the ntotal vectors xb (d floats each, aligned or not) by
 * inner product for each of the n queries x, into distances and labels (n x
 * k each; labels 0 .. ntotal-1, -1 for missing hits), as Faiss's
 * knn_inner_product() finds them when it scores pair by pair (n below its
 * BLAS threshold): Faiss's own result handler (a heap for k below its
 * distance_compute_min_k_reservoir, else its reservoir) offered the same
 * scores in the same order, so ids, scores and order are Faiss's to the
 * bit.  Returns 1, or 0 when n is not below the threshold or memory runs
 * out (nothing of use written: search through Faiss).  Never throws. */
int ev_faiss_scan_flat_ip(int64_t n, const float *x, const void *xb, int64_t ntotal, int64_t d,
	int64_t k, float *distances, int64_t *labels);

#ifdef __cplusplus
}
#endif
#endif
