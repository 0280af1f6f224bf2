/* test_textsearch_nomem.c: lib/lanes/textsearch.c when memory runs out in
 * a query with feedback (its pool) -- the query fails with code 1, or its
 * hits are exactly those of the query with memory enough, never those of
 * another ranking; and the next query of the same searcher is whole again.
 * Through FTS5 and through the postings file; and a searcher opened when
 * memory runs out either fails with code 1 or reads the postings file.
 * evkit's malloc, realloc and calloc are wrapped at link time (see LDLIBS_test_textsearch_nomem in the
 * Makefile); SQLite's and Jansson's, in their shared libraries, are not. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "postings.h"
#include "store.h"
#include "test_nomem.h"
#include "test_util.h"
#include "textsearch.h"

/* ---- the store ---------------------------------------------------------- */

static char dir[64], path[128];
static struct ev_store *st;
static struct ev_textsearch *ts;

/* "comet" is in the first five; the best two feed back "tail" and "dust",
 * which the fourth and fifth hold too. */
static const char *const texts[] = {
	"comet comet comet.", "comet comet, its tail and its dust.",
	"a comet: tail, dust, tail, dust and more dust.", "a comet and its dust",
	"comet tail", "no word of the query.", "nor here.", "nor there.", "nor anywhere.",
};
#define NTEXTS (sizeof texts / sizeof *texts)

static void
setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/evkit-tsnomem.XXXXXX");
	st = tu_store_made(dir, path, sizeof path, "SELECT 1");
	for (size_t i = 0; i < NTEXTS; i++)
		tu_add_chunk(st, (long long)i + 1, "note", texts[i], "en");
}

static void
teardown(void)
{
	ev_textsearch_close(ts);
	ts = NULL;
	ev_store_close(st);
	tu_rmdir(dir);
}

TestSuite(textsearch_nomem, .init = setup, .fini = teardown);

/* A new searcher of the store (the last closed): k 2, the best 2 chunks
 * feeding back (weighing 0.9), the feedback pass ranking the first pass's
 * best 3.  Its first query, "query", made (one chunk: no feedback), so that
 * what any query needs once (the word lists, the statements) is there. */
static void
open_ts(void)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_err err = { 0 };
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q0", "query", "query"), *hits = json_array();
	int flags;

	o.k = 2;
	o.feedback_docs = 2;
	o.feedback_weight = 0.9;
	o.feedback_pool = 3;
	ev_textsearch_close(ts);
	ts = ev_textsearch_open(st, &o, &err);
	cr_assert_not_null(ts, "%s", err.msg);
	cr_assert_eq(ev_textsearch_query(ts, q, "q0", hits, &flags, &err), 1, "%s", err.msg);
	json_decref(q);
	json_decref(hits);
}

/* The hits of "comet" into hits (emptied first).  Returns the query's
 * result, its error in *err. */
static int
comet(json_t *hits, struct ev_err *err)
{
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q", "query", "comet");
	int flags, r;

	cr_assert_not_null(q);
	json_array_clear(hits);
	r = ev_textsearch_query(ts, q, "q", hits, &flags, err);
	json_decref(q);
	return r;
}

/* Each allocation of the first query with feedback of a new searcher
 * (open_ts()) failing in turn: it fails with code 1, or gives the hits of
 * memory enough; the query after it gives them too.  swept: whether the
 * passes are to read the postings file. */
static void
every_allocation_failing(int swept)
{
	json_t *want = json_array(), *got = json_array();
	struct ev_err err = { 0 };
	long total, failed = 0;

	open_ts();
	fail_arm(0);
	cr_assert_eq(comet(want, &err), 2, "%s", err.msg);
	total = fail_disarm();
	cr_assert_eq(ev_textsearch_swept(ts), swept);
	/* (the feedback term "tail" brings up the fifth chunk) */
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(want, 1), "id")),
	    "d5:s:0");
	for (long at = 1; at <= total; at++) {
		int r;

		open_ts();
		fail_arm(at);
		r = comet(got, &err);
		fail_disarm();
		if (r == -1) {
			cr_assert_eq(err.code, 1, "allocation %ld failing: %s", at, err.msg);
			failed++;
		} else {
			cr_assert(json_equal(got, want), "allocation %ld failing: other hits", at);
		}
		cr_assert_eq(comet(got, &err), 2, "after allocation %ld failed: %s", at, err.msg);
		cr_assert(json_equal(got, want), "after allocation %ld failed: other hits", at);
	}
	cr_assert_gt(failed, 0, "%ld allocations", total);
	json_decref(want);
	json_decref(got);
}

Test(textsearch_nomem, through_fts5_a_query_fails_or_ranks_as_with_memory_enough)
{
	every_allocation_failing(0);
}

Test(textsearch_nomem, through_the_postings_a_query_fails_or_ranks_as_with_memory_enough)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	every_allocation_failing(1);
}

/* note(): the notes, one a line, into the struct ev_buf ctx. */
static void
keep_note(void *ctx, const char *msg)
{
	cr_assert_eq(ev_buf_adds(ctx, msg), 0);
	cr_assert_eq(ev_buf_addc(ctx, '\n'), 0);
}

Test(textsearch_nomem, a_searcher_opened_out_of_memory_fails_or_reads_the_postings_file)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_err err = { 0 };
	long total, failed = 0;

	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	fail_arm(0);
	ts = ev_textsearch_open(st, &o, &err);
	total = fail_disarm();
	cr_assert_not_null(ts, "%s", err.msg);
	for (long at = 1; at <= total; at++) {
		struct ev_buf notes = EV_BUF_INIT;

		ev_textsearch_close(ts);
		fail_arm(at);
		ts = ev_textsearch_open(st, &o, &err);
		fail_disarm();
		if (ts == NULL) {
			/* out of memory, never a postings file that "cannot be read" */
			cr_assert_eq(err.code, 1, "allocation %ld failing: %s", at, err.msg);
			cr_assert_str_eq(err.msg, "out of memory", "allocation %ld failing", at);
			failed++;
			continue;
		}
		ev_textsearch_advise(ts, "kb.db", keep_note, &notes);
		cr_assert_null(notes.p, "allocation %ld failing: %s", at, notes.p);
		ev_buf_release(&notes);
	}
	cr_assert_gt(failed, 0, "%ld allocations", total);
}
