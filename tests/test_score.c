/* Tests of lib/judge/score.c: hand-computed scores for small cases of each axis,
 * the weights, claim splitting, reading answer records and EvidencePacks,
 * and idf from a real store. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"
#include "score.h"
#include "store.h"
#include "token.h"
#include "test_util.h"

static struct ev_tok *tok;
static struct ev_scorer *sc;
static const struct ev_score_weights defaults = EV_SCORE_WEIGHTS_DEFAULT;

static void
setup(void)
{
	struct ev_err err = { 0 };

	tok = ev_tok_open(NULL, &err);
	cr_assert_not_null(tok, "%s", err.msg);
	sc = ev_score_open(tok, NULL, &err);
	cr_assert_not_null(sc, "%s", err.msg);
}

static void
teardown(void)
{
	ev_score_close(sc);
	ev_tok_close(tok);
}

TestSuite(score, .init = setup, .fini = teardown);

#define EPS 1e-9

/* Score query/answer against ncites citation texts (ids "c0", "c1", ...). */
static void
run(const char *query, const char *answer, const char *const *texts, size_t ncites,
    const struct ev_score_weights *w, struct ev_score_result *res)
{
	static char ids[16][8];
	struct ev_score_cite cites[16];
	struct ev_score_item item = { .query = query, .query_len = strlen(query), .answer = answer,
	    .answer_len = strlen(answer), .cites = cites, .ncites = ncites, .cap = 16 };
	struct ev_err err = { 0 };
	size_t i;

	cr_assert(ncites <= 16);
	for (i = 0; i < ncites; i++) {
		snprintf(ids[i], sizeof ids[i], "c%zu", i);
		cites[i].id = ids[i];
		cites[i].text = texts[i];
		cites[i].len = strlen(texts[i]);
	}
	cr_assert_eq(ev_score_answer(sc, &item, w ? w : &defaults, 1, res, &err), 0, "%s", err.msg);
	cr_assert_not_null(res->details);
}

/* details as compact JSON, for exact comparisons. */
static char *
dump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(10));
}

static void
assert_json(const json_t *v, const char *want)
{
	char *s = dump(v);

	cr_assert_str_eq(s, want);
	free(s);
}

/* The figures expected of a scored answer; UNCHECKED: not compared. */
struct figures {
	double faithfulness, coverage, redundancy, overall;
};

#define UNCHECKED NAN

/* r has the figures want (to EPS), those not UNCHECKED. */
static void
expect_figures(const struct ev_score_result *r, struct figures want)
{
	if (!isnan(want.faithfulness))
		cr_assert_float_eq(r->faithfulness, want.faithfulness, EPS);
	if (!isnan(want.coverage))
		cr_assert_float_eq(r->coverage, want.coverage, EPS);
	if (!isnan(want.redundancy))
		cr_assert_float_eq(r->redundancy, want.redundancy, EPS);
	if (!isnan(want.overall))
		cr_assert_float_eq(r->overall, want.overall, EPS);
}

/* run() with the default weights; the result. */
static struct ev_score_result
scored(const char *query, const char *answer, const char *const *texts, size_t ncites)
{
	struct ev_score_result r;

	run(query, answer, texts, ncites, NULL, &r);
	return r;
}

/* query and answer, scored against the citations texts, have the figures
 * want and the first warning warning (NULL: not compared). */
static void
expect_scored(const char *query, const char *answer, const char *const *texts, size_t ncites,
	struct figures want, const char *warning)
{
	struct ev_score_result r = scored(query, answer, texts, ncites);

	expect_figures(&r, want);
	if (warning != NULL)
		cr_assert_str_eq(r.warning, warning);
	ev_score_result_release(&r);
}

/* The value of key in r's details, as compact JSON, is want. */
static void
expect_detail(const struct ev_score_result *r, const char *key, const char *want)
{
	assert_json(json_object_get(r->details, key), want);
}

/* The citation most tests give, and the one of the redundancy tests. */
static const char *const drag[] = { "Drag is caused by turbulent flow." };
static const char *const flow[] = { "flow" };

/* Faithfulness */

Test(score, a_fully_supported_answer_scores_one_and_stems_match)
{
	struct ev_score_result r = scored("turbulent flow", "Turbulent flows cause drag.", drag, 1);

	expect_figures(&r, (struct figures){ 1.0, 1.0, 0.0, 1.0 });
	cr_assert_eq(r.nwarnings, 0);
	expect_detail(&r, "claims",
	    "[{\"text\":\"Turbulent flows cause drag.\",\"terms\":4,\"support\":1.0,"
	    "\"citation\":{\"index\":0,\"id\":\"c0\",\"support\":1.0},\"unsupported\":[]}]");
	ev_score_result_release(&r);
}

Test(score, an_unsupported_answer_scores_zero_and_lists_its_words)
{
	struct ev_score_result r = scored("turbulent flow", "The moon is made of cheese.", drag, 1);

	expect_detail(&r, "claims",
	    "[{\"text\":\"The moon is made of cheese.\",\"terms\":3,\"support\":0.0,"
	    "\"citation\":null,\"unsupported\":[\"moon\",\"made\",\"cheese\"]}]");
	/* coverage counts the cited passages, which hold the query's words:
	 * 0.4 * 0 + 0.4 * 1 + 0.2 * (1 - 0) */
	expect_figures(&r, (struct figures){ 0.0, 1.0, UNCHECKED, 0.6 });
	cr_assert_str_eq(r.warning, "the answer uses none of its citations (no word in common):"
	    " faithfulness is 0");
	ev_score_result_release(&r);
}

