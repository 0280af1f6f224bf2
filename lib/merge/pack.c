/* pack.c: EvidencePack v0.1.  See pack.h. */
#include "pack.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "jscan.h"
#include "jsoncopy.h"
#include "jsonl.h"
#include "uuid.h"

/* ---- options and the plan ---- */

void
ev_pack_opts_init(struct ev_pack_opts *o)
{
	memset(o, 0, sizeof *o);
	o->k = 10;
	o->by_document = 3;
	o->near_duplicates = 1;
	o->overlap = 0.9;
	o->max_snippet_chars = 500;
}

/* What a plan may hold: this stage's keys, and the keys of the stages before
 * it (ev-hybrid's lanes, ev-search-text's text, ev-embed's embed, ev-search-vec's
 * settings, ev-fuse's fusion): scripts/ev-hybrid hands one plan to them all. */
const char *const ev_pack_plan_keys[] = {
	"version", "request_id", "plan_id", "query", "lanes.*", "text.*", "embed.*", "db",
	"index", "ef_search", "nprobe", "snippet",
	"fusion.method", "fusion.rrf_k", "fusion.normalization", "fusion.weights.*",
	"fusion.group", "fusion.k", "fusion.explain", "fusion.skip_invalid",
	"fusion.adapt", "fusion.anchor", "fusion.agreement_depth", "fusion.agreement_full",
	"k", "min_score", "diversity.by_document", "diversity.near_duplicates",
	"diversity.overlap", "output.max_snippet_chars", "output.format", NULL
};

struct ignored_ctx {
	json_t *arr;
	int bad;		/* sticky: an append failed (out of memory) */
};

static void
add_ignored(const char *path, void *ctx)
{
	struct ignored_ctx *c = ctx;
	char msg[512];

	snprintf(msg, sizeof msg, "%s not supported", path);
	if (json_array_append_new(c->arr, json_string(msg)) == -1)
		c->bad = 1;
}

int
ev_pack_opts_from_plan(struct ev_pack_opts *o, const json_t *plan, const char *file,
    json_t *ignored, struct ev_err *err)
{
	int b, r;

	if (plan == NULL)
		return 0;
	if (ignored != NULL) {
		struct ignored_ctx c = { ignored, 0 };
		ev_config_unknown(plan, ev_pack_plan_keys, add_ignored, &c);
		if (c.bad)
			return ev_err_nomem(err);
	}
	if (ev_config_int(plan, "k", 0, 1000000000, &o->k, file, err) == -1 ||
	    ev_config_int(plan, "diversity.by_document", 0, 1000000000, &o->by_document, file,
	    err) == -1 ||
	    ev_config_num(plan, "diversity.overlap", 0, 1, &o->overlap, file, err) == -1 ||
	    ev_config_int(plan, "output.max_snippet_chars", 1, 1000000000, &o->max_snippet_chars,
	    file, err) == -1)
		return -1;
	if ((r = ev_config_num(plan, "min_score", -1e300, 1e300, &o->min_score, file, err)) == -1)
		return -1;
	if (r == 1)
		o->has_min_score = 1;
	if ((r = ev_config_bool(plan, "diversity.near_duplicates", &b, file, err)) == -1)
		return -1;
	if (r == 1)
		o->near_duplicates = b;
	/* the lanes' depth, read by scripts/ev-hybrid: checked here, once */
	{
		const char *name;
		json_t *v;
		char path[256];
		long long k;

		json_object_foreach(json_object_get(plan, "lanes"), name, v) {
			snprintf(path, sizeof path, "lanes.%s.k", name);
			if (json_is_object(v) &&
			    ev_config_int(plan, path, 1, 100000, &k, file, err) == -1)
				return -1;
		}
	}
	return 0;
}

static int
rfc3339_ok(const char *s)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t i;

	for (i = 0; pat[i]; i++) {
		if (pat[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pat[i])
			return 0;
	}
	return s[i] == '\0';
}

int
ev_pack_now(char *buf, size_t size)
{
	const char *env = getenv("EV_FIXED_TIME");
	time_t t;
	struct tm tm;

	if (env != NULL && rfc3339_ok(env)) {
		snprintf(buf, size, "%s", env);
		return 1;
	}
	t = time(NULL);
	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return 0;
}

size_t
ev_utf8_prefix(const char *s, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, chars = 0, j;

	while (i < len && chars < max) {
		if (p[i] < 0x80)
			n = 1;
		else if ((p[i] & 0xe0) == 0xc0)
			n = 2;
		else if ((p[i] & 0xf0) == 0xe0)
			n = 3;
		else if ((p[i] & 0xf8) == 0xf0)
			n = 4;
		else
			n = 1;
		if (i + n > len)
			n = 1;
		for (j = 1; j < n; j++)
			if ((p[i + j] & 0xc0) != 0x80) {
				n = 1;
				break;
			}
		i += n;
		chars++;
	}
	return i;
}

/* ---- lanes and modes ---- */

enum {
	LANE_VECTOR = 1, LANE_TEXT = 2, LANE_REGION = 4, LANE_TIMELINE = 8, LANE_OTHER = 16,
	LANE_STRUCTURED = 32
};

/* The lanes evkit knows by name, and their bits ("fused" has none: its
 * lanes are found in its explanation); any other lane is LANE_OTHER. */
static const char *const lane_names[] = { "vector", "text", "region", "timeline", "structured",
	"fused" };
static const unsigned lane_bits[] = { LANE_VECTOR, LANE_TEXT, LANE_REGION, LANE_TIMELINE,
	LANE_STRUCTURED, 0 };

static unsigned
lane_bit(const char *lane)
{
	size_t i;

	if (lane == NULL)
		return 0;
	for (i = 0; i < sizeof lane_names / sizeof *lane_names; i++)
		if (strcmp(lane, lane_names[i]) == 0)
			return lane_bits[i];
	return LANE_OTHER;
}

/* The lanes that found a hit: its own lane, or for a fused hit the lanes its
 * explanation says found it, else its evidence's lanes, else its signals'. */
static unsigned
hit_lanes(json_t *hit)
{
	const char *lane = json_string_value(json_object_get(hit, "lane"));
	json_t *a, *e, *sig;
	unsigned bits = 0;
	size_t i;

	if (lane != NULL && strcmp(lane, "fused") != 0)
		return lane_bit(lane);
	a = json_object_get(json_object_get(hit, "explain"), "lanes");
	json_array_foreach(a, i, e)
		if (json_is_true(json_object_get(e, "found")))
			bits |= lane_bit(json_string_value(json_object_get(e, "lane")));
	if (bits)
		return bits;
	a = json_object_get(hit, "evidence");
	json_array_foreach(a, i, e)
		bits |= lane_bit(json_string_value(json_object_get(e, "lane")));
	if (bits)
		return bits;
	sig = json_object_get(hit, "signals");
	if (json_object_get(sig, "fts_score") != NULL)
		bits |= LANE_TEXT;
	if (json_object_get(sig, "vector_score") != NULL)
		bits |= LANE_VECTOR;
	return bits;
}

/* provenance.mode: exact (text only), semantic (vector or region only),
 * relational (the structured lane only), associative (expansion lanes only:
 * timeline, neighbour, link, and lanes evkit does not know), hybrid (more
 * than one of these). */
