/* Tests of lib/lanes/vsearch.c: batches of query records searched in a real
 * Faiss index of a real store, and the hit records written. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "test_util.h"
#include "vindex.h"
#include "vload.h"
#include "vsearch.h"

static char dir[] = "/tmp/evkit-vsearch-XXXXXX";
static char db[256], idx[256];
static struct ev_store *st;
static struct ev_vindex *ix;
static char *out;
static size_t outlen;
static FILE *fp;
static char warned[1024];
static int skipped;

/* Close the output (when open) and free what it holds. */
static void
close_output(void)
{
	if (fp)
		fclose(fp);
	fp = NULL;
	free(out);
	out = NULL;
}

/* Start the output again, empty. */
static void
fresh_output(void)
{
	close_output();
	fp = open_memstream(&out, &outlen);
	cr_assert_not_null(fp);
}

/* Four chunks, "dD:s1:C", two per document, of unit vectors e0..e3 of 4
 * dimensions: chunk i points along axis i. */
static void
setup(void)
{
	static const char sql[] =
	    "INSERT INTO documents(doc_id, title, metadata, content_hash) VALUES"
	    " ('d1', 'One', '{\"topic\":\"odd\"}', 'h1'), ('d2', 'Two', '{\"topic\":\"even\"}', 'h2');"
	    "INSERT INTO chunks(id, doc_id, section_id, chunk_index, title, text, offset_start,"
	    " offset_end, content_hash) VALUES"
	    " ('d1:s1:0', 'd1', 's1', 0, 'One', 'wing flutter at speed', 0, 21, 'c0'),"
	    " ('d1:s1:1', 'd1', 's1', 1, 'One', 'boundary layer', 21, 35, 'c1'),"
	    " ('d2:s1:0', 'd2', 's1', 0, 'Two', 'heat transfer', 0, 13, 'c2'),"
	    " ('d2:s1:1', 'd2', 's1', 1, 'Two', 'shock waves', 13, 24, 'c3');";
	static const char *const ids[] = { "d1:s1:0", "d1:s1:1", "d2:s1:0", "d2:s1:1" };
	struct ev_err err = { 0 };
	struct ev_vload_opts lo = { 0 };
	struct ev_vload_stats stats;
	struct ev_vload *ld;

	tu_mkdir(dir, db, sizeof db);
	snprintf(idx, sizeof idx, "%s/kb.faiss", dir);
	st = tu_store_create(db, &err);
	cr_assert_eq(ev_store_exec(st, sql, &err), 0, "%s", err.msg);
	ld = ev_vload_begin(st, idx, &lo, &err);
	cr_assert_not_null(ld, "%s", err.msg);
	for (int i = 0; i < 4; i++) {
		float v[4] = { 0, 0, 0, 0 };

		v[i] = 1;
		if (i == 3)
			v[2] = 0.5f;	/* chunk 3 leans towards chunk 2 */
		cr_assert_eq(ev_vload_add(ld, ids[i], NULL, "m1", v, 4, "t", &err), 0, "%s", err.msg);
	}
	cr_assert_eq(ev_vload_commit(ld, &stats, &err), 0, "%s", err.msg);
	ev_vload_free(ld);
	ix = ev_vindex_open(st, idx, &err);
	cr_assert_not_null(ix, "%s", err.msg);
	fresh_output();
	warned[0] = '\0';
	skipped = 0;
}

static void
teardown(void)
{
	close_output();
	ev_vindex_close(ix);
	ev_store_close(st);
	tu_rmdir(dir);
}

TestSuite(vsearch, .init = setup, .fini = teardown);

static int
skip_all(void *ctx, struct ev_err *err)
{
	(void)ctx;
	cr_assert_eq(err->code, 2);
	skipped++;
	return 1;
}

static void
warn(void *ctx, const char *where, const char *what)
{
	(void)ctx;
	snprintf(warned + strlen(warned), sizeof warned - strlen(warned), "%s: %s\n", where, what);
}

