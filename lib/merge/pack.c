/* pack.c: EvidencePack v0.1.  See pack.h. */
#include "pack.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assemble.h"
#include "config.h"
#include "evidence.h"
#include "jscan.h"
#include "jsoncopy.h"
#include "jsonl.h"
#include "plan.h"
#include "uuid.h"

/* ---- options and the plan ---- */

void
ev_pack_opts_init(struct ev_pack_opts *o)
{
	memset(o, 0, sizeof *o);
	o->k = EV_PLAN_DEFAULT(EV_PLAN_K);
	o->min_score = EV_PLAN_DEFAULT(EV_PLAN_MIN_SCORE);
	o->by_document = EV_PLAN_DEFAULT(EV_PLAN_BY_DOCUMENT);
	o->near_duplicates = EV_PLAN_DEFAULT(EV_PLAN_NEAR_DUPLICATES);
	o->overlap = EV_PLAN_DEFAULT(EV_PLAN_OVERLAP);
	o->max_snippet_chars = EV_PLAN_DEFAULT(EV_PLAN_MAX_SNIPPET_CHARS);
	o->mmr_lambda = EV_PLAN_DEFAULT(EV_PLAN_MMR_LAMBDA);
	o->mmr_depth = EV_PLAN_DEFAULT(EV_PLAN_MMR_DEPTH);
	o->group_by = EV_PLAN_DEFAULT(EV_PLAN_GROUP_BY);
}

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
    json_t *ignored, int (*keep)(const void *value), struct ev_err *err)
{
	const struct ev_plan_field fields[] = {
		EV_PLAN_FIELD(EV_PLAN_K, &o->k),
		EV_PLAN_FIELD(EV_PLAN_MIN_SCORE, &o->min_score),
		EV_PLAN_FIELD(EV_PLAN_BY_DOCUMENT, &o->by_document),
		EV_PLAN_FIELD(EV_PLAN_NEAR_DUPLICATES, &o->near_duplicates),
		EV_PLAN_FIELD(EV_PLAN_OVERLAP, &o->overlap),
		EV_PLAN_FIELD(EV_PLAN_MMR_LAMBDA, &o->mmr_lambda),
		EV_PLAN_FIELD(EV_PLAN_MMR_DEPTH, &o->mmr_depth),
		EV_PLAN_FIELD(EV_PLAN_GROUP_BY, &o->group_by),
		EV_PLAN_FIELD(EV_PLAN_MAX_SNIPPET_CHARS, &o->max_snippet_chars),
	};
	const char *name;
	json_t *v;
	char path[256];
	long long k;

	if (plan == NULL)
		return 0;
	if (ignored != NULL) {
		struct ignored_ctx c = { ignored, 0 };
		ev_config_unknown(plan, ev_plan_keys, add_ignored, &c);
		if (c.bad)
			return ev_err_nomem(err);
	}
	if (ev_plan_read(plan, file, fields, sizeof fields / sizeof fields[0], keep, err) == -1)
		return -1;
	o->has_min_score = !isnan(o->min_score);
	/* the lanes' depth, read by scripts/ev-hybrid: checked here, once */
	json_object_foreach(json_object_get(plan, "lanes"), name, v) {
		snprintf(path, sizeof path, "lanes.%s.k", name);
		if (json_is_object(v) &&
		    ev_config_int(plan, path, 1, EV_PLAN_MAX_K, &k, file, err) == -1)
			return -1;
	}
	return 0;
}

int
ev_pack_group_index(const char *word)
{
	return ev_plan_word_index(EV_PACK_GROUPS, word);
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
	LANE_STRUCTURED = 32, LANE_NEIGHBOUR = 64, LANE_LINK = 128, LANE_VISUAL = 256
};

/* The lanes evkit knows by name, and their bits ("fused" has none: its
 * lanes are found in its explanation; "vector_feedback", the vector lane
 * folded with the text lane's best chunks, is a vector lane); any other lane
 * is LANE_OTHER. */
static const char *const lane_names[] = { "vector", "text", "region", "timeline", "structured",
	"neighbour", "link", "fused", "vector_feedback", "visual" };
static const unsigned lane_bits[] = { LANE_VECTOR, LANE_TEXT, LANE_REGION, LANE_TIMELINE,
	LANE_STRUCTURED, LANE_NEIGHBOUR, LANE_LINK, 0, LANE_VECTOR, LANE_VISUAL };

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

/* provenance.mode: exact (text only), semantic (vector, region or visual only),
 * relational (the structured lane only), associative (expansion lanes only:
 * timeline, neighbour, link, and lanes evkit does not know), hybrid (more
 * than one of these). */
static const char *const mode_names[] = { "exact", "semantic", "relational", "associative",
	"hybrid" };
#define NMODES 5

static int
lanes_mode_index(unsigned bits)
{
	int exact = (bits & LANE_TEXT) != 0, sem = (bits & (LANE_VECTOR | LANE_REGION |
	    LANE_VISUAL)) != 0;
	int rel = (bits & LANE_STRUCTURED) != 0;
	int assoc = (bits & (LANE_TIMELINE | LANE_NEIGHBOUR | LANE_LINK | LANE_OTHER)) != 0;

	if (exact + sem + rel + assoc > 1)
		return 4;
	return exact ? 0 : rel ? 2 : assoc ? 3 : 1;
}

static const char *
lanes_mode(unsigned bits)
{
	return mode_names[lanes_mode_index(bits)];
}

/* The lanes of bits as text, "vector+text": in the order of the names below. */
static void
lanes_text(unsigned bits, char *buf, size_t size)
{
	static const char *const names[] = { "vector", "text", "region", "structured", "link",
		"neighbour", "timeline", "visual", "other" };
	static const unsigned order[] = { LANE_VECTOR, LANE_TEXT, LANE_REGION, LANE_STRUCTURED,
		LANE_LINK, LANE_NEIGHBOUR, LANE_TIMELINE, LANE_VISUAL, LANE_OTHER };
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 9; i++)
		if (bits & order[i])
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s",
			    n ? "+" : "", names[i]);
}

/* The top-level members of a hit that packing reads, found in one pass
 * over a scanned line (index_members()). */
enum {
	K_ID, K_SCORE, K_RANK, K_EXPLAIN, K_LANE, K_SNIPPET, K_DOC_ID, K_QUERY, K_SIGNALS,
	K_EVIDENCE, K_RERANK, K_ROUTING, K_WARNINGS, K_MODALITY, K_METADATA, K_QUERY_ID,
	K_REQUEST_ID, K_QUERY_INDEX, NKEYS
};
static const char *const key_names[NKEYS] = {
	"id", "score", "rank", "explain", "lane", "snippet", "doc_id", "query", "signals",
	"evidence", "rerank", "routing", "warnings", "modality", "metadata", "query_id",
	"request_id", "query_index"
};

/* ---- the accumulator ---- */

/* One query of the request being packed. */
struct pq {
	json_t *id;		/* its query_id (a string or an integer) */
	char *key;		/* the id as text */
	char *text;		/* its text, or NULL */
	json_t *routing;	/* its routing object, or NULL */
	long long index;	/* query_index */
	int given;		/* index given (not its position) */
	long long candidates, returned, found;	/* filled by ev_pack_build() */
};

/* A query that found a candidate: its score, rank and lanes there. */
struct prov {
	int q;
	double score;
	long long rank;
	unsigned lanes;
};

/* A candidate.  Hits read as lines (ev_pack_add_line()) are kept as their
 * raw text and parsed only when presentation looks at them: a pack keeps k of
 * a thousand candidates. */
