/* rerankfit.c: coordinate ascent over the reranker's weights, with k-fold
 * cross-validation.  See rerankfit.h. */
#include "rerankfit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "child.h"
#include "hitcheck.h"
#include "jsonl.h"

#define MAX_ROUNDS	10

struct cand {
	char *doc;
	double f[EV_RF_COUNT];
	int reranked;
	double score;
	size_t order;
};

struct query {
	char *qid;		/* of any length (owned) */
	struct cand *c;
	size_t n, cap;
};

struct ev_rerank_set {
	struct query *q;
	size_t nq, capq;
	json_t *seen;		/* query ids met, so that a split query is caught */
	struct ev_buf qid, doc;	/* a hit's query_id and doc_id as text (scratch) */
};

struct ev_rerank_set *
ev_rerank_set_new(struct ev_err *err)
{
	struct ev_rerank_set *s = calloc(1, sizeof *s);

	if (s == NULL || (s->seen = json_object()) == NULL) {
		free(s);
		ev_err_nomem(err);
		return NULL;
	}
	return s;
}

void
ev_rerank_set_free(struct ev_rerank_set *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nq; i++) {
		for (size_t j = 0; j < s->q[i].n; j++)
			free(s->q[i].c[j].doc);
		free(s->q[i].c);
		free(s->q[i].qid);
	}
	free(s->q);
	json_decref(s->seen);
	ev_buf_release(&s->qid);
	ev_buf_release(&s->doc);
	free(s);
}

/* Every feature of a reranked hit's explain.rerank.features feat into
 * f[0..EV_RF_COUNT), each a number (none may lack: the fit would take it
 * for 0).  Returns 0, or -1 with *err set (code 2 naming where). */
static int
read_features(const json_t *feat, double *f, const char *where, struct ev_err *err)
{
	for (int i = 0; i < EV_RF_COUNT; i++) {
		const json_t *v = json_object_get(feat, ev_rerank_feature_names[i]);

		if (v == NULL)
			return ev_err_set(err, EV_EXIT_USAGE, where, "explain.rerank.features lacks"
			    " feature '%s' (give ev-tune --rerank the hits ev-rerank writes, each"
			    " with every feature)", ev_rerank_feature_names[i]);
		if (!json_is_number(v))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "feature '%s' must be a number", ev_rerank_feature_names[i]);
		f[i] = json_number_value(v);
	}
	return 0;
}

int
ev_rerank_set_add(struct ev_rerank_set *s, const json_t *hit, const char *where,
    struct ev_err *err)
{
	const json_t *rr = json_object_get(json_object_get(hit, "explain"), "rerank");
	const json_t *feat = json_object_get(rr, "features"), *doc = json_object_get(hit, "doc_id");
	const char *qid;
	double f[EV_RF_COUNT] = { 0 };
	struct query *q;
	struct cand *c;
	int r;

	if ((r = ev_json_id_buf(json_object_get(hit, "query_id"), &s->qid)) == -1)
		return ev_err_query_id(err, where);
	if (r == -2 || (r = ev_json_id_buf(doc, &s->doc)) == -2)
		return ev_err_nomem(err);
	if (r == -1)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'doc_id' must be a string or an integer");
	qid = ev_buf_str(&s->qid);
	if (!json_is_object(feat) && !json_is_false(json_object_get(rr, "reranked")))
		return ev_err_set(err, EV_EXIT_USAGE, where, "a hit without explain.rerank.features "
		    "(give ev-tune --rerank the hits ev-rerank writes, with its built-in model)");
	if (json_is_object(feat) && read_features(feat, f, where, err) == -1)
		return -1;
	if (s->nq == 0 || strcmp(s->q[s->nq - 1].qid, qid) != 0) {
		if (json_object_get(s->seen, qid) != NULL)
			return ev_err_set(err, EV_EXIT_USAGE, where, "the hits of query '%s' are not "
			    "together (ev-rerank writes each query's hits together)", qid);
		if (json_object_set_new(s->seen, qid, json_true()) == -1 ||
		    ev_grow(&s->q, &s->capq, s->nq, sizeof *s->q, 64) == -1)
			return ev_err_nomem(err);
		memset(&s->q[s->nq], 0, sizeof *s->q);
		if ((s->q[s->nq].qid = strdup(qid)) == NULL)
			return ev_err_nomem(err);
		s->nq++;
	}
	q = &s->q[s->nq - 1];
	if (ev_grow(&q->c, &q->cap, q->n, sizeof *q->c, 64) == -1)
		return ev_err_nomem(err);
	c = &q->c[q->n];
	memset(c, 0, sizeof *c);
	c->order = q->n;
	if ((c->doc = strdup(ev_buf_str(&s->doc))) == NULL)
		return ev_err_nomem(err);
	q->n++;
	c->reranked = json_is_object(feat);
	memcpy(c->f, f, sizeof f);
	return 0;
}

