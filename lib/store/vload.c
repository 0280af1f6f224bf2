/* vload.c: loading vectors into the vector index (see vload.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/impl/AuxIndexStructures_c.h>

#include "sha256.h"
#include "vfaiss.h"
#include "vload.h"

#define ADD_BATCH 16384		/* vectors handed to Faiss at a time */

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS vec_vectors(rowid INTEGER PRIMARY KEY,"
	" model TEXT NOT NULL, content_hash TEXT, vector BLOB NOT NULL);"
	"CREATE TABLE IF NOT EXISTS chunk_tombstones(rowid INTEGER PRIMARY KEY);";

struct ev_vload {
	struct ev_store *st;
	char *path;
	char *factory_opt;
	int reset;
	/* the store's record of the index */
	char *store_id;
	long long generation;
	char *model;		/* reference model: the index's, or the batch's first */
	long long dim;		/* reference dimension, 0 while unknown */
	char *factory;		/* the index's factory, or NULL */
	int have_index;		/* the store has vectors of a model already */
	long long staged;
	float *unit;		/* scratch: the staged vector at unit length */
	long long unit_dim;
	char *factory_used;
	char *stale_model;	/* the index's model, stale since the store's own
				 * model was retrained; NULL when not so */
	char *store_model;	/* the store's ev-embed model, or NULL */
};

static FaissIndex *rebuild_empty(struct ev_vload *ld, const char *factory, struct ev_err *err);

/* Whether the index's vectors, of model `model`, are of the store's own
 * ev-embed model as it was before a retraining (vindex.embed_linked is "1"
 * and meta embed.model is now another).  Sets *own (malloc'd, NULL
 * when the store has none).  Returns 1 or 0, or -1 with *err set. */
static int
index_retrained(struct ev_store *st, const char *model, char **own, struct ev_err *err)
{
	char *linked = NULL;
	int r;

	if ((r = ev_store_meta_get(st, "vindex.embed_linked", &linked, err)) == -1 ||
	    ev_vfile_store_model(st, own, err) == -1) {
		free(linked);
		return -1;
	}
	r = r == 1 && strcmp(linked, "1") == 0 && *own != NULL && strcmp(*own, model) != 0;
	free(linked);
	return r;
}

struct ev_vload *
ev_vload_begin(struct ev_store *st, const char *path, const struct ev_vload_opts *opts,
	struct ev_err *err)
{
	struct ev_vload *ld;
	char *v = NULL;
	int r;

	if ((ld = calloc(1, sizeof *ld)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	ld->st = st;
	ld->reset = opts && opts->reset;
	if ((ld->path = strdup(path)) == NULL ||
	    (opts && opts->factory && (ld->factory_opt = strdup(opts->factory)) == NULL)) {
		ev_err_nomem(err);
		goto fail;
	}
	if (ev_store_meta_get(st, "vindex.store_id", &ld->store_id, err) == -1 ||
	    ev_vfile_claimable(st, ld->path, ld->store_id, err) == -1)
		goto fail;
	free(ld->store_id);
	ld->store_id = NULL;
	if (ev_store_exec(st, "CREATE TEMP TABLE IF NOT EXISTS vec_batch(rowid INTEGER PRIMARY KEY,"
		" content_hash TEXT, vector BLOB); DELETE FROM temp.vec_batch;", err) == -1)
		goto fail;
	if (ev_store_meta_get(st, "vindex.store_id", &ld->store_id, err) == -1 ||
	    ev_vfile_meta_ll(st, "vindex.generation", &ld->generation, err) == -1 ||
	    ev_store_meta_get(st, "vindex.factory", &ld->factory, err) == -1)
		goto fail;
	if (!ld->reset) {
		if ((r = ev_store_meta_get(st, "vindex.model", &v, err)) == -1)
			goto fail;
		if (r == 1 && (r = index_retrained(st, v, &ld->store_model, err)) == -1)
			goto fail;
		if (r == 1) {
			/* Vectors of the store's own model before it was retrained:
			 * stale, replaced by the batch (see ev_vload_add()). */
			ld->stale_model = v;
			v = NULL;
		} else if (v != NULL) {
			ld->model = v;
			v = NULL;
			if (ev_vfile_meta_ll(st, "vindex.dim", &ld->dim, err) == -1)
				goto fail;
			ld->have_index = 1;
		}
	}
	/* Refuse a bad factory before the input is read (at the index's
	 * dimension when there is one: else again at the commit, the first
	 * vector's). */
	if (ld->factory_opt && ev_vfaiss_factory_check(ld->factory_opt, ld->dim, err) == -1)
		goto fail;
	return ld;
fail:
	free(v);
	ev_vload_free(ld);
	return NULL;
}

long long
ev_vload_count(const struct ev_vload *ld)
{
	return ld ? ld->staged : 0;
}

int
ev_vload_add(struct ev_vload *ld, const char *chunk_id, const char *content_hash,
	const char *model, const float *v, long long dim, const char *where, struct ev_err *err)
{
	sqlite3_stmt *q, *ins;
	double norm = 0;
	int64_t rowid;
	int rc;

	if (ld->stale_model && ld->model == NULL && strcmp(model, ld->store_model) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"vector of model '%s', but the index holds vectors of model '%s', stale since "
			"the store's model was retrained as '%s': load vectors of '%s' (ev-embed --db %s "
			"--pending), or every vector of '%s' with --reset", model, ld->stale_model,
			ld->store_model, ld->store_model, ev_store_path(ld->st), model);
	if (ld->model && strcmp(model, ld->model) != 0) {
		if (ld->have_index)
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"vector of model '%s', but the index holds model '%s' (after retraining, "
				"load every vector again with --reset)", model, ld->model);
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"vector of model '%s', but the first vector of this input is of model '%s'",
			model, ld->model);
	}
	if (dim < 1 || dim > EV_VLOAD_DIM_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"vector has %lld dimensions (1 to %d are accepted)", dim, EV_VLOAD_DIM_MAX);
	if (ld->dim && dim != ld->dim)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"vector has %lld dimensions, but %s has %lld", dim,
			ld->have_index ? "the index" : "the first vector of this input", ld->dim);
	for (long long i = 0; i < dim; i++) {
		if (!isfinite(v[i]))
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"component %lld of the vector is not a finite number", i);
		norm += (double)v[i] * v[i];
	}
	if (!isfinite(norm))
		return ev_err_set(err, EV_EXIT_USAGE, where, "the vector's length overflows");
	if ((q = ev_store_prepare(ld->st, "SELECT rowid, content_hash FROM chunks WHERE id = ?",
		err)) == NULL)
		return -1;
	sqlite3_bind_text(q, 1, chunk_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(q);
		if (rc != SQLITE_DONE)
			return ev_store_error(ld->st, "looking up a chunk", err);
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"unknown chunk '%s' (not in store '%s'; ingest it first)", chunk_id,
			ev_store_path(ld->st));
	}
	rowid = sqlite3_column_int64(q, 0);
	if (content_hash != NULL && sqlite3_column_type(q, 1) == SQLITE_TEXT &&
	    strcmp(content_hash, (const char *)sqlite3_column_text(q, 1)) != 0) {
		ev_err_set(err, EV_EXIT_USAGE, where,
			"chunk '%s' changed since its vector was made (content_hash '%s', the store's "
			"'%s'): embed it again ('ev-embed --db %s --pending' does)", chunk_id,
			content_hash, (const char *)sqlite3_column_text(q, 1), ev_store_path(ld->st));
		sqlite3_reset(q);
		return -1;
	}
	if (ld->unit_dim < dim) {
		float *u = realloc(ld->unit, dim * sizeof *u);
		if (u == NULL) {
			sqlite3_reset(q);
			return ev_err_nomem(err);
		}
		ld->unit = u;
		ld->unit_dim = dim;
	}
	norm = sqrt(norm);
	for (long long i = 0; norm > 0 && i < dim; i++)
		ld->unit[i] = (float)(v[i] / norm);
	if ((ins = ev_store_prepare(ld->st, "INSERT INTO temp.vec_batch"
		"(rowid, content_hash, vector) VALUES (?, ?, ?)", err)) == NULL) {
		sqlite3_reset(q);
		return -1;
	}
	/* a failed bind (the content hash copied under memory pressure)
	 * would stage the vector with a NULL hash: check each */
	rc = sqlite3_bind_int64(ins, 1, rowid);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_value(ins, 2, sqlite3_column_value(q, 1));
	if (rc == SQLITE_OK)
		rc = norm > 0 ?
			sqlite3_bind_blob(ins, 3, ld->unit, (int)(dim * sizeof(float)), SQLITE_STATIC) :
			sqlite3_bind_null(ins, 3);	/* no direction: the chunk keeps no vector */
	if (rc == SQLITE_OK && (rc = sqlite3_step(ins)) == SQLITE_DONE)
		rc = SQLITE_OK;
	if (rc == SQLITE_CONSTRAINT)	/* (its rowid is staged already) */
		ev_err_set(err, EV_EXIT_USAGE, where, "chunk '%s' has a vector already in this input: "
			"give each chunk one vector (which of two is meant, no load can tell)",
			chunk_id);
	else if (rc != SQLITE_OK)
		ev_store_error(ld->st, "staging a vector", err);	/* (before the resets clear it) */
	sqlite3_reset(ins);
	sqlite3_clear_bindings(ins);
	sqlite3_reset(q);
	if (rc != SQLITE_OK)
		return -1;
	if (ld->model == NULL && (ld->model = strdup(model)) == NULL)
		return ev_err_nomem(err);
	ld->dim = dim;
	ld->staged++;
	return 0;
}

