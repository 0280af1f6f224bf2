/* Tests of lib/store/token.c: the one tokeniser (FTS5's porter unicode61
 * remove_diacritics 2): stems, byte offsets, case and diacritic folding,
 * stop words, stopping early, and agreement with a real FTS5 table; the memo
 * of tokens (lib/store/tokmemo.c, ev_tok_memo()): kept and replayed as
 * recorded, keyed by text and tag, within its bound. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "test_util.h"
#include "token.h"
#include "tokmemo.h"

static struct ev_tok *tok;

static void
setup(void)
{
	struct ev_err err = { 0 };

	tok = ev_tok_open(NULL, &err);
	cr_assert_not_null(tok, "%s", err.msg);
}

static void
teardown(void)
{
	ev_tok_close(tok);
}

TestSuite(token, .init = setup, .fini = teardown);

struct seen {
	char text[1024];	/* "term@start-end term@start-end ..." */
	int n;
	int stop_after;		/* stop when n reaches this (0: never) */
};

static int
record(void *ctx, const char *term, int len, int start, int end)
{
	struct seen *s = ctx;
	size_t used = strlen(s->text);

	snprintf(s->text + used, sizeof s->text - used, "%s%.*s@%d-%d", used ? " " : "", len, term,
	    start, end);
	/* a language's tag shown as '|' ("|fr|au", "||aux") */
	for (char *p = s->text + used; *p != '\0'; p++)
		if (*p == EV_ANALYZE_TAG)
			*p = '|';
	s->n++;
	return s->stop_after > 0 && s->n >= s->stop_after;
}

static const char *
tokens(const char *text, struct seen *s)
{
	struct ev_err err = { 0 };

	memset(s, 0, sizeof *s);
	cr_assert_eq(ev_tok_run(tok, text, strlen(text), record, s, &err), 0, "%s", err.msg);
	return s->text;
}

Test(token, stems_inflections_to_one_term)
{
	struct seen s;

	cr_assert_str_eq(tokens("caused causes causing", &s), "caus@0-6 caus@7-13 caus@14-21");
	cr_assert_str_eq(tokens("flows flowing flowed", &s), "flow@0-5 flow@6-13 flow@14-20");
	cr_assert_str_eq(tokens("running", &s), "run@0-7");
}

Test(token, lowercases_and_splits_on_punctuation)
{
	struct seen s;

	cr_assert_str_eq(tokens("FLOW, Drag-force; (Mach)", &s),
	    "flow@0-4 drag@6-10 forc@11-16 mach@19-23");
}

Test(token, numbers_are_tokens_and_a_decimal_point_splits_them)
{
	struct seen s;

	cr_assert_str_eq(tokens("Mach 3.5 in 1950", &s), "mach@0-4 3@5-6 5@7-8 in@9-11 1950@12-16");
}

Test(token, offsets_are_bytes_of_the_original_text)
{
	struct seen s;

	/* é and ö are two bytes each in UTF-8 */
	cr_assert_str_eq(tokens("Héllo wörld", &s), "hello@0-6 world@7-13");
}

Test(token, folds_diacritics)
{
	struct seen s;

	cr_assert_str_eq(tokens("café Zürich façade", &s), "cafe@0-5 zurich@6-13 facad@14-21");
}

Test(token, stop_words_are_known_by_their_stems)
{
	cr_assert(ev_tok_is_stop(tok, "the", 3));
	cr_assert(ev_tok_is_stop(tok, "and", 3));
	cr_assert(ev_tok_is_stop(tok, "what", 4));
	/* "being" and "having" stem to "be" and "have"; "does" to "doe" */
	cr_assert(ev_tok_is_stop(tok, "be", 2));
	cr_assert(ev_tok_is_stop(tok, "have", 4));
	cr_assert(ev_tok_is_stop(tok, "doe", 3));
	cr_assert(ev_tok_is_stop(tok, "veri", 4));	/* very */
}

/* The Chinese and Japanese stop terms are listed as the segmenter makes
 * them from the function words: each term of each word is a stop term, and
 * no other (the list holds exactly the distinct terms seen here: 57). */
