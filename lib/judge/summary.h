/* summary.h: the four axes of a score (faithfulness, coverage, redundancy,
 * overall), the gates on them, and their distribution over a run: what
 * ev-score's gates and --summary report.
 *
 * Layer 3: includes err.h and Jansson; writes with jsonl.h.  A gate is a
 * lower bound on an axis, except redundancy's, an upper bound.  Quantiles
 * are linear between the closest ranks (numpy's default). */
#ifndef EV_SUMMARY_H
#define EV_SUMMARY_H

#include <stdio.h>
#include <jansson.h>

#include "err.h"

/* The axes, in output order. */
enum { EV_AX_FAITH, EV_AX_COVERAGE, EV_AX_REDUNDANCY, EV_AX_OVERALL, EV_NAXES };

/* "faithfulness", "coverage", "redundancy", "overall". */
extern const char *const ev_axis_name[EV_NAXES];

/* How many failing items' ids a gate keeps for the summary. */
#define EV_SUMMARY_IDS 10

struct ev_gates {
	int set[EV_NAXES];
	double bound[EV_NAXES];	/* a minimum, except redundancy's maximum */
	long long below[EV_NAXES];	/* items that failed each gate */
	json_t *ids[EV_NAXES];	/* the first EV_SUMMARY_IDS of their ids (arrays, or NULL) */
	long long failed_items;	/* items that failed any gate */
};

/* Which gates axes[] fails: failed[a] is 1 or 0.  Returns 1 when any. */
int ev_gates_check(const struct ev_gates *g, const double *axes, int *failed);

/* Count an item that failed the gates failed[] (ev_gates_check()) and keep
 * its id (borrowed) among each gate's first EV_SUMMARY_IDS.  Returns 0, or
 * -1 with *err set (out of memory). */
int ev_gates_count(struct ev_gates *g, const int *failed, json_t *id, struct ev_err *err);

/* What an item failed, into buf: "faithfulness 0.25 < 0.5, redundancy 0.9
 * > 0.8".  Returns buf. */
const char *ev_gates_text(const struct ev_gates *g, const double *axes, const int *failed,
	char *buf, size_t size);

/* Free the ids kept. */
void ev_gates_release(struct ev_gates *g);

/* Every item's axes, in the order added (32 bytes an item). */
struct ev_summary {
	double *v;
	size_t n, cap;
};

#define EV_SUMMARY_INIT { NULL, 0, 0 }

/* Add an item's axes.  Returns 0, or -1 with *err set (out of memory). */
int ev_summary_add(struct ev_summary *s, const double *axes, struct ev_err *err);

/* The q-quantile (0 to 1) of sorted v[0..n), linear between the closest
 * ranks; 0 when n is 0. */
double ev_quantile(const double *v, size_t n, double q);

/* The summary as a table on fp, each line but the table's starting with
 * prefix ("ev-score: "): items, then per axis its mean, p10, p50, p90, gate
 * and items failed ("-" for the figures of no item), then a line per
 * failed gate naming its first items.  Returns 0, or -1 with *err set. */
int ev_summary_text(FILE *fp, const char *prefix, const struct ev_summary *s,
	const struct ev_gates *g, struct ev_err *err);

/* The summary as one JSON line on fp: {"summary": {"items", AXIS: {"mean",
 * "p10", "p50", "p90", "min" or "max", "failed", "failed_ids"}, ...,
 * "gates": {"failed_items"}}} (a gate's keys only when it is set; the
 * figures of no item are null).  Returns 0, or -1 with *err set. */
int ev_summary_json(FILE *fp, const struct ev_summary *s, const struct ev_gates *g,
	struct ev_err *err);

/* Free the axes kept. */
void ev_summary_release(struct ev_summary *s);

#endif
