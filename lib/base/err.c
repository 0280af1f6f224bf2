/* err.c: errors as values.  See err.h. */
#include "err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What stands for the bytes left out of a text too long for its field. */
#define ELLIPSIS " ... "

/* Put text[0..n) into dst (size bytes, NUL-terminated): whole when it fits,
 * else its beginning and its end with ELLIPSIS between, each cut at a
 * character's boundary (UTF-8), so that a message naming a long id or path
 * still ends with what went wrong and what to do next. */
static void
put_elided(char *dst, size_t size, const char *text, size_t n)
{
	size_t room = size - 1 - (sizeof ELLIPSIS - 1), head = room / 2, tail = n - (room - head);

	if (n < size) {
		memcpy(dst, text, n);
		dst[n] = '\0';
		return;
	}
	while (head > 0 && ((unsigned char)text[head] & 0xc0) == 0x80)
		head--;		/* (text[head] is the first byte left out) */
	while (tail < n && ((unsigned char)text[tail] & 0xc0) == 0x80)
		tail++;
	memcpy(dst, text, head);
	memcpy(dst + head, ELLIPSIS, sizeof ELLIPSIS - 1);
	memcpy(dst + head + sizeof ELLIPSIS - 1, text + tail, n - tail);
	dst[head + sizeof ELLIPSIS - 1 + n - tail] = '\0';
}

int
ev_err_vset(struct ev_err *err, int code, const char *where, const char *fmt, va_list ap)
{
	va_list again;
	char *whole;
	int n;

	if (err == NULL)
		return -1;
	err->code = code;
	ev_err_set_where(err, where);
	va_copy(again, ap);
	n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	/* Too long for msg: formatted again whole, then its middle left out
	 * (out of memory, it stays cut at its end). */
	if (n >= (int)sizeof err->msg && (whole = malloc((size_t)n + 1)) != NULL) {
		vsnprintf(whole, (size_t)n + 1, fmt, again);
		put_elided(err->msg, sizeof err->msg, whole, (size_t)n);
		free(whole);
	}
	va_end(again);
	return -1;
}

int
ev_err_set(struct ev_err *err, int code, const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ev_err_vset(err, code, where, fmt, ap);
	va_end(ap);
	return -1;
}

int
ev_err_big_int(struct ev_err *err, const char *where, size_t col, const char *num, size_t n)
{
	int digits = n > 0 && num[0] == '-' ? (int)n - 1 : (int)n;

	if (n <= 40)
		return ev_err_set(err, EV_EXIT_USAGE, where, "invalid JSON at column %zu: integer "
		    "%.*s beyond 64 bits; a real number is written with a '.' or an exponent (%.*s.0)",
		    col, (int)n, num, (int)n, num);
	return ev_err_set(err, EV_EXIT_USAGE, where, "invalid JSON at column %zu: integer %.20s... "
	    "(%d digits) beyond 64 bits; a real number is written with a '.' or an exponent", col,
	    num, digits);
}

void
ev_err_set_where(struct ev_err *err, const char *where)
{
	if (err != NULL)
		put_elided(err->where, sizeof err->where, where ? where : "", where ? strlen(where) : 0);
}

void
ev_err_clear(struct ev_err *err)
{
	if (err != NULL)
		memset(err, 0, sizeof *err);
}

int
ev_err_nomem(struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "out of memory");
}

const char *
ev_err_text(const struct ev_err *err, char *buf, int size)
{
	if (err->where[0] != '\0')
		snprintf(buf, size, "%s: %s", err->where, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
	return buf;
}
