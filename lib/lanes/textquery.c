/* textquery.c: a query's words (stop words, request words and function
 * words dropped) and the MATCH expression made of them.  See textstate.h. */
#include "textstate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "langid.h"
#include "postings.h"
#include "lexicon.h"
#include "snippet.h"
#include "textstats.h"
#include "token.h"

#define MAX_WORDS 1000		/* distinct words of a query that are searched */
#define EXPANSION_DISCOUNT 0.1	/* an expansion weighs its word's weight x (1 - this x distance) */

static int
is_request(const struct ev_textsearch *ts, const char *stem)
{
	for (int i = 0; i < ts->nrequest; i++)
		if (strcmp(ts->request[i], stem) == 0)
			return 1;
	return 0;
}

/* The global statistics' chunk languages (most chunks first, then by code)
 * into codes/held, at most EV_ANALYZE_MAX_QUERY_LANGS.  Returns how many. */
static int
stats_langs(const struct ev_textsearch *ts, const char **codes,
    char held[][EV_ANALYZE_CODE_MAX], long long *count)
{
	size_t n = ev_textstats_count(ts->o.stats, EV_STATS_CHUNK_LANGUAGE);
	int k = 0;

	for (size_t i = 0; i < n; i++) {
		long long c;
		const char *code = ev_textstats_key(ts->o.stats, EV_STATS_CHUNK_LANGUAGE, i, &c);
		char norm[EV_ANALYZE_CODE_MAX];
		int j;

		if (c <= 0 || ev_analyze_norm(code, strlen(code), norm) == -1)
			continue;
		/* insertion into the order the store's own reading gives */
		for (j = k; j > 0 && (count[j - 1] < c ||
		    (count[j - 1] == c && strcmp(held[j - 1], norm) > 0)); j--)
			if (j < EV_ANALYZE_MAX_QUERY_LANGS) {
				memcpy(held[j], held[j - 1], EV_ANALYZE_CODE_MAX);
				count[j] = count[j - 1];
			}
		if (j < EV_ANALYZE_MAX_QUERY_LANGS) {
			memcpy(held[j], norm, EV_ANALYZE_CODE_MAX);
			count[j] = c;
			if (k < EV_ANALYZE_MAX_QUERY_LANGS)
				k++;
		}
	}
	for (int i = 0; i < k; i++)
		codes[i] = held[i];
	return k;
}

/* Stem queries for the languages of the store, or of the whole collection
 * with global statistics, so that every shard analyses a query alike.
 * Returns 0, or -1 with *err set. */
int
ev_textquery_default_query_langs(struct ev_textsearch *ts, struct ev_err *err)
{
	const char *codes[EV_ANALYZE_MAX_QUERY_LANGS];
	char held[EV_ANALYZE_MAX_QUERY_LANGS][EV_ANALYZE_CODE_MAX];
	long long count[EV_ANALYZE_MAX_QUERY_LANGS];

	if (ts->o.stats == NULL && ts->post != NULL) {
		/* as the file's build read them: no scan of every chunk */
		int n = ev_postings_nlangs(ts->post);
		const char *langs[EV_ANALYZE_MAX_QUERY_LANGS];

		for (int i = 0; i < n && i < EV_ANALYZE_MAX_QUERY_LANGS; i++)
			langs[i] = ev_postings_lang(ts->post, i, NULL);
		ev_tok_set_store_langs(ts->tok, langs, n < EV_ANALYZE_MAX_QUERY_LANGS ? n :
		    EV_ANALYZE_MAX_QUERY_LANGS);
		return 0;
	}
	if (ts->o.stats == NULL)
		return ev_tok_store_langs(ts->tok, ev_store_db(ts->st), err) == -1 ? -1 : 0;
	ev_tok_set_store_langs(ts->tok, codes, stats_langs(ts, codes, held, count));
	return 0;
}

/* ts->sole_lang: the language of every chunk of the store (of the collection,
 * with global statistics), when they have one alone.  Returns 0, or -1 with
 * *err set. */
