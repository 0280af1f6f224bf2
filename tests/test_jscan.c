/* test_jscan.c: lib/base/jscan.c -- the strict scanner accepts exactly what
 * Jansson accepts (RFC 8259, UTF-8, no NUL, depth, integer and real range,
 * duplicate keys), records the spans of the top-level members, walks
 * validated text, compares and decodes raw strings, reads numbers as Jansson
 * reads them, and writes strings and numbers exactly as printf and Jansson
 * do. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jscan.h"
#include "test_util.h"

static struct ev_jscan js;

static void
release(void)
{
	ev_jscan_release(&js);
}

TestSuite(jscan, .fini = release);

static int
scan(const char *s, struct ev_err *err)
{
	return ev_jscan_value(&js, s, strlen(s), "t.jsonl:3", err);
}

static int
jansson_takes(const char *s, size_t len)
{
	json_error_t je;
	json_t *v;

	if (memchr(s, '\0', len) != NULL)
		return 0;
	v = json_loadb(s, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
	json_decref(v);
	return v != NULL;
}

static int
span_is(const char *p, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(p, want, n) == 0;
}

Test(jscan, records_the_raw_spans_of_top_level_members)
{
	struct ev_err err = { 0 };
	const char *s = " {\"id\" : \"a\\u00e9\", \"n\":[1, {\"x\":2}],\"s\\/k\":-0.50e+3,\"t\":true,\"z\":null} ";

	cr_assert_eq(scan(s, &err), EV_JOBJ, "%s", err.msg);
	cr_assert_eq(js.top.n, 5);
	cr_assert(span_is(js.top.m[0].key, js.top.m[0].klen, "id"));
	cr_assert(span_is(js.top.m[0].val, js.top.m[0].vlen, "\"a\\u00e9\""));
	cr_assert_eq(js.top.m[0].type, EV_JSTR);
	cr_assert(span_is(js.top.m[1].val, js.top.m[1].vlen, "[1, {\"x\":2}]"));
	cr_assert_eq(js.top.m[1].type, EV_JARR);
	cr_assert(span_is(js.top.m[2].key, js.top.m[2].klen, "s\\/k"));
	cr_assert_eq(js.top.m[2].kesc, 1);
	cr_assert_eq(js.top.m[2].type, EV_JREAL);
	cr_assert_eq(js.top.m[3].type, EV_JTRUE);
	cr_assert_eq(js.top.m[4].type, EV_JNULL);
	cr_assert_eq(scan("[1,2]", &err), EV_JARR);
	cr_assert_eq(js.top.n, 0);
	cr_assert_eq(scan("-12", &err), EV_JINT);
	cr_assert_eq(scan("\"x\"", &err), EV_JSTR);
}

/* A line the scanner refuses, and the message it must give. */
struct bad {
	const char *text;
	const char *msg;
};

/* Each of the n lines is refused as bad input (exit 2) at t.jsonl:3 with its message. */
static void
check_refused(const struct bad *bad, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ev_err err = { 0 };

		cr_assert_eq(scan(bad[i].text, &err), -1, "%s", bad[i].text);
		cr_assert_eq(err.code, EV_EXIT_USAGE);
		cr_assert_str_eq(err.where, "t.jsonl:3");
		cr_assert_str_eq(err.msg, bad[i].msg, "%s: %s", bad[i].text, err.msg);
	}
}

