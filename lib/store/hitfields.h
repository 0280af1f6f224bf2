/* hitfields.h: the fields of a chunk of the store that a search hit carries,
 * as Jansson values or as JSON text, for the lanes that write hit records.
 *
 * Middle layer: includes err.h, buf.h, store.h and Jansson (and chunk.h in
 * hitfields.c). */
#ifndef EV_HITFIELDS_H
#define EV_HITFIELDS_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "store.h"

/* The chunk fields a hit carries (id, doc_id, section_id, title,
 * section_title, section_path, source_uri, chunk_index, offset_start,
 * offset_end, content_hash, the document's metadata with the chunk's
 * clause_id (ev_hitfields_clause()), source_type and published_date when it
 * has them)
 * added to obj, and the chunk's text in *text (malloc'd; the caller frees).
 * Returns 1, 0 when no chunk has that rowid, -1 on error. */
int ev_hitfields_add(struct ev_store *st, int64_t rowid, json_t *obj, char **text,
	struct ev_err *err);

/* The same fields written as JSON text: appended to b as
 * "id":...,"doc_id":...,...,"content_hash":...[,"source_type":...]
 * [,"published_date":...][,"language":...][,"metadata":{...}] (each when
 * the document or chunk has it; language: the chunk's; metadata last, with
 * the chunk's clause_id as ev_hitfields_clause() sets it; no braces), for
 * writers that build hit records as text.  With text non-NULL, the chunk's
 * text in *text (malloc'd).  With meta non-NULL, *meta is the
 * offset in b of the metadata object's opening brace, or 0 when there is
 * none.  Returns 1, 0 when no chunk has that rowid, -1 on error. */
int ev_hitfields_json(struct ev_store *st, int64_t rowid, struct ev_buf *b, char **text,
	size_t *meta, struct ev_err *err);

/* The clause id of a chunk whose section path is path (NULL: none), as
 * chunk.h's ev_chunk_clause_of() reads it ("Housing > 1.2(a)" -> "1.2(a)"),
 * set as "clause_id" in the metadata *meta of its hit (made when NULL; in
 * place of a "clause_id" of the document's own): the one rule of every lane
 * that reads hits from the store, and of ev-show.  Nothing for a chunk that
 * is no clause's.  Returns 0, or -1 when out of memory. */
int ev_hitfields_clause(const char *path, json_t **meta);

/* Whether key names a field of a hit record of its own (its chunk's, its
 * document's, its lane's: "id", "text", "language", "metadata", "page",
 * ...; and the query's "vector" and "vectors", not repeated in its hits).
 * A lane copies every other field of a query record into the query's hits;
 * one of these it never copies, even when the hit has none of its own: a
 * hit of a chunk without metadata or a language must not carry the
 * query's, as if they were its document's, nor one without a "text" the
 * query's "text" (ev-pack reads a hit's "text" as its chunk's). */
int ev_hitfields_owned(const char *key);

/* A shallow copy of the query record q without the fields of a hit's own
 * (ev_hitfields_owned()): what a lane copies into each of q's hits.
 * Returns it (the caller owns it), or NULL when out of memory. */
json_t *ev_hitfields_query_fields(const json_t *q);

/* Stamp hit with when its lane retrieved it: stamp (a string, clock.h's
 * ev_clock_stamp(), made once per query; the hit takes a reference) as
 * "retrieved_at" of each entry (an object) of the hit's "evidence" array,
 * for a lane that made the hit and all its entries.  Returns 0, or -1 when
 * out of memory. */
int ev_hitfields_stamp(json_t *hit, json_t *stamp);

#endif
