/* Tests of lib/store/corpus.c against real SQLite stores. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"
#include "sha256.h"
#include "store.h"
#include "test_util.h"

static char dir[] = "/tmp/evkit-corpus-XXXXXX";
static char path[256];
static struct ev_store *st;
static struct ev_corpus *co;
static struct ev_err err;

static void
setup(void)
{
	tu_mkdir(dir, path, sizeof path);
	st = tu_store_create(path, &err);
	co = ev_corpus_open(st, &err);
	cr_assert_not_null(co, "%s", err.msg);
}

static void
teardown(void)
{
	ev_corpus_free(co);
	ev_store_close(st);
	tu_rmdir(dir);
}

TestSuite(corpus, .init = setup, .fini = teardown);

/* Up to 8 chunks, with their hashes. */
struct doc {
	struct ev_corpus_doc d;
	struct ev_corpus_chunk c[8];
	char hash[8][EV_SHA256_TEXT];
	unsigned char changed[8];
	size_t n;
};

static void
make(struct doc *x, const char *id, const char *title, const char *source, const char *dhash)
{
	memset(x, 0, sizeof *x);
	x->d.id = id;
	x->d.title = title;
	x->d.source = source;
	x->d.content_hash = dhash;
	x->d.metadata = "{\"team\":\"ops\"}";
}

static void
chunk(struct doc *x, const char *id, const char *stitle, const char *text, size_t start)
{
	struct ev_corpus_chunk *c = &x->c[x->n];

	c->id = id;
	c->section_id = "s";
	c->section_title = stitle;
	c->section_path = stitle;
	c->chunk_index = (int)x->n;
	c->text = text;
	c->len = strlen(text);
	c->offset_start = start;
	c->offset_end = start + c->len;
	ev_sha256_text(text, c->len, x->hash[x->n]);
	c->content_hash = x->hash[x->n];
	x->n++;
}

/* Puts x into the store s through its corpus c in one transaction, synced. */
static void
put_in(struct ev_store *s, struct ev_corpus *c, struct doc *x, struct ev_err *e)
{
	cr_assert_eq(ev_store_begin(s, e), 0, "%s", e->msg);
	cr_assert_eq(ev_corpus_put(c, &x->d, x->c, x->n, x->changed, e), 0, "%s", e->msg);
	cr_assert_eq(ev_corpus_sync(c, e), 0, "%s", e->msg);
	cr_assert_eq(ev_store_commit(s, e), 0, "%s", e->msg);
}

static void
put(struct doc *x)
{
	put_in(st, co, x, &err);
}

/* Makes x the document "d1", titled title, of source "src" with the content
 * hash dhash, and its first chunks: "install the turbine" and, when nchunks
 * is 2, "calibrate the rotor" (both in section "Setup"). */
static void
guide(struct doc *x, const char *title, const char *dhash, int nchunks)
{
	make(x, "d1", title, "src", dhash);
	chunk(x, "d1:s:0", "Setup", "install the turbine", 0);
	if (nchunks == 2)
		chunk(x, "d1:s:1", "Setup", "calibrate the rotor", 21);
}

/* Puts the document id, titled title, of source source, with one chunk
 * "ID:s:0" of text in section "S". */
static void
put_one(const char *id, const char *title, const char *source, const char *text)
{
	struct doc x;
	char cid[64];

	snprintf(cid, sizeof cid, "%s:s:0", id);
	make(&x, id, title, source, "sha256:1");
	chunk(&x, cid, "S", text, 0);
	put(&x);
}

static long long
num(const char *sql)
{
	sqlite3_stmt *s = ev_store_prepare(st, sql, &err);
	long long v;

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW, "%s", sql);
	v = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return v;
}

static long long
rowid_of(const char *id)
{
	char sql[200];

	snprintf(sql, sizeof sql, "SELECT coalesce((SELECT rowid FROM chunks WHERE id = '%s'), -1)", id);
	return num(sql);
}

static long long
matches(const char *q)
{
	char sql[200];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '%s'", q);
	return num(sql);
}

static void
fts_consistent(void)
{
	cr_assert_eq(ev_store_exec(st, "INSERT INTO chunks_fts(chunks_fts, rank)"
	    " VALUES('integrity-check', 1)", &err), 0, "%s", err.msg);
}

/* The full-text index is consistent with the chunks, matches no chunk for
 * the query gone and one chunk for found (NULL: either not asked). */
static void
expect_index(const char *gone, const char *found)
{
	if (gone != NULL)
		cr_assert_eq(matches(gone), 0, "%s", gone);
	if (found != NULL)
		cr_assert_eq(matches(found), 1, "%s", found);
	fts_consistent();
}

/* The begin and the commit of a transaction of the store, which must succeed. */
static void
begin(void)
{
	cr_assert_eq(ev_store_begin(st, &err), 0, "%s", err.msg);
}

