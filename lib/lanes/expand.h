/* expand.h: bounded expansion of a query's hits through the store -- the
 * chunks next to a hit in its document, the documents nearest to it in time,
 * and the documents it links to.
 *
 * Each added hit says why it is there: evidence {"lane": "neighbour",
 * "from": HIT_ID, "distance": CHUNKS}, {"lane": "timeline", "from", "distance":
 * DAYS}, or {"lane": "link", "from", "hops": N}.  It scores below the hit that
 * brought it (that hit's score times decay^distance, where distance counts
 * chunks, places in time order, or hops); a chunk that was also found
 * directly keeps its own score and gains the expansion's evidence beside its
 * own.  Links are Markdown links between ingested documents ("[text](path)",
 * with a title or not, the path in angle brackets or not;
 * resolved against the linking document's id as a path) and the document
 * ids listed in a document's metadata "links".  Layer 6; includes store.h,
 * plan.h (the defaults), buf.h and Jansson. */
#ifndef EV_EXPAND_H
#define EV_EXPAND_H

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "plan.h"
#include "store.h"

struct ev_expand_opts {
	long from;		/* expand the best `from` hits of a query */
	long neighbours;	/* chunks on each side of a hit */
	long timeline;		/* documents nearest in time to each expanded hit */
	long hops;		/* link hops followed from each expanded hit */
	long per_hit;		/* hits one hit may add at most */
	long per_query;		/* hits a query may gain at most */
	double decay;		/* score factor per unit of distance, in (0, 1) */
};

#define EV_EXPAND_OPTS_INIT { .from = EV_PLAN_DEFAULT(EV_PLAN_EXPAND_FROM), \
	.neighbours = EV_PLAN_DEFAULT(EV_PLAN_EXPAND_NEIGHBOURS), \
	.timeline = EV_PLAN_DEFAULT(EV_PLAN_EXPAND_TIMELINE), \
	.hops = EV_PLAN_DEFAULT(EV_PLAN_EXPAND_HOPS), \
	.per_hit = EV_PLAN_DEFAULT(EV_PLAN_EXPAND_PER_HIT), \
	.per_query = EV_PLAN_DEFAULT(EV_PLAN_EXPAND_PER_QUERY), \
	.decay = EV_PLAN_DEFAULT(EV_PLAN_EXPAND_DECAY) }

/* Expand the hits of one query (hits: an array of hit records of one
 * query_id, in rank order, each with "id" and "score") and append the
 * query's hits, old and new, to out as JSON Lines in the new rank order
 * (score descending; ties: the old hits' order, then the order added).
 * Returns the number of hits added, or -1 with *err set (code 2 naming where
 * for a hit without a string id or a numeric score; code 1 for the store). */
long ev_expand_query(struct ev_store *st, const struct ev_expand_opts *o, json_t *hits,
	struct ev_buf *out, const char *where, struct ev_err *err);

/* The target of a Markdown link, resolved against the id of the document
 * that holds it, into buf: "../b.md#x" from "docs/a.md" is "b.md".  Returns
 * 0, or -1 when the link is not to a local document (a URL, a mail address,
 * a fragment alone, or a path that leaves the base). */
int ev_expand_link_target(const char *from_doc, const char *link, size_t len,
	struct ev_buf *buf);

#endif
