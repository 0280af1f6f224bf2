/* test_pack.c: lib/merge/pack.c and lib/base/uuid.c -- EvidenceItems from fused and
 * single-lane hits, provenance modes, merging, min score, diversity,
 * snippet cutting, the plan, and the fixed clock and UUIDs. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "pack.h"
#include "uuid.h"
#include "test_util.h"

static json_t *
hit(const char *id, double score, const char *lane)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:f,s:s,s:s}", "query_id", "q", "query", "wing flutter",
	    "id", id, "doc_id", id, "score", score, "lane", lane, "source_uri", "file:///d");
}

static struct ev_pack *
packer(const struct ev_pack_opts *o, const json_t *plan, const json_t *ignored)
{
	struct ev_err err = { 0 };
	struct ev_pack *p = ev_pack_new(o, plan, ignored, "00000000-0000-4000-8000-000000000000", &err);

	cr_assert_not_null(p);
	cr_assert_eq(ev_pack_begin(p, &err), 0);
	return p;
}

/* A packer with the default options. */
static struct ev_pack *
default_packer(void)
{
	static struct ev_pack_opts o;

	ev_pack_opts_init(&o);
	return packer(&o, NULL, NULL);
}

/* h with key set to value (the reference taken); returns h. */
static json_t *
with(json_t *h, const char *key, json_t *value)
{
	json_object_set_new(h, key, value);
	return h;
}

static void
add(struct ev_pack *p, json_t *h)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_pack_add(p, h, "t:1", &err), 0, "%s", err.msg);
	json_decref(h);
}

static json_t *
build(struct ev_pack *p)
{
	struct ev_err err = { 0 };
	json_t *pack = ev_pack_build(p, NULL, NULL, 4, "2026-02-20T12:00:00Z", 3.4, &err);

	cr_assert_not_null(pack, "%s", err.msg);
	return pack;
}

static json_t *
ev_at(json_t *pack, size_t i)
{
	return json_array_get(json_object_get(pack, "evidences"), i);
}

static const char *
str_at(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	if (b != NULL)
		v = json_object_get(v, b);
	return json_string_value(v);
}

Test(pack, top_level_has_seed_002s_fields_and_the_query)
{
	static const char *const keys[] = { "version", "plan", "plan_id", "request_id",
		"generated_at", "evidences", "stats", "explain", "warnings", "query_id", "query" };
	struct ev_pack *p = default_packer();
	json_t *pack;
	size_t i;

	add(p, hit("a", 1, "text"));
	pack = build(p);
	cr_assert_eq(json_object_size(pack), 11);
	for (i = 0; i < 11; i++)
		cr_assert_not_null(json_object_get(pack, keys[i]), "%s", keys[i]);
	cr_assert_str_eq(str_at(pack, "query_id", NULL), "q");
	cr_assert_str_eq(str_at(pack, "query", NULL), "wing flutter");
	cr_assert_str_eq(str_at(pack, "version", NULL), "0.1");
	cr_assert_str_eq(str_at(pack, "generated_at", NULL), "2026-02-20T12:00:00Z");
	cr_assert(ev_uuid_valid(str_at(pack, "request_id", NULL)));
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(pack, "stats"), "took_ms")), 3);
	cr_assert_str_eq(str_at(json_object_get(pack, "explain"), "fusion", "method"), "none");
	json_decref(pack);
	ev_pack_free(p);
}

/* A query with no hit still has its pack: no evidence, a warning, the query
 * named by the caller; warnings of the run (ev_pack_warn) are in every pack. */