struct item {
	json_t *hit;		/* the best-scoring hit of this id; NULL: not parsed yet */
	size_t raw, rawlen;	/* else its line, at p->raw.p + raw */
	double score;
	unsigned lanes;
	int q;			/* the query that found it best */
	long long rank;		/* its rank there (0: none given) */
	struct prov *pv;	/* every query that found it, when more than one */
	size_t npv;
	int group;		/* its group, in p->groups (-1: none) */
	int kept;		/* among the evidences returned */
	uint64_t *words;	/* sorted hashes of its text's words, for overlap */
	size_t nwords;
	float *vec;		/* its vector, for MMR (NULL: none) */
	double mmr;		/* its MMR score when MMR chose it */
	json_t *ev;		/* its evidence entries, once another hit of its id
				 * was merged into it (NULL: its hit's own) */
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
	json_t *hitwarn;	/* the hits' warnings, in order, once each */
	json_t *hitwarn_set;	/* the same, as keys */
	json_t *qkeys;		/* query id text -> its place in q */
	json_t *qindex;		/* query_index as text -> its place in q */
	json_t *rerank;		/* the first hit's rerank object, or NULL */
	json_t *groups;		/* group names, in order of first use */
	struct pq *q;		/* the request's queries */
	size_t nq, capq;
	int cur;		/* the query hits are added to (-1: none yet) */
	char *req;		/* the first request_id a hit gave, or NULL */
	ev_pack_vector_fn vfn;	/* vectors for MMR, or NULL */
	void *vctx;
	int dim;
	struct ev_contra *contra;	/* made when first needed */
	struct ev_buf raw;	/* the lines of the current query's hits */
	struct ev_jscan js;	/* the line last scanned (ev_pack_scan_line()) */
	const char *line;
	size_t linelen;
	struct ev_buf idb;	/* a decoded string */
	struct ev_buf reqb;	/* the scanned line's request id */
	struct ev_jmems sub;	/* members of a nested object */
	int at[NKEYS];		/* the scanned line's members by key (-1: absent or null) */
};

struct ev_pack *
ev_pack_new(const struct ev_pack_opts *o, const json_t *plan, const json_t *ignored,
    const char *plan_id, struct ev_err *err)
{
	struct ev_pack *p = calloc(1, sizeof *p);

	if (p == NULL || (p->ids = json_object()) == NULL ||
	    (p->warnings = json_array()) == NULL || (p->hitwarn = json_array()) == NULL ||
	    (p->groups = json_array()) == NULL || (p->hitwarn_set = json_object()) == NULL ||
	    (p->qkeys = json_object()) == NULL || (p->qindex = json_object()) == NULL) {
		if (p != NULL) {
			json_decref(p->ids);
			json_decref(p->warnings);
			json_decref(p->hitwarn);
			json_decref(p->groups);
			json_decref(p->hitwarn_set);
			json_decref(p->qkeys);
		}
		free(p);
		ev_err_nomem(err);
		return NULL;
	}
	p->o = *o;
	p->plan = plan;
	p->ignored = ignored;
	p->cur = -1;
	snprintf(p->plan_id, sizeof p->plan_id, "%s", plan_id);
	return p;
}

int
ev_pack_request(struct ev_pack *p, const char *request_id, struct ev_err *err)
{
	char *r = strdup(request_id);

	if (r == NULL)
		return ev_err_nomem(err);
	free(p->req);
	p->req = r;
	return 0;
}

void
ev_pack_set_vectors(struct ev_pack *p, ev_pack_vector_fn fn, void *ctx, int dim)
{
	p->vfn = fn;
	p->vctx = ctx;
	p->dim = dim;
}

int
ev_pack_begin(struct ev_pack *p, struct ev_err *err)
{
	size_t i;

	(void)err;
	for (i = 0; i < p->n; i++) {
		json_decref(p->it[i].hit);
		free(p->it[i].words);
		free(p->it[i].pv);
		free(p->it[i].vec);
		json_decref(p->it[i].ev);
	}
	for (i = 0; i < p->nq; i++) {
		json_decref(p->q[i].id);
		json_decref(p->q[i].routing);
		free(p->q[i].key);
		free(p->q[i].text);
	}
	p->n = p->nq = 0;
	p->cur = -1;
	free(p->req);
	p->req = NULL;
	ev_buf_reset(&p->raw);
	json_object_clear(p->ids);
	json_array_clear(p->hitwarn);
	json_object_clear(p->hitwarn_set);
	json_object_clear(p->qkeys);
	json_object_clear(p->qindex);
	json_array_clear(p->groups);
	json_decref(p->fusion);
	json_decref(p->rerank);
	p->fusion = p->rerank = NULL;
	return 0;
}

void
ev_pack_free(struct ev_pack *p)
{
	if (p == NULL)
		return;
	ev_pack_begin(p, NULL);
	free(p->it);
	free(p->q);
	json_decref(p->ids);
	json_decref(p->warnings);
	json_decref(p->hitwarn);
	json_decref(p->hitwarn_set);
	json_decref(p->qkeys);
	json_decref(p->qindex);
	json_decref(p->groups);
	ev_contra_free(p->contra);
	ev_buf_release(&p->raw);
	ev_buf_release(&p->idb);
	ev_buf_release(&p->reqb);
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

int
ev_pack_query(struct ev_pack *p, const json_t *query_id, const char *query, long long query_index,
    const json_t *routing, const char *where, struct ev_err *err)
{
	char buf[64], ibuf[32];
	const char *key;
	struct pq *x;
	json_t *v;
	size_t i;

	if (query_id == NULL || json_is_null(query_id)) {
		/* a hit given without a query_id (ev_pack_add()): a query without a name */
		query_id = json_null();
		buf[0] = '\0';
	} else if (ev_json_id_text(query_id, buf, sizeof buf) < 0 && !json_is_string(query_id)) {
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'query_id' must be a string or an integer");
	}
	key = json_is_string(query_id) ? json_string_value(query_id) : buf;
	v = json_object_get(p->qkeys, key);
	i = v ? (size_t)json_integer_value(v) : p->nq;
	if (query_index >= 0) {
		snprintf(ibuf, sizeof ibuf, "%lld", query_index);
		v = json_object_get(p->qindex, ibuf);
		if (v != NULL && (size_t)json_integer_value(v) != i)
			return ev_err_set(err, EV_EXIT_USAGE, where, "queries '%s' and '%s' "
			    "of one request both have query_index %lld: each query of a "
			    "request needs its own", p->q[json_integer_value(v)].key, key,
			    query_index);
		if (i < p->nq && p->q[i].given && p->q[i].index != query_index)
			return ev_err_set(err, EV_EXIT_USAGE, where, "query '%s' has query_index "
			    "%lld and %lld", key, p->q[i].index, query_index);
	}
	if (i == p->nq) {
		if (ev_grow(&p->q, &p->capq, p->nq, sizeof *p->q, 4) == -1)
			return ev_err_nomem(err);
		x = &p->q[p->nq];
		memset(x, 0, sizeof *x);
		if ((x->key = strdup(key)) == NULL ||
		    (x->id = ev_jsoncopy_deep(query_id)) == NULL) {
			free(x->key);
			return ev_err_nomem(err);
		}
		x->index = (long long)p->nq;
		if (json_object_set_new(p->qkeys, key, json_integer((json_int_t)p->nq)) == -1) {
			free(x->key);
			json_decref(x->id);
			return ev_err_nomem(err);
		}
		p->nq++;
	}
	x = &p->q[i];
	if (query_index >= 0 && !x->given) {
		x->index = query_index;
		x->given = 1;
		if (json_object_set_new(p->qindex, ibuf, json_integer((json_int_t)i)) == -1)
			return ev_err_nomem(err);
	}
	if (x->text == NULL && query != NULL && (x->text = strdup(query)) == NULL)
		return ev_err_nomem(err);
	if (x->routing == NULL && json_is_object(routing))
		x->routing = json_incref((json_t *)routing);
	p->cur = (int)i;
	return 0;
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
	p->it[p->n].group = -1;
	return &p->it[p->n];
}

/* The hit's fields for the request, all optional: "rerank" (an object: the
 * first is kept), "warnings" (strings: each kept once), "routing" (an
 * object: the query's when it has none).  Checked first, then taken.
 * Returns 0, or -1 with *err set (code 2 at where). */
static int
take_extras(struct ev_pack *p, json_t *rerank, json_t *warnings, json_t *routing,
    const char *where, struct ev_err *err)
{
	json_t *w;
	size_t i;

	if (rerank != NULL && !json_is_null(rerank) && !json_is_object(rerank))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rerank' must be an object");
	if (routing != NULL && !json_is_null(routing) && !json_is_object(routing))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'routing' must be an object");
	if (warnings != NULL && !json_is_null(warnings)) {
		if (!json_is_array(warnings))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'warnings' must be an array of strings");
		json_array_foreach(warnings, i, w)
			if (!json_is_string(w))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "field 'warnings' must be an array of strings");
		json_array_foreach(warnings, i, w) {
			if (json_object_get(p->hitwarn_set, json_string_value(w)) != NULL)
				continue;
			if (json_object_set_new(p->hitwarn_set, json_string_value(w), json_true()) == -1 ||
			    json_array_append(p->hitwarn, w) == -1)
				return ev_err_nomem(err);
		}
	}
	if (p->rerank == NULL && json_is_object(rerank))
		p->rerank = json_incref(rerank);
	if (p->cur >= 0 && p->q[p->cur].routing == NULL && json_is_object(routing))
		p->q[p->cur].routing = json_incref(routing);
	return 0;
}

