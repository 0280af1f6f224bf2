/* mvindex.c: reading and searching the multi-vector index: records,
 * mapped token vectors, and a Faiss index over the tokens.  See mvindex.h;
 * mvload.c writes the index. */
#include "mvindex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/index_io_c.h>

#include "buf.h"
#include "jsonl.h"
#include "mvfile.h"
#include "vecinput.h"
#include "vfaiss.h"

#define HEADER_MAX 65536	/* bytes of the header line */

/* A record of the index: its id and its rows in the data file. */
struct record_rows {
	char *id;
	long long offset;	/* first row in the data file */
	long long count;	/* rows */
};

struct ev_mvindex {
	char *path;
	long long dim, nrec, nvec;
	char *model, *lane, *factory, *data, *generation;
	int factory_given;	/* the factory was chosen by a user, not by size */
	struct record_rows *recs;	/* in id order */
	char *lines;		/* the record lines, NUL-separated */
	size_t *line_at;	/* record r's line: lines + line_at[r] */
	FaissIndex *idx;
	FaissParameterSpace *ps;
	void *map;		/* the data file */
	size_t map_len;
	const float *vec;	/* its first row */
	long long rows;
};

/* ---- Reading an index ---------------------------------------------------- */

static void
index_free(struct ev_mvindex *ix)
{
	if (ix == NULL)
		return;
	if (ix->ps)
		faiss_ParameterSpace_free(ix->ps);
	if (ix->idx)
		faiss_Index_free(ix->idx);
	if (ix->map)
		munmap(ix->map, ix->map_len);
	for (long long r = 0; ix->recs && r < ix->nrec; r++)
		free(ix->recs[r].id);
	free(ix->recs);
	free(ix->lines);
	free(ix->line_at);
	free(ix->path);
	free(ix->model);
	free(ix->lane);
	free(ix->factory);
	free(ix->data);
	free(ix->generation);
	free(ix);
}

/* A damaged index: code 1 and what is wrong.  Returns -1. */
static int
damaged(const char *path, const char *what, struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "index '%s' is damaged: %s", path, what);
}

/* Read one line (without its newline) of at most max bytes into b.
 * Returns 1, 0 at the end of the file (or a line cut short), -1 when it is
 * too long or memory runs out (*nomem says which). */
static int
read_line(FILE *f, struct ev_buf *b, size_t max, int *nomem)
{
	int c;

	ev_buf_reset(b);
	*nomem = 0;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (b->len >= max)
			return -1;
		if (ev_buf_addc(b, c) == -1) {
			*nomem = 1;
			return -1;
		}
	}
	return c == '\n';
}

/* A string member of o, copied; NULL (and *err set when out of memory)
 * when absent. */
static char *
member_str(const json_t *o, const char *key, struct ev_err *err)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? ev_mvfile_strdup(s, err) : NULL;
}

/* Parse the header line.  Returns 0 or -1. */
static int
parse_header(struct ev_mvindex *ix, const struct ev_buf *b, struct ev_err *err)
{
	struct ev_err pe = { 0 };
	json_t *o = ev_json_parse_line(ev_buf_str(b), b->len, ix->path, &pe);
	int rc = -1;

	if (o == NULL && pe.code != EV_EXIT_USAGE)
		return ev_err_nomem(err);
	if (!json_is_object(o) || !json_is_string(json_object_get(o, "generation")) ||
	    !json_is_integer(json_object_get(o, "dim")) ||
	    !json_is_integer(json_object_get(o, "records")) ||
	    !json_is_integer(json_object_get(o, "vectors")) ||
	    !json_is_string(json_object_get(o, "model")) ||
	    !json_is_string(json_object_get(o, "lane")) ||
	    !json_is_string(json_object_get(o, "factory")) ||
	    !json_is_string(json_object_get(o, "data"))) {
		damaged(ix->path, "its header", err);
		goto out;
	}
	ix->dim = json_integer_value(json_object_get(o, "dim"));
	ix->nrec = json_integer_value(json_object_get(o, "records"));
	ix->nvec = json_integer_value(json_object_get(o, "vectors"));
	ix->factory_given = json_is_true(json_object_get(o, "factory_given"));
	if (ix->dim < 1 || ix->dim > EV_MVINDEX_DIM_MAX || ix->nrec < 1 || ix->nvec < ix->nrec) {
		damaged(ix->path, "its header", err);
		goto out;
	}
	if ((ix->generation = member_str(o, "generation", err)) == NULL ||
	    (ix->model = member_str(o, "model", err)) == NULL ||
	    (ix->lane = member_str(o, "lane", err)) == NULL ||
	    (ix->factory = member_str(o, "factory", err)) == NULL ||
	    (ix->data = member_str(o, "data", err)) == NULL)
		goto out;
	if (strchr(ix->data, '/') != NULL || ix->data[0] == '\0' || ix->data[0] == '.') {
		damaged(ix->path, "its header names a data file elsewhere", err);
		goto out;
	}
	rc = 0;
out:
	json_decref(o);
	return rc;
}