static const char *const mode_names[] = { "exact", "semantic", "relational", "associative",
	"hybrid" };
#define NMODES 5

static int
lanes_mode_index(unsigned bits)
{
	int exact = (bits & LANE_TEXT) != 0, sem = (bits & (LANE_VECTOR | LANE_REGION)) != 0;
	int rel = (bits & LANE_STRUCTURED) != 0;
	int assoc = (bits & (LANE_TIMELINE | LANE_OTHER)) != 0;

	if (exact + sem + rel + assoc > 1)
		return 4;
	return exact ? 0 : rel ? 2 : assoc ? 3 : 1;
}

static const char *
lanes_mode(unsigned bits)
{
	return mode_names[lanes_mode_index(bits)];
}

static void
lanes_text(unsigned bits, char *buf, size_t size)
{
	static const char *const names[] = { "vector", "text", "region", "timeline", "other" };
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 5; i++)
		if (bits & (1u << i))
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s",
			    n ? "+" : "", names[i]);
}

/* ---- the accumulator ---- */

/* A candidate.  Hits read as lines (ev_pack_add_line()) are kept as their
 * raw text and parsed only when presentation looks at them: a pack keeps k of
 * a thousand candidates. */
struct item {
	json_t *hit;		/* the best-scoring hit of this id; NULL: not parsed yet */
	size_t raw, rawlen;	/* else its line, at p->raw.p + raw */
	double score;
	unsigned lanes;
	int kept;		/* among the evidences returned */
	uint64_t *words;	/* sorted hashes of its text's words, for overlap */
	size_t nwords;
};

struct ev_pack {
	struct ev_pack_opts o;
	const json_t *plan, *ignored;
	char plan_id[EV_UUID_LEN + 1];
	struct item *it;
	size_t n, cap;
	json_t *ids;		/* id -> index, as an integer */
	json_t *fusion;		/* the first fused hit's explain, or NULL */
	json_t *warnings;	/* ev_pack_warn()'s, for every pack */
	struct ev_buf raw;	/* the lines of the current query's hits */
	struct ev_jscan js;	/* the line last scanned (ev_pack_scan_line()) */
	const char *line;
	size_t linelen;
	struct ev_buf idb;	/* a decoded string */
	struct ev_jmems sub;	/* members of a nested object */
};

struct ev_pack *
ev_pack_new(const struct ev_pack_opts *o, const json_t *plan, const json_t *ignored,
    const char *plan_id, struct ev_err *err)
{
	struct ev_pack *p = calloc(1, sizeof *p);

	if (p == NULL || (p->ids = json_object()) == NULL ||
	    (p->warnings = json_array()) == NULL) {
		if (p != NULL)
			json_decref(p->ids);
		free(p);
		ev_err_nomem(err);
		return NULL;
	}
	p->o = *o;
	p->plan = plan;
	p->ignored = ignored;
	snprintf(p->plan_id, sizeof p->plan_id, "%s", plan_id);
	return p;
}

int
ev_pack_begin(struct ev_pack *p, struct ev_err *err)
{
	size_t i;

	(void)err;
	for (i = 0; i < p->n; i++) {
		json_decref(p->it[i].hit);
		free(p->it[i].words);
	}
	p->n = 0;
	ev_buf_reset(&p->raw);
	json_object_clear(p->ids);
	json_decref(p->fusion);
	p->fusion = NULL;
	return 0;
}

void
ev_pack_free(struct ev_pack *p)
{
	if (p == NULL)
		return;
	ev_pack_begin(p, NULL);
	free(p->it);
	json_decref(p->ids);
	json_decref(p->warnings);
	ev_buf_release(&p->raw);
	ev_buf_release(&p->idb);
	ev_jscan_release(&p->js);
	free(p->sub.m);
	free(p);
}

int
ev_pack_warn(struct ev_pack *p, const char *msg, struct ev_err *err)
{
	if (json_array_append_new(p->warnings, json_string(msg)) == -1)
		return ev_err_nomem(err);
	return 0;
}

long long
ev_pack_count(const struct ev_pack *p)
{
	return (long long)p->n;
}

static int materialize(struct ev_pack *p, struct item *it, struct ev_err *err);

/* A zeroed item at p->it[p->n] (p->n is not moved), or NULL when out of
 * memory. */
static struct item *
new_item(struct ev_pack *p, struct ev_err *err)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct item *q = realloc(p->it, cap * sizeof *q);
		if (q == NULL) {
			ev_err_nomem(err);
			return NULL;
		}
		p->it = q;
		p->cap = cap;
	}
	memset(&p->it[p->n], 0, sizeof p->it[p->n]);
	return &p->it[p->n];
}

int
ev_pack_add(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err)
{
	const char *id;
	double score;
	json_t *v, *ix;
	struct item *it;

	if (ev_hit_check(hit, where, err) == -1)
		return -1;
	id = json_string_value(json_object_get(hit, "id"));
	score = json_number_value(json_object_get(hit, "score"));
	if (p->fusion == NULL && (v = json_object_get(hit, "explain")) != NULL &&
	    json_is_object(v) && json_is_string(json_object_get(v, "method")))
		p->fusion = json_incref(v);
	if ((ix = json_object_get(p->ids, id)) != NULL) {
		/* the same id again (lanes given unfused): keep the higher score,
		 * and every lane that found it */
		it = &p->it[json_integer_value(ix)];
		if (materialize(p, it, err) == -1)
			return -1;
		it->lanes |= hit_lanes(hit);
		if (score > it->score) {
			json_t *old = it->hit;
			v = json_object_get(old, "signals");
			it->hit = ev_jsoncopy_shallow(hit);
			if (it->hit == NULL) {
				it->hit = old;
				return ev_err_nomem(err);
			}
			int r = 0;
			if (json_is_object(v) && json_is_object(json_object_get(it->hit, "signals")))
				r = ev_jsoncopy_update(json_object_get(it->hit, "signals"), v, 1);
			else if (json_is_object(v))
				r = json_object_set(it->hit, "signals", v);
			json_decref(old);
			it->score = score;
			if (r == -1)
				return ev_err_nomem(err);
		} else {
			json_t *mine = json_object_get(it->hit, "signals");
			v = json_object_get(hit, "signals");
			if (json_is_object(v) && json_is_object(mine) &&
			    ev_jsoncopy_update(mine, v, 1) == -1)
				return ev_err_nomem(err);
		}
		/* each lane's own signals */
		return 0;
	}
	if ((it = new_item(p, err)) == NULL)
		return -1;
	/* a copy, so that merging never touches the caller's record */
	if ((it->hit = ev_jsoncopy_shallow(hit)) == NULL ||
	    json_object_set_new(p->ids, id, json_integer((json_int_t)p->n)) == -1) {
		json_decref(it->hit);
		return ev_err_nomem(err);
	}
	it->score = score;
	it->lanes = hit_lanes(hit);
	p->n++;
	return 0;
}

/* ---- hits as lines: scanned, kept raw, parsed when looked at ---- */

