/* vsearch.c: the vector lane's batches and hit records.  See vsearch.h. */
#include "vsearch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "buf.h"
#include "clock.h"
#include "hitfields.h"
#include "jscan.h"
#include "jsoncopy.h"
#include "hitcheck.h"
#include "jsonl.h"
#include "langid.h"
#include "lexicon.h"
#include "region.h"
#include "rowmemo.h"
#include "snippet.h"
#include "token.h"
#include "qfilter.h"
#include "qidset.h"
#include "worker.h"

#define OUT_CHUNK 65536		/* output is written in pieces of about this size */

/* A query waiting in the batch. */
struct query {
	json_t *rec;		/* the record, without its "vector" */
	json_t *filters;	/* borrowed from rec, or NULL */
	char where[EV_WHERE_MAX];
	int zero;		/* the vector had no direction: no hits */
	char *feedback;		/* feedback: the chunks folded in, as a JSON array, or NULL */
};

struct ev_vsearch {
	struct ev_vsearch_opts o;
	struct ev_store *st;
	struct ev_vindex *ix;
	const char *index_name;
	FILE *out;
	struct ev_tok *tok;
	struct ev_snippet *sn;	/* NULL without snippets */
	struct ev_lex *lex;	/* the stop lists, for the snippets' query words */
	int dim, batch_max, n;
	struct query *q;
	float *vec;		/* batch_max × dim: the batch's query vectors */
	float *plain;		/* the same, of the queries without filters */
	float *scores;		/* batch_max × k */
	int64_t *ids;
	struct ev_buf buf;	/* hit records not yet written */
	struct ev_buf prefix;	/* the current query's fields */
	struct ev_buf snip;	/* the current hit's snippet */
	char stamp[EV_CLOCK_STAMP_MAX];	/* when the current query's hits were retrieved */
	struct ev_buf num;	/* the current hit's score as text */
	long long hits;
	long long queries;	/* the queries whose hits were written */
	int regions;		/* the store has chunk regions (region.h): 1, 0, -1 not known */
	struct ev_buf lines;	/* a hit's chunk's lines (not written) */
	struct ev_buf meta;	/* a paged chunk's document's metadata, copied */
	struct ev_jmems metamems;	/* its members */
	json_t *fb;		/* feedback: query_id -> [[rank, chunk id], ...] best first, or NULL */
	float *fbvec;		/* feedback: a chunk's stored vector, then the sum of them */
	const char *lane;	/* "vector", or "vector_feedback" */
	struct ev_rowmemo *rows;	/* the batch's chunks read so far: their fields and text */
	char *chunk_text;	/* a chunk's text read but not kept in rows, or NULL */
	struct ev_jscan js;	/* ev_vsearch_add_line(): the line's members */
	struct ev_jmems fbmems;	/* the feedback's: those of a hit's signals, evidence */
	struct ev_buf rest;	/* ev_vsearch_add_line(): the line, its vector emptied */
	struct ev_qidset qids;	/* the ids of the queries added (qidset.h) */
	int read_ahead;		/* the store can ask for its rows' pages ahead (store.h) */
	struct ev_worker *worker;	/* asks for them beside this thread, or NULL */
	struct hits_ahead {	/* the rows a query's hits are read from, asked for ahead */
		struct ev_store *st;
		long long *rowid;
		size_t n, cap;
	} ahead;
};

struct ev_vsearch *
ev_vsearch_new(struct ev_store *st, struct ev_vindex *ix, const char *index_name,
	const struct ev_vsearch_opts *o, FILE *out, struct ev_err *err)
{
	static const struct ev_snippet_opts snip_opts = EV_SNIPPET_OPTS_INIT;
	struct ev_vsearch *vs = calloc(1, sizeof *vs);
	size_t dim = (size_t)ev_vindex_dim(ix);

	if (vs == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	vs->o = *o;
	vs->st = st;
	vs->ix = ix;
	vs->regions = -1;
	vs->lane = "vector";
	vs->index_name = index_name;
	vs->out = out;
	vs->dim = (int)dim;
	vs->batch_max = EV_VSEARCH_BATCH_CELLS / (o->k > 0 ? o->k : 1);
	if (vs->batch_max > EV_VSEARCH_BATCH_MAX)
		vs->batch_max = EV_VSEARCH_BATCH_MAX;
	if (vs->batch_max < 1)
		vs->batch_max = 1;
	if (o->snippet && ((vs->tok = ev_tok_open(ev_store_db(st), err)) == NULL ||
	    (vs->sn = ev_snippet_new(vs->tok, &snip_opts, err)) == NULL ||
	    (vs->lex = ev_lex_open(NULL, err)) == NULL)) {
		ev_vsearch_free(vs);
		return NULL;
	}
	vs->rows = ev_rowmemo_new(EV_VSEARCH_ROWS_BYTES);
	vs->q = calloc((size_t)vs->batch_max, sizeof *vs->q);
	vs->vec = malloc((size_t)vs->batch_max * dim * sizeof *vs->vec);
	vs->plain = malloc((size_t)vs->batch_max * dim * sizeof *vs->plain);
	vs->scores = malloc((size_t)vs->batch_max * o->k * sizeof *vs->scores);
	vs->ids = malloc((size_t)vs->batch_max * o->k * sizeof *vs->ids);
	if (vs->rows == NULL || vs->q == NULL || vs->vec == NULL || vs->plain == NULL ||
	    vs->scores == NULL || vs->ids == NULL) {
		ev_vsearch_free(vs);
		ev_err_nomem(err);
		return NULL;
	}
	vs->read_ahead = ev_store_readahead_ready(st);
	return vs;
}

/* The query's vector into x (unit length; *zero when it has no direction).
 * Returns 0 or -1. */
static int
unit_vector(const struct ev_vsearch *vs, float *x, int *zero, const char *where, struct ev_err *err)
{
	double norm = 0;

	for (int i = 0; i < vs->dim; i++)
		norm += (double)x[i] * x[i];
	if (!isfinite(norm))
		return ev_err_set(err, EV_EXIT_USAGE, where, "the vector's length overflows");
	*zero = !(norm > 0);
	if (!*zero) {
		norm = sqrt(norm);
		for (int i = 0; i < vs->dim; i++)
			x[i] = (float)(x[i] / norm);
	}
	return 0;
}

/* The query's vector, the array vec, into x as unit_vector() leaves it.
 * Returns 0 or -1. */
static int
read_vector(const struct ev_vsearch *vs, const json_t *vec, float *x, int *zero, const char *where,
	struct ev_err *err)
{
	json_t *e;
	size_t i;

	if (json_array_size(vec) != (size_t)vs->dim)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"query vector has %zu dimensions, but index '%s' has %d", json_array_size(vec),
			vs->index_name, vs->dim);
	json_array_foreach(vec, i, e) {
		if (!json_is_number(e))
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"component %zu of field 'vector' must be a number", i);
		x[i] = (float)json_number_value(e);
		if (!isfinite(x[i]))
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"component %zu of the vector is not a finite number", i);
	}
	return unit_vector(vs, x, zero, where, err);
}

