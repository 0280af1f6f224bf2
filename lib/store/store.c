/* store.c: the SQLite store.  See store.h for the schema. */
#include "store.h"
#include "buf.h"
#include "clock.h"
#include "readahead.h"
#include "utf8.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BUSY_TIMEOUT_MS 30000	/* a reader or writer waits this long for a writer */

struct cached_stmt {
	char *sql;
	sqlite3_stmt *stmt;
	struct cached_stmt *next;
};

/* A published_date the SQL functions evkit_date_days() and evkit_date_ms()
 * have read, by its text (date_of()). */
#define DATE_MEMO_SLOTS 64
#define DATE_MEMO_TEXT 40	/* a longer text is read each time */
struct date_memo {
	unsigned char len;	/* the text's bytes; 0: the slot is empty */
	char text[DATE_MEMO_TEXT];
	int ok;			/* it names a moment, days */
	double days;
};

struct ev_store {
	sqlite3 *db;
	char *path;
	struct cached_stmt *stmts;
	int in_txn;
	int version;		/* the schema's */
	struct ev_analyzer *an;	/* the connection's tokeniser */
	/* The readahead of hits' rows, opened on first use (readahead_state
	 * 1; -1 when it cannot be had), and the root pages of the trees it
	 * walks. */
	struct ev_readahead *ra;
	int readahead_state;
	unsigned root_chunks, root_documents, root_documents_key;
	struct date_memo dates[DATE_MEMO_SLOTS];
	struct date_fn {	/* the user data of the SQL date functions (date_fn()) */
		struct ev_store *st;
		int ms;		/* evkit_date_ms(), not evkit_date_days() */
	} date_fns[2];
};

/* chunks.doc_id's place among the columns of a chunks row (rowid first). */
#define CHUNKS_DOC_ID_COLUMN 2

static const char schema_sql[] =
	"CREATE TABLE documents ("
	"  doc_id TEXT PRIMARY KEY, source TEXT, title TEXT, source_uri TEXT,"
	"  source_type TEXT, language TEXT, published_date TEXT, metadata TEXT,"
	"  content_hash TEXT NOT NULL, length INTEGER, ingested_at TEXT);"
	"CREATE INDEX documents_source ON documents(source);"
	"CREATE INDEX documents_language ON documents(language);"
	"CREATE TABLE chunks ("
	"  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
	"  doc_id TEXT NOT NULL REFERENCES documents(doc_id), section_id TEXT NOT NULL,"
	"  chunk_index INTEGER NOT NULL, title TEXT, section_title TEXT, section_path TEXT,"
	"  text TEXT NOT NULL, offset_start INTEGER, offset_end INTEGER, content_hash TEXT NOT NULL,"
	"  language TEXT);"
	"CREATE INDEX chunks_doc ON chunks(doc_id);"
	"CREATE TABLE chunk_tombstones (rowid INTEGER PRIMARY KEY);"
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);";

/* The full-text index (created after the chunks table, and again by
 * ev_store_reindex()): FTS5 reads a chunk's columns (to rebuild or check
 * the index) through chunks_src, which tags them with the chunk's language
 * as the writers do (corpus.c). */
static const char fts_sql[] =
	"CREATE VIEW chunks_src AS SELECT rowid,"
	"  " EV_STORE_TAG("language", "title") " AS title,"
	"  " EV_STORE_TAG("language", "section_title") " AS section_title,"
	"  " EV_STORE_TAG("language", "text") " AS text FROM chunks;"
	"CREATE VIRTUAL TABLE chunks_fts USING fts5(title, section_title, text,"
	"  content='chunks_src', content_rowid='rowid', tokenize='" EV_STORE_TOKENIZE "');"
	/* FTS5 writes its pending terms as a segment when they pass hashsize
	 * (1 MB by default) and at each commit: 8 MB makes fewer, larger
	 * segments, which cost less to merge (ingest) and to read (search). */
	"INSERT INTO chunks_fts(chunks_fts, rank) VALUES('hashsize', 8388608);"
	"CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');";

