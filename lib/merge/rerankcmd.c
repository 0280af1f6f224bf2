/* rerankcmd.c: scores from the user's program.  See rerankcmd.h. */
#include "rerankcmd.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "jsonl.h"

struct ev_rerank_cmd {
	struct ev_child *child;
	char *cmd;
	struct ev_store *st;
	double timeout_ms;
	long batch;
	char failure[800];
	long long degraded;
	long long batches;	/* answered */
	struct ev_buf req;
};

struct ev_rerank_cmd *
ev_rerank_cmd_start(struct ev_rerank *rr, struct ev_store *st, const char *cmd, double timeout,
    long batch, struct ev_err *err)
{
	struct ev_rerank_cmd *x = calloc(1, sizeof *x);
	struct ev_err serr = { 0 };
	json_t *config;

	if (x == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	x->st = st;
	if ((x->cmd = strdup(cmd)) == NULL) {
		free(x);
		ev_err_nomem(err);
		return NULL;
	}
	x->timeout_ms = timeout * 1000;
	x->batch = batch > 0 ? batch : 1;
	config = json_pack("{s:s,s:f,s:I}", "command", cmd, "timeout", timeout, "batch",
	    (json_int_t)x->batch);
	if (config == NULL || ev_rerank_set_command(rr, config, err) == -1) {
		free(x->cmd);
		free(x);
		if (config == NULL)
			ev_err_nomem(err);
		return NULL;
	}
	if ((x->child = ev_child_start(cmd, "the reranking command", &serr)) == NULL) {
		if (serr.code != EV_EXIT_RUNTIME || strstr(serr.msg, "out of memory") != NULL) {
			*err = serr;
			free(x->cmd);
			free(x);
			return NULL;
		}
		snprintf(x->failure, sizeof x->failure, "%s", serr.msg);
	}
	return x;
}

const char *
ev_rerank_cmd_failure(const struct ev_rerank_cmd *x)
{
	return x->failure;
}

long long
ev_rerank_cmd_degraded(const struct ev_rerank_cmd *x)
{
	return x != NULL ? x->degraded : 0;
}

void
ev_rerank_cmd_stop(struct ev_rerank_cmd *x)
{
	if (x == NULL)
		return;
	ev_child_stop(x->child, ev_child_now_ms() + (x->failure[0] ? 0 : x->timeout_ms), NULL);
	ev_buf_release(&x->req);
	free(x->cmd);
	free(x);
}

int
ev_rerank_cmd_check(const json_t *hit, const char *where, struct ev_err *err)
{
	const char *s;

	return ev_field_str(hit, "title", 0, &s, where, err) == -1 ||
	    ev_field_str(hit, "text", 0, &s, where, err) == -1 ? -1 : 0;
}

/* The request line of one candidate into x->req, query its query's text
 * (NULL: none). */
static int
add_request(struct ev_rerank_cmd *x, const json_t *hit, json_t *query, struct ev_err *err)
{
	const char *id = json_string_value(json_object_get(hit, "id"));
	const char *title = json_string_value(json_object_get(hit, "title"));
	const char *text = json_string_value(json_object_get(hit, "text"));
	sqlite3_stmt *s = NULL;
	json_t *req;
	int r;

	if (text == NULL)
		text = json_string_value(json_object_get(hit, "snippet"));
	if (x->st != NULL) {
		if ((s = ev_store_prepare(x->st, "SELECT title, text FROM chunks WHERE id = ?",
		    err)) == NULL)
			return -1;
		sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
		if ((r = sqlite3_step(s)) == SQLITE_ROW) {
			title = (const char *)sqlite3_column_text(s, 0);
			text = (const char *)sqlite3_column_text(s, 1);
		} else if (r != SQLITE_DONE) {
			sqlite3_reset(s);
			return ev_store_error(x->st, "reading a chunk", err);
		}
	}
	req = json_pack("{s:O,s:O,s:s,s:s,s:s}", "query_id", json_object_get(hit, "query_id"),
	    "query", query != NULL ? query : json_null(),
	    "id", id, "title", title ? title : "", "text", text ? text : "");
	r = req == NULL || ev_json_dump(&x->req, req) == -1 || ev_buf_addc(&x->req, '\n') == -1;
	json_decref(req);
	if (s != NULL)
		sqlite3_reset(s);
	return r ? ev_err_nomem(err) : 0;
}

/* The first bytes of an answer for a message: printable ASCII, the rest
 * shown as '?', at most 60. */
static const char *
excerpt(char *buf, size_t size, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 60 && i + 1 < size; i++)
		buf[i] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

/* A failure of the command: remembered, and the command stopped. */
static int
failed(struct ev_rerank_cmd *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->failure, sizeof x->failure, fmt, ap);
	va_end(ap);
	ev_child_stop(x->child, ev_child_now_ms(), NULL);
	x->child = NULL;
	return 1;
}

