/* rerankcmd.h: an external reranker -- the user's program scores (query,
 * candidate) pairs, and a program that fails or is slow costs the order,
 * never the query.
 *
 * Layer 8: includes err.h, buf.h, store.h, rerank.h and Jansson (child.h
 * in rerankcmd.c).
 *
 * The command is started once (/bin/sh -c CMD) and kept running.  For each
 * batch of a query's candidates it reads one JSON line per candidate,
 *	{"query_id", "query", "id", "title", "text"}
 * (the chunk's title and text from the store, else the hit's "text" or
 * "snippet"), and writes back one line per candidate, in the same order: a
 * number, or an object with a numeric "score" (and, if it says "id", the
 * candidate's id), higher being better.  A batch must be answered within the
 * timeout.  When the command cannot be started, quits, answers late or
 * answers something else (a line more than it was asked for among them),
 * it is stopped, and that query and every later one
 * keep their incoming order, each hit saying why in "warnings". */
#ifndef EV_RERANKCMD_H
#define EV_RERANKCMD_H

#include <stddef.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "rerank.h"
#include "store.h"

struct ev_rerank_cmd;

/* Start cmd for rr (whose hits' "rerank" object then names the command;
 * borrowed, as is st, which gives the candidates' texts and may be NULL).
 * Returns the handle, or NULL with *err set (out of memory).  A command that
 * cannot be started is not an error here: the first query degrades. */
struct ev_rerank_cmd *ev_rerank_cmd_start(struct ev_rerank *rr, struct ev_store *st,
	const char *cmd, double timeout, long batch, struct ev_err *err);

/* Whether the command can take hit (read at where): its "title" and "text",
 * which it is sent, strings where present (null: absent).  Returns 0, or -1
 * with *err set (code 2, naming where and the field). */
int ev_rerank_cmd_check(const json_t *hit, const char *where, struct ev_err *err);

/* Score the first n of one query's hits (in incoming order) with the
 * command and append the query's hits to out as ev_rerank_apply() does.
 * Returns 0 when the command scored them, 1 when they kept their incoming
 * order because it failed (ev_rerank_cmd_failure() says why), or -1 with
 * *err set (memory, a write error, the store). */
int ev_rerank_cmd_query(struct ev_rerank_cmd *x, struct ev_rerank *rr, json_t *hits, size_t n,
	struct ev_buf *out, struct ev_err *err);

/* Why the command failed ("" while it has not). */
const char *ev_rerank_cmd_failure(const struct ev_rerank_cmd *x);

/* The queries that kept their incoming order. */
long long ev_rerank_cmd_degraded(const struct ev_rerank_cmd *x);

/* Stop the command (killing it when it does not exit within the timeout)
 * and free x (NULL-safe). */
void ev_rerank_cmd_stop(struct ev_rerank_cmd *x);

#endif
