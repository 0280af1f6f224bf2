/* mvsearch.c: the late-interaction lane's queries and hits.  See mvsearch.h. */
#include "mvsearch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "clock.h"
#include "jsoncopy.h"
#include "jsonl.h"
#include "hitfields.h"
#include "qfilter.h"
#include "qidset.h"

/* BLAS (OpenBLAS, as Faiss links it). */
extern void sgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
	const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
	const float *beta, float *c, const int *ldc);

#define SEARCH_CELLS 1000000	/* query vectors x token_k searched at once at most */

/* A candidate record of one query. */
struct cand {
	long long rec;
	double bound;		/* sum of its best token scores found, and the
				 * floors of the query vectors that found none */
	int last_q;		/* the query vector last seen finding it */
	float cur;		/* that query vector's best score for it */
	double floors;		/* the floors of the query vectors that found it */
	double score;		/* exact MaxSim */
};

struct ev_mvsearch {
	struct ev_mvindex *ix;
	struct ev_mvsearch_opts o;
	char lane[EV_MVINDEX_LANE_MAX + 1];
	char sname[EV_MVINDEX_LANE_MAX + 8], rname[EV_MVINDEX_LANE_MAX + 8];
	FILE *out;
	int dim;
	float *q;		/* the query's vectors */
	size_t qcap;
	float *scratch;		/* EV_MVSEARCH_QUERY_MAX × EV_MVSEARCH_BLOCK */
	float *scores;		/* nq × token_k */
	int64_t *recs;
	size_t scap, rcap;
	int32_t *slot;		/* record -> candidate, -1 */
	struct cand *c;
	size_t ccap;
	char **docs;		/* record -> its "doc_id" or NULL, read at the
				 * first query with filters */
	int32_t *best;		/* nq per hit kept: the best vectors */
	size_t bcap;
	long long hits, scored;
	char stamp[EV_CLOCK_STAMP_MAX];	/* when the query's hits were retrieved */
	struct ev_qidset qids;	/* the ids of the queries searched (qidset.h) */
};

double
ev_mvsearch_maxsim(const float *q, int nq, const float *d, long long n, int dim, float *scratch,
	int32_t *best)
{
	static const float one = 1, zero = 0;
	double sum = 0;

	for (int i = 0; i < nq; i++)
		if (best)
			best[i] = 0;
	/* max_j per query vector, after the products, as blocks go by. */
	float *mx = scratch + (size_t)nq * EV_MVSEARCH_BLOCK;
	for (int i = 0; i < nq; i++)
		mx[i] = -INFINITY;
	for (long long j0 = 0; j0 < n; j0 += EV_MVSEARCH_BLOCK) {
		int b = (int)(n - j0 < EV_MVSEARCH_BLOCK ? n - j0 : EV_MVSEARCH_BLOCK);
		/* C (b × nq, column-major) = D_block (b × dim) · Q^T */
		sgemm_("T", "N", &b, &nq, &dim, &one, d + j0 * dim, &dim, q, &dim, &zero, scratch, &b);
		for (int i = 0; i < nq; i++) {
			const float *col = scratch + (size_t)i * b;
			for (int j = 0; j < b; j++)
				if (col[j] > mx[i]) {
					mx[i] = col[j];
					if (best)
						best[i] = (int32_t)(j0 + j);
				}
		}
	}
	for (int i = 0; i < nq; i++)
		sum += mx[i];
	return sum;
}

struct ev_mvsearch *
ev_mvsearch_new(struct ev_mvindex *ix, const struct ev_mvsearch_opts *o, FILE *out,
	struct ev_err *err)
{
	struct ev_mvsearch *ms = calloc(1, sizeof *ms);
	const char *lane = o->lane ? o->lane : ev_mvindex_lane(ix);
	long long nrec = ev_mvindex_records(ix);