/* Keep the hit (rank, chunk id) in list (best first) if it is among the
 * first n chunks by rank, each chunk once, at its best rank (a chunk the
 * lane listed twice is not folded in twice).  Returns 0 or -1 when out of
 * memory. */
static int
keep_first(json_t *list, long long rank, const char *id, int n)
{
	size_t i, len = json_array_size(list);
	json_t *e;

	for (i = 0; i < len; i++) {
		e = json_array_get(list, i);
		if (strcmp(json_string_value(json_array_get(e, 1)), id) != 0)
			continue;
		if (json_integer_value(json_array_get(e, 0)) <= rank)
			return 0;	/* there already, as good or better */
		json_array_remove(list, i);	/* to be put at its better rank */
		len--;
		break;
	}
	for (i = 0; i < len; i++)
		if (rank < json_integer_value(json_array_get(json_array_get(list, i), 0)))
			break;
	if (i >= (size_t)n)
		return 0;
	if ((e = json_pack("[Is]", (json_int_t)rank, id)) == NULL ||
	    json_array_insert_new(list, i, e) == -1)
		return -1;
	if (json_array_size(list) > (size_t)n)
		json_array_remove(list, (size_t)n);
	return 0;
}

/* What the feedback takes of a hit line: its query's id, its rank (or the
 * line number when it has none) and its chunk's id. */
struct fb_hit {
	struct ev_buf qid;	/* of any length */
	long long rank;
	const char *id;
};

/* Is the raw key k[0..n) (no escapes) the C string lit? */
static int
key_is(const char *k, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(k, lit, n) == 0;
}

/* Whether member e of a hit line has a type ev_hit_check() and the
 * query_id rule accept, in the plain forms read here: 1, 0 when the line
 * goes to Jansson (which reads the other forms and says what is wrong), -1
 * out of memory.  kept[] gets the members the feedback reads (id, score,
 * query_id, rank); the values signals, evidence, explain and warnings hold
 * are ev_hit_check_member()'s to check (the same rule). */
static int
scan_member(struct ev_vsearch *vs, const struct ev_jmem *e, const struct ev_jmem **kept)
{
	static const char *const read[4] = { "id", "score", "query_id", "rank" };
	static const char *const strings[] = { "lane", "snippet", "doc_id", "query" };
	int t = e->type, absent = t == EV_JNULL;
	struct ev_err err = { 0 };

	if (e->kesc)
		return 0;
	for (int i = 0; i < 4; i++) {
		if (!key_is(e->key, e->klen, read[i]))
			continue;
		kept[i] = absent ? NULL : e;
		switch (i) {
		case 0:		/* a string, not empty */
			return t == EV_JSTR && e->vlen > 2;
		case 1:
			return t == EV_JINT || t == EV_JREAL;
		case 2:
			return t == EV_JSTR || t == EV_JINT;
		default:	/* (a rank of 3.0 is Jansson's to read) */
			return absent || t == EV_JINT;
		}
	}
	for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
		if (key_is(e->key, e->klen, strings[i]))
			return absent || t == EV_JSTR;
	if (ev_hit_check_member(e, &vs->fbmems, NULL, &err) == -1)
		return err.code == EV_EXIT_RUNTIME ? -1 : 0;
	return 1;
}