static void
commit(void)
{
	cr_assert_eq(ev_store_commit(st, &err), 0, "%s", err.msg);
}

/* op (ev_corpus_prune() or ev_corpus_delete_source()) of source, in a
 * transaction; returns the documents it deleted. */
static long long
of_source(int (*op)(struct ev_corpus *, const char *, long long *, struct ev_err *),
	const char *source)
{
	long long n = 0;

	begin();
	cr_assert_eq(op(co, source, &n, &err), 0, "%s", err.msg);
	commit();
	return n;
}

/* Puts the guide of nchunks chunks (content hash "sha256:1"), then x, which
 * the caller made as its next revision; r[0] and r[1] are the rowids of the
 * guide's chunks 0 and 1 (-1: none) after the first put. */
static void
put_revision(struct doc *x, int nchunks, long long r[2])
{
	struct doc first;

	guide(&first, "Guide", "sha256:1", nchunks);
	put(&first);
	r[0] = rowid_of("d1:s:0");
	r[1] = rowid_of("d1:s:1");
	put(x);
}

Test(corpus, put_stores_the_document_its_chunks_and_their_index)
{
	struct doc x;

	guide(&x, "Guide", "sha256:1", 2);
	put(&x);
	cr_assert_eq(x.changed[0], 1);
	cr_assert_eq(x.changed[1], 1);
	cr_assert_eq(num("SELECT count(*) FROM documents WHERE doc_id = 'd1' AND source = 'src'"
	    " AND json_extract(metadata, '$.team') = 'ops' AND content_hash = 'sha256:1'"), 1);
	cr_assert_eq(num("SELECT count(*) FROM chunks WHERE doc_id = 'd1'"), 2);
	cr_assert_eq(matches("title:guide"), 2);
	cr_assert_eq(matches("section_title:setup"), 2);
	cr_assert_eq(num("SELECT offset_end FROM chunks WHERE id = 'd1:s:1'"), 40);
	expect_index(NULL, "turbine");
}

/* Columns the caller tagged (fts_ready), bound with their NUL after them or
 * by their length, are indexed as chunks_src reads them: the index checks
 * out against the chunks, and holds the French stem and the word itself. */
Test(corpus, columns_the_caller_tagged_are_indexed_as_chunks_src_reads_them)
{
	static const char *const cols[3] = { "\x1f" "fr" "\x1f" "Guide",
	    "\x1f" "fr" "\x1f" "Réglage", "\x1f" "fr" "\x1f" "les abeilles volent" };
	struct doc x;

	make(&x, "d1", "Guide", "src", "sha256:1");
	chunk(&x, "d1:s:0", "Réglage", "les abeilles volent", 0);
	x.c[0].lang = "fr";
	x.c[0].fts_ready = 1;
	for (int i = 0; i < 3; i++) {
		x.c[0].fts[i] = cols[i];
		x.c[0].fts_len[i] = strlen(cols[i]);
		x.c[0].fts_z[i] = i != 1;
	}
	put(&x);
	cr_assert_eq(num("SELECT count(*) FROM chunks_vocab WHERE term = char(31) || 'fr' || char(31)"
	    " || 'abeil'"), 1);
	cr_assert_eq(num("SELECT count(*) FROM chunks_vocab WHERE term = char(31, 31) || 'abeilles'"), 1);
	fts_consistent();
}

Test(corpus, an_unchanged_chunk_keeps_its_rowid_and_is_not_marked)
{
	struct doc x;
	long long r[2];

	make(&x, "d1", "Guide", "src", "sha256:2");
	chunk(&x, "d1:s:0", "Setup", "install the turbine", 0);
	chunk(&x, "d1:s:1", "Setup", "calibrate the stator", 21);
	put_revision(&x, 2, r);
	cr_assert_eq(x.changed[0], 0);
	cr_assert_eq(x.changed[1], 1);
	cr_assert_eq(rowid_of("d1:s:0"), r[0]);
	cr_assert_gt(rowid_of("d1:s:1"), r[1]);
	cr_assert_eq(num("SELECT count(*) FROM chunk_tombstones"), 1);
	cr_assert_eq(num("SELECT rowid FROM chunk_tombstones"), r[1]);
	expect_index("rotor", "stator");
}

Test(corpus, removed_chunks_are_deleted_and_tombstoned)
{
	struct doc x;
	long long r[2];

	guide(&x, "Guide", "sha256:2", 1);
	put_revision(&x, 2, r);
	cr_assert_eq(rowid_of("d1:s:1"), -1);
	cr_assert_eq(num("SELECT rowid FROM chunk_tombstones"), r[1]);
	expect_index("rotor", NULL);
}

