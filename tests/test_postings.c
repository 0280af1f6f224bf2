/* Tests of lib/store/postings.c, the postings file, over a real store: what a
 * file built from a small index holds, entry by entry (rows, counts in each
 * column, positions, lengths, terms, languages, each word itself's
 * narrowed list); both encodings of the
 * counts, and corrupt ones refused; lists of several blocks walked and
 * sought, near and far, over their skips, with each entry's positions (over
 * entries of escaped counts too); lists' rows marked in a bitmap, and a
 * corrupt one refused there;
 * willneed's hint; a file made stale by a write to the index, cut short or
 * of another format, which is never read; a term's entry out of the file's
 * sections, found corrupt when it is read, the others read as they are;
 * when a store wants its file; a build that leaves no temporary file; and an
 * index of several segments read as it is, or merged into one first when
 * the segment reader cannot read it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fts5seg.h"
#include "postings.h"
#include "store.h"
#include "test_util.h"

static char dir[64], path[128], file[160];
static struct ev_store *st;

/* 40 times zeta */
#define ZETA10 "zeta zeta zeta zeta zeta zeta zeta zeta zeta zeta "
#define ZETA40 ZETA10 ZETA10 ZETA10 ZETA10

/* Words the English stemmer leaves as they are, so that the index's terms
 * are the words written here (but one, in a French chunk).  Rows 1, 2, 4 and 5 (3 is missing), then
 * omega in rows 100 to 299 (four blocks: 64, 64, 64 and 8 entries) and
 * nothing else there. */
static void
setup(void)
{
	struct ev_err err = { 0 };

	snprintf(dir, sizeof dir, "/tmp/evkit-postings.XXXXXX");
	tu_mkdir(dir, path, sizeof path);
	st = tu_store_create(path, &err);
	snprintf(file, sizeof file, "%s%s", path, EV_POSTINGS_SUFFIX);
	tu_exec_ok(st, "BEGIN");
	tu_add_chunk(st, 1, "alpha", "beta gamma beta", "en");
	tu_add_chunk(st, 2, "gamma", "alpha alpha delta", "en");
	tu_add_chunk(st, 4, "kappa kappa", "beta", NULL);		/* the title's count: 2 */
	tu_add_chunk(st, 5, NULL, ZETA40, "fr");	/* the text's: 40 */
	for (long long r = 100; r < 300; r++)
		tu_add_chunk(st, r, NULL, "omega", "en");
	tu_exec_ok(st, "COMMIT");
}

static void
teardown(void)
{
	ev_store_close(st);
	st = NULL;
	tu_rmdir(dir);
}

TestSuite(postings, .init = setup, .fini = teardown);

static void
build(void)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
}

static struct ev_postings *
open_fresh(void)
{
	struct ev_err err = { 0 };
	int stale = -1;
	struct ev_postings *p = ev_postings_open(st, &stale, &err);

	cr_assert_not_null(p, "%s", err.msg);
	cr_assert_eq(stale, 0);
	return p;
}

/* The entries of term's list, "ROWID:C0/C1/C2[POSITIONS]" each, positions
 * as COLUMN.OFFSET, into b. */
static const char *
list_of(struct ev_postings *p, const char *term, long long *rows, struct ev_buf *b)
{
	struct ev_postings_cursor c;
	uint64_t key[64];
	int r, n;

	ev_buf_reset(b);
	*rows = ev_postings_term(p, term, (int)strlen(term), &c);
	while ((r = ev_postings_next(&c)) == 1) {
		cr_assert_eq(c.ncol, 3);
		cr_assert_eq(ev_buf_printf(b, "%s%lld:%u/%u/%u[", b->len ? " " : "", c.rowid,
		    c.count[0], c.count[1], c.count[2]), 0);
		cr_assert_geq(n = ev_postings_positions(&c, key), 0);
		cr_assert_lt(n, 64);
		for (int i = 0; i < n; i++)
			cr_assert_eq(ev_buf_printf(b, "%s%u.%u", i ? "," : "",
			    (unsigned)(key[i] >> 32), (unsigned)(key[i] & 0xffffffffu)), 0);
		cr_assert_eq(ev_buf_printf(b, "]"), 0);
	}
	cr_assert_eq(r, 0, "%s: a corrupt list", term);
	return ev_buf_str(b);
}

