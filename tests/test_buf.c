/* Tests of lib/base/buf.c and lib/base/err.c. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "err.h"

Test(buf, starts_empty_and_reads_as_empty_string)
{
	struct ev_buf b = EV_BUF_INIT;

	cr_assert_str_eq(ev_buf_str(&b), "");
	cr_assert_eq(b.len, 0);
	ev_buf_release(&b);
}

Test(buf, appends_bytes_strings_chars_and_formats)
{
	struct ev_buf b = EV_BUF_INIT;

	cr_assert_eq(ev_buf_add(&b, "ab", 2), 0);
	cr_assert_eq(ev_buf_adds(&b, "cd"), 0);
	cr_assert_eq(ev_buf_addc(&b, 'e'), 0);
	cr_assert_eq(ev_buf_printf(&b, "-%d-%s", 42, "x"), 0);
	cr_assert_str_eq(ev_buf_str(&b), "abcde-42-x");
	cr_assert_eq(b.len, 10);
	ev_buf_release(&b);
}

Test(buf, grows_past_many_doublings_and_keeps_contents)
{
	struct ev_buf b = EV_BUF_INIT;
	size_t i;

	for (i = 0; i < 100000; i++)
		cr_assert_eq(ev_buf_addc(&b, 'a' + (int)(i % 26)), 0);
	cr_assert_eq(b.len, 100000);
	cr_assert_eq(b.p[26], 'a');
	cr_assert_eq(b.p[99999], 'a' + 99999 % 26);
	cr_assert_eq(b.p[100000], '\0');
	ev_buf_release(&b);
}

Test(buf, reset_keeps_memory_and_empties)
{
	struct ev_buf b = EV_BUF_INIT;

	ev_buf_adds(&b, "hello");
	ev_buf_reset(&b);
	cr_assert_str_eq(ev_buf_str(&b), "");
	cr_assert_geq(b.cap, 6);
	ev_buf_release(&b);
	ev_buf_release(NULL);
}

Test(buf, refuses_an_impossible_reservation)
{
	struct ev_buf b = EV_BUF_INIT;

	ev_buf_adds(&b, "x");
	cr_assert_eq(ev_buf_reserve(&b, (size_t)-1 / 2), -1);
	cr_assert_str_eq(ev_buf_str(&b), "x");
	ev_buf_release(&b);
}

Test(buf, varints_are_leb128_and_read_back_across_growth)
{
	static const uint64_t v[] = { 0, 1, 127, 128, 300, 16383, 16384, (uint64_t)1 << 35,
		UINT64_MAX };
	struct ev_buf b = EV_BUF_INIT;
	const unsigned char *p, *end;
	uint64_t got;

	cr_assert_eq(ev_buf_add_varint(&b, 300), 0);
	cr_assert_eq(b.len, 2);
	cr_assert_eq((unsigned char)b.p[0], 0xac);
	cr_assert_eq((unsigned char)b.p[1], 0x02);
	cr_assert_eq(b.p[2], '\0');
	ev_buf_reset(&b);
	cr_assert_eq(ev_buf_add_varint(&b, UINT64_MAX), 0);
	cr_assert_eq(b.len, 10);
	ev_buf_reset(&b);
	/* thousands, so that the buffer grows under every length of varint */
	for (int r = 0; r < 1000; r++)
		for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
			cr_assert_eq(ev_buf_add_varint(&b, v[i]), 0);
	cr_assert_eq(b.p[b.len], '\0');
	p = (const unsigned char *)b.p;
	end = p + b.len;
	for (int r = 0; r < 1000; r++)
		for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
			cr_assert_eq(ev_varint_get(&p, end, &got), 0);
			cr_assert_eq(got, v[i]);
		}
	cr_assert_eq(p, end);
	ev_buf_release(&b);
}

Test(grow, doubles_from_first_only_when_element_n_does_not_fit)
{
	long *v = NULL;
	size_t cap = 0;

	cr_assert_eq(ev_grow(&v, &cap, 0, sizeof *v, 4), 0);
	cr_assert_not_null(v);
	cr_assert_eq(cap, 4);
	for (size_t i = 0; i < 4; i++)
		v[i] = (long)i * 10;
	cr_assert_eq(ev_grow(&v, &cap, 3, sizeof *v, 4), 0);
	cr_assert_eq(cap, 4, "element 3 fits: no growth");
	cr_assert_eq(ev_grow(&v, &cap, 4, sizeof *v, 4), 0);
	cr_assert_eq(cap, 8);
	cr_assert_eq(ev_grow(&v, &cap, 20, sizeof *v, 4), 0);
	cr_assert_eq(cap, 32, "doubled until element 20 fits");
	for (size_t i = 0; i < 4; i++)
		cr_assert_eq(v[i], (long)i * 10, "contents kept");
	free(v);
}