/* Read the hit line[0..len) as ev_jsonl_next_hit() reads it, without
 * building its tree, when it is in the plain form ev-search-text writes:
 * 1 with *h set (h->id kept in ids), 0 when Jansson must read it, -1 out of
 * memory.  (The feedback takes three ids of a file of hits with snippets:
 * building each line's tree was half of its process's instructions.) */
static int
scan_hit(struct ev_vsearch *vs, const char *line, size_t len, struct ev_buf *ids,
	struct fb_hit *h)
{
	const struct ev_jmem *kept[4] = { NULL, NULL, NULL, NULL }, *q;
	struct ev_err pe = { 0 };
	double score;
	int r;

	if (ev_jscan_value(&vs->js, line, len, NULL, &pe) != EV_JOBJ)
		return pe.code == EV_EXIT_RUNTIME ? -1 : 0;
	for (size_t i = 0; i < vs->js.top.n; i++)
		if ((r = scan_member(vs, &vs->js.top.m[i], kept)) != 1)
			return r;
	if (kept[0] == NULL || kept[1] == NULL || (q = kept[2]) == NULL)
		return 0;
	if (ev_jscan_number(kept[1]->val, kept[1]->vlen, &score) == -1)
		return -1;
	if (!isfinite(score))
		return 0;
	/* (the rank, when given, and an integer query_id are integers here) */
	if (kept[3] != NULL && (h->rank = ev_jscan_integer(kept[3]->val, kept[3]->vlen)) < 1)
		return 0;
	ev_buf_reset(ids);
	if (q->type == EV_JINT) {	/* as ev_json_id_buf() writes it */
		ev_buf_reset(&h->qid);
		if (ev_buf_printf(&h->qid, "%lld", ev_jscan_integer(q->val, q->vlen)) == -1)
			return -1;
	} else {
		ev_buf_reset(&h->qid);
		if (ev_jscan_decode(&h->qid, q->val + 1, q->vlen - 2) == -1)
			return -1;
		if (strlen(ev_buf_str(&h->qid)) != h->qid.len)
			return 0;
	}
	if (ev_jscan_decode(ids, kept[0]->val + 1, kept[0]->vlen - 2) == -1 ||
	    ev_buf_add(ids, "", 1) == -1)
		return -1;
	h->id = ids->p;
	return strlen(h->id) == ids->len - 1;
}

/* Read the next hit of in into *h, as ev_jsonl_next_hit() does (the same
 * errors for a line that is not a hit): 1, 0 at the end, -1 with *err set. */
static int
next_fb_hit(struct ev_vsearch *vs, struct ev_jsonl *in, struct ev_buf *ids, struct fb_hit *h,
	struct ev_err *err)
{
	const char *line;
	size_t len;
	json_t *hit, *rank;
	int r;

	do
		if ((r = ev_jsonl_next_line(in, &line, &len, err)) != 1)
			return r;
	while (ev_jsonl_blank(line, len));
	h->rank = (long long)ev_jsonl_lineno(in);	/* unranked: in the order given */
	if ((r = scan_hit(vs, line, len, ids, h)) != 0)
		return r == 1 ? 1 : ev_err_nomem(err);
	/* any other line as Jansson reads it, which says what is wrong with it */
	if ((hit = ev_json_parse_line(line, len, ev_jsonl_where(in), err)) == NULL)
		return -1;
	json_t *q = json_is_object(hit) ? json_object_get(hit, "query_id") : NULL;
	if (ev_hit_check(hit, ev_jsonl_where(in), err) == -1 ||
	    ((r = ev_json_id_buf(q, &h->qid)) == -1 &&
	    ev_err_query_id(err, ev_jsonl_where(in)) == -1) ||
	    (r == -2 && ev_err_nomem(err) == -1)) {
		json_decref(hit);
		return -1;
	}
	if (json_is_integer(rank = json_object_get(hit, "rank")))
		h->rank = json_integer_value(rank);
	ev_buf_reset(ids);
	r = ev_buf_add(ids, json_string_value(json_object_get(hit, "id")),
	    strlen(json_string_value(json_object_get(hit, "id"))) + 1);
	json_decref(hit);
	h->id = ids->p;
	return r == -1 ? ev_err_nomem(err) : 1;
}

int
ev_vsearch_feedback(struct ev_vsearch *vs, char *const *paths, int npaths, struct ev_err *err)
{
	struct ev_jsonl *in;
	struct ev_buf ids = { 0 };
	struct fb_hit h = { EV_BUF_INIT, 0, NULL };
	json_t *list;
	int r;

	vs->lane = "vector_feedback";
	if (vs->fb == NULL && (vs->fb = json_object()) == NULL)
		return ev_err_nomem(err);
	if (vs->fbvec == NULL && (vs->fbvec = malloc(2 * (size_t)vs->dim * sizeof *vs->fbvec)) == NULL)
		return ev_err_nomem(err);
	if ((in = ev_jsonl_open(paths, npaths, err)) == NULL)
		return -1;
	while ((r = next_fb_hit(vs, in, &ids, &h, err)) == 1) {
		if ((list = json_object_get(vs->fb, ev_buf_str(&h.qid))) == NULL &&
		    json_object_set_new(vs->fb, ev_buf_str(&h.qid), list = json_array()) == -1)
			r = -1;
		if (r == -1 || list == NULL || keep_first(list, h.rank, h.id, vs->o.feedback) == -1) {
			r = ev_err_nomem(err);
			break;
		}
	}
	ev_buf_release(&ids);
	ev_buf_release(&h.qid);
	ev_jsonl_close(in);
	return r == -1 ? -1 : 0;
}