static struct ev_vsearch *
searcher(int k, int snippet)
{
	struct ev_err err = { 0 };
	struct ev_vsearch_opts o = { .k = k, .snippet = snippet, .warn = warn };
	struct ev_vsearch *vs = ev_vsearch_new(st, ix, "kb.faiss", &o, fp, &err);

	cr_assert_not_null(vs, "%s", err.msg);
	return vs;
}

/* Add the query record given as JSON text; returns ev_vsearch_add()'s result. */
static int
add(struct ev_vsearch *vs, const char *json, size_t lineno, struct ev_err *err)
{
	json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
	char where[32];
	int r;

	cr_assert_not_null(v, "%s", json);
	snprintf(where, sizeof where, "q:%zu", lineno);
	r = ev_vsearch_add(vs, v, lineno, where, err);
	json_decref(v);
	return r;
}

/* The output so far, one parsed record per line, as a JSON array. */
static json_t *
hits(void)
{
	json_t *a = json_array();
	char *p, *nl;

	fflush(fp);
	for (p = out; p && *p; p = nl + 1) {
		json_t *v;

		nl = strchr(p, '\n');
		cr_assert_not_null(nl, "every hit ends its line");
		v = json_loadb(p, (size_t)(nl - p), 0, NULL);
		cr_assert_not_null(v, "%.*s", (int)(nl - p), p);
		json_array_append_new(a, v);
	}
	return a;
}

static const char *
str(const json_t *h, const char *key)
{
	return json_string_value(json_object_get(h, key));
}

Test(vsearch, a_batch_is_written_in_input_order_with_the_querys_fields)
{
	struct ev_vsearch *vs = searcher(2, 1);
	struct ev_err err = { 0 };
	json_t *h;

	cr_assert_eq(add(vs, "{\"query_id\":\"a\",\"query\":\"flutter\",\"vector\":[2,0,0,0],"
	    "\"model\":\"m1\",\"user\":7,\"rank\":99}", 1, &err), 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"vector\":[0,0,3,0]}", 2, &err), 0, "%s", err.msg);
	cr_assert_str_empty(out ? out : "", "nothing is written before the batch is searched");
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	h = hits();
	cr_assert_eq(json_array_size(h), 4);
	cr_assert_str_eq(str(json_array_get(h, 0), "query_id"), "a");
	cr_assert_str_eq(str(json_array_get(h, 0), "id"), "d1:s1:0");
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(h, 0), "user")), 7,
	    "the query's own fields pass through");
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(h, 0), "rank")), 1,
	    "a hit's own fields are its own");
	cr_assert_null(json_object_get(json_array_get(h, 0), "vector"));
	cr_assert_str_eq(str(json_array_get(h, 0), "snippet"), "wing \xc2\xab" "flutter\xc2\xbb at speed");
	cr_assert_str_eq(str(json_array_get(h, 0), "lane"), "vector");
	cr_assert_float_eq(json_number_value(json_object_get(json_array_get(h, 0), "score")), 1, 1e-6);
	/* the second query: no query_id, so its line number; its two best */
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(h, 2), "query_id")), 2);
	cr_assert_str_eq(str(json_array_get(h, 2), "id"), "d2:s1:0");
	cr_assert_str_eq(str(json_array_get(h, 3), "id"), "d2:s1:1");
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(h, 3), "rank")), 2);
	cr_assert_float_eq(json_number_value(json_object_get(json_object_get(json_array_get(h, 3),
	    "signals"), "vector_score")), 0.5 / sqrt(1.25), 1e-6);
	cr_assert_eq(ev_vsearch_hits(vs), 4);
	json_decref(h);
	ev_vsearch_free(vs);
}

