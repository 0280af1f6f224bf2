/* calibrate.h: the store's own calibration of the fusion's weights, made
 * while the store is built (ev-embed-load, once its index is written), kept
 * in the store, and used by ev-fuse --db (scripts/ev-hybrid passes it)
 * where a plan does not set the weights itself.
 *
 * Top layer: includes err.h, store.h, vindex.h, fuse.h, fusecalib.h and tune.h (which
 * runs the lanes and judges each fusion); cmd/ev-embed-load.c calibrates,
 * fusecalib.h reads what was chosen back (cmd/ev-fuse.c).
 *
 * The pseudo-queries are known-item queries in the manner of Azzopardi, de
 * Rijke and Balog, "Building simulated queries for known-item topics"
 * (SIGIR 2007): a document is drawn (a seeded shuffle of the store's
 * documents); a query length of 3 to 6 words is drawn; the words are drawn
 * from the document without replacement, each with a probability in
 * proportion to its count in the document (the paper's popular term
 * selection), words found in more than a tenth (EV_CALIB_COMMON) of a
 * seeded sample of at most EV_CALIB_DF_SAMPLE chunks (function words)
 * left out;
 * the document drawn is the query's one relevant document.  Both lanes and
 * the feedback lane run on them as scripts/ev-hybrid runs them with
 * samples/plan.yaml; every fusion of the grid (the feedback lane's weight
 * beside the text lane's 1, with and without per-query agreement) is judged
 * by nDCG@10; the one with the highest mean is kept (ties keep the
 * defaults, which come first) when it carries: when the choice made on 4
 * folds of the queries, judged on the fifth, beats the defaults over the
 * five (ev_tune_search()'s cross-validated figure); else the defaults are
 * kept.  Everything is a function of the store, the
 * index and the seed. */
#ifndef EV_CALIBRATE_H
#define EV_CALIBRATE_H

#include <stdint.h>
#include <jansson.h>

#include "err.h"
#include "eval.h"
#include "fuse.h"
#include "fusecalib.h"
#include "store.h"
#include "vindex.h"

#define EV_CALIB_MIN_DOCS 10	/* fewer documents: no calibration */
#define EV_CALIB_DF_SAMPLE 4000	/* chunks the document frequencies are counted on */
#define EV_CALIB_COMMON 0.1	/* a word in more of them than this share is not drawn */

/* Make up to n known-item pseudo-queries of the store's documents (above),
 * appending {"query_id": "known-N", "query"} records to queries and their
 * judgements to qrels.  Returns the number made (fewer than n when the
 * store has fewer usable documents), or -1 with *err set. */
long ev_calib_pseudo(struct ev_store *st, long n, uint64_t seed, json_t *queries,
	struct ev_qrels *qrels, struct ev_err *err);

/* Calibrate the fusion of the store st, whose index ix holds vectors of the
 * store's own embedder, on n pseudo-queries drawn with seed.  *row gets the
 * row to keep (ev_calib_save()): {"version", "method", "seed", "queries",
 * "model", "vectors", "weights": {"text", "vector", "vector_feedback"},
 * "adapt", "ndcg@10": {"defaults", "cross_validated"}}.  Returns 1, 0 with
 * *row NULL when the store has fewer than EV_CALIB_MIN_DOCS documents, or
 * -1 with *err set. */
int ev_calib_compute(struct ev_store *st, struct ev_vindex *ix, long n, uint64_t seed, json_t **row,
	struct ev_err *err);

/* Keep row in the store (one statement: a run killed before it leaves the
 * store's earlier row).  Returns 0 or -1 with *err set. */
int ev_calib_save(struct ev_store *st, const json_t *row, struct ev_err *err);

#endif
