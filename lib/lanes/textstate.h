/* textstate.h: the text lane's private state (textsearch.h), and the
 * functions its modules share.  Only the text lane's modules include it:
 * textsearch.c (the searcher, a query's course, the shards' statistics),
 * textquery.c (a query's words and the MATCH expression), texttypo.c (typo
 * repair), textpass.c (a pass: its statement, pruning, the postings sweep),
 * textfeedback.c (pseudo-relevance feedback) and texthit.c (a hit record).
 *
 * A pass's rows have the columns of textsearch.c's SELECT_HITS: 0 the
 * chunk's rowid, 1 its score, 2 id, 3 doc_id, 4 section_id, 5 chunk_index,
 * 6 title, 7 section_title, 8 section_path, 9 text, 10 offset_start,
 * 11 offset_end, 12 content_hash, 13 the document's source_uri,
 * 14 metadata, 15 language, 16 the chunk's language.
 *
 * Middle layer: includes analyze.h, bm25.h, buf.h, store.h, textopts.h,
 * SQLite and Jansson. */
#ifndef EV_TEXTSTATE_H
#define EV_TEXTSTATE_H

#include <jansson.h>
#include <sqlite3.h>

#include "analyze.h"
#include "bm25.h"
#include "buf.h"
#include "store.h"
#include "textopts.h"

struct ev_tok;
struct ev_lex;
struct ev_postings;
struct ev_bm25_sweep;
struct ev_textdoc;

#define MAX_REQUEST 32		/* request words */


struct word {
	char *stem;		/* the tokeniser's stem */
	char *surface;		/* the word as the query wrote it */
	int nexp;
	char **exp;		/* the stems it was expanded to (fuzzy) */
	char **expword;		/* for each, a word of the index with that stem */
	int *dist;		/* and their distances */
	int *by;		/* and 1 when found by the word as typed, 0 by its stem */
	int *expidx;		/* and their indices among the snippet's terms */
	double weight;		/* its phrases' weight in ev_bm25() */
	int qtf;		/* its occurrences in the query (its stem's) */
};

/* A word of the feedback chunks: a candidate feedback term. */
struct fbterm {
	char *stem;
	char *surface;		/* a word of the chunks with that stem */
	double weight;
	int snipidx;		/* its index among the snippet's terms (watched) */
};

/* A stem of the index's vocabulary, a candidate of typo repair. */
struct vterm {
	char *term;		/* as the index holds it (analyze.h), in vocab_bytes */
	size_t at;		/* term's offset in vocab_bytes */
	int tag;		/* the bytes of term before s */
	const char *s;		/* its stem: term without its language's tag */
	int len;		/* of s */
	int cplen;
	int ns;			/* its language's namespace: 0 untagged,
				 * 1 + its code's index in ts->vns, or VNS_WORD */
	long long df;
};

/* The languages whose tagged stems the vocabulary holds (at most), and the
 * namespace of the words themselves ("\x1f\x1f" word: analyze.h). */
#define MAX_VNS 30
#define VNS_WORD 31
#define VOCAB_STEMS 1	/* the vocabulary's kinds of terms (load_vocab()): */
#define VOCAB_WORDS 2	/* its stems, its words themselves */

/* A job asking for the store pages of a pass's swept hits (read_ahead()). */
struct read_ahead {
	struct ev_store *st;
	long long *rowid;
	size_t n, cap;
	struct ev_bm25_sweep *release;	/* then to give back its pages, or NULL */
};

