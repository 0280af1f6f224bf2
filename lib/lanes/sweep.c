/* sweep.c: the postings sweep's sweeper, a phrase's rows, the scores and
 * the hits.  See sweep.h. */
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

static void *
map_zeroed(size_t *size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), want = (*size + page - 1) / page * page;
	void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	*size = want;
#ifdef MADV_NOHUGEPAGE
	(void)madvise(p, want, MADV_NOHUGEPAGE);	/* (a hint; "always" mode too) */
#endif
	return p;
}

/* Map every page of [p, p + n), written and zeroed, in one call.  For the
 * per-row arrays, as the sweeper is made, half on each thread: a query that
 * touches 500,000 of 1.6 M rows writes to nearly all their pages, each
 * otherwise a fault of its own, and, its first touch a read of a row's mark
 * that maps the zero page, a second fault to copy it, flushing the other
 * sweeping thread's TLB.  (All of it on the second thread, while the first
 * read the query, left the first waiting for it at the first pass: the 30
 * bench-scale queries back to back, 40.9 ms against 36.9 with the halves;
 * run as bench-scale runs them, 48.4 against 43.9.) */
static void
populate(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	(void)madvise(p, n, MADV_POPULATE_WRITE);	/* (Linux 5.14: else faults) */
#else
	(void)p;
	(void)n;
#endif
}

/* Where the upper half of the pages of sw's per-row arrays begins, in bytes. */
static size_t
rows_half(const struct ev_bm25_sweep *sw)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return sw->rows_size / 2 / page * page;
}

/* The upper half of the pages of sw's per-row arrays (populate()), as a job
 * of its second thread. */
static void
populate_upper(void *arg)
{
	struct ev_bm25_sweep *sw = arg;

	populate((unsigned char *)sw->acc + rows_half(sw), sw->rows_size - rows_half(sw));
}

/* The per-row arrays acc and mark of sw (map_zeroed()), in one mapping.
 * Returns 0 or -1. */
static int
row_arrays(struct ev_bm25_sweep *sw)
{
	sw->rows_size = (size_t)sw->nrow * (sizeof *sw->acc + 1);
	if ((sw->acc = map_zeroed(&sw->rows_size)) == NULL)
		return -1;
	sw->mark = (unsigned char *)(sw->acc + sw->nrow);
	sw->owns_rows = 1;
	return 0;
}

/* sw's work arrays of a row each (touched, cand, own_row, own_f) and the
 * kept rows (kept_row, kept_f), in one mapping (map_zeroed()) whose pages
 * are used as the rows come: no array ever grows, so none is copied, and
 * each is used from its start, a query writing a few megabytes of some.
 * Returns 0 or -1. */
int
ev_sweep_scratch(struct ev_bm25_sweep *sw)
{
	size_t n = (size_t)sw->nrow, row = sizeof(long long), f = sizeof(double);
	unsigned char *p;

	sw->kept_cap = n < KEPT_ROWS_MAX / 4 ? 4 * n : KEPT_ROWS_MAX;
	/* the rows touched are listed while they are few enough to be read
	 * off the list (ev_sweep_clear_touched(), collect_candidates()); past that,
	 * the marks are read, and the list stops at a 16th of the rows (its
	 * last entry written over, branch-free) */
	sw->touched_cap = n / 16 + 1;
	sw->scratch_size = (sw->touched_cap + 1) * row + n * (2 * row + f) +
	    sw->kept_cap * (row + f);
	if ((p = sw->scratch = map_zeroed(&sw->scratch_size)) == NULL)
		return -1;
	sw->touched = (long long *)p;
	sw->cand = (long long *)(p += (sw->touched_cap + 1) * row);
	sw->own_row = (long long *)(p += n * row);
	sw->own_f = (double *)(p += n * row);
	sw->kept_row = (long long *)(p += n * f);
	sw->kept_f = (double *)(p + sw->kept_cap * row);
	return 0;
}

void
ev_bm25_sweep_wait(struct ev_bm25_sweep *sw)
{
	if (sw->background) {
		ev_worker_wait(sw->worker);
		sw->background = 0;
	}
}

int
ev_bm25_sweep_background(struct ev_bm25_sweep *sw, void (*fn)(void *), void *arg)
{
	ev_bm25_sweep_wait(sw);
	if (sw->worker == NULL) {
		fn(arg);
		return 0;
	}
	ev_worker_run(sw->worker, fn, arg);
	sw->background = 1;
	return 1;
}

/* Whether sw's pruned sweeps are split over two threads. */
int
ev_sweep_splits(const struct ev_bm25_sweep *sw)
{
	return sw->split_rows > 0 && sw->nrow >= sw->split_rows;
}

/* The second thread of sw's split sweeps (worker.h), made as soon as sw
 * splits them: by the first job of the first query, a thread made then
 * would still wait to be scheduled.  Without it (no thread to be had),
 * the halves are swept one after the other. */
void
ev_sweep_start_worker(struct ev_bm25_sweep *sw)
{
	if (sw->worker == NULL && ev_sweep_splits(sw))
		sw->worker = ev_worker_new();
}