/* ---------------------------------------------------------------- judging */

struct fit {
	struct ev_rerank_set *s;
	const struct ev_qrels *qrels;
	const struct ev_tune_opts *o;
	char metric[64];
	size_t *judged;		/* indices of the judged queries */
	size_t nj;
	json_t *index;		/* qid -> position in judged */
	double *fig;		/* per judged query, the last judgement */
	long long evaluations;
	double deadline;	/* seconds, monotonic; 0: none */
	int budget_hit;
};

static double
now_s(void)
{
	return ev_child_now_ms() / 1000;
}

static int
cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->reranked != y->reranked)
		return x->reranked ? -1 : 1;
	if (x->reranked && x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static int
take_figure(const char *qid, const struct ev_eval_figures *f, void *ctx, struct ev_err *err)
{
	struct fit *F = ctx;
	json_t *i = json_object_get(F->index, qid);
	double v = 0;

	(void)err;
	if (i != NULL && ev_eval_metric(f, &F->o->eval, F->metric, &v) == 0)
		F->fig[json_integer_value(i)] = v;
	return 0;
}

/* Judge weights w on the judged queries whose fold is not `held` (-1: all;
 * with only set, only those of fold `held`): F->fig gets each one's figure.
 * Returns the mean over them, or NAN with *err set. */
static double
judge(struct fit *F, const double *w, const int *fold, int held, int only, struct ev_err *err)
{
	struct ev_run *run = ev_run_new(err);
	struct ev_eval_summary sum;
	double total = 0;
	size_t i, j, n = 0;

	if (run == NULL)
		return NAN;
	for (i = 0; i < F->nj; i++) {
		struct query *q = &F->s->q[F->judged[i]];

		if (held >= 0 && (only ? fold[i] != held : fold[i] == held))
			continue;
		for (j = 0; j < q->n; j++)
			q->c[j].score = ev_rerank_combine(w, q->c[j].f);
		qsort(q->c, q->n, sizeof *q->c, cand_cmp);
		for (j = 0; j < q->n; j++)
			if (ev_run_add(run, q->qid, q->c[j].doc, 1, (double)j + 1, 0, 0, NULL, err) == -1)
				goto fail;
	}
	if (ev_eval_measure(F->qrels, run, &F->o->eval, take_figure, F, &sum, err) == -1)
		goto fail;
	ev_run_free(run);
	for (i = 0; i < F->nj; i++)
		if (held < 0 || (only ? fold[i] == held : fold[i] != held)) {
			total += F->fig[i];
			n++;
		}
	F->evaluations++;
	return n ? total / (double)n : 0;
fail:
	ev_run_free(run);
	return NAN;
}

/* Coordinate ascent from w (changed in place) on the queries not in fold
 * held (-1: all).  Returns 0, or -1 with *err set. */
static int
ascend(struct fit *F, double *w, const int *fold, int held, struct ev_err *err)
{
	static const double steps[] = { 0.02, -0.02, 0.05, -0.05, 0.1, -0.1, 0.2, -0.2, 0.5, -0.5 };
	double best = judge(F, w, fold, held, 0, err);

	if (isnan(best))
		return -1;
	for (int pass = 0; pass < MAX_ROUNDS; pass++) {
		int moved = 0;

		for (int i = 0; i < EV_RF_COUNT; i++) {
			if (i == EV_RF_INCOMING)
				continue;
			for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
				double keep = w[i], v;

				if (F->deadline > 0 && now_s() > F->deadline) {
					F->budget_hit = 1;
					return 0;
				}
				w[i] = round(1e6 * (keep + steps[k])) / 1e6;
				if (isnan(v = judge(F, w, fold, held, 0, err)))
					return -1;
				if (v > best + 1e-9) {
					best = v;
					moved = 1;
				} else
					w[i] = keep;
			}
		}
		if (!moved)
			break;
	}
	return 0;
}

static int
collect_judged(const char *qid, const struct ev_eval_figures *f, void *ctx, struct ev_err *err)
{
	(void)f;
	return json_object_set_new(ctx, qid, json_true()) == -1 ? ev_err_nomem(err) : 0;
}

