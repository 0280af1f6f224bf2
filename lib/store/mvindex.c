/* mvindex.c: the multi-vector index: records, mapped token vectors, and a
 * Faiss index over the tokens.  See mvindex.h. */
#include "mvindex.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/index_io_c.h>

#include "buf.h"
#include "jscan.h"
#include "jsonl.h"
#include "uuid.h"
#include "vecinput.h"
#include "hitfields.h"
#include "vfile.h"

#define MAGIC "evkit-mvindex 1\n"
#define HEADER_MAX 65536	/* bytes of the header line */
#define NPY_HEADER 128		/* bytes of the data file's .npy header, padded */
#define ADD_BATCH 65536		/* token vectors handed to Faiss at a time */
#define TRAIN_MAX 262144	/* token vectors a training samples at most */
#define GEN_CHARS 12		/* characters of the generation in the data file's name */

/* One record of an index, or of a load. */
struct rec {
	char *id;
	long long offset;	/* first row in the data file */
	long long count;	/* rows */
	char *fields;		/* a load's: the record's other members as JSON text
				 * without braces ("" for none) */
	long long seq;		/* a load's: the order records were staged in */
	long long old;		/* a load's: the old index's record number, or -1 */
};

struct ev_mvindex {
	char *path;
	long long dim, nrec, nvec;
	char *model, *lane, *factory, *data, *generation;
	int factory_given;	/* the factory was chosen by a user, not by size */
	struct rec *recs;	/* in id order */
	char *lines;		/* the record lines, NUL-separated */
	size_t *line_at;	/* record r's line: lines + line_at[r] */
	FaissIndex *idx;
	FaissParameterSpace *ps;
	void *map;		/* the data file */
	size_t map_len;
	const float *vec;	/* its first row */
	long long rows;
};

static char *
xstrdup(const char *s, struct ev_err *err)
{
	char *d = strdup(s);

	if (d == NULL)
		ev_err_nomem(err);
	return d;
}

static int
faiss_fail(struct ev_err *err, const char *what)
{
	if (strcmp(ev_vfile_faiss_error(), "out of memory") == 0)
		return ev_err_nomem(err);
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "%s: %s", what, ev_vfile_faiss_error());
}

/* The file name `name` in the directory of path (malloc'd). */
static char *
beside(const char *path, const char *name, struct ev_err *err)
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

void
ev_mvindex_default_factory(long long n, long long dim, char *buf, size_t size)
{
	long long lists = 16;

	if (n <= EV_MVINDEX_FLAT_MAX) {
		snprintf(buf, size, "IDMap,Flat");
		return;
	}
	while (lists * 2 <= sqrt((double)n) / 2 && lists < 65536)
		lists *= 2;
	if (dim % 4 == 0)
		snprintf(buf, size, "IVF%lld,PQ%lld", lists, dim / 4);
	else
		snprintf(buf, size, "IVF%lld,SQ8", lists);
}

int
ev_mvindex_lane_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > EV_MVINDEX_LANE_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

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

	return s ? xstrdup(s, err) : NULL;
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
	if ((*dpath = beside(ix->path, ix->data, err)) == NULL)
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
	char magic[sizeof MAGIC];
	struct ev_buf b = EV_BUF_INIT;
	struct stat sb;
	FILE *f = NULL, *data = NULL;
	char *dpath = NULL;
	int nomem, gone;

	*again = 0;
	if (ix == NULL || (ix->path = strdup(path)) == NULL) {
		ev_err_nomem(err);
		goto fail;
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "is a directory, not an evkit multi-vector index; --index takes a file");
		goto fail;
	}
	if ((f = fopen(path, "rb")) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open index '%s': %s%s", path,
		    strerror(errno), errno == ENOENT ? " (ev-mv-load makes it)" : "");
		goto fail;
	}
	if (fread(magic, 1, sizeof MAGIC - 1, f) != sizeof MAGIC - 1 ||
	    memcmp(magic, MAGIC, sizeof MAGIC - 1) != 0) {
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
		if (strcmp(ev_vfile_faiss_error(), "out of memory") == 0)
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
	return ev_vfile_faiss_param(&ix->ps, ix->idx, name, value, err);
}

int
ev_mvindex_search(struct ev_mvindex *ix, long long nq, const float *q, int k, float *scores,
	int64_t *recs, struct ev_err *err)
{
	if (faiss_Index_search(ix->idx, nq, q, k, scores, (idx_t *)recs) != 0)
		return faiss_fail(err, "searching the index");
	return 0;
}

