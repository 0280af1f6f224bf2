/* pack.c: EvidencePack v0.1.  See pack.h. */
#include "pack.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assemble.h"
#include "clock.h"
#include "evidence.h"
#include "jscan.h"
#include "jsoncopy.h"
#include "hitcheck.h"
#include "jsonl.h"
#include "packstate.h"
#include "uuid.h"

/* ---- the clock ---- */

int
ev_pack_time_ok(const char *s)
{
	long long ms;

	return ev_clock_parse(s, &ms) == 0;
}

/* Unix time ms as RFC 3339 UTC to the second, the form of a pack's times. */
static void
format_seconds(long long ms, char *buf, size_t size)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int
ev_pack_now(char *buf, size_t size)
{
	int fixed;
	long long ms = ev_clock_now_ms(&fixed);

	if (fixed) {	/* EV_FIXED_TIME, as written */
		snprintf(buf, size, "%s", getenv("EV_FIXED_TIME"));
		return 1;
	}
	format_seconds(ms, buf, size);
	return 0;
}

void
ev_pack_time_of(long long epoch_ms, char *buf, size_t size)
{
	if (!ev_pack_now(buf, size))
		format_seconds(epoch_ms, buf, size);
}

void
ev_pack_set_request_start(struct ev_pack *p, long long epoch_ms)
{
	p->request_ms = epoch_ms;
}

/* ---- the accumulator ---- */

static const char *const key_names[NKEYS] = {
	"id", "score", "rank", "explain", "lane", "snippet", "doc_id", "query", "signals",
	"evidence", "rerank", "routing", "warnings", "modality", "metadata", "query_id",
	"request_id", "query_index", "filters", "title", "section_id", "section_title",
	"section_path", "source_uri", "source_type", "language", "content_hash",
	"published_date", "chunk_index", "offset_start", "offset_end", "page", "page_end"
};
_Static_assert(NKEYS <= 64, "index_members() keeps a 64-bit mask of the keys");

/* The chunk's fields a hit carries (K_TITLE on), each when present and not
 * null of its type: a string, or a whole number from K_CHUNK_INDEX on (one
 * written as a real, 3.0, made the integer the pack shows); and its
 * metadata, an object (its explain: ev_hit_check()).  The pack would drop
 * one of another type unsaid.  The page and page_end of the metadata, which
 * the pack shows when the hit has none of its own, are the text lane's for
 * a PDF chunk, or the document's own, free-form: 3.0 is made 3 too, and one
 * that is not a whole number is left out of the pack, and said (once).  (A
 * modality that is not a string gives way to the metadata's, or the lane's:
 * tests/hostile's ok-modality-number.)  Returns 0, or -1 with *err set
 * (code 2 at where, 1 out of memory). */
static int
chunk_fields_check(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err)
{
	struct ev_err free_form = { 0 };
	const char *s;
	long long n;
	json_t *meta = NULL, *in;
	int k, r;

	/* and the metadata, which the scanned line's fast path holds to its
	 * type too (explain: ev_hit_check()) */
	if (ev_field_obj(hit, "metadata", 0, &meta, where, err) == -1)
		return -1;
	for (k = K_TITLE; k < K_CHUNK_INDEX; k++)
		if (ev_field_str(hit, key_names[k], 0, &s, where, err) == -1)
			return -1;
	for (k = K_CHUNK_INDEX; k < NKEYS; k++) {
		in = hit;
		r = ev_field_int(hit, key_names[k], 0, &n, where, err);
		if (r == 0 && k >= K_PAGE && meta != NULL) {	/* the page: else the metadata's */
			in = meta;
			if ((r = ev_field_int(meta, key_names[k], 0, &n, where, &free_form)) == -1 &&
			    !p->page_noted) {
				p->page_noted = 1;
				ev_note(p->note, p->note_ctx, "%s: field 'metadata.%s' is not a whole "
				    "number: left out of the evidence's metadata (said once)", where,
				    key_names[k]);
			}
			r = r == -1 ? 0 : r;
		}
		if (r == -1)
			return -1;
		if (r == 1 && ev_json_whole_member(in, key_names[k]) == -1)	/* 3.0 is 3 */
			return ev_err_nomem(err);
	}
	return 0;
}

struct ev_pack *
ev_pack_new(const struct ev_pack_opts *o, const json_t *plan, const json_t *ignored,
    const char *plan_id, struct ev_err *err)
{
	struct ev_pack *p = calloc(1, sizeof *p);

	if (p == NULL || (p->ids = json_object()) == NULL || (p->twice = json_object()) == NULL ||
	    (p->warnings = json_array()) == NULL || (p->hitwarn = json_array()) == NULL ||
	    (p->groups = json_array()) == NULL || (p->hitwarn_set = json_object()) == NULL ||
	    (p->qkeys = json_object()) == NULL || (p->qindex = json_object()) == NULL) {
		if (p != NULL) {
			json_decref(p->ids);
			json_decref(p->twice);
			json_decref(p->warnings);
			json_decref(p->hitwarn);
			json_decref(p->groups);
			json_decref(p->hitwarn_set);
			json_decref(p->qkeys);
		}
		free(p);
		ev_err_nomem(err);
		return NULL;
	}
	p->o = *o;
	p->plan = plan;
	p->ignored = ignored;
	p->cur = -1;
	snprintf(p->plan_id, sizeof p->plan_id, "%s", plan_id);
	return p;
}

int
ev_pack_request(struct ev_pack *p, const char *request_id, struct ev_err *err)
{
	char *r = strdup(request_id);

	if (r == NULL)
		return ev_err_nomem(err);
	free(p->req);
	p->req = r;
	return 0;
}

void
ev_pack_set_vectors(struct ev_pack *p, ev_pack_vector_fn fn, void *ctx, int dim)
{
	p->vfn = fn;
	p->vctx = ctx;
	p->dim = dim;
}

