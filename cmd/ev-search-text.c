/* ev-search-text: the text lane.  Query records in, hit records out, BM25
 * over the store's FTS5 index with the matched terms marked in a snippet.
 *
 * Streams: the hits of a query are written before the next query is read.
 * See man/ev-search-text.1 and lib/textsearch.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "lexicon.h"
#include "store.h"
#include "textsearch.h"

static const char usage_text[] =
"usage: ev-search-text --db DB [-k N] [--all-terms] [--raw-fts] [--fuzzy N]\n"
"                      [--weight FIELD=W ...] [--proximity W] [--feedback N]\n"
"                      [--feedback-terms N] [--feedback-weight X]\n"
"                      [--mark OPEN,CLOSE] [--snippet-tokens N] [--skip-invalid]\n"
"                      [--config FILE.yaml] [--log FILE] [FILE ...]\n"
"\n"
"Search the store's text index for each query record (from FILEs or stdin);\n"
"write the hits, best first, as hit records of lane \"text\".\n"
"\n"
"  --db DB             the store (made by ev-ingest)\n"
"  -k, --k N           hits per query, 1 to 100000 (default 100)\n"
"  --all-terms         a hit must hold every word (default: any word, ranked)\n"
"  --raw-fts           the query text is an FTS5 expression, not words\n"
"  --fuzzy N           expand a word missing from the index to words within N\n"
"                      edits (at most 1 for words of 4-7 letters; none under 4);\n"
"                      0 to 3 (default 2)\n"
"  --weight FIELD=W    BM25 weight of title, section_title or text (defaults\n"
"                      2.5, 2.5, 1)\n"
"  --proximity W       weight of two query words found side by side, 0 (off)\n"
"                      to 10 (default 0.2)\n"
"  --feedback N        pseudo-relevance feedback from the best N chunks of a\n"
"                      first pass, 0 (off) to 1000 (default 10)\n"
"  --feedback-terms N  words feedback adds, 1 to 1000 (default 20)\n"
"  --feedback-weight X their share of the query, 0 to 1 (default 0.5)\n"
"  --mark OPEN,CLOSE   what surrounds a matched word in snippets (default «,»)\n"
"  --snippet-tokens N  snippet length in words, 1 to 1000 (default 32)\n"
"  --skip-invalid      skip bad query records (counted on stderr) instead of\n"
"                      stopping\n"
"  --config FILE.yaml  defaults: db, k, text.weights.title, ..., text.fuzzy,\n"
"                      text.proximity, text.feedback.docs, ... (see the\n"
"                      manual); --log FILE appends a ToolRun line\n"
"  --help, --version\n";

enum {
	OPT_DB = EV_OPT_FIRST_FREE,
	OPT_ALL_TERMS,
	OPT_RAW_FTS,
	OPT_FUZZY,
	OPT_WEIGHT,
	OPT_MARK,
	OPT_SNIPPET_TOKENS,
	OPT_PROXIMITY,
	OPT_FEEDBACK,
	OPT_FEEDBACK_TERMS,
	OPT_FEEDBACK_WEIGHT,
	OPT_SKIP
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "k", required_argument, NULL, 'k' },
	{ "all-terms", no_argument, NULL, OPT_ALL_TERMS },
	{ "raw-fts", no_argument, NULL, OPT_RAW_FTS },
	{ "fuzzy", required_argument, NULL, OPT_FUZZY },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "mark", required_argument, NULL, OPT_MARK },
	{ "snippet-tokens", required_argument, NULL, OPT_SNIPPET_TOKENS },
	{ "proximity", required_argument, NULL, OPT_PROXIMITY },
	{ "feedback", required_argument, NULL, OPT_FEEDBACK },
	{ "feedback-terms", required_argument, NULL, OPT_FEEDBACK_TERMS },
	{ "feedback-weight", required_argument, NULL, OPT_FEEDBACK_WEIGHT },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

static const char *const config_keys[] = {
	"db", "k", "text.all_terms", "text.raw_fts", "text.fuzzy", "text.fuzzy_expansions",
	"text.drop_request_words",
	"text.weights.title", "text.weights.section_title", "text.weights.text",
	"text.snippet.open", "text.snippet.close", "text.snippet.tokens", "text.proximity",
	"text.feedback.docs", "text.feedback.terms", "text.feedback.weight", "text.skip_invalid", NULL
};

#define MAX_WEIGHT 1000.0
#define MAX_SNIPPET_TOKENS 1000
#define MAX_EXPANSIONS 100

struct opts {
	const char *db;
	struct ev_textsearch_opts ts;
	char *marks;		/* --mark's copy, split at the comma */
	struct ev_skip skip;
};