int
ev_vsearch_fold(struct ev_vindex *ix, float *x, const char *const *ids, int n, double weight,
	float *scratch, int *found, struct ev_err *err)
{
	size_t d, dim = (size_t)ev_vindex_dim(ix);
	float *sum = scratch + dim;
	double norm = 0, xnorm = 0, w;
	int i, r, used = 0;

	for (d = 0; d < dim; d++)
		sum[d] = 0;
	for (i = 0; i < n; i++) {
		if ((r = ev_vindex_chunk_vector(ix, ids[i], scratch, err)) == -1)
			return -1;
		if (found != NULL)
			found[i] = r;
		if (r == 0)
			continue;
		used++;
		for (d = 0; d < dim; d++)
			sum[d] += scratch[d];
	}
	w = used > 0 ? weight / used : 0;
	for (d = 0; d < dim; d++) {
		sum[d] = (float)(x[d] + w * sum[d]);
		norm += (double)sum[d] * sum[d];
		xnorm += (double)x[d] * x[d];
	}
	if (used == 0 || !(norm > 0))	/* x as it was */
		return xnorm > 0;
	for (d = 0, norm = sqrt(norm); d < dim; d++)
		x[d] = (float)(sum[d] / norm);
	return 1;
}

/* Feedback: fold the stored vectors of the query's first chunks (vs->fb)
 * into x, the query's vector at unit length (all zeros when q->zero), and
 * keep the ids of those folded in, as JSON, in q->feedback.  Returns 0 or -1
 * with *err set. */
static int
fold_feedback(struct ev_vsearch *vs, struct query *q, const char *qid, float *x,
	struct ev_err *err)
{
	json_t *list = json_object_get(vs->fb, qid), *ids;
	const char *id[EV_VSEARCH_FEEDBACK_MAX];
	int found[EV_VSEARCH_FEEDBACK_MAX], n = 0, i, r;

	for (n = 0; n < (int)json_array_size(list) && n < EV_VSEARCH_FEEDBACK_MAX; n++)
		id[n] = json_string_value(json_array_get(json_array_get(list, (size_t)n), 1));
	if ((r = ev_vsearch_fold(vs->ix, x, id, n, vs->o.feedback_weight, vs->fbvec, found,
	    err)) == -1)
		return -1;
	q->zero = r == 0;
	if ((ids = json_array()) == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < n; i++)
		if (found[i] && json_array_append_new(ids, json_string(id[i])) == -1) {
			json_decref(ids);
			return ev_err_nomem(err);
		}
	q->feedback = json_dumps(ids, JSON_COMPACT);
	json_decref(ids);
	return q->feedback == NULL ? ev_err_nomem(err) : 0;
}

/* ev_vsearch_add(), or with read 0 the vector already in the batch's
 * place (its components, not yet scaled; "vector" in v is then not read). */
static int
add_query(struct ev_vsearch *vs, const json_t *v, int read, size_t lineno, const char *where,
	struct ev_err *err)
{
	struct query *q = &vs->q[vs->n];
	json_t *vec, *id, *filters;
	const char *model = NULL, *text;
	int r;

	if (vs->n >= vs->batch_max)
		return ev_err_set(err, EV_EXIT_RUNTIME, where, "the batch is full");
	if (!json_is_object(v))
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"a query must be an object with a 'vector' (embed it with ev-embed --role query)");
	if (ev_field_arr(v, "vector", 1, &vec, where, err) == -1 ||
	    ev_field_str(v, "model", 0, &model, where, err) == -1 ||
	    ev_field_str(v, "query", 0, &text, where, err) == -1 ||
	    ev_field_obj(v, "filters", 0, &filters, where, err) == -1)
		return -1;
	id = json_object_get(v, "query_id");
	if (id != NULL && !json_is_null(id) && !json_is_string(id) && !json_is_integer(id))
		return ev_err_query_id(err, where);
	if (model != NULL && strcmp(model, ev_vindex_model(vs->ix)) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"query vector of model '%s', but index '%s' holds vectors of model '%s'", model,
			vs->index_name, ev_vindex_model(vs->ix));
	if ((read ? read_vector(vs, vec, vs->vec + (size_t)vs->n * vs->dim, &q->zero, where, err) :
	    unit_vector(vs, vs->vec + (size_t)vs->n * vs->dim, &q->zero, where, err)) == -1)
		return -1;
	q->feedback = NULL;
	if (vs->fb != NULL) {
		struct ev_buf qid = EV_BUF_INIT;

		if ((id == NULL || json_is_null(id) ? ev_buf_printf(&qid, "%zu", lineno) :
		    ev_json_id_buf(id, &qid)) < 0) {
			ev_buf_release(&qid);
			return ev_err_nomem(err);
		}
		r = fold_feedback(vs, q, ev_buf_str(&qid), vs->vec + (size_t)vs->n * vs->dim, err);
		ev_buf_release(&qid);
		if (r == -1)
			return -1;
	}
	if ((q->rec = ev_jsoncopy_deep(v)) == NULL) {
		free(q->feedback);
		return ev_err_nomem(err);
	}
	json_object_del(q->rec, "vector");
	if (ev_query_id_default(q->rec, lineno) == -1) {
		json_decref(q->rec);
		free(q->feedback);
		return ev_err_nomem(err);
	}
	/* (a query whose id came before is bad input: qidset.h) */
	if (ev_qidset_add(&vs->qids, id, lineno, where, err) == -1) {
		json_decref(q->rec);
		free(q->feedback);
		return -1;
	}
	q->filters = json_object_get(q->rec, "filters");
	snprintf(q->where, sizeof q->where, "%s", where);
	vs->n++;
	return 0;
}

