/* child.h: a helper program run by /bin/sh with a pipe each way, written to
 * and read from line by line under deadlines, so that a program that hangs
 * or quits is an error and never a hang or a kill.
 *
 * Bottom layer: includes err.h and buf.h.  Starting a child ignores SIGPIPE
 * for the process: a child that quits is an error, not a kill. */
#ifndef EV_CHILD_H
#define EV_CHILD_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "err.h"

struct ev_child;

/* The reasons a child failed, as the messages of *err say them. */
#define EV_CHILD_QUIT "it has quit"
#define EV_CHILD_LATE "no answer in time"

/* Start cmd with /bin/sh -c, its stdin and stdout piped to us (its stderr
 * is ours).  what names it in messages ("the judge", "the reranking
 * command").  Returns the child, or NULL with *err set (code 1). */
struct ev_child *ev_child_start(const char *cmd, const char *what, struct ev_err *err);

/* Milliseconds on a monotonic clock, for deadlines. */
double ev_child_now_ms(void);

/* Write s[0..len) to the child before the deadline (ev_child_now_ms()
 * based; a deadline of 0 means none), reading what it writes meanwhile so
 * that neither side can block the other.  Returns 0, or -1 with *err set
 * (code 1, the message the reason alone: EV_CHILD_QUIT, EV_CHILD_LATE or the
 * system's). */
int ev_child_send(struct ev_child *c, const char *s, size_t len, double deadline,
	struct ev_err *err);

/* The child's next line, without its newline, in *line and *len (valid
 * until the next call), awaited until the deadline.  Returns 1, 0 when the
 * child closed its output, or -1 with *err set (code 1, the message the
 * reason alone: EV_CHILD_LATE, a line over 16 MiB, the system's). */
int ev_child_line(struct ev_child *c, const char **line, size_t *len, double deadline,
	struct ev_err *err);

/* Whether the child has written what nobody asked for yet: bytes past the
 * line returned last, or output ready now (read without waiting).  Called
 * before a request to a child that answers one line per request line, it
 * tells an extra line (which would shift every later answer) from none.
 * Returns 1, 0, or -1 with *err set (code 1, as ev_child_line()). */
int ev_child_unasked(struct ev_child *c, struct ev_err *err);

/* Close the pipes, wait for the child until the deadline (0: for as long
 * as it takes), then kill it and what it runs, and free c (NULL is a
 * no-op).  Returns 0, or -1 with *err set (code 1) when it exited with a
 * non-zero status or was killed by a signal other than that kill. */
int ev_child_stop(struct ev_child *c, double deadline, struct ev_err *err);

#endif
