/* ev-route: say which lanes each query goes to (by a field, cue words or a
 * pattern, or the default lanes), gate a lane on the confidence of another
 * lane's answer, and gather the lanes' hits of routed queries in their order.
 * See man/ev-route.1 and lib/lanes/route.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "gather.h"
#include "jsonl.h"
#include "opt.h"
#include "plan.h"
#include "route.h"

static const struct ev_opt_cmd command = {
	"ev-route [OPTIONS] [QUERIES ...]\n"
	"ev-route --hits [!]LANE=FILE ... [--log FILE] [ROUTED ...]",
	"Read query records and write them with the lanes each goes to (\"lanes\") and\n"
	"why (\"routing\"), by the routing section of a plan; with --gate-hits, a gated\n"
	"lane is taken out where the other lane's answer is confident.  With --hits,\n"
	"read routed query records and write, query by query in their order, the hits\n"
	"of each lane the query is routed to.",
	NULL, 1
};

#define MAX_LANES	16	/* lanes of --default and --known */

static const char *default_lanes = "text,vector";
static const char *known_lanes;
/* --gate-hits [LANE=]FILE: a gated lane's hits, as ev_route_read_answers() reads them. */
static char *gate_lanes[EV_GATE_LANES];	/* NULL: the plan's routing.gate.on, or its first lane */
static char *gate_paths[EV_GATE_LANES];
static json_t *gate_answers[EV_GATE_LANES];
static int ngates;
static const char *select_lane;
static int skip_invalid;
static struct ev_gather hits;	/* --hits */

/* --hits [!]LANE=FILE: one more source of hits. */
static void
add_hits(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	int r = ev_gather_add(&hits, arg);

	(void)value;
	if (r == -2)
		ev_cli_usage_error(cli, "%s: at most %d files of hits", src, EV_GATHER_MAX);
	if (r == -1)
		ev_cli_usage_error(cli, "%s takes LANE=FILE (or !LANE=FILE), LANE "
		    EV_PLAN_LANE_RULE ": '%s'", src, arg);
	if (r == -3) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
}

/* --gate-hits [LANE=]FILE: one more gated lane's hits. */
static void
add_gate_hits(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	const char *eq = strchr(arg, '=');

	(void)value;
	if (ngates == EV_GATE_LANES)
		ev_cli_usage_error(cli, "%s: at most %d files of hits", src, EV_GATE_LANES);
	if (eq != NULL && (eq == arg || eq[1] == '\0'))
		ev_cli_usage_error(cli, "%s takes FILE or LANE=FILE: '%s'", src, arg);
	if ((eq != NULL && (gate_lanes[ngates] = strndup(arg, (size_t)(eq - arg))) == NULL) ||
	    (gate_paths[ngates] = strdup(eq ? eq + 1 : arg)) == NULL) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
	ngates++;
}

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "default", NULL, &default_lanes, "LANE,...",
	    "the lanes of a query no rule routes, unless the plan says routing.default"),
	EV_OPT_STR(0, "known", NULL, &known_lanes, "LANE,...",
	    "refuse a plan whose routing names a lane not in this list (one the pipeline cannot run)"),
	EV_OPT_FUNC(0, "gate-hits", NULL, NULL, add_gate_hits, "LANE=FILE",
	    "a gated lane's hits (repeatable): routing.gate.on's, whose confidence gates "
	    "routing.gate.lane, or each of routing.gate.lanes' (FILE alone: the first's)", NULL),
	EV_OPT_STR(0, "lane", NULL, &select_lane, "LANE",
	    "write only the queries routed to LANE (to feed that lane)"),
	EV_OPT_FUNC(0, "hits", NULL, NULL, add_hits, "LANE=FILE",
	    "gather mode (repeatable): write FILE's hits of the queries routed to LANE (!LANE=FILE: "
	    "of those not routed to it), query by query in the order of the routed queries read",
	    NULL),
	EV_OPT_SKIP_INVALID(&skip_invalid),
	EV_OPT_END
};

/* Route q, unless it holds "lanes" and "routing" already (routed by an
 * earlier run: kept, and gated once), and gate it on confidence.  Returns 0,
 * or -1 with *err set. */
static int
route(const struct ev_router *router, json_t *q, const char *where, struct ev_err *err)
{
	if (!json_is_array(json_object_get(q, "lanes")) || !json_is_object(json_object_get(q, "routing"))) {
		if (ev_router_route(router, q, where, err) == -1)
			return -1;
	} else if (ev_routed_check(q, where, err) == -1) {
		return -1;
	}
	return ev_router_gate_answers(router, q, (const char *const *)gate_lanes, gate_answers,
	    ngates, err);
}

/* Read the --gate-hits files, each named by its lane (checked against the
 * plan's gate).  Returns 0, or -1 with *err set. */
