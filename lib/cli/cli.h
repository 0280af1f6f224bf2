/* cli.h: what every command shares: --help, --version, --config, --log, the
 * diagnostics format, option value parsing, progress on a terminal, and the
 * ToolRun log line.
 *
 * This is the one lib/ module that talks to the user (stderr, exit); it is
 * the bottom of cmd/, not of lib/, and nothing else in lib/ includes it.
 * Includes err.h, jsonl.h, config.h.
 *
 * A command's shape (see cmd/ev-eval.c):
 *
 *	static const struct option longopts[] = {
 *		{ "k", required_argument, NULL, 'k' },
 *		EV_CLI_COMMON_OPTIONS,
 *		{ NULL, 0, NULL, 0 }
 *	};
 *	ev_cli_init(&cli, "ev-foo", usage_text, argc, argv);  // loads --config
 *	... read defaults from cli.config (ev_config_*), then:
 *	while ((ch = getopt_long(argc, argv, "k:", longopts, NULL)) != -1)
 *		switch (ch) {
 *		case 'k': ... break;
 *		default: ev_cli_common(&cli, ch); // --help/--version/... or usage exit
 *		}
 *	... work, rc = ev_cli_report(&err) on failure ...
 *	return ev_cli_finish(&cli, rc);
 */
#ifndef EV_CLI_H
#define EV_CLI_H

#include <getopt.h>
#include <stdio.h>
#include <time.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"

enum {
	EV_OPT_HELP = 0x1000,
	EV_OPT_VERSION,
	EV_OPT_CONFIG,
	EV_OPT_LOG,
	EV_OPT_FIRST_FREE	/* commands number their long-only options from here */
};

#define EV_CLI_COMMON_OPTIONS \
	{ "help", no_argument, NULL, EV_OPT_HELP }, \
	{ "version", no_argument, NULL, EV_OPT_VERSION }, \
	{ "config", required_argument, NULL, EV_OPT_CONFIG }, \
	{ "log", required_argument, NULL, EV_OPT_LOG }

struct ev_toolrun;	/* toolrun.h */
struct ev_jsonl;	/* jsonl.h */

struct ev_cli {
	const char *prog;	/* "ev-foo" */
	const char *usage;	/* the synopsis and options, as in the man page */
	int argc;
	char **argv;
	const char *config_path;	/* --config FILE, or NULL */
	json_t *config;		/* the loaded file, or an empty object */
	const char *log_path;	/* --log FILE, or NULL */
	json_t *counts;		/* inputs/outputs counted, for the ToolRun line */
	struct ev_toolrun *trace;	/* with --log after ev_cli_trace(): frames and outputs */
	FILE *traced_stdout;	/* the stdout ev_cli_trace() passes writes on to */
	const json_t *log_plan;	/* the plan the ToolRun line logs (borrowed), or NULL */
	json_t *log_extra;	/* further fields of the ToolRun line */
	struct timespec started;
	int stderr_tty;		/* progress is shown only on a terminal */
};

/* The program name for messages, set by ev_cli_init(). */
extern const char *ev_progname;

/* Start a command: remember argv, set ev_progname, set up stdout (see
 * ev_out_init()), find --config and --log wherever they stand in argv, and
 * load the config file (a bad one is reported and exits 2).  A log that
 * cannot be written, or '-' (standard output carries the records), is
 * reported and exits 2 before anything runs.  Options are then
 * parsed by the command with getopt_long(), which sees --config/--log again
 * and hands them to ev_cli_common(), which ignores them. */
void ev_cli_init(struct ev_cli *cli, const char *prog, const char *usage, int argc, char **argv);

/* Handle an option getopt_long() returned that the command does not know:
 * --help prints the usage to stdout and exits 0; --version prints
 * "PROG VERSION" and exits 0; --config/--log return; anything else ('?',
 * ':') exits 2 after getopt's own message and a hint. */
