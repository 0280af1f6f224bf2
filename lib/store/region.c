/* region.c: pages and line boxes of chunks.  See region.h. */
#include "region.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "jsonl.h"

int
ev_regions_present(const json_t *meta)
{
	return json_is_object(meta) &&
	    (json_object_get(meta, "pages") != NULL || json_object_get(meta, "lines") != NULL);
}

void
ev_regions_release(struct ev_regions *r)
{
	if (r == NULL)
		return;
	free(r->pages);
	free(r->lines);
	memset(r, 0, sizeof *r);
}

/* Entry i of metadata.key is wrong: code 2. */
static int
bad(struct ev_err *err, const char *where, const char *key, size_t i, const char *what)
{
	return ev_err_set(err, EV_EXIT_USAGE, where, "metadata.%s[%zu]: %s (as ev-extract writes it)",
	    key, i, what);
}

/* The offsets and page of entry e: 0, or -1 with *err set. */
static int
read_span(const json_t *e, const char *key, size_t i, size_t text_len, size_t prev_start,
	long *page, size_t *start, size_t *end, const char *where, struct ev_err *err)
{
	long long p, s, x;
	struct ev_err ignore = { 0 };

	if (!json_is_object(e))
		return bad(err, where, key, i, "must be an object");
	if (ev_field_int(e, "page", 1, &p, where, &ignore) != 1 || p < 1 || p > 10000000)
		return bad(err, where, key, i, "'page' must be a page number from 1");
	if (ev_field_int(e, "offset_start", 1, &s, where, &ignore) != 1 ||
	    ev_field_int(e, "offset_end", 1, &x, where, &ignore) != 1 || s < 0 || x < s ||
	    (unsigned long long)x > text_len)
		return bad(err, where, key, i,
		    "'offset_start' and 'offset_end' must be byte offsets of the text, start <= end");
	if ((size_t)s < prev_start)
		return bad(err, where, key, i, "entries must be in text order");
	*page = (long)p;
	*start = (size_t)s;
	*end = (size_t)x;
	return 0;
}

int
ev_regions_add(struct ev_regions *r, int line, const json_t *e, size_t i, size_t text_len,
	const char *where, struct ev_err *err)
{
	const char *key = line ? "lines" : "pages";
	size_t prev = line ? (r->nlines ? r->lines[r->nlines - 1].start : 0) :
	    (r->npages ? r->pages[r->npages - 1].start : 0);
	long page;
	size_t start, end;
	double bbox[4];
	json_t *b;

	if (read_span(e, key, i, text_len, prev, &page, &start, &end, where, err) == -1)
		return -1;
	if (!line) {
		double size[2] = { 0, 0 };
		static const char *const dims[2] = { "width", "height" };

		for (int k = 0; k < 2; k++) {
			json_t *v = json_object_get(e, dims[k]);

			if (v == NULL || json_is_null(v))
				continue;
			if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
			    json_number_value(v) <= 0)
				return bad(err, where, key, i,
				    "'width' and 'height' must be positive numbers of points");
			size[k] = json_number_value(v);
		}
		if (r->npages > 0 && (page <= r->pages[r->npages - 1].page ||
		    start < r->pages[r->npages - 1].end))
			return bad(err, where, key, i, "pages must be numbered upward in text order, "
			    "each page's text after the one before");
		if (ev_grow(&r->pages, &r->cap_pages, r->npages + 1, sizeof *r->pages, 64) == -1)
			return ev_err_nomem(err);
		r->pages[r->npages++] = (struct ev_region_page){ page, start, end, size[0], size[1] };
		return 0;
	}
	b = json_object_get(e, "bbox");
	if (json_array_size(b) != 4)
		return bad(err, where, key, i, "'bbox' must be [x0, y0, x1, y1]");
	for (int k = 0; k < 4; k++) {
		json_t *v = json_array_get(b, (size_t)k);

		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			return bad(err, where, key, i, "'bbox' must be four finite numbers");
		bbox[k] = json_number_value(v);
	}
	if (r->nlines > 0 && page < r->lines[r->nlines - 1].page)
		return bad(err, where, key, i, "lines must follow the pages in text order");
	if (bbox[2] < bbox[0] || bbox[3] < bbox[1])
		return bad(err, where, key, i,
		    "'bbox' must be [x0, y0, x1, y1] with x0 <= x1 and y0 <= y1");
	if (ev_grow(&r->lines, &r->cap_lines, r->nlines + 1, sizeof *r->lines, 256) == -1)
		return ev_err_nomem(err);
	r->lines[r->nlines] = (struct ev_region_line){ page, start, end, { 0 } };
	memcpy(r->lines[r->nlines++].bbox, bbox, sizeof bbox);
	return 0;
}

