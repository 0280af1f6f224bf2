/* vfaiss.c: the vector index's Faiss side (see vfaiss.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/MetaIndexes_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>

#include "faiss_flatmap.h"
#include "faiss_prefetch.h"
#include "vfaiss.h"

/* ---- Faiss's errors ------------------------------------------------------ */

const char *
ev_vfaiss_error(void)
{
	const char *m = faiss_get_last_error(), *p;

	if (m == NULL)
		return "unknown faiss error";
	if (strcmp(m, "std::bad_alloc") == 0 || strcmp(m, "std::bad_array_new_length") == 0)
		return "out of memory";
	if ((p = strstr(m, "Error: ")) != NULL)
		return p + 7;
	if (strncmp(m, "Error in ", 9) == 0 && (p = strstr(m, ".cpp:")) != NULL) {
		p += 5;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p[0] == ':' && p[1] == ' ')
			return p + 2;
	}
	return m;
}

int
ev_vfaiss_oom(void)
{
	return strcmp(ev_vfaiss_error(), "out of memory") == 0;
}

int
ev_vfaiss_fail(struct ev_err *err, const char *where, const char *what)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, where, "%s: %s", what, ev_vfaiss_error());
}

/* ---- The index file's Faiss bytes ------------------------------------------ */

int
ev_vfaiss_read(const char *path, int io_flags, struct ev_vfile_header *h, FaissIndex **out,
	struct ev_err *err)
{
	FILE *f;
	int r;

	*out = NULL;
	if ((r = ev_vfile_open_index(path, h, &f, err)) != 1)
		return r;
	if ((r = ev_vfaiss_read_from(f, path, io_flags, h, out, err)) != 1)
		ev_vfile_header_release(h);
	return r;
}

int
ev_vfaiss_read_from(FILE *f, const char *path, int io_flags, const struct ev_vfile_header *h,
	FaissIndex **out, struct ev_err *err)
{
	struct stat sb;

	*out = NULL;
	/* A Flat index whose vectors are aligned in the file: mapped, not read. */
	if ((io_flags & FAISS_IO_FLAG_MMAP) && fstat(fileno(f), &sb) == 0 &&
	    ev_faiss_flat_map(fileno(f), ftell(f), sb.st_size, out) == 1) {
		fclose(f);
		goto check;
	}
	if (faiss_read_index(f, io_flags, out) != 0) {
		int ferr = ferror(f);
		fclose(f);
		*out = NULL;
		if (ev_vfaiss_oom())
			return ev_err_nomem(err);
		if (ferr) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read index '%s': %s", path,
				ev_vfaiss_error());
			return -1;
		}
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is damaged (its Faiss data is cut short or corrupt)", path);
		return -2;
	}
	/* Mapped lists are not read: lists said to reach past the end of the
	 * file (where Faiss leaves the file position) would fault when
	 * searched. */
	if (fstat(fileno(f), &sb) == -1 || ftell(f) > (long)sb.st_size) {
		fclose(f);
		faiss_Index_free(*out);
		*out = NULL;
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is damaged (its Faiss data is cut short or corrupt)", path);
		return -2;
	}
	fclose(f);
check:
	if (faiss_Index_d(*out) != h->dim || faiss_Index_ntotal(*out) != h->count) {
		faiss_Index_free(*out);
		*out = NULL;
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is damaged: its header does not match its contents", path);
		return -2;
	}
	if (io_flags & FAISS_IO_FLAG_MMAP)
		ev_faiss_prefetch_threads(*out, ev_faiss_prefetch_default());
	return 1;
}

char *
ev_vfaiss_write_tmp(const char *path, const struct ev_vfile_header *h, const FaissIndex *idx,
	struct ev_err *err)
{
	char *tmp = NULL;
	int r;
	/* (without it, stdio's own buffer: only slower to search) */
	char *wbuf = malloc(EV_VFILE_WRITE_BUFFER);
	/* a Flat index's vectors (an IVF-Flat's centroids) aligned, so that a search maps them */
	FILE *f = ev_vfile_create_index_tmp(path, h, ev_faiss_flat_prefix(idx), wbuf, &tmp, err);

	if (f == NULL) {
		free(wbuf);
		return NULL;
	}
	errno = 0;
	if (faiss_write_index(idx, f) != 0) {
		/* Faiss reports a short fwrite() with its own internals; the
		 * stream's error and errno say what the OS refused. */
		int e = errno;
		if (ferror(f))
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp,
				e ? strerror(e) : "write error");
		else
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp, ev_vfaiss_error());
		ev_vfile_discard_tmp(f, tmp);
		free(wbuf);
		return NULL;
	}
	r = ev_vfile_close_tmp(f, tmp, err);
	free(wbuf);	/* (the stream, closed, no longer uses it) */
	if (r == -1) {
		ev_vfile_discard_tmp(NULL, tmp);
		return NULL;
	}
	return tmp;
}

