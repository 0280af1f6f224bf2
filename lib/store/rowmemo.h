/* rowmemo.h: what was read of a store's rows, kept by rowid to be handed out
 * again.
 *
 * A writer of hit records that meets the same chunk many times (the vector
 * lane: a batch of queries, read in one transaction, hits the same chunks)
 * keeps each chunk's hit fields, as the JSON text written, and its text,
 * and copies them instead of reading the row again.  The caller decides
 * what is still true: it clears the memo when its snapshot of the store
 * ends.  The memory is bounded: when the kept rows would pass the bound,
 * everything kept is dropped and keeping starts again.  A failed
 * allocation only means that a row is not kept.
 *
 * Layer above buf and strmap: includes only the C library in its header. */
#ifndef EV_ROWMEMO_H
#define EV_ROWMEMO_H

#include <stddef.h>
#include <stdint.h>

struct ev_rowmemo;

/* A memo that keeps at most about max_bytes of rows; NULL when out of
 * memory. */
struct ev_rowmemo *ev_rowmemo_new(size_t max_bytes);

/* Free the memo (NULL-safe). */
void ev_rowmemo_free(struct ev_rowmemo *m);

/* Drop every row kept (NULL-safe). */
void ev_rowmemo_clear(struct ev_rowmemo *m);

/* The row rowid as kept: 1 with its fields in fields[0..*flen) and its text
 * in text[0..*tlen) (both NUL-terminated; valid until the next
 * ev_rowmemo_keep() or ev_rowmemo_clear()), 0 when it is not kept (nothing
 * set).  m may be NULL (nothing kept). */
int ev_rowmemo_get(const struct ev_rowmemo *m, int64_t rowid, const char **fields, size_t *flen,
	const char **text, size_t *tlen);

/* Keep the row rowid: its fields fields[0..flen) and its text text[0..tlen)
 * (text NULL: an empty one), both copied.  A row kept before is left as it
 * was.  Returns 1 when it is kept, 0 when it is not (out of memory, or a
 * row larger than the bound; m NULL). */
int ev_rowmemo_keep(struct ev_rowmemo *m, int64_t rowid, const char *fields, size_t flen,
	const char *text, size_t tlen);

/* The rows kept now. */
size_t ev_rowmemo_count(const struct ev_rowmemo *m);

#endif
