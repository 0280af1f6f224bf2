/* test_config.c: lib/base/config.c -- YAML to JSON trees: typed scalars, nested
 * keys, malformed YAML (the line named), a top level that is not a mapping,
 * unknown keys reported with dotted paths, typed look-ups. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "config.h"
#include "test_util.h"

static json_t *
parse_ok(const char *text)
{
	struct ev_err err = { 0 };
	json_t *v = ev_config_parse(text, strlen(text), "c.yaml", &err);

	cr_assert_not_null(v, "%s: %s", err.where, err.msg);
	return v;
}

static struct ev_err
parse_bad(const char *text)
{
	struct ev_err err = { 0 };
	json_t *v = ev_config_parse(text, strlen(text), "c.yaml", &err);

	cr_assert_null(v, "expected an error for: %s", text);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	return err;
}

/* parse_bad(text), whose error is at where and says msg (either NULL: not checked). */
static struct ev_err
refused_as(const char *text, const char *where, const char *msg)
{
	struct ev_err err = parse_bad(text);

	if (where != NULL)
		cr_assert_str_eq(err.where, where, "%s", text);
	if (msg != NULL)
		cr_assert_str_eq(err.msg, msg, "%s", text);
	return err;
}

static char *
dump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

Test(config, plain_scalars_are_typed_by_the_core_schema)
{
	json_t *v = parse_ok("i: 42\nneg: -7\nr: 2.5\ne: 1e3\nt: true\nf: False\nn: null\n"
	    "tilde: ~\ns: hello world\ny: yes\n");
	char *s = dump(v);

	cr_assert_str_eq(s, "{\"i\":42,\"neg\":-7,\"r\":2.5,\"e\":1000.0,\"t\":true,\"f\":false,"
	    "\"n\":null,\"tilde\":null,\"s\":\"hello world\",\"y\":\"yes\"}");
	free(s);
	json_decref(v);
}

Test(config, quoted_scalars_are_always_strings)
{
	json_t *v = parse_ok("a: \"42\"\nb: 'true'\nc: \"\"\n");
	char *s = dump(v);

	cr_assert_str_eq(s, "{\"a\":\"42\",\"b\":\"true\",\"c\":\"\"}");
	free(s);
	json_decref(v);
}

Test(config, nested_keys_are_found_by_dotted_path)
{
	json_t *v = parse_ok("text:\n  weights:\n    title: 2.5\n    body: 1\nlist: [1, 2]\n");

	cr_assert_eq(json_real_value(ev_config_get(v, "text.weights.title")), 2.5);
	cr_assert_eq(json_integer_value(ev_config_get(v, "text.weights.body")), 1);
	cr_assert(json_is_object(ev_config_get(v, "text.weights")));
	cr_assert_null(ev_config_get(v, "text.weights.none"));
	cr_assert_null(ev_config_get(v, "text.weights.title.deeper"));
	cr_assert(json_is_array(ev_config_get(v, "list")));
	json_decref(v);
}