Test(postings, a_built_file_holds_each_terms_rows_counts_and_positions)
{
	struct ev_buf b = EV_BUF_INIT;
	struct ev_postings *p;
	long long rows;

	build();
	p = open_fresh();
	cr_assert_str_eq(list_of(p, "alpha", &rows, &b), "1:1/0/0[0.0] 2:0/0/2[2.0,2.1]");
	cr_assert_eq(rows, 2);
	cr_assert_str_eq(list_of(p, "beta", &rows, &b), "1:0/0/2[2.0,2.2] 4:0/0/1[2.0]");
	cr_assert_eq(rows, 2);
	cr_assert_str_eq(list_of(p, "gamma", &rows, &b), "1:0/0/1[2.1] 2:1/0/0[0.0]");
	cr_assert_str_eq(list_of(p, "delta", &rows, &b), "2:0/0/1[2.2]");
	cr_assert_eq(rows, 1);
	/* counts past the one-byte encoding: twice in the title, 40 times in
	 * the text */
	cr_assert_str_eq(list_of(p, "kappa", &rows, &b), "4:2/0/0[0.0,0.1]");
	/* (stemmed for its chunk's language: French makes "zeta" "zet", in
	 * French's namespace, beside the word itself: analyze.h) */
	cr_assert_str_eq(list_of(p, "zeta", &rows, &b), "");
	cr_assert_str_eq(list_of(p, "zet", &rows, &b), "");
	list_of(p, "\x1f\x1fzeta", &rows, &b);
	cr_assert_eq(rows, 1);
	list_of(p, "\x1f" "fr" "\x1f" "zet", &rows, &b);
	cr_assert_eq(rows, 1);
	cr_assert_eq(strncmp(ev_buf_str(&b), "5:0/0/40[2.0,2.1,2.2,", 21), 0, "%s", ev_buf_str(&b));
	cr_assert_eq(strcmp(ev_buf_str(&b) + b.len - 6, ",2.39]"), 0, "%s", ev_buf_str(&b));
	/* a term the index lacks */
	cr_assert_str_eq(list_of(p, "epsilon", &rows, &b), "");
	cr_assert_eq(rows, 0);
	cr_assert_str_eq(list_of(p, "alph", &rows, &b), "");
	ev_postings_close(p);
	ev_buf_release(&b);
}

Test(postings, the_totals_lengths_and_languages_are_the_indexs)
{
	struct ev_postings *p;
	const uint32_t *len;
	long long chunks = -1;

	build();
	p = open_fresh();
	cr_assert_eq(ev_postings_ncol(p), 3);
	cr_assert_eq(ev_postings_rows(p), 204);
	/* 4 + 4 + 3 + 40 tokens, and one in each of the 200 rows of omega */
	cr_assert_eq(ev_postings_tokens(p), 251);
	cr_assert_eq(ev_postings_maxrowid(p), 299);
	len = ev_postings_lengths(p);
	cr_assert_eq(len[0], 0);
	cr_assert_eq(len[1], 4);
	cr_assert_eq(len[2], 4);
	cr_assert_eq(len[3], 0);	/* no row */
	cr_assert_eq(len[4], 3);
	cr_assert_eq(len[5], 40);
	cr_assert_eq(len[6], 0);
	cr_assert_eq(len[99], 0);
	cr_assert_eq(len[100], 1);
	cr_assert_eq(len[299], 1);
	/* as EV_STORE_LANGS_SQL counts them: by chunks, most first */
	cr_assert_eq(ev_postings_nlangs(p), 2);
	cr_assert_str_eq(ev_postings_lang(p, 0, &chunks), "en");
	cr_assert_eq(chunks, 202);
	cr_assert_str_eq(ev_postings_lang(p, 1, &chunks), "fr");
	cr_assert_eq(chunks, 1);
	ev_postings_close(p);
}

Test(postings, the_terms_are_in_byte_order_with_their_rows)
{
	/* the French chunk's word itself, tagged with no language, and its
	 * stem, tagged with French, before the English stems (English text
	 * holds no word itself) */
	static const char *const want[] = { "\x1f\x1f" "zeta", "\x1f" "fr" "\x1f" "zet", "alpha",
		"beta", "delta", "gamma", "kappa", "omega" };
	static const long long want_rows[] = { 1, 1, 2, 2, 1, 2, 1, 200 };
	struct ev_postings *p;

	build();
	p = open_fresh();
	cr_assert_eq(ev_postings_nterms(p), 8);
	for (int i = 0; i < 8; i++) {
		int len = 0;
		long long rows = 0;
		const char *t = ev_postings_term_at(p, i, &len, &rows);

		cr_assert_eq(len, (int)strlen(want[i]), "term %d", i);
		cr_assert_eq(memcmp(t, want[i], (size_t)len), 0, "term %d: %.*s", i, len, t);
		cr_assert_eq(rows, want_rows[i], "%s", want[i]);
	}
	ev_postings_close(p);
}

/* In an index of version 3, a word itself is held by chunks out of the
 * Porter namespace alone: its narrowed list is its whole list. */
Test(postings, a_word_itself_of_version_3_is_narrowed_to_its_whole_list)
{
	struct ev_buf b = EV_BUF_INIT, narrowed = EV_BUF_INIT;
	struct ev_postings_cursor c;
	struct ev_postings *p;
	long long rows;

	build();
	p = open_fresh();
	cr_assert_str_eq(list_of(p, "\x1f\x1f" "zeta", &rows, &b), list_of(p, "\xff\x1f\x1f" "zeta",
	    &rows, &narrowed));
	cr_assert_eq(ev_postings_term(p, "\xff\x1f\x1f" "zeta", 7, &c), 1);
	cr_assert_eq(ev_postings_next(&c), 1);
	cr_assert_eq(c.rowid, 5);
	cr_assert_eq(c.count[2], 40);
	cr_assert_eq(ev_postings_term(p, "\x1f\x1f" "beta", 6, &c), 0);
	cr_assert_eq(ev_postings_term(p, "\xff\x1f\x1f" "beta", 7, &c), 0);
	ev_postings_close(p);
	ev_buf_release(&b);
	ev_buf_release(&narrowed);
}

