/* test_eval.c: lib/judge/eval.c -- qrels parsing, run ordering, and every metric
 * against figures computed by hand (trec_eval's definitions). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "eval.h"
#include "test_util.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static struct ev_qrels *
qrels_of(const char *const *lines)
{
	struct ev_err err = { 0 };
	struct ev_qrels *q = ev_qrels_new(&err);
	int i;

	cr_assert_not_null(q);
	for (i = 0; lines[i]; i++)
		cr_assert_eq(ev_qrels_add_line(q, lines[i], strlen(lines[i]), "t", &err), 0,
		    "line %d: %s", i, err.msg);
	return q;
}

static void
add(struct ev_run *run, const char *q, const char *d, double rank, double score)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_run_add(run, q, d, rank > 0, rank, !isnan(score), score, "t", &err), 0,
	    "%s", err.msg);
}

/* Figures of the one query in q for the run, with opts. */
static struct ev_eval_figures
figures(struct ev_qrels *q, struct ev_run *run, const struct ev_eval_opts *o)
{
	struct ev_eval_summary s;
	struct ev_err err = { 0 };

	cr_assert_eq(ev_eval_measure(q, run, o, NULL, NULL, &s, &err), 0, "%s", err.msg);
	return s.mean;
}

/* The judgements used by most tests: q has d1 (3), d2 (1), d3 (0), d4 (2). */
static const char *const judged[] = { "q d1 3", "q d2 1", "q d3 0", "q d4 2", NULL };

/* Figures, with opts, of the run that ranks docs (NULL-terminated) 1, 2, ...
 * for the query q of judged. */
static struct ev_eval_figures
ranked(const char *const *docs, const struct ev_eval_opts *o)
{
	struct ev_qrels *q = qrels_of(judged);
	struct ev_run *run = ev_run_new(NULL);
	struct ev_eval_figures f;

	for (int i = 0; docs[i]; i++)
		add(run, "q", docs[i], i + 1, NAN);
	f = figures(q, run, o);
	ev_run_free(run);
	ev_qrels_free(q);
	return f;
}

/* The summary of run (then freed) against the judgements lines. */
static struct ev_eval_summary
measured(const char *const *lines, struct ev_run *run)
{
	struct ev_qrels *q = qrels_of(lines);
	struct ev_eval_summary s;
	struct ev_err err = { 0 };

	cr_assert_eq(ev_eval_measure(q, run, NULL, NULL, NULL, &s, &err), 0, "%s", err.msg);
	ev_run_free(run);
	ev_qrels_free(q);
	return s;
}

/* The error of adding the len bytes of line (at where) to q, which must
 * refuse it. */
static struct ev_err
refused(struct ev_qrels *q, const char *line, size_t len, const char *where)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_qrels_add_line(q, line, len, where, &err), -1, "%s accepted", where);
	return err;
}

/* Loading the qrels file path is refused as bad usage, at where, saying msg
 * (NULL: any message). */
static void
load_refused(const char *path, const char *where, const char *msg)
{
	struct ev_err err = { 0 };

	cr_assert_null(ev_qrels_load(path, &err));
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, where);
	if (msg != NULL)
		cr_assert_str_eq(err.msg, msg);
}

Test(eval, qrels_reads_three_and_four_column_lines)
{
	static const char *const lines[] = { "a d1 1", "b 0 d2 2", "c\tQ0\td3\t1", NULL };
	struct ev_qrels *q = qrels_of(lines);

	cr_assert_eq(ev_qrels_count(q), 3);
	ev_qrels_free(q);
}

Test(eval, qrels_skips_blank_and_comment_lines_and_a_final_cr)
{
	static const char *const lines[] = { "", "   ", "# a comment", "a d1 1\r", "a d2 1 \r", NULL };
	struct ev_qrels *q = qrels_of(lines);

	cr_assert_eq(ev_qrels_count(q), 1);
	ev_qrels_free(q);
}