/* ---- Loading ------------------------------------------------------------- */

struct ev_mvload {
	char *path;
	struct ev_mvload_opts o;
	struct ev_mvindex *old;	/* the index loaded into, or NULL */
	char *model;
	long long dim;
	char generation[EV_UUID_LEN + 1];
	char *data_name, *data_path;	/* the new data file */
	FILE *data;
	long long rows;		/* rows written to it */
	struct rec *st;		/* staged records */
	size_t nst, cap;
	int committed;
	int lock;		/* PATH.lock, held (flock) from begin to free */
};

/* Whether the file at path may be made the index: missing, empty, or an
 * index.  Sets *exists.  Returns 0 or -1. */
static int
claimable(const char *path, int *exists, struct ev_err *err)
{
	char magic[sizeof MAGIC];
	struct stat sb;
	size_t n;
	FILE *f;

	*exists = 0;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return ev_err_set(err, EV_EXIT_USAGE, path,
		    "is a directory, not an evkit multi-vector index; --index takes a file");
	if ((f = fopen(path, "rb")) == NULL) {
		if (errno == ENOENT)
			return 0;
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open index '%s': %s", path,
		    strerror(errno));
	}
	n = fread(magic, 1, sizeof MAGIC - 1, f);
	fclose(f);
	if (n == 0)
		return 0;
	if (n != sizeof MAGIC - 1 || memcmp(magic, MAGIC, n) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, path,
		    "not an evkit multi-vector index; give a new file name or remove it");
	*exists = 1;
	return 0;
}

/* Lock (flock) the directory holding the index, so that loads of one index
 * follow each other: each then reads the index the one before wrote, and
 * may remove the data files that no index names.  (The index file itself is
 * replaced at every load, so it cannot hold the lock.)  Returns 0 or -1. */
