/* strmap.c: a set of byte strings, numbered in order of first sight.  See
 * strmap.h. */
#include "strmap.h"

#include <stdlib.h>

#define FIRST_SLOTS 64
#define FIRST_KEYS 32

/* Slots for cap keys (a power of two), every key placed again.  Returns 0,
 * or -1 when out of memory (the map as it was). */
static int
reslot(struct ev_strmap *m, uint32_t cap)
{
	struct ev_strmap_slot *s = malloc((size_t)cap * sizeof *s);
	uint32_t i, j;

	if (s == NULL)
		return -1;
	memset(s, 0xff, (size_t)cap * sizeof *s);	/* every id -1 */
	for (i = 0; i < m->cap; i++) {
		if (m->slots[i].id < 0)
			continue;
		j = (uint32_t)m->hash[m->slots[i].id] & (cap - 1);
		while (s[j].id >= 0)
			j = (j + 1) & (cap - 1);
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->cap = cap;
	return 0;
}

/* Room for one more key in key, len and hash.  Returns 0 or -1 (the map as it
 * was). */
static int
make_room(struct ev_strmap *m)
{
	uint32_t room = m->room ? 2 * m->room : FIRST_KEYS, *ln;
	const char **key;
	uint64_t *hash;

	if (m->n < m->room)
		return 0;
	if ((key = realloc(m->key, (size_t)room * sizeof *key)) == NULL)
		return -1;
	m->key = key;
	if ((ln = realloc(m->len, (size_t)room * sizeof *ln)) == NULL)
		return -1;
	m->len = ln;
	if ((hash = realloc(m->hash, (size_t)room * sizeof *hash)) == NULL)
		return -1;
	m->hash = hash;
	m->room = room;
	return 0;
}

int32_t
ev_strmap_add_h(struct ev_strmap *m, const void *key, size_t len, uint64_t h, int *added)
{
	int32_t id = ev_strmap_find_h(m, key, len, h);
	uint32_t i;

	if (added != NULL)
		*added = 0;
	if (id >= 0)
		return id;
	if (m->n >= INT32_MAX || len > UINT32_MAX)
		return -1;
	if ((m->n + 1) * 2 > m->cap) {
		if (m->cap > UINT32_MAX / 2 || reslot(m, m->cap ? 2 * m->cap : FIRST_SLOTS) == -1)
			return -1;
	}
	if (make_room(m) == -1 || (m->key[m->n] = ev_arena_copy(&m->pool, key, len)) == NULL)
		return -1;
	m->len[m->n] = (uint32_t)len;
	m->hash[m->n] = h;
	for (i = (uint32_t)h & (m->cap - 1); m->slots[i].id >= 0; i = (i + 1) & (m->cap - 1))
		;
	m->slots[i].hash = (uint32_t)(h >> 32);
	m->slots[i].id = (int32_t)m->n;
	if (added != NULL)
		*added = 1;
	return (int32_t)m->n++;
}

int32_t
ev_strmap_add(struct ev_strmap *m, const void *key, size_t len, int *added)
{
	return ev_strmap_add_h(m, key, len, ev_strmap_hash(key, len), added);
}

/* The key added last was placed after every other (a growth places the keys
 * again before the new one is placed), so no other key's probe runs through
 * its slot: emptying the slot leaves the map as it was before the add. */
void
ev_strmap_drop_last(struct ev_strmap *m)
{
	uint32_t i;

	if (m->n == 0)
		return;
	m->n--;
	for (i = (uint32_t)m->hash[m->n] & (m->cap - 1); m->slots[i].id != (int32_t)m->n;
	    i = (i + 1) & (m->cap - 1))
		;
	m->slots[i].id = -1;
}

void
ev_strmap_reset(struct ev_strmap *m)
{
	if (m->n > 0)
		memset(m->slots, 0xff, (size_t)m->cap * sizeof *m->slots);
	m->n = 0;
	ev_arena_reset(&m->pool);
}

void
ev_strmap_release(struct ev_strmap *m)
{
	if (m == NULL)
		return;
	free(m->slots);
	free(m->key);
	free(m->len);
	free(m->hash);
	ev_arena_free(&m->pool);
	memset(m, 0, sizeof *m);
}