Test(vsearch, the_batch_holds_fewer_queries_when_k_is_large)
{
	struct ev_vsearch *small = searcher(1, 0), *large = searcher(100000, 0);
	struct ev_err err = { 0 };
	int n = 0;

	cr_assert_eq(ev_vsearch_batch_max(small), EV_VSEARCH_BATCH_MAX);
	cr_assert_eq(ev_vsearch_batch_max(large), EV_VSEARCH_BATCH_CELLS / 100000);
	while (!ev_vsearch_full(large)) {
		cr_assert_eq(add(large, "[0]", 1, &err), -1, "a bare array is no query");
		cr_assert_eq(add(large, "{\"vector\":[1,1,0,0]}", (size_t)++n, &err), 0, "%s", err.msg);
	}
	cr_assert_eq(n, EV_VSEARCH_BATCH_CELLS / 100000);
	cr_assert_eq(add(large, "{\"vector\":[1,1,0,0]}", 99, &err), -1, "a full batch takes no more");
	cr_assert_eq(ev_vsearch_flush(large, &err), 0, "%s", err.msg);
	cr_assert_not(ev_vsearch_full(large), "a searched batch is empty");
	cr_assert_eq(ev_vsearch_hits(large), 4LL * n, "k beyond the index gives every chunk");
	ev_vsearch_free(small);
	ev_vsearch_free(large);
}

Test(vsearch, a_query_of_another_model_or_dimension_is_refused_naming_both)
{
	struct ev_vsearch *vs = searcher(2, 0);
	struct ev_err err = { 0 };

	cr_assert_eq(add(vs, "{\"vector\":[1,0,0,0],\"model\":\"m2\"}", 3, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "q:3");
	cr_assert_str_eq(err.msg,
	    "query vector of model 'm2', but index 'kb.faiss' holds vectors of model 'm1'");
	ev_err_clear(&err);
	cr_assert_eq(add(vs, "{\"vector\":[1,0,0]}", 4, &err), -1);
	cr_assert_str_eq(err.msg, "query vector has 3 dimensions, but index 'kb.faiss' has 4");
	ev_err_clear(&err);
	cr_assert_eq(add(vs, "{\"vector\":[1,0,\"x\",0]}", 5, &err), -1);
	cr_assert_str_eq(err.msg, "component 2 of field 'vector' must be a number");
	ev_err_clear(&err);
	cr_assert_eq(add(vs, "{\"vector\":[1,0,0,0],\"query_id\":[1]}", 6, &err), -1);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_vsearch_hits(vs), 0, "nothing refused was searched");
	ev_vsearch_free(vs);
}

Test(vsearch, a_zero_vector_gives_no_hits_and_a_warning)
{
	struct ev_vsearch *vs = searcher(2, 0);
	struct ev_err err = { 0 };
	json_t *h;

	cr_assert_eq(add(vs, "{\"query_id\":\"z\",\"vector\":[0,0,0,0]}", 1, &err), 0);
	cr_assert_eq(add(vs, "{\"query_id\":\"b\",\"vector\":[0,1,0,0]}", 2, &err), 0);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	cr_assert_str_eq(warned, "q:1: the query vector is all zeros (of evkit's model: no word of"
	    " the query is in its vocabulary): no hits\n");
	h = hits();
	cr_assert_eq(json_array_size(h), 2);
	cr_assert_str_eq(str(json_array_get(h, 0), "query_id"), "b");
	json_decref(h);
	ev_vsearch_free(vs);
}

Test(vsearch, min_score_drops_the_weaker_hits)
{
	struct ev_err err = { 0 };
	struct ev_vsearch_opts o = { .k = 4, .has_min_score = 1, .min_score = 0.4 };
	struct ev_vsearch *vs = ev_vsearch_new(st, ix, "kb.faiss", &o, fp, &err);

	cr_assert_not_null(vs);
	cr_assert_eq(add(vs, "{\"vector\":[0,0,1,0]}", 1, &err), 0);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_vsearch_hits(vs), 2, "chunk 2 (1) and chunk 3 (0.447), not 0 and 1 (0): %s",
	    out);
	ev_vsearch_free(vs);
}