int
ev_rerank_fit(struct ev_rerank_set *s, const struct ev_qrels *q, const struct ev_tune_opts *o,
    const double *start, struct ev_rerank_fitted *out, size_t *unjudged, struct ev_err *err)
{
	struct fit F = { s, q, o, "", NULL, 0, NULL, NULL, 0, 0, 0 };
	struct ev_run *empty = ev_run_new(err);
	struct ev_eval_summary sum;
	json_t *judged = json_object();
	int *fold = NULL, k, rc = -1;
	size_t i;
	double t_sum = 0, s_sum = 0;

	memset(out, 0, sizeof *out);
	*unjudged = 0;
	ev_tune_metric_name(o, F.metric, sizeof F.metric);
	F.deadline = o->budget > 0 ? now_s() + o->budget : 0;
	if (empty == NULL || judged == NULL || (F.index = json_object()) == NULL ||
	    (F.judged = calloc(s->nq + 1, sizeof *F.judged)) == NULL ||
	    (F.fig = calloc(s->nq + 1, sizeof *F.fig)) == NULL ||
	    (fold = calloc(s->nq + 1, sizeof *fold)) == NULL) {
		if (empty != NULL)
			ev_err_nomem(err);
		goto out;
	}
	/* the queries the qrels judge */
	if (ev_eval_measure(q, empty, &o->eval, collect_judged, judged, &sum, err) == -1)
		goto out;
	for (i = 0; i < s->nq; i++) {
		if (json_object_get(judged, s->q[i].qid) == NULL) {
			(*unjudged)++;
			continue;
		}
		if (json_object_set_new(F.index, s->q[i].qid, json_integer((json_int_t)F.nj)) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		F.judged[F.nj++] = i;
	}
	if (F.nj < 2) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "%zu judged quer%s: fitting needs at least two",
		    F.nj, F.nj == 1 ? "y" : "ies");
		goto out;
	}
	k = o->folds < (int)F.nj ? o->folds : (int)F.nj;
	ev_tune_folds(F.nj, k, o->seed, fold);
	out->queries = F.nj;
	out->folds = k;
	for (int f = 0; f < k; f++) {
		double w[EV_RF_COUNT];
		size_t n = 0;

		memcpy(w, start, sizeof w);
		if (ascend(&F, w, fold, f, err) == -1 || isnan(judge(&F, w, fold, f, 1, err)))
			goto out;
		out->fold_tuned[f] = 0;
		for (i = 0; i < F.nj; i++)
			if (fold[i] == f) {
				out->fold_tuned[f] += F.fig[i];
				n++;
			}
		if (isnan(judge(&F, start, fold, f, 1, err)))
			goto out;
		out->fold_start[f] = 0;
		for (i = 0; i < F.nj; i++)
			if (fold[i] == f)
				out->fold_start[f] += F.fig[i];
		t_sum += out->fold_tuned[f];
		s_sum += out->fold_start[f];
		out->fold_tuned[f] /= n ? (double)n : 1;
		out->fold_start[f] /= n ? (double)n : 1;
	}
	out->tuned = t_sum / (double)F.nj;
	out->start = s_sum / (double)F.nj;
	memcpy(out->w, start, sizeof out->w);
	if (ascend(&F, out->w, fold, -1, err) == -1)
		goto out;
	out->evaluations = F.evaluations;
	out->budget_hit = F.budget_hit;
	rc = 0;
out:
	ev_run_free(empty);
	json_decref(judged);
	json_decref(F.index);
	free(F.judged);
	free(F.fig);
	free(fold);
	return rc;
}

int
ev_rerank_fit_report(struct ev_buf *b, const char *pre, const struct ev_tune_opts *o,
    const char *qrels, const struct ev_rerank_fitted *r)
{
	char m[64];
	int bad = 0;

	ev_tune_metric_name(o, m, sizeof m);
	bad |= ev_buf_printf(b, "%sreranker weights fitted on %zu queries judged in %s, %d folds, "
	    "seed %llu:\n", pre, r->queries, qrels, r->folds, (unsigned long long)o->seed);
	bad |= ev_buf_printf(b, "%s%s %.4f cross-validated, against %.4f for the starting weights "
	    "on the same folds (%+.1f %%)\n%sper fold, fitted/starting:", pre, m, r->tuned, r->start,
	    r->start > 0 ? 100 * (r->tuned / r->start - 1) : 0.0, pre);
	for (int f = 0; f < r->folds; f++)
		bad |= ev_buf_printf(b, " %.4f/%.4f", r->fold_tuned[f], r->fold_start[f]);
	bad |= ev_buf_printf(b, "\n%s%lld weight vectors judged%s\n", pre, r->evaluations,
	    r->budget_hit ? " (the budget ran out)" : "");
	return bad ? -1 : 0;
}