Test(corpus, a_new_title_keeps_the_rowid_and_reindexes_the_chunk)
{
	struct doc x;
	long long r[2];

	guide(&x, "Handbook", "sha256:2", 1);
	put_revision(&x, 1, r);
	cr_assert_eq(x.changed[0], 1);
	cr_assert_eq(rowid_of("d1:s:0"), r[0]);
	cr_assert_eq(num("SELECT count(*) FROM chunk_tombstones"), 0);
	expect_index("title:guide", "title:handbook");
}

Test(corpus, moved_text_keeps_the_rowid_and_updates_the_offsets)
{
	struct doc x;
	long long r[2];

	make(&x, "d1", "Guide", "src", "sha256:2");
	chunk(&x, "d1:s:0", "Setup", "install the turbine", 100);
	put_revision(&x, 1, r);
	cr_assert_eq(x.changed[0], 0);
	cr_assert_eq(rowid_of("d1:s:0"), r[0]);
	cr_assert_eq(num("SELECT offset_start FROM chunks WHERE id = 'd1:s:0'"), 100);
}

Test(corpus, rowids_are_never_given_out_twice)
{
	struct doc x;
	long long r;

	guide(&x, "Guide", "sha256:1", 1);
	put(&x);
	r = rowid_of("d1:s:0");
	begin();
	cr_assert_eq(ev_corpus_delete(co, "d1", &err), 1, "%s", err.msg);
	commit();
	/* the tombstone is consumed by the vector index later */
	cr_assert_eq(ev_store_exec(st, "DELETE FROM chunk_tombstones", &err), 0);
	make(&x, "d2", "Guide", "src", "sha256:1");
	chunk(&x, "d2:s:0", "Setup", "install the turbine", 0);
	put(&x);
	cr_assert_gt(rowid_of("d2:s:0"), r);
}