int
ev_vsearch_add(struct ev_vsearch *vs, const json_t *v, size_t lineno, const char *where,
	struct ev_err *err)
{
	return add_query(vs, v, 1, lineno, where, err);
}

/* ev_vsearch_add_line(): where the components go, how many came. */
struct components {
	float *x;
	int n, dim;
};

/* One component of the vector (validated JSON text): 0, or 1 to stop at
 * one that is not a finite number or past the dimension. */
static int
add_component(const char *e, size_t n, void *data)
{
	struct components *c = data;
	int type = ev_jscan_type(e, n);

	if ((type != EV_JINT && type != EV_JREAL) || c->n == c->dim)
		return 1;
	c->x[c->n] = (float)strtod(e, NULL);
	return !isfinite(c->x[c->n++]);
}

int
ev_vsearch_add_line(struct ev_vsearch *vs, const char *line, size_t len, size_t lineno,
	const char *where, struct ev_err *err)
{
	struct components c = { vs->vec + (size_t)vs->n * vs->dim, 0, vs->dim };
	const struct ev_jmem *m = NULL;
	struct ev_err pe = { 0 };
	json_t *v;
	int r;

	if (vs->n < vs->batch_max &&
	    ev_jscan_value(&vs->js, line, len, where, &pe) == EV_JOBJ) {
		for (size_t i = 0; i < vs->js.top.n && m == NULL; i++)
			if (ev_jscan_str_eq(vs->js.top.m[i].key, vs->js.top.m[i].klen, "vector"))
				m = &vs->js.top.m[i];
	} else if (pe.code == EV_EXIT_RUNTIME)
		return ev_err_nomem(err);
	/* A vector of the index's dimension, of finite numbers, is read here,
	 * and the rest of the line by Jansson; any other line by Jansson whole,
	 * which says what is wrong with it. */
	if (m != NULL && m->type == EV_JARR && ev_jscan_elements(m->val, m->vlen, add_component, &c) == 0 &&
	    c.n == vs->dim) {
		ev_buf_reset(&vs->rest);
		if (ev_buf_add(&vs->rest, line, (size_t)(m->val - line)) == -1 ||
		    ev_buf_adds(&vs->rest, "[]") == -1 ||
		    ev_buf_add(&vs->rest, m->val + m->vlen, len - (size_t)(m->val + m->vlen - line)) == -1)
			return ev_err_nomem(err);
		if ((v = ev_json_parse_line(vs->rest.p, vs->rest.len, where, err)) == NULL)
			return -1;
		r = add_query(vs, v, 0, lineno, where, err);
	} else {
		if ((v = ev_json_parse_line(line, len, where, err)) == NULL)
			return -1;
		r = add_query(vs, v, 1, lineno, where, err);
	}
	json_decref(v);
	return r;
}

int
ev_vsearch_full(const struct ev_vsearch *vs)
{
	return vs->n >= vs->batch_max;
}

int
ev_vsearch_batch_max(const struct ev_vsearch *vs)
{
	return vs->batch_max;
}

long long
ev_vsearch_hits(const struct ev_vsearch *vs)
{
	return vs->hits;
}

/* Write the hit records gathered so far; with flush, flush out too (at the
 * end of a batch, so that pipelines stream). */
static int
write_out(struct ev_vsearch *vs, int flush, struct ev_err *err)
{
	if ((vs->buf.len > 0 && fwrite(vs->buf.p, 1, vs->buf.len, vs->out) != vs->buf.len) ||
	    (flush && fflush(vs->out) == EOF))
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	ev_buf_reset(&vs->buf);
	return 0;
}

/* The query's own fields as the start of a hit record: "{...," (or "{"),
 * but a hit's (ev_hitfields_query_fields()). */
static int
query_prefix(const json_t *rec, struct ev_buf *pre)
{
	json_t *c = ev_hitfields_query_fields(rec);
	int rc;

	if (c == NULL)
		return -1;
	ev_buf_reset(pre);
	rc = ev_json_dump(pre, c);
	json_decref(c);
	if (rc == -1 || pre->len < 2)
		return -1;
	pre->p[--pre->len] = '\0';	/* the closing brace */
	if (pre->len > 1)
		return ev_buf_addc(pre, ',');
	return 0;
}