Test(jscan, refuses_bad_json_naming_where_and_column)
{
	static const struct bad bad[] = {
		{ "{\"a\":1,\"a\":2}", "invalid JSON at column 8: duplicate object key" },
		{ "[{\"a\":1,\"\\u0061\":2}]", "invalid JSON at column 9: duplicate object key" },
		{ "{\"a\":\"x\ty\"}", "invalid JSON at column 8: control character in a string" },
		{ "\"\\u0000\"", "invalid JSON at column 2: \\u0000 is not allowed" },
		{ "\"\\ud800\"", "invalid JSON at column 2: invalid Unicode escape" },
		{ "\"\xc0\xaf\"", "invalid JSON at column 2: invalid UTF-8" },
		{ "\"\xed\xa0\x80\"", "invalid JSON at column 2: invalid UTF-8" },
		{ "9223372036854775808", "invalid JSON at column 1: integer 9223372036854775808 beyond 64 "
		    "bits; a real number is written with a '.' or an exponent (9223372036854775808.0)" },
		{ "[1,-99999999999999999999]", "invalid JSON at column 4: integer -99999999999999999999 "
		    "beyond 64 bits; a real number is written with a '.' or an exponent "
		    "(-99999999999999999999.0)" },
		{ "[1e309]", "invalid JSON at column 2: real number overflow" },
		{ "01", "invalid JSON at column 2: end of input expected" },
		{ "{\"a\":1", "invalid JSON at column 7: premature end of input" },
		{ "[1,]", "invalid JSON at column 4: invalid number" },
		{ "tru", "invalid JSON at column 1: invalid token" },
	};
	struct ev_err err;

	check_refused(bad, sizeof bad / sizeof bad[0]);
	memset(&err, 0, sizeof err);
	cr_assert_eq(ev_jscan_value(&js, "{\"a\":\"\0\"}", 9, "t.jsonl:3", &err), -1);
	cr_assert_str_eq(err.msg, "invalid JSON at column 7: NUL byte in the line");
}

Test(jscan, nests_2048_deep_and_no_deeper)
{
	struct ev_err err = { 0 };
	char *s = malloc(2 * 2049);
	int d;

	cr_assert_not_null(s);
	for (d = 2048; d <= 2049; d++) {
		memset(s, '[', (size_t)d);
		memset(s + d, ']', (size_t)d);
		cr_assert_eq(ev_jscan_value(&js, s, 2 * (size_t)d, "t", &err) >= 0, d == 2048);
		cr_assert_eq(jansson_takes(s, 2 * (size_t)d), d == 2048);
	}
	cr_assert_str_eq(err.msg, "invalid JSON at column 2049: maximum parsing depth reached");
	free(s);
}

static unsigned long long rng = 88172645463325252ULL;

static unsigned
rnd(void)
{
	return (unsigned)(tu_xorshift(&rng) >> 11);
}

Test(jscan, agrees_with_jansson_on_mutated_records)
{
	static const char *const seeds[] = {
		"{\"query_id\":\"q1\",\"id\":\"d1:0:0\",\"rank\":1,\"score\":12.5,\"signals\":{\"bm25\":1e-3},"
		"\"evidence\":[{\"snippet\":\"a \\\"b\\\" \\u00e9\\ud83d\\ude00\"}],\"x\":[true,false,null,-0]}",
		"{\"a\":{\"b\":{\"c\":[1,2,{\"d\":\"\\u0041\"}]}},\"\\u0061\":1}",
		"{\"k\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\",\"n\":-9223372036854775808,\"r\":1e308}",
		"{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"k\":11,"
		"\"l\":12,\"m\":13,\"n\":14,\"o\":15,\"p\":16,\"q\":17,\"\\u0061\":18}",
	};
	static const char alpha[] = "{}[]\",:\\u0123456789.eE+-tfnrl xa\xc3\xa9\xed\xa0\x80\xf4\x90\t\r";
	struct ev_err err;
	char buf[1024];
	size_t len, pos;
	long it, differ = 0, taken = 0;
	int k;

	for (it = 0; it < 200000; it++) {
		const char *s = seeds[rnd() % (sizeof seeds / sizeof seeds[0])];
		len = strlen(s);
		memcpy(buf, s, len);
		for (k = (int)(rnd() % 4); k > 0 && len > 1; k--) {
			pos = rnd() % len;
			switch (rnd() % 4) {
			case 0:
				buf[pos] = alpha[rnd() % (sizeof alpha - 1)];
				break;
			case 1:
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = alpha[rnd() % (sizeof alpha - 1)];
				len++;
				break;
			case 2:
				memmove(buf + pos, buf + pos + 1, len - pos - 1);
				len--;
				break;
			default:
				len = pos > 0 ? pos : 1;
			}
		}
		k = ev_jscan_value(&js, buf, len, "t", &err) >= 0;
		taken += k;
		if (k != jansson_takes(buf, len))
			differ++;
	}
	cr_assert_eq(differ, 0, "%ld of the records judged otherwise than by Jansson", differ);
	cr_assert(taken > 10000 && taken < 190000, "%ld", taken);	/* both kinds were tried */
}

