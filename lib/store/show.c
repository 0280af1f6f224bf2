/* show.c: references resolved to stored evidence.  See show.h. */
#include "show.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "hitfields.h"
#include "jscan.h"
#include "jsonl.h"
#include "region.h"

/* ---- parsing ---- */

/* A count of 1 to 1e9 at s[0..n), all digits. */
static long
page_number(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 9 || s[0] == '0')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Four finite numbers "X0,Y0,X1,Y1" at s[0..n) with x0 <= x1, y0 <= y1,
 * each plain decimal without a '+' (as ev-search-mv writes them, "%.10g"). */
static int
box_of(const char *s, size_t n, double box[4])
{
	char buf[160], *p = buf, *comma;

	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (int i = 0; i < 4; i++) {
		if ((comma = strchr(p, ',')) != NULL)
			*comma = '\0';
		if ((comma == NULL) != (i == 3) || *p == '+' || ev_config_number_text(p) == 0)
			return -1;
		box[i] = strtod(p, NULL);
		if (!isfinite(box[i]))
			return -1;
		p = comma + 1;
	}
	return box[0] <= box[2] && box[1] <= box[3] ? 0 : -1;
}

/* Does s[0..n) hold a control character (a tab, a new line, U+0001 ...)? */
static int
has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 1;
	return 0;
}

int
ev_show_put_ref(struct ev_buf *b, const char *ref, size_t n)
{
	return has_control(ref, n) ? ev_jscan_put_str(b, ref, n) : ev_buf_add(b, ref, n);
}

/* The last occurrence of needle (nl bytes) in s[0..n), or NULL. */
static const char *
last_of(const char *s, size_t n, const char *needle, size_t nl)
{
	for (size_t i = n >= nl ? n - nl + 1 : 0; i-- > 0;)
		if (memcmp(s + i, needle, nl) == 0)
			return s + i;
	return NULL;
}

/* A page reference's tail, "doc::" taken off: ID::page-N[::bbox-...]. */
static int
parse_page(const char *s, size_t n, struct ev_ref *out, const char **why)
{
	const char *pg = last_of(s, n, "::page-", 7), *bx, *num;
	size_t nn;

	*why = "a page reference is doc::ID::page-N or doc::ID::page-N::bbox-X0,Y0,X1,Y1";
	if (pg == NULL || pg == s)
		return -1;
	num = pg + 7;
	nn = n - (size_t)(num - s);
	if ((bx = last_of(num, nn, "::bbox-", 7)) != NULL) {
		out->kind = EV_REF_REGION;
		if (box_of(bx + 7, nn - (size_t)(bx + 7 - num), out->box) == -1) {
			*why = "a box is bbox-X0,Y0,X1,Y1, four numbers with X0 <= X1 and Y0 <= Y1";
			return -1;
		}
		nn = (size_t)(bx - num);
	} else
		out->kind = EV_REF_PAGE;
	if ((out->page = page_number(num, nn)) == 0) {
		*why = "a page is a number from 1";
		return -1;
	}
	return (size_t)(pg - s);
}

/* Set *err (code 2, at where) to "malformed reference 'REF': why", REF s[0..n)
 * cut to 200 bytes and written as ev_show_put_ref() writes it.  Returns -1. */
static int
malformed(const char *s, size_t n, const char *why, const char *where, struct ev_err *err)
{
	struct ev_buf q = EV_BUF_INIT;

	if (ev_show_put_ref(&q, s, n > 200 ? 200 : n) == -1)
		return ev_err_nomem(err);
	ev_err_set(err, EV_EXIT_USAGE, where, "malformed reference '%s': %s", q.p ? q.p : "", why);
	ev_buf_release(&q);
	return -1;
}

int
ev_ref_parse(const char *s, size_t n, struct ev_ref *out, const char *where, struct ev_err *err)
{
	const char *id = s, *why = "an id must not be empty";
	size_t idn = n;

	memset(out, 0, sizeof *out);
	if (n >= 5 && memcmp(s, "doc::", 5) == 0) {
		int k = parse_page(s + 5, n - 5, out, &why);

		if (k < 0)
			goto bad;
		id = s + 5;
		idn = (size_t)k;
	} else if (n >= 6 && memcmp(s, "chunk:", 6) == 0) {
		out->kind = EV_REF_CHUNK;
		id = s + 6;
		idn = n - 6;
	} else if (n >= 4 && memcmp(s, "doc:", 4) == 0) {
		out->kind = EV_REF_DOC;
		id = s + 4;
		idn = n - 4;
	}
	if (idn == 0)	/* any other id ev-ingest stores: tabs, control characters, any length */
		goto bad;
	if ((out->id = malloc(idn + 1)) == NULL)
		return ev_err_nomem(err);
	memcpy(out->id, id, idn);
	out->id[idn] = '\0';
	return 0;
bad:
	return malformed(s, n, why, where, err);
}

