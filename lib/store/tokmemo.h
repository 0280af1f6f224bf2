/* tokmemo.h: the tokens of texts met before, kept to be replayed.
 *
 * A process that tokenises the same texts again and again (the vector
 * lane's snippets: a batch of queries hits the same chunks) keeps each
 * text's tokens, keyed by the text's bytes and a tag (the language it was
 * tokenised for), and hands them out again instead of tokenising.  The
 * tokens replayed are those recorded, in their order, with the same terms
 * and offsets.  The memory is bounded: when the kept texts and tokens would
 * pass the bound, everything kept is dropped and keeping starts again.  A
 * failed allocation only means that a text is not kept. */
#ifndef EV_TOKMEMO_H
#define EV_TOKMEMO_H

#include <stddef.h>

struct ev_tokmemo;

/* Called for each token replayed, as a tokeniser calls back: term/len (not
 * NUL-terminated, valid during the call), byte offsets start/end.  Return
 * non-zero to stop. */
typedef int (*ev_tokmemo_fn)(void *ctx, const char *term, int len, int start, int end);

/* A memo that keeps at most about max_bytes of texts and tokens; NULL when
 * out of memory. */
struct ev_tokmemo *ev_tokmemo_new(size_t max_bytes);

/* Free the memo (NULL-safe). */
void ev_tokmemo_free(struct ev_tokmemo *m);

/* Replay the tokens kept for text[0..len) under tag (a NUL-terminated
 * string) through fn.  Returns 1 when they were kept (whether or not fn
 * stopped), 0 when they were not (nothing called). */
int ev_tokmemo_replay(struct ev_tokmemo *m, const char *tag, const char *text, size_t len,
	ev_tokmemo_fn fn, void *ctx);

/* Recording: ev_tokmemo_begin(), then ev_tokmemo_add() for each token of
 * the text in order, then ev_tokmemo_keep() to keep them for text[0..len)
 * under tag, or ev_tokmemo_begin() again to drop them.  Neither reports a
 * failure: a text that cannot be kept is not. */
void ev_tokmemo_begin(struct ev_tokmemo *m);
void ev_tokmemo_add(struct ev_tokmemo *m, const char *term, int len, int start, int end);
void ev_tokmemo_keep(struct ev_tokmemo *m, const char *tag, const char *text, size_t len);

#endif
