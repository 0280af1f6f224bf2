/* Tests of lib/store/store.c against real SQLite files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store.h"
#include "test_util.h"

static char dir[] = "/tmp/evkit-store-XXXXXX";
static char path[256];

static void
setup(void)
{
	tu_mkdir(dir, path, sizeof path);
}

static void
teardown(void)
{
	tu_rmdir(dir);
}

TestSuite(store, .init = setup, .fini = teardown);

Test(store, refuses_a_missing_store_and_says_how_to_make_one)
{
	struct ev_err err = { 0 };

	cr_assert_null(ev_store_open(path, EV_STORE_READ, &err));
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, path);
	cr_assert(strstr(err.msg, "no such store; create it with 'ev-ingest --db") != NULL);
	cr_assert_eq(access(path, F_OK), -1);
}

Test(store, creates_the_schema_in_wal_mode)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	sqlite3_stmt *s;
	char *v = NULL;

	cr_assert_not_null(st, "%s", err.msg);
	cr_assert_eq(ev_store_meta_get(st, "schema_version", &v, &err), 1);
	cr_assert_str_eq(v, "2");
	free(v);
	s = ev_store_prepare(st, "PRAGMA journal_mode", &err);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	cr_assert_str_eq((const char *)sqlite3_column_text(s, 0), "wal");
	sqlite3_reset(s);
	cr_assert_eq(ev_store_exec(st, "SELECT count(*) FROM chunks_fts", &err), 0);
	ev_store_close(st);
}

static int
page_size_of(const char *db)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	int n;

	cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, "PRAGMA page_size", -1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(h);
	return n;
}

Test(store, makes_a_new_store_of_16_kb_pages_and_keeps_an_older_stores_own)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	sqlite3 *h;

	cr_assert_not_null(st, "%s", err.msg);
	ev_store_close(st);
	cr_assert_eq(page_size_of(path), 16384);
	/* a store of 4 KB pages (made before) is written as it is */
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "PRAGMA journal_mode=DELETE; PRAGMA page_size=4096; VACUUM;"
	    " PRAGMA journal_mode=WAL", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	cr_assert_eq(page_size_of(path), 4096);
	cr_assert_not_null(st = ev_store_open(path, EV_STORE_CREATE, &err), "%s", err.msg);
	cr_assert_eq(ev_store_exec(st, "INSERT INTO meta VALUES ('k', 'v')", &err), 0);
	ev_store_close(st);
	cr_assert_eq(page_size_of(path), 4096);
}

Test(store, keeps_meta_values_across_opens)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	char *v = NULL;

	cr_assert_eq(ev_store_meta_set(st, "model", "lsa-1", &err), 0);
	cr_assert_eq(ev_store_meta_set(st, "model", "lsa-2", &err), 0);
	ev_store_close(st);
	st = ev_store_open(path, EV_STORE_READ, &err);
	cr_assert_not_null(st, "%s", err.msg);
	cr_assert_eq(ev_store_meta_get(st, "model", &v, &err), 1);
	cr_assert_str_eq(v, "lsa-2");
	free(v);
	cr_assert_eq(ev_store_meta_get(st, "absent", &v, &err), 0);
	ev_store_close(st);
}

Test(store, rolls_back_an_unfinished_transaction_on_close)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	char *v = NULL;

	cr_assert_eq(ev_store_begin(st, &err), 0);
	cr_assert_eq(ev_store_meta_set(st, "k", "v", &err), 0);
	ev_store_close(st);
	st = ev_store_open(path, EV_STORE_WRITE, &err);
	cr_assert_eq(ev_store_meta_get(st, "k", &v, &err), 0);
	ev_store_close(st);
}

Test(store, refuses_a_file_that_is_not_a_store)
{
	static const char text[] = "this is not a database, just text long enough to be a header of one\n";
	struct ev_err err = { 0 };

	tu_write_file(path, text, strlen(text));
	cr_assert_null(ev_store_open(path, EV_STORE_WRITE, &err));
	cr_assert_eq(err.code, 2);
	cr_assert(strncmp(err.msg, "not an evkit store", 18) == 0, "%s", err.msg);
}

Test(store, refuses_a_sqlite_database_of_another_program)
{
	char before[4096], after[4096];
	struct ev_err err = { 0 };
	sqlite3 *db;

	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	tu_read_file_into(path, before, sizeof before);
	for (int mode = EV_STORE_READ; mode <= EV_STORE_UPGRADE; mode++) {
		cr_assert_null(ev_store_open(path, mode, &err));
		cr_assert_eq(err.code, 2);
		cr_assert(strstr(err.msg, "not an evkit store (an SQLite database without evkit's"
		    " tables), left as it was") != NULL, "%s", err.msg);
		tu_read_file_into(path, after, sizeof after);
		cr_assert(memcmp(before, after, sizeof before) == 0, "the file was written in mode %d", mode);
	}
}

