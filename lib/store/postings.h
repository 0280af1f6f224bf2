/* postings.h: a read-only copy of the FTS5 index's posting lists, laid out
 * for scoring a whole query in one sweep (the text lane at scale).
 *
 * Middle layer: includes buf.h, err.h and store.h.
 *
 * FTS5 ranks a query by walking, row by row, every posting list of the
 * query's phrases through its own segment b-trees, reading each row's
 * length from a table; at a million chunks a query of fifteen words takes
 * seconds.  The postings file holds the same lists as flat arrays, mapped
 * into memory: for every term of the index, its rows in rowid order, each
 * with the term's count in every column and its positions; and every row's
 * length in tokens.  ev_bm25_postings() (bm25.h) scores from it exactly what
 * ev_bm25() scores from FTS5.
 *
 * The file is DB.postings beside the store DB.  It is made from the index
 * (its segments' pages, fts5seg.h, else fts5vocab's 'instance' table; and
 * FTS5's own tables), so it holds what
 * FTS5 holds, token for token, and it is stamped with FTS5's structure and
 * totals records: any write to the index (an ingest, a deletion, a merge)
 * changes them, and a file whose stamp differs is stale and never read.  It
 * is written to DB.postings.tmp and renamed into place: a build that is
 * killed leaves the previous file (stale, then) and no half-written one.
 *
 * Layout (host byte order; the magic tells another order apart): a header
 * of 160 bytes (magic "EVPOST01", version, columns, the index's rows and
 * tokens, the largest rowid, the number of terms, the sections' offsets,
 * the stamp); the postings; the positions; every rowid's length (uint32, 0
 * for no row); the terms, sorted by their bytes, each with its string, its
 * number of rows and its lists' extents, then the narrowed words (below),
 * sorted so too; the terms' strings; the chunks' languages and their
 * chunks (for the text lane's query languages, which would otherwise cost a
 * scan of every chunk at each start).
 *
 * The narrowed words.  An index of analysis version 2 or 3 (analyze.h)
 * holds each word of a chunk of a Snowball language twice at one position:
 * its stem in the chunk's language and the word itself ("\x1f\x1f" and the
 * word), which a query word searches beside its stem when some chunks are
 * of a language it was not stemmed for.  In a chunk whose words are stemmed
 * by Porter into the untagged namespace (ev_analyze_porter_tag(): English,
 * Chinese, Japanese, Korean), the word itself is always beside its untagged
 * stem (version 2) or not there at all (version 3), so that there the two
 * together hold exactly the stem's rows and positions; the word itself
 * adds only the rows of the other chunks.  So every word
 * itself that some other chunk holds (of another language, or of none
 * recorded) has a second entry, its narrowed list: the same entries, in
 * those chunks alone; ev_postings_term() reads it for the word itself
 * written after EV_POSTINGS_NARROWED.  A word itself without one is held
 * by chunks of the Porter namespace alone.  A word searched as its untagged
 * stem or itself is thus the stem's list and the itself's narrowed one:
 * the same rows, counts and positions together, and in a store of one such
 * language nearly half the entries to read.
 *
 * A term's postings are one entry per row: the rowid's distance from the
 * previous entry's, then the term's counts in the columns (below), all
 * unsigned LEB128 varints; after a list of EV_POSTINGS_BLOCK entries or
 * more, 8-aligned, its skips (struct ev_postings_skip), one a block.  Its
 * positions are apart, in the positions section: first, 8-aligned, where
 * each block's positions begin (uint64, from the list's first position, one
 * a skip), then every entry's positions, column by column, each the
 * distance from the previous one in its column (varints).  Most of a
 * query's walks need only rows and counts: kept apart, the positions (more
 * than half of a list's bytes) are neither read from the disk nor stepped
 * over for them.  An entry's positions are found from its block's start,
 * stepping over the varints the counts of the entries before it say
 * (ev_postings_positions()).
 *
 * The counts are one byte below 0x80 when every column but the last holds
 * the term at most once and the last at most 2^(8 - columns) - 1 times (up
 * to 31 with evkit's three: a word in the title, once, and in the text, a
 * few times, is most entries): the last column's count in its low 8 -
 * columns bits, column i's (0 or 1) in the bit above them plus i.  Any
 * other counts are the byte 0x80 and then each column's count.  Three
 * varints took 3 bytes an entry, nearly half the lists' bytes at 1 M
 * chunks; the byte makes the lists a third shorter, which is a third less
 * to read from the disk when they are out of the page cache. */
