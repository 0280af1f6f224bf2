/* mvinput.h: multi-vector records read into a load of a multi-vector index
 * (mvload.h's ev_mvload), as ev-mv-load reads them:
 *   - JSON Lines, one record a line: {"id": ID, "vectors": [[...], ...],
 *     "model": ID, ...other fields kept with the record};
 *   - in bulk, a .npy file of every vector stacked (float32, rows × dim)
 *     and an offsets file of JSON Lines, one record a line:
 *     {"id": ID, "offset": FIRST_ROW, "count": ROWS, "model"?: ID, ...},
 *     the record's vectors being rows offset .. offset + count - 1.  The
 *     .npy file is mapped, not read into memory, so a load of many
 *     gigabytes needs little more memory than its Faiss index.
 *
 * Layer above mvload: includes err.h and mvload.h. */
#ifndef EV_MVINPUT_H
#define EV_MVINPUT_H

#include "err.h"
#include "mvload.h"

struct ev_mvinput {
	struct ev_mvload *ld;	/* where the records go */
	const char *model;	/* the model of records that name none, or NULL */
	const char *npy;	/* bulk: the .npy file of vectors, or NULL for JSON Lines */
	/* A bad record (*err, code 2): return 1 to skip it (err is then
	 * cleared) or 0 to stop; NULL stops. */
	int (*skip)(void *ctx, const struct ev_err *err);
	void (*progress)(void *ctx, long long vectors);	/* per record read (its vectors with
				 * --npy, else 0), or NULL */
	void *ctx;
	long long read;		/* records read so far */
	float *v;		/* internal: the vectors of a JSON record */
	size_t vcap;
};

#define EV_MVINPUT_INIT { NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0 }

/* Read the records of paths[0..npaths) (none: stdin; "-" is stdin): JSON
 * Lines records, or with R->npy set, offsets records (the vectors taken
 * from R->npy).  A record's where is "FILE:LINE".  Returns 0, or -1 with
 * *err set (code 2 for bad input, 1 for a system failure); nothing is
 * committed either way. */
int ev_mvinput_read(struct ev_mvinput *R, char **paths, int npaths, struct ev_err *err);

/* Free what reading allocated (not R->ld). */
void ev_mvinput_release(struct ev_mvinput *R);

#endif
