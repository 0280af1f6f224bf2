/* fuserank.h: fusing the candidates of one query (fuse.h's methods and
 * normalisations), for fusewrite.c; private to the fuse modules.
 *
 * Includes fuseint.h. */
#ifndef EV_FUSERANK_H
#define EV_FUSERANK_H

#include "fuseint.h"

/* Grouping by document: each lane ranks the documents by their best chunk,
 * 1, 2, 3 ...  Returns 0, or -1 with *err set when out of memory. */
int ev_fuse_rerank_docs(struct ev_fuse *f, struct ev_err *err);

/* Each lane's maximum, minimum, mean, deviation and floor over the
 * candidates it found, for normalisation norm. */
void ev_fuse_lane_stats(struct ev_fuse *f, enum ev_fuse_norm norm);

/* Each lane's weight for this query: adapted by agreement (fuse.h,
 * ev_fuse_opts.adapt), and 0 for the feedback lane (EV_FUSE_FEEDBACK_LANE)
 * when the text lane read the query as a document.  ix has room for every
 * candidate.  Returns 0, or -1 when out of memory. */
int ev_fuse_adapt_weights(struct ev_fuse *f, size_t *ix);

/* Each candidate's normalised scores, contributions and fused score. */
void ev_fuse_score_cands(struct ev_fuse *f, enum ev_fuse_norm norm);

/* Sort the candidate indexes a[0..n) best first (a merge sort; t has room
 * for n). */
void ev_fuse_sort_cands(const struct cand *c, size_t *a, size_t *t, size_t n);

/* Lanes in priority order (vector, text, region, timeline, the rest as they
 * came), into ord[0..f->nlanes). */
void ev_fuse_lane_order(const struct ev_fuse *f, int *ord);

#endif
