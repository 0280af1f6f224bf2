/* vindex.c: the vector index (see vindex.h for the contract and layout). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/impl/AuxIndexStructures_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/utils/distances_c.h>
#include <faiss/c_api/index_io_c.h>

#include "buf.h"
#include "faiss_prefetch.h"
#include "faiss_scan.h"
#include "jscan.h"
#include "jsonl.h"
#include "vindex.h"

#define MAGIC "evkit-vindex 1\n"
#define HEADER_MAX 65536
#define EXACT_MAX 8192		/* filtered sets up to this size are scored exactly */
#define ADD_BATCH 16384		/* vectors handed to Faiss at a time */

/* The store's current embedding model, as ev-embed records it in meta. */
static const char *const store_model_keys[] = { "embed.model", NULL };

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS vec_vectors(rowid INTEGER PRIMARY KEY,"
	" model TEXT NOT NULL, content_hash TEXT, vector BLOB NOT NULL);"
	"CREATE TABLE IF NOT EXISTS chunk_tombstones(rowid INTEGER PRIMARY KEY);";

/* ---- Small helpers ------------------------------------------------------ */

const char *
ev_vindex_faiss_error(void)
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

/* Whether Faiss's last error was memory running out (std::bad_alloc). */
static int
faiss_oom(void)
{
	return strcmp(ev_vindex_faiss_error(), "out of memory") == 0;
}

static int
faiss_fail(struct ev_err *err, const char *where, const char *what)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, where, "%s: %s", what, ev_vindex_faiss_error());
}

static int
db_fail(struct ev_store *st, const char *what, struct ev_err *err)
{
	return ev_store_error(st, what, err);
}

/* meta as an integer (0 when absent). */
static int
meta_ll(struct ev_store *st, const char *key, long long *out, struct ev_err *err)
{
	char *v = NULL;
	int r = ev_store_meta_get(st, key, &v, err);

	*out = 0;
	if (r == 1)
		*out = strtoll(v, NULL, 10);
	free(v);
	return r == -1 ? -1 : 0;
}

static int
meta_set_ll(struct ev_store *st, const char *key, long long v, struct ev_err *err)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%lld", v);
	return ev_store_meta_set(st, key, buf, err);
}

/* The store's own embedding model id in *out (malloc'd), NULL when
 * ev-embed recorded none.  Returns 0, or -1 with *err set (a failed read is not "none"). */
static int
store_model(struct ev_store *st, char **out, struct ev_err *err)
{
	char *v = NULL;
	int r;

	*out = NULL;
	for (int i = 0; store_model_keys[i]; i++) {
		if ((r = ev_store_meta_get(st, store_model_keys[i], &v, err)) == -1)
			return -1;
		if (r == 1) {
			*out = v;
			return 0;
		}
		free(v);
		v = NULL;
	}
	return 0;
}

/* Whether SQLite has rolled back the load's transaction by itself (as it may
 * after running out of memory or on an I/O error, with the failing statement
 * reported but any later one then running in autocommit mode): a load must
 * then write nothing more.  Returns 1 with *err set, or 0. */
static int
txn_lost(struct ev_store *st, struct ev_err *err)
{
	if (!sqlite3_get_autocommit(ev_store_db(st)))
		return 0;
	ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		"the store's transaction was rolled back (out of memory or an I/O error): "
		"nothing loaded");
	return 1;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* A growable array of int64. */
struct ids {
	int64_t *v;
	size_t n, cap;
};

static int
ids_push(struct ids *a, int64_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		int64_t *v = realloc(a->v, cap * sizeof *v);
		if (v == NULL)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

/* Collect the first column of every row of stmt (already bound). */
static int
ids_collect(struct ev_store *st, sqlite3_stmt *stmt, struct ids *a, const char *what,
	struct ev_err *err)
{
	int rc;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		if (ids_push(a, sqlite3_column_int64(stmt, 0)) == -1) {
			sqlite3_reset(stmt);
			return ev_err_nomem(err);
		}
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE)
		return db_fail(st, what, err);
	return 0;
}

/* ---- The index file ------------------------------------------------------- */

struct header {
	char *store_id;
	long long generation;
	long long dim;
	long long count;
	char *model;
	char *factory;
};

static void
header_release(struct header *h)
{
	free(h->store_id);
	free(h->model);
	free(h->factory);
	memset(h, 0, sizeof *h);
}

static char *
xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Read the header of an open index file; leaves f at Faiss's bytes.  Returns
 * 0, -2 with *err set (code 1) when the header is damaged, or -1 with *err
 * set (code 2: not an evkit index; code 1: out of memory). */
static int
header_read(FILE *f, const char *path, struct header *h, struct ev_err *err)
{
	char magic[sizeof MAGIC];
	struct ev_buf b = EV_BUF_INIT;
	json_t *o = NULL;
	int c, rc = -1;

	memset(h, 0, sizeof *h);
	if (fread(magic, 1, sizeof MAGIC - 1, f) != sizeof MAGIC - 1 ||
	    memcmp(magic, MAGIC, sizeof MAGIC - 1) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
			"'%s' is not an evkit vector index (made by ev-embed-load)", path);
	while ((c = getc(f)) != EOF && c != '\n') {
		if (b.len >= HEADER_MAX)
			break;
		if (ev_buf_addc(&b, c) == -1) {
			ev_err_nomem(err);
			goto out;
		}
	}
	if (c == '\n') {
		/* ev_json_parse_line() tells an allocation failure (code 1)
		 * from a damaged header. */
		struct ev_err pe = { 0 };
		if ((o = ev_json_parse_line(ev_buf_str(&b), b.len, path, &pe)) == NULL &&
		    pe.code != EV_EXIT_USAGE) {
			ev_err_nomem(err);
			goto out;
		}
	}
	if (c != '\n' || o == NULL || !json_is_object(o) ||
	    !json_is_string(json_object_get(o, "store_id")) ||
	    !json_is_integer(json_object_get(o, "generation")) ||
	    !json_is_integer(json_object_get(o, "dim")) ||
	    !json_is_integer(json_object_get(o, "count")) ||
	    !json_is_string(json_object_get(o, "model")) ||
	    !json_is_string(json_object_get(o, "factory"))) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "index '%s' is damaged (its header)", path);
		rc = -2;
		goto out;
	}
	h->store_id = xstrdup(json_string_value(json_object_get(o, "store_id")));
	h->generation = json_integer_value(json_object_get(o, "generation"));
	h->dim = json_integer_value(json_object_get(o, "dim"));
	h->count = json_integer_value(json_object_get(o, "count"));
	h->model = xstrdup(json_string_value(json_object_get(o, "model")));
	h->factory = xstrdup(json_string_value(json_object_get(o, "factory")));
	if (!h->store_id || !h->model || !h->factory) {
		header_release(h);
		ev_err_nomem(err);
		goto out;
	}
	rc = 0;
