/* Tests of lib/base/plan.c: the retrieval plan's schema, and the readers'
 * loop over it. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "config.h"
#include "plan.h"

Test(plan, every_key_is_written_once_and_owned_by_a_stage)
{
	size_t n = 0, keys = 0;

	while (ev_plan_keys[keys] != NULL)
		keys++;
	for (const struct ev_plan_key *e = ev_plan_schema; e->key != NULL; e++, n++) {
		cr_assert_not_null(e->stage, "%s", e->key);
		cr_assert_eq(strncmp(e->stage, "ev-", 3), 0, "%s: %s", e->key, e->stage);
		cr_assert_eq(ev_plan_find(e->key), e, "'%s' is written twice", e->key);
		if (n < keys) {
			cr_assert_str_eq(ev_plan_keys[n], e->key);
		} else {	/* another form: a mapping where its parent is a number */
			char parent[128];
			const struct ev_plan_key *p;

			snprintf(parent, sizeof parent, "%.*s", (int)(strrchr(e->key, '.') - e->key),
			    e->key);
			cr_assert_not_null(p = ev_plan_find(parent), "%s", e->key);
			cr_assert(p->type == EV_PLAN_INT || p->type == EV_PLAN_NUM, "%s", e->key);
		}
	}
	cr_assert_gt(keys, 40);
	cr_assert_gt(n, keys);
	cr_assert_null(ev_plan_find("lanes.text.nonesuch"));
}

Test(plan, every_default_lies_in_its_range_and_a_choice_names_its_words)
{
	for (const struct ev_plan_key *e = ev_plan_schema; e->key != NULL; e++) {
		if (e->type == EV_PLAN_INT || e->type == EV_PLAN_NUM) {
			cr_assert_leq(e->min, e->max, "%s", e->key);
			if (!isnan(e->def))
				cr_assert(e->def >= e->min && e->def <= e->max, "%s: %g", e->key, e->def);
		}
		if (e->type == EV_PLAN_INT && !isnan(e->def))
			cr_assert_eq(e->def, floor(e->def), "%s", e->key);
		if (e->type == EV_PLAN_CHOICE) {
			cr_assert_not_null(e->words, "%s", e->key);
			cr_assert_eq(ev_plan_word_index(e->words, "nonesuch"), -1);
		}
		cr_assert((e->type == EV_PLAN_CHOICE) == (e->words != NULL), "%s", e->key);
	}
}

/* The lanes' k limit is one constant, and the entries read at compile time
 * are those of the table. */
Test(plan, the_compile_time_fields_are_the_tables)
{
	const struct ev_plan_key *e = ev_plan_find("lanes.vector.k");

	cr_assert_eq(EV_PLAN_MAX(EV_PLAN_VECTOR_K), EV_PLAN_MAX_K);
	cr_assert_eq(EV_PLAN_MAX(EV_PLAN_TEXT_K), EV_PLAN_MAX_K);
	cr_assert_float_eq(e->max, EV_PLAN_MAX_K, 0);
	cr_assert_str_eq(EV_PLAN_KEY(EV_PLAN_MMR_LAMBDA), "diversity.mmr_lambda");
	cr_assert_float_eq(ev_plan_find("diversity.mmr_lambda")->def,
	    EV_PLAN_DEFAULT(EV_PLAN_MMR_LAMBDA), 0);
}

static json_t *
parse(const char *yaml)
{
	struct ev_err err = { 0 };
	json_t *v = ev_config_parse(yaml, strlen(yaml), "p.yaml", &err);

	cr_assert_not_null(v, "%s", err.msg);
	return v;
}

/* The field a flag gave, for keep_given(). */
static const void *given;

static int
keep_given(const void *value)
{
	return value == given;
}