	if (ms == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	if (ev_plan_lane_check(lane, NULL, err) == -1) {
		free(ms);
		return NULL;
	}
	ms->ix = ix;
	ms->o = *o;
	ms->out = out;
	ms->dim = ev_mvindex_dim(ix);
	snprintf(ms->lane, sizeof ms->lane, "%s", lane);
	snprintf(ms->sname, sizeof ms->sname, "%s_score", lane);
	snprintf(ms->rname, sizeof ms->rname, "%s_rank", lane);
	if ((ms->scratch = malloc(((size_t)EV_MVSEARCH_QUERY_MAX * EV_MVSEARCH_BLOCK +
	    EV_MVSEARCH_QUERY_MAX) * sizeof *ms->scratch)) == NULL ||
	    (ms->slot = malloc((size_t)nrec * sizeof *ms->slot)) == NULL) {
		ev_mvsearch_free(ms);
		ev_err_nomem(err);
		return NULL;
	}
	memset(ms->slot, 0xff, (size_t)nrec * sizeof *ms->slot);
	return ms;
}

void
ev_mvsearch_free(struct ev_mvsearch *ms)
{
	if (ms == NULL)
		return;
	free(ms->q);
	free(ms->scratch);
	free(ms->scores);
	free(ms->recs);
	free(ms->slot);
	free(ms->c);
	free(ms->best);
	for (long long r = 0; ms->docs != NULL && r < ev_mvindex_records(ms->ix); r++)
		free(ms->docs[r]);
	free(ms->docs);
	ev_qidset_release(&ms->qids);
	free(ms);
}

long long ev_mvsearch_hits(const struct ev_mvsearch *ms) { return ms->hits; }
long long ev_mvsearch_scored(const struct ev_mvsearch *ms) { return ms->scored; }

/* The query's vectors into ms->q.  Returns their number, or -1. */
static int
query_vectors(struct ev_mvsearch *ms, const json_t *rec, const char *where, struct ev_err *err)
{
	json_t *vecs, *row, *x;
	const char *model = NULL, *text;
	size_t i, j, n;

	if (!json_is_object(rec))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "a query of the multi-vector lane must be an object with 'vectors'");
	/* "query" is optional, but goes into every hit, where the next stage
	 * (ev-fuse, ev-rerank, ev-pack) holds it to be a string */
	if (ev_field_arr(rec, "vectors", 1, &vecs, where, err) == -1 ||
	    ev_field_str(rec, "model", 0, &model, where, err) == -1 ||
	    ev_field_str(rec, "query", 0, &text, where, err) == -1)
		return -1;
	if (json_object_get(rec, "filters") != NULL && ms->o.st == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, where, "'filters' need the store of the "
		    "records' documents: give --db DB");
	if (model != NULL && strcmp(model, ev_mvindex_model(ms->ix)) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "query vectors of model '%s', the index's are of '%s'", model,
		    ev_mvindex_model(ms->ix));
	n = json_array_size(vecs);
	if (n == 0 || n > EV_MVSEARCH_QUERY_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'vectors' has %zu vectors (1 to %d are accepted)", n, EV_MVSEARCH_QUERY_MAX);
	if (ev_grow(&ms->q, &ms->qcap, n * (size_t)ms->dim - 1, sizeof *ms->q, 1024) == -1)
		return ev_err_nomem(err);
	json_array_foreach(vecs, i, row) {
		if (!json_is_array(row) || json_array_size(row) != (size_t)ms->dim)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "vector %zu of field 'vectors' must be an array of %d numbers (the index's "
			    "dimension)", i + 1, ms->dim);
		json_array_foreach(row, j, x) {
			double d = json_number_value(x);
			if (!json_is_number(x) || !isfinite((float)d))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "component %zu of vector %zu of field 'vectors' must be a finite number",
				    j + 1, i + 1);
			ms->q[i * (size_t)ms->dim + j] = (float)d;
		}
	}
	return (int)n;
}

static int
cmp_bound(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->bound != y->bound)
		return x->bound < y->bound ? 1 : -1;
	return (x->rec > y->rec) - (x->rec < y->rec);
}

static int
cmp_score(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return (x->rec > y->rec) - (x->rec < y->rec);	/* records are in id order */
}

/* The candidates of a query of nq vectors into ms->c.  Returns their
 * number, or -1. */
