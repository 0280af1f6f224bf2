/* token.h: the one tokeniser of every lane.
 *
 * Middle layer: includes err.h and SQLite.  The tokens are FTS5's own
 * ("porter unicode61 remove_diacritics 2", EV_STORE_TOKENIZE), obtained
 * through fts5_api, so the text lane, the embedder and the citation scorer
 * see exactly the words the FTS5 index sees: lowercased, diacritics folded,
 * Porter-stemmed.  Stop words (a fixed English list, see token.c) are known
 * by their stems. */
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

/* Free the tokeniser (NULL-safe). */
void ev_tok_close(struct ev_tok *tok);

/* Tokenise text[0..len).  Returns 0, or -1 with *err set. */
int ev_tok_run(struct ev_tok *tok, const char *text, size_t len, ev_tok_fn fn, void *ctx,
	struct ev_err *err);

/* The fts5_api of the connection db (by the documented "SELECT fts5(?1)"
 * handshake), or NULL when this SQLite has no FTS5. */
fts5_api *ev_tok_fts5_api(sqlite3 *db);

/* Whether the stemmed term is a stop word. */
int ev_tok_is_stop(const struct ev_tok *tok, const char *term, int len);

#endif
