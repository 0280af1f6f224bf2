/* test_rowmemo.c: lib/store/rowmemo.c -- rows kept by rowid and handed out
 * as they were given, many rows (the table grown), the bound (everything
 * dropped, then keeping again), a row larger than the bound, clearing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rowmemo.h"

/* Whether rowid is kept with these fields and text. */
static void
assert_kept(const struct ev_rowmemo *m, int64_t rowid, const char *fields, const char *text)
{
	const char *f, *t;
	size_t flen, tlen;

	cr_assert_eq(ev_rowmemo_get(m, rowid, &f, &flen, &t, &tlen), 1, "row %lld kept",
	    (long long)rowid);
	cr_assert_eq(flen, strlen(fields));
	cr_assert_str_eq(f, fields, "NUL-terminated, the bytes given");
	cr_assert_eq(tlen, strlen(text));
	cr_assert_str_eq(t, text);
}

static int
kept(const struct ev_rowmemo *m, int64_t rowid)
{
	const char *f, *t;
	size_t flen, tlen;

	return ev_rowmemo_get(m, rowid, &f, &flen, &t, &tlen);
}

Test(rowmemo, a_row_kept_is_handed_out_as_given_and_others_are_not_kept)
{
	struct ev_rowmemo *m = ev_rowmemo_new(1 << 20);

	cr_assert_not_null(m);
	cr_assert_eq(kept(m, 7), 0, "nothing kept yet");
	cr_assert_eq(ev_rowmemo_keep(m, 7, "\"id\":\"a\",x", 8, "wing flutter", 12), 1);
	cr_assert_eq(ev_rowmemo_keep(m, -3, "\"id\":\"b\"", 8, NULL, 0), 1);
	assert_kept(m, 7, "\"id\":\"a\"", "wing flutter");
	assert_kept(m, -3, "\"id\":\"b\"", "");
	cr_assert_eq(kept(m, 8), 0);
	/* a row kept before stays as it was */
	cr_assert_eq(ev_rowmemo_keep(m, 7, "\"id\":\"z\"", 8, "other", 5), 1);
	assert_kept(m, 7, "\"id\":\"a\"", "wing flutter");
	cr_assert_eq(ev_rowmemo_count(m), 2);
	ev_rowmemo_clear(m);
	cr_assert_eq(ev_rowmemo_count(m), 0);
	cr_assert_eq(kept(m, 7), 0, "cleared");
	cr_assert_eq(ev_rowmemo_keep(m, 7, "f", 1, "t", 1), 1, "kept again after clearing");
	assert_kept(m, 7, "f", "t");
	ev_rowmemo_free(m);
	ev_rowmemo_free(NULL);
	ev_rowmemo_clear(NULL);
	cr_assert_eq(kept(NULL, 7), 0);
	cr_assert_eq(ev_rowmemo_keep(NULL, 7, "f", 1, "t", 1), 0);
}

Test(rowmemo, many_rows_are_all_kept_while_the_table_grows)
{
	struct ev_rowmemo *m = ev_rowmemo_new((size_t)64 << 20);
	char f[32], t[32];

	/* rowids that share their low bits, to collide in the table */
	for (int64_t i = 0; i < 20000; i++) {
		snprintf(f, sizeof f, "f%lld", (long long)i);
		snprintf(t, sizeof t, "text %lld", (long long)i);
		cr_assert_eq(ev_rowmemo_keep(m, i << 20, f, strlen(f), t, strlen(t)), 1);
	}
	cr_assert_eq(ev_rowmemo_count(m), 20000);
	for (int64_t i = 0; i < 20000; i++) {
		snprintf(f, sizeof f, "f%lld", (long long)i);
		snprintf(t, sizeof t, "text %lld", (long long)i);
		assert_kept(m, i << 20, f, t);
	}
	cr_assert_eq(kept(m, 1), 0);
	ev_rowmemo_free(m);
}

Test(rowmemo, past_the_bound_everything_is_dropped_and_keeping_starts_again)
{
	static char text[1000];
	struct ev_rowmemo *m = ev_rowmemo_new(10000);
	int64_t first_dropped = -1;

	memset(text, 'w', sizeof text - 1);
	/* each row takes over a thousand bytes: ten cannot all be kept */
	for (int64_t i = 0; i < 10; i++) {
		cr_assert_eq(ev_rowmemo_keep(m, i, "f", 1, text, sizeof text - 1), 1, "row %lld",
		    (long long)i);
		assert_kept(m, i, "f", text);
		if (first_dropped < 0 && !kept(m, 0))
			first_dropped = i;
	}
	cr_assert_gt(first_dropped, 1, "rows were kept until the bound");
	cr_assert_lt(ev_rowmemo_count(m), 10, "the bound was passed: rows were dropped");
	cr_assert_eq(kept(m, first_dropped - 1), 0, "the rows before were dropped together");
	assert_kept(m, first_dropped, "f", text);
	assert_kept(m, 9, "f", text);
	/* a row larger than the bound alone is never kept, and drops nothing */
	{
		size_t n = ev_rowmemo_count(m);
		char *big = calloc(1, 20000);

		memset(big, 'x', 19999);
		cr_assert_eq(ev_rowmemo_keep(m, 100, "f", 1, big, 19999), 0);
		cr_assert_eq(kept(m, 100), 0);
		cr_assert_eq(ev_rowmemo_count(m), n);
		free(big);
	}
	ev_rowmemo_free(m);
}