void
ev_pack_set_texts(struct ev_pack *p, ev_pack_text_fn fn, void *ctx)
{
	p->tfn = fn;
	p->tctx = ctx;
}

void
ev_pack_set_note(struct ev_pack *p, ev_note_fn *fn, void *ctx)
{
	p->note = fn;
	p->note_ctx = ctx;
}

int
ev_pack_begin(struct ev_pack *p, struct ev_err *err)
{
	size_t i;

	(void)err;
	for (i = 0; i < p->n; i++) {
		json_decref(p->it[i].hit);
		free(p->it[i].words);
		free(p->it[i].pv);
		free(p->it[i].vec);
		json_decref(p->it[i].ev);
	}
	for (i = 0; i < p->nq; i++) {
		json_decref(p->q[i].id);
		json_decref(p->q[i].routing);
		json_decref(p->q[i].filters);
		free(p->q[i].key);
		free(p->q[i].text);
	}
	p->n = p->nq = 0;
	p->cur = -1;
	free(p->req);
	p->req = NULL;
	ev_buf_reset(&p->raw);
	ev_buf_reset(&p->firsts);
	json_object_clear(p->ids);
	json_object_clear(p->twice);
	json_array_clear(p->hitwarn);
	json_object_clear(p->hitwarn_set);
	json_object_clear(p->qkeys);
	json_object_clear(p->qindex);
	json_array_clear(p->groups);
	json_decref(p->fusion);
	json_decref(p->rerank);
	p->fusion = p->rerank = NULL;
	return 0;
}

void
ev_pack_free(struct ev_pack *p)
{
	if (p == NULL)
		return;
	ev_pack_begin(p, NULL);
	free(p->it);
	free(p->q);
	json_decref(p->ids);
	json_decref(p->twice);
	json_decref(p->warnings);
	json_decref(p->hitwarn);
	json_decref(p->hitwarn_set);
	json_decref(p->qkeys);
	json_decref(p->qindex);
	json_decref(p->groups);
	ev_contra_free(p->contra);
	ev_buf_release(&p->raw);
	ev_buf_release(&p->firsts);
	ev_buf_release(&p->tkey);
	ev_buf_release(&p->idb);
	ev_buf_release(&p->qidb);
	ev_buf_release(&p->reqb);
	ev_buf_release(&p->rerankb);
	ev_jscan_release(&p->js);
	free(p->sub.m);
	free(p);
}

int
ev_pack_warn(struct ev_pack *p, const char *msg, struct ev_err *err)
{
	if (json_array_append_new(p->warnings, json_string(msg)) == -1)
		return ev_err_nomem(err);
	return 0;
}

long long
ev_pack_count(const struct ev_pack *p)
{
	return (long long)p->n;
}

int
ev_pack_query(struct ev_pack *p, const json_t *query_id, const char *query, long long query_index,
    const json_t *routing, const char *where, struct ev_err *err)
{
	char ibuf[32];
	const char *key;
	struct pq *x;
	json_t *v;
	size_t i;
	int r;

	if (query_id == NULL || json_is_null(query_id)) {
		/* a hit given without a query_id (ev_pack_add()): a query without a name */
		query_id = json_null();
		ev_buf_reset(&p->qidb);
	} else if ((r = ev_json_id_buf(query_id, &p->qidb)) != 0) {
		return r == -2 ? ev_err_nomem(err) : ev_err_query_id(err, where);
	}
	key = ev_buf_str(&p->qidb);
	v = json_object_get(p->qkeys, key);
	i = v ? (size_t)json_integer_value(v) : p->nq;
	if (query_index >= 0) {
		snprintf(ibuf, sizeof ibuf, "%lld", query_index);
		v = json_object_get(p->qindex, ibuf);
		if (v != NULL && (size_t)json_integer_value(v) != i)
			return ev_err_set(err, EV_EXIT_USAGE, where, "queries '%s' and '%s' "
			    "of one request both have query_index %lld: each query of a "
			    "request needs its own", p->q[json_integer_value(v)].key, key,
			    query_index);
		if (i < p->nq && p->q[i].given && p->q[i].index != query_index)
			return ev_err_set(err, EV_EXIT_USAGE, where, "query '%s' has query_index "
			    "%lld and %lld", key, p->q[i].index, query_index);
	}
	if (i == p->nq) {
		if (ev_grow(&p->q, &p->capq, p->nq, sizeof *p->q, 4) == -1)
			return ev_err_nomem(err);
		x = &p->q[p->nq];
		memset(x, 0, sizeof *x);
		if ((x->key = strdup(key)) == NULL ||
		    (x->id = ev_jsoncopy_deep(query_id)) == NULL) {
			free(x->key);
			return ev_err_nomem(err);
		}
		x->index = (long long)p->nq;
		if (json_object_set_new(p->qkeys, key, json_integer((json_int_t)p->nq)) == -1) {
			free(x->key);
			json_decref(x->id);
			return ev_err_nomem(err);
		}
		p->nq++;
	}
	x = &p->q[i];
	if (query_index >= 0 && !x->given) {
		x->index = query_index;
		x->given = 1;
		if (json_object_set_new(p->qindex, ibuf, json_integer((json_int_t)i)) == -1)
			return ev_err_nomem(err);
	}
	if (x->text == NULL && query != NULL && (x->text = strdup(query)) == NULL)
		return ev_err_nomem(err);
	if (x->routing == NULL && json_is_object(routing))
		x->routing = json_incref((json_t *)routing);
	p->cur = (int)i;
	return 0;
}

void
ev_pack_query_filters(struct ev_pack *p, const json_t *filters)
{
	if (p->cur >= 0 && p->q[p->cur].filters == NULL && json_is_object(filters))
		p->q[p->cur].filters = json_incref((json_t *)filters);
}

/* A zeroed item at p->it[p->n] (p->n is not moved), or NULL when out of
 * memory. */