int
ev_regions_check_arrays(const json_t *pages, const json_t *lines, const char *where,
	struct ev_err *err)
{
	if (pages != NULL && !json_is_null(pages) && !json_is_array(pages))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "metadata.pages must be an array of pages (as ev-extract writes it)");
	if (lines != NULL && !json_is_null(lines) && !json_is_array(lines))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "metadata.lines must be an array of lines (as ev-extract writes it)");
	return 0;
}

int
ev_regions_read(const json_t *meta, size_t text_len, struct ev_regions *out,
	const char *where, struct ev_err *err)
{
	json_t *pages = json_object_get(meta, "pages"), *lines = json_object_get(meta, "lines"), *e;
	size_t i;

	ev_regions_release(out);
	if (ev_regions_check_arrays(pages, lines, where, err) == -1)
		return -1;
	json_array_foreach(pages, i, e)
		if (ev_regions_add(out, 0, e, i, text_len, where, err) == -1)
			goto fail;
	json_array_foreach(lines, i, e)
		if (ev_regions_add(out, 1, e, i, text_len, where, err) == -1)
			goto fail;
	return 0;
fail:
	ev_regions_release(out);
	return -1;
}

int
ev_regions_encode(const struct ev_regions *r, struct ev_buf *out)
{
	int bad = 0;

	for (size_t i = 0; i < r->npages; i++) {
		bad |= ev_buf_printf(out, "P %ld %zu %zu ", r->pages[i].page, r->pages[i].start,
		    r->pages[i].end) | ev_extract_num(out, r->pages[i].width) |
		    ev_buf_addc(out, ' ') | ev_extract_num(out, r->pages[i].height) |
		    ev_buf_addc(out, '\n');
	}
	for (size_t i = 0; i < r->nlines; i++) {
		const struct ev_region_line *l = &r->lines[i];

		bad |= ev_buf_printf(out, "L %ld %zu %zu", l->page, l->start, l->end);
		for (int k = 0; k < 4; k++)
			bad |= ev_buf_addc(out, ' ') | ev_extract_num(out, l->bbox[k]);
		bad |= ev_buf_addc(out, '\n');
	}
	return bad ? -1 : 0;
}

/* A number of s[*i..n) then one space or newline: 0, or -1. */
static int
scan_num(const char *s, size_t n, size_t *i, double *v)
{
	char tmp[64], *end;
	size_t k = 0;

	while (*i < n && s[*i] != ' ' && s[*i] != '\n' && k < sizeof tmp - 1)
		tmp[k++] = s[(*i)++];
	tmp[k] = '\0';
	if (k == 0 || *i >= n)
		return -1;
	(*i)++;
	errno = 0;
	*v = strtod(tmp, &end);
	return *end != '\0' || errno != 0 || !isfinite(*v) ? -1 : 0;
}

int
ev_regions_decode(const char *s, size_t n, struct ev_regions *out)
{
	size_t i = 0;
	double v[7];

	ev_regions_release(out);
	while (i < n) {
		char kind = s[i];
		int nv = kind == 'P' ? 5 : 7;

		if ((kind != 'P' && kind != 'L') || i + 1 >= n || s[i + 1] != ' ')
			goto fail;
		i += 2;
		for (int k = 0; k < nv; k++)
			if (scan_num(s, n, &i, &v[k]) == -1 || (k < 3 && v[k] < 0))
				goto fail;
		if (kind == 'P') {
			if (ev_grow(&out->pages, &out->cap_pages, out->npages + 1, sizeof *out->pages,
			    64) == -1)
				goto fail;
			out->pages[out->npages++] = (struct ev_region_page){ (long)v[0], (size_t)v[1],
			    (size_t)v[2], v[3] > 0 ? v[3] : 0, v[4] > 0 ? v[4] : 0 };
		} else {
			struct ev_region_line *l;

			if (ev_grow(&out->lines, &out->cap_lines, out->nlines + 1, sizeof *out->lines,
			    256) == -1)
				goto fail;
			l = &out->lines[out->nlines++];
			l->page = (long)v[0];
			l->start = (size_t)v[1];
			l->end = (size_t)v[2];
			memcpy(l->bbox, v + 3, sizeof l->bbox);
		}
	}
	return 0;
fail:
	ev_regions_release(out);
	return -1;
}

/* The first line whose end is after start (lines are in text order and do
 * not overlap one another, so their ends are in order too). */