struct ev_textsearch {
	struct ev_store *st;
	struct ev_textsearch_opts o;
	struct ev_tok *tok;
	struct ev_snippet *sn;
	struct word *words;
	int nwords, capwords;
	int truncated;
	int as_document;	/* the query is long: read as a document (long_query) */
	struct vterm *vocab;
	struct ev_buf vocab_bytes;	/* the terms, NUL-terminated, one after another */
	int nvocab;
	int vocab_loaded;	/* VOCAB_STEMS, VOCAB_WORDS: what load_vocab() read */
	int capvocab;
	char vns[MAX_VNS][EV_ANALYZE_CODE_MAX];	/* the vocabulary's tags' codes */
	int nvns;
	int instance_vocab;	/* temp.ev_text_instances made */
	struct ev_lex *lex;	/* stop lists and word lists (lexicon.h), made when first needed */
	unsigned langs;		/* the store's languages (EV_LEX_BIT), English always */
	int alt_end;		/* snippet terms below: the words' stems in each query language */
	char sole_lang[EV_ANALYZE_CODE_MAX];	/* the language of every chunk, or "" */
	int langs_loaded;
	unsigned no_dict;	/* languages found without a word list */
	int no_dict_now;	/* one of them was met by this query */
	char request[MAX_REQUEST][24];	/* the stems of request_words[] */
	int nrequest;
	struct fbterm *fb;	/* the feedback candidates, then (the first nfeedback) the terms */
	int nfb, capfb, nfeedback;
	int *fbslot;		/* open-addressing index of fb by stem: -1 or an index */
	int nslots;
	double *pw;		/* the weight of each phrase of expr, for ev_bm25() */
	const char **pka, **pkb;	/* each phrase's stems (pkb NULL for one word) */
	double *idf;		/* and its IDF once counted (> 0), else 0 */
	int *pstart, *plen;	/* and its bytes in expr */
	int npw, cappw;
	struct ev_buf key;	/* a phrase's statistics key (ev_textpass_phrase_key()) */
	/* the current query's languages as that key names them: "[de]" (its
	 * own), or "[*]" (the store's: each shard's own, so that the shards'
	 * counts of a query add up under one key) */
	char lang_key[EV_ANALYZE_CODE_MAX + 2];
	struct ev_buf expr, sql, snip;
	/* A pruned pass (textsearch.h "Dynamic pruning"): "(SOME) AND (expr)",
	 * the phrases of SOME first, weighing nothing. */
	struct ev_buf pexpr;
	double *ppw, *pidf;
	int npp, cappp;
	double *ub;		/* each phrase's upper bound */
	int *order;		/* the scoring phrases, highest bound first */
	int pruned;		/* phrases the last pass left out */
	/* The feedback pass's phrases and IDFs, for the last pass to reuse. */
	struct ev_buf prevexpr;
	double *previdf;
	int *prevstart, *prevlen;
	int nprev, capprev;
	struct ev_err *err;	/* where a tokeniser callback reports */
	int regions;		/* the store has chunk regions (region.h): 1, 0, -1 not known */
	struct ev_buf lines;	/* a hit's chunk's lines */
	size_t *spans;		/* the matched words' offsets in the document */
	size_t nspans, capspans;
	/* The sweep (textsearch.h "The postings file"): the store's postings
	 * file when it is fresh, and the last pass's hits when it was swept. */
	struct ev_postings *post;
	struct ev_bm25_sweep *sweep;
	int post_stale;		/* its postings file is stale, damaged or unreadable (postings.h) */
	int post_errno;		/* why it cannot be read (EV_POSTINGS_UNREADABLE) */
	int totals_counted;	/* a store of TOTALS_NOTE_ROWS chunks or more */
				/* keeps no totals of them (lenstats.h): counted */
	int nfilter;		/* the phrases of expr's filter group (ev_textquery_build_expr()) */
	int filtered;		/* this query has filters: no sweep */
	int last_query;		/* no query follows this one (ev_textsearch_last_query()) */
	int last_sweep;		/* the pass to be swept is the last query's last */
	int fresh;		/* the postings file describes this query's snapshot: 1,
				 * 0, or -1 not yet known */
	long long nchunks;	/* the store's chunks, counted once (-1 not yet): whether
				 * pruning pays (textpass.c) */
	struct ev_buf toks;	/* the swept phrases' tokens */
	struct ev_bm25_phrase *ph;
	int *tokoff, *toklen;	/* each token's bytes in toks */
	const char **tokp;
	int ntok, captok, capph;
	int *nalt;		/* each position's alternatives, phrase after phrase */
	int npos, cappos;
	const struct ev_bm25_hit *swept;	/* the pass's hits, when swept */
	long long nswept, next_swept;
	int used_sweep;		/* the last query's last pass was swept */
	struct read_ahead ra;	/* the job asking for their pages */
	struct ev_textdoc *doc;	/* chunk-to-document scoring (textdoc.c), made when first used */
	/* The feedback pass's pool (textfeedback.c): the first pass's best
	 * chunks, the only ones the next pass ranks when use_pool is set. */
	long long *pool;	/* their rows, best first */
	size_t npool, cappool;
	struct ev_buf pooljson;	/* the rows as a JSON array (the statement's ?7) */
	int use_pool;
	long long read_max;	/* a swept pass's rows read ahead (read_ahead()); 0: all */
};

/* textsearch.c */

/* Make the array *pv (a T ** as void *) hold n elements of elem bytes.
 * Returns 0, or -1 (out of memory: the array as it was). */
int ev_textsearch_resize(void *pv, int n, size_t elem);

/* textquery.c: a query's words and the MATCH expression */

/* Append s as the inside of an FTS5 string: a quote doubled. */
int ev_textquery_add_fts_chars(struct ev_buf *b, const char *s);