static struct item *
new_item(struct ev_pack *p, struct ev_err *err)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct item *q = realloc(p->it, cap * sizeof *q);
		if (q == NULL) {
			ev_err_nomem(err);
			return NULL;
		}
		p->it = q;
		p->cap = cap;
	}
	memset(&p->it[p->n], 0, sizeof p->it[p->n]);
	p->it[p->n].group = -1;
	return &p->it[p->n];
}

/* ---- a lane lists a chunk at most once per query ---- */

/* Note at the end of p->firsts, where it->first (set by the caller) says,
 * where item it's first hit was read, and its lane (the text lane[0..n) of a
 * JSON string, as read when raw; NULL: none), for once_per_lane().  Returns
 * 0, or -1 with *err set (out of memory). */
static int
note_first(struct ev_pack *p, struct item *it, const char *lane, size_t n, int raw,
    const char *where, struct ev_err *err)
{
	struct ev_buf *b = &p->firsts;

	it->q0 = p->cur;
	if (ev_buf_add(b, where, strlen(where) + 1) == -1 || ev_buf_addc(b, lane ? 'L' : '-') == -1 ||
	    (lane != NULL && (raw ? ev_jscan_decode(b, lane, n) : ev_buf_add(b, lane, n)) == -1) ||
	    ev_buf_addc(b, '\0') == -1) {
		b->len = it->first;
		return ev_err_nomem(err);
	}
	return 0;
}

/* The key in p->twice of a hit of id from lane (NULL: none) for query q, in
 * p->tkey; NULL when out of memory. */
static const char *
twice_key(struct ev_pack *p, int q, const char *lane, const char *id)
{
	ev_buf_reset(&p->tkey);
	if (ev_buf_printf(&p->tkey, "%d:%zu:%s%s", q, lane ? strlen(lane) : 0, lane ? lane : "",
	    id) == -1)
		return NULL;
	return ev_buf_str(&p->tkey);
}

/* Refuse a hit of id from lane (NULL: none), read at where, that its lane
 * gave already for the current query (a lane lists a chunk at most once per
 * query: ev-fuse, ev-rerank and ev-expand refuse it too), it being item
 * it's id.  The same id from another lane, or another query, is merged.
 * Returns 0 with the hit noted, or -1 with *err set (code 2 naming both
 * places; out of memory). */
static int
once_per_lane(struct ev_pack *p, struct item *it, const char *lane, const char *id,
    const char *where, struct ev_err *err)
{
	const char *k, *w;
	json_t *was;
	size_t at;

	if (!it->noted) {	/* its first hit, noted only now that there is a second */
		w = p->firsts.p + it->first;
		k = w + strlen(w) + 1;
		if ((k = twice_key(p, it->q0, k[0] == 'L' ? k + 1 : NULL, id)) == NULL ||
		    json_object_set_new(p->twice, k, json_integer((json_int_t)it->first)) == -1)
			return ev_err_nomem(err);
		it->noted = 1;
	}
	if ((k = twice_key(p, p->cur, lane, id)) == NULL)
		return ev_err_nomem(err);
	if ((was = json_object_get(p->twice, k)) != NULL)
		return ev_err_hit_twice(err, where, id, lane, p->q[p->cur].key,
		    p->firsts.p + json_integer_value(was));
	at = p->firsts.len;
	if (ev_buf_add(&p->firsts, where, strlen(where) + 1) == -1 ||
	    json_object_set_new(p->twice, k, json_integer((json_int_t)at)) == -1)
		return ev_err_nomem(err);
	return 0;
}

/* The members of a hit's "rerank" (ev-rerank's {"model", "config",
 * "top_n"}) that explain.rerank shows, when present and not null: a string
 * model, a whole top_n from 0 (5.0 made 5), an object config.  Returns 0,
 * or -1 with *err set (code 2 at where, 1 out of memory). */
static int
rerank_check(json_t *rerank, const char *where, struct ev_err *err)
{
	const json_t *m = json_object_get(rerank, "model"), *n, *c = json_object_get(rerank, "config");

	if (ev_json_whole_member(rerank, "top_n") == -1)	/* 5.0 is 5 */
		return ev_err_nomem(err);
	n = json_object_get(rerank, "top_n");
	if (m != NULL && !json_is_null(m) && !json_is_string(m))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rerank.model' must be a string");
	if (n != NULL && !json_is_null(n) && (!json_is_integer(n) || json_integer_value(n) < 0))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'rerank.top_n' must be a whole number from 0");
	if (c != NULL && !json_is_null(c) && !json_is_object(c))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rerank.config' must be an object");
	return 0;
}

/* The hit's fields for the request, all optional: "rerank" (an object,
 * rerank_check()ed: the first is kept), "warnings" (strings: each kept once), "routing" (an
 * object: the query's when it has none), "filters" (an object: the filters
 * its lane applied, the query's when it has none).  Checked first, then
 * taken.  Returns 0, or -1 with *err set (code 2 at where). */
static int
take_extras(struct ev_pack *p, json_t *rerank, json_t *warnings, json_t *routing,
    json_t *filters, const char *where, struct ev_err *err)
{
	json_t *w;
	size_t i;

	if (rerank != NULL && !json_is_null(rerank) && !json_is_object(rerank))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rerank' must be an object");
	if (rerank_check(rerank, where, err) == -1)
		return -1;
	if (routing != NULL && !json_is_null(routing) && !json_is_object(routing))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'routing' must be an object");
	if (filters != NULL && !json_is_null(filters) && !json_is_object(filters))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'filters' must be an object");
	if (warnings != NULL && !json_is_null(warnings)) {
		if (!json_is_array(warnings))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'warnings' must be an array of strings");
		json_array_foreach(warnings, i, w)
			if (!json_is_string(w))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "field 'warnings' must be an array of strings");
		json_array_foreach(warnings, i, w) {
			if (json_object_get(p->hitwarn_set, json_string_value(w)) != NULL)
				continue;
			if (json_object_set_new(p->hitwarn_set, json_string_value(w), json_true()) == -1 ||
			    json_array_append(p->hitwarn, w) == -1)
				return ev_err_nomem(err);
		}
	}
	if (p->rerank == NULL && json_is_object(rerank))
		p->rerank = json_incref(rerank);
	if (p->cur >= 0 && p->q[p->cur].routing == NULL && json_is_object(routing))
		p->q[p->cur].routing = json_incref(routing);
	if (p->cur >= 0 && p->q[p->cur].filters == NULL && json_is_object(filters))
		p->q[p->cur].filters = json_incref(filters);
	return 0;
}

