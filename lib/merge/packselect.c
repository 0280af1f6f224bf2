/* packselect.c: which candidates a pack keeps.  See packselect.h. */
#include "packselect.h"

#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "evidence.h"

static double
jaccard(const struct item *a, const struct item *b)
{
	return ev_words_jaccard(a->words, a->nwords, b->words, b->nwords);
}

#define MIN_OVERLAP_WORDS 5	/* shorter texts are compared by content hash only */

static int
near_duplicate(const struct ev_pack *p, struct item *it, struct item **kept, size_t nkept)
{
	const char *h = json_string_value(json_object_get(it->hit, "content_hash")), *h2;
	size_t i;

	for (i = 0; i < nkept; i++) {
		h2 = json_string_value(json_object_get(kept[i]->hit, "content_hash"));
		if (h != NULL && h2 != NULL && h[0] != '\0' && strcmp(h, h2) == 0)
			return 1;
		if (it->nwords >= MIN_OVERLAP_WORDS && kept[i]->nwords >= MIN_OVERLAP_WORDS &&
		    jaccard(it, kept[i]) >= p->o.overlap)
			return 1;
	}
	return 0;
}

/* Near-duplicate and per-document checks of a candidate against those kept:
 * 1 when it is kept (appended to kept), 0 when dropped, -1 on error. */
static int
presentable(struct ev_pack *p, struct item *it, struct item **kept, size_t *nkept, json_t *docs,
    struct ev_pack_dropped *d, struct ev_err *err)
{
	json_t *v;

	if (p->o.near_duplicates) {
		if (it->words == NULL && ev_words_set(ev_pack_item_text(it), &it->words, &it->nwords) == -1)
			return ev_err_nomem(err);
		if (near_duplicate(p, it, kept, *nkept)) {
			d->dups++;
			return 0;
		}
	}
	if (p->o.by_document > 0) {
		const char *doc = json_string_value(json_object_get(it->hit, "doc_id"));
		if (doc != NULL) {
			v = json_object_get(docs, doc);
			if (v != NULL && json_integer_value(v) >= p->o.by_document) {
				d->by_doc++;
				return 0;
			}
			if (json_object_set_new(docs, doc,
			    json_integer(v ? json_integer_value(v) + 1 : 1)) == -1)
				return ev_err_nomem(err);
		}
	}
	kept[(*nkept)++] = it;
	return 1;
}

/* The similarity of two candidates for MMR: the cosine of their vectors
 * (negative taken as 0) when both have one, else their word overlap. */
static double
similarity(const struct ev_pack *p, const struct item *a, const struct item *b)
{
	if (a->vec != NULL && b->vec != NULL) {
		double c = ev_cosine(a->vec, b->vec, p->dim);
		return c > 0 ? c : 0;
	}
	return ev_words_jaccard(a->words, a->nwords, b->words, b->nwords);
}

/* Maximal marginal relevance over the first mmr_depth candidates at or
 * above the minimum score: repeatedly the one with the best
 * lambda * relevance - (1 - lambda) * (its greatest similarity to one kept),
 * relevance being its score scaled to [0, 1] over those candidates, then
 * the same checks as without MMR.  Returns 0 or -1. */
