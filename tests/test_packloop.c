/* test_packloop.c: lib/merge/packloop.c -- hits grouped by query, one EvidencePack
 * per query, in the order of a queries file when one is given. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"
#include "packloop.h"

static struct ev_pack_opts o;
static struct ev_pack *p;
static struct ev_packloop run;
static struct ev_err err;
static char out[65536];
static FILE *fp;
static json_t *ignored;

static void
setup(void)
{
	memset(&err, 0, sizeof err);
	memset(out, 0, sizeof out);
	ev_pack_opts_init(&o);
	ignored = json_array();
	p = ev_pack_new(&o, NULL, ignored, "00000000-0000-4000-8000-000000000000", &err);
	cr_assert_not_null(p);
	fp = fmemopen(out, sizeof out - 1, "w");
	cr_assert_eq(ev_packloop_init(&run, p, fp, EV_PACK_JSONL, 80, &err), 0);
}

static void
teardown(void)
{
	ev_packloop_release(&run);
	ev_pack_free(p);
	json_decref(ignored);
}

/* Feed a hit of query q (id d:N:0). */
static int
hit(const char *q, int n)
{
	char line[512];

	snprintf(line, sizeof line, "{\"query_id\":\"%s\",\"id\":\"d%d:%d:0\",\"doc_id\":\"d%d\","
	    "\"rank\":1,\"score\":0.5,\"lane\":\"text\",\"source_uri\":\"d.txt\",\"snippet\":\"s\"}",
	    q, n, n, n);
	return ev_packloop_line(&run, line, strlen(line), "hits:1", &err);
}

/* The query ids of the packs written, space-separated, and their number of
 * evidences, as "a:2 b:0". */
static const char *
packs(void)
{
	static char ids[1024];
	struct ev_buf id = EV_BUF_INIT;
	char *line, *save = NULL;

	fclose(fp);
	fp = NULL;
	ids[0] = '\0';
	for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		json_t *pk = json_loads(line, 0, NULL);

		cr_assert_not_null(pk, "%s", line);
		cr_assert_eq(ev_json_id_buf(json_object_get(pk, "query_id"), &id), 0, "%s", line);
		snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s:%zu", ids[0] ? " " : "",
		    ev_buf_str(&id), json_array_size(json_object_get(pk, "evidences")));
		json_decref(pk);
	}
	ev_buf_release(&id);
	return ids;
}

/* A queries file holding text; returns its path (static). */
static const char *
queries(const char *text)
{
	static char path[] = "/tmp/test_packrun_XXXXXX";
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

Test(packloop, each_run_of_a_query_is_one_pack, .init = setup, .fini = teardown)
{
	cr_assert_eq(hit("a", 1), 0);
	cr_assert_eq(hit("a", 2), 0);
	cr_assert_eq(ev_packloop_line(&run, "  ", 2, "hits:3", &err), 0);	/* blank */
	cr_assert_eq(hit("b", 3), 0);
	cr_assert_eq(ev_packloop_end(&run, &err), 0);
	cr_assert_eq(run.records, 3);
	cr_assert_eq(run.packs, 2);
	cr_assert_str_eq(packs(), "a:2 b:1");
}

Test(packloop, a_query_coming_back_is_bad_input, .init = setup, .fini = teardown)
{
	cr_assert_eq(hit("a", 1), 0);
	cr_assert_eq(hit("b", 2), 0);
	cr_assert_eq(hit("a", 3), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.msg, "query 'a' comes back after its pack was written") != NULL, "%s",
	    err.msg);
	/* the run goes on (--skip-invalid) */
	cr_assert_eq(hit("b", 4), 0);
	cr_assert_eq(ev_packloop_end(&run, &err), 0);
	cr_assert_str_eq(packs(), "a:1 b:2");
}

Test(packloop, with_queries_each_gets_a_pack_in_their_order, .init = setup, .fini = teardown)
{
	const char *path = queries("{\"query_id\":\"a\",\"query\":\"x\"}\n\"second\"\n"
	    "{\"query_id\":\"c\",\"query\":\"z\"}\n{\"query_id\":\"d\",\"query\":\"w\"}\n");

	cr_assert_eq(ev_packloop_queries(&run, path, &err), 0, "%s", err.msg);
	unlink(path);
	cr_assert_eq(hit("c", 1), 0);
	cr_assert_eq(ev_packloop_end(&run, &err), 0);
	cr_assert_str_eq(packs(), "a:0 2:0 c:1 d:0");
	cr_assert_eq(run.packs, 4);
}

