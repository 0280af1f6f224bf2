/* extract_html.h: an HTML file's main text into an evkit document record,
 * as Markdown.
 *
 * Layer 4: includes extract.h.  Uses libxml2's HTML parser (MIT), which
 * reads any HTML a browser would, guessing at what is broken, and finds the
 * encoding from the file's BOM or <meta charset>.
 *
 * What is kept: the text of <main> when the page has one (all of them), else
 * of its <article> elements, else of <body>.  Left out wherever they are:
 * <script>, <style>, <noscript>, <template>, <nav>, <aside>, <form>,
 * <button>, <select>, <textarea>, <iframe>, <svg>, <canvas>, <object>,
 * <embed>, <dialog>, elements with the hidden attribute, aria-hidden="true"
 * or the role navigation, search or complementary; and <header> and
 * <footer> (and the roles banner and contentinfo) outside <main> and
 * <article>.  h1-h6 become Markdown headings of their
 * level; <pre> a fenced code block (its language from a "language-X" class),
 * kept whole by ev-ingest's chunker; <table> a pipe table (the first row is
 * the header; cells on one line, '|' escaped); <li> a "- " or "1. " item;
 * <blockquote> lines behind "> "; <br> a new line; other blocks paragraphs.
 * White space outside <pre> is collapsed as a browser does.
 *
 * The record's title is <title>, else the first <h1>; "language" is the
 * <html lang> attribute; metadata: "format": "html". */
#ifndef EV_EXTRACT_HTML_H
#define EV_EXTRACT_HTML_H

#include <stdio.h>

#include "extract.h"

/* Read the HTML file at path and write its record (id: id) to out, reusing
 * r's temporary files; cb (may be NULL) hears of a page without text.  Returns 0, or -1 with *err set (code 2: a file that
 * cannot be opened, or read as HTML, such as an empty one; code 1: writing
 * the record or the temporary files failed, or memory ran out).  The page is
 * held in memory as a tree while it is read.
 * Nothing is written to out on failure. */
int ev_extract_html(const char *path, const char *id, const struct ev_extract_cb *cb,
	struct ev_xrec *r, FILE *out, struct ev_err *err);

#endif
