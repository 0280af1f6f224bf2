/* vstored.h: the vectors an index holds, read from the store, not from the
 * index: the index file checked against the store (its header: whose it is,
 * how new, of which model) as a search checks it, then its chunks' stored
 * vectors read one by one.  Without Faiss, for a command that compares
 * chunks' vectors but searches nothing (ev-pack's MMR); vindex.h opens an
 * index through it and adds the search.
 *
 * Middle layer: includes err.h, store.h and vfile.h. */
#ifndef EV_VSTORED_H
#define EV_VSTORED_H

#include <stdio.h>

#include "err.h"
#include "store.h"
#include "vfile.h"

struct ev_vstored;

/* Check the index file at path against store st: it must be an evkit index
 * of st, as new as it, of the store's own model when the store's vectors
 * are linked to its embedder (a stale index is refused with a message
 * saying what to run).  Returns the index's vectors, or NULL with *err set
 * (code 1; code 2 when the file is not an evkit index).  With f not NULL,
 * *f is the file, open at Faiss's bytes (the caller closes it).  Maps the
 * store for reading (hits read their chunks at random). */
struct ev_vstored *ev_vstored_open(struct ev_store *st, const char *path, FILE **f,
	struct ev_err *err);

/* Close (NULL-safe), ending a batch. */
void ev_vstored_close(struct ev_vstored *sv);

/* *err set (code 1) to what the index file at path, of store st, is (why,
 * the message already in *err) and how to rebuild it from the store's
 * vectors: for a file evkit made that is damaged.  Returns -1. */
int ev_vstored_damaged(struct ev_store *st, const char *path, struct ev_err *err);

/* The index file's header (its store, load, dimension, count, model and
 * factory). */
const struct ev_vfile_header *ev_vstored_header(const struct ev_vstored *sv);

/* Hold one read transaction of the store over a batch of searches and
 * look-ups (one snapshot, and no locking per statement); end it (NULL-safe).
 * begin returns 0, or -1 with *err set. */
int ev_vstored_batch_begin(struct ev_vstored *sv, struct ev_err *err);
void ev_vstored_batch_end(struct ev_vstored *sv);

/* The stored vector (unit length, of the index's model) of the chunk whose
 * id is chunk_id into out (the header's dim floats).  Returns 1, 0 when
 * there is no such chunk or it has no vector of that model, -1 with *err
 * set on a database error. */
int ev_vstored_chunk_vector(struct ev_vstored *sv, const char *chunk_id, float *out,
	struct ev_err *err);

#endif
