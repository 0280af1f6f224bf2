/* ev-score: score answers against the passages they cite.
 * Answer records (or EvidencePacks with an "answer") in, score records out,
 * one per input, streaming.  See man/ev-score.1 and lib/score.h. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "score.h"
#include "store.h"
#include "token.h"

static const char usage_text[] =
"usage: ev-score [--db DB] [--min-overall X] [--min-faithfulness X] [--min-coverage X]\n"
"                [--max-redundancy X] [--weight AXIS=W ...] [--redundancy nearest|max|mean]\n"
"                [--summary[=text|json]] [--judge CMD] [--judge-timeout SECONDS]\n"
"                [--skip-invalid] [--config FILE.yaml] [--log FILE] [FILE ...]\n"
"\n"
"Score answers against their citations: faithfulness, coverage, redundancy,\n"
"overall.  Answer records {\"query\", \"answer\", \"citations\": [{\"id\", \"text\"}]}\n"
"(or EvidencePacks with an \"answer\") in, score records out.\n"
"\n"
"  --db DB                idf for redundancy from the store's vocabulary\n"
"  --min-overall X        exit 3 when an item's overall score is below X\n"
"  --min-faithfulness X   exit 3 when an item's faithfulness is below X\n"
"  --min-coverage X       exit 3 when an item's coverage is below X\n"
"  --max-redundancy X     exit 3 when an item's redundancy is above X\n"
"  --weight AXIS=W        weight of faithfulness, coverage or redundancy in overall\n"
"                         (defaults 0.4, 0.4, 0.2)\n"
"  --redundancy HOW       nearest (default), max or mean of the pair similarities\n"
"  --summary[=FORMAT]     mean, p10, p50, p90 of each axis, and each failing gate\n"
"                         with the items that fail it: text on stderr (default),\n"
"                         or json: a last line on stdout\n"
"  --judge CMD            ask CMD (run by sh, kept running) about each claim: one\n"
"                         JSON line out per claim, one verdict line back\n"
"  --judge-timeout S      how long to wait for each verdict (default 60)\n"
"  --skip-invalid         skip bad records (counted on stderr) instead of failing\n"
"  --config FILE.yaml     defaults (db, weights.*, gates.*, redundancy, summary,\n"
"                         judge, judge_timeout)\n"
"  --log FILE             append a ToolRun line\n"
"  --help, --version\n"
"\n"
"A CI gate that catches made-up answers (overall alone can hide an unsupported\n"
"answer): ev-score --min-faithfulness 0.5 --min-overall 0.6 --summary FILE\n";

enum {
	OPT_DB = EV_OPT_FIRST_FREE,
	OPT_MIN_OVERALL,
	OPT_MIN_FAITH,
	OPT_MIN_COVERAGE,
	OPT_MAX_REDUNDANCY,
	OPT_WEIGHT,
	OPT_REDUNDANCY,
	OPT_SUMMARY,
	OPT_JUDGE,
	OPT_JUDGE_TIMEOUT,
	OPT_SKIP_INVALID
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "min-overall", required_argument, NULL, OPT_MIN_OVERALL },
	{ "min-faithfulness", required_argument, NULL, OPT_MIN_FAITH },
	{ "min-coverage", required_argument, NULL, OPT_MIN_COVERAGE },
	{ "max-redundancy", required_argument, NULL, OPT_MAX_REDUNDANCY },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "redundancy", required_argument, NULL, OPT_REDUNDANCY },
	{ "summary", optional_argument, NULL, OPT_SUMMARY },
	{ "judge", required_argument, NULL, OPT_JUDGE },
	{ "judge-timeout", required_argument, NULL, OPT_JUDGE_TIMEOUT },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP_INVALID },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

static const char *const known_keys[] = {
	"db", "weights.faithfulness", "weights.coverage", "weights.redundancy",
	"gates.min_overall", "gates.min_faithfulness", "gates.min_coverage",
	"gates.max_redundancy", "redundancy", "summary", "judge", "judge_timeout", NULL
};

/* The four axes, in output order; a gate is a bound on one of them. */
enum { AX_FAITH, AX_COVERAGE, AX_REDUNDANCY, AX_OVERALL, NAXES };
static const char *const axis_name[NAXES] = { "faithfulness", "coverage", "redundancy", "overall" };
static const char *const gate_key[NAXES] = { "gates.min_faithfulness", "gates.min_coverage",
	"gates.max_redundancy", "gates.min_overall" };

