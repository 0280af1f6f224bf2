/* fuse.c: fusing lanes of hits.  See fuse.h. */
#include "fuse.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonl.h"

/* ---- options ---- */

static const char *const method_names[] = { "rrf", "weighted", "combsum", "combmnz" };
static const char *const norm_names[] = { "default", "none", "max", "minmax", "zscore" };

void
ev_fuse_opts_init(struct ev_fuse_opts *o)
{
	memset(o, 0, sizeof *o);
	o->method = EV_FUSE_RRF;
	o->norm = EV_NORM_DEFAULT;
	o->group = EV_GROUP_CHUNK;
	o->rrf_k = 60;
	o->k = 0;
	o->explain = 1;
}

int
ev_fuse_method_parse(const char *s, enum ev_fuse_method *out)
{
	size_t i;

	for (i = 0; i < sizeof method_names / sizeof method_names[0]; i++)
		if (strcmp(s, method_names[i]) == 0) {
			*out = (enum ev_fuse_method)i;
			return 0;
		}
	return -1;
}

const char *
ev_fuse_method_name(enum ev_fuse_method m)
{
	return method_names[m];
}

int
ev_fuse_norm_parse(const char *s, enum ev_fuse_norm *out)
{
	size_t i;

	for (i = 1; i < sizeof norm_names / sizeof norm_names[0]; i++)
		if (strcmp(s, norm_names[i]) == 0) {
			*out = (enum ev_fuse_norm)i;
			return 0;
		}
	return -1;
}

const char *
ev_fuse_norm_name(enum ev_fuse_norm n)
{
	return norm_names[n];
}

enum ev_fuse_norm
ev_fuse_norm_effective(const struct ev_fuse_opts *o)
{
	if (o->method == EV_FUSE_RRF)
		return EV_NORM_NONE;
	if (o->norm != EV_NORM_DEFAULT)
		return o->norm;
	return o->method == EV_FUSE_WEIGHTED ? EV_NORM_MAX : EV_NORM_MINMAX;
}

static int
lane_name_ok(const char *lane)
{
	const char *p;

	if (lane[0] == '\0' || strlen(lane) > EV_FUSE_LANE_MAX)
		return 0;
	for (p = lane; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return 0;
	return 1;
}

int
ev_fuse_weight_set(struct ev_fuse_opts *o, const char *lane, double w, struct ev_err *err)
{
	int i;

	if (!lane_name_ok(lane))
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "lane name '%s' must be 1 to %d letters, digits, '_' or '-'", lane, EV_FUSE_LANE_MAX);
	if (!isfinite(w) || w < 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "weight of lane '%s' must be a finite number >= 0", lane);
	for (i = 0; i < o->nweights; i++)
		if (strcmp(o->weights[i].lane, lane) == 0) {
			o->weights[i].w = w;
			return 0;
		}
	if (o->nweights == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "more than %d lane weights", EV_FUSE_MAXLANES);
	snprintf(o->weights[o->nweights].lane, sizeof o->weights[0].lane, "%s", lane);
	o->weights[o->nweights++].w = w;
	return 0;
}

int
ev_fuse_weight_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err)
{
	char lane[EV_FUSE_LANE_MAX + 2], *end;
	const char *eq = strchr(spec, '=');
	size_t n;
	double w;

	if (eq == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "weight '%s' must read LANE=W", spec);
	n = (size_t)(eq - spec);
	if (n == 0 || n > EV_FUSE_LANE_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "lane name in weight '%s' must be 1 to %d characters", spec, EV_FUSE_LANE_MAX);
	memcpy(lane, spec, n);
	lane[n] = '\0';
	w = strtod(eq + 1, &end);
	if (eq[1] == '\0' || *end != '\0' || !isfinite(w) || w < 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "weight in '%s' must be a finite number >= 0", spec);
	return ev_fuse_weight_set(o, lane, w, err);
}

double
ev_fuse_weight_get(const struct ev_fuse_opts *o, const char *lane)
{
	int i;

	for (i = 0; i < o->nweights; i++)
		if (strcmp(o->weights[i].lane, lane) == 0)
			return o->weights[i].w;
	return 1.0;
}