Test(score, coverage_of_used_citations_counts_none_the_answer_does_not_use)
{
	struct ev_score_result r;

	ev_score_set_coverage(sc, EV_SCORE_COVER_USED);
	r = scored("turbulent flow", "The moon is made of cheese.", drag, 1);
	ev_score_set_coverage(sc, EV_SCORE_COVER_CITED);
	/* the answer uses no citation, so nothing is covered either:
	 * 0.4 * 0 + 0.4 * 0 + 0.2 * (1 - 0) */
	expect_figures(&r, (struct figures){ UNCHECKED, 0.0, UNCHECKED, 0.2 });
	cr_assert_str_eq(json_string_value(json_object_get(r.details, "coverage_of")), "used");
	cr_assert_str_eq(r.warning, "the answer uses none of its citations (no word in common):"
	    " faithfulness and coverage are 0");
	ev_score_result_release(&r);
}

Test(score, one_supported_and_one_unsupported_claim_give_one_half)
{
	struct ev_score_result r = scored("turbulent flow",
	    "Turbulent flow causes drag. The moon is cheese.", drag, 1);

	cr_assert_float_eq(r.faithfulness, 0.5, EPS);
	cr_assert_eq(json_array_size(json_object_get(r.details, "claims")), 2);
	ev_score_result_release(&r);
}

/* The first claim of r's details. */
static json_t *
first_claim(const struct ev_score_result *r)
{
	return json_array_get(json_object_get(r->details, "claims"), 0);
}

Test(score, a_half_supported_claim_scores_one_half)
{
	struct ev_score_result r = scored("turbulent flow", "Turbulent flow melts cheese.", drag, 1);

	cr_assert_float_eq(r.faithfulness, 0.5, EPS);
	assert_json(json_object_get(first_claim(&r), "unsupported"), "[\"melts\",\"cheese\"]");
	assert_json(json_object_get(first_claim(&r), "citation"),
	    "{\"index\":0,\"id\":\"c0\",\"support\":0.5}");
	ev_score_result_release(&r);
}

Test(score, a_claim_may_draw_on_several_citations_and_names_the_best)
{
	static const char *const c[] = { "Laminar drag.", "Turbulent flow at high speed." };
	/* terms turbul, flow, drag: all found across the two; c1 has two */
	struct ev_score_result r = scored("drag", "Turbulent flow increases drag.", c, 2);

	/* "increases" is supported by neither */
	cr_assert_float_eq(r.faithfulness, 0.75, EPS);
	assert_json(json_object_get(first_claim(&r), "citation"),
	    "{\"index\":1,\"id\":\"c1\",\"support\":0.5}");
	assert_json(json_object_get(first_claim(&r), "unsupported"), "[\"increases\"]");
	ev_score_result_release(&r);
}

Test(score, claims_without_content_terms_are_not_counted)
{
	struct ev_score_result r;

	/* "Yes it is." has one content term (yes): unsupported; the second has
	 * drag, caus, turbul: all supported; mean (0 + 1) / 2 */
	expect_scored("drag", "Yes it is. Drag is caused by turbulence.", drag, 1,
	    (struct figures){ 0.5, UNCHECKED, UNCHECKED, UNCHECKED }, NULL);
	r = scored("drag", "It is. Drag is caused by turbulence.", drag, 1);
	cr_assert(json_is_null(json_object_get(first_claim(&r), "support")));
	cr_assert_float_eq(r.faithfulness, 1.0, EPS);
	ev_score_result_release(&r);
}

/* Coverage */

Test(score, partial_coverage_lists_the_uncovered_query_words)
{
	struct ev_score_result r = scored("What is turbulent flow in pipes?", "Drag.", drag, 1);

	cr_assert_float_eq(r.coverage, 2.0 / 3.0, EPS);
	expect_detail(&r, "uncovered", "[\"pipes\"]");
	cr_assert_eq(json_integer_value(json_object_get(r.details, "query_terms")), 3);
	ev_score_result_release(&r);
}

Test(score, no_coverage_when_no_query_word_is_cited)
{
	struct ev_score_result r = scored("moon cheese", "Drag.", drag, 1);

	cr_assert_float_eq(r.coverage, 0.0, EPS);
	expect_detail(&r, "uncovered", "[\"moon\",\"cheese\"]");
	ev_score_result_release(&r);
}

Test(score, repeated_query_words_count_once)
{
	expect_scored("flow flows flowing pipe", "Flow.", flow, 1,
	    (struct figures){ UNCHECKED, 0.5, UNCHECKED, UNCHECKED }, NULL);
}

Test(score, a_query_of_stop_words_covers_nothing_and_warns)
{
	struct ev_score_result r = scored("what is it?", "Flow.", flow, 1);

	cr_assert_float_eq(r.coverage, 0.0, EPS);
	cr_assert_eq(r.nwarnings, 1);
	cr_assert_str_eq(r.warning, "query has no content terms: coverage is 0");
	ev_score_result_release(&r);
}

/* Redundancy */

/* The redundancy of the answer "Flow." (or "Alpha.", when alpha) to the
 * query "flow" ("alpha") with the citations texts. */
