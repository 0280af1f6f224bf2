/* Tests of lib/store/analyze.c and langid.c: the "evkit" FTS5 tokeniser
 * (Chinese and Japanese words with bigrams, Snowball stems for other
 * languages, English exactly as FTS5's porter, queries for several
 * languages), a real FTS5 table searched with it, and language
 * identification. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "icu.h"
#include "langid.h"
#include "lexicon.h"
#include "token.h"
#include "test_util.h"

static sqlite3 *db;
static struct ev_analyzer *an;
static fts5_tokenizer api;
static Fts5Tokenizer *tk;

static void
setup(void)
{
	struct ev_err err = { 0 };
	fts5_api *f;
	void *ud;

	cr_assert_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	an = ev_analyze_register(db, &err);
	cr_assert_not_null(an, "%s", err.msg);
	cr_assert_eq(ev_analyze_find(db), an);
	f = ev_analyze_fts5_api(db);
	cr_assert_eq(f->xFindTokenizer(f, EV_ANALYZE_TOKENIZER, &ud, &api), SQLITE_OK);
	cr_assert_eq(api.xCreate(ud, NULL, 0, &tk), SQLITE_OK);
}

static void
teardown(void)
{
	api.xDelete(tk);
	sqlite3_close(db);
}

TestSuite(analyze, .init = setup, .fini = teardown);

struct seen {
	char text[4096];	/* "term@start-end", "+term" when colocated */
};

static int
record(void *ctx, int flags, const char *term, int len, int start, int end)
{
	struct seen *s = ctx;
	size_t used = strlen(s->text);

	snprintf(s->text + used, sizeof s->text - used, "%s%s%.*s@%d-%d", used ? " " : "",
	    flags & FTS5_TOKEN_COLOCATED ? "+" : "", len, term, start, end);
	/* a language's tag shown as '|' ("|fr|au", "||aux") */
	for (char *p = s->text + used; *p != '\0'; p++)
		if (*p == EV_ANALYZE_TAG)
			*p = '|';
	return SQLITE_OK;
}

static const char *
run(int flags, const char *text)
{
	static struct seen s;

	memset(&s, 0, sizeof s);
	cr_assert_eq(api.xTokenize(tk, &s, flags, text, (int)strlen(text), record), SQLITE_OK);
	return s.text;
}

/* UTF-8: 蜂 螨 草 酸 are 3 bytes each. */
Test(analyze, chinese_words_with_their_bigrams_colocated)
{
	/* ICU cuts 草酸 (oxalic acid) as a word; every pair of the run is a
	 * bigram, colocated with the word it starts in, none repeated */
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "用草酸"),
	    "用@0-3 +用草@0-6 草酸@3-9");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "草酸防治蜂螨"),
	    "草酸@0-6 +酸防@3-9 防治@6-12 +治蜂@9-15 蜂@12-15 +蜂螨@12-18 螨@15-18");
}

Test(analyze, a_query_run_is_one_token_when_it_is_short_or_one_word)
{
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "蜂螨"), "蜂螨@0-6");
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "草酸"), "草酸@0-6");
	/* longer: the phrase of its words */
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "草酸防治蜂螨"), "草酸@0-6 防治@6-12 蜂@12-15 螨@15-18");
	/* search terms: one-character words of a longer run left to bigrams */
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_TERMS, "蜂螨"), "+蜂螨@0-6");
}

Test(analyze, japanese_kanji_and_kana_in_one_run)
{
	/* シュウ酸 (oxalic acid): katakana and a kanji, one run */
	const char *t = run(FTS5_TOKENIZE_DOCUMENT, "シュウ酸による駆除");

	cr_assert_not_null(strstr(t, "シュウ@"), "%s", t);
	cr_assert_not_null(strstr(t, "+ウ酸@"), "%s", t);
	cr_assert_not_null(strstr(t, "駆除@"), "%s", t);
}

