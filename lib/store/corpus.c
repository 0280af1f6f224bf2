/* corpus.c: documents and chunks in the store.  See corpus.h. */
#include "corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "langid.h"

/* The statements of a put, prepared once (ev_store_prepare() keeps them). */
enum {
	S_UNCHANGED, S_LOAD_OLD, S_FTS_INSERT, S_FTS_INSERT_TAGGED, S_ROWID_MAX, S_PUT_DOC,
	S_INSERT_CHUNK, S_SEEN, S_COUNT
};

struct ev_corpus {
	struct ev_store *st;
	sqlite3 *db;
	sqlite3_stmt *stmt[S_COUNT];
	/* The highest chunk rowid given out, kept for the transaction that read
	 * it (the commit and rollback hooks forget it); dirty until
	 * ev_corpus_sync() has written it to meta. */
	sqlite3_int64 next;
	int have_next, dirty;
	struct ev_lex *lex;	/* stop lists: the language of a chunk of no declared one */
	time_t stamp_at;	/* ingested_at, formatted once a second */
	char stamp[32];
};

/* A chunk as it is stored, loaded before a put. */
struct old {
	sqlite3_int64 rowid;
	char *id, *hash, *title, *stitle, *spath, *sid, *text;
	int index;
	sqlite3_int64 os, oe;
	int kept;
	char lang[EV_ANALYZE_CODE_MAX];	/* "" when none */
};

static char *
col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *v = sqlite3_column_text(s, i);

	return v ? strdup((const char *)v) : NULL;
}

static int
same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b || (a == NULL && *b == '\0') || (b == NULL && *a == '\0');
	return strcmp(a, b) == 0;
}

static int
by_id(const void *a, const void *b)
{
	return strcmp(((const struct old *)a)->id, ((const struct old *)b)->id);
}

static void
bind_str(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

/* Statement i (sql), prepared on first use. */
static sqlite3_stmt *
stmt(struct ev_corpus *c, int i, const char *sql, struct ev_err *err)
{
	if (c->stmt[i] == NULL)
		return c->stmt[i] = ev_store_prepare(c->st, sql, err);
	sqlite3_reset(c->stmt[i]);
	return c->stmt[i];
}

/* Step a statement that returns no rows; reset it. */
static int
run(struct ev_corpus *c, sqlite3_stmt *s, const char *what, struct ev_err *err)
{
	int r = sqlite3_step(s);

	sqlite3_reset(s);
	if (r != SQLITE_DONE && r != SQLITE_ROW)
		return ev_store_error(c->st, what, err);
	return 0;
}

/* The end of a transaction: the rowid read in it may be stale.  A commit
 * with a rowid not yet written to meta is refused (turned into a rollback):
 * ev_corpus_sync() was not called, and a rowid could be given out twice. */
static int
on_commit(void *p)
{
	struct ev_corpus *c = p;

	c->have_next = 0;
	return c->dirty;
}

static void
on_rollback(void *p)
{
	struct ev_corpus *c = p;

	c->have_next = 0;
	c->dirty = 0;
}

struct ev_corpus *
ev_corpus_open(struct ev_store *st, struct ev_err *err)
{
	struct ev_corpus *c;

	if (ev_store_exec(st, "CREATE TEMP TABLE IF NOT EXISTS corpus_seen"
	    " (doc_id TEXT PRIMARY KEY); DELETE FROM temp.corpus_seen;", err) == -1)
		return NULL;
	if ((c = calloc(1, sizeof *c)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	c->st = st;
	c->db = ev_store_db(st);
	if ((c->lex = ev_lex_open(NULL, err)) == NULL) {
		free(c);
		return NULL;
	}
	sqlite3_commit_hook(c->db, on_commit, c);
	sqlite3_rollback_hook(c->db, on_rollback, c);
	return c;
}

void
ev_corpus_free(struct ev_corpus *c)
{
	if (c == NULL)
		return;
	sqlite3_commit_hook(c->db, NULL, NULL);
	sqlite3_rollback_hook(c->db, NULL, NULL);
	ev_lex_close(c->lex);
	free(c);
}

int
ev_corpus_sync(struct ev_corpus *c, struct ev_err *err)
{
	char v[32];

	if (!c->dirty)
		return 0;
	snprintf(v, sizeof v, "%lld", (long long)c->next);
	c->dirty = 0;	/* before: outside a transaction the write commits itself */
	if (ev_store_meta_set(c->st, EV_CORPUS_ROWID_KEY, v, err) == -1) {
		c->dirty = !sqlite3_get_autocommit(c->db);
		return -1;
	}
	return 0;
}

int
ev_corpus_unchanged(struct ev_corpus *c, const char *id, const char *content_hash,
	const char *source, struct ev_err *err)
{
	sqlite3_stmt *s;
	int r, same_hash = 0, same_source = 1;

	s = stmt(c, S_UNCHANGED, "SELECT content_hash, source FROM documents WHERE doc_id = ?", err);
	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	r = sqlite3_step(s);
	if (r == SQLITE_ROW) {
		const char *h = (const char *)sqlite3_column_text(s, 0);
		const char *src = (const char *)sqlite3_column_text(s, 1);

		same_hash = h && strcmp(h, content_hash) == 0;
		same_source = same(src, source);
	}
	sqlite3_reset(s);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return ev_store_error(c->st, "reading a document", err);
	if (same_hash && !same_source) {
		s = ev_store_prepare(c->st, "UPDATE documents SET source = ? WHERE doc_id = ?", err);
		if (s == NULL)
			return -1;
		bind_str(s, 1, source);
		sqlite3_bind_text(s, 2, id, -1, SQLITE_STATIC);
		if (run(c, s, "updating a document's source", err) == -1)
			return -1;
	}
	return same_hash;
}

static void
free_old(struct old *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].id);
		free(o[i].hash);
		free(o[i].title);
		free(o[i].stitle);
		free(o[i].spath);
		free(o[i].sid);
		free(o[i].text);
	}
	free(o);
}

