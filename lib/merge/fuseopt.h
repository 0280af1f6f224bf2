/* fuseopt.h: the options of fusion (fuse.h): methods, normalisations,
 * weights, floors and adaptive weights, their names and their parsing.
 *
 * Low layer: includes err.h and plan.h (the defaults of the plan schema). */
#ifndef EV_FUSEOPT_H
#define EV_FUSEOPT_H

#include "err.h"
#include "plan.h"

#define EV_FUSE_MAXLANES 16	/* distinct lanes in one query */
#define EV_FUSE_LANE_MAX 31	/* bytes in a lane's name */
/* The feedback lane (ev-search-vec --feedback-hits), which starts from the
 * text lane's first hits: for a query the text lane read as a document
 * (its hits' signals.query_as_document), it weighs 0, as the text lane then
 * does no feedback of its own. */
#define EV_FUSE_FEEDBACK_LANE "vector_feedback"

enum ev_fuse_method {
	EV_FUSE_RRF,		/* sum of w / (rrf_k + rank) */
	EV_FUSE_WEIGHTED,	/* sum of w * norm(score), default norm max */
	EV_FUSE_COMBSUM,	/* sum of w * norm(score), default norm minmax */
	EV_FUSE_COMBMNZ,	/* combsum times the number of lanes that found it */
	EV_FUSE_MERGE		/* one lane's shards: its hits by score, ties by id, no fusion */
};

enum ev_fuse_norm {
	EV_NORM_DEFAULT,	/* the method's own default */
	EV_NORM_NONE,		/* the raw score */
	EV_NORM_MAX,		/* score / max(lane max, 1) */
	EV_NORM_MINMAX,		/* (score - min) / (max - min); 1 when all equal */
	EV_NORM_ZSCORE		/* (score - mean) / sd; 0 when sd is 0 */
};

enum ev_fuse_group {
	EV_GROUP_CHUNK,		/* one fused hit per chunk id */
	EV_GROUP_DOC		/* one fused hit per doc_id, keeping each chunk's evidence */
};

/* Per-query lane weights (ev_fuse_opts.adapt). */
enum ev_fuse_adapt {
	EV_ADAPT_NONE,		/* the weights as given */
	EV_ADAPT_AGREEMENT	/* each lane but the anchor weighted by its agreement with it */
};

#define EV_FUSE_AGREE_DEPTH EV_PLAN_DEFAULT(EV_PLAN_FUSION_AGREEMENT_DEPTH)	/* 10: the top 10 of each lane are compared */
#define EV_FUSE_AGREE_FULL EV_PLAN_DEFAULT(EV_PLAN_FUSION_AGREEMENT_FULL)	/* 0.6: 6 in 10 shared earn the full weight */

struct ev_fuse_weight {
	char lane[EV_FUSE_LANE_MAX + 1];
	double w;
};

/* What a lane contributes to a candidate it did not return (see above). */
enum ev_fuse_floor {
	EV_FLOOR_NORM,		/* the normalisation's floor */
	EV_FLOOR_ZERO		/* a raw score of 0 normalised, when lower */
};

struct ev_fuse_lane_floor {
	char lane[EV_FUSE_LANE_MAX + 1];
	enum ev_fuse_floor floor;
};

/* A lane whose adaptive weight is measured on another lane's agreement. */
struct ev_fuse_agree_from {
	char lane[EV_FUSE_LANE_MAX + 1];
	char from[EV_FUSE_LANE_MAX + 1];
};

/* Where the lanes' weights came from, said in each fused hit's explain
 * ("weights_from") unless EV_FUSE_FROM_UNSAID. */
enum ev_fuse_weights_from {
	EV_FUSE_FROM_UNSAID,
	EV_FUSE_FROM_PLAN,	/* "plan": the plan or a flag set them */
	EV_FUSE_FROM_STORE,	/* "store": the store's calibration (calibrate.h) */
	EV_FUSE_FROM_DEFAULT	/* "default": the pipeline's defaults */
};

