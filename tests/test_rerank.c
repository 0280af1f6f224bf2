/* test_rerank.c: lib/merge/rerank.c -- the feature maths (sequential
 * dependence windows, the best passage, BM25), the lanes' features read from
 * a hit, and the order reranked hits are written in. */
#include <math.h>
#include <criterion/criterion.h>

#include "jsonl.h"
#include "rerank.h"

Test(rerank, ordered_pairs_count_the_words_side_by_side_in_query_order)
{
	/* "a b" twice, "b a" once: only a-then-b counts */
	int toks[] = { 0, 1, -1, 0, 1, -1, 1, 0 };
	double idf[] = { 1, 3 };

	cr_assert_float_eq(ev_rerank_pairs(toks, 8, idf, 2, 0), log(3) * 2, 1e-12);
	/* the pair (b, c) of a three-word query is not there */
	cr_assert_float_eq(ev_rerank_pairs(toks, 8, (double[]){ 1, 3, 5 }, 3, 0), log(3) * 2, 1e-12);
	cr_assert_float_eq(ev_rerank_pairs(toks, 0, idf, 2, 0), 0, 1e-12);
}

Test(rerank, unordered_pairs_count_either_order_within_the_window)
{
	/* a at 2 with b 2 before it; a at 9 with no b within 7 */
	int toks[] = { 1, -1, 0, -1, -1, -1, -1, -1, -1, 0 };
	double idf[] = { 2, 2 };

	cr_assert_float_eq(ev_rerank_pairs(toks, 10, idf, 2, 8), log(2) * 2, 1e-12);
	/* a window of 2 holds only neighbours: b is 2 away */
	cr_assert_float_eq(ev_rerank_pairs(toks, 10, idf, 2, 2), 0, 1e-12);
	cr_assert_float_eq(ev_rerank_pairs(toks, 10, idf, 2, 3), log(2) * 2, 1e-12);
}

Test(rerank, the_best_passage_is_the_largest_share_of_idf_in_a_window)
{
	int toks[] = { 0, -1, -1, 1, -1, 2 };
	double idf[] = { 1, 1, 2 };

	/* windows of 3: {a}, {b}, {b}, {b, c} = 3 of 4 */
	cr_assert_float_eq(ev_rerank_passage(toks, 6, idf, 3, 3), 0.75, 1e-12);
	cr_assert_float_eq(ev_rerank_passage(toks, 6, idf, 3, 6), 1, 1e-12);
	cr_assert_float_eq(ev_rerank_passage(toks, 6, idf, 3, 1), 0.5, 1e-12);
	/* a repeated word counts once */
	cr_assert_float_eq(ev_rerank_passage((int[]){ 2, 2, 2 }, 3, idf, 3, 3), 0.5, 1e-12);
	cr_assert_float_eq(ev_rerank_passage(toks, 6, idf, 0, 3), 0, 1e-12);
}

Test(rerank, bm25_saturates_and_normalises_length)
{
	double idf[] = { 2, 1 };

	/* tf 1 at the mean length: idf x (k1 + 1) / (1 + k1) */
	cr_assert_float_eq(ev_rerank_bm25((int[]){ 1, 0 }, idf, 2, 10, 10), 2, 1e-12);
	/* tf 2 in a text twice the mean: 2 x 2.2 x 2 / (2 + 1.2 x 1.75) */
	cr_assert_float_eq(ev_rerank_bm25((int[]){ 2, 0 }, idf, 2, 20, 10),
	    2 * 2.2 * 2 / (2 + 1.2 * 1.75), 1e-12);
	cr_assert_float_eq(ev_rerank_bm25((int[]){ 1, 1 }, idf, 2, 10, 10), 3, 1e-12);
	cr_assert_float_eq(ev_rerank_bm25((int[]){ 0, 0 }, idf, 2, 10, 10), 0, 1e-12);
}

