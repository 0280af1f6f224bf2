/* mvindex.h: the multi-vector index of a late-interaction lane (ColBERT,
 * ColPali: many vectors per record, one per token or image patch, scored by
 * MaxSim).  Records are whatever an external model embedded (pages, passages),
 * named by their own "id"; the index does not need a store.
 *
 * Layer above vfile and vecinput: includes err.h, vfile.h (the Faiss
 * helpers) and vecinput.h (the .npy header), and Jansson.
 *
 * An index is two files:
 *   PATH       "evkit-mvindex 1\n", a header line (one compact JSON object:
 *              "generation", "dim", "records", "vectors", "model", "lane",
 *              "factory", "metric": "inner_product", "data", "data_bytes"),
 *              one line per record ({"id", "offset", "count", and the
 *              record's other fields}, in id order), then Faiss's
 *              serialisation of an index over every token vector whose Faiss
 *              id is the record's number (its line, from 0);
 *   DATA       beside PATH, named by "data" (PATH's name, the generation's
 *              first 12 characters, ".npy"): every token vector, float32, as
 *              a 2-dimensional .npy array, a record's vectors the rows
 *              offset .. offset + count - 1.
 * The data file is mapped (mmap), never read whole: a search reads the pages
 * of the records it scores exactly, and processes searching the same index
 * share them in the page cache.  It is written under a new name at every
 * load and PATH renamed over the old one, which names it: a reader has the
 * old index or the new one, never a mix, and one that has the old one mapped
 * keeps reading it after the load removes its name.
 *
 * Vectors are kept as the model gave them (not normalised): MaxSim is a sum
 * of dot products, as the model was trained to be scored. */
#ifndef EV_MVINDEX_H
#define EV_MVINDEX_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "err.h"

#define EV_MVINDEX_DIM_MAX 65536		/* dimensions of a vector */
#define EV_MVINDEX_RECORD_MAX 1000000		/* vectors of one record */
#define EV_MVINDEX_LANE_DEFAULT "visual"
#define EV_MVINDEX_LANE_MAX 31			/* bytes in a lane's name */
#define EV_MVINDEX_FLAT_MAX 200000		/* token vectors searched exactly (Flat) */

/* Whether s is fit to name a lane in hits, signals ("NAME_score") and
 * plans: 1 to EV_MVINDEX_LANE_MAX lowercase ASCII letters, digits, '_' or
 * '-' ("visual", "colpali_p2"). */
int ev_mvindex_lane_ok(const char *s);

/* ---- Loading ----------------------------------------------------------- */

struct ev_mvload;

struct ev_mvload_opts {
	const char *factory;	/* NULL: the index's own, else chosen by size
				 * (ev_mvindex_default_factory()) */
	const char *lane;	/* NULL: the index's own, else "visual" */
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
 * exact search (IDMap,Flat) up to EV_MVINDEX_FLAT_MAX vectors; above, an
 * inverted file of about sqrt(n)/2 lists (a power of two) with product
 * quantisation to dim/4 bytes a vector (IVFn,PQm; scalar quantisation, SQ8,
 * when dim is not a multiple of 4), so that the index of 10 million
 * 128-dimensional vectors takes 320 MB beside the 5 GB of the data file.
 * Writes it into buf (size bytes). */
void ev_mvindex_default_factory(long long n, long long dim, char *buf, size_t size);

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

/* ---- Searching ---------------------------------------------------------- */

struct ev_mvindex;

/* Open the index at path for searching: header, records and Faiss index
 * read, the data file mapped and checked against them (its size, every
 * record's rows within it).  Returns NULL with *err set (code 2 when path is
 * not an evkit multi-vector index, code 1 when it is missing or damaged). */
struct ev_mvindex *ev_mvindex_open(const char *path, struct ev_err *err);

/* Close the index and unmap its data (NULL-safe). */
void ev_mvindex_close(struct ev_mvindex *ix);

int ev_mvindex_dim(const struct ev_mvindex *ix);
long long ev_mvindex_records(const struct ev_mvindex *ix);
long long ev_mvindex_vectors(const struct ev_mvindex *ix);
const char *ev_mvindex_model(const struct ev_mvindex *ix);
const char *ev_mvindex_lane(const struct ev_mvindex *ix);
const char *ev_mvindex_factory(const struct ev_mvindex *ix);

/* Record r's (0 .. records-1) id, and its vectors: a pointer into the
 * mapped data file (count × dim floats), the count in *n. */
const char *ev_mvindex_id(const struct ev_mvindex *ix, long long r);
const float *ev_mvindex_record(const struct ev_mvindex *ix, long long r, long long *n);

/* Record r's stored fields (the record as loaded, without its vectors), a
 * new object the caller owns.  Returns NULL with *err set when out of
 * memory. */
json_t *ev_mvindex_fields(const struct ev_mvindex *ix, long long r, struct ev_err *err);

/* The record whose id is id, or -1. */
long long ev_mvindex_find(const struct ev_mvindex *ix, const char *id);

/* Set a Faiss search parameter ("nprobe" for IVF, "efSearch" for HNSW).
 * Returns 1 when set, 0 when the index has no such parameter, -1 on error. */
int ev_mvindex_set_param(struct ev_mvindex *ix, const char *name, double value,
	struct ev_err *err);

/* Search nq query vectors (nq × dim floats) for their k nearest token
 * vectors each (by Faiss, inner product): scores[i*k + j] and recs[i*k + j],
 * the record each token belongs to (-1 past the end).  Returns 0, or -1 with
 * *err set. */
int ev_mvindex_search(struct ev_mvindex *ix, long long nq, const float *q, int k,
	float *scores, int64_t *recs, struct ev_err *err);

#endif
