/* ev-search-vec: the vector lane: query records with "vector" in, hit
 * records out, searched in the store's Faiss index.
 *
 * Streams: queries are searched in batches of those already arrived (a batch
 * is cut as soon as standard input has nothing more to read), so a lone query
 * is answered at once and a file of queries is searched with Faiss's batched
 * (BLAS) code.  See man/ev-search-vec.1 and lib/vindex.h. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "config.h"
#include "jsoncopy.h"
#include "jsonl.h"
#include "snippet.h"
#include "store.h"
#include "token.h"
#include "vindex.h"

#define K_MAX 100000
#define BATCH_MAX 1024		/* queries searched together */
#define OUT_CHUNK 65536		/* output is written in pieces of about this size */
#define BATCH_CELLS 4000000	/* at most queries × k result cells at once */

static const char usage_text[] =
"usage: ev-search-vec --db DB --index FILE [-k N] [--min-score X] [--ef-search N]\n"
"                     [--nprobe N] [--no-snippet] [--skip-invalid]\n"
"                     [--config FILE.yaml] [--log FILE] [FILE ...]\n"
"\n"
"Search the vector index FILE of store DB with query records carrying a\n"
"\"vector\" (and its \"model\"); write the k best chunks of each as hit records\n"
"of lane \"vector\", best first.\n"
"\n"
"  --db DB          the store the index was loaded into (ev-embed-load)\n"
"  --index FILE     the index file\n"
"  -k, --k N        hits per query, 1 to 100000 (default 100)\n"
"  --min-score X    drop hits whose inner product is below X (default: none)\n"
"  --ef-search N    HNSW indexes: candidates explored per query (Faiss efSearch)\n"
"  --nprobe N       IVF indexes: inverted lists visited per query (Faiss nprobe)\n"
"  --no-snippet     leave the snippet out of the hits (faster)\n"
"  --skip-invalid   skip bad query records (counted on stderr) instead of stopping\n"
"  --config FILE.yaml defaults for the options (in a retrieval plan, its\n"
"                   lanes.vector section); --log FILE appends a ToolRun line\n"
"  --help, --version\n";

enum {
	OPT_DB = EV_OPT_FIRST_FREE,
	OPT_INDEX,
	OPT_MIN_SCORE,
	OPT_EF_SEARCH,
	OPT_NPROBE,
	OPT_NO_SNIPPET,
	OPT_SKIP
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "index", required_argument, NULL, OPT_INDEX },
	{ "k", required_argument, NULL, 'k' },
	{ "min-score", required_argument, NULL, OPT_MIN_SCORE },
	{ "ef-search", required_argument, NULL, OPT_EF_SEARCH },
	{ "nprobe", required_argument, NULL, OPT_NPROBE },
	{ "no-snippet", no_argument, NULL, OPT_NO_SNIPPET },
	{ "skip-invalid", no_argument, NULL, OPT_SKIP },
	EV_CLI_COMMON_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

/* Its own keys, flat (a file for ev-search-vec alone) or, in a retrieval
 * plan, under lanes.vector; the other stages' sections of a plan are
 * accepted quietly. */
static const char *const config_keys[] = {
	"db", "index", "k", "min_score", "ef_search", "nprobe", "snippet", "skip_invalid",
	"lanes.vector.k", "lanes.vector.min_score", "lanes.vector.ef_search",
	"lanes.vector.nprobe", "lanes.vector.snippet",
	"version", "request_id", "plan_id", "query", "lanes.text.*", "fusion.*", "diversity.*",
	"output.*", "rerank.*", "embed.*", "text.*", NULL
};

struct opts {
	const char *db, *index;
	long long k, ef_search, nprobe;
	double min_score;
	int has_min_score, snippet;
	struct ev_skip skip;
};

/* A query waiting in the batch. */
struct query {
	json_t *rec;		/* the record, without its "vector" */
	json_t *filters;	/* borrowed from rec, or NULL */
	char where[300];
	int zero;		/* the vector had no direction: no hits */
};

struct search {
	struct ev_cli *cli;
	const struct opts *o;
	struct ev_skip *skip;	/* --skip-invalid: o's, counted here */
	struct ev_store *st;
	struct ev_vindex *ix;
	struct ev_tok *tok;
	struct ev_snippet *sn;	/* NULL with --no-snippet */
	int dim, batch_max;
	struct query *q;
	float *vec;		/* batch_max × dim: the batch's query vectors */
	float *plain;		/* the same, of the queries without filters */
	int n;
	float *scores;
	int64_t *ids;
	struct ev_buf out;	/* hit records not yet written */
	struct ev_buf prefix;	/* the current query's fields */
	struct ev_buf snip;	/* the current hit's snippet */
	struct ev_buf num;	/* the current hit's score as text */
	long long queries, hits;
};