int
ev_textquery_sole_language(struct ev_textsearch *ts, struct ev_err *err)
{
	sqlite3_stmt *s;
	const char *code;

	if (ts->o.stats != NULL) {
		const char *codes[EV_ANALYZE_MAX_QUERY_LANGS];
		char held[EV_ANALYZE_MAX_QUERY_LANGS][EV_ANALYZE_CODE_MAX];
		long long count[EV_ANALYZE_MAX_QUERY_LANGS];

		if (stats_langs(ts, codes, held, count) == 1)
			strcpy(ts->sole_lang, held[0]);
		return 0;
	}
	if (ts->post != NULL) {
		code = ev_postings_nlangs(ts->post) == 1 ? ev_postings_lang(ts->post, 0, NULL) : NULL;
		if (code != NULL && ev_analyze_norm(code, strlen(code), ts->sole_lang) == -1)
			ts->sole_lang[0] = '\0';
		return 0;
	}
	if ((s = ev_store_prepare(ts->st, "SELECT min(language), count(DISTINCT language)"
	    " FROM chunks", err)) == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_ROW)
		return ev_store_error(ts->st, "reading the chunks' languages", err);
	code = (const char *)sqlite3_column_text(s, 0);
	if (sqlite3_column_int(s, 1) == 1 && code != NULL &&
	    ev_analyze_norm(code, strlen(code), ts->sole_lang) == -1)
		ts->sole_lang[0] = '\0';
	sqlite3_reset(s);
	return 0;
}

void
ev_textquery_clear_words(struct ev_textsearch *ts)
{
	for (int i = 0; i < ts->nwords; i++) {
		struct word *w = &ts->words[i];

		free(w->stem);
		free(w->surface);
		for (int j = 0; j < w->nexp; j++) {
			free(w->exp[j]);
			free(w->expword[j]);
		}
		free(w->exp);
		free(w->expword);
		free(w->dist);
		free(w->by);
		free(w->expidx);
	}
	ts->nwords = 0;
	ts->truncated = 0;
	ts->no_dict_now = 0;
	for (int i = 0; i < ts->nfb; i++) {
		free(ts->fb[i].stem);
		free(ts->fb[i].surface);
	}
	ts->nfb = ts->nfeedback = 0;
	ts->nprev = 0;
	for (int i = 0; i < ts->nslots; i++)
		ts->fbslot[i] = -1;
}

struct collect {
	struct ev_textsearch *ts;
	const char *text;
};

/* A token of the query: a new word unless a stop word or seen. */
static int
on_query_token(void *ctx, const char *term, int len, int start, int end)
{
	struct collect *c = ctx;
	struct ev_textsearch *ts = c->ts;
	struct word *w;

	if (ev_snippet_is_stop(ts->tok, term, len, c->text + start, end - start))
		return 0;
	for (int i = 0; i < ts->nwords; i++)
		if ((int)strlen(ts->words[i].stem) == len && memcmp(ts->words[i].stem, term, (size_t)len) == 0) {
			ts->words[i].qtf++;
			return 0;
		}
	if (ts->nwords == MAX_WORDS) {
		ts->truncated = 1;
		return 0;
	}
	if (ts->nwords == ts->capwords) {
		int cap = ts->capwords ? 2 * ts->capwords : 16;

		if ((w = realloc(ts->words, (size_t)cap * sizeof *w)) == NULL)
			goto nomem;
		ts->words = w;
		ts->capwords = cap;
	}
	w = &ts->words[ts->nwords];
	memset(w, 0, sizeof *w);
	w->stem = strndup(term, (size_t)len);
	w->surface = strndup(c->text + start, (size_t)(end - start));
	w->weight = 1.0;
	w->qtf = 1;
	ts->nwords++;
	if (w->stem == NULL || w->surface == NULL)
		goto nomem;
	return 0;
nomem:
	ev_err_nomem(ts->err);
	return 1;
}

/* Whether w is a request word. */
static int
is_request_word(const struct ev_textsearch *ts, const struct word *w, int lang)
{
	(void)lang;
	return is_request(ts, w->stem);
}

/* Whether w is a function word of lang (lexicon.h). */
static int
is_function_word(const struct ev_textsearch *ts, const struct word *w, int lang)
{
	return (ev_lex_stop_langs(ts->lex, w->surface, strlen(w->surface)) & EV_LEX_BIT(lang)) != 0;
}

/* Drop the words that drop(ts, word, lang) says, unless they are all the
 * query has. */
static void
drop_words(struct ev_textsearch *ts, int (*drop)(const struct ev_textsearch *, const struct word *,
    int), int lang)
{
	int i, n = 0;

	for (i = 0; i < ts->nwords; i++)
		n += drop(ts, &ts->words[i], lang);
	if (n == 0 || n == ts->nwords)
		return;
	n = 0;
	for (i = 0; i < ts->nwords; i++) {
		if (drop(ts, &ts->words[i], lang)) {
			free(ts->words[i].stem);
			free(ts->words[i].surface);
			continue;
		}
		ts->words[n++] = ts->words[i];
	}
	ts->nwords = n;
}

/* Drop the function words of the query's language when it is one of the
 * lexicon's other than English (whose function words the tokeniser's stop
 * list drops already): the query record's "language", else the store's
 * when its chunks have one alone, else the one the query's own function
 * words show (langid.h).  Returns 0, or -1 with *err set. */