/* Train idx on the n vectors x (of dim floats), or, when train_max is
 * below n, on train_max of them taken evenly (row i n / train_max).
 * Returns 0 or -1 with *err set. */
static int
train_on(FaissIndex *idx, const float *x, size_t n, long long dim, size_t train_max,
	struct ev_err *err)
{
	float *sample = NULL;
	int rc;

	if (train_max > 0 && train_max < n) {
		if ((sample = malloc(train_max * dim * sizeof *sample)) == NULL)
			return ev_err_nomem(err);
		for (size_t i = 0; i < train_max; i++)
			memcpy(sample + i * dim, x + (size_t)((double)i * n / train_max) * dim,
				dim * sizeof *x);
		x = sample;
		n = train_max;
	}
	rc = faiss_Index_train(idx, (idx_t)n, x);
	free(sample);
	return rc != 0 ? ev_vfaiss_fail(err, NULL, "training the index") : 0;
}

/* Add the vectors selected by sql (rowid, vector) to idx, ADD_BATCH at a
 * time; with train set, first train idx on them (on train_max of them, taken
 * evenly, when train_max is not 0 and there are more). */
static int
add_from(struct ev_vload *ld, FaissIndex *idx, const char *sql, int train, size_t train_max,
	long long *added, struct ev_err *err)
{
	sqlite3_stmt *s;
	float *x = NULL;
	int64_t *xid = NULL;
	size_t n = 0, cap = train ? 0 : ADD_BATCH;
	int rc, ret = -1;
	long long dim = ld->dim;

	*added = 0;
	if ((s = ev_store_prepare(ld->st, sql, err)) == NULL)
		return -1;
	if (cap && ((x = malloc(cap * dim * sizeof *x)) == NULL ||
	    (xid = malloc(cap * sizeof *xid)) == NULL)) {
		ev_err_nomem(err);
		goto out;
	}
	for (;;) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW) {
			if (sqlite3_column_bytes(s, 1) != (int)(dim * sizeof(float))) {
				ev_err_set(err, EV_EXIT_RUNTIME, NULL,
					"stored vector of chunk rowid %lld has %d bytes, expected %lld",
					(long long)sqlite3_column_int64(s, 0), sqlite3_column_bytes(s, 1),
					dim * (long long)sizeof(float));
				goto out;
			}
			if (n == cap) {
				size_t nc = cap ? 2 * cap : ADD_BATCH;
				float *nx = realloc(x, nc * dim * sizeof *x);
				int64_t *ni;
				if (nx == NULL) {
					ev_err_nomem(err);
					goto out;
				}
				x = nx;
				if ((ni = realloc(xid, nc * sizeof *xid)) == NULL) {
					ev_err_nomem(err);
					goto out;
				}
				xid = ni;
				cap = nc;
			}
			memcpy(x + n * dim, sqlite3_column_blob(s, 1), dim * sizeof(float));
			xid[n++] = sqlite3_column_int64(s, 0);
			if (train || n < cap)
				continue;
		} else if (rc != SQLITE_DONE) {
			ev_store_error(ld->st, "reading stored vectors", err);
			goto out;
		}
		if (n > 0) {
			if (train && !faiss_Index_is_trained(idx) &&
			    train_on(idx, x, n, dim, train_max, err) == -1)
				goto out;
			if (faiss_Index_add_with_ids(idx, (idx_t)n, x, (const idx_t *)xid) != 0) {
				ev_vfaiss_fail(err, NULL, "adding vectors to the index");
				goto out;
			}
			*added += n;
			n = 0;
		}
		if (rc == SQLITE_DONE)
			break;
	}
	ret = 0;
