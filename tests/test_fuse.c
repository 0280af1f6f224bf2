/* test_fuse.c: lib/merge/fuse.c -- every method and normalisation against figures
 * computed by hand, evidence merging, grouping by document, ties, bad hits,
 * and reading lanes in step. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fuse.h"
#include "test_util.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static json_t *
hit(const char *lane, const char *id, long long rank, double score)
{
	char doc[64];
	const char *colon = strchr(id, ':');

	snprintf(doc, sizeof doc, "%.*s", colon ? (int)(colon - id) : (int)strlen(id), id);
	return json_pack("{s:s,s:s,s:s,s:I,s:f,s:s}", "query_id", "q", "id", id, "doc_id", doc,
	    "rank", (json_int_t)rank, "score", score, "lane", lane);
}

static struct ev_fuse *
fuser(const struct ev_fuse_opts *o)
{
	struct ev_err err = { 0 };
	struct ev_fuse *f = ev_fuse_new(o, &err);

	cr_assert_not_null(f);
	cr_assert_eq(ev_fuse_begin(f, "q", &err), 0);
	return f;
}

static void
add(struct ev_fuse *f, json_t *h)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_fuse_add(f, h, "t:1", &err), 0, "%s", err.msg);
	json_decref(h);
}

/* The two lanes most tests fuse:
 *   text:   a (rank 1, 10), b (2, 6), c (3, 2)
 *   vector: b (1, 0.9), d (2, 0.5), a (3, 0.3) */
static void
two_lanes(struct ev_fuse *f)
{
	add(f, hit("text", "a:1", 1, 10));
	add(f, hit("text", "b:1", 2, 6));
	add(f, hit("text", "c:1", 3, 2));
	add(f, hit("vector", "b:1", 1, 0.9));
	add(f, hit("vector", "d:1", 2, 0.5));
	add(f, hit("vector", "a:1", 3, 0.3));
}

static json_t *
run(struct ev_fuse *f)
{
	struct ev_err err = { 0 };
	json_t *out = ev_fuse_hits(f, &err);

	cr_assert_not_null(out, "%s", err.msg);
	return out;
}

/* two_lanes() fused by a fuser of o (left in *fp); the hits. */
static json_t *
fuse_two_lanes(const struct ev_fuse_opts *o, struct ev_fuse **fp)
{
	*fp = fuser(o);
	two_lanes(*fp);
	return run(*fp);
}

static const char *
id_at(json_t *out, size_t i)
{
	return json_string_value(json_object_get(json_array_get(out, i), "id"));
}

static double
score_at(json_t *out, size_t i)
{
	return json_number_value(json_object_get(json_array_get(out, i), "score"));
}

/* Hit i of out is id, with score (to 1e-9). */
static void
expect_at(json_t *out, size_t i, const char *id, double score)
{
	cr_assert_str_eq(id_at(out, i), id, "hit %zu", i);
	cr_assert(NEAR(score_at(out, i), score), "hit %zu (%s): score %.12g, want %.12g", i, id,
	    score_at(out, i), score);
}

/* An expected hit: its id and score. */
struct want {
	const char *id;
	double score;
};

/* The hits of out, from the first, are those of want (which ends at an id
 * NULL), each with its score (to 1e-9). */
static void
expect_ranking(json_t *out, const struct want *want)
{
	for (size_t i = 0; want[i].id != NULL; i++)
		expect_at(out, i, want[i].id, want[i].score);
}

/* The list of struct want given, ended. */
#define RANKING(...) ((const struct want[]){ __VA_ARGS__, { NULL, 0 } })

/* The default options but for the method and the normalisation. */
static struct ev_fuse_opts
opts_of(enum ev_fuse_method method, enum ev_fuse_norm norm)
{
	struct ev_fuse_opts o;

	ev_fuse_opts_init(&o);
	o.method = method;
	o.norm = norm;
	return o;
}

/* combsum with lane weights adapted by agreement: a lane's first 2 against
 * the anchor's, full weight at 1 shared of 1. */
static struct ev_fuse_opts
agreement_opts(void)
{
	struct ev_fuse_opts o = opts_of(EV_FUSE_COMBSUM, EV_NORM_DEFAULT);

	o.adapt = EV_ADAPT_AGREEMENT;
	o.agree_depth = 2;
	o.agree_full = 1;
	return o;
}

/* A fusion under test: its options, accumulator, hits and error. */
struct fusion {
	struct ev_fuse_opts o;
	struct ev_fuse *f;
	json_t *out;
	struct ev_err err;
};

/* t->out: two_lanes() fused by a new accumulator t->f of t->o. */
static void
fuse(struct fusion *t)
{
	t->out = fuse_two_lanes(&t->o, &t->f);
}

/* A fusion of two_lanes() with the options o, fused. */
static struct fusion
fused(struct ev_fuse_opts o)
{
	struct fusion t = { .o = o };

	fuse(&t);
	return t;
}

/* t->out: the hits (NULL-ended; each released), after two_lanes() when
 * with_two_lanes, fused by a new accumulator t->f of t->o. */
static void
fuse_hits(struct fusion *t, int with_two_lanes, json_t *const *hits)
{
	t->f = fuser(&t->o);
	if (with_two_lanes)
		two_lanes(t->f);
	for (; *hits != NULL; hits++)
		add(t->f, *hits);
	t->out = run(t->f);
}

/* Frees t's hits and accumulator. */
static void
done(struct fusion *t)
{
	json_decref(t->out);
	ev_fuse_free(t->f);
	t->out = NULL;
	t->f = NULL;
}

/* The value of the field key of hit i of out, of "explain" within it when
 * explain. */
static json_t *
field_at(json_t *out, size_t i, int explain, const char *key)
{
	json_t *h = json_array_get(out, i);

	return json_object_get(explain ? json_object_get(h, "explain") : h, key);
}

