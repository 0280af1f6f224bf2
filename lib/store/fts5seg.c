/* fts5seg.c: an FTS5 index of one segment read from its leaves.  See
 * fts5seg.h. */
#include "fts5seg.h"
#include "buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRUCTURE_ROWID 10
#define STRUCTURE_V2 "\xff\x00\x00\x01"	/* a later structure (tombstones, origins) */
#define SEGID_SHIFT 37			/* a leaf's rowid: segid << 37 | page */
#define MAIN_PREFIX '0'			/* the main index's terms begin with it */

/* The leaves, page by page, and where the reading is. */
struct reader {
	sqlite3_stmt *s;
	long long base;			/* the segment's leaves' rowids: base | page */
	long long page, last;		/* the current page's number, the segment's last */
	const unsigned char *p;		/* the page (valid until the next step) */
	int szleaf, rowid_off, off;	/* its content's end, its first rowid, the reading */
	int *terms;			/* the offsets of its terms (the footer) */
	size_t nterms, capterms, ti;	/* ti: the next term's index */
	char *term;			/* the current term, with its prefix byte */
	size_t termlen, termcap;
	struct ev_buf row;		/* a row's offsets for the sink's row() */
};

/* A varint of p[*at..end) (SQLite's, buf.h) into *v, *at moved past it.
 * Returns 0, or -1 when it runs past end. */
static inline int
get_varint(const unsigned char *p, int *at, int end, uint64_t *v)
{
	int k;

	if (*at < end && p[*at] < 0x80) {	/* one byte: most of them */
		*v = p[(*at)++];
		return 0;
	}
	k = *at < end ? ev_sqlite_varint(p + *at, (size_t)(end - *at), v) : 0;

	if (k == 0)
		return -1;
	*at += k;
	return 0;
}

/* The next leaf: 1, 0 past the last (or a leaf missing, or not as FTS5
 * writes them: the index is not read), -1 with *err set. */
static int
next_page(sqlite3 *db, struct reader *r, struct ev_err *err)
{
	int rc, n, at, prev = 0;
	uint64_t v;

	if (r->page >= r->last)
		return 0;
	if ((rc = sqlite3_step(r->s)) != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			return 0;
		return ev_err_set(err, EV_EXIT_RUNTIME, sqlite3_db_filename(db, "main"),
		    "reading the text index's leaves: %s", sqlite3_errmsg(db));
	}
	r->page++;
	r->p = sqlite3_column_blob(r->s, 1);
	n = sqlite3_column_bytes(r->s, 1);
	if (sqlite3_column_int64(r->s, 0) != (r->base | r->page) || r->p == NULL || n < 4)
		return 0;
	r->rowid_off = r->p[0] << 8 | r->p[1];
	r->szleaf = r->p[2] << 8 | r->p[3];
	if (r->szleaf < 4 || r->szleaf > n || r->rowid_off >= r->szleaf)
		return 0;
	r->nterms = r->ti = 0;
	for (at = r->szleaf; at < n; ) {
		if (get_varint(r->p, &at, n, &v) == -1 || v > (uint64_t)r->szleaf)
			return 0;
		prev += (int)v;
		if (prev < 4 || prev >= r->szleaf || (r->nterms > 0 && (int)v == 0))
			return 0;
		if (r->nterms == r->capterms) {
			size_t cap = r->capterms ? 2 * r->capterms : 64;
			int *t = realloc(r->terms, cap * sizeof *t);

			if (t == NULL)
				return ev_err_nomem(err);
			r->terms = t;
			r->capterms = cap;
		}
		r->terms[r->nterms++] = prev;
	}
	r->off = 4;
	return 1;
}

/* Where the data that may run on from the last item ends on this page:
 * its next term, or its footer. */
static int
run_end(const struct reader *r)
{
	return r->ti < r->nterms ? r->terms[r->ti] : r->szleaf;
}

/* A varint that may begin on the next page (an item's data running on),
 * and its bytes into *used.  Returns 1, 0 when the index is not as
 * expected, -1 with *err set. */
static inline int
run_varint(sqlite3 *db, struct reader *r, uint64_t *v, uint64_t *used, struct ev_err *err)
{
	int got, from;

	if (r->off >= r->szleaf && (got = next_page(db, r, err)) != 1)
		return got;
	from = r->off;
	if (r->off >= run_end(r) || get_varint(r->p, &r->off, run_end(r), v) == -1)
		return 0;
	*used = (uint64_t)(r->off - from);
	return 1;
}

/* The term at r->off (the page's next): whole when it is the page's first,
 * else its prefix shared with the one before and the rest.  Returns 1, 0
 * when the index is not as expected, -1 with *err set. */
