/*
 * Helpers the unit tests share: a scratch folder, a store in it, notes
 * gathered into a buffer, temporary files, repeatable random numbers.
 * Each fails the running test when it cannot do its work, so a test reads
 * as what it checks.  Header only (static inline): a test uses what it
 * needs and links nothing more.
 */
#ifndef EV_TEST_UTIL_H
#define EV_TEST_UTIL_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "store.h"

/*
 * Makes a folder from the template dir (which ends in XXXXXX and is
 * rewritten in place); when db is not NULL, writes "DIR/kb.db" there.
 */
static inline void
tu_mkdir(char *dir, char *db, size_t dbsize)
{
	cr_assert_not_null(mkdtemp(dir), "mkdtemp %s", dir);
	if (db != NULL)
		snprintf(db, dbsize, "%s/kb.db", dir);
}

/* A suite whose every test has a scratch folder, dir (from the template
 * "/tmp/" prefix ".XXXXXX"), removed after it, and path, "DIR/kb.db" (not
 * made). */
#define TU_SUITE_WITH_DIR(suite, prefix) \
	static char dir[64], path[128]; \
	static void tu_dir_setup(void) \
	{ \
		snprintf(dir, sizeof dir, "/tmp/" prefix ".XXXXXX"); \
		tu_mkdir(dir, path, sizeof path); \
	} \
	static void tu_dir_teardown(void) \
	{ \
		tu_rmdir(dir); \
	} \
	TestSuite(suite, .init = tu_dir_setup, .fini = tu_dir_teardown)

/* Removes the folder dir and everything below it. */
static inline void
tu_rmdir(const char *dir)
{
	char cmd[300];

	cr_assert_lt(strlen(dir), sizeof cmd - 16);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* Creates (or opens) the store at path; the test fails with err's message if it cannot. */
static inline struct ev_store *
tu_store_create(const char *path, struct ev_err *err)
{
	struct ev_store *st = ev_store_open(path, EV_STORE_CREATE, err);

	cr_assert_not_null(st, "%s", err->msg);
	return st;
}

/* Runs sql on the store st; the test fails with the statement and the store's message if it fails. */
static inline void
tu_exec_ok(struct ev_store *st, const char *sql)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_store_exec(st, sql, &err), 0, "%s: %s", sql, err.msg);
}

/* The index of st made again as an evkit of analysis version 2 made it
 * (analyze.h: the word itself beside every stem, English's too), and
 * written so from then on. */