#ifndef EV_POSTINGS_H
#define EV_POSTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"
#include "store.h"

#define EV_POSTINGS_SUFFIX ".postings"
#define EV_POSTINGS_MAX_COLS 8
#define EV_POSTINGS_COUNTS_ESCAPE 0x80	/* the counts follow as varints */
/* In front of a word itself ("\x1f\x1f" and the word), this byte (never
 * the first of a term: the index's terms are UTF-8) names its narrowed
 * list (above). */
#define EV_POSTINGS_NARROWED '\xff'

/* The functions below that a sweep calls for every entry of its lists are
 * inlined whatever the compiler weighs (they are small, and called from
 * many places): at 1,000,000 chunks, a query's instructions fall by 7 %.
 * And an index of three columns (evkit's: title, section title, text) has
 * its one-byte counts read by a branch of its own, no loop. */
#define EV_POSTINGS_HOT __attribute__((always_inline))
#define EV_POSTINGS_EVKIT_COLS 3

/* ev-ingest makes a store's postings file once it holds this many chunks:
 * every store.  Below 50,000 chunks, where it once made none, FTS5 ranked a
 * query in two to four times the CPU time the file takes (1,668 chunks: 74
 * against 27 ms; 40,863: 216 against 106), and the text lane scanned every
 * chunk for the store's languages, which the file lists. */
#define EV_POSTINGS_AUTO_ROWS 1

struct ev_postings;

/* A term's lists are read in blocks of this many entries: a skip gives the
 * last row of a block and where the next begins (from the list's start). */
#define EV_POSTINGS_BLOCK 64
struct ev_postings_skip {
	int64_t last_rowid;
	uint64_t next;
};

/* One term's posting list, read entry by entry (ev_postings_next()). */
struct ev_postings_cursor {
	const unsigned char *p, *end;	/* what is left of the list */
	const unsigned char *base;	/* the list's start */
	const struct ev_postings_skip *skips;
	size_t nskip;
	size_t skip_at;			/* no later seek's block is before this one */
	int at;				/* on an entry (rowid, count valid) */
	int ncol;
	const unsigned char *sums;	/* each one-byte count's ev_postings_byte_sum() */
	long long rowid;		/* the current entry's row */
	uint32_t count[EV_POSTINGS_MAX_COLS];	/* the term's instances in each column */
	/* the list's positions (ev_postings_positions()): where they begin and
	 * end, and each block's start; the current entry's begin pos_since
	 * varints after byte pos_from, and it has pos_count of them; pos_read
	 * of those varints lie before pos_at (NULL: none read from pos_from) */
	const unsigned char *pos_base, *pos_end;
	const uint64_t *pos_skips;
	uint64_t pos_from;
	long long pos_since, pos_read;
	long long pos_count;
	const unsigned char *pos_at;
};

/* The stamp of st's text index now: the SHA-256 of FTS5's totals record
 * and structure record, which every write to the index changes.  Returns 0,
 * or -1 with *err set (code 1). */
int ev_postings_index_stamp(struct ev_store *st, unsigned char stamp[32], struct ev_err *err);

/* FTS5's totals of st's text index: its rows and their tokens over every
 * column.  Returns 0, or -1 with *err set (code 1). */
int ev_postings_totals(struct ev_store *st, long long *rows, long long *tokens, struct ev_err *err);

/* Every row's length in tokens (its columns summed) into *out (malloc'd,
 * the caller frees), indexed by rowid from 0 to *maxrowid, 0 for no row;
 * and, when with is not NULL, in the same pass what
 * ev_postings_column_rows() counts.  Returns 0, or -1 with *err set (code
 * 1: the store; or out of memory). */
int ev_postings_row_lengths(struct ev_store *st, uint64_t *maxrowid, uint32_t **out,
    long long *with, struct ev_err *err);

/* The rows of st's text index whose column i holds a token, into with[i]
 * for every i below EV_POSTINGS_MAX_COLS (0 past the index's columns).
 * Returns 0, or -1 with *err set (code 1). */
int ev_postings_column_rows(struct ev_store *st, long long with[EV_POSTINGS_MAX_COLS],
    struct ev_err *err);

