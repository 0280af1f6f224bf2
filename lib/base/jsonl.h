/* jsonl.h: reading and writing JSON Lines (one JSON value a line), and typed
 * access to the fields of a record.
 *
 * Bottom layer: includes err.h and buf.h, and Jansson (the JSON library; see
 * docs/speed.md, "Why Jansson").  Knows nothing of the store, the lanes or Faiss. */
#ifndef EV_JSONL_H
#define EV_JSONL_H

#include <stdio.h>
#include <jansson.h>

#include "buf.h"
#include "err.h"

/* A reader over a list of inputs read one after another ("-" is stdin).
 * Lines of any length are accepted; a UTF-8 BOM at the start of an input and
 * a CR before the LF are ignored; a missing final newline is fine; blank lines
 * are skipped.  A NUL byte, invalid UTF-8 or invalid JSON is an error naming
 * FILE:LINE and the column (exit code 2). */
struct ev_jsonl;

/* Open a reader over paths[0..npaths-1]; npaths == 0 reads stdin.  Files are
 * opened lazily, so a missing file is reported when it is reached (exit 2,
 * as grep and jq do: naming a file that is not there is bad usage).
 * Returns NULL with *err set when out of memory, or when paths names
 * standard input twice (ev_jsonl_stdin_once()). */
struct ev_jsonl *ev_jsonl_open(char *const *paths, int npaths, struct ev_err *err);

/* Refuse paths[0..n) when they name standard input ("-") more than once: it
 * can be read only once (the second would read nothing).  Returns 0, or -1
 * with *err set (code 2, naming no place). */
int ev_jsonl_stdin_once(char *const *paths, int n, struct ev_err *err);

/* The size of a key ev_file_key() writes. */
#define EV_FILE_KEY_MAX 48

/* The key "DEV:INO" of the file path names ("-": standard input, by
 * fstat()), into key: 1, or 0 (key left as it was) when it is not a regular
 * file that stat() finds.  Two names of one file (x and ./x, a link to it,
 * "-" with it as standard input: `- x < x`) have one key, so that a reader
 * of named files can tell a file named twice. */
int ev_file_key(const char *path, char key[EV_FILE_KEY_MAX]);

/* Refuse paths[0..n), the files given to option (such as "--stats"), when
 * two of them name one file (ev_file_key()) or "-" comes twice (as
 * ev_jsonl_stdin_once(), naming option): a file read twice would count
 * twice.  Returns 0, or -1 with *err set (code 2, naming the later name,
 * the earlier one and option). */
int ev_input_distinct(const char *const *paths, size_t n, const char *option,
	struct ev_err *err);

/* Open the named input file path with fopen()'s mode, as every reader of
 * named inputs does: NULL with *err set, code 2 (bad usage, as a missing
 * JSON Lines input is) when it cannot be opened or is a directory (the
 * message then says it is not `what`, such as "a JSON Lines file"), code 1
 * when memory runs out. */
FILE *ev_input_open(const char *path, const char *mode, const char *what, struct ev_err *err);

/* Read the next value.  Returns 1 with *out set (the caller owns it:
 * json_decref()), 0 at the end of the last input, or -1 with *err set and
 * err->where naming FILE:LINE.  After an error, the next call goes on with
 * the following line (callers that offer --skip-invalid rely on this). */
int ev_jsonl_next(struct ev_jsonl *in, json_t **out, struct ev_err *err);

/* Read the next line as raw bytes, without parsing it (for commands that take
 * other line formats).  Returns 1 with *line and *len set (valid until the next
 * call), 0 at the end, -1 on an I/O error.  Blank lines are returned too. */
int ev_jsonl_next_line(struct ev_jsonl *in, const char **line, size_t *len, struct ev_err *err);

/* An observer of every line read by any reader (ev_jsonl_next_line(), and so
 * ev_jsonl_next()): the line (no newline, no BOM) and its number in its
 * input.  One for the process; NULL stops observing.  A command's --log
 * sees its inputs through it (toolrun.h). */
typedef void ev_jsonl_observer(void *ctx, const char *line, size_t len, size_t lineno);
void ev_jsonl_observe(ev_jsonl_observer *fn, void *ctx);

/* Whether the reader is known, without waiting, to have read its last
 * line: the current input is the last one and reading it now would give
 * its end.  0 when that cannot be told at once (a pipe or terminal with
 * nothing to read yet) or when more follows.  A byte it had to read to
 * tell is put back: the next read is unchanged. */
int ev_jsonl_at_end(struct ev_jsonl *in);

/* Is the line s[0..n) blank (spaces and tabs only), a line ev_jsonl_next()
 * passes over? */
int ev_jsonl_blank(const char *s, size_t n);

/* The name of the current input ("stdin" for "-") and its current line. */
const char *ev_jsonl_file(const struct ev_jsonl *in);
size_t ev_jsonl_lineno(const struct ev_jsonl *in);

/* Where the line last read (as ev_jsonl_next_line() gave it: after a
 * byte-order mark, before its end of line) begins in its input, so that
 * it can be read again with pread(); -1 when the input is no named regular
 * file (standard input, a pipe). */