#define SUMMARY_IDS 10	/* failing items --summary names for each axis */

struct gates {
	int set[NAXES];
	double bound[NAXES];	/* a minimum, except redundancy's maximum */
	long long below[NAXES];	/* items that failed each gate */
	json_t *ids[NAXES];	/* the first SUMMARY_IDS of their ids, for --summary */
};

enum { SUMMARY_NONE, SUMMARY_TEXT, SUMMARY_JSON };

/* Every item's axes, kept for --summary's percentiles (32 bytes an item). */
struct series {
	double *v;
	size_t n, cap;
};

#define GATE_MESSAGES 20	/* failing items named on stderr before "... more" */

static int
series_add(struct series *s, const double *axes)
{
	double *p;
	size_t cap;

	if (s->n == s->cap) {
		cap = s->cap ? s->cap * 2 : 256;
		if ((p = realloc(s->v, cap * NAXES * sizeof(*p))) == NULL)
			return -1;
		s->v = p;
		s->cap = cap;
	}
	memcpy(s->v + s->n * NAXES, axes, NAXES * sizeof(*axes));
	s->n++;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n), linear between closest ranks (as
 * numpy's default). */
static double
quantile(const double *v, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (n == 0)
		return 0;
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + frac * (v[lo + 1] - v[lo]);
}

/* Print (or emit as JSON) the summary.  Returns 0, or -1 with *err set. */
static int
summarise(const struct series *s, const struct gates *g, long long failed, int format,
    struct ev_err *err)
{
	double *col, mean;
	size_t i;
	int a, r = 0, bad = 0;	/* bad: sticky, a JSON insertion failed */
	json_t *sum = NULL, *ax, *gates;

	if ((col = malloc((s->n + 1) * sizeof(*col))) == NULL)
		return ev_err_nomem(err);
	if (format == SUMMARY_JSON) {
		sum = json_object();
		bad |= json_object_set_new(sum, "items", json_integer((json_int_t)s->n));
	} else {
		fprintf(stderr, "%s: summary of %zu item%s\n", ev_progname, s->n, s->n == 1 ? "" : "s");
		fprintf(stderr, "%-13s %7s %7s %7s %7s  %-9s %s\n", "axis", "mean", "p10", "p50",
		    "p90", "gate", "failed");
	}
	for (a = 0; a < NAXES; a++) {
		mean = 0;
		for (i = 0; i < s->n; i++) {
			col[i] = s->v[i * NAXES + a];
			mean += col[i];
		}
		mean = s->n > 0 ? mean / (double)s->n : 0;
		qsort(col, s->n, sizeof(*col), cmp_double);
		if (format == SUMMARY_JSON) {
			ax = json_pack("{s:f,s:f,s:f,s:f}", "mean", mean, "p10", quantile(col, s->n, 0.1),
			    "p50", quantile(col, s->n, 0.5), "p90", quantile(col, s->n, 0.9));
			if (ax != NULL && g->set[a]) {
				bad |= json_object_set_new(ax, a == AX_REDUNDANCY ? "max" : "min",
				    json_real(g->bound[a]));
				bad |= json_object_set_new(ax, "failed", json_integer(g->below[a]));
				bad |= json_object_set(ax, "failed_ids", g->ids[a]);
			}
			bad |= json_object_set_new(sum, axis_name[a], ax);
		} else {
			char gate[32] = "-", nfail[24] = "-";

			if (g->set[a]) {
				snprintf(gate, sizeof(gate), "%s %g", a == AX_REDUNDANCY ? "<=" : ">=",
				    g->bound[a]);
				snprintf(nfail, sizeof(nfail), "%lld", g->below[a]);
			}
			fprintf(stderr, "%-13s %7.4f %7.4f %7.4f %7.4f  %-9s %s\n", axis_name[a], mean,
			    quantile(col, s->n, 0.1), quantile(col, s->n, 0.5),
			    quantile(col, s->n, 0.9), gate, nfail);
		}
	}
	/* Name each failing axis and its items, so that a CI log says what
	 * failed without reading the table. */
	for (a = 0; a < NAXES && format != SUMMARY_JSON; a++) {
		long long k;

		if (!g->set[a] || g->below[a] == 0)
			continue;
		fprintf(stderr, "%s: FAILED %s %s %g: %lld of %zu item%s:", ev_progname, axis_name[a],
		    a == AX_REDUNDANCY ? "<=" : ">=", g->bound[a], g->below[a], s->n,
		    s->n == 1 ? "" : "s");
		for (k = 0; k < g->below[a] && k < SUMMARY_IDS; k++) {
			char id[128] = "?";

			ev_json_id_text(json_array_get(g->ids[a], (size_t)k), id, sizeof(id));
			fprintf(stderr, "%s %s", k ? "," : "", id);
		}
		if (g->below[a] > SUMMARY_IDS)
			fprintf(stderr, ", ... and %lld more", g->below[a] - SUMMARY_IDS);
		fputc('\n', stderr);
	}
	if (format == SUMMARY_JSON) {
		gates = json_object();
		bad |= json_object_set_new(gates, "failed_items", json_integer(failed));
		bad |= json_object_set_new(sum, "gates", gates);
		ax = json_pack("{s:o}", "summary", sum);	/* takes sum */
		r = ax != NULL && !bad ? ev_jsonl_write(stdout, ax, err) : ev_err_nomem(err);
		json_decref(ax);
	}
	free(col);
	return r;
}

/* The query id of rec (a new reference): its "query_id", else its
 * "plan.query_id" (an EvidencePack's), else its line number. */
static json_t *
record_id(const json_t *rec, size_t lineno)
{
	json_t *id = json_object_get(rec, "query_id");

	if (id == NULL || json_is_null(id))
		id = json_object_get(json_object_get(rec, "plan"), "query_id");
	if (id != NULL && !json_is_null(id))
		return json_incref(id);
	return json_integer((json_int_t)lineno);
}

/* The score record of rec: query_id (the input's, else plan.query_id, else
 * the line number), request_id and plan_id when present, the axes, "passed"
 * when gates are set, details. */
static json_t *
score_record(const json_t *rec, size_t lineno, const struct ev_score_result *res,
    const int *failed, int have_gates)
{
	json_t *out = json_object(), *id;
	int a, passed = 1, r;

	/* a failed insertion (memory running out) fails the whole record:
	 * r collects every result (json_object_set_new takes its value, also
	 * when it fails) */
	r = json_object_set_new(out, "query_id", record_id(rec, lineno));
	if ((id = json_object_get(rec, "request_id")) != NULL)
		r |= json_object_set(out, "request_id", id);
	if ((id = json_object_get(rec, "plan_id")) != NULL)
		r |= json_object_set(out, "plan_id", id);
	r |= json_object_set_new(out, "faithfulness", json_real(res->faithfulness));
	r |= json_object_set_new(out, "coverage", json_real(res->coverage));
	r |= json_object_set_new(out, "redundancy", json_real(res->redundancy));
	r |= json_object_set_new(out, "overall", json_real(res->overall));
	if (have_gates) {
		for (a = 0; a < NAXES; a++)
			if (failed[a])
				passed = 0;
		r |= json_object_set_new(out, "passed", json_boolean(passed));
	}
	r |= json_object_set(out, "details", res->details);
	if (r != 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* The --judge coprocess: sh -c CMD, with a pipe each way.  For each claim it
 * reads one JSON line {"query_id", "query", "claim", "citation": {"index",
 * "id"?, "text"} | null, "keyword_support"} and writes one line back: a
 * number from 0 to 1, true or false, or an object with "support" (a number)
 * or "supported" (a boolean). */
struct judge {
	const char *cmd;
	pid_t pid;
	FILE *to;
	int from;		/* the judge's stdout, read with a timeout */
	int timeout_ms;		/* per verdict */
	struct ev_buf in;	/* bytes read from the judge */
	size_t used;		/* of which the last line returned */
	long long asked;
	const struct ev_score_item *item;	/* the item being scored */
	json_t *query_id;
	struct ev_buf req;
};

static int
judge_start(struct judge *j, struct ev_err *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };

	if (pipe(in) == -1 || pipe(out) == -1)
		goto fail;
	fflush(NULL);
	if ((j->pid = fork()) == -1)
		goto fail;
	if (j->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execl("/bin/sh", "sh", "-c", j->cmd, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	signal(SIGPIPE, SIG_IGN);	/* a judge that quits is an error, not a kill */
	j->from = out[0];
	if ((j->to = fdopen(in[1], "w")) == NULL) {
		close(in[1]);
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "judge '%s': %s", j->cmd, strerror(errno));
	}
	return 0;
fail:
	ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot start the judge '%s': %s", j->cmd,
	    strerror(errno));
	if (in[0] != -1) {
		close(in[0]);
		close(in[1]);
	}
	if (out[0] != -1) {
		close(out[0]);
		close(out[1]);
	}
	return -1;
}

/* Close the judge's input and wait for it.  Returns 0, or -1 with *err set
 * when it failed (and no error was reported before). */
static int
judge_stop(struct judge *j, struct ev_err *err)
{
	int status, r = 0;

	if (j->to != NULL)
		fclose(j->to);
	if (j->from > 0)
		close(j->from);
	if (j->pid > 0) {
		while (waitpid(j->pid, &status, 0) == -1 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			r = ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the judge '%s' failed (%s %d)",
			    j->cmd, WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	}
	ev_buf_release(&j->in);
	ev_buf_release(&j->req);
	return r;
}

/* Read the judge's next line: it is j->in.p[0 .. n - 1), n returned (the
 * newline counted), 0 at end of file, -1 on a timeout (errno ETIMEDOUT) or
 * an error.  What follows the line stays in j->in for the next call. */
static ssize_t
judge_line(struct judge *j, size_t *used)
{
	struct pollfd pfd = { j->from, POLLIN, 0 };
	char *nl;
	ssize_t n;
	size_t done;

	/* drop the line returned last time */
	if (*used > 0) {
		memmove(j->in.p, j->in.p + *used, j->in.len - *used);
		j->in.len -= *used;
		*used = 0;
	}
	for (;;) {
		if (j->in.len > 0 && (nl = memchr(j->in.p, '\n', j->in.len)) != NULL) {
			done = (size_t)(nl - j->in.p);
			*used = done + 1;
			return (ssize_t)done + 1;
		}
		if (j->in.len > (1u << 20)) {
			errno = EMSGSIZE;
			return -1;
		}
		n = poll(&pfd, 1, j->timeout_ms);
		if (n == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (ev_buf_reserve(&j->in, 4096) == -1)
			return -1;
		n = read(j->from, j->in.p + j->in.len, 4096);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0)
			return 0;
		j->in.len += (size_t)n;
	}
}

static int
judge_ask(void *ctx, const char *claim, size_t len, const struct ev_score_cite *best,
    double keyword, double *verdict, struct ev_err *err)
{
	struct judge *j = ctx;
	json_t *req, *cite = json_null(), *v, *f;
	ssize_t n;
	int r;

	if (best != NULL) {
		cite = json_pack("{s:I,s:s%}", "index", (json_int_t)(best - j->item->cites),
		    "text", best->text, best->len);
		if (cite != NULL && best->id != NULL &&
		    json_object_set_new(cite, "id", json_string(best->id)) == -1) {
			json_decref(cite);
			return ev_err_nomem(err);
		}
	}
	req = json_pack("{s:O,s:s%,s:s%,s:o,s:f}", "query_id", j->query_id,
	    "query", j->item->query, j->item->query_len, "claim", claim, len,
	    "citation", cite, "keyword_support", keyword);
	ev_buf_reset(&j->req);
	r = req == NULL || ev_json_dump(&j->req, req) == -1 || ev_buf_addc(&j->req, '\n') == -1;
	json_decref(req);
	if (r)
		return ev_err_nomem(err);
	j->asked++;
	if (fwrite(j->req.p, 1, j->req.len, j->to) != j->req.len || fflush(j->to) == EOF) {
		/* a judge that quit may still have left its verdict in the pipe */
		if (errno != EPIPE)
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			    "cannot write to the judge '%s': %s", j->cmd, strerror(errno));
		clearerr(j->to);
	}
	n = judge_line(j, &j->used);
	if (n == 0)
		goto quit;
	if (n < 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "the judge '%s' gave no verdict for claim %lld: %s", j->cmd, j->asked,
		    errno == ETIMEDOUT ? "no answer in time (see --judge-timeout)" : strerror(errno));
	n--;	/* the newline */
	{
		struct ev_err perr = { 0 };

		/* not json_loadb(): see ev_json_parse_line() on failed allocations */
		v = ev_json_parse_line(j->in.p, (size_t)n, NULL, &perr);
		if (v == NULL && perr.code == EV_EXIT_RUNTIME)
			return ev_err_nomem(err);
	}
	if (json_is_object(v)) {
		f = json_object_get(v, "support");
		if (f == NULL)
			f = json_object_get(v, "supported");
	} else
		f = v;
	r = 0;
	if (json_is_boolean(f))
		*verdict = json_is_true(f) ? 1 : 0;
	else if (json_is_number(f) && json_number_value(f) >= 0 && json_number_value(f) <= 1)
		*verdict = json_number_value(f);
	else
		r = ev_err_set(err, EV_EXIT_RUNTIME, NULL,
		    "the judge '%s' answered claim %lld with '%.*s', not a verdict (a number from 0 "
		    "to 1, true, false, {\"support\": N} or {\"supported\": B})", j->cmd, j->asked,
		    (int)(n > 60 ? 60 : n), j->in.p);
	json_decref(v);
	return r;
quit:
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
	    "the judge '%s' gave no verdict for claim %lld: it has quit", j->cmd, j->asked);
}

static void
parse_weight(struct ev_cli *cli, const char *arg, struct ev_score_weights *w)
{
	const char *eq = strchr(arg, '=');
	double v;
	size_t n = eq ? (size_t)(eq - arg) : 0;

	if (eq == NULL || ev_parse_double(eq + 1, 0, 1e6, &v) == -1)
		ev_cli_usage_error(cli, "--weight takes AXIS=W with W a number from 0 to 1e6: '%s'", arg);
	if (n == 12 && strncmp(arg, "faithfulness", n) == 0)
		w->faithfulness = v;
	else if (n == 8 && strncmp(arg, "coverage", n) == 0)
		w->coverage = v;
	else if (n == 10 && strncmp(arg, "redundancy", n) == 0)
		w->redundancy = v;
	else
		ev_cli_usage_error(cli, "--weight: unknown axis '%.*s' (faithfulness, coverage, redundancy)",
		    (int)n, arg);
}

static int
parse_redundancy(const char *s, enum ev_score_redundancy *out)
{
	if (strcmp(s, "nearest") == 0)
		*out = EV_SCORE_NEAREST;
	else if (strcmp(s, "max") == 0)
		*out = EV_SCORE_MAX;
	else if (strcmp(s, "mean") == 0)
		*out = EV_SCORE_MEAN;
	else
		return -1;
	return 0;
}

static int
parse_summary(const char *s)
{
	if (s == NULL || strcmp(s, "text") == 0)
		return SUMMARY_TEXT;
	if (strcmp(s, "json") == 0)
		return SUMMARY_JSON;
	return -1;
}

/* Defaults from the --config file; flags override them later. */
static void
read_config(struct ev_cli *cli, const char **db, struct ev_score_weights *w, struct gates *g,
    enum ev_score_redundancy *how, int *summary, const char **judge)
{
	struct ev_err err = { 0 };
	const char *s;
	int a, b, r;

	ev_cli_check_config(cli, known_keys);
	if (ev_config_str(cli->config, "db", db, cli->config_path, &err) == -1 ||
	    ev_config_str(cli->config, "judge", judge, cli->config_path, &err) == -1 ||
	    ev_config_num(cli->config, "weights.faithfulness", 0, 1e6, &w->faithfulness,
	    cli->config_path, &err) == -1 ||
	    ev_config_num(cli->config, "weights.coverage", 0, 1e6, &w->coverage,
	    cli->config_path, &err) == -1 ||
	    ev_config_num(cli->config, "weights.redundancy", 0, 1e6, &w->redundancy,
	    cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
	for (a = 0; a < NAXES; a++) {
		r = ev_config_num(cli->config, gate_key[a], 0, 1, &g->bound[a], cli->config_path, &err);
		if (r == -1)
			ev_cli_config_error(cli, &err);
		g->set[a] = r == 1;
	}
	if ((r = ev_config_str(cli->config, "redundancy", &s, cli->config_path, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1 && parse_redundancy(s, how) == -1) {
		ev_err_set(&err, EV_EXIT_USAGE, cli->config_path,
		    "key 'redundancy' must be nearest, max or mean: '%s'", s);
		ev_cli_config_error(cli, &err);
	}
	/* summary: true/false, or "text"/"json" */
	if (json_is_boolean(ev_config_get(cli->config, "summary"))) {
		if (ev_config_bool(cli->config, "summary", &b, cli->config_path, &err) == -1)
			ev_cli_config_error(cli, &err);
		*summary = b ? SUMMARY_TEXT : SUMMARY_NONE;
	} else if ((r = ev_config_str(cli->config, "summary", &s, cli->config_path, &err)) == -1)
		ev_cli_config_error(cli, &err);
	else if (r == 1 && (*summary = parse_summary(s)) == -1) {
		ev_err_set(&err, EV_EXIT_USAGE, cli->config_path,
		    "key 'summary' must be true, false, text or json: '%s'", s);
		ev_cli_config_error(cli, &err);
	}
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_score_weights w = EV_SCORE_WEIGHTS_DEFAULT;
	struct ev_score_item item = EV_SCORE_ITEM_INIT;
	struct ev_score_result res = { 0 };
	struct gates g;
	struct series ser = { NULL, 0, 0 };
	enum ev_score_redundancy how = EV_SCORE_NEAREST;
	struct ev_store *st = NULL;
	struct ev_tok *tok = NULL;
	struct ev_scorer *sc = NULL;
	struct ev_jsonl *in = NULL;
	struct judge jd;
	json_t *rec = NULL, *out, *warnings, *wv;
	const char *db = NULL;
	char where[sizeof(err.where)];
	double axes[NAXES], secs;
	int ch, a, r, rc = EV_EXIT_OK, summary = SUMMARY_NONE, skip_invalid = 0, any_gate = 0;
	int failed[NAXES];
	long long items = 0, skipped = 0, failed_items = 0;
	size_t i;

	memset(&jd, 0, sizeof(jd));
	memset(&g, 0, sizeof(g));
	ev_cli_init(&cli, "ev-score", usage_text, argc, argv);
	for (a = 0; a < NAXES; a++)
		if ((g.ids[a] = json_array()) == NULL) {
			ev_err_nomem(&err);
			goto fail;
		}
	read_config(&cli, &db, &w, &g, &how, &summary, &jd.cmd);
	secs = 60;
	if (ev_config_num(cli.config, "judge_timeout", 0.001, 86400, &secs, cli.config_path, &err) == -1)
		ev_cli_config_error(&cli, &err);
	jd.timeout_ms = (int)ceil(secs * 1000);
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			db = optarg;
			break;
		case OPT_MIN_OVERALL:
		case OPT_MIN_FAITH:
		case OPT_MIN_COVERAGE:
		case OPT_MAX_REDUNDANCY:
			a = ch == OPT_MIN_OVERALL ? AX_OVERALL : ch == OPT_MIN_FAITH ? AX_FAITH :
			    ch == OPT_MIN_COVERAGE ? AX_COVERAGE : AX_REDUNDANCY;
			if (ev_parse_double(optarg, 0, 1, &g.bound[a]) == -1)
				ev_cli_usage_error(&cli, "--%s takes a number from 0 to 1: '%s'",
				    longopts[ch - OPT_DB].name, optarg);
			g.set[a] = 1;
			break;
		case OPT_WEIGHT:
			parse_weight(&cli, optarg, &w);
			break;
		case OPT_REDUNDANCY:
			if (parse_redundancy(optarg, &how) == -1)
				ev_cli_usage_error(&cli, "--redundancy takes nearest, max or mean: '%s'",
				    optarg);
			break;
		case OPT_SUMMARY:
			if ((summary = parse_summary(optarg)) == -1)
				ev_cli_usage_error(&cli, "--summary takes text or json: '%s'", optarg);
			break;
		case OPT_JUDGE:
			jd.cmd = optarg;
			break;
		case OPT_JUDGE_TIMEOUT:
			if (ev_parse_double(optarg, 0.001, 86400, &secs) == -1)
				ev_cli_usage_error(&cli, "--judge-timeout takes seconds from 0.001 to 86400: '%s'",
				    optarg);
			jd.timeout_ms = (int)ceil(secs * 1000);
			break;
		case OPT_SKIP_INVALID:
			skip_invalid = 1;
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (!(w.faithfulness + w.coverage + w.redundancy > 0))
		ev_cli_usage_error(&cli, "the weights must not all be 0");
	for (a = 0; a < NAXES; a++)
		any_gate |= g.set[a];

	if (db != NULL && (st = ev_store_open(db, EV_STORE_READ, &err)) == NULL)
		goto fail;
	if ((tok = ev_tok_open(st != NULL ? ev_store_db(st) : NULL, &err)) == NULL)
		goto fail;
	if ((sc = ev_score_open(tok, st, &err)) == NULL)
		goto fail;
	ev_score_set_redundancy(sc, how);
	if (jd.cmd != NULL) {
		if (jd.cmd[0] == '\0')
			ev_cli_usage_error(&cli, "--judge takes a command");
		if (judge_start(&jd, &err) == -1)
			goto fail;
		ev_score_set_judge(sc, judge_ask, &jd);
	}
	if ((in = ev_jsonl_open(argv + optind, argc - optind, &err)) == NULL)
		goto fail;

	while ((r = ev_jsonl_next(in, &rec, &err)) != 0) {
		if (r == -1 && err.code != EV_EXIT_USAGE)
			goto fail;
		snprintf(where, sizeof(where), "%s", ev_jsonl_where(in));
		if (r == 1 && ev_score_item_from_json(&item, rec, where, &err) == -1 &&
		    err.code != EV_EXIT_USAGE)
			goto fail;
		if (err.code == EV_EXIT_USAGE) {
			json_decref(rec);
			rec = NULL;
			if (!skip_invalid)
				goto fail;
			ev_cli_report(&err);
			ev_err_clear(&err);
			skipped++;
			continue;
		}
		jd.item = &item;
		jd.query_id = record_id(rec, ev_jsonl_lineno(in));
		r = ev_score_run(sc, &item, &w, 1, &res, &err);
		json_decref(jd.query_id);
		if (r == -1) {
			if (err.where[0] == '\0')
				snprintf(err.where, sizeof(err.where), "%s", where);
			goto fail;
		}
		items++;
		warnings = json_object_get(res.details, "warnings");
		json_array_foreach(warnings, i, wv)
			ev_warn("%s: %s", where, json_string_value(wv));
		axes[AX_FAITH] = res.faithfulness;
		axes[AX_COVERAGE] = res.coverage;
		axes[AX_REDUNDANCY] = res.redundancy;
		axes[AX_OVERALL] = res.overall;
		r = 0;
		for (a = 0; a < NAXES; a++) {
			failed[a] = g.set[a] && (a == AX_REDUNDANCY ? axes[a] > g.bound[a] :
			    axes[a] < g.bound[a]);
		}
		out = score_record(rec, ev_jsonl_lineno(in), &res, failed, any_gate);
		for (a = 0; a < NAXES; a++) {
			if (!failed[a])
				continue;
			if (g.below[a]++ < SUMMARY_IDS && out != NULL &&
			    json_array_append(g.ids[a], json_object_get(out, "query_id")) == -1) {
				json_decref(out);
				ev_err_nomem(&err);
				goto fail;
			}
			r = 1;
		}
		if (r && failed_items++ < GATE_MESSAGES) {
			char id[128] = "?", msg[512] = "";
			size_t n = 0;

			ev_json_id_text(json_object_get(out, "query_id"), id, sizeof(id));
			for (a = 0; a < NAXES; a++)
				if (failed[a] && n < sizeof(msg))
					n += snprintf(msg + n, sizeof(msg) - n, "%s%s %.4g %s %g",
					    n ? ", " : "", axis_name[a], axes[a],
					    a == AX_REDUNDANCY ? ">" : "<", g.bound[a]);
			ev_warn("%s: query '%s' fails a gate: %s", where, id, msg);
		}
		if (summary != SUMMARY_NONE && series_add(&ser, axes) == -1) {
			json_decref(out);
			ev_err_nomem(&err);
			goto fail;
		}
		r = out != NULL ? ev_jsonl_write(stdout, out, &err) : ev_err_nomem(&err);
		json_decref(out);
		ev_score_result_release(&res);
		json_decref(rec);
		rec = NULL;
		if (r == -1)
			goto fail;
	}
	if (summary != SUMMARY_NONE && summarise(&ser, &g, failed_items, summary, &err) == -1)
		goto fail;
	if (skipped > 0)
		ev_warn("%lld invalid record%s skipped", skipped, skipped == 1 ? "" : "s");
	if (failed_items > 0) {
		if (failed_items > GATE_MESSAGES)
			ev_warn("... and %lld more", failed_items - GATE_MESSAGES);
		ev_warn("%lld of %lld item%s below a gate", failed_items, items, items == 1 ? "" : "s");
		rc = EV_EXIT_THRESHOLD;
	}
	goto out;
fail:
	rc = ev_cli_report(&err);
out:
	if (jd.pid > 0) {
		struct ev_err jerr = { 0 };

		if (judge_stop(&jd, &jerr) == -1 && rc == EV_EXIT_OK)
			rc = ev_cli_report(&jerr);
		ev_cli_count(&cli, "judged", jd.asked);
	}
	ev_cli_count(&cli, "items", items);
	if (skipped > 0)
		ev_cli_count(&cli, "skipped", skipped);
	if (any_gate)
		ev_cli_count(&cli, "below_gate", failed_items);
	json_decref(rec);
	for (a = 0; a < NAXES; a++)
		json_decref(g.ids[a]);
	ev_score_result_release(&res);
	ev_score_item_release(&item);
	free(ser.v);
	ev_jsonl_close(in);
	ev_score_close(sc);
	ev_tok_close(tok);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