/* The lane's fields of the hit of query q ranked rank with score text num. */
static int
add_lane_fields(const struct ev_vsearch *vs, const struct query *q, struct ev_buf *b,
	const char *num, int rank)
{
	const char *lane = vs->lane;

	/* (no printf: this runs for every hit) */
	return ev_buf_adds(b, ",\"rank\":") | ev_jscan_put_int(b, rank) |
		ev_buf_adds(b, ",\"score\":") | ev_buf_adds(b, num) |
		ev_buf_adds(b, ",\"lane\":\"") | ev_buf_adds(b, lane) |
		ev_buf_adds(b, "\",\"signals\":{\"") | ev_buf_adds(b, lane) | ev_buf_adds(b, "_score\":") |
		ev_buf_adds(b, num) | ev_buf_adds(b, ",\"") | ev_buf_adds(b, lane) | ev_buf_adds(b, "_rank\":") |
		ev_jscan_put_int(b, rank) |
		ev_buf_adds(b, "},\"evidence\":[{\"lane\":\"") | ev_buf_adds(b, lane) |
		ev_buf_adds(b, "\",\"score\":") | ev_buf_adds(b, num) |
		(q->feedback ? ev_buf_adds(b, ",\"feedback\":") | ev_buf_adds(b, q->feedback) : 0) |
		ev_buf_adds(b, ",\"retrieved_at\":\"") | ev_buf_adds(b, vs->stamp) |
		ev_buf_adds(b, "\"}]");
}

/* The chunk of a paged document (region.h) whose fields
 * ev_hitfields_json() just wrote at the end of b, its document's metadata
 * object from b->p[meta] (meta 0: none): the object written again with the
 * chunk's page and page_end in place of the document's own, as the text
 * lane puts them (the document's page_end left out when the chunk has
 * none), or a new one with them.  Nothing for other chunks.  Returns 0 or
 * -1 with *err. */
static int
add_page(struct ev_vsearch *vs, int64_t rowid, struct ev_buf *b, size_t meta, struct ev_err *err)
{
	long page, page_end;
	char num[2][24];
	struct ev_jscan_set set[2] = { { "page", num[0], 0 }, { "page_end", NULL, 0 } };
	int got;

	if (vs->regions == -1 && (vs->regions = ev_region_table(vs->st, err)) == -1)
		return -1;
	ev_buf_reset(&vs->lines);
	if (vs->regions == 0 ||
	    (got = ev_region_get(vs->st, rowid, &page, &page_end, &vs->lines, err)) == 0)
		return 0;
	if (got == -1)
		return -1;
	/* the document's members, read from a copy: b is written over */
	ev_buf_reset(&vs->meta);
	vs->metamems.n = 0;
	if (meta > 0 && (ev_buf_add(&vs->meta, b->p + meta, b->len - meta) == -1 ||
	    ev_jscan_members(vs->meta.p, vs->meta.len, &vs->metamems) == -1))
		return ev_err_nomem(err);
	if (meta > 0)
		b->len = meta;
	else if (ev_buf_adds(b, ",\"metadata\":") == -1)
		return ev_err_nomem(err);
	set[0].vlen = (size_t)snprintf(num[0], sizeof num[0], "%ld", page);
	if (page_end > page) {
		set[1].value = num[1];
		set[1].vlen = (size_t)snprintf(num[1], sizeof num[1], "%ld", page_end);
	}
	return ev_jscan_put_object(b, vs->metamems.m, vs->metamems.n, set, 2) ? ev_err_nomem(err) : 0;
}

/* The fields of chunk rowid, as ev_hitfields_json() and add_page() write
 * them, appended to b, and (with snippets) its text in text[0..*len) (valid
 * until the next call; "" for none): kept in vs->rows for the rest of the
 * batch (one transaction: a chunk read again reads the same), so that a
 * chunk many queries hit is read once.  Returns 1, 0 when there is no such
 * chunk, -1 with *err set. */
static int
chunk_fields(struct ev_vsearch *vs, int64_t rowid, struct ev_buf *b, const char **text,
	size_t *len, struct ev_err *err)
{
	const char *fields;
	size_t flen, from = b->len, meta;
	int r;

	if (ev_rowmemo_get(vs->rows, rowid, &fields, &flen, text, len))
		return ev_buf_add(b, fields, flen) == -1 ? ev_err_nomem(err) : 1;
	free(vs->chunk_text);
	vs->chunk_text = NULL;
	if ((r = ev_hitfields_json(vs->st, rowid, b, vs->sn ? &vs->chunk_text : NULL, &meta,
	    err)) != 1 || add_page(vs, rowid, b, meta, err) == -1)
		return r != 1 ? r : -1;
	*text = vs->chunk_text != NULL ? vs->chunk_text : "";
	*len = strlen(*text);
	if (ev_rowmemo_keep(vs->rows, rowid, b->p + from, b->len - from, *text, *len)) {
		const char *kept;

		ev_rowmemo_get(vs->rows, rowid, &kept, &flen, text, len);
	}
	return 1;
}

/* The language whose function words the snippets of a query leave
 * unmarked, beside the English ones the tokeniser knows: its record's
 * "language", else the one its own function words show (langid.h), when
 * the lexicon has it and it is not English; -1 for none. */
static int
query_lang(const struct ev_lex *lex, const json_t *rec, const char *text)
{
	const char *l = json_string_value(json_object_get(rec, "language"));
	char code[EV_ANALYZE_CODE_MAX];
	int lang;

	if (l != NULL)
		lang = ev_lex_lang(l, strlen(l));
	else if (!ev_langid_query(lex, text, strlen(text), code))
		return -1;
	else
		lang = ev_lex_lang(code, strlen(code));
	return lang == EV_LEX_EN ? -1 : lang;
}