Test(rerank, features_have_names_and_a_linear_score)
{
	double w[EV_RF_COUNT] = { 0 }, f[EV_RF_COUNT] = { 0 };

	cr_assert_eq(ev_rerank_feature_index("bm25", 4), EV_RF_BM25);
	cr_assert_eq(ev_rerank_feature_index("vector_rank", 11), EV_RF_VECTOR_RANK);
	cr_assert_eq(ev_rerank_feature_index("bm2", 3), -1);
	w[EV_RF_INCOMING] = 1;
	w[EV_RF_TITLE] = 0.5;
	f[EV_RF_INCOMING] = 0.4;
	f[EV_RF_TITLE] = 1;
	f[EV_RF_LENGTH] = 7;
	cr_assert_float_eq(ev_rerank_combine(w, f), 0.9, 1e-12);
}

static json_t *
hits_of(const char *jsonl)
{
	json_t *a = json_array();
	const char *s = jsonl, *nl;
	struct ev_err err = { 0 };

	while ((nl = strchr(s, '\n')) != NULL) {
		json_array_append_new(a, ev_json_parse_line(s, (size_t)(nl - s), "t", &err));
		s = nl + 1;
	}
	return a;
}

Test(rerank, lane_features_come_from_the_fusion_explain_or_the_signals)
{
	struct ev_rerank_opts o;
	struct ev_err err = { 0 };
	struct ev_rerank *rr;
	long missing = 0;
	double f[3 * EV_RF_COUNT];
	json_t *hits = hits_of(
	    "{\"id\":\"a\",\"score\":2,\"explain\":{\"lanes\":[{\"lane\":\"text\",\"found\":true,"
	    "\"rank\":1,\"score\":9},{\"lane\":\"vector\",\"found\":true,\"rank\":3,\"score\":0.8}]}}\n"
	    "{\"id\":\"b\",\"score\":1,\"signals\":{\"fts_rank\":3,\"vector_score\":0.4,\"vector_rank\":7}}\n"
	    "{\"id\":\"c\",\"score\":0,\"lane\":\"text\",\"rank\":2}\n");

	ev_rerank_opts_init(&o);
	rr = ev_rerank_open(NULL, &o, &err);
	cr_assert_not_null(rr);
	cr_assert_eq(ev_rerank_features(rr, hits, 3, f, &missing, &err), 0);
	cr_assert_float_eq(f[EV_RF_INCOMING], 1, 1e-12);
	cr_assert_float_eq(f[EV_RF_COUNT + EV_RF_INCOMING], 0.5, 1e-12);
	cr_assert_float_eq(f[EV_RF_TEXT_RANK], 1, 1e-12);
	cr_assert_float_eq(f[EV_RF_VECTOR_RANK], 0.5, 1e-12);
	cr_assert_float_eq(f[EV_RF_VECTOR], 1, 1e-12);	/* the best cosine */
	cr_assert_float_eq(f[EV_RF_COUNT + EV_RF_TEXT_RANK], 0.5, 1e-12);
	cr_assert_float_eq(f[EV_RF_COUNT + EV_RF_VECTOR], 0.5, 1e-12);
	cr_assert_float_eq(f[EV_RF_COUNT + EV_RF_VECTOR_RANK], 1 / 3.0, 1e-12);
	cr_assert_float_eq(f[2 * EV_RF_COUNT + EV_RF_TEXT_RANK], 1 / log2(3), 1e-12);
	cr_assert_float_eq(f[2 * EV_RF_COUNT + EV_RF_VECTOR], 0, 1e-12);
	cr_assert_float_eq(f[2 * EV_RF_COUNT + EV_RF_VECTOR_RANK], 0, 1e-12);
	ev_rerank_close(rr);
	json_decref(hits);
}

/* ev_rerank_apply() with the default options to hits, the first n
 * reranked by scores (NULL: none, for the reason why), read back. */
static json_t *
applied(json_t *hits, size_t n, const double *scores, const char *why)
{
	struct ev_rerank_opts o;
	struct ev_err err = { 0 };
	struct ev_buf out = EV_BUF_INIT;
	struct ev_rerank *rr;
	json_t *got;

	ev_rerank_opts_init(&o);
	cr_assert_not_null(rr = ev_rerank_open(NULL, &o, &err), "%s", err.msg);
	cr_assert_eq(ev_rerank_apply(rr, hits, n, scores, why, &out, &err), 0, "%s", err.msg);
	got = hits_of(out.p);
	ev_buf_release(&out);
	ev_rerank_close(rr);
	return got;
}

