/* summary.c: the axes of a score, their gates and their distribution.  See
 * summary.h. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "jsonl.h"

const char *const ev_axis_name[EV_NAXES] = { "faithfulness", "coverage", "redundancy", "overall" };

/* A gate's comparison, as the summary writes it: what passes. */
#define PASSES(a)	((a) == EV_AX_REDUNDANCY ? "<=" : ">=")

int
ev_gates_check(const struct ev_gates *g, const double *axes, int *failed)
{
	int a, any = 0;

	for (a = 0; a < EV_NAXES; a++) {
		failed[a] = g->set[a] && (a == EV_AX_REDUNDANCY ? axes[a] > g->bound[a] :
		    axes[a] < g->bound[a]);
		any |= failed[a];
	}
	return any;
}

int
ev_gates_count(struct ev_gates *g, const int *failed, json_t *id, struct ev_err *err)
{
	int a;

	g->failed_items++;
	for (a = 0; a < EV_NAXES; a++) {
		if (!failed[a] || g->below[a]++ >= EV_SUMMARY_IDS)
			continue;
		if (g->ids[a] == NULL && (g->ids[a] = json_array()) == NULL)
			return ev_err_nomem(err);
		if (json_array_append(g->ids[a], id) == -1)
			return ev_err_nomem(err);
	}
	return 0;
}

const char *
ev_gates_text(const struct ev_gates *g, const double *axes, const int *failed, char *buf,
    size_t size)
{
	size_t n = 0;
	int a;

	buf[0] = '\0';
	for (a = 0; a < EV_NAXES; a++)
		if (failed[a] && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s %.4g %s %g", n ? ", " : "",
			    ev_axis_name[a], axes[a], a == EV_AX_REDUNDANCY ? ">" : "<", g->bound[a]);
	return buf;
}

void
ev_gates_release(struct ev_gates *g)
{
	int a;

	for (a = 0; a < EV_NAXES; a++) {
		json_decref(g->ids[a]);
		g->ids[a] = NULL;
	}
}

int
ev_summary_add(struct ev_summary *s, const double *axes, struct ev_err *err)
{
	double *p;
	size_t cap;

	if (s->n == s->cap) {
		cap = s->cap ? s->cap * 2 : 256;
		if ((p = realloc(s->v, cap * EV_NAXES * sizeof(*p))) == NULL)
			return ev_err_nomem(err);
		s->v = p;
		s->cap = cap;
	}
	memcpy(s->v + s->n * EV_NAXES, axes, EV_NAXES * sizeof(*axes));
	s->n++;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
ev_quantile(const double *v, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (n == 0)
		return 0;
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + frac * (v[lo + 1] - v[lo]);
}

/* The mean, p10, p50 and p90 of axis a, into f[4]; col has room for s->n. */
static void
axis_figures(const struct ev_summary *s, int a, double *col, double *f)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		col[i] = s->v[i * EV_NAXES + a];
		sum += col[i];
	}
	qsort(col, s->n, sizeof(*col), cmp_double);
	f[0] = s->n > 0 ? sum / (double)s->n : 0;
	f[1] = ev_quantile(col, s->n, 0.1);
	f[2] = ev_quantile(col, s->n, 0.5);
	f[3] = ev_quantile(col, s->n, 0.9);
}

