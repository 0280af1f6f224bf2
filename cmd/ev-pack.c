/* ev-pack: turn each query's hits into one EvidencePack v0.1. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "jscan.h"
#include "jsonl.h"
#include "pack.h"
#include "uuid.h"

static const char usage_text[] =
"usage: ev-pack [--plan FILE.yaml] [-k N] [--queries FILE] [--min-score X]\n"
"               [--by-document N] [--overlap X] [--no-dedupe]\n"
"               [--max-snippet-chars N] [--format jsonl|json|text]\n"
"               [--warning TEXT ...] [--skip-invalid] [--plan-get KEY]\n"
"               [--config FILE.yaml] [--log FILE] [FILE ...]\n"
"Read fused hit records (or single-lane hits), grouped by query, and write one\n"
"EvidencePack v0.1 per query.\n"
"  --plan FILE.yaml       the retrieval plan (samples/plan.yaml); kept in each pack\n"
"  -k, --k N              evidences per pack (default 10; 0 keeps all)\n"
"  --queries FILE         the queries the hits answer (query records or JSON\n"
"                         strings, as the lanes read them): one pack per query\n"
"                         of FILE, in its order, an empty one where no hit came\n"
"  --min-score X          drop hits whose score is below X\n"
"  --by-document N        at most N evidences per document (default 3; 0: no limit)\n"
"  --overlap X            word overlap (Jaccard, 0 to 1) that makes two texts\n"
"                         near-duplicates (default 0.9)\n"
"  --no-dedupe            keep near-duplicates (same content hash or overlap)\n"
"  --max-snippet-chars N  characters per snippet (default 500)\n"
"  --format F             jsonl (default, one pack a line), json (pretty) or text\n"
"                         (a report wrapped to $COLUMNS, default 80)\n"
"  --warning TEXT         add TEXT to every pack's warnings (repeatable), e.g.\n"
"                         that a lane was unavailable\n"
"  --skip-invalid         skip bad hit records (counted on stderr) instead of failing\n"
"  --plan-get KEY         print the plan's value of KEY (e.g. lanes.text.k), once\n"
"                         the plan is checked, and exit; nothing when it is absent\n"
"  --help, --version, --config FILE.yaml, --log FILE\n";

enum {
	OPT_PLAN = EV_OPT_FIRST_FREE, OPT_MIN_SCORE, OPT_BY_DOC, OPT_OVERLAP, OPT_NO_DEDUPE,
	OPT_SNIPPET, OPT_FORMAT, OPT_SKIP_INVALID, OPT_QUERIES, OPT_WARNING, OPT_PLAN_GET
};

static const struct option longopts[] = {
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "k", required_argument, NULL, 'k' },
	{ "queries", required_argument, NULL, OPT_QUERIES },
	{ "warning", required_argument, NULL, OPT_WARNING },
	{ "plan-get", required_argument, NULL, OPT_PLAN_GET },
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

/* The queries of --queries FILE, in its order. */
struct queries {
	json_t *recs;		/* array of query records (ev_query_record()) */
	json_t *index;		/* query id as text -> position */
};

/* Read FILE's queries as the lanes do (a JSON string is a query whose id is
 * its line number).  A query id given twice is bad input.  Returns 0, or -1
 * with *err set. */
static int
load_queries(const char *path, struct queries *qs, struct ev_err *err)
{
	char *paths[1] = { (char *)path }, idbuf[64];
	struct ev_jsonl *in;
	json_t *v, *q;
	const char *id;
	int r;

	if ((in = ev_jsonl_open(paths, 1, err)) == NULL)
		return -1;
	while ((r = ev_jsonl_next(in, &v, err)) == 1) {
		q = ev_query_record(v, ev_jsonl_lineno(in), ev_jsonl_where(in), err);
		json_decref(v);
		if (q == NULL) {
			r = -1;
			break;
		}
		if (ev_json_id_text(json_object_get(q, "query_id"), idbuf, sizeof idbuf) < 0 &&
		    !json_is_string(json_object_get(q, "query_id"))) {
			json_decref(q);
			r = ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(in),
			    "field 'query_id' must be a string or an integer");
			break;
		}
		id = json_is_string(json_object_get(q, "query_id")) ?
		    json_string_value(json_object_get(q, "query_id")) : idbuf;
		if (json_object_get(qs->index, id) != NULL) {
			json_decref(q);
			r = ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(in),
			    "query '%s' is given twice: query ids must be unique", id);
			break;
		}
		if (json_object_set_new(qs->index, id,
		    json_integer((json_int_t)json_array_size(qs->recs))) == -1 ||
		    json_array_append_new(qs->recs, q) == -1) {
			r = ev_err_nomem(err);
			break;
		}
	}
	ev_jsonl_close(in);
	return r == 0 ? 0 : -1;
}

