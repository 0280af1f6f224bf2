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
 * it (ev-hybrid's lanes, ev-fuse's fusion). */
const char *const ev_pack_plan_keys[] = {
	"version", "request_id", "plan_id", "query", "lanes.*",
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
	LANE_VECTOR = 1, LANE_TEXT = 2, LANE_REGION = 4, LANE_TIMELINE = 8, LANE_OTHER = 16
};

static unsigned
lane_bit(const char *lane)
{
	if (lane == NULL)
		return 0;
	if (strcmp(lane, "vector") == 0)
		return LANE_VECTOR;
	if (strcmp(lane, "text") == 0)
		return LANE_TEXT;
	if (strcmp(lane, "region") == 0)
		return LANE_REGION;
	if (strcmp(lane, "timeline") == 0)
		return LANE_TIMELINE;
	if (strcmp(lane, "fused") == 0)
		return 0;
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
 * associative (timeline only), hybrid (more than one of these). */
static const char *
lanes_mode(unsigned bits)
{
	int exact = (bits & LANE_TEXT) != 0, sem = (bits & (LANE_VECTOR | LANE_REGION)) != 0;
	int assoc = (bits & (LANE_TIMELINE | LANE_OTHER)) != 0;

	if (exact + sem + assoc > 1)
		return "hybrid";
	if (exact)
		return "exact";
	if (assoc)
		return "associative";
	return "semantic";
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

struct item {
	json_t *hit;		/* the best-scoring hit of this id */
	double score;
	unsigned lanes;
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
};

struct ev_pack *
ev_pack_new(const struct ev_pack_opts *o, const json_t *plan, const json_t *ignored,
    const char *plan_id, struct ev_err *err)
{
	struct ev_pack *p = calloc(1, sizeof *p);

	if (p == NULL || (p->ids = json_object()) == NULL) {
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
	free(p);
}

long long
ev_pack_count(const struct ev_pack *p)
{
	return (long long)p->n;
}

int
ev_pack_add(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err)
{
	const char *id = NULL, *s = NULL;
	long long rank;
	double score = 0;
	json_t *v, *ix;
	struct item *it;

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
	    ev_field_arr(hit, "evidence", 0, &v, where, err) == -1)
		return -1;
	if (id[0] == '\0')
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'id' must not be empty");
	if (!isfinite(score))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'score' must be finite");
	rank = 1;
	if (ev_field_int(hit, "rank", 0, &rank, where, err) == 1 && rank < 1)
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'rank' must be at least 1");
	if (p->fusion == NULL && (v = json_object_get(hit, "explain")) != NULL &&
	    json_is_object(v) && json_is_string(json_object_get(v, "method")))
		p->fusion = json_incref(v);
	if ((ix = json_object_get(p->ids, id)) != NULL) {
		/* the same id again (lanes given unfused): keep the higher score,
		 * and every lane that found it */
		it = &p->it[json_integer_value(ix)];
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
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct item *q = realloc(p->it, cap * sizeof *q);
		if (q == NULL)
			return ev_err_nomem(err);
		p->it = q;
		p->cap = cap;
	}
	it = &p->it[p->n];
	memset(it, 0, sizeof *it);
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

/* seed 002's name of a fusion method */
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
ev_pack_build(struct ev_pack *p, long long query_index, const char *generated_at,
    double took_ms, struct ev_err *err)
{
	json_t *pack = NULL, *evs, *warn, *ex, *fusion = NULL, *div, *filt, *byc, *v, *first;
	struct item **kept = NULL, *it;
	const char *req = NULL, *mode, *pm;
	char uuid[EV_UUID_LEN + 1], msg[512];
	long long below = 0, by_doc = 0, dups = 0, nmode[3][2] = { { 0 } };
	size_t i, j, nkept = 0, nret;
	json_t *docs = NULL;
	int no_uri = 0, m, bad = 0;

	first = p->n > 0 ? p->it[0].hit : NULL;
	if (first != NULL)
		req = json_string_value(json_object_get(first, "request_id"));
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

	/* presentation is strict: minimum score, diversity, then k */
	for (i = 0; i < p->n; i++) {
		it = &p->it[i];
		if (p->o.has_min_score && it->score < p->o.min_score) {
			below++;
			continue;
		}
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
	for (i = 0; i < nret; i++)
		append_new(&bad, evs, evidence_item(p, kept[i], query_index, generated_at,
		    &no_uri));
	for (i = 0; i < p->n; i++) {
		mode = lanes_mode(p->it[i].lanes);
		m = strcmp(mode, "exact") == 0 ? 0 : strcmp(mode, "semantic") == 0 ? 1 :
		    strcmp(mode, "hybrid") == 0 ? 2 : -1;
		if (m < 0)
			continue;
		nmode[m][0]++;
		for (j = 0; j < nret; j++)
			if (kept[j] == &p->it[i])
				nmode[m][1]++;
	}
	byc = json_pack("{s:{s:I,s:I},s:{s:I,s:I},s:{s:I,s:I}}",
	    "exact", "candidates", (json_int_t)nmode[0][0], "returned", (json_int_t)nmode[0][1],
	    "semantic", "candidates", (json_int_t)nmode[1][0], "returned", (json_int_t)nmode[1][1],
	    "hybrid", "candidates", (json_int_t)nmode[2][0], "returned", (json_int_t)nmode[2][1]);

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

	for (i = 0; p->ignored != NULL && i < json_array_size(p->ignored); i++) {
		snprintf(msg, sizeof msg, "plan field ignored: %s",
		    json_string_value(json_array_get(p->ignored, i)));
		append_new(&bad, warn, json_string(msg));
	}
	pm = p->plan ? json_string_value(ev_config_get(p->plan, "fusion.method")) : NULL;
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
	set_new(&bad, pack, "generated_at", json_string(generated_at));
	set_new(&bad, pack, "evidences", evs);
	set_new(&bad, pack, "stats", json_pack("{s:I,s:I,s:I,s:o}",
	    "candidates", (json_int_t)p->n, "returned", (json_int_t)nret,
	    "took_ms", (json_int_t)llround(took_ms), "by_mode", byc));
	set_new(&bad, pack, "explain", ex);
	set_new(&bad, pack, "warnings", warn);
	if (bad || json_object_size(pack) != 9)
		goto nomem;
	free(kept);
	json_decref(docs);
	json_decref(fusion);
	return pack;
nomem:
	free(kept);
	json_decref(docs);
	json_decref(fusion);
	json_decref(pack);
	ev_err_nomem(err);
	return NULL;
}

/* ---- the text table ---- */

/* Append one cell of a row; *bad is set when memory runs out (sticky). */
static void
add_cell(struct ev_buf *b, const char *s, size_t width, int last, int *bad)
{
	size_t n = ev_utf8_prefix(s, strlen(s), width), chars = 0, i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			chars++;
	for (i = 0; i < n; i++)	/* no line breaks inside a row */
		*bad |= ev_buf_addc(b, s[i] == '\n' || s[i] == '\t' || s[i] == '\r' ? ' ' : s[i]);
	if (last)
		return;
	for (; chars < width; chars++)
		*bad |= ev_buf_addc(b, ' ');
	*bad |= ev_buf_addc(b, ' ');
}

int
ev_pack_render_text(const json_t *pack, struct ev_buf *b)
{
	json_t *evs = json_object_get(pack, "evidences"), *e, *sig, *prov;
	const char *q = NULL, *fm;
	char num[64], lanes[64];
	size_t i;
	int bad = 0;

	json_array_foreach(evs, i, e) {
		prov = json_object_get(e, "provenance");
		if (q == NULL)
			q = json_string_value(json_object_get(prov, "query_text"));
	}
	fm = json_string_value(json_object_get(json_object_get(json_object_get(pack, "explain"),
	    "fusion"), "method"));
	bad |= ev_buf_printf(b, "request %s: %s\n", json_string_value(json_object_get(pack, "request_id")),
	    q ? q : "");
	bad |= ev_buf_printf(b, "%lld of %lld candidates, fusion %s\n",
	    (long long)json_integer_value(json_object_get(json_object_get(pack, "stats"), "returned")),
	    (long long)json_integer_value(json_object_get(json_object_get(pack, "stats"), "candidates")),
	    fm ? fm : "none");
	add_cell(b, "rank", 4, 0, &bad);
	add_cell(b, "id", 20, 0, &bad);
	add_cell(b, "title", 24, 0, &bad);
	add_cell(b, "lanes", 11, 0, &bad);
	add_cell(b, "score", 8, 0, &bad);
	add_cell(b, "fts", 8, 0, &bad);
	add_cell(b, "vector", 8, 0, &bad);
	bad |= ev_buf_adds(b, "snippet\n");
	json_array_foreach(evs, i, e) {
		sig = json_object_get(e, "signals");
		prov = json_object_get(e, "provenance");
		snprintf(num, sizeof num, "%zu", i + 1);
		add_cell(b, num, 4, 0, &bad);
		add_cell(b, json_string_value(json_object_get(e, "id")), 20, 0, &bad);
		add_cell(b, json_is_string(json_object_get(e, "title")) ?
		    json_string_value(json_object_get(e, "title")) : "-", 24, 0, &bad);
		lanes_text((json_object_get(sig, "vector_score") ? LANE_VECTOR : 0) |
		    (json_object_get(sig, "fts_score") ? LANE_TEXT : 0), lanes, sizeof lanes);
		add_cell(b, lanes[0] ? lanes : json_string_value(json_object_get(prov, "mode")), 11, 0, &bad);
		{
			/* the fused score of whatever method ran, then each lane's */
			static const char *const keys[] = { "fused_score", "fts_score", "vector_score" };
			int k;
			for (k = 0; k < 3; k++) {
				json_t *v = json_object_get(sig, keys[k]);

				if (k == 0 && v == NULL)
					v = json_object_get(sig, "rrf_score");
				if (json_is_number(v))
					snprintf(num, sizeof num, "%.4g", json_number_value(v));
				else
					snprintf(num, sizeof num, "-");
				add_cell(b, num, 8, 0, &bad);
			}
		}
		add_cell(b, json_string_value(json_object_get(e, "snippet")), 60, 1, &bad);
		bad |= ev_buf_addc(b, '\n');
	}
	return bad ? -1 : 0;
}