/* ev_store_readahead_walk() of the rows a (hits_ahead), as a worker's job. */
static void
run_ahead(void *arg)
{
	struct hits_ahead *a = arg;

	ev_store_readahead_walk(a->st, a->rowid, a->n, NULL);
}

/* The blocks this thread has read from a disk so far (not from the page
 * cache). */
static long
blocks_read(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_inblock : 0;
}

/* Ask the kernel, in one go, for the pages of the rows of the hits ids[0..n)
 * (-1 ends them; scores sc) that are yet to be read, as the text lane does
 * (store.h): out of the page cache, a query's hundred hits were 300 reads
 * from the disk one after another (at 1,585,208 chunks, 87 ms a query
 * against 23 with the store in the cache).  On a worker made for it in a
 * store of at least EV_VSEARCH_AHEAD_THREAD vectors on two processors,
 * while the caller reads the rows: returns 1 then, and the caller waits for
 * it (ev_worker_wait()); else asked here, and returns 0.  Only a hint: out
 * of memory, nothing is asked. */
static int
read_ahead_hits(struct ev_vsearch *vs, const float *sc, const int64_t *ids, int n)
{
	struct hits_ahead *a = &vs->ahead;
	size_t m = 0;

	if (n < 1 || ((size_t)n > a->cap &&
	    ev_grow(&a->rowid, &a->cap, (size_t)n - 1, sizeof *a->rowid, 128) == -1))
		return 0;
	for (; m < (size_t)n && ids[m] >= 0; m++) {
		if (vs->o.has_min_score && sc[m] < vs->o.min_score)
			break;
		a->rowid[m] = (long long)ids[m];
	}
	a->st = vs->st;
	a->n = m;
	if (vs->worker == NULL && ev_vindex_count(vs->ix) >= EV_VSEARCH_AHEAD_THREAD &&
	    ev_worker_processors() > 1)
		vs->worker = ev_worker_new();	/* (NULL: asked on this thread) */
	if (vs->worker == NULL) {
		run_ahead(a);
		return 0;
	}
	ev_worker_run(vs->worker, run_ahead, a);
	return 1;
}

/* Write the record of hit id (score sc) of query q, its rank the next after
 * *rank.  Returns 1, 0 when the chunk was removed since the index was
 * loaded (no record), -1 with *err set. */
static int
write_hit(struct ev_vsearch *vs, struct query *q, float sc, int64_t id, int *rank,
	struct ev_err *err)
{
	struct ev_buf *b = &vs->buf;
	const char *chunk_text;
	size_t mark = b->len, chunk_len;
	int r, bad;

	if (ev_buf_add(b, vs->prefix.p, vs->prefix.len) == -1)
		return ev_err_nomem(err);
	r = chunk_fields(vs, id, b, &chunk_text, &chunk_len, err);
	if (r != 1) {
		b->len = mark;
		b->p[mark] = '\0';
		return r;
	}
	ev_buf_reset(&vs->num);
	bad = ev_jscan_put_real(&vs->num, sc);
	bad |= add_lane_fields(vs, q, b, ev_buf_str(&vs->num), ++*rank);
	if (!bad && vs->sn) {
		ev_buf_reset(&vs->snip);
		if (ev_snippet_make(vs->sn, chunk_text, chunk_len, &vs->snip, err) == -1)
			return -1;
		bad = ev_buf_adds(b, ",\"snippet\":") |
			ev_jscan_put_str(b, ev_buf_str(&vs->snip), vs->snip.len);
	}
	if (bad || ev_buf_add(b, "}\n", 2) == -1)
		return ev_err_nomem(err);
	if (b->len >= OUT_CHUNK && write_out(vs, 0, err) == -1)
		return -1;
	vs->hits++;
	return 1;
}

/* Write the hit records of query q: the n hits ids (-1 ends them) with
 * scores sc, best first, down to the least score asked for.  Once a hit's
 * row was read from the disk, the rows of the hits after it are asked for
 * ahead (read_ahead_hits()): with the store in the page cache, asking
 * costs a query more than it saves.  Returns 0 or -1 with *err set. */
static int
write_hits(struct ev_vsearch *vs, struct query *q, const float *sc, const int64_t *ids, int n,
	struct ev_err *err)
{
	const char *text = json_string_value(json_object_get(q->rec, "query"));
	long disk = vs->read_ahead ? blocks_read() : 0;
	int rank = 0, ahead = 0, r = 0;

