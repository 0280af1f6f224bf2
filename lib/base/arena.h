/* arena.h: an arena of memory blocks, reset and reused as a whole (the lines
 * of one query, say): blocks kept from one use to the next.
 *
 * Bottom layer: includes nothing of evkit's.  An arena is made ready by
 * ev_arena_init() (a first block of 1 MiB), or is zeroed memory (its first
 * block, of 1 KiB, made by the first allocation; each next block twice the
 * last, up to 1 MiB).  What is allocated stays where it is until a reset. */
#ifndef EV_ARENA_H
#define EV_ARENA_H

#include <stddef.h>

struct ev_arena_block {
	struct ev_arena_block *next;
	size_t cap, used, pad;	/* the header keeps data 16-byte aligned */
	char data[];
};

struct ev_arena {
	struct ev_arena_block *first, *cur;
};

struct ev_arena_mark {
	struct ev_arena_block *cur;
	size_t used;
};

/* Make *a ready, with one block.  Returns 0, or -1 when out of memory. */
int ev_arena_init(struct ev_arena *a);

/* n bytes (rounded up to 16), or NULL when out of memory. */
void *ev_arena_alloc(struct ev_arena *a, size_t n);

/* A copy of s[0..n) followed by a NUL, packed (not aligned), or NULL when
 * out of memory. */
char *ev_arena_copy(struct ev_arena *a, const void *s, size_t n);

/* Free everything allocated, keeping the blocks. */
void ev_arena_reset(struct ev_arena *a);

/* Where the arena stands, to go back to with ev_arena_restore() (not for a
 * zeroed arena before its first allocation). */
struct ev_arena_mark ev_arena_mark(const struct ev_arena *a);

/* Free what was allocated since mark m was taken. */
void ev_arena_restore(struct ev_arena *a, struct ev_arena_mark m);

/* Free the blocks (the arena then as ev_arena_init() found it: NULL-safe
 * when the arena was zeroed). */
void ev_arena_free(struct ev_arena *a);

#endif