/* The weights hit (read at where) was reranked with, its
 * rerank.config.weights, else the shipped ones, into w.  Returns 0, or -1
 * with *err set (code 2) when one of those fields is of the wrong type: the
 * figure would be judged against other weights than the hits' unsaid. */
static int
start_weights(const json_t *hit, double *w, const char *where, struct ev_err *err)
{
	static const char *const path[] = { "rerank", "rerank.config", "rerank.config.weights" };
	const json_t *ws = hit, *v;
	struct ev_rerank_opts d;
	const char *name;

	ev_rerank_opts_init(&d);
	memcpy(w, d.w, sizeof d.w);
	for (int k = 0; k < 3 && ws != NULL; k++) {
		ws = json_object_get(ws, strrchr(path[k], '.') ? strrchr(path[k], '.') + 1 : path[k]);
		if (ws != NULL && !json_is_null(ws) && !json_is_object(ws))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field '%s' must be an object",
			    path[k]);
	}
	json_object_foreach((json_t *)ws, name, v) {
		int i = ev_rerank_feature_index(name, strlen(name));

		if (i >= 0 && !json_is_number(v))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field '%s.%s' must be a number",
			    path[2], name);
		if (i >= 0)
			w[i] = json_number_value(v);
	}
	return 0;
}

/* Append the fitted weights as a plan to b: plan with its rerank.weights
 * replaced, or a plan of the rerank section alone.  Returns 0 or -1. */
static int
rerank_plan(struct ev_buf *b, const json_t *plan, const double *w, struct ev_err *err)
{
	json_t *ws = json_object(), *rr = NULL;
	json_t *doc = plan != NULL ? json_deep_copy(plan) : json_object();
	int i, r = -1;

	for (i = 0; ws != NULL && i < EV_RF_COUNT; i++)
		if (json_object_set_new(ws, ev_rerank_feature_names[i],
		    json_real(round(w[i] * 1e6) / 1e6)) == -1)
			goto out;
	if (ws == NULL || doc == NULL)
		goto out;
	if (!json_is_object(rr = json_object_get(doc, "rerank")) &&
	    ((rr = json_object()) == NULL || json_object_set_new(doc, "rerank", rr) == -1))
		goto out;
	if (json_object_set(rr, "weights", ws) == -1 || ev_tune_yaml_write(b, doc) == -1)
		goto out;
	r = 0;
out:
	json_decref(ws);
	json_decref(doc);
	return r == 0 ? 0 : ev_err_nomem(err);
}

int
ev_rerank_fit_hits(struct ev_jsonl *in, const struct ev_qrels *qrels, const char *qrels_name,
    const json_t *plan, const struct ev_tune_opts *o, struct ev_buf *out, struct ev_buf *note,
    size_t *unjudged, struct ev_err *err)
{
	struct ev_rerank_set *set = ev_rerank_set_new(err);
	struct ev_rerank_fitted fit;
	double start[EV_RF_COUNT];
	int r = -1, first = 1;
	json_t *v;

	while (set != NULL && (r = ev_jsonl_next(in, &v, err)) == 1) {
		r = ev_hit_check(v, ev_jsonl_where(in), err) == -1 ||
		    (first && start_weights(v, start, ev_jsonl_where(in), err) == -1) ? -1 :
		    ev_rerank_set_add(set, v, ev_jsonl_where(in), err);
		first = 0;
		json_decref(v);
		if (r == -1)
			break;
	}
	if (r == 0 && first)
		r = ev_err_set(err, EV_EXIT_USAGE, NULL, "no hits to fit the reranker to (give the "
		    "hits ev-rerank writes)");
	else if (r == 0)
		r = ev_rerank_fit(set, qrels, o, start, &fit, unjudged, err);
	ev_rerank_set_free(set);
	if (r == -1)
		return -1;
	if (ev_rerank_fit_report(note, "ev-tune: ", o, qrels_name, &fit) == -1 ||
	    ev_buf_adds(out, "# The reranker's weights, fitted by ev-tune --rerank.\n") == -1 ||
	    ev_rerank_fit_report(out, "# ", o, qrels_name, &fit) == -1)
		return ev_err_nomem(err);
	return rerank_plan(out, plan, fit.w, err);
}