Test(packloop, with_queries_hits_out_of_order_or_unknown_are_bad, .init = setup,
    .fini = teardown)
{
	const char *path = queries("{\"query_id\":\"a\",\"query\":\"x\"}\n"
	    "{\"query_id\":\"b\",\"query\":\"y\"}\n");

	cr_assert_eq(ev_packloop_queries(&run, path, &err), 0, "%s", err.msg);
	unlink(path);
	cr_assert_eq(hit("b", 1), 0);
	cr_assert_eq(hit("a", 2), -1);
	cr_assert(strstr(err.msg, "hits must be in the order of the queries") != NULL, "%s",
	    err.msg);
	cr_assert_eq(hit("z", 3), -1);
	cr_assert(strstr(err.msg, "query 'z' is not in") != NULL, "%s", err.msg);
}

Test(packloop, a_query_given_twice_is_bad_input, .init = setup, .fini = teardown)
{
	const char *path = queries("{\"query_id\":\"a\",\"query\":\"x\"}\n"
	    "{\"query_id\":\"a\",\"query\":\"y\"}\n");

	cr_assert_eq(ev_packloop_queries(&run, path, &err), -1);
	unlink(path);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.msg, "query 'a' is given twice") != NULL, "%s", err.msg);
}

Test(packloop, json_format_is_indented, .init = setup, .fini = teardown)
{
	run.format = EV_PACK_JSON;
	cr_assert_eq(hit("a", 1), 0);
	cr_assert_eq(ev_packloop_end(&run, &err), 0);
	fflush(fp);
	cr_assert(strncmp(out, "{\n  \"", 5) == 0, "%s", out);
}

/* Feed a hit of query q in request req (NULL: none), id dN:0:0. */
static int
req_hit(const char *q, const char *req, int n)
{
	char line[512];

	snprintf(line, sizeof line, "{\"query_id\":\"%s\",%s%s%s\"id\":\"d%d:0:0\",\"score\":%d,"
	    "\"source_uri\":\"d\"}", q, req ? "\"request_id\":\"" : "", req ? req : "",
	    req ? "\"," : "", n, n);
	return ev_packloop_line(&run, line, strlen(line), "hits:1", &err);
}

Test(packloop, queries_of_one_request_make_one_pack, .init = setup, .fini = teardown)
{
	cr_assert_eq(req_hit("a", "R", 1), 0);
	cr_assert_eq(req_hit("b", "R", 2), 0);
	cr_assert_eq(req_hit("a", NULL, 3), 0);	/* an added hit: a's request */
	cr_assert_eq(req_hit("c", NULL, 4), 0);	/* a request of its own */
	cr_assert_eq(req_hit("b", "R", 5), -1);
	cr_assert(strstr(err.msg, "request 'R' comes back after its pack was written") != NULL,
	    "%s", err.msg);
	cr_assert_eq(ev_packloop_end(&run, &err), 0);
	cr_assert_str_eq(packs(), "a:3 c:1");
}

Test(packloop, with_queries_each_request_gets_a_pack_in_their_order, .init = setup,
    .fini = teardown)
{
	const char *path = queries("{\"query_id\":\"a\",\"query\":\"x\",\"request_id\":\"R\"}\n"
	    "{\"query_id\":\"s\",\"query\":\"alone\"}\n"
	    "{\"query_id\":\"b\",\"query\":\"y\",\"request_id\":\"R\"}\n"
	    "{\"query_id\":\"c\",\"query\":\"z\",\"request_id\":\"S\"}\n");

	cr_assert_eq(ev_packloop_queries(&run, path, &err), 0, "%s", err.msg);
	unlink(path);
	cr_assert_eq(req_hit("b", NULL, 1), 0);	/* the file says its request */
	cr_assert_eq(req_hit("a", NULL, 2), 0);
	cr_assert_eq(ev_packloop_end(&run, &err), 0);
	cr_assert_str_eq(packs(), "a:2 s:0 c:0");
	cr_assert_eq(run.packs, 3);
}
