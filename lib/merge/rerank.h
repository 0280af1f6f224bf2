/* rerank.h: reranking a query's candidates, by a linear model over features
 * the lanes and the store know, or by scores an external command gives.
 *
 * Layer 7: includes err.h, buf.h, plan.h (the plan's keys), store.h and
 * Jansson (token.h and snippet.h in rerank.c, for the one tokeniser and its
 * stop words).
 *
 * The built-in model needs no training data.  For each of a query's best
 * top_n candidates (by incoming rank) it computes these features, each a
 * number from 0 to 1 (the query's words are its non-stop words, stemmed by
 * the store's tokeniser, the first EV_RERANK_MAX_TERMS distinct ones; idf(t) = log(1 + (N - df + 0.5) / (df + 0.5)) over
 * the store's N chunks):
 *   incoming     the incoming score, min-max scaled over the candidates
 *   bm25         the chunk's BM25 (k1 1.2, b 0.75; title, section title and
 *                text as one field), scaled by the candidates' best
 *   doc_bm25     the same for the chunk's whole document (its chunks'
 *                titles and texts, the title once; lengths against the mean
 *                document), scaled by the candidates' best
 *   ordered      sequential dependence, ordered: for each pair of
 *                consecutive query words, log(1 + the times they occur side
 *                by side in that order) x their mean idf, summed, scaled by
 *                the candidates' best
 *   unordered    the same for the two words within `window` tokens of each
 *                other in either order
 *   passage      the best passage: the largest share of the query's idf
 *                whose words all occur within `passage` consecutive tokens
 *   title        the share of the query's idf found in the document's title
 *   section      the share found in the chunk's section title
 *   coverage     the share found anywhere in the chunk
 *   vector       the vector lane's cosine (its evidence or signals), scaled
 *                by the candidates' best; 0 where the lane did not find it
 *   text_rank    1 / log2(1 + the text lane's rank), 0 where it did not find it
 *   vector_rank  the same for the vector lane
 *   length       log(1 + the chunk's tokens), scaled by the candidates' longest
 *   position     1 / (1 + the chunks of its document before it, by offset)
 * The score is the sum of weight x feature; the shipped weights were chosen
 * on four test collections at once (ev-rerank(1)).  A lane's rank and score
 * are read from the hit's explain.lanes (ev-fuse), else its signals
 * (fts_rank, vector_rank, vector_score), else its own lane and rank. */
#ifndef EV_RERANK_H
#define EV_RERANK_H

#include <stddef.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "plan.h"
#include "store.h"

enum ev_rerank_feature {
	EV_RF_INCOMING, EV_RF_BM25, EV_RF_DOC_BM25, EV_RF_ORDERED, EV_RF_UNORDERED,
	EV_RF_PASSAGE, EV_RF_TITLE, EV_RF_SECTION, EV_RF_COVERAGE, EV_RF_VECTOR,
	EV_RF_TEXT_RANK, EV_RF_VECTOR_RANK, EV_RF_LENGTH, EV_RF_POSITION,
	EV_RF_COUNT
};

/* The features' names, as in the explanation and a plan's rerank.weights. */
extern const char *const ev_rerank_feature_names[EV_RF_COUNT];

/* The model's name in each hit's "rerank" object. */
#define EV_RERANK_MODEL "evkit-linear-1"

#define EV_RERANK_MAX_N EV_PLAN_MAX_K	/* the lanes' k limit (plan.h) */
#define EV_RERANK_MAX_TERMS 64	/* a query's distinct words the features use */

struct ev_rerank_opts {
	long top_n;		/* candidates reranked per query, 1 to EV_RERANK_MAX_N */
	long k;			/* hits written per query, 0: all */
	long window;		/* the unordered window, 2 to 64 tokens */
	long passage;		/* the passage, 1 to 10000 tokens */
	double w[EV_RF_COUNT];	/* the weights, by enum ev_rerank_feature */
};

/* The shipped defaults (ev_rerank_opts_init()). */
void ev_rerank_opts_init(struct ev_rerank_opts *o);

/* The index of the feature called name[0..len), or -1. */
int ev_rerank_feature_index(const char *name, size_t len);

/* The score of features f under weights w: the sum of w[i] x f[i]. */
double ev_rerank_combine(const double *w, const double *f);

struct ev_rerank;

/* A reranker over st (borrowed: it must outlive the reranker; NULL for a
 * reranker that only applies given scores, ev_rerank_apply()) with a copy of
 * *o.  Returns NULL with *err set. */
