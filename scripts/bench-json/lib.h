/* lib.h: the one interface bench-json.c drives each JSON library through
 * (Jansson and json-c cannot share a translation unit: both name a type
 * json_object). */
#ifndef BENCH_LIB_H
#define BENCH_LIB_H

#include <stddef.h>

struct jlib {
	const char *name;
	const char *(*version)(void);
	/* Parse one line; NULL when refused. */
	void *(*parse)(const char *text, size_t len);
	/* Write v compactly into buf (cap bytes); returns the length, 0 on failure. */
	size_t (*emit)(void *v, char *buf, size_t cap);
	void (*release)(void *v);
	/* Describe how text is refused: "col N: message", or "ACCEPTED". */
	void (*report)(const char *text, size_t len, char *out, size_t size);
};

extern const struct jlib lib_jansson, lib_jansson_lax, lib_jsonc, lib_cjson;

#endif
