/* textdoc.c: chunk-to-document scoring: a candidate chunk's document scored
 * as a whole, by BM25 over every chunk of it.  See textstate.h. */
#include "textstate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm25.h"
#include "lenstats.h"
#include "strmap.h"
#include "textstats.h"
#include "token.h"

/* The state: the store's counts, the last pass's weighed phrases by their
 * stems, and the hits' documents' scores. */
struct ev_textdoc {
	long long docs;		/* the store's documents, 0: not counted yet */
	long long chunks, tokens;	/* its chunks and their tokens */
	double *w, *idf, *sum;	/* per phrase: weight, IDF, frequency in the document */
	int *next;		/* per phrase: the next phrase of the same key, or -1 */
	int nph, capph;
	struct ev_strmap keys;	/* a phrase's stem, or its two stems joined by EV_TEXTDOC_SEP */
	int *first;		/* per key: its first phrase */
	size_t capkey;
	struct ev_buf prev, pair;	/* the token before, and a pair's key */
	double colw;		/* the weight of the column being read */
	double *doc_score;	/* per hit of the query */
	size_t *order;
	size_t caphit;
};

#define EV_TEXTDOC_SEP '\x1f'	/* between a pair's two stems (no stem holds it) */


/* Room for n phrases and hits in d.  Returns 0 or -1. */
static int
room(struct ev_textdoc *d, int nph, size_t nhit)
{
	if (nph > d->capph) {
		if (ev_textsearch_resize(&d->w, nph, sizeof *d->w) == -1 ||
		    ev_textsearch_resize(&d->idf, nph, sizeof *d->idf) == -1 ||
		    ev_textsearch_resize(&d->next, nph, sizeof *d->next) == -1 ||
		    ev_textsearch_resize(&d->sum, nph, sizeof *d->sum) == -1)
			return -1;
		d->capph = nph;
	}
	if (nhit > d->caphit) {
		if (ev_textsearch_resize(&d->doc_score, (int)nhit, sizeof *d->doc_score) == -1 ||
		    ev_textsearch_resize(&d->order, (int)nhit, sizeof *d->order) == -1)
			return -1;
		d->caphit = nhit;
	}
	return 0;
}

/* The state, made on first use.  NULL with *err. */
static struct ev_textdoc *
textdoc_state(struct ev_textsearch *ts, struct ev_err *err)
{
	if (ts->doc == NULL && (ts->doc = calloc(1, sizeof *ts->doc)) == NULL)
		ev_err_nomem(err);
	return ts->doc;
}

/* The store's documents and chunks into d (once).  Returns 0, or -1 with
 * *err set. */
static int
count_documents(struct ev_textsearch *ts, struct ev_textdoc *d, struct ev_err *err)
{
	struct ev_lenstats ls;
	sqlite3_stmt *s;
	int rc;

	if (d->docs > 0)
		return 0;
	if (ev_lenstats_get(ts->st, ts->post, &ls, err) == -1 ||
	    (s = ev_store_prepare(ts->st, "SELECT count(*) FROM documents", err)) == NULL)
		return -1;
	d->chunks = ls.rows > 0 ? ls.rows : 1;
	d->tokens = ls.tokens;
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		d->docs = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return ev_store_error(ts->st, "counting the documents", err);
	if (d->docs <= 0)
		d->docs = 1;
	return 0;
}

/* The average document's length in tokens: the average chunk's (of the
 * statistics ranked with, else of the store) times the store's chunks per
 * document. */
static double
average_doc_length(struct ev_textsearch *ts, const struct ev_textdoc *d)
{
	double per_chunk = ts->o.stats != NULL && ev_textstats_rows(ts->o.stats) > 0 ?
	    (double)ev_textstats_tokens(ts->o.stats) / (double)ev_textstats_rows(ts->o.stats) :
	    (double)d->tokens / (double)d->chunks;

	return per_chunk * (double)d->chunks / (double)d->docs;
}

/* The key of stems a (and b, when not NULL) into d->pair.  Returns 0 or -1. */
static int
phrase_key(struct ev_textdoc *d, const char *a, size_t alen, const char *b, size_t blen)
{
	ev_buf_reset(&d->pair);
	if (ev_buf_add(&d->pair, a, alen) == -1)
		return -1;
	if (b != NULL && (ev_buf_addc(&d->pair, EV_TEXTDOC_SEP) == -1 || ev_buf_add(&d->pair, b, blen) == -1))
		return -1;
	return 0;
}

/* The last pass's weighed phrases, by their stems (a word, an expansion
 * or a feedback term: one; a pair: two side by side), with their weights
 * and IDFs.  Returns 0 or -1 (out of memory). */
