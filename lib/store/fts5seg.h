/* fts5seg.h: an FTS5 index read straight from its segments' leaves, the
 * way FTS5 itself stores them, for the postings file (postings.h): every
 * instance of every term, in the order of fts5vocab's 'instance' table,
 * without a row of SQL for each.  fts5vocab gives the same instances at
 * several times the cost (most of building the postings file of a large
 * store went into stepping its rows).
 *
 * Low layer: includes err.h and SQLite.
 *
 * The segments are read side by side, their terms merged (a heap of
 * readers, the least term first): a term's rows are each segment's holding
 * it, the oldest segment's first (the highest level's, then each level's in
 * the structure's order), and they must ascend from one segment to the
 * next, as the batches of a load give them (ev-ingest leaves a bulk load's
 * segments unmerged when its postings file follows, ingest.h): merging
 * them here costs the reading alone, where FTS5's merge wrote the index
 * again.  The format is the one SQLite 3.x writes
 * (fts5_index.c): the structure record (a 32-bit cookie, then varints: the
 * levels, the segments, the write counter; each level's merging and
 * segments; each segment's id and first and last leaf); the leaves, each a
 * 4-byte header (the offset of the page's first rowid before its first
 * term, or 0; the offset of its footer), the terms and doclists, and a
 * footer of the terms' offsets.  A term is "0" then its bytes (the main
 * index); the first term of a page is whole, the others share a prefix
 * with the one before.  A doclist is rowids (the first of a term's
 * doclist, and the first on a page, whole; the others as the difference),
 * each followed by its position list: its size times 2 (plus 1 for a
 * delete mark), then varints: 1 and a column number to change column, or
 * an offset's distance from the previous one in its column plus 2.  A
 * position list, but no varint, runs over from one page to the next.
 *
 * An index whose rows do not ascend so, with a level being merged, of
 * another structure version, with a delete mark, or with anything this
 * reader does not expect is not read: the caller reads it otherwise
 * (postings.c merges it into one segment with FTS5's optimize first). */
#ifndef EV_FTS5SEG_H
#define EV_FTS5SEG_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "err.h"

#define EV_FTS5SEG_MAX_COLS 8	/* the columns row (below) is given for, at most */

/* Where the instances go.  term: a new term (its bytes, without FTS5's
 * prefix byte, valid until the next term), in FTS5's order; instance: one of its instances, in row,
 * column and offset order.  row, when not NULL and the index has at most
 * EV_FTS5SEG_MAX_COLS columns, is called in place of instance, once for
 * each row of the term, in row order: counts[c] its instances in column c
 * (c < ncol), and their offsets at pos[0..len) (valid during the call),
 * column by column, each the distance from the one before in its column
 * (the first from 0) as an ev_varint_put() varint (buf.h): a cheaper way to
 * the same instances, a call a row rather than one an instance.  Each
 * returns 0, or -1 with *err set to stop. */
struct ev_fts5seg_sink {
	int (*term)(void *ctx, const char *term, size_t len, struct ev_err *err);
	int (*instance)(void *ctx, long long rowid, int col, long long off, struct ev_err *err);
	void *ctx;
	int (*row)(void *ctx, long long rowid, const uint32_t *counts, const unsigned char *pos,
	    size_t len, struct ev_err *err);
};

/* Read every instance of the FTS5 table named fts (its %_data table
 * fts_data) of db, in the caller's read transaction, into sink.  Returns 1
 * when the index was read whole; 0 when it is not one this reader reads
 * (above: the sink may have been given part of it, which the caller
 * discards); -1 with *err set (SQLite's error, or the sink's). */
int ev_fts5seg_read(sqlite3 *db, const char *fts, int ncol, const struct ev_fts5seg_sink *sink,
	struct ev_err *err);

/* ev_fts5seg_read() of the terms from lo[0..lolen) (with it) up to
 * hi[0..hilen) (without it) alone, in FTS5's order of their bytes (no
 * prefix byte); lo NULL: from the first, hi NULL: to the last.  Each
 * segment's reading begins at the leaf FTS5's %_idx table says the range's
 * first term is on, at the latest: two ranges that meet read the index on
 * two threads (each with a connection of its own), in about half the time.
 * Returns as ev_fts5seg_read(). */
int ev_fts5seg_read_range(sqlite3 *db, const char *fts, int ncol, const char *lo, size_t lolen,
	const char *hi, size_t hilen, const struct ev_fts5seg_sink *sink, struct ev_err *err);

/* A term bound (no prefix byte) that splits the index's terms about in half
 * by the bytes of their leaves: the key of the first leaf holding a term
 * from the largest segment's middle on, into *split (malloc'd, the caller
 * frees) and *len.  Returns 1; 0 when there is none (an index of one leaf,
 * or one this reader does not read: *split NULL); -1 with *err set. */
int ev_fts5seg_split(sqlite3 *db, const char *fts, char **split, size_t *len, struct ev_err *err);

#endif