Test(analyze, english_is_exactly_porter_unicode61)
{
	/* the words alone, and an index of version 1 */
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_PLAIN, "Flows over Café wings"),
	    "flow@0-5 over@6-10 cafe@11-16 wing@17-22");
	ev_analyze_set_index(an, 1);
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "Flows over Café wings"),
	    "flow@0-5 over@6-10 cafe@11-16 wing@17-22");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "en\x1f" "Flows"), "flow@4-9");
	/* version 2: English's stems untagged, each word itself beside its
	 * stem (tagged with no language), colocated */
	ev_analyze_set_index(an, 2);
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "Flows over Café wings"),
	    "flow@0-5 +||flows@0-5 over@6-10 +||over@6-10 cafe@11-16 +||cafe@11-16 wing@17-22"
	    " +||wings@17-22");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "en\x1f" "Flows"), "flow@4-9 +||flows@4-9");
	/* version 3: English's stems alone again, untagged */
	ev_analyze_set_index(an, EV_ANALYZE_INDEX_VERSION);
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "Flows over Café wings"),
	    "flow@0-5 over@6-10 cafe@11-16 wing@17-22");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "en\x1f" "Flows"), "flow@4-9");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "zh\x1f" "Flows"), "flow@4-9");
}

/* The word itself of an English word (an index of version 2) is folded as
 * unicode61 folds it (capitals and digits; accents and letters of other
 * scripts; apostrophes and hyphens between words), whether the word is
 * ASCII or not. */
Test(analyze, the_word_itself_is_folded_as_unicode61_folds_it)
{
	ev_analyze_set_index(an, 2);
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "X86 ABC123 l'Avion co-OP"),
	    "x86@0-3 +||x86@0-3 abc123@4-10 +||abc123@4-10 l@11-12 +||l@11-12 avion@13-18"
	    " +||avion@13-18 co@19-21 +||co@19-21 op@22-24 +||op@22-24");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "Naïve ÉTÉ Ωmega"),
	    "naiv@0-6 +||naive@0-6 et@7-12 +||ete@7-12 ωmega@13-19 +||ωmega@13-19");
}

Test(analyze, a_tag_chooses_the_snowball_stemmer_accents_folded)
{
	/* French: "ruches" -> "ruch", "élevées" -> stem "élev" -> "elev",
	 * each stem tagged with its language */
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "fr\x1f" "Les ruches élevées"),
	    "|fr|le@4-7 +||les@4-7 |fr|ruch@8-14 +||ruches@8-14 |fr|elev@15-24 +||elevees@15-24");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_PLAIN, "\x1f" "fr\x1f"
	    "Les ruches élevées"), "le@4-7 ruch@8-14 elev@15-24");
	/* German */
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "de\x1f" "Bienenvölker"),
	    "|de|bienenvolk@4-17 +||bienenvolker@4-17");
	/* Norwegian's two codes, one stemmer: one namespace */
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "nb\x1f" "huset"),
	    "|no|hus@4-9 +||huset@4-9");
	/* a language without a stemmer: the word itself, folded */
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "pl\x1f" "Miód"), "||miod@4-9");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_PLAIN, "\x1f" "pl\x1f" "Miód"),
	    "miod@4-9");
}

Test(analyze, mixed_scripts_split_into_runs)
{
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT | EV_ANALYZE_PLAIN, "Varroa蜂螨mites"),
	    "varroa@0-6 蜂@6-9 +蜂螨@6-12 螨@9-12 mite@12-17");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "Varroa蜂螨mites"),
	    "varroa@0-6 蜂@6-9 +蜂螨@6-12 螨@9-12 mite@12-17");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "\x1f" "fr\x1f" "Varroa蜂螨"),
	    "|fr|varro@4-10 +||varroa@4-10 蜂@10-13 +蜂螨@10-16 螨@13-16");
}