sqlite3 *
ev_store_db(struct ev_store *st)
{
	return st->db;
}

const char *
ev_store_path(const struct ev_store *st)
{
	return st->path;
}

int
ev_store_error(struct ev_store *st, const char *what, struct ev_err *err)
{
	int code = sqlite3_errcode(st->db);
	int sys = st->db ? sqlite3_system_errno(st->db) : 0;

	if (sys != 0 && (code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN))
		return ev_err_set(err, EV_EXIT_RUNTIME, st->path, "%s: %s (%s)", what,
		    sqlite3_errmsg(st->db), strerror(sys));
	return ev_err_set(err, EV_EXIT_RUNTIME, st->path, "%s: %s%s", what, sqlite3_errmsg(st->db),
	    code == SQLITE_FULL ? " (the disk is full; free space and run again)" :
	    code == SQLITE_BUSY ? " (another process holds the store; try again later)" :
	    code == SQLITE_READONLY ? " (the store is read-only here)" : "");
}

int
ev_store_exec(struct ev_store *st, const char *sql, struct ev_err *err)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return ev_store_error(st, "executing SQL", err);
	return 0;
}

sqlite3_stmt *
ev_store_prepare(struct ev_store *st, const char *sql, struct ev_err *err)
{
	struct cached_stmt *c;

	for (c = st->stmts; c != NULL; c = c->next)
		if (strcmp(c->sql, sql) == 0) {
			sqlite3_reset(c->stmt);
			sqlite3_clear_bindings(c->stmt);
			return c->stmt;
		}
	if ((c = calloc(1, sizeof *c)) == NULL || (c->sql = strdup(sql)) == NULL) {
		free(c);
		ev_err_nomem(err);
		return NULL;
	}
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &c->stmt, NULL) != SQLITE_OK) {
		ev_store_error(st, "preparing a query", err);
		free(c->sql);
		free(c);
		return NULL;
	}
	c->next = st->stmts;
	st->stmts = c;
	return c->stmt;
}

sqlite3_stmt *
ev_store_prepare_stem_df(struct ev_store *st, struct ev_err *err)
{
	char sql[2048];
	size_t n = (size_t)snprintf(sql, sizeof sql, "SELECT coalesce(sum(doc), 0) FROM chunks_vocab"
	    " WHERE term IN (?1");
	const char *code;

	for (int i = 0; (code = ev_analyze_stem_tag(i)) != NULL && n < sizeof sql; i++)
		n += (size_t)snprintf(sql + n, sizeof sql - n, ", char(31) || '%s' || char(31) || ?1",
		    code);
	if (n + 2 > sizeof sql)
		return ev_err_set(err, 1, NULL, "the vocabulary's statement is too long"), NULL;
	strcpy(sql + n, ")");
	return ev_store_prepare(st, sql, err);
}

int
ev_store_begin(struct ev_store *st, struct ev_err *err)
{
	if (ev_store_exec(st, "BEGIN IMMEDIATE", err) == -1)
		return -1;
	st->in_txn = 1;
	return 0;
}

int
ev_store_commit(struct ev_store *st, struct ev_err *err)
{
	if (ev_store_exec(st, "COMMIT", err) == -1)
		return -1;
	st->in_txn = 0;
	return 0;
}

int
ev_store_rollback(struct ev_store *st)
{
	int r = 0;

	if (st != NULL && st->db != NULL && sqlite3_get_autocommit(st->db) == 0)
		r = sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
	if (st != NULL)
		st->in_txn = 0;
	return r;
}

/* The FTS5 setting key of the index as an integer into *v: 1, or 0 when
 * the index keeps none (FTS5's default applies), -1 with *err set. */
static int
fts_setting(struct ev_store *st, const char *key, long long *v, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT v FROM chunks_fts_config WHERE k = ?1", err);
	int rc;

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		*v = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ev_store_error(st, "reading the text index's settings", err);
	return rc == SQLITE_ROW;
}

