/* route.c: query routing and confidence gates.  See route.h. */
#include "route.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "hitcheck.h"
#include "jsonl.h"
#include "lexicon.h"
#include "plan.h"
#include "utf8.h"


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
	/* the gate over several lanes */
	char *glanes[EV_GATE_LANES];
	double gbelow[EV_GATE_LANES];
	int gmeasure[EV_GATE_LANES];
	/* high-stakes queries: a field and its values */
	char *stakes_field;
	json_t *stakes_values;
};

static const char *const measure_names[] = { "margin", "margin10", "top", "top_mean10", NULL };

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
	json_array_foreach(v, i, x) {
		if (!json_is_string(x) || !ev_plan_lane_name_ok(json_string_value(x))) {
			ev_err_set(err, EV_EXIT_USAGE, file,
			    "'%s': a lane is " EV_PLAN_LANE_RULE, key);
			return NULL;
		}
		for (size_t j = 0; j < i; j++)
			if (json_equal(json_array_get(v, j), x)) {
				ev_err_set(err, EV_EXIT_USAGE, file, "'%s' names '%s' twice", key,
				    json_string_value(x));
				return NULL;
			}
	}
	return json_incref((json_t *)v);
}

/* Code points that are spaces or punctuation, not parts of words: Latin-1's
 * no-break space, signs and punctuation (but the ordinals, the micro sign
 * and the digits and fractions), its signs of multiplication and division,
 * General Punctuation (its spaces, dashes, quotation marks, ellipsis; but
 * the joiners U+200C and U+200D, which sit inside words of Persian and
 * emoji), the byte order mark, and the punctuation of CJK text and of the
 * fullwidth forms.  A query pasted from a word processor writes “map” or
 * map—where with these around its words. */
static const unsigned punct_ranges[][2] = {
	{ 0x80, 0xA9 }, { 0xAB, 0xB1 }, { 0xB4, 0xB4 }, { 0xB6, 0xB8 }, { 0xBB, 0xBB },
	{ 0xBF, 0xBF }, { 0xD7, 0xD7 }, { 0xF7, 0xF7 }, { 0x2000, 0x200B }, { 0x200E, 0x206F },
	{ 0x3000, 0x3003 }, { 0x3008, 0x3011 }, { 0x3014, 0x301F }, { 0xFEFF, 0xFEFF },
	{ 0xFF01, 0xFF0F }, { 0xFF1A, 0xFF20 }, { 0xFF3B, 0xFF40 }, { 0xFF5B, 0xFF65 },
};

/* The length of the UTF-8 character at s[0..n) (its first byte 0x80 or
 * more) when it is one of punct_ranges, else 0 (a letter, or bytes that are
 * not UTF-8 by ev_utf8_decode()'s rule: kept as parts of a word). */
static size_t
punct_len(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len = ev_utf8_decode((const char *)s, n, &cp);

	if (len == 1)
		return 0;	/* an invalid byte */
	for (size_t k = 0; k < sizeof punct_ranges / sizeof punct_ranges[0]; k++)
		if (cp >= punct_ranges[k][0] && cp <= punct_ranges[k][1])
			return len;
	return 0;
}

/* Text in lower case (ASCII and Latin-1 letters, as the lexicon folds
 * them, ev_lex_fold(): "École" is "école"), its words (ASCII letters and
 * digits, and every byte of a multibyte character but spaces and
 * punctuation, punct_ranges) separated by single spaces, with a space at
 * each end: " how do i read the site plan ". */
static char *
normalise(const char *s)
{
	size_t n = strlen(s), j = 0, i, skip;
	char *out = malloc(n + 3);
	int gap = 1;

	if (out == NULL)
		return NULL;
	out[j++] = ' ';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x80 && (skip = punct_len((const unsigned char *)s + i, n - i)) > 0) {
			i += skip - 1;	/* a separator, as ASCII punctuation is */
		} else if (isalnum(c) || c >= 0x80) {
			out[j++] = (char)ev_lex_fold(i > 0 ? (unsigned char)s[i - 1] : 0, c);
			gap = 0;
			continue;
		}
		if (!gap) {
			out[j++] = ' ';
			gap = 1;
		}
	}
	if (!gap)
		out[j++] = ' ';
	out[j] = '\0';
	return out;
}