/* Read the record lines.  Returns 0 or -1. */
static int
read_records(struct ev_mvindex *ix, FILE *f, struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT, all = EV_BUF_INIT;
	long long r, total = 0;
	int nomem, rc = -1;

	if ((ix->recs = calloc((size_t)ix->nrec, sizeof *ix->recs)) == NULL ||
	    (ix->line_at = calloc((size_t)ix->nrec, sizeof *ix->line_at)) == NULL)
		return ev_err_nomem(err);
	for (r = 0; r < ix->nrec; r++) {
		struct ev_err pe = { 0 };
		json_t *o;
		json_int_t off, cnt;

		if (read_line(f, &b, (size_t)1 << 30, &nomem) != 1) {
			if (nomem)
				ev_err_nomem(err);
			else
				damaged(ix->path, "its records are cut short", err);
			goto out;
		}
		if ((o = ev_json_parse_line(ev_buf_str(&b), b.len, ix->path, &pe)) == NULL &&
		    pe.code != EV_EXIT_USAGE) {
			ev_err_nomem(err);
			goto out;
		}
		off = json_integer_value(json_object_get(o, "offset"));
		cnt = json_integer_value(json_object_get(o, "count"));
		if (!json_is_string(json_object_get(o, "id")) ||
		    !json_is_integer(json_object_get(o, "offset")) ||
		    !json_is_integer(json_object_get(o, "count")) || off < 0 || cnt < 1 ||
		    cnt > EV_MVINDEX_RECORD_MAX) {
			json_decref(o);
			damaged(ix->path, "a record line", err);
			goto out;
		}
		ix->recs[r].offset = off;
		ix->recs[r].count = cnt;
		if ((ix->recs[r].id = strdup(json_string_value(json_object_get(o, "id")))) == NULL) {
			json_decref(o);
			ev_err_nomem(err);
			goto out;
		}
		if (r > 0 && strcmp(ix->recs[r - 1].id, ix->recs[r].id) >= 0) {
			json_decref(o);
			damaged(ix->path, "its records are not in id order", err);
			goto out;
		}
		total += cnt;
		ix->line_at[r] = all.len;
		json_decref(o);
		if (ev_buf_add(&all, b.p, b.len + 1) == -1) {	/* with its NUL */
			ev_err_nomem(err);
			goto out;
		}
	}
	if (total != ix->nvec) {
		damaged(ix->path, "its records do not add up to its vectors", err);
		goto out;
	}
	ix->lines = all.p;
	all.p = NULL;
	rc = 0;
out:
	ev_buf_release(&b);
	ev_buf_release(&all);
	return rc;
}

/* Open the data file the header names, its path in *dpath (malloc'd):
 * *gone is set when the file is missing.  Returns the open file, or NULL
 * with *err set. */
