/* ev-search-text: the text lane.  Query records in, hit records out, BM25
 * over the store's FTS5 index with the matched terms marked in a snippet.
 *
 * Streams: the hits of a query are written before the next query is read.
 * See man/ev-search-text.1, lib/lanes/textloop.h and lib/lanes/textsearch.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "opt.h"
#include "store.h"
#include "textloop.h"
#include "textsearch.h"
#include "textstats.h"

#define MAX_WEIGHT ((double)EV_PLAN_MAX(EV_PLAN_TEXT_WEIGHT_TITLE))

/* Keys of query records, accepted quietly. */
static const char *const extra_keys[] = { "request_id", "query", NULL };

static const struct ev_opt_cmd command = {
	"ev-search-text --db DB [OPTIONS] [FILE ...]",
	"Search the store's text index for each query record (from FILEs or stdin);\n"
	"write the hits, best first, as hit records of lane \"text\".  In a retrieval\n"
	"plan (--config), the options' keys are under lanes.text (text is the older\n"
	"name; lanes.text wins); a plan's top-level k is the lane's only in a file\n"
	"without lanes.",
	extra_keys, 1
};

static const char *db;
static long k = EV_PLAN_DEFAULT(EV_PLAN_TEXT_K);
static struct ev_textsearch_opts ts = EV_TEXTSEARCH_OPTS_INIT;
static int threads = EV_PLAN_DEFAULT(EV_PLAN_TEXT_THREADS);		/* --threads: 1 never splits a sweep */
static char *marks;		/* --mark's copy, split at the comma */
static const char *stats_out, **stats_in;	/* --stats-out FILE, --stats FILEs */
static size_t nstats_in, capstats_in;
static struct ev_skip skip;

/* --weight FIELD=W. */
static void
set_weight(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	const char *eq = strchr(arg, '=');
	double w;
	size_t n;

	(void)value;
	if (eq == NULL || ev_parse_double(eq + 1, 0, MAX_WEIGHT, &w) == -1)
		ev_cli_usage_error(cli, "%s takes FIELD=W with W from 0 to %g: '%s'", src, MAX_WEIGHT,
		    arg);
	n = (size_t)(eq - arg);
	if (n == 5 && strncmp(arg, "title", n) == 0)
		ts.w_title = w;
	else if (n == 13 && strncmp(arg, "section_title", n) == 0)
		ts.w_section = w;
	else if (n == 4 && strncmp(arg, "text", n) == 0)
		ts.w_text = w;
	else
		ev_cli_usage_error(cli, "%s: unknown field '%.*s' (title, section_title or text)",
		    src, (int)n, arg);
}

/* --stats FILE, repeatable. */
static void
add_stats(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)cli, (void)src, (void)value;
	if (ev_grow(&stats_in, &capstats_in, nstats_in, sizeof *stats_in, 4) == -1) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
	stats_in[nstats_in++] = arg;
}

/* --mark OPEN,CLOSE. */
static void
set_mark(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	char *comma;

	(void)value;
	free(marks);
	if ((marks = strdup(arg)) == NULL) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
	if ((comma = strchr(marks, ',')) == NULL)
		ev_cli_usage_error(cli, "%s takes OPEN,CLOSE (such as '**,**'): '%s'", src, arg);
	*comma = '\0';
	ts.snippet.open = marks;
	ts.snippet.close = comma + 1;
}

/* A plan entry's default as --help shows it. */
#define SHOWN(e) STR(EV_PLAN_DEFAULT(e))
#define STR(v) STR_(v)
#define STR_(v) #v

/* Each option's key is under lanes.text; ev_opt_alias() adds text.*.  The first entry, a
 * plan's top-level k, is dropped in a file with lanes.  The feedback is a number of
 * chunks or a mapping of docs, terms, weight, focus and pool (ev_opt_fit_forms()). */
