/* Tests of lib/judge/tune.c: the fold split, the selection, the cross-validated
 * figures, metric names, and the plan written and read back. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "jsonl.h"
#include "rerankfit.h"
#include "test_util.h"
#include "tune.h"

Test(tune, folds_deal_every_item_into_folds_of_equal_size)
{
	int fold[23], size[5] = { 0 };

	ev_tune_folds(23, 5, 7, fold);
	for (int i = 0; i < 23; i++) {
		cr_assert(fold[i] >= 0 && fold[i] < 5);
		size[fold[i]]++;
	}
	/* 23 = 5 + 5 + 5 + 4 + 4 */
	for (int f = 0; f < 5; f++)
		cr_assert(size[f] == (f < 3 ? 5 : 4), "fold %d has %d", f, size[f]);
}

Test(tune, folds_are_the_same_for_the_same_seed_and_differ_for_another)
{
	int a[40], b[40], c[40], same = 1, shuffled = 0;

	ev_tune_folds(40, 4, 12345, a);
	ev_tune_folds(40, 4, 12345, b);
	ev_tune_folds(40, 4, 12346, c);
	cr_assert(memcmp(a, b, sizeof a) == 0);
	for (int i = 0; i < 40; i++) {
		same &= a[i] == c[i];
		shuffled |= a[i] != i % 4;
	}
	cr_assert(!same, "another seed gave the same folds");
	cr_assert(shuffled, "the folds are not shuffled");
}

/* Three trials, four queries: fig[c * 4 + q]. */
static const double fig[] = {
	0.5, 0.5, 0.5, 0.5,	/* 0: the defaults */
	0.9, 0.9, 0.1, 0.1,	/* 1: good on queries 0 and 1 */
	0.1, 0.1, 0.9, 0.9	/* 2: good on queries 2 and 3 */
};

Test(tune, select_takes_the_best_mean_over_the_queries_not_held_out)
{
	int fold[] = { 0, 0, 1, 1 };

	/* every query: all three means are 0.5, and the defaults win the tie */
	cr_assert_eq(ev_tune_select(fig, 3, 4, fold, -1), 0);
	/* fold 1 held out: queries 0 and 1 count, trial 1 is best */
	cr_assert_eq(ev_tune_select(fig, 3, 4, fold, 1), 1);
	cr_assert_eq(ev_tune_select(fig, 3, 4, fold, 0), 2);
	/* only the trials judged count */
	cr_assert_eq(ev_tune_select(fig, 1, 4, fold, 1), 0);
}

Test(tune, cross_validation_reports_held_out_figures_never_the_fitted_one)
{
	int fold[] = { 0, 0, 1, 1 };
	struct ev_tune_result r;
	size_t best;

	memset(&r, 0, sizeof r);
	best = ev_tune_cross_validate(fig, 3, 4, fold, 2, &r);
	/* Fold 0 is judged by the choice of fold 1's queries (trial 2), which
	 * scores 0.1 on it; and the other way round: the tuning overfits, and
	 * the figure says so, below the defaults' 0.5. */
	cr_assert_eq(best, 0);
	cr_assert_float_eq(r.fold_tuned[0], 0.1, 1e-12);
	cr_assert_float_eq(r.fold_tuned[1], 0.1, 1e-12);
	cr_assert_float_eq(r.tuned, 0.1, 1e-12);
	cr_assert_float_eq(r.defaults, 0.5, 1e-12);
	cr_assert_float_eq(r.fold_defaults[1], 0.5, 1e-12);
	cr_assert_eq(r.fold_queries[0], 2);
	cr_assert_eq(r.folds, 2);
	cr_assert_eq(r.fold_agree, 0);
	/* what each fold chose: fold 0 held out, the others' queries 2 and 3
	 * pick trial 2; fold 1 held out, trial 1 */
	cr_assert_eq(r.fold_trial[0], 2);
	cr_assert_eq(r.fold_trial[1], 1);
}

Test(tune, cross_validation_credits_a_trial_better_everywhere)
{
	static const double f2[] = { 0.2, 0.4, 0.6, 0.3, 0.5, 0.7 };	/* 2 trials, 3 queries */
	int fold[] = { 0, 1, 2 };
	struct ev_tune_result r;

	memset(&r, 0, sizeof r);
	cr_assert_eq(ev_tune_cross_validate(f2, 2, 3, fold, 3, &r), 1);
	cr_assert_float_eq(r.tuned, 0.5, 1e-12);
	cr_assert_float_eq(r.defaults, 0.4, 1e-12);
	cr_assert_eq(r.fold_agree, 3);
}