static double
redundancy_of(int alpha, const char *const *texts, size_t ncites)
{
	struct ev_score_result r = scored(alpha ? "alpha" : "flow", alpha ? "Alpha." : "Flow.", texts,
	    ncites);
	double x = r.redundancy;

	ev_score_result_release(&r);
	return x;
}

Test(score, identical_citations_are_fully_redundant)
{
	static const char *const c[] = { "Turbulent flow causes drag.", "Turbulent flow causes drag." };
	struct ev_score_result r = scored("flow", "Flow.", c, 2);

	cr_assert_float_eq(r.redundancy, 1.0, EPS);
	expect_detail(&r, "most_redundant",
	    "{\"a\":0,\"a_id\":\"c0\",\"b\":1,\"b_id\":\"c1\",\"similarity\":1.0}");
	ev_score_result_release(&r);
}

Test(score, unrelated_citations_are_not_redundant)
{
	static const char *const c[] = { "Turbulent flow causes drag.", "The moon is made of cheese." };

	cr_assert_float_eq(redundancy_of(0, c, 2), 0.0, EPS);
}

Test(score, overlapping_citations_score_their_tfidf_cosine)
{
	static const char *const c[] = { "alpha beta", "alpha gamma" };
	double idf1 = 1 + log(3.0 / 2.0);	/* beta, gamma: df 1 of 2; alpha: idf 1 */
	struct ev_score_result r = scored("alpha", "Alpha.", c, 2);

	cr_assert_float_eq(r.redundancy, 1 / (1 + idf1 * idf1), EPS);
	cr_assert_float_eq(r.redundancy, 0.3360969, 1e-7);
	cr_assert_str_eq(json_string_value(json_object_get(r.details, "idf")), "citations");
	ev_score_result_release(&r);
}

Test(score, term_frequency_weighs_in_the_cosine)
{
	static const char *const c[] = { "alpha alpha beta", "alpha gamma" };
	double i1 = 1 + log(3.0 / 2.0);

	/* (2, i1, 0) . (1, 0, i1) / (|.| |.|) */
	cr_assert_float_eq(redundancy_of(1, c, 2), 2 / (sqrt(4 + i1 * i1) * sqrt(1 + i1 * i1)), EPS);
}

Test(score, nearest_max_and_mean_aggregate_the_pairs)
{
	static const char *const c[] = { "alpha beta", "alpha beta", "gamma delta" };
	struct ev_score_result r = scored("alpha", "Alpha.", c, 3);

	/* pairs: (0,1) = 1, (0,2) = 0, (1,2) = 0 */
	cr_assert_float_eq(r.redundancy, 2.0 / 3.0, EPS);	/* nearest: (1 + 1 + 0) / 3 */
	cr_assert_float_eq(json_real_value(json_object_get(r.details, "redundancy_max")), 1.0, EPS);
	cr_assert_float_eq(json_real_value(json_object_get(r.details, "redundancy_mean")), 1.0 / 3.0,
	    EPS);
	cr_assert_eq(json_integer_value(json_object_get(r.details, "pairs")), 3);
	ev_score_result_release(&r);
	ev_score_set_redundancy(sc, EV_SCORE_MAX);
	cr_assert_float_eq(redundancy_of(1, c, 3), 1.0, EPS);
	ev_score_set_redundancy(sc, EV_SCORE_MEAN);
	cr_assert_float_eq(redundancy_of(1, c, 3), 1.0 / 3.0, EPS);
}

Test(score, one_citation_has_no_redundancy)
{
	static const char *const c[] = { "alpha beta" };
	struct ev_score_result r = scored("alpha", "Alpha.", c, 1);

	cr_assert_float_eq(r.redundancy, 0.0, EPS);
	cr_assert(json_is_null(json_object_get(r.details, "most_redundant")));
	ev_score_result_release(&r);
}

Test(score, a_citation_of_stop_words_only_is_similar_to_nothing)
{
	static const char *const c[] = { "the of and", "the of and" };
	struct ev_score_result r = scored("alpha", "Alpha.", c, 2);

	cr_assert_float_eq(r.redundancy, 0.0, EPS);
	cr_assert(!isnan(r.overall));
	ev_score_result_release(&r);
}

/* Weights, empty items */

Test(score, weights_are_normalised_by_their_sum)
{
	struct ev_score_weights w = { 1, 1, 1 };
	struct ev_score_weights f = { 1, 0, 0 };

	cr_assert_float_eq(ev_score_overall(0.5, 1.0, 0.25, &w), (0.5 + 1.0 + 0.75) / 3, EPS);
	cr_assert_float_eq(ev_score_overall(0.5, 1.0, 0.25, &f), 0.5, EPS);
	cr_assert_float_eq(ev_score_overall(0.5, 1.0, 0.25, &defaults), 0.2 + 0.4 + 0.15, EPS);
}

Test(score, weights_given_to_the_scorer_shape_overall)
{
	struct ev_score_weights w = { 0, 1, 0 };
	struct ev_score_result r;

	run("turbulent pipes", "The turbulent moon.", drag, 1, &w, &r);
	cr_assert_float_eq(r.overall, 0.5, EPS);
	ev_score_result_release(&r);
}

Test(score, no_citations_give_zero_faithfulness_and_coverage_and_a_warning)
{
	struct ev_score_result r = scored("turbulent flow", "Turbulent flow causes drag.", NULL, 0);

	expect_figures(&r, (struct figures){ 0.0, 0.0, 0.0, 0.2 });
	cr_assert_eq(r.nwarnings, 1);
	cr_assert_str_eq(r.warning, "no citations: faithfulness and coverage are 0");
	expect_detail(&r, "warnings", "[\"no citations: faithfulness and coverage are 0\"]");
	ev_score_result_release(&r);
}

