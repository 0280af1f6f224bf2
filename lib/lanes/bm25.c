/* bm25.c: BM25 with phrase weights as an FTS5 auxiliary function.  See bm25.h. */
#include "bm25.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buf.h"
#include "token.h"
#include "worker.h"

#define K1 1.2
#define B 0.75
#define MIN_IDF 1e-6
#define FLOOR_MARGIN 1e-9	/* a bound below the floor by this relative slack */

/* What one MATCH query computes once, on its first row. */
struct query_stats {
	int nphrase;
	double avgdl;		/* tokens per row */
	double *idf;		/* per phrase (0 for one weighing nothing) */
	int nweighed;
	int *order;		/* the phrases weighing something, highest bound first */
	double *rest;		/* rest[j]: the bounds of order[j..] summed */
	double *f;		/* the current row's frequency of each phrase */
};

static int
count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *ctx)
{
	(void)api, (void)fts;
	++*(sqlite3_int64 *)ctx;
	return SQLITE_OK;
}

static void
free_stats(void *p)
{
	struct query_stats *qs = p;

	if (qs != NULL) {
		free(qs->idf);
		free(qs->order);
		free(qs->rest);
		free(qs->f);
		free(qs);
	}
}

/* The weight of phrase i. */
static double
phrase_weight(const struct ev_bm25_weights *pw, int i)
{
	return pw != NULL && i < pw->n ? pw->w[i] : 1.0;
}

/* The phrases weighing something into qs->order, highest bound (weight x
 * IDF x (k1 + 1), the limit of a phrase's term as its frequency grows)
 * first, and qs->rest. */
static void
order_bounds(struct query_stats *qs, const struct ev_bm25_weights *pw, double k1)
{
	int n = 0;

	for (int i = 0; i < qs->nphrase; i++) {
		double u = phrase_weight(pw, i) * qs->idf[i] * (k1 + 1.0);
		int j;

		qs->f[i] = u;	/* the bounds, until rest[] is made */
		if (phrase_weight(pw, i) == 0.0)
			continue;
		for (j = n; j > 0 && qs->f[qs->order[j - 1]] < u; j--)
			qs->order[j] = qs->order[j - 1];
		qs->order[j] = i;
		n++;
	}
	qs->nweighed = n;
	qs->rest[n] = 0.0;
	for (int j = n - 1; j >= 0; j--)
		qs->rest[j] = qs->rest[j + 1] + qs->f[qs->order[j]];
}

/* One phrase's term of a row's score: weight w, IDF idf, frequency f (its
 * instances, each counting its column's weight), the row's length dl. */
static inline double
bm25_term(double w, double idf, double f, double k1, double b, double dl, double avgdl)
{
	return w * idf * ((f * (k1 + 1.0)) / (f + k1 * (1.0 - b + b * dl / avgdl)));
}

double
ev_bm25_idf(double rows, double hits)
{
	double idf = log((rows - hits + 0.5) / (hits + 0.5));

	return idf <= 0.0 ? MIN_IDF : idf;
}

/* The statistics of the query, made on the first call, or NULL with *rc.
 * A phrase that weighs nothing needs no IDF. */
static struct query_stats *
query_stats(const Fts5ExtensionApi *api, Fts5Context *fts, const struct ev_bm25_weights *pw,
	double k1, int *rc)
{
	struct query_stats *qs = api->xGetAuxdata(fts, 0);
	sqlite3_int64 nrow = 0, ntok = 0;
	double rows, tokens;

	if (qs != NULL)
		return qs;
	*rc = SQLITE_NOMEM;
	if ((qs = calloc(1, sizeof *qs)) == NULL)
		return NULL;
	qs->nphrase = api->xPhraseCount(fts);
	if ((qs->idf = calloc((size_t)qs->nphrase + 1, sizeof *qs->idf)) == NULL ||
	    (qs->order = calloc((size_t)qs->nphrase + 1, sizeof *qs->order)) == NULL ||
	    (qs->rest = calloc((size_t)qs->nphrase + 1, sizeof *qs->rest)) == NULL ||
	    (qs->f = calloc((size_t)qs->nphrase + 1, sizeof *qs->f)) == NULL)
		goto fail;
	if (pw != NULL && pw->global) {
		rows = pw->rows;
		tokens = pw->tokens;
	} else if ((*rc = api->xRowCount(fts, &nrow)) != SQLITE_OK ||
	    (*rc = api->xColumnTotalSize(fts, -1, &ntok)) != SQLITE_OK) {
		goto fail;
	} else {
		rows = (double)nrow;
		tokens = (double)ntok;
	}
	qs->avgdl = rows > 0 ? tokens / rows : 1.0;
	for (int i = 0; i < qs->nphrase; i++) {
		sqlite3_int64 nhit = 0;
		double *known = pw != NULL && pw->idf != NULL && i < pw->n ? &pw->idf[i] :
		    NULL;

		if (phrase_weight(pw, i) == 0.0)
			continue;
		if (known != NULL && *known > 0.0) {
			qs->idf[i] = *known;
			continue;
		}
		if ((*rc = api->xQueryPhrase(fts, i, &nhit, count_row)) != SQLITE_OK)
			goto fail;
		qs->idf[i] = ev_bm25_idf(rows, (double)nhit);
		if (known != NULL)
			*known = qs->idf[i];
	}
	order_bounds(qs, pw, k1);
	/* On failure, xSetAuxdata() frees qs itself (with free_stats). */
	return (*rc = api->xSetAuxdata(fts, qs, free_stats)) == SQLITE_OK ? qs : NULL;
fail:
	free_stats(qs);
	return NULL;
}

