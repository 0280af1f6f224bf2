/* vsearch.h: the vector lane's work between reading query records and
 * writing hit records: queries checked and gathered into batches, each batch
 * searched in the index at once (Faiss's batched code; a query with filters
 * alone, among the chunks they allow), and the hits written as text, in
 * input order.
 *
 * Layer above vindex and snippet: includes err.h, store.h, vindex.h and
 * Jansson.  The command (ev-search-vec) reads the records, decides when a
 * batch is cut (full, or its input idle) and reports; this module does the
 * rest.  A batch is read in one transaction, and each chunk it hits is
 * read from the store once (up to EV_VSEARCH_ROWS_BYTES of chunks kept):
 * many queries of a batch hit the same chunks.
 *
 * A hit record is the query record's fields without its "vector" and the
 * fields a hit sets itself, then the chunk's fields (ev_hitfields_json()),
 * "rank", "score", "lane": "vector", "signals": {"vector_score",
 * "vector_rank"}, "evidence": [{"lane": "vector", "score"}] and, with
 * snippets, "snippet" (the chunk's passage holding most of the query's
 * "query" words, see snippet.h).
 *
 * Feedback (ev_vsearch_feedback()): another lane's first hits for a query
 * (the text lane's, say) are taken as relevant, and the query's vector is
 * moved toward theirs before searching: Rocchio's pseudo-relevance feedback
 * in the model's space.  Where the model reads a query poorly (words it
 * barely knows, a short query), the chunks the exact lane is surest of say
 * in the model's own terms what the query is about.  Such hits are of lane
 * "vector_feedback" (signals "vector_feedback_score", "vector_feedback_rank"),
 * and their evidence names the chunks folded in:
 * [{"lane": "vector_feedback", "score", "feedback": [chunk ids]}]. */
#ifndef EV_VSEARCH_H
#define EV_VSEARCH_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "err.h"
#include "plan.h"
#include "store.h"
#include "vindex.h"

#define EV_VSEARCH_BATCH_MAX 1024	/* queries searched together at most */
#define EV_VSEARCH_BATCH_CELLS 4000000	/* at most queries × k result cells at once */
#define EV_VSEARCH_ROWS_BYTES ((size_t)32 << 20)	/* a batch's chunks kept, read once (about) */
#define EV_VSEARCH_FEEDBACK_MAX EV_PLAN_MAX(EV_PLAN_VECTOR_FEEDBACK)	/* chunks folded into a query at most (1000) */
/* Stores of at least this many vectors ask for a query's hits' pages on a
 * second thread, while the first reads the rows (a smaller store asks on
 * the first, before it reads them). */
#define EV_VSEARCH_AHEAD_THREAD 100000

struct ev_vsearch_opts {
	int k;			/* hits per query, >= 1 */
	int snippet;		/* give each hit a snippet */
	int has_min_score;	/* drop hits scoring below min_score */
	int feedback;		/* with ev_vsearch_feedback(): chunks folded into a query,
				 * 0 to EV_VSEARCH_FEEDBACK_MAX */
	double feedback_weight;	/* ... and the weight of their mean beside the query, >= 0 */
	double min_score;
	/* A query whose filters are refused (a bad key or value): called with
	 * *err set (code 2, where the query's line); return non-zero to skip
	 * that query and go on (err is then cleared), 0 to stop the batch.
	 * NULL stops. */
	int (*skip)(void *ctx, struct ev_err *err);
	/* What a user should hear of, about the query at where ("the query
	 * vector is all zeros: no hits"); NULL says nothing. */
	void (*warn)(void *ctx, const char *where, const char *what);
	void *ctx;		/* of skip and warn */
};

struct ev_vsearch;

/* A searcher of index ix (opened on st; index_name, its path, names it in
 * messages) writing hits to out.  Batches hold at most
 * min(EV_VSEARCH_BATCH_MAX, EV_VSEARCH_BATCH_CELLS / k) queries.  st, ix
 * and out are borrowed.  Returns NULL with *err set. */
struct ev_vsearch *ev_vsearch_new(struct ev_store *st, struct ev_vindex *ix,
	const char *index_name, const struct ev_vsearch_opts *o, FILE *out, struct ev_err *err);

/* Fold every query's vector toward the stored vectors of the first
 * opts.feedback chunks (by rank; those without a vector of the index's model
 * are passed over) that the hit records in paths[0..npaths) hold for the same
 * query_id: q becomes q + feedback_weight × (their mean), scaled to unit
 * length.  A query with no such hits, or feedback 0, keeps its vector.  Call
 * before the first ev_vsearch_add(); the hits are then of lane
 * "vector_feedback".  Returns 0, or -1 with *err set (code 2 naming FILE:LINE
 * for a bad record, code 1 for a database error). */
int ev_vsearch_feedback(struct ev_vsearch *vs, char *const *paths, int npaths,
	struct ev_err *err);

/* Fold into x, a query vector of ev_vindex_dim(ix) floats at unit length
 * (or all zeros), the stored vectors of those of the chunks ids[0..n) that
 * have one of the index's model: x + weight × their mean, scaled to unit
 * length (left as it is when none has, or when the sum is all zeros).
 * found[i] (when found is not NULL) says whether ids[i] had a vector.
 * scratch holds 2 × dim floats.  Returns 1 when x then has a direction, 0
 * when it is all zeros (no hits to search for), or -1 with *err set (a
 * database error). */
int ev_vsearch_fold(struct ev_vindex *ix, float *x, const char *const *ids, int n, double weight,
	float *scratch, int *found, struct ev_err *err);

/* Check a query record and add it to the batch: it must be an object with a
 * "vector" of the index's dimension (finite numbers; scaled to unit length;
 * all zeros gives no hits and opts.warn when searched), an optional "model"
 * that must be the index's, "query" (text for the snippet), "filters" (see
 * qfilter.h) and "query_id" (a string or an integer; lineno
 * when absent).  The batch must not be full (ev_vsearch_full()).  Returns 0,
 * or -1 with *err set (code 2, where) and nothing added. */
int ev_vsearch_add(struct ev_vsearch *vs, const json_t *rec, size_t lineno, const char *where,
	struct ev_err *err);

/* ev_vsearch_add() of the JSON text line[0..len) (one record, not blank),
 * with the same checks and messages (those of a line that is not JSON
 * too), and faster: the vector's components are read from the text without
 * building them as JSON values. */
int ev_vsearch_add_line(struct ev_vsearch *vs, const char *line, size_t len, size_t lineno,
	const char *where, struct ev_err *err);

/* Whether the batch holds as many queries as it can. */
int ev_vsearch_full(const struct ev_vsearch *vs);

/* The queries a batch holds at most. */
int ev_vsearch_batch_max(const struct ev_vsearch *vs);

/* Search every query of the batch, write their hits in input order and
 * flush out; the batch is then empty (also on failure).  Returns 0, or -1
 * with *err set (a refused filter that opts.skip did not skip: code 2; a
 * write error: code 1, where "stdout"). */
int ev_vsearch_flush(struct ev_vsearch *vs, struct ev_err *err);

/* Hits written so far. */
long long ev_vsearch_hits(const struct ev_vsearch *vs);

/* Free the searcher and any queries not searched (NULL-safe). */
void ev_vsearch_free(struct ev_vsearch *vs);

#endif
