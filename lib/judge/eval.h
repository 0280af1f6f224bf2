/* eval.h: retrieval quality against relevance judgements (qrels), with
 * trec_eval's definitions of nDCG@k, MAP, Recall@k, P@k and MRR.
 *
 * Bottom layer: includes err.h, buf.h and Jansson.  Knows nothing of the
 * store, the lanes or Faiss; cmd/ev-eval.c reads the hit records and prints.
 *
 * Terms.  A qrels file judges (query, document) pairs; a pair whose relevance
 * is at least opts.level (1 by default) is relevant, with gain 1 under
 * opts.binary and its relevance value otherwise.  A run is a set of hits
 * (query_id, doc_id, rank, score) in any order; per query the hits are sorted
 * by rank (ascending; hits without one come last), then score (descending;
 * none comes last), then arrival, and a document is kept once, at its best
 * place.  Positions 1, 2, ... of that list are what the metrics see, so gaps
 * and ties in the ranks do not matter.  The queries evaluated are those of
 * the qrels (trec_eval -c): a query with no hits scores 0, and hits for
 * queries not in the qrels are counted and left out. */
#ifndef EV_EVAL_H
#define EV_EVAL_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "note.h"

/* What is measured, and how. */
struct ev_eval_opts {
	long ndcg_k;		/* the k of nDCG@k (10) */
	long p_k;		/* the k of P@k (10) */
	long recall_k;		/* the k of Recall@k (100) */
	long level;		/* the least relevance that counts as relevant (1) */
	int binary;		/* gains of 1 instead of the relevance values (0) */
};

/* A judgement's relevance, and so the level, is a whole number from
 * -EV_EVAL_REL_MAX to EV_EVAL_REL_MAX. */
#define EV_EVAL_REL_MAX 1000000000

#define EV_EVAL_OPTS_INIT { .ndcg_k = 10, .p_k = 10, .recall_k = 100, .level = 1, .binary = 0 }

/* The figures of one query, or their means over the queries evaluated (the
 * counts are then sums). */
struct ev_eval_figures {
	double ndcg;		/* ndcg_cut.K: sum gain(r) / log2(r + 1) for
				 * r <= K, over the same for the ideal order of
				 * every judged relevant document */
	double map;		/* AP: sum of precision at each relevant document
				 * retrieved, over the number relevant */
	double recall;		/* relevant in the first K, over the number relevant */
	double mrr;		/* 1 / position of the first relevant; 0 if none */
	double p;		/* relevant in the first K, over K */
	long relevant;		/* judged relevant */
	long retrieved;		/* documents in the ranking (after removing repeats) */
	long relevant_retrieved;
};

/* The run as a whole. */
struct ev_eval_summary {
	long queries;		/* queries evaluated: those in the qrels */
	struct ev_eval_figures mean;
	long queries_without_hits;	/* qrels queries the run has no hit for */
	long unjudged_queries;	/* run queries absent from the qrels (ignored) */
	long hits;		/* hit records added to the run */
};

/* ---- Judgements ---- */

struct ev_qrels;

/* An empty set of judgements.  NULL when out of memory (*err set). */
struct ev_qrels *ev_qrels_new(struct ev_err *err);

/* Add one qrels line (without its newline; a final CR is ignored):
 * "QUERY_ID DOC_ID RELEVANCE" or TREC's "QUERY_ID ITER DOC_ID RELEVANCE",
 * fields separated by blanks, RELEVANCE an integer.  A blank line or one
 * starting with '#' is skipped.  The same pair judged twice with the same
 * relevance is accepted once; with another relevance it is an error.
 * Returns 0, or -1 with *err set (code 2, where = `where`). */
int ev_qrels_add_line(struct ev_qrels *q, const char *line, size_t len, const char *where,
	struct ev_err *err);

/* Read a qrels file ("-" is stdin), each line as ev_qrels_add_line() reads
 * it, a UTF-8 byte order mark at its start dropped.  Returns the judgements, or NULL with
 * *err set: "FILE:LINE" and code 2 for a malformed line or a line longer than
 * 64 KiB; code 2 when the file is missing, unreadable or a directory; code 1
 * for a read error or memory running out.  A file without a single judgement
 * is an error too (code 2). */
