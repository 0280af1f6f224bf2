/* lib-jansson.c: Jansson, with lib/base/jsonl.c's flags (and without the duplicate
 * key check, for comparison). */
#include <stdio.h>
#include <jansson.h>

#include "lib.h"

#define FLAGS (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES)

static const char *
version(void)
{
	return JANSSON_VERSION;
}

static void *
parse(const char *text, size_t len)
{
	return json_loadb(text, len, FLAGS, NULL);
}

/* The same without the duplicate-key check, to show what it costs. */
static void *
parse_lax(const char *text, size_t len)
{
	return json_loadb(text, len, JSON_DECODE_ANY, NULL);
}

static size_t
emit(void *v, char *buf, size_t cap)
{
	size_t n = json_dumpb(v, buf, cap, JSON_COMPACT);

	return n > cap ? 0 : n;
}

static void
release(void *v)
{
	json_decref(v);
}

static void
report(const char *text, size_t len, char *out, size_t size)
{
	json_error_t e;
	json_t *v = json_loadb(text, len, FLAGS, &e);

	if (v != NULL) {
		json_decref(v);
		snprintf(out, size, "ACCEPTED");
	} else
		snprintf(out, size, "col %d: %s", e.column, e.text);
}

const struct jlib lib_jansson = { "jansson", version, parse, emit, release, report };
const struct jlib lib_jansson_lax = { "jansson, duplicates allowed", version, parse_lax, emit,
	release, report };
