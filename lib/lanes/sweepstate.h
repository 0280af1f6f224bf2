/* sweepstate.h: the postings sweep's private state (sweep.h), shared by
 * its two modules: sweep.c (the sweeper, a phrase's rows, the scores and
 * the hits) and maxscore.c (the pruned sweep and its split).  Nothing
 * else includes it.
 *
 * Middle layer: includes bm25.h, buf.h and postings.h. */
#ifndef EV_SWEEPSTATE_H
#define EV_SWEEPSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "bm25.h"
#include "buf.h"
#include "postings.h"

struct ev_worker;

/* The sweep (bm25.h): term at a time, phrase by phrase in FTS5's order, each
 * row's score summed in an accumulator indexed by rowid; the rows touched
 * are listed, so that only they are read and cleared. */
/* One position of a phrase: the union of its alternatives' lists, as FTS5
 * iterates a term with synonyms. */
struct alts {
	int n;
	struct ev_postings_cursor c[EV_BM25_MAX_ALT];
	int live[EV_BM25_MAX_ALT];
	long long rowid;	/* the smallest current row of a live one; -1 at the end */
};

/* Rows this long or shorter have their length's term of BM25's
 * denominator in a table (sweep_norms()): a division less for each row
 * a sweep adds to. */
#define NORM_LENGTHS 4096

struct ev_bm25_sweep {
	const struct ev_postings *p;
	long long nrow;			/* maxrowid + 1 */
	long long lo, hi;		/* the rows this sweeper walks: [lo, hi) */
	double *acc;			/* per rowid: the score so far (where mark is not 0) */
	unsigned char *mark;		/* per rowid: TOUCHED, IN_FILTER, IN_OTHERS */
	size_t rows_size;		/* acc and mark: one mapping (row_arrays()), */
	int owns_rows;			/* this sweeper's (a half borrows its main's) */
	int released;			/* its pages given back since its last sweep */
	int dirty;			/* they hold the last sweep's rows (clear_rows()) */
	int whole_weights;		/* the sweep's column weights are whole (cursor_freq()) */
	long long split_rows;		/* split sweeps of this many rows or more (0: never) */
	struct ev_bm25_sweep *half;	/* the upper half's sweeper, once a sweep is split */
	struct ev_worker *worker;	/* the thread that sweeps it, or NULL */
	int background;			/* a job of ev_bm25_sweep_background() on it */
	double norm[NORM_LENGTHS];	/* the sweep's (sweep_params) */
	double byte_f[EV_POSTINGS_COUNTS_ESCAPE];	/* the sweep's (sweep_params) */
	uint64_t theta_bits;		/* the halves' best theta (a double's bits; 0: none) */
	uint64_t *shared;		/* &theta_bits of the split sweep this sweeper is in */
	struct ev_bm25_hit *out;	/* the merged hits of a split sweep */
	size_t capout;
	unsigned char *scratch;		/* one mapping (scratch()) for the arrays below */
	size_t scratch_size;
	long long *touched;		/* the rows touched, the first touched_cap of */
	size_t ntouched, touched_cap;	/* them (past it, the marks tell) */
	long long *prow;		/* one phrase's rows: own_row, or kept ones, and */
	double *pf;			/* its frequency in each */
	size_t np, capp;
	long long *own_row;		/* nrow: the rows of a walk that is not kept */
	double *own_f;
	uint64_t *keys;			/* the positions of a phrase's tokens in a row */
	size_t capkeys;
	long long *minor;		/* the rows of a phrase's minor alternatives */
	size_t capminor;
	struct alts *alts;		/* a phrase's positions (EV_BM25_MAX_PHRASE) */
	struct ev_bm25_hit *heap;
	size_t capheap;
	struct phrase_info *info;	/* what a sweep knows of each phrase */
	int *order;
	long long *count;		/* the rows holding each phrase, when counted */
	int capinfo;
	long long *cand;		/* nrow: the candidates (pruned sweep), rising */
	size_t ncand;
	double cand_least;		/* no candidate's score so far is below it */
	double *exact;			/* and their exact scores */
	size_t capexact;
	double *top;			/* a min-heap of the best scores so far, */
	long long *toprow;		/* their rows (walk_top()), */
	long long *oldrow;		/* and the rows of the last such heap */
	size_t ntop, nold, captop;
	double floor;			/* a floor of the limit-th best score (seed_floor()), */
	double *fscore;			/* the limit best exact scores of rows of the */
	long long *frow;		/* running tops (a min-heap: seed_floor()), */
	size_t nfloor, capfloor;	/* and those rows */
	int pruned;			/* phrases the last sweep looked up, not walked */
	struct walked *kept;		/* phrases walked in this query, their rows kept */
	size_t nkept, capkept;
	long long *kept_row;		/* kept_cap: the kept phrases' rows, one */
	double *kept_f;			/* after the other, and their frequencies */
	size_t kept_rows, kept_cap;
	struct ev_buf key;		/* a phrase's key (walked_key()) */
	int pass_over;			/* a walk passes over the rows that are not candidates */
	uint64_t *rowbits;		/* a bit a row, all 0 between counts (union_marked()) */
	struct ev_bm25_phrase *nph;	/* the phrases narrowed (ev_sweep_narrow()): */
	const char **ntok;		/* their tokens, */
	int *nlen, *noff;		/* lengths, narrowed names' offsets in nstr (or -1), */
	int *nnalt;			/* and alternatives at each position */
	size_t capnph, capntok, capnpos;
	struct ev_buf nstr;		/* the narrowed words' names */
	const void **asked;		/* the lists and positions asked for in this */
	size_t nasked, capasked;	/* query (ask_lists()), by their starts */
};

