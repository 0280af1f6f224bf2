/* Tests of lib/lanes/embedwrite.c: records given vectors by the built-in model, the
 * chunks pending a vector, and the reports of a training and of the drift. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "embedwrite.h"
#include "store.h"
#include "test_util.h"

static char dir[] = "/tmp/evkit-embedwrite-XXXXXX";
static char db[256];
static struct ev_store *st;
static struct ev_err err;
static struct ev_embedwrite_io io;
static char *outp;
static size_t outn;

static void
setup(void)
{
	tu_mkdir(dir, db, sizeof db);
	st = tu_store_create(db, &err);
	cr_assert_eq(ev_store_exec(st, "INSERT INTO chunks(id, doc_id, section_id, chunk_index,"
	    " text, content_hash) VALUES ('d0', 'd0', '_top', 0, 'wing lift flow', 'h'),"
	    " ('d1', 'd1', '_top', 0, 'wing drag flow', 'h'),"
	    " ('d2', 'd2', '_top', 0, 'heat flux plate', 'h'),"
	    " ('d3', 'd3', '_top', 0, 'heat plate layer', 'h'),"
	    " ('d4', 'd4', '_top', 0, 'shock flow heat', 'h')", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_store_exec(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild')", &err),
	    0, "%s", err.msg);
	io.out = open_memstream(&outp, &outn);
	io.note = tu_note;
	tu_notes[0] = '\0';
}

static void
teardown(void)
{
	fclose(io.out);
	free(outp);
	ev_store_close(st);
	tu_rmdir(dir);
}

TestSuite(embedwrite, .init = setup, .fini = teardown);

/* Empty what was written. */
static void
reset_out(void)
{
	fclose(io.out);
	free(outp);
	io.out = open_memstream(&outp, &outn);
}

/* Train a model of dim dimensions; the report line is checked. */
static void
train(int dim)
{
	struct ev_embed_params p;
	struct ev_embed_info info;
	json_t *line;

	ev_embed_params_init(&p);
	p.dim = dim;
	cr_assert_eq(ev_embedwrite_train(st, db, &p, &io, &info, &err), 0, "%s", err.msg);
	fflush(io.out);
	line = json_loads(outp, 0, NULL);
	cr_assert_not_null(line, "%s", outp);
	cr_assert_str_eq(json_string_value(json_object_get(line, "model")), info.model_id);
	cr_assert_eq(json_integer_value(json_object_get(line, "dim")), info.dim);
	cr_assert_eq(json_integer_value(json_object_get(line, "chunks")), 5);
	json_decref(line);
	reset_out();
}

Test(embedwrite, training_more_dimensions_than_the_store_holds_is_noted)
{
	train(64);
	cr_assert_not_null(strstr(tu_notes, "--dim 64 is more than 5 chunks"), "%s", tu_notes);
}

