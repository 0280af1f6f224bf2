/* qfilter.h: a query record's "filters" (ev-search-text(1) "Filters"), as
 * SQL conditions over a chunk and its document, with the values to bind.
 *
 * Low layer: includes buf.h, err.h, store.h, SQLite and Jansson.  Knows
 * nothing of a lane: a lane joins `chunks fc` and `documents fd ON
 * fd.doc_id = fc.doc_id`, appends the conditions to its WHERE clause and
 * binds their values. */
#ifndef EV_QFILTER_H
#define EV_QFILTER_H

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
int ev_qfilter_build(struct ev_qfilter *f, json_t *filters, int first, const char *where,
	struct ev_err *err);

/* Bind f's values to s, a statement prepared with f's conditions.  Returns
 * 0, or -1 with *err set (code 1, naming st). */
int ev_qfilter_bind(const struct ev_qfilter *f, struct ev_store *st, sqlite3_stmt *s,
	struct ev_err *err);

/* Free f's memory and return it to EV_QFILTER_INIT (NULL-safe). */
void ev_qfilter_release(struct ev_qfilter *f);

#endif
