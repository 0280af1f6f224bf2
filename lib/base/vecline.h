/* vecline.h: a fast reader of vector records, the JSON Lines of
 * {"id": ..., "vector": [...], "model": ...} that ev-embed writes and
 * ev-embed-load reads by the hundred thousand.
 *
 * Low layer: its code includes buf.h (ev_grow()) and utf8.h only.  It
 * recognises the common case only, and says so; the caller parses every
 * other line with Jansson (ev_json_parse_line()), which then gives the
 * record or the exact error.  So a line is never accepted here that Jansson
 * would refuse. */
#ifndef EV_VECLINE_H
#define EV_VECLINE_H

#include <stddef.h>

struct ev_vecline {
	char *id;		/* the "id", NUL-terminated */
	char *model;		/* the "model" when has_model */
	int has_model;
	float *v;		/* the "vector": dim floats */
	size_t dim;
	char *hash;		/* the "content_hash" when has_hash */
	int has_hash;
	/* private */
	size_t id_cap, model_cap, v_cap, hash_cap;
};

#define EV_VECLINE_INIT { NULL, NULL, 0, NULL, 0, NULL, 0, 0, 0, 0, 0 }

/* Parse line[0..len).  Returns 1 when it is a JSON object (valid by RFC 8259)
 * with an "id" and a "vector", and maybe a "model" and a "content_hash", the strings without
 * escapes and the vector an array of numbers: their values are then in *r
 * (valid until the next call), the other members skipped.  Returns 0 for anything else (other
 * types, \u escapes, integers beyond 64 bits, real overflow, nesting deeper
 * than 64, invalid UTF-8, NUL bytes, malformed JSON), and -1 when memory
 * runs out. */
int ev_vecline_parse(struct ev_vecline *r, const char *line, size_t len);

/* Free what *r holds (NULL-safe) and return it to EV_VECLINE_INIT. */
void ev_vecline_release(struct ev_vecline *r);

#endif