Test(fuse, rrf_sums_one_over_k_plus_rank)
{
	struct fusion t = fused(opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT));

	cr_assert_eq(json_array_size(t.out), 4);
	/* b: 1/62 + 1/61; a: 1/61 + 1/63; d: 1/62; c: 1/63 */
	expect_ranking(t.out, RANKING({ "b:1", 1.0 / 62 + 1.0 / 61 }, { "a:1", 1.0 / 61 + 1.0 / 63 },
	    { "d:1", 1.0 / 62 }, { "c:1", 1.0 / 63 }));
	cr_assert_eq(json_integer_value(field_at(t.out, 3, 0, "rank")), 4);
	cr_assert_str_eq(json_string_value(field_at(t.out, 0, 0, "lane")), "fused");
	done(&t);
}

Test(fuse, rrf_k_and_lane_weights_change_the_sum)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };

	t.o.rrf_k = 1;
	cr_assert_eq(ev_fuse_weight_parse(&t.o, "vector=3", &t.err), 0);
	fuse(&t);
	/* b: 1/3 + 3/2; d: 3/3; a: 1/2 + 3/4; c: 1/4 */
	expect_ranking(t.out, RANKING({ "b:1", 1.0 / 3 + 1.5 }, { "a:1", 0.5 + 0.75 }, { "d:1", 1.0 }));
	done(&t);
}

Test(fuse, weighted_max_divides_by_the_lane_max_or_one)
{
	struct fusion t = { .o = opts_of(EV_FUSE_WEIGHTED, EV_NORM_DEFAULT) };

	ev_fuse_weight_parse(&t.o, "vector=0.7", &t.err);
	ev_fuse_weight_parse(&t.o, "text=0.3", &t.err);
	fuse(&t);
	/* text / max(10, 1), vector / max(0.9, 1) = vector itself:
	 * a: .3*1 + .7*.3 = .51; b: .3*.6 + .7*.9 = .81; d: .7*.5 = .35; c: .3*.2 = .06 */
	expect_ranking(t.out, RANKING({ "b:1", 0.81 }, { "a:1", 0.51 }, { "d:1", 0.35 },
	    { "c:1", 0.06 }));
	done(&t);
}

Test(fuse, weighted_none_adds_raw_scores)
{
	struct fusion t = fused(opts_of(EV_FUSE_WEIGHTED, EV_NORM_NONE));
	static const double raw[] = { 10.3, 6.9, 2, 0.5 };	/* a, b, c, d */

	expect_at(t.out, 0, "a:1", raw[0]);
	for (size_t i = 1; i < 4; i++)
		cr_assert(NEAR(score_at(t.out, i), raw[i]), "hit %zu", i);
	done(&t);
}

Test(fuse, combsum_minmax_maps_each_lane_to_zero_one)
{
	struct fusion t = fused(opts_of(EV_FUSE_COMBSUM, EV_NORM_DEFAULT));

	/* text (s-2)/8: a 1, b .5, c 0; vector (s-.3)/.6: b 1, d 1/3, a 0
	 * a 1, b 1.5, c 0, d 1/3 */
	expect_ranking(t.out, RANKING({ "b:1", 1.5 }, { "a:1", 1.0 }, { "d:1", 1.0 / 3 }, { "c:1", 0 }));
	done(&t);
}

Test(fuse, combmnz_multiplies_by_the_lanes_that_found_it)
{
	struct fusion t = fused(opts_of(EV_FUSE_COMBMNZ, EV_NORM_DEFAULT));

	/* a 1*2 = 2, b 1.5*2 = 3, d 1/3*1, c 0 */
	expect_ranking(t.out, RANKING({ "b:1", 3 }, { "a:1", 2 }));
	cr_assert(NEAR(score_at(t.out, 2), 1.0 / 3));
	cr_assert_eq(json_integer_value(field_at(t.out, 0, 1, "lanes_found")), 2);
	done(&t);
}

Test(fuse, zscore_counts_a_missing_lane_at_its_floor)
{
	struct fusion t = fused(opts_of(EV_FUSE_WEIGHTED, EV_NORM_ZSCORE));
	json_t *ex;
	double mt = 6, sdt = sqrt((16.0 + 0 + 16) / 3), mv = 1.7 / 3;
	double sdv = sqrt((pow(0.9 - mv, 2) + pow(0.5 - mv, 2) + pow(0.3 - mv, 2)) / 3);
	double ft = (2 - mt) / sdt, fv = (0.3 - mv) / sdv;

	/* d: vector z, text floor (lowest text z); c: text z, vector floor */
	expect_ranking(t.out, RANKING({ "b:1", (6 - mt) / sdt + (0.9 - mv) / sdv },
	    { "a:1", (10 - mt) / sdt + fv }, { "d:1", (0.5 - mv) / sdv + ft }, { "c:1", ft + fv }));
	ex = json_array_get(field_at(t.out, 2, 1, "lanes"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(ex, "lane")), "text");
	cr_assert(json_is_false(json_object_get(ex, "found")));
	cr_assert(NEAR(json_number_value(json_object_get(ex, "contribution")), ft));
	done(&t);
}

Test(fuse, a_zero_floor_counts_a_missing_lane_as_a_raw_score_of_zero)
{
	struct fusion t = { .o = opts_of(EV_FUSE_COMBSUM, EV_NORM_DEFAULT) };
	json_t *ex;

	cr_assert_eq(ev_fuse_floor_parse(&t.o, "text=zero", &t.err), 0, "%s", t.err.msg);
	fuse(&t);
	/* text (s-2)/8: a 1, b .5, c 0, and d, missing, (0-2)/8 = -.25;
	 * vector (s-.3)/.6: b 1, d 1/3, a 0, and c, missing, 0 (norm) */
	expect_ranking(t.out, RANKING({ "b:1", 1.5 }, { "a:1", 1.0 }, { "d:1", 1.0 / 3 - 0.25 },
	    { "c:1", 0 }));
	ex = json_object_get(json_array_get(t.out, 2), "explain");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(ex, "floor"), "text")),
	    "zero");
	ex = json_array_get(json_object_get(ex, "lanes"), 1);
	cr_assert(json_is_false(json_object_get(ex, "found")));
	cr_assert_str_eq(json_string_value(json_object_get(ex, "formula")),
	    "not found by lane 'text': contributes its floor (a raw score of 0), 1 x (-0.25) = -0.25");
	done(&t);
}