/* The MATCH expression into ts->expr and the weight of each of its phrases
 * into ts->pw: the words (each with its fuzzy expansions, OR-ed, or AND-ed
 * with all_terms), the pairs of consecutive words (proximity; pair_weight is
 * the weight of a pair) and the first ts->nfeedback feedback terms.  Pairs
 * and feedback terms only rank: when they could match where the words do
 * not, the words come first again, weighing nothing, as a filter:
 * "(WORDS) AND (WORDS OR PAIRS OR FEEDBACK)". */
int ev_textquery_build_expr(struct ev_textsearch *ts, double pair_weight);

/* ts->sole_lang: the language of every chunk of the store (of the collection,
 * with global statistics), when they have one alone.  Returns 0, or -1 with
 * *err set. */
int ev_textquery_sole_language(struct ev_textsearch *ts, struct ev_err *err);

/* The words of the query q (text[0..len)) into ts->words: stop words left
 * out, request words and the function words of the query's language dropped
 * (not with raw_fts); ts->fresh set to -1 (not asked yet) for the new
 * query.  Returns 0 or -1 with *err. */
int ev_textquery_query_words(struct ev_textsearch *ts, json_t *q, const char *text, size_t len,
    struct ev_err *err);

/* Append one phrase of the MATCH expression: the words a (and b, when not
 * NULL, after it) as an FTS5 string, and its weight to ts->pw.  Returns 0 or
 * -1 (out of memory). */
int ev_textquery_add_phrase(struct ev_textsearch *ts, const char *a, const char *b, double weight, const char *ka,
    const char *kb);

/* Stem queries for the languages of the store, or of the whole collection
 * with global statistics, so that every shard analyses a query alike.
 * Returns 0, or -1 with *err set. */
int ev_textquery_default_query_langs(struct ev_textsearch *ts, struct ev_err *err);

/* The query languages of q: its own "language", else the store's (set when
 * the searcher opened); and the language q is written in (token.h,
 * ev_tok_set_query_lang()): its "language", else the store's sole one,
 * else the one its words show (langid.h), else none known.  Returns 1 when
 * q set its own, 0, or -1 with *err set (bad input, or out of memory). */
int ev_textquery_query_langs(struct ev_textsearch *ts, json_t *q, const char *where, struct ev_err *err);

void ev_textquery_clear_words(struct ev_textsearch *ts);

/* A query read as a document (ts->as_document) weighs its words as a
 * document's terms: each 1 + ln(its occurrences in the query), SMART's
 * logarithmic term frequency, so that a word the query repeats counts more,
 * less than in proportion.  Returns nothing: only the weights change. */
void ev_textquery_weigh_as_document(struct ev_textsearch *ts);

/* texttypo.c: typo repair */

/* Whether the index holds the word w: one of the terms a MATCH searches it
 * as (its stem in the query's language, or in each query language, and
 * maybe the word itself: analyze.h).  1, 0, or -1 with *err set. */
int ev_texttypo_in_vocab(struct ev_textsearch *ts, const struct word *w, struct ev_err *err);

/* Expand word wi to the closest stems of the vocabulary, by the word as
 * typed and by its stem (textsearch.h "Typo tolerance"). */
int ev_texttypo_expand(struct ev_textsearch *ts, int wi, struct ev_err *err);

/* How many chunks hold both the word a and the word b (each as the query
 * string "a" searches it), up to 10,000: FTS5's count for MATCH '"a" AND
 * "b"', or the same from the postings file when it holds the index as it
 * is (ev_textpass_postings_fresh()).  Returns it, or -1 with *err set. */
long long ev_texttypo_together(struct ev_textsearch *ts, const char *a, const char *b, struct ev_err *err);

/* A word of the indexed text whose stem is the index term `stem`: the
 * token at its first instance (the smallest rowid, then column, then
 * offset: fts5vocab's instance table, or the postings file when it holds
 * the index as it is), read from that chunk's column (a query string is
 * stemmed again by FTS5, and Porter does not always give a stem back
 * unchanged: "viscos" -> "visco"; a word that stems to it does).  Returns
 * 1 with *out (malloc'd), 0 when none is found, -1 with *err set. */
int ev_texttypo_surface_of(struct ev_textsearch *ts, const char *stem, char **out, struct ev_err *err);

/* Whether the query word w, missing from the index, is a real word of one
 * of the store's languages (their word lists): 1, 0, or -1 with *err set.
 * A language without a word list on this machine is noted in ts->no_dict. */
int ev_texttypo_is_real_word(struct ev_textsearch *ts, const struct word *w, struct ev_err *err);

