/* packopts.h: the options of the EvidencePack's presentation (pack.h), as
 * the command's flags and the retrieval plan set them.
 *
 * Includes plan.h (each option's entry in the plan schema) and Jansson. */
#ifndef EV_PACKOPTS_H
#define EV_PACKOPTS_H

#include <jansson.h>

#include "err.h"
#include "plan.h"

struct ev_pack_opts {
	long long k;		/* evidences per pack; 0 keeps all (default 10) */
	double min_score;	/* drop hits scoring below; used when has_min_score */
	int has_min_score;
	long long by_document;	/* at most this many evidences per document; 0: no limit */
	int near_duplicates;	/* drop near-duplicates (default 1) */
	double overlap;		/* word-set Jaccard at or above which texts are near-duplicates */
	long long max_snippet_chars;	/* characters (not bytes) per snippet (default 500) */
	double mmr_lambda;	/* maximal marginal relevance: the weight of relevance
				 * against novelty, 0 to 1; 1 (default) keeps the order */
	long long mmr_depth;	/* the candidates MMR chooses among (default 50) */
	int group_by;		/* EV_PACK_GROUP_* (default none) */
	int snippet_policy;	/* EV_PACK_SNIPPET_* (default auto) */
};

/* What an item's snippet holds (opts.snippet_policy), in the order of the
 * words naming them: the chunk's whole text (l2), the passage around the
 * query's words the lanes cut (l1), the one sentence of that passage holding
 * most of them (l0), or the lanes' passage as it came (auto). */
enum { EV_PACK_SNIPPET_L2, EV_PACK_SNIPPET_L1, EV_PACK_SNIPPET_L0, EV_PACK_SNIPPET_AUTO };
#define EV_PACK_SNIPPET_POLICIES EV_PLAN_WORDS(EV_PLAN_SNIPPET_POLICY)	/* "l2|l1|l0|auto" */

/* What evidences are grouped by (opts.group_by), and the words naming them. */
enum { EV_PACK_GROUP_NONE, EV_PACK_GROUP_LANE, EV_PACK_GROUP_MODALITY };
#define EV_PACK_GROUPS EV_PLAN_WORDS(EV_PLAN_GROUP_BY)	/* "none|lane|modality" */

/* The EV_PACK_GROUP_* that word names ("none", "lane", "modality"), or -1. */
int ev_pack_group_index(const char *word);

/* Fill *o with the defaults, the plan schema's (plan.h): k 10, no minimum
 * score, 3 per document, near-duplicates dropped at overlap 0.9, snippets of
 * 500 characters as the lanes cut them (auto), no MMR (lambda 1, depth
 * 50), no groups. */
void ev_pack_opts_init(struct ev_pack_opts *o);

/* Read the options a retrieval plan sets: every key of the plan schema
 * (plan.h) that ev-pack owns, each checked against its entry (k, min_score,
 * diversity.by_document, diversity.near_duplicates, diversity.overlap,
 * diversity.mmr_lambda, diversity.mmr_depth, group_by,
 * output.max_snippet_chars, output.snippet_policy into *o; version, plan_id and output.format
 * checked only, the command reads them), except those whose
 * field keep(field) says to keep (the command's flags; keep NULL: none);
 * check that each lanes.NAME.k (the hits lane NAME returns) is a count from
 * 1 to EV_PLAN_MAX_K; and append to ignored (an array, or NULL) one string
 * "KEY not supported" for every plan key the schema does not know.  file
 * names the plan in messages.  Returns 0, or -1 with *err set (code 2) for a
 * value of the wrong type or out of range, or a section of the schema
 * ("diversity", "lanes.text") that is not a mapping. */
int ev_pack_opts_from_plan(struct ev_pack_opts *o, const json_t *plan, const char *file,
	json_t *ignored, int (*keep)(const void *value), struct ev_err *err);

#endif
