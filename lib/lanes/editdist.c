/* editdist.c: edit distances between words, over code points.  See editdist.h. */
#include "editdist.h"

#include <string.h>

#include "utf8.h"

/* UTF-8 into code points by ev_utf8_decode()'s rule (an invalid byte counts
 * as one).  Returns the count, or -1 when over max. */
int
ev_editdist_decode(const char *s, int len, uint32_t *out, int max)
{
	const char *end = s + len;
	int n = 0;

	while (s < end) {
		if (n == max)
			return -1;
		if ((unsigned char)*s < 0x80)	/* ASCII, the most, without a call */
			out[n++] = (unsigned char)*s++;
		else
			s += ev_utf8_decode_multi(s, (size_t)(end - s), &out[n++]);
	}
	return n;
}

/* The rows of optimal string alignment of a[0..n) against b[0..m): the last
 * one (the distances from a to each b[0..j), j from 0 to m) into last[0..m],
 * and 0; -1 as soon as a row's least value passes max. */
static int
osa_last_row(const uint32_t *a, int n, const uint32_t *b, int m, int max, int *last)
{
	int rows[3][EV_EDITDIST_MAX_CP + 1];
	int *pp, *p, *c;

	for (int j = 0; j <= m; j++)
		rows[1][j] = j;
	pp = rows[0], p = rows[1], c = rows[2];
	for (int i = 1; i <= n; i++) {
		int lo;

		c[0] = lo = i;
		for (int j = 1; j <= m; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = p[j - 1] + cost;

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
			if (v < lo)
				lo = v;
		}
		if (lo > max)
			return -1;
		int *t = pp;
		pp = p, p = c, c = t;
	}
	memcpy(last, p, (size_t)(m + 1) * sizeof *last);
	return 0;
}

int
ev_editdist_osa(const uint32_t *a, int n, const uint32_t *b, int m, int max)
{
	int last[EV_EDITDIST_MAX_CP + 1];

	if (n - m > max || m - n > max || osa_last_row(a, n, b, m, max, last) == -1)
		return max + 1;
	return last[m] > max ? max + 1 : last[m];
}

int
ev_editdist(const char *a, int alen, const char *b, int blen, int max)
{
	uint32_t ca[EV_EDITDIST_MAX_CP], cb[EV_EDITDIST_MAX_CP];
	int n = ev_editdist_decode(a, alen, ca, EV_EDITDIST_MAX_CP), m = ev_editdist_decode(b, blen, cb, EV_EDITDIST_MAX_CP);

	if (n < 0 || m < 0)
		return max + 1;
	return ev_editdist_osa(ca, n, cb, m, max);
}

/* Endings the English stemmer takes off a word, so that a typed word is
 * compared with a stem followed by one of them ("replcaton" with "replic" +
 * "ation": 2 edits).  Lowercase ASCII. */
static const char *const endings[] = {
	"e", "s", "es", "ed", "ing", "ings", "er", "ers", "ly", "y", "ies", "ied",
	"ion", "ions", "ation", "ations", "ational", "ator", "ators", "ate", "ated",
	"ates", "ating", "ive", "ives", "ively", "ivity", "al", "als", "ally", "ality",
	"ize", "ized", "izes", "izing", "ization", "ise", "ised", "isation", "able",
	"ability", "ible", "ibility", "ity", "ities", "ness", "ment", "ments", "ent",
	"ence", "ant", "ance", "ism", "isms", "ist", "ists", "ous", "ously", "ful",
	"fulness", "ic", "ical", "ically", "iveness", "ement", "ements", "ency",
};

/* The fewest edits turning the tail of the typed word w[k..n) into nothing
 * or into one of the endings, for each k in 0..n, into tail[] (max + 1 when
 * over max). */
void
ev_editdist_ending_costs(const uint32_t *w, int n, int max, int *tail)
{
	for (int k = 0; k <= n; k++) {
		int best = n - k;

		for (size_t e = 0; e < sizeof endings / sizeof endings[0]; e++) {
			uint32_t ce[EV_EDITDIST_MAX_ENDING];
			int m = ev_editdist_decode(endings[e], (int)strlen(endings[e]), ce, EV_EDITDIST_MAX_ENDING);
			int d = ev_editdist_osa(w + k, n - k, ce, m, max);

			if (d < best)
				best = d;
		}
		tail[k] = best > max ? max + 1 : best;
	}
}

/* The edits from the typed word w[0..n) to stem v[0..m) followed by the
 * cheapest ending (tail[] of ev_editdist_ending_costs()): the least, over k, of the
 * distance between v and w[0..k) plus tail[k]; max + 1 when over max. */
int
ev_editdist_stem_ending(const uint32_t *v, int m, const uint32_t *w, int n, const int *tail, int max)
{
	int last[EV_EDITDIST_MAX_CP + 1], best = max + 1;

	if (m - n > max || n - m > max + EV_EDITDIST_MAX_ENDING || osa_last_row(v, m, w, n, max, last) == -1)
		return max + 1;
	for (int j = 0; j <= n; j++)
		if (last[j] + tail[j] < best)
			best = last[j] + tail[j];
	return best;
}

/* A word's code points lowercased (ASCII and Latin-1 letters), as the
 * vocabulary's stems are. */
void
ev_editdist_lower(uint32_t *c, int n)
{
	for (int i = 0; i < n; i++)
		if ((c[i] >= 'A' && c[i] <= 'Z') || (c[i] >= 0xc0 && c[i] <= 0xde && c[i] != 0xd7))
			c[i] += 0x20;
}

int
ev_editdist_word(const char *word, int wlen, const char *stem, int slen, int max)
{
	uint32_t cw[EV_EDITDIST_MAX_CP], cs[EV_EDITDIST_MAX_CP];
	int tail[EV_EDITDIST_MAX_CP + 1];
	int n = ev_editdist_decode(word, wlen, cw, EV_EDITDIST_MAX_CP), m = ev_editdist_decode(stem, slen, cs, EV_EDITDIST_MAX_CP);

	if (n < 0 || m < 0)
		return max + 1;
	ev_editdist_lower(cw, n);
	ev_editdist_ending_costs(cw, n, max, tail);
	return ev_editdist_stem_ending(cs, m, cw, n, tail, max);
}

int
ev_editdist_cplen(const char *s, int len)
{
	return (int)ev_utf8_count(s, (size_t)len);
}