/* A word itself of an index of version 2 held by a chunk out of the Porter
 * namespace (row 4, of no language; row 5, French) has its narrowed list:
 * its entries in those chunks alone, counts and positions as they are; one
 * held by English chunks alone has none, and the narrowed lists are no
 * terms of the dictionary's. */
Test(postings, a_word_itself_has_its_rows_out_of_the_porter_namespace_narrowed)
{
	struct ev_buf b = EV_BUF_INIT;
	struct ev_postings_cursor c;
	struct ev_postings *p;
	long long rows;

	tu_index_of_version_2(st);
	build();
	p = open_fresh();
	cr_assert_str_eq(list_of(p, "\x1f\x1f" "beta", &rows, &b), "1:0/0/2[2.0,2.2] 4:0/0/1[2.0]");
	cr_assert_str_eq(list_of(p, "\xff\x1f\x1f" "beta", &rows, &b), "4:0/0/1[2.0]");
	cr_assert_eq(rows, 1);
	cr_assert_str_eq(list_of(p, "\xff\x1f\x1f" "kappa", &rows, &b), "4:2/0/0[0.0,0.1]");
	cr_assert_eq(rows, 1);
	cr_assert_eq(ev_postings_term(p, "\xff\x1f\x1f" "zeta", 7, &c), 1);
	cr_assert_eq(ev_postings_next(&c), 1);
	cr_assert_eq(c.rowid, 5);
	cr_assert_eq(c.count[2], 40);
	cr_assert_eq(ev_postings_next(&c), 0);
	/* English chunks alone */
	cr_assert_eq(ev_postings_term(p, "\xff\x1f\x1f" "alpha", 8, &c), 0);
	cr_assert_eq(ev_postings_next(&c), 0);
	cr_assert_eq(ev_postings_term(p, "\xff\x1f\x1f" "omega", 8, &c), 0);
	/* no stem has one, nor a narrowed name of nothing */
	cr_assert_eq(ev_postings_term(p, "\xff" "beta", 5, &c), 0);
	cr_assert_eq(ev_postings_term(p, "\xff", 1, &c), 0);
	cr_assert_eq(ev_postings_nterms(p), 14);
	ev_postings_close(p);
	ev_buf_release(&b);
}

Test(postings, a_list_of_four_blocks_is_walked_and_sought_over_its_skips)
{
	struct ev_postings_cursor c;
	struct ev_postings *p;
	long long row = 99;
	uint64_t key[4];
	int r;

	build();
	p = open_fresh();
	cr_assert_eq(ev_postings_term(p, "omega", 5, &c), 200);
	/* a skip for each full block of 64 entries (the last, of 8, has
	 * none): its last row, and where the next block begins, each entry
	 * two bytes (the row's distance, the counts' byte) */
	cr_assert_eq(c.nskip, 3);
	cr_assert_eq(c.skips[0].last_rowid, 163);
	cr_assert_eq(c.skips[0].next, 128);
	cr_assert_eq(c.skips[1].last_rowid, 227);
	cr_assert_eq(c.skips[1].next, 256);
	cr_assert_eq(c.skips[2].last_rowid, 291);
	cr_assert_eq(c.skips[2].next, 384);
	while ((r = ev_postings_next(&c)) == 1) {
		cr_assert_eq(c.rowid, ++row);
		cr_assert_eq(c.count[2], 1);
	}
	cr_assert_eq(r, 0);
	cr_assert_eq(row, 299);
	/* sought: within a block, across blocks, onto a block's first and last
	 * entry, backwards (it stays), past the end */
	cr_assert_eq(ev_postings_term(p, "omega", 5, &c), 200);
	cr_assert_eq(ev_postings_seek(&c, 1), 1);
	cr_assert_eq(c.rowid, 100);
	cr_assert_eq(ev_postings_seek(&c, 150), 1);
	cr_assert_eq(c.rowid, 150);
	cr_assert_eq(ev_postings_seek(&c, 163), 1);
	cr_assert_eq(c.rowid, 163);
	cr_assert_eq(ev_postings_seek(&c, 164), 1);
	cr_assert_eq(c.rowid, 164);
	cr_assert_eq(ev_postings_seek(&c, 290), 1);
	cr_assert_eq(c.rowid, 290);
	/* the positions of an entry a seek landed on, its block's others
	 * stepped over */
	cr_assert_eq(ev_postings_positions(&c, key), 1);
	cr_assert_eq(key[0], (uint64_t)2 << 32);
	cr_assert_eq(ev_postings_seek(&c, 200), 1);
	cr_assert_eq(c.rowid, 290);
	cr_assert_eq(ev_postings_seek(&c, 299), 1);
	cr_assert_eq(c.rowid, 299);
	cr_assert_eq(ev_postings_seek(&c, 300), 0);
	ev_postings_close(p);
}