static int
count_elem(const char *e, size_t n, void *data)
{
	char **out = data;

	if (span_is(e, n, "{\"b\":\"]\"}"))
		*out = "seen";
	return 0;
}

Test(jscan, walks_members_and_elements_of_validated_text)
{
	struct ev_jmems m = { 0 };
	const char *o = "{ \"a\" : [1, \"]\"] , \"b\\\"\":{\"c\":\"}\"},\"d\":-1.5e3 }";
	const char *a = "[ 1, {\"b\":\"]\"} , \"x\" ]";
	char *seen = NULL;

	cr_assert_eq(ev_jscan_members(o, strlen(o), &m), 0);
	cr_assert_eq(m.n, 3);
	cr_assert(span_is(m.m[0].val, m.m[0].vlen, "[1, \"]\"]"));
	cr_assert(span_is(m.m[1].key, m.m[1].klen, "b\\\""));
	cr_assert_eq(m.m[1].kesc, 1);
	cr_assert(span_is(m.m[1].val, m.m[1].vlen, "{\"c\":\"}\"}"));
	cr_assert_eq(m.m[2].type, EV_JREAL);
	free(m.m);
	cr_assert_eq(ev_jscan_elements(a, strlen(a), count_elem, &seen), 0);
	cr_assert_str_eq(seen, "seen");
}

/* Each number text as Jansson reads it, taken from inside a longer text
 * (no NUL after it), by the quick ways and the careful one. */
Test(jscan, reads_numbers_as_jansson_reads_them)
{
	static const char *const s[] = {
		"0", "-0", "7", "-12", "123456789012345678", "9223372036854775807",
		"-9223372036854775808", "9007199254740993", "0.1", "-0.0", "2.0", "-2.5",
		"3.14159265358979", "0.000000000000001", "123456789012345.6", "1234567890123456.7",
		"1e-5", "1E3", "-1.5e300", "2.5e-310", "0.1000000000000000055511151231257827021181583404541015625",
		"1234567890.12345678901234567890123456789012345678901234567890123456789012345",
	};
	char text[200];

	for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
		size_t n = strlen(s[i]);
		json_t *j = json_loads(s[i], JSON_DECODE_ANY, NULL);
		double d = 42;

		cr_assert_not_null(j, "%s", s[i]);
		snprintf(text, sizeof text, "%s999", s[i]);	/* digits after it, not its own */
		cr_assert_eq(ev_jscan_number(text, n, &d), 0, "%s", s[i]);
		cr_assert(d == json_number_value(j) && signbit(d) == signbit(json_number_value(j)),
		    "%s: %.17g, not %.17g", s[i], d, json_number_value(j));
		if (json_is_integer(j))
			cr_assert_eq(ev_jscan_integer(text, n), json_integer_value(j), "%s", s[i]);
		json_decref(j);
	}
}

Test(jscan, compares_and_decodes_raw_strings)
{
	struct ev_buf b = EV_BUF_INIT;

	cr_assert(ev_jscan_str_eq("\\u0069d", 7, "id"));
	cr_assert(!ev_jscan_str_eq("idx", 3, "id"));
	cr_assert(ev_jscan_raw_eq("caf\\u00e9", 9, "caf\xc3\xa9", 5));
	cr_assert(ev_jscan_raw_eq("\\ud83d\\ude00", 12, "\xf0\x9f\x98\x80", 4));
	cr_assert_eq(ev_jscan_decode(&b, "a\\/b\\n\\\"\\u20ac", 14), 0);
	cr_assert_str_eq(ev_buf_str(&b), "a/b\n\"\xe2\x82\xac");
	ev_buf_release(&b);
}

