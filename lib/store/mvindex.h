/* mvindex.h: the multi-vector index of a late-interaction lane (ColBERT,
 * ColPali: many vectors per record, one per token or image patch, scored by
 * MaxSim).  Records are whatever an external model embedded (pages, passages),
 * named by their own "id"; the index does not need a store.  This module
 * reads and searches an index; mvload.h writes one.
 *
 * Layer above vfaiss and vecinput (which mvindex.c includes, with mvfile.h):
 * includes err.h, plan.h (a lane's name) and Jansson.
 *
 * An index is two files:
 *   PATH       "evkit-mvindex 1\n", a header line (one compact JSON object:
 *              "generation", "dim", "records", "vectors", "model", "lane",
 *              "factory", "factory_given": whether a user chose it, "metric":
 *              "inner_product", "data", "data_bytes"),
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
#include "plan.h"

#define EV_MVINDEX_DIM_MAX 65536		/* dimensions of a vector */
#define EV_MVINDEX_RECORD_MAX 1000000		/* vectors of one record */
#define EV_MVINDEX_LANE_MAX EV_PLAN_LANE_MAX	/* bytes in a lane's name */

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

/* Whether the index's factory was chosen by a user (ev-mv-load --factory),
 * not by the number of vectors: a later load keeps it. */
int ev_mvindex_factory_given(const struct ev_mvindex *ix);

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
