/* ev-pack: turn each query's hits into one EvidencePack v0.1.  See
 * man/ev-pack.1, lib/merge/pack.h (a pack) and lib/merge/packloop.h (the stream). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "jscan.h"
#include "jsonl.h"
#include "opt.h"
#include "pack.h"
#include "packloop.h"
#include "store.h"
#include "uuid.h"
#include "vstored.h"

static const struct ev_opt_cmd command = {
	"ev-pack [OPTIONS] [FILE ...]",
	"Read fused hit records (or single-lane hits), grouped by request, and write\n"
	"one EvidencePack v0.1 per request: the queries sharing a request_id, or a\n"
	"query alone.  The plan's keys (k, min_score, diversity.*, group_by,\n"
	"output.max_snippet_chars) give the defaults; --plan overrides --config, and\n"
	"flags override both.",
	ev_plan_keys, 1	/* every key of a plan: ev-pack reads its own after the flags */
};

/* The flags and config go straight into o, the pack's options (the plan's
 * keys, read after them, keep what a flag gave). */
static struct ev_pack_opts o;
static struct {
	const char *plan, *queries, *plan_get, *db, *index;
	int no_dedupe, format, skip_invalid;
	long started;
	json_t *warnings;
} f;

/* --warning TEXT: kept for every pack. */
static void
add_warning(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	(void)value;
	if (arg[0] == '\0' || ev_utf8_bad(arg, strlen(arg)) != strlen(arg))
		ev_cli_usage_error(cli, "%s takes a non-empty UTF-8 text", src);
	if (json_array_append_new(f.warnings, json_string(arg)) == -1) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
}

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "plan", NULL, &f.plan, "FILE.yaml",
	    "the retrieval plan (samples/plan.yaml); kept in each pack"),
	EV_OPT_PLAN('k', "k", EV_PLAN_K, &o.k, "N", "evidences per pack, 0 for all"),
	EV_OPT_STR(0, "queries", NULL, &f.queries, "FILE", "the queries the hits answer (query "
	    "records or JSON strings, as the lanes read them): one pack per query of FILE, in its "
	    "order, an empty one where no hit came"),
	EV_OPT_PLAN_SHOWN(0, "min-score", EV_PLAN_MIN_SCORE, &o.min_score, "X",
	    "drop hits whose score is below X", "none"),
	EV_OPT_PLAN(0, "by-document", EV_PLAN_BY_DOCUMENT, &o.by_document, "N",
	    "at most N evidences per document, 0 for no limit"),
	EV_OPT_PLAN(0, "overlap", EV_PLAN_OVERLAP, &o.overlap, "X",
	    "word overlap (Jaccard) that makes two texts near-duplicates"),
	EV_OPT_BOOL(0, "no-dedupe", NULL, &f.no_dedupe,
	    "keep near-duplicates (same content hash or overlap)"),
	EV_OPT_PLAN(0, "mmr-lambda", EV_PLAN_MMR_LAMBDA, &o.mmr_lambda, "X",
	    "maximal marginal relevance: the weight of relevance against novelty, 1 for none"),
	EV_OPT_PLAN(0, "mmr-depth", EV_PLAN_MMR_DEPTH, &o.mmr_depth, "N",
	    "the candidates MMR chooses among"),
	EV_OPT_STR(0, "db", NULL, &f.db, "DB", "the store the hits come from: the chunks' and pages' "
	    "texts for snippets, and with --index the vectors MMR compares"),
	EV_OPT_STR(0, "index", NULL, &f.index, "FILE", "the store's vector index (with --db)"),
	EV_OPT_PLAN(0, "group-by", EV_PLAN_GROUP_BY, &o.group_by, NULL, "give each evidence "
	    "a group, by the lanes that found it or its modality, counted in stats.by_group"),
	EV_OPT_PLAN(0, "max-snippet-chars", EV_PLAN_MAX_SNIPPET_CHARS, &o.max_snippet_chars, "N",
	    "characters per snippet"),
	EV_OPT_PLAN(0, "snippet-policy", EV_PLAN_SNIPPET_POLICY, &o.snippet_policy, NULL,
	    "what a snippet holds: l2 the chunk's text, l1 the passage around the query's words, "
	    "l0 its sentence holding most of them, auto the lanes' passage"),
	EV_OPT_PLAN(0, "format", EV_PLAN_OUTPUT_FORMAT, &f.format, NULL, "jsonl (one pack a "
	    "line), json (pretty) or text (a report wrapped to $COLUMNS, else 80)"),
	EV_OPT_FUNC(0, "warning", NULL, NULL, add_warning, "TEXT",
	    "add TEXT to every pack's warnings (repeatable), e.g. that a lane was unavailable",
	    NULL),
	EV_OPT_LONG(0, "started", NULL, &f.started, 1, 253402300799999L, "MS",
	    "the request began at this Unix time in milliseconds, before its lanes ran: "
	    "stats.took_ms counts from it, and it is when the hits were retrieved"),
	EV_OPT_SKIP_INVALID(&f.skip_invalid),
	EV_OPT_STR(0, "plan-get", NULL, &f.plan_get, "KEY[,KEY...]", "print the plan's value of KEY "
	    "(e.g. lanes.text.k), once the plan is checked, and exit; nothing when it is absent; "
	    "of several keys, a line each"),
	EV_OPT_END
};

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

