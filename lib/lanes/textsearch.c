/* textsearch.c: the text lane.  See textsearch.h. */
#include "textsearch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "bm25.h"
#include "buf.h"
#include "editdist.h"
#include "lenstats.h"
#include "lexicon.h"
#include "postings.h"
#include "qfilter.h"
#include "sweep.h"
#include "textstate.h"
#include "textstats.h"
#include "token.h"

/* A store of this many chunks or more whose totals (lenstats.h) each search
 * counts is told to keep them: the count costs a query tens of ms from here
 * on (a second a million chunks). */
#define TOTALS_NOTE_ROWS 50000

/* Request words: what a query says about the asking, not about its subject
 * ("find papers on ...", "is any information available on ...").  Dropped
 * from a query that has other words (drop_request_words), by their stems. */
static const char *const request_words[] = {
	"paper", "papers", "article", "articles", "document", "documents", "literature",
	"reference", "references", "information", "available", "find", "anything",
	"discuss", "discussed", "discussing", "known", "exist", "existing", NULL
};

static int
on_request_stem(void *ctx, const char *term, int len, int start, int end)
{
	struct ev_textsearch *ts = ctx;

	(void)start, (void)end;
	if (ts->nrequest < MAX_REQUEST && len < (int)sizeof ts->request[0]) {
		memcpy(ts->request[ts->nrequest], term, (size_t)len);
		ts->request[ts->nrequest++][len] = '\0';
	}
	return 0;
}

/* Make the array *pv (a T ** as void *) hold n elements of elem bytes.
 * Returns 0, or -1 (out of memory: the array as it was). */
int
ev_textsearch_resize(void *pv, int n, size_t elem)
{
	void *p;

	memcpy(&p, pv, sizeof p);
	if ((p = realloc(p, (size_t)n * elem)) == NULL)
		return -1;
	memcpy(pv, &p, sizeof p);
	return 0;
}

/* A field's weight w (a word found in it counts w times) where only with
 * of rows chunks have the field: text + (w - text) x with / rows, where
 * text is the text's weight: w itself when every chunk has the field, a
 * word of the text's when none has.  A weight above the text's rewards a
 * chunk for having the field at all: in a store where some documents have
 * titles and others not, it would rank the titled ones above the others
 * whether or not they are what the query asks for. */
static double
field_weight(double w, double text, long long with, long long rows)
{
	return rows > 0 ? text + (w - text) * ((double)with / (double)rows) : text;
}

/* What the text lane takes from the chunks of the statistics ranked with,
 * else of the store (textopts.h): BM25's k1 and b, those that are NAN, and
 * the title's and section title's weights.  b: the normalisation's own
 * spread across the chunks, b x the lengths', held to norm_spread, b at
 * most EV_TEXTSEARCH_B_MAX.  k1: k1_scale x ln(the mean length), which
 * grows as the chunks lengthen and a word's repeats become commoner
 * (docs/quality.md measures it), 0 for a mean of 1 or less.  The weights:
 * field_weight(), from the chunks that have a title, and a section title.
 * Returns 0 or -1. */
static int
textsearch_store_calibrated(struct ev_textsearch *ts, struct ev_err *err)
{
	struct ev_lenstats ls;
	double spread, mean;

	if (ts->o.stats != NULL) {
		ls.rows = ev_textstats_rows(ts->o.stats);
		ls.tokens = ev_textstats_tokens(ts->o.stats);
		ls.squares = ev_textstats_squares(ts->o.stats);
		ls.titled = ev_textstats_titled(ts->o.stats);
		ls.sectioned = ev_textstats_sectioned(ts->o.stats);
	} else if (ev_lenstats_get(ts->st, ts->post, &ls, err) == -1) {
		return -1;
	} else {
		ts->totals_counted = ls.counted && ls.rows >= TOTALS_NOTE_ROWS;
	}
	ts->o.w_title = field_weight(ts->o.w_title, ts->o.w_text, ls.titled, ls.rows);
	ts->o.w_section = field_weight(ts->o.w_section, ts->o.w_text, ls.sectioned, ls.rows);
	if (isnan(ts->o.b)) {
		spread = ev_lenstats_spread(ls.rows, ls.tokens, ls.squares);
		ts->o.b = spread > ts->o.norm_spread / EV_TEXTSEARCH_B_MAX ?
		    ts->o.norm_spread / spread : EV_TEXTSEARCH_B_MAX;
	}
	if (isnan(ts->o.k1)) {
		mean = ls.rows > 0 ? (double)ls.tokens / (double)ls.rows : 0;
		ts->o.k1 = mean > 1 ? ts->o.k1_scale * log(mean) : 0;
	}
	return 0;
}

