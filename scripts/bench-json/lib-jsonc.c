/* lib-jsonc.c: json-c, a reused tokener in strict mode with UTF-8 checks. */
#include <stdio.h>
#include <json-c/json.h>

#include "lib.h"

#define FLAGS (JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8)

static struct json_tokener *tok;

static const char *
version(void)
{
	return json_c_version();
}

static void *
parse(const char *text, size_t len)
{
	json_object *v;

	if (tok == NULL) {
		tok = json_tokener_new();
		json_tokener_set_flags(tok, FLAGS);
	}
	json_tokener_reset(tok);
	v = json_tokener_parse_ex(tok, text, (int)len);
	if (v != NULL && json_tokener_get_parse_end(tok) != len) {
		json_object_put(v);
		v = NULL;
	}
	return v;
}

static size_t
emit(void *v, char *buf, size_t cap)
{
	size_t len = 0;

	(void)buf;
	(void)cap;
	json_object_to_json_string_length(v, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	return len;
}

static void
release(void *v)
{
	json_object_put(v);
}

static void
report(const char *text, size_t len, char *out, size_t size)
{
	struct json_tokener *t = json_tokener_new();
	json_object *v;
	enum json_tokener_error je;

	json_tokener_set_flags(t, FLAGS);
	v = json_tokener_parse_ex(t, text, (int)len);
	je = json_tokener_get_error(t);
	if (v != NULL && json_tokener_get_parse_end(t) == len)
		snprintf(out, size, "ACCEPTED");
	else if (v != NULL)
		snprintf(out, size, "col %zu: trailing text", json_tokener_get_parse_end(t) + 1);
	else if (je == json_tokener_continue)
		snprintf(out, size, "col %zu: incomplete, no error", json_tokener_get_parse_end(t) + 1);
	else
		snprintf(out, size, "col %zu: %s", json_tokener_get_parse_end(t) + 1,
		    json_tokener_error_desc(je));
	json_object_put(v);
	json_tokener_free(t);
}

const struct jlib lib_jsonc = { "json-c", version, parse, emit, release, report };
