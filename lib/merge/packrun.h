/* packrun.h: a stream of hit records, grouped by query, written as one
 * EvidencePack per query: what ev-pack does between reading its options
 * and its exit.
 *
 * Each run of consecutive hits with one query_id is one pack, written as
 * soon as the next query's first hit arrives; a query coming back later is
 * bad input.  With the queries of a file (ev_packrun_queries()), every query
 * gets its pack in the file's order, an empty one where no hit came, and
 * hits of a query not in the file, or out of its order, are bad input.
 *
 * Upper layer: includes err.h, buf.h, pack.h and Jansson. */
#ifndef EV_PACKRUN_H
#define EV_PACKRUN_H

#include <stdio.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "pack.h"

/* How packs are written. */
enum ev_pack_format {
	EV_PACK_JSONL,		/* one pack a line */
	EV_PACK_JSON,		/* indented JSON */
	EV_PACK_TEXT		/* a report to read (ev_pack_render_text()) */
};

struct ev_packrun {
	struct ev_pack *p;	/* borrowed: the options, the plan, the warnings */
	FILE *out;
	enum ev_pack_format format;
	size_t width;		/* of the text report */
	long long records;	/* hit records read (blank lines aside) */
	long long packs;	/* packs written */
	/* private */
	json_t *queries;	/* query records of ev_packrun_queries(), or NULL */
	json_t *index;		/* query id as text -> position in queries */
	const char *queries_path;
	size_t nextq;		/* the next query of queries to write */
	json_t *done;		/* query ids whose pack was written */
	char *cur;		/* the query whose hits are being added, or NULL */
	double started;		/* ms, when cur's first hit came */
	struct ev_buf b;
};

/* Start a run writing p's packs to out.  Returns 0, or -1 with *err set. */
int ev_packrun_init(struct ev_packrun *r, struct ev_pack *p, FILE *out,
	enum ev_pack_format format, size_t width, struct ev_err *err);

/* Read the queries the hits answer from path, as the lanes read them (a
 * JSON string is a query whose id is its line number); a query id given
 * twice is bad input.  Returns 0, or -1 with *err set. */
int ev_packrun_queries(struct ev_packrun *r, const char *path, struct ev_err *err);

/* Take one input line (a hit record; a blank line is skipped) read at where.
 * Writes the pack of the query before when this line starts another.
 * Returns 0, or -1 with *err set: code 2 for a bad hit (the run may go on
 * with the next line), 1 when writing failed. */
int ev_packrun_line(struct ev_packrun *r, const char *line, size_t len, const char *where,
	struct ev_err *err);

/* At the end of input: write the last pack and, with queries, the empty
 * packs of those no hit came for.  Returns 0, or -1 with *err set. */
int ev_packrun_end(struct ev_packrun *r, struct ev_err *err);

/* Free what the run holds (not p). */
void ev_packrun_release(struct ev_packrun *r);

#endif