static int
stop_seen(void *ctx, const char *term, int len, int start, int end)
{
	char (*seen)[24] = ctx;
	int i;

	(void)start, (void)end;
	cr_assert(ev_tok_is_stop(tok, term, len), "'%.*s' is not a stop term", len, term);
	for (i = 0; seen[i][0] != '\0'; i++)
		if ((int)strlen(seen[i]) == len && memcmp(seen[i], term, (size_t)len) == 0)
			return 0;
	cr_assert_lt(len, 24);
	memcpy(seen[i], term, (size_t)len);
	seen[i][len] = '\0';
	return 0;
}

Test(token, chinese_and_japanese_stop_terms_are_the_segmenters)
{
	static const char *const words[] = {
		"的", "了", "是", "在", "和", "与", "或", "及", "也", "都", "就", "而", "之", "其",
		"这", "那", "个", "着", "把", "被", "对", "从", "为", "以", "于",
		"の", "は", "が", "を", "に", "で", "と", "も", "へ", "や", "か", "な", "ね", "よ",
		"から", "まで", "より", "です", "ます", "である", "する", "した", "して", "いる", "ある",
		"こと", "これ", "それ", "この", "その", NULL
	};
	static char seen[128][24];
	struct ev_err err = { 0 };
	int n = 0;

	for (int i = 0; words[i] != NULL; i++)
		cr_assert_eq(ev_tok_run(tok, words[i], strlen(words[i]), stop_seen, seen, &err), 0);
	while (seen[n][0] != '\0')
		n++;
	cr_assert_eq(n, 57);
	cr_assert(!ev_tok_is_stop(tok, "である", strlen("である")));	/* segmented */
	cr_assert(!ev_tok_is_stop(tok, "蜂蜜", strlen("蜂蜜")));
}

Test(token, content_words_are_not_stop_words)
{
	cr_assert(!ev_tok_is_stop(tok, "flow", 4));
	cr_assert(!ev_tok_is_stop(tok, "high", 4));
	cr_assert(!ev_tok_is_stop(tok, "use", 3));
	cr_assert(!ev_tok_is_stop(tok, "caus", 4));
	cr_assert(!ev_tok_is_stop(tok, "th", 2));	/* a prefix of a stop word */
	cr_assert(!ev_tok_is_stop(tok, "thee", 4));	/* an extension of one */
	cr_assert(!ev_tok_is_stop(tok, "", 0));
}

Test(token, every_token_of_a_stop_sentence_is_a_stop_word)
{
	static const char *const words[] = { "the", "being", "having", "does", "was", "were",
		"ourselves", "yourselves", "whether", "however", "because", "during", NULL };
	struct ev_err err = { 0 };
	struct seen s;
	int i;

	for (i = 0; words[i] != NULL; i++) {
		memset(&s, 0, sizeof s);
		cr_assert_eq(ev_tok_run(tok, words[i], strlen(words[i]), record, &s, &err), 0);
		cr_assert_eq(s.n, 1);
		/* the term is before the '@' */
		cr_assert(ev_tok_is_stop(tok, s.text, (int)(strchr(s.text, '@') - s.text)),
		    "'%s' (%s) is not a stop word", words[i], s.text);
	}
}

Test(token, a_non_zero_return_stops_the_run)
{
	struct seen s;
	struct ev_err err = { 0 };

	memset(&s, 0, sizeof s);
	s.stop_after = 2;
	cr_assert_eq(ev_tok_run(tok, "one two three four", 18, record, &s, &err), 0);
	cr_assert_eq(s.n, 2);
	cr_assert_str_eq(s.text, "on@0-3 two@4-7");
}

Test(token, empty_and_blank_texts_yield_no_tokens)
{
	struct seen s;

	cr_assert_str_eq(tokens("", &s), "");
	cr_assert_str_eq(tokens("  \t\n ... !!", &s), "");
	cr_assert_eq(s.n, 0);
}

Test(token, the_length_is_respected_not_the_terminator)
{
	struct seen s;
	struct ev_err err = { 0 };

	memset(&s, 0, sizeof s);
	cr_assert_eq(ev_tok_run(tok, "alpha beta", 5, record, &s, &err), 0);
	cr_assert_str_eq(s.text, "alpha@0-5");
	/* an embedded NUL separates words */
	memset(&s, 0, sizeof s);
	cr_assert_eq(ev_tok_run(tok, "alpha\0beta", 10, record, &s, &err), 0);
	cr_assert_str_eq(s.text, "alpha@0-5 beta@6-10");
}

