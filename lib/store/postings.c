/* postings.c: the postings file, a flat copy of FTS5's posting lists.  See
 * postings.h. */
#include "postings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "buf.h"
#include "fts5seg.h"
#include "sha256.h"
#include "worker.h"

#define MAGIC "EVPOST01"
/* 3: the counts packed in a byte; 4: the positions apart; 5: the narrowed
 * words (postings.h) */
#define VERSION 5
#define HEADER_BYTES 160
#define PROGRESS_EVERY (1 << 22)	/* instance rows between progress calls */
#define WRITE_BUFFER ((size_t)8 << 20)	/* the file is written this much at a time */
/* ev_postings_willneed() asks for a list of at most this many bytes; a
 * longer one is left to its faults, which read it in 2 MB folios (what
 * MADV_WILLNEED reads comes in 4 KB pages, which every later query maps
 * and unmaps one by one: asking for every list, a round of the 30
 * bench-scale queries at 1 M took 54 ms at the median in the page cache,
 * against 49 asking for those up to 2 MB and 45-49 asking for none;
 * out of the page cache, 58, 60-71 and 75-77 ms). */
#define WILLNEED_MAX ((uintptr_t)2 << 20)

struct header {
	char magic[8];
	uint32_t version;
	uint32_t ncol;
	uint64_t rows, tokens;		/* FTS5's totals */
	uint64_t maxrowid;
	uint64_t nterms;
	uint64_t off_postings, off_positions, off_lengths, off_terms, off_strings, off_langs, size;
	uint64_t nlangs;
	unsigned char stamp[32];
	uint64_t nnarrowed;		/* the narrowed words' entries, after the nterms */
};

/* One of the chunks' languages. */
struct lang {
	char code[56];		/* NUL-terminated; "" for a code too long to be one */
	int64_t chunks;
};

/* One term of the dictionary. */
struct term {
	uint64_t str;		/* its bytes' offset among the strings */
	uint32_t len;
	uint32_t rows;		/* rows holding it */
	uint64_t post;		/* its postings' offset from off_postings */
	uint64_t postlen;
	uint64_t skips;		/* its skips' offset from off_postings (8-aligned) */
	uint64_t nskip;
	uint64_t pos;		/* its positions' offset from off_positions (after */
	uint64_t poslen;	/* nskip uint64 blocks' starts, 8-aligned) */
};

struct ev_postings {
	unsigned char *map;
	size_t len;
	struct header h;
	const uint32_t *lengths;
	const struct term *terms;
	const char *strings;
	const unsigned char *postings;
	const unsigned char *positions;
	const struct lang *langs;
	char *path;			/* the file's: DB.postings */
	unsigned char sums[EV_POSTINGS_COUNTS_ESCAPE];	/* ev_postings_byte_sum() of each byte */
};

_Static_assert(sizeof(struct header) <= HEADER_BYTES, "the header fits its bytes");

int
ev_postings_index_stamp(struct ev_store *st, unsigned char stamp[32], struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT id, block FROM chunks_fts_data WHERE id IN (1, 10)"
	    " ORDER BY id", err);
	struct ev_sha256 h;
	int rc;

	if (s == NULL)
		return -1;
	ev_sha256_init(&h);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		int n = sqlite3_column_bytes(s, 1);
		const void *b = sqlite3_column_blob(s, 1);

		ev_sha256_update(&h, &id, sizeof id);
		ev_sha256_update(&h, &n, sizeof n);
		if (n > 0 && b != NULL)
			ev_sha256_update(&h, b, (size_t)n);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return ev_store_error(st, "reading the text index's records", err);
	ev_sha256_final(&h, stamp);
	return 0;
}

/* FTS5's totals record: the rows, then each column's tokens. */
static int
index_totals(struct ev_store *st, struct header *h, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT block FROM chunks_fts_data WHERE id = 1", err);
	int rc, n;
	const unsigned char *b;
	uint64_t v;

	if (s == NULL)
		return -1;
	h->rows = h->tokens = 0;
	h->ncol = 0;
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		n = sqlite3_column_bytes(s, 0);
		b = sqlite3_column_blob(s, 0);
		for (int at = 0, k; b != NULL && at < n; at += k) {
			if ((k = ev_sqlite_varint(b + at, (size_t)(n - at), &v)) == 0)
				break;
			if (at == 0)
				h->rows = v;
			else {
				h->tokens += v;
				h->ncol++;
			}
		}
		rc = sqlite3_step(s);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return ev_store_error(st, "reading the text index's totals", err);
	if (h->ncol == 0)
		h->ncol = 3;	/* an index never written: no record yet */
	if (h->ncol > EV_POSTINGS_MAX_COLS)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the text index has %u columns; the"
		    " postings file holds at most %d", h->ncol, EV_POSTINGS_MAX_COLS);
	return 0;
}

int
ev_postings_totals(struct ev_store *st, long long *rows, long long *tokens, struct ev_err *err)
{
	struct header h;

	if (index_totals(st, &h, err) == -1)
		return -1;
	*rows = (long long)h.rows;
	*tokens = (long long)h.tokens;
	return 0;
}

/* Read every row of the index's docsize table: each row's length (its
 * columns summed) into len[rowid] when len is not NULL (rowids above
 * maxrowid left out), and, when with is not NULL, the rows whose column i
 * holds a token added to with[i] for i below EV_POSTINGS_MAX_COLS.
 * Returns 0, or -1 with *err set (code 1). */
