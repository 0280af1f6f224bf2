/* textsearch.c: the text lane.  See textsearch.h. */
#include "textsearch.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "bm25.h"
#include "chunk.h"
#include "buf.h"
#include "jsonl.h"
#include "langid.h"
#include "lexicon.h"
#include "region.h"
#include "textstats.h"
#include "token.h"

#define MAX_WORDS 1000		/* distinct words of a query that are searched */
#define MAX_CP 128		/* longest stem (code points) the distance compares */
#define MAX_REQUEST 32		/* request words */
#define EXPANSION_DISCOUNT 0.1	/* an expansion weighs its word's weight x (1 - this x distance) */

struct word {
	char *stem;		/* the tokeniser's stem */
	char *surface;		/* the word as the query wrote it */
	int nexp;
	char **exp;		/* the stems it was expanded to (fuzzy) */
	char **expword;		/* for each, a word of the index with that stem */
	int *dist;		/* and their distances */
	int *by;		/* and 1 when found by the word as typed, 0 by its stem */
	int *expidx;		/* and their indices among the snippet's terms */
	double weight;		/* its phrases' weight in ev_bm25() */
};

/* A word of the feedback chunks: a candidate feedback term. */
struct fbterm {
	char *stem;
	char *surface;		/* a word of the chunks with that stem */
	double weight;
	int snipidx;		/* its index among the snippet's terms (watched) */
};

struct vterm {
	char *s;
	int len;
	int cplen;
	long long df;
};

/* A job asking for the store pages of a pass's swept hits (read_ahead()). */
struct read_ahead {
	struct ev_store *st;
	long long *rowid;
	size_t n, cap;
};

struct ev_textsearch {
	struct ev_store *st;
	struct ev_textsearch_opts o;
	struct ev_tok *tok;
	struct ev_snippet *sn;
	struct word *words;
	int nwords, capwords;
	int truncated;
	int as_document;	/* the query is long: read as a document (long_query) */
	struct vterm *vocab;
	int nvocab;
	int vocab_loaded;
	int instance_vocab;	/* temp.ev_text_instances made */
	struct ev_lex *lex;	/* stop lists and word lists (lexicon.h), made when first needed */
	unsigned langs;		/* the store's languages (EV_LEX_BIT), English always */
	int alt_end;		/* snippet terms below: the words' stems in each query language */
	char sole_lang[EV_ANALYZE_CODE_MAX];	/* the language of every chunk, or "" */
	int langs_loaded;
	unsigned no_dict;	/* languages found without a word list */
	int no_dict_now;	/* one of them was met by this query */
	char request[MAX_REQUEST][24];	/* the stems of request_words[] */
	int nrequest;
	struct fbterm *fb;	/* the feedback candidates, then (the first nfeedback) the terms */
	int nfb, capfb, nfeedback;
	int *fbslot;		/* open-addressing index of fb by stem: -1 or an index */
	int nslots;
	double *pw;		/* the weight of each phrase of expr, for ev_bm25() */
	const char **pka, **pkb;	/* each phrase's stems (pkb NULL for one word) */
	double *idf;		/* and its IDF once counted (> 0), else 0 */
	int *pstart, *plen;	/* and its bytes in expr */
	int npw, cappw;
	struct ev_buf key;	/* a pair's statistics key */
	struct ev_buf expr, sql, snip;
	/* A pruned pass (textsearch.h "Dynamic pruning"): "(SOME) AND (expr)",
	 * the phrases of SOME first, weighing nothing. */
	struct ev_buf pexpr;
	double *ppw, *pidf;
	int npp, cappp;
	double *ub;		/* each phrase's upper bound */
	int *order;		/* the scoring phrases, highest bound first */
	int pruned;		/* phrases the last pass left out */
	/* The feedback pass's phrases and IDFs, for the last pass to reuse. */
	struct ev_buf prevexpr;
	double *previdf;
	int *prevstart, *prevlen;
	int nprev, capprev;
	struct ev_err *err;	/* where a tokeniser callback reports */
	int regions;		/* the store has chunk regions (region.h): 1, 0, -1 not known */
	struct ev_buf lines;	/* a hit's chunk's lines */
	size_t *spans;		/* the matched words' offsets in the document */
	size_t nspans, capspans;
	/* The sweep (textsearch.h "The postings file"): the store's postings
	 * file when it is fresh, and the last pass's hits when it was swept. */
	struct ev_postings *post;
	struct ev_bm25_sweep *sweep;
	int post_stale;		/* the store has a postings file, stale */
	int nfilter;		/* the phrases of expr's filter group (build_expr()) */
	int filtered;		/* this query has filters: no sweep */
	int fresh;		/* the postings file describes this query's snapshot: 1,
				 * 0, or -1 not yet known */
	struct ev_buf toks;	/* the swept phrases' tokens */
	struct ev_bm25_phrase *ph;
	int *tokoff, *toklen;	/* each token's bytes in toks */
	const char **tokp;
	int ntok, captok, capph;
	int *nalt;		/* each position's alternatives, phrase after phrase */
	int npos, cappos;
	const struct ev_bm25_hit *swept;	/* the pass's hits, when swept */
	long long nswept, next_swept;
	int used_sweep;		/* the last query's last pass was swept */
	struct read_ahead ra;	/* the job asking for their pages */
};

/* UTF-8 into code points (an invalid byte counts as one).  Returns the count,
 * or -1 when over max. */
static int
decode(const char *s, int len, uint32_t *out, int max)
{
	int n = 0;

	for (int i = 0; i < len; n++) {
		unsigned char c = (unsigned char)s[i];
		int k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
		uint32_t cp = k == 1 ? c : (uint32_t)(c & (0x7f >> k));

		if (n == max)
			return -1;
		if (i + k > len)
			k = 1, cp = c;
		for (int j = 1; j < k; j++)
			cp = (cp << 6) | ((unsigned char)s[i + j] & 0x3f);
		out[n] = cp;
		i += k;
	}
	return n;
}

/* The rows of optimal string alignment of a[0..n) against b[0..m): the last
 * one (the distances from a to each b[0..j), j from 0 to m) into last[0..m],
 * and 0; -1 as soon as a row's least value passes max. */
static int
osa_last_row(const uint32_t *a, int n, const uint32_t *b, int m, int max, int *last)
{
	int rows[3][MAX_CP + 1];
	int *pp, *p, *c;

	for (int j = 0; j <= m; j++)
		rows[1][j] = j;
	pp = rows[0], p = rows[1], c = rows[2];
	for (int i = 1; i <= n; i++) {
		int lo;

		c[0] = lo = i;
		for (int j = 1; j <= m; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = p[j - 1] + cost;

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
			if (v < lo)
				lo = v;
		}
		if (lo > max)
			return -1;
		int *t = pp;
		pp = p, p = c, c = t;
	}
	memcpy(last, p, (size_t)(m + 1) * sizeof *last);
	return 0;
}

static int
osa(const uint32_t *a, int n, const uint32_t *b, int m, int max)
{
	int last[MAX_CP + 1];

	if (n - m > max || m - n > max || osa_last_row(a, n, b, m, max, last) == -1)
		return max + 1;
	return last[m] > max ? max + 1 : last[m];
}

int
ev_textsearch_distance(const char *a, int alen, const char *b, int blen, int max)
{
	uint32_t ca[MAX_CP], cb[MAX_CP];
	int n = decode(a, alen, ca, MAX_CP), m = decode(b, blen, cb, MAX_CP);

	if (n < 0 || m < 0)
		return max + 1;
	return osa(ca, n, cb, m, max);
}

/* Endings the English stemmer takes off a word, so that a typed word is
 * compared with a stem followed by one of them ("replcaton" with "replic" +
 * "ation": 2 edits).  Lowercase ASCII. */
static const char *const endings[] = {
	"e", "s", "es", "ed", "ing", "ings", "er", "ers", "ly", "y", "ies", "ied",
	"ion", "ions", "ation", "ations", "ational", "ator", "ators", "ate", "ated",
	"ates", "ating", "ive", "ives", "ively", "ivity", "al", "als", "ally", "ality",
	"ize", "ized", "izes", "izing", "ization", "ise", "ised", "isation", "able",
	"ability", "ible", "ibility", "ity", "ities", "ness", "ment", "ments", "ent",
	"ence", "ant", "ance", "ism", "isms", "ist", "ists", "ous", "ously", "ful",
	"fulness", "ic", "ical", "ically", "iveness", "ement", "ements", "ency",
};
#define MAX_ENDING 7		/* the longest of them */

/* The fewest edits turning the tail of the typed word w[k..n) into nothing
 * or into one of the endings, for each k in 0..n, into tail[] (max + 1 when
 * over max). */
static void
ending_costs(const uint32_t *w, int n, int max, int *tail)
{
	for (int k = 0; k <= n; k++) {
		int best = n - k;

		for (size_t e = 0; e < sizeof endings / sizeof endings[0]; e++) {
			uint32_t ce[MAX_ENDING];
			int m = decode(endings[e], (int)strlen(endings[e]), ce, MAX_ENDING);
			int d = osa(w + k, n - k, ce, m, max);

			if (d < best)
				best = d;
		}
		tail[k] = best > max ? max + 1 : best;
	}
}

/* The edits from the typed word w[0..n) to stem v[0..m) followed by the
 * cheapest ending (tail[] of ending_costs()): the least, over k, of the
 * distance between v and w[0..k) plus tail[k]; max + 1 when over max. */
static int
word_distance(const uint32_t *v, int m, const uint32_t *w, int n, const int *tail, int max)
{
	int last[MAX_CP + 1], best = max + 1;

	if (m - n > max || n - m > max + MAX_ENDING || osa_last_row(v, m, w, n, max, last) == -1)
		return max + 1;
	for (int j = 0; j <= n; j++)
		if (last[j] + tail[j] < best)
			best = last[j] + tail[j];
	return best;
}

/* A word's code points lowercased (ASCII and Latin-1 letters), as the
 * vocabulary's stems are. */
static void
lower_cps(uint32_t *c, int n)
{
	for (int i = 0; i < n; i++)
		if ((c[i] >= 'A' && c[i] <= 'Z') || (c[i] >= 0xc0 && c[i] <= 0xde && c[i] != 0xd7))
			c[i] += 0x20;
}

int
ev_textsearch_word_distance(const char *word, int wlen, const char *stem, int slen, int max)
{
	uint32_t cw[MAX_CP], cs[MAX_CP];
	int tail[MAX_CP + 1];
	int n = decode(word, wlen, cw, MAX_CP), m = decode(stem, slen, cs, MAX_CP);

	if (n < 0 || m < 0)
		return max + 1;
	lower_cps(cw, n);
	ending_costs(cw, n, max, tail);
	return word_distance(cs, m, cw, n, tail, max);
}