Test(vsearch, filters_restrict_the_hits_and_a_bad_one_is_skipped_or_stops)
{
	struct ev_err err = { 0 };
	struct ev_vsearch_opts o = { .k = 4, .skip = skip_all };
	struct ev_vsearch *vs = ev_vsearch_new(st, ix, "kb.faiss", &o, fp, &err);
	json_t *h;

	cr_assert_not_null(vs);
	cr_assert_eq(add(vs, "{\"query_id\":\"f\",\"vector\":[1,0,0,0],\"filters\":{\"doc_id\":\"d2\"}}",
	    1, &err), 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"query_id\":\"bad\",\"vector\":[1,0,0,0],\"filters\":{\"colour\":1}}",
	    2, &err), 0, "filters are checked when searched");
	cr_assert_eq(add(vs, "{\"query_id\":\"p\",\"vector\":[1,0,0,0]}", 3, &err), 0);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	cr_assert_eq(skipped, 1);
	h = hits();
	cr_assert_eq(json_array_size(h), 2 + 4);
	cr_assert_str_eq(str(json_array_get(h, 0), "query_id"), "f");
	cr_assert_str_eq(str(json_array_get(h, 0), "doc_id"), "d2");
	cr_assert_str_eq(str(json_array_get(h, 1), "doc_id"), "d2");
	cr_assert_str_eq(str(json_array_get(h, 2), "query_id"), "p");
	json_decref(h);
	ev_vsearch_free(vs);

	/* without a skip, a bad filter stops the batch with its line */
	o.skip = NULL;
	vs = ev_vsearch_new(st, ix, "kb.faiss", &o, fp, &err);
	cr_assert_eq(add(vs, "{\"vector\":[1,0,0,0],\"filters\":{\"colour\":1}}", 7, &err), 0);
	cr_assert_eq(ev_vsearch_flush(vs, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "q:7");
	cr_assert_not(ev_vsearch_full(vs));
	ev_vsearch_free(vs);
}

/* A searcher with feedback from hit records given as lines of text. */
static struct ev_vsearch *
feedback_searcher(int k, int n, double weight, const char *lines, struct ev_err *err, int *rc)
{
	struct ev_vsearch_opts o = { .k = k, .warn = warn, .feedback = n, .feedback_weight = weight };
	struct ev_vsearch *vs = ev_vsearch_new(st, ix, "kb.faiss", &o, fp, err);
	char path[300];
	FILE *f;

	cr_assert_not_null(vs, "%s", err->msg);
	snprintf(path, sizeof path, "%s/text.jsonl", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(lines, f);
	fclose(f);
	*rc = ev_vsearch_feedback(vs, (char *[]){ path }, 1, err);
	return vs;
}

Test(vsearch, feedback_folds_the_first_chunks_of_another_lane_into_the_query)
{
	struct ev_err err = { 0 };
	struct ev_vsearch *vs;
	json_t *h, *ev;
	int rc;

	/* a: e0 plus 2 x the mean of d2:s1:0 (e2; the chunk without a vector is
	 * passed over, the third is beyond the first 2): (1,0,2,0)/sqrt(5);
	 * c: all zeros, folded with d1:s1:1 alone: along e1; d: no feedback */
	vs = feedback_searcher(2, 2, 2,
	    "{\"query_id\":\"a\",\"id\":\"nope:0\",\"rank\":2,\"score\":4,\"lane\":\"text\"}\n"
	    "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"rank\":1,\"score\":5,\"lane\":\"text\"}\n"
	    "{\"query_id\":\"a\",\"id\":\"d1:s1:1\",\"rank\":3,\"score\":3,\"lane\":\"text\"}\n"
	    "{\"query_id\":\"c\",\"id\":\"d1:s1:1\",\"rank\":1,\"score\":3,\"lane\":\"text\"}\n",
	    &err, &rc);
	cr_assert_eq(rc, 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"query_id\":\"a\",\"vector\":[1,0,0,0]}", 1, &err), 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"query_id\":\"c\",\"vector\":[0,0,0,0]}", 2, &err), 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"query_id\":\"d\",\"vector\":[0,0,0,1]}", 3, &err), 0, "%s", err.msg);
	setenv("EV_FIXED_TIME", "2026-11-29T03:10:33.5+01:00", 1);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	unsetenv("EV_FIXED_TIME");
	h = hits();
	cr_assert_eq(json_array_size(h), 6);
	cr_assert_str_eq(str(json_array_get(h, 0), "id"), "d2:s1:0");
	cr_assert_float_eq(json_number_value(json_object_get(json_array_get(h, 0), "score")),
	    2 / sqrt(5), 1e-6);
	cr_assert_str_eq(str(json_array_get(h, 1), "id"), "d1:s1:0");
	cr_assert_float_eq(json_number_value(json_object_get(json_array_get(h, 1), "score")),
	    1 / sqrt(5), 1e-6);
	cr_assert_str_eq(str(json_array_get(h, 0), "lane"), "vector_feedback");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(json_array_get(h, 1),
	    "signals"), "vector_feedback_rank")), 2);
	ev = json_array_get(json_object_get(json_array_get(h, 0), "evidence"), 0);
	cr_assert_str_eq(str(ev, "lane"), "vector_feedback");
	cr_assert_eq(json_array_size(json_object_get(ev, "feedback")), 1);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(ev, "feedback"), 0)),
	    "d2:s1:0");
	/* when the feedback lane retrieved it: UTC, to the millisecond */
	cr_assert_str_eq(str(ev, "retrieved_at"), "2026-11-29T02:10:33.500Z");
	/* c: the zero vector took the feedback chunk's direction */
	cr_assert_str_eq(str(json_array_get(h, 2), "query_id"), "c");
	cr_assert_str_eq(str(json_array_get(h, 2), "id"), "d1:s1:1");
	cr_assert_float_eq(json_number_value(json_object_get(json_array_get(h, 2), "score")), 1,
	    1e-6);
	cr_assert_str_empty(warned);
	/* d: its own vector, and no chunk named */
	cr_assert_str_eq(str(json_array_get(h, 4), "id"), "d2:s1:1");
	ev = json_array_get(json_object_get(json_array_get(h, 4), "evidence"), 0);
	cr_assert_eq(json_array_size(json_object_get(ev, "feedback")), 0);
	json_decref(h);
	ev_vsearch_free(vs);
}

