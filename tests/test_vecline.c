/* Tests of lib/base/vecline.c: the fast reader never accepts what Jansson refuses,
 * and reads what it accepts exactly as Jansson does. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "vecline.h"

/* line must give 1 and these values, agreeing with Jansson's parse. */
static void
accepted(const char *line, const char *id, const char *model, size_t dim, const float *v)
{
	struct ev_vecline r = EV_VECLINE_INIT;
	json_t *j = json_loadb(line, strlen(line), 0, NULL);

	cr_assert_not_null(j, "jansson refuses %s", line);
	cr_assert_eq(ev_vecline_parse(&r, line, strlen(line)), 1, "%s", line);
	cr_assert_str_eq(r.id, id);
	cr_assert_str_eq(json_string_value(json_object_get(j, "id")), id);
	cr_assert_eq(r.has_model, model != NULL);
	if (model)
		cr_assert_str_eq(r.model, model);
	cr_assert_eq(r.dim, dim);
	cr_assert_eq(json_array_size(json_object_get(j, "vector")), dim);
	for (size_t i = 0; i < dim; i++) {
		cr_assert_eq(r.v[i], v[i], "%s: component %zu", line, i);
		cr_assert_eq((float)json_number_value(json_array_get(json_object_get(j, "vector"), i)),
			v[i]);
	}
	json_decref(j);
	ev_vecline_release(&r);
}

static void
declined(const char *line, size_t len)
{
	struct ev_vecline r = EV_VECLINE_INIT;

	cr_assert_eq(ev_vecline_parse(&r, line, len), 0, "%.*s", (int)len, line);
	ev_vecline_release(&r);
}

#define DECLINED(s) declined(s, sizeof s - 1)

Test(vecline, reads_the_common_record)
{
	accepted("{\"id\":\"a:b:0\",\"vector\":[1,-0.5,2e-3,0],\"model\":\"m\"}", "a:b:0", "m", 4,
		(float[]){ 1, -0.5f, 2e-3f, 0 });
	accepted(" { \"model\" : \"lsa\" , \"vector\" : [ ] , \"id\" : \"x\" } ", "x", "lsa", 0, NULL);
	accepted("{\"id\":\"\xc3\xa9\",\"text\":\"a \\\"b\\\" \\n\",\"n\":{\"a\":[true,false,null,-0.0,"
		"1E+2]},\"vector\":[0.1]}", "\xc3\xa9", NULL, 1, (float[]){ 0.1f });
	accepted("{\"id\":\"first\",\"id\":\"last\",\"vector\":[1],\"vector\":[2,3]}", "last", NULL, 2,
		(float[]){ 2, 3 });
	accepted("{\"id\":\"x\",\"vector\":[1e39,1e-50]}", "x", NULL, 2, (float[]){ INFINITY, 0 });
}

Test(vecline, leaves_everything_else_to_jansson)
{
	DECLINED("");
	DECLINED("[1,2]");
	DECLINED("\"text\"");
	DECLINED("{\"vector\":[1]}");			/* no id */
	DECLINED("{\"id\":\"x\"}");			/* no vector */
	DECLINED("{\"id\":\"x\",\"vector\":[1,\"2\"]}");
	DECLINED("{\"id\":\"x\",\"vector\":null}");
	DECLINED("{\"id\":null,\"vector\":[1]}");
	DECLINED("{\"id\":\"a\\u0041\",\"vector\":[1]}");
	DECLINED("{\"id\":\"a\\nb\",\"vector\":[1]}");
	DECLINED("{\"i\\u0064\":\"a\",\"vector\":[1]}");
	DECLINED("{\"id\":\"x\",\"t\":\"\\ud800\",\"vector\":[1]}");
	DECLINED("{\"id\":\"x\",\"vector\":[NaN]}");
	DECLINED("{\"id\":\"x\",\"vector\":[Infinity]}");
	DECLINED("{\"id\":\"x\",\"vector\":[1e999]}");
	DECLINED("{\"id\":\"x\",\"vector\":[01]}");
	DECLINED("{\"id\":\"x\",\"vector\":[1.]}");
	DECLINED("{\"id\":\"x\",\"vector\":[.5]}");
	DECLINED("{\"id\":\"x\",\"vector\":[+1]}");
	DECLINED("{\"id\":\"x\",\"vector\":[1,]}");
	DECLINED("{\"id\":\"x\",\"n\":123456789012345678901,\"vector\":[1]}");
	DECLINED("{\"id\":\"x\",\"vector\":[1]} x");
	DECLINED("{\"id\":\"x\",\"vector\":[1]");
	DECLINED("{\"id\":\"x\",\"vector\":[1],}");
	DECLINED("{\"id\":\"x\" \"vector\":[1]}");
	DECLINED("{\"id\":\"\xff\",\"vector\":[1]}");
	DECLINED("{\"id\":\"\xc0\xaf\",\"vector\":[1]}");
	DECLINED("{\"id\":\"\xed\xa0\x80\",\"vector\":[1]}");
	DECLINED("{\"id\":\"x\0\",\"vector\":[1]}");
	DECLINED("{\"id\":\"x\",\"t\":\"a\tb\",\"vector\":[1]}");
	DECLINED("{\"id\":\"x\",\"t\":tru,\"vector\":[1]}");
	{
		char deep[300];
		memset(deep, '[', sizeof deep);
		memcpy(deep, "{\"id\":\"x\",\"vector\":[1],\"d\":", 28);
		declined(deep, sizeof deep);
	}
}

Test(vecline, agrees_with_jansson_on_every_prefix_of_a_record)
{
	static const char rec[] = "{\"id\":\"d1:s1:0\",\"vector\":[0.25,-1e-3,7],\"model\":\"m1\","
		"\"x\":{\"y\":[null,true]}}";

	for (size_t n = 0; n < sizeof rec - 1; n++) {
		struct ev_vecline r = EV_VECLINE_INIT;
		json_t *j = json_loadb(rec, n, 0, NULL);
		int got = ev_vecline_parse(&r, rec, n);
		cr_assert(got == 0 || j != NULL, "accepted a prefix Jansson refuses: %.*s", (int)n, rec);
		json_decref(j);
		ev_vecline_release(&r);
	}
}