int
ev_show_refs_of(const json_t *rec, json_t *refs, const char *where, struct ev_err *err)
{
	const json_t *v, *items, *it;
	size_t i;

	if (json_is_string(rec))
		v = rec;
	else if (!json_is_object(rec))
		v = NULL;
	else if ((items = json_object_get(rec, "evidences")) != NULL) {
		if (!json_is_array(items))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'evidences' must be an array");
		json_array_foreach(items, i, it) {
			v = json_object_get(json_object_get(it, "raw"), "content_ref");
			if (!json_is_string(v))
				return ev_err_set(err, EV_EXIT_USAGE, where, "evidence %zu has no string"
				    " raw.content_ref", i);
			if (json_array_append(refs, (json_t *)v) == -1)
				return ev_err_nomem(err);
		}
		return 0;
	} else if ((v = json_object_get(rec, "content_ref")) == NULL)
		v = json_object_get(rec, "id");
	if (!json_is_string(v))
		return ev_err_set(err, EV_EXIT_USAGE, where, "expected a reference: a string, or an"
		    " object with a string 'content_ref' or 'id', or an EvidencePack");
	return json_array_append(refs, (json_t *)v) == -1 ? ev_err_nomem(err) : 0;
}

/* ---- resolving ---- */

/* Set key of o to a column's text (nothing when NULL).  Returns 0 or -1. */
static int
set_text(json_t *o, const char *key, sqlite3_stmt *s, int col)
{
	if (sqlite3_column_type(s, col) == SQLITE_NULL)
		return 0;
	return json_object_set_new(o, key, json_stringn((const char *)sqlite3_column_text(s, col),
	    (size_t)sqlite3_column_bytes(s, col)));
}

/* Who is told of what the store holds not as ev-ingest writes it: note
 * (NULL for no one) and ctx, and the document's id. */
struct damage {
	ev_note_fn *note;
	void *ctx;
	const char *doc;
};

/* Tell d that what chunk (NULL: the document) holds, damaged as what says
 * ("its stored line 3 has page 1.5, ..."), is left out.  Returns 0 or -1
 * (out of memory). */
static int
damaged(const struct damage *d, const char *chunk, const char *what)
{
	struct ev_buf b = EV_BUF_INIT;
	int bad;

	if (d->note == NULL)
		return 0;
	bad = ev_buf_adds(&b, "document '") == -1 || ev_show_put_ref(&b, d->doc, strlen(d->doc)) == -1 ||
	    (chunk != NULL && (ev_buf_adds(&b, "', chunk '") == -1 ||
	    ev_show_put_ref(&b, chunk, strlen(chunk)) == -1)) ||
	    ev_buf_printf(&b, "': %s: left out, the store is damaged (ingest the document again)",
	    what) == -1;
	if (!bad)
		ev_note(d->note, d->ctx, "%s", b.p);
	ev_buf_release(&b);
	return bad ? -1 : 0;
}

/* The document's metadata (a column holding a JSON object) as an object, a
 * new one when it has none; one that is not a JSON object (a damaged
 * store) is told to d (when not NULL; chunk: the chunk's id, or NULL).
 * NULL when out of memory. */
static json_t *
metadata_of(sqlite3_stmt *s, int col, const struct damage *d, const char *chunk)
{
	json_t *m = NULL;
	int type = sqlite3_column_type(s, col);

	if (type == SQLITE_TEXT)
		m = json_loadb((const char *)sqlite3_column_text(s, col),
		    (size_t)sqlite3_column_bytes(s, col), 0, NULL);
	if (!json_is_object(m)) {
		json_decref(m);
		if (d != NULL && type != SQLITE_NULL &&
		    damaged(d, chunk, "its stored metadata is not a JSON object") == -1)
			return NULL;
		m = json_object();
	}
	return m;
}

/* Whether the text columns cols[0..n) of s's row (named names[i]; the row
 * named as what and its column rowcol's integer) are UTF-8, as
 * ev_store_row_utf8() checks them; s reset when not.  Returns 0 or -1. */
