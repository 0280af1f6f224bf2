/* route.h: which lanes a query goes to -- by a field of the query record
 * (a UI's tab), by cue words or patterns in its text, or to the default
 * lanes -- and a lane gated on the confidence of another lane's answer.
 *
 * A retrieval plan's "routing" section:
 *
 *	routing:
 *	  default: [text, vector]        lanes when nothing else decides
 *	  field: tab                     a query field whose value picks ...
 *	  values:                        ... the lanes through this mapping
 *	    maps: [visual]
 *	  rules:                         the first rule that matches decides
 *	    - lanes: [visual]
 *	      cues: [map, diagram, table]      whole words or phrases, any case
 *	    - lanes: [structured, text]
 *	      pattern: "criterion [0-9.]+"     POSIX extended regex, any case
 *	  gate:                          run or merge `lane` only when the
 *	    lane: vector                 confidence of `on`'s answer is below
 *	    on: text                     `below`
 *	    below: 0.3
 *	    mode: run                    run: the gated lane runs only then;
 *	                                 merge: it runs for every query routed
 *	                                 to it, and its hits are merged only then
 *
 * The confidence of a lane's answer to a query is the margin of its top
 * score over the second, relative to the top: (s1 - s2) / |s1|, clamped to
 * [0, 1]; 1 for a single hit, 0 for none (an unanswered query always runs
 * the gated lane).  Layer 3; includes err.h and Jansson. */
#ifndef EV_ROUTE_H
#define EV_ROUTE_H

#include <jansson.h>

#include "err.h"

struct ev_router;

/* Build a router from a plan's "routing" section (NULL or absent keys: every
 * query to `fallback`, a NULL-terminated list of lanes).  Returns it, or
 * NULL with *err set (code 2 naming file and key for a section of the wrong
 * shape, an empty lane list, a lane name that is not 1 to 32 letters,
 * digits, '_' or '-', or a pattern that does not compile). */
struct ev_router *ev_router_new(const json_t *routing, const char *const *fallback,
	const char *file, struct ev_err *err);

/* Route query record q (an object with "query"): set its "lanes" (an array
 * of lane names) and "routing" ({"by": "field"|"rule"|"default", and
 * "field", "value", "rule" (its index from 0), "matched" as they apply}).
 * Returns 0, or -1 with *err set (code 2 naming where for a routing field
 * that is not a string). */
int ev_router_route(const struct ev_router *r, json_t *q, const char *where,
	struct ev_err *err);

/* Refuse (code 2, naming file) a router whose routing or gate names a lane
 * that is not in known (a NULL-terminated list: the lanes a pipeline can
 * run).  Returns 0 or -1 with *err set. */
int ev_router_check_lanes(const struct ev_router *r, const char *const *known,
	const char *file, struct ev_err *err);

/* The gate of the plan, or NULL lane when there is none. */
struct ev_gate {
	const char *lane;	/* the gated lane */
	const char *on;		/* the lane whose confidence decides */
	double below;		/* the gated lane runs below this confidence */
	int merge;		/* mode merge (1) or run (0) */
};
void ev_router_gate(const struct ev_router *r, struct ev_gate *out);

/* The confidence of an answer whose two best scores are s1 and s2 (n: how
 * many hits, 0, 1 or more; s2 is used only when n >= 2). */
double ev_route_confidence(long n, double s1, double s2);

/* Apply the gate to routed query record q, whose `on` lane found nhits hits
 * with confidence c: record routing.gate {"lane", "on", "mode", "hits":
 * nhits, "confidence": c (4 decimals), "below", "decision"} and, when c >=
 * below, take the gated lane out of q's "lanes".  The decision is "run" or
 * "skip" (mode run), "merge" or "drop" (mode merge), or "not routed" when q
 * was not routed to the gated lane.  Without a gate, q is left as it is.
 * Returns 0, or -1 (out of memory) with *err set. */
int ev_router_apply_gate(const struct ev_router *r, json_t *q, long nhits, double c,
	struct ev_err *err);

/* Free the router (NULL is fine). */
void ev_router_free(struct ev_router *r);

#endif