Test(jscan, fmt_g_writes_what_printf_writes)
{
	static const int precs[] = { 4, 10, 17 };
	char a[64], b[64];
	long i, differ = 0;
	double v;
	int k;

	for (i = 0; i < 300000; i++) {
		switch (i % 5) {
		case 0:
			v = 1.0 / (60.0 + (double)(rnd() % 100000));
			break;
		case 1:
			v = (double)(rnd() % 1000000) / 1000000.0 * 20;	/* ties among them */
			break;
		case 2:
			v = ldexp((double)rnd() * 2097152.0 + rnd() % 2097152, (int)(rnd() % 300) - 150);
			break;
		case 3:
			v = -(double)(rnd() % 100000) / pow(10, (int)(rnd() % 25));
			break;
		default:
			v = (double)(rnd() % 20000) + 0.5;
		}
		for (k = 0; k < 3; k++) {
			snprintf(a, sizeof a, "%.*g", precs[k], v);
			ev_jscan_fmt_g(b, sizeof b, v, precs[k]);
			if (strcmp(a, b) != 0 && differ++ == 0)
				cr_log_error("%.17g: printf %s, fmt_g %s", v, a, b);
		}
	}
	cr_assert_eq(differ, 0);
	ev_jscan_fmt_g(b, sizeof b, 0.0, 10);
	cr_assert_str_eq(b, "0");
	ev_jscan_fmt_g(b, sizeof b, 1e-5, 4);
	cr_assert_str_eq(b, "1e-05");
}

Test(jscan, put_real_writes_as_jansson_writes)
{
	static const double v[] = {
		0, -0.0, 1, 20, 0.91, 1.0 / 61, 1e-5, 1.5e20, 123456789012.0, -2.5e-300, 1e308
	};
	struct ev_buf b = EV_BUF_INIT;
	json_t *j;
	char *want;
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		ev_buf_reset(&b);
		cr_assert_eq(ev_jscan_put_real(&b, v[i]), 0);
		j = json_real(v[i]);
		want = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));
		cr_assert_str_eq(ev_buf_str(&b), want, "%.17g", v[i]);
		free(want);
		json_decref(j);
	}
	ev_buf_reset(&b);
	ev_jscan_put_real(&b, NAN);
	ev_jscan_put_int(&b, -9223372036854775807LL - 1);
	cr_assert_str_eq(ev_buf_str(&b), "null-9223372036854775808");
	ev_buf_release(&b);
}

Test(jscan, put_real_writes_edge_numbers_exactly)
{
	/* the texts themselves, not only "as Jansson": 5e-5 where printf's
	 * "%g" writes 5e-05 (the vector lane's old writer did) */
	static const struct { double v; const char *want; } c[] = {
		{ 5e-5, "5e-5" }, { 1e21, "1e21" }, { -0.0, "-0.0" }, { 0.1, "0.1" },
		{ 0, "0.0" }, { 42, "42.0" }, { -7, "-7.0" }, { 1e-300, "1e-300" },
		{ 1234567890123.0, "1.23456789e12" }, { 1234567890.0, "1234567890.0" },
		{ 0.30000000000000004, "0.3" }, { INFINITY, "null" },
	};
	struct ev_buf b = EV_BUF_INIT;

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		ev_buf_reset(&b);
		cr_assert_eq(ev_jscan_put_real(&b, c[i].v), 0);
		cr_assert_str_eq(ev_buf_str(&b), c[i].want, "%.17g", c[i].v);
	}
	ev_buf_reset(&b);
	ev_jscan_put_int(&b, 0);
	ev_buf_addc(&b, ' ');
	ev_jscan_put_int(&b, -12);
	ev_buf_addc(&b, ' ');
	ev_jscan_put_int(&b, 9223372036854775807LL);
	cr_assert_str_eq(ev_buf_str(&b), "0 -12 9223372036854775807");
	ev_buf_release(&b);
}

