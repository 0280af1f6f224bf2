/* ev-embed: the built-in embedder (latent semantic analysis): fit it on the
 * store's chunks (--train), or add a "vector" and a "model" to each record.
 * See man/ev-embed.1, lib/lanes/embed.h and lib/lanes/embedwrite.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "embedwrite.h"
#include "jsonl.h"
#include "opt.h"
#include "store.h"

static const char *const plan_keys[] = { "request_id", "query", "text.*", NULL };

static const struct ev_opt_cmd command = {
	"ev-embed --db DB --train [OPTIONS]\n"
	"ev-embed --db DB --model-from STORE\n"
	"ev-embed --db DB --drift [--max-drift X]\n"
	"ev-embed --db DB --pending [--chunks [--model ID]]\n"
	"ev-embed --db DB [--role document|query] [--skip-invalid] [FILE ...]",
	"Fit the built-in embedding model (tf-idf and a truncated SVD, latent semantic\n"
	"analysis) on the chunks of the store, or add a unit-length \"vector\" and the\n"
	"\"model\" id to each record: chunk records (with \"text\") or query records\n"
	"(with \"query\", or a line that is a JSON string), from files or stdin.",
	plan_keys, 1	/* a retrieval plan's other sections pass quietly */
};

static struct ev_embed_params p;
static const char *db, *model, *training_flag, *model_from;
static char training_name[32];	/* training_flag's text: src does not outlive the call */
static int train, drift, pending, chunks, role = EV_EMBEDWRITE_AUTO, role_flag, max_drift_flag;
static int skip_invalid;
static long seed;
static double max_drift = EV_PLAN_DEFAULT(EV_PLAN_EMBED_MAX_DRIFT);

/* A training option or --max-drift given as a flag (not from the config). */
static void
given(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)cli;
	if (arg != NULL && src[0] == '-' && value == &max_drift)
		max_drift_flag = 1;
	else if (arg != NULL && src[0] == '-') {
		snprintf(training_name, sizeof training_name, "%s", src);
		training_flag = training_name;
	}
}

static void
set_role(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	if (strcmp(arg, "document") == 0)
		*(int *)value = EV_EMBED_DOCUMENT;
	else if (strcmp(arg, "query") == 0)
		*(int *)value = EV_EMBED_QUERY;
	else
		ev_cli_usage_error(cli, "%s must be document or query: '%s'", src, arg);
	if (src[0] == '-')
		role_flag = 1;
}

static void
set_query_tf(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	if (strcmp(arg, "log") != 0 && strcmp(arg, "raw") != 0)
		ev_cli_usage_error(cli, "%s must be log or raw: '%s'", src, arg);
	*(int *)value = strcmp(arg, "log") == 0;
	given(cli, src, arg, value);
}

/* a training option: its plan entry e, then given() */
#define TRAIN(l, e, v, argh, help) \
	{ EV_PLAN_TYPE(e) == EV_PLAN_NUM ? EV_OPT_TYPE_NUM : EV_OPT_TYPE_INT, 0, (l), EV_PLAN_KEY(e), \
	  (v), EV_PLAN_MIN(e), EV_PLAN_MAX(e), (argh), (help), given, NULL }
