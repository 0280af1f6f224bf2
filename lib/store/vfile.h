/* vfile.h: the vector index's file (its two-line header and Faiss's bytes,
 * laid out in vindex.h) and the helpers the vector index's modules share:
 * the loader (vload.h), the searcher (vindex.h) and the multi-vector index
 * (mvindex.h and mvload.h).
 *
 * Middle layer: includes err.h, store.h and Faiss's C API. */
#ifndef EV_VFILE_H
#define EV_VFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <faiss/c_api/Index_c.h>
#include <jansson.h>

#include "err.h"
#include "store.h"

/* ---- Small helpers ------------------------------------------------------ */

/* Whether Faiss's last error was memory running out (std::bad_alloc). */
int ev_vfile_faiss_oom(void);

/* *err set (code 1, at where) to "what: " and Faiss's last error; returns -1. */
int ev_vfile_faiss_fail(struct ev_err *err, const char *where, const char *what);

/* meta key of st as an integer into *out (0 when absent).  Returns 0, or -1
 * with *err set. */
int ev_vfile_meta_ll(struct ev_store *st, const char *key, long long *out, struct ev_err *err);

/* Set meta key of st to v.  Returns 0, or -1 with *err set. */
int ev_vfile_meta_set_ll(struct ev_store *st, const char *key, long long v, struct ev_err *err);

/* The store's own embedding model id in *out (malloc'd), NULL when
 * ev-embed recorded none.  Returns 0, or -1 with *err set (a failed read is not "none"). */
int ev_vfile_store_model(struct ev_store *st, char **out, struct ev_err *err);

/* Whether SQLite has rolled back the load's transaction by itself (as it may
 * after running out of memory or on an I/O error, with the failing statement
 * reported but any later one then running in autocommit mode): a load must
 * then write nothing more.  Returns 1 with *err set, or 0. */
int ev_vfile_txn_lost(struct ev_store *st, struct ev_err *err);

/* qsort() order of int64_t. */
int ev_vfile_cmp_i64(const void *a, const void *b);

/* A growable array of int64 (all zero: empty; free v). */
struct ev_vfile_ids {
	int64_t *v;
	size_t n, cap;
};

/* Append x to a.  Returns 0, or -1 when out of memory. */
int ev_vfile_ids_push(struct ev_vfile_ids *a, int64_t x);

/* Collect the first column of every row of stmt (already bound) into a;
 * what names the read in a database error.  Returns 0, or -1 with *err set. */
int ev_vfile_ids_collect(struct ev_store *st, sqlite3_stmt *stmt, struct ev_vfile_ids *a,
	const char *what, struct ev_err *err);

/* ---- The index file ----------------------------------------------------- */

/* The index file's header line. */
struct ev_vfile_header {
	char *store_id;
	long long generation;
	long long dim;
	long long count;
	char *model;
	char *factory;
};

/* Free h's strings and zero it. */
void ev_vfile_header_release(struct ev_vfile_header *h);

/* Read the header of an open index file; leaves f at Faiss's bytes.  Returns
 * 0, -2 with *err set (code 1) when the header is damaged, or -1 with *err
 * set (code 2: not an evkit index; code 1: out of memory). */
int ev_vfile_header_read(FILE *f, const char *path, struct ev_vfile_header *h,
	struct ev_err *err);

/* Whether the index file at path, when its header says it is the one the
 * store loaded last (store_id and generation), has the size the store
 * recorded (vindex.bytes; 0 when none was).  Returns 0 when it has, or the
 * file is not that index (ev_vfile_read() says what it is); -2 with *err set
 * (code 1) when it is that index cut short or grown: Faiss's reader would
 * throw partway, and leaks what it had read when it does. */
int ev_vfile_size_check(const char *path, const char *store_id, long long gen,
	long long bytes, struct ev_err *err);

/* Read the index file at path: header and Faiss index, read with Faiss's
 * io_flags (FAISS_IO_FLAG_MMAP: an IVF index's inverted lists are mapped
 * from the file, not read, and the index is read-only; a Flat index's
 * vectors and an IVF-Flat index's centroids are mapped too when aligned,
 * faiss_flatmap.h; Faiss's own search reads mapped lists ahead with
 * ev_faiss_prefetch_default() threads, faiss_prefetch.h).
 * Returns 1 with *out set, 0 when the file does not exist, -2 with *err set
 * (code 1) when it is an evkit index but damaged, -1 with *err set
 * otherwise. */
int ev_vfile_read(const char *path, int io_flags, struct ev_vfile_header *h,
	FaissIndex **out, struct ev_err *err);

/* A directory, or an empty name, named as the index file (--index) of an
 * index of this kind ("vector index", "multi-vector index"): bad usage,
 * with the one message each has.  Returns 0, or -1 with *err set (code 2). */
int ev_vfile_not_dir(const char *path, const char *kind, struct ev_err *err);

