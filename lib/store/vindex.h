/* vindex.h: the vector index: chunk vectors kept in the store and searched
 * with Faiss (through its C API), Faiss ids being chunk rowids.
 *
 * Middle layer: includes err.h and store.h.  The index is five modules:
 * vfile.h (the file below and what the others share, without Faiss),
 * vfaiss.h (its Faiss side), vload.h (loading vectors), vstored.h (the file
 * checked against the store, and its vectors read from the store, without
 * Faiss) and this one (searching, through vstored.h); hitfields.h writes the chunk fields of
 * a hit, and qfilter.h gives the chunks a query's filters allow.
 *
 * The store is the truth, the index file a cache built from it:
 *   vec_vectors(rowid INTEGER PRIMARY KEY, model TEXT, content_hash TEXT,
 *               vector BLOB)  -- float32, unit length; rowid = chunks.rowid
 *   meta keys vindex.store_id (random, made once), vindex.generation (one
 *   more at every load), vindex.model, vindex.dim, vindex.factory,
 *   vindex.count, vindex.bytes (the index file's size when written),
 *   vindex.metric ("inner_product"), vindex.embed_linked ("1" when the vectors
 *   are of the store's own ev-embed model, meta embed.model:
 *   retraining that model then makes the index stale).
 * A vector is stale, and dropped at the next load, when its chunk is gone,
 * named in chunk_tombstones (then cleared), or has another content_hash.
 *
 * The index file is two lines of header, then Faiss's own serialisation
 * (faiss_write_index(), so that "tail -n +3 FILE" is a plain Faiss index):
 *   "evkit-vindex 1\n"
 *   {"store_id","generation","dim","count","model","factory","metric"}, one
 *   compact JSON line (spaces before its newline put a Flat index's vectors,
 *   or an IVF-Flat index's centroids, at a multiple of 64 bytes in the
 *   file, to be mapped: faiss_flatmap.h).  A file whose store id or
 * generation is not the store's is refused as belonging to another store or
 * being out of date.  Files are written to a temporary name beside the index,
 * synced, and renamed over it only after the store's transaction commits. */
#ifndef EV_VINDEX_H
#define EV_VINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

/* ---- Searching ---------------------------------------------------------- */

struct ev_vindex;

/* Open the index file at path for searching, checking that it belongs to
 * store st and is as new as it.  A stale index (the store's embedding model,
 * as ev-embed records it, is not the index's) is refused with a message
 * saying what to run.  Returns NULL with *err set (code 1; code 2 when the
 * file is not an evkit index). */
struct ev_vindex *ev_vindex_open(struct ev_store *st, const char *path, struct ev_err *err);

/* Close the index (NULL-safe). */
void ev_vindex_close(struct ev_vindex *ix);

/* Hold one read transaction of the store over a batch of searches and
 * look-ups (one snapshot, and no locking per statement); end it (NULL-safe).
 * begin returns 0, or -1 with *err set. */
int ev_vindex_batch_begin(struct ev_vindex *ix, struct ev_err *err);
void ev_vindex_batch_end(struct ev_vindex *ix);

int ev_vindex_dim(const struct ev_vindex *ix);
long long ev_vindex_count(const struct ev_vindex *ix);
const char *ev_vindex_model(const struct ev_vindex *ix);
const char *ev_vindex_factory(const struct ev_vindex *ix);

/* Set a Faiss search parameter ("efSearch" for HNSW, "nprobe" for IVF).
 * Returns 1 when set, 0 when the index has no such parameter, -1 on error. */
int ev_vindex_set_param(struct ev_vindex *ix, const char *name, double value, struct ev_err *err);

/* From now on, in this process, score each query against each vector one
 * pair at a time (Faiss without its matrix product, BLAS, which it uses for
 * 20 queries and more): a chunk's score is then the same to the bit whatever
 * the index's size and the batch, so the hits of an exact (Flat) index split
 * in shards merge into exactly those of one index.  Slower for large
 * batches. */
void ev_vindex_pairwise(void);

/* Search nq unit query vectors (nq × dim floats) for their k best chunks:
 * scores[i*k + j] (inner product, best first, equal scores in rowid order) and
 * ids[i*k + j] (chunk rowids, -1 past the end).  Returns 0, or -1 with *err set. */
int ev_vindex_search(struct ev_vindex *ix, long long nq, const float *q, int k,
	float *scores, int64_t *ids, struct ev_err *err);

/* Search one query among the chunks allowed[0..nallowed) only (sorted
 * rowids, as ev_qfilter_rowids() gives): up to k hits into scores/ids,
 * their number in *nout.  Small sets are scored exactly from the stored
 * vectors; large ones by searching the index deeper until k allowed hits
 * are found or the whole index has been searched.  Returns 0 or -1. */
int ev_vindex_search_among(struct ev_vindex *ix, const float *q, int k,
	const int64_t *allowed, size_t nallowed, float *scores, int64_t *ids, int *nout,
	struct ev_err *err);

/* The stored vector (unit length, of the index's model) of the chunk whose
 * id is chunk_id into out (ev_vindex_dim() floats).  Returns 1, 0 when
 * there is no such chunk or it has no vector of that model, -1 with *err
 * set on a database error. */
int ev_vindex_chunk_vector(struct ev_vindex *ix, const char *chunk_id, float *out,
	struct ev_err *err);

#endif
