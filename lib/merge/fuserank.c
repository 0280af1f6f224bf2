/* fuserank.c: fusing one query's candidates: their lanes' scores normalised,
 * weighed (adaptive weights too) and summed, and the candidates sorted.  See
 * fuserank.h. */
#include "fuserank.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct ev_fuse *sort_f;	/* qsort has no context argument in C11 */
static int sort_lane;

static int
cmp_lane_rank(const void *a, const void *b)
{
	const struct cand *x = sort_f->c + *(const size_t *)a, *y = sort_f->c + *(const size_t *)b;
	long long rx = x->rank[sort_lane], ry = y->rank[sort_lane];

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Lane ln's score s normalised by norm. */
static double
normalise(const struct lane *ln, enum ev_fuse_norm norm, double s)
{
	switch (norm) {
	case EV_NORM_MAX:
		return s / (ln->max > 1.0 ? ln->max : 1.0);
	case EV_NORM_MINMAX:
		if (!(ln->max > ln->min))
			return 1.0;
		if (isfinite(ln->max - ln->min))
			return (s - ln->min) / (ln->max - ln->min);
		/* a range wider than a double holds: halved, exactly, so no inf/inf */
		return (s / 2 - ln->min / 2) / (ln->max / 2 - ln->min / 2);
	case EV_NORM_ZSCORE:
		if (!(ln->sd > 0))
			return 0.0;
		if (isfinite(s - ln->mean))
			return (s - ln->mean) / ln->sd;
		return (s / 2 - ln->mean / 2) / (ln->sd / 2);
	default:
		return s;
	}
}

/* Grouping by document: each lane ranks the documents by their best chunk,
 * 1, 2, 3 ... */
int
ev_fuse_rerank_docs(struct ev_fuse *f, struct ev_err *err)
{
	size_t *ix = malloc((f->nc ? f->nc : 1) * sizeof *ix), i, n;
	int l;

	if (ix == NULL)
		return ev_err_nomem(err);
	sort_f = f;
	for (l = 0; l < f->nlanes; l++) {
		for (i = n = 0; i < f->nc; i++)
			if (f->c[i].hit[l] >= 0)
				ix[n++] = i;
		sort_lane = l;
		qsort(ix, n, sizeof *ix, cmp_lane_rank);
		for (i = 0; i < n; i++)
			f->c[ix[i]].rank[l] = (long long)i + 1;
	}
	free(ix);
	return 0;
}

/* Lane l's mean and deviation again, for when their plain sums overflowed
 * (scores near the largest double): each score scaled by the largest
 * magnitude K first, so that no sum leaves the range of a double; the mean is
 * then the sum of s/n and the deviation K times that of the scaled scores,
 * both finite, as the true figures lie within [min, max] and below K. */
static void
lane_stats_scaled(struct ev_fuse *f, struct lane *ln, int l)
{
	double k = fmax(fabs(ln->max), fabs(ln->min)), mean = 0, var = 0, d;
	size_t i;

	for (i = 0; i < f->nc; i++)
		if (f->c[i].hit[l] >= 0)
			mean += f->c[i].score[l] / (double)ln->n;
	for (i = 0; i < f->nc; i++)
		if (f->c[i].hit[l] >= 0) {
			d = f->c[i].score[l] / k - mean / k;
			var += d * d;
		}
	ln->mean = mean;
	ln->sd = k * sqrt(var / (double)ln->n);
}

void
ev_fuse_lane_stats(struct ev_fuse *f, enum ev_fuse_norm norm)
{
	struct lane *ln;
	size_t i;
	double s, var;
	int l;

	for (l = 0; l < f->nlanes; l++) {
		ln = &f->lanes[l];
		ln->n = 0;
		ln->mean = var = 0;
		for (i = 0; i < f->nc; i++) {
			if (f->c[i].hit[l] < 0)
				continue;
			s = f->c[i].score[l];
			if (ln->n == 0 || s > ln->max)
				ln->max = s;
			if (ln->n == 0 || s < ln->min)
				ln->min = s;
			ln->n++;
			ln->mean += s;
		}
		if (ln->n > 0)
			ln->mean /= (double)ln->n;
		for (i = 0; i < f->nc; i++)
			if (f->c[i].hit[l] >= 0) {
				s = f->c[i].score[l] - ln->mean;
				var += s * s;
			}
		ln->sd = ln->n > 0 ? sqrt(var / (double)ln->n) : 0;
		if (ln->n > 0 && (!isfinite(ln->mean) || !isfinite(ln->sd)))
			lane_stats_scaled(f, ln, l);
		ln->floor = 0;
		if (norm == EV_NORM_ZSCORE && ln->sd > 0)
			ln->floor = normalise(ln, norm, ln->min);
		ln->floor_zero = 0;
		if (ln->floor_rule == EV_FLOOR_ZERO && ln->n > 0 && f->o.method != EV_FUSE_RRF &&
		    ln->max > ln->min) {
			double zero = normalise(ln, norm, 0.0);

			if (zero < ln->floor) {
				ln->floor = zero;
				ln->floor_zero = 1;
			}
		}
	}
}

/* The document of candidate c as lane l found it: its doc_id, else its id. */
static const char *
cand_doc(const struct ev_fuse *f, const struct cand *c, int l)
{
	const struct rhit *h = &f->hits[c->hit[l]];

	return h->doc != NULL ? h->doc : h->id;
}

/* The first (at most) depth distinct documents of lane l, best first, into
 * m (emptied first); ix has room for every candidate.  With tally set,
 * *shared counts those also in tally.  Returns how many, or -1 when out of
 * memory. */
static long
first_docs(struct ev_fuse *f, int l, size_t *ix, struct ev_strmap *m, const struct ev_strmap *tally,
    int *shared)
{
	size_t i, n = 0;
	long k = 0;

	ev_strmap_reset(m);
	for (i = 0; i < f->nc; i++)
		if (f->c[i].hit[l] >= 0)
			ix[n++] = i;
	sort_f = f;
	sort_lane = l;
	qsort(ix, n, sizeof *ix, cmp_lane_rank);
	for (i = 0; i < n && k < f->o.agree_depth; i++) {
		const char *d = cand_doc(f, &f->c[ix[i]], l);
		size_t dn = strlen(d);
		uint64_t h = ev_strmap_hash(d, dn);
		int added;

		if (ev_strmap_add_h(m, d, dn, h, &added) == -1)
			return -1;
		if (!added)
			continue;
		if (tally != NULL && ev_strmap_find_h(tally, d, dn, h) >= 0)
			(*shared)++;
		k++;
	}
	return k;
}

/* The agreement rule (fuse.h, ev_fuse_opts.adapt): each lane's weight for
 * this query, from how many of its first documents are among the first of
 * anchor lane a, which found something (documents, not chunks: two lanes
 * agree on a document even when they found different passages of it).  ix
 * has room for every candidate.  Returns 0, or -1 when out of memory. */
static int
agreement_weights(struct ev_fuse *f, size_t *ix, int a)
{
	long na, nl;
	int l;

	if ((na = first_docs(f, a, ix, &f->adocs, NULL, NULL)) == -1)
		return -1;
	for (l = 0; l < f->nlanes; l++) {
		struct lane *ln = &f->lanes[l];
		const char *from = ev_fuse_agree_from_get(&f->o, ln->name);
		int s;

		if (l == a || ln->n == 0)
			continue;
		for (s = 0; s < f->nlanes && strcmp(f->lanes[s].name, from) != 0; s++)
			;
		if (s == f->nlanes || s == a || f->lanes[s].n == 0)
			s = l;	/* the source found nothing: the lane's own agreement */
		ln->agree_lane = s;
		ln->shared = 0;
		if ((nl = first_docs(f, s, ix, &f->ldocs, &f->adocs, &ln->shared)) == -1)
			return -1;
		ln->depth = (int)(nl < na ? nl : na);
		ln->agree = (double)ln->shared / ln->depth;
		if (ln->agree < f->o.agree_full)
			ln->w = ln->w0 * ln->agree / f->o.agree_full;
	}
	return 0;
}

/* Each lane's weight for this query (fuse.h): the agreement rule's, then
 * the feedback lane's 0 for a query read as a document.  ix has room for
 * every candidate.  Returns 0, or -1 when out of memory. */
int
ev_fuse_adapt_weights(struct ev_fuse *f, size_t *ix)
{
	int l, a = -1, as_document = 0;

	for (l = 0; l < f->nlanes; l++) {
		f->lanes[l].w = f->lanes[l].w0;
		f->lanes[l].agree = -1;
		f->lanes[l].feedback_off = 0;
		if (strcmp(f->lanes[l].name, f->o.anchor) == 0)
			a = l;
		as_document |= f->lanes[l].istext && f->lanes[l].as_document == 1;
	}
	if (f->o.adapt != EV_ADAPT_NONE && a >= 0 && f->lanes[a].n > 0 &&
	    agreement_weights(f, ix, a) == -1)
		return -1;
	/* A query the text lane read as a document gets no pseudo-relevance
	 * feedback from it (ev-search-text(1)); nor from the feedback lane,
	 * which starts from the text lane's first hits. */
	for (l = 0; as_document && l < f->nlanes; l++)
		if (strcmp(f->lanes[l].name, EV_FUSE_FEEDBACK_LANE) == 0 && f->lanes[l].w0 > 0) {
			f->lanes[l].w = 0;
			f->lanes[l].feedback_off = 1;
		}
	return 0;
}

/* Held to the range of a double: v, or +-DBL_MAX beyond it. */
static double
clamp_real(long double v)
{
	return v > DBL_MAX ? DBL_MAX : v < -DBL_MAX ? -DBL_MAX : (double)v;
}

/* Candidate c's contributions, fused and RRF scores again, for when a sum
 * over its lanes overflowed a double (weights or raw scores near the largest
 * double): summed in long double and each held to +-DBL_MAX, so that every
 * figure written is a number and the order is that of the true sums as far
 * as a double can tell them apart. */
static void
score_cand_clamped(const struct ev_fuse *f, struct cand *c)
{
	long double fused = 0, rrf = 0;
	int l;

	for (l = 0; l < f->nlanes; l++) {
		long double w = f->lanes[l].w;

		if (c->hit[l] >= 0)
			rrf += w / ((long double)f->o.rrf_k + (long double)c->rank[l]);
		if (c->hit[l] >= 0 || f->o.method != EV_FUSE_RRF) {
			fused += w * (long double)c->norm[l];
			c->contrib[l] = clamp_real(w * (long double)c->norm[l]);
		}
	}
	if (f->o.method == EV_FUSE_COMBMNZ)
		fused *= c->nfound;
	c->fused = clamp_real(fused);
	c->rrf = clamp_real(rrf);
}

void
ev_fuse_score_cands(struct ev_fuse *f, enum ev_fuse_norm norm)
{
	struct cand *c;
	size_t i;
	int l;

	for (i = 0; i < f->nc; i++) {
		c = &f->c[i];
		c->fused = c->rrf = 0;
		c->nfound = 0;
		c->best_rank = 0;
		for (l = 0; l < f->nlanes; l++) {
			double w = f->lanes[l].w;
			if (c->hit[l] < 0) {
				c->norm[l] = f->lanes[l].floor;
				c->contrib[l] = f->o.method == EV_FUSE_RRF ? 0 : w * f->lanes[l].floor;
			} else {
				c->nfound++;
				if (c->best_rank == 0 || c->rank[l] < c->best_rank)
					c->best_rank = c->rank[l];
				c->rrf += w / (f->o.rrf_k + (double)c->rank[l]);
				if (f->o.method == EV_FUSE_RRF) {
					c->norm[l] = 1.0 / (f->o.rrf_k + (double)c->rank[l]);
				} else {
					c->norm[l] = normalise(&f->lanes[l], norm, c->score[l]);
				}
				c->contrib[l] = w * c->norm[l];
			}
			c->fused += c->contrib[l];
		}
		if (f->o.method == EV_FUSE_COMBMNZ)
			c->fused *= c->nfound;
		if (!isfinite(c->fused) || !isfinite(c->rrf))
			score_cand_clamped(f, c);
	}
}

/* Does candidate x come before y: the higher fused score, then the better
 * best lane rank, then the key. */
static inline int
before(const struct cand *x, const struct cand *y)
{
	if (x->fused != y->fused)
		return x->fused > y->fused;
	if (x->best_rank != y->best_rank)
		return x->best_rank < y->best_rank;
	return strcmp(x->key, y->key) < 0;
}

/* Sort the candidate indexes a[0..n) best first (a merge sort; t has room
 * for n). */
void
ev_fuse_sort_cands(const struct cand *c, size_t *a, size_t *t, size_t n)
{
	size_t i, j, k, h, x;

	if (n <= 12) {
		for (i = 1; i < n; i++) {
			x = a[i];
			for (j = i; j > 0 && before(&c[x], &c[a[j - 1]]); j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	h = n / 2;
	ev_fuse_sort_cands(c, a, t, h);
	ev_fuse_sort_cands(c, a + h, t, n - h);
	if (!before(&c[a[h]], &c[a[h - 1]]))
		return;		/* in order already */
	for (i = 0, j = h, k = 0; i < h && j < n;)
		t[k++] = before(&c[a[j]], &c[a[i]]) ? a[j++] : a[i++];
	while (i < h)
		t[k++] = a[i++];
	memcpy(a, t, k * sizeof *a);
}

/* Lanes in priority order (vector, text, region, timeline, the
 * rest as they came). */
void
ev_fuse_lane_order(const struct ev_fuse *f, int *ord)
{
	int i, j, t;

	for (i = 0; i < f->nlanes; i++)
		ord[i] = i;
	for (i = 1; i < f->nlanes; i++)
		for (j = i; j > 0 && f->lanes[ord[j]].prio < f->lanes[ord[j - 1]].prio; j--) {
			t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
}
