/* textsearch.h: the text lane: BM25 over the store's FTS5 index, with field
 * weights, proximity, pseudo-relevance feedback (RM3), typo repair, filters
 * and snippets.  ev-search-text(1) states every rule a user meets (query
 * analysis, typo repair, feedback, the filter grammar, pruning, the postings
 * file); this header states what a caller may rely on.
 *
 * High layer: includes err.h, note.h, store.h, textopts.h (the options) and
 * Jansson.  Implemented by textsearch.c (the searcher and a query's
 * course) over its private textstate.h, with textquery.c (a query's words
 * and the MATCH expression), texttypo.c (typo repair), textpass.c (a pass:
 * pruning and the postings sweep), textfeedback.c (pseudo-relevance
 * feedback) and texthit.c (a hit record); editdist.h measures typos and
 * qfilter.h compiles the filters.
 *
 * Contract:
 *   - A query's text is always text (unless raw_fts): it is tokenised with
 *     the one tokeniser (token.h), and FTS5's syntax in it (quotes, '*', ':',
 *     AND, OR, NOT, NEAR, ...) is searched for as words, never an FTS5 error.
 *   - Scores are BM25 as FTS5's bm25() computes it, with the options' k1
 *     and b (those NAN set from the chunk lengths: textopts.h) and each phrase's weight (ev_bm25(), bm25.h), signed so that a
 *     higher score is better (mixed with the document's, below).
 *   - Pruning (unless exhaustive) and the postings file (postings.h, read
 *     only when it was made from the index as it is) change the work, never
 *     the result: the hits, their ranks and scores are exactly those of
 *     ranking every chunk through FTS5.
 *   - A query record's "filters" are applied inside the search, so that k
 *     hits still come back; an unknown filter key or a value of the wrong
 *     shape is bad input (an ev_err, exit 2), never silently ignored.
 *   - A query of more than long_query searched words is read as a
 *     document: no feedback, no proximity pairs, each word weighing
 *     1 + ln(its occurrences in the query), and each of its hits carries
 *     the signal "query_as_document": true.
 *   - A hit's score mixes its chunk's BM25 with its document's as a whole
 *     (doc_weight; by default for a query read as a document only): its
 *     chunk's stays in signals.fts_score and fts_rank, the document's is
 *     signals.doc_score, and the hits are those of the chunk ranking,
 *     ordered again (textstate.h, ev_textdoc_rescore()). */
#ifndef EV_TEXTSEARCH_H
#define EV_TEXTSEARCH_H

#include <jansson.h>

#include "err.h"
#include "note.h"
#include "store.h"
#include "textopts.h"

/* What ev_textsearch_query() noticed, for the command to warn about. */
enum {
	EV_TS_NO_TERMS = 1,	/* the query had no searchable words (no hits) */
	EV_TS_TRUNCATED = 2,	/* only its first 1000 distinct words were searched */
	EV_TS_NO_DICT = 4	/* a word was checked against a language without a word
				 * list (ev_textsearch_no_dict() says which) */
};

struct ev_textsearch;
struct ev_textstats;

/* A searcher over st (borrowed; it must outlive the searcher) with a copy of
 * *opts.  Returns NULL with *err set. */
struct ev_textsearch *ev_textsearch_open(struct ev_store *st, const struct ev_textsearch_opts *opts,
	struct ev_err *err);

/* Search for one query record q (an object with "query_id" and "query", as
 * from ev_query_record(); "filters" optional) and append its hits, best
 * first, to the array hits as hit records (evkit(7) "Hit", lane "text"):
 * query_id, query, id, doc_id, rank, score (-bm25), lane, signals
 * {fts_score, fts_rank, fts_norm = score / max(best score, 1)}, snippet,
 * evidence [{lane, snippet, matched_terms, fuzzy? [{term, expansion, word,
 * distance}], feedback_terms?, regions?}], the chunk's section_id, title, section_title, section_path,
 * source_uri, chunk_index, offset_start, offset_end, content_hash, the
 * document's metadata when it has any, and every other field of q except
 * "filters" and "vector".  A chunk of a paged document (region.h) has "page"
 * (and "page_end" when it crosses a page break) in the hit's metadata, and
 * "regions" in its evidence: [{"page", "bbox"}] of each line holding a
 * matched query word (not a feedback term), in text order; none when only
 * its titles matched.  *flags gets
 * EV_TS_* bits.  Returns the number of hits, or -1 with *err set: code 2
 * naming `where` for a bad filter or (raw_fts) a bad FTS5 expression, 1 for
 * a database failure. */
int ev_textsearch_query(struct ev_textsearch *ts, json_t *q, const char *where, json_t *hits,
	int *flags, struct ev_err *err);

/* Tell ts whether the next ev_textsearch_query() is the last before
 * ev_textsearch_close() (last 1; 0 when not known): its last pass then
 * gives back the sweeper's pages while its hits are read, not after.  The
 * hits are the same either way. */
void ev_textsearch_last_query(struct ev_textsearch *ts, int last);

/* The languages (EV_LEX_BIT() of lexicon.h) found so far to have no word
 * list on this machine: their real words missing from the index may be
 * taken for typos. */
unsigned ev_textsearch_no_dict(const struct ev_textsearch *ts);

/* Global statistics (textstats.h), for a collection split into shards (stores
 * holding disjoint documents): each shard's are made with the two functions
 * below, summed, and given back to every shard as opts.stats, and then each
 * shard scores as one store holding every shard would: BM25's IDF and
 * average length, typo repair's vocabulary and languages, and feedback
 * terms' weights come from the sum (feedback's first pass still reads only
 * the shard's own best chunks).  A pair of words side by side (proximity)
 * is counted only for the queries the statistics were made from; a query
 * with a pair they lack is refused (code 2).  raw_fts is refused. */

/* Add the store's totals, vocabulary and languages to out.  Returns 0, or -1
 * with *err set (code 1). */
int ev_textsearch_stats_store(struct ev_textsearch *ts, struct ev_textstats *out, struct ev_err *err);

/* Add to out the rows of the store holding each pair of consecutive words of
 * the query record q (as ev_textsearch_query() makes them), unless out has
 * the pair already.  Returns 0, or -1 with *err set (code 2 naming `where`
 * for a bad record, 1 for a database failure). */
int ev_textsearch_stats_query(struct ev_textsearch *ts, json_t *q, const char *where,
	struct ev_textstats *out, struct ev_err *err);
/* The phrases (words, pairs, feedback terms, expansions) the last pass of
 * the last query left out of its candidates (dynamic pruning; 0: none). */
int ev_textsearch_pruned(const struct ev_textsearch *ts);

/* Whether the last pass of the last query was swept through the store's
 * postings file (above): 1 or 0. */
int ev_textsearch_swept(const struct ev_textsearch *ts);

/* What makes the searcher of the store db slower than it could be, and
 * what to run, through note(ctx, ...): a postings file that is stale or
 * damaged (the searcher ranks through FTS5 then); a large store that keeps
 * no totals of its chunks (lenstats.h) for its index as it is, which each
 * search then counts.  Nothing when neither. */
void ev_textsearch_advise(const struct ev_textsearch *ts, const char *db, ev_note_fn *note,
	void *ctx);

/* Free the searcher (NULL-safe). */
void ev_textsearch_close(struct ev_textsearch *ts);

#endif