out:
	json_decref(o);
	ev_buf_release(&b);
	return rc;
}

/* Whether the index file at path, when its header says it is the one the
 * store loaded last (store_id and generation), has the size the store
 * recorded (vindex.bytes; 0 when none was).  Returns 0 when it has, or the
 * file is not that index (index_read() says what it is); -2 with *err set
 * (code 1) when it is that index cut short or grown: Faiss's reader would
 * throw partway, and leaks what it had read when it does. */
static int
index_size_check(const char *path, const char *store_id, long long gen, long long bytes,
	struct ev_err *err)
{
	struct header h = { 0 };
	struct stat sb;
	FILE *f;
	int r = 0;

	if (bytes <= 0 || stat(path, &sb) == -1 || (long long)sb.st_size == bytes ||
	    (f = fopen(path, "rb")) == NULL)
		return 0;
	if (header_read(f, path, &h, err) == 0 && strcmp(h.store_id, store_id) == 0 &&
	    h.generation == gen) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "index '%s' is damaged: it has %lld bytes, "
		    "the store recorded %lld when it was written", path, (long long)sb.st_size, bytes);
		r = -2;
	} else {
		memset(err, 0, sizeof *err);	/* not that index: index_read() says */
	}
	header_release(&h);
	fclose(f);
	return r;
}

/* Read the index file at path: header and Faiss index, read with Faiss's
 * io_flags (FAISS_IO_FLAG_MMAP: an IVF index's inverted lists are mapped
 * from the file, not read, and the index is read-only; a search then reads
 * them ahead with ev_faiss_prefetch_default() threads, faiss_prefetch.h).
 * Returns 1 with *out set, 0 when the file does not exist, -2 with *err set
 * (code 1) when it is an evkit index but damaged, -1 with *err set
 * otherwise. */
static int
index_read(const char *path, int io_flags, struct header *h, FaissIndex **out,
	struct ev_err *err)
{
	struct stat sb;
	FILE *f;
	int r;

	*out = NULL;
	if ((f = fopen(path, "rb")) == NULL) {
		if (errno == ENOENT)
			return 0;
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open index '%s': %s", path,
			strerror(errno));
	}
	if ((r = header_read(f, path, h, err)) < 0) {
		fclose(f);
		return r;
	}
	if (faiss_read_index(f, io_flags, out) != 0) {
		int ferr = ferror(f);
		fclose(f);
		header_release(h);
		*out = NULL;
		if (faiss_oom())
			return ev_err_nomem(err);
		if (ferr) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read index '%s': %s", path,
				ev_vindex_faiss_error());
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
		header_release(h);
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is damaged (its Faiss data is cut short or corrupt)", path);
		return -2;
	}
	fclose(f);
	if (faiss_Index_d(*out) != h->dim || faiss_Index_ntotal(*out) != h->count) {
		faiss_Index_free(*out);
		*out = NULL;
		header_release(h);
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is damaged: its header does not match its contents", path);
		return -2;
	}
	if (io_flags & FAISS_IO_FLAG_MMAP)
		ev_faiss_prefetch_threads(*out, ev_faiss_prefetch_default());
	return 1;
}

/* A directory named as the index file: bad usage.  Returns 0, or -1 with
 * *err set (code 2). */
static int
index_not_dir(const char *path, struct ev_err *err)
{
	struct stat sb;

	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return ev_err_set(err, EV_EXIT_USAGE, path,
			"is a directory, not an evkit vector index; --index takes a file");
	return 0;
}

/* Whether the file at path may be (re)written as the index of the store
 * st, whose index id is store_id (NULL before its first load): it is
 * missing, empty, or an evkit index of this store (however stale), or one
 * whose header is damaged.  Anything else -- a user's file, a directory, the
 * index of another store -- must not be replaced.  Returns 0, or -1 with
 * *err set (code 2: a wrong file; code 1: it cannot be read). */
static int
index_claimable(struct ev_store *st, const char *path, const char *store_id, struct ev_err *err)
{
	char magic[sizeof MAGIC];
	struct header h;
	struct ev_err he = { 0 };
	size_t n;
	FILE *f;
	int other;

	if (index_not_dir(path, err) == -1)
		return -1;
	if ((f = fopen(path, "rb")) == NULL) {
		if (errno == ENOENT)
			return 0;
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open index '%s': %s", path,
			strerror(errno));
	}
	errno = 0;
	n = fread(magic, 1, sizeof MAGIC - 1, f);
	if (ferror(f)) {
		int e = errno ? errno : EIO;
		fclose(f);
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read index '%s': %s", path,
			strerror(e));
	}
	if (n == 0) {
		fclose(f);
		return 0;
	}
	if (n != sizeof MAGIC - 1 || memcmp(magic, MAGIC, n) != 0) {
		fclose(f);
		return ev_err_set(err, EV_EXIT_USAGE, path,
			"not an evkit vector index; give a new file name or remove it");
	}
	rewind(f);
	if (header_read(f, path, &h, &he) < 0) {
		fclose(f);
		return 0;	/* ours, damaged: rewritten */
	}
	fclose(f);
	other = store_id == NULL || strcmp(h.store_id, store_id) != 0;
	header_release(&h);
	if (other)
		return ev_err_set(err, EV_EXIT_USAGE, path,
			"the vector index of another store than '%s'; give another --index file, "
			"or remove this one to build the index of '%s' there", ev_store_path(st),
			ev_store_path(st));
	return 0;
}

/* Write header and index to a new temporary file beside path, synced.
 * Returns the temporary name (malloc'd), or NULL with *err set. */