struct ev_textsearch *
ev_textsearch_open(struct ev_store *st, const struct ev_textsearch_opts *opts, struct ev_err *err)
{
	struct ev_textsearch *ts = calloc(1, sizeof *ts);

	if (ts == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	ts->st = st;
	ts->o = *opts;
	strcpy(ts->lang_key, "[*]");	/* (each query sets its own) */
	ts->regions = -1;
	ts->nchunks = -1;
	ts->fresh = -1;
	if (ts->o.stats != NULL && ts->o.raw_fts) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "--stats cannot score an FTS5 expression"
		    " (--raw-fts): its phrases have no statistics");
		free(ts);
		return NULL;
	}
	/* the postings file (textsearch.h), before the query languages: it
	 * holds the chunks' languages */
	if (!ts->o.exhaustive && !ts->o.raw_fts) {
		ts->post = ev_postings_open(st, &ts->post_stale, err);
		ts->post_errno = errno;
		if ((ts->post == NULL && err->code != 0) ||
		    (ts->post != NULL && (ts->sweep = ev_bm25_sweep_new(ts->post, err)) == NULL)) {
			ev_textsearch_close(ts);
			return NULL;
		}
		if (ts->sweep != NULL && ts->o.split_rows != 0)
			ev_bm25_sweep_split(ts->sweep, ts->o.split_rows < 0 ? 0 : ts->o.split_rows);
	}
	if ((isnan(ts->o.b) || isnan(ts->o.k1) || ts->o.w_title != ts->o.w_text ||
	    ts->o.w_section != ts->o.w_text) &&
	    textsearch_store_calibrated(ts, err) == -1) {
		ev_textsearch_close(ts);
		return NULL;
	}
	if ((ts->tok = ev_tok_open(ev_store_db(st), err)) == NULL ||
	    (ts->sn = ev_snippet_new(ts->tok, &ts->o.snippet, err)) == NULL ||
	    ev_bm25_register(ev_store_db(st), err) == -1 ||
	    ev_textquery_default_query_langs(ts, err) == -1 ||
	    ev_textquery_sole_language(ts, err) == -1) {
		ev_textsearch_close(ts);
		return NULL;
	}
	/* FTS5 reads its posting lists a page at a time: map the store rather
	 * than copy each page out of the kernel (as the vector lane does), as
	 * much of it as SQLite allows (its SQLITE_MAX_MMAP_SIZE caps this).
	 * Not when the postings file ranks the queries: then the store gives
	 * only the hits' rows, a few pages each, and a fault on a page out of
	 * the page cache reads the kernel's whole read-around window (8 MB on
	 * a disk set to read ahead that much): one query on a 1 M store out of
	 * the cache read 1.2 GB in 0.96 s mapped, 2 MB in 0.07 s copied. */
	if (ts->post == NULL)
		ev_store_exec(st, "PRAGMA mmap_size = 1099511627776", NULL);
	for (int i = 0; ts->o.drop_request_words && request_words[i] != NULL; i++)
		if (ev_tok_run(ts->tok, request_words[i], strlen(request_words[i]), on_request_stem, ts,
		    err) == -1) {
			ev_textsearch_close(ts);
			return NULL;
		}
	return ts;
}

void
ev_textsearch_last_query(struct ev_textsearch *ts, int last)
{
	ts->last_query = last;
}