/* The query hits are added to: the current one, else one named by hit. */
static int
current_query(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err)
{
	json_t *qi, *qid;

	if (p->cur >= 0)
		return 0;
	qi = json_object_get(hit, "query_index");
	qid = json_object_get(hit, "query_id");
	return ev_pack_query(p, qid, json_string_value(json_object_get(hit,
	    "query")), json_is_integer(qi) ? json_integer_value(qi) : -1, NULL, where, err);
}

/* The group of a candidate: its lanes ("vector+text"), or its modality (its
 * own "modality" or its metadata's, else from its lanes: visual for the
 * region lane, structured for the structured lane alone, else text). */
static int
item_group(struct ev_pack *p, struct item *it, const char *modality, struct ev_err *err)
{
	char name[256];
	json_t *v;
	size_t i;

	if (p->o.group_by == EV_PACK_GROUP_NONE)
		return 0;
	if (p->o.group_by == EV_PACK_GROUP_LANE)
		lanes_text(it->lanes, name, sizeof name);
	else if (modality != NULL && modality[0] != '\0')
		snprintf(name, sizeof name, "%s", modality);
	else
		snprintf(name, sizeof name, "%s", it->lanes & (LANE_REGION | LANE_VISUAL) ? "visual" :
		    it->lanes == LANE_STRUCTURED ? "structured" : "text");
	if (name[0] == '\0')
		snprintf(name, sizeof name, "none");
	json_array_foreach(p->groups, i, v)
		if (strcmp(json_string_value(v), name) == 0)
			break;
	if (i == json_array_size(p->groups) &&
	    json_array_append_new(p->groups, json_string(name)) == -1)
		return ev_err_nomem(err);
	it->group = (int)i;
	return 0;
}

/* A string field of the hit, or of its metadata. */
static const char *
hit_str_or_meta(json_t *hit, const char *k)
{
	const char *s = json_string_value(json_object_get(hit, k));

	return s ? s : json_string_value(json_object_get(json_object_get(hit, "metadata"), k));
}

/* Remember that query q found it with this score, rank and lanes. */
static int
add_prov(struct item *it, int q, double score, long long rank, unsigned lanes,
    struct ev_err *err)
{
	struct prov *n;
	size_t i;

	if (it->pv == NULL) {
		if ((it->pv = malloc(2 * sizeof *it->pv)) == NULL)
			return ev_err_nomem(err);
		it->pv[0] = (struct prov){ it->q, it->score, it->rank, it->lanes };
		it->npv = 1;
	}
	for (i = 0; i < it->npv; i++)
		if (it->pv[i].q == q) {
			it->pv[i].lanes |= lanes;
			if (score > it->pv[i].score) {
				it->pv[i].score = score;
				it->pv[i].rank = rank;
			}
			return 0;
		}
	if ((n = realloc(it->pv, (it->npv + 1) * sizeof *n)) == NULL)
		return ev_err_nomem(err);
	it->pv = n;
	it->pv[it->npv++] = (struct prov){ q, score, rank, lanes };
	return 0;
}

/* Keep the evidence of hit, of the id of it, with its own (the evidence of
 * a candidate is merged from every hit of it).  When another
 * query of the request found it (cross), each entry says which query's it
 * is.  Returns 0, or -1 with *err set (out of memory). */
static int
merge_evidence(struct ev_pack *p, struct item *it, const json_t *hit, int cross,
    struct ev_err *err)
{
	json_t *mine;
	int r;

	if (it->ev == NULL && (it->ev = ev_evidence_of_hit(it->hit, -1)) == NULL)
		return ev_err_nomem(err);
	if (cross && ev_evidence_tag_query(it->ev, p->q[it->q].index) == -1)
		return ev_err_nomem(err);
	if ((mine = ev_evidence_of_hit(hit, cross ? p->q[p->cur].index : -1)) == NULL)
		return ev_err_nomem(err);
	r = ev_evidence_merge(it->ev, mine);
	json_decref(mine);
	return r == -1 ? ev_err_nomem(err) : 0;
}