Test(rerank, given_scores_reorder_the_top_with_ties_by_id_and_the_rest_below)
{
	json_t *hits = hits_of("{\"id\":\"z\",\"score\":9,\"rank\":1}\n"
	    "{\"id\":\"y\",\"score\":8,\"rank\":2}\n"
	    "{\"id\":\"x\",\"score\":7,\"rank\":3}\n"
	    "{\"id\":\"w\",\"score\":6,\"rank\":4}\n"
	    "{\"id\":\"v\",\"score\":5,\"rank\":5}\n");
	double scores[] = { 1, 3, 3 };
	json_t *got = applied(hits, 3, scores, NULL);

	cr_assert_eq(json_array_size(got), 5);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(got, 0), "id")), "x");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(got, 1), "id")), "y");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(got, 2), "id")), "z");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(got, 3), "id")), "w");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(got, 4), "id")), "v");
	for (size_t i = 0; i < 5; i++) {
		json_t *h = json_array_get(got, i);

		cr_assert_eq(json_integer_value(json_object_get(h, "rank")), (json_int_t)i + 1);
		if (i > 0)
			cr_assert(json_number_value(json_object_get(h, "score")) <
			    json_number_value(json_object_get(json_array_get(got, i - 1), "score")) ||
			    i == 1);
		cr_assert_str_eq(json_string_value(json_object_get(json_object_get(h, "rerank"),
		    "model")), EV_RERANK_MODEL);
	}
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(json_object_get(
	    json_array_get(got, 0), "explain"), "rerank"), "incoming_rank")), 3);
	cr_assert(json_is_false(json_object_get(json_object_get(json_object_get(
	    json_array_get(got, 4), "explain"), "rerank"), "reranked")));
	json_decref(got);
	json_decref(hits);
}

Test(rerank, without_scores_the_incoming_order_stays_and_each_hit_says_why)
{
	struct ev_err err = { 0 };
	json_t *hits = hits_of("{\"id\":\"b\",\"score\":2,\"rank\":2,\"warnings\":[\"old\"]}\n"
	    "{\"id\":\"a\",\"score\":3,\"rank\":1}\n"), *got, *w;

	cr_assert_eq(ev_rerank_incoming(hits, &err), 0);
	got = applied(hits, 2, NULL, "it failed");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(got, 0), "id")), "a");
	cr_assert_float_eq(json_number_value(json_object_get(json_array_get(got, 0), "score")), 3,
	    1e-12);
	w = json_object_get(json_array_get(got, 1), "warnings");
	cr_assert_eq(json_array_size(w), 2);
	cr_assert_str_eq(json_string_value(json_array_get(w, 1)), "it failed");
	json_decref(got);
	json_decref(hits);
}

/* The scores of a query left in its incoming order never rise with rank,
 * and each hit's explanation says it was not reranked, with what it had. */
Test(rerank, without_scores_a_score_above_the_one_before_it_is_lowered)
{
	json_t *hits = hits_of("{\"id\":\"a\",\"score\":1,\"rank\":1}\n"
	    "{\"id\":\"b\",\"score\":5,\"rank\":2}\n"
	    "{\"id\":\"c\",\"score\":0.5,\"rank\":3}\n"), *got, *ex;
	double want[] = { 1, 1, 0.5 };

	got = applied(hits, 3, NULL, NULL);
	cr_assert_eq(json_array_size(got), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *h = json_array_get(got, i);

		cr_assert_eq(json_integer_value(json_object_get(h, "rank")), (json_int_t)i + 1);
		cr_assert_float_eq(json_number_value(json_object_get(h, "score")), want[i], 1e-12);
	}
	ex = json_object_get(json_object_get(json_array_get(got, 1), "explain"), "rerank");
	cr_assert(json_is_false(json_object_get(ex, "reranked")));
	cr_assert_eq(json_integer_value(json_object_get(ex, "incoming_rank")), 2);
	cr_assert_float_eq(json_number_value(json_object_get(ex, "incoming_score")), 5, 1e-12);
	cr_assert_null(json_object_get(json_array_get(got, 0), "warnings"));
	json_decref(got);
	json_decref(hits);
}