Test(store, caches_prepared_statements_by_their_text)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	sqlite3_stmt *a = ev_store_prepare(st, "SELECT 1", &err);
	sqlite3_stmt *b = ev_store_prepare(st, "SELECT 1", &err);

	cr_assert_not_null(a);
	cr_assert_eq(a, b);
	cr_assert_null(ev_store_prepare(st, "SELEC nonsense", &err));
	cr_assert_eq(err.code, 1);
	cr_assert(strstr(err.msg, "preparing a query") != NULL);
	ev_store_close(st);
}

/* The SQL functions of a published_date: the same moment, in days (a real)
 * and in milliseconds (an integer), NULL for what is no date. */
Test(store, the_date_functions_give_one_moment_in_days_and_in_milliseconds)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT evkit_date_days('1970-01-02T12:00'),"
	    " evkit_date_ms('1970-01-02T12:00'), evkit_date_days('2025-13'),"
	    " evkit_date_ms('2025-13'), evkit_date_days(NULL), evkit_date_ms(NULL)", &err);

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	cr_assert_eq(sqlite3_column_type(s, 0), SQLITE_FLOAT);
	cr_assert_float_eq(sqlite3_column_double(s, 0), 1.5, 1e-12);
	cr_assert_eq(sqlite3_column_type(s, 1), SQLITE_INTEGER);
	cr_assert_eq(sqlite3_column_int64(s, 1), 129600000);
	for (int i = 2; i < 6; i++)
		cr_assert_eq(sqlite3_column_type(s, i), SQLITE_NULL, "column %d", i);
	sqlite3_reset(s);
	ev_store_close(st);
}

Test(store, an_empty_file_is_an_empty_store_a_writer_fills_and_a_reader_is_told_about)
{
	struct ev_err err = { 0 };
	struct ev_store *st;

	tu_write_file(path, "", 0);
	cr_assert_null(ev_store_open(path, EV_STORE_READ, &err));
	cr_assert_eq(err.code, 2);
	cr_assert(strstr(err.msg, "the store is empty; fill it with 'ev-ingest --db") != NULL, "%s",
	    err.msg);
	st = ev_store_open(path, EV_STORE_WRITE, &err);
	cr_assert_not_null(st, "%s", err.msg);
	ev_store_close(st);
	st = ev_store_open(path, EV_STORE_READ, &err);
	cr_assert_not_null(st, "%s", err.msg);
	ev_store_close(st);
}

Test(store, a_directory_is_not_a_store_and_a_store_in_no_directory_is_bad_usage)
{
	struct ev_err err = { 0 };
	char p[400];

	cr_assert_null(ev_store_open(dir, EV_STORE_READ, &err));
	cr_assert_eq(err.code, 2);
	cr_assert(strstr(err.msg, "a directory") != NULL, "%s", err.msg);
	cr_assert_null(ev_store_open(dir, EV_STORE_CREATE, &err));
	cr_assert_eq(err.code, 2);
	snprintf(p, sizeof p, "%s/no/such/kb.db", dir);
	cr_assert_null(ev_store_open(p, EV_STORE_CREATE, &err));
	cr_assert_eq(err.code, 2, "%s", err.msg);
}

Test(store, a_writer_leaves_the_wal_and_shm_files_and_an_empty_wal)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	char p[400];
	FILE *fp;

	cr_assert_not_null(st, "%s", err.msg);
	cr_assert_eq(ev_store_meta_set(st, "k", "v", &err), 0);
	ev_store_close(st);
	snprintf(p, sizeof p, "%s-shm", path);
	cr_assert_eq(access(p, R_OK), 0);
	snprintf(p, sizeof p, "%s-wal", path);
	cr_assert_not_null(fp = fopen(p, "rb"));
	fseek(fp, 0, SEEK_END);
	cr_assert_eq(ftell(fp), 0);
	fclose(fp);
}

/* Open path read-only as user 65534 (root writes through any mode bits) or,
 * not root, in a directory without write bits; 0 when the store opened and
 * read meta key k as "v". */