Test(postings, no_file_means_none_and_a_build_leaves_no_temporary_file)
{
	struct ev_err err = { 0 };
	struct stat sb;
	char tmp[200];

	cr_assert_eq(ev_postings_state(st, &err), 0, "%s", err.msg);
	build();
	cr_assert_eq(ev_postings_state(st, &err), 1, "%s", err.msg);
	cr_assert_eq(stat(file, &sb), 0);
	snprintf(tmp, sizeof tmp, "%s.tmp", file);
	cr_assert_neq(access(tmp, F_OK), 0);
	snprintf(tmp, sizeof tmp, "%s.positions.tmp", file);
	cr_assert_neq(access(tmp, F_OK), 0);
}

Test(postings, a_write_to_the_index_makes_the_file_stale_until_it_is_built_again)
{
	struct ev_err err = { 0 };
	struct ev_postings *p;
	int stale = 0;

	build();
	p = open_fresh();
	tu_add_chunk(st, 3, "alpha", "epsilon", "en");
	/* the open file no longer describes the index, and is not opened */
	cr_assert_eq(ev_postings_fresh(p, st, &err), 0, "%s", err.msg);
	ev_postings_close(p);
	cr_assert_null(ev_postings_open(st, &stale, &err));
	cr_assert_eq(err.code, 0);
	cr_assert_eq(stale, 1);
	cr_assert_eq(ev_postings_state(st, &err), -1);
	build();
	p = open_fresh();
	cr_assert_eq(ev_postings_fresh(p, st, &err), 1);
	cr_assert_eq(ev_postings_term(p, "epsilon", 7, &(struct ev_postings_cursor){ 0 }), 1);
	cr_assert_eq(ev_postings_lengths(p)[3], 2);
	cr_assert_eq(ev_postings_rows(p), 205);
	ev_postings_close(p);
}

static int
seg_term(void *ctx, const char *term, size_t len, struct ev_err *err)
{
	(void)ctx, (void)term, (void)len, (void)err;
	return 0;
}

static int
seg_instance(void *ctx, long long rowid, int col, long long off, struct ev_err *err)
{
	(void)rowid, (void)col, (void)off, (void)err;
	++*(long long *)ctx;
	return 0;
}

/* Whether st's index is one the segment reader reads (fts5seg.h): 1 or 0. */
static int
seg_readable(void)
{
	struct ev_err err = { 0 };
	long long n = 0;
	struct ev_fts5seg_sink sink = { seg_term, seg_instance, &n, NULL };
	int r;

	tu_exec_ok(st, "BEGIN");
	r = ev_fts5seg_read(ev_store_db(st), "chunks_fts", 3, &sink, &err);
	tu_exec_ok(st, "COMMIT");
	cr_assert_geq(r, 0, "%s", err.msg);
	return r;
}

/* The segments of st's index. */
static long long
segments(void)
{
	sqlite3_stmt *s;
	long long n;

	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT count(DISTINCT id >> 37)"
	    " FROM chunks_fts_data WHERE id >> 37 > 0", -1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

Test(postings, a_build_reads_segments_as_they_are_or_merges_them_into_one_first)
{
	struct ev_postings_cursor c = { 0 };
	struct ev_postings *p;

	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')");
	cr_assert_eq(segments(), 1);
	/* a segment of its own, its row after every other: read as it is */
	tu_add_chunk(st, 300, "alpha", "epsilon", "en");
	cr_assert_eq(seg_readable(), 1);
	build();
	cr_assert_eq(segments(), 2);
	p = open_fresh();
	cr_assert_eq(ev_postings_term(p, "epsilon", 7, &c), 1);
	cr_assert_eq(ev_postings_term(p, "alpha", 5, &c), 3);
	cr_assert_eq(ev_postings_rows(p), 205);
	ev_postings_close(p);
	/* omega's row 3 in the younger segment, before the older one's: the
	 * reader leaves it, and the build merges the index first */
	tu_add_chunk(st, 3, "alpha", "omega", "en");
	cr_assert_eq(seg_readable(), 0);
	build();
	cr_assert_eq(segments(), 1);
	p = open_fresh();
	cr_assert_eq(ev_postings_term(p, "omega", 5, &c), 201);
	cr_assert_eq(ev_postings_term(p, "alpha", 5, &c), 4);
	cr_assert_eq(ev_postings_rows(p), 206);
	ev_postings_close(p);
}

/* The file as bytes, then n of them kept (from the start) and the byte at
 * flip (when not -1) changed, then whether it is opened. */
static int
opened_after(size_t n, long flip, int *stale)
{
	struct ev_err err = { 0 };
	struct ev_postings *p;
	size_t len;
	unsigned char *bytes = tu_file_bytes(file, &len);

	cr_assert_leq(n, len);
	if (flip >= 0)
		bytes[flip] ^= 0x5a;
	tu_write_file(file, bytes, n);
	p = ev_postings_open(st, stale, &err);
	cr_assert_eq(err.code, 0, "%s", err.msg);
	ev_postings_close(p);
	free(bytes);
	return p != NULL;
}

/* A file cut short, or whose header is not a postings file's, is damaged,
 * and one of another version stale: neither is read. */
Test(postings, a_file_cut_short_or_of_another_format_is_damaged_or_stale_and_never_read)
{
	size_t len;
	int stale;

	build();
	free(tu_file_bytes(file, &len));
	/* its format, named by its first eight bytes */
	{
		unsigned char *b = tu_file_bytes(file, &len);

		cr_assert_eq(memcmp(b, "EVPOST01", 8), 0);
		free(b);
	}
	cr_assert_eq(opened_after(len, -1, &stale), 1);	/* as it is */
	cr_assert_eq(stale, 0);
	cr_assert_eq(opened_after(len - 1, -1, &stale), 0);
	cr_assert_eq(stale, EV_POSTINGS_DAMAGED);
	build();
	cr_assert_eq(opened_after(100, -1, &stale), 0);	/* shorter than its header */
	cr_assert_eq(stale, EV_POSTINGS_DAMAGED);
	build();
	cr_assert_eq(opened_after(len, 0, &stale), 0);	/* another magic */
	cr_assert_eq(stale, EV_POSTINGS_DAMAGED);
	build();
	cr_assert_eq(opened_after(len, 96, &stale), 0);	/* its size in the header */
	cr_assert_eq(stale, EV_POSTINGS_DAMAGED);
	build();
	cr_assert_eq(opened_after(len, 8, &stale), 0);	/* another version */
	cr_assert_eq(stale, EV_POSTINGS_STALE);
	build();
	cr_assert_eq(opened_after(0, -1, &stale), 0);	/* empty */
	cr_assert_eq(stale, EV_POSTINGS_DAMAGED);
}

/* The little-endian uint64 at b + at. */
static uint64_t
u64_at(const unsigned char *b, size_t at)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[at + (size_t)i];
	return v;
}

