/* ev-eval: score a run of hit records against relevance judgements.
 *
 * Reads every hit first (hits of one query may arrive anywhere, from several
 * files), then writes one JSON line per query with --per-query and one
 * summary line.  See man/ev-eval.1 and lib/judge/eval.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "eval.h"
#include "jsonl.h"
#include "opt.h"

#define MAX_CUTOFF	1000000
#define MAX_MINS	16

static const struct ev_opt_cmd command = {
	"ev-eval --qrels FILE [OPTIONS] [RUN ...]\n"
	"ev-eval --help | --version",
	"Score hit records (from RUN files or stdin) against relevance judgements;\n"
	"write one JSON summary line: queries, ndcg@10, map, recall@100, mrr, p@10.",
	NULL, 0
};

struct gate {
	char name[32];
	double min;
	char src[300];	/* what set it: "--min", or the config's "FILE:LINE: 'min.NAME'" */
};

struct opts {
	const char *qrels, *trec, *tag, *lane;
	struct ev_eval_opts eval;
	long k;
	int per_query;
	struct gate mins[MAX_MINS];
	int nmins;
};

static struct opts o = { .eval = EV_EVAL_OPTS_INIT, .k = 10, .tag = "evkit" };

/* -k: the k of nDCG@k and P@k. */
static void
set_k(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)cli, (void)src, (void)arg;
	o.eval.ndcg_k = o.eval.p_k = *(long *)value;
}

/* --cutoff METRIC=N, or the config's cutoff.METRIC: the k of one metric. */
static void
set_cutoff(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	const char *eq = strchr(arg, '=');
	long long k;
	size_t n;

	(void)value;
	if (eq == NULL || ev_parse_count(eq + 1, 1, MAX_CUTOFF, &k) == -1)
		ev_opt_bad_value(cli, src, src[0] == '-' ? "METRIC=N with N from 1 to 1000000" :
		    "a whole number from 1 to 1000000", src[0] == '-' || eq == NULL ? arg : eq + 1);
	n = (size_t)(eq - arg);
	if (n == 4 && strncmp(arg, "ndcg", 4) == 0)
		o.eval.ndcg_k = (long)k;
	else if (n == 1 && arg[0] == 'p')
		o.eval.p_k = (long)k;
	else if (n == 6 && strncmp(arg, "recall", 6) == 0)
		o.eval.recall_k = (long)k;
	else
		ev_cli_usage_error(cli, "%s: unknown metric '%.*s' (ndcg, p or recall)",
		    src, (int)n, arg);
}

/* --min METRIC=X, or the config's min.METRIC: a gate (a later one for the
 * same metric replaces it). */
static void
add_min(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;
	double x;
	int i;

	(void)value;
	if (eq == NULL || ev_parse_double(eq + 1, 0, 1, &x) == -1)
		ev_opt_bad_value(cli, src, src[0] == '-' ? "METRIC=X with X from 0 to 1" :
		    "a number from 0 to 1", src[0] == '-' || eq == NULL ? arg : eq + 1);
	if (len == 0 || len >= sizeof o.mins[0].name)
		ev_cli_usage_error(cli, "%s takes METRIC=X, METRIC a name such as ndcg@10 or map",
		    src);
	for (i = 0; i < o.nmins; i++)
		if (strlen(o.mins[i].name) == len && memcmp(o.mins[i].name, arg, len) == 0)
			break;
	if (i == MAX_MINS)
		ev_cli_usage_error(cli, "more than %d --min gates", MAX_MINS);
	memcpy(o.mins[i].name, arg, len);
	o.mins[i].name[len] = '\0';
	o.mins[i].min = x;
	snprintf(o.mins[i].src, sizeof o.mins[i].src, "%s", src);
	if (i == o.nmins)
		o.nmins++;
}

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "qrels", "qrels", &o.qrels, "FILE",
	    "judgements: 'QUERY_ID DOC_ID RELEVANCE' lines, or TREC's 'QUERY_ID 0 DOC_ID RELEVANCE'"),
	EV_OPT_BOOL(0, "binary", "binary", &o.eval.binary,
	    "gains of 1 for every relevant document (default: the relevance value is the gain)"),
	EV_OPT_LONG(0, "level", "level", &o.eval.level, -EV_EVAL_REL_MAX, EV_EVAL_REL_MAX, "N",
	    "the least relevance counted relevant; below 1 needs --binary"),
	EV_OPT_LONG_THEN('k', NULL, "k", &o.k, 1, MAX_CUTOFF, "N", "the k of nDCG@k and P@k",
	    set_k),
	EV_OPT_FUNC(0, "cutoff", "cutoff.*", NULL, set_cutoff, "METRIC=N",
	    "the k of one metric: ndcg, p or recall (recall: 100)", NULL),
	EV_OPT_BOOL(0, "per-query", "per_query", &o.per_query,
	    "a line per judged query before the summary"),
	EV_OPT_FUNC(0, "min", "min.*", NULL, add_min, "METRIC=X",
	    "exit 3 after printing when METRIC is below X (repeatable)", NULL),
	EV_OPT_STR(0, "trec", "trec", &o.trec, "FILE",
	    "also write the run in TREC format (QID Q0 DOC RANK SCORE TAG)"),
	EV_OPT_STR(0, "tag", "tag", &o.tag, "TAG", "the TAG column of --trec"),
	EV_OPT_STR(0, "lane", "lane", &o.lane, "LANE", "evaluate only the hits whose lane is LANE"),
	EV_OPT_END
};