static int
scan_docsize(struct ev_store *st, uint32_t *len, uint64_t maxrowid, long long *with,
    const char *what, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT id, sz FROM chunks_fts_docsize", err);
	int rc;

	if (s == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		const unsigned char *b = sqlite3_column_blob(s, 1);
		int n = sqlite3_column_bytes(s, 1), k, col = 0;
		uint64_t v, sum = 0;

		for (int at = 0; b != NULL && at < n; at += k, col++) {
			if ((k = ev_sqlite_varint(b + at, (size_t)(n - at), &v)) == 0)
				break;
			sum += v;
			if (with != NULL && v > 0 && col < EV_POSTINGS_MAX_COLS)
				with[col]++;
		}
		if (len != NULL && id >= 0 && (uint64_t)id <= maxrowid)
			len[id] = (uint32_t)sum;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : ev_store_error(st, what, err);
}

int
ev_postings_row_lengths(struct ev_store *st, uint64_t *maxrowid, uint32_t **out,
    long long *with, struct ev_err *err)
{
	static const char what[] = "reading the text index's row lengths";
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT max(id) FROM chunks_fts_docsize", err);
	uint32_t *len;
	int rc;

	if (s == NULL)
		return -1;
	rc = sqlite3_step(s);
	*maxrowid = rc == SQLITE_ROW && sqlite3_column_int64(s, 0) > 0 ?
	    (uint64_t)sqlite3_column_int64(s, 0) : 0;
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return ev_store_error(st, what, err);
	if ((len = calloc(*maxrowid + 1, sizeof *len)) == NULL)
		return ev_err_nomem(err);
	if (with != NULL)
		memset(with, 0, EV_POSTINGS_MAX_COLS * sizeof *with);
	if (scan_docsize(st, len, *maxrowid, with, what, err) == -1) {
		free(len);
		return -1;
	}
	*out = len;
	return 0;
}

int
ev_postings_column_rows(struct ev_store *st, long long with[EV_POSTINGS_MAX_COLS],
    struct ev_err *err)
{
	memset(with, 0, EV_POSTINGS_MAX_COLS * sizeof *with);
	return scan_docsize(st, NULL, 0, with, "counting the text index's rows by column", err);
}

/* The build's state: the term being read, its row, and what is written. */
struct build {
	FILE *f;
	struct header h;
	const char *colname[EV_POSTINGS_MAX_COLS];
	struct ev_buf term;		/* the current term */
	int have_term;
	struct ev_buf list;		/* its postings so far */
	struct ev_buf poslist;		/* its positions so far */
	uint32_t rows;
	struct ev_postings_skip *skips;	/* the term's skips so far */
	uint64_t *pos_skips;		/* and where their blocks' positions begin */
	size_t nskip, capskip, cap_pos_skips;
	long long rowid, prev_rowid;	/* the current entry's row, the last written */
	uint32_t count[EV_POSTINGS_MAX_COLS];
	struct ev_buf pos;		/* the current entry's positions */
	int col;			/* of the last position, and its offset */
	long long off;
	struct term *terms;
	size_t nterms, capterms;
	struct ev_buf strings;
	uint64_t written;		/* postings bytes */
	FILE *pf;			/* the positions, until they follow the postings */
	FILE *pf_first;			/* after a split (read_split()), the positions
					 * of the terms before it, before pf's */
	char *pf_buf;			/* pf's buffer, then (pf_first's is the caller's) */
	uint64_t pos_written;		/* its bytes */
	struct lang *langs;
	size_t nlangs, caplangs;
	uint64_t *other;		/* a bit a rowid: a chunk out of the Porter namespace */
	FILE *nf;			/* the narrowed words' instances, until their turn */
	struct ev_buf nf_term;		/* the last one's term */
	struct ev_buf nf_rec;		/* one instance's record, as written */
	size_t nreal;			/* the terms before the narrowed words */
	int narrowing;			/* reading nf back: nothing more goes there */
	int itself;			/* the current term is a word itself to narrow */
};

/* One of the chunks' languages as chunk_languages() reads them. */
struct lang_seen {
	char *code;		/* its whole code, NUL-terminated */
	size_t len;
	long long chunks;
	int porter;		/* ev_analyze_porter_tag() */
};

/* EV_STORE_LANGS_SQL's order: the most chunks first, ties by code's bytes. */
static int
cmp_lang_seen(const void *x, const void *y)
{
	const struct lang_seen *a = x, *b = y;
	int c;

	if (a->chunks != b->chunks)
		return a->chunks > b->chunks ? -1 : 1;
	c = memcmp(a->code, b->code, a->len < b->len ? a->len : b->len);
	return c != 0 ? c : (a->len > b->len) - (a->len < b->len);
}

/* The language code[0..len) among seen[0..*n), added when new (*last: the
 * one found before, tried first).  Returns it, or NULL out of memory. */
static struct lang_seen *
lang_seen(struct lang_seen **seen, size_t *n, size_t *cap, size_t *last, const char *code,
    size_t len)
{
	struct lang_seen *l;

	if (*last < *n && (*seen)[*last].len == len && memcmp((*seen)[*last].code, code, len) == 0)
		return &(*seen)[*last];
	for (*last = 0; *last < *n; (*last)++)
		if ((*seen)[*last].len == len && memcmp((*seen)[*last].code, code, len) == 0)
			return &(*seen)[*last];
	if (ev_grow(seen, cap, *n, sizeof **seen, 8) == -1)
		return NULL;
	l = &(*seen)[*n];
	if ((l->code = malloc(len + 1)) == NULL)
		return NULL;
	memcpy(l->code, code, len);
	l->code[len] = '\0';
	l->len = len;
	l->chunks = 0;
	l->porter = strlen(l->code) == len && ev_analyze_porter_tag(l->code);
	(*n)++;
	return l;
}

/* The languages seen, in EV_STORE_LANGS_SQL's order, into b->langs. */
static int
keep_languages(struct build *b, struct lang_seen *seen, size_t n)
{
	if (n == 0)		/* a store of no chunks: seen is NULL */
		return 0;
	qsort(seen, n, sizeof *seen, cmp_lang_seen);
	if ((b->langs = calloc(n, sizeof *b->langs)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (strlen(seen[i].code) < sizeof b->langs[i].code)
			memcpy(b->langs[i].code, seen[i].code, strlen(seen[i].code));
		b->langs[i].chunks = seen[i].chunks;
	}
	b->nlangs = b->caplangs = n;
	return 0;
}

/* The chunks' languages seen by a scan (scan_languages()), and the rows
 * out of the Porter namespace (NULL when it saw none). */
struct lang_scan {
	struct lang_seen *seen;
	size_t n, cap, last;
	uint64_t *other;	/* a bit a rowid, up to maxrowid */
};

static void
scan_release(struct lang_scan *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		free(ls->seen[i].code);
	free(ls->seen);
	free(ls->other);
}

/* The languages of the chunks of rowid lo to hi (as EV_STORE_LANGS_SQL
 * counts them) into ls, and the rows among them out of the Porter
 * namespace (of no language, or of one ev_analyze_porter_tag() refuses),
 * up to maxrowid, into ls->other.  Returns 0, or -1 with *err set. */
static int
scan_languages(struct ev_store *st, uint64_t maxrowid, long long lo, long long hi,
    struct lang_scan *ls, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT rowid, language FROM chunks"
	    " WHERE rowid BETWEEN ?1 AND ?2", err);
	struct lang_seen *l;
	int rc, r = 0;

	if (s == NULL)
		return -1;
	sqlite3_bind_int64(s, 1, lo);
	sqlite3_bind_int64(s, 2, hi);
	while (r == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		long long row = sqlite3_column_int64(s, 0);
		const char *c = (const char *)sqlite3_column_text(s, 1);
		int other = c == NULL;

		if (c != NULL) {
			if ((l = lang_seen(&ls->seen, &ls->n, &ls->cap, &ls->last, c,
			    (size_t)sqlite3_column_bytes(s, 1))) == NULL) {
				r = -1;
				break;
			}
			l->chunks++;
			other = !l->porter;
		}
		if (!other || row < 0 || (uint64_t)row > maxrowid)
			continue;
		if (ls->other == NULL && (ls->other = calloc(maxrowid / 64 + 1, sizeof *ls->other)) == NULL)
			r = -1;
		else
			ls->other[row / 64] |= (uint64_t)1 << (row % 64);
	}
	sqlite3_reset(s);
	if (r == 0 && rc != SQLITE_DONE)
		return ev_store_error(st, "reading the chunks' languages", err);
	return r == -1 ? ev_err_nomem(err) : 0;
}

/* The languages of the scans a and (when not NULL) z, of chunks apart,
 * summed into b->langs in EV_STORE_LANGS_SQL's order, and their rows out of
 * the Porter namespace into b->other (a's and z's given to b).  Returns 0,
 * or -1 with *err set (out of memory). */
static int
keep_scans(struct build *b, struct lang_scan *a, struct lang_scan *z, uint64_t maxrowid,
    struct ev_err *err)
{
	for (size_t i = 0; z != NULL && i < z->n; i++) {
		struct lang_seen *l = lang_seen(&a->seen, &a->n, &a->cap, &a->last, z->seen[i].code,
		    z->seen[i].len);

		if (l == NULL)
			return ev_err_nomem(err);
		l->chunks += z->seen[i].chunks;
	}
	if (z != NULL && z->other != NULL && a->other == NULL) {
		a->other = z->other;
		z->other = NULL;
	}
	for (uint64_t i = 0; z != NULL && z->other != NULL && i <= maxrowid / 64; i++)
		a->other[i] |= z->other[i];
	if (keep_languages(b, a->seen, a->n) == -1)
		return ev_err_nomem(err);
	b->other = a->other;
	a->other = NULL;
	return 0;
}

/* The chunks' languages (as EV_STORE_LANGS_SQL counts them) into b->langs,
 * and the rows of the chunks out of the Porter namespace (of no language,
 * or of one ev_analyze_porter_tag() refuses) into b->other (NULL when there
 * are none): one scan of the chunks.  (After b->h.maxrowid is known.) */
static int
chunk_languages(struct ev_store *st, struct build *b, struct ev_err *err)
{
	struct lang_scan ls = { 0 };
	int r = scan_languages(st, b->h.maxrowid, INT64_MIN, INT64_MAX, &ls, err);

	if (r == 0)
		r = keep_scans(b, &ls, NULL, b->h.maxrowid, err);
	scan_release(&ls);
	return r;
}

/* Room for n more bytes in x, inline: an entry's few bytes are written
 * in place (an entry for every row of every term: tens of millions at
 * 100,000 documents).  Returns 0, or -1 out of memory. */
static inline int
room(struct ev_buf *x, size_t n)
{
	return x->cap - x->len > n ? 0 : ev_buf_reserve(x, n);
}

/* Counts count[0..ncol) of an entry at p, in a byte when they fit one
 * (postings.h).  Returns the byte after them; p has room for 1 + 10 ncol. */
static unsigned char *
put_counts(unsigned char *p, const uint32_t *count, unsigned ncol)
{
	unsigned low = 8u - ncol, byte = count[ncol - 1];
	int fits = count[ncol - 1] < (1u << low);

	for (unsigned c = 0; c + 1 < ncol; c++) {
		fits &= count[c] <= 1;
		byte |= (count[c] & 1u) << (low + c);
	}
	if (fits) {
		*p++ = (unsigned char)byte;
		return p;
	}
	*p++ = EV_POSTINGS_COUNTS_ESCAPE;
	for (unsigned c = 0; c < ncol; c++)
		p = ev_varint_put(p, count[c]);
	return p;
}

/* An entry of the term's list: row rowid, count[c] instances in column c,
 * their offsets at pos[0..len) as b->pos holds them. */
static int
put_entry(struct build *b, long long rowid, const uint32_t *count, const unsigned char *pos,
    size_t len)
{
	unsigned char *p;

	if (room(&b->list, 11 + 10 * (size_t)b->h.ncol) == -1 || room(&b->poslist, len) == -1)
		return -1;
	p = (unsigned char *)b->list.p + b->list.len;
	p = ev_varint_put(p, (uint64_t)(rowid - b->prev_rowid));
	p = put_counts(p, count, b->h.ncol);
	*p = '\0';	/* an ev_buf's terminator */
	b->list.len = (size_t)(p - (unsigned char *)b->list.p);
	if (len > 0)
		memcpy(b->poslist.p + b->poslist.len, pos, len);
	b->poslist.len += len;
	b->poslist.p[b->poslist.len] = '\0';
	b->prev_rowid = rowid;
	if (++b->rows % EV_POSTINGS_BLOCK == 0) {
		if (ev_grow(&b->skips, &b->capskip, b->nskip, sizeof *b->skips, 64) == -1 ||
		    ev_grow(&b->pos_skips, &b->cap_pos_skips, b->nskip, sizeof *b->pos_skips, 64) == -1)
			return -1;
		b->skips[b->nskip].last_rowid = b->prev_rowid;
		b->skips[b->nskip].next = b->list.len;
		b->pos_skips[b->nskip++] = b->poslist.len;
	}
	return 0;
}

/* Close the current entry into the term's list. */
static int
end_entry(struct build *b)
{
	if (b->rowid < 0)
		return 0;
	if (put_entry(b, b->rowid, b->count, (const unsigned char *)b->pos.p, b->pos.len) == -1)
		return -1;
	b->rowid = -1;
	ev_buf_reset(&b->pos);
	memset(b->count, 0, sizeof b->count);
	return 0;
}

/* Close the current term: its list written, its dictionary entry kept. */
static int
end_term(struct build *b, struct ev_err *err)
{
	struct term *t;

	if (!b->have_term)
		return 0;
	if (end_entry(b) == -1)
		return ev_err_nomem(err);
	if (ev_grow(&b->terms, &b->capterms, b->nterms, sizeof *b->terms, 4096) == -1)
		return ev_err_nomem(err);
	t = &b->terms[b->nterms++];
	t->str = b->strings.len;
	t->len = (uint32_t)b->term.len;
	t->rows = b->rows;
	t->post = b->written;
	t->postlen = b->list.len;
	t->pos = b->pos_written + b->nskip * sizeof *b->pos_skips;
	t->poslen = b->poslist.len;
	if (ev_buf_add(&b->strings, b->term.p, b->term.len) == -1)
		return ev_err_nomem(err);
	/* the list, then (8-aligned) its skips */
	while (b->nskip > 0 && (b->written + b->list.len) % 8 != 0)
		if (ev_buf_addc(&b->list, 0) == -1)
			return ev_err_nomem(err);
	t->skips = b->written + b->list.len;
	t->nskip = b->nskip;
	/* its positions, after their blocks' starts, and padded to 8 */
	while (b->poslist.len % 8 != 0)
		if (ev_buf_addc(&b->poslist, 0) == -1)
			return ev_err_nomem(err);
	if ((b->list.len > 0 && fwrite(b->list.p, 1, b->list.len, b->f) != b->list.len) ||
	    (b->nskip > 0 && fwrite(b->skips, sizeof *b->skips, b->nskip, b->f) != b->nskip) ||
	    (b->nskip > 0 && fwrite(b->pos_skips, sizeof *b->pos_skips, b->nskip, b->pf) != b->nskip) ||
	    (b->poslist.len > 0 && fwrite(b->poslist.p, 1, b->poslist.len, b->pf) != b->poslist.len))
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the postings file: %s",
		    strerror(errno));
	b->written += b->list.len + b->nskip * sizeof *b->skips;
	b->pos_written += b->nskip * sizeof *b->pos_skips + b->poslist.len;
	b->nskip = 0;
	ev_buf_reset(&b->list);
	ev_buf_reset(&b->poslist);
	b->rows = 0;
	b->prev_rowid = 0;
	b->have_term = 0;
	return 0;
}