static inline void
tu_index_of_version_2(struct ev_store *st)
{
	ev_analyze_set_index(ev_analyze_find(ev_store_db(st)), 2);
	tu_exec_ok(st, "UPDATE meta SET value = '2' WHERE key = '" EV_STORE_ANALYSIS_KEY "'");
	tu_exec_ok(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild')");
}

/* A chunk (and its document) at rowid of st, indexed as a writer indexes it
 * (through chunks_src: its columns stemmed for its language). */
static inline void
tu_add_chunk(struct ev_store *st, long long rowid, const char *title, const char *text,
    const char *language)
{
	sqlite3 *db = ev_store_db(st);
	sqlite3_stmt *s;
	char sql[200];

	cr_assert_eq(sqlite3_prepare_v2(db, "INSERT INTO documents(doc_id, title, content_hash)"
	    " VALUES('d' || ?1, ?2, 'x')", -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_int64(s, 1, rowid);
	sqlite3_bind_text(s, 2, title, -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	cr_assert_eq(sqlite3_prepare_v2(db, "INSERT INTO chunks(rowid, id, doc_id, section_id,"
	    " chunk_index, title, text, content_hash, language) VALUES(?1, 'd' || ?1 || ':s:0',"
	    " 'd' || ?1, 'd' || ?1 || ':s', 0, ?2, ?3, 'x', ?4)", -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_int64(s, 1, rowid);
	sqlite3_bind_text(s, 2, title, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, text, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, language, -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	snprintf(sql, sizeof sql, "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks_src WHERE rowid = %lld", rowid);
	tu_exec_ok(st, sql);
}

/* Makes the folder dir (a template, as tu_mkdir() takes it) and the store
 * "DIR/kb.db" in it (its path into db), runs sql on the store and returns it. */
static inline struct ev_store *
tu_store_made(char *dir, char *db, size_t dbsize, const char *sql)
{
	struct ev_err err = { 0 };
	struct ev_store *st;

	tu_mkdir(dir, db, dbsize);
	st = tu_store_create(db, &err);
	tu_exec_ok(st, sql);
	return st;
}

/* The integer the statement sql (one ?1, bound to the text arg) gives in
 * its first row, on db; the test fails if it cannot be run or gives none. */
static inline int
tu_count(sqlite3 *db, const char *sql, const char *arg)
{
	sqlite3_stmt *s;
	int n;

	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK, "%s: %s", sql,
	    sqlite3_errmsg(db));
	sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW, "%s: %s", sql, sqlite3_errmsg(db));
	n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* The temporary files tu_tmpfile() made in this test's process. */
static char tu_tmpfiles[16][256];
static int tu_ntmpfiles;

/*
 * Removes them: run at exit, and given as a suite's .fini, since a test that
 * ends without calling exit() does not run exit handlers.
 */
static inline void
tu_tmpfiles_remove(void)
{
	for (int i = 0; i < tu_ntmpfiles; i++)
		unlink(tu_tmpfiles[i]);
}

/*
 * Makes a file from the template path (its name ends in XXXXXX and then
 * suffix bytes, e.g. 5 for ".yaml"; rewritten in place) holding the n bytes s.
 * The file is removed at the test's end when its suite names
 * tu_tmpfiles_remove as .fini, and at exit(2) from a test of bad usage.
 */
static inline void
tu_tmpfile(char *path, int suffix, const void *s, size_t n)
{
	int fd = mkstemps(path, suffix);

	cr_assert(fd >= 0, "mkstemps %s", path);
	cr_assert_lt(strlen(path), sizeof tu_tmpfiles[0]);
	cr_assert_lt(tu_ntmpfiles, 16, "more than 16 temporary files in one test");
	if (tu_ntmpfiles == 0)
		atexit(tu_tmpfiles_remove);
	strcpy(tu_tmpfiles[tu_ntmpfiles++], path);
	cr_assert_eq(write(fd, s, n), (ssize_t)n);
	cr_assert_eq(close(fd), 0);
}

/* Makes the file path hold the n bytes s (created, or emptied first). */
static inline void
tu_write_file(const char *path, const void *s, size_t n)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	cr_assert(fd >= 0, "open %s", path);
	cr_assert_eq(write(fd, s, n), (ssize_t)n);
	cr_assert_eq(close(fd), 0);
}

/* The bytes of the file path, into *len (malloc'ed, the caller frees); the
 * test fails if it cannot be read or is empty. */
static inline unsigned char *
tu_file_bytes(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	cr_assert_not_null(f, "open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	cr_assert_gt(n = ftell(f), 0);
	rewind(f);
	cr_assert_not_null(buf = malloc((size_t)n));
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Fills buf with the first n bytes of the file path (zeros past its end). */
static inline void
tu_read_file_into(const char *path, void *buf, size_t n)
{
	int fd = open(path, O_RDONLY);

	cr_assert(fd >= 0, "open %s", path);
	memset(buf, 0, n);
	cr_assert(read(fd, buf, n) >= 0, "read %s", path);
	cr_assert_eq(close(fd), 0);
}

/* Jansson's allocations fail at the tu_jfail_at-th one (0: never), counted
 * in tu_jcount, once a test calls json_set_alloc_funcs(tu_jfail_malloc, free). */
static long tu_jfail_at, tu_jcount;

static inline void *
tu_jfail_malloc(size_t n)
{
	if (++tu_jcount == tu_jfail_at)
		return NULL;
	return malloc(n);
}

/* One xorshift64 step of *state: the tests' repeatable pseudo-random numbers. */
static inline unsigned long long
tu_xorshift(unsigned long long *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* Fixed pseudo-random floats in [-1, 1) into x[0..n), from seed: the
 * vector tests' repeatable data (a linear congruential generator). */
static inline void
tu_fill_floats(float *x, int n, unsigned seed)
{
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		x[i] = (float)((seed >> 8) % 20001) / 10000.0f - 1.0f;
	}
}

/* What tu_note() was told, a line each (cut short when full); a test's
 * setup empties it. */
static char tu_notes[4096] __attribute__((unused));

/* A note receiver (as lib/ takes them: ctx, msg) that appends msg and a
 * newline to tu_notes. */
static inline void
tu_note(void *ctx, const char *msg)
{
	size_t n = strlen(tu_notes);

	(void)ctx;
	snprintf(tu_notes + n, sizeof tu_notes - n, "%s\n", msg);
}

#endif