Test(score, an_empty_answer_gives_zero_faithfulness_and_a_warning)
{
	/* the citation holds both words */
	expect_scored("turbulent flow", "", drag, 1,
	    (struct figures){ 0.0, 1.0, UNCHECKED, UNCHECKED }, "empty answer: faithfulness is 0");
}

Test(score, coverage_counts_every_cited_passage_or_with_used_those_the_answer_uses)
{
	static const char *const c[] = { "Varroa mites are counted with an alcohol wash.",
		"Honey is stored in combs." };
	static const char q[] = "how do I count varroa mites";
	struct ev_score_result r;

	/* the answer uses the second citation only (honey); the question's
	 * words, all in the first, are covered by the passages cited */
	r = scored(q, "Honey is sweet.", c, 2);
	cr_assert_float_eq(r.coverage, 1.0, EPS);
	cr_assert_eq(json_integer_value(json_object_get(r.details, "citations_used")), 1);
	ev_score_result_release(&r);
	/* counting only the citations used, they are not */
	ev_score_set_coverage(sc, EV_SCORE_COVER_USED);
	expect_scored(q, "Honey is sweet.", c, 2,
	    (struct figures){ UNCHECKED, 0.0, UNCHECKED, UNCHECKED }, NULL);
	/* using both: count, varroa, mites covered */
	r = scored(q, "Honey is sweet. Count mites with a wash.", c, 2);
	ev_score_set_coverage(sc, EV_SCORE_COVER_CITED);
	cr_assert_float_eq(r.coverage, 1.0, EPS);
	cr_assert_eq(json_integer_value(json_object_get(r.details, "citations_used")), 2);
	ev_score_result_release(&r);
}

Test(score, a_made_up_answer_with_a_lone_citation_fails_on_faithfulness)
{
	static const char *const c[] = { "Varroa mites are counted with an alcohol wash." };

	/* 0.4 * 0 + 0.4 * 1 + 0.2 * (1 - 0) */
	expect_scored("how do I count varroa mites", "The moon is made of green cheese.", c, 1,
	    (struct figures){ 0.0, 1.0, 0.0, 0.6 }, NULL);
}

Test(score, items_do_not_leak_into_one_another)
{
	static const char *const c1[] = { "alpha beta gamma" };
	static const char *const c2[] = { "delta" };

	expect_scored("alpha", "Alpha beta gamma.", c1, 1,
	    (struct figures){ 1.0, UNCHECKED, UNCHECKED, UNCHECKED }, NULL);
	expect_scored("alpha", "Alpha beta gamma.", c2, 1,
	    (struct figures){ 0.0, 0.0, UNCHECKED, UNCHECKED }, NULL);
}

/* Claims */

static void
collect(void *ctx, size_t start, size_t end)
{
	json_t *a = ctx;
	const char *text = json_string_value(json_array_get(a, 0));

	json_array_append_new(a, json_stringn(text + start, end - start));
}

static void
assert_claims(const char *text, const char *want)
{
	json_t *a = json_pack("[s]", text);
	size_t n = ev_score_claims(text, strlen(text), collect, a);

	cr_assert_eq(n, json_array_size(a) - 1);
	json_array_remove(a, 0);
	assert_json(a, want);
	json_decref(a);
}

Test(score, claims_are_sentences)
{
	assert_claims("One two. Three four!  Five six?", "[\"One two.\",\"Three four!\",\"Five six?\"]");
	assert_claims("Wait... what?! Yes.", "[\"Wait...\",\"what?!\",\"Yes.\"]");
	assert_claims("He said \"stop.\" Then left.", "[\"He said \\\"stop.\\\"\",\"Then left.\"]");
	assert_claims("no final stop", "[\"no final stop\"]");
	assert_claims("", "[]");
	assert_claims("  \n ", "[]");
}

Test(score, decimals_abbreviations_and_initials_do_not_end_a_claim)
{
	assert_claims("Mach 3.5 is fast. Next.", "[\"Mach 3.5 is fast.\",\"Next.\"]");
	assert_claims("See e.g. the wing. Dr. Smith agrees.",
	    "[\"See e.g. the wing.\",\"Dr. Smith agrees.\"]");
	assert_claims("By J. Smith et al. in 1950.", "[\"By J. Smith et al. in 1950.\"]");
}

Test(score, blank_lines_and_list_items_end_a_claim)
{
	assert_claims("first line\nstill first\n\nsecond", "[\"first line\\nstill first\",\"second\"]");
	assert_claims("Points:\n- one\n- two\n1. three\n2) four",
	    "[\"Points:\",\"- one\",\"- two\",\"1. three\",\"2) four\"]");
}

Test(score, cjk_full_stops_end_a_claim)
{
	assert_claims("湍流。层流！为什么？", "[\"湍流。\",\"层流！\",\"为什么？\"]");
}

/* Citation markers */

/* The length of the marker at the first '[' of s (ids: those of ids[], NULL
 * ended). */