static int
doc_phrases(struct ev_textsearch *ts, struct ev_textdoc *d)
{
	if (room(d, ts->npw + 1, 0) == -1)
		return -1;
	ev_strmap_reset(&d->keys);
	d->nph = 0;
	for (int i = 0; i < ts->npw; i++) {
		int added;
		int32_t k;

		if (ts->pw[i] == 0.0 || ts->pka[i] == NULL || !(ts->idf[i] > 0.0))
			continue;
		if (phrase_key(d, ts->pka[i], strlen(ts->pka[i]), ts->pkb[i],
		    ts->pkb[i] != NULL ? strlen(ts->pkb[i]) : 0) == -1 ||
		    (k = ev_strmap_add(&d->keys, d->pair.p, d->pair.len, &added)) < 0 ||
		    ev_grow(&d->first, &d->capkey, (size_t)k + 1, sizeof *d->first, 64) == -1)
			return -1;
		d->w[d->nph] = ts->pw[i];
		d->idf[d->nph] = ts->idf[i];
		d->next[d->nph] = added ? -1 : d->first[k];
		d->first[k] = d->nph;
		d->nph++;
	}
	return 0;
}

/* Add the column weight to each phrase of key d->pair. */
static void
count_key(struct ev_textdoc *d)
{
	int32_t k = ev_strmap_find(&d->keys, d->pair.p, d->pair.len);

	for (int p = k < 0 ? -1 : d->first[k]; p >= 0; p = d->next[p])
		d->sum[p] += d->colw;
}

/* A token of a document's column: a phrase of its stem, and a pair of the
 * token before and it. */
static int
on_doc_token(void *ctx, const char *term, int len, int start, int end)
{
	struct ev_textdoc *d = ctx;

	(void)start, (void)end;
	if (phrase_key(d, term, (size_t)len, NULL, 0) == -1)
		return 1;
	count_key(d);
	if (d->prev.len > 0) {
		if (phrase_key(d, d->prev.p, d->prev.len, term, (size_t)len) == -1)
			return 1;
		count_key(d);
	}
	ev_buf_reset(&d->prev);
	return ev_buf_add(&d->prev, term, (size_t)len) == -1;
}

/* Tokenise one column of a chunk (text[0..len), of weight w) into d->sum. */
static int
count_column(struct ev_textsearch *ts, struct ev_textdoc *d, const char *text, size_t len, double w,
    struct ev_err *err)
{
	if (w == 0.0 || len == 0)
		return 0;
	d->colw = w;
	ev_buf_reset(&d->prev);
	if (ev_tok_run(ts->tok, text, len, on_doc_token, d, err) == -1)
		return -1;
	return 0;
}

/* The columns of a document's chunks, with their lengths in the index. */
static const char sql_doc_chunks[] = "SELECT c.title, c.section_title, c.text, c.language, z.sz"
	" FROM chunks c JOIN chunks_fts_docsize z ON z.id = c.rowid WHERE c.doc_id = ?1";

/* Each chunk of the document doc_id: its columns tokenised (each counting
 * its weight) into d->sum, its length in the index added to *len.
 * Returns 0, or -1 with *err. */
static int
read_chunks(struct ev_textsearch *ts, struct ev_textdoc *d, const char *doc_id, double *len,
    struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(ts->st, sql_doc_chunks, err);
	const double colw[3] = { ts->o.w_title, ts->o.w_section, ts->o.w_text };
	int rc, r = 0;

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, doc_id, -1, SQLITE_STATIC);
	while (r == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *b = sqlite3_column_blob(s, 4);
		int n = sqlite3_column_bytes(s, 4), k;
		uint64_t v;

		for (int at = 0; b != NULL && at < n; at += k) {
			if ((k = ev_sqlite_varint(b + at, (size_t)(n - at), &v)) == 0)
				break;
			*len += (double)v;
		}
		/* its words as they were indexed: stemmed for its language */
		ev_tok_set_lang(ts->tok, (const char *)sqlite3_column_text(s, 3));
		for (int c = 0; c < 3 && r == 0; c++) {
			const char *t;
			size_t tlen;

			if (ev_texthit_column_text(s, c, &t, &tlen) == -1)
				r = ev_err_nomem(err);
			else
				r = count_column(ts, d, t, tlen, colw[c], err);
		}
		ev_tok_set_lang(ts->tok, NULL);
	}
	sqlite3_reset(s);
	if (r == 0 && rc != SQLITE_DONE)
		r = ev_store_error(ts->st, "reading a document's chunks", err);
	return r;
}

/* BM25 of the document doc_id as a whole: each phrase's frequencies and
 * the lengths of all its chunks summed, its length against avgdl.
 * Returns 0 with *score, or -1 with *err. */
static int
doc_score(struct ev_textsearch *ts, struct ev_textdoc *d, const char *doc_id, double avgdl,
    double *score, struct ev_err *err)
{
	double len = 0, k1 = ts->o.k1, b = ts->o.b;

	*score = 0;
	if (d->nph == 0)
		return 0;
	memset(d->sum, 0, (size_t)d->nph * sizeof *d->sum);
	if (read_chunks(ts, d, doc_id, &len, err) == -1)
		return -1;
	for (int i = 0; i < d->nph; i++) {
		double f = d->sum[i];

		if (f > 0.0)
			*score += ev_bm25_term(d->w[i], d->idf[i], f, k1, b, len, avgdl);
	}
	return 0;
}

