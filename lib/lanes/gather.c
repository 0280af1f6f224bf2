/* gather.c: the hits of routed queries, gathered lane by lane.  See gather.h. */
#include "gather.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitcheck.h"
#include "plan.h"

int
ev_gather_add(struct ev_gather *g, const char *spec)
{
	struct ev_gather_src *h = &g->src[g->n];
	const char *eq = strchr(spec, '=');
	int negate = spec[0] == '!';

	if (g->n == EV_GATHER_MAX)
		return -2;
	if (eq == NULL || eq == spec + negate || eq[1] == '\0')
		return -1;
	memset(h, 0, sizeof *h);
	h->negate = negate;
	if ((h->lane = strndup(spec + negate, (size_t)(eq - spec - negate))) == NULL ||
	    (h->path = strdup(eq + 1)) == NULL) {
		free(h->lane);
		return -3;
	}
	if (!ev_plan_lane_name_ok(h->lane)) {
		free(h->lane);
		free(h->path);
		return -1;
	}
	g->n++;
	return 0;
}

int
ev_routed_to(const json_t *q, const char *lane)
{
	size_t i;
	json_t *l;

	json_array_foreach(json_object_get(q, "lanes"), i, l)
		if (json_is_string(l) && strcmp(json_string_value(l), lane) == 0)
			return 1;
	return 0;
}

int
ev_routed_check(const json_t *q, const char *where, struct ev_err *err)
{
	const json_t *lanes = json_object_get(q, "lanes"), *l;
	size_t i;

	if (lanes == NULL || json_is_null(lanes))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "query without 'lanes': --hits reads queries routed by ev-route");
	/* the gate and --lane compare each lane by name: a number there would be
	 * read as no string at all, a name no lane has as no lane */
	for (i = 0; i < json_array_size(lanes) && json_is_string(l = json_array_get(lanes, i)) &&
	    ev_plan_lane_name_ok(json_string_value(l)); i++)
		;
	if (!json_is_array(lanes) || i < json_array_size(lanes))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'lanes' must be a list of lane"
		    " names (" EV_PLAN_LANE_RULE "); delete 'lanes' and 'routing' to route the"
		    " query anew");
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
hits_ahead(struct ev_gather_src *h, struct ev_err *err)
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
	    (r = ev_json_id_buf(json_object_get(v, "query_id"), &h->qid)) < 0) {
		if (r == -2)
			ev_err_nomem(err);
		else if (err->msg[0] == '\0')
			ev_err_query_id(err, ev_jsonl_where(h->in));
		json_decref(v);
		return -1;
	}
	json_decref(v);
	return 0;
}

int
ev_gather_stdin_once(const struct ev_gather *g, char *const *gate_lanes, char *const *gates,
    int ngates, char *const *ops, int nops, struct ev_err *err)
{
	char first[160] = "", name[sizeof first];
	int any = nops == 0;

	for (int k = 0; k < nops; k++)
		any |= strcmp(ops[k], "-") == 0;
	for (int i = 0; i <= g->n + ngates; i++) {
		const char *p = i < g->n ? g->src[i].path : i < g->n + ngates ? gates[i - g->n] : NULL;

		if (p == NULL ? !any : strcmp(p, "-") != 0)
			continue;
		if (i < g->n)
			snprintf(name, sizeof name, "--hits %s%s=-", g->src[i].negate ? "!" : "",
			    g->src[i].lane);
		else if (p == NULL)
			snprintf(name, sizeof name, "the query records");
		else
			snprintf(name, sizeof name, "--gate-hits %s%s-", gate_lanes[i - g->n] ?
			    gate_lanes[i - g->n] : "", gate_lanes[i - g->n] ? "=" : "");
		if (first[0] != '\0')
			return ev_err_set(err, EV_EXIT_USAGE, NULL, "%s and %s both read standard input, "
			    "which can be read only once: save one of them to a file", first, name);
		memcpy(first, name, sizeof name);
	}
	return 0;
}

int
ev_gather_open(struct ev_gather *g, struct ev_err *err)
{
	for (int i = 0; i < g->n; i++)
		if ((g->src[i].in = ev_jsonl_open(&g->src[i].path, 1, err)) == NULL ||
		    hits_ahead(&g->src[i], err) == -1)
			return -1;
	return 0;
}

int
ev_gather_query(struct ev_gather *g, const json_t *q, const char *where, FILE *out,
    long long *written, struct ev_err *err)
{
	struct ev_buf id = EV_BUF_INIT;
	const char *qid;
	int r;

	if (ev_routed_check(q, where, err) == -1)
		return -1;
	if ((r = ev_json_id_buf(json_object_get(q, "query_id"), &id)) < 0)
		return r == -2 ? ev_err_nomem(err) : ev_err_query_id(err, where);
	qid = ev_buf_str(&id);
	r = 0;
	for (int i = 0; i < g->n; i++) {
		struct ev_gather_src *h = &g->src[i];
		int keep = ev_routed_to(q, h->lane) != h->negate;

		while (r == 0 && h->line != NULL && strcmp(ev_buf_str(&h->qid), qid) == 0) {
			if (keep && (fwrite(h->line, 1, h->len, out) != h->len ||
			    putc('\n', out) == EOF))
				r = ev_err_set(err, EV_EXIT_RUNTIME, "stdout", "cannot write: %s",
				    strerror(errno));
			else if (keep)
				++*written;
			if (r == 0)
				r = hits_ahead(h, err);
		}
	}
	ev_buf_release(&id);
	return r;
}

int
ev_gather_end(const struct ev_gather *g, struct ev_err *err)
{
	for (int i = 0; i < g->n; i++)
		if (g->src[i].line != NULL)
			return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(g->src[i].in),
			    "hits of query '%s', which is not among the routed queries or comes out of "
			    "their order (each file of hits must list the queries in their order)",
			    ev_buf_str(&g->src[i].qid));
	return 0;
}

void
ev_gather_close(struct ev_gather *g)
{
	for (int i = 0; i < g->n; i++) {
		ev_jsonl_close(g->src[i].in);
		free(g->src[i].lane);
		free(g->src[i].path);
		ev_buf_release(&g->src[i].qid);
	}
	g->n = 0;
}