Test(vsearch, a_bad_feedback_record_is_refused_naming_its_line)
{
	struct ev_err err = { 0 };
	struct ev_vsearch *vs;
	int rc;

	vs = feedback_searcher(2, 3, 1,
	    "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"rank\":1,\"score\":5}\n"
	    "{\"query_id\":\"a\",\"rank\":2,\"score\":4}\n", &err, &rc);
	cr_assert_eq(rc, -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.where, "text.jsonl:2") != NULL, "%s", err.where);
	ev_vsearch_free(vs);
}

/* The i-th id the feedback folded into the vector of the query of hit
 * record `hit` of h. */
static const char *
folded(json_t *h, size_t hit, size_t i)
{
	json_t *ev = json_array_get(json_object_get(json_array_get(h, hit), "evidence"), 0);

	return json_string_value(json_array_get(json_object_get(ev, "feedback"), i));
}

Test(vsearch, feedback_reads_every_form_of_a_hit_line_as_jansson_reads_it)
{
	struct ev_err err = { 0 };
	struct ev_vsearch *vs;
	json_t *h;
	int rc;

	/* the plain lines are scanned, the others (an escaped key, a rank of
	 * 1.0) read by Jansson: a rank that is null is the line's number (2:
	 * after d2:s1:0, ranked 2 on line 1, and left out at depth 3), one of
	 * 1.0 is rank 1 (it was taken for none, the line's number, 5);
	 * query_id 7 is "7", -0 is "0"; escapes decoded */
	vs = feedback_searcher(1, 3, 1,
	    "{\"query_id\":7,\"id\":\"d2:s1:\\u0030\",\"rank\":2,\"score\":1}\n"
	    "{\"query_id\":\"7\",\"id\":\"d1:s1:0\",\"rank\":null,\"score\":2.5,\"lane\":null,"
	    "\"signals\":null,\"evidence\":[],\"snippet\":\"x\"}\n"
	    "{\"query_id\":\"7\",\"\\u0069d\":\"d1:s1:1\",\"rank\":1,\"score\":0}\n"
	    "\n"
	    "{\"query_id\":\"7\",\"id\":\"d2:s1:1\",\"rank\":1.0,\"score\":1e2}\n"
	    "{\"query_id\":-0,\"id\":\"d2:s1:1\",\"score\":-1}\n", &err, &rc);
	cr_assert_eq(rc, 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"query_id\":7,\"vector\":[1,0,0,0]}", 1, &err), 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"query_id\":\"0\",\"vector\":[1,0,0,0]}", 2, &err), 0, "%s",
	    err.msg);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	h = hits();
	cr_assert_eq(json_array_size(h), 2);
	cr_assert_str_eq(folded(h, 0, 0), "d1:s1:1");
	cr_assert_str_eq(folded(h, 0, 1), "d2:s1:1");
	cr_assert_str_eq(folded(h, 0, 2), "d2:s1:0");
	cr_assert_str_eq(folded(h, 1, 0), "d2:s1:1");
	cr_assert_null(folded(h, 1, 1));
	json_decref(h);
	ev_vsearch_free(vs);
}