out:
	sqlite3_reset(s);
	free(x);
	free(xid);
	return ret;
}

void
ev_vload_default_factory(long long count, char *buf, size_t size)
{
	long long nlist = 1;

	if (count <= EV_VLOAD_FLAT_MAX) {
		snprintf(buf, size, "%s", EV_VLOAD_FACTORY_SMALL);
		return;
	}
	/* The largest power of two not above 4 sqrt(count). */
	while (4 * nlist * nlist <= 16 * count)
		nlist *= 2;
	snprintf(buf, size, "IVF%lld,Flat", nlist);
}

/* The number of lists of an inverted-file factory ("IVF<nlist>,..."), or 0. */
static long
factory_nlist(const char *factory)
{
	const char *ivf = strstr(factory, "IVF");
	long nlist;

	return ivf != NULL && (nlist = strtol(ivf + 3, NULL, 10)) > 0 ? nlist : 0;
}

long
ev_vload_default_nprobe(long nlist)
{
	long share = nlist / 64 * 3;

	if (nlist <= 64)
		return nlist;
	return share > 64 ? share : 64;
}

/* An IVF index visits ev_vload_default_nprobe() of its lists (Faiss's own
 * default, 1, finds a tenth of the nearest neighbours): the nprobe written
 * into the file, which ev-search-vec --nprobe overrides.  Returns 0, or -1
 * with *err set. */