struct ev_rerank *ev_rerank_open(struct ev_store *st, const struct ev_rerank_opts *o,
	struct ev_err *err);

/* Free the reranker (NULL-safe). */
void ev_rerank_close(struct ev_rerank *rr);

/* The queries whose features used only their first EV_RERANK_MAX_TERMS
 * distinct words, having more (0 for rr NULL). */
long long ev_rerank_queries_cut(const struct ev_rerank *rr);

/* The queries ev_rerank_features() saw none of whose hits gave a query
 * text: their query features are 0 (0 for rr NULL). */
long long ev_rerank_queries_textless(const struct ev_rerank *rr);

/* The "rerank" object each hit carries (borrowed): {"model", "config",
 * "top_n"}, where config is the weights and windows, or for a command
 * what ev_rerank_set_command() said. */
json_t *ev_rerank_info(const struct ev_rerank *rr);

/* Describe an external model instead: model is "command", config the
 * object given (stolen).  Returns 0, or -1 with *err set (out of memory). */
int ev_rerank_set_command(struct ev_rerank *rr, json_t *config, struct ev_err *err);

/* Sort the hits of one query (an array of hit records of one query_id, each
 * checked by ev_hit_check()) into their incoming order: by "rank" where
 * present, then as they came.  Returns 0, or -1 with *err set (memory). */
int ev_rerank_incoming(json_t *hits, struct ev_err *err);

/* The candidates' features: for hits[0..n) (in incoming order; n at most
 * the array's size), f[i * EV_RF_COUNT + j] gets feature j of hit i, the
 * query being the "query" of the first hit of the array that has one.
 * *missing counts the hits whose chunk the store lacks (their store
 * features are 0).  Returns 0, or -1 with *err set (code 1: the store). */
int ev_rerank_features(struct ev_rerank *rr, json_t *hits, size_t n, double *f,
	long *missing, struct ev_err *err);

/* Rerank one query's hits (in incoming order) by the built-in model and
 * append them to out as JSON Lines: the best top_n by their new score (ties
 * by id), then the rest in their incoming order, scored below them; at most
 * k.  Each gets rank and score rewritten, "rerank" (ev_rerank_info()), and
 * explain.rerank: {"incoming_rank", "incoming_score", "features",
 * "contributions", "score"} for a reranked hit, {"reranked": false,
 * "incoming_rank"} for the rest.  *missing as ev_rerank_features().
 * Returns 0, or -1 with *err set. */
int ev_rerank_query(struct ev_rerank *rr, json_t *hits, long *missing, struct ev_buf *out,
	struct ev_err *err);

/* As ev_rerank_query() with the scores of the first n hits given (an
 * external model's): explain.rerank holds {"incoming_rank",
 * "incoming_score", "score"}.  With scores NULL the incoming order is kept,
 * each hit keeping its incoming score but for one above the score before
 * it, lowered to that (so that scores never rise with rank), with
 * explain.rerank {"reranked": false, "incoming_rank", "incoming_score"};
 * and each hit gets "warnings": [warning] (added to any it has) when
 * warning is not NULL.  Returns 0, or -1 with *err set (memory). */
int ev_rerank_apply(struct ev_rerank *rr, json_t *hits, size_t n, const double *scores,
	const char *warning, struct ev_buf *out, struct ev_err *err);

/* The words of a query the features use, for the tests: their number, with
 * the stems copied, NUL-separated, into out.  Returns -1 with *err set on
 * failure. */
int ev_rerank_query_terms(struct ev_rerank *rr, const char *query, struct ev_buf *out,
	struct ev_err *err);

/* Feature maths on token streams, exposed for the tests.  toks[0..n) are
 * term numbers (-1: not a query word), idf[t] the query word t's idf,
 * nterms the query words.  ev_rerank_pairs() sums over the pairs (t, t + 1)
 * of consecutive query words log(1 + count) x (idf[t] + idf[t + 1]) / 2,
 * where count is the positions holding t then t + 1 (window 0, ordered) or
 * the occurrences of t with t + 1 within window - 1 tokens on either side.
 * ev_rerank_passage() is the largest share of the idf total found within
 * `passage` consecutive tokens. */
double ev_rerank_pairs(const int *toks, size_t n, const double *idf, int nterms, long window);
double ev_rerank_passage(const int *toks, size_t n, const double *idf, int nterms, long passage);

/* BM25 of a text with tf[t] occurrences of query word t in len tokens,
 * against texts of avglen tokens on average (k1 1.2, b 0.75). */
double ev_rerank_bm25(const int *tf, const double *idf, int nterms, double len, double avglen);

#endif