/* A phrase walked in this query (ev_bm25_sweep_forget()): its rows and
 * its frequency in each (in the sweeper's kept_row and kept_f), for the
 * query's next walk of it (its feedback pass and last pass search the same
 * words and pairs). */
struct walked {
	char *key;
	size_t keylen;
	long long lo, hi;	/* the rows walked: [lo, hi) */
	long long *row;
	double *f;
	size_t n;
};

/* The rows kept at most (16 bytes each): four for each row of the store,
 * up to this many. */
#define KEPT_ROWS_MAX ((size_t)8 << 20)

/* A phrase of a pruned sweep. */
struct phrase_info {
	double w, idf;
	double ub;		/* w x idf x (k1 + 1): its term's limit */
	long long rows;		/* at most this many rows hold it */
	int twin;		/* a filter phrase: the scoring phrase of the same tokens, or -1 */
	int also_filter;	/* a scoring phrase some filter phrase is the twin of */
};

#define TOUCHED 1
#define IN_FILTER 2
#define IN_OTHERS 4
#define CANDIDATE 8
#define IN_TOP 16	/* among the rows of the last running top (walk_top()) */
#define SCORED 32	/* its exact score is among the floor's (seed_floor()) */

/* Zeroed memory of *size bytes (rounded up to whole pages; NULL when out
 * of memory), its pages mapped as they are first used, and never in huge
 * pages.  A process of the text lane lives for one query, so every page it
 * writes is new to it; on a virtual machine that hands its free memory
 * back to the host (free page reporting), a new 2 MB page, taken from what
 * was handed back, costs the host 1-2.5 ms to fill, against 0.04 ms for
 * one freed a moment before.  Small pages come from the kernel's recent
 * ones.  The 30 bench-scale queries at 1 M chunks, each run just after the
 * python3-faiss peer and a second's rest: 68.5 ms at the median with these
 * arrays in huge pages, 41.4 in small ones (back to back, the huge pages
 * reused at once: 30 and 36). */