/* The width of the text report: $COLUMNS when set, else the terminal's,
 * else 80. */
static size_t
text_width(void)
{
	const char *c = getenv("COLUMNS");
	long long v;
	struct winsize ws;

	if (c != NULL && ev_parse_count(c, 20, 10000, &v) == 0)
		return (size_t)v;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
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
	} else if (ev_pack_render_text(pack, text_width(), b) == -1) {
		return ev_err_nomem(err);
	}
	if (fwrite(ev_buf_str(b), 1, b->len, stdout) != b->len || fflush(stdout) == EOF)
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	return 0;
}

/* A line of blanks only (skipped, as JSON Lines readers do). */
static int
blank(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n == 0;
}

/* Build and write the pack of the hits added since ev_pack_begin().  query
 * (a query record of --queries, or NULL: the hits name it) gives the pack's
 * query_id and query; a pack holds one query, so its query_index is 0. */
static int
emit(struct ev_pack *p, const json_t *query, double started, enum format fmt,
    struct ev_buf *b, struct ev_err *err)
{
	char now[64];
	int fixed = ev_pack_now(now, sizeof now), r;
	json_t *pack;

	pack = ev_pack_build(p, query ? json_object_get(query, "query_id") : NULL,
	    query ? json_string_value(json_object_get(query, "query")) : NULL, 0, now,
	    fixed ? 0 : now_ms() - started, err);
	if (pack == NULL)
		return -1;
	r = write_pack(pack, fmt, b, err);
	json_decref(pack);
	return r;
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
	struct queries qs = { NULL, NULL };
	json_t *plan = NULL, *ignored = NULL, *done = NULL, *warnings = NULL;
	const char *plan_path = NULL, *pid, *queries_path = NULL, *plan_get = NULL;
	char plan_id[EV_UUID_LEN + 1], *cur = NULL, where[256];
	const char *qid = NULL, *line;
	size_t len;
	struct ev_skip skip = { 0 };
	long long packs = 0, records = 0, k = 0;
	size_t nextq = 0, qi;
	double started = 0;
	enum format fmt = FMT_JSONL;
	int ch, r, i, rc = EV_EXIT_OK;
	/* flags, applied after the plan */
	int set_k = 0, set_min = 0, set_bydoc = 0, set_overlap = 0, set_snip = 0, no_dedupe = 0;
	double min_score = 0, overlap = 0;
	long long bydoc = 0, snip = 0;

