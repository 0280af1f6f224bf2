/* hitcheck.c: a hit record's shape.  See hitcheck.h. */
#include "hitcheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a value nested in a hit must be. */
enum want { W_STRING, W_LANE, W_NUMBER, W_RANK, W_BOOL, W_SIGNAL };

/* A member of the entries of a list that is held to a type (any other
 * passes: ev-expand's "from" and "distance", the text lane's
 * "matched_terms", ev-fuse's "weight" and "formula"...). */
struct rule {
	const char *key;
	enum want want;
};

static const struct rule entry_rule[] = {
	{ "lane", W_LANE }, { "score", W_NUMBER }, { "rank", W_RANK }, { "snippet", W_STRING },
};
static const struct rule lane_rule[] = {
	{ "lane", W_LANE }, { "found", W_BOOL }, { "rank", W_RANK }, { "score", W_NUMBER },
};

/* The lists of entries a hit holds: its evidence, and the lanes of its
 * explain (ev-fuse's, which ev-rerank and ev-pack read). */
struct list {
	const char *name;	/* in messages */
	const struct rule *rule;
	size_t n;
};

static const struct list evidence_list = { "evidence", entry_rule, 4 };
static const struct list lanes_list = { "explain.lanes", lane_rule, 4 };

/* What is wrong with a nested value of type t (enum ev_jtype) held to want
 * ("must be ..."), or NULL when nothing: d is its number, empty whether it
 * is the empty string. */
static const char *
wrong(enum want want, int t, double d, int empty)
{
	int num = t == EV_JINT || t == EV_JREAL;
	long long whole;

	switch (want) {
	case W_SIGNAL:
		return num || t == EV_JTRUE || t == EV_JFALSE ? NULL :
		    "must be a number or a boolean";
	case W_RANK:	/* 2.0 is rank 2 (whole_ranks() gives its readers 2) */
		if (!num || (t == EV_JREAL && !ev_json_whole(d, &whole)))
			return "must be an integer";
		return d < 1 ? "must be at least 1" : NULL;
	case W_NUMBER:
		return num ? NULL : "must be a number";
	case W_LANE:
		return t != EV_JSTR ? "must be a string" : empty ? "must not be empty" : NULL;
	case W_BOOL:
		return t == EV_JTRUE || t == EV_JFALSE ? NULL : "must be a boolean";
	default:
		return t == EV_JSTR ? NULL : "must be a string";
	}
}

/* Is the signal named key[0..n) a lane's rank (LANE_rank: fts_rank,
 * vector_rank...)? */
static int
rank_signal(const char *key, size_t n)
{
	return n > 5 && memcmp(key + n - 5, "_rank", 5) == 0;
}

/* The enum ev_jtype of the Jansson value v. */
static int
jtype(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return EV_JOBJ;
	case JSON_ARRAY: return EV_JARR;
	case JSON_STRING: return EV_JSTR;
	case JSON_INTEGER: return EV_JINT;
	case JSON_REAL: return EV_JREAL;
	case JSON_TRUE: return EV_JTRUE;
	case JSON_FALSE: return EV_JFALSE;
	default: return EV_JNULL;
	}
}

/* The one message of a value nested in a hit: "field 'signals.KEY' ..."
 * (list NULL: a signal) or "field 'LIST[I].KEY' ..." (entry I + 1 of the
 * list; key NULL: the entry itself).  Returns -1. */
static int
nested_error(struct ev_err *err, const char *where, const struct list *list, size_t entry,
	const char *key, const char *what)
{
	if (list == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'signals.%s' %s",
		    key ? key : "", what);
	return ev_err_set(err, EV_EXIT_USAGE, where, "field '%s[%zu]%s%s' %s", list->name,
	    entry - 1, key ? "." : "", key ? key : "", what);
}

/* The entries of the array a held to list's rule (the tree). */
static int
check_list(const json_t *a, const struct list *list, const char *where, struct ev_err *err)
{
	const char *bad;
	json_t *v, *e;
	size_t i, k;

	json_array_foreach(a, i, e) {
		if (!json_is_object(e))
			return nested_error(err, where, list, i + 1, NULL, "must be an object");
		for (k = 0; k < list->n; k++)
			if ((v = json_object_get(e, list->rule[k].key)) != NULL &&
			    (bad = wrong(list->rule[k].want, jtype(v), json_number_value(v),
			    json_is_string(v) && json_string_length(v) == 0)) != NULL)
				return nested_error(err, where, list, i + 1, list->rule[k].key, bad);
	}
	return 0;
}

/* The values a hit's signals, evidence and explain.lanes hold (the tree). */
static int
check_nested(const json_t *hit, const char *where, struct ev_err *err)
{
	const char *key, *bad;
	json_t *v;

	json_object_foreach(json_object_get(hit, "signals"), key, v)
		if ((bad = wrong(rank_signal(key, strlen(key)) ? W_RANK : W_SIGNAL,
		    jtype(v), json_number_value(v), 0)) != NULL)
			return nested_error(err, where, NULL, 0, key, bad);
	v = json_object_get(json_object_get(hit, "explain"), "lanes");
	if (v != NULL && !json_is_null(v) && !json_is_array(v))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'explain.lanes' must be an array");
	if (check_list(v, &lanes_list, where, err) == -1)
		return -1;
	return check_list(json_object_get(hit, "evidence"), &evidence_list, where, err);
}