static long long
candidates(struct ev_mvsearch *ms, int nq, struct ev_err *err)
{
	long long nrec = ev_mvindex_records(ms->ix), nc = 0;
	long long tk = ms->o.token_k, step;
	double floors = 0;
	int ret = 0;

	if (ms->o.exact) {
		if (ev_grow(&ms->c, &ms->ccap, (size_t)nrec - 1, sizeof *ms->c, 256) == -1)
			return ev_err_nomem(err);
		for (long long r = 0; r < nrec; r++)
			ms->c[r].rec = r;
		return nrec;
	}
	if (tk > ev_mvindex_vectors(ms->ix))
		tk = ev_mvindex_vectors(ms->ix);
	/* The query vectors are searched in steps of at most SEARCH_CELLS
	 * results, so that a long query with a large token_k stays in bounds. */
	step = SEARCH_CELLS / tk < 1 ? 1 : SEARCH_CELLS / tk;
	if (step > nq)
		step = nq;
	if (ev_grow(&ms->scores, &ms->scap, (size_t)(step * tk) - 1, sizeof *ms->scores, 1024) == -1 ||
	    ev_grow(&ms->recs, &ms->rcap, (size_t)(step * tk) - 1, sizeof *ms->recs, 1024) == -1)
		return ev_err_nomem(err);
	for (int i0 = 0; i0 < nq && ret == 0; i0 += (int)step) {
		int n = nq - i0 < step ? nq - i0 : (int)step;
		if (ev_mvindex_search(ms->ix, n, ms->q + (size_t)i0 * ms->dim, (int)tk, ms->scores,
		    ms->recs, err) == -1) {
			ret = -1;
			break;
		}
		for (int i = i0; i < i0 + n && ret == 0; i++) {
			const float *s = ms->scores + (size_t)(i - i0) * tk;
			const int64_t *r = ms->recs + (size_t)(i - i0) * tk;
			float floor = 0;
			long long j;
			for (j = 0; j < tk && r[j] >= 0; j++)
				floor = s[j];
			/* No record's token outside the list scores more than the
			 * last one in it (for an exact index): the bound of MaxSim
			 * for the query vectors that did not find a record. */
			floors += floor;
			for (j = 0; j < tk && r[j] >= 0; j++) {
				struct cand *c;
				if (r[j] >= ev_mvindex_records(ms->ix))
					continue;
				if (ms->slot[r[j]] < 0) {
					if (ev_grow(&ms->c, &ms->ccap, (size_t)nc, sizeof *ms->c, 256) == -1) {
						ret = ev_err_nomem(err);
						break;
					}
					c = &ms->c[nc];
					memset(c, 0, sizeof *c);
					c->rec = r[j];
					c->last_q = -1;
					ms->slot[r[j]] = (int32_t)nc++;
				}
				c = &ms->c[ms->slot[r[j]]];
				if (c->last_q != i) {
					if (c->last_q >= 0)
						c->bound += c->cur;
					c->last_q = i;
					c->cur = s[j];
					c->floors += floor;
				} else if (s[j] > c->cur) {
					c->cur = s[j];
				}
			}
		}
	}
	for (long long u = 0; u < nc; u++) {
		struct cand *c = &ms->c[u];
		ms->slot[c->rec] = -1;
		c->bound += c->cur + (floors - c->floors);
	}
	if (ret == -1)
		return -1;
	if (nc > ms->o.candidates) {
		qsort(ms->c, (size_t)nc, sizeof *ms->c, cmp_bound);
		nc = ms->o.candidates;
	}
	return nc;
}

/* Each record's "doc_id" (a string, else NULL) into ms->docs, once.
 * Returns 0 or -1. */
static int
record_docs(struct ev_mvsearch *ms, struct ev_err *err)
{
	long long nrec = ev_mvindex_records(ms->ix);

	if (ms->docs != NULL)
		return 0;
	if ((ms->docs = calloc((size_t)nrec + 1, sizeof *ms->docs)) == NULL)
		return ev_err_nomem(err);
	for (long long r = 0; r < nrec; r++) {
		json_t *fields = ev_mvindex_fields(ms->ix, r, err);
		const char *doc = json_string_value(json_object_get(fields, "doc_id"));

		ms->docs[r] = doc != NULL ? strdup(doc) : NULL;
		json_decref(fields);
		if (fields == NULL || (doc != NULL && ms->docs[r] == NULL)) {
			for (long long u = 0; u <= r; u++)
				free(ms->docs[u]);
			free(ms->docs);
			ms->docs = NULL;
			return ev_err_nomem(err);
		}
	}
	return 0;
}

/* The candidates of a query with filters into ms->c: every record whose
 * document the filters allow (qfilter.h), each then scored exactly.
 * Returns their number, or -1 (code 2 for a bad filter). */
static long long
filtered_candidates(struct ev_mvsearch *ms, const json_t *filters, const char *where,
    struct ev_err *err)
{
	long long nrec = ev_mvindex_records(ms->ix), nc = 0;
	json_t *allowed = ev_qfilter_doc_ids(ms->o.st, filters, where, err);

	if (allowed == NULL)
		return -1;
	if (record_docs(ms, err) == -1) {
		json_decref(allowed);
		return -1;
	}
	if (nrec > 0 && ev_grow(&ms->c, &ms->ccap, (size_t)nrec - 1, sizeof *ms->c, 256) == -1) {
		json_decref(allowed);
		return ev_err_nomem(err);
	}
	for (long long r = 0; r < nrec; r++)
		if (ms->docs[r] != NULL && json_object_get(allowed, ms->docs[r]) != NULL)
			ms->c[nc++].rec = r;
	json_decref(allowed);
	return nc;
}