static size_t
marker(const char *s, const char *const *ids)
{
	struct ev_strmap m = EV_STRMAP_INIT;
	size_t n;

	for (; ids != NULL && *ids != NULL; ids++)
		cr_assert_neq(ev_strmap_add(&m, *ids, strlen(*ids), NULL), -1);
	n = ev_score_marker(s, strlen(s), (size_t)(strchr(s, '[') - s), &m);
	ev_strmap_release(&m);
	return n;
}

Test(score, citation_markers_are_bracketed_lists_of_references)
{
	static const char *const ids[] = { "d1:s:0", NULL };

	cr_assert_eq(marker("drag [1].", NULL), 3);
	cr_assert_eq(marker("[c12]", NULL), 5);
	cr_assert_eq(marker("[12, 13]", NULL), 8);
	cr_assert_eq(marker("[ 5 ; 6 ]", NULL), 9);
	cr_assert_eq(marker("[^4]", NULL), 4);
	cr_assert_eq(marker("[#ref3]", NULL), 7);
	cr_assert_eq(marker("[1-3]", NULL), 5);
	cr_assert_eq(marker("[1\xe2\x80\x93" "3]", NULL), 7);	/* an en dash */
	cr_assert_eq(marker("[d1:s:0]", ids), 8);
	cr_assert_eq(marker("[1][2]", NULL), 3);
	/* not markers: words, an id not cited, more than three letters, a
	 * number with a letter after it, empty, unclosed, over a line */
	cr_assert_eq(marker("[sic]", NULL), 0);
	cr_assert_eq(marker("[see 1]", NULL), 0);
	cr_assert_eq(marker("[d1:s:0]", NULL), 0);
	cr_assert_eq(marker("[COVID-19]", NULL), 0);
	cr_assert_eq(marker("[12a]", NULL), 0);
	cr_assert_eq(marker("[1-]", NULL), 0);
	cr_assert_eq(marker("[]", NULL), 0);
	cr_assert_eq(marker("[ , ]", NULL), 0);
	cr_assert_eq(marker("[1", NULL), 0);
	cr_assert_eq(marker("[1\n]", NULL), 0);
}

Test(score, citation_markers_are_no_words_of_a_claim)
{
	static const char *const both[] = { "Drag is caused by turbulent flow.", "Drag rises." };
	struct ev_score_result r = scored("turbulent flow",
	    "Turbulent flows cause drag [1]. Drag rises [c1][2, 3]. Drag [sic] falls.", both, 2);

	expect_detail(&r, "claims",
	    "[{\"text\":\"Turbulent flows cause drag [1].\",\"terms\":4,\"support\":1.0,"
	    "\"citation\":{\"index\":0,\"id\":\"c0\",\"support\":1.0},\"unsupported\":[]},"
	    "{\"text\":\"Drag rises [c1][2, 3].\",\"terms\":2,\"support\":1.0,"
	    "\"citation\":{\"index\":1,\"id\":\"c1\",\"support\":1.0},\"unsupported\":[]},"
	    "{\"text\":\"Drag [sic] falls.\",\"terms\":3,\"support\":0.3333333333,"
	    "\"citation\":{\"index\":0,\"id\":\"c0\",\"support\":0.3333333333},"
	    "\"unsupported\":[\"sic\",\"falls\"]}]");
	ev_score_result_release(&r);
}

/* Reading records */

static int
from_json(const char *text, struct ev_score_item *item, struct ev_err *err)
{
	json_t *v = json_loads(text, 0, NULL);
	int r;

	cr_assert_not_null(v, "bad test JSON: %s", text);
	r = ev_score_item_from_json(item, v, "in.jsonl:3", err);
	json_decref(v);		/* the tests below only look at counts after this */
	return r;
}

static void
assert_bad(const char *text, const char *msg)
{
	struct ev_score_item item = EV_SCORE_ITEM_INIT;
	struct ev_err err = { 0 };

	cr_assert_eq(from_json(text, &item, &err), -1, "accepted: %s", text);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "in.jsonl:3");
	cr_assert_str_eq(err.msg, msg);
	ev_score_item_release(&item);
}

Test(score, reads_an_answer_record)
{
	json_t *v = json_loads("{\"query\":\"q text\",\"answer\":\"a text\",\"citations\":"
	    "[{\"id\":\"x\",\"text\":\"one\"},\"two\",{\"snippet\":\"three\"}]}", 0, NULL);
	struct ev_score_item item = EV_SCORE_ITEM_INIT;
	struct ev_err err = { 0 };

	cr_assert_eq(ev_score_item_from_json(&item, v, "in.jsonl:3", &err), 0, "%s", err.msg);
	cr_assert_str_eq(item.query, "q text");
	cr_assert_str_eq(item.answer, "a text");
	cr_assert_eq(item.ncites, 3);
	cr_assert_str_eq(item.cites[0].id, "x");
	cr_assert_str_eq(item.cites[0].text, "one");
	cr_assert_null(item.cites[1].id);
	cr_assert_eq(item.cites[1].len, 3);
	cr_assert_str_eq(item.cites[2].text, "three");
	ev_score_item_release(&item);
	json_decref(v);
}

/* A citation's integer id is kept in decimal (the array of citations
 * grows, and moves, as they are read: every id still holds). */
