/* judge.h: an external judge of claims, for ev-score --judge.
 *
 * The judge is a command run once by /bin/sh and kept running, with a pipe
 * each way.  For each claim it reads one JSON line
 *	{"query_id", "query", "claim", "citation": {"index", "id"?, "text"} | null,
 *	 "keyword_support"}
 * and writes one line back: a number from 0 to 1, true or false, or an object
 * with "support" (a number) or "supported" (a boolean).  A judge that answers
 * something else, quits, or gives no answer in time is an error, as is one
 * that exits with a non-zero status.
 *
 * Upper layer: includes err.h, buf.h and score.h (the claims come from
 * ev_score_answer(), through ev_score_set_judge()).  Starting a judge ignores
 * SIGPIPE for the process: a judge that quits is an error, not a kill. */
#ifndef EV_JUDGE_H
#define EV_JUDGE_H

#include <jansson.h>

#include "err.h"
#include "score.h"

struct ev_judge;

/* Start cmd with /bin/sh -c; each verdict is awaited at most timeout
 * seconds.  Returns the judge, or NULL with *err set (code 1) when it
 * cannot be started. */
struct ev_judge *ev_judge_start(const char *cmd, double timeout, struct ev_err *err);

/* The item whose claims are asked about next, and its query id (borrowed:
 * both must live until the item is scored). */
void ev_judge_item(struct ev_judge *j, const struct ev_score_item *item, json_t *query_id);

/* The judge callback for ev_score_set_judge(sc, ev_judge_ask, j): writes
 * the claim's line, reads the verdict into *verdict.  Returns 0, or -1 with
 * *err set (code 1: a bad answer, none in time, a judge that quit). */
int ev_judge_ask(void *j, const char *claim, size_t len, const struct ev_score_cite *best,
	double keyword, double *verdict, struct ev_err *err);

/* How many claims j was asked about. */
long long ev_judge_asked(const struct ev_judge *j);

/* Close the judge's input, wait for it and free j (NULL is a no-op).
 * Returns 0, or -1 with *err set when it exited with a non-zero status or
 * was killed. */
int ev_judge_stop(struct ev_judge *j, struct ev_err *err);

#endif
