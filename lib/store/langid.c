/* langid.c: the language of a text.  See langid.h. */
#include "langid.h"

#include <string.h>

#define LATIN_WINDOW 4096	/* bytes of a Latin text whose words are counted */

void
ev_langid(const struct ev_lex *lex, const char *text, size_t len, char out[EV_ANALYZE_CODE_MAX])
{
	const char *script = ev_analyze_script_lang(text, len);
	unsigned counts[EV_LEX_NLANG] = { 0 };

	if (script[0] != '\0') {
		strcpy(out, script);
		return;
	}
	ev_lex_count_stops(lex, text, len < LATIN_WINDOW ? len : LATIN_WINDOW, counts);
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
	ev_lex_count_stops(lex, text, len < LATIN_WINDOW ? len : LATIN_WINDOW, counts);
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
