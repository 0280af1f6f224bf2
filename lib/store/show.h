/* show.h: references to stored evidence, resolved to what the store holds
 * (ev-show).
 *
 * Layer 5: includes err.h, buf.h, note.h, store.h and Jansson (region.h, hitfields.h and
 * jscan.h in show.c).
 *
 * A reference is one of
 *	chunk:ID                     a chunk (ev-pack's raw.content_ref)
 *	doc:ID                       a document
 *	doc::ID::page-N              page N (from 1) of a paged document
 *	doc::ID::page-N::bbox-X0,Y0,X1,Y1
 *	                             the lines of page N inside that box (PDF
 *	                             points, origin at the page's top left)
 *	ID                           a chunk's id, else a document's
 * An ID is any non-empty string, as ev-ingest stores any: it may hold tabs,
 * new lines and other control characters, and be of any length. */
#ifndef EV_SHOW_H
#define EV_SHOW_H

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "note.h"
#include "store.h"

enum ev_ref_kind { EV_REF_BARE, EV_REF_CHUNK, EV_REF_DOC, EV_REF_PAGE, EV_REF_REGION };

struct ev_ref {
	int kind;		/* enum ev_ref_kind */
	char *id;		/* the chunk's or document's id (malloc'd) */
	long page;		/* EV_REF_PAGE, EV_REF_REGION: from 1 */
	double box[4];		/* EV_REF_REGION: x0, y0, x1, y1 */
};

/* Parse reference s (n bytes) into *out.  Returns 0, or -1 with *err set:
 * code 2 naming where for a malformed one (what is wrong, and the reference),
 * code 1 out of memory.  The caller frees out->id. */
int ev_ref_parse(const char *s, size_t n, struct ev_ref *out, const char *where,
	struct ev_err *err);

/* The references a JSON Lines record holds, appended to refs (an array of
 * strings): a string is one; an object with "content_ref" (a hit of the
 * multi-vector lane) or "id" (a hit, a chunk) is one; an EvidencePack
 * (ev-pack) holds one per item of "evidences", its raw.content_ref.  Returns
 * 0, or -1 with *err set (code 2 naming where for a record of none of these
 * shapes). */
int ev_show_refs_of(const json_t *rec, json_t *refs, const char *where, struct ev_err *err);

/* Resolve r in st: 1 with *out a new record {"ref", "kind": "chunk" |
 * "document" | "page" | "region", "id", "doc_id", "title", "source_uri",
 * "section_path", "text", "offset_start", "offset_end", "page", "page_end",
 * "boxes": [{"page", "bbox"}], "content_hash", "metadata"}, the fields the
 * store has for it (metadata.clause_id for a clause's chunk); 0 when st
 * holds no such chunk, document or page; -1 with *err set (code 1).  A
 * page's stored line that is not as ev-ingest writes it (a damaged store) is
 * left out and named, with its document and chunk, to note(ctx, msg) (NULL:
 * to no one). */
int ev_show_resolve(struct ev_store *st, const struct ev_ref *r, const char *ref, ev_note_fn *note,
	void *ctx, json_t **out, struct ev_err *err);

/* Why r, which ev_show_resolve() found nothing for (0), shows nothing,
 * appended to why as the rest of a sentence after the reference: "is not
 * in the store (deleted, ...)" for a chunk or document the store does not
 * hold; for a page or region of a document it holds, that the document
 * has no pages, fewer pages, or no text on that page (or in that box).
 * Returns 0, or -1 with *err set (code 1). */
int ev_show_why_missing(struct ev_store *st, const struct ev_ref *r, struct ev_buf *why,
	struct ev_err *err);

/* Append reference ref (n bytes) to b for a reader: as it is, or, when it
 * holds a control character (a tab, a new line, U+0001 ...), as a JSON string
 * ("a\tb:_top:0"), which ev-show reads back on stdin.  Returns 0 or -1 (out
 * of memory). */
int ev_show_put_ref(struct ev_buf *b, const char *ref, size_t n);

/* Append record rec (ev_show_resolve()'s) to out as text: the reference (as
 * ev_show_put_ref() writes it), then "  FIELD: value" lines for the title,
 * source, section, page, offsets, boxes, and the text indented by four
 * spaces, and a blank line.  Returns 0 or -1 (out of memory). */
int ev_show_text(const json_t *rec, struct ev_buf *out);

#endif