Test(score, keeps_a_citations_integer_id)
{
	struct ev_score_item item = EV_SCORE_ITEM_INIT;
	struct ev_err err = { 0 };
	char rec[4096];
	size_t n;
	json_t *v;

	n = (size_t)snprintf(rec, sizeof rec, "{\"query\":\"q\",\"answer\":\"a\",\"citations\":[");
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(rec + n, sizeof rec - n, "%s{\"id\":%d,\"text\":\"t\"}",
		    i ? "," : "", i % 2 ? -i : i * 1000003);
	snprintf(rec + n, sizeof rec - n, ",{\"id\":\"s\",\"text\":\"u\"}]}");
	cr_assert_not_null(v = json_loads(rec, 0, NULL));
	cr_assert_eq(ev_score_item_from_json(&item, v, "in.jsonl:3", &err), 0, "%s", err.msg);
	cr_assert_eq(item.ncites, 41);
	cr_assert_str_eq(item.cites[0].id, "0");
	cr_assert_str_eq(item.cites[1].id, "-1");
	cr_assert_str_eq(item.cites[38].id, "38000114");
	cr_assert_str_eq(item.cites[40].id, "s");
	ev_score_item_release(&item);
	json_decref(v);
}

Test(score, reads_an_evidence_pack_with_an_answer)
{
	json_t *v = json_loads("{\"version\":\"0.1\",\"plan\":{},\"answer\":\"A.\",\"evidences\":["
	    "{\"id\":\"d:s:0\",\"snippet\":\"first\",\"provenance\":{\"mode\":\"hybrid\","
	    "\"query_text\":\"the query\"}},{\"id\":\"d:s:1\",\"snippet\":\"second\"}]}", 0, NULL);
	struct ev_score_item item = EV_SCORE_ITEM_INIT;
	struct ev_err err = { 0 };

	cr_assert_eq(ev_score_item_from_json(&item, v, "in.jsonl:3", &err), 0, "%s", err.msg);
	cr_assert_str_eq(item.query, "the query");
	cr_assert_eq(item.ncites, 2);
	cr_assert_str_eq(item.cites[1].id, "d:s:1");
	cr_assert_str_eq(item.cites[1].text, "second");
	ev_score_item_release(&item);
	json_decref(v);
}

Test(score, refuses_bad_records_naming_the_field)
{
	assert_bad("[1]", "an answer record must be an object");
	assert_bad("{\"query\":\"q\",\"citations\":[]}", "missing field 'answer'");
	assert_bad("{\"query\":\"q\",\"answer\":3,\"citations\":[]}", "field 'answer' must be a string");
	assert_bad("{\"query\":\"q\",\"answer\":\"a\"}", "missing field 'citations' (or 'evidences')");
	assert_bad("{\"query\":\"q\",\"answer\":\"a\",\"citations\":{\"text\":\"t\"}}",
	    "field 'citations' must be an array");
	assert_bad("{\"query\":\"q\",\"answer\":\"a\",\"citations\":[{\"text\":\"t\"},{\"text\":7}]}",
	    "citation 1: field 'text' must be a string");
	assert_bad("{\"query\":\"q\",\"answer\":\"a\",\"citations\":[{\"id\":\"x\"}]}",
	    "citation 0: missing field 'text'");
	assert_bad("{\"query\":\"q\",\"answer\":\"a\",\"citations\":[5]}",
	    "citation 0 must be an object or a string");
	assert_bad("{\"query\":\"q\",\"answer\":\"a\",\"citations\":[{\"id\":[],\"text\":\"t\"}]}",
	    "citation 0: field 'id' must be a string or an integer");
	assert_bad("{\"answer\":\"a\",\"citations\":[]}", "missing field 'query'");
	assert_bad("{\"query\":1,\"answer\":\"a\",\"citations\":[]}", "field 'query' must be a string");
	assert_bad("{\"answer\":\"a\",\"evidences\":{}}", "field 'evidences' must be an array");
	assert_bad("{\"answer\":\"a\",\"evidences\":[{\"id\":\"x\"}]}",
	    "evidence 0: field 'snippet' must be a string");
}

Test(score, refuses_more_citations_than_the_limit)
{
	json_t *v = json_pack("{s:s,s:s,s:[]}", "query", "q", "answer", "a", "citations");
	struct ev_score_item item = EV_SCORE_ITEM_INIT;
	struct ev_err err = { 0 };
	int i;

	for (i = 0; i <= EV_SCORE_MAX_CITATIONS; i++)
		json_array_append_new(json_object_get(v, "citations"), json_string("t"));
	cr_assert_eq(ev_score_item_from_json(&item, v, "in.jsonl:3", &err), -1);
	cr_assert_str_eq(err.msg, "too many citations (1001; at most 1000)");
	ev_score_item_release(&item);
	json_decref(v);
}

/* idf from a store */

