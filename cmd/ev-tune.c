/* ev-tune: fit a retrieval plan to the user's judgements, and say by how much it beats
 * the defaults, cross-validated.  See man/ev-tune.1 and lib/judge/tune.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "opt.h"
#include "rerankfit.h"
#include "tune.h"

static const struct ev_opt_cmd command = {
	"ev-tune --db DB [--qrels FILE] [--plan FILE] [--metric M] [--folds K] [--seed N] [--budget SECONDS] [-o FILE] [OPTIONS] [QUERIES ...]\n"
	"ev-tune --rerank --qrels FILE [--plan FILE] [--metric M] [--folds K] [--seed N] [--budget SECONDS] [-o FILE] [HITS ...]",
	"Search the plan's parameters (the text lane's field weights, proximity and\n"
	"feedback; the fusion's method, normalisation, rrf_k and lane weights) on the\n"
	"queries (QUERIES or stdin) judged by --qrels, and write the best plan as YAML.\n"
	"The figure reported is k-fold cross-validated, beside the defaults' on the\n"
	"same folds.  Without --qrels, pseudo-queries are made from the store.\n"
	"With --rerank, fit the built-in reranker's weights instead, to the hits\n"
	"ev-rerank wrote (HITS or stdin), and write them as the plan's rerank section.",
	NULL, 0
};

static struct {
	const char *db, *index, *qrels, *plan, *metric, *output;
	long pseudo, folds, seed;
	int rerank;
	struct ev_skip skip;
	struct ev_tune_opts t;
} o = { .metric = "ndcg@10", .pseudo = 200, .t = EV_TUNE_OPTS_INIT };

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &o.db, "DB", "the store (made by ev-ingest)"),
	EV_OPT_STR(0, "index", "index", &o.index, "FILE",
	    "its Faiss index (ev-embed-load); without it, the text lane alone is tuned"),
	EV_OPT_STR(0, "qrels", "qrels", &o.qrels, "FILE", "judgements, as ev-eval reads them"),
	EV_OPT_STR(0, "plan", "plan", &o.plan, "FILE",
	    "the plan to start from: its values are the defaults, its other keys are copied "
	    "(default: the stages' own)"),
	EV_OPT_STR(0, "metric", "metric", &o.metric, "M", "ndcg@K, map, recall@K, p@K or mrr"),
	EV_OPT_LONG(0, "folds", "folds", &o.folds, 2, EV_TUNE_MAX_FOLDS, "K",
	    "folds of the cross-validation"),
	EV_OPT_LONG(0, "seed", "seed", &o.seed, 0, 1LL << 53, "N",
	    "seed of the folds and the pseudo-queries"),
	EV_OPT_NUM_UNSET(0, "budget", "budget", &o.t.budget, 0.001, 1e9, "SECONDS",
	    "stop searching after SECONDS, keeping the best so far; none searches the whole grid"),
	EV_OPT_BOOL(0, "binary", "binary", &o.t.eval.binary, "gains of 1, as ev-eval --binary"),
	EV_OPT_LONG(0, "level", "level", &o.t.eval.level, -EV_EVAL_REL_MAX, EV_EVAL_REL_MAX,
	    "N", "the least relevance counted relevant, as ev-eval --level; below 1 needs --binary"),
	EV_OPT_LONG(0, "pseudo", "pseudo", &o.pseudo, 2, 100000, "N",
	    "pseudo-queries to make without --qrels"),
	EV_OPT_SKIP_INVALID(&o.skip.on),
	EV_OPT_BOOL(0, "rerank", NULL, &o.rerank,
	    "fit the built-in reranker's weights to HITS (the hits ev-rerank writes) instead of "
	    "the plan's lanes and fusion"),
	EV_OPT_STR('o', "output", NULL, &o.output, "FILE", "the plan's FILE (default, '-': stdout)"),
	EV_OPT_END
};

static void
progress(void *ctx, long long done, long long total)
{
	(void)done, (void)total;
	ev_progress_step(ctx, 1, 0);
}

/* Write the plan in out to -o FILE or stdout.  Returns 0 or -1. */
static int
write_plan(const struct ev_buf *out, struct ev_err *err)
{
	FILE *f = o.output == NULL || strcmp(o.output, "-") == 0 ? stdout : fopen(o.output, "w");
	int bad;

	if (f == NULL)
		return ev_err_set(err, EV_EXIT_RUNTIME, o.output, "cannot write the plan: %m");
	bad = fwrite(out->p, 1, out->len, f) != out->len;
	if ((f != stdout && fclose(f) == EOF) || bad)
		return ev_err_set(err, EV_EXIT_RUNTIME, f != stdout ? o.output : "stdout",
		    "write error: %m");
	return 0;
}

