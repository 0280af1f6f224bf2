/* readahead.c: reading ahead the B-tree pages of a batch of rows.  See
 * readahead.h.
 *
 * The file format (sqlite.org/fileformat2.html), as far as it is read here:
 * a 100-byte header (page size at 16, reserved bytes a page at 20) on page
 * 1; each B-tree page a header (its type, its cell count at 3, on interior
 * pages the right-most child at 8) at offset 0 (100 on page 1), then 2-byte
 * offsets of its cells in key order.  Table trees are keyed by rowid: an
 * interior cell is a 4-byte child and the largest rowid under it, a leaf
 * cell the payload's size, the rowid, then the record.  Index trees are
 * keyed by their records: a cell is (interior only) a 4-byte child, then
 * the payload's size and the record, and an entry may sit on an interior
 * page.  A record is a header (its size, then each column's serial type)
 * and the columns' values.  Integers are SQLite's big-endian varints. */
#include "readahead.h"
#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_DEPTH 24	/* deeper than any B-tree SQLite makes: a loop */
#define BATCH 256	/* keys walked together: bounds the pages held */

enum { PAGE_INDEX_INTERIOR = 2, PAGE_TABLE_INTERIOR = 5, PAGE_INDEX_LEAF = 10, PAGE_TABLE_LEAF = 13 };

/* A page of the level being walked, and whether it has been read. */
struct run {
	unsigned page;
	int got;
};

struct ev_readahead {
	int fd;
	unsigned page_size;
	unsigned usable;	/* the page size less the bytes reserved at its end */
	unsigned long long npages;	/* in the file, at the current call */
	int nowait;		/* preadv2(RWF_NOWAIT) works: try the cache first */
	struct run *runs;	/* the pages of the level being walked */
	unsigned char *buf;	/* their bytes, a page each */
	size_t capruns, capbuf;
	unsigned char *arena;	/* the column values of the last ev_readahead_rows() */
	size_t narena, caparena;
};

/* One key of a walk: where it is, and what was found. */
struct key {
	long long rowid;	/* table: the key; index: the entry's rowid, once found */
	const unsigned char *s;	/* index: the key */
	size_t len;
	size_t i;		/* its place in the caller's arrays */
	unsigned at;		/* the page to read next, 0 when the walk has ended */
	unsigned found;		/* the page where it ended with the key found, else 0 */
	size_t off, vlen;	/* the column read from the leaf: arena offset, length */
	int has_value;
	int rightmost;		/* index: found on an interior page; going down its
				 * left child's right edge, as SQLite does */
};

struct walk {
	struct ev_readahead *ra;
	int index;		/* an index tree, else a table tree */
	int col;		/* table: the column to read from the leaf, -1 none */
	int oom;
};

static unsigned
get16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static unsigned
get32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

/* An SQLite varint at p (before end) in *v (buf.h).  Returns its length,
 * 0 when it runs past end. */
static int
get_varint(const unsigned char *p, const unsigned char *end, unsigned long long *v)
{
	uint64_t x;
	int n = ev_sqlite_varint(p, p < end ? (size_t)(end - p) : 0, &x);

	if (n > 0)
		*v = x;
	return n;
}

/* The bytes a value of serial type t takes in a record. */
static unsigned long long
type_size(unsigned long long t)
{
	static const unsigned char fixed[12] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0 };

	return t < 12 ? fixed[t] : (t - 12) / 2;
}

/* The bytes of a payload of p bytes kept on a page of the tree (the rest is
 * on overflow pages): table leaves keep more than index pages. */
static size_t
local_size(unsigned usable, unsigned long long p, int table_leaf)
{
	unsigned long long x = table_leaf ? usable - 35 : (usable - 12) * 64 / 255 - 23;
	unsigned long long m = (usable - 12) * 32 / 255 - 23;
	unsigned long long k;

	if (p <= x)
		return (size_t)p;
	k = m + (p - m) % (usable - 4);
	return (size_t)(k <= x ? k : m);
}

/* Column col of the record rec[0..local), or its last column when col < 0:
 * *type its serial type, rec[*off..*off + *len) its value.  Returns 1, 0
 * when the column or its value is not within the local bytes. */