	ev_cli_init(&cli, "ev-pack", usage_text, argc, argv);
	ev_pack_opts_init(&o);
	ev_cli_check_config(&cli, ev_pack_plan_keys);
	if (ev_pack_opts_from_plan(&o, cli.config, cli.config_path, NULL, &err) == -1)
		ev_cli_config_error(&cli, &err);
	if ((warnings = json_array()) == NULL) {
		ev_err_nomem(&err);
		return ev_cli_finish(&cli, ev_cli_report(&err));
	}
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
		case OPT_QUERIES:
			queries_path = optarg;
			break;
		case OPT_WARNING:
			if (optarg[0] == '\0' || ev_utf8_bad(optarg, strlen(optarg)) != strlen(optarg))
				ev_cli_usage_error(&cli, "--warning takes a non-empty UTF-8 text");
			if (json_array_append_new(warnings, json_string(optarg)) == -1) {
				ev_err_nomem(&err);
				return ev_cli_finish(&cli, ev_cli_report(&err));
			}
			break;
		case OPT_PLAN_GET:
			plan_get = optarg;
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
	if (plan_get != NULL) {
		json_t *v = plan ? ev_config_get(plan, plan_get) : NULL;
		char *txt = NULL;

		if (plan == NULL)
			ev_cli_usage_error(&cli, "--plan-get needs --plan FILE.yaml");
		if (json_is_string(v))
			printf("%s\n", json_string_value(v));
		else if (v != NULL && !json_is_null(v) &&
		    (txt = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(10))) != NULL)
			printf("%s\n", txt);
		else if (v != NULL && !json_is_null(v))
			ev_err_nomem(&err), rc = ev_cli_report(&err);
		free(txt);
		if (rc == EV_EXIT_OK && fflush(stdout) == EOF) {
			ev_err_set(&err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
			rc = ev_cli_report(&err);
		}
		goto out;
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
	if (queries_path != NULL) {
		if ((qs.recs = json_array()) == NULL || (qs.index = json_object()) == NULL) {
			ev_err_nomem(&err);
			rc = ev_cli_report(&err);
			goto out;
		}
		if (load_queries(queries_path, &qs, &err) == -1) {
			rc = ev_cli_report(&err);
			goto out;
		}
	}
	if ((in = ev_jsonl_open(argv + optind, argc - optind, &err)) == NULL ||
	    (p = ev_pack_new(&o, plan, ignored, plan_id, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	for (qi = 0; qi < json_array_size(warnings); qi++)
		if (ev_pack_warn(p, json_string_value(json_array_get(warnings, qi)), &err) == -1) {
			rc = ev_cli_report(&err);
			goto out;
		}
	/* Each run of consecutive hits with one query_id is one pack; with
	 * --queries, the queries no hit answered get an empty pack in their
	 * place. */
	for (;;) {
		size_t want = 0;	/* with --queries: the position of qid */

		r = ev_jsonl_next_line(in, &line, &len, &err);
		if (r == 1 && blank(line, len))
			continue;
		if (r == 1) {
			records++;
			snprintf(where, sizeof where, "%s", ev_jsonl_where(in));
			if (ev_pack_scan_line(p, line, len, where, &qid, &err) == -1)
				r = -1;
			if (r == 1 && cur != NULL && strcmp(cur, qid) == 0) {
				/* same query: fall through to add */
			} else if (r == 1 && json_object_get(done, qid) != NULL) {
				r = ev_err_set(&err, EV_EXIT_USAGE, where,
				    "query '%s' comes back after its pack was written: hits must be "
				    "grouped by query", qid);
			} else if (r == 1 && qs.recs != NULL) {
				json_t *ix = json_object_get(qs.index, qid);
				if (ix == NULL)
					r = ev_err_set(&err, EV_EXIT_USAGE, where,
					    "query '%s' is not in %s", qid, queries_path);
				else if ((want = (size_t)json_integer_value(ix)) < nextq)
					r = ev_err_set(&err, EV_EXIT_USAGE, where,
					    "hits of query '%s' come after those of a query %s gives later: hits must be "
					    "in the order of the queries", qid, queries_path);
			}
		}
		if (r == 0 || (r == 1 && (cur == NULL || strcmp(cur, qid) != 0))) {
			/* the end of a query's hits */
			if (cur != NULL) {
				if (emit(p, qs.recs ? json_array_get(qs.recs, nextq - 1) : NULL,
				    started, fmt, &b, &err) == -1 ||
				    (json_object_set_new(done, cur, json_true()) == -1 &&
				    ev_err_nomem(&err) == -1)) {
					rc = ev_cli_report(&err);
					goto out;
				}
				packs++;
				free(cur);
				cur = NULL;
			}
			/* the queries no hit answered, before this one (or to the end) */
			if (qs.recs != NULL) {
				size_t upto = r == 0 ? json_array_size(qs.recs) : want;
				for (; nextq < upto; nextq++, packs++) {
					started = now_ms();
					if (ev_pack_begin(p, &err) == -1 ||
					    emit(p, json_array_get(qs.recs, nextq), started, fmt, &b,
					    &err) == -1) {
						rc = ev_cli_report(&err);
						goto out;
					}
				}
				if (r == 1)
					nextq++;
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
		if (r == 1 && ev_pack_add_line(p, where, &err) == -1)
			r = -1;
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
	ev_cli_count(&cli, "packs_out", packs);
	free(cur);
	json_decref(plan);
	json_decref(ignored);
	json_decref(done);
	json_decref(warnings);
	json_decref(qs.recs);
	json_decref(qs.index);
	ev_buf_release(&b);
	ev_pack_free(p);
	ev_jsonl_close(in);
	return ev_cli_finish(&cli, rc);
}