Test(jscan, put_str_writes_strings_as_jansson_writes)
{
	static const char *const s[] = {
		"", "plain ascii text longer than eight bytes", "quote \" and \\ backslash",
		"\b\f\n\r\t controls \x01\x1f\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 / slash",
		"12345678\"2345678\\", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe6\x96\x87",
	};
	struct ev_buf b = EV_BUF_INIT;

	for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
		json_t *j = json_string(s[i]);
		char *want = json_dumps(j, JSON_ENCODE_ANY);

		ev_buf_reset(&b);
		cr_assert_eq(ev_jscan_put_str(&b, s[i], strlen(s[i])), 0);
		cr_assert_str_eq(ev_buf_str(&b), want, "%s", s[i]);
		free(want);
		json_decref(j);
	}
	/* the texts themselves: Jansson's escapes, upper-case hex */
	ev_buf_reset(&b);
	ev_jscan_put_str(&b, "a\x01\"\b", 4);
	cr_assert_str_eq(ev_buf_str(&b), "\"a\\u0001\\\"\\b\"");
	/* a NUL byte is written escaped; bytes that are not UTF-8 (a lone
	 * continuation, a cut sequence, an overlong form) become U+FFFD */
	ev_buf_reset(&b);
	ev_jscan_put_str(&b, "x\0y\x80z\xc3", 6);
	cr_assert_str_eq(ev_buf_str(&b), "\"x\\u0000y\\ufffdz\\ufffd\"");
	ev_buf_reset(&b);
	ev_jscan_put_str(&b, "\xc0\xaf long enough to take the fast path",
	    strlen("\xc0\xaf long enough to take the fast path"));
	cr_assert_str_eq(ev_buf_str(&b), "\"\\ufffd\\ufffd long enough to take the fast path\"");
	ev_buf_release(&b);
}

Test(jscan, put_value_writes_what_jansson_reads_and_writes)
{
	static const char *const s[] = {
		"{\"a\":1}", " { \"b\" : [ 1 , 2.5 , -0 , -0.0 , 1e-5 , 1E3 , 0.1 ] , \"a\" : { } } \n",
		"{\"k\\u00e9y\":\"v\\n\\\"\\/\\u00e9\\ud83d\\ude00\",\"t\":true,\"f\":false,\"n\":null}",
		"[[],[[]],{\"x\":[{}]}]", "\"caf\xc3\xa9\"", "123456789012345678", "3.14159265358979",
		"{\"authors\":\"dugundji,j.\",\"bib\":\"j.ae.scs. 29, 1962, 935.\",\"year\":1962}",
		"1.5e300", "-12", "[\"\\u0001\\t\"]",
	};
	struct ev_buf b = EV_BUF_INIT;

	for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
		struct ev_err err = { 0 };
		json_error_t je;
		json_t *j = json_loads(s[i], JSON_DECODE_ANY, &je);
		char *want;

		cr_assert_not_null(j, "%s: %s", s[i], je.text);
		cr_assert_geq(scan(s[i], &err), 0, "%s: %s", s[i], err.msg);
		want = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(10) | JSON_ENCODE_ANY);
		ev_buf_reset(&b);
		cr_assert_eq(ev_jscan_put_value(&b, s[i], strlen(s[i])), 0);
		cr_assert_str_eq(ev_buf_str(&b), want, "%s", s[i]);
		free(want);
		json_decref(j);
	}
	ev_buf_release(&b);
}

/* An object written again with members set in place of its own, added
 * after them, or left out; the rest as ev_jscan_put_value() writes them. */
Test(jscan, put_object_sets_members_in_place_or_after)
{
	static const struct {
		const char *in;	/* NULL: no object */
		const char *want;
	} c[] = {
		{ "{\"a\":1,\"page\":\"iv\",\"b\":2.50,\"page_end\":9}",
		    "{\"a\":1,\"page\":3,\"b\":2.5}" },
		{ "{\"page_end\":9,\"a\":\"x\"}", "{\"a\":\"x\",\"page\":3}" },
		{ "{\"a\":[ 1 ]}", "{\"a\":[1],\"page\":3}" },
		{ NULL, "{\"page\":3}" },
	};
	struct ev_jscan_set set[2] = { { "page", "3", 1 }, { "page_end", NULL, 0 } };
	struct ev_buf b = EV_BUF_INIT;

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		struct ev_err err = { 0 };

		if (c[i].in != NULL)
			cr_assert_eq(scan(c[i].in, &err), EV_JOBJ, "%s", c[i].in);
		ev_buf_reset(&b);
		cr_assert_eq(ev_jscan_put_object(&b, js.top.m, c[i].in ? js.top.n : 0, set, 2), 0);
		cr_assert_str_eq(ev_buf_str(&b), c[i].want);
	}
	set[1].value = "12";
	set[1].vlen = 2;
	ev_buf_reset(&b);
	cr_assert_eq(ev_jscan_put_object(&b, NULL, 0, set, 2), 0);
	cr_assert_str_eq(ev_buf_str(&b), "{\"page\":3,\"page_end\":12}");
	ev_buf_release(&b);
}

