/* ev-search-mv: the late-interaction lane: query records carrying many
 * vectors ("vectors", one per query token) in, hit records out, ranked by
 * MaxSim over a multi-vector index made by ev-mv-load.
 *
 * Streams: each query is answered as it arrives.  See man/ev-search-mv.1 and
 * lib/lanes/mvsearch.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "jsonl.h"
#include "mvindex.h"
#include "mvsearch.h"
#include "opt.h"
#include "store.h"

static const char *const extra_keys[] = { "request_id", "query", NULL };

static const struct ev_opt_cmd command = {
	"ev-search-mv --index FILE [OPTIONS] [FILE ...]",
	"Search the multi-vector index FILE (ev-mv-load) with query records carrying\n"
	"\"vectors\" (one per query token) and write the k records of the highest\n"
	"MaxSim of each as hit records, best first.  Candidates come from the\n"
	"token vectors nearest each query vector (Faiss); each is then scored\n"
	"exactly over all its vectors.  A query's \"filters\" keep the records whose\n"
	"doc_id names a document of the store --db that passes them.  In a\n"
	"retrieval plan (--config), the options' keys are under lanes.visual.",
	extra_keys, 1
};

static const char *index_path, *lane, *db;
static long k = EV_PLAN_DEFAULT(EV_PLAN_VISUAL_K);
static int candidates = EV_PLAN_DEFAULT(EV_PLAN_VISUAL_CANDIDATES);
static int token_k = EV_PLAN_DEFAULT(EV_PLAN_VISUAL_TOKEN_K);
static int nprobe = EV_PLAN_DEFAULT(EV_PLAN_VISUAL_NPROBE), ef_search, exact;
static struct ev_skip skip;

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "index", "index", &index_path, "FILE", "the multi-vector index (ev-mv-load)"),
	EV_OPT_STR(0, "db", "db", &db, "DB",
	    "the store whose documents the records' doc_id name: needed by queries with filters"),
	EV_OPT_PLAN('k', "k", EV_PLAN_VISUAL_K, &k, "N", "hits per query"),
	EV_OPT_PLAN(0, "candidates", EV_PLAN_VISUAL_CANDIDATES, &candidates, "N",
	    "records scored exactly per query at most (those with the best token matches)"),
	EV_OPT_PLAN(0, "token-k", EV_PLAN_VISUAL_TOKEN_K, &token_k, "N",
	    "token vectors found per query vector, whose records are the candidates"),
	EV_OPT_PLAN(0, "nprobe", EV_PLAN_VISUAL_NPROBE, &nprobe, "N",
	    "IVF indexes: Faiss's nprobe, the inverted lists visited per query vector"),
	EV_OPT_PLAN_SHOWN(0, "ef-search", EV_PLAN_VISUAL_EF_SEARCH, &ef_search, "N",
	    "HNSW indexes: Faiss's efSearch", "the index's"),
	EV_OPT_PLAN(0, "exact", EV_PLAN_VISUAL_EXACT, &exact, NULL,
	    "score every record exactly (brute force; no Faiss search)"),
	EV_OPT_STR(0, "lane", EV_PLAN_KEY(EV_PLAN_VISUAL_LANE), &lane, "NAME",
	    "the lane's name in hits (default: the index's, given to ev-mv-load)"),
	EV_OPT_SKIP_INVALID(&skip.on),
	EV_OPT_END
};

/* Search the queries of in.  Returns 0 or -1. */
static int
run(struct ev_mvsearch *ms, struct ev_jsonl *in, long long *queries, struct ev_err *err)
{
	json_t *v;
	int r;

	while ((r = ev_jsonl_next(in, &v, err)) != 0) {
		if (r == 1) {
			r = ev_mvsearch_query(ms, v, ev_jsonl_seqno(in), ev_jsonl_where(in), err) ==
			    -1 ? -1 : 1;
			json_decref(v);
		}
		if (r == -1) {
			if (ev_cli_skip(&skip, err))
				continue;
			break;
		}
		(*queries)++;
	}
	return r == -1 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_mvindex *ix = NULL;
	struct ev_mvsearch *ms = NULL;
	struct ev_store *st = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_mvsearch_opts mo = { 0 };
	long long queries = 0;
	int argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-search-mv", NULL, argc, argv);
	ev_cli_trace(&cli);
	argi = ev_opt_parse_section(&cli, &command, options, "lanes.visual", 1);
	if (index_path == NULL)
		ev_cli_usage_error(&cli, "--index FILE is required");
	if (lane != NULL && ev_plan_lane_check(lane, NULL, &err) == -1)
		ev_cli_usage_error(&cli, "--%s", err.msg);
	mo.k = (int)k;
	mo.candidates = candidates;
	mo.token_k = token_k;
	mo.exact = exact;
	mo.lane = lane;
	mo.warn = ev_cli_warn_cb;
	if ((db != NULL && (mo.st = st = ev_store_open(db, EV_STORE_READ, &err)) == NULL) ||
	    (ix = ev_mvindex_open(index_path, &err)) == NULL ||
	    (ms = ev_mvsearch_new(ix, &mo, stdout, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	/* nprobe has a default (Faiss's own, 1, finds too few candidates);
	 * it is said to be ignored only when asked for. */
	if (ev_mvindex_set_param(ix, "nprobe", nprobe, &err) != 1 && ev_opt_given(&nprobe))
		ev_warn("--nprobe: index '%s' (%s) has no nprobe; ignored", index_path,
		    ev_mvindex_factory(ix));
	if (ef_search && ev_mvindex_set_param(ix, "efSearch", ef_search, &err) != 1)
		ev_warn("--ef-search: index '%s' (%s) has no efSearch; ignored", index_path,
		    ev_mvindex_factory(ix));
	ev_err_clear(&err);
	if ((in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL ||
	    run(ms, in, &queries, &err) == -1)
		rc = ev_cli_report(&err);
	else
		ev_cli_skip_done(&cli, &skip);
	ev_cli_count(&cli, "queries", queries);
	ev_cli_count(&cli, "hits", ev_mvsearch_hits(ms));
	ev_cli_count(&cli, "scored", ev_mvsearch_scored(ms));
out:
	ev_jsonl_close(in);
	ev_mvsearch_free(ms);
	ev_mvindex_close(ix);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
