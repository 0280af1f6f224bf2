/* embedwrite.h: records embedded by the built-in model (embed.h), as ev-embed
 * writes them: a chunk record or a query record gains a unit-length "vector"
 * and the "model" id; the store's chunks that lack a vector of a model
 * (--pending); and the JSON lines that report a training and the drift.
 *
 * High layer: includes err.h, jsonl.h, note.h, store.h and embed.h (Jansson). */
#ifndef EV_EMBEDWRITE_H
#define EV_EMBEDWRITE_H

#include <stdio.h>
#include <jansson.h>

#include "embed.h"
#include "lexicon.h"
#include "err.h"
#include "jsonl.h"
#include "note.h"
#include "qidset.h"
#include "store.h"

/* A record's role decided by its fields: "text" a chunk, "query" (or a JSON
 * string) a query. */
#define EV_EMBEDWRITE_AUTO (-1)

/* Where a mode writes: its JSON lines to out, and what the user should be
 * told to note(ctx, msg) (one line without the program's name; note NULL:
 * nothing is told). */
struct ev_embedwrite_io {
	FILE *out;
	ev_note_fn *note;
	void *ctx;
};

/* The store's model, ready to embed records. */
struct ev_embedwrite {
	struct ev_embed *e;
	struct ev_store *st;
	struct ev_lex *lex;	/* stop lists, to find a new chunk's language */
	float *vec;		/* a vector being made */
	long long zero;		/* chunks' vectors of no direction made (no term
				 * in the model's vocabulary): all zeros (a
				 * query's is not counted: the vector lane,
				 * which reads it, says it has no hits) */
	struct ev_qidset qids;	/* the ids of the queries of the input being
				 * embedded (ev_embedwrite_stream()) */
};

/* Open the model of st (see ev_embed_open(): its read transaction lasts
 * until ev_embedwrite_close()).  Returns 0, or -1 with *err set. */
int ev_embedwrite_open(struct ev_embedwrite *r, struct ev_store *st, struct ev_err *err);

/* Close it (safe on one that failed to open or was zeroed). */
void ev_embedwrite_close(struct ev_embedwrite *r);

/* Add "vector" and "model" to rec: a chunk record (its "title",
 * "section_title" and "text", which is required) or with is_query a query
 * record (its "query").  Its words are stemmed for its "language" (a
 * language code); without one, a chunk's for its language in the store
 * (found by its "id"), else for the language of its text (langid.h), a
 * query's for each of the model's languages (embed.h).  Returns 0, or -1
 * with *err set (code 2 naming where and the field for a bad record). */
int ev_embedwrite_add(struct ev_embedwrite *r, json_t *rec, int is_query, const char *where,
	struct ev_err *err);

/* Embed one input value v (read at line lineno, where) for role
 * (EV_EMBED_DOCUMENT, EV_EMBED_QUERY or EV_EMBEDWRITE_AUTO): an object, or a
 * string (a query, see ev_query_record()).  A query whose query_id an
 * earlier query of the same input took is a bad record (qidset.h).  Returns
 * the record to write (a new reference: v itself, or the query record made
 * of it), or NULL with *err set (code 2 for a bad record). */
json_t *ev_embedwrite_one(struct ev_embedwrite *r, json_t *v, int role, size_t lineno,
	const char *where, struct ev_err *err);

/* Note how many vectors r made all zeros (no term of the model's
 * vocabulary), when any. */
void ev_embedwrite_zero_note(const struct ev_embedwrite *r, const struct ev_embedwrite_io *io);

/* Embed every record of in (see ev_embedwrite_one()) and write it to io->out,
 * one JSON line each.  A bad record (code 2) is handed to skip (when not NULL),
 * which returns 1 to go on without it, 0 to stop.  *nread counts the values
 * read, *nwritten the records written.  Returns 0, or -1 with *err set. */
int ev_embedwrite_stream(struct ev_embedwrite *r, struct ev_jsonl *in, int role,
	const struct ev_embedwrite_io *io,
	int (*skip)(void *ctx, struct ev_err *err), void *ctx, long long *nread,
	long long *nwritten, struct ev_err *err);

/* The ToolRun line's "embedder" of a run: the built-in method, the model
 * id and, when dim > 0, its dimensions ({"method": "lsa", "model": ID,
 * "dim": N}).  Returns a new object, or NULL when out of memory. */
json_t *ev_embedwrite_log_model(const char *id, int dim);

/* What ev_embedwrite_pending() did. */
struct ev_embedwrite_pending {
	char *model;		/* the model pending for (malloc'd; the caller frees),
				 * NULL when the store has no vectors yet */
	int dim;		/* the store's model's dimension, when it embedded */
	long long written;	/* records written */
	long long zero;		/* of them, vectors all zeros */
};

/* Write to io->out, one JSON line each, the chunks of st that have no vector
 * of a model in the store (new, changed, or of an older model), from one
 * snapshot: with embed, each with the vector of the store's own model;
 * without, as chunk records without vectors (for another embedder), pending
 * for model (NULL: the index's model, "vindex.model").  Notes how many there
 * were.  Returns 0 with *res filled, or -1 with *err set (res->model is
 * freed by the caller either way). */
int ev_embedwrite_pending(struct ev_store *st, int embed, const char *model,
	const struct ev_embedwrite_io *io, struct ev_embedwrite_pending *res, struct ev_err *err);

/* Train the model of store db (st) with p (ev_embed_train()) and write the
 * JSON line that reports it: model, dim, chunks, terms, distinct_terms,
 * energy (4 decimals) and the times in whole ms.  Notes a model with fewer
 * dimensions than asked, and chunks without a term of its vocabulary.
 * Returns 0 with *info filled, or -1 with *err set. */
int ev_embedwrite_train(struct ev_store *st, const char *db, const struct ev_embed_params *p,
	const struct ev_embedwrite_io *io, struct ev_embed_info *info, struct ev_err *err);

/* Measure the drift of the model of store db (st) (ev_embed_drift()) and
 * write the JSON line that reports it against max_drift: model (null when
 * none), drift (4 decimals), max_drift, new_terms, unseen_occurrences,
 * occurrences, chunks, trained_chunks.  Above max_drift, notes what to run.
 * Returns 0, 1 when above max_drift, or -1 with *err set; *d filled. */
int ev_embedwrite_drift(struct ev_store *st, const char *db, double max_drift,
	const struct ev_embedwrite_io *io, struct ev_embed_drift *d, struct ev_err *err);

/* Copy the model of the store at path from into st (ev_embed_copy()) and
 * write the JSON line {"model", "from"} that reports it to io->out.
 * Returns 0 or -1 with *err set. */
int ev_embedwrite_copy_model(struct ev_store *st, const char *from,
	const struct ev_embedwrite_io *io, struct ev_err *err);

#endif