/* The reference of a record of a page (or of a region of one): its fields
 * hold "doc_id" (a non-empty string: any id ev-show reads) and "page" (an
 * integer from 1), and for a region "bbox" ([x0, y0, x1, y1], x0 <= x1,
 * y0 <= y1): "doc::DOC::page-N" or "doc::DOC::page-N::bbox-X0,Y0,X1,Y1",
 * as a new string; NULL when it is none (or out of memory). */
static json_t *
page_ref(const json_t *fields)
{
	const json_t *doc = json_object_get(fields, "doc_id"), *page = json_object_get(fields, "page");
	const json_t *bbox = json_object_get(fields, "bbox");
	double b[4];
	int box = json_is_array(bbox) && json_array_size(bbox) == 4;
	const char *d;

	if (!json_is_string(doc) || !json_is_integer(page) || json_integer_value(page) < 1 ||
	    json_string_length(doc) == 0)
		return NULL;
	d = json_string_value(doc);
	for (int i = 0; box && i < 4; i++) {
		box = json_is_number(json_array_get(bbox, (size_t)i));
		b[i] = json_number_value(json_array_get(bbox, (size_t)i));
	}
	if (box && (b[0] > b[2] || b[1] > b[3]))
		box = 0;
	if (!box)
		return json_sprintf("doc::%s::page-%lld", d, (long long)json_integer_value(page));
	return json_sprintf("doc::%s::page-%lld::bbox-%.10g,%.10g,%.10g,%.10g", d,
	    (long long)json_integer_value(page), b[0], b[1], b[2], b[3]);
}

/* Is v four finite numbers (within 0 to 1 when unit)? */
static int
box_ok(const json_t *v, int unit)
{
	size_t i;
	json_t *x;

	if (json_array_size(v) != 4)
		return 0;
	json_array_foreach(v, i, x)
		if (!json_is_number(x) || !isfinite(json_number_value(x)) ||
		    (unit && (json_number_value(x) < 0 || json_number_value(x) > 1)))
			return 0;
	return 1;
}

/* Where the record (its stored fields) stands, into its evidence entry e:
 * its "page" (a number from 1), and for a region its "bbox" (four numbers:
 * PDF points) and "bbox_norm" (four numbers from 0 to 1: fractions of the
 * page), each from the record or its "metadata", when valid.  Returns 0 or
 * -1 (out of memory). */
static int
add_place(json_t *e, const json_t *fields)
{
	static const char *const keys[] = { "page", "bbox", "bbox_norm" };
	const json_t *meta = json_object_get(fields, "metadata");

	for (int k = 0; k < 3; k++) {
		json_t *v = json_object_get(fields, keys[k]);
		int ok;

		if (v == NULL)
			v = json_object_get(meta, keys[k]);
		ok = k == 0 ? json_is_integer(v) && json_integer_value(v) >= 1 : box_ok(v, k == 2);
		if (ok && json_object_set(e, keys[k], v) == -1)
			return -1;
	}
	return 0;
}

/* The fields a hit takes from its query alone: a record loaded with one of
 * them (kept with its other fields) must not give its hits another query's. */
static void
drop_query_side(json_t *fields)
{
	static const char *const keys[] = { "query_id", "query", "filters" };

	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		json_object_del(fields, keys[i]);
}

/* Write the hit of candidate c at rank: the query's fields, then the
 * record's others. */
