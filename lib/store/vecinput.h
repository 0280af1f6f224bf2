/* vecinput.h: vector records read into a load of the vector index
 * (vload.h), as ev-embed-load reads them: JSON Lines records
 * {"id": CHUNK_ID, "vector": [...], "model": ID}, or raw float32 vectors
 * (fvecs, or a 2-dimensional .npy array) with their chunk ids, one a line,
 * from a file of ids.
 *
 * Mid layer: includes err.h and vload.h. */
#ifndef EV_VECINPUT_H
#define EV_VECINPUT_H

#include <stdio.h>

#include "err.h"
#include "vload.h"

enum ev_vecinput_format { EV_VECINPUT_JSONL, EV_VECINPUT_FVECS, EV_VECINPUT_NPY };

/* The format named "jsonl", "fvecs" or "npy"; -1 for any other name. */
int ev_vecinput_format(const char *name);

struct ev_vecinput {
	struct ev_vload *ld;	/* where the vectors go */
	int format;		/* enum ev_vecinput_format */
	const char *model;	/* the model of records that name none, or NULL (a record
				 * without one is then bad); required by fvecs and npy */
	const char *ids;	/* fvecs and npy: the file of chunk ids, in vector order */
	/* A bad record (*err, code 2): return 1 to skip it (err is then
	 * cleared) or 0 to stop; NULL stops. */
	int (*skip)(void *ctx, const struct ev_err *err);
	void (*progress)(void *ctx, long long bytes);	/* per record read, or NULL */
	void *ctx;
	long long read;		/* records read so far */
	float *v;		/* internal: a vector being read */
	size_t vcap;
};

#define EV_VECINPUT_INIT { NULL, EV_VECINPUT_JSONL, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0 }

/* Read the records of paths[0..npaths) (none: stdin; "-" is stdin) into
 * L->ld, as L->format says.  A vector's where is "FILE:LINE" (for fvecs and
 * npy, the vector's number).  Returns 0, or -1 with *err set (code 2 for bad
 * input, 1 for a system failure); nothing is committed either way. */
int ev_vecinput_read(struct ev_vecinput *L, char **paths, int npaths, struct ev_err *err);

/* Free what reading allocated (not L->ld). */
void ev_vecinput_release(struct ev_vecinput *L);

/* Read the header of a .npy file from f: it must hold little-endian float32
 * in C order, 2 dimensions.  Returns 0 with *rows and *cols set and f at the
 * data, or -1 with *err set (code 2, naming name). */
int ev_vecinput_npy_header(FILE *f, const char *name, long long *rows, long long *cols,
	struct ev_err *err);

#endif
