/* fuse.c: fusing lanes of hits.  See fuse.h. */
#include "fuse.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jscan.h"
#include "jsonl.h"

/* ---- appending to buffers: inline when there is room ---- */

static inline int
buf_add(struct ev_buf *b, const void *s, size_t n)
{
	if (b->len + n < b->cap) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
		b->p[b->len] = '\0';
		return 0;
	}
	return ev_buf_add(b, s, n);
}

static inline int
buf_addc(struct ev_buf *b, int c)
{
	if (b->len + 1 < b->cap) {
		b->p[b->len++] = (char)c;
		b->p[b->len] = '\0';
		return 0;
	}
	return ev_buf_addc(b, c);
}

static inline int
buf_adds(struct ev_buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

/* ---- options ---- */

static const char *const method_names[] = { "rrf", "weighted", "combsum", "combmnz", "merge" };
static const char *const norm_names[] = { "default", "none", "max", "minmax", "zscore" };

void
ev_fuse_opts_init(struct ev_fuse_opts *o)
{
	memset(o, 0, sizeof *o);
	o->method = EV_FUSE_RRF;
	o->norm = EV_NORM_DEFAULT;
	o->group = EV_GROUP_CHUNK;
	o->rrf_k = EV_PLAN_DEFAULT(EV_PLAN_FUSION_RRF_K);
	o->k = 0;
	o->explain = 1;
	o->adapt = EV_ADAPT_NONE;
	memcpy(o->anchor, "text", sizeof "text");
	o->agree_depth = EV_FUSE_AGREE_DEPTH;
	o->agree_full = EV_FUSE_AGREE_FULL;
}

static const char *const adapt_names[] = { "none", "agreement" };

/* The index of s among names[from..n), or -1. */
static int
name_index(const char *const *names, size_t from, size_t n, const char *s)
{
	size_t i;

	for (i = from; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

#define NAMES(a) (sizeof (a) / sizeof (a)[0])

int
ev_fuse_adapt_parse(const char *s, enum ev_fuse_adapt *out)
{
	int i = name_index(adapt_names, 0, NAMES(adapt_names), s);

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_adapt)i;
	return 0;
}

const char *
ev_fuse_adapt_name(enum ev_fuse_adapt a)
{
	return adapt_names[a];
}

int
ev_fuse_method_parse(const char *s, enum ev_fuse_method *out)
{
	int i = name_index(method_names, 0, NAMES(method_names), s);

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_method)i;
	return 0;
}

const char *
ev_fuse_method_name(enum ev_fuse_method m)
{
	return method_names[m];
}

int
ev_fuse_norm_parse(const char *s, enum ev_fuse_norm *out)
{
	int i = name_index(norm_names, 1, NAMES(norm_names), s);	/* not "default" */

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_norm)i;
	return 0;
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
ev_fuse_anchor_set(struct ev_fuse_opts *o, const char *lane, struct ev_err *err)
{
	if (!lane_name_ok(lane))
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "lane name '%s' must be 1 to %d letters, digits, '_' or '-'", lane, EV_FUSE_LANE_MAX);
	snprintf(o->anchor, sizeof o->anchor, "%s", lane);
	return 0;
}

/* Split spec "LANE=VALUE" (the option `what`): the lane into lane (room for
 * EV_FUSE_LANE_MAX + 1 bytes).  Returns VALUE, or NULL with *err set. */
static const char *
split_lane(const char *spec, char *lane, const char *what, const char *form, struct ev_err *err)
{
	const char *eq = strchr(spec, '=');
	size_t n;

	if (eq == NULL) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "%s '%s' must read %s", what, spec, form);
		return NULL;
	}
	n = (size_t)(eq - spec);
	if (n == 0 || n > EV_FUSE_LANE_MAX) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "lane name in %s '%s' must be 1 to %d characters",
		    what, spec, EV_FUSE_LANE_MAX);
		return NULL;
	}
	memcpy(lane, spec, n);
	lane[n] = '\0';
	return eq + 1;
}

int
ev_fuse_weight_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err)
{
	char lane[EV_FUSE_LANE_MAX + 1], *end;
	const char *val = split_lane(spec, lane, "weight", "LANE=W", err);
	double w;

	if (val == NULL)
		return -1;
	w = strtod(val, &end);
	if (val[0] == '\0' || *end != '\0' || !isfinite(w) || w < 0)
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
ev_fuse_agree_from_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err)
{
	char lane[EV_FUSE_LANE_MAX + 1];
	const char *from = split_lane(spec, lane, "agreement source", "LANE=FROM", err);
	int i;

	if (from == NULL)
		return -1;
	if (!lane_name_ok(lane) || !lane_name_ok(from))
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "lane names in '%s' must be 1 to %d"
		    " letters, digits, '_' or '-'", spec, EV_FUSE_LANE_MAX);
	for (i = 0; i < o->nagree_from && strcmp(o->agree_from[i].lane, lane) != 0; i++)
		;
	if (i == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "more than %d agreement sources",
		    EV_FUSE_MAXLANES);
	snprintf(o->agree_from[i].lane, sizeof o->agree_from[i].lane, "%s", lane);
	snprintf(o->agree_from[i].from, sizeof o->agree_from[i].from, "%s", from);
	if (i == o->nagree_from)
		o->nagree_from++;
	return 0;
}

const char *
ev_fuse_agree_from_get(const struct ev_fuse_opts *o, const char *lane)
{
	int i;

	for (i = 0; i < o->nagree_from; i++)
		if (strcmp(o->agree_from[i].lane, lane) == 0)
			return o->agree_from[i].from;
	return lane;
}

static const char *const floor_names[] = { "norm", "zero" };

const char *
ev_fuse_floor_name(enum ev_fuse_floor floor)
{
	return floor_names[floor];
}

int
ev_fuse_floor_name_parse(const char *s, enum ev_fuse_floor *out)
{
	int i = name_index(floor_names, 0, NAMES(floor_names), s);

	if (i < 0)
		return -1;
	*out = (enum ev_fuse_floor)i;
	return 0;
}

int
ev_fuse_floor_set(struct ev_fuse_opts *o, const char *lane, enum ev_fuse_floor floor,
    struct ev_err *err)
{
	int i;

	if (!lane_name_ok(lane))
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "lane name '%s' must be 1 to %d letters, digits, '_' or '-'", lane, EV_FUSE_LANE_MAX);
	for (i = 0; i < o->nfloors; i++)
		if (strcmp(o->floors[i].lane, lane) == 0) {
			o->floors[i].floor = floor;
			return 0;
		}
	if (o->nfloors == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "more than %d lane floors", EV_FUSE_MAXLANES);
	snprintf(o->floors[o->nfloors].lane, sizeof o->floors[0].lane, "%s", lane);
	o->floors[o->nfloors++].floor = floor;
	return 0;
}

int
ev_fuse_floor_parse(struct ev_fuse_opts *o, const char *spec, struct ev_err *err)
{
	char lane[EV_FUSE_LANE_MAX + 1];
	const char *val = split_lane(spec, lane, "floor", "LANE=zero or LANE=norm", err);
	enum ev_fuse_floor floor;

	if (val == NULL)
		return -1;
	if (ev_fuse_floor_name_parse(val, &floor) == -1)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "floor in '%s' must be zero or norm", spec);
	return ev_fuse_floor_set(o, lane, floor, err);
}

enum ev_fuse_floor
ev_fuse_floor_get(const struct ev_fuse_opts *o, const char *lane)
{
	int i;

	for (i = 0; i < o->nfloors; i++)
		if (strcmp(o->floors[i].lane, lane) == 0)
			return o->floors[i].floor;
	return EV_FLOOR_NORM;
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
	uint64_t *hs;		/* the keys' hashes */
	int *vals;
	size_t cap, len;
};

static void
map_reset(struct map *m)
{
	if (m->keys != NULL && m->len > 0)
		memset(m->keys, 0, m->cap * sizeof *m->keys);
	m->len = 0;
}