Test(eval, qrels_line_of_two_or_five_fields_is_refused)
{
	struct ev_qrels *q = ev_qrels_new(NULL);
	struct ev_err err = refused(q, "a d1", 4, "f:3");

	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, "f:3");
	cr_assert_str_eq(err.msg, "expected 'QUERY_ID DOC_ID RELEVANCE' or 'QUERY_ID 0 DOC_ID "
	    "RELEVANCE', found 2 fields");
	cr_assert_str_eq(refused(q, "a 0 d1 1 x", 10, "f:4").msg, "expected 'QUERY_ID DOC_ID "
	    "RELEVANCE' or 'QUERY_ID 0 DOC_ID RELEVANCE', found more than 4 fields");
	ev_qrels_free(q);
}

Test(eval, qrels_relevance_must_be_an_integer)
{
	struct ev_err err = { 0 };
	struct ev_qrels *q = ev_qrels_new(&err);

	cr_assert_str_eq(refused(q, "a d1 1.0", 8, "f:1").msg, "relevance '1.0' is not an integer");
	cr_assert_str_eq(refused(q, "a d1 x", 6, "f:1").msg, "relevance 'x' is not an integer");
	cr_assert_eq(ev_qrels_add_line(q, "a d1 -1", 7, "f:1", &err), 0);
	ev_qrels_free(q);
}

Test(eval, qrels_same_pair_twice_is_accepted_only_with_the_same_relevance)
{
	struct ev_err err = { 0 };
	struct ev_qrels *q = ev_qrels_new(&err);

	cr_assert_eq(ev_qrels_add_line(q, "a d1 1", 6, "f:1", &err), 0);
	cr_assert_eq(ev_qrels_add_line(q, "a 0 d1 1", 8, "f:2", &err), 0);
	err = refused(q, "a d1 2", 6, "f:3");
	cr_assert_str_eq(err.where, "f:3");
	cr_assert_str_eq(err.msg,
	    "document 'd1' judged again for query 'a' with another relevance (1, then 2)");
	ev_qrels_free(q);
}

Test(eval, qrels_refuses_invalid_utf8_and_nul)
{
	struct ev_qrels *q = ev_qrels_new(NULL);

	cr_assert_str_eq(refused(q, "a d\xff 1", 6, "f:1").msg,
	    "qrels line is not valid UTF-8 text (or holds a NUL byte)");
	refused(q, "a d\0 1", 6, "f:1");
	ev_qrels_free(q);
}

Test(eval, qrels_load_names_the_file_and_line)
{
	char path[] = "/tmp/test_eval_qrels_XXXXXX";
	char want[128];

	tu_tmpfile(path, 0, "a d1 1\r\n\nb d2\n", 14);
	snprintf(want, sizeof want, "%s:3", path);
	load_refused(path, want, NULL);
	unlink(path);
}

/* Regression (finding F4): a missing qrels file exited 1. */
Test(eval, qrels_load_of_a_missing_file_is_bad_usage)
{
	load_refused("/nonexistent/qrels", "/nonexistent/qrels",
	    "cannot open qrels: No such file or directory");
}

/* Regression (finding F4): a directory read as "read error: Is a directory",
 * exit 1. */
Test(eval, qrels_load_of_a_directory_is_bad_usage)
{
	load_refused("/tmp", "/tmp", "cannot open qrels: Is a directory");
}

/* The UTF-8 check of qrels lines is evkit's own now (finding F14: Jansson's,
 * which allocates, took memory running out for bad text); it accepts and
 * refuses what Jansson did. */