/* The index of the member named key (a null one counts as absent), or -1. */
static int
member(const struct ev_jmem *m, size_t nm, const char *key)
{
	size_t n = strlen(key), i;

	for (i = 0; i < nm; i++)
		if (m[i].kesc ? ev_jscan_str_eq(m[i].key, m[i].klen, key) :
		    m[i].klen == n && memcmp(m[i].key, key, n) == 0)
			return m[i].type == EV_JNULL ? -1 : (int)i;
	return -1;
}

/* Is member i absent, or of type t? */
static int
absent_or(const struct ev_jmem *m, int i, int t)
{
	return i < 0 || m[i].type == t;
}

/* The decoded text of the string member m, in p->idb (valid until the next
 * call).  Returns NULL when out of memory. */
static const char *
mem_str(struct ev_pack *p, const struct ev_jmem *m)
{
	ev_buf_reset(&p->idb);
	if (ev_jscan_decode(&p->idb, m->val + 1, m->vlen - 2) == -1 ||
	    ev_buf_reserve(&p->idb, 1) == -1)
		return NULL;
	return ev_buf_str(&p->idb);
}

/* The number a scanned number member holds, as Jansson reads it. */
static double
mem_num(const struct ev_jmem *m, long long *iv)
{
	char small[64], *copy = m->vlen < sizeof small ? small : malloc(m->vlen + 1);
	double d;

	if (copy == NULL)
		return NAN;
	memcpy(copy, m->val, m->vlen);
	copy[m->vlen] = '\0';
	if (m->type == EV_JINT) {
		*iv = strtoll(copy, NULL, 10);	/* it fits: the scanner checked */
		d = (double)*iv;
	} else {
		d = strtod(copy, NULL);
	}
	if (copy != small)
		free(copy);
	return d;
}

static unsigned
raw_lane_bit(const char *raw, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof lane_names / sizeof *lane_names; i++)
		if (ev_jscan_str_eq(raw, n, lane_names[i]))
			return lane_bits[i];
	return LANE_OTHER;
}

/* hit_lanes() over a scanned record: the lanes of its explanation's lanes
 * that found it, of its evidence, or of its signals. */
struct lanes_ctx {
	struct ev_jmems *m;
	unsigned bits;
	int need_found;		/* explain.lanes: only those with "found": true */
	int bad;
};

static int
lane_elem(const char *e, size_t n, void *data)
{
	struct lanes_ctx *c = data;
	int i, f;

	if (n == 0 || e[0] != '{')
		return 0;
	c->m->n = 0;
	if (ev_jscan_members(e, n, c->m) == -1) {
		c->bad = 1;
		return 1;
	}
	f = member(c->m->m, c->m->n, "found");
	if (c->need_found && (f < 0 || c->m->m[f].type != EV_JTRUE))
		return 0;
	if ((i = member(c->m->m, c->m->n, "lane")) >= 0 && c->m->m[i].type == EV_JSTR)
		c->bits |= raw_lane_bit(c->m->m[i].val + 1, c->m->m[i].vlen - 2);
	return 0;
}

static int
raw_hit_lanes(struct ev_pack *p, const struct ev_jmem *m, size_t nm, unsigned *out)
{
	struct lanes_ctx c = { &p->sub, 0, 1, 0 };
	int i = member(m, nm, "lane"), x, a;

	if (i >= 0 && m[i].type == EV_JSTR && !ev_jscan_str_eq(m[i].val + 1, m[i].vlen - 2, "fused")) {
		*out = raw_lane_bit(m[i].val + 1, m[i].vlen - 2);
		return 0;
	}
	if ((x = member(m, nm, "explain")) >= 0 && m[x].type == EV_JOBJ) {
		p->sub.n = 0;
		if (ev_jscan_members(m[x].val, m[x].vlen, &p->sub) == -1)
			return -1;
		if ((a = member(p->sub.m, p->sub.n, "lanes")) >= 0 && p->sub.m[a].type == EV_JARR) {
			const char *v = p->sub.m[a].val;
			size_t vn = p->sub.m[a].vlen;
			struct ev_jmems inner = { NULL, 0, 0 };

			c.m = &inner;
			ev_jscan_elements(v, vn, lane_elem, &c);
			free(inner.m);
			if (c.bad)
				return -1;
		}
	}
	if (c.bits == 0 && (a = member(m, nm, "evidence")) >= 0 && m[a].type == EV_JARR) {
		c.m = &p->sub;
		c.need_found = 0;
		ev_jscan_elements(m[a].val, m[a].vlen, lane_elem, &c);
		if (c.bad)
			return -1;
	}
	if (c.bits == 0 && (a = member(m, nm, "signals")) >= 0 && m[a].type == EV_JOBJ) {
		p->sub.n = 0;
		if (ev_jscan_members(m[a].val, m[a].vlen, &p->sub) == -1)
			return -1;
		for (i = 0; i < (int)p->sub.n; i++) {
			/* (a key given twice is refused by the scanner) */
			if (ev_jscan_str_eq(p->sub.m[i].key, p->sub.m[i].klen, "fts_score"))
				c.bits |= LANE_TEXT;
			else if (ev_jscan_str_eq(p->sub.m[i].key, p->sub.m[i].klen, "vector_score"))
				c.bits |= LANE_VECTOR;
		}
	}
	*out = c.bits;
	return 0;
}

int
ev_pack_scan_line(struct ev_pack *p, const char *line, size_t len, const char *where,
    const char **query_id, struct ev_err *err)
{
	const struct ev_jmem *m;
	int t = ev_jscan_value(&p->js, line, len, where, err), q;

	p->line = NULL;
	if (t == -1) {
		ev_json_refused(line, len, where, err);
		return -1;
	}
	if (t != EV_JOBJ)
		return ev_err_set(err, EV_EXIT_USAGE, where, "hit must be a JSON object");
	m = p->js.top.m;
	if ((q = member(m, p->js.top.n, "query_id")) < 0)
		return ev_err_set(err, EV_EXIT_USAGE, where, "missing field 'query_id'");
	if (m[q].type == EV_JSTR) {
		if ((*query_id = mem_str(p, &m[q])) == NULL)
			return ev_err_nomem(err);
	} else if (m[q].type == EV_JINT) {
		ev_buf_reset(&p->idb);
		if (ev_buf_add(&p->idb, m[q].val, m[q].vlen) == -1 || ev_buf_reserve(&p->idb, 1) == -1)
			return ev_err_nomem(err);
		*query_id = ev_buf_str(&p->idb);
	} else {
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'query_id' must be a string or an integer");
	}
	p->line = line;
	p->linelen = len;
	return 0;
}

/* Parse item it's line (when not parsed yet).  Returns 0 or -1. */
static int
materialize(struct ev_pack *p, struct item *it, struct ev_err *err)
{
	if (it->hit != NULL)
		return 0;
	it->hit = ev_json_parse_line(p->raw.p + it->raw, it->rawlen, NULL, err);
	return it->hit ? 0 : -1;
}

/* The record the scanner just took, parsed, and handed to ev_pack_add(). */
static int
add_parsed(struct ev_pack *p, const char *where, struct ev_err *err)
{
	json_t *hit = ev_json_parse_line(p->line, p->linelen, where, err);
	int r;

	if (hit == NULL)
		return -1;
	r = ev_pack_add(p, hit, where, err);
	json_decref(hit);
	return r;
}

