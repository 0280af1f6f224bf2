/* Tests of lib/cli/toolrun.c: the retrieval frames of the queries read and
 * the ids, ranks and scores written, exactly as a ToolRun line holds them. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"
#include "toolrun.h"

/* The fields ev_toolrun_add() gives an empty run, with plan, as compact JSON
 * (the caller frees it). */
static char *
added(struct ev_toolrun *t, const json_t *plan)
{
	json_t *run = json_object();
	char *s;

	cr_assert_eq(ev_toolrun_add(t, run, plan), 0);
	s = json_dumps(run, JSON_COMPACT | JSON_REAL_PRECISION(10));
	json_decref(run);
	return s;
}

static void
read_line(struct ev_toolrun *t, const char *line, size_t lineno)
{
	ev_toolrun_read(t, line, strlen(line), lineno);
}

static void
assert_added(struct ev_toolrun *t, const json_t *plan, const char *want)
{
	char *got = added(t, plan);

	cr_assert_str_eq(got, want);
	free(got);
}

/* The text written, in one write, gives a run the fields want. */
static void
assert_written_gives(const char *written, const char *want)
{
	struct ev_toolrun *t = ev_toolrun_new();

	ev_toolrun_wrote(t, written, strlen(written));
	assert_added(t, NULL, want);
	ev_toolrun_free(t);
}

Test(toolrun, a_query_record_gives_its_frame_and_a_string_line_a_query_numbered_by_its_line)
{
	struct ev_toolrun *t = ev_toolrun_new();
	json_t *plan = json_pack("{s:i}", "k", 5);

	read_line(t, "{\"query_id\":\"q1\",\"query\":\"wing flutter\",\"vector\":[1,2],"
	    "\"filters\":{\"authority_id\":\"a1\"},\"request_id\":\"r9\"}", 1);
	read_line(t, "\"heat transfer\"", 2);
	read_line(t, "{\"id\":\"d1\",\"text\":\"a document, no query\"}", 3);
	read_line(t, "not json at all, \"query_id\"", 4);
	assert_added(t, plan, "{\"inputs_logged\":{\"plan\":{\"k\":5},\"queries\":["
	    "{\"query_id\":\"q1\",\"query\":\"wing flutter\",\"request_id\":\"r9\","
	    "\"filters\":{\"authority_id\":\"a1\"}},"
	    "{\"query_id\":2,\"query\":\"heat transfer\"}]},\"outputs\":[]}");
	json_decref(plan);
	ev_toolrun_free(t);
}

Test(toolrun, hits_read_name_their_lanes_once_each_in_the_order_first_seen)
{
	struct ev_toolrun *t = ev_toolrun_new();

	read_line(t, "{\"query_id\":7,\"query\":\"q\",\"id\":\"a\",\"score\":1,\"lane\":\"text\"}", 1);
	read_line(t, "{\"query_id\":7,\"query\":\"q\",\"id\":\"b\",\"score\":1,\"lane\":\"text\"}", 2);
	read_line(t, "{\"query_id\":7,\"query\":\"q\",\"id\":\"a\",\"score\":1,\"lane\":\"vector\"}", 1);
	assert_added(t, NULL, "{\"inputs_logged\":{\"queries\":[{\"query_id\":7,\"query\":\"q\","
	    "\"lanes\":[\"text\",\"vector\"]}]},\"outputs\":[]}");
	ev_toolrun_free(t);
}

Test(toolrun, hits_written_in_pieces_are_kept_per_query_with_rank_score_and_lane)
{
	struct ev_toolrun *t = ev_toolrun_new();
	const char *out =
	    "{\"query_id\":\"q1\",\"query\":\"x\",\"id\":\"d1:s:0\",\"rank\":1,\"score\":2.5,"
	    "\"lane\":\"text\",\"snippet\":\"...\"}\n"
	    "{\"query_id\":\"q1\",\"query\":\"x\",\"id\":\"d2:s:0\",\"rank\":2,\"score\":1.25,"
	    "\"lane\":\"text\"}\n"
	    "{\"query_id\":\"q2\",\"query\":\"y\",\"id\":\"d3:s:0\",\"rank\":1,\"score\":0.5}\n";
	size_t n = strlen(out), cut1 = 17, cut2 = n - 5;

	/* a line split across writes, two lines in one, and the end apart */
	ev_toolrun_wrote(t, out, cut1);
	ev_toolrun_wrote(t, out + cut1, cut2 - cut1);
	ev_toolrun_wrote(t, out + cut2, n - cut2);
	assert_added(t, NULL, "{\"inputs_logged\":{\"queries\":["
	    "{\"query_id\":\"q1\",\"query\":\"x\"},{\"query_id\":\"q2\",\"query\":\"y\"}]},"
	    "\"outputs\":[{\"query_id\":\"q1\",\"hits\":["
	    "{\"id\":\"d1:s:0\",\"rank\":1,\"score\":2.5,\"lane\":\"text\"},"
	    "{\"id\":\"d2:s:0\",\"rank\":2,\"score\":1.25,\"lane\":\"text\"}]},"
	    "{\"query_id\":\"q2\",\"hits\":[{\"id\":\"d3:s:0\",\"rank\":1,\"score\":0.5}]}]}");
	ev_toolrun_free(t);
}

