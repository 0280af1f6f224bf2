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

/* Read one field.  Returns 0 or -1 with *err set. */
static int
read_field(const json_t *plan, const char *file, const struct ev_plan_field *f, int kept,
    struct ev_err *err)
{
	const struct ev_plan_key *e = ev_plan_find(f->key);
	const json_t *v = ev_config_get(plan, f->key);
	long long n = 0;
	double x = 0;
	const char *s;
	int r = 0, b;

	if (e == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, file, "'%s' is not in the plan's schema",
		    f->key);
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
	case EV_PLAN_CHOICE:
		if ((r = ev_config_str(plan, e->key, &s, file, err)) != 1)
			break;
		if ((n = ev_plan_word_index(e->words, s)) == -1) {
			char want[256];

			ev_plan_words_text(e->words, want, sizeof want);
			return ev_err_set(err, EV_EXIT_USAGE, file, "'%s' must be %s: '%s'",
			    e->key, want, s);
		}
		break;
	default:
		return ev_err_set(err, EV_EXIT_RUNTIME, file, "'%s' is not a number", e->key);
	}
	if (r == -1)
		return -1;
	if (r == 1 && !kept)
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
		if (read_field(plan, file, &fields[i], keep != NULL && keep(fields[i].value),
		    err) == -1)
			return -1;
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