/* Build (or rebuild) the postings file of the open store st from its FTS5
 * index, in one read transaction of its own (st must not be in one); an
 * index whose segments the segment reader does not read (fts5seg.h: a row
 * deleted or written again, say) is merged into one first (FTS5's
 * optimize, in a write transaction of its own), as the file is read far
 * faster from one.
 * progress, when not NULL, is called now and then with the rows of the
 * instance table read so far.  Returns 0, or -1 with *err set (code 1: the
 * store, the disk; the previous file, if any, is left as it was). */
int ev_postings_build(struct ev_store *st, void (*progress)(void *ctx, long long done), void *ctx,
	struct ev_err *err);

/* ev_postings_build() reads the index's terms on two threads when the
 * process may run on two processors: those before a term bound that splits
 * the index's leaves about in half (ev_fts5seg_split()) on the caller's,
 * the others on a worker's, over a connection of its own (a write to the
 * index between their reads is found by the stamp, and the file is then
 * made on one thread), and their lists put together in order: the same
 * file, byte for byte, in about half the time.  This one reads them split
 * at split[0..len) (FTS5's order of the terms' bytes), or on one thread
 * alone when split is NULL: for tests, which compare the two files. */
int ev_postings_build_split(struct ev_store *st, const char *split, size_t len, struct ev_err *err);

/* Whether the store st has a postings file: 1 when it has one made from
 * its index as it is now, 0 when it has none, -1 when the one it has is
 * stale, damaged or unreadable.  Returns -2 with *err set when the store cannot be
 * read. */
int ev_postings_state(struct ev_store *st, struct ev_err *err);

/* Whether the postings file of st should be made (again) after a write to
 * the store: 1 when it has one that is stale, or none and at least
 * min_rows chunks (ev-ingest gives EV_POSTINGS_AUTO_ROWS); 0 when its file
 * is current, or it has none and fewer chunks.  Returns -1 with *err set
 * when the store cannot be read. */
int ev_postings_wanted(struct ev_store *st, long long min_rows, struct ev_err *err);

/* What ev_postings_open() says of a file it does not open. */
#define EV_POSTINGS_STALE 1	/* the store was written since, or another version made it */
#define EV_POSTINGS_DAMAGED 2	/* cut short, or its header not a postings file's */
#define EV_POSTINGS_UNREADABLE 3	/* it cannot be opened or mapped: errno says why */

/* Open the store's postings file, mapped.  Returns it; or NULL with
 * err->code 0 when there is none (*stale set to 0), or it is stale
 * (*stale set to EV_POSTINGS_STALE), damaged (EV_POSTINGS_DAMAGED) or cannot
 * be read (EV_POSTINGS_UNREADABLE, errno set to why); or NULL with *err set (code 1) on an error of the
 * store or out of memory (ENOMEM opening or mapping it too).  The file describes the
 * index of the moment it was opened in: the caller reads the store in a
 * transaction begun before this call, or checks ev_postings_fresh() in each
 * one it begins. */
struct ev_postings *ev_postings_open(struct ev_store *st, int *stale, struct ev_err *err);

/* Whether the open file p still describes st's index (in the caller's
 * current transaction, if any).  Returns 1 or 0, or -1 with *err set. */
int ev_postings_fresh(const struct ev_postings *p, struct ev_store *st, struct ev_err *err);

/* Unmap and free (NULL-safe). */
void ev_postings_close(struct ev_postings *p);

/* Unmap the pages of the file p that are mapped in its part-th of nparts
 * equal parts (MADV_DONTNEED: the page cache keeps them, and a later read
 * maps them again), so that threads can each unmap their part at once, in
 * parallel, where ev_postings_close() or the process's exit unmaps them
 * all on one thread (at 1,000,000 chunks, 1.7-1.9 ms a query). */
void ev_postings_unmap_pages(const struct ev_postings *p, int part, int nparts);

/* The index's rows and tokens (every column), as FTS5's xRowCount() and
 * xColumnTotalSize(-1) give them; its columns. */
double ev_postings_rows(const struct ev_postings *p);
double ev_postings_tokens(const struct ev_postings *p);
int ev_postings_ncol(const struct ev_postings *p);

/* The largest rowid, and the rows' lengths: lengths[r] for r from 0 to
 * it is row r's length in tokens, every column (FTS5's xColumnSize(-1)), 0
 * for a rowid with no row. */
long long ev_postings_maxrowid(const struct ev_postings *p);
const uint32_t *ev_postings_lengths(const struct ev_postings *p);