static int
write_hit(struct ev_mvsearch *ms, const json_t *base, const struct cand *c, int rank, int nq,
	const int32_t *best, struct ev_err *err)
{
	json_t *hit = ev_jsoncopy_shallow(base), *fields = NULL, *ev = NULL, *bv = NULL, *ref;
	int rc = -1;

	if (hit == NULL || (fields = ev_mvindex_fields(ms->ix, c->rec, err)) == NULL)
		goto nomem;
	drop_query_side(fields);
	/* a page of 3.0 (as a JavaScript writer writes 3) is page 3: its
	 * reference and its evidence's page read an integer alone */
	if (ev_json_whole_member(fields, "page") == -1 ||
	    ev_json_whole_member(json_object_get(fields, "metadata"), "page") == -1)
		goto nomem;
	if (ev_jsoncopy_update(hit, fields, 1) == -1 || (bv = json_array()) == NULL)
		goto nomem;
	if (json_object_get(fields, "content_ref") == NULL && (ref = page_ref(fields)) != NULL &&
	    json_object_set_new(hit, "content_ref", ref) == -1)
		goto nomem;
	for (int i = 0; i < nq; i++)
		if (json_array_append_new(bv, json_integer(best[i])) == -1)
			goto nomem;
	ev = json_pack("[{s:s,s:f,s:s,s:i,s:O,s:s}]", "lane", ms->lane, "maxsim", c->score,
	    "model", ev_mvindex_model(ms->ix), "query_vectors", nq, "best_vectors", bv,
	    "retrieved_at", ms->stamp);
	if (ev == NULL || add_place(json_array_get(ev, 0), fields) == -1 ||
	    json_object_set_new(hit, "rank", json_integer(rank)) == -1 ||
	    json_object_set_new(hit, "score", json_real(c->score)) == -1 ||
	    json_object_set_new(hit, "lane", json_string(ms->lane)) == -1 ||
	    json_object_set_new(hit, "signals", json_pack("{s:f,s:i}", ms->sname, c->score,
		ms->rname, rank)) == -1 ||
	    json_object_set(hit, "evidence", ev) == -1)
		goto nomem;
	rc = ev_jsonl_write(ms->out, hit, err);
	goto out;
nomem:
	ev_err_nomem(err);
out:
	json_decref(hit);
	json_decref(fields);
	json_decref(ev);
	json_decref(bv);
	return rc;
}

int
ev_mvsearch_query(struct ev_mvsearch *ms, const json_t *rec, size_t lineno, const char *where,
	struct ev_err *err)
{
	json_t *base = NULL, *qid = json_object_get(rec, "query_id");
	long long nc;
	int nq, k, rc = -1;

	if ((nq = query_vectors(ms, rec, where, err)) == -1)
		return -1;
	if (qid != NULL && !json_is_null(qid) && !json_is_string(qid) && !json_is_integer(qid))
		return ev_err_query_id(err, where);
	/* (a query whose id came before is bad input: qidset.h) */
	if (ev_qidset_add(&ms->qids, qid, lineno, where, err) == -1)
		return -1;
	size_t i = 0, nz = (size_t)nq * (size_t)ms->dim;
	while (i < nz && ms->q[i] == 0)
		i++;
	if (i == nz) {	/* no direction: every record's MaxSim is 0 */
		if (ms->o.warn != NULL)
			ms->o.warn(ms->o.ctx, where, "the query's vectors are all zeros (no direction: "
			    "every record would score 0): no hits");
		return 0;
	}
	if ((base = ev_hitfields_query_fields(rec)) == NULL ||
	    ev_query_id_default(base, lineno) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	nc = json_object_get(rec, "filters") != NULL ?
	    filtered_candidates(ms, json_object_get(rec, "filters"), where, err) :
	    candidates(ms, nq, err);
	if (nc == -1)
		goto out;
	for (long long u = 0; u < nc; u++) {
		long long n;
		const float *d = ev_mvindex_record(ms->ix, ms->c[u].rec, &n);
		ms->c[u].score = ev_mvsearch_maxsim(ms->q, nq, d, n, ms->dim, ms->scratch, NULL);
		if (!isfinite(ms->c[u].score)) {	/* finite numbers whose products overflow */
			ev_err_set(err, EV_EXIT_USAGE, where, "the MaxSim of record '%s' overflows a "
			    "float: the query's vectors (or the record's) are too large",
			    ev_mvindex_id(ms->ix, ms->c[u].rec));
			goto out;
		}
	}
	ms->scored += nc;
	ev_clock_stamp(ms->stamp, sizeof ms->stamp);	/* once for the query's hits */
	qsort(ms->c, (size_t)nc, sizeof *ms->c, cmp_score);
	k = nc < ms->o.k ? (int)nc : ms->o.k;
	if (ev_grow(&ms->best, &ms->bcap, (size_t)nq - 1, sizeof *ms->best, 64) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	for (int h = 0; h < k; h++) {
		long long n;
		const float *d = ev_mvindex_record(ms->ix, ms->c[h].rec, &n);
		/* Again for the best vectors of the hits kept only. */
		ev_mvsearch_maxsim(ms->q, nq, d, n, ms->dim, ms->scratch, ms->best);
		if (write_hit(ms, base, &ms->c[h], h + 1, nq, ms->best, err) == -1)
			goto out;
		ms->hits++;
	}
	if (fflush(ms->out) == EOF) {
		ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error");
		goto out;
	}
	rc = k;
out:
	if (rc == -1)
		ev_qidset_drop_last(&ms->qids);	/* its id is free again */
	json_decref(base);
	return rc;
}
