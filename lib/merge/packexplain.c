/* packexplain.c: what was in effect for a pack.  See packexplain.h. */
#include "packexplain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"

/* ---- filters ---- */

/* v (a value or an array of them) as a new array; NULL when out of memory. */
static json_t *
as_array(const json_t *v)
{
	return json_is_array(v) ? json_deep_copy(v) : json_pack("[O]", v);
}

/* The name a metadata filter key has in explain.filters_applied, or NULL to
 * keep it under "metadata". */
static const char *
metadata_name(const char *k)
{
	static const char *const map[][2] = {
		{ "tag_ids", "tag_ids" }, { "tags", "tag_ids" }, { "topic_ids", "topic_ids" },
		{ "topics", "topic_ids" }, { "authority_id", "authority_id" },
		{ "doc_type", "doc_type" },
	};
	size_t i;

	for (i = 0; i < sizeof map / sizeof *map; i++)
		if (strcmp(k, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

/* out[name] = the values of v, added to those there (an array). */
static int
add_values(json_t *out, const char *name, const json_t *v)
{
	json_t *have = json_object_get(out, name), *a = as_array(v);
	int r;

	if (a == NULL)
		return -1;
	if (have == NULL)
		return json_object_set_new(out, name, a);
	r = json_array_extend(have, a);
	json_decref(a);
	return r;
}

json_t *
ev_pack_filters_shape(const json_t *filters)
{
	json_t *out = json_object(), *v, *mv, *rest = NULL, *tr;
	const char *k, *mk, *name;
	int bad = out == NULL;

	if (bad || !json_is_object(filters))
		return out;
	json_object_foreach((json_t *)filters, k, v) {
		if (strcmp(k, "doc_id") == 0 || strcmp(k, "doc_ids") == 0) {
			bad |= add_values(out, "doc_ids", v) == -1;
		} else if (strcmp(k, "published_date") == 0 && json_is_object(v)) {
			tr = json_pack("{s:s}", "field", "published_date");
			if (tr != NULL && json_is_string(json_object_get(v, "from")))
				bad |= json_object_set(tr, "from", json_object_get(v, "from")) == -1;
			if (tr != NULL && json_is_string(json_object_get(v, "to")))
				bad |= json_object_set(tr, "to", json_object_get(v, "to")) == -1;
			bad |= json_object_set_new(out, "time_range", tr) == -1;
		} else if (strcmp(k, "metadata") == 0 && json_is_object(v)) {
			json_object_foreach(v, mk, mv) {
				if ((name = metadata_name(mk)) != NULL) {
					bad |= add_values(out, name, mv) == -1;
					continue;
				}
				if (rest == NULL && (rest = json_object()) == NULL) {
					bad = 1;
					break;
				}
				bad |= json_object_set(rest, mk, mv) == -1;
			}
		} else {
			/* source_type, language, and any key a lane adds */
			bad |= add_values(out, k, v) == -1;
		}
	}
	if (rest != NULL)
		bad |= json_object_set_new(out, "metadata", rest) == -1;
	if (bad) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* ---- rerank ---- */

json_t *
ev_pack_explain_rerank(const json_t *rerank)
{
	json_t *x, *v;

	if (!json_is_object(rerank))
		return json_pack("{s:b,s:n,s:n}", "enabled", 0, "model", "top_n");
	x = json_pack("{s:b}", "enabled", 1);
	if (x == NULL)
		return NULL;
	v = json_object_get(rerank, "model");
	if (json_object_set_new(x, "model", json_is_string(v) ? json_incref(v) : json_null()) == -1)
		goto nomem;
	v = json_object_get(rerank, "top_n");
	if (json_object_set_new(x, "top_n", json_is_integer(v) ? json_incref(v) : json_null()) == -1)
		goto nomem;
	if (json_is_object(v = json_object_get(rerank, "config")) &&
	    json_object_set(x, "config", v) == -1)
		goto nomem;
	return x;
nomem:
	json_decref(x);
	return NULL;
}

int
ev_pack_rerank_warnings(const json_t *plan, const json_t *rerank, json_t *warn)
{
	const json_t *section = json_object_get(plan, "rerank");
	const char *want = json_string_value(json_object_get(section, "model"));
	const char *ran = json_string_value(json_object_get(rerank, "model"));
	char msg[512];

	if (!json_is_object(section))
		return 0;
	if (!json_is_object(rerank)) {
		snprintf(msg, sizeof msg, "rerank disabled: the plan asks for reranking%s%s%s, "
		    "but the hits were not reranked (run ev-rerank between ev-fuse and ev-pack)",
		    want ? " by '" : "", want ? want : "", want ? "'" : "");
	} else if (want != NULL && ran != NULL && strcmp(want, ran) != 0) {
		snprintf(msg, sizeof msg, "plan rerank.model '%s' is not a model the reranker "
		    "has: the hits were reranked by '%s'", want, ran);
	} else {
		return 0;
	}
	return json_array_append_new(warn, json_string(msg));
}

/* ---- signals ---- */

/* The day (since 1970-01-01, UTC) of a date as a published_date or a
 * stamp gives it (ev_clock_date_days(): "YYYY", "YYYY-MM", "YYYY-MM-DD",
 * perhaps a time and a zone), the first day of the period a shorter one
 * names, into *day.  Returns 0, or -1 for text of another shape. */
static int
date_day(const char *s, long long *day)
{
	double days;

	if (ev_clock_date_days(s, &days) == -1)
		return -1;
	*day = (long long)floor(days);
	return 0;
}

/* A field of the hit, or of its metadata. */
static const json_t *
hit_field(const json_t *hit, const char *k)
{
	const json_t *v = json_object_get(hit, k);

	return v != NULL && !json_is_null(v) ? v : json_object_get(json_object_get(hit, "metadata"), k);
}

/* The first of the keys the object o has (a string or an array), or NULL. */
static const json_t *
first_of(const json_t *o, const char *const *keys)
{
	const json_t *v;

	for (; *keys != NULL; keys++)
		if ((v = json_object_get(o, *keys)) != NULL && (json_is_string(v) ||
		    (json_is_array(v) && json_array_size(v) > 0)))
			return v;
	return NULL;
}

/* Whether the string s is want, or one of the array want's strings. */
static int
holds(const json_t *want, const char *s)
{
	const json_t *v;
	size_t i;

	if (json_is_string(want))
		return strcmp(json_string_value(want), s) == 0;
	json_array_foreach(want, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return 1;
	return 0;
}

/* The fraction of the query's labels q (a string or an array of them) that
 * the document's d holds. */
static double
overlap(const json_t *q, const json_t *d)
{
	const json_t *v;
	size_t i, n = 0, found = 0;

	if (json_is_string(q))
		return holds(d, json_string_value(q)) ? 1 : 0;
	json_array_foreach(q, i, v) {
		if (!json_is_string(v))
			continue;
		n++;
		found += (size_t)holds(d, json_string_value(v));
	}
	return n ? (double)found / (double)n : 0;
}

/* sig[name] = the fraction of the query's labels (its field qkey) the
 * document's metadata (one of dkeys) holds, when both have some; *qseen and
 * *dseen note which had. */
static int
label_score(json_t *sig, const json_t *hit, const char *name, const char *qkey,
    const char *const *dkeys, int *qseen, int *dseen)
{
	const json_t *q = json_object_get(hit, qkey);
	const json_t *d = first_of(json_object_get(hit, "metadata"), dkeys);

	if (!json_is_string(q) && !(json_is_array(q) && json_array_size(q) > 0))
		return 0;
	*qseen = 1;
	if (d == NULL)
		return 0;
	*dseen = 1;
	return json_object_set_new(sig, name, json_real(overlap(q, d)));
}

int
ev_pack_more_signals(json_t *sig, const json_t *hit, const char *now,
    struct ev_pack_sigseen *seen)
{
	static const char *const tag_keys[] = { "tag_ids", "tags", NULL };
	static const char *const topic_keys[] = { "topic_ids", "topics", "policy_topic_tags", NULL };
	const json_t *rr = json_object_get(json_object_get(hit, "explain"), "rerank");
	const json_t *date = hit_field(hit, "published_date");
	long long day, today;

	if (json_is_number(json_object_get(rr, "score")) &&
	    json_object_set(sig, "rerank_score", json_object_get(rr, "score")) == -1)
		return -1;
	if (json_is_string(date) && date_day(json_string_value(date), &day) == 0 &&
	    date_day(now, &today) == 0) {
		double age = today > day ? (double)(today - day) : 0;
		seen->dated = 1;
		if (json_object_set_new(sig, "recency_score",
		    json_real(pow(0.5, age / EV_PACK_RECENCY_HALF_LIFE_DAYS))) == -1)
			return -1;
	}
	if (label_score(sig, hit, "tag_score", "tag_ids", tag_keys, &seen->query_tags,
	    &seen->doc_tags) == -1 ||
	    label_score(sig, hit, "topic_score", "topic_ids", topic_keys, &seen->query_topics,
	    &seen->doc_topics) == -1)
		return -1;
	return 0;
}

/* Whether an evidence of evs has the signal name. */
static int
some_has(const json_t *evs, const char *name)
{
	const json_t *e;
	size_t i;

	json_array_foreach(evs, i, e)
		if (json_object_get(json_object_get(e, "signals"), name) != NULL)
			return 1;
	return 0;
}

int
ev_pack_signals_ignored(json_t *ignored, const json_t *evs, const struct ev_pack_sigseen *seen,
    const char *fusion_method)
{
	char rrf[256];
	const char *vec = seen->found_vector ? "the vector lane's hits did not give it" :
	    "no evidence returned was found by the vector lane";
	const char *fts = seen->found_text ? "the text lane's hits did not give it" :
	    "no evidence returned was found by the text lane";
	const char *why[9][2] = {
		{ "vector_score", vec },
		{ "vector_rank", vec },
		{ "fts_score", fts },
		{ "fts_rank", fts },
		{ "rrf_score", rrf },
		{ "rerank_score", "the hits were not reranked (ev-rerank)" },
		{ "tag_score", seen->query_tags ? "no document returned carries tags (metadata "
		    "tag_ids or tags)" : "the query names no tags (tag_ids)" },
		{ "topic_score", seen->query_topics ? "no document returned carries topics "
		    "(metadata topic_ids, topics or policy_topic_tags)" :
		    "the query names no topics (topic_ids)" },
		{ "recency_score", "no document returned has a published_date" },
	};
	char msg[512];
	size_t i;

	if (json_array_size(evs) == 0)
		return 0;
	if (seen->unsignalled > 0)	/* (said even when other hits have it) */
		snprintf(rrf, sizeof rrf, "%lld hit%s came without a fusion's or a lane's score "
		    "(fused, or of no lane): fused_score is the score each came with",
		    seen->unsignalled, seen->unsignalled == 1 ? "" : "s");
	else
		snprintf(rrf, sizeof rrf, "the hits were not fused by RRF (fusion method '%s')",
		    fusion_method ? fusion_method : "none");
	for (i = 0; i < sizeof why / sizeof *why; i++) {
		if (some_has(evs, why[i][0]) && !(why[i][1] == rrf && seen->unsignalled > 0))
			continue;
		snprintf(msg, sizeof msg, "signals.%s: %s", why[i][0], why[i][1]);
		if (json_array_append_new(ignored, json_string(msg)) == -1)
			return -1;
	}
	return 0;
}

int
ev_pack_retrieved_ignored(json_t *ignored, size_t nevs, const struct ev_pack_sigseen *seen,
    int request_start)
{
	char msg[512];

	if (seen->unstamped <= 0)
		return 0;
	snprintf(msg, sizeof msg, "provenance.retrieved_at: %lld of %zu evidence%s came from hits"
	    " that do not say when a lane retrieved them (no retrieved_at, or one that is not an"
	    " RFC 3339 time: hits written by hand or by an older evkit); theirs is %s", seen->unstamped, nevs, nevs == 1 ? "" : "s",
	    request_start ? "when the request began (ev-pack --started)" :
	    "when the pack was made (generated_at)");
	return json_array_append_new(ignored, json_string(msg));
}
