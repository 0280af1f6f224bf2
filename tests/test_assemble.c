/* test_assemble.c: lib/merge/assemble.c -- word overlap, cosine, and the
 * rule that says one text contradicts another. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"

static struct ev_contra *c;

static void
setup(void)
{
	struct ev_err err = { 0 };

	c = ev_contra_new(&err);
	cr_assert_not_null(c, "%s", err.msg);
}

static void
teardown(void)
{
	ev_contra_free(c);
}

/* 1 when a contradicts b, with why filled. */
static int
contra(const char *a, const char *b, struct ev_contra_why *why)
{
	struct ev_err err = { 0 };
	int r = ev_contra_check(c, a, b, why, &err);

	cr_assert_neq(r, -1, "%s", err.msg);
	return r;
}

Test(assemble, word_overlap_is_jaccard_of_distinct_folded_words)
{
	uint64_t *a, *b;
	size_t na, nb;

	cr_assert_eq(ev_words_set("The hive, the HIVE and bees", &a, &na), 0);
	cr_assert_eq(ev_words_set("bees in the hive", &b, &nb), 0);
	cr_assert_eq(na, 4);	/* the hive and bees */
	cr_assert_eq(nb, 4);	/* bees in the hive */
	cr_assert_float_eq(ev_words_jaccard(a, na, b, nb), 3.0 / 5.0, 1e-12);
	cr_assert_float_eq(ev_words_jaccard(a, na, NULL, 0), 0, 1e-12);
	free(a);
	free(b);
}

Test(assemble, cosine_of_vectors_and_of_a_zero_vector)
{
	float x[3] = { 1, 0, 0 }, y[3] = { 1, 1, 0 }, z[3] = { 0, 0, 0 };

	cr_assert_float_eq(ev_cosine(x, y, 3), 1 / sqrt(2), 1e-9);
	cr_assert_float_eq(ev_cosine(x, z, 3), 0, 1e-12);
}

Test(assemble, a_negation_of_the_same_claim_contradicts, .init = setup, .fini = teardown)
{
	struct ev_contra_why why;

	cr_assert_eq(contra("Varroa mites are not counted with an alcohol wash.",
	    "Varroa mites are counted with an alcohol wash.", &why), 1);
	cr_assert_str_eq(why.cue, "negation");
	cr_assert_str_eq(why.words, "not");
	cr_assert_str_eq(why.subject, "Varroa mites counted alcohol wash");
	/* n't, with a straight or a curly apostrophe */
	cr_assert_eq(contra("Retries can't fix an expired token", "Retries fix an expired token",
	    &why), 1);
	cr_assert_str_eq(why.words, "can't");
	cr_assert_eq(contra("Retries don\xe2\x80\x99t fix expired tokens", "Retries fix an expired token",
	    &why), 1);
}

Test(assemble, opposite_words_contradict_and_two_flips_agree, .init = setup, .fini = teardown)
{
	static const char *const agree[][2] = {
		/* a negation and an opposite: the same claim */
		{ "Open flames are not allowed in the shed.", "Open flames are prohibited in the shed." },
		/* both negated */
		{ "Tokens are not cached by the gateway.", "The gateway does not cache tokens." },
		/* two opposite pairs (function words count) */
		{ "Bees forage less in cold weather.", "Bees forage more in warm weather." },
	};
	struct ev_contra_why why;

	cr_assert_eq(contra("Open flames are prohibited in the apiary shed.",
	    "Open flames are allowed in the apiary shed.", &why), 1);
	cr_assert_str_eq(why.cue, "opposite");
	cr_assert_str_eq(why.words, "prohibited/allowed");
	for (size_t i = 0; i < sizeof agree / sizeof agree[0]; i++)
		cr_assert_eq(contra(agree[i][0], agree[i][1], &why), 0, "%s ~ %s", agree[i][0],
		    agree[i][1]);
}

Test(assemble, another_subject_is_no_contradiction, .init = setup, .fini = teardown)
{
	static const struct {
		const char *a, *b;
		int contradicts;
	} cases[] = {
		{ "Do not store passwords in the source repository.",
		    "Client secrets must be rotated every 90 days.", 0 },
		/* one shared word is not a subject */
		{ "The hive is not heavy.", "The hive was moved in May.", 0 },
		/* sentences are compared one by one: the negation is in another one */
		{ "Secrets are rotated every 90 days. Nothing else is needed.",
		    "Secrets are rotated every 90 days.", 0 },
		/* the text lane's marks do not join words */
		{ "\xc2\xab" "Secrets\xc2\xbb are never \xc2\xabrotated\xc2\xbb", "Secrets are rotated",
		    1 },
	};
	struct ev_contra_why why;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		cr_assert_eq(contra(cases[i].a, cases[i].b, &why), cases[i].contradicts, "%s ~ %s",
		    cases[i].a, cases[i].b);
}

Test(assemble, what_it_cannot_see, .init = setup, .fini = teardown)
{
	struct ev_contra_why why;

	/* numbers, and opposites not in the list */
	cr_assert_eq(contra("Client secrets must be rotated every 30 days.",
	    "Client secrets must be rotated every 90 days.", &why), 0);
	cr_assert_eq(contra("During an inspection, smoke agitates the bees.",
	    "Smoke calms the bees during an inspection.", &why), 0);
}