/* Does every member of js.top decode to Jansson's key and value of s? */
static int
members_agree(const char *s)
{
	json_error_t je;
	json_t *o = json_loads(s, JSON_REJECT_DUPLICATES, &je), *v;
	struct ev_buf k = EV_BUF_INIT;
	size_t i;
	int ok = o != NULL && json_object_size(o) == js.top.n;

	for (i = 0; ok && i < js.top.n; i++) {
		ev_buf_reset(&k);
		ev_jscan_decode(&k, js.top.m[i].key, js.top.m[i].klen);
		v = json_loadb(js.top.m[i].val, js.top.m[i].vlen, JSON_DECODE_ANY, &je);
		ok = v != NULL && json_equal(v, json_object_get(o, ev_buf_str(&k)));
		json_decref(v);
	}
	json_decref(o);
	ev_buf_release(&k);
	return ok;
}

Test(jscan, usual_and_unusual_records_give_the_same_spans)
{
	/* the usual ones take the quick way, the others (\u escapes, exponents,
	 * long integers, more than 16 keys) the careful one */
	static const char *const recs[] = {
		"{\"id\":\"d1\",\"rank\":1,\"score\":-0.5,\"ok\":true,\"no\":false,\"z\":null}",
		" { \"id\" : \"caf\xc3\xa9 \xe2\x82\xac\" ,\t\"s\\/\\\"k\" : \"a\\n\\\"b\\\\\" , \"n\" : [ 1 , {\"x\":{}} ] } ",
		"{\"id\":\"\\u00e9\",\"a\":1e5,\"b\":12345678901234567890.5,\"c\":-9223372036854775808}",
		"{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"k\":11,"
		"\"l\":12,\"m\":13,\"n\":14,\"o\":15,\"p\":16,\"q\":17}",
		"{}", "{\"\":\"\"}", "{\"a\":{\"a\":1},\"b\":[]}",
	};
	struct ev_err err = { 0 };
	size_t i;

	for (i = 0; i < sizeof recs / sizeof recs[0]; i++) {
		cr_assert_eq(scan(recs[i], &err), EV_JOBJ, "%s: %s", recs[i], err.msg);
		cr_assert(members_agree(recs[i]), "%s", recs[i]);
	}
	cr_assert_eq(scan(recs[1], &err), EV_JOBJ);
	cr_assert_eq(js.top.n, 3);
	cr_assert(span_is(js.top.m[1].key, js.top.m[1].klen, "s\\/\\\"k"));
	cr_assert_eq(js.top.m[1].kesc, 1);
	cr_assert(span_is(js.top.m[2].val, js.top.m[2].vlen, "[ 1 , {\"x\":{}} ]"));
}

Test(jscan, a_key_twice_is_found_however_it_is_written)
{
	static const struct bad bad[] = {
		{ "{\"a/\":1,\"a\\/\":2}", "invalid JSON at column 9: duplicate object key" },
		{ "{\"ab\":1, \"x\":{\"y\":1}, \"a\\u0062\":2}", "invalid JSON at column 23: duplicate object key" },
		{ "{\"query_id\":1,\"id\":2,\"query_id\":3}", "invalid JSON at column 22: duplicate object key" },
		{ "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"k\":11,"
		  "\"l\":12,\"m\":13,\"n\":14,\"o\":15,\"p\":16,\"q\":17,\"\\u0061\":18}",
		  "invalid JSON at column 123: duplicate object key" },
	};

	check_refused(bad, sizeof bad / sizeof bad[0]);
}
