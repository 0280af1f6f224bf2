/* analyze.h: the "evkit" FTS5 tokeniser: the one analysis of text that the
 * FTS5 index, the text lane, the embedder and the scorer share (token.h
 * reaches it through fts5_api).
 *
 * Low layer: includes buf.h, err.h, SQLite, icu.h and stemmer.h.
 *
 * A text is cut into runs by script:
 *   - Chinese and Japanese (Han, Hiragana, Katakana, with 々 and ー) and
 *     Korean (Hangul): ICU's dictionary-based word break iterator finds the
 *     words, each a token; beside them every pair of adjacent characters of
 *     the run (the overlapping bigrams of Lucene's CJK analysis, for recall
 *     where the segmenter cut otherwise than the reader would) is a token at
 *     the same position as the word its first character belongs to
 *     (FTS5_TOKEN_COLOCATED), so words keep consecutive positions and a
 *     phrase of words matches.  A bigram equal to its word is not repeated.
 *   - every other run: FTS5's unicode61 (lowercased, diacritics folded
 *     with remove_diacritics 2), then stemmed for the text's language:
 *     English, Chinese, Japanese and Korean with FTS5's Porter stemmer
 *     (exactly FTS5's "porter unicode61 remove_diacritics 2", so English
 *     is indexed as before), a language libstemmer has a Snowball stemmer
 *     for (fr, de, es, it, pt, nl, sv, da, no, fi, ru, ...) with it (the
 *     word stemmed with its accents, then folded), any other unstemmed.
 *
 * The language of a text: a tag in front of it, EV_ANALYZE_TAG, the code,
 * EV_ANALYZE_TAG ("\x1f" "fr" "\x1f" "Les abeilles"), as the store gives
 * every chunk column it indexes (its chunk's language); else the
 * analyzer's current language (ev_analyze_set_lang(), English when none).
 *
 * The index (EV_ANALYZE_INDEX_VERSION 3): a stem belongs to its language.
 * A word of a spaced script of a Snowball language gives two terms at one
 * position: its stem, tagged with the language, EV_ANALYZE_TAG, code,
 * EV_ANALYZE_TAG, stem ("\x1f" "fr" "\x1f" "au"), and the word itself
 * (folded), tagged with no language ("\x1f\x1f" "aux"), which every
 * language shares, colocated (FTS5_TOKEN_COLOCATED: a text's length in
 * tokens, and so BM25, is what it was).  English (Porter: en, zh, ja, ko)
 * gives its stem alone, untagged, as FTS5's porter tokeniser does ("flow"):
 * the word itself beside it made the index of an English store a third
 * larger and its ingest a third slower, for queries of other languages
 * alone, which reach English text through their words' English stems
 * instead (below).  A language without a stemmer gives the word itself
 * alone.  An index of version 2 also holds the word itself beside every
 * English stem; one of version 1 holds each text's stems alone, untagged.
 * ev_analyze_set_index() says which an analyzer writes and reads.
 *
 * Queries (FTS5_TOKENIZE_QUERY, the strings of a MATCH expression): a run
 * of Chinese or Japanese of at most two characters, or that the segmenter
 * finds to be one word, is one token (it matches that word or that bigram
 * wherever it was indexed); a longer run is the phrase of its words.  Other
 * runs: each word gives, colocated (FTS5 matches any of them at that
 * position), its stem in the query's own language
 * (ev_analyze_set_query_lang()), or when that is not known in each of the
 * query languages (ev_analyze_set_query_langs(); English when none), its
 * English stem when some of the store's chunks (ev_analyze_set_store_langs())
 * are English and none of those languages is, and the word itself unless
 * every language of the store's chunks is one it was stemmed for.  So a
 * query word reaches a chunk of another Snowball language than its own
 * only as the word itself: German "aus" never finds French "aux" through
 * the French stem "au".  With an index of version 2, no query word is
 * given an English stem for English text (it holds the words themselves);
 * with one of version 1, each word gives its untagged stem in each query
 * language, as it did. */
#ifndef EV_ANALYZE_H
#define EV_ANALYZE_H

#include <stddef.h>
#include <sqlite3.h>

#include "buf.h"
#include "err.h"

