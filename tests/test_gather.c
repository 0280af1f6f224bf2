/* test_gather.c: lib/lanes/gather.c -- the hits of routed queries, gathered
 * lane by lane in the queries' order (ev-route --hits). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gather.h"
#include "test_util.h"

/* A file of hits holding text; its path (static, one per slot). */
static const char *
hits_file(int slot, const char *text)
{
	static char paths[4][64];

	snprintf(paths[slot], sizeof paths[slot], "/tmp/test_gather_XXXXXX.jsonl");
	tu_tmpfile(paths[slot], 6, text, strlen(text));
	return paths[slot];
}

#define HIT(q, id, lane) "{\"query_id\":\"" q "\",\"id\":\"" id "\",\"lane\":\"" lane \
	"\",\"rank\":1,\"score\":1}\n"

/* Gather the routed queries qjson[] (NULL-terminated) from g into a string. */
static char *
gather_all(struct ev_gather *g, const char *const *qjson, struct ev_err *err, int *rc)
{
	static char out[4096];
	FILE *fp = fmemopen(out, sizeof out, "w");
	long long written = 0;

	*rc = ev_gather_open(g, err);
	for (int i = 0; *rc == 0 && qjson[i] != NULL; i++) {
		json_t *q = json_loads(qjson[i], 0, NULL);

		cr_assert_not_null(q);
		*rc = ev_gather_query(g, q, "routed:1", fp, &written, err);
		json_decref(q);
	}
	if (*rc == 0)
		*rc = ev_gather_end(g, err);
	fclose(fp);
	return out;
}


TestSuite(gather, .fini = tu_tmpfiles_remove);

Test(gather, each_lane_s_hits_of_the_queries_routed_to_it_in_their_order)
{
	struct ev_gather g = { 0 };
	struct ev_err err = { 0 };
	char text_spec[128], vec_spec[128];
	const char *q[] = {
		"{\"query_id\":\"a\",\"query\":\"x\",\"lanes\":[\"text\"]}",
		"{\"query_id\":\"b\",\"query\":\"y\",\"lanes\":[\"text\",\"vector\"]}",
		NULL
	};
	int rc;

	snprintf(text_spec, sizeof text_spec, "text=%s",
	    hits_file(0, HIT("a", "t1", "text") "\n" HIT("b", "t2", "text")));
	snprintf(vec_spec, sizeof vec_spec, "!text=%s",
	    hits_file(1, HIT("a", "v1", "vector") HIT("b", "v2", "vector")));
	cr_assert_eq(ev_gather_add(&g, text_spec), 0);
	cr_assert_eq(ev_gather_add(&g, vec_spec), 0);
	/* "!text": the queries not routed to text, none here: v1 and v2 are passed over */
	cr_assert_str_eq(gather_all(&g, q, &err, &rc), HIT("a", "t1", "text") HIT("b", "t2", "text"));
	cr_assert_eq(rc, 0, "%s", err.msg);
	ev_gather_close(&g);
	cr_assert_eq(g.n, 0);
}

Test(gather, hits_of_a_query_out_of_order_are_refused_at_the_end)
{
	struct ev_gather g = { 0 };
	struct ev_err err = { 0 };
	char spec[128];
	const char *q[] = {
		"{\"query_id\":\"a\",\"query\":\"x\",\"lanes\":[\"text\"]}",
		"{\"query_id\":\"b\",\"query\":\"y\",\"lanes\":[\"text\"]}",
		NULL
	};
	int rc;

	snprintf(spec, sizeof spec, "text=%s", hits_file(0, HIT("b", "t2", "text") HIT("a", "t1", "text")));
	cr_assert_eq(ev_gather_add(&g, spec), 0);
	gather_all(&g, q, &err, &rc);
	cr_assert_eq(rc, -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.msg, "hits of query 'a', which is not among the routed queries") != NULL,
	    "%s", err.msg);
	ev_gather_close(&g);
}

Test(gather, a_query_without_lanes_and_bad_specs_are_refused)
{
	struct ev_gather g = { 0 };
	struct ev_err err = { 0 };
	char spec[128];
	const char *q[] = { "{\"query_id\":\"a\",\"query\":\"x\"}", NULL };
	int rc;

	cr_assert_eq(ev_gather_add(&g, "text"), -1);
	cr_assert_eq(ev_gather_add(&g, "=f"), -1);
	cr_assert_eq(ev_gather_add(&g, "!=f"), -1);
	cr_assert_eq(ev_gather_add(&g, "text="), -1);
	for (int i = 0; i < EV_GATHER_MAX; i++)
		cr_assert_eq(ev_gather_add(&g, "text=/dev/null"), 0);
	cr_assert_eq(ev_gather_add(&g, "text=/dev/null"), -2);
	ev_gather_close(&g);
	snprintf(spec, sizeof spec, "text=%s", hits_file(0, HIT("a", "t1", "text")));
	cr_assert_eq(ev_gather_add(&g, spec), 0);
	gather_all(&g, q, &err, &rc);
	cr_assert_eq(rc, -1);
	cr_assert_str_eq(err.msg, "query without 'lanes': --hits reads queries routed by ev-route");
	ev_gather_close(&g);
}

/* Standard input is read by one input at most: a source, a gated lane's
 * hits, or the query records (no operands, or '-' among them). */
Test(gather, standard_input_named_by_two_inputs_is_refused)
{
	struct ev_gather g = { 0 };
	char *dash[] = { "-" }, *file[] = { "q.jsonl" }, *none[] = { NULL }, *text[] = { "text" };
	struct ev_err err = { 0 };

	cr_assert_eq(ev_gather_stdin_once(&g, none, dash, 1, file, 1, &err), 0);
	cr_assert_eq(ev_gather_stdin_once(&g, none, dash, 1, NULL, 0, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert(strncmp(err.msg, "--gate-hits - and the query records", 35) == 0, "%s", err.msg);
	/* the gated lane named as it was given */
	cr_assert_eq(ev_gather_stdin_once(&g, text, dash, 1, NULL, 0, &err), -1);
	cr_assert(strncmp(err.msg, "--gate-hits text=- and the query records", 40) == 0, "%s",
	    err.msg);
	cr_assert_eq(ev_gather_add(&g, "!text=-"), 0);
	cr_assert_eq(ev_gather_stdin_once(&g, NULL, NULL, 0, file, 1, &err), 0);
	cr_assert_eq(ev_gather_stdin_once(&g, NULL, NULL, 0, dash, 1, &err), -1);
	cr_assert(strncmp(err.msg, "--hits !text=- and the query records", 36) == 0, "%s", err.msg);
	cr_assert_eq(ev_gather_add(&g, "vector=-"), 0);
	cr_assert_eq(ev_gather_stdin_once(&g, NULL, NULL, 0, file, 1, &err), -1);
	cr_assert(strncmp(err.msg, "--hits !text=- and --hits vector=-", 34) == 0, "%s", err.msg);
	ev_gather_close(&g);
}