struct ev_bm25_sweep *
ev_bm25_sweep_new(const struct ev_postings *p, struct ev_err *err)
{
	struct ev_bm25_sweep *sw = calloc(1, sizeof *sw);

	if (sw == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	sw->p = p;
	sw->nrow = ev_postings_maxrowid(p) + 1;
	sw->lo = 0;
	sw->hi = sw->nrow;
	sw->split_rows = ev_worker_processors() > 1 ? EV_BM25_SPLIT_ROWS : 0;
	if ((sw->alts = calloc(EV_BM25_MAX_PHRASE, sizeof *sw->alts)) == NULL ||
	    row_arrays(sw) == -1 || ev_sweep_scratch(sw) == -1) {
		ev_bm25_sweep_free(sw);
		ev_err_nomem(err);
		return NULL;
	}
	ev_sweep_start_worker(sw);
	/* the arrays' pages, half on each thread (both on this one without
	 * a second) */
	ev_bm25_sweep_background(sw, populate_upper, sw);
	populate(sw->acc, rows_half(sw));
	return sw;
}

/* Give back the pages of the upper half of sw's per-row arrays and of
 * its upper half's work arrays, and unmap the first half of the postings
 * file's (as a job of its second thread: release_pages()). */
static void
release_upper(void *arg)
{
	struct ev_bm25_sweep *sw = arg;

	(void)madvise((unsigned char *)sw->acc + rows_half(sw), sw->rows_size - rows_half(sw),
	    MADV_DONTNEED);
	if (sw->half != NULL && sw->half->scratch != NULL)
		(void)madvise(sw->half->scratch, sw->half->scratch_size, MADV_DONTNEED);
	ev_postings_unmap_pages(sw->p, 0, 2);
}

/* The other half of release_upper(): the lower half of the pages of sw's
 * per-row arrays, its own work arrays', and the second half of the
 * postings file's. */
static void
release_lower(struct ev_bm25_sweep *sw)
{
	(void)madvise(sw->acc, rows_half(sw), MADV_DONTNEED);
	if (sw->scratch != NULL)
		(void)madvise(sw->scratch, sw->scratch_size, MADV_DONTNEED);
	ev_postings_unmap_pages(sw->p, 1, 2);
}

/* Whether sw's pages are given back before they are unmapped. */
static int
releases(const struct ev_bm25_sweep *sw)
{
	return sw->worker != NULL && sw->owns_rows && sw->acc != NULL;
}

/* Give back the pages sw's arrays hold, and unmap those of the postings
 * file, half on each thread, before they are unmapped: a process's exit
 * (or munmap(), which holds the mapping's lock for writing) frees them on
 * one thread, a page at a time, where MADV_DONTNEED holds it for reading,
 * so that both threads free theirs at once.  (At 1,000,000 chunks, 12.4
 * MB of per-row arrays, the work arrays' pages the query wrote, and the
 * file's pages it mapped.)  Not again when ev_bm25_sweep_release() gave
 * them back after the last sweep: going over the file's mapping again
 * would take as long as the first time. */
static void
release_pages(struct ev_bm25_sweep *sw)
{
	if (!releases(sw))
		return;
	ev_bm25_sweep_wait(sw);
	if (sw->released)
		return;
	ev_worker_run(sw->worker, release_upper, sw);
	release_lower(sw);
	ev_worker_wait(sw->worker);
}

void
ev_bm25_sweep_release(struct ev_bm25_sweep *sw)
{
	if (!releases(sw))
		return;
	release_upper(sw);
	release_lower(sw);
	sw->released = 1;
}

void
ev_bm25_sweep_free(struct ev_bm25_sweep *sw)
{
	if (sw == NULL)
		return;
	release_pages(sw);
	ev_bm25_sweep_free(sw->half);
	ev_worker_free(sw->worker);
	sw->half = NULL;
	if (sw->owns_rows && sw->acc != NULL)
		munmap(sw->acc, sw->rows_size);
	if (sw->scratch != NULL)
		munmap(sw->scratch, sw->scratch_size);
	free(sw->out);
	free(sw->keys);
	free(sw->minor);
	free(sw->alts);
	free(sw->heap);
	free(sw->info);
	free(sw->order);
	free(sw->count);
	free(sw->exact);
	free(sw->top);
	free(sw->toprow);
	free(sw->oldrow);
	free(sw->fscore);
	free(sw->frow);
	free(sw->rowbits);
	free(sw->nph);
	free(sw->ntok);
	free(sw->nlen);
	free(sw->noff);
	free(sw->nnalt);
	ev_buf_release(&sw->nstr);
	ev_bm25_sweep_forget(sw);
	free(sw->kept);
	free(sw->asked);
	ev_buf_release(&sw->key);
	free(sw);
}

void
ev_bm25_sweep_forget(struct ev_bm25_sweep *sw)
{
	for (size_t i = 0; i < sw->nkept; i++)
		free(sw->kept[i].key);
	sw->nkept = 0;
	sw->kept_rows = 0;
	sw->nasked = 0;
	if (sw->half != NULL)
		ev_bm25_sweep_forget(sw->half);
}

void
ev_bm25_sweep_split(struct ev_bm25_sweep *sw, long long min_rows)
{
	ev_bm25_sweep_wait(sw);
	sw->split_rows = min_rows;
	if (!ev_sweep_splits(sw)) {
		ev_worker_free(sw->worker);
		sw->worker = NULL;
	}
	ev_sweep_start_worker(sw);
}

int
ev_sweep_corrupt(const struct ev_bm25_sweep *sw, struct ev_err *err)
{
	return ev_postings_corrupt(sw->p, err);
}

/* Keep the row r with frequency f as one of the phrase's.  Returns 0, or
 * -1 when the phrase has more rows than the dictionary says (corrupt). */
static int
phrase_row(struct ev_bm25_sweep *sw, long long r, double f)
{
	if (sw->np == sw->capp)
		return -1;
	sw->prow[sw->np] = r;
	sw->pf[sw->np++] = f;
	return 0;
}

static inline double
col_weight(const double *colw, int ncolw, int col)
{
	return col < ncolw ? colw[col] : 1.0;
}

int
ev_sweep_whole_weights(const double *colw, int ncolw)
{
	for (int i = 0; i < ncolw; i++)
		if (!(colw[i] >= 0.0 && colw[i] <= (double)EV_SWEEP_WHOLE_MAX && colw[i] == floor(colw[i])))
			return 0;
	return 1;
}

/* The instances of the cursor c's term in its row, and their frequency *f
 * (token_freq()): a column's count times its weight, when sw's weights
 * are whole (EV_SWEEP_WHOLE_MAX), the same to the bit.  Returns their
 * number. */
static inline int
cursor_freq(const struct ev_bm25_sweep *sw, const struct ev_postings_cursor *c, const double *colw,
    int ncolw, double *f)
{
	int hits = 0;

	if (sw->whole_weights && c->pos_count < EV_SWEEP_WHOLE_MAX) {
		double sum = 0.0;

		for (int col = 0; col < c->ncol; col++) {
			sum += (double)c->count[col] * col_weight(colw, ncolw, col);
			hits += (int)c->count[col];
		}
		*f = sum;
		return hits;
	}
	*f = 0.0;
	for (int col = 0; col < c->ncol; col++)
		for (uint32_t k = 0; k < c->count[col]; k++) {
			*f += col_weight(colw, ncolw, col);
			hits++;
		}
	return hits;
}

/* A one-token phrase's frequency in the row of the cursor c: every
 * instance counts its column's weight, in the order FTS5 visits them. */
static inline double
token_freq(const struct ev_bm25_sweep *sw, const struct ev_postings_cursor *c, const double *colw,
    int ncolw)
{
	double f;

	cursor_freq(sw, c, colw, ncolw, &f);
	return f;
}

/* The rows of a one-token phrase, and its frequency in each. */
int
ev_sweep_one_token(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, const double *colw, int ncolw,
    struct ev_err *err)
{
	int r = sw->lo > 0 ? ev_postings_seek(c, sw->lo) : ev_postings_next(c);

	for (; r == 1 && c->rowid < sw->hi; r = ev_postings_next(c))
		if (phrase_row(sw, c->rowid, token_freq(sw, c, colw, ncolw)) == -1)
			return ev_sweep_corrupt(sw, err);
	return r == -1 ? ev_sweep_corrupt(sw, err) : 0;
}

static void
alts_min(struct alts *a)
{
	a->rowid = -1;
	for (int i = 0; i < a->n; i++)
		if (a->live[i] && (a->rowid < 0 || a->c[i].rowid < a->rowid))
			a->rowid = a->c[i].rowid;
}

/* Start a on the lists of tok[0..n).  Returns 0, or -1 (corrupt). */
static int
alts_start(struct alts *a, const struct ev_postings *p, const char *const *tok, const int *len, int n)
{
	a->n = n;
	for (int i = 0; i < n; i++) {
		ev_postings_term(p, tok[i], len[i], &a->c[i]);
		if ((a->live[i] = ev_postings_next(&a->c[i])) == -1)
			return -1;
	}
	alts_min(a);
	return 0;
}

/* Step past the current row, or to the first row at or after target.
 * Returns 0, or -1 (corrupt). */
static int
alts_seek(struct alts *a, long long target)
{
	for (int i = 0; i < a->n; i++)
		if (a->live[i] && a->c[i].rowid < target &&
		    (a->live[i] = ev_postings_seek(&a->c[i], target)) == -1)
			return -1;
	alts_min(a);
	return 0;
}

/* The alternative alone at the current row, or -1 when several are. */
static int
alts_one(const struct alts *a)
{
	int one = -1;

	for (int i = 0; i < a->n; i++)
		if (a->live[i] && a->c[i].rowid == a->rowid) {
			if (one >= 0)
				return -1;
			one = i;
		}
	return one;
}

static int
cmp_key(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* The n keys in[0..n) rising and each once into out (not overlapping in):
 * sorted, then each kept once. */
static int
sort_unique(uint64_t *out, const uint64_t *in, int n)
{
	int w = n > 0;

	memcpy(out, in, (size_t)n * sizeof *out);
	qsort(out, (size_t)n, sizeof *out, cmp_key);
	for (int i = 1; i < n; i++)
		if (out[i] != out[w - 1])
			out[w++] = out[i];
	return w;
}

/* ev_sweep_merge_runs() of two runs (a word and its stem: the common case), the
 * lesser key of the two heads taken each time, as the general merge takes
 * it: the same keys out. */
static int
merge_two(uint64_t *out, const uint64_t *in, const int *start)
{
	int i = start[0], ie = start[1], j = start[1], je = start[2], w = 0;

	while (i < ie || j < je) {
		/* (the first run's head on a tie, as the general merge) */
		uint64_t key = j == je || (i < ie && in[i] <= in[j]) ? in[i++] : in[j++];

		if (w > 0 && key < out[w - 1])
			return sort_unique(out, in, start[2]);
		if (w == 0 || key != out[w - 1])
			out[w++] = key;
	}
	return w;
}

int
ev_sweep_merge_runs(uint64_t *out, const uint64_t *in, const int *start, int nrun)
{
	int at[EV_BM25_MAX_ALT], w = 0;

	if (nrun == 2)
		return merge_two(out, in, start);
	memcpy(at, start, (size_t)nrun * sizeof *at);
	for (;;) {
		int best = -1;
		uint64_t key;

		for (int r = 0; r < nrun; r++)
			if (at[r] < start[r + 1] && (best < 0 || in[at[r]] < in[at[best]]))
				best = r;
		if (best < 0)
			return w;
		key = in[at[best]++];
		if (w > 0 && key < out[w - 1])
			return sort_unique(out, in, start[nrun]);
		if (w == 0 || key != out[w - 1])
			out[w++] = key;
	}
}

/* The positions at the current row, every alternative's, rising and each
 * once, into sw->keys from *at; returns their number, or -1 (corrupt) or
 * -2 (out of memory).  Several alternatives' positions are read after
 * room for them all, and merged from there. */
static int
alts_positions(struct ev_bm25_sweep *sw, struct alts *a, size_t *at)
{
	size_t total = 0, n0 = *at;
	int k = 0, here = 0, start[EV_BM25_MAX_ALT + 1];
	uint64_t *runs;

	for (int i = 0; i < a->n; i++)
		if (a->live[i] && a->c[i].rowid == a->rowid) {
			here++;
			for (int col = 0; col < a->c[i].ncol; col++)
				total += a->c[i].count[col];
		}
	if (n0 + (here > 1 ? 2 : 1) * total > sw->capkeys && ev_grow(&sw->keys, &sw->capkeys,
	    n0 + (here > 1 ? 2 : 1) * total, sizeof *sw->keys, 1024) == -1)
		return -2;
	runs = sw->keys + n0 + (here > 1 ? total : 0);
	here = 0;
	for (int i = 0; i < a->n; i++) {
		int m;

		if (!a->live[i] || a->c[i].rowid != a->rowid)
			continue;
		start[here++] = k;
		if ((m = ev_postings_positions(&a->c[i], runs + k)) < 0)
			return -1;
		k += m;
	}
	start[here] = k;
	if (here > 1)	/* (one list's positions are rising already) */
		k = ev_sweep_merge_runs(sw->keys + n0, runs, start, here);
	*at = n0 + (size_t)k;
	return k;
}

/* Whether key is among a[0..n) (rising). */
static int
has_key(const uint64_t *a, int n, uint64_t key)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (a[mid] == key)
			return 1;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Start sw->alts on the positions of the phrase ph.  Returns 0, or -1
 * (corrupt). */
int
ev_sweep_phrase_start(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph)
{
	const char *const *tok = ph->tok;
	const int *len = ph->len;

	for (int j = 0; j < ph->ntok; j++) {
		if (alts_start(&sw->alts[j], sw->p, tok, len, ph->nalt[j]) == -1)
			return -1;
		tok += ph->nalt[j];
		len += ph->nalt[j];
	}
	return 0;
}

/* The frequency *f of the phrase of nt positions (sw->alts, each on the
 * same row) in that row: its instances are the positions of its first
 * token followed, in the same column, by the others at the next positions,
 * each counting its column's weight.  Returns the instances, or -1
 * (corrupt) or -2 (out of memory). */
static int
row_freq(struct ev_bm25_sweep *sw, int nt, const double *colw, int ncolw, double *f)
{
	struct alts *a = sw->alts;
	int cnt[EV_BM25_MAX_PHRASE], hits = 0, r;
	size_t at = 0, start[EV_BM25_MAX_PHRASE];

	*f = 0.0;
	if (nt == 1 && (r = alts_one(&a[0])) >= 0)
		return cursor_freq(sw, &a[0].c[r], colw, ncolw, f);	/* its counts say it all */
	for (int j = 0; j < nt; j++) {
		start[j] = at;
		if ((r = cnt[j] = alts_positions(sw, &a[j], &at)) < 0)
			return r;
	}
	for (int i = 0; i < cnt[0]; i++) {
		uint64_t k = sw->keys[start[0] + (size_t)i];
		int j;

		for (j = 1; j < nt; j++)
			if ((k & 0xffffffffu) + (uint64_t)j > 0xffffffffu ||
			    !has_key(sw->keys + start[j], cnt[j], k + (uint64_t)j))
				break;
		if (j == nt) {
			*f += col_weight(colw, ncolw, (int)(k >> 32));
			hits++;
		}
	}
	return hits;
}

/* row_freq() for a pair, its cursors x and y on the same row: the
 * positions of x followed by one of y, their lists merged. */
static int
pair_freq(struct ev_bm25_sweep *sw, struct ev_postings_cursor *x,
    struct ev_postings_cursor *y, const double *colw, int ncolw, double *f)
{
	size_t need = 0;
	uint64_t *kx, *ky;
	int nx, ny, hits = 0;

	for (int col = 0; col < x->ncol; col++)
		need += (size_t)x->count[col] + y->count[col];
	if (need > sw->capkeys && ev_grow(&sw->keys, &sw->capkeys, need, sizeof *sw->keys, 1024) == -1)
		return -2;
	kx = sw->keys;
	if ((nx = ev_postings_positions(x, kx)) < 0)
		return -1;
	ky = kx + nx;
	if ((ny = ev_postings_positions(y, ky)) < 0)
		return -1;
	*f = 0.0;
	for (int i = 0, j = 0; i < nx; i++) {
		uint64_t k = kx[i];

		if ((k & 0xffffffffu) == 0xffffffffu)
			continue;	/* the column's last offset: nothing follows */
		while (j < ny && ky[j] <= k)
			j++;
		if (j < ny && ky[j] == k + 1) {
			*f += col_weight(colw, ncolw, (int)(k >> 32));
			hits++;
		}
	}
	return hits;
}

/* ---- A phrase of alternatives, most of its rows in one of them ------------
 *
 * A word is searched for its stems in every language of the store's
 * chunks: in a store of one language but a few chunks taken for others,
 * each position of a phrase has one list of nearly all its rows (the
 * major alternative) and a few short ones.  Its rows are walked then as
 * if it had no alternatives (the majors alone, side by side), but for the
 * rows the minors hold, each taken in its turn as ev_sweep_phrase_rows() takes it
 * (every alternative): where no minor is, the majors' frequency is the
 * phrase's, the same to the bit.  A pair of words of one stem each is
 * walked so too: two majors, skipping to each other's row, their positions
 * merged. */

#define MINOR_SHARE 16	/* the minors hold at most a 16th of a major's rows */

int
ev_sweep_cmp_row(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* The major of the nalt alternatives tok[0..nalt) (the one of most rows)
 * into *major, and the rows of the others summed. */
static long long
major_of(const struct ev_postings *p, const char *const *tok, const int *len, int nalt,
    int *major, long long *major_rows)
{
	struct ev_postings_cursor c;
	long long minor = 0;

	*major = 0;
	*major_rows = -1;
	for (int i = 0; i < nalt; i++) {
		long long n = ev_postings_term(p, tok[i], len[i], &c);

		if (n > *major_rows) {
			minor += *major_rows < 0 ? 0 : *major_rows;
			*major_rows = n;
			*major = i;
		} else
			minor += n;
	}
	return minor;
}

/* The rows in [sw->lo, sw->hi) of the minors of phrase ph (of one or two
 * positions; major[j] the major of position j), rising and each once, into
 * sw->minor.  Returns their number, or -1 (corrupt) or -2 (out of
 * memory). */
static long long
minor_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const int *major,
    size_t most)
{
	struct ev_postings_cursor c;
	size_t n = 0, w = 0;
	int k = 0, r;

	if (most > sw->capminor && ev_grow(&sw->minor, &sw->capminor, most, sizeof *sw->minor,
	    256) == -1)
		return -2;
	for (int j = 0; j < ph->ntok; j++)
		for (int i = 0; i < ph->nalt[j]; i++, k++) {
			if (i == major[j])
				continue;
			ev_postings_term(sw->p, ph->tok[k], ph->len[k], &c);
			r = ev_postings_next(&c);
			if (r == 1 && sw->lo > 0)
				r = ev_postings_seek(&c, sw->lo);
			for (; r == 1 && c.rowid < sw->hi; r = ev_postings_next(&c)) {
				if (n == most)
					return -1;	/* more than the dictionary says */
				sw->minor[n++] = c.rowid;
			}
			if (r == -1)
				return -1;
		}
	if (n > 1)
		qsort(sw->minor, n, sizeof *sw->minor, ev_sweep_cmp_row);
	for (size_t i = 0; i < n; i++)
		if (w == 0 || sw->minor[i] != sw->minor[w - 1])
			sw->minor[w++] = sw->minor[i];
	return (long long)w;
}

/* Whether phrase ph is in row r, every alternative of each position
 * (sw->alts, started by ev_sweep_phrase_start(), asked in rising order)
 * stepped to it, and its frequency *f there (row_freq()).  Returns its
 * instances there (0: not in it), or -1 (corrupt) or -2 (out of memory). */
static int
alternatives_at(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, long long r,
    const double *colw, int ncolw, double *f)
{
	for (int j = 0; j < ph->ntok; j++) {
		if (sw->alts[j].rowid >= 0 && sw->alts[j].rowid < r && alts_seek(&sw->alts[j], r) == -1)
			return -1;
		if (sw->alts[j].rowid != r)
			return 0;
	}
	return row_freq(sw, ph->ntok, colw, ncolw, f);
}

/* Row r of phrase ph as ev_sweep_phrase_rows() takes it (alternatives_at()).
 * Returns 0, or -1 with *err set. */
static int
every_alternative(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, long long r,
    const double *colw, int ncolw, struct ev_err *err)
{
	double f;
	int n = alternatives_at(sw, ph, r, colw, ncolw, &f);

	if (n < 0)
		return n == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
	return n > 0 && phrase_row(sw, r, f) == -1 ? ev_sweep_corrupt(sw, err) : 0;
}

/* The rows of phrase ph, of one or two positions (a word of several stems,
 * or a pair of words), and its frequency in each, as ev_sweep_phrase_rows() or
 * ev_sweep_alt_rows() make them, walked along its majors.  Returns 1, 0 when its
 * minors are too many for it to pay or it has more positions (nothing
 * done), or -1 with *err set. */
int
ev_sweep_major_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw,
    int ncolw, struct ev_err *err)
{
	struct ev_postings_cursor x, y;
	int major[2], k = 0, rx, ry = 1, r;
	long long least = -1, minors = 0, nm, mi = 0;
	double f;

	if (ph->ntok > 2)
		return 0;
	for (int j = 0; j < ph->ntok; j++) {
		long long rows;

		minors += major_of(sw->p, ph->tok + k, ph->len + k, ph->nalt[j], &major[j], &rows);
		if (least < 0 || rows < least)
			least = rows;
		k += ph->nalt[j];
	}
	if (minors * MINOR_SHARE > least)
		return 0;
	if (minors == 0)
		nm = 0;		/* (a pair of query words without alternatives) */
	else if ((nm = minor_rows(sw, ph, major, (size_t)minors)) < 0)
		return nm == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
	else if (ev_sweep_phrase_start(sw, ph) == -1)
		return ev_sweep_corrupt(sw, err);
	ev_postings_term(sw->p, ph->tok[major[0]], ph->len[major[0]], &x);
	if ((rx = ev_postings_next(&x)) == 1 && sw->lo > 0)
		rx = ev_postings_seek(&x, sw->lo);
	if (ph->ntok == 2) {
		ev_postings_term(sw->p, ph->tok[ph->nalt[0] + major[1]], ph->len[ph->nalt[0] + major[1]],
		    &y);
		ry = ev_postings_next(&y);
	}
	for (;;) {
		long long at = LLONG_MAX, m = mi < nm ? sw->minor[mi] : LLONG_MAX;

		/* the next row of every major */
		while (rx == 1 && ry == 1 && ph->ntok == 2 && x.rowid != y.rowid && x.rowid < sw->hi)
			if (y.rowid < x.rowid)
				ry = ev_postings_seek(&y, x.rowid);
			else
				rx = ev_postings_seek(&x, y.rowid);
		if (rx == -1 || ry == -1)
			return ev_sweep_corrupt(sw, err);
		if (rx == 1 && ry == 1 && x.rowid < sw->hi)
			at = x.rowid;
		if (at == LLONG_MAX && m == LLONG_MAX)
			return 1;
		if (m <= at) {
			/* a row of a minor: every alternative */
			if (!passed_over(sw, m) && every_alternative(sw, ph, m, colw, ncolw, err) == -1)
				return -1;
			mi++;
			if (at == m)
				rx = ev_postings_next(&x);
			continue;
		}
		if (passed_over(sw, at))
			r = 0;
		else if (ph->ntok == 1)
			r = cursor_freq(sw, &x, colw, ncolw, &f);
		else if ((r = pair_freq(sw, &x, &y, colw, ncolw, &f)) < 0)
			return r == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
		if (r > 0 && phrase_row(sw, at, f) == -1)
			return ev_sweep_corrupt(sw, err);
		rx = ev_postings_next(&x);
	}
}

/* The rows of a one-token phrase of several alternatives (a word stemmed
 * for several languages), and its frequency in each: the union of their
 * lists, walked side by side (a position two of them hold counts once). */
int
ev_sweep_alt_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw, int ncolw,
    struct ev_err *err)
{
	struct alts *a = &sw->alts[0];