static int
record_column(const unsigned char *rec, size_t local, int col, unsigned long long *type,
    size_t *off, size_t *len)
{
	const unsigned char *end = rec + local, *h;
	unsigned long long hsize, t = 0, at;
	int n, c = 0, got = 0;

	if ((n = get_varint(rec, end, &hsize)) == 0 || hsize > local || hsize < (unsigned)n)
		return 0;
	at = hsize;
	for (h = rec + n; h < rec + hsize; h += n, c++) {
		if ((n = get_varint(h, rec + hsize, &t)) == 0)
			return 0;
		if (col >= 0 && c == col) {
			got = 1;
			break;
		}
		if (col < 0 && h + n == rec + hsize) {
			got = 1;
			break;
		}
		at += type_size(t);
	}
	if (!got || t == 10 || t == 11 || at + type_size(t) > local)
		return 0;
	*type = t;
	*off = (size_t)at;
	*len = (size_t)type_size(t);
	return 1;
}

/* The integer value of serial type t at p, into *v.  Returns 1, 0 when t is
 * not an integer's. */
static int
record_int(const unsigned char *p, unsigned long long t, long long *v)
{
	unsigned long long x;

	if (t == 8 || t == 9) {
		*v = t == 9;
		return 1;
	}
	if (t < 1 || t > 6)
		return 0;
	x = p[0] & 0x80 ? ~0ULL : 0;
	for (unsigned long long i = 0; i < type_size(t); i++)
		x = x << 8 | p[i];
	*v = (long long)x;
	return 1;
}

/* The page's header offset (100 on page 1), and its cell count and cell
 * pointer array checked to fit.  Returns the cell count, -1 when the page
 * is not of a B-tree, or its cells do not fit. */
static int
page_cells(const struct ev_readahead *ra, const unsigned char *pg, unsigned pgno, unsigned *hdr,
    unsigned *ptrs)
{
	unsigned h = pgno == 1 ? 100 : 0, type = pg[h], n = get16(pg + h + 3);
	unsigned p = h + (type == PAGE_INDEX_INTERIOR || type == PAGE_TABLE_INTERIOR ? 12 : 8);

	if (type != PAGE_INDEX_INTERIOR && type != PAGE_TABLE_INTERIOR && type != PAGE_INDEX_LEAF &&
	    type != PAGE_TABLE_LEAF)
		return -1;
	if (p + 2ULL * n > ra->usable)
		return -1;
	*hdr = h;
	*ptrs = p;
	return (int)n;
}

/* A page number that may be read: in the file. */
static unsigned
page_ok(const struct ev_readahead *ra, unsigned long long pgno)
{
	return pgno >= 1 && pgno <= ra->npages ? (unsigned)pgno : 0;
}

/* Cell i's bytes: pg + its offset to the usable end; NULL when the offset
 * leaves less than the 4 bytes of the smallest cell in the page. */
static const unsigned char *
cell_at(const struct ev_readahead *ra, const unsigned char *pg, unsigned ptrs, int i)
{
	unsigned off = get16(pg + ptrs + 2 * i);

	return off + 4 > ra->usable ? NULL : pg + off;
}

/* The child page an interior page gives for cell i (its right-most child
 * when i is its cell count), if it is in the file; 0 when not. */
static unsigned
child_at(const struct ev_readahead *ra, const unsigned char *pg, unsigned hdr, unsigned ptrs,
    int i, int n)
{
	const unsigned char *c = i < n ? cell_at(ra, pg, ptrs, i) : pg + hdr + 8;

	return c == NULL ? 0 : page_ok(ra, get32(c));
}

/* The bytes of the level's run r. */
static unsigned char *
run_page(struct ev_readahead *ra, size_t r)
{
	return ra->buf + r * ra->page_size;
}

/* Ask the kernel for page pgno, to be read side by side with the others
 * asked for. */
static void
ask(struct ev_readahead *ra, unsigned pgno)
{
	posix_fadvise(ra->fd, (off_t)(pgno - 1) * ra->page_size, ra->page_size, POSIX_FADV_WILLNEED);
}

/* Read page pgno into buf: from the page cache only when cached_only (then
 * 0 when it is not there yet).  Returns 1 when read, 0 when not. */