/* The chunks stored for document id, sorted by chunk id. */
static int
load_old(struct ev_corpus *c, const char *id, struct old **out, size_t *nout, struct ev_err *err)
{
	struct old *o = NULL;
	size_t n = 0, cap = 0;
	sqlite3_stmt *s;
	int r;

	*out = NULL;
	*nout = 0;
	s = stmt(c, S_LOAD_OLD, "SELECT rowid, id, content_hash, title, section_title,"
	    " section_path, section_id, chunk_index, offset_start, offset_end, text, language"
	    " FROM chunks WHERE doc_id = ?", err);
	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		struct old *x;

		if (ev_grow(&o, &cap, n, sizeof *o, 16) == -1)
			goto nomem;
		x = &o[n];
		memset(x, 0, sizeof *x);
		n++;
		x->rowid = sqlite3_column_int64(s, 0);
		x->id = col_dup(s, 1);
		x->hash = col_dup(s, 2);
		x->title = col_dup(s, 3);
		x->stitle = col_dup(s, 4);
		x->spath = col_dup(s, 5);
		x->sid = col_dup(s, 6);
		x->index = sqlite3_column_int(s, 7);
		x->os = sqlite3_column_int64(s, 8);
		x->oe = sqlite3_column_int64(s, 9);
		x->text = col_dup(s, 10);
		if (sqlite3_column_bytes(s, 11) < EV_ANALYZE_CODE_MAX && sqlite3_column_text(s, 11))
			strcpy(x->lang, (const char *)sqlite3_column_text(s, 11));
		if (x->id == NULL || x->hash == NULL || x->text == NULL)
			goto nomem;
	}
	sqlite3_reset(s);
	if (r != SQLITE_DONE) {
		free_old(o, n);
		return ev_store_error(c->st, "reading chunks", err);
	}
	if (n > 1)
		qsort(o, n, sizeof *o, by_id);
	*out = o;
	*nout = n;
	return 0;
nomem:
	sqlite3_reset(s);
	free_old(o, n);
	return ev_err_nomem(err);
}

