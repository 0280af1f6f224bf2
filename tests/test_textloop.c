/* Tests of lib/lanes/textloop.c: the text lane's query loop over a real store:
 * hits written query by query and counted, warnings, bad records stopped at
 * or skipped, a write error never skipped. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "textloop.h"
#include "test_util.h"

static char dir[] = "/tmp/evkit-textloop-XXXXXX";
static char path[256], qpath[256], warnings[4096];
static struct ev_store *st;
static struct ev_textsearch *ts;
static struct ev_textloop loop;
static struct ev_err err;
static char *outp;
static size_t outn;
static int skips, skip_answer;

static int
skip(void *ctx, struct ev_err *e)
{
	(void)ctx;
	cr_assert_eq(e->code, 2, "only bad input is offered for skipping: %s", e->msg);
	skips++;
	return skip_answer;
}

static void
warn(void *ctx, const char *where, const char *what)
{
	(void)ctx;
	snprintf(warnings + strlen(warnings), sizeof warnings - strlen(warnings), "%s: %s\n", where,
	    what);
}

static void
open_search(const char *dict_dir)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.feedback_docs = 0;
	o.dict_dir = dict_dir;
	ts = ev_textsearch_open(st, &o, &err);
	cr_assert_not_null(ts, "%s", err.msg);
}

static void
setup(void)
{
	st = tu_store_made(dir, path, sizeof path,
	    "INSERT INTO documents(doc_id, content_hash) VALUES ('d', 'h'), ('e', 'h');"
	    "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash) VALUES"
	    " (1, 'd:s:0', 'd', 's', 0, 'the wing in a slipstream', 'h'),"
	    " (2, 'd:s:1', 'd', 's', 1, 'a wing and a plate', 'h'),"
	    " (3, 'e:s:0', 'e', 's', 0, 'heat transfer at a wall', 'h');"
	    "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks;");
	snprintf(qpath, sizeof qpath, "%s/q.jsonl", dir);
	memset(&loop, 0, sizeof loop);
	loop.skip = skip;
	loop.warn = warn;
	warnings[0] = '\0';
	skips = skip_answer = 0;
	outp = NULL;
}

static void
teardown(void)
{
	ev_textsearch_close(ts);
	ts = NULL;
	ev_store_close(st);
	free(outp);
	tu_rmdir(dir);
	strcpy(dir, "/tmp/evkit-textloop-XXXXXX");
}

TestSuite(textloop, .init = setup, .fini = teardown);

/* Run over the query lines of text; returns ev_textloop_search()'s result, the
 * output in outp. */
static int
run_queries(const char *text)
{
	FILE *q = fopen(qpath, "w"), *out;
	char *paths[] = { qpath };
	struct ev_jsonl *in;
	int r;

	cr_assert_not_null(q);
	fputs(text, q);
	cr_assert_eq(fclose(q), 0);
	in = ev_jsonl_open(paths, 1, &err);
	cr_assert_not_null(in, "%s", err.msg);
	out = open_memstream(&outp, &outn);
	cr_assert_not_null(out);
	r = ev_textloop_search(ts, in, out, &loop, &err);
	cr_assert_eq(fclose(out), 0);
	ev_jsonl_close(in);
	return r;
}

/* The query_id of every hit line of the output, in order: "1 1 2 ". */
static const char *
hit_ids(char *buf, size_t size)
{
	const char *p = outp;

	buf[0] = '\0';
	while ((p = strstr(p, "\"query_id\":")) != NULL) {
		p += strlen("\"query_id\":");
		snprintf(buf + strlen(buf), size - strlen(buf), "%.*s ", (int)strcspn(p, ","), p);
	}
	return buf;
}

Test(textloop, hits_of_each_query_in_order_and_counted)
{
	char ids[256];

	open_search(NULL);
	cr_assert_eq(run_queries("\"wing\"\n{\"query_id\":\"q\",\"query\":\"heat\"}\n\"zeppelin\"\n"),
	    0, "%s", err.msg);
	cr_assert_str_eq(hit_ids(ids, sizeof ids), "1 1 \"q\" ");
	cr_assert_eq(loop.queries, 3);
	cr_assert_eq(loop.hits, 3);
	cr_assert_str_eq(warnings, "");
	cr_assert_eq(skips, 0);
}

Test(textloop, a_query_without_words_is_warned_about_and_answered)
{
	open_search(NULL);
	cr_assert_eq(run_queries("\"the (*) of\"\n\"wall\"\n"), 0, "%s", err.msg);
	cr_assert_eq(loop.queries, 2);
	cr_assert_eq(loop.hits, 1);
	cr_assert_not_null(strstr(warnings, ":1: query has no words to search for"), "%s", warnings);
	cr_assert_eq(strchr(warnings, '\n'), warnings + strlen(warnings) - 1, "one warning: %s",
	    warnings);
}

Test(textloop, a_bad_record_stops_after_the_hits_before_it)
{
	char ids[256];

	open_search(NULL);
	cr_assert_eq(run_queries("\"heat\"\n{\"query\":3}\n\"wing\"\n"), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_not_null(strstr(err.where, ":2"), "names the line: %s", err.where);
	cr_assert_str_eq(hit_ids(ids, sizeof ids), "1 ");
	cr_assert_eq(skips, 1);
	cr_assert_eq(loop.queries, 1);
}

Test(textloop, bad_records_and_filters_skipped_when_skip_says_so)
{
	char ids[256];

	open_search(NULL);
	skip_answer = 1;
	cr_assert_eq(run_queries("\"heat\"\n{\"query\":\n{\"query\":\"wing\",\"filters\":{\"x\":1}}\n"
	    "\"wing\"\n"), 0, "%s", err.msg);
	cr_assert_str_eq(hit_ids(ids, sizeof ids), "1 4 4 ");
	cr_assert_eq(skips, 2);
	cr_assert_eq(loop.queries, 2);
	cr_assert_eq(loop.hits, 3);
}

Test(textloop, a_write_error_stops_and_is_not_offered_for_skipping)
{
	FILE *q = fopen(qpath, "w"), *out;
	char *paths[] = { qpath };
	struct ev_jsonl *in;

	open_search(NULL);
	skip_answer = 1;
	cr_assert_not_null(q);
	fputs("\"wing\"\n\"heat\"\n", q);
	cr_assert_eq(fclose(q), 0);
	in = ev_jsonl_open(paths, 1, &err);
	cr_assert_not_null(in, "%s", err.msg);
	out = fopen(qpath, "r");	/* not writable */
	cr_assert_not_null(out);
	cr_assert_eq(ev_textloop_search(ts, in, out, &loop, &err), -1);
	cr_assert_eq(err.code, 1, "%s", err.msg);
	cr_assert_eq(skips, 0);
	cr_assert_eq(loop.queries, 0);
	fclose(out);
	ev_jsonl_close(in);
}

Test(textloop, a_missing_word_list_is_warned_about_once)
{
	char nodict[300];

	snprintf(nodict, sizeof nodict, "%s/nodict", dir);
	cr_assert_eq(mkdir(nodict, 0755), 0);
	open_search(nodict);
	cr_assert_eq(run_queries("\"wnig\"\n\"slipstraem\"\n"), 0, "%s", err.msg);
	cr_assert_not_null(strstr(warnings, ":1: no word list for language 'en' (install wamerican)"),
	    "%s", warnings);
	cr_assert_eq(strchr(warnings, '\n'), warnings + strlen(warnings) - 1, "once: %s", warnings);
	cr_assert_eq(loop.queries, 2);
}
