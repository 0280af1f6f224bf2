/* chunk.h: splitting a document's text into chunks that follow its structure.
 *
 * Bottom layer: includes err.h, buf.h and utf8.h; knows nothing of JSON, the
 * store or the lanes.  Pure functions of (text, options): the same text
 * always gives the same sections, chunks and ids.
 *
 * Markdown: ATX headings ("## Linux") and one-line setext headings open
 * sections; a section's id is the slug of its heading path ("setup/linux"),
 * made unique within the document by "-2", "-3", ... in document order, so
 * editing one section never changes another's id.  Text before the first
 * heading is in section EV_CHUNK_TOP.  Within a section, blocks (paragraphs,
 * lists, fenced code blocks, pipe tables) are packed greedily into chunks of
 * at most `size` bytes: a block never shares a chunk with another section; a
 * paragraph or list that is too long is split between list items, else between
 * sentences, else between words; a code block is never split (it may exceed
 * `size`); a table is split between rows, and each later part carries the
 * table's header and delimiter rows before its own rows.  A chunk after a
 * split starts up to `overlap` bytes before the end of the previous chunk, at
 * a block, sentence or word start (never inside a code block or table).
 *
 * Plain text: paragraphs (blank-line separated) packed the same way, all in
 * section EV_CHUNK_TOP.
 *
 * Clauses (both formats): a line that starts (after up to 3 spaces) with a
 * clause number opens a section of its own under the current heading (or
 * the top), which ends at the next clause or heading, so that a clause is
 * cited and found again by its id.  Numbered clauses: "1.2" and "3.1.4" (two
 * or more numbers joined by dots, then white space, ':' or '.'; two numbers
 * only before a capital, '(' or the end of the line: "1.5 million" is not
 * one); "§ 3";
 * "Article", "Clause", "Paragraph", "Policy", "Rule" or "Section" and an id
 * of letters, digits and inner dots holding a digit ("Policy H2.1
 * Housing"), which, when it is digits alone, must end the line or be
 * followed by ':', '.', ')' or a dash ("Article 5: Liberty", but not
 * "Section 5 of the Act says").  Lettered clauses: "(a)", "(iv)", "(12)"
 * then white space, under the numbered clause before them in the same
 * heading.  A single number ("1. ") is a list item, not a clause.  The
 * clause id is the number as written ("1.2", "Policy H2.1", "§ 3"), a
 * lettered clause's prefixed by its numbered clause's ("1.2(a)"); the
 * section's id is its heading's id, '/', and the slug of the clause id
 * ("housing/policy-h2-1"; at the top, the slug alone), its path its
 * heading's path, " > " and the clause id ("Housing > Policy H2.1"), its
 * title its heading's title.
 *
 * Offsets are byte offsets into the text as given (UTF-8); a chunk's text is
 * exactly text[start, end), except a split table's later parts, whose text is
 * text[head_start, head_end) followed by text[start, end).  Line ends may be
 * LF or CRLF.  Chunks never start or end with white space. */
#ifndef EV_CHUNK_H
#define EV_CHUNK_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

enum ev_chunk_format {
	EV_CHUNK_TEXT = 0,	/* plain text: paragraphs only */
	EV_CHUNK_MARKDOWN = 1	/* headings, code fences, tables too */
};

#define EV_CHUNK_SIZE 1200	/* default target size, bytes */
#define EV_CHUNK_OVERLAP 200	/* default overlap, bytes */
#define EV_CHUNK_SIZE_MIN 64
#define EV_CHUNK_SIZE_MAX 10000000
#define EV_CHUNK_TOP "_top"	/* the section before the first heading */
#define EV_CHUNK_CLAUSE_MAX 64	/* a clause id's bytes, NUL included */

struct ev_chunk_opts {
	size_t size;		/* target chunk size in bytes, EV_CHUNK_SIZE_MIN.. */
	size_t overlap;		/* bytes, at most size / 2 */
	int format;		/* enum ev_chunk_format */
};

struct ev_section {
	char *id;		/* "setup/linux", or EV_CHUNK_TOP */
	char *title;		/* the heading's text ("Linux"), "" for the top */
	char *path;		/* "Setup > Linux", "" for the top */
	int level;		/* 1..6, 0 for the top; a clause's heading's + 1 */
	char *clause;		/* a clause's id ("1.2(a)"), or NULL */
};

struct ev_chunk {
	size_t section;		/* index into ev_chunks.sections */
	int index;		/* number within its section, from 0 */
	size_t start, end;	/* the chunk's original text: text[start, end) */
	size_t head_start, head_end;	/* a split table's header rows, carried
					 * before the text; equal when none */
};

struct ev_chunks {
	struct ev_section *sections;
	size_t nsections;
	struct ev_chunk *v;
	size_t n;
	char *title;		/* the first level-1 heading's text, or NULL */
	size_t cap_sections, cap_v;
};

#define EV_CHUNKS_INIT { NULL, 0, NULL, 0, NULL, 0, 0 }

/* Split text[0..len) into *out (which must be EV_CHUNKS_INIT or released).
 * Every section, even one without chunks, is listed in document order.
 * Returns 0, or -1 with *err set: out of memory (code 1) or options out of
 * range (code 2).  On failure *out holds nothing to free. */
int ev_chunk_split(const char *text, size_t len, const struct ev_chunk_opts *o,
	struct ev_chunks *out, struct ev_err *err);

/* Free what ev_chunk_split() allocated and reset *c to EV_CHUNKS_INIT
 * (NULL-safe). */
void ev_chunks_release(struct ev_chunks *c);

/* Append chunk c's text (header rows and original text) to out.  Returns 0 or
 * -1 (out of memory). */
int ev_chunk_text(const char *text, const struct ev_chunk *c, struct ev_buf *out);

/* The clause id a section path ends in (its last " > " part, when that is
 * a clause id as the chunker writes them: "Housing > 1.2(a)" -> "1.2(a)"),
 * as a pointer into path with its length in *len; NULL when none. */
const char *ev_chunk_clause_of(const char *path, size_t *len);

/* The slug of a heading for section ids: ASCII letters and digits lowercased,
 * other bytes >= 0x80 kept, every run of anything else one '-', no '-' at
 * either end, at most 60 bytes (cut at a character boundary); "section" when
 * nothing is left.  Writes a NUL-terminated string into out (61 bytes). */
void ev_chunk_slug(const char *s, size_t n, char out[61]);

#endif