/* A copy of s with its Latin-1 capitals in lower case (ev_lex_fold(): the
 * bytes after the first of a non-ASCII character), or NULL when out of
 * memory.  regcomp()'s REG_ICASE folds ASCII alone in the C locale, so a
 * pattern and the text it is matched with are both folded so: "école"
 * matches "ÉCOLE".  ASCII is left as it is, so that a pattern's escapes
 * (\W is not \w) keep their meaning. */
static char *
fold_latin1(const char *s)
{
	char *out = strdup(s);

	for (size_t i = 0; out != NULL && s[i] != '\0'; i++)
		if ((unsigned char)s[i] >= 0x80)
			out[i] = (char)ev_lex_fold(i > 0 ? (unsigned char)s[i - 1] : 0,
			    (unsigned char)s[i]);
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
		if (!json_is_array(cues))
			return ev_err_set(err, EV_EXIT_USAGE, file,
			    "'routing.rules[%zu].cues' must be a list of words or phrases", k);
		if ((r->cues = json_array()) == NULL)
			return ev_err_nomem(err);
		json_array_foreach(cues, i, x) {
			char *norm = json_is_string(x) ? normalise(json_string_value(x)) : NULL;
			int ok = norm != NULL && strlen(norm) >= 3;	/* " w " at least */

			if (json_is_string(x) && norm == NULL)
				return ev_err_nomem(err);
			if (ok && json_array_append_new(r->cues, json_string(norm)) == -1) {
				free(norm);
				return ev_err_nomem(err);
			}
			free(norm);
			if (!ok)
				return ev_err_set(err, EV_EXIT_USAGE, file,
				    "'routing.rules[%zu].cues' must be a list of words or phrases", k);
		}
	}
	if (pat != NULL) {
		char *folded;
		int rc;

		if (!json_is_string(pat))
			return ev_err_set(err, EV_EXIT_USAGE, file,
			    "'routing.rules[%zu].pattern' must be a string", k);
		if ((folded = fold_latin1(json_string_value(pat))) == NULL)
			return ev_err_nomem(err);
		rc = regcomp(&r->re, folded, REG_EXTENDED | REG_ICASE | REG_NOSUB);
		free(folded);
		if (rc == REG_ESPACE)
			return ev_err_nomem(err);
		if (rc != 0) {
			char msg[200];

			regerror(rc, &r->re, msg, sizeof msg);
			return ev_err_set(err, EV_EXIT_USAGE, file,
			    "'routing.rules[%zu].pattern': %s", k, msg);
		}
		r->has_re = 1;
	}
	return 0;
}

/* A gate setting that is one value for every lane or a mapping LANE ->
 * value: lane i's into *out through parse (0 or -1).  def when absent. */
static int
per_lane(const json_t *v, const char *lane, int (*parse)(const json_t *, double *), double def,
    double *out)
{
	if (v == NULL) {
		*out = def;
		return 0;
	}
	if (json_is_object(v)) {
		v = json_object_get(v, lane);
		if (v == NULL)
			return -1;
	}
	return parse(v, out);
}

static int
parse_below(const json_t *v, double *out)
{
	*out = json_number_value(v);
	return json_is_number(v) && *out >= 0 && *out <= 1 ? 0 : -1;
}

static int
parse_measure(const json_t *v, double *out)
{
	for (int i = 0; json_is_string(v) && measure_names[i] != NULL; i++)
		if (strcmp(json_string_value(v), measure_names[i]) == 0) {
			*out = i;
			return 0;
		}
	return -1;
}

