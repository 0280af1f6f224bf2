/* test_summary.c: lib/judge/summary.c -- gates on the axes of a score, and the
 * distribution of the axes over a run. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "summary.h"

Test(summary, quantiles_are_linear_between_closest_ranks)
{
	double v[] = { 1, 2, 3, 4, 5 };

	cr_assert_float_eq(ev_quantile(v, 5, 0.5), 3, 1e-12);
	cr_assert_float_eq(ev_quantile(v, 5, 0.1), 1.4, 1e-12);
	cr_assert_float_eq(ev_quantile(v, 5, 0.9), 4.6, 1e-12);
	cr_assert_float_eq(ev_quantile(v, 5, 1), 5, 1e-12);
	cr_assert_float_eq(ev_quantile(v, 1, 0.9), 1, 1e-12);
	cr_assert_float_eq(ev_quantile(v, 0, 0.5), 0, 1e-12);
}

Test(summary, gates_bound_from_below_but_redundancy_from_above)
{
	struct ev_gates g = { 0 };
	double axes[EV_NAXES] = { 0.4, 0.9, 0.9, 0.6 };
	int failed[EV_NAXES];
	char msg[256];

	cr_assert_eq(ev_gates_check(&g, axes, failed), 0);	/* no gate set */
	g.set[EV_AX_FAITH] = g.set[EV_AX_REDUNDANCY] = g.set[EV_AX_OVERALL] = 1;
	g.bound[EV_AX_FAITH] = 0.5;
	g.bound[EV_AX_REDUNDANCY] = 0.8;
	g.bound[EV_AX_OVERALL] = 0.6;	/* equal to the bound passes */
	cr_assert_eq(ev_gates_check(&g, axes, failed), 1);
	cr_assert_eq(failed[EV_AX_FAITH], 1);
	cr_assert_eq(failed[EV_AX_COVERAGE], 0);
	cr_assert_eq(failed[EV_AX_REDUNDANCY], 1);
	cr_assert_eq(failed[EV_AX_OVERALL], 0);
	cr_assert_str_eq(ev_gates_text(&g, axes, failed, msg, sizeof msg),
	    "faithfulness 0.4 < 0.5, redundancy 0.9 > 0.8");
}

Test(summary, counting_keeps_the_first_ids_of_each_gate)
{
	struct ev_gates g = { 0 };
	struct ev_err err = { 0 };
	int failed[EV_NAXES] = { 1, 0, 0, 0 }, i;

	for (i = 0; i < EV_SUMMARY_IDS + 3; i++) {
		json_t *id = json_integer(i);

		cr_assert_eq(ev_gates_count(&g, failed, id, &err), 0);
		json_decref(id);
	}
	cr_assert_eq(g.failed_items, EV_SUMMARY_IDS + 3);
	cr_assert_eq(g.below[EV_AX_FAITH], EV_SUMMARY_IDS + 3);
	cr_assert_eq(json_array_size(g.ids[EV_AX_FAITH]), EV_SUMMARY_IDS);
	cr_assert_null(g.ids[EV_AX_COVERAGE]);
	ev_gates_release(&g);
}

/* Three items; faithfulness gate 0.5 failed by one ("b").  The summary
 * goes to buf. */
static struct ev_summary s = EV_SUMMARY_INIT;
static struct ev_gates g;
static struct ev_err err;
static char buf[2048];
static FILE *fp;

static void
three_items(void)
{
	double items[3][EV_NAXES] = { { 1, 1, 0, 1 }, { 0.2, 0.5, 0.5, 0.4 }, { 0.6, 0, 1, 0.3 } };
	int failed[EV_NAXES], i;

	g.set[EV_AX_FAITH] = 1;
	g.bound[EV_AX_FAITH] = 0.5;
	for (i = 0; i < 3; i++) {
		cr_assert_eq(ev_summary_add(&s, items[i], &err), 0);
		if (ev_gates_check(&g, items[i], failed)) {
			json_t *id = json_string("b");

			cr_assert_eq(ev_gates_count(&g, failed, id, &err), 0);
			json_decref(id);
		}
	}
	fp = fmemopen(buf, sizeof buf, "w");
}

static void
release(void)
{
	ev_summary_release(&s);
	ev_gates_release(&g);
}

Test(summary, text_has_a_line_per_axis_and_per_failed_gate, .init = three_items, .fini = release)
{
	cr_assert_eq(ev_summary_text(fp, "p: ", &s, &g, &err), 0);
	fclose(fp);
	cr_assert(strstr(buf, "p: summary of 3 items\n") == buf, "%s", buf);
	cr_assert(strstr(buf, "faithfulness   0.6000  0.2800  0.6000  0.9200  >= 0.5    1\n") != NULL,
	    "%s", buf);
	cr_assert(strstr(buf, "coverage       0.5000  0.1000  0.5000  0.9000  -         -\n") != NULL,
	    "%s", buf);
	cr_assert(strstr(buf, "p: FAILED faithfulness >= 0.5: 1 of 3 items: b\n") != NULL, "%s", buf);
}

Test(summary, json_has_the_figures_and_the_gates, .init = three_items, .fini = release)
{
	json_t *j, *sum, *f;

	cr_assert_eq(ev_summary_json(fp, &s, &g, &err), 0);
	fclose(fp);
	cr_assert_eq(strchr(buf, '\n'), buf + strlen(buf) - 1, "%s", buf);	/* one line */
	j = json_loads(buf, 0, NULL);
	cr_assert_not_null(j, "%s", buf);
	sum = json_object_get(j, "summary");
	f = json_object_get(sum, "faithfulness");
	cr_assert_float_eq(json_real_value(json_object_get(f, "mean")), 0.6, 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(f, "p10")), 0.28, 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(f, "min")), 0.5, 1e-12);
	cr_assert_eq(json_integer_value(json_object_get(f, "failed")), 1);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(f, "failed_ids"), 0)), "b");
	cr_assert_null(json_object_get(json_object_get(sum, "coverage"), "min"));
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(sum, "gates"),
	    "failed_items")), 1);
	cr_assert_eq(json_integer_value(json_object_get(sum, "items")), 3);
	json_decref(j);
}
