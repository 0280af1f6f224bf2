/* Tests of lib/lanes/snippet.c: marking query terms by their stems, choosing the
 * passage with the most distinct terms, ellipses, whitespace, marks, and
 * what was found. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "lexicon.h"
#include "snippet.h"
#include "token.h"

static struct ev_tok *tok;
static struct ev_snippet *sn;
static struct ev_buf out = EV_BUF_INIT;

static void
open_with(int tokens, const char *open, const char *close)
{
	struct ev_snippet_opts o = EV_SNIPPET_OPTS_INIT;
	struct ev_err err = { 0 };

	o.tokens = tokens;
	if (open != NULL) {
		o.open = open;
		o.close = close;
	}
	ev_snippet_free(sn);
	sn = ev_snippet_new(tok, &o, &err);
	cr_assert_not_null(sn, "%s", err.msg);
}

static void
setup(void)
{
	struct ev_err err = { 0 };

	tok = ev_tok_open(NULL, &err);
	cr_assert_not_null(tok, "%s", err.msg);
	open_with(32, "[", "]");
}

static void
teardown(void)
{
	ev_snippet_free(sn);
	sn = NULL;
	ev_tok_close(tok);
	ev_buf_release(&out);
}

TestSuite(snippet, .init = setup, .fini = teardown);

static const char *
snip(const char *text, int want_marks)
{
	struct ev_err err = { 0 };
	int marks;

	ev_buf_reset(&out);
	marks = ev_snippet_make(sn, text, strlen(text), &out, &err);
	cr_assert_eq(marks, want_marks, "marks %d, expected %d (%s)", marks, want_marks, err.msg);
	return ev_buf_str(&out);
}

static void
query(const char *q, int want_groups)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_snippet_add_query(sn, q, strlen(q), &err), want_groups, "%s", err.msg);
}

/* The snippet of text at most tokens words wide, marked with [ and ], for the
 * query q (of want_groups groups; want_marks marks expected). */
static const char *
snip_in(int tokens, const char *q, int want_groups, const char *text, int want_marks)
{
	open_with(tokens, "[", "]");
	query(q, want_groups);
	return snip(text, want_marks);
}

Test(snippet, marks_every_form_of_a_query_word)
{
	query("wings", 1);
	cr_assert_str_eq(snip("The Wing and the wings of a winged craft.", 3),
	    "The [Wing] and the [wings] of a [winged] craft.");
}

Test(snippet, query_stop_words_are_not_marked)
{
	query("the flow of the air", 2);
	cr_assert_str_eq(snip("the flow of the air", 2), "the [flow] of the [air]");
}

Test(snippet, a_repeated_query_word_is_one_group)
{
	query("flow flows flowing", 1);
	cr_assert_eq(ev_snippet_groups(sn), 1);
}

Test(snippet, chooses_the_window_with_most_distinct_words)
{
	cr_assert_str_eq(snip_in(4, "shock wave", 2,
	    "shock shock shock one two three four five six seven eight shock wave end", 2), "\xe2\x80\xa6 eight [shock] [wave] end");
}

Test(snippet, prefers_more_marked_words_among_equally_distinct_windows)
{
	cr_assert_str_eq(snip_in(3, "lift", 1, "lift a b c d e lift lift lift f g", 3),
	    "\xe2\x80\xa6 [lift] [lift] [lift] \xe2\x80\xa6");
}

Test(snippet, centres_the_marked_words_in_the_window)
{
	cr_assert_str_eq(snip_in(5, "drag", 1, "a b c d e f drag g h i j k", 1),
	    "\xe2\x80\xa6 e f [drag] g h \xe2\x80\xa6");
}

Test(snippet, a_text_without_the_words_gives_its_start)
{
	cr_assert_str_eq(snip_in(3, "boundary", 1, "one two three four", 0), "one two three \xe2\x80\xa6");
}

Test(snippet, whitespace_runs_become_one_space)
{
	query("layer", 1);
	cr_assert_str_eq(snip("  the\n\tboundary   layer \r\n grows  ", 1), "the boundary [layer] grows");
}

Test(snippet, whitespace_and_controls_anywhere_in_long_words_are_squeezed)
{
	query("layer", 1);
	cr_assert_str_eq(snip("boundarylayerthickness\x7fgrowth\x01rate\n\n\nalongthewallofthe layer",
	    1), "boundarylayerthickness growth rate alongthewallofthe [layer]");
	cr_assert_str_eq(snip("abcdefgh\tabcdefg\x1f" "abcdefghijklmnop\x7f\x7f layer", 1),
	    "abcdefgh abcdefg abcdefghijklmnop [layer]");
}

