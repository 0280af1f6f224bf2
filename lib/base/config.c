/* config.c: YAML configuration files as JSON trees.  See config.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MAX_DEPTH 128		/* nesting deeper than any real config */

int
ev_config_number_text(const char *s)
{
	int digits = 0, dot = 0, exp = 0;

	if (*s == '-' || *s == '+')
		s++;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digits++;
		else if (*s == '.' && !dot && !exp)
			dot = 1;
		else if ((*s == 'e' || *s == 'E') && digits && !exp) {
			exp = 1;
			if (s[1] == '-' || s[1] == '+')
				s++;
			if (s[1] == '\0')
				return 0;
		} else
			return 0;
	}
	return digits == 0 ? 0 : dot || exp ? 2 : 1;
}

/* The value a plain (unquoted) scalar stands for, by YAML 1.2's core schema.
 * Returns a new reference, or NULL with *range set when the number does not
 * fit (else NULL when out of memory). */
static json_t *
plain_scalar(const char *s, size_t n, int *range)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const trues[] = { "true", "True", "TRUE", NULL };
	static const char *const falses[] = { "false", "False", "FALSE", NULL };
	char *end;
	int i, kind;

	for (i = 0; nulls[i]; i++)
		if (strcmp(s, nulls[i]) == 0)
			return json_null();
	for (i = 0; trues[i]; i++)
		if (strcmp(s, trues[i]) == 0)
			return json_true();
	for (i = 0; falses[i]; i++)
		if (strcmp(s, falses[i]) == 0)
			return json_false();
	if ((kind = ev_config_number_text(s)) == 0)
		return json_stringn(s, n);
	errno = 0;
	if (kind == 1) {
		long long v = strtoll(s, &end, 10);

		*range = errno == ERANGE;
		return *range ? NULL : json_integer(v);
	} else {
		double d = strtod(s, &end);

		if (errno == ERANGE && fabs(d) < 1)
			errno = 0;	/* (too small for a double: its nearest, 0 or subnormal) */
		*range = errno == ERANGE || !isfinite(d);
		return *range ? NULL : json_real(d);
	}
}

/* One open collection while the tree is built. */
struct frame {
	json_t *node;		/* an object or an array */
	char *key;		/* an object's pending key, or NULL */
	char *path;		/* the node's dotted path ("" for the top level);
				 * NULL inside an array */
	size_t key_line;	/* the pending key's line */
};

/* The lines of the keys of the files parsed last (ev_config_line()): each
 * tree is held (a reference) until LINE_MAPS parses later, so that its
 * address names no other tree meanwhile. */
#define LINE_MAPS 8
static struct line_map {
	json_t *root;
	json_t *lines;		/* {"dotted.path": line} */
} line_maps[LINE_MAPS];
static unsigned line_next;

static void
remember_lines(json_t *root, json_t *lines)
{
	struct line_map *m = &line_maps[line_next++ % LINE_MAPS];

	json_decref(m->root);
	json_decref(m->lines);
	m->root = json_incref(root);
	m->lines = lines;
}

size_t
ev_config_line(const json_t *cfg, const char *path)
{
	for (int i = 0; cfg != NULL && i < LINE_MAPS; i++)
		if (line_maps[i].root == cfg)
			return (size_t)json_integer_value(json_object_get(line_maps[i].lines, path));
	return 0;
}

const char *
ev_config_where(const json_t *cfg, const char *path, const char *file, char *buf, size_t size)
{
	size_t line = ev_config_line(cfg, path);

	if (line == 0)
		return file;
	snprintf(buf, size, "%s:%zu", file, line);
	return buf;
}

/* The dotted path of the value the innermost open collection is about to
 * get (its pending key under its path), as a new string; NULL inside an
 * array, or for a key (or when out of memory: no line is then known). */
static char *
pending_path(const struct frame *st, int depth)
{
	const struct frame *top = depth > 0 ? &st[depth - 1] : NULL;
	char *p;

	if (top == NULL || top->path == NULL || top->key == NULL || !json_is_object(top->node))
		return NULL;
	if (asprintf(&p, "%s%s%s", top->path, top->path[0] ? "." : "", top->key) == -1)
		return NULL;
	return p;
}

/* Note the line of path (not NULL) in lines. */
static void
note_line(json_t *lines, const char *path, size_t line)
{
	if (path != NULL && lines != NULL)
		json_object_set_new(lines, path, json_integer((json_int_t)line));
}

static int
yaml_fail(yaml_parser_t *p, const char *name, struct ev_err *err)
{
	char where[EV_WHERE_MAX];

	if (p->error == YAML_MEMORY_ERROR)	/* not the file's fault */
		return ev_err_nomem(err);
	snprintf(where, sizeof where, "%s:%zu", name, p->problem_mark.line + 1);
	return ev_err_set(err, EV_EXIT_USAGE, where, "malformed YAML: %s%s%s",
	    p->problem ? p->problem : "syntax error", p->context ? " " : "",
	    p->context ? p->context : "");
}