unsigned
ev_textsearch_no_dict(const struct ev_textsearch *ts)
{
	return ts->no_dict;
}

void
ev_textsearch_close(struct ev_textsearch *ts)
{
	if (ts == NULL)
		return;
	ev_textquery_clear_words(ts);
	free(ts->words);
	free(ts->fb);
	free(ts->fbslot);
	free(ts->pw);
	free(ts->pka);
	free(ts->pkb);
	ev_buf_release(&ts->key);
	free(ts->idf);
	free(ts->pstart);
	free(ts->plen);
	free(ts->ppw);
	free(ts->pidf);
	free(ts->ub);
	free(ts->order);
	free(ts->previdf);
	free(ts->prevstart);
	free(ts->prevlen);
	free(ts->vocab);
	ev_buf_release(&ts->vocab_bytes);
	ev_snippet_free(ts->sn);
	ev_lex_close(ts->lex);
	ev_tok_close(ts->tok);
	ev_buf_release(&ts->expr);
	ev_buf_release(&ts->sql);
	ev_buf_release(&ts->snip);
	ev_buf_release(&ts->lines);
	free(ts->spans);
	ev_buf_release(&ts->pexpr);
	ev_buf_release(&ts->prevexpr);
	ev_bm25_sweep_free(ts->sweep);	/* (its job ended: ts->ra is free) */
	free(ts->ra.rowid);
	free(ts->pool);
	ev_buf_release(&ts->pooljson);
	ev_postings_close(ts->post);
	ev_textdoc_free(ts->doc);
	ev_buf_release(&ts->toks);
	free(ts->ph);
	free(ts->tokoff);
	free(ts->toklen);
	free(ts->tokp);
	free(ts->nalt);
	free(ts);
}

#define SELECT_HITS \
	"SELECT t.r, -t.s, c.id, c.doc_id, c.section_id, c.chunk_index, c.title, c.section_title," \
	" c.section_path, c.text, c.offset_start, c.offset_end, c.content_hash, d.source_uri, d.metadata," \
	" d.language, c.language, d.source_type, d.published_date" \
	" FROM (SELECT chunks_fts.rowid AS r, ev_bm25(chunks_fts, ?2, ?3, ?4, ?6) AS s FROM chunks_fts"
#define SELECT_TAIL \
	" ORDER BY s, r LIMIT ?5) AS t JOIN chunks c ON c.rowid = t.r" \
	" LEFT JOIN documents d ON d.doc_id = c.doc_id ORDER BY t.s, t.r"

/* (the feedback pass's pool: textstate.h) */
#define IN_POOL " AND (?7 IS NULL OR chunks_fts.rowid IN (SELECT value FROM json_each(?7)))"

static const char sql_plain[] = SELECT_HITS " WHERE chunks_fts MATCH ?1" IN_POOL SELECT_TAIL;

/* The parameters of the search statement: ?1 the MATCH expression, ?2 to ?4
 * the column weights, ?5 the limit, ?6 the phrase weights (a pointer), ?7
 * NULL or the rows it may rank (a JSON array), then the filters' values
 * (qfilter.h). */
#define FIRST_FILTER_PARAM 8

/* The search statement into *s: the cached one without filters, or one made
 * for these filters (*own set: the caller finalizes it), compiled into f
 * and their values bound from it (f must outlive the statement's use).
 * Returns 0, or -1 with *err set (code 2 naming `where`: a bad filter). */