/* Whether a sorts before b as FTS5 orders terms: by their bytes, a prefix
 * first.  Returns <0, 0 or >0. */
static int
term_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c != 0 ? c : (alen > blen) - (alen < blen);
}

/* Keep the instance of the word itself term[0..tlen) in row rowid, a chunk
 * out of the Porter namespace, at offset off of column col, for its
 * narrowed list (postings.h), made once every term's is: in b->nf (a term,
 * when it is not the one before, and the row, column and offset). */
static int
keep_narrowed(struct build *b, const char *term, size_t tlen, long long rowid, uint32_t col,
    long long off, struct ev_err *err)
{
	int same = b->nf_term.len == tlen && memcmp(b->nf_term.p, term, tlen) == 0;
	struct ev_buf *rec = &b->nf_rec;

	if (!same) {
		ev_buf_reset(&b->nf_term);
		if (ev_buf_add(&b->nf_term, term, tlen) == -1)
			return ev_err_nomem(err);
	}
	ev_buf_reset(rec);
	if (ev_buf_add_varint(rec, same ? 0 : tlen + 1) == -1 ||
	    (!same && ev_buf_add(rec, term, tlen) == -1) ||
	    ev_buf_add_varint(rec, (uint64_t)rowid) == -1 || ev_buf_add_varint(rec, col) == -1 ||
	    ev_buf_add_varint(rec, (uint64_t)off) == -1)
		return ev_err_nomem(err);
	if (fwrite(rec->p, 1, rec->len, b->nf) != rec->len)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the postings file: %s",
		    strerror(errno));
	return 0;
}

static int
out_of_order(struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the text index's instances are not in term,"
	    " row, column and offset order: the postings file cannot be made from it");
}

/* A new term, after the one before in FTS5's order: the one before closed. */
static int
start_term(struct build *b, const char *term, size_t tlen, struct ev_err *err)
{
	if (b->have_term && term_cmp(term, tlen, b->term.p, b->term.len) <= 0)
		return out_of_order(err);
	if (end_term(b, err) == -1)
		return -1;
	ev_buf_reset(&b->term);
	if (ev_buf_add(&b->term, term, tlen) == -1)
		return ev_err_nomem(err);
	b->have_term = 1;
	/* a word itself, whose instances in the chunks out of the Porter
	 * namespace are kept for its narrowed list too */
	b->itself = !b->narrowing && b->other != NULL && ev_analyze_is_itself(term, tlen);
	return 0;
}

/* An instance of the current term: its row, column c and offset. */
static int
add_position(struct build *b, long long rowid, uint32_t c, long long off, struct ev_err *err)
{
	if (!b->have_term || c >= b->h.ncol)
		return out_of_order(err);
	if (rowid != b->rowid) {
		if (rowid <= b->prev_rowid || (b->rowid >= 0 && rowid < b->rowid))
			return out_of_order(err);
		if (end_entry(b) == -1)
			return ev_err_nomem(err);
		b->rowid = rowid;
		b->col = -1;
		b->off = 0;
	}
	if ((int)c < b->col || ((int)c == b->col && off < b->off) || off < 0)
		return out_of_order(err);
	if ((int)c != b->col)
		b->off = 0;
	if (ev_buf_add_varint(&b->pos, (uint64_t)(off - b->off)) == -1)
		return ev_err_nomem(err);
	b->col = (int)c;
	b->off = off;
	b->count[c]++;
	if (b->itself && (b->other[rowid / 64] >> (rowid % 64) & 1))
		return keep_narrowed(b, b->term.p, b->term.len, rowid, c, off, err);
	return 0;
}

/* A row of the current term given whole (fts5seg.h, the sink's row()):
 * counts[c] its instances in column c, their offsets at pos[0..len) as
 * b->pos holds them.  The same as add_position() for each instance in
 * turn, at a call a row. */
static int
add_row(struct build *b, long long rowid, const uint32_t *counts, const unsigned char *pos,
    size_t len, struct ev_err *err)
{
	const unsigned char *end = pos + len;

	if (!b->have_term || rowid <= b->prev_rowid || (b->rowid >= 0 && rowid <= b->rowid))
		return out_of_order(err);
	if (b->itself && (b->other[rowid / 64] >> (rowid % 64) & 1)) {
		/* its instances are kept for the narrowed list too, one by one */
		for (uint32_t c = 0; c < b->h.ncol; c++) {
			long long off = 0;

			for (uint32_t i = 0; i < counts[c]; i++) {
				uint64_t d;

				if (ev_varint_get(&pos, end, &d) == -1)
					return out_of_order(err);
				off += (long long)d;
				if (add_position(b, rowid, c, off, err) == -1)
					return -1;
			}
		}
		return pos == end ? 0 : out_of_order(err);
	}
	if (end_entry(b) == -1 || put_entry(b, rowid, counts, pos, len) == -1)
		return ev_err_nomem(err);
	return 0;
}

/* One row of the instance table. */
static int
add_instance(struct build *b, const char *term, size_t tlen, long long rowid, const char *col,
    long long off, struct ev_err *err)
{
	uint32_t c;
	int cmp = b->have_term ? term_cmp(term, tlen, b->term.p, b->term.len) : 1;

	for (c = 0; c < b->h.ncol && strcmp(col, b->colname[c]) != 0; c++)
		;
	if (c == b->h.ncol)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the text index has an unknown column '%s'",
		    col);
	if (cmp < 0)
		return out_of_order(err);
	if (cmp > 0 && start_term(b, term, tlen, err) == -1)
		return -1;
	return add_position(b, rowid, c, off, err);
}

/* The column names, in order, into b->colname (borrowed from the statement
 * kept by the store: valid until the next call). */
static int
column_names(struct ev_store *st, struct build *b, char names[][32], struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, "SELECT name FROM pragma_table_info('chunks_fts')", err);
	uint32_t n = 0;
	int rc;

	if (s == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && n < EV_POSTINGS_MAX_COLS) {
		snprintf(names[n], 32, "%s", (const char *)sqlite3_column_text(s, 0));
		b->colname[n] = names[n];
		n++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return ev_store_error(st, "reading the text index's columns", err);
	if (n != b->h.ncol)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the text index has %u columns and"
		    " totals for %u", n, b->h.ncol);
	return 0;
}

static int
write_at(FILE *f, uint64_t at, const void *p, size_t n, struct ev_err *err)
{
	if (fseeko(f, (off_t)at, SEEK_SET) != 0 || (n > 0 && fwrite(p, 1, n, f) != n))
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the postings file: %s",
		    strerror(errno));
	return 0;
}