int
ev_pack_add_line(struct ev_pack *p, const char *where, struct ev_err *err)
{
	const struct ev_jmem *m = p->js.top.m;
	size_t nm = p->js.top.n;
	int id = member(m, nm, "id"), sc = member(m, nm, "score"), rk = member(m, nm, "rank");
	int x = member(m, nm, "explain");
	long long rank = 1, iv = 0;
	double score;
	const char *ids;
	struct item *it;

	if (p->line == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, where, "no hit scanned");
	/* Anything unusual (a field of the wrong type, an id given twice, to
	 * be merged) takes the parsed path, which words the messages. */
	if (id < 0 || m[id].type != EV_JSTR || m[id].vlen <= 2 ||
	    sc < 0 || (m[sc].type != EV_JINT && m[sc].type != EV_JREAL) ||
	    !absent_or(m, rk, EV_JINT) ||
	    !absent_or(m, member(m, nm, "lane"), EV_JSTR) ||
	    !absent_or(m, member(m, nm, "snippet"), EV_JSTR) ||
	    !absent_or(m, member(m, nm, "doc_id"), EV_JSTR) ||
	    !absent_or(m, member(m, nm, "query"), EV_JSTR) ||
	    !absent_or(m, member(m, nm, "signals"), EV_JOBJ) ||
	    !absent_or(m, member(m, nm, "evidence"), EV_JARR))
		return add_parsed(p, where, err);
	if (rk >= 0) {
		mem_num(&m[rk], &rank);
		if (rank < 1)
			return add_parsed(p, where, err);
	}
	score = mem_num(&m[sc], &iv);
	if (!isfinite(score))
		return add_parsed(p, where, err);
	if ((ids = mem_str(p, &m[id])) == NULL)
		return ev_err_nomem(err);
	if (json_object_get(p->ids, ids) != NULL)
		return add_parsed(p, where, err);
	if (p->fusion == NULL && x >= 0 && m[x].type == EV_JOBJ) {
		json_t *v = ev_json_parse_line(m[x].val, m[x].vlen, where, err);
		if (v == NULL)
			return -1;
		if (json_is_string(json_object_get(v, "method")))
			p->fusion = v;
		else
			json_decref(v);
	}
	if ((it = new_item(p, err)) == NULL)
		return -1;
	it->raw = p->raw.len;
	it->rawlen = p->linelen;
	it->score = score;
	if (raw_hit_lanes(p, m, nm, &it->lanes) == -1 ||
	    ev_buf_add(&p->raw, p->line, p->linelen) == -1 ||
	    json_object_set_new(p->ids, ids, json_integer((json_int_t)p->n)) == -1) {
		p->raw.len = it->raw;
		return ev_err_nomem(err);
	}
	p->n++;
	p->line = NULL;
	return 0;
}

/* ---- near-duplicates ---- */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The distinct words of s (letters and digits, ASCII folded), hashed and
 * sorted.  Returns 0 or -1. */
static int
word_set(const char *s, uint64_t **out, size_t *n)
{
	size_t cap = 0, len = 0, i, m;
	uint64_t *w = NULL, h;
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		if (!(isalnum(*p) || *p >= 0x80)) {
			p++;
			continue;
		}
		h = 1469598103934665603ULL;
		while (*p && (isalnum(*p) || *p >= 0x80)) {
			h = (h ^ (uint64_t)tolower(*p)) * 1099511628211ULL;
			p++;
		}
		if (len == cap) {
			uint64_t *q;
			cap = cap ? cap * 2 : 64;
			if ((q = realloc(w, cap * sizeof *q)) == NULL) {
				free(w);
				return -1;
			}
			w = q;
		}
		w[len++] = h;
	}
	if (len > 1)
		qsort(w, len, sizeof *w, cmp_u64);
	for (i = m = 0; i < len; i++)
		if (m == 0 || w[m - 1] != w[i])
			w[m++] = w[i];
	*out = w;
	*n = m;
	return 0;
}

static double
jaccard(const struct item *a, const struct item *b)
{
	size_t i = 0, j = 0, both = 0;

	if (a->nwords == 0 || b->nwords == 0)
		return 0;
	while (i < a->nwords && j < b->nwords) {
		if (a->words[i] == b->words[j]) {
			both++;
			i++;
			j++;
		} else if (a->words[i] < b->words[j]) {
			i++;
		} else {
			j++;
		}
	}
	return (double)both / (double)(a->nwords + b->nwords - both);
}

#define MIN_OVERLAP_WORDS 5	/* shorter texts are compared by content hash only */

static const char *
item_text(const struct item *it)
{
	const char *s = json_string_value(json_object_get(it->hit, "text"));

	if (s == NULL)
		s = json_string_value(json_object_get(it->hit, "snippet"));
	return s ? s : "";
}

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

/* ---- building ---- */

static json_t *
str_or_null(json_t *v)
{
	return json_is_string(v) ? json_incref(v) : NULL;
}

/* Building a record, with a sticky error (as in FTS5's fts5_buffer.c): each
 * helper sets *bad when Jansson fails (memory running out), and the caller
 * checks once, so that no record is ever written with a field missing. */

/* o[k] = v (taken); v NULL (a failed constructor) is a failure. */
static void
set_new(int *bad, json_t *o, const char *k, json_t *v)
{
	if (json_object_set_new(o, k, v) == -1)
		*bad = 1;
}

/* o[k] = v (taken) when v is not NULL (NULL: the field is left out). */
static void
set_if(int *bad, json_t *o, const char *k, json_t *v)
{
	if (v != NULL)
		set_new(bad, o, k, v);
}

/* o[k] = v (borrowed) when v is not NULL. */
static void
set_ref(int *bad, json_t *o, const char *k, json_t *v)
{
	if (v != NULL && json_object_set(o, k, v) == -1)
		*bad = 1;
}

/* a += v (borrowed). */
static void
set_ref_append(int *bad, json_t *a, json_t *v)
{
	if (json_array_append(a, v) == -1)
		*bad = 1;
}

/* a += v (taken). */
static void
append_new(int *bad, json_t *a, json_t *v)
{
	if (json_array_append_new(a, v) == -1)
		*bad = 1;
}

static const char *
source_type(json_t *hit, const char *uri)
{
	static const char *const known[] = { "url", "file", "manual", "memory_snapshot", "other", NULL };
	const char *t = json_string_value(json_object_get(hit, "source_type"));
	int i;

	if (t == NULL)
		t = json_string_value(json_object_get(json_object_get(hit, "metadata"), "source_type"));
	if (t != NULL) {
		for (i = 0; known[i]; i++)
			if (strcmp(t, known[i]) == 0)
				return t;
		return "other";
	}
	if (strncmp(uri, "http://", 7) == 0 || strncmp(uri, "https://", 8) == 0)
		return "url";
	if (uri[0] != '\0')
		return "file";
	return "other";
}

static const char *
language(json_t *hit)
{
	const char *l = json_string_value(json_object_get(hit, "language"));

	if (l == NULL)
		l = json_string_value(json_object_get(json_object_get(hit, "metadata"), "language"));
	if (l == NULL)
		return NULL;
	if (strncmp(l, "zh", 2) == 0)
		return "zh";
	if (strncmp(l, "en", 2) == 0)
		return "en";
	return "other";
}