static int
utf8_row(struct ev_store *st, sqlite3_stmt *s, const int *cols, const char *const *names, int n,
    const char *what, int rowcol, struct ev_err *err)
{
	if (ev_store_row_utf8(st, s, cols, names, n, what, (long long)sqlite3_column_int64(s, rowcol),
	    err) == 0)
		return 0;
	sqlite3_reset(s);
	return -1;
}

/* The text columns of CHUNK_SQL a record shows. */
static const int chunk_cols[] = { 1, 2, 3, 4, 5, 6, 9, 10 };
static const char *const chunk_col_names[] = { "id", "doc_id", "title", "section_title",
	"section_path", "text", "content_hash", "document's source_uri" };
#define CHUNK_COLS ((int)(sizeof chunk_cols / sizeof *chunk_cols))
static const int text_col[] = { 0 };	/* a chunk's text, first of a statement's columns */

#define CHUNK_SQL "SELECT c.rowid, c.id, c.doc_id, c.title, c.section_title, c.section_path," \
	" c.text, c.offset_start, c.offset_end, c.content_hash, d.source_uri, d.metadata" \
	" FROM chunks c JOIN documents d ON d.doc_id = c.doc_id WHERE c.id = ?1"

/* The page, page_end and boxes of the chunk of this rowid (its offsets
 * [start, end), its id chunk) into o; its stored lines not as ev-ingest
 * writes them left out and told to d. */
static int
chunk_regions(struct ev_store *st, long long rowid, long long start, long long end,
    const char *chunk, const struct damage *d, json_t *o, struct ev_err *err)
{
	struct ev_buf lines = EV_BUF_INIT;
	long page, page_end;
	size_t span[2] = { (size_t)start, (size_t)end }, bad;
	char what[96];
	json_t *boxes;
	int r;

	if ((r = ev_region_table(st, err)) != 1)
		return r;
	if ((r = ev_region_get(st, rowid, &page, &page_end, &lines, err)) != 1) {
		ev_buf_release(&lines);
		return r;
	}
	boxes = ev_region_boxes(ev_buf_str(&lines), lines.len, span, 1, &bad);
	ev_buf_release(&lines);
	snprintf(what, sizeof what, "%zu of its stored lines are not as ev-ingest writes them", bad);
	if (boxes == NULL || (bad > 0 && damaged(d, chunk, what) == -1) ||
	    json_object_set_new(o, "page", json_integer(page)) == -1 ||
	    json_object_set_new(o, "page_end", json_integer(page_end)) == -1 ||
	    json_object_set_new(o, "boxes", boxes) == -1)
		return ev_err_nomem(err);
	return 0;
}

/* The row of statement sql whose ?1 is id, into *out: 1 (reset it after
 * reading), 0 when there is none, -1 with *err set (reading what). */
static int
row_of(struct ev_store *st, const char *sql, const char *id, const char *what,
    sqlite3_stmt **out, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, sql, err);
	int rc;

	if ((*out = s) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		return 1;
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : ev_store_error(st, what, err);
}

static int
resolve_chunk(struct ev_store *st, const char *id, const struct damage *d, json_t *o,
    struct ev_err *err)
{
	struct damage cd = *d;	/* (of the chunk's document) */
	sqlite3_stmt *s;
	json_t *meta;
	int bad;

	if ((bad = row_of(st, CHUNK_SQL, id, "reading a chunk", &s, err)) != 1)
		return bad;
	if (utf8_row(st, s, chunk_cols, chunk_col_names, CHUNK_COLS, "chunk rowid", 0, err) == -1)
		return -1;
	bad = json_object_set_new(o, "kind", json_string("chunk")) == -1 ||
	    set_text(o, "id", s, 1) == -1 || set_text(o, "doc_id", s, 2) == -1 ||
	    set_text(o, "title", s, 3) == -1 || set_text(o, "section_title", s, 4) == -1 ||
	    set_text(o, "section_path", s, 5) == -1 || set_text(o, "source_uri", s, 10) == -1 ||
	    set_text(o, "text", s, 6) == -1 ||
	    json_object_set_new(o, "offset_start", json_integer(sqlite3_column_int64(s, 7))) == -1 ||
	    json_object_set_new(o, "offset_end", json_integer(sqlite3_column_int64(s, 8))) == -1 ||
	    set_text(o, "content_hash", s, 9) == -1;
	cd.doc = (const char *)sqlite3_column_text(s, 2);
	meta = metadata_of(s, 11, &cd, NULL);
	if (meta != NULL && ev_hitfields_clause((const char *)sqlite3_column_text(s, 5), &meta) == -1) {
		json_decref(meta);
		meta = NULL;
	}
	if (meta == NULL || json_object_set_new(o, "metadata", meta) == -1)
		bad = 1;
	long long rowid = sqlite3_column_int64(s, 0), start = sqlite3_column_int64(s, 7);
	long long end = sqlite3_column_int64(s, 8);

