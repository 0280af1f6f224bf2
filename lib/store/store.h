/* store.h: the SQLite store: documents, their chunks, the FTS5 index of the
 * chunks, and a key/value table for what other modules record (the embedding
 * model, the Faiss index).
 *
 * Middle layer: includes err.h, analyze.h and SQLite.  Opened in WAL mode
 * with a busy timeout, so readers keep working while one writer writes;
 * every connection has the "evkit" tokeniser (analyze.h) registered.
 *
 * Schema (version 2):
 *   documents(doc_id TEXT PRIMARY KEY, source TEXT, title, source_uri,
 *             source_type, language, published_date, metadata TEXT (JSON),
 *             content_hash TEXT, length INTEGER, ingested_at TEXT)
 *   chunks(rowid INTEGER PRIMARY KEY, id TEXT UNIQUE, doc_id, section_id,
 *          chunk_index, title, section_title, section_path, text,
 *          offset_start, offset_end, content_hash, language)
 *     -- rowid is the chunk's number in the vector index; it is kept while a
 *     -- chunk's id and content hash stay the same; language is the code
 *     -- its document declares, else the one found from its text (langid.h).
 *   chunks_src: a view of chunks, each indexed column tagged with the
 *     chunk's language (EV_STORE_TAG), as the tokeniser reads it
 *   chunks_fts: FTS5(title, section_title, text), external content
 *     'chunks_src', tokenize 'evkit' (EV_STORE_TOKENIZE, analyze.h)
 *   chunks_vocab: fts5vocab(chunks_fts, 'row') -- the text lane's vocabulary
 *   meta(key TEXT PRIMARY KEY, value TEXT)
 * Writers keep chunks_fts in step with chunks (corpus.h).
 *
 * Version 1 (evkit 0.x before the "evkit" tokeniser: FTS5's porter
 * unicode61, no chunk language) is refused with the command that upgrades
 * it in place: ev-ingest --db FILE --reindex (ev_store_reindex()). */
#ifndef EV_STORE_H
#define EV_STORE_H

#include <sqlite3.h>

#include "analyze.h"
#include "err.h"

#define EV_STORE_TOKENIZE "evkit"
#define EV_STORE_SCHEMA_VERSION 2

/* meta's record of the version of the analysis the full-text index was
 * made with (analyze.h, EV_ANALYZE_INDEX_VERSION; none: 1). */
#define EV_STORE_ANALYSIS_KEY EV_ANALYZE_META_KEY

/* SQL: the terms of the full-text index as the analysis of words gives
 * them (analyze.h): its stems untagged, the words themselves left out;
 * columns term, doc, cnt (chunks_vocab's). */
#define EV_STORE_STEMS_SQL "SELECT CASE WHEN term GLOB char(31) || '*' THEN" \
	" substr(term, instr(substr(term, 2), char(31)) + 2) ELSE term END AS term, doc, cnt" \
	" FROM chunks_vocab WHERE term NOT GLOB char(31) || char(31) || '*'"

/* SQL: column col tagged with language lang (SQL expressions) for the
 * tokeniser: NULL lang leaves it as it is. */
#define EV_STORE_TAG(lang, col) "CASE WHEN " lang " IS NULL THEN " col \
	" ELSE char(31) || " lang " || char(31) || coalesce(" col ", '') END"

enum {
	EV_STORE_READ = 0,	/* the store must exist; reads only */
	EV_STORE_WRITE = 1,	/* the store must exist */
	EV_STORE_CREATE = 2,	/* created (with its schema) when missing */
	EV_STORE_UPGRADE = 3	/* as WRITE, and a store of an older schema is opened
				 * (for ev_store_reindex()) */
};

struct ev_store;

/* The store's chunk languages and their chunks, the most frequent first,
 * ties by code (the text lane's query languages: token.h). */
#define EV_STORE_LANGS_SQL "SELECT language, count(*) FROM chunks WHERE language IS NOT NULL" \
	" GROUP BY language ORDER BY count(*) DESC, language"