/* ev_bm25(table, column weights..., phrase weights pointer) */
static void
ev_bm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nval,
	sqlite3_value **val)
{
	const struct ev_bm25_weights *pw = NULL;
	struct query_stats *qs;
	int rc = SQLITE_OK, ncolw = nval, ntok = 0;
	double score = 0.0, bound = 0.0, floor, dl, k1 = K1, b = B;

	if (nval > 0 && (pw = sqlite3_value_pointer(val[nval - 1], EV_BM25_POINTER)) != NULL)
		ncolw = nval - 1;
	else if (nval > 0 && sqlite3_value_type(val[nval - 1]) == SQLITE_NULL)
		ncolw = nval - 1;	/* an unbound pointer: unit weights */
	if (pw != NULL && pw->tuned)
		k1 = pw->k1, b = pw->b;
	floor = pw != NULL ? pw->floor : 0.0;
	if ((qs = query_stats(api, fts, pw, k1, &rc)) == NULL) {
		sqlite3_result_error_code(ctx, rc);
		return;
	}
	/* Each phrase's instances in the row, phrase by phrase (cheaper than
	 * xInst(), which merges every phrase's, and skips those weighing
	 * nothing), each counting its column's weight; the phrases of highest
	 * bound first, so that with a floor a row that cannot reach it is
	 * left as soon as that shows, before its length is read.  Its term is
	 * then at most f (k1 + 1) / (f + k1 (1 - b)), the length taken as 0. */
	for (int j = 0; j < qs->nweighed; j++) {
		int i = qs->order[j];
		double f = 0.0, w = phrase_weight(pw, i);
		Fts5PhraseIter it;
		int col, off;

		if (floor > 0.0 && (bound + qs->rest[j]) * (1.0 + FLOOR_MARGIN) < floor) {
			sqlite3_result_double(ctx, -1.0 * (bound + qs->rest[j]));
			return;
		}
		if ((rc = api->xPhraseFirst(fts, i, &it, &col, &off)) != SQLITE_OK) {
			sqlite3_result_error_code(ctx, rc);
			return;
		}
		for (; col >= 0; api->xPhraseNext(fts, &it, &col, &off))
			f += col < ncolw ? sqlite3_value_double(val[col]) : 1.0;
		qs->f[i] = f;
		if (f > 0.0)
			bound += w * qs->idf[i] * ((f * (k1 + 1.0)) / (f + k1 * (1.0 - b)));
	}
	if (floor > 0.0 && bound * (1.0 + FLOOR_MARGIN) < floor) {
		sqlite3_result_double(ctx, -1.0 * bound);
		return;
	}
	if ((rc = api->xColumnSize(fts, -1, &ntok)) != SQLITE_OK) {
		sqlite3_result_error_code(ctx, rc);
		return;
	}
	dl = (double)ntok;
	for (int i = 0; i < qs->nphrase; i++) {
		double w = phrase_weight(pw, i), f = qs->f[i];

		if (w != 0.0 && f > 0.0)
			score += bm25_term(w, qs->idf[i], f, k1, b, dl, qs->avgdl);
	}
	sqlite3_result_double(ctx, -1.0 * score);
}

/* ev_bm25_totals(table, 0 | 1): the index's rows or tokens. */
static void
ev_bm25_totals(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nval,
	sqlite3_value **val)
{
	sqlite3_int64 n = 0;
	int rc;

	if (nval != 1 || sqlite3_value_type(val[0]) != SQLITE_INTEGER) {
		sqlite3_result_error(ctx, EV_BM25_TOTALS "() takes 0 (rows) or 1 (tokens)", -1);
		return;
	}
	rc = sqlite3_value_int(val[0]) == 0 ? api->xRowCount(fts, &n) :
	    api->xColumnTotalSize(fts, -1, &n);
	if (rc != SQLITE_OK)
		sqlite3_result_error_code(ctx, rc);
	else
		sqlite3_result_int64(ctx, n);
}