static FILE *
open_data(const struct ev_mvindex *ix, char **dpath, int *gone, struct ev_err *err)
{
	FILE *f;

	*gone = 0;
	if ((*dpath = ev_mvfile_beside(ix->path, ix->data, err)) == NULL)
		return NULL;
	if ((f = fopen(*dpath, "rb")) == NULL) {
		*gone = errno == ENOENT;
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "index '%s': cannot open its data file '%s': %s",
		    ix->path, *dpath, strerror(errno));
	}
	return f;
}

/* Map the data file f (at dpath) and check it against the records.
 * Returns 0 or -1. */
static int
map_data(struct ev_mvindex *ix, FILE *f, const char *dpath, struct ev_err *err)
{
	struct ev_err he = { 0 };
	long long rows, cols;
	struct stat sb;
	long off;

	if (ev_vecinput_npy_header(f, dpath, &rows, &cols, &he) == -1 || cols != ix->dim ||
	    (off = ftell(f)) < 0 || off % 4 != 0 || fstat(fileno(f), &sb) == -1 ||
	    rows > (long long)((sb.st_size - off) / 4 / cols) ||
	    (long long)sb.st_size != off + rows * cols * 4)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "index '%s' is damaged: its data file '%s' is not the one it was written with",
		    ix->path, dpath);
	for (long long r = 0; r < ix->nrec; r++)
		if (ix->recs[r].offset > rows - ix->recs[r].count)
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			    "index '%s' is damaged: record '%s' lies beyond its data file '%s'",
			    ix->path, ix->recs[r].id, dpath);
	ix->map_len = (size_t)sb.st_size;
	ix->map = mmap(NULL, ix->map_len, PROT_READ, MAP_SHARED, fileno(f), 0);
	if (ix->map == MAP_FAILED) {
		ix->map = NULL;
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "index '%s': cannot map its data file '%s': %s", ix->path, dpath,
		    strerror(errno));
	}
	ix->vec = (const float *)((const char *)ix->map + off);
	ix->rows = rows;
	return 0;
}

/* Whether the file at path is no longer the open file f: a load renamed
 * a new index over it. */
static int
replaced(const char *path, FILE *f)
{
	struct stat now, had;

	return fstat(fileno(f), &had) == 0 &&
	    (stat(path, &now) == -1 || now.st_ino != had.st_ino || now.st_dev != had.st_dev);
}

/* One attempt at ev_mvindex_open: *again is set when it failed because a
 * load replaced the index between the reading of its file and the opening
 * of its data file (which that load then removed). */
static struct ev_mvindex *
open_once(const char *path, int *again, struct ev_err *err)
{
	struct ev_mvindex *ix = calloc(1, sizeof *ix);
	char magic[sizeof EV_MVFILE_MAGIC];
	struct ev_buf b = EV_BUF_INIT;
	FILE *f = NULL, *data = NULL;
	char *dpath = NULL;
	int nomem, gone;

	*again = 0;
	if (ix == NULL || (ix->path = strdup(path)) == NULL) {
		ev_err_nomem(err);
		goto fail;
	}
	if (ev_vfile_not_dir(path, "multi-vector index", err) == -1)
		goto fail;
	if ((f = fopen(path, "rb")) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open index '%s': %s%s", path,
		    strerror(errno), errno == ENOENT ? " (ev-mv-load makes it)" : "");
		goto fail;
	}
	if (fread(magic, 1, sizeof EV_MVFILE_MAGIC - 1, f) != sizeof EV_MVFILE_MAGIC - 1 ||
	    memcmp(magic, EV_MVFILE_MAGIC, sizeof EV_MVFILE_MAGIC - 1) != 0) {
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "not an evkit multi-vector index (ev-mv-load makes them)");
		goto fail;
	}
	if (read_line(f, &b, HEADER_MAX, &nomem) != 1) {
		if (nomem)
			ev_err_nomem(err);
		else
			damaged(path, "its header", err);
		goto fail;
	}
	if (parse_header(ix, &b, err) == -1)
		goto fail;
	/* The data file is opened at once, so that a load finishing while the
	 * records and the Faiss index are read cannot take it away. */
	if ((data = open_data(ix, &dpath, &gone, err)) == NULL) {
		*again = gone && replaced(path, f);
		goto fail;
	}
	if (read_records(ix, f, err) == -1)
		goto fail;
	if (faiss_read_index(f, 0, &ix->idx) != 0) {
		ix->idx = NULL;
		if (ev_vfaiss_oom())
			ev_err_nomem(err);
		else
			damaged(path, "its Faiss data is cut short or corrupt", err);
		goto fail;
	}
	if (faiss_Index_d(ix->idx) != ix->dim || faiss_Index_ntotal(ix->idx) != ix->nvec) {
		damaged(path, "its header does not match its Faiss index", err);
		goto fail;
	}
	if (map_data(ix, data, dpath, err) == -1)
		goto fail;
	fclose(data);
	fclose(f);
	free(dpath);
	ev_buf_release(&b);
	return ix;
