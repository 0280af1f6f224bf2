/* textsearch.h: the text lane: BM25 over the store's FTS5 index, with field
 * weights, safe query handling, typo tolerance, filters and snippets.
 *
 * High layer: includes err.h, buf.h, store.h, token.h, snippet.h, bm25.h,
 * region.h, textstats.h and Jansson.
 *
 * A query's text is always text: it is tokenised with the one tokeniser
 * (token.h), stop words are dropped, and each remaining word becomes an FTS5
 * string, so quotes, parentheses, '*', ':', '^', '-' and the words AND, OR,
 * NOT and NEAR are searched for as what they are and never make an FTS5
 * error.  Words are OR-ed (ranked by BM25) or, with all_terms, AND-ed.  With
 * raw_fts the text is handed to FTS5 as an expression instead.
 *
 * The function words of the query's language are dropped too when it is
 * French, German, Spanish, Italian, Portuguese or Dutch (lexicon.h): the
 * query record's "language", else the language of every chunk of the store
 * when they share one, else the one the query's function words show
 * (langid.h); unless they are all the query has.
 *
 * Each word is searched for every language of the store's chunks (or the
 * query record's own "language"): its stems in each, OR-ed (token.h).  A
 * word of a script written without spaces (Chinese, Japanese, Thai, ...)
 * is never taken for a typo.
 *
 * With drop_request_words, the words that say what the asker wants rather
 * than what about (paper(s), article(s), document(s), literature,
 * reference(s), information, available, find, anything, discuss(ed), known,
 * exist(ing), by their stems) are dropped too, unless they are all the
 * query has: "find papers on heat transfer" searches for "heat transfer".
 *
 * Typo tolerance: a word whose stem is not in the vocabulary (chunks_vocab)
 * and that is not a real word (lexicon.h: the word lists of English and of
 * every language the store's documents declare in "language", opened only
 * then) is expanded to the vocabulary's stems within an edit distance (optimal
 * string alignment: insertions, deletions, substitutions and transpositions
 * of characters) of at most min(fuzzy, 1) for stems of 4 to 7 characters and
 * fuzzy for longer ones; shorter stems are never expanded.  The closest stems
 * are taken first, then the most frequent (by documents), at most
 * fuzzy_expansions of them.  An expansion weighs its word's weight times
 * 1 - 0.1 x its distance.  The vocabulary is read once, when first needed.
 * An expansion is searched for as a word of the indexed text with that stem
 * (found through a TEMP fts5vocab 'instance' table), because FTS5 stems a
 * query string again and Porter does not give every stem back unchanged.
 * Typos are compared as stems: one that changes the ending the stemmer
 * removes may go unrepaired.
 *
 * Ranking: BM25 as FTS5's bm25() computes it, through ev_bm25() (bm25.h),
 * with the options' k1 and b (bm25() fixes 1.2 and 0.75), which also weighs
 * each searched phrase:
 *   - proximity: each pair of consecutive query words (after stop words and
 *     request words are dropped) is searched as a phrase too, with weight
 *     `proximity` (0 turns it off), so "boundary layer" side by side counts
 *     more than the two words apart (the sequential dependence idea of
 *     Metzler and Croft, reduced to ordered, adjacent pairs);
 *   - pseudo-relevance feedback (feedback_docs > 0, not with all_terms or
 *     raw_fts), RM3 in the manner of Lavrenko and Croft, as Anserini does it:
 *     a first pass takes the best feedback_docs chunks; each of their words
 *     (title and text; stop words, and the function words of the chunk's
 *     language, declared by its document or guessed from its function words
 *     (lexicon.h), left out) gets the sum over the chunks of
 *     (its count / the chunk's tokens) x (the chunk's score / the best
 *     score) ^ feedback_focus (0: the chunks weigh alike; 1: in proportion
 *     to their scores, as Anserini's RM3; more: the best chunks count more
 *     than their scores alone say); the feedback_terms heaviest (ties by stem) share
 *     feedback_weight of the query, the user's words the rest, in proportion
 *     (a user's word among them gets both shares), and a second pass
 *     searches them all.  Weights are scaled so that a user's word without
 *     feedback weighs 1.  The hit's evidence lists the feedback terms its
 *     chunk holds ("feedback_terms"), and the snippet marks them too.
 *
 * Dynamic pruning (unless exhaustive): a pass that wants the best `limit`
 * chunks does not rank every chunk holding a query word.  Each phrase's
 * contribution to a chunk's score is at most weight x IDF x (k1 + 1); a first
 * pass over the chunks of the rarest phrases finds `limit` chunks scoring at
 * least theta; the phrases of lowest bounds that together stay below theta
 * cannot by themselves put a chunk among the best, so candidates are taken
 * only from the chunks of the other phrases, and scored by every phrase (the
 * MaxScore idea of Turtle and Flood).  The hits, their ranks and scores are
 * exactly those of the exhaustive ranking; only the work differs.
 *
 * The postings file (postings.h): when the store has one made from its
 * index as it is (ev-ingest makes it for stores of 50,000 chunks and more),
 * a pass is swept instead, unless it is filtered, all_terms, raw_fts or
 * exhaustive, or a phrase has more positions or alternatives than a sweep
 * takes: the phrases' posting lists are read from the mapped file, pruned
 * by MaxScore, and the best chunks scored as ev_bm25() scores them (bm25.h,
 * ev_bm25_sweep()).  FTS5 is then only asked for the hits' chunks.  The
 * hits, their ranks and scores are exactly FTS5's; a stale file is never
 * read.  The chunks' languages (the query languages) and the vocabulary
 * (typo tolerance) come from the file too, so that a search does not scan
 * every chunk or every term.
 *
 * Filters (a query record's "filters" object), applied inside the SQL query so
 * that k hits still come back:
 *   "doc_id": "D"             the chunks of document D
 *   "doc_ids": ["D", ...]     the chunks of any of these documents
 *   "metadata": {"K": V, ...} documents whose metadata has K equal to V (a
 *                             string, number, true, false or null; an array
 *                             of them means any of them), for every K
 *   "published_date": {"from": "2020-01", "to": "2021-06-30"}
 *                             documents published in the range, both ends
 *                             included and optional; dates are ISO 8601
 *                             (YYYY, YYYY-MM, YYYY-MM-DD, then anything) and
 *                             compared as text, "to" by its length, so that
 *                             "2021" includes all of 2021
 *   "source_type": "T" | [..] and "language": "L" | [..]  likewise, exact
 * Any other key is bad input (exit 2): a filter is never silently ignored. */