/* Delete chunk rowid from chunks_fts, with the values it was indexed with
 * (the chunks_src view of its row: it must still be in chunks). */
static int
fts_delete(struct ev_corpus *c, sqlite3_int64 rowid, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(c->st, "INSERT INTO chunks_fts(chunks_fts, rowid, title,"
	    " section_title, text) SELECT 'delete', rowid, title, section_title, text"
	    " FROM chunks_src WHERE rowid = ?", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	return run(c, s, "deleting a chunk from chunks_fts", err);
}

/* Index a chunk in chunks_fts, each column tagged with its language lang
 * ("": none) as the chunks_src view tags it. */
static int
fts_insert(struct ev_corpus *c, sqlite3_int64 rowid, const char *lang, const char *title,
	const char *stitle, const char *text, size_t len, struct ev_err *err)
{
	sqlite3_stmt *s = stmt(c, S_FTS_INSERT, "INSERT INTO chunks_fts(rowid, title,"
	    " section_title, text) VALUES(?1, " EV_STORE_TAG("?5", "?2") ", "
	    EV_STORE_TAG("?5", "?3") ", " EV_STORE_TAG("?5", "?4") ")", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	bind_str(s, 2, title);
	bind_str(s, 3, stitle);
	sqlite3_bind_text(s, 4, text, (int)len, SQLITE_STATIC);
	bind_str(s, 5, lang[0] != '\0' ? lang : NULL);
	return run(c, s, "indexing a chunk in chunks_fts", err);
}

/* Index chunk k in chunks_fts from its columns as the caller tagged them
 * (k->fts_ready): the same values as fts_insert()'s, without SQL making a
 * copy of the text.  A value bound with its NUL after it reaches the
 * tokeniser where it lies, so that the tokeniser finds its recorded
 * tokens (ev_analyze_expect()) without comparing the text. */
static int
fts_insert_tagged(struct ev_corpus *c, sqlite3_int64 rowid, const struct ev_corpus_chunk *k,
	struct ev_err *err)
{
	sqlite3_stmt *s = stmt(c, S_FTS_INSERT_TAGGED, "INSERT INTO chunks_fts(rowid, title,"
	    " section_title, text) VALUES(?1, ?2, ?3, ?4)", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	for (int i = 0; i < 3; i++)
		if (k->fts[i] == NULL)
			sqlite3_bind_null(s, i + 2);
		else
			sqlite3_bind_text(s, i + 2, k->fts[i], k->fts_z[i] ? -1 : (int)k->fts_len[i],
			    SQLITE_STATIC);
	return run(c, s, "indexing a chunk in chunks_fts", err);
}

/* Delete a stored chunk: from chunks_fts, from chunks, rowid to tombstones. */
static int
drop_chunk(struct ev_corpus *c, sqlite3_int64 rowid, const char *title, const char *stitle,
	const char *text, struct ev_err *err)
{
	sqlite3_stmt *s;

	(void)title, (void)stitle, (void)text;
	if (fts_delete(c, rowid, err) == -1)
		return -1;
	if ((s = ev_store_prepare(c->st, "DELETE FROM chunks WHERE rowid = ?", err)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	if (run(c, s, "deleting a chunk", err) == -1)
		return -1;
	s = ev_store_prepare(c->st, "INSERT OR IGNORE INTO chunk_tombstones(rowid) VALUES(?)", err);
	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	return run(c, s, "recording a removed chunk", err);
}

/* The highest chunk rowid ever given out (read once a transaction). */
static int
rowid_max(struct ev_corpus *c, sqlite3_int64 *out, struct ev_err *err)
{
	sqlite3_stmt *s;
	int r;

	if (c->have_next) {
		*out = c->next;
		return 0;
	}
	s = stmt(c, S_ROWID_MAX, "SELECT max(coalesce((SELECT max(rowid) FROM chunks),"
	    " 0), coalesce((SELECT max(rowid) FROM chunk_tombstones), 0),"
	    " coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '"
	    EV_CORPUS_ROWID_KEY "'), 0))", err);
	if (s == NULL)
		return -1;
	r = sqlite3_step(s);
	*out = r == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_reset(s);
	if (r != SQLITE_ROW)
		return ev_store_error(c->st, "reading the highest chunk rowid", err);
	/* Kept only inside a transaction: outside one, another writer may give
	 * out rowids before the next read. */
	if (!sqlite3_get_autocommit(c->db)) {
		c->next = *out;
		c->have_next = 1;
	}
	return 0;
}

/* Now, as ingested_at ("2026-01-02T03:04:05Z", UTC). */
static const char *
stamp(struct ev_corpus *c)
{
	time_t t = time(NULL);
	struct tm tm;

	if (t != c->stamp_at || c->stamp[0] == '\0') {
		if (gmtime_r(&t, &tm) == NULL ||
		    strftime(c->stamp, sizeof c->stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
			return NULL;
		c->stamp_at = t;
	}
	return c->stamp;
}

static int
put_doc(struct ev_corpus *c, const struct ev_corpus_doc *d, struct ev_err *err)
{
	sqlite3_stmt *s = stmt(c, S_PUT_DOC, "INSERT INTO documents(doc_id, source, title,"
	    " source_uri, source_type, language, published_date, metadata, content_hash, length,"
	    " ingested_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	    " ON CONFLICT(doc_id) DO UPDATE SET source = excluded.source, title = excluded.title,"
	    " source_uri = excluded.source_uri, source_type = excluded.source_type,"
	    " language = excluded.language, published_date = excluded.published_date,"
	    " metadata = excluded.metadata, content_hash = excluded.content_hash,"
	    " length = excluded.length, ingested_at = excluded.ingested_at", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, d->id, -1, SQLITE_STATIC);
	bind_str(s, 2, d->source);
	bind_str(s, 3, d->title);
	bind_str(s, 4, d->source_uri);
	bind_str(s, 5, d->source_type);
	bind_str(s, 6, d->language);
	bind_str(s, 7, d->published_date);
	bind_str(s, 8, d->metadata);
	sqlite3_bind_text(s, 9, d->content_hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 10, (sqlite3_int64)d->length);
	bind_str(s, 11, stamp(c));
	return run(c, s, "storing a document", err);
}

/* The title a chunk is stored and indexed with: its document's, unless the
 * chunk's text is that title. */
static const char *
chunk_title(const struct ev_corpus_doc *d, const struct ev_corpus_chunk *k)
{
	return k->title_is_text ? NULL : d->title;
}

/* The language of chunk k of document d: the one d declares, else the
 * language of the chunk's text (unless the caller found it). */
static void
chunk_lang(const struct ev_corpus *c, const struct ev_corpus_doc *d, const struct ev_corpus_chunk *k,
	char lang[EV_ANALYZE_CODE_MAX])
{
	if (k->lang != NULL)
		snprintf(lang, EV_ANALYZE_CODE_MAX, "%s", k->lang);
	else
		ev_langid_doc(c->lex, d->language, k->text, k->len, lang);
}

static int
insert_chunk(struct ev_corpus *c, sqlite3_int64 rowid, const struct ev_corpus_doc *d,
	const struct ev_corpus_chunk *k, struct ev_err *err)
{
	sqlite3_stmt *s = stmt(c, S_INSERT_CHUNK, "INSERT INTO chunks(rowid, id, doc_id, section_id,"
	    " chunk_index, title, section_title, section_path, text, offset_start, offset_end,"
	    " content_hash, language) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	char lang[EV_ANALYZE_CODE_MAX];

	if (s == NULL)
		return -1;
	chunk_lang(c, d, k, lang);
	sqlite3_bind_int64(s, 1, rowid);
	sqlite3_bind_text(s, 2, k->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, d->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, k->section_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 5, k->chunk_index);
	bind_str(s, 6, chunk_title(d, k));
	bind_str(s, 7, k->section_title);
	bind_str(s, 8, k->section_path);
	sqlite3_bind_text(s, 9, k->text, (int)k->len, SQLITE_STATIC);
	sqlite3_bind_int64(s, 10, (sqlite3_int64)k->offset_start);
	sqlite3_bind_int64(s, 11, (sqlite3_int64)k->offset_end);
	sqlite3_bind_text(s, 12, k->content_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 13, lang, -1, SQLITE_STATIC);
	if (run(c, s, "storing a chunk", err) == -1)
		return -1;
	if (k->fts_ready && k->lang != NULL)
		return fts_insert_tagged(c, rowid, k, err);
	return fts_insert(c, rowid, lang, chunk_title(d, k), k->section_title, k->text, k->len, err);
}

/* A kept chunk whose place, titles or language changed (retitled: titles
 * or language, which its index entry holds). */
static int
update_chunk(struct ev_corpus *c, const struct old *o, const struct ev_corpus_doc *d,
	const struct ev_corpus_chunk *k, int retitled, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(c->st, "UPDATE chunks SET section_id = ?, chunk_index = ?,"
	    " title = ?, section_title = ?, section_path = ?, offset_start = ?, offset_end = ?,"
	    " language = ? WHERE rowid = ?", err);
	char lang[EV_ANALYZE_CODE_MAX];

	if (s == NULL)
		return -1;
	chunk_lang(c, d, k, lang);
	if (retitled && fts_delete(c, o->rowid, err) == -1)
		return -1;
	sqlite3_bind_text(s, 1, k->section_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 2, k->chunk_index);
	bind_str(s, 3, chunk_title(d, k));
	bind_str(s, 4, k->section_title);
	bind_str(s, 5, k->section_path);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)k->offset_start);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)k->offset_end);
	sqlite3_bind_text(s, 8, lang, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 9, o->rowid);
	if (run(c, s, "updating a chunk", err) == -1)
		return -1;
	if (retitled)
		return fts_insert(c, o->rowid, lang, chunk_title(d, k), k->section_title, o->text,
		    strlen(o->text), err);
	return 0;
}

int
ev_corpus_put(struct ev_corpus *c, const struct ev_corpus_doc *d,
	const struct ev_corpus_chunk *ch, size_t n, unsigned char *changed, struct ev_err *err)
{
	struct old *old = NULL, key, *o;
	size_t nold = 0, i;
	struct old **match = NULL;
	sqlite3_int64 next = 0, first;
	int rc = -1;

	if (put_doc(c, d, err) == -1 || load_old(c, d->id, &old, &nold, err) == -1)
		return -1;
	if (n > 0 && (match = calloc(n, sizeof *match)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		key.id = (char *)ch[i].id;
		o = nold ? bsearch(&key, old, nold, sizeof *old, by_id) : NULL;
		if (o && strcmp(o->hash, ch[i].content_hash) == 0) {
			o->kept = 1;
			match[i] = o;
		}
	}
	for (i = 0; i < nold; i++)
		if (!old[i].kept && drop_chunk(c, old[i].rowid, old[i].title, old[i].stitle,
		    old[i].text, err) == -1)
			goto out;
	if (rowid_max(c, &next, err) == -1)
		goto out;
	first = next;
	for (i = 0; i < n; i++) {
		const struct ev_corpus_chunk *k = &ch[i];

		if ((o = match[i]) != NULL) {
			char lang[EV_ANALYZE_CODE_MAX];
			int retitled;

			chunk_lang(c, d, k, lang);
			retitled = !same(o->title, chunk_title(d, k)) ||
			    !same(o->stitle, k->section_title) || strcmp(o->lang, lang) != 0;

			changed[i] = (unsigned char)retitled;
			if ((retitled || !same(o->spath, k->section_path) ||
			    !same(o->sid, k->section_id) || o->index != k->chunk_index ||
			    o->os != (sqlite3_int64)k->offset_start ||
			    o->oe != (sqlite3_int64)k->offset_end) &&
			    update_chunk(c, o, d, k, retitled, err) == -1)
				goto out;
			continue;
		}
		changed[i] = 1;
		if (insert_chunk(c, ++next, d, k, err) == -1)
			goto out;
	}
	if (next != first) {
		c->next = next;
		c->dirty = 1;
		/* outside a transaction, each statement commits by itself */
		if ((sqlite3_get_autocommit(c->db) || !c->have_next) &&
		    ev_corpus_sync(c, err) == -1)
			goto out;
	}
	rc = 0;
out:
	free(match);
	free_old(old, nold);
	return rc;
}

int
ev_corpus_delete(struct ev_corpus *c, const char *id, struct ev_err *err)
{
	struct old *old = NULL;
	size_t nold = 0;
	sqlite3_stmt *s;
	int rc = -1;

	if (load_old(c, id, &old, &nold, err) == -1)
		return -1;
	for (size_t i = 0; i < nold; i++)
		if (drop_chunk(c, old[i].rowid, old[i].title, old[i].stitle, old[i].text, err) == -1)
			goto out;
	if ((s = ev_store_prepare(c->st, "DELETE FROM documents WHERE doc_id = ?", err)) == NULL)
		goto out;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	if (run(c, s, "deleting a document", err) == -1)
		goto out;
	rc = sqlite3_changes(c->db) > 0;
out:
	free_old(old, nold);
	return rc;
}

int
ev_corpus_seen(struct ev_corpus *c, const char *id, struct ev_err *err)
{
	sqlite3_stmt *s = stmt(c, S_SEEN,
	    "INSERT OR IGNORE INTO temp.corpus_seen(doc_id) VALUES(?)", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	return run(c, s, "marking a document seen", err);
}

/* Delete the documents of source that sql selects (bound: ?1 the source),
 * adding their number to *n. */
static int
delete_selected(struct ev_corpus *c, const char *sql, const char *source, long long *n,
	struct ev_err *err)
{
	char **ids = NULL;
	size_t nids = 0, cap = 0, i;
	sqlite3_stmt *s;
	int r, rc = -1;

	if ((s = ev_store_prepare(c->st, sql, err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, source, -1, SQLITE_STATIC);
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		if (ev_grow(&ids, &cap, nids, sizeof *ids, 16) == -1) {
			r = SQLITE_NOMEM;
			break;
		}
		if ((ids[nids] = col_dup(s, 0)) == NULL) {
			r = SQLITE_NOMEM;
			break;
		}
		nids++;
	}
	sqlite3_reset(s);
	if (r == SQLITE_NOMEM) {
		ev_err_nomem(err);
		goto out;
	}
	if (r != SQLITE_DONE) {
		ev_store_error(c->st, "finding documents to delete", err);
		goto out;
	}
	for (i = 0; i < nids; i++) {
		if (ev_corpus_delete(c, ids[i], err) == -1)
			goto out;
		(*n)++;
	}
	rc = 0;
out:
	for (i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	return rc;
}

int
ev_corpus_prune(struct ev_corpus *c, const char *source, long long *n, struct ev_err *err)
{
	return delete_selected(c, "SELECT doc_id FROM documents WHERE source = ?1 AND doc_id NOT IN"
	    " (SELECT doc_id FROM temp.corpus_seen) ORDER BY doc_id", source, n, err);
}

int
ev_corpus_delete_source(struct ev_corpus *c, const char *source, long long *n, struct ev_err *err)
{
	return delete_selected(c, "SELECT doc_id FROM documents WHERE source = ?1 ORDER BY doc_id",
	    source, n, err);
}

int
ev_corpus_rename(struct ev_corpus *c, const char *from, const char *to, struct ev_err *err)
{
	sqlite3_stmt *s;

	s = ev_store_prepare(c->st, "UPDATE documents SET doc_id = ?2,"
	    " source_uri = CASE WHEN source_uri = ?1 THEN ?2 ELSE source_uri END WHERE doc_id = ?1", err);
	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, to, -1, SQLITE_STATIC);
	if (run(c, s, "renaming a document", err) == -1)
		return -1;
	s = ev_store_prepare(c->st, "UPDATE chunks SET doc_id = ?2,"
	    " id = ?2 || substr(id, length(?1) + 1) WHERE doc_id = ?1", err);
	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, to, -1, SQLITE_STATIC);
	return run(c, s, "renaming a document's chunks", err);
}
