/* packtext.h: an EvidencePack (pack.h) as a report for a terminal, and the
 * widths and prefixes of UTF-8 text it measures by.
 *
 * Includes buf.h and Jansson; reads the pack as JSON (packtext.c names
 * lanes as packstate.h does). */
#ifndef EV_PACKTEXT_H
#define EV_PACKTEXT_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"

/* The number of bytes of s that hold its first max characters, never ending
 * inside a UTF-8 sequence (characters as ev_utf8_decode() reads them: an
 * invalid byte counts as one). */
size_t ev_utf8_prefix(const char *s, size_t len, size_t max);

/* Render a pack as a readable report into b, wrapped to width columns: the
 * query, what was done and the warnings, then each evidence: its document's
 * title (the first time the document comes; later "(same document as N)") and
 * section, its full id, its lanes and scores, and its snippet (around its
 * first matched word when it is longer than four lines).  Widths are display
 * columns, whatever the locale: East Asian wide characters take two.
 * Returns 0 or -1 (out of memory). */
int ev_pack_render_text(const json_t *pack, size_t width, struct ev_buf *b);

/* The columns code point c takes on a terminal: 2 for East Asian wide and
 * full-width characters, 0 for combining and zero-width ones, else 1. */
int ev_pack_char_width(unsigned c);

/* The columns the UTF-8 text s[0..len) takes (ev_pack_char_width() of each
 * character; an invalid byte counts as one column). */
size_t ev_pack_text_width(const char *s, size_t len);

#endif