Test(fuse, a_zero_floor_is_never_above_the_normalisations_own)
{
	struct fusion t = { .o = opts_of(EV_FUSE_WEIGHTED, EV_NORM_DEFAULT) };

	/* max: 0 / max is the floor already; nothing changes, nothing is said */
	cr_assert_eq(ev_fuse_floor_parse(&t.o, "text=zero", &t.err), 0);
	fuse(&t);
	/* text s/10: a 1, b .6, c .2; vector s/max(.9, 1): b .9, d .5, a .3 */
	expect_at(t.out, 2, "d:1", 0.5);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(field_at(t.out, 2, 1,
	    "lanes"), 1), "formula")), "not found by lane 'text': contributes 0");
	done(&t);
	/* scores below 0: raw 0 normalises above the last hit, which stays the floor */
	t.o = opts_of(EV_FUSE_COMBSUM, EV_NORM_DEFAULT);
	cr_assert_eq(ev_fuse_floor_parse(&t.o, "text=zero", &t.err), 0);
	fuse_hits(&t, 0, (json_t *[]){ hit("text", "a:1", 1, -1), hit("text", "b:1", 2, -3),
	    hit("vector", "c:1", 1, 0.5), NULL });
	/* text (s+3)/2: a 1, b 0, c missing 0 (not (0+3)/2); vector alone: c 1 */
	expect_ranking(t.out, RANKING({ "a:1", 1 }, { "c:1", 1 }, { "b:1", 0 }));
	done(&t);
}

/* A spec an option parser refuses, and what it says (NULL: any message). */
struct bad_spec {
	const char *spec, *msg;
};

/* parse refuses each spec of bad (up to a spec NULL) into o, as bad usage. */
static void
expect_bad_specs(int (*parse)(struct ev_fuse_opts *, const char *, struct ev_err *),
	struct ev_fuse_opts *o, const struct bad_spec *bad)
{
	for (; bad->spec != NULL; bad++) {
		struct ev_err err = { 0 };

		cr_assert_eq(parse(o, bad->spec, &err), -1, "'%s' accepted", bad->spec);
		cr_assert_eq(err.code, EV_EXIT_USAGE, "'%s'", bad->spec);
		if (bad->msg != NULL)
			cr_assert_str_eq(err.msg, bad->msg);
	}
}

Test(fuse, floor_options_are_checked)
{
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };

	ev_fuse_opts_init(&o);
	expect_bad_specs(ev_fuse_floor_parse, &o, (const struct bad_spec[]){
	    { "text", "floor 'text' must read LANE=zero or LANE=norm" },
	    { "text=low", "floor in 'text=low' must be zero or norm" },
	    { "=zero", NULL }, { "te xt=zero", NULL }, { NULL, NULL } });
	cr_assert_eq(ev_fuse_floor_parse(&o, "text=zero", &err), 0);
	cr_assert_eq(ev_fuse_floor_get(&o, "text"), EV_FLOOR_ZERO);
	cr_assert_eq(ev_fuse_floor_parse(&o, "text=norm", &err), 0);
	cr_assert_eq(ev_fuse_floor_get(&o, "text"), EV_FLOOR_NORM);
	cr_assert_eq(ev_fuse_floor_get(&o, "vector"), EV_FLOOR_NORM);
	cr_assert_eq(o.nfloors, 1);
}

Test(fuse, explain_gives_each_lanes_rank_score_and_contribution)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };
	json_t *ex, *l0, *l1;

	fuse_hits(&t, 0, (json_t *[]){ hit("text", "x:1", 3, 4.5), NULL });
	ex = json_object_get(json_array_get(t.out, 0), "explain");
	cr_assert_str_eq(json_string_value(json_object_get(ex, "method")), "rrf");
	cr_assert(NEAR(json_number_value(json_object_get(ex, "rrf_k")), 60));
	l0 = json_array_get(json_object_get(ex, "lanes"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(l0, "lane")), "text");
	cr_assert_eq(json_integer_value(json_object_get(l0, "rank")), 3);
	cr_assert(NEAR(json_number_value(json_object_get(l0, "score")), 4.5));
	cr_assert(NEAR(json_number_value(json_object_get(l0, "contribution")), 1.0 / 63));
	cr_assert_str_eq(json_string_value(json_object_get(l0, "formula")), "1/(60+3) = 0.01587");
	l1 = json_array_get(json_object_get(ex, "lanes"), 1);
	cr_assert_null(l1);
	done(&t);
}

Test(fuse, signals_of_every_lane_are_kept)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };
	json_t *sig;

	fuse(&t);
	sig = json_object_get(json_array_get(t.out, 0), "signals");	/* b */
	cr_assert(NEAR(json_number_value(json_object_get(sig, "fts_score")), 6));
	cr_assert_eq(json_integer_value(json_object_get(sig, "fts_rank")), 2);
	cr_assert(NEAR(json_number_value(json_object_get(sig, "vector_score")), 0.9));
	cr_assert_eq(json_integer_value(json_object_get(sig, "vector_rank")), 1);
	cr_assert(NEAR(json_number_value(json_object_get(sig, "rrf_score")), 1.0 / 62 + 1.0 / 61));
	cr_assert_null(json_object_get(sig, "fused_score"));
	done(&t);
}

