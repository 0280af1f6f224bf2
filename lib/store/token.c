/* token.c: the one tokeniser, "evkit" through fts5_api.  See token.h. */
#include "token.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "buf.h"
#include "store.h"
#include "tokmemo.h"

/* English function words: articles, pronouns, auxiliaries, prepositions,
 * conjunctions and question words.  They are stemmed with the tokeniser when
 * it opens, so that lookups compare stems with stems.  Content words ("flow",
 * "high", "use") are deliberately absent. */
static const char *const stop_words[] = {
	"a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and",
	"any", "are", "as", "at", "be", "because", "been", "before", "being", "below",
	"between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down",
	"during", "each", "either", "etc", "few", "for", "from", "further", "had", "has",
	"have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his",
	"how", "however", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "may",
	"me", "might", "more", "most", "must", "my", "myself", "no", "nor", "not", "of", "off",
	"on", "once", "only", "or", "other", "ought", "our", "ours", "ourselves", "out", "over",
	"own", "same", "shall", "she", "should", "so", "some", "such", "than", "that", "the",
	"their", "theirs", "them", "themselves", "then", "there", "these", "they", "this",
	"those", "through", "thus", "to", "too", "under", "until", "up", "upon", "us", "very",
	"was", "we", "were", "what", "when", "where", "whether", "which", "while", "who",
	"whom", "whose", "why", "will", "with", "within", "without", "would", "yet", "you",
	"your", "yours", "yourself", "yourselves",
	NULL
};

/* Chinese and Japanese function words (particles, copulas, the most frequent
 * grammatical characters) as the terms the tokeniser makes of them: "である"
 * gives で, であ and ある, "して" gives し, して and て, every other one itself
 * (tests/test_token.c checks it).  They are added as they are, not
 * segmented, so that a process that meets no Chinese or Japanese text never
 * loads ICU's dictionaries: ICU 72 crashes or loops when an allocation fails
 * while it loads them. */
static const char *const cjk_stop_terms[] = {
	"的", "了", "是", "在", "和", "与", "或", "及", "也", "都", "就", "而", "之", "其",
	"这", "那", "个", "着", "把", "被", "对", "从", "为", "以", "于",
	"の", "は", "が", "を", "に", "で", "と", "も", "へ", "や", "か", "な", "ね", "よ",
	"から", "まで", "より", "です", "ます", "であ", "する", "した", "し", "して", "て",
	"いる", "ある", "こと", "これ", "それ", "この", "その", NULL
};

#define STOP_SLOTS 512		/* a power of two, over twice the list */
#define STOP_MAX_LEN 24

struct ev_tok {
	sqlite3 *own_db;	/* the private connection, when we opened one */
	struct ev_analyzer *an;	/* the connection's */
	char lang[EV_ANALYZE_CODE_MAX];	/* the texts' language */
	fts5_tokenizer api;
	Fts5Tokenizer *tok;
	char stops[STOP_SLOTS][STOP_MAX_LEN];
	struct ev_tokmemo *memo;	/* ev_tok_run()'s texts met before, or NULL */
};

int
ev_tok_is_stop(const struct ev_tok *tok, const char *term, int len)
{
	uint32_t i;

	if (len <= 0 || len >= STOP_MAX_LEN)
		return 0;
	for (i = ev_hash_fnv1a(term, (size_t)len) & (STOP_SLOTS - 1); tok->stops[i][0] != '\0';
	    i = (i + 1) & (STOP_SLOTS - 1))
		if (strncmp(tok->stops[i], term, (size_t)len) == 0 && tok->stops[i][len] == '\0')
			return 1;
	return 0;
}

static int
add_stop(void *ctx, const char *term, int len, int start, int end)
{
	struct ev_tok *tok = ctx;
	uint32_t i;

	(void)start, (void)end;
	if (len >= STOP_MAX_LEN || ev_tok_is_stop(tok, term, len))
		return 0;
	for (i = ev_hash_fnv1a(term, (size_t)len) & (STOP_SLOTS - 1); tok->stops[i][0] != '\0';
	    i = (i + 1) & (STOP_SLOTS - 1))
		;
	memcpy(tok->stops[i], term, (size_t)len);
	tok->stops[i][len] = '\0';
	return 0;
}

