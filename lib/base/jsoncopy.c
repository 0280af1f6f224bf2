/* jsoncopy.c: copies of Jansson values that fail whole.  See jsoncopy.h. */
#include "jsoncopy.h"

#include "buf.h"
#include "utf8.h"

#define DEPTH_MAX 10000

static json_t *copy(const json_t *v, int deep, int depth);

static json_t *
copy_object(const json_t *v, int deep, int depth)
{
	json_t *o = json_object(), *m;
	const char *key;
	size_t len;

	if (o == NULL)
		return NULL;
	json_object_keylen_foreach((json_t *)v, key, len, m) {
		json_t *c = deep ? copy(m, 1, depth + 1) : json_incref(m);

		/* json_object_setn_new_nocheck() takes c, also when it fails */
		if (c == NULL || json_object_setn_new_nocheck(o, key, len, c) == -1) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *
copy_array(const json_t *v, int deep, int depth)
{
	json_t *a = json_array(), *m;
	size_t i;

	if (a == NULL)
		return NULL;
	json_array_foreach(v, i, m) {
		json_t *c = deep ? copy(m, 1, depth + 1) : json_incref(m);

		if (c == NULL || json_array_append_new(a, c) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
copy(const json_t *v, int deep, int depth)
{
	if (v == NULL || depth > DEPTH_MAX)
		return NULL;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return copy_object(v, deep, depth);
	case JSON_ARRAY:
		return copy_array(v, deep, depth);
	case JSON_STRING:
		return json_stringn_nocheck(json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		return json_integer(json_integer_value(v));
	case JSON_REAL:
		return json_real(json_real_value(v));
	default:		/* true, false, null: singletons */
		return json_incref((json_t *)v);
	}
}

int
ev_jsoncopy_update(json_t *o, const json_t *other, int missing_only)
{
	const char *key;
	size_t len;
	json_t *m;

	if (!json_is_object(o) || !json_is_object(other))
		return -1;
	json_object_keylen_foreach((json_t *)other, key, len, m) {
		if (missing_only && json_object_getn(o, key, len) != NULL)
			continue;
		if (json_object_setn_nocheck(o, key, len, m) == -1)
			return -1;
	}
	return 0;
}

json_t *
ev_jsoncopy_shallow(const json_t *v)
{
	return copy(v, 0, 0);
}

json_t *
ev_jsoncopy_deep(const json_t *v)
{
	return copy(v, 1, 0);
}

json_t *
ev_jsoncopy_text(const char *s, size_t n)
{
	struct ev_buf b = EV_BUF_INIT;
	json_t *v;
	size_t ok;

	if (ev_utf8_bad(s, n) == n)
		return json_stringn(s, n);
	while (n > 0) {
		ok = ev_utf8_bad(s, n);
		if (ev_buf_add(&b, s, ok) == -1 || (ok < n && ev_buf_adds(&b, "\xEF\xBF\xBD") == -1)) {
			ev_buf_release(&b);
			return NULL;
		}
		ok += ok < n;	/* (the byte replaced) */
		s += ok;
		n -= ok;
	}
	v = json_stringn(b.p ? b.p : "", b.len);
	ev_buf_release(&b);
	return v;
}
