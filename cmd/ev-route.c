/* ev-route: say which lanes each query goes to (by a field, cue words or a
 * pattern, or the default lanes), gate a lane on the confidence of another
 * lane's answer, and gather the lanes' hits of routed queries in their order.
 * See man/ev-route.1 and lib/lanes/route.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "jsonl.h"
#include "opt.h"
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
#define MAX_HITS	16	/* --hits files */

/* A --hits source: the hits of one lane, read one line ahead. */
struct hitsrc {
	const char *lane;	/* the lane, without '!' */
	int negate;		/* "!LANE": the queries NOT routed to LANE */
	char *path;
	struct ev_jsonl *in;
	const char *line;	/* the line read ahead (valid until the next read), or NULL */
	size_t len;
	char qid[256];		/* its query id */
};

static const char *default_lanes = "text,vector";
static const char *known_lanes;
/* --gate-hits [LANE=]FILE: a gated lane's hits. */
static struct {
	char *lane;		/* NULL: the plan's routing.gate.on, or its first lane */
	char *path;
	json_t *answers;	/* ev_route_read_answers() */
} gates[EV_GATE_LANES];
static int ngates;
static const char *select_lane;
static int skip_invalid;
static struct hitsrc hits[MAX_HITS];
static int nhits;

/* --hits [!]LANE=FILE: one more source of hits. */
static void
add_hits(struct ev_cli *cli, const char *src, const char *arg, void *value)
{
	const char *eq = strchr(arg, '=');
	struct hitsrc *h = &hits[nhits];
	char *lane;

	(void)value;
	if (nhits == MAX_HITS)
		ev_cli_usage_error(cli, "%s: at most %d files of hits", src, MAX_HITS);
	h->negate = arg[0] == '!';
	if (eq == NULL || eq == arg + h->negate || eq[1] == '\0')
		ev_cli_usage_error(cli, "%s takes LANE=FILE (or !LANE=FILE): '%s'", src, arg);
	if ((lane = strndup(arg + h->negate, (size_t)(eq - arg - h->negate))) == NULL ||
	    (h->path = strdup(eq + 1)) == NULL) {
		ev_warn("out of memory");
		exit(EV_EXIT_RUNTIME);
	}
	h->lane = lane;
	nhits++;
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
	if ((eq != NULL && (gates[ngates].lane = strndup(arg, (size_t)(eq - arg))) == NULL) ||
	    (gates[ngates].path = strdup(eq ? eq + 1 : arg)) == NULL) {
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

/* Split a copy of list (LANE,LANE...) into buf and out[] (NULL-terminated,
 * at most MAX_LANES).  Returns how many. */
static int
split_lanes(const char *list, char *buf, size_t size, const char **out)
{
	int n = 0;
	char *p;

	snprintf(buf, size, "%s", list);
	for (p = strtok(buf, ","); p != NULL && n < MAX_LANES; p = strtok(NULL, ","))
		out[n++] = p;
	out[n] = NULL;
	return n;
}

/* Whether q's "lanes" holds lane. */
static int
routed_to(const json_t *q, const char *lane)
{
	size_t i;
	json_t *l;

	json_array_foreach(json_object_get(q, "lanes"), i, l)
		if (json_is_string(l) && strcmp(json_string_value(l), lane) == 0)
			return 1;
	return 0;
}

static int
blank(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return n == 0;
}

/* Read h's next hit line ahead (h->line NULL at the end).  Blank lines are
 * passed over.  Returns 0, or -1 with *err set. */
static int
hits_ahead(struct hitsrc *h, struct ev_err *err)
{
	json_t *v;
	int r;

	h->line = NULL;
	while ((r = ev_jsonl_next_line(h->in, &h->line, &h->len, err)) == 1 && blank(h->line, h->len))
		;
	if (r <= 0) {
		h->line = NULL;
		return r;
	}
	if ((v = ev_json_parse_line(h->line, h->len, ev_jsonl_where(h->in), err)) == NULL)
		return -1;
	if (ev_hit_check(v, ev_jsonl_where(h->in), err) == -1 ||
	    ev_json_id_text(json_object_get(v, "query_id"), h->qid, sizeof h->qid) == -1) {
		if (err->msg[0] == '\0')
			ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->in),
			    "field 'query_id' must be a string or an integer");
		json_decref(v);
		return -1;
	}
	json_decref(v);
	return 0;
}

/* Gather mode: for routed query q (id qid), each source's run of hits of qid,
 * written when q is routed to its lane (or, for !LANE, is not).  Adds the
 * hits written to *written.  Returns 0, or -1 with *err set. */
static int
gather(const json_t *q, const char *qid, long long *written, struct ev_err *err)
{
	int i;

	for (i = 0; i < nhits; i++) {
		struct hitsrc *h = &hits[i];
		int keep = routed_to(q, h->lane) != h->negate;

		while (h->line != NULL && strcmp(h->qid, qid) == 0) {
			if (keep) {
				if (fwrite(h->line, 1, h->len, stdout) != h->len || putchar('\n') == EOF)
					return ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "cannot write: %s",
					    strerror(errno));
				++*written;
			}
			if (hits_ahead(h, err) == -1)
				return -1;
		}
	}
	return 0;
}

/* Gather mode, at the end of the queries: a source with hits left has hits of
 * a query that is not among them, or out of their order. */
static int
gather_end(struct ev_err *err)
{
	int i;

	for (i = 0; i < nhits; i++)
		if (hits[i].line != NULL)
			return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(hits[i].in),
			    "hits of query '%s', which is not among the routed queries or comes out of "
			    "their order (each file of hits must list the queries in their order)",
			    hits[i].qid);
	return 0;
}

