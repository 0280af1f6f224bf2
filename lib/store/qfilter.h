/* qfilter.h: a query record's "filters", one grammar for every lane that
 * filters (the text lane, textsearch.h; the vector lane, vsearch.h; the
 * multi-vector lane, mvsearch.h; ev-tune),
 * as SQL conditions over a chunk and its document, with the values to bind.
 * The grammar a user meets (the keys doc_id, doc_ids, source_type,
 * language, metadata and published_date, and what each value means) is the
 * man pages' (ev-search-text(1), RECORDS; ev-search-vec(1) and
 * ev-search-mv(1)).  What a caller may rely on: each key restricts further
 * (a chunk passes every key given), and any other key, or a value of
 * another shape, is bad input, never ignored.
 *
 * Low layer: includes buf.h, err.h, store.h, SQLite and Jansson (its code
 * analyze.h, for language codes).  Knows nothing of a lane: a lane joins
 * `chunks fc` and `documents fd ON fd.doc_id = fc.doc_id`, appends the
 * conditions to its WHERE clause and binds their values (or asks for the
 * rowids that pass). */
#ifndef EV_QFILTER_H
#define EV_QFILTER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <sqlite3.h>

#include "buf.h"
#include "err.h"
#include "store.h"

struct ev_qfilter {
	struct ev_buf sql;	/* " AND ..." conditions over fc and fd */
	json_t *binds;		/* their values, in parameter order */
	int first;		/* the first value's parameter number (?N) */
};

#define EV_QFILTER_INIT { EV_BUF_INIT, NULL, 1 }

/* Compile the filters object (not NULL) into f (EV_QFILTER_INIT, or
 * released), its values numbered from parameter `first` on.  An unknown
 * key or a value of the wrong shape is bad input.  Returns 0, or -1 with
 * *err set (code 2 naming `where`; 1 out of memory). */
int ev_qfilter_build(struct ev_qfilter *f, const json_t *filters, int first, const char *where,
	struct ev_err *err);

/* Bind f's values to s, a statement prepared with f's conditions.  Returns
 * 0, or -1 with *err set (code 1, naming st). */
int ev_qfilter_bind(const struct ev_qfilter *f, struct ev_store *st, sqlite3_stmt *s,
	struct ev_err *err);

/* The rowids of the chunks the filters object allows, rising, into *ids
 * (malloc'd: the caller frees it) and *n: a lane that cannot filter inside
 * its search (the vector lane: vindex.h's ev_vindex_search_among()).
 * Returns 0, or -1 with *err set as ev_qfilter_build() does (code 1 for a
 * database failure), *ids NULL and *n 0. */
int ev_qfilter_rowids(struct ev_store *st, const json_t *filters, const char *where, int64_t **ids,
	size_t *n, struct ev_err *err);

/* The documents the filters object allows, as a new object whose keys are
 * their doc_ids (each true): a lane whose records name a document but are
 * not the store's chunks (the multi-vector lane, mvsearch.h).  A filter of
 * chunks is one of their document (doc_id, doc_ids), so the grammar is the
 * same.  Returns NULL with *err set as ev_qfilter_rowids() does. */
json_t *ev_qfilter_doc_ids(struct ev_store *st, const json_t *filters, const char *where,
	struct ev_err *err);

/* Free f's memory and return it to EV_QFILTER_INIT (NULL-safe). */
void ev_qfilter_release(struct ev_qfilter *f);

#endif
