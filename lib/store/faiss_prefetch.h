/* faiss_prefetch.h: how many threads Faiss starts to read the mapped
 * inverted lists of an IVF index ahead of a search.
 *
 * Bottom layer: includes Faiss's C API types only.  An IVF index read with
 * FAISS_IO_FLAG_MMAP keeps its lists in the mapped file (Faiss's
 * OnDiskInvertedLists), and every search first starts prefetch_nthread
 * threads (32 by default) that touch the pages of the lists it will scan.
 * On a machine of two cores, 32 threads fight the scan for the CPU: one
 * query over 1.58 M vectors (64 of 1,024 lists) took 29 ms in a fresh
 * process with 32, 15 ms with 1, 21 ms with none.  Faiss's C API has no
 * setter for it, so this C++ file reaches the member. */
#ifndef EV_FAISS_PREFETCH_H
#define EV_FAISS_PREFETCH_H

#include <faiss/c_api/Index_c.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The prefetch threads Faiss starts when it searches index, an IVF index
 * whose lists are mapped from its file, set to n (>= 0).  Returns 1 when set,
 * 0 when index has no mapped lists (any other index: nothing to set).
 * Never fails: no allocation, no exception. */
int ev_faiss_prefetch_threads(FaissIndex *index, int n);

/* The prefetch threads Faiss starts when it searches index, or -1 when
 * index has no mapped lists. */
int ev_faiss_prefetch_get(const FaissIndex *index);

/* The prefetch threads evkit uses on this machine: as many as its
 * processors, from 1 to 4.  They serve Faiss's own search of mapped lists
 * (an IVF index faiss_scan.h does not search: by L2, of PQ codes, ...);
 * faiss_scan.h's own search of an IVF-Flat index starts none. */
int ev_faiss_prefetch_default(void);

#ifdef __cplusplus
}
#endif
#endif
