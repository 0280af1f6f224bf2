/* mvload.h: loading records into the multi-vector index (mvindex.h, which
 * lays out its two files): records staged, their vectors written to a new
 * data file at once, and the index rebuilt over the old index's records
 * kept and the new ones, then renamed into place.
 *
 * Layer above mvindex: includes err.h, mvindex.h and Jansson. */
#ifndef EV_MVLOAD_H
#define EV_MVLOAD_H

#include <stddef.h>
#include <jansson.h>

#include "err.h"
#include "mvindex.h"

#define EV_MVLOAD_LANE_DEFAULT "visual"	/* the lane of a new index */
#define EV_MVLOAD_FLAT_MAX 200000	/* token vectors searched exactly (Flat) */

struct ev_mvload;

struct ev_mvload_opts {
	const char *factory;	/* NULL: the index's own, else chosen by size
				 * (ev_mvload_default_factory()) */
	const char *lane;	/* NULL: the index's own, else EV_MVLOAD_LANE_DEFAULT */
	int reset;		/* drop every record of the index first */
};

struct ev_mvload_stats {
	long long added;	/* records the index did not hold */
	long long replaced;	/* records whose id it held */
	long long kept;		/* records of the old index kept as they were */
	long long records;	/* records in the index afterwards */
	long long vectors;	/* token vectors in the index afterwards */
	char factory[256];	/* the index's factory ("" when nothing was written) */
	char lane[EV_MVINDEX_LANE_MAX + 1];
};

/* The factory used for n token vectors of dim dimensions when none is given:
 * exact search (IDMap,Flat) up to EV_MVLOAD_FLAT_MAX vectors; above, an
 * inverted file of about sqrt(n)/2 lists (a power of two) with product
 * quantisation to dim/4 bytes a vector (IVFn,PQm; scalar quantisation, SQ8,
 * when dim is not a multiple of 4), so that the index of 10 million
 * 128-dimensional vectors takes 320 MB beside the 5 GB of the data file.
 * Writes it into buf (size bytes). */
void ev_mvload_default_factory(long long n, long long dim, char *buf, size_t size);

/* Begin a load into the index at path: an existing index is read (its
 * records are kept unless replaced, or dropped with opts->reset); a missing
 * or empty file starts a new one.  A file that is not an evkit multi-vector
 * index, or a directory, is refused (code 2) and left alone; a damaged index
 * is refused (code 1) unless opts->reset.  Nothing is changed until
 * ev_mvload_commit().  Returns NULL with *err set. */
struct ev_mvload *ev_mvload_begin(const char *path, const struct ev_mvload_opts *opts,
	struct ev_err *err);

/* Stage one record: rec is an object with a non-empty string "id" (its
 * other members, except "vectors", "offset" and "count", are kept and given
 * back with every hit), v[0 .. n*dim) its n vectors, of the model `model`.
 * n must be 1 .. EV_MVINDEX_RECORD_MAX, dim the index's (or the first
 * record's), the numbers finite, model the index's (or the first record's).
 * A record staged twice keeps its last vectors.  The vectors are written to
 * the new data file at once (not held in memory).  Returns 0, or -1 with
 * *err set (code 2 and where for bad input, naming both dimensions or
 * models; code 1 for a write error) and nothing staged. */
int ev_mvload_add(struct ev_mvload *ld, const json_t *rec, const char *model,
	const float *v, long long n, long long dim, const char *where, struct ev_err *err);

/* Records staged so far (a record staged twice counted twice). */
long long ev_mvload_count(const struct ev_mvload *ld);

/* The index's dimension (the old index's, or the first staged record's; 0
 * while unknown) and model (NULL while unknown). */
long long ev_mvload_dim(const struct ev_mvload *ld);
const char *ev_mvload_model(const struct ev_mvload *ld);

/* Write the index: the data file completed (the old index's kept records
 * copied in) and synced, the Faiss index built over every token vector
 * (trained first on a sample spread over them when the factory needs it),
 * PATH written under a temporary name, synced and renamed into place, and
 * the old data file removed.  With nothing staged and no old record, nothing
 * is written (stats->factory is ""); with nothing staged, the index is
 * rebuilt (another factory, another lane).  On failure nothing is changed.
 * Returns 0 with *stats filled, or -1 with *err set. */
int ev_mvload_commit(struct ev_mvload *ld, struct ev_mvload_stats *stats, struct ev_err *err);

/* Free the load; an uncommitted one leaves no file behind (NULL-safe). */
void ev_mvload_free(struct ev_mvload *ld);

#endif
