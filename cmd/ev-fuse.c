/* ev-fuse: fuse the hits of several lanes into one ranked list per query. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "config.h"
#include "fuse.h"
#include "jsonl.h"

static const char usage_text[] =
"usage: ev-fuse [--method rrf|weighted|combsum|combmnz] [--rrf-k K] [--weight LANE=W ...]\n"
"               [--norm none|max|minmax|zscore] [--group chunk|doc] [-k N] [--no-explain]\n"
"               [--adapt none|agreement] [--anchor LANE] [--agreement-depth N]\n"
"               [--agreement-full X] [--skip-invalid] [--config FILE.yaml] [--log FILE]\n"
"               [FILE ...]\n"
"Fuse hit records of any mix of lanes (files or stdin, grouped by query) into\n"
"fused hit records (lane \"fused\"), best first, each with its explanation.\n"
"  --method M       rrf (default), weighted, combsum or combmnz\n"
"  --rrf-k K        the k of reciprocal rank fusion, 1/(K+rank) (default 60)\n"
"  --weight LANE=W  weight of a lane (default 1), e.g. --weight vector=0.7\n"
"  --norm N         score normalisation for weighted/combsum/combmnz\n"
"                   (default: max for weighted, minmax for combsum, combmnz)\n"
"  --group G        chunk (default): one hit per chunk id; doc: one per doc_id\n"
"  -k, --k N        keep the first N fused hits of each query (default: all)\n"
"  --no-explain     leave out the per-lane \"explain\" object\n"
"  --adapt A        none (default): the weights as given; agreement: per query,\n"
"                   each lane but the anchor weighs its weight times\n"
"                   min(1, agreement / X), agreement being the share of its\n"
"                   first N documents among the anchor's first N\n"
"  --anchor LANE    the lane others are compared with (default text)\n"
"  --agreement-depth N  the first N of each lane are compared (default 10)\n"
"  --agreement-full X   the agreement that earns the full weight (default 0.6)\n"
"  --skip-invalid   skip bad hit records (counted on stderr) instead of failing\n"
"  --help, --version, --config FILE.yaml, --log FILE\n";

/* The plan's keys: ev-fuse reads fusion.*; the rest belong to the other
 * stages of a plan (samples/plan.yaml) and are accepted quietly. */
static const char *const known_keys[] = {
	"fusion.method", "fusion.rrf_k", "fusion.normalization", "fusion.weights.*",
	"fusion.group", "fusion.k", "fusion.explain", "fusion.skip_invalid",
	"fusion.adapt", "fusion.anchor", "fusion.agreement_depth", "fusion.agreement_full",
	"version", "request_id", "plan_id", "lanes.*", "k", "min_score", "diversity.*",
	"output.*", "rerank.*", NULL
};

enum {
	OPT_METHOD = EV_OPT_FIRST_FREE, OPT_RRF_K, OPT_WEIGHT, OPT_NORM, OPT_GROUP,
	OPT_NO_EXPLAIN, OPT_SKIP_INVALID, OPT_ADAPT, OPT_ANCHOR, OPT_AGREE_DEPTH, OPT_AGREE_FULL
};

static const struct option longopts[] = {
	{ "method", required_argument, NULL, OPT_METHOD },
	{ "k", required_argument, NULL, 'k' },
	{ "rrf-k", required_argument, NULL, OPT_RRF_K },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "norm", required_argument, NULL, OPT_NORM },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "no-explain", no_argument, NULL, OPT_NO_EXPLAIN },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP_INVALID },
	{ "adapt", required_argument, NULL, OPT_ADAPT },
	{ "anchor", required_argument, NULL, OPT_ANCHOR },
	{ "agreement-depth", required_argument, NULL, OPT_AGREE_DEPTH },
	{ "agreement-full", required_argument, NULL, OPT_AGREE_FULL },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};


/* Write one query's fused hits with one fwrite, flushing when stdout is a
 * pipe, so that pipelines still stream query by query. */
