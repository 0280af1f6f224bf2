/* ev-expand: add to each query's hits the chunks next to them, the documents
 * nearest in time and the documents they link to, bounded, each saying why.
 * See man/ev-expand.1 and lib/lanes/expand.h. */
#include <stdio.h>
#include <string.h>

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

/* Expand and write the hits gathered for one query; clears them. */
static int
flush_query(struct ev_store *st, json_t *hits, struct ev_buf *out, const char *where,
	long long *added, struct ev_err *err)
{
	long n;

	if (json_array_size(hits) == 0)
		return 0;
	ev_buf_reset(out);
	n = ev_expand_query(st, &ex, hits, out, where, err);
	json_array_clear(hits);
	if (n == -1)
		return -1;
	*added += n;
	if (fwrite(out->p, 1, out->len, stdout) != out->len || fflush(stdout) == EOF)
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error");
	return 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_skip skip = { 0 };
	struct ev_store *st = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_buf out = EV_BUF_INIT;
	json_t *hits = json_array(), *v;
	char qid[256] = "", id[256], where[300] = "";
	long long nhits = 0, added = 0;
	int argi, r = 0, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-expand", NULL, argc, argv);
	ev_cli_trace(&cli);
	argi = ev_opt_parse(&cli, &command, options);
	skip.on = skip_invalid;
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");

	if (hits == NULL || (st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
	    (in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL) {
		if (hits == NULL)
			ev_err_nomem(&err);
		rc = ev_cli_report(&err);
		goto out;
	}
	while ((r = ev_jsonl_next_hit(in, &v, id, sizeof id, &err)) != 0) {
		if (r == -1) {
			if (ev_cli_skip(&skip, &err))
				continue;
			break;
		}
		/* a query's hits are consecutive records with its query_id */
		if (strcmp(id, qid) != 0 && flush_query(st, hits, &out, where, &added, &err) == -1) {
			json_decref(v);
			r = -1;
			break;
		}
		snprintf(qid, sizeof qid, "%s", id);
		snprintf(where, sizeof where, "%s", ev_jsonl_where(in));
		nhits++;
		if (json_array_append_new(hits, v) == -1) {
			r = ev_err_nomem(&err);
			break;
		}
	}
	if (r == 0 && flush_query(st, hits, &out, where, &added, &err) == -1)
		r = -1;
	rc = ev_cli_loop_end(&cli, &skip, r, &err);
out:
	ev_cli_count(&cli, "hits", nhits);
	ev_cli_count(&cli, "added", added);
	ev_jsonl_close(in);
	ev_store_close(st);
	ev_buf_release(&out);
	json_decref(hits);
	return ev_cli_finish(&cli, rc);
}