/* The ranks of the checked hit that are written as reals (2.0), its own,
 * its lanes' signals' and those of its evidence and explain.lanes entries,
 * made integers: its readers take an integer alone.  Returns 0, or -1 with
 * *err set out of memory. */
static int
whole_ranks(json_t *hit, struct ev_err *err)
{
	json_t *sig = json_object_get(hit, "signals"), *v;
	json_t *lanes = json_object_get(json_object_get(hit, "explain"), "lanes");
	const char *key;
	size_t i;
	int bad = ev_json_whole_member(hit, "rank");

	json_object_foreach(sig, key, v)
		if (rank_signal(key, strlen(key)))
			bad |= ev_json_whole_member(sig, key);
	json_array_foreach(json_object_get(hit, "evidence"), i, v)
		bad |= ev_json_whole_member(v, "rank");
	json_array_foreach(lanes, i, v)
		bad |= ev_json_whole_member(v, "rank");
	return bad ? ev_err_nomem(err) : 0;
}

int
ev_hit_check(json_t *hit, const char *where, struct ev_err *err)
{
	const char *id = NULL, *s = NULL;
	long long rank = 1;
	double score = 0;
	json_t *v, *w;

	if (!json_is_object(hit))
		return ev_err_set(err, EV_EXIT_USAGE, where, "hit must be a JSON object");
	if (ev_field_str(hit, "id", 1, &id, where, err) == -1 ||
	    ev_field_num(hit, "score", 1, &score, where, err) == -1 ||
	    ev_field_int(hit, "rank", 0, &rank, where, err) == -1 ||
	    ev_field_str(hit, "lane", 0, &s, where, err) == -1 ||
	    ev_field_str(hit, "snippet", 0, &s, where, err) == -1 ||
	    ev_field_str(hit, "doc_id", 0, &s, where, err) == -1 ||
	    ev_field_str(hit, "query", 0, &s, where, err) == -1 ||
	    ev_field_obj(hit, "signals", 0, &v, where, err) == -1 ||
	    ev_field_arr(hit, "evidence", 0, &v, where, err) == -1 ||
	    ev_field_obj(hit, "explain", 0, &v, where, err) == -1)
		return -1;
	if ((w = json_object_get(hit, "warnings")) != NULL && !json_is_null(w)) {
		size_t i = 0;

		while (i < json_array_size(w) && json_is_string(json_array_get(w, i)))
			i++;
		if (!json_is_array(w) || i < json_array_size(w))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'warnings' must be an array of strings");
	}
	if (id[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'id' must not be empty");
	if (!isfinite(score))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'score' must be finite");
	if (rank < 1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rank' must be at least 1");
	if (check_nested(hit, where, err) == -1)
		return -1;
	return whole_ranks(hit, err);
}

/* ---- on the scanner's members ---- */

/* What ev_hit_check_member() walks with. */
struct walk {
	struct ev_jmems *mems;
	const char *where;
	struct ev_err *err;
	const struct list *list;	/* NULL: the signals */
	size_t entry;		/* the list's entry, from 1 */
	int real;		/* an entry's rank is written as a real (2.0) */
};

/* Is the raw key of m the C string lit? */
static int
key_is(const struct ev_jmem *m, const char *lit)
{
	return m->kesc ? ev_jscan_str_eq(m->key, m->klen, lit) :
	    strlen(lit) == m->klen && memcmp(m->key, lit, m->klen) == 0;
}

/* The message of the scanned member m (its key decoded) under the rule. */
static int
scanned_error(struct walk *w, const struct ev_jmem *m, const char *what)
{
	struct ev_buf key = EV_BUF_INIT;
	int r;

	if (ev_jscan_decode(&key, m->key, m->klen) == -1 || ev_buf_add(&key, "", 1) == -1) {
		ev_buf_release(&key);
		return ev_err_nomem(w->err);
	}
	r = nested_error(w->err, w->where, w->list, w->entry, key.p, what);
	ev_buf_release(&key);
	return r;
}

/* Check the entry e[0..n) of w's list (ev_jscan_elements()'s callback). */
static int
scanned_entry(const char *e, size_t n, void *data)
{
	struct walk *w = data;
	const struct rule *rule = w->list->rule;
	const struct ev_jmem *m;
	const char *bad;
	double d = 0;

	w->entry++;
	if (ev_jscan_type(e, n) != EV_JOBJ)
		return nested_error(w->err, w->where, w->list, w->entry, NULL, "must be an object");
	w->mems->n = 0;
	if (ev_jscan_members(e, n, w->mems) == -1)
		return ev_err_nomem(w->err);
	for (size_t i = 0; i < w->mems->n; i++) {
		m = &w->mems->m[i];
		for (size_t k = 0; k < w->list->n; k++) {
			if (!key_is(m, rule[k].key))
				continue;
			if (rule[k].want == W_RANK && (m->type == EV_JINT || m->type == EV_JREAL) &&
			    ev_jscan_number(m->val, m->vlen, &d) == -1)
				return ev_err_nomem(w->err);
			if ((bad = wrong(rule[k].want, m->type, d, m->vlen == 2)) != NULL)
				return scanned_error(w, m, bad);
			w->real |= rule[k].want == W_RANK && m->type == EV_JREAL;
		}
	}
	return 0;
}

/* The explain object m of a hit: its "lanes" held to their rule. */
static int
scanned_explain(struct walk *w, const struct ev_jmem *m)
{
	struct ev_jmem lanes;
	size_t i;

	if (m->type != EV_JOBJ)
		return ev_err_set(w->err, EV_EXIT_USAGE, w->where, "field 'explain' must be an object");
	w->mems->n = 0;
	if (ev_jscan_members(m->val, m->vlen, w->mems) == -1)
		return ev_err_nomem(w->err);
	for (i = 0; i < w->mems->n && !key_is(&w->mems->m[i], "lanes"); i++)
		;
	if (i == w->mems->n || w->mems->m[i].type == EV_JNULL)
		return 0;
	lanes = w->mems->m[i];	/* (the walk reuses mems) */
	if (lanes.type != EV_JARR)
		return ev_err_set(w->err, EV_EXIT_USAGE, w->where,
		    "field 'explain.lanes' must be an array");
	w->list = &lanes_list;
	return ev_jscan_elements(lanes.val, lanes.vlen, scanned_entry, w) != 0 ? -1 : w->real;
}

/* Is the scanned signal m a lane's rank?  1 or 0, or -1 out of memory. */
static int
scanned_rank_signal(const struct ev_jmem *m)
{
	struct ev_buf key = EV_BUF_INIT;
	int r;

	if (!m->kesc)
		return rank_signal(m->key, m->klen);
	r = ev_jscan_decode(&key, m->key, m->klen) == -1 ? -1 : rank_signal(key.p, key.len);
	ev_buf_release(&key);
	return r;
}

/* The signals m of a hit, each held to its rule: 0, 1 when a lane's rank
 * among them is written as a real (2.0), or -1. */
static int
scanned_signals(struct walk *w, const struct ev_jmem *m)
{
	const struct ev_jmem *s;
	const char *bad;
	double d = 0;
	int rank, real = 0;

	if (m->type != EV_JOBJ)
		return ev_err_set(w->err, EV_EXIT_USAGE, w->where, "field 'signals' must be an object");
	w->mems->n = 0;
	if (ev_jscan_members(m->val, m->vlen, w->mems) == -1)
		return ev_err_nomem(w->err);
	for (size_t i = 0; i < w->mems->n; i++) {
		s = &w->mems->m[i];
		if ((rank = scanned_rank_signal(s)) == -1 ||
		    (rank && (s->type == EV_JINT || s->type == EV_JREAL) &&
		    ev_jscan_number(s->val, s->vlen, &d) == -1))
			return ev_err_nomem(w->err);
		if ((bad = wrong(rank ? W_RANK : W_SIGNAL, s->type, d, 0)) != NULL)
			return scanned_error(w, s, bad);
		real |= rank && s->type == EV_JREAL;
	}
	return real;
}

/* Is the element e[0..n) not a string (ev_jscan_elements()'s callback)? */
static int
not_string(const char *e, size_t n, void *data)
{
	(void)data;
	return ev_jscan_type(e, n) != EV_JSTR;
}

int
ev_hit_check_member(const struct ev_jmem *m, struct ev_jmems *scratch, const char *where,
	struct ev_err *err)
{
	struct walk w = { scratch, where, err, NULL, 0, 0 };

	if (m->type == EV_JNULL)
		return 0;
	if (key_is(m, "signals")) {
		return scanned_signals(&w, m);
	} else if (key_is(m, "evidence")) {
		if (m->type != EV_JARR)
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'evidence' must be an array");
		w.list = &evidence_list;
		return ev_jscan_elements(m->val, m->vlen, scanned_entry, &w) != 0 ? -1 : w.real;
	} else if (key_is(m, "explain")) {
		return scanned_explain(&w, m);
	} else if (key_is(m, "warnings")) {
		if (m->type != EV_JARR || ev_jscan_elements(m->val, m->vlen, not_string, NULL) != 0)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'warnings' must be an array of strings");
	}
	return 0;
}

int
ev_jsonl_next_hit(struct ev_jsonl *in, json_t **out, struct ev_buf *qid, struct ev_err *err)
{
	const json_t *q;
	json_t *v;
	int r;

	*out = NULL;
	if ((r = ev_jsonl_next(in, &v, err)) != 1)
		return r;
	q = json_is_object(v) ? json_object_get(v, "query_id") : NULL;
	if (ev_hit_check(v, ev_jsonl_where(in), err) == -1 ||
	    ((r = ev_json_id_buf(q, qid)) == -1 &&
	    ev_err_query_id(err, ev_jsonl_where(in)) == -1) ||
	    (r == -2 && ev_err_nomem(err) == -1)) {
		json_decref(v);
		return -1;
	}
	*out = v;
	return 1;
}