Test(pack, no_hits_give_an_empty_pack_with_a_warning)
{
	struct ev_err err = { 0 };
	struct ev_pack *p = default_packer();
	json_t *pack, *qid = json_integer(7), *w;

	cr_assert_eq(ev_pack_warn(p, "vector lane unavailable", &err), 0);
	pack = ev_pack_build(p, qid, "what is flutter", 0, "2026-02-20T12:00:00Z", 1, &err);
	cr_assert_not_null(pack);
	cr_assert_eq(json_array_size(json_object_get(pack, "evidences")), 0);
	cr_assert_eq(json_integer_value(json_object_get(pack, "query_id")), 7);
	cr_assert_str_eq(str_at(pack, "query", NULL), "what is flutter");
	w = json_object_get(pack, "warnings");
	cr_assert_eq(json_array_size(w), 2);
	cr_assert_str_eq(json_string_value(json_array_get(w, 0)),
	    "no hits: no lane found anything for this query");
	cr_assert_str_eq(json_string_value(json_array_get(w, 1)), "vector lane unavailable");
	json_decref(pack);
	/* the next query, with a hit: the run's warning only */
	cr_assert_eq(ev_pack_begin(p, &err), 0);
	add(p, hit("a", 1, "text"));
	pack = build(p);
	w = json_object_get(pack, "warnings");
	cr_assert_eq(json_array_size(w), 1);
	cr_assert_str_eq(json_string_value(json_array_get(w, 0)), "vector lane unavailable");
	json_decref(pack);
	json_decref(qid);
	ev_pack_free(p);
}

Test(pack, single_lane_hits_name_their_signals_and_mode)
{
	struct ev_pack *p = default_packer();
	json_t *pack, *e;

	add(p, with(hit("a", 7.5, "text"), "rank", json_integer(1)));
	pack = build(p);
	e = ev_at(pack, 0);
	cr_assert(fabs(json_number_value(json_object_get(json_object_get(e, "signals"), "fts_score")) - 7.5) < 1e-12);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(e, "signals"), "fts_rank")), 1);
	cr_assert_str_eq(str_at(e, "provenance", "mode"), "exact");
	cr_assert_str_eq(str_at(e, "provenance", "query_text"), "wing flutter");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(e, "provenance"), "query_index")), 4);
	cr_assert_str_eq(str_at(e, "source_type", NULL), "file");
	cr_assert_str_eq(str_at(e, "raw", "content_ref"), "chunk:a");
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, fused_hits_take_mode_and_method_from_their_explanation)
{
	struct ev_pack *p = default_packer();
	json_t *pack, *ex;

	add(p, with(hit("a", 0.5, "fused"), "explain",
	    json_pack("{s:s,s:{s:f,s:f},s:[{s:s,s:b},{s:s,s:b}]}",
	    "method", "weighted", "weights", "vector", 0.7, "text", 0.3, "lanes",
	    "lane", "vector", "found", 1, "lane", "text", "found", 1)));
	add(p, with(hit("b", 0.4, "fused"), "explain", json_pack("{s:s,s:[{s:s,s:b},{s:s,s:b}]}",
	    "method", "weighted", "lanes", "lane", "vector", "found", 1, "lane", "text", "found", 0)));
	pack = build(p);
	cr_assert_str_eq(str_at(ev_at(pack, 0), "provenance", "mode"), "hybrid");
	cr_assert_str_eq(str_at(ev_at(pack, 1), "provenance", "mode"), "semantic");
	ex = json_object_get(json_object_get(pack, "explain"), "fusion");
	cr_assert_str_eq(str_at(ex, "method", NULL), "weighted_sum");
	cr_assert(fabs(json_number_value(json_object_get(json_object_get(ex, "weights"), "vector")) - 0.7) < 1e-12);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(json_object_get(
	    json_object_get(pack, "stats"), "by_mode"), "hybrid"), "candidates")), 1);
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, the_same_id_twice_keeps_the_higher_score_and_both_lanes)
{
	struct ev_pack *p = default_packer();
	json_t *pack, *e;

	add(p, hit("a", 3, "text"));
	add(p, hit("b", 2, "text"));
	add(p, hit("a", 0.9, "vector"));
	cr_assert_eq(ev_pack_count(p), 2);
	pack = build(p);
	e = ev_at(pack, 0);
	cr_assert_str_eq(str_at(e, "id", NULL), "a");
	cr_assert_str_eq(str_at(e, "provenance", "mode"), "hybrid");
	cr_assert(fabs(json_number_value(json_object_get(json_object_get(e, "signals"), "fts_score")) - 3) < 1e-12);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(pack, "stats"), "candidates")), 2);
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, min_score_by_document_and_near_duplicates_are_counted)
{
	struct ev_pack_opts o;
	struct ev_pack *p;
	json_t *pack, *h, *div;
	const char *const long_text = "the flutter of a swept wing at high subsonic speed";

	ev_pack_opts_init(&o);
	o.min_score = 0.1;
	o.has_min_score = 1;
	o.by_document = 1;
	p = packer(&o, NULL, NULL);
	h = hit("d1:1", 0.9, "fused");
	json_object_set_new(h, "doc_id", json_string("d1"));
	json_object_set_new(h, "snippet", json_string(long_text));
	json_object_set_new(h, "content_hash", json_string("sha256:aa"));
	add(p, h);
	h = hit("d1:2", 0.8, "fused");	/* second of d1 */
	json_object_set_new(h, "doc_id", json_string("d1"));
	add(p, h);
	json_object_set_new(h = hit("d2:1", 0.7, "fused"), "content_hash", json_string("sha256:aa"));
	add(p, h);
	h = hit("d3:1", 0.6, "fused");	/* the same words, other order and case */
	json_object_set_new(h, "snippet", json_string("The flutter of a SWEPT wing at high subsonic speed."));
	add(p, h);
	add(p, hit("d4:1", 0.05, "fused"));	/* below the minimum */
	add(p, hit("d5:1", 0.5, "fused"));
	pack = build(p);
	cr_assert_eq(json_array_size(json_object_get(pack, "evidences")), 2);
	cr_assert_str_eq(str_at(ev_at(pack, 1), "id", NULL), "d5:1");
	div = json_object_get(json_object_get(pack, "explain"), "diversity");
	cr_assert_eq(json_integer_value(json_object_get(div, "dropped_by_document")), 1);
	cr_assert_eq(json_integer_value(json_object_get(div, "dropped_duplicates")), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(json_object_get(pack,
	    "explain"), "filters_applied"), "dropped_below_min_score")), 1);
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, k_cuts_after_the_filters)
{
	struct ev_pack_opts o;
	struct ev_pack *p;
	json_t *pack;

	ev_pack_opts_init(&o);
	o.k = 2;
	p = packer(&o, NULL, NULL);
	add(p, hit("a", 3, "text"));
	add(p, hit("b", 2, "text"));
	add(p, hit("c", 1, "text"));
	pack = build(p);
	cr_assert_eq(json_array_size(json_object_get(pack, "evidences")), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(pack, "stats"), "returned")), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(pack, "stats"), "candidates")), 3);
	json_decref(pack);
	ev_pack_free(p);
}

