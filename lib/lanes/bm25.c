/* bm25.c: BM25 with phrase weights as an FTS5 auxiliary function.  See bm25.h. */
#include "bm25.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "token.h"

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

struct ev_bm25_sweep {
	const struct ev_postings *p;
	long long nrow;			/* maxrowid + 1 */
	double *acc;			/* per rowid: the score so far */
	unsigned char *mark;		/* per rowid: TOUCHED, IN_FILTER, IN_OTHERS */
	long long *touched;
	size_t ntouched, captouched;
	long long *prow;		/* one phrase's rows, and */
	double *pf;			/* its frequency in each */
	size_t np, capp;
	uint64_t *keys;			/* the positions of a phrase's tokens in a row */
	size_t capkeys;
	struct alts *alts;		/* a phrase's positions (EV_BM25_MAX_PHRASE) */
	struct ev_bm25_hit *heap;
	size_t capheap;
};

#define TOUCHED 1
#define IN_FILTER 2
#define IN_OTHERS 4

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
	/* calloc'd pages cost nothing until a row of theirs is touched */
	if ((sw->alts = calloc(EV_BM25_MAX_PHRASE, sizeof *sw->alts)) == NULL ||
	    (sw->acc = calloc((size_t)sw->nrow, sizeof *sw->acc)) == NULL ||
	    (sw->mark = calloc((size_t)sw->nrow, 1)) == NULL) {
		ev_bm25_sweep_free(sw);
		ev_err_nomem(err);
		return NULL;
	}
	return sw;
}

void
ev_bm25_sweep_free(struct ev_bm25_sweep *sw)
{
	if (sw == NULL)
		return;
	free(sw->acc);
	free(sw->mark);
	free(sw->touched);
	free(sw->prow);
	free(sw->pf);
	free(sw->keys);
	free(sw->alts);
	free(sw->heap);
	free(sw);
}

static int
corrupt(struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the postings file is corrupt; remove it, or"
	    " rebuild it with 'ev-ingest --postings'");
}

/* Keep the row r with frequency f as one of the phrase's. */
static int
phrase_row(struct ev_bm25_sweep *sw, long long r, double f)
{
	if (sw->np == sw->capp) {
		size_t cap = sw->capp, c2 = cap;

		if (ev_grow(&sw->prow, &cap, sw->np, sizeof *sw->prow, 4096) == -1 ||
		    ev_grow(&sw->pf, &c2, sw->np, sizeof *sw->pf, 4096) == -1)
			return -1;
		sw->capp = cap < c2 ? cap : c2;
	}
	sw->prow[sw->np] = r;
	sw->pf[sw->np++] = f;
	return 0;
}

static inline double
col_weight(const double *colw, int ncolw, int col)
{
	return col < ncolw ? colw[col] : 1.0;
}

/* The rows of a one-token phrase, and its frequency in each: every
 * instance counts its column's weight, in the order FTS5 visits them. */
static int
one_token(struct ev_bm25_sweep *sw, struct ev_postings_cursor *c, const double *colw, int ncolw,
    struct ev_err *err)
{
	int r;