static void
config_int(struct ev_cli *cli, const char *key, long long min, long long max, long long *out)
{
	struct ev_err err = { 0 };

	if (ev_config_int(cli->config, key, min, max, out, cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
}

static void
config_num(struct ev_cli *cli, const char *key, double *out)
{
	struct ev_err err = { 0 };

	if (ev_config_num(cli->config, key, 0, MAX_WEIGHT, out, cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
}

/* Defaults from --config. */
static void
read_config(struct ev_cli *cli, struct opts *o)
{
	const json_t *cfg = cli->config;
	const char *file = cli->config_path;
	struct ev_err err = { 0 };
	long long v;

	ev_cli_check_config(cli, config_keys);
	if (ev_config_str(cfg, "db", &o->db, file, &err) == -1 ||
	    ev_config_bool(cfg, "text.all_terms", &o->ts.all_terms, file, &err) == -1 ||
	    ev_config_bool(cfg, "text.raw_fts", &o->ts.raw_fts, file, &err) == -1 ||
	    ev_config_bool(cfg, "text.drop_request_words", &o->ts.drop_request_words, file, &err) == -1 ||
	    ev_config_str(cfg, "text.snippet.open", &o->ts.snippet.open, file, &err) == -1 ||
	    ev_config_str(cfg, "text.snippet.close", &o->ts.snippet.close, file, &err) == -1 ||
	    ev_config_bool(cfg, "text.skip_invalid", &o->skip.on, file, &err) == -1)
		ev_cli_config_error(cli, &err);
	config_int(cli, "k", 1, EV_TEXTSEARCH_MAX_K, &o->ts.k);
	v = o->ts.fuzzy;
	config_int(cli, "text.fuzzy", 0, EV_TEXTSEARCH_MAX_FUZZY, &v);
	o->ts.fuzzy = (int)v;
	v = o->ts.fuzzy_expansions;
	config_int(cli, "text.fuzzy_expansions", 1, MAX_EXPANSIONS, &v);
	o->ts.fuzzy_expansions = (int)v;
	v = o->ts.snippet.tokens;
	config_int(cli, "text.snippet.tokens", 1, MAX_SNIPPET_TOKENS, &v);
	o->ts.snippet.tokens = (int)v;
	config_num(cli, "text.weights.title", &o->ts.w_title);
	config_num(cli, "text.weights.section_title", &o->ts.w_section);
	config_num(cli, "text.weights.text", &o->ts.w_text);
	if (ev_config_num(cfg, "text.proximity", 0, EV_TEXTSEARCH_MAX_PROXIMITY, &o->ts.proximity,
	    file, &err) == -1 ||
	    ev_config_num(cfg, "text.feedback.weight", 0, 1, &o->ts.feedback_weight, file, &err) == -1)
		ev_cli_config_error(cli, &err);
	v = o->ts.feedback_docs;
	config_int(cli, "text.feedback.docs", 0, EV_TEXTSEARCH_MAX_FEEDBACK, &v);
	o->ts.feedback_docs = (int)v;
	v = o->ts.feedback_terms;
	config_int(cli, "text.feedback.terms", 1, EV_TEXTSEARCH_MAX_FEEDBACK, &v);
	o->ts.feedback_terms = (int)v;
}

static void
parse_weight(struct ev_cli *cli, struct opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	double w;
	size_t n;

	if (eq == NULL || ev_parse_double(eq + 1, 0, MAX_WEIGHT, &w) == -1)
		ev_cli_usage_error(cli, "--weight takes FIELD=W with W from 0 to %g: '%s'",
		    MAX_WEIGHT, arg);
	n = (size_t)(eq - arg);
	if (n == 5 && strncmp(arg, "title", n) == 0)
		o->ts.w_title = w;
	else if (n == 13 && strncmp(arg, "section_title", n) == 0)
		o->ts.w_section = w;
	else if (n == 4 && strncmp(arg, "text", n) == 0)
		o->ts.w_text = w;
	else
		ev_cli_usage_error(cli, "--weight: unknown field '%.*s' (title, section_title or text)",
		    (int)n, arg);
}

static void
parse_mark(struct ev_cli *cli, struct opts *o, const char *arg)
{
	char *comma;

	free(o->marks);
	if ((o->marks = strdup(arg)) == NULL) {
		struct ev_err err;

		ev_err_nomem(&err);
		exit(ev_cli_report(&err));
	}
	if ((comma = strchr(o->marks, ',')) == NULL)
		ev_cli_usage_error(cli, "--mark takes OPEN,CLOSE (such as '**,**'): '%s'", arg);
	*comma = '\0';
	o->ts.snippet.open = o->marks;
	o->ts.snippet.close = comma + 1;
}

/* Search every query of the inputs.  Returns 0, or -1 with *err set. */
/* Warn once for each language found without a word list (*warned: those
 * warned about). */
static void
warn_no_dict(const struct ev_textsearch *ts, const char *where, unsigned *warned)
{
	unsigned langs = ev_textsearch_no_dict(ts) & ~*warned;

	for (int l = 0; l < EV_LEX_NLANG; l++)
		if (langs & EV_LEX_BIT(l))
			ev_warn("%s: no word list for language '%s' (install %s): its real words missing"
			    " from the index may be taken for typos", where, ev_lex_code(l),
			    ev_lex_dict_package(l));
	*warned |= langs;
}

static int
search_all(struct ev_cli *cli, char **paths, int npaths, struct ev_textsearch *ts,
    struct ev_skip *skip, struct ev_err *err)
{
	struct ev_jsonl *in;
	json_t *v, *hits = json_array();
	long long nq = 0, nh = 0;
	int r, flags;
	unsigned warned = 0;

	if (hits == NULL)
		return ev_err_nomem(err);
	if ((in = ev_jsonl_open(paths, npaths, err)) == NULL) {
		json_decref(hits);
		return -1;
	}
	for (;;) {
		json_t *q;
		size_t i;
		json_t *h;

		if ((r = ev_jsonl_next(in, &v, err)) == 0)
			break;
		if (r == -1) {
			if (ev_cli_skip(skip, err))
				continue;
			break;
		}
		q = ev_query_record(v, ev_jsonl_lineno(in), ev_jsonl_where(in), err);
		json_decref(v);
		if (q == NULL) {
			if (ev_cli_skip(skip, err))
				continue;
			r = -1;
			break;
		}
		json_array_clear(hits);
		r = ev_textsearch_query(ts, q, ev_jsonl_where(in), hits, &flags, err);
		if (r == -1 && ev_cli_skip(skip, err)) {
			json_decref(q);
			continue;
		}
		if (r >= 0 && (flags & EV_TS_NO_TERMS))
			ev_warn("%s: query has no words to search for (only stop words or punctuation): "
			    "no hits", ev_jsonl_where(in));
		if (r >= 0 && (flags & EV_TS_NO_DICT))
			warn_no_dict(ts, ev_jsonl_where(in), &warned);
		if (r >= 0 && (flags & EV_TS_TRUNCATED))
			ev_warn("%s: query has over 1000 distinct words: only the first 1000 were searched",
			    ev_jsonl_where(in));
		json_decref(q);
		if (r == -1)
			break;
		json_array_foreach(hits, i, h)
			if ((r = ev_jsonl_write(stdout, h, err)) == -1)
				break;
		if (r == -1)
			break;
		nq++;
		nh += (long long)json_array_size(hits);
	}
	ev_jsonl_close(in);
	json_decref(hits);
	ev_cli_skip_done(cli, skip);
	ev_cli_count(cli, "queries", nq);
	ev_cli_count(cli, "hits", nh);
	return r == -1 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct opts o = { .ts = EV_TEXTSEARCH_OPTS_INIT };
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct ev_textsearch *ts = NULL;
	long long v;
	int ch, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-search-text", usage_text, argc, argv);
	read_config(&cli, &o);
	while ((ch = getopt_long(argc, argv, "k:", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			o.db = optarg;
			break;
		case 'k':
			if (ev_parse_count(optarg, 1, EV_TEXTSEARCH_MAX_K, &o.ts.k) == -1)
				ev_cli_usage_error(&cli, "-k takes a count from 1 to %d: '%s'",
				    EV_TEXTSEARCH_MAX_K, optarg);
			break;
		case OPT_ALL_TERMS:
			o.ts.all_terms = 1;
			break;
		case OPT_RAW_FTS:
			o.ts.raw_fts = 1;
			break;
		case OPT_FUZZY:
			if (ev_parse_count(optarg, 0, EV_TEXTSEARCH_MAX_FUZZY, &v) == -1)
				ev_cli_usage_error(&cli, "--fuzzy takes a distance from 0 to %d: '%s'",
				    EV_TEXTSEARCH_MAX_FUZZY, optarg);
			o.ts.fuzzy = (int)v;
			break;
		case OPT_WEIGHT:
			parse_weight(&cli, &o, optarg);
			break;
		case OPT_MARK:
			parse_mark(&cli, &o, optarg);
			break;
		case OPT_SNIPPET_TOKENS:
			if (ev_parse_count(optarg, 1, MAX_SNIPPET_TOKENS, &v) == -1)
				ev_cli_usage_error(&cli, "--snippet-tokens takes a count from 1 to %d: '%s'",
				    MAX_SNIPPET_TOKENS, optarg);
			o.ts.snippet.tokens = (int)v;
			break;
		case OPT_PROXIMITY:
			if (ev_parse_double(optarg, 0, EV_TEXTSEARCH_MAX_PROXIMITY, &o.ts.proximity) == -1)
				ev_cli_usage_error(&cli, "--proximity takes a weight from 0 to %g: '%s'",
				    EV_TEXTSEARCH_MAX_PROXIMITY, optarg);
			break;
		case OPT_FEEDBACK:
			if (ev_parse_count(optarg, 0, EV_TEXTSEARCH_MAX_FEEDBACK, &v) == -1)
				ev_cli_usage_error(&cli, "--feedback takes a count from 0 to %d: '%s'",
				    EV_TEXTSEARCH_MAX_FEEDBACK, optarg);
			o.ts.feedback_docs = (int)v;
			break;
		case OPT_FEEDBACK_TERMS:
			if (ev_parse_count(optarg, 1, EV_TEXTSEARCH_MAX_FEEDBACK, &v) == -1)
				ev_cli_usage_error(&cli, "--feedback-terms takes a count from 1 to %d: '%s'",
				    EV_TEXTSEARCH_MAX_FEEDBACK, optarg);
			o.ts.feedback_terms = (int)v;
			break;
		case OPT_FEEDBACK_WEIGHT:
			if (ev_parse_double(optarg, 0, 1, &o.ts.feedback_weight) == -1)
				ev_cli_usage_error(&cli, "--feedback-weight takes a share from 0 to 1: '%s'",
				    optarg);
			break;
		case OPT_SKIP:
			o.skip.on = 1;
			break;
		default:
			ev_cli_common(&cli, ch);
		}
	}
	if (o.db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	o.ts.dict_dir = getenv("EVKIT_DICT_DIR");	/* ev-search-text(1), ENVIRONMENT */
	if (o.ts.w_title == 0 && o.ts.w_section == 0 && o.ts.w_text == 0)
		ev_cli_usage_error(&cli, "--weight: every field weighs 0; nothing could match");

	if ((st = ev_store_open(o.db, EV_STORE_READ, &err)) == NULL ||
	    (ts = ev_textsearch_open(st, &o.ts, &err)) == NULL ||
	    search_all(&cli, argv + optind, argc - optind, ts, &o.skip, &err) == -1)
		rc = ev_cli_report(&err);
	ev_textsearch_close(ts);
	ev_store_close(st);
	free(o.marks);
	return ev_cli_finish(&cli, rc);
}
