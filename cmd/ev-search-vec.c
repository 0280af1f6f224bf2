/* ev-search-vec: the vector lane: query records with "vector" in, hit
 * records out, searched in the store's Faiss index.
 *
 * Streams: queries are searched in batches of those already arrived (a batch
 * is cut as soon as standard input has nothing more to read), so a lone query
 * is answered at once and a file of queries is searched with Faiss's batched
 * (BLAS) code.  See man/ev-search-vec.1, lib/lanes/vsearch.h and lib/store/vindex.h. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonl.h"
#include "opt.h"
#include "store.h"
#include "vindex.h"
#include "vsearch.h"

#define NONE EV_PLAN_MIN(EV_PLAN_VECTOR_MIN_SCORE)	/* --min-score not given */

/* Keys of query records and older plans, accepted quietly. */
static const char *const extra_keys[] = { "request_id", "query", "embed.*", "text.*", NULL };

static const struct ev_opt_cmd command = {
	"ev-search-vec --db DB --index FILE [OPTIONS] [FILE ...]",
	"Search the vector index FILE of store DB with query records carrying a\n"
	"\"vector\" (and its \"model\"); write the k best chunks of each as hit records\n"
	"of lane \"vector\", best first.  With --feedback-hits, each query's vector is\n"
	"first moved toward the stored vectors of the first chunks another lane found\n"
	"for it, and the hits are of lane \"vector_feedback\".  In a retrieval plan\n"
	"(--config), the options' keys are under lanes.vector.",
	extra_keys, 1
};

static const char *db, *index_path, *feedback_hits;
static int feedback = EV_PLAN_DEFAULT(EV_PLAN_VECTOR_FEEDBACK);
static double feedback_weight = EV_PLAN_DEFAULT(EV_PLAN_VECTOR_FEEDBACK_WEIGHT);
static long k = EV_PLAN_DEFAULT(EV_PLAN_VECTOR_K);
static double min_score = NONE;
static int ef_search, nprobe, no_snippet, pairwise;
static int snippet = EV_PLAN_DEFAULT(EV_PLAN_VECTOR_SNIPPET);
static struct ev_skip skip;

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "db", "db", &db, "DB", "the store the index was loaded into (ev-embed-load)"),
	EV_OPT_STR(0, "index", "index", &index_path, "FILE", "the index file"),
	EV_OPT_PLAN('k', "k", EV_PLAN_VECTOR_K, &k, "N", "hits per query"),
	EV_OPT_PLAN_SHOWN(0, "min-score", EV_PLAN_VECTOR_MIN_SCORE, &min_score, "X",
	    "drop hits whose inner product is below X", "none"),
	EV_OPT_PLAN_SHOWN(0, "ef-search", EV_PLAN_VECTOR_EF_SEARCH, &ef_search, "N",
	    "HNSW indexes: Faiss's efSearch, the candidates explored per query", "the index's"),
	EV_OPT_PLAN_SHOWN(0, "nprobe", EV_PLAN_VECTOR_NPROBE, &nprobe, "N",
	    "IVF indexes: Faiss's nprobe, the inverted lists visited per query", "the index's"),
	EV_OPT_BOOL(0, "no-snippet", NULL, &no_snippet, "leave the snippet out of the hits (faster)"),
	EV_OPT_PLAN(0, "pairwise", EV_PLAN_VECTOR_PAIRWISE, &pairwise, NULL,
	    "score each query against each"
	    " vector one pair at a time, not as a matrix product: scores to the bit whatever the"
	    " index's size, so shards merge exactly (slower for large batches)"),
	EV_OPT_PLAN_KEY(EV_PLAN_VECTOR_SNIPPET, &snippet),
	EV_OPT_STR(0, "feedback-hits", NULL, &feedback_hits, "FILE", "hit records of another lane"
	    " (the text lane's): fold each query's first chunks there into its vector"),
	EV_OPT_PLAN(0, "feedback", EV_PLAN_VECTOR_FEEDBACK, &feedback, "N",
	    "with --feedback-hits: the chunks folded in (0: none)"),
	EV_OPT_PLAN(0, "feedback-weight", EV_PLAN_VECTOR_FEEDBACK_WEIGHT, &feedback_weight, "X",
	    "with --feedback-hits: the weight of their mean vector beside the query's"),
	EV_OPT_SKIP_INVALID(&skip.on),
	EV_OPT_END
};