/* Open the file at path, named as the index file of an index of this kind
 * (ev_vfile_not_dir()), for reading, when it exists.  Returns 1 with *f
 * open, 0 when there is no such file, or -1 with *err set (code 2 for a
 * directory or an empty name, else 1). */
int ev_vfile_open_existing(const char *path, const char *kind, FILE **f, struct ev_err *err);

/* Whether the file at path may be (re)written as the index of the store
 * st, whose index id is store_id (NULL before its first load): it is
 * missing, empty, or an evkit index of this store (however stale), or one
 * whose header is damaged.  Anything else -- a user's file, a directory, the
 * index of another store -- must not be replaced.  Returns 0, or -1 with
 * *err set (code 2: a wrong file; code 1: it cannot be read). */
int ev_vfile_claimable(struct ev_store *st, const char *path, const char *store_id,
	struct ev_err *err);

/* An index file is written under a temporary name and then renamed.
 * ev_vfile_create_tmp() creates the file "PATH.tmp.PID" beside path and
 * writes magic, the header (compact JSON; the reference is stolen, and NULL
 * counts as out of memory) and a newline: it returns the file, open, with its
 * name (malloc'd) in *tmp, or NULL with *err set and nothing left behind.
 * ev_vfile_close_tmp() flushes, syncs and closes f (closed whatever happens):
 * 0, or -1 with *err set ("cannot write 'TMP': why").
 * ev_vfile_discard_tmp() closes f (unless NULL), removes the file tmp and
 * frees its name (both may be NULL). */
FILE *ev_vfile_create_tmp(const char *path, const char *magic, json_t *header, char **tmp,
	struct ev_err *err);
int ev_vfile_close_tmp(FILE *f, const char *tmp, struct ev_err *err);
void ev_vfile_discard_tmp(FILE *f, char *tmp);

/* Write header and index to a new temporary file beside path, synced.
 * Returns the temporary name (malloc'd), or NULL with *err set. */
char *ev_vfile_write_tmp(const char *path, const struct ev_vfile_header *h,
	const FaissIndex *idx, struct ev_err *err);

/* fsync the directory holding path, so that a rename into it survives a
 * crash (errors ignored: the rename itself has been made). */
void ev_vfile_sync_dir(const char *path);

/* ---- Faiss helpers shared with other indexes (mvindex.h, mvload.h) ------ */

/* A new, empty inner-product Faiss index of dim dimensions made by the
 * factory string (indexes without ids of their own, such as Flat or HNSW, are
 * wrapped in an IDMap, so that add_with_ids works; one with a refine stage,
 * IVF1024,Flat,RFlat or HNSW32,Refine(SQ8), IVF or not, in an IDMap outside
 * the refine stage).  Returns 0 with *out set
 * (faiss_Index_free() it), or -1 with *err set (code 2 naming --factory, the
 * string and what to write instead when Faiss refuses it, code 1 when out of
 * memory). */
int ev_vfile_faiss_new(int dim, const char *factory, struct FaissIndex_H **out,
	struct ev_err *err);

/* Check a user's factory string (--factory) before a load reads or writes
 * anything: a count Faiss takes but cannot work with (IVF0, HNSW0, PQ0,
 * HNSW1, NSG1, IVF100_NSG32: it would divide by zero, fault or never end) is
 * refused, and Faiss
 * must make an empty index of it at dim dimensions (dim 0, not known yet: at
 * one of a few dimensions that every usual string fits).  Returns 0, or -1
 * with *err set: code 2 naming the option, the string and what to write
 * instead, code 1 when out of memory. */
int ev_vfile_factory_check(const char *factory, long long dim, struct ev_err *err);

/* Whether factory makes an NSG graph of the vectors (NSG32, NSG32,PQ8,
 * PCA8,NSG32), which Faiss builds once, of all of them, and cannot add to. */
int ev_vfile_factory_nsg(const char *factory);

/* Check, before Faiss trains or fills an index of factory with n vectors,
 * that it can build one of so few: an NSG graph (NSG32, NSG32,PQ8 ...)
 * needs 101 vectors at least, Faiss dividing by zero below that.  The string
 * is fine for more vectors, so this is the data's doing.  Returns 0, or -1
 * with *err set (code 1) naming the factory, the count and what to use. */
int ev_vfile_factory_fits(const char *factory, long long n, struct ev_err *err);

struct FaissParameterSpace_H;	/* Faiss's FaissParameterSpace (AutoTune_c.h) */

/* Set the search parameter name ("nprobe", "efSearch") of idx to value,
 * through the parameter space *ps (made at the first call when NULL; the
 * caller frees it with faiss_ParameterSpace_free()).  Returns 1 when set, 0
 * when idx has no such parameter, -1 with *err set on error. */
int ev_vfile_faiss_param(struct FaissParameterSpace_H **ps, struct FaissIndex_H *idx,
	const char *name, double value, struct ev_err *err);

/* Faiss's last error (faiss_get_last_error()) without its "Error in
 * FUNCTION at FILE:LINE: " prefix; "out of memory" for std::bad_alloc. */
const char *ev_vfile_faiss_error(void);

#endif
