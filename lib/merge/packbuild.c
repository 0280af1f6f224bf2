/* packbuild.c: the EvidencePack of the hits added (ev_pack_build() of
 * pack.h). */
#include "pack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assemble.h"
#include "config.h"
#include "jsoncopy.h"
#include "packexplain.h"
#include "packsnip.h"
#include "packitem.h"
#include "packselect.h"
#include "packstate.h"
#include "uuid.h"

/* the EvidencePack's name of a fusion method */
static const char *
method_name(const char *m)
{
	if (m == NULL)
		return "none";
	if (strcmp(m, "weighted") == 0)
		return "weighted_sum";
	return m;
}

static json_t *
explain_fusion(const struct ev_pack *p)
{
	json_t *x;
	int bad = 0;

	if (p->fusion == NULL)
		return json_pack("{s:s}", "method", "none");
	x = json_pack("{s:s}", "method",
	    method_name(json_string_value(json_object_get(p->fusion, "method"))));
	if (x == NULL)
		return NULL;
	set_ref(&bad, x, "rrf_k", json_object_get(p->fusion, "rrf_k"));
	set_ref(&bad, x, "normalization", json_object_get(p->fusion, "normalization"));
	set_ref(&bad, x, "weights", json_object_get(p->fusion, "weights"));
	set_ref(&bad, x, "weights_from", json_object_get(p->fusion, "weights_from"));
	set_ref(&bad, x, "group", json_object_get(p->fusion, "group"));
	if (bad) {
		json_decref(x);
		return NULL;
	}
	return x;
}

/* The plan as executed: the plan given, with the options in effect. */
static json_t *
plan_in_effect(const struct ev_pack *p, json_t *fusion)
{
	json_t *plan = p->plan ? ev_jsoncopy_deep(p->plan) : json_object(), *d, *o, *fu;
	const char *m;
	int bad = 0;

	if (plan == NULL)
		return NULL;
	set_new(&bad, plan, "k", json_integer(p->o.k));
	if (p->o.has_min_score)
		set_new(&bad, plan, "min_score", json_real(p->o.min_score));
	if (!json_is_object(json_object_get(plan, "diversity")))
		set_new(&bad, plan, "diversity", json_object());
	d = json_object_get(plan, "diversity");	/* (set_new frees what it cannot set) */
	set_new(&bad, d, "by_document", json_integer(p->o.by_document));
	set_new(&bad, d, "near_duplicates", json_boolean(p->o.near_duplicates));
	set_new(&bad, d, "overlap", json_real(p->o.overlap));
	if (p->o.mmr_lambda < 1) {
		set_new(&bad, d, "mmr_lambda", json_real(p->o.mmr_lambda));
		set_new(&bad, d, "mmr_depth", json_integer(p->o.mmr_depth));
	}
	if (p->o.group_by != EV_PACK_GROUP_NONE)
		set_new(&bad, plan, "group_by", json_string(p->o.group_by == EV_PACK_GROUP_LANE ?
		    "lane" : "modality"));
	if (!json_is_object(json_object_get(plan, "output")))
		set_new(&bad, plan, "output", json_object());
	o = json_object_get(plan, "output");	/* (set_new frees what it cannot set) */
	set_new(&bad, o, "max_snippet_chars", json_integer(p->o.max_snippet_chars));
	if (p->o.snippet_policy != EV_PACK_SNIPPET_AUTO)
		set_new(&bad, o, "snippet_policy",
		    json_string(ev_pack_snippet_policy_name(p->o.snippet_policy)));
	if (!json_is_object(json_object_get(plan, "fusion")))
		set_new(&bad, plan, "fusion", json_object());
	fu = json_object_get(plan, "fusion");	/* (set_new frees what it cannot set) */
	if (!bad && ev_jsoncopy_update(fu, fusion, 0) == -1)
		bad = 1;
	json_object_del(fu, "weights_from");	/* said in explain.fusion, not a key of a plan */
	/* the plan speaks ev-fuse's names */
	m = json_string_value(json_object_get(fusion, "method"));
	if (m != NULL && strcmp(m, "weighted_sum") == 0)
		set_new(&bad, fu, "method", json_string("weighted"));
	if (bad) {
		json_decref(plan);
		return NULL;
	}
	return plan;
}

/* Candidates best first, the earlier first among equals (a request of
 * several queries merges their rankings by score). */