static void
map_release(struct map *m)
{
	free(m->keys);
	free(m->hs);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* The slot of key (whose hash is h): its own, or the empty one where it
 * would go. */
static size_t
map_slot(const struct map *m, const char *key, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->keys[i] != NULL && (m->hs[i] != h || strcmp(m->keys[i], key) != 0))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int
map_get(const struct map *m, const char *key, uint64_t h)
{
	size_t i;

	if (m->len == 0)
		return -1;
	i = map_slot(m, key, h);
	return m->keys[i] != NULL ? m->vals[i] : -1;
}

static int
map_put(struct map *m, const char *key, uint64_t h, int val)
{
	size_t i, oldcap = m->cap;
	const char **ok = m->keys;
	uint64_t *oh = m->hs;
	int *ov = m->vals;

	if ((m->len + 1) * 2 > m->cap) {
		m->cap = oldcap ? oldcap * 2 : 64;
		m->keys = calloc(m->cap, sizeof *m->keys);
		m->hs = malloc(m->cap * sizeof *m->hs);
		m->vals = malloc(m->cap * sizeof *m->vals);
		if (m->keys == NULL || m->hs == NULL || m->vals == NULL) {
			free(m->keys);
			free(m->hs);
			free(m->vals);
			m->keys = ok;
			m->hs = oh;
			m->vals = ov;
			m->cap = oldcap;
			return -1;
		}
		for (i = 0; i < oldcap; i++)
			if (ok[i] != NULL) {
				size_t j = map_slot(m, ok[i], oh[i]);
				m->keys[j] = ok[i];
				m->hs[j] = oh[i];
				m->vals[j] = ov[i];
			}
		free(ok);
		free(oh);
		free(ov);
	}
	i = map_slot(m, key, h);
	if (m->keys[i] == NULL)
		m->len++;
	m->keys[i] = key;
	m->hs[i] = h;
	m->vals[i] = val;
	return 0;
}

/* ---- an arena for the lines of one query (blocks kept from query to query) ---- */

#define ARENA_BLOCK (1u << 20)

struct ablock {
	struct ablock *next;
	size_t cap, used, pad;	/* the header keeps data 16-byte aligned */
	char data[];
};

struct arena {
	struct ablock *first, *cur;
};

struct amark {
	struct ablock *cur;
	size_t used;
};

static int
arena_init(struct arena *a)
{
	if ((a->first = malloc(sizeof *a->first + ARENA_BLOCK)) == NULL)
		return -1;
	a->first->next = NULL;
	a->first->cap = ARENA_BLOCK;
	a->first->used = 0;
	a->cur = a->first;
	return 0;
}

static void *
arena_alloc(struct arena *a, size_t n)
{
	struct ablock *b = a->cur, *nb;
	size_t cap;

	n = (n + 15) & ~(size_t)15;
	if (b->cap - b->used >= n) {
		b->used += n;
		return b->data + b->used - n;
	}
	if (b->next != NULL && b->next->cap >= n) {
		a->cur = b->next;
		a->cur->used = n;
		return a->cur->data;
	}
	cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
	if ((nb = malloc(sizeof *nb + cap)) == NULL)
		return NULL;
	nb->cap = cap;
	nb->used = n;
	nb->next = b->next;
	b->next = nb;
	a->cur = nb;
	return nb->data;
}

static void
arena_reset(struct arena *a)
{
	if (a->first == NULL)
		return;
	a->cur = a->first;
	a->first->used = 0;
}

static struct amark
arena_mark(const struct arena *a)
{
	struct amark m = { a->cur, a->cur->used };

	return m;
}

static void
arena_restore(struct arena *a, struct amark m)
{
	a->cur = m.cur;
	a->cur->used = m.used;
}

static void
arena_free(struct arena *a)
{
	struct ablock *b, *n;

	for (b = a->first; b != NULL; b = n) {
		n = b->next;
		free(b);
	}
	a->first = a->cur = NULL;
}

/* ---- the accumulator ---- */

struct lane {
	char name[EV_FUSE_LANE_MAX + 1];
	char sname[EV_FUSE_LANE_MAX + 8], rname[EV_FUSE_LANE_MAX + 8];	/* its signals */
	size_t nlen, snlen, rnlen;
	double w;		/* the weight in effect for this query */
	double w0;		/* the weight given */
	double agree;		/* adaptive weights: its agreement with the anchor, or -1 */
	int agree_lane;		/* ... measured on this lane's documents (itself, or agree_from) */
	int shared, depth;	/* ... as shared candidates out of depth */
	int prio;
	int istext;		/* the lane "text" */
	int xc;			/* its slot of explanations kept, or -1 */
	size_t nfoff, nflen;	/* its account of not finding a candidate, in nfb */
	/* per query, over the candidates the lane found */
	double max, min, mean, sd, floor;
	enum ev_fuse_floor floor_rule;	/* the floor asked for */
	int floor_zero;		/* this query's floor is a raw score of 0's */
	long n;
};

/* The fields fusion reads (F_ID .. F_EV), and the keys a fused hit sets
 * (F_ID .. F_CHUNKS but F_DOC). */
enum { F_ID, F_LANE, F_RANK, F_SCORE, F_DOC, F_SIG, F_SNIP, F_EV, F_N,
	F_EXPLAIN = F_N, F_CHUNK_ID, F_CHUNKS, F_ALL };

/* A hit added: its line and members copied into the arena. */
struct rhit {
	const char *line;
	struct ev_jmem *m;
	int nm;
	int iid, idoc, isig, iev, isnip;	/* member indexes, or -1 */
	const char *id, *doc;	/* decoded, in the arena */
	int li;			/* its lane */
	long long rank;
	double score;
	int next;		/* grouping by document: the next hit of the document, or -1 */
	int pos[F_ALL];		/* where the keys a fused hit sets are, or -1 */
};

struct cand {
	const char *key;	/* id, or doc_id when grouping by document */
	int keyhit;		/* the hit whose raw key text names it */
	int hit[EV_FUSE_MAXLANES];	/* the lane's (best) hit, or -1 */
	int first, last;	/* grouping by document: its hits, in order added */
	long long rank[EV_FUSE_MAXLANES];
	double score[EV_FUSE_MAXLANES];
	double norm[EV_FUSE_MAXLANES];
	double contrib[EV_FUSE_MAXLANES];
	double fused, rrf;
	long long best_rank;
	int nfound;
};

/* A member of an object being written: raw key text, and a value that is raw
 * text (src 0) or text at off in f->gb (src 1) or f->vb (src 2). */
struct om {
	const char *k;
	size_t kn;
	int kesc;
	int src;
	const char *v;
	size_t off, vn;
};

struct oms {
	struct om *m;
	size_t n, cap;
};

/* The accounts of one lane finding a candidate at each rank (RRF), kept
 * from query to query: the text up to the score and after it. */
#define XC_RANKS 1024
#define XC_SLOTS (2 * EV_FUSE_MAXLANES)

struct xtext {
	uint32_t off;		/* in t */
	uint16_t split, len;	/* len 0: not made yet */
};

struct xslot {
	char name[EV_FUSE_LANE_MAX + 1];	/* the lane's, or "" */
	unsigned long gen;	/* the last query whose lanes used it */
	struct ev_buf t;
	struct xtext *r;	/* XC_RANKS of them, or NULL */
};

/* An evidence entry of a fused hit: text at off in f->eb. */
struct evx {
	size_t off, len;
	int prio;
};

struct ev_fuse {
	struct ev_fuse_opts o;
	char *qid;
	struct lane lanes[EV_FUSE_MAXLANES];
	int nlanes;
	char seen[EV_FUSE_MAXLANES][EV_FUSE_LANE_MAX + 1];	/* lanes of any query so far */
	int nseen;
	struct arena a;
	struct rhit *hits;
	size_t nh, caph;
	struct cand *c;
	size_t nc, capc;
	struct map ids[EV_FUSE_MAXLANES];	/* id -> 1, per lane: duplicates */
	struct map keys;	/* candidate key -> index into c */
	struct map adocs, ldocs;	/* adaptive weights: the first documents of two lanes */
	long long count;
	/* writing */
	struct ev_buf gb, vb, eb, tmp;
	struct oms top, sig;
	struct ev_jmems mems;
	struct evx *ev;
	size_t nev, capev;
	int *chunks;
	size_t capchunks;
	struct ev_jscan js;	/* for ev_fuse_add() */
	int sigfast;		/* no clash among the names of the signals */
	struct ev_buf exh, nfb;	/* the explain head, the accounts of missing lanes */
	struct xslot xc[XC_SLOTS];
	unsigned long gen;	/* queries written */
	char st[EV_FUSE_MAXLANES][32];	/* the text of each lane's score, for one candidate */
	unsigned char sn[EV_FUSE_MAXLANES];
	struct {
		uint64_t bits;
		char s[31];
		unsigned char n;	/* 0: empty */
	} rc[2048];		/* reals written lately (RRF's repeat) */
};

struct ev_fuse *
ev_fuse_new(const struct ev_fuse_opts *o, struct ev_err *err)
{
	struct ev_fuse *f = calloc(1, sizeof *f);

	if (f == NULL || arena_init(&f->a) == -1) {
		free(f);
		ev_err_nomem(err);
		return NULL;
	}
	f->o = *o;
	return f;
}

int
ev_fuse_begin(struct ev_fuse *f, const char *qid, struct ev_err *err)
{
	int i;

	f->nh = f->nc = 0;
	arena_reset(&f->a);
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
	arena_free(&f->a);
	free(f->hits);
	free(f->c);
	for (i = 0; i < EV_FUSE_MAXLANES; i++)
		map_release(&f->ids[i]);
	map_release(&f->keys);
	map_release(&f->adocs);
	map_release(&f->ldocs);
	free(f->qid);
	ev_buf_release(&f->gb);
	ev_buf_release(&f->vb);
	ev_buf_release(&f->eb);
	ev_buf_release(&f->tmp);
	ev_buf_release(&f->exh);
	ev_buf_release(&f->nfb);
	for (i = 0; i < XC_SLOTS; i++) {
		ev_buf_release(&f->xc[i].t);
		free(f->xc[i].r);
	}
	free(f->top.m);
	free(f->sig.m);
	free(f->mems.m);
	free(f->ev);
	free(f->chunks);
	ev_jscan_release(&f->js);
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
	struct lane *ln;
	const char *p;
	size_t n, pn;
	int i;

	for (i = 0; i < f->nlanes; i++)
		if (strcmp(f->lanes[i].name, name) == 0)
			return i;
	if (f->nlanes == EV_FUSE_MAXLANES)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "more than %d lanes in query '%s'", EV_FUSE_MAXLANES, f->qid);
	if ((n = strlen(name)) > EV_FUSE_LANE_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where, "lane name too long");
	p = strcmp(name, "text") == 0 ? "fts" : name;
	pn = strlen(p);
	ln = &f->lanes[i];
	memset(ln, 0, sizeof *ln);
	memcpy(ln->name, name, n + 1);
	memcpy(ln->sname, p, pn);
	memcpy(ln->sname + pn, "_score", sizeof "_score");
	memcpy(ln->rname, p, pn);
	memcpy(ln->rname + pn, "_rank", sizeof "_rank");
	ln->nlen = n;
	ln->snlen = pn + sizeof "_score" - 1;
	ln->rnlen = pn + sizeof "_rank" - 1;
	ln->istext = strcmp(name, "text") == 0;
	ln->xc = -1;
	ln->w = ln->w0 = ev_fuse_weight_get(&f->o, name);
	ln->floor_rule = ev_fuse_floor_get(&f->o, name);
	ln->agree = -1;
	ln->prio = ev_fuse_lane_priority(name);
	f->nlanes++;
	if (f->nseen < EV_FUSE_MAXLANES && !ev_fuse_lane_seen(f, name))
		memcpy(f->seen[f->nseen++], name, n + 1);
	return i;
}

int
ev_fuse_lane_seen(const struct ev_fuse *f, const char *lane)
{
	for (int i = 0; i < f->nseen; i++)
		if (strcmp(f->seen[i], lane) == 0)
			return 1;
	return 0;
}

/* The index of the member named key (not null), or -1. */
static int
member(const struct ev_jmem *m, int nm, const char *key)
{
	size_t n = strlen(key);
	int i;

	for (i = 0; i < nm; i++)
		if (m[i].kesc ? ev_jscan_str_eq(m[i].key, m[i].klen, key) :
		    m[i].klen == n && memcmp(m[i].key, key, n) == 0)
			return m[i].type == EV_JNULL ? -1 : i;
	return -1;
}

static int
wrong_type(const char *key, const char *want, const char *where, struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_USAGE, where, "field '%s' must be %s", key, want);
}

static const char *const field_names[F_ALL] = {
	"id", "lane", "rank", "score", "doc_id", "signals", "snippet", "evidence",
	"explain", "chunk_id", "chunks"
};

/* Find the fields of h in one pass: ix[F_...] is the member index, or -1
 * when absent or null; h->pos[F_...] the index of the key whatever its
 * value, or -1. */
static void
classify(struct rhit *h, int *ix)
{
	const struct ev_jmem *m;
	int i, k, fi;

	for (k = 0; k < F_ALL; k++)
		h->pos[k] = -1;
	for (i = 0; i < h->nm; i++) {
		m = &h->m[i];
		fi = -1;
		if (m->kesc) {
			for (k = 0; k < F_ALL; k++)
				if (ev_jscan_str_eq(m->key, m->klen, field_names[k]))
					fi = k;
		} else {
#define IS(lit) (memcmp(m->key, lit, sizeof(lit) - 1) == 0)
			switch (m->klen) {
			case 2: fi = IS("id") ? F_ID : -1; break;
			case 4: fi = IS("lane") ? F_LANE : IS("rank") ? F_RANK : -1; break;
			case 5: fi = IS("score") ? F_SCORE : -1; break;
			case 6: fi = IS("doc_id") ? F_DOC : IS("chunks") ? F_CHUNKS : -1; break;
			case 7: fi = IS("signals") ? F_SIG : IS("snippet") ? F_SNIP :
			    IS("explain") ? F_EXPLAIN : -1; break;
			case 8: fi = IS("evidence") ? F_EV : IS("chunk_id") ? F_CHUNK_ID : -1; break;
			}
#undef IS
		}
		if (fi >= 0)
			h->pos[fi] = i;
	}
	for (k = 0; k < F_N; k++)
		ix[k] = h->pos[k] >= 0 && h->m[h->pos[k]].type != EV_JNULL ? h->pos[k] : -1;
}