struct ev_fuse_opts {
	enum ev_fuse_method method;
	enum ev_fuse_norm norm;
	enum ev_fuse_group group;
	double rrf_k;		/* > 0; default 60 */
	long long k;		/* keep the first k fused hits of a query; 0 keeps all */
	int explain;		/* add "explain" to each fused hit (default 1) */
	int nweights;
	/* Lanes not named weigh 1.  A lane weighing 0 is read but adds no
	 * candidate of its own: its hits are evidence of the candidates other
	 * lanes found, and its ranking can measure agreement (agree_from). */
	struct ev_fuse_weight weights[EV_FUSE_MAXLANES];
	int nfloors;
	struct ev_fuse_lane_floor floors[EV_FUSE_MAXLANES];	/* lanes not named: norm */
	/* Adaptive weights (EV_ADAPT_AGREEMENT), per query: a lane other than
	 * the anchor lane weighs its weight times min(1, agreement / agree_full),
	 * where agreement is the share of the lane's first agree_depth documents
	 * (doc_id, else id; each counted once, at its best chunk) that are also
	 * among the anchor's first agree_depth (out of the fewer of agree_depth
	 * and the documents of either lane).  Lanes
	 * that agree with the exact lane fuse in full; a lane that finds other
	 * things than the anchor (where a lane is weak, it is mostly so) counts
	 * less, and a lane that shares nothing with it counts nothing.  A query
	 * the anchor lane found nothing for keeps the weights as given. */
	enum ev_fuse_adapt adapt;
	char anchor[EV_FUSE_LANE_MAX + 1];	/* default "text" */
	int agree_depth;	/* >= 1; default EV_FUSE_AGREE_DEPTH */
	double agree_full;	/* in (0, 1]; default EV_FUSE_AGREE_FULL */
	/* A lane named here has its agreement measured on the first documents
	 * of lane `from` instead of its own (when `from` found anything for the
	 * query): for a lane built from the anchor's own hits (a vector search
	 * folded with the text lane's best chunks agrees with the text lane by
	 * construction), the agreement of the lane it refines says whether it
	 * is to be trusted. */
	int nagree_from;
	struct ev_fuse_agree_from agree_from[EV_FUSE_MAXLANES];
	enum ev_fuse_weights_from weights_from;	/* default: unsaid */
};

/* Fill *o with the defaults: rrf, rrf_k 60, method's normalisation, chunks,
 * all hits, explain on, every lane weighing 1, weights not adapted (anchor
 * "text", depth 10, full agreement 0.6 when they are). */
void ev_fuse_opts_init(struct ev_fuse_opts *o);

/* Names <-> values.  The parse functions return 0, or -1 for an unknown name. */
int ev_fuse_method_parse(const char *s, enum ev_fuse_method *out);
const char *ev_fuse_method_name(enum ev_fuse_method m);
int ev_fuse_norm_parse(const char *s, enum ev_fuse_norm *out);
const char *ev_fuse_norm_name(enum ev_fuse_norm n);

/* "none" or "agreement" <-> enum ev_fuse_adapt: 0, or -1 for an unknown name. */
int ev_fuse_adapt_parse(const char *s, enum ev_fuse_adapt *out);
const char *ev_fuse_adapt_name(enum ev_fuse_adapt a);

/* Set the anchor lane of adaptive weights.  Returns 0, or -1 with *err set
 * (code 2) for a bad lane name. */
int ev_fuse_anchor_set(struct ev_fuse_opts *o, const char *lane, struct ev_err *err);

/* The normalisation in effect for o (the method's default resolved): none for
 * rrf (RRF uses ranks), max for weighted, minmax for combsum and combmnz. */
enum ev_fuse_norm ev_fuse_norm_effective(const struct ev_fuse_opts *o);

/* Set the weight of lane to w (a finite number >= 0), replacing an earlier
 * one.  Returns 0, or -1 with *err set (code 2) for a bad lane name or too
 * many lanes. */
int ev_fuse_weight_set(struct ev_fuse_opts *o, const char *lane, double w, struct ev_err *err);

/* Parse "LANE=W" (the --weight option) into o.  Returns 0 or -1 with *err. */
int ev_fuse_weight_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err);

/* The weight of lane (1 when not set). */
double ev_fuse_weight_get(const struct ev_fuse_opts *o, const char *lane);

/* Set the floor of lane, replacing an earlier one.  Returns 0, or -1 with
 * *err set (code 2) for a bad lane name or too many lanes. */
int ev_fuse_floor_set(struct ev_fuse_opts *o, const char *lane, enum ev_fuse_floor floor,
	struct ev_err *err);

/* Parse "LANE=zero" or "LANE=norm" (the --floor option) into o.  Returns 0
 * or -1 with *err set (code 2). */
int ev_fuse_floor_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err);

/* The floor of lane (EV_FLOOR_NORM when not set). */
enum ev_fuse_floor ev_fuse_floor_get(const struct ev_fuse_opts *o, const char *lane);

/* "norm" or "zero" <-> enum ev_fuse_floor: 0, or -1 for an unknown name. */
int ev_fuse_floor_name_parse(const char *s, enum ev_fuse_floor *out);
const char *ev_fuse_floor_name(enum ev_fuse_floor floor);

/* Parse "LANE=FROM" (the --agreement-from option): lane's agreement is
 * measured on lane FROM's documents, replacing an earlier setting of lane.
 * Returns 0, or -1 with *err set (code 2) for a bad lane name or too many
 * lanes. */
int ev_fuse_agree_from_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err);

/* The lane whose agreement lane's weight follows: FROM, or lane itself when
 * not set. */
const char *ev_fuse_agree_from_get(const struct ev_fuse_opts *o, const char *lane);

/* The priority of an evidence lane: vector 0, text 1, region 2,
 * timeline 3, any other 4.  Lower comes first. */
int ev_fuse_lane_priority(const char *lane);

#endif