/* Attach v (a new reference) to the innermost open collection, or make it the
 * root.  Returns 0 or -1 with *err set. */
static int
attach(struct frame *st, int depth, json_t **root, json_t *v, int is_scalar, const char *where,
    struct ev_err *err)
{
	struct frame *top;

	if (depth == 0) {
		*root = v;
		return 0;
	}
	top = &st[depth - 1];
	if (json_is_array(top->node))
		return json_array_append_new(top->node, v) == 0 ? 0 : ev_err_nomem(err);
	if (top->key == NULL) {
		if (!is_scalar || !json_is_string(v)) {
			json_decref(v);
			return ev_err_set(err, EV_EXIT_USAGE, where, "a key must be a plain string");
		}
		top->key = strdup(json_string_value(v));
		json_decref(v);
		return top->key ? 0 : ev_err_nomem(err);
	}
	if (json_object_get(top->node, top->key) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, where, "duplicate key '%s'", top->key);
		json_decref(v);
		return -1;
	}
	if (json_object_set_new(top->node, top->key, v) == -1)
		return ev_err_nomem(err);
	free(top->key);
	top->key = NULL;
	return 0;
}

json_t *
ev_config_parse(const char *text, size_t len, const char *name, struct ev_err *err)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	struct frame st[MAX_DEPTH];
	json_t *root = NULL, *v, *lines = json_object();
	char where[EV_WHERE_MAX], *path;
	int depth = 0, done = 0, docs = 0, failed = 0;
	size_t root_line = 1;	/* where the top-level value starts */

	if (!yaml_parser_initialize(&parser)) {
		ev_err_nomem(err);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done && !failed) {
		if (!yaml_parser_parse(&parser, &ev)) {
			failed = yaml_fail(&parser, name, err);
			break;
		}
		snprintf(where, sizeof where, "%s:%zu", name, ev.start_mark.line + 1);
		if (depth == 0 && root == NULL)
			root_line = ev.start_mark.line + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				failed = ev_err_set(err, EV_EXIT_USAGE, where,
				    "more than one YAML document in the file");
			break;
		case YAML_ALIAS_EVENT:
			failed = ev_err_set(err, EV_EXIT_USAGE, where,
			    "YAML aliases are not supported; write the value out");
			break;
		case YAML_SCALAR_EVENT: {
			const char *s = (const char *)ev.data.scalar.value;
			size_t n = ev.data.scalar.length;
			int range = 0;

			if (memchr(s, '\0', n) != NULL) {
				failed = ev_err_set(err, EV_EXIT_USAGE, where, "NUL byte in a value");
				break;
			}
			v = ev.data.scalar.plain_implicit ? plain_scalar(s, n, &range) :
			    json_stringn(s, n);
			if (v == NULL) {
				failed = range ? ev_err_set(err, EV_EXIT_USAGE, where,
				    "number out of range: '%.40s'", s) : ev_err_nomem(err);
				break;
			}
			if (depth > 0 && st[depth - 1].key == NULL)	/* a key */
				st[depth - 1].key_line = ev.start_mark.line + 1;
			path = pending_path(st, depth);
			note_line(lines, path, depth > 0 ? st[depth - 1].key_line : 0);
			free(path);
			failed = attach(st, depth, &root, v, 1, where, err);
			break;
		}
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth == MAX_DEPTH) {
				failed = ev_err_set(err, EV_EXIT_USAGE, where,
				    "nested deeper than %d levels", MAX_DEPTH);
				break;
			}
			v = ev.type == YAML_MAPPING_START_EVENT ? json_object() : json_array();
			path = depth == 0 ? strdup("") : pending_path(st, depth);
			note_line(lines, depth > 0 ? path : NULL, depth > 0 ? st[depth - 1].key_line : 0);
			if (v == NULL || attach(st, depth, &root, json_incref(v), 0, where, err) == -1) {
				json_decref(v);
				free(path);
				failed = -1;
				if (v == NULL)
					ev_err_nomem(err);
				break;
			}
			st[depth].node = v;
			st[depth].key = NULL;
			st[depth].path = json_is_object(v) ? path : (free(path), NULL);
			depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			json_decref(st[depth].node);
			free(st[depth].key);
			free(st[depth].path);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	while (depth > 0) {
		depth--;
		json_decref(st[depth].node);
		free(st[depth].key);
		free(st[depth].path);
	}
	yaml_parser_delete(&parser);
	if (failed) {
		json_decref(root);
		json_decref(lines);
		return NULL;
	}
	if (root == NULL || json_is_null(root)) {
		json_decref(root);
		json_decref(lines);
		return json_object();
	}
	if (!json_is_object(root)) {
		snprintf(where, sizeof where, "%s:%zu", name, root_line);
		ev_err_set(err, EV_EXIT_USAGE, where, "the top level must be a mapping of keys to values");
		json_decref(root);
		json_decref(lines);
		return NULL;
	}
	if (lines != NULL)
		remember_lines(root, lines);
	return root;
}

