/* ev-search-text: the text lane.  Query records in, hit records out, BM25
 * over the store's FTS5 index with the matched terms marked in a snippet.
 *
 * Streams: the hits of a query are written before the next query is read.
 * See man/ev-search-text.1 and lib/lanes/textsearch.h. */
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
"                      [--feedback-focus P] [--k1 K1] [--b B]\n"
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
"                      first pass, 0 (off) to 1000 (default 15)\n"
"  --feedback-terms N  words feedback adds, 1 to 1000 (default 30)\n"
"  --feedback-weight X their share of the query, 0 to 1 (default 0.5)\n"
"  --feedback-focus P  a feedback chunk weighs (its score / the best score)^P,\n"
"                      0 to 10 (default 3)\n"
"  --k1 K1             BM25's term frequency saturation, 0 to 10 (default 1.1)\n"
"  --b B               BM25's length normalisation, 0 to 1 (default 0.65)\n"
"  --mark OPEN,CLOSE   what surrounds a matched word in snippets (default «,»)\n"
"  --snippet-tokens N  snippet length in words, 1 to 1000 (default 32)\n"
"  --skip-invalid      skip bad query records (counted on stderr) instead of\n"
"                      stopping\n"
"  --config FILE.yaml  defaults from a retrieval plan: db, lanes.text.k,\n"
"                      lanes.text.weights.title, ..., lanes.text.proximity,\n"
"                      lanes.text.feedback, ..., lanes.text.bm25.k1 (see the\n"
"                      manual; text.* is read too); --log FILE appends a\n"
"                      ToolRun line\n"
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
	OPT_K1,
	OPT_FEEDBACK_FOCUS,
	OPT_B,
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
	{ "feedback-focus", required_argument, NULL, OPT_FEEDBACK_FOCUS },
	{ "k1", required_argument, NULL, OPT_K1 },
	{ "b", required_argument, NULL, OPT_B },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

/* The text lane's keys, read under "lanes.text." (a retrieval plan) or
 * "text." (the older name); "feedback" is the number of feedback chunks, or,
 * as before, a mapping of docs, terms and weight. */
static const char *const lane_keys[] = {
	"k", "all_terms", "raw_fts", "fuzzy", "fuzzy_expansions", "drop_request_words",
	"weights.title", "weights.section_title", "weights.text", "snippet.open", "snippet.close",
	"snippet.tokens", "proximity", "feedback_terms", "feedback_weight", "feedback_focus",
	"bm25.k1", "bm25.b", "skip_invalid", NULL
};

static const char *const feedback_keys[] = { "docs", "terms", "weight", "focus", NULL };

/* The other stages' parts of a retrieval plan, ignored without a warning. */
static const char *const plan_keys[] = {
	"version", "request_id", "plan_id", "query", "min_score", "lanes.vector.*", "fusion.*",
	"diversity.*", "output.*", NULL
};

#define MAX_CONFIG_KEYS 64
#define MAX_CONFIG_KEY 64

#define MAX_WEIGHT 1000.0
#define MAX_SNIPPET_TOKENS 1000
#define MAX_EXPANSIONS 100

struct opts {
	const char *db;
	struct ev_textsearch_opts ts;
	char *marks;		/* --mark's copy, split at the comma */
	struct ev_skip skip;
};

/* The dotted path of the lane key `key` in the file: under "lanes.text."
 * when that section has it, else under "text.", into path[MAX_CONFIG_KEY]. */
static const char *
lane_path(const json_t *cfg, const char *key, char *path)
{
	snprintf(path, MAX_CONFIG_KEY, "lanes.text.%s", key);
	if (ev_config_get(cfg, path) == NULL)
		snprintf(path, MAX_CONFIG_KEY, "text.%s", key);
	return path;
}

/* Every key ev-search-text reads or knowingly ignores, for the checks of
 * unknown keys and of section shapes: into keys[] (NULL-terminated), their
 * text into store. */
static void
known_keys(const json_t *cfg, const char **keys, char (*store)[MAX_CONFIG_KEY])
{
	static const char *const prefixes[] = { "lanes.text.", "text." };
	int n = 0, m = 0;

	/* A plan's top-level k is ev-pack's (evidences per pack); it is the
	 * lane's only in a file without lanes, as it was before plans. */
	keys[n++] = "db";
	keys[n++] = "k";
	for (int i = 0; plan_keys[i] != NULL; i++)
		keys[n++] = plan_keys[i];
	for (int p = 0; p < 2; p++) {
		char fb[24];

		for (int i = 0; lane_keys[i] != NULL; i++) {
			snprintf(store[m], MAX_CONFIG_KEY, "%s%s", prefixes[p], lane_keys[i]);
			keys[n++] = store[m++];
		}
		snprintf(fb, sizeof fb, "%sfeedback", prefixes[p]);
		if (json_is_object(ev_config_get(cfg, fb)))
			for (int i = 0; feedback_keys[i] != NULL; i++) {
				snprintf(store[m], MAX_CONFIG_KEY, "%s.%s", fb, feedback_keys[i]);
				keys[n++] = store[m++];
			}
		else {
			snprintf(store[m], MAX_CONFIG_KEY, "%s", fb);
			keys[n++] = store[m++];
		}
	}
	keys[n] = NULL;
}

