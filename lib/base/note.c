/* note.c: notes for the user from lib/.  See note.h. */
#include "note.h"

#include <stdarg.h>
#include <stdio.h>

void
ev_note(ev_note_fn *fn, void *ctx, const char *fmt, ...)
{
	char msg[4400];
	va_list ap;

	if (fn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fn(ctx, msg);
}
