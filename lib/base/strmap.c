/* strmap.c: a map from strings to ints.  See strmap.h. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

void
ev_strmap_reset(struct ev_strmap *m)
{
	if (m->keys != NULL && m->len > 0)
		memset(m->keys, 0, m->cap * sizeof *m->keys);
	m->len = 0;
}

void
ev_strmap_release(struct ev_strmap *m)
{
	free(m->keys);
	free(m->hs);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* The slot of key (whose hash is h): its own, or the empty one where it
 * would go. */
static size_t
map_slot(const struct ev_strmap *m, const char *key, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->keys[i] != NULL && (m->hs[i] != h || strcmp(m->keys[i], key) != 0))
		i = (i + 1) & (m->cap - 1);
	return i;
}

int
ev_strmap_get(const struct ev_strmap *m, const char *key, uint64_t h)
{
	size_t i;

	if (m->len == 0)
		return -1;
	i = map_slot(m, key, h);
	return m->keys[i] != NULL ? m->vals[i] : -1;
}

int
ev_strmap_put(struct ev_strmap *m, const char *key, uint64_t h, int val)
{
	size_t i, oldcap = m->cap;
	const char **ok = m->keys;
	uint64_t *oh = m->hs;
	int *ov = m->vals;

	if ((m->len + 1) * 2 > m->cap) {
		m->cap = oldcap ? oldcap * 2 : 64;
		m->keys = calloc(m->cap, sizeof *m->keys);
		m->hs = malloc(m->cap * sizeof *m->hs);
		m->vals = malloc(m->cap * sizeof *m->vals);
		if (m->keys == NULL || m->hs == NULL || m->vals == NULL) {
			free(m->keys);
			free(m->hs);
			free(m->vals);
			m->keys = ok;
			m->hs = oh;
			m->vals = ov;
			m->cap = oldcap;
			return -1;
		}
		for (i = 0; i < oldcap; i++)
			if (ok[i] != NULL) {
				size_t j = map_slot(m, ok[i], oh[i]);
				m->keys[j] = ok[i];
				m->hs[j] = oh[i];
				m->vals[j] = ov[i];
			}
		free(ok);
		free(oh);
		free(ov);
	}
	i = map_slot(m, key, h);
	if (m->keys[i] == NULL)
		m->len++;
	m->keys[i] = key;
	m->hs[i] = h;
	m->vals[i] = val;
	return 0;
}