static int
set_nprobe(FaissIndex *idx, const char *factory, struct ev_err *err)
{
	FaissParameterSpace *ps = NULL;
	long nlist = factory_nlist(factory);

	if (nlist == 0)
		return 0;
	if (faiss_ParameterSpace_new(&ps) != 0)
		return ev_vfaiss_fail(err, NULL, "setting the index's nprobe");
	/* An index Faiss cannot reach the lists of (one wrapped in a kind
	 * ParameterSpace does not know) keeps its own nprobe. */
	(void)faiss_ParameterSpace_set_index_parameter(ps, idx, "nprobe",
	    (double)ev_vload_default_nprobe(nlist));
	faiss_ParameterSpace_free(ps);
	return 0;
}

/* A new, empty index of the chosen factory. */
static FaissIndex *
rebuild_empty(struct ev_vload *ld, const char *factory, struct ev_err *err)
{
	FaissIndex *idx = NULL;

	return ev_vfaiss_new((int)ld->dim, factory, &idx, err) == 0 ? idx : NULL;
}

/* A new index of the chosen factory holding every stored vector; an
 * inverted file of exact vectors ("IVF<nlist>,Flat") is trained on
 * EV_VLOAD_TRAIN_PER_LIST of them a list, other kinds on all. */
static FaissIndex *
rebuild(struct ev_vload *ld, const char *factory, struct ev_err *err)
{
	size_t train_max = strstr(factory, ",Flat") != NULL ?
	    (size_t)factory_nlist(factory) * EV_VLOAD_TRAIN_PER_LIST : 0;
	FaissIndex *idx;
	long long added;

	if ((idx = rebuild_empty(ld, factory, err)) == NULL)
		return NULL;
	if (add_from(ld, idx, "SELECT rowid, vector FROM vec_vectors ORDER BY rowid", 1, train_max,
		&added, err) == -1) {
		faiss_Index_free(idx);
		return NULL;
	}
	return idx;
}

/* Whether the index file is the one the store's last load wrote, with
 * this factory, and whole: its size is the one recorded (vindex.bytes) when
 * it was written, so that a file cut short is rebuilt, not kept. */
static int
index_current(struct ev_vload *ld, const char *factory)
{
	struct ev_vfile_header h;
	struct ev_err e;
	struct stat sb;
	long long bytes;
	FILE *f;
	int ok;

	if (ev_vfile_meta_ll(ld->st, "vindex.bytes", &bytes, &e) == -1 || stat(ld->path, &sb) == -1 ||
	    (long long)sb.st_size != bytes)
		return 0;
	if (ld->store_id == NULL || (f = fopen(ld->path, "rb")) == NULL)
		return 0;
	if (ev_vfile_header_read(f, ld->path, &h, &e) < 0) {
		fclose(f);
		return 0;
	}
	fclose(f);
	ok = strcmp(h.store_id, ld->store_id) == 0 && h.generation == ld->generation &&
		strcmp(h.factory, factory) == 0;
	ev_vfile_header_release(&h);
	return ok;
}