static int
read_page(struct ev_readahead *ra, unsigned pgno, unsigned char *buf, int cached_only)
{
	off_t off = (off_t)(pgno - 1) * ra->page_size;
	ssize_t n;

	if (cached_only) {
		struct iovec v = { buf, ra->page_size };

		if (!ra->nowait)
			return 0;
		n = preadv2(ra->fd, &v, 1, off, RWF_NOWAIT);
		if (n == -1 && errno != EAGAIN)
			ra->nowait = 0;	/* not answered here: ask for every page */
		return n == (ssize_t)ra->page_size;
	}
	do
		n = pread(ra->fd, buf, ra->page_size, off);
	while (n == -1 && errno == EINTR);
	return n == (ssize_t)ra->page_size;
}

/* Keep the value rec[off..off + len) of key k in the arena. */
static void
keep_value(struct walk *w, struct key *k, const unsigned char *v, size_t len)
{
	struct ev_readahead *ra = w->ra;

	if (ev_grow(&ra->arena, &ra->caparena, ra->narena + len, 1, 4096) == -1) {
		w->oom = 1;
		return;
	}
	memcpy(ra->arena + ra->narena, v, len);
	k->off = ra->narena;
	k->vlen = len;
	k->has_value = 1;
	ra->narena += len;
}

/* A table page: key k's child (its next page), or on a leaf, its row found
 * (and its column kept, its first overflow page asked for). */
static void
table_step(struct walk *w, struct key *k, const unsigned char *pg, unsigned pgno)
{
	struct ev_readahead *ra = w->ra;
	const unsigned char *end = pg + ra->usable, *c;
	unsigned hdr, ptrs;
	unsigned long long key = 0, size = 0;
	int n = page_cells(ra, pg, pgno, &hdr, &ptrs), lo = 0, hi = n, leaf, len;

	k->at = 0;
	if (n < 0 || (leaf = pg[hdr] == PAGE_TABLE_LEAF) + (pg[hdr] == PAGE_TABLE_INTERIOR) != 1)
		return;
	/* The first cell whose rowid is >= the key. */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if ((c = cell_at(ra, pg, ptrs, mid)) == NULL)
			return;
		if (leaf ? (len = get_varint(c, end, &size)) == 0 || get_varint(c + len, end, &key) == 0 :
		    c + 4 > end || get_varint(c + 4, end, &key) == 0)
			return;
		if ((long long)key < k->rowid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!leaf) {
		k->at = child_at(ra, pg, hdr, ptrs, lo, n);
		return;
	}
	if (lo == n || (c = cell_at(ra, pg, ptrs, lo)) == NULL || (len = get_varint(c, end, &size)) == 0)
		return;
	c += len;
	if ((len = get_varint(c, end, &key)) == 0 || (long long)key != k->rowid)
		return;
	c += len;
	k->found = pgno;
	if (w->col >= 0) {
		size_t local = local_size(ra->usable, size, 1), off, vlen;
		unsigned long long type;

		if (c + local > end)
			return;
		if (local < size && c + local + 4 <= end && page_ok(ra, get32(c + local)))
			ask(ra, get32(c + local));
		if (record_column(c, local, w->col, &type, &off, &vlen) && type >= 12)
			keep_value(w, k, c + off, vlen);
	}
}

/* Compare key k with the first column of the index record at c (before
 * end): <0, 0, >0 in BINARY order into *cmp.  Returns 1, 0 when it cannot
 * be decided from the page (not a text, or a tie on the bytes kept here). */
static int
index_compare(const struct ev_readahead *ra, const struct key *k, const unsigned char *c,
    const unsigned char *end, int *cmp, long long *rowid)
{
	unsigned long long size, type, t0, hsize;
	size_t local, off, len, avail, n;
	int h;

	if ((h = get_varint(c, end, &size)) == 0)
		return 0;
	c += h;
	local = local_size(ra->usable, size, 0);
	if (c + local > end || local == 0)
		return 0;
	/* The first column: its serial type, and where its value starts. */
	if ((h = get_varint(c, c + local, &hsize)) == 0 || hsize > local ||
	    get_varint(c + h, c + hsize, &t0) == 0 || t0 < 13 || !(t0 & 1))
		return 0;	/* cut short, or not a text */
	off = (size_t)hsize;
	len = (size_t)type_size(t0);
	avail = off >= local ? 0 : local - off;
	if (avail > len)
		avail = len;
	n = k->len < avail ? k->len : avail;
	*cmp = memcmp(k->s, c + off, n);
	if (*cmp == 0) {
		if (avail < len && k->len > avail)
			return 0;	/* the rest is on overflow pages */
		*cmp = k->len < len ? -1 : k->len > len;
	}
	if (*cmp == 0) {
		if (!record_column(c, local, -1, &type, &off, &len) || !record_int(c + off, type, rowid))
			return 0;
	}
	return 1;
}