/* The chunks' languages when the file was made, as EV_STORE_LANGS_SQL
 * (store.h) reads them, in its order: language i of ev_postings_nlangs()
 * (a code of 56 bytes or more reads as "") and its chunks. */
int ev_postings_nlangs(const struct ev_postings *p);
const char *ev_postings_lang(const struct ev_postings *p, int i, long long *chunks);

/* Set *err to say p's file is corrupt, naming it and the command that
 * makes it again; returns -1. */
int ev_postings_corrupt(const struct ev_postings *p, struct ev_err *err);

/* The index's terms: ev_postings_nterms() of them, term i (in the index's
 * order) its bytes *len long (not NUL-terminated) and *rows the rows
 * holding it; NULL (*len and *rows 0) when its entry is corrupt (the
 * entries are checked as they are read, not as the file is opened). */
long long ev_postings_nterms(const struct ev_postings *p);
const char *ev_postings_term_at(const struct ev_postings *p, long long i, int *len, long long *rows);

/* Start *c on the posting list of the term term[0..len) (a word itself
 * after EV_POSTINGS_NARROWED: its narrowed list, above).  Returns the
 * number of rows holding it (0, the cursor empty, when the index has no
 * such term, or the word itself no narrowed list).  A dictionary entry found corrupt on the way (its bytes out
 * of the file's sections) gives 1 and a cursor whose first step finds the
 * list corrupt (-1), as a damaged list does. */
long long ev_postings_term(const struct ev_postings *p, const char *term, int len,
	struct ev_postings_cursor *c);

/* Ask the kernel to read the list of cursor c (started by
 * ev_postings_term()) into the page cache, and its positions too when
 * positions is not 0, without waiting, each when it is short enough
 * (postings.c: WILLNEED_MAX): a query asks for all its lists at once, and
 * those out of the cache are read side by side rather than one fault after
 * another. */
void ev_postings_willneed(const struct ev_postings_cursor *c, int positions);

/* The counts of the entry at *p (before end) into count[0..ncol), *p moved
 * past them.  Returns their sum, or -1 when they are corrupt. */
static inline EV_POSTINGS_HOT long long
ev_postings_counts(const unsigned char **p, const unsigned char *end, int ncol, uint32_t *count)
{
	const unsigned char *q = *p;
	long long sum = 0;
	uint64_t v;

	if (q >= end)
		return -1;
	if (*q < EV_POSTINGS_COUNTS_ESCAPE) {
		unsigned h = *q++, low = 8u - (unsigned)ncol;

		if (ncol == EV_POSTINGS_EVKIT_COLS) {
			count[0] = (h >> 5) & 1u;
			count[1] = h >> 6;	/* (h < 0x80) */
			count[2] = h & 0x1fu;
			sum = count[0] + count[1] + count[2];
		} else {
			count[ncol - 1] = h & ((1u << low) - 1);
			sum = count[ncol - 1];
			for (int i = 0; i < ncol - 1; i++)
				sum += count[i] = (h >> (low + (unsigned)i)) & 1u;
		}
	} else {
		q++;
		for (int i = 0; i < ncol; i++) {
			if (ev_varint_get(&q, end, &v) == -1 || v > UINT32_MAX)
				return -1;
			sum += count[i] = (uint32_t)v;
		}
	}
	*p = q;
	return sum;
}

/* Step *c to its next entry.  Returns 1, or 0 at the end of the list, or -1
 * when the list is corrupt (its entries cut short).  (Inline: the text
 * lane's sweep calls it for every row of a query's lists.) */
static inline EV_POSTINGS_HOT int
ev_postings_next(struct ev_postings_cursor *c)
{
	const unsigned char *p = c->p, *end = c->end;
	uint64_t v;
	long long n;

	c->at = 0;
	if (p == NULL || p >= end)
		return 0;
	if (ev_varint_get(&p, end, &v) == -1)
		return -1;
	c->rowid += (long long)v;
	if ((n = ev_postings_counts(&p, end, c->ncol, c->count)) == -1)
		return -1;
	c->p = p;
	c->pos_since += c->pos_count;
	c->pos_count = n;
	c->at = 1;
	return 1;
}

/* The instances an entry's counts of one byte h (below the escape) say, for
 * ncol columns: the last column's in the low 8 - ncol bits, and a bit for
 * each other. */