Test(fuse, evidence_is_joined_in_priority_order_without_duplicates)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };
	json_t *ev, *text = hit("text", "a:1", 1, 3), *region = hit("region", "a:1", 1, 0.4);

	json_object_set_new(text, "evidence", json_pack("[{s:s,s:s},{s:s,s:s}]",
	    "lane", "text", "snippet", "wing", "lane", "timeline", "at", "t1"));
	json_object_set_new(region, "evidence", json_pack("[{s:s,s:[f,f,f,f]},{s:s,s:s}]",
	    "lane", "region", "bbox", 0.0, 0.0, 0.5, 0.5, "lane", "timeline", "at", "t1"));
	fuse_hits(&t, 0, (json_t *[]){ text, region, hit("vector", "a:1", 2, 0.8), NULL });
	ev = json_object_get(json_array_get(t.out, 0), "evidence");
	cr_assert_eq(json_array_size(ev), 4);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 0), "lane")), "vector");
	cr_assert(NEAR(json_number_value(json_object_get(json_array_get(ev, 0), "score")), 0.8));
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 1), "lane")), "text");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 2), "lane")), "region");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 3), "lane")), "timeline");
	done(&t);
}

Test(fuse, chunk_fields_and_unknown_fields_pass_through)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };
	json_t *text = hit("text", "a:1", 1, 3), *vector = hit("vector", "a:1", 5, 0.2), *x;

	json_object_set_new(text, "title", json_string("Wings"));
	json_object_set_new(text, "snippet", json_string("text snippet"));
	json_object_set_new(text, "offset_start", json_integer(10));
	json_object_set_new(vector, "custom", json_string("kept"));
	json_object_set_new(vector, "snippet", json_string("vector snippet"));
	fuse_hits(&t, 0, (json_t *[]){ text, vector, NULL });
	x = json_array_get(t.out, 0);
	cr_assert_str_eq(json_string_value(json_object_get(x, "title")), "Wings");
	cr_assert_str_eq(json_string_value(json_object_get(x, "custom")), "kept");
	cr_assert_eq(json_integer_value(json_object_get(x, "offset_start")), 10);
	/* the text lane contributed more (rank 1 against 5) */
	cr_assert_str_eq(json_string_value(json_object_get(x, "snippet")), "text snippet");
	done(&t);
}

Test(fuse, ties_are_broken_by_best_rank_then_id)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };

	t.o.method = EV_FUSE_WEIGHTED;
	t.o.norm = EV_NORM_NONE;
	fuse_hits(&t, 0, (json_t *[]){ hit("text", "z:1", 2, 1), hit("text", "y:1", 3, 1),
	    hit("vector", "b:1", 2, 1), hit("vector", "m:1", 1, 1), NULL });
	cr_assert_str_eq(id_at(t.out, 0), "m:1");	/* rank 1 */
	cr_assert_str_eq(id_at(t.out, 1), "b:1");	/* rank 2, id b < z */
	cr_assert_str_eq(id_at(t.out, 2), "z:1");
	cr_assert_str_eq(id_at(t.out, 3), "y:1");
	done(&t);
}

Test(fuse, k_cuts_the_fused_list)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };

	t.o.k = 2;
	fuse(&t);
	cr_assert_eq(json_array_size(t.out), 2);
	done(&t);
}

Test(fuse, group_doc_merges_chunks_keeping_each_chunks_evidence)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };
	json_t *x, *ev;

	t.o.group = EV_GROUP_DOC;
	fuse_hits(&t, 0, (json_t *[]){ hit("text", "a:1", 1, 9), hit("text", "b:1", 2, 8),
	    hit("text", "a:2", 3, 7), hit("vector", "b:2", 1, 0.9), hit("vector", "a:2", 2, 0.8),
	    NULL });
	cr_assert_eq(json_array_size(t.out), 2);
	/* documents: text a 1, b 2; vector b 1, a 2: a tie, broken by id */
	x = json_array_get(t.out, 0);
	cr_assert_str_eq(json_string_value(json_object_get(x, "id")), "a");
	cr_assert(NEAR(score_at(t.out, 0), 1.0 / 61 + 1.0 / 62));
	cr_assert_str_eq(json_string_value(json_object_get(x, "chunk_id")), "a:2");
	cr_assert_eq(json_array_size(json_object_get(x, "chunks")), 2);
	ev = json_object_get(x, "evidence");
	cr_assert_eq(json_array_size(ev), 3);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 0), "id")), "a:2");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 0), "lane")), "vector");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 1), "id")), "a:1");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 2), "id")), "a:2");
	cr_assert_str_eq(id_at(t.out, 1), "b");
	done(&t);
}

