/* ev-expand: add to each query's hits the chunks next to them, the documents
 * nearest in time and the documents they link to, bounded, each saying why.
 * See man/ev-expand.1 and lib/lanes/expand.h. */
#include <stdio.h>

#include "cli.h"
#include "expand.h"
#include "jsonl.h"
#include "opt.h"

static const struct ev_opt_cmd command = {
	"ev-expand --db DB [OPTIONS] [HITS ...]",
	"Read hit records, and for the best hits of each query add the chunks next to\n"
	"them in their document, the documents nearest in time, and the documents they\n"
	"link to; each added hit scores below the hit that brought it and says why.",
	NULL, 1
};

static struct ev_expand_opts ex = EV_EXPAND_OPTS_INIT;
static const char *db;
static int skip_invalid;

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &db, "DB", "the store the hits come from"),
	EV_OPT_PLAN(0, "from", EV_PLAN_EXPAND_FROM, &ex.from, "N",
	    "expand the N best hits of each query"),
	EV_OPT_PLAN(0, "neighbours", EV_PLAN_EXPAND_NEIGHBOURS, &ex.neighbours, "N",
	    "chunks on each side of a hit in its document"),
	EV_OPT_PLAN(0, "timeline", EV_PLAN_EXPAND_TIMELINE, &ex.timeline, "N",
	    "documents nearest in time (published_date) to a hit's"),
	EV_OPT_PLAN(0, "hops", EV_PLAN_EXPAND_HOPS, &ex.hops, "N",
	    "link hops followed from a hit's document"),
	EV_OPT_PLAN(0, "per-hit", EV_PLAN_EXPAND_PER_HIT, &ex.per_hit, "N",
	    "hits one hit may add"),
	EV_OPT_PLAN(0, "per-query", EV_PLAN_EXPAND_PER_QUERY, &ex.per_query, "N",
	    "hits a query may gain"),
	EV_OPT_PLAN(0, "decay", EV_PLAN_EXPAND_DECAY, &ex.decay, "X",
	    "an added hit's score: the bringing hit's times X per step of distance"),
	EV_OPT_SKIP_INVALID(&skip_invalid),
	EV_OPT_END
};

/* What expanding a query needs and counts. */
struct run {
	struct ev_store *st;
	long long added;
};

/* Expand one query's hits into out (an ev_cli_query_fn). */
static int
expand_query(void *ctx, json_t *hits, const char *where, struct ev_buf *out, struct ev_err *err)
{
	struct run *run = ctx;
	long n;

	if ((n = ev_expand_query(run->st, &ex, hits, out, where, err)) == -1)
		return -1;
	run->added += n;
	return 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_jsonl *in = NULL;
	struct run run = { NULL, 0 };
	long long nhits = 0;
	int argi, rc;

	ev_cli_init(&cli, "ev-expand", NULL, argc, argv);
	ev_cli_trace(&cli);
	argi = ev_opt_parse(&cli, &command, options);
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");

	if ((run.st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
	    (in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL)
		rc = ev_cli_report(&err);
	else
		rc = ev_cli_query_hits(&cli, in, skip_invalid, NULL, expand_query, &run, &nhits);
	ev_cli_count(&cli, "hits", nhits);
	ev_cli_count(&cli, "added", run.added);
	ev_jsonl_close(in);
	ev_store_close(run.st);
	return ev_cli_finish(&cli, rc);
}