	while ((r = ev_postings_next(c)) == 1) {
		double f = 0.0;

		for (int col = 0; col < c->ncol; col++)
			for (uint32_t k = 0; k < c->count[col]; k++)
				f += col_weight(colw, ncolw, col);
		if (phrase_row(sw, c->rowid, f) == -1)
			return ev_err_nomem(err);
	}
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
		while (a->live[i] && a->c[i].rowid < target)
			if ((a->live[i] = ev_postings_next(&a->c[i])) == -1)
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
alts_positions(struct ev_bm25_sweep *sw, const struct alts *a, size_t *at)
{
	size_t need = *at, n0 = *at;
	int k = 0;

	for (int i = 0; i < a->n; i++)
		if (a->live[i] && a->c[i].rowid == a->rowid)
			for (int col = 0; col < a->c[i].ncol; col++)
				need += a->c[i].count[col];
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
	if (a->n > 1 && k > 1) {
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

/* The rows of the phrase ph (any but a one-token one without
 * alternatives), and its frequency in each: its instances are the
 * positions of its first token followed, in the same column, by the
 * others at the next positions. */
static int
phrase_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, const double *colw,
    int ncolw, struct ev_err *err)
{
	struct alts *a = sw->alts;
	const char *const *tok = ph->tok;
	const int *len = ph->len;
	int nt = ph->ntok, r;

	for (int j = 0; j < nt; j++) {
		if (alts_start(&a[j], sw->p, tok, len, ph->nalt[j]) == -1)
			return corrupt(err);
		tok += ph->nalt[j];
		len += ph->nalt[j];
	}
	for (;;) {
		long long target = -1;
		int all = 1, cnt[EV_BM25_MAX_PHRASE], hits = 0;
		size_t at = 0, start[EV_BM25_MAX_PHRASE];
		double f = 0.0;

		for (int j = 0; j < nt; j++) {
			if (a[j].rowid < 0)
				return 0;	/* a position has no more rows */
			if (a[j].rowid > target)
				target = a[j].rowid;
		}
		for (int j = 0; j < nt; j++) {
			if (a[j].rowid < target && alts_seek(&a[j], target) == -1)
				return corrupt(err);
			if (a[j].rowid != target)
				all = 0;
		}
		if (!all)
			continue;
		if (nt == 1 && (r = alts_one(&a[0])) >= 0) {
			/* one alternative here: its counts say it all */
			const struct ev_postings_cursor *c = &a[0].c[r];

			for (int col = 0; col < c->ncol; col++)
				for (uint32_t k = 0; k < c->count[col]; k++)
					f += col_weight(colw, ncolw, col);
			if (phrase_row(sw, target, f) == -1)
				return ev_err_nomem(err);
			if (alts_seek(&a[0], target + 1) == -1)
				return corrupt(err);
			continue;
		}
		for (int j = 0; j < nt; j++) {
			start[j] = at;
			if ((r = cnt[j] = alts_positions(sw, &a[j], &at)) < 0)
				return r == -1 ? corrupt(err) : ev_err_nomem(err);
		}
		for (int i = 0; i < cnt[0]; i++) {
			uint64_t k = sw->keys[start[0] + (size_t)i];
			int j;

			for (j = 1; j < nt; j++)
				if ((k & 0xffffffffu) + (uint64_t)j > 0xffffffffu ||
				    !has_key(sw->keys + start[j], cnt[j], k + (uint64_t)j))
					break;
			if (j == nt) {
				f += col_weight(colw, ncolw, (int)(k >> 32));
				hits++;
			}
		}
		if (hits > 0 && phrase_row(sw, target, f) == -1)
			return ev_err_nomem(err);
		if (alts_seek(&a[0], target + 1) == -1)
			return corrupt(err);
	}
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

/* The best limit rows of those touched that match, into sw->heap, in
 * order; the accumulators cleared.  Returns their number, or -1. */
static long long
best_rows(struct ev_bm25_sweep *sw, int has_filter, long long limit)
{
	size_t n = 0, cap = (size_t)limit;
	unsigned char want = IN_OTHERS | (has_filter ? IN_FILTER : 0);

	if (cap > sw->ntouched)
		cap = sw->ntouched;
	if (cap > sw->capheap) {
		struct ev_bm25_hit *h = realloc(sw->heap, cap * sizeof *h);

		if (h == NULL)
			return -1;
		sw->heap = h;
		sw->capheap = cap;
	}
	for (size_t i = 0; i < sw->ntouched; i++) {
		long long r = sw->touched[i];
		struct ev_bm25_hit h = { r, -1.0 * sw->acc[r] };
		int match = (sw->mark[r] & want) == want;

		sw->acc[r] = 0.0;
		sw->mark[r] = 0;
		if (!match || cap == 0)
			continue;
		if (n < cap) {
			/* a max-heap of the best so far: the worst on top */
			size_t j = n++;

			sw->heap[j] = h;
			while (j > 0 && after(&sw->heap[j], &sw->heap[(j - 1) / 2])) {
				struct ev_bm25_hit t = sw->heap[j];

				sw->heap[j] = sw->heap[(j - 1) / 2];
				sw->heap[(j - 1) / 2] = t;
				j = (j - 1) / 2;
			}
		} else if (after(&sw->heap[0], &h)) {
			sw->heap[0] = h;
			sift_down(sw->heap, n, 0);
		}
	}
	sw->ntouched = 0;
	qsort(sw->heap, n, sizeof *sw->heap, cmp_hit);
	return (long long)n;
}

/* Add phrase i's rows (sw->prow, sw->pf) to the accumulators. */
static int
add_phrase_rows(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, double w, double idf,
    double k1, double b, double avgdl)
{
	const uint32_t *len = ev_postings_lengths(sw->p);
	unsigned char bit = ph->filter ? IN_FILTER : IN_OTHERS;

	for (size_t j = 0; j < sw->np; j++) {
		long long r = sw->prow[j];
		double f = sw->pf[j];

		if (r < 0 || r >= sw->nrow)
			return -1;
		if (!sw->mark[r]) {
			if (sw->ntouched == sw->captouched && ev_grow(&sw->touched, &sw->captouched,
			    sw->ntouched, sizeof *sw->touched, 4096) == -1)
				return -2;
			sw->touched[sw->ntouched++] = r;
			sw->mark[r] = TOUCHED;
		}
		sw->mark[r] |= bit;
		if (w != 0.0 && f > 0.0)
			sw->acc[r] += bm25_term(w, idf, f, k1, b, (double)len[r], avgdl);
	}
	return 0;
}

/* Clear what a failed sweep left in the accumulators. */
static void
clear_touched(struct ev_bm25_sweep *sw)
{
	for (size_t i = 0; i < sw->ntouched; i++) {
		sw->acc[sw->touched[i]] = 0.0;
		sw->mark[sw->touched[i]] = 0;
	}
	sw->ntouched = 0;
}

long long
ev_bm25_sweep(struct ev_bm25_sweep *sw, const struct ev_bm25_phrase *ph, int n,
    const double *colw, int ncolw, struct ev_bm25_weights *pw, long long limit,
    const struct ev_bm25_hit **hits, struct ev_err *err)
{
	struct ev_postings_cursor c;
	double k1 = K1, b = B, rows, tokens, avgdl;
	int has_filter = 0;
	long long nhit;

	*hits = NULL;
	if (pw != NULL && pw->tuned)
		k1 = pw->k1, b = pw->b;
	if (pw != NULL && pw->global) {
		rows = pw->rows;
		tokens = pw->tokens;
	} else {
		rows = ev_postings_rows(sw->p);
		tokens = ev_postings_tokens(sw->p);
	}
	avgdl = rows > 0 ? tokens / rows : 1.0;
	for (int i = 0; i < n; i++)
		has_filter |= ph[i].filter;
	for (int i = 0; i < n; i++) {
		double w = phrase_weight(pw, i), idf = 0.0;
		double *known = pw != NULL && pw->idf != NULL && i < pw->n ? &pw->idf[i] : NULL;
		int r;

		if (ph[i].ntok < 1 || ph[i].ntok > EV_BM25_MAX_PHRASE) {
			clear_touched(sw);
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "a swept phrase has %d tokens",
			    ph[i].ntok);
		}
		for (int j = 0; j < ph[i].ntok; j++)
			if (ph[i].nalt[j] < 1 || ph[i].nalt[j] > EV_BM25_MAX_ALT) {
				clear_touched(sw);
				return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "a swept phrase has %d"
				    " alternatives at a position", ph[i].nalt[j]);
			}
		sw->np = 0;
		if (ph[i].ntok == 1 && ph[i].nalt[0] == 1) {
			ev_postings_term(sw->p, ph[i].tok[0], ph[i].len[0], &c);
			r = one_token(sw, &c, colw, ncolw, err);
		} else
			r = phrase_rows(sw, &ph[i], colw, ncolw, err);
		if (r == -1) {
			clear_touched(sw);
			return -1;
		}
		if (w != 0.0) {
			if (known != NULL && *known > 0.0)
				idf = *known;
			else {
				idf = ev_bm25_idf(rows, (double)sw->np);
				if (known != NULL)
					*known = idf;
			}
		}
		if ((r = add_phrase_rows(sw, &ph[i], w, idf, k1, b, avgdl)) < 0) {
			clear_touched(sw);
			return r == -1 ? corrupt(err) : ev_err_nomem(err);
		}
	}
	if ((nhit = best_rows(sw, has_filter, limit)) < 0) {
		clear_touched(sw);
		return ev_err_nomem(err);
	}
	*hits = sw->heap;
	return nhit;
}
