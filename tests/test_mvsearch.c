/* Tests of lib/lanes/mvsearch.c: MaxSim, and queries answered over a real
 * multi-vector index against a brute-force MaxSim computed here. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mvindex.h"
#include "mvload.h"
#include "mvsearch.h"
#include "test_util.h"

#define NREC 60
#define DIM 8
#define NQ 5

static char dir[] = "/tmp/evkit-mvsearch-XXXXXX";
static char path[256];
static float *vecs[NREC];	/* each record's vectors */
static int counts[NREC];
static struct ev_mvindex *ix;
static char *out;
static size_t outlen;
static FILE *fp;

static float
rnd(unsigned long long *s)
{
	return (float)(tu_xorshift(s) % 2001) / 1000.0f - 1.0f;
}

/* NREC records "r00".."r59" of 3 to 17 random vectors of DIM dimensions. */
static void
setup(void)
{
	struct ev_mvload_opts o = { 0 };
	struct ev_mvload_stats stats;
	struct ev_err err = { 0 };
	struct ev_mvload *ld;
	unsigned long long s = 7;

	tu_mkdir(dir, NULL, 0);
	snprintf(path, sizeof path, "%s/pages.mvi", dir);
	ld = ev_mvload_begin(path, &o, &err);
	cr_assert_not_null(ld, "%s", err.msg);
	for (int r = 0; r < NREC; r++) {
		char id[16];
		json_t *rec;
		counts[r] = 3 + (int)(tu_xorshift(&s) % 15);
		vecs[r] = malloc((size_t)counts[r] * DIM * sizeof(float));
		for (int i = 0; i < counts[r] * DIM; i++)
			vecs[r][i] = rnd(&s);
		snprintf(id, sizeof id, "r%02d", r);
		rec = json_pack("{s:s,s:s,s:i}", "id", id, "doc_id", "d", "page", r + 1);
		cr_assert_eq(ev_mvload_add(ld, rec, "m1", vecs[r], counts[r], DIM, "t", &err), 0,
		    "%s", err.msg);
		json_decref(rec);
	}
	cr_assert_eq(ev_mvload_commit(ld, &stats, &err), 0, "%s", err.msg);
	ev_mvload_free(ld);
	ix = ev_mvindex_open(path, &err);
	cr_assert_not_null(ix, "%s", err.msg);
	fp = open_memstream(&out, &outlen);
}

static void
teardown(void)
{
	if (fp)
		fclose(fp);
	free(out);
	ev_mvindex_close(ix);
	for (int r = 0; r < NREC; r++)
		free(vecs[r]);
	tu_rmdir(dir);
}

TestSuite(mvsearch, .init = setup, .fini = teardown);

/* The brute-force reference: MaxSim of q (nq vectors) with record r, in
 * double. */
static double
reference(const float *q, int nq, int r)
{
	double sum = 0;

	for (int i = 0; i < nq; i++) {
		double best = -INFINITY;
		for (int j = 0; j < counts[r]; j++) {
			double d = 0;
			for (int t = 0; t < DIM; t++)
				d += (double)q[i * DIM + t] * vecs[r][j * DIM + t];
			if (d > best)
				best = d;
		}
		sum += best;
	}
	return sum;
}

/* A query record of nq random vectors (into q too). */
static json_t *
query(unsigned long long *s, float *q, int nq)
{
	json_t *rec = json_pack("{s:s,s:s}", "query_id", "q1", "query", "a map of the site");
	json_t *vs = json_array();

	for (int i = 0; i < nq; i++) {
		json_t *row = json_array();
		for (int t = 0; t < DIM; t++) {
			q[i * DIM + t] = rnd(s);
			json_array_append_new(row, json_real(q[i * DIM + t]));
		}
		json_array_append_new(vs, row);
	}
	json_object_set_new(rec, "vectors", vs);
	return rec;
}

