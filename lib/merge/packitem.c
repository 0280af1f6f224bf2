/* packitem.c: one evidence of a pack.  See packitem.h. */
#include "packitem.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "evidence.h"
#include "jsoncopy.h"
#include "pack.h"
#include "packbadge.h"
#include "packsnip.h"
#include "packtext.h"

/* The evidence's source_type: the one the document declared when the
 * format has it, else from its source_uri (a URL, a file), else other. */
static const char *
source_type(json_t *hit, const char *uri)
{
	static const char *const known[] = { "url", "file", "manual", "memory_snapshot", "other", NULL };
	const char *t = json_string_value(json_object_get(hit, "source_type"));
	int i;

	if (t == NULL)
		t = json_string_value(json_object_get(json_object_get(hit, "metadata"), "source_type"));
	/* a type of the format as declared; another (markdown, pdf, ...) says
	 * how the document was read, not where it came from */
	for (i = 0; t != NULL && known[i]; i++)
		if (strcmp(t, known[i]) == 0)
			return t;
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

/* Whether v is a value a field carries: present, not null, not "". */
static int
carried(const json_t *v)
{
	return v != NULL && !json_is_null(v) && !(json_is_string(v) && json_string_length(v) == 0);
}

/* A hit's field k as the document gave it, of any JSON type, when it
 * carries one, else its metadata's (a chunk's section_path is "" where the
 * document has no headings, and the document's own is in its metadata);
 * NULL when neither does. */
static json_t *
given_field_or_meta(json_t *hit, const char *k)
{
	json_t *v = json_object_get(hit, k);

	if (carried(v))
		return v;
	v = json_object_get(json_object_get(hit, "metadata"), k);
	return carried(v) ? v : NULL;
}

/* The fields a caller cites a document by, into meta when the hit (or its
 * metadata) has them: document_id (its doc_id), authority_id, doc_type,
 * published_date, section_path, asset_type, asset_id, source_document_id,
 * and every policy_* field (policy_section_id, policy_clause_id,
 * policy_topic_tags, ...) as the document gave it, of any JSON type (its
 * metadata is free-form). */
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
		set_ref(bad, meta, keys[i], given_field_or_meta(hit, keys[i]));
	json_object_foreach(json_object_get(hit, "metadata"), k, v)
		if (strncmp(k, "policy_", 7) == 0)
			set_ref(bad, meta, k, v);
	json_object_foreach(hit, k, v)
		if (strncmp(k, "policy_", 7) == 0 && json_object_get(meta, k) == NULL)
			set_ref(bad, meta, k, v);
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

/* When the candidate was retrieved: the earliest time among its evidence
 * entries' "retrieved_at" (each lane stamps the entries it writes) and the
 * hit's own "retrieved_at" (a caller may stamp a hit so), or NULL when none
 * says.  An entry's "retrieved_at" that is not an RFC 3339 time is removed
 * (the pack's entries are valid); *bad set when out of memory. */
static const char *
earliest_retrieved(json_t *evidence, const json_t *hit, int *bad)
{
	const char *best = NULL, *t;
	long long best_ms = 0, ms;
	json_t *e;
	size_t i;

	t = json_string_value(json_object_get(hit, "retrieved_at"));
	if (t != NULL && ev_clock_parse(t, &ms) == 0) {
		best = t;
		best_ms = ms;
	}
	json_array_foreach(evidence, i, e) {
		json_t *v = json_object_get(e, "retrieved_at");

		if (v == NULL)
			continue;
		t = json_string_value(v);
		if (t == NULL || ev_clock_parse(t, &ms) == -1) {
			if (json_object_del(e, "retrieved_at") == -1)
				*bad = 1;
			continue;
		}
		if (best == NULL || ms < best_ms) {
			best = t;
			best_ms = ms;
		}
	}
	return best;
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

/* The reference of the stored text item it's snippet needs, into ref:
 * the chunk's text under policy l2 when its hit has none, the page's text
 * for a visual lane's page hit that came without a snippet.  Returns 1, or
 * 0 when it needs none. */
static int
stored_ref(const struct ev_pack *p, const struct item *it, char *ref, size_t size)
{
	json_t *hit = it->hit;
	const char *id = json_string_value(json_object_get(hit, "id"));
	const char *snip = json_string_value(json_object_get(hit, "snippet"));
	const char *doc = json_string_value(json_object_get(hit, "doc_id"));
	json_t *page = json_object_get(hit, "page");
	int n = -1;

	if (json_object_get(hit, "text") != NULL)
		return 0;
	if (p->o.snippet_policy == EV_PACK_SNIPPET_L2)
		n = snprintf(ref, size, "%s:%s", json_is_array(json_object_get(hit, "chunks")) ?
		    "doc" : "chunk", id);
	else if ((it->lanes & LANE_VISUAL) && (snip == NULL || *snip == '\0'))
		n = strncmp(id, "doc::", 5) == 0 ? snprintf(ref, size, "%s", id) :
		    doc != NULL && json_is_integer(page) ?
		    snprintf(ref, size, "doc::%s::page-%lld", doc, (long long)json_integer_value(page)) : -1;
	return n > 0 && (size_t)n < size;
}

/* Set e's snippet and snippet_policy (packsnip.h), with the stored text
 * the snippet needs when the packer has a store; *bad set when out of
 * memory.  Returns 0, or -1 with *err set when the store could not give
 * the text (a damaged store, or out of memory: a snippet without it would
 * be another than the policy's, without a word). */
static int
set_snippet(const struct ev_pack *p, const struct item *it, json_t *e, int *bad,
	struct ev_err *err)
{
	struct ev_buf stored = EV_BUF_INIT, out = EV_BUF_INIT;
	char ref[1024];
	const char *word;
	int have = 0;

	if (p->tfn != NULL && stored_ref(p, it, ref, sizeof ref) &&
	    (have = p->tfn(p->tctx, ref, &stored, err)) == -1) {
		ev_buf_release(&stored);
		return -1;
	}
	have = have == 1 && stored.p != NULL;
	word = ev_pack_snippet(p->o.snippet_policy, it->hit, have ? stored.p : NULL,
	    p->o.max_snippet_chars, &out);
	if (word == NULL)
		*bad = 1;
	else {
		set_new(bad, e, "snippet", json_stringn(out.p, out.len));
		set_new(bad, e, "snippet_policy", json_string(word));
	}
	ev_buf_release(&stored);
	ev_buf_release(&out);
	return 0;
}

/* The signals of item it: the numbers the lanes gave; a single-lane hit
 * names its own score and rank (LANE_score, LANE_rank; fts_* for text); a
 * fused hit, or one naming no lane, that brought no lane's or fusion's
 * score gets fused_score, the score it came with (noted in x->seen); then
 * mmr_score and those ev_pack_more_signals() computes.  NULL (and *bad set)
 * when out of memory. */
static json_t *
item_signals(const struct item *it, const struct ev_pack_extra *x, const char *now, int *bad)
{
	json_t *hit = it->hit, *sig = json_object(), *v;
	const char *lane = json_string_value(json_object_get(hit, "lane")), *key;

	if (sig == NULL) {
		*bad = 1;
		return NULL;
	}
	json_object_foreach(json_object_get(hit, "signals"), key, v)
		if (json_is_number(v))
			set_ref(bad, sig, key, v);
	if (lane != NULL && strcmp(lane, "fused") != 0) {
		char sn[64], rn[64];
		const char *pre = strcmp(lane, "text") == 0 ? "fts" : lane;
		snprintf(sn, sizeof sn, "%s_score", pre);
		snprintf(rn, sizeof rn, "%s_rank", pre);
		if (json_object_get(sig, sn) == NULL)
			set_ref(bad, sig, sn, json_object_get(hit, "score"));
		if (json_object_get(sig, rn) == NULL && json_is_integer(json_object_get(hit, "rank")))
			set_ref(bad, sig, rn, json_object_get(hit, "rank"));
	}
	x->seen->found_text |= (it->lanes & LANE_TEXT) != 0;
	x->seen->found_vector |= (it->lanes & LANE_VECTOR) != 0;
	if (ev_pack_ranking_score(sig) == NULL) {
		set_ref(bad, sig, "fused_score", json_object_get(hit, "score"));
		x->seen->unsignalled++;
	}
	if (x->mmr)
		set_new(bad, sig, "mmr_score", json_real(it->mmr));
	if (ev_pack_more_signals(sig, hit, now, x->seen) == -1)
		*bad = 1;
	return sig;
}

json_t *
ev_pack_evidence_item(const struct ev_pack *p, const struct item *it,
    const struct ev_pack_extra *x, const char *now, int *no_uri, struct ev_err *err)
{
	json_t *hit = it->hit, *e, *meta, *raw, *v, *evidence;
	const char *id = json_string_value(json_object_get(hit, "id"));
	const char *uri = json_string_value(json_object_get(hit, "source_uri"));
	const char *lang, *qt, *stype, *when;
	int is_doc = json_is_array(json_object_get(hit, "chunks"));	/* ev-fuse --group doc */
	int bad = 0;
	char ref[1024];

	if (uri == NULL) {
		uri = "";
		(*no_uri)++;
	}
	if ((e = json_object()) == NULL) {
		json_decref(x->provenances);
		ev_err_nomem(err);
		return NULL;
	}
	set_new(&bad, e, "id", json_string(id));
	stype = source_type(hit, uri);
	set_new(&bad, e, "kind", json_string(strcmp(stype, "memory_snapshot") == 0 ? "memory_chunk" :
	    is_doc ? "resource_doc" : "resource_section"));
	set_if(&bad, e, "document_id", str_or_null(json_object_get(hit, "doc_id")));
	set_if(&bad, e, "section_id", str_or_null(json_object_get(hit, "section_id")));
	set_if(&bad, e, "title", str_or_null(json_object_get(hit, "title")));
	set_new(&bad, e, "source_uri", json_string(uri));
	set_new(&bad, e, "source_type", json_string(stype));
	if (set_snippet(p, it, e, &bad, err) == -1) {
		json_decref(x->provenances);
		json_decref(e);
		return NULL;
	}
	if ((lang = language(hit)) != NULL)
		set_new(&bad, e, "language", json_string(lang));

	set_new(&bad, e, "signals", item_signals(it, x, now, &bad));

	evidence = item_evidence(p, it);
	if (evidence == NULL)
		bad = 1;
	when = earliest_retrieved(evidence, hit, &bad);
	if (when == NULL) {
		when = x->retrieved_at;	/* no lane said: explain.ignored_fields says so */
		x->seen->unstamped++;
	}
	v = json_pack("{s:s,s:I,s:s}", "mode", ev_pack_mode(it->lanes),
	    "query_index", (json_int_t)x->query_index, "retrieved_at", when);
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

	set_new(&bad, e, "badges", ev_pack_badges(evidence, x->cv, x->best_id, &bad));
	set_new(&bad, e, "evidence", evidence);
	set_new(&bad, e, "countervailing", json_boolean(x->cv != NULL));
	if (x->group != NULL)
		set_new(&bad, e, "group", json_string(x->group));
	set_ref(&bad, e, "routing", x->routing);
	if (bad) {
		json_decref(e);
		ev_err_nomem(err);
		return NULL;
	}
	return e;
}

static int
cmp_provs(const void *a, const void *b)
{
	const struct prov *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return (x->q > y->q) - (x->q < y->q);
}

/* The provenances of a candidate found by several queries of the request:
 * one entry per query, best first. */
json_t *
ev_pack_provenances(const struct ev_pack *p, struct item *it, int *bad)
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
		    "query_id", q->id, "mode", ev_pack_mode(pv[i].lanes), "score", pv[i].score);
		if (o != NULL && said_in_provenance(q->text))
			set_new(bad, o, "query_text", json_string(q->text));
		if (o != NULL && pv[i].rank > 0)
			set_new(bad, o, "rank", json_integer(pv[i].rank));
		append_new(bad, a, o);
	}
	return a;
}
