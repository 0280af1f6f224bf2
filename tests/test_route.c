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

/* Whether the string expr gives (malloc'd: freed) is want. */
#define owned_str_eq(expr, want) do { \
	char *got_ = (expr); \
	cr_assert_str_eq(got_, (want)); \
	free(got_); \
} while (0)

/* Route query with r and check the added fields are want. */
#define routes_to(r, query, want) owned_str_eq(route((r), (query)), (want))

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

/* Curly quotes, dashes, no-break spaces and guillemets, as a query pasted
 * from a word processor has them, part words as ASCII punctuation does: the
 * cue "map" was missed in “map” and map—where, whose bytes were taken for
 * letters of the word. */
Test(route, unicode_punctuation_and_spaces_part_words)
{
	struct ev_router *r = router("routing:\n  rules:\n    - lanes: [visual]\n"
	    "      cues: [map, site plan, \u00e9t\u00e9]\n");
	const char *matched[] = { "the \u201cMap\u201d", "map\u2014where", "\u00abmap\u00bb",
	    "site\u00a0plan", "site\u2009plan\u2026", "\uff08map\uff09", "\u00c9T\u00c9!" };

	for (size_t i = 0; i < sizeof matched / sizeof matched[0]; i++) {
		char *got = route(r, matched[i]);

		cr_assert(strstr(got, "\"by\":\"rule\"") != NULL, "%s: %s", matched[i], got);
		free(got);
	}
	/* a letter is not a separator: "mapé" is not "map" */
	routes_to(r, "map\u00e9",
	    "{\"lanes\":[\"text\",\"vector\"],\"routing\":{\"by\":\"default\"}}");
	routes_to(r, "\u00b5map",
	    "{\"lanes\":[\"text\",\"vector\"],\"routing\":{\"by\":\"default\"}}");
	ev_router_free(r);
}

/* A pattern matches in any case of its Latin-1 letters too, as a cue does:
 * REG_ICASE in the C locale folds ASCII alone, so "École 12" and "ÉCOLE 12"
 * were missed by the pattern "école [0-9]+".  \W keeps its meaning. */