/* The fast way in: the hit as a line, scanned, kept raw. */
static void
add_line(struct ev_pack *p, json_t *h)
{
	struct ev_err err = { 0 };
	char *s = json_dumps(h, JSON_COMPACT);
	struct ev_pack_line li;

	cr_assert_eq(ev_pack_scan_line(p, s, strlen(s), "t:1", &li, &err), 0, "%s", err.msg);
	cr_assert_str_eq(li.query_id, "q");
	cr_assert_eq(ev_pack_add_line(p, "t:1", &err), 0, "%s", err.msg);
	free(s);
	json_decref(h);
}

/* The hits of the diversity test, and an id given twice (merged) */
static json_t *
mixed_hits(void)
{
	json_t *a = json_array(), *h;

	h = hit("d1:1", 0.9, "fused");
	json_object_set_new(h, "doc_id", json_string("d1"));
	json_object_set_new(h, "snippet", json_string("the flutter of a swept wing at high speed"));
	json_object_set_new(h, "content_hash", json_string("sha256:aa"));
	json_object_set_new(h, "explain", json_pack("{s:s,s:[{s:s,s:b},{s:s,s:b}]}", "method", "rrf",
	    "lanes", "lane", "text", "found", 1, "lane", "vector", "found", 0));
	json_array_append_new(a, h);
	h = hit("d1:2", 0.8, "fused");
	json_object_set_new(h, "doc_id", json_string("d1"));
	json_object_set_new(h, "evidence", json_pack("[{s:s}]", "lane", "vector"));
	json_array_append_new(a, h);
	json_object_set_new(h = hit("d2:1", 0.7, "fused"), "content_hash", json_string("sha256:aa"));
	json_array_append_new(a, h);
	h = hit("d3:1", 0.6, "text");
	json_object_set_new(h, "snippet", json_string("The flutter of a SWEPT wing at high speed."));
	json_array_append_new(a, h);
	json_array_append_new(a, hit("d4:1", 0.05, "vector"));
	json_object_set_new(h = hit("d5:1", 0.5, "fused"), "signals", json_pack("{s:f}", "fts_score", 1.0));
	json_array_append_new(a, h);
	json_array_append_new(a, hit("d1:2", 0.85, "text"));	/* again: merged */
	return a;
}