Test(score, idf_comes_from_the_store_vocabulary_when_given)
{
	char dir[] = "/tmp/evkit-score-XXXXXX", path[300];
	struct ev_err err = { 0 };
	struct ev_store *st;
	struct ev_scorer *ssc;
	struct ev_score_cite cites[2] = { { "a", "alpha beta", 10 }, { "b", "alpha gamma", 11 } };
	struct ev_score_item item = { .query = "alpha", .query_len = 5, .answer = "Alpha.", .answer_len = 6,
	    .cites = cites, .ncites = 2, .cap = 2 };
	struct ev_score_result r;
	double idf0 = 1 + log(5.0 / 1.0);	/* beta, gamma: in none of 4 chunks */

	st = tu_store_made(dir, path, sizeof path, "INSERT INTO documents(doc_id, content_hash)"
	    " VALUES ('d', 'h');"
	    "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash) VALUES"
	    " (1, 'd:s:0', 'd', 's', 0, 'alpha one', 'h'), (2, 'd:s:1', 'd', 's', 1, 'alpha two', 'h'),"
	    " (3, 'd:s:2', 'd', 's', 2, 'alpha three', 'h'), (4, 'd:s:3', 'd', 's', 3, 'alphas', 'h');"
	    "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks;");
	/* alpha is in all 4 chunks: idf 1 + ln(5/5) = 1 */
	ssc = ev_score_open(tok, st, &err);
	cr_assert_not_null(ssc, "%s", err.msg);
	cr_assert_eq(ev_score_answer(ssc, &item, &defaults, 1, &r, &err), 0, "%s", err.msg);
	cr_assert_float_eq(r.redundancy, 1 / (1 + idf0 * idf0), EPS);
	cr_assert_float_eq(r.redundancy, 0.1280546, 1e-7);
	cr_assert_str_eq(json_string_value(json_object_get(r.details, "idf")), "store");
	ev_score_result_release(&r);
	ev_score_close(ssc);
	ev_store_close(st);
	tu_rmdir(dir);
}

/* A stem of a language of its own (analyze.h: tagged with the language in
 * the index) has its document frequency too: "abeil" is in all 4 French
 * chunks (idf 1), where its untagged form is in none. */
Test(score, idf_of_a_french_stem_comes_from_its_tagged_form)
{
	char dir[] = "/tmp/evkit-score-XXXXXX", path[300];
	struct ev_err err = { 0 };
	struct ev_store *st;
	struct ev_scorer *ssc;
	struct ev_score_cite cites[2] = { { "a", "abeilles ruche", 14 }, { "b", "abeille miel", 12 } };
	struct ev_score_item item = { "abeille", 7, "Abeille.", 8, cites, 2, 2, "fr", NULL };
	struct ev_score_result r;
	double idf0 = 1 + log(5.0 / 1.0);	/* ruche, miel: in none of 4 chunks */

	st = tu_store_made(dir, path, sizeof path, "INSERT INTO documents(doc_id, content_hash,"
	    " language) VALUES ('d', 'h', 'fr');"
	    "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash) VALUES"
	    " (1, 'd:s:0', 'd', 's', 0, 'abeille noire', 'h'), (2, 'd:s:1', 'd', 's', 1, 'abeilles noires', 'h'),"
	    " (3, 'd:s:2', 'd', 's', 2, 'abeille jaune', 'h'), (4, 'd:s:3', 'd', 's', 3, 'abeilles', 'h');"
	    "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, char(31) || 'fr' || char(31) || text FROM chunks;");
	ssc = ev_score_open(tok, st, &err);
	cr_assert_not_null(ssc, "%s", err.msg);
	cr_assert_eq(ev_score_answer(ssc, &item, &defaults, 1, &r, &err), 0, "%s", err.msg);
	/* the citations share "abeil" (idf 1) alone: with its idf taken as
	 * the rare words' (df 0) they would be 0.5 alike */
	cr_assert_float_eq(r.redundancy, 1 / (1 + idf0 * idf0), EPS);
	ev_score_result_release(&r);
	ev_score_close(ssc);
	ev_store_close(st);
	tu_rmdir(dir);
}

/* The judge hook */

struct verdicts {
	int calls;
	char seen[256];
	int fail;
	double give;
};

static int
toy_judge(void *ctx, const char *claim, size_t len, const struct ev_score_cite *best,
    double keyword, double *verdict, struct ev_err *err)
{
	struct verdicts *v = ctx;
	size_t n = strlen(v->seen);

	v->calls++;
	snprintf(v->seen + n, sizeof v->seen - n, "[%.*s|%s|%g]", (int)len, claim,
	    best ? best->id : "-", keyword);
	if (v->fail)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "judge down");
	*verdict = v->give >= 0 ? v->give : (memmem(claim, len, " not ", 5) ? 0 : keyword);
	return 0;
}

Test(score, a_judge_replaces_the_keyword_support_of_each_claim)
{
	const char *c[] = { "The valve is open." };
	struct verdicts v = { 0, "", 0, -1 };
	struct ev_score_result r;
	json_t *cl;

	ev_score_set_judge(sc, toy_judge, &v);
	run("valve", "The valve is open. The valve is not open. Yes!", c, 1, NULL, &r);
	/* keyword support: 1, 1, 0 ("yes" is not cited); judged: 1, 0, 0 */
	cr_assert_eq(v.calls, 3);
	cr_assert_str_eq(v.seen, "[The valve is open.|c0|1][The valve is not open.|c0|1][Yes!|-|0]");
	cr_assert_float_eq(r.faithfulness, 1.0 / 3.0, EPS);
	cl = json_array_get(json_object_get(r.details, "claims"), 1);
	assert_json(cl, "{\"text\":\"The valve is not open.\",\"terms\":2,\"support\":0.0,"
	    "\"keyword_support\":1.0,\"judged\":true,\"citation\":{\"index\":0,\"id\":\"c0\","
	    "\"support\":1.0},\"unsupported\":[]}");
	ev_score_result_release(&r);
}