static int
cmp_items(const void *a, const void *b)
{
	const struct item *x = *(struct item *const *)a, *y = *(struct item *const *)b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return (x > y) - (x < y);
}

/* The query of the request with the lowest query_index (-1: none). */
static int
first_query(const struct ev_pack *p)
{
	size_t i;
	int f = -1;

	for (i = 0; i < p->nq; i++)
		if (f < 0 || p->q[i].index < p->q[f].index)
			f = (int)i;
	return f;
}

/* One build's work: the candidates kept and what presentation found. */
struct build {
	struct item **kept, **ord;
	size_t nkept, nret;	/* kept, and of them returned (at most k) */
	struct ev_contra_why *cv;	/* countervailing, for each returned */
	char *iscv;
	long long nmode[EV_PACK_NMODES][2];	/* candidates and returned, per mode */
	long long (*ngroup)[2];	/* the same, per group */
	struct ev_pack_dropped d;
	json_t *docs;		/* document id -> evidences kept of it */
	json_t *fusion;		/* explain.fusion */
	json_t *first;		/* the first candidate's hit, or NULL */
	json_t *evs;		/* the evidences returned (borrowed) */
	struct ev_pack_sigseen seen;	/* what they had, for the signals they lack */
	char retrieved_at[64];	/* for hits no lane stamped: the request's start, else now */
	int multi, fq, no_uri, bad;
};

static void
build_release(struct build *b)
{
	free(b->kept);
	free(b->ord);
	free(b->ngroup);
	free(b->cv);
	free(b->iscv);
	json_decref(b->docs);
	json_decref(b->fusion);
}

/* The request's query id and text (*query_id, *query: those given, else the
 * first query's, else the first hit's) and request id (*req: the hits', the
 * plan's, else a new UUID in uuid).  Returns 0 or -1. */
static int
build_request(struct ev_pack *p, struct build *b, const json_t **query_id, const char **query,
    long long query_index, const char **req, char *uuid, struct ev_err *err)
{
	if (p->nq == 0 && *query_id != NULL &&
	    ev_pack_query(p, *query_id, *query, query_index, NULL, "", err) == -1)
		return -1;
	if (p->nq == 1 && !p->q[0].given && query_index >= 0)
		p->q[0].index = query_index;
	b->multi = p->nq > 1;
	b->fq = first_query(p);
	if (p->n > 0 && ev_pack_materialize(p, &p->it[0], err) == -1)
		return -1;
	b->first = p->n > 0 ? p->it[0].hit : NULL;
	if (*query_id == NULL && b->fq >= 0)
		*query_id = p->q[b->fq].id;
	if (*query == NULL && b->fq >= 0)
		*query = p->q[b->fq].text;
	*req = p->req;
	if (b->first != NULL) {
		if (*query_id == NULL)
			*query_id = json_object_get(b->first, "query_id");
		if (*query == NULL && !b->multi)
			*query = json_string_value(json_object_get(b->first, "query"));
	}
	if (!json_is_string(*query_id) && !json_is_integer(*query_id))
		*query_id = NULL;
	if (*req == NULL && p->plan != NULL)
		*req = json_string_value(json_object_get(p->plan, "request_id"));
	if (*req == NULL) {
		if (ev_uuid_v4(uuid, err) == -1)
			return -1;
		*req = uuid;
	}
	return 0;
}

/* Presentation, then what countervails the first evidence kept.  Returns 0
 * or -1. */
