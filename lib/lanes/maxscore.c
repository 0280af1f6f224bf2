/* maxscore.c: the postings sweep pruned by MaxScore, split over two
 * threads on a large store, and ev_bm25_sweep().  See sweep.h. */
#include "sweep.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buf.h"
#include "sweepstate.h"
#include "worker.h"

/* ---- The pruned sweep (bm25.h): MaxScore, term at a time --------------------
 *
 * A phrase adds at most its bound, w x IDF x (k1 + 1), to a row's score.
 * The phrases are walked whole, the most bound for each row of its list
 * first (walks_before()), each row's score so far summed; once the bounds of
 * the phrases left sum below theta, the
 * limit-th best score so far among the rows that are hits (a score the
 * limit best reach), a row none of those walked holds cannot be among the
 * best.  The phrases left are then only looked up in the rows that can
 * still reach theta (skipping their lists' blocks), and the rows that can
 * no longer reach it are dropped as their bounds are spent.  Last, the
 * candidates near the limit-th score get their exact score, summed in the
 * phrases' own order as ev_bm25() sums it, and are ranked by it. */

#define SWEEP_MARGIN 1e-9	/* relative slack for sums in another order */

/* A floor of theta (seed_floor()) is sought after a walk when its
 * look-ups cost at most a quarter of the next walk's entries: a look-up
 * of a row in a list (a seek over its skips, the rows sparse) costs about
 * as many instructions as adding six entries of a list walked whole (1,150
 * against 200 at 1,000,000 chunks, callgrind), and a floor saves a walk
 * only now and then.  Over 30 of the 300 queries at 1,000,000 chunks, one
 * process, one thread (with a drop loop since left out): 14.26 G
 * instructions without a floor, 14.02 G sought at a quarter; sought at a
 * sixth, it cost more than it saved. */
#define SEED_LOOKUP_ENTRIES (6 * 4)

static int walk_phrase(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph,
	const struct sweep_params *sp, int only_candidates, struct ev_err *err);

/* A word's alternatives are counted as a union by marking their rows in a
 * bitmap (union_marked()) when the others hold at least a MARK_SHARE-th of
 * the rows of the longest (a word stemmed and as itself: two lists of
 * nearly the same rows), else by looking each other one's rows up in the
 * longer lists (a few rows of a word in another language). */
#define MARK_SHARE 64

/* The rows of the lists of the cursors c[0..n) (started, not stepped)
 * together: each marked in sw->rowbits (ev_postings_mark_rows()), the
 * bits cleared after.  Returns the count, -1 with *err set (corrupt), or
 * -2 when there is no memory for the bits (nothing done). */
static long long
union_marked(struct ev_bm25_sweep *sw, const struct ev_postings_cursor *c, int n, struct ev_err *err)
{
	size_t words = (size_t)(sw->nrow + 63) / 64;
	long long total = 0, m = 0;

	if (sw->rowbits == NULL && (sw->rowbits = calloc(words, sizeof *sw->rowbits)) == NULL)
		return -2;
	for (int i = 0; i < n && m >= 0; i++)
		if ((m = ev_postings_mark_rows(sw->p, &c[i], sw->rowbits)) >= 0)
			total += m;
	memset(sw->rowbits, 0, words * sizeof *sw->rowbits);
	return m < 0 ? ev_sweep_corrupt(sw, err) : total;
}

/* The rows holding the phrase ph: the dictionary's count for one token,
 * else counted (a word's alternatives as a union, the rows of the rarest
 * looked up in the others; a phrase of several positions walked).  Returns
 * the count, or -1 with *err set. */