Test(vsearch, feedback_refuses_what_ev_hit_check_refuses)
{
	static const char *const bad[][2] = {
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":\"5\"}", "field 'score' must be a number" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1e999}", "real number overflow" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"rank\":0}", "at least 1" },
		{ "{\"query_id\":\"a\",\"id\":\"\",\"score\":1}", "must not be empty" },
		{ "{\"query_id\":\"a\",\"id\":null,\"score\":1}", "missing field 'id'" },
		{ "{\"query_id\":1.5,\"id\":\"d2:s1:0\",\"score\":1}", "'query_id' must be" },
		{ "{\"id\":\"d2:s1:0\",\"score\":1}", "'query_id' must be" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"lane\":3}", "'lane' must be" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"id\":\"x\"}", "duplicate" },
		{ "[1]", "hit must be a JSON object" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"explain\":5}", "'explain' must be" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"warnings\":[1]}", "'warnings' must be" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"evidence\":[1]}", "'evidence[0]' must be" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"evidence\":[{\"lane\":1}]}", "'evidence[0].lane' must be" },
		{ "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1,\"signals\":{\"s\":\"1\"}}", "'signals.s' must be" },
	};
	char lines[600];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ev_err err = { 0 };
		struct ev_vsearch *vs;
		int rc;

		snprintf(lines, sizeof lines, "{\"query_id\":\"a\",\"id\":\"d2:s1:0\",\"score\":1}\n%s\n",
		    bad[i][0]);
		vs = feedback_searcher(1, 3, 1, lines, &err, &rc);
		cr_assert_eq(rc, -1, "line %zu", i);
		cr_assert_eq(err.code, EV_EXIT_USAGE, "line %zu", i);
		cr_assert(strstr(err.where, "text.jsonl:2") != NULL, "line %zu: %s", i, err.where);
		cr_assert(strstr(err.msg, bad[i][1]) != NULL, "line %zu: %s", i, err.msg);
		ev_vsearch_free(vs);
	}
}

/* A query_id of any length, as ev-search-text and ev-fuse take it (the hits
 * of the scanned form and of Jansson's, and the query's own). */
