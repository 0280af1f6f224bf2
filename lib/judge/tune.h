/* tune.h: fitting a retrieval plan to a user's own judgements, with an
 * honest, cross-validated account of what it gains.
 *
 * Top layer: includes err.h, buf.h, store.h, textsearch.h, vindex.h, embed.h,
 * fuse.h, eval.h and Jansson (in tune.c also pack.h, for ev-pack's defaults,
 * and vsearch.h, for the feedback lane's fold).  cmd/ev-tune.c reads the
 * options and prints.
 *
 * A trial is one configuration of the plan: the text lane's options (field
 * weights, proximity, feedback) and the fusion's (method, normalisation,
 * rrf_k, the two lanes' weights).  The search runs every query of the user's
 * through the text lane once per text configuration (the hits of a text
 * configuration are kept while every fusion of them is tried, so the fusion
 * grid costs no search), and through the vector lane once (its hits do not
 * depend on anything tuned); each trial's fused ranking is judged per query
 * with eval.h.  Trials run in a fixed order, the defaults first, so that a
 * budget that runs out keeps the trials done and the result stays a function
 * of the seed and of how far the search went.
 *
 * The figure reported is k-fold cross-validated: the queries are dealt into
 * k folds by a seeded shuffle; for each fold the trial with the best mean
 * over the other folds is chosen and judged on the held-out fold.  The
 * tuned figure is the mean over every query of its held-out figure, the
 * defaults' figure is theirs on the same queries; the plan written is the
 * trial best over all the queries, whose own (fitted) mean is never
 * reported, as it flatters. */
#ifndef EV_TUNE_H
#define EV_TUNE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "buf.h"
#include "embed.h"
#include "err.h"
#include "eval.h"
#include "fuse.h"
#include "store.h"
#include "textsearch.h"
#include "vindex.h"

#define EV_TUNE_MAX_FOLDS 20
#define EV_TUNE_CHOICE_MAX 256	/* bytes of a trial described (ev_tune_describe()) */

/* What a trial is judged by. */
enum ev_tune_metric {
	EV_TUNE_NDCG,
	EV_TUNE_MAP,
	EV_TUNE_RECALL,
	EV_TUNE_P,
	EV_TUNE_MRR
};

struct ev_tune_opts {
	int folds;		/* k of the k-fold split, 2 to EV_TUNE_MAX_FOLDS (5) */
	uint64_t seed;		/* the split's and the pseudo-queries' seed (1) */
	double budget;		/* seconds; 0: no limit */
	enum ev_tune_metric metric;	/* ndcg (of eval.ndcg_k) by default */
	struct ev_eval_opts eval;	/* cut-offs, relevance level, binary gains */
	/* A fusion grid of the caller's (NULL: the built-in grid, around the
	 * defaults): with it, the text lane runs once, with the defaults'
	 * options, and only fuse_grid[0..nfuse_grid) are tried, fuse_grid[0]
	 * standing for the defaults (the store's calibration, calibrate.h). */
	const struct ev_fuse_opts *fuse_grid;
	size_t nfuse_grid;
};

#define EV_TUNE_OPTS_INIT { .folds = 5, .seed = 1, .budget = 0, .metric = EV_TUNE_NDCG, \
	.eval = EV_EVAL_OPTS_INIT, .fuse_grid = NULL, .nfuse_grid = 0 }

/* One configuration of the plan.  fused is 0 when there is no vector lane:
 * the text lane's ranking is then the answer and fuse is not used. */
struct ev_tune_trial {
	struct ev_textsearch_opts text;
	struct ev_fuse_opts fuse;
	long long vector_k;	/* hits of the vector lane (lanes.vector.k) */
	/* The feedback lane (lanes.vector.feedback, .feedback_weight): with
	 * feedback > 0, every text configuration's first `feedback` chunks are
	 * folded into each query's vector (ev_vsearch_fold()) and the hits of
	 * that search, lane "vector_feedback", are fused with the others; the
	 * grid then tries its weights, not the vector lane's. */
	int vector_feedback;
	double vector_feedback_weight;
	int fused;
};

