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

#define EXACT_MAX 8192		/* filtered sets up to this size are scored exactly */

/* ---- Searching ------------------------------------------------------------- */

struct ev_vindex {
	struct ev_store *st;
	FaissIndex *idx;
	FaissParameterSpace *ps;
	struct ev_vfile_header h;
	char *path;
	int in_batch;
};

struct ev_vindex *
ev_vindex_open(struct ev_store *st, const char *path, struct ev_err *err)
{
	struct ev_vindex *ix;
	char *store_id = NULL, *smodel = NULL, *linked = NULL;
	long long gen, bytes;
	int r;

	if ((ix = calloc(1, sizeof *ix)) == NULL || (ix->path = strdup(path)) == NULL) {
		free(ix);
		ev_err_nomem(err);
		return NULL;
	}
	ix->st = st;
	if ((r = ev_store_meta_get(st, "vindex.store_id", &store_id, err)) == -1 ||
	    ev_vfile_meta_ll(st, "vindex.generation", &gen, err) == -1)
		goto fail;
	if (r == 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"store '%s' has no vectors: run ev-embed-load --db %s --index %s",
			ev_store_path(st), ev_store_path(st), path);
		goto fail;
	}
	if (ev_vfile_not_dir(path, "vector index", err) == -1 || ev_vfile_meta_ll(st, "vindex.bytes", &bytes, err) == -1)
		goto fail;
	if ((r = ev_vfile_size_check(path, store_id, gen, bytes, err)) == -2 ||
	    (r = ev_vfaiss_read(path, FAISS_IO_FLAG_MMAP, &ix->h, &ix->idx, err)) == -2) {
		/* evkit's own file, damaged (a disk fault, a truncated copy): a
		 * failure of the system, not of usage; the store can rebuild it */
		char what[sizeof err->msg];
		snprintf(what, sizeof what, "%s", err->msg);
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "%s; rebuild it from the stored vectors with "
			"ev-embed-load --db %s --index %s < /dev/null", what, ev_store_path(st), path);
		goto fail;
	}
	if (r == -1)
		goto fail;
	if (r == 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"no index '%s': run ev-embed-load --db %s --index %s < /dev/null to build it "
			"from the stored vectors", path, ev_store_path(st), path);
		goto fail;
	}
	if (strcmp(ix->h.store_id, store_id) != 0) {
		ev_err_set(err, EV_EXIT_USAGE, NULL,
			"index '%s' belongs to another store than '%s'; give the index that "
			"ev-embed-load --db %s built", path, ev_store_path(st), ev_store_path(st));
		goto fail;
	}
	if (ix->h.generation != gen) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is out of date with store '%s' (load %lld, the store is at load %lld): "
			"run ev-embed-load --db %s --index %s < /dev/null to rebuild it", path,
			ev_store_path(st), ix->h.generation, gen, ev_store_path(st), path);
		goto fail;
	}
	if ((r = ev_store_meta_get(st, "vindex.embed_linked", &linked, err)) == -1)
		goto fail;
	if (r == 1 && strcmp(linked, "1") == 0 && ev_vfile_store_model(st, &smodel, err) == -1)
		goto fail;
	if (smodel != NULL && strcmp(smodel, ix->h.model) != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"stale index '%s': it holds vectors of model '%s' but the store's model is now "
			"'%s' (retrained); run 'ev-embed --db %s --pending | ev-embed-load --db %s "
			"--index %s'", path, ix->h.model, smodel, ev_store_path(st), ev_store_path(st),
			path);
		goto fail;
	}
	/* Hits read their chunks at random: map the store rather than read it. */
	ev_store_exec(st, "PRAGMA mmap_size = 1073741824", NULL);
	free(store_id);
	free(smodel);
	free(linked);
	return ix;
fail:
	free(store_id);
	free(smodel);
	free(linked);
	ev_vindex_close(ix);
	return NULL;
}

int
ev_vindex_batch_begin(struct ev_vindex *ix, struct ev_err *err)
{
	if (ix->in_batch)
		return 0;
	if (ev_store_exec(ix->st, "BEGIN", err) == -1)
		return -1;
	ix->in_batch = 1;
	return 0;
}

void
ev_vindex_batch_end(struct ev_vindex *ix)
{
	if (ix == NULL || !ix->in_batch)
		return;
	if (ev_store_exec(ix->st, "COMMIT", NULL) == -1)
		ev_store_rollback(ix->st);
	ix->in_batch = 0;
}

void
ev_vindex_close(struct ev_vindex *ix)
{
	if (ix == NULL)
		return;
	ev_vindex_batch_end(ix);
	if (ix->idx)
		faiss_Index_free(ix->idx);
	if (ix->ps)
		faiss_ParameterSpace_free(ix->ps);
	ev_vfile_header_release(&ix->h);
	free(ix->path);
	free(ix);
}

int
ev_vindex_dim(const struct ev_vindex *ix)
{
	return (int)ix->h.dim;
}

long long
ev_vindex_count(const struct ev_vindex *ix)
{
	return ix->h.count;
}

const char *
ev_vindex_model(const struct ev_vindex *ix)
{
	return ix->h.model;
}

const char *
ev_vindex_factory(const struct ev_vindex *ix)
{
	return ix->h.factory;
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
	int dim = (int)ix->h.dim;

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
	long long total = ix->h.count, kk;
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
	sqlite3_stmt *s;
	int rc, dim = (int)ix->h.dim;

	if ((s = ev_store_prepare(ix->st, "SELECT v.vector FROM chunks c JOIN vec_vectors v"
	    " ON v.rowid = c.rowid WHERE c.id = ? AND v.model = ?", err)) == NULL)
		return -1;
	/* (a bind that fails, out of memory, would find no row: not "no vector") */
	if (sqlite3_bind_text(s, 1, chunk_id, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(s, 2, ix->h.model, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_reset(s);
		return ev_store_error(ix->st, "reading a chunk's vector", err);
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_bytes(s, 0) == dim * (int)sizeof(float)) {
		memcpy(out, sqlite3_column_blob(s, 0), (size_t)dim * sizeof(float));
		sqlite3_reset(s);
		return 1;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ev_store_error(ix->st, "reading a chunk's vector", err);
	return 0;
}
