/* ev-search-sql: the structured lane -- a read-only, parameterised SQL query
 * over any SQLite file for each query record; its rows are hits.
 * See man/ev-search-sql.1 and lib/lanes/sqllane.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "jsonl.h"
#include "opt.h"
#include "plan.h"
#include "qidset.h"
#include "sqllane.h"

static const struct ev_opt_cmd command = {
	"ev-search-sql --db FILE --sql 'SELECT ...' [OPTIONS] [QUERIES ...]",
	"For each query record, run a read-only SQL statement over an SQLite file,\n"
	":query bound to the query's text and :NAME to its filters.NAME, and write\n"
	"each row as a hit of the structured lane.",
	NULL, 1
};

static struct ev_sqllane_opts lane = EV_SQLLANE_OPTS_INIT;
static const char *db;
static int skip_invalid;

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", EV_PLAN_KEY(EV_PLAN_STRUCTURED_DB), &db, "FILE", "the SQLite file to query"),
	EV_OPT_STR(0, "sql", EV_PLAN_KEY(EV_PLAN_STRUCTURED_SQL), &lane.sql, "SQL",
	    "one SELECT statement; :query and :NAME are bound from each query record"),
	EV_OPT_STR(0, "id-column", EV_PLAN_KEY(EV_PLAN_STRUCTURED_ID_COLUMN), &lane.id_column, "COLUMN",
	    "the selected column that identifies a row"),
	EV_OPT_STR(0, "snippet-columns", EV_PLAN_KEY(EV_PLAN_STRUCTURED_SNIPPET_COLUMNS),
	    &lane.snippet_columns, "A,B", "the columns of a hit's snippet (default: all but the id)"),
	EV_OPT_PLAN('k', "k", EV_PLAN_STRUCTURED_K, &lane.k, "N", "rows a query keeps at most"),
	EV_OPT_STR(0, "lane", EV_PLAN_KEY(EV_PLAN_STRUCTURED_LANE), &lane.lane, "NAME",
	    "the lane's name in hits and evidence"),
	EV_OPT_SKIP_INVALID(&skip_invalid),
	EV_OPT_END
};

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_skip skip = { 0 };
	struct ev_sqllane *s = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_buf out = EV_BUF_INIT;
	struct ev_qidset ids = EV_QIDSET_INIT;
	long long queries = 0, hits = 0;
	json_t *v;
	int argi, r, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-search-sql", NULL, argc, argv);
	ev_cli_trace(&cli);
	argi = ev_opt_parse_section(&cli, &command, options, "lanes.structured", 1);
	skip.on = skip_invalid;
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db FILE is required (or lanes.structured.db in the plan)");
	if (lane.sql == NULL)
		ev_cli_usage_error(&cli, "--sql 'SELECT ...' is required (or lanes.structured.sql "
		    "in the plan)");
	if (lane.lane != NULL && ev_plan_lane_check(lane.lane, "ev-search-sql", &err) == -1)
		ev_cli_usage_error(&cli, "--%s", err.msg);

	if ((s = ev_sqllane_open(db, &lane, &err)) == NULL ||
	    (in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	while ((r = ev_jsonl_next(in, &v, &err)) == 1) {
		json_t *q = ev_query_record(v, ev_jsonl_seqno(in), ev_jsonl_where(in), &err);
		long n = -1;
		int fresh = q != NULL && ev_qidset_add(&ids, json_object_get(q, "query_id"),
		    ev_jsonl_seqno(in), ev_jsonl_where(in), &err) == 0;

		json_decref(v);
		ev_buf_reset(&out);
		if (fresh && (n = ev_sqllane_search(s, q, &out, ev_jsonl_where(in), &err)) == -1)
			ev_qidset_drop_last(&ids);	/* its id is free again */
		json_decref(q);
		if (n == -1) {
			if (ev_cli_skip(&skip, &err))
				continue;
			r = -1;
			break;
		}
		queries++;
		hits += n;
		if (out.len > 0 && fwrite(out.p, 1, out.len, stdout) != out.len) {
			r = ev_err_set(&err, EV_EXIT_RUNTIME, "stdout", "write error");
			break;
		}
		fflush(stdout);
	}
	rc = ev_cli_loop_end(&cli, &skip, r, &err);
out:
	ev_cli_count(&cli, "queries", queries);
	ev_cli_count(&cli, "hits", hits);
	ev_jsonl_close(in);
	ev_sqllane_close(s);
	ev_buf_release(&out);
	ev_qidset_release(&ids);
	return ev_cli_finish(&cli, rc);
}