static int
read_gates(struct ev_cli *cli, const struct ev_gate *g, struct ev_err *err)
{
	if (ngates > 0 && g->lane == NULL && g->nlanes == 0) {
		ev_warn("--gate-hits: the plan has no routing.gate; no lane is gated");
		ngates = 0;
	}
	for (int i = 0; i < ngates; i++) {
		int known = 0;

		if (gate_lanes[i] == NULL && (gate_lanes[i] = strdup(g->nlanes ? g->lanes[0] :
		    g->on)) == NULL)
			return ev_err_nomem(err);
		for (int k = 0; k < g->nlanes; k++)
			known |= strcmp(gate_lanes[i], g->lanes[k]) == 0;
		if (g->nlanes == 0 ? strcmp(gate_lanes[i], g->on) != 0 : !known)
			ev_cli_usage_error(cli, "--gate-hits: lane '%s' is not one the plan's "
			    "routing.gate weighs", gate_lanes[i]);
		if (g->nlanes == 0 && i > 0)
			ev_cli_usage_error(cli, "--gate-hits: the plan's gate weighs one lane ('%s'): "
			    "give its hits once", g->on);
		if ((gate_answers[i] = ev_route_read_answers(gate_paths[i], err)) == NULL)
			return -1;
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	struct ev_cli cli;
	struct ev_err err = { 0 };
	struct ev_skip skip = { 0 };
	struct ev_router *router = NULL;
	struct ev_jsonl *in = NULL;
	struct ev_gate gate;
	json_t *v;
	const char *fallback[MAX_LANES + 1], *known[MAX_LANES + 1];
	char fbuf[512], kbuf[512];
	long long nq = 0, written = 0, nwritten_hits = 0;
	int argi, i, r = 0, rc = EV_EXIT_OK;

	ev_cli_init(&cli, "ev-route", NULL, argc, argv);
	ev_cli_trace(&cli);
	argi = ev_opt_parse(&cli, &command, options);
	skip.on = skip_invalid;
	if (ev_plan_split_lanes("--default", 0, default_lanes, fbuf, sizeof fbuf, fallback,
	    MAX_LANES, &err) == -1 || (known_lanes != NULL && ev_plan_split_lanes("--known", 1,
	    known_lanes, kbuf, sizeof kbuf, known, MAX_LANES, &err) == -1))
		ev_cli_usage_error(&cli, "%s", err.msg);
	if (select_lane != NULL)
		ev_cli_lane_or_usage(&cli, "--lane", select_lane);
	if (hits.n > 0 && (ngates > 0 || select_lane != NULL))
		ev_cli_usage_error(&cli, "--hits gathers the hits of queries routed already: "
		    "give --gate-hits and --lane to the run that routes them");
	if (ev_gather_stdin_once(&hits, gate_lanes, gate_paths, ngates, argv + argi, argc - argi, &err) == -1)
		ev_cli_usage_error(&cli, "%s", err.msg);
	if ((router = ev_router_new(ev_config_get(cli.config, "routing"), fallback,
	    cli.config_path, &err)) == NULL ||
	    (known_lanes != NULL && ev_router_check_lanes(router, known, cli.config_path, &err) == -1)) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_router_gate(router, &gate);
	if (read_gates(&cli, &gate, &err) == -1) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if (ev_gather_open(&hits, &err) == -1 ||
	    (in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	while ((r = ev_jsonl_next(in, &v, &err)) == 1) {
		json_t *q = ev_query_record(v, ev_jsonl_seqno(in), ev_jsonl_where(in), &err);

		json_decref(v);
		if (q != NULL && hits.n > 0) {
			/* gather: the records say their lanes; a bad one stops the run */
			nq++;
			r = ev_gather_query(&hits, q, ev_jsonl_where(in), stdout, &nwritten_hits, &err);
			json_decref(q);
			if (r == -1)
				break;
			continue;
		}
		if (q == NULL || route(router, q, ev_jsonl_where(in), &err) == -1) {
			json_decref(q);
			if (ev_cli_skip(&skip, &err))
				continue;
			r = -1;
			break;
		}
		nq++;
		if (select_lane == NULL || ev_routed_to(q, select_lane)) {
			written++;
			if (ev_jsonl_write(stdout, q, &err) == -1) {
				json_decref(q);
				r = -1;
				break;
			}
		}
		json_decref(q);
	}
	if (r == 0 && hits.n > 0 && ev_gather_end(&hits, &err) == -1)
		r = -1;
	rc = ev_cli_loop_end(&cli, &skip, r, &err);
out:
	ev_cli_count(&cli, "queries", nq);
	ev_cli_count(&cli, hits.n > 0 ? "hits" : "written", hits.n > 0 ? nwritten_hits : written);
	ev_gather_close(&hits);
	ev_jsonl_close(in);
	ev_router_free(router);
	for (i = 0; i < ngates; i++) {
		free(gate_lanes[i]);
		free(gate_paths[i]);
		json_decref(gate_answers[i]);
	}
	return ev_cli_finish(&cli, rc);
}