/* The plan --plan names, its unknown keys warned about; NULL with *err set, also
 * for a section not a mapping ("lanes: 3") and a bad key it copies ("k: x"). */
static json_t *
load_plan(struct ev_err *err)
{
	json_t *plan = ev_config_load(o.plan, err);

	if (plan != NULL && (ev_config_check_shape(plan, ev_plan_keys, o.plan, err) == -1 ||
	    ev_plan_check(plan, o.plan, err) == -1)) {
		json_decref(plan);
		return NULL;
	}
	if (plan != NULL)
		ev_config_unknown(plan, ev_plan_known_keys, ev_cli_warn_unknown_key, (void *)o.plan);
	return plan;
}

/* ev-tune --rerank: fit the reranker's weights to the hits of the inputs. */
static int
tune_rerank(char **paths, int npaths, struct ev_err *err)
{
	struct ev_jsonl *in = NULL;
	struct ev_qrels *qrels = NULL;
	struct ev_buf out = EV_BUF_INIT, note = EV_BUF_INIT;
	json_t *plan = NULL;
	size_t unjudged = 0;
	int rc = -1;

	if ((o.plan == NULL || (plan = load_plan(err)) != NULL) &&
	    (qrels = ev_qrels_load(o.qrels, err)) != NULL &&
	    (in = ev_jsonl_open(paths, npaths, err)) != NULL &&
	    ev_rerank_fit_hits(in, qrels, o.qrels, plan, &o.t, &out, &note, &unjudged, err) == 0) {
		if (unjudged > 0)
			ev_warn("%zu queries have no judgement in %s and were left out", unjudged,
			    o.qrels);
		fprintf(stderr, "%s", ev_buf_str(&note));
		rc = write_plan(&out, err);
	}
	ev_jsonl_close(in);
	ev_qrels_free(qrels);
	json_decref(plan);
	ev_buf_release(&out);
	ev_buf_release(&note);
	return rc;
}

/* The checks of the options both modes share; exits 2 on a bad one (an -o
 * FILE that cannot be written too, before the search, not after it). */