Test(toolrun, a_pack_written_keeps_each_evidence_id_place_and_signals)
{
	const char *pack = "{\"version\":\"0.1\",\"query_id\":3,\"query\":\"z\",\"evidences\":["
	    "{\"id\":\"e1\",\"snippet\":\"s\",\"signals\":{\"rrf_score\":0.03}},"
	    "{\"id\":\"e2\",\"signals\":{\"rrf_score\":0.02,\"rerank_score\":0.5}}]}\n";

	assert_written_gives(pack, "{\"inputs_logged\":{\"queries\":[{\"query_id\":3,\"query\":\"z\"}]},"
	    "\"outputs\":[{\"query_id\":3,\"evidences\":["
	    "{\"id\":\"e1\",\"rank\":1,\"signals\":{\"rrf_score\":0.03}},"
	    "{\"id\":\"e2\",\"rank\":2,\"signals\":{\"rrf_score\":0.02,\"rerank_score\":0.5}}]}]}");
}

Test(toolrun, a_pack_given_as_a_record_is_kept_as_the_same_pack_written)
{
	const char *text = "{\"version\":\"0.1\",\"query_id\":3,\"query\":\"z\",\"evidences\":["
	    "{\"id\":\"e1\",\"signals\":{\"fused_score\":4}}]}";
	json_t *pack = json_loads(text, 0, NULL);
	struct ev_toolrun *t = ev_toolrun_new(), *u = ev_toolrun_new();
	char *want;

	ev_toolrun_output(t, pack);
	ev_toolrun_wrote(u, text, strlen(text));
	ev_toolrun_wrote(u, "\n", 1);
	want = added(u, NULL);
	assert_added(t, NULL, want);
	cr_assert_not_null(strstr(want, "{\"id\":\"e1\",\"rank\":1,\"signals\":{\"fused_score\":4}}"));
	free(want);
	json_decref(pack);
	ev_toolrun_free(t);
	ev_toolrun_free(u);
}

Test(toolrun, an_embedded_query_keeps_its_vector_dimension_norm_and_model_a_chunk_its_id)
{
	const char *out = "{\"query_id\":1,\"query\":\"a\",\"vector\":[0.6,0.8],\"model\":\"m\"}\n"
	    "{\"id\":\"c1\",\"text\":\"t\",\"vector\":[0,0,0],\"model\":\"m\"}\n";

	assert_written_gives(out, "{\"inputs_logged\":{\"queries\":[{\"query_id\":1,\"query\":\"a\"}]},"
	    "\"outputs\":[{\"query_id\":1,\"vector\":{\"dim\":2,\"norm\":1.0},\"model\":\"m\"},"
	    "{\"id\":\"c1\",\"vector\":{\"dim\":3,\"norm\":0.0},\"model\":\"m\"}]}");
}

Test(toolrun, chunks_beyond_the_first_hundred_are_counted_not_kept)
{
	struct ev_toolrun *t = ev_toolrun_new();
	json_t *run = json_object();
	char line[64];
	int i;

	for (i = 1; i <= EV_TOOLRUN_MAX_RECORDS + 3; i++) {
		snprintf(line, sizeof line, "{\"id\":\"c%d\",\"vector\":[1]}\n", i);
		ev_toolrun_wrote(t, line, strlen(line));
	}
	cr_assert_eq(ev_toolrun_add(t, run, NULL), 0);
	cr_assert_eq(json_array_size(json_object_get(run, "outputs")), EV_TOOLRUN_MAX_RECORDS);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(run,
	    "outputs"), EV_TOOLRUN_MAX_RECORDS - 1), "id")), "c100");
	cr_assert_eq(json_integer_value(json_object_get(run, "outputs_left_off")), 3);
	json_decref(run);
	ev_toolrun_free(t);
}

Test(toolrun, a_routed_query_keeps_its_routing_and_a_record_with_nothing_to_keep_no_output)
{
	const char *out = "{\"query_id\":1,\"query\":\"a map\",\"routing\":{\"lanes\":[\"vector\"]}}\n"
	    "{\"query_id\":2,\"query\":\"b\",\"language\":\"en\"}\n"
	    "{\"id\":\"chunk, not a query's\",\"score\":1}\n";

	assert_written_gives(out, "{\"inputs_logged\":{\"queries\":[{\"query_id\":1,\"query\":\"a map\","
	    "\"routing\":{\"lanes\":[\"vector\"]}}]},"
	    "\"outputs\":[{\"query_id\":1,\"routing\":{\"lanes\":[\"vector\"]}}]}");
}

Test(toolrun, the_reader_shows_every_line_to_the_observer)
{
	static const char lines[] = "\"first\"\n\n{\"query_id\":\"b\",\"query\":\"second\"}\n";
	struct ev_toolrun *t = ev_toolrun_new();
	struct ev_err err = { 0 };
	char path[] = "/tmp/evkit-toolrun-XXXXXX";
	char *paths[1] = { path };
	int fd = mkstemp(path);
	struct ev_jsonl *in;
	json_t *v;

	cr_assert_neq(fd, -1);
	cr_assert_eq(write(fd, lines, strlen(lines)), (ssize_t)strlen(lines));
	close(fd);
	ev_jsonl_observe(ev_toolrun_read, t);
	in = ev_jsonl_open(paths, 1, &err);
	while (ev_jsonl_next(in, &v, &err) == 1)
		json_decref(v);
	ev_jsonl_observe(NULL, NULL);
	ev_jsonl_close(in);
	unlink(path);
	assert_added(t, NULL, "{\"inputs_logged\":{\"queries\":[{\"query_id\":1,\"query\":\"first\"},"
	    "{\"query_id\":\"b\",\"query\":\"second\"}]},\"outputs\":[]}");
	ev_toolrun_free(t);
}