Test(snippet, punctuation_at_the_end_is_kept)
{
	query("jet", 1);
	cr_assert_str_eq(snip("a jet (hot).", 1), "a [jet] (hot).");
}

Test(snippet, diacritics_and_case_are_folded_but_the_text_is_kept)
{
	query("cafe naive", 2);
	cr_assert_str_eq(snip("Le CAF\xc3\x89 na\xc3\xafve", 2), "Le [CAF\xc3\x89] [na\xc3\xafve]");
}

Test(snippet, default_marks_are_guillemets)
{
	open_with(32, NULL, NULL);
	query("mach", 1);
	cr_assert_str_eq(snip("at mach 5", 1), "at \xc2\xabmach\xc2\xbb 5");
}

Test(snippet, empty_text_gives_an_empty_snippet)
{
	query("mach", 1);
	cr_assert_str_eq(snip("", 0), "");
	cr_assert_str_eq(snip("...", 0), "");
}

Test(snippet, found_counts_groups_in_the_whole_text_and_scans)
{
	struct ev_err err = { 0 };

	open_with(2, "[", "]");
	query("heat transfer plate", 3);
	snip("heat a b c d e f heat transfer", 2);
	cr_assert_eq(ev_snippet_found(sn, 0), 2);
	cr_assert_eq(ev_snippet_found(sn, 1), 1);
	cr_assert_eq(ev_snippet_found(sn, 2), 0);
	cr_assert_eq(ev_snippet_scan(sn, "flat plates", 11, &err), 0);
	cr_assert_eq(ev_snippet_found(sn, 2), 1);
	cr_assert_eq(ev_snippet_found(sn, 7), 0);
	snip("nothing", 0);
	cr_assert_eq(ev_snippet_found(sn, 0), 0);
}

Test(snippet, terms_of_one_group_count_together_and_apart)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_snippet_add_term(sn, "slipstream", 10, 0, &err), 0);
	cr_assert_eq(ev_snippet_add_term(sn, "slipstrem", 9, 0, &err), 1);
	cr_assert_eq(ev_snippet_add_term(sn, "slipstream", 10, 4, &err), 0, "a stem keeps its index");
	snip("slipstream and slipstrem", 2);
	cr_assert_eq(ev_snippet_found(sn, 0), 2);
	cr_assert_eq(ev_snippet_term_found(sn, 0), 1);
	cr_assert_eq(ev_snippet_term_found(sn, 1), 1);
	cr_assert_eq(ev_snippet_term_found(sn, 2), 0);
}

Test(snippet, an_empty_term_is_refused)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_snippet_add_term(sn, "x", 0, 0, &err), -1);
	cr_assert_str_eq(err.msg, "an empty term or a negative group to mark");
	cr_assert_eq(err.code, 2);
}

Test(snippet, reset_forgets_the_terms)
{
	query("wing", 1);
	ev_snippet_reset(sn);
	cr_assert_eq(ev_snippet_groups(sn), 0);
	cr_assert_str_eq(snip("wing", 0), "wing");
}

