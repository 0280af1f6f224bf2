/* err.h: errors as values, and the exit codes every command shares.
 *
 * Bottom layer: includes nothing of evkit.  lib/ never prints or exits; a
 * function that fails returns -1 (or NULL) and fills a struct ev_err, whose
 * code is the exit status the failure implies.  cmd/ reports it. */
#ifndef EV_ERR_H
#define EV_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Exit statuses, the same for every command (evkit(7) EXIT STATUS). */
enum ev_exit {
	EV_EXIT_OK = 0,		/* success */
	EV_EXIT_RUNTIME = 1,	/* I/O, database or index failure */
	EV_EXIT_USAGE = 2,	/* bad usage or bad input */
	EV_EXIT_THRESHOLD = 3	/* a quality gate was not met */
};

/* Room for a "FILE:LINE" of any path (PATH_MAX bytes) and line number: a
 * smaller buffer cut a long path's "where" before its line. */
#define EV_WHERE_MAX (4096 + 32)

/* An error: where it happened ("file.jsonl:17", or empty) and what happened
 * ("unterminated string in field 'text'"), lowercase, no full stop. */
struct ev_err {
	int code;		/* an enum ev_exit; 0 while no error is set */
	char where[256];
	char msg[768];
};

/* Set *err (which may be NULL) to code, where (may be NULL) and a printf-style
 * message.  A where or a message too long for its field keeps its beginning
 * and its end, " ... " between them.  Returns -1, so that `return
 * ev_err_set(...)` reads naturally. */
int ev_err_set(struct ev_err *err, int code, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* As ev_err_set(), with a va_list. */
int ev_err_vset(struct ev_err *err, int code, const char *where, const char *fmt, va_list ap);

/* Set *err (code 2, at where) to the one message for a JSON integer
 * num[0..n) (its digits, perhaps after '-') that is beyond 64 bits, at
 * column col of its line: valid JSON, which Jansson, and jscan.c as it
 * does, refuse; the message says how to write it as a real number.
 * Returns -1. */
int ev_err_big_int(struct ev_err *err, const char *where, size_t col, const char *num, size_t n);

/* Set where *err happened (NULL-safe; where may be NULL), as
 * ev_err_set() keeps a where too long for its field. */
void ev_err_set_where(struct ev_err *err, const char *where);

/* Clear *err (NULL-safe). */
void ev_err_clear(struct ev_err *err);

/* Set *err to "out of memory", exit code 1.  Returns -1. */
int ev_err_nomem(struct ev_err *err);

/* Format *err as "WHERE: WHAT" (or "WHAT" when where is empty) into buf. */
const char *ev_err_text(const struct ev_err *err, char *buf, int size);

#endif
