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

static char *
route(struct ev_router *r, const char *query)
{
	struct ev_err err = { 0 };
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q", "query", query);
	char *s;

	cr_assert_eq(ev_router_route(r, q, "t", &err), 0, "%s", err.msg);
	json_object_del(q, "query_id");
	json_object_del(q, "query");
	s = json_dumps(q, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(q);
	return s;
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