/* A line the command wrote that no candidate asked for: it would be read as
 * the next candidate's score, and every later one shifted.  Returns 0, or 1
 * when the command failed so (or could not be read). */
static int
extra_line(struct ev_rerank_cmd *x, struct ev_err *cerr)
{
	int r = ev_child_unasked(x->child, cerr);

	if (r == 0)
		return 0;
	return failed(x, "the reranking command '%s' %s", x->cmd, r == 1 ? "answered more lines "
	    "than it was sent candidates (one line per candidate)" : cerr->msg);
}

/* Score hits[from..to) into scores[from..to).  Returns 0, 1 when the
 * command failed, or -1 with *err set. */
static int
score_batch(struct ev_rerank_cmd *x, json_t *hits, size_t from, size_t to, double *scores,
    struct ev_err *err)
{
	struct ev_err cerr = { 0 };
	char shown[64];
	double deadline = ev_child_now_ms() + x->timeout_ms;
	json_t *query = NULL;
	size_t i, len;
	const char *line;
	int r;

	/* the query's text: of its first hit that has one, as the built-in
	 * model reads it (every hit that has one has that one) */
	for (i = 0; query == NULL && i < json_array_size(hits); i++)
		query = json_object_get(json_array_get(hits, i), "query");
	ev_buf_reset(&x->req);
	for (i = from; i < to; i++)
		if (add_request(x, json_array_get(hits, i), query, err) == -1)
			return -1;
	/* (before the first batch, what it wrote unasked is read as an answer,
	 * and told as such when it is no score) */
	if (x->batches > 0 && (r = extra_line(x, &cerr)) != 0)
		return r;
	/* A command that quit before it read every candidate may have answered
	 * first: what it answered is read, so that nonsense is told as such. */
	if (ev_child_send(x->child, x->req.p, x->req.len, deadline, &cerr) == -1 &&
	    strcmp(cerr.msg, EV_CHILD_QUIT) != 0)
		return failed(x, "the reranking command '%s': %s%s", x->cmd, cerr.msg,
		    strcmp(cerr.msg, EV_CHILD_LATE) == 0 ? " (see --timeout)" : "");
	for (i = from; i < to; i++) {
		json_t *v, *f;
		const char *want = json_string_value(json_object_get(json_array_get(hits, i), "id"));

		if ((r = ev_child_line(x->child, &line, &len, deadline, &cerr)) != 1)
			return failed(x, "the reranking command '%s': %s%s", x->cmd,
			    r == 0 ? EV_CHILD_QUIT : cerr.msg,
			    r != 0 && strcmp(cerr.msg, EV_CHILD_LATE) == 0 ? " (see --timeout)" : "");
		if ((v = ev_json_parse_line(line, len, NULL, &cerr)) == NULL &&
		    cerr.code == EV_EXIT_RUNTIME)
			return ev_err_nomem(err);
		f = json_is_object(v) ? json_object_get(v, "score") : v;
		if (!json_is_number(f) || !isfinite(json_number_value(f)) ||
		    (json_is_object(v) && json_object_get(v, "id") != NULL &&
		    (!json_is_string(json_object_get(v, "id")) ||
		    strcmp(json_string_value(json_object_get(v, "id")), want) != 0))) {
			json_decref(v);
			return failed(x, "the reranking command '%s' answered candidate %zu ('%s') "
			    "with '%s', not its score (a number, or {\"score\": N})", x->cmd, i + 1, want,
			    excerpt(shown, sizeof shown, line, len));
		}
		scores[i] = json_number_value(f);
		json_decref(v);
	}
	x->batches++;
	return extra_line(x, &cerr);	/* a line too many, written with the answers */
}

int
ev_rerank_cmd_query(struct ev_rerank_cmd *x, struct ev_rerank *rr, json_t *hits, size_t n,
    struct ev_buf *out, struct ev_err *err)
{
	double *scores = NULL;
	char why[900];
	size_t i;
	int r = 1;

	if (n > json_array_size(hits))
		n = json_array_size(hits);
	if (x->child != NULL && n > 0) {
		if ((scores = malloc(n * sizeof *scores)) == NULL)
			return ev_err_nomem(err);
		for (i = 0, r = 0; r == 0 && i < n; i += (size_t)x->batch)
			r = score_batch(x, hits, i, i + (size_t)x->batch < n ? i + (size_t)x->batch : n,
			    scores, err);
	} else if (x->child != NULL)
		r = 0;
	if (r == -1) {
		free(scores);
		return -1;
	}
	if (r == 0)
		r = ev_rerank_apply(rr, hits, n, scores, NULL, out, err);
	else {
		x->degraded++;
		snprintf(why, sizeof why, "%s; not reranked, the incoming order kept", x->failure);
		r = ev_rerank_apply(rr, hits, n, NULL, why, out, err) == -1 ? -1 : 1;
	}
	free(scores);
	return r;
}
