/* fuse.c: the accumulator of one query's hits, checked and copied as they
 * are added.  See fuse.h; fuseint.h holds the state the fuse modules share. */
#include "fuse.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fuseint.h"
#include "hitcheck.h"
#include "jscan.h"
#include "jsonl.h"
#include "plan.h"

/* ---- the accumulator ---- */

struct ev_fuse *
ev_fuse_new(const struct ev_fuse_opts *o, struct ev_err *err)
{
	struct ev_fuse *f = calloc(1, sizeof *f);

	if (f == NULL || ev_arena_init(&f->a) == -1) {
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
	ev_arena_reset(&f->a);
	for (i = 0; i < EV_FUSE_MAXLANES; i++)
		ev_strmap_reset(&f->ids[i]);
	ev_strmap_reset(&f->keys);
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
	ev_arena_free(&f->a);
	free(f->hits);
	free(f->c);
	for (i = 0; i < EV_FUSE_MAXLANES; i++)
		ev_strmap_release(&f->ids[i]);
	ev_strmap_release(&f->keys);
	ev_strmap_release(&f->adocs);
	ev_strmap_release(&f->ldocs);
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
	ln->as_document = -1;
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
int
ev_fuse_member(const struct ev_jmem *m, int nm, const char *key)
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

const char *const ev_fuse_field_names[F_ALL] = {
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
				if (ev_jscan_str_eq(m->key, m->klen, ev_fuse_field_names[k]))
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
	const char *key = ev_fuse_field_names[k];
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

/* A decoded copy of the string member m, in the arena. */
static const char *
arena_str(struct ev_fuse *f, const struct ev_jmem *m)
{
	const char *raw = m->val + 1;
	size_t n = m->vlen - 2;
	char *s = ev_arena_alloc(&f->a, n + 1);
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
	if (m->type == EV_JINT) {
		h->rank = ev_jscan_integer(m->val, m->vlen);
	} else if (m->type == EV_JREAL && ev_jscan_number(m->val, m->vlen, &d) == -1) {
		return ev_err_nomem(err);
	} else if (m->type != EV_JREAL || !ev_json_whole(d, &h->rank)) {
		return wrong_type("rank", "an integer", where, err);
	}
	if ((iscore = field(h, ix[F_SCORE], F_SCORE, EV_JINT, 1, where, err)) == -2 ||
	    (h->idoc = field(h, ix[F_DOC], F_DOC, EV_JSTR, f->o.group == EV_GROUP_DOC, where, err)) == -2 ||
	    (h->isig = field(h, ix[F_SIG], F_SIG, EV_JOBJ, 0, where, err)) == -2 ||
	    (h->isnip = field(h, ix[F_SNIP], F_SNIP, EV_JSTR, 0, where, err)) == -2)
		return -1;
	if (ev_jscan_number(h->m[iscore].val, h->m[iscore].vlen, &h->score) == -1)
		return ev_err_nomem(err);
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
	if (known == NULL && !ev_plan_lane_name_ok(*lane))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'lane' must be " EV_PLAN_LANE_RULE);
	if (h->rank < 1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rank' must be at least 1");
	if (!isfinite(h->score))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'score' must be finite");
	if ((h->iev = field(h, ix[F_EV], F_EV, EV_JARR, 0, where, err)) == -2)
		return -1;
	/* passed through to the next stage (ev-rerank, ev-pack), which holds it
	 * to be a string: refused here, where the line is the query's */
	if ((i = ev_fuse_member(h->m, h->nm, "query")) >= 0 && h->m[i].type != EV_JSTR)
		return wrong_type("query", "a string", where, err);
	/* what signals, evidence, explain and warnings hold: passed through to
	 * the next stage, which holds them to the rule */
	for (i = 0; i < h->nm; i++)	/* (their keys are of 7 and 8 bytes) */
		if ((h->m[i].kesc || h->m[i].klen == 7 || h->m[i].klen == 8) &&
		    ev_hit_check_member(&h->m[i], &f->mems, where, err) == -1)
			return -1;
	return 0;
}

/* Whether the signals of text hit h (member h->isig, or -1) say the text
 * lane read its query as a document ("query_as_document": true).  Returns 1,
 * 0, or -1 when out of memory. */
static int
read_as_document(struct ev_fuse *f, const struct rhit *h)
{
	const struct ev_jmem *sig;
	int i;

	if (h->isig < 0)
		return 0;
	sig = &h->m[h->isig];
	f->mems.n = 0;
	if (ev_jscan_members(sig->val, sig->vlen, &f->mems) == -1)
		return -1;
	i = ev_fuse_member(f->mems.m, (int)f->mems.n, "query_as_document");
	return i >= 0 && f->mems.m[i].type == EV_JTRUE;
}

/* Add the hit whose text is line[0..len) and whose members (pointing into
 * line) are m[0..nm). */
int
ev_fuse_add_scanned(struct ev_fuse *f, const char *line, size_t len, const struct ev_jmem *m, size_t nm,
    const char *where, struct ev_err *err)
{
	struct ev_arena_mark mark = ev_arena_mark(&f->a);
	const char *lane = NULL, *key;
	struct rhit *h;
	struct cand *c;
	char *copy;
	size_t i;
	uint64_t hid, hkey;
	size_t idlen, keylen;
	int li, ci, hi, fresh = 0;

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
	if ((copy = ev_arena_alloc(&f->a, len + 1)) == NULL ||
	    (h->m = ev_arena_alloc(&f->a, (nm ? nm : 1) * sizeof *h->m)) == NULL)
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
	/* the text lane marks every hit of a query alike: its first one says */
	if (f->lanes[li].as_document == -1 && f->lanes[li].istext &&
	    (f->lanes[li].as_document = read_as_document(f, h)) == -1)
		goto nomem;
	idlen = strlen(h->id);
	hid = ev_strmap_hash(h->id, idlen);
	if (ev_strmap_find_h(&f->ids[li], h->id, idlen, hid) != -1) {
		ev_err_set(err, EV_EXIT_USAGE, where,
		    "id '%s' appears twice in lane '%s' of query '%s'", h->id, lane, f->qid);
		goto fail;
	}
	key = f->o.group == EV_GROUP_DOC ? h->doc : h->id;
	hi = (int)f->nh;
	keylen = key == h->id ? idlen : strlen(key);
	hkey = key == h->id ? hid : ev_strmap_hash(key, keylen);
	ci = ev_strmap_find_h(&f->keys, key, keylen, hkey);
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
		/* the key's number is the candidate's index */
		if (ev_strmap_add_h(&f->keys, key, keylen, hkey, NULL) == -1)
			goto nomem;
		ci = (int)f->nc++;
		fresh = 1;
	}
	if (ev_strmap_add_h(&f->ids[li], h->id, idlen, hid, NULL) == -1) {
		if (fresh) {	/* the hit is not added: neither is its candidate */
			ev_strmap_drop_last(&f->keys);
			f->nc--;
		}
		goto nomem;
	}
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
	ev_arena_restore(&f->a, mark);
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
	return ev_fuse_add_scanned(f, line, len, f->js.top.m, f->js.top.n, where, err);
}

static int
dump_cb(const char *s, size_t n, void *data)
{
	return ev_buf_put(data, s, n);
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