static int
cplen(const char *s, int len)
{
	int n = 0;

	for (int i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

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
static int
default_query_langs(struct ev_textsearch *ts, struct ev_err *err)
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
	ev_tok_set_query_langs(ts->tok, codes, stats_langs(ts, codes, held, count));
	return 0;
}

/* ts->sole_lang: the language of every chunk of the store (of the collection,
 * with global statistics), when they have one alone.  Returns 0, or -1 with
 * *err set. */
static int
sole_language(struct ev_textsearch *ts, struct ev_err *err)
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
	ts->regions = -1;
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
		if ((ts->post == NULL && err->code != 0) ||
		    (ts->post != NULL && (ts->sweep = ev_bm25_sweep_new(ts->post, err)) == NULL)) {
			ev_textsearch_close(ts);
			return NULL;
		}
		if (ts->sweep != NULL && ts->o.split_rows != 0)
			ev_bm25_sweep_split(ts->sweep, ts->o.split_rows < 0 ? 0 : ts->o.split_rows);
	}
	if ((ts->tok = ev_tok_open(ev_store_db(st), err)) == NULL ||
	    (ts->sn = ev_snippet_new(ts->tok, &ts->o.snippet, err)) == NULL ||
	    ev_bm25_register(ev_store_db(st), err) == -1 ||
	    default_query_langs(ts, err) == -1 ||
	    sole_language(ts, err) == -1) {
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

static void
clear_words(struct ev_textsearch *ts)
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
	clear_words(ts);
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
	for (int i = 0; i < ts->nvocab; i++)
		free(ts->vocab[i].s);
	free(ts->vocab);
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
	ev_postings_close(ts->post);
	ev_buf_release(&ts->toks);
	free(ts->ph);
	free(ts->tokoff);
	free(ts->toklen);
	free(ts->tokp);
	free(ts->nalt);
	free(ts);
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
		if ((int)strlen(ts->words[i].stem) == len && memcmp(ts->words[i].stem, term, (size_t)len) == 0)
			return 0;
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

/* Append the term t[0..len) with df to the vocabulary.  Returns 0 or -1
 * (out of memory). */
static int
vocab_add(struct ev_textsearch *ts, int *cap, const char *t, int len, long long df)
{
	struct vterm *v;

	if (ts->nvocab == *cap) {
		int c = *cap ? 2 * *cap : 4096;

		if ((v = realloc(ts->vocab, (size_t)c * sizeof *v)) == NULL)
			return -1;
		ts->vocab = v;
		*cap = c;
	}
	v = &ts->vocab[ts->nvocab];
	if ((v->s = strndup(t, (size_t)len)) == NULL)
		return -1;
	v->len = len;
	v->cplen = cplen(t, len);
	v->df = df;
	ts->nvocab++;
	return 0;
}

/* The vocabulary of the global statistics (in the order of the store's). */
static int
vocab_of_stats(struct ev_textsearch *ts, struct ev_err *err)
{
	size_t n = ev_textstats_count(ts->o.stats, EV_STATS_TERM);
	int cap = 0;

	for (size_t i = 0; i < n; i++) {
		long long df;
		const char *t = ev_textstats_key(ts->o.stats, EV_STATS_TERM, i, &df);

		if (df > 0 && vocab_add(ts, &cap, t, (int)strlen(t), df) == -1)
			return ev_err_nomem(err);
	}
	return 0;
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
	if (json_is_string(l))	/* checked by query_langs() */
		ev_analyze_norm(json_string_value(l), json_string_length(l), code);
	else if (ts->sole_lang[0] != '\0')
		strcpy(code, ts->sole_lang);
	else
		ev_langid(ts->lex, text, len, code);
	if ((lang = ev_lex_lang(code, strlen(code))) > EV_LEX_EN)
		drop_words(ts, is_function_word, lang);
	return 0;
}

static int
load_vocab(struct ev_textsearch *ts, struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc, cap = 0;

	ts->vocab_loaded = 1;
	if (ts->o.stats != NULL)
		return vocab_of_stats(ts, err);
	if (ts->post != NULL) {
		/* the postings file's terms: FTS5's vocabulary table counts
		 * every term's rows by walking every list */
		long long n = ev_postings_nterms(ts->post), rows;
		int len;

		for (long long i = 0; i < n; i++) {
			const char *t = ev_postings_term_at(ts->post, i, &len, &rows);

			if (vocab_add(ts, &cap, t, len, rows) == -1)
				return ev_err_nomem(err);
		}
		return 0;
	}
	if ((s = ev_store_prepare(ts->st, "SELECT term, doc FROM chunks_vocab", err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		int len = sqlite3_column_bytes(s, 0);

		if (t != NULL && vocab_add(ts, &cap, t, len, sqlite3_column_int64(s, 1)) == -1)
			goto nomem;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return ev_store_error(ts->st, "reading the vocabulary", err);
	return 0;
nomem:
	sqlite3_reset(s);
	return ev_err_nomem(err);
}

/* Whether the stem is in the vocabulary: 1, 0, or -1 with *err set. */
static int
in_vocab(struct ev_textsearch *ts, const char *stem, struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (ts->o.stats != NULL)
		return ev_textstats_get(ts->o.stats, EV_STATS_TERM, stem) > 0;
	if (ts->post != NULL) {
		/* the postings file's terms are the index's (the file is stale
		 * only if the store was written since the searcher opened) */
		struct ev_postings_cursor c;

		return ev_postings_term(ts->post, stem, (int)strlen(stem), &c) > 0;
	}
	if ((s = ev_store_prepare(ts->st, "SELECT 1 FROM chunks_vocab WHERE term = ?1", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, stem, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ev_store_error(ts->st, "looking up the vocabulary", err);
	return rc == SQLITE_ROW;
}

struct nth_token {
	int want;		/* the token's index */
	int n;
	int start, end;		/* its bytes, once found */
};

static int
on_nth_token(void *ctx, const char *term, int len, int start, int end)
{
	struct nth_token *t = ctx;

	(void)term, (void)len;
	if (t->n++ < t->want)
		return 0;
	t->start = start;
	t->end = end;
	return 1;
}

/* A word of the indexed text whose stem is `stem`, found through FTS5's
 * instance vocabulary (a query string is stemmed again by FTS5, and Porter
 * does not always give a stem back unchanged: "viscos" -> "visco"; a word that
 * stems to it does).  Returns 1 with *out (malloc'd), 0 when none is found,
 * -1 with *err set. */
static int
surface_of(struct ev_textsearch *ts, const char *stem, char **out, struct ev_err *err)
{
	static const char *const cols[] = { "title", "section_title", "text" };
	sqlite3_stmt *s;
	struct nth_token t = { 0, 0, -1, -1 };
	long long rowid;
	int rc, col = -1;
	const char *colname;

	*out = NULL;
	if (!ts->instance_vocab) {
		if (ev_store_exec(ts->st, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ev_text_instances"
		    " USING fts5vocab(main, chunks_fts, instance)", err) == -1)
			return -1;
		ts->instance_vocab = 1;
	}
	if ((s = ev_store_prepare(ts->st, "SELECT doc, col, offset FROM temp.ev_text_instances"
	    " WHERE term = ?1 LIMIT 1", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, stem, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(s);
		return rc == SQLITE_DONE ? 0 : ev_store_error(ts->st, "reading the vocabulary", err);
	}
	rowid = sqlite3_column_int64(s, 0);
	colname = (const char *)sqlite3_column_text(s, 1);
	for (int i = 0; i < 3 && colname != NULL; i++)
		if (strcmp(colname, cols[i]) == 0)
			col = i;
	t.want = sqlite3_column_int(s, 2);
	sqlite3_reset(s);
	if (col < 0)
		return 0;
	if ((s = ev_store_prepare(ts->st, col == 0 ? "SELECT title FROM chunks WHERE rowid = ?1" :
	    col == 1 ? "SELECT section_title FROM chunks WHERE rowid = ?1" :
	    "SELECT text FROM chunks WHERE rowid = ?1", err)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_TEXT) {
		const char *text = (const char *)sqlite3_column_text(s, 0);

		if (ev_tok_run(ts->tok, text, (size_t)sqlite3_column_bytes(s, 0), on_nth_token, &t,
		    err) == -1) {
			sqlite3_reset(s);
			return -1;
		}
		if (t.start >= 0 && (*out = strndup(text + t.start, (size_t)(t.end - t.start))) == NULL) {
			sqlite3_reset(s);
			return ev_err_nomem(err);
		}
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ev_store_error(ts->st, "reading a chunk", err);
	return *out != NULL;
}

/* The store's languages into ts->langs: English (the tokeniser's), and
 * every language its documents declare that the lexicon knows.  Returns 0,
 * or -1 with *err set. */
static int
load_langs(struct ev_textsearch *ts, struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc;

	ts->langs_loaded = 1;
	ts->langs = EV_LEX_BIT(EV_LEX_EN);
	if (ts->o.stats != NULL) {
		size_t n = ev_textstats_count(ts->o.stats, EV_STATS_LANGUAGE);

		for (size_t i = 0; i < n; i++) {
			long long docs;
			const char *code = ev_textstats_key(ts->o.stats, EV_STATS_LANGUAGE, i, &docs);
			int lang = ev_lex_lang(code, strlen(code));

			if (lang >= 0 && docs > 0)
				ts->langs |= EV_LEX_BIT(lang);
		}
		return 0;
	}
	if ((s = ev_store_prepare(ts->st, "SELECT 1 FROM sqlite_master WHERE type = 'index'"
	    " AND name = 'documents_language'", err)) == NULL)
		return -1;
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ev_store_error(ts->st, "reading the store's schema", err);
	/* with the index, one look-up a language (a loose index scan) rather
	 * than a scan of every document */
	if ((s = ev_store_prepare(ts->st, rc == SQLITE_ROW ?
	    "WITH RECURSIVE l(code) AS (SELECT min(language) FROM documents UNION ALL"
	    " SELECT (SELECT min(language) FROM documents WHERE language > l.code) FROM l"
	    " WHERE l.code IS NOT NULL) SELECT code FROM l WHERE code IS NOT NULL" :
	    "SELECT DISTINCT language FROM documents WHERE language IS NOT NULL", err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *code = (const char *)sqlite3_column_text(s, 0);
		int lang = code != NULL ? ev_lex_lang(code, (size_t)sqlite3_column_bytes(s, 0)) : -1;

		if (lang >= 0)
			ts->langs |= EV_LEX_BIT(lang);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return ev_store_error(ts->st, "reading the documents' languages", err);
	return 0;
}

/* Whether the query word w, missing from the index, is a real word of one
 * of the store's languages (their word lists): 1, 0, or -1 with *err set.
 * A language without a word list on this machine is noted in ts->no_dict. */
static int
is_real_word(struct ev_textsearch *ts, const struct word *w, struct ev_err *err)
{
	if (!ts->langs_loaded && load_langs(ts, err) == -1)
		return -1;
	if (ts->lex == NULL && (ts->lex = ev_lex_open(ts->o.dict_dir, err)) == NULL)
		return -1;
	for (int lang = 0; lang < EV_LEX_NLANG; lang++) {
		int r;

		if (!(ts->langs & EV_LEX_BIT(lang)))
			continue;
		r = ev_lex_is_word(ts->lex, lang, w->surface, strlen(w->surface), err);
		if (r == -2)
			return -1;
		if (r == -1) {
			ts->no_dict |= EV_LEX_BIT(lang);
			ts->no_dict_now = 1;
		}
		if (r == 1)
			return 1;
	}
	return 0;
}

/* The edits a word of n code points may be repaired with (as
 * Elasticsearch's AUTO fuzziness, with its lengths 4 and 6): none under 4,
 * at most 1 under 6, at most fuzzy from 6 on. */
static int
allowed_distance(const struct ev_textsearch *ts, int n)
{
	if (n < 4)
		return 0;
	if (n < 6)
		return ts->o.fuzzy < 1 ? ts->o.fuzzy : 1;
	return ts->o.fuzzy;
}

/* A scan of the vocabulary's terms [lo, hi) for those within max edits of
 * the typed word cw (n code points; tail: its ending costs) or within smax
 * of its stem cq (ns code points): the want closest, then most frequent,
 * then first, into best (their indices), dist and by (1: found by the word,
 * 0: by the stem), in that order; got of them. */
struct vocab_scan {
	const struct ev_textsearch *ts;
	const uint32_t *cq, *cw;
	const int *tail;
	int ns, n, smax, max, want, lo, hi;
	int *best, *dist, *by, got;
};

/* Whether term i at distance d comes before term j at distance e (the
 * closest, then the most frequent, then the first). */
static int
closer(const struct ev_textsearch *ts, int i, int d, int j, int e)
{
	if (d != e)
		return d < e;
	if (ts->vocab[i].df != ts->vocab[j].df)
		return ts->vocab[i].df > ts->vocab[j].df;
	return i < j;
}

static void
scan_vocab(void *arg)
{
	struct vocab_scan *vs = arg;
	uint32_t cv[MAX_CP];

	vs->got = 0;
	for (int i = vs->lo; i < vs->hi; i++) {
		const struct vterm *v = &vs->ts->vocab[i];
		int m, d = vs->max + 1, ds = vs->smax + 1, j;

		if (v->cplen - vs->n > vs->max || vs->n - v->cplen > vs->max + MAX_ENDING)
			continue;
		if ((m = decode(v->s, v->len, cv, MAX_CP)) < 0)
			continue;
		/* a short stem is reached by few edits too: "are" is not
		 * "Prieve" */
		int cmax = allowed_distance(vs->ts, m);
		int wmax = vs->max < cmax ? vs->max : cmax, smax = vs->smax < cmax ? vs->smax : cmax;

		if (smax > 0)
			ds = osa(vs->cq, vs->ns, cv, m, smax);
		if (wmax > 0)
			d = word_distance(cv, m, vs->cw, vs->n, vs->tail, wmax);
		if (ds > smax && d > wmax)
			continue;
		int by_word = d <= wmax && (ds > smax || d <= ds);

		if (!by_word)
			d = ds;
		for (j = vs->got; j > 0 && closer(vs->ts, i, d, vs->best[j - 1], vs->dist[j - 1]); j--)
			;
		if (j >= vs->want)
			continue;
		if (vs->got < vs->want)
			vs->got++;
		memmove(vs->best + j + 1, vs->best + j, (size_t)(vs->got - 1 - j) * sizeof *vs->best);
		memmove(vs->dist + j + 1, vs->dist + j, (size_t)(vs->got - 1 - j) * sizeof *vs->dist);
		memmove(vs->by + j + 1, vs->by + j, (size_t)(vs->got - 1 - j) * sizeof *vs->by);
		vs->best[j] = i;
		vs->dist[j] = d;
		vs->by[j] = by_word;
	}
}

/* Vocabularies this large are scanned in two halves side by side, on the
 * sweeper's second thread too (a scan of 158,000 terms took 7 ms). */
#define SPLIT_VOCAB 20000

/* The vs->want terms of the vocabulary closest to the typed word or its
 * stem (vs, a scan of the whole vocabulary), closest, then most frequent,
 * then first, into vs->best, vs->dist and vs->by (room for 3 x want each:
 * the halves' own go after the first want).  Returns how many. */
static int
closest_terms(struct ev_textsearch *ts, struct vocab_scan *vs)
{
	struct vocab_scan low = *vs, high = *vs;
	int k = 0, i = 0, j = 0, want = vs->want;

	if (ts->sweep == NULL || ts->nvocab < SPLIT_VOCAB) {
		scan_vocab(vs);
		return vs->got;
	}
	low.hi = high.lo = ts->nvocab / 2;
	low.best = vs->best + want;
	low.dist = vs->dist + want;
	low.by = vs->by + want;
	high.best = vs->best + 2 * want;
	high.dist = vs->dist + 2 * want;
	high.by = vs->by + 2 * want;
	ev_bm25_sweep_background(ts->sweep, scan_vocab, &high);
	scan_vocab(&low);
	ev_bm25_sweep_wait(ts->sweep);
	/* both in order, the lower half's first on a tie */
	while (k < want && (i < low.got || j < high.got)) {
		int from_low = j >= high.got || (i < low.got && closer(ts, low.best[i], low.dist[i],
		    high.best[j], high.dist[j]));

		vs->best[k] = from_low ? low.best[i] : high.best[j];
		vs->by[k] = from_low ? low.by[i] : high.by[j];
		vs->dist[k++] = from_low ? low.dist[i++] : high.dist[j++];
	}
	return vs->got = k;
}

/* Append s as the inside of an FTS5 string: a quote doubled. */
static int
add_fts_chars(struct ev_buf *b, const char *s)
{
	int r = 0;

	for (; *s != '\0' && r == 0; s++)
		r = *s == '"' ? ev_buf_adds(b, "\"\"") : ev_buf_addc(b, *s);
	return r;
}

/* Candidates of a typo weighed by their fit with the query's other words. */
#define FIT_CANDIDATES 8	/* the closest stems looked at */
#define FIT_NEIGHBOURS 4	/* the query's words nearest the typo asked about */

/* How many chunks hold both indexed word a and query word b (up to 10,000),
 * or -1 with *err set. */
static long long
together(struct ev_textsearch *ts, const char *a, const char *b, struct ev_err *err)
{
	struct ev_buf m = EV_BUF_INIT;
	sqlite3_stmt *s;
	long long n = -1;

	if (ev_buf_addc(&m, '"') == -1 || add_fts_chars(&m, a) == -1 ||
	    ev_buf_adds(&m, "\" AND \"") == -1 || add_fts_chars(&m, b) == -1 ||
	    ev_buf_addc(&m, '"') == -1) {
		ev_buf_release(&m);
		return ev_err_nomem(err);
	}
	if ((s = ev_store_prepare(ts->st, "SELECT count(*) FROM (SELECT 1 FROM chunks_fts"
	    " WHERE chunks_fts MATCH ?1 LIMIT 10000)", err)) == NULL) {
		ev_buf_release(&m);
		return -1;
	}
	sqlite3_bind_text(s, 1, ev_buf_str(&m), -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	ev_buf_release(&m);
	if (n < 0)
		return ev_store_error(ts->st, "counting a typo's neighbours", err);
	return n;
}

/* How a tied candidate fits: the query words found with it, the chunks
 * they share, and the edits from the typed word to its indexed word. */
struct fit {
	long long met, chunks;
	int near;
};

/* Whether fit a comes before fit b. */
static int
fits_better(const struct fit *a, const struct fit *b)
{
	if (a->met != b->met)
		return a->met > b->met;
	if (a->chunks != b->chunks)
		return a->chunks > b->chunks;
	return a->near < b->near;
}

/* The fit of candidate word cand (the indexed word of a stem) for query word
 * wi, typed as vs->cw, into *f.  Returns 0, or -1 with *err set. */
static int
fit_of(struct ev_textsearch *ts, int wi, const struct vocab_scan *vs, const char *cand,
    struct fit *f, struct ev_err *err)
{
	uint32_t cc[MAX_CP];
	int m = decode(cand, (int)strlen(cand), cc, MAX_CP), far = vs->max + MAX_ENDING;

	*f = (struct fit){ 0, 0, far + 1 };
	if (m >= 0) {
		lower_cps(cc, m);
		f->near = osa(vs->cw, vs->n, cc, m, far);
	}
	for (int d = 1, asked = 0; asked < FIT_NEIGHBOURS && d < ts->nwords; d++)
		for (int side = -1; side <= 1 && asked < FIT_NEIGHBOURS; side += 2) {
			int o = wi + side * d;
			long long n;

			if (o < 0 || o >= ts->nwords)
				continue;
			asked++;
			if ((n = together(ts, cand, ts->words[o].surface, err)) == -1)
				return -1;
			f->met += n > 0;
			f->chunks += n;
		}
	return 0;
}

/* Order the candidates of word wi that tie at the closest distance
 * (vs->best, dist, by; got of them), finding their indexed words (into
 * words[], which holds NULL for each, and NULL for a stem without one), by
 * their fit: first those found in one chunk with more of the query's
 * FIT_NEIGHBOURS nearest other words, then with them in more chunks, then
 * those whose indexed word is fewer edits from the word as typed; else as
 * they were.  Returns how many of them it looked at (their words found: 0
 * when none tie), or -1 with *err set. */
static int
order_by_fit(struct ev_textsearch *ts, int wi, struct vocab_scan *vs, char **words,
    struct ev_err *err)
{
	struct fit fit[FIT_CANDIDATES];
	int tie = 1;

	while (tie < vs->got && tie < FIT_CANDIDATES && vs->dist[tie] == vs->dist[0])
		tie++;
	if (tie < 2)
		return 0;
	for (int c = 0; c < tie; c++) {
		if (surface_of(ts, ts->vocab[vs->best[c]].s, &words[c], err) == -1)
			return -1;
		if (words[c] == NULL)
			fit[c] = (struct fit){ -1, -1, 0 };
		else if (fit_of(ts, wi, vs, words[c], &fit[c], err) == -1)
			return -1;
	}
	/* insertion sort of the tied, stable */
	for (int i = 1; i < tie; i++)
		for (int j = i; j > 0 && fits_better(&fit[j], &fit[j - 1]); j--) {
			struct fit tf = fit[j];
			int tb = vs->best[j], ty = vs->by[j];
			char *tw = words[j];

			fit[j] = fit[j - 1];
			vs->best[j] = vs->best[j - 1], vs->by[j] = vs->by[j - 1];
			words[j] = words[j - 1];
			fit[j - 1] = tf;
			vs->best[j - 1] = tb, vs->by[j - 1] = ty, words[j - 1] = tw;
		}
	return tie;
}

/* Expand word wi to the closest stems of the vocabulary, by the word as
 * typed and by its stem (textsearch.h "Typo tolerance"). */
static int
expand(struct ev_textsearch *ts, int wi, struct ev_err *err)
{
	struct word *w = &ts->words[wi];
	uint32_t cq[MAX_CP], cw[MAX_CP];
	int tail[MAX_CP + 1], *best = NULL, got, tie, r = -1;
	char **words = NULL;
	struct vocab_scan vs = { ts, cq, cw, tail, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 };

	vs.n = decode(w->surface, (int)strlen(w->surface), cw, MAX_CP);
	vs.ns = decode(w->stem, (int)strlen(w->stem), cq, MAX_CP);
	if (vs.n < 0 || vs.ns < 0 || (vs.max = allowed_distance(ts, vs.n)) == 0 ||
	    ts->o.fuzzy_expansions < 1)
		return 0;
	vs.smax = allowed_distance(ts, vs.ns) < vs.max ? allowed_distance(ts, vs.ns) : vs.max;
	vs.want = ts->o.fuzzy_expansions > FIT_CANDIDATES ? ts->o.fuzzy_expansions : FIT_CANDIDATES;
	if (!ts->vocab_loaded && load_vocab(ts, err) == -1)
		return -1;
	vs.hi = ts->nvocab;
	lower_cps(cw, vs.n);
	ending_costs(cw, vs.n, vs.max, tail);
	if ((best = vs.best = malloc((size_t)vs.want * 3 * sizeof *best)) == NULL ||
	    (w->dist = vs.dist = malloc((size_t)vs.want * 3 * sizeof *w->dist)) == NULL ||
	    (w->by = vs.by = malloc((size_t)vs.want * 3 * sizeof *w->by)) == NULL) {
		free(best);
		return ev_err_nomem(err);
	}
	got = closest_terms(ts, &vs);
	if (got > 0 && ((w->exp = calloc((size_t)got, sizeof *w->exp)) == NULL ||
	    (w->expword = calloc((size_t)got, sizeof *w->expword)) == NULL ||
	    (w->expidx = calloc((size_t)got, sizeof *w->expidx)) == NULL ||
	    (words = calloc((size_t)got, sizeof *words)) == NULL)) {
		free(best);
		return ev_err_nomem(err);
	}
	if ((tie = order_by_fit(ts, wi, &vs, words, err)) == -1)
		goto out;
	for (int j = 0; j < got && w->nexp < ts->o.fuzzy_expansions; j++) {
		if (j >= tie && surface_of(ts, ts->vocab[best[j]].s, &words[j], err) == -1)
			goto out;
		if (words[j] == NULL)
			continue;
		if ((w->exp[w->nexp] = strdup(ts->vocab[best[j]].s)) == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		w->expword[w->nexp] = words[j];
		words[j] = NULL;
		w->by[w->nexp] = vs.by[j];
		w->dist[w->nexp++] = vs.dist[j];
	}
	r = 0;
out:
	for (int j = 0; words != NULL && j < got; j++)
		free(words[j]);
	free(words);
	free(best);
	return r;
}

/* Make the array *pv (a T ** as void *) hold n elements of elem bytes.
 * Returns 0, or -1 (out of memory: the array as it was). */
static int
resize(void *pv, int n, size_t elem)
{
	void *p;

	memcpy(&p, pv, sizeof p);
	if ((p = realloc(p, (size_t)n * elem)) == NULL)
		return -1;
	memcpy(pv, &p, sizeof p);
	return 0;
}

/* Append one phrase of the MATCH expression: the words a (and b, when not
 * NULL, after it) as an FTS5 string, and its weight to ts->pw.  Returns 0 or
 * -1 (out of memory). */
static int
add_phrase(struct ev_textsearch *ts, const char *a, const char *b, double weight, const char *ka,
    const char *kb)
{
	struct ev_buf *e = &ts->expr;

	int i = ts->npw;

	if (ts->npw == ts->cappw) {
		int cap = ts->cappw ? 2 * ts->cappw : 64;

		if (resize(&ts->pw, cap, sizeof *ts->pw) == -1 ||
		    resize(&ts->idf, cap, sizeof *ts->idf) == -1 ||
		    resize(&ts->pstart, cap, sizeof *ts->pstart) == -1 ||
		    resize(&ts->plen, cap, sizeof *ts->plen) == -1 ||
		    resize(&ts->pka, cap, sizeof *ts->pka) == -1 ||
		    resize(&ts->pkb, cap, sizeof *ts->pkb) == -1)
			return -1;
		ts->cappw = cap;
	}
	ts->pka[i] = ka;
	ts->pkb[i] = kb;
	ts->npw++;
	ts->pw[i] = weight;
	ts->idf[i] = 0;
	ts->pstart[i] = (int)e->len;
	if (ev_buf_addc(e, '"') == -1 || add_fts_chars(e, a) == -1)
		return -1;
	if (b != NULL && (ev_buf_addc(e, ' ') == -1 || add_fts_chars(e, b) == -1))
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
			r = add_phrase(ts, w->surface, NULL, wt, w->stem, NULL);
		for (int j = 0; j < w->nexp && r == 0; j++)
			if ((r = ev_buf_adds(b, " OR ")) == 0)
				r = add_phrase(ts, w->expword[j], NULL,
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
static int
build_expr(struct ev_textsearch *ts, double pair_weight)
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
			r = add_phrase(ts, ts->words[i].surface, ts->words[i + 1].surface, pair_weight,
			    ts->words[i].stem, ts->words[i + 1].stem);
	for (int i = 0; i < ts->nfeedback && r == 0; i++)
		if ((r = ev_buf_adds(b, " OR ")) == 0)
			r = add_phrase(ts, ts->fb[i].surface, NULL, ts->fb[i].weight, ts->fb[i].stem, NULL);
	if (filter && r == 0)
		r = ev_buf_addc(b, ')');
	return r;
}

/* The parameters of the search statement: ?1 the MATCH expression, ?2 to ?4
 * the column weights, ?5 the limit, ?6 the phrase weights (a pointer), then
 * the filters' values. */
#define FIRST_FILTER_PARAM 7

/* Filters: SQL conditions over chunks fc and documents fd, with their values
 * to bind from parameter FIRST_FILTER_PARAM on. */
struct filters {
	struct ev_buf *sql;
	json_t *binds;		/* array of the values, in parameter order */
	const char *where;
	struct ev_err *err;
	int oom;		/* sticky: an append to sql failed (out of memory) */
};

/* Append to the filter's SQL; a failure is remembered in f->oom (checked
 * once, after the whole statement is built), so that a dropped piece can
 * never make another, valid, statement. */
#define SQL_ADD(f, call) do { if ((call) == -1) (f)->oom = 1; } while (0)

static int
bind_value(struct filters *f, json_t *v)
{
	if (json_array_append(f->binds, v) == -1)
		return ev_err_nomem(f->err);
	return 0;
}

static int
filter_fail(struct filters *f, const char *fmt, const char *key)
{
	return ev_err_set(f->err, EV_EXIT_USAGE, f->where, fmt, key);
}

/* column = one string, or any of an array of strings. */
static int
filter_strings(struct filters *f, const char *key, const char *column, json_t *v)
{
	size_t i;
	json_t *e;

	if (json_is_string(v)) {
		SQL_ADD(f, ev_buf_printf(f->sql, " AND %s = ?%zu", column, json_array_size(f->binds) + FIRST_FILTER_PARAM));
		return bind_value(f, v);
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return filter_fail(f, "filter '%s' must be a string or a non-empty array of strings", key);
	json_array_foreach(v, i, e)
		if (!json_is_string(e))
			return filter_fail(f, "filter '%s' must be a string or a non-empty array of strings", key);
	SQL_ADD(f, ev_buf_printf(f->sql, " AND %s IN (SELECT value FROM json_each(?%zu))", column,
	    json_array_size(f->binds) + FIRST_FILTER_PARAM));
	return bind_value(f, v);
}

/* One metadata value test, over json_each row m. */
static int
meta_value(struct filters *f, const char *key, json_t *v)
{
	const char *type = NULL;

	if (json_is_true(v))
		type = "true";
	else if (json_is_false(v))
		type = "false";
	else if (json_is_null(v))
		type = "null";
	if (type != NULL)
		return ev_buf_printf(f->sql, "m.type = '%s'", type) == -1 ? ev_err_nomem(f->err) : 0;
	if (json_is_string(v))
		SQL_ADD(f, ev_buf_printf(f->sql, "(m.type = 'text' AND m.atom = ?%zu)",
		    json_array_size(f->binds) + FIRST_FILTER_PARAM));
	else if (json_is_number(v)) {
		double d = json_number_value(v);

		if (d != d || d - d != 0)
			return filter_fail(f, "metadata filter '%s' must be finite", key);
		SQL_ADD(f, ev_buf_printf(f->sql, "(m.type IN ('integer', 'real') AND m.atom = ?%zu)",
		    json_array_size(f->binds) + FIRST_FILTER_PARAM));
	} else
		return filter_fail(f, "metadata filter '%s' must be a string, number, true, false, "
		    "null or an array of them", key);
	return bind_value(f, v);
}

static int
filter_metadata(struct filters *f, json_t *obj)
{
	const char *key;
	json_t *v, *e;
	size_t i;

	if (!json_is_object(obj))
		return filter_fail(f, "filter '%s' must be an object of keys and values", "metadata");
	json_object_foreach(obj, key, v) {
		json_t *k = json_string(key);

		if (k == NULL)
			return ev_err_nomem(f->err);
		SQL_ADD(f, ev_buf_printf(f->sql, " AND EXISTS (SELECT 1 FROM json_each(CASE WHEN"
		    " json_valid(fd.metadata) THEN fd.metadata END) AS m WHERE m.key = ?%zu AND (",
		    json_array_size(f->binds) + FIRST_FILTER_PARAM));
		if (json_array_append_new(f->binds, k) == -1)
			return ev_err_nomem(f->err);
		if (json_is_array(v)) {
			if (json_array_size(v) == 0)
				return filter_fail(f, "metadata filter '%s' is an empty array", key);
			json_array_foreach(v, i, e) {
				if (i > 0)
					SQL_ADD(f, ev_buf_adds(f->sql, " OR "));
				if (json_is_array(e) || json_is_object(e))
					return filter_fail(f, "metadata filter '%s' must be a string, number, "
					    "true, false, null or an array of them", key);
				if (meta_value(f, key, e) == -1)
					return -1;
			}
		} else if (meta_value(f, key, v) == -1)
			return -1;
		SQL_ADD(f, ev_buf_adds(f->sql, "))"));
	}
	return 0;
}

/* YYYY, then anything that starts like ISO 8601 (-MM, -MM-DD, T...). */
static int
looks_like_date(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return s[4] == '\0' || (s[4] == '-' && s[5] >= '0' && s[5] <= '9');
}

static int
filter_dates(struct filters *f, json_t *obj)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return filter_fail(f, "filter '%s' must be an object with 'from' and/or 'to'",
		    "published_date");
	json_object_foreach(obj, key, v) {
		int to = strcmp(key, "to") == 0;

		if (!to && strcmp(key, "from") != 0)
			return filter_fail(f, "unknown key '%s' in filter 'published_date' "
			    "(known: from, to)", key);
		if (json_is_null(v))
			continue;
		if (!json_is_string(v) || !looks_like_date(json_string_value(v)))
			return filter_fail(f, "'published_date.%s' must be a date such as "
			    "\"2021-06-30\"", key);
		if (to)
			SQL_ADD(f, ev_buf_printf(f->sql,
			    " AND substr(fd.published_date, 1, length(?%zu)) <= ?%zu",
			    json_array_size(f->binds) + FIRST_FILTER_PARAM, json_array_size(f->binds) + FIRST_FILTER_PARAM));
		else
			SQL_ADD(f, ev_buf_printf(f->sql, " AND fd.published_date >= ?%zu",
			    json_array_size(f->binds) + FIRST_FILTER_PARAM));
		if (bind_value(f, v) == -1)
			return -1;
	}
	return 0;
}

static int
build_filters(struct filters *f, json_t *filters)
{
	const char *key;
	json_t *v;

	if (!json_is_object(filters))
		return ev_err_set(f->err, EV_EXIT_USAGE, f->where, "field 'filters' must be an object");
	json_object_foreach(filters, key, v) {
		int r;

		if (strcmp(key, "doc_id") == 0) {
			if (!json_is_string(v))
				return filter_fail(f, "filter '%s' must be a string", key);
			r = filter_strings(f, key, "fc.doc_id", v);
		} else if (strcmp(key, "doc_ids") == 0) {
			if (!json_is_array(v))
				return filter_fail(f, "filter '%s' must be a non-empty array of strings", key);
			r = filter_strings(f, key, "fc.doc_id", v);
		} else if (strcmp(key, "metadata") == 0)
			r = filter_metadata(f, v);
		else if (strcmp(key, "published_date") == 0)
			r = filter_dates(f, v);
		else if (strcmp(key, "source_type") == 0)
			r = filter_strings(f, key, "fd.source_type", v);
		else if (strcmp(key, "language") == 0)
			r = filter_strings(f, key, "fd.language", v);
		else
			return filter_fail(f, "unknown filter '%s' (known: doc_id, doc_ids, metadata, "
			    "published_date, source_type, language)", key);
		if (r == -1)
			return -1;
	}
	return 0;
}

#define SELECT_HITS \
	"SELECT t.r, -t.s, c.id, c.doc_id, c.section_id, c.chunk_index, c.title, c.section_title," \
	" c.section_path, c.text, c.offset_start, c.offset_end, c.content_hash, d.source_uri, d.metadata," \
	" d.language, c.language" \
	" FROM (SELECT chunks_fts.rowid AS r, ev_bm25(chunks_fts, ?2, ?3, ?4, ?6) AS s FROM chunks_fts"
#define SELECT_TAIL \
	" ORDER BY s, r LIMIT ?5) AS t JOIN chunks c ON c.rowid = t.r" \
	" LEFT JOIN documents d ON d.doc_id = c.doc_id ORDER BY t.s, t.r"

static const char sql_plain[] = SELECT_HITS " WHERE chunks_fts MATCH ?1" SELECT_TAIL;

/* Column i of the current row as text: *t (never NULL: "" for SQL NULL) and
 * *len.  sqlite3_column_text() also returns NULL when it runs out of memory
 * converting a value; that is an error, not an empty text.  Returns 0 or -1
 * (out of memory). */
static int
column_text(sqlite3_stmt *s, int i, const char **t, size_t *len)
{
	int type = sqlite3_column_type(s, i);

	*t = (const char *)sqlite3_column_text(s, i);
	*len = (size_t)sqlite3_column_bytes(s, i);
	if (*t == NULL) {
		if (type != SQLITE_NULL)
			return -1;
		*t = "";
		*len = 0;
	}
	return 0;
}

/* Column i of the current row as a JSON value (null for SQL NULL), or NULL
 * when out of memory. */
static json_t *
column_json(sqlite3_stmt *s, int i)
{
	const char *t;
	size_t len;

	switch (sqlite3_column_type(s, i)) {
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(s, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(s, i));
	case SQLITE_NULL:
		return json_null();
	default:
		if (column_text(s, i, &t, &len) == -1)
			return NULL;
		return json_stringn(t, len);
	}
}

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

/* The current row's chunk of a paged document (region.h): its page and
 * page_end into the hit's metadata *meta (made when NULL), and in *regions
 * the page and box of each line holding a matched word (NULL when none).
 * Nothing for other chunks.  Returns 0, or -1 with *err set. */
static int
chunk_region(struct ev_textsearch *ts, sqlite3_stmt *s, size_t textlen, json_t **meta,
    json_t **regions, struct ev_err *err)
{
	long page, page_end;
	size_t start = (size_t)sqlite3_column_int64(s, 10), end = (size_t)sqlite3_column_int64(s, 11);
	size_t prefix, ms, me;
	int got, pos = 0;

	*regions = NULL;
	if (ts->regions == -1 && (ts->regions = ev_region_table(ts->st, err)) == -1)
		return -1;
	ev_buf_reset(&ts->lines);
	if (ts->regions == 0 ||
	    (got = ev_region_get(ts->st, sqlite3_column_int64(s, 0), &page, &page_end, &ts->lines,
	    err)) == 0)
		return 0;
	if (got == -1)
		return -1;
	if ((*meta == NULL && (*meta = json_object()) == NULL) ||
	    json_object_set_new(*meta, "page", json_integer(page)) == -1 ||
	    (page_end > page && json_object_set_new(*meta, "page_end", json_integer(page_end)) == -1))
		return ev_err_nomem(err);
	/* the chunk's text is the document's [start, end), after the header
	 * rows of a split table (which stand elsewhere) */
	prefix = end >= start && textlen > end - start ? textlen - (end - start) : 0;
	ts->nspans = 0;
	while (ev_snippet_next_mark(ts->sn, &pos, &ms, &me) == 1) {
		if (ms < prefix)
			continue;
		if (ev_grow(&ts->spans, &ts->capspans, 2 * ts->nspans + 2, sizeof *ts->spans, 32) == -1)
			return ev_err_nomem(err);
		ts->spans[2 * ts->nspans] = start + ms - prefix;
		ts->spans[2 * ts->nspans + 1] = start + me - prefix;
		ts->nspans++;
	}
	if (ts->nspans == 0)
		return 0;
	if ((*regions = ev_region_boxes(ts->lines.p, ts->lines.len, ts->spans, ts->nspans)) == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, ev_store_path(ts->st),
		    "chunk regions of chunk %lld: damaged, or out of memory",
		    (long long)sqlite3_column_int64(s, 0));
	if (json_array_size(*regions) == 0) {
		json_decref(*regions);
		*regions = NULL;
	}
	return 0;
}

/* The clause id of the current row's chunk (chunk.h) into *meta (made when
 * NULL) as "clause_id".  Returns 0, or -1 out of memory. */
static int
clause_meta(sqlite3_stmt *s, json_t **meta)
{
	size_t n;
	const char *clause = ev_chunk_clause_of((const char *)sqlite3_column_text(s, 8), &n);

	if (clause == NULL)
		return 0;
	if (*meta == NULL && (*meta = json_object()) == NULL)
		return -1;
	return json_object_set_new(*meta, "clause_id", json_stringn(clause, n));
}

/* The hit record of the current row. */
static json_t *
make_hit(struct ev_textsearch *ts, sqlite3_stmt *s, json_t *q, long long rank, double best,
    struct ev_err *err)
{
	double score = sqlite3_column_double(s, 1);
	json_t *hit, *signals, *ev, *matched = NULL, *fuzzy = NULL, *fed = NULL, *meta = NULL;
	json_t *regions = NULL;
	const char *key, *text, *title, *stitle;
	size_t textlen, titlelen, stitlelen;
	json_t *v;
	int r;

	ev_buf_reset(&ts->snip);
	if (column_text(s, 9, &text, &textlen) == -1 || column_text(s, 6, &title, &titlelen) == -1 ||
	    column_text(s, 7, &stitle, &stitlelen) == -1)
		goto nomem;
	/* the chunk's words as they were indexed: stemmed for its language */
	ev_tok_set_lang(ts->tok, (const char *)sqlite3_column_text(s, 16));
	r = ev_snippet_make(ts->sn, text, textlen, &ts->snip, err) == -1 ||
	    ev_snippet_scan(ts->sn, title, titlelen, err) == -1 ||
	    ev_snippet_scan(ts->sn, stitle, stitlelen, err) == -1;
	ev_tok_set_lang(ts->tok, NULL);
	if (r)
		return NULL;
	if ((matched = json_array()) == NULL)
		goto nomem;
	for (int i = 0; i < ts->nwords; i++) {
		const struct word *w = &ts->words[i];

		if (!ev_snippet_found(ts->sn, i))
			continue;
		if (json_array_append_new(matched, json_string(w->surface)) == -1)
			goto nomem;
		for (int j = 0; j < w->nexp; j++) {
			if (!ev_snippet_term_found(ts->sn, w->expidx[j]))
				continue;
			if (fuzzy == NULL && (fuzzy = json_array()) == NULL)
				goto nomem;
			if (json_array_append_new(fuzzy, json_pack("{s:s,s:s,s:s,s:i,s:s}", "term",
			    w->surface, "expansion", w->exp[j], "word", w->expword[j], "distance",
			    w->dist[j], "by", w->by[j] ? "word" : "stem")) == -1)
				goto nomem;
		}
	}
	for (int j = 0; j < ts->nfeedback; j++) {
		if (!ev_snippet_term_found(ts->sn, ts->fb[j].snipidx))
			continue;
		if ((fed == NULL && (fed = json_array()) == NULL) ||
		    json_array_append_new(fed, json_string(ts->fb[j].surface)) == -1)
			goto nomem;
	}
	if (sqlite3_column_type(s, 14) == SQLITE_TEXT) {
		/* ev_json_parse_line() tells memory running out (code 1) from
		 * metadata that is not JSON (left out, as before). */
		struct ev_err pe = { 0 };
		const char *mt;
		size_t mlen;

		if (column_text(s, 14, &mt, &mlen) == -1)
			goto nomem;
		meta = ev_json_parse_line(mt, mlen, NULL, &pe);
		if (meta == NULL && pe.code == EV_EXIT_RUNTIME)
			goto nomem;
		if (meta != NULL && (!json_is_object(meta) || json_object_size(meta) == 0)) {
			json_decref(meta);
			meta = NULL;
		}
	}
	if (clause_meta(s, &meta) == -1)
		goto nomem;
	if (chunk_region(ts, s, textlen, &meta, &regions, err) == -1) {
		json_decref(matched);
		json_decref(fuzzy);
		json_decref(fed);
		json_decref(meta);
		return NULL;
	}
	signals = json_pack("{s:f,s:I,s:f}", "fts_score", score, "fts_rank", (json_int_t)rank,
	    "fts_norm", score / (best > 1.0 ? best : 1.0));
	if (signals != NULL && ts->as_document &&
	    json_object_set_new(signals, "query_as_document", json_true()) == -1) {
		json_decref(signals);
		signals = NULL;	/* the hit below then fails as out of memory */
	}
	/* json_pack() takes matched (an "o"), even when it fails */
	ev = json_pack("{s:s,s:s,s:o}", "lane", "text", "snippet", ev_buf_str(&ts->snip),
	    "matched_terms", matched);
	matched = NULL;
	if (ev != NULL && ((fuzzy != NULL && json_object_set(ev, "fuzzy", fuzzy) == -1) ||
	    (fed != NULL && json_object_set(ev, "feedback_terms", fed) == -1) ||
	    (regions != NULL && json_object_set(ev, "regions", regions) == -1))) {
		json_decref(ev);
		ev = NULL;	/* the hit below then fails as out of memory */
	}
	json_decref(fuzzy);
	json_decref(fed);
	json_decref(regions);
	fuzzy = fed = regions = NULL;
	hit = json_pack("{s:O,s:O,s:o,s:o,s:I,s:f,s:s,s:o,s:s,s:[o]}",
	    "query_id", json_object_get(q, "query_id"), "query", json_object_get(q, "query"),
	    "id", column_json(s, 2), "doc_id", column_json(s, 3), "rank", (json_int_t)rank,
	    "score", score, "lane", "text", "signals", signals, "snippet", ev_buf_str(&ts->snip),
	    "evidence", ev);
	if (hit == NULL) {
		json_decref(meta);
		return ev_err_nomem(err), NULL;
	}
	r = json_object_set_new(hit, "section_id", column_json(s, 4));
	r |= json_object_set_new(hit, "title", column_json(s, 6));
	r |= json_object_set_new(hit, "section_title", column_json(s, 7));
	r |= json_object_set_new(hit, "section_path", column_json(s, 8));
	r |= json_object_set_new(hit, "source_uri", column_json(s, 13));
	r |= json_object_set_new(hit, "chunk_index", column_json(s, 5));
	r |= json_object_set_new(hit, "offset_start", column_json(s, 10));
	r |= json_object_set_new(hit, "offset_end", column_json(s, 11));
	r |= json_object_set_new(hit, "content_hash", column_json(s, 12));
	if (sqlite3_column_type(s, 16) != SQLITE_NULL)
		r |= json_object_set_new(hit, "language", column_json(s, 16));
	if (meta != NULL)
		r |= json_object_set_new(hit, "metadata", meta);
	json_object_foreach(q, key, v)
		if (strcmp(key, "filters") != 0 && strcmp(key, "vector") != 0 &&
		    json_object_get(hit, key) == NULL)
			r |= json_object_set(hit, key, v);
	if (r != 0) {
		json_decref(hit);
		return ev_err_nomem(err), NULL;
	}
	return hit;
nomem:
	ev_err_nomem(err);
	json_decref(matched);
	json_decref(fuzzy);
	json_decref(fed);
	json_decref(meta);
	return NULL;
}

/* The search statement into *s: the cached one without filters, or one made
 * for these filters (*own set: the caller finalizes it), their values bound
 * from f->binds (which must outlive the statement's use).  Returns 0, or -1
 * with *err set. */
static int
prepare_search(struct ev_textsearch *ts, json_t *filters, struct filters *f, sqlite3_stmt **s,
    int *own, struct ev_err *err)
{
	*s = NULL;
	*own = 0;
	if (filters == NULL || json_is_null(filters))
		return (*s = ev_store_prepare(ts->st, sql_plain, err)) == NULL ? -1 : 0;
	f->sql = &ts->sql;
	f->err = err;
	f->oom = 0;
	ev_buf_reset(&ts->sql);
	SQL_ADD(f, ev_buf_adds(&ts->sql, SELECT_HITS " JOIN chunks fc ON fc.rowid = chunks_fts.rowid"
	    " LEFT JOIN documents fd ON fd.doc_id = fc.doc_id WHERE chunks_fts MATCH ?1"));
	if (build_filters(f, filters) == -1)
		return -1;
	if (ev_buf_adds(&ts->sql, SELECT_TAIL) == -1 || f->oom)
		return ev_err_nomem(err);
	if (sqlite3_prepare_v2(ev_store_db(ts->st), ev_buf_str(&ts->sql), -1, s, NULL) != SQLITE_OK)
		return ev_store_error(ts->st, "preparing the filtered query", err);
	*own = 1;
	for (size_t i = 0; i < json_array_size(f->binds); i++) {
		json_t *v = json_array_get(f->binds, i);
		int p = (int)i + FIRST_FILTER_PARAM, brc;

		if (json_is_string(v))
			brc = sqlite3_bind_text(*s, p, json_string_value(v), (int)json_string_length(v),
			    SQLITE_STATIC);
		else if (json_is_integer(v))
			brc = sqlite3_bind_int64(*s, p, json_integer_value(v));
		else if (json_is_real(v))
			brc = sqlite3_bind_double(*s, p, json_real_value(v));
		else {
			char *dump = json_dumps(v, JSON_COMPACT);

			if (dump == NULL)
				return ev_err_nomem(err);
			brc = sqlite3_bind_text(*s, p, dump, -1, SQLITE_TRANSIENT);
			free(dump);
		}
		if (brc != SQLITE_OK)
			return ev_store_error(ts->st, "binding a filter value", err);
	}
	return 0;
}

/* The key of the pair a b in the statistics, into ts->key.  Returns 0 or -1. */
static int
pair_key(struct ev_textsearch *ts, const char *a, const char *b)
{
	ev_buf_reset(&ts->key);
	return ev_buf_printf(&ts->key, "%s %s", a, b);
}

/* The query's word whose stem is stem, as the query wrote it. */
static const char *
surface_of_stem(const struct ev_textsearch *ts, const char *stem)
{
	for (int i = 0; i < ts->nwords; i++)
		if (strcmp(ts->words[i].stem, stem) == 0)
			return ts->words[i].surface;
	return stem;
}

/* With global statistics, each weighed phrase's IDF into ts->idf, from the
 * collection's rows holding it: a query word's as counted for the queries,
 * else (an expansion, a feedback term) its stem's from the vocabulary, 0
 * when no shard has it; a pair's from the pairs counted for the queries.
 * Returns 0, or -1 with *err set (code 2 naming `where`: a pair the
 * statistics lack). */
static int
global_idf(struct ev_textsearch *ts, const char *where, struct ev_err *err)
{
	for (int i = 0; i < ts->npw; i++) {
		long long n;

		if (ts->pw[i] == 0.0)
			continue;	/* a filter: no score */
		if (ts->pkb[i] == NULL) {
			/* a query word as its queries were counted; else its stem's */
			if ((n = ev_textstats_get(ts->o.stats, EV_STATS_PHRASE, ts->pka[i])) < 0)
				n = ev_textstats_get(ts->o.stats, EV_STATS_TERM, ts->pka[i]);
		} else {
			if (pair_key(ts, ts->pka[i], ts->pkb[i]) == -1)
				return ev_err_nomem(err);
			if ((n = ev_textstats_get(ts->o.stats, EV_STATS_PHRASE, ev_buf_str(&ts->key))) < 0)
				return ev_err_set(err, EV_EXIT_USAGE, where, "the statistics (--stats) do not"
				    " count '%s %s' side by side: make them (--stats-out) from these queries",
				    surface_of_stem(ts, ts->pka[i]), surface_of_stem(ts, ts->pkb[i]));
		}
		ts->idf[i] = ev_bm25_idf((double)ev_textstats_rows(ts->o.stats), n > 0 ? (double)n : 0.0);
	}
	return 0;
}

/* Bind the expression e, its n phrases' weights w and IDFs idf, and the
 * limit to s (reset). */
static void
bind_expr(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw,
    const struct ev_buf *e, double *w, double *idf, int n, long long limit)
{
	bw->n = n;
	bw->w = w;
	bw->idf = idf;
	bw->floor = 0.0;
	bw->tuned = 1;
	bw->k1 = ts->o.k1;
	bw->b = ts->o.b;
	bw->global = ts->o.stats != NULL;	/* its IDFs: global_idf() */
	if (bw->global) {
		bw->rows = (double)ev_textstats_rows(ts->o.stats);
		bw->tokens = (double)ev_textstats_tokens(ts->o.stats);
	}
	sqlite3_reset(s);
	sqlite3_bind_text(s, 1, ev_buf_str(e), (int)e->len, SQLITE_STATIC);
	sqlite3_bind_double(s, 2, ts->o.w_title);
	sqlite3_bind_double(s, 3, ts->o.w_section);
	sqlite3_bind_double(s, 4, ts->o.w_text);
	sqlite3_bind_int64(s, 5, limit);
	sqlite3_bind_pointer(s, 6, bw, EV_BM25_POINTER, NULL);
}

/* Bind the pass over ts->expr, unpruned. */
static void
bind_pass(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw, long long limit)
{
	bind_expr(ts, s, bw, &ts->expr, ts->pw, ts->idf, ts->npw, limit);
}

/* A failed step of a pass, into *err. */
static int
step_error(struct ev_textsearch *ts, int rc, const char *text, const char *where,
    struct ev_err *err)
{
	if (ts->o.raw_fts && rc == SQLITE_ERROR)
		return ev_err_set(err, EV_EXIT_USAGE, where, "bad FTS5 expression '%s': %s", text,
		    sqlite3_errmsg(ev_store_db(ts->st)));
	return ev_store_error(ts->st, "searching the text index", err);
}

/* Dynamic pruning (textsearch.h), after MaxScore (Turtle and Flood 1995).
 * A phrase can add at most its upper bound to a chunk's score: its weight x
 * its IDF x (k1 + 1), the limit of BM25's term as the frequency grows.  Once
 * some `limit` chunks are known to score at least theta, a chunk holding
 * only phrases whose bounds sum below theta cannot be among the best, so the
 * candidates need come only from the other phrases' chunks: "(THOSE) AND
 * (expr)", where THOSE weigh nothing and every phrase of expr weighs what it
 * did, so that each candidate's score is computed exactly as without
 * pruning.  Theta comes from a first pass over the chunks of the rarest
 * phrases (highest bounds), which hold most of the best chunks. */
#define PRUNE_MARGIN 1e-9	/* bounds are summed with this relative slack */

/* The probe: whether expr matches anything, and every weighted phrase's
 * IDF (the weights' idf, filled by ev_bm25() on the first row). */
static const char sql_probe[] = "SELECT ev_bm25(chunks_fts, ?2, ?3, ?4, ?6) FROM chunks_fts"
	" WHERE chunks_fts MATCH ?1 LIMIT ?5";

/* "(P1 OR ... Pm) AND (expr)" for the first m phrases of ts->order into
 * ts->pexpr, and its weights and IDFs into ts->ppw and ts->pidf.  Returns 0
 * or -1 (out of memory). */
static int
build_pruned(struct ev_textsearch *ts, int m)
{
	struct ev_buf *b = &ts->pexpr;
	const char *e = ev_buf_str(&ts->expr);
	int n = m + ts->npw, r;

	if (n > ts->cappp) {
		if (resize(&ts->ppw, n, sizeof *ts->ppw) == -1 ||
		    resize(&ts->pidf, n, sizeof *ts->pidf) == -1)
			return -1;
		ts->cappp = n;
	}
	ev_buf_reset(b);
	r = ev_buf_addc(b, '(');
	for (int i = 0; i < m && r == 0; i++) {
		int j = ts->order[i];

		if (i > 0)
			r = ev_buf_adds(b, " OR ");
		if (r == 0)
			r = ev_buf_add(b, e + ts->pstart[j], (size_t)ts->plen[j]);
		ts->ppw[i] = 0.0;
		ts->pidf[i] = 0.0;
	}
	if (r == 0 && (r = ev_buf_adds(b, ") AND (")) == 0 &&
	    (r = ev_buf_add(b, e, ts->expr.len)) == 0)
		r = ev_buf_addc(b, ')');
	memcpy(ts->ppw + m, ts->pw, (size_t)ts->npw * sizeof *ts->ppw);
	memcpy(ts->pidf + m, ts->idf, (size_t)ts->npw * sizeof *ts->pidf);
	ts->npp = n;
	return r;
}

/* Keep the phrases of this pass and the IDFs counted for them, for the
 * next pass of the query (the feedback pass's words and pairs are searched
 * again by the last).  Returns 0 or -1 (out of memory). */
static int
save_pass(struct ev_textsearch *ts)
{
	if (ts->npw > ts->capprev) {
		if (resize(&ts->previdf, ts->npw, sizeof *ts->previdf) == -1 ||
		    resize(&ts->prevstart, ts->npw, sizeof *ts->prevstart) == -1 ||
		    resize(&ts->prevlen, ts->npw, sizeof *ts->prevlen) == -1)
			return -1;
		ts->capprev = ts->npw;
	}
	ev_buf_reset(&ts->prevexpr);
	if (ev_buf_add(&ts->prevexpr, ev_buf_str(&ts->expr), ts->expr.len) == -1)
		return -1;
	memcpy(ts->previdf, ts->idf, (size_t)ts->npw * sizeof *ts->previdf);
	memcpy(ts->prevstart, ts->pstart, (size_t)ts->npw * sizeof *ts->prevstart);
	memcpy(ts->prevlen, ts->plen, (size_t)ts->npw * sizeof *ts->prevlen);
	ts->nprev = ts->npw;
	return 0;
}

/* The IDF of each phrase of ts->expr that the previous pass counted (the
 * same phrase, in the same snapshot of the store: the same IDF). */
static void
reuse_idf(struct ev_textsearch *ts)
{
	const char *e = ev_buf_str(&ts->expr), *pe = ev_buf_str(&ts->prevexpr);

	for (int i = 0; i < ts->npw; i++)
		for (int j = 0; j < ts->nprev && ts->idf[i] == 0; j++)
			if (ts->previdf[j] > 0 && ts->plen[i] == ts->prevlen[j] &&
			    memcmp(e + ts->pstart[i], pe + ts->prevstart[j], (size_t)ts->plen[i]) == 0)
				ts->idf[i] = ts->previdf[j];
}

/* The sweep (textsearch.h "The postings file").  A token of a phrase's
 * string, as FTS5 tokenises it in a query. */
struct phrase_toks {
	struct ev_textsearch *ts;
	int n;			/* positions of the phrase so far */
	int last_start;
	int too_many;		/* more positions or alternatives than a sweep takes */
	int oom;
};

/* Room for one more position in ts->nalt.  Returns 0 or -1. */
static int
grow_positions(struct ev_textsearch *ts)
{
	if (ts->npos == ts->cappos) {
		int cap = ts->cappos ? 2 * ts->cappos : 64;

		if (resize(&ts->nalt, cap, sizeof *ts->nalt) == -1)
			return -1;
		ts->cappos = cap;
	}
	return 0;
}

static int
on_phrase_token(void *ctx, const char *term, int len, int start, int end)
{
	struct phrase_toks *pt = ctx;
	struct ev_textsearch *ts = pt->ts;
	int k = ts->ntok;

	(void)end;
	if (k == ts->captok) {
		int cap = ts->captok ? 2 * ts->captok : 64;

		if (resize(&ts->tokoff, cap, sizeof *ts->tokoff) == -1 ||
		    resize(&ts->toklen, cap, sizeof *ts->toklen) == -1 ||
		    resize(&ts->tokp, cap, sizeof *ts->tokp) == -1) {
			pt->oom = 1;
			return 1;
		}
		ts->captok = cap;
	}
	/* an alternative of the word before shares its offsets */
	if (pt->n > 0 && start == pt->last_start) {
		if (++ts->nalt[ts->npos - 1] > EV_BM25_MAX_ALT) {
			pt->too_many = 1;
			return 1;
		}
	} else {
		if (pt->n == EV_BM25_MAX_PHRASE || grow_positions(ts) == -1) {
			pt->too_many = pt->n == EV_BM25_MAX_PHRASE;
			pt->oom = !pt->too_many;
			return 1;
		}
		ts->nalt[ts->npos++] = 1;
		pt->n++;
	}
	pt->last_start = start;
	ts->tokoff[k] = (int)ts->toks.len;
	ts->toklen[k] = len;
	if (ev_buf_add(&ts->toks, term, (size_t)len) == -1) {
		pt->oom = 1;
		return 1;
	}
	ts->ntok++;
	return 0;
}

/* Each phrase of ts->expr as the tokens FTS5 searches for, into ts->ph.
 * Returns 1, 0 when a phrase cannot be swept (a word with alternatives,
 * a phrase of no token), or -1 with *err set. */
static int
sweep_phrases(struct ev_textsearch *ts, struct ev_err *err)
{
	const char *e = ev_buf_str(&ts->expr);
	struct ev_buf inner = EV_BUF_INIT;
	int r = 1, k = 0;

	ev_buf_reset(&ts->toks);
	ts->ntok = 0;
	ts->npos = 0;
	if (ts->npw > ts->capph) {
		if (resize(&ts->ph, ts->npw, sizeof *ts->ph) == -1)
			return ev_err_nomem(err);
		ts->capph = ts->npw;
	}
	for (int i = 0; i < ts->npw && r == 1; i++) {
		/* the string's inside, its doubled quotes undone */
		const char *p = e + ts->pstart[i] + 1, *end = e + ts->pstart[i] + ts->plen[i] - 1;
		struct phrase_toks pt = { ts, 0, -1, 0, 0 };

		ev_buf_reset(&inner);
		for (; p < end && r == 1; p++) {
			if (*p == '"')
				p++;
			if (ev_buf_addc(&inner, *p) == -1)
				r = -1;
		}
		if (r == 1 && ev_tok_run_query(ts->tok, ev_buf_str(&inner), inner.len, on_phrase_token,
		    &pt, err) == -1)
			r = -1;
		else if (r == 1 && pt.oom)
			r = -1;
		else if (r == 1 && (pt.too_many || pt.n == 0))
			r = 0;
		ts->ph[i].ntok = pt.n;
		ts->ph[i].filter = i < ts->nfilter;
	}
	ev_buf_release(&inner);
	if (r == -1 && err->code == 0)
		ev_err_nomem(err);
	if (r != 1)
		return r;
	/* the tokens' bytes, now that toks is whole */
	for (int t = 0; t < ts->ntok; t++)
		ts->tokp[t] = ts->toks.p + ts->tokoff[t];
	for (int i = 0, pos = 0; i < ts->npw; i++) {
		ts->ph[i].tok = ts->tokp + k;
		ts->ph[i].len = ts->toklen + k;
		ts->ph[i].nalt = ts->nalt + pos;
		for (int j = 0; j < ts->ph[i].ntok; j++)
			k += ts->nalt[pos++];
	}
	return 1;
}

/* Whether the postings file holds the index this query reads (once per
 * query, in its transaction).  Returns 1 or 0, or -1 with *err set. */
static int
postings_fresh(struct ev_textsearch *ts, struct ev_err *err)
{
	if (ts->fresh == -1)
		ts->fresh = ev_postings_fresh(ts->post, ts->st, err);
	return ts->fresh;
}

static void
run_read_ahead(void *arg)
{
	struct read_ahead *ra = arg;

	ev_store_readahead_walk(ra->st, ra->rowid, ra->n, NULL);
}

/* Ask for the pages of the swept hits' rows, read next one by one
 * (step_pass()), in one go: when they are out of the page cache, the disk
 * reads them side by side (store.h).  On the sweeper's second thread when
 * it has one, while this one reads the rows: the asking (the trees walked
 * in the page cache) takes a millisecond for 100 hits, all of it lost when
 * the pages are there already.  Out of memory, they are not asked for. */
static void
read_ahead(struct ev_textsearch *ts)
{
	struct read_ahead *ra = &ts->ra;

	/* (the last job ended: the sweep that made these hits waited for it) */
	if (!ev_store_readahead_ready(ts->st) ||
	    ((size_t)ts->nswept > ra->cap && ev_grow(&ra->rowid, &ra->cap, (size_t)ts->nswept,
	    sizeof *ra->rowid, 128) == -1))
		return;
	ra->st = ts->st;
	ra->n = (size_t)ts->nswept;
	for (size_t i = 0; i < ra->n; i++)
		ra->rowid[i] = ts->swept[i].rowid;
	ev_bm25_sweep_background(ts->sweep, run_read_ahead, ra);
}

/* Sweep the pass of `limit` chunks over ts->expr through the postings file
 * (bm25.h, ev_bm25_sweep()) when it can: the store has a fresh one, the
 * query is not filtered, its words are OR-ed and its phrases are plain.
 * Returns 1 (ts->swept holds the hits), 0 (the pass is FTS5's), or -1
 * with *err set. */
static int
try_sweep(struct ev_textsearch *ts, struct ev_bm25_weights *bw, long long limit,
    struct ev_err *err)
{
	double colw[3] = { ts->o.w_title, ts->o.w_section, ts->o.w_text };
	long long n;
	int r;

	if (ts->sweep == NULL || ts->filtered || ts->o.all_terms || ts->o.raw_fts || ts->npw == 0)
		return 0;
	if ((r = postings_fresh(ts, err)) != 1 || (r = sweep_phrases(ts, err)) != 1)
		return r;
	if ((n = ev_bm25_sweep(ts->sweep, ts->ph, ts->npw, colw, 3, bw, limit, &ts->swept, err)) < 0)
		return -1;
	ts->nswept = n;
	ts->next_swept = 0;
	ts->used_sweep = 1;
	ts->pruned = ev_bm25_sweep_pruned(ts->sweep);
	read_ahead(ts);
	return 1;
}

/* The chunk row of a swept hit, with the columns of SELECT_HITS. */
static const char sql_swept_row[] =
	"SELECT c.rowid, ?2, c.id, c.doc_id, c.section_id, c.chunk_index, c.title, c.section_title,"
	" c.section_path, c.text, c.offset_start, c.offset_end, c.content_hash, d.source_uri, d.metadata,"
	" d.language, c.language FROM chunks c LEFT JOIN documents d ON d.doc_id = c.doc_id"
	" WHERE c.rowid = ?1";

/* Step the pass: s itself, or when it was swept, the next swept hit's
 * chunk row.  *row is the statement to read the row's columns from.
 * Returns SQLITE_ROW, SQLITE_DONE or an error code. */
static int
step_pass(struct ev_textsearch *ts, sqlite3_stmt *s, sqlite3_stmt **row)
{
	sqlite3_stmt *r;
	int rc;

	*row = s;
	if (ts->swept == NULL)
		return sqlite3_step(s);
	if ((r = ev_store_prepare(ts->st, sql_swept_row, NULL)) == NULL)
		return SQLITE_NOMEM;
	*row = r;
	while (ts->next_swept < ts->nswept) {
		const struct ev_bm25_hit *h = &ts->swept[ts->next_swept++];

		sqlite3_reset(r);
		if (sqlite3_bind_int64(r, 1, h->rowid) != SQLITE_OK ||
		    sqlite3_bind_double(r, 2, -h->s) != SQLITE_OK)
			return SQLITE_NOMEM;
		if ((rc = sqlite3_step(r)) != SQLITE_DONE)
			return rc;	/* a row, or an error */
		/* a chunk gone from the table (FTS5's JOIN drops it too) */
	}
	sqlite3_reset(r);
	return SQLITE_DONE;
}

/* Bind s for a pass of `limit` chunks over ts->expr, pruned when the
 * options allow it and it pays (ts->pruned: the phrases left out of the
 * candidates), or swept.  Returns 0, or -1 with *err set. */
static int
prepare_pass(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw,
    long long limit, const char *text, const char *where, struct ev_err *err)
{
	sqlite3_stmt *probe;
	int rc, nscore = 0, found = 0, out = 0;
	double theta = 0, sum = 0;

	ts->pruned = 0;
	ts->swept = NULL;
	ts->used_sweep = 0;
	if (ts->o.stats != NULL ? global_idf(ts, where, err) == -1 : (reuse_idf(ts), 0))
		return -1;
	bind_pass(ts, s, bw, limit);
	if ((rc = try_sweep(ts, bw, limit, err)) != 0)
		return rc == -1 ? -1 : 0;
	if (ts->o.exhaustive || ts->o.raw_fts || ts->npw < 2)
		return 0;
	for (int i = 0; i < ts->npw; i++) {
		if (ts->pw[i] < 0)
			return 0;	/* a bound needs every term >= 0 */
		nscore += ts->pw[i] > 0;
	}
	if (nscore < 2)
		return 0;
	if ((probe = ev_store_prepare(ts->st, sql_probe, err)) == NULL)
		return -1;
	bind_pass(ts, probe, bw, 1);
	rc = sqlite3_step(probe);
	sqlite3_reset(probe);
	if (rc == SQLITE_DONE)
		return 0;	/* nothing matches */
	if (rc != SQLITE_ROW)
		return step_error(ts, rc, text, where, err);
	if (resize(&ts->ub, ts->cappw, sizeof *ts->ub) == -1 ||
	    resize(&ts->order, ts->cappw, sizeof *ts->order) == -1)
		return ev_err_nomem(err);
	/* The scoring phrases by bound, highest first (insertion: few). */
	nscore = 0;
	for (int i = 0; i < ts->npw; i++) {
		int j;

		ts->ub[i] = ts->pw[i] * ts->idf[i] * (ts->o.k1 + 1.0);
		if (ts->pw[i] == 0)
			continue;
		for (j = nscore; j > 0 && ts->ub[ts->order[j - 1]] < ts->ub[i]; j--)
			ts->order[j] = ts->order[j - 1];
		ts->order[j] = i;
		nscore++;
	}
	/* Theta: the limit-th best score among the chunks of the m rarest
	 * phrases, m doubling until there are that many chunks. */
	for (int m = 1; m < nscore && !found; m *= 2) {
		long long n = 0;

		if (build_pruned(ts, m) == -1)
			return ev_err_nomem(err);
		bind_expr(ts, s, bw, &ts->pexpr, ts->ppw, ts->pidf, ts->npp, limit);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW)
			if (++n == limit) {
				theta = sqlite3_column_double(s, 1);
				found = 1;
			}
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return step_error(ts, rc, text, where, err);
	}
	/* The lowest bounds that sum below theta: their phrases alone cannot
	 * make a chunk one of the best. */
	for (int i = nscore - 1; found && i > 0; i--) {
		double u = ts->ub[ts->order[i]];

		if ((sum + u) * (1.0 + PRUNE_MARGIN) >= theta)
			break;
		sum += u;
		out++;
	}
	if (out == 0)
		bind_pass(ts, s, bw, limit);
	else if (build_pruned(ts, nscore - out) == -1)
		return ev_err_nomem(err);
	else
		bind_expr(ts, s, bw, &ts->pexpr, ts->ppw, ts->pidf, ts->npp, limit);
	/* A candidate is left (ev_bm25()'s floor) as soon as its phrases show
	 * it cannot reach theta. */
	bw->floor = found ? theta : 0.0;
	ts->pruned = out;
	return 0;
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

int
ev_textsearch_postings_stale(const struct ev_textsearch *ts)
{
	return ts->post_stale;
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

/* Pseudo-relevance feedback (textsearch.h): the first pass over s, then the
 * words' weights and the feedback terms (ts->fb[0..nfeedback)) set, and the
 * feedback terms added to the snippet maker.  Returns 1, 0 when the first
 * pass found nothing to feed back (nothing changed), or -1 with *err. */
static int
feedback(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw, const char *text,
    const char *where, struct ev_err *err)
{
	struct fb_chunk c = { ts, NULL, 0, NULL, NULL, 0, 0, { 0 }, 0 };
	sqlite3_stmt *row;
	double best = 0, z = 0, lambda = ts->o.feedback_weight, nq = ts->nwords;
	int rc, n = 0, keep = 0, r = -1, lang, failed;

	if (build_expr(ts, ts->o.proximity) == -1)
		return ev_err_nomem(err);
	if (ts->lex == NULL && (ts->lex = ev_lex_open(ts->o.dict_dir, err)) == NULL)
		return -1;
	if (prepare_pass(ts, s, bw, ts->o.feedback_docs, text, where, err) == -1)
		return -1;
	while ((rc = step_pass(ts, s, &row)) == SQLITE_ROW) {
		double score = sqlite3_column_double(row, 1), cw;
		const char *title, *body;
		size_t tlen, blen;

		if (n++ == 0)
			best = score;
		if (column_text(row, 6, &title, &tlen) == -1 || column_text(row, 9, &body, &blen) == -1) {
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
		step_error(ts, rc, text, where, err);
		goto out;
	}
	sqlite3_reset(s);
	if (save_pass(ts) == -1) {
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
	r = 1;
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

static int search_query(struct ev_textsearch *ts, json_t *q, const char *where, json_t *hits,
	int *flags, struct ev_err *err);

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

/* The query languages of q: its own "language", else the store's (set when
 * the searcher opened).  Returns 1 when q set its own, 0, or -1 with *err
 * set (bad input). */
static int
query_langs(struct ev_textsearch *ts, json_t *q, const char *where, struct ev_err *err)
{
	json_t *l = json_object_get(q, "language");
	char code[EV_ANALYZE_CODE_MAX];
	const char *codes[1] = { code };

	if (l == NULL || json_is_null(l))
		return 0;
	if (!json_is_string(l) || ev_analyze_norm(json_string_value(l), json_string_length(l), code) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'language' must be a language"
		    " code such as \"en\", \"fr\" or \"zh\"");
	ev_tok_set_query_langs(ts->tok, codes, 1);
	return 1;
}

/* The words of the query q (text[0..len)) into ts->words: stop words left
 * out, request words and the function words of the query's language dropped
 * (not with raw_fts).  Returns 0 or -1 with *err. */
static int
query_words(struct ev_textsearch *ts, json_t *q, const char *text, size_t len,
    struct ev_err *err)
{
	struct collect c = { ts, text };

	clear_words(ts);
	ts->err = err;
	if (ev_tok_run_terms(ts->tok, text, len, on_query_token, &c, err) == -1 ||
	    err->code != 0)
		return -1;
	if (ts->o.raw_fts)
		return 0;
	drop_words(ts, is_request_word, 0);
	return drop_function_words(ts, q, text, len, err);
}

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
	sqlite3_stmt *s;
	long long tot[2] = { 0, 0 };
	int rc;

	for (int i = 0; i < 2; i++) {
		if ((s = ev_store_prepare(ts->st, i == 0 ?
		    "SELECT " EV_BM25_TOTALS "(chunks_fts, 0) FROM chunks_fts LIMIT 1" :
		    "SELECT " EV_BM25_TOTALS "(chunks_fts, 1) FROM chunks_fts LIMIT 1", err)) == NULL)
			return -1;
		if ((rc = sqlite3_step(s)) == SQLITE_ROW)
			tot[i] = sqlite3_column_int64(s, 0);
		sqlite3_reset(s);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return ev_store_error(ts->st, "counting the text index", err);
	}
	ev_textstats_add_totals(out, tot[0], tot[1]);
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
	if ((own_lang = query_langs(ts, q, where, err)) == -1)
		return -1;
	r = query_words(ts, q, json_string_value(text), json_string_length(text), err);
	if (r == 0)
		r = count_pairs(ts, out, err);
	/* back to the store's languages for the next query, as the search does */
	if (own_lang && default_query_langs(ts, r == -1 ? NULL : err) == -1)
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
	if (add_phrase(ts, a, b, 1.0, NULL, NULL) == -1)
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

		ev_buf_reset(&ts->key);
		if (ev_buf_adds(&ts->key, w->stem) == -1)
			return ev_err_nomem(err);
		if (count_phrase(ts, out, w->surface, NULL, err) == -1)
			return -1;
		if (i + 1 == ts->nwords)
			break;
		if (pair_key(ts, w->stem, ts->words[i + 1].stem) == -1)
			return ev_err_nomem(err);
		if (count_phrase(ts, out, w->surface, ts->words[i + 1].surface, err) == -1)
			return -1;
	}
	return 0;
}

int
ev_textsearch_query(struct ev_textsearch *ts, json_t *q, const char *where, json_t *hits,
    int *flags, struct ev_err *err)
{
	int own_lang = query_langs(ts, q, where, err), r;

	if (own_lang == -1)
		return -1;
	r = search_query(ts, q, where, hits, flags, err);
	/* back to the store's languages for the next query */
	if (own_lang && default_query_langs(ts, r == -1 ? NULL : err) == -1)
		r = -1;
	return r;
}

/* ev_textsearch_query() once the query languages are set. */
static int
search_query(struct ev_textsearch *ts, json_t *q, const char *where, json_t *hits,
    int *flags, struct ev_err *err)
{
	struct filters f = { 0 };
	struct ev_bm25_weights bw;
	json_t *filters = json_object_get(q, "filters");
	sqlite3_stmt *s = NULL, *row;
	const char *text;
	size_t textlen;
	int own = 0, rc, n = 0, r = -1, began = 0;
	double best = 0, pair_weight;

	*flags = 0;
	ev_err_clear(err);
	if (!json_is_string(json_object_get(q, "query")))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'query' must be a string");
	text = json_string_value(json_object_get(q, "query"));
	textlen = json_string_length(json_object_get(q, "query"));

	/* The words, their vocabulary look-ups and expansions. */
	ev_snippet_reset(ts->sn);
	if (query_words(ts, q, text, textlen, err) == -1)
		return -1;
	if (ts->truncated)
		*flags |= EV_TS_TRUNCATED;
	for (int i = 0; i < ts->nwords && !ts->o.raw_fts; i++) {
		struct word *w = &ts->words[i];
		int in;

		if (ts->o.fuzzy == 0)
			break;
		/* no edit distance between words of scripts without spaces,
		 * nor on numbers and codes: "3900" is not a typo of "3000" */
		if (ev_analyze_has_unspaced(w->surface, strlen(w->surface)) ||
		    strpbrk(w->surface, "0123456789") != NULL)
			continue;
		if ((in = in_vocab(ts, w->stem, err)) == -1)
			return -1;
		/* A word missing from the index is a typo only when it is
		 * not a real word: "much" is never "repaired" to "ruch". */
		if (!in && allowed_distance(ts, cplen(w->surface, (int)strlen(w->surface))) == 0)
			continue;	/* too short to expand: no need to ask */
		if (!in && (in = is_real_word(ts, w, err)) == -1)
			return -1;
		if (!in && expand(ts, i, err) == -1)
			return -1;
	}
	if (ts->no_dict_now)
		*flags |= EV_TS_NO_DICT;
	for (int i = 0; i < ts->nwords; i++)
		if (ev_snippet_add_term(ts->sn, ts->words[i].stem, (int)strlen(ts->words[i].stem), i, err) == -1)
			return -1;
	/* and its stems in the other query languages, which the chunks of
	 * those languages hold */
	ts->alt_end = ts->nwords;
	for (int i = 0; i < ts->nwords; i++) {
		struct alt_ctx a = { ts, i, err };

		if (ev_tok_run_query(ts->tok, ts->words[i].surface, strlen(ts->words[i].surface),
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
	f.where = where;
	if ((filters != NULL && !json_is_null(filters) && (f.binds = json_array()) == NULL)) {
		ev_err_nomem(err);
		goto out;
	}
	if (prepare_search(ts, filters, &f, &s, &own, err) == -1)
		goto out;
	ts->filtered = own;
	ts->fresh = -1;
	if (ts->sweep != NULL)
		ev_bm25_sweep_forget(ts->sweep);	/* a new query, maybe a new snapshot */
	ts->as_document = ts->o.long_query > 0 && ts->nwords > ts->o.long_query;
	pair_weight = ts->as_document ? 0 : ts->o.proximity;
	if (!ts->o.raw_fts && !ts->o.all_terms && ts->o.feedback_docs > 0 && !ts->as_document) {
		int fed = feedback(ts, s, &bw, text, where, err);

		if (fed == -1)
			goto out;
		if (fed)
			pair_weight *= 1.0 - ts->o.feedback_weight;
	}
	if (ts->o.raw_fts) {
		ev_buf_reset(&ts->expr);
		ts->npw = 0;
		if (ev_buf_add(&ts->expr, text, textlen) == -1) {
			ev_err_nomem(err);
			goto out;
		}
	} else if (build_expr(ts, pair_weight) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	if (prepare_pass(ts, s, &bw, ts->o.k, text, where, err) == -1)
		goto out;
	while ((rc = step_pass(ts, s, &row)) == SQLITE_ROW) {
		json_t *hit;

		if (n == 0)
			best = sqlite3_column_double(row, 1);
		if ((hit = make_hit(ts, row, q, n + 1, best, err)) == NULL)
			goto out;
		if (json_array_append_new(hits, hit) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		n++;
	}
	if (rc != SQLITE_DONE) {
		step_error(ts, rc, text, where, err);
		goto out;
	}
	r = n;
out:
	if (own)
		sqlite3_finalize(s);
	else if (s != NULL)
		sqlite3_reset(s);
	json_decref(f.binds);
	if (began) {
		struct ev_err ignored = { 0 };

		ev_store_exec(ts->st, "ROLLBACK", &ignored);	/* it only read */
	}
	return r;
}