/* Try to bring the existing index file up to date in place: remove ids
 * rem[0..n), add the staged vectors.  Returns the index, or NULL when it must
 * be rebuilt instead (*err untouched) or on error (*err set: err->code). */
static FaissIndex *
update(struct ev_vload *ld, const char *factory, const struct ev_vfile_ids *rem, struct ev_err *err)
{
	struct ev_vfile_header h;
	FaissIndex *idx = NULL;
	struct ev_err e;
	long long added, bytes;
	size_t nrem = 0;

	if (ld->reset || ld->store_id == NULL)
		return NULL;
	/* A file cut short or grown is not handed to Faiss's reader, which
	 * would throw partway and leak what it had read. */
	if (ev_vfile_meta_ll(ld->st, "vindex.bytes", &bytes, &e) == -1 ||
	    ev_vfile_size_check(ld->path, ld->store_id, ld->generation, bytes, &e) != 0 ||
	    ev_vfaiss_read(ld->path, 0, &h, &idx, &e) != 1)
		return NULL;	/* missing, damaged or unreadable: rebuilt from the store */
	if (strcmp(h.store_id, ld->store_id) != 0 || h.generation != ld->generation ||
	    h.dim != ld->dim || strcmp(h.factory, factory) != 0 || strcmp(h.model, ld->model) != 0)
		goto rebuild;
	/* An NSG graph is built once, of all its vectors: Faiss adds to none. */
	if (ld->staged > 0 && ev_vfaiss_factory_nsg(factory))
		goto rebuild;
	if (rem->n > 0) {
		FaissIDSelectorBatch *sel = NULL;
		if (faiss_IDSelectorBatch_new(&sel, rem->n, (const idx_t *)rem->v) != 0)
			goto rebuild;
		if (faiss_Index_remove_ids(idx, (const FaissIDSelector *)sel, &nrem) != 0) {
			faiss_IDSelector_free((FaissIDSelector *)sel);
			goto rebuild;	/* HNSW cannot remove: rebuild */
		}
		faiss_IDSelector_free((FaissIDSelector *)sel);
	}
	if (add_from(ld, idx, "SELECT rowid, vector FROM temp.vec_batch WHERE vector IS NOT NULL"
		" ORDER BY rowid", 0, 0, &added, err) == -1) {
		faiss_Index_free(idx);
		ev_vfile_header_release(&h);
		return NULL;
	}
	ev_vfile_header_release(&h);
	return idx;
rebuild:
	faiss_Index_free(idx);
	ev_vfile_header_release(&h);
	return NULL;
}

/* Commit a load that writes no index file (it only consumed tombstones).
 * Returns 0, or -1 with *err set. */
static int
finish_quietly(struct ev_store *st, int *in_txn, struct ev_err *err)
{
	if (ev_vfile_txn_lost(st, err) || ev_store_commit(st, err) == -1)
		return -1;
	*in_txn = 0;
	return 0;
}

/* Another load may have committed since ev_vload_begin(): take its
 * generation, and refuse if it changed the model or dimension this batch
 * was checked against.  Returns 0, or -1 with *err set. */
static int
catch_up(struct ev_vload *ld, struct ev_err *err)
{
	struct ev_store *st = ld->st;
	long long gen, dim = 0;
	char *m = NULL, *id = NULL;
	int r;

	if (ev_vfile_meta_ll(st, "vindex.generation", &gen, err) == -1 ||
	    (r = ev_store_meta_get(st, "vindex.model", &m, err)) == -1 ||
	    ev_vfile_meta_ll(st, "vindex.dim", &dim, err) == -1) {
		free(m);
		return -1;
	}
	if (!ld->reset && r == 1 && ld->model && ld->staged > 0 &&
	    (strcmp(m, ld->model) != 0 || dim != ld->dim)) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"another load changed the index to model '%s' (%lld dimensions) meanwhile: "
			"nothing loaded", m, dim);
		free(m);
		return -1;
	}
	free(m);
	if (gen != ld->generation) {
		if (ev_store_meta_get(st, "vindex.store_id", &id, err) == -1)
			return -1;
		free(ld->store_id);
		ld->store_id = id;
		ld->generation = gen;
	}
	return 0;
}

