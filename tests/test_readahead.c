/* Tests of lib/store/readahead.c and ev_store_readahead_chunks(): the pages
 * a readahead finds for a row or a key are the ones SQLite itself reads for
 * it, and what it reads from them (a column, an index entry's rowid) is what
 * SQL answers; on a damaged file it finds nothing wrong and does no harm.
 *
 * SQLite's own reads are seen through a VFS that wraps the default one and
 * notes the page of each read of the main database file. */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "readahead.h"
#include "store.h"
#include "test_util.h"

#define NROWS 6000
#define MAX_NOTED 256

static char dir[64], path[128];

/* The tracing VFS: the default one, with the main database file's reads
 * noted (their page numbers) while `noting`. */
static sqlite3_vfs *real_vfs, trace_vfs;
static sqlite3_io_methods trace_io;
static unsigned noted[MAX_NOTED];
static int nnoted, noting;

struct trace_file {
	sqlite3_file base;
	int main_db;
	sqlite3_file real[];	/* the default VFS's file, szOsFile bytes */
};

#define REAL(f) (((struct trace_file *)(f))->real)

static int
t_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int
t_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	if (noting && ((struct trace_file *)f)->main_db && nnoted < MAX_NOTED && n >= 512)
		noted[nnoted++] = (unsigned)(off / n) + 1;
	return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int t_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xWrite(REAL(f), b, n, o); }
static int t_truncate(sqlite3_file *f, sqlite3_int64 n) { return REAL(f)->pMethods->xTruncate(REAL(f), n); }
static int t_sync(sqlite3_file *f, int fl) { return REAL(f)->pMethods->xSync(REAL(f), fl); }
static int t_size(sqlite3_file *f, sqlite3_int64 *n) { return REAL(f)->pMethods->xFileSize(REAL(f), n); }
static int t_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int t_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int t_reserved(sqlite3_file *f, int *r) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), r); }
static int t_control(sqlite3_file *f, int op, void *a) { return REAL(f)->pMethods->xFileControl(REAL(f), op, a); }
static int t_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int t_device(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int t_shm_map(sqlite3_file *f, int i, int sz, int e, void volatile **p) { return REAL(f)->pMethods->xShmMap(REAL(f), i, sz, e, p); }
static int t_shm_lock(sqlite3_file *f, int o, int n, int fl) { return REAL(f)->pMethods->xShmLock(REAL(f), o, n, fl); }
static void t_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int t_shm_unmap(sqlite3_file *f, int d) { return REAL(f)->pMethods->xShmUnmap(REAL(f), d); }

static int
t_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
	struct trace_file *t = (struct trace_file *)f;
	int rc;

	(void)vfs;
	t->base.pMethods = NULL;
	t->main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
	if ((rc = real_vfs->xOpen(real_vfs, name, t->real, flags, out)) == SQLITE_OK)
		t->base.pMethods = &trace_io;
	return rc;
}

static void
register_trace_vfs(void)
{
	if (real_vfs != NULL)
		return;
	real_vfs = sqlite3_vfs_find(NULL);
	trace_vfs = *real_vfs;
	trace_vfs.szOsFile = (int)sizeof(struct trace_file) + real_vfs->szOsFile;
	trace_vfs.zName = "trace";
	trace_vfs.xOpen = t_open;
	trace_vfs.pNext = NULL;
	trace_io = (sqlite3_io_methods){ 2, t_close, t_read, t_write, t_truncate, t_sync, t_size,
		t_lock, t_unlock, t_reserved, t_control, t_sector, t_device, t_shm_map, t_shm_lock,
		t_shm_barrier, t_shm_unmap, NULL, NULL };
	cr_assert_eq(sqlite3_vfs_register(&trace_vfs, 0), SQLITE_OK);
}

/* The pages SQLite reads for sql (with ?1 bound to rowid, or to the text
 * key when not NULL) on a new connection, after its schema is read: into
 * noted[0..nnoted).  Returns the first column of the row as an int64. */
static long long
pages_read(const char *sql, long long rowid, const char *key)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	long long v = 0;

	register_trace_vfs();
	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, "trace"), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
	if (key != NULL)
		sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(s, 1, rowid);
	nnoted = 0;
	noting = 1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	noting = 0;
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static void
exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, &msg), SQLITE_OK, "%s: %s", sql, msg);
}

/* Row i's key: short, except every 97th, longer than an index page keeps
 * on itself (the rest on overflow pages). */
