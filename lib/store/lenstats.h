/* lenstats.h: how much the chunks' lengths vary in a store's text index,
 * the statistic the text lane sets BM25's length normalisation from, and
 * how many chunks have a title and a section title, from which it sets
 * those fields' weights.
 *
 * The spread is the coefficient of variation of the chunks' lengths in
 * tokens (their columns summed): their standard deviation over their mean,
 * over every chunk of the index.  BM25 divides a term's frequency by
 * 1 - b + b x length / mean length, whose spread across the chunks is b
 * times this one (textsearch.h says how b follows from it).  It follows
 * from three totals, which add up over the shards of a collection
 * (textstats.h): the chunks, their tokens, the sum of the squares of
 * their lengths, and the chunks whose title and whose section title hold a
 * word.
 *
 * ev-ingest keeps the totals in the store's meta table after each run that
 * wrote to it, with the stamp of the index they were counted from; a reader
 * takes them from there when the stamp is the index's now, else counts them
 * from the index (a pass over every chunk's length) without writing.
 *
 * Middle layer: includes err.h, note.h, postings.h and store.h. */
#ifndef EV_LENSTATS_H
#define EV_LENSTATS_H

#include "err.h"
#include "note.h"
#include "postings.h"
#include "store.h"

/* The meta key holding "STAMP ROWS TOKENS SQUARES TITLED SECTIONED" (the
 * stamp in hex; a value of another form is counted again). */
#define EV_LENSTATS_META "text_lengths"

/* The text index's columns of a chunk's title and its section title. */
#define EV_LENSTATS_TITLE_COLUMN 0
#define EV_LENSTATS_SECTION_COLUMN 1

/* The totals of an index's chunk lengths. */
struct ev_lenstats {
	long long rows;		/* chunks */
	long long tokens;	/* the sum of their lengths */
	long long squares;	/* the sum of their lengths' squares */
	long long titled;	/* the chunks whose title holds a word */
	long long sectioned;	/* and whose section title does */
	int counted;		/* 1: counted now, as the store keeps none for */
				/* its index as it is; 0: the store's */
};

/* The spread of the lengths the totals describe: 0 when there are no
 * chunks or they are all of one length. */
double ev_lenstats_spread(long long rows, long long tokens, long long squares);

/* The totals of st's chunk lengths into *ls, from meta when current, else
 * counted: the lengths from p, st's postings file when it is given
 * (current: its lengths are mapped, a million chunks' in a millisecond),
 * else from the index; the titled chunks from the index (a million chunks'
 * in a fifth of a second).  Returns 0, or -1 with *err set (code 1: the store cannot be
 * read). */
int ev_lenstats_get(struct ev_store *st, const struct ev_postings *p, struct ev_lenstats *ls,
    struct ev_err *err);

/* Count the totals of st's chunk lengths and keep them in meta with the
 * index's stamp, unless meta keeps them for the index as it is (st open
 * for writing, outside a transaction: the write is its own).  Returns 0, or
 * -1 with *err set (code 1). */
int ev_lenstats_keep(struct ev_store *st, struct ev_err *err);

/* ev_lenstats_keep(), for a command that has just written to st (named
 * name): the totals are a cache, which a reader counts for itself when it
 * is missing or stale, so a failure to keep them is said through
 * note(ctx, ...) and is not an error of the write. */
void ev_lenstats_refresh(struct ev_store *st, const char *name, ev_note_fn *note, void *ctx);

#endif