static int
write_hits(struct ev_fuse *f, struct ev_buf *b, int flush, long long *n, struct ev_err *err)
{
	ev_buf_reset(b);
	if (ev_fuse_write(f, b, n, err) == -1)
		return -1;
	if (b->len > 0 && (fwrite(b->p, 1, b->len, stdout) != b->len ||
	    (flush && fflush(stdout) == EOF)))
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	return 0;
}

static int
stdout_is_pipe(void)
{
	struct stat sb;

	return fstat(STDOUT_FILENO, &sb) == 0 &&
	    (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode) || S_ISCHR(sb.st_mode));
}

static int
parse_group(const char *s, enum ev_fuse_group *g)
{
	if (strcmp(s, "chunk") == 0)
		*g = EV_GROUP_CHUNK;
	else if (strcmp(s, "doc") == 0)
		*g = EV_GROUP_DOC;
	else
		return -1;
	return 0;
}

/* Defaults from the config file (a retrieval plan's fusion section). */
static void
read_config(struct ev_cli *cli, struct ev_fuse_opts *o, int *skip)
{
	const char *file = cli->config_path, *s;
	struct ev_err err = { 0 };
	json_t *w, *v;
	const char *lane;
	long long depth;
	double d;
	int b, r;

	ev_cli_check_config(cli, known_keys);
	if ((r = ev_config_str(cli->config, "fusion.method", &s, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1 && ev_fuse_method_parse(s, &o->method) == -1)
		ev_cli_usage_error(cli, "%s: fusion.method must be rrf, weighted, combsum or combmnz: '%s'",
		    file, s);
	if ((r = ev_config_str(cli->config, "fusion.normalization", &s, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1 && ev_fuse_norm_parse(s, &o->norm) == -1)
		ev_cli_usage_error(cli, "%s: fusion.normalization must be none, max, minmax or zscore: '%s'",
		    file, s);
	if ((r = ev_config_str(cli->config, "fusion.group", &s, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1 && parse_group(s, &o->group) == -1)
		ev_cli_usage_error(cli, "%s: fusion.group must be chunk or doc: '%s'", file, s);
	if (ev_config_num(cli->config, "fusion.rrf_k", 1e-9, 1e9, &o->rrf_k, file, &err) == -1 ||
	    ev_config_int(cli->config, "fusion.k", 0, 1000000000, &o->k, file, &err) == -1)
		ev_cli_config_error(cli, &err);
	if ((r = ev_config_bool(cli->config, "fusion.explain", &b, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1)
		o->explain = b;
	if ((r = ev_config_bool(cli->config, "fusion.skip_invalid", &b, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1)
		*skip = b;
	if ((r = ev_config_str(cli->config, "fusion.adapt", &s, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1 && ev_fuse_adapt_parse(s, &o->adapt) == -1)
		ev_cli_usage_error(cli, "%s: fusion.adapt must be none or agreement: '%s'", file, s);
	if ((r = ev_config_str(cli->config, "fusion.anchor", &s, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1 && ev_fuse_anchor_set(o, s, &err) == -1)
		ev_cli_usage_error(cli, "%s: fusion.anchor: %s", file, err.msg);
	if ((r = ev_config_int(cli->config, "fusion.agreement_depth", 1, 100000, &depth, file,
	    &err)) == -1 ||
	    ev_config_num(cli->config, "fusion.agreement_full", 1e-9, 1, &o->agree_full, file,
	    &err) == -1)
		ev_cli_config_error(cli, &err);
	if (r == 1)
		o->agree_depth = (int)depth;
	w = ev_config_get(cli->config, "fusion.weights");
	if (w != NULL && !json_is_object(w))
		ev_cli_usage_error(cli, "%s: fusion.weights must be a mapping of lane to weight", file);
	json_object_foreach(w, lane, v) {
		if (!json_is_number(v))
			ev_cli_usage_error(cli, "%s: fusion.weights.%s must be a number", file, lane);
		d = json_number_value(v);
		if (ev_fuse_weight_set(o, lane, d, &err) == -1)
			ev_cli_usage_error(cli, "%s: fusion.weights: %s", file, err.msg);
	}
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	struct ev_fuse_in *in = NULL;
	struct ev_fuse *f = NULL;
	struct ev_buf b = EV_BUF_INIT;
	struct ev_skip skip = { 0 };
	long long queries = 0, hits_out = 0, n, depth;
	int ch, r, norm_flag = 0, pipe, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-fuse", usage_text, argc, argv);
	ev_fuse_opts_init(&o);
	read_config(&cli, &o, &skip.on);
	while ((ch = getopt_long(argc, argv, "k:", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_METHOD:
			if (ev_fuse_method_parse(optarg, &o.method) == -1)
				ev_cli_usage_error(&cli,
				    "--method must be rrf, weighted, combsum or combmnz: '%s'", optarg);
			break;
		case OPT_RRF_K:
			if (ev_parse_double(optarg, 1e-9, 1e9, &o.rrf_k) == -1 || o.rrf_k <= 0)
				ev_cli_usage_error(&cli, "--rrf-k takes a number above 0: '%s'", optarg);
			break;
		case OPT_WEIGHT:
			if (ev_fuse_weight_parse(&o, optarg, &err) == -1)
				ev_cli_usage_error(&cli, "--weight: %s", err.msg);
			break;
		case OPT_NORM:
			if (ev_fuse_norm_parse(optarg, &o.norm) == -1)
				ev_cli_usage_error(&cli,
				    "--norm must be none, max, minmax or zscore: '%s'", optarg);
			norm_flag = 1;
			break;
		case OPT_GROUP:
			if (parse_group(optarg, &o.group) == -1)
				ev_cli_usage_error(&cli, "--group must be chunk or doc: '%s'", optarg);
			break;
		case 'k':
			if (ev_parse_count(optarg, 1, 1000000000, &o.k) == -1)
				ev_cli_usage_error(&cli,
				    "-k takes a count from 1 to 1000000000: '%s'", optarg);
			break;
		case OPT_NO_EXPLAIN:
			o.explain = 0;
			break;
		case OPT_SKIP_INVALID:
			skip.on = 1;
			break;
		case OPT_ADAPT:
			if (ev_fuse_adapt_parse(optarg, &o.adapt) == -1)
				ev_cli_usage_error(&cli, "--adapt must be none or agreement: '%s'", optarg);
			break;
		case OPT_ANCHOR:
			if (ev_fuse_anchor_set(&o, optarg, &err) == -1)
				ev_cli_usage_error(&cli, "--anchor: %s", err.msg);
			break;
		case OPT_AGREE_DEPTH:
			if (ev_parse_count(optarg, 1, 100000, &depth) == -1)
				ev_cli_usage_error(&cli,
				    "--agreement-depth takes a count from 1 to 100000: '%s'", optarg);
			o.agree_depth = (int)depth;
			break;
		case OPT_AGREE_FULL:
			if (ev_parse_double(optarg, 1e-9, 1, &o.agree_full) == -1)
				ev_cli_usage_error(&cli,
				    "--agreement-full takes a number above 0, at most 1: '%s'", optarg);
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (o.method == EV_FUSE_RRF && norm_flag)
		ev_warn("--norm has no effect with --method rrf, which uses ranks");

	if ((in = ev_fuse_in_open(argv + optind, argc - optind, &err)) == NULL ||
	    (f = ev_fuse_new(&o, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	pipe = stdout_is_pipe();
	for (;;) {
		r = ev_fuse_in_next(in, f, &err);
		if (r == 0)
			break;
		if (r == -1) {
			if (ev_cli_skip(&skip, &err))
				continue;
			rc = ev_cli_report(&err);
			goto out;
		}
		if (write_hits(f, &b, pipe, &n, &err) == -1) {
			rc = ev_cli_report(&err);
			goto out;
		}
		queries++;
		hits_out += n;
	}
	ev_cli_skip_done(&cli, &skip);
out:
	ev_cli_count(&cli, "records_in", in ? ev_fuse_in_records(in) : 0);
	ev_cli_count(&cli, "queries", queries);
	ev_cli_count(&cli, "hits_out", hits_out);
	ev_buf_release(&b);
	ev_fuse_free(f);
	ev_fuse_in_close(in);
	return ev_cli_finish(&cli, rc);
}
