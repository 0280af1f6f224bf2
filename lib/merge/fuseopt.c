/* fuseopt.c: the options of fusion.  See fuseopt.h. */
#include "fuseopt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "plan.h"

static const char *const method_names[] = { "rrf", "weighted", "combsum", "combmnz", "merge" };
static const char *const norm_names[] = { "default", "none", "max", "minmax", "zscore" };

void
ev_fuse_opts_init(struct ev_fuse_opts *o)
{
	memset(o, 0, sizeof *o);
	o->method = EV_FUSE_RRF;
	o->norm = EV_NORM_DEFAULT;
	o->group = EV_GROUP_CHUNK;
	o->rrf_k = EV_PLAN_DEFAULT(EV_PLAN_FUSION_RRF_K);
	o->k = 0;
	o->explain = 1;
	o->adapt = EV_ADAPT_NONE;
	memcpy(o->anchor, "text", sizeof "text");
	o->agree_depth = EV_FUSE_AGREE_DEPTH;
	o->agree_full = EV_FUSE_AGREE_FULL;
}

static const char *const adapt_names[] = { "none", "agreement" };

/* The index of s among names[from..n), or -1. */
static int
name_index(const char *const *names, size_t from, size_t n, const char *s)
{
	size_t i;

	for (i = from; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

#define NAMES(a) (sizeof (a) / sizeof (a)[0])

int
ev_fuse_adapt_parse(const char *s, enum ev_fuse_adapt *out)
{
	int i = name_index(adapt_names, 0, NAMES(adapt_names), s);

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_adapt)i;
	return 0;
}

const char *
ev_fuse_adapt_name(enum ev_fuse_adapt a)
{
	return adapt_names[a];
}

int
ev_fuse_method_parse(const char *s, enum ev_fuse_method *out)
{
	int i = name_index(method_names, 0, NAMES(method_names), s);

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_method)i;
	return 0;
}

const char *
ev_fuse_method_name(enum ev_fuse_method m)
{
	return method_names[m];
}

int
ev_fuse_norm_parse(const char *s, enum ev_fuse_norm *out)
{
	int i = name_index(norm_names, 1, NAMES(norm_names), s);	/* not "default" */

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_norm)i;
	return 0;
}

const char *
ev_fuse_norm_name(enum ev_fuse_norm n)
{
	return norm_names[n];
}

enum ev_fuse_norm
ev_fuse_norm_effective(const struct ev_fuse_opts *o)
{
	if (o->method == EV_FUSE_RRF)
		return EV_NORM_NONE;
	if (o->norm != EV_NORM_DEFAULT)
		return o->norm;
	return o->method == EV_FUSE_WEIGHTED ? EV_NORM_MAX : EV_NORM_MINMAX;
}

int
ev_fuse_weight_set(struct ev_fuse_opts *o, const char *lane, double w, struct ev_err *err)
{
	int i;

	if (!ev_plan_lane_name_ok(lane))
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "lane name '%s' must be " EV_PLAN_LANE_RULE, lane);
	if (!isfinite(w) || w < 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "weight of lane '%s' must be a finite number >= 0", lane);
	for (i = 0; i < o->nweights; i++)
		if (strcmp(o->weights[i].lane, lane) == 0) {
			o->weights[i].w = w;
			return 0;
		}
	if (o->nweights == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "more than %d lane weights", EV_FUSE_MAXLANES);
	snprintf(o->weights[o->nweights].lane, sizeof o->weights[0].lane, "%s", lane);
	o->weights[o->nweights++].w = w;
	return 0;
}

int
ev_fuse_anchor_set(struct ev_fuse_opts *o, const char *lane, struct ev_err *err)
{
	if (!ev_plan_lane_name_ok(lane))
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "lane name '%s' must be " EV_PLAN_LANE_RULE, lane);
	snprintf(o->anchor, sizeof o->anchor, "%s", lane);
	return 0;
}

/* Split spec "LANE=VALUE" (the option `what`): the lane into lane (room for
 * EV_FUSE_LANE_MAX + 1 bytes).  Returns VALUE, or NULL with *err set. */
static const char *
split_lane(const char *spec, char *lane, const char *what, const char *form, struct ev_err *err)
{
	const char *eq = strchr(spec, '=');
	size_t n;

	if (eq == NULL) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "%s '%s' must read %s", what, spec, form);
		return NULL;
	}
	n = (size_t)(eq - spec);
	if (n == 0 || n > EV_FUSE_LANE_MAX) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "lane name in %s '%s' must be 1 to %d characters",
		    what, spec, EV_FUSE_LANE_MAX);
		return NULL;
	}
	memcpy(lane, spec, n);
	lane[n] = '\0';
	return eq + 1;
}

