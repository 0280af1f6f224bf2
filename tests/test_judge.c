/* test_judge.c: lib/judge/judge.c -- an external judge kept running, one JSON line
 * out per claim and one verdict line back. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge.h"

static struct ev_score_cite cites[] = {
	{ "d1:s:0", "Turbulent flow.", 15 },
	{ NULL, "Laminar flow.", 13 },
};
static struct ev_score_item item = { .query = "flow", .query_len = 4, .answer = "The flow.", .answer_len = 9,
	.cites = cites, .ncites = 2, .cap = 2 };

/* Start cmd, ask one claim (best: citation 0), stop.  Returns what ask
 * returned; *verdict and err are the answer. */
static int
ask_once(const char *cmd, double timeout, double *verdict, struct ev_err *err, int *stopped)
{
	struct ev_err serr = { 0 };
	struct ev_judge *j = ev_judge_start(cmd, timeout, err);
	json_t *qid = json_string("q1");
	int r;

	cr_assert_not_null(j, "%s", err->msg);
	ev_judge_item(j, &item, qid);
	r = ev_judge_ask(j, "The flow", 8, &cites[0], 0.5, verdict, err);
	cr_assert_eq(ev_judge_asked(j), 1);
	*stopped = ev_judge_stop(j, &serr);
	json_decref(qid);
	return r;
}

Test(judge, a_number_is_the_verdict)
{
	struct ev_err err = { 0 };
	double v = -1;
	int stopped;

	cr_assert_eq(ask_once("while read -r l; do echo 0.25; done", 10, &v, &err, &stopped), 0);
	cr_assert_float_eq(v, 0.25, 1e-12);
	cr_assert_eq(stopped, 0);
}

Test(judge, booleans_and_objects_are_verdicts)
{
	const char *cmds[] = { "read -r l; echo true", "read -r l; echo '{\"support\": 0.7}'",
		"read -r l; echo '{\"supported\": false}'",
		"read -r l; echo '{\"support\": 0.2, \"supported\": true}'" };
	double want[] = { 1, 0.7, 0, 0.2 };
	int i, stopped;

	for (i = 0; i < 4; i++) {
		struct ev_err err = { 0 };
		double v = -1;

		cr_assert_eq(ask_once(cmds[i], 10, &v, &err, &stopped), 0, "%s", cmds[i]);
		cr_assert_float_eq(v, want[i], 1e-12, "%s", cmds[i]);
	}
}

Test(judge, the_request_names_the_claim_and_its_best_citation)
{
	char path[] = "/tmp/test_judge_XXXXXX", cmd[256];
	struct ev_err err = { 0 };
	json_t *req, *c;
	double v;
	int fd = mkstemp(path), stopped;

	cr_assert(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof cmd, "read -r l; printf '%%s\\n' \"$l\" >%s; echo 1", path);
	cr_assert_eq(ask_once(cmd, 10, &v, &err, &stopped), 0);
	req = json_load_file(path, 0, NULL);
	unlink(path);
	cr_assert_not_null(req);
	cr_assert_str_eq(json_string_value(json_object_get(req, "query_id")), "q1");
	cr_assert_str_eq(json_string_value(json_object_get(req, "query")), "flow");
	cr_assert_str_eq(json_string_value(json_object_get(req, "claim")), "The flow");
	cr_assert_float_eq(json_real_value(json_object_get(req, "keyword_support")), 0.5, 1e-12);
	c = json_object_get(req, "citation");
	cr_assert_eq(json_integer_value(json_object_get(c, "index")), 0);
	cr_assert_str_eq(json_string_value(json_object_get(c, "id")), "d1:s:0");
	cr_assert_str_eq(json_string_value(json_object_get(c, "text")), "Turbulent flow.");
	json_decref(req);
}

/* A judge that answers something else, quits, or does not answer in time. */
Test(judge, a_missing_or_bad_verdict_is_an_error)
{
	static const struct {
		const char *cmd;
		double timeout;
		const char *want;
	} bad[] = {
		{ "read -r l; echo maybe", 10, "answered claim 1 with 'maybe', not a verdict" },
		{ "read -r l; echo 1.5", 10, "answered claim 1 with '1.5', not a verdict" },
		{ "read -r l; echo '{\"supported\": 0.3}'", 10, "with '{\"supported\": 0.3}', not a" },
		{ "read -r l; echo '{\"support\": true}'", 10, "with '{\"support\": true}', not a" },
		{ "read -r l; echo '{\"support\": \"0.8\"}'", 10, "with '{\"support\": \"0.8\"}', not" },
		{ "exit 0", 10, "gave no verdict for claim 1: it has quit" },
		{ "read -r l; sleep 1", 0.05, "no answer in time" },
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ev_err err = { 0 };
		double v;
		int stopped;

		cr_assert_eq(ask_once(bad[i].cmd, bad[i].timeout, &v, &err, &stopped), -1,
		    "%s", bad[i].cmd);
		cr_assert_eq(err.code, EV_EXIT_RUNTIME);
		cr_assert(strstr(err.msg, bad[i].want) != NULL, "%s: %s", bad[i].cmd, err.msg);
	}
}

Test(judge, a_judge_that_fails_is_reported_when_stopped)
{
	struct ev_err err = { 0 };
	double v;
	int stopped;

	cr_assert_eq(ask_once("read -r l; echo 1; exit 3", 10, &v, &err, &stopped), 0);
	cr_assert_eq(stopped, -1);
}

Test(judge, stopping_no_judge_is_a_no_op)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_judge_stop(NULL, &err), 0);
	cr_assert_eq(ev_judge_asked(NULL), 0);
}
