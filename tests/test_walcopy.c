/* test_walcopy.c: lib/store/walcopy.c -- a writer's commits have its log
 * copied into the database by the walcopy's thread, the log then starts
 * again from its beginning instead of growing, every committed row is
 * there, and stopping gives the writer its automatic checkpoint back (at
 * the length given). */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>

#include "test_util.h"
#include "walcopy.h"

TU_SUITE_WITH_DIR(walcopy, "evkit-walcopy");

enum { PAGES = 8, TXNS = 40, ROWS = 20 };

static sqlite3 *
open_wal(void)
{
	sqlite3 *db;

	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
	    " CREATE TABLE t(x BLOB);", NULL, NULL, NULL), SQLITE_OK);
	return db;
}

/* One transaction of ROWS rows of 2 KB: about ten pages of the log. */
static void
commit_rows(sqlite3 *db)
{
	cr_assert_eq(sqlite3_exec(db, "BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
	    " SELECT i + 1 FROM n WHERE i < 20) INSERT INTO t SELECT randomblob(2048) FROM n;"
	    " COMMIT;", NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
}

static long long
wal_bytes(void)
{
	char wal[160];
	struct stat sb;

	snprintf(wal, sizeof wal, "%s-wal", path);
	return stat(wal, &sb) == 0 ? (long long)sb.st_size : 0;
}

/* A walcopy of db at pages pages; the test fails when there is none. */
static struct ev_walcopy *
started(sqlite3 *db, int pages)
{
	struct ev_err err = { 0 };
	struct ev_walcopy *wc = ev_walcopy_start(db, path, pages, &err);

	cr_assert_not_null(wc, "%s", err.msg);
	return wc;
}

/* Commit TXNS transactions to db, each followed by after(wc) when given;
 * the log's largest length in bytes. */
static long long
commit_all(sqlite3 *db, struct ev_walcopy *wc, void (*after)(struct ev_walcopy *, long long))
{
	long long most = 0;

	for (int i = 0; i < TXNS; i++) {
		commit_rows(db);
		if (after != NULL)
			after(wc, i + 1);
		if (wal_bytes() > most)
			most = wal_bytes();
	}
	return most;
}

/* db holds rows rows of t, and closes. */
static void
close_with(sqlite3 *db, int rows)
{
	cr_assert_eq(tu_count(db, "SELECT count(*) FROM t", NULL), rows);
	cr_assert_eq(sqlite3_close(db), SQLITE_OK);
}

/* Wait (up to 10 s) until wc has made n copies. */
static void
await_copies(struct ev_walcopy *wc, long long n)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 10000 && ev_walcopy_copies(wc) < n; i++)
		nanosleep(&ms, NULL);
	cr_assert_geq(ev_walcopy_copies(wc), n, "copies %lld, awaited %lld",
	    ev_walcopy_copies(wc), n);
}

Test(walcopy, the_thread_copies_the_log_and_it_starts_again_instead_of_growing)
{
	sqlite3 *db = open_wal();
	struct ev_walcopy *wc = started(db, PAGES);
	/* each commit is over PAGES pages: it asks for a copy, awaited */
	long long most = commit_all(db, wc, await_copies);

	/* without the copies the log would hold every transaction's pages
	 * (over 800 KB); copied, each starts it again */
	cr_assert_lt(most, 200 * 1024, "the log grew to %lld bytes", most);
	ev_walcopy_stop(wc);
	close_with(db, TXNS * ROWS);
}

Test(walcopy, a_short_log_is_left_alone)
{
	sqlite3 *db = open_wal();
	struct ev_walcopy *wc = started(db, 100000);

	commit_rows(db);
	commit_rows(db);
	cr_assert_eq(ev_walcopy_copies(wc), 0, "under the length asked for: no copy");
	ev_walcopy_stop(wc);
	close_with(db, 2 * ROWS);
}

Test(walcopy, once_stopped_the_writer_checkpoints_on_its_own_at_the_length_given)
{
	sqlite3 *db = open_wal();
	long long most;

	ev_walcopy_stop(started(db, PAGES));
	most = commit_all(db, NULL, NULL);
	cr_assert_lt(most, 200 * 1024, "the log grew to %lld bytes", most);
	close_with(db, TXNS * ROWS);
}

Test(walcopy, no_database_file_is_an_error_and_nothing_is_started)
{
	struct ev_err err = { 0 };
	sqlite3 *db = open_wal();
	char gone[160];

	snprintf(gone, sizeof gone, "%s/none/kb.db", dir);
	cr_assert_null(ev_walcopy_start(db, gone, PAGES, &err));
	cr_assert_str_eq(err.where, gone);
	cr_assert(strstr(err.msg, "cannot open a second connection") != NULL, "%s", err.msg);
	commit_rows(db);	/* the writer's own hook, unchanged */
	cr_assert_eq(sqlite3_close(db), SQLITE_OK);
}