/* The query hits are added to: the current one, else one named by hit. */
static int
current_query(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err)
{
	json_t *qi, *qid;

	if (p->cur >= 0)
		return 0;
	qi = json_object_get(hit, "query_index");
	qid = json_object_get(hit, "query_id");
	return ev_pack_query(p, qid, json_string_value(json_object_get(hit,
	    "query")), json_is_integer(qi) ? json_integer_value(qi) : -1, NULL, where, err);
}

/* The group of a candidate: its lanes ("vector+text"), or its modality (its
 * own "modality" or its metadata's, else from its lanes: visual for the
 * region lane, structured for the structured lane alone, else text). */
static int
item_group(struct ev_pack *p, struct item *it, const char *modality, struct ev_err *err)
{
	char lanes[256];	/* the lanes' names, at most 70 bytes */
	const char *name;
	json_t *v;
	size_t i;

	if (p->o.group_by == EV_PACK_GROUP_NONE)
		return 0;
	if (p->o.group_by == EV_PACK_GROUP_LANE) {
		ev_pack_lanes_text(it->lanes, lanes, sizeof lanes);
		name = lanes;
	} else if (modality != NULL && modality[0] != '\0') {
		name = modality;	/* of any length */
	} else {
		name = it->lanes & (LANE_REGION | LANE_VISUAL) ? "visual" :
		    it->lanes == LANE_STRUCTURED ? "structured" : "text";
	}
	if (name[0] == '\0')
		name = "none";
	json_array_foreach(p->groups, i, v)
		if (strcmp(json_string_value(v), name) == 0)
			break;
	if (i == json_array_size(p->groups) &&
	    json_array_append_new(p->groups, json_string(name)) == -1)
		return ev_err_nomem(err);
	it->group = (int)i;
	return 0;
}

/* A string field of the hit, or of its metadata. */
static const char *
hit_str_or_meta(json_t *hit, const char *k)
{
	const char *s = json_string_value(json_object_get(hit, k));

	return s ? s : json_string_value(json_object_get(json_object_get(hit, "metadata"), k));
}

/* Remember that query q found it with this score, rank and lanes. */
static int
add_prov(struct item *it, int q, double score, long long rank, unsigned lanes,
    struct ev_err *err)
{
	struct prov *n;
	size_t i;

	if (it->pv == NULL) {
		if ((it->pv = malloc(2 * sizeof *it->pv)) == NULL)
			return ev_err_nomem(err);
		it->pv[0] = (struct prov){ it->q, it->score, it->rank, it->lanes };
		it->npv = 1;
	}
	for (i = 0; i < it->npv; i++)
		if (it->pv[i].q == q) {
			it->pv[i].lanes |= lanes;
			if (score > it->pv[i].score) {
				it->pv[i].score = score;
				it->pv[i].rank = rank;
			}
			return 0;
		}
	if ((n = realloc(it->pv, (it->npv + 1) * sizeof *n)) == NULL)
		return ev_err_nomem(err);
	it->pv = n;
	it->pv[it->npv++] = (struct prov){ q, score, rank, lanes };
	return 0;
}

/* Keep the evidence of hit, of the id of it, with its own (the evidence of
 * a candidate is merged from every hit of it).  When another
 * query of the request found it (cross), each entry says which query's it
 * is.  Returns 0, or -1 with *err set (out of memory). */
static int
merge_evidence(struct ev_pack *p, struct item *it, const json_t *hit, int cross,
    struct ev_err *err)
{
	json_t *mine;
	int r;

	if (it->ev == NULL && (it->ev = ev_evidence_of_hit(it->hit, -1)) == NULL)
		return ev_err_nomem(err);
	if (cross && ev_evidence_tag_query(it->ev, p->q[it->q].index) == -1)
		return ev_err_nomem(err);
	if ((mine = ev_evidence_of_hit(hit, cross ? p->q[p->cur].index : -1)) == NULL)
		return ev_err_nomem(err);
	r = ev_evidence_merge(it->ev, mine);
	json_decref(mine);
	return r == -1 ? ev_err_nomem(err) : 0;
}

