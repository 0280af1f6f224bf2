/* lib-cjson.c: cJSON. */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "lib.h"

static const char *
version(void)
{
	return cJSON_Version();
}

static void *
parse(const char *text, size_t len)
{
	const char *end = NULL;
	cJSON *v = cJSON_ParseWithLengthOpts(text, len, &end, 0);

	if (v != NULL && (end == NULL || (size_t)(end - text) < len)) {
		cJSON_Delete(v);
		v = NULL;
	}
	return v;
}

static size_t
emit(void *v, char *buf, size_t cap)
{
	return cJSON_PrintPreallocated(v, buf, (int)cap, 0) ? strlen(buf) : 0;
}

static void
release(void *v)
{
	cJSON_Delete(v);
}

static void
report(const char *text, size_t len, char *out, size_t size)
{
	const char *end = NULL, *e;
	cJSON *v = cJSON_ParseWithLengthOpts(text, len, &end, 0);

	if (v != NULL && end != NULL && (size_t)(end - text) >= len)
		snprintf(out, size, "ACCEPTED");
	else if (v != NULL)
		snprintf(out, size, "col %td: trailing text", end - text + 1);
	else if ((e = cJSON_GetErrorPtr()) != NULL && e >= text && e <= text + len)
		snprintf(out, size, "col %td, no message", e - text + 1);
	else
		snprintf(out, size, "refused, no position");
	cJSON_Delete(v);
}

const struct jlib lib_cjson = { "cJSON", version, parse, emit, release, report };