	if (alts_start(a, sw->p, ph->tok, ph->len, ph->nalt[0]) == -1 ||
	    (sw->lo > 0 && alts_seek(a, sw->lo) == -1))
		return ev_sweep_corrupt(sw, err);
	while (a->rowid >= 0 && a->rowid < sw->hi) {
		long long row = a->rowid;
		double f;
		int r = passed_over(sw, row) ? 0 : row_freq(sw, 1, colw, ncolw, &f);

		if (r < 0)
			return r == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
		if (r > 0 && phrase_row(sw, row, f) == -1)
			return ev_sweep_corrupt(sw, err);
		for (int i = 0; i < a->n; i++)
			if (a->live[i] && a->c[i].rowid == row &&
			    (a->live[i] = ev_postings_next(&a->c[i])) == -1)
				return ev_sweep_corrupt(sw, err);
		alts_min(a);
	}
	return 0;
}

long long
ev_bm25_sweep_count_both(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *x,
    const struct ev_bm25_phrase *y, long long max, struct ev_err *err)
{
	struct alts *a = &sw->alts[0], *b = &sw->alts[1];
	long long n = 0;
	int r = 0;

	if (alts_start(a, sw->p, x->tok, x->len, x->nalt[0]) == -1 ||
	    alts_start(b, sw->p, y->tok, y->len, y->nalt[0]) == -1)
		return ev_sweep_corrupt(sw, err);
	/* each list stepped to the other's row, over the rows between */
	while (r == 0 && n < max && a->rowid >= 0 && b->rowid >= 0) {
		if (a->rowid < b->rowid)
			r = alts_seek(a, b->rowid);
		else if (b->rowid < a->rowid)
			r = alts_seek(b, a->rowid);
		else {
			n++;
			r = alts_seek(a, a->rowid + 1);
		}
	}
	return r == -1 ? ev_sweep_corrupt(sw, err) : n;
}