int
ev_pack_add(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err)
{
	const char *id, *lane;
	double score;
	json_t *v, *ix, *qi;
	struct item *it;
	long long rank;
	unsigned lanes;

	if (ev_hit_check(hit, where, err) == -1 || chunk_fields_check(p, hit, where, err) == -1)
		return -1;
	if (ev_json_whole_member(hit, "query_index") == -1)	/* 1.0 is 1 */
		return ev_err_nomem(err);
	qi = json_object_get(hit, "query_index");
	if (qi != NULL && !json_is_null(qi) && (!json_is_integer(qi) || json_integer_value(qi) < 0))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'query_index' must be a whole number from 0");
	if (current_query(p, hit, where, err) == -1)
		return -1;
	if ((v = json_object_get(hit, "query")) != NULL && p->q[p->cur].text != NULL &&
	    strcmp(json_string_value(v), p->q[p->cur].text) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, where, "query '%s' is '%s' here but '%s'"
		    " before: the hits of one query_id must be of one query; give each query its"
		    " own query_id", p->q[p->cur].key, json_string_value(v), p->q[p->cur].text);
	id = json_string_value(json_object_get(hit, "id"));
	lane = json_string_value(json_object_get(hit, "lane"));
	if ((ix = json_object_get(p->ids, id)) != NULL &&
	    once_per_lane(p, &p->it[json_integer_value(ix)], lane, id, where, err) == -1)
		return -1;
	if (take_extras(p, json_object_get(hit, "rerank"), json_object_get(hit, "warnings"),
	    json_object_get(hit, "routing"), json_object_get(hit, "filters"), where, err) == -1)
		return -1;
	if (p->q[p->cur].text == NULL && json_is_string(json_object_get(hit, "query")) &&
	    (p->q[p->cur].text = strdup(json_string_value(json_object_get(hit, "query")))) == NULL)
		return ev_err_nomem(err);
	if (p->req == NULL && json_is_string(json_object_get(hit, "request_id")) &&
	    (p->req = strdup(json_string_value(json_object_get(hit, "request_id")))) == NULL)
		return ev_err_nomem(err);
	score = json_number_value(json_object_get(hit, "score"));
	rank = json_is_integer(json_object_get(hit, "rank")) ?
	    json_integer_value(json_object_get(hit, "rank")) : 0;
	lanes = ev_pack_hit_lanes(hit);
	if (p->fusion == NULL && (v = json_object_get(hit, "explain")) != NULL &&
	    json_is_object(v) && json_is_string(json_object_get(v, "method")))
		p->fusion = json_incref(v);
	if ((ix = json_object_get(p->ids, id)) != NULL) {
		it = &p->it[json_integer_value(ix)];
		if (ev_pack_materialize(p, it, err) == -1 ||
		    merge_evidence(p, it, hit, it->q != p->cur || it->pv != NULL, err) == -1)
			return -1;
		if (it->q != p->cur || it->pv != NULL) {
			/* another query of the request found it too: kept once, at
			 * the better score, with the query that found it best */
			if (add_prov(it, p->cur, score, rank, lanes, err) == -1)
				return -1;
			if (it->q == p->cur)
				it->lanes |= lanes;
			if (score > it->score) {
				json_t *copy = ev_jsoncopy_shallow(hit);
				if (copy == NULL)
					return ev_err_nomem(err);
				json_decref(it->hit);
				it->hit = copy;
				it->score = score;
				it->rank = rank;
				if (it->q != p->cur)
					it->lanes = lanes;
				it->q = p->cur;
			}
			return 0;
		}
		/* the same id again from this query (lanes given unfused): keep
		 * the higher score, and every lane that found it */
		it->lanes |= lanes;
		if (score > it->score) {
			json_t *old = it->hit;
			v = json_object_get(old, "signals");
			it->hit = ev_jsoncopy_shallow(hit);
			if (it->hit == NULL) {
				it->hit = old;
				return ev_err_nomem(err);
			}
			int r = 0;
			if (json_is_object(v) && json_is_object(json_object_get(it->hit, "signals")))
				r = ev_jsoncopy_update(json_object_get(it->hit, "signals"), v, 1);
			else if (json_is_object(v))
				r = json_object_set(it->hit, "signals", v);
			json_decref(old);
			it->score = score;
			it->rank = rank;
			if (r == -1)
				return ev_err_nomem(err);
		} else {
			json_t *mine = json_object_get(it->hit, "signals");
			v = json_object_get(hit, "signals");
			if (json_is_object(v) && json_is_object(mine) &&
			    ev_jsoncopy_update(mine, v, 1) == -1)
				return ev_err_nomem(err);
		}
		/* each lane's own signals */
		return item_group(p, it, hit_str_or_meta(it->hit, "modality"), err);
	}
	if ((it = new_item(p, err)) == NULL)
		return -1;
	it->first = p->firsts.len;
	/* a copy, so that merging never touches the caller's record */
	if ((it->hit = ev_jsoncopy_shallow(hit)) == NULL ||
	    note_first(p, it, lane, lane ? strlen(lane) : 0, 0, where, err) == -1 ||
	    json_object_set_new(p->ids, id, json_integer((json_int_t)p->n)) == -1) {
		json_decref(it->hit);
		p->firsts.len = it->first;
		return ev_err_nomem(err);
	}
	it->score = score;
	it->lanes = lanes;
	it->q = p->cur;
	it->rank = rank;
	p->n++;
	return item_group(p, it, hit_str_or_meta(hit, "modality"), err);
}

/* ---- hits as lines: scanned, kept raw, parsed when looked at ---- */

/* The index of the member named key (a null one counts as absent), or -1. */
static int
member(const struct ev_jmem *m, size_t nm, const char *key)
{
	size_t n = strlen(key), i;

	for (i = 0; i < nm; i++)
		if (m[i].kesc ? ev_jscan_str_eq(m[i].key, m[i].klen, key) :
		    m[i].klen == n && memcmp(m[i].key, key, n) == 0)
			return m[i].type == EV_JNULL ? -1 : (int)i;
	return -1;
}

/* Is member i absent, or of type t? */
static int
absent_or(const struct ev_jmem *m, int i, int t)
{
	return i < 0 || m[i].type == t;
}

/* Fill p->at from the scanned members m[0..nm): each key's first member
 * (the scanner refuses a key given twice), -1 for one absent or null. */
static void
index_members(struct ev_pack *p, const struct ev_jmem *m, size_t nm)
{
	static size_t len[NKEYS];
	static uint64_t first[256];	/* the keys that begin with a byte */
	size_t i;
	int k;

	if (len[0] == 0)
		for (k = 0; k < NKEYS; k++) {
			len[k] = strlen(key_names[k]);
			first[(unsigned char)key_names[k][0]] |= (uint64_t)1 << k;
		}
	for (k = 0; k < NKEYS; k++)
		p->at[k] = -1;
	for (i = 0; i < nm; i++) {
		/* (an escaped key may begin with a backslash: all keys are tried) */
		uint64_t cand = m[i].kesc ? ~(uint64_t)0 :
		    m[i].klen ? first[(unsigned char)m[i].key[0]] : 0;
		for (k = 0; k < NKEYS; k++)
			if ((cand >> k & 1) && (m[i].kesc ?
			    ev_jscan_str_eq(m[i].key, m[i].klen, key_names[k]) :
			    m[i].klen == len[k] && memcmp(m[i].key, key_names[k], len[k]) == 0)) {
				if (m[i].type != EV_JNULL)
					p->at[k] = (int)i;
				break;
			}
	}
}