	if (query_prefix(q->rec, &vs->prefix) == -1)
		return ev_err_nomem(err);
	ev_clock_stamp(vs->stamp, sizeof vs->stamp);	/* once for the query's hits */
	/* A batch of queries hits the same chunks: their tokens are kept for
	 * the snippets (32 MB at most), from the second query on (keeping the
	 * first's cost a process of one query 0.3 ms of its 17, for nothing). */
	if (vs->tok != NULL && vs->queries++ == 1)
		ev_tok_memo(vs->tok, (size_t)32 << 20);
	if (vs->sn) {
		ev_snippet_reset(vs->sn);
		if (text && ev_snippet_add_query_in(vs->sn, text, strlen(text), vs->lex,
		    query_lang(vs->lex, q->rec, text), err) == -1)
			return -1;
	}
	for (int i = 0; i < n && ids[i] >= 0; i++) {
		if (vs->o.has_min_score && sc[i] < vs->o.min_score)
			break;
		if ((r = write_hit(vs, q, sc[i], ids[i], &rank, err)) == -1)
			break;
		if (vs->read_ahead && !ahead && i + 1 < n && blocks_read() > disk)
			ahead = 1 + read_ahead_hits(vs, sc + i + 1, ids + i + 1, n - i - 1);
	}
	if (ahead == 2)
		ev_worker_wait(vs->worker);
	return r == -1 ? -1 : 0;
}

/* Search query i of the batch among the chunks its filters allow, and write
 * its hits.  Returns 0 (also for a query skipped) or -1. */
static int
search_filtered(struct ev_vsearch *vs, int i, struct ev_err *err)
{
	struct query *q = &vs->q[i];
	int k = vs->o.k, m = 0, r = -1;
	int64_t *allowed = NULL, *ids = NULL;
	size_t nallowed = 0;
	float *sc = NULL;

	if (ev_qfilter_rowids(vs->st, q->filters, q->where, &allowed, &nallowed, err) == -1) {
		/* a bad filter: this query only, when the caller skips it */
		if (vs->o.skip != NULL && vs->o.skip(vs->o.ctx, err)) {
			ev_err_clear(err);
			return 0;
		}
		return -1;
	}
	sc = malloc((size_t)k * sizeof *sc);
	ids = malloc((size_t)k * sizeof *ids);
	if (sc == NULL || ids == NULL)
		ev_err_nomem(err);
	else if ((r = ev_vindex_search_among(vs->ix, vs->vec + (size_t)i * vs->dim, k, allowed,
	    nallowed, sc, ids, &m, err)) == 0)
		r = write_hits(vs, q, sc, ids, m, err);
	free(allowed);
	free(sc);
	free(ids);
	return r;
}

int
ev_vsearch_flush(struct ev_vsearch *vs, struct ev_err *err)
{
	int k = vs->o.k, ret = -1;
	long long nplain = 0;
	int *slot = NULL;

	if (vs->n == 0)
		return 0;
	if (ev_vindex_batch_begin(vs->ix, err) == -1)
		goto out;
	/* Queries without filters go to Faiss together. */
	if ((slot = malloc((size_t)vs->n * sizeof *slot)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	for (int i = 0; i < vs->n; i++) {
		slot[i] = -1;
		if (vs->q[i].filters == NULL && !vs->q[i].zero) {
			memcpy(vs->plain + nplain * vs->dim, vs->vec + (size_t)i * vs->dim,
				(size_t)vs->dim * sizeof(float));
			slot[i] = (int)nplain++;
		}
	}
	if (nplain > 0 &&
	    ev_vindex_search(vs->ix, nplain, vs->plain, k, vs->scores, vs->ids, err) == -1)
		goto out;
	for (int i = 0; i < vs->n; i++) {
		struct query *q = &vs->q[i];

		if (q->zero && vs->o.warn != NULL)
			vs->o.warn(vs->o.ctx, q->where, "the query vector is all zeros (of evkit's"
			    " model: no word of the query is in its vocabulary): no hits");
		if (q->zero)
			continue;
		if (slot[i] >= 0 ? write_hits(vs, q, vs->scores + (size_t)slot[i] * k,
		    vs->ids + (size_t)slot[i] * k, k, err) == -1 : search_filtered(vs, i, err) == -1)
			goto out;
	}
	ret = write_out(vs, 1, err);
out:
	ev_vindex_batch_end(vs->ix);
	ev_rowmemo_clear(vs->rows);	/* the transaction's snapshot ends */
	for (int i = 0; i < vs->n; i++) {
		json_decref(vs->q[i].rec);
		free(vs->q[i].feedback);
	}
	vs->n = 0;
	free(slot);
	return ret;
}

void
ev_vsearch_free(struct ev_vsearch *vs)
{
	if (vs == NULL)
		return;
	for (int i = 0; i < vs->n; i++) {
		json_decref(vs->q[i].rec);
		free(vs->q[i].feedback);
	}
	ev_worker_free(vs->worker);
	free(vs->ahead.rowid);
	json_decref(vs->fb);
	free(vs->fbvec);
	ev_jscan_release(&vs->js);
	free(vs->fbmems.m);
	ev_buf_release(&vs->rest);
	ev_qidset_release(&vs->qids);
	ev_buf_release(&vs->buf);
	ev_buf_release(&vs->prefix);
	ev_buf_release(&vs->snip);
	ev_buf_release(&vs->num);
	ev_buf_release(&vs->lines);
	ev_buf_release(&vs->meta);
	free(vs->metamems.m);
	ev_rowmemo_free(vs->rows);
	free(vs->chunk_text);
	ev_snippet_free(vs->sn);
	ev_lex_close(vs->lex);
	ev_tok_close(vs->tok);
	free(vs->q);
	free(vs->vec);
	free(vs->plain);
	free(vs->scores);
	free(vs->ids);
	free(vs);
}
