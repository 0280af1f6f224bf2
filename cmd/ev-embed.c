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

static const char usage_text[] =
"usage: ev-embed --db DB --train [--dim N] [--min-df N] [--max-terms N]\n"
"       ev-embed --db DB [--role document|query] [FILE ...]\n"
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
"  --role R         embed every record as a document or as a query (default:\n"
"                   records with \"text\" are documents, those with \"query\" queries)\n"
"  --help, --version, --config FILE.yaml, --log FILE\n";

static const char *const known_keys[] = {
	"db", "embed.dim", "embed.min_df", "embed.max_terms", "embed.role",
	"embed.power_iters", "embed.oversample", "embed.seed", "embed.sigma_power",
	"embed.query_tf", "embed.query_idf_power", "embed.log_entropy",
	/* the other stages' sections of a retrieval plan, accepted quietly */
	"version", "request_id", "plan_id", "query", "lanes.*", "fusion.*", "text.*", "k",
	"min_score", "diversity.*", "output.*", "rerank.*", NULL
};

enum {
	OPT_DB = EV_OPT_FIRST_FREE, OPT_TRAIN, OPT_DIM, OPT_MIN_DF, OPT_MAX_TERMS, OPT_ROLE
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "train", no_argument, NULL, OPT_TRAIN },
	{ "dim", required_argument, NULL, OPT_DIM },
	{ "min-df", required_argument, NULL, OPT_MIN_DF },
	{ "max-terms", required_argument, NULL, OPT_MAX_TERMS },
	{ "role", required_argument, NULL, OPT_ROLE },
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

static void
read_config(struct ev_cli *cli, const char **db, struct ev_embed_params *p, int *role)
{
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

static int
embed_stream(struct ev_cli *cli, const char *db, int role, char **files, int nfiles)
{
	struct ev_store *st = NULL;
	struct ev_embed *e = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_err err = { 0 };
	json_t *v = NULL, *rec = NULL, *arr;
	float *vec = NULL;
	long long n = 0, nread = 0, zero = 0;
	int r, dim, failed = 0, rc = EV_EXIT_OK;

	if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
	    (e = ev_embed_open(st, &err)) == NULL ||
	    (in = ev_jsonl_open(files, nfiles, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	dim = ev_embed_dim(e);
	if ((vec = malloc((size_t)dim * sizeof *vec)) == NULL) {
		ev_err_nomem(&err);
		rc = ev_cli_report(&err);
		goto out;
	}
	for (;;) {
		if ((r = ev_jsonl_next(in, &v, &err)) != 1) {
			failed = r == -1;
			break;
		}
		nread++;
		failed = 1;	/* until the record is written */
		const char *where = ev_jsonl_where(in), *texts[3];
		size_t lens[3];
		int is_query;

		if (json_is_string(v)) {
			is_query = 1;
		} else if (!json_is_object(v)) {
			ev_err_set(&err, EV_EXIT_USAGE, where,
			    "a record must be an object (a chunk or a query) or a string (a query)");
			break;
		} else if (role != ROLE_AUTO) {
			is_query = role == EV_EMBED_QUERY;
		} else if (json_object_get(v, "text") != NULL) {
			is_query = 0;
		} else if (json_object_get(v, "query") != NULL) {
			is_query = 1;
		} else {
			ev_err_set(&err, EV_EXIT_USAGE, where,
			    "record has no 'text' (a chunk) or 'query' (a query) to embed");
			break;
		}
		if (is_query) {
			if ((rec = ev_query_record(v, ev_jsonl_lineno(in), where, &err)) == NULL)
				break;
		} else {
			rec = json_incref(v);
		}
		if (record_texts(rec, is_query, texts, lens, where, &err) == -1)
			break;
		if ((r = ev_embed_texts(e, texts, lens, 3, is_query ? EV_EMBED_QUERY :
		    EV_EMBED_DOCUMENT, vec, &err)) == -1)
			break;
		if (r == 0)
			zero++;
		if ((arr = json_array()) == NULL)
			goto nomem;
		for (int d = 0; d < dim; d++)
			if (json_array_append_new(arr, json_real(vec[d])) == -1) {
				json_decref(arr);
				goto nomem;
			}
		if (json_object_set_new(rec, "vector", arr) == -1 ||
		    json_object_set_new(rec, "model", json_string(ev_embed_model_id(e))) == -1)
			goto nomem;
		if (ev_jsonl_write(stdout, rec, &err) == -1)
			break;
		n++;
		failed = 0;
		json_decref(rec);
		json_decref(v);
		rec = v = NULL;
	}
	if (failed)
		rc = ev_cli_report(&err);
	if (zero > 0)
		ev_warn("%lld record%s had no term in the vocabulary of model '%s'; %s all zeros",
		    zero, zero == 1 ? "" : "s", ev_embed_model_id(e), zero == 1 ? "its vector is" :
		    "their vectors are");
	goto out;
nomem:
	ev_err_nomem(&err);
	rc = ev_cli_report(&err);
out:
	ev_cli_count(cli, "records_in", nread);
	ev_cli_count(cli, "records_out", n);
	json_decref(rec);
	json_decref(v);
	free(vec);
	ev_jsonl_close(in);
	ev_embed_close(e);
	ev_store_close(st);
	return rc;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_embed_params p;
	const char *db = NULL;
	long long n;
	int ch, rc, do_train = 0, role = ROLE_AUTO, role_flag = 0, training_flag = 0;

	ev_cli_init(&cli, "ev-embed", usage_text, argc, argv);
	ev_embed_params_init(&p);
	read_config(&cli, &db, &p, &role);
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
			if (parse_role(optarg, &role) == -1)
				ev_cli_usage_error(&cli, "--role must be document or query: '%s'", optarg);
			role_flag = 1;
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	if (do_train) {
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
		rc = embed_stream(&cli, db, role, argv + optind, argc - optind);
	}
	return ev_cli_finish(&cli, rc);
}