fts5_api *
ev_tok_fts5_api(sqlite3 *db)
{
	return ev_analyze_fts5_api(db);
}

void
ev_tok_set_lang(struct ev_tok *tok, const char *code)
{
	if (code == NULL || ev_analyze_norm(code, strlen(code), tok->lang) == -1)
		strcpy(tok->lang, "en");
}

void
ev_tok_set_query_langs(struct ev_tok *tok, const char *const *codes, int n)
{
	ev_analyze_set_query_langs(tok->an, codes, n);
}

void
ev_tok_set_query_lang(struct ev_tok *tok, const char *code)
{
	ev_analyze_set_query_lang(tok->an, code);
}

/* The query and store languages: codes[0..n) (analyze.h). */
static void
set_store_langs(struct ev_tok *tok, const char *const *codes, int n)
{
	ev_analyze_set_query_langs(tok->an, codes, n);
	ev_analyze_set_store_langs(tok->an, codes, n);
}

/* Keep the language code c (when it is one) as the next of codes[0..*n),
 * normalised into held[*n], unless there are enough already. */
static void
keep_lang(const char *c, const char **codes, char held[][EV_ANALYZE_CODE_MAX], int *n)
{
	if (c != NULL && *n < EV_ANALYZE_MAX_QUERY_LANGS &&
	    ev_analyze_norm(c, strlen(c), held[*n]) == 0) {
		codes[*n] = held[*n];
		(*n)++;
	}
}

int
ev_tok_set_store_langs(struct ev_tok *tok, const char *const *langs, int nlangs)
{
	const char *codes[EV_ANALYZE_MAX_QUERY_LANGS];
	char held[EV_ANALYZE_MAX_QUERY_LANGS][EV_ANALYZE_CODE_MAX];
	int n = 0;

	for (int i = 0; i < nlangs; i++)
		keep_lang(langs[i], codes, held, &n);
	set_store_langs(tok, codes, n);
	return n;
}

int
ev_tok_store_langs(struct ev_tok *tok, sqlite3 *db, struct ev_err *err)
{
	const char *codes[EV_ANALYZE_MAX_QUERY_LANGS];
	char held[EV_ANALYZE_MAX_QUERY_LANGS][EV_ANALYZE_CODE_MAX];
	sqlite3_stmt *s = NULL;
	int n = 0, r;

	/* the most frequent first: they win when there are too many */
	if (sqlite3_prepare_v2(db, EV_STORE_LANGS_SQL, -1, &s, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the store's languages: %s",
		    sqlite3_errmsg(db));
	}
	while ((r = sqlite3_step(s)) == SQLITE_ROW && n < EV_ANALYZE_MAX_QUERY_LANGS)
		keep_lang((const char *)sqlite3_column_text(s, 0), codes, held, &n);
	if (r != SQLITE_ROW && r != SQLITE_DONE) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading the store's languages: %s",
		    sqlite3_errmsg(db));
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	set_store_langs(tok, codes, n);
	return n;
}