/* The decoded text of the string member m, in p->idb (valid until the next
 * call).  Returns NULL when out of memory. */
static const char *
mem_str(struct ev_pack *p, const struct ev_jmem *m)
{
	ev_buf_reset(&p->idb);
	if (ev_jscan_decode(&p->idb, m->val + 1, m->vlen - 2) == -1 ||
	    ev_buf_reserve(&p->idb, 1) == -1)
		return NULL;
	return ev_buf_str(&p->idb);
}

/* ev_pack_hit_lanes() over a scanned record: the lanes of its explanation's lanes
 * that found it, of its evidence, or of its signals. */
struct lanes_ctx {
	struct ev_jmems *m;
	unsigned bits;
	int need_found;		/* explain.lanes: only those with "found": true */
	int bad;
};

static int
lane_elem(const char *e, size_t n, void *data)
{
	struct lanes_ctx *c = data;
	int i, f;

	if (n == 0 || e[0] != '{')
		return 0;
	c->m->n = 0;
	if (ev_jscan_members(e, n, c->m) == -1) {
		c->bad = 1;
		return 1;
	}
	f = member(c->m->m, c->m->n, "found");
	if (c->need_found && (f < 0 || c->m->m[f].type != EV_JTRUE))
		return 0;
	if ((i = member(c->m->m, c->m->n, "lane")) >= 0 && c->m->m[i].type == EV_JSTR)
		c->bits |= ev_pack_raw_lane_bit(c->m->m[i].val + 1, c->m->m[i].vlen - 2);
	return 0;
}

static int
raw_hit_lanes(struct ev_pack *p, const struct ev_jmem *m, size_t nm, unsigned *out)
{
	struct lanes_ctx c = { &p->sub, 0, 1, 0 };
	int i = p->at[K_LANE], x, a;

	if (i >= 0 && m[i].type == EV_JSTR && !ev_jscan_str_eq(m[i].val + 1, m[i].vlen - 2, "fused")) {
		*out = ev_pack_raw_lane_bit(m[i].val + 1, m[i].vlen - 2);
		return 0;
	}
	(void)nm;
	if ((x = p->at[K_EXPLAIN]) >= 0 && m[x].type == EV_JOBJ) {
		p->sub.n = 0;
		if (ev_jscan_members(m[x].val, m[x].vlen, &p->sub) == -1)
			return -1;
		if ((a = member(p->sub.m, p->sub.n, "lanes")) >= 0 && p->sub.m[a].type == EV_JARR) {
			const char *v = p->sub.m[a].val;
			size_t vn = p->sub.m[a].vlen;
			struct ev_jmems inner = { NULL, 0, 0 };

			c.m = &inner;
			ev_jscan_elements(v, vn, lane_elem, &c);
			free(inner.m);
			if (c.bad)
				return -1;
		}
	}
	if (c.bits == 0 && (a = p->at[K_EVIDENCE]) >= 0 && m[a].type == EV_JARR) {
		c.m = &p->sub;
		c.need_found = 0;
		ev_jscan_elements(m[a].val, m[a].vlen, lane_elem, &c);
		if (c.bad)
			return -1;
	}
	if (c.bits == 0 && (a = p->at[K_SIGNALS]) >= 0 && m[a].type == EV_JOBJ) {
		p->sub.n = 0;
		if (ev_jscan_members(m[a].val, m[a].vlen, &p->sub) == -1)
			return -1;
		for (i = 0; i < (int)p->sub.n; i++) {
			/* (a key given twice is refused by the scanner) */
			if (ev_jscan_str_eq(p->sub.m[i].key, p->sub.m[i].klen, "fts_score"))
				c.bits |= LANE_TEXT;
			else if (ev_jscan_str_eq(p->sub.m[i].key, p->sub.m[i].klen, "vector_score"))
				c.bits |= LANE_VECTOR;
		}
	}
	*out = c.bits ? c.bits : LANE_OTHER;
	return 0;
}

int
ev_pack_scan_line(struct ev_pack *p, const char *line, size_t len, const char *where,
    struct ev_pack_line *li, struct ev_err *err)
{
	const struct ev_jmem *m;
	int t = ev_jscan_value(&p->js, line, len, where, err), q, r;
	size_t nm;