#define EV_ANALYZE_TOKENIZER "evkit"	/* the name it is registered under */
#define EV_ANALYZE_TAG '\x1f'		/* brackets a text's language code */
#define EV_ANALYZE_CODE_MAX 8		/* a language code's bytes, NUL included */
#define EV_ANALYZE_MAX_QUERY_LANGS 8
#define EV_ANALYZE_INDEX_VERSION 3	/* the index this analyzer writes (above) */
#define EV_ANALYZE_META_KEY "analysis_version"	/* a store's meta records it under */

/* A flag of xTokenize beside FTS5's (token.h passes it, FTS5 never does):
 * a query's search terms: as FTS5_TOKENIZE_DOCUMENT, but a Chinese or
 * Japanese word of one character is left out of a longer run (its bigrams
 * stand for it: "蜂螨" cut as 蜂|螨 searches 蜂螨, not every 蜂). */
#define EV_ANALYZE_TERMS 0x10000

/* Another (token.h passes it): the analysis of words alone, whatever the
 * index: each word its untagged stem (for a document, in its language; for
 * a query, in each query language), never the word itself beside it, as
 * the embedder, the snippets and the citation scorer compare words. */
#define EV_ANALYZE_PLAIN 0x20000

/* And another (token.h passes it): a query's terms in its own languages
 * alone, as ev-search-text's typo repair reads them: no English stem for
 * the English chunks of a query of another language (above). */
#define EV_ANALYZE_OWN 0x40000

struct ev_analyzer;

/* Register the "evkit" tokeniser on db.  Returns its analyzer, owned by the
 * connection (freed when db closes; valid until then), or NULL with *err
 * set (code 1: this SQLite has no FTS5, or out of memory). */
struct ev_analyzer *ev_analyze_register(sqlite3 *db, struct ev_err *err);

/* The analyzer registered on db, or NULL when none is (or "evkit" names
 * another tokeniser there). */
struct ev_analyzer *ev_analyze_find(sqlite3 *db);

/* The fts5_api of the connection db (by the documented "SELECT fts5(?1)"
 * handshake), or NULL when this SQLite has no FTS5. */
fts5_api *ev_analyze_fts5_api(sqlite3 *db);

/* Tokens recorded ahead of time, to be replayed when FTS5 asks for the
 * same text: ev-ingest tokenises a chunk's columns on a thread of its own
 * while the writer's thread indexes the chunk before it. */
struct ev_analyze_tape {
	struct ev_buf b;	/* the tokens (private encoding); ev_buf_release() frees it */
	int lang;		/* the recording analyzer's language for untagged text */
};

/* A text FTS5 will ask the tokeniser for, and its tokens tape->b.p[at..end). */
struct ev_analyze_cue {
	const char *text;
	int n;
	const struct ev_analyze_tape *tape;
	size_t at, end;
};

/* A copy of an for another thread: its languages, and tokenisers of its
 * own (an's are not safe to share); registered nowhere.  Made on an's
 * thread while no other thread uses its connection; used by one thread at
 * a time.  NULL when out of memory.  ev_analyze_free() frees it. */
struct ev_analyzer *ev_analyze_clone(const struct ev_analyzer *an);

/* Free a clone (NULL-safe); never the analyzer of a connection. */
void ev_analyze_free(struct ev_analyzer *an);

/* Append to tape the tokens that tokenising text[0..n) as a document gives
 * (what FTS5 would receive).  Returns 0, or -1 when out of memory (tape as
 * it was). */
int ev_analyze_record(struct ev_analyzer *an, const char *text, int n, struct ev_analyze_tape *tape);

/* Until the next call: when FTS5 asks an to tokenise a document text equal
 * to a cue's (the same bytes, and an's language for untagged text the
 * recording one's), hand it the cue's tokens instead of making them.  The
 * cues (and their tapes and texts) must stay valid until then; n == 0
 * clears them.  The result is the same either way: a cue only saves the
 * work.  A text FTS5 hands over where the cue's lies (a value bound with
 * its NUL after it) is the cue's without comparing its bytes. */
void ev_analyze_expect(struct ev_analyzer *an, const struct ev_analyze_cue *cues, size_t n);

/* The language of untagged text from now on: code (ev_analyze_norm()
 * applies), or NULL for English. */
void ev_analyze_set_lang(struct ev_analyzer *an, const char *code);

