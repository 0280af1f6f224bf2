/* Tests of lib/store/ingestpass.c: ev-ingest's two passes, its batches and --delete. */
#include <criterion/criterion.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>

#include "chunk.h"
#include "ingest.h"
#include "ingestpass.h"
#include "postings.h"
#include "store.h"
#include "test_util.h"

/* stat(), wrapped at link time (LDLIBS_test_ingestpass in the Makefile):
 * when stat_nomem is set, it fails as when the kernel's memory runs out. */
static int stat_nomem;
int __real_stat(const char *path, struct stat *sb);

int
__wrap_stat(const char *path, struct stat *sb)
{
	if (stat_nomem) {
		errno = ENOMEM;
		return -1;
	}
	return __real_stat(path, sb);
}

static char dir[] = "/tmp/evkit-ingestpass-XXXXXX";
static char db[256];
static struct ev_store *st;
static struct ev_ingest *ig;
static struct ev_err err;
static struct ev_ingestpass_opts so;
static FILE *out;
static char *outp;
static size_t outn;
static long seen_at_step[8];	/* bytes of output when each document was put */
static int steps;

static void
progress(void *ctx, long long docs, long long bytes)
{
	(void)ctx, (void)docs, (void)bytes;
	fflush(out);
	if (steps < 8)
		seen_at_step[steps++] = (long)outn;
}

static const struct ev_ingest_opts o = { EV_CHUNK_SIZE, EV_CHUNK_OVERLAP, EV_INGEST_AUTO,
	EV_INGEST_CHANGED, 0, 0 };

static void
setup(void)
{
	char *base;

	tu_mkdir(dir, db, sizeof db);
	st = tu_store_create(db, &err);
	ig = ev_ingest_open(st, &o, &err);
	cr_assert_not_null(ig, "%s", err.msg);
	out = open_memstream(&outp, &outn);
	memset(&so, 0, sizeof so);
	so.format = EV_INGEST_AUTO;
	so.batch = EV_INGESTPASS_BATCH_DOCS;
	base = ev_ingest_resolve(dir, 1, &err);
	so.ids_of = ev_ingest_ids_new(base, &err);
	free(base);
	so.out = out;
	so.note = tu_note;
	so.progress = progress;
	tu_notes[0] = '\0';
	steps = 0;
}

static void
teardown(void)
{
	ev_ingest_free(ig);
	ev_store_close(st);
	ev_ingest_ids_free(so.ids_of);
	fclose(out);
	free(outp);
	tu_rmdir(dir);
}

TestSuite(ingestpass, .init = setup, .fini = teardown);

static const char *
file(const char *name, const char *text)
{
	static char path[300];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	tu_write_file(path, text, strlen(text));
	return path;
}

static long long
stored(const char *sql)
{
	sqlite3_stmt *s;
	long long n;

	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), sql, -1, &s, NULL), SQLITE_OK, "%s", sql);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* A spool of so that has read the file name holding text and written it
 * into the store (both passes succeed); the caller frees it. */
static struct ev_ingestpass *
spool_file(const char *name, const char *text)
{
	struct ev_ingestpass *sp = ev_ingestpass_new(&so, &err);

	cr_assert_not_null(sp, "%s", err.msg);
	cr_assert_eq(ev_ingestpass_read(sp, file(name, text), &err), 0, "%s", err.msg);
	ev_ingestpass_read_done(sp);
	cr_assert_eq(ev_ingestpass_write(sp, st, ig, &err), 0, "%s", err.msg);
	return sp;
}