/* The search settings under prefix ("" or "lanes.vector."). */
static void
read_settings(struct ev_cli *cli, struct opts *o, const char *prefix)
{
	static const char *const keys[] = { "k", "ef_search", "nprobe", "snippet", "min_score" };
	const json_t *cfg = cli->config;
	const char *file = cli->config_path;
	struct ev_err err = { 0 };
	char key[5][48];
	int b, i;

	for (i = 0; i < 5; i++)
		snprintf(key[i], sizeof key[i], "%s%s", prefix, keys[i]);
	if (ev_config_int(cfg, key[0], 1, K_MAX, &o->k, file, &err) == -1 ||
	    ev_config_int(cfg, key[1], 1, 1000000, &o->ef_search, file, &err) == -1 ||
	    ev_config_int(cfg, key[2], 1, 1000000, &o->nprobe, file, &err) == -1 ||
	    ev_config_bool(cfg, key[3], &o->snippet, file, &err) == -1 ||
	    (b = ev_config_num(cfg, key[4], -1e30, 1e30, &o->min_score, file, &err)) == -1)
		ev_cli_config_error(cli, &err);
	if (b == 1)
		o->has_min_score = 1;
}

/* Defaults from the config file: a file of ev-search-vec's own keys, or a
 * retrieval plan (one with a "lanes" section), whose lanes.vector section
 * is read -- a plan's top-level k and min_score are ev-pack's. */
static void
read_config(struct ev_cli *cli, struct opts *o)
{
	const json_t *cfg = cli->config;
	struct ev_err err = { 0 };

	ev_cli_check_config(cli, config_keys);
	if (ev_config_str(cfg, "db", &o->db, cli->config_path, &err) == -1 ||
	    ev_config_str(cfg, "index", &o->index, cli->config_path, &err) == -1 ||
	    ev_config_bool(cfg, "skip_invalid", &o->skip.on, cli->config_path, &err) == -1)
		ev_cli_config_error(cli, &err);
	if (ev_config_get(cfg, "lanes") == NULL)
		read_settings(cli, o, "");
	else
		read_settings(cli, o, "lanes.vector.");
}

/* ---- Queries and hits -------------------------------------------------------- */

/* Check a query record and put it into the batch.  Returns 0 or -1. */
static int
add_query(struct search *S, json_t *v, size_t lineno, const char *where, struct ev_err *err)
{
	struct query *q = &S->q[S->n];
	float *x = S->vec + (size_t)S->n * S->dim;
	json_t *vec, *id, *e;
	const char *model = NULL, *text;
	double norm = 0;
	size_t i;

	if (!json_is_object(v))
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"a query must be an object with a 'vector' (embed it with ev-embed --role query)");
	if (ev_field_arr(v, "vector", 1, &vec, where, err) == -1 ||
	    ev_field_str(v, "model", 0, &model, where, err) == -1 ||
	    ev_field_str(v, "query", 0, &text, where, err) == -1 ||
	    ev_field_obj(v, "filters", 0, &q->filters, where, err) == -1)
		return -1;
	id = json_object_get(v, "query_id");
	if (id != NULL && !json_is_null(id) && !json_is_string(id) && !json_is_integer(id))
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"field 'query_id' must be a string or an integer");
	if (model != NULL && strcmp(model, ev_vindex_model(S->ix)) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"query vector of model '%s', but index '%s' holds vectors of model '%s'", model,
			S->o->index, ev_vindex_model(S->ix));
	if (json_array_size(vec) != (size_t)S->dim)
		return ev_err_set(err, EV_EXIT_USAGE, where,
			"query vector has %zu dimensions, but index '%s' has %d", json_array_size(vec),
			S->o->index, S->dim);
	json_array_foreach(vec, i, e) {
		if (!json_is_number(e))
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"component %zu of field 'vector' must be a number", i);
		x[i] = (float)json_number_value(e);
		if (!isfinite(x[i]))
			return ev_err_set(err, EV_EXIT_USAGE, where,
				"component %zu of the vector is not a finite number", i);
		norm += (double)x[i] * x[i];
	}
	if (!isfinite(norm))
		return ev_err_set(err, EV_EXIT_USAGE, where, "the vector's length overflows");
	q->zero = !(norm > 0);
	if (!q->zero) {
		norm = sqrt(norm);
		for (i = 0; i < (size_t)S->dim; i++)
			x[i] = (float)(x[i] / norm);
	}
	if ((q->rec = ev_jsoncopy_deep(v)) == NULL)
		return ev_err_nomem(err);
	json_object_del(q->rec, "vector");
	if ((id == NULL || json_is_null(id)) &&
	    json_object_set_new(q->rec, "query_id", json_integer((json_int_t)lineno)) == -1) {
		json_decref(q->rec);
		return ev_err_nomem(err);
	}
	q->filters = json_object_get(q->rec, "filters");
	snprintf(q->where, sizeof q->where, "%s", where);
	S->n++;
	return 0;
}

