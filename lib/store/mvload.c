/* mvload.c: loading records into the multi-vector index: vectors into a
 * new data file, the old index's records kept merged in, a Faiss index
 * built over every token vector, the index file renamed into place.  See
 * mvload.h; mvindex.c reads the index. */
#include "mvload.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>

#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/index_io_c.h>

#include "buf.h"
#include "jscan.h"
#include "mvfile.h"
#include "uuid.h"
#include "vfaiss.h"

#define NPY_HEADER 128		/* bytes of the data file's .npy header, padded */
#define ADD_BATCH 65536		/* token vectors handed to Faiss at a time */
#define TRAIN_MAX 262144	/* token vectors a training samples at most */
#define GEN_CHARS 12		/* characters of the generation in the data file's name */

/* A record of the new index: one staged by ev_mvload_add(), or one of the
 * old index kept. */
struct load_record {
	char *id;
	long long offset;	/* first row in the new data file */
	long long count;	/* rows */
	char *fields;		/* the record's other members as JSON text without
				 * braces ("" for none) */
	long long seq;		/* the order records were staged in */
	long long old;		/* the old index's record number, or -1 */
};

void
ev_mvload_default_factory(long long n, long long dim, char *buf, size_t size)
{
	long long lists = 16;

	if (n <= EV_MVLOAD_FLAT_MAX) {
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
	struct load_record *st;		/* staged records */
	size_t nst, cap;
	int committed;
	int lock;		/* PATH.lock, held (flock) from begin to free */
};

/* Whether the file at path may be made the index: missing, empty, or an
 * index.  Sets *exists.  Returns 0 or -1. */
static int
claimable(const char *path, int *exists, struct ev_err *err)
{
	char magic[sizeof EV_MVFILE_MAGIC];
	size_t n;
	FILE *f;
	int opened;

	*exists = 0;
	if ((opened = ev_vfile_open_existing(path, "multi-vector index", &f, err)) != 1)
		return opened;
	n = fread(magic, 1, sizeof EV_MVFILE_MAGIC - 1, f);
	fclose(f);
	if (n == 0)
		return 0;
	if (n != sizeof EV_MVFILE_MAGIC - 1 || memcmp(magic, EV_MVFILE_MAGIC, n) != 0)
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
			ld->dim = ev_mvindex_dim(ld->old);
			if ((ld->model = ev_mvfile_strdup(ev_mvindex_model(ld->old), err)) == NULL)
				goto fail;
		}
	}
	/* A bad factory refused before anything is read or written (at the
	 * index's dimension when there is one: else again at the commit). */
	if (opts->factory != NULL && ev_vfaiss_factory_check(opts->factory, ld->dim, err) == -1)
		goto fail;
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
		if ((ld->data_path = ev_mvfile_beside(path, ld->data_name, err)) == NULL)
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
	struct load_record *r;
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
	if ((r->id = ev_mvfile_strdup(id, err)) == NULL)
		return -1;
	if ((r->fields = fields_text(rec, err)) == NULL ||
	    (ld->model == NULL && (ld->model = ev_mvfile_strdup(model, err)) == NULL)) {
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
	const struct load_record *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The records of the new index, in id order: the staged ones (the last of
 * each id) merged with the old index's not replaced.  Old records' vectors
 * are appended to the data file.  Returns the array (malloc'd: a staged
 * record's id and fields borrowed from it; a kept one's id borrowed from the
 * old index, its fields owned) with *n, or NULL with *err set. */
static struct load_record *
merge(struct ev_mvload *ld, size_t *n, struct ev_mvload_stats *stats, struct ev_err *err)
{
	const struct ev_mvindex *old = ld->o.reset ? NULL : ld->old;
	long long nold = old ? ev_mvindex_records(old) : 0, j = 0;
	struct load_record *out;
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
		c = i == ld->nst ? 1 : j == nold ? -1 : strcmp(ld->st[i].id, ev_mvindex_id(old, j));
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
			long long count;
			const float *vec = ev_mvindex_record(old, j, &count);
			json_t *f = ev_mvindex_fields(old, j, err);
			size_t cnt = (size_t)(count * ld->dim);
			if (f == NULL)
				goto fail;
			out[m].id = (char *)ev_mvindex_id(old, j);	/* borrowed */
			out[m].old = j;
			out[m].offset = ld->rows;
			out[m].count = count;
			out[m].fields = fields_text(f, err);
			json_decref(f);
			if (out[m].fields == NULL)
				goto fail;
			m++;
			if (fwrite(vec, sizeof(float), cnt, ld->data) != cnt) {
				ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write '%s': %s",
				    ld->data_path, strerror(errno));
				goto fail;
			}
			ld->rows += count;
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
build(struct ev_mvload *ld, const char *factory, const struct load_record *recs, size_t n,
	long long total, const float *vec, struct ev_err *err)
{
	FaissIndex *idx = NULL;
	float *x = NULL;
	idx_t *xid = NULL;
	long long fill = 0;
	size_t i;

	if (ev_vfaiss_factory_fits(factory, total, err) == -1 ||
	    ev_vfaiss_new((int)ld->dim, factory, &idx, err) == -1)
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
			ev_mvfile_faiss_fail(err, "training the index");
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
					ev_mvfile_faiss_fail(err, "adding vectors to the index");
					goto fail;
				}
				fill = 0;
			}
		}
		if (i == n && fill > 0 && faiss_Index_add_with_ids(idx, fill, x, xid) != 0) {
			ev_mvfile_faiss_fail(err, "adding vectors to the index");
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
	const struct load_record *recs, size_t n, long long total, const FaissIndex *idx,
	struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT;
	char *tmp = NULL;
	FILE *f;
	int bad = 0;

	f = ev_vfile_create_tmp(ld->path, EV_MVFILE_MAGIC, json_pack("{s:s,s:I,s:I,s:I,s:s,s:s,s:s,s:b,s:s,"
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
		    errno ? strerror(errno) : ev_vfaiss_error());
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
	struct load_record *recs = NULL;
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
	} else if (old != NULL && ev_mvindex_factory_given(old)) {
		snprintf(factory, sizeof factory, "%s", ev_mvindex_factory(old));
		factory_given = 1;
	} else {
		ev_mvload_default_factory(total, ld->dim, factory, sizeof factory);
		factory_given = 0;
	}
	snprintf(lane, sizeof lane, "%s", ld->o.lane ? ld->o.lane :
	    ld->old ? ev_mvindex_lane(ld->old) : EV_MVLOAD_LANE_DEFAULT);
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