int
ev_store_fts_bulk(struct ev_store *st, int bulk, struct ev_err *err)
{
	/* FTS5's defaults; any other run's, and a bulk load's */
	static const char *const keys[] = { "automerge", "crisismerge" };
	static const long long fts5_default[2] = { 4, 16 };
	const long long want[2][2] = { { 4, EV_STORE_CRISIS }, { 0, EV_STORE_CRISIS } };
	int wrote = 0;

	for (int i = 0; i < 2; i++) {
		long long have = fts5_default[i];
		char sql[160];

		if (fts_setting(st, keys[i], &have, err) == -1)
			return -1;
		if (have == want[bulk != 0][i])
			continue;
		snprintf(sql, sizeof sql, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('%s', %lld)",
		    keys[i], want[bulk != 0][i]);
		if (ev_store_exec(st, sql, err) == -1)
			return -1;
		wrote = 1;
	}
	return wrote;
}

int
ev_store_fts_optimize(struct ev_store *st, struct ev_err *err)
{
	return ev_store_exec(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')", err);
}

int
ev_store_meta_get(struct ev_store *st, const char *key, char **value, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT value FROM meta WHERE key = ?1", err);
	int rc;

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return ev_store_error(st, "reading the meta table", err);
	*value = strdup(sqlite3_column_type(s, 0) == SQLITE_NULL ? "" :
	    (const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	return *value ? 1 : ev_err_nomem(err);
}

int
ev_store_meta_set(struct ev_store *st, const char *key, const char *value, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st,
	    "INSERT INTO meta(key, value) VALUES(?1, ?2)"
	    " ON CONFLICT(key) DO UPDATE SET value = excluded.value", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, value, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		return ev_store_error(st, "writing the meta table", err);
	sqlite3_reset(s);
	return 0;
}

/* Whether the store has its schema: 1 or 0, or -1 with *code set to SQLite's
 * result (SQLITE_NOTADB for a file that is not a database). */
static int
has_schema(struct ev_store *st, int *code)
{
	sqlite3_stmt *s;
	int found;

	*code = sqlite3_prepare_v2(st->db,
	    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'", -1, &s, NULL);
	if (*code != SQLITE_OK)
		return -1;
	found = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) > 0;
	*code = sqlite3_finalize(s);
	return *code == SQLITE_OK ? found : -1;
}

/* The analyzer reads and writes the index as it was made: of the version
 * meta records (1 when none is, a store made before versions were). */
static int
read_analysis(struct ev_store *st, struct ev_err *err)
{
	char *v = NULL;
	int r = ev_store_meta_get(st, EV_STORE_ANALYSIS_KEY, &v, err);

	if (r == -1)
		return -1;
	ev_analyze_set_index(st->an, r ? atoi(v) : 1);
	free(v);
	return 0;
}

/* In a transaction about to (re)build the index: the analyzer writes this
 * evkit's index from now on, and meta says so.  Returns 0, or -1 with
 * *err set. */
static int
set_analysis(struct ev_store *st, struct ev_err *err)
{
	char version[16];

	snprintf(version, sizeof version, "%d", EV_ANALYZE_INDEX_VERSION);
	ev_analyze_set_index(st->an, EV_ANALYZE_INDEX_VERSION);
	return ev_store_meta_set(st, EV_STORE_ANALYSIS_KEY, version, err);
}

static int
create_schema(struct ev_store *st, struct ev_err *err)
{
	char version[16];
	int code;

	snprintf(version, sizeof version, "%d", EV_STORE_SCHEMA_VERSION);
	if (ev_store_begin(st, err) == -1)
		return -1;
	if (has_schema(st, &code) == 1)	/* another process created it meanwhile */
		return ev_store_commit(st, err);
	if (ev_store_exec(st, schema_sql, err) == -1 || ev_store_exec(st, fts_sql, err) == -1 ||
	    ev_store_meta_set(st, "schema_version", version, err) == -1 ||
	    set_analysis(st, err) == -1 ||
	    ev_store_commit(st, err) == -1) {
		ev_store_rollback(st);
		return -1;
	}
	return 0;
}

static int
check_version(struct ev_store *st, int mode, struct ev_err *err)
{
	char *v = NULL;
	int r = ev_store_meta_get(st, "schema_version", &v, err);

	if (r == -1 && sqlite3_errcode(st->db) == SQLITE_ERROR)	/* a meta table of other columns */
		return ev_err_set(err, EV_EXIT_USAGE, st->path, "not an evkit store (its meta table"
		    " is not evkit's), left as it was; give --db the name of a new file to make a"
		    " store there");
	if (r == -1)
		return -1;
	st->version = r ? atoi(v) : 0;
	free(v);
	if (st->version == EV_STORE_SCHEMA_VERSION || (st->version == 1 && mode == EV_STORE_UPGRADE))
		return 0;
	if (r == 0)
		return ev_err_set(err, EV_EXIT_USAGE, st->path, "not an evkit store (its meta table"
		    " has no schema_version), left as it was; give --db the name of a new file to"
		    " make a store there");
	if (st->version == 1)
		return ev_err_set(err, EV_EXIT_USAGE, st->path, "store made by an older evkit (schema"
		    " version 1), whose index neither segments Chinese or Japanese nor stems languages"
		    " other than English; upgrade it in place with 'ev-ingest --db %s --reindex'"
		    " (vectors and the vector index are kept)", st->path);
	if (st->version > EV_STORE_SCHEMA_VERSION)
		return ev_err_set(err, EV_EXIT_USAGE, st->path, "store schema version %d, made by a"
		    " newer evkit (this one reads version %d); search it with that evkit",
		    st->version, EV_STORE_SCHEMA_VERSION);
	return ev_err_set(err, EV_EXIT_USAGE, st->path, "store schema version %d, this evkit reads"
	    " version %d; re-ingest into a new store", st->version, EV_STORE_SCHEMA_VERSION);
}

int
ev_store_reanalyze(struct ev_store *st, struct ev_err *err)
{
	char *v = NULL;
	int r;

	if (ev_store_begin(st, err) == -1)
		return -1;
	if ((r = ev_store_meta_get(st, EV_STORE_ANALYSIS_KEY, &v, err)) == -1)
		goto fail;
	r = r == 0 || atoi(v) != EV_ANALYZE_INDEX_VERSION;
	free(v);
	if (r && (set_analysis(st, err) == -1 ||
	    ev_store_exec(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild')", err) == -1))
		goto fail;
	if (ev_store_commit(st, err) == -1)
		goto fail;
	return r;
fail:
	ev_store_rollback(st);
	read_analysis(st, &(struct ev_err){ 0 });	/* as the index still is */
	return -1;
}

int
ev_store_version(const struct ev_store *st)
{
	return st->version;
}

int
ev_store_reindex(struct ev_store *st, void (*lang)(void *ctx, const char *text, size_t len,
    const char *declared, char *out), void *ctx, struct ev_err *err)
{
	char code[EV_ANALYZE_CODE_MAX], version[16];
	sqlite3_stmt *s = NULL, *u = NULL;
	int r;

	if (st->version == EV_STORE_SCHEMA_VERSION)
		return 0;
	if (ev_store_begin(st, err) == -1)
		return -1;
	if (ev_store_exec(st, "DROP TABLE chunks_vocab; DROP TABLE chunks_fts;"
	    " ALTER TABLE chunks ADD COLUMN language TEXT;"
	    " CREATE TEMP TABLE reindex_lang (rowid INTEGER PRIMARY KEY, language TEXT);", err) == -1)
		goto fail;
	if (sqlite3_prepare_v2(st->db, "SELECT c.rowid, c.text, d.language FROM chunks c"
	    " LEFT JOIN documents d ON d.doc_id = c.doc_id", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "INSERT INTO temp.reindex_lang VALUES(?, ?)", -1, &u,
	    NULL) != SQLITE_OK) {
		ev_store_error(st, "reading the chunks", err);
		goto fail;
	}
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		lang(ctx, (const char *)sqlite3_column_text(s, 1), (size_t)sqlite3_column_bytes(s, 1),
		    (const char *)sqlite3_column_text(s, 2), code);
		sqlite3_bind_int64(u, 1, sqlite3_column_int64(s, 0));
		sqlite3_bind_text(u, 2, code, -1, SQLITE_STATIC);
		if (sqlite3_step(u) != SQLITE_DONE) {
			ev_store_error(st, "recording a chunk's language", err);
			goto fail;
		}
		sqlite3_reset(u);
	}
	if (r != SQLITE_DONE) {
		ev_store_error(st, "reading the chunks", err);
		goto fail;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	s = u = NULL;
	snprintf(version, sizeof version, "%d", EV_STORE_SCHEMA_VERSION);
	if (ev_store_exec(st, "UPDATE chunks SET language = (SELECT language FROM temp.reindex_lang l"
	    " WHERE l.rowid = chunks.rowid); DROP TABLE temp.reindex_lang;", err) == -1 ||
	    set_analysis(st, err) == -1 || ev_store_exec(st, fts_sql, err) == -1 ||
	    ev_store_exec(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild')", err) == -1 ||
	    ev_store_meta_set(st, "schema_version", version, err) == -1 ||
	    ev_store_commit(st, err) == -1)
		goto fail;
	st->version = EV_STORE_SCHEMA_VERSION;
	return 1;
fail:
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	ev_store_rollback(st);
	read_analysis(st, &(struct ev_err){ 0 });	/* as the index still is */
	return -1;
}

/* Open path read-only as an immutable file (no locks, no -wal or -shm):
 * "file:PATH?mode=ro&immutable=1", the path's '%', '?' and '#' escaped. */
static int
open_immutable(struct ev_store *st)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(st->path), j = 0;
	char *uri = malloc(3 * n + 32);
	int rc;

	if (uri == NULL)
		return SQLITE_NOMEM;
	j += (size_t)sprintf(uri, "file:");
	for (const char *p = st->path; *p; p++)
		if (*p == '%' || *p == '?' || *p == '#') {
			uri[j++] = '%';
			uri[j++] = hex[(unsigned char)*p >> 4];
			uri[j++] = hex[*p & 15];
		} else
			uri[j++] = *p;
	strcpy(uri + j, "?mode=ro&immutable=1");
	sqlite3_close(st->db);
	st->db = NULL;
	rc = sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
		sqlite3_extended_result_codes(st->db, 0);
	}
	return rc;
}

/* Close st's connection (if any) and the statements prepared on it. */
static void
close_connection(struct ev_store *st)
{
	struct cached_stmt *c, *next;

	for (c = st->stmts; c != NULL; c = next) {
		next = c->next;
		sqlite3_finalize(c->stmt);
		free(c->sql);
		free(c);
	}
	st->stmts = NULL;
	sqlite3_close(st->db);
	st->db = NULL;
}

/* Open st->path with SQLite's flags and read whether it has the store's
 * schema (has_schema()).  A reader (read_only) that may write neither the
 * store's directory nor its -wal and -shm files cannot open a WAL store that
 * has none (SQLite needs them): it reads it as an immutable file.  Writers
 * leave the two files in place (SQLITE_FCNTL_PERSIST_WAL, ev_store_open()),
 * so this is only for stores last written otherwise.  Returns 1 or 0, or -1
 * with *err set: code 2 for a file that is not a database (the user's
 * mistake), 1 for an I/O error or out of memory. */
static int
open_connection(struct ev_store *st, int flags, int read_only, struct ev_err *err)
{
	int have, code;

	close_connection(st);
	if (sqlite3_open_v2(st->path, &st->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		int sys = sqlite3_system_errno(st->db);

		if (sys == ENOENT || sys == ENOTDIR)	/* a store in no directory */
			return ev_err_set(err, EV_EXIT_USAGE, st->path, "cannot create the store: %s",
			    strerror(sys));
		return ev_store_error(st, "cannot open the store", err);
	}
	sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(st->db, 0);
	have = has_schema(st, &code);
	if (have == -1 && read_only && (code == SQLITE_READONLY || code == SQLITE_CANTOPEN)) {
		if ((code = open_immutable(st)) != SQLITE_OK)
			return ev_store_error(st, "cannot open the store", err);
		have = has_schema(st, &code);
	}
	if (have == -1 && code == SQLITE_NOTADB)
		return ev_err_set(err, EV_EXIT_USAGE, st->path, "not an evkit store (%s)",
		    sqlite3_errmsg(st->db));
	if (have == -1)
		return ev_store_error(st, "cannot open the store", err);
	return have;
}

/* Whether the file that is there (opened read-only) is an evkit store this
 * evkit may open in mode: 1, 0 when it is an empty database that a writer
 * may give the schema, or -1 with *err set. */
static int
check_store(struct ev_store *st, int mode, int empty, struct ev_err *err)
{
	int have = open_connection(st, SQLITE_OPEN_READONLY, 1, err);

	if (have == -1)
		return -1;
	if (have == 0 && !empty)
		return ev_err_set(err, EV_EXIT_USAGE, st->path, "not an evkit store (an SQLite"
		    " database without evkit's tables), left as it was; give --db the name of a new"
		    " file to make a store there");
	if (have == 1 && check_version(st, mode, err) == -1)
		return -1;
	return have;
}

/* The moment the published_date v names, in days since 1970-01-01 UTC
 * (ev_clock_date_days()), into *days.  A query filtered by date asks for
 * it at each row it reads -- the same document's at each of its chunks,
 * which are consecutive rows, and the same row's for "from" and for "to"
 * -- so a text is parsed once and kept in st->dates (direct-mapped by its
 * bytes; the answer is a function of them alone), then read from there.
 * Returns 0, or -1 when v names no moment (NULL, or not a date). */
static int
date_of(struct ev_store *st, sqlite3_value *v, double *days)
{
	const char *s = (const char *)sqlite3_value_text(v);
	size_t n = (size_t)sqlite3_value_bytes(v);
	struct date_memo *m;

	if (s == NULL)
		return -1;
	if (n == 0 || n >= DATE_MEMO_TEXT)
		return ev_clock_date_days(s, days);
	m = &st->dates[ev_hash_fnv1a(s, n) % DATE_MEMO_SLOTS];
	if (m->len != n || memcmp(m->text, s, n) != 0) {
		m->ok = ev_clock_date_days(s, &m->days) == 0;
		memcpy(m->text, s, n);
		m->len = (unsigned char)n;
	}
	*days = m->days;
	return m->ok ? 0 : -1;
}

/* SQL evkit_date_days(D) and evkit_date_ms(D) (the function's user data a
 * struct date_fn of the store): the moment D, a published_date, names
 * (date_of()), in days since 1970-01-01 UTC or to the millisecond, an
 * integer (ev_clock_days_ms()); NULL when D is none. */
static void
date_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct date_fn *f = sqlite3_user_data(ctx);
	double days;

	(void)argc;
	if (date_of(f->st, argv[0], &days) == -1)
		sqlite3_result_null(ctx);
	else if (f->ms)
		sqlite3_result_int64(ctx, ev_clock_days_ms(days));
	else
		sqlite3_result_double(ctx, days);
}

struct ev_store *
ev_store_open(const char *path, int mode, struct ev_err *err)
{
	struct ev_store *st;
	struct stat sb = { 0 };
	int have = 0, empty, one = 1;
	char pragma[40];

	if (*path == '\0') {	/* SQLite would open a temporary database */
		ev_err_set(err, EV_EXIT_USAGE, NULL, "--db names no file: give the store's file name");
		return NULL;
	}
	if (stat(path, &sb) == -1 && mode != EV_STORE_CREATE) {
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "no such store; create it with 'ev-ingest --db %s FILE...'", path);
		return NULL;
	}
	if (sb.st_mode != 0 && !S_ISREG(sb.st_mode)) {
		ev_err_set(err, EV_EXIT_USAGE, path, "not an evkit store: %s; --db names a store file",
		    S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		return NULL;
	}
	/* An empty file (as `sqlite3 kb.db` or touch leaves) is an empty
	 * database: a writer gives it the schema, a reader is told to fill it. */
	empty = S_ISREG(sb.st_mode) && sb.st_size == 0;
	if (empty && mode == EV_STORE_READ) {
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "the store is empty; fill it with 'ev-ingest --db %s FILE...'", path);
		return NULL;
	}
	if ((st = calloc(1, sizeof *st)) == NULL || (st->path = strdup(path)) == NULL) {
		free(st);
		ev_err_nomem(err);
		return NULL;
	}
	/* A file that is there is read (read-only) before anything is written
	 * to it: a file that is not an evkit store, or not one this evkit
	 * writes, is left exactly as it was. */
	if (sb.st_mode != 0 && (have = check_store(st, mode, empty, err)) == -1)
		goto fail;
	if (mode == EV_STORE_READ)
		goto ready;
	if ((have = open_connection(st, SQLITE_OPEN_READWRITE |
	    (mode == EV_STORE_CREATE ? SQLITE_OPEN_CREATE : 0), 0, err)) == -1)
		goto fail;
ready:
	/* (after the schema was read: a file that is not a database is told so) */
	if ((st->an = ev_analyze_register(st->db, err)) == NULL)
		goto fail;
	st->date_fns[0] = (struct date_fn){ st, 0 };
	st->date_fns[1] = (struct date_fn){ st, 1 };
	if (sqlite3_create_function(st->db, "evkit_date_days", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, &st->date_fns[0], date_fn, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(st->db, "evkit_date_ms", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, &st->date_fns[1], date_fn, NULL, NULL) != SQLITE_OK) {
		ev_err_nomem(err);
		goto fail;
	}
	/* Writers keep the -wal and -shm files when they close (the -wal
	 * emptied: journal_size_limit), so that a user who may only read the
	 * store and its directory can still search it with the usual locks. */
	if (mode != EV_STORE_READ) {
		sqlite3_file_control(st->db, "main", SQLITE_FCNTL_PERSIST_WAL, &one);
		/* a new store's page size: set before WAL mode, which fixes it */
		snprintf(pragma, sizeof pragma, "PRAGMA page_size=%d", EV_STORE_PAGE_SIZE);
		if (!have && ev_store_exec(st, pragma, err) == -1)
			goto fail;
		if (ev_store_exec(st, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
		    " PRAGMA foreign_keys=OFF; PRAGMA journal_size_limit=67108864;", err) == -1)
			goto fail;
	}
	if (!have) {
		if (create_schema(st, err) == -1)
			goto fail;
		st->version = EV_STORE_SCHEMA_VERSION;
	} else if (sb.st_mode == 0 && check_version(st, mode, err) == -1)
		goto fail;	/* (made meanwhile by another ev-ingest) */
	if (read_analysis(st, err) == -1)
		goto fail;
	return st;
fail:
	ev_store_close(st);
	return NULL;
}

void
ev_store_close(struct ev_store *st)
{
	if (st == NULL)
		return;
	ev_store_rollback(st);
	close_connection(st);
	ev_readahead_close(st->ra);	/* after SQLite's: see readahead.h */
	free(st->path);
	free(st);
}

/* The readahead and its trees' root pages, opened on first use.  Returns 1,
 * 0 when there is none to be had. */
static int
open_readahead(struct ev_store *st)
{
	sqlite3_stmt *s;

	if (st->readahead_state != 0)
		return st->readahead_state == 1;
	st->readahead_state = -1;
	if (sqlite3_prepare_v2(st->db, "SELECT name, rootpage FROM sqlite_schema WHERE name IN"
	    " ('chunks', 'documents', 'sqlite_autoindex_documents_1')", -1, &s, NULL) != SQLITE_OK)
		return 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		unsigned root = (unsigned)sqlite3_column_int64(s, 1);

		if (name == NULL)
			continue;
		if (strcmp(name, "chunks") == 0)
			st->root_chunks = root;
		else if (strcmp(name, "documents") == 0)
			st->root_documents = root;
		else
			st->root_documents_key = root;
	}
	sqlite3_finalize(s);
	if (st->root_chunks == 0 || st->root_documents == 0 || st->root_documents_key == 0 ||
	    (st->ra = ev_readahead_open(st->path)) == NULL)
		return 0;
	st->readahead_state = 1;
	return 1;
}

int
ev_store_readahead_ready(struct ev_store *st)
{
	return open_readahead(st);
}

void
ev_store_readahead_chunks(struct ev_store *st, const long long *rowid, size_t n, unsigned *pages)
{
	open_readahead(st);	/* (without it, the walk finds nothing) */
	ev_store_readahead_walk(st, rowid, n, pages);
}

void
ev_store_readahead_walk(struct ev_store *st, const long long *rowid, size_t n, unsigned *pages)
{
	struct ev_readahead_text *doc = NULL;
	long long *docrow = NULL;
	unsigned *page = NULL;

	if (pages != NULL)
		memset(pages, 0, 3 * n * sizeof *pages);
	if (n == 0 || st->readahead_state != 1 || (doc = malloc(n * sizeof *doc)) == NULL ||
	    (docrow = malloc(n * sizeof *docrow)) == NULL || (page = malloc(3 * n * sizeof *page)) == NULL)
		goto out;
	if (ev_readahead_rows(st->ra, st->root_chunks, rowid, n, CHUNKS_DOC_ID_COLUMN, doc, page) == -1 ||
	    ev_readahead_index(st->ra, st->root_documents_key, doc, n, docrow, page + n) == -1 ||
	    ev_readahead_rows(st->ra, st->root_documents, docrow, n, -1, NULL, page + 2 * n) == -1)
		goto out;
	if (pages != NULL)
		for (size_t i = 0; i < n; i++) {
			pages[3 * i] = page[i];
			pages[3 * i + 1] = page[n + i];
			pages[3 * i + 2] = docrow[i] != 0 ? page[2 * n + i] : 0;
		}
out:
	free(doc);
	free(docrow);
	free(page);
}

int
ev_store_row_utf8(struct ev_store *st, sqlite3_stmt *s, const int *cols,
	const char *const *names, int n, const char *what, long long rowid, struct ev_err *err)
{
	for (int i = 0; i < n; i++) {
		int type = sqlite3_column_type(s, cols[i]);
		const char *t;
		size_t len, k = 0;

		if (type != SQLITE_TEXT && type != SQLITE_BLOB)
			continue;
		if ((t = (const char *)sqlite3_column_text(s, cols[i])) == NULL)
			return ev_err_nomem(err);
		len = (size_t)sqlite3_column_bytes(s, cols[i]);
		while ((k += ev_utf8_bad(t + k, len - k)) < len && t[k] == '\0')
			k++;	/* (a NUL byte is text JSON carries) */
		if (k < len)
			return ev_err_set(err, EV_EXIT_RUNTIME, st->path, "%s %lld: its %s is not"
			    " UTF-8: the store is damaged (ingest its document again)", what, rowid,
			    names[i]);
	}
	return 0;
}
