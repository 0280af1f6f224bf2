/* vindex.c: searching the vector index (see vindex.h for the contract and layout). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/index_io_c.h>
#include <faiss/c_api/utils/distances_c.h>

#include "faiss_scan.h"
#include "vfaiss.h"
#include "vindex.h"
#include "vstored.h"

#define EXACT_MAX 8192		/* filtered sets up to this size are scored exactly */

/* ---- Searching ------------------------------------------------------------- */

struct ev_vindex {
	struct ev_vstored *sv;	/* the file checked against the store, its header */
	const struct ev_vfile_header *h;	/* sv's */
	struct ev_store *st;
	FaissIndex *idx;
	FaissParameterSpace *ps;
};

struct ev_vindex *
ev_vindex_open(struct ev_store *st, const char *path, struct ev_err *err)
{
	struct ev_vindex *ix = calloc(1, sizeof *ix);
	FILE *f;
	int r;

	if (ix == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	ix->st = st;
	if ((ix->sv = ev_vstored_open(st, path, &f, err)) == NULL) {
		free(ix);
		return NULL;
	}
	ix->h = ev_vstored_header(ix->sv);
	if ((r = ev_vfaiss_read_from(f, path, FAISS_IO_FLAG_MMAP, ix->h, &ix->idx, err)) != 1) {
		if (r == -2)
			ev_vstored_damaged(st, path, err);
		ev_vindex_close(ix);
		return NULL;
	}
	return ix;
}

int
ev_vindex_batch_begin(struct ev_vindex *ix, struct ev_err *err)
{
	return ev_vstored_batch_begin(ix->sv, err);
}

void
ev_vindex_batch_end(struct ev_vindex *ix)
{
	if (ix != NULL)
		ev_vstored_batch_end(ix->sv);
}

void
ev_vindex_close(struct ev_vindex *ix)
{
	if (ix == NULL)
		return;
	if (ix->idx)
		faiss_Index_free(ix->idx);
	if (ix->ps)
		faiss_ParameterSpace_free(ix->ps);
	ev_vstored_close(ix->sv);
	free(ix);
}

int
ev_vindex_dim(const struct ev_vindex *ix)
{
	return (int)ix->h->dim;
}

long long
ev_vindex_count(const struct ev_vindex *ix)
{
	return ix->h->count;
}

const char *
ev_vindex_model(const struct ev_vindex *ix)
{
	return ix->h->model;
}

const char *
ev_vindex_factory(const struct ev_vindex *ix)
{
	return ix->h->factory;
}

int
ev_vindex_set_param(struct ev_vindex *ix, const char *name, double value, struct ev_err *err)
{
	return ev_vfaiss_param(&ix->ps, ix->idx, name, value, err);
}

void
ev_vindex_pairwise(void)
{
	faiss_set_distance_compute_blas_threshold(INT_MAX);
}

int
ev_vindex_search(struct ev_vindex *ix, long long nq, const float *q, int k, float *scores,
	int64_t *ids, struct ev_err *err)
{
	if (ev_faiss_scan_search(ix->idx, nq, q, k, scores, ids) != 1 &&
	    faiss_Index_search(ix->idx, nq, q, k, scores, (idx_t *)ids) != 0)
		return ev_vfaiss_fail(err, NULL, "searching the index");
	/* Equal scores in rowid order, so that output does not depend on
	 * Faiss's heap (an insertion sort: runs of equal scores are short). */
	for (long long i = 0; i < nq; i++) {
		float *s = scores + i * k;
		int64_t *d = ids + i * k;
		for (int j = 1; j < k && d[j] >= 0; j++) {
			float sv = s[j];
			int64_t dv = d[j];
			int m = j;
			while (m > 0 && s[m - 1] == sv && d[m - 1] > dv) {
				s[m] = s[m - 1];
				d[m] = d[m - 1];
				m--;
			}
			s[m] = sv;
			d[m] = dv;
		}
	}
	return 0;
}

struct scored {
	float score;
	int64_t id;
};

static int
cmp_scored(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Score the allowed chunks exactly from their stored vectors. */
static int
search_exact(struct ev_vindex *ix, const float *q, int k, const int64_t *allowed, size_t n,
	float *scores, int64_t *ids, int *nout, struct ev_err *err)
{
	struct scored *sc;
	sqlite3_stmt *s;
	size_t m = 0;
	int dim = (int)ix->h->dim;

	if ((sc = malloc((n ? n : 1) * sizeof *sc)) == NULL)
		return ev_err_nomem(err);
	if ((s = ev_store_prepare(ix->st, "SELECT vector FROM vec_vectors WHERE rowid = ?", err)) ==
	    NULL) {
		free(sc);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(s, 1, allowed[i]);
		int rc = sqlite3_step(s);
		if (rc == SQLITE_ROW && sqlite3_column_bytes(s, 0) == dim * (int)sizeof(float)) {
			const float *v = sqlite3_column_blob(s, 0);
			float d = 0;
			for (int j = 0; j < dim; j++)
				d += q[j] * v[j];
			sc[m].score = d;
			sc[m].id = allowed[i];
			m++;
		} else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			sqlite3_reset(s);
			free(sc);
			return ev_store_error(ix->st, "reading stored vectors", err);
		}
		sqlite3_reset(s);
	}
	qsort(sc, m, sizeof *sc, cmp_scored);
	*nout = (int)(m < (size_t)k ? m : (size_t)k);
	for (int i = 0; i < *nout; i++) {
		scores[i] = sc[i].score;
		ids[i] = sc[i].id;
	}
	free(sc);
	return 0;
}

int
ev_vindex_search_among(struct ev_vindex *ix, const float *q, int k, const int64_t *allowed,
	size_t nallowed, float *scores, int64_t *ids, int *nout, struct ev_err *err)
{
	long long total = ix->h->count, kk;
	float *sc = NULL;
	int64_t *id = NULL;

	*nout = 0;
	if (nallowed == 0 || total == 0)
		return 0;
	if (nallowed <= EXACT_MAX)
		return search_exact(ix, q, k, allowed, nallowed, scores, ids, nout, err);
	/* Search deeper than k, in proportion to how few chunks pass. */
	kk = (long long)((double)k * total / nallowed * 2) + 16;
	for (;;) {
		int m = 0;
		if (kk > total)
			kk = total;
		free(sc);
		free(id);
		sc = malloc(kk * sizeof *sc);
		id = malloc(kk * sizeof *id);
		if (sc == NULL || id == NULL) {
			free(sc);
			free(id);
			return ev_err_nomem(err);
		}
		if (ev_vindex_search(ix, 1, q, (int)kk, sc, id, err) == -1) {
			free(sc);
			free(id);
			return -1;
		}
		for (long long i = 0; i < kk && m < k; i++) {
			if (id[i] < 0)
				break;
			if (bsearch(&id[i], allowed, nallowed, sizeof *allowed, ev_vfile_cmp_i64)) {
				scores[m] = sc[i];
				ids[m] = id[i];
				m++;
			}
		}
		*nout = m;
		if (m >= k || kk >= total)
			break;
		kk *= 4;
	}
	free(sc);
	free(id);
	return 0;
}


int
ev_vindex_chunk_vector(struct ev_vindex *ix, const char *chunk_id, float *out,
	struct ev_err *err)
{
	return ev_vstored_chunk_vector(ix->sv, chunk_id, out, err);
}