int
ev_pack_select_mmr(struct ev_pack *p, struct item **ord, size_t nord, struct item **kept,
    size_t *nkept, json_t *docs, struct ev_pack_dropped *d, struct ev_err *err)
{
	struct item **pool = NULL;
	double *maxsim = NULL, lo = 0, hi = 0, lam = p->o.mmr_lambda;
	char *used = NULL;
	size_t i, j, n = 0, depth = (size_t)p->o.mmr_depth;
	int rc = -1, r;

	if ((pool = malloc((nord ? nord : 1) * sizeof *pool)) == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < nord; i++) {
		struct item *it = ord[i];
		if (p->o.has_min_score && it->score < p->o.min_score) {
			d->below++;
			continue;
		}
		if (n >= depth)
			continue;
		if (ev_pack_materialize(p, it, err) == -1)
			goto out;
		if (it->words == NULL && ev_words_set(ev_pack_item_text(it), &it->words, &it->nwords) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		if (p->vfn != NULL && it->vec == NULL) {
			if ((it->vec = malloc((size_t)p->dim * sizeof *it->vec)) == NULL) {
				ev_err_nomem(err);
				goto out;
			}
			r = p->vfn(p->vctx, json_string_value(json_object_get(it->hit, "id")), it->vec,
			    err);
			if (r == -1)
				goto out;
			if (r == 0) {
				free(it->vec);
				it->vec = NULL;
				d->without_vector++;
			}
		}
		if (n == 0 || it->score < lo)
			lo = it->score;
		if (n == 0 || it->score > hi)
			hi = it->score;
		pool[n++] = it;
	}
	d->pool = (long long)n;
	if ((maxsim = calloc(n ? n : 1, sizeof *maxsim)) == NULL ||
	    (used = calloc(n ? n : 1, 1)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	while (p->o.k == 0 || *nkept < (size_t)p->o.k) {
		double best = 0, val, rel;
		size_t b = n;
		for (j = 0; j < n; j++) {
			if (used[j])
				continue;
			rel = hi > lo ? (pool[j]->score - lo) / (hi - lo) : 1;
			val = lam * rel - (1 - lam) * maxsim[j];
			if (b == n || val > best) {
				best = val;
				b = j;
			}
		}
		if (b == n)
			break;
		used[b] = 1;
		if ((r = presentable(p, pool[b], kept, nkept, docs, d, err)) == -1)
			goto out;
		if (r == 0)
			continue;
		pool[b]->mmr = best;
		for (j = 0; j < n; j++)
			if (!used[j]) {
				double sim = similarity(p, pool[b], pool[j]);
				if (sim > maxsim[j])
					maxsim[j] = sim;
			}
	}
	rc = 0;
out:
	free(pool);
	free(maxsim);
	free(used);
	return rc;
}

/* Without MMR: the candidates in their order until k are kept. */
int
ev_pack_select_plain(struct ev_pack *p, struct item **ord, size_t nord, struct item **kept,
    size_t *nkept, json_t *docs, struct ev_pack_dropped *d, struct ev_err *err)
{
	size_t i;

	for (i = 0; i < nord; i++) {
		struct item *it = ord[i];
		if (p->o.has_min_score && it->score < p->o.min_score) {
			d->below++;
			continue;
		}
		if (p->o.k > 0 && *nkept >= (size_t)p->o.k)
			continue;
		if (ev_pack_materialize(p, it, err) == -1 ||
		    presentable(p, it, kept, nkept, docs, d, err) == -1)
			return -1;
	}
	return 0;
}

/* The id of the page a region lane's hit lies on, into buf: its id up to
 * its page ("doc::D::page-3" of "doc::D::page-3::r1"), else made of its
 * doc_id and page.  Returns 0, or -1 when it names none. */
static int
region_page_id(const json_t *hit, char *buf, size_t size)
{
	const char *id = json_string_value(json_object_get(hit, "id"));
	const char *doc = json_string_value(json_object_get(hit, "doc_id"));
	const json_t *page = json_object_get(hit, "page");
	const char *at = id ? strstr(id, "::page-") : NULL, *end;
	int n;

	if (at != NULL && (end = strstr(at + 7, "::")) != NULL)
		n = snprintf(buf, size, "%.*s", (int)(end - id), id);
	else if (doc != NULL && json_is_integer(page))
		n = snprintf(buf, size, "doc::%s::page-%" JSON_INTEGER_FORMAT, doc,
		    json_integer_value(page));
	else
		return -1;
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int
ev_pack_merge_regions(struct ev_pack *p, struct item **ord, size_t *n, struct ev_err *err)
{
	size_t i, kept = 0;
	char page[1024];
	json_t *ix, *mine;
	struct item *it, *pg;
	int r;

	for (i = 0; i < *n; i++) {
		it = ord[i];
		pg = NULL;
		if (it->lanes == LANE_REGION) {
			if (ev_pack_materialize(p, it, err) == -1)
				return -1;
			if (region_page_id(it->hit, page, sizeof page) == 0 &&
			    (ix = json_object_get(p->ids, page)) != NULL)
				pg = &p->it[json_integer_value(ix)];
		}
		if (pg == NULL || pg == it) {
			ord[kept++] = it;
			continue;
		}
		if (ev_pack_materialize(p, pg, err) == -1)
			return -1;
		if (pg->ev == NULL && (pg->ev = ev_evidence_of_hit(pg->hit, -1)) == NULL)
			return ev_err_nomem(err);
		if ((mine = it->ev ? json_incref(it->ev) : ev_evidence_of_hit(it->hit, -1)) == NULL)
			return ev_err_nomem(err);
		r = ev_evidence_merge(pg->ev, mine);
		json_decref(mine);
		if (r == -1)
			return ev_err_nomem(err);
		pg->lanes |= it->lanes;
	}
	*n = kept;
	return 0;
}
