/* evidence.h: a candidate's evidence array, the attribution of an
 * EvidencePack item -- which lanes found it, at what rank and score, with
 * what snippet, words, boxes, distances or rows.
 *
 * Middle layer (below pack): includes only Jansson; knows the hit records'
 * shape (evkit(7) "Hit") and nothing of the store.
 *
 * An entry is an object with at least "lane" (a string).  The lanes write
 * their own fields (the text lane "snippet", "matched_terms", "fuzzy",
 * "regions"; the expansion lanes "from", "distance", "hops"; the structured
 * lane "table", "row"; ...); each entry of a hit is given its lane's "rank"
 * and "score" from the hit's signals (LANE_rank and LANE_score, fts_* for
 * the text lane) or, for a hit of that lane alone, from the hit's own rank
 * and score, when the entry has none.  A hit without evidence has one entry
 * per lane that found it: its own lane, else the lanes its fusion
 * explanation says found it, else those its signals name (fts_score: text,
 * vector_score: vector).  Entries of one candidate are merged without
 * duplicates (equal objects count once) and ordered by lane, the lanes
 * that read the query most directly first: vector, vector_feedback, text, region, visual, timeline, then
 * the other lanes in the order they came. */
#ifndef EV_EVIDENCE_H
#define EV_EVIDENCE_H

#include <jansson.h>

/* The evidence entries of hit (borrowed), as a new array of new objects
 * (the hit's own entries are never changed): each with "rank" and "score"
 * where its lane's are known, and "query_index" set to query_index when
 * that is >= 0 (a candidate that several queries of a request found).
 * Entries that are not objects with a string "lane" are left out.  NULL
 * when out of memory. */
json_t *ev_evidence_of_hit(const json_t *hit, long long query_index);

/* Append to the array into each entry of `entries` that into does not hold
 * yet (by json_equal()).  Returns 0, or -1 when out of memory. */
int ev_evidence_merge(json_t *into, const json_t *entries);

/* Give every entry of the array `entries` that has no "query_index" this
 * one.  Returns 0, or -1 when out of memory. */
int ev_evidence_tag_query(json_t *entries, long long query_index);

/* Order the array `entries` in place, stably, by the lanes' order above.
 * Returns 0, or -1 when out of memory. */
int ev_evidence_order(json_t *entries);

/* The place of lane in that order: 0 vector, 1 vector_feedback, 2 text,
 * 3 region, 4 visual, 5 timeline, 6 any other. */
int ev_evidence_lane_order(const char *lane);

#endif