static void
config_int(struct ev_cli *cli, const char *key, long long min, long long max, long long *out)
{
	struct ev_err err = { 0 };
	char path[MAX_CONFIG_KEY];

	if (ev_config_int(cli->config, lane_path(cli->config, key, path), min, max, out,
	    cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
}

static void
config_num(struct ev_cli *cli, const char *key, double max, double *out)
{
	struct ev_err err = { 0 };
	char path[MAX_CONFIG_KEY];

	if (ev_config_num(cli->config, lane_path(cli->config, key, path), 0, max, out,
	    cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
}

static void
config_bool(struct ev_cli *cli, const char *key, int *out)
{
	struct ev_err err = { 0 };
	char path[MAX_CONFIG_KEY];

	if (ev_config_bool(cli->config, lane_path(cli->config, key, path), out, cli->config_path,
	    &err) == -1)
		ev_cli_config_error(cli, &err);
}

static void
config_str(struct ev_cli *cli, const char *key, const char **out)
{
	struct ev_err err = { 0 };
	char path[MAX_CONFIG_KEY];

	if (ev_config_str(cli->config, lane_path(cli->config, key, path), out, cli->config_path,
	    &err) == -1)
		ev_cli_config_error(cli, &err);
}

/* An int option of the lane. */
static void
config_count(struct ev_cli *cli, const char *key, long long min, long long max, int *out)
{
	long long v = *out;

	config_int(cli, key, min, max, &v);
	*out = (int)v;
}

/* Defaults from --config: a retrieval plan's lanes.text section, or the
 * text section of the older files. */
static void
read_config(struct ev_cli *cli, struct opts *o)
{
	const json_t *cfg = cli->config;
	const char *keys[MAX_CONFIG_KEYS];
	char store[MAX_CONFIG_KEYS][MAX_CONFIG_KEY], path[MAX_CONFIG_KEY];
	struct ev_err err = { 0 };
	json_t *fb;

	known_keys(cfg, keys, store);
	ev_cli_check_config(cli, keys);
	if (ev_config_str(cfg, "db", &o->db, cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
	if (ev_config_get(cfg, "lanes") == NULL &&
	    ev_config_int(cfg, "k", 1, EV_TEXTSEARCH_MAX_K, &o->ts.k, cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
	config_int(cli, "k", 1, EV_TEXTSEARCH_MAX_K, &o->ts.k);
	config_bool(cli, "all_terms", &o->ts.all_terms);
	config_bool(cli, "raw_fts", &o->ts.raw_fts);
	config_bool(cli, "drop_request_words", &o->ts.drop_request_words);
	config_bool(cli, "skip_invalid", &o->skip.on);
	config_str(cli, "snippet.open", &o->ts.snippet.open);
	config_str(cli, "snippet.close", &o->ts.snippet.close);
	config_count(cli, "fuzzy", 0, EV_TEXTSEARCH_MAX_FUZZY, &o->ts.fuzzy);
	config_count(cli, "fuzzy_expansions", 1, MAX_EXPANSIONS, &o->ts.fuzzy_expansions);
	config_count(cli, "snippet.tokens", 1, MAX_SNIPPET_TOKENS, &o->ts.snippet.tokens);
	config_num(cli, "weights.title", MAX_WEIGHT, &o->ts.w_title);
	config_num(cli, "weights.section_title", MAX_WEIGHT, &o->ts.w_section);
	config_num(cli, "weights.text", MAX_WEIGHT, &o->ts.w_text);
	config_num(cli, "proximity", EV_TEXTSEARCH_MAX_PROXIMITY, &o->ts.proximity);
	config_num(cli, "bm25.k1", EV_TEXTSEARCH_MAX_K1, &o->ts.k1);
	config_num(cli, "bm25.b", 1, &o->ts.b);
	config_count(cli, "feedback_terms", 1, EV_TEXTSEARCH_MAX_FEEDBACK, &o->ts.feedback_terms);
	config_num(cli, "feedback_weight", 1, &o->ts.feedback_weight);
	config_num(cli, "feedback_focus", EV_TEXTSEARCH_MAX_FOCUS, &o->ts.feedback_focus);
	if (json_is_object(fb = ev_config_get(cfg, lane_path(cfg, "feedback", path)))) {
		config_count(cli, "feedback.docs", 0, EV_TEXTSEARCH_MAX_FEEDBACK, &o->ts.feedback_docs);
		config_count(cli, "feedback.terms", 1, EV_TEXTSEARCH_MAX_FEEDBACK, &o->ts.feedback_terms);
		config_num(cli, "feedback.weight", 1, &o->ts.feedback_weight);
		config_num(cli, "feedback.focus", EV_TEXTSEARCH_MAX_FOCUS, &o->ts.feedback_focus);
	} else
		config_count(cli, "feedback", 0, EV_TEXTSEARCH_MAX_FEEDBACK, &o->ts.feedback_docs);
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
		case OPT_K1:
			if (ev_parse_double(optarg, 0, EV_TEXTSEARCH_MAX_K1, &o.ts.k1) == -1)
				ev_cli_usage_error(&cli, "--k1 takes a value from 0 to %g: '%s'",
				    EV_TEXTSEARCH_MAX_K1, optarg);
			break;
		case OPT_FEEDBACK_FOCUS:
			if (ev_parse_double(optarg, 0, EV_TEXTSEARCH_MAX_FOCUS, &o.ts.feedback_focus) == -1)
				ev_cli_usage_error(&cli, "--feedback-focus takes a power from 0 to %g: '%s'",
				    EV_TEXTSEARCH_MAX_FOCUS, optarg);
			break;
		case OPT_B:
			if (ev_parse_double(optarg, 0, 1, &o.ts.b) == -1)
				ev_cli_usage_error(&cli, "--b takes a value from 0 to 1: '%s'", optarg);
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