int
ev_pack_add(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err)
{
	const char *id;
	double score;
	json_t *v, *ix, *qi;
	struct item *it;
	long long rank;
	unsigned lanes;

	if (ev_hit_check(hit, where, err) == -1)
		return -1;
	qi = json_object_get(hit, "query_index");
	if (qi != NULL && !json_is_null(qi) && (!json_is_integer(qi) || json_integer_value(qi) < 0))
		return ev_err_set(err, EV_EXIT_USAGE, where,
		    "field 'query_index' must be a whole number from 0");
	if (current_query(p, hit, where, err) == -1 ||
	    take_extras(p, json_object_get(hit, "rerank"), json_object_get(hit, "warnings"),
	    json_object_get(hit, "routing"), where, err) == -1)
		return -1;
	if (p->q[p->cur].text == NULL && json_is_string(json_object_get(hit, "query")) &&
	    (p->q[p->cur].text = strdup(json_string_value(json_object_get(hit, "query")))) == NULL)
		return ev_err_nomem(err);
	if (p->req == NULL && json_is_string(json_object_get(hit, "request_id")) &&
	    (p->req = strdup(json_string_value(json_object_get(hit, "request_id")))) == NULL)
		return ev_err_nomem(err);
	id = json_string_value(json_object_get(hit, "id"));
	score = json_number_value(json_object_get(hit, "score"));
	rank = json_is_integer(json_object_get(hit, "rank")) ?
	    json_integer_value(json_object_get(hit, "rank")) : 0;
	lanes = hit_lanes(hit);
	if (p->fusion == NULL && (v = json_object_get(hit, "explain")) != NULL &&
	    json_is_object(v) && json_is_string(json_object_get(v, "method")))
		p->fusion = json_incref(v);
	if ((ix = json_object_get(p->ids, id)) != NULL) {
		it = &p->it[json_integer_value(ix)];
		if (materialize(p, it, err) == -1 ||
		    merge_evidence(p, it, hit, it->q != p->cur || it->pv != NULL, err) == -1)
			return -1;
		if (it->q != p->cur || it->pv != NULL) {
			/* another query of the request found it too: kept once, at
			 * the better score, with the query that found it best */
			if (add_prov(it, p->cur, score, rank, lanes, err) == -1)
				return -1;
			if (it->q == p->cur)
				it->lanes |= lanes;
			if (score > it->score) {
				json_t *copy = ev_jsoncopy_shallow(hit);
				if (copy == NULL)
					return ev_err_nomem(err);
				json_decref(it->hit);
				it->hit = copy;
				it->score = score;
				it->rank = rank;
				if (it->q != p->cur)
					it->lanes = lanes;
				it->q = p->cur;
			}
			return 0;
		}
		/* the same id again from this query (lanes given unfused): keep
		 * the higher score, and every lane that found it */
		it->lanes |= lanes;
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
			it->rank = rank;
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
		return item_group(p, it, hit_str_or_meta(it->hit, "modality"), err);
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
	it->lanes = lanes;
	it->q = p->cur;
	it->rank = rank;
	p->n++;
	return item_group(p, it, hit_str_or_meta(hit, "modality"), err);
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

/* Fill p->at from the scanned members m[0..nm): each key's first member
 * (the scanner refuses a key given twice), -1 for one absent or null. */
static void
index_members(struct ev_pack *p, const struct ev_jmem *m, size_t nm)
{
	static size_t len[NKEYS];
	static uint32_t first[256];	/* the keys that begin with a byte */
	size_t i;
	int k;

	if (len[0] == 0)
		for (k = 0; k < NKEYS; k++) {
			len[k] = strlen(key_names[k]);
			first[(unsigned char)key_names[k][0]] |= 1u << k;
		}
	for (k = 0; k < NKEYS; k++)
		p->at[k] = -1;
	for (i = 0; i < nm; i++) {
		/* (an escaped key may begin with a backslash: all keys are tried) */
		uint32_t cand = m[i].kesc ? ~0u : m[i].klen ? first[(unsigned char)m[i].key[0]] : 0;
		for (k = 0; k < NKEYS; k++)
			if ((cand >> k & 1) && (m[i].kesc ?
			    ev_jscan_str_eq(m[i].key, m[i].klen, key_names[k]) :
			    m[i].klen == len[k] && memcmp(m[i].key, key_names[k], len[k]) == 0)) {
				if (m[i].type != EV_JNULL)
					p->at[k] = (int)i;
				break;
			}
	}
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
	int i = p->at[K_LANE], x, a;

	if (i >= 0 && m[i].type == EV_JSTR && !ev_jscan_str_eq(m[i].val + 1, m[i].vlen - 2, "fused")) {
		*out = raw_lane_bit(m[i].val + 1, m[i].vlen - 2);
		return 0;
	}
	(void)nm;
	if ((x = p->at[K_EXPLAIN]) >= 0 && m[x].type == EV_JOBJ) {
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
	if (c.bits == 0 && (a = p->at[K_EVIDENCE]) >= 0 && m[a].type == EV_JARR) {
		c.m = &p->sub;
		c.need_found = 0;
		ev_jscan_elements(m[a].val, m[a].vlen, lane_elem, &c);
		if (c.bad)
			return -1;
	}
	if (c.bits == 0 && (a = p->at[K_SIGNALS]) >= 0 && m[a].type == EV_JOBJ) {
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
    struct ev_pack_line *li, struct ev_err *err)
{
	const struct ev_jmem *m;
	int t = ev_jscan_value(&p->js, line, len, where, err), q, r;
	size_t nm;

	p->line = NULL;
	li->request_id = NULL;
	li->query_index = -1;
	li->query_id_int = 0;
	if (t == -1) {
		ev_json_refused(line, len, where, err);
		return -1;
	}
	if (t != EV_JOBJ)
		return ev_err_set(err, EV_EXIT_USAGE, where, "hit must be a JSON object");
	m = p->js.top.m;
	nm = p->js.top.n;
	index_members(p, m, nm);
	if ((r = p->at[K_REQUEST_ID]) >= 0) {
		if (m[r].type != EV_JSTR)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'request_id' must be a string");
		ev_buf_reset(&p->reqb);
		if (ev_jscan_decode(&p->reqb, m[r].val + 1, m[r].vlen - 2) == -1 ||
		    ev_buf_reserve(&p->reqb, 1) == -1)
			return ev_err_nomem(err);
		li->request_id = ev_buf_str(&p->reqb);
	}
	if ((r = p->at[K_QUERY_INDEX]) >= 0) {
		long long iv = -1;
		if (m[r].type == EV_JINT)
			mem_num(&m[r], &iv);
		if (iv < 0)
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "field 'query_index' must be a whole number from 0");
		li->query_index = iv;
	}
	if ((q = p->at[K_QUERY_ID]) < 0)
		return ev_err_set(err, EV_EXIT_USAGE, where, "missing field 'query_id'");
	if (m[q].type == EV_JSTR) {
		if ((li->query_id = mem_str(p, &m[q])) == NULL)
			return ev_err_nomem(err);
	} else if (m[q].type == EV_JINT) {
		ev_buf_reset(&p->idb);
		if (ev_buf_add(&p->idb, m[q].val, m[q].vlen) == -1 || ev_buf_reserve(&p->idb, 1) == -1)
			return ev_err_nomem(err);
		li->query_id = ev_buf_str(&p->idb);
		li->query_id_int = 1;
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

/* take_extras() for a scanned record: its "rerank", "warnings" and
 * "routing" members, parsed only when they are there and needed. */
static int
raw_extras(struct ev_pack *p, const struct ev_jmem *m, size_t nm, const char *where,
    struct ev_err *err)
{
	static const int keys[] = { K_RERANK, K_WARNINGS, K_ROUTING };
	json_t *v[3] = { NULL, NULL, NULL };
	int i, k, r = 0;

	(void)nm;
	for (k = 0; k < 3; k++) {
		if ((i = p->at[keys[k]]) < 0 || (k == 0 && p->rerank != NULL) ||
		    (k == 2 && p->q[p->cur].routing != NULL))
			continue;
		if ((v[k] = ev_json_parse_line(m[i].val, m[i].vlen, where, err)) == NULL) {
			r = -1;
			break;
		}
	}
	if (r == 0)
		r = take_extras(p, v[0], v[1], v[2], where, err);
	for (k = 0; k < 3; k++)
		json_decref(v[k]);
	return r;
}

/* item_group() for a scanned record: its "modality", or its metadata's. */
static int
raw_group(struct ev_pack *p, struct item *it, const struct ev_jmem *m, size_t nm,
    struct ev_err *err)
{
	const struct ev_jmem *mod = NULL;
	const char *s = NULL;
	int i;

	if (p->o.group_by == EV_PACK_GROUP_NONE)
		return 0;
	if (p->o.group_by == EV_PACK_GROUP_MODALITY) {
		(void)nm;
		if ((i = p->at[K_MODALITY]) >= 0) {
			mod = &m[i];
		} else if ((i = p->at[K_METADATA]) >= 0) {
			p->sub.n = 0;
			if (ev_jscan_members(m[i].val, m[i].vlen, &p->sub) == -1)
				return ev_err_nomem(err);
			if ((i = member(p->sub.m, p->sub.n, "modality")) >= 0 &&
			    p->sub.m[i].type == EV_JSTR)
				mod = &p->sub.m[i];
		}
		if (mod != NULL && (s = mem_str(p, mod)) == NULL)
			return ev_err_nomem(err);
	}
	return item_group(p, it, s, err);
}

int
ev_pack_add_line(struct ev_pack *p, const char *where, struct ev_err *err)
{
	const struct ev_jmem *m = p->js.top.m;
	size_t nm = p->js.top.n;
	const int *at = p->at;
	int id = at[K_ID], sc = at[K_SCORE], rk = at[K_RANK], x = at[K_EXPLAIN];
	long long rank = 1, iv = 0;
	double score;
	const char *ids;
	struct item *it;

	if (p->line == NULL)
		return ev_err_set(err, EV_EXIT_USAGE, where, "no hit scanned");
	/* Anything unusual (a field of the wrong type, an id given twice, to
	 * be merged, no query named yet) takes the parsed path, which words
	 * the messages. */
	if (p->cur < 0 || id < 0 || m[id].type != EV_JSTR || m[id].vlen <= 2 ||
	    sc < 0 || (m[sc].type != EV_JINT && m[sc].type != EV_JREAL) ||
	    !absent_or(m, rk, EV_JINT) ||
	    !absent_or(m, at[K_LANE], EV_JSTR) ||
	    !absent_or(m, at[K_SNIPPET], EV_JSTR) ||
	    !absent_or(m, at[K_DOC_ID], EV_JSTR) ||
	    !absent_or(m, at[K_QUERY], EV_JSTR) ||
	    !absent_or(m, at[K_SIGNALS], EV_JOBJ) ||
	    !absent_or(m, at[K_EVIDENCE], EV_JARR) ||
	    !absent_or(m, at[K_RERANK], EV_JOBJ) ||
	    !absent_or(m, at[K_ROUTING], EV_JOBJ) ||
	    !absent_or(m, at[K_WARNINGS], EV_JARR) ||
	    !absent_or(m, at[K_MODALITY], EV_JSTR) ||
	    !absent_or(m, at[K_METADATA], EV_JOBJ))
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
	if (raw_extras(p, m, nm, where, err) == -1)
		return -1;
	if ((p->q[p->cur].text == NULL && at[K_QUERY] >= 0) ||
	    (p->req == NULL && at[K_REQUEST_ID] >= 0)) {
		/* once per query: its text and its request (in p->idb, as ids is) */
		const char *q;
		if (p->q[p->cur].text == NULL && at[K_QUERY] >= 0 &&
		    ((q = mem_str(p, &m[at[K_QUERY]])) == NULL ||
		    (p->q[p->cur].text = strdup(q)) == NULL))
			return ev_err_nomem(err);
		if (p->req == NULL && at[K_REQUEST_ID] >= 0 &&
		    ((q = mem_str(p, &m[at[K_REQUEST_ID]])) == NULL || (p->req = strdup(q)) == NULL))
			return ev_err_nomem(err);
		if ((ids = mem_str(p, &m[id])) == NULL)
			return ev_err_nomem(err);
	}
	if ((it = new_item(p, err)) == NULL)
		return -1;
	it->raw = p->raw.len;
	it->rawlen = p->linelen;
	it->score = score;
	it->q = p->cur;
	it->rank = rk >= 0 ? rank : 0;
	if (raw_hit_lanes(p, m, nm, &it->lanes) == -1 ||
	    ev_buf_add(&p->raw, p->line, p->linelen) == -1 ||
	    json_object_set_new(p->ids, ids, json_integer((json_int_t)p->n)) == -1) {
		p->raw.len = it->raw;
		return ev_err_nomem(err);
	}
	p->n++;
	p->line = NULL;
	return raw_group(p, it, m, nm, err);
}

/* ---- near-duplicates ---- */

static double
jaccard(const struct item *a, const struct item *b)
{
	return ev_words_jaccard(a->words, a->nwords, b->words, b->nwords);
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

/* The fields a caller cites a document by, into meta when the hit (or its
 * metadata) has them: document_id (its doc_id), authority_id, doc_type,
 * published_date, section_path, asset_type, asset_id, source_document_id,
 * and every policy_* field (policy_section_id, policy_clause_id,
 * policy_topic_tags, ...) as the document gave it. */
static void
cited_metadata(int *bad, json_t *meta, json_t *hit)
{
	static const char *const keys[] = { "authority_id", "doc_type", "published_date",
		"section_path", "asset_type", "asset_id", "source_document_id" };
	const char *k;
	json_t *v;
	size_t i;

	set_if(bad, meta, "document_id", str_or_null(json_object_get(hit, "doc_id")));
	for (i = 0; i < sizeof keys / sizeof *keys; i++)
		if (json_is_string(v = field_or_meta(hit, keys[i])) && json_string_length(v) > 0)
			set_ref(bad, meta, keys[i], v);
	json_object_foreach(json_object_get(hit, "metadata"), k, v)
		if (strncmp(k, "policy_", 7) == 0)
			set_ref(bad, meta, k, v);
	json_object_foreach(hit, k, v)
		if (strncmp(k, "policy_", 7) == 0 && json_object_get(meta, k) == NULL)
			set_ref(bad, meta, k, v);
}

/* ---- relevance badges ---- */

/* A badge of kind `badge` (and lane, or NULL) with a label, appended to a
 * unless a has one of that kind (and lane) already; the object is returned
 * for more fields (NULL when none was added). */
static json_t *
badge_add(int *bad, json_t *a, const char *badge, const char *lane, const char *label)
{
	json_t *b;
	const char *l;
	size_t i;

	json_array_foreach(a, i, b) {
		l = json_string_value(json_object_get(b, "lane"));
		if (strcmp(json_string_value(json_object_get(b, "badge")), badge) == 0 &&
		    (lane == NULL || l == NULL || strcmp(l, lane) == 0))
			return NULL;
	}
	if ((b = json_pack("{s:s,s:s}", "badge", badge, "label", label)) == NULL ||
	    json_array_append_new(a, b) == -1) {
		*bad = 1;
		return NULL;
	}
	if (lane != NULL)
		set_new(bad, b, "lane", json_string(lane));
	return b;
}

/* The badge an evidence entry of lane `lane` gives (NULL: none). */
static const char *
lane_badge(const char *lane)
{
	unsigned b = lane_bit(lane);

	if (b & LANE_TEXT)
		return "exact_match";
	/* the feedback lane's vector came from the text lane's hits, not from
	 * the query: its own badge */
	if (strcmp(lane, "vector_feedback") == 0)
		return "feedback_match";
	if (b & (LANE_VECTOR | LANE_REGION | LANE_VISUAL))
		return "semantic_match";
	if (b & LANE_LINK)
		return "cross_reference_chain";
	if (b & (LANE_NEIGHBOUR | LANE_TIMELINE))
		return "neighbour";
	if (b & LANE_STRUCTURED)
		return "structured_constraint";
	return NULL;
}

/* Is word one that typo repair read as another (a "term" of e's fuzzy)? */
static int
repaired(const json_t *e, const char *word)
{
	json_t *f;
	size_t i;

	json_array_foreach(json_object_get(e, "fuzzy"), i, f)
		if (json_is_string(json_object_get(f, "term")) &&
		    strcmp(json_string_value(json_object_get(f, "term")), word) == 0)
			return 1;
	return 0;
}

/* The badges of a text entry e: exact_match with the query's words found as
 * the query wrote them, and typo_repair with each word found only as typo
 * repair read it (the word as typed, the indexed word and stem it was read
 * as, their edit distance). */
static void
text_badges(int *bad, json_t *a, json_t *e)
{
	json_t *terms = json_array(), *fixes = json_array(), *b, *f;
	char label[512];
	size_t i, n;

	if (terms == NULL || fixes == NULL)
		*bad = 1;
	n = (size_t)snprintf(label, sizeof label, "holds words of the query");
	json_array_foreach(json_object_get(e, "matched_terms"), i, b) {
		if (!json_is_string(b) || repaired(e, json_string_value(b)))
			continue;
		if (n < sizeof label)
			n += (size_t)snprintf(label + n, sizeof label - n, "%s%s",
			    json_array_size(terms) ? ", " : ": ", json_string_value(b));
		set_ref_append(bad, terms, b);
	}
	if (json_array_size(terms) > 0 || json_array_size(json_object_get(e, "fuzzy")) == 0) {
		if ((b = badge_add(bad, a, "exact_match", NULL, label)) != NULL &&
		    json_is_array(json_object_get(e, "matched_terms")))
			set_ref(bad, b, "terms", terms);
	}
	n = (size_t)snprintf(label, sizeof label, "typo repaired");
	json_array_foreach(json_object_get(e, "fuzzy"), i, f) {
		const char *typed = json_string_value(json_object_get(f, "term"));
		const char *word = json_string_value(json_object_get(f, "word"));
		const char *stem = json_string_value(json_object_get(f, "expansion"));
		if (typed == NULL || (word == NULL && stem == NULL))
			continue;
		if (n < sizeof label)
			n += (size_t)snprintf(label + n, sizeof label - n, "%s'%s' read as '%s'",
			    json_array_size(fixes) ? ", " : ": ", typed, word ? word : stem);
		b = json_pack("{s:s,s:s}", "typed", typed, "read_as", word ? word : stem);
		if (b != NULL && stem != NULL)
			set_new(bad, b, "stem", json_string(stem));
		if (b != NULL && json_is_integer(json_object_get(f, "distance")))
			set_ref(bad, b, "distance", json_object_get(f, "distance"));
		append_new(bad, fixes, b);
	}
	if (json_array_size(fixes) > 0 &&
	    (b = badge_add(bad, a, "typo_repair", NULL, label)) != NULL)
		set_ref(bad, b, "repairs", fixes);
	json_decref(terms);
	json_decref(fixes);
}

/* One badge from one evidence entry e of lane `lane`. */
static void
entry_badge(int *bad, json_t *a, const char *lane, json_t *e)
{
	const char *kind = lane_badge(lane), *from = json_string_value(json_object_get(e, "from"));
	json_t *b, *v;
	char label[512];

	if (kind == NULL)
		return;
	if (strcmp(kind, "exact_match") == 0) {
		text_badges(bad, a, e);
	} else if (strcmp(kind, "semantic_match") == 0 || strcmp(kind, "feedback_match") == 0) {
		const char *to = kind[0] == 's' ? "the query" : "the text lane's first hits";
		v = json_object_get(e, "score");
		if (json_is_number(v))
			snprintf(label, sizeof label, "close in meaning to %s (%s score %.3g)", to,
			    lane, json_number_value(v));
		else
			snprintf(label, sizeof label, "close in meaning to %s", to);
		if ((b = badge_add(bad, a, kind, NULL, label)) != NULL && json_is_number(v))
			set_ref(bad, b, "score", v);
	} else if (strcmp(kind, "cross_reference_chain") == 0) {
		v = json_object_get(e, "hops");
		snprintf(label, sizeof label, "linked from %s (%lld hop%s)", from ? from : "a hit",
		    (long long)json_integer_value(v), json_integer_value(v) == 1 ? "" : "s");
		if ((b = badge_add(bad, a, kind, NULL, label)) != NULL) {
			set_ref(bad, b, "from", json_object_get(e, "from"));
			set_ref(bad, b, "hops", v);
		}
	} else if (strcmp(kind, "neighbour") == 0) {
		v = json_object_get(e, "distance");
		if (strcmp(lane, "timeline") == 0)
			snprintf(label, sizeof label, "published near %s (%g day%s apart)",
			    from ? from : "a hit", json_number_value(v),
			    json_number_value(v) == 1 ? "" : "s");
		else
			snprintf(label, sizeof label, "next to %s in its document (%lld chunk%s away)",
			    from ? from : "a hit", (long long)json_integer_value(v),
			    json_integer_value(v) == 1 ? "" : "s");
		if ((b = badge_add(bad, a, kind, lane, label)) != NULL) {
			set_ref(bad, b, "from", json_object_get(e, "from"));
			set_ref(bad, b, "distance", v);
		}
	} else {
		const char *t = json_string_value(json_object_get(e, "table"));
		v = json_object_get(e, "row");
		if (t != NULL)
			snprintf(label, sizeof label, "a row of table %s that the query's constraints "
			    "select", t);
		else
			snprintf(label, sizeof label, "a record that the query's constraints select");
		if ((b = badge_add(bad, a, kind, NULL, label)) != NULL) {
			set_ref(bad, b, "table", json_object_get(e, "table"));
			set_ref(bad, b, "row", v);
		}
	}
}

/* The badges of a candidate: one per kind its evidence gives (else its
 * lanes), and countervailing when cv says so. */
static json_t *
badges(const json_t *evidence, const struct ev_contra_why *cv, const char *best_id, int *bad)
{
	json_t *a = json_array(), *e, *b;
	const char *lane;
	char label[512];
	size_t i;

	if (a == NULL) {
		*bad = 1;
		return NULL;
	}
	json_array_foreach(evidence, i, e)
		if ((lane = json_string_value(json_object_get(e, "lane"))) != NULL)
			entry_badge(bad, a, lane, e);
	if (cv != NULL) {
		snprintf(label, sizeof label, "may contradict the first evidence (%s: %s)", cv->cue,
		    cv->words);
		if ((b = badge_add(bad, a, "countervailing", NULL, label)) != NULL) {
			set_new(bad, b, "against", json_string(best_id));
			set_new(bad, b, "cue", json_string(cv->cue));
			set_new(bad, b, "words", json_string(cv->words));
			set_new(bad, b, "subject", json_string(cv->subject));
		}
	}
	return a;
}

/* The evidence array of a candidate kept (a new array): its entries merged
 * from every hit of it, in the lanes' order (evidence.h), a text entry's
 * snippet cut as the item's is.  NULL when out of memory. */
static json_t *
item_evidence(const struct ev_pack *p, const struct item *it)
{
	json_t *a = it->ev ? ev_jsoncopy_shallow(it->ev) : ev_evidence_of_hit(it->hit, -1), *e;
	const char *s;
	size_t i, cut;

	if (a == NULL || ev_evidence_order(a) == -1) {
		json_decref(a);
		return NULL;
	}
	json_array_foreach(a, i, e) {
		if ((s = json_string_value(json_object_get(e, "snippet"))) == NULL)
			continue;
		cut = ev_utf8_prefix(s, strlen(s), (size_t)p->o.max_snippet_chars);
		if (cut < strlen(s) && json_object_set_new(e, "snippet", json_stringn(s, cut)) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* A query text longer than this (a document pasted as a question) is said
 * once in a pack, in its query or queries, not again in each evidence's
 * provenance. */
#define PROVENANCE_QUERY_MAX 1024

/* Whether an evidence's provenance repeats the query text q (not NULL, and
 * no longer than PROVENANCE_QUERY_MAX bytes). */
static int
said_in_provenance(const char *q)
{
	return q != NULL && strlen(q) <= PROVENANCE_QUERY_MAX;
}

/* What an evidence item carries besides the hit's fields. */
struct ev_extra {
	long long query_index;
	const char *query_text;
	json_t *routing;	/* borrowed, or NULL */
	json_t *provenances;	/* taken, or NULL */
	const char *group;	/* or NULL */
	const struct ev_contra_why *cv;	/* countervailing, or NULL */
	const char *best_id;	/* the first evidence's id (NULL for the first) */
	int mmr;		/* MMR chose it: its score goes into signals */
};

static json_t *
evidence_item(const struct ev_pack *p, const struct item *it, const struct ev_extra *x,
    const char *now, int *no_uri)
{
	json_t *hit = it->hit, *e, *sig, *meta, *raw, *v, *s, *evidence;
	const char *id = json_string_value(json_object_get(hit, "id"));
	const char *uri = json_string_value(json_object_get(hit, "source_uri"));
	const char *snip = json_string_value(json_object_get(hit, "snippet"));
	const char *lane = json_string_value(json_object_get(hit, "lane"));
	const char *key, *lang, *qt;
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
	if ((e = json_object()) == NULL) {
		json_decref(x->provenances);
		return NULL;
	}
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
	if (x->mmr)
		set_new(&bad, sig, "mmr_score", json_real(it->mmr));
	set_new(&bad, e, "signals", sig);

	v = json_pack("{s:s,s:I,s:s}", "mode", lanes_mode(it->lanes),
	    "query_index", (json_int_t)x->query_index, "retrieved_at", now);
	qt = x->query_text != NULL ? x->query_text : json_string_value(json_object_get(hit, "query"));
	if (said_in_provenance(qt))
		set_new(&bad, v, "query_text", json_string(qt));
	/* the format has no visual mode: a page or region found by a visual
	 * lane is semantic (or hybrid), and says its modality */
	if (it->lanes & (LANE_REGION | LANE_VISUAL))
		set_new(&bad, v, "modality", json_string("visual"));
	set_new(&bad, e, "provenance", v);
	set_if(&bad, e, "provenances", x->provenances);

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
	set_if(&bad, meta, "page_end", json_is_integer(field_or_meta(hit, "page_end")) ?
	    json_incref(field_or_meta(hit, "page_end")) : NULL);
	set_if(&bad, meta, "section_title", str_or_null(field_or_meta(hit, "section_title")));
	/* the chunk's own code (ja, fr, ...), which "language" folds to zh|en|other */
	set_if(&bad, meta, "language", str_or_null(field_or_meta(hit, "language")));
	cited_metadata(&bad, meta, hit);
	set_new(&bad, e, "metadata", meta);

	snprintf(ref, sizeof ref, "%s:%s", is_doc ? "doc" : "chunk", id);
	raw = json_pack("{s:s}", "content_ref", ref);
	set_if(&bad, raw, "content_hash", str_or_null(json_object_get(hit, "content_hash")));
	set_new(&bad, e, "raw", raw);

	evidence = item_evidence(p, it);
	if (evidence == NULL)
		bad = 1;
	set_new(&bad, e, "badges", badges(evidence, x->cv, x->best_id, &bad));
	set_new(&bad, e, "evidence", evidence);
	set_new(&bad, e, "countervailing", json_boolean(x->cv != NULL));
	if (x->group != NULL)
		set_new(&bad, e, "group", json_string(x->group));
	set_ref(&bad, e, "routing", x->routing);
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
	if (p->o.mmr_lambda < 1) {
		set_new(&bad, d, "mmr_lambda", json_real(p->o.mmr_lambda));
		set_new(&bad, d, "mmr_depth", json_integer(p->o.mmr_depth));
	}
	if (p->o.group_by != EV_PACK_GROUP_NONE)
		set_new(&bad, plan, "group_by", json_string(p->o.group_by == EV_PACK_GROUP_LANE ?
		    "lane" : "modality"));
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

/* Candidates best first, the earlier first among equals (a request of
 * several queries merges their rankings by score). */
static int
cmp_items(const void *a, const void *b)
{
	const struct item *x = *(struct item *const *)a, *y = *(struct item *const *)b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return (x > y) - (x < y);
}

static int
cmp_provs(const void *a, const void *b)
{
	const struct prov *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return (x->q > y->q) - (x->q < y->q);
}

/* What presentation dropped on the way to the evidences kept. */
struct dropped {
	long long below, by_doc, dups;
	long long pool, without_vector;	/* MMR: candidates looked at, of them without a vector */
};

/* Near-duplicate and per-document checks of a candidate against those kept:
 * 1 when it is kept (appended to kept), 0 when dropped, -1 on error. */
static int
presentable(struct ev_pack *p, struct item *it, struct item **kept, size_t *nkept, json_t *docs,
    struct dropped *d, struct ev_err *err)
{
	json_t *v;

	if (p->o.near_duplicates) {
		if (it->words == NULL && ev_words_set(item_text(it), &it->words, &it->nwords) == -1)
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
static int
select_mmr(struct ev_pack *p, struct item **ord, struct item **kept, size_t *nkept,
    json_t *docs, struct dropped *d, struct ev_err *err)
{
	struct item **pool = NULL;
	double *maxsim = NULL, lo = 0, hi = 0, lam = p->o.mmr_lambda;
	char *used = NULL;
	size_t i, j, n = 0, depth = (size_t)p->o.mmr_depth;
	int rc = -1, r;

	if ((pool = malloc((p->n ? p->n : 1) * sizeof *pool)) == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < p->n; i++) {
		struct item *it = ord[i];
		if (p->o.has_min_score && it->score < p->o.min_score) {
			d->below++;
			continue;
		}
		if (n >= depth)
			continue;
		if (materialize(p, it, err) == -1)
			goto out;
		if (it->words == NULL && ev_words_set(item_text(it), &it->words, &it->nwords) == -1) {
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
static int
select_plain(struct ev_pack *p, struct item **ord, struct item **kept, size_t *nkept,
    json_t *docs, struct dropped *d, struct ev_err *err)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct item *it = ord[i];
		if (p->o.has_min_score && it->score < p->o.min_score) {
			d->below++;
			continue;
		}
		if (p->o.k > 0 && *nkept >= (size_t)p->o.k)
			continue;
		if (materialize(p, it, err) == -1 ||
		    presentable(p, it, kept, nkept, docs, d, err) == -1)
			return -1;
	}
	return 0;
}

/* The provenances of a candidate found by several queries of the request:
 * one entry per query, best first. */
static json_t *
provenances(const struct ev_pack *p, struct item *it, int *bad)
{
	struct prov one = { it->q, it->score, it->rank, it->lanes }, *pv = it->pv ? it->pv : &one;
	size_t n = it->pv ? it->npv : 1, i;
	json_t *a = json_array(), *o;

	if (a == NULL) {
		*bad = 1;
		return NULL;
	}
	qsort(pv, n, sizeof *pv, cmp_provs);
	for (i = 0; i < n; i++) {
		const struct pq *q = &p->q[pv[i].q];
		o = json_pack("{s:I,s:O,s:s,s:f}", "query_index", (json_int_t)q->index,
		    "query_id", q->id, "mode", lanes_mode(pv[i].lanes), "score", pv[i].score);
		if (o != NULL && said_in_provenance(q->text))
			set_new(bad, o, "query_text", json_string(q->text));
		if (o != NULL && pv[i].rank > 0)
			set_new(bad, o, "rank", json_integer(pv[i].rank));
		append_new(bad, a, o);
	}
	return a;
}

/* The query of the request with the lowest query_index (-1: none). */
static int
first_query(const struct ev_pack *p)
{
	size_t i;
	int f = -1;

	for (i = 0; i < p->nq; i++)
		if (f < 0 || p->q[i].index < p->q[f].index)
			f = (int)i;
	return f;
}

json_t *
ev_pack_build(struct ev_pack *p, const json_t *query_id, const char *query,
    long long query_index, const char *generated_at, double took_ms, struct ev_err *err)
{
	json_t *pack = NULL, *evs, *warn, *ex, *fusion = NULL, *div, *filt, *byc, *v, *first;
	json_t *routing = NULL, *byq = NULL;
	struct item **kept = NULL, **ord = NULL, *it;
	struct ev_contra_why *cv = NULL;
	char *iscv = NULL;
	const char *req = NULL, *pm;
	char uuid[EV_UUID_LEN + 1], msg[512];
	long long nmode[NMODES][2] = { { 0 } }, (*ngroup)[2] = NULL;
	struct dropped d = { 0 };
	size_t i, j, nkept = 0, nret;
	json_t *docs = NULL;
	int no_uri = 0, m, bad = 0, multi, fq;

	if (p->nq == 0 && query_id != NULL &&
	    ev_pack_query(p, query_id, query, query_index, NULL, "", err) == -1)
		return NULL;
	if (p->nq == 1 && !p->q[0].given && query_index >= 0)
		p->q[0].index = query_index;
	multi = p->nq > 1;
	fq = first_query(p);
	if (p->n > 0 && materialize(p, &p->it[0], err) == -1)
		return NULL;
	first = p->n > 0 ? p->it[0].hit : NULL;
	if (query_id == NULL && fq >= 0)
		query_id = p->q[fq].id;
	if (query == NULL && fq >= 0)
		query = p->q[fq].text;
	req = p->req;
	if (first != NULL) {
		if (query_id == NULL)
			query_id = json_object_get(first, "query_id");
		if (query == NULL && !multi)
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
	    (ord = malloc((p->n ? p->n : 1) * sizeof *ord)) == NULL ||
	    (ngroup = calloc(json_array_size(p->groups) + 1, sizeof *ngroup)) == NULL ||
	    (docs = json_object()) == NULL)
		goto nomem;
	for (i = 0; i < p->n; i++)
		ord[i] = &p->it[i];
	if (multi)
		qsort(ord, p->n, sizeof *ord, cmp_items);

	/* Presentation is strict: minimum score, diversity, then k.  The
	 * candidates are looked at in their order (best first) until k are
	 * kept; those below the minimum score are all counted. */
	if ((p->o.mmr_lambda < 1 ? select_mmr : select_plain)(p, ord, kept, &nkept, docs, &d,
	    err) == -1)
		goto fail;
	nret = nkept;
	if (p->o.k > 0 && (size_t)p->o.k < nret)
		nret = (size_t)p->o.k;

	/* countervailing: against the first evidence */
	if ((cv = calloc(nret ? nret : 1, sizeof *cv)) == NULL ||
	    (iscv = calloc(nret ? nret : 1, 1)) == NULL)
		goto nomem;
	if (nret > 1 && p->contra == NULL && (p->contra = ev_contra_new(err)) == NULL)
		goto fail;
	for (i = 1; i < nret; i++) {
		int r = ev_contra_check(p->contra, item_text(kept[i]), item_text(kept[0]), &cv[i],
		    err);
		if (r == -1)
			goto fail;
		iscv[i] = (char)r;
	}

	if ((evs = json_array()) == NULL)
		goto nomem;
	for (i = 0; i < nret; i++) {
		const struct pq *q = kept[i]->q >= 0 ? &p->q[kept[i]->q] : NULL;
		struct ev_extra x = { q ? q->index : query_index >= 0 ? query_index : 0,
			q ? q->text : NULL, q ? q->routing : NULL,
			multi ? provenances(p, kept[i], &bad) : NULL,
			kept[i]->group >= 0 ? json_string_value(json_array_get(p->groups,
			(size_t)kept[i]->group)) : NULL,
			iscv[i] ? &cv[i] : NULL,
			i > 0 ? json_string_value(json_object_get(kept[0]->hit, "id")) : NULL,
			p->o.mmr_lambda < 1 };
		append_new(&bad, evs, evidence_item(p, kept[i], &x, generated_at, &no_uri));
		kept[i]->kept = 1;
	}
	for (i = 0; i < p->n; i++) {
		it = &p->it[i];
		m = lanes_mode_index(it->lanes);
		nmode[m][0]++;
		nmode[m][1] += it->kept;
		if (it->group >= 0) {
			ngroup[it->group][0]++;
			ngroup[it->group][1] += it->kept;
		}
		for (j = 0; j < (it->pv ? it->npv : 1); j++) {
			int q = it->pv ? it->pv[j].q : it->q;
			if (q < 0)
				continue;
			p->q[q].candidates++;
			p->q[q].found += it->kept;
		}
		if (it->q >= 0)
			p->q[it->q].returned += it->kept;
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
	set_new(&bad, ex, "rerank", p->rerank ? ev_jsoncopy_deep(p->rerank) :
	    json_pack("{s:b}", "enabled", 0));
	filt = json_object();
	if (p->o.has_min_score) {
		set_new(&bad, filt, "min_score", json_real(p->o.min_score));
		set_new(&bad, filt, "dropped_below_min_score", json_integer(d.below));
	}
	if (first != NULL && json_is_object(json_object_get(first, "filters")))
		set_ref(&bad, filt, "query", json_object_get(first, "filters"));
	set_new(&bad, ex, "filters_applied", filt);
	div = json_object();
	set_new(&bad, div, "by_document", json_integer(p->o.by_document));
	set_new(&bad, div, "near_duplicates", json_boolean(p->o.near_duplicates));
	set_new(&bad, div, "overlap", json_real(p->o.overlap));
	set_new(&bad, div, "applied", json_boolean(p->o.by_document > 0 || p->o.near_duplicates ||
	    p->o.mmr_lambda < 1));
	set_new(&bad, div, "dropped_by_document", json_integer(d.by_doc));
	set_new(&bad, div, "dropped_duplicates", json_integer(d.dups));
	if (p->o.mmr_lambda < 1) {
		json_t *mm = json_pack("{s:f,s:I,s:s,s:I}", "lambda", p->o.mmr_lambda,
		    "depth", (json_int_t)p->o.mmr_depth,
		    "similarity", p->vfn ? "embedding" : "word_overlap",
		    "looked_at", (json_int_t)d.pool);
		if (mm != NULL && p->vfn != NULL)
			set_new(&bad, mm, "without_vector", json_integer(d.without_vector));
		set_new(&bad, div, "mmr", mm);
	}
	set_new(&bad, ex, "diversity", div);
	set_new(&bad, ex, "ignored_fields", p->ignored ? ev_jsoncopy_deep(p->ignored) : json_array());
	for (i = 0; i < p->nq && routing == NULL; i++)
		if (p->q[i].routing != NULL && (fq < 0 || p->q[fq].routing == NULL ||
		    (int)i == fq))
			routing = p->q[i].routing;
	set_ref(&bad, ex, "routing", routing);

	if (p->n == 0)
		append_new(&bad, warn, json_string(multi ? "no hits: no lane found anything for the "
		    "queries of this request" : "no hits: no lane found anything for this query"));
	for (i = 0; multi && p->n > 0 && i < p->nq; i++)
		if (p->q[i].candidates == 0) {
			snprintf(msg, sizeof msg, "no hits for query '%s' (query_index %lld) of this "
			    "request", p->q[i].key, p->q[i].index);
			append_new(&bad, warn, json_string(msg));
		}
	for (i = 0; i < json_array_size(p->warnings); i++)
		set_ref_append(&bad, warn, json_array_get(p->warnings, i));
	json_array_foreach(p->hitwarn, i, v) {
		for (j = 0; j < json_array_size(p->warnings); j++)
			if (json_equal(v, json_array_get(p->warnings, j)))
				break;
		if (j == json_array_size(p->warnings))
			set_ref_append(&bad, warn, v);
	}
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
	if (multi) {
		/* the request's queries, by query_index */
		json_t *qs = json_array(), *bq = json_array();
		int *idx = malloc(p->nq * sizeof *idx);
		if (qs == NULL || bq == NULL || idx == NULL)
			bad = 1;
		for (i = 0; idx != NULL && i < p->nq; i++) {
			for (j = i; j > 0 && p->q[idx[j - 1]].index > p->q[i].index; j--)
				idx[j] = idx[j - 1];
			idx[j] = (int)i;
		}
		for (i = 0; idx != NULL && i < p->nq; i++) {
			const struct pq *q = &p->q[idx[i]];
			json_t *o = json_pack("{s:I,s:O}", "query_index", (json_int_t)q->index,
			    "query_id", q->id);
			if (o != NULL && q->text != NULL)
				set_new(&bad, o, "query", json_string(q->text));
			append_new(&bad, qs, o);
			append_new(&bad, bq, json_pack("{s:I,s:O,s:I,s:I,s:I}", "query_index",
			    (json_int_t)q->index, "query_id", q->id, "candidates",
			    (json_int_t)q->candidates, "returned", (json_int_t)q->returned, "found",
			    (json_int_t)q->found));
		}
		free(idx);
		set_new(&bad, pack, "queries", qs);
		byq = bq;
	}
	set_new(&bad, pack, "generated_at", json_string(generated_at));
	set_new(&bad, pack, "evidences", evs);
	set_new(&bad, pack, "stats", json_pack("{s:I,s:I,s:I,s:o}",
	    "candidates", (json_int_t)p->n, "returned", (json_int_t)nret,
	    "took_ms", (json_int_t)llround(took_ms), "by_mode", byc));
	{
		json_t *st = json_object_get(pack, "stats");
		if (st != NULL && p->o.group_by != EV_PACK_GROUP_NONE) {
			json_t *bg = json_object();
			json_array_foreach(p->groups, i, v)
				set_new(&bad, bg, json_string_value(v), json_pack("{s:I,s:I}",
				    "candidates", (json_int_t)ngroup[i][0], "returned",
				    (json_int_t)ngroup[i][1]));
			set_new(&bad, st, "by_group", bg);
		}
		if (byq != NULL)
			set_new(&bad, st ? st : pack, "by_query", byq);
		byq = NULL;
		for (i = 0, j = 0; i < nret; i++)
			j += (size_t)iscv[i];
		if (st != NULL)
			set_new(&bad, st, "countervailing", json_integer((json_int_t)j));
	}
	set_new(&bad, pack, "explain", ex);
	set_new(&bad, pack, "warnings", warn);
	if (bad || json_object_size(pack) != (size_t)(9 + (query_id != NULL) + (query != NULL) +
	    multi))
		goto nomem;
	free(kept);
	free(ord);
	free(ngroup);
	free(cv);
	free(iscv);
	json_decref(docs);
	json_decref(fusion);
	return pack;
nomem:
	ev_err_nomem(err);
fail:
	free(kept);
	free(ord);
	free(ngroup);
	free(cv);
	free(iscv);
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

/* "query ID: TEXT" wrapped into b (line is scratch); *bad set on failure. */
static void
add_query_line(struct ev_buf *b, struct ev_buf *line, const json_t *id, const char *text,
	size_t width, int *bad)
{
	char qid[64];

	if (ev_json_id_text(id, qid, sizeof qid) < 0)
		snprintf(qid, sizeof qid, "%s", json_is_string(id) ? "(long id)" : "?");
	ev_buf_reset(line);
	*bad |= ev_buf_printf(line, "query %s: %s",
	    json_is_string(id) ? json_string_value(id) : qid, text ? text : "");
	add_wrapped(b, ev_buf_str(line), 0, 4, width, bad);
}

int
ev_pack_render_text(const json_t *pack, size_t width, struct ev_buf *b)
{
	json_t *evs = json_object_get(pack, "evidences"), *e, *sig, *prov, *v, *docs, *stats;
	const char *q = json_string_value(json_object_get(pack, "query")), *fm, *doc, *title, *sec;
	struct ev_buf line = EV_BUF_INIT;
	char num[64], lanes[64];
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
	/* the query (each query of a request of several), then what was done */
	if (json_array_size(json_object_get(pack, "queries")) > 1)
		json_array_foreach(json_object_get(pack, "queries"), i, v)
			add_query_line(b, &line, json_object_get(v, "query_id"),
			    json_string_value(json_object_get(v, "query")), width, &bad);
	else
		add_query_line(b, &line, json_object_get(pack, "query_id"), q, width, &bad);
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
		/* the page of a paged document's evidence: "p. 3", "p. 3-4" */
		v = json_object_get(json_object_get(e, "metadata"), "page");
		if (json_is_integer(v))
			bad |= ev_buf_printf(&line, ", p. %lld", (long long)json_integer_value(v));
		v = json_object_get(json_object_get(e, "metadata"), "page_end");
		if (json_is_integer(v))
			bad |= ev_buf_printf(&line, "-%lld", (long long)json_integer_value(v));
		v = doc ? json_object_get(docs, doc) : NULL;
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
		lanes_text((json_object_get(sig, "vector_score") ||
		    json_object_get(sig, "vector_feedback_score") ? LANE_VECTOR : 0) |
		    (json_object_get(sig, "fts_score") ? LANE_TEXT : 0), lanes, sizeof lanes);
		ev_buf_reset(&line);
		bad |= ev_buf_adds(&line, lanes[0] ? lanes :
		    json_string_value(json_object_get(prov, "mode")));
		{
			/* the fused score of whatever method ran, then each lane's */
			static const char *const keys[] = { "fused_score", "fts_score", "vector_score",
				"vector_feedback_score" };
			static const char *const names[] = { "score", "fts", "vector", "feedback" };
			int j;
			for (j = 0; j < 4; j++) {
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
		/* what the lanes line does not say: the badges of expansion and
		 * structured lanes, countervailing, the group */
		ev_buf_reset(&line);
		{
			json_t *bg;
			size_t j;
			json_array_foreach(json_object_get(e, "badges"), j, bg) {
				const char *kind = json_string_value(json_object_get(bg, "badge"));
				if (kind == NULL || strcmp(kind, "exact_match") == 0 ||
				    strcmp(kind, "semantic_match") == 0 ||
				    strcmp(kind, "feedback_match") == 0)
					continue;
				bad |= ev_buf_printf(&line, "%s%s", line.len ? "; " : "",
				    json_string_value(json_object_get(bg, "label")));
			}
			if ((v = json_object_get(e, "group")) != NULL)
				bad |= ev_buf_printf(&line, "%sgroup %s", line.len ? "; " : "",
				    json_string_value(v));
		}
		if (line.len > 0) {
			for (k = 0; k < indent; k++)
				bad |= ev_buf_addc(b, ' ');
			add_wrapped(b, ev_buf_str(&line), indent, indent + 2, width, &bad);
		}
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