Test(token, invalid_utf8_does_not_crash_or_loop)
{
	struct seen s;
	struct ev_err err = { 0 };
	const char bad[] = "ab\xff\xfe cd \xc3";

	memset(&s, 0, sizeof s);
	cr_assert_eq(ev_tok_run(tok, bad, sizeof bad - 1, record, &s, &err), 0);
	cr_assert(s.n >= 1);
}

Test(token, cjk_text_is_tokenised)
{
	struct seen s;

	/* unicode61 keeps a run of CJK characters as one token */
	cr_assert_str_eq(tokens("湍流 flow", &s), "湍流@0-6 flow@7-11");
}

/* The terms agree with what a real FTS5 index of the store stores. */
Test(token, terms_agree_with_the_store_vocabulary)
{
	char dir[] = "/tmp/evkit-token-XXXXXX", path[300];
	struct ev_err err = { 0 };
	struct ev_store *st;
	struct ev_tok *stok;
	struct seen s;
	sqlite3_stmt *q;
	char vocab[512] = "";

	st = tu_store_made(dir, path, sizeof path,
	    "INSERT INTO documents(doc_id, content_hash) VALUES ('d', 'h');"
	    "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash) VALUES"
	    " (1, 'd:s:0', 'd', 's', 0, 'Café flows caused Zürich', 'h');"
	    "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks;");
	q = ev_store_prepare(st, "SELECT term FROM chunks_vocab ORDER BY term", &err);
	cr_assert_not_null(q, "%s", err.msg);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(q, 0);

		strcat(vocab, vocab[0] ? " " : "");
		strcat(vocab, t[0] == EV_ANALYZE_TAG && t[1] == EV_ANALYZE_TAG ? "||" : "");
		strcat(vocab, t[0] == EV_ANALYZE_TAG && t[1] == EV_ANALYZE_TAG ? t + 2 : t);
	}
	sqlite3_reset(q);
	/* the stems alone: English text holds no word itself */
	cr_assert_str_eq(vocab, "cafe caus flow zurich");
	/* the tokeniser on the store's own connection gives the same terms */
	stok = ev_tok_open(ev_store_db(st), &err);
	cr_assert_not_null(stok, "%s", err.msg);
	memset(&s, 0, sizeof s);
	cr_assert_eq(ev_tok_run(stok, "Zürich caused café flows", strlen("Zürich caused café flows"), record, &s, &err), 0);
	cr_assert_str_eq(s.text, "zurich@0-7 caus@8-14 cafe@15-20 flow@21-26");
	ev_tok_close(stok);
	ev_store_close(st);
	tu_rmdir(dir);
}

/* Languages: a text's own (ev_tok_set_lang), a query's (ev_tok_run_query,
 * one stem a query language at the same offsets), the store's. */
Test(token, a_set_language_chooses_its_stemmer)
{
	struct seen s;

	ev_tok_set_lang(tok, "fr");
	cr_assert_str_eq(tokens("Les ruches", &s), "le@0-3 ruch@4-10");
	ev_tok_set_lang(tok, NULL);
	cr_assert_str_eq(tokens("Les ruches", &s), "le@0-3 ruch@4-10");
	cr_assert_str_eq(tokens("colonies", &s), "coloni@0-8", "English again");
}

static const char *
run_with(int (*fn)(struct ev_tok *, const char *, size_t, ev_tok_fn, void *, struct ev_err *),
    const char *text, struct seen *s)
{
	struct ev_err err = { 0 };

	memset(s, 0, sizeof *s);
	cr_assert_eq(fn(tok, text, strlen(text), record, s, &err), 0, "%s", err.msg);
	return s->text;
}

