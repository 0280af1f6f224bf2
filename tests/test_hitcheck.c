/* Tests of lib/base/hitcheck.c: a hit's shape, on Jansson's tree and on the
 * scanner's members. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitcheck.h"
#include "test_util.h"

/* A hit's explain is an object and its warnings an array of strings, when
 * present and not null. */
Test(hitcheck, hit_check_holds_explain_and_warnings_to_their_types)
{
	static const char *const bad[] = {
		"{\"id\":\"a\",\"score\":1,\"explain\":5}",
		"{\"id\":\"a\",\"score\":1,\"explain\":[]}",
		"{\"id\":\"a\",\"score\":1,\"warnings\":\"late\"}",
		"{\"id\":\"a\",\"score\":1,\"warnings\":[\"a\",1]}",
	};
	static const char *const good[] = {
		"{\"id\":\"a\",\"score\":1,\"explain\":{},\"warnings\":[\"a\"]}",
		"{\"id\":\"a\",\"score\":1,\"explain\":null,\"warnings\":null}",
		"{\"id\":\"a\",\"score\":1,\"evidence\":[{}],\"warnings\":[]}",
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ev_err err = { 0 };
		json_t *h = json_loads(bad[i], 0, NULL);

		cr_assert_eq(ev_hit_check(h, "f:1", &err), -1, "%s", bad[i]);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.where, "f:1");
		json_decref(h);
	}
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		struct ev_err err = { 0 };
		json_t *h = json_loads(good[i], 0, NULL);

		cr_assert_eq(ev_hit_check(h, "f:1", &err), 0, "%s: %s", good[i], err.msg);
		json_decref(h);
	}
}

/* Hits whose nested values break the rule, each with its message. */
static const char *const nested_bad[][2] = {
	{ "\"evidence\":[1]", "field 'evidence[0]' must be an object" },
	{ "\"evidence\":[{\"lane\":\"text\"},null]", "field 'evidence[1]' must be an object" },
	{ "\"evidence\":[{\"lane\":3}]", "field 'evidence[0].lane' must be a string" },
	{ "\"evidence\":[{\"lane\":null}]", "field 'evidence[0].lane' must be a string" },
	{ "\"evidence\":[{\"lane\":\"\"}]", "field 'evidence[0].lane' must not be empty" },
	{ "\"evidence\":[{\"score\":\"0.5\"}]", "field 'evidence[0].score' must be a number" },
	{ "\"evidence\":[{\"rank\":2.5}]", "field 'evidence[0].rank' must be an integer" },
	{ "\"evidence\":[{\"rank\":0.0}]", "field 'evidence[0].rank' must be at least 1" },
	{ "\"evidence\":[{\"rank\":0}]", "field 'evidence[0].rank' must be at least 1" },
	{ "\"evidence\":[{\"r\\u0061nk\":-1}]", "field 'evidence[0].rank' must be at least 1" },
	{ "\"evidence\":[{\"snippet\":false}]", "field 'evidence[0].snippet' must be a string" },
	{ "\"signals\":{\"fts_score\":\"1\"}", "field 'signals.fts_score' must be a number or a boolean" },
	{ "\"signals\":{\"a\":1,\"b\\u00e9\":null}", "field 'signals.b\xc3\xa9' must be a number or a boolean" },
	{ "\"signals\":{\"v\":[1]}", "field 'signals.v' must be a number or a boolean" },
	{ "\"signals\":{\"fts_rank\":2.5}", "field 'signals.fts_rank' must be an integer" },
	{ "\"signals\":{\"fts_rank\":\"2\"}", "field 'signals.fts_rank' must be an integer" },
	{ "\"signals\":{\"vector_rank\":true}", "field 'signals.vector_rank' must be an integer" },
	{ "\"signals\":{\"fts_rank\":0}", "field 'signals.fts_rank' must be at least 1" },
	{ "\"signals\":{\"visual_rank\":-3.0}", "field 'signals.visual_rank' must be at least 1" },
	{ "\"signals\":{\"fts\\u005frank\":1e-1}", "field 'signals.fts_rank' must be an integer" },
	{ "\"warnings\":[\"a\",{}]", "field 'warnings' must be an array of strings" },
	{ "\"explain\":\"x\"", "field 'explain' must be an object" },
	{ "\"explain\":{\"lanes\":{}}", "field 'explain.lanes' must be an array" },
	{ "\"explain\":{\"lanes\":[\"text\"]}", "field 'explain.lanes[0]' must be an object" },
	{ "\"explain\":{\"lanes\":[{\"lane\":\"text\",\"found\":true},{\"lane\":5}]}",
	    "field 'explain.lanes[1].lane' must be a string" },
	{ "\"explain\":{\"lanes\":[{\"lane\":\"text\",\"found\":\"yes\"}]}",
	    "field 'explain.lanes[0].found' must be a boolean" },
	{ "\"explain\":{\"lanes\":[{\"lane\":\"text\",\"rank\":\"3\"}]}",
	    "field 'explain.lanes[0].rank' must be an integer" },
	{ "\"explain\":{\"lanes\":[{\"lane\":\"text\",\"rank\":1e-1}]}",
	    "field 'explain.lanes[0].rank' must be an integer" },
	{ "\"explain\":{\"lanes\":[{\"lane\":\"text\",\"rank\":-2.0}]}",
	    "field 'explain.lanes[0].rank' must be at least 1" },
	{ "\"explain\":{\"method\":\"rrf\",\"lanes\":[{\"score\":[]}]}",
	    "field 'explain.lanes[0].score' must be a number" },
};