int
ev_bm25_register(sqlite3 *db, struct ev_err *err)
{
	fts5_api *api = ev_tok_fts5_api(db);

	if (api == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "this SQLite has no FTS5; install libsqlite3 with FTS5");
	if (api->xCreateFunction(api, EV_BM25_FUNCTION, NULL, ev_bm25, NULL) != SQLITE_OK ||
	    api->xCreateFunction(api, EV_BM25_TOTALS, NULL, ev_bm25_totals, NULL) != SQLITE_OK)
		return ev_err_nomem(err);
	return 0;
}

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
	double *acc;			/* per rowid: the score so far */
	unsigned char *mark;		/* per rowid: TOUCHED, IN_FILTER, IN_OTHERS */
	size_t rows_size;		/* acc and mark: one mapping (row_arrays()), */
	int owns_rows;			/* this sweeper's (a half borrows its main's) */
	long long split_rows;		/* split sweeps of this many rows or more (0: never) */
	struct ev_bm25_sweep *half;	/* the upper half's sweeper, once a sweep is split */
	struct ev_worker *worker;	/* the thread that sweeps it, or NULL */
	int background;			/* a job of ev_bm25_sweep_background() on it */
	double norm[NORM_LENGTHS];	/* the sweep's (sweep_params) */
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
	double *exact;			/* and their exact scores */
	size_t capexact;
	double *top;			/* a min-heap of the best scores so far, */
	long long *toprow;		/* their rows (walk_top()), */
	long long *oldrow;		/* and the rows of the last such heap */
	size_t ntop, nold, captop;
	int pruned;			/* phrases the last sweep looked up, not walked */
	struct walked *kept;		/* phrases walked in this query, their rows kept */
	size_t nkept, capkept;
	long long *kept_row;		/* kept_cap: the kept phrases' rows, one */
	double *kept_f;			/* after the other, and their frequencies */
	size_t kept_rows, kept_cap;
	struct ev_buf key;		/* a phrase's key (walked_key()) */
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
static int
scratch(struct ev_bm25_sweep *sw)
{
	size_t n = (size_t)sw->nrow, row = sizeof(long long), f = sizeof(double);
	unsigned char *p;

	sw->kept_cap = n < KEPT_ROWS_MAX / 4 ? 4 * n : KEPT_ROWS_MAX;
	/* the rows touched are listed while they are few enough to be read
	 * off the list (clear_touched(), collect_candidates()); past that,
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

static int splits(const struct ev_bm25_sweep *sw);

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

/* The second thread of sw's split sweeps (worker.h), made as soon as sw
 * splits them: by the first job of the first query, a thread made then
 * would still wait to be scheduled.  Without it (no thread to be had),
 * the halves are swept one after the other. */
static void
start_worker(struct ev_bm25_sweep *sw)
{
	if (sw->worker == NULL && splits(sw))
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
	    row_arrays(sw) == -1 || scratch(sw) == -1) {
		ev_bm25_sweep_free(sw);
		ev_err_nomem(err);
		return NULL;
	}
	start_worker(sw);
	/* the arrays' pages, half on each thread (both on this one without
	 * a second) */
	ev_bm25_sweep_background(sw, populate_upper, sw);
	populate(sw->acc, rows_half(sw));
	return sw;
}

void
ev_bm25_sweep_free(struct ev_bm25_sweep *sw)
{
	if (sw == NULL)
		return;
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
	ev_bm25_sweep_forget(sw);
	free(sw->kept);
	ev_buf_release(&sw->key);
	free(sw);
}

static int
corrupt(struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the postings file is corrupt; remove it, or"
	    " rebuild it with 'ev-ingest --postings'");
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

/* The instances of the cursor c's term in its row, and their frequency *f
 * (token_freq()).  Returns their number. */
static inline int
cursor_freq(const struct ev_postings_cursor *c, const double *colw, int ncolw, double *f)
{
	int hits = 0;

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
token_freq(const struct ev_postings_cursor *c, const double *colw, int ncolw)
{
	double f;

	cursor_freq(c, colw, ncolw, &f);
	return f;
}

/* The rows of a one-token phrase, and its frequency in each. */
static int
one_token(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, const double *colw, int ncolw,
    struct ev_err *err)
{
	int r = sw->lo > 0 ? ev_postings_seek(c, sw->lo) : ev_postings_next(c);

	for (; r == 1 && c->rowid < sw->hi; r = ev_postings_next(c))
		if (phrase_row(sw, c->rowid, token_freq(c, colw, ncolw)) == -1)
			return corrupt(err);
	return r == -1 ? corrupt(err) : 0;
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

/* The positions at the current row, every alternative's, rising and each
 * once, into sw->keys from *at; returns their number, or -1 (corrupt) or
 * -2 (out of memory). */
static int
alts_positions(struct ev_bm25_sweep *sw, struct alts *a, size_t *at)
{
	size_t need = *at, n0 = *at;
	int k = 0, here = 0;

	for (int i = 0; i < a->n; i++)
		if (a->live[i] && a->c[i].rowid == a->rowid) {
			here++;
			for (int col = 0; col < a->c[i].ncol; col++)
				need += a->c[i].count[col];
		}
	if (need > sw->capkeys && ev_grow(&sw->keys, &sw->capkeys, need, sizeof *sw->keys, 1024) == -1)
		return -2;
	for (int i = 0; i < a->n; i++) {
		int m;

		if (!a->live[i] || a->c[i].rowid != a->rowid)
			continue;
		if ((m = ev_postings_positions(&a->c[i], sw->keys + n0 + k)) < 0)
			return -1;
		k += m;
	}
	if (here > 1 && k > 1) {	/* (one list's positions are rising already) */
		uint64_t *key = sw->keys + n0;
		int w = 1;

		qsort(key, (size_t)k, sizeof *key, cmp_key);
		for (int i = 1; i < k; i++)
			if (key[i] != key[w - 1])
				key[w++] = key[i];
		k = w;
	}
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
static int
phrase_start(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph)
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
		return cursor_freq(&a[0].c[r], colw, ncolw, f);	/* its counts say it all */
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
 * rows the minors hold, each taken in its turn as phrase_rows() takes it
 * (every alternative): where no minor is, the majors' frequency is the
 * phrase's, the same to the bit.  A pair of words of one stem each is
 * walked so too: two majors, skipping to each other's row, their positions
 * merged. */

#define MINOR_SHARE 16	/* the minors hold at most a 16th of a major's rows */

static int cmp_row(const void *x, const void *y);

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
		qsort(sw->minor, n, sizeof *sw->minor, cmp_row);
	for (size_t i = 0; i < n; i++)
		if (w == 0 || sw->minor[i] != sw->minor[w - 1])
			sw->minor[w++] = sw->minor[i];
	return (long long)w;
}

/* Row r of phrase ph as phrase_rows() takes it: every alternative of each
 * position (sw->alts, started by phrase_start()) stepped to it.  Returns
 * 0, or -1 with *err set. */
static int
every_alternative(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, long long r,
    const double *colw, int ncolw, struct ev_err *err)
{
	double f;
	int n;

	for (int j = 0; j < ph->ntok; j++) {
		if (sw->alts[j].rowid >= 0 && sw->alts[j].rowid < r && alts_seek(&sw->alts[j], r) == -1)
			return corrupt(err);
		if (sw->alts[j].rowid != r)
			return 0;
	}
	if ((n = row_freq(sw, ph->ntok, colw, ncolw, &f)) < 0)
		return n == -1 ? corrupt(err) : ev_err_nomem(err);
	return n > 0 && phrase_row(sw, r, f) == -1 ? corrupt(err) : 0;
}

/* The rows of phrase ph, of one or two positions (a word of several stems,
 * or a pair of words), and its frequency in each, as phrase_rows() or
 * alt_rows() make them, walked along its majors.  Returns 1, 0 when its
 * minors are too many for it to pay or it has more positions (nothing
 * done), or -1 with *err set. */
static int
major_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw,
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
		return nm == -1 ? corrupt(err) : ev_err_nomem(err);
	else if (phrase_start(sw, ph) == -1)
		return corrupt(err);
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
			return corrupt(err);
		if (rx == 1 && ry == 1 && x.rowid < sw->hi)
			at = x.rowid;
		if (at == LLONG_MAX && m == LLONG_MAX)
			return 1;
		if (m <= at) {
			/* a row of a minor: every alternative */
			if (every_alternative(sw, ph, m, colw, ncolw, err) == -1)
				return -1;
			mi++;
			if (at == m)
				rx = ev_postings_next(&x);
			continue;
		}
		if (ph->ntok == 1)
			r = cursor_freq(&x, colw, ncolw, &f);
		else if ((r = pair_freq(sw, &x, &y, colw, ncolw, &f)) < 0)
			return r == -1 ? corrupt(err) : ev_err_nomem(err);
		if (r > 0 && phrase_row(sw, at, f) == -1)
			return corrupt(err);
		rx = ev_postings_next(&x);
	}
}

