/* plan.c: the retrieval plan's schema.  See plan.h. */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "config.h"

#define ROW(e)	EV_PLAN_ROW(e),
#define KEY(e)	EV_PLAN_KEY(e),

const struct ev_plan_key ev_plan_schema[] = {
	EV_PLAN_ENTRIES(ROW)
	EV_PLAN_FORMS(ROW)
	{ NULL, EV_PLAN_ANY, 0, 0, NAN, NULL, NULL }
};

const char *const ev_plan_keys[] = {
	EV_PLAN_ENTRIES(KEY)
	NULL
};

const char *const ev_plan_form_keys[] = {
	EV_PLAN_FORMS(KEY)
	NULL
};

const char *const ev_plan_known_keys[] = {
	EV_PLAN_ENTRIES(KEY)
	EV_PLAN_FORMS(KEY)
	NULL
};

const struct ev_plan_key *
ev_plan_find(const char *key)
{
	for (const struct ev_plan_key *e = ev_plan_schema; e->key != NULL; e++)
		if (strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

/* Whether the schema has entries under key ("lanes.text.feedback.docs" under
 * "lanes.text.feedback"). */
static int
has_entries_under(const char *key)
{
	size_t n = strlen(key);

	for (const struct ev_plan_key *e = ev_plan_schema; e->key != NULL; e++)
		if (strncmp(e->key, key, n) == 0 && e->key[n] == '.')
			return 1;
	return 0;
}

int
ev_plan_two_forms(const char *key)
{
	const struct ev_plan_key *e = ev_plan_find(key);

	return e != NULL && e->type != EV_PLAN_ANY && has_entries_under(key);
}

/* Store the number x in the field's value. */
static void
store(const struct ev_plan_field *f, double x, long long n, int whole)
{
	switch (f->ctype) {
	case EV_PLAN_C_INT:
		*(int *)f->value = whole ? (int)n : (int)x;
		break;
	case EV_PLAN_C_LONG:
		*(long *)f->value = whole ? (long)n : (long)x;
		break;
	case EV_PLAN_C_LLONG:
		*(long long *)f->value = whole ? n : (long long)x;
		break;
	case EV_PLAN_C_DOUBLE:
		*(double *)f->value = whole ? (double)n : x;
		break;
	}
}

const char *
ev_plan_scalar_text(const json_t *v, char *buf, size_t size)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, size, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, size, "%s", json_is_true(v) ? "true" : "false");
	else
		return NULL;
	return buf;
}

/* Hand arg, the value of path in plan, to the field's setter; its message
 * gets file:line and the key ("'KEY': ..." or "'KEY.NAME': ...").  Returns 0
 * or -1. */
static int
call_set(const struct ev_plan_field *f, const char *arg, const json_t *plan, const char *path,
    const char *file, struct ev_err *err)
{
	struct ev_err e = { 0 };
	char where[EV_WHERE_MAX];

	if (f->set(f->value, arg, &e) == 0)
		return 0;
	return ev_err_set(err, e.code == EV_EXIT_RUNTIME ? EV_EXIT_RUNTIME : EV_EXIT_USAGE,
	    ev_config_where(plan, path, file, where, sizeof where), "'%s': %s", path, e.msg);
}

/* Read a mapping's entries (e "KEY.*"), each a single value handed to the
 * field's setter as "NAME=VALUE".  Returns 0 or -1. */
static int
read_map(const json_t *plan, const char *file, const struct ev_plan_key *e,
    const struct ev_plan_field *f, int kept, struct ev_err *err)
{
	char path[256], entry[600], where[EV_WHERE_MAX], text[64], arg[1100];
	const char *name, *t;
	const json_t *v;
	json_t *x;

	snprintf(path, sizeof path, "%.*s", (int)strlen(e->key) - 2, e->key);
	if ((v = ev_config_get(plan, path)) == NULL)
		return 0;
	if (!json_is_object(v))
		return ev_err_set(err, EV_EXIT_USAGE, ev_config_where(plan, path, file, where,
		    sizeof where), "'%s' must be a mapping of names to values", path);
	json_object_foreach((json_t *)v, name, x) {
		snprintf(entry, sizeof entry, "%s.%s", path, name);
		if ((t = ev_plan_scalar_text(x, text, sizeof text)) == NULL)
			return ev_err_set(err, EV_EXIT_USAGE, ev_config_where(plan, entry, file,
			    where, sizeof where), "'%s' must be a single value", entry);
		snprintf(arg, sizeof arg, "%s=%s", name, t);
		if (!kept && f->set != NULL && f->value != NULL &&
		    call_set(f, arg, plan, entry, file, err) == -1)
			return -1;
	}
	return 0;
}