Test(analyze, a_query_is_stemmed_for_each_query_language)
{
	const char *both[] = { "en", "fr" }, *en[] = { "en" };

	ev_analyze_set_query_langs(an, both, 2);
	/* English "ruch" would be Porter's "ruch" too: one; "varroa" is
	 * "varroa" and French "varro": both, colocated, French's tagged */
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "varroa"), "varroa@0-6 +|fr|varro@0-6");
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY | EV_ANALYZE_PLAIN, "varroa"),
	    "varroa@0-6 +varro@0-6");
	/* an English query: its English stem, and for the French chunks the
	 * word itself, never its French stem */
	ev_analyze_set_query_lang(an, "en");
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "varroa"), "varroa@0-6 +||varroa@0-6");
	/* a German one: its German stem, which no chunk of this store has,
	 * its English stem for the English chunks (which hold no word
	 * itself), and the word itself for the French ones */
	ev_analyze_set_query_lang(an, "de");
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "varroa"),
	    "|de|varroa@0-6 +varroa@0-6 +||varroa@0-6");
	/* in its own languages alone (as typo repair reads it): no English */
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY | EV_ANALYZE_OWN, "varroa"),
	    "|de|varroa@0-6 +||varroa@0-6");
	/* in an index of version 2, the word itself reaches both */
	ev_analyze_set_index(an, 2);
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "varroa"), "|de|varroa@0-6 +||varroa@0-6");
	ev_analyze_set_index(an, EV_ANALYZE_INDEX_VERSION);
	/* a French query on a store of French and English: no word itself */
	ev_analyze_set_query_lang(an, "fr");
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "varroa"), "|fr|varro@0-6 +varroa@0-6");
	/* a store of English alone, an English query: exactly as before */
	ev_analyze_set_query_lang(an, "en");
	ev_analyze_set_store_langs(an, en, 1);
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "varroa"), "varroa@0-6");
	ev_analyze_set_query_lang(an, NULL);
	ev_analyze_set_store_langs(an, NULL, 0);
	ev_analyze_set_query_langs(an, NULL, 0);
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "varroa"), "varroa@0-6");
}

Test(analyze, language_codes_are_normalised)
{
	char c[EV_ANALYZE_CODE_MAX];

	cr_assert_eq(ev_analyze_norm("fr-CA", 5, c), 0);
	cr_assert_str_eq(c, "fr");
	cr_assert_eq(ev_analyze_norm("FRE", 3, c), 0);
	cr_assert_str_eq(c, "fr");
	cr_assert_eq(ev_analyze_norm("zh_Hans", 7, c), 0);
	cr_assert_str_eq(c, "zh");
	cr_assert_eq(ev_analyze_norm("english", 7, c), -1);
	cr_assert_eq(ev_analyze_norm("", 0, c), -1);
}

Test(analyze, the_script_and_the_function_words_tell_the_language)
{
	struct ev_err err = { 0 };
	struct ev_lex *lex = ev_lex_open(NULL, &err);
	char c[EV_ANALYZE_CODE_MAX];
	const char *fr = "Les apiculteurs traitent les ruches avec de l'acide pendant l'hiver.";

	cr_assert_not_null(lex);
	ev_langid(lex, "蜂螨是危害蜜蜂最严重的寄生虫", 39, c);
	cr_assert_str_eq(c, "zh");
	ev_langid(lex, "ミツバチの病気とシュウ酸", 36, c);
	cr_assert_str_eq(c, "ja");
	ev_langid(lex, fr, strlen(fr), c);
	cr_assert_str_eq(c, "fr");
	/* one-letter words say nothing: not French for "a", "t", "N" */
	ev_langid(lex, "Student's t-Distribution (Algorithm 344) a N", 44, c);
	cr_assert_str_eq(c, "en");
	cr_assert_eq(ev_langid_doc(lex, "ja-JP", fr, strlen(fr), c), 1);
	cr_assert_str_eq(c, "ja");
	/* a query: one function word tells, none or a tie does not */
	cr_assert_eq(ev_langid_query(lex, "Bienen aus Stock", 16, c), 1);
	cr_assert_str_eq(c, "de");
	cr_assert_eq(ev_langid_query(lex, "ruche", 5, c), 0);
	cr_assert_str_eq(c, "");
	cr_assert_eq(ev_langid_query(lex, "flow in pipes", 13, c), 0, "in: English, German, Dutch...");
	cr_assert_eq(ev_langid_query(lex, "the flow in pipes", 17, c), 1);
	cr_assert_str_eq(c, "en");
	cr_assert_eq(ev_langid_query(lex, "蜂螨", strlen("蜂螨"), c), 1);
	cr_assert_str_eq(c, "zh");
	ev_lex_close(lex);
}