/* The rows of the phrase ph (any but a one-token one without
 * alternatives), and its frequency in each, into sw->prow and sw->pf. */
int
ev_sweep_phrase_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw,
    int ncolw, struct ev_err *err)
{
	struct alts *a = sw->alts;
	int nt = ph->ntok, r;

	if (ev_sweep_phrase_start(sw, ph) == -1 || (sw->lo > 0 && alts_seek(&a[0], sw->lo) == -1))
		return ev_sweep_corrupt(sw, err);
	for (;;) {
		long long target = -1;
		int all = 1;
		double f;

		for (int j = 0; j < nt; j++) {
			if (a[j].rowid < 0)
				return 0;	/* a position has no more rows */
			if (a[j].rowid > target)
				target = a[j].rowid;
		}
		if (target >= sw->hi)
			return 0;
		for (int j = 0; j < nt; j++) {
			if (a[j].rowid < target && alts_seek(&a[j], target) == -1)
				return ev_sweep_corrupt(sw, err);
			if (a[j].rowid != target)
				all = 0;
		}
		if (!all)
			continue;
		if (passed_over(sw, target))
			r = 0;
		else if ((r = row_freq(sw, nt, colw, ncolw, &f)) < 0)
			return r == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
		if (r > 0 && phrase_row(sw, target, f) == -1)
			return ev_sweep_corrupt(sw, err);
		if (alts_seek(&a[0], target + 1) == -1)
			return ev_sweep_corrupt(sw, err);
	}
}

