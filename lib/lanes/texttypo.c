/* texttypo.c: typo repair: a query word missing from the index, and not
 * a real word, expanded to the closest words of the index
 * (ev-search-text(1) "Typo repair").  See textstate.h. */
#include "textstate.h"

#include <stdlib.h>
#include <string.h>

#include "editdist.h"
#include "lexicon.h"
#include "postings.h"
#include "sweep.h"
#include "textstats.h"
#include "token.h"

/* The namespace of the index term t[0..len) (analyze.h): 0 untagged,
 * 1 + the index of its language's code in ts->vns (added when new),
 * VNS_WORD for the word itself ("\x1f\x1f" word), or -1 for a term of too
 * many languages; *stem the bytes before its stem (or word). */
static int
namespace_of(struct ev_textsearch *ts, const char *t, int len, int add, int *stem)
{
	const char *close;
	int cl, i;

	*stem = 0;
	if (len == 0 || t[0] != EV_ANALYZE_TAG)
		return 0;
	if ((close = memchr(t + 1, EV_ANALYZE_TAG, (size_t)len - 1)) == NULL)
		return 0;
	cl = (int)(close - t) - 1;
	*stem = cl + 2;
	if (cl == 0)
		return VNS_WORD;
	if (cl >= EV_ANALYZE_CODE_MAX)
		return -1;
	for (i = 0; i < ts->nvns; i++)
		if (strncmp(ts->vns[i], t + 1, (size_t)cl) == 0 && ts->vns[i][cl] == '\0')
			return i + 1;
	if (!add || ts->nvns == MAX_VNS)
		return -1;
	memcpy(ts->vns[ts->nvns], t + 1, (size_t)cl);
	ts->vns[ts->nvns][cl] = '\0';
	return ++ts->nvns;
}

/* Append the index term t[0..len) with df to the vocabulary: a stem
 * (untagged, or tagged with its language: analyze.h), or a word itself (a
 * candidate only for a word searched as itself alone: a language without a
 * stemmer), when its kind is among kinds (VOCAB_STEMS, VOCAB_WORDS).  Its
 * bytes go after the others' in ts->vocab_bytes (one
 * buffer, not an allocation a term: tens of thousands of them, each freed
 * again at the end, were half the time of a query with a typo).  Returns 0
 * or -1 (out of memory). */
static int
vocab_add(struct ev_textsearch *ts, int kinds, const char *t, int len, long long df)
{
	struct vterm *v;
	int stem, ns, word = len >= 2 && t[0] == EV_ANALYZE_TAG && t[1] == EV_ANALYZE_TAG;

	if (!(kinds & (word ? VOCAB_WORDS : VOCAB_STEMS)))
		return 0;	/* of a kind not read now (load_vocab()) */
	if ((ns = namespace_of(ts, t, len, 1, &stem)) == -1 || stem == len)
		return 0;
	if (ts->nvocab == ts->capvocab) {
		int c = ts->capvocab ? 2 * ts->capvocab : 4096;

		if ((v = realloc(ts->vocab, (size_t)c * sizeof *v)) == NULL)
			return -1;
		ts->vocab = v;
		ts->capvocab = c;
	}
	v = &ts->vocab[ts->nvocab];
	/* the bytes after those of the terms before (the pointers set once
	 * they are all there: vocab_pointers()) */
	v->at = ts->vocab_bytes.len;
	if (ev_buf_add(&ts->vocab_bytes, t, (size_t)len) == -1 || ev_buf_addc(&ts->vocab_bytes, '\0') == -1)
		return -1;
	v->term = NULL;
	v->s = NULL;
	v->tag = stem;
	v->len = len - stem;
	v->cplen = ev_editdist_cplen(t + stem, v->len);
	v->ns = ns;
	v->df = df;
	ts->nvocab++;
	return 0;
}

/* The vocabulary of the global statistics (in the order of the store's),
 * its terms of kinds (VOCAB_STEMS, VOCAB_WORDS). */
static int
vocab_of_stats(struct ev_textsearch *ts, int kinds, struct ev_err *err)
{
	size_t n = ev_textstats_count(ts->o.stats, EV_STATS_TERM);

	for (size_t i = 0; i < n; i++) {
		long long df;
		const char *t = ev_textstats_key(ts->o.stats, EV_STATS_TERM, i, &df);

		if (df > 0 && vocab_add(ts, kinds, t, (int)strlen(t), df) == -1)
			return ev_err_nomem(err);
	}
	return 0;
}

