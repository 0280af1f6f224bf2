/* Tests of lib/lanes/maxscore.c, the pruned sweep of a postings file, on a
 * store made for one of its paths: the look-ups after the walks, whose
 * running top must hold only hits; and of the merge of alternatives'
 * positions (sweep.c), two runs or more, rising or not.  (The sweep's hits
 * are compared with FTS5's over many queries in test_textsearch.c.) */
#include <criterion/criterion.h>
#include <stdio.h>

#include "bm25.h"
#include "postings.h"
#include "store.h"
#include "sweep.h"
#include "sweepstate.h"
#include "test_util.h"

TU_SUITE_WITH_DIR(sweep_lookups, "evkit-sweep");
static struct ev_store *st;

/* Rows lo to hi, each a chunk (and its document) of the English text
 * text, indexed as a writer indexes them (through chunks_src). */
static void
add_rows(long long lo, long long hi, const char *text)
{
	static const char *const sql[] = {
		"INSERT INTO documents(doc_id, title, content_hash) SELECT 'd' || i, NULL, 'x' FROM r",
		"INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, title, text, content_hash,"
		    " language) SELECT i, 'd' || i || ':s:0', 'd' || i, 'd' || i || ':s', 0, NULL, '%s',"
		    " 'x', 'en' FROM r",
		"INSERT INTO chunks_fts(rowid, title, section_title, text) SELECT rowid, title,"
		    " section_title, text FROM chunks_src WHERE rowid IN r",
	};

	for (size_t i = 0; i < sizeof sql / sizeof *sql; i++) {
		char q[640], body[512];

		snprintf(body, sizeof body, sql[i], text);
		snprintf(q, sizeof q, "WITH RECURSIVE r(i) AS (SELECT %lld UNION ALL SELECT i + 1 FROM r"
		    " WHERE i < %lld) %s", lo, hi, body);
		tu_exec_ok(st, q);
	}
}

/* Rows lo to hi as add_rows() makes them, of the language lang (SQL: 'de',
 * or NULL for none recorded). */
static void
add_rows_in(long long lo, long long hi, const char *text, const char *lang)
{
	char q[256];

	add_rows(lo, hi, text);
	snprintf(q, sizeof q, "UPDATE chunks SET language = %s WHERE rowid BETWEEN %lld AND %lld",
	    lang, lo, hi);
	tu_exec_ok(st, "DELETE FROM chunks_fts");
	tu_exec_ok(st, q);
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text) SELECT rowid,"
	    " title, section_title, text FROM chunks_src");
}

/* The store in the suite's folder: three rows of "alpha" (the third
 * longer, so scoring less), 20 of "tango" four times and "tulip", 60 of
 * "tulip bravo", 70 of "bravo" and 90 of neither; and its postings file. */
static void
make_store(void)
{
	struct ev_err err = { 0 };

	st = tu_store_create(path, &err);
	tu_exec_ok(st, "BEGIN");
	add_rows(1, 2, "alpha");
	add_rows(3, 3, "alpha filler filler filler filler");
	add_rows(10, 29, "tango tango tango tango tulip");
	add_rows(30, 89, "tulip bravo");
	add_rows(90, 159, "bravo");
	add_rows(160, 249, "filler");
	tu_exec_ok(st, "COMMIT");
	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
}

/* The words word[0..n), each a phrase of one token, the first nfilter of
 * them the filter group, weighing w[i] each, swept for the best limit
 * into *h (a fresh query), the columns weighing colw[0..3). */