struct ev_tok *
ev_tok_open(sqlite3 *db, struct ev_err *err)
{
	struct ev_tok *tok;
	fts5_api *api;
	void *udata = NULL;
	int i;

	if ((tok = calloc(1, sizeof *tok)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	if (db == NULL) {
		if (sqlite3_open_v2(":memory:", &tok->own_db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open SQLite for the tokeniser");
			goto fail;
		}
		db = tok->own_db;
	}
	if ((tok->an = ev_analyze_find(db)) == NULL && (tok->an = ev_analyze_register(db, err)) == NULL)
		goto fail;
	/* NULL: no FTS5, or no memory to ask for it (the store has FTS5) */
	if ((api = ev_analyze_fts5_api(db)) == NULL ||
	    api->xFindTokenizer(api, EV_ANALYZE_TOKENIZER, &udata, &tok->api) != SQLITE_OK ||
	    tok->api.xCreate(udata, NULL, 0, &tok->tok) != SQLITE_OK) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create the evkit tokeniser");
		goto fail;
	}
	ev_tok_set_lang(tok, NULL);	/* English: the stop list is English's (and CJK's) */
	for (i = 0; stop_words[i] != NULL; i++)
		if (ev_tok_run(tok, stop_words[i], strlen(stop_words[i]), add_stop, tok, err) == -1)
			goto fail;
	for (i = 0; cjk_stop_terms[i] != NULL; i++)
		add_stop(tok, cjk_stop_terms[i], (int)strlen(cjk_stop_terms[i]), 0, 0);
	return tok;
fail:
	ev_tok_close(tok);
	return NULL;
}

void
ev_tok_close(struct ev_tok *tok)
{
	if (tok == NULL)
		return;
	if (tok->tok != NULL)
		tok->api.xDelete(tok->tok);
	sqlite3_close(tok->own_db);
	ev_tokmemo_free(tok->memo);
	free(tok);
}

void
ev_tok_memo(struct ev_tok *tok, size_t max_bytes)
{
	if (tok->memo == NULL)
		tok->memo = ev_tokmemo_new(max_bytes);
}

struct run_ctx {
	ev_tok_fn fn;
	void *ctx;
	int stopped;
	struct ev_tokmemo *memo;	/* recording the tokens, or NULL */
};

static int
on_token(void *pctx, int tflags, const char *term, int len, int start, int end)
{
	struct run_ctx *rc = pctx;

	(void)tflags;
	ev_tokmemo_add(rc->memo, term, len, start, end);
	if (rc->fn(rc->ctx, term, len, start, end) != 0) {
		rc->stopped = 1;
		return SQLITE_DONE;	/* any non-OK code ends xTokenize */
	}
	return SQLITE_OK;
}

static int
run(struct ev_tok *tok, int flags, const char *text, size_t len, ev_tok_fn fn, void *ctx,
    struct ev_err *err)
{
	struct run_ctx rc = { fn, ctx, 0, NULL };
	int r;

	if (len > 0x7fffffff)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "text too long to tokenise (over 2 GiB)");
	if (flags == (FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_PLAIN) && tok->memo != NULL) {
		if (ev_tokmemo_replay(tok->memo, tok->lang, text, len, fn, ctx))
			return 0;
		ev_tokmemo_begin(tok->memo);
		rc.memo = tok->memo;
	}
	ev_analyze_set_lang(tok->an, tok->lang);
	r = tok->api.xTokenize(tok->tok, &rc, flags, text, (int)len, on_token);
	if (r != SQLITE_OK && !rc.stopped)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "tokeniser failed (SQLite code %d)", r);
	if (rc.memo != NULL && r == SQLITE_OK)
		ev_tokmemo_keep(rc.memo, tok->lang, text, len);
	return 0;
}

int
ev_tok_run(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
    struct ev_err *err)
{
	return run(tok, FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_PLAIN, text, len, fn, ctx, err);
}

int
ev_tok_run_query(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
    struct ev_err *err)
{
	return run(tok, FTS5_TOKENIZE_QUERY, text, len, fn, ctx, err);
}

int
ev_tok_run_query_own(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
    struct ev_err *err)
{
	return run(tok, FTS5_TOKENIZE_QUERY | EV_ANALYZE_OWN, text, len, fn, ctx, err);
}

int
ev_tok_run_query_stems(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
    struct ev_err *err)
{
	return run(tok, FTS5_TOKENIZE_QUERY | EV_ANALYZE_PLAIN, text, len, fn, ctx, err);
}

int
ev_tok_run_terms(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
    struct ev_err *err)
{
	return run(tok, FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_TERMS | EV_ANALYZE_PLAIN, text, len, fn,
	    ctx, err);
}