/* routing.gate with "lanes": a gate over several lanes. */
static int
load_lanes_gate(struct ev_router *r, const json_t *g, const char *file, struct ev_err *err)
{
	const json_t *lanes = json_object_get(g, "lanes"), *mode = json_object_get(g, "mode"), *x;
	size_t i, j;

	if (!json_is_array(lanes) || json_array_size(lanes) < 2 ||
	    json_array_size(lanes) > EV_GATE_LANES)
		return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate.lanes' must be a list of 2 "
		    "to %d lanes", EV_GATE_LANES);
	if (json_object_get(g, "lane") != NULL || json_object_get(g, "on") != NULL)
		return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate' takes 'lanes' (each lane's "
		    "own confidence) or 'lane' and 'on' (one lane's on another's), not both");
	json_array_foreach(lanes, i, x) {
		double b, m;

		if (!json_is_string(x) || !ev_plan_lane_name_ok(json_string_value(x)))
			return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate.lanes': a lane is "
			    EV_PLAN_LANE_RULE);
		for (j = 0; j < i; j++)
			if (strcmp(r->glanes[j], json_string_value(x)) == 0)
				return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate.lanes' names "
				    "'%s' twice", r->glanes[j]);
		if ((r->glanes[i] = strdup(json_string_value(x))) == NULL)
			return ev_err_nomem(err);
		r->gate.lanes[i] = r->glanes[i];
		r->gate.nlanes = (int)i + 1;
		if (per_lane(json_object_get(g, "below"), r->glanes[i], parse_below, NAN, &b) == -1 ||
		    isnan(b))
			return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate.below' must be a "
			    "number from 0 to 1, or a mapping of each lane of 'lanes' to one");
		if (per_lane(json_object_get(g, "measure"), r->glanes[i], parse_measure,
		    EV_CONF_MARGIN10, &m) == -1)
			return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate.measure' must be "
			    "margin, margin10, top or top_mean10, or a mapping of each lane of 'lanes' "
			    "to one");
		r->gbelow[i] = b;
		r->gmeasure[i] = (int)m;
	}
	if (mode != NULL && (!json_is_string(mode) || (strcmp(json_string_value(mode), "run") != 0 &&
	    strcmp(json_string_value(mode), "merge") != 0)))
		return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate.mode' must be run or merge");
	r->gate.merge = mode != NULL && strcmp(json_string_value(mode), "merge") == 0;
	return 0;
}

/* routing.high_stakes: {field, values}; stakes: high when absent. */
static int
load_stakes(struct ev_router *r, const json_t *h, const char *file, struct ev_err *err)
{
	const json_t *field = json_object_get(h, "field"), *values = json_object_get(h, "values"), *x;
	size_t i;

	if (h != NULL && (!json_is_object(h) || (field != NULL && !json_is_string(field)) ||
	    (values != NULL && (!json_is_array(values) || json_array_size(values) == 0))))
		return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.high_stakes' must be a mapping "
		    "of 'field' (a field name) and 'values' (a list of its values that mark a "
		    "high-stakes query)");
	json_array_foreach(values, i, x)
		if (!json_is_string(x))
			return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.high_stakes.values' must "
			    "be a list of strings");
	if ((r->stakes_field = strdup(field ? json_string_value(field) : "stakes")) == NULL ||
	    (r->stakes_values = values ? json_incref((json_t *)values) : json_pack("[s]", "high")) ==
	    NULL)
		return ev_err_nomem(err);
	return 0;
}