/* What a search found.  The figures are means over the queries judged. */
struct ev_tune_result {
	size_t queries;		/* queries judged and searched */
	int folds;		/* folds used (fewer than asked when queries are few) */
	double tuned;		/* cross-validated figure of the tuning */
	double defaults;	/* the defaults' figure on the same queries */
	double fold_tuned[EV_TUNE_MAX_FOLDS], fold_defaults[EV_TUNE_MAX_FOLDS];
	size_t fold_queries[EV_TUNE_MAX_FOLDS];
	int fold_agree;		/* folds whose choice is the plan's trial */
	int best_defaults;	/* the plan's trial is the defaults (trial 0) */
	size_t fold_trial[EV_TUNE_MAX_FOLDS];	/* each fold's choice, by its place in the trials */
	/* each fold's choice described (ev_tune_describe(); "the defaults"
	 * for trial 0), "" where it is the plan's trial (ev_tune_search()
	 * fills it) */
	char fold_choice[EV_TUNE_MAX_FOLDS][EV_TUNE_CHOICE_MAX];
	struct ev_tune_trial best;	/* the trial best over every query */
	long long trials;	/* trials judged */
	long long grid;		/* trials in the grid */
	int budget_hit;		/* the budget stopped the search */
	double seconds;		/* time the search took */
};

/* Called after each trial judged: done of total.  NULL for none. */
typedef void ev_tune_progress_fn(void *ctx, long long done, long long total);

/* Seeded choices, the same for every caller: the state of seed, a number
 * in [0, n) (n < 2^32) advancing *state, and a Fisher-Yates shuffle of
 * a[0..n) by *state. */
uint64_t ev_tune_rand_init(uint64_t seed);
size_t ev_tune_rand_below(uint64_t *state, size_t n);
void ev_tune_shuffle(size_t *a, size_t n, uint64_t *state);

/* Parse a metric named as ev-eval prints it: "ndcg@K", "map", "recall@K",
 * "p@K", "mrr" (also "ndcg", "recall", "p" with the cut-offs already in
 * o->eval).  Sets o->metric and the cut-off.  Returns 0, or -1 for a name
 * it does not know or a cut-off that is not a count from 1 to 1000000. */
int ev_tune_metric_parse(const char *s, struct ev_tune_opts *o);

/* The name of o's metric as ev-eval prints it ("ndcg@10"), into buf.
 * Returns buf. */
const char *ev_tune_metric_name(const struct ev_tune_opts *o, char *buf, size_t size);

/* Deal n items into k folds: a seeded Fisher-Yates shuffle of 0..n-1, then
 * the item at shuffled position i goes to fold i % k, so fold sizes differ
 * by at most one.  fold[0..n) receives each item's fold.  The same n, k and
 * seed always give the same folds. */
void ev_tune_folds(size_t n, int k, uint64_t seed, int *fold);

/* The trial, of ncfg, with the highest mean of fig[c * nq + q] over the
 * queries q with fold[q] != held (held -1: every query); ties go to the
 * lowest index, so the defaults (trial 0) win a tie.  Returns the index, 0
 * when no query counts. */
size_t ev_tune_select(const double *fig, size_t ncfg, size_t nq, const int *fold, int held);

/* Cross-validate over per-query figures fig[c * nq + q] of ncfg trials
 * (trial 0 the defaults) with the folds of fold[] (k of them): fill r's
 * tuned, defaults, fold_* (but fold_choice) and fold_agree, and return the
 * index of the trial best over every query. */
size_t ev_tune_cross_validate(const double *fig, size_t ncfg, size_t nq, const int *fold, int k,
	struct ev_tune_result *r);

/* Read a plan's lane and fusion keys into *t (which holds the defaults to
 * keep for keys the plan does not set), each checked against its entry of
 * the plan schema (plan.h), as the stage owning it checks it:
 * lanes.text.{k, proximity, feedback (a number, with feedback_terms,
 * feedback_weight and feedback_focus, or a mapping of docs, terms, weight
 * and focus), fuzzy, weights.{title, section_title, text}},
 * lanes.vector.{k, feedback, feedback_weight}, fusion.{method,
 * normalization, rrf_k, weights.*, group, adapt, anchor, agreement_depth,
 * agreement_full, agreement_from.*, floor.*}.  Returns 0, or -1 with *err
 * set (code 2, naming file and the key) for a value of the wrong type or out
 * of range. */
