/* test_route_nomem.c: lib/lanes/route.c when memory runs out -- a plan or
 * a lane's answers read then are refused with code 1 (out of memory, not a
 * bad input), or read whole: never a routing value, a cue or a hit left out
 * in silence.  evkit's malloc, realloc and calloc are wrapped at link time
 * (see LDLIBS_test_route_nomem in the Makefile), and so are Jansson's once
 * ev_json_parse_line() has made them evkit's (jsonl.c); the C library's
 * own (strdup(), regcomp()) are not. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "jsonl.h"
#include "route.h"
#include "test_nomem.h"

/* Jansson's allocations made evkit's, through the wrappers (jsonl.c's
 * json_alloc(), which ev_json_parse_line() installs). */
static void
jansson_wrapped(void)
{
	struct ev_err err = { 0 };

	json_decref(ev_json_parse_line("1", 1, NULL, &err));
}

static const char *const fallback[] = { "text", "vector", NULL };

/* The lanes r routes three queries to (by field, field, cue), and how. */
static char *
routed(struct ev_router *r)
{
	const char *queries[] = { "{\"query\":\"x\",\"tab\":\"maps\"}",
		"{\"query\":\"x\",\"tab\":\"code\"}", "{\"query\":\"a Diagram, please\"}" };
	struct ev_err err = { 0 };
	json_t *all = json_array();
	char *s;

	for (int i = 0; i < 3; i++) {
		json_t *q = json_loads(queries[i], 0, NULL);

		cr_assert_eq(ev_router_route(r, q, "t", &err), 0, "%s", err.msg);
		json_array_append_new(all, q);
	}
	s = json_dumps(all, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(all);
	return s;
}

Test(route_nomem, a_plan_read_out_of_memory_is_refused_as_such_or_read_whole)
{
	struct ev_err err = { 0 };
	const char *yaml = "routing:\n  default: [text]\n  field: tab\n  values:\n"
	    "    maps: [visual]\n    code: [structured, text]\n  rules:\n"
	    "    - lanes: [vector]\n      cues: [site plan, diagram]\n";
	json_t *plan = ev_config_parse(yaml, strlen(yaml), "t.yaml", &err);
	struct ev_router *r;
	char *want, *got;
	long total;

	cr_assert_not_null(plan, "%s", err.msg);
	jansson_wrapped();
	fail_arm(0);
	r = ev_router_new(json_object_get(plan, "routing"), fallback, "t.yaml", &err);
	total = fail_disarm();
	cr_assert_not_null(r, "%s", err.msg);
	want = routed(r);
	cr_assert_str_eq(want, "[{\"query\":\"x\",\"tab\":\"maps\",\"lanes\":[\"visual\"],"
	    "\"routing\":{\"by\":\"field\",\"field\":\"tab\",\"value\":\"maps\"}},"
	    "{\"query\":\"x\",\"tab\":\"code\",\"lanes\":[\"structured\",\"text\"],"
	    "\"routing\":{\"by\":\"field\",\"field\":\"tab\",\"value\":\"code\"}},"
	    "{\"query\":\"a Diagram, please\",\"lanes\":[\"vector\"],"
	    "\"routing\":{\"by\":\"rule\",\"rule\":0,\"matched\":\"diagram\"}}]");
	ev_router_free(r);
	cr_assert_gt(total, 10);
	for (long n = 1; n <= total; n++) {
		memset(&err, 0, sizeof err);
		fail_arm(n);
		r = ev_router_new(json_object_get(plan, "routing"), fallback, "t.yaml", &err);
		fail_disarm();
		if (r == NULL) {
			cr_assert_eq(err.code, EV_EXIT_RUNTIME, "allocation %ld: %s", n, err.msg);
			cr_assert_str_eq(err.msg, "out of memory");
			continue;
		}
		got = routed(r);
		cr_assert_str_eq(got, want, "allocation %ld failed", n);
		free(got);
		ev_router_free(r);
	}
	free(want);
	json_decref(plan);
}

Test(route_nomem, answers_read_out_of_memory_are_refused_as_such_or_read_whole)
{
	char path[] = "/tmp/test_route_nomem.XXXXXX";
	struct ev_err err = { 0 };
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	json_t *a;
	char *want, *got;
	long total;

	cr_assert_not_null(f);
	/* twelve hits of each query: the last two fall outside its ten best */
	for (int i = 1; i <= 24; i++)
		fprintf(f, "{\"query_id\":\"q%d\",\"id\":\"c%d\",\"rank\":%d,\"score\":%d,"
		    "\"lane\":\"text\"}\n", i % 2, i, (i + 1) / 2, 20 - i);
	cr_assert_eq(fclose(f), 0);
	jansson_wrapped();
	fail_arm(0);
	a = ev_route_read_answers(path, &err);
	total = fail_disarm();
	cr_assert_not_null(a, "%s", err.msg);
	want = json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	cr_assert_str_eq(want, "{\"q1\":[12,19.0,17.0,15.0,13.0,11.0,9.0,7.0,5.0,3.0,1.0],"
	    "\"q0\":[12,18.0,16.0,14.0,12.0,10.0,8.0,6.0,4.0,2.0,0.0]}");
	json_decref(a);
	cr_assert_gt(total, 100);
	for (long n = 1; n <= total; n++) {
		memset(&err, 0, sizeof err);
		fail_arm(n);
		a = ev_route_read_answers(path, &err);
		fail_disarm();
		if (a == NULL) {
			cr_assert_eq(err.code, EV_EXIT_RUNTIME, "allocation %ld: %s", n, err.msg);
			continue;
		}
		got = json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		cr_assert_str_eq(got, want, "allocation %ld failed", n);
		free(got);
		json_decref(a);
	}
	free(want);
	unlink(path);
}
