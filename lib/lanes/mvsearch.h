/* mvsearch.h: the late-interaction lane (ColBERT, ColPali): query records
 * carrying many vectors searched in a multi-vector index (mvindex.h) and
 * ranked by MaxSim, hits written as JSON Lines.
 *
 * Layer above mvindex: includes err.h, mvindex.h and Jansson (qfilter.h in
 * mvsearch.c, for a query's filters).
 *
 * MaxSim(q, d) = sum over the query's vectors q_i of max over the record's
 * vectors d_j of q_i . d_j.  A query is answered in two steps, as Vespa and
 * ColBERT do: candidates, the records of the token_k token vectors nearest
 * each query vector (Faiss), at most `candidates` of them kept by a bound
 * of their MaxSim; then every candidate's exact MaxSim over all its vectors,
 * read from the mapped data file.  The ranking is exact whenever the true
 * best records are among the candidates; with opts.exact every record is a
 * candidate (brute force).
 *
 * A query's "filters" (qfilter.h's grammar, the other lanes') keep the
 * records whose "doc_id" names a document of the store that passes them;
 * every such record is a candidate, scored exactly, so k hits come back
 * when that many records pass.  A record without a "doc_id" passes no
 * filter.
 *
 * A hit record is the query record's fields without its "vectors", then the
 * record's stored fields ("id" and whatever it was loaded with: "doc_id",
 * "page", "metadata", ...), "rank", "score" (the MaxSim), "lane" (the lane's
 * name, "visual" by default), "signals": {"LANE_score", "LANE_rank"} (the
 * names ev-fuse gives every lane) and "evidence": [{"lane", "maxsim",
 * "model", "query_vectors", "best_vectors"}], best_vectors[i] being the
 * number (from 0) of the record's vector that scored best with query vector
 * i: for a page, the patch that matched it.  A record of a page ("doc_id",
 * a string, and "page", an integer from 1) gets "content_ref":
 * "doc::DOC::page-N", and of a region of one (with "bbox": [x0, y0, x1, y1])
 * "doc::DOC::page-N::bbox-X0,Y0,X1,Y1", which ev-show resolves in the store
 * (show.h), unless it was loaded with a content_ref of its own.  Hits are
 * ranked by score, falling, equal scores in id order. */
#ifndef EV_MVSEARCH_H
#define EV_MVSEARCH_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "err.h"
#include "mvindex.h"

struct ev_store;

#define EV_MVSEARCH_QUERY_MAX 4096	/* vectors of one query */

struct ev_mvsearch_opts {
	int k;			/* hits per query, >= 1 */
	int candidates;		/* records scored exactly at most, >= 1 */
	int token_k;		/* token vectors found per query vector, >= 1 */
	int exact;		/* every record a candidate (no Faiss search) */
	const char *lane;	/* the lane's name in hits; NULL: the index's */
	struct ev_store *st;	/* the store the records' doc_id name, for a
				 * query's filters; NULL: filters are refused */
	/* What a user should hear of, about the query at where ("the query's
	 * vectors are all zeros: no hits"); NULL says nothing. */
	void (*warn)(void *ctx, const char *where, const char *what);
	void *ctx;		/* of warn */
};

struct ev_mvsearch;

/* A searcher of index ix (borrowed) writing hits to out.  Returns NULL with
 * *err set (out of memory, or a lane name that ev_plan_lane_check()
 * refuses). */
struct ev_mvsearch *ev_mvsearch_new(struct ev_mvindex *ix, const struct ev_mvsearch_opts *o,
	FILE *out, struct ev_err *err);

/* Answer one query record: an object with "vectors" (1 ..
 * EV_MVSEARCH_QUERY_MAX arrays of the index's dimension, finite numbers), an
 * optional "model" that must be the index's, "query_id" (a string or an
 * integer; lineno when absent) and any other fields, passed on to the hits.
 * "filters" (see above) needs o->st.  Writes its hits and flushes
 * out; a query whose vectors are all zeros has no direction, and no hits
 * (o->warn says so), as in the vector lane.  A query whose MaxSim with a candidate overflows a float (finite
 * numbers too large) is bad.  Returns the number of hits, or -1 with *err
 * set (code 2 and where for a bad query, nothing written; code 1 for a write
 * error, where "stdout"). */
int ev_mvsearch_query(struct ev_mvsearch *ms, const json_t *rec, size_t lineno,
	const char *where, struct ev_err *err);

/* Hits written so far. */
long long ev_mvsearch_hits(const struct ev_mvsearch *ms);

/* Records scored exactly so far (the cost of the queries). */
long long ev_mvsearch_scored(const struct ev_mvsearch *ms);

/* Free the searcher (NULL-safe). */
void ev_mvsearch_free(struct ev_mvsearch *ms);

/* MaxSim of the nq query vectors q (nq × dim floats, row-major) against
 * the n record vectors d (n × dim): the sum over i of max over j of q_i . d_j
 * (products in float by BLAS, the sum in double).  best (nq ints, or NULL)
 * gets each query vector's best j (the first of equal ones).  scratch holds
 * nq × (EV_MVSEARCH_BLOCK + 1) floats. */
#define EV_MVSEARCH_BLOCK 1024
double ev_mvsearch_maxsim(const float *q, int nq, const float *d, long long n, int dim,
	float *scratch, int32_t *best);

#endif