static int
drop_function_words(struct ev_textsearch *ts, json_t *q, const char *text, size_t len,
    struct ev_err *err)
{
	json_t *l = json_object_get(q, "language");
	char code[EV_ANALYZE_CODE_MAX];
	int lang;

	if (ts->lex == NULL && (ts->lex = ev_lex_open(ts->o.dict_dir, err)) == NULL)
		return -1;
	if (json_is_string(l))	/* checked by ev_textquery_query_langs() */
		ev_analyze_norm(json_string_value(l), json_string_length(l), code);
	else if (ts->sole_lang[0] != '\0')
		strcpy(code, ts->sole_lang);
	else
		ev_langid(ts->lex, text, len, code);
	if ((lang = ev_lex_lang(code, strlen(code))) > EV_LEX_EN)
		drop_words(ts, is_function_word, lang);
	return 0;
}

/* Append s as the inside of an FTS5 string: a quote doubled. */
int
ev_textquery_add_fts_chars(struct ev_buf *b, const char *s)
{
	int r = 0;

	for (; *s != '\0' && r == 0; s++)
		r = *s == '"' ? ev_buf_adds(b, "\"\"") : ev_buf_addc(b, *s);
	return r;
}

/* Append one phrase of the MATCH expression: the words a (and b, when not
 * NULL, after it) as an FTS5 string, and its weight to ts->pw.  Returns 0 or
 * -1 (out of memory). */
int
ev_textquery_add_phrase(struct ev_textsearch *ts, const char *a, const char *b, double weight, const char *ka,
    const char *kb)
{
	struct ev_buf *e = &ts->expr;

	int i = ts->npw;

	if (ts->npw == ts->cappw) {
		int cap = ts->cappw ? 2 * ts->cappw : 64;

		if (ev_textsearch_resize(&ts->pw, cap, sizeof *ts->pw) == -1 ||
		    ev_textsearch_resize(&ts->idf, cap, sizeof *ts->idf) == -1 ||
		    ev_textsearch_resize(&ts->pstart, cap, sizeof *ts->pstart) == -1 ||
		    ev_textsearch_resize(&ts->plen, cap, sizeof *ts->plen) == -1 ||
		    ev_textsearch_resize(&ts->pka, cap, sizeof *ts->pka) == -1 ||
		    ev_textsearch_resize(&ts->pkb, cap, sizeof *ts->pkb) == -1)
			return -1;
		ts->cappw = cap;
	}
	ts->pka[i] = ka;
	ts->pkb[i] = kb;
	ts->npw++;
	ts->pw[i] = weight;
	ts->idf[i] = 0;
	ts->pstart[i] = (int)e->len;
	if (ev_buf_addc(e, '"') == -1 || ev_textquery_add_fts_chars(e, a) == -1)
		return -1;
	if (b != NULL && (ev_buf_addc(e, ' ') == -1 || ev_textquery_add_fts_chars(e, b) == -1))
		return -1;
	if (ev_buf_addc(e, '"') == -1)
		return -1;
	ts->plen[i] = (int)e->len - ts->pstart[i];
	return 0;
}

/* Append the words, each with its fuzzy expansions, OR-ed (or AND-ed with
 * all_terms, unless any is set), each phrase weighing weight, or its word's
 * weight when weight < 0.  Returns 0 or -1 (out of memory). */
static int
add_words(struct ev_textsearch *ts, double weight, int any)
{
	struct ev_buf *b = &ts->expr;
	int r = 0;

	for (int i = 0; i < ts->nwords && r == 0; i++) {
		const struct word *w = &ts->words[i];
		double wt = weight < 0 ? w->weight : weight;

		if (i > 0)
			r = ev_buf_adds(b, ts->o.all_terms && !any ? " AND " : " OR ");
		if (w->nexp > 0 && r == 0)
			r = ev_buf_addc(b, '(');
		if (r == 0)
			r = ev_textquery_add_phrase(ts, w->surface, NULL, wt, w->stem, NULL);
		for (int j = 0; j < w->nexp && r == 0; j++)
			if ((r = ev_buf_adds(b, " OR ")) == 0)
				r = ev_textquery_add_phrase(ts, w->expword[j], NULL,
				    wt * (1.0 - EXPANSION_DISCOUNT * w->dist[j]), w->exp[j], NULL);
		if (w->nexp > 0 && r == 0)
			r = ev_buf_addc(b, ')');
	}
	return r;
}

/* The MATCH expression into ts->expr and the weight of each of its phrases
 * into ts->pw: the words (each with its fuzzy expansions, OR-ed, or AND-ed
 * with all_terms), the pairs of consecutive words (proximity; pair_weight is
 * the weight of a pair) and the first ts->nfeedback feedback terms.  Pairs
 * and feedback terms only rank: when they could match where the words do
 * not, the words come first again, weighing nothing, as a filter:
 * "(WORDS) AND (WORDS OR PAIRS OR FEEDBACK)". */