/* a number whose default comes from the store's size (ev_embed_min_df_rule(), ev_embed_dim_rule()) */
#define TRAIN_SIZED(l, e, v, help) \
	{ EV_OPT_TYPE_INT, 0, (l), EV_PLAN_KEY(e), (v), EV_PLAN_MIN(e), EV_PLAN_MAX(e), "N", (help), \
	  given, "from the store's size" }

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &db, "DB", "the store"),
	EV_OPT_BOOL(0, "train", NULL, &train, "fit the model on every chunk of DB and save it in DB"),
	TRAIN_SIZED("dim", EV_PLAN_EMBED_DIM, &p.dim, "dimensions of the model"),
	TRAIN_SIZED("min-df", EV_PLAN_EMBED_MIN_DF, &p.min_df,
	    "keep terms that occur in at least N chunks"),
	TRAIN("max-terms", EV_PLAN_EMBED_MAX_TERMS, &p.max_terms, "N",
	    "keep at most N terms, the most frequent"),
	TRAIN("power-iters", EV_PLAN_EMBED_POWER_ITERS, &p.power_iters, "N",
	    "power iterations of the randomised SVD"),
	TRAIN("oversample", EV_PLAN_EMBED_OVERSAMPLE, &p.oversample, "N",
	    "extra directions of the randomised SVD"),
	{ EV_OPT_TYPE_LONG, 0, "seed", EV_PLAN_KEY(EV_PLAN_EMBED_SEED), &seed,
	    EV_PLAN_MIN(EV_PLAN_EMBED_SEED), EV_PLAN_MAX(EV_PLAN_EMBED_SEED), "N",
	    "seed of the SVD's random projection", given, NULL },
	TRAIN("sigma-power", EV_PLAN_EMBED_SIGMA_POWER, &p.sigma_power, "X",
	    "a text's coordinates are scaled by the singular values to the power X - 1"),
	EV_OPT_FUNC(0, "query-tf", EV_PLAN_KEY(EV_PLAN_EMBED_QUERY_TF), &p.query_log_tf,
	    set_query_tf, EV_PLAN_WORDS(EV_PLAN_EMBED_QUERY_TF),
	    "a query term's weight: 1 + ln tf (log) or tf (raw)", "log"),
	TRAIN("query-idf-power", EV_PLAN_EMBED_QUERY_IDF_POWER, &p.query_idf_power, "X",
	    "a query term's weight: times its idf to the power X"),
	EV_OPT_PLAN(0, "log-entropy", EV_PLAN_EMBED_LOG_ENTROPY, &p.log_entropy, NULL,
	    "a term's global weight is its log-entropy, not its idf"),
	EV_OPT_STR(0, "model-from", NULL, &model_from, "STORE", "copy the model of STORE (trained"
	    " there once, for every shard of a collection) into DB, replacing DB's; reads no input"),
	EV_OPT_BOOL(0, "drift", NULL, &drift, "print how much of the store's text the model"
	    " cannot see (a JSON line); exit 3 when it is above --max-drift"),
	TRAIN("max-drift", EV_PLAN_EMBED_MAX_DRIFT, &max_drift, "X",
	    "the drift that asks for a retraining"),
	EV_OPT_BOOL(0, "pending", NULL, &pending, "embed the chunks of DB that have no vector of"
	    " the model in the store (new, changed, or of an older model); reads no input"),
	EV_OPT_BOOL(0, "chunks", NULL, &chunks, "with --pending: write those chunks as chunk"
	    " records, without vectors, for another embedder (pending for the index's model)"),
	EV_OPT_STR(0, "model", NULL, &model, "ID", "with --chunks: pending for model ID instead"),
	EV_OPT_FUNC(0, "role", EV_PLAN_KEY(EV_PLAN_EMBED_ROLE), &role, set_role,
	    EV_PLAN_WORDS(EV_PLAN_EMBED_ROLE),
	    "embed every record as a document or as a query (default: records with \"text\""
	    " are documents, those with \"query\" queries)", NULL),
	EV_OPT_SKIP_INVALID_AT(EV_PLAN_KEY(EV_PLAN_EMBED_SKIP_INVALID), &skip_invalid),
	EV_OPT_END
};

/* The modes and their options: exits 2 on a mismatch. */
static void
check_usage(struct ev_cli *cli, int argc, char **argv, int argi)
{
	if (p.log_entropy && !json_is_true(ev_config_get(cli->config,
	    EV_PLAN_KEY(EV_PLAN_EMBED_LOG_ENTROPY))) && training_flag == NULL)
		training_flag = "--log-entropy";	/* a flag, as the config does not say
							 * so (a bool has no handler to tell) */
	if (db == NULL)
		ev_cli_usage_error(cli, "--db DB is required");
	if (train + drift + pending + (model_from != NULL) > 1)
		ev_cli_usage_error(cli, "--train, --model-from, --drift and --pending are separate runs:"
		    " give one");
	if (model_from != NULL && (argi < argc || role_flag || training_flag))
		ev_cli_usage_error(cli, "--model-from reads the model of STORE, not input: '%s'",
		    argi < argc ? argv[argi] : role_flag ? "--role" : training_flag);
	if (chunks && !pending)
		ev_cli_usage_error(cli, "--chunks goes with --pending");
	if (model != NULL && *model == '\0')
		ev_cli_usage_error(cli, "--model takes a model id");
	if (model && !chunks)
		ev_cli_usage_error(cli, "--model goes with --pending --chunks (ev-embed's own "
		    "vectors are of the store's model)");
	if (max_drift_flag && !drift)
		ev_cli_usage_error(cli, "--max-drift goes with --drift");
	if ((drift || pending) && (argi < argc || role_flag || training_flag))
		ev_cli_usage_error(cli, "--%s reads the store, not input: '%s'",
		    drift ? "drift" : "pending", argi < argc ? argv[argi] :
		    role_flag ? "--role" : training_flag);
	if (train && argi < argc)
		ev_cli_usage_error(cli, "--train reads the chunks of the store, not files: '%s'",
		    argv[argi]);
	if (train && role_flag)
		ev_cli_usage_error(cli, "--role has no meaning with --train");
	if (!train && training_flag)
		ev_cli_usage_error(cli, "%s is an option of --train", training_flag);
}