/* The sweep's parameters. */
struct sweep_params {
	const double *colw;
	int ncolw;
	struct ev_bm25_weights *pw;
	double k1, b, rows, avgdl;
	int has_filter;
	long long limit;
	const double *norm;	/* NORM_LENGTHS: k1 x (1 - b + b x dl / avgdl) for each dl */
	/* EV_POSTINGS_COUNTS_ESCAPE: a term's frequency in a row whose entry's
	 * counts are the one byte h (postings.h), as cursor_freq() sums it */
	const double *byte_f;
};
/* How a phrase's rows are added to the scores so far (adding_start(),
 * add_row()): its term (weight w, IDF idf; none when w is 0) and its mark
 * bits.  With only_candidates, a row that is not a candidate is passed
 * over; else a row is touched.  With want (not 0), each row whose mark then
 * has the bits of want is offered to the running top (walk_top()).  The
 * sweeper's arrays are copied here: a write to a mark, a char, may alias
 * anything else, and a local's fields stay in registers. */
struct adding {
	const uint32_t *len;
	double *acc;
	unsigned char *mark;
	long long *touched;
	size_t ntouched, touched_cap;
	long long nrow;
	double w, idf;
	unsigned char set, want, in_top;
	int only_candidates, scores;
};

/* A term's frequency in a row sums its column's weight once for each of
 * its instances there, in FTS5's order.  When every column weight is a
 * whole number up to EV_SWEEP_WHOLE_MAX and the instances are fewer than
 * it, every partial sum is a whole number below 2^40, exact in a double,
 * so each column's count times its weight, summed, is the same to the bit
 * (cursor_freq()): a multiplication a column rather than an addition an
 * instance. */
#define EV_SWEEP_WHOLE_MAX (1u << 20)

/* Whether the column weights colw[0..ncolw) are all whole numbers from 0
 * to EV_SWEEP_WHOLE_MAX (a column past them weighs 1). */
int ev_sweep_whole_weights(const double *colw, int ncolw);

/* Whether hit a ranks after hit b (ORDER BY s, rowid). */
static inline int
after(const struct ev_bm25_hit *a, const struct ev_bm25_hit *b)
{
	return a->s > b->s || (a->s == b->s && a->rowid > b->rowid);
}

/* ev_bm25_term() for a row of length dl in a sweep. */
static inline double
sweep_term(const struct sweep_params *sp, double w, double idf, double f, uint32_t dl)
{
	double nd = dl < NORM_LENGTHS ? sp->norm[dl] :
	    sp->k1 * (1.0 - sp->b + sp->b * (double)dl / sp->avgdl);

	return w * idf * ((f * (sp->k1 + 1.0)) / (f + nd));
}

/* Put row r of score v in the min-heap of at most limit scores h[0..*n)
 * and their rows hr[0..*n), if it belongs there. */
static inline void
heap_insert(double *h, long long *hr, size_t *size, size_t limit, double v, long long r)
{
	size_t j, n = *size;

	if (n < limit) {
		for (j = (*size)++; j > 0 && h[(j - 1) / 2] > v; j = (j - 1) / 2) {
			h[j] = h[(j - 1) / 2];
			hr[j] = hr[(j - 1) / 2];
		}
	} else if (v > h[0]) {
		for (j = 0;;) {
			size_t l = 2 * j + 1, c = l;

			if (l >= n)
				break;
			if (l + 1 < n && h[l + 1] < h[l])
				c = l + 1;
			if (h[c] >= v)
				break;
			h[j] = h[c];
			hr[j] = hr[c];
			j = c;
		}
	} else
		return;
	h[j] = v;
	hr[j] = r;
}

/* Put row r of score v in the running top (sw->top, and their rows,
 * sw->toprow), if it belongs there. */
static inline void
top_insert(struct ev_bm25_sweep *sw, size_t limit, double v, long long r)
{
	heap_insert(sw->top, sw->toprow, &sw->ntop, limit, v, r);
}

/* Offer row r of score v to the running top: most rows are not among
 * the best, and are turned away here, inline. */
static inline void
top_offer(struct ev_bm25_sweep *sw, size_t limit, double v, long long r)
{
	if (sw->ntop < limit || v > sw->top[0])
		top_insert(sw, limit, v, r);
}