/* Hits given as lines give exactly the pack the same hits given as records
 * give: lanes and modes, merging, fusion method, diversity, minimum score. */
Test(pack, hits_as_lines_give_the_same_pack_as_records)
{
	struct ev_pack_opts o;
	struct ev_pack *p1, *p2;
	json_t *hits = mixed_hits(), *a, *b, *h;
	size_t i;

	ev_pack_opts_init(&o);
	o.min_score = 0.1;
	o.has_min_score = 1;
	o.by_document = 1;
	p1 = packer(&o, NULL, NULL);
	p2 = packer(&o, NULL, NULL);
	json_array_foreach(hits, i, h) {
		add(p1, json_incref(h));
		add_line(p2, json_incref(h));
	}
	a = build(p1);
	b = build(p2);
	json_object_del(a, "request_id");
	json_object_del(b, "request_id");
	cr_assert(json_equal(a, b), "%s\n%s", json_dumps(a, 0), json_dumps(b, 0));
	cr_assert_eq(json_array_size(json_object_get(a, "evidences")), 3);
	json_decref(a);
	json_decref(b);
	json_decref(hits);
	ev_pack_free(p1);
	ev_pack_free(p2);
}

/* Lines the scanner refuses get Jansson's message; a hit of the wrong shape
 * gets the message the record path gives. */
Test(pack, bad_lines_are_refused_as_records_are)
{
	struct ev_pack *p = default_packer();
	struct ev_err err = { 0 };
	struct ev_pack_line li;
	static const char bad_json[] = "{\"query_id\": \"q\", \"id\": }";
	static const char no_score[] = "{\"query_id\": \"q\", \"id\": \"a\"}";

	cr_assert_eq(ev_pack_scan_line(p, bad_json, strlen(bad_json), "f:3", &li, &err), -1);
	cr_assert_str_eq(err.where, "f:3");
	cr_assert(strstr(err.msg, "invalid JSON at column") != NULL, "%s", err.msg);
	cr_assert_eq(ev_pack_scan_line(p, "[1]", 3, "f:4", &li, &err), -1);
	cr_assert_str_eq(err.msg, "hit must be a JSON object");
	cr_assert_eq(ev_pack_scan_line(p, "{\"id\":\"a\"}", 10, "f:5", &li, &err), -1);
	cr_assert_str_eq(err.msg, "missing field 'query_id'");
	cr_assert_eq(ev_pack_scan_line(p, no_score, strlen(no_score), "f:6", &li, &err), 0);
	cr_assert_eq(ev_pack_add_line(p, "f:6", &err), -1);
	cr_assert_str_eq(err.msg, "missing field 'score'");
	ev_pack_free(p);
}

/* Presentation looks at the candidates best first until k are kept: the
 * near-duplicate test is not run on the rest (a pack keeps ten of a
 * thousand), so they are not counted as dropped. */