static void
put_u64(unsigned char *b, size_t at, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		b[at + (size_t)i] = (unsigned char)v;
}

/* The index (in the dictionary's order) of term. */
static long long
term_index(struct ev_postings *p, const char *term)
{
	for (long long i = 0; i < ev_postings_nterms(p); i++) {
		long long rows;
		int len;
		const char *t = ev_postings_term_at(p, i, &len, &rows);

		if (t != NULL && (size_t)len == strlen(term) && memcmp(t, term, (size_t)len) == 0)
			return i;
	}
	cr_assert_fail("no term %s", term);
	return -1;
}

/* The header's offsets (postings.c's struct header: nterms at byte 40,
 * off_terms at 72, off_strings at 80, nnarrowed at 144) and each entry's
 * (str at 0, post at 16). */
#define NTERMS_AT 40
#define OFF_TERMS_AT 72
#define OFF_STRINGS_AT 80
#define NNARROWED_AT 144
#define ENTRY_STR 0
#define ENTRY_POST 16

/* The file as built, but for field `field` of term's entry set to v;
 * opened (not stale).  Returns it. */
static struct ev_postings *
opened_with_entry(const char *term, size_t field, uint64_t v)
{
	struct ev_err err = { 0 };
	struct ev_postings *p;
	size_t len, terms, entry;
	long long i;
	unsigned char *bytes;
	int stale = -1;

	build();
	p = open_fresh();
	i = term_index(p, term);
	ev_postings_close(p);
	bytes = tu_file_bytes(file, &len);
	terms = (size_t)u64_at(bytes, OFF_TERMS_AT);
	entry = (size_t)((u64_at(bytes, OFF_STRINGS_AT) - terms) /
	    (u64_at(bytes, NTERMS_AT) + u64_at(bytes, NNARROWED_AT)));
	put_u64(bytes, terms + (size_t)i * entry + field, v);
	tu_write_file(file, bytes, len);
	free(bytes);
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_eq(stale, 0);
	return p;
}

