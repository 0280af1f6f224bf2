/* Tests of lib/base/lexicon.c: language codes, the stop lists (case, accents,
 * languages sharing a word), guessing a text's language from its function
 * words, and the word lists (found as written, lowercased or capitalised;
 * a missing list is "nothing known", not "no such word"). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lexicon.h"
#include "test_util.h"

static struct ev_lex *lex;
static char dir[64];

static void
setup(void)
{
	static const char french[] = "abeille\nParis\nruche\nété";	/* no final newline */
	struct ev_err err = { 0 };
	char f[128];

	snprintf(dir, sizeof dir, "/tmp/evkit-lex.XXXXXX");
	tu_mkdir(dir, NULL, 0);
	snprintf(f, sizeof f, "%s/french", dir);
	tu_write_file(f, french, strlen(french));
	lex = ev_lex_open(dir, &err);
	cr_assert_not_null(lex, "%s", err.msg);
}

static void
teardown(void)
{
	ev_lex_close(lex);
	tu_rmdir(dir);
}

TestSuite(lexicon, .init = setup, .fini = teardown);

static unsigned
stop(const char *w)
{
	return ev_lex_stop_langs(lex, w, strlen(w));
}

Test(lexicon, language_codes_with_or_without_a_region)
{
	cr_assert_eq(ev_lex_lang("fr", 2), EV_LEX_FR);
	cr_assert_eq(ev_lex_lang("FR-ca", 5), EV_LEX_FR);
	cr_assert_eq(ev_lex_lang("fra", 3), EV_LEX_FR);
	cr_assert_eq(ev_lex_lang("de_AT", 5), EV_LEX_DE);
	cr_assert_eq(ev_lex_lang("en", 2), EV_LEX_EN);
	cr_assert_eq(ev_lex_lang("french", 6), -1);
	cr_assert_eq(ev_lex_lang("ja", 2), -1);
	cr_assert_eq(ev_lex_lang("", 0), -1);
	cr_assert_str_eq(ev_lex_code(EV_LEX_NL), "nl");
	cr_assert_str_eq(ev_lex_dict_package(EV_LEX_FR), "wfrench");
}

Test(lexicon, function_words_by_language_case_and_accents_folded)
{
	cr_assert_eq(stop("le"), EV_LEX_BIT(EV_LEX_FR) | EV_LEX_BIT(EV_LEX_ES) | EV_LEX_BIT(EV_LEX_IT));
	cr_assert_eq(stop("Une"), EV_LEX_BIT(EV_LEX_FR));
	cr_assert_eq(stop("ÉTÉ"), EV_LEX_BIT(EV_LEX_FR));
	cr_assert_eq(stop("der"), EV_LEX_BIT(EV_LEX_DE) | EV_LEX_BIT(EV_LEX_NL));
	cr_assert(stop("the") & EV_LEX_BIT(EV_LEX_EN));
	cr_assert(stop("a") & EV_LEX_BIT(EV_LEX_EN));
	cr_assert(stop("a") & EV_LEX_BIT(EV_LEX_FR));
	cr_assert_eq(stop("ruche"), 0);
	cr_assert_eq(stop("honey"), 0);
	cr_assert_eq(stop("averyveryveryverylongwordthatisnostopword"), 0);
}

Test(lexicon, a_texts_function_words_are_counted_word_by_word_into_each_language)
{
	/* words: runs of letters and of non-ASCII bytes, cut at an apostrophe
	 * and at anything else; those of one byte ("l", "d", "a", "x") left out */
	static const char text[] = "À la maison, l'eau d'une ÉTÉ; Über der 7 a x The\n";
	static const char *const words[] = {
		"À", "la", "maison", "eau", "une", "ÉTÉ", "Über", "der", "The", NULL
	};
	unsigned got[EV_LEX_NLANG], want[EV_LEX_NLANG];

	for (int l = 0; l < EV_LEX_NLANG; l++)
		got[l] = want[l] = (unsigned)l;	/* added to, not set */
	for (int i = 0; words[i] != NULL; i++)
		for (int l = 0; l < EV_LEX_NLANG; l++)
			want[l] += (stop(words[i]) & EV_LEX_BIT(l)) != 0;
	ev_lex_count_stops(lex, text, strlen(text), got);
	for (int l = 0; l < EV_LEX_NLANG; l++)
		cr_assert_eq(got[l], want[l], "%s: %u, not %u", ev_lex_code(l), got[l], want[l]);
	cr_assert_geq(want[EV_LEX_FR], EV_LEX_FR + 4u, "à, la, une, été");
	cr_assert_geq(want[EV_LEX_DE], EV_LEX_DE + 2u, "über, der");
	cr_assert_geq(want[EV_LEX_EN], EV_LEX_EN + 1u, "the");
}

Test(lexicon, a_text_is_the_language_of_most_of_its_function_words)
{
	unsigned c[EV_LEX_NLANG] = { 0 };

	cr_assert_eq(ev_lex_guess(c), EV_LEX_EN, "nothing known: English");
	c[EV_LEX_FR] = 2;
	cr_assert_eq(ev_lex_guess(c), EV_LEX_EN, "fewer than 3: English");
	c[EV_LEX_FR] = 5;
	c[EV_LEX_EN] = 5;
	cr_assert_eq(ev_lex_guess(c), EV_LEX_EN, "a tie goes to English");
	c[EV_LEX_FR] = 6;
	cr_assert_eq(ev_lex_guess(c), EV_LEX_FR);
}

Test(lexicon, word_lists_as_written_lowercased_or_capitalised)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "ruche", 5, &err), 1);
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "Ruche", 5, &err), 1);
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "abeille", 7, &err), 1, "the first line");
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "été", strlen("été"), &err), 1,
	    "the last line, without a newline");
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "paris", 5, &err), 1, "a name");
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "ruch", 4, &err), 0, "a prefix is not a word");
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "uche", 4, &err), 0, "nor a suffix");
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "aris", 4, &err), 0);
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_FR, "rucher", 6, &err), 0);
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_DE, "der", 3, &err), -1, "no German list: unknown");
	cr_assert_eq(ev_lex_is_word(lex, -1, "x", 1, &err), -1);
	cr_assert_eq(err.code, 0);
}

Test(lexicon, a_word_list_that_is_not_a_file_is_an_error)
{
	struct ev_err err = { 0 };
	char d[128];

	snprintf(d, sizeof d, "%s/ngerman", dir);
	cr_assert_eq(mkdir(d, 0700), 0);
	cr_assert_eq(ev_lex_is_word(lex, EV_LEX_DE, "der", 3, &err), -2);
	cr_assert_eq(err.code, 1);
	cr_assert(strstr(err.msg, "/ngerman is not a file") != NULL, "%s", err.msg);
}
