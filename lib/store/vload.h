/* vload.h: vectors into the vector index (vindex.h): a batch of chunk
 * vectors checked, staged, and applied in one transaction of the store,
 * with the index file rewritten beside it; and the chunks still waiting for
 * a vector.
 *
 * Middle layer: includes err.h and store.h. */
#ifndef EV_VLOAD_H
#define EV_VLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

/* The factory used when none is given and the store has no index yet:
 * exact inner-product search up to EV_VLOAD_FLAT_MAX vectors, an inverted
 * file above (ev_vload_default_factory()). */
#define EV_VLOAD_FACTORY_SMALL "IDMap,Flat"
#define EV_VLOAD_FLAT_MAX 200000
#define EV_VLOAD_TRAIN_PER_LIST 64	/* an IVF index's k-means sees 64 vectors a list */

/* The factory of a new index of count vectors into buf (size bytes, at
 * least 32): EV_VLOAD_FACTORY_SMALL up to EV_VLOAD_FLAT_MAX, else
 * "IVF<nlist>,Flat", nlist the largest power of two not above 4 sqrt(count)
 * (Faiss's guideline is 4 to 16 sqrt(count): 1024 lists for 250,000 vectors,
 * 4096 for 1.3 million).  It is trained on an even sample of
 * EV_VLOAD_TRAIN_PER_LIST vectors a list, built in minutes where HNSW takes
 * hours on two cores, and written to visit ev_vload_default_nprobe() of
 * its lists a search. */
void ev_vload_default_factory(long long count, char *buf, size_t size);

/* The lists an IVF index of nlist lists is written to visit a search (its
 * nprobe; ev-search-vec --nprobe overrides it): 3/64 of them (192 of
 * 4,096), at least 64, and all when it has fewer.  A fixed count visits an
 * ever smaller share of an index whose lists grow with the square root of
 * its size: 64 of 4,096 found 90-91% of exact search's 10 nearest on two
 * corpora of 1.4 and 1.6 million chunks, 192 found 95-96% for 5 ms more a
 * query (make bench-scale measures both). */
long ev_vload_default_nprobe(long nlist);
#define EV_VLOAD_DIM_MAX 65536

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
 * content_hash, when not NULL, is the content hash of the text the vector
 * was made from, and must be the chunk's (a chunk changed since is refused:
 * its vector would pass for current); model must be the index's (or, for a
 * new index or with reset, the batch's first); v[0..dim) must be finite, not all zero, and of the index's (or the
 * batch's first) dimension.  An index whose vectors are of the store's own
 * ev-embed model as it was before a retraining is stale: vectors of the
 * store's current model are then accepted and, at commit, replace every
 * stored vector (as with reset; stats->replaced_model names the old model),
 * so that the chunks not in the batch are left without a vector (see
 * ev_vfile_pending()); vectors of any other model are refused.  The vector is scaled to unit length; an
 * all-zero vector (ev-embed's for a text without a known term) has no
 * direction, so the chunk keeps no vector (an older one is removed).  A chunk
 * staged twice is refused the second time.  Returns 0, or -1 with *err set
 * (code 2, where = `where`, naming both dimensions or both models, or the
 * chunk given twice) and nothing staged. */
int ev_vload_add(struct ev_vload *ld, const char *chunk_id, const char *content_hash,
	const char *model, const float *v, long long dim, const char *where, struct ev_err *err);

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

#endif