static int
build_select(struct ev_pack *p, struct build *b, struct ev_err *err)
{
	size_t i, n = p->n ? p->n : 1, nord;

	if ((b->kept = malloc(n * sizeof *b->kept)) == NULL ||
	    (b->ord = malloc(n * sizeof *b->ord)) == NULL ||
	    (b->ngroup = calloc(json_array_size(p->groups) + 1, sizeof *b->ngroup)) == NULL ||
	    (b->docs = json_object()) == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < p->n; i++)
		b->ord[i] = &p->it[i];
	if (b->multi)
		qsort(b->ord, p->n, sizeof *b->ord, cmp_items);

	/* Presentation is strict: minimum score, diversity, then k.  The
	 * candidates are looked at in their order (best first) until k are
	 * kept; those below the minimum score are all counted. */
	nord = p->n;
	if (ev_pack_merge_regions(p, b->ord, &nord, err) == -1 ||
	    (p->o.mmr_lambda < 1 ? ev_pack_select_mmr : ev_pack_select_plain)(p, b->ord, nord,
	    b->kept, &b->nkept, b->docs, &b->d, err) == -1)
		return -1;
	b->nret = b->nkept;
	if (p->o.k > 0 && (size_t)p->o.k < b->nret)
		b->nret = (size_t)p->o.k;

	/* countervailing: against the first evidence */
	if ((b->cv = calloc(b->nret ? b->nret : 1, sizeof *b->cv)) == NULL ||
	    (b->iscv = calloc(b->nret ? b->nret : 1, 1)) == NULL)
		return ev_err_nomem(err);
	if (b->nret > 1 && p->contra == NULL && (p->contra = ev_contra_new(err)) == NULL)
		return -1;
	for (i = 1; i < b->nret; i++) {
		int r = ev_contra_check(p->contra, ev_pack_item_text(b->kept[i]),
		    ev_pack_item_text(b->kept[0]), &b->cv[i], err);
		if (r == -1)
			return -1;
		b->iscv[i] = (char)r;
	}
	return 0;
}

/* The evidences returned, in order: a new array, or NULL with *err set
 * (ev_pack_evidence_item()). */
static json_t *
build_evidences(struct ev_pack *p, struct build *b, long long query_index, const char *now,
	struct ev_err *err)
{
	json_t *evs = json_array(), *e;
	size_t i;