/* A hit field, or the same field of its metadata. */
static json_t *
field_or_meta(json_t *hit, const char *k)
{
	json_t *v = json_object_get(hit, k);

	if (v == NULL || json_is_null(v))
		v = json_object_get(json_object_get(hit, "metadata"), k);
	return v;
}

static json_t *
evidence_item(const struct ev_pack *p, const struct item *it, long long query_index,
    const char *now, int *no_uri)
{
	json_t *hit = it->hit, *e, *sig, *meta, *raw, *v, *s;
	const char *id = json_string_value(json_object_get(hit, "id"));
	const char *uri = json_string_value(json_object_get(hit, "source_uri"));
	const char *snip = json_string_value(json_object_get(hit, "snippet"));
	const char *lane = json_string_value(json_object_get(hit, "lane"));
	const char *key, *lang;
	int is_doc = json_is_array(json_object_get(hit, "chunks"));	/* ev-fuse --group doc */
	int bad = 0;
	char ref[1024];
	size_t cut;

	if (uri == NULL) {
		uri = "";
		(*no_uri)++;
	}
	if (snip == NULL)
		snip = json_string_value(json_object_get(hit, "text"));
	if (snip == NULL)
		snip = "";
	cut = ev_utf8_prefix(snip, strlen(snip), (size_t)p->o.max_snippet_chars);
	if ((e = json_object()) == NULL)
		return NULL;
	set_new(&bad, e, "id", json_string(id));
	set_new(&bad, e, "kind", json_string(is_doc ? "resource_doc" : "resource_section"));
	set_if(&bad, e, "document_id", str_or_null(json_object_get(hit, "doc_id")));
	set_if(&bad, e, "section_id", str_or_null(json_object_get(hit, "section_id")));
	set_if(&bad, e, "title", str_or_null(json_object_get(hit, "title")));
	set_new(&bad, e, "source_uri", json_string(uri));
	set_new(&bad, e, "source_type", json_string(source_type(hit, uri)));
	set_new(&bad, e, "snippet", json_stringn(snip, cut));
	set_new(&bad, e, "snippet_policy", json_string("auto"));
	if ((lang = language(hit)) != NULL)
		set_new(&bad, e, "language", json_string(lang));

	/* signals: the numbers the lanes gave; a single-lane hit names its own */
	if ((sig = json_object()) == NULL)
		bad = 1;
	s = json_object_get(hit, "signals");
	json_object_foreach(s, key, v)
		if (json_is_number(v))
			set_ref(&bad, sig, key, v);
	if (lane != NULL && strcmp(lane, "fused") != 0) {
		char sn[64], rn[64];
		const char *pre = strcmp(lane, "text") == 0 ? "fts" : lane;
		snprintf(sn, sizeof sn, "%s_score", pre);
		snprintf(rn, sizeof rn, "%s_rank", pre);
		if (json_object_get(sig, sn) == NULL)
			set_ref(&bad, sig, sn, json_object_get(hit, "score"));
		if (json_object_get(sig, rn) == NULL && json_is_integer(json_object_get(hit, "rank")))
			set_ref(&bad, sig, rn, json_object_get(hit, "rank"));
	}
	set_new(&bad, e, "signals", sig);

	v = json_pack("{s:s,s:I,s:s}", "mode", lanes_mode(it->lanes),
	    "query_index", (json_int_t)query_index, "retrieved_at", now);
	set_if(&bad, v, "query_text", str_or_null(json_object_get(hit, "query")));
	set_new(&bad, e, "provenance", v);

	if ((meta = json_object()) == NULL)
		bad = 1;
	set_if(&bad, meta, "chunk_index", json_is_integer(field_or_meta(hit, "chunk_index")) ?
	    json_incref(field_or_meta(hit, "chunk_index")) : NULL);
	set_if(&bad, meta, "offset_start", json_is_integer(field_or_meta(hit, "offset_start")) ?
	    json_incref(field_or_meta(hit, "offset_start")) : NULL);
	set_if(&bad, meta, "offset_end", json_is_integer(field_or_meta(hit, "offset_end")) ?
	    json_incref(field_or_meta(hit, "offset_end")) : NULL);
	set_if(&bad, meta, "page", json_is_integer(field_or_meta(hit, "page")) ?
	    json_incref(field_or_meta(hit, "page")) : NULL);
	set_if(&bad, meta, "section_title", str_or_null(field_or_meta(hit, "section_title")));
	/* the chunk's own code (ja, fr, ...), which "language" folds to zh|en|other */
	set_if(&bad, meta, "language", str_or_null(field_or_meta(hit, "language")));
	set_new(&bad, e, "metadata", meta);

	snprintf(ref, sizeof ref, "%s:%s", is_doc ? "doc" : "chunk", id);
	raw = json_pack("{s:s}", "content_ref", ref);
	set_if(&bad, raw, "content_hash", str_or_null(json_object_get(hit, "content_hash")));
	set_new(&bad, e, "raw", raw);
	if (bad) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* the EvidencePack's name of a fusion method */
static const char *
method_name(const char *m)
{
	if (m == NULL)
		return "none";
	if (strcmp(m, "weighted") == 0)
		return "weighted_sum";
	return m;
}

static json_t *
explain_fusion(const struct ev_pack *p)
{
	json_t *x;
	int bad = 0;

	if (p->fusion == NULL)
		return json_pack("{s:s}", "method", "none");
	x = json_pack("{s:s}", "method",
	    method_name(json_string_value(json_object_get(p->fusion, "method"))));
	if (x == NULL)
		return NULL;
	set_ref(&bad, x, "rrf_k", json_object_get(p->fusion, "rrf_k"));
	set_ref(&bad, x, "normalization", json_object_get(p->fusion, "normalization"));
	set_ref(&bad, x, "weights", json_object_get(p->fusion, "weights"));
	set_ref(&bad, x, "group", json_object_get(p->fusion, "group"));
	if (bad) {
		json_decref(x);
		return NULL;
	}
	return x;
}

/* The plan as executed: the plan given, with the options in effect. */
static json_t *
plan_in_effect(const struct ev_pack *p, json_t *fusion)
{
	json_t *plan = p->plan ? ev_jsoncopy_deep(p->plan) : json_object(), *d, *o, *fu;
	const char *m;
	int bad = 0;

	if (plan == NULL)
		return NULL;
	set_new(&bad, plan, "k", json_integer(p->o.k));
	if (p->o.has_min_score)
		set_new(&bad, plan, "min_score", json_real(p->o.min_score));
	if (!json_is_object(json_object_get(plan, "diversity")))
		set_new(&bad, plan, "diversity", json_object());
	d = json_object_get(plan, "diversity");	/* (set_new frees what it cannot set) */
	set_new(&bad, d, "by_document", json_integer(p->o.by_document));
	set_new(&bad, d, "near_duplicates", json_boolean(p->o.near_duplicates));
	set_new(&bad, d, "overlap", json_real(p->o.overlap));
	if (!json_is_object(json_object_get(plan, "output")))
		set_new(&bad, plan, "output", json_object());
	o = json_object_get(plan, "output");	/* (set_new frees what it cannot set) */
	set_new(&bad, o, "max_snippet_chars", json_integer(p->o.max_snippet_chars));
	if (!json_is_object(json_object_get(plan, "fusion")))
		set_new(&bad, plan, "fusion", json_object());
	fu = json_object_get(plan, "fusion");	/* (set_new frees what it cannot set) */
	if (!bad && ev_jsoncopy_update(fu, fusion, 0) == -1)
		bad = 1;
	/* the plan speaks ev-fuse's names */
	m = json_string_value(json_object_get(fusion, "method"));
	if (m != NULL && strcmp(m, "weighted_sum") == 0)
		set_new(&bad, fu, "method", json_string("weighted"));
	if (bad) {
		json_decref(plan);
		return NULL;
	}
	return plan;
}

json_t *
ev_pack_build(struct ev_pack *p, const json_t *query_id, const char *query,
    long long query_index, const char *generated_at, double took_ms, struct ev_err *err)
{
	json_t *pack = NULL, *evs, *warn, *ex, *fusion = NULL, *div, *filt, *byc, *v, *first;
	struct item **kept = NULL, *it;
	const char *req = NULL, *pm;
	char uuid[EV_UUID_LEN + 1], msg[512];
	long long below = 0, by_doc = 0, dups = 0, nmode[NMODES][2] = { { 0 } };
	size_t i, nkept = 0, nret;
	json_t *docs = NULL;
	int no_uri = 0, m, bad = 0;

	if (p->n > 0 && materialize(p, &p->it[0], err) == -1)
		return NULL;
	first = p->n > 0 ? p->it[0].hit : NULL;
	if (first != NULL) {
		req = json_string_value(json_object_get(first, "request_id"));
		if (query_id == NULL)
			query_id = json_object_get(first, "query_id");
		if (query == NULL)
			query = json_string_value(json_object_get(first, "query"));
	}
	if (!json_is_string(query_id) && !json_is_integer(query_id))
		query_id = NULL;
	if (req == NULL && p->plan != NULL)
		req = json_string_value(json_object_get(p->plan, "request_id"));
	if (req == NULL) {
		if (ev_uuid_v4(uuid, err) == -1)
			return NULL;
		req = uuid;
	}
	if ((kept = malloc((p->n ? p->n : 1) * sizeof *kept)) == NULL ||
	    (docs = json_object()) == NULL)
		goto nomem;

	/* Presentation is strict: minimum score, diversity, then k.  The
	 * candidates are looked at in their order (best first) until k are
	 * kept; those below the minimum score are all counted. */
	for (i = 0; i < p->n; i++) {
		it = &p->it[i];
		if (p->o.has_min_score && it->score < p->o.min_score) {
			below++;
			continue;
		}
		if (p->o.k > 0 && nkept >= (size_t)p->o.k)
			continue;
		if (materialize(p, it, err) == -1)
			goto fail;
		if (p->o.near_duplicates) {
			if (it->words == NULL && word_set(item_text(it), &it->words, &it->nwords) == -1)
				goto nomem;
			if (near_duplicate(p, it, kept, nkept)) {
				dups++;
				continue;
			}
		}
		if (p->o.by_document > 0) {
			const char *doc = json_string_value(json_object_get(it->hit, "doc_id"));
			if (doc != NULL) {
				v = json_object_get(docs, doc);
				if (v != NULL && json_integer_value(v) >= p->o.by_document) {
					by_doc++;
					continue;
				}
				if (json_object_set_new(docs, doc,
				    json_integer(v ? json_integer_value(v) + 1 : 1)) == -1)
					goto nomem;
			}
		}
		kept[nkept++] = it;
	}
	nret = nkept;
	if (p->o.k > 0 && (size_t)p->o.k < nret)
		nret = (size_t)p->o.k;

	if ((evs = json_array()) == NULL)
		goto nomem;
	for (i = 0; i < nret; i++) {
		append_new(&bad, evs, evidence_item(p, kept[i], query_index, generated_at,
		    &no_uri));
		kept[i]->kept = 1;
	}
	for (i = 0; i < p->n; i++) {
		m = lanes_mode_index(p->it[i].lanes);
		nmode[m][0]++;
		nmode[m][1] += p->it[i].kept;
	}
	/* exact, semantic and hybrid always; relational and associative when any */
	byc = json_pack("{s:{s:I,s:I},s:{s:I,s:I},s:{s:I,s:I}}",
	    "exact", "candidates", (json_int_t)nmode[0][0], "returned", (json_int_t)nmode[0][1],
	    "semantic", "candidates", (json_int_t)nmode[1][0], "returned", (json_int_t)nmode[1][1],
	    "hybrid", "candidates", (json_int_t)nmode[4][0], "returned", (json_int_t)nmode[4][1]);
	for (m = 2; byc != NULL && m <= 3; m++)
		if (nmode[m][0] > 0 && json_object_set_new(byc, mode_names[m],
		    json_pack("{s:I,s:I}", "candidates", (json_int_t)nmode[m][0],
		    "returned", (json_int_t)nmode[m][1])) == -1)
			bad = 1;

	warn = json_array();
	fusion = explain_fusion(p);	/* kept (one reference of ours) to the end */
	ex = json_object();
	if (warn == NULL || fusion == NULL || ex == NULL)
		bad = 1;
	set_new(&bad, ex, "fusion", json_incref(fusion));
	set_new(&bad, ex, "rerank", json_pack("{s:b}", "enabled", 0));
	filt = json_object();
	if (p->o.has_min_score) {
		set_new(&bad, filt, "min_score", json_real(p->o.min_score));
		set_new(&bad, filt, "dropped_below_min_score", json_integer(below));
	}
	if (first != NULL && json_is_object(json_object_get(first, "filters")))
		set_ref(&bad, filt, "query", json_object_get(first, "filters"));
	set_new(&bad, ex, "filters_applied", filt);
	div = json_object();
	set_new(&bad, div, "by_document", json_integer(p->o.by_document));
	set_new(&bad, div, "near_duplicates", json_boolean(p->o.near_duplicates));
	set_new(&bad, div, "overlap", json_real(p->o.overlap));
	set_new(&bad, div, "applied", json_boolean(p->o.by_document > 0 || p->o.near_duplicates));
	set_new(&bad, div, "dropped_by_document", json_integer(by_doc));
	set_new(&bad, div, "dropped_duplicates", json_integer(dups));
	set_new(&bad, ex, "diversity", div);
	set_new(&bad, ex, "ignored_fields", p->ignored ? ev_jsoncopy_deep(p->ignored) : json_array());

	if (p->n == 0)
		append_new(&bad, warn, json_string("no hits: no lane found anything for this query"));
	for (i = 0; i < json_array_size(p->warnings); i++)
		set_ref_append(&bad, warn, json_array_get(p->warnings, i));
	for (i = 0; p->ignored != NULL && i < json_array_size(p->ignored); i++) {
		snprintf(msg, sizeof msg, "plan field ignored: %s",
		    json_string_value(json_array_get(p->ignored, i)));
		append_new(&bad, warn, json_string(msg));
	}
	/* (no hit: nothing was fused, so nothing to compare) */
	pm = p->plan && p->n > 0 ? json_string_value(ev_config_get(p->plan, "fusion.method")) : NULL;
	if (pm != NULL) {
		const char *hm = json_string_value(json_object_get(fusion, "method"));
		if (hm != NULL && strcmp(method_name(pm), hm) != 0) {
			snprintf(msg, sizeof msg, "plan fusion.method '%s' differs from the hits' "
			    "fusion method '%s'", pm, hm);
			append_new(&bad, warn, json_string(msg));
		}
	}
	if (no_uri > 0) {
		snprintf(msg, sizeof msg, "%d evidence%s without source_uri", no_uri,
		    no_uri == 1 ? "" : "s");
		append_new(&bad, warn, json_string(msg));
	}

	if ((pack = json_object()) == NULL)
		bad = 1;
	set_new(&bad, pack, "version", json_string(EV_PACK_VERSION));
	set_new(&bad, pack, "plan", plan_in_effect(p, fusion));
	set_new(&bad, pack, "plan_id", json_string(p->plan_id));
	set_new(&bad, pack, "request_id", json_string(req));
	set_ref(&bad, pack, "query_id", (json_t *)query_id);
	set_if(&bad, pack, "query", query ? json_string(query) : NULL);
	set_new(&bad, pack, "generated_at", json_string(generated_at));
	set_new(&bad, pack, "evidences", evs);
	set_new(&bad, pack, "stats", json_pack("{s:I,s:I,s:I,s:o}",
	    "candidates", (json_int_t)p->n, "returned", (json_int_t)nret,
	    "took_ms", (json_int_t)llround(took_ms), "by_mode", byc));
	set_new(&bad, pack, "explain", ex);
	set_new(&bad, pack, "warnings", warn);
	if (bad || json_object_size(pack) != (size_t)(9 + (query_id != NULL) + (query != NULL)))
		goto nomem;
	free(kept);
	json_decref(docs);
	json_decref(fusion);
	return pack;
nomem:
	ev_err_nomem(err);
fail:
	free(kept);
	json_decref(docs);
	json_decref(fusion);
	json_decref(pack);
	return NULL;
}

/* ---- the text report ---- */

/* The code point of the UTF-8 sequence at s (valid: the pack's strings are),
 * and its length in *n. */
static unsigned
utf8_next(const unsigned char *s, size_t len, size_t *n)
{
	size_t m = ev_utf8_len(s, len);

	if (s[0] < 0x80 || m == 0) {
		*n = 1;
		return s[0];
	}
	*n = m;
	if (m == 2)
		return (unsigned)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
	if (m == 3)
		return (unsigned)(s[0] & 0x0f) << 12 | (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
	return (unsigned)(s[0] & 0x07) << 18 | (unsigned)(s[1] & 0x3f) << 12 |
	    (unsigned)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
}

/* Columns a code point takes on a terminal, without the locale (tests run
 * with LC_ALL=C): 2 for East Asian wide and full-width characters (Unicode's
 * East_Asian_Width W and F: CJK, kana, Hangul, full-width forms, emoji), 0
 * for combining marks and zero-width characters, else 1. */
int
ev_pack_char_width(unsigned c)
{
	static const unsigned wide[][2] = {
		{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x2329, 0x232a }, { 0x2e80, 0x303e },
		{ 0x3041, 0x33ff }, { 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
		{ 0xa960, 0xa97f }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe10, 0xfe19 },
		{ 0xfe30, 0xfe6f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd }, { 0x30000, 0x3fffd }
	};
	static const unsigned zero[][2] = {
		{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x0610, 0x061a },
		{ 0x064b, 0x065f }, { 0x200b, 0x200f }, { 0x202a, 0x202e }, { 0x2060, 0x2064 },
		{ 0x20d0, 0x20ff }, { 0x3099, 0x309a }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
		{ 0xfeff, 0xfeff }
	};
	size_t i;

	for (i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (c >= wide[i][0] && c <= wide[i][1])
			return 2;
	for (i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (c >= zero[i][0] && c <= zero[i][1])
			return 0;
	return 1;
}

size_t
ev_pack_text_width(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, w = 0;

	while (i < len) {
		w += (size_t)ev_pack_char_width(utf8_next(p + i, len - i, &n));
		i += n;
	}
	return w;
}

/* Append s[0..len) to b, white space (tabs, line breaks) as one space each,
 * other control characters left out. */
static void
add_clean(struct ev_buf *b, const char *s, size_t len, int *bad)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\t' || c == '\n' || c == '\r')
			*bad |= ev_buf_addc(b, ' ');
		else if (c >= 0x20 && c != 0x7f)
			*bad |= ev_buf_addc(b, c);
	}
}

/* Append s[start..end) with its trailing spaces left out. */
static void
add_line_part(struct ev_buf *b, const char *s, size_t start, size_t end, int *bad)
{
	while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\n' ||
	    s[end - 1] == '\r'))
		end--;
	add_clean(b, s + start, end - start, bad);
}

