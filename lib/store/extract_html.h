/* extract_html.h: an HTML file's main text into an evkit document record,
 * as Markdown.
 *
 * Layer 4: includes extract.h.  Uses libxml2's HTML parser (MIT), which
 * reads any HTML a browser would, guessing at what is broken, and uchardet
 * (MPL-1.1, GPL-2+ or LGPL-2.1+) to guess an encoding nobody declared.
 *
 * The encoding is found as a browser finds it (ev_html_encoding()): a
 * byte-order mark, else the <meta charset> or <meta http-equiv
 * content="...; charset=X"> of the first 1024 bytes, else UTF-8 when the
 * file is valid UTF-8, else uchardet's guess (windows-1252 when it has
 * none), which is told as a warning; a declared encoding iconv does not
 * know is passed over, one declaring UTF-16 means UTF-8, and the labels of
 * ASCII and ISO-8859-1 (-9, -11), declared or guessed, name windows-1252
 * (-1254, -874), as browsers read them.  The page is
 * decoded before libxml2 reads it: a byte that is no character of the
 * encoding is one U+FFFD, the text after it read on.  A file with binary
 * bytes (NUL, or a control character other than tab, new line, form feed,
 * carriage return and escape in its first 1024 bytes) is refused whatever
 * its name.
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
 * <html lang> attribute when it is a language code (ev_analyze_norm()),
 * else absent; metadata: "format": "html". */
#ifndef EV_EXTRACT_HTML_H
#define EV_EXTRACT_HTML_H

#include <stdio.h>

#include "extract.h"

/* How ev_html_encoding() found a page's encoding. */
enum ev_html_found {
	EV_HTML_BOM,		/* its byte-order mark */
	EV_HTML_DECLARED,	/* a <meta> in its first 1024 bytes */
	EV_HTML_UTF8,		/* none declared; the bytes are valid UTF-8 */
	EV_HTML_GUESSED		/* none declared, not UTF-8: uchardet's guess */
};

/* The encoding of the page s[0..n), as above: its name (as declared, or
 * "UTF-8", "UTF-16LE", "UTF-16BE", or uchardet's, else "WINDOWS-1252";
 * the labels above by the encoding browsers read them as)
 * into name (size bytes, cut short to fit) and how it was found. */
enum ev_html_found ev_html_encoding(const char *s, size_t n, char *name, size_t size);

/* The offset of the first byte in s[0..n) that no text holds (as
 * ev_html_encoding()'s header says), or n when there is none.  A page of
 * UTF-16 (with its byte-order mark) holds NUL bytes: not checked. */
size_t ev_html_binary_at(const char *s, size_t n);

/* Read the HTML file at path and write its record (id: id) to out, reusing
 * r's temporary files; cb (may be NULL) hears of a page without text and of
 * an encoding that was guessed.  Returns 0, or -1 with *err set (code 2: a
 * file that cannot be opened, or read as HTML, such as an empty one or one
 * of binary bytes (named by line and column); code 1: writing
 * the record or the temporary files failed, or memory ran out).  The page is
 * held in memory as a tree while it is read.
 * Nothing is written to out on failure. */
int ev_extract_html(const char *path, const char *id, const struct ev_extract_cb *cb,
	struct ev_xrec *r, FILE *out, struct ev_err *err);

#endif
