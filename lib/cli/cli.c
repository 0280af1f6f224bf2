/* cli.c: what every command shares.  See cli.h. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"
#include "jsoncopy.h"
#include "hitcheck.h"
#include "jsonl.h"
#include "plan.h"
#include "toolrun.h"

#ifndef EV_VERSION
#define EV_VERSION "0.0.0"
#endif

const char *ev_progname = "evkit";

static double
ms_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

/* Write "PROG: msg" and a new line to stderr at once, msg's control
 * characters (C0, DEL and C1), which a terminal could obey, as the escapes
 * JSON writes ("\n", "\u001b"): a message that quotes an id or a value of
 * the input is one line of text, and cannot retitle the window or colour
 * the screen.  Out of memory, msg is written as it is. */
static void
say(const char *msg)
{
	struct ev_buf b = EV_BUF_INIT;
	int bad = ev_buf_printf(&b, "%s: ", ev_progname);

	for (const unsigned char *p = (const unsigned char *)msg; bad == 0 && *p; p++) {
		unsigned c = *p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? *++p : *p;

		if (c == '\n' || c == '\t' || c == '\r')
			bad = ev_buf_adds(&b, c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r");
		else if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
			bad = ev_buf_printf(&b, "\\u%04x", c);
		else
			bad = ev_buf_addc(&b, (char)c);
	}
	if (bad == 0 && ev_buf_addc(&b, '\n') == 0)
		fwrite(b.p, 1, b.len, stderr);
	else
		fprintf(stderr, "%s: %s\n", ev_progname, msg);
	ev_buf_release(&b);
}

void
ev_warn(const char *fmt, ...)
{
	va_list ap, again;
	char *msg = NULL;
	int n;

	va_start(ap, fmt);
	va_copy(again, ap);
	n = vasprintf(&msg, fmt, ap);
	if (n >= 0)
		say(msg);
	else {		/* out of memory: as it is */
		fprintf(stderr, "%s: ", ev_progname);
		vfprintf(stderr, fmt, again);
		fputc('\n', stderr);
	}
	va_end(again);
	va_end(ap);
	free(n >= 0 ? msg : NULL);
}

int
ev_cli_report(const struct ev_err *err)
{
	char text[1100];

	say(ev_err_text(err, text, sizeof text));
	return err->code ? err->code : EV_EXIT_RUNTIME;
}

void
ev_cli_usage_error(struct ev_cli *cli, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", cli->prog);
	exit(EV_EXIT_USAGE);
}

void
ev_cli_stdin_once(struct ev_cli *cli, const char *flag, const char *path, const char *what,
    const char *operand, char *const *ops, int n)
{
	if (path == NULL || strcmp(path, "-") != 0)
		return;
	if (n == 0)
		ev_cli_usage_error(cli, "%s - reads %s from standard input: %s must come from files",
		    flag, what, operand);
	for (int i = 0; i < n; i++)
		if (strcmp(ops[i], "-") == 0)
			ev_cli_usage_error(cli, "%s - and %s from '-' both read standard input", flag,
			    operand);
}

void
ev_cli_stdout_taken(struct ev_cli *cli, const char *flag, const char *path, const char *held)
{
	if (path != NULL && strcmp(path, "-") == 0)
		ev_cli_usage_error(cli, "%s -: standard output holds %s; give %s a file to write to",
		    flag, held, flag);
}

void
ev_cli_lane_or_usage(struct ev_cli *cli, const char *opt, const char *lane)
{
	if (!ev_plan_lane_name_ok(lane))
		ev_cli_usage_error(cli, "%s: '%s' is not a lane: a lane is " EV_PLAN_LANE_RULE, opt,
		    lane);
}

void
ev_cli_config_error(struct ev_cli *cli, const struct ev_err *err)
{
	(void)cli;
	exit(ev_cli_report(err) == EV_EXIT_RUNTIME ? EV_EXIT_RUNTIME : EV_EXIT_USAGE);
}

/* Would a line written to the file at path (existing, or to be made in
 * dir) find room?  A device that refuses every write (/dev/full) says so to
 * a write of no bytes, which changes nothing (nor does it to a regular
 * file); a file system with no free block (none the user may take) has
 * none.  A pipe or socket is
 * not tried (opening one could wait for a reader).  Returns 1, or 0 with
 * errno set. */
static int
log_has_room(const char *path, const char *dir)
{
	struct statvfs fs;
	struct stat sb;
	int fd, ok = 1;

	if (dir == NULL && stat(path, &sb) == 0 && S_ISCHR(sb.st_mode)) {
		if ((fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC)) == -1)
			return 0;
		ok = write(fd, "", 0) == 0;
		close(fd);
		return ok;
	}
	if (dir == NULL && (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)))
		return 1;
	if (statvfs(dir ? dir : path, &fs) == 0 && fs.f_blocks > 0 &&
	    (geteuid() == 0 ? fs.f_bfree : fs.f_bavail) == 0) {
		errno = ENOSPC;
		return 0;
	}
	return 1;
}