#ifndef EV_TEXTSEARCH_H
#define EV_TEXTSEARCH_H

#include <jansson.h>

#include "err.h"
#include "snippet.h"
#include "store.h"

#define EV_TEXTSEARCH_MAX_K 100000
#define EV_TEXTSEARCH_MAX_FUZZY 3

struct ev_textsearch_opts {
	long long k;		/* hits per query, 1 to EV_TEXTSEARCH_MAX_K */
	double w_title;		/* BM25 weight of the chunk's title column */
	double w_section;	/* of its section title */
	double w_text;		/* of its text */
	int all_terms;		/* AND the words instead of OR-ing them */
	int raw_fts;		/* the query text is an FTS5 expression */
	int fuzzy;		/* the largest edit distance, 0 (off) to 3 */
	int fuzzy_expansions;	/* stems a word may expand to, at least 1 */
	int drop_request_words;	/* drop "papers", "information", "find", ... */
	double proximity;	/* weight of a pair of query words side by side, 0 (off) to 10 */
	int feedback_docs;	/* chunks of the first pass that feed back, 0 (off) to 1000 */
	int feedback_terms;	/* terms they add, 1 to 1000 */
	double feedback_weight;	/* the feedback's share of the query, 0 to 1 */
	double feedback_focus;	/* the power of a feedback chunk's relative score, 0 to 10 */
	double k1;		/* BM25's term frequency saturation, 0 to 10 */
	double b;		/* BM25's length normalisation, 0 to 1 */
	struct ev_snippet_opts snippet;
	const char *dict_dir;	/* the word lists' directory (lexicon.h; borrowed: it must
				 * outlive the searcher); NULL: /usr/share/dict */
	struct ev_textstats *stats;	/* NULL, or the statistics to rank with (borrowed) */
	int exhaustive;		/* rank every chunk holding a query word: no pruning */
	long long split_rows;	/* sweep stores of this many chunks or more on two
				 * threads (ev_bm25_sweep_split()); 0: bm25.h's default,
				 * -1: never */
};

#define EV_TEXTSEARCH_MAX_FEEDBACK 1000
#define EV_TEXTSEARCH_MAX_PROXIMITY 10.0

#define EV_TEXTSEARCH_MAX_K1 10.0
#define EV_TEXTSEARCH_MAX_FOCUS 10.0

#define EV_TEXTSEARCH_OPTS_INIT { 100, 2.5, 2.5, 1.0, 0, 0, 2, 1, 1, 0.2, 15, 30, 0.5, 3.0, 1.1, 0.65, \
	EV_SNIPPET_OPTS_INIT, NULL, NULL, 0, 0 }

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
 * evidence [{lane, snippet, matched_terms, fuzzy?, feedback_terms?,
 * regions?}], the chunk's section_id, title, section_title, section_path,
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

/* The edit distance (optimal string alignment, over Unicode code points of
 * UTF-8 strings) between a[0..alen) and b[0..blen), or max + 1 when it is
 * over max.  Exposed for the tests. */
int ev_textsearch_distance(const char *a, int alen, const char *b, int blen, int max);

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
 * postings file (above): 1 or 0.  And whether the store has a postings file
 * that is stale (the searcher ranks through FTS5 then): 1 or 0. */
int ev_textsearch_swept(const struct ev_textsearch *ts);
int ev_textsearch_postings_stale(const struct ev_textsearch *ts);

/* Free the searcher (NULL-safe). */
void ev_textsearch_close(struct ev_textsearch *ts);

#endif