Test(tune, metric_names_parse_as_ev_eval_prints_them)
{
	struct ev_tune_opts o = EV_TUNE_OPTS_INIT;
	char buf[32];

	cr_assert_str_eq(ev_tune_metric_name(&o, buf, sizeof buf), "ndcg@10");
	cr_assert_eq(ev_tune_metric_parse("ndcg@20", &o), 0);
	cr_assert_eq(o.eval.ndcg_k, 20);
	cr_assert_str_eq(ev_tune_metric_name(&o, buf, sizeof buf), "ndcg@20");
	cr_assert_eq(ev_tune_metric_parse("map", &o), 0);
	cr_assert_eq(o.metric, EV_TUNE_MAP);
	cr_assert_eq(ev_tune_metric_parse("recall@1000", &o), 0);
	cr_assert_str_eq(ev_tune_metric_name(&o, buf, sizeof buf), "recall@1000");
	cr_assert_eq(ev_tune_metric_parse("map@5", &o), -1);
	cr_assert_eq(ev_tune_metric_parse("ndcg@0", &o), -1);
	cr_assert_eq(ev_tune_metric_parse("ndcg@", &o), -1);
	cr_assert_eq(ev_tune_metric_parse("bleu", &o), -1);
}

static struct ev_tune_trial
a_trial(void)
{
	struct ev_tune_trial t = { .text = EV_TEXTSEARCH_OPTS_INIT, .vector_k = 50, .fused = 1 };
	struct ev_err err;

	ev_fuse_opts_init(&t.fuse);
	t.text.proximity = 0.4;
	t.text.feedback_docs = 0;
	t.text.w_title = 1;
	t.fuse.method = EV_FUSE_WEIGHTED;
	t.fuse.norm = EV_NORM_ZSCORE;
	cr_assert_eq(ev_fuse_weight_set(&t.fuse, "vector", 0.7, &err), 0);
	cr_assert_eq(ev_fuse_weight_set(&t.fuse, "text", 0.3, &err), 0);
	return t;
}

Test(tune, a_written_plan_reads_back_as_the_same_trial)
{
	struct ev_tune_trial t = a_trial(), back = { .text = EV_TEXTSEARCH_OPTS_INIT };
	struct ev_buf b = EV_BUF_INIT;
	struct ev_err err = { 0 };
	json_t *plan;

	ev_fuse_opts_init(&back.fuse);
	cr_assert_eq(ev_tune_plan_write(&b, NULL, &t, "# a header\n", &err), 0);
	cr_assert(strncmp(b.p, "# a header\nversion: \"0.1\"\n", 26) == 0, "%s", ev_buf_str(&b));
	plan = ev_config_parse(b.p, b.len, "plan", &err);
	cr_assert_not_null(plan, "%s", err.msg);
	cr_assert_eq(ev_tune_plan_read(plan, "plan", &back, &err), 0, "%s", err.msg);
	cr_assert_float_eq(back.text.proximity, 0.4, 0);
	cr_assert_eq(back.text.feedback_docs, 0);
	cr_assert_float_eq(back.text.w_title, 1, 0);
	cr_assert_eq(back.vector_k, 50);
	cr_assert_eq(back.fuse.method, EV_FUSE_WEIGHTED);
	cr_assert_eq(back.fuse.norm, EV_NORM_ZSCORE);
	cr_assert_float_eq(ev_fuse_weight_get(&back.fuse, "vector"), 0.7, 0);
	cr_assert_float_eq(ev_fuse_weight_get(&back.fuse, "text"), 0.3, 0);
	/* ev-pack's presentation defaults make the plan complete */
	cr_assert_eq(json_integer_value(ev_config_get(plan, "k")), 10);
	cr_assert(json_is_true(ev_config_get(plan, "diversity.near_duplicates")));
	json_decref(plan);
	ev_buf_release(&b);
}

Test(tune, a_trial_is_described_by_what_the_grid_varies)
{
	struct ev_tune_trial t = a_trial();
	struct ev_buf b = EV_BUF_INIT;

	/* the section title keeps the lane's default weight, 4: after a slash */
	cr_assert_eq(ev_tune_describe(&b, &t), 0);
	cr_assert_str_eq(ev_buf_str(&b),
	    "proximity 0.4, feedback 0, titles 1/4; weighted zscore, vector 0.7, text 0.3");
	ev_buf_reset(&b);
	t.text.feedback_docs = 10;
	t.text.feedback_terms = 20;
	t.text.feedback_weight = 0.3;
	t.text.w_section = 2.5;
	t.fuse.method = EV_FUSE_RRF;
	t.fuse.rrf_k = 20;
	t.fused = 0;
	cr_assert_eq(ev_tune_describe(&b, &t), 0);
	cr_assert_str_eq(ev_buf_str(&b), "proximity 0.4, feedback 10/20/0.3, titles 1/2.5");
	ev_buf_reset(&b);
	t.fused = 1;
	cr_assert_eq(ev_tune_describe(&b, &t), 0);
	cr_assert_str_eq(ev_buf_str(&b),
	    "proximity 0.4, feedback 10/20/0.3, titles 1/2.5; rrf k 20, vector 0.7, text 0.3");
	ev_buf_release(&b);
}