Test(eval, qrels_lines_accept_valid_utf8_of_every_length)
{
	struct ev_qrels *q = ev_qrels_new(NULL);
	struct ev_err err = { 0 };
	static const char line[] = "q1 d\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 1";

	cr_assert_not_null(q);
	cr_assert_eq(ev_qrels_add_line(q, line, strlen(line), "f:1", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_qrels_count(q), 1);
	ev_qrels_free(q);
}

Test(eval, qrels_lines_refuse_overlong_surrogate_and_out_of_range_utf8)
{
	static const char *const bad[] = {
		"q1 d\xc0\xaf 1",		/* overlong '/' */
		"q1 d\xe0\x80\xaf 1",		/* overlong, 3 bytes */
		"q1 d\xed\xa0\x80 1",		/* surrogate U+D800 */
		"q1 d\xf4\x90\x80\x80 1",	/* U+110000 */
		"q1 d\xe2\x82 1",		/* truncated sequence */
		"q1 d\x80 1",			/* lone continuation byte */
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ev_qrels *q = ev_qrels_new(NULL);
		char where[16];
		struct ev_err err;

		snprintf(where, sizeof where, "line %zu", i);
		err = refused(q, bad[i], strlen(bad[i]), where);
		cr_assert_eq(err.code, EV_EXIT_USAGE);
		cr_assert_str_eq(err.msg, "qrels line is not valid UTF-8 text (or holds a NUL byte)");
		ev_qrels_free(q);
	}
}

Test(eval, qrels_load_of_a_file_without_judgements_is_bad_input)
{
	char path[] = "/tmp/test_eval_qrels_XXXXXX";
	struct ev_err err = { 0 };

	tu_tmpfile(path, 0, "# nothing\n\n", 11);
	cr_assert_null(ev_qrels_load(path, &err));
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "no judgements in the qrels file");
	unlink(path);
}

/* Ranking d3 (0), d1 (3), d9 (unjudged), d2 (1); d4 (2) missed.  Graded
 * gains, trec_eval 9.0.x's discount log2(r + 1) at every rank r:
 * DCG@10 = 0/log2(2) + 3/log2(3) + 0/log2(4) + 1/log2(5);
 * ideal 3, 2, 1 -> 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 2/log2(3) + 0.5. */
static const char *const d3_d1_d9_d2[] = { "d3", "d1", "d9", "d2", NULL };

Test(eval, ndcg_uses_graded_gains_and_trec_eval_discount)
{
	struct ev_eval_figures f = ranked(d3_d1_d9_d2, NULL);

	cr_assert(NEAR(f.ndcg, (3 / log2(3) + 1 / log2(5)) / (3 + 2 / log2(3) + 0.5)),
	    "ndcg %f", f.ndcg);
	/* AP: relevant at 2 (1/2) and 4 (2/4), over 3 relevant */
	cr_assert(NEAR(f.map, (0.5 + 0.5) / 3), "map %f", f.map);
	cr_assert(NEAR(f.recall, 2.0 / 3));
	cr_assert(NEAR(f.p, 0.2));
	cr_assert(NEAR(f.mrr, 0.5));
	cr_assert_eq(f.relevant, 3);
	cr_assert_eq(f.retrieved, 4);
	cr_assert_eq(f.relevant_retrieved, 2);
}

Test(eval, binary_gains_count_every_relevant_document_as_one)
{
	struct ev_eval_opts o = EV_EVAL_OPTS_INIT;
	struct ev_eval_figures f;

	o.binary = 1;
	f = ranked(d3_d1_d9_d2, &o);
	/* DCG = 1/log2(3) + 1/log2(5); ideal three ones: 1 + 1/log2(3) + 1/log2(4) */
	cr_assert(NEAR(f.ndcg, (1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3) + 0.5)),
	    "ndcg %f", f.ndcg);
}

Test(eval, level_raises_the_bar_for_relevant)
{
	struct ev_eval_opts o = EV_EVAL_OPTS_INIT;
	struct ev_eval_figures f;

	o.level = 2;	/* d1 (3) and d4 (2) relevant; d2 (1) not */
	f = ranked((const char *const[]){ "d2", "d4", NULL }, &o);
	cr_assert_eq(f.relevant, 2);
	cr_assert(NEAR(f.mrr, 0.5));
	cr_assert(NEAR(f.map, 0.5 / 2));
	/* DCG = 2/log2(3) (rank 2), ideal = 3/log2(2) + 2/log2(3) */
	cr_assert(NEAR(f.ndcg, (2 / log2(3)) / (3 + 2 / log2(3))), "ndcg %f", f.ndcg);
}

