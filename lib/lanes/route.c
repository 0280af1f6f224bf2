/* route.c: query routing and confidence gates.  See route.h. */
#include "route.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#define LANE_MAX	32

struct rule {
	json_t *lanes;		/* array of lane names */
	json_t *cues;		/* array of normalised cue phrases, or NULL */
	regex_t re;
	int has_re;
};

struct ev_router {
	json_t *fallback;	/* lanes when nothing else decides */
	int fallback_planned;	/* whether the plan gave them (routing.default) */
	char *field;		/* the routing field, or NULL */
	json_t *values;		/* field value -> lanes */
	struct rule *rules;
	size_t nrules;
	struct ev_gate gate;
	char *gate_lane, *gate_on;
};

static int
lane_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > LANE_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

/* A list of lane names at key, checked; a new reference. */
static json_t *
lane_list(const json_t *v, const char *key, const char *file, struct ev_err *err)
{
	size_t i;
	json_t *x;

	if (!json_is_array(v) || json_array_size(v) == 0) {
		ev_err_set(err, EV_EXIT_USAGE, file, "'%s' must be a list of one or more lanes", key);
		return NULL;
	}
	json_array_foreach(v, i, x)
		if (!json_is_string(x) || !lane_name_ok(json_string_value(x))) {
			ev_err_set(err, EV_EXIT_USAGE, file,
			    "'%s': a lane is 1 to %d letters, digits, '_' or '-'", key, LANE_MAX);
			return NULL;
		}
	return json_incref((json_t *)v);
}

/* Text in lower case, its words (ASCII letters and digits, and every byte
 * of a multibyte character) separated by single spaces, with a space at
 * each end: " how do i read the site plan ". */
static char *
normalise(const char *s)
{
	size_t n = strlen(s), j = 0, i;
	char *out = malloc(n + 3);
	int gap = 1;

	if (out == NULL)
		return NULL;
	out[j++] = ' ';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (isalnum(c) || c >= 0x80) {
			out[j++] = (char)tolower(c);
			gap = 0;
		} else if (!gap) {
			out[j++] = ' ';
			gap = 1;
		}
	}
	if (!gap)
		out[j++] = ' ';
	out[j] = '\0';
	return out;
}

static int
load_rule(struct rule *r, const json_t *v, size_t k, const char *file, struct ev_err *err)
{
	char key[64];
	const json_t *cues = json_object_get(v, "cues"), *pat = json_object_get(v, "pattern");
	size_t i;
	json_t *x;

	snprintf(key, sizeof key, "routing.rules[%zu]", k);
	if (!json_is_object(v))
		return ev_err_set(err, EV_EXIT_USAGE, file, "'%s' must be a mapping", key);
	snprintf(key, sizeof key, "routing.rules[%zu].lanes", k);
	if ((r->lanes = lane_list(json_object_get(v, "lanes"), key, file, err)) == NULL)
		return -1;
	if (cues == NULL && pat == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, file,
		    "'routing.rules[%zu]' needs 'cues' or 'pattern'", k);
	if (cues != NULL) {
		if (!json_is_array(cues) || (r->cues = json_array()) == NULL)
			return ev_err_set(err, EV_EXIT_USAGE, file,
			    "'routing.rules[%zu].cues' must be a list of words or phrases", k);
		json_array_foreach(cues, i, x) {
			char *norm = json_is_string(x) ? normalise(json_string_value(x)) : NULL;
			int ok = norm != NULL && strlen(norm) >= 3;	/* " w " at least */

			if (json_is_string(x) && norm == NULL)
				return ev_err_nomem(err);
			if (ok && json_array_append_new(r->cues, json_string(norm)) == -1)
				ok = 0;
			free(norm);
			if (!ok)
				return ev_err_set(err, EV_EXIT_USAGE, file,
				    "'routing.rules[%zu].cues' must be a list of words or phrases", k);
		}
	}
	if (pat != NULL) {
		int rc;

		if (!json_is_string(pat))
			return ev_err_set(err, EV_EXIT_USAGE, file,
			    "'routing.rules[%zu].pattern' must be a string", k);
		if ((rc = regcomp(&r->re, json_string_value(pat),
		    REG_EXTENDED | REG_ICASE | REG_NOSUB)) != 0) {
			char msg[200];

			regerror(rc, &r->re, msg, sizeof msg);
			return ev_err_set(err, EV_EXIT_USAGE, file,
			    "'routing.rules[%zu].pattern': %s", k, msg);
		}
		r->has_re = 1;
	}
	return 0;
}