static char *
index_write_tmp(const char *path, const struct header *h, const FaissIndex *idx,
	struct ev_err *err)
{
	json_t *o;
	char *tmp = NULL, *hdr = NULL;
	FILE *f = NULL;
	size_t n = strlen(path) + 32;

	o = json_pack("{s:s,s:I,s:I,s:I,s:s,s:s,s:s}", "store_id", h->store_id,
		"generation", (json_int_t)h->generation, "dim", (json_int_t)h->dim,
		"count", (json_int_t)h->count, "model", h->model, "factory", h->factory,
		"metric", "inner_product");
	if (o == NULL || (hdr = json_dumps(o, JSON_COMPACT)) == NULL || (tmp = malloc(n)) == NULL) {
		json_decref(o);
		free(hdr);
		ev_err_nomem(err);
		return NULL;
	}
	json_decref(o);
	snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
	if ((f = fopen(tmp, "wb")) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create '%s': %s", tmp, strerror(errno));
		goto fail;
	}
	if (fputs(MAGIC, f) == EOF || fputs(hdr, f) == EOF || putc('\n', f) == EOF) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp, strerror(errno));
		goto fail;
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
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp, ev_vindex_faiss_error());
		goto fail;
	}
	if (fflush(f) == EOF || fsync(fileno(f)) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp, strerror(errno));
		goto fail;
	}
	if (fclose(f) == EOF) {
		f = NULL;
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp, strerror(errno));
		goto fail;
	}
	free(hdr);
	return tmp;
fail:
	if (f)
		fclose(f);
	unlink(tmp);
	free(tmp);
	free(hdr);
	return NULL;
}

void
ev_vindex_sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (copy == NULL)
		return;
	if ((fd = open(dirname(copy), O_RDONLY)) != -1) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