/* Hits that keep to it: what the lanes, ev-expand and ev-rerank write. */
static const char *const nested_good[] = {
	"\"signals\":{\"fts_score\":2.5,\"fts_rank\":1,\"query_as_document\":true,\"x\":false}",
	"\"signals\":{\"rank\":0.5,\"frank\":-1,\"_rank\":0,\"rank_x\":true}",
	"\"evidence\":[{\"lane\":\"text\",\"snippet\":\"s\",\"matched_terms\":[\"a\"],"
	    "\"regions\":[{\"page\":2}],\"retrieved_at\":\"2026-11-29T02:10:33.123Z\"},"
	    "{\"lane\":\"timeline\",\"from\":\"d:_top:0\",\"distance\":32.5,\"score\":1}]",
	"\"evidence\":[{\"lane\":\"link\",\"from\":\"a\",\"distance\":1,\"score\":-2,\"rank\":3}]",
	"\"evidence\":[{}],\"signals\":{},\"warnings\":[]",
	"\"evidence\":null,\"signals\":null,\"explain\":null,\"warnings\":null",
	"\"explain\":{\"method\":\"rrf\",\"rrf_k\":60,\"lanes\":[{\"lane\":\"vector\",\"found\":false,"
	    "\"weight\":1,\"contribution\":0,\"formula\":\"f\"},{\"lane\":\"text\",\"found\":true,"
	    "\"rank\":1,\"score\":1,\"normalized\":0.01,\"weight\":1,\"contribution\":0.01}],"
	    "\"rerank\":{\"rank\":\"any\"}}",
	"\"explain\":{\"lanes\":null}",
};

/* The line of a hit with more members m. */
static void
line_of(char *buf, size_t n, const char *m)
{
	snprintf(buf, n, "{\"query_id\":\"q\",\"id\":\"a\",\"score\":1,%s}", m);
}

/* ev_hit_check_member() over every member of line: 0, 1 (a lane's rank
 * written as a real), or -1 with *err. */
static int
scan_check(const char *line, struct ev_err *err)
{
	struct ev_jscan js = { 0 };
	struct ev_jmems scratch = { NULL, 0, 0 };
	int r = 0;

	cr_assert_eq(ev_jscan_value(&js, line, strlen(line), "f:1", err), EV_JOBJ, "%s", line);
	for (size_t i = 0; i < js.top.n && r == 0; i++)
		r = ev_hit_check_member(&js.top.m[i], &scratch, "f:1", err);
	ev_jscan_release(&js);
	free(scratch.m);
	return r;
}

/* What a hit's signals, evidence and explain.lanes hold: each signal a
 * number or a boolean, each entry an object whose lane, score, rank and
 * snippet (evidence) or lane, found, rank and score (explain.lanes) are of
 * their types; the tree and the scanner say the same. */
