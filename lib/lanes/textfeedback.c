/* textfeedback.c: pseudo-relevance feedback: the words of a first pass's
 * best chunks added to the query (RM3).  See textstate.h. */
#include "textstate.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lexicon.h"
#include "snippet.h"
#include "token.h"

/* Index the feedback candidates by stem in twice the slots, at least 256.
 * Returns 0 or -1 (out of memory). */
static int
fb_grow(struct ev_textsearch *ts)
{
	int n = ts->nslots ? 2 * ts->nslots : 256;
	int *slot = malloc((size_t)n * sizeof *slot);

	if (slot == NULL)
		return -1;
	for (int i = 0; i < n; i++)
		slot[i] = -1;
	for (int i = 0; i < ts->nfb; i++) {
		uint32_t h = ev_hash_fnv1a(ts->fb[i].stem, strlen(ts->fb[i].stem)) & (uint32_t)(n - 1);

		while (slot[h] != -1)
			h = (h + 1) & (uint32_t)(n - 1);
		slot[h] = i;
	}
	free(ts->fbslot);
	ts->fbslot = slot;
	ts->nslots = n;
	return 0;
}

/* The slot of the stem term[0..len) in the index of the feedback
 * candidates: the one holding it, or the empty one where it would go. */
static uint32_t
fb_slot(const struct ev_textsearch *ts, const char *term, int len)
{
	uint32_t h = ev_hash_fnv1a(term, (size_t)len) & (uint32_t)(ts->nslots - 1);

	for (; ts->fbslot[h] != -1; h = (h + 1) & (uint32_t)(ts->nslots - 1)) {
		const struct fbterm *t = &ts->fb[ts->fbslot[h]];

		if (strncmp(t->stem, term, (size_t)len) == 0 && t->stem[len] == '\0')
			break;
	}
	return h;
}

/* The index of the feedback candidate with the stem term[0..len), added
 * (with the surface word) when new; or -1 when out of memory. */
static int
fb_find(struct ev_textsearch *ts, const char *term, int len, const char *surface, int slen)
{
	struct fbterm *t;
	uint32_t h;

	if (2 * (ts->nfb + 1) > ts->nslots && fb_grow(ts) == -1)
		return -1;
	if (ts->fbslot[h = fb_slot(ts, term, len)] != -1)
		return ts->fbslot[h];
	if (ts->nfb == ts->capfb) {
		int cap = ts->capfb ? 2 * ts->capfb : 256;

		if ((t = realloc(ts->fb, (size_t)cap * sizeof *t)) == NULL)
			return -1;
		ts->fb = t;
		ts->capfb = cap;
	}
	t = &ts->fb[ts->nfb];
	t->stem = strndup(term, (size_t)len);
	t->surface = strndup(surface, (size_t)slen);
	t->weight = 0;
	t->snipidx = -1;
	if (t->stem == NULL || t->surface == NULL) {
		free(t->stem);
		free(t->surface);
		return -1;
	}
	ts->fbslot[h] = ts->nfb;
	return ts->nfb++;
}

/* One feedback chunk's tokens: every token counted, the words that are not
 * stop words noted (their candidates' indices in occ, and in occlangs the
 * languages whose function words they are), and the function words of each
 * language counted (to guess the chunk's language). */
struct fb_chunk {
	struct ev_textsearch *ts;
	const char *text;
	int ntok;
	int *occ;
	unsigned *occlangs;
	int nocc, capocc;
	unsigned counts[EV_LEX_NLANG];
	int oom;
};

static int
on_fb_token(void *ctx, const char *term, int len, int start, int end)
{
	struct fb_chunk *c = ctx;
	unsigned langs = ev_lex_stop_langs(c->ts->lex, c->text + start, (size_t)(end - start));
	int i;

	c->ntok++;
	for (int l = 0; l < EV_LEX_NLANG; l++)
		c->counts[l] += (langs & EV_LEX_BIT(l)) != 0;
	if (ev_snippet_is_stop(c->ts->tok, term, len, c->text + start, end - start))
		return 0;
	if ((i = fb_find(c->ts, term, len, c->text + start, end - start)) == -1)
		goto nomem;
	if (c->nocc == c->capocc) {
		int cap = c->capocc ? 2 * c->capocc : 256;
		int *occ = realloc(c->occ, (size_t)cap * sizeof *occ);
		unsigned *ol;

		if (occ == NULL)
			goto nomem;
		c->occ = occ;
		if ((ol = realloc(c->occlangs, (size_t)cap * sizeof *ol)) == NULL)
			goto nomem;
		c->occlangs = ol;
		c->capocc = cap;
	}
	c->occlangs[c->nocc] = langs;
	c->occ[c->nocc++] = i;
	return 0;
nomem:
	c->oom = 1;
	return 1;
}