/* The rows of a one-token phrase of several alternatives (a word stemmed
 * for several languages), and its frequency in each: the union of their
 * lists, walked side by side (a position two of them hold counts once). */
static int
alt_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw, int ncolw,
    struct ev_err *err)
{
	struct alts *a = &sw->alts[0];

	if (alts_start(a, sw->p, ph->tok, ph->len, ph->nalt[0]) == -1 ||
	    (sw->lo > 0 && alts_seek(a, sw->lo) == -1))
		return corrupt(err);
	while (a->rowid >= 0 && a->rowid < sw->hi) {
		long long row = a->rowid;
		double f;
		int r = row_freq(sw, 1, colw, ncolw, &f);

		if (r < 0)
			return r == -1 ? corrupt(err) : ev_err_nomem(err);
		if (r > 0 && phrase_row(sw, row, f) == -1)
			return corrupt(err);
		for (int i = 0; i < a->n; i++)
			if (a->live[i] && a->c[i].rowid == row &&
			    (a->live[i] = ev_postings_next(&a->c[i])) == -1)
				return corrupt(err);
		alts_min(a);
	}
	return 0;
}

/* The rows of the phrase ph (any but a one-token one without
 * alternatives), and its frequency in each, into sw->prow and sw->pf. */
static int
phrase_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw,
    int ncolw, struct ev_err *err)
{
	struct alts *a = sw->alts;
	int nt = ph->ntok, r;

	if (phrase_start(sw, ph) == -1 || (sw->lo > 0 && alts_seek(&a[0], sw->lo) == -1))
		return corrupt(err);
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
				return corrupt(err);
			if (a[j].rowid != target)
				all = 0;
		}
		if (!all)
			continue;
		if ((r = row_freq(sw, nt, colw, ncolw, &f)) < 0)
			return r == -1 ? corrupt(err) : ev_err_nomem(err);
		if (r > 0 && phrase_row(sw, target, f) == -1)
			return corrupt(err);
		if (alts_seek(&a[0], target + 1) == -1)
			return corrupt(err);
	}
}

/* Whether the phrase ph, started with phrase_start() and asked about rows
 * in rising order, is in row r, and its frequency *f there.  Returns 1 or
 * 0, or -1 (corrupt) or -2 (out of memory). */