static void
add_fails(struct ev_fuse *f, json_t *h, const char *want)
{
	struct ev_err err = { 0 };
	char buf[1100];

	cr_assert_eq(ev_fuse_add(f, h, "t.jsonl:7", &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(ev_err_text(&err, buf, sizeof buf), want);
	json_decref(h);
}

Test(fuse, bad_hits_are_refused_naming_the_line)
{
	struct ev_fuse_opts o;
	struct ev_fuse *f;
	json_t *h;

	ev_fuse_opts_init(&o);
	f = fuser(&o);
	h = hit("text", "a:1", 1, 1);
	json_object_del(h, "id");
	add_fails(f, h, "t.jsonl:7: missing field 'id'");
	h = hit("text", "a:1", 1, 1);
	json_object_set_new(h, "rank", json_string("three"));
	add_fails(f, h, "t.jsonl:7: field 'rank' must be an integer");
	add_fails(f, hit("text", "a:1", 0, 1), "t.jsonl:7: field 'rank' must be at least 1");
	add_fails(f, hit("fused", "a:1", 1, 1), "t.jsonl:7: hit of lane 'fused' cannot be fused again");
	h = hit("text", "a:1", 1, 1);
	json_object_set_new(h, "evidence", json_pack("[i]", 3));
	add_fails(f, h, "t.jsonl:7: field 'evidence[0]' must be an object");
	h = hit("text", "a:1", 1, 1);
	json_object_set_new(h, "evidence", json_pack("[{s:s},{s:s}]", "lane", "text", "score", "x"));
	add_fails(f, h, "t.jsonl:7: field 'evidence[1].score' must be a number");
	h = hit("text", "a:1", 1, 1);
	json_object_set_new(h, "signals", json_pack("{s:b,s:s}", "query_as_document", 1,
	    "fts_score", "x"));
	add_fails(f, h, "t.jsonl:7: field 'signals.fts_score' must be a number or a boolean");
	h = hit("text", "a:1", 1, 1);
	json_object_set_new(h, "warnings", json_pack("[i]", 3));
	add_fails(f, h, "t.jsonl:7: field 'warnings' must be an array of strings");
	add(f, hit("text", "a:1", 1, 1));
	add_fails(f, hit("text", "a:1", 2, 1), "t.jsonl:7: id 'a:1' appears twice in lane 'text' of query 'q'");
	cr_assert_eq(ev_fuse_count(f), 1);
	ev_fuse_free(f);
}

Test(fuse, weight_options_are_checked)
{
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };

	ev_fuse_opts_init(&o);
	expect_bad_specs(ev_fuse_weight_parse, &o, (const struct bad_spec[]){
	    { "vector", "weight 'vector' must read LANE=W" }, { "vector=-1", NULL },
	    { "vector=nan", NULL }, { "=1", NULL }, { NULL, NULL } });
	cr_assert_eq(ev_fuse_weight_parse(&o, "vector=0.25", &err), 0);
	cr_assert_eq(ev_fuse_weight_parse(&o, "vector=0.5", &err), 0);
	cr_assert(NEAR(ev_fuse_weight_get(&o, "vector"), 0.5));
	cr_assert(NEAR(ev_fuse_weight_get(&o, "text"), 1));
	cr_assert_eq(o.nweights, 1);
}

/* Write text to a temporary file; returns its path (static storage). */
static const char *
tmpfile_with(const char *text, int n)
{
	static char paths[4][64];

	snprintf(paths[n], sizeof paths[n], "/tmp/test_fuse_%d_%d.jsonl", (int)getpid(), n);
	tu_write_file(paths[n], text, strlen(text));
	return paths[n];
}

#define H(q, lane, id, rank) "{\"query_id\":\"" q "\",\"lane\":\"" lane "\",\"id\":\"" id \
	"\",\"rank\":" #rank ",\"score\":1}\n"

Test(fuse, two_files_are_read_in_step_by_query)
{
	char *paths[2];
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	struct ev_fuse_in *in;
	struct ev_fuse *f;

	paths[0] = (char *)tmpfile_with(H("1", "text", "a", 1) H("1", "text", "b", 2)
	    H("2", "text", "c", 1) H("3", "text", "d", 1), 0);
	paths[1] = (char *)tmpfile_with(H("1", "vector", "a", 1) H("3", "vector", "e", 1), 1);
	ev_fuse_opts_init(&o);
	f = ev_fuse_new(&o, &err);
	in = ev_fuse_in_open(paths, 2, &err);
	cr_assert_not_null(in);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), 1);
	cr_assert_eq(ev_fuse_count(f), 3);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), 1);
	cr_assert_eq(ev_fuse_count(f), 1);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), 1);
	cr_assert_eq(ev_fuse_count(f), 2);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), 0);
	cr_assert_eq(ev_fuse_in_records(in), 6);
	ev_fuse_in_close(in);
	ev_fuse_free(f);
	unlink(paths[0]);
	unlink(paths[1]);
}

Test(fuse, a_query_coming_back_is_refused_and_reading_goes_on)
{
	char *paths[1];
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	struct ev_fuse_in *in;
	struct ev_fuse *f;
	char buf[1100];

	paths[0] = (char *)tmpfile_with(H("1", "text", "a", 1) H("2", "text", "b", 1)
	    H("1", "vector", "a", 1) H("2", "vector", "c", 2), 2);
	ev_fuse_opts_init(&o);
	f = ev_fuse_new(&o, &err);
	in = ev_fuse_in_open(paths, 1, &err);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), 1);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), -1);
	ev_err_text(&err, buf, sizeof buf);
	cr_assert(strstr(buf, ":3: query '1' comes back after its hits were fused") != NULL, "%s", buf);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), 1);	/* query 2, record 4 (skipping 3) */
	cr_assert_eq(ev_fuse_count(f), 2);
	cr_assert_eq(ev_fuse_in_next(in, f, &err), 0);
	ev_fuse_in_close(in);
	ev_fuse_free(f);
	unlink(paths[0]);
}

/* The lines (NULL-ended) added to f, its fused hits written into out
 * (emptied first). */