	sqlite3_reset(s);
	if (bad)
		return ev_err_nomem(err);
	/* (the column's text is gone with the reset: the record's copy) */
	if ((cd.doc = json_string_value(json_object_get(o, "doc_id"))) == NULL)
		cd.doc = "";
	return chunk_regions(st, rowid, start, end, id, &cd, o, err) == -1 ? -1 : 1;
}

/* The document's fields into o; 0 when there is none. */
static int
resolve_doc_fields(struct ev_store *st, const char *id, const struct damage *d, json_t *o,
    struct ev_err *err)
{
	sqlite3_stmt *s;
	int bad;

	static const int cols[] = { 0, 1 };
	static const char *const names[] = { "title", "source_uri" };

	if ((bad = row_of(st, "SELECT title, source_uri, metadata, rowid FROM documents"
	    " WHERE doc_id = ?1", id, "reading a document", &s, err)) != 1)
		return bad;
	if (utf8_row(st, s, cols, names, 2, "document rowid", 3, err) == -1)
		return -1;
	bad = json_object_set_new(o, "doc_id", json_string(id)) == -1 ||
	    set_text(o, "title", s, 0) == -1 || set_text(o, "source_uri", s, 1) == -1 ||
	    json_object_set_new(o, "metadata", metadata_of(s, 2, d, NULL)) == -1;
	sqlite3_reset(s);
	return bad ? ev_err_nomem(err) : 1;
}

/* Whether a chunk's text t (len bytes) and offsets [a, b) are as ev-ingest
 * writes them: the text there, at least b - a bytes (a split table's later
 * part carries its header rows before them); else why not into what. */
static int
offsets_ok(const char *t, long long len, long long a, long long b, char *what, size_t size)
{
	if (t != NULL && a >= 0 && a <= b && b - a <= len)
		return 1;
	if (t == NULL)
		snprintf(what, size, "it has no text");
	else
		snprintf(what, size, "its offsets %lld to %lld are not those of its text of %lld bytes",
		    a, b, len);
	return 0;
}

/* A document: its chunks' text in order, overlaps left out, separated by a
 * blank line where the chunks leave a gap; of a split table's later part,
 * its own rows (its text's last offset_end - offset_start bytes), the
 * header rows it carries being the first part's. */
static int
resolve_doc(struct ev_store *st, const char *id, const struct damage *d, json_t *o,
    struct ev_err *err)
{
	struct ev_buf text = EV_BUF_INIT;
	sqlite3_stmt *s;
	long long end = -1, first = -1;
	char what[128];
	int r, rc;

	if ((r = resolve_doc_fields(st, id, d, o, err)) != 1)
		return r;
	if ((s = ev_store_prepare(st, "SELECT text, offset_start, offset_end, rowid, id FROM chunks"
	    " WHERE doc_id = ?1 ORDER BY offset_start, chunk_index", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
	r = 0;
	while (r == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		long long a = sqlite3_column_int64(s, 1), b = sqlite3_column_int64(s, 2);
		long long len = sqlite3_column_bytes(s, 0);

		if (utf8_row(st, s, text_col, chunk_col_names + 5, 1, "chunk rowid", 3,
		    err) == -1) {
			ev_buf_release(&text);
			return -1;
		}

		if (!offsets_ok(t, len, a, b, what, sizeof what)) {
			r = damaged(d, (const char *)sqlite3_column_text(s, 4), what);
			continue;
		}
		if (b <= end)
			continue;	/* inside the chunks before */
		t += len - (b - a);	/* a table's later part: past its header rows */
		if (first < 0)
			first = a;
		if (end >= 0 && a > end)
			r = ev_buf_adds(&text, "\n\n");
		if (r == 0)
			r = ev_buf_add(&text, t + (a < end ? end - a : 0), (size_t)(b - (a < end ? end : a)));
		end = b;
	}
	sqlite3_reset(s);
	if (r == -1 || json_object_set_new(o, "kind", json_string("document")) == -1 ||
	    json_object_set_new(o, "id", json_string(id)) == -1 ||
	    json_object_set_new(o, "text", json_stringn(text.p ? text.p : "", text.len)) == -1 ||
	    (first >= 0 && (json_object_set_new(o, "offset_start", json_integer(first)) == -1 ||
	    json_object_set_new(o, "offset_end", json_integer(end)) == -1))) {
		ev_buf_release(&text);
		return ev_err_nomem(err);
	}
	ev_buf_release(&text);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return ev_store_error(st, "reading a document's chunks", err);
	return 1;
}

/* A line of a page: its offsets, its stored entry (region.h) and its text. */
struct pline {
	long long s, e;
	json_t *entry;
	char *text;
};

/* What a chunk holds of the document's text: its bytes [a, b). */
struct piece {
	long long a, b;
	char *t;
};

static void
free_lines(struct pline *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].text);
		json_decref(v[i].entry);
	}
	free(v);
}