Test(tune, a_written_plan_keeps_the_input_plans_other_keys_in_order)
{
	static const char in[] = "version: \"0.1\"\nk: 5\nlanes:\n  text:\n    k: 30\n"
		"  region: {}\nfusion:\n  method: rrf\n  explain: false\nnote: \"a: b\"\n";
	struct ev_tune_trial t = a_trial();
	struct ev_buf b = EV_BUF_INIT;
	struct ev_err err = { 0 };
	json_t *base = ev_config_parse(in, sizeof in - 1, "in", &err), *out;

	cr_assert_not_null(base);
	t.text.k = 30;
	cr_assert_eq(ev_tune_plan_write(&b, base, &t, NULL, &err), 0);
	cr_assert(strncmp(b.p, "version: \"0.1\"\nk: 5\nlanes:\n  text:\n    k: 30\n", 44) == 0,
	    "%s", ev_buf_str(&b));
	out = ev_config_parse(b.p, b.len, "out", &err);
	cr_assert_not_null(out, "%s: %s", err.msg, ev_buf_str(&b));
	cr_assert(json_is_false(ev_config_get(out, "fusion.explain")));
	cr_assert_str_eq(json_string_value(ev_config_get(out, "fusion.method")), "weighted");
	cr_assert_str_eq(json_string_value(ev_config_get(out, "note")), "a: b");
	cr_assert(json_is_object(ev_config_get(out, "lanes.region")));
	json_decref(base);
	json_decref(out);
	ev_buf_release(&b);
}