Test(analyze, unspaced_scripts_are_noticed)
{
	cr_assert(ev_analyze_has_unspaced("蜂蜜", 6));
	cr_assert(ev_analyze_has_unspaced("abc ภาษาไทย", 16));
	cr_assert(!ev_analyze_has_unspaced("Crème brûlée", 14));
}

/* Whether ICU puts code point cp in a script written without spaces, as
 * the tokeniser cuts them (Chinese, Japanese, Korean, Thai, Lao, Khmer,
 * Burmese). */
static int
icu_unspaced(UChar32 cp)
{
	UErrorCode st = U_ZERO_ERROR;

	switch (uscript_getScript(cp, &st)) {
	case USCRIPT_HAN: case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA: case USCRIPT_HANGUL:
	case USCRIPT_THAI: case USCRIPT_LAO: case USCRIPT_KHMER: case USCRIPT_MYANMAR:
		return 1;
	default:
		return 0;
	}
}

/* Code point cp in UTF-8, n times, into out (NUL-terminated). */
static void
utf8_times(UChar32 cp, int n, char *out)
{
	int32_t at = 0;
	UBool bad = 0;

	for (int i = 0; i < n; i++)
		U8_APPEND((uint8_t *)out, at, 64, cp, bad);
	cr_assert(!bad);
	out[at] = '\0';
}

/* The code points answered without ICU (analyze.c: kind(), latin1_letter())
 * are answered as ICU answers them. */
Test(analyze, latin_letters_and_punctuation_are_answered_as_icu_answers)
{
	char text[128];

	for (UChar32 cp = 0x80; cp < 0x2E80; cp++) {
		if (cp >= 0x0E00 && cp < 0x1E00)
			continue;	/* (ICU is asked there) */
		utf8_times(cp, 1, text);
		cr_assert_eq(ev_analyze_has_unspaced(text, strlen(text)), icu_unspaced(cp),
		    "U+%04X", (unsigned)cp);
	}
	/* five of cp and four Greek letters: Latin when cp is a Latin (or
	 * Common) letter, else Greek */
	for (UChar32 cp = 0x80; cp < 0x2070; cp++) {
		UErrorCode st = U_ZERO_ERROR;
		UScriptCode sc;
		int latin;

		if (cp == 0x250)
			cp = 0x2000;
		sc = uscript_getScript(cp, &st);
		latin = u_isalpha(cp) && (sc == USCRIPT_LATIN || sc == USCRIPT_COMMON);
		utf8_times(cp, 5, text);
		strcat(text, "\xce\xb1\xce\xb2\xce\xb3\xce\xb4");
		cr_assert_str_eq(ev_analyze_script_lang(text, strlen(text)), latin ? "" : "el",
		    "U+%04X", (unsigned)cp);
	}
}

/* A real FTS5 table with the tokeniser: Chinese words found inside runs. */
static int
count(const char *match)
{
	return tu_count(db, "SELECT count(*) FROM t WHERE t MATCH ?1", match);
}

