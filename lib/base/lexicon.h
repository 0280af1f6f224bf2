/* lexicon.h: what evkit knows of natural languages beyond its tokeniser:
 * the function words of the main European languages (stop lists), and
 * whether a word is a real word of a language (the system's word lists).
 *
 * Low layer: includes err.h only.
 *
 * Languages: English, French, German, Spanish, Italian, Portuguese and
 * Dutch (EV_LEX_EN ... EV_LEX_NL), named by ISO 639-1 or 639-2 codes, with
 * or without a region ("fr", "fr-CA", "fra", "FR_fr").
 *
 * Stop lists: the frequent function words (articles, pronouns, prepositions,
 * conjunctions, forms of "be" and "have", elided forms such as French l', d',
 * qu') of each language, written for evkit with Snowball's stop lists
 * (snowballstem.org, BSD licence) as the reference.  Words are compared
 * lowercased (ASCII and the Latin-1 letters, "Été" is "été") and as written
 * otherwise, not stemmed.
 *
 * Dictionaries: the plain word lists Debian ships in /usr/share/dict (one
 * word a line: wamerican or wbritish, wfrench, wngerman, wspanish,
 * witalian, wportuguese, wdutch), read in place (mmap) the first time a
 * language's list is needed, so that a program that never asks pays
 * nothing. */
#ifndef EV_LEXICON_H
#define EV_LEXICON_H

#include <stddef.h>

#include "err.h"

enum {
	EV_LEX_EN, EV_LEX_FR, EV_LEX_DE, EV_LEX_ES, EV_LEX_IT, EV_LEX_PT, EV_LEX_NL,
	EV_LEX_NLANG
};

/* The bit of language lang in a set of languages. */
#define EV_LEX_BIT(lang) (1u << (lang))

struct ev_lex;

/* A lexicon: the stop lists indexed; no dictionary is read yet.  dict_dir is
 * where the word lists are (NULL: /usr/share/dict; copied).  Returns NULL
 * with *err set (out of memory). */
struct ev_lex *ev_lex_open(const char *dict_dir, struct ev_err *err);

/* Free the lexicon and unmap its word lists (NULL-safe). */
void ev_lex_close(struct ev_lex *lex);

/* The language named by code[0..len) (see above), or -1 when it is not one
 * of EV_LEX_*. */
int ev_lex_lang(const char *code, size_t len);

/* The ISO 639-1 code of lang ("en", "fr", ...). */
const char *ev_lex_code(int lang);

/* The languages (EV_LEX_BIT() set) whose stop lists hold word[0..len). */
unsigned ev_lex_stop_langs(const struct ev_lex *lex, const char *word, size_t len);

/* Add to counts[EV_LEX_NLANG] the words of text[0..n) that are function
 * words of each language (ev_lex_stop_langs()): its words are runs of ASCII
 * letters and of bytes of non-ASCII characters (an apostrophe ends one:
 * French l', d', qu' are stop words), those of one byte left out ("a",
 * "e", "y" are function words of half the languages, and "N", "t" name
 * things in formulas). */
void ev_lex_count_stops(const struct ev_lex *lex, const char *text, size_t n, unsigned *counts);

/* The language of a text from the function words it holds: given
 * counts[EV_LEX_NLANG], the number of its words that are function words of
 * each language (ev_lex_stop_langs()), the language with the most, at least
 * 3 and more than English's, else EV_LEX_EN (a tie goes to English, the
 * tokeniser's language). */
int ev_lex_guess(const unsigned *counts);

/* Whether word[0..len) is a word of lang's word list, compared as written,
 * lowercased, and with its first letter capitalised ("paris" finds
 * "Paris").  Returns 1 or 0, -1 when the language has no word list on this
 * machine (it is not installed: nothing is known), or -2 with *err set when
 * one exists but cannot be read (code 1). */
int ev_lex_is_word(struct ev_lex *lex, int lang, const char *word, size_t len, struct ev_err *err);

/* The Debian package holding lang's word list ("wamerican", ...). */
const char *ev_lex_dict_package(int lang);

/* Byte c of UTF-8 text, prev the byte before it (0 at the start), in lower
 * case as the lexicon folds words: the ASCII capitals and the Latin-1 ones
 * (U+00C0 to U+00DE, C3 80 to C3 9E, but the multiplication sign), whose
 * lower case is one byte on; any other byte as it is. */
static inline unsigned char
ev_lex_fold(unsigned char prev, unsigned char c)
{
	if ((c >= 'A' && c <= 'Z') || (prev == 0xC3 && c >= 0x80 && c <= 0x9E && c != 0x97))
		return (unsigned char)(c + 32);
	return c;
}

#endif