Test(route, a_pattern_matches_in_any_case_of_its_latin1_letters)
{
	struct ev_router *r = router("routing:\n  default: [text]\n  rules:\n"
	    "    - {lanes: [a], pattern: '\u00e9cole [0-9]+'}\n"
	    "    - {lanes: [b], pattern: '^\u00c9T\u00c9\\W'}\n");
	const char *a = "{\"lanes\":[\"a\"],\"routing\":{\"by\":\"rule\",\"rule\":0,"
	    "\"matched\":\"pattern\"}}";
	const char *b = "{\"lanes\":[\"b\"],\"routing\":{\"by\":\"rule\",\"rule\":1,"
	    "\"matched\":\"pattern\"}}";

	routes_to(r, "\u00c9cole 12", a);
	routes_to(r, "\u00c9COLE 12", a);
	routes_to(r, "l'\u00e9cole 12", a);
	routes_to(r, "\u00e9t\u00e9 !", b);
	routes_to(r, "\u00e9t\u00e9s", "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"default\"}}");
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

#define gates_to(r, query, n, c, want) owned_str_eq(gated((r), (query), (n), (c)), (want))
/* The gate's record of these tests' vector lane, gated on the text lane's
 * hits: mode and the rest of its fields as JSON text. */
#define VECTOR_GATE(mode, rest) \
	"\"gate\":{\"lane\":\"vector\",\"on\":\"text\",\"mode\":\"" mode "\"," rest "}}}"

Test(route, the_gate_takes_the_lane_out_at_or_above_the_threshold_and_says_why)
{
	struct ev_router *r = router("routing:\n  rules:\n    - {lanes: [text], cues: [only]}\n"
	    "  gate: {lane: vector, on: text, below: 0.25}\n");

	gates_to(r, "q", 3, 0.25, "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"default\","
	    VECTOR_GATE("run", "\"hits\":3,\"confidence\":0.25,\"below\":0.25,\"decision\":\"skip\""));
	gates_to(r, "q", 3, 0.24999, "{\"lanes\":[\"text\",\"vector\"],\"routing\":{\"by\":\"default\","
	    VECTOR_GATE("run", "\"hits\":3,\"confidence\":0.25,\"below\":0.25,\"decision\":\"run\""));
	gates_to(r, "only this", 3, 0.9, "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"rule\",\"rule\":0,"
	    "\"matched\":\"only\"," VECTOR_GATE("run", "\"hits\":3,\"confidence\":0.9,\"below\":0.25,"
	    "\"decision\":\"not routed\""));
	ev_router_free(r);
}

Test(route, merge_mode_drops_or_merges)
{
	struct ev_router *r = router("routing:\n  default: [vector, text]\n"
	    "  gate: {lane: vector, on: text, below: 0.5, mode: merge}\n");
	struct ev_gate g;

	ev_router_gate(r, &g);
	cr_assert_eq(g.merge, 1);
	gates_to(r, "q", 1, 1, "{\"lanes\":[\"text\"],\"routing\":{\"by\":\"default\","
	    VECTOR_GATE("merge", "\"hits\":1,\"confidence\":1.0,\"below\":0.5,\"decision\":\"drop\""));
	gates_to(r, "q", 0, 0, "{\"lanes\":[\"vector\",\"text\"],\"routing\":{\"by\":\"default\","
	    VECTOR_GATE("merge", "\"hits\":0,\"confidence\":0.0,\"below\":0.5,\"decision\":\"merge\""));
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

/* The lanes and gate record of query record JSON qjson after the gate over
 * several lanes, given answers (JSON). */
static char *
lanes_gated(struct ev_router *r, const char *qjson, const char *answers)
{
	struct ev_err err = { 0 };
	json_t *q = json_loads(qjson, 0, NULL), *a = json_loads(answers, 0, NULL), *out;
	char *s;

	cr_assert_not_null(q);
	cr_assert_not_null(a);
	cr_assert_eq(ev_router_route(r, q, "t", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_router_apply_lanes_gate(r, q, a, &err), 0, "%s", err.msg);
	out = json_pack("{s:O,s:O}", "lanes", json_object_get(q, "lanes"), "gate",
	    json_object_get(json_object_get(q, "routing"), "gate"));
	json_object_del(json_object_get(out, "gate"), "measure");
	json_object_del(json_object_get(out, "gate"), "below");
	json_object_del(json_object_get(out, "gate"), "lanes");
	s = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(q), json_decref(a), json_decref(out);
	return s;
}

#define lanes_gate_to(r, q, answers, want) owned_str_eq(lanes_gated((r), (q), (answers)), (want))

Test(route, a_gate_over_both_lanes_keeps_the_one_that_clears_and_merges_when_neither_does)
{
	struct ev_router *r = router("routing:\n  default: [text, vector]\n"
	    "  gate: {lanes: [text, vector], below: {text: 0.5, vector: 0.3}, mode: merge}\n");

	/* margin10: (s1 - s10) / s1 */
	lanes_gate_to(r, "{\"query_id\":\"q\",\"query\":\"a\"}",
	    "{\"text\":[3,10,9.9,9.8],\"vector\":[2,0.9,0.1]}",
	    "{\"lanes\":[\"vector\"],\"gate\":{\"mode\":\"merge\",\"confidence\":{\"text\":0.02,"
	    "\"vector\":0.8889},\"decision\":\"keep\",\"kept\":\"vector\"}}");
	lanes_gate_to(r, "{\"query_id\":\"q\",\"query\":\"a\"}",
	    "{\"text\":[3,10,9.9,9.8],\"vector\":[2,0.5,0.45]}",
	    "{\"lanes\":[\"text\",\"vector\"],\"gate\":{\"mode\":\"merge\",\"confidence\":{\"text\":0.02,"
	    "\"vector\":0.1},\"decision\":\"merge\"}}");
	/* both clear: the one clearing by more */
	lanes_gate_to(r, "{\"query_id\":\"q\",\"query\":\"a\"}",
	    "{\"text\":[2,10,1],\"vector\":[2,0.9,0.5]}",
	    "{\"lanes\":[\"text\"],\"gate\":{\"mode\":\"merge\",\"confidence\":{\"text\":0.9,"
	    "\"vector\":0.4444},\"decision\":\"keep\",\"kept\":\"text\"}}");
	ev_router_free(r);
}

Test(route, a_high_stakes_query_keeps_every_lane_of_either_gate)
{
	struct ev_router *r = router("routing:\n  default: [text, vector]\n"
	    "  gate: {lanes: [text, vector], below: 0.3}\n");
	struct ev_router *old = router("routing:\n  default: [text, vector]\n"
	    "  gate: {lane: vector, on: text, below: 0.25}\n");
	struct ev_router *own = router("routing:\n  default: [text, vector]\n"
	    "  gate: {lane: vector, on: text, below: 0.25}\n"
	    "  high_stakes: {field: task, values: [decision, appeal]}\n");
	struct ev_err err = { 0 };
	json_t *q;

	lanes_gate_to(r, "{\"query_id\":\"q\",\"query\":\"a\",\"stakes\":\"high\"}",
	    "{\"text\":[2,10,1],\"vector\":[2,0.9,0.1]}",
	    "{\"lanes\":[\"text\",\"vector\"],\"gate\":{\"mode\":\"run\",\"confidence\":{\"text\":0.9,"
	    "\"vector\":0.8889},\"decision\":\"high stakes\"}}");
	/* the gate on the text lane's confidence: the vector lane stays */
	q = json_pack("{s:s,s:s,s:s}", "query_id", "q", "query", "a", "stakes", "high");
	cr_assert_eq(ev_router_route(old, q, "t", &err), 0);
	cr_assert_eq(ev_router_apply_gate(old, q, 3, 0.9, &err), 0);
	cr_assert_eq(json_array_size(json_object_get(q, "lanes")), 2);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(q,
	    "routing"), "gate"), "decision")), "high stakes");
	json_decref(q);
	/* the field and values are the plan's */
	q = json_pack("{s:s,s:s,s:s,s:s}", "query_id", "q", "query", "a", "stakes", "high", "task",
	    "appeal");
	cr_assert_eq(ev_router_route(own, q, "t", &err), 0);
	cr_assert_eq(ev_router_apply_gate(own, q, 3, 0.9, &err), 0);
	cr_assert_eq(json_array_size(json_object_get(q, "lanes")), 2, "task: appeal");
	json_object_set_new(q, "task", json_string("lookup"));
	json_object_del(json_object_get(q, "routing"), "gate");
	cr_assert_eq(ev_router_apply_gate(own, q, 3, 0.9, &err), 0);
	cr_assert_eq(json_array_size(json_object_get(q, "lanes")), 1, "stakes: high is not this plan's mark");
	json_decref(q);
	ev_router_free(r), ev_router_free(old), ev_router_free(own);
}