Test(grow, refuses_an_overflowing_size_and_keeps_the_array)
{
	char *v = NULL;
	size_t cap = 0;

	cr_assert_eq(ev_grow(&v, &cap, 0, 1, 16), 0);
	v[0] = 'x';
	cr_assert_eq(ev_grow(&v, &cap, (size_t)-1 / 2 + 1, 1, 16), -1);
	cr_assert_eq(ev_grow(&v, &cap, 100, (size_t)-1 / 64, 16), -1);
	cr_assert_eq(cap, 16);
	cr_assert_eq(v[0], 'x');
	free(v);
}

Test(grow, ptr_take_appends_pointers_and_grows)
{
	char **v = NULL;
	size_t n = 0, cap = 0;

	for (int i = 0; i < 5; i++) {
		char *p = malloc(8);

		cr_assert_not_null(p);
		snprintf(p, 8, "s%d", i);
		cr_assert_eq(ev_ptr_take(&v, &n, &cap, p, 2), 0);
	}
	cr_assert_eq(n, 5);
	cr_assert_eq(cap, 8);
	for (size_t i = 0; i < n; i++) {
		char want[24];

		snprintf(want, sizeof want, "s%zu", i);
		cr_assert_str_eq(v[i], want);
		free(v[i]);
	}
	free(v);
}

Test(hash, str64_xors_then_multiplies_by_the_fnv_prime)
{
	cr_assert_eq(ev_hash_str64(""), 1469598103934665603ULL);
	cr_assert_eq(ev_hash_str64("a"), 0x44bd8ad473cd9906ULL);
	cr_assert_eq(ev_hash_str64("foobar"), 0x88fad7c0a8ff07f2ULL);
}

Test(err, formats_where_and_what)
{
	struct ev_err e = { 0 };
	char text[1100];

	cr_assert_eq(ev_err_set(&e, EV_EXIT_USAGE, "in.jsonl:3", "missing field '%s'", "id"), -1);
	cr_assert_eq(e.code, 2);
	cr_assert_str_eq(ev_err_text(&e, text, sizeof text), "in.jsonl:3: missing field 'id'");
	ev_err_set(&e, EV_EXIT_RUNTIME, NULL, "disk full");
	cr_assert_str_eq(ev_err_text(&e, text, sizeof text), "disk full");
	ev_err_clear(&e);
	cr_assert_eq(e.code, 0);
	cr_assert_eq(ev_err_set(NULL, 1, NULL, "ignored"), -1);
}

Test(err, a_field_too_long_keeps_its_beginning_and_its_end)
{
	static const char hint[] = "\xc3\xa9' is given twice: query ids must be unique";
	struct ev_err e = { 0 };
	char id[1201], path[401];
	size_t n;

	/* an id of 600 two-byte characters, a path of 400 bytes */
	for (int i = 0; i < 600; i++)
		memcpy(id + 2 * i, "\xc3\xa9", 2);
	id[1200] = '\0';
	memset(path, 'p', 400);
	path[400] = '\0';
	path[399] = '7';
	ev_err_set(&e, EV_EXIT_USAGE, path, "query '%s' is given twice: query ids must be unique", id);
	n = strlen(e.msg);
	cr_assert_lt(n, sizeof e.msg);
	cr_assert_eq(strncmp(e.msg, "query '\xc3\xa9", 9), 0);
	cr_assert_not_null(strstr(e.msg, "\xc3\xa9 ... \xc3\xa9"), "%s", e.msg);
	cr_assert_str_eq(e.msg + n - strlen(hint), hint);
	/* whole characters only: no byte of one is cut from its others */
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)e.msg[i] & 0xe0) == 0xc0)
			cr_assert_eq((unsigned char)e.msg[i + 1] & 0xc0, 0x80, "byte %zu", i);
	cr_assert_lt(strlen(e.where), sizeof e.where);
	cr_assert_eq(strncmp(e.where, "ppp", 3), 0);
	cr_assert_eq(e.where[strlen(e.where) - 1], '7');
	cr_assert_not_null(strstr(e.where, "p ... p"));
	/* one that fits is as it was */
	ev_err_set(&e, EV_EXIT_USAGE, "a.jsonl:2", "query '%s' is given twice", "q1");
	cr_assert_str_eq(e.msg, "query 'q1' is given twice");
	cr_assert_str_eq(e.where, "a.jsonl:2");
}
