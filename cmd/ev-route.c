/* ev-route: say which lanes each query goes to (by a field, cue words or a
 * pattern, or the default lanes), and gate a lane on the confidence of
 * another lane's answer.  See man/ev-route.1 and lib/lanes/route.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "opt.h"
#include "route.h"

static const struct ev_opt_cmd command = {
	"usage: ev-route [--config PLAN.yaml] [--default LANE,...] [--gate-hits FILE]\n"
	"                [--lane LANE] [--skip-invalid] [--log FILE] [QUERIES ...]",
	"Read query records and write them with the lanes each goes to (\"lanes\") and\n"
	"why (\"routing\"), by the routing section of a plan; with --gate-hits, a gated\n"
	"lane is taken out where the other lane's answer is confident.",
	NULL, 1
};

static const char *default_lanes = "text,vector";
static const char *gate_hits;
static const char *select_lane;
static int skip_invalid;

static const struct ev_opt options[] = {
	EV_OPT_STR(0, "default", NULL, &default_lanes, "LANE,...",
	    "the lanes of a query no rule routes, unless the plan says routing.default"),
	EV_OPT_STR(0, "gate-hits", NULL, &gate_hits, "FILE",
	    "the hits of the plan's routing.gate.on lane, whose confidence gates routing.gate.lane"),
	EV_OPT_STR(0, "lane", NULL, &select_lane, "LANE",
	    "write only the queries routed to LANE (to feed that lane)"),
	EV_OPT_SKIP_INVALID(&skip_invalid),
	EV_OPT_END
};

/* The best two scores and the count of each query's hits in FILE, as
 * {QUERY_ID: [n, s1, s2]}. */
static json_t *
read_gate_hits(const char *path, struct ev_err *err)
{
	char *paths[] = { (char *)path };
	struct ev_jsonl *in = ev_jsonl_open(paths, 1, err);
	json_t *by = json_object(), *v;
	int r;

	if (in == NULL || by == NULL) {
		if (by == NULL)
			ev_err_nomem(err);
		ev_jsonl_close(in);
		json_decref(by);
		return NULL;
	}
	while ((r = ev_jsonl_next(in, &v, err)) == 1) {
		char qid[256];
		json_t *t;
		double s;

		if (ev_hit_check(v, ev_jsonl_where(in), err) == -1 ||
		    ev_json_id_text(json_object_get(v, "query_id"), qid, sizeof qid) == -1) {
			if (err->msg[0] == '\0')
				ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(in),
				    "field 'query_id' must be a string or an integer");
			json_decref(v);
			r = -1;
			break;
		}
		s = json_number_value(json_object_get(v, "score"));
		json_decref(v);
		if ((t = json_object_get(by, qid)) == NULL) {
			json_object_set_new(by, qid, json_pack("[i,f,f]", 1, s, 0.0));
			continue;
		}
		{
			long n = (long)json_integer_value(json_array_get(t, 0));
			double s1 = json_real_value(json_array_get(t, 1));
			double s2 = json_real_value(json_array_get(t, 2));

			if (s > s1)
				s2 = s1, s1 = s;
			else if (n == 1 || s > s2)
				s2 = s;
			json_object_set_new(by, qid, json_pack("[I,f,f]", (json_int_t)n + 1, s1, s2));
		}
	}
	ev_jsonl_close(in);
	if (r == -1) {
		json_decref(by);
		return NULL;
	}
	return by;
}

/* Whether q's "lanes" holds lane. */
static int
routed_to(const json_t *q, const char *lane)
{
	size_t i;
	json_t *l;

	json_array_foreach(json_object_get(q, "lanes"), i, l)
		if (strcmp(json_string_value(l), lane) == 0)
			return 1;
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
	json_t *confidence = NULL, *v;
	const char *fallback[17];
	char lanes[512];
	long long nq = 0, written = 0;
	int argi, n = 0, r = 0, rc = EV_EXIT_OK;
	char *p;

	ev_cli_init(&cli, "ev-route", NULL, argc, argv);
	argi = ev_opt_parse(&cli, &command, options);
	skip.on = skip_invalid;
	snprintf(lanes, sizeof lanes, "%s", default_lanes);
	for (p = strtok(lanes, ","); p != NULL && n < 16; p = strtok(NULL, ","))
		fallback[n++] = p;
	fallback[n] = NULL;
	if (n == 0)
		ev_cli_usage_error(&cli, "--default takes one or more lanes, separated by commas");

	if ((router = ev_router_new(ev_config_get(cli.config, "routing"), fallback,
	    cli.config_path, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	ev_router_gate(router, &gate);
	if (gate_hits != NULL && gate.lane == NULL)
		ev_warn("--gate-hits: the plan has no routing.gate; no lane is gated");
	if (gate_hits != NULL && gate.lane != NULL &&
	    (confidence = read_gate_hits(gate_hits, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	if ((in = ev_jsonl_open(argv + argi, argc - argi, &err)) == NULL) {
		rc = ev_cli_report(&err);
		goto out;
	}
	while ((r = ev_jsonl_next(in, &v, &err)) == 1) {
		json_t *q = ev_query_record(v, ev_jsonl_lineno(in), ev_jsonl_where(in), &err);
		char qid[256];

		json_decref(v);
		if (q == NULL || ev_router_route(router, q, ev_jsonl_where(in), &err) == -1) {
			json_decref(q);
			if (ev_cli_skip(&skip, &err))
				continue;
			r = -1;
			break;
		}
		if (confidence != NULL &&
		    ev_json_id_text(json_object_get(q, "query_id"), qid, sizeof qid) >= 0) {
			json_t *t = json_object_get(confidence, qid);
			double c = t ? ev_route_confidence((long)json_integer_value(json_array_get(t, 0)),
			    json_real_value(json_array_get(t, 1)), json_real_value(json_array_get(t, 2))) : 0;

			if (ev_router_apply_gate(router, q, c, &err) == -1) {
				json_decref(q);
				r = -1;
				break;
			}
		}
		nq++;
		if (select_lane == NULL || routed_to(q, select_lane)) {
			written++;
			if (ev_jsonl_write(stdout, q, &err) == -1) {
				json_decref(q);
				r = -1;
				break;
			}
		}
		json_decref(q);
	}
	rc = ev_cli_loop_end(&cli, &skip, r, &err);
out:
	ev_cli_count(&cli, "queries", nq);
	ev_cli_count(&cli, "written", written);
	ev_jsonl_close(in);
	ev_router_free(router);
	json_decref(confidence);
	return ev_cli_finish(&cli, rc);
}
