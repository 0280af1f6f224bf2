/* bm25.c: BM25 with phrase weights as an FTS5 auxiliary function.  See bm25.h. */
#include "bm25.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "token.h"

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

double
ev_bm25_weight(const struct ev_bm25_weights *pw, int i)
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
		double u = ev_bm25_weight(pw, i) * qs->idf[i] * (k1 + 1.0);
		int j;

		qs->f[i] = u;	/* the bounds, until rest[] is made */
		if (ev_bm25_weight(pw, i) == 0.0)
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

		if (ev_bm25_weight(pw, i) == 0.0)
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
	double score = 0.0, bound = 0.0, floor, dl, k1 = EV_BM25_K1, b = EV_BM25_B;

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
		double f = 0.0, w = ev_bm25_weight(pw, i);
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
		double w = ev_bm25_weight(pw, i), f = qs->f[i];

		if (w != 0.0 && f > 0.0)
			score += ev_bm25_term(w, qs->idf[i], f, k1, b, dl, qs->avgdl);
	}
	sqlite3_result_double(ctx, -1.0 * score);
}

int
ev_bm25_register(sqlite3 *db, struct ev_err *err)
{
	fts5_api *api = ev_tok_fts5_api(db);

	if (api == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "this SQLite has no FTS5; install libsqlite3 with FTS5");
	if (api->xCreateFunction(api, EV_BM25_FUNCTION, NULL, ev_bm25, NULL) != SQLITE_OK)
		return ev_err_nomem(err);
	return 0;
}