int
ev_fuse_lane_priority(const char *lane)
{
	static const char *const order[] = { "vector", "text", "region", "timeline" };
	int i;

	if (lane == NULL)
		return 4;
	for (i = 0; i < 4; i++)
		if (strcmp(lane, order[i]) == 0)
			return i;
	return 4;
}

/* ---- a string -> index hash table (open addressing; keys borrowed) ---- */

struct map {
	const char **keys;
	int *vals;
	size_t cap, len;
};

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void
map_reset(struct map *m)
{
	if (m->keys != NULL)
		memset(m->keys, 0, m->cap * sizeof *m->keys);
	m->len = 0;
}

static void
map_release(struct map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* The slot of key: its own, or the empty one where it would go. */
static size_t
map_slot(const struct map *m, const char *key)
{
	size_t i = (size_t)hash_str(key) & (m->cap - 1);

	while (m->keys[i] != NULL && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int
map_get(const struct map *m, const char *key)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	i = map_slot(m, key);
	return m->keys[i] != NULL ? m->vals[i] : -1;
}

static int
map_put(struct map *m, const char *key, int val)
{
	size_t i, oldcap = m->cap;
	const char **ok = m->keys;
	int *ov = m->vals;

	if ((m->len + 1) * 2 > m->cap) {
		m->cap = oldcap ? oldcap * 2 : 64;
		m->keys = calloc(m->cap, sizeof *m->keys);
		m->vals = malloc(m->cap * sizeof *m->vals);
		if (m->keys == NULL || m->vals == NULL) {
			free(m->keys);
			free(m->vals);
			m->keys = ok;
			m->vals = ov;
			m->cap = oldcap;
			return -1;
		}
		for (i = 0; i < oldcap; i++)
			if (ok[i] != NULL) {
				size_t j = map_slot(m, ok[i]);
				m->keys[j] = ok[i];
				m->vals[j] = ov[i];
			}
		free(ok);
		free(ov);
	}
	i = map_slot(m, key);
	if (m->keys[i] == NULL)
		m->len++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

/* ---- the accumulator ---- */

struct lane {
	char name[EV_FUSE_LANE_MAX + 1];
	double w;
	int prio;
	/* per query, over the candidates the lane found */
	double max, min, mean, sd, floor;
	long n;
};

struct cand {
	const char *key;	/* id, or doc_id when grouping by document */
	json_t *hit[EV_FUSE_MAXLANES];	/* the lane's (best) hit, or NULL */
	json_t *chunks;		/* grouping by document: every hit, in order added */
	long long rank[EV_FUSE_MAXLANES];
	double score[EV_FUSE_MAXLANES];
	double norm[EV_FUSE_MAXLANES];
	double contrib[EV_FUSE_MAXLANES];
	double fused, rrf;
	long long best_rank;
	int nfound;
};

struct ev_fuse {
	struct ev_fuse_opts o;
	char *qid;
	struct lane lanes[EV_FUSE_MAXLANES];
	int nlanes;
	struct cand *c;
	size_t nc, capc;
	json_t *held;		/* every hit added, kept alive until the next begin */
	struct map ids[EV_FUSE_MAXLANES];	/* id -> 1, per lane: duplicates */
	struct map keys;	/* candidate key -> index into c */
	long long count;
};

struct ev_fuse *
ev_fuse_new(const struct ev_fuse_opts *o, struct ev_err *err)
{
	struct ev_fuse *f = calloc(1, sizeof *f);

	if (f == NULL || (f->held = json_array()) == NULL) {
		free(f);
		ev_err_nomem(err);
		return NULL;
	}
	f->o = *o;
	return f;
}

static void
cands_clear(struct ev_fuse *f)
{
	size_t i;

	for (i = 0; i < f->nc; i++)
		json_decref(f->c[i].chunks);
	f->nc = 0;
}

int
ev_fuse_begin(struct ev_fuse *f, const char *qid, struct ev_err *err)
{
	int i;

	cands_clear(f);
	json_array_clear(f->held);
	for (i = 0; i < EV_FUSE_MAXLANES; i++)
		map_reset(&f->ids[i]);
	map_reset(&f->keys);
	f->nlanes = 0;
	f->count = 0;
	free(f->qid);
	if ((f->qid = strdup(qid ? qid : "")) == NULL)
		return ev_err_nomem(err);
	return 0;
}

void
ev_fuse_free(struct ev_fuse *f)
{
	int i;

	if (f == NULL)
		return;
	cands_clear(f);
	free(f->c);
	json_decref(f->held);
	for (i = 0; i < EV_FUSE_MAXLANES; i++)
		map_release(&f->ids[i]);
	map_release(&f->keys);
	free(f->qid);
	free(f);
}

long long
ev_fuse_count(const struct ev_fuse *f)
{
	return f->count;
}

static int
lane_index(struct ev_fuse *f, const char *name, const char *where, struct ev_err *err)
{
	int i;

	for (i = 0; i < f->nlanes; i++)
		if (strcmp(f->lanes[i].name, name) == 0)
			return i;
	if (f->nlanes == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "more than %d lanes in query '%s'", EV_FUSE_MAXLANES, f->qid);
	memset(&f->lanes[i], 0, sizeof f->lanes[i]);
	snprintf(f->lanes[i].name, sizeof f->lanes[i].name, "%s", name);
	f->lanes[i].w = ev_fuse_weight_get(&f->o, name);
	f->lanes[i].prio = ev_fuse_lane_priority(name);
	f->nlanes++;
	return i;
}

/* Check the fields of a hit.  Returns 0 or -1 with *err set. */
static int
check_hit(const struct ev_fuse *f, json_t *hit, const char *where, const char **id,
    const char **lane, long long *rank, double *score, const char **doc, struct ev_err *err)
{
	json_t *v = NULL;
	size_t i;

	if (!json_is_object(hit))
		return ev_err_set(err, EV_EXIT_USAGE, where, "hit must be a JSON object");
	if (ev_field_str(hit, "id", 1, id, where, err) == -1 ||
	    ev_field_str(hit, "lane", 1, lane, where, err) == -1 ||
	    ev_field_int(hit, "rank", 1, rank, where, err) == -1 ||
	    ev_field_num(hit, "score", 1, score, where, err) == -1 ||
	    ev_field_str(hit, "doc_id", f->o.group == EV_GROUP_DOC, doc, where, err) == -1 ||
	    ev_field_obj(hit, "signals", 0, &v, where, err) == -1 ||
	    ev_field_str(hit, "snippet", 0, &(const char *){ NULL }, where, err) == -1)
		return -1;
	if ((*id)[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'id' must not be empty");
	if (strcmp(*lane, "fused") == 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "hit of lane 'fused' cannot be fused again");
	if (!lane_name_ok(*lane))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'lane' must be 1 to %d letters, digits, '_' or '-'", EV_FUSE_LANE_MAX);
	if (*rank < 1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rank' must be at least 1");
	if (!isfinite(*score))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'score' must be finite");
	v = NULL;
	if (ev_field_arr(hit, "evidence", 0, &v, where, err) == -1)
		return -1;
	if (v != NULL)
		for (i = 0; i < json_array_size(v); i++)
			if (!json_is_object(json_array_get(v, i)))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "field 'evidence' must be an array of objects");
	return 0;
}

int
ev_fuse_add(struct ev_fuse *f, json_t *hit, const char *where, struct ev_err *err)
{
	const char *id = NULL, *lane = NULL, *doc = NULL, *key;
	long long rank = 0;
	double score = 0;
	struct cand *c;
	int li, ci;

	if (check_hit(f, hit, where, &id, &lane, &rank, &score, &doc, err) == -1)
		return -1;
	if ((li = lane_index(f, lane, where, err)) == -1)
		return -1;
	if (map_get(&f->ids[li], id) != -1)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "id '%s' appears twice in lane '%s' of query '%s'", id, lane, f->qid);
	key = f->o.group == EV_GROUP_DOC ? doc : id;
	ci = map_get(&f->keys, key);
	if (ci == -1) {
		if (f->nc == f->capc) {
			size_t cap = f->capc ? f->capc * 2 : 64;
			struct cand *p = realloc(f->c, cap * sizeof *p);
			if (p == NULL)
				return ev_err_nomem(err);
			f->c = p;
			f->capc = cap;
		}
		if (f->nc >= INT32_MAX)
			return ev_err_set(err, EV_EXIT_USAGE, where, "too many hits in one query");
		c = &f->c[f->nc];
		memset(c, 0, sizeof *c);
		c->key = key;
		if (map_put(&f->keys, key, (int)f->nc) == -1)
			return ev_err_nomem(err);
		ci = (int)f->nc++;
	}
	if (map_put(&f->ids[li], id, 1) == -1 || json_array_append(f->held, hit) == -1)
		return ev_err_nomem(err);
	c = &f->c[ci];
	if (f->o.group == EV_GROUP_DOC) {
		if (c->chunks == NULL && (c->chunks = json_array()) == NULL)
			return ev_err_nomem(err);
		if (json_array_append(c->chunks, hit) == -1)
			return ev_err_nomem(err);
	}
	if (c->hit[li] == NULL || rank < c->rank[li]) {
		c->hit[li] = hit;
		c->rank[li] = rank;
		c->score[li] = score;
	}
	f->count++;
	return 0;
}

/* ---- fusing ---- */

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

/* Grouping by document: each lane ranks the documents by their best chunk,
 * 1, 2, 3 ... */
static int
rerank_docs(struct ev_fuse *f, struct ev_err *err)
{
	size_t *ix = malloc((f->nc ? f->nc : 1) * sizeof *ix), i, n;
	int l;

	if (ix == NULL)
		return ev_err_nomem(err);
	sort_f = f;
	for (l = 0; l < f->nlanes; l++) {
		for (i = n = 0; i < f->nc; i++)
			if (f->c[i].hit[l] != NULL)
				ix[n++] = i;
		sort_lane = l;
		qsort(ix, n, sizeof *ix, cmp_lane_rank);
		for (i = 0; i < n; i++)
			f->c[ix[i]].rank[l] = (long long)i + 1;
	}
	free(ix);
	return 0;
}

static void
lane_stats(struct ev_fuse *f, enum ev_fuse_norm norm)
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
			if (f->c[i].hit[l] == NULL)
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
			if (f->c[i].hit[l] != NULL) {
				s = f->c[i].score[l] - ln->mean;
				var += s * s;
			}
		ln->sd = ln->n > 0 ? sqrt(var / (double)ln->n) : 0;
		ln->floor = 0;
		if (norm == EV_NORM_ZSCORE && ln->sd > 0)
			ln->floor = (ln->min - ln->mean) / ln->sd;
	}
}

static double
normalise(const struct lane *ln, enum ev_fuse_norm norm, double s)
{
	switch (norm) {
	case EV_NORM_MAX:
		return s / (ln->max > 1.0 ? ln->max : 1.0);
	case EV_NORM_MINMAX:
		return ln->max > ln->min ? (s - ln->min) / (ln->max - ln->min) : 1.0;
	case EV_NORM_ZSCORE:
		return ln->sd > 0 ? (s - ln->mean) / ln->sd : 0.0;
	default:
		return s;
	}
}

static void
score_cands(struct ev_fuse *f, enum ev_fuse_norm norm)
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
			if (c->hit[l] == NULL) {
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
	}
}

static int
cmp_fused(const void *a, const void *b)
{
	const struct cand *x = sort_f->c + *(const size_t *)a, *y = sort_f->c + *(const size_t *)b;

	if (x->fused != y->fused)
		return x->fused > y->fused ? -1 : 1;
	if (x->best_rank != y->best_rank)
		return x->best_rank < y->best_rank ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Lanes in seed 000's priority order (vector, text, region, timeline, the
 * rest as they came). */
static void
lane_order(const struct ev_fuse *f, int *ord)
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

/* The signal names of a lane: fts_* for text, vector_* for vector,
 * LANE_* for the others. */
static void
signal_names(const char *lane, char *sname, char *rname, size_t size)
{
	const char *p = strcmp(lane, "text") == 0 ? "fts" : lane;

	snprintf(sname, size, "%s_score", p);
	snprintf(rname, size, "%s_rank", p);
}

static int
set_num(json_t *o, const char *k, double v)
{
	return json_object_set_new(o, k, json_real(v));
}

static int
evidence_add(json_t *ev, json_t *e, const char *chunk)
{
	json_t *x;
	size_t i;

	if (chunk != NULL) {
		if ((x = json_copy(e)) == NULL || json_object_set_new(x, "id", json_string(chunk)) == -1) {
			json_decref(x);
			return -1;
		}
	} else {
		x = json_incref(e);
	}
	for (i = 0; i < json_array_size(ev); i++)
		if (json_equal(json_array_get(ev, i), x)) {
			json_decref(x);
			return 0;
		}
	return json_array_append_new(ev, x);
}

/* The evidence a lane's hit brings: its own array, or one entry made from
 * the hit ({"lane", "score"} and the snippet for the text lane). */
static int
evidence_of(json_t *ev, json_t *hit, const char *lane, double score, const char *chunk)
{
	json_t *arr = json_object_get(hit, "evidence"), *e;
	size_t i;
	int rc = 0;

	if (json_is_array(arr) && json_array_size(arr) > 0) {
		for (i = 0; i < json_array_size(arr) && rc == 0; i++)
			rc = evidence_add(ev, json_array_get(arr, i), chunk);
		return rc;
	}
	e = json_pack("{s:s,s:f}", "lane", lane, "score", score);
	if (e == NULL)
		return -1;
	if (strcmp(lane, "text") == 0 && json_is_string(json_object_get(hit, "snippet")))
		json_object_set(e, "snippet", json_object_get(hit, "snippet"));
	rc = evidence_add(ev, e, chunk);
	json_decref(e);
	return rc;
}

/* Stable sort of the evidence by lane priority. */
static int
evidence_sort(json_t *ev)
{
	size_t n = json_array_size(ev), i, j;
	json_t **v, *t;

	if (n < 2)
		return 0;
	if ((v = malloc(n * sizeof *v)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(ev, i));
	for (i = 1; i < n; i++)	/* insertion sort: stable, and lists are short */
		for (j = i; j > 0; j--) {
			json_t *x = v[j - 1], *y = v[j];
			int px = ev_fuse_lane_priority(json_string_value(json_object_get(x, "lane")));
			int py = ev_fuse_lane_priority(json_string_value(json_object_get(y, "lane")));
			if (px <= py)
				break;
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	json_array_clear(ev);
	for (i = 0; i < n; i++)
		json_array_append_new(ev, v[i]);
	free(v);
	return 0;
}

static const char *
short_num(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.4g", v);
	return buf;
}

/* A human-readable account of a lane's contribution. */
static json_t *
explain_lane(const struct ev_fuse *f, const struct cand *c, int l, enum ev_fuse_norm norm)
{
	const struct lane *ln = &f->lanes[l];
	char a[32], b[32], d[32], e[32], w[32];
	struct ev_buf fm = EV_BUF_INIT;
	json_t *x;

	if (c->hit[l] == NULL) {
		if (f->o.method == EV_FUSE_RRF || c->contrib[l] == 0)
			ev_buf_printf(&fm, "not found by lane '%s': contributes 0", ln->name);
		else
			ev_buf_printf(&fm, "not found by lane '%s': contributes its floor, %s x %s = %s",
			    ln->name, short_num(w, sizeof w, ln->w), short_num(a, sizeof a, ln->floor),
			    short_num(b, sizeof b, c->contrib[l]));
		x = json_pack("{s:s,s:b,s:f,s:f,s:s}", "lane", ln->name, "found", 0,
		    "weight", ln->w, "contribution", c->contrib[l], "formula", ev_buf_str(&fm));
		ev_buf_release(&fm);
		return x;
	}
	if (ln->w != 1.0)
		ev_buf_printf(&fm, "%s x ", short_num(w, sizeof w, ln->w));
	if (f->o.method == EV_FUSE_RRF) {
		ev_buf_printf(&fm, "1/(%s+%lld)", short_num(a, sizeof a, f->o.rrf_k), c->rank[l]);
	} else {
		switch (norm) {
		case EV_NORM_MAX:
			ev_buf_printf(&fm, "%s/max(%s,1)", short_num(a, sizeof a, c->score[l]),
			    short_num(b, sizeof b, ln->max));
			break;
		case EV_NORM_MINMAX:
			ev_buf_printf(&fm, "(%s-%s)/(%s-%s)", short_num(a, sizeof a, c->score[l]),
			    short_num(b, sizeof b, ln->min), short_num(d, sizeof d, ln->max),
			    short_num(e, sizeof e, ln->min));
			break;
		case EV_NORM_ZSCORE:
			ev_buf_printf(&fm, "(%s-%s)/%s", short_num(a, sizeof a, c->score[l]),
			    short_num(b, sizeof b, ln->mean), short_num(d, sizeof d, ln->sd));
			break;
		default:
			ev_buf_printf(&fm, "%s", short_num(a, sizeof a, c->score[l]));
		}
	}
	ev_buf_printf(&fm, " = %s", short_num(a, sizeof a, c->contrib[l]));
	x = json_pack("{s:s,s:b,s:I,s:f,s:f,s:f,s:f,s:s}", "lane", ln->name, "found", 1,
	    "rank", (json_int_t)c->rank[l], "score", c->score[l], "normalized", c->norm[l],
	    "weight", ln->w, "contribution", c->contrib[l], "formula", ev_buf_str(&fm));
	ev_buf_release(&fm);
	return x;
}

static json_t *
explain_of(const struct ev_fuse *f, const struct cand *c, const int *ord, enum ev_fuse_norm norm)
{
	json_t *x, *lanes, *w;
	int i;

	x = json_pack("{s:s}", "method", ev_fuse_method_name(f->o.method));
	if (x == NULL)
		return NULL;
	if (f->o.method == EV_FUSE_RRF)
		set_num(x, "rrf_k", f->o.rrf_k);
	else
		json_object_set_new(x, "normalization", json_string(ev_fuse_norm_name(norm)));
	w = json_object();
	lanes = json_array();
	json_object_set_new(x, "weights", w);
	json_object_set_new(x, "lanes", lanes);
	for (i = 0; i < f->nlanes; i++) {
		set_num(w, f->lanes[ord[i]].name, f->lanes[ord[i]].w);
		json_array_append_new(lanes, explain_lane(f, c, ord[i], norm));
	}
	if (f->o.method == EV_FUSE_COMBMNZ)
		json_object_set_new(x, "lanes_found", json_integer(c->nfound));
	if (f->o.group == EV_GROUP_DOC)
		json_object_set_new(x, "group", json_string("doc"));
	return x;
}

static json_t *
fused_hit(const struct ev_fuse *f, const struct cand *c, long long rank, const int *ord,
    enum ev_fuse_norm norm)
{
	json_t *h = NULL, *sig, *ev, *s, *chunks;
	char sname[EV_FUSE_LANE_MAX + 8], rname[EV_FUSE_LANE_MAX + 8];
	const char *snip = NULL, *top;
	double best = -INFINITY;
	size_t j;
	int i, l, ok = 1;

	/* the base: the first lane's hit in priority order, then the others' */
	for (i = 0; i < f->nlanes; i++) {
		l = ord[i];
		if (c->hit[l] == NULL)
			continue;
		if (h == NULL) {
			if ((h = json_copy(c->hit[l])) == NULL)
				return NULL;
		} else {
			json_object_update_missing(h, c->hit[l]);
		}
	}
	if (h == NULL)
		return NULL;
	sig = json_object();
	ev = json_array();
	if (sig == NULL || ev == NULL)
		ok = 0;
	for (i = 0; ok && i < f->nlanes; i++) {
		l = ord[i];
		if (c->hit[l] == NULL)
			continue;
		s = json_object_get(c->hit[l], "signals");
		if (json_is_object(s))
			json_object_update_missing(sig, s);
		signal_names(f->lanes[l].name, sname, rname, sizeof sname);
		set_num(sig, sname, c->score[l]);
		json_object_set_new(sig, rname, json_integer(c->rank[l]));
		s = json_object_get(c->hit[l], "snippet");
		if (json_is_string(s) && c->contrib[l] > best) {
			best = c->contrib[l];
			snip = json_string_value(s);
		}
		if (f->o.group != EV_GROUP_DOC && evidence_of(ev, c->hit[l], f->lanes[l].name,
		    c->score[l], NULL) == -1)
			ok = 0;
	}
	if (ok && f->o.group == EV_GROUP_DOC) {
		/* every chunk's evidence, each entry naming its chunk */
		chunks = json_array();
		for (j = 0; ok && j < json_array_size(c->chunks); j++) {
			json_t *ch = json_array_get(c->chunks, j);
			const char *ln = json_string_value(json_object_get(ch, "lane"));
			const char *cid = json_string_value(json_object_get(ch, "id"));
			int seen = 0;
			size_t m;
			for (m = 0; m < json_array_size(chunks); m++)
				if (strcmp(json_string_value(json_array_get(chunks, m)), cid) == 0)
					seen = 1;
			if (!seen)
				json_array_append_new(chunks, json_string(cid));
			if (evidence_of(ev, ch, ln, json_number_value(json_object_get(ch, "score")),
			    cid) == -1)
				ok = 0;
		}
		top = json_string_value(json_object_get(h, "id"));
		json_object_set_new(h, "chunk_id", json_string(top));
		json_object_set_new(h, "id", json_string(c->key));
		json_object_set_new(h, "chunks", chunks);
	}
	if (ok && evidence_sort(ev) == -1)
		ok = 0;
	if (ok) {
		set_num(sig, "rrf_score", c->rrf);
		if (f->o.method != EV_FUSE_RRF)
			set_num(sig, "fused_score", c->fused);
		json_object_set_new(h, "lane", json_string("fused"));
		json_object_set_new(h, "rank", json_integer(rank));
		set_num(h, "score", c->fused);
		json_object_set(h, "signals", sig);
		json_object_set(h, "evidence", ev);
		if (snip != NULL)
			json_object_set_new(h, "snippet", json_string(snip));
		if (f->o.explain)
			json_object_set_new(h, "explain", explain_of(f, c, ord, norm));
	}
	json_decref(sig);
	json_decref(ev);
	if (!ok) {
		json_decref(h);
		return NULL;
	}
	return h;
}

json_t *
ev_fuse_run(struct ev_fuse *f, struct ev_err *err)
{
	enum ev_fuse_norm norm = ev_fuse_norm_effective(&f->o);
	json_t *out = json_array(), *h;
	size_t *ix = NULL, i, n;
	int ord[EV_FUSE_MAXLANES];

	if (out == NULL || (ix = malloc((f->nc ? f->nc : 1) * sizeof *ix)) == NULL)
		goto nomem;
	if (f->o.group == EV_GROUP_DOC && rerank_docs(f, err) == -1)
		goto fail;
	lane_stats(f, norm);
	score_cands(f, norm);
	for (i = 0; i < f->nc; i++)
		ix[i] = i;
	sort_f = f;
	qsort(ix, f->nc, sizeof *ix, cmp_fused);
	lane_order(f, ord);
	n = f->nc;
	if (f->o.k > 0 && (size_t)f->o.k < n)
		n = (size_t)f->o.k;
	for (i = 0; i < n; i++) {
		if ((h = fused_hit(f, &f->c[ix[i]], (long long)i + 1, ord, norm)) == NULL ||
		    json_array_append_new(out, h) == -1)
			goto nomem;
	}
	free(ix);
	return out;
nomem:
	ev_err_nomem(err);
fail:
	free(ix);
	json_decref(out);
	return NULL;
}

/* ---- reading inputs in step ---- */

struct head {
	struct ev_jsonl *r;
	json_t *rec;		/* the next record, or NULL */
	char *qid;		/* its query id */
	char where[256];
	int eof;
};

struct ev_fuse_in {
	struct head *h;
	int n;
	json_t *done;		/* query ids fused: an object used as a set */
	char *cur;		/* the query being gathered, or NULL */
	int pos;		/* the input being read for it */
	long long records;
};

struct ev_fuse_in *
ev_fuse_in_open(char *const *paths, int n, struct ev_err *err)
{
	static char *const stdin_only[] = { "-" };
	struct ev_fuse_in *in;
	int i, nstdin = 0;

	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	for (i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0)
			nstdin++;
	if (nstdin > 1) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "standard input '-' named more than once");
		return NULL;
	}
	if ((in = calloc(1, sizeof *in)) == NULL ||
	    (in->h = calloc((size_t)n, sizeof *in->h)) == NULL ||
	    (in->done = json_object()) == NULL)
		goto nomem;
	in->n = n;
	for (i = 0; i < n; i++)
		if ((in->h[i].r = ev_jsonl_open(&paths[i], 1, err)) == NULL)
			goto fail;
	return in;
nomem:
	ev_err_nomem(err);
fail:
	ev_fuse_in_close(in);
	return NULL;
}

void
ev_fuse_in_close(struct ev_fuse_in *in)
{
	int i;

	if (in == NULL)
		return;
	for (i = 0; in->h != NULL && i < in->n; i++) {
		ev_jsonl_close(in->h[i].r);
		json_decref(in->h[i].rec);
		free(in->h[i].qid);
	}
	free(in->h);
	json_decref(in->done);
	free(in->cur);
	free(in);
}

long long
ev_fuse_in_records(const struct ev_fuse_in *in)
{
	return in->records;
}

static void
head_drop(struct head *h)
{
	json_decref(h->rec);
	h->rec = NULL;
	free(h->qid);
	h->qid = NULL;
}

/* Make sure input i has its next record at its head (unless at its end).
 * Returns 0, or -1 with *err (a bad record is dropped). */
static int
head_fill(struct ev_fuse_in *in, int i, struct ev_err *err)
{
	struct head *h = &in->h[i];
	char buf[64];
	json_t *v, *q;
	int r, len;

	if (h->rec != NULL || h->eof)
		return 0;
	r = ev_jsonl_next(h->r, &v, err);
	if (r == 0) {
		h->eof = 1;
		return 0;
	}
	if (r == -1)
		return -1;
	in->records++;
	snprintf(h->where, sizeof h->where, "%s", ev_jsonl_where(h->r));
	if (!json_is_object(v)) {
		json_decref(v);
		return ev_err_set(err, EV_EXIT_USAGE, h->where, "hit must be a JSON object");
	}
	q = json_object_get(v, "query_id");
	if (q == NULL || json_is_null(q)) {
		json_decref(v);
		return ev_err_set(err, EV_EXIT_USAGE, h->where, "missing field 'query_id'");
	}
	len = ev_json_id_text(q, buf, sizeof buf);
	if (len < 0) {
		json_decref(v);
		return ev_err_set(err, EV_EXIT_USAGE, h->where,
		    "field 'query_id' must be a string or an integer");
	}
	h->qid = (size_t)len < sizeof buf ? strdup(buf) : strdup(json_string_value(q));
	if (h->qid == NULL) {
		json_decref(v);
		return ev_err_nomem(err);
	}
	if (json_object_get(in->done, h->qid) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, h->where,
		    "query '%s' comes back after its hits were fused: each input must be grouped "
		    "by query, and several inputs must list the queries in the same order", h->qid);
		json_decref(v);
		free(h->qid);
		h->qid = NULL;
		return -1;
	}
	h->rec = v;
	return 0;
}

int
ev_fuse_in_next(struct ev_fuse_in *in, struct ev_fuse *f, struct ev_err *err)
{
	struct head *h;
	int i, r;

	if (in->cur == NULL) {
		/* the next query: the head of the first input with records left */
		for (i = 0; i < in->n; i++) {
			if (head_fill(in, i, err) == -1)
				return -1;
			if (in->h[i].rec != NULL)
				break;
		}
		if (i == in->n)
			return 0;
		if ((in->cur = strdup(in->h[i].qid)) == NULL)
			return ev_err_nomem(err);
		if (ev_fuse_begin(f, in->cur, err) == -1)
			return -1;
		in->pos = 0;
	}
	for (; in->pos < in->n; in->pos++) {
		h = &in->h[in->pos];
		for (;;) {
			if (head_fill(in, in->pos, err) == -1)
				return -1;
			if (h->rec == NULL || strcmp(h->qid, in->cur) != 0)
				break;
			r = ev_fuse_add(f, h->rec, h->where, err);
			head_drop(h);
			if (r == -1)
				return -1;
		}
	}
	if (json_object_set_new(in->done, in->cur, json_true()) == -1)
		return ev_err_nomem(err);
	free(in->cur);
	in->cur = NULL;
	return 1;
}