/* The pack options: the flags' and the config's (in o already), then the
 * plan's where no flag was given, and the config's and the plan's keys that
 * no option reads. */
static void
pack_options(struct ev_cli *cli, json_t *plan, json_t *ignored)
{
	const struct ev_plan_field format = EV_PLAN_FIELD(EV_PLAN_OUTPUT_FORMAT, &f.format);
	struct ev_err err = { 0 };
	struct timespec now;
	size_t i;

	if (ev_pack_opts_from_plan(&o, cli->config, cli->config_path, NULL, ev_opt_given,
	    &err) == -1 ||
	    ev_pack_opts_from_plan(&o, plan, f.plan, ignored, ev_opt_given, &err) == -1 ||
	    ev_plan_read(plan, f.plan, &format, 1, ev_opt_given, &err) == -1)
		ev_cli_config_error(cli, &err);
	for (i = 0; i < json_array_size(ignored); i++)
		ev_warn("%s: %s", f.plan, json_string_value(json_array_get(ignored, i)));
	o.has_min_score = !isnan(o.min_score);
	if (f.no_dedupe)
		o.near_duplicates = 0;
	/* the request began before now, by the real clock (not EV_FIXED_TIME's) */
	if (f.started > 0 && clock_gettime(CLOCK_REALTIME, &now) == 0 &&
	    f.started > (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000)
		ev_cli_usage_error(cli, "--started %ld is later than now: give the Unix time in "
		    "milliseconds when the request began, by this machine's clock (date +%%s%%3N)",
		    f.started);
}

/* ev_pack_vector_fn over the store's vectors. */
static int
chunk_vector(void *ctx, const char *chunk_id, float *out, struct ev_err *err)
{
	return ev_vstored_chunk_vector(ctx, chunk_id, out, err);
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_jsonl *in = NULL;
	struct ev_pack *p = NULL;
	struct ev_packloop run = { 0 };
	struct ev_packloop_texts texts = { NULL, ev_cli_note_cb, NULL };	/* (its store) */
	struct ev_vstored *ix = NULL;
	struct ev_skip skip = { 0 };
	json_t *plan = NULL, *ignored = NULL;
	const char *pid, *line;
	char plan_id[EV_UUID_LEN + 1];
	size_t len, i;
	int r, argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-pack", NULL, argc, argv);
	ev_cli_trace(&cli);
	ev_pack_opts_init(&o);
	f.format = EV_PLAN_DEFAULT(EV_PLAN_OUTPUT_FORMAT);
	if ((f.warnings = json_array()) == NULL || (ignored = json_array()) == NULL) {
		ev_err_nomem(&err);
		goto fail;
	}
	argi = ev_opt_parse(&cli, &command, options);
	skip.on = f.skip_invalid;
	if (f.plan != NULL && (plan = ev_config_load(f.plan, &err)) == NULL)
		ev_cli_config_error(&cli, &err);
	pack_options(&cli, plan, ignored);
	ev_cli_log_plan(&cli, plan);
	if (f.index != NULL && f.db == NULL)
		ev_cli_usage_error(&cli, "--index needs --db: MMR compares the vectors "
		    "the index holds for the store's chunks");
	if (f.plan_get != NULL) {
		if (plan == NULL)
			ev_cli_usage_error(&cli, "--plan-get needs --plan FILE.yaml");
		if (ev_plan_check(plan, f.plan, &err) == -1 ||	/* every stage's keys */
		    ev_config_print_keys(plan, f.plan_get, "--plan-get", stdout, "stdout", &err) == -1)
			goto fail;
		goto out;
	}
	ev_cli_stdin_once(&cli, "--queries", f.queries, "the queries", "the hits", argv + argi,
	    argc - argi);
	pid = plan ? json_string_value(json_object_get(plan, "plan_id")) : NULL;
	if (pid != NULL)
		snprintf(plan_id, sizeof plan_id, "%s", pid);
	else if (ev_uuid_v4(plan_id, &err) == -1)
		goto fail;
	if ((in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL ||
	    (p = ev_pack_new(&o, plan, ignored, plan_id, &err)) == NULL ||
	    ev_packloop_init(&run, p, stdout, (enum ev_pack_format)f.format, text_width(), &err) == -1 ||
	    (f.queries != NULL && ev_packloop_queries(&run, f.queries, &err) == -1))
		goto fail;
	run.reported = ev_cli_log_output;	/* (a text report's packs, for --log) */
	run.reported_ctx = &cli;
	/* the store's texts (snippets); its vectors only when MMR runs */
	if (f.db != NULL && (texts.st = ev_store_open(f.db, EV_STORE_READ, &err)) == NULL)
		goto fail;
	if (texts.st != NULL)
		ev_pack_set_texts(p, ev_packloop_store_text, &texts);
	ev_pack_set_note(p, ev_cli_note_cb, NULL);	/* (a metadata page not a number) */
	if (f.index != NULL && o.mmr_lambda < 1) {
		if ((ix = ev_vstored_open(texts.st, f.index, NULL, &err)) == NULL ||
		    ev_vstored_batch_begin(ix, &err) == -1)
			goto fail;
		ev_pack_set_vectors(p, chunk_vector, ix, (int)ev_vstored_header(ix)->dim);
	}
	if (f.started > 0)
		ev_pack_set_request_start(p, f.started);
	for (i = 0; i < json_array_size(f.warnings); i++)
		if (ev_pack_warn(p, json_string_value(json_array_get(f.warnings, i)), &err) == -1)
			goto fail;
	while ((r = ev_jsonl_next_line(in, &line, &len, &err)) != 0) {
		if (r == 1)
			r = ev_packloop_line(&run, line, len, ev_jsonl_where(in), &err);
		if (r == -1 && !ev_cli_skip(&skip, &err))
			goto fail;
	}
	if (ev_packloop_end(&run, &err) == -1)
		goto fail;
	ev_cli_skip_done(&cli, &skip);
	goto out;
fail:
	rc = ev_cli_report(&err);
out:
	ev_cli_count(&cli, "records_in", run.records);
	ev_cli_count(&cli, "packs_out", run.packs);
	json_decref(ignored);
	json_decref(f.warnings);
	ev_packloop_release(&run);
	ev_pack_free(p);
	ev_jsonl_close(in);
	ev_vstored_close(ix);
	ev_store_close(texts.st);
	rc = ev_cli_finish(&cli, rc);	/* (its ToolRun line logs the plan) */
	json_decref(plan);
	return rc;
}