static int
load_gate(struct ev_router *r, const json_t *g, const char *file, struct ev_err *err)
{
	const json_t *lane = json_object_get(g, "lane"), *on = json_object_get(g, "on");
	const json_t *below = json_object_get(g, "below"), *mode = json_object_get(g, "mode");

	if (!json_is_object(g))
		return ev_err_set(err, EV_EXIT_USAGE, file, "'routing.gate' must be a mapping");
	if (json_object_get(g, "lanes") != NULL)
		return load_lanes_gate(r, g, file, err);
	if (!json_is_string(lane) || !ev_plan_lane_name_ok(json_string_value(lane)) ||
	    !json_is_string(on) || !ev_plan_lane_name_ok(json_string_value(on)))
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
		for (i = 0; fallback[i] != NULL; i++) {
			/* a lane of the command line is held to the plan's names */
			if (!ev_plan_lane_name_ok(fallback[i])) {
				ev_err_set(err, EV_EXIT_USAGE, NULL, "--default: '%s' is not a lane: a "
				    "lane is " EV_PLAN_LANE_RULE, fallback[i]);
				goto fail;
			}
			for (size_t j = 0; j < i; j++)
				if (strcmp(fallback[j], fallback[i]) == 0) {
					ev_err_set(err, EV_EXIT_USAGE, NULL, "--default names '%s' twice",
					    fallback[i]);
					goto fail;
				}
			if (json_array_append_new(r->fallback, json_string(fallback[i])) == -1)
				goto nomem;
		}
	}
	if (routing == NULL)
		return load_stakes(r, NULL, file, err) == -1 ? ev_router_free(r), NULL : r;
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
			if (json_object_set_new(r->values, key, l) == -1)
				goto nomem;
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
	if (load_stakes(r, json_object_get(routing, "high_stakes"), file, err) == -1)
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
	for (i = 0; i < EV_GATE_LANES; i++)
		free(r->glanes[i]);
	free(r->stakes_field);
	json_decref(r->stakes_values);
	free(r);
}

/* The first rule query text matches (folded, fold_latin1(); norm, its
 * normalise()), with what matched in *matched; -1 when none does, -2 when
 * out of memory (a pattern that could not be matched for want of it). */