Test(route, in_mode_run_a_lane_not_yet_run_is_skipped_when_one_that_ran_clears)
{
	struct ev_router *r = router("routing:\n  default: [text, vector]\n"
	    "  gate: {lanes: [text, vector], below: 0.3, mode: run, measure: {text: margin, vector: top}}\n");

	lanes_gate_to(r, "{\"query_id\":\"q\",\"query\":\"a\"}", "{\"text\":[2,10,5]}",
	    "{\"lanes\":[\"text\"],\"gate\":{\"mode\":\"run\",\"confidence\":{\"text\":0.5,"
	    "\"vector\":null},\"decision\":\"keep\",\"kept\":\"text\"}}");
	lanes_gate_to(r, "{\"query_id\":\"q\",\"query\":\"a\"}", "{\"text\":[2,10,9]}",
	    "{\"lanes\":[\"text\",\"vector\"],\"gate\":{\"mode\":\"run\",\"confidence\":{\"text\":0.1,"
	    "\"vector\":null},\"decision\":\"run\"}}");
	ev_router_free(r);
	r = router("routing:\n  default: [text]\n  gate: {lanes: [text, vector], below: 0.3}\n");
	lanes_gate_to(r, "{\"query_id\":\"q\",\"query\":\"a\"}", "{\"text\":[2,10,9]}",
	    "{\"lanes\":[\"text\"],\"gate\":{\"mode\":\"run\",\"confidence\":{\"text\":0.1,"
	    "\"vector\":null},\"decision\":\"not routed\"}}");
	ev_router_free(r);
}

