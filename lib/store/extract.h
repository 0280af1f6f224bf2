/* extract.h: what the PDF and HTML extractors share: which files they read,
 * the walk of directories, document ids, and the document record, written in
 * bounded memory however long the document.
 *
 * Layer 3: includes err.h, buf.h and jsonl.h (Jansson).  Knows nothing of
 * poppler or libxml2 (extract_pdf.h and extract_html.h do).
 *
 * The record is evkit's document record (evkit(7)), one line:
 *
 *	{"id", "title"?, "text", "source_uri", "source_type": "markdown",
 *	 "language"?, "metadata": {"format": "pdf" | "html", ...,
 *	 "pages"?: [{"page", "offset_start", "offset_end", "width", "height"}],
 *	 "lines"?: [{"page", "offset_start", "offset_end", "bbox": [x0, y0, x1, y1]}]}}
 *
 * The text is Markdown (headings as "#" lines, tables as pipe tables, code as
 * fenced blocks), so ev-ingest's Markdown chunker makes sections of the
 * headings; metadata.format names the original format.  Offsets are byte
 * offsets into "text"; boxes are in PDF points with the origin at the page's
 * top left.  The text, the pages and the lines are kept in temporary files
 * while a document is read, so memory does not grow with its length. */
#ifndef EV_EXTRACT_H
#define EV_EXTRACT_H

#include <stdio.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"

enum ev_extract_kind {
	EV_EXTRACT_NONE = 0,
	EV_EXTRACT_PDF,		/* .pdf */
	EV_EXTRACT_HTML		/* .html, .htm */
};

/* The kind of file path names, by its extension (any case). */
int ev_extract_kind(const char *path);

/* The files under directory dir that ev_extract_kind() knows, recursively,
 * sorted by name (byte order) at each level, as "dir/sub/name.pdf" (entries
 * starting with '.' and symbolic links to directories are skipped).  Returns
 * 0 with *paths (each and the array malloc'd; free with ev_extract_paths_free())
 * and *n set, or -1 with *err set (code 2: a directory that cannot be read). */
int ev_extract_walk(const char *dir, char ***paths, size_t *n, struct ev_err *err);

/* Free what ev_extract_walk() returned (NULL-safe). */
void ev_extract_paths_free(char **paths, size_t n);

/* path as a document id: "./" and "." components and repeated '/' removed
 * ("./docs//a.pdf" is "docs/a.pdf"); ".." is kept.  Writes at most size bytes
 * (NUL included) into out. */
void ev_extract_id(const char *path, char *out, size_t size);

/* Warnings about a document that do not stop it (pages of images only):
 * where is "FILE: page N" or "FILE: pages N-M".  Progress: done steps of
 * total, a step being a page read (twice when a PDF's headings come from
 * its type), done 1 at the start of each document; bytes of text so far. */
struct ev_extract_cb {
	void (*warn)(void *ctx, const char *where, const char *msg);
	void (*progress)(void *ctx, long done, long total, size_t bytes);
	void *ctx;
};

/* A document record being written.  Text is added in order; lines and pages
 * name offsets of the text added so far. */
struct ev_xrec {
	FILE *text;		/* the text, JSON-escaped (a temporary file) */
	FILE *lines;		/* metadata.lines' entries, comma-separated */
	FILE *pages;		/* metadata.pages' entries */
	size_t len;		/* bytes of text so far */
	long nlines, npages;
	int nl;			/* newlines at the end of the text so far (0..2) */
	int pending;		/* newlines to add before the next text (0..2) */
	int sticky;		/* an error happened (checked by ev_xrec_write()) */
	struct ev_buf tmp;
};

#define EV_XREC_INIT { NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, EV_BUF_INIT }

/* Start a record, reusing r's temporary files from a previous one.  Returns
 * 0, or -1 with *err set (code 1) when a temporary file cannot be made. */
int ev_xrec_begin(struct ev_xrec *r, struct ev_err *err);

/* Add s[0..n) (UTF-8; invalid sequences and NUL bytes become U+FFFD) to the
 * text.  Errors are sticky: see ev_xrec_write(). */
void ev_xrec_text(struct ev_xrec *r, const char *s, size_t n);

/* End the current line of the text when it has one ("\n"), then, when blank
 * is set, add a blank line (never two).  The new lines are added with the
 * next text, so the text never starts or ends with them. */
void ev_xrec_break(struct ev_xrec *r, int blank);

/* The offset in the text where the next text added will start. */
size_t ev_xrec_pos(const struct ev_xrec *r);

/* Add a line's entry to metadata.lines: text[start, end) is on page page,
 * inside bbox (x0, y0, x1, y1). */
void ev_xrec_line(struct ev_xrec *r, long page, size_t start, size_t end, const double bbox[4]);

/* Append v to b with at most two decimals and no trailing zeros ("72",
 * "122.1"), as boxes and page sizes are written.  Returns 0 or -1. */
int ev_extract_num(struct ev_buf *b, double v);

/* Add a page's entry to metadata.pages: text[start, end), its size in points. */
void ev_xrec_page(struct ev_xrec *r, long page, size_t start, size_t end, double width,
	double height);

/* Write the record to out as one line: the members of head (an object: id,
 * title), "text", the members of tail
 * (source_uri, ...), then "metadata": the members of meta followed by
 * "pages" and "lines" when any were added.  Pending new lines are dropped.  Returns 0, or -1 with *err set
 * (code 1: a temporary file or out failed, or memory ran out). */
int ev_xrec_write(struct ev_xrec *r, FILE *out, const json_t *head, const json_t *tail,
	const json_t *meta, struct ev_err *err);

/* Close r's temporary files (NULL-safe); r is EV_XREC_INIT again. */
void ev_xrec_release(struct ev_xrec *r);

/* Append s[0..n) to b with what would make a Markdown heading or code block
 * of it made literal by a backslash before it: a leading '#', a code fence
 * ("```", "~~~"), a line of '=' or '-' alone (a setext underline).  s is one
 * line of text (no newline).  Returns 0 or -1 (out of memory). */
int ev_extract_md_line(struct ev_buf *b, const char *s, size_t n);

#endif
