/* Tests of lib/store/lenstats.c over a real store: the totals of the
 * chunks' lengths counted from the text index (every column, empty chunks
 * too), kept in meta with the index's stamp and read from there while the
 * index is the same, counted again once a write changed the index, a kept
 * value that is not five counts ignored, the chunks whose title and section
 * title hold a word counted, a run that changed nothing writing
 * nothing, a postings file's lengths counted when it is given; and the spread
 * the totals give. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lenstats.h"
#include "store.h"
#include "test_util.h"

static char dir[64], path[128];
static struct ev_store *st;

static void
setup(void)
{
	struct ev_err err = { 0 };

	snprintf(dir, sizeof dir, "/tmp/evkit-lenstats.XXXXXX");
	tu_mkdir(dir, path, sizeof path);
	st = tu_store_create(path, &err);
	/* chunks of 2, 4 and 6 words, a title's words counted as a text's */
	tu_add_chunk(st, 1, NULL, "alpha beta", "en");
	tu_add_chunk(st, 2, "gamma", "delta alpha beta", "en");
	tu_add_chunk(st, 3, "kappa lambda", "alpha beta gamma delta", "en");
}

static void
teardown(void)
{
	ev_store_close(st);
	st = NULL;
	tu_rmdir(dir);
}

TestSuite(lenstats, .init = setup, .fini = teardown);

/* The store's totals, "ROWS TOKENS SQUARES TITLED SECTIONED", into buf. */
static const char *
totals(char *buf, size_t n)
{
	struct ev_err err = { 0 };
	struct ev_lenstats ls = { -1, -1, -1, -1, -1, -1 };

	cr_assert_eq(ev_lenstats_get(st, NULL, &ls, &err), 0, "%s", err.msg);
	snprintf(buf, n, "%lld %lld %lld %lld %lld", ls.rows, ls.tokens, ls.squares, ls.titled,
	    ls.sectioned);
	return buf;
}

static void
keep(void)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_lenstats_keep(st, &err), 0, "%s", err.msg);
}

/* The counts meta keeps after the stamp, or "" when none. */
static const char *
kept_value(char *buf, size_t n)
{
	char *v = NULL;
	struct ev_err err = { 0 };
	int r = ev_store_meta_get(st, EV_LENSTATS_META, &v, &err);

	cr_assert_geq(r, 0, "%s", err.msg);
	snprintf(buf, n, "%s", r == 1 && strlen(v) > 65 ? v + 65 : "");
	free(v);
	return buf;
}

/* Meta's value with its stamp kept and the counts after it replaced. */
static void
replace_kept_counts(const char *counts)
{
	char *v = NULL, sql[256];
	struct ev_err err = { 0 };

	cr_assert_eq(ev_store_meta_get(st, EV_LENSTATS_META, &v, &err), 1);
	snprintf(sql, sizeof sql, "UPDATE meta SET value = '%.65s%s' WHERE key = '%s'", v, counts,
	    EV_LENSTATS_META);
	free(v);
	tu_exec_ok(st, sql);
}

Test(lenstats, the_totals_are_counted_from_every_columns_lengths)
{
	char buf[64];

	cr_assert_str_eq(totals(buf, sizeof buf), "3 12 56 2 0");
	cr_assert_str_eq(kept_value(buf, sizeof buf), "", "reading keeps nothing");
}

Test(lenstats, an_empty_chunk_counts_and_an_empty_index_has_none)
{
	char buf[64];

	tu_add_chunk(st, 4, NULL, "", "en");
	cr_assert_str_eq(totals(buf, sizeof buf), "4 12 56 2 0");
	tu_exec_ok(st, "DELETE FROM chunks_fts");
	cr_assert_str_eq(totals(buf, sizeof buf), "0 0 0 0 0");
}

/* Whether the last ev_lenstats_get() of the store counted its totals. */
static int
counted(void)
{
	struct ev_err err = { 0 };
	struct ev_lenstats ls = { -1, -1, -1, -1, -1, -1 };

	cr_assert_eq(ev_lenstats_get(st, NULL, &ls, &err), 0, "%s", err.msg);
	return ls.counted;
}

Test(lenstats, a_reader_is_told_whether_the_totals_were_counted_or_kept)
{
	cr_assert_eq(counted(), 1);
	keep();
	cr_assert_eq(counted(), 0);
	tu_add_chunk(st, 4, NULL, "one", "en");
	cr_assert_eq(counted(), 1, "stale: counted again");
}

Test(lenstats, kept_totals_are_read_while_the_index_is_the_same)
{
	char buf[64];

	keep();
	cr_assert_str_eq(kept_value(buf, sizeof buf), "3 12 56 2 0");
	replace_kept_counts("7 8 9 6 5");
	cr_assert_str_eq(totals(buf, sizeof buf), "7 8 9 6 5", "read from meta, not counted");
	keep();
	cr_assert_str_eq(kept_value(buf, sizeof buf), "7 8 9 6 5",
	    "current totals are not written again");
}

