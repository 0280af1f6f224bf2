/* Tests of lib/judge/calibrate.c: the known-item pseudo-queries (drawn from
 * their document, by their counts, function words left out, the same for
 * the same seed) and the weights a calibration row sets. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "calibrate.h"
#include "test_util.h"

TU_SUITE_WITH_DIR(calibrate, "test_calibrate");

/* n documents of one chunk each: document i holds its own words
 * "alphaI betaI gammaI deltaI" and the word "common", which every chunk
 * holds (a function word to the sample). */
static struct ev_store *
store_of(int n)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);

	cr_assert_not_null(st, "%s", err.msg);
	for (int i = 0; i < n; i++) {
		sqlite3_stmt *s = ev_store_prepare(st, "INSERT INTO chunks(id, doc_id, section_id,"
		    " chunk_index, title, section_title, section_path, text, offset_start, offset_end,"
		    " content_hash) VALUES(?1 || ':0', ?1, '_top', 0, '', '', '', ?2, 0, 0, 'sha256:0')",
		    &err);
		char id[32], text[200];

		cr_assert_not_null(s, "%s", err.msg);
		snprintf(id, sizeof id, "d%d", i);
		snprintf(text, sizeof text, "common alpha%d beta%d, common gamma%d (delta%d) 42 common",
		    i, i, i, i);
		sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, text, -1, SQLITE_TRANSIENT);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
	}
	return st;
}

static char *
made(struct ev_store *st, long n, uint64_t seed, long *count)
{
	struct ev_err err = { 0 };
	struct ev_qrels *q = ev_qrels_new(&err);
	json_t *queries = json_array();
	char *s;

	*count = ev_calib_pseudo(st, n, seed, queries, q, &err);
	cr_assert_neq(*count, -1, "%s", err.msg);
	s = json_dumps(queries, JSON_COMPACT);
	json_decref(queries);
	ev_qrels_free(q);
	return s;
}

Test(calibrate, pseudo_queries_are_words_of_their_document_without_function_words)
{
	struct ev_store *st = store_of(30);
	struct ev_err err = { 0 };
	struct ev_qrels *qrels = ev_qrels_new(&err);
	json_t *queries = json_array(), *q;
	size_t i;

	cr_assert_eq(ev_calib_pseudo(st, 20, 1, queries, qrels, &err), 20, "%s", err.msg);
	json_array_foreach(queries, i, q) {
		const char *text = json_string_value(json_object_get(q, "query"));
		int doc = -1, words = 1;
		char qid[32];

		snprintf(qid, sizeof qid, "known-%zu", i + 1);
		cr_assert_str_eq(json_string_value(json_object_get(q, "query_id")), qid);
		cr_assert_null(strstr(text, "common"), "a function word was drawn: %s", text);
		cr_assert_null(strstr(text, "42"), "a number was drawn: %s", text);
		for (const char *p = text; *p; p++)
			words += *p == ' ';
		/* the document's 4 words of its own: all of them, as 3 to 6 are drawn */
		cr_assert(words >= 3 && words <= 4, "'%s'", text);
		cr_assert_eq(sscanf(text + strcspn(text, "0123456789"), "%d", &doc), 1);
		for (const char *w = text; w != NULL; w = strchr(w, ' ') ? strchr(w, ' ') + 1 : NULL) {
			int d = -1;

			sscanf(w + strcspn(w, "0123456789"), "%d", &d);
			cr_assert_eq(d, doc, "'%s' mixes documents", text);
		}
	}
	json_decref(queries);
	ev_qrels_free(qrels);
	ev_store_close(st);
}

Test(calibrate, pseudo_queries_are_the_same_for_the_same_seed)
{
	struct ev_store *st = store_of(30);
	long n1, n2, n3;
	char *a = made(st, 10, 7, &n1), *b = made(st, 10, 7, &n2), *c = made(st, 10, 8, &n3);

	cr_assert_eq(n1, 10);
	cr_assert_str_eq(a, b);
	cr_assert_str_neq(a, c, "another seed drew the same queries");
	free(a);
	free(b);
	free(c);
	/* fewer documents than asked: one query each */
	a = made(st, 100, 7, &n1);
	cr_assert_eq(n1, 30);
	free(a);
	ev_store_close(st);
}

Test(calibrate, a_row_sets_what_the_plan_left_unset)
{
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	json_t *row = json_pack("{s:i,s:{s:f,s:f,s:f},s:s}", "version", 1, "weights", "text", 1.0,
	    "vector", 0.0, "vector_feedback", 2.5, "adapt", "none");

	ev_fuse_opts_init(&o);
	o.adapt = EV_ADAPT_AGREEMENT;
	cr_assert_eq(ev_calib_apply(row, 1, 0, &o, &err), 0, "%s", err.msg);
	cr_assert_float_eq(ev_fuse_weight_get(&o, "vector_feedback"), 2.5, 1e-12);
	cr_assert_float_eq(ev_fuse_weight_get(&o, "vector"), 0, 1e-12);
	cr_assert_eq(o.adapt, EV_ADAPT_AGREEMENT, "the plan's adapt is kept");
	cr_assert_eq(ev_calib_apply(row, 0, 1, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(o.adapt, EV_ADAPT_NONE);
	/* no row: the pipeline's defaults, without agreement */
	ev_fuse_opts_init(&o);
	o.adapt = EV_ADAPT_AGREEMENT;
	cr_assert_eq(ev_calib_apply(NULL, 1, 1, &o, &err), 0, "%s", err.msg);
	cr_assert_float_eq(ev_fuse_weight_get(&o, "vector_feedback"), 1.25, 1e-12);
	cr_assert_float_eq(ev_fuse_weight_get(&o, "vector"), 0, 1e-12);
	cr_assert_eq(o.adapt, EV_ADAPT_NONE);
	/* a weight that is not a number: refused, naming the row */
	json_object_set_new(json_object_get(row, "weights"), "text", json_string("x"));
	cr_assert_eq(ev_calib_apply(row, 1, 1, &o, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.msg, "run ev-embed-load again") != NULL, "%s", err.msg);
	/* a rule that is not one, or none: refused, the options as they were */
	json_object_set_new(json_object_get(row, "weights"), "text", json_real(3));
	json_object_set_new(row, "adapt", json_string("sometimes"));
	cr_assert_eq(ev_calib_apply(row, 1, 1, &o, &err), -1);
	json_object_del(row, "adapt");
	cr_assert_eq(ev_calib_apply(row, 1, 0, &o, &err), -1);
	cr_assert_float_eq(ev_fuse_weight_get(&o, "text"), 1, 1e-12);
	cr_assert_float_eq(ev_fuse_weight_get(&o, "vector_feedback"), 1.25, 1e-12);
	cr_assert_eq(o.adapt, EV_ADAPT_NONE);
	json_decref(row);
}
