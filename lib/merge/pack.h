/* pack.h: EvidencePack v0.1 (schema/evidencepack-0.1.schema.json): one
 * request's hits (one query's, or those of several queries sharing a
 * request_id) turned into the evidence a caller assembles its context from,
 * with the plan that produced it, statistics and an explanation.
 *
 * Middle layer: includes err.h, buf.h, note.h, packopts.h (the options),
 * packtext.h (the text report) and Jansson.  The packer is one module in
 * several files, one concern each: pack.c adds hits, packselect.c chooses
 * among them, packitem.c and packbadge.c write each evidence, packbuild.c
 * the pack (ev_pack_build()); packstate.h is what they share.  Knows
 * nothing of the store or of Faiss (vectors for MMR come through a function
 * the caller gives); it reads fused hit records (or single-lane hits) and
 * knows how ev-fuse explains them.  Retrieval was
 * permissive; presentation is strict: the minimum score, maximal marginal
 * relevance, the limit per document and the suppression of near-duplicates
 * act here, then each evidence gets its relevance badges, its
 * countervailing flag and its group. */
#ifndef EV_PACK_H
#define EV_PACK_H

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "note.h"
#include "packopts.h"
#include "packtext.h"

#define EV_PACK_VERSION "0.1"

/* The current time as RFC 3339 UTC ("2026-02-20T12:00:00Z") into buf (at
 * least 32 bytes).  A testing aid: the environment variable EV_FIXED_TIME,
 * when it holds an RFC 3339 time (ev_pack_time_ok()), is used instead, as
 * written (clock.h: the lanes' stamps read it too).  Returns 1 when the clock was
 * fixed that way, else 0. */
int ev_pack_now(char *buf, size_t size);

/* The time epoch_ms (Unix time in milliseconds) as RFC 3339 UTC
 * ("2026-02-20T12:00:00Z") into buf (at least 32 bytes); the fixed time
 * when EV_FIXED_TIME fixes the clock (see ev_pack_now()). */
void ev_pack_time_of(long long epoch_ms, char *buf, size_t size);

/* Whether s is an RFC 3339 time (clock.h, ev_clock_parse()): the form
 * ev_pack_now() writes, and the lanes' "retrieved_at" with milliseconds. */
int ev_pack_time_ok(const char *s);

/* One query's hits being packed.  Memory is bounded by one query's hits. */
struct ev_pack;

/* A new packer.  plan (borrowed; NULL for none) is the plan as loaded,
 * ignored its unsupported keys (borrowed), plan_id the run's plan id.
 * Returns NULL with *err set when out of memory. */
struct ev_pack *ev_pack_new(const struct ev_pack_opts *o, const json_t *plan,
	const json_t *ignored, const char *plan_id, struct ev_err *err);

/* Forget the hits added and start a new query.  Returns 0 or -1. */
int ev_pack_begin(struct ev_pack *p, struct ev_err *err);

/* Add a hit of the current query (a new reference is taken).  It must have
 * "id" (a non-empty string) and "score" (a finite number); "rank" an integer
 * >= 1, "lane", "snippet", "doc_id", "query" strings, "signals" and "rerank"
 * and "routing" objects, "warnings" an array of strings and "query_index" a
 * whole number when present.  A hit whose id the same query gave already,
 * from another lane, is merged into it: the higher score wins, the lanes
 * that found either are kept; from the same "lane" (or none named) it is
 * refused, naming where the first was read.  One that another query of the request found is kept once, at the
 * better score, and remembers every query that found it.  The first
 * "rerank" object seen is the pack's explain.rerank; every "warnings"
 * string goes into the pack's warnings (once).  Returns 0, or -1 with *err
 * set (code 2, where = `where`). */
int ev_pack_add(struct ev_pack *p, json_t *hit, const char *where, struct ev_err *err);

/* What ev_pack_scan_line() found of the line's request. */
struct ev_pack_line {
	const char *query_id;	/* its text (valid until the next scan) */
	int query_id_int;	/* the query_id is an integer */
	const char *request_id;	/* NULL: none (valid until the next scan) */
	long long query_index;	/* -1: none */
};

/* The fast way in, for hits read as lines: ev_pack_scan_line() checks that
 * line[0..len) is one JSON object (with Jansson's strictness and messages)
 * with a "query_id" (a string or an integer), a "request_id" (a string)
 * and a "query_index" (a whole number from 0) where present, and fills *li;
 * ev_pack_add_line() then adds that hit to the current query, as
 * ev_pack_add() would.  The line is kept as it is and parsed only if
 * presentation looks at it (most candidates are never returned).  Each
 * returns 0, or -1 with *err set (code 2, where = `where`). */
int ev_pack_scan_line(struct ev_pack *p, const char *line, size_t len, const char *where,
	struct ev_pack_line *li, struct ev_err *err);
int ev_pack_add_line(struct ev_pack *p, const char *where, struct ev_err *err);