/* Write the hit records gathered so far; with flush, flush stdout too (at
 * the end of a batch, so that pipelines stream). */
static int
write_out(struct search *S, int flush, struct ev_err *err)
{
	if ((S->out.len > 0 && fwrite(S->out.p, 1, S->out.len, stdout) != S->out.len) ||
	    (flush && fflush(stdout) == EOF))
		return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "write error: %s", strerror(errno));
	ev_buf_reset(&S->out);
	return 0;
}

/* Fields of a query record that a hit sets itself. */
static const char *const hit_keys[] = {
	"vector", "id", "doc_id", "section_id", "title", "section_title", "section_path",
	"source_uri", "chunk_index", "offset_start", "offset_end", "content_hash", "metadata",
	"rank", "score", "lane", "signals", "evidence", "snippet", NULL
};

/* The query's own fields as the start of a hit record: "{...," (or "{"). */
static int
query_prefix(const json_t *rec, struct ev_buf *pre)
{
	json_t *c = ev_jsoncopy_shallow(rec);
	int rc;

	if (c == NULL)
		return -1;
	for (int i = 0; hit_keys[i]; i++)
		json_object_del(c, hit_keys[i]);
	ev_buf_reset(pre);
	rc = ev_json_dump(pre, c);
	json_decref(c);
	if (rc == -1 || pre->len < 2)
		return -1;
	pre->p[--pre->len] = '\0';	/* the closing brace */
	if (pre->len > 1)
		return ev_buf_addc(pre, ',');
	return 0;
}

/* Write the hits of one query, as text (a hit is the query's fields, the
 * chunk's, and the lane's; see ev-search-vec(1)). */
static int
write_hits(struct search *S, struct query *q, const float *sc, const int64_t *ids, int n,
	struct ev_err *err)
{
	const char *text = json_string_value(json_object_get(q->rec, "query"));
	struct ev_buf *b = &S->out;
	int rank = 0;

	if (query_prefix(q->rec, &S->prefix) == -1)
		return ev_err_nomem(err);
	if (S->sn) {
		ev_snippet_reset(S->sn);
		if (text && ev_snippet_add_query(S->sn, text, strlen(text), err) == -1)
			return -1;
	}
	for (int i = 0; i < n; i++) {
		char *chunk_text = NULL, rk[16];
		size_t mark = b->len;
		int r, bad;

		if (ids[i] < 0)
			break;
		if (S->o->has_min_score && sc[i] < S->o->min_score)
			break;
		if (ev_buf_add(b, S->prefix.p, S->prefix.len) == -1)
			return ev_err_nomem(err);
		r = ev_vindex_chunk_json(S->st, ids[i], b, S->sn ? &chunk_text : NULL, err);
		if (r != 1) {
			b->len = mark;
			b->p[mark] = '\0';
			if (r == 0)	/* a chunk removed since the load: skip it */
				continue;
			return -1;
		}
		rank++;
		ev_buf_reset(&S->num);
		bad = ev_vindex_json_real(&S->num, sc[i]);
		snprintf(rk, sizeof rk, "%d", rank);
		bad |= ev_buf_adds(b, ",\"rank\":") | ev_buf_adds(b, rk) |
			ev_buf_adds(b, ",\"score\":") | ev_buf_adds(b, ev_buf_str(&S->num)) |
			ev_buf_adds(b, ",\"lane\":\"vector\",\"signals\":{\"vector_score\":") |
			ev_buf_adds(b, ev_buf_str(&S->num)) | ev_buf_adds(b, ",\"vector_rank\":") |
			ev_buf_adds(b, rk) |
			ev_buf_adds(b, "},\"evidence\":[{\"lane\":\"vector\",\"score\":") |
			ev_buf_adds(b, ev_buf_str(&S->num)) | ev_buf_adds(b, "}]");
		if (!bad && S->sn) {
			ev_buf_reset(&S->snip);
			if (ev_snippet_make(S->sn, chunk_text ? chunk_text : "",
				chunk_text ? strlen(chunk_text) : 0, &S->snip, err) == -1) {
				free(chunk_text);
				return -1;
			}
			bad = ev_buf_adds(b, ",\"snippet\":") |
				ev_vindex_json_str(b, ev_buf_str(&S->snip), S->snip.len);
		}
		free(chunk_text);
		if (bad || ev_buf_add(b, "}\n", 2) == -1)
			return ev_err_nomem(err);
		if (b->len >= OUT_CHUNK && write_out(S, 0, err) == -1)
			return -1;
		S->hits++;
	}
	return 0;
}

