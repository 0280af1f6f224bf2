/* Tests of lib/merge/evidence.c: a candidate's evidence entries, with their
 * lanes' ranks and scores, merged without duplicates, in seed 000's order. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "evidence.h"

/* The compact JSON of v (freed by the caller). */
static char *
dump(const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));

	cr_assert_not_null(s);
	return s;
}

static json_t *
load(const char *text)
{
	json_t *v = json_loads(text, 0, NULL);

	cr_assert_not_null(v, "%s", text);
	return v;
}

static void
entries_are(const char *hit_text, long long query_index, const char *want)
{
	json_t *hit = load(hit_text), *got = ev_evidence_of_hit(hit, query_index);
	char *s;

	cr_assert_not_null(got);
	s = dump(got);
	cr_assert_str_eq(s, want);
	free(s);
	json_decref(got);
	json_decref(hit);
}

Test(evidence, entries_get_their_lanes_rank_and_score_from_the_signals)
{
	entries_are("{\"lane\":\"fused\",\"signals\":{\"fts_rank\":3,\"fts_score\":7.5,"
	    "\"vector_rank\":1,\"vector_score\":0.8},\"evidence\":[{\"lane\":\"text\","
	    "\"snippet\":\"s\"},{\"lane\":\"vector\",\"score\":0.81},{\"nolane\":1},7]}", -1,
	    "[{\"lane\":\"text\",\"rank\":3,\"score\":7.5,\"snippet\":\"s\"},"
	    "{\"lane\":\"vector\",\"rank\":1,\"score\":0.81}]");
	/* a hit of one lane: its own rank and score; the query it came from */
	entries_are("{\"lane\":\"timeline\",\"rank\":4,\"score\":0.2,\"evidence\":[{\"lane\":"
	    "\"timeline\",\"from\":\"a\",\"distance\":51.5}]}", 2,
	    "[{\"lane\":\"timeline\",\"rank\":4,\"score\":0.2,\"from\":\"a\",\"distance\":51.5,"
	    "\"query_index\":2}]");
}

Test(evidence, a_hit_without_evidence_has_an_entry_per_lane_that_found_it)
{
	entries_are("{\"lane\":\"vector\",\"rank\":2,\"score\":0.5}", -1,
	    "[{\"lane\":\"vector\",\"rank\":2,\"score\":0.5}]");
	entries_are("{\"lane\":\"fused\",\"explain\":{\"lanes\":[{\"lane\":\"text\",\"found\":true,"
	    "\"rank\":2,\"score\":3},{\"lane\":\"vector\",\"found\":false}]}}", -1,
	    "[{\"lane\":\"text\",\"rank\":2,\"score\":3}]");
	entries_are("{\"lane\":\"fused\",\"signals\":{\"fts_score\":3,\"vector_score\":0.4,"
	    "\"vector_rank\":9}}", -1,
	    "[{\"lane\":\"vector\",\"rank\":9,\"score\":0.4},{\"lane\":\"text\",\"score\":3}]");
}

Test(evidence, merged_without_duplicates_and_ordered_as_seed_000_ranks_lanes)
{
	json_t *a = load("[{\"lane\":\"link\",\"from\":\"x\",\"hops\":1},{\"lane\":\"text\",\"rank\":1},"
	    "{\"lane\":\"timeline\",\"distance\":2}]");
	json_t *b = load("[{\"lane\":\"text\",\"rank\":1},{\"lane\":\"region\",\"page\":2},"
	    "{\"lane\":\"vector_feedback\"},{\"lane\":\"vector\"},{\"lane\":\"visual\"},"
	    "{\"lane\":\"neighbour\",\"distance\":1}]");
	char *s;

	cr_assert_eq(ev_evidence_merge(a, b), 0);
	cr_assert_eq(json_array_size(a), 8);
	cr_assert_eq(ev_evidence_order(a), 0);
	s = dump(a);
	cr_assert_str_eq(s, "[{\"lane\":\"vector\"},{\"lane\":\"vector_feedback\"},"
	    "{\"lane\":\"text\",\"rank\":1},{\"lane\":\"region\",\"page\":2},{\"lane\":\"visual\"},"
	    "{\"lane\":\"timeline\",\"distance\":2},{\"lane\":\"link\",\"from\":\"x\",\"hops\":1},"
	    "{\"lane\":\"neighbour\",\"distance\":1}]");
	free(s);
	cr_assert_eq(ev_evidence_tag_query(a, 1), 0);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(a, 7), "query_index")), 1);
	json_decref(a);
	json_decref(b);
	cr_assert_eq(ev_evidence_lane_order("structured"), 6);
	cr_assert_eq(ev_evidence_lane_order(NULL), 6);
}