Test(ingestpass, reads_checks_and_writes_every_document)
{
	struct ev_ingestpass *sp = ev_ingestpass_new(&so, &err);

	cr_assert_not_null(sp);
	cr_assert_eq(ev_ingestpass_read(sp, file("a.jsonl", "{\"id\":\"x\",\"text\":\"alpha beta\"}\n\n"
	    "{\"id\":\"y\",\"text\":\"gamma\"}\n"), &err), 0, "%s", err.msg);
	cr_assert_eq(ev_ingestpass_read(sp, file("n.md", "# Note\n\ndelta\n"), &err), 0, "%s", err.msg);
	ev_ingestpass_read_done(sp);
	cr_assert_eq(ev_ingestpass_stats(sp)->docs, 3);
	cr_assert_eq(stored("SELECT count(*) FROM documents"), 0, "nothing stored in pass 1");
	cr_assert_eq(ev_ingestpass_write(sp, st, ig, &err), 0, "%s", err.msg);
	cr_assert_eq(stored("SELECT count(*) FROM documents"), 3);
	cr_assert_eq(stored("SELECT count(*) FROM documents WHERE doc_id = 'n.md'"), 1,
	    "a file's id is its path relative to the base");
	fflush(out);
	cr_assert_not_null(strstr(outp, "\"doc_id\":\"y\""), "%s", outp);
	cr_assert_str_eq(tu_notes, "");
	ev_ingestpass_free(sp);
}