static void
write_query(struct ev_fuse *f, const char *const *lines, struct ev_buf *out)
{
	struct ev_err err = { 0 };
	long long n;

	ev_buf_reset(out);
	for (; *lines != NULL; lines++)
		cr_assert_eq(ev_fuse_add_line(f, *lines, strlen(*lines), "t:1", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_fuse_write(f, out, &n, &err), 0, "%s", err.msg);
}

/* The text of the fused hits of the lines added to a new accumulator. */
static void
write_lines(const struct ev_fuse_opts *o, const char *const *lines, struct ev_buf *out)
{
	struct ev_fuse *f = fuser(o);

	write_query(f, lines, out);
	ev_fuse_free(f);
}

/* The lines q2 fused by an accumulator of o after the lines q1 (an earlier
 * query, whose explanations it keeps) are written as q2 fused afresh: q1's
 * hits written into first, q2's into kept. */
static void
expect_same_after(const struct ev_fuse_opts *o, const char *const *q1, const char *const *q2,
	struct ev_buf *first, struct ev_buf *kept)
{
	struct ev_buf fresh = EV_BUF_INIT;
	struct ev_err err = { 0 };
	struct ev_fuse *f;

	write_lines(o, q2, &fresh);
	f = fuser(o);
	write_query(f, q1, first);
	cr_assert_eq(ev_fuse_begin(f, "q2", &err), 0);
	write_query(f, q2, kept);
	cr_assert_str_eq(ev_buf_str(kept), ev_buf_str(&fresh));
	ev_fuse_free(f);
	ev_buf_release(&fresh);
}

/* The lines q (NULL-ended), fused without explanations, are written as want. */
static void
expect_unexplained(const char *const *q, const char *want)
{
	struct ev_fuse_opts o;
	struct ev_buf out = EV_BUF_INIT;

	ev_fuse_opts_init(&o);
	o.explain = 0;
	write_lines(&o, q, &out);
	cr_assert_str_eq(ev_buf_str(&out), want);
	ev_buf_release(&out);
}

Test(fuse, explanations_kept_from_query_to_query_are_those_made_afresh)
{
	static const char *const q1[] = {
		"{\"id\":\"a\",\"lane\":\"text\",\"rank\":2,\"score\":3}",
		"{\"id\":\"b\",\"lane\":\"vector\",\"rank\":2,\"score\":0.5}",
		"{\"id\":\"c\",\"lane\":\"text\",\"rank\":1500,\"score\":1}", NULL
	};
	static const char *const q2[] = {
		"{\"id\":\"x\",\"lane\":\"vector\",\"rank\":2,\"score\":0.25}",
		"{\"id\":\"x\",\"lane\":\"other\",\"rank\":2,\"score\":7}",
		"{\"id\":\"y\",\"lane\":\"text\",\"rank\":2,\"score\":4}", NULL
	};
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	struct ev_buf first = EV_BUF_INIT, kept = EV_BUF_INIT;

	ev_fuse_opts_init(&o);
	ev_fuse_weight_set(&o, "vector", 0.5, &err);
	/* the same query after another whose lanes found other ranks */
	expect_same_after(&o, q1, q2, &first, &kept);
	cr_assert(strstr(ev_buf_str(&kept), "{\"lane\":\"vector\",\"found\":true,\"rank\":2,"
	    "\"score\":0.25,\"normalized\":0.01612903226,\"weight\":0.5,"
	    "\"contribution\":0.008064516129,\"formula\":\"0.5 x 1/(60+2) = 0.008065\"}") != NULL,
	    "%s", ev_buf_str(&kept));
	ev_buf_release(&first);
	ev_buf_release(&kept);
}

Test(fuse, a_rank_past_the_kept_explanations_is_explained_alike)
{
	static const char *const q[] = {
		"{\"id\":\"c\",\"lane\":\"text\",\"rank\":1500,\"score\":1}", NULL
	};
	struct ev_fuse_opts o;
	struct ev_buf out = EV_BUF_INIT;

	ev_fuse_opts_init(&o);
	write_lines(&o, q, &out);
	cr_assert(strstr(ev_buf_str(&out), "\"lanes\":[{\"lane\":\"text\",\"found\":true,\"rank\":1500,"
	    "\"score\":1.0,\"normalized\":0.000641025641,\"weight\":1.0,"
	    "\"contribution\":0.000641025641,\"formula\":\"1/(60+1500) = 0.000641\"}]") != NULL,
	    "%s", ev_buf_str(&out));
	ev_buf_release(&out);
}

Test(fuse, signals_of_the_same_name_are_written_once)
{
	/* lanes text and fts both give fts_score; a lane rrf gives rrf_score */
	static const char *const q[] = {
		"{\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":2}",
		"{\"id\":\"a\",\"lane\":\"fts\",\"rank\":3,\"score\":5}",
		"{\"id\":\"a\",\"lane\":\"rrf\",\"rank\":2,\"score\":9}", NULL
	};

	expect_unexplained(q,
	    "{\"id\":\"a\",\"lane\":\"fused\",\"rank\":1,"
	    "\"score\":0.04839549075,\"signals\":{\"fts_score\":5.0,\"fts_rank\":3,"
	    "\"rrf_score\":0.04839549075,\"rrf_rank\":2},\"evidence\":[{\"lane\":\"text\",\"score\":2.0},"
	    "{\"lane\":\"fts\",\"score\":5.0},{\"lane\":\"rrf\",\"score\":9.0}]}\n");
}

Test(fuse, keys_written_with_escapes_are_set_in_place)
{
	/* the text lane's hit is the base: its "\u0072ank" becomes "rank" where
	 * it is; the other lane's "id" is its "i\u0064", and not added again */
	static const char *const q[] = {
		"{\"x\":1,\"\\u0072ank\":4,\"i\\u0064\":\"a\",\"lane\":\"text\",\"score\":2,\"s\\/\":0}",
		"{\"id\":\"a\",\"lane\":\"zz\",\"rank\":1,\"score\" : 0.5 ,\"evidence\":[],\"y\":2}", NULL
	};

	expect_unexplained(q,
	    "{\"x\":1,\"rank\":1,\"i\\u0064\":\"a\",\"lane\":\"fused\","
	    "\"score\":0.03201844262,\"s\\/\":0,\"evidence\":[{\"lane\":\"text\",\"score\":2.0},"
	    "{\"lane\":\"zz\",\"score\":0.5}],\"y\":2,\"signals\":{\"fts_score\":2.0,\"fts_rank\":4,"
	    "\"zz_score\":0.5,\"zz_rank\":1,\"rrf_score\":0.03201844262}}\n");
}