static int
lock_index(struct ev_mvload *ld, struct ev_err *err)
{
	const char *slash = strrchr(ld->path, '/');
	char *dir = slash ? strndup(ld->path, (size_t)(slash - ld->path) + 1) : strdup(".");

	if (dir == NULL)
		return ev_err_nomem(err);
	if ((ld->lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    flock(ld->lock, LOCK_EX) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot lock the directory '%s' of index '%s': %s",
		    dir, ld->path, strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
}

/* Whether name is a file a load of the index whose file is called base
 * writes: a data file (base.XXXXXXXX-XXX.npy) or a temporary index file
 * (base.tmp.PID). */
static int
is_load_file(const char *name, const char *base)
{
	size_t bl = strlen(base);
	const char *p = name + bl + 1;

	if (strncmp(name, base, bl) != 0 || name[bl] != '.')
		return 0;
	if (strncmp(p, "tmp.", 4) == 0 && p[4] != '\0' && strspn(p + 4, "0123456789") == strlen(p + 4))
		return 1;
	if (strlen(p) != GEN_CHARS + 4 || strcmp(p + GEN_CHARS, ".npy") != 0)
		return 0;
	for (int i = 0; i < GEN_CHARS; i++)
		if (!strchr("0123456789abcdef-", p[i]))
			return 0;
	return 1;
}

/* Remove the data files of the index at ld->path that it no longer names
 * (the previous load's, and those of loads killed before their end) and
 * the temporary files of killed loads (the directory's lock keeps other
 * loads of this index out). */
static void
remove_stale(struct ev_mvload *ld)
{
	const char *slash = strrchr(ld->path, '/');
	const char *base = slash ? slash + 1 : ld->path;
	char *dir = slash ? strndup(ld->path, (size_t)(slash - ld->path) + 1) : strdup("./");
	struct dirent *e;
	DIR *d;

	if (dir == NULL || (d = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char *p;
		if (!is_load_file(e->d_name, base) || strcmp(e->d_name, ld->data_name) == 0)
			continue;
		if ((p = malloc(strlen(dir) + strlen(e->d_name) + 1)) != NULL) {
			strcpy(p, dir);
			strcat(p, e->d_name);
			unlink(p);
			free(p);
		}
	}
	closedir(d);
	free(dir);
}

struct ev_mvload *
ev_mvload_begin(const char *path, const struct ev_mvload_opts *opts, struct ev_err *err)
{
	struct ev_mvload *ld = calloc(1, sizeof *ld);
	char name[64];
	const char *base;
	int exists, fd;

	if (ld == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	ld->lock = -1;
	if ((ld->path = strdup(path)) == NULL) {
		ev_err_nomem(err);
		goto fail;
	}
	ld->o = *opts;
	if (lock_index(ld, err) == -1 || claimable(path, &exists, err) == -1)
		goto fail;
	if (exists) {
		struct ev_err oe = { 0 };
		if ((ld->old = ev_mvindex_open(path, &oe)) == NULL) {
			if (!opts->reset || oe.code == EV_EXIT_USAGE) {
				*err = oe;
				if (oe.code != EV_EXIT_USAGE)
					snprintf(err->msg + strlen(err->msg),
					    sizeof err->msg - strlen(err->msg),
					    "; --reset builds it anew from the records given");
				goto fail;
			}
		} else if (!opts->reset) {
			ld->dim = ld->old->dim;
			if ((ld->model = xstrdup(ld->old->model, err)) == NULL)
				goto fail;
		}
	}
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	/* A new generation, and a data file of a name not taken (the old
	 * index's, when generations repeat: EV_UUID_SEED in tests). */
	for (int tries = 0;; tries++) {
		free(ld->data_name);
		free(ld->data_path);
		ld->data_name = ld->data_path = NULL;
		if (ev_uuid_v4(ld->generation, err) == -1)
			goto fail;
		snprintf(name, sizeof name, ".%.*s.npy", GEN_CHARS, ld->generation);
		if ((ld->data_name = malloc(strlen(base) + strlen(name) + 1)) == NULL) {
			ev_err_nomem(err);
			goto fail;
		}
		strcpy(ld->data_name, base);
		strcat(ld->data_name, name);
		if ((ld->data_path = beside(path, ld->data_name, err)) == NULL)
			goto fail;
		if ((fd = open(ld->data_path, O_WRONLY | O_CREAT | O_EXCL, 0644)) != -1 ||
		    errno != EEXIST || tries == 16)
			break;
	}
	if (fd == -1 || (ld->data = fdopen(fd, "wb")) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create '%s': %s", ld->data_path,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		free(ld->data_path);
		ld->data_path = NULL;	/* not ours to remove */
		goto fail;
	}
	if (fseek(ld->data, NPY_HEADER, SEEK_SET) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", ld->data_path,
		    strerror(errno));
		goto fail;
	}
	return ld;
fail:
	ev_mvload_free(ld);
	return NULL;
}

long long ev_mvload_count(const struct ev_mvload *ld) { return (long long)ld->nst; }
long long ev_mvload_dim(const struct ev_mvload *ld) { return ld->dim; }
const char *ev_mvload_model(const struct ev_mvload *ld) { return ld->model; }

/* rec's members other than id, vectors, offset and count as JSON text
 * without braces (malloc'd).  Returns NULL with *err set. */
static char *
fields_text(const json_t *rec, struct ev_err *err)
{
	static const char *const drop[] = { "id", "vectors", "offset", "count", "model" };
	json_t *o = json_object();
	const char *key;
	json_t *v;
	char *s = NULL;

	if (o == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	json_object_foreach((json_t *)rec, key, v) {
		size_t i;
		for (i = 0; i < sizeof drop / sizeof *drop; i++)
			if (strcmp(key, drop[i]) == 0)
				break;
		if (i < sizeof drop / sizeof *drop)
			continue;
		if (json_object_set(o, key, v) == -1)
			goto out;
	}
	if ((s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17))) != NULL) {
		size_t n = strlen(s);
		memmove(s, s + 1, n - 2);	/* "{...}" -> "..." */
		s[n - 2] = '\0';
	}
out:
	json_decref(o);
	if (s == NULL)
		ev_err_nomem(err);
	return s;
}

int
ev_mvload_add(struct ev_mvload *ld, const json_t *rec, const char *model, const float *v,
	long long n, long long dim, const char *where, struct ev_err *err)
{
	const char *id = json_string_value(json_object_get(rec, "id"));
	struct rec *r;
	long long i;

	if (id == NULL || id[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "record has no string 'id'");
	if (n < 1 || n > EV_MVINDEX_RECORD_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "record '%s' has %lld vectors (1 to %d are accepted)", id, n,
		    EV_MVINDEX_RECORD_MAX);
	if (dim < 1 || dim > EV_MVINDEX_DIM_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "vectors have %lld dimensions (1 to %d are accepted)", dim, EV_MVINDEX_DIM_MAX);
	if (ld->dim && dim != ld->dim)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "vectors have %lld dimensions, the index %lld", dim, ld->dim);
	if (model == NULL || model[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "record has no field 'model' (give --model ID for such records)");
	if (ld->model && strcmp(model, ld->model) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "vectors of model '%s', the index's are of '%s' (--reset replaces them all)",
		    model, ld->model);
	for (i = 0; i < n * dim; i++)
		if (!isfinite(v[i]))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "vector %lld of record '%s' has a number that is not finite", i / dim + 1,
			    id);
	if (ev_grow(&ld->st, &ld->cap, ld->nst, sizeof *ld->st, 256) == -1)
		return ev_err_nomem(err);
	r = &ld->st[ld->nst];
	memset(r, 0, sizeof *r);
	if ((r->id = xstrdup(id, err)) == NULL)
		return -1;
	if ((r->fields = fields_text(rec, err)) == NULL ||
	    (ld->model == NULL && (ld->model = xstrdup(model, err)) == NULL)) {
		free(r->id);
		free(r->fields);
		return -1;
	}
	if (fwrite(v, sizeof *v, (size_t)(n * dim), ld->data) != (size_t)(n * dim)) {
		free(r->id);
		free(r->fields);
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", ld->data_path,
		    strerror(errno));
	}
	ld->dim = dim;
	r->offset = ld->rows;
	r->count = n;
	r->seq = (long long)ld->nst;
	r->old = -1;
	ld->rows += n;
	ld->nst++;
	return 0;
}

static int
cmp_staged(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The records of the new index, in id order: the staged ones (the last of
 * each id) merged with the old index's not replaced.  Old records' vectors
 * are appended to the data file.  Returns the array (malloc'd; ids and
 * fields borrowed from the staged records, or owned when old >= 0) with *n,
 * or NULL with *err set. */
static struct rec *
merge(struct ev_mvload *ld, size_t *n, struct ev_mvload_stats *stats, struct ev_err *err)
{
	const struct ev_mvindex *old = ld->o.reset ? NULL : ld->old;
	long long nold = old ? old->nrec : 0, j = 0;
	struct rec *out;
	size_t i, m = 0;

	if (ld->nst > 0)	/* qsort() of NULL is undefined, even for 0 */
		qsort(ld->st, ld->nst, sizeof *ld->st, cmp_staged);
	if ((out = calloc(ld->nst + (size_t)nold + 1, sizeof *out)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	for (i = 0; i < ld->nst || j < nold;) {
		int c;
		if (i < ld->nst && i + 1 < ld->nst && strcmp(ld->st[i].id, ld->st[i + 1].id) == 0) {
			i++;	/* staged again later: the last wins */
			continue;
		}
		c = i == ld->nst ? 1 : j == nold ? -1 : strcmp(ld->st[i].id, old->recs[j].id);
		if (c <= 0) {
			out[m++] = ld->st[i++];
			if (c == 0) {
				j++;
				stats->replaced++;
			} else {
				stats->added++;
			}
			continue;
		}
		/* an old record kept: its vectors copied into the new data file */
		{
			const struct rec *o = &old->recs[j];
			json_t *f = ev_mvindex_fields(old, j, err);
			size_t cnt = (size_t)(o->count * ld->dim);
			if (f == NULL)
				goto fail;
			out[m].id = o->id;
			out[m].old = j;
			out[m].offset = ld->rows;
			out[m].count = o->count;
			out[m].fields = fields_text(f, err);
			json_decref(f);
			if (out[m].fields == NULL)
				goto fail;
			m++;
			if (fwrite(old->vec + o->offset * ld->dim, sizeof(float), cnt, ld->data) != cnt) {
				ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s",
				    ld->data_path, strerror(errno));
				goto fail;
			}
			ld->rows += o->count;
			stats->kept++;
			j++;
		}
	}
	*n = m;
	return out;
fail:
	for (i = 0; i < m; i++)
		if (out[i].old >= 0)
			free(out[i].fields);
	free(out);
	return NULL;
}

/* Complete the data file: its .npy header, synced and closed.  Returns 0
 * or -1. */
static int
data_finish(struct ev_mvload *ld, struct ev_err *err)
{
	char hdr[NPY_HEADER];
	int n;

	memset(hdr, ' ', sizeof hdr);
	memcpy(hdr, "\x93NUMPY\x01\x00", 8);
	hdr[8] = (char)(NPY_HEADER - 10);
	hdr[9] = 0;
	n = snprintf(hdr + 10, sizeof hdr - 10,
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (%lld, %lld), }", ld->rows, ld->dim);
	hdr[10 + n] = ' ';
	hdr[NPY_HEADER - 1] = '\n';
	if (fseek(ld->data, 0, SEEK_SET) == -1 || fwrite(hdr, 1, sizeof hdr, ld->data) != sizeof hdr ||
	    fflush(ld->data) == EOF || fsync(fileno(ld->data)) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", ld->data_path,
		    strerror(errno));
		return -1;
	}
	if (fclose(ld->data) == EOF) {
		ld->data = NULL;
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", ld->data_path,
		    strerror(errno));
	}
	ld->data = NULL;
	return 0;
}

/* Build the Faiss index over the records' vectors in the mapped data. */
static FaissIndex *
build(struct ev_mvload *ld, const char *factory, const struct rec *recs, size_t n,
	long long total, const float *vec, struct ev_err *err)
{
	FaissIndex *idx = NULL;
	float *x = NULL;
	idx_t *xid = NULL;
	long long fill = 0;
	size_t i;

	if (ev_vfile_faiss_new((int)ld->dim, factory, &idx, err) == -1)
		return NULL;
	if (!faiss_Index_is_trained(idx)) {
		/* A sample spread evenly over every vector. */
		long long want = total < TRAIN_MAX ? total : TRAIN_MAX, got = 0, seen = 0;
		if ((x = malloc((size_t)(want * ld->dim) * sizeof *x)) == NULL) {
			ev_err_nomem(err);
			goto fail;
		}
		for (i = 0; i < n && got < want; i++)
			for (long long t = 0; t < recs[i].count && got < want; t++, seen++)
				if (seen * want / total == got) {
					memcpy(x + got * ld->dim, vec + (recs[i].offset + t) * ld->dim,
					    (size_t)ld->dim * sizeof *x);
					got++;
				}
		if (faiss_Index_train(idx, (idx_t)got, x) != 0) {
			faiss_fail(err, "training the index");
			goto fail;
		}
		free(x);
		x = NULL;
	}
	if ((x = malloc((size_t)(ADD_BATCH * ld->dim) * sizeof *x)) == NULL ||
	    (xid = malloc(ADD_BATCH * sizeof *xid)) == NULL) {
		ev_err_nomem(err);
		goto fail;
	}
	for (i = 0; i <= n; i++) {
		long long t = 0;
		while (i < n && t < recs[i].count) {
			long long take = recs[i].count - t;
			if (take > ADD_BATCH - fill)
				take = ADD_BATCH - fill;
			memcpy(x + fill * ld->dim, vec + (recs[i].offset + t) * ld->dim,
			    (size_t)(take * ld->dim) * sizeof *x);
			for (long long u = 0; u < take; u++)
				xid[fill + u] = (idx_t)i;
			fill += take;
			t += take;
			if (fill == ADD_BATCH) {
				if (faiss_Index_add_with_ids(idx, fill, x, xid) != 0) {
					faiss_fail(err, "adding vectors to the index");
					goto fail;
				}
				fill = 0;
			}
		}
		if (i == n && fill > 0 && faiss_Index_add_with_ids(idx, fill, x, xid) != 0) {
			faiss_fail(err, "adding vectors to the index");
			goto fail;
		}
	}
	free(x);
	free(xid);
	return idx;
fail:
	free(x);
	free(xid);
	faiss_Index_free(idx);
	return NULL;
}

/* Write the index file to a temporary name beside ld->path, synced.
 * Returns the name (malloc'd) or NULL with *err set. */
static char *
write_index(struct ev_mvload *ld, const char *factory, int factory_given, const char *lane,
	const struct rec *recs, size_t n, long long total, const FaissIndex *idx,
	struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT;
	char *tmp = NULL;
	FILE *f;
	int bad = 0;

	f = ev_vfile_create_tmp(ld->path, MAGIC, json_pack("{s:s,s:I,s:I,s:I,s:s,s:s,s:s,s:b,s:s,"
	    "s:s,s:I}", "generation", ld->generation, "dim", (json_int_t)ld->dim,
	    "records", (json_int_t)n, "vectors", (json_int_t)total, "model", ld->model, "lane", lane,
	    "factory", factory, "factory_given", factory_given, "metric", "inner_product",
	    "data", ld->data_name, "data_bytes", (json_int_t)(NPY_HEADER + ld->rows * ld->dim * 4)),
	    &tmp, err);
	if (f == NULL)
		return NULL;
	for (size_t i = 0; i < n && !bad; i++) {
		ev_buf_reset(&b);
		if (ev_buf_adds(&b, "{\"id\":") == -1 ||
		    ev_jscan_put_str(&b, recs[i].id, strlen(recs[i].id)) == -1 ||
		    ev_buf_printf(&b, ",\"offset\":%lld,\"count\":%lld%s%s}\n", recs[i].offset,
			recs[i].count, recs[i].fields[0] ? "," : "", recs[i].fields) == -1) {
			ev_err_nomem(err);
			goto fail;
		}
		bad = fwrite(b.p, 1, b.len, f) != b.len;
	}
	errno = 0;
	if (bad || faiss_write_index(idx, f) != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s", tmp,
		    errno ? strerror(errno) : ev_vfile_faiss_error());
		goto fail;
	}
	if (ev_vfile_close_tmp(f, tmp, err) == -1) {
		f = NULL;
		goto fail;
	}
	ev_buf_release(&b);
	return tmp;
fail:
	ev_vfile_discard_tmp(f, tmp);
	ev_buf_release(&b);
	return NULL;
}

