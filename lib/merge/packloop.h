/* packloop.h: a stream of hit records, grouped by request, written as one
 * EvidencePack per request: what ev-pack does between reading its options
 * and its exit.
 *
 * A request is the queries that share a "request_id" (rewrites or
 * sub-questions of one question, each saying its "query_index"); a query
 * without one is a request of its own.  Each run of consecutive hits of one
 * request is one pack, written as soon as the next request's first hit
 * arrives; a request coming back later is bad input, as is a query found in
 * two requests.  With the queries of a file (ev_packloop_queries()), which
 * say the requests, every request gets its pack in the file's order (of its
 * first query), an empty one where no hit came, and hits of a query not in
 * the file, or out of its order, are bad input.
 *
 * Upper layer: includes err.h, buf.h, pack.h (and note.h) and Jansson
 * (show.h in packloop.c). */
#ifndef EV_PACKLOOP_H
#define EV_PACKLOOP_H

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

struct ev_packloop {
	struct ev_pack *p;	/* borrowed: the options, the plan, the warnings */
	FILE *out;
	enum ev_pack_format format;
	size_t width;		/* of the text report */
	long long records;	/* hit records read (blank lines aside) */
	long long packs;	/* packs written */
	/* Called with each pack written as indented JSON or a text report,
	 * once written (the caller's ToolRun log, which reads back only JSON
	 * lines from the output); NULL: not called.  Set after
	 * ev_packloop_init(). */
	void (*reported)(void *ctx, const json_t *pack);
	void *reported_ctx;
	/* private */
	json_t *queries;	/* query records of ev_packloop_queries(), or NULL */
	json_t *index;		/* query id as text -> position in queries */
	json_t *reqs;		/* the requests of queries: arrays of positions, in order */
	json_t *reqkeys;	/* each request's key (see cur) */
	size_t *qreq;		/* position in queries -> its request */
	const char *queries_path;
	size_t nextreq;		/* the next request of reqs to write */
	json_t *done;		/* request keys whose pack was written */
	json_t *seen;		/* query id -> the key of its request */
	char *cur;		/* the request whose hits are being added ("r" and its
				 * request_id, or "q" and the query id), or NULL */
	char *curq;		/* the query whose hits are being added, or NULL */
	double started;		/* ms, when cur's first hit came */
	struct ev_buf b;
	struct ev_buf kb;	/* the request key of the line being read */
};

/* Start a run writing p's packs to out.  Returns 0, or -1 with *err set. */
int ev_packloop_init(struct ev_packloop *r, struct ev_pack *p, FILE *out,
	enum ev_pack_format format, size_t width, struct ev_err *err);

/* Read the queries the hits answer from path, as the lanes read them (a
 * JSON string is a query whose id is its line number); a query id given
 * twice, a "request_id" that is not a string, a "query_index" that is not a
 * whole number from 0 or is given twice in a request, and a "routing" that
 * is not an object are bad input.  Returns 0, or -1 with *err set. */
int ev_packloop_queries(struct ev_packloop *r, const char *path, struct ev_err *err);

/* Take one input line (a hit record; a blank line is skipped) read at where.
 * Writes the pack of the request before when this line starts another.
 * Returns 0, or -1 with *err set: code 2 for a bad hit (the run may go on
 * with the next line), 1 when writing failed. */
int ev_packloop_line(struct ev_packloop *r, const char *line, size_t len, const char *where,
	struct ev_err *err);

/* At the end of input: write the last pack and, with queries, the empty
 * packs of the requests no hit came for.  Returns 0, or -1 with *err set. */
int ev_packloop_end(struct ev_packloop *r, struct ev_err *err);

/* The store ev_packloop_store_text() reads (opened for reading), and where
 * it names the damage it passes over (note.h; note NULL: to no one). */
struct ev_packloop_texts {
	struct ev_store *st;
	ev_note_fn *note;
	void *note_ctx;
};

/* ev_pack_text_fn over texts (a struct ev_packloop_texts *): the text
 * ev-show gives for ref (show.h: a chunk's, a page's), with the stored lines
 * of a page that a damaged store holds left out and named to texts->note,
 * as ev-show names them; 0 when the store holds no such chunk or page, or
 * no text for it. */
int ev_packloop_store_text(void *texts, const char *ref, struct ev_buf *out, struct ev_err *err);

/* Free what the run holds (not p). */
void ev_packloop_release(struct ev_packloop *r);

#endif