static long long
sweep_weighed(struct ev_bm25_sweep *sw, const char *const *word, double *w, int n, int nfilter,
    long long limit, const double *colw, const struct ev_bm25_hit **h)
{
	static const int one[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	struct ev_bm25_phrase ph[8];
	int len[8];
	struct ev_bm25_weights pw = { n, w, 0, 0, 0, NULL, 0, 0, 0, 0 };
	struct ev_err err = { 0 };
	long long got;

	cr_assert_leq(n, 8);
	for (int i = 0; i < n; i++) {
		len[i] = (int)strlen(word[i]);
		ph[i].ntok = 1;
		ph[i].nalt = &one[i];
		ph[i].tok = &word[i];
		ph[i].len = &len[i];
		ph[i].filter = i < nfilter;
	}
	ev_bm25_sweep_forget(sw);
	got = ev_bm25_sweep(sw, ph, n, colw, 3, &pw, limit, h, &err);
	cr_assert_geq(got, 0, "%s", err.msg);
	return got;
}

/* sweep_weighed() with every column weighing 1. */
static long long
sweep_words(struct ev_bm25_sweep *sw, const char *const *word, double *w, int n, int nfilter,
    long long limit, const struct ev_bm25_hit **h)
{
	static const double colw[3] = { 1, 1, 1 };

	return sweep_weighed(sw, word, w, n, nfilter, limit, colw, h);
}

/* The phrases of "(alpha OR bravo) AND (alpha OR bravo OR tango OR tulip)",
 * numbered as FTS5 numbers them, and their weights: the first two, the
 * filter group, weigh nothing; with extra, a last phrase alpha weighing
 * nothing too (a sweep with a scoring phrase of weight 0 is not pruned). */
static long long
sweep(struct ev_bm25_sweep *sw, int extra, long long limit, const struct ev_bm25_hit **h)
{
	static const char *const words[] = { "alpha", "bravo", "alpha", "bravo", "tango", "tulip",
	    "alpha" };
	static double weights[] = { 0, 0, 1, 1, 1, 1, 0 };

	return sweep_words(sw, words, weights, extra ? 7 : 6, 2, limit, h);
}

/* A sweeper over the postings file (*p) of a new make_store(). */
static struct ev_bm25_sweep *
open_sweeper(struct ev_postings **p)
{
	struct ev_err err = { 0 };
	struct ev_bm25_sweep *sw;
	int stale = 0;

	make_store();
	cr_assert_not_null(*p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_not_null(sw = ev_bm25_sweep_new(*p, &err), "%s", err.msg);
	return sw;
}

/* The best 3: the rows of alpha, the third last.  The walks take alpha and
 * tango (the highest bounds) and stop there, tulip and bravo left to look
 * up; tulip raises the score of the 20 rows of tango above the third alpha
 * row's, but those rows hold neither alpha nor bravo: they are no hits, and
 * were they taken for hits in the running top, the theta they made would
 * drop the third alpha row, a hit, before its exact score. */
Test(sweep_lookups, rows_that_are_no_hits_never_raise_theta_over_a_hit)
{
	struct ev_postings *p;
	struct ev_bm25_sweep *sw = open_sweeper(&p);
	const struct ev_bm25_hit *h;
	struct ev_bm25_hit all[3];

	for (int split = 0; split <= 1; split++) {
		ev_bm25_sweep_split(sw, split);	/* (1: in two halves, on two threads) */
		cr_assert_eq(sweep(sw, 1, 3, &h), 3);
		cr_assert_eq(ev_bm25_sweep_pruned(sw), 0);
		memcpy(all, h, sizeof all);
		cr_assert_eq(sweep(sw, 0, 3, &h), 3, "split %d", split);
		if (!split)
			cr_assert_eq(ev_bm25_sweep_pruned(sw), 2, "tulip and bravo looked up");
		for (int i = 0; i < 3; i++) {
			cr_assert_eq(h[i].rowid, (long long)(i + 1), "split %d: hit %d", split, i + 1);
			cr_assert_eq(h[i].rowid, all[i].rowid);
			cr_assert_eq(h[i].s, all[i].s, "split %d: hit %d's score", split, i + 1);
		}
	}
	ev_bm25_sweep_free(sw);
	ev_postings_close(p);
	ev_store_close(st);
}

/* Pages given back after a sweep (ev_bm25_sweep_release(), on the thread
 * of a split sweeper) are mapped again, zeroed, by the next sweep, whose
 * hits and scores are those of a sweeper that kept them: the rows' scores
 * and marks written by the first sweep are gone (0), not stale. */
Test(sweep_lookups, a_sweep_after_the_pages_are_given_back_gives_the_same_hits)
{
	struct ev_postings *p;
	struct ev_bm25_sweep *sw = open_sweeper(&p);
	const struct ev_bm25_hit *h;
	struct ev_bm25_hit all[3];

	ev_bm25_sweep_split(sw, 1);	/* (a second thread: the pages are given back) */
	cr_assert_eq(sweep(sw, 1, 3, &h), 3);
	memcpy(all, h, sizeof all);
	cr_assert_neq(sw->acc[all[0].rowid], 0, "the first sweep wrote the row's score");
	ev_bm25_sweep_release(sw);
	cr_assert_eq(sw->acc[all[0].rowid], 0, "the pages were given back");
	for (int i = 0; i < 3; i++)
		cr_assert_eq(h[i].rowid, all[i].rowid, "the hits stay");
	cr_assert_eq(sweep(sw, 1, 3, &h), 3);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(h[i].rowid, all[i].rowid, "hit %d", i + 1);
		cr_assert_eq(h[i].s, all[i].s, "hit %d's score", i + 1);
	}
	ev_bm25_sweep_free(sw);
	ev_postings_close(p);
	ev_store_close(st);
}

/* Rows 1 and 2 hold the four words, 190 more the three but alpha, 548 are
 * of six words of filler: alpha's IDF (5.7) is nearly twice the other
 * three's together (3 x 1.05).  The best 2 are rows 1 and 2.  Alpha walked
 * first (the highest bound), the scores so far put its two rows on top, at
 * alpha's term alone (6.3), below the bounds of the three words left
 * (6.9): MaxScore would walk bravo too.  Their exact scores (9.8, every
 * word's term; 8 look-ups, against 192 rows of bravo to walk) are a floor
 * of the second best that the bounds left are below: the three are looked
 * up in the two rows instead, for the same hits. */
Test(sweep_lookups, the_exact_scores_of_the_top_rows_are_a_floor_that_prunes_sooner)
{
	static const char *const word[] = { "alpha", "bravo", "tango", "tulip", "alpha" };
	static double w[] = { 1, 1, 1, 1, 0 };
	struct ev_err err = { 0 };
	struct ev_postings *p;
	struct ev_bm25_sweep *sw;
	const struct ev_bm25_hit *h;
	struct ev_bm25_hit all[2];
	int stale = 0;

	st = tu_store_create(path, &err);
	tu_exec_ok(st, "BEGIN");
	add_rows(1, 2, "alpha bravo tango tulip");
	add_rows(10, 199, "bravo tango tulip");
	add_rows(200, 747, "filler filler filler filler filler filler");
	tu_exec_ok(st, "COMMIT");
	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_not_null(sw = ev_bm25_sweep_new(p, &err), "%s", err.msg);
	ev_bm25_sweep_split(sw, 0);
	/* (with a fifth phrase weighing nothing, the sweep is not pruned) */
	cr_assert_eq(sweep_words(sw, word, w, 5, 0, 2, &h), 2);
	cr_assert_eq(ev_bm25_sweep_pruned(sw), 0, "a phrase of weight 0: every one walked");
	memcpy(all, h, sizeof all);
	cr_assert_eq(sweep_words(sw, word, w, 4, 0, 2, &h), 2);
	cr_assert_eq(ev_bm25_sweep_pruned(sw), 3, "bravo, tango and tulip looked up");
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(h[i].rowid, (long long)(i + 1), "hit %d", i + 1);
		cr_assert_eq(h[i].rowid, all[i].rowid);
		cr_assert_eq(h[i].s, all[i].s, "hit %d's score", i + 1);
	}
	ev_bm25_sweep_free(sw);
	ev_postings_close(p);
	ev_store_close(st);
}