/* ---- Loading ---------------------------------------------------------------- */

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
	    store_model(st, own, err) == -1) {
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
	    index_claimable(st, ld->path, ld->store_id, err) == -1)
		goto fail;
	free(ld->store_id);
	ld->store_id = NULL;
	if (ev_store_exec(st, schema_sql, err) == -1 ||
	    ev_store_exec(st, "CREATE TEMP TABLE IF NOT EXISTS vec_batch(rowid INTEGER PRIMARY KEY,"
		" content_hash TEXT, vector BLOB); DELETE FROM temp.vec_batch;", err) == -1)
		goto fail;
	if (ev_store_meta_get(st, "vindex.store_id", &ld->store_id, err) == -1 ||
	    meta_ll(st, "vindex.generation", &ld->generation, err) == -1 ||
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
			if (meta_ll(st, "vindex.dim", &ld->dim, err) == -1)
				goto fail;
			ld->have_index = 1;
		}
	}
	if (ld->factory_opt && ld->dim) {
		/* Refuse a bad factory before the input is read. */
		FaissIndex *idx;
		if ((idx = rebuild_empty(ld, ld->factory_opt, err)) == NULL)
			goto fail;
		faiss_Index_free(idx);
	}
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
ev_vload_add(struct ev_vload *ld, const char *chunk_id, const char *model, const float *v,
	long long dim, const char *where, struct ev_err *err)
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
	if (dim < 1 || dim > EV_VINDEX_DIM_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"vector has %lld dimensions (1 to %d are accepted)", dim, EV_VINDEX_DIM_MAX);
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
			return db_fail(ld->st, "looking up a chunk", err);
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"unknown chunk '%s' (not in store '%s'; ingest it first)", chunk_id,
			ev_store_path(ld->st));
	}
	rowid = sqlite3_column_int64(q, 0);
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
	if ((ins = ev_store_prepare(ld->st, "INSERT OR REPLACE INTO temp.vec_batch"
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
	if (rc != SQLITE_OK)
		db_fail(ld->st, "staging a vector", err);	/* (before the resets clear it) */
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
	return rc != 0 ? faiss_fail(err, NULL, "training the index") : 0;
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
			db_fail(ld->st, "reading stored vectors", err);
			goto out;
		}
		if (n > 0) {
			if (train && !faiss_Index_is_trained(idx) &&
			    train_on(idx, x, n, dim, train_max, err) == -1)
				goto out;
			if (faiss_Index_add_with_ids(idx, (idx_t)n, x, (const idx_t *)xid) != 0) {
				faiss_fail(err, NULL, "adding vectors to the index");
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
ev_vindex_default_factory(long long count, char *buf, size_t size)
{
	long long nlist = 1;

	if (count <= EV_VINDEX_FLAT_MAX) {
		snprintf(buf, size, "%s", EV_VINDEX_FACTORY_SMALL);
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

/* An IVF index visits EV_VINDEX_NPROBE of its lists, or all when it has
 * fewer (Faiss's own default, 1, finds a tenth of the nearest neighbours):
 * the nprobe written into the file, which ev-search-vec --nprobe overrides.
 * Returns 0, or -1 with *err set. */
static int
set_nprobe(FaissIndex *idx, const char *factory, struct ev_err *err)
{
	FaissParameterSpace *ps = NULL;
	long nlist = factory_nlist(factory);

	if (nlist == 0)
		return 0;
	if (faiss_ParameterSpace_new(&ps) != 0)
		return faiss_fail(err, NULL, "setting the index's nprobe");
	/* An index Faiss cannot reach the lists of (one wrapped in a kind
	 * ParameterSpace does not know) keeps its own nprobe. */
	(void)faiss_ParameterSpace_set_index_parameter(ps, idx, "nprobe",
	    (double)(nlist < EV_VINDEX_NPROBE ? nlist : EV_VINDEX_NPROBE));
	faiss_ParameterSpace_free(ps);
	return 0;
}

/* A new, empty index of the chosen factory. */
static FaissIndex *
rebuild_empty(struct ev_vload *ld, const char *factory, struct ev_err *err)
{
	FaissIndex *idx = NULL;

	return ev_vindex_faiss_new((int)ld->dim, factory, &idx, err) == 0 ? idx : NULL;
}

int
ev_vindex_faiss_new(int dim, const char *factory, struct FaissIndex_H **out, struct ev_err *err)
{
	FaissIndex *idx = NULL;
	char eff[300];

	/* Faiss ids are chunk rowids: indexes without ids of their own (Flat,
	 * HNSW, PQ, ...) are wrapped in an IDMap; IVF indexes keep ids. */
	if (strncmp(factory, "IDMap", 5) == 0 || strstr(factory, "IVF") != NULL)
		snprintf(eff, sizeof eff, "%s", factory);
	else
		snprintf(eff, sizeof eff, "IDMap,%s", factory);
	*out = NULL;
	if (faiss_index_factory(&idx, dim, eff, METRIC_INNER_PRODUCT) != 0) {
		if (faiss_oom())
			return ev_err_nomem(err);
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "bad --factory '%s': %s", factory,
			ev_vindex_faiss_error());
	}
	*out = idx;
	return 0;
}

/* A new index of the chosen factory holding every stored vector; an
 * inverted file of exact vectors ("IVF<nlist>,Flat") is trained on
 * EV_VINDEX_TRAIN_PER_LIST of them a list, other kinds on all. */
static FaissIndex *
rebuild(struct ev_vload *ld, const char *factory, struct ev_err *err)
{
	size_t train_max = strstr(factory, ",Flat") != NULL ?
	    (size_t)factory_nlist(factory) * EV_VINDEX_TRAIN_PER_LIST : 0;
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
	struct header h;
	struct ev_err e;
	struct stat sb;
	long long bytes;
	FILE *f;
	int ok;

	if (meta_ll(ld->st, "vindex.bytes", &bytes, &e) == -1 || stat(ld->path, &sb) == -1 ||
	    (long long)sb.st_size != bytes)
		return 0;
	if (ld->store_id == NULL || (f = fopen(ld->path, "rb")) == NULL)
		return 0;
	if (header_read(f, ld->path, &h, &e) < 0) {
		fclose(f);
		return 0;
	}
	fclose(f);
	ok = strcmp(h.store_id, ld->store_id) == 0 && h.generation == ld->generation &&
		strcmp(h.factory, factory) == 0;
	header_release(&h);
	return ok;
}

/* Try to bring the existing index file up to date in place: remove ids
 * rem[0..n), add the staged vectors.  Returns the index, or NULL when it must
 * be rebuilt instead (*err untouched) or on error (*err set: err->code). */
static FaissIndex *
update(struct ev_vload *ld, const char *factory, const struct ids *rem, struct ev_err *err)
{
	struct header h;
	FaissIndex *idx = NULL;
	struct ev_err e;
	long long added;
	size_t nrem = 0;

	if (ld->reset || ld->store_id == NULL)
		return NULL;
	if (index_read(ld->path, 0, &h, &idx, &e) != 1)
		return NULL;	/* missing or unreadable: rebuilt from the store */
	if (strcmp(h.store_id, ld->store_id) != 0 || h.generation != ld->generation ||
	    h.dim != ld->dim || strcmp(h.factory, factory) != 0 || strcmp(h.model, ld->model) != 0)
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
		header_release(&h);
		return NULL;
	}
	header_release(&h);
	return idx;
rebuild:
	faiss_Index_free(idx);
	header_release(&h);
	return NULL;
}

/* Commit a load that writes no index file (it only consumed tombstones).
 * Returns 0, or -1 with *err set. */
static int
finish_quietly(struct ev_store *st, int *in_txn, struct ev_err *err)
{
	if (txn_lost(st, err) || ev_store_commit(st, err) == -1)
		return -1;
	*in_txn = 0;
	return 0;
}

int
ev_vload_commit(struct ev_vload *ld, struct ev_vload_stats *stats, struct ev_err *err)
{
	struct ev_store *st = ld->st;
	struct ids rem = { 0 };
	sqlite3_stmt *s;
	FaissIndex *idx = NULL;
	struct header h = { 0 };
	char *tmp = NULL;
	const char *factory;
	char deffactory[64];
	long long count = 0;
	int in_txn = 0, ret = -1;

	memset(stats, 0, sizeof *stats);
	ev_err_clear(err);
	if (index_claimable(st, ld->path, ld->store_id, err) == -1)	/* replaced since? */
		return -1;
	if (ld->stale_model && ld->staged > 0) {
		/* Vectors of the retrained model replace every stale one. */
		ld->reset = 1;
		snprintf(stats->replaced_model, sizeof stats->replaced_model, "%s", ld->stale_model);
	}
	if (ev_store_begin(st, err) == -1)
		return -1;
	in_txn = 1;
	{
		/* Another load may have committed since ev_vload_begin(): take
		 * its generation, and refuse if it changed the model or dimension
		 * this batch was checked against. */
		long long gen, dim = 0;
		char *m = NULL;
		int r;
		if (meta_ll(st, "vindex.generation", &gen, err) == -1 ||
		    (r = ev_store_meta_get(st, "vindex.model", &m, err)) == -1 ||
		    meta_ll(st, "vindex.dim", &dim, err) == -1) {
			free(m);
			goto out;
		}
		if (!ld->reset && r == 1 && ld->model && ld->staged > 0 &&
		    (strcmp(m, ld->model) != 0 || dim != ld->dim)) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL,
				"another load changed the index to model '%s' (%lld dimensions) meanwhile: "
				"nothing loaded", m, dim);
			free(m);
			goto out;
		}
		free(m);
		if (gen != ld->generation) {
			char *id = NULL;
			if (ev_store_meta_get(st, "vindex.store_id", &id, err) == -1)
				goto out;
			free(ld->store_id);
			ld->store_id = id;
			ld->generation = gen;
		}
	}
	if (ld->reset && ev_store_exec(st, "DELETE FROM vec_vectors", err) == -1)
		goto out;
	/* Stale vectors: chunk gone, tombstoned, or changed. */
	if ((s = ev_store_prepare(st, "SELECT v.rowid FROM vec_vectors v"
		" LEFT JOIN chunks c ON c.rowid = v.rowid"
		" WHERE c.rowid IS NULL OR c.content_hash IS NOT v.content_hash"
		" OR v.rowid IN (SELECT rowid FROM chunk_tombstones)", err)) == NULL ||
	    ids_collect(st, s, &rem, "finding stale vectors", err) == -1)
		goto out;
	stats->removed = (long long)rem.n;
	if ((s = ev_store_prepare(st, "DELETE FROM vec_vectors WHERE rowid = ?", err)) == NULL)
		goto out;
	for (size_t i = 0; i < rem.n; i++) {
		sqlite3_bind_int64(s, 1, rem.v[i]);
		int rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE) {
			db_fail(st, "removing stale vectors", err);
			goto out;
		}
	}
	if (ev_store_exec(st, "DELETE FROM chunk_tombstones", err) == -1)
		goto out;
	/* Staged vectors that replace stored ones leave the index too. */
	if ((s = ev_store_prepare(st, "SELECT rowid FROM temp.vec_batch"
		" WHERE vector IS NOT NULL AND rowid IN (SELECT rowid FROM vec_vectors)", err)) == NULL)
		goto out;
	{
		size_t n0 = rem.n;
		if (ids_collect(st, s, &rem, "finding replaced vectors", err) == -1)
			goto out;
		stats->replaced = (long long)(rem.n - n0);
		n0 = rem.n;
		if ((s = ev_store_prepare(st, "SELECT rowid FROM temp.vec_batch"
			" WHERE vector IS NULL AND rowid IN (SELECT rowid FROM vec_vectors)", err)) == NULL ||
		    ids_collect(st, s, &rem, "finding replaced vectors", err) == -1)
			goto out;
		stats->removed += (long long)(rem.n - n0);
	}
	if (ev_store_exec(st, "DELETE FROM vec_vectors WHERE rowid IN"
		" (SELECT rowid FROM temp.vec_batch WHERE vector IS NULL)", err) == -1)
		goto out;
	if ((s = ev_store_prepare(st, "INSERT OR REPLACE INTO vec_vectors(rowid, model, content_hash,"
		" vector) SELECT rowid, ?, content_hash, vector FROM temp.vec_batch"
		" WHERE vector IS NOT NULL", err)) == NULL)
		goto out;
	sqlite3_bind_text(s, 1, ld->model ? ld->model : "", -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		sqlite3_reset(s);
		db_fail(st, "storing vectors", err);
		goto out;
	}
	sqlite3_reset(s);
	if ((s = ev_store_prepare(st, "SELECT count(*), count(vector) FROM temp.vec_batch", err)) ==
	    NULL)
		goto out;
	if (sqlite3_step(s) != SQLITE_ROW) {
		db_fail(st, "counting vectors", err);
		sqlite3_reset(s);
		goto out;
	}
	stats->added = sqlite3_column_int64(s, 1) - stats->replaced;
	stats->zero = sqlite3_column_int64(s, 0) - sqlite3_column_int64(s, 1);
	sqlite3_reset(s);
	if ((s = ev_store_prepare(st, "SELECT count(*) FROM vec_vectors", err)) == NULL)
		goto out;
	if (sqlite3_step(s) != SQLITE_ROW) {
		db_fail(st, "counting vectors", err);
		sqlite3_reset(s);
		goto out;
	}
	count = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (ld->model == NULL || ld->dim == 0) {
		/* Nothing ever loaded and nothing staged: there is no index to
		 * write, but the tombstones are consumed all the same. */
		ret = finish_quietly(st, &in_txn, err);
		goto out;
	}
	ev_vindex_default_factory(count, deffactory, sizeof deffactory);
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
	if (ld->store_id == NULL) {
		char id[33];
		FILE *r = fopen("/dev/urandom", "rb");
		unsigned char raw[16];
		if (r == NULL || fread(raw, 1, sizeof raw, r) != sizeof raw) {
			if (r)
				fclose(r);
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read /dev/urandom: %s",
				strerror(errno));
			goto out;
		}
		fclose(r);
		for (int i = 0; i < 16; i++)
			snprintf(id + 2 * i, 3, "%02x", raw[i]);
		if (ev_store_meta_set(st, "vindex.store_id", id, err) == -1)
			goto out;
		ld->store_id = strdup(id);
		if (ld->store_id == NULL) {
			ev_err_nomem(err);
			goto out;
		}
	}
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
	if ((tmp = index_write_tmp(ld->path, &h, idx, err)) == NULL)
		goto out;
	{
		struct stat sb;
		if (stat(tmp, &sb) == -1) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read '%s': %s", tmp,
				strerror(errno));
			goto out;
		}
		if (meta_set_ll(st, "vindex.bytes", (long long)sb.st_size, err) == -1)
			goto out;
	}
	if (txn_lost(st, err))
		goto out;
	if (meta_set_ll(st, "vindex.generation", h.generation, err) == -1 ||
	    ev_store_meta_set(st, "vindex.model", ld->model, err) == -1 ||
	    meta_set_ll(st, "vindex.dim", ld->dim, err) == -1 ||
	    meta_set_ll(st, "vindex.count", count, err) == -1 ||
	    ev_store_meta_set(st, "vindex.factory", factory, err) == -1 ||
	    ev_store_meta_set(st, "vindex.metric", "inner_product", err) == -1)
		goto out;
	{
		/* Vectors of the store's own embedding model go stale when it is
		 * retrained; vectors of an outside model do not. */
		char *sm = NULL;
		int linked;
		if (store_model(st, &sm, err) == -1)
			goto out;
		linked = sm != NULL && strcmp(sm, ld->model) == 0;
		free(sm);
		if (ev_store_meta_set(st, "vindex.embed_linked", linked ? "1" : "0", err) == -1)
			goto out;
	}
	if (txn_lost(st, err) || ev_store_commit(st, err) == -1)
		goto out;
	in_txn = 0;
	if (rename(tmp, ld->path) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"store updated but cannot rename '%s' to '%s': %s (run ev-embed-load again to "
			"rebuild the index)", tmp, ld->path, strerror(errno));
		goto out;
	}
	ev_vindex_sync_dir(ld->path);
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