Test(pack, near_duplicates_are_looked_for_only_until_k_are_kept)
{
	struct ev_pack_opts o;
	struct ev_pack *p;
	json_t *pack, *h, *div;
	int i;
	char id[16];

	ev_pack_opts_init(&o);
	o.k = 2;
	p = packer(&o, NULL, NULL);
	for (i = 0; i < 6; i++) {
		snprintf(id, sizeof id, "d%d:1", i);
		h = hit(id, 1.0 - i * 0.1, "fused");
		/* d0 and d1 are the same text; so are d3, d4, d5 */
		json_object_set_new(h, "content_hash", json_string(i < 2 ? "sha256:aa" : "sha256:bb"));
		add_line(p, h);
	}
	pack = build(p);
	cr_assert_eq(json_array_size(json_object_get(pack, "evidences")), 2);
	cr_assert_str_eq(str_at(ev_at(pack, 1), "id", NULL), "d2:1");
	div = json_object_get(json_object_get(pack, "explain"), "diversity");
	cr_assert_eq(json_integer_value(json_object_get(div, "dropped_duplicates")), 1);
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, snippets_are_cut_at_characters_not_bytes)
{
	struct ev_pack_opts o;
	struct ev_pack *p;
	json_t *pack;

	cr_assert_eq(ev_utf8_prefix("h\xc3\xa9llo", 6, 2), 3);
	cr_assert_eq(ev_utf8_prefix("\xe6\xb5\x8b\xe8\xaf\x95", 6, 1), 3);
	cr_assert_eq(ev_utf8_prefix("ab", 2, 5), 2);
	ev_pack_opts_init(&o);
	o.max_snippet_chars = 3;
	p = packer(&o, NULL, NULL);
	add(p, with(hit("a", 1, "text"), "snippet", json_string("\xe6\xb5\x8b\xe8\xaf\x95\xe6\xb5\x8b\xe8\xaf\x95")));
	pack = build(p);
	cr_assert_str_eq(str_at(ev_at(pack, 0), "snippet", NULL), "\xe6\xb5\x8b\xe8\xaf\x95\xe6\xb5\x8b");
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, plan_sets_options_and_unknown_fields_are_reported)
{
	static const char yaml[] = "k: 1\nmin_score: 0.5\ndiversity:\n  by_document: 2\n"
	    "output:\n  max_snippet_chars: 4\nglobal_filters:\n  language: en\n"
	    "fusion:\n  method: combsum\n";
	struct ev_pack_opts o;
	struct ev_err err = { 0 };
	struct ev_pack *p;
	json_t *plan, *ignored = json_array(), *pack, *warn;

	plan = ev_config_parse(yaml, strlen(yaml), "plan.yaml", &err);
	cr_assert_not_null(plan, "%s", err.msg);
	ev_pack_opts_init(&o);
	cr_assert_eq(ev_pack_opts_from_plan(&o, plan, "plan.yaml", ignored, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(o.k, 1);
	cr_assert_eq(o.has_min_score, 1);
	cr_assert_eq(o.by_document, 2);
	cr_assert_eq(o.max_snippet_chars, 4);
	cr_assert_eq(json_array_size(ignored), 1);
	cr_assert_str_eq(json_string_value(json_array_get(ignored, 0)), "global_filters not supported");
	p = packer(&o, plan, ignored);
	add(p, hit("a", 1, "text"));
	pack = build(p);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(json_object_get(pack,
	    "explain"), "ignored_fields"), 0)), "global_filters not supported");
	warn = json_object_get(pack, "warnings");
	cr_assert_eq(json_array_size(warn), 2);
	cr_assert_str_eq(json_string_value(json_array_get(warn, 0)),
	    "plan field ignored: global_filters not supported");
	cr_assert_str_eq(json_string_value(json_array_get(warn, 1)),
	    "plan fusion.method 'combsum' differs from the hits' fusion method 'none'");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(pack, "plan"), "k")), 1);
	json_decref(pack);
	ev_pack_free(p);
	json_decref(plan);
	json_decref(ignored);
}

Test(pack, plan_values_of_the_wrong_type_are_errors)
{
	static const char yaml[] = "k: lots\n";
	struct ev_pack_opts o;
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(yaml, strlen(yaml), "plan.yaml", &err);

	ev_pack_opts_init(&o);
	cr_assert_eq(ev_pack_opts_from_plan(&o, plan, "plan.yaml", NULL, NULL, &err), -1);
	cr_assert_eq(err.code, 2);
	json_decref(plan);
}

Test(pack, bad_hits_are_refused_naming_the_line)
{
	struct ev_pack *p = default_packer();
	struct ev_err err = { 0 };
	json_t *h = json_pack("{s:s,s:s}", "query_id", "q", "id", "a");
	char buf[1100];

	cr_assert_eq(ev_pack_add(p, h, "f:3", &err), -1);
	cr_assert_str_eq(ev_err_text(&err, buf, sizeof buf), "f:3: missing field 'score'");
	json_object_set_new(h, "score", json_real(1));
	json_object_set_new(h, "rank", json_string("x"));
	cr_assert_eq(ev_pack_add(p, h, "f:3", &err), -1);
	cr_assert_str_eq(ev_err_text(&err, buf, sizeof buf), "f:3: field 'rank' must be an integer");
	cr_assert_eq(ev_pack_count(p), 0);
	json_decref(h);
	ev_pack_free(p);
}