Test(snippet, terms_sharing_a_first_letter_or_a_long_length_are_told_apart)
{
	static const char l70[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	static const char l64[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";
	char text[256];

	query("flap flutter", 2);
	cr_assert_str_eq(snip("flat flap flutters flax", 2), "flat [flap] [flutters] flax");
	ev_snippet_reset(sn);
	query(l70, 1);
	snprintf(text, sizeof text, "%s %s x", l64, l70);
	cr_assert_eq(strncmp(snip(text, 1), l64, 64), 0);
	cr_assert(strstr(ev_buf_str(&out), "[" "aaaaaaaaaa") != NULL, "%s", ev_buf_str(&out));
	ev_snippet_reset(sn);
	cr_assert_str_eq(snip("flap", 0), "flap", "reset forgets what was seen");
}

Test(snippet, many_terms_are_all_found)
{
	char q[8192] = "", t[64];
	struct ev_err err = { 0 };

	for (int i = 0; i < 500; i++) {
		snprintf(t, sizeof t, "w%dx ", i);
		strcat(q, t);
	}
	cr_assert_eq(ev_snippet_add_query(sn, q, strlen(q), &err), 500);
	cr_assert_str_eq(snip("w499x w0x w250x", 3), "[w499x] [w0x] [w250x]");
}

Test(snippet, words_sharing_a_stop_words_stem_are_not_stop_words)
{
	cr_assert_eq(ev_snippet_is_stop(tok, "us", 2, "us", 2), 1);
	cr_assert_eq(ev_snippet_is_stop(tok, "us", 2, "Used", 4), 0);
	cr_assert_eq(ev_snippet_is_stop(tok, "on", 2, "one", 3), 0);
	cr_assert_eq(ev_snippet_is_stop(tok, "the", 3, "the", 3), 1);
	cr_assert_eq(ev_snippet_is_stop(tok, "wing", 4, "wing", 4), 0);
	query("the used one", 2);
	cr_assert_str_eq(snip("one wing used", 2), "[one] wing [used]");
}

Test(snippet, next_mark_walks_every_marked_word_of_the_text)
{
	static const char text[] = "Seals first. Then filler words here and there, then a seal again.";
	size_t start = 0, end = 0;
	int pos = 0;

	open_with(3, "[", "]");
	query("seal", 1);
	snip(text, 1);		/* the passage holds one; the text two */
	cr_assert_eq(ev_snippet_next_mark(sn, &pos, &start, &end), 1);
	cr_assert_eq(start, 0);
	cr_assert_eq(end, 5);
	cr_assert_eq(ev_snippet_next_mark(sn, &pos, &start, &end), 1);
	cr_assert_eq(start, 54);
	cr_assert_eq(end, 58);
	cr_assert_eq(ev_snippet_next_mark(sn, &pos, &start, &end), 0);
	cr_assert_eq(ev_snippet_next_mark(sn, &pos, &start, &end), 0);
}

/* A Chinese word and its bigrams overlap: one mark over them. */
Test(snippet, overlapping_chinese_terms_are_one_mark)
{
	query("蜂螨", 1);
	cr_assert_str_eq(snip("养蜂人常用草酸防治蜂螨。", 1), "养蜂人常用草酸防治[蜂螨]。");
	open_with(32, "[", "]");
	query("草酸", 1);
	cr_assert_str_eq(snip("养蜂人常用草酸防治蜂螨。", 1), "养蜂人常用[草酸]防治蜂螨。");
}

Test(snippet, a_chinese_window_spans_about_as_much_as_one_of_words)
{
	static const char text[] = "蜜蜂是重要的传粉昆虫，农民依靠它们给果树授粉。养蜂人每年春天检查蜂箱，"
	    "记录蜂王的产卵情况和幼虫的数量。秋天到来之前，养蜂人常用草酸防治蜂螨，并在冬季给蜂群"
	    "喂糖水。冬天蜂群聚成一团取暖，直到第二年春天花开，工蜂才重新外出采集花蜜和花粉。";
	const char *got;

	query("草酸", 1);
	got = snip(text, 1);
	/* 32 words' worth: the sentence that answers, whole, around the mark */
	cr_assert(strstr(got, "秋天到来之前，养蜂人常用[草酸]防治蜂螨，并在冬季给蜂群喂糖水") != NULL, "%s", got);
	cr_assert(strncmp(got, "…", strlen("…")) == 0, "%s", got);
}

Test(snippet, words_of_other_scripts_keep_their_window_of_tokens)
{
	cr_assert_str_eq(snip_in(4, "slipstream", 1, "one two three four slipstream six seven eight nine", 1),
	    "… four [slipstream] six seven …");
}

Test(snippet, a_query_s_function_words_of_its_language_are_not_marked)
{
	struct ev_err err = { 0 };
	struct ev_lex *lex = ev_lex_open(NULL, &err);
	const char *q = "Le Comté est un fromage de Franche-Comté. Il est affiné";

	cr_assert_not_null(lex, "%s", err.msg);
	/* without the language, French function words are marked */
	cr_assert_eq(ev_snippet_add_query(sn, q, strlen(q), &err), 9);
	cr_assert_str_eq(snip("Le comté est un fromage.", 5), "[Le] [comté] [est] [un] [fromage].");
	ev_snippet_reset(sn);
	cr_assert_eq(ev_snippet_add_query_in(sn, q, strlen(q), lex, EV_LEX_FR, &err), 4);
	cr_assert_str_eq(snip("Le comté est un fromage.", 2), "Le [comté] est un [fromage].");
	/* a query of function words alone keeps them */
	ev_snippet_reset(sn);
	cr_assert_eq(ev_snippet_add_query_in(sn, "il est", 6, lex, EV_LEX_FR, &err), 2);
	ev_lex_close(lex);
}