static int
read_term(struct reader *r, struct ev_err *err)
{
	uint64_t keep = 0, len;

	if (r->ti > 0 && get_varint(r->p, &r->off, r->szleaf, &keep) == -1)
		return 0;
	if (get_varint(r->p, &r->off, r->szleaf, &len) == -1 || keep > r->termlen ||
	    len > (uint64_t)(r->szleaf - r->off))
		return 0;
	if (keep + len > r->termcap) {
		char *t = realloc(r->term, (size_t)(keep + len));

		if (t == NULL)
			return ev_err_nomem(err);
		r->term = t;
		r->termcap = (size_t)(keep + len);
	}
	memcpy(r->term + keep, r->p + r->off, (size_t)len);
	r->off += (int)len;
	r->termlen = (size_t)(keep + len);
	r->ti++;
	return r->termlen > 0 && r->term[0] == MAIN_PREFIX;
}

/* The next entry of a position list with *size bytes left (*size less
 * what it reads): 1 with *delta the distance to the next offset in the
 * column, 2 when the list moves on to column *col (after FTS5's 0x01, a
 * column above the last and below ncol), 0 when the index is not as
 * expected, -1 with *err set. */
static inline int
next_position(sqlite3 *db, struct reader *r, uint64_t *size, int *col, int ncol,
    uint64_t *delta, struct ev_err *err)
{
	uint64_t v, used;
	int got;

	/* a varint of one byte on this page: most of them */
	if (r->off < r->szleaf && r->p[r->off] < 0x80 && r->off < run_end(r)) {
		v = r->p[r->off++];
		used = 1;
	} else if ((got = run_varint(db, r, &v, &used, err)) != 1)
		return got;
	if (used > *size)
		return 0;
	*size -= used;
	if (v == 1) {
		if ((got = run_varint(db, r, &v, &used, err)) != 1)
			return got;
		if (used > *size || v <= (uint64_t)*col || v >= (uint64_t)ncol)
			return 0;
		*size -= used;
		*col = (int)v;
		return 2;
	}
	if (v < 2)
		return 0;
	*delta = v - 2;
	return 1;
}

/* The position list of rowid, its size read: its instances into sink.
 * Returns 1, 0 when the index is not as expected, -1 with *err set. */
static int
read_positions(sqlite3 *db, struct reader *r, long long rowid, uint64_t size, int ncol,
    const struct ev_fts5seg_sink *sink, struct ev_err *err)
{
	long long off = 0;
	uint64_t delta;
	int col = 0, got;

	while (size > 0) {
		if ((got = next_position(db, r, &size, &col, ncol, &delta, err)) == 2) {
			off = 0;
			continue;
		}
		if (got != 1)
			return got;
		off += (long long)delta;
		if (sink->instance(sink->ctx, rowid, col, off, err) == -1)
			return -1;
	}
	return 1;
}

/* The position list of rowid, its size read, as read_positions(), into
 * sink->row(): its instances counted by column, and their offsets as
 * distances in ev_varint_put()'s varints (fts5seg.h).  Returns 1, 0 when
 * the index is not as expected, -1 with *err set. */
static int
read_row(sqlite3 *db, struct reader *r, long long rowid, uint64_t size, int ncol,
    const struct ev_fts5seg_sink *sink, struct ev_err *err)
{
	uint32_t counts[EV_FTS5SEG_MAX_COLS] = { 0 };
	unsigned char *o;
	uint64_t delta;
	int col = 0, got;

	/* an offset's varint here is never longer than FTS5's for it but
	 * above 2^63 (10 bytes for 9); r->row.len stays 0 */
	if (r->row.cap < (size_t)size + (size_t)size / 8 + 16 &&
	    ev_buf_reserve(&r->row, (size_t)size + (size_t)size / 8 + 16) == -1)
		return ev_err_nomem(err);
	o = (unsigned char *)r->row.p;
	while (size > 0) {
		if ((got = next_position(db, r, &size, &col, ncol, &delta, err)) == 2)
			continue;
		if (got != 1)
			return got;
		if (delta < 0x80)
			*o++ = (unsigned char)delta;
		else
			o = ev_varint_put(o, delta);
		counts[col]++;
	}
	return sink->row(sink->ctx, rowid, counts, (const unsigned char *)r->row.p,
	    (size_t)(o - (unsigned char *)r->row.p), err) == -1 ? -1 : 1;
}

/* Every term and doclist of the segment's leaves.  Returns 1, 0 when the
 * index is not as expected, -1 with *err set. */
static int
read_leaves(sqlite3 *db, struct reader *r, int ncol, const struct ev_fts5seg_sink *sink,
    struct ev_err *err)
{
	long long rowid = 0;
	int first = 0, got;
	uint64_t v, size, used;