Test(pack, fixed_clock_and_uuid_seed_for_tests)
{
	char now[64], a[EV_UUID_LEN + 1], b[EV_UUID_LEN + 1];
	struct ev_err err = { 0 };

	setenv("EV_FIXED_TIME", "2026-02-20T12:00:00Z", 1);
	cr_assert_eq(ev_pack_now(now, sizeof now), 1);
	cr_assert_str_eq(now, "2026-02-20T12:00:00Z");
	setenv("EV_FIXED_TIME", "2026-11-29T02:10:33.123Z", 1);	/* the lanes' form */
	cr_assert_eq(ev_pack_now(now, sizeof now), 1);
	cr_assert_str_eq(now, "2026-11-29T02:10:33.123Z");
	cr_assert(ev_pack_time_ok("2026-11-29T03:10:33+01:00"));
	setenv("EV_FIXED_TIME", "yesterday", 1);
	cr_assert_eq(ev_pack_now(now, sizeof now), 0);
	cr_assert_eq(strlen(now), 20);
	ev_uuid_seed(7);
	cr_assert_eq(ev_uuid_v4(a, &err), 0);
	ev_uuid_seed(7);
	cr_assert_eq(ev_uuid_v4(b, &err), 0);
	cr_assert_str_eq(a, b);
	cr_assert(ev_uuid_valid(a));
	cr_assert_eq(a[14], '4');
	cr_assert(strchr("89ab", a[19]) != NULL);
}

Test(pack, text_report_shows_title_id_lanes_and_snippet)
{
	struct ev_pack *p = default_packer();
	struct ev_buf b = EV_BUF_INIT;
	json_t *pack, *h;

	h = hit("a:1", 2, "text");
	json_object_set_new(h, "snippet", json_string("wing\tflutter"));
	json_object_set_new(h, "title", json_string("Flutter"));
	add(p, h);
	h = hit("a:2", 1, "text");	/* the same document: its title is not repeated */
	json_object_set_new(h, "doc_id", json_string("a:1"));
	json_object_set_new(h, "title", json_string("Flutter"));
	add(p, h);
	pack = build(p);
	cr_assert_eq(ev_pack_render_text(pack, 80, &b), 0);
	cr_assert(strstr(ev_buf_str(&b), "\n 1. Flutter\n    a:1\n    text  fts 2\n    wing flutter\n") != NULL,
	    "%s", ev_buf_str(&b));
	cr_assert(strstr(ev_buf_str(&b), "\n 2. (same document as 1)\n    a:2\n") != NULL,
	    "%s", ev_buf_str(&b));
	ev_buf_release(&b);
	json_decref(pack);
	ev_pack_free(p);
}

/* Display columns without the locale: wide CJK characters take two,
 * combining marks none. */
Test(pack, text_width_counts_display_columns)
{
	cr_assert_eq(ev_pack_text_width("abc", 3), 3);
	cr_assert_eq(ev_pack_text_width("\xe5\xaf\x86\xe9\x92\xa5", 6), 4);	/* 密钥 */
	cr_assert_eq(ev_pack_text_width("e\xcc\x81", 3), 1);	/* e + combining acute */
	cr_assert_eq(ev_pack_text_width("\xef\xbc\xa1", 3), 2);	/* full-width A */
	cr_assert_eq(ev_pack_text_width("\xc3\xa9", 2), 1);	/* é */
	cr_assert_eq(ev_pack_char_width(0x1f600), 2);
}

/* The pack of two lanes' hits for one query, with a plan, built while
 * Jansson's fail_at-th allocation fails (0: none).  Returns the pack with
 * its generated ids removed, or NULL with *err set. */
