/* ev-pack: turn each query's hits into one EvidencePack v0.1. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "pack.h"
#include "uuid.h"

static const char usage_text[] =
"usage: ev-pack [--plan FILE.yaml] [-k N] [--min-score X] [--by-document N]\n"
"               [--overlap X] [--no-dedupe] [--max-snippet-chars N]\n"
"               [--format jsonl|json|text] [--skip-invalid]\n"
"               [--config FILE.yaml] [--log FILE] [FILE ...]\n"
"Read fused hit records (or single-lane hits), grouped by query, and write one\n"
"EvidencePack v0.1 per query.\n"
"  --plan FILE.yaml       the retrieval plan (samples/plan.yaml); kept in each pack\n"
"  -k N                   evidences per pack (default 10; 0 keeps all)\n"
"  --min-score X          drop hits whose score is below X\n"
"  --by-document N        at most N evidences per document (default 3; 0: no limit)\n"
"  --overlap X            word overlap (Jaccard, 0 to 1) that makes two texts\n"
"                         near-duplicates (default 0.9)\n"
"  --no-dedupe            keep near-duplicates (same content hash or overlap)\n"
"  --max-snippet-chars N  characters per snippet (default 500)\n"
"  --format F             jsonl (default, one pack a line), json (pretty) or text\n"
"  --skip-invalid         skip bad hit records (counted on stderr) instead of failing\n"
"  --help, --version, --config FILE.yaml, --log FILE\n";

enum {
	OPT_PLAN = EV_OPT_FIRST_FREE, OPT_MIN_SCORE, OPT_BY_DOC, OPT_OVERLAP, OPT_NO_DEDUPE,
	OPT_SNIPPET, OPT_FORMAT, OPT_SKIP_INVALID
};

static const struct option longopts[] = {
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "min-score", required_argument, NULL, OPT_MIN_SCORE },
	{ "by-document", required_argument, NULL, OPT_BY_DOC },
	{ "overlap", required_argument, NULL, OPT_OVERLAP },
	{ "no-dedupe", no_argument, NULL, OPT_NO_DEDUPE },
	{ "max-snippet-chars", required_argument, NULL, OPT_SNIPPET },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP_INVALID },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

enum format { FMT_JSONL, FMT_JSON, FMT_TEXT };


static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int
write_pack(const json_t *pack, enum format fmt, struct ev_buf *b, struct ev_err *err)
{
	char *s;

	if (fmt == FMT_JSONL)
		return ev_jsonl_write(stdout, pack, err);
	ev_buf_reset(b);
	if (fmt == FMT_JSON) {
		if ((s = json_dumps(pack, JSON_INDENT(2) | JSON_REAL_PRECISION(10))) == NULL)
			return ev_err_nomem(err);
		if (ev_buf_adds(b, s) == -1 || ev_buf_addc(b, '\n') == -1) {
			free(s);
			return ev_err_nomem(err);
		}
		free(s);
	} else if (ev_pack_render_text(pack, b) == -1) {
		return ev_err_nomem(err);
	}
	if (fwrite(ev_buf_str(b), 1, b->len, stdout) != b->len || fflush(stdout) == EOF)
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	return 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_pack_opts o;
	struct ev_err err = { 0 };
	struct ev_jsonl *in = NULL;
	struct ev_pack *p = NULL;
	struct ev_buf b = EV_BUF_INIT;
	json_t *plan = NULL, *ignored = NULL, *rec = NULL, *pack = NULL, *done = NULL;
	const char *plan_path = NULL, *pid;
	char plan_id[EV_UUID_LEN + 1], now[64], qidbuf[64], *cur = NULL, where[256];
	const char *qid = qidbuf;
	struct ev_skip skip = { 0 };
	long long queries = 0, records = 0, k = 0;
	double started = 0, d;
	enum format fmt = FMT_JSONL;
	int ch, r, i, fixed, rc = EV_EXIT_OK;
	/* flags, applied after the plan */
	int set_k = 0, set_min = 0, set_bydoc = 0, set_overlap = 0, set_snip = 0, no_dedupe = 0;
	double min_score = 0, overlap = 0;
	long long bydoc = 0, snip = 0;

	ev_cli_init(&cli, "ev-pack", usage_text, argc, argv);
	ev_pack_opts_init(&o);
	ev_cli_check_config(&cli, ev_pack_plan_keys);
	if (ev_pack_opts_from_plan(&o, cli.config, cli.config_path, NULL, &err) == -1)
		ev_cli_config_error(&cli, &err);
	while ((ch = getopt_long(argc, argv, "k:", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_PLAN:
			plan_path = optarg;
			break;
		case 'k':
			if (ev_parse_count(optarg, 0, 1000000000, &k) == -1)
				ev_cli_usage_error(&cli, "-k takes a count from 0 to 1000000000: '%s'", optarg);
			set_k = 1;
			break;
		case OPT_MIN_SCORE:
			if (ev_parse_double(optarg, -1e300, 1e300, &min_score) == -1)
				ev_cli_usage_error(&cli, "--min-score takes a finite number: '%s'", optarg);
			set_min = 1;
			break;
		case OPT_BY_DOC:
			if (ev_parse_count(optarg, 0, 1000000000, &bydoc) == -1)
				ev_cli_usage_error(&cli,
				    "--by-document takes a count from 0 to 1000000000: '%s'", optarg);
			set_bydoc = 1;
			break;
		case OPT_OVERLAP:
			if (ev_parse_double(optarg, 0, 1, &overlap) == -1)
				ev_cli_usage_error(&cli, "--overlap takes a number from 0 to 1: '%s'", optarg);
			set_overlap = 1;
			break;
		case OPT_NO_DEDUPE:
			no_dedupe = 1;
			break;
		case OPT_SNIPPET:
			if (ev_parse_count(optarg, 1, 1000000000, &snip) == -1)
				ev_cli_usage_error(&cli,
				    "--max-snippet-chars takes a count from 1 to 1000000000: '%s'", optarg);
			set_snip = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "jsonl") == 0)
				fmt = FMT_JSONL;
			else if (strcmp(optarg, "json") == 0)
				fmt = FMT_JSON;
			else if (strcmp(optarg, "text") == 0)
				fmt = FMT_TEXT;
			else
				ev_cli_usage_error(&cli, "--format must be jsonl, json or text: '%s'", optarg);
			break;
		case OPT_SKIP_INVALID:
			skip.on = 1;
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if ((ignored = json_array()) == NULL || (done = json_object()) == NULL) {
		ev_err_nomem(&err);
		rc = ev_cli_report(&err);
		goto out;
	}
	if (plan_path != NULL) {
		if ((plan = ev_config_load(plan_path, &err)) == NULL)
			ev_cli_config_error(&cli, &err);
		if (ev_pack_opts_from_plan(&o, plan, plan_path, ignored, &err) == -1)
			ev_cli_config_error(&cli, &err);
		for (i = 0; i < (int)json_array_size(ignored); i++)
			ev_warn("%s: %s", plan_path, json_string_value(json_array_get(ignored, i)));
	}
	if (set_k)
		o.k = k;
	if (set_min) {
		o.min_score = min_score;
		o.has_min_score = 1;
	}
	if (set_bydoc)
		o.by_document = bydoc;
	if (set_overlap)
		o.overlap = overlap;
	if (no_dedupe)
		o.near_duplicates = 0;
	if (set_snip)
		o.max_snippet_chars = snip;

	pid = plan ? json_string_value(json_object_get(plan, "plan_id")) : NULL;
	if (pid != NULL)
		snprintf(plan_id, sizeof plan_id, "%s", pid);
	else if (ev_uuid_v4(plan_id, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if ((in = ev_jsonl_open(argv + optind, argc - optind, &err)) == NULL ||
	    (p = ev_pack_new(&o, plan, ignored, plan_id, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	/* Each run of consecutive hits with one query_id is one pack. */
	for (;;) {
		r = ev_jsonl_next(in, &rec, &err);
		if (r == 1) {
			records++;
			snprintf(where, sizeof where, "%s", ev_jsonl_where(in));
			json_t *q = json_is_object(rec) ? json_object_get(rec, "query_id") : NULL;
			if (!json_is_object(rec))
				r = ev_err_set(&err, EV_EXIT_USAGE, where, "hit must be a JSON object");
			else if (q == NULL || json_is_null(q))
				r = ev_err_set(&err, EV_EXIT_USAGE, where, "missing field 'query_id'");
			else if (ev_json_id_text(q, qidbuf, sizeof qidbuf) < 0)
				r = ev_err_set(&err, EV_EXIT_USAGE, where,
				    "field 'query_id' must be a string or an integer");
			else	/* a long string id is used whole, not cut */
				qid = json_is_string(q) ? json_string_value(q) : qidbuf;
			if (r == 1 && cur != NULL && strcmp(cur, qid) == 0) {
				/* same query: fall through to add */
			} else if (r == 1 && json_object_get(done, qid) != NULL) {
				r = ev_err_set(&err, EV_EXIT_USAGE, where,
				    "query '%s' comes back after its pack was written: hits must be "
				    "grouped by query", qid);
			}
		}
		if (r == 0 || (r == 1 && (cur == NULL || strcmp(cur, qid) != 0))) {
			/* the end of a query's hits */
			if (cur != NULL) {
				fixed = ev_pack_now(now, sizeof now);
				d = fixed ? 0 : now_ms() - started;
				if ((pack = ev_pack_build(p, queries, now, d, &err)) == NULL ||
				    write_pack(pack, fmt, &b, &err) == -1) {
					rc = ev_cli_report(&err);
					goto out;
				}
				json_decref(pack);
				pack = NULL;
				queries++;
				if (json_object_set_new(done, cur, json_true()) == -1) {
					ev_err_nomem(&err);
					rc = ev_cli_report(&err);
					goto out;
				}
				free(cur);
				cur = NULL;
			}
			if (r == 0)
				break;
			if ((cur = strdup(qid)) == NULL || ev_pack_begin(p, &err) == -1) {
				ev_err_nomem(&err);
				rc = ev_cli_report(&err);
				goto out;
			}
			started = now_ms();
		}
		if (r == 1 && ev_pack_add(p, rec, where, &err) == -1)
			r = -1;
		json_decref(rec);
		rec = NULL;
		if (r == -1) {
			if (ev_cli_skip(&skip, &err))
				continue;
			rc = ev_cli_report(&err);
			goto out;
		}
	}
	ev_cli_skip_done(&cli, &skip);
out:
	ev_cli_count(&cli, "records_in", records);
	ev_cli_count(&cli, "packs_out", queries);
	free(cur);
	json_decref(rec);
	json_decref(pack);
	json_decref(plan);
	json_decref(ignored);
	json_decref(done);
	ev_buf_release(&b);
	ev_pack_free(p);
	ev_jsonl_close(in);
	return ev_cli_finish(&cli, rc);
}
