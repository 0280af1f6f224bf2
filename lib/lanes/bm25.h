/* bm25.h: the text lane's ranking function, BM25 with a weight per query
 * phrase, as an FTS5 auxiliary function.
 *
 * Middle layer: includes err.h (bm25.c: token.h, for the connection's
 * fts5_api).  The sweep of a postings file that computes the same scores
 * without FTS5 is sweep.h's; the phrase and hit types it takes are here,
 * beside the weights.
 *
 * FTS5's own bm25() weighs every phrase of a query alike.  Pseudo-relevance
 * feedback and proximity need more: a feedback term counts less than a word
 * the user typed, and a pair of the user's words found side by side adds a
 * little.  ev_bm25() is FTS5's bm25() (the same k1 = 1.2, b = 0.75, IDF
 * log((N - n + 0.5) / (n + 0.5)) floored at 1e-6, the same column weights and
 * document lengths, the same sign: lower is better) with each phrase's term
 * multiplied by its weight:
 *
 *   ev_bm25(chunks_fts, W_COL0, W_COL1, ..., ?)
 *
 * The last argument is a struct ev_bm25_weights bound with
 * sqlite3_bind_pointer(stmt, i, weights, EV_BM25_POINTER, NULL); phrases are
 * numbered as FTS5 numbers them, left to right in the MATCH expression.  A
 * phrase the weights do not cover, or a NULL pointer, weighs 1: then the
 * result is exactly bm25()'s.  With `tuned` set, the weights' k1 and b
 * replace FTS5's.  Counting a phrase's rows for its IDF walks its whole
 * posting list; with `idf` the caller keeps the IDFs of one statement for the
 * next (the text lane's pruned passes: textsearch.h).  With `floor`, a row
 * is left as soon as the bounds of its phrases (weight x IDF x (k1 + 1) for a
 * phrase not yet looked at, the term with the row's frequency and length 0
 * for one looked at) show that it scores below floor; it then gets that
 * bound, which is below floor: the rows scoring at least floor, and their
 * order, are exactly those without it.
 *
 * With `global` set, the average length comes from `rows` and `tokens`
 * (those of a whole sharded collection, textstats.h) instead of this
 * index's, and the caller gives every weighed phrase's IDF in `idf`, made
 * by ev_bm25_idf() from the collection's counts.  (An index's own totals
 * are lenstats.h's.) */
#ifndef EV_BM25_H
#define EV_BM25_H

#include <sqlite3.h>

#include "err.h"

#define EV_BM25_FUNCTION "ev_bm25"
#define EV_BM25_POINTER "ev_bm25_weights"

struct ev_bm25_weights {
	int n;			/* phrases weighed */
	const double *w;	/* their weights, w[0..n) */
	int tuned;		/* k1 and b below apply (else FTS5's 1.2 and 0.75) */
	double k1;		/* term frequency saturation, >= 0 */
	double b;		/* document length normalisation, 0 to 1 */
	double *idf;		/* NULL, or idf[0..n): a phrase's IDF when > 0 (used, not
				 * counted again); each IDF counted is stored there, so a
				 * second statement over the same phrases can skip counting */
	double floor;		/* > 0: a row whose score cannot reach floor may be given
				 * any score below it, without its length being read */
	int global;		/* rows and tokens are the collection's, not the index's */
	double rows;		/* the collection's rows, and */
	double tokens;		/* its tokens (with global) */
};

/* The IDF of a phrase held by `hits` of `rows` rows, as ev_bm25() counts
 * it: log((rows - hits + 0.5) / (hits + 0.5)), floored at 1e-6. */
double ev_bm25_idf(double rows, double hits);

/* One phrase's term of a row's score: weight w, IDF idf, frequency f (its
 * instances, each counting its column's weight), the row's length dl
 * against the average avgdl. */
static inline double
ev_bm25_term(double w, double idf, double f, double k1, double b, double dl, double avgdl)
{
	return w * idf * ((f * (k1 + 1.0)) / (f + k1 * (1.0 - b + b * dl / avgdl)));
}

/* One phrase of a query swept over a postings file: its positions, as FTS5
 * tokenises the phrase's string in a query, each with its alternatives (a
 * word stemmed for several languages: FTS5's colocated tokens, any of which
 * matches there). */
struct ev_bm25_phrase {
	int ntok;		/* positions, 1 to EV_BM25_MAX_PHRASE */
	const int *nalt;	/* nalt[j]: the alternatives at position j, 1 to EV_BM25_MAX_ALT */
	const char *const *tok;	/* the alternatives, position after position */
	const int *len;		/* and their lengths */
	int filter;		/* of the filter group (below) */
};

#define EV_BM25_MAX_PHRASE 32
#define EV_BM25_MAX_ALT 8

/* A row a sweep ranks: its rowid and the value ev_bm25() gives it (lower
 * is better). */
struct ev_bm25_hit {
	long long rowid;
	double s;
};

/* The weight of phrase i under pw: 1 when pw is NULL or does not cover it. */
double ev_bm25_weight(const struct ev_bm25_weights *pw, int i);

/* FTS5's bm25() parameters, which ev_bm25() and the sweep (sweep.h) use
 * unless the weights are tuned. */
#define EV_BM25_K1 1.2
#define EV_BM25_B 0.75

/* Register ev_bm25() on the connection db.  Returns 0, or -1 with *err set
 * (code 1: no FTS5, or out of memory). */
int ev_bm25_register(sqlite3 *db, struct ev_err *err);

#endif
