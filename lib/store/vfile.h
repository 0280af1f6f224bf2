/* vfile.h: the vector index's file (its two-line header and Faiss's bytes,
 * laid out in vindex.h) and the helpers the vector index's modules share:
 * the loader (vload.h), the searcher (vindex.h) and the multi-vector index
 * (mvindex.h and mvload.h); what reaches into Faiss is vfaiss.h's.  Without
 * Faiss: a command that only reads the header or the store's vectors (ev-embed
 * finding the chunks waiting for one) links none of it, whose start (its
 * relocations and static initialisers) costs each process milliseconds.
 *
 * Middle layer: includes err.h and store.h. */
#ifndef EV_VFILE_H
#define EV_VFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "err.h"
#include "store.h"

/* The index file is written this much at a time, each write at a multiple
 * of it in the file: the kernel then keeps its pages in 2 MB folios, which
 * a search maps with one entry each.  Written through stdio's default 4 KB
 * buffer, the file sat in the page cache in 4 KB pages, which a search
 * maps one by one and unmaps at exit: at 1.6 M vectors, 64 lists visited
 * (25 MB), a query's system time was 9.9-11 ms, 8.3-8.5 with the same
 * file written in 2 MB writes. */
#define EV_VFILE_WRITE_BUFFER ((size_t)2 << 20)

/* ---- Small helpers ------------------------------------------------------ */

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
 * file is not that index (ev_vfaiss_read() says what it is); -2 with *err set
 * (code 1) when it is that index cut short or grown: Faiss's reader would
 * throw partway, and leaks what it had read when it does. */
int ev_vfile_size_check(const char *path, const char *store_id, long long gen,
	long long bytes, struct ev_err *err);

/* Open the index file at path for reading and read its header into h,
 * leaving *f at Faiss's bytes.  Returns 1 with *f open, 0 when the file
 * does not exist, -2 with *err set (code 1) when its header is damaged, or
 * -1 with *err set (code 2: not an evkit index; code 1: it cannot be read,
 * or memory ran out). */
int ev_vfile_open_index(const char *path, struct ev_vfile_header *h, FILE **f,
	struct ev_err *err);

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

/* ev_vfile_create_tmp() of an index file: magic "evkit-vindex 1" and h as
 * its header line, padded with spaces so that what begins prefix bytes after
 * the line begins at a multiple of EV_FAISS_FLAT_ALIGN (no padding when
 * prefix < 0); the stream writes through wbuf (EV_VFILE_WRITE_BUFFER bytes,
 * freed by the caller once the stream is closed) unless it is NULL. */
FILE *ev_vfile_create_index_tmp(const char *path, const struct ev_vfile_header *h, long prefix,
	char *wbuf, char **tmp, struct ev_err *err);

/* fsync the directory holding path, so that a rename into it survives a
 * crash (errors ignored: the rename itself has been made). */
void ev_vfile_sync_dir(const char *path);

/* ---- Chunks waiting for a vector ------------------------------------------ */

/* The rowids of the chunks of st that have no stored vector of model
 * `model`: none at all, one of another model, or one made from other
 * content (its content_hash is not the chunk's).  In rowid order, into *ids
 * (malloc'd; the caller frees) and *n.  A chunk whose vector was all zeros
 * (no direction, so none was kept) stays among them.  Works on a store
 * opened for reading, with or without vectors.  Returns 0, or -1 with *err
 * set. */
int ev_vfile_pending(struct ev_store *st, const char *model, int64_t **ids, size_t *n,
	struct ev_err *err);

#endif