Test(analyze, fts5_finds_chinese_words_inside_runs)
{
	cr_assert_eq(sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING fts5(x, tokenize='evkit');"
	    "INSERT INTO t VALUES('蜂螨是危害蜜蜂最严重的寄生虫之一。养蜂人常用草酸防治蜂螨。');"
	    "INSERT INTO t VALUES('蜂蜜是蜜蜂采集花蜜酿造而成的天然甜味物质。');"
	    "INSERT INTO t VALUES(char(31) || 'fr' || char(31) || 'Les ruches et le varroa');"
	    "INSERT INTO t(t) VALUES('integrity-check');", NULL, NULL, NULL), SQLITE_OK);
	cr_assert_eq(count("蜂螨"), 1);
	cr_assert_eq(count("草酸"), 1);
	cr_assert_eq(count("蜂蜜"), 1, "蜜蜂 (bees) is not 蜂蜜 (honey)");
	cr_assert_eq(count("蜜蜂"), 2);
	cr_assert_eq(count("\"草酸防治\""), 1);
	cr_assert_eq(count("ruche"), 0, "English's stem is not French's");
	ev_analyze_set_query_langs(an, (const char *[]){ "fr" }, 1);
	cr_assert_eq(count("ruche"), 1, "French stems meet");
	ev_analyze_set_query_langs(an, NULL, 0);
	cr_assert_eq(count("蜂螨 AND 甜味"), 0);
}

/* German, French and English texts in one index: a German query word finds
 * the French text only as itself, never through a stem: German "aus" is
 * Porter's "au", the French stem of "au" (issue 32). */
static void
three_languages(const char *table)
{
	char sql[1024];

	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE %s USING fts5(x, tokenize='evkit');"
	    "INSERT INTO %s VALUES(char(31) || 'de' || char(31) ||"
	    "  'Die Bienen fliegen aus dem Stock, die Information kam spät');"
	    "INSERT INTO %s VALUES(char(31) || 'fr' || char(31) ||"
	    "  'Les abeilles vont au champ; l''information est arrivée');"
	    "INSERT INTO %s VALUES('Bees swarm in spring');", table, table, table, table);
	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
}

Test(analyze, a_query_word_reaches_another_language_only_as_itself)
{
	const char *store[] = { "de", "fr", "en" };

	ev_analyze_set_query_langs(an, store, 3);
	ev_analyze_set_store_langs(an, store, 3);
	/* an index of version 1 (untagged stems): the French text is found
	 * through English's "au" */
	ev_analyze_set_index(an, 1);
	three_languages("t");
	cr_assert_eq(count("aus"), 2);
	sqlite3_exec(db, "DROP TABLE t", NULL, NULL, NULL);
	ev_analyze_set_index(an, EV_ANALYZE_INDEX_VERSION);
	three_languages("t");
	/* a query of no known language: each language's stem, for its own */
	cr_assert_eq(count("aus"), 1);
	ev_analyze_set_query_lang(an, "de");
	cr_assert_eq(count("aus"), 1, "a German query: German's stem and the word itself");
	cr_assert_eq(count("au"), 1, "the French word itself");
	/* a word both write alike reaches both, stemmed apart or not */
	cr_assert_eq(count("Information"), 2);
	cr_assert_eq(count("Bienen"), 1);
	ev_analyze_set_query_lang(an, "en");
	cr_assert_eq(count("bee"), 1, "English's stem, English's text");
	ev_analyze_set_query_lang(an, NULL);
	ev_analyze_set_store_langs(an, NULL, 0);
	ev_analyze_set_query_langs(an, NULL, 0);
}

/* What the clone records for text, replayed as a document's tokens. */
static const char *
recorded(struct ev_analyzer *clone, const char *text, struct ev_analyze_tape *tape)
{
	struct ev_analyze_cue q;

	ev_buf_reset(&tape->b);
	cr_assert_eq(ev_analyze_record(clone, text, (int)strlen(text), tape), 0);
	q = (struct ev_analyze_cue){ text, (int)strlen(text), tape, 0, tape->b.len };
	ev_analyze_expect(an, &q, 1);
	return run(FTS5_TOKENIZE_DOCUMENT, text);
}

