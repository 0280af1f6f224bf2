/* packexplain.h: what was in effect for a pack, and what was not -- the
 * filters the lanes applied in the EvidencePack's shape, the reranker that
 * ran, the signals the packer computes itself (rerank, recency, tags,
 * topics), and the reason for each signal a run could not give.
 *
 * Middle layer (part of the packer, pack.h): includes only Jansson (its .c
 * also clock.h); knows
 * the hit records' fields (evkit(7) "Hit") and nothing of the store. */
#ifndef EV_PACKEXPLAIN_H
#define EV_PACKEXPLAIN_H

#include <jansson.h>

/* The half-life of signals.recency_score, in days: a document published
 * that long before the pack scores 0.5, twice that long 0.25. */
#define EV_PACK_RECENCY_HALF_LIFE_DAYS 365

/* A query record's "filters" (the grammar of ev-search-text(1)) as
 * explain.filters_applied states them: "time_range" {"field":
 * "published_date", "from", "to"} (the ends given), "doc_ids", "source_type",
 * "language" as arrays, the metadata keys tag_ids or tags as "tag_ids",
 * topic_ids or topics as "topic_ids", authority_id as "authority_id" and
 * doc_type as "doc_type" (arrays), and every other metadata key under
 * "metadata" as given.  A new object (empty for NULL or a non-object), or
 * NULL when out of memory. */
json_t *ev_pack_filters_shape(const json_t *filters);

/* explain.rerank from the "rerank" object the reranked hits carry ({"model",
 * "config", "top_n"}; NULL: not reranked): always {"enabled", "model",
 * "top_n"} ("model" and "top_n" null when not reranked), with "config" when
 * it is an object.  NULL when out of memory. */
json_t *ev_pack_explain_rerank(const json_t *rerank);

/* The warnings a plan's rerank section earns against what ran (rerank as
 * above), appended to warn: a plan asking for reranking when the hits were
 * not reranked, a plan naming a model (rerank.model) other than the one
 * that reranked them.  Returns 0, or -1 when out of memory. */
int ev_pack_rerank_warnings(const json_t *plan, const json_t *rerank, json_t *warn);

/* What the evidences returned had, for the signals they lacked. */
struct ev_pack_sigseen {
	int query_tags, doc_tags;	/* a query named tags; a document carried some */
	int query_topics, doc_topics;
	int dated;		/* a document had a published_date */
	int found_text, found_vector;	/* the text, the vector lane found one */
	long long unsignalled;	/* fused hits (or hits of no lane) without a
				 * lane's or fusion's score: given fused_score */
	long long unstamped;	/* evidences no lane said it retrieved when
				 * (no retrieved_at): given the fallback time */
};

/* Add to sig the signals the packer computes for hit, when it can:
 * rerank_score (the reranker's score, hit explain.rerank.score),
 * recency_score (0.5 to the power of the document's age in whole days at
 * `now`, an RFC 3339 time, over EV_PACK_RECENCY_HALF_LIFE_DAYS, each the UTC
 * day of a date as ev_clock_date_days() reads it; 1 for a date not before
 * now), tag_score and topic_score (the fraction of the query's tag_ids or
 * topic_ids the document's metadata carries: tag_ids or tags; topic_ids,
 * topics or policy_topic_tags); and note in *seen what the hit had.
 * Returns 0, or -1 when out of memory. */
int ev_pack_more_signals(json_t *sig, const json_t *hit, const char *now,
	struct ev_pack_sigseen *seen);

/* For each signal of the EvidencePack format (vector_score, vector_rank,
 * fts_score, fts_rank, rrf_score, rerank_score, tag_score, topic_score,
 * recency_score) that no evidence of evs has, append "signals.NAME: why" to
 * ignored (nothing when evs is empty).  Returns 0, or -1 when out of
 * memory. */
int ev_pack_signals_ignored(json_t *ignored, const json_t *evs,
	const struct ev_pack_sigseen *seen, const char *fusion_method);

/* When seen counts evidences whose hits no lane stamped (unstamped: no
 * valid retrieved_at: hits written by hand or by an older evkit), append to
 * ignored "provenance.retrieved_at: N of M evidences ...; theirs is ..." --
 * when the request began (request_start: ev-pack --started) or when the
 * pack was made (generated_at).  nevs is the pack's evidences.  Returns 0,
 * or -1 when out of memory. */
int ev_pack_retrieved_ignored(json_t *ignored, size_t nevs, const struct ev_pack_sigseen *seen,
	int request_start);

#endif
