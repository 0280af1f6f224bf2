/* Tests of lib/store/fts5seg.c, FTS5's index read from its segments'
 * leaves, over real stores: every instance, term by term, exactly as
 * fts5vocab's 'instance' table gives it (lists and position lists running
 * over many pages, long terms, the languages' tagged stems, rows deleted
 * before the merge; one segment, several, on one level or two), an
 * instance or a row a call; segments whose rows do not ascend from the
 * older to the younger, and delete marks, left to fts5vocab; an empty
 * index; a sink that stops the reading. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "fts5seg.h"
#include "store.h"
#include "test_util.h"

TU_SUITE_WITH_DIR(fts5seg, "evkit-fts5seg");

/* What the sink was given, "term|rowid|col|off" a line, into a buffer;
 * stop_after: the instance whose sink call fails (0: none). */
struct dump {
	struct ev_buf b;
	const char *term;
	size_t len;
	long long n, stop_after;
};

static int
dump_term(void *ctx, const char *term, size_t len, struct ev_err *err)
{
	struct dump *d = ctx;

	(void)err;
	cr_assert_eq(memchr(term, '\n', len), NULL);
	d->term = term;
	d->len = len;
	return 0;
}

static int
dump_instance(void *ctx, long long rowid, int col, long long off, struct ev_err *err)
{
	struct dump *d = ctx;

	if (++d->n == d->stop_after)
		return ev_err_set(err, 1, NULL, "stopped at %lld", d->n);
	cr_assert_eq(ev_buf_add(&d->b, d->term, d->len), 0);
	cr_assert_eq(ev_buf_printf(&d->b, "|%lld|%d|%lld\n", rowid, col, off), 0);
	return 0;
}

/* A row given whole, written as dump_instance() writes its instances;
 * d->n counts the rows. */
static int
dump_row(void *ctx, long long rowid, const uint32_t *counts, const unsigned char *pos, size_t len,
    struct ev_err *err)
{
	struct dump *d = ctx;
	const unsigned char *end = pos + len;

	(void)err;
	d->n++;
	for (int c = 0; c < 3; c++) {
		long long off = 0;

		for (uint32_t i = 0; i < counts[c]; i++) {
			uint64_t v;

			cr_assert_eq(ev_varint_get(&pos, end, &v), 0);
			off += (long long)v;
			cr_assert_eq(ev_buf_add(&d->b, d->term, d->len), 0);
			cr_assert_eq(ev_buf_printf(&d->b, "|%lld|%d|%lld\n", rowid, c, off), 0);
		}
	}
	cr_assert_eq(pos, end, "row %lld: bytes after its counts' offsets", rowid);
	return 0;
}

/* ev_fts5seg_read() of st into d, an instance or (by_row) a row a call;
 * its result. */
static int
seg_read_as(struct ev_store *st, struct dump *d, int by_row, struct ev_err *err)
{
	struct ev_fts5seg_sink sink = { dump_term, dump_instance, d, by_row ? dump_row : NULL };

	ev_buf_reset(&d->b);
	return ev_fts5seg_read(ev_store_db(st), "chunks_fts", 3, &sink, err);
}

static int
seg_read(struct ev_store *st, struct dump *d, struct ev_err *err)
{
	return seg_read_as(st, d, 0, err);
}

/* fts5vocab's instances of st, as dump_instance() writes them, into b. */
static void
vocab_read(struct ev_store *st, struct ev_buf *b)
{
	static const char *const cols[] = { "title", "section_title", "text" };
	sqlite3_stmt *s;

	tu_exec_ok(st, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, chunks_fts,"
	    " instance)");
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT term, doc, col, offset FROM temp.v",
	    -1, &s, NULL), SQLITE_OK);
	ev_buf_reset(b);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(s, 2);
		int c = 0;

		while (c < 3 && strcmp(col, cols[c]) != 0)
			c++;
		cr_assert_lt(c, 3, "%s", col);
		cr_assert_eq(ev_buf_add(b, sqlite3_column_blob(s, 0),
		    (size_t)sqlite3_column_bytes(s, 0)), 0);
		cr_assert_eq(ev_buf_printf(b, "|%lld|%d|%lld\n", sqlite3_column_int64(s, 1), c,
		    sqlite3_column_int64(s, 3)), 0);
	}
	sqlite3_finalize(s);
}

