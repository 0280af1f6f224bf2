/* vstored.c: an index's vectors read from the store.  See vstored.h. */
#include "vstored.h"

#include <stdlib.h>
#include <string.h>

struct ev_vstored {
	struct ev_store *st;
	struct ev_vfile_header h;
	int in_batch;
};

int
ev_vstored_damaged(struct ev_store *st, const char *path, struct ev_err *err)
{
	char what[sizeof err->msg];

	/* evkit's own file, damaged (a disk fault, a truncated copy): a
	 * failure of the system, not of usage; the store can rebuild it */
	snprintf(what, sizeof what, "%s", err->msg);
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "%s; rebuild it from the stored vectors with "
		"ev-embed-load --db %s --index %s < /dev/null", what, ev_store_path(st), path);
}

/* Whether the header of sv, read from path, is that of the index st loaded
 * last (store_id, load gen) and of the store's own model when its vectors
 * are linked to its embedder.  Returns 0, or -1 with *err set. */
static int
check_header(struct ev_vstored *sv, const char *path, const char *store_id, long long gen,
	struct ev_err *err)
{
	struct ev_store *st = sv->st;
	char *smodel = NULL, *linked = NULL;
	int r;

	if (strcmp(sv->h.store_id, store_id) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
			"index '%s' belongs to another store than '%s'; give the index that "
			"ev-embed-load --db %s built", path, ev_store_path(st), ev_store_path(st));
	if (sv->h.generation != gen)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is out of date with store '%s' (load %lld, the store is at load %lld): "
			"run ev-embed-load --db %s --index %s < /dev/null to rebuild it", path,
			ev_store_path(st), sv->h.generation, gen, ev_store_path(st), path);
	if ((r = ev_store_meta_get(st, "vindex.embed_linked", &linked, err)) == -1)
		return -1;
	if (r == 1 && strcmp(linked, "1") == 0 && ev_vfile_store_model(st, &smodel, err) == -1)
		r = -1;
	else if (smodel != NULL && strcmp(smodel, sv->h.model) != 0)
		r = ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"stale index '%s': it holds vectors of model '%s' but the store's model is now "
			"'%s' (retrained); run 'ev-embed --db %s --pending | ev-embed-load --db %s "
			"--index %s'", path, sv->h.model, smodel, ev_store_path(st), ev_store_path(st),
			path);
	else
		r = 0;
	free(smodel);
	free(linked);
	return r;
}

/* The index file at path, checked against what st recorded of its last
 * load (store_id, gen, its size), open at Faiss's bytes in *f with its
 * header in sv->h.  Returns 0, or -1 with *err set. */
static int
open_file(struct ev_vstored *sv, const char *path, const char *store_id, long long gen, FILE **f,
	struct ev_err *err)
{
	struct ev_store *st = sv->st;
	long long bytes;
	int r;

	if (ev_vfile_not_dir(path, "vector index", err) == -1 ||
	    ev_vfile_meta_ll(st, "vindex.bytes", &bytes, err) == -1)
		return -1;
	if ((r = ev_vfile_size_check(path, store_id, gen, bytes, err)) == -2 ||
	    (r = ev_vfile_open_index(path, &sv->h, f, err)) == -2)
		return ev_vstored_damaged(st, path, err);
	if (r == 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"no index '%s': run ev-embed-load --db %s --index %s < /dev/null to build it "
			"from the stored vectors", path, ev_store_path(st), path);
	return r == 1 ? 0 : -1;
}

struct ev_vstored *
ev_vstored_open(struct ev_store *st, const char *path, FILE **f, struct ev_err *err)
{
	struct ev_vstored *sv = calloc(1, sizeof *sv);
	char *store_id = NULL;
	FILE *file = NULL;
	long long gen;
	int r;

	if (f != NULL)
		*f = NULL;
	if (sv == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	sv->st = st;
	if ((r = ev_store_meta_get(st, "vindex.store_id", &store_id, err)) == -1 ||
	    ev_vfile_meta_ll(st, "vindex.generation", &gen, err) == -1)
		goto fail;
	if (r == 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"store '%s' has no vectors: run ev-embed-load --db %s --index %s",
			ev_store_path(st), ev_store_path(st), path);
		goto fail;
	}
	if (open_file(sv, path, store_id, gen, &file, err) == -1 ||
	    check_header(sv, path, store_id, gen, err) == -1)
		goto fail;
	/* Hits read their chunks at random: map the store rather than read it. */
	ev_store_exec(st, "PRAGMA mmap_size = 1073741824", NULL);
	free(store_id);
	if (f != NULL)
		*f = file;
	else
		fclose(file);
	return sv;
fail:
	if (file != NULL)
		fclose(file);
	free(store_id);
	ev_vstored_close(sv);
	return NULL;
}

void
ev_vstored_close(struct ev_vstored *sv)
{
	if (sv == NULL)
		return;
	ev_vstored_batch_end(sv);
	ev_vfile_header_release(&sv->h);
	free(sv);
}

const struct ev_vfile_header *
ev_vstored_header(const struct ev_vstored *sv)
{
	return &sv->h;
}

int
ev_vstored_batch_begin(struct ev_vstored *sv, struct ev_err *err)
{
	if (sv->in_batch)
		return 0;
	if (ev_store_exec(sv->st, "BEGIN", err) == -1)
		return -1;
	sv->in_batch = 1;
	return 0;
}

void
ev_vstored_batch_end(struct ev_vstored *sv)
{
	if (sv == NULL || !sv->in_batch)
		return;
	if (ev_store_exec(sv->st, "COMMIT", NULL) == -1)
		ev_store_rollback(sv->st);
	sv->in_batch = 0;
}

int
ev_vstored_chunk_vector(struct ev_vstored *sv, const char *chunk_id, float *out,
	struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc, dim = (int)sv->h.dim;

	if ((s = ev_store_prepare(sv->st, "SELECT v.vector FROM chunks c JOIN vec_vectors v"
	    " ON v.rowid = c.rowid WHERE c.id = ? AND v.model = ?", err)) == NULL)
		return -1;
	/* (a bind that fails, out of memory, would find no row: not "no vector") */
	if (sqlite3_bind_text(s, 1, chunk_id, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_text(s, 2, sv->h.model, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_reset(s);
		return ev_store_error(sv->st, "reading a chunk's vector", err);
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_bytes(s, 0) == dim * (int)sizeof(float)) {
		memcpy(out, sqlite3_column_blob(s, 0), (size_t)dim * sizeof(float));
		sqlite3_reset(s);
		return 1;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ev_store_error(sv->st, "reading a chunk's vector", err);
	return 0;
}