Test(corpus, the_rowid_high_water_mark_is_written_once_by_sync)
{
	struct doc x, y;

	guide(&x, "Guide", "sha256:1", 2);
	make(&y, "d2", "Guide", "src", "sha256:1");
	chunk(&y, "d2:s:0", "Setup", "inspect the blades", 0);
	begin();
	cr_assert_eq(ev_corpus_put(co, &x.d, x.c, x.n, x.changed, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_corpus_put(co, &y.d, y.c, y.n, y.changed, &err), 0, "%s", err.msg);
	cr_assert_eq(num("SELECT count(*) FROM meta WHERE key = '" EV_CORPUS_ROWID_KEY "'"), 0);
	cr_assert_eq(num("SELECT max(rowid) FROM chunks"), 3);
	cr_assert_eq(ev_corpus_sync(co, &err), 0, "%s", err.msg);
	commit();
	cr_assert_eq(num("SELECT CAST(value AS INTEGER) FROM meta WHERE key = '"
	    EV_CORPUS_ROWID_KEY "'"), 3);
}

Test(corpus, a_commit_without_sync_is_refused)
{
	struct doc x;

	guide(&x, "Guide", "sha256:1", 1);
	begin();
	cr_assert_eq(ev_corpus_put(co, &x.d, x.c, x.n, x.changed, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_store_commit(st, &err), -1);
	cr_assert_eq(err.code, 1);
	ev_store_rollback(st);
	cr_assert_eq(num("SELECT count(*) FROM documents"), 0);
	cr_assert_eq(num("SELECT count(*) FROM chunks"), 0);
	/* and the writer goes on: the next transaction reads the rowid afresh */
	ev_err_clear(&err);
	put(&x);
	cr_assert_eq(rowid_of("d1:s:0"), 1);
}

Test(corpus, a_put_outside_a_transaction_records_its_rowids_at_once)
{
	struct doc x;

	guide(&x, "Guide", "sha256:1", 1);
	cr_assert_eq(ev_corpus_put(co, &x.d, x.c, x.n, x.changed, &err), 0, "%s", err.msg);
	cr_assert_eq(num("SELECT CAST(value AS INTEGER) FROM meta WHERE key = '"
	    EV_CORPUS_ROWID_KEY "'"), 1);
}

Test(corpus, rowids_given_out_by_another_writer_are_not_reused)
{
	struct doc x;
	struct ev_store *other;
	struct ev_corpus *oc;
	struct ev_err e2 = { 0 };

	guide(&x, "Guide", "sha256:1", 1);
	put(&x);
	/* a second writer adds chunks 2 and 3 between our transactions */
	other = ev_store_open(ev_store_path(st), EV_STORE_WRITE, &e2);
	cr_assert_not_null(other, "%s", e2.msg);
	oc = ev_corpus_open(other, &e2);
	cr_assert_not_null(oc, "%s", e2.msg);
	make(&x, "o1", "Other", "src", "sha256:1");
	chunk(&x, "o1:s:0", "S", "alpha", 0);
	chunk(&x, "o1:s:1", "S", "beta", 10);
	put_in(other, oc, &x, &e2);
	ev_corpus_free(oc);
	ev_store_close(other);
	make(&x, "d2", "Guide", "src", "sha256:1");
	chunk(&x, "d2:s:0", "Setup", "inspect the blades", 0);
	put(&x);
	cr_assert_eq(rowid_of("d2:s:0"), 4);
}

Test(corpus, unchanged_compares_the_content_hash_and_follows_the_source)
{
	struct doc x;

	cr_assert_eq(ev_corpus_unchanged(co, "d1", "sha256:1", "src", &err), 0);
	guide(&x, "Guide", "sha256:1", 1);
	put(&x);
	cr_assert_eq(ev_corpus_unchanged(co, "d1", "sha256:1", "src", &err), 1);
	cr_assert_eq(ev_corpus_unchanged(co, "d1", "sha256:2", "src", &err), 0);
	cr_assert_eq(ev_corpus_unchanged(co, "d1", "sha256:1", "other", &err), 1);
	cr_assert_eq(num("SELECT count(*) FROM documents WHERE source = 'other'"), 1);
}

Test(corpus, delete_removes_the_document_and_its_chunks)
{
	struct doc x;

	guide(&x, "Guide", "sha256:1", 2);
	put(&x);
	begin();
	cr_assert_eq(ev_corpus_delete(co, "d1", &err), 1);
	cr_assert_eq(ev_corpus_delete(co, "d1", &err), 0);
	commit();
	cr_assert_eq(num("SELECT count(*) FROM documents"), 0);
	cr_assert_eq(num("SELECT count(*) FROM chunks"), 0);
	cr_assert_eq(num("SELECT count(*) FROM chunk_tombstones"), 2);
	expect_index("turbine OR rotor", NULL);
}

Test(corpus, prune_deletes_unseen_documents_of_that_source_only)
{
	put_one("a", "A", "one", "alpha");
	put_one("b", "B", "one", "beta");
	put_one("c", "C", "two", "gamma");
	cr_assert_eq(ev_corpus_seen(co, "a", &err), 0);
	cr_assert_eq(of_source(ev_corpus_prune, "one"), 1);
	cr_assert_eq(num("SELECT count(*) FROM documents WHERE doc_id = 'b'"), 0);
	cr_assert_eq(num("SELECT count(*) FROM documents"), 2);
	expect_index("beta", "gamma");
}

Test(corpus, delete_source_deletes_every_document_of_that_source_only)
{
	put_one("a", "A", "one", "alpha");
	put_one("b", "B", "two", "beta");
	cr_assert_eq(ev_corpus_seen(co, "a", &err), 0);	/* seen or not: deleted */
	cr_assert_eq(of_source(ev_corpus_delete_source, "one"), 1);
	cr_assert_eq(num("SELECT count(*) FROM documents WHERE source = 'one'"), 0);
	cr_assert_eq(num("SELECT count(*) FROM chunk_tombstones"), 1);
	expect_index("alpha", "beta");
}

Test(corpus, rename_moves_the_document_and_its_chunk_ids_keeping_rowids)
{
	struct doc x;
	long long r0;

	make(&x, "./docs/a.md", "A", "one", "sha256:1");
	x.d.source_uri = "./docs/a.md";
	chunk(&x, "./docs/a.md:s:0", "S", "alpha", 0);
	put(&x);
	r0 = rowid_of("./docs/a.md:s:0");
	begin();
	cr_assert_eq(ev_corpus_rename(co, "./docs/a.md", "docs/a.md", &err), 0, "%s", err.msg);
	commit();
	cr_assert_eq(rowid_of("docs/a.md:s:0"), r0);
	cr_assert_eq(rowid_of("./docs/a.md:s:0"), -1);
	cr_assert_eq(num("SELECT count(*) FROM documents WHERE doc_id = 'docs/a.md'"
	    " AND source_uri = 'docs/a.md'"), 1);
	cr_assert_eq(num("SELECT count(*) FROM chunks WHERE doc_id = 'docs/a.md'"), 1);
	expect_index(NULL, "alpha");
}

Test(corpus, a_failed_put_rolled_back_leaves_nothing)
{
	struct doc x;

	guide(&x, "Guide", "sha256:1", 1);
	chunk(&x, "d1:s:0", "Setup", "the same id twice", 30);
	begin();
	cr_assert_eq(ev_corpus_put(co, &x.d, x.c, x.n, x.changed, &err), -1);
	cr_assert_eq(err.code, 1);
	cr_assert(strstr(err.msg, "storing a chunk") == err.msg, "%s", err.msg);
	ev_store_rollback(st);
	cr_assert_eq(num("SELECT count(*) FROM documents"), 0);
	cr_assert_eq(num("SELECT count(*) FROM chunks"), 0);
	fts_consistent();
}
