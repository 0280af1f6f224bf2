/* token.c: the one tokeniser, FTS5's own through fts5_api.  See token.h. */
#include "token.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "store.h"

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
	"your", "yours", "yourself", "yourselves", NULL
};

#define STOP_SLOTS 512		/* a power of two, over twice the list */
#define STOP_MAX_LEN 24

struct ev_tok {
	sqlite3 *own_db;	/* the private connection, when we opened one */
	fts5_tokenizer api;
	Fts5Tokenizer *tok;
	char stops[STOP_SLOTS][STOP_MAX_LEN];
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
	fts5_api *api = NULL;
	sqlite3_stmt *s = NULL;

	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_pointer(s, 1, (void *)&api, "fts5_api_ptr", NULL);
		sqlite3_step(s);
	}
	sqlite3_finalize(s);
	return api;
}

struct ev_tok *
ev_tok_open(sqlite3 *db, struct ev_err *err)
{
	static const char *args[] = { "unicode61", "remove_diacritics", "2" };
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
	if ((api = ev_tok_fts5_api(db)) == NULL || api->iVersion < 2) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "this SQLite has no FTS5; install libsqlite3 with FTS5");
		goto fail;
	}
	if (api->xFindTokenizer(api, "porter", &udata, &tok->api) != SQLITE_OK ||
	    tok->api.xCreate(udata, args, 3, &tok->tok) != SQLITE_OK) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create FTS5's porter tokeniser");
		goto fail;
	}
	for (i = 0; stop_words[i] != NULL; i++)
		if (ev_tok_run(tok, stop_words[i], strlen(stop_words[i]), add_stop, tok, err) == -1)
			goto fail;
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
	free(tok);
}

struct run_ctx {
	ev_tok_fn fn;
	void *ctx;
	int stopped;
};

static int
on_token(void *pctx, int tflags, const char *term, int len, int start, int end)
{
	struct run_ctx *rc = pctx;

	(void)tflags;
	if (rc->fn(rc->ctx, term, len, start, end) != 0) {
		rc->stopped = 1;
		return SQLITE_DONE;	/* any non-OK code ends xTokenize */
	}
	return SQLITE_OK;
}

int
ev_tok_run(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
    struct ev_err *err)
{
	struct run_ctx rc = { fn, ctx, 0 };
	int r;

	if (len > 0x7fffffff)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "text too long to tokenise (over 2 GiB)");
	r = tok->api.xTokenize(tok->tok, &rc, FTS5_TOKENIZE_DOCUMENT, text, (int)len, on_token);
	if (r != SQLITE_OK && !rc.stopped)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "tokeniser failed (SQLite code %d)", r);
	return 0;
}