/* The language of the feedback chunk c, the current row of s: the one its
 * document declares (column 15) when the lexicon knows it, else the one its
 * function words show. */
static int
chunk_language(const struct fb_chunk *c, sqlite3_stmt *s)
{
	const char *code = (const char *)sqlite3_column_text(s, 15);
	int lang = code != NULL ? ev_lex_lang(code, (size_t)sqlite3_column_bytes(s, 15)) : -1;

	return lang >= 0 ? lang : ev_lex_guess(c->counts);
}

/* Heaviest first, then by stem. */
static int
cmp_fbterm(const void *a, const void *b)
{
	const struct fbterm *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return strcmp(x->stem, y->stem);
}

/* The size of the first pass when the feedback pass ranks only its best
 * chunks: ts->o.feedback_pool, at least k and the feedback chunks; else 0. */
static long long
pool_size(const struct ev_textsearch *ts)
{
	long long n = ts->o.feedback_pool;

	if (n <= 0)
		return 0;
	n = n > ts->o.k ? n : ts->o.k;
	return n > ts->o.feedback_docs ? n : ts->o.feedback_docs;
}

/* Room for n rows in ts->pool.  Returns 0 or -1 (out of memory). */
static int
pool_room(struct ev_textsearch *ts, size_t n)
{
	return n <= ts->cappool ? 0 : ev_grow(&ts->pool, &ts->cappool, n, sizeof *ts->pool, 256);
}

/* The pool (ts->pool) as a JSON array of its rows into ts->pooljson, for
 * the search statement's rowid test (textsearch.c).  Returns 0 or -1. */
static int
pool_json(struct ev_textsearch *ts)
{
	int r;

	ev_buf_reset(&ts->pooljson);
	r = ev_buf_addc(&ts->pooljson, '[');
	for (size_t i = 0; i < ts->npool && r == 0; i++)
		r = ev_buf_printf(&ts->pooljson, i ? ",%lld" : "%lld", ts->pool[i]);
	return r == 0 ? ev_buf_addc(&ts->pooljson, ']') : -1;
}

/* Pseudo-relevance feedback (textsearch.h): the first pass over s, then the
 * words' weights and the feedback terms (ts->fb[0..nfeedback)) set, and the
 * feedback terms added to the snippet maker; with a pool (pool_size()), the
 * first pass's best chunks kept in ts->pool for the next pass
 * (ts->use_pool).  Returns 1, 0 when the first pass found nothing to feed
 * back (nothing changed), or -1 with *err. */
