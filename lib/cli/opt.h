/* opt.h: a command's options, declared once in a table.
 *
 * Each option is one line of the table: its long and short name, its key in
 * a --config file, where its value goes, its type and range, and its help.
 * The table's variables hold the defaults before parsing.  From that one
 * table come the getopt parsing, the reading of --config (the file gives
 * defaults, flags override it, unknown keys are warned about), range checks
 * with the same message everywhere, --help, and --list-options (one line per
 * option, for tests and completion scripts).
 *
 *	static long k = 10;
 *	static const char *qrels;
 *	static const struct ev_opt options[] = {
 *		EV_OPT_STR(0, "qrels", "qrels", &qrels, "FILE", "the judgements"),
 *		EV_OPT_LONG('k', "k", "k", &k, 1, 1000, "N", "the cut-off"),
 *		EV_OPT_END
 *	};
 *	ev_cli_init(&cli, "ev-foo", NULL, argc, argv);
 *	argi = ev_opt_parse(&cli, &cmd, options);	// exits 2 on bad usage
 *
 * The options every command shares (--help, --version, --config, --log) are
 * added by ev_opt_parse(); those several commands share (--skip-invalid,
 * -k/--k) are declared once here as macros.  Like cli.h, this is the bottom of
 * cmd/: no lib/ module includes it.  Includes cli.h. */
#ifndef EV_OPT_H
#define EV_OPT_H

#include "cli.h"
#include "plan.h"

enum ev_opt_type {
	EV_OPT_TYPE_END,
	EV_OPT_TYPE_BOOL,	/* int *: a flag without value; true/false in a config */
	EV_OPT_TYPE_INT,	/* int *, within [min, max] */
	EV_OPT_TYPE_LONG,	/* long *, within [min, max] */
	EV_OPT_TYPE_LLONG,	/* long long *, within [min, max] */
	EV_OPT_TYPE_NUM,	/* double *, within [min, max] */
	EV_OPT_TYPE_STR,	/* const char **: the argument, as given */
	EV_OPT_TYPE_FUNC,	/* fn is called with the argument */
	EV_OPT_TYPE_CHOICE	/* int *: the index of one of the words of argh,
				 * "rrf|weighted|combsum"; -1 for none */
};

/* An option's handler (EV_OPT_TYPE_FUNC): apply arg to value.  src names
 * where arg came from for messages: "--min" for a flag, "FILE: 'min.map'" for
 * a config key.  A bad arg is reported with ev_cli_usage_error(cli, "%s ...",
 * src), which exits 2.  A config key ending in ".*" (a mapping) calls fn once
 * per entry with arg "NAME=VALUE", the form of the flag's argument. */
/* An option whose argh starts with "[=" ("[=text|json]") takes an optional
 * argument (--summary or --summary=json): fn is then called with arg NULL
 * when it is absent. */
typedef void ev_opt_fn(struct ev_cli *cli, const char *src, const char *arg, void *value);

struct ev_opt {
	enum ev_opt_type type;
	int short_name;		/* 'k', or 0 */
	const char *long_name;	/* "qrels", or NULL for a config key alone */
	const char *key;	/* its --config key ("cutoff.ndcg", "min.*"), or NULL */
	void *value;		/* where the value goes; holds the default */
	double min, max;	/* the range of a number */
	const char *argh;	/* the argument's name in --help ("FILE"), NULL for none */
	const char *help;	/* one line (wrapped by --help); no default or range: they are added */
	ev_opt_fn *fn;		/* the handler of EV_OPT_TYPE_FUNC; of a number,
				 * called after the value is stored (arg NULL
				 * when it came from the config) */
	const char *shown_default;	/* --help's default of a FUNC or STR option, or NULL */
};

#define EV_OPT_BOOL(s, l, key, v, help) \
	{ EV_OPT_TYPE_BOOL, (s), (l), (key), (v), 0, 1, NULL, (help), NULL, NULL }
#define EV_OPT_INT(s, l, key, v, lo, hi, argh, help) \
	{ EV_OPT_TYPE_INT, (s), (l), (key), (v), (lo), (hi), (argh), (help), NULL, NULL }
#define EV_OPT_LONG(s, l, key, v, lo, hi, argh, help) \
	{ EV_OPT_TYPE_LONG, (s), (l), (key), (v), (lo), (hi), (argh), (help), NULL, NULL }
#define EV_OPT_LONG_THEN(s, l, key, v, lo, hi, argh, help, then) \
	{ EV_OPT_TYPE_LONG, (s), (l), (key), (v), (lo), (hi), (argh), (help), (then), NULL }
#define EV_OPT_NUM(s, l, key, v, lo, hi, argh, help) \
	{ EV_OPT_TYPE_NUM, (s), (l), (key), (v), (lo), (hi), (argh), (help), NULL, NULL }
#define EV_OPT_STR(s, l, key, v, argh, help) \
	{ EV_OPT_TYPE_STR, (s), (l), (key), (v), 0, 0, (argh), (help), NULL, NULL }