/* Run one query, return the hits parsed (an array). */
static json_t *
search(const struct ev_mvsearch_opts *o, const json_t *rec, struct ev_err *err, int *rc)
{
	struct ev_mvsearch *ms = ev_mvsearch_new(ix, o, fp, err);
	json_t *hits = json_array();
	char *line, *save = NULL;

	cr_assert_not_null(ms, "%s", err->msg);
	rewind(fp);
	*rc = ev_mvsearch_query(ms, rec, 1, "q.jsonl:1", err);
	fflush(fp);
	out[ftell(fp)] = '\0';
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *h = json_loads(line, 0, NULL);
		cr_assert_not_null(h, "%s", line);
		json_array_append_new(hits, h);
	}
	ev_mvsearch_free(ms);
	return hits;
}

/* The reference ranking of all records for q: indexes, best first, equal
 * scores in id order. */
static void
ranking(const float *q, int nq, int *order, double *score)
{
	for (int r = 0; r < NREC; r++) {
		order[r] = r;
		score[r] = reference(q, nq, r);
	}
	for (int a = 1; a < NREC; a++)
		for (int b = a; b > 0 && (score[order[b]] > score[order[b - 1]]); b--) {
			int t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
}

static void
expect_reference(const json_t *hits, const float *q, int nq, int k)
{
	int order[NREC];
	double score[NREC];

	ranking(q, nq, order, score);
	cr_assert_eq(json_array_size(hits), (size_t)k);
	for (int h = 0; h < k; h++) {
		json_t *hit = json_array_get(hits, (size_t)h);
		char id[16];
		snprintf(id, sizeof id, "r%02d", order[h]);
		cr_assert_str_eq(json_string_value(json_object_get(hit, "id")), id, "rank %d", h + 1);
		/* float products summed: a relative tolerance for long queries */
		cr_assert_float_eq(json_real_value(json_object_get(hit, "score")), score[order[h]],
		    1e-4 + 1e-6 * fabs(score[order[h]]));
		cr_assert_eq(json_integer_value(json_object_get(hit, "rank")), h + 1);
	}
}

Test(mvsearch, maxsim_sums_each_query_vectors_best_product)
{
	/* q: (1,0), (0,1); d: (2,0), (0,3), (1,1) -> max 2 and 3 -> 5 */
	float q[] = { 1, 0, 0, 1 }, d[] = { 2, 0, 0, 3, 1, 1 };
	float *scratch = malloc(2 * (EV_MVSEARCH_BLOCK + 1) * sizeof(float));
	int32_t best[2];

	cr_assert_float_eq(ev_mvsearch_maxsim(q, 2, d, 3, 2, scratch, best), 5.0, 0);
	cr_assert_eq(best[0], 0);
	cr_assert_eq(best[1], 1);
	free(scratch);
}

Test(mvsearch, maxsim_over_more_vectors_than_a_block)
{
	long long n = 3 * EV_MVSEARCH_BLOCK + 5;
	float q[] = { 1, 0, 0, 1 }, *d = calloc((size_t)n * 2, sizeof(float));
	float *scratch = malloc(2 * (EV_MVSEARCH_BLOCK + 1) * sizeof(float));
	int32_t best[2];

	d[(n - 1) * 2] = 4;			/* the last vector: (4, 0) */
	d[(EV_MVSEARCH_BLOCK + 1) * 2 + 1] = -1;	/* a negative one does not win */
	d[(2 * EV_MVSEARCH_BLOCK) * 2 + 1] = 0.5f;
	cr_assert_float_eq(ev_mvsearch_maxsim(q, 2, d, n, 2, scratch, best), 4.5, 0);
	cr_assert_eq(best[0], n - 1);
	cr_assert_eq(best[1], 2 * EV_MVSEARCH_BLOCK);
	free(d);
	free(scratch);
}

/* A query of nq random vectors (q, from the seed *s) searched with o gives
 * want hits, ranked as the brute-force reference ranks them. */
static void
ranks_as_reference(const struct ev_mvsearch_opts *o, unsigned long long *s, float *q, int nq,
	int want)
{
	struct ev_err err = { 0 };
	json_t *rec = query(s, q, nq), *hits;
	int rc;

	hits = search(o, rec, &err, &rc);
	cr_assert_eq(rc, want, "%s", err.msg);
	expect_reference(hits, q, nq, want);
	json_decref(hits);
	json_decref(rec);
}

Test(mvsearch, exact_search_ranks_as_brute_force)
{
	struct ev_mvsearch_opts o = { .k = NREC, .candidates = 1, .token_k = 1, .exact = 1 };
	unsigned long long s = 99;
	float q[NQ * DIM];

	ranks_as_reference(&o, &s, q, NQ, NREC);
}

Test(mvsearch, faiss_candidates_that_cover_every_token_rank_as_brute_force)
{
	struct ev_mvsearch_opts o = { .k = 10, .candidates = NREC, .token_k = 10000 };
	unsigned long long s = 5;

	for (int t = 0; t < 5; t++) {
		float q[NQ * DIM];

		ranks_as_reference(&o, &s, q, NQ, 10);
	}
}

Test(mvsearch, few_candidates_still_hold_the_best_record)
{
	/* The best record of a query of one vector holds that vector's
	 * nearest token: one token found per query vector is enough. */
	struct ev_mvsearch_opts o = { .k = 3, .candidates = 3, .token_k = 1 };
	unsigned long long s = 11;
	float q[DIM];

	ranks_as_reference(&o, &s, q, 1, 1);	/* one token: one candidate */
}

Test(mvsearch, a_hit_carries_the_query_the_record_and_the_lanes_evidence)
{
	struct ev_mvsearch_opts o = { .k = 1, .candidates = 10, .token_k = 5, .lane = "colpali" };
	struct ev_err err = { 0 };
	unsigned long long s = 3;
	float q[2 * DIM];
	json_t *rec = query(&s, q, 2), *hits, *hit, *ev, *sig;
	int rc;

	hits = search(&o, rec, &err, &rc);
	cr_assert_eq(rc, 1, "%s", err.msg);
	hit = json_array_get(hits, 0);
	cr_assert_str_eq(json_string_value(json_object_get(hit, "query_id")), "q1");
	cr_assert_str_eq(json_string_value(json_object_get(hit, "query")), "a map of the site");
	cr_assert_null(json_object_get(hit, "vectors"));
	cr_assert_str_eq(json_string_value(json_object_get(hit, "doc_id")), "d");
	cr_assert(json_is_integer(json_object_get(hit, "page")));
	cr_assert_str_eq(json_string_value(json_object_get(hit, "lane")), "colpali");
	sig = json_object_get(hit, "signals");
	cr_assert_float_eq(json_real_value(json_object_get(sig, "colpali_score")),
	    json_real_value(json_object_get(hit, "score")), 0);
	cr_assert_eq(json_integer_value(json_object_get(sig, "colpali_rank")), 1);
	ev = json_array_get(json_object_get(hit, "evidence"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(ev, "lane")), "colpali");
	cr_assert_float_eq(json_real_value(json_object_get(ev, "maxsim")),
	    json_real_value(json_object_get(hit, "score")), 0);
	cr_assert_str_eq(json_string_value(json_object_get(ev, "model")), "m1");
	cr_assert_eq(json_integer_value(json_object_get(ev, "query_vectors")), 2);
	cr_assert_eq(json_array_size(json_object_get(ev, "best_vectors")), 2);
	json_decref(hits);
	json_decref(rec);
}

/* The last warning ev_mvsearch_query() gave, and how many. */
static char warned[256];
static int nwarned;

static void
warn(void *ctx, const char *where, const char *what)
{
	(void)ctx;
	snprintf(warned, sizeof warned, "%s: %s", where, what);
	nwarned++;
}

Test(mvsearch, an_all_zero_query_has_no_hits_and_says_so)
{
	/* Every record would score 0: the first k, by id, are no answer (the
	 * ties of real scores rank in id order: ev-search-mv's golden case 01). */
	struct ev_mvsearch_opts o = { .k = 4, .candidates = NREC, .token_k = 1, .exact = 1,
	    .warn = warn };
	struct ev_err err = { 0 };
	json_t *rec = json_pack("{s:[[f,f,f,f,f,f,f,f]]}", "vectors", 0., 0., 0., 0., 0., 0., 0., 0.);
	json_t *hits;
	int rc;

	nwarned = 0;
	hits = search(&o, rec, &err, &rc);
	cr_assert_eq(rc, 0, "%s", err.msg);
	cr_assert_eq(json_array_size(hits), 0);
	cr_assert_eq(nwarned, 1);
	cr_assert_str_eq(warned, "q.jsonl:1: the query's vectors are all zeros (no direction: every "
	    "record would score 0): no hits");
	json_decref(hits);
	json_decref(rec);
	/* one zero vector beside another is a query like any other */
	rec = json_pack("{s:[[f,f,f,f,f,f,f,f],[f,f,f,f,f,f,f,f]]}", "vectors", 0., 0., 0., 0., 0.,
	    0., 0., 0., 1., 0., 0., 0., 0., 0., 0., 0.);
	hits = search(&o, rec, &err, &rc);
	cr_assert_eq(rc, 4, "%s", err.msg);
	cr_assert_eq(nwarned, 1);
	/* no query_id: the line number */
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(hits, 0), "query_id")), 1);
	json_decref(hits);
	json_decref(rec);
}