	p->line = NULL;
	li->request_id = NULL;
	li->query_index = -1;
	li->query_id_int = 0;
	if (t == -1) {
		ev_json_refused(line, len, where, err);
		return -1;
	}
	if (t != EV_JOBJ)
		return ev_err_set(err, EV_EXIT_USAGE, where, "hit must be a JSON object");
	m = p->js.top.m;
	nm = p->js.top.n;
	index_members(p, m, nm);
	if ((r = p->at[K_REQUEST_ID]) >= 0) {
		if (m[r].type != EV_JSTR)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'request_id' must be a string");
		ev_buf_reset(&p->reqb);
		if (ev_jscan_decode(&p->reqb, m[r].val + 1, m[r].vlen - 2) == -1 ||
		    ev_buf_reserve(&p->reqb, 1) == -1)
			return ev_err_nomem(err);
		li->request_id = ev_buf_str(&p->reqb);
	}
	if ((r = p->at[K_QUERY_INDEX]) >= 0) {
		long long iv = m[r].type == EV_JINT ? ev_jscan_integer(m[r].val, m[r].vlen) : -1;
		double d;

		if (m[r].type == EV_JREAL && ev_jscan_number(m[r].val, m[r].vlen, &d) == -1)
			return ev_err_nomem(err);
		if (m[r].type == EV_JREAL && !ev_json_whole(d, &iv))	/* 1.0 is 1 */
			iv = -1;
		if (iv < 0)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'query_index' must be a whole number from 0");
		li->query_index = iv;
	}
	if ((q = p->at[K_QUERY_ID]) < 0)
		return ev_err_set(err, EV_EXIT_USAGE, where, "missing field 'query_id'");
	if (m[q].type == EV_JSTR) {
		if ((li->query_id = mem_str(p, &m[q])) == NULL)
			return ev_err_nomem(err);
	} else if (m[q].type == EV_JINT) {
		ev_buf_reset(&p->idb);
		if (ev_buf_add(&p->idb, m[q].val, m[q].vlen) == -1 || ev_buf_reserve(&p->idb, 1) == -1)
			return ev_err_nomem(err);
		li->query_id = ev_buf_str(&p->idb);
		li->query_id_int = 1;
	} else {
		return ev_err_query_id(err, where);
	}
	p->line = line;
	p->linelen = len;
	return 0;
}

/* The record the scanner just took, parsed, and handed to ev_pack_add(). */
static int
add_parsed(struct ev_pack *p, const char *where, struct ev_err *err)
{
	json_t *hit = ev_json_parse_line(p->line, p->linelen, where, err);
	int r;

	if (hit == NULL)
		return -1;
	r = ev_pack_add(p, hit, where, err);
	json_decref(hit);
	return r;
}

/* take_extras() for a scanned record: its "rerank", "warnings", "routing"
 * and "filters" members, parsed only when they are there and needed (each
 * hit's rerank is checked, as the parsed path checks it, unless it is the
 * text checked last: ev-rerank gives every hit the same). */
static int
raw_extras(struct ev_pack *p, const struct ev_jmem *m, size_t nm, const char *where,
    struct ev_err *err)
{
	static const int keys[] = { K_RERANK, K_WARNINGS, K_ROUTING, K_FILTERS };
	json_t *v[4] = { NULL, NULL, NULL, NULL };
	const struct ev_jmem *rr = p->at[K_RERANK] >= 0 ? &m[p->at[K_RERANK]] : NULL;
	int i, k, r = 0;

	(void)nm;
	for (k = 0; k < 4; k++) {
		if ((i = p->at[keys[k]]) < 0 || (k == 0 && rr->vlen == p->rerankb.len &&
		    memcmp(rr->val, p->rerankb.p, rr->vlen) == 0) ||
		    (k == 2 && p->q[p->cur].routing != NULL) ||
		    (k == 3 && p->q[p->cur].filters != NULL))
			continue;
		if ((v[k] = ev_json_parse_line(m[i].val, m[i].vlen, where, err)) == NULL) {
			r = -1;
			break;
		}
	}
	if (r == 0)
		r = take_extras(p, v[0], v[1], v[2], v[3], where, err);
	if (r == 0 && v[0] != NULL) {
		ev_buf_reset(&p->rerankb);
		if (ev_buf_add(&p->rerankb, rr->val, rr->vlen) == -1)
			r = ev_err_nomem(err);
	}
	for (k = 0; k < 4; k++)
		json_decref(v[k]);
	return r;
}

/* item_group() for a scanned record: its "modality", or its metadata's. */
static int
raw_group(struct ev_pack *p, struct item *it, const struct ev_jmem *m, size_t nm,
    struct ev_err *err)
{
	const struct ev_jmem *mod = NULL;
	const char *s = NULL;
	int i;

	if (p->o.group_by == EV_PACK_GROUP_NONE)
		return 0;
	if (p->o.group_by == EV_PACK_GROUP_MODALITY) {
		(void)nm;
		if ((i = p->at[K_MODALITY]) >= 0) {
			mod = &m[i];
		} else if ((i = p->at[K_METADATA]) >= 0) {
			p->sub.n = 0;
			if (ev_jscan_members(m[i].val, m[i].vlen, &p->sub) == -1)
				return ev_err_nomem(err);
			if ((i = member(p->sub.m, p->sub.n, "modality")) >= 0 &&
			    p->sub.m[i].type == EV_JSTR)
				mod = &p->sub.m[i];
		}
		if (mod != NULL && (s = mem_str(p, mod)) == NULL)
			return ev_err_nomem(err);
	}
	return item_group(p, it, s, err);
}

/* Is the page or page_end of the scanned metadata meta, one the pack shows
 * (the hit at[] has none of its own), not an integer?  Then the parsed path
 * says it is left out, or makes 3.0 the integer 3.  1 or 0, or -1 out of
 * memory. */
static int
odd_meta_page(struct ev_pack *p, const struct ev_jmem *meta, const int *at)
{
	int i, k;

	if ((at[K_PAGE] >= 0 && at[K_PAGE_END] >= 0) ||
	    (memmem(meta->val, meta->vlen, "page", 4) == NULL &&
	    memchr(meta->val, '\\', meta->vlen) == NULL))	/* (an escaped key) */
		return 0;
	p->sub.n = 0;
	if (ev_jscan_members(meta->val, meta->vlen, &p->sub) == -1)
		return -1;
	for (k = K_PAGE; k <= K_PAGE_END; k++)
		if (at[k] < 0 && (i = member(p->sub.m, p->sub.n, key_names[k])) >= 0 &&
		    p->sub.m[i].type != EV_JINT)
			return 1;
	return 0;
}