#define EV_OPT_FUNC(s, l, key, v, fn, argh, help, shown) \
	{ EV_OPT_TYPE_FUNC, (s), (l), (key), (v), 0, 0, (argh), (help), (fn), (shown) }
/* A number without a default: *v holds NAN until a flag or the config gives
 * it (--help says "default none"). */
#define EV_OPT_NUM_UNSET(s, l, key, v, lo, hi, argh, help) \
	{ EV_OPT_TYPE_NUM, (s), (l), (key), (v), (lo), (hi), (argh), (help), NULL, "none" }
/* One of the words of words ("jsonl|json|text"), its index into *v (an int);
 * --help shows the words as the argument and the default's word. */
#define EV_OPT_CHOICE(s, l, key, v, words, help) \
	{ EV_OPT_TYPE_CHOICE, (s), (l), (key), (v), 0, 0, (words), (help), NULL, NULL }
#define EV_OPT_END { EV_OPT_TYPE_END, 0, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL }

/* The option of a retrieval plan's key: its key, type, range (and a choice's
 * words) are those of the plan schema's entry e (plan.h), so that every
 * command reading the key reads it alike; v is an int, long, long long or
 * double (a bool's and a choice's an int).  Its default is the variable's,
 * which the stage takes from EV_PLAN_DEFAULT(e). */
#define EV_OPT_PLAN(s, l, e, v, argname, text) { \
	.type = EV_PLAN_TYPE(e) == EV_PLAN_BOOL ? EV_OPT_TYPE_BOOL : \
	    EV_PLAN_TYPE(e) == EV_PLAN_CHOICE ? EV_OPT_TYPE_CHOICE : EV_OPT_PLAN_CTYPE(v), \
	.short_name = (s), .long_name = (l), .key = EV_PLAN_KEY(e), .value = (v), \
	.min = EV_PLAN_MIN(e), .max = EV_PLAN_MAX(e), \
	.argh = EV_PLAN_TYPE(e) == EV_PLAN_CHOICE ? EV_PLAN_WORDS(e) : (argname), .help = (text) }
/* EV_OPT_PLAN whose --help shows the default shown ("none", "all"). */
#define EV_OPT_PLAN_SHOWN(s, l, e, v, argname, text, shown) { \
	.type = EV_OPT_PLAN_CTYPE(v), .short_name = (s), .long_name = (l), .key = EV_PLAN_KEY(e), \
	.value = (v), .min = EV_PLAN_MIN(e), .max = EV_PLAN_MAX(e), .argh = (argname), \
	.help = (text), .shown_default = (shown) }
#define EV_OPT_PLAN_CTYPE(v) _Generic((v), long *: EV_OPT_TYPE_LONG, \
	long long *: EV_OPT_TYPE_LLONG, double *: EV_OPT_TYPE_NUM, default: EV_OPT_TYPE_INT)
/* A plan key alone, without a flag. */
#define EV_OPT_PLAN_KEY(e, v) EV_OPT_PLAN(0, NULL, e, v, NULL, NULL)

/* --skip-invalid, where a command reads records: skip bad records, count them
 * and say so (see ev_cli_skip()). */
#define EV_OPT_SKIP_INVALID(v) EV_OPT_SKIP_INVALID_AT("skip_invalid", (v))

/* -k/--k: how many hits (or evidences) a query keeps. */
#define EV_OPT_K(v, hi, help) \
	EV_OPT_LONG('k', "k", "k", (v), 1, (hi), "N", (help))

/* --skip-invalid with its config key in a section ("ingest.skip_invalid", a
 * plan's "fusion.skip_invalid"). */
#define EV_OPT_SKIP_INVALID_AT(key, v) \
	EV_OPT_BOOL(0, "skip-invalid", (key), (v), \
	    "skip invalid records (counted, the first shown) instead of failing")

/* -k/--k with its config key elsewhere (a plan's "fusion.k", "lanes.vector.k"),
 * and its default as --help shows it (NULL: the value). */
#define EV_OPT_K_AT(key, v, hi, help, shown) \
	{ EV_OPT_TYPE_LONG, 'k', "k", (key), (v), 1, (hi), "N", (help), NULL, (shown) }

/* EV_OPT_CHOICE, and then (or NULL) called after the value is stored (arg
 * NULL when it came from the config); shown is the default --help shows
 * instead of the word (needed when *v starts at -1, no word), or NULL.  A
 * word not among them exits 2: "PROG: --norm takes none, max or minmax: 'x'"
 * (from a config: "FILE: 'key' must be ..."). */
#define EV_OPT_CHOICE_THEN(s, l, key, v, words, help, then, shown) \
	{ EV_OPT_TYPE_CHOICE, (s), (l), (key), (v), 0, 0, (words), (help), (then), (shown) }

