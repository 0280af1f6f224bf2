/* vecinput.c: vector records into a load of the vector index.  See vecinput.h. */
#include "vecinput.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "vecline.h"

int
ev_vecinput_format(const char *name)
{
	static const char *const names[] = { "jsonl", "fvecs", "npy" };

	for (int i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

void
ev_vecinput_release(struct ev_vecinput *L)
{
	free(L->v);
	L->v = NULL;
	L->vcap = 0;
}

static int
grow(struct ev_vecinput *L, size_t n, struct ev_err *err)
{
	if (n > L->vcap) {
		float *v = realloc(L->v, n * sizeof *v);
		if (v == NULL)
			return ev_err_nomem(err);
		L->v = v;
		L->vcap = n;
	}
	return 0;
}

/* A bad record: skipped when L->skip says so (returns 0), else -1. */
static int
bad(struct ev_vecinput *L, struct ev_err *err)
{
	if (L->skip == NULL || err->code != EV_EXIT_USAGE || !L->skip(L->ctx, err))
		return -1;
	ev_err_clear(err);
	return 0;
}

/* Stage one JSON record. */
static int
add_json(struct ev_vecinput *L, json_t *rec, const char *where, struct ev_err *err)
{
	const char *id, *model = L->model, *hash;
	json_t *vec, *x;
	size_t i, n;

	if (!json_is_object(rec))
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"a vector record must be an object with 'id' and 'vector'");
	if (ev_field_str(rec, "id", 1, &id, where, err) == -1 ||
	    ev_field_arr(rec, "vector", 1, &vec, where, err) == -1 ||
	    ev_field_str(rec, "model", 0, &model, where, err) == -1)
		return -1;
	if (model == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"record has no field 'model' (give --model ID for such records)");
	n = json_array_size(vec);
	if (grow(L, n ? n : 1, err) == -1)
		return -1;
	json_array_foreach(vec, i, x) {
		if (!json_is_number(x))
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"component %zu of field 'vector' must be a number", i);
		L->v[i] = (float)json_number_value(x);
	}
	/* the text it was made from: a string, else not said (null, as for a query) */
	hash = json_string_value(json_object_get(rec, "content_hash"));
	return ev_vload_add(L->ld, id, hash, model, L->v, (long long)n, where, err);
}

/* Read JSON Lines: the common shape by the fast reader (lib/base/vecline.h),
 * anything else through Jansson, which also words every error. */
static int
read_jsonl(struct ev_vecinput *L, char **paths, int npaths, struct ev_err *err)
{
	struct ev_vecline rec = EV_VECLINE_INIT;
	struct ev_jsonl *in;
	const char *line;
	size_t len;
	int r;

	if ((in = ev_jsonl_open(paths, npaths, err)) == NULL)
		return -1;
	while ((r = ev_jsonl_next_line(in, &line, &len, err)) == 1) {
		const char *where = ev_jsonl_where(in);
		size_t i;

		for (i = 0; i < len && strchr(" \t\r\n", line[i]) && line[i]; i++)
			;
		if (i == len)
			continue;	/* blank */
		L->read++;
		r = ev_vecline_parse(&rec, line, len);
		if (r == -1) {
			ev_err_nomem(err);
			break;
		}
		if (r == 1) {
			const char *model = rec.has_model ? rec.model : L->model;
			if (model == NULL)
				r = ev_err_set(err, EV_EXIT_USAGE, where,
					"record has no field 'model' (give --model ID for such records)");
			else
				r = ev_vload_add(L->ld, rec.id, rec.has_hash ? rec.hash : NULL, model,
					rec.v, (long long)rec.dim, where, err);
		} else {
			json_t *v = ev_json_parse_line(line, len, where, err);
			r = v ? add_json(L, v, where, err) : -1;
			json_decref(v);
		}
		if (r == -1 && bad(L, err) == -1)
			break;
		r = 1;
		if (L->progress != NULL)
			L->progress(L->ctx, (long long)len);
	}
	ev_jsonl_close(in);
	ev_vecline_release(&rec);
	return r == -1 ? -1 : 0;
}

/* The ids file: one chunk id a line; blank lines (none but spaces and tabs)
 * may end it. */
struct idfile {
	FILE *f;
	const char *path;
	char *line;
	size_t cap;
	long long lineno, nids;	/* lines and ids read */
	char where[EV_WHERE_MAX];	/* "PATH:LINE", for messages */
};

/* Set ids->where to name line lineno of the ids. */
static const char *
id_where(struct idfile *ids, long long lineno)
{
	snprintf(ids->where, sizeof ids->where, "%s:%lld", ids->path, lineno);
	return ids->where;
}

/* The next line of ids, its end of line taken off, or NULL at the file's
 * end or with *err set: a NUL byte in it (code 2), a read error (code 1). */