static int
read_as_another_user(void)
{
	struct ev_err err = { 0 };
	struct ev_store *st;
	char *v = NULL;
	pid_t pid;
	int status, ok;

	cr_assert_eq(chmod(dir, 0555), 0);
	if ((pid = fork()) == 0) {
		if (geteuid() == 0 && (setgroups(0, NULL) == -1 || setresgid(65534, 65534, 65534) == -1 ||
		    setresuid(65534, 65534, 65534) == -1))
			_exit(3);
		st = ev_store_open(path, EV_STORE_READ, &err);
		ok = st != NULL && ev_store_meta_get(st, "k", &v, &err) == 1 && strcmp(v, "v") == 0;
		if (!ok)
			fprintf(stderr, "%s\n", err.msg);
		ev_store_close(st);
		_exit(ok ? 0 : 1);
	}
	cr_assert_gt(pid, 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert_eq(chmod(dir, 0755), 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

Test(store, a_reader_without_write_access_reads_with_or_without_the_wal_and_shm_files)
{
	struct ev_err err = { 0 };
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, &err);
	char p[400];

	cr_assert_not_null(st, "%s", err.msg);
	cr_assert_eq(ev_store_meta_set(st, "k", "v", &err), 0);
	ev_store_close(st);
	cr_assert_eq(chmod(path, 0644), 0);
	cr_assert_eq(read_as_another_user(), 0);	/* the files a writer left */
	snprintf(p, sizeof p, "%s-shm", path);
	cr_assert_eq(unlink(p), 0);
	snprintf(p, sizeof p, "%s-wal", path);
	cr_assert_eq(unlink(p), 0);
	cr_assert_eq(read_as_another_user(), 0);	/* neither: immutable */
	snprintf(p, sizeof p, "%s-wal", path);
	cr_assert_eq(access(p, F_OK), -1);	/* nothing created */
}

/* The terms of the full-text index whose bytes begin with prefix. */
static int
terms_from(struct ev_store *st, const char *prefix)
{
	return tu_count(ev_store_db(st), "SELECT count(*) FROM chunks_vocab WHERE"
	    " substr(term, 1, length(?1)) = ?1", prefix);
}

/* Document d of one chunk (rowid 1) of text in language lang, the
 * full-text index rebuilt from the chunks as the store's analysis makes it. */
static void
one_chunk_indexed(struct ev_store *st, const char *text, const char *lang)
{
	char sql[512];

	snprintf(sql, sizeof sql, "INSERT INTO documents(doc_id, content_hash) VALUES ('d', 'h');"
	    "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash,"
	    " language) VALUES (1, 'd:s:0', 'd', 's', 0, '%s', 'h', '%s');"
	    "INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild');", text, lang);
	tu_exec_ok(st, sql);
}

/* st closed and the store opened again for writing. */
static struct ev_store *
reopened(struct ev_store *st)
{
	struct ev_err err = { 0 };

	ev_store_close(st);
	st = ev_store_open(path, EV_STORE_WRITE, &err);
	cr_assert_not_null(st, "%s", err.msg);
	return st;
}

/* The index of st matches its chunks as the store's analysis reads them
 * (FTS5 tokenises every chunk again and compares). */
static void
index_checks(struct ev_store *st)
{
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')");
}

/* A store whose index was made before stems carried their language (no
 * analysis_version in meta) is read as it was made, and rebuilt once. */
Test(store, an_index_of_an_older_analysis_is_read_as_made_and_rebuilt_once)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);
	char *v = NULL;

	cr_assert_eq(ev_store_meta_get(st, EV_STORE_ANALYSIS_KEY, &v, &err), 1);
	cr_assert_eq(atoi(v), EV_ANALYZE_INDEX_VERSION);
	free(v);
	/* the index as an older evkit made it: untagged stems alone */
	ev_analyze_set_index(ev_analyze_find(ev_store_db(st)), 1);
	tu_exec_ok(st, "DELETE FROM meta WHERE key = '" EV_STORE_ANALYSIS_KEY "'");
	one_chunk_indexed(st, "Les ruches au printemps", "fr");
	st = reopened(st);
	cr_assert_eq(terms_from(st, "\x1f"), 0);
	/* a write to the old index writes it as it is (FTS5 deletes the
	 * old row's terms by tokenising it again) */
	index_checks(st);
	cr_assert_eq(ev_store_reanalyze(st, &err), 1, "%s", err.msg);
	cr_assert_eq(terms_from(st, "\x1f" "fr" "\x1f"), 4, "le, ruch, au, printemp");
	cr_assert_eq(terms_from(st, "\x1f\x1f"), 4, "the words themselves");
	cr_assert_eq(terms_from(st, "ruch"), 0);
	index_checks(st);
	cr_assert_eq(ev_store_reanalyze(st, &err), 0, "once");
	/* opened again: read as the new analysis */
	st = reopened(st);
	index_checks(st);
	ev_store_close(st);
}

/* A store whose index holds the word itself beside every English stem
 * (analysis version 2) is read as it was made, and rebuilt once without
 * them. */
Test(store, an_index_of_version_2_is_rebuilt_once_without_englishs_words_themselves)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);

	tu_index_of_version_2(st);
	one_chunk_indexed(st, "Hives in spring", "en");
	st = reopened(st);
	cr_assert_eq(terms_from(st, "\x1f\x1f"), 3, "hives, in, spring themselves");
	index_checks(st);
	cr_assert_eq(ev_store_reanalyze(st, &err), 1, "%s", err.msg);
	cr_assert_eq(terms_from(st, "\x1f\x1f"), 0);
	cr_assert_eq(terms_from(st, "hive"), 1);
	cr_assert_eq(ev_store_reanalyze(st, &err), 0, "once");
	st = reopened(st);
	index_checks(st);
	ev_store_close(st);
}
