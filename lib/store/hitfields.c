/* hitfields.c: the chunk fields a hit carries (see hitfields.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "chunk.h"
#include "hitfields.h"
#include "jscan.h"
#include "jsoncopy.h"
#include "jsonl.h"


/* Column i of the current row as text: *t (never NULL: "" for SQL NULL) and
 * *len.  sqlite3_column_text() also returns NULL when it runs out of memory
 * converting a value: then -1 (out of memory), never an empty text. */
static int
col_text(sqlite3_stmt *s, int i, const char **t, size_t *len)
{
	int type = sqlite3_column_type(s, i);

	*t = (const char *)sqlite3_column_text(s, i);
	*len = (size_t)sqlite3_column_bytes(s, i);
	if (*t == NULL) {
		if (type != SQLITE_NULL)
			return -1;
		*t = "";
		*len = 0;
	}
	return 0;
}

/* A document's stored metadata (column i) as a non-empty object in *out, or
 * NULL when there is none (or it is not a JSON object).  Returns 0, or -1
 * when out of memory (which must not read as "no metadata"). */
static int
col_metadata(sqlite3_stmt *s, int i, json_t **out)
{
	struct ev_err pe = { 0 };
	const char *t;
	size_t len;
	json_t *m;

	*out = NULL;
	if (sqlite3_column_type(s, i) != SQLITE_TEXT)
		return 0;
	if (col_text(s, i, &t, &len) == -1)
		return -1;
	if ((m = ev_json_parse_line(t, len, NULL, &pe)) == NULL)
		return pe.code == EV_EXIT_USAGE ? 0 : -1;
	if (json_is_object(m) && json_object_size(m) > 0)
		*out = m;
	else
		json_decref(m);
	return 0;
}


/* The document columns a hit carries when the document declared them, after
 * the chunk's columns, its text, its document's metadata and its language. */
#define DOC_COLUMN_FIRST 14
static const char *const doc_columns[] = { "source_type", "published_date" };
#define N_DOC_COLUMNS (sizeof doc_columns / sizeof *doc_columns)

/* Document column d (of doc_columns) of the current row: 1 with its text in
 * *t and *len, 0 when the document has none, -1 when out of memory. */
static int
doc_column(sqlite3_stmt *s, size_t d, const char **t, size_t *len)
{
	if (sqlite3_column_type(s, DOC_COLUMN_FIRST + (int)d) == SQLITE_NULL)
		return 0;
	return col_text(s, DOC_COLUMN_FIRST + (int)d, t, len) == -1 ? -1 : 1;
}

/* The text columns of chunk_row() a chunk record carries, the chunk's text
 * (11) last: chunk_row() checks the others, ev_hitfields_add() it too. */
static const int text_cols[] = { 0, 1, 2, 3, 4, 5, 6, 10, 13, 14, 15, 11 };
static const char *const text_col_names[] = { "id", "doc_id", "section_id", "title",
	"section_title", "section_path", "document's source_uri", "content_hash", "language",
	"document's source_type", "document's published_date", "text" };
#define N_TEXT_COLS ((int)(sizeof text_cols / sizeof *text_cols))

/* Whether text columns text_cols[from, to) of the current row of s (chunk
 * rowid's) are UTF-8: 0, or -1 with *err set and s reset
 * (ev_store_row_utf8(): a damaged store). */
static int
row_utf8(struct ev_store *st, sqlite3_stmt *s, int64_t rowid, int from, int to,
	struct ev_err *err)
{
	if (ev_store_row_utf8(st, s, text_cols + from, text_col_names + from, to - from,
	    "chunk rowid", (long long)rowid, err) == 0)
		return 0;
	sqlite3_reset(s);
	return -1;
}

/* Step the store's row of chunk rowid: its fields, its text and its
 * document's metadata, in the order the hit fields are written.  Returns 1
 * with *out on the row (reset by the next ev_store_prepare()), 0 when there
 * is no such chunk, -1 with *err set (a text that is not UTF-8, the chunk's
 * own aside: a damaged store, ev_store_row_utf8()). */
static int
chunk_row(struct ev_store *st, int64_t rowid, sqlite3_stmt **out, struct ev_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if ((s = ev_store_prepare(st, "SELECT c.id, c.doc_id, c.section_id, c.title, c.section_title,"
		" c.section_path, d.source_uri, c.chunk_index, c.offset_start, c.offset_end,"
		" c.content_hash, c.text, d.metadata, c.language, d.source_type, d.published_date"
		" FROM chunks c"
		" LEFT JOIN documents d ON d.doc_id = c.doc_id WHERE c.rowid = ?", err)) == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(s);
		if (rc == SQLITE_DONE)
			return 0;
		return ev_store_error(st, "reading a chunk", err);
	}
	if (row_utf8(st, s, rowid, 0, N_TEXT_COLS - 1, err) == -1)
		return -1;
	*out = s;
	return 1;
}

