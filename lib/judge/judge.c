/* judge.c: an external judge of claims, kept running.  See judge.h. */
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "child.h"
#include "jsonl.h"

struct ev_judge {
	struct ev_child *child;
	const char *cmd;
	double timeout_ms;	/* per verdict */
	long long asked;
	const struct ev_score_item *item;	/* the item being scored */
	json_t *query_id;
	struct ev_buf req;
};

int
ev_judge_stop(struct ev_judge *j, struct ev_err *err)
{
	int r;

	if (j == NULL)
		return 0;
	r = ev_child_stop(j->child, 0, err);
	ev_buf_release(&j->req);
	free(j);
	return r;
}

int
ev_judge_ask(void *ctx, const char *claim, size_t len, const struct ev_score_cite *best,
    double keyword, double *verdict, struct ev_err *err)
{
	struct ev_judge *j = ctx;
	struct ev_err cerr = { 0 };
	json_t *req, *cite = json_null(), *v, *f;
	const char *line;
	size_t llen;
	double deadline;
	int n, r, sent;

	if (best != NULL) {
		cite = json_pack("{s:I,s:s%}", "index", (json_int_t)(best - j->item->cites),
		    "text", best->text, best->len);
		if (cite != NULL && best->id != NULL &&
		    json_object_set_new(cite, "id", json_string(best->id)) == -1) {
			json_decref(cite);
			return ev_err_nomem(err);
		}
	}
	req = json_pack("{s:O,s:s%,s:s%,s:o,s:f}", "query_id", j->query_id,
	    "query", j->item->query, j->item->query_len, "claim", claim, len,
	    "citation", cite, "keyword_support", keyword);
	ev_buf_reset(&j->req);
	r = req == NULL || ev_json_dump(&j->req, req) == -1 || ev_buf_addc(&j->req, '\n') == -1;
	json_decref(req);
	if (r)
		return ev_err_nomem(err);
	j->asked++;
	deadline = ev_child_now_ms() + j->timeout_ms;
	/* a judge that quit may still have left its verdict in the pipe: read on */
	sent = ev_child_send(j->child, j->req.p, j->req.len, deadline, &cerr);
	if (sent == -1 && strcmp(cerr.msg, EV_CHILD_QUIT) != 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot write to the judge '%s': %s",
		    j->cmd, cerr.msg);
	n = ev_child_line(j->child, &line, &llen, deadline, &cerr);
	if (n != 1)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "the judge '%s' gave no verdict for claim %lld: %s%s", j->cmd, j->asked,
		    n == 0 ? EV_CHILD_QUIT : cerr.msg,
		    n != 0 && strcmp(cerr.msg, EV_CHILD_LATE) == 0 ? " (see --judge-timeout)" : "");
	{
		struct ev_err perr = { 0 };

		/* not json_loadb(): see ev_json_parse_line() on failed allocations */
		v = ev_json_parse_line(line, llen, NULL, &perr);
		if (v == NULL && perr.code == EV_EXIT_RUNTIME)
			return ev_err_nomem(err);
	}
	if (json_is_object(v)) {	/* "support" a number, else "supported" a boolean */
		f = json_object_get(v, "support");
		if (f == NULL ? !json_is_boolean(f = json_object_get(v, "supported")) :
		    !json_is_number(f))
			f = NULL;
	} else
		f = v;
	r = 0;
	if (json_is_boolean(f))
		*verdict = json_is_true(f) ? 1 : 0;
	else if (json_is_number(f) && json_number_value(f) >= 0 && json_number_value(f) <= 1)
		*verdict = json_number_value(f);
	else
		r = ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "the judge '%s' answered claim %lld with '%.*s', not a verdict (a number from 0 "
		    "to 1, true, false, {\"support\": N} or {\"supported\": B})", j->cmd, j->asked,
		    (int)(llen > 60 ? 60 : llen), line);
	json_decref(v);
	/* a line too many would be read as the next claim's verdict */
	if (r == 0 && (n = ev_child_unasked(j->child, &cerr)) != 0)
		r = ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the judge '%s' %s after claim %lld",
		    j->cmd, n == 1 ? "answered more lines than it was asked (one verdict a claim)" :
		    cerr.msg, j->asked);
	return r;
}

struct ev_judge *
ev_judge_start(const char *cmd, double timeout, struct ev_err *err)
{
	struct ev_judge *j = calloc(1, sizeof *j);

	if (j == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	j->cmd = cmd;
	j->timeout_ms = ceil(timeout * 1000);
	if ((j->child = ev_child_start(cmd, "the judge", err)) == NULL) {
		free(j);
		return NULL;
	}
	return j;
}

void
ev_judge_item(struct ev_judge *j, const struct ev_score_item *item, json_t *query_id)
{
	j->item = item;
	j->query_id = query_id;
}

long long
ev_judge_asked(const struct ev_judge *j)
{
	return j != NULL ? j->asked : 0;
}