Test(plan, read_keeps_a_field_the_caller_keeps_but_still_checks_it)
{
	json_t *plan = parse("k: 7\nmin_score: 0.5\n"), *bad = parse("k: -1\n");
	long long k = 3;
	double min = NAN;
	const struct ev_plan_field f[] = {
		EV_PLAN_FIELD(EV_PLAN_K, &k), EV_PLAN_FIELD(EV_PLAN_MIN_SCORE, &min)
	};
	struct ev_err err = { 0 };

	given = &k;
	cr_assert_eq(ev_plan_read(plan, "p.yaml", f, 2, keep_given, &err), 0);
	cr_assert_eq(k, 3);
	cr_assert_float_eq(min, 0.5, 0);
	cr_assert_eq(ev_plan_read(bad, "p.yaml", f, 2, keep_given, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "p.yaml:1");
	cr_assert(strstr(err.msg, "'k' must be a whole number from 0 to 1000000000") != NULL,
	    "%s", err.msg);
	json_decref(plan);
	json_decref(bad);
}

Test(plan, a_number_given_as_a_mapping_is_read_by_the_entries_under_it)
{
	json_t *plan = parse("lanes:\n  text:\n    feedback:\n      docs: 4\n");
	int docs = 15, docs_m = 15;
	const struct ev_plan_field f[] = {
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK, &docs),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_DOCS_M, &docs_m),
	};
	struct ev_err err = { 0 };

	cr_assert_eq(ev_plan_read(plan, "p.yaml", f, 2, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(docs, 15);
	cr_assert_eq(docs_m, 4);
	json_decref(plan);
}

Test(plan, a_choice_not_among_its_words_is_refused_with_them)
{
	json_t *plan = parse("group_by: colour\n");
	int group = 0;
	const struct ev_plan_field f[] = { EV_PLAN_FIELD(EV_PLAN_GROUP_BY, &group) };
	struct ev_err err = { 0 };

	cr_assert_eq(ev_plan_read(plan, "p.yaml", f, 1, NULL, &err), -1);
	cr_assert_str_eq(err.msg, "'group_by' must be none, lane or modality: 'colour'");
	cr_assert_eq(group, 0);
	json_decref(plan);
}

Test(plan, word_index_matches_whole_words_only)
{
	char buf[64];

	cr_assert_eq(ev_plan_word_index("jsonl|json|text", "json"), 1);
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", "js"), -1);
	cr_assert_eq(ev_plan_word_index("jsonl|json|text", ""), -1);
	cr_assert_str_eq(ev_plan_words_text("jsonl|json|text", buf, sizeof buf),
	    "jsonl, json or text");
}

/* A stage's reader loops over the schema: an entry of its stages that its
 * fields lack is said, so that a key added to the schema is read by every
 * reader of its stage. */
Test(plan, a_reader_lacking_a_field_of_its_stages_says_which)
{
	static const char *const stages[] = { "ev-pack", NULL };
	long long k = 0;
	const struct ev_plan_field one[] = { EV_PLAN_FIELD(EV_PLAN_K, &k) };
	struct ev_err err = { 0 };

	cr_assert_eq(ev_plan_read_stages(NULL, "p.yaml", stages, one, 1, NULL, &err), -1);
	cr_assert_eq(err.code, 1);
	cr_assert_str_eq(err.msg, "'version' of ev-pack has no field in this reader");
}

static char got_args[256];

static int
collect(void *value, const char *arg, struct ev_err *err)
{
	(void)value;
	if (strcmp(arg, "bad=x") == 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "no such lane");
	snprintf(got_args + strlen(got_args), sizeof got_args - strlen(got_args), "[%s]", arg);
	return 0;
}

/* A mapping's entries reach the setter as a flag's NAME=VALUE, whatever the
 * scalar's type; a value of another shape, or the setter's refusal, is
 * refused naming the key. */
Test(plan, a_mapping_s_entries_reach_the_setter_as_a_flag_s_argument)
{
	static const char *const bad[][2] = {
		{ "fusion: {weights: 3}", "'fusion.weights' must be a mapping of names to values" },
		{ "fusion: {weights: {a: [1]}}", "'fusion.weights.a' must be a single value" },
		{ "fusion: {weights: {bad: x}}", "'fusion.weights.bad': no such lane" },
	};
	static const char in[] = "fusion: {weights: {a: 0.5, b: \"2\", c: true}, anchor: a}";
	int dummy;
	const struct ev_plan_field f[] = {
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_WEIGHTS, &dummy, collect),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_ANCHOR, &dummy, collect),
	};
	struct ev_err err = { 0 };
	json_t *plan = ev_config_parse(in, sizeof in - 1, "p.yaml", &err);

	got_args[0] = '\0';
	cr_assert_eq(ev_plan_read(plan, "p.yaml", f, 2, NULL, &err), 0, "%s", err.msg);
	cr_assert_str_eq(got_args, "[a=0.5][b=2][c=true][a]");
	json_decref(plan);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		plan = ev_config_parse(bad[i][0], strlen(bad[i][0]), "p.yaml", &err);
		cr_assert_not_null(plan);
		cr_assert_eq(ev_plan_read(plan, "p.yaml", f, 1, NULL, &err), -1, "%s", bad[i][0]);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.where, "p.yaml:1");
		cr_assert_str_eq(err.msg, bad[i][1]);
		json_decref(plan);
	}
}

