/* langid.h: the language of a text, when its document does not say.
 *
 * Middle layer: includes lexicon.h and analyze.h.
 *
 * By script first (analyze.h: Chinese, Japanese, Korean, Russian for
 * Cyrillic, Greek, ...); a text in Latin script by its function words
 * (lexicon.h: the language whose stop list holds the most of the words of
 * two letters or more in its first 4 KB, at least 3 and more than
 * English's; else English). */
#ifndef EV_LANGID_H
#define EV_LANGID_H

#include <stddef.h>

#include "analyze.h"
#include "lexicon.h"

/* The language of text[0..len) into out, a normalised code ("en", "fr",
 * "zh", ...).  lex gives the stop lists. */
void ev_langid(const struct ev_lex *lex, const char *text, size_t len,
	char out[EV_ANALYZE_CODE_MAX]);

/* The language a query's text[0..len) shows: by its script, else the one
 * language whose function words (of two letters or more) it holds the
 * most of, at least one.  Returns 1 with its code in out, or 0 (out "")
 * when the words tell no language (none is a function word, or two
 * languages hold as many). */
int ev_langid_query(const struct ev_lex *lex, const char *text, size_t len,
	char out[EV_ANALYZE_CODE_MAX]);

/* The language a document declares, code (NULL or not a code: none),
 * normalised into out (ev_analyze_norm()); else the language of its text
 * (ev_langid()).  Returns 1 when declared, 0 when found from the text. */
int ev_langid_doc(const struct ev_lex *lex, const char *code, const char *text, size_t len,
	char out[EV_ANALYZE_CODE_MAX]);

#endif
