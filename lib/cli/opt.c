/* opt.c: a command's options from one table.  See opt.h. */
#include "opt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#ifndef EV_VERSION
#define EV_VERSION "0.0.0"
#endif

/* Long-only options are numbered from here by their index in the table. */
#define OPT_TABLE_BASE		0x2000
#define OPT_LIST_OPTIONS	(EV_OPT_FIRST_FREE + 0x100)

#define HELP_COLUMN	22	/* where an option's help starts */
#define HELP_WIDTH	79

/* Whether o holds a whole number (int, long or long long). */
static int
is_whole(const struct ev_opt *o)
{
	return o->type == EV_OPT_TYPE_INT || o->type == EV_OPT_TYPE_LONG ||
	    o->type == EV_OPT_TYPE_LLONG;
}

/* Store the whole number n in o's value, of o's type. */
static void
store_whole(const struct ev_opt *o, long long n)
{
	if (o->type == EV_OPT_TYPE_INT)
		*(int *)o->value = (int)n;
	else if (o->type == EV_OPT_TYPE_LONG)
		*(long *)o->value = (long)n;
	else
		*(long long *)o->value = n;
}

/* Whether the plan schema's entry e passes in a plan read by cli's command:
 * another stage's key, a key of the command's own in a section that its
 * code checks (EV_PLAN_ANY: "routing.rules"), or a section ("text.*") of the
 * command's own whose keys its table does not declare; the command's other
 * keys are those of its table. */
static int
foreign_key(const struct ev_cli *cli, const struct ev_opt *opts, const struct ev_plan_key *e)
{
	size_t n = strlen(e->key);

	if (strcmp(e->stage, cli->prog) != 0)
		return 1;
	if (n < 2 || strcmp(e->key + n - 2, ".*") != 0)
		/* in a section, read by the command's own code ("routing.rules");
		 * a top-level one ("ef_search") is of a file of the command alone */
		return e->type == EV_PLAN_ANY && strchr(e->key, '.') != NULL;
	for (; opts->type != EV_OPT_TYPE_END; opts++)
		if (opts->key != NULL && strncmp(opts->key, e->key, n - 1) == 0)
			return 0;
	return 1;
}

static size_t
count_opts(const struct ev_opt *opts)
{
	size_t n = 0;

	while (opts[n].type != EV_OPT_TYPE_END)
		n++;
	return n;
}