/* Read one field.  Returns 0 or -1 with *err set. */
static int
read_field(const json_t *plan, const char *file, const struct ev_plan_field *f, int kept,
    struct ev_err *err)
{
	const struct ev_plan_key *e = ev_plan_find(f->key);
	const json_t *v;
	long long n = 0;
	double x = 0;
	const char *s = NULL;
	char where[EV_WHERE_MAX];
	int r = 0, b;

	if (e == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, file, "'%s' is not in the plan's schema",
		    f->key);
	if (e->type == EV_PLAN_MAP)
		return read_map(plan, file, e, f, kept, err);
	v = ev_config_get(plan, f->key);
	if (v == NULL || (json_is_object(v) && e->type != EV_PLAN_ANY && has_entries_under(e->key)))
		return 0;
	switch (e->type) {
	case EV_PLAN_INT:
		r = ev_config_int(plan, e->key, (long long)e->min, (long long)e->max, &n, file, err);
		x = (double)n;
		break;
	case EV_PLAN_NUM:
		r = ev_config_num(plan, e->key, e->min, e->max, &x, file, err);
		break;
	case EV_PLAN_BOOL:
		r = ev_config_bool(plan, e->key, &b, file, err);
		n = b;
		break;
	case EV_PLAN_STR:
		r = ev_config_str(plan, e->key, &s, file, err);
		break;
	case EV_PLAN_CHOICE:
		if ((r = ev_config_str(plan, e->key, &s, file, err)) != 1)
			break;
		if ((n = ev_plan_word_index(e->words, s)) == -1) {
			char want[256];

			ev_plan_words_text(e->words, want, sizeof want);
			return ev_err_set(err, EV_EXIT_USAGE, ev_config_where(plan, e->key, file,
			    where, sizeof where), "'%s' must be %s: '%s'", e->key, want, s);
		}
		break;
	default:
		return 0;	/* its stage checks it */
	}
	if (r == -1)
		return -1;
	if (r != 1 || kept || f->value == NULL)
		return 0;
	if (f->set != NULL) {
		char text[64];

		return call_set(f, s != NULL ? s : ev_plan_scalar_text(v, text, sizeof text), plan,
		    e->key, file, err);
	}
	if (e->type != EV_PLAN_STR)
		store(f, x, n, e->type != EV_PLAN_NUM);
	return 0;
}