/* Whether a walk passes over row r (sw->pass_over): it is not a candidate,
 * so that its frequency, costly to find in a phrase of several lists, is
 * never wanted.  (A row past the last is not passed over: adding it
 * finds the list corrupt.) */
static inline int
passed_over(const struct ev_bm25_sweep *sw, long long r)
{
	return sw->pass_over && r >= 0 && r < sw->nrow && !(sw->mark[r] & CANDIDATE);
}

/* Add a phrase's rows as walked into sw->prow and sw->pf (walk_phrase()).
 * Returns 0, or -1 (corrupt). */
int ev_sweep_add_rows(struct ev_bm25_sweep *sw, struct adding *a, const struct sweep_params *sp);

/* Add a one-token phrase's rows as its list is read (the cursor c, at its
 * start): nothing is written but the scores, for a list that may hold most
 * rows.  Returns 0, or -1 with *err set (corrupt). */
int ev_sweep_add_token(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, struct adding *a,
    const struct sweep_params *sp, struct ev_err *err);

/* Add a one-token phrase ph of several alternatives (a word stemmed and as
 * itself) as ev_sweep_add_token() adds one list: its major's (the list of
 * most rows) read so, the rows of the others (minor_rows()) taken apart, a
 * row they hold getting its frequency from every alternative, as
 * ev_sweep_major_rows() finds it.  Returns 1, 0 when the minors are too
 * many for it to pay (nothing done), or -1 with *err set. */
int ev_sweep_add_alternatives(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, struct adding *a,
    const struct sweep_params *sp, struct ev_err *err);

void ev_sweep_adding_start(struct ev_bm25_sweep *sw, struct adding *a, unsigned char bits, double w, double idf,
    int only_candidates, unsigned char want);

/* The rows of a one-token phrase of several alternatives (a word stemmed
 * for several languages), and its frequency in each: the union of their
 * lists, walked side by side (a position two of them hold counts once). */
int ev_sweep_alt_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw, int ncolw,
    struct ev_err *err);

/* Clear what a sweep left in the accumulators: the marks, row by row, or
 * whole when the rows are many (a row's score is valid only where its
 * mark is not 0). */
void ev_sweep_clear_touched(struct ev_bm25_sweep *sw);

/* ev_postings_corrupt() of sw's postings file; returns -1. */
int ev_sweep_corrupt(const struct ev_bm25_sweep *sw, struct ev_err *err);

/* The keys of the runs in[start[r] .. start[r + 1]) for r from 0 to
 * nrun - 1 (at most EV_BM25_MAX_ALT), each rising (one alternative's
 * positions), merged into out (not overlapping in), rising and each once:
 * what sorting them all and keeping each once makes of them, in one pass
 * (two runs, the common case, merged head to head).  A run that is not
 * rising (a corrupt list) shows as a key below the last one written, and
 * the runs are sorted whole then.  Returns the keys written. */
int ev_sweep_merge_runs(uint64_t *out, const uint64_t *in, const int *start, int nrun);

/* The rows of phrase ph, of one or two positions (a word of several stems,
 * or a pair of words), and its frequency in each, as ev_sweep_phrase_rows() or
 * ev_sweep_alt_rows() make them, walked along its majors.  Returns 1, 0 when its
 * minors are too many for it to pay or it has more positions (nothing
 * done), or -1 with *err set. */
int ev_sweep_major_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw,
    int ncolw, struct ev_err *err);

/* Offer hit h to the best *n (at most cap) kept in sw->heap, a max-heap of
 * the best so far: the worst on top. */
void ev_sweep_offer_hit(struct ev_bm25_sweep *sw, size_t *n, size_t cap, struct ev_bm25_hit h);

/* The rows of a one-token phrase, and its frequency in each. */
int ev_sweep_one_token(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, const double *colw, int ncolw,
    struct ev_err *err);

