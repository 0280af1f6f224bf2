/* region.h: where a chunk of a paged document (a PDF) stands: the page it
 * starts on, the page it ends on, and the boxes of its lines; and, for a
 * hit, the boxes of the lines that hold its matched words, so that a viewer
 * can highlight them.
 *
 * Layer 4: includes err.h, buf.h, jsonl.h (Jansson) and store.h.
 *
 * A document record as ev-extract writes it carries, in "metadata",
 *
 *	"pages": [{"page", "offset_start", "offset_end", "width"?, "height"?}, ...]
 *	"lines": [{"page", "offset_start", "offset_end", "bbox": [x0, y0, x1, y1]}, ...]
 *
 * (offsets: bytes of its text; boxes: PDF points, origin at the page's top
 * left).  ev-ingest checks them (ev_regions_check()), keeps them out of the
 * document's stored metadata, and stores for each chunk its page, page_end
 * and lines in the table chunk_regions, made when the first such document is
 * ingested (a store without paged documents has none):
 *
 *	chunk_regions(rowid INTEGER PRIMARY KEY -- the chunk's rowid,
 *	              page INTEGER, page_end INTEGER -- NULL: page,
 *	              lines TEXT -- [[offset_start, offset_end, page, x0, y0, x1, y1
 *	                             (, page_width, page_height)], ...])
 *
 * A trigger deletes a chunk's row with the chunk. */
#ifndef EV_REGION_H
#define EV_REGION_H

#include <stddef.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "store.h"

struct ev_region_page {
	long page;
	size_t start, end;	/* the page's text: text[start, end) */
	double width, height;	/* its size in PDF points; 0: not known */
};

struct ev_region_line {
	long page;
	size_t start, end;	/* the line's text */
	double bbox[4];		/* x0, y0, x1, y1 */
};

/* A document's pages and lines, each in text order. */
struct ev_regions {
	struct ev_region_page *pages;
	size_t npages, cap_pages;
	struct ev_region_line *lines;
	size_t nlines, cap_lines;
};

#define EV_REGIONS_INIT { NULL, 0, 0, NULL, 0, 0 }

/* Whether a document's metadata object meta (NULL-safe) holds "pages" or
 * "lines". */
int ev_regions_present(const json_t *meta);

/* Read meta's "pages" and "lines" into *out (released first) for a text of
 * text_len bytes: each an array of objects as above, pages numbered from 1,
 * offsets within the text, start <= end, entries in text order (pages
 * numbered upward, each page's text after the one before; lines' pages
 * never going back), boxes of four
 * finite numbers with x0 <= x1 and y0 <= y1 (a box may stand partly off its
 * page: a coordinate may be negative), a page's "width" and "height"
 * (optional) positive numbers.  Either may be absent (empty).  Returns 0, or -1 with *err
 * set: code 2 at where ("metadata.lines[3]: ..."), code 1 out of memory. */
int ev_regions_read(const json_t *meta, size_t text_len, struct ev_regions *out,
	const char *where, struct ev_err *err);

/* Check entry e, the i-th of metadata.lines (line 1) or of metadata.pages
 * (line 0), as ev_regions_read() does, and add it to *r (after the ones
 * added before, which it must follow in text order).  Returns 0, or -1 with
 * *err set (code 2 at where, code 1 out of memory). */
int ev_regions_add(struct ev_regions *r, int line, const json_t *e, size_t i, size_t text_len,
	const char *where, struct ev_err *err);

/* Check that pages and lines (either NULL) are arrays or null, as
 * ev_regions_read() does.  Returns 0, or -1 with *err set (code 2). */
int ev_regions_check_arrays(const json_t *pages, const json_t *lines, const char *where,
	struct ev_err *err);

/* Free what *r holds; it is EV_REGIONS_INIT again (NULL-safe). */
void ev_regions_release(struct ev_regions *r);

/* Append *r to out as text that ev_regions_decode() reads back (a line a
 * page or line; numbers as ev-extract writes them).  Returns 0 or -1 (out of
 * memory). */
int ev_regions_encode(const struct ev_regions *r, struct ev_buf *out);

/* Read s[0..n) as ev_regions_encode() wrote it into *out (released first).
 * Returns 0, or -1: out of memory or not such text (*out then empty). */
int ev_regions_decode(const char *s, size_t n, struct ev_regions *out);

/* Where the text [start, end) stands: *page is the page whose text holds
 * start (else the first page after it), *page_end the last page that starts
 * before end (at least *page);
 * lines_json gets "[[s, e, page, x0, y0, x1, y1], ...]", the lines that
 * overlap [start, end), each followed by its page's width and height
 * ([..., x1, y1, w, h]) when r knows them.  Returns 1, 0 when r has no page there (nothing
 * set), -1 out of memory. */
int ev_regions_span(const struct ev_regions *r, size_t start, size_t end, long *page,
	long *page_end, struct ev_buf *lines_json);

/* Whether st has the table chunk_regions: 1, 0, or -1 with *err set. */
int ev_region_table(struct ev_store *st, struct ev_err *err);

/* Make the table and its trigger when missing (in the caller's
 * transaction).  Returns 0 or -1 with *err set. */
int ev_region_create(struct ev_store *st, struct ev_err *err);

/* Forget the regions of document doc_id's chunks (before it is stored
 * again; the table must exist).  Returns 0 or -1 with *err set. */
int ev_region_forget(struct ev_store *st, const char *doc_id, struct ev_err *err);

/* Store the region of the stored chunk chunk_id (its page, page_end, and
 * lines_json as ev_regions_span() writes it).  Returns 0 or -1 with *err
 * set. */
int ev_region_put(struct ev_store *st, const char *chunk_id, long page, long page_end,
	const char *lines_json, struct ev_err *err);

/* The region of the chunk with this rowid: 1 with *page, *page_end (equal
 * to *page when it ends on its first page) and its lines' JSON appended to
 * lines_json; 0 when it has none; -1 with *err set.  The table must exist. */
int ev_region_get(struct ev_store *st, long long rowid, long *page, long *page_end,
	struct ev_buf *lines_json, struct ev_err *err);

/* What is wrong with stored line l, a JSON value of a chunk's lines, not as
 * ev-ingest writes it (not an array of seven numbers at least, a page that
 * is no whole number from 1, offsets that are none), written into why
 * (size bytes: "has page 1.5, which is no page number") and returned; NULL
 * when it is as ev-ingest writes it. */
const char *ev_region_line_damage(const json_t *l, char *why, size_t size);

/* The lines of lines_json (as ev_region_get() gives) that overlap any of
 * the byte ranges spans[0..2n) (start, end pairs, offsets of the document's
 * text), in text order, as a new array [{"page", "bbox": [x0, y0, x1, y1],
 * "bbox_norm"?}, ...] (empty when none); bbox_norm, the box in fractions of
 * its page's width and height (0 to 1, four decimals), when the line holds
 * its page's size.  Lines not as ev-ingest writes them (a damaged store:
 * ev_region_line_damage()) are left out and counted in *damaged, a
 * lines_json that is not an array of lines as 1.  NULL when out of
 * memory. */
json_t *ev_region_boxes(const char *lines_json, size_t len, const size_t *spans, size_t n,
	size_t *damaged);

#endif