static void
free_pieces(struct piece *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].t);
	free(v);
}

static int
cmp_pline(const void *a, const void *b)
{
	const struct pline *x = a, *y = b;

	return x->s < y->s ? -1 : x->s > y->s;
}

/* Add what chunk text t (len bytes, offsets [a, b)) holds of the document's
 * text to *v (n, cap): all of it, or for a split table's later part (whose
 * text is its header rows, then the document's [a, b)) its last b - a bytes.
 * A text and offsets not as ev-ingest writes them add nothing, and are told
 * to d. */
static int
add_piece(const char *t, long long len, long long a, long long b, const char *chunk,
    const struct damage *d, struct piece **v, size_t *n, size_t *cap)
{
	char what[128];

	if (!offsets_ok(t, len, a, b, what, sizeof what))
		return damaged(d, chunk, what);
	if (b == a)
		return 0;
	if (ev_grow(v, cap, *n, sizeof **v, 16) == -1)
		return -1;
	if (((*v)[*n].t = malloc((size_t)(b - a))) == NULL)
		return -1;
	memcpy((*v)[*n].t, t + (len - (b - a)), (size_t)(b - a));
	(*v)[*n].a = a;
	(*v)[*n].b = b;
	(*n)++;
	return 0;
}

/* Add the lines of page (inside box when not NULL) of a chunk's lines JSON
 * to *v (n, cap), each once, without their text; a line not as ev-ingest
 * writes it (not seven numbers, a page that is no page number, offsets that
 * are none) is left out and told to d. */
static int
page_lines(const char *lines, const char *chunk, long page, const double *box,
    const struct damage *d, struct pline **v, size_t *n, size_t *cap)
{
	json_t *arr = json_loads(lines ? lines : "[]", 0, NULL), *l;
	size_t i, k;
	char what[96];

	if (!json_is_array(arr)) {
		json_decref(arr);
		return damaged(d, chunk, "its stored lines are not a JSON array");
	}
	json_array_foreach(arr, i, l) {
		double x[7];

		if (ev_region_line_damage(l, what, sizeof what) != NULL) {
			char line[160];

			snprintf(line, sizeof line, "its stored line %zu %s", i + 1, what);
			if (damaged(d, chunk, line) == -1) {
				json_decref(arr);
				return -1;
			}
			continue;
		}
		for (int j = 0; j < 7; j++)	/* (seven numbers, as checked) */
			x[j] = json_number_value(json_array_get(l, (size_t)j));
		if (x[2] != (double)page)
			continue;
		if (box != NULL && (x[5] < box[0] || x[3] > box[2] || x[6] < box[1] || x[4] > box[3]))
			continue;
		for (k = 0; k < *n && (*v)[k].s != (long long)x[0]; k++)
			;
		if (k < *n)
			continue;
		if (ev_grow(v, cap, *n, sizeof **v, 16) == -1) {
			json_decref(arr);
			return -1;
		}
		(*v)[*n] = (struct pline){ (long long)x[0], (long long)x[1], json_incref(l), NULL };
		(*n)++;
	}
	json_decref(arr);
	return 0;
}

/* Each line's text from the chunks' pieces: a line that no one chunk holds
 * whole (one chunk ends inside it and the next starts there, cut between
 * words) is put together from them, a byte no chunk holds -- the white space
 * between two chunks -- a space, and white space at its ends that no chunk
 * holds left out.  A line no chunk holds a byte of is dropped (*n lessened).
 * Returns 0 or -1 (out of memory; *n then counts the lines still held). */