static int
load_gate(struct ev_router *r, const json_t *g, const char *file, struct ev_err *err)
{
	const json_t *lane = json_object_get(g, "lane"), *on = json_object_get(g, "on");
	const json_t *below = json_object_get(g, "below"), *mode = json_object_get(g, "mode");

	if (!json_is_object(g))
		return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate' must be a mapping");
	if (!json_is_string(lane) || !lane_name_ok(json_string_value(lane)) ||
	    !json_is_string(on) || !lane_name_ok(json_string_value(on)))
		return ev_err_set(err, EV_EXIT_USAGE, file,
		    "'routing.gate' needs 'lane' and 'on', each a lane name");
	if (strcmp(json_string_value(lane), json_string_value(on)) == 0)
		return ev_err_set(err, EV_EXIT_USAGE, file,
		    "'routing.gate': a lane cannot be gated on its own confidence ('lane' and 'on' "
		    "are both '%s')", json_string_value(lane));
	if (!json_is_number(below) || json_number_value(below) < 0 || json_number_value(below) > 1)
		return ev_err_set(err, EV_EXIT_USAGE, file,
		    "'routing.gate.below' must be a number from 0 to 1");
	if (mode != NULL && (!json_is_string(mode) || (strcmp(json_string_value(mode), "run") != 0 &&
	    strcmp(json_string_value(mode), "merge") != 0)))
		return ev_err_set(err, EV_EXIT_USAGE, file,
		    "'routing.gate.mode' must be run (the gated lane runs only below the "
		    "confidence) or merge (it runs, and is merged only below it)");
	r->gate.merge = mode != NULL && strcmp(json_string_value(mode), "merge") == 0;
	if ((r->gate_lane = strdup(json_string_value(lane))) == NULL ||
	    (r->gate_on = strdup(json_string_value(on))) == NULL)
		return ev_err_nomem(err);
	r->gate.lane = r->gate_lane;
	r->gate.on = r->gate_on;
	r->gate.below = json_number_value(below);
	return 0;
}

struct ev_router *
ev_router_new(const json_t *routing, const char *const *fallback, const char *file,
	struct ev_err *err)
{
	struct ev_router *r = calloc(1, sizeof *r);
	const json_t *v, *rules;
	const char *key;
	size_t i;