/* ---- Faiss helpers shared with other indexes ------------------------ */

/* What to write instead of a factory string Faiss refuses. */
#define FACTORY_HINT "write a Faiss index factory string such as Flat, HNSW32, IVF1024,Flat or" \
	" IVF1024,PQ16, or leave --factory out for the default"

/* Whether factory ends in a refine stage (X,RFlat or X,Refine(Y)), which
 * Faiss parses first, whatever comes before. */
static int
factory_refined(const char *factory)
{
	size_t len = strlen(factory);

	return (len > 6 && strcmp(factory + len - 6, ",RFlat") == 0) ||
	    (len > 0 && factory[len - 1] == ')' && strstr(factory, ",Refine(") != NULL);
}

/* idx (owned, freed on failure) wrapped in an IDMap (IDMap2 when two) that
 * owns it, in *out.  Returns 0, or -1 with Faiss's error. */
static int
wrap_idmap(FaissIndex *idx, int two, FaissIndex **out)
{
	FaissIndexIDMap *m = NULL;
	FaissIndexIDMap2 *m2 = NULL;

	if (two ? faiss_IndexIDMap2_new(&m2, idx) != 0 : faiss_IndexIDMap_new(&m, idx) != 0) {
		faiss_Index_free(idx);
		return -1;
	}
	if (two)
		faiss_IndexIDMap2_set_own_fields(m2, 1);
	else
		faiss_IndexIDMap_set_own_fields(m, 1);
	*out = two ? (FaissIndex *)m2 : (FaissIndex *)m;
	return 0;
}

int
ev_vfaiss_new(int dim, const char *factory, struct FaissIndex_H **out, struct ev_err *err)
{
	FaissIndex *idx = NULL;
	const char *eff = factory;
	char buf[300];
	int refined = factory_refined(factory), two = 0;

	/* Faiss ids are chunk rowids: indexes without ids of their own (Flat,
	 * HNSW, PQ, ...) are wrapped in an IDMap; IVF indexes keep ids.  A
	 * refine stage (IVF1024,Flat,RFlat, HNSW32,Refine(SQ8)) keeps none, IVF
	 * or not, and Faiss parses it before an IDMap prefix, which then lands
	 * inside it, where no one hands it ids: the index is made without the
	 * prefix and wrapped in an IDMap outside the refine stage instead. */
	if (refined) {
		two = strncmp(factory, "IDMap2,", 7) == 0;
		if (two)
			eff = factory + 7;
		else if (strncmp(factory, "IDMap,", 6) == 0)
			eff = factory + 6;
	} else if (strncmp(factory, "IDMap", 5) != 0 && strstr(factory, "IVF") == NULL) {
		snprintf(buf, sizeof buf, "IDMap,%s", factory);
		eff = buf;
	}
	*out = NULL;
	if (faiss_index_factory(&idx, dim, eff, METRIC_INNER_PRODUCT) != 0 ||
	    (refined && wrap_idmap(idx, two, &idx) == -1)) {
		if (ev_vfaiss_oom())
			return ev_err_nomem(err);
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "--factory '%s': Faiss cannot make an index"
			" of it for vectors of %d dimensions (%s): " FACTORY_HINT, factory, dim,
			ev_vfaiss_error());
	}
	*out = idx;
	return 0;
}

/* The fewest vectors Faiss builds an NSG graph of: it samples
 * min(100, n) points of n as n - 100 would allow, dividing by zero below. */
#define NSG_MIN 101
#define NSG_MIN_S "101"

/* The first count in factory that Faiss would take but cannot work with, in
 * *at (its token, "IVF0", "HNSW1"), and why; NULL when there is none.  Faiss
 * parses a count of 0 (IVF0, HNSW0, PQ0, PCAR0, RQ1x0, NSG0 ...) or an HNSW
 * graph of 1 link per vector (HNSW1) without a word, then divides by it,
 * dereferences the lists it did not make, or never ends its level draw: such
 * a string is refused here, before Faiss sees it. */