/* ---- Chunks waiting for a vector ------------------------------------------ */

int
ev_vindex_pending(struct ev_store *st, const char *model, int64_t **out, size_t *n,
	struct ev_err *err)
{
	struct ids a = { 0 };
	sqlite3_stmt *s;
	int r;

	*out = NULL;
	*n = 0;
	if ((s = ev_store_prepare(st, "SELECT count(*) FROM sqlite_master"
		" WHERE type = 'table' AND name = 'vec_vectors'", err)) == NULL)
		return -1;
	r = sqlite3_step(s);
	if (r != SQLITE_ROW) {
		sqlite3_reset(s);
		return db_fail(st, "reading the schema", err);
	}
	r = sqlite3_column_int(s, 0);
	sqlite3_reset(s);
	s = ev_store_prepare(st, r == 0 ? "SELECT rowid FROM chunks WHERE ?1 IS ?1 ORDER BY rowid" :
		"SELECT c.rowid FROM chunks c LEFT JOIN vec_vectors v ON v.rowid = c.rowid"
		" WHERE v.rowid IS NULL OR v.model IS NOT ?1 OR v.content_hash IS NOT c.content_hash"
		" ORDER BY c.rowid", err);
	if (s == NULL)
		return -1;
	if (sqlite3_bind_text(s, 1, model, -1, SQLITE_STATIC) != SQLITE_OK)
		return ev_err_nomem(err);
	if (ids_collect(st, s, &a, "finding chunks without a vector", err) == -1) {
		free(a.v);
		return -1;
	}
	*out = a.v;
	*n = a.n;
	return 0;
}

