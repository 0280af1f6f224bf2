/* langid.c: the language of a text.  See langid.h. */
#include "langid.h"

#include <string.h>

#define LATIN_WINDOW 4096	/* bytes of a Latin text whose words are counted */

/* Bytes of a word: ASCII letters and every byte of a non-ASCII character. */
static int
word_byte(unsigned char c)
{
	return (unsigned)((c | 0x20) - 'a') < 26u || c >= 0x80;
}

/* Count into counts[EV_LEX_NLANG] the words of text[0..n) that are
 * function words of each language. */
static void
count_function_words(const struct ev_lex *lex, const char *text, size_t n, unsigned *counts)
{
	size_t i = 0;

	/* words: runs of ASCII letters and of bytes of non-ASCII characters;
	 * an apostrophe ends one (French l', d', qu' are stop words) */
	while (i < n) {
		size_t s;

		while (i < n && !word_byte((unsigned char)text[i]))
			i++;
		s = i;
		while (i < n && word_byte((unsigned char)text[i]))
			i++;
		/* one letter says little: "a", "e", "y", "t" are function words
		 * of half the languages, and "N", "t" name things in formulas */
		if (i > s + 1) {
			unsigned langs = ev_lex_stop_langs(lex, text + s, i - s);

			for (int l = 0; langs != 0 && l < EV_LEX_NLANG; l++)
				counts[l] += (langs & EV_LEX_BIT(l)) != 0;
		}
	}
}

void
ev_langid(const struct ev_lex *lex, const char *text, size_t len, char out[EV_ANALYZE_CODE_MAX])
{
	const char *script = ev_analyze_script_lang(text, len);
	unsigned counts[EV_LEX_NLANG] = { 0 };

	if (script[0] != '\0') {
		strcpy(out, script);
		return;
	}
	count_function_words(lex, text, len < LATIN_WINDOW ? len : LATIN_WINDOW, counts);
	strcpy(out, ev_lex_code(ev_lex_guess(counts)));
}

int
ev_langid_query(const struct ev_lex *lex, const char *text, size_t len,
    char out[EV_ANALYZE_CODE_MAX])
{
	const char *script = ev_analyze_script_lang(text, len);
	unsigned counts[EV_LEX_NLANG] = { 0 };
	int best = 0, tied = 0;

	out[0] = '\0';
	if (script[0] != '\0') {
		strcpy(out, script);
		return 1;
	}
	count_function_words(lex, text, len < LATIN_WINDOW ? len : LATIN_WINDOW, counts);
	for (int l = 1; l < EV_LEX_NLANG; l++) {
		tied = counts[l] == counts[best] ? 1 : counts[l] > counts[best] ? 0 : tied;
		best = counts[l] > counts[best] ? l : best;
	}
	if (counts[best] == 0 || tied)
		return 0;
	strcpy(out, ev_lex_code(best));
	return 1;
}

int
ev_langid_doc(const struct ev_lex *lex, const char *code, const char *text, size_t len,
    char out[EV_ANALYZE_CODE_MAX])
{
	if (code != NULL && ev_analyze_norm(code, strlen(code), out) == 0)
		return 1;
	ev_langid(lex, text, len, out);
	return 0;
}