static const char *
factory_bad_count(const char *factory, char *at, size_t atsize)
{
	for (const char *p = factory, *tok = factory; *p != '\0'; p++) {
		const char *e = p;
		unsigned long v = 0;

		if (*p == ',' || *p == '(' || *p == ')')
			tok = p + 1;
		if (*p < '0' || *p > '9' || (p > factory && p[-1] >= '0' && p[-1] <= '9'))
			continue;
		for (; *e >= '0' && *e <= '9'; e++)
			if (v < 100000000)
				v = v * 10 + (unsigned long)(*e - '0');
		snprintf(at, atsize, "%.*s", (int)(e - tok), tok);
		if (v == 0)
			return "a count of 0, which Faiss takes but cannot work with (counts start at 1)";
		if (v == 1 && p - tok >= 4 && strncmp(p - 4, "HNSW", 4) == 0)
			return "1 link per vector, an HNSW graph Faiss never finishes building (2 at"
			    " least; HNSW32 is usual)";
		if (v == 1 && p - tok >= 3 && strncmp(p - 3, "NSG", 3) == 0)
			return "1 link per vector, an NSG graph Faiss never finishes building (2 at"
			    " least; NSG32 is usual)";
		/* IVF<nlist>_NSG<R>: the coarse quantizer is an NSG graph of
		 * the nlist centroids, which Faiss divides by zero building
		 * below NSG_MIN of them, whatever the data. */
		if (v <= NSG_MIN - 1 && p - tok == 3 && strncmp(tok, "IVF", 3) == 0 &&
		    strncmp(e, "_NSG", 4) == 0)
			return "an NSG graph over its lists, which Faiss needs " NSG_MIN_S " lists at"
			    " least to build (IVF1024_NSG32 or IVF1024_HNSW32 is usual)";
	}
	return NULL;
}

int
ev_vfaiss_factory_check(const char *factory, long long dim, struct ev_err *err)
{
	/* Dimensions a factory is tried at besides the index's: 960 and 1008
	 * are divided by every usual number of subquantizers (PQ16, PQ48,
	 * PQ64, PQ96, OPQ7 ...), and an empty index of either costs a few
	 * megabytes at most. */
	static const int some_dims[] = { 960, 1008 };
	struct ev_err at_dim = { 0 };
	const char *why;
	char at[64], first[400] = "";

	if ((why = factory_bad_count(factory, at, sizeof at)) != NULL)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "--factory '%s': '%s' has %s: " FACTORY_HINT,
			factory, at, why);
	/* Faiss's C API says only that index_factory() failed, with its
	 * message: a string it cannot parse and one it cannot make at this
	 * dimension (PQ3 of 4 dimensions) both throw, and both are the
	 * string's fault, for this store (code 2); only running out of memory
	 * is not (code 1).  Which of the two it is, is told by trying the
	 * string at other dimensions too, for the message.  Training and
	 * adding, where the data decide (IVF100 of 6 vectors), are runtime
	 * failures at the load's commit (code 1). */
	for (int i = dim > 0 ? -1 : 0; i < (int)(sizeof some_dims / sizeof *some_dims); i++) {
		FaissIndex *idx = NULL;
		struct ev_err e = { 0 };

		if (ev_vfaiss_new(i < 0 ? (int)dim : some_dims[i], factory, &idx, &e) == 0) {
			faiss_Index_free(idx);
			if (dim <= 0 || i < 0)
				return 0;
			*err = at_dim;	/* it fits another dimension, not the index's */
			return -1;
		}
		if (e.code != EV_EXIT_USAGE) {
			*err = e;
			return -1;
		}
		if (i < 0)
			at_dim = e;
		else if (i == 0)	/* (Faiss's reason, the first dimension's) */
			snprintf(first, sizeof first, "%s", ev_vfaiss_error());
	}
	return ev_err_set(err, EV_EXIT_USAGE, NULL, "--factory '%s': Faiss cannot make an index of"
		" it (%s): " FACTORY_HINT, factory, first);
}

int
ev_vfaiss_factory_nsg(const char *factory)
{
	/* A token starting "NSG" (NSG32, NSG32,Flat, PCA8,NSG32, NSG32,RFlat),
	 * not IVF<k>_NSG<R>, whose graph holds the lists, not the vectors. */
	for (const char *tok = factory; tok != NULL; tok = strpbrk(tok, ",()")) {
		if (*tok == ',' || *tok == '(' || *tok == ')')
			tok++;
		if (strncmp(tok, "NSG", 3) == 0)
			return 1;
	}
	return 0;
}

int
ev_vfaiss_factory_fits(const char *factory, long long n, struct ev_err *err)
{
	if (ev_vfaiss_factory_nsg(factory) && n < NSG_MIN)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "factory '%s' builds an NSG graph,"
			" which Faiss needs " NSG_MIN_S " vectors at least to build; the index"
			" would hold %lld: use Flat or HNSW32 for so few", factory, n);
	return 0;
}

int
ev_vfaiss_param(struct FaissParameterSpace_H **ps, struct FaissIndex_H *idx,
	const char *name, double value, struct ev_err *err)
{
	if (*ps == NULL && faiss_ParameterSpace_new(ps) != 0)
		return ev_vfaiss_fail(err, NULL, "setting a search parameter");
	if (faiss_ParameterSpace_set_index_parameter(*ps, idx, name, value) != 0)
		return 0;
	return 1;
}