static size_t
first_line_after(const struct ev_regions *r, size_t start)
{
	size_t lo = 0, hi = r->nlines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->lines[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of the first page entry that ends after off (npages: none). */
static size_t
page_index(const struct ev_regions *r, size_t off)
{
	size_t lo = 0, hi = r->npages;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->pages[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The page of the first page entry that ends after off (the page holding
 * off, or the next one), or 0. */
static long
page_at(const struct ev_regions *r, size_t off)
{
	size_t i = page_index(r, off);

	return i < r->npages ? r->pages[i].page : 0;
}

/* The page entry of page number `page` whose text holds or follows off,
 * or NULL. */
static const struct ev_region_page *
page_entry(const struct ev_regions *r, long page, size_t off)
{
	size_t i;

	for (i = page_index(r, off); i < r->npages && r->pages[i].page <= page; i++)
		if (r->pages[i].page == page)
			return &r->pages[i];
	return NULL;
}

/* The page of the last page entry that starts before end, or 0. */
static long
page_before(const struct ev_regions *r, size_t end)
{
	size_t lo = 0, hi = r->npages;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->pages[mid].start < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? r->pages[lo - 1].page : 0;
}

int
ev_regions_span(const struct ev_regions *r, size_t start, size_t end, long *page,
	long *page_end, struct ev_buf *lines_json)
{
	long first = page_at(r, start), last = page_before(r, end);
	size_t i = first_line_after(r, start);
	int bad = 0, n = 0;

	if (first == 0 && i < r->nlines && r->lines[i].start < end)
		first = r->lines[i].page;	/* lines without pages */
	if (first == 0)
		return 0;
	if (last < first)
		last = first;
	bad |= ev_buf_addc(lines_json, '[');
	for (; i < r->nlines && r->lines[i].start < end; i++) {
		const struct ev_region_line *l = &r->lines[i];

		bad |= ev_buf_printf(lines_json, "%s[%zu,%zu,%ld", n++ ? "," : "", l->start, l->end,
		    l->page);
		const struct ev_region_page *pg = page_entry(r, l->page, l->start);

		for (int k = 0; k < 4; k++)
			bad |= ev_buf_addc(lines_json, ',') | ev_extract_num(lines_json, l->bbox[k]);
		if (pg != NULL && pg->width > 0 && pg->height > 0)
			bad |= ev_buf_addc(lines_json, ',') | ev_extract_num(lines_json, pg->width) |
			    ev_buf_addc(lines_json, ',') | ev_extract_num(lines_json, pg->height);
		bad |= ev_buf_addc(lines_json, ']');
		if (r->npages == 0 && l->page > last)
			last = l->page;
	}
	bad |= ev_buf_addc(lines_json, ']');
	*page = first;
	*page_end = last;
	return bad ? -1 : 1;
}

int
ev_region_table(struct ev_store *st, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT count(*) FROM sqlite_master"
	    " WHERE type = 'table' AND name = 'chunk_regions'", err);
	int have;

	if (s == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_ROW)
		return ev_store_error(st, "reading the schema", err);
	have = sqlite3_column_int(s, 0) > 0;
	sqlite3_reset(s);
	return have;
}

int
ev_region_create(struct ev_store *st, struct ev_err *err)
{
	return ev_store_exec(st,
	    "CREATE TABLE IF NOT EXISTS chunk_regions (rowid INTEGER PRIMARY KEY,"
	    " page INTEGER NOT NULL, page_end INTEGER, lines TEXT NOT NULL);"
	    "CREATE TRIGGER IF NOT EXISTS chunk_regions_gc AFTER DELETE ON chunks BEGIN"
	    " DELETE FROM chunk_regions WHERE rowid = old.rowid; END;", err);
}

int
ev_region_forget(struct ev_store *st, const char *doc_id, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "DELETE FROM chunk_regions WHERE rowid IN"
	    " (SELECT rowid FROM chunks WHERE doc_id = ?1)", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, doc_id, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		return ev_store_error(st, "writing chunk regions", err);
	sqlite3_reset(s);
	return 0;
}

int
ev_region_put(struct ev_store *st, const char *chunk_id, long page, long page_end,
	const char *lines_json, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "INSERT OR REPLACE INTO chunk_regions"
	    "(rowid, page, page_end, lines) SELECT rowid, ?2, ?3, ?4 FROM chunks WHERE id = ?1", err);

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, chunk_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, page);
	if (page_end > page)
		sqlite3_bind_int64(s, 3, page_end);
	else
		sqlite3_bind_null(s, 3);
	sqlite3_bind_text(s, 4, lines_json, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		return ev_store_error(st, "writing chunk regions", err);
	sqlite3_reset(s);
	return 0;
}

int
ev_region_get(struct ev_store *st, long long rowid, long *page, long *page_end,
	struct ev_buf *lines_json, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st,
	    "SELECT page, page_end, lines FROM chunk_regions WHERE rowid = ?1", err);
	int rc;

	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	if ((rc = sqlite3_step(s)) == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return ev_store_error(st, "reading chunk regions", err);
	*page = (long)sqlite3_column_int64(s, 0);
	*page_end = sqlite3_column_type(s, 1) == SQLITE_NULL ? *page :
	    (long)sqlite3_column_int64(s, 1);
	rc = ev_buf_add(lines_json, sqlite3_column_text(s, 2) ? sqlite3_column_text(s, 2) :
	    (const unsigned char *)"", (size_t)sqlite3_column_bytes(s, 2));
	sqlite3_reset(s);
	return rc == -1 ? ev_err_nomem(err) : 1;
}

/* A number as JSON: an integer when it is one ("72", not "72.0"). */
static json_t *
num(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* A stored line's box [x0, y0, x1, y1] in fractions of its page's width
 * and height (its entries 7 and 8), each within 0 to 1, to four decimals. */
static json_t *
norm_box(const json_t *l)
{
	double w = json_number_value(json_array_get(l, 7)), h = json_number_value(json_array_get(l, 8));
	json_t *box = json_array();

	for (int k = 0; box != NULL && k < 4; k++) {
		double v = json_number_value(json_array_get(l, (size_t)k + 3)) / (k % 2 ? h : w);

		v = v < 0 || !isfinite(v) ? 0 : v > 1 ? 1 : round(v * 10000) / 10000;
		if (json_array_append_new(box, num(v)) == -1) {
			json_decref(box);
			box = NULL;
		}
	}
	return box;
}

const char *
ev_region_line_damage(const json_t *l, char *why, size_t size)
{
	double x[7];
	int ok = json_is_array(l) && json_array_size(l) >= 7;

	for (int j = 0; ok && j < 7; j++) {
		ok = json_is_number(json_array_get(l, (size_t)j));
		x[j] = json_number_value(json_array_get(l, (size_t)j));
	}
	/* offsets that a double and a long long hold exactly; the page
	 * compared as a double, never cast (1e300 or 2.5 is no page) */
	if (!ok)
		snprintf(why, size, "is not seven numbers");
	else if (!(x[2] >= 1 && x[2] <= 1e9 && x[2] == floor(x[2])))
		snprintf(why, size, "has page %.6g, which is no page number", x[2]);
	else if (!(x[0] >= 0 && x[0] <= x[1] && x[1] < 9e15 && x[0] == floor(x[0]) &&
	    x[1] == floor(x[1])))
		snprintf(why, size, "has offsets %.6g to %.6g, which are none", x[0], x[1]);
	else
		return NULL;
	return why;
}

json_t *
ev_region_boxes(const char *lines_json, size_t len, const size_t *spans, size_t n,
	size_t *damaged)
{
	json_error_t je;
	json_t *lines = json_loadb(lines_json, len, JSON_DISABLE_EOF_CHECK, &je), *out, *l;
	char why[96];
	size_t i;

	*damaged = 0;
	if ((out = json_array()) == NULL) {
		json_decref(lines);
		return NULL;
	}
	if (!json_is_array(lines)) {
		json_decref(lines);
		*damaged = 1;	/* not as ev-ingest writes them: no lines */
		return out;
	}
	json_array_foreach(lines, i, l) {
		json_int_t s, e;
		json_t *box, *rec;
		int hit = 0;

		if (ev_region_line_damage(l, why, sizeof why) != NULL) {
			(*damaged)++;
			continue;
		}
		s = (json_int_t)json_number_value(json_array_get(l, 0));
		e = (json_int_t)json_number_value(json_array_get(l, 1));

		for (size_t k = 0; k < n && !hit; k++)
			hit = (json_int_t)spans[2 * k] < e && (json_int_t)spans[2 * k + 1] > s;
		if (!hit)
			continue;
		box = json_pack("[oooo]", num(json_number_value(json_array_get(l, 3))),
		    num(json_number_value(json_array_get(l, 4))),
		    num(json_number_value(json_array_get(l, 5))),
		    num(json_number_value(json_array_get(l, 6))));
		rec = json_pack("{s:O,s:o}", "page", json_array_get(l, 2), "bbox", box);
		if (rec != NULL && json_array_size(l) == 9 &&
		    json_object_set_new(rec, "bbox_norm", norm_box(l)) == -1) {
			json_decref(rec);
			rec = NULL;
		}
		if (rec == NULL || json_array_append_new(out, rec) == -1) {
			json_decref(out);
			json_decref(lines);
			return NULL;
		}
	}
	json_decref(lines);
	return out;
}
