/* textloop.h: the text lane's loop between reading query records and writing
 * hit records: each query record checked (ev_query_record()), searched
 * (ev_textsearch_query()), what the search noticed turned into warnings, and
 * the hits written, a query's hits before the next query is read.
 *
 * Layer above textsearch: includes err.h, jsonl.h, textsearch.h, textstats.h and
 * Jansson.  The command (ev-search-text) opens the input and the searcher,
 * decides whether a bad record is skipped and says the warnings. */
#ifndef EV_TEXTLOOP_H
#define EV_TEXTLOOP_H

#include <stdio.h>

#include "err.h"
#include "jsonl.h"
#include "textsearch.h"
#include "textstats.h"

struct ev_textloop {
	/* A bad query record (malformed line, wrong field, bad filter, bad
	 * FTS5 expression): called with *err set (code 2, naming its line);
	 * return non-zero to skip it and go on, 0 to stop.  NULL stops. */
	int (*skip)(void *ctx, struct ev_err *err);
	/* What a user should hear of, about the query at where ("query has no
	 * words to search for ..."); NULL says nothing. */
	void (*warn)(void *ctx, const char *where, const char *what);
	void *ctx;		/* of skip and warn */
	long long queries;	/* out: queries answered */
	long long hits;		/* out: hits written */
	/* NULL, or where the queries' statistics go instead of searching
	 * (ev_textsearch_stats_query(); nothing is written to out) */
	struct ev_textstats *stats_out;
};

/* Search every query record of in with ts and write the hits of each, best
 * first, to out (ev_jsonl_write(): flushed on a pipe) before reading the
 * next.  Warns (loop->warn) of a query without searchable words, of one
 * whose distinct words past the 1000th were not searched, and once per
 * language of a word checked without that language's word list.  Adds to
 * loop->queries and loop->hits.  Returns 0 at the end of in, or -1 with *err
 * set at the first bad record loop->skip did not skip (code 2), a database
 * failure or a write error (code 1); the hits of the queries before it have
 * been written. */
int ev_textloop_search(struct ev_textsearch *ts, struct ev_jsonl *in, FILE *out, struct ev_textloop *loop,
	struct ev_err *err);

/* --stats-out: the statistics of the store ts searches for the queries of in
 * (neither when ts is NULL), plus those of the n files paths[] (made so),
 * summed and written to the file out_path ("-": stdout; ev_textstats_save()).
 * Counts the queries in loop->queries; loop->stats_out is set for the loop and
 * cleared after.  Returns 0, or -1 with *err set. */
int ev_textloop_stats(struct ev_textsearch *ts, struct ev_jsonl *in, struct ev_textloop *loop,
	const char *const *paths, size_t n, const char *out_path, struct ev_err *err);

#endif
