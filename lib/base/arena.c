/* arena.c: blocks of memory for the lines of one query.  See arena.h. */
#include "arena.h"

#include <stdlib.h>

#define ARENA_BLOCK (1u << 20)

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

void *
ev_arena_alloc(struct ev_arena *a, size_t n)
{
	struct ev_arena_block *b = a->cur, *nb;
	size_t cap;

	n = (n + 15) & ~(size_t)15;
	if (b->cap - b->used >= n) {
		b->used += n;
		return b->data + b->used - n;
	}
	if (b->next != NULL && b->next->cap >= n) {
		a->cur = b->next;
		a->cur->used = n;
		return a->cur->data;
	}
	cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
	if ((nb = malloc(sizeof *nb + cap)) == NULL)
		return NULL;
	nb->cap = cap;
	nb->used = n;
	nb->next = b->next;
	b->next = nb;
	a->cur = nb;
	return nb->data;
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