int ev_tune_plan_read(const json_t *plan, const char *file, struct ev_tune_trial *t,
	struct ev_err *err);

/* The query records of in (each checked by ev_query_record()) as an array;
 * a bad one is skipped when skip(ctx, err) says so (skip NULL: none is),
 * else ends the reading.  Returns the array, or NULL with *err set (code 2
 * naming file and line for a bad record; code 1 for a read error). */
struct ev_jsonl;
json_t *ev_tune_read_queries(struct ev_jsonl *in, int (*skip)(void *ctx, struct ev_err *err),
	void *ctx, struct ev_err *err);

/* Make n pseudo-queries from the store, for a user without judgements:
 * chunks are drawn by a shuffle seeded with seed; a chunk gives a query of
 * every other word of one of its sentences (of 6 to 40 words, drawn too),
 * whose one relevant document is the chunk's.  Appends query records
 * {"query_id": "pseudo-N", "query"} to queries and their judgements to
 * qrels.  Returns the number made (fewer than n when the store has fewer
 * usable chunks), or -1 with *err set: code 2 when fewer than two can be
 * made (cross-validation needs two queries). */
long ev_tune_pseudo(struct ev_store *st, long n, uint64_t seed, json_t *queries,
	struct ev_qrels *qrels, struct ev_err *err);

/* Search the grid around *defaults (trial 0) for the queries (an array of
 * query records, as ev_query_record() makes them) judged by qrels; queries
 * the qrels do not judge are left out (*unjudged counts them).  ix is NULL
 * for a text lane alone; else the queries are embedded by the store's
 * embedder (embed.h), whose model must be the index's (code 2 if not).
 * Fills *r.  Returns 0, or -1 with *err set: code 2 when no query is judged
 * or fewer than two remain, code 1 for a database or index failure. */
int ev_tune_search(struct ev_store *st, struct ev_vindex *ix, json_t *queries,
	const struct ev_qrels *qrels, const struct ev_tune_trial *defaults,
	const struct ev_tune_opts *o, ev_tune_progress_fn *progress, void *ctx,
	size_t *unjudged, struct ev_tune_result *r, struct ev_err *err);

/* Append the plan of trial t as YAML to b: `header` (comment lines, may be
 * NULL) first, then the keys of base (the input plan, NULL for none) in
 * their order, with the lanes' and the fusion's keys ev_tune_plan_read()
 * reads set from t (lanes.text.feedback in the form base gives it); without a base, version "0.1" and ev-pack's default
 * presentation keys.  Returns 0 or -1 (out of memory). */
int ev_tune_plan_write(struct ev_buf *b, const json_t *base, const struct ev_tune_trial *t,
	const char *header, struct ev_err *err);

/* Append the object doc as YAML to b, as ev_tune_plan_write() writes a
 * plan (mappings nested, numbers as JSON writes them).  Returns 0 or -1
 * (out of memory). */
int ev_tune_yaml_write(struct ev_buf *b, const json_t *doc);

/* Append to b what trial t searches that the grid varies, on one line
 * without its end: "proximity P, feedback D/T/W, titles T" (feedback 0
 * when off; the section title's weight after a slash when it is not the
 * title's) and, when t is fused, "; " then "METHOD NORM" ("rrf k K" for
 * rrf) and each lane's weight as "LANE W".  Returns 0 or -1 (out of
 * memory). */
int ev_tune_describe(struct ev_buf *b, const struct ev_tune_trial *t);

/* Append the account of a search to b, each line starting with pre ("# "
 * makes YAML comments): pseudo (when not 0) pseudo-queries stood for
 * judgements, else qrels names the judgements; the cross-validated figure
 * beside the defaults', per fold, how many folds chose the plan's trial and
 * what each other fold chose (fold_choice), whether the plan is the
 * defaults, and how much of the grid was
 * searched.  Nothing in it depends on the clock,
 * so that the same seed gives the same plan.  Returns 0 or -1 (out of
 * memory). */
int ev_tune_report(struct ev_buf *b, const char *pre, const struct ev_tune_opts *o,
	const char *qrels, const struct ev_tune_result *r, long pseudo);

#endif