static long
match_rule(const struct ev_router *r, const char *text, const char *norm, const char **matched)
{
	size_t i, k;
	json_t *c;
	int rc;

	for (i = 0; i < r->nrules; i++) {
		const struct rule *ru = &r->rules[i];

		json_array_foreach(ru->cues, k, c)
			if (strstr(norm, json_string_value(c)) != NULL) {
				*matched = json_string_value(c);
				return (long)i;
			}
		if (!ru->has_re)
			continue;
		/* glibc's regexec() says REG_NOMATCH when it runs out of
		 * memory too: then errno tells (ENOMEM, from malloc) */
		errno = 0;
		if ((rc = regexec(&ru->re, text, 0, NULL, 0)) == REG_NOMATCH && errno != ENOMEM)
			continue;
		*matched = NULL;
		return rc == 0 ? (long)i : -2;
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
		char *norm = normalise(text), *folded = fold_latin1(text);
		const char *matched = NULL;
		long i;

		if (norm == NULL || folded == NULL) {
			free(norm);
			free(folded);
			return ev_err_nomem(err);
		}
		if ((i = match_rule(r, folded, norm, &matched)) == -2) {
			free(norm);
			free(folded);
			return ev_err_nomem(err);
		}
		if (i >= 0) {
			/* a cue is kept as " cue ": show it without the spaces */
			int n = matched ? (int)strlen(matched) - 2 : 7;

			lanes = r->rules[i].lanes;
			how = json_pack("{s:s,s:I,s:s#}", "by", "rule", "rule", (json_int_t)i,
			    "matched", matched ? matched + 1 : "pattern", n);
		}
		free(norm);
		free(folded);
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
	for (i = 0; bad == NULL && i < (size_t)r->gate.nlanes; i++) {
		json_t *one = json_pack("[s]", r->glanes[i]);

		if (one == NULL)
			return ev_err_nomem(err);
		if ((bad = unknown_lane(one, known)) != NULL) {
			snprintf(key, sizeof key, "routing.gate.lanes");
			bad = r->glanes[i];
		}
		json_decref(one);
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

/* Whether q is a high-stakes query: its routing.high_stakes field holds one
 * of the values. */
static int
high_stakes(const struct ev_router *r, const json_t *q)
{
	const json_t *v = json_object_get(q, r->stakes_field), *x;
	size_t i;

	json_array_foreach(r->stakes_values, i, x)
		if (json_is_string(v) && strcmp(json_string_value(v), json_string_value(x)) == 0)
			return 1;
	return 0;
}

double
ev_route_measure(int m, const double *top, int ntop, long n)
{
	double mean = 0;

	if (n <= 0 || ntop <= 0)
		return 0;
	switch (m) {
	case EV_CONF_MARGIN10:
		return ev_route_confidence(n, top[0], top[ntop - 1]);
	case EV_CONF_TOP:
		return top[0];
	case EV_CONF_TOP_MEAN10:
		for (int i = 0; i < ntop; i++)
			mean += top[i] / ntop;
		return mean > 0 ? top[0] / mean : 0;
	default:
		return ev_route_confidence(n, top[0], ntop > 1 ? top[1] : 0);
	}
}

json_t *
ev_route_read_answers(const char *path, struct ev_err *err)
{
	char *paths[] = { (char *)path };
	struct ev_buf qid = EV_BUF_INIT;
	struct ev_jsonl *in = ev_jsonl_open(paths, 1, err);
	json_t *by = json_object(), *v, *t;
	int r;

	if (in == NULL || by == NULL) {
		if (by == NULL)
			ev_err_nomem(err);
		ev_jsonl_close(in);
		json_decref(by);
		return NULL;
	}
	while ((r = ev_jsonl_next(in, &v, err)) == 1) {
		double s;
		size_t k, n;

		if (ev_hit_check(v, ev_jsonl_where(in), err) == -1 ||
		    (r = ev_json_id_buf(json_object_get(v, "query_id"), &qid)) < 0) {
			if (r == -2)
				ev_err_nomem(err);
			else if (err->msg[0] == '\0')
				ev_err_query_id(err, ev_jsonl_where(in));
			json_decref(v);
			r = -1;
			break;
		}
		s = json_number_value(json_object_get(v, "score"));
		json_decref(v);
		if ((t = json_object_get(by, ev_buf_str(&qid))) == NULL &&
		    (json_object_set_new(by, ev_buf_str(&qid), t = json_pack("[i]", 0)) == -1 ||
		    t == NULL)) {
			r = ev_err_nomem(err);
			break;
		}
		/* the count, then the ten best scores, falling */
		if (json_array_set_new(t, 0, json_integer(json_integer_value(json_array_get(t,
		    0)) + 1)) == -1) {
			r = ev_err_nomem(err);
			break;
		}
		n = json_array_size(t);
		for (k = 1; k < n && json_real_value(json_array_get(t, k)) >= s; k++)
			;
		if (k <= 10 && json_array_insert_new(t, k, json_real(s)) == -1) {
			r = ev_err_nomem(err);
			break;
		}
		if (json_array_size(t) > 11)
			json_array_remove(t, 11);
	}
	ev_buf_release(&qid);
	ev_jsonl_close(in);
	if (r == -1) {
		json_decref(by);
		return NULL;
	}
	return by;
}

/* Lane i's confidence in answers into *c: 1, or 0 when its hits were not
 * read. */
static int
lane_confidence(const struct ev_router *r, int i, const json_t *answers, double *c)
{
	const json_t *a = json_object_get(answers, r->glanes[i]);
	double top[10];
	int ntop = 0;

	if (!json_is_array(a))
		return 0;
	for (size_t k = 1; k < json_array_size(a) && ntop < 10; k++)
		top[ntop++] = json_number_value(json_array_get(a, k));
	*c = ev_route_measure(r->gmeasure[i], top, ntop, (long)json_integer_value(json_array_get(a, 0)));
	return 1;
}

/* Take lane out of q's lanes. */
static void
remove_lane(json_t *lanes, const char *lane)
{
	for (size_t i = json_array_size(lanes); i-- > 0;)
		if (strcmp(json_string_value(json_array_get(lanes, i)), lane) == 0)
			json_array_remove(lanes, i);
}

int
ev_router_apply_lanes_gate(const struct ev_router *r, json_t *q, const json_t *answers,
	struct ev_err *err)
{
	json_t *how = json_object_get(q, "routing"), *lanes = json_object_get(q, "lanes");
	json_t *rec, *conf, *below, *measure;
	const char *decision, *kept = NULL;
	double best = -HUGE_VAL;
	int routed = 0, in[EV_GATE_LANES] = { 0 }, bad;

	if (r->gate.nlanes == 0 || !json_is_object(how) || !json_is_array(lanes))
		return 0;
	conf = json_object(), below = json_object(), measure = json_object();
	bad = conf == NULL || below == NULL || measure == NULL;
	for (int i = 0; i < r->gate.nlanes && !bad; i++) {
		double c;

		for (size_t k = 0; k < json_array_size(lanes); k++)
			in[i] |= strcmp(json_string_value(json_array_get(lanes, k)), r->glanes[i]) == 0;
		routed += in[i];
		bad = json_object_set_new(below, r->glanes[i], json_real(r->gbelow[i])) == -1 ||
		    json_object_set_new(measure, r->glanes[i],
		    json_string(measure_names[r->gmeasure[i]])) == -1;
		if (!in[i] || !lane_confidence(r, i, answers, &c)) {
			bad |= json_object_set_new(conf, r->glanes[i], json_null()) == -1;
			continue;
		}
		bad |= json_object_set_new(conf, r->glanes[i], json_real(round(c * 1e4) / 1e4)) == -1;
		if (c >= r->gbelow[i] && c - r->gbelow[i] > best) {
			best = c - r->gbelow[i];
			kept = r->glanes[i];
		}
	}
	if (routed < 2)
		decision = "not routed", kept = NULL;
	else if (high_stakes(r, q))
		decision = "high stakes", kept = NULL;
	else if (kept == NULL)
		decision = r->gate.merge ? "merge" : "run";
	else {
		decision = "keep";
		for (int i = 0; i < r->gate.nlanes; i++)
			if (in[i] && strcmp(r->glanes[i], kept) != 0)
				remove_lane(lanes, r->glanes[i]);
	}
	rec = bad ? NULL : json_pack("{s:[],s:s,s:O,s:O,s:O,s:s}", "lanes", "mode",
	    r->gate.merge ? "merge" : "run", "measure", measure, "below", below, "confidence", conf,
	    "decision", decision);
	for (int i = 0; rec != NULL && i < r->gate.nlanes; i++)
		bad |= json_array_append_new(json_object_get(rec, "lanes"), json_string(r->glanes[i]));
	if (rec != NULL && kept != NULL)
		bad |= json_object_set_new(rec, "kept", json_string(kept)) == -1;
	json_decref(conf), json_decref(below), json_decref(measure);
	if (rec == NULL || bad || json_object_set_new(how, "gate", rec) == -1)
		return ev_err_nomem(err);
	return 0;
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
	else if (high_stakes(r, q))
		decision = "high stakes";
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

int
ev_router_gate_answers(const struct ev_router *r, json_t *q, const char *const *lanes,
    json_t *const *answers, int n, struct ev_err *err)
{
	struct ev_gate gate;
	struct ev_buf id = EV_BUF_INIT;
	const char *qid;
	json_t *by_lane, *t;
	double top[2];
	long hits;
	int rc;

	if (n == 0 || json_object_get(json_object_get(q, "routing"), "gate") != NULL)
		return 0;
	if (ev_json_id_buf(json_object_get(q, "query_id"), &id) == -2)
		return ev_err_nomem(err);
	qid = ev_buf_str(&id);
	ev_router_gate(r, &gate);
	if (gate.nlanes == 0) {	/* one lane on another's confidence */
		t = json_object_get(answers[0], qid);
		ev_buf_release(&id);
		hits = (long)json_integer_value(json_array_get(t, 0));
		top[0] = json_number_value(json_array_get(t, 1));
		top[1] = json_number_value(json_array_get(t, 2));
		return ev_router_apply_gate(r, q, hits, ev_route_measure(EV_CONF_MARGIN, top,
		    hits < 2 ? (int)hits : 2, hits), err);
	}
	if ((by_lane = json_object()) == NULL) {
		ev_buf_release(&id);
		return ev_err_nomem(err);
	}
	for (int i = 0; i < n; i++) {
		t = json_object_get(answers[i], qid);
		if (json_object_set_new(by_lane, lanes[i], t ? json_incref(t) : json_pack("[i]", 0)) == -1) {
			json_decref(by_lane);
			ev_buf_release(&id);
			return ev_err_nomem(err);
		}
	}
	ev_buf_release(&id);
	rc = ev_router_apply_lanes_gate(r, q, by_lane, err);
	json_decref(by_lane);
	return rc;
}
