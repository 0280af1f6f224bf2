/* gather.h: the hits of routed queries, gathered lane by lane in the queries'
 * order (ev-route --hits).
 *
 * Each source is one lane's file of hit records, grouped by query in the
 * order of the routed queries ("[!]LANE=FILE": the hits of the queries routed
 * to LANE, or with '!' of those not routed to it).  For each routed query
 * record in turn, ev_gather_query() writes each source's run of hits of that
 * query when the query's "lanes" says so, and passes over them otherwise; a
 * source left with hits at the end has hits of a query not among them, or out
 * of their order, which ev_gather_end() reports.  Includes jsonl.h. */
#ifndef EV_GATHER_H
#define EV_GATHER_H

#include <stdio.h>

#include "jsonl.h"

#define EV_GATHER_MAX	16	/* sources at most */

/* A source: one lane's hits, read one line ahead. */
struct ev_gather_src {
	char *lane;		/* the lane, without '!' */
	int negate;		/* "!LANE": the queries NOT routed to LANE */
	char *path;
	struct ev_jsonl *in;
	const char *line;	/* the line read ahead (valid until the next read), or NULL */
	size_t len;
	struct ev_buf qid;	/* its query id, of any length */
};

/* The sources; zero-initialised is empty. */
struct ev_gather {
	struct ev_gather_src src[EV_GATHER_MAX];
	int n;
};

/* Add the source of spec, "[!]LANE=FILE" (not opened yet).  Returns 0; -1
 * when spec is not of that form or LANE is not a lane's name
 * (ev_plan_lane_name_ok()), -2 when g holds EV_GATHER_MAX sources, -3 when
 * out of memory. */
int ev_gather_add(struct ev_gather *g, const char *spec);

/* Standard input can be read once: refuse a run of which two inputs name it
 * ("-"), among g's sources, the gated lanes' hits gates[0..ngates) (of the
 * lanes gate_lanes[0..ngates), NULL where none was given) and the query
 * records, read from ops[0..nops) (none: standard input).  Returns 0, or -1
 * with *err set (code 2, the message naming both as they were given:
 * "--hits LANE=-", "--gate-hits LANE=-"). */
int ev_gather_stdin_once(const struct ev_gather *g, char *const *gate_lanes, char *const *gates,
	int ngates,
	char *const *ops, int nops, struct ev_err *err);

/* Open every source and read its first hit.  Returns 0, or -1 with *err set
 * (a file that cannot be opened; a bad first hit, code 2). */
int ev_gather_open(struct ev_gather *g, struct ev_err *err);

/* Routed query record q (read at where): write to out each source's run of
 * hits of q's query id, where q is routed to its lane (or, for !LANE, is not),
 * and pass over the others; add the hits written to *written.  Returns 0, or
 * -1 with *err set: code 2 for a q without "lanes" or a bad "query_id", or a
 * bad hit; code 1 when out cannot be written. */
int ev_gather_query(struct ev_gather *g, const json_t *q, const char *where, FILE *out,
	long long *written, struct ev_err *err);

/* At the end of the routed queries: 0, or -1 with *err set (code 2, naming
 * the file) when a source has hits left. */
int ev_gather_end(const struct ev_gather *g, struct ev_err *err);

/* Close and free the sources; g is empty again. */
void ev_gather_close(struct ev_gather *g);

/* Whether query record q's "lanes" holds lane. */
int ev_routed_to(const json_t *q, const char *lane);

/* Check routed query record q (read at where): its "lanes" is a list of lane
 * names (strings, each by the rule of ev_plan_lane_name_ok()).  Returns 0,
 * or -1 with *err set (code 2 naming where). */
int ev_routed_check(const json_t *q, const char *where, struct ev_err *err);

#endif
