/* ev-tune: fit a retrieval plan to the user's judgements, and say by how
 * much it beats the defaults, cross-validated.  See man/ev-tune.1 and
 * lib/tune.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "tune.h"

static const char usage_text[] =
"usage: ev-tune --db DB [--index FILE] [--qrels FILE] [--plan FILE] [--metric M]\n"
"               [--folds K] [--seed N] [--budget SECONDS] [--binary] [--level N]\n"
"               [--pseudo N] [-o FILE] [--config FILE.yaml] [--log FILE] [QUERIES ...]\n"
"\n"
"Search the plan's parameters (the text lane's field weights, proximity and\n"
"feedback; the fusion's method, normalisation, rrf_k and lane weights) on the\n"
"queries (QUERIES or stdin) judged by --qrels, and write the best plan as YAML.\n"
"The figure reported is k-fold cross-validated, beside the defaults' on the\n"
"same folds.  Without --qrels, pseudo-queries are made from the store.\n"
"\n"
"  --db DB            the store (made by ev-ingest)\n"
"  --index FILE       its Faiss index (ev-embed-load); without it, the text\n"
"                     lane alone is tuned\n"
"  --qrels FILE       judgements, as ev-eval reads them\n"
"  --plan FILE        the plan to start from: its values are the defaults,\n"
"                     its other keys are copied (default: the stages' own)\n"
"  --metric M         ndcg@K (default ndcg@10), map, recall@K, p@K or mrr\n"
"  --folds K          folds of the cross-validation, 2 to 20 (default 5)\n"
"  --seed N           seed of the folds and the pseudo-queries (default 1)\n"
"  --budget SECONDS   stop searching then, keeping the best so far (default:\n"
"                     search the whole grid)\n"
"  --binary, --level N  relevance as ev-eval takes it\n"
"  --pseudo N         pseudo-queries to make without --qrels (default 200)\n"
"  -o, --output FILE  write the plan to FILE (default: stdout)\n"
"  --config FILE.yaml defaults: db, index, qrels, plan, metric;\n"
"                     --log FILE appends a ToolRun line\n"
"  --help, --version\n";

enum {
	OPT_DB = EV_OPT_FIRST_FREE, OPT_INDEX, OPT_QRELS, OPT_PLAN, OPT_METRIC, OPT_FOLDS,
	OPT_SEED, OPT_BUDGET, OPT_BINARY, OPT_LEVEL, OPT_PSEUDO
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "index", required_argument, NULL, OPT_INDEX },
	{ "qrels", required_argument, NULL, OPT_QRELS },
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "folds", required_argument, NULL, OPT_FOLDS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "binary", no_argument, NULL, OPT_BINARY },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "pseudo", required_argument, NULL, OPT_PSEUDO },
	{ "output", required_argument, NULL, 'o' },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

static const char *const config_keys[] = { "db", "index", "qrels", "plan", "metric", NULL };

struct opts {
	const char *db, *index, *qrels, *plan, *metric, *output;
	long long pseudo;
	struct ev_tune_opts t;
};

static void
progress(void *ctx, long long done, long long total)
{
	(void)done;
	(void)total;
	ev_progress_step(ctx, 1, 0);
}

/* The queries of the inputs, as query records, into an array. */
static json_t *
read_queries(char **paths, int n, struct ev_err *err)
{
	struct ev_jsonl *in = ev_jsonl_open(paths, n, err);
	json_t *all = json_array(), *v, *q;
	int r = -1;

	if (in != NULL && all != NULL)
		while ((r = ev_jsonl_next(in, &v, err)) == 1) {
			q = ev_query_record(v, ev_jsonl_lineno(in), ev_jsonl_where(in), err);
			json_decref(v);
			if (q == NULL || json_array_append_new(all, q) == -1) {
				r = q == NULL ? -1 : ev_err_nomem(err);
				break;
			}
		}
	ev_jsonl_close(in);
	if (r != 0) {
		if (all == NULL)
			ev_err_nomem(err);
		json_decref(all);
		return NULL;
	}
	return all;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct opts o = { .pseudo = 200, .t = EV_TUNE_OPTS_INIT };
	struct ev_tune_trial def = { .text = EV_TEXTSEARCH_OPTS_INIT, .vector_k = 100 };
	struct ev_tune_result res;
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct ev_vindex *ix = NULL;
	struct ev_qrels *qrels = NULL;
	struct ev_progress pg;
	struct ev_buf out = EV_BUF_INIT, note = EV_BUF_INIT;
	json_t *plan = NULL, *queries = NULL;
	long long v;
	long made = 0;
	size_t unjudged = 0;
	int ch, bad, rc = EV_EXIT_OK;
	FILE *f;

	ev_cli_init(&cli, "ev-tune", usage_text, argc, argv);
	ev_cli_check_config(&cli, config_keys);
	ev_fuse_opts_init(&def.fuse);
	for (int i = 0; config_keys[i] != NULL; i++) {
		const char **dst[] = { &o.db, &o.index, &o.qrels, &o.plan, &o.metric };

		if (ev_config_str(cli.config, config_keys[i], dst[i], cli.config_path, &err) == -1)
			ev_cli_config_error(&cli, &err);
	}
	while ((ch = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB: o.db = optarg; break;
		case OPT_INDEX: o.index = optarg; break;
		case OPT_QRELS: o.qrels = optarg; break;
		case OPT_PLAN: o.plan = optarg; break;
		case OPT_METRIC: o.metric = optarg; break;
		case 'o': o.output = optarg; break;
		case OPT_BINARY: o.t.eval.binary = 1; break;
		case OPT_FOLDS:
			if (ev_parse_count(optarg, 2, EV_TUNE_MAX_FOLDS, &v) == -1)
				ev_cli_usage_error(&cli, "--folds takes a count from 2 to %d: '%s'",
				    EV_TUNE_MAX_FOLDS, optarg);
			o.t.folds = (int)v;
			break;
		case OPT_SEED:
			if (ev_parse_count(optarg, 0, 1LL << 53, &v) == -1)
				ev_cli_usage_error(&cli, "--seed takes a whole number from 0: '%s'", optarg);
			o.t.seed = (uint64_t)v;
			break;
		case OPT_BUDGET:
			if (ev_parse_double(optarg, 0.001, 1e9, &o.t.budget) == -1)
				ev_cli_usage_error(&cli, "--budget takes seconds above 0: '%s'", optarg);
			break;
		case OPT_LEVEL:
			if (ev_parse_count(optarg, -1000000, 1000000, &v) == -1)
				ev_cli_usage_error(&cli, "--level takes a whole number: '%s'", optarg);
			o.t.eval.level = (long)v;
			break;
		case OPT_PSEUDO:
			if (ev_parse_count(optarg, 2, 100000, &o.pseudo) == -1)
				ev_cli_usage_error(&cli, "--pseudo takes a count from 2 to 100000: '%s'", optarg);
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (o.db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	if (o.metric != NULL && ev_tune_metric_parse(o.metric, &o.t) == -1)
		ev_cli_usage_error(&cli, "--metric must be ndcg@K, map, recall@K, p@K or mrr: '%s'", o.metric);
	if (o.t.eval.level < 1 && !o.t.eval.binary)
		ev_cli_usage_error(&cli, "--level below 1 needs --binary");
	if (o.qrels == NULL && optind < argc)
		ev_cli_usage_error(&cli, "QUERIES need --qrels to judge them (without --qrels, "
		    "ev-tune makes pseudo-queries from the store)");
	if (o.plan != NULL && ((plan = ev_config_load(o.plan, &err)) == NULL ||
	    ev_tune_plan_read(plan, o.plan, &def, &err) == -1))
		goto fail;
	if ((st = ev_store_open(o.db, EV_STORE_READ, &err)) == NULL ||
	    (o.index != NULL && (ix = ev_vindex_open(st, o.index, &err)) == NULL))
		goto fail;
	if (o.qrels != NULL) {
		if ((qrels = ev_qrels_load(o.qrels, &err)) == NULL ||
		    (queries = read_queries(argv + optind, argc - optind, &err)) == NULL)
			goto fail;
	} else if ((qrels = ev_qrels_new(&err)) == NULL || (queries = json_array()) == NULL ||
	    (made = ev_tune_pseudo(st, (long)o.pseudo, o.t.seed, queries, qrels, &err)) == -1) {
		goto fail;
	}
	ev_progress_start(&pg, &cli, "configurations", 0);
	rc = ev_tune_run(st, ix, queries, qrels, &def, &o.t, progress, &pg, &unjudged, &res, &err);
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
	if (o.output == NULL)
		f = stdout;
	else if ((f = fopen(o.output, "w")) == NULL) {
		ev_err_set(&err, EV_EXIT_RUNTIME, o.output, "cannot write the plan: %m");
		goto fail;
	}
	bad = fwrite(out.p, 1, out.len, f) != out.len;
	if ((f != stdout && fclose(f) == EOF) || bad) {
		ev_err_set(&err, EV_EXIT_RUNTIME, o.output ? o.output : "stdout", "write error: %m");
		goto fail;
	}
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