/* Route q, unless it holds "lanes" and "routing" already, and gate it on
 * confidence (when the plan has a gate, --gate-hits was given and q was not
 * gated already).  Returns 0, or -1 with *err set. */
static int
route(const struct ev_router *router, const struct ev_gate *gate, json_t *q, const char *where,
	struct ev_err *err)
{
	char qid[256];
	json_t *answers, *t;
	double top[2];
	long n = 0;
	int r;

	/* routed already (by an earlier run): kept, and gated once */
	if ((!json_is_array(json_object_get(q, "lanes")) || !json_is_object(json_object_get(q, "routing"))) &&
	    ev_router_route(router, q, where, err) == -1)
		return -1;
	if (ngates == 0 || json_object_get(json_object_get(q, "routing"), "gate") != NULL)
		return 0;
	if (ev_json_id_text(json_object_get(q, "query_id"), qid, sizeof qid) < 0)
		qid[0] = '\0';
	if (gate->nlanes == 0) {	/* one lane on another's confidence */
		t = json_object_get(gates[0].answers, qid);
		n = (long)json_integer_value(json_array_get(t, 0));
		top[0] = json_number_value(json_array_get(t, 1));
		top[1] = json_number_value(json_array_get(t, 2));
		return ev_router_apply_gate(router, q, n, ev_route_measure(EV_CONF_MARGIN, top,
		    n < 2 ? (int)n : 2, n), err);
	}
	if ((answers = json_object()) == NULL)
		return ev_err_nomem(err);
	for (int i = 0; i < ngates; i++) {
		t = json_object_get(gates[i].answers, qid);
		if (json_object_set_new(answers, gates[i].lane, t ? json_incref(t) : json_pack("[i]", 0)) == -1) {
			json_decref(answers);
			return ev_err_nomem(err);
		}
	}
	r = ev_router_apply_lanes_gate(router, q, answers, err);
	json_decref(answers);
	return r;
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

		if (gates[i].lane == NULL && (gates[i].lane = strdup(g->nlanes ? g->lanes[0] :
		    g->on)) == NULL)
			return ev_err_nomem(err);
		for (int k = 0; k < g->nlanes; k++)
			known |= strcmp(gates[i].lane, g->lanes[k]) == 0;
		if (g->nlanes == 0 ? strcmp(gates[i].lane, g->on) != 0 : !known)
			ev_cli_usage_error(cli, "--gate-hits: lane '%s' is not one the plan's "
			    "routing.gate weighs", gates[i].lane);
		if (g->nlanes == 0 && i > 0)
			ev_cli_usage_error(cli, "--gate-hits: the plan's gate weighs one lane ('%s'): "
			    "give its hits once", g->on);
		if ((gates[i].answers = ev_route_read_answers(gates[i].path, err)) == NULL)
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
	argi = ev_opt_parse(&cli, &command, options);
	skip.on = skip_invalid;
	if (split_lanes(default_lanes, fbuf, sizeof fbuf, fallback) == 0)
		ev_cli_usage_error(&cli, "--default takes one or more lanes, separated by commas");
	if (known_lanes != NULL && split_lanes(known_lanes, kbuf, sizeof kbuf, known) == 0)
		ev_cli_usage_error(&cli, "--known takes one or more lanes, separated by commas");
	if (nhits > 0 && (ngates > 0 || select_lane != NULL))
		ev_cli_usage_error(&cli, "--hits gathers the hits of queries routed already: "
		    "give --gate-hits and --lane to the run that routes them");

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
	for (i = 0; i < nhits; i++)
		if ((hits[i].in = ev_jsonl_open(&hits[i].path, 1, &err)) == NULL ||
		    hits_ahead(&hits[i], &err) == -1) {
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
		if (q != NULL && nhits > 0) {
			/* gather: the records say their lanes; a bad one stops the run */
			nq++;
			if (!json_is_array(json_object_get(q, "lanes")))
				ev_err_set(&err, EV_EXIT_USAGE, ev_jsonl_where(in),
				    "query without 'lanes': --hits reads queries routed by ev-route");
			else if (ev_json_id_text(json_object_get(q, "query_id"), qid, sizeof qid) == -1)
				ev_err_set(&err, EV_EXIT_USAGE, ev_jsonl_where(in),
				    "field 'query_id' must be a string or an integer");
			else if (gather(q, qid, &nwritten_hits, &err) == 0) {
				json_decref(q);
				continue;
			}
			json_decref(q);
			r = -1;
			break;
		}
		if (q == NULL || route(router, &gate, q, ev_jsonl_where(in), &err) == -1) {
			json_decref(q);
			if (ev_cli_skip(&skip, &err))
				continue;
			r = -1;
			break;
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
	if (r == 0 && nhits > 0 && gather_end(&err) == -1)
		r = -1;
	rc = ev_cli_loop_end(&cli, &skip, r, &err);
out:
	ev_cli_count(&cli, "queries", nq);
	ev_cli_count(&cli, nhits > 0 ? "hits" : "written", nhits > 0 ? nwritten_hits : written);
	for (i = 0; i < nhits; i++) {
		ev_jsonl_close(hits[i].in);
		free((char *)hits[i].lane);
		free(hits[i].path);
	}
	ev_jsonl_close(in);
	ev_router_free(router);
	for (i = 0; i < ngates; i++) {
		free(gates[i].lane);
		free(gates[i].path);
		json_decref(gates[i].answers);
	}
	return ev_cli_finish(&cli, rc);
}
