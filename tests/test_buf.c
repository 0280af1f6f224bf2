/* Tests of lib/base/buf.c and lib/base/err.c. */
#include <criterion/criterion.h>
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
