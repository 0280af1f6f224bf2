/* bm25.h: the text lane's ranking function, BM25 with a weight per query
 * phrase, as an FTS5 auxiliary function.
 *
 * Middle layer: includes err.h and token.h (for the connection's fts5_api).
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
 * replace FTS5's.  With `df` set, the IDF and the average length come from
 * the weights' statistics (those of a whole sharded collection, textstats.h)
 * instead of this index's: rows, tokens, and df[i] the rows holding phrase i
 * (a phrase past n counts this index's rows).
 *
 *   ev_bm25_totals(chunks_fts, 0)   the index's rows
 *   ev_bm25_totals(chunks_fts, 1)   its tokens, over every column
 *
 * give an index's own totals (on any row of the table, MATCH or not). */
#ifndef EV_BM25_H
#define EV_BM25_H

#include <sqlite3.h>

#include "err.h"

#define EV_BM25_FUNCTION "ev_bm25"
#define EV_BM25_POINTER "ev_bm25_weights"
#define EV_BM25_TOTALS "ev_bm25_totals"

struct ev_bm25_weights {
	int n;			/* phrases weighed */
	const double *w;	/* their weights, w[0..n) */
	int tuned;		/* k1 and b below apply (else FTS5's 1.2 and 0.75) */
	double k1;		/* term frequency saturation, >= 0 */
	double b;		/* document length normalisation, 0 to 1 */
	const double *df;	/* NULL, or the rows holding each phrase, df[0..n), and: */
	double rows;		/* the rows, and */
	double tokens;		/* the tokens of the collection the df count */
};

/* Register ev_bm25() and ev_bm25_totals() on the connection db.  Returns 0, or -1 with *err set
 * (code 1: no FTS5, or out of memory). */
int ev_bm25_register(sqlite3 *db, struct ev_err *err);

#endif