static void
check_judging(struct ev_cli *cli, char *const *ops, int n)
{
	ev_cli_check_output("-o", o.output, "the plan");
	ev_cli_stdin_once(cli, "--qrels", o.qrels, "the judgements",
	    o.rerank ? "the hits" : "the queries", ops, n);
	if (ev_tune_metric_parse(o.metric, &o.t) == -1)
		ev_cli_usage_error(cli, "--metric must be ndcg@K, map, recall@K, p@K or mrr: '%s'",
		    o.metric);
	if (o.t.eval.level < 1 && !o.t.eval.binary)
		ev_cli_usage_error(cli, "--level below 1 needs --binary");
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_tune_trial def = { .text = EV_TEXTSEARCH_OPTS_INIT,
	    .vector_k = EV_PLAN_DEFAULT(EV_PLAN_VECTOR_K),
	    .vector_feedback_weight = EV_PLAN_DEFAULT(EV_PLAN_VECTOR_FEEDBACK_WEIGHT) };
	struct ev_tune_result res;
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct ev_vindex *ix = NULL;
	struct ev_qrels *qrels = NULL;
	struct ev_progress pg;
	struct ev_buf out = EV_BUF_INIT, note = EV_BUF_INIT;
	json_t *plan = NULL, *queries = NULL;
	long made = 0;
	size_t unjudged = 0;
	int optind, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-tune", NULL, argc, argv);
	ev_fuse_opts_init(&def.fuse);
	o.folds = o.t.folds;
	o.seed = (long)o.t.seed;
	o.t.budget = NAN;
	optind = ev_opt_parse(&cli, &command, options);
	o.t.folds = (int)o.folds;
	o.t.seed = (uint64_t)o.seed;
	o.t.budget = isnan(o.t.budget) ? 0 : o.t.budget;	/* 0: no limit */
	if (o.rerank) {
		if (o.qrels == NULL)
			ev_cli_usage_error(&cli, "--rerank needs --qrels FILE to judge the hits");
		check_judging(&cli, argv + optind, argc - optind);
		return ev_cli_finish(&cli, tune_rerank(argv + optind, argc - optind, &err) == -1 ?
		    ev_cli_report(&err) : EV_EXIT_OK);
	}
	if (o.db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	check_judging(&cli, argv + optind, argc - optind);
	if (o.qrels == NULL && optind < argc)
		ev_cli_usage_error(&cli, "QUERIES need --qrels to judge them (without --qrels, "
		    "ev-tune makes pseudo-queries from the store)");
	if (o.plan != NULL && ((plan = load_plan(&err)) == NULL ||
	    ev_tune_plan_read(plan, o.plan, &def, &err) == -1))
		goto fail;
	if ((st = ev_store_open(o.db, EV_STORE_READ, &err)) == NULL ||
	    (o.index != NULL && (ix = ev_vindex_open(st, o.index, &err)) == NULL))
		goto fail;
	/* what the plan leaves to the store (fusion.weights, .adapt): as ev-fuse --db */
	if (plan != NULL && def.vector_feedback > 0 &&
	    ev_calib_defaults(st, ev_config_get(plan, "fusion.weights") == NULL,
	    ev_config_get(plan, "fusion.adapt") == NULL, &def.fuse, &err) == -1)
		goto fail;
	if (o.qrels != NULL) {
		struct ev_jsonl *in = NULL;

		if ((qrels = ev_qrels_load(o.qrels, &err)) == NULL ||
		    (in = ev_jsonl_open(argv + optind, argc - optind, &err)) == NULL)
			goto fail;
		queries = ev_tune_read_queries(in, ev_cli_skip_cb, &o.skip, &err);
		ev_jsonl_close(in);
		if (queries == NULL)
			goto fail;
		if (o.skip.on)
			ev_cli_skip_done(&cli, &o.skip);
	} else if ((qrels = ev_qrels_new(&err)) == NULL || (queries = json_array()) == NULL ||
	    (made = ev_tune_pseudo(st, (long)o.pseudo, o.t.seed, queries, qrels, &err)) == -1) {
		goto fail;
	}
	ev_progress_start(&pg, &cli, "configurations", 0);
	rc = ev_tune_search(st, ix, queries, qrels, &def, &o.t, progress, &pg, &unjudged, &res, &err);
	ev_progress_done(&pg);
	if (rc == -1)
		goto fail;
	if (unjudged > 0)
		ev_warn("%zu queries have no judgement in %s and were left out", unjudged, o.qrels);
	if (ev_tune_report(&note, "ev-tune: ", &o.t, o.qrels, &res, made) == -1 ||
	    ev_buf_adds(&out, "# A retrieval plan written by ev-tune.\n") == -1 ||
	    ev_tune_report(&out, "# ", &o.t, o.qrels, &res, made) == -1 ||
	    ev_tune_plan_write(&out, plan, &res.best, NULL, &err) == -1) {
		ev_err_nomem(&err);
		goto fail;
	}
	fprintf(stderr, "%s", ev_buf_str(&note));
	ev_warn("searched for %.1f s", res.seconds);
	if (write_plan(&out, &err) == -1)
		goto fail;
	ev_cli_count(&cli, "queries", (long long)res.queries);
	ev_cli_count(&cli, "configurations", res.trials);
	rc = EV_EXIT_OK;
	goto out;
fail:
	rc = ev_cli_report(&err);
out:
	ev_buf_release(&out);
	ev_buf_release(&note);
	json_decref(plan);
	json_decref(queries);
	ev_qrels_free(qrels);
	ev_vindex_close(ix);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