Test(score, a_failing_or_out_of_range_judge_fails_the_item)
{
	const char *c[] = { "The valve is open." };
	struct ev_score_cite cites[1] = { { "c0", c[0], 18 } };
	struct ev_score_item item = { .query = "valve", .query_len = 5, .answer = "Valve open.",
	    .answer_len = 11, .cites = cites, .ncites = 1, .cap = 1 };
	struct verdicts v = { 0, "", 1, -1 };
	struct ev_score_result r;
	struct ev_err err = { 0 };

	ev_score_set_judge(sc, toy_judge, &v);
	cr_assert_eq(ev_score_answer(sc, &item, &defaults, 1, &r, &err), -1);
	cr_assert_str_eq(err.msg, "judge down");
	cr_assert_null(r.details);
	v.fail = 0;
	v.give = 1.5;
	ev_err_clear(&err);
	cr_assert_eq(ev_score_answer(sc, &item, &defaults, 1, &r, &err), -1);
	cr_assert_str_eq(err.msg, "the judge's verdict 1.5 is not in [0, 1]");
	/* and the scorer still works after */
	ev_score_set_judge(sc, NULL, NULL);
	cr_assert_eq(ev_score_answer(sc, &item, &defaults, 1, &r, &err), 0);
	cr_assert_float_eq(r.faithfulness, 1.0, EPS);
	ev_score_result_release(&r);
}

/* Score an item with details while Jansson's fail_at-th allocation fails;
 * returns the details as text (malloc'd), or NULL with *err set. */
static char *
details_failing_at(long fail_at, struct ev_err *err)
{
	static const char *const texts[] = { "The wing gives lift at low speed.",
		"A shock wave causes wave drag.", "The wing gives lift." };
	struct ev_score_cite cites[3] = {
		{ "c0", texts[0], strlen(texts[0]) }, { "c1", texts[1], strlen(texts[1]) },
		{ NULL, texts[2], strlen(texts[2]) },
	};
	static const char q[] = "what gives lift and drag at hypersonic speed",
		a[] = "Wings give lift. Shock waves cause drag. Unicorns fly.";
	struct ev_score_item item = { .query = q, .query_len = strlen(q), .answer = a, .answer_len = strlen(a),
	    .cites = cites, .ncites = 3, .cap = 3 };
	struct ev_score_result res;
	char *s = NULL;
	int r;

	tu_jcount = 0;
	tu_jfail_at = fail_at;
	json_set_alloc_funcs(tu_jfail_malloc, free);
	r = ev_score_answer(sc, &item, &defaults, 1, &res, err);
	json_set_alloc_funcs(malloc, free);
	if (r == 0) {
		s = json_dumps(res.details, JSON_SORT_KEYS | JSON_COMPACT);
		cr_assert_not_null(s);
		ev_score_result_release(&res);
	}
	return s;
}

/* Regression (finding F12): an allocation failure while building the
 * details gave a record with a field missing (or an unsupported word as
 * ""), exit 0.  Now it fails the item with "out of memory" (exit 1), and
 * details built are always the right ones. */
Test(score, out_of_memory_fails_the_item_and_never_drops_a_field)
{
	struct ev_err err = { 0 };
	char *want = details_failing_at(0, &err), *got;
	long n, total = tu_jcount;

	cr_assert_not_null(want, "%s", err.msg);
	cr_assert_gt(total, 30);
	for (n = 1; n <= total; n++) {
		struct ev_err e = { 0 };

		if ((got = details_failing_at(n, &e)) == NULL) {
			cr_assert_eq(e.code, EV_EXIT_RUNTIME, "N=%ld: code %d: %s", n, e.code, e.msg);
			cr_assert_str_eq(e.msg, "out of memory", "N=%ld", n);
			continue;
		}
		cr_assert_str_eq(got, want, "N=%ld: details differ from the right ones", n);
		free(got);
	}
	free(want);
}

Test(score, record_id_is_the_query_id_else_the_packs_else_the_line)
{
	json_t *a = json_pack("{s:s}", "query_id", "q1");
	json_t *b = json_pack("{s:{s:i}}", "plan", "query_id", 7);
	json_t *c = json_pack("{s:n}", "query_id");
	json_t *id;

	id = ev_score_record_id(a, 3);
	cr_assert_str_eq(json_string_value(id), "q1");
	json_decref(id);
	id = ev_score_record_id(b, 3);
	cr_assert_eq(json_integer_value(id), 7);
	json_decref(id);
	id = ev_score_record_id(c, 3);
	cr_assert_eq(json_integer_value(id), 3);
	json_decref(id);
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

Test(score, record_keeps_ids_and_says_passed_only_with_gates)
{
	json_t *rec = json_pack("{s:s,s:s,s:s,s:s}", "query_id", "q", "request_id", "r",
	    "plan_id", "p", "answer", "not kept");
	struct ev_score_result res = { .faithfulness = 0.5, .coverage = 1, .overall = 0.8 };
	json_t *out;

	res.details = json_object();
	out = ev_score_record(rec, 1, &res, -1);
	cr_assert_str_eq(json_string_value(json_object_get(out, "request_id")), "r");
	cr_assert_str_eq(json_string_value(json_object_get(out, "plan_id")), "p");
	cr_assert_null(json_object_get(out, "answer"));
	cr_assert_null(json_object_get(out, "passed"));
	cr_assert_float_eq(json_real_value(json_object_get(out, "overall")), 0.8, 1e-12);
	json_decref(out);
	out = ev_score_record(rec, 1, &res, 0);
	cr_assert(json_is_false(json_object_get(out, "passed")));
	json_decref(out);
	json_decref(res.details);
	json_decref(rec);
}
