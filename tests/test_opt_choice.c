/* test_opt_choice.c: lib/cli/opt.c's choices among words, optional arguments,
 * numbers without a default, ev_opt_given() and ev_opt_bad_value(). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "opt.h"

static int format = 0;		/* jsonl */
static int level = 1;
static double gate = NAN;
static char summary[64] = "none";

static void
set_summary(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)value;
	if (arg == NULL)
		arg = "text";
	if (strcmp(arg, "text") != 0 && strcmp(arg, "json") != 0)
		ev_opt_bad_value(cli, src, "text or json", arg);
	snprintf(summary, sizeof summary, "%s", arg);
}

static const struct ev_opt table[] = {
	EV_OPT_CHOICE(0, "format", "output.format", &format, "jsonl|json|text", "the output"),
	EV_OPT_INT(0, "level", "level", &level, 1, 9, "N", "a level"),
	EV_OPT_NUM_UNSET(0, "gate", "gates.min", &gate, 0, 1, "X", "a gate"),
	EV_OPT_FUNC('s', "summary", "summary", NULL, set_summary, "[=text|json]", "a summary",
	    NULL),
	EV_OPT_END
};

static const struct ev_opt_cmd cmd = { "t [OPTIONS]", "A test command.", NULL, 0 };

/* The path of a config file (static): config, when not NULL, is written
 * to it; NULL, it is removed. */
static char config_path[] = "/tmp/test_opt_choice_XXXXXX.yaml";

/* Parse argv (argc of them) after "--config FILE" holding config when it is
 * not NULL.  Returns the index of the first operand. */
static int
parse_with(const char *config, int argc, char **argv)
{
	static struct ev_cli cli;
	static char *args[16];
	int n = 0, i, fd;

	args[n++] = argv[0];
	if (config != NULL) {
		fd = mkstemps(config_path, 5);
		cr_assert(fd >= 0 && write(fd, config, strlen(config)) == (ssize_t)strlen(config));
		close(fd);
		args[n++] = "--config";
		args[n++] = config_path;
	}
	for (i = 1; i < argc && n < 15; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	ev_cli_init(&cli, "t", NULL, n, args);
	i = ev_opt_parse(&cli, &cmd, table);
	if (config != NULL)
		unlink(config_path);
	return i - (n - argc);
}

Test(opt_choice, a_word_sets_its_index)
{
	char *argv[] = { "t", "--format", "text", NULL };

	parse_with(NULL, 3, argv);
	cr_assert_eq(format, 2);
	cr_assert(ev_opt_given(&format));
	cr_assert(!ev_opt_given(&level));
}

Test(opt_choice, the_config_gives_a_word_and_it_is_not_a_flag)
{
	char *argv[] = { "t", NULL };

	parse_with("output:\n  format: json\ngates:\n  min: 0.5\n", 1, argv);
	cr_assert_eq(format, 1);
	cr_assert_float_eq(gate, 0.5, 1e-12);
	cr_assert(!ev_opt_given(&format));
}

Test(opt_choice, the_message_of_an_unknown_word, .init = cr_redirect_stderr)
{
	char line[512];
	pid_t pid;
	int status;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		char *argv[] = { "t", "--format", "xml", NULL };

		parse_with(NULL, 3, argv);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	fflush(stderr);
	/* the first lines: a leak checker may add its own after them */
	cr_assert_not_null(fgets(line, sizeof line, cr_get_redirected_stderr()));
	cr_assert_str_eq(line, "t: --format takes jsonl, json or text: 'xml'\n");
	cr_assert_not_null(fgets(line, sizeof line, cr_get_redirected_stderr()));
	cr_assert_str_eq(line, "Try 't --help' for more information.\n");
}

Test(opt_choice, a_bad_config_word_has_the_config_form, .init = cr_redirect_stderr)
{
	char line[512] = "";
	pid_t pid;
	int status;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		char *argv[] = { "t", NULL };

		parse_with("output:\n  format: xml\n", 1, argv);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	fflush(stderr);
	cr_assert_not_null(fgets(line, sizeof line, cr_get_redirected_stderr()));
	/* "t: FILE:LINE: 'key' must be ...", without the hint of a bad flag */
	cr_assert(strncmp(line, "t: /tmp/test_opt_choice_", 24) == 0, "%s", line);
	cr_assert(strstr(line, ".yaml:2: 'output.format' must be jsonl, json or text: 'xml'\n") !=
	    NULL, "%s", line);
	if (fgets(line, sizeof line, cr_get_redirected_stderr()) != NULL)
		cr_assert_null(strstr(line, "Try"), "%s", line);
}

Test(opt_choice, an_optional_argument_may_be_absent)
{
	char *argv[] = { "t", "--summary", NULL };

	parse_with(NULL, 2, argv);
	cr_assert_str_eq(summary, "text");
}

Test(opt_choice, an_optional_argument_after_an_equals_sign)
{
	char *argv[] = { "t", "--summary=json", "file", NULL };
	int argi = parse_with(NULL, 3, argv);

	cr_assert_str_eq(summary, "json");
	cr_assert_eq(argi, 2);	/* "file" is an operand, not the argument */
}

Test(opt_choice, a_number_without_default_stays_nan)
{
	char *argv[] = { "t", NULL };

	parse_with(NULL, 1, argv);
	cr_assert(isnan(gate));
}

/* --help and --list-options show the words, an optional argument and a
 * number without a default. */
Test(opt_choice, help_and_list_show_the_new_kinds)
{
	static const char *const want[] = {
		"  --format jsonl|json|text\n                      the output (default jsonl)\n",
		"  --gate X            a gate (0 to 1; default none)\n",
		"  -s, --summary[=text|json]\n",
		"format\t-\toutput.format\tchoice\t-\t-\tjsonl\n",
		"gate\t-\tgates.min\tnum\t0\t1\tnone\n",
	};
	char buf[8192];
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	size_t i;

	ev_opt_help(fp, &cmd, table);
	ev_opt_list(fp, table);
	fclose(fp);
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(buf, want[i]) != NULL, "no '%s' in %s", want[i], buf);
}

Test(opt_choice, a_word_is_found_only_whole)
{
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", "jsonl"), 0);
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", "json"), 1);
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", "text"), 2);
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", "js"), -1);
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", ""), -1);
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", "text|"), -1);
}