Test(embedwrite, a_record_by_its_fields_or_its_role)
{
	struct ev_embedwrite r;
	json_t *chunk = json_pack("{s:s,s:s}", "id", "x", "text", "wing flow");
	json_t *query = json_string("heat plate");
	json_t *neither = json_pack("{s:s}", "id", "y");
	json_t *rec;

	train(2);
	cr_assert_eq(ev_embedwrite_open(&r, st, &err), 0, "%s", err.msg);
	rec = ev_embedwrite_one(&r, chunk, EV_EMBEDWRITE_AUTO, 1, "in:1", &err);
	cr_assert_eq(rec, chunk, "a chunk gains its vector in place");
	cr_assert_eq(json_array_size(json_object_get(rec, "vector")), 2);
	cr_assert_str_eq(json_string_value(json_object_get(rec, "model")),
	    ev_embed_model_id(r.e));
	json_decref(rec);

	rec = ev_embedwrite_one(&r, query, EV_EMBEDWRITE_AUTO, 7, "in:7", &err);
	cr_assert_not_null(rec, "%s", err.msg);
	cr_assert_str_eq(json_string_value(json_object_get(rec, "query")), "heat plate");
	cr_assert_eq(json_array_size(json_object_get(rec, "vector")), 2);
	json_decref(rec);

	cr_assert_null(ev_embedwrite_one(&r, neither, EV_EMBEDWRITE_AUTO, 2, "in:2", &err));
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "record has no 'text' (a chunk) or 'query' (a query) to embed");
	ev_err_clear(&err);
	cr_assert_null(ev_embedwrite_one(&r, chunk, EV_EMBED_QUERY, 3, "in:3", &err),
	    "as a query, a chunk lacks its 'query'");
	cr_assert_eq(err.code, EV_EXIT_USAGE);

	rec = json_pack("{s:s}", "text", "zebra");
	cr_assert_eq(ev_embedwrite_add(&r, rec, 0, "in:4", &err), 0, "%s", err.msg);
	cr_assert_eq(r.zero, 1, "no term of the vocabulary: a zero vector, counted");
	ev_embedwrite_zero_note(&r, &io);
	cr_assert_not_null(strstr(tu_notes, "1 record had no term in the vocabulary"), "%s", tu_notes);
	json_decref(rec);
	ev_embedwrite_close(&r);
	json_decref(chunk);
	json_decref(query);
	json_decref(neither);
}

static int skipped;

static int
skip(void *ctx, struct ev_err *e)
{
	(void)ctx, (void)e;
	skipped++;
	return 1;
}