static struct ev_opt options[] = {
	{ EV_OPT_TYPE_LONG, 0, NULL, "k", &k, 1, EV_PLAN_MAX_K, NULL, NULL, NULL, NULL },
	EV_OPT_STR(0, "db", "db", &db, "DB", "the store (made by ev-ingest)"),
	EV_OPT_PLAN('k', "k", EV_PLAN_TEXT_K, &k, "N", "hits per query"),
	EV_OPT_PLAN(0, "all-terms", EV_PLAN_TEXT_ALL_TERMS, &ts.all_terms, NULL,
	    "a hit must hold every word (default: any word, ranked)"),
	EV_OPT_PLAN(0, "raw-fts", EV_PLAN_TEXT_RAW_FTS, &ts.raw_fts, NULL,
	    "the query text is an FTS5 expression, not words"),
	EV_OPT_PLAN(0, "fuzzy", EV_PLAN_TEXT_FUZZY, &ts.fuzzy, "N",
	    "expand a word missing from the index to words within N edits: at most 1 for words"
	    " of 4-5 letters, none under 4"),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FUZZY_EXPANSIONS, &ts.fuzzy_expansions),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_DROP_REQUEST_WORDS, &ts.drop_request_words),
	EV_OPT_FUNC(0, "weight", NULL, NULL, set_weight, "FIELD=W",
	    "BM25 weight of title, section_title or text, from 0 to 1000 (a title's where every"
	    " chunk has one: scaled to the share that has); repeatable",
	    SHOWN(EV_PLAN_TEXT_WEIGHT_TITLE) ", " SHOWN(EV_PLAN_TEXT_WEIGHT_SECTION) ", "
	    SHOWN(EV_PLAN_TEXT_WEIGHT_TEXT)),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_WEIGHT_TITLE, &ts.w_title),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_WEIGHT_SECTION, &ts.w_section),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_WEIGHT_TEXT, &ts.w_text),
	EV_OPT_PLAN(0, "proximity", EV_PLAN_TEXT_PROXIMITY, &ts.proximity, "W",
	    "weight of two query words found side by side; 0 turns it off"),
	EV_OPT_PLAN(0, "feedback", EV_PLAN_TEXT_FEEDBACK, &ts.feedback_docs, "N",
	    "pseudo-relevance feedback from the best N chunks of a first pass; 0 turns it off"),
	EV_OPT_PLAN(0, "feedback-terms", EV_PLAN_TEXT_FEEDBACK_TERMS, &ts.feedback_terms, "N",
	    "words feedback adds"),
	EV_OPT_PLAN(0, "feedback-weight", EV_PLAN_TEXT_FEEDBACK_WEIGHT, &ts.feedback_weight, "X",
	    "their share of the query"),
	EV_OPT_PLAN(0, "feedback-focus", EV_PLAN_TEXT_FEEDBACK_FOCUS, &ts.feedback_focus, "P",
	    "a feedback chunk weighs (its score / the best score)^P"),
	EV_OPT_PLAN(0, "feedback-pool", EV_PLAN_TEXT_FEEDBACK_POOL, &ts.feedback_pool, "N",
	    "the second pass ranks the first pass's best N chunks (at least k and --feedback); 0 all"),
	EV_OPT_PLAN(0, "long-query", EV_PLAN_TEXT_LONG_QUERY, &ts.long_query, "N",
	    "a query of more than N searched words is read as a document: no feedback, no"
	    " proximity; 0 never"),
	EV_OPT_PLAN_SHOWN(0, "document-weight", EV_PLAN_TEXT_DOC_WEIGHT, &ts.doc_weight, "X",
	    "a hit's share of its document's BM25 as a whole; 0 its chunk's alone",
	    "from the store for a query read as a document, else 0"),
	EV_OPT_PLAN_SHOWN(0, "k1", EV_PLAN_TEXT_K1, &ts.k1, "K1", "BM25's term frequency saturation",
	    "from the store's chunk lengths"),
	EV_OPT_PLAN(0, "k1-scale", EV_PLAN_TEXT_K1_SCALE, &ts.k1_scale, "C",
	    "without --k1, k1 is C x ln(the mean chunk length in tokens)"),
	EV_OPT_PLAN_SHOWN(0, "b", EV_PLAN_TEXT_B, &ts.b, "B", "BM25's length normalisation",
	    "from the store's chunk lengths"),
	EV_OPT_PLAN(0, "norm-spread", EV_PLAN_TEXT_NORM_SPREAD, &ts.norm_spread, "S",
	    "without --b, b is the smaller of " STR(EV_TEXTSEARCH_B_MAX)
	    " and S / the spread of the chunk lengths"),
	EV_OPT_FUNC(0, "mark", NULL, NULL, set_mark, "OPEN,CLOSE",
	    "what surrounds a matched word in snippets", "\xc2\xab,\xc2\xbb"),
	EV_OPT_STR(0, NULL, EV_PLAN_KEY(EV_PLAN_TEXT_SNIPPET_OPEN), &ts.snippet.open, NULL, NULL),
	EV_OPT_STR(0, NULL, EV_PLAN_KEY(EV_PLAN_TEXT_SNIPPET_CLOSE), &ts.snippet.close, NULL, NULL),
	EV_OPT_PLAN(0, "snippet-tokens", EV_PLAN_TEXT_SNIPPET_TOKENS, &ts.snippet.tokens, "N",
	    "snippet length in words"),
	EV_OPT_PLAN(0, "exhaustive", EV_PLAN_TEXT_EXHAUSTIVE, &ts.exhaustive, NULL,
	    "rank every chunk that holds a query word instead of pruning (the same hits, slower)"),
	EV_OPT_PLAN(0, "threads", EV_PLAN_TEXT_THREADS, &threads, "N",
	    "threads a query's sweep of a large store's postings file may use (the same hits)"),
	EV_OPT_SKIP_INVALID_AT(EV_PLAN_KEY(EV_PLAN_TEXT_SKIP_INVALID), &skip.on),
	EV_OPT_FUNC(0, "stats", NULL, NULL, add_stats, "FILE",
	    "rank with these statistics (of every shard of a collection, made by --stats-out),"
	    " summed when repeated", "the store's own"),
	EV_OPT_STR(0, "stats-out", NULL, &stats_out, "FILE",
	    "instead of searching, write the store's statistics for these queries (and those of"
	    " --stats, summed) to FILE ('-': stdout); without --db, only the sum of --stats"),
	/* feedback as a mapping, read after the keys above */
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FEEDBACK_DOCS_M, &ts.feedback_docs),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FEEDBACK_TERMS_M, &ts.feedback_terms),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FEEDBACK_WEIGHT_M, &ts.feedback_weight),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FEEDBACK_FOCUS_M, &ts.feedback_focus),
	EV_OPT_PLAN_KEY(EV_PLAN_TEXT_FEEDBACK_POOL_M, &ts.feedback_pool),
	EV_OPT_END
};

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct ev_textsearch *search = NULL;
	struct ev_textstats *stats = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_textloop loop = { ev_cli_skip_cb, ev_cli_warn_cb, &skip, 0, 0, NULL };
	struct ev_opt *table;
	int argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-search-text", NULL, argc, argv);
	ev_cli_trace(&cli);
	if ((table = ev_opt_alias(options, "lanes.text", "text")) == NULL) {
		ev_err_nomem(&err);
		return ev_cli_finish(&cli, ev_cli_report(&err));
	}
	if (ev_plan_is_plan(cli.config))
		table[0].key = NULL;	/* a plan's top-level k is ev-pack's */
	ev_opt_fit_forms(table, cli.config_path ? cli.config : NULL, "lanes.text", "text");
	argi = ev_opt_parse_section(&cli, &command, table, "lanes.text", 0);
	free(table);
	if (db == NULL && (stats_out == NULL || nstats_in == 0))
		ev_cli_usage_error(&cli, "--db DB is required");
	if (db == NULL && argi < argc)
		ev_cli_usage_error(&cli, "queries need a store (--db); without one, --stats-out"
		    " only sums the --stats files");
	ts.k = k;
	ts.split_rows = threads == 1 ? -1 : 0;
	ts.dict_dir = getenv("EVKIT_DICT_DIR");	/* ev-search-text(1), ENVIRONMENT */
	if (ts.w_title == 0 && ts.w_section == 0 && ts.w_text == 0)
		ev_cli_usage_error(&cli, "--weight: every field weighs 0; nothing could match");

	/* --stats-out sums the statistics; else --stats ranks with their sum */
	if (ev_input_distinct(stats_in, nstats_in, "--stats", &err) == -1 || (stats_out == NULL &&
	    nstats_in > 0 && ((stats = ev_textstats_new(&err)) == NULL ||
	    ev_textstats_read_all(stats, stats_in, nstats_in, &err) == -1))) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ts.stats = stats;
	if (db != NULL && ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
	    (search = ev_textsearch_open(st, &ts, &err)) == NULL ||
	    (in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL)) {
		rc = ev_cli_report(&err);
	} else if (stats_out == NULL) {
		ev_textsearch_advise(search, db, ev_cli_note_cb, NULL);
		if (ev_textloop_search(search, in, stdout, &loop, &err) == -1)
			rc = ev_cli_report(&err);
	} else if (ev_textloop_stats(search, in, &loop, stats_in, nstats_in, stats_out, &err) == -1) {
		rc = ev_cli_report(&err);
	}
	if (stats_out != NULL || in != NULL) {
		ev_cli_skip_done(&cli, &skip);
		ev_cli_count(&cli, "queries", loop.queries);
		if (stats_out == NULL)
			ev_cli_count(&cli, "hits", loop.hits);
	}
out:
	ev_jsonl_close(in);
	ev_textsearch_close(search);
	ev_textstats_free(stats);
	ev_store_close(st);
	free(marks);
	free(stats_in);
	return ev_cli_finish(&cli, rc);
}