static int
line_texts(struct pline *v, size_t *n, const struct piece *pc, size_t np)
{
	size_t kept = 0;

	for (size_t i = 0; i < *n; i++) {
		struct pline l = v[i];
		long long lo = l.e, hi = l.s;

		for (size_t k = 0; k < np; k++) {
			long long a = pc[k].a > l.s ? pc[k].a : l.s, b = pc[k].b < l.e ? pc[k].b : l.e;

			if (a < b) {	/* what of the line this chunk holds */
				lo = a < lo ? a : lo;
				hi = b > hi ? b : hi;
			}
		}
		if (lo >= hi) {
			json_decref(l.entry);
			continue;
		}
		if ((l.text = malloc((size_t)(hi - lo) + 1)) == NULL) {
			memmove(v + kept, v + i, (*n - i) * sizeof *v);
			*n = kept + (*n - i);
			return -1;
		}
		memset(l.text, ' ', (size_t)(hi - lo));
		l.text[hi - lo] = '\0';
		for (size_t k = 0; k < np; k++) {
			long long a = pc[k].a > lo ? pc[k].a : lo, b = pc[k].b < hi ? pc[k].b : hi;

			if (a < b)
				memcpy(l.text + (a - lo), pc[k].t + (a - pc[k].a), (size_t)(b - a));
		}
		v[kept++] = l;
	}
	*n = kept;
	return 0;
}

/* The page's (or region's) lines into o as text, offsets and boxes (as
 * ev_region_boxes() gives them). */
static int
put_lines(json_t *o, struct pline *v, size_t n, long page)
{
	struct ev_buf text = EV_BUF_INIT, lines = EV_BUF_INIT;
	json_t *entries = json_array(), *boxes = NULL;
	size_t span[2], none;
	int bad = entries == NULL;

	qsort(v, n, sizeof *v, cmp_pline);
	for (size_t i = 0; i < n && !bad; i++)
		bad = (i > 0 && ev_buf_addc(&text, '\n') == -1) || ev_buf_adds(&text, v[i].text) == -1 ||
		    json_array_append(entries, v[i].entry) == -1;
	span[0] = (size_t)v[0].s, span[1] = (size_t)v[n - 1].e;
	if (!bad && ev_json_dump(&lines, entries) == 0)	/* (each checked: page_lines()) */
		boxes = ev_region_boxes(ev_buf_str(&lines), lines.len, span, 1, &none);
	json_decref(entries);
	ev_buf_release(&lines);
	bad = bad || boxes == NULL ||
	    json_object_set_new(o, "text", json_stringn(text.p ? text.p : "", text.len)) == -1 ||
	    json_object_set_new(o, "page", json_integer(page)) == -1 ||
	    json_object_set_new(o, "offset_start", json_integer(v[0].s)) == -1 ||
	    json_object_set_new(o, "offset_end", json_integer(v[n - 1].e)) == -1 ||
	    json_object_set(o, "boxes", boxes) == -1;
	json_decref(boxes);
	ev_buf_release(&text);
	return bad ? -1 : 0;
}

/* A page, or the lines of a page inside a box; damaged lines told to d. */
static int
resolve_page(struct ev_store *st, const struct ev_ref *r, const struct damage *d, json_t *o,
    struct ev_err *err)
{
	struct pline *v = NULL;
	struct piece *pc = NULL;
	size_t n = 0, cap = 0, np = 0, cap_pc = 0;
	sqlite3_stmt *s;
	int got, rc, bad = 0;