/* A text of n words drawn from a vocabulary of 400 (x: the seed), with
 * "every" in each and "often" repeated reps times, into out. */
static void
words(char *out, size_t cap, unsigned x, int n, int reps)
{
	size_t at = (size_t)snprintf(out, cap, "every");

	for (int i = 0; i < n && at + 16 < cap; i++) {
		x = x * 1103515245u + 12345u;
		at += (size_t)snprintf(out + at, cap - at, " w%u", (x >> 16) % 400);
	}
	for (int i = 0; i < reps && at + 8 < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, " often");
}

/* Rows from..from+n-1 of st, in one transaction, indexed by one
 * statement (FTS5 writes its pending terms as a segment at each statement
 * that opens a savepoint: one segment a call); some French (their stems
 * tagged), one with a 150-letter title word and one with "often" 5,000
 * times: lists and position lists over many of FTS5's pages. */
static void
fill(struct ev_store *st, int from, int n)
{
	static char text[64000], title[200], sql[300];
	sqlite3 *db = ev_store_db(st);
	sqlite3_stmt *d, *c;

	tu_exec_ok(st, "BEGIN");
	cr_assert_eq(sqlite3_prepare_v2(db, "INSERT INTO documents(doc_id, content_hash)"
	    " VALUES('d' || ?1, 'x')", -1, &d, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, "INSERT INTO chunks(rowid, id, doc_id, section_id,"
	    " chunk_index, title, text, content_hash, language) VALUES(?1, 'd' || ?1 || ':s:0',"
	    " 'd' || ?1, 'd' || ?1 || ':s', 0, ?2, ?3, 'x', ?4)", -1, &c, NULL), SQLITE_OK);
	for (int r = from; r < from + n; r++) {
		words(text, sizeof text, (unsigned)r, 20 + r % 50, r == 7 ? 5000 : r % 3);
		snprintf(title, sizeof title, "title w%d", r % 17);
		if (r == 11) {
			memset(title, 'q', 150);
			title[150] = '\0';
		}
		sqlite3_bind_int64(d, 1, r);
		cr_assert_eq(sqlite3_step(d), SQLITE_DONE);
		sqlite3_reset(d);
		sqlite3_bind_int64(c, 1, r);
		sqlite3_bind_text(c, 2, title, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(c, 3, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(c, 4, r % 5 == 0 ? "fr" : "en", -1, SQLITE_STATIC);
		cr_assert_eq(sqlite3_step(c), SQLITE_DONE);
		sqlite3_reset(c);
	}
	sqlite3_finalize(d);
	sqlite3_finalize(c);
	snprintf(sql, sizeof sql, "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks_src WHERE rowid BETWEEN %d AND %d",
	    from, from + n - 1);
	tu_exec_ok(st, sql);
	tu_exec_ok(st, "COMMIT");
}

/* Whether st's index read by ev_fts5seg_read(), an instance or (by_row) a
 * row a call, is what fts5vocab gives, instance for instance: the
 * instances' count. */
static long long
reads_as_fts5vocab(struct ev_store *st, int by_row)
{
	struct ev_err err = { 0 };
	struct dump d = { EV_BUF_INIT, NULL, 0, 0, 0 };
	struct ev_buf want = EV_BUF_INIT;

	cr_assert_eq(seg_read_as(st, &d, by_row, &err), 1, "%s", err.msg);
	vocab_read(st, &want);
	cr_assert_eq(d.b.len, want.len);
	cr_assert(memcmp(d.b.p, want.p, want.len) == 0);
	cr_assert_not_null(strstr(ev_buf_str(&d.b), "often|7|2|4999\n"));
	ev_buf_release(&d.b);
	ev_buf_release(&want);
	return d.n;
}

Test(fts5seg, one_segment_or_two_read_as_fts5vocab_gives_it_term_by_term)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);

	fill(st, 1, 1500);
	fill(st, 1501, 1500);
	/* two segments: each term's rows of the older, then the younger's */
	cr_assert_gt(reads_as_fts5vocab(st, 0), 100000);
	cr_assert_gt(reads_as_fts5vocab(st, 1), 10000);
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')");
	cr_assert_gt(reads_as_fts5vocab(st, 0), 100000);
	ev_store_close(st);
}