/* The chunk's text (column i) in *text (malloc'd), NULL for SQL NULL.
 * Returns 0, or -1 when out of memory. */
static int
col_strdup(sqlite3_stmt *s, int i, char **text)
{
	const char *t;
	size_t len;

	*text = NULL;
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return 0;
	if (col_text(s, i, &t, &len) == -1 || (*text = strndup(t, len)) == NULL)
		return -1;
	return 0;
}

int
ev_hitfields_add(struct ev_store *st, int64_t rowid, json_t *obj, char **text, struct ev_err *err)
{
	static const char *const names[] = { "id", "doc_id", "section_id", "title", "section_title",
		"section_path", "source_uri", "chunk_index", "offset_start", "offset_end",
		"content_hash" };
	sqlite3_stmt *s;
	json_t *m = NULL;
	int rc, n = (int)(sizeof names / sizeof names[0]), bad = 0;

	*text = NULL;
	if ((rc = chunk_row(st, rowid, &s, err)) != 1)
		return rc;
	if (row_utf8(st, s, rowid, N_TEXT_COLS - 1, N_TEXT_COLS, err) == -1)
		return -1;	/* (its text too, which the caller makes JSON of) */
	for (int i = 0; i < n && !bad; i++) {
		json_t *v = NULL;
		const char *t;
		size_t len;

		switch (sqlite3_column_type(s, i)) {
		case SQLITE_INTEGER:
			v = json_integer(sqlite3_column_int64(s, i));
			break;
		case SQLITE_FLOAT:
			v = json_real(sqlite3_column_double(s, i));
			break;
		case SQLITE_NULL:
			v = json_null();
			break;
		default:
			if (col_text(s, i, &t, &len) == 0)
				v = json_stringn(t, len);
		}
		/* json_object_set_new() takes v, and fails on NULL */
		if (json_object_set_new(obj, names[i], v) == -1)
			bad = 1;
	}
	/* the document's metadata with the chunk's clause id */
	if (!bad && (col_metadata(s, n + 1, &m) == -1 ||
	    ev_hitfields_clause((const char *)sqlite3_column_text(s, 5), &m) == -1)) {
		json_decref(m);
		bad = 1;
	}
	if (!bad && m != NULL && json_object_set_new(obj, "metadata", m) == -1)
		bad = 1;
	for (size_t d = 0; d < N_DOC_COLUMNS && !bad; d++) {
		const char *t;
		size_t len;
		int has = doc_column(s, d, &t, &len);

		if (has == -1 || (has == 1 &&
		    json_object_set_new(obj, doc_columns[d], json_stringn(t, len)) == -1))
			bad = 1;
	}
	if (!bad && col_strdup(s, n, text) == -1)
		bad = 1;
	sqlite3_reset(s);
	return bad ? ev_err_nomem(err) : 1;
}

/* ---- Writing hit fields as JSON text ----------------------------------- */

/* The hit's metadata, the document's (column i) with the clause id of the
 * chunk whose section path is column p (ev_hitfields_clause()), as
 * ",\"metadata\":{...}" at the end of b, written as col_metadata()'s object
 * would be, without building it, with *at the offset of its opening brace;
 * nothing (and *at 0) when there is no clause id and the document's is
 * none, or not a JSON object with members.  Returns 0, or -1 when out of
 * memory. */
static int
put_metadata(sqlite3_stmt *s, int i, int p, struct ev_buf *b, size_t *at)
{
	struct ev_jscan js = { 0 };
	struct ev_err pe = { 0 };
	struct ev_buf quoted = EV_BUF_INIT;
	struct ev_jscan_set set = { "clause_id", NULL, 0 };
	const char *t = NULL, *clause;
	size_t len = 0, cn;
	int type = -1, r = 0;

	*at = 0;
	clause = ev_chunk_clause_of((const char *)sqlite3_column_text(s, p), &cn);
	if (sqlite3_column_type(s, i) == SQLITE_TEXT) {
		if (col_text(s, i, &t, &len) == -1)
			return -1;
		type = ev_jscan_value(&js, t, len, NULL, &pe);
		if (type == -1 && pe.code != EV_EXIT_USAGE)
			r = -1;
	}
	if (r == 0 && (clause != NULL || (type == EV_JOBJ && js.top.n > 0))) {
		r = ev_buf_adds(b, ",\"metadata\":");
		*at = b->len;
		if (clause == NULL) {
			r |= ev_jscan_put_value(b, t, len);
		} else {	/* the chunk's clause id in place of the document's */
			r |= ev_jscan_put_str(&quoted, clause, cn);
			set.value = quoted.p;
			set.vlen = quoted.len;
			r |= ev_jscan_put_object(b, js.top.m, type == EV_JOBJ ? js.top.n : 0, &set, 1);
		}
	}
	ev_buf_release(&quoted);
	ev_jscan_release(&js);
	return r;
}