/* The bytes [at, at + n) of the file from (its written bytes flushed
 * first) after those written to to, which is flushed and left positioned
 * past them: copied by the kernel (copy_file_range(2)), page cache to page
 * cache, else (a kernel or a file system that cannot) read and written
 * back a piece at a time.  Returns 0, or -1 with errno set (0: from was cut
 * short). */
static int
copy_range(FILE *to, FILE *from, uint64_t at, uint64_t n)
{
	off_t in = (off_t)at, out;
	char *piece = NULL;
	ssize_t k = 0;

	if (fflush(from) != 0 || fflush(to) != 0 || (out = ftello(to)) == -1)
		return -1;
	while (n > 0) {
		size_t want = n < ((size_t)1 << 30) ? (size_t)n : (size_t)1 << 30;

		if (piece == NULL &&
		    (k = copy_file_range(fileno(from), &in, fileno(to), &out, want, 0)) > 0) {
			n -= (uint64_t)k;
			continue;
		}
		if (k == -1 && piece == NULL && errno != EXDEV && errno != ENOSYS &&
		    errno != EINVAL && errno != EOPNOTSUPP)
			break;
		if (piece == NULL && (piece = malloc(WRITE_BUFFER)) == NULL)
			break;
		want = want < WRITE_BUFFER ? want : WRITE_BUFFER;
		if ((k = pread(fileno(from), piece, want, in)) <= 0 ||
		    pwrite(fileno(to), piece, (size_t)k, out) != k)
			break;
		in += k;
		out += k;
		n -= (uint64_t)k;
	}
	free(piece);
	if (n > 0) {
		if (k == 0)
			errno = 0;
		return -1;
	}
	return fseeko(to, out, SEEK_SET);
}

/* The positions, from b->pf_first (if any) and b->pf, after the postings
 * (at the end of b->f, 8 bytes' alignment on). */
static int
append_positions(struct build *b, struct ev_err *err)
{
	static const unsigned char zero[8];
	size_t pad = (size_t)((8 - (HEADER_BYTES + b->written) % 8) % 8);
	uint64_t copied = 0;
	int r = 0;

	errno = 0;
	if (pad > 0 && fwrite(zero, 1, pad, b->f) != pad)
		r = -1;
	for (int i = 0; i < 2 && r == 0; i++) {
		FILE *from = i == 0 ? b->pf_first : b->pf;
		off_t n;

		if (from == NULL)
			continue;
		if (fflush(from) != 0 || (n = ftello(from)) == -1 ||
		    copy_range(b->f, from, 0, (uint64_t)n) == -1)
			r = -1;
		else
			copied += (uint64_t)n;
	}
	if (r == 0 && copied != b->pos_written) {
		errno = 0;
		r = -1;
	}
	if (r == -1)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the postings file: %s",
		    errno != 0 ? strerror(errno) : "its positions were cut short");
	return 0;
}

/* The sections after the postings, and the header. */
static int
finish_file(struct build *b, const uint32_t *lengths, struct ev_err *err)
{
	struct header *h = &b->h;
	unsigned char head[HEADER_BYTES] = { 0 };

	h->off_postings = HEADER_BYTES;
	h->off_positions = (h->off_postings + b->written + 7) & ~(uint64_t)7;
	if (append_positions(b, err) == -1)
		return -1;
	h->off_lengths = h->off_positions + b->pos_written;	/* (each term's are 8-aligned) */
	h->off_terms = h->off_lengths + ((h->maxrowid + 1) * sizeof *lengths + 7) / 8 * 8;
	h->off_strings = h->off_terms + b->nterms * sizeof *b->terms;
	h->off_langs = (h->off_strings + b->strings.len + 7) & ~(uint64_t)7;
	h->nlangs = b->nlangs;
	h->size = h->off_langs + b->nlangs * sizeof *b->langs;
	h->nterms = b->nreal;
	h->nnarrowed = b->nterms - b->nreal;
	memcpy(h->magic, MAGIC, sizeof h->magic);
	h->version = VERSION;
	memcpy(head, h, sizeof *h);
	if (write_at(b->f, h->off_lengths, lengths, (h->maxrowid + 1) * sizeof *lengths, err) == -1 ||
	    write_at(b->f, h->off_terms, b->terms, b->nterms * sizeof *b->terms, err) == -1 ||
	    write_at(b->f, h->off_strings, b->strings.p, b->strings.len, err) == -1 ||
	    write_at(b->f, h->off_langs, b->langs, b->nlangs * sizeof *b->langs, err) == -1 ||
	    write_at(b->f, 0, head, sizeof head, err) == -1)
		return -1;
	/* (the languages' alignment is written by nothing when there are none:
	 * the file is made whole to its size) */
	if (fflush(b->f) != 0 || ftruncate(fileno(b->f), (off_t)h->size) != 0 ||
	    fsync(fileno(b->f)) != 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the postings file: %s",
		    strerror(errno));
	return 0;
}

static char *
file_path(struct ev_store *st, const char *suffix)
{
	const char *db = ev_store_path(st);
	size_t n = strlen(db) + strlen(suffix) + 1;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s%s", db, suffix);
	return p;
}

/* The narrowed words' lists (postings.h), from the instances kept in b->nf,
 * after every term's: entries of the dictionary past the b->nreal terms. */
static int
add_narrowed(struct build *b, struct ev_err *err)
{
	const unsigned char *map = NULL, *p, *end;
	const char *term = NULL;
	uint64_t tlen, row, col, off;
	size_t termlen = 0;
	off_t size;
	int r = 0, cut = 0;

	b->narrowing = 1;
	errno = 0;
	if (fflush(b->nf) != 0 || (size = ftello(b->nf)) == -1)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the postings file: %s",
		    strerror(errno));
	if (size > 0 && (map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fileno(b->nf), 0))
	    == MAP_FAILED)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "reading back the narrowed words'"
		    " instances: %s", strerror(errno));
	/* each instance: the term's length + 1 and its bytes (0: the one
	 * before), the row, the column and the offset, as keep_narrowed()
	 * wrote them */
	for (p = map, end = map + size; r == 0 && p < end; ) {
		if (ev_varint_get(&p, end, &tlen) == -1 || (tlen == 0 && term == NULL) ||
		    (tlen > 0 && tlen - 1 > (uint64_t)(end - p))) {
			cut = 1;
			break;
		}
		if (tlen > 0) {
			term = (const char *)p;
			termlen = (size_t)tlen - 1;
			p += termlen;
		}
		if (ev_varint_get(&p, end, &row) == -1 || ev_varint_get(&p, end, &col) == -1 ||
		    ev_varint_get(&p, end, &off) == -1 || col >= b->h.ncol) {
			cut = 1;
			break;
		}
		r = add_instance(b, term, termlen, (long long)row, b->colname[col], (long long)off, err);
	}
	if (map != NULL)
		munmap((void *)map, (size_t)size);
	if (r == -1)
		return -1;
	if (cut)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "writing the postings file: the narrowed"
		    " words' instances were cut short");
	return end_term(b, err);
}

/* What the segment reader (fts5seg.h) hands the build: its instances
 * counted in n, and added to *shared (when not NULL: the builds of a split
 * share it, read_split()) at each progress step, when progress (if not
 * NULL) is told the sum. */
struct seg_sink {
	struct build *b;
	void (*progress)(void *, long long);
	void *ctx;
	long long n;
	long long *shared;
	long long told;		/* of n, added to *shared */
};

/* n instances more read by k. */
static void
count_read(struct seg_sink *k, long long n)
{
	long long was = k->n, all;

	k->n += n;
	if (k->n / PROGRESS_EVERY == was / PROGRESS_EVERY)
		return;
	all = k->n;
	if (k->shared != NULL) {
		all = __atomic_add_fetch(k->shared, k->n - k->told, __ATOMIC_RELAXED);
		k->told = k->n;
	}
	if (k->progress != NULL)
		k->progress(k->ctx, all);
}

static int
seg_term(void *ctx, const char *term, size_t len, struct ev_err *err)
{
	return start_term(((struct seg_sink *)ctx)->b, term, len, err);
}

static int
seg_instance(void *ctx, long long rowid, int col, long long off, struct ev_err *err)
{
	struct seg_sink *k = ctx;

	count_read(k, 1);
	return add_position(k->b, rowid, (uint32_t)col, off, err);
}

static int
seg_row(void *ctx, long long rowid, const uint32_t *counts, const unsigned char *pos, size_t len,
    struct ev_err *err)
{
	struct seg_sink *k = ctx;
	long long n = 0;

	for (uint32_t c = 0; c < k->b->h.ncol; c++)
		n += counts[c];
	count_read(k, n);
	return add_row(k->b, rowid, counts, pos, len, err);
}

/* The instances through fts5vocab's instance table, read and written. */
static int
vocab_instances(struct ev_store *st, struct build *b, void (*progress)(void *, long long), void *ctx,
    struct ev_err *err)
{
	sqlite3_stmt *s;
	long long n = 0;
	int rc;