/* The vocabulary's terms of kinds (VOCAB_STEMS, VOCAB_WORDS) appended to
 * ts->vocab: the statistics' with opts.stats, else the postings file's
 * when the store has one, else FTS5's vocabulary table's.  Returns 0, or
 * -1 with *err set. */
static int
read_vocab(struct ev_textsearch *ts, int kinds, struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (ts->o.stats != NULL)
		return vocab_of_stats(ts, kinds, err);
	if (ts->post != NULL) {
		/* the postings file's terms: FTS5's vocabulary table counts
		 * every term's rows by walking every list */
		long long n = ev_postings_nterms(ts->post), rows;
		int len;

		for (long long i = 0; i < n; i++) {
			const char *t = ev_postings_term_at(ts->post, i, &len, &rows);

			if (t == NULL)
				return ev_postings_corrupt(ts->post, err);
			if (vocab_add(ts, kinds, t, len, rows) == -1)
				return ev_err_nomem(err);
		}
		return 0;
	}
	if ((s = ev_store_prepare(ts->st, "SELECT term, doc FROM chunks_vocab", err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		int len = sqlite3_column_bytes(s, 0);

		if (t != NULL && vocab_add(ts, kinds, t, len, sqlite3_column_int64(s, 1)) == -1)
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

/* Read the vocabulary's terms of kind (read_vocab()): its stems, or its
 * words themselves (VNS_WORD: in a store of stemmed languages, half of its
 * terms, looked for only for a word of a language without a stemmer),
 * after the terms read before; both at once from FTS5's vocabulary table
 * or the statistics, whose every reading costs as much (FTS5's counts
 * every list).  Then point each term at its bytes, which no longer move.
 * Returns 0, or -1 with *err set. */
static int
load_vocab(struct ev_textsearch *ts, int kind, struct ev_err *err)
{
	int kinds = ts->o.stats == NULL && ts->post != NULL ? kind : VOCAB_STEMS | VOCAB_WORDS;

	ts->vocab_loaded |= kinds;
	if (read_vocab(ts, kinds, err) == -1)
		return -1;
	for (int i = 0; i < ts->nvocab; i++) {
		struct vterm *v = &ts->vocab[i];

		v->term = ts->vocab_bytes.p + v->at;
		v->s = v->term + v->tag;
	}
	return 0;
}

/* Whether the index holds the term t[0..len): 1, 0, or -1 with *err set. */
static int
term_in_index(struct ev_textsearch *ts, const char *t, int len, struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (ts->o.stats != NULL) {
		char *key = strndup(t, (size_t)len);
		long long n = key != NULL ? ev_textstats_get(ts->o.stats, EV_STATS_TERM, key) : 0;

		free(key);
		return key == NULL ? ev_err_nomem(err) : n > 0;
	}
	if (ts->post != NULL) {
		/* the postings file's terms are the index's (the file is stale
		 * only if the store was written since the searcher opened) */
		struct ev_postings_cursor c;

		return ev_postings_term(ts->post, t, len, &c) > 0;
	}
	if ((s = ev_store_prepare(ts->st, "SELECT 1 FROM chunks_vocab WHERE term = ?1", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, t, len, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ev_store_error(ts->st, "looking up the vocabulary", err);
	return rc == SQLITE_ROW;
}

/* A look-up of a word's query terms in the index (on_query_term()). */
struct held {
	struct ev_textsearch *ts;
	struct ev_err *err;
	int found;		/* 1, or -1 on an error */
};

static int
on_query_term(void *ctx, const char *term, int len, int start, int end)
{
	struct held *h = ctx;

	(void)start, (void)end;
	h->found = term_in_index(h->ts, term, len, h->err);
	return h->found != 0;
}

int
ev_texttypo_in_vocab(struct ev_textsearch *ts, const struct word *w, struct ev_err *err)
{
	struct held h = { ts, err, 0 };

	if (ev_tok_run_query(ts->tok, w->surface, strlen(w->surface), on_query_term, &h, err) == -1)
		return -1;
	return h.found;
}

/* The namespaces a word's query terms search (on_query_namespace()); the
 * words themselves (VNS_WORD) count only for a word searched as itself
 * alone (a language without a stemmer), else its stems stand for it. */
struct namespaces {
	struct ev_textsearch *ts;
	unsigned mask;		/* bit n: namespace n (struct vterm's ns) */
};

static int
on_query_namespace(void *ctx, const char *term, int len, int start, int end)
{
	struct namespaces *n = ctx;
	int stem, ns = namespace_of(n->ts, term, len, 0, &stem);

	(void)start, (void)end;
	if (ns >= 0)
		n->mask |= 1u << ns;
	return 0;
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

/* first_instance() from the postings file: the term's first entry, and
 * its first position (they rise: column, then offset). */
static int
first_posting(struct ev_textsearch *ts, const char *stem, long long *rowid, int *col, int *offset,
    struct ev_err *err)
{
	struct ev_postings_cursor c;
	uint64_t *key;
	long long n = 0;
	int r;

	if (ev_postings_term(ts->post, stem, (int)strlen(stem), &c) == 0)
		return 0;
	if ((r = ev_postings_next(&c)) != 1)
		return r == 0 ? 0 : ev_postings_corrupt(ts->post, err);
	for (int i = 0; i < c.ncol; i++)
		n += c.count[i];
	if (n == 0)
		return 0;
	if ((key = malloc((size_t)n * sizeof *key)) == NULL)
		return ev_err_nomem(err);
	if (ev_postings_positions(&c, key) != n) {
		free(key);
		return ev_postings_corrupt(ts->post, err);
	}
	*rowid = c.rowid;
	*col = (int)(key[0] >> 32);
	*offset = (int)(key[0] & 0xffffffffu);
	free(key);
	return 1;
}

/* Whether typo repair reads the postings file rather than FTS5 for the
 * chunks holding words (together(), first_instance()): when it has one
 * that holds the index as it is (FTS5 reads every segment of its index
 * for them, and a store bulk-loaded before its postings file was made
 * keeps hundreds).  Returns 1 or 0, or -1 with *err set. */
static int
by_postings(struct ev_textsearch *ts, struct ev_err *err)
{
	return ts->post != NULL ? ev_textpass_postings_fresh(ts, err) : 0;
}

/* The first instance of the index term `stem` (of the smallest rowid, then
 * column, then offset: the first row of fts5vocab's instance table for
 * it) into *rowid, *col (0 title, 1 section_title, 2 text) and *offset.
 * Returns 1, 0 when the index has no such term, -1 with *err set. */
static int
first_instance(struct ev_textsearch *ts, const char *stem, long long *rowid, int *col, int *offset,
    struct ev_err *err)
{
	static const char *const cols[] = { "title", "section_title", "text" };
	sqlite3_stmt *s;
	int rc;
	const char *colname;

	*col = -1;
	if ((rc = by_postings(ts, err)) != 0)
		return rc == -1 ? -1 : first_posting(ts, stem, rowid, col, offset, err);
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
	*rowid = sqlite3_column_int64(s, 0);
	colname = (const char *)sqlite3_column_text(s, 1);
	for (int i = 0; i < 3 && colname != NULL; i++)
		if (strcmp(colname, cols[i]) == 0)
			*col = i;
	*offset = sqlite3_column_int(s, 2);
	sqlite3_reset(s);
	return 1;
}

int
ev_texttypo_surface_of(struct ev_textsearch *ts, const char *stem, char **out, struct ev_err *err)
{
	sqlite3_stmt *s;
	struct nth_token t = { 0, 0, -1, -1 };
	long long rowid;
	int rc, col;

	*out = NULL;
	if ((rc = first_instance(ts, stem, &rowid, &col, &t.want, err)) != 1)
		return rc;
	if (col < 0 || col > 2)
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
int
ev_texttypo_is_real_word(struct ev_textsearch *ts, const struct word *w, struct ev_err *err)
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
int
ev_texttypo_allowed_distance(const struct ev_textsearch *ts, int n)
{
	if (n < 4)
		return 0;
	if (n < 6)
		return ts->o.fuzzy < 1 ? ts->o.fuzzy : 1;
	return ts->o.fuzzy;
}

/* A scan of the vocabulary's terms [lo, hi) of the namespaces mask for
 * those within max edits of the typed word cw (n code points; tail: its
 * ending costs) or within smax of its stem cq (ns code points): the want
 * closest, then most frequent,
 * then first, into best (their indices), dist and by (1: found by the word,
 * 0: by the stem), in that order; got of them. */
struct vocab_scan {
	const struct ev_textsearch *ts;
	const uint32_t *cq, *cw;
	uint64_t setq, setw;	/* code_point_set() of cq and of cw */
	const int *tail;
	int ns, n, smax, max, want, lo, hi;
	int *best, *dist, *by, got;
	unsigned mask;		/* the namespaces searched (struct vterm's ns) */
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

/* The code points of c[0..n), a bit each (its low six bits: two that
 * share one are counted once).  Every edit puts at most one code point
 * into a string that it did not hold, and takes at most one out, so the
 * distance from a to b is at least the bits of b's set that a's lacks,
 * and the bits of a's that b's lacks: a bound that leaves most of the
 * vocabulary unmeasured (a query of four missing words at 1,000,000
 * chunks: its optimal string alignments were a third of its time). */
static uint64_t
code_point_set(const uint32_t *c, int n)
{
	uint64_t set = 0;

	for (int i = 0; i < n; i++)
		set |= (uint64_t)1 << (c[i] & 63);
	return set;
}

/* Whether the stem of code point set setv is surely over vs's distances:
 * from the stem (vs->smax) and from any start of the typed word (vs->max;
 * a start holds no code point the word does not). */
static int
surely_far(const struct vocab_scan *vs, uint64_t setv)
{
	if (__builtin_popcountll(setv & ~vs->setw) <= vs->max)
		return 0;
	return __builtin_popcountll(setv & ~vs->setq) > vs->smax ||
	    __builtin_popcountll(vs->setq & ~setv) > vs->smax;
}

static void
scan_vocab(void *arg)
{
	struct vocab_scan *vs = arg;
	uint32_t cv[EV_EDITDIST_MAX_CP];

	vs->got = 0;
	for (int i = vs->lo; i < vs->hi; i++) {
		const struct vterm *v = &vs->ts->vocab[i];
		int m, d = vs->max + 1, ds = vs->smax + 1, j;

		if (!(vs->mask & (1u << v->ns)))
			continue;	/* a stem of a language the word is not searched in */
		if (v->cplen - vs->n > vs->max || vs->n - v->cplen > vs->max + EV_EDITDIST_MAX_ENDING)
			continue;
		if ((m = ev_editdist_decode(v->s, v->len, cv, EV_EDITDIST_MAX_CP)) < 0 ||
		    surely_far(vs, code_point_set(cv, m)))
			continue;
		/* a short stem is reached by few edits too: "are" is not
		 * "Prieve" */
		int cmax = ev_texttypo_allowed_distance(vs->ts, m);
		int wmax = vs->max < cmax ? vs->max : cmax, smax = vs->smax < cmax ? vs->smax : cmax;

		if (smax > 0)
			ds = ev_editdist_osa(vs->cq, vs->ns, cv, m, smax);
		if (wmax > 0)
			d = ev_editdist_stem_ending(cv, m, vs->cw, vs->n, vs->tail, wmax);
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

/* Candidates of a typo weighed by their fit with the query's other words. */
#define FIT_CANDIDATES 8	/* the closest stems looked at */
#define FIT_NEIGHBOURS 4	/* the query's words nearest the typo asked about */

/* together() counts this many chunks at most. */
#define TOGETHER_MAX 10000

long long
ev_texttypo_together(struct ev_textsearch *ts, const char *a, const char *b, struct ev_err *err)
{
	struct ev_buf m = EV_BUF_INIT;
	sqlite3_stmt *s;
	long long n = -1;
	int r;

	/* from the postings file, each word as FTS5 tokenises it in the
	 * MATCH below (a word of several positions is a phrase: FTS5's) */
	if ((r = by_postings(ts, err)) == 1)
		r = ev_textpass_word_phrases(ts, a, b, err);
	if (r == -1)
		return -1;
	if (r == 1)
		return ev_bm25_sweep_count_both(ts->sweep, &ts->ph[0], &ts->ph[1], TOGETHER_MAX, err);
	if (ev_buf_addc(&m, '"') == -1 || ev_textquery_add_fts_chars(&m, a) == -1 ||
	    ev_buf_adds(&m, "\" AND \"") == -1 || ev_textquery_add_fts_chars(&m, b) == -1 ||
	    ev_buf_addc(&m, '"') == -1) {
		ev_buf_release(&m);
		return ev_err_nomem(err);
	}
	if ((s = ev_store_prepare(ts->st, "SELECT count(*) FROM (SELECT 1 FROM chunks_fts"
	    " WHERE chunks_fts MATCH ?1 LIMIT ?2)", err)) == NULL) {
		ev_buf_release(&m);
		return -1;
	}
	sqlite3_bind_text(s, 1, ev_buf_str(&m), -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, TOGETHER_MAX);
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
	uint32_t cc[EV_EDITDIST_MAX_CP];
	int m = ev_editdist_decode(cand, (int)strlen(cand), cc, EV_EDITDIST_MAX_CP), far = vs->max + EV_EDITDIST_MAX_ENDING;

	*f = (struct fit){ 0, 0, far + 1 };
	if (m >= 0) {
		ev_editdist_lower(cc, m);
		f->near = ev_editdist_osa(vs->cw, vs->n, cc, m, far);
	}
	for (int d = 1, asked = 0; asked < FIT_NEIGHBOURS && d < ts->nwords; d++)
		for (int side = -1; side <= 1 && asked < FIT_NEIGHBOURS; side += 2) {
			int o = wi + side * d;
			long long n;

			if (o < 0 || o >= ts->nwords)
				continue;
			asked++;
			if ((n = ev_texttypo_together(ts, cand, ts->words[o].surface, err)) == -1)
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
		if (ev_texttypo_surface_of(ts, ts->vocab[vs->best[c]].term, &words[c], err) == -1)
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

/* Whether w was expanded to the stem s already. */
static int
is_expansion(const struct word *w, const char *s)
{
	for (int i = 0; i < w->nexp; i++)
		if (strcmp(w->exp[i], s) == 0)
			return 1;
	return 0;
}

/* Expand word wi to the closest stems of the vocabulary, by the word as
 * typed and by its stem (textsearch.h "Typo tolerance"), among the stems of
 * the languages it is searched in. */
int
ev_texttypo_expand(struct ev_textsearch *ts, int wi, struct ev_err *err)
{
	struct word *w = &ts->words[wi];
	uint32_t cq[EV_EDITDIST_MAX_CP], cw[EV_EDITDIST_MAX_CP];
	int tail[EV_EDITDIST_MAX_CP + 1], *best = NULL, got, tie, r = -1;
	char **words = NULL;
	struct vocab_scan vs = { ts, cq, cw, 0, 0, tail, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0 };
	struct namespaces nss = { ts, 0 };

	vs.n = ev_editdist_decode(w->surface, (int)strlen(w->surface), cw, EV_EDITDIST_MAX_CP);
	vs.ns = ev_editdist_decode(w->stem, (int)strlen(w->stem), cq, EV_EDITDIST_MAX_CP);
	if (vs.n < 0 || vs.ns < 0 || (vs.max = ev_texttypo_allowed_distance(ts, vs.n)) == 0 ||
	    ts->o.fuzzy_expansions < 1)
		return 0;
	vs.smax = ev_texttypo_allowed_distance(ts, vs.ns) < vs.max ? ev_texttypo_allowed_distance(ts, vs.ns) : vs.max;
	vs.want = ts->o.fuzzy_expansions > FIT_CANDIDATES ? ts->o.fuzzy_expansions : FIT_CANDIDATES;
	if (!(ts->vocab_loaded & VOCAB_STEMS) && load_vocab(ts, VOCAB_STEMS, err) == -1)
		return -1;
	/* the stems of the languages the word is searched in (analyze.h: a
	 * word reaches another language's chunks only as itself, or English's
	 * as its English stem, which is no repair in its own language) */
	if (ev_tok_run_query_own(ts->tok, w->surface, strlen(w->surface), on_query_namespace, &nss,
	    err) == -1)
		return -1;
	vs.mask = nss.mask == 1u << VNS_WORD ? nss.mask : nss.mask & ~(1u << VNS_WORD);
	if ((vs.mask & 1u << VNS_WORD) && !(ts->vocab_loaded & VOCAB_WORDS) && load_vocab(ts, VOCAB_WORDS, err) == -1)
		return -1;
	vs.hi = ts->nvocab;
	ev_editdist_lower(cw, vs.n);
	ev_editdist_ending_costs(cw, vs.n, vs.max, tail);
	vs.setq = code_point_set(cq, vs.ns);
	vs.setw = code_point_set(cw, vs.n);
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
		if (j >= tie && ev_texttypo_surface_of(ts, ts->vocab[best[j]].term, &words[j], err) == -1)
			goto out;
		if (words[j] == NULL || is_expansion(w, ts->vocab[best[j]].s))
			continue;	/* (one stem of two languages: once) */
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
