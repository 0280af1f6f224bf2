/* mvinput.c: multi-vector records into a load.  See mvinput.h. */
#include "mvinput.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "buf.h"
#include "jsonl.h"
#include "vecinput.h"

void
ev_mvinput_release(struct ev_mvinput *R)
{
	free(R->v);
	R->v = NULL;
	R->vcap = 0;
}

/* A bad record: skipped when R->skip says so (returns 0), else -1. */
static int
bad(struct ev_mvinput *R, struct ev_err *err)
{
	if (R->skip == NULL || err->code != EV_EXIT_USAGE || !R->skip(R->ctx, err))
		return -1;
	ev_err_clear(err);
	return 0;
}

/* The record's id and model, checked, and the fields its hits carry that
 * the later stages hold to a type: doc_id, a non-empty string (ev-fuse
 * refuses a hit whose doc_id is not a string), and metadata, an object
 * (ev-pack refuses another). */
static int
common_fields(struct ev_mvinput *R, const json_t *rec, const char **model, const char *where,
	struct ev_err *err)
{
	const char *id, *doc = NULL;
	json_t *meta;

	*model = R->model;
	if (!json_is_object(rec))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    R->npy ? "an offsets record must be an object with 'id', 'offset' and 'count'" :
		    "a multi-vector record must be an object with 'id' and 'vectors'");
	if (ev_field_str(rec, "id", 1, &id, where, err) == -1 ||
	    ev_field_str(rec, "model", 0, model, where, err) == -1 ||
	    ev_field_str(rec, "doc_id", 0, &doc, where, err) == -1 ||
	    ev_field_obj(rec, "metadata", 0, &meta, where, err) == -1)
		return -1;
	if (id[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'id' is empty");
	if (doc != NULL && doc[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'doc_id' is empty");
	return 0;
}

/* Stage one JSON record {"id", "vectors", "model"}. */
static int
add_json(struct ev_mvinput *R, const json_t *rec, const char *where, struct ev_err *err)
{
	const char *model;
	json_t *vecs, *row, *x;
	size_t i, j, n, dim = 0;

	if (common_fields(R, rec, &model, where, err) == -1 ||
	    ev_field_arr(rec, "vectors", 1, &vecs, where, err) == -1)
		return -1;
	if ((n = json_array_size(vecs)) == 0)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'vectors' is empty");
	json_array_foreach(vecs, i, row) {
		if (!json_is_array(row) || json_array_size(row) == 0)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "vector %zu of field 'vectors' must be a non-empty array of numbers", i + 1);
		if (i == 0)
			dim = json_array_size(row);
		else if (json_array_size(row) != dim)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "vector %zu of field 'vectors' has %zu dimensions, the first %zu", i + 1,
			    json_array_size(row), dim);
	}
	if (n > EV_MVINDEX_RECORD_MAX || dim > EV_MVINDEX_DIM_MAX)	/* ev_mvload_add() says why */
		return ev_mvload_add(R->ld, rec, model, NULL, (long long)n, (long long)dim, where, err);
	if (ev_grow(&R->v, &R->vcap, n * dim - 1, sizeof *R->v, 1024) == -1)
		return ev_err_nomem(err);
	json_array_foreach(vecs, i, row) {
		json_array_foreach(row, j, x) {
			if (!json_is_number(x))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "component %zu of vector %zu of field 'vectors' must be a number",
				    j + 1, i + 1);
			R->v[i * dim + j] = (float)json_number_value(x);
		}
	}
	return ev_mvload_add(R->ld, rec, model, R->v, (long long)n, (long long)dim, where, err);
}

/* The mapped .npy file of a bulk load. */
struct npy {
	void *map;
	size_t len;
	const float *rows;
	long long nrows, dim;
};

