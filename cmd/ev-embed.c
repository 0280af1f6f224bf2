/* ev-embed: the built-in embedder (latent semantic analysis): fit it on the
 * store's chunks (--train), or add a "vector" and a "model" to each record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "embed.h"
#include "jsonl.h"
#include "store.h"
#include "vindex.h"

static const char usage_text[] =
"usage: ev-embed --db DB --train [--dim N] [--min-df N] [--max-terms N]\n"
"       ev-embed --db DB --drift [--max-drift X]\n"
"       ev-embed --db DB --pending [--chunks [--model ID]]\n"
"       ev-embed --db DB [--role document|query] [--skip-invalid] [FILE ...]\n"
"               [--config FILE.yaml] [--log FILE]\n"
"Fit the built-in embedding model (tf-idf and a truncated SVD, latent semantic\n"
"analysis) on the chunks of the store, or add a unit-length \"vector\" and the\n"
"\"model\" id to each record: chunk records (with \"text\") or query records\n"
"(with \"query\", or a line that is a JSON string), from files or stdin.\n"
"  --db DB          the store\n"
"  --train          fit the model on every chunk of DB and save it in DB\n"
"  --dim N          dimensions of the model, 1 to 2048 (default 256)\n"
"  --min-df N       keep terms that occur in at least N chunks (default 2)\n"
"  --max-terms N    keep at most N terms, the most frequent (default 100000)\n"
"  --drift          print how much of the store's text the model cannot see\n"
"                   (a JSON line); exit 3 when it is above --max-drift\n"
"  --max-drift X    the drift that asks for a retraining, 0 to 1 (default 0.1)\n"
"  --pending        embed the chunks of DB that have no vector of the model in\n"
"                   the store (new, changed, or of an older model); reads no input\n"
"  --chunks         with --pending: write those chunks as chunk records, without\n"
"                   vectors, for another embedder (pending for the index's model)\n"
"  --model ID       with --chunks: pending for model ID instead\n"
"  --role R         embed every record as a document or as a query (default:\n"
"                   records with \"text\" are documents, those with \"query\" queries)\n"
"  --skip-invalid   skip bad records (counted on stderr) instead of stopping\n"
"  --help, --version, --config FILE.yaml, --log FILE\n";

static const char *const known_keys[] = {
	"db", "embed.dim", "embed.min_df", "embed.max_terms", "embed.role",
	"embed.power_iters", "embed.oversample", "embed.seed", "embed.sigma_power",
	"embed.query_tf", "embed.query_idf_power", "embed.log_entropy", "embed.max_drift",
	"embed.skip_invalid",
	/* the other stages' sections of a retrieval plan, accepted quietly */
	"version", "request_id", "plan_id", "query", "lanes.*", "fusion.*", "text.*", "k",
	"min_score", "diversity.*", "output.*", "rerank.*", NULL
};

enum {
	OPT_DB = EV_OPT_FIRST_FREE, OPT_TRAIN, OPT_DIM, OPT_MIN_DF, OPT_MAX_TERMS, OPT_ROLE,
	OPT_DRIFT, OPT_MAX_DRIFT, OPT_PENDING, OPT_CHUNKS, OPT_MODEL, OPT_SKIP
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "train", no_argument, NULL, OPT_TRAIN },
	{ "dim", required_argument, NULL, OPT_DIM },
	{ "min-df", required_argument, NULL, OPT_MIN_DF },
	{ "max-terms", required_argument, NULL, OPT_MAX_TERMS },
	{ "role", required_argument, NULL, OPT_ROLE },
	{ "drift", no_argument, NULL, OPT_DRIFT },
	{ "max-drift", required_argument, NULL, OPT_MAX_DRIFT },
	{ "pending", no_argument, NULL, OPT_PENDING },
	{ "chunks", no_argument, NULL, OPT_CHUNKS },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

