/* bm25.h: the text lane's ranking function, BM25 with a weight per query
 * phrase, as an FTS5 auxiliary function.
 *
 * Middle layer: includes err.h, postings.h and token.h (for the connection's
 * fts5_api).
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
 * by ev_bm25_idf() from the collection's counts.
 *
 *   ev_bm25_totals(chunks_fts, 0)   the index's rows
 *   ev_bm25_totals(chunks_fts, 1)   its tokens, over every column
 *
 * give an index's own totals (on any row of the table, MATCH or not). */
#ifndef EV_BM25_H
#define EV_BM25_H

#include <sqlite3.h>

#include "err.h"
#include "postings.h"

#define EV_BM25_FUNCTION "ev_bm25"
#define EV_BM25_POINTER "ev_bm25_weights"
#define EV_BM25_TOTALS "ev_bm25_totals"

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

struct ev_bm25_sweep;

/* A sweeper over the postings file p (borrowed: it must outlive the
 * sweeper), or NULL with *err set (out of memory). */
struct ev_bm25_sweep *ev_bm25_sweep_new(const struct ev_postings *p, struct ev_err *err);

/* Free (NULL-safe). */
void ev_bm25_sweep_free(struct ev_bm25_sweep *sw);

/* What "SELECT rowid, ev_bm25(chunks_fts, colw..., pw) FROM chunks_fts WHERE
 * chunks_fts MATCH E ORDER BY 2, rowid LIMIT limit" returns, computed from
 * the postings file instead of FTS5, pruned by MaxScore (bm25.c: the
 * phrases of highest bounds walked whole, the others looked up only in the
 * chunks that can still be among the best).  E is the OR of the phrases ph[0..n) when none is of the filter group, else
 * "(the filter group's, OR-ed) AND (the others, OR-ed)"; the phrases are
 * numbered as FTS5 numbers E's.  colw[0..ncolw) are the column weights; pw
 * as for ev_bm25(), its floor ignored (IDFs counted are stored in pw->idf as
 * there).  Every score is computed as ev_bm25() computes it, term by term in
 * the phrases' order, so the hits, their order and their values are exactly
 * FTS5's.  Returns the number of hits, at most limit, in *hits (the
 * sweeper's: valid until its next call), or -1 with *err set (code 1: the
 * postings file is corrupt, or out of memory). */
long long ev_bm25_sweep(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
	const double *colw, int ncolw, struct ev_bm25_weights *pw, long long limit,
	const struct ev_bm25_hit **hits, struct ev_err *err);

/* Forget the phrases' rows the sweeper keeps from one sweep to the next
 * (a query's passes walk the same words and pairs): call it before each
 * query, or whenever the postings file or the column weights change. */
void ev_bm25_sweep_forget(struct ev_bm25_sweep *sw);

/* The phrases the last sweep looked up in its candidates rather than
 * walked whole (MaxScore: bm25.c): 0 when it walked every one (of a split
 * sweep, the half that looked up more). */
int ev_bm25_sweep_pruned(const struct ev_bm25_sweep *sw);

/* Stores of at least this many rows are swept in two halves of their rows,
 * side by side on two threads, when the process may run on two processors
 * or more: a query's latency nearly halves on a large store (each half prunes
 * with the better theta of the two), for a few per cent more work. */
#define EV_BM25_SPLIT_ROWS 100000

/* Run fn(arg) on the second thread of sw's split sweeps, if it has one,
 * while the caller goes on (else here, now): a job that needs nothing of
 * sw, such as asking for the pages of the hits just swept.  The job ends
 * before sw's next sweep begins, or sw is split otherwise or freed, and
 * arg must live until then.  Returns 1 when the job runs on the thread, 0
 * when it ran here. */
int ev_bm25_sweep_background(struct ev_bm25_sweep *sw, void (*fn)(void *), void *arg);

/* Wait until the job of ev_bm25_sweep_background(), if any, has ended;
 * its writes are then seen by the caller. */
void ev_bm25_sweep_wait(struct ev_bm25_sweep *sw);

/* Split the pruned sweeps of sw over two threads when its postings file
 * holds min_rows rows or more (0: never); the default is
 * EV_BM25_SPLIT_ROWS when the process may run on several processors
 * (ev_worker_processors()), else 0.  The
 * hits are the same either way. */
void ev_bm25_sweep_split(struct ev_bm25_sweep *sw, long long min_rows);

/* Register ev_bm25() and ev_bm25_totals() on the connection db.  Returns 0, or -1 with *err set
 * (code 1: no FTS5, or out of memory). */
int ev_bm25_register(sqlite3 *db, struct ev_err *err);

#endif
