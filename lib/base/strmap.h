/* strmap.h: a map from NUL-terminated strings to ints (open addressing,
 * linear probing, doubled when half full).
 *
 * Bottom layer: includes nothing of evkit's.  Keys are borrowed: the map
 * keeps the caller's pointers, which must stay valid and unchanged while they
 * are in it.  The caller hashes each key (ev_hash_str64() of buf.h, say) and
 * passes the same hash for the same key every time.  A map is zeroed memory
 * until its first ev_strmap_put(). */
#ifndef EV_STRMAP_H
#define EV_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct ev_strmap {
	const char **keys;
	uint64_t *hs;		/* the keys' hashes */
	int *vals;
	size_t cap, len;
};

/* Forget every key, keeping the memory. */
void ev_strmap_reset(struct ev_strmap *m);

/* Free the memory and zero *m. */
void ev_strmap_release(struct ev_strmap *m);

/* The value of key (whose hash is h), or -1 when it is absent. */
int ev_strmap_get(const struct ev_strmap *m, const char *key, uint64_t h);

/* Set the value of key (whose hash is h) to val, adding the key when it is
 * absent.  Returns 0, or -1 when memory runs out (the map then as it was). */
int ev_strmap_put(struct ev_strmap *m, const char *key, uint64_t h, int val);

#endif