Test(config, typed_lookups_check_type_and_range)
{
	json_t *v = parse_ok("k: 20\nx: 0.5\nname: abc\nflag: true\nsec:\n  n: \"3\"\n");
	struct ev_err err = { 0 };
	long long k = -1;
	double x = -1;
	const char *s = NULL;
	int b = -1;

	cr_assert_eq(ev_config_int(v, "k", 1, 100, &k, "c.yaml", &err), 1);
	cr_assert_eq(k, 20);
	cr_assert_eq(ev_config_int(v, "k", 1, 10, &k, "c.yaml", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "'k' must be a whole number from 1 to 10");
	cr_assert_eq(ev_config_int(v, "sec.n", 1, 10, &k, "c.yaml", &err), -1);
	cr_assert_str_eq(err.msg, "'sec.n' must be a whole number from 1 to 10");
	cr_assert_eq(ev_config_int(v, "absent", 1, 10, &k, "c.yaml", &err), 0);
	cr_assert_eq(k, 20);
	cr_assert_eq(ev_config_num(v, "x", 0, 1, &x, "c.yaml", &err), 1);
	cr_assert_eq(x, 0.5);
	cr_assert_eq(ev_config_num(v, "k", 0, 1, &x, "c.yaml", &err), -1);
	cr_assert_eq(ev_config_str(v, "name", &s, "c.yaml", &err), 1);
	cr_assert_str_eq(s, "abc");
	cr_assert_eq(ev_config_str(v, "k", &s, "c.yaml", &err), -1);
	cr_assert_str_eq(err.msg, "'k' must be a string");
	cr_assert_eq(ev_config_bool(v, "flag", &b, "c.yaml", &err), 1);
	cr_assert_eq(b, 1);
	cr_assert_eq(ev_config_bool(v, "name", &b, "c.yaml", &err), -1);
	cr_assert_str_eq(err.msg, "'name' must be true or false");
	json_decref(v);
}

Test(config, an_empty_file_is_an_empty_mapping)
{
	json_t *v = parse_ok("");

	cr_assert(json_is_object(v));
	cr_assert_eq(json_object_size(v), 0);
	json_decref(v);
	v = parse_ok("# only a comment\n");
	cr_assert_eq(json_object_size(v), 0);
	json_decref(v);
}

Test(config, malformed_yaml_names_the_line)
{
	struct ev_err err = refused_as("a: 1\nb: [1, 2\nc: 3\n", "c.yaml:3", NULL);

	cr_assert(strncmp(err.msg, "malformed YAML: ", 16) == 0, "%s", err.msg);
	refused_as("a: 1\nb: c: d\n", "c.yaml:2", NULL);
	refused_as("a:\n\tb: 1\n", "c.yaml:2", NULL);
}

Test(config, a_top_level_that_is_not_a_mapping_is_refused)
{
	refused_as("- a\n- b\n", NULL, "the top level must be a mapping of keys to values");
	refused_as("just a scalar\n", NULL, "the top level must be a mapping of keys to values");
}

/* config.h: "FILE:LINE: what" for a top level that is not a mapping too. */
Test(config, a_top_level_that_is_not_a_mapping_names_the_line)
{
	refused_as("# a list\n- a\n- b\n", "c.yaml:2", NULL);
}

Test(config, duplicate_keys_are_refused_with_their_line)
{
	refused_as("x: 1\ny:\n  z: 2\n  z: 3\n", "c.yaml:4", "duplicate key 'z'");
}

Test(config, aliases_several_documents_and_complex_keys_are_refused)
{
	refused_as("a: &x 1\nb: *x\n", "c.yaml:2",
	    "YAML aliases are not supported; write the value out");
	refused_as("a: 1\n---\nb: 2\n", NULL, "more than one YAML document in the file");
	refused_as("? [a]\n: 1\n", NULL, "a key must be a plain string");
}

Test(config, numbers_out_of_range_are_refused)
{
	refused_as("a: 1\nbig: 99999999999999999999\n", "c.yaml:2",
	    "number out of range: '99999999999999999999'");
	parse_bad("r: 1e999\n");
}

Test(config, a_number_too_small_for_a_double_is_its_nearest)
{
	json_t *v = parse_ok("r: 1e-400\n");

	cr_assert(json_is_real(json_object_get(v, "r")));
	cr_assert_eq(json_real_value(json_object_get(v, "r")), 0);
	json_decref(v);
}

Test(config, deep_nesting_is_refused_not_a_crash)
{
	size_t n = 1000, i;
	char *text = malloc(2 * n + 8);

	strcpy(text, "a: ");
	for (i = 0; i < n; i++)
		strcat(text, "[");
	parse_bad(text);
	free(text);
}

Test(config, nul_bytes_and_invalid_utf8_are_refused)
{
	struct ev_err err = { 0 };

	cr_assert_null(ev_config_parse("a: \"x\\0y\"\n", 10, "c.yaml", &err));
	cr_assert_null(ev_config_parse("a: caf\xe9\n", 8, "c.yaml", &err));
	cr_assert_eq(err.code, EV_EXIT_USAGE);
}

static void
collect(const char *path, void *ctx)
{
	strcat(ctx, path);
	strcat(ctx, " ");
}

Test(config, unknown_keys_are_reported_with_dotted_paths)
{
	static const char *const known[] = { "k", "text.weights.title", "min.*", NULL };
	json_t *v = parse_ok("k: 1\ncolour: red\ntext:\n  weights:\n    title: 2\n    body: 1\n"
	    "  other: 3\nmin:\n  map: 0.4\n  ndcg@10: 0.5\n");
	char seen[256] = "";

	cr_assert_eq(ev_config_unknown(v, known, collect, seen), 3);
	cr_assert_str_eq(seen, "colour text.weights.body text.other ");
	json_decref(v);
}

Test(config, a_scalar_where_a_section_is_known_is_unknown)
{
	static const char *const known[] = { "text.weights.title", NULL };
	json_t *v = parse_ok("text: 3\n");
	char seen[64] = "";

	cr_assert_eq(ev_config_unknown(v, known, collect, seen), 1);
	cr_assert_str_eq(seen, "text ");
	json_decref(v);
}

/* A key of two forms ("text.feedback": a number, or a mapping of docs and
 * terms): the number passes, and the mapping's keys are checked. */
Test(config, a_known_key_given_as_a_mapping_has_its_keys_checked)
{
	static const char *const known[] = { "text.feedback", "text.feedback.docs",
		"text.feedback.terms", NULL };
	json_t *v = parse_ok("text:\n  feedback:\n    docs: 3\n    termz: 40\n");
	char seen[64] = "";

	cr_assert_eq(ev_config_unknown(v, known, collect, seen), 1);
	cr_assert_str_eq(seen, "text.feedback.termz ");
	json_decref(v);
	v = parse_ok("text:\n  feedback: 15\n");
	cr_assert_eq(ev_config_unknown(v, known, collect, seen), 0);
	json_decref(v);
}

Test(config, load_reads_a_file_and_names_it)
{
	char path[] = "/tmp/test_config_XXXXXX";
	struct ev_err err = { 0 };
	char want[64];
	json_t *v;

	tu_tmpfile(path, 0, "a: 1\nb: [\n", 10);
	cr_assert_null(ev_config_load(path, &err));
	snprintf(want, sizeof want, "%s:3", path);
	cr_assert_str_eq(err.where, want);
	tu_write_file(path, "a: 1\n", 5);
	v = ev_config_load(path, &err);
	cr_assert_not_null(v);
	cr_assert_eq(json_integer_value(ev_config_get(v, "a")), 1);
	json_decref(v);
	unlink(path);
}

/* config.h: "code 1 when the file cannot be read". */
Test(config, a_file_that_cannot_be_read_is_bad_usage)
{
	struct ev_err err = { 0 };

	cr_assert_null(ev_config_load("/nonexistent/evkit.yaml", &err));
	cr_assert_str_eq(err.where, "/nonexistent/evkit.yaml");
	cr_assert_eq(err.code, EV_EXIT_USAGE, "code %d, the header promises 2", err.code);
}

Test(config, a_known_section_of_the_wrong_shape_is_refused_not_ignored)
{
	static const char *const known[] = { "text.weights.title", "cutoff.*", "k", NULL };
	struct ev_err err = { 0 };
	json_t *v = ev_config_parse("text: [1, 2]\n", 13, "c.yaml", &err);

	cr_assert_not_null(v);
	cr_assert_eq(ev_config_check_shape(v, known, "c.yaml", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, "c.yaml:1");
	cr_assert_str_eq(err.msg, "'text' must be a mapping of keys to values");
	json_decref(v);
	v = ev_config_parse("text:\n  weights: 5\n", 19, "c.yaml", &err);
	cr_assert_eq(ev_config_check_shape(v, known, "c.yaml", &err), -1);
	cr_assert_str_eq(err.msg, "'text.weights' must be a mapping of keys to values");
	json_decref(v);
	v = ev_config_parse("cutoff: 5\n", 10, "c.yaml", &err);
	cr_assert_eq(ev_config_check_shape(v, known, "c.yaml", &err), -1);
	cr_assert_str_eq(err.msg, "'cutoff' must be a mapping of keys to values");
	json_decref(v);
	v = ev_config_parse("text:\n  weights:\n    title: 2\nk: 3\n", 34, "c.yaml", &err);
	cr_assert_eq(ev_config_check_shape(v, known, "c.yaml", &err), 0);
	json_decref(v);
}

/* Print the keys of cfg as ev_config_print_keys() does, into a string. */
static char *
print_keys(const json_t *cfg, const char *keys, int *rc, struct ev_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	*rc = ev_config_print_keys(cfg, keys, "--plan-get", f, "out", err);
	fclose(f);
	return text;
}

Test(config, print_keys_gives_one_key_as_it_is_and_several_one_line_each)
{
	json_t *cfg = parse_ok("name: wide\nk: 8\nnote: \"a\\nb\"\nfusion:\n  weights: {text: 1.5}\n");
	struct ev_err err = { 0 };
	char *s;
	int rc;

	s = print_keys(cfg, "name", &rc, &err);
	cr_assert_eq(rc, 0);
	cr_assert_str_eq(s, "wide\n");
	free(s);
	s = print_keys(cfg, "absent", &rc, &err);
	cr_assert_str_eq(s, "");
	free(s);
	s = print_keys(cfg, "note", &rc, &err);
	cr_assert_str_eq(s, "a\nb\n");
	free(s);
	s = print_keys(cfg, "k,absent,note,fusion.weights", &rc, &err);
	cr_assert_eq(rc, 0);
	cr_assert_str_eq(s, "8\n\n\"a\\nb\"\n{\"text\":1.5}\n");
	free(s);
	json_decref(cfg);
}

Test(config, print_keys_refuses_a_key_too_long_naming_the_option)
{
	json_t *cfg = parse_ok("k: 8\n");
	struct ev_err err = { 0 };
	char keys[300];
	char *s;
	int rc;

	memset(keys, 'a', sizeof keys - 1);
	keys[sizeof keys - 1] = '\0';
	s = print_keys(cfg, keys, &rc, &err);
	cr_assert_eq(rc, -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "--plan-get");
	cr_assert(strncmp(err.msg, "key too long: 'aaa", 18) == 0, "%s", err.msg);
	free(s);
	json_decref(cfg);
}

/* A message about a key names the line of the key, at any depth;
 * a tree the reader did not parse has no lines. */
Test(config, a_bad_value_is_named_by_its_file_and_line)
{
	static const char in[] = "# a plan\nversion: \"0.1\"\nlanes:\n  text:\n    k: 0\n"
		"  vector: {k: many}\nfusion:\n  weights:\n    text:\n      0.5\n";
	struct ev_err err = { 0 };
	json_t *v = ev_config_parse(in, sizeof in - 1, "p.yaml", &err), *copy;
	long long n;
	char buf[64];

	cr_assert_not_null(v, "%s", err.msg);
	cr_assert_eq(ev_config_int(v, "lanes.text.k", 1, 10, &n, "p.yaml", &err), -1);
	cr_assert_str_eq(err.where, "p.yaml:5");
	cr_assert_eq(ev_config_int(v, "lanes.vector.k", 1, 10, &n, "p.yaml", &err), -1);
	cr_assert_str_eq(err.where, "p.yaml:6");
	cr_assert_eq(ev_config_line(v, "lanes"), 3);
	cr_assert_eq(ev_config_line(v, "fusion.weights.text"), 9);
	cr_assert_eq(ev_config_line(v, "version"), 2);
	cr_assert_eq(ev_config_line(v, "nonesuch"), 0);
	cr_assert_str_eq(ev_config_where(v, "lanes.text", "p.yaml", buf, sizeof buf), "p.yaml:4");
	copy = json_deep_copy(v);
	cr_assert_eq(ev_config_int(copy, "lanes.text.k", 1, 10, &n, "p.yaml", &err), -1);
	cr_assert_str_eq(err.where, "p.yaml");
	json_decref(copy);
	json_decref(v);
}

/* A list of names holds no empty one: two commas together, one at either
 * end, or nothing at all; the message begins with the option's name. */
Test(config, list_check_refuses_an_empty_name)
{
	const char *bad[] = { "a,,b", "a,", ",a", ",", "" };
	struct ev_err err = { 0 };

	cr_assert_eq(ev_config_list_check("a", "--x", &err), 0);
	cr_assert_eq(ev_config_list_check("a,b,c", "--x", &err), 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&err, 0, sizeof err);
		cr_assert_eq(ev_config_list_check(bad[i], "--x", &err), -1, "'%s'", bad[i]);
		cr_assert_eq(err.code, 2);
		cr_assert(strncmp(err.msg, "--x: '", 6) == 0, "%s", err.msg);
	}
}

Test(config, print_keys_refuses_an_empty_key_printing_nothing)
{
	json_t *cfg = parse_ok("k: 8\n");
	struct ev_err err = { 0 };
	char *s;
	int rc;

	s = print_keys(cfg, "k,,k", &rc, &err);
	cr_assert_eq(rc, -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(s, "");
	free(s);
	json_decref(cfg);
}

/* Jansson's allocations counted from jfail(), the jfail_at-th failing. */
static long jfail_at, jallocs;

static void *
failing_malloc(size_t n)
{
	return ++jallocs == jfail_at ? NULL : malloc(n);
}

/* From now on the nth allocation of Jansson fails (0: none, counted). */
static void
jfail(long n)
{
	jfail_at = n;
	jallocs = 0;
	json_set_alloc_funcs(failing_malloc, free);
}

/* Jansson's own allocator again; how many allocations it made since jfail(). */
static long
jrestore(void)
{
	json_set_alloc_funcs(malloc, free);
	return jallocs;
}

/* A plan parsed while memory runs out is refused as that (code 1: no
 * "number out of range" for a word it could not keep), or parsed whole. */
Test(config, a_plan_parsed_out_of_memory_is_refused_as_such_or_parsed_whole)
{
	const char *yaml = "routing:\n  default: [text, vector]\n  rules:\n"
	    "    - lanes: [visual]\n      cues: [site plan, 'diagram']\n  gate: {below: 0.25, n: 3}\n";
	struct ev_err err = { 0 };
	json_t *want, *got;
	long total;

	jfail(0);
	want = ev_config_parse(yaml, strlen(yaml), "c.yaml", &err);
	total = jrestore();
	cr_assert_not_null(want, "%s", err.msg);
	cr_assert_gt(total, 10);
	for (long n = 1; n <= total; n++) {
		memset(&err, 0, sizeof err);
		jfail(n);
		got = ev_config_parse(yaml, strlen(yaml), "c.yaml", &err);
		jrestore();
		if (got == NULL) {
			cr_assert_eq(err.code, EV_EXIT_RUNTIME, "allocation %ld: %s", n, err.msg);
			cr_assert_str_eq(err.msg, "out of memory");
			continue;
		}
		cr_assert(json_equal(got, want), "allocation %ld failed", n);
		json_decref(got);
	}
	json_decref(want);
}