int
ev_fuse_weight_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err)
{
	char lane[EV_FUSE_LANE_MAX + 1], *end;
	const char *val = split_lane(spec, lane, "weight", "LANE=W", err);
	double w;

	if (val == NULL)
		return -1;
	w = strtod(val, &end);
	if (ev_config_number_text(val) == 0 || *end != '\0' || !isfinite(w) || w < 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "weight in '%s' must be a finite number >= 0", spec);
	return ev_fuse_weight_set(o, lane, w, err);
}

double
ev_fuse_weight_get(const struct ev_fuse_opts *o, const char *lane)
{
	int i;

	for (i = 0; i < o->nweights; i++)
		if (strcmp(o->weights[i].lane, lane) == 0)
			return o->weights[i].w;
	return 1.0;
}

int
ev_fuse_agree_from_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err)
{
	char lane[EV_FUSE_LANE_MAX + 1];
	const char *from = split_lane(spec, lane, "agreement source", "LANE=FROM", err);
	int i;

	if (from == NULL)
		return -1;
	if (!ev_plan_lane_name_ok(lane) || !ev_plan_lane_name_ok(from))
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "lane names in '%s' must be "
		    EV_PLAN_LANE_RULE, spec);
	for (i = 0; i < o->nagree_from && strcmp(o->agree_from[i].lane, lane) != 0; i++)
		;
	if (i == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "more than %d agreement sources",
		    EV_FUSE_MAXLANES);
	snprintf(o->agree_from[i].lane, sizeof o->agree_from[i].lane, "%s", lane);
	snprintf(o->agree_from[i].from, sizeof o->agree_from[i].from, "%s", from);
	if (i == o->nagree_from)
		o->nagree_from++;
	return 0;
}

const char *
ev_fuse_agree_from_get(const struct ev_fuse_opts *o, const char *lane)
{
	int i;

	for (i = 0; i < o->nagree_from; i++)
		if (strcmp(o->agree_from[i].lane, lane) == 0)
			return o->agree_from[i].from;
	return lane;
}

static const char *const floor_names[] = { "norm", "zero" };

const char *
ev_fuse_floor_name(enum ev_fuse_floor floor)
{
	return floor_names[floor];
}

int
ev_fuse_floor_name_parse(const char *s, enum ev_fuse_floor *out)
{
	int i = name_index(floor_names, 0, NAMES(floor_names), s);

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_floor)i;
	return 0;
}

int
ev_fuse_floor_set(struct ev_fuse_opts *o, const char *lane, enum ev_fuse_floor floor,
    struct ev_err *err)
{
	int i;

	if (!ev_plan_lane_name_ok(lane))
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "lane name '%s' must be " EV_PLAN_LANE_RULE, lane);
	for (i = 0; i < o->nfloors; i++)
		if (strcmp(o->floors[i].lane, lane) == 0) {
			o->floors[i].floor = floor;
			return 0;
		}
	if (o->nfloors == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "more than %d lane floors", EV_FUSE_MAXLANES);
	snprintf(o->floors[o->nfloors].lane, sizeof o->floors[0].lane, "%s", lane);
	o->floors[o->nfloors++].floor = floor;
	return 0;
}

int
ev_fuse_floor_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err)
{
	char lane[EV_FUSE_LANE_MAX + 1];
	const char *val = split_lane(spec, lane, "floor", "LANE=zero or LANE=norm", err);
	enum ev_fuse_floor floor;

	if (val == NULL)
		return -1;
	if (ev_fuse_floor_name_parse(val, &floor) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "floor in '%s' must be zero or norm", spec);
	return ev_fuse_floor_set(o, lane, floor, err);
}

enum ev_fuse_floor
ev_fuse_floor_get(const struct ev_fuse_opts *o, const char *lane)
{
	int i;

	for (i = 0; i < o->nfloors; i++)
		if (strcmp(o->floors[i].lane, lane) == 0)
			return o->floors[i].floor;
	return EV_FLOOR_NORM;
}

int
ev_fuse_lane_priority(const char *lane)
{
	static const char *const order[] = { "vector", "text", "region", "timeline" };
	int i;

	if (lane == NULL)
		return 4;
	for (i = 0; i < 4; i++)
		if (strcmp(lane, order[i]) == 0)
			return i;
	return 4;
}
