/* rerankfit.h: learning the built-in reranker's weights from judgements
 * (ev-tune --rerank), with a cross-validated account of the gain.
 *
 * Layer 9: includes err.h, buf.h, rerank.h, eval.h, tune.h (for the folds
 * and the metric) and Jansson (child.h in rerankfit.c, for its clock).
 *
 * The input is what ev-rerank writes: each query's hits with their features
 * (explain.rerank.features), so that the features are computed once and a
 * set of weights costs a sort per query.  The weights are found by
 * coordinate ascent (Metzler and Croft's method for linear ranking models):
 * from the starting weights, each weight but "incoming" (which fixes the
 * scale) in turn is moved by each of the steps +-0.02, 0.05, 0.1, 0.2 and
 * 0.5, keeping a move that raises the mean of the metric over the queries,
 * until a round over every weight moves none (at most 10 rounds).  Chosen
 * over LambdaMART (gradient-boosted trees) because the model stays linear,
 * so every hit's score still splits into one contribution per feature; it
 * needs no library and nothing but a metric to compare; it is
 * deterministic; and judged query sets are small (30 to 225 queries in the
 * test collections), where a model of many trees overfits.  Hits beyond a
 * query's reranked ones keep their place below. */
#ifndef EV_RERANKFIT_H
#define EV_RERANKFIT_H

#include <stddef.h>
#include <jansson.h>

#include "err.h"
#include "eval.h"
#include "rerank.h"
#include "tune.h"

struct ev_rerank_set;

/* An empty set of queries.  NULL with *err set when out of memory. */
struct ev_rerank_set *ev_rerank_set_new(struct ev_err *err);

/* Free (NULL-safe). */
void ev_rerank_set_free(struct ev_rerank_set *s);

/* Add one hit record of ev-rerank's output: query_id, doc_id, and
 * explain.rerank with its features (a reranked hit) or reranked false.  A
 * query's hits come together, in rank order.  Returns 0, or -1 with *err
 * set (code 2 naming where: a hit without features, or lacking one, or a
 * query whose hits are not together; code 1: memory). */
int ev_rerank_set_add(struct ev_rerank_set *s, const json_t *hit, const char *where,
	struct ev_err *err);

/* What a fit found. */
struct ev_rerank_fitted {
	double w[EV_RF_COUNT];	/* the weights fitted on every query judged */
	size_t queries;		/* queries judged */
	int folds;
	double tuned;		/* the cross-validated figure */
	double start;		/* the starting weights' on the same queries */
	double fold_tuned[EV_TUNE_MAX_FOLDS], fold_start[EV_TUNE_MAX_FOLDS];
	long long evaluations;	/* weight vectors judged */
	int budget_hit;		/* the budget stopped a fit */
};

/* Fit weights to the queries of s judged by q, from start (the weights the
 * hits were reranked with, or others), with o's metric, folds, seed and
 * budget.  *unjudged counts the queries of s the qrels do not judge (left
 * out).  Returns 0, or -1 with *err set (code 2: fewer than two judged
 * queries; code 1: memory). */
int ev_rerank_fit(struct ev_rerank_set *s, const struct ev_qrels *q, const struct ev_tune_opts *o,
	const double *start, struct ev_rerank_fitted *out, size_t *unjudged, struct ev_err *err);

/* Append the account of a fit to b, each line starting with pre ("# "
 * makes YAML comments).  Returns 0 or -1 (out of memory). */
int ev_rerank_fit_report(struct ev_buf *b, const char *pre, const struct ev_tune_opts *o,
	const char *qrels, const struct ev_rerank_fitted *r);

/* ev-tune --rerank's whole fit: read every hit of in (checked, as
 * ev_rerank_set_add() takes them), fit the weights from those the first hit
 * was reranked with (its rerank.config.weights; else the shipped ones) to
 * the judgements qrels (named qrels_name in the account), and append to
 * note the account of the fit (lines starting "ev-tune: ") and to out the
 * plan: a YAML comment of the account, then plan (NULL: none) with its
 * rerank.weights replaced by the fitted ones (rounded to 6 decimals), or a
 * plan of the rerank section alone.  *unjudged counts the queries the qrels
 * do not judge.  Returns 0, or -1 with *err set (code 2: no hits, a bad hit
 * or fewer than two judged queries; code 1: memory). */
struct ev_jsonl;
int ev_rerank_fit_hits(struct ev_jsonl *in, const struct ev_qrels *qrels, const char *qrels_name,
	const json_t *plan, const struct ev_tune_opts *o, struct ev_buf *out, struct ev_buf *note,
	size_t *unjudged, struct ev_err *err);

#endif