Test(eval, level_below_one_needs_binary_gains)
{
	struct ev_qrels *q = qrels_of(judged);
	struct ev_run *run = ev_run_new(NULL);
	struct ev_eval_opts o = EV_EVAL_OPTS_INIT;
	struct ev_eval_summary s;
	struct ev_err err = { 0 };

	o.level = 0;
	cr_assert_eq(ev_eval_measure(q, run, &o, NULL, NULL, &s, &err), -1);
	cr_assert_str_eq(err.msg, "a relevance level below 1 needs binary gains");
	o.binary = 1;
	cr_assert_eq(ev_eval_measure(q, run, &o, NULL, NULL, &s, &err), 0);
	cr_assert_eq(s.mean.relevant, 4);	/* d3 (0) now counts */
	ev_run_free(run);
	ev_qrels_free(q);
}

Test(eval, a_document_counts_once_at_its_best_rank)
{
	struct ev_qrels *q = qrels_of(judged);
	struct ev_run *run = ev_run_new(NULL);
	struct ev_eval_figures f;

	add(run, "q", "d9", 1, NAN);
	add(run, "q", "d1", 4, NAN);	/* a later chunk of d1 */
	add(run, "q", "d1", 2, NAN);
	add(run, "q", "d1", 3, NAN);
	add(run, "q", "d2", 5, NAN);	/* position 3 once d1's repeats go */
	f = figures(q, run, NULL);
	cr_assert_eq(f.retrieved, 3);
	cr_assert_eq(f.relevant_retrieved, 2);
	cr_assert(NEAR(f.map, (1.0 / 2 + 2.0 / 3) / 3), "map %f", f.map);
	/* d1 (3) at position 2, d2 (1) at position 3: the repeats take no place */
	cr_assert(NEAR(f.ndcg, (3 / log2(3) + 1 / log2(4)) / (3 + 2 / log2(3) + 0.5)),
	    "ndcg %f", f.ndcg);
	ev_run_free(run);
	ev_qrels_free(q);
}

Test(eval, ties_in_rank_go_by_score_then_arrival)
{
	static const char *const lines[] = { "a r 1", "b r 1", "c r 1", NULL };
	struct ev_run *run = ev_run_new(NULL);
	struct ev_eval_summary s;

	add(run, "a", "x", 1, 1.0);
	add(run, "a", "r", 1, 2.0);	/* higher score: first */
	add(run, "b", "x", 1, 5.0);
	add(run, "b", "r", 1, 5.0);	/* full tie: arrival, second */
	add(run, "c", "y", 0, 99.0);	/* no rank: last */
	add(run, "c", "r", 7, 0.0);
	s = measured(lines, run);
	cr_assert(NEAR(s.mean.mrr, (1 + 0.5 + 1) / 3), "mrr %f", s.mean.mrr);
	/* one relevant document each: nDCG 1, 1/log2(3), 1 */
	cr_assert(NEAR(s.mean.ndcg, (1 + 1 / log2(3) + 1) / 3), "ndcg %f", s.mean.ndcg);
}

Test(eval, a_judged_query_without_hits_scores_zero_and_unjudged_are_left_out)
{
	static const char *const lines[] = { "a r 1", "b r 1", NULL };
	struct ev_run *run = ev_run_new(NULL);
	struct ev_eval_summary s;

	add(run, "a", "r", 1, NAN);
	add(run, "z", "r", 1, NAN);
	s = measured(lines, run);
	cr_assert_eq(s.queries, 2);
	cr_assert_eq(s.queries_without_hits, 1);
	cr_assert_eq(s.unjudged_queries, 1);
	cr_assert_eq(s.hits, 2);
	cr_assert(NEAR(s.mean.ndcg, 0.5));
	cr_assert(NEAR(s.mean.map, 0.5));
	cr_assert(NEAR(s.mean.p, 0.05));
}

Test(eval, a_query_without_relevant_documents_scores_zero)
{
	static const char *const lines[] = { "a r 0", "b r 1", NULL };
	struct ev_run *run = ev_run_new(NULL);
	struct ev_eval_summary s;

	add(run, "a", "r", 1, NAN);
	add(run, "b", "r", 1, NAN);
	s = measured(lines, run);
	cr_assert_eq(s.queries, 2);
	cr_assert(NEAR(s.mean.ndcg, 0.5));
	cr_assert(NEAR(s.mean.recall, 0.5));
}

