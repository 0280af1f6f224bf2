/* vindex.h: the vector index: chunk vectors kept in the store and searched
 * with Faiss (through its C API), Faiss ids being chunk rowids.
 *
 * High layer: includes err.h and store.h (and Jansson for filters and hit
 * fields); nothing in lib/ below it includes it.
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
 *   compact JSON line.  A file whose store id or
 * generation is not the store's is refused as belonging to another store or
 * being out of date.  Files are written to a temporary name beside the index,
 * synced, and renamed over it only after the store's transaction commits. */
#ifndef EV_VINDEX_H
#define EV_VINDEX_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "store.h"

/* The factory used when none is given and the store has no index yet:
 * exact inner-product search up to EV_VINDEX_FLAT_MAX vectors, an inverted
 * file above (ev_vindex_default_factory()). */
#define EV_VINDEX_FACTORY_SMALL "IDMap,Flat"
#define EV_VINDEX_FLAT_MAX 200000
#define EV_VINDEX_NPROBE 64	/* an IVF index visits 64 of its lists (fewer when it has fewer) */
#define EV_VINDEX_TRAIN_PER_LIST 64	/* an IVF index's k-means sees 64 vectors a list */

/* The factory of a new index of count vectors into buf (size bytes, at
 * least 32): EV_VINDEX_FACTORY_SMALL up to EV_VINDEX_FLAT_MAX, else
 * "IVF<nlist>,Flat", nlist the largest power of two not above 4 sqrt(count)
 * (Faiss's guideline is 4 to 16 sqrt(count): 1024 lists for 250,000 vectors,
 * 4096 for 1.3 million).  It is trained on an even sample of
 * EV_VINDEX_TRAIN_PER_LIST vectors a list, built in minutes where HNSW takes
 * hours on two cores, and written to visit EV_VINDEX_NPROBE lists a search:
 * a search reads about 16 sqrt(count) vectors, and its recall@10 against
 * exact search (make bench-scale measures it) stays near 0.96 from 200,000
 * to 1.6 million vectors. */
void ev_vindex_default_factory(long long count, char *buf, size_t size);
#define EV_VINDEX_DIM_MAX 65536

/* ---- Loading ----------------------------------------------------------- */

struct ev_vload;

/* Options of a load. */
struct ev_vload_opts {
	const char *factory;	/* NULL: keep the index's, or the default by size */
	int reset;		/* drop every stored vector first (retrained model) */
};

/* What a load did, for the report on stderr. */
struct ev_vload_stats {
	long long added;	/* vectors of chunks that had none */
	long long replaced;	/* vectors of chunks that had one */
	long long removed;	/* stale vectors dropped */
	long long zero;		/* records whose vector was all zeros (no vector kept) */
	long long total;	/* vectors in the index afterwards */
	int rebuilt;		/* 1 when the index was built anew from the store */
	char factory[256];	/* the index's factory ("" when nothing was written) */
	char replaced_model[256];	/* the model of the stale vectors the batch replaced
				 * (the store's own model before a retraining), or "" */
};

/* Begin a load into the index file `path` of store st (opened for writing).
 * One load at a time per connection (the batch is staged in a temporary
 * table of the connection); loads of several processes are serialised by
 * the store's write lock at commit.  Creates the module's tables when missing.  Nothing is changed until
 * ev_vload_commit().  Returns NULL with *err set. */
struct ev_vload *ev_vload_begin(struct ev_store *st, const char *path,
	const struct ev_vload_opts *opts, struct ev_err *err);

/* Check one vector record and stage it.  chunk_id names a chunk of the store;
 * model must be the index's (or, for a new index or with reset, the batch's
 * first); v[0..dim) must be finite, not all zero, and of the index's (or the
 * batch's first) dimension.  An index whose vectors are of the store's own
 * ev-embed model as it was before a retraining is stale: vectors of the
 * store's current model are then accepted and, at commit, replace every
 * stored vector (as with reset; stats->replaced_model names the old model),
 * so that the chunks not in the batch are left without a vector (see
 * ev_vindex_pending()); vectors of any other model are refused.  The vector is scaled to unit length; an
 * all-zero vector (ev-embed's for a text without a known term) has no
 * direction, so the chunk keeps no vector (an older one is removed).  A chunk
 * staged twice keeps its last vector.  Returns 0, or -1 with *err set (code 2,
 * where = `where`, naming both dimensions or both models) and nothing staged. */
int ev_vload_add(struct ev_vload *ld, const char *chunk_id, const char *model,
	const float *v, long long dim, const char *where, struct ev_err *err);

/* Records staged so far. */
long long ev_vload_count(const struct ev_vload *ld);

/* Apply the batch in one transaction: drop stale vectors, store the staged
 * ones, update the index (in place when Faiss can, else rebuilt from the
 * stored vectors), write it beside `path` and rename it over `path`.  On
 * failure the store and the index file are as they were (except when the
 * final rename itself fails: the message then says to run the load again).
 * Returns 0 with *stats filled, or -1 with *err set. */
int ev_vload_commit(struct ev_vload *ld, struct ev_vload_stats *stats, struct ev_err *err);

/* Free the load, discarding anything staged (NULL-safe). */
void ev_vload_free(struct ev_vload *ld);