/* A word walked whole by the pruned sweep has each row's frequency read
 * off its entry's one byte of counts (sp->byte_f), or off its counts when
 * they are escaped (kilo 40 times in rows 1 to 3 and 300 to 302), into
 * the scores so far, which a process's last sweep leaves: for a query of
 * that word alone they are the hits' exact scores, to the bit, with whole
 * column weights and others, on one thread or two (the upper half's
 * first row not the list's first). */
Test(sweep_lookups, a_walked_words_one_byte_and_escaped_counts_sum_its_exact_scores)
{
	static const char *const word[] = { "kilo" };
	static double w[] = { 1 };
	static const double colw[][3] = { { 1, 1, 1 }, { 4, 4, 1 }, { 4, 0.3, 0.7 } };
	struct ev_err err = { 0 };
	struct ev_postings *p;
	struct ev_bm25_sweep *sw;
	const struct ev_bm25_hit *h;
	char forty[512] = "";
	int stale = 0;

	for (int i = 0; i < 40; i++)
		strcat(forty, i ? " kilo" : "kilo");
	st = tu_store_create(path, &err);
	tu_exec_ok(st, "BEGIN");
	add_rows(1, 3, forty);
	add_rows(10, 99, "kilo lima kilo");
	add_rows(100, 299, "lima mike");
	add_rows(300, 302, forty);
	add_rows(303, 350, "kilo");
	tu_exec_ok(st, "COMMIT");
	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_not_null(sw = ev_bm25_sweep_new(p, &err), "%s", err.msg);
	for (size_t c = 0; c < sizeof colw / sizeof colw[0]; c++)
		for (int split = 0; split <= 1; split++) {
			ev_bm25_sweep_split(sw, split);
			cr_assert_eq(sweep_weighed(sw, word, w, 1, 0, 200, colw[c], &h), 144);
			cr_assert_eq(h[0].rowid, 1, "the rows of forty kilos first");
			for (int i = 0; i < 144; i++)
				cr_assert_eq(sw->acc[h[i].rowid], -h[i].s, "weights %zu split %d row %lld",
				    c, split, h[i].rowid);
		}
	ev_bm25_sweep_free(sw);
	ev_postings_close(p);
	ev_store_close(st);
}