Test(postings, a_terms_entry_out_of_the_file_is_found_corrupt_when_read_and_the_others_read)
{
	struct ev_buf b = EV_BUF_INIT;
	struct ev_postings_cursor c;
	struct ev_postings *p;
	struct ev_err err = { 0 };
	char want[256];
	long long rows;
	int n;

	/* delta's list past the postings: the others read as they are, delta's
	 * a list found corrupt at its first step */
	p = opened_with_entry("delta", ENTRY_POST, (uint64_t)1 << 40);
	cr_assert_str_eq(list_of(p, "alpha", &rows, &b), "1:1/0/0[0.0] 2:0/0/2[2.0,2.1]");
	cr_assert_eq(rows, 2);
	list_of(p, "omega", &rows, &b);	/* (read whole: no corrupt list) */
	cr_assert_eq(rows, 200);
	cr_assert_eq(ev_postings_term(p, "delta", 5, &c), 1);
	cr_assert_eq(ev_postings_next(&c), -1);
	cr_assert_eq(ev_postings_term(p, "delta", 5, &c), 1);
	cr_assert_eq(ev_postings_seek(&c, 2), -1);
	ev_postings_close(p);
	/* beta's string past the strings: no term at its index, and a search
	 * that meets it finds a corrupt list */
	p = opened_with_entry("beta", ENTRY_STR, (uint64_t)1 << 40);
	/* (beta next to alpha in the dictionary's order: no term between) */
	cr_assert_null(ev_postings_term_at(p, term_index(p, "alpha") + 1, &n, &rows));
	cr_assert_eq(n, 0);
	cr_assert_eq(rows, 0);
	cr_assert_eq(ev_postings_term(p, "beta", 4, &c), 1);
	cr_assert_eq(ev_postings_next(&c), -1);
	/* the message names the file and the command that makes it again */
	cr_assert_eq(ev_postings_corrupt(p, &err), -1);
	ev_postings_close(p);
	cr_assert_eq(err.code, EV_EXIT_RUNTIME);
	cr_assert_not_null(strstr(err.msg, "the postings file is corrupt"));
	cr_assert_str_eq(err.where, file);
	snprintf(want, sizeof want, "'ev-ingest --db %s --postings'", path);
	cr_assert_not_null(strstr(err.msg, want), "%s", err.msg);
	ev_buf_release(&b);
}

Test(postings, counts_read_in_either_encoding_and_refused_when_corrupt)
{
	static const struct {
		const char *what;
		unsigned char bytes[8];
		int n;			/* bytes given */
		long long sum;		/* -1: corrupt, *p left where it was */
		uint32_t count[3];
		int used;		/* bytes read */
	} cases[] = {
		/* one byte for three columns: the last column's count in the
		 * low five bits, the first's in bit 5, the second's in bit 6 */
		{ "one byte", { 0x63, 0xff }, 2, 5, { 1, 1, 3 }, 1 },
		/* the escape, then each column's count as a varint (300: 0xac 0x02) */
		{ "escaped", { 0x80, 0x02, 0x00, 0xac, 0x02, 0xff }, 6, 302, { 2, 0, 300 }, 5 },
		{ "nothing left", { 0x63 }, 0, -1, { 0 }, 0 },
		{ "a varint cut short", { 0x80, 0x02, 0xac }, 3, -1, { 0 }, 0 },
		{ "a count past 32 bits", { 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00, 0x00 }, 8, -1,
		    { 0 }, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const unsigned char *p = cases[i].bytes;
		uint32_t count[3];

		cr_assert_eq(ev_postings_counts(&p, p + cases[i].n, 3, count), cases[i].sum, "%s",
		    cases[i].what);
		cr_assert_eq(p, cases[i].bytes + cases[i].used, "%s", cases[i].what);
		for (int c = 0; c < 3 && cases[i].sum >= 0; c++)
			cr_assert_eq(count[c], cases[i].count[c], "%s: column %d", cases[i].what, c);
	}
}

/* Every one-byte count, for every number of columns the byte can hold
 * (three, evkit's, read by a branch of its own): the last column's count in
 * the low 8 - ncol bits, column i's in bit 8 - ncol + i, as the format
 * says, and ev_postings_byte_sum() the same sum. */
Test(postings, every_one_byte_count_reads_as_the_format_says_for_any_columns)
{
	for (int ncol = 1; ncol <= 7; ncol++)
		for (unsigned h = 0; h < EV_POSTINGS_COUNTS_ESCAPE; h++) {
			unsigned char byte = (unsigned char)h;
			const unsigned char *p = &byte;
			uint32_t count[EV_POSTINGS_MAX_COLS] = { 0 }, want[EV_POSTINGS_MAX_COLS] = { 0 };
			unsigned low = 8u - (unsigned)ncol;
			long long sum = 0;

			want[ncol - 1] = h % (1u << low);
			for (int i = 0; i < ncol - 1; i++)
				want[i] = (h / (1u << (low + (unsigned)i))) % 2;
			for (int i = 0; i < ncol; i++)
				sum += want[i];
			cr_assert_eq(ev_postings_counts(&p, &byte + 1, ncol, count), sum,
			    "byte 0x%02x, %d columns", h, ncol);
			cr_assert_eq(p, &byte + 1);
			for (int i = 0; i < ncol; i++)
				cr_assert_eq(count[i], want[i], "byte 0x%02x, %d columns: column %d", h,
				    ncol, i);
			cr_assert_eq(ev_postings_byte_sum(h, ncol), (unsigned)sum, "byte 0x%02x, %d columns",
			    h, ncol);
		}
}

/* The bits of rows 0 to 299 marked in bits, as a string of the rows set. */
static const char *
rows_marked(const uint64_t *bits, struct ev_buf *b)
{
	ev_buf_reset(b);
	for (int r = 0; r < 300; r++)
		if (bits[r / 64] & (uint64_t)1 << (r % 64))
			cr_assert_eq(ev_buf_printf(b, "%s%d", b->len ? " " : "", r), 0);
	return ev_buf_str(b);
}

Test(postings, the_rows_of_several_lists_are_marked_and_each_counted_once)
{
	static const struct {
		const char *term;
		long long fresh;	/* rows not marked before */
	} marks[] = {
		{ "alpha", 2 },		/* rows 1 and 2 */
		{ "beta", 1 },		/* 1 again, and 4 */
		{ "gamma", 0 },		/* 1 and 2 again */
		{ "kappa", 0 },		/* 4 again, its counts escaped (2 in the title) */
		{ "\x1f" "fr" "\x1f" "zet", 1 },	/* 5, escaped (40 in the text) */
		{ "\x1f\x1fzeta", 0 },	/* 5 again: the word itself */
		{ "nosuch", 0 },
		{ "omega", 200 },	/* 100 to 299, over four blocks and their skips */
	};
	struct ev_buf b = EV_BUF_INIT;
	struct ev_postings *p;
	struct ev_postings_cursor c;
	uint64_t bits[5] = { 0 };	/* rows 0 to 319 */

	build();
	p = open_fresh();
	cr_assert_eq(ev_postings_maxrowid(p), 299);
	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
		ev_postings_term(p, marks[i].term, (int)strlen(marks[i].term), &c);
		cr_assert_eq(ev_postings_mark_rows(p, &c, bits), marks[i].fresh, "%s", marks[i].term);
		if (i == 5)
			cr_assert_str_eq(rows_marked(bits, &b), "1 2 4 5");
	}
	for (int r = 100; r < 300; r++)
		cr_assert(bits[r / 64] & (uint64_t)1 << (r % 64), "row %d", r);
	cr_assert_eq(bits[4] >> (300 - 256), 0, "no row past 299 marked");
	ev_postings_close(p);
	ev_buf_release(&b);
}