/* An index page: key k's child, or its entry found (here, interior or
 * leaf). */
static void
index_step(struct walk *w, struct key *k, const unsigned char *pg, unsigned pgno)
{
	struct ev_readahead *ra = w->ra;
	const unsigned char *end = pg + ra->usable, *c;
	unsigned hdr, ptrs;
	int n = page_cells(ra, pg, pgno, &hdr, &ptrs), lo = 0, hi = n, leaf, cmp = 1;
	long long rowid = 0;

	k->at = 0;
	if (n < 0 || (leaf = pg[hdr] == PAGE_INDEX_LEAF) + (pg[hdr] == PAGE_INDEX_INTERIOR) != 1)
		return;
	if (k->rightmost) {
		if (leaf)
			k->found = pgno;
		else
			k->at = child_at(ra, pg, hdr, ptrs, n, n);
		return;
	}
	/* The first cell whose key is >= k's. */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, m;
		long long r = 0;

		if ((c = cell_at(ra, pg, ptrs, mid)) == NULL || (!leaf && c + 4 > end) ||
		    !index_compare(ra, k, leaf ? c : c + 4, end, &m, &r))
			return;
		if (m > 0) {
			lo = mid + 1;
		} else {
			hi = mid;
			if (m == 0) {
				cmp = 0;
				rowid = r;
				lo = mid;
				break;
			}
		}
	}
	if (cmp == 0 && leaf) {
		k->rowid = rowid;
		k->found = pgno;
	} else if (cmp == 0) {
		/* SQLite seeks the first entry >= the key: the entries under
		 * the cell's left child are all less, so it reads down their
		 * right edge to a leaf before it steps back to this one. */
		k->rowid = rowid;
		k->rightmost = 1;
		k->at = child_at(ra, pg, hdr, ptrs, lo, n);
	} else if (!leaf) {
		k->at = child_at(ra, pg, hdr, ptrs, lo, n);
	}
}

/* Walk keys[0..n) (in the tree's order, each at its root) down to where
 * they end, a level at a time: each level's pages not in the page cache are
 * asked for together, then read (or, for the leaves of a table walk that
 * reads no column, only asked for). */
static void
walk(struct walk *w, struct key *keys, size_t n)
{
	struct ev_readahead *ra = w->ra;

	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		size_t nruns = 0, r, cached = SIZE_MAX;

		/* The level's pages, in the keys' order: keys on one page are
		 * next to each other. */
		for (size_t i = 0; i < n; i++)
			if (keys[i].at != 0 && (nruns == 0 || ra->runs[nruns - 1].page != keys[i].at)) {
				if (ev_grow(&ra->runs, &ra->capruns, nruns, sizeof *ra->runs, 16) == -1 ||
				    ev_grow(&ra->buf, &ra->capbuf, nruns, ra->page_size, 16) == -1) {
					w->oom = 1;
					return;
				}
				ra->runs[nruns].page = keys[i].at;
				/* What the cache has is read now; the rest asked for. */
				if (!(ra->runs[nruns].got = read_page(ra, keys[i].at, run_page(ra, nruns), 1)))
					ask(ra, keys[i].at);
				else if (cached == SIZE_MAX)
					cached = nruns;
				nruns++;
			}
		if (nruns == 0)
			return;
		/* A table walk that reads no column ends on its leaves, asked
		 * for and not waited for: every leaf of a B-tree is at the same
		 * depth, so one page tells whether this level is the leaves'. */
		if (!w->index && w->col < 0) {
			struct run *probe = &ra->runs[cached == SIZE_MAX ? 0 : cached];

			if (!probe->got)
				probe->got = read_page(ra, probe->page, run_page(ra, probe - ra->runs), 0);
			if (probe->got && run_page(ra, probe - ra->runs)[probe->page == 1 ? 100 : 0] ==
			    PAGE_TABLE_LEAF) {
				for (size_t i = 0; i < n; i++)
					if (keys[i].at != 0) {
						keys[i].found = keys[i].at;
						keys[i].at = 0;
					}
				return;
			}
		}
		/* Wait for the rest, and take each key a level down. */
		r = SIZE_MAX;
		for (size_t i = 0; i < n; i++) {
			unsigned pgno = keys[i].at;
			struct run *run;

			if (pgno == 0)
				continue;
			if (r == SIZE_MAX || ra->runs[r].page != pgno)
				r = r == SIZE_MAX ? 0 : r + 1;
			run = &ra->runs[r];
			if (!run->got && !(run->got = read_page(ra, pgno, run_page(ra, r), 0))) {
				keys[i].at = 0;	/* unreadable: the walk ends */
				continue;
			}
			if (w->index)
				index_step(w, &keys[i], run_page(ra, r), pgno);
			else
				table_step(w, &keys[i], run_page(ra, r), pgno);
		}
	}
}