/* Append s wrapped to width columns: the first line after what is already
 * written (col0 columns), the others after indent spaces; a line break ends
 * it.  Lines break at spaces, or between wide (CJK) characters, which need
 * none, or anywhere in a word longer than a line (an id). */
static void
add_wrapped(struct ev_buf *b, const char *s, size_t col0, size_t indent, size_t width,
    int *bad)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = s ? strlen(s) : 0, i = 0, n, start, brk, skip = 0, col = col0, w, k;
	unsigned c;

	if (width < indent + 10)
		width = indent + 10;
	while (i < len && isspace(p[i]))
		i++;
	start = i;
	brk = start;	/* brk > start: where the line may break */
	while (i < len) {
		c = utf8_next(p + i, len - i, &n);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			brk = i;
			skip = 1;
			col++;
			i += n;
			continue;
		}
		w = c < 0x20 || c == 0x7f ? 0 : (size_t)ev_pack_char_width(c);
		if (w == 2 && i > start) {
			brk = i;
			skip = 0;
		}
		if (col + w > width && i > start) {
			if (brk > start) {
				add_line_part(b, s, start, brk, bad);
				start = brk + skip;
			} else {
				add_line_part(b, s, start, i, bad);
				start = i;
			}
			while (start < len && isspace(p[start]))
				start++;
			*bad |= ev_buf_addc(b, '\n');
			for (k = 0; k < indent; k++)
				*bad |= ev_buf_addc(b, ' ');
			col = indent;
			i = brk = start;	/* measured again from the new line's start */
			continue;
		}
		col += w;
		i += n;
	}
	add_line_part(b, s, start, len, bad);
	*bad |= ev_buf_addc(b, '\n');
}