Test(postings, a_corrupt_list_is_refused_when_marked_and_nothing_past_the_rows_is_written)
{
	static const struct {
		const char *what;
		unsigned char bytes[8];
		int n;
	} cases[] = {
		/* row 300 (0xac 0x02): past the largest rowid, 299 */
		{ "a row past the last", { 0x05, 0x01, 0xa7, 0x02, 0x01 }, 5 },
		{ "counts cut short", { 0x05 }, 1 },
		{ "a row's varint cut short", { 0x05, 0x01, 0x85 }, 3 },
		{ "escaped counts cut short", { 0x05, 0x80, 0x01 }, 3 },
	};
	struct ev_postings *p;

	build();
	p = open_fresh();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ev_postings_cursor c;
		uint64_t bits[6] = { 0 };

		memset(&c, 0, sizeof c);
		c.ncol = 3;
		c.p = c.base = cases[i].bytes;
		c.end = c.p + cases[i].n;
		cr_assert_eq(ev_postings_mark_rows(p, &c, bits), -1, "%s", cases[i].what);
		cr_assert_eq(bits[4] >> (300 - 256) | bits[5], 0, "%s: nothing past row 299", cases[i].what);
	}
	ev_postings_close(p);
}

/* Rows 400 to 539 hold psi (140 entries: two blocks of 64 and one of 12)
 * after (row mod 7) words "nu", twice in a row when row mod 3 is 0: its
 * positions differ from row to row. */
#define PSI_FIRST 400
#define PSI_LAST 539
static void
add_psi_rows(void)
{
	tu_exec_ok(st, "BEGIN");
	for (long long r = PSI_FIRST; r <= PSI_LAST; r++) {
		char text[64] = "";

		for (int i = 0; i < r % 7; i++)
			strcat(text, "nu ");
		strcat(text, r % 3 == 0 ? "psi psi" : "psi");
		tu_add_chunk(st, r, NULL, text, "en");
	}
	tu_exec_ok(st, "COMMIT");
}

/* Whether the cursor's entry is psi's of row r, positions and all. */
static void
assert_psi_entry(struct ev_postings_cursor *c, long long r)
{
	uint64_t key[4];
	int n = r % 3 == 0 ? 2 : 1;

	cr_assert_eq(c->rowid, r);
	cr_assert_eq(c->count[2], (uint32_t)n, "row %lld", r);
	cr_assert_eq(ev_postings_positions(c, key), n, "row %lld", r);
	for (int i = 0; i < n; i++)
		cr_assert_eq(key[i], ((uint64_t)2 << 32) + (uint64_t)(r % 7 + i), "row %lld", r);
}