int
ev_plan_read(const json_t *plan, const char *file, const struct ev_plan_field *fields, size_t n,
    int (*keep)(const void *value), struct ev_err *err)
{
	if (plan == NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (read_field(plan, file, &fields[i], keep != NULL && fields[i].value != NULL &&
		    keep(fields[i].value), err) == -1)
			return -1;
	return 0;
}

/* Whether stage is one of stages. */
static int
among(const char *stage, const char *const *stages)
{
	for (; *stages != NULL; stages++)
		if (strcmp(*stages, stage) == 0)
			return 1;
	return 0;
}

int
ev_plan_read_stages(const json_t *plan, const char *file, const char *const *stages,
    const struct ev_plan_field *fields, size_t n, int (*keep)(const void *value),
    struct ev_err *err)
{
	for (const struct ev_plan_key *e = ev_plan_schema; e->key != NULL; e++) {
		size_t i;

		if (e->type == EV_PLAN_ANY || !among(e->stage, stages))
			continue;
		for (i = 0; i < n && strcmp(fields[i].key, e->key) != 0; i++)
			;
		if (i == n)
			return ev_err_set(err, EV_EXIT_RUNTIME, file,
			    "'%s' of %s has no field in this reader", e->key, e->stage);
		if (plan != NULL && read_field(plan, file, &fields[i], keep != NULL &&
		    fields[i].value != NULL && keep(fields[i].value), err) == -1)
			return -1;
	}
	return 0;
}

int
ev_plan_check(const json_t *plan, const char *file, struct ev_err *err)
{
	for (const struct ev_plan_key *e = ev_plan_schema; plan != NULL && e->key != NULL; e++) {
		const struct ev_plan_field f = { e->key, NULL, EV_PLAN_C_INT, NULL };

		if (e->type != EV_PLAN_ANY && read_field(plan, file, &f, 0, err) == -1)
			return -1;
	}
	return 0;
}

int
ev_plan_word_index(const char *words, const char *word)
{
	size_t n = strlen(word);
	const char *p = words, *bar;

	for (int i = 0;; i++) {
		bar = strchr(p, '|');
		if ((bar != NULL ? (size_t)(bar - p) : strlen(p)) == n && strncmp(p, word, n) == 0)
			return i;
		if (bar == NULL)
			return -1;
		p = bar + 1;
	}
}

const char *
ev_plan_words_text(const char *words, char *buf, size_t size)
{
	const char *p = words;
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; *p != '\0' && n < size; k++) {
		size_t len = strcspn(p, "|");

		n += (size_t)snprintf(buf + n, size - n, "%s%.*s",
		    k == 0 ? "" : p[len] == '\0' ? " or " : ", ", (int)len, p);
		p += len + (p[len] == '|');
	}
	return buf;
}

int
ev_plan_is_plan(const json_t *cfg)
{
	static const char *const only[] = { "lanes", "version", "plan_id", "fusion", "diversity",
		"output", "rerank", "routing" };

	for (size_t i = 0; cfg != NULL && i < sizeof only / sizeof only[0]; i++)
		if (json_object_get(cfg, only[i]) != NULL)
			return 1;
	return 0;
}

int
ev_plan_lane_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > EV_PLAN_LANE_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

int
ev_plan_split_lanes(const char *opt, int check, const char *list, char *buf, size_t size,
    const char **out, int max, struct ev_err *err)
{
	int n = (size_t)snprintf(buf, size, "%s", list) >= size ? -1 : 0;
	char *p, *save = NULL;

	if (ev_config_list_check(list, opt, err) == -1)
		return -1;
	for (p = n ? NULL : strtok_r(buf, ",", &save); p != NULL && n < max;
	    p = strtok_r(NULL, ",", &save)) {
		if (check && !ev_plan_lane_name_ok(p))
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "%s: '%s' is not a lane: a lane is "
			    EV_PLAN_LANE_RULE, opt, p);
		out[n++] = p;
	}
	if (n <= 0 || p != NULL)	/* (none, too many, or the list too long) */
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "%s takes 1 to %d lanes, separated by "
		    "commas", opt, max);
	out[n] = NULL;
	return n;
}

/* The command that writes hits of lane s, when s names a lane of another
 * evkit command, else NULL. */
static const char *
lane_taken(const char *s)
{
	static const char *const taken[][2] = {
		{ "text", "ev-search-text" }, { "vector", "ev-search-vec" },
		{ "vector_feedback", "ev-search-vec" }, { "fused", "ev-fuse" },
		{ "structured", "ev-search-sql" },
	};

	for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
		if (strcmp(s, taken[i][0]) == 0)
			return taken[i][1];
	return NULL;
}

int
ev_plan_lane_check(const char *s, const char *prog, struct ev_err *err)
{
	const char *taken;

	if (!ev_plan_lane_name_ok(s))
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "lane '%s' is not a name of "
		    EV_PLAN_LANE_RULE, s);
	if ((taken = lane_taken(s)) != NULL && (prog == NULL || strcmp(taken, prog) != 0))
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "lane '%s' names %s's lane: give this lane "
		    "a name of its own", s, taken);
	return 0;
}