void
ev_cli_check_output(const char *flag, const char *path, const char *what)
{
	const char *slash;
	struct stat sb;
	char *dir;
	int ok, e;

	if (path != NULL && *path == '\0') {
		ev_warn("%s names no file: give it the file to write %s to; nothing was run", flag,
		    what);
		exit(EV_EXIT_USAGE);
	}
	if (path == NULL || strcmp(path, "-") == 0)
		return;
	if (stat(path, &sb) == 0)
		ok = S_ISDIR(sb.st_mode) ? (errno = EISDIR, 0) :
		    access(path, W_OK) == 0 && log_has_room(path, NULL);
	else if (errno != ENOENT)
		ok = 0;
	else if ((slash = strrchr(path, '/')) == NULL)
		ok = access(".", W_OK | X_OK) == 0 && log_has_room(path, ".");
	else if ((dir = strndup(path, slash == path ? 1 : (size_t)(slash - path))) == NULL)
		return;		/* (found out when the file is written) */
	else {
		ok = access(dir, W_OK | X_OK) == 0 && log_has_room(path, dir);
		e = errno;
		free(dir);
		errno = e;
	}
	if (ok)
		return;
	e = errno;
	ev_warn("%s: cannot write %s: %s%s; nothing was run", path, what, strerror(e),
	    e == ENOENT ? " (its directory is missing)" : "");
	exit(EV_EXIT_USAGE);
}

void
ev_cli_init(struct ev_cli *cli, const char *prog, const char *usage, int argc, char **argv)
{
	struct ev_err err = { 0 };
	int i;

	memset(cli, 0, sizeof *cli);
	cli->prog = ev_progname = prog;
	cli->usage = usage;
	cli->argc = argc;
	cli->argv = argv;
	if (argc > 0)
		argv[0] = (char *)prog;	/* getopt's messages say "ev-foo:", not a path */
	clock_gettime(CLOCK_MONOTONIC, &cli->started);
	cli->stderr_tty = isatty(STDERR_FILENO);
	ev_out_init();
	/* --config and --log act before the other options are read, so that
	 * the file's values are defaults which flags then override. */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], **slot = NULL;
		size_t n;

		if (strcmp(a, "--") == 0)
			break;
		if (strncmp(a, "--config", 8) == 0)
			slot = &cli->config_path, n = 8;
		else if (strncmp(a, "--log", 5) == 0)
			slot = &cli->log_path, n = 5;
		else
			continue;
		if (a[n] == '=')
			*slot = a + n + 1;
		else if (a[n] == '\0' && i + 1 < argc)
			*slot = argv[++i];
	}
	/* the log is appended to a file: standard output carries the records */
	ev_cli_stdout_taken(cli, "--log", cli->log_path, "the command's records");
	ev_cli_check_output("--log", cli->log_path, "the log");
	cli->counts = json_object();
	if (cli->config_path == NULL) {
		cli->config = json_object();
		return;
	}
	if ((cli->config = ev_config_load(cli->config_path, &err)) == NULL)
		ev_cli_config_error(cli, &err);
}

void
ev_cli_common(struct ev_cli *cli, int ch)
{
	switch (ch) {
	case EV_OPT_HELP:
		fputs(cli->usage, stdout);
		exit(fflush(stdout) == 0 ? EV_EXIT_OK : EV_EXIT_RUNTIME);
	case EV_OPT_VERSION:
		printf("%s %s\n", cli->prog, EV_VERSION);
		exit(fflush(stdout) == 0 ? EV_EXIT_OK : EV_EXIT_RUNTIME);
	case EV_OPT_CONFIG:
	case EV_OPT_LOG:
		return;
	default:	/* getopt has said what was wrong */
		fprintf(stderr, "Try '%s --help' for more information.\n", cli->prog);
		exit(EV_EXIT_USAGE);
	}
}

void
ev_cli_warn_unknown_key(const char *path, void *file)
{
	ev_warn("%s: unknown key '%s' ignored", (const char *)file, path);
}