Test(ingestpass, read_all_reads_each_input_in_turn_and_stops_at_the_first_bad_one)
{
	char a[300], b[300], bad[300];
	char *args[3] = { a, b, bad };
	struct ev_ingestpass *sp;

	snprintf(a, sizeof a, "%s", file("a.jsonl", "{\"id\":\"x\",\"text\":\"alpha\"}\n"));
	snprintf(b, sizeof b, "%s", file("b.md", "# B\n\nbeta\n"));
	snprintf(bad, sizeof bad, "%s", file("c.jsonl", "{\"id\":\"y\",\"text\":\"gamma\"}\n{\n"));
	cr_assert_not_null(sp = ev_ingestpass_new(&so, &err), "%s", err.msg);
	cr_assert_eq(ev_ingestpass_read_all(sp, args, 2, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_ingestpass_stats(sp)->docs, 2);
	cr_assert_eq(ev_ingestpass_write(sp, st, ig, &err), 0, "%s", err.msg);
	cr_assert_eq(stored("SELECT count(*) FROM documents WHERE doc_id IN ('x', 'b.md')"), 2);
	ev_ingestpass_free(sp);
	/* the third input's second line is bad: an error naming it, and
	 * nothing of the inputs stored */
	cr_assert_not_null(sp = ev_ingestpass_new(&so, &err), "%s", err.msg);
	cr_assert_eq(ev_ingestpass_read_all(sp, args, 3, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_not_null(strstr(err.where, "c.jsonl:2"), "%s", err.where);
	cr_assert_eq(ev_ingestpass_stats(sp)->docs, 3);
	ev_ingestpass_free(sp);
	cr_assert_eq(stored("SELECT count(*) FROM documents"), 2);
	/* no input named: stdin */
	cr_assert_not_null(freopen(file("in.jsonl", "{\"id\":\"z\",\"text\":\"delta\"}\n"), "r",
	    stdin));
	cr_assert_not_null(sp = ev_ingestpass_new(&so, &err), "%s", err.msg);
	cr_assert_eq(ev_ingestpass_read_all(sp, args, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_ingestpass_write(sp, st, ig, &err), 0, "%s", err.msg);
	cr_assert_eq(stored("SELECT count(*) FROM documents WHERE doc_id = 'z'"), 1);
	ev_ingestpass_free(sp);
}

Test(ingestpass, a_duplicate_id_is_refused_or_skipped)
{
	const char *in = file("d.jsonl", "{\"id\":\"x\",\"text\":\"a\"}\n{\"id\":\"x\",\"text\":\"b\"}\n");
	struct ev_ingestpass *sp = ev_ingestpass_new(&so, &err);
	char first[400];

	cr_assert_eq(ev_ingestpass_read(sp, in, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	snprintf(first, sizeof first, "duplicate document id 'x' (first at %s:1)", in);
	cr_assert_str_eq(err.msg, first);
	ev_ingestpass_free(sp);

	ev_err_clear(&err);
	so.skip_invalid = 1;
	sp = ev_ingestpass_new(&so, &err);
	cr_assert_eq(ev_ingestpass_read(sp, in, &err), 0, "%s", err.msg);
	ev_ingestpass_read_done(sp);
	cr_assert_eq(ev_ingestpass_stats(sp)->docs, 1);
	cr_assert_eq(ev_ingestpass_stats(sp)->invalid, 1);
	cr_assert_not_null(strstr(tu_notes, ":2: duplicate document id 'x'"), "%s", tu_notes);
	cr_assert_not_null(strstr(tu_notes, "skipped 1 invalid record\n"), "%s", tu_notes);
	ev_ingestpass_free(sp);
}

Test(ingestpass, each_batch_is_printed_once_committed)
{
	struct ev_ingestpass *sp;

	so.batch = 2;
	sp = spool_file("b.jsonl", "{\"id\":\"1\",\"text\":\"one\"}\n"
	    "{\"id\":\"2\",\"text\":\"two\"}\n{\"id\":\"3\",\"text\":\"three\"}\n");
	cr_assert_eq(steps, 3);
	cr_assert_eq(seen_at_step[0], 0);
	cr_assert_eq(seen_at_step[1], 0, "the first batch is not committed before its 2nd document");
	cr_assert_gt(seen_at_step[2], 0, "the first batch of 2 was printed after its commit");
	fflush(out);
	cr_assert_gt((long)outn, seen_at_step[2], "the last batch printed at the end");
	ev_ingestpass_free(sp);
}

/* A new run: documents are marked seen per ev_ingest. */
static void
reopen(void)
{
	struct ev_ingest_opts o = { EV_CHUNK_SIZE, EV_CHUNK_OVERLAP, EV_INGEST_AUTO,
		EV_INGEST_CHANGED, 0, 0 };

	ev_ingest_free(ig);
	ig = ev_ingest_open(st, &o, &err);
	cr_assert_not_null(ig, "%s", err.msg);
}

Test(ingestpass, prune_spares_a_source_with_records_without_id)
{
	struct ev_ingestpass *sp;

	sp = spool_file("p.jsonl", "{\"id\":\"a\",\"text\":\"a\"}\n{\"id\":\"b\",\"text\":\"b\"}\n");
	ev_ingestpass_free(sp);

	/* b gone from the source, and a record without an id: nothing pruned */
	reopen();
	so.prune = so.skip_invalid = 1;
	sp = spool_file("p.jsonl", "{\"id\":\"a\",\"text\":\"a\"}\n{\"text\":\"no id\"}\n");
	cr_assert_eq(ev_ingestpass_stats(sp)->pruned, 0);
	cr_assert_not_null(strstr(tu_notes, "p.jsonl: not pruned: invalid records without an id"),
	    "%s", tu_notes);
	ev_ingestpass_free(sp);

	/* a clean run of the source prunes b */
	reopen();
	sp = spool_file("p.jsonl", "{\"id\":\"a\",\"text\":\"a\"}\n");
	cr_assert_eq(ev_ingestpass_stats(sp)->pruned, 1);
	cr_assert_eq(stored("SELECT count(*) FROM documents WHERE doc_id = 'b'"), 0);
	ev_ingestpass_free(sp);
}

Test(ingestpass, delete_names_what_it_cannot_find)
{
	char *names[] = { "x", "nothing" };
	long long deleted = 0;

	ev_ingestpass_free(spool_file("x.jsonl", "{\"id\":\"x\",\"text\":\"a\"}\n"));
	cr_assert_eq(ev_ingestpass_delete(&so, st, ig, 0, names, 2, &deleted, &err), 0, "%s", err.msg);
	cr_assert_eq(deleted, 1);
	cr_assert_not_null(strstr(tu_notes, "no document 'nothing' in the store"), "%s", tu_notes);
	cr_assert_eq(stored("SELECT count(*) FROM documents"), 0);
}

/* Append a row's values to the memstream ctx. */
static int
row_text(void *ctx, int n, char **v, char **names)
{
	(void)names;
	for (int i = 0; i < n; i++)
		fprintf(ctx, "%s%s", v[i] ? v[i] : "NULL", i + 1 < n ? "|" : "\n");
	return 0;
}

/* Every row of s a run writes (documents but their ingested_at), the
 * full-text index's segments and sizes included, as text; the caller frees. */
static char *
contents(struct ev_store *s)
{
	static const char *const sql[] = {
		"SELECT doc_id, source, title, source_uri, source_type, language, published_date,"
		" metadata, content_hash, length FROM documents ORDER BY doc_id",
		"SELECT * FROM chunks ORDER BY rowid", "SELECT * FROM chunk_tombstones ORDER BY rowid",
		"SELECT id, hex(block) FROM chunks_fts_data ORDER BY id",
		"SELECT * FROM chunks_fts_idx ORDER BY segid, term",
		"SELECT id, hex(sz) FROM chunks_fts_docsize ORDER BY id",
	};
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++)
		cr_assert_eq(sqlite3_exec(ev_store_db(s), sql[i], row_text, f, NULL), SQLITE_OK, "%s",
		    sql[i]);
	fclose(f);
	return p;
}

static char *
contents_at(const char *path)
{
	struct ev_store *s = ev_store_open(path, EV_STORE_READ, &err);
	char *p;

	cr_assert_not_null(s, "%s", err.msg);
	p = contents(s);
	ev_store_close(s);
	return p;
}

/* Run both passes over the file in, with threads, into the store at path;
 * the chunk records printed into *printed (the caller frees). */
static struct ev_ingest_stats
ingest_with(const char *path, const char *in, int threads, char **printed)
{
	struct ev_ingest_opts o = { 200, 40, EV_INGEST_AUTO, EV_INGEST_CHANGED, 1, 0 };
	struct ev_store *s = ev_store_open(path, EV_STORE_CREATE, &err);
	struct ev_ingest *g;
	struct ev_ingestpass *sp;
	struct ev_ingest_stats stats;
	size_t n = 0;

	cr_assert_not_null(s, "%s", err.msg);
	g = ev_ingest_open(s, &o, &err);
	cr_assert_not_null(g, "%s", err.msg);
	so.threads = threads;
	so.out = open_memstream(printed, &n);
	sp = ev_ingestpass_new(&so, &err);
	cr_assert_not_null(sp, "%s", err.msg);
	cr_assert_eq(ev_ingestpass_read(sp, in, &err), 0, "%s", err.msg);
	ev_ingestpass_read_done(sp);
	cr_assert_eq(ev_ingestpass_write(sp, s, g, &err), 0, "%s", err.msg);
	fclose(so.out);
	so.out = out;
	stats = *ev_ingest_stats(g);
	ev_ingestpass_free(sp);
	ev_ingest_free(g);
	ev_store_close(s);
	return stats;
}

Test(ingestpass, two_threads_store_and_print_what_one_does)
{
	/* a run of documents of every kind the preparing thread meets: titles
	 * found or given, a title alone, no text, a long table split with its
	 * header, several languages (tagged columns, CJK bigrams), many chunks */
	char first[8192], second[8192], table[2048] = "", *p1, *p2;
	const char *runs[2];
	size_t used = 0;

	for (int i = 0; i < 40; i++)
		used += (size_t)snprintf(table + used, sizeof table - used, "| row %d | value %d |\\n", i,
		    i * i);
	snprintf(first, sizeof first,
	    "{\"id\":\"en\",\"title\":\"Heat\",\"text\":\"Flows over heated plates. Boundary"
	    " layers thicken downstream. Heat transfer falls as the layer grows.\"}\n"
	    "{\"id\":\"notes.md\",\"text\":\"# Found title\\n\\n## Part one\\n\\nSome words.\\n\\n"
	    "| name | value |\\n|---|---|\\n%s\\n## Part two\\n\\nMore words here.\"}\n"
	    "{\"id\":\"fr\",\"text\":\"Les abeilles ne volent pas quand il pleut, elles restent"
	    " dans la ruche.\"}\n"
	    "{\"id\":\"de\",\"language\":\"de\",\"text\":\"Die Bienen fliegen nicht.\"}\n"
	    "{\"id\":\"zh\",\"text\":\"草酸防治蜂螨的方法很多\"}\n"
	    "{\"id\":\"t\",\"title\":\"Only a title\",\"text\":\"\"}\n"
	    "{\"id\":\"e\",\"text\":\"\"}\n", table);
	/* the second run: one changed, one new, the others as they were */
	snprintf(second, sizeof second, "%s", first);
	memcpy(strstr(second, "Boundary"), "BOUNDARY", 8);
	strcat(second, "{\"id\":\"new\",\"text\":\"A new document about wings.\"}\n");
	runs[0] = strdup(file("first.jsonl", first));
	runs[1] = strdup(file("second.jsonl", second));
	for (int r = 0; r < 2; r++) {
		char path1[300], path2[300], *c1, *c2;
		struct ev_ingest_stats s1, s2;

		snprintf(path1, sizeof path1, "%s/one.db", dir);
		snprintf(path2, sizeof path2, "%s/two.db", dir);
		s1 = ingest_with(path1, runs[r], 1, &p1);
		s2 = ingest_with(path2, runs[r], 2, &p2);
		cr_assert_str_eq(p2, p1, "run %d: the same chunk records", r + 1);
		cr_assert_eq(s1.ahead, 0);
		cr_assert_eq(s2.written, s1.written);
		cr_assert_eq(s2.chunks, s1.chunks);
		cr_assert_eq(s2.unchanged, s1.unchanged);
		if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
			cr_assert_eq(s2.ahead, r == 0 ? 7 : 2,
			    "run %d: the documents to write, and only those, prepared ahead", r + 1);
		c1 = contents_at(path1);
		c2 = contents_at(path2);
		cr_assert_str_eq(c2, c1, "run %d: the same rows and index", r + 1);
		free(c1);
		free(c2);
		free(p1);
		free(p2);
	}
	free((char *)runs[0]);
	free((char *)runs[1]);
}

static const char three[] = "{\"id\":\"1\",\"text\":\"one\"}\n{\"id\":\"2\",\"text\":\"two\"}\n"
    "{\"id\":\"3\",\"text\":\"three\"}\n";

/* The structure record of the store's full-text index, in hex (a 32-bit
 * cookie, then varints: levels, segments, ...); malloc'd. */
static char *
fts_structure(void)
{
	sqlite3_stmt *s;
	char *hex;

	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT hex(block) FROM chunks_fts_data"
	    " WHERE id = 10", -1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	hex = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return hex;
}

/* The documents docs (JSON Lines) loaded in bulk, a batch (and so a
 * segment) each: the index then of segs segments ("01": two hex digits of
 * the structure record's count), every other run's merge settings written
 * back.  Its structure (fts_structure()). */
static char *
bulk_load(const char *docs, const char *segs)
{
	char *s;

	so.batch = 1;
	ev_ingestpass_free(spool_file("b.jsonl", docs));
	s = fts_structure();
	cr_assert_eq(strncmp(s + 10, segs, 2), 0, "%s segments: %s", segs, s);
	cr_assert_eq(stored("SELECT count(*) FROM chunks_fts_config WHERE (k = 'automerge' AND v = 4)"
	    " OR (k = 'crisismerge' AND v = 1000)"), 2, "a run's own settings, written back");
	return s;
}

Test(ingestpass, a_bulk_load_ends_in_one_segment_with_fts5s_own_merge_settings)
{
	char *before, *after;

	/* a segment a document: merged into one at the end */
	before = bulk_load(three, "01");
	/* the same documents again: nothing written, the index as it was (its
	 * postings file still fresh) */
	ev_ingestpass_free(spool_file("b.jsonl", three));
	after = fts_structure();
	cr_assert_str_eq(after, before);
	free(after);
	/* fewer documents than the store holds: FTS5 merges as it writes, and
	 * the segments are left as they are */
	ev_ingestpass_free(spool_file("c.jsonl", "{\"id\":\"4\",\"text\":\"four\"}\n"));
	after = fts_structure();
	cr_assert_eq(strncmp(after + 10, "02", 2), 0, "two segments: %s", after);
	cr_assert_eq(stored("SELECT count(*) FROM documents"), 4);
	free(after);
	free(before);
}

/* Seventy documents ("word1" to "word70") into docs (JSON Lines), for a
 * bulk load into a store of one document (one segment) with its postings
 * file, which ig, opened again, makes after each run. */
static void
seventy_for_a_store_with_its_postings_file(char *docs, size_t cap)
{
	struct ev_ingest_opts o = { EV_CHUNK_SIZE, EV_CHUNK_OVERLAP, EV_INGEST_AUTO,
		EV_INGEST_CHANGED, 0, 1 };
	size_t at = 0;

	for (int i = 1; i <= 70; i++)
		at += (size_t)snprintf(docs + at, cap - at, "{\"id\":\"%d\",\"text\":\"word%d\"}\n",
		    i, i);
	ev_ingestpass_free(spool_file("a.jsonl", "{\"id\":\"0\",\"text\":\"zero\"}\n"));
	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	ev_ingest_free(ig);
	ig = ev_ingest_open(st, &o, &err);
	cr_assert_not_null(ig, "%s", err.msg);
}

/* The index's segments, as fts_structure() gave them in before, are those
 * the postings file is made from, not merged first. */
static void
postings_file_made_from(char *before)
{
	char *after;

	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	after = fts_structure();
	cr_assert_str_eq(after, before, "the segments read as they are, not merged");
	cr_assert_eq(ev_postings_state(st, &err), 1);
	free(after);
	free(before);
}

Test(ingestpass, a_bulk_load_takes_its_merge_settings_before_its_first_segment)
{
	char *before, docs[70 * 40];

	seventy_for_a_store_with_its_postings_file(docs, sizeof docs);
	/* FTS5 writes a segment a document within the one batch (its pending
	 * terms past a hash of 32 bytes), as a large load's batch writes
	 * several: FTS5's own automerge of 4, still set, would begin merging
	 * the first four, a merge the bulk settings leave half done, which
	 * the postings build cannot read and merges the whole index for */
	cr_assert_eq(ev_store_exec(st, "INSERT INTO chunks_fts(chunks_fts, rank)"
	    " VALUES('hashsize', 32)", &err), 0, "%s", err.msg);
	so.batch = 1000;
	ev_ingestpass_free(spool_file("b.jsonl", docs));
	before = fts_structure();
	cr_assert_eq(strncmp(before + 8, "014700", 6), 0, "one level of 71 segments, none merging: %s",
	    before);
	postings_file_made_from(before);
}

Test(ingestpass, a_bulk_load_whose_postings_file_follows_leaves_its_segments_to_it)
{
	char docs[70 * 40];

	seventy_for_a_store_with_its_postings_file(docs, sizeof docs);
	/* a bulk load of 70 documents, its file (stale now) to be made
	 * after it: the 71 segments are left as they are (FTS5's crisis
	 * merge of a level's segments comes at EV_STORE_CRISIS) */
	postings_file_made_from(bulk_load(docs, "47"));
}

/* An operand that cannot be looked at for want of memory is out of memory
 * (code 1: the run failed), not a bad operand (code 2). */
Test(ingestpass, an_operand_out_of_memory_is_a_runtime_failure)
{
	const char *in = file("a.md", "# A\n\nalpha\n");
	struct ev_ingestpass *sp = ev_ingestpass_new(&so, &err);

	cr_assert_not_null(sp, "%s", err.msg);
	stat_nomem = 1;
	cr_assert_eq(ev_ingestpass_read(sp, in, &err), -1);
	stat_nomem = 0;
	cr_assert_eq(err.code, 1, "%s", err.msg);
	cr_assert_str_eq(err.msg, "out of memory");
	ev_ingestpass_free(sp);
}

/* The documents of a.jsonl, x and y, stored; then pass 1 of the same file
 * again, checked against the store (ev_ingestpass_against()): the spool
 * to write. */
static struct ev_ingestpass *
stored_then_read_again(const char *text)
{
	struct ev_ingestpass *sp;

	ev_ingestpass_free(spool_file("a.jsonl", text));
	cr_assert_eq(ev_ingest_stats(ig)->written, 2);
	sp = ev_ingestpass_against(ev_ingestpass_new(&so, &err), st, &o);
	cr_assert_not_null(sp, "%s", err.msg);
	cr_assert_eq(ev_ingestpass_read(sp, file("a.jsonl", text), &err), 0, "%s", err.msg);
	ev_ingestpass_read_done(sp);
	return sp;
}

static const char two_docs[] = "{\"id\":\"x\",\"text\":\"alpha beta\"}\n"
	"{\"id\":\"y\",\"text\":\"gamma delta\"}\n";

/* Records the store holds as they are are counted unchanged, nothing
 * written or printed, whether checked in pass 1 or not. */
Test(ingestpass, records_the_store_holds_are_unchanged)
{
	struct ev_ingestpass *sp = stored_then_read_again(two_docs);
	size_t printed = (fflush(out), outn);

	cr_assert_eq(ev_ingestpass_write(sp, st, ig, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_ingest_stats(ig)->written, 2);
	cr_assert_eq(ev_ingest_stats(ig)->unchanged, 2);
	cr_assert_eq(ev_ingestpass_stats(sp)->docs, 2);
	fflush(out);
	cr_assert_eq(outn, printed);
	cr_assert_eq(stored("SELECT count(*) FROM chunks"), 2);
	ev_ingestpass_free(sp);
}

/* A record pass 1 found stored as it is, whose stored copy another writer
 * changed before pass 2, is read again from its file and stored. */
Test(ingestpass, a_kept_record_the_store_lost_meanwhile_is_read_again)
{
	struct ev_ingestpass *sp = stored_then_read_again(two_docs);

	tu_exec_ok(st, "CREATE TABLE kept AS SELECT content_hash FROM documents WHERE doc_id = 'x';"
	    "UPDATE documents SET content_hash = 'stale' WHERE doc_id = 'x'");
	cr_assert_eq(ev_ingestpass_write(sp, st, ig, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_ingest_stats(ig)->written, 3);
	cr_assert_eq(ev_ingest_stats(ig)->unchanged, 1);
	cr_assert_eq(stored("SELECT count(*) FROM documents JOIN kept USING (content_hash) "
	    "WHERE doc_id = 'x'"), 1);
	ev_ingestpass_free(sp);
}

/* ... unless its file changed too: then what pass 1 read is gone, and the
 * run fails at that record, naming it. */
Test(ingestpass, a_kept_record_whose_file_changed_too_fails_the_run)
{
	struct ev_ingestpass *sp = stored_then_read_again(two_docs);

	tu_exec_ok(st, "UPDATE documents SET content_hash = 'stale' WHERE doc_id = 'y'");
	file("a.jsonl", "{\"id\":\"x\",\"text\":\"alpha beta\"}\n"
	    "{\"id\":\"y\",\"text\":\"gamma DELTA\"}\n");
	cr_assert_eq(ev_ingestpass_write(sp, st, ig, &err), -1);
	cr_assert_eq(err.code, 1, "%s", err.msg);
	cr_assert(strstr(err.where, "a.jsonl:2") != NULL, "%s", err.where);
	cr_assert_str_eq(err.msg, "the input changed while ev-ingest read it (the store's copy of"
	    " its document changed too); run ev-ingest again");
	ev_ingestpass_free(sp);
}
