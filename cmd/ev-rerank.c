/* ev-rerank: rerank each query's best candidates, by a built-in linear model
 * over lane and store features, or by the scores of the user's own program.
 * See man/ev-rerank.1 and lib/merge/rerank.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonl.h"
#include "opt.h"
#include "rerank.h"
#include "rerankcmd.h"

static const struct ev_opt_cmd command = {
	"ev-rerank --db DB [OPTIONS] [HITS ...]",
	"Read hit records (any lane's, or fused) and write each query's hits reranked:\n"
	"the best N by a linear model over features the lanes and the store know (the\n"
	"chunk's and its document's BM25, query words side by side and near, the best\n"
	"passage, title matches, each lane's rank and score, length, position), or by\n"
	"the scores an external command gives; each reranked hit explains its score.",
	NULL, 1
};

static struct ev_rerank_opts ro;
static const char *db;
static const char *cmdline;
static double timeout = EV_PLAN_DEFAULT(EV_PLAN_RERANK_TIMEOUT);
static long batch = EV_PLAN_DEFAULT(EV_PLAN_RERANK_BATCH);
static int skip_invalid;

/* --weight NAME=X, or an entry NAME: X of the plan's rerank.weights (src
 * then names the key, and arg is "NAME=X" as ev_opt made it). */
static void
set_weight(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	const char *eq = strchr(arg, '=');
	char want[400] = "NAME=X, X from -1000 to 1000 and NAME one of";
	struct ev_err err = { 0 };
	double w;
	int i;

	(void)value;
	i = eq != NULL ? ev_rerank_feature_index(arg, (size_t)(eq - arg)) : -1;
	if (i >= 0 && ev_parse_double(eq + 1, -1000, 1000, &w) == 0) {
		ro.w[i] = w;
		return;
	}
	for (int j = 0; j < EV_RF_COUNT; j++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s %s",
		    j ? "," : "", ev_rerank_feature_names[j]);
	if (src[0] == '-')
		ev_opt_bad_value(cli, src, want, arg);
	if (i >= 0)	/* the plan's key names the feature: its value is wrong */
		ev_opt_bad_value(cli, src, "a number from -1000 to 1000", eq + 1);
	ev_err_set(&err, EV_EXIT_USAGE, NULL, "%s: no such feature; the features are%s", src,
	    strstr(want, " one of") + strlen(" one of"));
	ev_cli_config_error(cli, &err);
}

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &db, "DB", "the store the hits come from"),
	EV_OPT_PLAN(0, "top-n", EV_PLAN_RERANK_TOP_N, &ro.top_n, "N",
	    "rerank each query's best N hits (the rest follow, in their order)"),
	EV_OPT_PLAN('k', "k", EV_PLAN_RERANK_K, &ro.k, "N", "hits written per query; 0 writes them all"),
	EV_OPT_FUNC(0, "weight", EV_PLAN_KEY(EV_PLAN_RERANK_WEIGHTS), ro.w, set_weight, "NAME=X",
	    "the weight of a feature of the built-in model (repeat: --weight bm25=0.2)",
	    "the shipped weights"),
	EV_OPT_PLAN(0, "window", EV_PLAN_RERANK_WINDOW, &ro.window, "N",
	    "the unordered window of two query words, in tokens"),
	EV_OPT_PLAN(0, "passage", EV_PLAN_RERANK_PASSAGE, &ro.passage, "N",
	    "the best passage's length, in tokens"),
	EV_OPT_STR(0, "command", EV_PLAN_KEY(EV_PLAN_RERANK_COMMAND), &cmdline, "CMD",
	    "score the candidates with CMD (run by /bin/sh) instead of the built-in model"),
	EV_OPT_PLAN(0, "timeout", EV_PLAN_RERANK_TIMEOUT, &timeout, "S",
	    "seconds CMD may take to score one batch"),
	EV_OPT_PLAN(0, "batch", EV_PLAN_RERANK_BATCH, &batch, "N", "candidates sent to CMD at a time"),
	EV_OPT_SKIP_INVALID(&skip_invalid),
	EV_OPT_END
};