/* Drop the stored vectors the index must lose: all of them with reset;
 * stale ones (chunk gone, tombstoned, or changed), their rowids into *rem
 * (the tombstones are consumed); then the rowids of stored vectors the
 * batch replaces or removes (an all-zero vector) join *rem too, and those
 * it removes are dropped.  Counts into stats.  Returns 0, or -1 with *err
 * set. */
static int
drop_stale(struct ev_vload *ld, struct ev_vfile_ids *rem, struct ev_vload_stats *stats,
	struct ev_err *err)
{
	struct ev_store *st = ld->st;
	sqlite3_stmt *s;
	size_t n0;

	if (ld->reset && ev_store_exec(st, "DELETE FROM vec_vectors", err) == -1)
		return -1;
	if ((s = ev_store_prepare(st, "SELECT v.rowid FROM vec_vectors v"
		" LEFT JOIN chunks c ON c.rowid = v.rowid"
		" WHERE c.rowid IS NULL OR c.content_hash IS NOT v.content_hash"
		" OR v.rowid IN (SELECT rowid FROM chunk_tombstones)", err)) == NULL ||
	    ev_vfile_ids_collect(st, s, rem, "finding stale vectors", err) == -1)
		return -1;
	stats->removed = (long long)rem->n;
	if ((s = ev_store_prepare(st, "DELETE FROM vec_vectors WHERE rowid = ?", err)) == NULL)
		return -1;
	for (size_t i = 0; i < rem->n; i++) {
		sqlite3_bind_int64(s, 1, rem->v[i]);
		int rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return ev_store_error(st, "removing stale vectors", err);
	}
	if (ev_store_exec(st, "DELETE FROM chunk_tombstones", err) == -1)
		return -1;
	/* Staged vectors that replace stored ones leave the index too. */
	n0 = rem->n;
	if ((s = ev_store_prepare(st, "SELECT rowid FROM temp.vec_batch"
		" WHERE vector IS NOT NULL AND rowid IN (SELECT rowid FROM vec_vectors)", err)) == NULL ||
	    ev_vfile_ids_collect(st, s, rem, "finding replaced vectors", err) == -1)
		return -1;
	stats->replaced = (long long)(rem->n - n0);
	n0 = rem->n;
	if ((s = ev_store_prepare(st, "SELECT rowid FROM temp.vec_batch"
		" WHERE vector IS NULL AND rowid IN (SELECT rowid FROM vec_vectors)", err)) == NULL ||
	    ev_vfile_ids_collect(st, s, rem, "finding replaced vectors", err) == -1)
		return -1;
	stats->removed += (long long)(rem->n - n0);
	return ev_store_exec(st, "DELETE FROM vec_vectors WHERE rowid IN"
		" (SELECT rowid FROM temp.vec_batch WHERE vector IS NULL)", err) == -1 ? -1 : 0;
}

/* The first column(s) of the one row of sql into a (and b when not NULL).
 * Returns 0, or -1 with *err set. */
static int
count_row(struct ev_store *st, const char *sql, long long *a, long long *b, struct ev_err *err)
{
	sqlite3_stmt *s;

	if ((s = ev_store_prepare(st, sql, err)) == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_ROW) {
		ev_store_error(st, "counting vectors", err);
		sqlite3_reset(s);
		return -1;
	}
	*a = sqlite3_column_int64(s, 0);
	if (b != NULL)
		*b = sqlite3_column_int64(s, 1);
	sqlite3_reset(s);
	return 0;
}

/* Store the staged vectors (of the batch's model), and count what the
 * batch added and what it had all zero into stats, and the stored vectors
 * into *count.  Returns 0, or -1 with *err set. */
static int
store_batch(struct ev_vload *ld, struct ev_vload_stats *stats, long long *count,
	struct ev_err *err)
{
	struct ev_store *st = ld->st;
	sqlite3_stmt *s;
	long long staged, nonzero;