json_t *
ev_config_load(const char *path, struct ev_err *err)
{
	FILE *fp;
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	json_t *cfg = NULL;

	if (strcmp(path, "-") == 0) {
		ev_err_set(err, EV_EXIT_USAGE, path, "a configuration or plan is read from a file, "
		    "not standard input ('-'), which carries the records: name its YAML file");
		return NULL;
	}
	if ((fp = fopen(path, "r")) == NULL) {	/* bad usage, unless memory ran out */
		ev_err_set(err, errno == ENOMEM ? EV_EXIT_RUNTIME : EV_EXIT_USAGE, path,
		    "cannot open: %s", strerror(errno));
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *p;

			cap = cap ? cap * 2 : 8192;
			if (cap > (64u << 20)) {
				ev_err_set(err, EV_EXIT_USAGE, path,
				    "too large for a configuration file (over 64 MiB)");
				goto out;
			}
			if ((p = realloc(text, cap)) == NULL) {
				ev_err_nomem(err);
				ev_err_set_where(err, path);
				goto out;
			}
			text = p;
		}
		n = fread(text + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		ev_err_set(err, EV_EXIT_USAGE, path, "read error: %s", strerror(errno));
		goto out;
	}
	cfg = ev_config_parse(text, len, path, err);
out:
	free(text);
	fclose(fp);
	return cfg;
}

json_t *
ev_config_get(const json_t *cfg, const char *path)
{
	const char *dot;
	json_t *v = (json_t *)cfg;
	char key[256];

	while (v != NULL && *path) {
		if (!json_is_object(v))
			return NULL;
		dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		v = json_object_get(v, key);
		path += n + (dot != NULL);
	}
	return v != NULL && json_is_null(v) ? NULL : v;
}

static int
config_bad(const json_t *cfg, const char *file, const char *path, const char *want,
    struct ev_err *err)
{
	char where[EV_WHERE_MAX];

	return ev_err_set(err, EV_EXIT_USAGE, ev_config_where(cfg, path, file, where, sizeof where),
	    "'%s' must be %s", path, want);
}

int
ev_config_int(const json_t *cfg, const char *path, long long min, long long max,
    long long *out, const char *file, struct ev_err *err)
{
	json_t *v = ev_config_get(cfg, path);
	char want[128];

	if (v == NULL)
		return 0;
	snprintf(want, sizeof want, "a whole number from %lld to %lld", min, max);
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return config_bad(cfg, file, path, want, err);
	*out = json_integer_value(v);
	return 1;
}

int
ev_config_num(const json_t *cfg, const char *path, double min, double max,
    double *out, const char *file, struct ev_err *err)
{
	json_t *v = ev_config_get(cfg, path);
	char want[128];

	if (v == NULL)
		return 0;
	snprintf(want, sizeof want, "a number from %g to %g", min, max);
	if (!json_is_number(v) || json_number_value(v) < min || json_number_value(v) > max)
		return config_bad(cfg, file, path, want, err);
	*out = json_number_value(v);
	return 1;
}

int
ev_config_str(const json_t *cfg, const char *path, const char **out,
    const char *file, struct ev_err *err)
{
	json_t *v = ev_config_get(cfg, path);

	if (v == NULL)
		return 0;
	if (!json_is_string(v))
		return config_bad(cfg, file, path, "a string", err);
	*out = json_string_value(v);
	return 1;
}

int
ev_config_bool(const json_t *cfg, const char *path, int *out,
    const char *file, struct ev_err *err)
{
	json_t *v = ev_config_get(cfg, path);

	if (v == NULL)
		return 0;
	if (!json_is_boolean(v))
		return config_bad(cfg, file, path, "true or false", err);
	*out = json_is_true(v);
	return 1;
}

/* Whether the dotted path is accepted by known[] ("a.b", or "a.*" for a.b.c). */
static int
is_known(const char *path, const char *const *known)
{
	for (; *known; known++) {
		size_t n = strlen(*known);

		if (strcmp(path, *known) == 0)
			return 1;
		if (n >= 2 && strcmp(*known + n - 2, ".*") == 0 &&
		    strncmp(path, *known, n - 1) == 0)
			return 1;
	}
	return 0;
}

