/* mvfile.h: what the multi-vector index's reader (mvindex.c) and loader
 * (mvload.c) share of its file, laid out in mvindex.h: the first line that
 * names the format, and three small helpers.  Private to those two
 * modules: nothing else includes it.
 *
 * Middle layer: includes err.h and vfaiss.h (Faiss's last error). */
#ifndef EV_MVFILE_H
#define EV_MVFILE_H

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "vfaiss.h"

/* The index file's first line. */
#define EV_MVFILE_MAGIC "evkit-mvindex 1\n"

/* A copy of s (malloc'd), or NULL with *err set when out of memory. */
static inline char *
ev_mvfile_strdup(const char *s, struct ev_err *err)
{
	char *d = strdup(s);

	if (d == NULL)
		ev_err_nomem(err);
	return d;
}

/* *err set for Faiss's last error while doing what ("searching the
 * index"): out of memory as such, else code 1, "WHAT: FAISS'S MESSAGE".
 * Returns -1. */
static inline int
ev_mvfile_faiss_fail(struct ev_err *err, const char *what)
{
	if (strcmp(ev_vfaiss_error(), "out of memory") == 0)
		return ev_err_nomem(err);
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "%s: %s", what, ev_vfaiss_error());
}

/* The file name `name` in the directory of path (malloc'd), or NULL with
 * *err set. */
static inline char *
ev_mvfile_beside(const char *path, const char *name, struct ev_err *err)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	char *p = malloc(dl + strlen(name) + 1);

	if (p == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	memcpy(p, path, dl);
	strcpy(p + dl, name);
	return p;
}

#endif