	if ((got = next_page(db, r, err)) != 1 || r->nterms == 0 || r->terms[0] != 4)
		return got == 1 ? 0 : got;
	for (;;) {
		if (r->off >= r->szleaf) {
			if ((got = next_page(db, r, err)) != 1)
				return got == 0 && r->page == r->last ? 1 : got;
			continue;
		}
		if (r->ti < r->nterms && r->off == r->terms[r->ti]) {
			if ((got = read_term(r, err)) != 1)
				return got;
			if (sink->term(sink->ctx, r->term + 1, r->termlen - 1, err) == -1)
				return -1;
			first = 1;
			continue;
		}
		/* a rowid: whole when the doclist's first or the page's */
		{
			int whole = first || r->off == r->rowid_off;

			if (r->off > run_end(r) || get_varint(r->p, &r->off, run_end(r), &v) == -1 ||
			    (!whole && v == 0))
				return 0;
			rowid = whole ? (long long)v : rowid + (long long)v;
			first = 0;
		}
		if ((got = run_varint(db, r, &size, &used, err)) != 1)
			return got;
		if ((size & 1) != 0 || size == 0)	/* a delete mark, or no position */
			return 0;
		got = sink->row != NULL && ncol <= EV_FTS5SEG_MAX_COLS ?
		    read_row(db, r, rowid, size >> 1, ncol, sink, err) :
		    read_positions(db, r, rowid, size >> 1, ncol, sink, err);
		if (got != 1)
			return got;
	}
}

/* The one segment of the structure record p[0..n): 1 with its id and
 * leaves, 0 when the index is not one segment of a structure this reader
 * knows, 2 when it is empty. */
static int
one_segment(const unsigned char *p, int n, long long *segid, long long *first, long long *last)
{
	uint64_t nlevel, nseg, counter, merging, inlevel, id, a, b;
	int at = 4, found = 0;

	if (n < 7 || (n >= 8 && memcmp(p + 4, STRUCTURE_V2, 4) == 0) ||
	    get_varint(p, &at, n, &nlevel) == -1 || get_varint(p, &at, n, &nseg) == -1 ||
	    get_varint(p, &at, n, &counter) == -1)
		return 0;
	if (nseg == 0)
		return 2;
	if (nseg != 1)
		return 0;
	for (uint64_t l = 0; l < nlevel; l++) {
		if (get_varint(p, &at, n, &merging) == -1 || get_varint(p, &at, n, &inlevel) == -1 ||
		    merging != 0 || inlevel > 1)
			return 0;
		for (uint64_t i = 0; i < inlevel; i++) {
			if (get_varint(p, &at, n, &id) == -1 || get_varint(p, &at, n, &a) == -1 ||
			    get_varint(p, &at, n, &b) == -1 || id == 0 || id > 0xffff || a == 0 || b < a ||
			    b >= ((uint64_t)1 << 31))
				return 0;
			*segid = (long long)id;
			*first = (long long)a;
			*last = (long long)b;
			found++;
		}
	}
	return found == 1 && at == n;
}

/* The index's structure record: as one_segment(), or -1 with *err set. */
static int
structure(sqlite3 *db, const char *data, long long *segid, long long *first, long long *last,
    struct ev_err *err)
{
	char sql[256];
	sqlite3_stmt *s;
	int rc, r = 0;

	snprintf(sql, sizeof sql, "SELECT block FROM \"%s\" WHERE id = %d", data, STRUCTURE_ROWID);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return ev_err_set(err, EV_EXIT_RUNTIME, sqlite3_db_filename(db, "main"),
		    "reading the text index's structure: %s", sqlite3_errmsg(db));
	if ((rc = sqlite3_step(s)) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_BLOB)
		r = one_segment(sqlite3_column_blob(s, 0), sqlite3_column_bytes(s, 0), segid, first,
		    last);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = ev_err_set(err, EV_EXIT_RUNTIME, sqlite3_db_filename(db, "main"),
		    "reading the text index's structure: %s", sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return r;
}

int
ev_fts5seg_read(sqlite3 *db, const char *fts, int ncol, const struct ev_fts5seg_sink *sink,
    struct ev_err *err)
{
	struct reader r = { 0 };
	char data[160], sql[320];
	long long segid = 0, first = 0, last = 0;
	int got;

	if (snprintf(data, sizeof data, "%s_data", fts) >= (int)sizeof data || strchr(fts, '"'))
		return 0;
	if ((got = structure(db, data, &segid, &first, &last, err)) != 1)
		return got == 2 ? 1 : got;
	snprintf(sql, sizeof sql, "SELECT id, block FROM \"%s\" WHERE id BETWEEN %lld AND %lld"
	    " ORDER BY id", data, segid << SEGID_SHIFT | first, segid << SEGID_SHIFT | last);
	if (sqlite3_prepare_v2(db, sql, -1, &r.s, NULL) != SQLITE_OK)
		return ev_err_set(err, EV_EXIT_RUNTIME, sqlite3_db_filename(db, "main"),
		    "reading the text index's leaves: %s", sqlite3_errmsg(db));
	r.base = segid << SEGID_SHIFT;
	r.page = first - 1;
	r.last = last;
	got = read_leaves(db, &r, ncol, sink, err);
	sqlite3_finalize(r.s);
	free(r.terms);
	free(r.term);
	ev_buf_release(&r.row);
	return got;
}