/* Whether the phrase ph, started with ev_sweep_phrase_start() and asked about rows
 * in rising order, is in row r, and its frequency *f there.  Returns 1 or
 * 0, or -1 (corrupt) or -2 (out of memory). */
int ev_sweep_phrase_at(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, long long r,
    const double *colw, int ncolw, double *f);

/* The rows of the phrase ph (any but a one-token one without
 * alternatives), and its frequency in each, into sw->prow and sw->pf. */
int ev_sweep_phrase_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw,
    int ncolw, struct ev_err *err);

/* Start sw->alts on the positions of the phrase ph.  Returns 0, or -1
 * (corrupt). */
int ev_sweep_phrase_start(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph);

/* Room in sw->heap for the best cap hits.  Returns 0 or -1 (out of memory). */
int ev_sweep_reserve_hits(struct ev_bm25_sweep *sw, size_t cap);

/* sw's work arrays of a row each (touched, cand, own_row, own_f) and the
 * kept rows (kept_row, kept_f), in one mapping (map_zeroed()) whose pages
 * are used as the rows come: no array ever grows, so none is copied, and
 * each is used from its start, a query writing a few megabytes of some.
 * Returns 0 or -1. */
int ev_sweep_scratch(struct ev_bm25_sweep *sw);

/* The n hits kept, best first. */
void ev_sweep_sort_hits(struct ev_bm25_sweep *sw, size_t n);

/* The second thread of sw's split sweeps (worker.h), made as soon as sw
 * splits them: by the first job of the first query, a thread made then
 * would still wait to be scheduled.  Without it (no thread to be had),
 * the halves are swept one after the other. */
void ev_sweep_start_worker(struct ev_bm25_sweep *sw);

/* The table of sp->norm: each length's term computed as ev_bm25_term()
 * computes it, so that a score is the same to the bit. */
void ev_sweep_sweep_norms(double *norm, const struct sweep_params *sp);

/* The table of sp->byte_f for sw's postings file and the column weights
 * colw[0..ncolw) (sw->whole_weights set for them): each one-byte count's
 * frequency as cursor_freq() sums it, the same to the bit. */
void ev_sweep_byte_freqs(double *byte_f, const struct ev_bm25_sweep *sw, const double *colw,
    int ncolw);

/* Bring the running top up to date after a phrase was walked and its rows
 * offered by ev_sweep_add_rows(): the rows of the last top are offered with their
 * scores now.  Scores only rise and marks only gain bits, and only the
 * phrase's rows changed, so the top is the best limit of every row touched
 * whose mark has want.  Returns 1 with *theta, the limit-th best score,
 * when there are limit such rows, else 0. */
int ev_sweep_walk_top(struct ev_bm25_sweep *sw, unsigned char want, size_t limit, double *theta);

int ev_sweep_cmp_row(const void *x, const void *y);

/* The best limit rows of those touched that match, into sw->heap, in
 * order; the accumulators cleared.  Returns their number, or -1. */
long long ev_sweep_best_rows(struct ev_bm25_sweep *sw, int has_filter, long long limit);

/* Whether sw's pruned sweeps are split over two threads. */
int ev_sweep_splits(const struct ev_bm25_sweep *sw);

/* The phrases ph[0..n) as the sweep reads them (postings.h, "The narrowed
 * words"): at each position that has its word's untagged stem among its
 * alternatives, a word itself is read as its narrowed list, or not at all
 * when it has none; and an alternative of no rows (the stem of a language
 * of the store that no chunk holding the word is in) is left out when
 * another at its position has some.  The same rows, counts and positions
 * at each position, and in a store of English with a few chunks of other
 * languages, half the entries to read; a word left with one list is
 * walked as a word of one token is, straight into the scores ("flow" at
 * 1,000,000 chunks: 543.7 M instructions to 371.1 M).  The result is
 * sw's, valid until its next call; NULL when out of memory. */
const struct ev_bm25_phrase *ev_sweep_narrow(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph,
    int n);
#endif