	if ((s = ev_store_prepare(st, "INSERT OR REPLACE INTO vec_vectors(rowid, model, content_hash,"
		" vector) SELECT rowid, ?, content_hash, vector FROM temp.vec_batch"
		" WHERE vector IS NOT NULL", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, ld->model ? ld->model : "", -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		sqlite3_reset(s);
		return ev_store_error(st, "storing vectors", err);
	}
	sqlite3_reset(s);
	if (count_row(st, "SELECT count(*), count(vector) FROM temp.vec_batch", &staged, &nonzero,
	    err) == -1)
		return -1;
	stats->added = nonzero - stats->replaced;
	stats->zero = staged - nonzero;
	return count_row(st, "SELECT count(*) FROM vec_vectors", count, NULL, err);
}

/* A batch that staged nothing while its model was unknown (--reset; the
 * index's model stale since a retraining) takes the model and dimension of
 * the index the store records, so that the vectors the load dropped leave
 * the index too.  Returns 1 when the store records an index (ld->model and
 * ld->dim then set), 0 when not, or -1 with *err set. */
static int
recorded_model(struct ev_vload *ld, struct ev_err *err)
{
	char *m = NULL;
	long long dim = 0;
	int r;

	if ((r = ev_store_meta_get(ld->st, "vindex.model", &m, err)) != 1 ||
	    ev_vfile_meta_ll(ld->st, "vindex.dim", &dim, err) == -1 || dim < 1) {
		free(m);
		return r == -1 || err->code ? -1 : 0;
	}
	free(ld->model);
	ld->model = m;
	ld->dim = dim;
	return 1;
}

/* Give the store its random index id (meta vindex.store_id) when it has
 * none yet.  Returns 0, or -1 with *err set. */
static int
make_store_id(struct ev_vload *ld, struct ev_err *err)
{
	char id[33];
	unsigned char raw[16];
	FILE *r;

	if (ld->store_id != NULL)
		return 0;
	if ((r = fopen("/dev/urandom", "rb")) == NULL || fread(raw, 1, sizeof raw, r) != sizeof raw) {
		if (r)
			fclose(r);
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read /dev/urandom: %s",
			strerror(errno));
	}
	fclose(r);
	ev_hex_lower(raw, sizeof raw, id);
	if (ev_store_meta_set(ld->st, "vindex.store_id", id, err) == -1)
		return -1;
	if ((ld->store_id = strdup(id)) == NULL)
		return ev_err_nomem(err);
	return 0;
}

/* Record in the store's meta the index written to tmp with header h: its
 * size, generation, model, dimension, count, factory and metric, and
 * whether its vectors are of the store's own embedding model (they go
 * stale when it is retrained; vectors of an outside model do not).
 * Returns 0, or -1 with *err set. */
static int
record_index(struct ev_vload *ld, const struct ev_vfile_header *h, const char *tmp,
	struct ev_err *err)
{
	struct ev_store *st = ld->st;
	struct stat sb;
	char *sm = NULL;
	int linked;

	if (stat(tmp, &sb) == -1)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read '%s': %s", tmp,
			strerror(errno));
	if (ev_vfile_meta_set_ll(st, "vindex.bytes", (long long)sb.st_size, err) == -1 ||
	    ev_vfile_txn_lost(st, err))
		return -1;
	if (ev_vfile_meta_set_ll(st, "vindex.generation", h->generation, err) == -1 ||
	    ev_store_meta_set(st, "vindex.model", h->model, err) == -1 ||
	    ev_vfile_meta_set_ll(st, "vindex.dim", h->dim, err) == -1 ||
	    ev_vfile_meta_set_ll(st, "vindex.count", h->count, err) == -1 ||
	    ev_store_meta_set(st, "vindex.factory", h->factory, err) == -1 ||
	    ev_store_meta_set(st, "vindex.metric", "inner_product", err) == -1)
		return -1;
	if (ev_vfile_store_model(st, &sm, err) == -1)
		return -1;
	/* stale vectors the load kept are still those of the store's model
	 * before its retraining */
	linked = (sm != NULL && strcmp(sm, h->model) == 0) ||
		(ld->stale_model != NULL && strcmp(ld->stale_model, h->model) == 0);
	free(sm);
	return ev_store_meta_set(st, "vindex.embed_linked", linked ? "1" : "0", err);
}

