/* vfaiss.h: the vector index's Faiss side: its file's Faiss bytes read and
 * written (the header is vfile.h's), new indexes made from a factory string
 * and checked, search parameters set, and Faiss's errors said plainly.
 * Shared by the loader (vload.h), the searcher (vindex.h) and the
 * multi-vector index (mvindex.h and mvload.h).
 *
 * Middle layer: includes err.h, vfile.h and Faiss's C API. */
#ifndef EV_VFAISS_H
#define EV_VFAISS_H

#include <stdio.h>

#include <faiss/c_api/Index_c.h>

#include "err.h"
#include "vfile.h"

/* ---- Faiss's errors ------------------------------------------------------ */

/* Whether Faiss's last error was memory running out (std::bad_alloc). */
int ev_vfaiss_oom(void);

/* *err set (code 1, at where) to "what: " and Faiss's last error; returns -1. */
int ev_vfaiss_fail(struct ev_err *err, const char *where, const char *what);

/* ---- The index file's Faiss bytes ---------------------------------------- */

/* Read the index file at path: header and Faiss index, read with Faiss's
 * io_flags (FAISS_IO_FLAG_MMAP: an IVF index's inverted lists are mapped
 * from the file, not read, and the index is read-only; a Flat index's
 * vectors and an IVF-Flat index's centroids are mapped too when aligned,
 * faiss_flatmap.h; Faiss's own search reads mapped lists ahead with
 * ev_faiss_prefetch_default() threads, faiss_prefetch.h).
 * Returns 1 with *out set, 0 when the file does not exist, -2 with *err set
 * (code 1) when it is an evkit index but damaged, -1 with *err set
 * otherwise. */
int ev_vfaiss_read(const char *path, int io_flags, struct ev_vfile_header *h,
	FaissIndex **out, struct ev_err *err);

/* The rest of ev_vfaiss_read() for the file f, open at Faiss's bytes (after
 * ev_vfile_open_index(), whose header is h): Faiss's index in *out, f
 * closed whatever happens.  Returns 1, -2 with *err set (code 1) when the
 * bytes are damaged or do not match h, or -1 with *err set. */
int ev_vfaiss_read_from(FILE *f, const char *path, int io_flags, const struct ev_vfile_header *h,
	FaissIndex **out, struct ev_err *err);

/* Write header and index to a new temporary file beside path, synced.
 * Returns the temporary name (malloc'd), or NULL with *err set. */
char *ev_vfaiss_write_tmp(const char *path, const struct ev_vfile_header *h,
	const FaissIndex *idx, struct ev_err *err);

/* ---- New indexes and their parameters ------------------------------------ */

/* A new, empty inner-product Faiss index of dim dimensions made by the
 * factory string (indexes without ids of their own, such as Flat or HNSW, are
 * wrapped in an IDMap, so that add_with_ids works; one with a refine stage,
 * IVF1024,Flat,RFlat or HNSW32,Refine(SQ8), IVF or not, in an IDMap outside
 * the refine stage).  Returns 0 with *out set
 * (faiss_Index_free() it), or -1 with *err set (code 2 naming --factory, the
 * string and what to write instead when Faiss refuses it, code 1 when out of
 * memory). */
int ev_vfaiss_new(int dim, const char *factory, struct FaissIndex_H **out,
	struct ev_err *err);

/* Check a user's factory string (--factory) before a load reads or writes
 * anything: a count Faiss takes but cannot work with (IVF0, HNSW0, PQ0,
 * HNSW1, NSG1, IVF100_NSG32: it would divide by zero, fault or never end) is
 * refused, and Faiss
 * must make an empty index of it at dim dimensions (dim 0, not known yet: at
 * one of a few dimensions that every usual string fits).  Returns 0, or -1
 * with *err set: code 2 naming the option, the string and what to write
 * instead, code 1 when out of memory. */
int ev_vfaiss_factory_check(const char *factory, long long dim, struct ev_err *err);

/* Whether factory makes an NSG graph of the vectors (NSG32, NSG32,PQ8,
 * PCA8,NSG32), which Faiss builds once, of all of them, and cannot add to. */
int ev_vfaiss_factory_nsg(const char *factory);

/* Check, before Faiss trains or fills an index of factory with n vectors,
 * that it can build one of so few: an NSG graph (NSG32, NSG32,PQ8 ...)
 * needs 101 vectors at least, Faiss dividing by zero below that.  The string
 * is fine for more vectors, so this is the data's doing.  Returns 0, or -1
 * with *err set (code 1) naming the factory, the count and what to use. */
int ev_vfaiss_factory_fits(const char *factory, long long n, struct ev_err *err);

struct FaissParameterSpace_H;	/* Faiss's FaissParameterSpace (AutoTune_c.h) */

/* Set the search parameter name ("nprobe", "efSearch") of idx to value,
 * through the parameter space *ps (made at the first call when NULL; the
 * caller frees it with faiss_ParameterSpace_free()).  Returns 1 when set, 0
 * when idx has no such parameter, -1 with *err set on error. */
int ev_vfaiss_param(struct FaissParameterSpace_H **ps, struct FaissIndex_H *idx,
	const char *name, double value, struct ev_err *err);

/* Faiss's last error (faiss_get_last_error()) without its "Error in
 * FUNCTION at FILE:LINE: " prefix; "out of memory" for std::bad_alloc. */
const char *ev_vfaiss_error(void);

#endif