/* The option's name as a user wrote it, for messages: "--level" or "-k". */
static const char *
flag_name(const struct ev_opt *o, char *buf, size_t size)
{
	if (o->long_name != NULL && !(o->short_name != 0 && o->long_name[0] == o->short_name &&
	    o->long_name[1] == '\0'))
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

/* The values of the options given as flags, for ev_opt_given(). */
static const void *given[64];
static size_t ngiven;

static void
mark_given(const struct ev_opt *o)
{
	size_t i;

	for (i = 0; i < ngiven && given[i] != o->value; i++)
		;
	if (i == ngiven && o->value != NULL && ngiven < sizeof given / sizeof given[0])
		given[ngiven++] = o->value;
}

int
ev_opt_given(const void *value)
{
	size_t i;

	for (i = 0; i < ngiven; i++)
		if (given[i] == value)
			return 1;
	return 0;
}

void
ev_opt_bad_value(struct ev_cli *cli, const char *src, const char *want, const char *arg)
{
	if (src[0] != '-') {
		fprintf(stderr, "%s: %s must be %s: '%s'\n", cli->prog, src, want, arg);
		exit(EV_EXIT_USAGE);
	}
	ev_cli_usage_error(cli, "%s takes %s: '%s'", src, want, arg);
}

/* The word of index i of a choice, into buf. */
static const char *
choice_word(const char *words, int i, char *buf, size_t size)
{
	const char *p = words, *bar;

	for (; i > 0 && (bar = strchr(p, '|')) != NULL; i--)
		p = bar + 1;
	snprintf(buf, size, "%.*s", (int)strcspn(p, "|"), p);
	return buf;
}

/* Set a choice from arg (src names it, as for ev_opt_fn). */
static void
set_choice(struct ev_cli *cli, const struct ev_opt *o, const char *src, const char *arg)
{
	char want[256];
	int i = ev_plan_word_index(o->argh, arg);

	if (i == -1)
		ev_opt_bad_value(cli, src, ev_plan_words_text(o->argh, want, sizeof want), arg);
	*(int *)o->value = i;
	if (o->fn != NULL)
		o->fn(cli, src, arg, o->value);
}

/* A number from a flag, checked against the option's range. */
static void
set_number(struct ev_cli *cli, const struct ev_opt *o, const char *src, const char *arg)
{
	long long n;
	double x;

	switch (o->type) {
	case EV_OPT_TYPE_INT:
	case EV_OPT_TYPE_LONG:
	case EV_OPT_TYPE_LLONG:
		if (ev_parse_count(arg, (long long)o->min, (long long)o->max, &n) == -1)
			ev_cli_usage_error(cli, "%s takes a whole number from %lld to %lld: '%s'",
			    src, (long long)o->min, (long long)o->max, arg);
		store_whole(o, n);
		break;
	default:
		if (ev_parse_double(arg, o->min, o->max, &x) == -1)
			ev_cli_usage_error(cli, "%s takes a number from %g to %g: '%s'",
			    src, o->min, o->max, arg);
		*(double *)o->value = x;
	}
}

/* ---- A command's section of a plan (ev_opt_parse_section) ---------------- */

/* Whether cli's config is a file of the command alone: it has no section's
 * first part ("lanes" of "lanes.vector"), nor any other key only a plan
 * has (ev_plan_is_plan(): a plan whose lanes take their defaults). */
static int
section_flat(const struct ev_cli *cli, const char *section)
{
	char top[64];

	if (cli->config_path == NULL || cli->config == NULL)
		return 0;	/* no file: the table as declared */
	snprintf(top, sizeof top, "%.*s", (int)strcspn(section, "."), section);
	return ev_config_get(cli->config, top) == NULL && !ev_plan_is_plan(cli->config);
}

/* The table with the keys under the section read at the top level, when the
 * config is the command's own (malloc'd: *copy, freed by the caller), else
 * opts itself. */
static const struct ev_opt *
section_opts(const struct ev_cli *cli, const char *section, int alone, const struct ev_opt *opts,
    struct ev_opt **copy)
{
	size_t n = count_opts(opts), len = strlen(section);

	*copy = NULL;
	if (!alone || !section_flat(cli, section))
		return opts;
	if ((*copy = malloc((n + 1) * sizeof **copy)) == NULL) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
	memcpy(*copy, opts, (n + 1) * sizeof **copy);
	for (size_t i = 0; i < n; i++)
		if (opts[i].key != NULL && strncmp(opts[i].key, section, len) == 0 &&
		    opts[i].key[len] == '.')
			(*copy)[i].key = opts[i].key + len + 1;
	return *copy;
}

/* ---- A section's older name (ev_opt_alias) ------------------------------- */

/* Whether key is under section ("lanes.text.k" of "lanes.text"). */
static int
under_section(const char *key, const char *section, size_t len)
{
	return key != NULL && strncmp(key, section, len) == 0 && key[len] == '.';
}

struct ev_opt *
ev_opt_alias(const struct ev_opt *opts, const char *section, const char *alias)
{
	size_t n = count_opts(opts), len = strlen(section), extra = 0, text = 0, k = 0;
	struct ev_opt *t;
	char *s;

	for (size_t i = 0; i < n; i++)
		if (under_section(opts[i].key, section, len)) {
			extra++;
			text += strlen(alias) + strlen(opts[i].key) - len + 1;
		}
	if ((t = malloc((n + extra + 1) * sizeof *t + text)) == NULL)
		return NULL;
	s = (char *)(t + n + extra + 1);
	for (size_t i = 0; i <= n; i++) {
		if (i < n && under_section(opts[i].key, section, len)) {
			t[k] = opts[i];
			t[k].short_name = 0;
			t[k].long_name = NULL;
			t[k].key = s;
			s += sprintf(s, "%s%s", alias, opts[i].key + len) + 1;
			k++;
		}
		t[k++] = opts[i];
	}
	return t;
}

/* ---- Keys of two forms (ev_opt_fit_forms) -------------------------------- */

/* The schema key of a table key under section or alias ("text.feedback" is
 * "lanes.text.feedback"), into buf; *in_alias says which. */
static const char *
schema_key(const char *key, const char *section, const char *alias, char *buf, size_t size,
    int *in_alias)
{
	size_t alen = alias != NULL ? strlen(alias) : 0;

	*in_alias = alias != NULL && under_section(key, alias, alen);
	if (*in_alias)
		snprintf(buf, size, "%s%s", section, key + alen);
	else
		snprintf(buf, size, "%s", key);
	return buf;
}

void
ev_opt_fit_forms(struct ev_opt *t, const json_t *cfg, const char *section, const char *alias)
{
	static union { int i; long l; long long ll; double d; } dropped;

	if (cfg == NULL)
		return;	/* no file: every key, as --list-options shows them */
	for (; t->type != EV_OPT_TYPE_END; t++) {
		char canon[256], own[256], *dot;
		const json_t *v, *other;
		int in_alias, mapping;

		if (t->key == NULL)
			continue;
		schema_key(t->key, section, alias, canon, sizeof canon, &in_alias);
		mapping = !ev_plan_two_forms(canon);
		if (mapping && ((dot = strrchr(canon, '.')) == NULL ||
		    (*dot = '\0', !ev_plan_two_forms(canon))))
			continue;	/* neither form of a key of two */
		/* canon is now the number's key; own the same in t's section */
		if (in_alias)
			snprintf(own, sizeof own, "%s%s", alias, canon + strlen(section));
		else
			snprintf(own, sizeof own, "%s", canon);
		v = ev_config_get(cfg, own);
		other = ev_config_get(cfg, canon);
		if (json_is_object(v) != mapping)
			t->key = NULL;
		else if (in_alias && v != NULL && other != NULL &&
		    json_is_object(other) != json_is_object(v))
			t->value = &dropped;
	}
}

/* Apply a flag's argument (NULL for a bool). */
static void
apply_flag(struct ev_cli *cli, const struct ev_opt *o, const char *arg)
{
	char name[64];

	flag_name(o, name, sizeof name);
	mark_given(o);
	switch (o->type) {
	case EV_OPT_TYPE_BOOL:
		*(int *)o->value = 1;
		break;
	case EV_OPT_TYPE_STR:
		*(const char **)o->value = arg;
		break;
	case EV_OPT_TYPE_FUNC:
		o->fn(cli, name, arg, o->value);
		break;
	case EV_OPT_TYPE_CHOICE:
		set_choice(cli, o, name, arg);
		break;
	default:
		set_number(cli, o, name, arg);
		if (o->fn != NULL)
			o->fn(cli, name, arg, o->value);
	}
}

/* What names a key of cli's config in messages (ev_opt_fn's src):
 * "FILE:LINE: 'key'". */
static const char *
config_src(const struct ev_cli *cli, const char *path, char *buf, size_t size)
{
	char where[EV_WHERE_MAX];

	snprintf(buf, size, "%s: '%s'", ev_config_where(cli->config, path, cli->config_path, where,
	    sizeof where), path);
	return buf;
}

/* A FUNC option's config key: a scalar, or with "name.*" each entry of a
 * mapping as "NAME=VALUE". */
static void
apply_config_func(struct ev_cli *cli, const struct ev_opt *o)
{
	size_t klen = strlen(o->key);
	char src[1200], text[64], arg[1100], path[256], entry[600];
	const char *t;
	json_t *v;

	if (klen > 2 && strcmp(o->key + klen - 2, ".*") == 0) {
		const char *name;
		json_t *x;

		snprintf(path, sizeof path, "%.*s", (int)(klen - 2), o->key);
		if ((v = ev_config_get(cli->config, path)) == NULL)
			return;
		if (!json_is_object(v))
			ev_cli_usage_error(cli, "%s must be a mapping of names to values",
			    config_src(cli, path, src, sizeof src));
		json_object_foreach(v, name, x) {
			snprintf(entry, sizeof entry, "%s.%s", path, name);
			config_src(cli, entry, src, sizeof src);
			if ((t = ev_plan_scalar_text(x, text, sizeof text)) == NULL)
				ev_cli_usage_error(cli, "%s must be a single value", src);
			snprintf(arg, sizeof arg, "%s=%s", name, t);
			o->fn(cli, src, arg, o->value);
		}
		return;
	}
	if ((v = ev_config_get(cli->config, o->key)) == NULL)
		return;
	config_src(cli, o->key, src, sizeof src);
	if ((t = ev_plan_scalar_text(v, text, sizeof text)) == NULL)
		ev_cli_usage_error(cli, "%s must be a single value", src);
	o->fn(cli, src, t, o->value);
}

/* A choice's config key: one of its words.  Returns 1 when set, 0 when
 * absent, -1 with *err set when not a string. */
static int
apply_config_choice(struct ev_cli *cli, const struct ev_opt *o, struct ev_err *err)
{
	char src[1200];
	const char *s;
	int r = ev_config_str(cli->config, o->key, &s, cli->config_path, err);

	if (r == 1) {
		config_src(cli, o->key, src, sizeof src);
		if (ev_plan_word_index(o->argh, s) < 0)
			set_choice(cli, o, src, s);	/* says what is wrong; exits */
		*(int *)o->value = ev_plan_word_index(o->argh, s);
		if (o->fn != NULL)
			o->fn(cli, src, NULL, o->value);	/* NULL: not a flag */
	}
	return r;
}

/* Every config key of the table; each is checked as the flag is. */
static void
apply_config(struct ev_cli *cli, const struct ev_opt *o)
{
	const char *file = cli->config_path;
	struct ev_err err = { 0 };
	long long n;
	double x;
	int r = 0;

	for (; o->type != EV_OPT_TYPE_END; o++) {
		if (o->key == NULL)
			continue;
		switch (o->type) {
		case EV_OPT_TYPE_BOOL:
			r = ev_config_bool(cli->config, o->key, o->value, file, &err);
			break;
		case EV_OPT_TYPE_INT:
		case EV_OPT_TYPE_LONG:
		case EV_OPT_TYPE_LLONG:
			r = ev_config_int(cli->config, o->key, (long long)o->min, (long long)o->max,
			    &n, file, &err);
			if (r == 1)
				store_whole(o, n);
			if (r == 1 && o->fn != NULL)
				o->fn(cli, o->key, NULL, o->value);
			break;
		case EV_OPT_TYPE_NUM:
			r = ev_config_num(cli->config, o->key, o->min, o->max, &x, file, &err);
			if (r == 1)
				*(double *)o->value = x;
			break;
		case EV_OPT_TYPE_STR:
			r = ev_config_str(cli->config, o->key, o->value, file, &err);
			break;
		case EV_OPT_TYPE_FUNC:
			apply_config_func(cli, o);
			r = 0;
			break;
		case EV_OPT_TYPE_CHOICE:
			r = apply_config_choice(cli, o, &err);
			break;
		case EV_OPT_TYPE_END:
			break;
		}
		if (r == -1)
			ev_cli_config_error(cli, &err);
	}
}

/* The config keys the command knows: the table's, cmd's extra ones and,
 * with reads_plan, the other stages' keys of the plan schema. */
static const char **
known_keys(const struct ev_cli *cli, const struct ev_opt_cmd *cmd, const struct ev_opt *opts)
{
	size_t n = count_opts(opts), extra = 0, plan = 0, i, k = 0;
	const char **keys;

	while (cmd->extra_keys != NULL && cmd->extra_keys[extra] != NULL)
		extra++;
	while (cmd->reads_plan && ev_plan_keys[plan] != NULL)
		plan++;
	if ((keys = malloc((n + extra + plan + 1) * sizeof *keys)) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		if (opts[i].key != NULL)
			keys[k++] = opts[i].key;
	for (i = 0; i < extra; i++)
		keys[k++] = cmd->extra_keys[i];
	for (i = 0; i < plan; i++)
		if (foreign_key(cli, opts, ev_plan_find(ev_plan_keys[i])))
			keys[k++] = ev_plan_keys[i];
	keys[k] = NULL;
	return keys;
}

/* keys (NULL-terminated, as known_keys() makes them) and the entries of
 * the mapping each key of two forms among them takes ("lanes.text.feedback":
 * "lanes.text.feedback.docs", ...): the keys the unknown-key check accepts.
 * NULL when out of memory. */
static const char **
with_forms(const char **keys)
{
	size_t n = 0, nf = 0, k;
	const char **all;

	while (keys[n] != NULL)
		n++;
	while (ev_plan_form_keys[nf] != NULL)
		nf++;
	if ((all = malloc((n + nf + 1) * sizeof *all)) == NULL)
		return NULL;
	memcpy(all, keys, n * sizeof *all);
	k = n;
	for (size_t f = 0; f < nf; f++) {
		const char *form = ev_plan_form_keys[f];
		size_t len = (size_t)(strrchr(form, '.') - form);

		for (size_t i = 0; i < n; i++)
			if (strlen(keys[i]) == len && strncmp(keys[i], form, len) == 0) {
				all[k++] = form;
				break;
			}
	}
	all[k] = NULL;
	return all;
}

/* The option's default as --help shows it, in buf; NULL for none. */
static const char *
default_text(const struct ev_opt *o, char *buf, size_t size)
{
	if (o->shown_default != NULL)
		return o->shown_default;
	switch (o->type) {
	case EV_OPT_TYPE_INT:
		snprintf(buf, size, "%d", *(const int *)o->value);
		return buf;
	case EV_OPT_TYPE_LONG:
		snprintf(buf, size, "%ld", *(const long *)o->value);
		return buf;
	case EV_OPT_TYPE_LLONG:
		snprintf(buf, size, "%lld", *(const long long *)o->value);
		return buf;
	case EV_OPT_TYPE_NUM:
		snprintf(buf, size, "%g", *(const double *)o->value);
		return buf;
	case EV_OPT_TYPE_STR:
		return *(const char *const *)o->value;
	case EV_OPT_TYPE_CHOICE:
		if (*(const int *)o->value < 0)
			return NULL;
		return choice_word(o->argh, *(const int *)o->value, buf, size);
	default:
		return NULL;
	}
}

/* Write text from column col, wrapped at HELP_WIDTH, continuation lines at
 * HELP_COLUMN.  Returns nothing; words longer than a line stand alone. */
static void
write_wrapped(FILE *fp, const char *text, int col)
{
	const char *p = text;

	while (*p != '\0') {
		const char *end = p;
		int len;

		while (*end != '\0' && *end != ' ')
			end++;
		len = (int)(end - p);
		if (col > HELP_COLUMN && col + 1 + len > HELP_WIDTH) {
			fprintf(fp, "\n%*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
		} else if (col > HELP_COLUMN) {
			fputc(' ', fp);
			col++;
		}
		fwrite(p, 1, (size_t)len, fp);
		col += len;
		p = *end == ' ' ? end + 1 : end;
	}
	fputc('\n', fp);
}

/* ---- The usage lines, from the forms and the table ---------------------- */

#define USAGE_SLOT	"[OPTIONS]"

/* Whether c may continue a flag's name. */
static int
is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '-' || c == '_';
}

/* Whether text names the flag ("--window", "-k") as a word of its own. */
static int
names_flag(const char *text, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = text; (p = strstr(p, flag)) != NULL; p++)
		if ((p == text || !is_name_char((unsigned char)p[-1])) &&
		    !is_name_char((unsigned char)p[n]))
			return 1;
	return 0;
}

/* Whether the forms name the option o by either of its names. */
static int
forms_name(const char *forms, const struct ev_opt *o)
{
	char flag[80];

	if (o->long_name != NULL) {
		snprintf(flag, sizeof flag, "--%s", o->long_name);
		if (names_flag(forms, flag))
			return 1;
	}
	if (o->short_name != 0) {
		snprintf(flag, sizeof flag, "-%c", o->short_name);
		if (names_flag(forms, flag))
			return 1;
	}
	return 0;
}

/* Append to b (of size, used *n) the usage item of o: "[--window N]",
 * "[-k N]", "[--all-terms]", "[--summary[=text|json]]", and " ..." after a
 * handler's NAME=VALUE ("--weight NAME=X ..."), given once per name. */
static void
usage_item(char *b, size_t size, size_t *n, const struct ev_opt *o)
{
	char name[64];
	int repeats = o->type == EV_OPT_TYPE_FUNC && o->argh != NULL && o->argh[0] != '[' &&
	    strchr(o->argh, '=') != NULL;

	if (*n >= size)
		return;
	*n += (size_t)snprintf(b + *n, size - *n, " [%s%s%s%s]", flag_name(o, name, sizeof name),
	    o->argh == NULL || o->argh[0] == '[' ? "" : " ", o->argh != NULL ? o->argh : "",
	    repeats ? " ..." : "");
}

/* The generated part of the usage: every option of the table with a flag
 * that the forms do not name, in the table's order, then the options every
 * command has. */
static char *
usage_options(const char *forms, const struct ev_opt *o)
{
	size_t size = 256, n = 0;
	char *b;

	for (const struct ev_opt *p = o; p->type != EV_OPT_TYPE_END; p++)
		size += 32 + (p->long_name != NULL ? strlen(p->long_name) : 0) +
		    (p->argh != NULL ? strlen(p->argh) : 0);
	if ((b = malloc(size)) == NULL)
		return NULL;
	b[0] = '\0';
	for (; o->type != EV_OPT_TYPE_END; o++)
		if ((o->long_name != NULL || o->short_name != 0) && !forms_name(forms, o))
			usage_item(b, size, &n, o);
	if (n < size)
		snprintf(b + n, size - n, " [--config FILE.yaml] [--log FILE]");
	return b[0] == ' ' ? memmove(b, b + 1, strlen(b)) : b;
}

/* The end of the word at p: a bracketed group ("[--all | --quiet]") is one
 * word, so that a line never breaks inside it. */
static const char *
usage_word_end(const char *p)
{
	int depth = 0;

	for (; *p != '\0' && *p != '\n' && (depth > 0 || *p != ' '); p++)
		depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
	return p;
}

/* Write the usage line of one form (text, its "[OPTIONS]" already replaced),
 * wrapped at HELP_WIDTH under the word after the program's name. */
static void
write_form(FILE *fp, const char *text, int first)
{
	const char *p = text + strcspn(text, " ");
	int col = fprintf(fp, "%s%.*s", first ? "usage: " : "       ", (int)(p - text), text);
	int indent = col + 1;

	while (*p == ' ')
		p++;
	while (*p != '\0') {
		const char *end = usage_word_end(p);

		if (col > indent && col + 1 + (int)(end - p) > HELP_WIDTH) {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
		} else {
			fputc(' ', fp);
			col++;
		}
		col += fprintf(fp, "%.*s", (int)(end - p), p);
		for (p = end; *p == ' '; p++)
			;
	}
	fputc('\n', fp);
}

void
ev_opt_usage(FILE *fp, const char *synopsis, const struct ev_opt *opts)
{
	char *generated = usage_options(synopsis, opts), *text;
	const char *form = synopsis;
	size_t size = strlen(synopsis) + (generated != NULL ? strlen(generated) : 0) + 1;

	if (generated == NULL || (text = malloc(size)) == NULL) {
		fprintf(fp, "%s\n", synopsis);	/* out of memory: the forms as written */
		free(generated);
		return;
	}
	for (int first = 1; *form != '\0'; first = 0) {
		size_t len = strcspn(form, "\n");
		const char *slot = strstr(form, USAGE_SLOT);

		if (slot != NULL && slot < form + len)
			snprintf(text, size, "%.*s%s%.*s", (int)(slot - form), form, generated,
			    (int)(form + len - slot - strlen(USAGE_SLOT)), slot + strlen(USAGE_SLOT));
		else
			snprintf(text, size, "%.*s", (int)len, form);
		write_form(fp, text, first);
		form += len + (form[len] == '\n');
	}
	free(text);
	free(generated);
}

void
ev_opt_help(FILE *fp, const struct ev_opt_cmd *cmd, const struct ev_opt *o)
{
	ev_opt_usage(fp, cmd->synopsis, o);
	fprintf(fp, "\n%s\n\n", cmd->about);
	for (; o->type != EV_OPT_TYPE_END; o++) {
		char head[96], text[512], def[64];
		const char *d;
		int n;

		if (o->long_name == NULL && o->short_name == 0)
			continue;	/* a config key alone */
		if (o->short_name != 0 && o->long_name != NULL)
			n = snprintf(head, sizeof head, "  -%c, --%s", o->short_name, o->long_name);
		else if (o->long_name != NULL)
			n = snprintf(head, sizeof head, "  --%s", o->long_name);
		else
			n = snprintf(head, sizeof head, "  -%c", o->short_name);
		if (o->argh != NULL)
			n += snprintf(head + n, sizeof head - (size_t)n, "%s%s",
			    o->argh[0] == '[' ? "" : " ", o->argh);
		n = snprintf(text, sizeof text, "%s", o->help);
		if (is_whole(o))
			n += snprintf(text + n, sizeof text - (size_t)n, " (%lld to %lld",
			    (long long)o->min, (long long)o->max);
		else if (o->type == EV_OPT_TYPE_NUM)
			n += snprintf(text + n, sizeof text - (size_t)n, " (%g to %g", o->min, o->max);
		d = default_text(o, def, sizeof def);
		if (d != NULL)
			n += snprintf(text + n, sizeof text - (size_t)n, "%sdefault %s)",
			    (is_whole(o) || o->type == EV_OPT_TYPE_NUM) ? "; " : " (", d);
		else if (is_whole(o) || o->type == EV_OPT_TYPE_NUM)
			snprintf(text + n, sizeof text - (size_t)n, ")");
		fputs(head, fp);
		if ((int)strlen(head) + 2 > HELP_COLUMN) {
			fprintf(fp, "\n%*s", HELP_COLUMN, "");
		} else {
			fprintf(fp, "%*s", HELP_COLUMN - (int)strlen(head), "");
		}
		write_wrapped(fp, text, HELP_COLUMN);
	}
	fputs("  --config FILE.yaml  defaults for the options (flags override the file)\n"
	    "  --log FILE          append a ToolRun JSON line for this run to FILE\n"
	    "  --help, --version\n", fp);
}

static const char *const type_names[] = {
	"end", "bool", "int", "int", "int", "num", "str", "func", "choice"
};

void
ev_opt_list(FILE *fp, const struct ev_opt *o)
{
	for (; o->type != EV_OPT_TYPE_END; o++) {
		char def[64], lo[32] = "-", hi[32] = "-";
		const char *d = default_text(o, def, sizeof def);

		if (is_whole(o)) {
			snprintf(lo, sizeof lo, "%lld", (long long)o->min);
			snprintf(hi, sizeof hi, "%lld", (long long)o->max);
		} else if (o->type == EV_OPT_TYPE_NUM) {
			snprintf(lo, sizeof lo, "%g", o->min);
			snprintf(hi, sizeof hi, "%g", o->max);
		}
		fprintf(fp, "%s\t%c\t%s\t%s\t%s\t%s\t%s\n", o->long_name ? o->long_name : "-",
		    o->short_name ? o->short_name : '-', o->key ? o->key : "-",
		    type_names[o->type], lo, hi, d ? d : "-");
	}
	fputs("config\t-\t-\tstr\t-\t-\t-\nlog\t-\t-\tstr\t-\t-\t-\n"
	    "help\t-\t-\tbool\t-\t-\t-\nversion\t-\t-\tbool\t-\t-\t-\n", fp);
}

static void
exit_after_stdout(void)
{
	exit(fflush(stdout) == 0 ? EV_EXIT_OK : EV_EXIT_RUNTIME);
}

int
ev_opt_parse(struct ev_cli *cli, const struct ev_opt_cmd *cmd, const struct ev_opt *opts)
{
	static const struct option common[] = {
		EV_CLI_COMMON_OPTIONS,
		{ "list-options", no_argument, NULL, OPT_LIST_OPTIONS },
	};
	size_t n = count_opts(opts), i, nl = 0, nc = sizeof common / sizeof common[0];
	struct option *longopts;
	char *shortopts, *s;
	const char **keys, **known = NULL;
	int ch;

	if ((longopts = calloc(n + nc + 1, sizeof *longopts)) == NULL ||
	    (shortopts = malloc(3 * n + 2)) == NULL || (keys = known_keys(cli, cmd, opts)) == NULL ||
	    (known = with_forms(keys)) == NULL) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
	s = shortopts;
	for (i = 0; i < n; i++) {
		const struct ev_opt *o = &opts[i];
		int has_arg = o->type == EV_OPT_TYPE_BOOL ? no_argument :
		    o->argh != NULL && o->argh[0] == '[' ? optional_argument : required_argument;

		if (o->long_name != NULL) {
			longopts[nl].name = o->long_name;
			longopts[nl].has_arg = has_arg;
			longopts[nl].val = OPT_TABLE_BASE + (int)i;
			nl++;
		}
		if (o->short_name != 0) {
			*s++ = (char)o->short_name;
			if (has_arg != no_argument)
				*s++ = ':';
			if (has_arg == optional_argument)
				*s++ = ':';
		}
	}
	*s = '\0';
	memcpy(longopts + nl, common, sizeof common);

	ev_cli_check_config(cli, keys, known);
	free(keys);
	free(known);
	apply_config(cli, opts);
	while ((ch = getopt_long(cli->argc, cli->argv, shortopts, longopts, NULL)) != -1) {
		const struct ev_opt *o = NULL;

		if (ch >= OPT_TABLE_BASE && ch < OPT_TABLE_BASE + (int)n) {
			o = &opts[ch - OPT_TABLE_BASE];
		} else {
			for (i = 0; i < n && ch < 0x100; i++)
				if (opts[i].short_name == ch)
					o = &opts[i];
		}
		if (o != NULL) {
			apply_flag(cli, o, optarg);
			continue;
		}
		switch (ch) {
		case EV_OPT_HELP:
			ev_opt_help(stdout, cmd, opts);
			exit_after_stdout();
			break;
		case OPT_LIST_OPTIONS:
			ev_opt_list(stdout, opts);
			exit_after_stdout();
			break;
		default:
			/* --version; --config and --log, read by ev_cli_init(); or
			 * getopt's own message for an unknown option or a missing
			 * value, then a hint and exit 2 */
			ev_cli_common(cli, ch);
		}
	}
	free(longopts);
	free(shortopts);
	return optind;
}

/* Exit 2 when a section of the table's keys is not a mapping ("lanes.text:
 * 3"), before its keys would be warned about as unknown. */
static void
check_shapes(struct ev_cli *cli, const struct ev_opt_cmd *cmd, const struct ev_opt *opts)
{
	struct ev_err err = { 0 };
	const char **keys = known_keys(cli, cmd, opts);

	if (keys == NULL)
		return;	/* ev_opt_parse() says so */
	if (cli->config != NULL &&
	    ev_config_check_shape(cli->config, keys, cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
	free(keys);
}

int
ev_opt_parse_section(struct ev_cli *cli, const struct ev_opt_cmd *cmd, const struct ev_opt *opts,
    const char *section, int alone)
{
	struct ev_opt *flat;
	int argi;

	opts = section_opts(cli, section, alone, opts, &flat);
	if (flat == NULL && cmd->reads_plan)
		check_shapes(cli, cmd, opts);
	argi = ev_opt_parse(cli, cmd, opts);
	free(flat);
	return argi;
}