int
ev_textquery_build_expr(struct ev_textsearch *ts, double pair_weight)
{
	struct ev_buf *b = &ts->expr;
	int pairs = pair_weight > 0 && ts->nwords > 1, r = 0;
	int filter = ts->nfeedback > 0 || (pairs && ts->o.all_terms);

	ev_buf_reset(b);
	ts->npw = 0;
	if (filter && (r = ev_buf_addc(b, '(')) == 0 && (r = add_words(ts, 0.0, 0)) == 0)
		r = ev_buf_adds(b, ") AND (");
	ts->nfilter = filter ? ts->npw : 0;
	if (r == 0)
		r = add_words(ts, -1.0, filter);
	for (int i = 0; pairs && i + 1 < ts->nwords && r == 0; i++)
		if ((r = ev_buf_adds(b, " OR ")) == 0)
			r = ev_textquery_add_phrase(ts, ts->words[i].surface, ts->words[i + 1].surface, pair_weight,
			    ts->words[i].stem, ts->words[i + 1].stem);
	for (int i = 0; i < ts->nfeedback && r == 0; i++)
		if ((r = ev_buf_adds(b, " OR ")) == 0)
			r = ev_textquery_add_phrase(ts, ts->fb[i].surface, NULL, ts->fb[i].weight, ts->fb[i].stem, NULL);
	if (filter && r == 0)
		r = ev_buf_addc(b, ')');
	return r;
}

/* A query read as a document (ts->as_document) weighs its words as a
 * document's terms: each 1 + ln(its occurrences in the query), SMART's
 * logarithmic term frequency, so that a word the query repeats counts more,
 * less than in proportion.  Returns nothing: only the weights change. */
void
ev_textquery_weigh_as_document(struct ev_textsearch *ts)
{
	for (int i = 0; i < ts->nwords; i++)
		ts->words[i].weight = 1.0 + log((double)ts->words[i].qtf);
}

/* The query languages of q: its own "language", else the store's (set when
 * the searcher opened); and the language q is written in (token.h,
 * ev_tok_set_query_lang()): its "language", else the store's sole one,
 * else the one its words show (langid.h), else none known; the first
 * named in ts->lang_key.  Returns 1 when q set its own, 0, or -1 with *err set (bad
 * input, or out of memory). */
int
ev_textquery_query_langs(struct ev_textsearch *ts, json_t *q, const char *where, struct ev_err *err)
{
	json_t *l = json_object_get(q, "language"), *text = json_object_get(q, "query");
	char code[EV_ANALYZE_CODE_MAX];
	const char *codes[1] = { code };

	/* the query's own language (analyze.h): a word reaches chunks of
	 * another only as itself */
	if (l == NULL || json_is_null(l)) {
		if (ts->sole_lang[0] != '\0')
			strcpy(code, ts->sole_lang);
		else if (ts->lex == NULL && (ts->lex = ev_lex_open(ts->o.dict_dir, err)) == NULL)
			return -1;
		else if (!json_is_string(text) || ev_langid_query(ts->lex, json_string_value(text),
		    json_string_length(text), code) == 0)
			codes[0] = NULL;
		ev_tok_set_query_lang(ts->tok, codes[0]);
		strcpy(ts->lang_key, "[*]");
		return 0;
	}
	if (!json_is_string(l) || ev_analyze_norm(json_string_value(l), json_string_length(l), code) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'language' must be a language"
		    " code such as \"en\", \"fr\" or \"zh\"");
	ev_tok_set_query_langs(ts->tok, codes, 1);
	ev_tok_set_query_lang(ts->tok, code);
	snprintf(ts->lang_key, sizeof ts->lang_key, "[%s]", code);
	return 1;
}

/* The words of the query q (text[0..len)) into ts->words: stop words left
 * out, request words and the function words of the query's language dropped
 * (not with raw_fts).  Returns 0 or -1 with *err. */
int
ev_textquery_query_words(struct ev_textsearch *ts, json_t *q, const char *text, size_t len,
    struct ev_err *err)
{
	struct collect c = { ts, text };

	ev_textquery_clear_words(ts);
	/* whether the postings file holds the index is asked anew for each
	 * query (typo repair reads it too), and again in its transaction */
	ts->fresh = -1;
	ts->err = err;
	if (ev_tok_run_terms(ts->tok, text, len, on_query_token, &c, err) == -1 ||
	    err->code != 0)
		return -1;
	if (ts->o.raw_fts)
		return 0;
	drop_words(ts, is_request_word, 0);
	return drop_function_words(ts, q, text, len, err);
}