int
ev_textfeedback_run(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw, const char *text,
    const char *where, struct ev_err *err)
{
	struct fb_chunk c = { ts, NULL, 0, NULL, NULL, 0, 0, { 0 }, 0 };
	sqlite3_stmt *row;
	double best = 0, z = 0, lambda = ts->o.feedback_weight, nq = ts->nwords;
	long long pool = pool_size(ts);
	int rc, n = 0, keep = 0, r = -1, lang, failed;

	if (ev_textquery_build_expr(ts, ts->o.proximity) == -1)
		return ev_err_nomem(err);
	if (ts->lex == NULL && (ts->lex = ev_lex_open(ts->o.dict_dir, err)) == NULL)
		return -1;
	/* With a pool, the pass finds its best chunks, and only the first
	 * feedback_docs are read (a swept pass's rows taken as they are). */
	ts->npool = 0;
	ts->read_max = ts->o.feedback_docs;
	rc = ev_textpass_prepare_pass(ts, s, bw, pool > 0 ? pool : ts->o.feedback_docs, text, where,
	    err);
	ts->read_max = 0;
	if (rc == -1)
		return -1;
	if (pool > 0 && ts->swept != NULL) {
		if (pool_room(ts, (size_t)ts->nswept) == -1)
			return ev_err_nomem(err);
		for (long long i = 0; i < ts->nswept; i++)
			ts->pool[ts->npool++] = ts->swept[i].rowid;
		if (ts->nswept > ts->o.feedback_docs)
			ts->nswept = ts->o.feedback_docs;
	}
	while ((rc = ev_textpass_step_pass(ts, s, &row)) == SQLITE_ROW) {
		double score = sqlite3_column_double(row, 1), cw;
		const char *title, *body;
		size_t tlen, blen;

		if (pool > 0 && ts->swept == NULL) {
			if (pool_room(ts, ts->npool + 1) == -1) {
				ev_err_nomem(err);
				goto out;
			}
			ts->pool[ts->npool++] = sqlite3_column_int64(row, 0);
		}
		if (n == ts->o.feedback_docs)
			continue;	/* (a row of the pool only) */
		if (n++ == 0)
			best = score;
		if (ev_texthit_column_text(row, 6, &title, &tlen) == -1 || ev_texthit_column_text(row, 9, &body, &blen) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		c.ntok = 0;
		c.nocc = 0;
		memset(c.counts, 0, sizeof c.counts);
		c.text = title;
		/* its words as they were indexed: stemmed for its language */
		ev_tok_set_lang(ts->tok, (const char *)sqlite3_column_text(row, 16));
		failed = ev_tok_run(ts->tok, title, tlen, on_fb_token, &c, err) == -1;
		c.text = body;
		if (!failed && !c.oom)
			failed = ev_tok_run(ts->tok, body, blen, on_fb_token, &c, err) == -1;
		ev_tok_set_lang(ts->tok, NULL);
		if (failed)
			goto out;
		if (c.oom) {
			ev_err_nomem(err);
			goto out;
		}
		/* The function words of the chunk's language (declared, else
		 * guessed from its function words) are never feedback terms:
		 * "le", "et", "une" of a French chunk.  English's are the
		 * tokeniser's stop words, already left out.  A chunk weighs
		 * its score relative to the best, to the power feedback_focus. */
		lang = chunk_language(&c, row);
		cw = best > 0 && score > 0 ? pow(score / best, ts->o.feedback_focus) : 1.0;
		for (int i = 0; i < c.nocc; i++)
			if (lang == EV_LEX_EN || !(c.occlangs[i] & EV_LEX_BIT(lang)))
				ts->fb[c.occ[i]].weight += cw / c.ntok;
	}
	if (rc != SQLITE_DONE) {
		ev_textpass_step_error(ts, rc, text, where, err);
		goto out;
	}
	sqlite3_reset(s);
	if (ev_textpass_save_pass(ts) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	r = 0;
	/* Fewer chunks than asked for (a small store, or rare words): too
	 * little to learn from, no feedback. */
	if (n < ts->o.feedback_docs || ts->nfb == 0)
		goto out;
	qsort(ts->fb, (size_t)ts->nfb, sizeof *ts->fb, cmp_fbterm);
	n = ts->nfb < ts->o.feedback_terms ? ts->nfb : ts->o.feedback_terms;
	while (n > 0 && ts->fb[n - 1].weight <= 0)	/* only function words */
		n--;
	for (int i = 0; i < n; i++)
		z += ts->fb[i].weight;
	if (z <= 0)
		goto out;
	/* (r is 0 by now: a failure must say -1, or the query would go on
	 * without its feedback, its hits those of another ranking) */
	if (ts->npool > 0 && pool_json(ts) == -1) {
		r = ev_err_nomem(err);
		goto out;
	}
	r = 1;
	ts->use_pool = ts->npool > 0;
	for (int i = 0; i < ts->nwords; i++)
		ts->words[i].weight = 1.0 - lambda;
	/* A term that is a query word adds to the word; the others are kept
	 * at the front, heaviest first, as the feedback terms. */
	for (int i = 0; i < n; i++) {
		struct fbterm t = ts->fb[i];
		double w = lambda * nq * t.weight / z;
		int j;

		/* a query word's stem, or its stem in another query language
		 * (a snippet term added before the expansions) */
		for (j = 0; j < ts->nwords && strcmp(ts->words[j].stem, t.stem) != 0; j++)
			;
		if (j == ts->nwords) {
			int idx = ev_snippet_term_lookup(ts->sn, t.stem, (int)strlen(t.stem), &j);

			if (idx < 0 || idx >= ts->alt_end || j < 0 || j >= ts->nwords)
				j = ts->nwords;
		}
		if (j < ts->nwords) {
			ts->words[j].weight += w;
			continue;
		}
		t.weight = w;
		ts->fb[i] = ts->fb[keep];
		ts->fb[keep++] = t;
	}
	ts->nfeedback = keep;
	for (int i = 0; i < keep; i++) {
		struct fbterm *t = &ts->fb[i];

		if ((t->snipidx = ev_snippet_add_watch(ts->sn, t->stem, (int)strlen(t->stem), err)) == -1) {
			r = -1;
			break;
		}
	}
out:
	free(c.occ);
	free(c.occlangs);
	return r;
}