int
ev_pack_add_line(struct ev_pack *p, const char *where, struct ev_err *err)
{
	const struct ev_jmem *m = p->js.top.m;
	size_t nm = p->js.top.n;
	const int *at = p->at;
	int id = at[K_ID], sc = at[K_SCORE], rk = at[K_RANK], x = at[K_EXPLAIN], lane, k;
	long long rank = 1;
	double score;
	const char *ids;
	struct item *it;

	if (p->line == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, where, "no hit scanned");
	/* Anything unusual (a field of the wrong type, an id given twice, to
	 * be merged, no query named yet) takes the parsed path, which words
	 * the messages. */
	if (p->cur < 0 || id < 0 || m[id].type != EV_JSTR || m[id].vlen <= 2 ||
	    sc < 0 || (m[sc].type != EV_JINT && m[sc].type != EV_JREAL) ||
	    !absent_or(m, rk, EV_JINT) || !absent_or(m, x, EV_JOBJ) ||
	    !absent_or(m, at[K_LANE], EV_JSTR) ||
	    !absent_or(m, at[K_SNIPPET], EV_JSTR) ||
	    !absent_or(m, at[K_DOC_ID], EV_JSTR) ||
	    !absent_or(m, at[K_QUERY], EV_JSTR) ||
	    !absent_or(m, at[K_SIGNALS], EV_JOBJ) ||
	    !absent_or(m, at[K_EVIDENCE], EV_JARR) ||
	    !absent_or(m, at[K_RERANK], EV_JOBJ) ||
	    !absent_or(m, at[K_ROUTING], EV_JOBJ) ||
	    !absent_or(m, at[K_FILTERS], EV_JOBJ) ||
	    !absent_or(m, at[K_WARNINGS], EV_JARR) ||
	    !absent_or(m, at[K_MODALITY], EV_JSTR) ||
	    !absent_or(m, at[K_METADATA], EV_JOBJ))
		return add_parsed(p, where, err);
	for (k = K_TITLE; k < NKEYS; k++)
		if (!absent_or(m, at[k], k < K_CHUNK_INDEX ? EV_JSTR : EV_JINT))
			return add_parsed(p, where, err);
	if (at[K_METADATA] >= 0 && (k = odd_meta_page(p, &m[at[K_METADATA]], at)) != 0)
		return k == -1 ? ev_err_nomem(err) : add_parsed(p, where, err);
	/* what signals, evidence, warnings and explain hold, by ev_hit_check()'s
	 * rule (a lane's rank of 2.0 is the parsed path's to make 2) */
	for (k = 0; k < 4; k++) {
		static const int nested[4] = { K_SIGNALS, K_EVIDENCE, K_WARNINGS, K_EXPLAIN };
		int r = at[nested[k]] < 0 ? 0 : ev_hit_check_member(&m[at[nested[k]]], &p->sub,
		    where, err);
		if (r == -1 && err->code == EV_EXIT_RUNTIME)
			return -1;
		if (r != 0)
			return add_parsed(p, where, err);
	}
	if (rk >= 0 && (rank = ev_jscan_integer(m[rk].val, m[rk].vlen)) < 1)
		return add_parsed(p, where, err);
	if (ev_jscan_number(m[sc].val, m[sc].vlen, &score) == -1)
		return ev_err_nomem(err);
	if (!isfinite(score))
		return add_parsed(p, where, err);
	if (p->q[p->cur].text != NULL && at[K_QUERY] >= 0) {
		/* another query's text: the parsed path refuses it */
		if ((ids = mem_str(p, &m[at[K_QUERY]])) == NULL)
			return ev_err_nomem(err);
		if (strcmp(ids, p->q[p->cur].text) != 0)
			return add_parsed(p, where, err);
	}
	if ((ids = mem_str(p, &m[id])) == NULL)
		return ev_err_nomem(err);
	if (json_object_get(p->ids, ids) != NULL)
		return add_parsed(p, where, err);
	if (p->fusion == NULL && x >= 0 && m[x].type == EV_JOBJ) {
		json_t *v = ev_json_parse_line(m[x].val, m[x].vlen, where, err);
		if (v == NULL)
			return -1;
		if (json_is_string(json_object_get(v, "method")))
			p->fusion = v;
		else
			json_decref(v);
	}
	if (raw_extras(p, m, nm, where, err) == -1)
		return -1;
	if ((p->q[p->cur].text == NULL && at[K_QUERY] >= 0) ||
	    (p->req == NULL && at[K_REQUEST_ID] >= 0)) {
		/* once per query: its text and its request (in p->idb, as ids is) */
		const char *q;
		if (p->q[p->cur].text == NULL && at[K_QUERY] >= 0 &&
		    ((q = mem_str(p, &m[at[K_QUERY]])) == NULL ||
		    (p->q[p->cur].text = strdup(q)) == NULL))
			return ev_err_nomem(err);
		if (p->req == NULL && at[K_REQUEST_ID] >= 0 &&
		    ((q = mem_str(p, &m[at[K_REQUEST_ID]])) == NULL || (p->req = strdup(q)) == NULL))
			return ev_err_nomem(err);
		if ((ids = mem_str(p, &m[id])) == NULL)
			return ev_err_nomem(err);
	}
	if ((it = new_item(p, err)) == NULL)
		return -1;
	it->raw = p->raw.len;
	it->rawlen = p->linelen;
	it->score = score;
	it->q = p->cur;
	it->rank = rk >= 0 ? rank : 0;
	it->first = p->firsts.len;
	lane = at[K_LANE];
	if (raw_hit_lanes(p, m, nm, &it->lanes) == -1 ||
	    note_first(p, it, lane >= 0 ? m[lane].val + 1 : NULL, lane >= 0 ? m[lane].vlen - 2 : 0,
	    1, where, err) == -1 ||
	    ev_buf_add(&p->raw, p->line, p->linelen) == -1 ||
	    json_object_set_new(p->ids, ids, json_integer((json_int_t)p->n)) == -1) {
		p->raw.len = it->raw;
		p->firsts.len = it->first;
		return ev_err_nomem(err);
	}
	p->n++;
	p->line = NULL;
	return raw_group(p, it, m, nm, err);
}