Test(fuse, agreement_weighs_a_lane_by_its_top_shared_with_the_anchor)
{
	struct fusion t = fused(agreement_opts());
	json_t *ad;

	/* first 2: text a, b; vector b, d: 1 shared of 2, weight 1 x 0.5/1.
	 * text (s-2)/8: a 1, b .5, c 0; vector (s-.3)/.6 x 0.5: b .5, d 1/6, a 0
	 * a 1, b 1, c 0, d 1/6: a and b tie (best rank 1 each), a's id first */
	expect_at(t.out, 0, "a:1", 1.0);
	expect_at(t.out, 1, "b:1", 1.0);
	expect_at(t.out, 2, "d:1", 1.0 / 6);
	ad = json_object_get(json_object_get(json_array_get(t.out, 0), "explain"), "adapt");
	cr_assert_not_null(ad);
	ad = json_array_get(json_object_get(ad, "lanes"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(ad, "lane")), "vector");
	cr_assert_eq(json_integer_value(json_object_get(ad, "shared")), 1);
	cr_assert(NEAR(json_number_value(json_object_get(ad, "weight")), 0.5));
	json_decref(t.out);
	/* with full agreement at 0.5, the same lanes fuse with the weights given */
	ev_fuse_free(t.f);
	t.o.agree_full = 0.5;
	fuse(&t);
	expect_at(t.out, 0, "b:1", 1.5);
	done(&t);
}

Test(fuse, a_lane_weighing_zero_adds_no_candidate_but_its_evidence)
{
	struct fusion t = { .o = opts_of(EV_FUSE_RRF, EV_NORM_DEFAULT) };

	t.o.method = EV_FUSE_COMBSUM;
	cr_assert_eq(ev_fuse_weight_set(&t.o, "vector", 0, &t.err), 0);
	fuse(&t);
	/* text (s-2)/8: a 1, b .5, c 0; d, found by the vector lane alone, is out */
	cr_assert_eq(json_array_size(t.out), 3);
	expect_at(t.out, 0, "a:1", 1.0);
	expect_at(t.out, 1, "b:1", 0.5);
	expect_at(t.out, 2, "c:1", 0.0);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(t.out, 2), "rank")), 3);
	/* b's signals still say the vector lane found it, first */
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(json_array_get(t.out, 1),
	    "signals"), "vector_rank")), 1);
	done(&t);
	/* every lane weighing 0: every candidate is kept */
	cr_assert_eq(ev_fuse_weight_set(&t.o, "text", 0, &t.err), 0);
	fuse(&t);
	cr_assert_eq(json_array_size(t.out), 4);
	done(&t);
}

Test(fuse, agreement_from_measures_a_lane_on_another_lanes_documents)
{
	struct fusion t = { .o = agreement_opts() };
	json_t *ad;

	cr_assert_eq(ev_fuse_agree_from_parse(&t.o, "refined=vector", &t.err), 0, "%s", t.err.msg);
	cr_assert_str_eq(ev_fuse_agree_from_get(&t.o, "refined"), "vector");
	cr_assert_str_eq(ev_fuse_agree_from_get(&t.o, "vector"), "vector");
	cr_assert_eq(ev_fuse_weight_set(&t.o, "vector", 0, &t.err), 0);
	/* the refined lane's first 2 are the text lane's (a, b): agreement 1 of
	 * its own, but the vector lane's first 2 (b, d) share 1 of 2 */
	fuse_hits(&t, 1, (json_t *[]){ hit("refined", "a:1", 1, 0.8),
	    hit("refined", "b:1", 2, 0.6), hit("refined", "e:1", 3, 0.4), NULL });
	/* text a 1, b .5, c 0; refined (s-.4)/.4 x 0.5: a .5, b .25, e 0 */
	cr_assert_eq(json_array_size(t.out), 4);
	expect_at(t.out, 0, "a:1", 1.5);
	expect_at(t.out, 1, "b:1", 0.75);
	ad = json_object_get(json_object_get(json_array_get(t.out, 0), "explain"), "adapt");
	ad = json_object_get(ad, "lanes");
	for (size_t i = 0; i < json_array_size(ad); i++) {
		json_t *e = json_array_get(ad, i);

		if (strcmp(json_string_value(json_object_get(e, "lane")), "refined") != 0)
			continue;
		cr_assert_str_eq(json_string_value(json_object_get(e, "agreement_of")), "vector");
		cr_assert_eq(json_integer_value(json_object_get(e, "shared")), 1);
		cr_assert(NEAR(json_number_value(json_object_get(e, "weight")), 0.5));
		ad = NULL;
		break;
	}
	cr_assert_null(ad, "no account of lane 'refined'");
	done(&t);
	/* without the source lane, the lane's own agreement: full weight */
	fuse_hits(&t, 0, (json_t *[]){ hit("text", "a:1", 1, 10), hit("text", "b:1", 2, 6),
	    hit("refined", "a:1", 1, 0.8), hit("refined", "b:1", 2, 0.6), NULL });
	expect_at(t.out, 0, "a:1", 2.0);
	done(&t);
}

Test(fuse, agreement_from_options_are_checked)
{
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };

	ev_fuse_opts_init(&o);
	cr_assert_eq(ev_fuse_agree_from_parse(&o, "a=b", &err), 0);
	cr_assert_eq(ev_fuse_agree_from_parse(&o, "a=c", &err), 0);
	cr_assert_eq(o.nagree_from, 1);
	cr_assert_str_eq(ev_fuse_agree_from_get(&o, "a"), "c");
	cr_assert_eq(ev_fuse_agree_from_parse(&o, "a", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.msg, "LANE=FROM") != NULL, "%s", err.msg);
	cr_assert_eq(ev_fuse_agree_from_parse(&o, "a=bad lane", &err), -1);
	cr_assert_eq(ev_fuse_agree_from_parse(&o, "=b", &err), -1);
}

