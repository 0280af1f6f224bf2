/* fuzz_chunk.c: libFuzzer target for the chunker (lib/store/chunk.h).
 * requires: lib/store/chunk.h */
/* The first two bytes choose the format and the size and overlap; the rest is
 * the document text.  Whatever the text, ev_chunk_split() either fails with
 * a message or returns chunks whose ranges lie inside the text, whose
 * sections exist, and whose text can be built; slugs are NUL-terminated and
 * at most 60 bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chunk.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_chunk_opts o;
	struct ev_chunks c = EV_CHUNKS_INIT;
	struct ev_err err = { 0 };
	struct ev_buf b = EV_BUF_INIT;
	const char *text;
	size_t len, i;
	char slug[61];

	if (size < 2)
		return 0;
	o.format = data[0] & 1 ? EV_CHUNK_MARKDOWN : EV_CHUNK_TEXT;
	o.size = EV_CHUNK_SIZE_MIN + (size_t)(data[1] & 0x7f) * 8;
	o.overlap = (data[0] >> 1) % 4 == 0 ? 0 : o.size / ((data[0] >> 1) % 4 + 1);
	if (o.overlap > o.size / 2)
		o.overlap = o.size / 2;
	text = (const char *)data + 2;
	len = size - 2;
	if (ev_chunk_split(text, len, &o, &c, &err) == -1) {
		if (err.msg[0] == '\0' || (err.code != 1 && err.code != 2))
			abort();
		return 0;
	}
	for (i = 0; i < c.nsections; i++)
		if (c.sections[i].id == NULL || c.sections[i].title == NULL || c.sections[i].path == NULL ||
		    c.sections[i].level < 0 || c.sections[i].level > 6)
			abort();
	for (i = 0; i < c.n; i++) {
		const struct ev_chunk *k = &c.v[i];

		if (k->start > k->end || k->end > len || k->head_start > k->head_end ||
		    k->head_end > len || k->section >= c.nsections || k->index < 0)
			abort();
		ev_buf_reset(&b);
		if (ev_chunk_text(text, k, &b) == -1)
			abort();
	}
	ev_buf_release(&b);
	ev_chunks_release(&c);
	ev_chunk_slug(text, len, slug);
	if (memchr(slug, '\0', sizeof slug) == NULL || strlen(slug) > 60 || slug[0] == '\0')
		abort();
	return 0;
}