/* Field k of h (member i, or -1), which must be of type t (EV_JINT standing
 * for any number) when present: i, -1 when absent (an error when required),
 * -2 with *err on error. */
static int
field(const struct rhit *h, int i, int k, int t, int required, const char *where,
    struct ev_err *err)
{
	static const char *const want[] = {
		"", "", "", "a number", "", "a string", "an array", "an object"
	};
	const char *key = field_names[k];
	int ty;

	if (i < 0) {
		if (required) {
			ev_err_set(err, EV_EXIT_USAGE, where, "missing field '%s'", key);
			return -2;
		}
		return -1;
	}
	ty = h->m[i].type;
	if (t == EV_JINT ? ty != EV_JINT && ty != EV_JREAL : ty != t) {
		wrong_type(key, want[t], where, err);
		return -2;
	}
	return i;
}

static double
num_value(const struct ev_jmem *m)
{
	char small[64], *copy;
	double d;

	if (m->type == EV_JINT && m->vlen < 19) {
		const char *p = m->val, *end = p + m->vlen;
		long long v = 0;
		int neg = *p == '-';
		for (p += neg; p < end; p++)
			v = v * 10 + (*p - '0');
		return (double)(neg ? -v : v);
	}
	if (m->type == EV_JREAL && m->vlen <= 17) {
		/* a plain decimal of at most 15 digits: one exact division */
		static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
		    1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
		const char *p = m->val, *end = p + m->vlen, *dot;
		long long v = 0;
		int neg = *p == '-';
		for (p += neg; p < end && *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (*p - '0');
		if (p < end && *p == '.') {
			dot = p;
			for (p++; p < end && *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (*p - '0');
			/* at most 15 digits: vlen <= 16 with the point, 17 with a sign */
			if (p == end && m->vlen - (size_t)neg <= 16)
				return (neg ? -(double)v : (double)v) / p10[end - dot - 1];
		}
	}
	copy = m->vlen < sizeof small ? small : malloc(m->vlen + 1);
	if (copy == NULL)
		return NAN;
	memcpy(copy, m->val, m->vlen);
	copy[m->vlen] = '\0';
	d = m->type == EV_JINT ? (double)strtoll(copy, NULL, 10) : strtod(copy, NULL);
	if (copy != small)
		free(copy);
	return d;
}

/* A decoded copy of the string member m, in the arena. */
static const char *
arena_str(struct ev_fuse *f, const struct ev_jmem *m)
{
	const char *raw = m->val + 1;
	size_t n = m->vlen - 2;
	char *s = arena_alloc(&f->a, n + 1);
	struct ev_buf b;

	if (s == NULL)
		return NULL;
	if (memchr(raw, '\\', n) == NULL) {
		memcpy(s, raw, n);
		s[n] = '\0';
		return s;
	}
	b.p = s;
	b.len = 0;
	b.cap = n + 1;
	ev_jscan_decode(&b, raw, n);	/* fits: decoding never lengthens */
	return s;
}

static int
evidence_check(const char *e, size_t n, void *data)
{
	(void)n;
	(void)data;
	return *e != '{';
}

/* The name of the lane of this query that the string member m names as it
 * is written (no escape), or NULL. */
static const char *
known_lane(const struct ev_fuse *f, const struct ev_jmem *m)
{
	size_t n = m->vlen - 2;
	int i;

	for (i = 0; i < f->nlanes; i++)
		if (f->lanes[i].nlen == n && memcmp(f->lanes[i].name, m->val + 1, n) == 0)
			return f->lanes[i].name;
	return NULL;
}

/* Check the fields of hit h.  Returns 0 or -1 with *err set. */
static int
check_hit(struct ev_fuse *f, struct rhit *h, const char **lane, const char *where,
    struct ev_err *err)
{
	int ilane, irank, iscore, i, ix[F_N];
	const struct ev_jmem *m;
	const char *known;
	double d;

	classify(h, ix);
	if ((h->iid = field(h, ix[F_ID], F_ID, EV_JSTR, 1, where, err)) == -2 ||
	    (ilane = field(h, ix[F_LANE], F_LANE, EV_JSTR, 1, where, err)) == -2)
		return -1;
	if ((irank = ix[F_RANK]) < 0)
		return ev_err_set(err, EV_EXIT_USAGE, where, "missing field 'rank'");
	m = &h->m[irank];
	if (m->type == EV_JINT && m->vlen < 19) {
		h->rank = (long long)num_value(m);
	} else if (m->type == EV_JINT) {
		char small[32];
		size_t n = m->vlen < sizeof small - 1 ? m->vlen : sizeof small - 1;
		memcpy(small, m->val, n);
		small[n] = '\0';
		h->rank = strtoll(small, NULL, 10);	/* it fits: the scanner checked */
	} else if (m->type == EV_JREAL && (d = num_value(m)) > -9.2e18 && d < 9.2e18 &&
	    d == (double)(long long)d) {
		h->rank = (long long)d;
	} else {
		return wrong_type("rank", "an integer", where, err);
	}
	if ((iscore = field(h, ix[F_SCORE], F_SCORE, EV_JINT, 1, where, err)) == -2 ||
	    (h->idoc = field(h, ix[F_DOC], F_DOC, EV_JSTR, f->o.group == EV_GROUP_DOC, where, err)) == -2 ||
	    (h->isig = field(h, ix[F_SIG], F_SIG, EV_JOBJ, 0, where, err)) == -2 ||
	    (h->isnip = field(h, ix[F_SNIP], F_SNIP, EV_JSTR, 0, where, err)) == -2)
		return -1;
	h->score = num_value(&h->m[iscore]);
	known = known_lane(f, &h->m[ilane]);
	if ((h->id = arena_str(f, &h->m[h->iid])) == NULL ||
	    ((*lane = known) == NULL && (*lane = arena_str(f, &h->m[ilane])) == NULL) ||
	    (h->idoc >= 0 && (f->o.group == EV_GROUP_DOC || f->o.adapt != EV_ADAPT_NONE) &&
	    (h->doc = arena_str(f, &h->m[h->idoc])) == NULL))
		return ev_err_nomem(err);
	if (h->id[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'id' must not be empty");
	if (known == NULL && strcmp(*lane, "fused") == 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "hit of lane 'fused' cannot be fused again");
	if (known == NULL && !lane_name_ok(*lane))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'lane' must be 1 to %d letters, digits, '_' or '-'", EV_FUSE_LANE_MAX);
	if (h->rank < 1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rank' must be at least 1");
	if (!isfinite(h->score))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'score' must be finite");
	if ((h->iev = field(h, ix[F_EV], F_EV, EV_JARR, 0, where, err)) == -2)
		return -1;
	i = h->iev;
	if (i >= 0 && ev_jscan_elements(h->m[i].val, h->m[i].vlen, evidence_check, NULL) != 0)
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'evidence' must be an array of objects");
	return 0;
}

/* Add the hit whose text is line[0..len) and whose members (pointing into
 * line) are m[0..nm). */
static int
add_scanned(struct ev_fuse *f, const char *line, size_t len, const struct ev_jmem *m, size_t nm,
    const char *where, struct ev_err *err)
{
	struct amark mark = arena_mark(&f->a);
	const char *lane = NULL, *key;
	struct rhit *h;
	struct cand *c;
	char *copy;
	size_t i;
	uint64_t hid, hkey;
	int li, ci, hi;

	if (nm > INT32_MAX || f->nh >= INT32_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, where, "too many hits in one query");
	if (f->nh == f->caph) {
		size_t cap = f->caph ? f->caph * 2 : 64;
		struct rhit *p = realloc(f->hits, cap * sizeof *p);
		if (p == NULL)
			return ev_err_nomem(err);
		f->hits = p;
		f->caph = cap;
	}
	h = &f->hits[f->nh];
	memset(h, 0, sizeof *h);
	if ((copy = arena_alloc(&f->a, len + 1)) == NULL ||
	    (h->m = arena_alloc(&f->a, (nm ? nm : 1) * sizeof *h->m)) == NULL)
		goto nomem;
	memcpy(copy, line, len);
	copy[len] = '\0';
	h->line = copy;
	h->nm = (int)nm;
	for (i = 0; i < nm; i++) {
		h->m[i] = m[i];
		h->m[i].key = copy + (m[i].key - line);
		h->m[i].val = copy + (m[i].val - line);
	}
	h->next = -1;
	if (check_hit(f, h, &lane, where, err) == -1 ||
	    (li = lane_index(f, lane, where, err)) == -1)
		goto fail;
	if (f->o.method == EV_FUSE_MERGE && li > 0) {
		ev_err_set(err, EV_EXIT_USAGE, where, "--method merge merges the shards of one lane;"
		    " query '%s' has hits of lanes '%s' and '%s' (fuse lanes with rrf, weighted,"
		    " combsum or combmnz)", f->qid, f->lanes[0].name, lane);
		goto fail;
	}
	h->li = li;
	hid = ev_hash_str64(h->id);
	if (map_get(&f->ids[li], h->id, hid) != -1) {
		ev_err_set(err, EV_EXIT_USAGE, where,
		    "id '%s' appears twice in lane '%s' of query '%s'", h->id, lane, f->qid);
		goto fail;
	}
	key = f->o.group == EV_GROUP_DOC ? h->doc : h->id;
	hi = (int)f->nh;
	hkey = key == h->id ? hid : ev_hash_str64(key);
	ci = map_get(&f->keys, key, hkey);
	if (ci == -1) {
		if (f->nc == f->capc) {
			size_t cap = f->capc ? f->capc * 2 : 64;
			struct cand *p = realloc(f->c, cap * sizeof *p);
			if (p == NULL)
				goto nomem;
			f->c = p;
			f->capc = cap;
		}
		c = &f->c[f->nc];
		c->key = key;
		c->keyhit = hi;
		for (i = 0; i < EV_FUSE_MAXLANES; i++)
			c->hit[i] = -1;
		c->first = c->last = -1;
		if (map_put(&f->keys, key, hkey, (int)f->nc) == -1)
			goto nomem;
		ci = (int)f->nc++;
	}
	if (map_put(&f->ids[li], h->id, hid, 1) == -1)
		goto nomem;
	c = &f->c[ci];
	if (f->o.group == EV_GROUP_DOC) {
		if (c->last >= 0)
			f->hits[c->last].next = hi;
		else
			c->first = hi;
		c->last = hi;
	}
	if (c->hit[li] < 0 || h->rank < c->rank[li]) {
		c->hit[li] = hi;
		c->rank[li] = h->rank;
		c->score[li] = h->score;
	}
	f->nh++;
	f->count++;
	return 0;
nomem:
	ev_err_nomem(err);
fail:
	arena_restore(&f->a, mark);
	return -1;
}

int
ev_fuse_add_line(struct ev_fuse *f, const char *line, size_t len, const char *where,
    struct ev_err *err)
{
	int t = ev_jscan_value(&f->js, line, len, where, err);

	if (t == -1) {
		ev_json_refused(line, len, where, err);
		return -1;
	}
	if (t != EV_JOBJ)
		return ev_err_set(err, EV_EXIT_USAGE, where, "hit must be a JSON object");
	return add_scanned(f, line, len, f->js.top.m, f->js.top.n, where, err);
}

static int
dump_cb(const char *s, size_t n, void *data)
{
	return buf_add(data, s, n);
}

int
ev_fuse_add(struct ev_fuse *f, json_t *hit, const char *where, struct ev_err *err)
{
	if (!json_is_object(hit))
		return ev_err_set(err, EV_EXIT_USAGE, where, "hit must be a JSON object");
	ev_buf_reset(&f->tmp);
	if (json_dump_callback(hit, dump_cb, &f->tmp, JSON_COMPACT | JSON_REAL_PRECISION(17)) == -1)
		return ev_err_nomem(err);
	return ev_fuse_add_line(f, f->tmp.p, f->tmp.len, where, err);
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

/* Lane ln's score s normalised by norm. */
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
		ln->floor = 0;
		if (norm == EV_NORM_ZSCORE && ln->sd > 0)
			ln->floor = (ln->min - ln->mean) / ln->sd;
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
first_docs(struct ev_fuse *f, int l, size_t *ix, struct map *m, const struct map *tally,
    int *shared)
{
	size_t i, n = 0;
	long k = 0;

	map_reset(m);
	for (i = 0; i < f->nc; i++)
		if (f->c[i].hit[l] >= 0)
			ix[n++] = i;
	sort_f = f;
	sort_lane = l;
	qsort(ix, n, sizeof *ix, cmp_lane_rank);
	for (i = 0; i < n && k < f->o.agree_depth; i++) {
		const char *d = cand_doc(f, &f->c[ix[i]], l);
		uint64_t h = ev_hash_str64(d);

		if (map_get(m, d, h) >= 0)
			continue;
		if (map_put(m, d, h, 1) == -1)
			return -1;
		if (tally != NULL && map_get(tally, d, h) >= 0)
			(*shared)++;
		k++;
	}
	return k;
}

/* Adaptive weights (fuse.h, ev_fuse_opts.adapt): each lane's weight for
 * this query, from how many of its first documents are among the anchor's
 * first (documents, not chunks: two lanes agree on a document even when they
 * found different passages of it).  ix has room for every candidate.
 * Returns 0, or -1 when out of memory. */
static int
adapt_weights(struct ev_fuse *f, size_t *ix)
{
	long na, nl;
	int l, a = -1;

	for (l = 0; l < f->nlanes; l++) {
		f->lanes[l].w = f->lanes[l].w0;
		f->lanes[l].agree = -1;
		if (strcmp(f->lanes[l].name, f->o.anchor) == 0)
			a = l;
	}
	if (f->o.adapt == EV_ADAPT_NONE || a < 0 || f->lanes[a].n == 0)
		return 0;
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
static void
sort_cands(const struct cand *c, size_t *a, size_t *t, size_t n)
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
	sort_cands(c, a, t, h);
	sort_cands(c, a + h, t, n - h);
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

/* ---- writing a fused hit ---- */

/* The text of the real v as Jansson writes it, into s (at least 32 bytes),
 * remembering it (RRF's scores repeat).  Returns its length. */
static size_t
fmt_real(struct ev_fuse *f, double v, char *s)
{
	char t[48];
	struct ev_buf b = { t, 0, sizeof t };	/* room for any real */
	uint64_t bits;
	size_t i;

	memcpy(&bits, &v, sizeof bits);
	i = (size_t)((bits * 0x9E3779B97F4A7C15ULL) >> 53);
	if (f->rc[i].n > 0 && f->rc[i].bits == bits) {
		memcpy(s, f->rc[i].s, sizeof f->rc[i].s);
		return f->rc[i].n;
	}
	ev_jscan_put_real(&b, v);
	if (b.len < sizeof f->rc[i].s) {
		f->rc[i].bits = bits;
		memcpy(f->rc[i].s, t, b.len);
		f->rc[i].n = (unsigned char)b.len;
	}
	memcpy(s, t, b.len < 32 ? b.len : 32);
	return b.len < 32 ? b.len : 32;
}

/* Append the real v as Jansson writes it. */
static int
put_real(struct ev_fuse *f, struct ev_buf *b, double v)
{
	char s[32];
	size_t n = fmt_real(f, v, s);

	return buf_add(b, s, n);
}

#define ADDL(b, lit) buf_add((b), (lit), sizeof(lit) - 1)	/* a string literal */

static int
oms_push(struct oms *s, const struct om *m)
{
	if (ev_grow(&s->m, &s->cap, s->n, sizeof *s->m, 32) == -1)
		return -1;
	s->m[s->n++] = *m;
	return 0;
}

/* The index of the member whose raw key is k[0..kn), or -1. */
static long
oms_find(const struct oms *s, const char *k, size_t kn, int kesc)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct om *m = &s->m[i];
		if (!kesc && !m->kesc) {
			if (m->kn == kn && memcmp(m->k, k, kn) == 0)
				return (long)i;
		} else if (ev_jscan_raw_eq(m->k, m->kn, k, kn)) {
			return (long)i;
		}
	}
	return -1;
}

/* Add a raw member unless its key is there (at hint, as when the lanes
 * write their fields in the same order, or elsewhere).  Returns 1 when it
 * was added, 0 when it was there, -1 when out of memory. */
static int
oms_add_missing(struct oms *s, const struct ev_jmem *jm, size_t hint)
{
	struct om m = { jm->key, jm->klen, jm->kesc, 0, jm->val, 0, jm->vlen };

	if (hint < s->n && !jm->kesc && !s->m[hint].kesc && s->m[hint].kn == jm->klen &&
	    memcmp(s->m[hint].k, jm->key, jm->klen) == 0)
		return 0;
	if (oms_find(s, jm->key, jm->klen, jm->kesc) >= 0)
		return 0;
	return oms_push(s, &m) == -1 ? -1 : 1;
}

/* Set key (a plain name) to a value: raw v[0..vn) (src 0) or the text at
 * off in gb (1) or vb (2), where it is or at the end. */
static int
oms_set(struct oms *s, const char *key, int src, const char *v, size_t off, size_t vn)
{
	struct om m = { key, strlen(key), 0, src, v, off, vn };
	long i = oms_find(s, m.k, m.kn, 0);

	if (i >= 0) {
		s->m[i] = m;
		s->m[i].k = key;
		return 0;
	}
	return oms_push(s, &m);
}

/* Set the top-level key field_names[k], whose member index is slot[k] (or
 * -1), to a value as oms_set() does (src 0 to 5). */
static int
top_set(struct oms *s, int *slot, int k, int src, const char *v, size_t off, size_t vn)
{
	static const unsigned char len[F_ALL] = { 2, 4, 4, 5, 6, 7, 7, 8, 7, 8, 6 };
	struct om m = { field_names[k], len[k], 0, src, v, off, vn };

	if (slot[k] >= 0) {
		s->m[slot[k]] = m;
		return 0;
	}
	slot[k] = (int)s->n;
	return oms_push(s, &m);
}

/* Append the object of members s to b (values of src 0 to 2 only). */
static int
oms_write(const struct ev_fuse *f, const struct oms *s, struct ev_buf *b)
{
	size_t i, need = 2;
	char *p;

	for (i = 0; i < s->n; i++)
		need += s->m[i].kn + s->m[i].vn + 4;
	if (ev_buf_reserve(b, need) == -1)
		return -1;
	p = b->p + b->len;
	*p++ = '{';
	for (i = 0; i < s->n; i++) {
		const struct om *m = &s->m[i];
		const char *v = m->src == 0 ? m->v : m->src == 1 ? f->gb.p + m->off : f->vb.p + m->off;
		if (i > 0)
			*p++ = ',';
		*p++ = '"';
		memcpy(p, m->k, m->kn);
		p += m->kn;
		*p++ = '"';
		*p++ = ':';
		memcpy(p, v, m->vn);
		p += m->vn;
	}
	*p++ = '}';
	*p = '\0';
	b->len = (size_t)(p - b->p);
	return 0;
}

/* A number into gb, set as key's value in s. */
static int
set_real(struct ev_fuse *f, struct oms *s, const char *key, double v)
{
	size_t off = f->gb.len;

	if (put_real(f, &f->gb, v) == -1)
		return -1;
	return oms_set(s, key, 1, NULL, off, f->gb.len - off);
}

static int
set_int(struct ev_fuse *f, struct oms *s, const char *key, long long v)
{
	size_t off = f->gb.len;

	if (ev_jscan_put_int(&f->gb, v) == -1)
		return -1;
	return oms_set(s, key, 1, NULL, off, f->gb.len - off);
}

/* The priority of the lane named by the raw string value v[0..n) (quotes
 * included), or of no lane. */
static int
raw_lane_priority(const char *v, size_t n)
{
	static const char *const order[] = { "vector", "text", "region", "timeline" };
	int i;

	if (v == NULL || n < 2 || *v != '"')
		return 4;
	for (i = 0; i < 4; i++)
		if (ev_jscan_str_eq(v + 1, n - 2, order[i]))
			return i;
	return 4;
}

/* Keep the evidence entry at [off, eb.len) unless the same text is there. */
static int
evidence_keep(struct ev_fuse *f, size_t off, int prio)
{
	size_t len = f->eb.len - off, i;

	for (i = 0; i < f->nev; i++)
		if (f->ev[i].len == len && memcmp(f->eb.p + f->ev[i].off, f->eb.p + off, len) == 0) {
			f->eb.len = off;
			f->eb.p[off] = '\0';
			return 0;
		}
	if (f->nev == f->capev) {
		size_t cap = f->capev ? f->capev * 2 : 16;
		struct evx *p = realloc(f->ev, cap * sizeof *p);
		if (p == NULL)
			return -1;
		f->ev = p;
		f->capev = cap;
	}
	f->ev[f->nev].off = off;
	f->ev[f->nev].len = len;
	f->ev[f->nev].prio = prio;
	f->nev++;
	return 0;
}

struct evctx {
	struct ev_fuse *f;
	int count;		/* elements seen */
	const struct ev_jmem *chunk;	/* the chunk's id member, or NULL */
};

/* One element of a hit's evidence array (an object): into eb, its "id" set
 * to the chunk's when grouping by document. */
static int
evidence_elem(const char *e, size_t n, void *data)
{
	struct evctx *x = data;
	struct ev_fuse *f = x->f;
	size_t off = f->eb.len, i;
	int prio = 4, seen = 0;

	x->count++;
	f->mems.n = 0;
	if (ev_jscan_members(e, n, &f->mems) == -1)
		return -1;
	for (i = 0; i < f->mems.n; i++) {
		const struct ev_jmem *m = &f->mems.m[i];
		if (ev_jscan_str_eq(m->key, m->klen, "lane")) {
			prio = m->type == EV_JSTR ? raw_lane_priority(m->val, m->vlen) : 4;
			break;
		}
	}
	if (x->chunk == NULL) {
		if (buf_add(&f->eb, e, n) == -1)
			return -1;
	} else {
		if (buf_addc(&f->eb, '{') == -1)
			return -1;
		for (i = 0; i < f->mems.n; i++) {
			const struct ev_jmem *m = &f->mems.m[i];
			int isid = ev_jscan_str_eq(m->key, m->klen, "id");
			if ((i > 0 && buf_addc(&f->eb, ',') == -1) ||
			    buf_addc(&f->eb, '"') == -1 || buf_add(&f->eb, m->key, m->klen) == -1 ||
			    ADDL(&f->eb, "\":") == -1 ||
			    buf_add(&f->eb, isid ? x->chunk->val : m->val,
			    isid ? x->chunk->vlen : m->vlen) == -1)
				return -1;
			seen |= isid;
		}
		if (!seen && ((f->mems.n > 0 && buf_addc(&f->eb, ',') == -1) ||
		    ADDL(&f->eb, "\"id\":") == -1 ||
		    buf_add(&f->eb, x->chunk->val, x->chunk->vlen) == -1))
			return -1;
		if (buf_addc(&f->eb, '}') == -1)
			return -1;
	}
	return evidence_keep(f, off, prio);
}

/* The evidence hit h brings: its own array, or one entry made from the hit
 * ({"lane", "score"} and the snippet for the text lane).  st[0..sn) is the
 * text of h's score, or st is NULL. */
static int
evidence_of(struct ev_fuse *f, const struct rhit *h, int chunk, const char *st, size_t sn)
{
	const struct lane *ln = &f->lanes[h->li];
	struct evctx x = { f, 0, chunk ? &h->m[h->iid] : NULL };
	const struct ev_jmem *m;
	size_t off = f->eb.len;

	if (h->iev >= 0 && h->m[h->iev].vlen > 2) {
		m = &h->m[h->iev];
		if (ev_jscan_elements(m->val, m->vlen, evidence_elem, &x) != 0)
			return -1;
		if (x.count > 0)
			return 0;	/* not "[ ]" */
	}
	if (ADDL(&f->eb, "{\"lane\":\"") == -1 || buf_add(&f->eb, ln->name, ln->nlen) == -1 ||
	    ADDL(&f->eb, "\",\"score\":") == -1 ||
	    (st != NULL ? buf_add(&f->eb, st, sn) : put_real(f, &f->eb, h->score)) == -1)
		return -1;
	if (ln->istext && h->isnip >= 0) {
		m = &h->m[h->isnip];
		if (ADDL(&f->eb, ",\"snippet\":") == -1 || buf_add(&f->eb, m->val, m->vlen) == -1)
			return -1;
	}
	if (chunk) {
		m = &h->m[h->iid];
		if (ADDL(&f->eb, ",\"id\":") == -1 || buf_add(&f->eb, m->val, m->vlen) == -1)
			return -1;
	}
	if (buf_addc(&f->eb, '}') == -1)
		return -1;
	return evidence_keep(f, off, ln->prio);
}

/* The evidence array, stably sorted by lane priority, into b. */
static int
evidence_write(struct ev_fuse *f, struct ev_buf *b)
{
	struct evx t;
	size_t i, j;

	for (i = 1; i < f->nev; i++)	/* insertion sort: stable, and lists are short */
		for (j = i; j > 0 && f->ev[j - 1].prio > f->ev[j].prio; j--) {
			t = f->ev[j];
			f->ev[j] = f->ev[j - 1];
			f->ev[j - 1] = t;
		}
	if (buf_addc(b, '[') == -1)
		return -1;
	for (i = 0; i < f->nev; i++)
		if ((i > 0 && buf_addc(b, ',') == -1) ||
		    buf_add(b, f->eb.p + f->ev[i].off, f->ev[i].len) == -1)
			return -1;
	return buf_addc(b, ']');
}

static const char *
short_num(char *buf, size_t size, double v)
{
	ev_jscan_fmt_g(buf, size, v, 4);
	return buf;
}

/* short_num() for a number that follows an operator in a formula ('-',
 * 'x'): a negative one in parentheses, so that a - b reads
 * "0.1371-(-0.001709)", never "0.1371--0.001709", and w x b "1 x (-1)". */
static const char *
operand(char *buf, size_t size, double v)
{
	char t[40];

	ev_jscan_fmt_g(t, sizeof t, v, 4);
	snprintf(buf, size, t[0] == '-' ? "(%s)" : "%s", t);
	return buf;
}

/* A JSON string of text that needs no escape: the names of methods and
 * normalisations, lane names (letters, digits, '_' and '-': lane_name_ok())
 * and the formulas made of them, numbers and plain words. */
static int
put_text(struct ev_buf *b, const char *s)
{
	return buf_addc(b, '"') == -1 || buf_adds(b, s) == -1 || buf_addc(b, '"') == -1 ? -1 : 0;
}

/* Append the strings of a NULL-terminated list to b (the formulas).
 * Returns 0, or -1 when memory ran out (b then holds part of them). */
static int
cat(struct ev_buf *b, ...)
{
	const char *s;
	va_list ap;
	int r = 0;

	va_start(ap, b);
	while ((s = va_arg(ap, const char *)) != NULL)
		if (buf_adds(b, s) == -1)
			r = -1;
	va_end(ap);
	return r;
}

static int
put_key(struct ev_buf *b, const char *k)
{
	return buf_addc(b, '"') == -1 || buf_adds(b, k) == -1 || ADDL(b, "\":") == -1 ?
	    -1 : 0;
}

/* The account of a lane that did not find the candidate (the same for every
 * candidate of a query), into v. */
static int
explain_missing(struct ev_fuse *f, int l, double contrib, struct ev_buf *v)
{
	const struct lane *ln = &f->lanes[l];
	char a[40], b[40], w[40];
	struct ev_buf *fm = &f->tmp;
	int bad = 0;	/* a formula left incomplete for want of memory */

	ev_buf_reset(fm);
	if (f->o.method == EV_FUSE_RRF || contrib == 0)
		bad |= cat(fm, "not found by lane '", ln->name, "': contributes 0", NULL);
	else
		bad |= cat(fm, "not found by lane '", ln->name, "': contributes its floor",
		    ln->floor_zero ? " (a raw score of 0), " : ", ",
		    short_num(w, sizeof w, ln->w), " x ", operand(a, sizeof a, ln->floor), " = ",
		    short_num(b, sizeof b, contrib), NULL);
	return bad || ADDL(v, "{\"lane\":") == -1 || put_text(v, ln->name) == -1 ||
	    ADDL(v, ",\"found\":false,\"weight\":") == -1 ||
	    put_real(f, v, ln->w) == -1 || ADDL(v, ",\"contribution\":") == -1 ||
	    put_real(f, v, contrib) == -1 || ADDL(v, ",\"formula\":") == -1 ||
	    put_text(v, ev_buf_str(fm)) == -1 || buf_addc(v, '}') == -1 ? -1 : 0;
}

/* The start of the account of a lane that found the candidate, up to its
 * score, into v. */
static int
explain_head(const struct lane *ln, long long rank, struct ev_buf *v)
{
	return ADDL(v, "{\"lane\":") == -1 || put_text(v, ln->name) == -1 ||
	    ADDL(v, ",\"found\":true,\"rank\":") == -1 || ev_jscan_put_int(v, rank) == -1 ||
	    ADDL(v, ",\"score\":") == -1 ? -1 : 0;
}

/* The rest of the account of a lane that found the candidate, after its
 * score, into v. */
static int
explain_tail(struct ev_fuse *f, const struct cand *c, int l, enum ev_fuse_norm norm,
    struct ev_buf *v)
{
	const struct lane *ln = &f->lanes[l];
	char a[40], b[40], d[40], e[40], w[40];
	struct ev_buf *fm = &f->tmp;
	int bad = 0;	/* a formula left incomplete for want of memory */
	/* the first number, after "w x " when the weight is not 1 */
	const char *(*first)(char *, size_t, double) = ln->w != 1.0 ? operand : short_num;

	ev_buf_reset(fm);
	if (ln->w != 1.0)
		bad |= cat(fm, short_num(w, sizeof w, ln->w), " x ", NULL);
	if (f->o.method == EV_FUSE_RRF) {
		struct ev_buf rb = { b, 0, sizeof b };	/* room for any integer */
		ev_jscan_put_int(&rb, c->rank[l]);
		bad |= cat(fm, "1/(", short_num(a, sizeof a, f->o.rrf_k), "+", b, ")", NULL);
	} else {
		switch (norm) {
		case EV_NORM_MAX:
			bad |= cat(fm, first(a, sizeof a, c->score[l]), "/max(",
			    short_num(b, sizeof b, ln->max), ",1)", NULL);
			break;
		case EV_NORM_MINMAX:
			bad |= cat(fm, "(", short_num(a, sizeof a, c->score[l]), "-",
			    operand(b, sizeof b, ln->min), ")/(", short_num(d, sizeof d, ln->max), "-",
			    operand(e, sizeof e, ln->min), ")", NULL);
			break;
		case EV_NORM_ZSCORE:
			bad |= cat(fm, "(", short_num(a, sizeof a, c->score[l]), "-",
			    operand(b, sizeof b, ln->mean), ")/", short_num(d, sizeof d, ln->sd), NULL);
			break;
		default:
			bad |= cat(fm, first(a, sizeof a, c->score[l]), NULL);
		}
	}
	bad |= cat(fm, " = ", short_num(a, sizeof a, c->contrib[l]), NULL);
	return bad || ADDL(v, ",\"normalized\":") == -1 || put_real(f, v, c->norm[l]) == -1 ||
	    ADDL(v, ",\"weight\":") == -1 || put_real(f, v, ln->w) == -1 ||
	    ADDL(v, ",\"contribution\":") == -1 || put_real(f, v, c->contrib[l]) == -1 ||
	    ADDL(v, ",\"formula\":") == -1 || put_text(v, ev_buf_str(fm)) == -1 ||
	    buf_addc(v, '}') == -1 ? -1 : 0;
}

/* The account of a lane that found candidate c, whose score reads
 * st[0..sn), into v.  With RRF it depends only on the lane, its weight,
 * rrf_k and the rank (besides the score): made once per lane and rank, and
 * kept from query to query. */
static int
explain_found(struct ev_fuse *f, const struct cand *c, int l, enum ev_fuse_norm norm,
    const char *st, size_t sn, struct ev_buf *v)
{
	const struct lane *ln = &f->lanes[l];
	long long rank = c->rank[l];
	struct xslot *x;
	struct xtext *e;
	size_t off;

	if (ln->xc < 0 || rank >= XC_RANKS)
		return explain_head(ln, rank, v) == -1 || buf_add(v, st, sn) == -1 ||
		    explain_tail(f, c, l, norm, v) == -1 ? -1 : 0;
	x = &f->xc[ln->xc];
	if (x->r == NULL && (x->r = calloc(XC_RANKS, sizeof *x->r)) == NULL)
		return -1;
	e = &x->r[rank];
	if (e->len == 0) {
		off = x->t.len;
		if (explain_head(ln, rank, &x->t) == -1)
			goto nomem;
		e->split = (uint16_t)(x->t.len - off);
		if (explain_tail(f, c, l, norm, &x->t) == -1)
			goto nomem;
		e->off = (uint32_t)off;
		e->len = (uint16_t)(x->t.len - off);
	}
	return buf_add(v, x->t.p + e->off, e->split) == -1 || buf_add(v, st, sn) == -1 ||
	    buf_add(v, x->t.p + e->off + e->split, (size_t)(e->len - e->split)) == -1 ? -1 : 0;
nomem:
	x->t.len = off;
	if (x->t.p != NULL)
		x->t.p[off] = '\0';
	return -1;
}

/* The "explain" object, into v. */
static int
explain_of(struct ev_fuse *f, const struct cand *c, const int *ord, enum ev_fuse_norm norm,
    struct ev_buf *v)
{
	int i, l;

	if (buf_add(v, f->exh.p, f->exh.len) == -1)
		return -1;
	for (i = 0; i < f->nlanes; i++) {
		l = ord[i];
		if ((i > 0 && buf_addc(v, ',') == -1) ||
		    (c->hit[l] < 0 ? buf_add(v, f->nfb.p + f->lanes[l].nfoff, f->lanes[l].nflen) :
		    explain_found(f, c, l, norm, f->st[l], f->sn[l], v)) == -1)
			return -1;
	}
	if (buf_addc(v, ']') == -1)
		return -1;
	if (f->o.method == EV_FUSE_COMBMNZ && (ADDL(v, ",\"lanes_found\":") == -1 ||
	    ev_jscan_put_int(v, c->nfound) == -1))
		return -1;
	if (f->o.group == EV_GROUP_DOC && ADDL(v, ",\"group\":\"doc\"") == -1)
		return -1;
	return buf_addc(v, '}');
}

/* The lanes whose floor is not the normalisation's (fuse.h), with theirs,
 * into v: ,"floor":{"text":"zero"}; nothing when there are none. */
static int
explain_floors(struct ev_fuse *f, const int *ord, struct ev_buf *v)
{
	int i, n = 0;

	if (f->o.method == EV_FUSE_RRF)
		return 0;
	for (i = 0; i < f->nlanes; i++) {
		const struct lane *ln = &f->lanes[ord[i]];
		if (ln->floor_rule == EV_FLOOR_NORM)
			continue;
		if ((n++ ? buf_addc(v, ',') : ADDL(v, ",\"floor\":{")) == -1 ||
		    put_key(v, ln->name) == -1 ||
		    put_text(v, ev_fuse_floor_name(ln->floor_rule)) == -1)
			return -1;
	}
	return n > 0 && buf_addc(v, '}') == -1 ? -1 : 0;
}

/* The account of adaptive weights (fuse.h), into v: the rule, and for each
 * lane weighed against the anchor, what it shared and the weight it got. */
static int
explain_adapt(struct ev_fuse *f, const int *ord, struct ev_buf *v)
{
	struct ev_buf *fm = &f->tmp;
	char a[40], b[40], d[40], e[40], g[40];
	int i, first = 1, anchored = 0, bad = 0;

	if (ADDL(v, ",\"adapt\":{\"rule\":\"agreement\",\"anchor\":") == -1 ||
	    put_text(v, f->o.anchor) == -1 || ADDL(v, ",\"depth\":") == -1 ||
	    ev_jscan_put_int(v, f->o.agree_depth) == -1 || ADDL(v, ",\"full\":") == -1 ||
	    put_real(f, v, f->o.agree_full) == -1 || ADDL(v, ",\"lanes\":[") == -1)
		return -1;
	for (i = 0; i < f->nlanes; i++) {
		const struct lane *ln = &f->lanes[ord[i]];

		if (strcmp(ln->name, f->o.anchor) == 0)
			anchored = ln->n > 0;
		if (ln->agree < 0)
			continue;
		ev_buf_reset(fm);
		snprintf(a, sizeof a, "%d", ln->shared);
		snprintf(b, sizeof b, "%d", ln->depth);
		bad |= cat(fm, a, " of the first ", b, " documents of lane '",
		    f->lanes[ln->agree_lane].name, "' are among the first ", b, " of lane '",
		    f->o.anchor, "': agreement ",
		    short_num(d, sizeof d, ln->agree), NULL);
		if (ln->agree >= f->o.agree_full)
			bad |= cat(fm, " >= ", short_num(e, sizeof e, f->o.agree_full),
			    ", full weight ", short_num(g, sizeof g, ln->w), NULL);
		else
			bad |= cat(fm, " < ", short_num(e, sizeof e, f->o.agree_full), ", weight ",
			    short_num(g, sizeof g, ln->w0), " x ", d, "/", e, " = ",
			    short_num(a, sizeof a, ln->w), NULL);
		if (bad || (!first && buf_addc(v, ',') == -1) || ADDL(v, "{\"lane\":") == -1 ||
		    put_text(v, ln->name) == -1 ||
		    (ln->agree_lane != ord[i] && (ADDL(v, ",\"agreement_of\":") == -1 ||
		    put_text(v, f->lanes[ln->agree_lane].name) == -1)) ||
		    ADDL(v, ",\"shared\":") == -1 ||
		    ev_jscan_put_int(v, ln->shared) == -1 || ADDL(v, ",\"of\":") == -1 ||
		    ev_jscan_put_int(v, ln->depth) == -1 || ADDL(v, ",\"agreement\":") == -1 ||
		    put_real(f, v, ln->agree) == -1 || ADDL(v, ",\"weight_given\":") == -1 ||
		    put_real(f, v, ln->w0) == -1 || ADDL(v, ",\"weight\":") == -1 ||
		    put_real(f, v, ln->w) == -1 || ADDL(v, ",\"why\":") == -1 ||
		    put_text(v, ev_buf_str(fm)) == -1 || buf_addc(v, '}') == -1)
			return -1;
		first = 0;
	}
	if (ADDL(v, "]") == -1)
		return -1;
	if (!anchored && (ADDL(v, ",\"why\":\"lane '") == -1 || buf_adds(v, f->o.anchor) == -1 ||
	    ADDL(v, "' found nothing for this query: the weights as given\"") == -1))
		return -1;
	return buf_addc(v, '}');
}

/* What every fused hit of the query shares: the head of "explain" (method,
 * weights, up to "lanes") and the accounts of lanes not finding a
 * candidate; the cache slot of each lane's accounts. */
static int
explain_prepare(struct ev_fuse *f, const int *ord, enum ev_fuse_norm norm)
{
	struct ev_buf *v = &f->exh;
	double contrib;
	int i, j, l;

	ev_buf_reset(v);
	ev_buf_reset(&f->nfb);
	if (ADDL(v, "{\"method\":") == -1 || put_text(v, ev_fuse_method_name(f->o.method)) == -1)
		return -1;
	if (f->o.method == EV_FUSE_RRF) {
		if (ADDL(v, ",\"rrf_k\":") == -1 || put_real(f, v, f->o.rrf_k) == -1)
			return -1;
	} else if (ADDL(v, ",\"normalization\":") == -1 ||
	    put_text(v, ev_fuse_norm_name(norm)) == -1) {
		return -1;
	}
	if (ADDL(v, ",\"weights\":{") == -1)
		return -1;
	for (i = 0; i < f->nlanes; i++)
		if ((i > 0 && buf_addc(v, ',') == -1) || put_key(v, f->lanes[ord[i]].name) == -1 ||
		    put_real(f, v, f->lanes[ord[i]].w) == -1)
			return -1;
	if (buf_addc(v, '}') == -1 || explain_floors(f, ord, v) == -1 ||
	    (f->o.adapt == EV_ADAPT_AGREEMENT && explain_adapt(f, ord, v) == -1) ||
	    ADDL(v, ",\"lanes\":[") == -1)
		return -1;
	f->gen++;
	for (l = 0; l < f->nlanes; l++) {
		struct lane *ln = &f->lanes[l];
		/* as score_cands() computes a missing lane's contribution */
		contrib = f->o.method == EV_FUSE_RRF ? 0 : ln->w * ln->floor;
		ln->nfoff = f->nfb.len;
		if (explain_missing(f, l, contrib, &f->nfb) == -1)
			return -1;
		ln->nflen = f->nfb.len - ln->nfoff;
		ln->xc = -1;
		/* the accounts kept hold the weight given */
		if (f->o.method != EV_FUSE_RRF || ln->w != ln->w0)
			continue;
		for (j = 0; j < XC_SLOTS && strcmp(f->xc[j].name, ln->name) != 0; j++)
			;
		if (j == XC_SLOTS) {	/* a free slot: one no lane of this query uses */
			for (j = 0; j < XC_SLOTS && f->xc[j].gen == f->gen; j++)
				;
			if (j == XC_SLOTS)
				continue;	/* (there are twice as many as lanes) */
			ev_buf_reset(&f->xc[j].t);
			if (f->xc[j].r != NULL)
				memset(f->xc[j].r, 0, XC_RANKS * sizeof *f->xc[j].r);
			memcpy(f->xc[j].name, ln->name, sizeof ln->name);
		}
		f->xc[j].gen = f->gen;
		ln->xc = j;
	}
	return 0;
}

/* The chunks of a document, each once, in the order added, into vb. */
static int
chunks_of(struct ev_fuse *f, const struct cand *c)
{
	size_t n = 0, i;
	int h;

	if (buf_addc(&f->vb, '[') == -1)
		return -1;
	for (h = c->first; h >= 0; h = f->hits[h].next) {
		for (i = 0; i < n; i++)
			if (strcmp(f->hits[f->chunks[i]].id, f->hits[h].id) == 0)
				break;
		if (i < n)
			continue;
		if (n == f->capchunks) {
			size_t cap = f->capchunks ? f->capchunks * 2 : 16;
			int *p = realloc(f->chunks, cap * sizeof *p);
			if (p == NULL)
				return -1;
			f->chunks = p;
			f->capchunks = cap;
		}
		f->chunks[n++] = h;
		if ((n > 1 && buf_addc(&f->vb, ',') == -1) ||
		    buf_add(&f->vb, f->hits[h].m[f->hits[h].iid].val, f->hits[h].m[f->hits[h].iid].vlen) == -1)
			return -1;
	}
	return buf_addc(&f->vb, ']');
}

/* Values of the top-level members made as the fused hit is written. */
enum { SRC_SIGNALS = 3, SRC_EVIDENCE, SRC_EXPLAIN };

/* "signals" when no hit of c brings its own and no two of the names clash:
 * each lane's score and rank, in lane order, then rrf_score (and
 * fused_score). */
static int
signals_write(struct ev_fuse *f, const struct cand *c, const int *ord, struct ev_buf *b)
{
	const struct lane *ln;
	size_t n;
	char s[32];
	int k, l, first = 1;

	if (buf_addc(b, '{') == -1)
		return -1;
	for (k = 0; k < f->nlanes; k++) {
		if (c->hit[l = ord[k]] < 0)
			continue;
		ln = &f->lanes[l];
		if ((!first && buf_addc(b, ',') == -1) || buf_addc(b, '"') == -1 ||
		    buf_add(b, ln->sname, ln->snlen) == -1 || ADDL(b, "\":") == -1 ||
		    buf_add(b, f->st[l], f->sn[l]) == -1 || ADDL(b, ",\"") == -1 ||
		    buf_add(b, ln->rname, ln->rnlen) == -1 || ADDL(b, "\":") == -1 ||
		    ev_jscan_put_int(b, c->rank[l]) == -1)
			return -1;
		first = 0;
	}
	if (!first && buf_addc(b, ',') == -1)
		return -1;
	n = fmt_real(f, c->rrf, s);
	if (ADDL(b, "\"rrf_score\":") == -1 || buf_add(b, s, n) == -1)
		return -1;
	if (f->o.method != EV_FUSE_RRF) {
		n = fmt_real(f, c->fused, s);
		if (ADDL(b, ",\"fused_score\":") == -1 || buf_add(b, s, n) == -1)
			return -1;
	}
	return buf_addc(b, '}');
}

/* Append the fused hit's members s to out as an object. */
static int
top_write(struct ev_fuse *f, const struct cand *c, const int *ord, enum ev_fuse_norm norm,
    struct ev_buf *out)
{
	const struct oms *s = &f->top;
	size_t i, need;
	char *p;

	if (buf_addc(out, '{') == -1)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct om *m = &s->m[i];
		if (m->src == 0 && m->v == m->k + m->kn + 2) {
			/* members as they lie in a line, "k":v,"k":v: copied at once */
			const char *a = m->k - 1, *z = m->v + m->vn;
			while (i + 1 < s->n && s->m[i + 1].src == 0 && s->m[i + 1].k == z + 2 &&
			    z[0] == ',' && s->m[i + 1].v == s->m[i + 1].k + s->m[i + 1].kn + 2) {
				i++;
				z = s->m[i].v + s->m[i].vn;
			}
			need = (size_t)(z - a) + 1;
			if (out->len + need >= out->cap && ev_buf_reserve(out, need) == -1)
				return -1;
			p = out->p + out->len;
			if (m != &s->m[0])
				*p++ = ',';
			memcpy(p, a, (size_t)(z - a));
			out->len = (size_t)(p - out->p) + (size_t)(z - a);
			out->p[out->len] = '\0';
			continue;
		}
		need = m->kn + 4 + (m->src <= 2 ? m->vn : 0);
		if (out->len + need >= out->cap && ev_buf_reserve(out, need) == -1)
			return -1;
		p = out->p + out->len;
		if (i > 0)
			*p++ = ',';
		*p++ = '"';
		memcpy(p, m->k, m->kn);
		p += m->kn;
		*p++ = '"';
		*p++ = ':';
		switch (m->src) {
		case 0:
			memcpy(p, m->v, m->vn);
			p += m->vn;
			break;
		case 1:
			memcpy(p, f->gb.p + m->off, m->vn);
			p += m->vn;
			break;
		case 2:
			memcpy(p, f->vb.p + m->off, m->vn);
			p += m->vn;
			break;
		}
		out->len = (size_t)(p - out->p);
		out->p[out->len] = '\0';
		if ((m->src == SRC_SIGNALS && signals_write(f, c, ord, out) == -1) ||
		    (m->src == SRC_EVIDENCE && evidence_write(f, out) == -1) ||
		    (m->src == SRC_EXPLAIN && explain_of(f, c, ord, norm, out) == -1))
			return -1;
	}
	return buf_addc(out, '}');
}

/* Write the fused hit of candidate c at rank, and a newline, to out. */
static int
fused_hit(struct ev_fuse *f, const struct cand *c, long long rank, const int *ord,
    enum ev_fuse_norm norm, struct ev_buf *out)
{
	const struct ev_jmem *snip = NULL;
	const struct rhit *h, *top = NULL;
	double best = -INFINITY;
	size_t off, i;
	int k, l, j, s, r, slot[F_ALL], sigfast = f->sigfast;
	char t[24];
	struct ev_buf tb = { t, 0, sizeof t };	/* room for any integer */

	ev_buf_reset(&f->gb);
	ev_buf_reset(&f->vb);
	ev_buf_reset(&f->eb);
	f->top.n = f->sig.n = 0;
	f->nev = 0;
	/* the base: the first lane's hit in priority order, then the others' */
	for (k = 0; k < f->nlanes; k++) {
		if (c->hit[l = ord[k]] < 0)
			continue;
		h = &f->hits[c->hit[l]];
		f->sn[l] = (unsigned char)fmt_real(f, c->score[l], f->st[l]);
		if (h->isig >= 0)
			sigfast = 0;
		if (top == NULL) {
			top = h;
			if (f->top.cap < (size_t)h->nm) {
				struct om *p = realloc(f->top.m, (size_t)h->nm * 2 * sizeof *p);
				if (p == NULL)
					return -1;
				f->top.m = p;
				f->top.cap = (size_t)h->nm * 2;
			}
			for (j = 0; j < h->nm; j++) {
				struct om *m = &f->top.m[j];
				m->k = h->m[j].key;
				m->kn = h->m[j].klen;
				m->kesc = h->m[j].kesc;
				m->src = 0;
				m->v = h->m[j].val;
				m->vn = h->m[j].vlen;
			}
			f->top.n = (size_t)h->nm;
			memcpy(slot, h->pos, sizeof slot);
			continue;
		}
		for (j = 0; j < h->nm; j++) {
			if ((r = oms_add_missing(&f->top, &h->m[j], (size_t)j)) == -1)
				return -1;
			if (r == 1)
				for (s = 0; s < F_ALL; s++)
					if (h->pos[s] == j && slot[s] < 0)
						slot[s] = (int)f->top.n - 1;
		}
	}
	if (top == NULL)
		return 0;
	for (k = 0; k < f->nlanes; k++) {
		if (c->hit[l = ord[k]] < 0)
			continue;
		h = &f->hits[c->hit[l]];
		if (!sigfast) {
			if (h->isig >= 0) {
				f->mems.n = 0;
				if (ev_jscan_members(h->m[h->isig].val, h->m[h->isig].vlen, &f->mems) == -1)
					return -1;
				for (i = 0; i < f->mems.n; i++)
					if (oms_add_missing(&f->sig, &f->mems.m[i], i) == -1)
						return -1;
			}
			if (set_real(f, &f->sig, f->lanes[l].sname, c->score[l]) == -1 ||
			    set_int(f, &f->sig, f->lanes[l].rname, c->rank[l]) == -1)
				return -1;
		}
		if (h->isnip >= 0 && c->contrib[l] > best) {
			best = c->contrib[l];
			snip = &h->m[h->isnip];
		}
		if (f->o.group != EV_GROUP_DOC && evidence_of(f, h, 0, f->st[l], f->sn[l]) == -1)
			return -1;
	}
	if (f->o.group == EV_GROUP_DOC) {
		/* every chunk's evidence, each entry naming its chunk */
		for (j = c->first; j >= 0; j = f->hits[j].next)
			if (evidence_of(f, &f->hits[j], 1, NULL, 0) == -1)
				return -1;
		off = f->vb.len;
		if (chunks_of(f, c) == -1 ||
		    top_set(&f->top, slot, F_CHUNK_ID, 0, top->m[top->iid].val, 0, top->m[top->iid].vlen) == -1)
			return -1;
		h = &f->hits[c->keyhit];
		if (top_set(&f->top, slot, F_ID, 0, h->m[h->idoc].val, 0, h->m[h->idoc].vlen) == -1 ||
		    top_set(&f->top, slot, F_CHUNKS, 2, NULL, off, f->vb.len - off) == -1)
			return -1;
	}
	if (!sigfast && (set_real(f, &f->sig, "rrf_score", c->rrf) == -1 ||
	    (f->o.method != EV_FUSE_RRF && set_real(f, &f->sig, "fused_score", c->fused) == -1)))
		return -1;
	ev_jscan_put_int(&tb, rank);
	off = f->gb.len;
	if (buf_add(&f->gb, t, tb.len) == -1)
		return -1;
	if (top_set(&f->top, slot, F_LANE, 0, "\"fused\"", 0, 7) == -1 ||
	    top_set(&f->top, slot, F_RANK, 1, NULL, off, tb.len) == -1)
		return -1;
	off = f->gb.len;
	if (put_real(f, &f->gb, c->fused) == -1 ||
	    top_set(&f->top, slot, F_SCORE, 1, NULL, off, f->gb.len - off) == -1)
		return -1;
	if (sigfast) {
		if (top_set(&f->top, slot, F_SIG, SRC_SIGNALS, NULL, 0, 0) == -1)
			return -1;
	} else {
		off = f->vb.len;
		if (oms_write(f, &f->sig, &f->vb) == -1 ||
		    top_set(&f->top, slot, F_SIG, 2, NULL, off, f->vb.len - off) == -1)
			return -1;
	}
	if (top_set(&f->top, slot, F_EV, SRC_EVIDENCE, NULL, 0, 0) == -1)
		return -1;
	if (snip != NULL && top_set(&f->top, slot, F_SNIP, 0, snip->val, 0, snip->vlen) == -1)
		return -1;
	if (f->o.explain && top_set(&f->top, slot, F_EXPLAIN, SRC_EXPLAIN, NULL, 0, 0) == -1)
		return -1;
	if (top_write(f, c, ord, norm, out) == -1 || buf_addc(out, '\n') == -1)
		return -1;
	return 0;
}

/* May the signals be written without checking their names (signals_write())?
 * Not when two lanes' signals, or one and rrf_score or fused_score, have
 * the same name ("text" and "fts", or "rrf"). */
static int
signals_clash(const struct ev_fuse *f)
{
	int i, j;

	for (i = 0; i < f->nlanes; i++) {
		if (strcmp(f->lanes[i].sname, "rrf_score") == 0 ||
		    strcmp(f->lanes[i].sname, "fused_score") == 0)
			return 1;
		for (j = 0; j < i; j++)
			if (strcmp(f->lanes[i].sname, f->lanes[j].sname) == 0)
				return 1;
	}
	return 0;
}

/* Merging shards: best score first, then by id. */
static int
cmp_merge(const void *a, const void *b)
{
	const struct rhit *x = sort_f->hits + *(const size_t *)a, *y = sort_f->hits + *(const size_t *)b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Append the member m as raw text, a comma first unless it is the first. */
static int
raw_member(struct ev_buf *b, const struct ev_jmem *m, int first)
{
	if ((!first && buf_addc(b, ',') == -1) || buf_addc(b, '"') == -1 ||
	    buf_add(b, m->key, m->klen) == -1 || ADDL(b, "\":") == -1)
		return -1;
	return buf_add(b, m->val, m->vlen);
}

/* The signals s[0..n) of a merged hit at rank, the lane's rank signal
 * rewritten and, for the text lane, fts_norm made again over the merged
 * list (score / max(best, 1), as the lane defines it). */
static int
merge_signals(struct ev_fuse *f, const struct rhit *h, long long rank, double best,
    struct ev_buf *out)
{
	const struct lane *ln = &f->lanes[h->li];
	size_t i;

	f->mems.n = 0;
	if (ev_jscan_members(h->m[h->isig].val, h->m[h->isig].vlen, &f->mems) == -1 ||
	    buf_addc(out, '{') == -1)
		return -1;
	for (i = 0; i < f->mems.n; i++) {
		const struct ev_jmem *m = &f->mems.m[i];

		if (!m->kesc && m->klen == ln->rnlen && memcmp(m->key, ln->rname, m->klen) == 0) {
			if ((i > 0 && buf_addc(out, ',') == -1) || buf_addc(out, '"') == -1 ||
			    buf_add(out, m->key, m->klen) == -1 || ADDL(out, "\":") == -1 ||
			    ev_jscan_put_int(out, rank) == -1)
				return -1;
		} else if (ln->istext && !m->kesc && m->klen == 8 && memcmp(m->key, "fts_norm", 8) == 0) {
			if ((i > 0 && buf_addc(out, ',') == -1) || ADDL(out, "\"fts_norm\":") == -1 ||
			    put_real(f, out, h->score / (best > 1.0 ? best : 1.0)) == -1)
				return -1;
		} else if (raw_member(out, m, i == 0) == -1) {
			return -1;
		}
	}
	return buf_addc(out, '}');
}

/* --method merge: the hits of one lane's shards, by score then id, the
 * first k with their ranks (and the lane's rank signal) rewritten; every
 * other field as read. */
static int
merge_write(struct ev_fuse *f, struct ev_buf *out, long long *nout, struct ev_err *err)
{
	size_t *ix = malloc((f->nh ? f->nh : 1) * sizeof *ix), i, n = f->nh;
	double best;

	if (ix == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < f->nh; i++)
		ix[i] = i;
	sort_f = f;
	qsort(ix, f->nh, sizeof *ix, cmp_merge);
	if (f->o.k > 0 && (size_t)f->o.k < n)
		n = (size_t)f->o.k;
	best = n > 0 ? f->hits[ix[0]].score : 0.0;
	for (i = 0; i < n; i++) {
		const struct rhit *h = &f->hits[ix[i]];
		int j;

		if (buf_addc(out, '{') == -1)
			goto nomem;
		for (j = 0; j < h->nm; j++) {
			const struct ev_jmem *m = &h->m[j];

			if (j == h->pos[F_RANK]) {
				if ((j > 0 && buf_addc(out, ',') == -1) || ADDL(out, "\"rank\":") == -1 ||
				    ev_jscan_put_int(out, (long long)i + 1) == -1)
					goto nomem;
			} else if (j == h->isig) {
				if ((j > 0 && buf_addc(out, ',') == -1) || buf_addc(out, '"') == -1 ||
				    buf_add(out, m->key, m->klen) == -1 || ADDL(out, "\":") == -1 ||
				    merge_signals(f, h, (long long)i + 1, best, out) == -1)
					goto nomem;
			} else if (raw_member(out, m, j == 0) == -1) {
				goto nomem;
			}
		}
		if (ADDL(out, "}\n") == -1)
			goto nomem;
	}
	*nout = (long long)n;
	free(ix);
	return 0;
nomem:
	free(ix);
	return ev_err_nomem(err);
}

/* Keep, in their order, the candidates ix[0..nc) that a lane weighing more
 * than 0 found (fuse.h: a lane weighing 0 adds no candidate of its own), or
 * all of them when every lane weighs 0.  Returns how many are kept. */
static size_t
weighed_cands(struct ev_fuse *f, size_t *ix)
{
	size_t i, n = 0;
	int l, any = 0;

	for (l = 0; l < f->nlanes; l++)
		any |= f->lanes[l].w0 > 0;
	if (!any)
		return f->nc;
	for (i = 0; i < f->nc; i++)
		for (l = 0; l < f->nlanes; l++)
			if (f->c[ix[i]].hit[l] >= 0 && f->lanes[l].w0 > 0) {
				ix[n++] = ix[i];
				break;
			}
	return n;
}

int
ev_fuse_write(struct ev_fuse *f, struct ev_buf *out, long long *nout, struct ev_err *err)
{
	enum ev_fuse_norm norm = ev_fuse_norm_effective(&f->o);
	size_t *ix = NULL, i, n;
	int ord[EV_FUSE_MAXLANES];

	*nout = 0;
	if (f->o.method == EV_FUSE_MERGE)
		return merge_write(f, out, nout, err);
	if ((ix = malloc((f->nc ? f->nc : 1) * 2 * sizeof *ix)) == NULL)
		return ev_err_nomem(err);
	if (f->o.group == EV_GROUP_DOC && rerank_docs(f, err) == -1) {
		free(ix);
		return -1;
	}
	lane_stats(f, norm);
	if (adapt_weights(f, ix) == -1) {
		free(ix);
		return ev_err_nomem(err);
	}
	score_cands(f, norm);
	for (i = 0; i < f->nc; i++)
		ix[i] = i;
	sort_cands(f->c, ix, ix + f->nc, f->nc);
	n = weighed_cands(f, ix);
	lane_order(f, ord);
	f->sigfast = !signals_clash(f);
	if (f->o.explain && explain_prepare(f, ord, norm) == -1) {
		free(ix);
		return ev_err_nomem(err);
	}
	if (f->o.k > 0 && (size_t)f->o.k < n)
		n = (size_t)f->o.k;
	for (i = 0; i < n; i++)
		if (fused_hit(f, &f->c[ix[i]], (long long)i + 1, ord, norm, out) == -1) {
			free(ix);
			return ev_err_nomem(err);
		}
	*nout = (long long)n;
	free(ix);
	return 0;
}

json_t *
ev_fuse_run(struct ev_fuse *f, struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT;
	json_t *out = json_array(), *v;
	const char *p, *nl;
	long long n;

	if (out == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	if (ev_fuse_write(f, &b, &n, err) == -1) {
		ev_buf_release(&b);
		json_decref(out);
		return NULL;
	}
	for (p = ev_buf_str(&b); *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if ((v = ev_json_parse_line(p, (size_t)(nl - p), NULL, err)) == NULL ||
		    json_array_append_new(out, v) == -1) {
			ev_buf_release(&b);
			json_decref(out);
			if (v != NULL)
				ev_err_nomem(err);
			else if (err->code == EV_EXIT_USAGE)
				err->code = EV_EXIT_RUNTIME;	/* ours, not the user's, to fix */
			return NULL;
		}
	}
	ev_buf_release(&b);
	return out;
}

/* ---- reading inputs in step ---- */

struct head {
	struct ev_jsonl *r;
	struct ev_jscan js;	/* the members of its line */
	const char *line;	/* the next record (in the reader's buffer), or NULL */
	size_t len;
	char *qid;		/* its query id (in qb), or NULL */
	struct ev_buf qb;
	int eof;
};

struct ev_fuse_in {
	struct head *h;
	int n;
	json_t *done;		/* query ids fused: an object used as a set */
	char *cur;		/* the query being gathered, or NULL */
	int pos;		/* the input being read for it */
	long long records;
	struct ev_buf tmp;
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
		ev_jscan_release(&in->h[i].js);
		ev_buf_release(&in->h[i].qb);
	}
	free(in->h);
	json_decref(in->done);
	free(in->cur);
	ev_buf_release(&in->tmp);
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
	h->line = NULL;
	h->qid = NULL;
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* Make sure input i has its next record at its head (unless at its end).
 * Returns 0, or -1 with *err (a bad record is dropped). */
static int
head_fill(struct ev_fuse_in *in, int i, struct ev_err *err)
{
	struct head *h = &in->h[i];
	const struct ev_jmem *q;
	const char *line, *where;
	size_t len;
	int r, t, iq;

	if (h->line != NULL || h->eof)
		return 0;
	do {
		r = ev_jsonl_next_line(h->r, &line, &len, err);
	} while (r == 1 && blank(line, len));
	if (r == 0) {
		h->eof = 1;
		return 0;
	}
	if (r == -1)
		return -1;
	in->records++;
	if ((t = ev_jscan_value(&h->js, line, len, NULL, err)) == -1) {
		where = ev_jsonl_where(h->r);
		snprintf(err->where, sizeof err->where, "%s", where);
		ev_json_refused(line, len, where, err);
		return -1;
	}
	if (t != EV_JOBJ)
		return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r), "hit must be a JSON object");
	iq = member(h->js.top.m, (int)h->js.top.n, "query_id");
	if (iq < 0)
		return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r), "missing field 'query_id'");
	q = &h->js.top.m[iq];
	ev_buf_reset(&h->qb);
	if (q->type == EV_JSTR) {
		if (ev_jscan_decode(&h->qb, q->val + 1, q->vlen - 2) == -1)
			return ev_err_nomem(err);
	} else if (q->type == EV_JINT) {
		char small[32];
		if (q->vlen >= sizeof small)
			return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r),
			    "field 'query_id' must be a string or an integer");
		memcpy(small, q->val, q->vlen);
		small[q->vlen] = '\0';
		if (ev_buf_printf(&h->qb, "%lld", strtoll(small, NULL, 10)) == -1)
			return ev_err_nomem(err);
	} else {
		return ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r),
		    "field 'query_id' must be a string or an integer");
	}
	h->qid = (char *)ev_buf_str(&h->qb);
	/* the query being gathered is not done yet: no need to look */
	if ((in->cur == NULL || strcmp(h->qid, in->cur) != 0) &&
	    json_object_get(in->done, h->qid) != NULL) {
		ev_err_set(err, EV_EXIT_USAGE, ev_jsonl_where(h->r),
		    "query '%s' comes back after its hits were fused: each input must be grouped "
		    "by query, and several inputs must list the queries in the same order", h->qid);
		h->qid = NULL;
		return -1;
	}
	h->line = line;
	h->len = len;
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
			if (in->h[i].line != NULL)
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
			if (h->line == NULL || strcmp(h->qid, in->cur) != 0)
				break;
			r = add_scanned(f, h->line, h->len, h->js.top.m, h->js.top.n, NULL, err);
			if (r == -1 && err->code == EV_EXIT_USAGE)
				snprintf(err->where, sizeof err->where, "%s", ev_jsonl_where(h->r));
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