Test(fts5seg, segments_on_two_levels_read_the_older_level_first)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);

	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', 0)");
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('crisismerge', 3)");
	/* the third segment merges level 0's three into one on level 1 */
	for (int i = 0; i < 5; i++)
		fill(st, 1 + 300 * i, 300);
	cr_assert_gt(reads_as_fts5vocab(st, 1), 10000);
	ev_store_close(st);
}

Test(fts5seg, rows_given_whole_hold_the_instances_fts5vocab_gives)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);
	struct dump d = { EV_BUF_INIT, NULL, 0, 0, 0 };
	struct ev_buf want = EV_BUF_INIT;

	fill(st, 1, 1500);
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')");
	cr_assert_eq(seg_read_as(st, &d, 1, &err), 1, "%s", err.msg);
	vocab_read(st, &want);
	cr_assert_gt(d.n, 10000);
	cr_assert_str_eq(ev_buf_str(&d.b), ev_buf_str(&want));
	/* "often" 5,000 times in a row: a position list over several pages */
	cr_assert_not_null(strstr(ev_buf_str(&d.b), "often|7|2|4999\n"));
	ev_buf_release(&d.b);
	ev_buf_release(&want);
	ev_store_close(st);
}

Test(fts5seg, rows_deleted_and_written_again_then_merged_read_as_fts5vocab_gives_them)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);
	struct dump d = { EV_BUF_INIT, NULL, 0, 0, 0 };
	struct ev_buf want = EV_BUF_INIT;

	fill(st, 1, 600);
	tu_exec_ok(st, "BEGIN");
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts, rowid, title, section_title, text)"
	    " SELECT 'delete', rowid, title, section_title, text FROM chunks_src WHERE rowid % 4 = 1");
	tu_exec_ok(st, "DELETE FROM chunks WHERE rowid % 4 = 1");
	tu_exec_ok(st, "DELETE FROM documents WHERE doc_id NOT IN (SELECT doc_id FROM chunks)");
	tu_exec_ok(st, "COMMIT");
	fill(st, 1001, 30);
	/* three segments, two with delete marks: not one this reader reads */
	cr_assert_eq(seg_read(st, &d, &err), 0, "%s", err.msg);
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')");
	cr_assert_eq(seg_read(st, &d, &err), 1, "%s", err.msg);
	vocab_read(st, &want);
	cr_assert_str_eq(ev_buf_str(&d.b), ev_buf_str(&want));
	cr_assert_null(strstr(ev_buf_str(&d.b), "|5|"));
	ev_buf_release(&d.b);
	ev_buf_release(&want);
	ev_store_close(st);
}

Test(fts5seg, segments_whose_rows_do_not_ascend_are_left_to_fts5vocab_and_an_empty_index_reads_as_nothing)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);
	struct dump d = { EV_BUF_INIT, NULL, 0, 0, 0 };

	cr_assert_eq(seg_read(st, &d, &err), 1, "%s", err.msg);
	cr_assert_eq(d.n, 0);
	fill(st, 51, 50);
	cr_assert_eq(seg_read(st, &d, &err), 1, "%s", err.msg);
	cr_assert_gt(d.n, 0);
	/* the younger segment holds the earlier rows */
	fill(st, 1, 50);
	d.b.len = 0;
	cr_assert_eq(seg_read(st, &d, &err), 0, "%s", err.msg);
	ev_buf_release(&d.b);
	ev_store_close(st);
}

Test(fts5seg, a_sink_that_fails_stops_the_reading_with_its_error)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);
	struct dump d = { EV_BUF_INIT, NULL, 0, 0, 1000 };

	fill(st, 1, 200);
	cr_assert_eq(seg_read(st, &d, &err), -1);
	cr_assert_str_eq(err.msg, "stopped at 1000");
	cr_assert_eq(d.n, 1000);
	ev_buf_release(&d.b);
	ev_store_close(st);
}