	if ((got = ev_region_table(st, err)) != 1)
		return got;
	if ((got = resolve_doc_fields(st, r->id, d, o, err)) != 1)
		return got;
	if ((s = ev_store_prepare(st, "SELECT c.text, c.offset_start, c.offset_end, g.lines, c.id, c.rowid"
	    " FROM chunks c JOIN chunk_regions g ON g.rowid = c.rowid WHERE c.doc_id = ?1"
	    " AND g.page <= ?2 AND coalesce(g.page_end, g.page) >= ?2", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, r->id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, r->page);
	while (!bad && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (utf8_row(st, s, text_col, chunk_col_names + 5, 1, "chunk rowid", 5,
		    err) == -1) {
			free_lines(v, n);
			free_pieces(pc, np);
			return -1;
		}
		bad = add_piece((const char *)sqlite3_column_text(s, 0), sqlite3_column_bytes(s, 0),
		    sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2),
		    (const char *)sqlite3_column_text(s, 4), d, &pc, &np, &cap_pc) == -1 ||
		    page_lines((const char *)sqlite3_column_text(s, 3),
		    (const char *)sqlite3_column_text(s, 4), r->page,
		    r->kind == EV_REF_REGION ? r->box : NULL, d, &v, &n, &cap) == -1;
	}
	sqlite3_reset(s);
	if (!bad && rc != SQLITE_DONE) {
		free_lines(v, n);
		free_pieces(pc, np);
		return ev_store_error(st, "reading a page's chunks", err);
	}
	bad = bad || line_texts(v, &n, pc, np) == -1;
	free_pieces(pc, np);
	got = n > 0;
	if (!bad && n > 0)
		bad = json_object_set_new(o, "kind", json_string(r->kind == EV_REF_REGION ? "region" :
		    "page")) == -1 || json_object_set_new(o, "id", json_string(r->id)) == -1 ||
		    put_lines(o, v, n, r->page) == -1;
	free_lines(v, n);
	return bad ? ev_err_nomem(err) : got;
}

int
ev_show_resolve(struct ev_store *st, const struct ev_ref *r, const char *ref, ev_note_fn *note,
	void *ctx, json_t **out, struct ev_err *err)
{
	json_t *o = json_pack("{s:s}", "ref", ref);
	const struct damage d = { note, ctx, r->id };
	int got;

	*out = NULL;
	if (o == NULL)
		return ev_err_nomem(err);
	switch (r->kind) {
	case EV_REF_CHUNK:
		got = resolve_chunk(st, r->id, &d, o, err);
		break;
	case EV_REF_DOC:
		got = resolve_doc(st, r->id, &d, o, err);
		break;
	case EV_REF_PAGE:
	case EV_REF_REGION:
		got = resolve_page(st, r, &d, o, err);
		break;
	default:
		if ((got = resolve_chunk(st, r->id, &d, o, err)) == 0)
			got = resolve_doc(st, r->id, &d, o, err);
	}
	if (got != 1) {
		json_decref(o);
		return got;
	}
	*out = o;
	return 1;
}

/* The pages the store knows document id to have, into *pages: its
 * metadata's page_count (ev-extract's, or the document's own: a whole
 * number, 6.0 being 6), or the last page its chunks' regions reach when
 * that is more; 0 for none.  Returns 1, 0 when there is no such document,
 * -1 with *err set. */
static int
doc_pages(struct ev_store *st, const char *id, long long *pages, struct ev_err *err)
{
	sqlite3_stmt *s;
	json_t *meta, *count;
	long long n;
	int got;

	if ((got = ev_region_table(st, err)) == -1)
		return -1;
	if ((got = row_of(st, got ? "SELECT d.metadata, (SELECT max(coalesce(g.page_end, g.page))"
	    " FROM chunks c JOIN chunk_regions g ON g.rowid = c.rowid WHERE c.doc_id = d.doc_id)"
	    " FROM documents d WHERE d.doc_id = ?1" : "SELECT metadata, 0 FROM documents"
	    " WHERE doc_id = ?1", id, "reading a document's pages", &s, err)) != 1)
		return got;
	*pages = sqlite3_column_int64(s, 1);
	if ((meta = metadata_of(s, 0, NULL, NULL)) == NULL) {
		sqlite3_reset(s);
		return ev_err_nomem(err);
	}
	sqlite3_reset(s);
	count = json_object_get(meta, "page_count");
	if (ev_json_whole_value(count, &n) && n > *pages)
		*pages = n;
	json_decref(meta);
	return 1;
}

int
ev_show_why_missing(struct ev_store *st, const struct ev_ref *r, struct ev_buf *why,
	struct ev_err *err)
{
	long long pages = 0;
	int got = 0, bad;