static json_t *
pack_failing_at(long fail_at, struct ev_err *err)
{
	struct ev_pack_opts o;
	struct ev_pack *p;
	json_t *h[3], *plan, *pack = NULL;
	int ok = 1;

	ev_pack_opts_init(&o);
	h[0] = hit("a", 3, "text");
	h[1] = hit("b", 2, "text");
	h[2] = hit("a", 0.9, "vector");
	json_object_set_new(h[0], "signals", json_pack("{s:f,s:i}", "fts_score", 3.0, "fts_rank", 1));
	json_object_set_new(h[2], "signals", json_pack("{s:f,s:i}", "vector_score", 0.9,
	    "vector_rank", 1));
	json_object_set_new(h[1], "metadata", json_pack("{s:i,s:s}", "chunk_index", 2,
	    "section_title", "Flutter"));
	plan = json_pack("{s:i,s:{s:s},s:{s:i}}", "k", 5, "fusion", "method", "rrf",
	    "diversity", "by_document", 2);
	p = ev_pack_new(&o, plan, NULL, "00000000-0000-4000-8000-000000000000", err);
	cr_assert_not_null(p);
	cr_assert_eq(ev_pack_begin(p, err), 0);
	tu_jcount = 0;
	tu_jfail_at = fail_at;
	json_set_alloc_funcs(tu_jfail_malloc, free);
	for (int i = 0; i < 3 && ok; i++)
		ok = ev_pack_add(p, h[i], "t:1", err) == 0;
	if (ok)
		pack = ev_pack_build(p, NULL, NULL, 0, "2026-02-20T12:00:00Z", 1.0, err);
	json_set_alloc_funcs(malloc, free);
	json_object_del(pack, "request_id");
	json_object_del(pack, "plan_id");
	for (int i = 0; i < 3; i++)
		json_decref(h[i]);
	json_decref(plan);
	ev_pack_free(p);
	return pack;
}

/* Regression (finding F12): an allocation failure inside Jansson left a pack
 * with a field missing or empty (an evidence's "snippet" "", a hit copied
 * without its signals), exit 0.  Now every failure fails the whole pack with
 * "out of memory" (exit 1), and a pack built is always the right one. */
Test(pack, out_of_memory_fails_the_pack_and_never_drops_a_field)
{
	struct ev_err err = { 0 };
	json_t *want = pack_failing_at(0, &err), *got;
	long n, total;
	char *w, *g;

	cr_assert_not_null(want, "%s", err.msg);
	total = tu_jcount;
	cr_assert_gt(total, 50);
	w = json_dumps(want, JSON_SORT_KEYS | JSON_COMPACT);
	for (n = 1; n <= total; n++) {
		struct ev_err e = { 0 };

		if ((got = pack_failing_at(n, &e)) == NULL) {
			cr_assert_eq(e.code, EV_EXIT_RUNTIME, "N=%ld: code %d: %s", n, e.code, e.msg);
			cr_assert_str_eq(e.msg, "out of memory", "N=%ld", n);
			continue;
		}
		g = json_dumps(got, JSON_SORT_KEYS | JSON_COMPACT);
		cr_assert_str_eq(g, w, "N=%ld: a pack differs from the right one:\n%s\n%s", n, g, w);
		free(g);
		json_decref(got);
	}
	free(w);
	json_decref(want);
}

/* A hit of query qid, whose text is qid too (named with ev_pack_query()). */
static void
add_to(struct ev_pack *p, const char *qid, long long qi, const char *id, double score)
{
	struct ev_err err = { 0 };
	json_t *q = json_string(qid), *h = hit(id, score, "text");

	cr_assert_eq(ev_pack_query(p, q, qid, qi, NULL, "t:1", &err), 0, "%s", err.msg);
	json_object_set_new(h, "query", q);
	add(p, h);
}