/* Print one query's figures. */
static int
print_query(const char *qid, const struct ev_eval_figures *f, void *ctx, struct ev_err *err)
{
	const struct opts *o = ctx;
	struct ev_buf b = EV_BUF_INIT;
	int rc = 0;

	if (ev_eval_format(&b, qid, f, NULL, &o->eval) == -1)
		rc = ev_err_nomem(err);
	else if (fputs(b.p, stdout) == EOF || putchar('\n') == EOF || fflush(stdout) == EOF)
		rc = ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	ev_buf_release(&b);
	return rc;
}

/* Write the --trec file. */
static int
write_trec(const struct opts *o, struct ev_run *run, struct ev_err *err)
{
	FILE *fp = NULL;
	int rc;

	if ((rc = ev_run_trec_check(run, err)) == 0 && (fp = fopen(o->trec, "w")) == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, o->trec, "cannot create: %s", strerror(errno));
	rc = rc == 0 ? ev_run_write_trec(run, fp, o->tag, err) : -1;	/* no file made for bad ids */
	if (fp != NULL && fclose(fp) == EOF && rc == 0)
		rc = ev_err_set(err, EV_EXIT_RUNTIME, o->trec, "write error: %s", strerror(errno));
	if (rc == -1 && err->where[0] == '\0')
		ev_err_set_where(err, o->trec);
	return rc;
}

/* --trec naming an input (the qrels, a RUN, standard input's file) would
 * overwrite it with the TREC run, '-' would mix it with the summary, and one
 * that cannot be written would fail once the run is read: bad usage. */
static void
check_trec(struct ev_cli *cli, char **runs, int nruns)
{
	struct stat t, s;

	ev_cli_stdout_taken(cli, "--trec", o.trec, "the summary line");
	ev_cli_check_output("--trec", o.trec, "the TREC run");
	if (o.trec == NULL || stat(o.trec, &t) == -1 || !S_ISREG(t.st_mode))
		return;
	for (int i = -1; i < (nruns > 0 ? nruns : 1); i++) {	/* no RUN: standard input */
		const char *p = i < 0 ? o.qrels : nruns > 0 ? runs[i] : "-";

		if ((strcmp(p, "-") == 0 ? fstat(STDIN_FILENO, &s) : stat(p, &s)) == 0 &&
		    s.st_dev == t.st_dev && s.st_ino == t.st_ino)
			ev_cli_usage_error(cli, "--trec %s is an input (%s): it would be overwritten",
			    o.trec, strcmp(p, "-") == 0 ? "standard input" : p);
	}
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_qrels *qrels = NULL;
	struct ev_run *run = NULL;
	struct ev_eval_summary sum;
	struct ev_eval_figures zero = { 0 };	/* for the names of the metrics */
	double x;
	struct ev_buf line = EV_BUF_INIT;
	long long nhits = 0;
	int argi, i, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-eval", NULL, argc, argv);
	argi = ev_opt_parse(&cli, &command, options);
	if (o.qrels == NULL)
		ev_cli_usage_error(&cli, "--qrels FILE is required");
	ev_cli_stdin_once(&cli, "--qrels", o.qrels, "the judgements", "the run", argv + argi,
	    argc - argi);
	if (!o.eval.binary && o.eval.level < 1)
		ev_cli_usage_error(&cli, "--level %ld needs --binary: gains must be positive",
		    o.eval.level);
	if (o.tag != NULL && (o.tag[0] == '\0' || strpbrk(o.tag, " \t\n") != NULL))
		ev_cli_usage_error(&cli, "--tag takes one word: '%s'", o.tag);
	if (o.lane != NULL)
		ev_cli_lane_or_usage(&cli, "--lane", o.lane);
	check_trec(&cli, argv + argi, argc - argi);
	for (i = 0; i < o.nmins; i++)
		if (ev_eval_metric(&zero, &o.eval, o.mins[i].name, &x) == -1)
			ev_cli_usage_error(&cli, "%s: unknown metric '%s' (ndcg@%ld, map, recall@%ld, "
			    "mrr, p@%ld)", o.mins[i].src, o.mins[i].name, o.eval.ndcg_k,
			    o.eval.recall_k, o.eval.p_k);

	if ((qrels = ev_qrels_load(o.qrels, &err)) == NULL ||
	    (run = ev_run_new(&err)) == NULL ||
	    (nhits = ev_run_read(run, argv + argi, argc - argi, o.lane, ev_cli_note_cb, NULL,
		&err)) == -1 ||
	    (o.trec != NULL && write_trec(&o, run, &err) == -1) ||
	    ev_eval_measure(qrels, run, &o.eval, o.per_query ? print_query : NULL, &o, &sum, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if (ev_eval_format(&line, NULL, NULL, &sum, &o.eval) == -1) {
		rc = ev_cli_report((ev_err_nomem(&err), &err));
		goto out;
	}
	puts(line.p);
	ev_cli_count(&cli, "hits", nhits);
	ev_cli_count(&cli, "queries", sum.queries);
	for (i = 0; i < o.nmins; i++) {
		ev_eval_metric(&sum.mean, &o.eval, o.mins[i].name, &x);
		if (x < o.mins[i].min) {
			ev_warn("%s is %.4f, below the minimum %g", o.mins[i].name, x, o.mins[i].min);
			rc = EV_EXIT_THRESHOLD;
		}
	}
out:
	ev_buf_release(&line);
	ev_qrels_free(qrels);
	ev_run_free(run);
	return ev_cli_finish(&cli, rc);
}
