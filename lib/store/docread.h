/* docread.h: document records as ev-ingest reads them: a line of JSON
 * Lines parsed (fast for records of strings) and checked, a paged
 * document's pages and lines read beside it, a plain file made into a
 * record, and what a file is by its name.
 *
 * Middle layer: includes err.h, region.h and Jansson. */
#ifndef EV_DOCREAD_H
#define EV_DOCREAD_H

#include <stddef.h>
#include <jansson.h>

#include "err.h"
#include "region.h"

/* What a file whose document id, its name, is not UTF-8 is told (a PDF or
 * HTML file's by ev-extract and ev-ingest alike). */
#define EV_DOCREAD_NAME_NOT_UTF8 "file name is not valid UTF-8, and a file's document id is" \
	" its name: rename the file (convmv converts names)"

enum {
	EV_INGEST_AUTO = -1	/* format: by source_type or the id's extension */
};

/* Check a document record: an object with "id" (a non-empty string) and
 * "text" (a string); "title", "source_uri", "source_type" strings, "language" a
 * language code (ev_analyze_norm() takes it),
 * "published_date" a date string as ev_clock_date_ok() takes one, "metadata" an object whose "pages" and "lines",
 * when present, are as ev_regions_read() reads them; null is the same as
 * absent.  Returns 0, or -1 with *err set (code 2, at where). */
int ev_docread_check(const json_t *doc, const char *where, struct ev_err *err);

/* Parse a line of JSON Lines as ev_json_parse_line() does (the same value,
 * the same messages), but faster for records of strings, objects, arrays,
 * true, false and null; others are handed to ev_json_parse_line().  Returns
 * the value (the caller decrefs it), or NULL with *err set (code 2). */
json_t *ev_docread_parse(const char *line, size_t len, const char *where, struct ev_err *err);

/* ev_docread_parse() for a record whose metadata may hold "pages" and
 * "lines" (a paged document, region.h): those two are read into *regs
 * entry by entry, checked against the record's text as ev_regions_read()
 * checks them, and left out of the value returned, so that a long PDF's
 * line boxes (hundreds of thousands) never become a tree of JSON values,
 * some ten times their size.  *regs is empty for a record without them;
 * one whose text is not a string is returned without them, and a "pages" or
 * "lines" that is not an array (nor null) is left in the metadata (both for
 * ev_docread_check() to refuse).  Returns the value, or NULL with *err set
 * (code 2: not JSON, or a bad entry; code 1: out of memory). */
json_t *ev_docread_parse_paged(const char *line, size_t len, const char *where,
	struct ev_regions *regs, struct ev_err *err);

/* What a file is by its name: EV_CHUNK_MARKDOWN (.md, .markdown),
 * EV_CHUNK_TEXT (.txt, .text, .rst, or no extension, as README),
 * EV_DOCREAD_KIND_JSONL (.jsonl, .ndjson, .json), EV_DOCREAD_KIND_EXTRACT
 * (.pdf, .html, .htm: read through ev-extract) or EV_DOCREAD_KIND_OTHER;
 * extensions in any case. */
enum { EV_DOCREAD_KIND_JSONL = -2, EV_DOCREAD_KIND_OTHER = -3, EV_DOCREAD_KIND_EXTRACT = -4 };
int ev_docread_kind(const char *path);

/* Read the plain file at path into a document record {"id": id,
 * "text", "source_uri": id, "source_type": "markdown"|"text"} (id NULL: the
 * path); format is EV_CHUNK_MARKDOWN, EV_CHUNK_TEXT or EV_INGEST_AUTO (by
 * the name: Markdown for .md and .markdown).  A UTF-8 byte order mark is
 * dropped.  Returns the record, or NULL with *err set: code 2 naming
 * "PATH:LINE" for a NUL byte or invalid UTF-8, code 1 when unreadable. */
json_t *ev_docread_read_file(const char *path, const char *id, int format, struct ev_err *err);

#endif
