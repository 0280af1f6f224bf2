/* assemble.h: the text measures of context assembly -- the word overlap of
 * two texts (for near-duplicates and for maximal marginal relevance without
 * vectors), the cosine of two vectors, and whether one text contradicts
 * another (a countervailing piece of evidence).
 *
 * Middle layer (below pack): includes err.h, buf.h and lexicon.h (the English stop
 * list); knows nothing of hits, packs or the store.
 *
 * Countervailing, precisely.  Texts are cut into sentences (at . ! ? ; : and
 * line breaks).  A sentence's words are runs of letters and digits (ASCII
 * folded to lower case, other bytes kept), reduced by a light stemmer (plural
 * -s/-es/-ies, -ed, -ing, a final -e).  Its negation count is the number of
 * negation words it holds (not, no, never, none, nothing, nobody, neither,
 * nor, without, cannot, and any word ending in n't).  Its content words are
 * the others that are not English function words.  A sentence s of text A
 * and a sentence t of text B are about the same subject when they share at
 * least 2 content words, and those are at least half of the content words
 * of the shorter of the two (words of an opposite pair below left out).
 * Such a pair of sentences makes opposite claims when the number of
 * negation words of both plus the number of opposite pairs between them
 * (a word of s and its opposite in t, from a fixed list of 75 pairs
 * such as increase/decrease, allowed/prohibited, safe/unsafe,
 * required/optional) is odd: "not increase" against "decrease" agree.  A
 * text contradicts another when one such pair of sentences does.
 * What it cannot see: contradictions in other words (a paraphrase, an
 * antonym not in the list, "empty" against "full of bees"), different
 * numbers ("every 90 days" against "every 30 days"), claims spread over
 * several sentences, languages other than English; and a negation that does
 * not bear on the shared claim ("not only X but also Y") is taken for one. */
#ifndef EV_ASSEMBLE_H
#define EV_ASSEMBLE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* The distinct words of s (runs of ASCII letters and digits and of bytes
 * >= 0x80, ASCII folded to lower case), hashed and sorted, into *out
 * (malloc'd; the caller frees; NULL for none) and *n.  Returns 0, or -1 when
 * out of memory. */
int ev_words_set(const char *s, uint64_t **out, size_t *n);

/* The Jaccard overlap of two word sets of ev_words_set(): shared words over
 * all words, 0 when either is empty. */
double ev_words_jaccard(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

/* The cosine of two vectors of dim floats (0 when either is all zeros). */
double ev_cosine(const float *a, const float *b, int dim);

/* A contradiction checker: the stop list indexed once. */
struct ev_contra;

/* A new checker.  Returns NULL with *err set (out of memory). */
struct ev_contra *ev_contra_new(struct ev_err *err);

/* Free it (NULL-safe). */
void ev_contra_free(struct ev_contra *c);

/* Why a text contradicts another: the cue and the words that carry it. */
struct ev_contra_why {
	const char *cue;	/* "negation" or "opposite" */
	char words[128];	/* "not" (the negation words of the sentence that has
				 * more), or "increase/decrease" (as written) */
	char subject[256];	/* the shared content words, as written in a, space-separated */
};

/* Does text a contradict text b (see above)?  Returns 1 with *why filled,
 * 0 when not, -1 when out of memory (*err set). */
int ev_contra_check(struct ev_contra *c, const char *a, const char *b, struct ev_contra_why *why,
	struct ev_err *err);

#endif
