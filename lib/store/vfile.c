/* vfile.c: the vector index's file and shared helpers (see vfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/MetaIndexes_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>

#include "buf.h"
#include "faiss_flatmap.h"
#include "faiss_prefetch.h"
#include "jsonl.h"
#include "vfile.h"

#define MAGIC "evkit-vindex 1\n"
#define HEADER_MAX 65536
/* The index file is written this much at a time, each write at a multiple
 * of it in the file: the kernel then keeps its pages in 2 MB folios, which
 * a search maps with one entry each.  Written through stdio's default 4 KB
 * buffer, the file sat in the page cache in 4 KB pages, which a search
 * maps one by one and unmaps at exit: at 1.6 M vectors, 64 lists visited
 * (25 MB), a query's system time was 9.9-11 ms, 8.3-8.5 with the same
 * file written in 2 MB writes. */
#define WRITE_BUFFER ((size_t)2 << 20)

/* The store's current embedding model, as ev-embed records it in meta. */
static const char *const store_model_keys[] = { "embed.model", NULL };

/* ---- Small helpers ------------------------------------------------------ */

const char *
ev_vfile_faiss_error(void)
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
ev_vfile_faiss_oom(void)
{
	return strcmp(ev_vfile_faiss_error(), "out of memory") == 0;
}

int
ev_vfile_faiss_fail(struct ev_err *err, const char *where, const char *what)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, where, "%s: %s", what, ev_vfile_faiss_error());
}

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
		memset(err, 0, sizeof *err);	/* not that index: ev_vfile_read() says */
	}
	ev_vfile_header_release(&h);
	fclose(f);
	return r;
}

int
ev_vfile_read(const char *path, int io_flags, struct ev_vfile_header *h, FaissIndex **out,
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
	if ((r = ev_vfile_header_read(f, path, h, err)) < 0) {
		fclose(f);
		return r;
	}
	/* A Flat index whose vectors are aligned in the file: mapped, not read. */
	if ((io_flags & FAISS_IO_FLAG_MMAP) && fstat(fileno(f), &sb) == 0 &&
	    ev_faiss_flat_map(fileno(f), ftell(f), sb.st_size, out) == 1) {
		fclose(f);
		goto check;
	}
	if (faiss_read_index(f, io_flags, out) != 0) {
		int ferr = ferror(f);
		fclose(f);
		ev_vfile_header_release(h);
		*out = NULL;
		if (ev_vfile_faiss_oom())
			return ev_err_nomem(err);
		if (ferr) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read index '%s': %s", path,
				ev_vfile_faiss_error());
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
		ev_vfile_header_release(h);
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is damaged (its Faiss data is cut short or corrupt)", path);
		return -2;
	}
	fclose(f);
check:
	if (faiss_Index_d(*out) != h->dim || faiss_Index_ntotal(*out) != h->count) {
		faiss_Index_free(*out);
		*out = NULL;
		ev_vfile_header_release(h);
		ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			"index '%s' is damaged: its header does not match its contents", path);
		return -2;
	}
	if (io_flags & FAISS_IO_FLAG_MMAP)
		ev_faiss_prefetch_threads(*out, ev_faiss_prefetch_default());
	return 1;
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
 * stream writes through wbuf (WRITE_BUFFER bytes, which the caller frees
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
		setvbuf(f, wbuf, _IOFBF, WRITE_BUFFER);
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

char *
ev_vfile_write_tmp(const char *path, const struct ev_vfile_header *h, const FaissIndex *idx,
	struct ev_err *err)
{
	char *tmp = NULL;
	int r;
	/* (without it, stdio's own buffer: only slower to search) */
	char *wbuf = malloc(WRITE_BUFFER);
	/* a Flat index's vectors (an IVF-Flat's centroids) aligned, so that a search maps them */
	FILE *f = create_tmp(path, MAGIC, json_pack("{s:s,s:I,s:I,s:I,s:s,s:s,s:s}",
		"store_id", h->store_id, "generation", (json_int_t)h->generation,
		"dim", (json_int_t)h->dim, "count", (json_int_t)h->count, "model", h->model,
		"factory", h->factory, "metric", "inner_product"), ev_faiss_flat_prefix(idx), wbuf,
		&tmp, err);

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
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp, ev_vfile_faiss_error());
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
ev_vfile_faiss_new(int dim, const char *factory, struct FaissIndex_H **out, struct ev_err *err)
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
		if (ev_vfile_faiss_oom())
			return ev_err_nomem(err);
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "--factory '%s': Faiss cannot make an index"
			" of it for vectors of %d dimensions (%s): " FACTORY_HINT, factory, dim,
			ev_vfile_faiss_error());
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
ev_vfile_factory_check(const char *factory, long long dim, struct ev_err *err)
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

		if (ev_vfile_faiss_new(i < 0 ? (int)dim : some_dims[i], factory, &idx, &e) == 0) {
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
			snprintf(first, sizeof first, "%s", ev_vfile_faiss_error());
	}
	return ev_err_set(err, EV_EXIT_USAGE, NULL, "--factory '%s': Faiss cannot make an index of"
		" it (%s): " FACTORY_HINT, factory, first);
}

int
ev_vfile_factory_nsg(const char *factory)
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
ev_vfile_factory_fits(const char *factory, long long n, struct ev_err *err)
{
	if (ev_vfile_factory_nsg(factory) && n < NSG_MIN)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "factory '%s' builds an NSG graph,"
			" which Faiss needs " NSG_MIN_S " vectors at least to build; the index"
			" would hold %lld: use Flat or HNSW32 for so few", factory, n);
	return 0;
}

int
ev_vfile_faiss_param(struct FaissParameterSpace_H **ps, struct FaissIndex_H *idx,
	const char *name, double value, struct ev_err *err)
{
	if (*ps == NULL && faiss_ParameterSpace_new(ps) != 0)
		return ev_vfile_faiss_fail(err, NULL, "setting a search parameter");
	if (faiss_ParameterSpace_set_index_parameter(*ps, idx, name, value) != 0)
		return 0;
	return 1;
}
