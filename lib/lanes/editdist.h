/* editdist.h: edit distances between words (optimal string alignment over
 * Unicode code points), as the text lane's typo repair measures them
 * (ev-search-text(1) "Typo repair").
 *
 * Low layer: includes stdint.h only (its code, utf8.h).  Knows nothing of
 * the index. */
#ifndef EV_EDITDIST_H
#define EV_EDITDIST_H

#include <stdint.h>

#define EV_EDITDIST_MAX_CP 128		/* the longest word (code points) compared */
#define EV_EDITDIST_MAX_ENDING 7	/* the longest English ending (below) */

/* The edit distance between a[0..alen) and b[0..blen) (UTF-8), or max + 1
 * when it is over max. */
int ev_editdist(const char *a, int alen, const char *b, int blen, int max);

/* The edit distance from word[0..wlen) as typed (lowercased) to stem[0..slen)
 * followed by the cheapest English ending the stemmer takes off (or none),
 * as typo repair compares them (ev-search-text(1)), or max + 1 when it is
 * over max. */
int ev_editdist_word(const char *word, int wlen, const char *stem, int slen, int max);

/* The same over code points, for a caller that compares one word with
 * many. */

/* UTF-8 s[0..len) into code points out[] as ev_utf8_decode() reads them (an
 * invalid byte counts as one, EV_UTF8_BAD()).  Returns the count, or -1 when
 * over max. */
int ev_editdist_decode(const char *s, int len, uint32_t *out, int max);

/* The distance between a[0..n) and b[0..m), both at most
 * EV_EDITDIST_MAX_CP, or max + 1 when over max. */
int ev_editdist_osa(const uint32_t *a, int n, const uint32_t *b, int m, int max);

/* The fewest edits turning the tail of the typed word w[k..n) into nothing
 * or into one of the English endings, for each k in 0..n, into tail[0..n]
 * (max + 1 when over max). */
void ev_editdist_ending_costs(const uint32_t *w, int n, int max, int *tail);

/* The edits from the typed word w[0..n) to stem v[0..m) followed by the
 * cheapest ending (tail[] of ev_editdist_ending_costs()); max + 1 when over
 * max. */
int ev_editdist_stem_ending(const uint32_t *v, int m, const uint32_t *w, int n, const int *tail,
	int max);

/* A word's code points c[0..n) lowercased (ASCII and Latin-1 letters), as
 * the index's stems are. */
void ev_editdist_lower(uint32_t *c, int n);

/* The number of code points in UTF-8 s[0..len), as ev_editdist_decode()
 * counts them. */
int ev_editdist_cplen(const char *s, int len);

#endif