long long ev_jsonl_line_offset(const struct ev_jsonl *in);

/* The current line's number in the whole input, the inputs read one after
 * another as one (as cat(1) joins them): the query_id of a query without
 * one (ev_query_record()), so that two files of bare strings give their
 * queries ids of their own, the ids a pipe from cat gives them. */
size_t ev_jsonl_seqno(const struct ev_jsonl *in);

/* "FILE:LINE" of the line last read, for messages. */
const char *ev_jsonl_where(const struct ev_jsonl *in);

/* Close every input and free the reader (NULL-safe). */
void ev_jsonl_close(struct ev_jsonl *in);

/* Parse one line of JSON (no newline).  Returns the value, or NULL with *err
 * set: where is `where`, the message names the column.  NUL bytes and invalid
 * UTF-8 are refused. */
json_t *ev_json_parse_line(const char *line, size_t len, const char *where, struct ev_err *err);

/* After a faster validating scanner (jscan.h) refused line[0..len) with
 * *err (code 2), replace its message by the one ev_json_parse_line() gives,
 * so that every command words bad input alike (unless Jansson takes the
 * line, when *err is left as it is).  Other codes are left alone. */
void ev_json_refused(const char *line, size_t len, const char *where, struct ev_err *err);

/* Writing. ev_out_init() decides once whether each record is flushed (when
 * stdout is a pipe or a socket, so that pipelines stream) or left to stdio's
 * buffering (a file).  ev_jsonl_write() writes v compactly and a newline.
 * Returns 0, or -1 with *err set on a write error (exit code 1). */
void ev_out_init(void);
int ev_jsonl_write(FILE *out, const json_t *v, struct ev_err *err);

/* Serialise v compactly into b (appending).  Returns 0 or -1 (out of memory). */
int ev_json_dump(struct ev_buf *b, const json_t *v);

/* Typed field access.  Each returns 1 when the field is present with the right
 * type (the value in *out), 0 when absent or null and not required (*out left
 * as it was), and -1 with *err set ("FILE:LINE: field 'k' must be a string")
 * when it has the wrong type, or is required and absent.  `where` names the
 * record for the message; strings stay owned by obj. */
int ev_field_str(const json_t *obj, const char *key, int required, const char **out,
	const char *where, struct ev_err *err);
int ev_field_num(const json_t *obj, const char *key, int required, double *out,
	const char *where, struct ev_err *err);
int ev_field_int(const json_t *obj, const char *key, int required, long long *out,
	const char *where, struct ev_err *err);
int ev_field_obj(const json_t *obj, const char *key, int required, json_t **out,
	const char *where, struct ev_err *err);
int ev_field_arr(const json_t *obj, const char *key, int required, json_t **out,
	const char *where, struct ev_err *err);

/* Is d a whole number that fits in 64 bits (3.0 is 3, as JavaScript writers
 * write 3; ev_field_int() reads an integer so)?  1 with *out set, else 0. */
int ev_json_whole(double d, long long *out);

/* Is v a whole number: an integer, or a real that is one (3.0, by
 * ev_json_whole())?  1 with *out set, else 0 (NULL, another type: 0). */
int ev_json_whole_value(const json_t *v, long long *out);

/* The member key of the object o (anything else: nothing), when a whole
 * number written as a real (3.0), made that integer, for the readers that
 * take an integer alone.  Returns 0, or -1 when out of memory. */
int ev_json_whole_member(json_t *o, const char *key);

/* A query id (or another id) as text, of any length, into b (emptied
 * first): a string as it is, an integer in decimal.  Returns 0, -1 when id
 * is absent or of another type, or -2 out of memory (b is then empty). */
int ev_json_id_buf(const json_t *id, struct ev_buf *b);

/* Give the query record rec its line number lineno as its query_id when it
 * has none or null (every lane's rule).  Returns 0, or -1 out of memory. */
int ev_query_id_default(json_t *rec, size_t lineno);

/* Set *err (code 2, at where) to the one message for a query_id of the
 * wrong type, which every command gives: "field 'query_id' must be a string
 * or an integer".  Returns -1. */
int ev_err_query_id(struct ev_err *err, const char *where);

/* Set *err (code 2, at where) to the one message for a chunk that one lane
 * lists twice among a query's hits, which every command that reads hits
 * gives: id, its lane (NULL: the hits name none), the query's id as text
 * qid, and where its first hit was read.  Returns -1. */
int ev_err_hit_twice(struct ev_err *err, const char *where, const char *id, const char *lane,
	const char *qid, const char *first);

/* Turn an input value into a query record (a line that is only a
 * JSON string is a query whose text is that string and whose query_id is its
 * line number; a record's absent or null query_id is its line number too).  Returns a new reference to an object with "query_id" and
 * "query" checked, or NULL with *err set (exit 2). */
json_t *ev_query_record(json_t *v, size_t lineno, const char *where, struct ev_err *err);

#endif
