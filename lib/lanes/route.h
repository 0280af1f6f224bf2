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
 * the gated lane).
 *
 * A gate over several lanes weighs every lane's own confidence, as a plan's
 * retrieval policy may ask ("merge only if neither lane clears confidence"):
 *
 *	  gate:
 *	    lanes: [text, vector]        each one's answer is weighed
 *	    below: {text: 0.5, vector: 0.3}   or one number for every lane
 *	    measure: margin10            or {LANE: MEASURE}; default margin10
 *	    mode: merge                  or run
 *	  high_stakes:                   a query that never loses a lane
 *	    field: stakes                (the default)
 *	    values: [high]               (the default)
 *
 * Measures (ev_route_measure()), from a lane's falling scores s1, s2, ...:
 * margin (above), margin10 ((s1 - s10) / |s1|, the tenth or the last score;
 * 1 for one hit), top (s1), top_mean10 (s1 over the mean of the first ten;
 * 0 when that is not positive).  A lane clears when its confidence is at
 * least its below.  When none of the query's gated lanes clears, they are
 * all merged (mode merge) or all run (mode run); when some do, the one
 * clearing by the most (its confidence minus its below; the first listed on
 * a tie) is kept and the others are taken out of "lanes": not merged, or,
 * in mode run, not run when they have not run yet (a lane whose hits were
 * not read has no confidence).  A high-stakes query (routing.high_stakes:
 * its field equal to one of the values) keeps every lane, either gate.
 * Layer 3; includes err.h and Jansson. */
#ifndef EV_ROUTE_H
#define EV_ROUTE_H

#include <jansson.h>

#include "err.h"

struct ev_router;

/* Build a router from a plan's "routing" section (NULL or absent keys: every
 * query to `fallback`, a NULL-terminated list of lanes: --default's).
 * Returns it, or NULL with *err set (code 2 naming file and key for a
 * section of the wrong shape, an empty lane list or one that names a lane
 * twice, a lane name, of the plan or of fallback when it is used, that is
 * not 1 to 31 letters, digits, '_' or '-', or a pattern that does not
 * compile). */
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

#define EV_GATE_LANES 8	/* lanes of a gate over several lanes, at most */

/* Confidence measures (route.h above). */
enum ev_route_measure { EV_CONF_MARGIN, EV_CONF_MARGIN10, EV_CONF_TOP, EV_CONF_TOP_MEAN10 };

/* The gate of the plan: NULL lane and 0 nlanes when there is none. */
struct ev_gate {
	const char *lane;	/* the gated lane (gate on another lane's confidence) */
	const char *on;		/* the lane whose confidence decides */
	double below;		/* the gated lane runs below this confidence */
	int merge;		/* mode merge (1) or run (0) */
	int nlanes;		/* a gate over several lanes: how many, else 0 */
	const char *lanes[EV_GATE_LANES];	/* and which */
};
void ev_router_gate(const struct ev_router *r, struct ev_gate *out);

/* The confidence of an answer whose two best scores are s1 and s2 (n: how
 * many hits, 0, 1 or more; s2 is used only when n >= 2). */
double ev_route_confidence(long n, double s1, double s2);

/* The confidence by measure m (enum ev_route_measure) of an answer of n
 * hits whose best scores, falling, are top[0..ntop) (ntop = min(n, 10)). */
double ev_route_measure(int m, const double *top, int ntop, long n);

/* Read a lane's hits from path: each query's count and ten best scores, as
 * {QUERY_ID: [n, s1, s2, ..., s10]} (scores falling).  Returns it, or NULL
 * with *err set (code 2 naming FILE:LINE for a bad hit). */
json_t *ev_route_read_answers(const char *path, struct ev_err *err);

/* Apply the gate over several lanes to routed query record q, given
 * answers: {LANE: [n, s1, ...]} for each gated lane whose hits were read
 * (a lane read without hits for q: [0]).  Records routing.gate {"lanes",
 * "mode", "measure", "below", "confidence": {LANE: c or null}, "decision":
 * "merge" | "run" | "keep" | "high stakes" | "not routed", and "kept": LANE
 * for "keep"}, and takes the lanes not kept out of q's "lanes" (route.h
 * above).  "not routed": q is routed to fewer than two of the lanes.
 * Returns 0, or -1 (out of memory) with *err set. */
int ev_router_apply_lanes_gate(const struct ev_router *r, json_t *q, const json_t *answers,
	struct ev_err *err);

/* Apply the gate to routed query record q, whose `on` lane found nhits hits
 * with confidence c: record routing.gate {"lane", "on", "mode", "hits":
 * nhits, "confidence": c (4 decimals), "below", "decision"} and, when c >=
 * below, take the gated lane out of q's "lanes".  The decision is "run" or
 * "skip" (mode run), "merge" or "drop" (mode merge), "not routed" when q
 * was not routed to the gated lane, or "high stakes" (the lane stays) for a
 * high-stakes query.  Without a gate, q is left as it is.
 * Returns 0, or -1 (out of memory) with *err set. */
int ev_router_apply_gate(const struct ev_router *r, json_t *q, long nhits, double c,
	struct ev_err *err);

/* Gate routed query record q by the answers of the gated lanes read with
 * ev_route_read_answers(): answers[i] is lane lanes[i]'s, n of them.  With
 * the plan's gate on one lane's confidence, answers[0] is the `on` lane's and
 * its margin decides (ev_router_apply_gate()); with a gate over several
 * lanes, each lane's answer for q goes to ev_router_apply_lanes_gate() ([0]
 * for a lane without hits for q).  q is left as it is when n is 0 or q was
 * gated already (it holds routing.gate).  Returns 0, or -1 (out of memory)
 * with *err set. */
int ev_router_gate_answers(const struct ev_router *r, json_t *q, const char *const *lanes,
	json_t *const *answers, int n, struct ev_err *err);

/* Free the router (NULL is fine). */
void ev_router_free(struct ev_router *r);

#endif
