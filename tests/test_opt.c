/* test_opt.c: lib/cli/opt.c -- one table gives the flags, the config keys, the
 * range checks, --help and --list-options. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "opt.h"
#include "test_util.h"

static int flag;
static int count = 3;
static long limit = 10;
static double weight = 0.5;
static const char *name = "plain";
static char seen[256];

static void
remember(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)cli;
	(void)value;
	snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "[%s|%s]", src, arg);
}

static const struct ev_opt table[] = {
	EV_OPT_BOOL(0, "flag", "flag", &flag, "turn it on"),
	EV_OPT_INT('c', "count", "count", &count, 1, 9, "N", "how many"),
	EV_OPT_K(&limit, 1000, "hits a query keeps"),
	EV_OPT_NUM(0, "weight", "weights.w", &weight, 0, 1, "W", "a weight"),
	EV_OPT_STR(0, "name", "name", &name, "NAME", "a name"),
	EV_OPT_FUNC(0, "pair", "pairs.*", NULL, remember, "K=V", "a pair (repeatable)", NULL),
	EV_OPT_END
};

static const char *const extra[] = { "other.*", NULL };
static const struct ev_opt_cmd cmd = { "t [OPTIONS] [FILE ...]", "A test command.", extra, 0 };

/* Write text to a temporary YAML file; returns its path (static). */
static const char *
yaml(const char *text)
{
	static char path[] = "/tmp/test_opt_XXXXXX.yaml";

	tu_tmpfile(path, 5, text, strlen(text));
	return path;
}

static int
parse(int argc, char **argv)
{
	static struct ev_cli cli;

	ev_cli_init(&cli, "t", NULL, argc, argv);
	return ev_opt_parse(&cli, &cmd, table);
}

static void parse_alias(int argc, char **argv);

/* Parse "--config FILE", the file holding text, as program "t" (parse()) or,
 * with alias, as "a" (parse_alias()).  Returns the file's path. */
static const char *
with_config(const char *text, int alias)
{
	const char *path = yaml(text);
	char *argv[] = { alias ? "a" : "t", "--config", (char *)path, NULL };

	if (alias)
		parse_alias(3, argv);
	else
		parse(3, argv);
	return path;
}


TestSuite(opt, .fini = tu_tmpfiles_remove);

Test(opt, flags_set_each_type_and_operands_follow)
{
	char *argv[] = { "t", "--flag", "-c", "7", "--k=42", "--weight", "0.25", "--name", "x",
		"--pair", "a=1", "--pair", "b=2", "file", NULL };
	int argi = parse(14, argv);

	cr_assert_eq(flag, 1);
	cr_assert_eq(count, 7);
	cr_assert_eq(limit, 42);
	cr_assert_float_eq(weight, 0.25, 1e-12);
	cr_assert_str_eq(name, "x");
	cr_assert_str_eq(seen, "[--pair|a=1][--pair|b=2]");
	cr_assert_eq(argi, 13);
	cr_assert_str_eq(argv[argi], "file");
}

Test(opt, short_k_is_shared)
{
	char *argv[] = { "t", "-k", "5", NULL };

	parse(3, argv);
	cr_assert_eq(limit, 5);
}

Test(opt, config_gives_defaults_and_flags_override_it)
{
	const char *path = yaml("flag: true\ncount: 4\nk: 99\nweights:\n  w: 0.75\nname: fromfile\n"
	    "pairs:\n  z: 3\n  y: x\nother:\n  anything: 1\n");
	char *argv[] = { "t", "--config", (char *)path, "-c", "8", NULL };

	parse(5, argv);
	unlink(path);
	cr_assert_eq(flag, 1);
	cr_assert_eq(count, 8);
	cr_assert_eq(limit, 99);
	cr_assert_float_eq(weight, 0.75, 1e-12);
	cr_assert_str_eq(name, "fromfile");
	cr_assert(strstr(seen, "'pairs.z'|z=3]") != NULL, "%s", seen);
	cr_assert(strstr(seen, "'pairs.y'|y=x]") != NULL, "%s", seen);
}

/* Whether all prog said on stderr is that key of the config file path is
 * ignored; path is removed. */
static void
assert_key_ignored(const char *prog, const char *path, const char *key)
{
	char want[256];

	fflush(stderr);
	snprintf(want, sizeof want, "%s: %s: unknown key '%s' ignored\n", prog, path, key);
	unlink(path);
	cr_assert_stderr_eq_str(want);
}