/* ---- Chunks waiting for a vector ----------------------------------------- */

/* The rowids of the chunks of st that have no stored vector of model
 * `model`: none at all, one of another model, or one made from other
 * content (its content_hash is not the chunk's).  In rowid order, into *ids
 * (malloc'd; the caller frees) and *n.  A chunk whose vector was all zeros
 * (no direction, so none was kept) stays among them.  Works on a store
 * opened for reading, with or without vectors.  Returns 0, or -1 with *err
 * set. */
int ev_vindex_pending(struct ev_store *st, const char *model, int64_t **ids, size_t *n,
	struct ev_err *err);

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
 * rowids, as ev_vindex_filter_ids() gives): up to k hits into scores/ids,
 * their number in *nout.  Small sets are scored exactly from the stored
 * vectors; large ones by searching the index deeper until k allowed hits
 * are found or the whole index has been searched.  Returns 0 or -1. */
int ev_vindex_search_among(struct ev_vindex *ix, const float *q, int k,
	const int64_t *allowed, size_t nallowed, float *scores, int64_t *ids, int *nout,
	struct ev_err *err);

/* The sorted rowids of the chunks a query's "filters" object allows:
 *   "doc_id": "D" or "doc_ids": ["D", ...]  the chunk's document,
 *   "metadata": {"key": scalar, ...}        equality on documents.metadata,
 *   "published_date": {"from": "...", "to": "..."}  inclusive text range.
 * Any other key, or a value of the wrong type, is refused (code 2, where).
 * Returns 0 with *ids (malloc'd; the caller frees) and *n set, or -1. */
int ev_vindex_filter_ids(struct ev_store *st, const json_t *filters, const char *where,
	int64_t **ids, size_t *n, struct ev_err *err);

/* The stored vector (unit length, of the index's model) of the chunk whose
 * id is chunk_id into out (ev_vindex_dim() floats).  Returns 1, 0 when
 * there is no such chunk or it has no vector of that model, -1 with *err
 * set on a database error. */
int ev_vindex_chunk_vector(struct ev_vindex *ix, const char *chunk_id, float *out,
	struct ev_err *err);

/* The chunk fields a hit carries (id, doc_id, section_id, title,
 * section_title, section_path, source_uri, chunk_index, offset_start,
 * offset_end, content_hash, and the document's metadata when it has any)
 * added to obj, and the chunk's text in *text (malloc'd; the caller frees).
 * Returns 1, 0 when no chunk has that rowid, -1 on error. */
int ev_vindex_chunk(struct ev_store *st, int64_t rowid, json_t *obj, char **text,
	struct ev_err *err);

/* The same fields written as JSON text: appended to b as
 * "id":...,"doc_id":...,...,"content_hash":...[,"language":...]
 * [,"metadata":{...}] (language: the chunk's, when it has one; no
 * braces), for writers that build hit records as text.  With text non-NULL,
 * the chunk's text in *text (malloc'd).  Returns 1, 0 when no chunk has
 * that rowid, -1 on error. */
int ev_vindex_chunk_json(struct ev_store *st, int64_t rowid, struct ev_buf *b, char **text,
	struct ev_err *err);

/* Append s[0..n) to b as a JSON string (invalid UTF-8 becomes U+FFFD), or a
 * number as Jansson writes it with 10 significant digits (null when not
 * finite).  Return 0, or -1 when out of memory. */
int ev_vindex_json_str(struct ev_buf *b, const char *s, size_t n);
int ev_vindex_json_real(struct ev_buf *b, double x);

/* ---- Faiss helpers shared with other indexes (mvindex.h) ----------------- */

struct FaissIndex_H;	/* Faiss's FaissIndex (faiss/c_api/Index_c.h) */

/* A new, empty inner-product Faiss index of dim dimensions made by the
 * factory string (indexes without ids of their own, such as Flat or HNSW, are
 * wrapped in an IDMap, so that add_with_ids works).  Returns 0 with *out set
 * (faiss_Index_free() it), or -1 with *err set (code 2 naming the factory
 * when Faiss refuses it, code 1 when out of memory). */
int ev_vindex_faiss_new(int dim, const char *factory, struct FaissIndex_H **out,
	struct ev_err *err);

struct FaissParameterSpace_H;	/* Faiss's FaissParameterSpace (AutoTune_c.h) */

/* Set the search parameter name ("nprobe", "efSearch") of idx to value,
 * through the parameter space *ps (made at the first call when NULL; the
 * caller frees it with faiss_ParameterSpace_free()).  Returns 1 when set, 0
 * when idx has no such parameter, -1 with *err set on error. */
int ev_vindex_faiss_param(struct FaissParameterSpace_H **ps, struct FaissIndex_H *idx,
	const char *name, double value, struct ev_err *err);

/* Faiss's last error (faiss_get_last_error()) without its "Error in
 * FUNCTION at FILE:LINE: " prefix; "out of memory" for std::bad_alloc. */
const char *ev_vindex_faiss_error(void);

/* fsync the directory holding path, so that a rename into it survives a
 * crash (errors ignored: the rename itself has been made). */
void ev_vindex_sync_dir(const char *path);

#endif