static void
key_of(long long i, char *buf, size_t size)
{
	int n = snprintf(buf, size, "doc-%06lld-", (i * 7919) % 100003);

	if (i % 97 == 0)
		for (; n < 1500 && (size_t)n + 1 < size; n++)
			buf[n] = (char)('a' + (i + n) % 26);
	buf[n] = '\0';
}

/* A database of NROWS rows in t (rowid, key, body; bodies of 40 to 6000
 * bytes, some on overflow pages) and their keys in d (a text PRIMARY KEY),
 * with pages of 1024 bytes (deeper trees) and 8 bytes reserved on each. */
static void
setup(void)
{
	sqlite3 *db;
	sqlite3_stmt *s, *k;
	char key[1600];
	static char body[6001];

	snprintf(dir, sizeof dir, "/tmp/evkit-ra.XXXXXX");
	tu_mkdir(dir, NULL, 0);
	snprintf(path, sizeof path, "%s/t.db", dir);
	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	exec(db, "PRAGMA page_size = 1024");
	{
		int reserve = 8;

		cr_assert_eq(sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve),
		    SQLITE_OK);
	}
	exec(db, "CREATE TABLE t(rowid INTEGER PRIMARY KEY, key TEXT, body TEXT);"
	    "CREATE TABLE d(key TEXT PRIMARY KEY, n INTEGER); BEGIN");
	cr_assert_eq(sqlite3_prepare_v2(db, "INSERT INTO t VALUES(?1, ?2, ?3)", -1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, "INSERT INTO d VALUES(?1, ?2)", -1, &k, NULL), SQLITE_OK);
	for (long long i = 1; i <= NROWS; i++) {
		size_t len = 40 + (size_t)((i * 2654435761u) % 6000) % (i % 5 == 0 ? 5960 : 400);

		key_of(i, key, sizeof key);
		memset(body, 'x', len);
		body[len] = '\0';
		/* Gaps in the rowids: 3i. */
		sqlite3_bind_int64(s, 1, 3 * i);
		sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, body, -1, SQLITE_STATIC);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
		sqlite3_bind_text(k, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(k, 2, i);
		cr_assert_eq(sqlite3_step(k), SQLITE_DONE);
		sqlite3_reset(k);
	}
	sqlite3_finalize(s);
	sqlite3_finalize(k);
	exec(db, "COMMIT");
	sqlite3_close(db);
}

static void
teardown(void)
{
	tu_rmdir(dir);
}

/* The root page of the tree named name. */
static unsigned
root_of(const char *name)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	unsigned root = 0;

	cr_assert_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_schema WHERE name = ?1", -1,
	    &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		root = (unsigned)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	cr_assert_neq(root, 0, "no tree %s", name);
	return root;
}

TestSuite(readahead, .init = setup, .fini = teardown);

Test(readahead, a_rows_leaf_is_the_page_sqlite_reads_it_from_and_its_column_is_sqls)
{
	static long long rowid[NROWS + 2];
	static struct ev_readahead_text text[NROWS + 2];
	static unsigned leaf[NROWS + 2];
	struct ev_readahead *ra = ev_readahead_open(path);
	size_t n = 0;
	char key[1600];

	cr_assert_not_null(ra);
	/* Every row, in an order that is not the tree's, and two rowids that
	 * are not there (a gap, and past the last). */
	for (long long i = NROWS; i >= 1; i--)
		rowid[n++] = 3 * ((i * 4099) % NROWS + 1);
	rowid[n++] = 3 * 17 + 1;
	rowid[n++] = 3 * NROWS + 3;
	cr_assert_eq(ev_readahead_rows(ra, root_of("t"), rowid, n, 1, text, leaf), 0);
	for (size_t i = 0; i < n; i++) {
		if (rowid[i] % 3 != 0 || rowid[i] > 3 * NROWS) {
			cr_assert_eq(leaf[i], 0, "rowid %lld is not in t", rowid[i]);
			cr_assert_null(text[i].s);
			continue;
		}
		key_of(rowid[i] / 3, key, sizeof key);
		if (strlen(key) > 1000) {
			/* Not all on the leaf: the rest is on overflow pages. */
			cr_assert_null(text[i].s, "rowid %lld's long key", rowid[i]);
			continue;
		}
		cr_assert_not_null(text[i].s, "rowid %lld's key", rowid[i]);
		cr_assert_eq(text[i].len, strlen(key));
		cr_assert_eq(memcmp(text[i].s, key, text[i].len), 0, "rowid %lld's key", rowid[i]);
		if (i % 50 == 0) {
			pages_read("SELECT rowid, key FROM t WHERE rowid = ?1", rowid[i], NULL);
			cr_assert_gt(nnoted, 1);
			cr_assert_eq(leaf[i], noted[nnoted - 1], "rowid %lld: leaf %u, SQLite's %u",
			    rowid[i], leaf[i], noted[nnoted - 1]);
		}
	}
	ev_readahead_close(ra);
}

