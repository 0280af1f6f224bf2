/* Tests of lib/merge/packsnip.c: an evidence's snippet under each snippet
 * policy, the sentence l0 picks, and what the pack says when l2 could not
 * be given. */
#include <criterion/criterion.h>
#include <string.h>

#include "packsnip.h"

/* The snippet of a hit made of json under policy, with stored text and a
 * limit of max characters; *word the policy it says. */
static char *
snippet(int policy, const char *json, const char *stored, long long max, const char **word)
{
	struct ev_buf out = EV_BUF_INIT;
	json_t *hit = json_loads(json, 0, NULL);
	char *s;

	cr_assert_not_null(hit);
	*word = ev_pack_snippet(policy, hit, stored, max, &out);
	cr_assert_not_null(*word);
	s = strdup(out.p);
	ev_buf_release(&out);
	json_decref(hit);
	return s;
}

static void
assert_snippet(int policy, const char *json, const char *stored, long long max,
    const char *want_word, const char *want)
{
	const char *word;
	char *got = snippet(policy, json, stored, max, &word);

	cr_assert_str_eq(word, want_word);
	cr_assert_str_eq(got, want);
	free(got);
}

Test(packsnip, l1_and_auto_are_the_lanes_passage_l2_the_chunks_text)
{
	const char *hit = "{\"snippet\":\"a «b» c\",\"text\":\"whole text\"}";

	assert_snippet(EV_PACK_SNIPPET_AUTO, hit, NULL, 500, "auto", "a «b» c");
	assert_snippet(EV_PACK_SNIPPET_L1, hit, "stored", 500, "l1", "a «b» c");
	assert_snippet(EV_PACK_SNIPPET_L2, hit, "stored", 500, "l2", "whole text");
	assert_snippet(EV_PACK_SNIPPET_L2, "{\"snippet\":\"a «b» c\"}", "stored text", 500, "l2",
	    "stored text");
}

Test(packsnip, l2_without_any_text_is_the_passage_and_says_l1)
{
	assert_snippet(EV_PACK_SNIPPET_L2, "{\"snippet\":\"a «b» c\"}", NULL, 500, "l1", "a «b» c");
}

Test(packsnip, an_empty_snippet_gives_way_to_the_text_or_the_stored_text)
{
	assert_snippet(EV_PACK_SNIPPET_AUTO, "{\"snippet\":\"\"}", "page text", 500, "auto",
	    "page text");
	assert_snippet(EV_PACK_SNIPPET_AUTO, "{}", NULL, 500, "auto", "");
}

Test(packsnip, l0_is_the_sentence_with_the_most_marked_words_the_first_on_a_tie)
{
	assert_snippet(EV_PACK_SNIPPET_L0, "{\"snippet\":\"One «a». Two «a» «b»! Three «a» «b»? Four\"}",
	    NULL, 500, "l0", "Two «a» «b»!");
	assert_snippet(EV_PACK_SNIPPET_L0, "{\"snippet\":\"No marks here. None at all.\"}", NULL, 500,
	    "l0", "No marks here.");
	/* a line break ends a sentence, without its character; 。 ends one, with it;
	 * a full stop inside a number does not */
	assert_snippet(EV_PACK_SNIPPET_L0, "{\"snippet\":\"title\\nv1.2 «x» text\"}", NULL, 500, "l0",
	    "v1.2 «x» text");
	assert_snippet(EV_PACK_SNIPPET_L0, "{\"snippet\":\"甲。乙«丙»。丁\"}", NULL, 500, "l0", "乙«丙»。");
}

Test(packsnip, the_snippet_is_cut_at_max_characters_never_inside_one)
{
	assert_snippet(EV_PACK_SNIPPET_L1, "{\"snippet\":\"étés\"}", NULL, 2, "l1", "ét");
	assert_snippet(EV_PACK_SNIPPET_L0, "{\"snippet\":\"x. «é»té y.\"}", NULL, 3, "l0", "«é»");
}

Test(packsnip, the_pack_says_how_many_evidences_l2_could_not_be_given)
{
	json_t *evs = json_loads("[{\"snippet_policy\":\"l1\"},{\"snippet_policy\":\"l2\"},"
	    "{\"snippet_policy\":\"l1\"}]", 0, NULL), *ign = json_array();

	cr_assert_eq(ev_pack_snippets_ignored(ign, evs, EV_PACK_SNIPPET_L1), 0);
	cr_assert_eq(json_array_size(ign), 0, "only l2 is said");
	cr_assert_eq(ev_pack_snippets_ignored(ign, evs, EV_PACK_SNIPPET_L2), 0);
	cr_assert_str_eq(json_string_value(json_array_get(ign, 0)),
	    "output.snippet_policy: 2 evidences hold the lanes' passage (l1): neither the hits "
	    "nor a store (ev-pack --db) gave the chunk's text");
	cr_assert_str_eq(ev_pack_snippet_policy_name(EV_PACK_SNIPPET_L0), "l0");
	json_decref(evs);
	json_decref(ign);
}