static struct ev_embedwrite_io io = { NULL, ev_cli_note_cb, NULL };

/* Records from files or stdin, each written with its vector. */
static int
run_stream(struct ev_cli *cli, struct ev_store *st, char **files, int nfiles,
	struct ev_err *err)
{
	struct ev_embedwrite r = { 0 };
	struct ev_skip sk = { .on = skip_invalid };
	struct ev_jsonl *in = NULL;
	long long nread = 0, n = 0;
	int rc = -1;

	if (ev_embedwrite_open(&r, st, err) == 0 && (in = ev_jsonl_open(files, nfiles, err)) != NULL) {
		rc = ev_embedwrite_stream(&r, in, role, &io, ev_cli_skip_cb, &sk, &nread, &n, err);
		ev_cli_skip_done(cli, &sk);
		ev_embedwrite_zero_note(&r, &io);
	}
	if (r.e != NULL)
		ev_cli_log_set(cli, "embedder", ev_embedwrite_log_model(ev_embed_model_id(r.e),
		    ev_embed_dim(r.e)));
	ev_cli_count(cli, "records_in", nread);
	ev_cli_count(cli, "records_out", n);
	ev_jsonl_close(in);
	ev_embedwrite_close(&r);
	return rc;
}

/* The mode asked for: 0, EV_EXIT_THRESHOLD (--drift above --max-drift), or
 * -1 with *err set. */
static int
run(struct ev_cli *cli, struct ev_store *st, char **files, int nfiles, struct ev_err *err)
{
	struct ev_embedwrite_pending res;
	struct ev_embed_info info;
	struct ev_embed_drift d;
	int rc;

	if (drift) {
		if ((rc = ev_embedwrite_drift(st, db, max_drift, &io, &d, err)) != -1)
			ev_cli_count(cli, "chunks", d.chunks);
		return rc == 1 ? EV_EXIT_THRESHOLD : rc;
	}
	if (pending) {
		rc = ev_embedwrite_pending(st, !chunks, model, &io, &res, err);
		if (rc == 0 && !chunks && res.model != NULL)
			ev_cli_log_set(cli, "embedder", ev_embedwrite_log_model(res.model, res.dim));
		ev_cli_count(cli, "records_out", res.written);
		free(res.model);
		return rc;
	}
	if (model_from != NULL)
		return ev_embedwrite_copy_model(st, model_from, &io, err);
	if (!train)
		return run_stream(cli, st, files, nfiles, err);
	p.seed = (uint64_t)seed;
	if ((rc = ev_embedwrite_train(st, db, &p, &io, &info, err)) == 0) {
		ev_cli_count(cli, "chunks", info.chunks);
		ev_cli_count(cli, "terms", info.terms);
		ev_cli_log_set(cli, "embedder", ev_embedwrite_log_model(info.model_id, info.dim));
	}
	return rc;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_store *st;
	int argi, rc;

	ev_cli_init(&cli, "ev-embed", NULL, argc, argv);
	ev_embed_params_init(&p);
	seed = (long)p.seed;
	argi = ev_opt_parse(&cli, &command, options);
	check_usage(&cli, argc, argv, argi);
	ev_cli_trace(&cli);	/* (--log: the queries and chunks embedded) */
	io.out = stdout;
	if ((st = ev_store_open(db, train || model_from ? EV_STORE_WRITE : EV_STORE_READ, &err)) == NULL)
		rc = -1;
	else
		rc = run(&cli, st, argv + argi, argc - argi, &err);
	if (rc == -1)
		rc = ev_cli_report(&err);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