Test(opt, unknown_config_keys_are_warned_about, .init = cr_redirect_stderr)
{
	const char *path = with_config("count: 2\nbogus: 1\n", 0);

	assert_key_ignored("t", path, "bogus");
	cr_assert_eq(count, 2);
}

Test(opt, a_number_out_of_range_is_bad_usage, .exit_code = 2, .init = cr_redirect_stderr)
{
	char *argv[] = { "t", "--count", "10", NULL };

	parse(3, argv);
}

Test(opt, a_config_number_out_of_range_is_bad_usage, .exit_code = 2, .init = cr_redirect_stderr)
{
	with_config("weights:\n  w: 2\n", 0);
}

Test(opt, a_config_mapping_key_that_is_a_scalar_is_bad_usage, .exit_code = 2,
    .init = cr_redirect_stderr)
{
	with_config("pairs: 3\n", 0);
}

Test(opt, help_shows_ranges_and_defaults, .init = cr_redirect_stdout)
{
	char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ev_opt_help(fp, &cmd, table);
	fclose(fp);
	cr_assert(strstr(buf, "usage: t [--flag] [--count N] [-k N] [--weight W] [--name NAME]\n"
	    "         [--pair K=V ...] [--config FILE.yaml] [--log FILE] [FILE ...]\n\n"
	    "A test command.\n\n") == buf, "%s", buf);
	cr_assert(strstr(buf, "  -c, --count N       how many (1 to 9; default 3)\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "  -k, --k N           hits a query keeps (1 to 1000; default 10)\n")
	    != NULL, "%s", buf);
	cr_assert(strstr(buf, "  --weight W          a weight (0 to 1; default 0.5)\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "  --name NAME         a name (default plain)\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "  --flag              turn it on\n") != NULL, "%s", buf);
}

Test(opt, list_options_has_a_line_per_option)
{
	char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ev_opt_list(fp, table);
	fclose(fp);
	cr_assert(strstr(buf, "count\tc\tcount\tint\t1\t9\t3\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "k\tk\tk\tint\t1\t1000\t10\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "weight\t-\tweights.w\tnum\t0\t1\t0.5\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "pair\t-\tpairs.*\tfunc\t-\t-\t-\n") != NULL, "%s", buf);
}

/* ---- Choices and a command's section of a plan ---------------------------- */

static int colour = -1, colour_flagged;
static long depth = 100;

static void
note_colour(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)cli, (void)src, (void)value;
	colour_flagged |= arg != NULL;
}

static const struct ev_opt sect_table[] = {
	EV_OPT_CHOICE_THEN(0, "colour", "lanes.paint.colour", &colour, "red|green|blue",
	    "the colour", note_colour, "the paint's own"),
	EV_OPT_K_AT("lanes.paint.k", &depth, 1000, "hits a query keeps", NULL),
	EV_OPT_END
};

static const struct ev_opt_cmd plan_cmd = { "p [OPTIONS]", "A plan reader.", NULL, 1 };

static int
parse_section(int argc, char **argv, int alone)
{
	static struct ev_cli cli;

	ev_cli_init(&cli, "p", NULL, argc, argv);
	return ev_opt_parse_section(&cli, &plan_cmd, sect_table, "lanes.paint", alone);
}

Test(opt, a_choice_stores_the_index_of_its_word)
{
	char *argv[] = { "p", "--colour", "blue", NULL };

	colour = -1, colour_flagged = 0;
	parse_section(3, argv, 1);
	cr_assert_eq(colour, 2);
	cr_assert_eq(colour_flagged, 1);
}

Test(opt, a_word_not_among_the_choices_names_them, .exit_code = 2, .init = cr_redirect_stderr)
{
	char *argv[] = { "p", "--colour", "mauve", NULL };

	parse_section(3, argv, 1);
}

Test(opt, list_options_names_a_choice_and_its_shown_default)
{
	char buf[256];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	colour = 1;
	ev_opt_list(fp, sect_table);
	fclose(fp);
	cr_assert(strstr(buf, "colour\t-\tlanes.paint.colour\tchoice\t-\t-\tthe paint's own\n")
	    != NULL, "%s", buf);
}

Test(opt, help_shows_a_choice_as_its_words)
{
	char buf[2048];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ev_opt_help(fp, &plan_cmd, sect_table);
	fclose(fp);
	cr_assert(strstr(buf, "  --colour red|green|blue\n                      the colour "
	    "(default the paint's own)\n") != NULL, "%s", buf);
}

/* The other stages' keys pass (the top-level k, fusion.method); a key of
 * the command's section that its table lacks, and a lane no stage reads (no
 * entry of the plan schema names lanes.other), are warned about. */
Test(opt, in_a_plan_the_section_is_read_and_its_unknown_keys_warned,
    .init = cr_redirect_stderr)
{
	const char *path = yaml("k: 3\nlanes:\n  paint:\n    colour: green\n    k: 7\n    bogus: 1\n"
	    "  other:\n    anything: 1\nfusion:\n  method: rrf\n");
	char *argv[] = { "p", "--config", (char *)path, NULL };
	char want[512];

	colour = -1, colour_flagged = 0, depth = 100;
	parse_section(3, argv, 1);
	fflush(stderr);
	snprintf(want, sizeof want, "p: %s: unknown key 'lanes.paint.bogus' ignored\n"
	    "p: %s: unknown key 'lanes.other' ignored\n", path, path);
	unlink(path);
	cr_assert_stderr_eq_str(want);
	cr_assert_eq(colour, 1);
	cr_assert_eq(colour_flagged, 0, "a config value is not a flag");
	cr_assert_eq(depth, 7, "the plan's top-level k is another stage's");
}

Test(opt, a_file_of_the_command_alone_has_the_sections_keys_at_the_top)
{
	const char *path = yaml("k: 3\ncolour: red\n");
	char *argv[] = { "p", "--config", (char *)path, NULL };

	colour = -1, depth = 100;
	parse_section(3, argv, 1);
	unlink(path);
	cr_assert_eq(colour, 0);
	cr_assert_eq(depth, 3);
}

Test(opt, without_alone_the_top_level_is_not_the_section, .init = cr_redirect_stderr)
{
	const char *path = yaml("k: 3\ncolour: red\n");
	char *argv[] = { "p", "--config", (char *)path, NULL };

	colour = -1, depth = 100;
	parse_section(3, argv, 0);
	unlink(path);
	cr_assert_eq(colour, -1);
	cr_assert_eq(depth, 100);
}

Test(opt, a_config_word_not_among_the_choices_is_bad_usage, .exit_code = 2,
    .init = cr_redirect_stderr)
{
	const char *path = yaml("lanes:\n  paint:\n    colour: mauve\n");
	char *argv[] = { "p", "--config", (char *)path, NULL };

	parse_section(3, argv, 1);
}

/* ---- ev_opt_alias: a section's older name ---------------------------------- */

static long alias_k = 10;
static int alias_n = 1;

static const struct ev_opt section_table[] = {
	EV_OPT_K_AT("lanes.x.k", &alias_k, 100, "hits", NULL),
	EV_OPT_INT(0, "n", "lanes.x.n", &alias_n, 1, 9, "N", "a count"),
	EV_OPT_BOOL(0, "flag", "flag", &flag, "not in the section"),
	EV_OPT_END
};

static const struct ev_opt_cmd alias_cmd = { "a [OPTIONS]", "An alias test.", NULL, 1 };

static void
parse_alias(int argc, char **argv)
{
	static struct ev_cli cli;
	struct ev_opt *t = ev_opt_alias(section_table, "lanes.x", "x");

	cr_assert_not_null(t);
	ev_cli_init(&cli, "a", NULL, argc, argv);
	ev_opt_parse_section(&cli, &alias_cmd, t, "lanes.x", 0);
	free(t);
}

Test(opt, an_alias_copies_each_section_key_before_it_without_a_flag)
{
	struct ev_opt *t = ev_opt_alias(section_table, "lanes.x", "x");

	cr_assert_not_null(t);
	cr_assert_str_eq(t[0].key, "x.k");
	cr_assert_null(t[0].long_name);
	cr_assert_eq(t[0].short_name, 0);
	cr_assert_eq(t[0].value, &alias_k);
	cr_assert_str_eq(t[1].key, "lanes.x.k");
	cr_assert_eq(t[1].short_name, 'k');
	cr_assert_str_eq(t[2].key, "x.n");
	cr_assert_str_eq(t[3].key, "lanes.x.n");
	cr_assert_str_eq(t[4].key, "flag");
	cr_assert_eq(t[5].type, EV_OPT_TYPE_END);
	free(t);
}

Test(opt, the_section_wins_over_its_alias_key_by_key)
{
	alias_k = 10, alias_n = 1;
	unlink(with_config("x:\n  k: 3\n  n: 4\nlanes:\n  x:\n    k: 5\n", 1));
	cr_assert_eq(alias_k, 5);
	cr_assert_eq(alias_n, 4);
}

Test(opt, an_alias_key_out_of_range_is_named_as_written, .exit_code = 2,
    .init = cr_redirect_stderr)
{
	with_config("x:\n  n: 10\n", 1);
}

Test(opt, unknown_alias_keys_are_warned_about, .init = cr_redirect_stderr)
{
	const char *path = with_config("x:\n  n: 2\n  bogus: 1\n", 1);

	assert_key_ignored("a", path, "x.bogus");
}

Test(cli, loop_end_reports_a_failed_loop_and_counts_the_skipped, .init = cr_redirect_stderr)
{
	static struct ev_cli cli;
	char *argv[] = { "p", NULL };
	struct ev_skip skip = { 1, 3 };
	struct ev_err err = { 0 };

	ev_cli_init(&cli, "p", NULL, 1, argv);
	cr_assert_eq(ev_cli_loop_end(&cli, &skip, 0, &err), EV_EXIT_OK);
	cr_assert_eq(json_integer_value(json_object_get(cli.counts, "skipped")), 3);
	ev_err_set(&err, EV_EXIT_USAGE, "in.jsonl:4", "bad record");
	cr_assert_eq(ev_cli_loop_end(&cli, &skip, -1, &err), EV_EXIT_USAGE);
	cr_assert_eq(json_integer_value(json_object_get(cli.counts, "skipped")), 6);
	fflush(stderr);
	cr_assert_stderr_eq_str("p: skipped 3 invalid records\np: in.jsonl:4: bad record\n"
	    "p: skipped 3 invalid records\n");
}

/* The usage lines: each form as written, "[OPTIONS]" replaced by every
 * option no form names (in the table's order), wrapped at 79 columns under
 * the first word after the name, a bracketed group never broken. */
Test(opt, usage_lines_name_every_option_the_forms_do_not)
{
	static const char forms[] =
	    "t --name NAME [OPTIONS] [FILE ...]\n"
	    "t --flag [-c N]\n"
	    "t --help | --version";
	char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ev_opt_usage(fp, forms, table);
	fclose(fp);
	cr_assert_str_eq(buf,
	    "usage: t --name NAME [-k N] [--weight W] [--pair K=V ...] [--config FILE.yaml]\n"
	    "         [--log FILE] [FILE ...]\n"
	    "       t --flag [-c N]\n"
	    "       t --help | --version\n");
}

/* A flag is named only as a word of its own: "--flagged" does not name
 * --flag, nor "--count" -c. */
Test(opt, usage_lines_match_whole_flags)
{
	char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ev_opt_usage(fp, "t --flagged [OPTIONS]", table);
	fclose(fp);
	cr_assert(strstr(buf, "[--flag]") != NULL, "%s", buf);
	cr_assert(strstr(buf, "[--count N]") != NULL, "%s", buf);
}

/* A key of two forms (lanes.text.feedback: a number or a mapping of docs,
 * ...): only the options of the form the config gives keep their keys; where
 * the section and its older name differ, the older name's values are
 * dropped. */
Test(opt, fit_forms_keeps_the_form_the_config_gives)
{
	static int docs_n, docs_m, old_n, old_m;
	struct ev_opt t[] = {
		EV_OPT_PLAN_KEY(EV_PLAN_TEXT_K, &old_n),
		EV_OPT_INT(0, NULL, "text.feedback", &old_n, 0, 1000, NULL, NULL),
		EV_OPT_INT(0, NULL, "text.feedback.docs", &old_m, 0, 1000, NULL, NULL),
		EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FEEDBACK, &docs_n),
		EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FEEDBACK_DOCS_M, &docs_m),
		EV_OPT_END
	};
	struct ev_err err = { 0 };
	const char *yaml = "lanes:\n  text:\n    feedback:\n      docs: 2\ntext:\n  feedback: 5\n";
	json_t *cfg = ev_config_parse(yaml, strlen(yaml), "c.yaml", &err);

	cr_assert_not_null(cfg, "%s", err.msg);
	ev_opt_fit_forms(t, cfg, "lanes.text", "text");
	cr_assert_str_eq(t[0].key, "lanes.text.k");		/* not of two forms */
	cr_assert_str_eq(t[1].key, "text.feedback");		/* checked ... */
	cr_assert(t[1].value != &old_n);			/* ... its value dropped */
	cr_assert_null(t[2].key);
	cr_assert_null(t[3].key);
	cr_assert_str_eq(t[4].key, "lanes.text.feedback.docs");
	cr_assert_eq(t[4].value, &docs_m);
	ev_opt_fit_forms(t, NULL, "lanes.text", "text");	/* no file: as it was */
	cr_assert_str_eq(t[4].key, "lanes.text.feedback.docs");
	json_decref(cfg);
}