void ev_cli_common(struct ev_cli *cli, int ch);

/* Refuse (exit 2) a config whose sections of shape[] are not mappings (see
 * ev_config_check_shape()), then warn once per key about keys not in known[]
 * (see ev_config_unknown()); both NULL-terminated.  known[] is shape[] and
 * the mapping entries of its keys of two forms (ev_plan_form_keys), which
 * shape[] must not hold. */
void ev_cli_check_config(struct ev_cli *cli, const char *const *shape,
	const char *const *known);

/* Warn that the key path of the configuration or plan file (a C string)
 * is unknown and ignored: ev_config_unknown()'s callback for every stage. */
void ev_cli_warn_unknown_key(const char *path, void *file);

/* A file a command will write (the --log, ev-tune's -o) that cannot be
 * written (a directory, one that is missing or not writable, no permission,
 * no room on its file system) is bad usage, said before anything runs and
 * any result is written, as "PATH: cannot write WHAT: REASON; nothing was
 * run": exits 2; so is path "", which names no file ("FLAG names no file").
 * The file itself is not made; path NULL or "-" (standard output,
 * ev_cli_stdout_taken()) passes. */
void ev_cli_check_output(const char *flag, const char *path, const char *what);

/* An output file named "-" is standard output: refuse it, with a usage
 * error (exit 2) naming flag, when standard output already holds held (the
 * command's records: "the summary line"), so that two outputs never mix
 * there.  path NULL or any other name passes. */
void ev_cli_stdout_taken(struct ev_cli *cli, const char *flag, const char *path, const char *held);

/* Report a usage error "PROG: message" and "Try 'PROG --help'." on stderr,
 * then exit 2. */
