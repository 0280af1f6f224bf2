/* fusewrite.c: writing the fused hits of one query: scores, signals, the
 * evidence joined, the snippet, "explain", and every other field of the
 * lanes' hits spliced in as read; and the merge method.  See fuse.h. */
#include "fuse.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fuseint.h"
#include "fuserank.h"
#include "jscan.h"
#include "jsonl.h"

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

	return ev_buf_put(b, s, n);
}

#define ADDL(b, lit) ev_buf_put((b), (lit), sizeof(lit) - 1)	/* a string literal */

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

/* Set the top-level key ev_fuse_field_names[k], whose member index is slot[k] (or
 * -1), to a value as oms_set() does (src 0 to 5). */
static int
top_set(struct oms *s, int *slot, int k, int src, const char *v, size_t off, size_t vn)
{
	static const unsigned char len[F_ALL] = { 2, 4, 4, 5, 6, 7, 7, 8, 7, 8, 6 };
	struct om m = { ev_fuse_field_names[k], len[k], 0, src, v, off, vn };

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
 * to the chunk's when grouping by document, and its rank made an integer
 * when written as a real (3.0, which the hit's check let through as 3). */
static int
evidence_elem(const char *e, size_t n, void *data)
{
	struct evctx *x = data;
	struct ev_fuse *f = x->f;
	size_t off = f->eb.len, i;
	int prio = 4, seen = 0, real_rank = 0;
	double rank;

	x->count++;
	f->mems.n = 0;
	if (ev_jscan_members(e, n, &f->mems) == -1)
		return -1;
	for (i = 0; i < f->mems.n; i++) {
		const struct ev_jmem *m = &f->mems.m[i];
		if (ev_jscan_str_eq(m->key, m->klen, "lane"))
			prio = m->type == EV_JSTR ? raw_lane_priority(m->val, m->vlen) : 4;
		else if (m->type == EV_JREAL && ev_jscan_str_eq(m->key, m->klen, "rank"))
			real_rank = 1;
	}
	if (x->chunk == NULL && !real_rank) {
		if (ev_buf_put(&f->eb, e, n) == -1)
			return -1;
	} else {
		if (ev_buf_putc(&f->eb, '{') == -1)
			return -1;
		for (i = 0; i < f->mems.n; i++) {
			const struct ev_jmem *m = &f->mems.m[i];
			int isid = x->chunk != NULL && ev_jscan_str_eq(m->key, m->klen, "id");
			int isrank = m->type == EV_JREAL && ev_jscan_str_eq(m->key, m->klen, "rank");
			if ((i > 0 && ev_buf_putc(&f->eb, ',') == -1) ||
			    ev_buf_putc(&f->eb, '"') == -1 || ev_buf_put(&f->eb, m->key, m->klen) == -1 ||
			    ADDL(&f->eb, "\":") == -1 ||
			    (isrank && ev_jscan_number(m->val, m->vlen, &rank) == -1))
				return -1;
			if (isrank ? ev_jscan_put_int(&f->eb, (long long)rank) == -1 :
			    ev_buf_put(&f->eb, isid ? x->chunk->val : m->val,
			    isid ? x->chunk->vlen : m->vlen) == -1)
				return -1;
			seen |= isid;
		}
		if (x->chunk != NULL && !seen && ((f->mems.n > 0 && ev_buf_putc(&f->eb, ',') == -1) ||
		    ADDL(&f->eb, "\"id\":") == -1 ||
		    ev_buf_put(&f->eb, x->chunk->val, x->chunk->vlen) == -1))
			return -1;
		if (ev_buf_putc(&f->eb, '}') == -1)
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
	if (ADDL(&f->eb, "{\"lane\":\"") == -1 || ev_buf_put(&f->eb, ln->name, ln->nlen) == -1 ||
	    ADDL(&f->eb, "\",\"score\":") == -1 ||
	    (st != NULL ? ev_buf_put(&f->eb, st, sn) : put_real(f, &f->eb, h->score)) == -1)
		return -1;
	if (ln->istext && h->isnip >= 0) {
		m = &h->m[h->isnip];
		if (ADDL(&f->eb, ",\"snippet\":") == -1 || ev_buf_put(&f->eb, m->val, m->vlen) == -1)
			return -1;
	}
	if (chunk) {
		m = &h->m[h->iid];
		if (ADDL(&f->eb, ",\"id\":") == -1 || ev_buf_put(&f->eb, m->val, m->vlen) == -1)
			return -1;
	}
	if (ev_buf_putc(&f->eb, '}') == -1)
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
	if (ev_buf_putc(b, '[') == -1)
		return -1;
	for (i = 0; i < f->nev; i++)
		if ((i > 0 && ev_buf_putc(b, ',') == -1) ||
		    ev_buf_put(b, f->eb.p + f->ev[i].off, f->ev[i].len) == -1)
			return -1;
	return ev_buf_putc(b, ']');
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
 * normalisations, lane names (lowercase letters, digits, '_' and '-': ev_plan_lane_name_ok())
 * and the formulas made of them, numbers and plain words. */
static int
put_text(struct ev_buf *b, const char *s)
{
	return ev_buf_putc(b, '"') == -1 || ev_buf_puts(b, s) == -1 || ev_buf_putc(b, '"') == -1 ? -1 : 0;
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
		if (ev_buf_puts(b, s) == -1)
			r = -1;
	va_end(ap);
	return r;
}

static int
put_key(struct ev_buf *b, const char *k)
{
	return ev_buf_putc(b, '"') == -1 || ev_buf_puts(b, k) == -1 || ADDL(b, "\":") == -1 ?
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
	    put_text(v, ev_buf_str(fm)) == -1 || ev_buf_putc(v, '}') == -1 ? -1 : 0;
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
	    ev_buf_putc(v, '}') == -1 ? -1 : 0;
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
		return explain_head(ln, rank, v) == -1 || ev_buf_put(v, st, sn) == -1 ||
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
	return ev_buf_put(v, x->t.p + e->off, e->split) == -1 || ev_buf_put(v, st, sn) == -1 ||
	    ev_buf_put(v, x->t.p + e->off + e->split, (size_t)(e->len - e->split)) == -1 ? -1 : 0;
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

	if (ev_buf_put(v, f->exh.p, f->exh.len) == -1)
		return -1;
	for (i = 0; i < f->nlanes; i++) {
		l = ord[i];
		if ((i > 0 && ev_buf_putc(v, ',') == -1) ||
		    (c->hit[l] < 0 ? ev_buf_put(v, f->nfb.p + f->lanes[l].nfoff, f->lanes[l].nflen) :
		    explain_found(f, c, l, norm, f->st[l], f->sn[l], v)) == -1)
			return -1;
	}
	if (ev_buf_putc(v, ']') == -1)
		return -1;
	if (f->o.method == EV_FUSE_COMBMNZ && (ADDL(v, ",\"lanes_found\":") == -1 ||
	    ev_jscan_put_int(v, c->nfound) == -1))
		return -1;
	if (f->o.group == EV_GROUP_DOC && ADDL(v, ",\"group\":\"doc\"") == -1)
		return -1;
	return ev_buf_putc(v, '}');
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
		if ((n++ ? ev_buf_putc(v, ',') : ADDL(v, ",\"floor\":{")) == -1 ||
		    put_key(v, ln->name) == -1 ||
		    put_text(v, ev_fuse_floor_name(ln->floor_rule)) == -1)
			return -1;
	}
	return n > 0 && ev_buf_putc(v, '}') == -1 ? -1 : 0;
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
		if (bad || (!first && ev_buf_putc(v, ',') == -1) || ADDL(v, "{\"lane\":") == -1 ||
		    put_text(v, ln->name) == -1 ||
		    (ln->agree_lane != ord[i] && (ADDL(v, ",\"agreement_of\":") == -1 ||
		    put_text(v, f->lanes[ln->agree_lane].name) == -1)) ||
		    ADDL(v, ",\"shared\":") == -1 ||
		    ev_jscan_put_int(v, ln->shared) == -1 || ADDL(v, ",\"of\":") == -1 ||
		    ev_jscan_put_int(v, ln->depth) == -1 || ADDL(v, ",\"agreement\":") == -1 ||
		    put_real(f, v, ln->agree) == -1 || ADDL(v, ",\"weight_given\":") == -1 ||
		    put_real(f, v, ln->w0) == -1 || ADDL(v, ",\"weight\":") == -1 ||
		    put_real(f, v, ln->w) == -1 || ADDL(v, ",\"why\":") == -1 ||
		    put_text(v, ev_buf_str(fm)) == -1 || ev_buf_putc(v, '}') == -1)
			return -1;
		first = 0;
	}
	if (ADDL(v, "]") == -1)
		return -1;
	if (!anchored && (ADDL(v, ",\"why\":\"lane '") == -1 || ev_buf_puts(v, f->o.anchor) == -1 ||
	    ADDL(v, "' found nothing for this query: the weights as given\"") == -1))
		return -1;
	return ev_buf_putc(v, '}');
}

/* The account of a feedback lane weighing 0 for a query the text lane read
 * as a document (fuserank.h), into v: ,"feedback_off":{...}; nothing when
 * no lane was. */
static int
explain_feedback_off(struct ev_fuse *f, struct ev_buf *v)
{
	for (int l = 0; l < f->nlanes; l++) {
		const struct lane *ln = &f->lanes[l];

		if (!ln->feedback_off)
			continue;
		return ADDL(v, ",\"feedback_off\":{\"lane\":") == -1 || put_text(v, ln->name) == -1 ||
		    ADDL(v, ",\"weight_given\":") == -1 || put_real(f, v, ln->w0) == -1 ||
		    ADDL(v, ",\"weight\":0,\"why\":\"lane 'text' read the query as a document"
		    " (query_as_document) and does no feedback: lane '") == -1 ||
		    ev_buf_puts(v, ln->name) == -1 ||
		    ADDL(v, "', which starts from its first hits, weighs 0\"}") == -1 ? -1 : 0;
	}
	return 0;
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
		if ((i > 0 && ev_buf_putc(v, ',') == -1) || put_key(v, f->lanes[ord[i]].name) == -1 ||
		    put_real(f, v, f->lanes[ord[i]].w) == -1)
			return -1;
	if (ev_buf_putc(v, '}') == -1 || (f->o.weights_from != EV_FUSE_FROM_UNSAID &&
	    (ADDL(v, ",\"weights_from\":") == -1 || put_text(v, f->o.weights_from ==
	    EV_FUSE_FROM_PLAN ? "plan" : f->o.weights_from == EV_FUSE_FROM_STORE ? "store" :
	    "default") == -1)) || explain_floors(f, ord, v) == -1 ||
	    (f->o.adapt == EV_ADAPT_AGREEMENT && explain_adapt(f, ord, v) == -1) ||
	    explain_feedback_off(f, v) == -1 || ADDL(v, ",\"lanes\":[") == -1)
		return -1;
	f->gen++;
	for (l = 0; l < f->nlanes; l++) {
		struct lane *ln = &f->lanes[l];
		/* as ev_fuse_score_cands() computes a missing lane's contribution */
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

	if (ev_buf_putc(&f->vb, '[') == -1)
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
		if ((n > 1 && ev_buf_putc(&f->vb, ',') == -1) ||
		    ev_buf_put(&f->vb, f->hits[h].m[f->hits[h].iid].val, f->hits[h].m[f->hits[h].iid].vlen) == -1)
			return -1;
	}
	return ev_buf_putc(&f->vb, ']');
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

	if (ev_buf_putc(b, '{') == -1)
		return -1;
	for (k = 0; k < f->nlanes; k++) {
		if (c->hit[l = ord[k]] < 0)
			continue;
		ln = &f->lanes[l];
		if ((!first && ev_buf_putc(b, ',') == -1) || ev_buf_putc(b, '"') == -1 ||
		    ev_buf_put(b, ln->sname, ln->snlen) == -1 || ADDL(b, "\":") == -1 ||
		    ev_buf_put(b, f->st[l], f->sn[l]) == -1 || ADDL(b, ",\"") == -1 ||
		    ev_buf_put(b, ln->rname, ln->rnlen) == -1 || ADDL(b, "\":") == -1 ||
		    ev_jscan_put_int(b, c->rank[l]) == -1)
			return -1;
		first = 0;
	}
	if (!first && ev_buf_putc(b, ',') == -1)
		return -1;
	n = fmt_real(f, c->rrf, s);
	if (ADDL(b, "\"rrf_score\":") == -1 || ev_buf_put(b, s, n) == -1)
		return -1;
	if (f->o.method != EV_FUSE_RRF) {
		n = fmt_real(f, c->fused, s);
		if (ADDL(b, ",\"fused_score\":") == -1 || ev_buf_put(b, s, n) == -1)
			return -1;
	}
	return ev_buf_putc(b, '}');
}

/* Append the fused hit's members s to out as an object. */
static int
top_write(struct ev_fuse *f, const struct cand *c, const int *ord, enum ev_fuse_norm norm,
    struct ev_buf *out)
{
	const struct oms *s = &f->top;
	size_t i, need;
	char *p;

	if (ev_buf_putc(out, '{') == -1)
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
	return ev_buf_putc(out, '}');
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
	if (ev_buf_put(&f->gb, t, tb.len) == -1)
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
	if (top_write(f, c, ord, norm, out) == -1 || ev_buf_putc(out, '\n') == -1)
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

static struct ev_fuse *merge_f;	/* qsort has no context argument in C11 */

/* Merging shards: best score first, then by id. */
static int
cmp_merge(const void *a, const void *b)
{
	const struct rhit *x = merge_f->hits + *(const size_t *)a, *y = merge_f->hits + *(const size_t *)b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Append the member m as raw text, a comma first unless it is the first. */
static int
raw_member(struct ev_buf *b, const struct ev_jmem *m, int first)
{
	if ((!first && ev_buf_putc(b, ',') == -1) || ev_buf_putc(b, '"') == -1 ||
	    ev_buf_put(b, m->key, m->klen) == -1 || ADDL(b, "\":") == -1)
		return -1;
	return ev_buf_put(b, m->val, m->vlen);
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
	    ev_buf_putc(out, '{') == -1)
		return -1;
	for (i = 0; i < f->mems.n; i++) {
		const struct ev_jmem *m = &f->mems.m[i];

		if (!m->kesc && m->klen == ln->rnlen && memcmp(m->key, ln->rname, m->klen) == 0) {
			if ((i > 0 && ev_buf_putc(out, ',') == -1) || ev_buf_putc(out, '"') == -1 ||
			    ev_buf_put(out, m->key, m->klen) == -1 || ADDL(out, "\":") == -1 ||
			    ev_jscan_put_int(out, rank) == -1)
				return -1;
		} else if (ln->istext && !m->kesc && m->klen == 8 && memcmp(m->key, "fts_norm", 8) == 0) {
			if ((i > 0 && ev_buf_putc(out, ',') == -1) || ADDL(out, "\"fts_norm\":") == -1 ||
			    put_real(f, out, h->score / (best > 1.0 ? best : 1.0)) == -1)
				return -1;
		} else if (raw_member(out, m, i == 0) == -1) {
			return -1;
		}
	}
	return ev_buf_putc(out, '}');
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
	merge_f = f;
	qsort(ix, f->nh, sizeof *ix, cmp_merge);
	if (f->o.k > 0 && (size_t)f->o.k < n)
		n = (size_t)f->o.k;
	best = n > 0 ? f->hits[ix[0]].score : 0.0;
	for (i = 0; i < n; i++) {
		const struct rhit *h = &f->hits[ix[i]];
		int j;

		if (ev_buf_putc(out, '{') == -1)
			goto nomem;
		for (j = 0; j < h->nm; j++) {
			const struct ev_jmem *m = &h->m[j];

			if (j == h->pos[F_RANK]) {
				if ((j > 0 && ev_buf_putc(out, ',') == -1) || ADDL(out, "\"rank\":") == -1 ||
				    ev_jscan_put_int(out, (long long)i + 1) == -1)
					goto nomem;
			} else if (j == h->isig) {
				if ((j > 0 && ev_buf_putc(out, ',') == -1) || ev_buf_putc(out, '"') == -1 ||
				    ev_buf_put(out, m->key, m->klen) == -1 || ADDL(out, "\":") == -1 ||
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
	if (f->o.group == EV_GROUP_DOC && ev_fuse_rerank_docs(f, err) == -1) {
		free(ix);
		return -1;
	}
	ev_fuse_lane_stats(f, norm);
	if (ev_fuse_adapt_weights(f, ix) == -1) {
		free(ix);
		return ev_err_nomem(err);
	}
	ev_fuse_score_cands(f, norm);
	for (i = 0; i < f->nc; i++)
		ix[i] = i;
	ev_fuse_sort_cands(f->c, ix, ix + f->nc, f->nc);
	n = weighed_cands(f, ix);
	ev_fuse_lane_order(f, ord);
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
ev_fuse_hits(struct ev_fuse *f, struct ev_err *err)
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