Test(pack, queries_of_a_request_keep_each_chunk_once_at_its_best)
{
	struct ev_pack_opts o;
	struct ev_pack *p;
	json_t *pack, *e, *pv;

	ev_pack_opts_init(&o);
	o.by_document = 0;
	p = packer(&o, NULL, NULL);
	add_to(p, "r0", 0, "a", 0.5);
	add_to(p, "r0", 0, "b", 0.4);
	add_to(p, "r1", 1, "a", 0.9);
	add_to(p, "r1", 1, "c", 0.3);
	add_to(p, "r2", 2, "b", 0.2);
	pack = build(p);
	cr_assert_eq(json_array_size(json_object_get(pack, "evidences")), 3);
	e = ev_at(pack, 0);	/* by score: a 0.9 (r1), b 0.4 (r0), c 0.3 (r1) */
	cr_assert_str_eq(str_at(e, "id", NULL), "a");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(e, "provenance"),
	    "query_index")), 1);
	cr_assert_str_eq(str_at(e, "provenance", "query_text"), "r1");
	pv = json_object_get(e, "provenances");
	cr_assert_eq(json_array_size(pv), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(pv, 1), "query_index")), 0);
	cr_assert_float_eq(json_real_value(json_object_get(json_array_get(pv, 1), "score")), 0.5,
	    1e-12);
	cr_assert_str_eq(str_at(ev_at(pack, 1), "id", NULL), "b");
	cr_assert_str_eq(str_at(ev_at(pack, 2), "id", NULL), "c");
	cr_assert_str_eq(str_at(pack, "query_id", NULL), "r0");
	cr_assert_eq(json_array_size(json_object_get(json_object_get(pack, "stats"), "by_query")), 3);
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, two_queries_of_a_request_with_one_query_index_are_refused)
{
	struct ev_err err = { 0 };
	struct ev_pack *p = default_packer();
	json_t *a = json_string("a"), *b = json_string("b");

	cr_assert_eq(ev_pack_query(p, a, NULL, 3, NULL, "f:1", &err), 0);
	cr_assert_eq(ev_pack_query(p, b, NULL, 3, NULL, "f:2", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, "f:2");
	json_decref(a);
	json_decref(b);
	ev_pack_free(p);
}

/* Vectors for MMR: a and b point one way, c another, d has none. */
static int
fake_vectors(void *ctx, const char *id, float *out, struct ev_err *err)
{
	(void)ctx;
	(void)err;
	if (strcmp(id, "d") == 0)
		return 0;	/* no vector */
	out[0] = id[0] == 'c' ? 0 : 1;
	out[1] = id[0] == 'c' ? 1 : 0.1f;
	return 1;
}

Test(pack, mmr_over_vectors_moves_a_repeat_down)
{
	struct ev_pack_opts o;
	struct ev_pack *p;
	json_t *pack, *mmr;

	ev_pack_opts_init(&o);
	o.mmr_lambda = 0.5;
	o.by_document = 0;
	p = packer(&o, NULL, NULL);
	ev_pack_set_vectors(p, fake_vectors, NULL, 2);
	add(p, hit("a", 1.0, "text"));
	add(p, hit("b", 0.9, "text"));
	add(p, hit("c", 0.8, "text"));
	add(p, hit("d", 0.1, "text"));
	pack = build(p);
	cr_assert_str_eq(str_at(ev_at(pack, 0), "id", NULL), "a");
	cr_assert_str_eq(str_at(ev_at(pack, 1), "id", NULL), "c");
	/* d: relevance 0, but nothing like a or c (no vector, no words) */
	cr_assert_str_eq(str_at(ev_at(pack, 2), "id", NULL), "d");
	cr_assert_str_eq(str_at(ev_at(pack, 3), "id", NULL), "b");
	mmr = json_object_get(json_object_get(json_object_get(pack, "explain"), "diversity"), "mmr");
	cr_assert_str_eq(str_at(mmr, "similarity", NULL), "embedding");
	cr_assert_eq(json_integer_value(json_object_get(mmr, "without_vector")), 1);
	cr_assert_eq(json_integer_value(json_object_get(mmr, "looked_at")), 4);
	json_decref(pack);
	ev_pack_free(p);
}

Test(pack, a_hit_without_a_query_id_is_packed_without_one)
{
	struct ev_pack *p = default_packer();
	json_t *h = hit("a", 1, "text"), *pack;

	json_object_del(h, "query_id");
	add(p, h);
	pack = build(p);
	cr_assert_null(json_object_get(pack, "query_id"));
	cr_assert_eq(json_array_size(json_object_get(pack, "evidences")), 1);
	json_decref(pack);
	ev_pack_free(p);
}