static long long
phrase_count(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph,
    const struct sweep_params *sp, struct ev_err *err)
{
	struct ev_postings_cursor c;
	struct alts *a = sw->alts;
	long long n = 0, rows[EV_BM25_MAX_ALT] = { 0 };
	int idx[EV_BM25_MAX_ALT] = { 0 }, r;

	if (ph->ntok == 1 && ph->nalt[0] == 1)
		return ev_postings_term(sw->p, ph->tok[0], ph->len[0], &c);
	if (ph->ntok > 1) {
		if (walk_phrase(sw, ph, sp, 0, err) == -1)
			return -1;
		return (long long)sw->np;
	}
	/* |A1 u ... u An|: the largest whole, then each other's rows that
	 * none before it holds */
	for (int i = 0; i < ph->nalt[0]; i++) {
		int j;

		rows[i] = ev_postings_term(sw->p, ph->tok[i], ph->len[i], &a[0].c[i]);
		for (j = i; j > 0 && rows[idx[j - 1]] < rows[i]; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
	for (int i = 1; i < ph->nalt[0]; i++)
		n += rows[idx[i]];
	if (n * MARK_SHARE >= rows[idx[0]] && (n = union_marked(sw, a[0].c, ph->nalt[0], err)) != -2)
		return n;
	n = rows[idx[0]];
	for (int i = 1; i < ph->nalt[0]; i++) {
		struct ev_postings_cursor *ci = &a[0].c[idx[i]];

		for (int j = 0; j < i; j++)	/* the earlier ones, from their starts */
			ev_postings_term(sw->p, ph->tok[idx[j]], ph->len[idx[j]], &a[1].c[j]);
		while ((r = ev_postings_next(ci)) == 1) {
			int held = 0;

			for (int j = 0; j < i && !held; j++) {
				int q = ev_postings_seek(&a[1].c[j], ci->rowid);

				if (q == -1)
					return ev_sweep_corrupt(sw, err);
				held = q == 1 && a[1].c[j].rowid == ci->rowid;
			}
			n += !held;
		}
		if (r == -1)
			return ev_sweep_corrupt(sw, err);
	}
	return n;
}

/* At most how many rows hold the phrase ph: the rows of its alternatives
 * summed, at its rarest position. */
static long long
phrase_rows_bound(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph)
{
	struct ev_postings_cursor c;
	long long least = -1;
	int k = 0;

	for (int j = 0; j < ph->ntok; j++) {
		long long n = 0;

		for (int i = 0; i < ph->nalt[j]; i++, k++)
			n += ev_postings_term(sw->p, ph->tok[k], ph->len[k], &c);
		if (least < 0 || n < least)
			least = n;
	}
	return least;
}

/* Whether two phrases search for the same tokens. */
static int
same_phrase(const struct ev_bm25_phrase *x, const struct ev_bm25_phrase *y)
{
	int k = 0;

	if (x->ntok != y->ntok)
		return 0;
	for (int j = 0; j < x->ntok; j++) {
		if (x->nalt[j] != y->nalt[j])
			return 0;
		for (int i = 0; i < x->nalt[j]; i++, k++)
			if (x->len[k] != y->len[k] || memcmp(x->tok[k], y->tok[k], (size_t)x->len[k]) != 0)
				return 0;
	}
	return 1;
}

/* The theta a sweeper prunes with: its own (theta, when found, or its
 * floor, seed_floor(), when higher), or the other half's of a split sweep
 * when higher (either half's limit-th best is a floor of the whole's
 * limit-th best); 0 when there is none yet. */
static double
sweep_theta(const struct ev_bm25_sweep *sw, int found, double theta)
{
	double own = found ? theta : 0.0, other = 0.0;

	if (sw->floor > own)
		own = sw->floor;

	if (sw->shared != NULL) {
		uint64_t bits = __atomic_load_n(sw->shared, __ATOMIC_RELAXED);

		memcpy(&other, &bits, sizeof other);
	}
	return other > own ? other : own;
}

/* Tell the other half of a split sweep this sweeper's theta. */
static void
share_theta(struct ev_bm25_sweep *sw, double theta)
{
	uint64_t bits, old;

	if (sw->shared == NULL || !(theta > 0.0))
		return;
	memcpy(&bits, &theta, sizeof bits);
	old = __atomic_load_n(sw->shared, __ATOMIC_RELAXED);
	/* (positive doubles order as their bits do) */
	while (bits > old && !__atomic_compare_exchange_n(sw->shared, &old, bits, 1,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* The limit-th best score of the candidates that are hits (mark has
 * want): *theta, returning 1; 0 when there are fewer.  (It uses the running
 * top's heap, which only the walks and look-ups before it need.) */
static int
kth_score(struct ev_bm25_sweep *sw, unsigned char want, long long limit, double *theta)
{
	const unsigned char *mark = sw->mark;

	sw->ntop = 0;
	for (size_t i = 0; i < sw->ncand; i++) {
		long long r = sw->cand[i];

		if ((mark[r] & want) == want)
			top_offer(sw, (size_t)limit, sw->acc[r], r);
	}
	if (sw->ntop < (size_t)limit)
		return 0;
	*theta = sw->top[0];
	return 1;
}

/* The phrase's tokens, position by position, as one key in sw->key.
 * Returns 0 or -1. */
static int
walked_key(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph)
{
	int k = 0, r = 0;

	ev_buf_reset(&sw->key);
	for (int j = 0; j < ph->ntok && r == 0; j++) {
		r |= ev_buf_add(&sw->key, &ph->nalt[j], sizeof ph->nalt[j]);
		for (int i = 0; i < ph->nalt[j] && r == 0; i++, k++) {
			r |= ev_buf_add(&sw->key, &ph->len[k], sizeof ph->len[k]);
			r |= ev_buf_add(&sw->key, ph->tok[k], (size_t)ph->len[k]);
		}
	}
	return r ? -1 : 0;
}

/* Keep the rows just walked under sw->key, when they were walked into
 * the kept rows (walk_phrase()), unless memory runs out (nothing kept
 * then: keeping only saves time). */
static void
keep_walked(struct ev_bm25_sweep *sw)
{
	struct walked *w;

	if (sw->prow != sw->kept_row + sw->kept_rows ||
	    ev_grow(&sw->kept, &sw->capkept, sw->nkept, sizeof *sw->kept, 16) == -1)
		return;
	w = &sw->kept[sw->nkept];
	if ((w->key = malloc(sw->key.len + 1)) == NULL)
		return;
	memcpy(w->key, sw->key.p, sw->key.len);
	w->keylen = sw->key.len;
	w->lo = sw->lo;
	w->hi = sw->hi;
	w->row = sw->prow;
	w->f = sw->pf;
	w->n = sw->np;
	sw->kept_rows += sw->np;
	sw->nkept++;
}

/* The first of the n rising rows at or after r (n when none is). */
static size_t
rows_from(const long long *row, size_t n, long long r)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (row[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The rows kept from a walk in this query of the phrase whose key is
 * sw->key (walked_key()), those in [sw->lo, sw->hi): *row, their
 * frequencies *f, *n of them.  Returns 1, or 0 when there are none. */
static int
find_kept(const struct ev_bm25_sweep *sw, long long **row, double **f, size_t *n)
{
	for (size_t i = 0; i < sw->nkept; i++) {
		const struct walked *w = &sw->kept[i];
		size_t from;

		if (w->keylen != sw->key.len || memcmp(w->key, sw->key.p, w->keylen) != 0 ||
		    w->lo > sw->lo || w->hi < sw->hi)
			continue;
		from = rows_from(w->row, w->n, sw->lo);
		*row = w->row + from;
		*f = w->f + from;
		*n = rows_from(w->row, w->n, sw->hi) - from;
		return 1;
	}
	return 0;
}

/* A phrase asked about rows in rising order (ask_start(), ask_at()): from
 * the rows kept from its walk in this query when it has them (a phrase of
 * several positions, costly to find in its lists), else from its lists
 * (ev_sweep_phrase_start(), ev_sweep_phrase_at()). */
struct asking {
	long long *row;		/* the kept rows, rising, or NULL */
	double *f;
	size_t n, at;
};

/* Start q on phrase ph.  Returns 0, or -1 (corrupt). */
static int
ask_start(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, struct asking *q)
{
	q->at = 0;
	/* (no room for the key: the lists, which need none) */
	if (walked_key(sw, ph) == 0 && find_kept(sw, &q->row, &q->f, &q->n))
		return 0;
	q->row = NULL;
	return ev_sweep_phrase_start(sw, ph);
}

/* ev_sweep_phrase_at() for q, started on ph. */
static int
ask_at(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, struct asking *q, long long r,
    const double *colw, int ncolw, double *f)
{
	if (q->row == NULL)
		return ev_sweep_phrase_at(sw, ph, r, colw, ncolw, f);
	q->at += rows_from(q->row + q->at, q->n - q->at, r);
	if (q->at == q->n || q->row[q->at] != r)
		return 0;
	*f = q->f[q->at];
	return 1;
}

/* Walk phrase ph whole, its rows in [sw->lo, sw->hi), into sw->prow /
 * sw->pf: after the rows kept so far when they have room for as many as
 * the dictionary says it may have (kept then), else into own_row / own_f.
 * When it was walked before in this query, they point at the rows kept
 * then instead.  With only_candidates, the rows that are not candidates
 * are passed over (sw->pass_over: their positions not read), and the rows
 * are not kept.  Returns 0 or -1. */
static int
walk_phrase(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const struct sweep_params *sp,
    int only_candidates, struct ev_err *err)
{
	struct ev_postings_cursor c;
	long long most;
	int r;

	sw->np = 0;
	if (walked_key(sw, ph) == -1)
		return ev_err_nomem(err);
	if (find_kept(sw, &sw->prow, &sw->pf, &sw->np)) {
		sw->capp = sw->np;
		return 0;
	}
	most = phrase_rows_bound(sw, ph);
	if (!only_candidates && most <= (long long)(sw->kept_cap - sw->kept_rows)) {
		sw->prow = sw->kept_row + sw->kept_rows;
		sw->pf = sw->kept_f + sw->kept_rows;
		sw->capp = (size_t)most;
	} else {
		sw->prow = sw->own_row;
		sw->pf = sw->own_f;
		sw->capp = (size_t)(sw->hi - sw->lo);
	}
	sw->pass_over = only_candidates;
	if (ph->ntok == 1 && ph->nalt[0] == 1) {
		ev_postings_term(sw->p, ph->tok[0], ph->len[0], &c);
		r = ev_sweep_one_token(sw, &c, sp->colw, sp->ncolw, err);
	} else if ((r = ev_sweep_major_rows(sw, ph, sp->colw, sp->ncolw, err)) != 0)
		r = r == 1 ? 0 : -1;
	else if (ph->ntok == 1)
		r = ev_sweep_alt_rows(sw, ph, sp->colw, sp->ncolw, err);
	else
		r = ev_sweep_phrase_rows(sw, ph, sp->colw, sp->ncolw, err);
	sw->pass_over = 0;
	if (r == 0 && !only_candidates)
		keep_walked(sw);
	return r;
}

/* Walk phrase ph whole over this sweeper's rows and add its rows to the
 * scores so far (struct adding: bits, w, idf, only_candidates, want).  A
 * word of one token is added as its list is read, and so is a word of
 * several alternatives whose others hold few rows beside its major's
 * (ev_sweep_add_alternatives(): a word stemmed and as itself, the common
 * case, whose rows went through the walk's arrays before, a fifth more
 * CPU time over make bench-scale's queries); any other phrase is walked
 * into rows first (walk_phrase(): kept for the query's next walk of it,
 * its rows being costly to find).  Returns 0 or -1 with *err set. */
static int
walk_add(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, unsigned char bits, double w,
    double idf, const struct sweep_params *sp, int only_candidates, unsigned char want,
    struct ev_err *err)
{
	struct ev_postings_cursor c;
	struct adding a;
	int r;

	ev_sweep_adding_start(sw, &a, bits, w, idf, only_candidates, want);
	if (ph->ntok == 1 && ph->nalt[0] == 1) {
		ev_postings_term(sw->p, ph->tok[0], ph->len[0], &c);
		return ev_sweep_add_token(sw, &c, &a, sp, err);
	}
	if (ph->ntok == 1 && (r = ev_sweep_add_alternatives(sw, ph, &a, sp, err)) != 0)
		return r == 1 ? 0 : -1;
	if (walk_phrase(sw, ph, sp, only_candidates, err) == -1)
		return -1;
	return ev_sweep_add_rows(sw, &a, sp) == -1 ? ev_sweep_corrupt(sw, err) : 0;
}

/* Add phrase ph (info p; a filter phrase when marker) to the candidates'
 * scores and marks: its rows walked when there are fewer than twice the
 * candidates, else each candidate looked up in them (ask_at(): in its
 * rows kept, or in its lists over the skips).  Each candidate it is in
 * is offered to the running top as walk_add() offers a row (want: the
 * marks of a hit).  Returns 0 or -1. */
static int
look_up(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const struct phrase_info *p,
    int marker, const struct sweep_params *sp, unsigned char want, struct ev_err *err)
{
	const uint32_t *len = ev_postings_lengths(sw->p);
	unsigned char bits = marker ? IN_FILTER : IN_OTHERS | (p->also_filter ? IN_FILTER : 0);
	struct asking q;
	double rows;

	if (ask_start(sw, ph, &q) == -1)
		return ev_sweep_corrupt(sw, err);
	/* (when not kept, its rows in this sweeper's share, roughly) */
	rows = q.row != NULL ? (double)q.n :
	    (double)p->rows * (double)(sw->hi - sw->lo) / (double)sw->nrow;
	if (rows <= 2.0 * (double)sw->ncand)
		return walk_add(sw, ph, bits, marker ? 0.0 : p->w, p->idf, sp, 1, want, err);
	for (size_t i = 0; i < sw->ncand; i++) {
		long long r = sw->cand[i];
		double f;
		int in = ask_at(sw, ph, &q, r, sp->colw, sp->ncolw, &f);

		if (in < 0)
			return in == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
		if (!in)
			continue;
		sw->mark[r] |= bits;
		if (!marker && f > 0.0)
			sw->acc[r] += sweep_term(sp, p->w, p->idf, f, len[r]);
		/* (a row of the last top is offered by ev_sweep_walk_top()) */
		if ((sw->mark[r] & (want | IN_TOP)) == want)
			top_offer(sw, (size_t)sp->limit, sw->acc[r], r);
	}
	return 0;
}

/* Whether a touched row can still be among the best: it has the mark
 * bits of need, and with rest to come it may reach eff (none when eff is
 * 0). */
static inline int
can_reach(double acc, unsigned char mark, unsigned char need, double rest, double eff)
{
	/* (& rather than &&: no branch to mispredict) */
	return ((mark & need) == need) & ((eff <= 0.0) | ((acc + rest) * (1.0 + SWEEP_MARGIN) >= eff));
}

/* Keep the candidates that can still reach theta with rest to come. */
static void
drop_hopeless(struct ev_bm25_sweep *sw, double rest, double theta)
{
	long long *cand = sw->cand;
	const double *acc = sw->acc;
	unsigned char *mark = sw->mark;	/* (locals: mark's writes alias sw) */
	static const double unless_kept[2] = { HUGE_VAL, 0.0 };
	size_t k = 0, n = sw->ncand;
	double least = HUGE_VAL;

	/* A score so far only grows (a pruned sweep's phrases weigh more
	 * than 0, each IDF is at least MIN_IDF), and none is below the least
	 * of the candidates kept last time (0 at first): while that one
	 * reaches theta with the bounds to come, every candidate does, and
	 * none is read ("flow" at 1,000,000 chunks: 6 passes over 394,856
	 * candidates that drop none, of 37). */
	if (can_reach(sw->cand_least, 0, 0, rest, theta))
		return;
	/* (no branch: which rows stay is not to be predicted) */
	for (size_t i = 0; i < n; i++) {
		long long r = cand[i];
		double a = acc[r];
		int keep = can_reach(a, 0, 0, rest, theta);

		cand[k] = r;
		k += (size_t)keep;
		mark[r] &= (unsigned char)(keep ? 0xff : ~CANDIDATE);
		a += unless_kept[keep];	/* (no branch either) */
		least = a < least ? a : least;
	}
	sw->ncand = k;
	sw->cand_least = least;
}

/* The exact scores of the k rows row[0..k) (rising) into score[0..k):
 * each scoring phrase of ph[0..n) added, in FTS5's order, as ev_bm25()
 * adds it (ask_at(): from the rows kept of its walk, or its lists).
 * Returns 0, or -1 with *err set. */
static int
exact_scores(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, const long long *row, size_t k, double *score, struct ev_err *err)
{
	const uint32_t *len = ev_postings_lengths(sw->p);

	if (k > 0)	/* (score is NULL until a sweep has a candidate) */
		memset(score, 0, k * sizeof *score);
	for (int i = 0; i < n; i++) {
		const struct phrase_info *p = &sw->info[i];
		struct asking q;

		if (p->w == 0.0)
			continue;
		if (ask_start(sw, &ph[i], &q) == -1)
			return ev_sweep_corrupt(sw, err);
		for (size_t j = 0; j < k; j++) {
			double f;
			int in = ask_at(sw, &ph[i], &q, row[j], sp->colw, sp->ncolw, &f);

			if (in < 0)
				return in == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
			if (in && f > 0.0)
				score[j] += sweep_term(sp, p->w, p->idf, f, len[row[j]]);
		}
	}
	return 0;
}

/* Room for k exact scores in sw->exact.  Returns 0 or -1 (out of memory). */
static int
reserve_exact(struct ev_bm25_sweep *sw, size_t k)
{
	if (k > sw->capexact && ev_grow(&sw->exact, &sw->capexact, k, sizeof *sw->exact, 256) == -1)
		return -1;
	return 0;
}

/* The best cap of the k rows sw->cand[0..k) by their exact scores
 * sw->exact[0..k) into sw->heap, in order.  Returns their number, or
 * SIZE_MAX (out of memory). */
static size_t
rank_exact(struct ev_bm25_sweep *sw, size_t k, size_t cap)
{
	size_t nh = 0;

	if (cap > k)
		cap = k;
	if (ev_sweep_reserve_hits(sw, cap) == -1)
		return SIZE_MAX;
	for (size_t j = 0; j < k; j++) {
		struct ev_bm25_hit h = { sw->cand[j], -1.0 * sw->exact[j] };

		ev_sweep_offer_hit(sw, &nh, cap, h);
	}
	ev_sweep_sort_hits(sw, nh);
	return nh;
}

/* The candidates' exact scores (exact_scores()), and the best limit of
 * those that are hits into sw->heap; rest is the sum of the bounds of the
 * phrases not yet added to their scores so far.  Returns their number, or
 * -1 with *err set. */
static long long
exact_best(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, unsigned char want, double rest, struct ev_err *err)
{
	size_t k = 0, nh, cap = (size_t)sp->limit;
	double theta = 0.0;
	int found;

	/* the hits near the limit-th score or above it (or the other half's) */
	found = kth_score(sw, want, sp->limit, &theta);
	if ((theta = sweep_theta(sw, found, theta)) <= 0.0)
		theta = -1.0;
	for (size_t i = 0; i < sw->ncand; i++) {
		long long r = sw->cand[i];

		if ((sw->mark[r] & want) == want &&
		    (sw->acc[r] + (rest > 0.0 ? rest : 0.0)) * (1.0 + SWEEP_MARGIN) >= theta)
			sw->cand[k++] = r;
	}
	sw->ncand = k;
	if (reserve_exact(sw, k) == -1)
		return ev_err_nomem(err);
	if (exact_scores(sw, ph, n, sp, sw->cand, k, sw->exact, err) == -1)
		return -1;
	return (nh = rank_exact(sw, k, cap)) == SIZE_MAX ? ev_err_nomem(err) : (long long)nh;
}

/* A floor of the limit-th best score from the rows of the running top,
 * once it holds limit hits (ev_sweep_walk_top(): in sw->oldrow): each
 * one's exact score (exact_scores()), the best limit of those of every
 * top so far kept in a min-heap (sw->fscore), whose least is the floor
 * once it holds limit.  Those rows are hits scoring that much, so the
 * limit-th best of all scores at least as much: a threshold MaxScore may
 * prune with (Turtle and Flood, 1995), known a few walks in, where the
 * scores summed so far reach it only as the walks add up (the last pass
 * of "does the boundary layer ... induce a pressure gradient" at 1,000,000
 * chunks: 19.2 after seven walks, against a floor of 26.0 after three and
 * a limit-th best of 26.6).  Only the rows not scored before (marked
 * SCORED) are scored, sorted in sw->cand and scored in sw->exact, neither
 * in use until the walks are done; and only when their look-ups, one a
 * row and scoring phrase, are at most budget (nothing done else).
 * Returns 0, or -1 with *err set. */
static int
seed_floor(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, long long budget, struct ev_err *err)
{
	size_t k = 0, limit = (size_t)sp->limit;
	long long scoring = 0;

	if (sw->nold < limit)
		return 0;
	for (size_t i = 0; i < sw->nold; i++)
		if (!(sw->mark[sw->oldrow[i]] & SCORED))	/* (a top's rows are apart) */
			sw->cand[k++] = sw->oldrow[i];
	for (int i = 0; i < n; i++)
		scoring += sw->info[i].w != 0.0;
	if (k == 0 || (long long)k * scoring > budget)
		return 0;
	if (limit > sw->capfloor && (ev_grow(&sw->fscore, &sw->capfloor, limit, sizeof *sw->fscore,
	    16) == -1 || (sw->capfloor = 0, ev_grow(&sw->frow, &sw->capfloor, limit,
	    sizeof *sw->frow, 16)) == -1))
		return ev_err_nomem(err);
	qsort(sw->cand, k, sizeof *sw->cand, ev_sweep_cmp_row);
	if (reserve_exact(sw, k) == -1)
		return ev_err_nomem(err);
	if (exact_scores(sw, ph, n, sp, sw->cand, k, sw->exact, err) == -1)
		return -1;
	for (size_t j = 0; j < k; j++) {
		sw->mark[sw->cand[j]] |= SCORED;
		heap_insert(sw->fscore, sw->frow, &sw->nfloor, limit, sw->exact[j], sw->cand[j]);
	}
	/* (less a margin: a floor must not pass the limit-th best score as
	 * a sum in another order would find it) */
	if (sw->nfloor == limit)
		sw->floor = sw->fscore[0] * (1.0 - SWEEP_MARGIN);
	share_theta(sw, sw->floor);
	return 0;
}

/* Room for the plan of n phrases (sw->info, sw->order, sw->count).
 * Returns 0 or -1 (out of memory; what was there is kept). */
static int
reserve_plan(struct ev_bm25_sweep *sw, int n)
{
	void *a;

	if (n <= sw->capinfo)
		return 0;
	if ((a = realloc(sw->info, (size_t)n * sizeof *sw->info)) == NULL)
		return -1;
	sw->info = a;
	if ((a = realloc(sw->order, (size_t)n * sizeof *sw->order)) == NULL)
		return -1;
	sw->order = a;
	if ((a = realloc(sw->count, (size_t)n * sizeof *sw->count)) == NULL)
		return -1;
	sw->count = a;
	sw->capinfo = n;
	return 0;
}

/* Whether phrase i (of ph, weights pw) must be counted, not read off the
 * dictionary: a scoring phrase of several positions or alternatives whose
 * IDF is not known yet. */
static int
costly_count(const struct ev_bm25_phrase *ph, int i, const struct ev_bm25_weights *pw)
{
	return !ph[i].filter && (ph[i].ntok > 1 || ph[i].nalt[0] > 1) &&
	    !(pw != NULL && pw->idf != NULL && i < pw->n && pw->idf[i] > 0.0);
}

/* A share of count_phrases(), as a thread runs it. */
struct count_run {
	struct ev_bm25_sweep *sw;
	const struct ev_bm25_phrase *ph;
	int n, share;			/* the costly words' k-th, for k % 2 == share */
	const struct sweep_params *sp;
	long long *count;
	int ret;
	struct ev_err err;
};

/* Count, into c->count, the rows in c->sw's range holding each costly
 * phrase of several positions, and the rows holding every other costly
 * one (a word's alternatives, counted whole) of c->share. */
static void
run_count(void *arg)
{
	struct count_run *c = arg;

	c->ret = 0;
	for (int i = 0, k = 0; i < c->n && c->ret == 0; i++) {
		c->count[i] = -1;
		if (costly_count(c->ph, i, c->sp->pw) && (c->ph[i].ntok > 1 || k++ % 2 == c->share) &&
		    (c->count[i] = phrase_count(c->sw, &c->ph[i], c->sp, &c->err)) < 0)
			c->ret = -1;
	}
}

static struct ev_bm25_sweep *new_half(struct ev_bm25_sweep *sw);

/* The rows holding each costly phrase (costly_count()) into sw->count (-1
 * for the others): on two threads when sw's sweeps are split, each
 * walking the phrases of several positions in the half of the rows it
 * sweeps later (so that the split sweep finds their rows kept), and every
 * other word of alternatives.  Returns 0, or -1 with *err set. */
static int
count_phrases(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, struct ev_err *err)
{
	struct count_run mine = { sw, ph, n, 0, sp, sw->count, 0, { 0 } };
	struct count_run other = { NULL, ph, n, 1, sp, NULL, 0, { 0 } };
	int costly = 0;

	for (int i = 0; i < n; i++) {
		sw->count[i] = -1;
		costly += costly_count(ph, i, sp->pw);
	}
	if (costly == 0 || sw->worker == NULL || (other.sw = new_half(sw)) == NULL ||
	    reserve_plan(other.sw, n) == -1)
		return 0;	/* plan_sweep() counts them all as it meets them */
	other.count = other.sw->count;
	/* the halves of sweep_split() */
	sw->hi = other.sw->lo = sw->nrow / 2;
	ev_worker_run(sw->worker, run_count, &other);
	run_count(&mine);
	ev_worker_wait(sw->worker);
	sw->hi = sw->nrow;
	if (mine.ret == -1) {
		*err = mine.err;
		return -1;
	}
	if (other.ret == -1) {
		*err = other.err;
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (ph[i].ntok > 1 && mine.count[i] >= 0)
			mine.count[i] += other.count[i];
		else if (mine.count[i] < 0)
			mine.count[i] = other.count[i];
	return 0;
}

/* The IDF of phrase i of ph into *idf: the one the weights sp->pw know
 * already, else counted from the rows holding it (rows, or phrase_count()
 * when rows < 0) and kept in sp->pw for the passes after.  Returns 0, or
 * -1 with *err set. */
static int
phrase_idf(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int i,
    const struct sweep_params *sp, long long rows, double *idf, struct ev_err *err)
{
	struct ev_bm25_weights *pw = sp->pw;
	double *known = pw != NULL && pw->idf != NULL && i < pw->n ? &pw->idf[i] : NULL;

	if (known != NULL && *known > 0.0) {
		*idf = *known;
		return 0;
	}
	if (rows < 0 && (rows = phrase_count(sw, &ph[i], sp, err)) < 0)
		return -1;
	*idf = ev_bm25_idf(sp->rows, (double)rows);
	if (known != NULL)
		*known = *idf;
	return 0;
}

/* Whether scoring phrase x (sw->info) comes before y in the walk: its
 * bound for each row of its list (ub / rows) is higher, then its bound.
 * Walking phrases whole until the bounds left sum below theta, and looking
 * those left up in the candidates, the order that reads the fewest entries
 * for the bound it spends puts the short lists of high bounds first and the
 * long lists of low bounds last: with feedback, dozens of common words of
 * small weights, whose bounds sum above theta until most are spent, and
 * which, last, are looked up in the few candidates that can still reach it
 * rather than read whole.  (By bound alone, the 300 queries of make
 * bench-scale over its 1,000,000 documents, one process each, took 7 %
 * more CPU time; the same hits.) */
static int
walks_before(const struct phrase_info *x, const struct phrase_info *y)
{
	double px = x->ub / (double)(x->rows > 1 ? x->rows : 1), py = y->ub / (double)(y->rows > 1 ? y->rows : 1);

	return px != py ? px > py : x->ub > y->ub;
}

/* Each phrase's weight, IDF, bound and filter twin into sw->info, and the
 * order of the walk into sw->order (scoring phrases, walks_before(),
 * then the filter phrases without a twin).  Returns the number ordered, 0
 * when the sweep cannot be pruned (a scoring phrase weighs 0 or less, or a
 * filter phrase weighs something), or -1 with *err set. */
static int
plan_sweep(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, struct ev_err *err)
{
	struct ev_bm25_weights *pw = sp->pw;
	int m = 0;

	if (reserve_plan(sw, n) == -1)
		return ev_err_nomem(err);
	for (int i = 0; i < n; i++) {
		struct phrase_info *p = &sw->info[i];

		p->w = ev_bm25_weight(pw, i);
		p->idf = p->ub = 0.0;
		p->twin = -1;
		p->also_filter = 0;
		if (ph[i].filter ? p->w != 0.0 : !(p->w > 0.0))
			return 0;
	}
	if (count_phrases(sw, ph, n, sp, err) == -1)
		return -1;
	for (int i = 0; i < n; i++) {
		struct phrase_info *p = &sw->info[i];
		long long rows = sw->count[i];

		p->rows = phrase_rows_bound(sw, &ph[i]);
		if (ph[i].filter) {
			for (int j = 0; j < n && p->twin < 0; j++)
				if (!ph[j].filter && same_phrase(&ph[i], &ph[j]))
					p->twin = j;
			if (p->twin >= 0)
				sw->info[p->twin].also_filter = 1;
			continue;
		}
		if (phrase_idf(sw, ph, i, sp, rows, &p->idf, err) == -1)
			return -1;
		p->ub = p->w * p->idf * (sp->k1 + 1.0);
	}
	for (int i = 0; i < n; i++) {
		int j;

		if (ph[i].filter)
			continue;
		for (j = m; j > 0 && walks_before(&sw->info[i], &sw->info[sw->order[j - 1]]); j--)
			sw->order[j] = sw->order[j - 1];
		sw->order[j] = i;
		m++;
	}
	for (int i = 0; i < n; i++)
		if (ph[i].filter && sw->info[i].twin < 0)
			sw->order[m++] = i;
	return m;
}

/* Room for a top of cap rows (sw->top, sw->toprow, sw->oldrow).  Returns 0
 * or -1 (out of memory; what was there is kept). */
static int
reserve_top(struct ev_bm25_sweep *sw, size_t cap)
{
	double *t;
	long long *tr, *orow;

	if (cap <= sw->captop)
		return 0;
	if ((t = realloc(sw->top, cap * sizeof *t)) != NULL)
		sw->top = t;
	if ((tr = realloc(sw->toprow, cap * sizeof *tr)) != NULL)
		sw->toprow = tr;
	if ((orow = realloc(sw->oldrow, cap * sizeof *orow)) != NULL)
		sw->oldrow = orow;
	if (t == NULL || tr == NULL || orow == NULL)
		return -1;
	sw->captop = cap;
	return 0;
}

/* The filter group's twins a pruned sweep walks (plan_sweep(): m phrases
 * in sw->order): the scoring phrases some filter phrase is of the same
 * tokens as.  Once they are walked whole, every row that can be a hit is
 * touched.  0 when the sweep has no filter group, or a filter phrase has
 * no twin (it is looked up: the rows it holds may be untouched). */
static int
filter_twins(const struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int m,
    const struct sweep_params *sp)
{
	int twins = 0;

	if (!sp->has_filter)
		return 0;
	for (int o = 0; o < m; o++) {
		int i = sw->order[o];

		if (ph[i].filter)
			return 0;	/* (the plan orders only the twinless ones) */
		twins += sw->info[i].also_filter;
	}
	return twins;
}

/* The candidates of a pruned sweep, once its walks are done: the rows
 * touched that can still be among the best (can_reach()), in rowid
 * order, marked CANDIDATE; a few are sorted off the list of rows touched,
 * many read off the marks (no sort), eight at a time, a word of eight
 * marks 0 skipped unread further ("flow" at 1,000,000 chunks: 56,000 of
 * 1.6 million rows touched, 4 % less CPU time for the query; the 300
 * bench-scale queries, 3 %). */
static void
collect_candidates(struct ev_bm25_sweep *sw, unsigned char need, double rest, double eff)
{
	const double *acc = sw->acc;
	unsigned char *mark = sw->mark;	/* (locals: mark's writes alias sw) */
	long long *cand = sw->cand;
	size_t n = 0;

	if (sw->ntouched < (size_t)((sw->hi - sw->lo) / 64)) {
		if (sw->ntouched > 1)
			qsort(sw->touched, sw->ntouched, sizeof *sw->touched, ev_sweep_cmp_row);
		for (size_t i = 0; i < sw->ntouched; i++) {
			long long r = sw->touched[i];
			int keep = can_reach(acc[r], mark[r], need, rest, eff);

			mark[r] |= (unsigned char)(keep ? CANDIDATE : 0);
			cand[n] = r;
			n += (size_t)keep;
		}
	} else
		for (long long r = sw->lo, hi = sw->hi; r < hi;) {
			/* eight rows at a time, none read further when none
			 * was touched (their marks' word 0) */
			long long end = (r | 7) + 1 < hi ? (r | 7) + 1 : hi;
			uint64_t marks;

			if (end - r == 8) {
				memcpy(&marks, mark + r, sizeof marks);
				if (marks == 0) {
					r = end;
					continue;
				}
			}
			for (; r < end; r++) {
				unsigned char m = mark[r];
				int keep = (m != 0) & can_reach(acc[r], m, need, rest, eff);

				mark[r] = (unsigned char)(m | (keep ? CANDIDATE : 0));
				cand[n] = r;
				n += (size_t)keep;
			}
		}
	sw->ncand = n;
	sw->cand_least = 0.0;
}

/* Whether a phrase of sw->order[o..m) marks the rows it is in as of the
 * filter group when it is added: a filter phrase, or its twin. */
static int
marks_filter(const struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int o, int m,
    const struct sweep_params *sp)
{
	if (!sp->has_filter)
		return 0;
	for (; o < m; o++)
		if (ph[sw->order[o]].filter || sw->info[sw->order[o]].also_filter)
			return 1;
	return 0;
}

/* The pruned sweep, with m phrases ordered by plan_sweep(). */
static long long
sweep_pruned(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n, int m,
    const struct sweep_params *sp, struct ev_err *err)
{
	unsigned char want = IN_OTHERS | (sp->has_filter ? IN_FILTER : 0), need = 0;
	double rest = 0.0, theta = 0.0, eff;
	int o, found = 0, twins = filter_twins(sw, ph, m, sp);

	if (reserve_top(sw, (size_t)sp->limit) == -1)
		return ev_err_nomem(err);
	sw->ntop = sw->nold = 0;
	sw->floor = 0.0;
	sw->nfloor = 0;
	for (o = 0; o < m; o++)
		rest += sw->info[sw->order[o]].ub;
	/* walk whole, in walks_before()'s order, while a row none of them holds
	 * could still be among the best */
	for (o = 0; o < m; o++) {
		int i = sw->order[o];

		if (ph[i].filter)
			break;	/* the filter phrases: looked up */
		if (walk_add(sw, &ph[i], IN_OTHERS | (sw->info[i].also_filter ? IN_FILTER : 0),
		    sw->info[i].w, sw->info[i].idf, sp, 0, want, err) == -1)
			return -1;
		rest -= sw->info[i].ub;
		if ((found = ev_sweep_walk_top(sw, want, (size_t)sp->limit, &theta)))
			share_theta(sw, theta);
		/* when the walks so far have limit hits and more are to come,
		 * if its look-ups cost less than the next walk */
		if (found && o + 1 < m && seed_floor(sw, ph, n, sp,
		    sw->info[sw->order[o + 1]].rows / SEED_LOOKUP_ENTRIES, err) == -1)
			return -1;
		eff = sweep_theta(sw, found, theta);
		if (eff > 0.0 && rest * (1.0 + SWEEP_MARGIN) < eff) {
			o++;
			break;
		}
		/* every row holding a filter phrase is touched: no other can
		 * be a hit, whatever the bounds left */
		if (sw->info[i].also_filter && twins > 0 && --twins == 0) {
			need = IN_FILTER;
			o++;
			break;
		}
	}
	collect_candidates(sw, need, rest, sweep_theta(sw, found, theta));
	sw->pruned = m - o;
	for (; o < m; o++) {
		int i = sw->order[o];
		double t;

		/* no more than limit candidates: each has its exact score
		 * next whatever is looked up, and when no phrase left marks
		 * rows of the filter group, a look-up can only drop some, as
		 * costly as scoring them */
		if (sw->ncand <= (size_t)sp->limit && !marks_filter(sw, ph, o, m, sp))
			break;

		if (look_up(sw, &ph[i], &sw->info[i], ph[i].filter, sp, want, err) == -1)
			return -1;
		if (!ph[i].filter)
			rest -= sw->info[i].ub;
		/* the scores grew, or more rows are hits: a higher theta leaves
		 * more behind.  The running top, as over the walks: only the
		 * rows the look-up changed were offered.  (A row of it may have
		 * left the candidates, by the other half's theta: it is a hit
		 * all the same, scoring at least what it has summed, so the
		 * limit-th best of the top is still a floor.) */
		if (ev_sweep_walk_top(sw, want, (size_t)sp->limit, &t) && (!found || t > theta)) {
			theta = t;
			found = 1;
			share_theta(sw, theta);
		}
		if ((eff = sweep_theta(sw, found, theta)) > 0.0)
			drop_hopeless(sw, rest, eff);
	}
	return exact_best(sw, ph, n, sp, want, rest, err);
}

/* The upper half's sweeper of sw (its own work arrays, sw's score arrays),
 * over all the rows until a split sweep gives it its half.  Returns it, or
 * NULL (out of memory). */
static struct ev_bm25_sweep *
new_half(struct ev_bm25_sweep *sw)
{
	struct ev_bm25_sweep *h = sw->half;

	if (h == NULL) {
		if ((h = calloc(1, sizeof *h)) == NULL)
			return NULL;
		h->p = sw->p;
		h->nrow = sw->nrow;
		if ((h->alts = calloc(EV_BM25_MAX_PHRASE, sizeof *h->alts)) == NULL ||
		    ev_sweep_scratch(h) == -1) {
			ev_bm25_sweep_free(h);
			return NULL;
		}
		h->acc = sw->acc;
		h->mark = sw->mark;
		sw->half = h;
	}
	h->lo = 0;
	h->hi = h->nrow;
	h->whole_weights = sw->whole_weights;
	return h;
}

/* The upper half's sweeper of sw with sw's plan of n phrases.  Returns it,
 * or NULL (out of memory). */
static struct ev_bm25_sweep *
upper_half(struct ev_bm25_sweep *sw, int n)
{
	struct ev_bm25_sweep *h = new_half(sw);

	if (h == NULL || reserve_plan(h, n) == -1)
		return NULL;
	memcpy(h->info, sw->info, (size_t)n * sizeof *h->info);
	memcpy(h->order, sw->order, (size_t)n * sizeof *h->order);
	return h;
}

/* A half of a split sweep, as its thread runs it. */
struct half_run {
	struct ev_bm25_sweep *sw;
	const struct ev_bm25_phrase *ph;
	int n, m;
	const struct sweep_params *sp;
	long long nhit;
	struct ev_err err;
};

static void
run_half(void *arg)
{
	struct half_run *h = arg;

	h->nhit = sweep_pruned(h->sw, h->ph, h->n, h->m, h->sp, &h->err);
	h->sw->dirty = 1;
}

/* The pruned sweep split in two: the rows below the middle swept here, those
 * above on a second thread, each pruning with the better theta of the two,
 * and their best limit hits merged (each half's are exact, so the merge
 * is).  Returns the hits, in sw->out, or -1 with *err set. */
static long long
sweep_split(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n, int m,
    const struct sweep_params *sp, struct ev_err *err)
{
	struct ev_bm25_sweep *up = upper_half(sw, n);
	struct half_run hr = { up, ph, n, m, sp, -1, { 0 } };
	long long mid = sw->nrow / 2, nlow, i = 0, j = 0, k = 0;

	if (up == NULL)
		return ev_err_nomem(err);
	sw->theta_bits = 0;
	sw->shared = up->shared = &sw->theta_bits;
	sw->hi = up->lo = mid;
	up->hi = sw->nrow;
	if (sw->worker != NULL)
		ev_worker_run(sw->worker, run_half, &hr);
	nlow = sweep_pruned(sw, ph, n, m, sp, err);
	if (sw->worker != NULL)
		ev_worker_wait(sw->worker);
	else
		run_half(&hr);	/* no thread to be had: one after the other */
	sw->hi = sw->nrow;
	sw->shared = up->shared = NULL;
	sw->pruned = sw->pruned > up->pruned ? sw->pruned : up->pruned;
	if (nlow < 0)
		return -1;
	if (hr.nhit < 0) {
		*err = hr.err;
		return -1;
	}
	if ((size_t)sp->limit > sw->capout && ev_grow(&sw->out, &sw->capout,
	    (size_t)sp->limit - 1, sizeof *sw->out, 16) == -1)
		return ev_err_nomem(err);
	while (k < sp->limit && (i < nlow || j < hr.nhit))
		sw->out[k++] = j >= hr.nhit || (i < nlow && !after(&sw->heap[i], &up->heap[j])) ?
		    sw->heap[i++] : up->heap[j++];
	return k;
}

/* Whether the list or positions beginning at start were asked for in
 * this query (ask_lists()); if not, they are listed as asked (when there
 * is memory for it). */
static int
asked_before(struct ev_bm25_sweep *sw, const void *start)
{
	for (size_t i = 0; i < sw->nasked; i++)
		if (sw->asked[i] == start)
			return 1;
	if (sw->nasked < sw->capasked ||
	    ev_grow(&sw->asked, &sw->capasked, sw->nasked + 1, sizeof *sw->asked, 64) == 0)
		sw->asked[sw->nasked++] = start;
	return 0;
}

/* Ask the kernel for the lists of every token of the n phrases ph at
 * once (ev_postings_willneed()), and the positions of those in phrases of
 * several positions: those out of the page cache are read side by side
 * while the sweep begins, not one fault after another; and just the lists,
 * where a fault reads ahead around it.  Each once a query: a word is in
 * its pairs and in both passes (Cranfield 65 at 1,000,000 chunks asked
 * 173 times for 68 ranges, each a system call of 3-5 us on the first
 * thread before the sweep begins). */
static void
ask_lists(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n)
{
	struct ev_postings_cursor c;

	for (int i = 0; i < n; i++) {
		int ntok = 0;

		for (int j = 0; j < ph[i].ntok; j++)
			ntok += ph[i].nalt[j];
		for (int k = 0; k < ntok; k++) {
			int list, pos;

			if (ev_postings_term(sw->p, ph[i].tok[k], ph[i].len[k], &c) <= 0)
				continue;	/* (no such term, or corrupt: nothing to ask) */
			list = !asked_before(sw, c.base);
			pos = ph[i].ntok > 1 && !asked_before(sw, c.pos_base);
			if (list || pos)
				ev_postings_willneed(&c, pos);
		}
	}
}

/* Every phrase walked whole, in FTS5's order (weights of any sign).  (The
 * caller clears the accumulators, failed or not.) */
static long long
sweep_all(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, struct ev_err *err)
{
	struct ev_bm25_weights *pw = sp->pw;
	struct adding a;
	double rows = sp->rows;
	long long nhit;

	for (int i = 0; i < n; i++) {
		double w = ev_bm25_weight(pw, i), idf = 0.0;
		double *known = pw != NULL && pw->idf != NULL && i < pw->n ? &pw->idf[i] : NULL;

		if (walk_phrase(sw, &ph[i], sp, 0, err) == -1)
			return -1;
		if (w != 0.0) {
			if (known != NULL && *known > 0.0)
				idf = *known;
			else {
				idf = ev_bm25_idf(rows, (double)sw->np);
				if (known != NULL)
					*known = idf;
			}
		}
		ev_sweep_adding_start(sw, &a, ph[i].filter ? IN_FILTER : IN_OTHERS, w, idf, 0, 0);
		if (ev_sweep_add_rows(sw, &a, sp) == -1)
			return ev_sweep_corrupt(sw, err);
	}
	if ((nhit = ev_sweep_best_rows(sw, sp->has_filter, sp->limit)) < 0)
		return ev_err_nomem(err);
	return nhit;
}

/* Clear what the last sweep left in a sweeper's accumulators (arg), as a
 * job of clear_rows(). */
static void
clear_half(void *arg)
{
	ev_sweep_clear_touched(arg);
}

/* Clear what the last sweep left in the accumulators of sw and its
 * upper half's, if anything: at the start of the next sweep rather than
 * at the end of each, so that a process's last sweep (a query of the text
 * lane, as a user runs it) leaves its rows as they are, the process
 * exiting (at 1,000,000 chunks, two arrays of 11 MB and 1.4 MB
 * written whole, the rows touched being many).  After a split sweep,
 * each half's rows are cleared by the thread that swept them, the two
 * at once (before, this thread wrote both arrays whole and then the
 * upper half's again). */
static void
clear_rows(struct ev_bm25_sweep *sw)
{
	struct ev_bm25_sweep *up = sw->half != NULL && sw->half->dirty ? sw->half : NULL;
	long long hi = sw->hi;

	if (up != NULL && sw->worker != NULL)
		ev_worker_run(sw->worker, clear_half, up);
	else if (up != NULL)
		clear_half(up);
	if (sw->dirty) {
		if (up != NULL)
			sw->hi = up->lo;	/* (what sw swept of the split sweep) */
		ev_sweep_clear_touched(sw);
		sw->hi = hi;
		sw->dirty = 0;
	}
	if (up != NULL && sw->worker != NULL)
		ev_worker_wait(sw->worker);
	if (up != NULL)
		up->dirty = 0;
}

/* What ev_bm25_sweep() and ev_bm25_sweep_rows() share: sp set for the
 * phrases ph[0..n) (checked), the last sweep's rows cleared, and the
 * phrases narrowed (ev_sweep_narrow()) into *narrowed.  Returns 1, 0 when
 * limit is below 1 (nothing to do), or -1 with *err set. */
static int
sweep_begin(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    struct sweep_params *sp, const struct ev_bm25_phrase **narrowed, struct ev_err *err)
{
	struct ev_bm25_weights *pw = sp->pw;
	double tokens;

	sw->pruned = 0;
	if (pw != NULL && pw->tuned)
		sp->k1 = pw->k1, sp->b = pw->b;
	if (pw != NULL && pw->global) {
		sp->rows = pw->rows;
		tokens = pw->tokens;
	} else {
		sp->rows = ev_postings_rows(sw->p);
		tokens = ev_postings_tokens(sw->p);
	}
	sp->avgdl = sp->rows > 0 ? tokens / sp->rows : 1.0;
	ev_sweep_sweep_norms(sw->norm, sp);
	sp->norm = sw->norm;
	sw->whole_weights = ev_sweep_whole_weights(sp->colw, sp->ncolw);
	ev_sweep_byte_freqs(sw->byte_f, sw, sp->colw, sp->ncolw);
	sp->byte_f = sw->byte_f;
	for (int i = 0; i < n; i++) {
		sp->has_filter |= ph[i].filter;
		if (ph[i].ntok < 1 || ph[i].ntok > EV_BM25_MAX_PHRASE)
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "a swept phrase has %d tokens",
			    ph[i].ntok);
		for (int j = 0; j < ph[i].ntok; j++)
			if (ph[i].nalt[j] < 1 || ph[i].nalt[j] > EV_BM25_MAX_ALT)
				return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "a swept phrase has %d"
				    " alternatives at a position", ph[i].nalt[j]);
	}
	if (sp->limit < 1)
		return 0;
	ev_bm25_sweep_wait(sw);
	sw->released = 0;
	clear_rows(sw);
	ev_sweep_start_worker(sw);	/* (when it could not be had before) */
	if ((*narrowed = ev_sweep_narrow(sw, ph, n)) == NULL)
		return ev_err_nomem(err);
	return 1;
}

long long
ev_bm25_sweep(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const double *colw, int ncolw, struct ev_bm25_weights *pw, long long limit,
    const struct ev_bm25_hit **hits, struct ev_err *err)
{
	struct sweep_params sp = { colw, ncolw, pw, EV_BM25_K1, EV_BM25_B, 0, 0, 0, limit, NULL, NULL };
	long long nhit;
	int m, split, r;

	*hits = NULL;
	if ((r = sweep_begin(sw, ph, n, &sp, &ph, err)) <= 0)
		return r;
	ask_lists(sw, ph, n);
	if ((m = plan_sweep(sw, ph, n, &sp, err)) == -1)
		return -1;
	split = m > 0 && ev_sweep_splits(sw);
	if (split)
		nhit = sweep_split(sw, ph, n, m, &sp, err);
	else
		nhit = m == 0 ? sweep_all(sw, ph, n, &sp, err) : sweep_pruned(sw, ph, n, m, &sp, err);
	sw->dirty = 1;
	if (nhit >= 0)
		*hits = split ? sw->out : sw->heap;
	return nhit;
}

/* exact_scores() of some rows, as a thread runs it. */
struct rows_run {
	struct ev_bm25_sweep *sw;
	const struct ev_bm25_phrase *ph;
	int n;
	const struct sweep_params *sp;
	const long long *row;
	size_t k;
	double *score;
	int ret;
	struct ev_err err;
};

static void
run_rows(void *arg)
{
	struct rows_run *r = arg;

	r->ret = exact_scores(r->sw, r->ph, r->n, r->sp, r->row, r->k, r->score, &r->err);
}

/* Rows to score (ev_bm25_sweep_rows()) below which one thread scores them
 * all: a second thread's start costs about as much as 20 look-ups. */
#define SPLIT_ROWS_MIN 64

/* exact_scores() of the k rows sw->cand[0..k) (rising) into sw->exact,
 * when sw's sweeps are split, the rows of each half of the store on its
 * thread (the upper half's sweeper, with sw's plan of n phrases: the rows
 * each kept from its walks are those of its half).  Returns 0, or -1 with
 * *err set. */
static int
score_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, size_t k, struct ev_err *err)
{
	struct ev_bm25_sweep *up;
	struct rows_run hr;
	long long mid = sw->nrow / 2;
	size_t j = rows_from(sw->cand, k, mid);
	int ret;

	if (k < SPLIT_ROWS_MIN || !ev_sweep_splits(sw) || sw->worker == NULL ||
	    (up = upper_half(sw, n)) == NULL)
		return exact_scores(sw, ph, n, sp, sw->cand, k, sw->exact, err);
	hr = (struct rows_run){ up, ph, n, sp, sw->cand + j, k - j, sw->exact + j, 0, { 0 } };
	sw->hi = up->lo = mid;
	up->hi = sw->nrow;
	ev_worker_run(sw->worker, run_rows, &hr);
	ret = exact_scores(sw, ph, n, sp, sw->cand, j, sw->exact, err);
	ev_worker_wait(sw->worker);
	sw->hi = sw->nrow;
	if (ret == 0 && hr.ret == -1) {
		*err = hr.err;
		ret = -1;
	}
	return ret;
}

long long
ev_bm25_sweep_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const double *colw, int ncolw, struct ev_bm25_weights *pw, const long long *rows,
    size_t nrows, long long limit, const struct ev_bm25_hit **hits, struct ev_err *err)
{
	struct sweep_params sp = { colw, ncolw, pw, EV_BM25_K1, EV_BM25_B, 0, 0, 0, limit, NULL, NULL };
	size_t nh, k = 0;
	int r;

	*hits = NULL;
	if ((r = sweep_begin(sw, ph, n, &sp, &ph, err)) <= 0)
		return r;
	if (reserve_plan(sw, n) == -1 || reserve_exact(sw, nrows) == -1)
		return ev_err_nomem(err);
	/* the IDFs not known yet (a feedback term of several alternatives:
	 * their union counted) on both threads */
	if (count_phrases(sw, ph, n, &sp, err) == -1)
		return -1;
	for (int i = 0; i < n; i++) {
		struct phrase_info *p = &sw->info[i];

		p->w = ev_bm25_weight(pw, i);
		p->idf = 0.0;
		if (ph[i].filter || p->w == 0.0)
			continue;	/* (the rows hold one of the filter group's) */
		if (phrase_idf(sw, ph, i, &sp, sw->count[i], &p->idf, err) == -1)
			return -1;
	}
	/* (sw->cand: no walk is made) */
	for (size_t j = 0; j < nrows && k < (size_t)sw->nrow; j++)
		if (rows[j] >= 0 && rows[j] < sw->nrow)
			sw->cand[k++] = rows[j];
	qsort(sw->cand, k, sizeof *sw->cand, ev_sweep_cmp_row);
	if (score_rows(sw, ph, n, &sp, k, err) == -1)
		return -1;
	if ((nh = rank_exact(sw, k, (size_t)limit)) == SIZE_MAX)
		return ev_err_nomem(err);
	*hits = sw->heap;
	return (long long)nh;
}

int
ev_bm25_sweep_pruned(const struct ev_bm25_sweep *sw)
{
	return sw->pruned;
}