	if (evs == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	for (i = 0; i < b->nret; i++) {
		struct item *it = b->kept[i];
		const struct pq *q = it->q >= 0 ? &p->q[it->q] : NULL;
		struct ev_pack_extra x = { q ? q->index : query_index >= 0 ? query_index : 0,
			q ? q->text : NULL, q ? q->routing : NULL,
			b->multi ? ev_pack_provenances(p, it, &b->bad) : NULL,
			it->group >= 0 ? json_string_value(json_array_get(p->groups,
			(size_t)it->group)) : NULL,
			b->iscv[i] ? &b->cv[i] : NULL,
			i > 0 ? json_string_value(json_object_get(b->kept[0]->hit, "id")) : NULL,
			p->o.mmr_lambda < 1, &b->seen, b->retrieved_at };
		if ((e = ev_pack_evidence_item(p, it, &x, now, &b->no_uri, err)) == NULL) {
			json_decref(evs);
			return NULL;
		}
		append_new(&b->bad, evs, e);
		it->kept = 1;
	}
	return evs;
}

/* Count the candidates and those returned per mode, group and query. */
static void
build_counts(struct ev_pack *p, struct build *b)
{
	struct item *it;
	size_t i, j;
	int m;

	for (i = 0; i < p->n; i++) {
		it = &p->it[i];
		m = ev_pack_mode_index(it->lanes);
		b->nmode[m][0]++;
		b->nmode[m][1] += it->kept;
		if (it->group >= 0) {
			b->ngroup[it->group][0]++;
			b->ngroup[it->group][1] += it->kept;
		}
		for (j = 0; j < (it->pv ? it->npv : 1); j++) {
			int q = it->pv ? it->pv[j].q : it->q;
			if (q < 0)
				continue;
			p->q[q].candidates++;
			p->q[q].found += it->kept;
		}
		if (it->q >= 0)
			p->q[it->q].returned += it->kept;
	}
}

/* stats.by_mode: exact, semantic and hybrid always; relational and
 * associative when any. */
static json_t *
stats_by_mode(struct build *b)
{
	json_t *byc;
	int m;

	byc = json_pack("{s:{s:I,s:I},s:{s:I,s:I},s:{s:I,s:I}}",
	    "exact", "candidates", (json_int_t)b->nmode[0][0], "returned",
	    (json_int_t)b->nmode[0][1], "semantic", "candidates", (json_int_t)b->nmode[1][0],
	    "returned", (json_int_t)b->nmode[1][1], "hybrid", "candidates",
	    (json_int_t)b->nmode[4][0], "returned", (json_int_t)b->nmode[4][1]);
	for (m = 2; byc != NULL && m <= 3; m++)
		if (b->nmode[m][0] > 0 && json_object_set_new(byc, ev_pack_mode_name(m),
		    json_pack("{s:I,s:I}", "candidates", (json_int_t)b->nmode[m][0],
		    "returned", (json_int_t)b->nmode[m][1])) == -1)
			b->bad = 1;
	return byc;
}

/* explain.diversity: the options in effect and what they dropped. */
static json_t *
explain_diversity(const struct ev_pack *p, struct build *b)
{
	json_t *div = json_object();
	int *bad = &b->bad;

	set_new(bad, div, "by_document", json_integer(p->o.by_document));
	set_new(bad, div, "near_duplicates", json_boolean(p->o.near_duplicates));
	set_new(bad, div, "overlap", json_real(p->o.overlap));
	set_new(bad, div, "applied", json_boolean(p->o.by_document > 0 || p->o.near_duplicates ||
	    p->o.mmr_lambda < 1));
	set_new(bad, div, "dropped_by_document", json_integer(b->d.by_doc));
	set_new(bad, div, "dropped_duplicates", json_integer(b->d.dups));
	if (p->o.mmr_lambda < 1) {
		json_t *mm = json_pack("{s:f,s:I,s:s,s:I}", "lambda", p->o.mmr_lambda,
		    "depth", (json_int_t)p->o.mmr_depth,
		    "similarity", p->vfn ? "embedding" : "word_overlap",
		    "looked_at", (json_int_t)b->d.pool);
		if (mm != NULL && p->vfn != NULL)
			set_new(bad, mm, "without_vector", json_integer(b->d.without_vector));
		set_new(bad, div, "mmr", mm);
	}
	return div;
}

/* explain.filters_applied: the filters the lanes applied (the hits'
 * "filters", packexplain.h's shape) of the request's first query, with
 * "by_query" when its queries' differ, and the minimum score and what it
 * dropped. */
static json_t *
explain_filters(const struct ev_pack *p, struct build *b)
{
	const json_t *f = b->fq >= 0 ? p->q[b->fq].filters : NULL;
	json_t *filt = ev_pack_filters_shape(f), *byq = NULL, *o;
	int *bad = &b->bad;
	size_t i;

	if (filt == NULL)
		*bad = 1;
	for (i = 0; b->multi && i < p->nq; i++)
		if (!json_equal(p->q[i].filters, (json_t *)f) && (p->q[i].filters != NULL || f != NULL))
			break;
	for (i = i < p->nq && b->multi ? 0 : p->nq; i < p->nq; i++) {
		if (byq == NULL && (byq = json_array()) == NULL) {
			*bad = 1;
			break;
		}
		o = ev_pack_filters_shape(p->q[i].filters);
		if (o != NULL)
			set_new(bad, o, "query_index", json_integer(p->q[i].index));
		append_new(bad, byq, o);
	}
	if (byq != NULL)
		set_new(bad, filt, "by_query", byq);
	if (p->o.has_min_score) {
		set_new(bad, filt, "min_score", json_real(p->o.min_score));
		set_new(bad, filt, "dropped_below_min_score", json_integer(b->d.below));
	}
	return filt;
}

/* The pack's explain object. */
static json_t *
build_explain(const struct ev_pack *p, struct build *b)
{
	json_t *ex = json_object(), *ign, *routing = NULL;
	int *bad = &b->bad, fq = b->fq;
	size_t i;

	if (ex == NULL)
		*bad = 1;
	set_new(bad, ex, "fusion", json_incref(b->fusion));
	set_new(bad, ex, "rerank", ev_pack_explain_rerank(p->rerank));
	set_new(bad, ex, "filters_applied", explain_filters(p, b));
	set_new(bad, ex, "diversity", explain_diversity(p, b));
	if (b->seen.dated)
		set_new(bad, ex, "recency", json_pack("{s:s,s:s,s:i,s:s}", "field", "published_date",
		    "decay", "exponential", "half_life_days", EV_PACK_RECENCY_HALF_LIFE_DAYS,
		    "reference", "generated_at"));
	ign = p->ignored ? ev_jsoncopy_deep(p->ignored) : json_array();
	if (ign == NULL || ev_pack_signals_ignored(ign, b->evs, &b->seen,
	    json_string_value(json_object_get(b->fusion, "method"))) == -1 ||
	    ev_pack_snippets_ignored(ign, b->evs, p->o.snippet_policy) == -1 ||
	    ev_pack_retrieved_ignored(ign, json_array_size(b->evs), &b->seen,
	    p->request_ms > 0) == -1)
		*bad = 1;
	set_new(bad, ex, "ignored_fields", ign);
	for (i = 0; i < p->nq && routing == NULL; i++)
		if (p->q[i].routing != NULL && (fq < 0 || p->q[fq].routing == NULL ||
		    (int)i == fq))
			routing = p->q[i].routing;
	set_ref(bad, ex, "routing", routing);
	return ex;
}

/* The pack's warnings: no hits, a query of several without any, those
 * ev_pack_warn() and the hits gave, the plan's ignored fields, a fusion
 * method other than the plan's, evidences without a source. */
static json_t *
build_warnings(const struct ev_pack *p, struct build *b)
{
	json_t *warn = json_array(), *v;
	const char *pm;
	char msg[512];
	int *bad = &b->bad;
	size_t i, j;

	if (warn == NULL)
		*bad = 1;
	if (p->n == 0)
		append_new(bad, warn, json_string(b->multi ? "no hits: no lane found anything for "
		    "the queries of this request" : "no hits: no lane found anything for this query"));
	for (i = 0; b->multi && p->n > 0 && i < p->nq; i++)
		if (p->q[i].candidates == 0) {
			snprintf(msg, sizeof msg, "no hits for query '%s' (query_index %lld) of this "
			    "request", p->q[i].key, p->q[i].index);
			append_new(bad, warn, json_string(msg));
		}
	for (i = 0; i < json_array_size(p->warnings); i++)
		set_ref_append(bad, warn, json_array_get(p->warnings, i));
	json_array_foreach(p->hitwarn, i, v) {
		for (j = 0; j < json_array_size(p->warnings); j++)
			if (json_equal(v, json_array_get(p->warnings, j)))
				break;
		if (j == json_array_size(p->warnings))
			set_ref_append(bad, warn, v);
	}
	for (i = 0; p->ignored != NULL && i < json_array_size(p->ignored); i++) {
		snprintf(msg, sizeof msg, "plan field ignored: %s",
		    json_string_value(json_array_get(p->ignored, i)));
		append_new(bad, warn, json_string(msg));
	}
	/* (no hit: nothing was fused, so nothing to compare) */
	pm = p->plan && p->n > 0 ? json_string_value(ev_config_get(p->plan, "fusion.method")) : NULL;
	if (pm != NULL) {
		const char *hm = json_string_value(json_object_get(b->fusion, "method"));
		if (hm != NULL && strcmp(method_name(pm), hm) != 0) {
			snprintf(msg, sizeof msg, "plan fusion.method '%s' differs from the hits' "
			    "fusion method '%s'", pm, hm);
			append_new(bad, warn, json_string(msg));
		}
	}
	if (p->n > 0 && ev_pack_rerank_warnings(p->plan, p->rerank, warn) == -1)
		*bad = 1;
	if (b->no_uri > 0) {
		snprintf(msg, sizeof msg, "%d evidence%s without source_uri", b->no_uri,
		    b->no_uri == 1 ? "" : "s");
		append_new(bad, warn, json_string(msg));
	}
	return warn;
}

/* A request of several queries: its queries, by query_index, into pack's
 * "queries", and their counts into *byq (a new array). */
static void
build_queries(const struct ev_pack *p, struct build *b, json_t *pack, json_t **byq)
{
	json_t *qs = json_array(), *bq = json_array();
	int *idx = malloc(p->nq * sizeof *idx), *bad = &b->bad;
	size_t i, j;

	if (qs == NULL || bq == NULL || idx == NULL)
		*bad = 1;
	for (i = 0; idx != NULL && i < p->nq; i++) {
		for (j = i; j > 0 && p->q[idx[j - 1]].index > p->q[i].index; j--)
			idx[j] = idx[j - 1];
		idx[j] = (int)i;
	}
	for (i = 0; idx != NULL && i < p->nq; i++) {
		const struct pq *q = &p->q[idx[i]];
		json_t *o = json_pack("{s:I,s:O}", "query_index", (json_int_t)q->index,
		    "query_id", q->id);
		if (o != NULL && q->text != NULL)
			set_new(bad, o, "query", json_string(q->text));
		append_new(bad, qs, o);
		append_new(bad, bq, json_pack("{s:I,s:O,s:I,s:I,s:I}", "query_index",
		    (json_int_t)q->index, "query_id", q->id, "candidates",
		    (json_int_t)q->candidates, "returned", (json_int_t)q->returned, "found",
		    (json_int_t)q->found));
	}
	free(idx);
	set_new(bad, pack, "queries", qs);
	*byq = bq;
}

/* The pack's stats (byq, the counts per query, taken). */
static json_t *
build_stats(const struct ev_pack *p, struct build *b, double took_ms, json_t *byq)
{
	json_t *st, *bg, *v;
	int *bad = &b->bad;
	size_t i, j;

	st = json_pack("{s:I,s:I,s:I,s:s,s:o}", "candidates", (json_int_t)p->n,
	    "returned", (json_int_t)b->nret, "took_ms", (json_int_t)llround(took_ms),
	    "took_ms_scope", p->request_ms > 0 ? "request" : "ev-pack", "by_mode", stats_by_mode(b));
	if (st == NULL) {
		*bad = 1;
		json_decref(byq);
		return NULL;
	}
	if (p->o.group_by != EV_PACK_GROUP_NONE) {
		bg = json_object();
		json_array_foreach(p->groups, i, v)
			set_new(bad, bg, json_string_value(v), json_pack("{s:I,s:I}",
			    "candidates", (json_int_t)b->ngroup[i][0], "returned",
			    (json_int_t)b->ngroup[i][1]));
		set_new(bad, st, "by_group", bg);
	}
	if (byq != NULL)
		set_new(bad, st, "by_query", byq);
	for (i = 0, j = 0; i < b->nret; i++)
		j += (size_t)b->iscv[i];
	set_new(bad, st, "countervailing", json_integer((json_int_t)j));
	return st;
}

json_t *
ev_pack_build(struct ev_pack *p, const json_t *query_id, const char *query,
    long long query_index, const char *generated_at, double took_ms, struct ev_err *err)
{
	struct build b = { 0 };
	json_t *pack = NULL, *evs, *byq = NULL;
	const char *req = NULL;
	char uuid[EV_UUID_LEN + 1];

	if (p->request_ms > 0) {
		/* the request's time: from its start, before its lanes ran */
		struct timespec t;
		char fixed[64];

		clock_gettime(CLOCK_REALTIME, &t);
		took_ms = (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6 - (double)p->request_ms;
		if (ev_pack_now(fixed, sizeof fixed) || took_ms < 0)
			took_ms = 0;
		ev_pack_time_of(p->request_ms, b.retrieved_at, sizeof b.retrieved_at);
	} else {
		snprintf(b.retrieved_at, sizeof b.retrieved_at, "%s", generated_at);
	}
	if (build_request(p, &b, &query_id, &query, query_index, &req, uuid, err) == -1 ||
	    build_select(p, &b, err) == -1) {
		build_release(&b);
		return NULL;
	}
	if ((evs = build_evidences(p, &b, query_index, generated_at, err)) == NULL) {
		build_release(&b);
		return NULL;
	}
	b.evs = evs;
	build_counts(p, &b);
	b.fusion = explain_fusion(p);	/* kept (one reference of ours) to the end */
	if (b.fusion == NULL)
		b.bad = 1;
	if ((pack = json_object()) == NULL)
		b.bad = 1;
	set_new(&b.bad, pack, "version", json_string(EV_PACK_VERSION));
	set_new(&b.bad, pack, "plan", plan_in_effect(p, b.fusion));
	set_new(&b.bad, pack, "plan_id", json_string(p->plan_id));
	set_new(&b.bad, pack, "request_id", json_string(req));
	set_ref(&b.bad, pack, "query_id", (json_t *)query_id);
	set_if(&b.bad, pack, "query", query ? json_string(query) : NULL);
	if (b.multi)
		build_queries(p, &b, pack, &byq);
	set_new(&b.bad, pack, "generated_at", json_string(generated_at));
	set_new(&b.bad, pack, "evidences", evs);
	set_new(&b.bad, pack, "stats", build_stats(p, &b, took_ms, byq));
	set_new(&b.bad, pack, "explain", build_explain(p, &b));
	set_new(&b.bad, pack, "warnings", build_warnings(p, &b));
	if (b.bad || json_object_size(pack) != (size_t)(9 + (query_id != NULL) +
	    (query != NULL) + b.multi)) {
		ev_err_nomem(err);
		json_decref(pack);
		pack = NULL;
	}
	build_release(&b);
	return pack;
}