/* Whether the phrase ph, started with ev_sweep_phrase_start() and asked about rows
 * in rising order, is in row r, and its frequency *f there.  Returns 1 or
 * 0, or -1 (corrupt) or -2 (out of memory). */
int
ev_sweep_phrase_at(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, long long r,
    const double *colw, int ncolw, double *f)
{
	struct ev_postings_cursor *c = &sw->alts[0].c[0];
	int n;

	if (ph->ntok == 1 && ph->nalt[0] == 1) {
		/* one list: its counts say it all */
		if (sw->alts[0].rowid < 0 || c->rowid > r)
			return 0;
		if ((n = ev_postings_seek(c, r)) != 1 || c->rowid != r) {
			if (n != 1)
				sw->alts[0].rowid = -1;	/* (kept by alts_min() otherwise) */
			return n == -1 ? -1 : 0;
		}
		return cursor_freq(sw, c, colw, ncolw, f) > 0;
	}
	for (int j = 0; j < ph->ntok; j++) {
		if (sw->alts[j].rowid < r && alts_seek(&sw->alts[j], r) == -1)
			return -1;
		if (sw->alts[j].rowid != r)
			return 0;
	}
	if ((n = row_freq(sw, ph->ntok, colw, ncolw, f)) < 0)
		return n;
	return n > 0;
}