Test(token, a_query_is_stemmed_for_the_store_languages)
{
	struct ev_err err = { 0 };
	struct seen s;
	sqlite3 *db;

	cr_assert_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(db, "CREATE TABLE chunks(language TEXT);"
	    "INSERT INTO chunks VALUES('fr'), ('fr'), ('en'), (NULL);", NULL, NULL, NULL), SQLITE_OK);
	cr_assert_eq(ev_tok_store_langs(tok, db, &err), 2, "%s", err.msg);
	/* French first (most chunks), then English's stem, same offsets; the
	 * French stem in French's namespace, matching French chunks alone */
	cr_assert_str_eq(run_with(ev_tok_run_query, "colonies", &s), "|fr|colon@0-8 coloni@0-8");
	/* as a snippet compares them with a chunk's words: untagged */
	cr_assert_str_eq(run_with(ev_tok_run_query_stems, "colonies", &s), "colon@0-8 coloni@0-8");
	/* a query known to be French: its French stem, and its English stem
	 * for the English chunks (which hold no word itself) */
	ev_tok_set_query_lang(tok, "fr");
	cr_assert_str_eq(run_with(ev_tok_run_query, "colonies", &s), "|fr|colon@0-8 coloni@0-8");
	ev_tok_set_query_lang(tok, NULL);
	ev_tok_set_query_langs(tok, NULL, 0);
	cr_assert_str_eq(run_with(ev_tok_run_query, "colonies", &s), "coloni@0-8 ||colonies@0-8");
	cr_assert_str_eq(run_with(ev_tok_run_query_stems, "colonies", &s), "coloni@0-8");
	sqlite3_close(db);
}

Test(token, chinese_search_terms_leave_one_character_words_to_bigrams)
{
	struct seen s;

	/* 蜂螨 is cut 蜂|螨: as a text, both words and their bigram */
	cr_assert_str_eq(run_with(ev_tok_run, "蜂螨", &s), "蜂@0-3 蜂螨@0-6 螨@3-6");
	cr_assert_str_eq(run_with(ev_tok_run_terms, "蜂螨", &s), "蜂螨@0-6");
	cr_assert_str_eq(run_with(ev_tok_run_query, "蜂螨", &s), "蜂螨@0-6");
}

/* Keep "ab@0-2 cd@3-5" (or the like) for text under tag. */
static void
keep(struct ev_tokmemo *m, const char *tag, const char *text, const char *t1, const char *t2)
{
	ev_tokmemo_begin(m);
	ev_tokmemo_add(m, t1, (int)strlen(t1), 0, 2);
	ev_tokmemo_add(m, t2, (int)strlen(t2), 3, 5);
	ev_tokmemo_keep(m, tag, text, strlen(text));
}

static int
replayed(struct ev_tokmemo *m, const char *tag, const char *text, struct seen *s)
{
	memset(s, 0, sizeof *s);
	return ev_tokmemo_replay(m, tag, text, strlen(text), record, s);
}

Test(tokmemo, replays_the_tokens_kept_for_the_same_text_and_tag_only)
{
	struct ev_tokmemo *m = ev_tokmemo_new(1 << 20);
	struct seen s;

	cr_assert_not_null(m);
	cr_assert_eq(replayed(m, "en", "ab cd", &s), 0);
	keep(m, "en", "ab cd", "ab", "cd");
	keep(m, "fr", "ab cd", "xa", "xc");
	cr_assert_eq(replayed(m, "en", "ab cd", &s), 1);
	cr_assert_str_eq(s.text, "ab@0-2 cd@3-5");
	cr_assert_eq(replayed(m, "fr", "ab cd", &s), 1);
	cr_assert_str_eq(s.text, "xa@0-2 xc@3-5");
	cr_assert_eq(replayed(m, "de", "ab cd", &s), 0);
	cr_assert_eq(replayed(m, "en", "ab ce", &s), 0);
	cr_assert_eq(replayed(m, "en", "ab c", &s), 0);
	memset(&s, 0, sizeof s);
	s.stop_after = 1;
	cr_assert_eq(ev_tokmemo_replay(m, "en", "ab cd", 5, record, &s), 1);
	cr_assert_str_eq(s.text, "ab@0-2");
	ev_tokmemo_free(m);
}

