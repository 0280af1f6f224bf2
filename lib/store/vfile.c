/* vfile.c: the vector index's file and shared helpers, without Faiss (see
 * vfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "buf.h"
#include "faiss_flatmap.h"	/* (EV_FAISS_FLAT_ALIGN alone: no call into Faiss) */
#include "jsonl.h"
#include "vfile.h"

#define MAGIC "evkit-vindex 1\n"
#define HEADER_MAX 65536

/* The store's current embedding model, as ev-embed records it in meta. */
static const char *const store_model_keys[] = { "embed.model", NULL };

/* ---- Small helpers ------------------------------------------------------ */

int
ev_vfile_meta_ll(struct ev_store *st, const char *key, long long *out, struct ev_err *err)
{
	char *v = NULL;
	int r = ev_store_meta_get(st, key, &v, err);

	*out = 0;
	if (r == 1)
		*out = strtoll(v, NULL, 10);
	free(v);
	return r == -1 ? -1 : 0;
}

int
ev_vfile_meta_set_ll(struct ev_store *st, const char *key, long long v, struct ev_err *err)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%lld", v);
	return ev_store_meta_set(st, key, buf, err);
}

int
ev_vfile_store_model(struct ev_store *st, char **out, struct ev_err *err)
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

int
ev_vfile_txn_lost(struct ev_store *st, struct ev_err *err)
{
	if (!sqlite3_get_autocommit(ev_store_db(st)))
		return 0;
	ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		"the store's transaction was rolled back (out of memory or an I/O error): "
		"nothing loaded");
	return 1;
}

int
ev_vfile_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int
ev_vfile_ids_push(struct ev_vfile_ids *a, int64_t x)
{
	if (ev_grow(&a->v, &a->cap, a->n, sizeof *a->v, 256) == -1)
		return -1;
	a->v[a->n++] = x;
	return 0;
}

int
ev_vfile_ids_collect(struct ev_store *st, sqlite3_stmt *stmt, struct ev_vfile_ids *a, const char *what,
	struct ev_err *err)
{
	int rc;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		if (ev_vfile_ids_push(a, sqlite3_column_int64(stmt, 0)) == -1) {
			sqlite3_reset(stmt);
			return ev_err_nomem(err);
		}
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE)
		return ev_store_error(st, what, err);
	return 0;
}

/* ---- The index file ------------------------------------------------------- */

void
ev_vfile_header_release(struct ev_vfile_header *h)
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

int
ev_vfile_header_read(FILE *f, const char *path, struct ev_vfile_header *h, struct ev_err *err)
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
		ev_vfile_header_release(h);
		ev_err_nomem(err);
		goto out;
	}
	rc = 0;
out:
	json_decref(o);
	ev_buf_release(&b);
	return rc;
}

int
ev_vfile_open_index(const char *path, struct ev_vfile_header *h, FILE **f, struct ev_err *err)
{
	int r;

	if ((*f = fopen(path, "rb")) == NULL) {
		if (errno == ENOENT)
			return 0;
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open index '%s': %s", path,
			strerror(errno));
	}
	if ((r = ev_vfile_header_read(*f, path, h, err)) < 0) {
		fclose(*f);
		*f = NULL;
		return r;
	}
	return 1;
}

int
ev_vfile_size_check(const char *path, const char *store_id, long long gen, long long bytes,
	struct ev_err *err)
{
	struct ev_vfile_header h = { 0 };
	struct stat sb;
	FILE *f;
	int r = 0;

	if (bytes <= 0 || stat(path, &sb) == -1 || (long long)sb.st_size == bytes ||
	    (f = fopen(path, "rb")) == NULL)
		return 0;
	if (ev_vfile_header_read(f, path, &h, err) == 0 && strcmp(h.store_id, store_id) == 0 &&
	    h.generation == gen) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "index '%s' is damaged: it has %lld bytes, "
		    "the store recorded %lld when it was written", path, (long long)sb.st_size, bytes);
		r = -2;
	} else {
		memset(err, 0, sizeof *err);	/* not that index: ev_vfaiss_read() says */
	}
	ev_vfile_header_release(&h);
	fclose(f);
	return r;
}

int
ev_vfile_not_dir(const char *path, const char *kind, struct ev_err *err)
{
	struct stat sb;

	if (*path == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "--index names no file: give the index's"
			" file name");
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return ev_err_set(err, EV_EXIT_USAGE, path,
			"is a directory, not an evkit %s; --index takes a file", kind);
	return 0;
}

int
ev_vfile_open_existing(const char *path, const char *kind, FILE **f, struct ev_err *err)
{
	if (ev_vfile_not_dir(path, kind, err) == -1)
		return -1;
	if ((*f = fopen(path, "rb")) != NULL)
		return 1;
	if (errno == ENOENT)
		return 0;
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open index '%s': %s", path,
	    strerror(errno));
}

