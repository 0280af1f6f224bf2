/* extract_pdf.h: a PDF file into an evkit document record, with its pages,
 * its lines' boxes and its headings.
 *
 * Layer 4: includes extract.h.  Uses poppler (poppler-glib, GPL-2.0-or-later):
 * a program that calls this module is subject to the GPL (README "Licence").
 *
 * The text is each page's text in poppler's reading order (as pdftotext
 * without -layout gives it: columns one after another), one PDF text line a
 * line, a blank line between paragraphs (a vertical gap of more than 0.6 of a
 * line's height, or a move back up the page) and between pages.  Headings
 * become Markdown heading lines: those of the document outline when it has
 * one (an entry is matched to the line of its page holding the same words,
 * with or without a section number before them, or added where its
 * destination points on its page when no line does), else the lines set in
 * a style larger than the body text (the style holding the most characters)
 * by 15% or more, or bold where the body is not (at most 200 bytes, two
 * letters at least, no dot leaders of a table of contents), ranked
 * by size (bold first at equal sizes) into levels 1 to 6.  Found by style,
 * headings need a first pass over the pages to measure the body text.  An
 * outline is read to depth 64.
 *
 * metadata: "format": "pdf", "page_count", "pdf_title"/"author"/"subject"/
 * "keywords"/"created" when the file says, "headings": "outline" | "fonts",
 * "pages" and "lines" (see extract.h).  The record's title is the file's
 * Title when it has one, else its first heading. */
#ifndef EV_EXTRACT_PDF_H
#define EV_EXTRACT_PDF_H

#include <stdio.h>

#include "extract.h"

/* Read the PDF at path and write its record (id: id) to out, reusing r's
 * temporary files.  password opens an encrypted file (NULL: none).  cb (may
 * be NULL) hears of pages with images but no text (once for each run of
 * such pages) and of progress.  Returns the number of pages, or -1 with *err
 * set: code 2 for a file that cannot be opened or is not a readable PDF
 * (damaged beyond repair, encrypted without the right password), with
 * where = path; code 1 for an I/O failure (writing the record or the
 * temporary files) or memory running out.  Nothing is written to out on
 * failure. */
int ev_extract_pdf(const char *path, const char *id, const char *password,
	const struct ev_extract_cb *cb, struct ev_xrec *r, FILE *out, struct ev_err *err);

#endif