static int
by_rowid(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	return (x->rowid > y->rowid) - (x->rowid < y->rowid);
}

static int
by_text(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/* The file's size, in pages, now (a writer may have grown it). */
static void
count_pages(struct ev_readahead *ra)
{
	struct stat sb;

	ra->npages = fstat(ra->fd, &sb) == 0 ? (unsigned long long)sb.st_size / ra->page_size : 0;
}

/* Walk keys[0..n) from root in batches of BATCH, in the tree's order (cmp). */
static int
walk_all(struct walk *w, struct key *keys, size_t n, unsigned root,
    int (*cmp)(const void *, const void *))
{
	count_pages(w->ra);
	qsort(keys, n, sizeof *keys, cmp);
	for (size_t i = 0; i < n; i++)
		keys[i].at = page_ok(w->ra, root);
	for (size_t i = 0; i < n && !w->oom; i += BATCH)
		walk(w, keys + i, n - i < BATCH ? n - i : BATCH);
	return w->oom ? -1 : 0;
}

int
ev_readahead_rows(struct ev_readahead *ra, unsigned root, const long long *rowid, size_t n,
    int col, struct ev_readahead_text *text, unsigned *leaf)
{
	struct walk w = { ra, 0, col, 0 };
	struct key *keys;

	if (n == 0)
		return 0;
	if ((keys = calloc(n, sizeof *keys)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		keys[i].rowid = rowid[i];
		keys[i].i = i;
	}
	ra->narena = 0;
	if (walk_all(&w, keys, n, root, by_rowid) == -1) {
		free(keys);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct key *k = &keys[i];

		if (leaf != NULL)
			leaf[k->i] = k->found;
		if (text != NULL) {
			text[k->i].s = k->has_value ? ra->arena + k->off : NULL;
			text[k->i].len = k->has_value ? k->vlen : 0;
		}
	}
	free(keys);
	return 0;
}

int
ev_readahead_index(struct ev_readahead *ra, unsigned root, const struct ev_readahead_text *key,
    size_t n, long long *rowid, unsigned *page)
{
	struct walk w = { ra, 1, -1, 0 };
	struct key *keys;
	size_t m = 0;

	if ((keys = calloc(n ? n : 1, sizeof *keys)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		rowid[i] = 0;
		if (page != NULL)
			page[i] = 0;
		if (key[i].s != NULL) {
			keys[m].s = key[i].s;
			keys[m].len = key[i].len;
			keys[m++].i = i;
		}
	}
	if (walk_all(&w, keys, m, root, by_text) == -1) {
		free(keys);
		return -1;
	}
	for (size_t i = 0; i < m; i++) {
		if (keys[i].found == 0)
			continue;
		rowid[keys[i].i] = keys[i].rowid;
		if (page != NULL)
			page[keys[i].i] = keys[i].found;
	}
	free(keys);
	return 0;
}

struct ev_readahead *
ev_readahead_open(const char *path)
{
	unsigned char h[100];
	struct ev_readahead *ra;
	unsigned size;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd == -1)
		return NULL;
	if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0 ||
	    (ra = calloc(1, sizeof *ra)) == NULL) {
		close(fd);
		return NULL;
	}
	size = get16(h + 16) == 1 ? 65536 : get16(h + 16);
	ra->fd = fd;
	ra->page_size = size;
	ra->usable = size - h[20];
	ra->nowait = 1;
	if (size < 512 || (size & (size - 1)) != 0 || ra->usable < 480) {
		ev_readahead_close(ra);
		return NULL;
	}
	return ra;
}

void
ev_readahead_close(struct ev_readahead *ra)
{
	if (ra == NULL)
		return;
	close(ra->fd);
	free(ra->buf);
	free(ra->runs);
	free(ra->arena);
	free(ra);
}
