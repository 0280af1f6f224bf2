/* token.h: the one tokeniser of every lane.
 *
 * Middle layer: includes err.h and SQLite.  The tokens are those of the
 * store's FTS5 tokeniser ("evkit", analyze.h), obtained through fts5_api,
 * so the text lane, the embedder and the citation scorer see exactly the
 * words the FTS5 index sees: Chinese and Japanese words and bigrams, other
 * words lowercased, diacritics folded, stemmed for the text's language
 * (English: Porter).  A text's language is the one set with
 * ev_tok_set_lang() (English unless set).  Stop words (a fixed English
 * list, and Chinese and Japanese function words, see token.c) are known by
 * their English stems. */
#ifndef EV_TOKEN_H
#define EV_TOKEN_H

#include <stddef.h>
#include <sqlite3.h>

#include "err.h"

struct ev_tok;

/* Called once per token: term/len is the stemmed term (not NUL-terminated,
 * valid only during the call), start/end its byte offsets in the text.
 * Return 0 to go on, non-zero to stop (ev_tok_run() then returns 0). */
typedef int (*ev_tok_fn)(void *ctx, const char *term, int len, int start, int end);

/* Open a tokeniser on db (the store's connection, or NULL: a private
 * in-memory connection is opened).  Returns NULL with *err set. */
struct ev_tok *ev_tok_open(sqlite3 *db, struct ev_err *err);

/* The language of the texts ev_tok_run() tokenises from now on: code (a
 * language code), or NULL (or not a code) for English. */
void ev_tok_set_lang(struct ev_tok *tok, const char *code);

/* The languages ev_tok_run_query() (and FTS5's MATCH on the same
 * connection) stem a query's words for: codes[0..n), or n == 0 for English
 * (analyze.h, ev_analyze_set_query_langs()). */
void ev_tok_set_query_langs(struct ev_tok *tok, const char *const *codes, int n);

/* The language the next queries are written in: code, or NULL when it is
 * not known (analyze.h, ev_analyze_set_query_lang()): a query word reaches
 * chunks of another language only as the word itself. */
void ev_tok_set_query_lang(struct ev_tok *tok, const char *code);

/* Set the query languages, and the store's (analyze.h), to those of the
 * chunks of the store on db (the most frequent first, at most
 * EV_ANALYZE_MAX_QUERY_LANGS; English when it has none).  Returns their
 * number, or -1 with *err set (code 1). */
int ev_tok_store_langs(struct ev_tok *tok, sqlite3 *db, struct ev_err *err);
/* Set the query languages as ev_tok_store_langs() does, from the store's
 * chunk languages langs[0..nlangs) read before (EV_STORE_LANGS_SQL of
 * store.h, in its order).  Returns their number. */
int ev_tok_set_store_langs(struct ev_tok *tok, const char *const *langs, int nlangs);

/* Keep the tokens of the texts ev_tok_run() tokenises (at most about
 * max_bytes of texts and tokens; tokmemo.h) and replay them when the same
 * text comes again in the same language: for a process that tokenises the
 * same texts many times.  The tokens are the same either way; without
 * memory, nothing is kept. */
void ev_tok_memo(struct ev_tok *tok, size_t max_bytes);

/* Free the tokeniser (NULL-safe). */
void ev_tok_close(struct ev_tok *tok);

/* Tokenise text[0..len).  Returns 0, or -1 with *err set. */
int ev_tok_run(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
	struct ev_err *err);

/* Tokenise text[0..len) as a query, into the terms FTS5's MATCH searches
 * the index for (analyze.h): a word of a spaced script gives its stems and
 * maybe itself, the alternatives with the same offsets one after the
 * other; a Chinese or Japanese run gives its words alone (no bigrams), or
 * itself when it is one word or two characters.  Returns 0, or -1 with
 * *err set. */
int ev_tok_run_query(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
	struct ev_err *err);

/* As ev_tok_run_query(), but a word is searched in the query's own
 * languages alone: no English stem for the English chunks of a query of
 * another language (EV_ANALYZE_OWN).  Returns 0, or -1 with *err set. */
int ev_tok_run_query_own(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn,
	void *ctx, struct ev_err *err);

/* As ev_tok_run_query(), but a word of a spaced script gives its untagged
 * stem in each query language, as ev_tok_run() gives a chunk's words in
 * its language (for matching the two).  Returns 0, or -1 with *err set. */
int ev_tok_run_query_stems(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn,
	void *ctx, struct ev_err *err);

/* Tokenise a query's text into the terms it searches for: as ev_tok_run(),
 * without the one-character Chinese and Japanese words of longer runs,
 * whose bigrams stand for them (EV_ANALYZE_TERMS).  Returns 0, or -1 with
 * *err set. */
int ev_tok_run_terms(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
	struct ev_err *err);

/* The fts5_api of the connection db (by the documented "SELECT fts5(?1)"
 * handshake), or NULL when this SQLite has no FTS5. */
fts5_api *ev_tok_fts5_api(sqlite3 *db);

/* Whether the stemmed term is a stop word. */
int ev_tok_is_stop(const struct ev_tok *tok, const char *term, int len);

#endif
