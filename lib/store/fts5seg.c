/* fts5seg.c: an FTS5 index read from its segments' leaves, their terms
 * merged.  See fts5seg.h. */
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
	int ord;			/* the segment's age: 0 the oldest */
	int done;			/* past its last leaf */
};

/* A segment of the structure record: its id and first and last leaves. */
struct seg {
	long long id, first, last;
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

/* A failed read of the index's `what` ("leaves", "structure") into *err.
 * Returns -1. */
static int
index_error(sqlite3 *db, const char *what, struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, sqlite3_db_filename(db, "main"),
	    "reading the text index's %s: %s", what, sqlite3_errmsg(db));
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
		return index_error(db, "leaves", err);
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

/* r on to its next leaf (next_page()): 1; 2 past its segment's last leaf
 * (r->done set); 0 when the index is not as expected, -1 with *err set. */
static int
next_leaf(sqlite3 *db, struct reader *r, struct ev_err *err)
{
	int got = next_page(db, r, err);

	if (got == 0 && r->page == r->last) {
		r->done = 1;
		return 2;
	}
	return got;
}

/* The doclist of r's term (its term read): its rows into sink, each after
 * *last (the term's last row given so far, when *any), until the next term
 * (read, r->term) or the segment's end (r->done).  Returns 1, 0 when the
 * index is not as expected (a row not after *last among them), -1 with
 * *err set. */
static int
read_doclist(sqlite3 *db, struct reader *r, int ncol, const struct ev_fts5seg_sink *sink,
    long long *last, int *any, struct ev_err *err)
{
	long long rowid = 0;
	int first = 1, got;
	uint64_t v, size, used;

	for (;;) {
		if (r->off >= r->szleaf) {
			if ((got = next_leaf(db, r, err)) != 1)
				return got == 2 ? 1 : got;
			continue;
		}
		if (r->ti < r->nterms && r->off == r->terms[r->ti])
			return first ? 0 : read_term(r, err);
		/* a rowid: whole when the doclist's first or the page's */
		{
			int whole = first || r->off == r->rowid_off;

			if (r->off > run_end(r) || get_varint(r->p, &r->off, run_end(r), &v) == -1 ||
			    (!whole && v == 0))
				return 0;
			rowid = whole ? (long long)v : rowid + (long long)v;
			if (*any && rowid <= *last)
				return 0;
			*last = rowid;
			*any = 1;
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

/* FTS5's order of the terms a[0..alen) and b[0..blen): memcmp, then the
 * shorter first.  < 0, 0 or > 0. */
static int
term_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c != 0 || alen == blen)
		return c;
	return alen < blen ? -1 : 1;
}

/* The order of readers a and b: by their terms, then the older segment
 * first. */
static int
before(const struct reader *a, const struct reader *b)
{
	int c = term_cmp(a->term, a->termlen, b->term, b->termlen);

	return c != 0 ? c : a->ord - b->ord;
}

/* Restore the heap h[0..n) (the least term first) from slot i down. */
static void
sift_down(struct reader **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < n && before(h[l], h[m]) < 0)
			m = l;
		if (l + 1 < n && before(h[l + 1], h[m]) < 0)
			m = l + 1;
		if (m == i)
			return;
		struct reader *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Every term of the segments' readers h[0..n) (each at its first term),
 * once each, in FTS5's order, up to (not with) hi[0..hilen) when hi is not
 * NULL (with FTS5's prefix byte), with the rows of every segment holding
 * it, the older segment's first: the rows must ascend from one segment to
 * the next, as a load's batches give them.  Returns 1, 0 when the index is
 * not as expected, -1 with *err set. */
static int
merge_terms(sqlite3 *db, struct reader **h, size_t n, int ncol, const char *hi, size_t hilen,
    const struct ev_fts5seg_sink *sink, struct ev_err *err)
{
	struct ev_buf cur = EV_BUF_INIT;
	long long last = 0;
	int any = 0, got = 1, have = 0;

	for (size_t i = n; i-- > 0; )
		sift_down(h, n, i);
	while (n > 0 && got == 1) {
		struct reader *r = h[0];
		int c = have ? term_cmp(r->term, r->termlen, cur.p, cur.len) : 1;

		if (c > 0 && hi != NULL && term_cmp(r->term, r->termlen, hi, hilen) >= 0)
			break;	/* the least term left is past the range */
		if (c < 0) {
			got = 0;	/* a segment's terms out of order */
			break;
		}
		if (c > 0) {
			cur.len = 0;
			if (ev_buf_add(&cur, r->term, r->termlen) == -1) {
				got = ev_err_nomem(err);
				break;
			}
			/* the copy: valid until the next term, whoever reads on */
			if (sink->term(sink->ctx, cur.p + 1, cur.len - 1, err) == -1) {
				got = -1;
				break;
			}
			have = 1;
			any = 0;
		}
		if ((got = read_doclist(db, r, ncol, sink, &last, &any, err)) == 1 && r->done)
			h[0] = h[--n];
		sift_down(h, n, 0);
	}
	ev_buf_release(&cur);
	return got;
}

/* The segments of the structure record p[0..n), the oldest first (the
 * highest level's, each level's in its order), into *segs (malloc'd) and
 * *nseg: 1, 0 when the index is not of a structure this reader knows (or
 * a level is being merged), -1 with *err set (out of memory). */
static int
segments(const unsigned char *p, int n, struct seg **segs, size_t *nseg, struct ev_err *err)
{
	uint64_t nlevel, total, counter, merging, inlevel, id, a, b;
	int at = 4;
	size_t k;

	*segs = NULL;
	*nseg = 0;
	if (n < 7 || (n >= 8 && memcmp(p + 4, STRUCTURE_V2, 4) == 0) ||
	    get_varint(p, &at, n, &nlevel) == -1 || get_varint(p, &at, n, &total) == -1 ||
	    get_varint(p, &at, n, &counter) == -1 || total > (uint64_t)n)
		return 0;
	if (total > 0 && (*segs = malloc((size_t)total * sizeof **segs)) == NULL)
		return ev_err_nomem(err);
	k = (size_t)total;
	for (uint64_t l = 0; l < nlevel; l++) {
		size_t from;

		if (get_varint(p, &at, n, &merging) == -1 || get_varint(p, &at, n, &inlevel) == -1 ||
		    merging != 0 || inlevel > k)
			return 0;
		/* the levels are filled from the end: the last level's first */
		k -= (size_t)inlevel;
		from = k;
		for (uint64_t i = 0; i < inlevel; i++) {
			if (get_varint(p, &at, n, &id) == -1 || get_varint(p, &at, n, &a) == -1 ||
			    get_varint(p, &at, n, &b) == -1 || id == 0 || id > 0xffff || a == 0 || b < a ||
			    b >= ((uint64_t)1 << 31))
				return 0;
			(*segs)[from + i] = (struct seg){ (long long)id, (long long)a, (long long)b };
		}
	}
	*nseg = (size_t)total;
	return k == 0 && at == n;
}

/* The index's structure record: as segments(), or -1 with *err set. */
static int
structure(sqlite3 *db, const char *data, struct seg **segs, size_t *nseg, struct ev_err *err)
{
	char sql[256];
	sqlite3_stmt *s;
	int rc, r = 0;

	*segs = NULL;
	*nseg = 0;
	snprintf(sql, sizeof sql, "SELECT block FROM \"%s\" WHERE id = %d", data, STRUCTURE_ROWID);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return index_error(db, "structure", err);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW && sqlite3_column_type(s, 0) == SQLITE_BLOB)
		r = segments(sqlite3_column_blob(s, 0), sqlite3_column_bytes(s, 0), segs, nseg, err);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = index_error(db, "structure", err);
	sqlite3_finalize(s);
	return r;
}

/* The page of segment g where its terms from lo[0..lolen) (with FTS5's
 * prefix byte) begin, at the latest, from the index's table idx (FTS5's
 * %_idx: a row for each leaf that holds a term, keyed by a prefix of its
 * first term longer than any of the leaf before's, its page number times 2
 * plus a flag): its last leaf keyed at or before lo, else the segment's
 * first.  Returns the page, or -1 with *err set. */
static long long
start_page(sqlite3 *db, const char *idx, const struct seg *g, const char *lo, size_t lolen,
    struct ev_err *err)
{
	char sql[256];
	sqlite3_stmt *s;
	long long page = g->first;
	int rc;

	snprintf(sql, sizeof sql, "SELECT pgno FROM \"%s\" WHERE segid = ?1 AND term <= ?2"
	    " ORDER BY term DESC LIMIT 1", idx);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(s, 1, g->id) != SQLITE_OK ||
	    sqlite3_bind_blob(s, 2, lo, (int)lolen, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(s);
		return index_error(db, "leaves", err);
	}
	if ((rc = sqlite3_step(s)) == SQLITE_ROW && (sqlite3_column_int64(s, 0) >> 1) > g->first &&
	    (sqlite3_column_int64(s, 0) >> 1) <= g->last)
		page = sqlite3_column_int64(s, 0) >> 1;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return index_error(db, "leaves", err);
	return page;
}

/* Move r, on a page from which it reads no doclist, to its next term
 * (the page's next, else the first of the next leaf holding one).  Returns
 * 1, 2 past the segment's last term (r->done), 0 when the index is not as
 * expected, -1 with *err set. */
static int
skip_term(sqlite3 *db, struct reader *r, struct ev_err *err)
{
	int got;

	while (r->ti >= r->nterms)
		if ((got = next_leaf(db, r, err)) != 1)
			return got;
	r->off = r->terms[r->ti];
	return read_term(r, err);
}

/* Start r on the leaves of segment g (the ord-th oldest) of the index's
 * data table data, at its first term, or with lo (not NULL) at its first
 * term from lo[0..lolen) on (with FTS5's prefix byte; idx: the index's
 * %_idx table).  Returns 1, 2 when it holds no such term, 0 when the
 * segment is not as expected, -1 with *err set. */
static int
open_reader(sqlite3 *db, const char *data, const char *idx, const struct seg *g, int ord,
    const char *lo, size_t lolen, struct reader *r, struct ev_err *err)
{
	char sql[320];
	long long from = lo != NULL ? start_page(db, idx, g, lo, lolen, err) : g->first;
	int got;

	if (from == -1)
		return -1;
	snprintf(sql, sizeof sql, "SELECT id, block FROM \"%s\" WHERE id BETWEEN %lld AND %lld"
	    " ORDER BY id", data, g->id << SEGID_SHIFT | from, g->id << SEGID_SHIFT | g->last);
	if (sqlite3_prepare_v2(db, sql, -1, &r->s, NULL) != SQLITE_OK)
		return index_error(db, "leaves", err);
	r->base = g->id << SEGID_SHIFT;
	r->page = from - 1;
	r->last = g->last;
	r->ord = ord;
	if ((got = next_page(db, r, err)) != 1)
		return got;
	if (from == g->first && (r->nterms == 0 || r->terms[0] != 4))
		return 0;	/* a segment begins with a term */
	/* the page's terms (or the next leaf's) up to the first from lo on */
	while ((got = skip_term(db, r, err)) == 1 && lo != NULL &&
	    term_cmp(r->term, r->termlen, lo, lolen) < 0)
		;
	return got;
}

/* The index's tables' names, fts's %_data and %_idx, into data and idx.
 * Returns 1, or 0 for a name this reader does not read. */
static int
table_names(const char *fts, char data[160], char idx[160])
{
	return snprintf(data, 160, "%s_data", fts) < 160 && snprintf(idx, 160, "%s_idx", fts) < 160 &&
	    strchr(fts, '"') == NULL;
}

/* ev_fts5seg_read_range() with its bounds given FTS5's prefix byte. */
static int
read_range(sqlite3 *db, const char *fts, int ncol, const char *lo, size_t lolen, const char *hi,
    size_t hilen, const struct ev_fts5seg_sink *sink, struct ev_err *err)
{
	struct reader *rd = NULL, **h = NULL;
	struct seg *segs = NULL;
	char data[160], idx[160];
	size_t nseg = 0, i = 0, n = 0;
	int got;

	if (!table_names(fts, data, idx))
		return 0;
	if ((got = structure(db, data, &segs, &nseg, err)) != 1 || nseg == 0) {
		free(segs);
		return got;
	}
	if ((rd = calloc(nseg, sizeof *rd)) == NULL || (h = malloc(nseg * sizeof *h)) == NULL)
		got = ev_err_nomem(err);
	for (; got == 1 && i < nseg; i++) {
		/* (a segment holding no term of the range is left out) */
		if ((got = open_reader(db, data, idx, &segs[i], (int)i, lo, lolen, &rd[i], err)) == 1)
			h[n++] = &rd[i];
		else if (got == 2)
			got = 1;
	}
	if (got == 1)
		got = merge_terms(db, h, n, ncol, hi, hilen, sink, err);
	for (i = 0; rd != NULL && i < nseg; i++) {
		sqlite3_finalize(rd[i].s);
		free(rd[i].terms);
		free(rd[i].term);
		ev_buf_release(&rd[i].row);
	}
	free(rd);
	free(h);
	free(segs);
	return got;
}

/* A bound of the sink's terms, b[0..len), with FTS5's prefix byte before
 * it, into *out (malloc'd; NULL for b NULL).  Returns 0, or -1 with *err
 * set. */
static int
bound(const char *b, size_t len, char **out, struct ev_err *err)
{
	*out = NULL;
	if (b == NULL)
		return 0;
	if ((*out = malloc(len + 1)) == NULL)
		return ev_err_nomem(err);
	(*out)[0] = MAIN_PREFIX;
	if (len > 0)
		memcpy(*out + 1, b, len);
	return 0;
}

int
ev_fts5seg_read_range(sqlite3 *db, const char *fts, int ncol, const char *lo, size_t lolen,
    const char *hi, size_t hilen, const struct ev_fts5seg_sink *sink, struct ev_err *err)
{
	char *l = NULL, *u = NULL;
	int got = -1;

	if (bound(lo, lolen, &l, err) == 0 && bound(hi, hilen, &u, err) == 0)
		got = read_range(db, fts, ncol, l, lolen + 1, u, hilen + 1, sink, err);
	free(l);
	free(u);
	return got;
}

int
ev_fts5seg_read(sqlite3 *db, const char *fts, int ncol, const struct ev_fts5seg_sink *sink,
    struct ev_err *err)
{
	return read_range(db, fts, ncol, NULL, 0, NULL, 0, sink, err);
}

int
ev_fts5seg_split(sqlite3 *db, const char *fts, char **split, size_t *len, struct ev_err *err)
{
	struct seg *segs = NULL, *big = NULL;
	char data[160], idx[160], sql[256];
	sqlite3_stmt *s = NULL;
	size_t nseg = 0;
	int got, rc;

	*split = NULL;
	*len = 0;
	if (!table_names(fts, data, idx))
		return 0;
	if ((got = structure(db, data, &segs, &nseg, err)) != 1)
		goto out;
	for (size_t i = 0; i < nseg; i++)
		if (big == NULL || segs[i].last - segs[i].first > big->last - big->first)
			big = &segs[i];
	got = 0;
	if (big == NULL)
		goto out;
	/* the key of the first leaf holding a term from the largest segment's
	 * middle leaf on */
	snprintf(sql, sizeof sql, "SELECT term FROM \"%s\" WHERE segid = %lld AND pgno >= %lld"
	    " ORDER BY pgno LIMIT 1", idx, big->id, 2 * (big->first + (big->last - big->first) / 2));
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		got = index_error(db, "leaves", err);
		goto out;
	}
	if ((rc = sqlite3_step(s)) == SQLITE_ROW && sqlite3_column_bytes(s, 0) > 1 &&
	    ((const char *)sqlite3_column_blob(s, 0))[0] == MAIN_PREFIX) {
		*len = (size_t)sqlite3_column_bytes(s, 0) - 1;
		if ((*split = malloc(*len)) == NULL)
			got = ev_err_nomem(err);
		else {
			memcpy(*split, (const char *)sqlite3_column_blob(s, 0) + 1, *len);
			got = 1;
		}
	} else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		got = index_error(db, "leaves", err);
out:
	sqlite3_finalize(s);
	free(segs);
	if (got != 1)
		*len = 0;
	return got;
}