/* Whether standard input has nothing to read right now. */
static int
stdin_idle(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

/* Read the queries and search them in batches.  Returns 0 or -1. */
static int
run(struct ev_vsearch *vs, struct ev_jsonl *in, long long *queries, struct ev_err *err)
{
	const char *line;
	size_t len;
	int r;

	for (;;) {
		if ((r = ev_jsonl_next_line(in, &line, &len, err)) == 1) {
			if (ev_jsonl_blank(line, len))
				continue;
			r = ev_vsearch_add_line(vs, line, len, ev_jsonl_seqno(in), ev_jsonl_where(in),
			    err) == 0 ? 1 : -1;
		}
		if (r == 0)
			break;
		if (r == -1) {
			if (ev_cli_skip(&skip, err))
				continue;
			break;
		}
		(*queries)++;
		if ((ev_vsearch_full(vs) || (strcmp(ev_jsonl_file(in), "stdin") == 0 && stdin_idle())) &&
		    (r = ev_vsearch_flush(vs, err)) == -1)
			break;
	}
	/* Queries read before a bad line are still answered. */
	if (ev_vsearch_flush(vs, r == -1 ? &(struct ev_err){ 0 } : err) == -1 && r != -1)
		r = -1;
	return r == -1 ? -1 : 0;
}

/* Set a Faiss search parameter the user asked for, or say it is ignored. */
static void
set_param(struct ev_vindex *ix, const char *flag, const char *name, int value)
{
	struct ev_err err = { 0 };

	if (value && ev_vindex_set_param(ix, name, value, &err) != 1)
		ev_warn("%s: index '%s' (%s) has no %s; ignored", flag, index_path,
		    ev_vindex_factory(ix), name);
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_store *st = NULL;
	struct ev_vindex *ix = NULL;
	struct ev_vsearch *vs = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_vsearch_opts vo = { 0 };
	long long queries = 0;
	int argi, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-search-vec", NULL, argc, argv);
	ev_cli_trace(&cli);
	argi = ev_opt_parse_section(&cli, &command, options, "lanes.vector", 1);
	if (db == NULL)
		ev_cli_usage_error(&cli, "--db DB is required");
	if (index_path == NULL)
		ev_cli_usage_error(&cli, "--index FILE is required");
	ev_cli_stdin_once(&cli, "--feedback-hits", feedback_hits, "the other lane's hits",
	    "the queries", argv + argi, argc - argi);
	vo.k = (int)k;
	vo.snippet = snippet && !no_snippet;
	if (pairwise)
		ev_vindex_pairwise();
	vo.feedback = feedback;
	vo.feedback_weight = feedback_weight;
	vo.has_min_score = min_score > NONE;
	vo.min_score = min_score;
	vo.skip = ev_cli_skip_cb;
	vo.warn = ev_cli_warn_cb;
	vo.ctx = &skip;

	if ((st = ev_store_open(db, EV_STORE_READ, &err)) == NULL ||
	    (ix = ev_vindex_open(st, index_path, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	set_param(ix, "--ef-search", "efSearch", ef_search);
	set_param(ix, "--nprobe", "nprobe", nprobe);
	if ((vs = ev_vsearch_new(st, ix, index_path, &vo, stdout, &err)) == NULL ||
	    (feedback_hits != NULL &&
	    ev_vsearch_feedback(vs, (char *[]){ (char *)feedback_hits }, 1, &err) == -1)) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if ((in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL ||
	    run(vs, in, &queries, &err) == -1)
		rc = ev_cli_report(&err);
	else
		ev_cli_skip_done(&cli, &skip);
	ev_cli_count(&cli, "queries", queries);
	ev_cli_count(&cli, "hits", ev_vsearch_hits(vs));
out:
	ev_jsonl_close(in);
	ev_vsearch_free(vs);
	ev_vindex_close(ix);
	ev_store_close(st);
	return ev_cli_finish(&cli, rc);
}
