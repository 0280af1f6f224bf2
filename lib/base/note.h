/* note.h: what a lib/ module wants the user told (a warning, a count of what
 * was skipped), handed to the command as one line through a function of its
 * own, since lib/ does not talk to the user.
 *
 * Bottom layer: includes nothing of evkit. */
#ifndef EV_NOTE_H
#define EV_NOTE_H

/* A command's receiver of notes: msg is one line, without the program's
 * name or a newline. */
typedef void ev_note_fn(void *ctx, const char *msg);

/* Format a note as printf does (at most 4 KB; longer is cut) and hand it to
 * fn(ctx, msg); nothing when fn is NULL. */
void ev_note(ev_note_fn *fn, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