/* A position's alternatives of no rows are left out when another has
 * rows (alpha's "zulu", and "yankee" beside tango in the pair), never all
 * of them (both of "zulu yankee"); and alpha so narrowed, a word of one
 * list then, ranks as alpha alone. */
Test(sweep_lookups, an_alternative_of_no_rows_is_left_out_unless_all_are)
{
	static const char *const tok[] = { "alpha", "zulu", "zulu", "yankee", "yankee", "tango",
	    "tulip" };
	static const int len[] = { 5, 4, 4, 6, 6, 5, 5 }, nalt[] = { 2, 2, 2, 1 };
	static const char *const alone[] = { "alpha" };
	static double w[] = { 1 };
	struct ev_bm25_phrase ph[3] = {
		{ 1, &nalt[0], &tok[0], &len[0], 0 },
		{ 1, &nalt[1], &tok[2], &len[2], 0 },
		{ 2, &nalt[2], &tok[4], &len[4], 0 },
	};
	struct ev_bm25_hit all[3];
	const struct ev_bm25_phrase *np;
	const struct ev_bm25_hit *h;
	struct ev_err err = { 0 };
	struct ev_postings *p;
	struct ev_bm25_sweep *sw;
	int stale = 0;

	make_store();
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_not_null(sw = ev_bm25_sweep_new(p, &err), "%s", err.msg);
	cr_assert_not_null(np = ev_sweep_narrow(sw, ph, 3));
	cr_assert_eq(np[0].nalt[0], 1);
	cr_assert_str_eq(np[0].tok[0], "alpha");
	cr_assert_eq(np[1].nalt[0], 2, "every one empty: all kept");
	cr_assert_eq(np[2].nalt[0], 1);
	cr_assert_eq(np[2].nalt[1], 1);
	cr_assert_str_eq(np[2].tok[0], "tango");
	cr_assert_str_eq(np[2].tok[1], "tulip");
	ev_bm25_sweep_split(sw, 0);
	cr_assert_eq(sweep_words(sw, alone, w, 1, 0, 3, &h), 3);
	memcpy(all, h, sizeof all);
	cr_assert_eq(ev_bm25_sweep(sw, ph, 1, (const double[]){ 1, 1, 1 }, 3,
	    &(struct ev_bm25_weights){ 1, w, 0, 0, 0, NULL, 0, 0, 0, 0 }, 3, &h, &err), 3, "%s",
	    err.msg);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(h[i].rowid, all[i].rowid);
		cr_assert_eq(h[i].s, all[i].s);
	}
	ev_bm25_sweep_free(sw);
	ev_postings_close(p);
	ev_store_close(st);
}