static void
sift_down(struct ev_bm25_hit *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct ev_bm25_hit t;

		if (l < n && after(&h[l], &h[m]))
			m = l;
		if (r < n && after(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int
cmp_hit(const void *a, const void *b)
{
	return after(a, b) ? 1 : after(b, a) ? -1 : 0;
}

/* Room in sw->heap for the best cap hits.  Returns 0 or -1 (out of memory). */
int
ev_sweep_reserve_hits(struct ev_bm25_sweep *sw, size_t cap)
{
	struct ev_bm25_hit *h;

	if (cap <= sw->capheap)
		return 0;
	if ((h = realloc(sw->heap, cap * sizeof *h)) == NULL)
		return -1;
	sw->heap = h;
	sw->capheap = cap;
	return 0;
}

/* Offer hit h to the best *n (at most cap) kept in sw->heap, a max-heap of
 * the best so far: the worst on top. */
void
ev_sweep_offer_hit(struct ev_bm25_sweep *sw, size_t *n, size_t cap, struct ev_bm25_hit h)
{
	struct ev_bm25_hit *heap = sw->heap;

	if (*n < cap) {
		size_t j = (*n)++;

		heap[j] = h;
		while (j > 0 && after(&heap[j], &heap[(j - 1) / 2])) {
			struct ev_bm25_hit t = heap[j];

			heap[j] = heap[(j - 1) / 2];
			heap[(j - 1) / 2] = t;
			j = (j - 1) / 2;
		}
	} else if (cap > 0 && after(&heap[0], &h)) {
		heap[0] = h;
		sift_down(heap, *n, 0);
	}
}

/* The n hits kept, best first. */
void
ev_sweep_sort_hits(struct ev_bm25_sweep *sw, size_t n)
{
	if (n > 1)	/* (heap is NULL until a sweep has a hit) */
		qsort(sw->heap, n, sizeof *sw->heap, cmp_hit);
}


/* The best limit rows of those touched that match, into sw->heap, in
 * order; the accumulators cleared.  Returns their number, or -1. */
long long
ev_sweep_best_rows(struct ev_bm25_sweep *sw, int has_filter, long long limit)
{
	size_t n = 0, cap = (size_t)limit;
	unsigned char want = IN_OTHERS | (has_filter ? IN_FILTER : 0);
	int listed = sw->ntouched <= sw->touched_cap;
	size_t m = listed ? sw->ntouched : (size_t)(sw->hi - sw->lo);

	if (cap > sw->ntouched)
		cap = sw->ntouched;
	if (ev_sweep_reserve_hits(sw, cap) == -1)
		return -1;
	/* the rows listed, or else every row's mark */
	for (size_t i = 0; i < m; i++) {
		long long r = listed ? sw->touched[i] : sw->lo + (long long)i;
		struct ev_bm25_hit h = { r, -1.0 * sw->acc[r] };

		if ((sw->mark[r] & want) == want)
			ev_sweep_offer_hit(sw, &n, cap, h);
	}
	ev_sweep_clear_touched(sw);
	ev_sweep_sort_hits(sw, n);
	return (long long)n;
}

/* Clear what a sweep left in the accumulators: the marks, row by row, or
 * whole when the rows are many (one pass over memory beats scattered
 * writes).  A row's score is valid only where its mark is not 0 (add_row()
 * starts a row first touched at 0), so the scores are left: at 1,358,377
 * chunks, 1.4 MB written rather than 12.4. */
void
ev_sweep_clear_touched(struct ev_bm25_sweep *sw)
{
	unsigned char *mark = sw->mark;
	const long long *touched = sw->touched;
	size_t n = sw->ntouched;

	if (n > (size_t)(sw->hi - sw->lo) / 16)	/* (only this sweeper's rows) */
		memset(mark + sw->lo, 0, (size_t)(sw->hi - sw->lo));
	else
		for (size_t i = 0; i < n; i++)
			mark[touched[i]] = 0;
	sw->ntouched = 0;
}

/* The table of sp->norm: each length's term computed as ev_bm25_term()
 * computes it, so that a score is the same to the bit. */
void
ev_sweep_sweep_norms(double *norm, const struct sweep_params *sp)
{
	for (int dl = 0; dl < NORM_LENGTHS; dl++)
		norm[dl] = sp->k1 * (1.0 - sp->b + sp->b * (double)dl / sp->avgdl);
}

void
ev_sweep_byte_freqs(double *byte_f, const struct ev_bm25_sweep *sw, const double *colw,
    int ncolw)
{
	struct ev_postings_cursor c = { .ncol = ev_postings_ncol(sw->p) };

	for (unsigned h = 0; h < EV_POSTINGS_COUNTS_ESCAPE; h++) {
		unsigned char b = (unsigned char)h;
		const unsigned char *q = &b;

		c.pos_count = ev_postings_counts(&q, q + 1, c.ncol, c.count);
		cursor_freq(sw, &c, colw, ncolw, &byte_f[h]);
	}
}


void
ev_sweep_adding_start(struct ev_bm25_sweep *sw, struct adding *a, unsigned char bits, double w, double idf,
    int only_candidates, unsigned char want)
{
	a->len = ev_postings_lengths(sw->p);
	a->acc = sw->acc;
	a->mark = sw->mark;
	a->touched = sw->touched;
	a->ntouched = sw->ntouched;
	a->touched_cap = sw->touched_cap;
	a->nrow = sw->nrow;
	a->w = w;
	a->idf = idf;
	a->set = (unsigned char)(bits | TOUCHED);	/* (a mark not 0 has TOUCHED) */
	a->want = want;
	a->in_top = want ? (unsigned char)(want | IN_TOP) : 0;
	a->only_candidates = only_candidates;
	a->scores = w != 0.0;
}

/* Add row r, where the phrase's frequency is f.  Returns 0, or -1 (a row
 * out of range: corrupt). */
static inline EV_POSTINGS_HOT int
add_row(struct ev_bm25_sweep *sw, struct adding *a, const struct sweep_params *sp, long long r,
    double f)
{
	unsigned char m;
	uint64_t bits;
	double s;

	if (r < 0 || r >= a->nrow)
		return -1;
	m = a->mark[r];
	if (a->only_candidates) {
		if (!(m & CANDIDATE))
			return 0;
	} else {
		/* listed once, when first touched (no branch to mispredict:
		 * past its room, the list's last entry is written over) */
		a->touched[a->ntouched < a->touched_cap ? a->ntouched : a->touched_cap] = r;
		a->ntouched += m == 0;
	}
	/* a row first touched scores 0 so far, whatever its score in the
	 * array, which only a mark not 0 makes valid (ev_sweep_clear_touched()
	 * clears the marks alone); its bits masked (no branch: which rows are
	 * new is not to be predicted; and +0.0, not 0 x a stale score) */
	memcpy(&bits, &a->acc[r], sizeof bits);
	bits &= -(uint64_t)(m != 0);
	memcpy(&s, &bits, sizeof s);
	a->mark[r] = m |= a->set;
	if (a->scores && f > 0.0)
		s += sweep_term(sp, a->w, a->idf, f, a->len[r]);
	a->acc[r] = s;
	/* (a row of the last top is offered once, by ev_sweep_walk_top()) */
	if (a->want && (m & a->in_top) == a->want)
		top_offer(sw, (size_t)sp->limit, s, r);
	return 0;
}

/* A list read straight into the scores (add_list()) is read this many
 * entries at a time, each row's length, mark and score asked for
 * (prefetched) as its entry is read, and added after: a list's rows
 * are apart, each a cache line or three waited for otherwise.  (The rows
 * walked into the walk's arrays first, ev_sweep_add_rows(), asked for so
 * this many ahead too: no CPU time gained.) */
#define ADD_BATCH 16

/* Add a phrase's rows as walked into sw->prow and sw->pf (walk_phrase()).
 * Returns 0, or -1 (corrupt). */
int
ev_sweep_add_rows(struct ev_bm25_sweep *sw, struct adding *a, const struct sweep_params *sp)
{
	const long long *prow = sw->prow;
	const double *pf = sw->pf;
	int r = 0;

	for (size_t j = 0, np = sw->np; j < np && r == 0; j++)
		r = add_row(sw, a, sp, prow[j], pf[j]);
	sw->ntouched = a->ntouched;
	return r;
}

/* A walk's minor rows (struct minors) in [sw->lo, sw->hi), when the word's
 * alternatives are walked along their major's list (add_list()): the rows
 * of the others, sw->minor[0..n), rising, their frequency found from every
 * alternative (alternatives_at(): sw->alts started on phrase ph). */
struct minors {
	const struct ev_bm25_phrase *ph;
	size_t at, n;
	long long next;		/* sw->minor[at], or LLONG_MAX past the last */
};

/* Add the minor rows of m before row `row` (LLONG_MAX: every one left),
 * and when row is one of them, its frequency from every alternative into
 * *f.  Returns 0, or -1 with *err set. */
static int
add_minors(struct ev_bm25_sweep *sw, struct adding *a, const struct sweep_params *sp,
    struct minors *m, long long row, double *f, struct ev_err *err)
{
	for (; m->at < m->n && m->next <= row; m->next = ++m->at < m->n ? sw->minor[m->at] : LLONG_MAX) {
		double g;
		int n = alternatives_at(sw, m->ph, m->next, sp->colw, sp->ncolw, &g);

		if (n < 0)
			return n == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
		if (m->next == row)
			*f = g;		/* (in the major's list: added with it) */
		else if (n > 0 && add_row(sw, a, sp, m->next, g) == -1)
			return ev_sweep_corrupt(sw, err);
	}
	return 0;
}

/* Add a list's rows as it is read (the cursor c, at its start), and the
 * minor rows of m beside them: nothing is written but the scores, for a
 * list that may hold most rows.  Returns 0, or -1 with *err set. */
static int
add_list(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, struct adding *a,
    const struct sweep_params *sp, struct minors *m, struct ev_err *err)
{
	int r = sw->lo > 0 ? ev_postings_seek(c, sw->lo) : ev_postings_next(c);
	const unsigned char *p = c->p, *end = c->end;
	long long row = c->rowid;
	uint64_t v;

	if (r == 1 && row < sw->hi) {
		double f = token_freq(sw, c, sp->colw, sp->ncolw);

		if (row >= m->next && add_minors(sw, a, sp, m, row, &f, err) == -1)
			return -1;
		r = add_row(sw, a, sp, row, f) == -1 ? -1 : 2;
	}
	/* the entries after it read here, as ev_postings_next() reads them,
	 * their positions never wanted: a one-byte count's frequency from
	 * sp->byte_f, the cursor left behind; ADD_BATCH at a time */
	while (r == 2 && p != NULL && p < end) {
		long long brow[ADD_BATCH];
		double bf[ADD_BATCH];
		int nb = 0;

		while (nb < ADD_BATCH && p < end) {
			if (ev_varint_get(&p, end, &v) == -1)
				r = -1;
			else if (row += (long long)v, p < end && *p < EV_POSTINGS_COUNTS_ESCAPE)
				bf[nb] = sp->byte_f[*p++];
			else if ((c->pos_count = ev_postings_counts(&p, end, c->ncol, c->count)) == -1)
				r = -1;
			else
				bf[nb] = token_freq(sw, c, sp->colw, sp->ncolw);
			if (r == -1 || row >= sw->hi) {
				r = r == -1 ? -1 : 3;
				break;
			}
			if (row >= 0 && row < a->nrow) {	/* (add_row() finds others corrupt) */
				__builtin_prefetch(&a->acc[row], 1);
				__builtin_prefetch(&a->mark[row], 1);
				__builtin_prefetch(&a->len[row], 0);
			}
			brow[nb++] = row;
		}
		for (int i = 0; i < nb; i++) {
			if (brow[i] >= m->next && add_minors(sw, a, sp, m, brow[i], &bf[i], err) == -1)
				return -1;
			if (add_row(sw, a, sp, brow[i], bf[i]) == -1) {
				r = -1;
				break;
			}
		}
	}
	if (r != -1 && m->next != LLONG_MAX && add_minors(sw, a, sp, m, LLONG_MAX, NULL, err) == -1)
		return -1;
	sw->ntouched = a->ntouched;
	return r == -1 ? ev_sweep_corrupt(sw, err) : 0;
}

int
ev_sweep_add_token(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, struct adding *a,
    const struct sweep_params *sp, struct ev_err *err)
{
	struct minors none = { NULL, 0, 0, LLONG_MAX };

	return add_list(sw, c, a, sp, &none, err);
}

int
ev_sweep_add_alternatives(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, struct adding *a,
    const struct sweep_params *sp, struct ev_err *err)
{
	struct minors m = { ph, 0, 0, LLONG_MAX };
	struct ev_postings_cursor c;
	long long minors, rows, n = 0;
	int major;

	if (ph->ntok != 1)
		return 0;
	minors = major_of(sw->p, ph->tok, ph->len, ph->nalt[0], &major, &rows);
	if (minors * MINOR_SHARE > rows)
		return 0;
	if (minors > 0 && (n = minor_rows(sw, ph, &major, (size_t)minors)) < 0)
		return n == -1 ? ev_sweep_corrupt(sw, err) : ev_err_nomem(err);
	if (n > 0 && ev_sweep_phrase_start(sw, ph) == -1)
		return ev_sweep_corrupt(sw, err);
	m.n = (size_t)n;
	m.next = n > 0 ? sw->minor[0] : LLONG_MAX;
	ev_postings_term(sw->p, ph->tok[major], ph->len[major], &c);
	return add_list(sw, &c, a, sp, &m, err) == -1 ? -1 : 1;
}

/* Bring the running top up to date after a phrase was walked and its rows
 * offered by ev_sweep_add_rows(): the rows of the last top are offered with their
 * scores now.  Scores only rise and marks only gain bits, and only the
 * phrase's rows changed, so the top is the best limit of every row touched
 * whose mark has want.  Returns 1 with *theta, the limit-th best score,
 * when there are limit such rows, else 0. */
int
ev_sweep_walk_top(struct ev_bm25_sweep *sw, unsigned char want, size_t limit, double *theta)
{
	unsigned char *mark = sw->mark;

	for (size_t i = 0; i < sw->nold; i++) {
		long long r = sw->oldrow[i];

		mark[r] &= (unsigned char)~IN_TOP;
		if ((mark[r] & want) == want)
			top_offer(sw, limit, sw->acc[r], r);
	}
	memcpy(sw->oldrow, sw->toprow, sw->ntop * sizeof *sw->oldrow);
	sw->nold = sw->ntop;
	sw->ntop = 0;
	for (size_t i = 0; i < sw->nold; i++)
		mark[sw->oldrow[i]] |= IN_TOP;
	if (sw->nold < limit)
		return 0;
	/* the heap's least, from its rows (the heap is rebuilt next time) */
	*theta = sw->acc[sw->oldrow[0]];
	return 1;
}


/* ---- The narrowed words (postings.h) ------------------------------------- */

/* Room in sw's narrowed phrases for n phrases, ntok tokens and npos
 * positions.  Returns 0 or -1. */
static int
narrow_room(struct ev_bm25_sweep *sw, size_t n, size_t ntok, size_t npos)
{
	size_t cap = 2 * ntok;
	void *t, *l, *o;

	if (ev_grow(&sw->nph, &sw->capnph, n, sizeof *sw->nph, 64) == -1 ||
	    ev_grow(&sw->nnalt, &sw->capnpos, npos, sizeof *sw->nnalt, 64) == -1)
		return -1;
	if (ntok <= sw->capntok)
		return 0;
	/* (each one grown kept, so that none is shorter than capntok says) */
	if ((t = realloc(sw->ntok, cap * sizeof *sw->ntok)) != NULL)
		sw->ntok = t;
	if ((l = realloc(sw->nlen, cap * sizeof *sw->nlen)) != NULL)
		sw->nlen = l;
	if ((o = realloc(sw->noff, cap * sizeof *sw->noff)) != NULL)
		sw->noff = o;
	if (t == NULL || l == NULL || o == NULL)
		return -1;
	sw->capntok = cap;
	return 0;
}

/* The alternatives tok[0..nalt) of one position, narrowed, appended at
 * sw->ntok[*k]: a word itself beside its untagged stem as its narrowed
 * list (its name in sw->nstr), or left out when it has none; and any
 * whose list is empty left out when another's is not (a stem of another
 * language of the store than the query's, in none of its chunks): the
 * union of the others is the same rows, counts and positions, and a
 * word of one list left is walked as one token is, its entries read
 * straight into the scores (ev_sweep_add_token()).  Returns how many, or
 * -1 when out of memory. */
static int
narrow_position(struct ev_bm25_sweep *sw, const char *const *tok, const int *len, int nalt, size_t *k)
{
	struct ev_postings_cursor c;
	size_t first = *k;
	int stem = 0, kept = 0, held = 0;
	char empty[EV_BM25_MAX_ALT] = { 0 };

	for (int i = 0; i < nalt; i++)
		stem |= len[i] > 0 && tok[i][0] != EV_ANALYZE_TAG;	/* its untagged stem */
	for (int i = 0; i < nalt; i++) {
		size_t at = sw->nstr.len;

		sw->ntok[*k] = tok[i];
		sw->nlen[*k] = len[i];
		sw->noff[*k] = -1;
		if (stem && ev_analyze_is_itself(tok[i], (size_t)len[i])) {
			if (ev_buf_addc(&sw->nstr, EV_POSTINGS_NARROWED) == -1 ||
			    ev_buf_add(&sw->nstr, tok[i], (size_t)len[i]) == -1)
				return -1;
			if (ev_postings_term(sw->p, sw->nstr.p + at, len[i] + 1, &c) == 0) {
				sw->nstr.len = at;	/* held by the stem's chunks alone */
				continue;
			}
			sw->noff[*k] = (int)at;
			sw->nlen[*k] = len[i] + 1;
		} else if (ev_postings_term(sw->p, tok[i], len[i], &c) == 0)
			empty[kept] = 1;
		held |= !empty[kept];
		(*k)++;
		kept++;
	}
	if (!held)
		return kept;
	*k = first;
	for (int i = 0; i < kept; i++)
		if (!empty[i]) {
			sw->ntok[*k] = sw->ntok[first + (size_t)i];
			sw->nlen[*k] = sw->nlen[first + (size_t)i];
			sw->noff[*k] = sw->noff[first + (size_t)i];
			(*k)++;
		}
	return (int)(*k - first);
}

const struct ev_bm25_phrase *
ev_sweep_narrow(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n)
{
	size_t ntok = 0, npos = 0, k = 0, pos = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < ph[i].ntok; j++, npos++)
			ntok += (size_t)ph[i].nalt[j];
	if (narrow_room(sw, (size_t)n, ntok, npos) == -1)
		return NULL;
	ev_buf_reset(&sw->nstr);
	for (int i = 0; i < n; i++) {
		const char *const *tok = ph[i].tok;
		const int *len = ph[i].len;
		size_t first = k;

		sw->nph[i] = ph[i];
		sw->nph[i].nalt = sw->nnalt + pos;
		for (int j = 0; j < ph[i].ntok; j++, pos++) {
			if ((sw->nnalt[pos] = narrow_position(sw, tok, len, ph[i].nalt[j], &k)) == -1)
				return NULL;
			tok += ph[i].nalt[j];
			len += ph[i].nalt[j];
		}
		sw->nph[i].tok = sw->ntok + first;
		sw->nph[i].len = sw->nlen + first;
	}
	/* the names' bytes, now that nstr is whole */
	for (size_t t = 0; t < k; t++)
		if (sw->noff[t] >= 0)
			sw->ntok[t] = sw->nstr.p + sw->noff[t];
	return sw->nph;
}