struct run {
	struct ev_rerank *rr;
	struct ev_rerank_cmd *ext;	/* with --command */
	long long queries, reranked, degraded;
	long missing;
};

/* Whether --command can take a hit (an ev_cli_hit_check_fn). */
static int
command_takes(void *ctx, const json_t *hit, const char *where, struct ev_err *err)
{
	(void)ctx;
	return ev_rerank_cmd_check(hit, where, err);
}

/* Rerank one query's hits into out (an ev_cli_query_fn). */
static int
rerank_query(void *ctx, json_t *hits, const char *where, struct ev_buf *out, struct ev_err *err)
{
	struct run *run = ctx;
	size_t n;
	int r;

	(void)where;
	n = json_array_size(hits) < (size_t)ro.top_n ? json_array_size(hits) : (size_t)ro.top_n;
	if ((r = ev_rerank_incoming(hits, err)) == 0) {
		if (run->ext == NULL)
			r = ev_rerank_query(run->rr, hits, &run->missing, out, err);
		else if ((r = ev_rerank_cmd_query(run->ext, run->rr, hits, n, out,
		    err)) == 1) {
			if (run->degraded++ == 0)
				ev_warn("%s; this query and the rest are not reranked (their incoming order kept)",
				    ev_rerank_cmd_failure(run->ext));
			r = 0;
		}
	}
	if (r == -1)
		return -1;
	run->queries++;
	run->reranked += (long long)n;
	return 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct ev_jsonl *in = NULL;
	struct run run = { NULL, NULL, 0, 0, 0, 0 };
	json_t *v;
	long long nhits = 0;
	int argi, rc;

	ev_rerank_opts_init(&ro);
	ev_cli_init(&cli, "ev-rerank", NULL, argc, argv);
	ev_cli_trace(&cli);
	argi = ev_opt_parse_section(&cli, &command, options, "rerank", 0);
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required (the store the hits come from)");
	if (cmdline != NULL) {
		json_t *t = json_string(cmdline);

		if (t == NULL)
			ev_cli_usage_error(&cli, "--command must be UTF-8 text");
		json_decref(t);
	}

	if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
	    (run.rr = ev_rerank_open(st, &ro, &err)) == NULL ||
	    (cmdline != NULL && (run.ext = ev_rerank_cmd_start(run.rr, st, cmdline, timeout,
	    batch, &err)) == NULL) ||
	    (in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	/* the ToolRun line's model: its id, configuration and top-k */
	if ((v = json_deep_copy(ev_rerank_info(run.rr))) != NULL)
		json_object_set_new(v, "k", json_integer(ro.k));
	ev_cli_log_set(&cli, "rerank", v);
	rc = ev_cli_query_hits(&cli, in, skip_invalid, cmdline != NULL ? command_takes : NULL,
	    rerank_query, &run, &nhits);
	if (ev_rerank_queries_cut(run.rr) > 0)
		ev_warn("%lld quer%s had more than %d distinct words: the features use the first %d",
		    ev_rerank_queries_cut(run.rr), ev_rerank_queries_cut(run.rr) == 1 ? "y" : "ies",
		    EV_RERANK_MAX_TERMS, EV_RERANK_MAX_TERMS);
	if (ev_rerank_queries_textless(run.rr) > 0)
		ev_warn("%lld quer%s no query text (no hit has a \"query\"): ranked by their lanes'"
		    " features alone", ev_rerank_queries_textless(run.rr),
		    ev_rerank_queries_textless(run.rr) == 1 ? "y had" : "ies had");
	if (run.missing > 0)
		ev_warn("%ld hit%s not in the store '%s': ranked by their lanes' features alone "
		    "(is --db the store the hits come from?)", run.missing,
		    run.missing == 1 ? " was" : "s were", db);
out:
	ev_rerank_cmd_stop(run.ext);
	ev_cli_count(&cli, "hits", nhits);
	ev_cli_count(&cli, "queries", run.queries);
	ev_cli_count(&cli, "reranked", run.reranked);
	if (cmdline != NULL)
		ev_cli_count(&cli, "degraded_queries", run.degraded);
	ev_jsonl_close(in);
	ev_rerank_close(run.rr);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