int
ev_mvload_commit(struct ev_mvload *ld, struct ev_mvload_stats *stats, struct ev_err *err)
{
	const struct ev_mvindex *old = ld->o.reset ? NULL : ld->old;
	struct rec *recs = NULL;
	size_t n = 0, i;
	FaissIndex *idx = NULL;
	void *map = MAP_FAILED;
	size_t map_len = 0;
	char factory[256], lane[EV_MVINDEX_LANE_MAX + 1], *tmp = NULL;
	int factory_given, fd = -1, ret = -1;
	long long total = 0;

	memset(stats, 0, sizeof *stats);
	if (ld->nst == 0 && old == NULL)
		return 0;	/* nothing to write */
	if ((recs = merge(ld, &n, stats, err)) == NULL)
		goto out;
	for (i = 0; i < n; i++)
		total += recs[i].count;
	if (data_finish(ld, err) == -1)
		goto out;
	if (ld->o.factory != NULL) {
		snprintf(factory, sizeof factory, "%s", ld->o.factory);
		factory_given = 1;
	} else if (old != NULL && old->factory_given) {
		snprintf(factory, sizeof factory, "%s", old->factory);
		factory_given = 1;
	} else {
		ev_mvindex_default_factory(total, ld->dim, factory, sizeof factory);
		factory_given = 0;
	}
	snprintf(lane, sizeof lane, "%s", ld->o.lane ? ld->o.lane :
	    ld->old ? ld->old->lane : EV_MVINDEX_LANE_DEFAULT);
	map_len = NPY_HEADER + (size_t)(ld->rows * ld->dim) * sizeof(float);
	if ((fd = open(ld->data_path, O_RDONLY)) == -1 ||
	    (map = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot map '%s': %s", ld->data_path,
		    strerror(errno));
		goto out;
	}
	madvise(map, map_len, MADV_SEQUENTIAL);
	if ((idx = build(ld, factory, recs, n, total, (const float *)((char *)map + NPY_HEADER),
	    err)) == NULL)
		goto out;
	if ((tmp = write_index(ld, factory, factory_given, lane, recs, n, total, idx, err)) == NULL)
		goto out;
	if (rename(tmp, ld->path) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot rename '%s' to '%s': %s", tmp, ld->path,
		    strerror(errno));
		unlink(tmp);
		goto out;
	}
	ld->committed = 1;
	ev_vfile_sync_dir(ld->path);
	/* The old data file goes (readers that have it mapped keep it). */
	remove_stale(ld);
	stats->records = (long long)n;
	stats->vectors = total;
	snprintf(stats->factory, sizeof stats->factory, "%s", factory);
	snprintf(stats->lane, sizeof stats->lane, "%s", lane);
	ret = 0;
out:
	if (map != MAP_FAILED)
		munmap(map, map_len);
	if (fd != -1)
		close(fd);
	if (idx)
		faiss_Index_free(idx);
	free(tmp);
	for (i = 0; i < n; i++)
		if (recs[i].old >= 0)
			free(recs[i].fields);
	free(recs);
	return ret;
}

void
ev_mvload_free(struct ev_mvload *ld)
{
	if (ld == NULL)
		return;
	if (ld->data)
		fclose(ld->data);
	if (!ld->committed && ld->data_path)
		unlink(ld->data_path);
	for (size_t i = 0; i < ld->nst; i++) {
		free(ld->st[i].id);
		free(ld->st[i].fields);
	}
	free(ld->st);
	ev_mvindex_close(ld->old);
	if (ld->lock != -1)
		close(ld->lock);
	free(ld->model);
	free(ld->data_name);
	free(ld->data_path);
	free(ld->path);
	free(ld);
}
