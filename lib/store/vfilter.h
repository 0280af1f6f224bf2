/* vfilter.h: the chunks of the store a vector query's "filters" object
 * allows, for ev_vindex_search_among() (vindex.h).
 *
 * Middle layer: includes err.h, store.h and Jansson. */
#ifndef EV_VFILTER_H
#define EV_VFILTER_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "err.h"
#include "store.h"

/* The sorted rowids of the chunks a query's "filters" object allows:
 *   "doc_id": "D" or "doc_ids": ["D", ...]  the chunk's document,
 *   "metadata": {"key": scalar, ...}        equality on documents.metadata,
 *   "published_date": {"from": "...", "to": "..."}  inclusive text range.
 * Any other key, or a value of the wrong type, is refused (code 2, where).
 * Returns 0 with *ids (malloc'd; the caller frees) and *n set, or -1. */
int ev_vindex_filter_ids(struct ev_store *st, const json_t *filters, const char *where,
	int64_t **ids, size_t *n, struct ev_err *err);

#endif