fail:
	free(dpath);
	if (data)
		fclose(data);
	if (f)
		fclose(f);
	ev_buf_release(&b);
	index_free(ix);
	return NULL;
}

struct ev_mvindex *
ev_mvindex_open(const char *path, struct ev_err *err)
{
	struct ev_mvindex *ix;
	int again;

	/* Each retry follows a load that committed meanwhile; loads take
	 * seconds, so a few retries are never all spent on them. */
	for (int tries = 0;; tries++) {
		struct ev_err e = { 0 };
		if ((ix = open_once(path, &again, &e)) != NULL || !again || tries == 8) {
			if (ix == NULL)
				*err = e;
			return ix;
		}
	}
}

void
ev_mvindex_close(struct ev_mvindex *ix)
{
	index_free(ix);
}

int ev_mvindex_dim(const struct ev_mvindex *ix) { return (int)ix->dim; }
long long ev_mvindex_records(const struct ev_mvindex *ix) { return ix->nrec; }
long long ev_mvindex_vectors(const struct ev_mvindex *ix) { return ix->nvec; }
const char *ev_mvindex_model(const struct ev_mvindex *ix) { return ix->model; }
const char *ev_mvindex_lane(const struct ev_mvindex *ix) { return ix->lane; }
const char *ev_mvindex_factory(const struct ev_mvindex *ix) { return ix->factory; }
int ev_mvindex_factory_given(const struct ev_mvindex *ix) { return ix->factory_given; }

const char *
ev_mvindex_id(const struct ev_mvindex *ix, long long r)
{
	return ix->recs[r].id;
}

const float *
ev_mvindex_record(const struct ev_mvindex *ix, long long r, long long *n)
{
	*n = ix->recs[r].count;
	return ix->vec + ix->recs[r].offset * ix->dim;
}

json_t *
ev_mvindex_fields(const struct ev_mvindex *ix, long long r, struct ev_err *err)
{
	json_t *o = json_loads(ix->lines + ix->line_at[r], 0, NULL);

	if (o == NULL || json_object_del(o, "offset") == -1 || json_object_del(o, "count") == -1) {
		json_decref(o);
		ev_err_nomem(err);
		return NULL;
	}
	return o;
}

long long
ev_mvindex_find(const struct ev_mvindex *ix, const char *id)
{
	long long lo = 0, hi = ix->nrec;

	while (lo < hi) {
		long long mid = lo + (hi - lo) / 2;
		int c = strcmp(ix->recs[mid].id, id);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int
ev_mvindex_set_param(struct ev_mvindex *ix, const char *name, double value, struct ev_err *err)
{
	return ev_vfaiss_param(&ix->ps, ix->idx, name, value, err);
}

int
ev_mvindex_search(struct ev_mvindex *ix, long long nq, const float *q, int k, float *scores,
	int64_t *recs, struct ev_err *err)
{
	if (faiss_Index_search(ix->idx, nq, q, k, scores, (idx_t *)recs) != 0)
		return ev_mvfile_faiss_fail(err, "searching the index");
	return 0;
}