int
ev_summary_text(FILE *fp, const char *prefix, const struct ev_summary *s,
    const struct ev_gates *g, struct ev_err *err)
{
	struct ev_buf id = EV_BUF_INIT;
	double *col, f[4];
	int a;

	if ((col = malloc((s->n + 1) * sizeof(*col))) == NULL)
		return ev_err_nomem(err);
	fprintf(fp, "%ssummary of %zu item%s\n", prefix, s->n, s->n == 1 ? "" : "s");
	fprintf(fp, "%-13s %7s %7s %7s %7s  %-9s %s\n", "axis", "mean", "p10", "p50", "p90", "gate",
	    "failed");
	for (a = 0; a < EV_NAXES; a++) {
		char gate[32] = "-", nfail[24] = "-";

		axis_figures(s, a, col, f);
		if (g->set[a]) {
			snprintf(gate, sizeof(gate), "%s %g", PASSES(a), g->bound[a]);
			snprintf(nfail, sizeof(nfail), "%lld", g->below[a]);
		}
		if (s->n == 0)	/* (no item: no mean, nor any percentile) */
			fprintf(fp, "%-13s %7s %7s %7s %7s  %-9s %s\n", ev_axis_name[a], "-", "-",
			    "-", "-", gate, nfail);
		else
			fprintf(fp, "%-13s %7.4f %7.4f %7.4f %7.4f  %-9s %s\n", ev_axis_name[a],
			    f[0], f[1], f[2], f[3], gate, nfail);
	}
	free(col);
	/* Name each failing axis and its items, so that a CI log says what
	 * failed without reading the table. */
	for (a = 0; a < EV_NAXES; a++) {
		long long k;

		if (!g->set[a] || g->below[a] == 0)
			continue;
		fprintf(fp, "%sFAILED %s %s %g: %lld of %zu item%s:", prefix, ev_axis_name[a],
		    PASSES(a), g->bound[a], g->below[a], s->n, s->n == 1 ? "" : "s");
		for (k = 0; k < g->below[a] && k < EV_SUMMARY_IDS; k++) {
			int r = ev_json_id_buf(json_array_get(g->ids[a], (size_t)k), &id);

			if (r == -2) {
				ev_buf_release(&id);
				return ev_err_nomem(err);
			}
			fprintf(fp, "%s %s", k ? "," : "", r == 0 ? ev_buf_str(&id) : "?");
		}
		if (g->below[a] > EV_SUMMARY_IDS)
			fprintf(fp, ", ... and %lld more", g->below[a] - EV_SUMMARY_IDS);
		fputc('\n', fp);
	}
	ev_buf_release(&id);
	return 0;
}

int
ev_summary_json(FILE *fp, const struct ev_summary *s, const struct ev_gates *g, struct ev_err *err)
{
	double *col, f[4];
	json_t *sum, *ax;
	int a, r, bad = 0;	/* sticky: an insertion failed (each takes its value) */

	if ((col = malloc((s->n + 1) * sizeof(*col))) == NULL || (sum = json_object()) == NULL) {
		free(col);
		return ev_err_nomem(err);
	}
	bad |= json_object_set_new(sum, "items", json_integer((json_int_t)s->n));
	for (a = 0; a < EV_NAXES; a++) {
		axis_figures(s, a, col, f);
		ax = s->n == 0 ? json_pack("{s:n,s:n,s:n,s:n}", "mean", "p10", "p50", "p90") :
		    json_pack("{s:f,s:f,s:f,s:f}", "mean", f[0], "p10", f[1], "p50", f[2], "p90", f[3]);
		if (ax != NULL && g->set[a]) {
			bad |= json_object_set_new(ax, a == EV_AX_REDUNDANCY ? "max" : "min",
			    json_real(g->bound[a]));
			bad |= json_object_set_new(ax, "failed", json_integer(g->below[a]));
			bad |= json_object_set_new(ax, "failed_ids",
			    g->ids[a] != NULL ? json_incref(g->ids[a]) : json_array());
		}
		bad |= json_object_set_new(sum, ev_axis_name[a], ax);
	}
	free(col);
	bad |= json_object_set_new(sum, "gates", json_pack("{s:I}", "failed_items",
	    (json_int_t)g->failed_items));
	ax = json_pack("{s:o}", "summary", sum);	/* takes sum */
	r = ax != NULL && !bad ? ev_jsonl_write(fp, ax, err) : ev_err_nomem(err);
	json_decref(ax);
	return r;
}

void
ev_summary_release(struct ev_summary *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}