Test(hitcheck, nested_values_are_held_to_one_rule_on_the_tree_and_the_scan)
{
	char line[600];

	for (size_t i = 0; i < sizeof nested_bad / sizeof nested_bad[0]; i++) {
		struct ev_err err = { 0 }, serr = { 0 };
		json_t *h;

		line_of(line, sizeof line, nested_bad[i][0]);
		cr_assert_not_null(h = json_loads(line, 0, NULL), "%s", line);
		cr_assert_eq(ev_hit_check(h, "f:1", &err), -1, "%s", line);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.where, "f:1");
		cr_assert_str_eq(err.msg, nested_bad[i][1]);
		cr_assert_eq(scan_check(line, &serr), -1, "%s", line);
		cr_assert_eq(serr.code, 2);
		cr_assert_str_eq(serr.where, "f:1");
		cr_assert_str_eq(serr.msg, nested_bad[i][1]);
		json_decref(h);
	}
	for (size_t i = 0; i < sizeof nested_good / sizeof nested_good[0]; i++) {
		struct ev_err err = { 0 };
		json_t *h;

		line_of(line, sizeof line, nested_good[i]);
		cr_assert_not_null(h = json_loads(line, 0, NULL), "%s", line);
		cr_assert_eq(ev_hit_check(h, "f:1", &err), 0, "%s: %s", line, err.msg);
		cr_assert_eq(scan_check(line, &err), 0, "%s: %s", line, err.msg);
		json_decref(h);
	}
}

/* A whole rank written as a real (2.0, as JavaScript writes 2), the hit's
 * or a lane's rank signal, is that rank: the tree's check makes it the
 * integer its readers take, and the scanner's says a reader passing the
 * line on must (1); other signals and an integer rank stay as they were. */
Test(hitcheck, a_whole_rank_written_as_a_real_is_that_rank)
{
	char line[600];
	struct ev_err err = { 0 };
	json_t *h, *sig;

	line_of(line, sizeof line, "\"rank\":3.0,\"signals\":{\"fts_rank\":2.0,"
	    "\"visual_r\\u0061nk\":1e1,\"vector_rank\":4,\"vector_score\":1.0}");
	cr_assert_not_null(h = json_loads(line, 0, NULL));
	cr_assert_eq(ev_hit_check(h, "f:1", &err), 0, "%s", err.msg);
	sig = json_object_get(h, "signals");
	cr_assert(json_is_integer(json_object_get(h, "rank")));
	cr_assert_eq(json_integer_value(json_object_get(h, "rank")), 3);
	cr_assert(json_is_integer(json_object_get(sig, "fts_rank")));
	cr_assert_eq(json_integer_value(json_object_get(sig, "fts_rank")), 2);
	cr_assert(json_is_integer(json_object_get(sig, "visual_rank")));
	cr_assert_eq(json_integer_value(json_object_get(sig, "visual_rank")), 10);
	cr_assert_eq(json_integer_value(json_object_get(sig, "vector_rank")), 4);
	cr_assert(json_is_real(json_object_get(sig, "vector_score")));
	json_decref(h);
	cr_assert_eq(scan_check(line, &err), 1, "%s", err.msg);
	line_of(line, sizeof line, "\"signals\":{\"fts_rank\":2,\"fts_score\":2.0}");
	cr_assert_eq(scan_check(line, &err), 0, "%s", err.msg);
}

/* A rank inside evidence and explain.lanes follows the same rule: 3.0 is
 * 3, made the integer on the tree, said (1) by the scanner's check. */
Test(hitcheck, an_entrys_whole_rank_written_as_a_real_is_that_rank)
{
	static const char *const lines[] = {
		"\"evidence\":[{\"lane\":\"text\",\"rank\":1},{\"lane\":\"vector\",\"rank\":3.0}]",
		"\"explain\":{\"lanes\":[{\"lane\":\"text\",\"found\":false},"
		    "{\"lane\":\"vector\",\"found\":true,\"rank\":3e0}]}",
	};
	struct ev_err err = { 0 };
	char line[600];

	for (size_t i = 0; i < 2; i++) {
		json_t *h, *a, *x;

		line_of(line, sizeof line, lines[i]);
		cr_assert_not_null(h = json_loads(line, 0, NULL));
		cr_assert_eq(ev_hit_check(h, "f:1", &err), 0, "%s", err.msg);
		a = i == 0 ? json_object_get(h, "evidence") :
		    json_object_get(json_object_get(h, "explain"), "lanes");
		x = json_object_get(json_array_get(a, 1), "rank");
		cr_assert(json_is_integer(x), "%s", line);
		cr_assert_eq(json_integer_value(x), 3);
		json_decref(h);
		cr_assert_eq(scan_check(line, &err), 1, "%s: %s", line, err.msg);
	}
	line_of(line, sizeof line, "\"evidence\":[{\"rank\":3,\"score\":3.0}]");
	cr_assert_eq(scan_check(line, &err), 0, "%s", err.msg);
}