Test(eval, cutoffs_limit_ndcg_p_and_recall)
{
	struct ev_eval_opts o = EV_EVAL_OPTS_INIT;
	struct ev_eval_figures f;

	o.ndcg_k = 1;
	o.p_k = 2;
	o.recall_k = 3;
	f = ranked((const char *const[]){ "d9", "d1", "d8", "d4", NULL }, &o);
	cr_assert(NEAR(f.ndcg, 0));
	cr_assert(NEAR(f.p, 0.5));
	cr_assert(NEAR(f.recall, 1.0 / 3));
	cr_assert(NEAR(f.map, (1.0 / 2 + 2.0 / 4) / 3));	/* MAP has no cut-off */
}

static int
append_qid(const char *qid, const struct ev_eval_figures *f, void *ctx, struct ev_err *err)
{
	(void)f;
	(void)err;
	strcat(ctx, qid);
	return 0;
}

Test(eval, each_is_called_per_judged_query_in_qrels_order)
{
	static const char *const lines[] = { "b r 1", "a r 1", "b s 1", NULL };
	struct ev_qrels *q = qrels_of(lines);
	struct ev_run *run = ev_run_new(NULL);
	struct ev_eval_summary s;
	struct ev_err err = { 0 };
	char seen[16] = "";

	cr_assert_eq(ev_eval_measure(q, run, NULL, append_qid, seen, &s, &err), 0);
	cr_assert_str_eq(seen, "ba");
	ev_run_free(run);
	ev_qrels_free(q);
}

Test(eval, hit_records_are_checked)
{
	struct ev_run *run = ev_run_new(NULL);
	struct ev_err err = { 0 };
	json_t *h;

	h = json_loads("{\"query_id\":7,\"doc_id\":\"d\",\"rank\":1.0,\"score\":null}", 0, NULL);
	cr_assert_eq(ev_run_add_hit(run, h, "f:1", &err), 0, "%s", err.msg);
	json_decref(h);
	h = json_loads("{\"query_id\":\"q\",\"id\":\"d:0:0\"}", 0, NULL);
	cr_assert_eq(ev_run_add_hit(run, h, "f:2", &err), -1);
	cr_assert_str_eq(err.where, "f:2");
	cr_assert_str_eq(err.msg, "hit without 'doc_id'");
	json_decref(h);
	h = json_loads("{\"query_id\":\"q\",\"doc_id\":\"d\",\"rank\":\"1\"}", 0, NULL);
	cr_assert_eq(ev_run_add_hit(run, h, "f:3", &err), -1);
	cr_assert_str_eq(err.msg, "field 'rank' must be a number");
	json_decref(h);
	h = json_loads("{\"query_id\":\"q\",\"doc_id\":\"d\",\"rank\":2.5}", 0, NULL);
	cr_assert_eq(ev_run_add_hit(run, h, "f:4", &err), -1);
	cr_assert_str_eq(err.msg, "field 'rank' must be a whole number from 1");
	json_decref(h);
	h = json_loads("{\"query_id\":true,\"doc_id\":\"d\"}", 0, NULL);
	cr_assert_eq(ev_run_add_hit(run, h, "f:5", &err), -1);
	cr_assert_str_eq(err.msg, "field 'query_id' must be a string or an integer");
	json_decref(h);
	h = json_loads("[]", 0, NULL);
	cr_assert_eq(ev_run_add_hit(run, h, "f:6", &err), -1);
	cr_assert_str_eq(err.msg, "a hit record must be a JSON object");
	json_decref(h);
	ev_run_free(run);
}

Test(eval, integer_and_string_ids_match)
{
	static const char *const lines[] = { "7 12 1", NULL };
	struct ev_qrels *q = qrels_of(lines);
	struct ev_run *run = ev_run_new(NULL);
	struct ev_err err = { 0 };
	json_t *h = json_loads("{\"query_id\":7,\"doc_id\":12,\"rank\":1}", 0, NULL);

	cr_assert_eq(ev_run_add_hit(run, h, "f:1", &err), 0);
	cr_assert(NEAR(figures(q, run, NULL).mrr, 1));
	json_decref(h);
	ev_run_free(run);
	ev_qrels_free(q);
}