/* Whether some known[] entry lies below path (so path is a section). */
static int
is_section(const char *path, const char *const *known)
{
	size_t n = strlen(path);

	for (; *known; known++)
		if (strncmp(*known, path, n) == 0 && (*known)[n] == '.')
			return 1;
	return 0;
}

static int
walk_unknown(const json_t *obj, char *path, size_t len, size_t cap, const char *const *known,
    void (*warn)(const char *, void *), void *ctx)
{
	const char *key;
	json_t *v;
	int count = 0;

	json_object_foreach((json_t *)obj, key, v) {
		int n = snprintf(path + len, cap - len, "%s%s", len ? "." : "", key);

		if (n < 0 || (size_t)n >= cap - len)
			continue;
		/* a mapping with known keys below it is walked, even when its
		 * own key is known too (a key of two forms: a number, or a
		 * mapping of those keys) */
		if (json_is_object(v) && is_section(path, known))
			count += walk_unknown(v, path, len + (size_t)n, cap, known, warn, ctx);
		/* a section left empty ("diversity:" with only comments
		 * under it) is null: absent, as ev_config_get() takes it */
		else if (is_known(path, known) || (json_is_null(v) && is_section(path, known)))
			;
		else {
			warn(path, ctx);
			count++;
		}
		path[len] = '\0';
	}
	return count;
}

int
ev_config_unknown(const json_t *cfg, const char *const *known,
    void (*warn)(const char *path, void *ctx), void *ctx)
{
	char path[1024] = "";

	if (!json_is_object(cfg))
		return 0;
	return walk_unknown(cfg, path, 0, sizeof path, known, warn, ctx);
}

int
ev_config_check_shape(const json_t *cfg, const char *const *known, const char *file,
    struct ev_err *err)
{
	char section[1024];

	for (; *known; known++) {
		const char *dot = *known;
		json_t *v;

		/* every proper prefix "a", "a.b" of "a.b.c" is a section */
		while ((dot = strchr(dot, '.')) != NULL) {
			size_t n = (size_t)(dot - *known);

			if (n >= sizeof section)
				break;
			memcpy(section, *known, n);
			section[n] = '\0';
			v = ev_config_get(cfg, section);
			if (v != NULL && !json_is_object(v)) {
				char where[EV_WHERE_MAX];

				return ev_err_set(err, EV_EXIT_USAGE,
				    ev_config_where(cfg, section, file, where, sizeof where),
				    "'%s' must be a mapping of keys to values", section);
			}
			dot++;
		}
	}
	return 0;
}

/* Print cfg's value of key (a string as it is, anything else as JSON),
 * or with lines set, exactly one line: empty when absent, a string holding
 * a line break as JSON.  Returns 0, or -1 with *err set. */
static int
print_value(const json_t *plan, const char *key, int lines, FILE *out, struct ev_err *err)
{
	json_t *v = ev_config_get(plan, key);
	char *txt = NULL;

	if (json_is_string(v) && !(lines && strpbrk(json_string_value(v), "\r\n") != NULL))
		fprintf(out, "%s\n", json_string_value(v));
	else if (v != NULL && !json_is_null(v)) {
		if ((txt = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(10))) ==
		    NULL)
			return ev_err_nomem(err);
		fprintf(out, "%s\n", txt);
		free(txt);
	} else if (lines)
		putc('\n', out);
	return 0;
}

int
ev_config_list_check(const char *list, const char *name, struct ev_err *err)
{
	for (const char *p = list; ; p++) {
		size_t n = strcspn(p, ",");

		if (n == 0)
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "%s: '%s' holds an empty name: "
			    "give names separated by single commas, none at either end", name, list);
		if (p[n] == '\0')
			return 0;
		p += n;
	}
}

/* See config.h. */
int
ev_config_print_keys(const json_t *plan, const char *keys, const char *keys_name, FILE *out,
	const char *out_name, struct ev_err *err)
{
	int lines = strchr(keys, ',') != NULL;
	char key[256];

	if (ev_config_list_check(keys, keys_name, err) == -1)
		return -1;
	for (const char *k = keys, *e; ; k = e + 1) {
		size_t n = (e = strchr(k, ',')) != NULL ? (size_t)(e - k) : strlen(k);

		if (n >= sizeof key)
			return ev_err_set(err, EV_EXIT_USAGE, keys_name, "key too long: '%.*s'",
			    (int)n, k);
		memcpy(key, k, n);
		key[n] = '\0';
		if (print_value(plan, key, lines, out, err) == -1)
			return -1;
		if (e == NULL)
			break;
	}
	if (fflush(out) == EOF)
		return ev_err_set(err, EV_EXIT_RUNTIME, out_name, "write error: %s", strerror(errno));
	return 0;
}