static inline EV_POSTINGS_HOT unsigned
ev_postings_byte_sum(unsigned h, int ncol)
{
	unsigned low = 8u - (unsigned)ncol, x = h >> low;

	if (ncol == EV_POSTINGS_EVKIT_COLS)
		return (h & 0x1fu) + ((h >> 5) & 1u) + (h >> 6);	/* (h < 0x80) */
	/* (the bits of x counted: at most seven) */
	x = x - ((x >> 1) & 0x55u);
	x = (x & 0x33u) + ((x >> 2) & 0x33u);
	return (h & ((1u << low) - 1)) + ((x + (x >> 4)) & 0x0fu);
}

/* Step *c to the first entry at or after row target in what is left of
 * its list, as ev_postings_next() would one entry after another: the
 * entries before it have only their rows and their counts' sum read (their
 * positions stepped over); the one it stops on is read whole.  Returns 1,
 * 0 at the end of the list, or -1 when it is corrupt. */
static inline EV_POSTINGS_HOT int
ev_postings_step_to(struct ev_postings_cursor *c, long long target)
{
	const unsigned char *p = c->p, *end = c->end, *entry;
	long long row = c->rowid, since = c->pos_since + c->pos_count;
	uint32_t count[EV_POSTINGS_MAX_COLS];
	uint64_t v;

	if (p == NULL)
		return c->at = 0;
	while (p < end) {
		long long n;

		entry = p;
		/* a row's step of one byte and counts of one byte (most
		 * entries), read together */
		if (end - p > 1 && (p[0] | p[1]) < EV_POSTINGS_COUNTS_ESCAPE) {
			if (row + p[0] >= target)
				goto found;
			row += p[0];
			since += c->sums[p[1]];
			p += 2;
			continue;
		}
		if (ev_varint_get(&p, end, &v) == -1)
			return c->at = 0, -1;
		if (row + (long long)v >= target)
			goto found;
		row += (long long)v;
		if (p < end && *p < EV_POSTINGS_COUNTS_ESCAPE)
			since += c->sums[*p++];
		else if ((n = ev_postings_counts(&p, end, c->ncol, count)) == -1)
			return c->at = 0, -1;
		else
			since += n;
	}
	/* past its last entry, as ev_postings_next() leaves it there */
	c->p = p;
	c->rowid = row;
	c->pos_since = since;
	c->pos_count = 0;
	return c->at = 0;
found:
	/* (ev_postings_next() reads it from its start) */
	c->p = entry;
	c->rowid = row;
	c->pos_since = since;
	c->pos_count = 0;
	return ev_postings_next(c);
}

/* ev_postings_seek() when target is past the block of the cursor's last
 * seek: the blocks that end before target are skipped. */
int ev_postings_seek_far(struct ev_postings_cursor *c, long long target);

/* Step *c to the first entry at or after row target, over the blocks that
 * end before it (it stays where it is when it is on such an entry already).
 * Returns 1, 0 at the end of the list, or -1 when it is corrupt.  (Inline:
 * most seeks of a sweep end in the block they start in.) */
static inline EV_POSTINGS_HOT int
ev_postings_seek(struct ev_postings_cursor *c, long long target)
{
	int r;

	if (c->at && c->rowid >= target)
		return 1;
	if (c->skip_at < c->nskip && c->skips[c->skip_at].last_rowid < target)
		return ev_postings_seek_far(c, target);
	if ((r = ev_postings_next(c)) != 1 || c->rowid >= target)
		return r;
	return ev_postings_step_to(c, target);
}

/* Mark the rows of the list of cursor c (started by ev_postings_term(), not
 * yet stepped) in bits, a bit a row (row r: bit r % 64 of bits[r / 64],
 * for every row up to ev_postings_maxrowid(p)), and count those not marked
 * before: the rows of several lists together are the sum of each one's
 * count, marked one after the other into the same bits.  Reads only the
 * rows, in a loop of its own: a list's rows cost a few instructions each.
 * Returns the count, or -1 when the list is corrupt (cut short, or a row
 * past the largest rowid: those before it are marked). */
long long ev_postings_mark_rows(const struct ev_postings *p, const struct ev_postings_cursor *c,
	uint64_t *bits);

/* The positions of the current entry, column by column, into key[0..n)
 * (n = the sum of c->count), each column x 2^32 + its offset, rising.
 * Returns n, or -1 when they are corrupt.  Reading the positions of entries
 * in rising order steps over the positions between them once, from the
 * block the cursor last skipped to. */
int ev_postings_positions(struct ev_postings_cursor *c, uint64_t *key);

#endif
