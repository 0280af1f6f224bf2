/* err.c: errors as values.  See err.h. */
#include "err.h"

#include <stdio.h>
#include <string.h>

int
ev_err_vset(struct ev_err *err, int code, const char *where, const char *fmt, va_list ap)
{
	if (err == NULL)
		return -1;
	err->code = code;
	snprintf(err->where, sizeof err->where, "%s", where ? where : "");
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
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