/* The edits a word of n code points may be repaired with (as
 * Elasticsearch's AUTO fuzziness, with its lengths 4 and 6): none under 4,
 * at most 1 under 6, at most fuzzy from 6 on. */
int ev_texttypo_allowed_distance(const struct ev_textsearch *ts, int n);

/* textpass.c: a pass over the index */

/* Whether the postings file holds the index as this query reads it: asked
 * once a query (ts->fresh, -1 until asked; in its transaction, once one is
 * begun).  Returns 1 or 0, or -1 with *err set. */
int ev_textpass_postings_fresh(struct ev_textsearch *ts, struct ev_err *err);

/* The quoted words a and b (their bytes, no quote doubled) as the tokens
 * FTS5 searches "a" and "b" for in a query, into ts->ph[0] and ts->ph[1]
 * (its tokens' arrays reused: not during a pass).  Returns 1 when each is
 * one position (its alternatives: the word's stems and itself), 0 when
 * either is several or none, or more alternatives than a sweep takes, or
 * -1 with *err set. */
int ev_textpass_word_phrases(struct ev_textsearch *ts, const char *a, const char *b, struct ev_err *err);

/* Keep the phrases of this pass and the IDFs counted for them, for the
 * next pass of the query (the feedback pass's words and pairs are searched
 * again by the last).  Returns 0 or -1 (out of memory). */
int ev_textpass_save_pass(struct ev_textsearch *ts);

/* Bind s for a pass of `limit` chunks over ts->expr, pruned when the
 * options allow it and it pays (ts->pruned: the phrases left out of the
 * candidates), or swept.  Returns 0, or -1 with *err set. */
int ev_textpass_prepare_pass(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw,
    long long limit, const char *text, const char *where, struct ev_err *err);

/* Step the pass: s itself, or when it was swept, the next swept hit's
 * chunk row.  *row is the statement to read the row's columns from.
 * Returns SQLITE_ROW, SQLITE_DONE or an error code. */
int ev_textpass_step_pass(struct ev_textsearch *ts, sqlite3_stmt *s, sqlite3_stmt **row);

/* A failed step of a pass, into *err. */
int ev_textpass_step_error(struct ev_textsearch *ts, int rc, const char *text, const char *where,
    struct ev_err *err);

/* The key in the statistics of the phrase of the query word a, or of the
 * pair a b (b not NULL), into ts->key: its stems after the current query's
 * languages (ts->lang_key), which say which of a word's stems it searches,
 * so that a word counted for a query of one language is never taken for
 * the same word in another: "[*] flat plate".  Returns 0 or -1 (out of
 * memory). */
int ev_textpass_phrase_key(struct ev_textsearch *ts, const char *a, const char *b);

/* textfeedback.c: pseudo-relevance feedback */

/* Pseudo-relevance feedback (textsearch.h): the first pass over s, then the
 * words' weights and the feedback terms (ts->fb[0..nfeedback)) set, and the
 * feedback terms added to the snippet maker.  Returns 1, 0 when the first
 * pass found nothing to feed back (nothing changed), or -1 with *err. */
int ev_textfeedback_run(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw, const char *text,
    const char *where, struct ev_err *err);

/* texthit.c: a hit record */

/* Column i of the current row as text: *t (never NULL: "" for SQL NULL) and
 * *len.  sqlite3_column_text() also returns NULL when it runs out of memory
 * converting a value; that is an error, not an empty text.  Returns 0 or -1
 * (out of memory). */
int ev_texthit_column_text(sqlite3_stmt *s, int i, const char **t, size_t *len);

/* The hit record of the current row. */
json_t * ev_texthit_make_hit(struct ev_textsearch *ts, sqlite3_stmt *s, json_t *q, long long rank, double best,
    struct ev_err *err);

/* textdoc.c: chunk-to-document scoring */

/* Score the query's hits hits[first..] anew when doc_weight is set (or,
 * NAN, for a query read as a document, with 1 - the store's documents / its
 * chunks): each (1 - share) x its chunk's score + share x its document's BM25 as
 * a whole (every chunk's frequencies of the last pass's weighed phrases and
 * lengths summed, against the average document's length), scaled by the
 * best chunk's over the best document's; hits reordered by it (ties: the
 * earlier first), "rank" and "score" set, signals.doc_score added.
 * Returns 0, or -1 with *err set. */
int ev_textdoc_rescore(struct ev_textsearch *ts, json_t *hits, size_t first, struct ev_err *err);

/* Free the state (NULL-safe). */
void ev_textdoc_free(struct ev_textdoc *d);

#endif
