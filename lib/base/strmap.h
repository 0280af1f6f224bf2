/* strmap.h: a set of byte strings, each numbered in order of first sight
 * (0, 1, 2 ...): the one string hash map of lib/.  A caller keeps what it
 * maps a string to in its own arrays, indexed by the string's number.
 *
 * Low layer: includes arena.h.  Keys are any bytes (NUL bytes too), given
 * with their length, and copied into the map's arena: the caller's memory is
 * never kept, and a copy stays where it is until ev_strmap_reset().  Each
 * copy is followed by a NUL, so that a key that has none is also a C
 * string.  Open addressing with linear probing, the
 * slots doubled when half full; each slot holds part of its key's hash, so
 * that a probe rarely compares keys.  A map is zeroed memory (or
 * EV_STRMAP_INIT) until its first ev_strmap_add(); it holds at most
 * INT32_MAX keys. */
#ifndef EV_STRMAP_H
#define EV_STRMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"

struct ev_strmap_slot {
	uint32_t hash;		/* the high half of the key's hash */
	int32_t id;		/* the key's number, or -1 when empty */
};

struct ev_strmap {
	struct ev_strmap_slot *slots;	/* cap of them */
	uint32_t cap;		/* a power of two, or 0 */
	uint32_t n;		/* keys */
	uint32_t room;		/* room in key, len and hash */
	const char **key;	/* per key: its copy, in pool */
	uint32_t *len;		/* per key: its length */
	uint64_t *hash;		/* per key: its hash (for growing the slots) */
	struct ev_arena pool;	/* the copies, each followed by a NUL */
};

#define EV_STRMAP_INIT { NULL, 0, 0, 0, NULL, NULL, NULL, { NULL, NULL } }

/* The hash of key[0..len) the map uses (FNV-1a, 64 bits: the same as
 * ev_hash_str64() of buf.h for a C string), for the _h functions below, when
 * one key is looked up in several maps. */
static inline uint64_t
ev_strmap_hash(const void *key, size_t len)
{
	const unsigned char *s = key;
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	return h;
}

/* The number of key[0..len), whose hash ev_strmap_hash() is h, or -1 when it
 * is absent. */
static inline int32_t
ev_strmap_find_h(const struct ev_strmap *m, const void *key, size_t len, uint64_t h)
{
	uint32_t i, hi = (uint32_t)(h >> 32);
	const struct ev_strmap_slot *s;

	if (m->n == 0)
		return -1;
	for (i = (uint32_t)h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		s = &m->slots[i];
		if (s->id < 0)
			return -1;
		if (s->hash == hi && m->len[s->id] == len &&
		    memcmp(m->key[s->id], key, len) == 0)
			return s->id;
	}
}

/* The number of key[0..len), or -1 when it is absent. */
static inline int32_t
ev_strmap_find(const struct ev_strmap *m, const void *key, size_t len)
{
	return ev_strmap_find_h(m, key, len, ev_strmap_hash(key, len));
}

/* The number of key[0..len) (hash h), the key copied in with the next number
 * (ev_strmap_count() before the call) when it is absent; *added (unless
 * NULL) says which.  Returns -1 when memory runs out or the map is full: the
 * map is then as it was. */
int32_t ev_strmap_add_h(struct ev_strmap *m, const void *key, size_t len, uint64_t h, int *added);

/* ev_strmap_add_h() with the key's hash computed. */
int32_t ev_strmap_add(struct ev_strmap *m, const void *key, size_t len, int *added);

/* Forget the key added last (number ev_strmap_count() - 1; nothing when the
 * map is empty), so that a caller whose next step failed can undo its add:
 * every other key keeps its number and is found as before, and the next key
 * added takes the number again.  Its copy's memory is kept until
 * ev_strmap_reset(). */
void ev_strmap_drop_last(struct ev_strmap *m);

/* The number of keys. */
static inline uint32_t
ev_strmap_count(const struct ev_strmap *m)
{
	return m->n;
}

/* The copy of key number id (0 <= id < ev_strmap_count()), followed by a
 * NUL; valid until ev_strmap_reset() or ev_strmap_release(). */
static inline const char *
ev_strmap_key(const struct ev_strmap *m, int32_t id)
{
	return m->key[id];
}

/* The length of key number id. */
static inline size_t
ev_strmap_len(const struct ev_strmap *m, int32_t id)
{
	return m->len[id];
}

/* Forget every key, keeping the memory (numbering starts again at 0). */
void ev_strmap_reset(struct ev_strmap *m);

/* Free the memory and return to EV_STRMAP_INIT (NULL-safe). */
void ev_strmap_release(struct ev_strmap *m);

#endif