Test(fuse, adapted_rrf_weights_do_not_enter_the_kept_explanations)
{
	static const char *const q1[] = {	/* nothing shared: vector weighs 0 */
		"{\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":3}",
		"{\"id\":\"b\",\"lane\":\"vector\",\"rank\":1,\"score\":0.5}", NULL
	};
	static const char *const q2[] = {	/* all shared: the weight given */
		"{\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":3}",
		"{\"id\":\"a\",\"lane\":\"vector\",\"rank\":1,\"score\":0.5}", NULL
	};
	struct ev_fuse_opts o;
	struct ev_buf first = EV_BUF_INIT, kept = EV_BUF_INIT;

	ev_fuse_opts_init(&o);
	o.adapt = EV_ADAPT_AGREEMENT;
	expect_same_after(&o, q1, q2, &first, &kept);
	cr_assert(strstr(ev_buf_str(&first), "\"formula\":\"0 x 1/(60+1) = 0\"") != NULL,
	    "%s", ev_buf_str(&first));
	ev_buf_release(&first);
	ev_buf_release(&kept);
}

Test(fuse, adapt_and_anchor_names_are_checked)
{
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	enum ev_fuse_adapt a;

	ev_fuse_opts_init(&o);
	cr_assert_eq(o.adapt, EV_ADAPT_NONE);
	cr_assert_str_eq(o.anchor, "text");
	cr_assert_eq(ev_fuse_adapt_parse("agreement", &a), 0);
	cr_assert_eq(a, EV_ADAPT_AGREEMENT);
	cr_assert_str_eq(ev_fuse_adapt_name(a), "agreement");
	cr_assert_eq(ev_fuse_adapt_parse("often", &a), -1);
	cr_assert_eq(ev_fuse_anchor_set(&o, "vector", &err), 0);
	cr_assert_str_eq(o.anchor, "vector");
	cr_assert_eq(ev_fuse_anchor_set(&o, "bad lane", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
}

/* A text hit of query "q" whose signals say whether the text lane read the
 * query as a document. */
static json_t *
text_hit(const char *id, long long rank, double score, int as_document)
{
	json_t *h = hit("text", id, rank, score);

	json_object_set_new(h, "signals", json_pack("{s:f,s:b}", "fts_score", score,
	    "query_as_document", as_document));
	return h;
}

Test(fuse, the_feedback_lane_weighs_0_for_a_query_read_as_a_document)
{
	struct fusion t = { .o = opts_of(EV_FUSE_WEIGHTED, EV_NORM_MINMAX) };
	json_t *x;

	cr_assert_eq(ev_fuse_weight_set(&t.o, EV_FUSE_FEEDBACK_LANE, 2, &t.err), 0);
	cr_assert_eq(ev_fuse_weight_set(&t.o, "other", 1, &t.err), 0);
	/* text (s-2)/8: a 1, b .5, c 0; vector_feedback (s-.2)/.6: c 1, b 0;
	 * other (s-.1)/.8: c 1, a 0 */
	fuse_hits(&t, 0, (json_t *[]){ text_hit("a:1", 1, 10, 0), text_hit("b:1", 2, 6, 0),
	    text_hit("c:1", 3, 2, 0), hit(EV_FUSE_FEEDBACK_LANE, "c:1", 1, 0.8),
	    hit(EV_FUSE_FEEDBACK_LANE, "b:1", 2, 0.2), hit("other", "c:1", 1, 0.9),
	    hit("other", "a:1", 2, 0.1), NULL });
	/* read as a query: c 0 + 2 + 1, a 1, b .5 */
	expect_ranking(t.out, RANKING({ "c:1", 3.0 }, { "a:1", 1.0 }, { "b:1", 0.5 }));
	cr_assert_null(field_at(t.out, 0, 1, "feedback_off"));
	done(&t);
	/* read as a document: the feedback lane weighs 0, the other lane as given */
	fuse_hits(&t, 0, (json_t *[]){ text_hit("a:1", 1, 10, 1), text_hit("b:1", 2, 6, 1),
	    text_hit("c:1", 3, 2, 1), hit(EV_FUSE_FEEDBACK_LANE, "c:1", 1, 0.8),
	    hit(EV_FUSE_FEEDBACK_LANE, "b:1", 2, 0.2), hit("other", "c:1", 1, 0.9),
	    hit("other", "a:1", 2, 0.1), NULL });
	expect_ranking(t.out, RANKING({ "a:1", 1.0 }, { "c:1", 1.0 }, { "b:1", 0.5 }));
	x = field_at(t.out, 0, 1, "feedback_off");
	cr_assert_not_null(x);
	cr_assert_str_eq(json_string_value(json_object_get(x, "lane")), EV_FUSE_FEEDBACK_LANE);
	cr_assert(NEAR(json_number_value(json_object_get(x, "weight_given")), 2));
	cr_assert(NEAR(json_number_value(json_object_get(x, "weight")), 0));
	x = field_at(t.out, 0, 1, "weights");
	cr_assert(NEAR(json_number_value(json_object_get(x, EV_FUSE_FEEDBACK_LANE)), 0));
	cr_assert(NEAR(json_number_value(json_object_get(x, "other")), 1));
	/* the feedback lane still gives its evidence */
	cr_assert_eq(json_integer_value(json_object_get(field_at(t.out, 1, 0, "signals"),
	    "vector_feedback_rank")), 1);
	done(&t);
	/* the next query, read as a query again, weighs it as given */
	fuse_hits(&t, 0, (json_t *[]){ text_hit("a:1", 1, 10, 0), text_hit("b:1", 2, 6, 0),
	    hit(EV_FUSE_FEEDBACK_LANE, "b:1", 1, 0.8), NULL });
	expect_at(t.out, 0, "b:1", 2.0);
	done(&t);
}
