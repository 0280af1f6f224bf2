/* Tests of lib/merge/packexplain.c: the filters applied in the
 * EvidencePack's shape, explain.rerank, the rerank warnings, the signals the
 * packer computes and the reasons for those a run lacks. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "packexplain.h"

static json_t *
load(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &e);

	cr_assert_not_null(v, "%s: %s", text, e.text);
	return v;
}

/* Assert that v dumps (compact, keys in order) as want, and free v. */
static void
assert_json(json_t *v, const char *want)
{
	char *s;

	cr_assert_not_null(v);
	s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	cr_assert_str_eq(s, want);
	free(s);
	json_decref(v);
}

Test(packexplain, filters_take_the_format_s_shape)
{
	json_t *f = load("{\"published_date\":{\"from\":\"2020\",\"to\":null},"
	    "\"doc_id\":\"d1\",\"language\":[\"en\",\"fr\"],\"metadata\":{\"tags\":\"aero\","
	    "\"topic_ids\":[\"t1\"],\"authority_id\":\"A1\",\"doc_type\":[\"report\"],"
	    "\"team\":\"ops\",\"tag_ids\":[\"x\"]}}");

	assert_json(ev_pack_filters_shape(f), "{\"time_range\":{\"field\":\"published_date\","
	    "\"from\":\"2020\"},\"doc_ids\":[\"d1\"],\"language\":[\"en\",\"fr\"],\"tag_ids\":"
	    "[\"aero\",\"x\"],\"topic_ids\":[\"t1\"],\"authority_id\":[\"A1\"],\"doc_type\":"
	    "[\"report\"],\"metadata\":{\"team\":\"ops\"}}");
	json_decref(f);
	assert_json(ev_pack_filters_shape(NULL), "{}");
}

Test(packexplain, rerank_is_always_enabled_model_and_top_n)
{
	json_t *r = load("{\"model\":\"m\",\"config\":{\"w\":1},\"top_n\":50}");

	assert_json(ev_pack_explain_rerank(NULL), "{\"enabled\":false,\"model\":null,\"top_n\":null}");
	assert_json(ev_pack_explain_rerank(r), "{\"enabled\":true,\"model\":\"m\",\"top_n\":50,"
	    "\"config\":{\"w\":1}}");
	json_decref(r);
}

Test(packexplain, rerank_warnings_say_what_the_plan_did_not_get)
{
	json_t *plan = load("{\"rerank\":{\"model\":\"qwen3-reranker\"}}");
	json_t *same = load("{\"rerank\":{\"model\":\"m\"}}"), *none = load("{}");
	json_t *r = load("{\"model\":\"m\",\"top_n\":5}"), *w = json_array();

	cr_assert_eq(ev_pack_rerank_warnings(plan, r, w), 0);
	cr_assert_eq(ev_pack_rerank_warnings(plan, NULL, w), 0);
	cr_assert_eq(ev_pack_rerank_warnings(same, r, w), 0);
	cr_assert_eq(ev_pack_rerank_warnings(none, NULL, w), 0);
	cr_assert_eq(ev_pack_rerank_warnings(NULL, r, w), 0);
	assert_json(w, "[\"plan rerank.model 'qwen3-reranker' is not a model the reranker has: "
	    "the hits were reranked by 'm'\",\"rerank disabled: the plan asks for reranking by "
	    "'qwen3-reranker', but the hits were not reranked (run ev-rerank between ev-fuse and "
	    "ev-pack)\"]");
	json_decref(plan);
	json_decref(same);
	json_decref(none);
	json_decref(r);
}

Test(packexplain, signals_rerank_recency_tags_and_topics)
{
	struct ev_pack_sigseen seen = { 0 };
	json_t *hit = load("{\"explain\":{\"rerank\":{\"score\":1.5}},\"published_date\":"
	    "\"2024-01-01\",\"tag_ids\":[\"a\",\"b\",\"c\",\"d\"],\"topic_ids\":\"t\","
	    "\"metadata\":{\"tags\":[\"b\",\"d\",\"z\"],\"policy_topic_tags\":[\"u\"]}}");
	json_t *sig = json_object();

	cr_assert_eq(ev_pack_more_signals(sig, hit, "2026-01-01T10:00:00Z", &seen), 0);
	cr_assert_float_eq(json_real_value(json_object_get(sig, "rerank_score")), 1.5, 1e-12);
	/* 731 days: two half-lives and a day */
	cr_assert_float_eq(json_real_value(json_object_get(sig, "recency_score")),
	    pow(0.5, 731.0 / 365), 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(sig, "tag_score")), 0.5, 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(sig, "topic_score")), 0, 1e-12);
	cr_assert(seen.dated && seen.query_tags && seen.doc_tags && seen.query_topics &&
	    seen.doc_topics);
	json_decref(hit);
	json_decref(sig);

	/* a date to come counts as new; a month stands for its first day;
	 * text that is no date gives no signal */
	sig = json_object();
	hit = load("{\"metadata\":{\"published_date\":\"2027-03\"}}");
	memset(&seen, 0, sizeof seen);
	cr_assert_eq(ev_pack_more_signals(sig, hit, "2026-01-01T00:00:00Z", &seen), 0);
	assert_json(sig, "{\"recency_score\":1.0}");
	json_decref(hit);
	sig = json_object();
	hit = load("{\"published_date\":\"spring 2020\"}");
	cr_assert_eq(ev_pack_more_signals(sig, hit, "2026-01-01T00:00:00Z", &seen), 0);
	assert_json(sig, "{}");
	json_decref(hit);
	/* a date no calendar has is none either; a time with a zone is the UTC
	 * day it falls on (23:30 at -05:00 on 30 December is 31 December) */
	sig = json_object();
	hit = load("{\"published_date\":\"2025-02-30\"}");
	cr_assert_eq(ev_pack_more_signals(sig, hit, "2026-01-01T00:00:00Z", &seen), 0);
	assert_json(sig, "{}");
	json_decref(hit);
	sig = json_object();
	hit = load("{\"published_date\":\"2025-12-30T23:30:00-05:00\"}");
	cr_assert_eq(ev_pack_more_signals(sig, hit, "2026-01-01T09:00:00Z", &seen), 0);
	cr_assert_float_eq(json_real_value(json_object_get(sig, "recency_score")),
	    pow(0.5, 1.0 / 365), 1e-12);
	json_decref(hit);
	json_decref(sig);
}

Test(packexplain, every_signal_lacking_is_named_with_its_reason)
{
	struct ev_pack_sigseen seen = { .query_tags = 1 };
	json_t *evs = load("[{\"signals\":{\"fts_score\":1,\"fts_rank\":1,\"recency_score\":0.5}},"
	    "{\"signals\":{\"vector_score\":0.3}}]"), *ign = json_array();

	cr_assert_eq(ev_pack_signals_ignored(ign, evs, &seen, "none"), 0);
	assert_json(ign, "[\"signals.vector_rank: no evidence returned was found by the vector "
	    "lane\",\"signals.rrf_score: the hits were not fused by RRF (fusion method 'none')\","
	    "\"signals.rerank_score: the hits were not reranked (ev-rerank)\",\"signals.tag_score: "
	    "no document returned carries tags (metadata tag_ids or tags)\",\"signals.topic_score: "
	    "the query names no topics (topic_ids)\"]");
	json_decref(evs);
	evs = json_array();
	ign = json_array();
	cr_assert_eq(ev_pack_signals_ignored(ign, evs, &seen, "rrf"), 0);
	assert_json(ign, "[]");
	json_decref(evs);
}
