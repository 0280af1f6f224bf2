/* textstats.h: the statistics BM25 ranks with (document count, total
 * length, the documents that hold each term or phrase), as a set that sums
 * the statistics of several stores and is read from and written to a file.
 *
 * Low layer: includes err.h and stdio.h.  Knows nothing of the store: the
 * text lane fills a set from its store (textsearch.h) and ranks with one.
 *
 * A sharded collection ranks as one store holding everything when every
 * shard scores with the sum of the shards' statistics (what Elasticsearch's
 * dfs_query_then_fetch and Solr's ExactStatsCache do).  The set holds:
 *   rows                      chunks indexed
 *   tokens                    their tokens, over every column
 *   squares                   the sum of their lengths' squares (the
 *                             spread of the lengths: lenstats.h)
 *   titled, sectioned         the chunks whose title, and whose section
 *                             title, holds a word (the weights of those
 *                             fields follow from them: textsearch.h)
 *   term STEM -> N            chunks holding the stem (the whole vocabulary)
 *   phrase "[L] STEM STEM"    chunks holding the two stems side by side
 *     -> N                    (those of the queries the set was made for)
 *   phrase "[L] STEM" -> N    chunks a query word matches (any of its stems
 *                             in the languages the query is stemmed for)
 * where L is the query's own language ("*": none given, the store's
 * languages), which decides the stems a word searches: the same word
 * counted for queries of two languages is two entries.
 *   language CODE -> N        documents declaring the language
 *   chunk-language CODE -> N  chunks analysed in the language (declared or
 *                             detected: the languages a query is stemmed for)
 * Adding what is already there sums the counts: adding two stores' sets
 * gives the statistics of the two together.
 *
 * The file is text, one entry a line, fields separated by tabs, after the
 * line "evkit-text-stats<TAB>4" (version 1 had no squares, version 2 no
 * languages in its phrases, version 3 no titled chunks: refused):
 *   rows<TAB>N, tokens<TAB>N, squares<TAB>N, titled<TAB>N, sectioned<TAB>N,
 *   term<TAB>STEM<TAB>N, phrase<TAB>[L] STEM STEM<TAB>N,
 *   language<TAB>CODE<TAB>N, chunk-language<TAB>CODE<TAB>N
 * written sorted by kind and key, so that a file made twice is the same. */
#ifndef EV_TEXTSTATS_H
#define EV_TEXTSTATS_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

enum ev_stats_kind {
	EV_STATS_TERM,
	EV_STATS_PHRASE,
	EV_STATS_LANGUAGE,
	EV_STATS_CHUNK_LANGUAGE,
	EV_STATS_NKIND
};

struct ev_textstats;

/* An empty set.  Returns NULL with *err set (out of memory). */
struct ev_textstats *ev_textstats_new(struct ev_err *err);

/* Free the set (NULL-safe). */
void ev_textstats_free(struct ev_textstats *s);

/* Add rows, tokens, squares, titled and sectioned chunks to the totals. */
void ev_textstats_add_totals(struct ev_textstats *s, long long rows, long long tokens,
    long long squares, long long titled, long long sectioned);

/* Add n (>= 0) to the count of the entry key[0..len) of kind (a key holds
 * no tab, newline or NUL).  Returns 0, or -1 with *err set (out of memory). */
int ev_textstats_add(struct ev_textstats *s, enum ev_stats_kind kind, const char *key, size_t len,
	long long n, struct ev_err *err);

/* Add the statistics of the file path ("-": stdin).  Returns 0, or -1 with
 * *err set: code 2 naming PATH:LINE for a file that is not a statistics
 * file, a bad line, a total or key the file gave on an earlier line (the
 * set may then hold part of the file), or a file
 * that cannot be opened or is a directory (ev_input_open()), 1 when it
 * cannot be read. */
int ev_textstats_read(struct ev_textstats *s, const char *path, struct ev_err *err);

/* Write the set to f in the file format above.  Returns 0, or -1 with
 * *err set (code 1, naming name) for a write error. */
int ev_textstats_write(struct ev_textstats *s, FILE *f, const char *name, struct ev_err *err);

/* Write the set to the file path ("-": stdout) through a temporary file
 * renamed into place, so that path is whole or as it was, with the mode a
 * new file gets (0666 less the umask).  Returns 0, or -1 with *err set,
 * naming path: code 2 when it is a directory, 1 when it cannot be written. */
int ev_textstats_save(struct ev_textstats *s, const char *path, struct ev_err *err);

/* Add the statistics of each of the n files paths[] (ev_textstats_read()).
 * Returns 0, or -1 with *err set. */
int ev_textstats_read_all(struct ev_textstats *s, const char *const *paths, size_t n,
	struct ev_err *err);

/* The totals. */
long long ev_textstats_rows(const struct ev_textstats *s);
long long ev_textstats_tokens(const struct ev_textstats *s);
long long ev_textstats_squares(const struct ev_textstats *s);
long long ev_textstats_titled(const struct ev_textstats *s);
long long ev_textstats_sectioned(const struct ev_textstats *s);

/* The count of the entry key of kind, or -1 when the set has no such entry. */
long long ev_textstats_get(struct ev_textstats *s, enum ev_stats_kind kind, const char *key);

/* The number of entries of kind, and the i-th of them in key order (bytes
 * compared as unsigned, as SQLite compares text), its count into *n.  The
 * key is the set's: valid until the set changes. */
size_t ev_textstats_count(struct ev_textstats *s, enum ev_stats_kind kind);
const char *ev_textstats_key(struct ev_textstats *s, enum ev_stats_kind kind, size_t i,
	long long *n);

#endif