/* Search every query of the batch and write their hits, in input order. */
static int
flush_batch(struct search *S, struct ev_err *err)
{
	int k = (int)S->o->k, ret = -1;
	long long nplain = 0;
	int *slot = NULL;

	if (S->n == 0)
		return 0;
	if (ev_vindex_batch_begin(S->ix, err) == -1)
		goto out;
	/* Queries without filters go to Faiss together. */
	if ((slot = malloc(S->n * sizeof *slot)) == NULL)
		return ev_err_nomem(err);
	for (int i = 0; i < S->n; i++) {
		slot[i] = -1;
		if (S->q[i].filters == NULL && !S->q[i].zero) {
			memcpy(S->plain + nplain * S->dim, S->vec + (size_t)i * S->dim,
				S->dim * sizeof(float));
			slot[i] = (int)nplain++;
		}
	}
	if (nplain > 0 && ev_vindex_search(S->ix, nplain, S->plain, k, S->scores, S->ids, err) == -1)
		goto out;
	for (int i = 0; i < S->n; i++) {
		struct query *q = &S->q[i];
		if (q->zero) {
			ev_warn("%s: the query vector is all zeros: no hits", q->where);
		} else if (slot[i] >= 0) {
			if (write_hits(S, q, S->scores + (size_t)slot[i] * k, S->ids + (size_t)slot[i] * k,
				k, err) == -1)
				goto out;
		} else {
			int64_t *allowed = NULL;
			size_t nallowed = 0;
			float *fsc = NULL;
			int64_t *fids = NULL;
			int m = 0, r;
			if (ev_vindex_filter_ids(S->st, q->filters, q->where, &allowed, &nallowed, err) == -1) {
				/* a bad filter: this query only, with --skip-invalid */
				if (ev_cli_skip(S->skip, err)) {
					ev_err_clear(err);
					continue;
				}
				goto out;
			}
			fsc = malloc(k * sizeof *fsc);
			fids = malloc(k * sizeof *fids);
			if (fsc == NULL || fids == NULL) {
				free(allowed);
				free(fsc);
				free(fids);
				ev_err_nomem(err);
				goto out;
			}
			r = ev_vindex_search_among(S->ix, S->vec + (size_t)i * S->dim, k, allowed, nallowed,
				fsc, fids, &m, err);
			if (r == 0)
				r = write_hits(S, q, fsc, fids, m, err);
			free(allowed);
			free(fsc);
			free(fids);
			if (r == -1)
				goto out;
		}
	}
	ret = write_out(S, 1, err);
out:
	ev_vindex_batch_end(S->ix);
	for (int i = 0; i < S->n; i++)
		json_decref(S->q[i].rec);
	S->n = 0;
	free(slot);
	return ret;
}