/* ---- Searching ------------------------------------------------------------- */

struct ev_vindex {
	struct ev_store *st;
	FaissIndex *idx;
	FaissParameterSpace *ps;
	struct header h;
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
	    meta_ll(st, "vindex.generation", &gen, err) == -1)
		goto fail;
	if (r == 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"store '%s' has no vectors: run ev-embed-load --db %s --index %s",
			ev_store_path(st), ev_store_path(st), path);
		goto fail;
	}
	if (index_not_dir(path, err) == -1 || meta_ll(st, "vindex.bytes", &bytes, err) == -1)
		goto fail;
	if ((r = index_size_check(path, store_id, gen, bytes, err)) == -2 ||
	    (r = index_read(path, FAISS_IO_FLAG_MMAP, &ix->h, &ix->idx, err)) == -2) {
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
	if (r == 1 && strcmp(linked, "1") == 0 && store_model(st, &smodel, err) == -1)
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
	header_release(&ix->h);
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
	return ev_vindex_faiss_param(&ix->ps, ix->idx, name, value, err);
}

int
ev_vindex_faiss_param(struct FaissParameterSpace_H **ps, struct FaissIndex_H *idx,
	const char *name, double value, struct ev_err *err)
{
	if (*ps == NULL && faiss_ParameterSpace_new(ps) != 0)
		return faiss_fail(err, NULL, "setting a search parameter");
	if (faiss_ParameterSpace_set_index_parameter(*ps, idx, name, value) != 0)
		return 0;
	return 1;
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
		return faiss_fail(err, NULL, "searching the index");
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
			return db_fail(ix->st, "reading stored vectors", err);
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
			if (bsearch(&id[i], allowed, nallowed, sizeof *allowed, cmp_i64)) {
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

/* ---- Filters and hit fields ------------------------------------------------ */

int
ev_vindex_filter_ids(struct ev_store *st, const json_t *filters, const char *where, int64_t **out,
	size_t *nout, struct ev_err *err)
{
	struct ev_buf sql = EV_BUF_INIT;
	sqlite3_stmt *s = NULL;
	struct ids a = { 0 };
	const char *key;
	json_t *val, *docs = NULL;
	char *docs_text = NULL;
	int nb = 0, ret = -1, bad = 0;

	*out = NULL;
	*nout = 0;
	if (!json_is_object(filters))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'filters' must be an object");
	if ((docs = json_array()) == NULL)
		return ev_err_nomem(err);
	ev_buf_adds(&sql, "SELECT c.rowid FROM chunks c LEFT JOIN documents d ON d.doc_id = c.doc_id"
		" WHERE 1");
	json_object_foreach((json_t *)filters, key, val) {
		if (strcmp(key, "doc_id") == 0 || strcmp(key, "doc_ids") == 0) {
			size_t i;
			json_t *x;
			if (json_is_string(val))
				json_array_append(docs, val);
			else if (json_is_array(val)) {
				json_array_foreach(val, i, x) {
					if (!json_is_string(x)) {
						ev_err_set(err, EV_EXIT_USAGE, where,
							"filter '%s' must be a string or an array of strings", key);
						goto out;
					}
					json_array_append(docs, x);
				}
			} else {
				ev_err_set(err, EV_EXIT_USAGE, where,
					"filter '%s' must be a string or an array of strings", key);
				goto out;
			}
		} else if (strcmp(key, "metadata") == 0) {
			const char *mk;
			json_t *mv;
			if (!json_is_object(val)) {
				ev_err_set(err, EV_EXIT_USAGE, where, "filter 'metadata' must be an object");
				goto out;
			}
			json_object_foreach(val, mk, mv) {
				if (strchr(mk, '"') || strchr(mk, '\\')) {
					ev_err_set(err, EV_EXIT_USAGE, where,
						"metadata filter key '%s' must not hold quotes or backslashes", mk);
					goto out;
				}
				if (json_is_object(mv) || json_is_array(mv)) {
					ev_err_set(err, EV_EXIT_USAGE, where,
						"metadata filter '%s' must be a string, number, boolean or null", mk);
					goto out;
				}
				ev_buf_adds(&sql, json_is_null(mv) ?
					" AND json_extract(d.metadata, ?) IS NULL" :
					" AND json_extract(d.metadata, ?) = ?");
			}
		} else if (strcmp(key, "published_date") == 0) {
			json_t *from, *to;
			const char *k2;
			json_t *v2;
			if (!json_is_object(val)) {
				ev_err_set(err, EV_EXIT_USAGE, where,
					"filter 'published_date' must be an object with 'from' and/or 'to'");
				goto out;
			}
			json_object_foreach(val, k2, v2) {
				if ((strcmp(k2, "from") != 0 && strcmp(k2, "to") != 0) || !json_is_string(v2)) {
					ev_err_set(err, EV_EXIT_USAGE, where,
						"filter 'published_date' takes 'from' and 'to' as strings, not '%s'",
						k2);
					goto out;
				}
			}
			from = json_object_get(val, "from");
			to = json_object_get(val, "to");
			if (from)
				ev_buf_adds(&sql, " AND d.published_date >= ?");
			if (to)
				ev_buf_adds(&sql, " AND substr(d.published_date, 1, length(?)) <= ?");
		} else {
			ev_err_set(err, EV_EXIT_USAGE, where,
				"unknown filter '%s' (known: doc_id, doc_ids, metadata, published_date)", key);
			goto out;
		}
	}
	if (json_array_size(docs) > 0 || json_object_get(filters, "doc_id") ||
	    json_object_get(filters, "doc_ids"))
		ev_buf_adds(&sql, " AND c.doc_id IN (SELECT value FROM json_each(?))");
	if (ev_buf_adds(&sql, " ORDER BY c.rowid") == -1) {
		ev_err_nomem(err);
		goto out;
	}
	if (sqlite3_prepare_v2(ev_store_db(st), ev_buf_str(&sql), -1, &s, NULL) != SQLITE_OK) {
		db_fail(st, "preparing a filter", err);
		goto out;
	}
	/* Bind in the order the clauses were written; a failed bind (a copy
	 * refused under memory pressure) must not leave a parameter NULL. */
	json_object_foreach((json_t *)filters, key, val) {
		if (strcmp(key, "metadata") == 0) {
			const char *mk;
			json_t *mv;
			json_object_foreach(val, mk, mv) {
				char *path = sqlite3_mprintf("$.\"%s\"", mk);
				if (path == NULL) {
					ev_err_nomem(err);
					goto out;
				}
				bad |= sqlite3_bind_text(s, ++nb, path, -1, sqlite3_free) != SQLITE_OK;
				if (json_is_null(mv))
					continue;
				if (json_is_string(mv))
					bad |= sqlite3_bind_text(s, ++nb, json_string_value(mv), -1,
						SQLITE_TRANSIENT) != SQLITE_OK;
				else if (json_is_integer(mv))
					bad |= sqlite3_bind_int64(s, ++nb, json_integer_value(mv)) != SQLITE_OK;
				else if (json_is_real(mv))
					bad |= sqlite3_bind_double(s, ++nb, json_real_value(mv)) != SQLITE_OK;
				else
					bad |= sqlite3_bind_int(s, ++nb, json_is_true(mv)) != SQLITE_OK;
			}
		} else if (strcmp(key, "published_date") == 0) {
			json_t *from = json_object_get(val, "from"), *to = json_object_get(val, "to");
			if (from)
				bad |= sqlite3_bind_text(s, ++nb, json_string_value(from), -1,
					SQLITE_TRANSIENT) != SQLITE_OK;
			if (to) {
				bad |= sqlite3_bind_text(s, ++nb, json_string_value(to), -1,
					SQLITE_TRANSIENT) != SQLITE_OK;
				bad |= sqlite3_bind_text(s, ++nb, json_string_value(to), -1,
					SQLITE_TRANSIENT) != SQLITE_OK;
			}
		}
	}
	if (json_object_get(filters, "doc_id") || json_object_get(filters, "doc_ids")) {
		if ((docs_text = json_dumps(docs, JSON_COMPACT)) == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		bad |= sqlite3_bind_text(s, ++nb, docs_text, -1, SQLITE_STATIC) != SQLITE_OK;
	}
	if (bad) {
		ev_err_nomem(err);
		goto out;
	}
	{
		int rc;
		while ((rc = sqlite3_step(s)) == SQLITE_ROW)
			if (ids_push(&a, sqlite3_column_int64(s, 0)) == -1) {
				ev_err_nomem(err);
				goto out;
			}
		if (rc != SQLITE_DONE) {
			db_fail(st, "applying a filter", err);
			goto out;
		}
	}
	*out = a.v;
	*nout = a.n;
	a.v = NULL;
	ret = 0;
out:
	sqlite3_finalize(s);
	free(a.v);
	free(docs_text);
	json_decref(docs);
	ev_buf_release(&sql);
	return ret;
}

/* Column i of the current row as text: *t (never NULL: "" for SQL NULL) and
 * *len.  sqlite3_column_text() also returns NULL when it runs out of memory
 * converting a value: then -1 (out of memory), never an empty text. */
static int
col_text(sqlite3_stmt *s, int i, const char **t, size_t *len)
{
	int type = sqlite3_column_type(s, i);

	*t = (const char *)sqlite3_column_text(s, i);
	*len = (size_t)sqlite3_column_bytes(s, i);
	if (*t == NULL) {
		if (type != SQLITE_NULL)
			return -1;
		*t = "";
		*len = 0;
	}
	return 0;
}

/* A document's stored metadata (column i) as a non-empty object in *out, or
 * NULL when there is none (or it is not a JSON object).  Returns 0, or -1
 * when out of memory (which must not read as "no metadata"). */
static int
col_metadata(sqlite3_stmt *s, int i, json_t **out)
{
	struct ev_err pe = { 0 };
	const char *t;
	size_t len;
	json_t *m;

	*out = NULL;
	if (sqlite3_column_type(s, i) != SQLITE_TEXT)
		return 0;
	if (col_text(s, i, &t, &len) == -1)
		return -1;
	if ((m = ev_json_parse_line(t, len, NULL, &pe)) == NULL)
		return pe.code == EV_EXIT_USAGE ? 0 : -1;
	if (json_is_object(m) && json_object_size(m) > 0)
		*out = m;
	else
		json_decref(m);
	return 0;
}


/* Step the store's row of chunk rowid: its fields, its text and its
 * document's metadata, in the order the hit fields are written.  Returns 1
 * with *out on the row (reset by the next ev_store_prepare()), 0 when there
 * is no such chunk, -1 with *err set. */
static int
chunk_row(struct ev_store *st, int64_t rowid, sqlite3_stmt **out, struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if ((s = ev_store_prepare(st, "SELECT c.id, c.doc_id, c.section_id, c.title, c.section_title,"
		" c.section_path, d.source_uri, c.chunk_index, c.offset_start, c.offset_end,"
		" c.content_hash, c.text, d.metadata, c.language FROM chunks c"
		" LEFT JOIN documents d ON d.doc_id = c.doc_id WHERE c.rowid = ?", err)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(s);
		if (rc == SQLITE_DONE)
			return 0;
		return db_fail(st, "reading a chunk", err);
	}
	*out = s;
	return 1;
}

/* The chunk's text (column i) in *text (malloc'd), NULL for SQL NULL.
 * Returns 0, or -1 when out of memory. */
static int
col_strdup(sqlite3_stmt *s, int i, char **text)
{
	const char *t;
	size_t len;

	*text = NULL;
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return 0;
	if (col_text(s, i, &t, &len) == -1 || (*text = strndup(t, len)) == NULL)
		return -1;
	return 0;
}

int
ev_vindex_chunk(struct ev_store *st, int64_t rowid, json_t *obj, char **text, struct ev_err *err)
{
	static const char *const names[] = { "id", "doc_id", "section_id", "title", "section_title",
		"section_path", "source_uri", "chunk_index", "offset_start", "offset_end",
		"content_hash" };
	sqlite3_stmt *s;
	json_t *m = NULL;
	int rc, n = (int)(sizeof names / sizeof names[0]), bad = 0;

	*text = NULL;
	if ((rc = chunk_row(st, rowid, &s, err)) != 1)
		return rc;
	for (int i = 0; i < n && !bad; i++) {
		json_t *v = NULL;
		const char *t;
		size_t len;

		switch (sqlite3_column_type(s, i)) {
		case SQLITE_INTEGER:
			v = json_integer(sqlite3_column_int64(s, i));
			break;
		case SQLITE_FLOAT:
			v = json_real(sqlite3_column_double(s, i));
			break;
		case SQLITE_NULL:
			v = json_null();
			break;
		default:
			if (col_text(s, i, &t, &len) == 0)
				v = json_stringn(t, len);
		}
		/* json_object_set_new() takes v, and fails on NULL */
		if (json_object_set_new(obj, names[i], v) == -1)
			bad = 1;
	}
	if (!bad && col_metadata(s, n + 1, &m) == -1)
		bad = 1;
	if (!bad && m != NULL && json_object_set_new(obj, "metadata", m) == -1)
		bad = 1;
	if (!bad && col_strdup(s, n, text) == -1)
		bad = 1;
	sqlite3_reset(s);
	return bad ? ev_err_nomem(err) : 1;
}

/* ---- Writing hit fields as JSON text ----------------------------------- */

int
ev_vindex_json_str(struct ev_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	int rc = ev_buf_addc(b, '"');

	while (i < n && rc == 0) {
		unsigned c = p[i];
		size_t l;
		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			run++;
			continue;
		}
		if (c >= 0x80 && (l = ev_utf8_len(p + i, n - i)) > 0) {
			i += l;
			run += l;
			continue;
		}
		rc = ev_buf_add(b, p + i - run, run);
		run = 0;
		if (rc == 0) {
			if (c == '"')
				rc = ev_buf_add(b, "\\\"", 2);
			else if (c == '\\')
				rc = ev_buf_add(b, "\\\\", 2);
			else if (c == '\n')
				rc = ev_buf_add(b, "\\n", 2);
			else if (c == '\t')
				rc = ev_buf_add(b, "\\t", 2);
			else if (c == '\r')
				rc = ev_buf_add(b, "\\r", 2);
			else if (c < 0x20)
				rc = ev_buf_printf(b, "\\u%04x", c);
			else
				rc = ev_buf_add(b, "\\ufffd", 6);	/* not UTF-8 */
		}
		i++;
	}
	if (rc == 0)
		rc = ev_buf_add(b, p + i - run, run);
	if (rc == 0)
		rc = ev_buf_addc(b, '"');
	return rc;
}

int
ev_vindex_json_real(struct ev_buf *b, double x)
{
	char tmp[40];
	int n;

	if (!isfinite(x))
		return ev_buf_adds(b, "null");
	n = snprintf(tmp, sizeof tmp, "%.10g", x);
	if (n > 0 && strpbrk(tmp, ".eEn") == NULL)
		snprintf(tmp + n, sizeof tmp - n, ".0");
	return ev_buf_adds(b, tmp);
}

int
ev_vindex_chunk_json(struct ev_store *st, int64_t rowid, struct ev_buf *b, char **text,
	struct ev_err *err)
{
	static const char *const names[] = { "\"id\":", ",\"doc_id\":", ",\"section_id\":",
		",\"title\":", ",\"section_title\":", ",\"section_path\":", ",\"source_uri\":",
		",\"chunk_index\":", ",\"offset_start\":", ",\"offset_end\":", ",\"content_hash\":" };
	sqlite3_stmt *s;
	int rc, n = (int)(sizeof names / sizeof names[0]), bad = 0;

	if (text)
		*text = NULL;
	if ((rc = chunk_row(st, rowid, &s, err)) != 1)
		return rc;
	for (int i = 0; i < n && !bad; i++) {
		char num[32];
		const char *t;
		size_t len;

		bad |= ev_buf_adds(b, names[i]);
		switch (sqlite3_column_type(s, i)) {
		case SQLITE_INTEGER:
			/* formatted here: SQLite's text of it needs an allocation */
			snprintf(num, sizeof num, "%lld", (long long)sqlite3_column_int64(s, i));
			bad |= ev_buf_adds(b, num);
			break;
		case SQLITE_FLOAT:
			bad |= ev_vindex_json_real(b, sqlite3_column_double(s, i));
			break;
		case SQLITE_NULL:
			bad |= ev_buf_adds(b, "null");
			break;
		default:
			if (col_text(s, i, &t, &len) == -1)
				bad = 1;
			else
				bad |= ev_vindex_json_str(b, t, len);
		}
	}
	/* the chunk's language, as the text lane's hits have it */
	if (!bad && sqlite3_column_type(s, n + 2) != SQLITE_NULL) {
		const char *t;
		size_t len;

		if (col_text(s, n + 2, &t, &len) == -1)
			bad = 1;
		else
			bad |= ev_buf_adds(b, ",\"language\":") | ev_vindex_json_str(b, t, len);
	}
	if (!bad) {
		json_t *m;
		if (col_metadata(s, n + 1, &m) == -1)
			bad = 1;
		else if (m != NULL)
			bad |= ev_buf_adds(b, ",\"metadata\":") | ev_json_dump(b, m);
		json_decref(m);
	}
	if (!bad && text && col_strdup(s, n, text) == -1)
		bad = 1;
	sqlite3_reset(s);
	return bad ? ev_err_nomem(err) : 1;
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
		return db_fail(ix->st, "reading a chunk's vector", err);
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_bytes(s, 0) == dim * (int)sizeof(float)) {
		memcpy(out, sqlite3_column_blob(s, 0), (size_t)dim * sizeof(float));
		sqlite3_reset(s);
		return 1;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(ix->st, "reading a chunk's vector", err);
	return 0;
}