Test(route, the_measures_of_an_answer)
{
	double top[10] = { 10, 8, 7, 6, 5, 4, 3, 2, 2, 1 };

	cr_assert_float_eq(ev_route_measure(EV_CONF_MARGIN, top, 10, 50), 0.2, 1e-12);
	cr_assert_float_eq(ev_route_measure(EV_CONF_MARGIN10, top, 10, 50), 0.9, 1e-12);
	cr_assert_float_eq(ev_route_measure(EV_CONF_MARGIN10, top, 3, 3), 0.3, 1e-12, "the last of 3");
	cr_assert_float_eq(ev_route_measure(EV_CONF_TOP, top, 10, 50), 10, 1e-12);
	cr_assert_float_eq(ev_route_measure(EV_CONF_TOP_MEAN10, top, 10, 50), 10 / 4.8, 1e-12);
	cr_assert_float_eq(ev_route_measure(EV_CONF_MARGIN10, top, 1, 1), 1, 1e-12);
	cr_assert_float_eq(ev_route_measure(EV_CONF_TOP, top, 0, 0), 0, 1e-12);
}

Test(route, a_gate_over_lanes_of_the_wrong_shape_is_refused)
{
	static const char *const bad[] = {
		"routing:\n  gate: {lanes: [text], below: 0.3}\n",
		"routing:\n  gate: {lanes: [text, text], below: 0.3}\n",
		"routing:\n  gate: {lanes: [text, vector], below: {text: 0.3}}\n",
		"routing:\n  gate: {lanes: [text, vector], below: 0.3, measure: median}\n",
		"routing:\n  gate: {lanes: [text, vector], lane: vector, on: text, below: 0.3}\n",
		"routing:\n  high_stakes: {field: stakes, values: []}\n",
		NULL
	};
	struct ev_err err = { 0 };

	for (int i = 0; bad[i]; i++) {
		json_t *plan = ev_config_parse(bad[i], strlen(bad[i]), "t.yaml", &err);

		cr_assert_null(ev_router_new(json_object_get(plan, "routing"), fallback, "t.yaml", &err),
		    "%s", bad[i]);
		cr_assert_eq(err.code, 2);
		json_decref(plan);
	}
}

/* The gate by the lanes' answers: on one lane's margin, or over several
 * lanes each with its answer for the query ([0] where a lane has none);
 * a query gated already, or no answers, is left as it is. */
Test(route, the_gate_by_the_answers_of_the_gated_lanes)
{
	struct ev_router *one = router("routing:\n  gate: {lane: vector, on: text, below: 0.5}\n");
	struct ev_router *both = router("routing:\n  default: [text, vector]\n"
	    "  gate: {lanes: [text, vector], below: {text: 0.5, vector: 0.3}, mode: merge}\n");
	const char *lanes[] = { "text", "vector" };
	json_t *answers[] = { json_loads("{\"q\":[2,10,1]}", 0, NULL),
	    json_loads("{\"other\":[2,0.9,0.5]}", 0, NULL) };
	struct ev_err err = { 0 };
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q", "query", "a");
	char *s;

	cr_assert_eq(ev_router_route(one, q, "t", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_router_gate_answers(one, q, lanes, answers, 0, &err), 0);
	cr_assert_null(json_object_get(json_object_get(q, "routing"), "gate"));
	cr_assert_eq(ev_router_gate_answers(one, q, lanes, answers, 1, &err), 0, "%s", err.msg);
	s = json_dumps(json_object_get(q, "lanes"), JSON_COMPACT);
	cr_assert_str_eq(s, "[\"text\"]");	/* margin (10 - 1) / 10 clears 0.5: vector skipped */
	free(s);
	/* gated once */
	cr_assert_eq(ev_router_gate_answers(both, q, lanes, answers, 2, &err), 0, "%s", err.msg);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(q,
	    "routing"), "gate"), "on")), "text");
	json_decref(q);
	q = json_pack("{s:s,s:s}", "query_id", "q", "query", "a");
	cr_assert_eq(ev_router_route(both, q, "t", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_router_gate_answers(both, q, lanes, answers, 2, &err), 0, "%s", err.msg);
	s = json_dumps(json_object_get(json_object_get(q, "routing"), "gate"),
	    JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	/* vector has no answer for q: [0], no confidence */
	cr_assert(strstr(s, "\"confidence\":{\"text\":0.9,\"vector\":0.0},\"decision\":\"keep\","
	    "\"kept\":\"text\"}") != NULL, "%s", s);
	free(s);
	json_decref(q);
	json_decref(answers[0]);
	json_decref(answers[1]);
	ev_router_free(one);
	ev_router_free(both);
}
