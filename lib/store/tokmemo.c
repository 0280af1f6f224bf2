/* tokmemo.c: the tokens of texts met before.  See tokmemo.h. */
#include "tokmemo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

struct kept_tok {
	size_t term;		/* offset in terms */
	int len, start, end;
};

struct entry {
	uint32_t hash;
	size_t key, taglen, textlen;	/* key: tag, NUL, text, in keys */
	size_t tok0, ntoks;		/* in toks */
};

struct ev_tokmemo {
	size_t max_bytes;
	struct ev_buf keys, terms;
	struct kept_tok *toks;
	size_t ntoks, captoks;
	struct entry *entries;
	size_t nentries, capentries;
	uint32_t *slots;		/* entry index + 1; 0: empty */
	uint32_t nslots;		/* a power of two, over twice nentries */
	size_t rec_tok0, rec_term0;	/* the recording's start */
	int rec_failed;
};

struct ev_tokmemo *
ev_tokmemo_new(size_t max_bytes)
{
	struct ev_tokmemo *m = calloc(1, sizeof *m);

	if (m != NULL)
		m->max_bytes = max_bytes;
	return m;
}

void
ev_tokmemo_free(struct ev_tokmemo *m)
{
	if (m == NULL)
		return;
	ev_buf_release(&m->keys);
	ev_buf_release(&m->terms);
	free(m->toks);
	free(m->entries);
	free(m->slots);
	free(m);
}

/* The hash of tag and text: eight bytes of the text at a time (FNV-1a's
 * byte at a time costs a tenth of tokenising the text again). */
static uint32_t
hash_of(const char *tag, const char *text, size_t len)
{
	uint64_t h = (len + 1) * 0x9e3779b97f4a7c15ULL ^ ev_hash_fnv1a(tag, strlen(tag));
	uint64_t w;

	for (; len >= 8; text += 8, len -= 8) {
		memcpy(&w, text, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, text, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(h ^ (h >> 32));
}

/* The slot holding tag and text, or the empty slot where they would go. */
static uint32_t *
slot_of(struct ev_tokmemo *m, uint32_t h, const char *tag, const char *text, size_t len)
{
	size_t taglen = strlen(tag);

	for (uint32_t i = h & (m->nslots - 1);; i = (i + 1) & (m->nslots - 1)) {
		const struct entry *e;

		if (m->slots[i] == 0)
			return &m->slots[i];
		e = &m->entries[m->slots[i] - 1];
		if (e->hash == h && e->taglen == taglen && e->textlen == len &&
		    memcmp(m->keys.p + e->key, tag, taglen) == 0 &&
		    memcmp(m->keys.p + e->key + taglen + 1, text, len) == 0)
			return &m->slots[i];
	}
}

int
ev_tokmemo_replay(struct ev_tokmemo *m, const char *tag, const char *text, size_t len,
    ev_tokmemo_fn fn, void *ctx)
{
	const struct entry *e;
	uint32_t *s;

	if (m == NULL || m->nentries == 0)
		return 0;
	s = slot_of(m, hash_of(tag, text, len), tag, text, len);
	if (*s == 0)
		return 0;
	e = &m->entries[*s - 1];
	for (size_t i = 0; i < e->ntoks; i++) {
		const struct kept_tok *t = &m->toks[e->tok0 + i];

		if (fn(ctx, m->terms.p + t->term, t->len, t->start, t->end) != 0)
			break;
	}
	return 1;
}

/* Drop everything kept. */
static void
clear(struct ev_tokmemo *m)
{
	ev_buf_reset(&m->keys);
	ev_buf_reset(&m->terms);
	m->ntoks = 0;
	m->nentries = 0;
	if (m->slots != NULL)
		memset(m->slots, 0, m->nslots * sizeof *m->slots);
}

void
ev_tokmemo_begin(struct ev_tokmemo *m)
{
	if (m == NULL)
		return;
	m->ntoks = m->rec_tok0;		/* drop a recording not kept */
	m->terms.len = m->rec_term0;
	m->rec_failed = 0;
	if (m->keys.len + m->terms.len + m->ntoks * sizeof *m->toks +
	    m->nentries * (sizeof *m->entries + 2 * sizeof *m->slots) > m->max_bytes) {
		clear(m);
		m->rec_tok0 = m->rec_term0 = 0;
	}
}

void
ev_tokmemo_add(struct ev_tokmemo *m, const char *term, int len, int start, int end)
{
	if (m == NULL || m->rec_failed)
		return;
	if (ev_grow(&m->toks, &m->captoks, m->ntoks, sizeof *m->toks, 1024) == -1 ||
	    ev_buf_add(&m->terms, term, (size_t)len) == -1) {
		m->rec_failed = 1;
		return;
	}
	m->toks[m->ntoks++] = (struct kept_tok){ m->terms.len - (size_t)len, len, start, end };
}

/* Make the table's slots at least twice the entries (and one more). */
static int
grow_slots(struct ev_tokmemo *m)
{
	uint32_t n = m->nslots ? m->nslots : 1024, *slots;

	if ((m->nentries + 1) * 2 < m->nslots)
		return 0;
	while ((m->nentries + 1) * 2 >= n)
		n *= 2;
	if ((slots = calloc(n, sizeof *slots)) == NULL)
		return -1;
	free(m->slots);
	m->slots = slots;
	m->nslots = n;
	for (size_t i = 0; i < m->nentries; i++) {
		uint32_t j = m->entries[i].hash & (n - 1);

		while (slots[j] != 0)
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	return 0;
}

void
ev_tokmemo_keep(struct ev_tokmemo *m, const char *tag, const char *text, size_t len)
{
	uint32_t h, *s;
	size_t key, taglen;

	if (m == NULL)
		return;
	h = hash_of(tag, text, len);
	taglen = strlen(tag);
	key = m->keys.len;
	if (m->rec_failed || m->nentries >= UINT32_MAX / 4 || grow_slots(m) == -1 ||
	    *(s = slot_of(m, h, tag, text, len)) != 0 ||
	    ev_grow(&m->entries, &m->capentries, m->nentries, sizeof *m->entries, 256) == -1 ||
	    ev_buf_add(&m->keys, tag, taglen + 1) == -1 || ev_buf_add(&m->keys, text, len) == -1) {
		m->keys.len = key;
		ev_tokmemo_begin(m);
		return;
	}
	m->entries[m->nentries] = (struct entry){ h, key, taglen, len, m->rec_tok0,
						  m->ntoks - m->rec_tok0 };
	*s = (uint32_t)++m->nentries;
	m->rec_tok0 = m->ntoks;
	m->rec_term0 = m->terms.len;
}