void
ev_cli_check_config(struct ev_cli *cli, const char *const *shape, const char *const *known)
{
	struct ev_err err = { 0 };

	if (ev_config_check_shape(cli->config, shape, cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
	ev_config_unknown(cli->config, known, ev_cli_warn_unknown_key, (void *)cli->config_path);
}

int
ev_parse_count(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (s == NULL || ev_config_number_text(s) != 1)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
ev_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (s == NULL || ev_config_number_text(s) == 0)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE && fabs(v) < 1)
		errno = 0;	/* (too small for a double: its nearest, 0 or subnormal) */
	if (errno != 0 || *end != '\0' || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
ev_cli_skip(struct ev_skip *s, const struct ev_err *err)
{
	if (!s->on || err->code != EV_EXIT_USAGE)
		return 0;
	if (++s->count <= EV_SKIP_SHOWN)
		ev_cli_report(err);
	else if (s->count == EV_SKIP_SHOWN + 1)	/* said once there is one */
		ev_warn("further skipped records not shown");
	return 1;
}

void
ev_cli_skip_done(struct ev_cli *cli, const struct ev_skip *s)
{
	if (s->count > 0)
		ev_warn("skipped %lld invalid record%s", s->count, s->count == 1 ? "" : "s");
	ev_cli_count(cli, "skipped", s->count);
}

int
ev_cli_skip_cb(void *skip, struct ev_err *err)
{
	return ev_cli_skip(skip, err);
}

void
ev_cli_warn_cb(void *ctx, const char *where, const char *what)
{
	(void)ctx;
	ev_warn("%s: %s", where, what);
}

void
ev_cli_note_cb(void *ctx, const char *msg)
{
	(void)ctx;
	ev_warn("%s", msg);
}

int
ev_cli_loop_end(struct ev_cli *cli, const struct ev_skip *s, int r, const struct ev_err *err)
{
	int rc = r == -1 ? ev_cli_report(err) : EV_EXIT_OK;

	ev_cli_skip_done(cli, s);
	return rc;
}

/* Hands hits, when it holds any, to flush, clears it and writes what flush
 * put in out. */
static int
flush_hits(ev_cli_query_fn *flush, void *ctx, json_t *hits, const char *where,
	struct ev_buf *out, struct ev_err *err)
{
	int r;

	if (json_array_size(hits) == 0)
		return 0;
	ev_buf_reset(out);
	r = flush(ctx, hits, where, out, err);
	json_array_clear(hits);
	if (r == -1)
		return -1;
	if (fwrite(out->p, 1, out->len, stdout) != out->len || fflush(stdout) == EOF)
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error");
	return 0;
}

/* Whether hit v repeats the id of an earlier hit of its lane in its query
 * qid (the same chunk from two lanes is no repeat: ev-fuse would fuse them),
 * or gives another query text than an earlier hit: seen maps "N:LANEID" (N
 * the length of the lane, "" without one) to where each earlier hit was
 * read, and "" to [the first query text, where]; key is scratch.  1 with
 * *err set (code 2), else 0 with v noted in seen, or -1 out of memory. */
static int
seen_before(json_t *seen, const json_t *v, const char *qid, const char *where,
	struct ev_buf *key, struct ev_err *err)
{
	const char *id = json_string_value(json_object_get(v, "id"));
	const char *lane = json_string_value(json_object_get(v, "lane"));
	const json_t *q = json_object_get(v, "query"), *fq = json_object_get(seen, ""), *first;

	ev_buf_reset(key);
	if (ev_buf_printf(key, "%zu:%s%s", lane ? strlen(lane) : 0, lane ? lane : "", id) == -1)
		return ev_err_nomem(err);
	if ((first = json_object_get(seen, ev_buf_str(key))) != NULL) {
		ev_err_hit_twice(err, where, id, lane, qid, json_string_value(first));
		return 1;
	}
	if (q != NULL && fq != NULL && !json_equal(q, json_array_get(fq, 0))) {
		ev_err_set(err, EV_EXIT_USAGE, where, "query '%s' is '%s' here but '%s' at %s: the"
		    " hits of one query_id must be of one query; give each query its own query_id",
		    qid, json_string_value(q), json_string_value(json_array_get(fq, 0)),
		    json_string_value(json_array_get(fq, 1)));
		return 1;
	}
	/* (where names a file as given, which may be no UTF-8: kept unchecked) */
	if (json_object_set_new(seen, ev_buf_str(key), json_string_nocheck(where)) == -1 ||
	    (q != NULL && fq == NULL && json_object_set_new(seen, "", json_pack("[O,o]", q,
	    json_string_nocheck(where))) == -1))
		return ev_err_nomem(err);
	return 0;
}

int
ev_cli_query_hits(struct ev_cli *cli, struct ev_jsonl *in, int skip_invalid,
	ev_cli_hit_check_fn *check, ev_cli_query_fn *flush, void *ctx, long long *nhits)
{
	struct ev_err err = { 0 };
	struct ev_skip skip = { skip_invalid, 0 };
	struct ev_buf out = EV_BUF_INIT;
	json_t *hits = json_array(), *done = json_object(), *seen = json_object(), *v;
	struct ev_buf qid = EV_BUF_INIT, id = EV_BUF_INIT, key = EV_BUF_INIT;
	char where[EV_WHERE_MAX] = "";
	int r, rc;

	if (hits == NULL || done == NULL || seen == NULL) {
		json_decref(hits);
		json_decref(done);
		json_decref(seen);
		return ev_cli_loop_end(cli, &skip, ev_err_nomem(&err), &err);
	}
	while ((r = ev_jsonl_next_hit(in, &v, &id, &err)) != 0) {
		if (r == 1 && check != NULL && check(ctx, v, ev_jsonl_where(in), &err) == -1) {
			json_decref(v);
			r = -1;
		}
		if (r == -1) {
			if (ev_cli_skip(&skip, &err))
				continue;
			break;
		}
		/* a query's hits are consecutive records with its query_id: one
		 * that comes back after them would be answered twice, apart */
		if (strcmp(ev_buf_str(&id), ev_buf_str(&qid)) != 0 && ((json_array_size(hits) > 0 &&
		    json_object_set_new(done, ev_buf_str(&qid), json_true()) == -1 &&
		    ev_err_nomem(&err)) ||
		    flush_hits(flush, ctx, hits, where, &out, &err) == -1)) {
			json_decref(v);
			r = -1;
			break;
		}
		if (json_object_get(done, ev_buf_str(&id)) != NULL) {
			json_decref(v);
			ev_err_set(&err, EV_EXIT_USAGE, ev_jsonl_where(in), "query '%s' comes back"
			    " after its hits were written: a query's hits must be consecutive records",
			    ev_buf_str(&id));
			ev_buf_reset(&qid);	/* skipped: the next record starts afresh */
			if (ev_cli_skip(&skip, &err))
				continue;
			r = -1;
			break;
		}
		if (strcmp(ev_buf_str(&id), ev_buf_str(&qid)) != 0)
			json_object_clear(seen);
		ev_buf_reset(&qid);
		if (ev_buf_adds(&qid, ev_buf_str(&id)) == -1) {
			json_decref(v);
			r = ev_err_nomem(&err);
			break;
		}
		if ((r = seen_before(seen, v, ev_buf_str(&qid), ev_jsonl_where(in), &key,
		    &err)) != 0) {
			json_decref(v);
			if (r == 1 && ev_cli_skip(&skip, &err))
				continue;
			r = -1;
			break;
		}
		snprintf(where, sizeof where, "%s", ev_jsonl_where(in));
		(*nhits)++;
		if (json_array_append_new(hits, v) == -1) {
			r = ev_err_nomem(&err);
			break;
		}
	}
	if (r == 0 && flush_hits(flush, ctx, hits, where, &out, &err) == -1)
		r = -1;
	rc = ev_cli_loop_end(cli, &skip, r, &err);
	ev_buf_release(&out);
	ev_buf_release(&qid);
	ev_buf_release(&id);
	ev_buf_release(&key);
	json_decref(hits);
	json_decref(done);
	json_decref(seen);
	return rc;
}

void
ev_cli_count(struct ev_cli *cli, const char *key, long long n)
{
	json_t *v = json_object_get(cli->counts, key);
	long long have = v ? (long long)json_integer_value(v) : 0;

	json_object_set_new(cli->counts, key, json_integer(have + n));
}

double
ev_cli_elapsed_ms(const struct ev_cli *cli)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ms_between(&cli->started, &now);
}

/* ev_cli_trace()'s stdout: each write goes on to the real one, and is noted. */
static ssize_t
traced_write(void *c, const char *p, size_t n)
{
	struct ev_cli *cli = c;

	if (fwrite(p, 1, n, cli->traced_stdout) != n || fflush(cli->traced_stdout) == EOF)
		return -1;
	ev_toolrun_wrote(cli->trace, p, n);
	return (ssize_t)n;
}

static int
traced_close(void *c)
{
	struct ev_cli *cli = c;

	return fclose(cli->traced_stdout) == EOF ? -1 : 0;
}

void
ev_cli_trace(struct ev_cli *cli)
{
	static const cookie_io_functions_t io = { NULL, traced_write, NULL, traced_close };
	FILE *traced;

	if (cli->log_path == NULL || *cli->log_path == '\0')
		return;
	if ((cli->trace = ev_toolrun_new()) == NULL || (traced = fopencookie(cli, "w", io)) == NULL) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
	cli->traced_stdout = stdout;
	stdout = traced;
	ev_jsonl_observe(ev_toolrun_read, cli->trace);
}

void
ev_cli_log_plan(struct ev_cli *cli, const json_t *plan)
{
	cli->log_plan = plan;
}

void
ev_cli_log_output(void *c, const json_t *rec)
{
	struct ev_cli *cli = c;

	if (cli->trace != NULL)
		ev_toolrun_output(cli->trace, rec);
}

void
ev_cli_log_set(struct ev_cli *cli, const char *key, json_t *value)
{
	if (cli->log_path == NULL) {
		json_decref(value);
		return;
	}
	if (cli->log_extra == NULL)
		cli->log_extra = json_object();
	json_object_set_new(cli->log_extra, key, value);
}

/* The ToolRun line of the run ending with status rc, or NULL when out of
 * memory. */
static json_t *
toolrun_line(struct ev_cli *cli, int rc)
{
	json_t *run, *args;
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];
	int i;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
	args = json_array();
	/* every argument, those that are not UTF-8 too (a file's name) */
	for (i = 1; args != NULL && i < cli->argc; i++)
		if (json_array_append_new(args, ev_jsoncopy_text(cli->argv[i], strlen(cli->argv[i]))) ==
		    -1) {
			json_decref(args);
			args = NULL;
		}
	run = json_pack("{s:s,s:s,s:o,s:O,s:s,s:I,s:i}", "tool", cli->prog, "version", EV_VERSION,
	    "arguments", args, "counts", cli->counts, "finished_at", stamp,
	    "took_ms", (json_int_t)llround(ev_cli_elapsed_ms(cli)), "exit", rc);
	if (run != NULL && cli->config_path != NULL && json_object_set_new(run, "config",
	    ev_jsoncopy_text(cli->config_path, strlen(cli->config_path))) == -1) {
		json_decref(run);
		return NULL;
	}
	if (run != NULL && cli->trace != NULL && ev_toolrun_add(cli->trace, run,
	    cli->log_plan ? cli->log_plan : cli->config_path ? cli->config : NULL) == -1) {
		json_decref(run);
		return NULL;
	}
	if (run != NULL && cli->log_extra != NULL && json_object_update(run, cli->log_extra) == -1) {
		json_decref(run);
		return NULL;
	}
	return run;
}

/* Append the ToolRun line to --log, in one write(2) to a file opened for
 * appending, so that the lines of commands logging to one file at once (the
 * stages of a pipeline) never mix.  Returns 0 or -1. */
static int
write_log(struct ev_cli *cli, int rc)
{
	json_t *run = toolrun_line(cli, rc);
	struct ev_buf line = EV_BUF_INIT;
	size_t done = 0;
	ssize_t n = 0;
	int fd, e, ok;

	if (run == NULL || ev_json_dump(&line, run) == -1 || ev_buf_addc(&line, '\n') == -1) {
		ev_warn("%s: cannot write the log: out of memory", cli->log_path);
		json_decref(run);
		ev_buf_release(&line);
		return -1;
	}
	json_decref(run);
	if ((fd = open(cli->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666)) == -1) {
		ev_warn("%s: cannot open the log: %s", cli->log_path, strerror(errno));
		ev_buf_release(&line);
		return -1;
	}
	while (done < line.len && (n = write(fd, line.p + done, line.len - done)) > 0)
		done += (size_t)n;
	e = n == -1 ? errno : EIO;
	ok = done == line.len;
	ev_buf_release(&line);
	if (close(fd) == -1 && ok)
		ok = 0, e = errno;
	if (!ok) {
		ev_warn("%s: cannot write the log: %s", cli->log_path, strerror(e));
		return -1;
	}
	return 0;
}

int
ev_cli_finish(struct ev_cli *cli, int rc)
{
	int closed;

	errno = 0;
	closed = fflush(stdout) == 0 && !ferror(stdout);
	if (fclose(stdout) == EOF)
		closed = 0;
	/* A failed run has said what went wrong (often this very write). */
	if (!closed && rc == EV_EXIT_OK) {
		ev_warn("stdout: write error: %s", strerror(errno ? errno : EIO));
		rc = EV_EXIT_RUNTIME;
	}
	if (cli->log_path != NULL && write_log(cli, rc) == -1 && rc == EV_EXIT_OK)
		rc = EV_EXIT_RUNTIME;
	ev_jsonl_observe(NULL, NULL);
	ev_toolrun_free(cli->trace);
	json_decref(cli->config);
	json_decref(cli->counts);
	json_decref(cli->log_extra);
	cli->config = cli->counts = cli->log_extra = NULL;
	cli->trace = NULL;
	return rc;
}

void
ev_progress_start(struct ev_progress *p, struct ev_cli *cli, const char *unit, long long total)
{
	memset(p, 0, sizeof *p);
	p->cli = cli;
	p->unit = unit;
	p->total = total;
	p->active = cli->stderr_tty;
	clock_gettime(CLOCK_MONOTONIC, &p->started);
	p->shown = p->started;
}

void
ev_progress_step(struct ev_progress *p, long long items, long long bytes)
{
	struct timespec now;
	double secs, rate;

	p->done += items;
	p->bytes += bytes;
	if (!p->active)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (ms_between(&p->shown, &now) < 250)
		return;
	p->shown = now;
	secs = ms_between(&p->started, &now) / 1e3;
	rate = secs > 0 ? (double)p->done / secs : 0;
	fprintf(stderr, "\r%s: %lld", ev_progname, p->done);
	if (p->total > 0)
		fprintf(stderr, "/%lld", p->total);
	fprintf(stderr, " %s, %.0f %s/s, %.1f MB/s", p->unit, rate, p->unit,
	    secs > 0 ? (double)p->bytes / 1e6 / secs : 0.0);
	if (p->total > 0 && rate > 0)
		fprintf(stderr, ", ETA %.0f s", (double)(p->total - p->done) / rate);
	fputs("\033[K", stderr);
}

void
ev_progress_cb(void *p, long long items, long long bytes)
{
	ev_progress_step(p, items, bytes);
}

void
ev_progress_so_far_cb(void *p, long long done)
{
	ev_progress_step(p, done - ((struct ev_progress *)p)->done, 0);
}

int
ev_cli_load_skip(void *load, const struct ev_err *err)
{
	return ev_cli_skip(&((struct ev_cli_load *)load)->skip, err);
}

void
ev_cli_load_step(void *load, long long n)
{
	struct ev_cli_load *L = load;

	ev_progress_step(&L->progress, 1, n * L->bytes_per);
}

void
ev_cli_load_check(struct ev_cli *cli, const char *factory, const char *model)
{
	if (factory != NULL && (factory[0] == '\0' || strlen(factory) > 200))
		ev_cli_usage_error(cli, "--factory takes a Faiss index factory string: '%s'", factory);
	if (model != NULL && model[0] == '\0')
		ev_cli_usage_error(cli, "--model takes a model id");
}

void
ev_cli_load_start(struct ev_cli_load *load, struct ev_cli *cli, const char *unit, int skip_invalid)
{
	load->skip.on = skip_invalid;
	ev_progress_start(&load->progress, cli, unit, 0);
}

int
ev_cli_load_end(struct ev_cli_load *load, int *rc, const struct ev_err *err, const char *fmt, ...)
{
	va_list ap;

	ev_progress_done(&load->progress);
	if (*rc != -1)
		return 0;
	*rc = ev_cli_report(err);
	if (*rc != EV_EXIT_USAGE)
		return -1;
	fprintf(stderr, "%s: nothing loaded: ", ev_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", load->skip.on ? "" : " (--skip-invalid skips bad records)");
	return -1;
}

void
ev_cli_load_done(struct ev_cli *cli, const struct ev_cli_load *load, long long records,
	long long vectors)
{
	ev_cli_count(cli, "records", records);
	ev_cli_skip_done(cli, &load->skip);
	ev_cli_count(cli, "vectors", vectors);
}

void
ev_progress_done(struct ev_progress *p)
{
	if (p->active && p->done > 0)
		fputs("\r\033[K", stderr);
	p->active = 0;
}
