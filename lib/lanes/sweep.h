/* sweep.h: the text lane's ranking without FTS5: BM25 with phrase weights
 * (bm25.h) computed from the store's postings file (postings.h), term at a
 * time, to exactly FTS5's hits and scores.
 *
 * Middle layer: includes err.h, bm25.h and postings.h.  Implemented by
 * sweep.c (the sweeper, its rows and their scores) and maxscore.c (the
 * pruned sweep, its split over two threads, and ev_bm25_sweep()), over
 * their private sweepstate.h. */
#ifndef EV_SWEEP_H
#define EV_SWEEP_H

#include "bm25.h"
#include "err.h"
#include "postings.h"

struct ev_bm25_sweep;

/* A sweeper over the postings file p (borrowed: it must outlive the
 * sweeper), or NULL with *err set (out of memory). */
struct ev_bm25_sweep *ev_bm25_sweep_new(const struct ev_postings *p, struct ev_err *err);

/* Free (NULL-safe). */
void ev_bm25_sweep_free(struct ev_bm25_sweep *sw);

/* What "SELECT rowid, ev_bm25(chunks_fts, colw..., pw) FROM chunks_fts WHERE
 * chunks_fts MATCH E ORDER BY 2, rowid LIMIT limit" returns, computed from
 * the postings file instead of FTS5, pruned by MaxScore (bm25.c: the
 * phrases of the highest bounds for their lists' lengths walked whole, the
 * others looked up only in the chunks that can still be among the best).  E is the OR of the phrases ph[0..n) when none is of the filter group, else
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

/* What ev_bm25_sweep() returns for the same phrases when only the rows
 * rows[0..nrows) (any order, each once) may be hits: each one's exact
 * score, as ev_bm25() computes it, its phrases looked up in the lists at
 * that row, and the best limit of them, ranked as FTS5 ranks them.  Returns
 * the number of hits, at most limit and nrows, in *hits (as for
 * ev_bm25_sweep()), or -1 with *err set. */
long long ev_bm25_sweep_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
	const double *colw, int ncolw, struct ev_bm25_weights *pw, const long long *rows,
	size_t nrows, long long limit, const struct ev_bm25_hit **hits, struct ev_err *err);

/* How many rows hold both x and y (each a phrase of one position: a word
 * as a query searches it, its alternatives' rows together), counting up to
 * max: FTS5's count of "SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH
 * 'X AND Y' LIMIT max", from the postings file.  Reads only x's and y's
 * lists, each skipped to the other's rows.  Returns the count, or -1 with
 * *err set (the postings file is corrupt). */
long long ev_bm25_sweep_count_both(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *x,
	const struct ev_bm25_phrase *y, long long max, struct ev_err *err);

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
 * arg must live until then (a job the thread has not begun by then is run
 * here: ev_worker_wait()).  Returns 1 when the job was given to the thread,
 * 0 when it ran here. */
int ev_bm25_sweep_background(struct ev_bm25_sweep *sw, void (*fn)(void *), void *arg);

/* Give back, on the calling thread, the pages of sw's per-row and work
 * arrays and unmap those of the postings file, as ev_bm25_sweep_free()
 * does, when sw has a second thread (else nothing: the process's exit
 * frees them): for a job of ev_bm25_sweep_background() after the last
 * sweep, so that the freeing ends while the caller reads the hits rather
 * than after.  The hits stay; a later sweep maps the pages again, zeroed
 * as a new sweeper's, and gives the same hits. */
void ev_bm25_sweep_release(struct ev_bm25_sweep *sw);

/* Wait until the job of ev_bm25_sweep_background(), if any, has ended;
 * its writes are then seen by the caller. */
void ev_bm25_sweep_wait(struct ev_bm25_sweep *sw);

/* Split the pruned sweeps of sw over two threads when its postings file
 * holds min_rows rows or more (0: never); the default is
 * EV_BM25_SPLIT_ROWS when the process may run on several processors
 * (ev_worker_processors()), else 0.  The
 * hits are the same either way. */
void ev_bm25_sweep_split(struct ev_bm25_sweep *sw, long long min_rows);

#endif