static int
npy_map(const char *path, struct npy *m, struct ev_err *err)
{
	struct stat sb;
	FILE *f;
	long off;

	memset(m, 0, sizeof *m);
	if ((f = ev_input_open(path, "rb", "a .npy file", err)) == NULL)
		return -1;
	if (ev_vecinput_npy_header(f, path, &m->nrows, &m->dim, err) == -1)
		goto fail;
	if ((off = ftell(f)) < 0 || fstat(fileno(f), &sb) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot read: %s", strerror(errno));
		goto fail;
	}
	if (m->dim > EV_MVINDEX_DIM_MAX) {
		ev_err_set(err, EV_EXIT_USAGE, path, "vectors have %lld dimensions (1 to %d are accepted)",
		    m->dim, EV_MVINDEX_DIM_MAX);
		goto fail;
	}
	if (m->nrows > (long long)(sb.st_size - off) / 4 / m->dim ||
	    (long long)sb.st_size - off != m->nrows * m->dim * 4) {
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "the .npy data has %lld bytes, its shape (%lld, %lld) needs %lld",
		    (long long)sb.st_size - off, m->nrows, m->dim, m->nrows * m->dim * 4);
		goto fail;
	}
	if (sb.st_size > 0 && off % 4 == 0) {
		m->len = (size_t)sb.st_size;
		if ((m->map = mmap(NULL, m->len, PROT_READ, MAP_SHARED, fileno(f), 0)) == MAP_FAILED) {
			m->map = NULL;
			ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot map: %s", strerror(errno));
			goto fail;
		}
		madvise(m->map, m->len, MADV_SEQUENTIAL);
		m->rows = (const float *)((const char *)m->map + off);
	} else {
		ev_err_set(err, EV_EXIT_USAGE, path, "the .npy header does not end on a 4-byte boundary");
		goto fail;
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	return -1;
}

/* Stage one offsets record {"id", "offset", "count"}. */
static int
add_offsets(struct ev_mvinput *R, const struct npy *m, const json_t *rec, const char *where,
	struct ev_err *err)
{
	const char *model;
	long long off, cnt;

	if (common_fields(R, rec, &model, where, err) == -1 ||
	    ev_field_int(rec, "offset", 1, &off, where, err) == -1 ||
	    ev_field_int(rec, "count", 1, &cnt, where, err) == -1)
		return -1;
	if (off < 0 || cnt < 1 || off > m->nrows - cnt)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "rows %lld to %lld are not in '%s', which has %lld (offset from 0, count from 1)",
		    off, off + cnt - 1, R->npy, m->nrows);
	return ev_mvload_add(R->ld, rec, model, m->rows + off * m->dim, cnt, m->dim, where, err);
}

/* Read the records of paths, each staged by add_json() or, with m, by
 * add_offsets(). */
static int
read_records(struct ev_mvinput *R, const struct npy *m, char **paths, int npaths,
	struct ev_err *err)
{
	struct ev_jsonl *in;
	json_t *v;
	int r;

	if ((in = ev_jsonl_open(paths, npaths, err)) == NULL)
		return -1;
	while ((r = ev_jsonl_next(in, &v, err)) != 0) {
		if (r == 1) {
			const char *where = ev_jsonl_where(in);
			R->read++;
			r = m ? add_offsets(R, m, v, where, err) : add_json(R, v, where, err);
			if (r == 0 && R->progress)
				R->progress(R->ctx, json_integer_value(json_object_get(v, "count")));
			json_decref(v);
		}
		if (r == -1 && bad(R, err) == -1)
			break;
		r = 1;
	}
	ev_jsonl_close(in);
	return r == -1 ? -1 : 0;
}

int
ev_mvinput_read(struct ev_mvinput *R, char **paths, int npaths, struct ev_err *err)
{
	struct npy m;
	int r;

	if (R->npy == NULL)
		return read_records(R, NULL, paths, npaths, err);
	if (npy_map(R->npy, &m, err) == -1)
		return -1;
	r = read_records(R, &m, paths, npaths, err);
	if (m.map)
		munmap(m.map, m.len);
	return r;
}