int
ev_hitfields_json(struct ev_store *st, int64_t rowid, struct ev_buf *b, char **text,
	size_t *meta, struct ev_err *err)
{
	static const char *const names[] = { "\"id\":", ",\"doc_id\":", ",\"section_id\":",
		",\"title\":", ",\"section_title\":", ",\"section_path\":", ",\"source_uri\":",
		",\"chunk_index\":", ",\"offset_start\":", ",\"offset_end\":", ",\"content_hash\":" };
	sqlite3_stmt *s;
	size_t at;
	int rc, n = (int)(sizeof names / sizeof names[0]), bad = 0;

	if (text)
		*text = NULL;
	if (meta)
		*meta = 0;
	if ((rc = chunk_row(st, rowid, &s, err)) != 1)
		return rc;
	for (int i = 0; i < n && !bad; i++) {
		const char *t;
		size_t len;

		bad |= ev_buf_adds(b, names[i]);
		switch (sqlite3_column_type(s, i)) {
		case SQLITE_INTEGER:
			/* formatted here: SQLite's text of it needs an allocation */
			bad |= ev_jscan_put_int(b, (long long)sqlite3_column_int64(s, i));
			break;
		case SQLITE_FLOAT:
			bad |= ev_jscan_put_real(b, sqlite3_column_double(s, i));
			break;
		case SQLITE_NULL:
			bad |= ev_buf_adds(b, "null");
			break;
		default:
			if (col_text(s, i, &t, &len) == -1)
				bad = 1;
			else
				bad |= ev_jscan_put_str(b, t, len);
		}
	}
	/* the document's source type and date, when it declared them */
	for (size_t d = 0; d < N_DOC_COLUMNS && !bad; d++) {
		const char *t;
		size_t len;
		int has = doc_column(s, d, &t, &len);

		if (has == -1)
			bad = 1;
		else if (has == 1)
			bad |= ev_buf_printf(b, ",\"%s\":", doc_columns[d]) | ev_jscan_put_str(b, t, len);
	}
	/* the chunk's language, as the text lane's hits have it */
	if (!bad && sqlite3_column_type(s, n + 2) != SQLITE_NULL) {
		const char *t;
		size_t len;

		if (col_text(s, n + 2, &t, &len) == -1)
			bad = 1;
		else
			bad |= ev_buf_adds(b, ",\"language\":") | ev_jscan_put_str(b, t, len);
	}
	if (!bad && put_metadata(s, n + 1, 5, b, &at) == -1)
		bad = 1;
	if (!bad && meta)
		*meta = at;
	if (!bad && text && col_strdup(s, n, text) == -1)
		bad = 1;
	sqlite3_reset(s);
	return bad ? ev_err_nomem(err) : 1;
}

int
ev_hitfields_clause(const char *path, json_t **meta)
{
	const char *clause;
	size_t n;

	if ((clause = ev_chunk_clause_of(path, &n)) == NULL)
		return 0;
	if (*meta == NULL && (*meta = json_object()) == NULL)
		return -1;
	return json_object_set_new(*meta, "clause_id", json_stringn(clause, n));
}

int
ev_hitfields_owned(const char *key)
{
	static const char *const owned[] = {
		"id", "doc_id", "section_id", "title", "section_title", "section_path", "source_uri",
		"source_type", "chunk_index", "offset_start", "offset_end", "content_hash",
		"content_ref", "published_date", "language", "metadata", "text", "page", "page_end",
		"bbox", "bbox_norm", "chunks", "rank", "score", "lane", "signals", "evidence",
		"snippet", "vector", "vectors", NULL
	};

	for (int i = 0; owned[i] != NULL; i++)
		if (strcmp(key, owned[i]) == 0)
			return 1;
	return 0;
}

json_t *
ev_hitfields_query_fields(const json_t *q)
{
	json_t *c = ev_jsoncopy_shallow(q), *v;
	const char *key;
	void *tmp;

	if (c != NULL)
		json_object_foreach_safe(c, tmp, key, v)
			if (ev_hitfields_owned(key))
				json_object_del(c, key);
	return c;
}

int
ev_hitfields_stamp(json_t *hit, json_t *stamp)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(hit, "evidence"), i, e)
		if (json_is_object(e) && json_object_set(e, "retrieved_at", stamp) == -1)
			return -1;
	return 0;
}