	if ((r->kind == EV_REF_PAGE || r->kind == EV_REF_REGION) &&
	    (got = doc_pages(st, r->id, &pages, err)) == -1)
		return -1;
	if (got == 0)
		bad = ev_buf_adds(why, "is not in the store (deleted, or stored again under another"
		    " id: search for it again)");
	else if (pages == 0)
		bad = ev_buf_adds(why, "is not in the store: the document '") == -1 ||
		    ev_show_put_ref(why, r->id, strlen(r->id)) == -1 ||
		    ev_buf_adds(why, "' has no pages (a PDF's document has)");
	else if (r->page > pages)
		bad = ev_buf_adds(why, "is not in the store: the document '") == -1 ||
		    ev_show_put_ref(why, r->id, strlen(r->id)) == -1 ||
		    ev_buf_printf(why, "' has %lld page%s", pages, pages == 1 ? "" : "s");
	else if (r->kind == EV_REF_REGION)
		bad = ev_buf_printf(why, "shows nothing: no line of text on page %ld lies in the box",
		    r->page);
	else
		bad = ev_buf_printf(why, "shows nothing: the store holds no text of page %ld (a"
		    " scanned page, or images alone: OCR the PDF and ingest it again; a blank page;"
		    " or a heading alone, which is a section's title)", r->page);
	return bad ? ev_err_nomem(err) : 0;
}

/* ---- text ---- */

/* Append s[0..n) to b as a terminal can show it: control characters,
 * which a terminal may take as commands (an escape sequence retitling the
 * window, a carriage return or backspaces writing over text), left out --
 * C0, DEL, and C1 (U+0080 to U+009F: U+009B is an escape sequence's
 * start) -- but a tab in a line of text, and a tab, new line or carriage
 * return in a field, which is one line, a space.  Returns 0 or -1. */
static int
add_shown(struct ev_buf *b, const char *s, size_t n, int line)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int r = 0;

		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f)
			i++;
		else if (c == '\t' && line)
			r = ev_buf_addc(b, '\t');
		else if (c == '\t' || ((c == '\n' || c == '\r') && !line))
			r = ev_buf_addc(b, ' ');
		else if (c >= 0x20 && c != 0x7f)
			r = ev_buf_addc(b, (char)c);
		if (r == -1)
			return -1;
	}
	return 0;
}

/* "  label: value\n" for a string or integer field. */
static int
text_field(struct ev_buf *b, const json_t *rec, const char *key, const char *label)
{
	const json_t *v = json_object_get(rec, key);

	if (json_is_string(v) && json_string_length(v) > 0)
		return ev_buf_printf(b, "  %s: ", label) == -1 || add_shown(b, json_string_value(v),
		    json_string_length(v), 0) == -1 || ev_buf_addc(b, '\n') == -1 ? -1 : 0;
	if (json_is_integer(v))
		return ev_buf_printf(b, "  %s: %lld\n", label, (long long)json_integer_value(v));
	return 0;
}

int
ev_show_text(const json_t *rec, struct ev_buf *out)
{
	const json_t *boxes = json_object_get(rec, "boxes"), *bx, *text = json_object_get(rec, "text");
	const json_t *clause = json_object_get(json_object_get(rec, "metadata"), "clause_id");
	const json_t *ref = json_object_get(rec, "ref");
	size_t i;

	if (ev_show_put_ref(out, json_string_value(ref), json_string_length(ref)) == -1 ||
	    ev_buf_addc(out, '\n') == -1 ||
	    text_field(out, rec, "kind", "kind") == -1 || text_field(out, rec, "title", "title") == -1 ||
	    text_field(out, rec, "source_uri", "source") == -1 ||
	    text_field(out, rec, "section_path", "section") == -1 ||
	    (json_is_string(clause) && (ev_buf_adds(out, "  clause: ") == -1 ||
	    add_shown(out, json_string_value(clause), json_string_length(clause), 0) == -1 ||
	    ev_buf_addc(out, '\n') == -1)) ||
	    text_field(out, rec, "page", "page") == -1 ||
	    text_field(out, rec, "page_end", "page_end") == -1)
		return -1;
	if (json_is_integer(json_object_get(rec, "offset_start")) &&
	    ev_buf_printf(out, "  offsets: %lld-%lld\n",
	    (long long)json_integer_value(json_object_get(rec, "offset_start")),
	    (long long)json_integer_value(json_object_get(rec, "offset_end"))) == -1)
		return -1;
	json_array_foreach(boxes, i, bx) {
		const json_t *b = json_object_get(bx, "bbox");

		if (ev_buf_printf(out, "  box: page %lld [%g %g %g %g]\n",
		    (long long)json_integer_value(json_object_get(bx, "page")),
		    json_number_value(json_array_get(b, 0)), json_number_value(json_array_get(b, 1)),
		    json_number_value(json_array_get(b, 2)), json_number_value(json_array_get(b, 3))) == -1)
			return -1;
	}
	if (ev_buf_addc(out, '\n') == -1)
		return -1;
	const char *t = json_string_value(text);

	for (size_t k = 0, n = t ? json_string_length(text) : 0; k < n;) {
		const char *nl = memchr(t + k, '\n', n - k);
		size_t e = nl ? (size_t)(nl - t) : n;

		if (ev_buf_adds(out, e > k ? "    " : "") == -1 || add_shown(out, t + k, e - k, 1) == -1 ||
		    ev_buf_addc(out, '\n') == -1)
			return -1;
		k = e + 1;
	}
	return ev_buf_addc(out, '\n');
}