Test(analyze, a_clone_records_the_tokens_tokenising_gives)
{
	static const char *const texts[] = {
		"Flows over heated plates", "\x1f" "fr" "\x1f" "Les abeilles ne volent pas",
		"草酸防治蜂螨 and mites", "\x1f" "ja" "\x1f" "東京で働いている", "", "x",
	};
	struct ev_analyzer *clone = ev_analyze_clone(an);
	struct ev_analyze_tape tape = { EV_BUF_INIT, 0 };

	cr_assert_not_null(clone);
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		char direct[4096];

		ev_analyze_expect(an, NULL, 0);
		snprintf(direct, sizeof direct, "%s", run(FTS5_TOKENIZE_DOCUMENT, texts[i]));
		cr_assert_str_eq(recorded(clone, texts[i], &tape), direct, "%s", texts[i]);
	}
	ev_analyze_expect(an, NULL, 0);
	ev_buf_release(&tape.b);
	ev_analyze_free(clone);
}

Test(analyze, a_cue_is_replayed_for_its_text_alone)
{
	/* a tape recorded for another text shows whether it was replayed */
	struct ev_analyzer *clone = ev_analyze_clone(an);
	struct ev_analyze_tape tape = { EV_BUF_INIT, 0 };
	struct ev_analyze_cue q;

	cr_assert_eq(ev_analyze_record(clone, "bees", 4, &tape), 0);
	q = (struct ev_analyze_cue){ "wasps", 5, &tape, 0, tape.b.len };
	ev_analyze_expect(an, &q, 1);
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "wasps"), "bee@0-4",
	    "the cue's text: replayed");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "wasp"), "wasp@0-4",
	    "another text: tokenised");
	cr_assert_str_eq(run(FTS5_TOKENIZE_QUERY, "wasps"), "wasp@0-5", "a query: tokenised");
	ev_analyze_set_lang(an, "fr");
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "wasps"), "|fr|wasp@0-5 +||wasps@0-5",
	    "untagged text, another language than the recording one's: tokenised");
	ev_analyze_set_lang(an, NULL);
	ev_analyze_expect(an, NULL, 0);
	cr_assert_str_eq(run(FTS5_TOKENIZE_DOCUMENT, "wasps"), "wasp@0-5", "cues cleared");
	ev_buf_release(&tape.b);
	ev_analyze_free(clone);
}

/* The forms a stem takes in an index: untagged, then once per stemmer
 * (Norwegian's two codes share one), each tagged with its code. */
Test(analyze, a_stem_has_one_form_per_stemmer)
{
	char out[16];
	int n = 0, fr = -1, no = 0;

	for (const char *code; (code = ev_analyze_stem_tag(n)) != NULL; n++) {
		cr_assert(ev_analyze_has_stemmer(code), "%s", code);
		cr_assert_str_neq(code, "en");
		cr_assert_str_neq(code, "nb");
		no += strcmp(code, "no") == 0;
		if (strcmp(code, "fr") == 0)
			fr = n;
	}
	cr_assert_eq(no, 1);
	cr_assert_geq(fr, 0);
	cr_assert_eq(ev_analyze_stem_form(-1, "au", 2, out, sizeof out), 2);
	cr_assert_str_eq(out, "au");
	cr_assert_eq(ev_analyze_stem_form(fr, "au", 2, out, sizeof out), 6);
	cr_assert_str_eq(out, "\x1f" "fr" "\x1f" "au");
	cr_assert_eq(ev_analyze_stem_form(fr, "abeille", 7, out, 11), -1);	/* no room */
	cr_assert_eq(ev_analyze_stem_form(n, "au", 2, out, sizeof out), -1);	/* past the last */
}
