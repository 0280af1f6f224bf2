/* snippet.h: the best passage of a text for a set of query terms, with the
 * terms marked ("the «wing» in a «slipstream»").
 *
 * Middle layer: includes err.h, buf.h and token.h.  Knows nothing of the
 * store or the lanes; the text lane and the vector lane both call it.
 *
 * Terms are compared as the tokeniser's stems, so "wings" in a query marks
 * "Wing" in a text.  A term belongs to a group (the query word it stands for:
 * a fuzzy expansion joins the group of the word it expands), and the passage
 * chosen is the window of opts.tokens tokens holding the most distinct groups,
 * then the most marked tokens, then the earliest; the marked span is centred
 * in it.  Whitespace runs in the passage become single spaces; "…" stands for
 * text left out before or after.  Offsets come from the tokeniser, so the
 * snippet is always cut at character boundaries. */
#ifndef EV_SNIPPET_H
#define EV_SNIPPET_H

#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "lexicon.h"
#include "token.h"

struct ev_snippet_opts {
	const char *open;	/* the mark before a term, "«" */
	const char *close;	/* the mark after it, "»" */
	int tokens;		/* the passage's length in tokens, at least 1 */
};

#define EV_SNIPPET_OPTS_INIT { .open = "\xc2\xab", .close = "\xc2\xbb", .tokens = 32 }

struct ev_snippet;

/* A snippet maker using tok (borrowed: it must outlive the maker) and a copy
 * of *opts (the mark strings are borrowed too).  It starts with no terms.
 * Returns NULL with *err set when out of memory. */
struct ev_snippet *ev_snippet_new(struct ev_tok *tok, const struct ev_snippet_opts *opts,
	struct ev_err *err);

/* Forget every term, keeping the memory (for the next query). */
void ev_snippet_reset(struct ev_snippet *sn);

/* Add the stem term[0..len) to mark, in group (0 or more; groups need not be
 * dense).  Returns the term's index (0, 1, ... in order of addition; a stem
 * added before keeps its index and its first group), or -1 with *err set:
 * out of memory, or an empty term or a negative group (code 2). */
int ev_snippet_add_term(struct ev_snippet *sn, const char *term, int len, int group,
	struct ev_err *err);

/* Add the stem term[0..len) to watch for: ev_snippet_term_found() counts it,
 * but it is never marked, belongs to no group and does not choose the
 * passage.  Returns its index (as ev_snippet_add_term(); a stem added before
 * keeps its index and its role), or -1 with *err set: out of memory, or an
 * empty term (code 2). */
int ev_snippet_add_watch(struct ev_snippet *sn, const char *term, int len, struct ev_err *err);

/* Add the words of a query text that are not stop words (see
 * ev_snippet_is_stop()), each in its own
 * group numbered from the number of groups so far, in order of first
 * appearance (a repeated stem keeps one group).  Returns the number of groups
 * added, or -1 with *err set. */
int ev_snippet_add_query(struct ev_snippet *sn, const char *query, size_t len, struct ev_err *err);

/* The same, leaving out too the function words of language lang (EV_LEX_*,
 * from lex's stop lists; the tokeniser knows English's), so that only the
 * query's content words are marked ("le", "est", "de" of a French query
 * are not), unless the query has no other word.  lang -1: none. */
int ev_snippet_add_query_in(struct ev_snippet *sn, const char *query, size_t len,
	const struct ev_lex *lex, int lang, struct ev_err *err);

/* Whether a query word is a stop word: its stem term[0..len) is a stop
 * word's (ev_tok_is_stop()) and the word itself, word[0..wlen), is not one
 * of the few that only share a stop word's stem ("used" and "us", "one" and
 * "on"). */
int ev_snippet_is_stop(const struct ev_tok *tok, const char *term, int len, const char *word,
	int wlen);

/* The index of the term term[0..len) (as ev_snippet_add_term() returned
 * it), its group in *group (-1 for a watched one), or -1 when it was never
 * added. */
int ev_snippet_term_lookup(const struct ev_snippet *sn, const char *term, int len, int *group);

/* The number of groups known (one past the highest group added). */
int ev_snippet_groups(const struct ev_snippet *sn);

/* Append to out the best passage of text[0..len) with the terms marked.
 * Afterwards ev_snippet_found() tells which groups occurred in the whole
 * text.  A text with none of the terms gives its first opts.tokens tokens.
 * Returns the number of marked tokens in the passage, or -1 with *err set. */
int ev_snippet_make(struct ev_snippet *sn, const char *text, size_t len, struct ev_buf *out,
	struct ev_err *err);

/* Note which groups occur in text[0..len) (adding to what the last
 * ev_snippet_make() found, e.g. for a title), without making a snippet.
 * Returns 0, or -1 with *err set. */
int ev_snippet_scan(struct ev_snippet *sn, const char *text, size_t len, struct ev_err *err);

/* How many times group occurred in the texts since the last
 * ev_snippet_make() (0 for an unknown group).  ev_snippet_term_found() is the
 * same for the i-th term added (0-based, in order of ev_snippet_add_term()). */
int ev_snippet_found(const struct ev_snippet *sn, int group);
int ev_snippet_term_found(const struct ev_snippet *sn, int i);

/* The next marked token of the text of the last ev_snippet_make() (anywhere
 * in the text, not only in the passage): the first one from token *pos on
 * (start *pos at 0).  Returns 1 with its bytes text[*start, *end) and *pos
 * past it, or 0 when there is none left. */
int ev_snippet_next_mark(const struct ev_snippet *sn, int *pos, size_t *start, size_t *end);

/* Free the maker (NULL-safe). */
void ev_snippet_free(struct ev_snippet *sn);

#endif