/* In an index of version 2, a word searched as its English stem and as
 * itself (its narrowed list: postings.h) is added as the stem's list is read, the narrowed rows taken
 * apart: those before the stem's first row, between its rows, after its
 * last, and those of chunks of no language recorded, which hold the stem
 * too (their frequency found from both lists): a sixteenth of the stem's
 * rows or fewer (as is common).  Its scores are those of the word itself's
 * whole list (the same rows, counts and positions), to the bit, on one
 * thread or two (the halves' rows each their own). */
Test(sweep_lookups, a_word_and_its_narrowed_rows_add_up_as_its_whole_list)
{
	static const char *const both[] = { "kilo", "\xff\x1f\x1fkilo" };
	static const char *const whole[] = { "\x1f\x1fkilo" };
	static const int nalt[] = { 2, 1 }, len[] = { 4, 7 }, wlen[] = { 6 };
	static double w[] = { 1 };
	struct ev_bm25_phrase ph = { 1, &nalt[0], both, len, 0 }, wph = { 1, &nalt[1], whole, wlen, 0 };
	struct ev_bm25_weights pw = { 1, w, 0, 0, 0, NULL, 0, 0, 0, 0 };
	static const double colw[3] = { 1, 1, 1 };
	struct ev_bm25_hit want[200];
	const struct ev_bm25_hit *h;
	struct ev_err err = { 0 };
	struct ev_postings *p;
	struct ev_bm25_sweep *sw;
	int stale = 0;

	st = tu_store_create(path, &err);
	tu_index_of_version_2(st);
	tu_exec_ok(st, "BEGIN");
	add_rows_in(1, 3, "kilo kilo lima", "'de'");
	add_rows(10, 19, "kilo lima");
	add_rows_in(20, 22, "kilo mike kilo", "NULL");
	add_rows(23, 30, "lima kilo kilo kilo");
	add_rows_in(31, 31, "kilo", "'de'");
	add_rows(32, 200, "lima kilo mike");
	add_rows_in(201, 203, "mike kilo", "'de'");
	tu_exec_ok(st, "COMMIT");
	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_not_null(sw = ev_bm25_sweep_new(p, &err), "%s", err.msg);
	cr_assert_eq(ev_postings_term(p, both[1], len[1], &(struct ev_postings_cursor){ 0 }), 10,
	    "the narrowed rows: the German ones and those of no language");
	for (int split = 0; split <= 1; split++) {
		ev_bm25_sweep_split(sw, split);
		ev_bm25_sweep_forget(sw);
		cr_assert_eq(ev_bm25_sweep(sw, &wph, 1, colw, 3, &pw, 200, &h, &err), 197, "%s", err.msg);
		memcpy(want, h, 197 * sizeof *h);
		ev_bm25_sweep_forget(sw);
		cr_assert_eq(ev_bm25_sweep(sw, &ph, 1, colw, 3, &pw, 200, &h, &err), 197, "%s", err.msg);
		for (int i = 0; i < 197; i++) {
			cr_assert_eq(h[i].rowid, want[i].rowid, "split %d hit %d", split, i);
			cr_assert_eq(h[i].s, want[i].s, "split %d row %lld", split, h[i].rowid);
		}
	}
	ev_bm25_sweep_free(sw);
	ev_postings_close(p);
	ev_store_close(st);
}

