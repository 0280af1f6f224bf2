/* textopts.h: the text lane's options (textsearch.h), and their defaults
 * from the plan schema (plan.h).
 *
 * Middle layer: includes plan.h and snippet.h. */
#ifndef EV_TEXTOPTS_H
#define EV_TEXTOPTS_H

#include "plan.h"
#include "snippet.h"

struct ev_textstats;

struct ev_textsearch_opts {
	long long k;		/* hits per query, 1 to EV_PLAN_MAX_K */
	double w_title;		/* BM25 weight of the chunk's title column, */
	double w_section;	/* of its section title (both where every chunk */
				/* has one: textsearch.c scales them to the store) */
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
	long long feedback_pool;	/* the feedback pass ranks only the first pass's best
				 * max(feedback_pool, k) chunks; 0: every chunk */
	double k1;		/* BM25's term frequency saturation, 0 to 10; NAN:
				 * from the store, k1_scale x ln(the mean length of
				 * its chunks in tokens), 0 when that is 1 or less */
	double k1_scale;	/* what sets k1 when k1 is NAN */
	double b;		/* BM25's length normalisation, 0 to 1; NAN: from the
				 * store, min(EV_TEXTSEARCH_B_MAX, norm_spread / the
				 * spread of its chunk lengths (lenstats.h)) */
	double norm_spread;	/* the spread of BM25's length normalisation across the
				 * store's chunks that sets b when b is NAN */
	struct ev_snippet_opts snippet;
	const char *dict_dir;	/* the word lists' directory (lexicon.h; borrowed: it must
				 * outlive the searcher); NULL: /usr/share/dict */
	struct ev_textstats *stats;	/* NULL, or the statistics to rank with (borrowed) */
	int exhaustive;		/* rank every chunk holding a query word: no pruning */
	long long prune_rows;	/* prune a pass only when the store holds this many
				 * chunks or more for each hit it asks for; 0:
				 * textpass.c's default, -1: always */
	long long split_rows;	/* sweep stores of this many chunks or more on two
				 * threads (ev_bm25_sweep_split()); 0: bm25.h's default,
				 * -1: never */
	int long_query;		/* a query of more searched words than this is read
				 * as a document: no feedback, no proximity; 0: never */
	double doc_weight;	/* a hit's share of its document's score as a whole
				 * (textsearch.h), 0 to 1; 0: its chunk's alone; NAN:
				 * for a query read as a document, 1 - the store's
				 * documents / its chunks, for others 0 */
};

/* The largest b the store's spread sets: BM25's customary value, which
 * the spread lowers where chunk lengths vary widely. */
#define EV_TEXTSEARCH_B_MAX 0.75

#define EV_TEXTSEARCH_LONG_QUERY EV_PLAN_DEFAULT(EV_PLAN_TEXT_LONG_QUERY)	/* 64: searched words
				 * of the longest query read as a request */

/* The defaults: the plan schema's (plan.h). */
#define EV_TEXTSEARCH_OPTS_INIT { \
	.k = EV_PLAN_DEFAULT(EV_PLAN_TEXT_K), \
	.w_title = EV_PLAN_DEFAULT(EV_PLAN_TEXT_WEIGHT_TITLE), \
	.w_section = EV_PLAN_DEFAULT(EV_PLAN_TEXT_WEIGHT_SECTION), \
	.w_text = EV_PLAN_DEFAULT(EV_PLAN_TEXT_WEIGHT_TEXT), \
	.fuzzy = EV_PLAN_DEFAULT(EV_PLAN_TEXT_FUZZY), \
	.fuzzy_expansions = EV_PLAN_DEFAULT(EV_PLAN_TEXT_FUZZY_EXPANSIONS), \
	.drop_request_words = EV_PLAN_DEFAULT(EV_PLAN_TEXT_DROP_REQUEST_WORDS), \
	.proximity = EV_PLAN_DEFAULT(EV_PLAN_TEXT_PROXIMITY), \
	.feedback_docs = EV_PLAN_DEFAULT(EV_PLAN_TEXT_FEEDBACK), \
	.feedback_terms = EV_PLAN_DEFAULT(EV_PLAN_TEXT_FEEDBACK_TERMS), \
	.feedback_weight = EV_PLAN_DEFAULT(EV_PLAN_TEXT_FEEDBACK_WEIGHT), \
	.feedback_focus = EV_PLAN_DEFAULT(EV_PLAN_TEXT_FEEDBACK_FOCUS), \
	.feedback_pool = EV_PLAN_DEFAULT(EV_PLAN_TEXT_FEEDBACK_POOL), \
	.k1 = EV_PLAN_DEFAULT(EV_PLAN_TEXT_K1), \
	.k1_scale = EV_PLAN_DEFAULT(EV_PLAN_TEXT_K1_SCALE), \
	.b = EV_PLAN_DEFAULT(EV_PLAN_TEXT_B), \
	.norm_spread = EV_PLAN_DEFAULT(EV_PLAN_TEXT_NORM_SPREAD), \
	.snippet = EV_SNIPPET_OPTS_INIT, \
	.long_query = EV_TEXTSEARCH_LONG_QUERY, \
	.doc_weight = EV_PLAN_DEFAULT(EV_PLAN_TEXT_DOC_WEIGHT) }

#endif