static int
phrase_at(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, long long r,
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
		return cursor_freq(c, colw, ncolw, f) > 0;
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

/* Whether hit a ranks after hit b (ORDER BY s, rowid). */
static inline int
after(const struct ev_bm25_hit *a, const struct ev_bm25_hit *b)
{
	return a->s > b->s || (a->s == b->s && a->rowid > b->rowid);
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
static int
reserve_hits(struct ev_bm25_sweep *sw, size_t cap)
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
static void
offer_hit(struct ev_bm25_sweep *sw, size_t *n, size_t cap, struct ev_bm25_hit h)
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
static void
sort_hits(struct ev_bm25_sweep *sw, size_t n)
{
	if (n > 1)	/* (heap is NULL until a sweep has a hit) */
		qsort(sw->heap, n, sizeof *sw->heap, cmp_hit);
}

static void clear_touched(struct ev_bm25_sweep *sw);

/* The best limit rows of those touched that match, into sw->heap, in
 * order; the accumulators cleared.  Returns their number, or -1. */
static long long
best_rows(struct ev_bm25_sweep *sw, int has_filter, long long limit)
{
	size_t n = 0, cap = (size_t)limit;
	unsigned char want = IN_OTHERS | (has_filter ? IN_FILTER : 0);
	int listed = sw->ntouched <= sw->touched_cap;
	size_t m = listed ? sw->ntouched : (size_t)(sw->hi - sw->lo);

	if (cap > sw->ntouched)
		cap = sw->ntouched;
	if (reserve_hits(sw, cap) == -1)
		return -1;
	/* the rows listed, or else every row's mark */
	for (size_t i = 0; i < m; i++) {
		long long r = listed ? sw->touched[i] : sw->lo + (long long)i;
		struct ev_bm25_hit h = { r, -1.0 * sw->acc[r] };

		if ((sw->mark[r] & want) == want)
			offer_hit(sw, &n, cap, h);
	}
	clear_touched(sw);
	sort_hits(sw, n);
	return (long long)n;
}

/* Clear what a sweep left in the accumulators: row by row, or both arrays
 * whole when the rows are many (one pass over memory beats scattered
 * writes). */
static void
clear_touched(struct ev_bm25_sweep *sw)
{
	double *acc = sw->acc;
	unsigned char *mark = sw->mark;
	const long long *touched = sw->touched;
	size_t n = sw->ntouched;

	if (n > (size_t)(sw->hi - sw->lo) / 16) {	/* (only this sweeper's rows) */
		memset(acc + sw->lo, 0, (size_t)(sw->hi - sw->lo) * sizeof *acc);
		memset(mark + sw->lo, 0, (size_t)(sw->hi - sw->lo));
	} else
		for (size_t i = 0; i < n; i++) {
			acc[touched[i]] = 0.0;
			mark[touched[i]] = 0;
		}
	sw->ntouched = 0;
}

/* The sweep's parameters. */
struct sweep_params {
	const double *colw;
	int ncolw;
	struct ev_bm25_weights *pw;
	double k1, b, rows, avgdl;
	int has_filter;
	long long limit;
	const double *norm;	/* NORM_LENGTHS: k1 x (1 - b + b x dl / avgdl) for each dl */
};

/* The table of sp->norm: each length's term computed as bm25_term()
 * computes it, so that a score is the same to the bit. */
static void
sweep_norms(double *norm, const struct sweep_params *sp)
{
	for (int dl = 0; dl < NORM_LENGTHS; dl++)
		norm[dl] = sp->k1 * (1.0 - sp->b + sp->b * (double)dl / sp->avgdl);
}

/* bm25_term() for a row of length dl in a sweep. */
static inline double
sweep_term(const struct sweep_params *sp, double w, double idf, double f, uint32_t dl)
{
	double nd = dl < NORM_LENGTHS ? sp->norm[dl] :
	    sp->k1 * (1.0 - sp->b + sp->b * (double)dl / sp->avgdl);

	return w * idf * ((f * (sp->k1 + 1.0)) / (f + nd));
}

/* Put row r of score v in the running top (a min-heap of at most limit
 * scores, sw->top, and their rows, sw->toprow), if it belongs there. */
static void
top_insert(struct ev_bm25_sweep *sw, size_t limit, double v, long long r)
{
	double *h = sw->top;
	long long *hr = sw->toprow;
	size_t j, n = sw->ntop;

	if (n < limit) {
		for (j = sw->ntop++; j > 0 && h[(j - 1) / 2] > v; j = (j - 1) / 2) {
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

/* Offer row r of score v to the running top: most rows are not among
 * the best, and are turned away here, inline. */
static inline void
top_offer(struct ev_bm25_sweep *sw, size_t limit, double v, long long r)
{
	if (sw->ntop < limit || v > sw->top[0])
		top_insert(sw, limit, v, r);
}

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

static void
adding_start(struct ev_bm25_sweep *sw, struct adding *a, unsigned char bits, double w, double idf,
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
static inline int
add_row(struct ev_bm25_sweep *sw, struct adding *a, const struct sweep_params *sp, long long r,
    double f)
{
	unsigned char m;

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
	a->mark[r] = m |= a->set;
	if (a->scores && f > 0.0)
		a->acc[r] += sweep_term(sp, a->w, a->idf, f, a->len[r]);
	/* (a row of the last top is offered once, by walk_top()) */
	if (a->want && (m & a->in_top) == a->want)
		top_offer(sw, (size_t)sp->limit, a->acc[r], r);
	return 0;
}

/* Add a phrase's rows as walked into sw->prow and sw->pf (walk_phrase()).
 * Returns 0, or -1 (corrupt). */
static int
add_rows(struct ev_bm25_sweep *sw, struct adding *a, const struct sweep_params *sp)
{
	const long long *prow = sw->prow;
	const double *pf = sw->pf;
	int r = 0;

	for (size_t j = 0, np = sw->np; j < np && r == 0; j++)
		r = add_row(sw, a, sp, prow[j], pf[j]);
	sw->ntouched = a->ntouched;
	return r;
}

/* Add a one-token phrase's rows as its list is read (the cursor c, at its
 * start): nothing is written but the scores, for a list that may hold most
 * rows.  Returns 0, or -1 with *err set (corrupt). */
static int
add_token(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, struct adding *a,
    const struct sweep_params *sp, struct ev_err *err)
{
	int r = sw->lo > 0 ? ev_postings_seek(c, sw->lo) : ev_postings_next(c);

	for (; r == 1 && c->rowid < sw->hi; r = ev_postings_next(c))
		if (add_row(sw, a, sp, c->rowid, token_freq(c, sp->colw, sp->ncolw)) == -1) {
			r = -1;
			break;
		}
	sw->ntouched = a->ntouched;
	return r == -1 ? corrupt(err) : 0;
}

/* Bring the running top up to date after a phrase was walked and its rows
 * offered by add_rows(): the rows of the last top are offered with their
 * scores now.  Scores only rise and marks only gain bits, and only the
 * phrase's rows changed, so the top is the best limit of every row touched
 * whose mark has want.  Returns 1 with *theta, the limit-th best score,
 * when there are limit such rows, else 0. */
static int
walk_top(struct ev_bm25_sweep *sw, unsigned char want, size_t limit, double *theta)
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

static int walk_phrase(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph,
	const struct sweep_params *sp, struct ev_err *err);

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
		double w = phrase_weight(pw, i), idf = 0.0;
		double *known = pw != NULL && pw->idf != NULL && i < pw->n ? &pw->idf[i] : NULL;

		if (walk_phrase(sw, &ph[i], sp, err) == -1)
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
		adding_start(sw, &a, ph[i].filter ? IN_FILTER : IN_OTHERS, w, idf, 0, 0);
		if (add_rows(sw, &a, sp) == -1)
			return corrupt(err);
	}
	if ((nhit = best_rows(sw, sp->has_filter, sp->limit)) < 0)
		return ev_err_nomem(err);
	return nhit;
}

/* ---- The pruned sweep (bm25.h): MaxScore, term at a time --------------------
 *
 * A phrase adds at most its bound, w x IDF x (k1 + 1), to a row's score.
 * The phrases are walked whole, highest bound first, each row's score so
 * far summed; once the bounds of the phrases left sum below theta, the
 * limit-th best score so far among the rows that are hits (a score the
 * limit best reach), a row none of those walked holds cannot be among the
 * best.  The phrases left are then only looked up in the rows that can
 * still reach theta (skipping their lists' blocks), and the rows that can
 * no longer reach it are dropped as their bounds are spent.  Last, the
 * candidates near the limit-th score get their exact score, summed in the
 * phrases' own order as ev_bm25() sums it, and are ranked by it. */

#define SWEEP_MARGIN 1e-9	/* relative slack for sums in another order */

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
		if (walk_phrase(sw, ph, sp, err) == -1)
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
					return corrupt(err);
				held = q == 1 && a[1].c[j].rowid == ci->rowid;
			}
			n += !held;
		}
		if (r == -1)
			return corrupt(err);
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

/* The theta a sweeper prunes with: its own (theta, when found), or the
 * other half's of a split sweep when higher (either half's limit-th best
 * is a floor of the whole's limit-th best); 0 when there is none yet. */
static double
sweep_theta(const struct ev_bm25_sweep *sw, int found, double theta)
{
	double own = found ? theta : 0.0, other = 0.0;

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
 * top's heap, which only the walks before the candidates need.) */
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

static int
cmp_row(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
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

void
ev_bm25_sweep_forget(struct ev_bm25_sweep *sw)
{
	for (size_t i = 0; i < sw->nkept; i++)
		free(sw->kept[i].key);
	sw->nkept = 0;
	sw->kept_rows = 0;
	if (sw->half != NULL)
		ev_bm25_sweep_forget(sw->half);
}

/* Whether sw's pruned sweeps are split over two threads. */
static int
splits(const struct ev_bm25_sweep *sw)
{
	return sw->split_rows > 0 && sw->nrow >= sw->split_rows;
}

void
ev_bm25_sweep_split(struct ev_bm25_sweep *sw, long long min_rows)
{
	ev_bm25_sweep_wait(sw);
	sw->split_rows = min_rows;
	if (!splits(sw)) {
		ev_worker_free(sw->worker);
		sw->worker = NULL;
	}
	start_worker(sw);
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
 * (phrase_start(), phrase_at()). */
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
	return phrase_start(sw, ph);
}

/* phrase_at() for q, started on ph. */
static int
ask_at(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, struct asking *q, long long r,
    const double *colw, int ncolw, double *f)
{
	if (q->row == NULL)
		return phrase_at(sw, ph, r, colw, ncolw, f);
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
 * then instead.  Returns 0 or -1. */
static int
walk_phrase(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const struct sweep_params *sp,
    struct ev_err *err)
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
	if (most <= (long long)(sw->kept_cap - sw->kept_rows)) {
		sw->prow = sw->kept_row + sw->kept_rows;
		sw->pf = sw->kept_f + sw->kept_rows;
		sw->capp = (size_t)most;
	} else {
		sw->prow = sw->own_row;
		sw->pf = sw->own_f;
		sw->capp = (size_t)(sw->hi - sw->lo);
	}
	if (ph->ntok == 1 && ph->nalt[0] == 1) {
		ev_postings_term(sw->p, ph->tok[0], ph->len[0], &c);
		r = one_token(sw, &c, sp->colw, sp->ncolw, err);
	} else if ((r = major_rows(sw, ph, sp->colw, sp->ncolw, err)) != 0)
		r = r == 1 ? 0 : -1;
	else if (ph->ntok == 1)
		r = alt_rows(sw, ph, sp->colw, sp->ncolw, err);
	else
		r = phrase_rows(sw, ph, sp->colw, sp->ncolw, err);
	if (r == 0)
		keep_walked(sw);
	return r;
}

/* Walk phrase ph whole over this sweeper's rows and add its rows to the
 * scores so far (struct adding: bits, w, idf, only_candidates, want).  A
 * word of one token is added as its list is read; any other phrase is
 * walked into rows first (walk_phrase(): kept for the query's next walk
 * of it, its rows being costly to find).  Returns 0 or -1 with *err set. */
static int
walk_add(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, unsigned char bits, double w,
    double idf, const struct sweep_params *sp, int only_candidates, unsigned char want,
    struct ev_err *err)
{
	struct ev_postings_cursor c;
	struct adding a;

	adding_start(sw, &a, bits, w, idf, only_candidates, want);
	if (ph->ntok == 1 && ph->nalt[0] == 1) {
		ev_postings_term(sw->p, ph->tok[0], ph->len[0], &c);
		return add_token(sw, &c, &a, sp, err);
	}
	if (walk_phrase(sw, ph, sp, err) == -1)
		return -1;
	return add_rows(sw, &a, sp) == -1 ? corrupt(err) : 0;
}

/* Add phrase ph (info p; a filter phrase when marker) to the candidates'
 * scores and marks: its rows walked when there are fewer than twice the
 * candidates, else each candidate looked up in them (ask_at(): in its
 * rows kept, or in its lists over the skips).  Returns 0 or -1. */
static int
look_up(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const struct phrase_info *p,
    int marker, const struct sweep_params *sp, struct ev_err *err)
{
	const uint32_t *len = ev_postings_lengths(sw->p);
	unsigned char bits = marker ? IN_FILTER : IN_OTHERS | (p->also_filter ? IN_FILTER : 0);
	struct asking q;
	double rows;

	if (ask_start(sw, ph, &q) == -1)
		return corrupt(err);
	/* (when not kept, its rows in this sweeper's share, roughly) */
	rows = q.row != NULL ? (double)q.n :
	    (double)p->rows * (double)(sw->hi - sw->lo) / (double)sw->nrow;
	if (rows <= 2.0 * (double)sw->ncand)
		return walk_add(sw, ph, bits, marker ? 0.0 : p->w, p->idf, sp, 1, 0, err);
	for (size_t i = 0; i < sw->ncand; i++) {
		long long r = sw->cand[i];
		double f;
		int in = ask_at(sw, ph, &q, r, sp->colw, sp->ncolw, &f);

		if (in < 0)
			return in == -1 ? corrupt(err) : ev_err_nomem(err);
		if (!in)
			continue;
		sw->mark[r] |= bits;
		if (!marker && f > 0.0)
			sw->acc[r] += sweep_term(sp, p->w, p->idf, f, len[r]);
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
	size_t k = 0, n = sw->ncand;

	/* (no branch: which rows stay is not to be predicted) */
	for (size_t i = 0; i < n; i++) {
		long long r = cand[i];
		int keep = can_reach(acc[r], 0, 0, rest, theta);

		cand[k] = r;
		k += (size_t)keep;
		mark[r] &= (unsigned char)(keep ? 0xff : ~CANDIDATE);
	}
	sw->ncand = k;
}

/* The candidates' exact scores, phrase by phrase in FTS5's order, and the
 * best limit of those that are hits into sw->heap; rest is the sum of the
 * bounds of the phrases not yet added to their scores so far.  Returns
 * their number, or -1 with *err set. */
static long long
exact_best(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const struct sweep_params *sp, unsigned char want, double rest, struct ev_err *err)
{
	const uint32_t *len = ev_postings_lengths(sw->p);
	size_t k = 0, nh = 0, cap = (size_t)sp->limit;
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
	if (k > sw->capexact && ev_grow(&sw->exact, &sw->capexact, k, sizeof *sw->exact, 256) == -1)
		return ev_err_nomem(err);
	if (k > 0)	/* (exact is NULL until a sweep has a candidate) */
		memset(sw->exact, 0, k * sizeof *sw->exact);
	for (int i = 0; i < n; i++) {
		const struct phrase_info *p = &sw->info[i];
		struct asking q;

		if (p->w == 0.0)
			continue;
		if (ask_start(sw, &ph[i], &q) == -1)
			return corrupt(err);
		for (size_t j = 0; j < k; j++) {
			double f;
			int in = ask_at(sw, &ph[i], &q, sw->cand[j], sp->colw, sp->ncolw, &f);

			if (in < 0)
				return in == -1 ? corrupt(err) : ev_err_nomem(err);
			if (in && f > 0.0)
				sw->exact[j] += sweep_term(sp, p->w, p->idf, f, len[sw->cand[j]]);
		}
	}
	if (cap > k)
		cap = k;
	if (reserve_hits(sw, cap) == -1)
		return ev_err_nomem(err);
	for (size_t j = 0; j < k; j++) {
		struct ev_bm25_hit h = { sw->cand[j], -1.0 * sw->exact[j] };

		offer_hit(sw, &nh, cap, h);
	}
	sort_hits(sw, nh);
	return (long long)nh;
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

/* Each phrase's weight, IDF, bound and filter twin into sw->info, and the
 * order of the walk into sw->order (scoring phrases, highest bound first,
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

		p->w = phrase_weight(pw, i);
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
		double *known = pw != NULL && pw->idf != NULL && i < pw->n ? &pw->idf[i] : NULL;
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
		if (known != NULL && *known > 0.0)
			p->idf = *known;
		else {
			if (rows < 0 && (rows = phrase_count(sw, &ph[i], sp, err)) < 0)
				return -1;
			p->idf = ev_bm25_idf(sp->rows, (double)rows);
			if (known != NULL)
				*known = p->idf;
		}
		p->ub = p->w * p->idf * (sp->k1 + 1.0);
	}
	for (int i = 0; i < n; i++) {
		int j;

		if (ph[i].filter)
			continue;
		for (j = m; j > 0 && sw->info[sw->order[j - 1]].ub < sw->info[i].ub; j--)
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
 * many read off the marks (no sort). */
static void
collect_candidates(struct ev_bm25_sweep *sw, unsigned char need, double rest, double eff)
{
	const double *acc = sw->acc;
	unsigned char *mark = sw->mark;	/* (locals: mark's writes alias sw) */
	long long *cand = sw->cand;
	size_t n = 0;

	if (sw->ntouched < (size_t)((sw->hi - sw->lo) / 64)) {
		if (sw->ntouched > 1)
			qsort(sw->touched, sw->ntouched, sizeof *sw->touched, cmp_row);
		for (size_t i = 0; i < sw->ntouched; i++) {
			long long r = sw->touched[i];
			int keep = can_reach(acc[r], mark[r], need, rest, eff);

			mark[r] |= (unsigned char)(keep ? CANDIDATE : 0);
			cand[n] = r;
			n += (size_t)keep;
		}
	} else
		for (long long r = sw->lo, hi = sw->hi; r < hi; r++) {
			unsigned char m = mark[r];
			int keep = (m != 0) & can_reach(acc[r], m, need, rest, eff);

			mark[r] = (unsigned char)(m | (keep ? CANDIDATE : 0));
			cand[n] = r;
			n += (size_t)keep;
		}
	sw->ncand = n;
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
	for (o = 0; o < m; o++)
		rest += sw->info[sw->order[o]].ub;
	/* walk whole, highest bound first, while a row none of them holds
	 * could still be among the best */
	for (o = 0; o < m; o++) {
		int i = sw->order[o];

		if (ph[i].filter)
			break;	/* the filter phrases: looked up */
		if (walk_add(sw, &ph[i], IN_OTHERS | (sw->info[i].also_filter ? IN_FILTER : 0),
		    sw->info[i].w, sw->info[i].idf, sp, 0, want, err) == -1)
			return -1;
		rest -= sw->info[i].ub;
		if ((found = walk_top(sw, want, (size_t)sp->limit, &theta)))
			share_theta(sw, theta);
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

		if (look_up(sw, &ph[i], &sw->info[i], ph[i].filter, sp, err) == -1)
			return -1;
		if (ph[i].filter)
			continue;
		rest -= sw->info[i].ub;
		/* the scores grew: a higher theta leaves more behind */
		if (kth_score(sw, want, sp->limit, &t) && (!found || t > theta)) {
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
		    scratch(h) == -1) {
			ev_bm25_sweep_free(h);
			return NULL;
		}
		h->acc = sw->acc;
		h->mark = sw->mark;
		sw->half = h;
	}
	h->lo = 0;
	h->hi = h->nrow;
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
	clear_touched(h->sw);
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
	clear_touched(sw);
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

/* Ask the kernel for the lists of every token of the n phrases ph at
 * once (ev_postings_willneed()), and the positions of those in phrases of
 * several positions: those out of the page cache are read side by side
 * while the sweep begins, not one fault after another; and just the lists,
 * where a fault reads ahead around it. */
static void
ask_lists(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n)
{
	struct ev_postings_cursor c;

	for (int i = 0; i < n; i++) {
		int ntok = 0;

		for (int j = 0; j < ph[i].ntok; j++)
			ntok += ph[i].nalt[j];
		for (int k = 0; k < ntok; k++) {
			ev_postings_term(sw->p, ph[i].tok[k], ph[i].len[k], &c);
			ev_postings_willneed(&c, ph[i].ntok > 1);
		}
	}
}

long long
ev_bm25_sweep(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const double *colw, int ncolw, struct ev_bm25_weights *pw, long long limit,
    const struct ev_bm25_hit **hits, struct ev_err *err)
{
	struct sweep_params sp = { colw, ncolw, pw, K1, B, 0, 0, 0, limit, NULL };
	double tokens;
	long long nhit;
	int m, split;

	*hits = NULL;
	sw->pruned = 0;
	if (pw != NULL && pw->tuned)
		sp.k1 = pw->k1, sp.b = pw->b;
	if (pw != NULL && pw->global) {
		sp.rows = pw->rows;
		tokens = pw->tokens;
	} else {
		sp.rows = ev_postings_rows(sw->p);
		tokens = ev_postings_tokens(sw->p);
	}
	sp.avgdl = sp.rows > 0 ? tokens / sp.rows : 1.0;
	sweep_norms(sw->norm, &sp);
	sp.norm = sw->norm;
	for (int i = 0; i < n; i++) {
		sp.has_filter |= ph[i].filter;
		if (ph[i].ntok < 1 || ph[i].ntok > EV_BM25_MAX_PHRASE)
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "a swept phrase has %d tokens",
			    ph[i].ntok);
		for (int j = 0; j < ph[i].ntok; j++)
			if (ph[i].nalt[j] < 1 || ph[i].nalt[j] > EV_BM25_MAX_ALT)
				return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "a swept phrase has %d"
				    " alternatives at a position", ph[i].nalt[j]);
	}
	if (limit < 1)
		return 0;
	ev_bm25_sweep_wait(sw);
	start_worker(sw);	/* (when it could not be had before) */
	ask_lists(sw, ph, n);
	if ((m = plan_sweep(sw, ph, n, &sp, err)) == -1)
		return -1;
	split = m > 0 && splits(sw);
	if (split)
		nhit = sweep_split(sw, ph, n, m, &sp, err);
	else
		nhit = m == 0 ? sweep_all(sw, ph, n, &sp, err) : sweep_pruned(sw, ph, n, m, &sp, err);
	clear_touched(sw);
	if (nhit >= 0)
		*hits = split ? sw->out : sw->heap;
	return nhit;
}

int
ev_bm25_sweep_pruned(const struct ev_bm25_sweep *sw)
{
	return sw->pruned;
}