/* The snippet to show: all of it when it fits in `lines` lines of `avail`
 * columns; else a window of that many columns that starts a little before
 * the first matched word (marked «word» or [word] by the text lane), cut at
 * word boundaries, with an ellipsis where text was left out. */
static void
snippet_window(const char *s, size_t avail, size_t lines, struct ev_buf *out, int *bad)
{
	/* (wrapping at spaces leaves the ends of lines unused: a fifth is kept
	 * for that) */
	size_t len = strlen(s), budget = avail * lines * 4 / 5, total = ev_pack_text_width(s, len);
	const char *m1 = strstr(s, "\xc2\xab"), *m2 = strchr(s, '[');
	const char *mark = m1 && (!m2 || m1 < m2) ? m1 : m2;
	size_t from = 0, to, lead, n, w = 0, i;

	if (total <= budget) {
		*bad |= ev_buf_adds(out, s);
		return;
	}
	budget -= 2;	/* the ellipses */
	if (mark != NULL) {
		/* start about a fifth of the window before the mark, at a space */
		lead = budget / 5;
		from = (size_t)(mark - s);
		for (i = from; i > 0 && w < lead; ) {
			i--;
			while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
				i--;
			w += ev_pack_text_width(s + i, ev_utf8_prefix(s + i, len - i, 1));
		}
		from = i;
		if (from > 0) {
			const char *sp = memchr(s + from, ' ', (size_t)(mark - s) - from);
			if (sp != NULL)
				from = (size_t)(sp - s) + 1;
		}
	}
	/* as many characters as fit, then back to a space */
	for (to = from, w = 0; to < len; to += n) {
		n = ev_utf8_prefix(s + to, len - to, 1);
		if (w + ev_pack_text_width(s + to, n) > budget)
			break;
		w += ev_pack_text_width(s + to, n);
	}
	if (to < len) {
		for (i = to; i > from && s[i] != ' '; i--)
			;
		if (i > from + (to - from) / 2)
			to = i;
	}
	if (from > 0)
		*bad |= ev_buf_adds(out, "\xe2\x80\xa6");
	*bad |= ev_buf_add(out, s + from, to - from);
	if (to < len)
		*bad |= ev_buf_adds(out, "\xe2\x80\xa6");
}