int
ev_vload_commit(struct ev_vload *ld, struct ev_vload_stats *stats, struct ev_err *err)
{
	struct ev_store *st = ld->st;
	struct ev_vfile_ids rem = { 0 };
	FaissIndex *idx = NULL;
	struct ev_vfile_header h = { 0 };
	char *tmp = NULL;
	const char *factory;
	char deffactory[64];
	long long count = 0;
	int in_txn = 0, ret = -1, r;

	memset(stats, 0, sizeof *stats);
	ev_err_clear(err);
	if (ev_vfile_claimable(st, ld->path, ld->store_id, err) == -1)	/* replaced since? */
		return -1;
	if (ld->stale_model && ld->staged > 0) {
		/* Vectors of the retrained model replace every stale one. */
		ld->reset = 1;
		snprintf(stats->replaced_model, sizeof stats->replaced_model, "%s", ld->stale_model);
	}
	if (ev_store_begin(st, err) == -1)
		return -1;
	in_txn = 1;
	/* (its tables made here, in the transaction, so that a load that
	 * fails leaves the store exactly as it was) */
	if (ev_store_exec(st, schema_sql, err) == -1 || catch_up(ld, err) == -1 ||
	    drop_stale(ld, &rem, stats, err) == -1 ||
	    store_batch(ld, stats, &count, err) == -1)
		goto out;
	if ((ld->model == NULL || ld->dim == 0) && (r = recorded_model(ld, err)) != 1) {
		/* Nothing ever loaded and nothing staged: there is no index to
		 * write, but the tombstones are consumed all the same. */
		if (r == 0)
			ret = finish_quietly(st, &in_txn, err);
		goto out;
	}
	ev_vload_default_factory(count, deffactory, sizeof deffactory);
	factory = ld->factory_opt ? ld->factory_opt : ld->factory ? ld->factory : deffactory;
	if ((ld->factory_used = strdup(factory)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	if (rem.n == 0 && ld->staged == 0 && !ld->reset && index_current(ld, factory)) {
		/* Nothing changed and the index is up to date: leave it alone
		 * (the tombstones, which named no vector, are consumed). */
		stats->total = count;
		snprintf(stats->factory, sizeof stats->factory, "%s", factory);
		ret = finish_quietly(st, &in_txn, err);
		goto out;
	}
	if (ev_vfaiss_factory_fits(factory, count, err) == -1 || make_store_id(ld, err) == -1)
		goto out;
	idx = update(ld, factory, &rem, err);
	if (idx == NULL && err->code)
		goto out;
	if (idx == NULL) {
		if ((idx = rebuild(ld, factory, err)) == NULL)
			goto out;
		stats->rebuilt = 1;
	}
	if (faiss_Index_ntotal(idx) != count) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index holds %lld vectors but the store %lld", (long long)faiss_Index_ntotal(idx),
			count);
		goto out;
	}
	if (set_nprobe(idx, factory, err) == -1)
		goto out;
	h.store_id = ld->store_id;
	h.generation = ld->generation + 1;
	h.dim = ld->dim;
	h.count = count;
	h.model = ld->model;
	h.factory = (char *)factory;
	if ((tmp = ev_vfaiss_write_tmp(ld->path, &h, idx, err)) == NULL ||
	    record_index(ld, &h, tmp, err) == -1 ||
	    ev_vfile_txn_lost(st, err) || ev_store_commit(st, err) == -1)
		goto out;
	in_txn = 0;
	if (rename(tmp, ld->path) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"store updated but cannot rename '%s' to '%s': %s (run ev-embed-load again to "
			"rebuild the index)", tmp, ld->path, strerror(errno));
		goto out;
	}
	ev_vfile_sync_dir(ld->path);
	stats->total = count;
	snprintf(stats->factory, sizeof stats->factory, "%s", ld->factory_used);
	ret = 0;
out:
	if (in_txn)
		ev_store_rollback(st);
	if (tmp) {
		if (ret == -1)
			unlink(tmp);
		free(tmp);
	}
	if (idx)
		faiss_Index_free(idx);
	free(rem.v);
	ev_store_exec(st, "DELETE FROM temp.vec_batch", NULL);
	return ret;
}

void
ev_vload_free(struct ev_vload *ld)
{
	if (ld == NULL)
		return;
	free(ld->path);
	free(ld->factory_opt);
	free(ld->store_id);
	free(ld->model);
	free(ld->factory);
	free(ld->unit);
	free(ld->factory_used);
	free(ld->stale_model);
	free(ld->store_model);
	free(ld);
}