Test(postings, seeks_far_and_near_land_on_each_entry_and_its_positions)
{
	struct ev_postings_cursor c;
	struct ev_postings *p;

	add_psi_rows();
	build();
	p = open_fresh();
	/* every fifth row, sought in rising order: within a block (the
	 * positions of the entries between stepped over), and across the
	 * blocks' skips */
	cr_assert_eq(ev_postings_term(p, "psi", 3, &c), PSI_LAST - PSI_FIRST + 1);
	cr_assert_eq(c.nskip, 2);
	for (long long r = PSI_FIRST; r <= PSI_LAST; r += 5) {
		cr_assert_eq(ev_postings_seek(&c, r), 1, "row %lld", r);
		assert_psi_entry(&c, r);
	}
	cr_assert_eq(ev_postings_seek(&c, PSI_LAST + 1), 0);
	/* sought far: over both blocks at once, to the last block's entries */
	cr_assert_eq(ev_postings_term(p, "psi", 3, &c), PSI_LAST - PSI_FIRST + 1);
	cr_assert_eq(ev_postings_seek_far(&c, 530), 1);
	cr_assert_eq(c.skip_at, 2);
	assert_psi_entry(&c, 530);
	/* a target behind the entry: it stays; then the next entries in turn */
	cr_assert_eq(ev_postings_seek_far(&c, 420), 1);
	assert_psi_entry(&c, 530);
	for (long long r = 531; r <= PSI_LAST; r++) {
		cr_assert_eq(ev_postings_next(&c), 1);
		assert_psi_entry(&c, r);
	}
	cr_assert_eq(ev_postings_next(&c), 0);
	/* onto the second block's first entry, from the first block's */
	cr_assert_eq(ev_postings_term(p, "psi", 3, &c), PSI_LAST - PSI_FIRST + 1);
	cr_assert_eq(ev_postings_seek(&c, 401), 1);
	cr_assert_eq(ev_postings_seek_far(&c, 464), 1);
	cr_assert_eq(c.skip_at, 1);
	assert_psi_entry(&c, 464);
	cr_assert_eq(ev_postings_seek_far(&c, PSI_LAST + 1), 0);
	ev_postings_close(p);
}

/* Rows 600 to 699 hold chi in the text after (row mod 5) words "nu", and
 * every fourth twice in the title too: those entries' counts are escaped
 * (2 in a column but the last), and a seek steps over them, their
 * positions counted, to land on the entry after. */
Test(postings, seeks_step_over_entries_of_escaped_counts_and_their_positions)
{
	struct ev_postings_cursor c;
	struct ev_postings *p;

	tu_exec_ok(st, "BEGIN");
	for (long long r = 600; r < 700; r++) {
		char text[64] = "";

		for (int i = 0; i < r % 5; i++)
			strcat(text, "nu ");
		strcat(text, "chi");
		tu_add_chunk(st, r, r % 4 == 0 ? "chi chi" : NULL, text, "en");
	}
	tu_exec_ok(st, "COMMIT");
	build();
	p = open_fresh();
	for (int step = 1; step <= 7; step += 3) {
		cr_assert_eq(ev_postings_term(p, "chi", 3, &c), 100);
		for (long long r = 600 + step; r < 700; r += step) {
			uint64_t key[4];
			int title = r % 4 == 0 ? 2 : 0;

			cr_assert_eq(ev_postings_seek(&c, r), 1, "row %lld", r);
			cr_assert_eq(c.rowid, r);
			cr_assert_eq(c.count[0], (uint32_t)title, "row %lld", r);
			cr_assert_eq(c.count[2], 1, "row %lld", r);
			cr_assert_eq(ev_postings_positions(&c, key), title + 1, "row %lld", r);
			for (int i = 0; i < title; i++)
				cr_assert_eq(key[i], (uint64_t)i, "row %lld", r);
			cr_assert_eq(key[title], ((uint64_t)2 << 32) + (uint64_t)(r % 5), "row %lld", r);
		}
		cr_assert_eq(ev_postings_seek(&c, 700), 0);
	}
	ev_postings_close(p);
}

Test(postings, willneed_asks_for_a_list_and_leaves_the_cursor_as_it_was)
{
	struct ev_postings_cursor c, before;
	struct ev_postings *p;

	add_psi_rows();
	build();
	p = open_fresh();
	cr_assert_eq(ev_postings_term(p, "psi", 3, &c), PSI_LAST - PSI_FIRST + 1);
	before = c;
	ev_postings_willneed(&c, 0);
	ev_postings_willneed(&c, 1);
	cr_assert_eq(memcmp(&before, &c, sizeof c), 0);
	for (long long r = PSI_FIRST; r <= PSI_LAST; r++) {
		cr_assert_eq(ev_postings_next(&c), 1);
		assert_psi_entry(&c, r);
	}
	/* a term the index lacks: an empty cursor, nothing asked for */
	cr_assert_eq(ev_postings_term(p, "upsilon", 7, &c), 0);
	ev_postings_willneed(&c, 1);
	cr_assert_eq(ev_postings_next(&c), 0);
	ev_postings_close(p);
}

Test(postings, a_store_wants_its_file_when_stale_or_when_it_has_enough_chunks)
{
	struct ev_err err = { 0 };

	/* no file: wanted from 204 chunks (the store's) on */
	cr_assert_eq(ev_postings_wanted(st, 205, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_postings_wanted(st, 204, &err), 1, "%s", err.msg);
	/* a current file: never */
	build();
	cr_assert_eq(ev_postings_wanted(st, 0, &err), 0, "%s", err.msg);
	/* a stale one: always */
	tu_add_chunk(st, 3, "alpha", "epsilon", "en");
	cr_assert_eq(ev_postings_wanted(st, EV_POSTINGS_AUTO_ROWS, &err), 1, "%s", err.msg);
	build();
	cr_assert_eq(ev_postings_wanted(st, 1, &err), 0, "%s", err.msg);
}