	if (r == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	if (routing != NULL && !json_is_object(routing)) {
		ev_err_set(err, EV_EXIT_USAGE, file, "'routing' must be a mapping");
		goto fail;
	}
	if ((v = routing ? json_object_get(routing, "default") : NULL) != NULL) {
		if ((r->fallback = lane_list(v, "routing.default", file, err)) == NULL)
			goto fail;
		r->fallback_planned = 1;
	} else {
		if ((r->fallback = json_array()) == NULL)
			goto nomem;
		for (i = 0; fallback[i] != NULL; i++)
			json_array_append_new(r->fallback, json_string(fallback[i]));
	}
	if (routing == NULL)
		return r;
	if ((v = json_object_get(routing, "field")) != NULL) {
		const json_t *vals = json_object_get(routing, "values");
		json_t *x;

		if (!json_is_string(v) || !json_is_object(vals)) {
			ev_err_set(err, EV_EXIT_USAGE, file,
			    "'routing.field' must be a field name, with 'routing.values' a mapping "
			    "of its values to lanes");
			goto fail;
		}
		if ((r->field = strdup(json_string_value(v))) == NULL || (r->values = json_object()) == NULL)
			goto nomem;
		json_object_foreach((json_t *)vals, key, x) {
			char k[300];
			json_t *l;

			snprintf(k, sizeof k, "routing.values.%s", key);
			if ((l = lane_list(x, k, file, err)) == NULL)
				goto fail;
			json_object_set_new(r->values, key, l);
		}
	}
	if ((rules = json_object_get(routing, "rules")) != NULL) {
		if (!json_is_array(rules)) {
			ev_err_set(err, EV_EXIT_USAGE, file, "'routing.rules' must be a list");
			goto fail;
		}
		if ((r->rules = calloc(json_array_size(rules) + 1, sizeof *r->rules)) == NULL)
			goto nomem;
		for (i = 0; i < json_array_size(rules); i++) {
			r->nrules++;
			if (load_rule(&r->rules[i], json_array_get(rules, i), i, file, err) == -1)
				goto fail;
		}
	}
	if ((v = json_object_get(routing, "gate")) != NULL && load_gate(r, v, file, err) == -1)
		goto fail;
	return r;
nomem:
	ev_err_nomem(err);
fail:
	ev_router_free(r);
	return NULL;
}

void
ev_router_free(struct ev_router *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nrules; i++) {
		json_decref(r->rules[i].lanes);
		json_decref(r->rules[i].cues);
		if (r->rules[i].has_re)
			regfree(&r->rules[i].re);
	}
	free(r->rules);
	json_decref(r->fallback);
	json_decref(r->values);
	free(r->field);
	free(r->gate_lane);
	free(r->gate_on);
	free(r);
}

/* The first rule query text matches, with what matched in *matched. */
static long
match_rule(const struct ev_router *r, const char *text, const char *norm, const char **matched)
{
	size_t i, k;
	json_t *c;

	for (i = 0; i < r->nrules; i++) {
		const struct rule *ru = &r->rules[i];

		json_array_foreach(ru->cues, k, c)
			if (strstr(norm, json_string_value(c)) != NULL) {
				*matched = json_string_value(c);
				return (long)i;
			}
		if (ru->has_re && regexec(&ru->re, text, 0, NULL, 0) == 0) {
			*matched = NULL;
			return (long)i;
		}
	}
	return -1;
}

int
ev_router_route(const struct ev_router *r, json_t *q, const char *where, struct ev_err *err)
{
	const char *text = json_string_value(json_object_get(q, "query"));
	json_t *how = NULL, *lanes = NULL;

	if (r->field != NULL && json_object_get(q, r->field) != NULL) {
		const json_t *v = json_object_get(q, r->field);

		if (!json_is_string(v))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field '%s' must be a string (it routes the query)", r->field);
		if ((lanes = json_object_get(r->values, json_string_value(v))) != NULL)
			how = json_pack("{s:s,s:s,s:O}", "by", "field", "field", r->field, "value", v);
	}
	if (lanes == NULL && r->nrules > 0 && text != NULL) {
		char *norm = normalise(text);
		const char *matched = NULL;
		long i;

		if (norm == NULL)
			return ev_err_nomem(err);
		if ((i = match_rule(r, text, norm, &matched)) >= 0) {
			/* a cue is kept as " cue ": show it without the spaces */
			int n = matched ? (int)strlen(matched) - 2 : 7;

			lanes = r->rules[i].lanes;
			how = json_pack("{s:s,s:I,s:s#}", "by", "rule", "rule", (json_int_t)i,
			    "matched", matched ? matched + 1 : "pattern", n);
		}
		free(norm);
	}
	if (lanes == NULL) {
		lanes = r->fallback;
		how = json_pack("{s:s}", "by", "default");
	}
	if (how == NULL || json_object_set_new(q, "lanes", json_deep_copy(lanes)) == -1 ||
	    json_object_set_new(q, "routing", how) == -1)
		return ev_err_nomem(err);
	return 0;
}