Test(eval, format_prints_four_decimals_and_names_the_cutoffs)
{
	struct ev_eval_summary s = { 0 };
	struct ev_eval_opts o = EV_EVAL_OPTS_INIT;
	struct ev_buf b = EV_BUF_INIT;
	struct ev_eval_figures f = { 0 };

	s.queries = 2;
	s.mean.ndcg = 2.0 / 3;
	s.mean.map = 0.123449;
	s.mean.recall = 1;
	s.mean.mrr = 0.5;
	s.mean.p = 0.05;
	s.mean.relevant = 4;
	s.hits = 9;
	o.ndcg_k = 5;
	cr_assert_eq(ev_eval_format(&b, NULL, NULL, &s, &o), 0);
	cr_assert_str_eq(ev_buf_str(&b), "{\"queries\":2,\"ndcg@5\":0.6667,\"map\":0.1234,"
	    "\"recall@100\":1.0000,\"mrr\":0.5000,\"p@10\":0.0500,\"relevant\":4,\"retrieved\":0,"
	    "\"relevant_retrieved\":0,\"queries_without_hits\":0,\"unjudged_queries\":0,\"hits\":9}");
	ev_buf_reset(&b);
	cr_assert_eq(ev_eval_format(&b, "q\"1", &f, NULL, &o), 0);
	cr_assert_str_eq(ev_buf_str(&b), "{\"query_id\":\"q\\\"1\",\"ndcg@5\":0.0000,\"map\":0.0000,"
	    "\"recall@100\":0.0000,\"mrr\":0.0000,\"p@10\":0.0000,\"relevant\":0,\"retrieved\":0,"
	    "\"relevant_retrieved\":0}");
	ev_buf_release(&b);
}

Test(eval, metric_names_are_those_printed_and_values_rounded)
{
	struct ev_eval_figures f = { .ndcg = 0.51234, .map = 0.41236, .recall = 0.7, .mrr = 0.9,
		.p = 0.3 };
	struct ev_eval_opts o = EV_EVAL_OPTS_INIT;
	double x;

	cr_assert_eq(ev_eval_metric(&f, &o, "ndcg@10", &x), 0);
	cr_assert(NEAR(x, 0.5123));
	cr_assert_eq(ev_eval_metric(&f, &o, "ndcg", &x), 0);
	cr_assert_eq(ev_eval_metric(&f, &o, "map", &x), 0);
	cr_assert(NEAR(x, 0.4124));
	cr_assert_eq(ev_eval_metric(&f, &o, "recall@100", &x), 0);
	cr_assert_eq(ev_eval_metric(&f, &o, "p@10", &x), 0);
	cr_assert_eq(ev_eval_metric(&f, &o, "mrr", &x), 0);
	cr_assert_eq(ev_eval_metric(&f, &o, "ndcg@5", &x), -1);
	cr_assert_eq(ev_eval_metric(&f, &o, "bleu", &x), -1);
}

Test(eval, trec_output_has_one_line_per_document_in_evaluated_order)
{
	struct ev_run *run = ev_run_new(NULL);
	struct ev_err err = { 0 };
	char buf[512] = "";
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	add(run, "q", "b", 2, 0.5);
	add(run, "q", "a", 1, 0.75);
	add(run, "q", "a", 3, 0.25);
	add(run, "p", "c", 0, NAN);
	cr_assert_eq(ev_run_write_trec(run, fp, "T", &err), 0);
	fclose(fp);
	cr_assert_str_eq(buf, "q Q0 a 1 0.75 T\nq Q0 b 2 0.5 T\np Q0 c 1 -1 T\n");
	ev_run_free(run);
}

Test(eval, frees_accept_null)
{
	ev_qrels_free(NULL);
	ev_run_free(NULL);
	cr_assert_eq(ev_qrels_count(NULL), 0);
}
