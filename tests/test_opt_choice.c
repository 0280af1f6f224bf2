/* test_opt_choice.c: lib/opt.c's choices among words, optional arguments,
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

static const struct ev_opt_cmd cmd = { "usage: t [options]", "A test command.", NULL, 0 };

static const char *
yaml(const char *text)
{
	static char path[] = "/tmp/test_opt_choice_XXXXXX.yaml";
	int fd = mkstemps(path, 5);

	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static int
parse(int argc, char **argv)
{
	static struct ev_cli cli;

	ev_cli_init(&cli, "t", NULL, argc, argv);
	return ev_opt_parse(&cli, &cmd, table);
}

Test(opt_choice, a_word_sets_its_index)
{
	char *argv[] = { "t", "--format", "text", NULL };

	parse(3, argv);
	cr_assert_eq(format, 2);
	cr_assert(ev_opt_given(&format));
	cr_assert(!ev_opt_given(&level));
}

Test(opt_choice, the_config_gives_a_word_and_it_is_not_a_flag)
{
	const char *path = yaml("output:\n  format: json\ngates:\n  min: 0.5\n");
	char *argv[] = { "t", "--config", (char *)path, NULL };

	parse(3, argv);
	unlink(path);
	cr_assert_eq(format, 1);
	cr_assert_float_eq(gate, 0.5, 1e-12);
	cr_assert(!ev_opt_given(&format));
}

Test(opt_choice, the_message_of_an_unknown_word, .init = cr_redirect_stderr)
{
	pid_t pid;
	int status;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		char *argv[] = { "t", "--format", "xml", NULL };

		parse(3, argv);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	cr_assert_stderr_eq_str("t: --format takes jsonl, json or text: 'xml'\n"
	    "Try 't --help' for more information.\n");
}

Test(opt_choice, a_bad_config_word_has_the_config_form, .init = cr_redirect_stderr)
{
	const char *path = yaml("output:\n  format: xml\n");
	char want[512];
	pid_t pid;
	int status;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		char *argv[] = { "t", "--config", (char *)path, NULL };

		parse(3, argv);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	unlink(path);
	snprintf(want, sizeof want, "t: %s: 'output.format' must be jsonl, json or text: 'xml'\n",
	    path);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	cr_assert_stderr_eq_str(want);
}

Test(opt_choice, an_optional_argument_may_be_absent)
{
	char *argv[] = { "t", "--summary", NULL };

	parse(2, argv);
	cr_assert_str_eq(summary, "text");
}

Test(opt_choice, an_optional_argument_after_an_equals_sign)
{
	char *argv[] = { "t", "--summary=json", "file", NULL };
	int argi = parse(3, argv);

	cr_assert_str_eq(summary, "json");
	cr_assert_eq(argi, 2);	/* "file" is an operand, not the argument */
}

Test(opt_choice, a_number_without_default_stays_nan)
{
	char *argv[] = { "t", NULL };

	parse(1, argv);
	cr_assert(isnan(gate));
}

Test(opt_choice, help_shows_words_optional_arguments_and_no_default)
{
	char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ev_opt_help(fp, &cmd, table);
	fclose(fp);
	cr_assert(strstr(buf, "  --format jsonl|json|text\n"
	    "                      the output (default jsonl)\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "  --gate X            a gate (0 to 1; default none)\n") != NULL, "%s",
	    buf);
	cr_assert(strstr(buf, "  -s, --summary[=text|json]\n") != NULL, "%s", buf);
}

Test(opt_choice, list_options_names_the_type_and_default)
{
	char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ev_opt_list(fp, table);
	fclose(fp);
	cr_assert(strstr(buf, "format\t-\toutput.format\tchoice\t-\t-\tjsonl\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "gate\t-\tgates.min\tnum\t0\t1\tnone\n") != NULL, "%s", buf);
}