struct ev_qrels *ev_qrels_load(const char *path, struct ev_err *err);

/* The number of queries judged. */
size_t ev_qrels_count(const struct ev_qrels *q);

/* Free (NULL-safe). */
void ev_qrels_free(struct ev_qrels *q);

/* ---- Runs ---- */

struct ev_run;

/* An empty run.  NULL when out of memory (*err set). */
struct ev_run *ev_run_new(struct ev_err *err);

/* Add one hit.  rank is used when has_rank (a number >= 1), score when
 * has_score (finite).  Returns 0, or -1 with *err set (code 1, out of memory;
 * code 2 for an empty id or a bad rank or score). */
int ev_run_add(struct ev_run *run, const char *qid, const char *doc_id, int has_rank,
	double rank, int has_score, double score, const char *where, struct ev_err *err);

/* Add a hit record: "query_id" and "doc_id" (strings or integers) are
 * required, "rank" (a whole number from 1) and "score" (a number) are
 * optional; other fields are ignored.  Returns 0, or -1 with *err set
 * (code 2, where = `where`: "hit without 'doc_id'", "field 'rank' must be a
 * whole number from 1", ...). */
int ev_run_add_hit(struct ev_run *run, const json_t *hit, const char *where, struct ev_err *err);

/* Free (NULL-safe). */
void ev_run_free(struct ev_run *run);

/* Read the hit records of the JSON Lines files paths[0..npaths) (none: stdin)
 * into run; with lane set, only the hits of that lane (the others are
 * skipped).  Notes through note(ctx, msg): hits of several lanes pooled into
 * one ranking (when lane is NULL), and no hit read.  Returns the number of
 * hits added, or -1 with *err set (code 2 naming FILE:LINE for a bad hit). */
long long ev_run_read(struct ev_run *run, char *const *paths, int npaths, const char *lane,
	ev_note_fn *note, void *ctx, struct ev_err *err);

/* ---- Evaluation ---- */

/* Called once per qrels query, in the qrels file's order. Returns 0 to go on,
 * -1 (with *err set) to stop. */
typedef int ev_eval_each_fn(const char *qid, const struct ev_eval_figures *f, void *ctx,
	struct ev_err *err);

/* Evaluate run against q with *opts (NULL: EV_EVAL_OPTS_INIT).  Calls each
 * (may be NULL) for every query, then fills *sum.  Sorts the run in place.
 * Returns 0, or -1 with *err set (out of memory, a bad option, or what each
 * returned). */
int ev_eval_measure(const struct ev_qrels *q, struct ev_run *run, const struct ev_eval_opts *opts,
	ev_eval_each_fn *each, void *ctx, struct ev_eval_summary *sum, struct ev_err *err);

/* Write the run in TREC's format, "QID Q0 DOC RANK SCORE TAG" a line, one
 * line per document at its best place (as evaluated), queries in order of
 * first appearance.  SCORE is the hit's score, or minus the position when
 * the hit had none.  Returns 0, or -1 with *err set (code 1) on a write
 * error. */
int ev_run_write_trec(struct ev_run *run, FILE *out, const char *tag, struct ev_err *err);

/* Whether every query and document id of run can be written in TREC's
 * format, whose fields are separated by white space: 0, or -1 with *err set
 * (code 2) naming the first id that holds white space. */
int ev_run_trec_check(const struct ev_run *run, struct ev_err *err);

/* Append the JSON line (no newline) of one query's figures (qid != NULL) or
 * of the summary (qid == NULL, sum given) to b, every figure with four
 * decimals; the keys name the cut-offs ("ndcg@10", "recall@100", "p@10").
 * Returns 0 or -1 (out of memory). */
int ev_eval_format(struct ev_buf *b, const char *qid, const struct ev_eval_figures *f,
	const struct ev_eval_summary *sum, const struct ev_eval_opts *opts);

/* The value of a metric named as in the output ("map", "mrr", "ndcg@10",
 * "p@10", "recall@100"; "ndcg", "p", "recall" name the configured k), rounded
 * to the four decimals printed.  Returns 0 with *out set, -1 for an unknown
 * name. */
int ev_eval_metric(const struct ev_eval_figures *f, const struct ev_eval_opts *opts,
	const char *name, double *out);

#endif
