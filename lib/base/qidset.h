/* qidset.h: the query ids of one input, so that a query whose id an earlier
 * query of the input took is bad input.
 *
 * Low layer: includes jsonl.h and strmap.h.
 *
 * Every stage after a search stage merges hits by their query_id: two
 * queries of one id would be fused, reranked and packed as one, their hits
 * interleaved, with no word said.  So a search stage refuses the second
 * (exit 2, naming its line and the line of the first).  An id is compared
 * as its text (ev_json_id_buf()): 7 and "7" are one id, as they are to the
 * stages that merge. */
#ifndef EV_QIDSET_H
#define EV_QIDSET_H

#include <stddef.h>

#include "jsonl.h"
#include "strmap.h"

struct ev_qidset {
	struct ev_strmap ids;	/* the ids seen, numbered in order */
	size_t *line;		/* per id: the line of its query */
	size_t capline;
	struct ev_buf text;	/* an id as text (scratch) */
};

#define EV_QIDSET_INIT { EV_STRMAP_INIT, NULL, 0, EV_BUF_INIT }

/* Take id, the query_id of the query read at line lineno of the input
 * (where names that line): a string or an integer, or NULL or JSON null
 * for a query without one, whose id is lineno.  Returns 0, or -1 with *err
 * set: code 2 when an earlier line gave that id, or id is of another type
 * (the set then as it was), code 1 out of memory. */
int ev_qidset_add(struct ev_qidset *s, const json_t *id, size_t lineno, const char *where,
	struct ev_err *err);

/* Forget the id added last, when its query turned out bad after all (a
 * stage skipping bad queries): its id is free again. */
void ev_qidset_drop_last(struct ev_qidset *s);

/* Free the memory and return to EV_QIDSET_INIT (NULL-safe). */
void ev_qidset_release(struct ev_qidset *s);

#endif