#define ROLE_AUTO (-1)
#define MAX_TERMS_LIMIT 10000000

static int
parse_role(const char *s, int *role)
{
	if (strcmp(s, "document") == 0)
		*role = EV_EMBED_DOCUMENT;
	else if (strcmp(s, "query") == 0)
		*role = EV_EMBED_QUERY;
	else
		return -1;
	return 0;
}

static void
config_count(struct ev_cli *cli, const char *key, long long min, long long max, int *out)
{
	struct ev_err err = { 0 };
	long long v;
	int r;

	if ((r = ev_config_int(cli->config, key, min, max, &v, cli->config_path, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1)
		*out = (int)v;
}

/* What the modes other than --train read. */
struct run_opts {
	int role;
	double max_drift;
	int chunks;
	const char *model;
	struct ev_skip skip;
};

static void
read_config(struct ev_cli *cli, const char **db, struct ev_embed_params *p, struct run_opts *ro)
{
	int *role = &ro->role;
	const char *file = cli->config_path, *s;
	struct ev_err err = { 0 };
	long long seed;
	int r;

	ev_cli_check_config(cli, known_keys);
	if (json_object_get(cli->config, "embed") != NULL &&
	    !json_is_object(json_object_get(cli->config, "embed")))
		ev_cli_usage_error(cli, "%s: embed must be a mapping of settings", file);
	if (ev_config_str(cli->config, "db", db, file, &err) == -1)
		ev_cli_config_error(cli, &err);
	config_count(cli, "embed.dim", 1, EV_EMBED_DIM_MAX, &p->dim);
	config_count(cli, "embed.min_df", 1, 1000000000, &p->min_df);
	config_count(cli, "embed.max_terms", 1, MAX_TERMS_LIMIT, &p->max_terms);
	config_count(cli, "embed.power_iters", 0, 20, &p->power_iters);
	config_count(cli, "embed.oversample", 0, 1000, &p->oversample);
	if ((r = ev_config_int(cli->config, "embed.seed", 0, (1LL << 62), &seed, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1)
		p->seed = (uint64_t)seed;
	if (ev_config_num(cli->config, "embed.sigma_power", -2, 2, &p->sigma_power, file, &err) == -1 ||
	    ev_config_num(cli->config, "embed.query_idf_power", 0, 4, &p->query_idf_power, file,
	    &err) == -1)
		ev_cli_config_error(cli, &err);
	if ((r = ev_config_str(cli->config, "embed.query_tf", &s, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1) {
		if (strcmp(s, "log") == 0)
			p->query_log_tf = 1;
		else if (strcmp(s, "raw") == 0)
			p->query_log_tf = 0;
		else
			ev_cli_usage_error(cli, "%s: embed.query_tf must be log or raw: '%s'", file, s);
	}
	if ((r = ev_config_bool(cli->config, "embed.log_entropy", &p->log_entropy, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if ((r = ev_config_str(cli->config, "embed.role", &s, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1 && parse_role(s, role) == -1)
		ev_cli_usage_error(cli, "%s: embed.role must be document or query: '%s'", file, s);
	if (ev_config_num(cli->config, "embed.max_drift", 0, 1, &ro->max_drift, file, &err) == -1 ||
	    ev_config_bool(cli->config, "embed.skip_invalid", &ro->skip.on, file, &err) == -1)
		ev_cli_config_error(cli, &err);
}

static int
train(struct ev_cli *cli, const char *db, const struct ev_embed_params *p)
{
	struct ev_store *st;
	struct ev_embed_info info;
	struct ev_err err = { 0 };
	json_t *summary;
	int rc = EV_EXIT_OK;

	if ((st = ev_store_open(db, EV_STORE_WRITE, &err)) == NULL)
		return ev_cli_report(&err);
	if (ev_embed_train(st, p, &info, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if (info.dim < info.dim_asked)
		ev_warn("%s: --dim %d is more than %lld chunks and %d terms support; "
		    "the model has %d dimensions", db, info.dim_asked, info.chunks, info.terms, info.dim);
	if (info.empty > 0)
		ev_warn("%s: %lld of %lld chunks have no term of the vocabulary; their vectors will be zero",
		    db, info.empty, info.chunks);
	summary = json_pack("{s:s,s:i,s:I,s:i,s:I,s:f,s:f,s:f,s:f}",
	    "model", info.model_id, "dim", info.dim, "chunks", (json_int_t)info.chunks,
	    "terms", info.terms, "distinct_terms", (json_int_t)info.distinct,
	    "energy", (double)(long long)(info.energy * 1e4 + 0.5) / 1e4,
	    "read_ms", (double)(long long)info.ms_read, "svd_ms", (double)(long long)info.ms_svd,
	    "save_ms", (double)(long long)info.ms_save);
	if (summary == NULL)
		ev_err_nomem(&err);
	if (summary == NULL || ev_jsonl_write(stdout, summary, &err) == -1)
		rc = ev_cli_report(&err);
	json_decref(summary);
	ev_cli_count(cli, "chunks", info.chunks);
	ev_cli_count(cli, "terms", info.terms);
out:
	ev_store_close(st);
	return rc;
}

/* The text fields of a document record, or its query. */
static int
record_texts(json_t *rec, int is_query, const char *texts[3], size_t lens[3], const char *where,
	struct ev_err *err)
{
	static const char *const fields[] = { "title", "section_title", "text" };

	memset(texts, 0, 3 * sizeof *texts);
	memset(lens, 0, 3 * sizeof *lens);
	if (is_query) {
		if (ev_field_str(rec, "query", 1, &texts[2], where, err) == -1)
			return -1;
		lens[2] = json_string_length(json_object_get(rec, "query"));
		return 0;
	}
	for (int f = 0; f < 3; f++) {
		if (ev_field_str(rec, fields[f], f == 2, &texts[f], where, err) == -1)
			return -1;
		if (texts[f] != NULL)
			lens[f] = json_string_length(json_object_get(rec, fields[f]));
	}
	return 0;
}

/* Add "vector" and "model" to rec (a chunk, or with is_query a query
 * record).  *zero counts vectors of no direction.  Returns 0, or -1 with
 * *err set. */
static int
add_vector(struct ev_embed *e, json_t *rec, int is_query, float *vec, const char *where,
	long long *zero, struct ev_err *err)
{
	const char *texts[3];
	size_t lens[3];
	json_t *arr;
	int r, dim = ev_embed_dim(e);

	if (record_texts(rec, is_query, texts, lens, where, err) == -1)
		return -1;
	if ((r = ev_embed_texts(e, texts, lens, 3, is_query ? EV_EMBED_QUERY : EV_EMBED_DOCUMENT,
	    vec, err)) == -1)
		return -1;
	if (r == 0)
		(*zero)++;
	if ((arr = json_array()) == NULL)
		return ev_err_nomem(err);
	for (int d = 0; d < dim; d++)
		if (json_array_append_new(arr, json_real(vec[d])) == -1) {
			json_decref(arr);
			return ev_err_nomem(err);
		}
	if (json_object_set_new(rec, "vector", arr) == -1 ||
	    json_object_set_new(rec, "model", json_string(ev_embed_model_id(e))) == -1)
		return ev_err_nomem(err);
	return 0;
}

/* Embed one input value and write it.  Returns 0, or -1 with *err set. */
static int
embed_one(struct ev_embed *e, json_t *v, int role, size_t lineno, const char *where, float *vec,
	long long *zero, struct ev_err *err)
{
	json_t *rec;
	int is_query, rc;

	if (json_is_string(v)) {
		is_query = 1;
	} else if (!json_is_object(v)) {
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "a record must be an object (a chunk or a query) or a string (a query)");
	} else if (role != ROLE_AUTO) {
		is_query = role == EV_EMBED_QUERY;
	} else if (json_object_get(v, "text") != NULL) {
		is_query = 0;
	} else if (json_object_get(v, "query") != NULL) {
		is_query = 1;
	} else {
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "record has no 'text' (a chunk) or 'query' (a query) to embed");
	}
	if (is_query) {
		if ((rec = ev_query_record(v, lineno, where, err)) == NULL)
			return -1;
	} else {
		rec = json_incref(v);
	}
	rc = add_vector(e, rec, is_query, vec, where, zero, err);
	if (rc == 0)
		rc = ev_jsonl_write(stdout, rec, err);
	json_decref(rec);
	return rc;
}

static void
warn_zero(struct ev_embed *e, long long zero)
{
	if (zero > 0)
		ev_warn("%lld record%s had no term in the vocabulary of model '%s'; %s all zeros",
		    zero, zero == 1 ? "" : "s", ev_embed_model_id(e), zero == 1 ? "its vector is" :
		    "their vectors are");
}

static int
embed_stream(struct ev_cli *cli, const char *db, struct run_opts *ro, char **files, int nfiles)
{
	struct ev_store *st = NULL;
	struct ev_embed *e = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_err err = { 0 };
	json_t *v = NULL;
	float *vec = NULL;
	long long n = 0, nread = 0, zero = 0;
	int r, rc = EV_EXIT_OK;

	if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
	    (e = ev_embed_open(st, &err)) == NULL ||
	    (in = ev_jsonl_open(files, nfiles, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if ((vec = malloc((size_t)ev_embed_dim(e) * sizeof *vec)) == NULL) {
		rc = ev_cli_report((ev_err_nomem(&err), &err));
		goto out;
	}
	for (;;) {
		if ((r = ev_jsonl_next(in, &v, &err)) == 1) {
			nread++;
			r = embed_one(e, v, ro->role, ev_jsonl_lineno(in), ev_jsonl_where(in), vec,
			    &zero, &err) == 0 ? 1 : -1;
			json_decref(v);
			v = NULL;
		}
		if (r == 0)
			break;
		if (r == -1) {
			if (ev_cli_skip(&ro->skip, &err))
				continue;
			rc = ev_cli_report(&err);
			break;
		}
		n++;
	}
	ev_cli_skip_done(cli, &ro->skip);
	warn_zero(e, zero);
out:
	ev_cli_count(cli, "records_in", nread);
	ev_cli_count(cli, "records_out", n);
	free(vec);
	ev_jsonl_close(in);
	ev_embed_close(e);
	ev_store_close(st);
	return rc;
}

/* --pending: the chunks without a vector of the model, embedded (or, with
 * --chunks, as chunk records), from one snapshot of the store. */
static int
pending(struct ev_cli *cli, const char *db, const struct run_opts *ro)
{
	struct ev_store *st = NULL;
	struct ev_embed *e = NULL;
	struct ev_err err = { 0 };
	int64_t *ids = NULL;
	size_t n = 0, i;
	char *model = NULL, where[64];
	float *vec = NULL;
	json_t *rec = NULL;
	long long zero = 0, out = 0;
	int rc = EV_EXIT_OK;

	if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL)
		goto fail;
	if (!ro->chunks) {
		if ((e = ev_embed_open(st, &err)) == NULL)	/* begins the read transaction */
			goto fail;
		if ((model = strdup(ev_embed_model_id(e))) == NULL ||
		    (vec = malloc((size_t)ev_embed_dim(e) * sizeof *vec)) == NULL) {
			ev_err_nomem(&err);
			goto fail;
		}
	} else {
		if (ev_store_exec(st, "BEGIN", &err) == -1)
			goto fail;
		if (ro->model != NULL && (model = strdup(ro->model)) == NULL) {
			ev_err_nomem(&err);
			goto fail;
		}
		if (ro->model == NULL && ev_store_meta_get(st, "vindex.model", &model, &err) == -1)
			goto fail;
	}
	if (ev_vindex_pending(st, model, &ids, &n, &err) == -1)
		goto fail;
	for (i = 0; i < n; i++) {
		char *text = NULL;
		int r;

		if ((rec = json_object()) == NULL) {
			ev_err_nomem(&err);
			goto fail;
		}
		if ((r = ev_vindex_chunk(st, ids[i], rec, &text, &err)) == -1)
			goto fail;
		if (json_object_set_new(rec, "text", json_string(text ? text : "")) == -1) {
			free(text);
			ev_err_nomem(&err);
			goto fail;
		}
		free(text);
		snprintf(where, sizeof where, "chunk rowid %lld", (long long)ids[i]);
		if (e != NULL && add_vector(e, rec, 0, vec, where, &zero, &err) == -1)
			goto fail;
		if (ev_jsonl_write(stdout, rec, &err) == -1)
			goto fail;
		json_decref(rec);
		rec = NULL;
		out++;
	}
	if (e != NULL)
		warn_zero(e, zero);
	if (model != NULL)
		ev_warn("%lld chunk%s without a vector of model '%s'", out, out == 1 ? "" : "s", model);
	else
		ev_warn("%lld chunk%s: the store has no vectors yet", out, out == 1 ? "" : "s");
	goto done;
fail:
	rc = ev_cli_report(&err);
done:
	ev_cli_count(cli, "records_out", out);
	json_decref(rec);
	free(ids);
	free(model);
	free(vec);
	ev_embed_close(e);
	ev_store_close(st);	/* ends a read transaction of --chunks */
	return rc;
}

/* --drift: one JSON line; 3 when above max_drift. */
static int
drift(struct ev_cli *cli, const char *db, double max_drift)
{
	struct ev_store *st;
	struct ev_embed_drift d;
	struct ev_err err = { 0 };
	json_t *o;
	int rc = EV_EXIT_OK;

	if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL)
		return ev_cli_report(&err);
	if (ev_embed_drift(st, &d, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	o = json_pack("{s:o,s:f,s:f,s:I,s:I,s:I,s:I,s:I}",
	    "model", d.model_id[0] ? json_string(d.model_id) : json_null(),
	    "drift", (double)(long long)(d.drift * 1e4 + 0.5) / 1e4, "max_drift", max_drift,
	    "new_terms", (json_int_t)d.new_terms, "unseen_occurrences", (json_int_t)d.unseen,
	    "occurrences", (json_int_t)d.occurrences, "chunks", (json_int_t)d.chunks,
	    "trained_chunks", (json_int_t)d.trained_chunks);
	if (o == NULL)
		ev_err_nomem(&err);
	if (o == NULL || ev_jsonl_write(stdout, o, &err) == -1) {
		rc = ev_cli_report(&err);
	} else if (d.drift > max_drift) {
		rc = EV_EXIT_THRESHOLD;
		if (d.model_id[0])
			ev_warn("drift %.4f is above %g: retrain with 'ev-embed --db %s --train', then "
			    "'ev-embed --db %s --pending | ev-embed-load --db %s --index FILE'", d.drift,
			    max_drift, db, db, db);
		else
			ev_warn("no embedding model: train one with 'ev-embed --db %s --train'", db);
	}
	json_decref(o);
	ev_cli_count(cli, "chunks", d.chunks);
out:
	ev_store_close(st);
	return rc;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_embed_params p;
	struct run_opts ro = { .role = ROLE_AUTO, .max_drift = 0.1 };
	const char *db = NULL;
	long long n;
	int ch, rc, do_train = 0, role_flag = 0, training_flag = 0, do_drift = 0, do_pending = 0;
	int max_drift_flag = 0;

	ev_cli_init(&cli, "ev-embed", usage_text, argc, argv);
	ev_embed_params_init(&p);
	read_config(&cli, &db, &p, &ro);
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			db = optarg;
			break;
		case OPT_TRAIN:
			do_train = 1;
			break;
		case OPT_DIM:
			if (ev_parse_count(optarg, 1, EV_EMBED_DIM_MAX, &n) == -1)
				ev_cli_usage_error(&cli, "--dim takes a count from 1 to %d: '%s'",
				    EV_EMBED_DIM_MAX, optarg);
			p.dim = (int)n;
			training_flag = ch;
			break;
		case OPT_MIN_DF:
			if (ev_parse_count(optarg, 1, 1000000000, &n) == -1)
				ev_cli_usage_error(&cli, "--min-df takes a count from 1 to 1000000000: '%s'",
				    optarg);
			p.min_df = (int)n;
			training_flag = ch;
			break;
		case OPT_MAX_TERMS:
			if (ev_parse_count(optarg, 1, MAX_TERMS_LIMIT, &n) == -1)
				ev_cli_usage_error(&cli, "--max-terms takes a count from 1 to %d: '%s'",
				    MAX_TERMS_LIMIT, optarg);
			p.max_terms = (int)n;
			training_flag = ch;
			break;
		case OPT_ROLE:
			if (parse_role(optarg, &ro.role) == -1)
				ev_cli_usage_error(&cli, "--role must be document or query: '%s'", optarg);
			role_flag = 1;
			break;
		case OPT_DRIFT:
			do_drift = 1;
			break;
		case OPT_MAX_DRIFT:
			if (ev_parse_double(optarg, 0, 1, &ro.max_drift) == -1)
				ev_cli_usage_error(&cli, "--max-drift takes a share from 0 to 1: '%s'",
				    optarg);
			max_drift_flag = 1;
			break;
		case OPT_PENDING:
			do_pending = 1;
			break;
		case OPT_CHUNKS:
			ro.chunks = 1;
			break;
		case OPT_MODEL:
			if (optarg[0] == '\0')
				ev_cli_usage_error(&cli, "--model takes a model id");
			ro.model = optarg;
			break;
		case OPT_SKIP:
			ro.skip.on = 1;
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	if (do_train + do_drift + do_pending > 1)
		ev_cli_usage_error(&cli, "--train, --drift and --pending are separate runs: give one");
	if (ro.chunks && !do_pending)
		ev_cli_usage_error(&cli, "--chunks goes with --pending");
	if (ro.model && !ro.chunks)
		ev_cli_usage_error(&cli, "--model goes with --pending --chunks (ev-embed's own "
		    "vectors are of the store's model)");
	if (max_drift_flag && !do_drift)
		ev_cli_usage_error(&cli, "--max-drift goes with --drift");
	if ((do_drift || do_pending) && (optind < argc || role_flag || training_flag))
		ev_cli_usage_error(&cli, "--%s reads the store, not input: '%s'",
		    do_drift ? "drift" : "pending", optind < argc ? argv[optind] :
		    role_flag ? "--role" : "--dim, --min-df, --max-terms");
	if (do_drift) {
		rc = drift(&cli, db, ro.max_drift);
	} else if (do_pending) {
		rc = pending(&cli, db, &ro);
	} else if (do_train) {
		if (optind < argc)
			ev_cli_usage_error(&cli, "--train reads the chunks of the store, not files: '%s'",
			    argv[optind]);
		if (role_flag)
			ev_cli_usage_error(&cli, "--role has no meaning with --train");
		rc = train(&cli, db, &p);
	} else {
		if (training_flag)
			ev_cli_usage_error(&cli, "--%s is an option of --train",
			    training_flag == OPT_DIM ? "dim" : training_flag == OPT_MIN_DF ? "min-df" :
			    "max-terms");
		rc = embed_stream(&cli, db, &ro, argv + optind, argc - optind);
	}
	return ev_cli_finish(&cli, rc);
}