Test(tokmemo, a_recording_not_kept_is_dropped)
{
	struct ev_tokmemo *m = ev_tokmemo_new(1 << 20);
	struct seen s;

	ev_tokmemo_begin(m);
	ev_tokmemo_add(m, "zz", 2, 0, 2);
	keep(m, "en", "ab cd", "ab", "cd");	/* begins again: zz is gone */
	cr_assert_eq(replayed(m, "en", "ab cd", &s), 1);
	cr_assert_str_eq(s.text, "ab@0-2 cd@3-5");
	ev_tokmemo_free(m);
}

Test(tokmemo, past_its_bound_it_starts_again)
{
	struct ev_tokmemo *m = ev_tokmemo_new(4096);
	char text[64];
	struct seen s;
	int i, kept = 0;

	for (i = 0; i < 200; i++) {
		snprintf(text, sizeof text, "text number %d", i);
		keep(m, "en", text, "ab", "cd");
	}
	for (i = 0; i < 200; i++) {
		snprintf(text, sizeof text, "text number %d", i);
		kept += replayed(m, "en", text, &s);
	}
	cr_assert(replayed(m, "en", "text number 199", &s), "the last text is kept");
	cr_assert_str_eq(s.text, "ab@0-2 cd@3-5");
	cr_assert_eq(replayed(m, "en", "text number 0", &s), 0, "the first was dropped");
	cr_assert(kept > 1 && kept < 200, "kept %d", kept);
	ev_tokmemo_free(m);
}

Test(tokmemo, many_texts_are_all_found)
{
	struct ev_tokmemo *m = ev_tokmemo_new(64 << 20);
	char text[64], term[16];
	struct seen s;
	int i;

	for (i = 0; i < 5000; i++) {
		snprintf(text, sizeof text, "t%d", i);
		snprintf(term, sizeof term, "w%d", i);
		keep(m, "en", text, term, "x");
	}
	for (i = 0; i < 5000; i++) {
		snprintf(text, sizeof text, "t%d", i);
		snprintf(term, sizeof term, "w%d@0-2 x@3-5", i);
		cr_assert_eq(replayed(m, "en", text, &s), 1, "%s", text);
		cr_assert_str_eq(s.text, term);
	}
	ev_tokmemo_free(m);
}

static const char *
memo_tokens(struct ev_tok *tok, const char *text, struct seen *s, int stop_after)
{
	struct ev_err err = { 0 };

	memset(s, 0, sizeof *s);
	s->stop_after = stop_after;
	cr_assert_eq(ev_tok_run(tok, text, strlen(text), record, s, &err), 0, "%s", err.msg);
	return s->text;
}

Test(tokmemo, a_tokeniser_with_a_memo_gives_the_same_tokens)
{
	struct ev_err err = { 0 };
	struct ev_tok *plain = ev_tok_open(NULL, &err), *memo = ev_tok_open(NULL, &err);
	const char *texts[] = { "Flows flowing over the wings, caused drag.", "Héllo wörld façade",
				"Mach 3.5 in 1950", "" };
	const char *langs[] = { "en", "fr", "en" };
	char want[1024];
	struct seen s;

	cr_assert_not_null(plain);
	cr_assert_not_null(memo);
	ev_tok_memo(memo, 1 << 20);
	for (int round = 0; round < 3; round++)
		for (int l = 0; l < 3; l++) {
			ev_tok_set_lang(plain, langs[l]);
			ev_tok_set_lang(memo, langs[l]);
			for (int i = 0; i < 4; i++) {
				snprintf(want, sizeof want, "%s", memo_tokens(plain, texts[i], &s, 0));
				cr_assert_str_eq(memo_tokens(memo, texts[i], &s, 0), want, "round %d", round);
				snprintf(want, sizeof want, "%s", memo_tokens(plain, texts[i], &s, 2));
				cr_assert_str_eq(memo_tokens(memo, texts[i], &s, 2), want, "round %d", round);
			}
		}
	/* French and English stem "flowing" apart: the memo keeps both */
	ev_tok_set_lang(memo, "fr");
	snprintf(want, sizeof want, "%s", memo_tokens(memo, "flowing", &s, 0));
	ev_tok_set_lang(memo, "en");
	cr_assert_str_neq(memo_tokens(memo, "flowing", &s, 0), want);
	ev_tok_close(plain);
	ev_tok_close(memo);
}