Test(readahead, rows_asked_for_without_a_column_end_on_the_leaves_sqlite_reads)
{
	long long rowid[40];
	unsigned leaf[40];
	struct ev_readahead *ra = ev_readahead_open(path);

	cr_assert_not_null(ra);
	for (int i = 0; i < 40; i++)
		rowid[i] = 3 * (1 + (i * 151) % NROWS);
	cr_assert_eq(ev_readahead_rows(ra, root_of("t"), rowid, 40, -1, NULL, leaf), 0);
	for (int i = 0; i < 40; i++) {
		pages_read("SELECT rowid FROM t WHERE rowid = ?1", rowid[i], NULL);
		cr_assert_eq(leaf[i], noted[nnoted - 1], "rowid %lld", rowid[i]);
	}
	ev_readahead_close(ra);
}

Test(readahead, a_keys_entry_gives_the_rowid_sql_finds_on_the_page_sqlite_reads_it_from)
{
	static char keys[NROWS + 1][1600];
	static struct ev_readahead_text key[NROWS + 1];
	static long long rowid[NROWS + 1];
	static unsigned page[NROWS + 1];
	struct ev_readahead *ra = ev_readahead_open(path);
	size_t n = 0, long_keys = 0;

	cr_assert_not_null(ra);
	for (long long i = 1; i <= NROWS; i++) {
		key_of(i, keys[n], sizeof keys[n]);
		key[n].s = (const unsigned char *)keys[n];
		key[n].len = strlen(keys[n]);
		n++;
	}
	strcpy(keys[n], "doc-not-there");
	key[n].s = (const unsigned char *)keys[n];
	key[n].len = strlen(keys[n]);
	n++;
	cr_assert_eq(ev_readahead_index(ra, root_of("sqlite_autoindex_d_1"), key, n, rowid, page), 0);
	for (size_t i = 0; i < n; i++) {
		long long want;

		if (i % 40 != 0 && i % 97 != 96 && i != n - 1)
			continue;
		want = pages_read("SELECT rowid FROM d WHERE key = ?1", 0, keys[i]);
		if (key[i].len > 1000) {
			/* Its entry's key is not all on the page: it cannot be
			 * told from a longer one there, so it is not found. */
			cr_assert_eq(rowid[i], 0, "long key %zu", i);
			long_keys++;
			continue;
		}
		cr_assert_eq(rowid[i], want, "key %s: rowid %lld, SQL's %lld", keys[i], rowid[i], want);
		if (want == 0) {
			cr_assert_eq(page[i], 0);
			continue;
		}
		/* The last page of the tree SQLite reads: after it, at most the
		 * overflow pages of long keys it compared this one with. */
		{
			int r = nnoted - 1;

			while (r > 0 && noted[r] != page[i])
				r--;
			cr_assert_eq(page[i], noted[r], "key %s: page %u, not one SQLite read", keys[i],
			    page[i]);
			cr_assert(nnoted - 1 - r <= 4, "key %s: page %u, read %d pages before the last",
			    keys[i], page[i], nnoted - 1 - r);
		}
	}
	cr_assert_eq(rowid[n - 1], 0, "a key not there");
	cr_assert_gt(long_keys, 0);
	ev_readahead_close(ra);
}

/* The file at path with its bytes from `from` on replaced: by xorshift bytes,
 * or cut off when cut. */
static void
damage(long from, int cut)
{
	FILE *f = fopen(path, "r+b");
	unsigned long long state = 42;
	long size;

	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	if (cut) {
		cr_assert_eq(truncate(path, from), 0);
	} else {
		fseek(f, from, SEEK_SET);
		for (long i = from; i < size; i++)
			fputc((int)(tu_xorshift(&state) & 0xff), f);
	}
	fclose(f);
}

/* Every key of rows 1..NROWS, through the readahead of the file as it is
 * now: each must be the true one (row i, key_of(i)) or not found. */