/* The hit at i of hits: its doc_id and score. */
static const char *
hit_doc(json_t *hits, size_t i)
{
	return json_string_value(json_object_get(json_array_get(hits, i), "doc_id"));
}

static double
hit_score(json_t *hits, size_t i)
{
	return json_number_value(json_object_get(json_array_get(hits, i), "score"));
}

/* Each hit's document's score into d->doc_score[0..n), a document scored
 * once.  Returns 0, or -1 with *err. */
static int
score_documents(struct ev_textsearch *ts, struct ev_textdoc *d, json_t *hits, size_t first, size_t n,
    struct ev_err *err)
{
	double avgdl = average_doc_length(ts, d);

	for (size_t j = 0; j < n; j++) {
		const char *id = hit_doc(hits, first + j);
		size_t k;

		for (k = 0; k < j; k++)
			if (id != NULL && hit_doc(hits, first + k) != NULL &&
			    strcmp(id, hit_doc(hits, first + k)) == 0)
				break;
		if (k < j)
			d->doc_score[j] = d->doc_score[k];
		else if (id == NULL)
			d->doc_score[j] = 0;
		else if (doc_score(ts, d, id, avgdl, &d->doc_score[j], err) == -1)
			return -1;
	}
	return 0;
}

/* qsort's comparison of the hits' new scores, by their index: higher
 * first, then the earlier rank. */
static const double *sort_key;

static int
cmp_new_score(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sort_key[x] != sort_key[y])
		return sort_key[x] < sort_key[y] ? 1 : -1;
	return (x > y) - (x < y);
}

int
ev_textdoc_rescore(struct ev_textsearch *ts, json_t *hits, size_t first, struct ev_err *err)
{
	size_t n = json_array_size(hits) - first;
	struct ev_textdoc *d;
	double lambda, best_chunk, best_doc = 0, *combined;
	json_t **moved;

	/* by default, only a query read as a document: its words are spread
	 * over the documents it describes, not held by one passage */
	if (n == 0 || ts->o.doc_weight == 0.0 || ts->o.raw_fts ||
	    (isnan(ts->o.doc_weight) && !ts->as_document))
		return 0;
	if ((d = textdoc_state(ts, err)) == NULL || count_documents(ts, d, err) == -1)
		return -1;
	lambda = isnan(ts->o.doc_weight) ? 1.0 - (double)d->docs / (double)d->chunks : ts->o.doc_weight;
	if (lambda <= 0.0)
		return 0;
	if (room(d, 0, 2 * n) == -1 || doc_phrases(ts, d) == -1)
		return ev_err_nomem(err);
	if (score_documents(ts, d, hits, first, n, err) == -1)
		return -1;
	best_chunk = hit_score(hits, first);
	for (size_t j = 0; j < n; j++)
		if (d->doc_score[j] > best_doc)
			best_doc = d->doc_score[j];
	combined = d->doc_score + n;	/* the second half of room(2n) */
	for (size_t j = 0; j < n; j++) {
		combined[j] = (1.0 - lambda) * hit_score(hits, first + j) +
		    (best_doc > 0 ? lambda * d->doc_score[j] * best_chunk / best_doc : 0.0);
		d->order[j] = j;
	}
	sort_key = combined;
	qsort(d->order, n, sizeof *d->order, cmp_new_score);
	if ((moved = malloc(n * sizeof *moved)) == NULL)
		return ev_err_nomem(err);
	for (size_t j = 0; j < n; j++) {
		size_t o = d->order[j];
		json_t *h = json_incref(json_array_get(hits, first + o));

		moved[j] = h;
		if (json_object_set_new(h, "rank", json_integer((json_int_t)(j + 1))) == -1 ||
		    json_object_set_new(h, "score", json_real(combined[o])) == -1 ||
		    json_object_set_new(json_object_get(h, "signals"), "doc_score",
		    json_real(d->doc_score[o])) == -1) {
			for (size_t k = 0; k <= j; k++)
				json_decref(moved[k]);
			free(moved);
			return ev_err_nomem(err);
		}
	}
	for (size_t j = 0; j < n; j++) {
		json_array_set(hits, first + j, moved[j]);
		json_decref(moved[j]);
	}
	free(moved);
	return 0;
}

void
ev_textdoc_free(struct ev_textdoc *d)
{
	if (d == NULL)
		return;
	free(d->w);
	free(d->idf);
	free(d->next);
	free(d->sum);
	ev_strmap_release(&d->keys);
	free(d->first);
	ev_buf_release(&d->prev);
	ev_buf_release(&d->pair);
	free(d->doc_score);
	free(d->order);
	free(d);
}
