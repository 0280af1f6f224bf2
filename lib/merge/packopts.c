/* packopts.c: the packer's options, from the plan.  See packopts.h. */
#include "packopts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

void
ev_pack_opts_init(struct ev_pack_opts *o)
{
	memset(o, 0, sizeof *o);
	o->k = EV_PLAN_DEFAULT(EV_PLAN_K);
	o->min_score = EV_PLAN_DEFAULT(EV_PLAN_MIN_SCORE);
	o->by_document = EV_PLAN_DEFAULT(EV_PLAN_BY_DOCUMENT);
	o->near_duplicates = EV_PLAN_DEFAULT(EV_PLAN_NEAR_DUPLICATES);
	o->overlap = EV_PLAN_DEFAULT(EV_PLAN_OVERLAP);
	o->max_snippet_chars = EV_PLAN_DEFAULT(EV_PLAN_MAX_SNIPPET_CHARS);
	o->snippet_policy = EV_PLAN_DEFAULT(EV_PLAN_SNIPPET_POLICY);
	o->mmr_lambda = EV_PLAN_DEFAULT(EV_PLAN_MMR_LAMBDA);
	o->mmr_depth = EV_PLAN_DEFAULT(EV_PLAN_MMR_DEPTH);
	o->group_by = EV_PLAN_DEFAULT(EV_PLAN_GROUP_BY);
}

struct ignored_ctx {
	json_t *arr;
	int bad;		/* sticky: an append failed (out of memory) */
};

static void
add_ignored(const char *path, void *ctx)
{
	struct ignored_ctx *c = ctx;
	char msg[512];

	snprintf(msg, sizeof msg, "%s not supported", path);
	if (json_array_append_new(c->arr, json_string(msg)) == -1)
		c->bad = 1;
}

int
ev_pack_opts_from_plan(struct ev_pack_opts *o, const json_t *plan, const char *file,
    json_t *ignored, int (*keep)(const void *value), struct ev_err *err)
{
	static const char *const stages[] = { "ev-pack", NULL };
	const struct ev_plan_field fields[] = {
		EV_PLAN_CHECKED(EV_PLAN_VERSION),
		EV_PLAN_CHECKED(EV_PLAN_PLAN_ID),	/* the command's: the pack's plan_id */
		EV_PLAN_CHECKED(EV_PLAN_OUTPUT_FORMAT),	/* the command's: how packs are written */
		/* the command's: compared with the hits' reranker (packexplain.c) */
		EV_PLAN_CHECKED(EV_PLAN_RERANK_MODEL),
		EV_PLAN_FIELD(EV_PLAN_K, &o->k),
		EV_PLAN_FIELD(EV_PLAN_MIN_SCORE, &o->min_score),
		EV_PLAN_FIELD(EV_PLAN_BY_DOCUMENT, &o->by_document),
		EV_PLAN_FIELD(EV_PLAN_NEAR_DUPLICATES, &o->near_duplicates),
		EV_PLAN_FIELD(EV_PLAN_OVERLAP, &o->overlap),
		EV_PLAN_FIELD(EV_PLAN_MMR_LAMBDA, &o->mmr_lambda),
		EV_PLAN_FIELD(EV_PLAN_MMR_DEPTH, &o->mmr_depth),
		EV_PLAN_FIELD(EV_PLAN_GROUP_BY, &o->group_by),
		EV_PLAN_FIELD(EV_PLAN_MAX_SNIPPET_CHARS, &o->max_snippet_chars),
		EV_PLAN_FIELD(EV_PLAN_SNIPPET_POLICY, &o->snippet_policy),
	};
	const char *name;
	json_t *v;
	char path[256];
	long long k;

	if (plan == NULL)
		return 0;
	/* a section given as a single value ("diversity: 3") is refused, as
	 * --config refuses it, not taken for an unknown key and passed over */
	if (ev_config_check_shape(plan, ev_plan_keys, file, err) == -1)
		return -1;
	if (ignored != NULL) {
		struct ignored_ctx c = { ignored, 0 };
		ev_config_unknown(plan, ev_plan_known_keys, add_ignored, &c);
		if (c.bad)
			return ev_err_nomem(err);
	}
	if (ev_plan_read_stages(plan, file, stages, fields, sizeof fields / sizeof fields[0], keep,
	    err) == -1)
		return -1;
	o->has_min_score = !isnan(o->min_score);
	/* the lanes' depth, read by scripts/ev-hybrid: checked here, once */
	json_object_foreach(json_object_get(plan, "lanes"), name, v) {
		snprintf(path, sizeof path, "lanes.%s.k", name);
		if (json_is_object(v) &&
		    ev_config_int(plan, path, 1, EV_PLAN_MAX_K, &k, file, err) == -1)
			return -1;
	}
	return 0;
}

int
ev_pack_group_index(const char *word)
{
	return ev_plan_word_index(EV_PACK_GROUPS, word);
}