	if (ev_store_exec(st, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ev_postings_instances USING"
	    " fts5vocab(main, chunks_fts, instance)", err) == -1 ||
	    (s = ev_store_prepare(st, "SELECT term, doc, col, offset FROM temp.ev_postings_instances",
	    err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *term = (const char *)sqlite3_column_blob(s, 0);
		size_t tlen = (size_t)sqlite3_column_bytes(s, 0);
		const char *col = (const char *)sqlite3_column_text(s, 2);

		if (col == NULL) {
			sqlite3_reset(s);
			return ev_err_nomem(err);
		}
		if (add_instance(b, term != NULL ? term : "", tlen, sqlite3_column_int64(s, 1), col,
		    sqlite3_column_int64(s, 3), err) == -1) {
			sqlite3_reset(s);
			return -1;
		}
		if (progress != NULL && ++n % PROGRESS_EVERY == 0)
			progress(ctx, n);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return ev_store_error(st, "reading the text index's instances", err);
	return 0;
}

/* Close b's files and free its lists and buffers (not its languages and
 * rows out of the Porter namespace, which a split's builds share). */
static void
build_release(struct build *b)
{
	FILE *files[4] = { b->f, b->pf, b->pf_first, b->nf };

	for (int i = 0; i < 4; i++)
		if (files[i] != NULL)
			fclose(files[i]);
	b->f = b->pf = b->pf_first = b->nf = NULL;
	free(b->terms);
	free(b->skips);
	free(b->pos_skips);
	ev_buf_release(&b->term);
	ev_buf_release(&b->list);
	ev_buf_release(&b->poslist);
	ev_buf_release(&b->pos);
	ev_buf_release(&b->strings);
	ev_buf_release(&b->nf_term);
	ev_buf_release(&b->nf_rec);
}

/* A file of the build's, path, open for writing and reading into *f, and
 * gone from the directory at once (nothing is left behind by a build that
 * is killed), with a buffer of WRITE_BUFFER bytes into *buf when memory
 * allows (stdio's own otherwise).  Returns 0, or -1 with *err set. */
static int
open_gone(const char *path, FILE **f, char **buf, struct ev_err *err)
{
	if (path == NULL)
		return ev_err_nomem(err);
	if ((*f = fopen(path, "w+b")) == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot write the postings file: %s",
		    strerror(errno));
	unlink(path);
	if ((*buf = malloc(WRITE_BUFFER)) != NULL)
		setvbuf(*f, *buf, _IOFBF, WRITE_BUFFER);
	return 0;
}

/* The second thread's part of a build split in two (split_languages(),
 * read_split()): over a connection of its own, the chunks' languages from a
 * row on, then the terms from a split on, into a build of its own, b, for
 * join_upper(): its postings, positions and narrowed instances in files of
 * their own, its offsets from their starts. */
struct upper {
	struct build b;
	struct ev_store *st;		/* its connection, in a read transaction */
	const char *path;		/* the store's */
	const unsigned char *stamp;	/* the index the caller reads */
	char *lo;			/* the split (malloc'd) */
	size_t lolen;
	long long from_row;		/* the chunks it scans, from this rowid */
	struct lang_scan scan;
	char *buf[3];			/* the files' buffers */
	long long shared;		/* the instances read (struct seg_sink) */
	struct ev_worker *w;		/* NULL: its jobs run on the caller's thread */
	void (*job)(void *);
	int r;				/* 1 done, 0 the index not readable so, 2
					 * another index (a write came between), -1 */
	struct ev_err err;
};

/* u's first job: its connection opened, on the index the caller reads, and
 * the languages of the chunks from u->from_row on scanned (u->r: 2 when it
 * cannot be opened, or the index is another; u->err). */
static void
upper_scan(void *arg)
{
	struct upper *u = arg;
	unsigned char stamp[32];

	/* a store this thread cannot open as a reader (one the caller opened
	 * to upgrade it, say) is read on the caller's thread alone */
	u->r = 2;
	if ((u->st = ev_store_open(u->path, EV_STORE_READ, &u->err)) == NULL)
		return;
	u->r = -1;
	if (ev_store_exec(u->st, "BEGIN", &u->err) == -1 ||
	    ev_postings_index_stamp(u->st, stamp, &u->err) == -1)
		return;
	if (memcmp(stamp, u->stamp, sizeof stamp) != 0)
		u->r = 2;
	else if (scan_languages(u->st, u->b.h.maxrowid, u->from_row, INT64_MAX, &u->scan,
	    &u->err) == 0)
		u->r = 1;
}

/* u's second job: its terms read into u->b (u->r, u->err). */
static void
upper_read(void *arg)
{
	struct upper *u = arg;
	struct seg_sink k = { &u->b, NULL, NULL, 0, &u->shared, 0 };
	struct ev_fts5seg_sink sink = { seg_term, seg_instance, &k, seg_row };

	u->r = ev_fts5seg_read_range(ev_store_db(u->st), "chunks_fts", (int)u->b.h.ncol, u->lo,
	    u->lolen, NULL, 0, &sink, &u->err);
	if (u->r == 1 && end_term(&u->b, &u->err) == -1)
		u->r = -1;
	if (u->r == 1 && fflush(u->b.f) != 0)
		u->r = ev_err_set(&u->err, EV_EXIT_RUNTIME, NULL, "writing the postings file: %s",
		    strerror(errno));
}

/* Give u the job fn, on its worker (or, without one, when upper_wait() is
 * called: after the caller's part). */
static void
upper_start(struct upper *u, void (*fn)(void *))
{
	u->job = fn;
	if (u->w != NULL)
		ev_worker_run(u->w, fn, u);
}

/* Wait for u's job to end. */
static void
upper_wait(struct upper *u)
{
	if (u->w != NULL)
		ev_worker_wait(u->w);
	else
		u->job(u);
}

/* u made ready for the terms from lo[0..len) (copied) on of b's store st,
 * its files opened and its worker made (when one can be).  Returns 0, or -1
 * with *err set (u is released either way by upper_release()). */
static int
upper_init(struct upper *u, struct ev_store *st, struct build *b, const char *lo, size_t len,
    struct ev_err *err)
{
	static const char *const suffix[3] = { EV_POSTINGS_SUFFIX ".upper.tmp",
	    EV_POSTINGS_SUFFIX ".upper.positions.tmp", EV_POSTINGS_SUFFIX ".upper.narrowed.tmp" };
	FILE **f[3] = { &u->b.f, &u->b.pf, &u->b.nf };
	int r = 0;

	u->b.h = b->h;
	memcpy(u->b.colname, b->colname, sizeof b->colname);
	u->b.rowid = -1;
	u->path = ev_store_path(st);
	u->stamp = b->h.stamp;
	if ((u->lo = malloc(len + 1)) == NULL)
		return ev_err_nomem(err);
	memcpy(u->lo, lo, len);
	u->lolen = len;
	for (int i = 0; i < 3 && r == 0; i++) {
		char *path = file_path(st, suffix[i]);

		r = open_gone(path, f[i], &u->buf[i], err);
		free(path);
	}
	u->w = r == 0 ? ev_worker_new() : NULL;
	return r;
}

/* Free what u holds (but its borrowed b.other), its worker's job ended
 * first. */
static void
upper_release(struct upper *u)
{
	struct build *b = &u->b;

	ev_worker_free(u->w);
	ev_store_close(u->st);	/* (its read transaction rolled back) */
	scan_release(&u->scan);
	free(u->lo);
	build_release(b);
	for (int i = 0; i < 3; i++)
		free(u->buf[i]);	/* (after fclose: the streams' buffers) */
}

/* The terms of u (after b's, all read and closed) joined to b's, as if b
 * had read them itself: their postings copied after b's, their strings,
 * positions (b->pf, b->pf_first) and narrowed instances.  A list's skips
 * are aligned to 8 bytes from the start of the postings (end_term()): u's
 * from the start of its own file, which b's postings shift by b->written.
 * The zeros before the first skips of u's are then as many as make them
 * aligned in b, and from there on u's lists lie 8-aligned in both, their
 * bytes the same: u's postings are copied in two runs at most.  Returns 0,
 * or -1 with *err set. */
static int
join_upper(struct build *b, struct upper *u, struct ev_err *err)
{
	static const unsigned char zero[8];
	struct build *v = &u->b;
	uint64_t strbase = b->strings.len, shift = b->written, from = 0;
	int r = 0;

	errno = 0;
	for (size_t i = 0; r == 0 && i < v->nterms; i++) {
		struct term t = v->terms[i];

		t.str += strbase;
		t.post += shift;
		t.pos += b->pos_written;
		if (t.nskip > 0 && shift % 8 != 0) {
			/* the run up to its list's end, then its zeros anew */
			uint64_t end = v->terms[i].post + t.postlen;
			size_t pad = (size_t)((8 - (end + shift) % 8) % 8);

			if (copy_range(b->f, v->f, from, end - from) == -1 ||
			    (pad > 0 && fwrite(zero, 1, pad, b->f) != pad)) {
				r = -1;
				break;
			}
			from = t.skips;
			shift = end + shift + pad - t.skips;
		}
		t.skips += shift;
		if (ev_grow(&b->terms, &b->capterms, b->nterms, sizeof *b->terms, 4096) == -1) {
			errno = ENOMEM;
			r = -1;
		} else
			b->terms[b->nterms++] = t;
	}
	if (r == 0 && copy_range(b->f, v->f, from, v->written - from) == -1)
		r = -1;
	if (r == 0 && ev_buf_add(&b->strings, v->strings.p, v->strings.len) == -1) {
		errno = ENOMEM;
		r = -1;
	}
	if (r == 0 && (fflush(v->nf) != 0 || copy_range(b->nf, v->nf, 0, (uint64_t)ftello(v->nf)) == -1))
		r = -1;
	if (r == -1)
		return errno == ENOMEM ? ev_err_nomem(err) : ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "writing the postings file: %s", errno != 0 ? strerror(errno) :
		    "a temporary file was cut short");
	b->written = v->written + shift;
	b->pos_written += v->pos_written;
	/* the upper terms' positions file goes on with the narrowed words',
	 * after the lower terms' */
	b->pf_first = b->pf;
	b->pf = v->pf;
	b->pf_buf = u->buf[1];
	v->pf = NULL;
	u->buf[1] = NULL;
	return 0;
}

/* The languages of b's chunks into b (as chunk_languages()), read on two
 * threads when the index's terms are to be read on two too: split at
 * split[0..len), or (len SIZE_MAX) where ev_fts5seg_split() says when the
 * process may run on two processors; u then made ready for read_split(),
 * its chunks from the middle rowid on scanned by its worker over its
 * connection while this thread scans the others.  Returns 1 with u ready,
 * 0 (split NULL, or no split to be had) read on this thread alone, 2 when
 * u found the index written since (the build is to be made on one thread),
 * or -1 with *err set. */
static int
split_languages(struct ev_store *st, struct build *b, struct upper *u, const char *split,
    size_t len, struct ev_err *err)
{
	struct lang_scan mine = { 0 };
	char *mid = NULL;
	int r = 0;

	if (split != NULL && len == SIZE_MAX) {
		split = NULL;
		if (ev_worker_processors() >= 2 &&
		    (r = ev_fts5seg_split(ev_store_db(st), "chunks_fts", &mid, &len, err)) == 1)
			split = mid;
	}
	if (split == NULL || r == -1) {
		free(mid);
		return r == -1 || chunk_languages(st, b, err) == -1 ? -1 : 0;
	}
	r = upper_init(u, st, b, split, len, err);
	free(mid);
	if (r == -1)
		return -1;
	u->from_row = (long long)(b->h.maxrowid / 2 / 64 * 64);
	upper_start(u, upper_scan);
	r = scan_languages(st, b->h.maxrowid, INT64_MIN, u->from_row - 1, &mine, err);
	upper_wait(u);
	if (r == 0 && u->r != 1) {
		r = u->r;
		if (r == -1)
			*err = u->err;
	}
	if (r == 0 && (r = keep_scans(b, &mine, &u->scan, b->h.maxrowid, err)) == 0)
		u->b.other = b->other;	/* (read alone, by both) */
	scan_release(&mine);
	return r == 0 ? 1 : r;
}

/* The instances of the terms before u's split read into b, on this thread,
 * and the others, on u's worker, at the same time (k: the sink of b's), and
 * joined.  Returns as read_instances(). */
static int
read_split(struct ev_store *st, struct build *b, struct upper *u, struct seg_sink *k,
    struct ev_err *err)
{
	struct ev_fts5seg_sink sink = { seg_term, seg_instance, k, seg_row };
	int r;

	k->shared = &u->shared;
	upper_start(u, upper_read);
	r = ev_fts5seg_read_range(ev_store_db(st), "chunks_fts", (int)b->h.ncol, NULL, 0, u->lo,
	    u->lolen, &sink, err);
	upper_wait(u);
	if (r == 1 && u->r != 1 && (r = u->r) == -1)
		*err = u->err;
	if (r == 1 && (end_term(b, err) == -1 || join_upper(b, u, err) == -1))
		r = -1;
	return r;
}

/* The instances, read and written: with fast, from the index's segments
 * when it has segments the reader reads (fts5seg.h; on two threads when u
 * is not NULL, read_split()), returning 1 when it has not (the build is
 * then to be made again without fast) and 2 when it is to be made again
 * on one thread; else through fts5vocab.  Then the narrowed words' lists. */
static int
read_instances(struct ev_store *st, struct build *b, int fast, struct upper *u,
    void (*progress)(void *, long long), void *ctx, struct ev_err *err)
{
	struct seg_sink k = { b, progress, ctx, 0, NULL, 0 };
	struct ev_fts5seg_sink sink = { seg_term, seg_instance, &k, seg_row };

	if (fast) {
		int rc = u != NULL ? read_split(st, b, u, &k, err) :
		    ev_fts5seg_read(ev_store_db(st), "chunks_fts", (int)b->h.ncol, &sink, err);

		if (rc != 1)
			return rc == 0 ? 1 : rc;
	} else if (vocab_instances(st, b, progress, ctx, err) == -1)
		return -1;
	if (end_term(b, err) == -1)
		return -1;
	b->nreal = b->nterms;
	return add_narrowed(b, err);
}

/* ev_postings_build(), the instances read as read_instances() says: 0; 1
 * when fast could not read them, 2 when they are to be read on one thread;
 * or -1 with *err set. */
static int
build_file(struct ev_store *st, int fast, const char *split, size_t len,
    void (*progress)(void *, long long), void *ctx, struct ev_err *err)
{
	struct build b = { 0 };
	struct upper u = { 0 };
	char names[EV_POSTINGS_MAX_COLS][32];
	uint32_t *lengths = NULL;
	char *wbuf = NULL, *pwbuf = NULL, *nwbuf = NULL;
	char *path = file_path(st, EV_POSTINGS_SUFFIX), *tmp = file_path(st, EV_POSTINGS_SUFFIX ".tmp");
	char *postmp = file_path(st, EV_POSTINGS_SUFFIX ".positions.tmp");
	char *nftmp = file_path(st, EV_POSTINGS_SUFFIX ".narrowed.tmp");
	int r = -1, began = 0, two = 0;

	if (path == NULL || tmp == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	b.rowid = -1;
	if (ev_store_exec(st, "BEGIN", err) == -1)
		goto out;
	began = 1;
	if (ev_postings_index_stamp(st, b.h.stamp, err) == -1 || index_totals(st, &b.h, err) == -1 ||
	    column_names(st, &b, names, err) == -1 ||
	    ev_postings_row_lengths(st, &b.h.maxrowid, &lengths, NULL, err) == -1)
		goto out;
	if ((two = fast ? split_languages(st, &b, &u, split, len, err) :
	    chunk_languages(st, &b, err)) == -1 || two == 2) {
		r = two;
		goto out;
	}
	if ((b.f = fopen(tmp, "wb")) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, tmp, "cannot write the postings file: %s",
		    strerror(errno));
		goto out;
	}
	/* the positions and the narrowed words' instances wait in files of
	 * their own */
	if (open_gone(postmp, &b.pf, &pwbuf, err) == -1 || open_gone(nftmp, &b.nf, &nwbuf, err) == -1)
		goto out;
	/* Written in large pieces, the file sits in the page cache in large
	 * folios, which a search maps 2 MB at a time (written 4 KB at a time,
	 * a query of many words took a sixth longer, mapping and unmapping
	 * small pages).  Without the memory, stdio's own buffer does. */
	if ((wbuf = malloc(WRITE_BUFFER)) != NULL)
		setvbuf(b.f, wbuf, _IOFBF, WRITE_BUFFER);
	if (fseeko(b.f, HEADER_BYTES, SEEK_SET) != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, tmp, "cannot write the postings file: %s",
		    strerror(errno));
		goto out;
	}
	if ((r = read_instances(st, &b, fast, two ? &u : NULL, progress, ctx, err)) != 0 ||
	    (r = finish_file(&b, lengths, err)) == -1)
		goto out;
	r = -1;
	if (fclose(b.f) != 0) {
		b.f = NULL;
		ev_err_set(err, EV_EXIT_RUNTIME, tmp, "cannot write the postings file: %s",
		    strerror(errno));
		goto out;
	}
	b.f = NULL;
	if (rename(tmp, path) != 0) {
		ev_err_set(err, EV_EXIT_RUNTIME, path, "cannot put the postings file in place: %s",
		    strerror(errno));
		goto out;
	}
	r = 0;
out:
	upper_release(&u);
	build_release(&b);
	free(wbuf);	/* (after fclose: the streams' buffers) */
	free(pwbuf);
	free(nwbuf);
	free(b.pf_buf);
	if (r != 0 && tmp != NULL)
		unlink(tmp);
	if (began) {
		struct ev_err ignored = { 0 };

		ev_store_exec(st, "ROLLBACK", &ignored);	/* it only read */
	}
	free(lengths);
	free(b.langs);
	free(b.other);
	free(path);
	free(tmp);
	free(postmp);
	free(nftmp);
	return r;
}

/* Merge st's text index into one segment (FTS5's optimize), in a write
 * transaction of its own.  Returns 0, or -1 with *err set. */
static int
merge_index(struct ev_store *st, struct ev_err *err)
{
	if (ev_store_begin(st, err) == -1)
		return -1;
	if (ev_store_fts_optimize(st, err) == -1 || ev_store_commit(st, err) == -1) {
		ev_store_rollback(st);
		return -1;
	}
	return 0;
}

/* ev_postings_build() with the terms split as split_languages() takes
 * split[0..len) (len SIZE_MAX: where the index says, NULL: not split). */
static int
build_split(struct ev_store *st, const char *split, size_t len, void (*progress)(void *, long long),
    void *ctx, struct ev_err *err)
{
	int r = build_file(st, 1, split, len, progress, ctx, err);

	/* An index the segment reader does not read (a document changed in
	 * a large store leaves delete marks in a small segment beside its
	 * large one) is merged into one first: merging and reading the one
	 * segment cost a fraction of
	 * reading the index row by row through fts5vocab. */
	if (r == 1 && (r = merge_index(st, err)) == 0)
		r = build_file(st, 1, split, len, progress, ctx, err);
	if (r == 2)	/* a write came between the two threads' reads */
		r = build_file(st, 1, NULL, 0, progress, ctx, err);
	return r == 1 ? build_file(st, 0, NULL, 0, progress, ctx, err) : r;
}

int
ev_postings_build(struct ev_store *st, void (*progress)(void *, long long), void *ctx,
    struct ev_err *err)
{
	return build_split(st, "", SIZE_MAX, progress, ctx, err);
}

int
ev_postings_build_split(struct ev_store *st, const char *split, size_t len, struct ev_err *err)
{
	return build_split(st, split, split != NULL ? len : 0, NULL, NULL, err);
}

/* Whether the string of term entry t lies among p's strings. */
static int
term_string_ok(const struct ev_postings *p, const struct term *t)
{
	const struct header *h = &p->h;

	return t->str <= h->off_langs - h->off_strings && t->len <= h->off_langs - h->off_strings - t->str;
}

/* Whether term entry t's list, skips and positions lie in p's sections
 * (map_file() checked the sections themselves). */
static int
term_lists_ok(const struct ev_postings *p, const struct term *t)
{
	const struct header *h = &p->h;

	return t->post <= h->off_positions - h->off_postings &&
	    t->postlen <= h->off_positions - h->off_postings - t->post &&
	    !(t->nskip > 0 && t->skips % 8 != 0) && t->skips <= h->off_positions - h->off_postings &&
	    t->nskip <= (h->off_positions - h->off_postings - t->skips) /
	    sizeof(struct ev_postings_skip) &&
	    t->pos % 8 == 0 && t->pos <= h->off_lengths - h->off_positions &&
	    t->nskip <= t->pos / sizeof(uint64_t) &&
	    t->poslen <= h->off_lengths - h->off_positions - t->pos;
}

/* Map the file at path and check its sections: the file, *why 0; or NULL
 * with *why EV_POSTINGS_UNREADABLE (it cannot be opened or mapped: errno
 * says why), EV_POSTINGS_STALE (another version of evkit made it: its
 * version is another from 1 to 255) or
 * EV_POSTINGS_DAMAGED (cut short, or its header not a postings file's).  The terms' entries are checked as they are read
 * (ev_postings_term(), ev_postings_term_at()): a query reads a few of tens
 * of thousands, and checking them all read every page of the dictionary
 * for each process. */
static struct ev_postings *
map_file(const char *path, int *why)
{
	struct ev_postings *p;
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok, e;
	const struct header *h;

	*why = EV_POSTINGS_UNREADABLE;
	if (fd == -1)
		return NULL;
	if ((ok = fstat(fd, &sb) == 0) && sb.st_size < HEADER_BYTES)
		*why = EV_POSTINGS_DAMAGED;	/* shorter than its header */
	if (!ok || sb.st_size < HEADER_BYTES || (p = calloc(1, sizeof *p)) == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	p->len = (size_t)sb.st_size;
	p->map = mmap(NULL, p->len, PROT_READ, MAP_SHARED, fd, 0);
	e = errno;
	close(fd);
	if (p->map == MAP_FAILED) {
		free(p);
		errno = e;
		return NULL;
	}
	*why = EV_POSTINGS_STALE;
#ifdef MADV_HUGEPAGE
	/* A page a query faults in from the disk comes in a 2 MB folio (the
	 * kernel's read-around otherwise brings 4 KB pages), which the next
	 * query maps whole: with the file read again from the disk, the
	 * second round of the bench-scale queries took 48 ms at the median
	 * instead of 59.  Only a hint: without huge pages, nothing changes. */
	(void)madvise(p->map, p->len, MADV_HUGEPAGE);
#endif
	h = (const struct header *)p->map;
	memcpy(&p->h, h, sizeof p->h);
	h = &p->h;
	if (memcmp(h->magic, MAGIC, sizeof h->magic) == 0 && h->version != VERSION &&
	    h->version >= 1 && h->version <= 255) {
		ev_postings_close(p);
		return NULL;	/* another version's (0 or a larger number: a damaged header) */
	}
	*why = EV_POSTINGS_DAMAGED;
	if (memcmp(h->magic, MAGIC, sizeof h->magic) != 0 || h->ncol == 0 || h->ncol > EV_POSTINGS_MAX_COLS || h->size != p->len ||
	    h->off_postings != HEADER_BYTES || h->off_positions < h->off_postings ||
	    h->off_positions % 8 != 0 || h->off_lengths < h->off_positions ||
	    h->off_lengths % 8 != 0 || h->maxrowid > (p->len - h->off_lengths) / sizeof(uint32_t) ||
	    h->off_terms < h->off_lengths + (h->maxrowid + 1) * sizeof(uint32_t) ||
	    h->off_terms % 8 != 0 || h->off_terms > p->len ||
	    h->nterms > (p->len - h->off_terms) / sizeof(struct term) ||
	    h->nnarrowed > (p->len - h->off_terms) / sizeof(struct term) - h->nterms ||
	    h->off_strings != h->off_terms + (h->nterms + h->nnarrowed) * sizeof(struct term) ||
	    h->off_strings > p->len || h->off_langs < h->off_strings || h->off_langs % 8 != 0 ||
	    h->off_langs > p->len || (p->len - h->off_langs) % sizeof(struct lang) != 0 ||
	    h->nlangs != (p->len - h->off_langs) / sizeof(struct lang)) {
		ev_postings_close(p);
		return NULL;
	}
	p->lengths = (const uint32_t *)(p->map + h->off_lengths);
	p->terms = (const struct term *)(p->map + h->off_terms);
	p->strings = (const char *)(p->map + h->off_strings);
	p->postings = p->map + h->off_postings;
	p->positions = p->map + h->off_positions;
	p->langs = (const struct lang *)(p->map + h->off_langs);
	for (unsigned b = 0; b < EV_POSTINGS_COUNTS_ESCAPE; b++)
		p->sums[b] = (unsigned char)ev_postings_byte_sum(b, (int)h->ncol);
	for (uint64_t i = 0; i < h->nlangs; i++)
		if (memchr(p->langs[i].code, '\0', sizeof p->langs[i].code) == NULL) {
			ev_postings_close(p);
			return NULL;
		}
	*why = 0;
	return p;
}

struct ev_postings *
ev_postings_open(struct ev_store *st, int *stale, struct ev_err *err)
{
	char *path = file_path(st, EV_POSTINGS_SUFFIX);
	struct ev_postings *p;
	int fresh;

	*stale = 0;
	ev_err_clear(err);
	if (path == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	if (access(path, F_OK) != 0) {
		free(path);
		return NULL;
	}
	if ((p = map_file(path, stale)) == NULL) {
		fresh = errno;
		free(path);
		if (*stale == EV_POSTINGS_UNREADABLE && fresh == ENOMEM) {
			*stale = 0;	/* out of memory: not the file's fault */
			ev_err_nomem(err);
			return NULL;
		}
		errno = fresh;	/* why it cannot be read */
		return NULL;
	}
	p->path = path;
	if ((fresh = ev_postings_fresh(p, st, err)) != 1) {
		ev_postings_close(p);
		*stale = fresh == 0 ? EV_POSTINGS_STALE : 0;
		return NULL;
	}
	return p;
}

int
ev_postings_fresh(const struct ev_postings *p, struct ev_store *st, struct ev_err *err)
{
	unsigned char stamp[32];

	if (ev_postings_index_stamp(st, stamp, err) == -1)
		return -1;
	return memcmp(stamp, p->h.stamp, sizeof stamp) == 0;
}

int
ev_postings_state(struct ev_store *st, struct ev_err *err)
{
	int stale;
	struct ev_postings *p = ev_postings_open(st, &stale, err);

	if (p != NULL) {
		ev_postings_close(p);
		return 1;
	}
	if (err->code != 0)
		return -2;
	return stale ? -1 : 0;
}

int
ev_postings_wanted(struct ev_store *st, long long min_rows, struct ev_err *err)
{
	sqlite3_stmt *s;
	long long rows = 0;
	int state = ev_postings_state(st, err);

	if (state != 0)
		return state == -2 ? -1 : state == -1;
	if ((s = ev_store_prepare(st, "SELECT count(*) FROM chunks", err)) == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_ROW) {
		ev_store_error(st, "counting chunks", err);
		sqlite3_reset(s);
		return -1;
	}
	rows = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return rows >= min_rows;
}

void
ev_postings_unmap_pages(const struct ev_postings *p, int part, int nparts)
{
	size_t unit = (size_t)2 << 20, from, to;	/* (a huge folio's: none is split) */

	if (p == NULL || nparts < 1 || part < 0 || part >= nparts)
		return;
	from = p->len / (size_t)nparts * (size_t)part / unit * unit;
	to = part + 1 == nparts ? p->len : p->len / (size_t)nparts * (size_t)(part + 1) / unit * unit;
	if (to > from)
		(void)madvise((unsigned char *)p->map + from, to - from, MADV_DONTNEED);
}

void
ev_postings_close(struct ev_postings *p)
{
	if (p == NULL)
		return;
	munmap(p->map, p->len);
	free(p->path);
	free(p);
}

double
ev_postings_rows(const struct ev_postings *p)
{
	return (double)p->h.rows;
}

double
ev_postings_tokens(const struct ev_postings *p)
{
	return (double)p->h.tokens;
}

int
ev_postings_ncol(const struct ev_postings *p)
{
	return (int)p->h.ncol;
}

long long
ev_postings_maxrowid(const struct ev_postings *p)
{
	return (long long)p->h.maxrowid;
}

const uint32_t *
ev_postings_lengths(const struct ev_postings *p)
{
	return p->lengths;
}

/* A list of one entry cut short: a cursor on it finds the file corrupt at
 * its first step (ev_postings_next(), ev_postings_seek(),
 * ev_postings_mark_rows() return -1). */
static const unsigned char cut_short[] = { 0x80 };

/* Start *c on the list cut_short, for a term entry found corrupt; returns
 * 1, a row to be read. */
static long long
corrupt_cursor(struct ev_postings_cursor *c)
{
	c->p = c->base = cut_short;
	c->end = cut_short + sizeof cut_short;
	return 1;
}

long long
ev_postings_term(const struct ev_postings *p, const char *term, int len,
    struct ev_postings_cursor *c)
{
	uint64_t lo = 0, hi = p->h.nterms;

	memset(c, 0, sizeof *c);
	c->ncol = (int)p->h.ncol;
	c->sums = p->sums;
	if (len > 0 && term[0] == EV_POSTINGS_NARROWED) {
		/* a narrowed word's entry, among those after the terms */
		lo = hi;
		hi += p->h.nnarrowed;
		term++;
		len--;
	}
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		const struct term *t = &p->terms[mid];
		int cmp;

		if (!term_string_ok(p, t))
			return corrupt_cursor(c);
		if ((cmp = term_cmp(p->strings + t->str, t->len, term, (size_t)len)) == 0) {
			if (!term_lists_ok(p, t))
				return corrupt_cursor(c);
			c->p = c->base = p->postings + t->post;
			c->end = c->p + t->postlen;
			c->skips = (const struct ev_postings_skip *)(p->postings + t->skips);
			c->nskip = (size_t)t->nskip;
			c->pos_base = p->positions + t->pos;
			c->pos_end = c->pos_base + t->poslen;
			c->pos_skips = (const uint64_t *)(p->positions + t->pos) - t->nskip;
			return t->rows;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Ask for the pages of [from, end) when they are few enough (WILLNEED_MAX). */
static void
willneed_range(const void *from, const void *end)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)from / page * page;

	if ((uintptr_t)end <= a || (uintptr_t)end - a > WILLNEED_MAX)
		return;	/* read by its faults, 2 MB folios at a time (map_file()) */
	(void)madvise((void *)a, (size_t)((uintptr_t)end - a), MADV_WILLNEED);	/* a hint */
}

void
ev_postings_willneed(const struct ev_postings_cursor *c, int positions)
{
	const unsigned char *end = c->end;

	if (c->base == NULL)
		return;	/* no such term */
	if (c->nskip > 0 && (const unsigned char *)(c->skips + c->nskip) > end)
		end = (const unsigned char *)(c->skips + c->nskip);
	willneed_range(c->base, end);
	if (positions)
		willneed_range(c->pos_skips, c->pos_end);
}

/* Move p (before end) past n varints, eight bytes at a time where it can.
 * Returns 0, or -1 when they are cut short. */
static int
skip_varints(const unsigned char **p, const unsigned char *end, long long n)
{
	const unsigned char *q = *p;

	while (n >= 8 && end - q >= 8) {
		uint64_t w;
		int last;

		memcpy(&w, q, sizeof w);
		/* the varints' last bytes (their high bit clear), summed by a
		 * multiply: __builtin_popcountll() is a call to libgcc where
		 * the build targets no POPCNT instruction */
		last = (int)((((~w & 0x8080808080808080u) >> 7) * 0x0101010101010101u) >> 56);
		if (last > n)
			break;
		n -= last;
		q += 8;
	}
	for (; n > 0; q++) {
		if (q >= end)
			return -1;
		n -= *q < 0x80;
	}
	*p = q;
	return 0;
}

int
ev_postings_positions(struct ev_postings_cursor *c, uint64_t *key)
{
	const unsigned char *p, *end = c->pos_end;
	int n = 0;

	if (!c->at || c->pos_from > (uint64_t)(end - c->pos_base))
		return -1;
	/* from where the last read stopped, or else from the block the cursor
	 * last skipped to */
	if (c->pos_at == NULL || c->pos_read > c->pos_since) {
		c->pos_at = c->pos_base + c->pos_from;
		c->pos_read = 0;
	}
	if (skip_varints(&c->pos_at, end, c->pos_since - c->pos_read) == -1)
		return -1;
	p = c->pos_at;
	for (int col = 0; col < c->ncol; col++) {
		uint64_t off = 0, v;

		for (uint32_t i = 0; i < c->count[col]; i++) {
			if (ev_varint_get(&p, end, &v) == -1)
				return -1;
			off += v;
			key[n++] = ((uint64_t)col << 32) | (off & 0xffffffffu);
		}
	}
	c->pos_at = p;
	c->pos_read = c->pos_since + n;
	return n;
}

int
ev_postings_nlangs(const struct ev_postings *p)
{
	return (int)p->h.nlangs;
}

const char *
ev_postings_lang(const struct ev_postings *p, int i, long long *chunks)
{
	if (chunks != NULL)
		*chunks = p->langs[i].chunks;
	return p->langs[i].code;
}

int
ev_postings_seek_far(struct ev_postings_cursor *c, long long target)
{
	size_t lo = c->skip_at, hi = lo, step = 1;
	int r;

	if (c->at && c->rowid >= target)
		return 1;
	/* the first block whose last row is at or after target: galloping from
	 * the last seek's block (targets rise), then halving */
	while (hi < c->nskip && c->skips[hi].last_rowid < target) {
		lo = hi + 1;
		hi += step;
		step *= 2;
	}
	if (hi > c->nskip)
		hi = c->nskip;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->skips[mid].last_rowid < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && lo <= c->nskip && c->skips[lo - 1].next <= (uint64_t)(c->end - c->base) &&
	    c->base + c->skips[lo - 1].next > c->p) {
		c->p = c->base + c->skips[lo - 1].next;
		c->rowid = c->skips[lo - 1].last_rowid;
		c->pos_from = c->pos_skips[lo - 1];
		c->pos_since = c->pos_count = 0;
		c->pos_at = NULL;
	}
	c->skip_at = lo;
	if ((r = ev_postings_next(c)) != 1 || c->rowid >= target)
		return r;
	return ev_postings_step_to(c, target);
}

long long
ev_postings_mark_rows(const struct ev_postings *p, const struct ev_postings_cursor *c, uint64_t *bits)
{
	const unsigned char *q = c->p, *end = c->end;
	uint64_t row = (uint64_t)c->rowid, v, most = p->h.maxrowid;
	uint32_t count[EV_POSTINGS_MAX_COLS];
	long long fresh = 0;

	if (q == NULL)
		return 0;	/* no such term */
	while (q < end) {
		uint64_t bit, *word;

		if (ev_varint_get(&q, end, &v) == -1 || v > most - row)
			return -1;
		row += v;
		/* the counts: a byte, or the escape and a varint a column */
		if (q < end && *q < EV_POSTINGS_COUNTS_ESCAPE)
			q++;
		else if (ev_postings_counts(&q, end, c->ncol, count) == -1)
			return -1;
		word = &bits[row / 64];
		bit = (uint64_t)1 << (row % 64);
		fresh += (*word & bit) == 0;	/* (no branch: either is common) */
		*word |= bit;
	}
	return fresh;
}

int
ev_postings_corrupt(const struct ev_postings *p, struct ev_err *err)
{
	int db = (int)(strlen(p->path) - strlen(EV_POSTINGS_SUFFIX));

	return ev_err_set(err, EV_EXIT_RUNTIME, p->path, "the postings file is corrupt: make it"
	    " again with 'ev-ingest --db %.*s --postings' (or remove it: searches then rank"
	    " through FTS5, more slowly)", db, p->path);
}

long long
ev_postings_nterms(const struct ev_postings *p)
{
	return (long long)p->h.nterms;
}

const char *
ev_postings_term_at(const struct ev_postings *p, long long i, int *len, long long *rows)
{
	const struct term *t = &p->terms[i];

	*len = 0;
	*rows = 0;
	if (!term_string_ok(p, t))
		return NULL;
	*len = (int)t->len;
	*rows = t->rows;
	return p->strings + t->str;
}