static int
prepare_search(struct ev_textsearch *ts, json_t *filters, struct ev_qfilter *f, sqlite3_stmt **s,
    int *own, const char *where, struct ev_err *err)
{
	*s = NULL;
	*own = 0;
	if (filters == NULL || json_is_null(filters))
		return (*s = ev_store_prepare(ts->st, sql_plain, err)) == NULL ? -1 : 0;
	if (ev_qfilter_build(f, filters, FIRST_FILTER_PARAM, where, err) == -1)
		return -1;
	ev_buf_reset(&ts->sql);
	if (ev_buf_adds(&ts->sql, SELECT_HITS " JOIN chunks fc ON fc.rowid = chunks_fts.rowid"
	    " LEFT JOIN documents fd ON fd.doc_id = fc.doc_id WHERE chunks_fts MATCH ?1" IN_POOL) == -1 ||
	    ev_buf_add(&ts->sql, f->sql.p, f->sql.len) == -1 || ev_buf_adds(&ts->sql, SELECT_TAIL) == -1)
		return ev_err_nomem(err);
	if (sqlite3_prepare_v2(ev_store_db(ts->st), ev_buf_str(&ts->sql), -1, s, NULL) != SQLITE_OK)
		return ev_store_error(ts->st, "preparing the filtered query", err);
	*own = 1;
	return ev_qfilter_bind(f, ts->st, *s, err);
}

int
ev_textsearch_pruned(const struct ev_textsearch *ts)
{
	return ts->pruned;
}

int
ev_textsearch_swept(const struct ev_textsearch *ts)
{
	return ts->used_sweep;
}

void
ev_textsearch_advise(const struct ev_textsearch *ts, const char *db, ev_note_fn *note, void *ctx)
{
	if (ts->post_stale == EV_POSTINGS_UNREADABLE)
		ev_note(note, ctx, "%s: its postings file %s%s cannot be read (%s): queries rank"
		    " through FTS5, more slowly; let this user read it, or run 'ev-ingest --db %s"
		    " --postings' to make it again", db, db, EV_POSTINGS_SUFFIX,
		    strerror(ts->post_errno), db);
	else if (ts->post_stale)
		ev_note(note, ctx, "%s: its postings file is %s: queries rank through FTS5, more"
		    " slowly; run 'ev-ingest --db %s --postings' to make it again", db,
		    ts->post_stale == EV_POSTINGS_DAMAGED ? "damaged (cut short, or its header is not"
		    " a postings file's)" : "stale (the store was written since, or another version of"
		    " evkit made it)", db);
	if (ts->totals_counted)
		ev_note(note, ctx, "%s: the store keeps no totals of its chunks (their lengths and"
		    " titles) for its index as it is (another version of evkit wrote it, or another"
		    " program): each search counts them, a second a million chunks; run"
		    " 'ev-ingest --db %s < /dev/null' to keep them", db, db);
}

static int search_query(struct ev_textsearch *ts, json_t *q, const char *where, json_t *hits,
	int *flags, struct ev_err *err);

/* Add each row (key, count) of the query sql to out as an entry of kind.
 * Returns 0, or -1 with *err set (what names the reading). */