/* Open the store at path.  Returns the store, or NULL with *err set: code 1
 * when it cannot be opened, 2 when the file is not an evkit store or one of
 * an older schema (with what to do next), or path is empty (SQLite's
 * temporary database).  A missing store in READ/WRITE mode says to run
 * ev-ingest.  Its connection has the SQL function evkit_date_days(D): the
 * moment a published_date D names, in days since 1970-01-01 UTC, whatever
 * its form (ev_clock_date_days(); NULL when D is no such date), which
 * SQLite's julianday() is not ("2025" is its day 2025, "2025-06" none);
 * and evkit_date_ms(D), the same moment to the millisecond, an integer
 * (ev_clock_days_ms()). */
struct ev_store *ev_store_open(const char *path, int mode, struct ev_err *err);

/* Close the store (NULL-safe).  An open transaction is rolled back. */
void ev_store_close(struct ev_store *st);

/* The SQLite connection, for modules that keep their own tables or queries. */
sqlite3 *ev_store_db(struct ev_store *st);

/* The store's file name, for messages. */
const char *ev_store_path(const struct ev_store *st);

/* Whether the text of columns cols[0..n) of s's current row (a statement of
 * st's; names[i] the column's name for a message) is UTF-8, as evkit writes
 * every text (NUL bytes aside): a store damaged by hand or by a disk may hold
 * other bytes, which JSON cannot carry.  Returns 0, or -1 with *err set
 * (code 1, naming the store, the row as what and rowid -- "chunk rowid 12"
 * -- and the column, and how to repair it; out of memory). */
int ev_store_row_utf8(struct ev_store *st, sqlite3_stmt *s, const int *cols,
	const char *const *names, int n, const char *what, long long rowid, struct ev_err *err);

/* Transactions: BEGIN IMMEDIATE (waiting for other writers up to the busy
 * timeout), COMMIT, ROLLBACK.  Return 0, or -1 with *err set (code 1). */
int ev_store_begin(struct ev_store *st, struct ev_err *err);
int ev_store_commit(struct ev_store *st, struct ev_err *err);
int ev_store_rollback(struct ev_store *st);

/* Run SQL with no result rows (one or more statements).  Returns 0, or -1
 * with *err set (code 1, SQLite's message). */
int ev_store_exec(struct ev_store *st, const char *sql, struct ev_err *err);

/* Prepare a statement (cached by the SQL text for the store's lifetime:
 * do not finalize it; it is reset before it is returned).  Returns NULL with
 * *err set on failure. */
sqlite3_stmt *ev_store_prepare(struct ev_store *st, const char *sql, struct ev_err *err);

/* Fill *err from the connection's last error, code 1, with `what` first
 * ("inserting chunk 'a:b:0': disk I/O error").  Returns -1. */
int ev_store_error(struct ev_store *st, const char *what, struct ev_err *err);

/* The schema version of the store (EV_STORE_SCHEMA_VERSION unless it was
 * opened with EV_STORE_UPGRADE). */
int ev_store_version(const struct ev_store *st);

/* Upgrade a store of schema version 1 in place, in one transaction: each
 * chunk gets its language (lang(ctx, chunk text, declared language or NULL,
 * out): fills out, a normalised code), and chunks_fts is rebuilt with the
 * "evkit" tokeniser.  Chunk rowids, and so vectors and the vector index,
 * stay.  Returns 1 when upgraded, 0 when already current, -1 with *err set
 * (nothing changed). */
int ev_store_reindex(struct ev_store *st, void (*lang)(void *ctx, const char *text, size_t len,
	const char *declared, char *out), void *ctx, struct ev_err *err);

/* The statement (ev_store_prepare()'s: the caller binds ?1 and resets it)
 * whose one row is the number of chunks whose index holds the stem ?1 in
 * any language: untagged (English's, or every language's in an index made
 * before the languages' stems were tagged) or tagged with a stemming
 * language (analyze.h).  A chunk has one language, so the counts add up to
 * what one untagged index counted.  NULL with *err set on failure. */
