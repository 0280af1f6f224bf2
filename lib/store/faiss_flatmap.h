/* faiss_flatmap.h: an exact (Flat) Faiss index, or an inverted file of full
 * vectors (IVF-Flat), searched where its vectors lie in the index file,
 * mapped, instead of read into memory.
 *
 * Layer above faiss_scan: includes Faiss's C API types only.  Faiss 1.7 reads a Flat
 * index's vectors whole into memory: for 135,704 vectors of 256 dimensions
 * (139 MB) that was most of a one-query ev-search-vec process (the pages
 * zeroed, then filled by read()).  Mapped, the page cache's own pages are
 * searched.  The index searched runs Faiss's own exact search
 * (knn_inner_product or knn_L2sqr, as IndexFlat::search() calls them; a few
 * queries by inner product through ev_faiss_scan_flat_ip(), which gives the
 * same) on the mapped vectors, then, for "IDMap,Flat", puts each hit's id
 * (mapped as well) in its place, as IndexIDMap::search() does: ids, scores
 * and their order are Faiss's to the bit.  It is read only.
 *
 * An IVF-Flat index's lists are mapped as Faiss's own reader maps them
 * (IO_FLAG_MMAP: its OnDiskInvertedLists over the whole file), and its
 * coarse quantizer, the Flat index of its centroids, is mapped as above
 * where Faiss would read it: at 4,096 lists of 768 dimensions that was 12.6
 * MB zeroed and copied by every process, for one query.  It is a plain
 * IndexIVFFlat of Faiss's, searched by Faiss or by faiss_scan.h, read only.
 *
 * The vectors (centroids) are mapped only when they begin at a multiple of
 * EV_FAISS_FLAT_ALIGN bytes in the file; the index file's writer pads its
 * header so that they do (ev_faiss_flat_prefix()). */
#ifndef EV_FAISS_FLATMAP_H
#define EV_FAISS_FLATMAP_H

#include <stddef.h>
#include <stdint.h>

#include <faiss/c_api/Index_c.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EV_FAISS_FLAT_ALIGN 64	/* the vectors' alignment in the file, to be mapped */

/* The bytes Faiss's serialisation of index (faiss_write_index()) puts
 * before its vectors when index is a Flat index, or an IDMap of one, by
 * inner product or L2, or before its centroids when it is an IVF-Flat index
 * whose quantizer is such a Flat index, with its lists in memory and no
 * direct map; -1 for any other index.  Never throws. */
long ev_faiss_flat_prefix(const FaissIndex *index);

/* The Faiss index serialised at byte at of the open file fd (size bytes
 * long), when it is a Flat index or an IDMap of one, by inner product or
 * L2, whose vectors begin at a multiple of EV_FAISS_FLAT_ALIGN and lie
 * within the file, or an IVF-Flat index, trained, with no direct map, whose
 * quantizer is a Flat index of its metric with its centroids so aligned
 * and whose lists lie within the file and hold its count of vectors: 1 with
 * *out, its vectors mapped (freed, and unmapped, by faiss_Index_free()).
 * 0 when it is not (another kind of index, or its vectors elsewhere, or its
 * data cut short or corrupt: Faiss's own reader then reads it, and says
 * what is wrong), or when mapping fails.  fd may be closed afterwards.
 * Never throws. */
int ev_faiss_flat_map(int fd, int64_t at, int64_t size, FaissIndex **out);

/* Whether index searches vectors (or, IVF, centroids) mapped by
 * ev_faiss_flat_map(). */
int ev_faiss_flat_mapped(const FaissIndex *index);

#ifdef __cplusplus
}
#endif

#endif