static void
only_true_answers(unsigned root_t, unsigned root_d, size_t *found)
{
	static long long rowid[NROWS], got[NROWS];
	static char keys[NROWS][1600];
	static struct ev_readahead_text text[NROWS], key[NROWS];
	static unsigned leaf[NROWS];
	struct ev_readahead *ra = ev_readahead_open(path);

	cr_assert_not_null(ra);
	*found = 0;
	for (long long i = 0; i < NROWS; i++) {
		rowid[i] = 3 * (i + 1);
		key_of(i + 1, keys[i], sizeof keys[i]);
		key[i].s = (const unsigned char *)keys[i];
		key[i].len = strlen(keys[i]);
	}
	cr_assert_eq(ev_readahead_rows(ra, root_t, rowid, NROWS, 1, text, leaf), 0);
	for (long long i = 0; i < NROWS; i++) {
		if (text[i].s == NULL)
			continue;
		cr_assert_eq(text[i].len, key[i].len, "row %lld", i + 1);
		cr_assert_eq(memcmp(text[i].s, key[i].s, key[i].len), 0, "row %lld", i + 1);
		(*found)++;
	}
	cr_assert_eq(ev_readahead_index(ra, root_d, key, NROWS, got, NULL), 0);
	for (long long i = 0; i < NROWS; i++) {
		cr_assert(got[i] == 0 || got[i] == i + 1, "key %lld: rowid %lld", i + 1, got[i]);
		*found += got[i] != 0;
	}
	ev_readahead_close(ra);
}

Test(readahead, a_cut_or_overwritten_file_gives_true_answers_or_none)
{
	unsigned root_t = root_of("t"), root_d = root_of("sqlite_autoindex_d_1");
	size_t all, some, none;
	long size;
	FILE *f = fopen(path, "rb");

	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	only_true_answers(root_t, root_d, &all);
	cr_assert_eq(all, 2 * (NROWS - NROWS / 97), "every key but the long ones, twice");
	damage(size / 2, 1);
	only_true_answers(root_t, root_d, &some);
	cr_assert(some > 0 && some < all, "half the file: %zu of %zu", some, all);
	damage(1024 * 3, 0);
	only_true_answers(root_t, root_d, &none);
	cr_assert_eq(none, 0, "pages of noise");
}

Test(readahead, a_file_that_is_not_a_database_has_none)
{
	char junk[200];

	memset(junk, 'j', sizeof junk);
	tu_write_file(path, junk, sizeof junk);
	cr_assert_null(ev_readahead_open(path));
	cr_assert_null(ev_readahead_open("/nonexistent/t.db"));
	tu_write_file(path, "SQLite format 3", 16);
	cr_assert_null(ev_readahead_open(path), "a header cut short");
}

/* An evkit store: for each chunk, the pages of its row, its document's
 * doc_id entry and its document's row are pages SQLite reads for the row of
 * a hit, the text lane's statement (its joins). */
Test(readahead, a_stores_hit_pages_are_among_those_sqlite_reads_for_the_hit)
{
	struct ev_err err = { 0 };
	struct ev_store *st;
	sqlite3 *db;
	long long rowid[300];
	unsigned pages[900];
	char sql[200];

	snprintf(path, sizeof path, "%s/kb.db", dir);
	st = tu_store_create(path, &err);
	db = ev_store_db(st);
	exec(db, "BEGIN");
	for (int i = 0; i < 3000; i++) {
		snprintf(sql, sizeof sql, "INSERT INTO documents(doc_id, content_hash, metadata)"
		    " VALUES('document-%d', 'h', '{\"n\":%d}')", (i * 613) % 3001, i);
		exec(db, sql);
		for (int c = 0; c < 2; c++) {
			snprintf(sql, sizeof sql, "INSERT INTO chunks(id, doc_id, section_id, chunk_index, text,"
			    " content_hash) VALUES('document-%d:%d', 'document-%d', 's', %d,"
			    " printf('%%.*c', 300 + %d, 'w'), 'h')", (i * 613) % 3001, c, (i * 613) % 3001, c,
			    (i * 37) % 500);
			exec(db, sql);
		}
	}
	exec(db, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE)");
	for (int i = 0; i < 300; i++)
		rowid[i] = 1 + (i * 2003) % 6000;
	ev_store_readahead_chunks(st, rowid, 300, pages);
	for (int i = 0; i < 300; i++) {
		pages_read("SELECT c.rowid, c.text, d.source_uri, d.metadata FROM chunks c LEFT JOIN"
		    " documents d ON d.doc_id = c.doc_id WHERE c.rowid = ?1", rowid[i], NULL);
		for (int j = 0; j < 3; j++) {
			int seen = 0;

			cr_assert_neq(pages[3 * i + j], 0, "chunk %lld, page %d", rowid[i], j);
			for (int r = 0; r < nnoted; r++)
				seen |= noted[r] == pages[3 * i + j];
			cr_assert(seen, "chunk %lld: page %u (%d) is not one SQLite read", rowid[i],
			    pages[3 * i + j], j);
		}
	}
	ev_store_close(st);
}