/* Whether standard input has nothing to read right now. */
static int
stdin_idle(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

static int
run(struct search *S, char **paths, int npaths, struct ev_err *err)
{
	struct ev_jsonl *in;
	json_t *v;
	int r;

	if ((in = ev_jsonl_open(paths, npaths, err)) == NULL)
		return -1;
	for (;;) {
		if ((r = ev_jsonl_next(in, &v, err)) == 1) {
			r = add_query(S, v, ev_jsonl_lineno(in), ev_jsonl_where(in), err) == 0 ? 1 : -1;
			json_decref(v);
		}
		if (r == 0)
			break;
		if (r == -1) {
			if (ev_cli_skip(S->skip, err))
				continue;
			break;
		}
		S->queries++;
		if (S->n == S->batch_max ||
		    (strcmp(ev_jsonl_file(in), "stdin") == 0 && stdin_idle())) {
			if ((r = flush_batch(S, err)) == -1)
				break;
		}
	}
	/* Queries read before a bad line are still answered. */
	if (flush_batch(S, r == -1 ? &(struct ev_err){ 0 } : err) == -1 && r != -1)
		r = -1;
	ev_jsonl_close(in);
	return r == -1 ? -1 : 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct opts o = { .k = 100, .snippet = 1 };
	struct ev_err err = { 0 };
	struct search S = { 0 };
	struct ev_snippet_opts snip_opts = EV_SNIPPET_OPTS_INIT;
	double x;
	long long v;
	int ch, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-search-vec", usage_text, argc, argv);
	read_config(&cli, &o);
	while ((ch = getopt_long(argc, argv, "k:", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			o.db = optarg;
			break;
		case OPT_INDEX:
			o.index = optarg;
			break;
		case 'k':
			if (ev_parse_count(optarg, 1, K_MAX, &v) == -1)
				ev_cli_usage_error(&cli, "-k takes a count from 1 to %d: '%s'", K_MAX, optarg);
			o.k = v;
			break;
		case OPT_MIN_SCORE:
			if (ev_parse_double(optarg, -1e30, 1e30, &x) == -1)
				ev_cli_usage_error(&cli, "--min-score takes a number: '%s'", optarg);
			o.min_score = x;
			o.has_min_score = 1;
			break;
		case OPT_EF_SEARCH:
			if (ev_parse_count(optarg, 1, 1000000, &v) == -1)
				ev_cli_usage_error(&cli, "--ef-search takes a count from 1 to 1000000: '%s'",
					optarg);
			o.ef_search = v;
			break;
		case OPT_NPROBE:
			if (ev_parse_count(optarg, 1, 1000000, &v) == -1)
				ev_cli_usage_error(&cli, "--nprobe takes a count from 1 to 1000000: '%s'",
					optarg);
			o.nprobe = v;
			break;
		case OPT_NO_SNIPPET:
			o.snippet = 0;
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
	if (o.index == NULL)
		ev_cli_usage_error(&cli, "--index FILE is required");

	S.cli = &cli;
	S.o = &o;
	S.skip = &o.skip;
	if ((S.st = ev_store_open(o.db, EV_STORE_READ, &err)) == NULL ||
	    (S.ix = ev_vindex_open(S.st, o.index, &err)) == NULL ||
	    (o.snippet && (S.tok = ev_tok_open(ev_store_db(S.st), &err)) == NULL) ||
	    (o.snippet && (S.sn = ev_snippet_new(S.tok, &snip_opts, &err)) == NULL)) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if (o.ef_search && ev_vindex_set_param(S.ix, "efSearch", (double)o.ef_search, &err) != 1)
		ev_warn("--ef-search: index '%s' (%s) has no efSearch; ignored", o.index,
			ev_vindex_factory(S.ix));
	if (o.nprobe && ev_vindex_set_param(S.ix, "nprobe", (double)o.nprobe, &err) != 1)
		ev_warn("--nprobe: index '%s' (%s) has no nprobe; ignored", o.index,
			ev_vindex_factory(S.ix));
	ev_err_clear(&err);
	S.dim = ev_vindex_dim(S.ix);
	S.batch_max = (int)(BATCH_CELLS / o.k);
	if (S.batch_max > BATCH_MAX)
		S.batch_max = BATCH_MAX;
	if (S.batch_max < 1)
		S.batch_max = 1;
	S.q = calloc(S.batch_max, sizeof *S.q);
	S.vec = malloc((size_t)S.batch_max * S.dim * sizeof *S.vec);
	S.plain = malloc((size_t)S.batch_max * S.dim * sizeof *S.plain);
	S.scores = malloc((size_t)S.batch_max * o.k * sizeof *S.scores);
	S.ids = malloc((size_t)S.batch_max * o.k * sizeof *S.ids);
	if (S.q == NULL || S.vec == NULL || S.plain == NULL || S.scores == NULL || S.ids == NULL) {
		rc = ev_cli_report((ev_err_nomem(&err), &err));
		goto out;
	}
	if (run(&S, argv + optind, argc - optind, &err) == -1)
		rc = ev_cli_report(&err);
	else
		ev_cli_skip_done(&cli, &o.skip);
	ev_cli_count(&cli, "queries", S.queries);
	ev_cli_count(&cli, "hits", S.hits);
out:
	ev_buf_release(&S.out);
	ev_buf_release(&S.prefix);
	ev_buf_release(&S.snip);
	ev_buf_release(&S.num);
	ev_snippet_free(S.sn);
	free(S.q);
	free(S.vec);
	free(S.plain);
	free(S.scores);
	free(S.ids);
	ev_tok_close(S.tok);
	ev_vindex_close(S.ix);
	ev_store_close(S.st);
	return ev_cli_finish(&cli, rc);
}