#define SNIPPET_LINES 4		/* lines of snippet per evidence in the report */

int
ev_pack_render_text(const json_t *pack, size_t width, struct ev_buf *b)
{
	json_t *evs = json_object_get(pack, "evidences"), *e, *sig, *prov, *v, *docs, *stats;
	const char *q = json_string_value(json_object_get(pack, "query")), *fm, *doc, *title, *sec;
	struct ev_buf line = EV_BUF_INIT;
	char num[64], lanes[64], qid[64];
	size_t i, indent, k;
	int bad = 0;

	if ((docs = json_object()) == NULL)
		return -1;
	json_array_foreach(evs, i, e) {
		prov = json_object_get(e, "provenance");
		if (q == NULL)
			q = json_string_value(json_object_get(prov, "query_text"));
	}
	fm = json_string_value(json_object_get(json_object_get(json_object_get(pack, "explain"),
	    "fusion"), "method"));
	stats = json_object_get(pack, "stats");
	/* the query, then what was done */
	v = json_object_get(pack, "query_id");
	if (ev_json_id_text(v, qid, sizeof qid) < 0)
		snprintf(qid, sizeof qid, "%s", json_is_string(v) ? "(long id)" : "?");
	ev_buf_reset(&line);
	bad |= ev_buf_printf(&line, "query %s: %s",
	    json_is_string(v) ? json_string_value(v) : qid, q ? q : "");
	add_wrapped(b, ev_buf_str(&line), 0, 4, width, &bad);
	ev_buf_reset(&line);
	bad |= ev_buf_printf(&line, "%lld of %lld candidates, fusion %s, request %s",
	    (long long)json_integer_value(json_object_get(stats, "returned")),
	    (long long)json_integer_value(json_object_get(stats, "candidates")),
	    fm ? fm : "none", json_string_value(json_object_get(pack, "request_id")));
	add_wrapped(b, ev_buf_str(&line), 0, 4, width, &bad);
	json_array_foreach(json_object_get(pack, "warnings"), i, v) {
		bad |= ev_buf_adds(b, "warning: ");
		add_wrapped(b, json_string_value(v), 9, 4, width, &bad);
	}
	json_array_foreach(evs, i, e) {
		sig = json_object_get(e, "signals");
		prov = json_object_get(e, "provenance");
		doc = json_string_value(json_object_get(e, "document_id"));
		title = json_string_value(json_object_get(e, "title"));
		sec = json_string_value(json_object_get(json_object_get(e, "metadata"), "section_title"));
		snprintf(num, sizeof num, "%2zu. ", i + 1);
		indent = strlen(num);
		bad |= ev_buf_addc(b, '\n');
		/* the document's title the first time it comes, then its section */
		ev_buf_reset(&line);
		v = doc ? json_object_get(docs, doc) : NULL;
		if (v != NULL)
			bad |= ev_buf_printf(&line, "(same document as %lld)", (long long)json_integer_value(v));
		else
			bad |= ev_buf_adds(&line, title ? title : doc ? doc : "(untitled)");
		if (sec != NULL && sec[0] != '\0' && (title == NULL || strcmp(sec, title) != 0))
			bad |= ev_buf_printf(&line, " > %s", sec);
		if (doc != NULL && v == NULL &&
		    json_object_set_new(docs, doc, json_integer((json_int_t)i + 1)) == -1)
			bad = 1;
		bad |= ev_buf_adds(b, num);
		add_wrapped(b, ev_buf_str(&line), indent, indent, width, &bad);
		/* its id, in full */
		for (k = 0; k < indent; k++)
			bad |= ev_buf_addc(b, ' ');
		add_wrapped(b, json_string_value(json_object_get(e, "id")), indent, indent, width, &bad);
		/* the lanes and the scores */
		lanes_text((json_object_get(sig, "vector_score") ? LANE_VECTOR : 0) |
		    (json_object_get(sig, "fts_score") ? LANE_TEXT : 0), lanes, sizeof lanes);
		ev_buf_reset(&line);
		bad |= ev_buf_adds(&line, lanes[0] ? lanes :
		    json_string_value(json_object_get(prov, "mode")));
		{
			/* the fused score of whatever method ran, then each lane's */
			static const char *const keys[] = { "fused_score", "fts_score", "vector_score" };
			static const char *const names[] = { "score", "fts", "vector" };
			int j;
			for (j = 0; j < 3; j++) {
				v = json_object_get(sig, keys[j]);
				if (j == 0 && v == NULL)
					v = json_object_get(sig, "rrf_score");
				if (json_is_number(v))
					bad |= ev_buf_printf(&line, "  %s %.4g", names[j], json_number_value(v));
			}
		}
		for (k = 0; k < indent; k++)
			bad |= ev_buf_addc(b, ' ');
		add_wrapped(b, ev_buf_str(&line), indent, indent, width, &bad);
		/* the snippet, around its first matched word */
		ev_buf_reset(&line);
		snippet_window(json_string_value(json_object_get(e, "snippet")),
		    width > indent + 10 ? width - indent : 10, SNIPPET_LINES, &line, &bad);
		if (line.len > 0) {
			for (k = 0; k < indent; k++)
				bad |= ev_buf_addc(b, ' ');
			add_wrapped(b, ev_buf_str(&line), indent, indent, width, &bad);
		}
	}
	if (json_array_size(evs) == 0)
		bad |= ev_buf_adds(b, "\nno evidence\n");
	bad |= ev_buf_addc(b, '\n');
	ev_buf_release(&line);
	json_decref(docs);
	return bad ? -1 : 0;
}