/* -k/--k where 0 keeps all (ev-pack's evidences per pack). */
#define EV_OPT_K_OR_ALL(v, hi, help) \
	EV_OPT_LONG('k', "k", "k", (v), 0, (hi), "N", (help))

/* What a command says of itself in --help, around the options' list. */
struct ev_opt_cmd {
	const char *synopsis;	/* the command's forms, one a line, each its name and
				 * what sets it apart ("ev-foo --db DB --train\n"
				 * "ev-foo --db DB [OPTIONS] [FILE ...]"): the usage
				 * lines (ev_opt_usage()) */
	const char *about;	/* a paragraph: what it does */
	const char *const *extra_keys;	/* config keys read by other means (NULL-terminated), or NULL */
	int reads_plan;		/* --config may be a retrieval plan: the sections
				 * of the other stages (plan.h's schema) are theirs,
				 * not unknown */
};

/* Parse the command line (cli->argc/argv) and cli->config against opts:
 * first every config key of the table (a value of the wrong type or range
 * exits 2 naming the file and key; keys neither in the table nor in
 * cmd->extra_keys are warned about), then the flags in order (a bad value
 * exits 2: "PROG: --level takes a whole number from A to B: 'x'").  --help
 * prints cmd's synopsis, about and the options with their ranges and
 * defaults, and exits 0; --version and --list-options likewise.  Returns the
 * index in argv of the first operand. */
int ev_opt_parse(struct ev_cli *cli, const struct ev_opt_cmd *cmd, const struct ev_opt *opts);

/* ev_opt_parse() for a command with its own section of a plan ("fusion",
 * "lanes.vector"): with cmd->reads_plan, a section of the table's keys that
 * is not a mapping exits 2 before any key is warned about.  With
 * alone, a config without the section's first part ("lanes") is a file of
 * this command alone, whose top level holds the section's keys: "k" is read
 * as opts' "lanes.vector.k". */
int ev_opt_parse_section(struct ev_cli *cli, const struct ev_opt_cmd *cmd,
    const struct ev_opt *opts, const char *section, int alone);

/* Whether the option whose value is value was given as a flag in the last
 * ev_opt_parse() (not by the config): for a command that reads a second
 * file of defaults (a plan) after parsing, which the flags must override. */
int ev_opt_given(const void *value);

/* Report a bad value arg of the option named by src (as ev_opt_fn has it)
 * and exit 2: "PROG: --flag takes WANT: 'arg'" and a hint for a flag, or
 * config.c's "PROG: FILE: 'key' must be WANT: 'arg'" for a key of a file
 * (src not starting with '-'). */
void ev_opt_bad_value(struct ev_cli *cli, const char *src, const char *want, const char *arg)
	__attribute__((noreturn));

/* opts with the keys of a section also read under an older name: before
 * each option whose key is under section ("lanes.text.k"), a copy of it
 * with the key under alias instead ("text.k") and no flag.  The copy is read
 * first, so the section's key wins where both are given; both are known
 * keys, each checked and named in messages as written.  Returns the table
 * in one malloc'd block (free() it), or NULL when out of memory. */
struct ev_opt *ev_opt_alias(const struct ev_opt *opts, const char *section, const char *alias);

/* Fit table t (with keys under section and, from ev_opt_alias(), under its
 * older name alias, or NULL) to the config cfg where a plan key takes a
 * number or a mapping (ev_plan_two_forms(): "feedback: 15" or "feedback:
 * {docs: 15}"): of the options of the number's key and of the mapping's keys,
 * only those of the form cfg gives are kept (the others' keys become NULL),
 * so that either form reads alike.  Where section and alias give the key in
 * different forms, section's is used whole: alias's keys are still checked,
 * their values dropped. */
void ev_opt_fit_forms(struct ev_opt *t, const json_t *cfg, const char *section, const char *alias);

/* Write the usage lines of synopsis (struct ev_opt_cmd's) to fp: "usage: "
 * before the first form and its indent before the others, each wrapped at 79
 * columns under its first word after the name.  "[OPTIONS]" in a form (one
 * at most) stands for every option of opts with a flag that no form names,
 * in the table's order ("[--window N]", "[-k N]", "[--all-terms]", a
 * handler's NAME=VALUE as given once per name: "[--weight NAME=X ...]"), then "[--config FILE.yaml] [--log
 * FILE]": so the usage names every option of the table. */
void ev_opt_usage(FILE *fp, const char *synopsis, const struct ev_opt *opts);

/* Write the --help text of cmd and opts to fp: the usage lines, cmd's about,
 * and the options with their ranges and defaults. */
void ev_opt_help(FILE *fp, const struct ev_opt_cmd *cmd, const struct ev_opt *opts);

/* Write one line per option of opts and the common ones to fp, tab-separated:
 * long name (or "-"), short name (or "-"), config key (or "-"), type (bool,
 * int, num, str, func, choice), min, max (or "-"), the default (or "-"). */
void ev_opt_list(FILE *fp, const struct ev_opt *opts);

#endif
