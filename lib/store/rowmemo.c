/* rowmemo.c: rows read before, by rowid.  See rowmemo.h. */
#include "rowmemo.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "strmap.h"

/* A row kept: its number in the map is its index in entries. */
struct entry {
	size_t at;		/* in bytes: the fields, NUL, the text, NUL */
	size_t flen, tlen;
};

/* What a row costs beside its bytes: its entry, its key's copy and slots. */
#define ROW_COST (sizeof(struct entry) + 2 * sizeof(int64_t) + 4 * sizeof(struct ev_strmap_slot))

struct ev_rowmemo {
	size_t max_bytes;
	struct ev_buf bytes;
	struct ev_strmap rows;	/* the rowids' 8 bytes */
	struct entry *entries;
	size_t capentries;
};

struct ev_rowmemo *
ev_rowmemo_new(size_t max_bytes)
{
	struct ev_rowmemo *m = calloc(1, sizeof *m);

	if (m != NULL)
		m->max_bytes = max_bytes;
	return m;
}

void
ev_rowmemo_free(struct ev_rowmemo *m)
{
	if (m == NULL)
		return;
	ev_buf_release(&m->bytes);
	ev_strmap_release(&m->rows);
	free(m->entries);
	free(m);
}

void
ev_rowmemo_clear(struct ev_rowmemo *m)
{
	if (m == NULL)
		return;
	ev_buf_reset(&m->bytes);
	ev_strmap_reset(&m->rows);
}

size_t
ev_rowmemo_count(const struct ev_rowmemo *m)
{
	return m != NULL ? ev_strmap_count(&m->rows) : 0;
}

int
ev_rowmemo_get(const struct ev_rowmemo *m, int64_t rowid, const char **fields, size_t *flen,
    const char **text, size_t *tlen)
{
	const struct entry *e;
	int32_t id;

	if (m == NULL || (id = ev_strmap_find(&m->rows, &rowid, sizeof rowid)) < 0)
		return 0;
	e = &m->entries[id];
	*fields = m->bytes.p + e->at;
	*flen = e->flen;
	*text = m->bytes.p + e->at + e->flen + 1;
	*tlen = e->tlen;
	return 1;
}

int
ev_rowmemo_keep(struct ev_rowmemo *m, int64_t rowid, const char *fields, size_t flen,
    const char *text, size_t tlen)
{
	size_t at, need = flen + tlen + 2 + ROW_COST;
	int32_t id;
	int added;

	if (m == NULL || need > m->max_bytes)
		return 0;	/* larger than the bound alone */
	if (m->bytes.len + ev_rowmemo_count(m) * ROW_COST + need > m->max_bytes)
		ev_rowmemo_clear(m);
	at = m->bytes.len;
	if ((id = ev_strmap_add(&m->rows, &rowid, sizeof rowid, &added)) < 0)
		return 0;
	if (!added)
		return 1;
	if (ev_grow(&m->entries, &m->capentries, (size_t)id, sizeof *m->entries, 256) == -1 ||
	    ev_buf_add(&m->bytes, fields, flen) == -1 || ev_buf_addc(&m->bytes, '\0') == -1 ||
	    (tlen > 0 && ev_buf_add(&m->bytes, text, tlen) == -1) ||
	    ev_buf_addc(&m->bytes, '\0') == -1) {
		ev_strmap_drop_last(&m->rows);
		m->bytes.len = at;
		return 0;
	}
	m->entries[id] = (struct entry){ at, flen, tlen };
	return 1;
}