int
ev_vfile_claimable(struct ev_store *st, const char *path, const char *store_id, struct ev_err *err)
{
	char magic[sizeof MAGIC];
	struct ev_vfile_header h;
	struct ev_err he = { 0 };
	size_t n;
	FILE *f;
	int other, opened;

	if ((opened = ev_vfile_open_existing(path, "vector index", &f, err)) != 1)
		return opened;
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
	if (ev_vfile_header_read(f, path, &h, &he) < 0) {
		fclose(f);
		return 0;	/* ours, damaged: rewritten */
	}
	fclose(f);
	other = store_id == NULL || strcmp(h.store_id, store_id) != 0;
	ev_vfile_header_release(&h);
	if (other)
		return ev_err_set(err, EV_EXIT_USAGE, path,
			"the vector index of another store than '%s'; give another --index file, "
			"or remove this one to build the index of '%s' there", ev_store_path(st),
			ev_store_path(st));
	return 0;
}

/* ev_vfile_create_tmp(), the header line padded with spaces (before its
 * newline) so that what begins prefix bytes after it begins at a multiple
 * of EV_FAISS_FLAT_ALIGN in the file; no padding when prefix < 0.  The
 * stream writes through wbuf (EV_VFILE_WRITE_BUFFER bytes, which the caller frees
 * once the stream is closed) unless it is NULL. */
static FILE *
create_tmp(const char *path, const char *magic, json_t *header, long prefix, char *wbuf,
	char **tmp, struct ev_err *err)
{
	size_t n = strlen(path) + 32;
	char *line = header != NULL ? json_dumps(header, JSON_COMPACT) : NULL;
	FILE *f = NULL;
	long pad = 0;

	json_decref(header);
	if (line == NULL || (*tmp = malloc(n)) == NULL) {
		free(line);
		ev_err_nomem(err);
		return NULL;
	}
	snprintf(*tmp, n, "%s.tmp.%ld", path, (long)getpid());
	if ((f = fopen(*tmp, "wb")) == NULL)
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create '%s': %s", *tmp, strerror(errno));
	else if (wbuf != NULL)
		setvbuf(f, wbuf, _IOFBF, EV_VFILE_WRITE_BUFFER);
	if (f != NULL && prefix >= 0)
		pad = (EV_FAISS_FLAT_ALIGN - (long)((strlen(magic) + strlen(line) + 1 + (size_t)prefix) %
		    EV_FAISS_FLAT_ALIGN)) % EV_FAISS_FLAT_ALIGN;
	if (f != NULL && (fputs(magic, f) == EOF || fputs(line, f) == EOF ||
	    fprintf(f, "%*s", (int)pad, "") < 0 || putc('\n', f) == EOF)) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", *tmp, strerror(errno));
		fclose(f);
		f = NULL;
	}
	free(line);
	if (f == NULL) {
		ev_vfile_discard_tmp(NULL, *tmp);
		*tmp = NULL;
	}
	return f;
}

FILE *
ev_vfile_create_tmp(const char *path, const char *magic, json_t *header, char **tmp,
	struct ev_err *err)
{
	return create_tmp(path, magic, header, -1, NULL, tmp, err);
}

FILE *
ev_vfile_create_index_tmp(const char *path, const struct ev_vfile_header *h, long prefix,
	char *wbuf, char **tmp, struct ev_err *err)
{
	return create_tmp(path, MAGIC, json_pack("{s:s,s:I,s:I,s:I,s:s,s:s,s:s}",
		"store_id", h->store_id, "generation", (json_int_t)h->generation,
		"dim", (json_int_t)h->dim, "count", (json_int_t)h->count, "model", h->model,
		"factory", h->factory, "metric", "inner_product"), prefix, wbuf, tmp, err);
}

int
ev_vfile_close_tmp(FILE *f, const char *tmp, struct ev_err *err)
{
	int e;

	if (fflush(f) == EOF || fsync(fileno(f)) == -1) {
		e = errno;
		fclose(f);
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp, strerror(e));
	}
	if (fclose(f) == EOF)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp,
			strerror(errno));
	return 0;
}

void
ev_vfile_discard_tmp(FILE *f, char *tmp)
{
	if (f != NULL)
		fclose(f);
	if (tmp != NULL)
		unlink(tmp);
	free(tmp);
}

void
ev_vfile_sync_dir(const char *path)
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

/* ---- Chunks waiting for a vector ------------------------------------------ */

int
ev_vfile_pending(struct ev_store *st, const char *model, int64_t **out, size_t *n,
	struct ev_err *err)
{
	struct ev_vfile_ids a = { 0 };
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
		return ev_store_error(st, "reading the schema", err);
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
	if (ev_vfile_ids_collect(st, s, &a, "finding chunks without a vector", err) == -1) {
		free(a.v);
		return -1;
	}
	*out = a.v;
	*n = a.n;
	return 0;
}