/* The runs of in (start[0..nrun]) merged, as "K K K" into b. */
static const char *
merged(const uint64_t *in, const int *start, int nrun, char *b, size_t cap)
{
	uint64_t out[32];
	int n = ev_sweep_merge_runs(out, in, start, nrun);
	size_t at = 0;

	b[0] = '\0';
	for (int i = 0; i < n && at < cap; i++)
		at += (size_t)snprintf(b + at, cap - at, "%s%llu", i ? " " : "", (unsigned long long)out[i]);
	return b;
}

Test(merge, the_alternatives_positions_come_out_rising_and_each_once)
{
	/* two runs interleaved, sharing 5 and 9; one run ending first; each
	 * empty in turn */
	static const uint64_t a[] = { 1, 5, 9, 12, 2, 5, 7, 9 };
	static const uint64_t b[] = { 3, 4, 1, 2, 8, 10 };
	static const uint64_t c[] = { 6, 6 };
	static const int sa[] = { 0, 4, 8 }, sb[] = { 0, 2, 6 }, sc0[] = { 0, 0, 1 },
	    sc1[] = { 0, 1, 1 }, sc2[] = { 0, 1, 2 };
	char buf[256];

	cr_assert_str_eq(merged(a, sa, 2, buf, sizeof buf), "1 2 5 7 9 12");
	cr_assert_str_eq(merged(b, sb, 2, buf, sizeof buf), "1 2 3 4 8 10");
	cr_assert_str_eq(merged(c, sc0, 2, buf, sizeof buf), "6");
	cr_assert_str_eq(merged(c, sc1, 2, buf, sizeof buf), "6");
	cr_assert_str_eq(merged(c, sc2, 2, buf, sizeof buf), "6");
}

Test(merge, three_runs_and_a_run_not_rising_come_out_as_sorting_makes_them)
{
	static const uint64_t a[] = { 1, 5, 9, 2, 5, 7, 3, 9, 11 };
	static const uint64_t bad[] = { 1, 5, 9, 7, 2, 8 };	/* 7, 2: not rising */
	static const int sa[] = { 0, 3, 6, 9 }, sbad[] = { 0, 3, 6 };
	char buf[256];

	cr_assert_str_eq(merged(a, sa, 3, buf, sizeof buf), "1 2 3 5 7 9 11");
	cr_assert_str_eq(merged(bad, sbad, 2, buf, sizeof buf), "1 2 5 7 8 9");
}
/* Column weights are whole when each is a whole number from 0 to
 * EV_SWEEP_WHOLE_MAX: a row's frequency is then a sum of products, the
 * same to the bit as the instances' weights added one by one (the sweep's
 * hits with the defaults, 4, 4 and 1, and with a title weight of 0.3, are
 * compared with FTS5's in test_textsearch.c). */
Test(merge, column_weights_are_whole_when_each_is_a_whole_number_up_to_the_bound)
{
	static const struct {
		double w[3];
		int whole;
	} cases[] = {
		{ { 4, 4, 1 }, 1 },			/* the defaults */
		{ { 0, 1000, 0 }, 1 },
		{ { 1048576, 1, 1 }, 1 },		/* EV_SWEEP_WHOLE_MAX */
		{ { 1048577, 1, 1 }, 0 },		/* past it */
		{ { 4, 0.3, 1 }, 0 },
		{ { 4, 4, -1 }, 0 },
		{ { 4, 4, 1e300 }, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		cr_assert_eq(ev_sweep_whole_weights(cases[i].w, 3), cases[i].whole, "case %zu", i);
	cr_assert_eq(ev_sweep_whole_weights(cases[0].w, 0), 1, "no weights: every column weighs 1");
}