Test(lenstats, a_write_to_the_index_makes_the_kept_totals_stale)
{
	char buf[64];

	keep();
	replace_kept_counts("7 8 9 6 5");
	tu_add_chunk(st, 4, "Four", "one two three four", "en");
	cr_assert_str_eq(totals(buf, sizeof buf), "4 17 81 3 0");
	keep();
	cr_assert_str_eq(kept_value(buf, sizeof buf), "4 17 81 3 0");
}

Test(lenstats, kept_counts_that_are_not_five_counts_are_ignored)
{
	/* "1 2 3": what an earlier evkit kept, without the titled chunks */
	const char *bad[] = { "x", "", "1 2", "1 2 3", "1 2 3 0", "1 2 3 0 0 0", "1 2 3 0 0x",
	    "-1 2 3 0 0", "1 2 -3 0 0", "1 2 3 -1 0", "1 2 3 0 -1", "1 2 3 2 0", "1 2 3 0 2" };
	char buf[64];

	keep();
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		replace_kept_counts(bad[i]);
		cr_assert_str_eq(totals(buf, sizeof buf), "3 12 56 2 0", "kept '%s'", bad[i]);
	}
}

Test(lenstats, the_chunks_with_a_title_and_with_a_section_title_are_counted_apart)
{
	char buf[64];

	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " VALUES(4, '', 'Methods', 'one'), (5, 'Five', 'Results', 'two'), (6, '', '', 'three')");
	cr_assert_str_eq(totals(buf, sizeof buf), "6 18 70 3 2");
}

Test(lenstats, the_spread_is_the_standard_deviation_over_the_mean)
{
	cr_assert_float_eq(ev_lenstats_spread(3, 12, 56), sqrt(8.0 / 3.0) / 4.0, 1e-15);
	cr_assert_float_eq(ev_lenstats_spread(4, 16, 72), sqrt(2.0) / 4.0, 1e-15);
	cr_assert_float_eq(ev_lenstats_spread(3, 12, 48), 0.0, 0, "one length");
	cr_assert_float_eq(ev_lenstats_spread(0, 0, 0), 0.0, 0, "no chunks");
	cr_assert_float_eq(ev_lenstats_spread(2, 0, 0), 0.0, 0, "empty chunks");
}

Test(lenstats, a_postings_files_lengths_are_counted_when_it_is_given)
{
	struct ev_err err = { 0 };
	struct ev_lenstats ls = { -1, -1, -1, -1, -1, -1 };
	struct ev_postings *p;
	int stale = -1;
	char buf[64];

	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_eq(ev_lenstats_get(st, p, &ls, &err), 0, "%s", err.msg);
	cr_assert_eq(ls.rows, 3);
	cr_assert_eq(ls.tokens, 12);
	cr_assert_eq(ls.squares, 56);
	cr_assert_eq(ls.titled, 2);
	/* the file's lengths, not the index's: a chunk added since is not in
	 * them; the titled chunks are the index's */
	tu_add_chunk(st, 4, "Four", "one two three four", "en");
	cr_assert_eq(ev_lenstats_get(st, p, &ls, &err), 0, "%s", err.msg);
	cr_assert_eq(ls.squares, 56);
	cr_assert_eq(ls.titled, 3);
	cr_assert_str_eq(totals(buf, sizeof buf), "4 17 81 3 0");
	ev_postings_close(p);
}

/* A note's text, kept. */
static char noted[512];

static void
keep_note(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(noted, sizeof noted, "%s", msg);
}

Test(lenstats, totals_that_cannot_be_kept_are_said_not_an_error)
{
	struct ev_err err = { 0 };
	struct ev_store *ro;
	char buf[64];

	ev_lenstats_refresh(st, "kb.db", keep_note, NULL);
	cr_assert_str_eq(noted, "", "kept: nothing to say");
	cr_assert_str_eq(kept_value(buf, sizeof buf), "3 12 56 2 0");
	tu_add_chunk(st, 4, NULL, "one two three four", "en");
	cr_assert_not_null(ro = ev_store_open(path, EV_STORE_READ, &err), "%s", err.msg);
	ev_lenstats_refresh(ro, "kb.db", keep_note, NULL);	/* a store it cannot write */
	ev_store_close(ro);
	cr_assert(strncmp(noted, "kb.db: the documents are stored, but the totals of their chunks'"
	    " lengths could not be kept (", 92) == 0, "%s", noted);
	cr_assert_str_eq(kept_value(buf, sizeof buf), "3 12 56 2 0", "the stale totals stay");
	cr_assert_str_eq(totals(buf, sizeof buf), "4 16 72 2 0", "and are not read");
}