Test(vsearch, feedback_takes_a_query_id_of_any_length)
{
	struct ev_err err = { 0 };
	struct ev_vsearch *vs;
	char qid[301], lines[1000], q[400];
	json_t *h;
	int rc;

	memset(qid, 'q', 300);
	qid[300] = '\0';
	snprintf(lines, sizeof lines, "{\"query_id\":\"%s\",\"id\":\"d2:s1:0\",\"score\":2}\n"
	    "{\"query_id\":\"%s\",\"id\":\"d1:s1:0\",\"score\":1.0,\"rank\":2.0}\n", qid, qid);
	vs = feedback_searcher(1, 3, 1, lines, &err, &rc);
	cr_assert_eq(rc, 0, "%s", err.msg);
	snprintf(q, sizeof q, "{\"query_id\":\"%s\",\"vector\":[1,0,0,0]}", qid);
	cr_assert_eq(add(vs, q, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	h = hits();
	cr_assert_str_eq(folded(h, 0, 0), "d2:s1:0");
	cr_assert_str_eq(folded(h, 0, 1), "d1:s1:0");
	json_decref(h);
	ev_vsearch_free(vs);
}

/* What ev_vsearch_add() (by == 0) or ev_vsearch_add_line() (1) makes of
 * the line: the searched hits, or the error's place and message. */
static char *
answer(const char *line, int by)
{
	struct ev_vsearch *vs;
	struct ev_err err = { 0 };
	json_t *v;
	char *s;
	int r;

	fresh_output();
	vs = searcher(2, 1);
	if (by == 1)
		r = ev_vsearch_add_line(vs, line, strlen(line), 7, "q:7", &err);
	else if ((v = json_loads(line, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL)) != NULL) {
		r = ev_vsearch_add(vs, v, 7, "q:7", &err);
		json_decref(v);
	} else
		r = ev_err_set(&err, EV_EXIT_USAGE, "q:7", "not JSON");
	if (r == 0)
		cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	fflush(fp);
	if (r == 0)
		s = strdup(out ? out : "");
	else if (asprintf(&s, "%d %s: %s", err.code, err.where, err.msg) == -1)
		s = NULL;
	cr_assert_not_null(s);
	ev_vsearch_free(vs);
	return s;
}

Test(vsearch, a_line_read_whole_gives_what_its_record_gives)
{
	static const char *const lines[] = {
		"{\"query_id\":\"a\",\"query\":\"flutter\",\"vector\":[2,0,0.0,-0],\"x\":[1.5e3]}",
		"  {\"vector\" : [ 0 , 1e-3 , 3 , 0 ] , \"query\":\"heat\\u0020transfer\"}  ",
		"{\"vec\\u0074or\":[0,0,1,1],\"model\":\"m1\"}",
		"{\"vector\":[0,0,1,1],\"model\":\"m2\"}",
		"{\"vector\":[0,0,1]}", "{\"vector\":[0,0,1,1,0]}", "{\"vector\":[0,\"1\",1,1]}",
		"{\"vector\":[0,1e39,1,1]}", "{\"vector\":[0,0,0,0]}", "{\"vector\":{}}", "{\"query\":\"x\"}",
		"{\"vector\":[3e38,3e38,3e38,3e38]}", "{\"vector\":[1,0,0,0],\"filters\":{\"doc_id\":\"d2\"}}",
		"{\"vector\":[1,0,0,0],\"query_id\":1.5}", "[1,0,0,0]",
	};

	setenv("EV_FIXED_TIME", "2026-11-29T02:10:33.123Z", 1);	/* the two runs' stamps alike */
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		char *want = answer(lines[i], 0), *got = answer(lines[i], 1);

		cr_assert_str_eq(got, want, "%s", lines[i]);
		if (i < 2)
			cr_assert(strstr(got, "\"rank\":2") != NULL, "%s gives hits: %s", lines[i], got);
		free(want);
		free(got);
	}
	/* a line that is not JSON, or names "vector" twice: Jansson's word on it */
	for (int i = 0; i < 2; i++) {
		char *got = answer(i ? "{\"vector\":[1,0,0,0],\"vector\":[0,1,0,0]}" : "{\"vector\":[1,0", 1);

		cr_assert(strncmp(got, "2 q:7: invalid JSON", 19) == 0, "%s", got);
		free(got);
	}
}

Test(vsearch, a_snippet_marks_the_query_s_content_words_not_its_function_words)
{
	/* the query's language: its record's, else the one its function words
	 * show ("la" alone is French, Spanish and Italian: none) */
	static const char *const lines[] = {
		"{\"query\":\"le flutter est la speed\",\"vector\":[1,0,0,0]}",
		"{\"query\":\"la flutter\",\"language\":\"fr\",\"vector\":[1,0,0,0]}",
		"{\"query\":\"la flutter\",\"vector\":[1,0,0,0]}",
	};
	static const char *const want[] = {
		"le \xc2\xab" "flutter\xc2\xbb est \xc3\xa0 la \xc2\xab" "speed\xc2\xbb",
		"le \xc2\xab" "flutter\xc2\xbb est \xc3\xa0 la speed",
		"le \xc2\xab" "flutter\xc2\xbb est \xc3\xa0 \xc2\xab" "la\xc2\xbb speed",
	};
	struct ev_err e0 = { 0 };

	cr_assert_eq(ev_store_exec(st, "UPDATE chunks SET text = 'le flutter est \xc3\xa0 la speed'"
	    " WHERE id = 'd1:s1:0'", &e0), 0, "%s", e0.msg);

	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		struct ev_vsearch *vs;
		struct ev_err err = { 0 };
		json_t *h;

		fresh_output();
		vs = searcher(1, 1);
		cr_assert_eq(ev_vsearch_add_line(vs, lines[i], strlen(lines[i]), 1, "q:1", &err), 0,
		    "%s", err.msg);
		cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
		h = hits();
		cr_assert_str_eq(str(json_array_get(h, 0), "snippet"), want[i], "%s", lines[i]);
		json_decref(h);
		ev_vsearch_free(vs);
	}
}

