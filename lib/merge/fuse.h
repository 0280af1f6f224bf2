/* fuse.h: fusing the ranked hit lists of several lanes (text, vector, ...)
 * into one list per query, with every fused hit able to explain itself.
 *
 * Middle layer: includes err.h and Jansson (for ev_fuse_add() and
 * ev_fuse_run()); fuse.c reads and writes records as text, with jscan.h's
 * scanner, never building a tree on the command's path.  Knows nothing of
 * the store or of Faiss; it reads hit records (evkit(7)) and writes fused
 * hit records.
 *
 * The rule for a candidate that only some lanes found: a lane that did not
 * return a candidate contributes its floor to the fused score -- 0 for rrf
 * and for the normalisations none, max and minmax, and the lowest z-score
 * the lane gave in this query for zscore -- never a guess of where the
 * candidate would have ranked below the lane's cut-off.  A lane may be given
 * the floor "zero" instead (ev_fuse_opts.floors): what a raw score of 0
 * normalises to, when that is lower -- for a lane whose scores are never
 * negative (BM25), the score of a candidate holding nothing it looks for, so
 * that the candidates it did not return rank below those it did unless the
 * other lanes' evidence outweighs the difference.  Being found by a lane
 * therefore never costs a candidate anything, and a candidate found by one
 * lane only competes with the contribution of that lane alone.  Each fused
 * hit's "explain" says, lane by lane, what it got and why. */
#ifndef EV_FUSE_H
#define EV_FUSE_H

#include <jansson.h>

#include "err.h"
#include "plan.h"

struct ev_buf;

#define EV_FUSE_MAXLANES 16	/* distinct lanes in one query */
#define EV_FUSE_LANE_MAX 31	/* bytes in a lane's name */

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

/* One query's candidates being fused.  Hits are added one by one, then
 * ev_fuse_run() fuses them; ev_fuse_begin() starts the next query, keeping
 * the memory.  Memory is bounded by one query's hits, plus the RRF
 * explanations kept from query to query (the account of a lane finding a
 * candidate at a rank is the same in every query: at most 32 lanes by name,
 * ranks below 1024, a few hundred bytes each). */
struct ev_fuse;

/* A new accumulator using a copy of *o.  Returns NULL with *err when out of
 * memory. */
struct ev_fuse *ev_fuse_new(const struct ev_fuse_opts *o, struct ev_err *err);

/* Forget the hits added so far and start the query whose id (as text) is
 * qid.  Returns 0, or -1 when out of memory. */
int ev_fuse_begin(struct ev_fuse *f, const char *qid, struct ev_err *err);

/* Add one hit record of the current query (written out and copied: the
 * caller keeps its reference).  The hit must have "id" (a non-empty
 * string), "lane" (a string other than "fused"), "rank" (an integer >= 1)
 * and "score" (a number); "signals" an object and "evidence" an array of
 * objects when present; "doc_id" a string, required when grouping by
 * document.  Returns 0, or -1 with *err set (code
 * 2, where = `where`) and the hit not added: for a bad field, or the same id
 * twice in one lane. */
int ev_fuse_add(struct ev_fuse *f, json_t *hit, const char *where, struct ev_err *err);

/* Add the hit record whose JSON text is line[0..len) (no newline), as
 * ev_fuse_add() does, without building a tree: the line is checked by the
 * strict scanner of jscan.h (a bad line gives the message ev_json_parse_line()
 * gives) and copied; its fields are passed through byte for byte.  Returns 0
 * or -1 with *err set (code 2, where = `where`). */
int ev_fuse_add_line(struct ev_fuse *f, const char *line, size_t len, const char *where,
	struct ev_err *err);

/* Whether any query fused so far had hits of lane. */
int ev_fuse_lane_seen(const struct ev_fuse *f, const char *lane);

/* The number of hits added since ev_fuse_begin(). */
long long ev_fuse_count(const struct ev_fuse *f);

/* Fuse the hits added: returns a new array of fused hit records (lane
 * "fused", rank from 1, score, signals of every lane plus "rrf_score" and,
 * for the other methods, "fused_score", evidence joined in
 * ev_fuse_lane_priority() order without duplicates (entries of the same text), the
 * snippet of the lane that contributed most, "explain", and every other
 * field of the lanes' hits passed through), best first, ties broken by the best lane rank, then by
 * id.  (The fused hits ev_fuse_write() writes, read back.)  Returns NULL with
 * *err set when out of memory. */
json_t *ev_fuse_run(struct ev_fuse *f, struct ev_err *err);

/* Fuse the hits added, as ev_fuse_run() does, appending the fused hit
 * records to out as JSON Lines (one line each, best first) and setting *nout
 * to their number.  Fields of the lanes' hits are spliced in as they were
 * read; the numbers fusion computes are written as Jansson writes reals with
 * 10 significant digits.  Returns 0, or -1 with *err set when out of memory. */
int ev_fuse_write(struct ev_fuse *f, struct ev_buf *out, long long *nout, struct ev_err *err);

/* Free f and the hits it holds (NULL-safe). */
void ev_fuse_free(struct ev_fuse *f);

/* Reading hit records grouped by query from several inputs in step.
 *
 * Each input is read as runs of consecutive records with the same query_id.
 * The next query fused is the one at the head of the first input that has
 * records left; every input whose current run is for that query contributes
 * it.  So two lane files grouped by query in the same order are read side by
 * side, and one stream whose lanes come interleaved per query is grouped as
 * it comes.  A query whose hits were already fused coming back later is bad
 * input (exit 2).  Memory is bounded by one query's hits (and the ids of the
 * queries done). */
struct ev_fuse_in;

/* Open paths[0..n-1] ("-" is stdin; n == 0 reads stdin).  Returns NULL with
 * *err set when out of memory or when stdin is named twice. */
struct ev_fuse_in *ev_fuse_in_open(char *const *paths, int n, struct ev_err *err);

/* Add the hits of the next query to f (ev_fuse_begin() is called).  Returns 1
 * when a query is ready to be fused, 0 at the end of every input, or -1 with
 * *err set: code 2 for a bad record, which is dropped (the next call goes on
 * after it, so that a caller offering --skip-invalid just calls again), code
 * 1 for an I/O error. */
int ev_fuse_in_next(struct ev_fuse_in *in, struct ev_fuse *f, struct ev_err *err);

/* Records read so far (good and bad). */
long long ev_fuse_in_records(const struct ev_fuse_in *in);

/* Close every input (NULL-safe). */
void ev_fuse_in_close(struct ev_fuse_in *in);

#endif