Test(tune, a_bad_plan_value_is_refused_with_its_key)
{
	static const char in[] = "lanes:\n  text:\n    proximity: 11\n";
	struct ev_tune_trial t = a_trial();
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(in, sizeof in - 1, "p.yaml", &err);

	cr_assert_eq(ev_tune_plan_read(plan, "p.yaml", &t, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert(strstr(err.msg, "lanes.text.proximity") != NULL, "%s", err.msg);
	json_decref(plan);
}

/* ev-search-text reads lanes.text.feedback as a count or as a mapping of
 * docs, terms, weight and focus; ev-tune reads both alike, and writes the
 * tuned feedback back in the plan's form. */
Test(tune, the_feedback_mapping_ev_search_text_accepts_is_read_and_kept)
{
	static const char in[] = "lanes:\n  text:\n    feedback:\n      docs: 7\n      terms: 12\n"
		"      weight: 0.25\n      focus: 2\n";
	struct ev_tune_trial t = a_trial();
	struct ev_buf b = EV_BUF_INIT;
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(in, sizeof in - 1, "p.yaml", &err), *out;

	cr_assert_not_null(plan, "%s", err.msg);
	cr_assert_eq(ev_tune_plan_read(plan, "p.yaml", &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.text.feedback_docs, 7);
	cr_assert_eq(t.text.feedback_terms, 12);
	cr_assert_float_eq(t.text.feedback_weight, 0.25, 0);
	cr_assert_float_eq(t.text.feedback_focus, 2, 0);
	t.text.feedback_docs = 20;
	cr_assert_eq(ev_tune_plan_write(&b, plan, &t, NULL, &err), 0);
	out = ev_config_parse(b.p, b.len, "out", &err);
	cr_assert_not_null(out, "%s: %s", err.msg, ev_buf_str(&b));
	cr_assert_eq(json_integer_value(ev_config_get(out, "lanes.text.feedback.docs")), 20);
	cr_assert_float_eq(json_number_value(ev_config_get(out, "lanes.text.feedback.focus")), 2, 0);
	cr_assert_null(ev_config_get(out, "lanes.text.feedback_terms"), "%s", ev_buf_str(&b));
	json_decref(plan);
	json_decref(out);
	ev_buf_release(&b);
}

Test(tune, a_bad_value_in_the_feedback_mapping_is_refused_with_its_key)
{
	static const char in[] = "lanes:\n  text:\n    feedback:\n      docs: 1001\n";
	struct ev_tune_trial t = a_trial();
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(in, sizeof in - 1, "p.yaml", &err);

	cr_assert_eq(ev_tune_plan_read(plan, "p.yaml", &t, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert(strstr(err.msg, "lanes.text.feedback.docs") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "0 to 1000") != NULL, "%s", err.msg);
	json_decref(plan);
}

Test(tune, the_plans_adaptive_weights_and_floors_are_read_as_ev_fuse_reads_them)
{
	static const char in[] = "fusion:\n  adapt: agreement\n  anchor: bm\n"
		"  agreement_depth: 5\n  agreement_full: 0.6\n  floor:\n    bm: zero\n";
	struct ev_tune_trial t = a_trial();
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(in, sizeof in - 1, "p.yaml", &err);

	cr_assert_eq(ev_tune_plan_read(plan, "p.yaml", &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.fuse.adapt, EV_ADAPT_AGREEMENT);
	cr_assert_str_eq(t.fuse.anchor, "bm");
	cr_assert_eq(t.fuse.agree_depth, 5);
	cr_assert_float_eq(t.fuse.agree_full, 0.6, 0);
	cr_assert_eq(ev_fuse_floor_get(&t.fuse, "bm"), EV_FLOOR_ZERO);
	cr_assert_eq(ev_fuse_floor_get(&t.fuse, "vector"), EV_FLOOR_NORM);
	json_decref(plan);
}

/* The fusion's keys are read through the plan schema, with ev-fuse's own
 * messages; every key of ev-fuse's is checked, those a trial does not hold
 * (k, explain) too. */
Test(tune, a_bad_floor_or_adapt_in_the_plan_is_refused_with_its_key)
{
	static const char *const bad[][2] = {
		{ "fusion:\n  floor:\n    text: low\n",
		  "'fusion.floor.text': floor in 'text=low' must be zero or norm" },
		{ "fusion:\n  floor: zero\n", "'fusion.floor' must be a mapping of names to values" },
		{ "fusion:\n  adapt: always\n", "'fusion.adapt' must be none or agreement: 'always'" },
		{ "fusion:\n  method: merge\n",
		  "'fusion.method': ev-tune tunes rrf, weighted, combsum or combmnz, not 'merge'" },
		{ "fusion:\n  normalization: l2\n",
		  "'fusion.normalization' must be none, max, minmax or zscore: 'l2'" },
		{ "fusion:\n  weights:\n    text: [1]\n", "'fusion.weights.text' must be a single value" },
		{ "fusion:\n  k: many\n", "'fusion.k' must be a whole number from 1 to 1000000000" },
		{ "fusion:\n  explain: 3\n", "'fusion.explain' must be true or false" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ev_tune_trial t = a_trial();
		struct ev_err err = { 0 };
		json_t *plan = ev_config_parse(bad[i][0], strlen(bad[i][0]), "p.yaml", &err);

		cr_assert_not_null(plan, "%s", err.msg);
		cr_assert_eq(ev_tune_plan_read(plan, "p.yaml", &t, &err), -1);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.msg, bad[i][1]);
		json_decref(plan);
	}
}

/* Every key of the text lane that ev-search-text reads from a plan, ev-tune
 * reads too, so that its trials search as the lane will: BM25's k1 and b,
 * long_query, fuzzy_expansions and drop_request_words were passed over. */
Test(tune, the_text_lane_s_keys_are_read_as_ev_search_text_reads_them)
{
	static const char in[] = "lanes:\n  text:\n    bm25: {k1: 1.5, b: 0.4}\n    long_query: 10\n"
		"    fuzzy_expansions: 3\n    drop_request_words: false\n";
	struct ev_tune_trial t = a_trial();
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(in, sizeof in - 1, "p.yaml", &err);

	cr_assert_not_null(plan, "%s", err.msg);
	cr_assert_eq(ev_tune_plan_read(plan, "p.yaml", &t, &err), 0, "%s", err.msg);
	cr_assert_float_eq(t.text.k1, 1.5, 0);
	cr_assert_float_eq(t.text.b, 0.4, 0);
	cr_assert_eq(t.text.long_query, 10);
	cr_assert_eq(t.text.fuzzy_expansions, 3);
	cr_assert_eq(t.text.drop_request_words, 0);
	json_decref(plan);
}

/* ev-tune's queries: each checked as a query record; a bad one ends the
 * reading naming file and line, unless the caller's skip says to skip it. */
static int
skip_all(void *ctx, struct ev_err *err)
{
	(*(int *)ctx)++;
	return err->code == EV_EXIT_USAGE;
}

Test(tune, queries_are_read_as_query_records_and_bad_ones_skipped_when_asked)
{
	static const char in[] = "{\"query_id\":\"a\",\"query\":\"bees\"}\n{\"query_id\":\"b\"}\n"
		"{\"query_id\":\"c\",\"query\":\"mites\"}\n";
	char path[] = "/tmp/test_tune_XXXXXX.jsonl";
	char *paths[] = { path };
	struct ev_err err = { 0 };
	struct ev_jsonl *in_f;
	json_t *q;
	int skipped = 0;

	tu_tmpfile(path, 6, in, sizeof in - 1);
	cr_assert_not_null(in_f = ev_jsonl_open(paths, 1, &err));
	cr_assert_null(ev_tune_read_queries(in_f, NULL, NULL, &err));
	cr_assert_eq(err.code, 2);
	cr_assert(strstr(err.where, ":2") != NULL, "%s", err.where);
	ev_jsonl_close(in_f);
	ev_err_clear(&err);
	cr_assert_not_null(in_f = ev_jsonl_open(paths, 1, &err));
	cr_assert_not_null(q = ev_tune_read_queries(in_f, skip_all, &skipped, &err), "%s", err.msg);
	cr_assert_eq(skipped, 1);
	cr_assert_eq(json_array_size(q), 2);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(q, 1), "query")), "mites");
	json_decref(q);
	ev_jsonl_close(in_f);
	unlink(path);
}

/* ev-tune --rerank: no hits, or a hit without the reranker's features, is
 * refused with code 2, and nothing is written. */
Test(tune, a_rerank_fit_refuses_no_hits_and_hits_without_features)
{
	static const char *const input[][2] = {
		{ "", "no hits to fit the reranker to (give the hits ev-rerank writes)" },
		{ "{\"query_id\":\"q\",\"id\":\"c1\",\"doc_id\":\"d\",\"rank\":1,"
		  "\"score\":1,\"lane\":\"text\"}\n", NULL },
	};

	for (size_t i = 0; i < sizeof input / sizeof input[0]; i++) {
		char path[] = "/tmp/test_tune_XXXXXX.jsonl";
		char *paths[] = { path };
		struct ev_tune_opts o = EV_TUNE_OPTS_INIT;
		struct ev_buf out = EV_BUF_INIT, note = EV_BUF_INIT;
		struct ev_err err = { 0 };
		struct ev_qrels *q = ev_qrels_new(&err);
		struct ev_jsonl *in;
		size_t unjudged = 0;

		tu_tmpfile(path, 6, input[i][0], strlen(input[i][0]));
		cr_assert_not_null(in = ev_jsonl_open(paths, 1, &err));
		cr_assert_eq(ev_rerank_fit_hits(in, q, "q.txt", NULL, &o, &out, &note, &unjudged,
		    &err), -1);
		cr_assert_eq(err.code, 2);
		if (input[i][1] != NULL)
			cr_assert_str_eq(err.msg, input[i][1]);
		else
			cr_assert(strstr(err.where, ":1") != NULL, "%s: %s", err.where, err.msg);
		cr_assert_eq(out.len, 0);
		ev_jsonl_close(in);
		ev_qrels_free(q);
		ev_buf_release(&out);
		ev_buf_release(&note);
		unlink(path);
	}
}

/* A lane's weight given as a string ("0.5") is read as ev-fuse reads it:
 * ev-tune refused what ev-fuse accepts. */
Test(tune, the_fusion_s_mappings_are_read_as_ev_fuse_reads_them)
{
	static const char in[] = "fusion:\n  weights: {text: \"0.25\", vector: 2}\n"
		"  group: doc\n  normalization: minmax\n  anchor: vector\n";
	struct ev_tune_trial t = a_trial();
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(in, sizeof in - 1, "p.yaml", &err);

	cr_assert_not_null(plan, "%s", err.msg);
	cr_assert_eq(ev_tune_plan_read(plan, "p.yaml", &t, &err), 0, "%s", err.msg);
	cr_assert_float_eq(ev_fuse_weight_get(&t.fuse, "text"), 0.25, 0);
	cr_assert_float_eq(ev_fuse_weight_get(&t.fuse, "vector"), 2, 0);
	cr_assert_eq(t.fuse.group, EV_GROUP_DOC);
	cr_assert_eq(t.fuse.norm, EV_NORM_MINMAX);
	cr_assert_str_eq(t.fuse.anchor, "vector");
	json_decref(plan);
}