void ev_cli_usage_error(struct ev_cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* Standard input can be read once: when path, the argument of flag (which
 * reads what from it, "the judgements"), is "-", the operands ops[0..n)
 * (what they hold: operand, "the run"; none reads standard input) must be
 * files, none of them "-".  Otherwise a usage error (exit 2) says so; path
 * NULL or a file passes. */
void ev_cli_stdin_once(struct ev_cli *cli, const char *flag, const char *path, const char *what,
	const char *operand, char *const *ops, int n);

/* Refuse lane, given to option opt ("--lane"), with a usage error (exit 2)
 * unless it is a lane's name (ev_plan_lane_name_ok()). */
void ev_cli_lane_or_usage(struct ev_cli *cli, const char *opt, const char *lane);

/* Report a configuration error (*err) and exit 2. */
void ev_cli_config_error(struct ev_cli *cli, const struct ev_err *err) __attribute__((noreturn));

/* Print "PROG: WHERE: WHAT" for *err on stderr and return err->code (1 when
 * the code was not set). */
int ev_cli_report(const struct ev_err *err);

/* Print "PROG: message" on stderr (a warning or a note; does not exit). */
void ev_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse an option value.  Each returns 0 with *out set, or -1 when s is not a
 * whole number (a finite number) within [min, max], written in plain decimal
 * as a config file writes one (ev_config_number_text(): no hexadecimal, no
 * white space, no "inf"; a whole number has no '.' or exponent); no partial
 * parses. */
int ev_parse_count(const char *s, long long min, long long max, long long *out);
int ev_parse_double(const char *s, double min, double max, double *out);

/* --skip-invalid: bad records are skipped and counted instead of failing the
 * run.  ev_cli_skip() returns 1 when *err is bad input (code 2) and skipping
 * is on: the first EV_SKIP_SHOWN are reported on stderr, then, at the next,
 * one note that the rest are not; it returns 0 for any other error, which the caller then
 * reports.  ev_cli_skip_done() says how many were skipped, when any, and
 * counts them for the ToolRun line. */
#define EV_SKIP_SHOWN 20
struct ev_skip {
	int on;
	long long count;
};
int ev_cli_skip(struct ev_skip *s, const struct ev_err *err);
void ev_cli_skip_done(struct ev_cli *cli, const struct ev_skip *s);

/* ev_cli_skip() and ev_warn() in the shape of a lib/ module's callbacks
 * (vsearch.h, textloop.h): ctx of ev_cli_skip_cb() is the struct ev_skip;
 * ev_cli_warn_cb() says "PROG: WHERE: WHAT" and ignores ctx;
 * ev_cli_note_cb(), an ev_note_fn (note.h), says "PROG: MSG" and ignores ctx. */
int ev_cli_skip_cb(void *skip, struct ev_err *err);
void ev_cli_warn_cb(void *ctx, const char *where, const char *what);
void ev_cli_note_cb(void *ctx, const char *msg);

/* The end of a command's record loop, r what the loop ended with (-1: *err
 * says why): reports *err and returns its exit code when r is -1, else
 * returns EV_EXIT_OK; either way then ev_cli_skip_done(cli, s). */
int ev_cli_loop_end(struct ev_cli *cli, const struct ev_skip *s, int r, const struct ev_err *err);

/* For a command that handles queries (the lanes, ev-fuse, ev-rerank,
 * ev-expand, ev-route, ev-pack), right after ev_cli_init(): with --log, its
 * ToolRun line also says what it did for each query, "inputs_logged" (the
 * plan, and each query's retrieval frame: query_id, query, request_id,
 * filters, routing, the lanes of its records read) and "outputs" (the ids,
 * ranks and scores written for it), gathered by toolrun.h from every line
 * read and every line written to stdout (stdout becomes a stream that
 * passes each write on and notes it).  Without --log it does nothing.
 * Exits 1 when out of memory. */
void ev_cli_trace(struct ev_cli *cli);

/* The plan the ToolRun line logs in inputs_logged.plan (borrowed: it must
 * live until ev_cli_finish()); without it, the --config file's content is
 * logged when one was given. */
void ev_cli_log_plan(struct ev_cli *cli, const json_t *plan);

/* Log rec (borrowed) as an output the command wrote in another form than
 * a JSON line, as ev_cli_trace() logs such a line (ev-pack --format text's
 * packs); cli is the struct ev_cli (a callback's shape: packloop.h's
 * reported).  Nothing without --log, or before ev_cli_trace(). */
void ev_cli_log_output(void *cli, const json_t *rec);

/* Set key of the ToolRun line to value (stolen; e.g. ev-rerank's "rerank":
 * its model, configuration and top-k).  Nothing without --log. */
void ev_cli_log_set(struct ev_cli *cli, const char *key, json_t *value);

/* The record loop of a command that works on each query's hits (ev-expand,
 * ev-rerank): reads the hit records of in, a query's hits being consecutive
 * records with one query_id (a query that comes back after them is a bad
 * record, code 2, as is a hit whose id an earlier hit of its lane and query
 * has, or whose query text is not that of an earlier one, or that check
 * refuses when not NULL: check(ctx, hit, where, err) returns 0, or -1 with
 * *err set, code 2 naming where, for a hit the command cannot take),
 * and calls flush(ctx, hits, where, out, err)
 * once a query, with its hits as an array (where: the place of its last
 * record) that is cleared when flush returns, and out an empty buffer that
 * flush fills with the query's output, written then to stdout and flushed.
 * flush returns 0, or -1 with *err set, which ends the loop, as a write
 * error and a bad record do (unless skip_invalid and ev_cli_skip() pass over
 * it).  *nhits counts the records read.  Ends as ev_cli_loop_end(): returns
 * EV_EXIT_OK, or the exit code of the error it reported on stderr. */
typedef int ev_cli_query_fn(void *ctx, json_t *hits, const char *where, struct ev_buf *out,
	struct ev_err *err);
typedef int ev_cli_hit_check_fn(void *ctx, const json_t *hit, const char *where,
	struct ev_err *err);
int ev_cli_query_hits(struct ev_cli *cli, struct ev_jsonl *in, int skip_invalid,
	ev_cli_hit_check_fn *check, ev_cli_query_fn *flush, void *ctx, long long *nhits);

/* Count something for the ToolRun line: counts[key] += n. */
void ev_cli_count(struct ev_cli *cli, const char *key, long long n);

/* Finish a command: flush and close stdout (a write error, such as a full
 * disk, turns rc into 1 with a message), append the ToolRun line to --log
 * when given, free what ev_cli_init() allocated, and return the exit status. */
int ev_cli_finish(struct ev_cli *cli, int rc);

/* Milliseconds since ev_cli_init(). */
double ev_cli_elapsed_ms(const struct ev_cli *cli);

/* Progress on stderr, only when stderr is a terminal, at most every 250 ms:
 * "PROG: 1200/60000 documents, 830 documents/s, 4.1 MB/s, ETA 71 s".
 * total may be 0 when unknown (no ETA then).  ev_progress_done() clears the
 * line. */
struct ev_progress {
	struct ev_cli *cli;
	const char *unit;	/* "documents" */
	long long total;
	long long done;
	long long bytes;
	struct timespec started, shown;
	int active;
};
void ev_progress_start(struct ev_progress *p, struct ev_cli *cli, const char *unit, long long total);
void ev_progress_step(struct ev_progress *p, long long items, long long bytes);
void ev_progress_done(struct ev_progress *p);

/* ev_progress_step(p, items, bytes) for a callback of lib/ that takes a
 * void * (ingestpass.h's progress): items and bytes are those since the
 * last call. */
void ev_progress_cb(void *p, long long items, long long bytes);

/* Progress for a callback of lib/ that gives the items done so far
 * (ev_postings_build()'s progress): the struct ev_progress *p is brought to
 * done items, with no bytes. */
void ev_progress_so_far_cb(void *p, long long done);

/* A load of records (ev-embed-load, ev-mv-load): --skip-invalid's count and
 * the progress of the records read, kept by the callbacks of vecinput.h and
 * mvinput.h, whose ctx is the struct ev_cli_load. */
struct ev_cli_load {
	struct ev_skip skip;
	struct ev_progress progress;
	long long bytes_per;	/* the bytes one of the progress callback's count stands for */
};

/* ev_cli_skip() of load->skip. */
int ev_cli_load_skip(void *load, const struct ev_err *err);

/* One record read, of n times load->bytes_per bytes. */
void ev_cli_load_step(void *load, long long n);

/* --factory and --model of a load: a Faiss index factory string of 1 to 200
 * characters, a model id that is not empty (NULL: not given); else a usage
 * error of cli's program (exit 2). */
void ev_cli_load_check(struct ev_cli *cli, const char *factory, const char *model);

/* The start of a load's reading: --skip-invalid's on, and load->progress
 * started in unit. */
void ev_cli_load_start(struct ev_cli_load *load, struct ev_cli *cli, const char *unit,
	int skip_invalid);

/* The end of a load's reading, *rc the reader's result (0, or -1 with *err
 * set): ends load->progress; returns 0 when the read succeeded, else reports
 * *err and, for bad input (code 2), says "nothing loaded: WHAT" (what
 * formatted from fmt, "index 'x' is unchanged"), with " (--skip-invalid skips
 * bad records)" when skipping is off, puts the exit status
 * (ev_cli_report()'s) in *rc and returns -1. */
int ev_cli_load_end(struct ev_cli_load *load, int *rc, const struct ev_err *err, const char *fmt,
	...) __attribute__((format(printf, 4, 5)));

/* The counts of a load that committed: "records" read, the records
 * --skip-invalid skipped (when any), "vectors" the index holds. */
void ev_cli_load_done(struct ev_cli *cli, const struct ev_cli_load *load, long long records,
	long long vectors);

#endif