static char *
id_line(struct idfile *ids, struct ev_err *err)
{
	ssize_t n = getline(&ids->line, &ids->cap, ids->f);

	if (n == -1) {
		if (ferror(ids->f))
			ev_err_set(err, EV_EXIT_RUNTIME, ids->path, "read error: %s", strerror(errno));
		return NULL;
	}
	ids->lineno++;
	if (memchr(ids->line, '\0', (size_t)n) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, id_where(ids, ids->lineno),
		    "a NUL byte in a chunk id: give one chunk id a line, as text");
		return NULL;
	}
	while (n > 0 && (ids->line[n - 1] == '\n' || ids->line[n - 1] == '\r'))
		ids->line[--n] = '\0';
	return ids->line;
}

/* The next chunk id, or NULL at the end of the ids (blank lines up to the
 * file's end are its end) or with *err set: a blank line before an id
 * (code 2, at the blank line) or a read error (code 1). */
static const char *
next_id(struct idfile *ids, struct ev_err *err)
{
	long long blank = 0;
	char *id;

	while ((id = id_line(ids, err)) != NULL && ev_jsonl_blank(id, strlen(id)))
		if (blank == 0)
			blank = ids->lineno;
	if (id != NULL && blank > 0) {
		id_where(ids, blank);
		ev_err_set(err, EV_EXIT_USAGE, ids->where, "a blank line among the ids: give one "
		    "chunk id a line, in vector order (blank lines may only end the file)");
		return NULL;
	}
	ids->nids += id != NULL;
	return id;
}

/* Read n bytes; returns 1, 0 at a clean end (nothing read), -1 when cut. */
static int
read_full(FILE *f, void *p, size_t n)
{
	size_t got = fread(p, 1, n, f);

	if (got == n)
		return 1;
	return got == 0 && !ferror(f) ? 0 : -1;
}

/* The end of the Python literal at p, a string ('...' or "..."), a tuple
 * ("(...)", not nested) or a word ("False", "3"), or NULL when it has none. */
static const char *
literal_end(const char *p)
{
	const char *e;

	if (*p == '\'' || *p == '"')
		return (e = strchr(p + 1, *p)) != NULL ? e + 1 : NULL;
	if (*p == '(')
		return (e = strchr(p + 1, ')')) != NULL ? e + 1 : NULL;
	for (e = p; *e != '\0' && *e != ',' && *e != '}' && !isspace((unsigned char)*e); e++)
		;
	return e > p ? e : NULL;
}

/* The values of 'descr', 'fortran_order' and 'shape' in the .npy header
 * dictionary hdr, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 7), }",
 * as keys of the dictionary (not text inside another key's value), into
 * val[0..3) (NUL-terminated in place; NULL: absent).  Returns 0, or -1 when
 * hdr is no such dictionary or names a key twice. */
static int
npy_dict(char *hdr, char *val[3])
{
	static const char *const keys[3] = { "descr", "fortran_order", "shape" };
	char *p = hdr, *k, *ke, *ve, c;

	val[0] = val[1] = val[2] = NULL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != '{')
		return -1;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '}')
			return 0;
		if ((*p != '\'' && *p != '"') || (ke = (char *)literal_end(p)) == NULL)
			return -1;
		k = p + 1;
		for (p = ke; isspace((unsigned char)*p); p++)
			;
		if (*p++ != ':')
			return -1;
		while (isspace((unsigned char)*p))
			p++;
		if ((ve = (char *)literal_end(p)) == NULL)
			return -1;
		for (int i = 0; i < 3; i++)
			if ((size_t)(ke - 1 - k) == strlen(keys[i]) && memcmp(k, keys[i], strlen(keys[i])) == 0) {
				if (val[i] != NULL)
					return -1;
				val[i] = p;
			}
		for (p = ve; isspace((unsigned char)*p); p++)
			;
		if ((c = *p) != ',' && c != '}')
			return -1;
		*ve = '\0';	/* (perhaps over the ',' or '}', read into c) */
		if (c == '}')
			return 0;
		p++;
	}
}

/* A shape "(N, D)" (N from 0, D from 1, each in decimal) into *rows and
 * *cols.  Returns 0, or -1 when s is another (fewer or more dimensions, a
 * number past 64 bits). */
static int
npy_shape(const char *s, long long *rows, long long *cols)
{
	long long v[2];
	char *end;

	if (*s++ != '(')
		return -1;
	for (int i = 0; i < 2; i++) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v[i] = strtoll(s, &end, 10);
		if (errno != 0)
			return -1;
		for (s = end; isspace((unsigned char)*s); s++)
			;
		if (*s++ != (i == 0 ? ',' : ')'))
			return -1;
	}
	if (*s != '\0' || v[1] < 1)
		return -1;
	*rows = v[0];
	*cols = v[1];
	return 0;
}

