/* fuse.h: fusing the ranked hit lists of several lanes (text, vector, ...)
 * into one list per query, with every fused hit able to explain itself.
 *
 * Middle layer: includes err.h, fuseopt.h (the options) and Jansson (for
 * ev_fuse_add() and ev_fuse_hits()).  fuse.c holds the accumulator,
 * fuserank.c the fusing, fusewrite.c the writing of fused hits and fusein.c
 * the reading of inputs in step; they read and write records as text, with
 * jscan.h's scanner, never building a tree on the command's path.  Knows nothing of
 * the store or of Faiss; it reads hit records (evkit(7)) and writes fused
 * hit records.
 *
 * The rule for a candidate that only some lanes found: a lane that did not
 * return a candidate contributes its floor to the fused score -- 0 for rrf
 * and for the normalisations none, max and minmax, and the lowest z-score
 * the lane gave in this query for zscore -- never a guess of where the
 * candidate would have ranked below the lane's cut-off.  A lane may be given
 * the floor "zero" instead (ev_fuse_opts.floors): what a raw score of 0
 * normalises to, when that is lower -- for a lane whose scores are never
 * negative (BM25), the score of a candidate holding nothing it looks for, so
 * that the candidates it did not return rank below those it did unless the
 * other lanes' evidence outweighs the difference.  Being found by a lane
 * therefore never costs a candidate anything, and a candidate found by one
 * lane only competes with the contribution of that lane alone.  Each fused
 * hit's "explain" says, lane by lane, what it got and why. */
#ifndef EV_FUSE_H
#define EV_FUSE_H

#include <jansson.h>

#include "err.h"
#include "fuseopt.h"

struct ev_buf;

/* One query's candidates being fused.  Hits are added one by one, then
 * ev_fuse_hits() fuses them; ev_fuse_begin() starts the next query, keeping
 * the memory.  Memory is bounded by one query's hits, plus the RRF
 * explanations kept from query to query (the account of a lane finding a
 * candidate at a rank is the same in every query: at most 32 lanes by name,
 * ranks below 1024, a few hundred bytes each). */
struct ev_fuse;

/* A new accumulator using a copy of *o.  Returns NULL with *err when out of
 * memory. */
struct ev_fuse *ev_fuse_new(const struct ev_fuse_opts *o, struct ev_err *err);

/* Forget the hits added so far and start the query whose id (as text) is
 * qid.  Returns 0, or -1 when out of memory. */
int ev_fuse_begin(struct ev_fuse *f, const char *qid, struct ev_err *err);

/* Add one hit record of the current query (written out and copied: the
 * caller keeps its reference).  The hit must have "id" (a non-empty
 * string), "lane" (a string other than "fused"), "rank" (an integer >= 1)
 * and "score" (a number); "signals" an object and "evidence" an array of
 * objects when present; "doc_id" a string, required when grouping by
 * document.  Returns 0, or -1 with *err set (code
 * 2, where = `where`) and the hit not added: for a bad field, or the same id
 * twice in one lane. */
int ev_fuse_add(struct ev_fuse *f, json_t *hit, const char *where, struct ev_err *err);

/* Add the hit record whose JSON text is line[0..len) (no newline), as
 * ev_fuse_add() does, without building a tree: the line is checked by the
 * strict scanner of jscan.h (a bad line gives the message ev_json_parse_line()
 * gives) and copied; its fields are passed through byte for byte.  Returns 0
 * or -1 with *err set (code 2, where = `where`). */
int ev_fuse_add_line(struct ev_fuse *f, const char *line, size_t len, const char *where,
	struct ev_err *err);

/* Whether any query fused so far had hits of lane. */
int ev_fuse_lane_seen(const struct ev_fuse *f, const char *lane);

/* The number of hits added since ev_fuse_begin(). */
long long ev_fuse_count(const struct ev_fuse *f);

/* Fuse the hits added: returns a new array of fused hit records (lane
 * "fused", rank from 1, score, signals of every lane plus "rrf_score" and,
 * for the other methods, "fused_score", evidence joined in
 * ev_fuse_lane_priority() order without duplicates (entries of the same text), the
 * snippet of the lane that contributed most, "explain", and every other
 * field of the lanes' hits passed through), best first, ties broken by the best lane rank, then by
 * id.  (The fused hits ev_fuse_write() writes, read back.)  Returns NULL with
 * *err set when out of memory. */
json_t *ev_fuse_hits(struct ev_fuse *f, struct ev_err *err);

/* Fuse the hits added, as ev_fuse_hits() does, appending the fused hit
 * records to out as JSON Lines (one line each, best first) and setting *nout
 * to their number.  Fields of the lanes' hits are spliced in as they were
 * read; the numbers fusion computes are written as Jansson writes reals with
 * 10 significant digits.  Returns 0, or -1 with *err set when out of memory. */
int ev_fuse_write(struct ev_fuse *f, struct ev_buf *out, long long *nout, struct ev_err *err);

/* Free f and the hits it holds (NULL-safe). */
void ev_fuse_free(struct ev_fuse *f);

/* Reading hit records grouped by query from several inputs in step.
 *
 * Each input is read as runs of consecutive records with the same query_id.
 * The next query fused is the one at the head of the first input that has
 * records left; every input whose current run is for that query contributes
 * it.  So two lane files grouped by query in the same order are read side by
 * side, and one stream whose lanes come interleaved per query is grouped as
 * it comes.  A query whose hits were already fused coming back later is bad
 * input (exit 2).  Memory is bounded by one query's hits (and the ids of the
 * queries done). */
struct ev_fuse_in;

/* Open paths[0..n-1] ("-" is stdin; n == 0 reads stdin).  Returns NULL with
 * *err set when out of memory or when stdin is named twice. */
struct ev_fuse_in *ev_fuse_in_open(char *const *paths, int n, struct ev_err *err);

/* Add the hits of the next query to f (ev_fuse_begin() is called).  Returns 1
 * when a query is ready to be fused, 0 at the end of every input, or -1 with
 * *err set: code 2 for a bad record, which is dropped (the next call goes on
 * after it, so that a caller offering --skip-invalid just calls again), code
 * 1 for an I/O error. */
int ev_fuse_in_next(struct ev_fuse_in *in, struct ev_fuse *f, struct ev_err *err);

/* Records read so far (good and bad). */
long long ev_fuse_in_records(const struct ev_fuse_in *in);

/* Close every input (NULL-safe). */
void ev_fuse_in_close(struct ev_fuse_in *in);

#endif
