/* Tests of lib/lanes/bm25.c on a real FTS5 table: without weights ev_bm25() is
 * FTS5's bm25() exactly; a phrase's weight multiplies its term alone; column
 * weights work as bm25()'s do. */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>

#include "bm25.h"
#include "sweep.h"

static sqlite3 *db;

static void
setup(void)
{
	struct ev_err err = { 0 };

	cr_assert_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	cr_assert_eq(ev_bm25_register(db, &err), 0, "%s", err.msg);
	cr_assert_eq(sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING fts5(title, body);"
	    "INSERT INTO t VALUES('Wing', 'the lift of a wing in a slipstream');"
	    "INSERT INTO t VALUES('Plate', 'flow past a flat plate, a flat plate again');"
	    "INSERT INTO t VALUES('Layer', 'the boundary layer over a flat plate and a wing');"
	    "INSERT INTO t VALUES('Heat', 'heat transfer near a wall');", NULL, NULL, NULL),
	    SQLITE_OK);
}

static void
teardown(void)
{
	sqlite3_close(db);
}

TestSuite(bm25, .init = setup, .fini = teardown);

/* The score of row `rowid` for the expression by `fn` (an SQL call over t
 * with ?1 the expression and ?2 the weights), or 0 when it does not match. */
static double
score(const char *fn, const char *expr, long long rowid, const struct ev_bm25_weights *w)
{
	char sql[256];
	sqlite3_stmt *s;
	double v = 0;

	snprintf(sql, sizeof sql, "SELECT %s FROM t WHERE t MATCH ?1 AND rowid = ?3", fn);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
	sqlite3_bind_text(s, 1, expr, -1, SQLITE_STATIC);
	if (w != NULL)
		sqlite3_bind_pointer(s, 2, (void *)w, EV_BM25_POINTER, NULL);
	sqlite3_bind_int64(s, 3, rowid);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_double(s, 0);
	cr_assert_eq(sqlite3_finalize(s), SQLITE_OK, "%s", sqlite3_errmsg(db));
	return v;
}

Test(bm25, without_weights_it_is_fts5_bm25_exactly)
{
	static const char *const exprs[] = { "flat", "flat OR plate OR wing", "\"flat plate\" OR wing",
		"(flat AND plate) OR \"boundary layer\"", NULL };

	for (int i = 0; exprs[i] != NULL; i++)
		for (long long r = 1; r <= 4; r++) {
			double want = score("bm25(t, 2.5, 1)", exprs[i], r, NULL);

			cr_assert_eq(score("ev_bm25(t, 2.5, 1, ?2)", exprs[i], r, NULL), want,
			    "'%s' row %lld", exprs[i], r);
			cr_assert_eq(score("ev_bm25(t, 2.5, 1)", exprs[i], r, NULL), want);
		}
}

Test(bm25, unit_weights_are_no_weights)
{
	static const double one[] = { 1, 1, 1 };
	struct ev_bm25_weights w = { .n = 3, .w = one };

	for (long long r = 1; r <= 4; r++)
		cr_assert_eq(score("ev_bm25(t, 1, 1, ?2)", "flat OR plate OR wing", r, &w),
		    score("bm25(t, 1, 1)", "flat OR plate OR wing", r, NULL));
}

Test(bm25, a_phrase_weight_multiplies_its_term_alone)
{
	static const double w20[] = { 2, 0 }, w10[] = { 1, 0 }, w01[] = { 0, 1 };
	struct ev_bm25_weights two = { .n = 2, .w = w20 }, flat = { .n = 2, .w = w10 }, wing = { .n = 2, .w = w01 };
	const char *fn = "ev_bm25(t, 1, 1, ?2)", *q = "flat OR wing";

	/* Row 3 holds both words: each term alone adds up to bm25(), and a
	 * weight of 2 doubles one term. */
	cr_assert_lt(score(fn, q, 3, &flat), 0);
	cr_assert_lt(score(fn, q, 3, &wing), 0);
	cr_assert_eq(score(fn, q, 3, &flat) + score(fn, q, 3, &wing), score("bm25(t, 1, 1)", q, 3, NULL));
	cr_assert_eq(score(fn, q, 3, &two), 2 * score(fn, q, 3, &flat));
	/* Row 2 holds only "flat": its score doubles. */
	cr_assert_eq(score(fn, q, 2, &two), 2 * score("bm25(t, 1, 1)", q, 2, NULL));
}

Test(bm25, phrases_past_the_weights_weigh_one)
{
	static const double w3[] = { 3 };
	struct ev_bm25_weights w = { .n = 1, .w = w3 };

	/* Row 1 holds only "wing", the second phrase. */
	cr_assert_eq(score("ev_bm25(t, 1, 1, ?2)", "flat OR wing", 1, &w),
	    score("bm25(t, 1, 1)", "flat OR wing", 1, NULL));
}

Test(bm25, column_weights_work_as_bm25s)
{
	cr_assert_eq(score("ev_bm25(t, 10, 0.5, ?2)", "wing", 1, NULL),
	    score("bm25(t, 10, 0.5)", "wing", 1, NULL));
	cr_assert_lt(score("ev_bm25(t, 10, 0.5, ?2)", "wing", 1, NULL),
	    score("ev_bm25(t, 1, 1, ?2)", "wing", 1, NULL), "a title match weighs more (lower is better)");
}

Test(bm25, k1_and_b_are_fts5s_unless_tuned)
{
	static const double one[] = { 1, 1 };
	struct ev_bm25_weights fts5 = { .n = 2, .w = one, .tuned = 1, .k1 = 1.2, .b = 0.75 },
	    other = { .n = 2, .w = one, .tuned = 1, .k1 = 2.0, .b = 0.3 };
	struct ev_bm25_weights untuned = { .n = 2, .w = one, .tuned = 0, .k1 = 2.0, .b = 0.3 };
	const char *fn = "ev_bm25(t, 1, 1, ?2)", *q = "flat OR wing";

	for (long long r = 1; r <= 3; r++) {
		cr_assert_eq(score(fn, q, r, &fts5), score("bm25(t, 1, 1)", q, r, NULL));
		cr_assert_eq(score(fn, q, r, &untuned), score("bm25(t, 1, 1)", q, r, NULL));
		cr_assert_neq(score(fn, q, r, &other), score("bm25(t, 1, 1)", q, r, NULL));
	}
}

Test(bm25, b_0_ignores_length_and_k1_0_counts_presence)
{
	static const double one[] = { 1 };
	struct ev_bm25_weights nob = { .n = 1, .w = one, .tuned = 1, .k1 = 1.2, .b = 0.0 },
	    nok = { .n = 1, .w = one, .tuned = 1, .k1 = 0.0, .b = 0.75 };
	const char *fn = "ev_bm25(t, 1, 1, ?2)";

	/* "the" once in row 1 (9 tokens) and once in row 3 (12 tokens). */
	cr_assert_eq(score(fn, "the", 1, &nob), score(fn, "the", 3, &nob));
	cr_assert_lt(score("bm25(t, 1, 1)", "the", 1, NULL), score("bm25(t, 1, 1)", "the", 3, NULL),
	    "with b the shorter row scores more (lower is better)");
	/* "flat" twice in row 2, once in row 3: with k1 0 the same. */
	cr_assert_eq(score(fn, "flat", 2, &nok), score(fn, "flat", 3, &nok));
}
