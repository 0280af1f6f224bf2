/* lenstats.c: the totals of a store's chunk lengths (lenstats.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lenstats.h"
#include "postings.h"
#include "sha256.h"

double
ev_lenstats_spread(long long rows, long long tokens, long long squares)
{
	double mean, var;

	if (rows < 1 || tokens < 1)
		return 0;
	mean = (double)tokens / (double)rows;
	var = (double)squares / (double)rows - mean * mean;
	return var > 0 ? sqrt(var) / mean : 0;
}

/* The stamp of st's index now, as hex, into hex (65 bytes).  Returns 0 or
 * -1. */
static int
stamp_hex(struct ev_store *st, char hex[65], struct ev_err *err)
{
	unsigned char stamp[32];

	if (ev_postings_index_stamp(st, stamp, err) == -1)
		return -1;
	ev_hex_lower(stamp, sizeof stamp, hex);
	return 0;
}

/* The sum of the squares of len[0..maxrowid]. */
static long long
squares_of(const uint32_t *len, uint64_t maxrowid)
{
	long long sq = 0;

	for (uint64_t i = 0; i <= maxrowid; i++)
		sq += (long long)len[i] * len[i];
	return sq;
}

/* The totals of st's index, counted from every row's length (p's when
 * given) and its columns' sizes, into *ls.  Returns 0 or -1. */
static int
count(struct ev_store *st, const struct ev_postings *p, struct ev_lenstats *ls,
    struct ev_err *err)
{
	long long with[EV_POSTINGS_MAX_COLS];
	uint32_t *len;
	uint64_t maxrowid;

	if (p != NULL) {
		if (ev_postings_column_rows(st, with, err) == -1)
			return -1;
		ls->rows = (long long)ev_postings_rows(p);
		ls->tokens = (long long)ev_postings_tokens(p);
		ls->squares = squares_of(ev_postings_lengths(p), (uint64_t)ev_postings_maxrowid(p));
	} else {
		if (ev_postings_totals(st, &ls->rows, &ls->tokens, err) == -1 ||
		    ev_postings_row_lengths(st, &maxrowid, &len, with, err) == -1)
			return -1;
		ls->squares = squares_of(len, maxrowid);
		free(len);
	}
	ls->titled = with[EV_LENSTATS_TITLE_COLUMN];
	ls->sectioned = with[EV_LENSTATS_SECTION_COLUMN];
	return 0;
}

/* The totals meta keeps for the index of stamp hex into *ls: 1 when it
 * keeps them for that index, 0 when not (none, another index's, or not
 * five counts, the titled and sectioned chunks no more than the rows), -1
 * with *err set. */
static int
kept(struct ev_store *st, const char hex[65], struct ev_lenstats *ls, struct ev_err *err)
{
	char *value = NULL, tail;
	int r = ev_store_meta_get(st, EV_LENSTATS_META, &value, err);

	if (r == 1)
		r = strncmp(value, hex, 64) == 0 && value[64] == ' ' &&
		    sscanf(value + 65, "%lld %lld %lld %lld %lld%c", &ls->rows, &ls->tokens,
		    &ls->squares, &ls->titled, &ls->sectioned, &tail) == 5 && ls->rows >= 0 &&
		    ls->tokens >= 0 && ls->squares >= 0 && ls->titled >= 0 &&
		    ls->titled <= ls->rows && ls->sectioned >= 0 && ls->sectioned <= ls->rows;
	free(value);
	return r;
}

int
ev_lenstats_get(struct ev_store *st, const struct ev_postings *p, struct ev_lenstats *ls,
    struct ev_err *err)
{
	char hex[65];
	int r;

	if (stamp_hex(st, hex, err) == -1 || (r = kept(st, hex, ls, err)) == -1)
		return -1;
	ls->counted = r != 1;
	return r == 1 ? 0 : count(st, p, ls, err);
}

int
ev_lenstats_keep(struct ev_store *st, struct ev_err *err)
{
	char hex[65], value[200];
	struct ev_lenstats ls;
	int r;

	if (stamp_hex(st, hex, err) == -1 || (r = kept(st, hex, &ls, err)) == -1)
		return -1;
	if (r == 1)
		return 0;	/* (a run that changed nothing writes nothing) */
	if (count(st, NULL, &ls, err) == -1)
		return -1;
	snprintf(value, sizeof value, "%s %lld %lld %lld %lld %lld", hex, ls.rows, ls.tokens,
	    ls.squares, ls.titled, ls.sectioned);
	return ev_store_meta_set(st, EV_LENSTATS_META, value, err);
}

void
ev_lenstats_refresh(struct ev_store *st, const char *name, ev_note_fn *note, void *ctx)
{
	struct ev_err err = { 0 };

	if (ev_lenstats_keep(st, &err) == -1)
		ev_note(note, ctx, "%s: the documents are stored, but the totals of their chunks' lengths"
		    " could not be kept (%s): each search counts them, more slowly, until the next"
		    " ingest keeps them", name, err.msg);
}