sqlite3_stmt *ev_store_prepare_stem_df(struct ev_store *st, struct ev_err *err);

/* Bring the full-text index to this evkit's analysis (analyze.h) when
 * meta records an older one: rebuild it, in one transaction (its own:
 * call it outside one).  Chunk rowids, vectors and the vector index stay.
 * Returns 1 when rebuilt, 0 when already current, -1 with *err set
 * (nothing changed). */
int ev_store_reanalyze(struct ev_store *st, struct ev_err *err);

/* FTS5's merge settings for the writes that follow, in the caller's
 * transaction: bulk 1, a bulk load's (no merging as each batch's segment is
 * written, but a level's segments merged at once when it holds
 * EV_STORE_CRISIS of them; ev_store_fts_optimize() may merge all at the
 * end); bulk 0, FTS5's automerge of 4 (a level's segments merged 4 at a
 * time, a little at each write), with the same crisis merge at
 * EV_STORE_CRISIS (FTS5's is 16: the first small run after a bulk load
 * that left its segments, ingest.h, would merge them all at once, and
 * the postings build then merge the index again).  EV_STORE_CRISIS is
 * far above the segments a bulk load of a million documents leaves
 * (about 300, a batch each), whose postings build reads them as they are
 * (fts5seg.h), and below the 2,000 segments FTS5 holds at most.  A
 * setting is written only when it differs from the index's: a write
 * changes the index's structure record (and so makes the postings file
 * stale).  Returns 1 when written, 0 when the index had them already, -1
 * with *err set. */
#define EV_STORE_CRISIS 1000

/* The page size of a store ev_store_open() makes (a store made before
 * keeps its own): 16 KB, not SQLite's 4 KB, so that a bulk load writes a
 * quarter of the pages (each written to the WAL, then to the database by
 * a checkpoint: a system call and a page's bookkeeping each) and the
 * tables' B-trees split a quarter as often.  FTS5's leaves stay its own
 * 4,050 bytes (several to a page).  At 100,000 documents a load took
 * about a tenth less CPU time (docs/speed.md). */
#define EV_STORE_PAGE_SIZE 16384
int ev_store_fts_bulk(struct ev_store *st, int bulk, struct ev_err *err);

/* Merge every segment of the full-text index into one (FTS5's 'optimize'),
 * in the caller's transaction.  Returns 0, or -1 with *err set. */
int ev_store_fts_optimize(struct ev_store *st, struct ev_err *err);

/* Ask the kernel, in one go, for the pages SQLite reads for the chunk rows
 * rowid[0..n) and for their documents' rows (found by doc_id), so that the
 * disk reads those out of the page cache side by side, not one after
 * another (readahead.h).  Only a hint: nothing changes and nothing fails.
 * pages (NULL, or 3n entries), for tests: for chunk i, the page of its
 * chunk row, of its document's doc_id entry and of its document row, 0
 * where one was not found. */
void ev_store_readahead_chunks(struct ev_store *st, const long long *rowid, size_t n, unsigned *pages);

/* ev_store_readahead_chunks() in two steps, for a caller that asks on a
 * thread of its own while it reads the store on this one: ready (on the
 * store's thread: it reads the schema, once) returns 1 when the store can
 * read ahead, else 0; walk (after ready said 1, on any thread) uses the
 * store's file alone, never its connection, and may run while the store
 * is read, until it is closed. */
int ev_store_readahead_ready(struct ev_store *st);
void ev_store_readahead_walk(struct ev_store *st, const long long *rowid, size_t n, unsigned *pages);

/* meta: get returns 1 with *value (malloc'd, the caller frees) when the key
 * exists, 0 when not, -1 on error; set replaces. */
int ev_store_meta_get(struct ev_store *st, const char *key, char **value, struct ev_err *err);
int ev_store_meta_set(struct ev_store *st, const char *key, const char *value, struct ev_err *err);

#endif