void
ev_router_gate(const struct ev_router *r, struct ev_gate *out)
{
	*out = r->gate;
}

double
ev_route_confidence(long n, double s1, double s2)
{
	double c;

	if (n <= 0)
		return 0;
	if (n == 1)
		return 1;
	if (fabs(s1) < 1e-300)
		return 0;
	c = (s1 - s2) / fabs(s1);
	return c < 0 ? 0 : c > 1 ? 1 : c;
}

/* The first lane of list that is not in known, or NULL. */
static const char *
unknown_lane(const json_t *list, const char *const *known)
{
	size_t i, k;
	json_t *x;

	json_array_foreach(list, i, x) {
		for (k = 0; known[k] != NULL; k++)
			if (strcmp(known[k], json_string_value(x)) == 0)
				break;
		if (known[k] == NULL)
			return json_string_value(x);
	}
	return NULL;
}

int
ev_router_check_lanes(const struct ev_router *r, const char *const *known, const char *file,
	struct ev_err *err)
{
	char key[300], runs[300];
	const char *bad = NULL, *value;
	json_t *gate = NULL, *l;
	size_t i, n = 0;

	if ((bad = unknown_lane(r->fallback, known)) != NULL)
		snprintf(key, sizeof key, "%s", r->fallback_planned ? "routing.default" : "--default");
	json_object_foreach(r->values, value, l)
		if (bad == NULL && (bad = unknown_lane(l, known)) != NULL)
			snprintf(key, sizeof key, "routing.values.%s", value);
	for (i = 0; bad == NULL && i < r->nrules; i++)
		if ((bad = unknown_lane(r->rules[i].lanes, known)) != NULL)
			snprintf(key, sizeof key, "routing.rules[%zu].lanes", i);
	if (bad == NULL && r->gate.lane != NULL) {
		if ((gate = json_pack("[s,s]", r->gate.lane, r->gate.on)) == NULL)
			return ev_err_nomem(err);
		if ((bad = unknown_lane(gate, known)) != NULL)
			snprintf(key, sizeof key, "routing.gate.%s",
			    strcmp(bad, r->gate.lane) == 0 ? "lane" : "on");
	}
	if (bad != NULL) {
		runs[0] = '\0';
		for (i = 0; known[i] != NULL && n < sizeof runs; i++)
			n += (size_t)snprintf(runs + n, sizeof runs - n, "%s%s", i ? ", " : "", known[i]);
		ev_err_set(err, EV_EXIT_USAGE, file,
		    "'%s' names lane '%s', which this pipeline does not run (it runs %s)", key, bad, runs);
	}
	json_decref(gate);
	return bad != NULL ? -1 : 0;
}

int
ev_router_apply_gate(const struct ev_router *r, json_t *q, long nhits, double c, struct ev_err *err)
{
	json_t *how = json_object_get(q, "routing"), *lanes = json_object_get(q, "lanes");
	const char *decision;
	size_t i;
	int routed = 0;

	if (r->gate.lane == NULL || !json_is_object(how) || !json_is_array(lanes))
		return 0;
	for (i = 0; !routed && i < json_array_size(lanes); i++)
		routed = strcmp(json_string_value(json_array_get(lanes, i)), r->gate.lane) == 0;
	if (!routed)
		decision = "not routed";
	else if (c < r->gate.below)
		decision = r->gate.merge ? "merge" : "run";
	else {
		decision = r->gate.merge ? "drop" : "skip";
		json_array_remove(lanes, i - 1);
	}
	if (json_object_set_new(how, "gate", json_pack("{s:s,s:s,s:s,s:I,s:f,s:f,s:s}",
	    "lane", r->gate.lane, "on", r->gate.on, "mode", r->gate.merge ? "merge" : "run",
	    "hits", (json_int_t)nhits, "confidence", round(c * 1e4) / 1e4, "below", r->gate.below,
	    "decision", decision)) == -1)
		return ev_err_nomem(err);
	return 0;
}