Test(mvsearch, bad_queries_are_refused_and_write_nothing)
{
	static const char *const bad[][2] = {
		{ "\"just text\"", "a query of the multi-vector lane must be an object with 'vectors'" },
		{ "{\"query\":\"x\"}", "missing field 'vectors'" },
		{ "{\"vectors\":[]}", "field 'vectors' has 0 vectors (1 to 4096 are accepted)" },
		{ "{\"vectors\":[[1,2]]}", "vector 1 of field 'vectors' must be an array of 8 numbers (the index's dimension)" },
		{ "{\"vectors\":[[1,2,3,4,5,6,7,\"8\"]]}", "component 8 of vector 1 of field 'vectors' must be a finite number" },
		{ "{\"vectors\":[[1,2,3,4,5,6,7,1e39]]}", "component 8 of vector 1 of field 'vectors' must be a finite number" },
		{ "{\"vectors\":[[1,2,3,4,5,6,7,8]],\"model\":\"m2\"}", "query vectors of model 'm2', the index's are of 'm1'" },
		{ "{\"vectors\":[[1,2,3,4,5,6,7,8]],\"filters\":{\"doc_id\":\"d\"}}", "'filters' need the store of the records' documents: give --db DB" },
		{ "{\"vectors\":[[1,2,3,4,5,6,7,8]],\"query_id\":1.5}", "field 'query_id' must be a string or an integer" },
	};
	struct ev_mvsearch_opts o = { .k = 3, .candidates = 10, .token_k = 5 };

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct ev_err err = { 0 };
		json_t *rec = json_loads(bad[i][0], JSON_DECODE_ANY, NULL), *hits;
		int rc;
		cr_assert_not_null(rec, "%s", bad[i][0]);
		hits = search(&o, rec, &err, &rc);
		cr_assert_eq(rc, -1, "%s", bad[i][0]);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.where, "q.jsonl:1");
		cr_assert_not_null(strstr(err.msg, bad[i][1]), "%s: %s", bad[i][0], err.msg);
		cr_assert_eq(json_array_size(hits), 0);
		json_decref(hits);
		json_decref(rec);
	}
}

Test(mvsearch, a_long_query_with_every_token_found_is_searched_in_steps_and_still_exact)
{
	/* 4096 query vectors x every token vector (about 600) is more results
	 * than one Faiss search is given: the query is searched in steps. */
	struct ev_mvsearch_opts o = { .k = 5, .candidates = NREC, .token_k = 100000 };
	unsigned long long s = 17;
	float *q = malloc((size_t)EV_MVSEARCH_QUERY_MAX * DIM * sizeof *q);

	cr_assert_gt((long long)EV_MVSEARCH_QUERY_MAX * ev_mvindex_vectors(ix), 1000000);
	ranks_as_reference(&o, &s, q, EV_MVSEARCH_QUERY_MAX, 5);
	free(q);
}