/* ev_plan_check(): every typed key of every stage, whichever reads the
 * plan; the sections their stages check (routing.rules) are passed over. */
Test(plan, check_refuses_a_bad_key_of_any_stage_and_passes_a_good_plan)
{
	json_t *good = parse("k: 5\nrerank:\n  window: 4\n  weights:\n    title: 0.1\n"
	    "lanes:\n  text:\n    feedback:\n      docs: 4\n");
	json_t *bad = parse("k: 5\nrerank:\n  window: 1\n");
	json_t *map = parse("fusion:\n  weights:\n    text: [1]\n");
	struct ev_err err = { 0 };

	cr_assert_eq(ev_plan_check(good, "p.yaml", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_plan_check(NULL, "p.yaml", &err), 0);
	cr_assert_eq(ev_plan_check(bad, "p.yaml", &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "p.yaml:3");
	cr_assert_str_eq(err.msg, "'rerank.window' must be a whole number from 2 to 64");
	cr_assert_eq(ev_plan_check(map, "p.yaml", &err), -1);
	cr_assert_str_eq(err.msg, "'fusion.weights.text' must be a single value");
	json_decref(good);
	json_decref(bad);
	json_decref(map);
}

Test(plan, a_lane_name_is_checked_in_one_place)
{
	static const char *const good[] = { "visual", "colpali_p2", "a-b", "x", NULL };
	static const char *const bad[][2] = {
		{ "", "lane '' is not a name of 1 to 31 lowercase letters, digits, '_' or '-'" },
		{ "Visual", "lane 'Visual' is not a name of 1 to 31 lowercase letters, digits, '_' or '-'" },
		{ "abcdefghijklmnopqrstuvwxyz123456",
		    "lane 'abcdefghijklmnopqrstuvwxyz123456' is not a name of 1 to 31 lowercase letters, "
		    "digits, '_' or '-'" },
		{ "text", "lane 'text' names ev-search-text's lane: give this lane a name of its own" },
		{ "vector_feedback",
		    "lane 'vector_feedback' names ev-search-vec's lane: give this lane a name of its own" },
		{ "fused", "lane 'fused' names ev-fuse's lane: give this lane a name of its own" },
		{ NULL, NULL }
	};
	struct ev_err err = { 0 };

	for (int i = 0; good[i]; i++)
		cr_assert_eq(ev_plan_lane_check(good[i], NULL, &err), 0, "%s", good[i]);
	for (int i = 0; bad[i][0]; i++) {
		cr_assert_eq(ev_plan_lane_check(bad[i][0], NULL, &err), -1, "%s", bad[i][0]);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.msg, bad[i][1]);
	}
	/* a command's own lane may be named by it, by no other */
	cr_assert_eq(ev_plan_lane_check("structured", "ev-search-sql", &err), 0);
	cr_assert_eq(ev_plan_lane_check("structured", "ev-search-mv", &err), -1);
	cr_assert_eq(ev_plan_lane_check("text", "ev-search-sql", &err), -1);
}

/* A list of lanes splits into 1 to max names, none empty, each a lane's name
 * when checked; the message begins with the option's name. */
Test(plan, split_lanes_refuses_an_empty_a_bad_or_one_too_many)
{
	const char *out[4];
	char buf[64];
	struct ev_err err = { 0 };

	cr_assert_eq(ev_plan_split_lanes("--x", 1, "text,vector", buf, sizeof buf, out, 3, &err), 2);
	cr_assert_str_eq(out[0], "text");
	cr_assert_str_eq(out[1], "vector");
	cr_assert_null(out[2]);
	cr_assert_eq(ev_plan_split_lanes("--x", 1, "text,,vector", buf, sizeof buf, out, 3, &err), -1);
	cr_assert(strstr(err.msg, "--x: 'text,,vector' holds an empty name") == err.msg, "%s", err.msg);
	cr_assert_eq(ev_plan_split_lanes("--x", 1, "TEXT", buf, sizeof buf, out, 3, &err), -1);
	cr_assert_eq(ev_plan_split_lanes("--x", 0, "TEXT", buf, sizeof buf, out, 3, &err), 1);
	cr_assert_eq(ev_plan_split_lanes("--x", 0, "a,b,c,d", buf, sizeof buf, out, 3, &err), -1);
	cr_assert_str_eq(err.msg, "--x takes 1 to 3 lanes, separated by commas");
	cr_assert_eq(ev_plan_split_lanes("--x", 0, "a,b", buf, 3, out, 3, &err), -1);
}
