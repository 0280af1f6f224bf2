/* readahead.h: asking the kernel, in one go, for the pages SQLite is about
 * to read for a batch of rows of a database file.
 *
 * Low layer: includes buf.h.
 *
 * SQLite reads a row's B-tree pages one after another, each read waiting for
 * the last.  A hundred hits whose pages are out of the page cache are then
 * three hundred reads from the disk in a row (the chunk's table leaf, its
 * document's index leaf and table leaf), each one waited for.  A readahead
 * walks the same B-trees itself, in SQLite's documented file format, a level
 * at a time for every row of the batch, and asks the kernel for each level's
 * pages together (POSIX_FADV_WILLNEED), so the disk reads them side by side;
 * SQLite then finds them in the page cache.
 *
 * It only reads, and only asks: what SQLite answers never depends on it.  A
 * page it cannot make sense of (a corrupt file, a page that a writer has
 * changed since, or newer in the write-ahead log) ends that key's walk, and
 * costs at most the pages asked for in vain.
 *
 * The file is read through a descriptor of its own, kept open until
 * ev_readahead_close(): closing a descriptor of a file drops every POSIX
 * lock the process holds on it, SQLite's included, so close the readahead
 * only after the SQLite connection to the same file. */
#ifndef EV_READAHEAD_H
#define EV_READAHEAD_H

#include <stddef.h>

struct ev_readahead;

/* A text, as the record holds it: bytes and length (not NUL-terminated). */
struct ev_readahead_text {
	const unsigned char *s;
	size_t len;
};

/* A readahead of the SQLite database file at path; NULL when the file
 * cannot be opened or is not an SQLite database (a readahead is never
 * needed: go on without one). */
struct ev_readahead *ev_readahead_open(const char *path);

/* Close the readahead's descriptor and free it (NULL-safe).  See above for
 * when. */
void ev_readahead_close(struct ev_readahead *ra);

/* Ask for the pages of rows rowid[0..n) of the table B-tree whose root page
 * is root, a level at a time.  With col >= 0 the leaves are read too, and
 * text[i] is set to column col of row i when it is a text or a blob stored
 * on the leaf itself (valid until the next call on ra), else {NULL, 0}; the
 * first overflow page of such a row is asked for too.  With col < 0 the
 * leaves are asked for and not waited for.  leaf (NULL, or n entries) is
 * set to the leaf page holding each row, 0 when none was found.
 * Returns 0, or -1 out of memory (nothing is set then). */
int ev_readahead_rows(struct ev_readahead *ra, unsigned root, const long long *rowid, size_t n,
    int col, struct ev_readahead_text *text, unsigned *leaf);

/* Ask for the pages of the index B-tree whose root page is root, an index
 * whose first column is text in BINARY order and whose last is the rowid
 * (a UNIQUE or PRIMARY KEY text column's), finding key[0..n) (keys with a
 * NULL s are skipped).  rowid[i] is set to key i's row, 0 when it was not
 * found; page (NULL, or n entries) to the page holding its entry.  Returns 0,
 * or -1 out of memory (nothing is set then). */
int ev_readahead_index(struct ev_readahead *ra, unsigned root, const struct ev_readahead_text *key,
    size_t n, long long *rowid, unsigned *page);

#endif
