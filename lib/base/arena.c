/* arena.c: blocks of memory for the lines of one query.  See arena.h. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK (1u << 20)
#define SMALL_BLOCK 1024	/* the first block of a zeroed arena */

int
ev_arena_init(struct ev_arena *a)
{
	if ((a->first = malloc(sizeof *a->first + ARENA_BLOCK)) == NULL)
		return -1;
	a->first->next = NULL;
	a->first->cap = ARENA_BLOCK;
	a->first->used = 0;
	a->cur = a->first;
	return 0;
}

/* n bytes at an offset that is a multiple of align (1 or 16): from the
 * current block, else the next one kept from an earlier use, else a new
 * block after the current one (the first of a zeroed arena SMALL_BLOCK
 * bytes, each next twice the last up to ARENA_BLOCK, or n when more). */
static void *
take(struct ev_arena *a, size_t n, size_t align)
{
	struct ev_arena_block *b = a->cur, *nb;
	size_t at, cap;

	if (b != NULL) {
		at = (b->used + align - 1) & ~(align - 1);
		if (at <= b->cap && b->cap - at >= n) {
			b->used = at + n;
			return b->data + at;
		}
		if (b->next != NULL && b->next->cap >= n) {
			a->cur = b->next;
			a->cur->used = n;
			return a->cur->data;
		}
	}
	cap = b == NULL ? SMALL_BLOCK : b->cap >= ARENA_BLOCK / 2 ? ARENA_BLOCK : 2 * b->cap;
	if (cap < n)
		cap = n;
	if ((nb = malloc(sizeof *nb + cap)) == NULL)
		return NULL;
	nb->cap = cap;
	nb->used = n;
	if (b == NULL) {
		nb->next = NULL;
		a->first = nb;
	} else {
		nb->next = b->next;
		b->next = nb;
	}
	a->cur = nb;
	return nb->data;
}

void *
ev_arena_alloc(struct ev_arena *a, size_t n)
{
	return take(a, (n + 15) & ~(size_t)15, 16);
}

char *
ev_arena_copy(struct ev_arena *a, const void *s, size_t n)
{
	char *p;

	if (n == SIZE_MAX || (p = take(a, n + 1, 1)) == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
ev_arena_reset(struct ev_arena *a)
{
	if (a->first == NULL)
		return;
	a->cur = a->first;
	a->first->used = 0;
}

struct ev_arena_mark
ev_arena_mark(const struct ev_arena *a)
{
	struct ev_arena_mark m = { a->cur, a->cur->used };

	return m;
}

void
ev_arena_restore(struct ev_arena *a, struct ev_arena_mark m)
{
	a->cur = m.cur;
	a->cur->used = m.used;
}

void
ev_arena_free(struct ev_arena *a)
{
	struct ev_arena_block *b, *n;

	for (b = a->first; b != NULL; b = n) {
		n = b->next;
		free(b);
	}
	a->first = a->cur = NULL;
}