/* The hit records of chunk id in h (an array of hits), without the fields
 * of the query and the hit's own rank and score: the chunk's fields alone. */
static char *
chunk_part(const json_t *h, size_t i)
{
	static const char *const own[] = { "query_id", "query", "rank", "score", "signals",
		"evidence", "snippet", "lane", NULL };
	json_t *c = json_deep_copy(json_array_get(h, i));
	char *s;

	for (int k = 0; own[k]; k++)
		json_object_del(c, own[k]);
	s = json_dumps(c, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(c);
	return s;
}

Test(vsearch, a_chunk_many_queries_of_a_batch_hit_is_read_once_and_read_again_next_batch)
{
	struct ev_vsearch *vs = searcher(2, 1);
	struct ev_err err = { 0 };
	json_t *h;
	char *a, *b;

	/* three queries of one batch hit d2:s1:0 and d2:s1:1, each with its own snippet */
	cr_assert_eq(add(vs, "{\"query_id\":\"a\",\"query\":\"heat\",\"vector\":[0,0,1,0]}", 1, &err), 0);
	cr_assert_eq(add(vs, "{\"query_id\":\"b\",\"query\":\"transfer\",\"vector\":[0,0,1,0]}", 2,
	    &err), 0);
	cr_assert_eq(add(vs, "{\"query_id\":\"c\",\"query\":\"shock\",\"vector\":[0,0,1,0]}", 3, &err), 0);
	setenv("EV_FIXED_TIME", "2026-11-29T03:10:33.5+01:00", 1);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	unsetenv("EV_FIXED_TIME");
	h = hits();
	cr_assert_eq(json_array_size(h), 6);
	cr_assert_str_eq(str(json_array_get(h, 0), "snippet"), "\xc2\xab" "heat\xc2\xbb transfer");
	cr_assert_str_eq(str(json_array_get(h, 2), "snippet"), "heat \xc2\xab" "transfer\xc2\xbb");
	cr_assert_str_eq(str(json_array_get(h, 5), "snippet"), "\xc2\xab" "shock\xc2\xbb waves");
	cr_assert_str_eq(str(json_array_get(h, 2), "id"), "d2:s1:0");
	cr_assert_str_eq(str(json_array_get(h, 2), "doc_id"), "d2");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(h, 4),
	    "metadata"), "topic")), "even");
	for (size_t i = 2; i < 6; i++) {
		a = chunk_part(h, i - 2);
		b = chunk_part(h, i);
		cr_assert_str_eq(b, a, "hit %zu: the chunk's fields as the first query had them", i);
		free(a);
		free(b);
	}
	json_decref(h);
	/* the store changes between batches: the next batch reads it again */
	cr_assert_eq(ev_store_exec(st, "UPDATE chunks SET text = 'heat flux', title = 'Deux'"
	    " WHERE id = 'd2:s1:0'", &err), 0, "%s", err.msg);
	cr_assert_eq(add(vs, "{\"query_id\":\"d\",\"query\":\"flux\",\"vector\":[0,0,1,0]}", 1, &err), 0);
	cr_assert_eq(ev_vsearch_flush(vs, &err), 0, "%s", err.msg);
	h = hits();	/* the first batch's six, then the second's */
	cr_assert_eq(json_array_size(h), 8);
	cr_assert_str_eq(str(json_array_get(h, 6), "title"), "Deux");
	cr_assert_str_eq(str(json_array_get(h, 6), "snippet"), "heat \xc2\xab" "flux\xc2\xbb");
	json_decref(h);
	ev_vsearch_free(vs);
}