static int
add_counts(struct ev_textsearch *ts, const char *sql, enum ev_stats_kind kind, const char *what,
    struct ev_textstats *out, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(ts->st, sql, err);
	int rc;

	if (s == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (sqlite3_column_text(s, 0) != NULL && ev_textstats_add(out, kind,
		    (const char *)sqlite3_column_text(s, 0), (size_t)sqlite3_column_bytes(s, 0),
		    sqlite3_column_int64(s, 1), err) == -1) {
			sqlite3_reset(s);
			return -1;
		}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : ev_store_error(ts->st, what, err);
}

int
ev_textsearch_stats_store(struct ev_textsearch *ts, struct ev_textstats *out, struct ev_err *err)
{
	struct ev_lenstats ls;

	if (ev_lenstats_get(ts->st, ts->post, &ls, err) == -1)
		return -1;
	ev_textstats_add_totals(out, ls.rows, ls.tokens, ls.squares, ls.titled, ls.sectioned);
	if (add_counts(ts, "SELECT term, doc FROM chunks_vocab", EV_STATS_TERM, "reading the vocabulary",
	    out, err) == -1)
		return -1;
	if (add_counts(ts, "SELECT language, count(*) FROM documents WHERE language IS NOT NULL"
	    " GROUP BY language", EV_STATS_LANGUAGE, "reading the documents' languages", out, err) == -1)
		return -1;
	return add_counts(ts, "SELECT language, count(*) FROM chunks WHERE language IS NOT NULL"
	    " GROUP BY language", EV_STATS_CHUNK_LANGUAGE, "reading the chunks' languages", out, err);
}

static int count_pairs(struct ev_textsearch *ts, struct ev_textstats *out, struct ev_err *err);

int
ev_textsearch_stats_query(struct ev_textsearch *ts, json_t *q, const char *where,
    struct ev_textstats *out, struct ev_err *err)
{
	json_t *text = json_object_get(q, "query");
	int own_lang, r;

	ev_err_clear(err);
	if (!json_is_string(text))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'query' must be a string");
	if ((own_lang = ev_textquery_query_langs(ts, q, where, err)) == -1)
		return -1;
	r = ev_textquery_query_words(ts, q, json_string_value(text), json_string_length(text), err);
	if (r == 0)
		r = count_pairs(ts, out, err);
	/* back to the store's languages for the next query, as the search does */
	if (own_lang && ev_textquery_default_query_langs(ts, r == -1 ? NULL : err) == -1)
		r = -1;
	return r;
}

/* Count, into out under ts->key, the chunks FTS5 matches with the phrase of
 * the words a (and b after it, when not NULL), unless out counts it already.
 * Returns 0 or -1 with *err set. */
static int
count_phrase(struct ev_textsearch *ts, struct ev_textstats *out, const char *a, const char *b,
    struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (ev_textstats_get(out, EV_STATS_PHRASE, ev_buf_str(&ts->key)) >= 0)
		return 0;	/* counted for an earlier query */
	ev_buf_reset(&ts->expr);
	ts->npw = 0;
	if (ev_textquery_add_phrase(ts, a, b, 1.0, NULL, NULL) == -1)
		return ev_err_nomem(err);
	if ((s = ev_store_prepare(ts->st, "SELECT count(*) FROM chunks_fts WHERE chunks_fts"
	    " MATCH ?1", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, ev_buf_str(&ts->expr), (int)ts->expr.len, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && ev_textstats_add(out, EV_STATS_PHRASE, ev_buf_str(&ts->key),
	    ts->key.len, sqlite3_column_int64(s, 0), err) == -1) {
		sqlite3_reset(s);
		return -1;
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? 0 : ev_store_error(ts->st, "counting a query's words", err);
}

/* Count, into out, the chunks holding each query word (ts->words) and each
 * pair of adjacent ones, as the search's phrases match them: a word stemmed
 * for several languages matches a chunk holding any of its stems, which the
 * vocabulary's per-stem counts cannot sum.  Returns 0 or -1 with *err set. */
static int
count_pairs(struct ev_textsearch *ts, struct ev_textstats *out, struct ev_err *err)
{
	for (int i = 0; i < ts->nwords; i++) {
		const struct word *w = &ts->words[i];

		if (ev_textpass_phrase_key(ts, w->stem, NULL) == -1)
			return ev_err_nomem(err);
		if (count_phrase(ts, out, w->surface, NULL, err) == -1)
			return -1;
		if (i + 1 == ts->nwords)
			break;
		if (ev_textpass_phrase_key(ts, w->stem, ts->words[i + 1].stem) == -1)
			return ev_err_nomem(err);
		if (count_phrase(ts, out, w->surface, ts->words[i + 1].surface, err) == -1)
			return -1;
	}
	return 0;
}

/* A query word's stem in a query language: a term of its group. */
struct alt_ctx {
	struct ev_textsearch *ts;
	int group;
	struct ev_err *err;
};

static int
add_alternative(void *ctx, const char *term, int len, int start, int end)
{
	struct alt_ctx *a = ctx;
	int idx = ev_snippet_add_term(a->ts->sn, term, len, a->group, a->err);

	(void)start, (void)end;
	if (idx >= a->ts->alt_end)
		a->ts->alt_end = idx + 1;
	return idx == -1;
}

int
ev_textsearch_query(struct ev_textsearch *ts, json_t *q, const char *where, json_t *hits,
    int *flags, struct ev_err *err)
{
	int own_lang = ev_textquery_query_langs(ts, q, where, err), r;

	if (own_lang == -1)
		return -1;
	r = search_query(ts, q, where, hits, flags, err);
	/* back to the store's languages for the next query */
	if (own_lang && ev_textquery_default_query_langs(ts, r == -1 ? NULL : err) == -1)
		r = -1;
	return r;
}

/* The words of query q (its text[0..textlen)), their vocabulary look-ups,
 * typo expansions and stems in the other query languages, and the
 * snippets' terms of them all, for search_query(); *flags gains
 * EV_TS_TRUNCATED and EV_TS_NO_DICT as they apply.  Returns 0, or -1 with
 * *err set. */
static int
query_terms(struct ev_textsearch *ts, json_t *q, const char *text, size_t textlen, int *flags,
    struct ev_err *err)
{
	ev_snippet_reset(ts->sn);
	if (ev_textquery_query_words(ts, q, text, textlen, err) == -1)
		return -1;
	*flags |= ts->truncated ? EV_TS_TRUNCATED : 0;
	/* A query read as a document is not repaired, as a document is not:
	 * a word of a few hundred missing from the index weighs little, and
	 * looking each one up in the vocabulary took a tenth of such a query's
	 * time on a large store. */
	ts->as_document = ts->o.long_query > 0 && ts->nwords > ts->o.long_query;
	for (int i = 0; i < ts->nwords && !ts->o.raw_fts && !ts->as_document; i++) {
		struct word *w = &ts->words[i];
		int in;

		if (ts->o.fuzzy == 0)
			break;
		/* no edit distance between words of scripts without spaces,
		 * nor on numbers and codes: "3900" is not a typo of "3000" */
		if (ev_analyze_has_unspaced(w->surface, strlen(w->surface)) ||
		    strpbrk(w->surface, "0123456789") != NULL)
			continue;
		if ((in = ev_texttypo_in_vocab(ts, w, err)) == -1)
			return -1;
		/* A word missing from the index is a typo only when it is
		 * not a real word: "much" is never "repaired" to "ruch". */
		if (!in && ev_texttypo_allowed_distance(ts, ev_editdist_cplen(w->surface, (int)strlen(w->surface))) == 0)
			continue;	/* too short to expand: no need to ask */
		if (!in && (in = ev_texttypo_is_real_word(ts, w, err)) == -1)
			return -1;
		if (!in && ev_texttypo_expand(ts, i, err) == -1)
			return -1;
	}
	*flags |= ts->no_dict_now ? EV_TS_NO_DICT : 0;
	for (int i = 0; i < ts->nwords; i++)
		if (ev_snippet_add_term(ts->sn, ts->words[i].stem, (int)strlen(ts->words[i].stem), i, err) == -1)
			return -1;
	/* and its stems in the other query languages, which the chunks of
	 * those languages hold */
	ts->alt_end = ts->nwords;
	for (int i = 0; i < ts->nwords; i++) {
		struct alt_ctx a = { ts, i, err };

		if (ev_tok_run_query_stems(ts->tok, ts->words[i].surface, strlen(ts->words[i].surface),
		    add_alternative, &a, err) == -1 || err->code != 0)
			return -1;
	}
	for (int i = 0; i < ts->nwords; i++) {
		struct word *w = &ts->words[i];

		for (int j = 0; j < w->nexp; j++)
			if ((w->expidx[j] = ev_snippet_add_term(ts->sn, w->exp[j], (int)strlen(w->exp[j]),
			    i, err)) == -1)
				return -1;
	}
	return 0;
}

/* ev_textsearch_query() once the query languages are set. */
static int
search_query(struct ev_textsearch *ts, json_t *q, const char *where, json_t *hits,
    int *flags, struct ev_err *err)
{
	struct ev_qfilter f = EV_QFILTER_INIT;
	struct ev_bm25_weights bw;
	json_t *filters = json_object_get(q, "filters");
	sqlite3_stmt *s = NULL, *row;
	const char *text;
	size_t textlen;
	int own = 0, rc, n = 0, r = -1, began = 0;
	size_t first = json_array_size(hits);
	double best = 0, pair_weight;

	*flags = 0;
	ts->use_pool = 0;
	ev_err_clear(err);
	if (!json_is_string(json_object_get(q, "query")))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'query' must be a string");
	text = json_string_value(json_object_get(q, "query"));
	textlen = json_string_length(json_object_get(q, "query"));

	if (query_terms(ts, q, text, textlen, flags, err) == -1)
		return -1;
	if (!ts->o.raw_fts && ts->nwords == 0) {
		*flags |= EV_TS_NO_TERMS;
		return 0;
	}

	/* The statement, the feedback pass, then the search, in one read
	 * transaction: every pass sees one snapshot of the store, so that the
	 * IDFs one statement counts hold for the next. */
	if (sqlite3_get_autocommit(ev_store_db(ts->st))) {
		if (ev_store_exec(ts->st, "BEGIN", err) == -1)
			return -1;
		began = 1;
	}
	if (prepare_search(ts, filters, &f, &s, &own, where, err) == -1)
		goto out;
	ts->filtered = own;
	ts->fresh = -1;
	if (ts->sweep != NULL)
		ev_bm25_sweep_forget(ts->sweep);	/* a new query, maybe a new snapshot */
	pair_weight = ts->as_document ? 0 : ts->o.proximity;
	if (ts->as_document)
		ev_textquery_weigh_as_document(ts);
	if (!ts->o.raw_fts && !ts->o.all_terms && ts->o.feedback_docs > 0 && !ts->as_document) {
		int fed = ev_textfeedback_run(ts, s, &bw, text, where, err);

		if (fed == -1)
			goto out;
		if (fed)
			pair_weight *= 1.0 - ts->o.feedback_weight;
	}
	if (ts->o.raw_fts && textlen > 0 && text[0] == '*') {
		/* FTS5 answers "MATCH '*reads'" with one of its own counters
		 * (a row of rowid 0, no chunk): no hits and no error */
		ev_err_set(err, EV_EXIT_USAGE, where, "bad FTS5 expression '%s': FTS5 reads an"
		    " expression that begins with '*' as a request for one of its own counters, not"
		    " a search; a prefix query puts the '*' after the word ('word*')", text);
		goto out;
	}
	if (ts->o.raw_fts) {
		ev_buf_reset(&ts->expr);
		ts->npw = 0;
		if (ev_buf_add(&ts->expr, text, textlen) == -1) {
			ev_err_nomem(err);
			goto out;
		}
	} else if (ev_textquery_build_expr(ts, pair_weight) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	ts->last_sweep = ts->last_query;
	rc = ev_textpass_prepare_pass(ts, s, &bw, ts->o.k, text, where, err);
	ts->last_sweep = 0;
	ts->use_pool = 0;
	if (rc == -1)
		goto out;
	while ((rc = ev_textpass_step_pass(ts, s, &row)) == SQLITE_ROW) {
		json_t *hit;

		if (n == 0)
			best = sqlite3_column_double(row, 1);
		if ((hit = ev_texthit_make_hit(ts, row, q, n + 1, best, err)) == NULL)
			goto out;
		if (json_array_append_new(hits, hit) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		n++;
	}
	if (rc != SQLITE_DONE) {
		ev_textpass_step_error(ts, rc, text, where, err);
		goto out;
	}
	if (ev_textdoc_rescore(ts, hits, first, err) == -1)
		goto out;
	r = n;
out:
	if (own)
		sqlite3_finalize(s);
	else if (s != NULL)
		sqlite3_reset(s);
	ev_qfilter_release(&f);
	if (began) {
		struct ev_err ignored = { 0 };

		ev_store_exec(ts->st, "ROLLBACK", &ignored);	/* it only read */
	}
	return r;
}