int
ev_vecinput_npy_header(FILE *f, const char *name, long long *rows, long long *cols, struct ev_err *err)
{
	unsigned char pre[10];
	char hdr[4096], *val[3];
	size_t hlen;

	if (read_full(f, pre, 10) != 1 || memcmp(pre, "\x93NUMPY", 6) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, name, "not a .npy file");
	if (pre[6] == 1)
		hlen = pre[8] | (size_t)pre[9] << 8;
	else {
		unsigned char more[2];
		if (read_full(f, more, 2) != 1)
			return ev_err_set(err, EV_EXIT_USAGE, name, "truncated .npy header");
		hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)more[0] << 16 | (size_t)more[1] << 24;
	}
	if (hlen >= sizeof hdr || read_full(f, hdr, hlen) != 1)
		return ev_err_set(err, EV_EXIT_USAGE, name, "truncated or oversized .npy header");
	hdr[hlen] = '\0';
	if (npy_dict(hdr, val) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, name, "not a .npy header: a dictionary of "
			"'descr', 'fortran_order' and 'shape' was expected");
	if (val[0] == NULL || (strcmp(val[0], "'<f4'") != 0 && strcmp(val[0], "\"<f4\"") != 0))
		return ev_err_set(err, EV_EXIT_USAGE, name,
			".npy data must be little-endian float32 ('<f4'): %s", val[0] ? val[0] : "none");
	if (val[1] == NULL || strcmp(val[1], "False") != 0)
		return ev_err_set(err, EV_EXIT_USAGE, name, ".npy data must be in C order");
	if (val[2] == NULL || npy_shape(val[2], rows, cols) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, name, ".npy data must have shape (N, D)");
	return 0;
}

/* Read fvecs or npy inputs, the ids from --ids. */
static int
read_binary(struct ev_vecinput *L, char **paths, int npaths, struct ev_err *err)
{
	struct idfile ids = { .path = L->ids };
	char *stdin_only[] = { "-" };
	int ret = -1;

	if ((ids.f = ev_input_open(ids.path, "r", "a file of ids", err)) == NULL)
		return -1;
	if (npaths == 0) {
		paths = stdin_only;
		npaths = 1;
	}
	for (int fi = 0; fi < npaths; fi++) {
		const char *name = strcmp(paths[fi], "-") == 0 ? "stdin" : paths[fi];
		FILE *f = strcmp(paths[fi], "-") == 0 ? stdin :
		    ev_input_open(paths[fi], "rb", L->format == EV_VECINPUT_NPY ? "a .npy file" :
		    "an fvecs file", err);
		long long rows = -1, cols = 0, nrec = 0;
		char where[EV_WHERE_MAX];

		if (f == NULL)
			goto out;
		if (L->format == EV_VECINPUT_NPY && ev_vecinput_npy_header(f, name, &rows, &cols, err) == -1) {
			if (f != stdin)
				fclose(f);
			goto out;
		}
		for (;;) {
			const char *id;
			int32_t d;
			int r;

			if (L->format == EV_VECINPUT_NPY) {
				if (nrec == rows)
					break;
				d = (int32_t)(cols > INT32_MAX ? INT32_MAX : cols);
			} else {
				if ((r = read_full(f, &d, 4)) == 0)
					break;
				if (r == -1) {
					ev_err_set(err, EV_EXIT_USAGE, name, "truncated after vector %lld", nrec);
					break;
				}
			}
			nrec++;
			snprintf(where, sizeof where, "%s:%lld", name, nrec);
			if (d < 1 || d > EV_VLOAD_DIM_MAX) {
				ev_err_set(err, EV_EXIT_USAGE, where,
					"vector has %ld dimensions (1 to %d are accepted)", (long)d,
					EV_VLOAD_DIM_MAX);
				break;	/* the stream cannot be followed further */
			}
			if (grow(L, (size_t)d, err) == -1)
				break;
			if (read_full(f, L->v, (size_t)d * sizeof(float)) != 1) {
				ev_err_set(err, EV_EXIT_USAGE, where, "truncated vector");
				break;
			}
			L->read++;
			if ((id = next_id(&ids, err)) == NULL) {
				if (err->code == 0)
					ev_err_set(err, EV_EXIT_USAGE, ids.path,
						"fewer ids (%lld) than vectors", ids.nids);
				break;
			}
			if (ev_vload_add(L->ld, id, NULL, L->model, L->v, d, where, err) == -1 &&
			    bad(L, err) == -1)
				break;
			if (L->progress != NULL)
				L->progress(L->ctx, 0);
		}
		/* data past the shape: the header is not this data's */
		if (L->format == EV_VECINPUT_NPY && err->code == 0 && getc(f) != EOF)
			ev_err_set(err, EV_EXIT_USAGE, name,
				"the .npy data runs on past its shape (%lld, %lld)", rows, cols);
		if (f != stdin)
			fclose(f);
		if (err->code)
			goto out;
	}
	if (next_id(&ids, err) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, id_where(&ids, ids.lineno),
			"more ids than vectors (%lld vectors read)", L->read);
		goto out;
	}
	if (err->code == 0)
		ret = 0;
out:
	free(ids.line);
	fclose(ids.f);
	return ret;
}

int
ev_vecinput_read(struct ev_vecinput *L, char **paths, int npaths, struct ev_err *err)
{
	if (L->format == EV_VECINPUT_JSONL)
		return read_jsonl(L, paths, npaths, err);
	return read_binary(L, paths, npaths, err);
}