Test(embedwrite, a_stream_skips_bad_records_when_asked)
{
	struct ev_embedwrite r;
	struct ev_jsonl *in;
	long long nread = 0, n = 0;
	static const char text[] = "\"wing\"\n[1]\n{\"text\":\"heat\"}\n";
	char path[300], *paths[1] = { path };

	train(2);
	snprintf(path, sizeof path, "%s/in.jsonl", dir);
	tu_write_file(path, text, strlen(text));
	cr_assert_eq(ev_embedwrite_open(&r, st, &err), 0, "%s", err.msg);
	cr_assert_not_null(in = ev_jsonl_open(paths, 1, &err));
	cr_assert_eq(ev_embedwrite_stream(&r, in, EV_EMBEDWRITE_AUTO, &io, NULL, NULL, &nread, &n, &err),
	    -1);
	cr_assert_eq(n, 1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	ev_jsonl_close(in);
	ev_err_clear(&err);

	nread = n = 0;
	cr_assert_not_null(in = ev_jsonl_open(paths, 1, &err));
	cr_assert_eq(ev_embedwrite_stream(&r, in, EV_EMBEDWRITE_AUTO, &io, skip, NULL, &nread, &n, &err),
	    0, "%s", err.msg);
	cr_assert_eq(nread, 3);
	cr_assert_eq(n, 2);
	cr_assert_eq(skipped, 1);
	ev_jsonl_close(in);
	ev_embedwrite_close(&r);
}

Test(embedwrite, pending_chunks_with_or_without_vectors)
{
	struct ev_embedwrite_pending res;

	train(2);
	cr_assert_eq(ev_embedwrite_pending(st, 1, NULL, &io, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.written, 5, "no vector stored yet: every chunk");
	cr_assert_not_null(res.model);
	fflush(io.out);
	cr_assert_not_null(strstr(outp, "\"vector\""), "%s", outp);
	cr_assert_not_null(strstr(tu_notes, "5 chunks without a vector of model"), "%s", tu_notes);
	free(res.model);

	reset_out();
	tu_notes[0] = '\0';
	cr_assert_eq(ev_embedwrite_pending(st, 0, NULL, &io, &res, &err), 0, "%s", err.msg);
	cr_assert_null(res.model, "no index: no model to be pending for");
	cr_assert_eq(res.written, 5);
	fflush(io.out);
	cr_assert_null(strstr(outp, "\"vector\""), "--chunks: records without vectors");
	cr_assert_str_eq(tu_notes, "5 chunks: the store has no vectors yet\n");
	cr_assert_eq(ev_store_exec(st, "BEGIN IMMEDIATE; ROLLBACK", &err), 0,
	    "the snapshot's transaction was ended: %s", err.msg);
}

Test(embedwrite, drift_is_reported_and_noted_above_the_threshold)
{
	struct ev_embed_drift d;
	json_t *line;

	cr_assert_eq(ev_embedwrite_drift(st, db, 0.1, &io, &d, &err), 1, "%s", err.msg);
	cr_assert_not_null(strstr(tu_notes, "no embedding model: train one with 'ev-embed --db"),
	    "%s", tu_notes);
	fflush(io.out);
	line = json_loads(outp, 0, NULL);
	cr_assert_not_null(line, "%s", outp);
	cr_assert(json_is_null(json_object_get(line, "model")));
	cr_assert_float_eq(json_real_value(json_object_get(line, "drift")), 1.0, 1e-9);
	cr_assert_float_eq(json_real_value(json_object_get(line, "max_drift")), 0.1, 1e-9);
	json_decref(line);

	reset_out();
	train(2);
	tu_notes[0] = '\0';
	cr_assert_eq(ev_embedwrite_drift(st, db, 0.1, &io, &d, &err), 0, "%s", err.msg);
	cr_assert_float_eq(d.drift, 0.0, 1e-9, "right after a training");
	cr_assert_str_eq(tu_notes, "");
}

Test(embedwrite, a_model_copied_from_another_store_is_reported_and_embeds_alike)
{
	char db2[300];
	struct ev_store *dst;
	struct ev_embedwrite_io io2 = { 0 };
	char *out2 = NULL;
	size_t n2 = 0;
	json_t *line;

	train(3);
	ev_store_close(st);	/* read by the copy as another process would */
	st = NULL;
	snprintf(db2, sizeof db2, "%s/copy.db", dir);
	dst = tu_store_create(db2, &err);
	io2.out = open_memstream(&out2, &n2);
	cr_assert_eq(ev_embedwrite_copy_model(dst, db, &io2, &err), 0, "%s", err.msg);
	fclose(io2.out);
	line = json_loads(out2, 0, NULL);
	cr_assert_not_null(line, "%s", out2);
	cr_assert_str_eq(json_string_value(json_object_get(line, "from")), db);
	cr_assert_gt(strlen(json_string_value(json_object_get(line, "model"))), 0);
	json_decref(line);
	free(out2);
	out2 = NULL;
	io2.out = open_memstream(&out2, &n2);	/* again: the same model, the same line */
	cr_assert_eq(ev_embedwrite_copy_model(dst, db, &io2, &err), 0, "%s", err.msg);
	fclose(io2.out);
	line = json_loads(out2, 0, NULL);
	cr_assert_not_null(line, "%s", out2);
	cr_assert_str_eq(json_string_value(json_object_get(line, "from")), db);
	json_decref(line);
	free(out2);
	cr_assert_eq(ev_embedwrite_copy_model(dst, "/nonexistent/x.db", &io, &err), -1);
	ev_store_close(dst);
	st = ev_store_open(db, EV_STORE_WRITE, &err);
	cr_assert_not_null(st, "%s", err.msg);
}

Test(embedwrite, the_logged_model_names_method_model_and_a_known_dimension)
{
	json_t *m = ev_embedwrite_log_model("lsa-abc", 8);
	char *s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);

	cr_assert_str_eq(s, "{\"dim\":8,\"method\":\"lsa\",\"model\":\"lsa-abc\"}");
	free(s);
	json_decref(m);
	m = ev_embedwrite_log_model("lsa-abc", 0);
	s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
	cr_assert_str_eq(s, "{\"method\":\"lsa\",\"model\":\"lsa-abc\"}", "dim 0: unknown, left out");
	free(s);
	json_decref(m);
}
