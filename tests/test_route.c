/* test_route.c: lib/lanes/route.c -- routing by field, cue and pattern, and the
 * confidence that gates a lane. */
#include <criterion/criterion.h>

#include "config.h"
#include "route.h"

static const char *const fallback[] = { "text", "vector", NULL };

static struct ev_router *
router(const char *yaml)
{
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(yaml, strlen(yaml), "t.yaml", &err);
	struct ev_router *r;

	cr_assert_not_null(plan, "%s", err.msg);
	r = ev_router_new(json_object_get(plan, "routing"), fallback, "t.yaml", &err);
	cr_assert_not_null(r, "%s", err.msg);
	json_decref(plan);
	return r;
}

/* Route query with r and check the added fields are want. */
#define routes_to(r, query, want) do { \
	char *got_ = route((r), (query)); \
	cr_assert_str_eq(got_, (want)); \
	free(got_); \
} while (0)

/* The fields r adds to query, gated on n hits of confidence c when n >= 0. */
static char *
gated(struct ev_router *r, const char *query, long n, double c)
{
	struct ev_err err = { 0 };
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q", "query", query);
	char *s;

	cr_assert_eq(ev_router_route(r, q, "t", &err), 0, "%s", err.msg);
	if (n >= 0)
		cr_assert_eq(ev_router_apply_gate(r, q, n, c, &err), 0, "%s", err.msg);
	json_object_del(q, "query_id");
	json_object_del(q, "query");
	s = json_dumps(q, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(q);
	return s;
}

static char *
route(struct ev_router *r, const char *query)
{
	return gated(r, query, -1, 0);
}

Test(route, cues_are_whole_words_or_phrases_in_any_case)
{
	struct ev_router *r = router("routing:\n  rules:\n    - lanes: [visual]\n"
	    "      cues: [map, site plan]\n");

	routes_to(r, "A MAP, please",
	    "{\"lanes\":[\"visual\"],\"routing\":{\"by\":\"rule\",\"rule\":0,\"matched\":\"map\"}}");
	routes_to(r, "the site   plan",
	    "{\"lanes\":[\"visual\"],\"routing\":{\"by\":\"rule\",\"rule\":0,\"matched\":\"site plan\"}}");
	routes_to(r, "mapping the site",
	    "{\"lanes\":[\"text\",\"vector\"],\"routing\":{\"by\":\"default\"}}");
	ev_router_free(r);
}

Test(route, the_first_matching_rule_decides)
{
	struct ev_router *r = router("routing:\n  default: [text]\n  rules:\n"
	    "    - {lanes: [a], pattern: 'x[0-9]+'}\n    - {lanes: [b], cues: [x1]}\n");

	routes_to(r, "see X12",
	    "{\"lanes\":[\"a\"],\"routing\":{\"by\":\"rule\",\"rule\":0,\"matched\":\"pattern\"}}");
	routes_to(r, "nothing", "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"default\"}}");
	ev_router_free(r);
}

Test(route, confidence_is_the_top_margin_relative_to_the_top)
{
	cr_assert_float_eq(ev_route_confidence(0, 0, 0), 0, 1e-12);
	cr_assert_float_eq(ev_route_confidence(1, 5, 0), 1, 1e-12);
	cr_assert_float_eq(ev_route_confidence(2, 2, 1), 0.5, 1e-12);
	cr_assert_float_eq(ev_route_confidence(3, 10, 10), 0, 1e-12);
	cr_assert_float_eq(ev_route_confidence(2, -1, -3), 1, 1e-12);	/* clamped */
	cr_assert_float_eq(ev_route_confidence(2, 0, -1), 0, 1e-12);
}

#define gates_to(r, query, n, c, want) do { \
	char *got_ = gated((r), (query), (n), (c)); \
	cr_assert_str_eq(got_, (want)); \
	free(got_); \
} while (0)

Test(route, the_gate_takes_the_lane_out_at_or_above_the_threshold_and_says_why)
{
	struct ev_router *r = router("routing:\n  rules:\n    - {lanes: [text], cues: [only]}\n"
	    "  gate: {lane: vector, on: text, below: 0.25}\n");

	gates_to(r, "q", 3, 0.25, "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"default\",\"gate\":"
	    "{\"lane\":\"vector\",\"on\":\"text\",\"mode\":\"run\",\"hits\":3,\"confidence\":0.25,"
	    "\"below\":0.25,\"decision\":\"skip\"}}}");
	gates_to(r, "q", 3, 0.24999, "{\"lanes\":[\"text\",\"vector\"],\"routing\":{\"by\":\"default\","
	    "\"gate\":{\"lane\":\"vector\",\"on\":\"text\",\"mode\":\"run\",\"hits\":3,\"confidence\":0.25,"
	    "\"below\":0.25,\"decision\":\"run\"}}}");
	gates_to(r, "only this", 3, 0.9, "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"rule\",\"rule\":0,"
	    "\"matched\":\"only\",\"gate\":{\"lane\":\"vector\",\"on\":\"text\",\"mode\":\"run\",\"hits\":3,"
	    "\"confidence\":0.9,\"below\":0.25,\"decision\":\"not routed\"}}}");
	ev_router_free(r);
}

Test(route, merge_mode_drops_or_merges)
{
	struct ev_router *r = router("routing:\n  default: [vector, text]\n"
	    "  gate: {lane: vector, on: text, below: 0.5, mode: merge}\n");
	struct ev_gate g;

	ev_router_gate(r, &g);
	cr_assert_eq(g.merge, 1);
	gates_to(r, "q", 1, 1, "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"default\",\"gate\":"
	    "{\"lane\":\"vector\",\"on\":\"text\",\"mode\":\"merge\",\"hits\":1,\"confidence\":1.0,"
	    "\"below\":0.5,\"decision\":\"drop\"}}}");
	gates_to(r, "q", 0, 0, "{\"lanes\":[\"vector\",\"text\"],\"routing\":{\"by\":\"default\",\"gate\":"
	    "{\"lane\":\"vector\",\"on\":\"text\",\"mode\":\"merge\",\"hits\":0,\"confidence\":0.0,"
	    "\"below\":0.5,\"decision\":\"merge\"}}}");
	ev_router_free(r);
}

Test(route, without_a_gate_nothing_is_recorded)
{
	struct ev_router *r = router("routing:\n  default: [text]\n");

	gates_to(r, "q", 0, 0, "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"default\"}}");
	ev_router_free(r);
}

Test(route, check_lanes_names_the_key_of_a_lane_the_pipeline_cannot_run)
{
	static const char *const known[] = { "text", "vector", NULL };
	struct ev_router *r = router("routing:\n  rules:\n    - {lanes: [text], cues: [a]}\n"
	    "    - {lanes: [text, visual], cues: [b]}\n");
	struct ev_router *ok = router("routing:\n  gate: {lane: vector, on: text, below: 0.5}\n");
	struct ev_err err = { 0 };

	cr_assert_eq(ev_router_check_lanes(r, known, "t.yaml", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "'routing.rules[1].lanes' names lane 'visual', which this pipeline "
	    "does not run (it runs text, vector)");
	cr_assert_eq(ev_router_check_lanes(ok, known, "t.yaml", &err), 0);
	ev_router_free(r);
	ev_router_free(ok);
}