/* The languages a query's words are stemmed for from now on: codes[0..n)
 * (n is cut to EV_ANALYZE_MAX_QUERY_LANGS; duplicates and languages with
 * the same stemming count once); n == 0: English alone. */
void ev_analyze_set_query_langs(struct ev_analyzer *an, const char *const *codes, int n);

/* The languages of the chunks of the store queries search: codes[0..n)
 * (cut as ev_analyze_set_query_langs() does); n == 0: the query languages
 * stand for them.  A query word is also searched for as itself when one of
 * them is not a language it was stemmed for. */
void ev_analyze_set_store_langs(struct ev_analyzer *an, const char *const *codes, int n);

/* The language the next queries are written in: code, or NULL when it is
 * not known (each word is then stemmed for every query language).  Only
 * an index of version 2 heeds it. */
void ev_analyze_set_query_lang(struct ev_analyzer *an, const char *code);

/* The version of the index an writes and reads from now on: 1 (stems
 * alone, untagged) or EV_ANALYZE_INDEX_VERSION (the default). */
void ev_analyze_set_index(struct ev_analyzer *an, int version);

/* The language code code[0..len) normalised into out: its primary subtag,
 * lowercased ("fr-CA", "FR_fr" -> "fr"); ISO 639-2 codes of the languages
 * evkit stems become 639-1 ("fra", "fre" -> "fr").  Returns 0, or -1 when
 * code is not a language code (2 or 3 ASCII letters before '-' or '_'). */
int ev_analyze_norm(const char *code, size_t len, char out[EV_ANALYZE_CODE_MAX]);

/* Whether the language (a normalised code) has a stemmer of its own: 1 for
 * English (Porter) and every Snowball language, else 0. */
int ev_analyze_has_stemmer(const char *code);

/* Whether the term term[0..len) is a word itself (EV_ANALYZE_TAG twice,
 * then the word: "\x1f\x1f" "aux"), as the index holds it beside the
 * word's stem: 1 or 0. */
static inline int
ev_analyze_is_itself(const char *term, size_t len)
{
	return len >= 2 && term[0] == EV_ANALYZE_TAG && term[1] == EV_ANALYZE_TAG;
}

/* Whether a text tagged with the language code (a chunk's language as the
 * store keeps it: chunks_src tags every indexed column with it) has the
 * words of its spaced runs indexed as their untagged Porter stem (English,
 * Chinese, Japanese, Korean, and a tag no language is read from): 1 or 0.
 * NULL (an untagged text, read in the analyzer's current language) and a
 * code the tokeniser would not take for a tag (EV_ANALYZE_CODE_MAX bytes or
 * more, or holding EV_ANALYZE_TAG) give 0.  In such a text, a word itself
 * at a position always has its untagged Porter stem beside it (an index of
 * version 2), or is not there (version 3: postings.h). */
int ev_analyze_porter_tag(const char *code);

/* The code the index tags the stems of the i-th Snowball stemmer with
 * (above: "fr" in "\x1f" "fr" "\x1f" "au"), for i from 0; NULL past the
 * last.  With the untagged stem (English's, or any language's in an index
 * of version 1) these are every form a stem takes in an index. */
const char *ev_analyze_stem_tag(int i);

/* The term the index holds the stem stem[0..len) as in the namespace of
 * the i-th stemmer's code (ev_analyze_stem_tag(i)), or untagged when i is
 * -1, into out (cap bytes, NUL-terminated).  Returns its length, or -1
 * when i is past the last stemmer or out is too small. */
int ev_analyze_stem_form(int i, const char *stem, size_t len, char *out, size_t cap);

/* The script a text is mostly written in, by its letters: "zh", "ja" (Han
 * with kana: an eighth or more of the Han and kana letters are kana), "ko",
 * "ru" (Cyrillic), "el", "ar", "he", "th", or "" for Latin (or no letters),
 * whose language only its words tell (langid.h).  Reads at most the
 * first 64 KB. */
const char *ev_analyze_script_lang(const char *text, size_t len);

/* Whether text[0..len) holds a letter of a script written without spaces
 * between words (Han, kana, Hangul, Thai, ...), where edit distances
 * between words mean nothing. */
int ev_analyze_has_unspaced(const char *text, size_t len);

#endif