/* Name the query whose hits come next, within the request begun by
 * ev_pack_begin() (a request holds one query or several: rewrites,
 * sub-questions, packed together).  query_id (borrowed; a string or an
 * integer) identifies it; query (its text) and routing (borrowed; an object,
 * or NULL) are kept when given; query_index is its index in the request, or
 * -1 for its position among the request's queries.  A query named again is
 * selected again (its text and routing kept when it had none).  Without
 * this call, the first hit added names the query (its "query_id",
 * "query", "query_index").  Returns 0, or -1 with *err set (code 2 at where
 * when another query of the request has that query_index; out of memory). */
int ev_pack_query(struct ev_pack *p, const json_t *query_id, const char *query,
	long long query_index, const json_t *routing, const char *where, struct ev_err *err);

/* The filters of the query named last by ev_pack_query(), from its record
 * (borrowed; an object, else nothing is kept): the filters the lanes applied
 * to it (they refuse any they cannot apply), said by explain.filters_applied
 * even when no lane found anything for it.  Its hits' filters are then
 * passed over, as a query's are once its first hit gave them. */
void ev_pack_query_filters(struct ev_pack *p, const json_t *filters);

/* The request_id of the request begun (copied), when the caller knows it
 * (a queries file); else the first a hit gives is taken.  Returns 0, or -1
 * with *err set (out of memory). */
int ev_pack_request(struct ev_pack *p, const char *request_id, struct ev_err *err);

/* Vectors for MMR: fn(ctx, chunk_id, out, err) writes the chunk's vector of
 * dim floats into out and returns 1, 0 when the chunk has none, -1 with *err
 * set.  Without it (or for chunks without a vector), MMR measures similarity
 * by word overlap. */
typedef int (*ev_pack_vector_fn)(void *ctx, const char *chunk_id, float *out,
	struct ev_err *err);
void ev_pack_set_vectors(struct ev_pack *p, ev_pack_vector_fn fn, void *ctx, int dim);

/* Stored text for the items' snippets: fn(ctx, ref, out, err) appends to
 * out the text the store holds for ref ("chunk:ID" for a chunk's text under
 * output.snippet_policy l2, "doc::DOC::page-N" for the page of a visual
 * lane's hit, which comes without text) and returns 1, 0 when the store has
 * none, -1 with *err set (a damaged store, out of memory), which the pack
 * then fails with.  Without it, only the hits' own texts are used. */
typedef int (*ev_pack_text_fn)(void *ctx, const char *ref, struct ev_buf *out,
	struct ev_err *err);
void ev_pack_set_texts(struct ev_pack *p, ev_pack_text_fn fn, void *ctx);

/* Where the packer's notes for the user go (note.h): that a hit's metadata
 * held a page or page_end that is not a whole number (the document's own
 * metadata, free-form), left out of the pack's metadata; said once a run,
 * naming the first such hit.  Without it, nothing is said. */
void ev_pack_set_note(struct ev_pack *p, ev_note_fn *fn, void *ctx);

/* The request began at epoch_ms (Unix time in milliseconds, > 0), before
 * its lanes retrieved its hits (scripts/ev-hybrid passes it on): every pack
 * built from now on counts stats.took_ms from then (stats.took_ms_scope
 * "request", else "ev-pack": the packing alone), and gives that time as
 * provenance.retrieved_at of a hit that does not say when it was retrieved
 * (its "retrieved_at"). */
void ev_pack_set_request_start(struct ev_pack *p, long long epoch_ms);

/* Hits added since ev_pack_begin() (ids merged count once). */
long long ev_pack_count(const struct ev_pack *p);

/* Add msg to the warnings of every pack built from now on (a lane that was
 * unavailable, ...).  Returns 0, or -1 with *err set (out of memory). */
int ev_pack_warn(struct ev_pack *p, const char *msg, struct ev_err *err);

/* Build the EvidencePack of the hits added: in their order for a request of
 * one query, best score first for several.  query_id (borrowed: a string or
 * an integer) and query name a request of one query; NULL takes them from
 * ev_pack_query() or the first hit ("query_id", "query").  The pack carries
 * them (of its first query, for several) as top-level "query_id" and
 * "query" (when known).  query_index is the query's index within its
 * request when nothing else gave one, generated_at an RFC 3339 time,
 * took_ms the time spent.  Presentation (minimum score, MMR, near
 * duplicates, the limit per document, k), then the countervailing
 * evidences, badges and groups (see man/ev-pack.1).  No hit at all gives a
 * pack with no evidence and a warning saying so.  Returns a new object, or
 * NULL with *err set (out of memory, no random bytes for a request id, or
 * the vector function's error). */
json_t *ev_pack_build(struct ev_pack *p, const json_t *query_id, const char *query,
	long long query_index, const char *generated_at, double took_ms, struct ev_err *err);

/* Free p (NULL-safe). */
void ev_pack_free(struct ev_pack *p);

#endif
