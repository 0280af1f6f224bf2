/* Tests of lib/store/postings.c's build on two threads
 * (ev_postings_build_split(), and ev_fts5seg_read_range() and
 * ev_fts5seg_split() under it), over a real store of thousands of chunks:
 * split at any term bound (before every term, at a term, between two,
 * inside a list that runs over many leaves, past every term) and where the
 * build splits by itself, the file is the one-thread build's, byte for
 * byte, whether the index is one segment or several; and a build on two
 * threads leaves no temporary file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fts5seg.h"
#include "postings.h"
#include "store.h"
#include "test_util.h"

static char dir[64], path[128], file[160];
static struct ev_store *st;

/* A word of the chunks' vocabulary: i in base 26, as letters after "q"
 * (which the English stemmer leaves as they are). */
static void
word(unsigned i, char *w)
{
	int n = 0;

	w[n++] = 'q';
	do {
		w[n++] = (char)('a' + i % 26);
		i /= 26;
	} while (i > 0);
	w[n] = '\0';
}

/* Chunks from rowid `from` to `to` (exclusive), each of a title and a text
 * of words drawn (a fixed sequence) mostly from a few common ones and
 * otherwise from thousands, in English, French (out of the Porter
 * namespace: narrowed lists) or no language, in one transaction: a segment
 * of its own (FTS5 writes one at each commit). */
static void
add_chunks(long long from, long long to)
{
	static const char *const lang[3] = { "en", NULL, "fr" };
	unsigned x = (unsigned)from * 2654435761u + 12345u;

	tu_exec_ok(st, "BEGIN");
	for (long long r = from; r < to; r++) {
		char title[64], text[1200], w[16];
		size_t n = 0;

		x = x * 1103515245u + 12345u;
		word(x >> 16 & 63, w);
		snprintf(title, sizeof title, "%s %s", w, r % 7 == 0 ? "omega" : "alpha");
		for (int i = 0; i < 60; i++) {
			x = x * 1103515245u + 12345u;
			word((x >> 8) % 8 < 5 ? (x >> 16) % 12 : (x >> 12) % 4000, w);
			n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i ? " " : "", w);
		}
		tu_add_chunk(st, r, title, text, lang[r % 3]);
	}
	tu_exec_ok(st, "COMMIT");
}

static void
setup(void)
{
	struct ev_err err = { 0 };

	snprintf(dir, sizeof dir, "/tmp/evkit-postsplit.XXXXXX");
	tu_mkdir(dir, path, sizeof path);
	st = tu_store_create(path, &err);
	snprintf(file, sizeof file, "%s%s", path, EV_POSTINGS_SUFFIX);
	/* each commit a segment of its own, none merged */
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', 0)");
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('crisismerge', 64)");
}

static void
teardown(void)
{
	ev_store_close(st);
	st = NULL;
	tu_rmdir(dir);
}

TestSuite(postings_split, .init = setup, .fini = teardown);

/* The file built split at split (NULL: on one thread), as bytes. */
static unsigned char *
built(const char *split, size_t *len)
{
	struct ev_err err = { 0 };

	unlink(file);
	cr_assert_eq(ev_postings_build_split(st, split, split != NULL ? strlen(split) : 0, &err), 0,
	    "%s", err.msg);
	return tu_file_bytes(file, len);
}

/* The segments of st's index, and their leaves. */
#define SEGMENTS "SELECT count(DISTINCT id >> 37) FROM chunks_fts_data WHERE id >> 37 > 0"
#define LEAVES "SELECT count(*) FROM chunks_fts_data WHERE id >> 37 > 0"

/* The one-thread build's file, and the same bytes from every split. */
static void
assert_every_split_the_same(void)
{
	/* before every term; a bound before the first "q" word; one of the
	 * common words (its list over many leaves); a rare one; a bound
	 * between two words (no term); the word itself's namespace; past
	 * every term */
	static const char *const splits[] = { "", "p", "qa", "qc", "qzza", "qbbz", "\x1f\x1f" "qe",
	    "omega", "\xff" };
	struct ev_err err = { 0 };
	size_t len, n;
	unsigned char *one = built(NULL, &len), *two;
	char *mid;

	for (size_t i = 0; i < sizeof splits / sizeof *splits; i++) {
		two = built(splits[i], &n);
		cr_assert_eq(n, len, "split at '%s': %zu bytes, not %zu", splits[i], n, len);
		cr_assert_eq(memcmp(one, two, len), 0, "split at '%s': other bytes", splits[i]);
		free(two);
	}
	/* where ev_postings_build() splits by itself: a bound inside the terms */
	tu_exec_ok(st, "BEGIN");
	cr_assert_eq(ev_fts5seg_split(ev_store_db(st), "chunks_fts", &mid, &n, &err), 1, "%s", err.msg);
	tu_exec_ok(st, "COMMIT");
	cr_assert_gt(n, 0);
	unlink(file);
	cr_assert_eq(ev_postings_build_split(st, mid, n, &err), 0, "%s", err.msg);
	free(mid);
	two = tu_file_bytes(file, &n);
	cr_assert_eq(n, len);
	cr_assert_eq(memcmp(one, two, len), 0, "split where the build splits: other bytes");
	free(two);
	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	two = tu_file_bytes(file, &n);
	cr_assert_eq(n, len);
	cr_assert_eq(memcmp(one, two, len), 0, "ev_postings_build(): other bytes");
	free(two);
	free(one);
}

Test(postings_split, an_index_of_one_segment_gives_the_same_file_split_anywhere)
{
	add_chunks(1, 1500);
	add_chunks(1500, 3000);
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')");
	cr_assert_eq(tu_count(ev_store_db(st), SEGMENTS, NULL), 1);
	cr_assert_gt(tu_count(ev_store_db(st), LEAVES, NULL), 100);
	assert_every_split_the_same();
}

Test(postings_split, an_index_of_several_segments_gives_the_same_file_split_anywhere)
{
	long long n;

	for (long long r = 1; r < 3000; r += 600)
		add_chunks(r, r + 600);
	cr_assert_geq(n = tu_count(ev_store_db(st), SEGMENTS, NULL), 5);
	assert_every_split_the_same();
	cr_assert_eq(tu_count(ev_store_db(st), SEGMENTS, NULL), n);	/* read as they are */
}

Test(postings_split, a_split_build_leaves_no_temporary_file)
{
	static const char *const tmp[] = { ".tmp", ".positions.tmp", ".narrowed.tmp", ".upper.tmp",
	    ".upper.positions.tmp", ".upper.narrowed.tmp" };
	size_t len;
	char name[200];

	add_chunks(1, 600);
	add_chunks(600, 1200);
	free(built("qc", &len));
	for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++) {
		snprintf(name, sizeof name, "%s%s", file, tmp[i]);
		cr_assert_neq(access(name, F_OK), 0, "%s left", name);
	}
}
