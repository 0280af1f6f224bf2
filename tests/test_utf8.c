/* Tests of lib/base/utf8.c: one code point decoded at a time, by RFC 3629;
 * anything invalid one byte at a time, as U+DC80 to U+DCFF. */
#include <criterion/criterion.h>
#include <string.h>

#include "utf8.h"

/* s[0..n) must decode to the one code point want, of length len. */
static void
one(const char *s, size_t n, size_t len, uint32_t want)
{
	uint32_t cp = 0xFFFFFFFF;

	cr_assert_eq(ev_utf8_decode(s, n, &cp), len, "length of the sequence at %02x",
	    (unsigned char)s[0]);
	cr_assert_eq(cp, want, "code point of the sequence at %02x: %04x, not %04x",
	    (unsigned char)s[0], (unsigned)cp, (unsigned)want);
}

/* s[0..n) must be invalid at its first byte: length 1, EV_UTF8_BAD(s[0]),
 * and ev_utf8_len() 0. */
static void
bad(const char *s, size_t n)
{
	one(s, n, 1, 0xDC00u + (unsigned char)s[0]);
	cr_assert(EV_UTF8_IS_BAD(0xDC00u + (unsigned char)s[0]));
	cr_assert_eq(ev_utf8_len((const unsigned char *)s, n), 0);
}

Test(utf8, valid_sequences_of_one_to_four_bytes_give_their_code_points)
{
	one("A", 1, 1, 0x41);
	one("\0", 1, 1, 0);
	one("\x7f", 1, 1, 0x7F);
	one("\xc2\x80", 2, 2, 0x80);
	one("\xc3\xa9", 2, 2, 0xE9);
	one("\xdf\xbf", 2, 2, 0x7FF);
	one("\xe0\xa0\x80", 3, 3, 0x800);
	one("\xe2\x80\x94", 3, 3, 0x2014);
	one("\xed\x9f\xbf", 3, 3, 0xD7FF);
	one("\xee\x80\x80", 3, 3, 0xE000);
	one("\xef\xbf\xbf", 3, 3, 0xFFFF);
	one("\xf0\x90\x80\x80", 4, 4, 0x10000);
	one("\xf0\x9f\x98\x80", 4, 4, 0x1F600);
	one("\xf4\x8f\xbf\xbf", 4, 4, 0x10FFFF);
	cr_assert_eq(ev_utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
}

Test(utf8, only_the_sequence_is_read_not_the_bytes_after_it)
{
	one("\xc3\xa9\xc3\xa9", 4, 2, 0xE9);
	one("ab", 2, 1, 'a');
	one("\xe2\x80\x94x", 4, 3, 0x2014);
}

Test(utf8, overlong_forms_are_invalid)
{
	bad("\xc0\x80", 2);		/* U+0000 in two bytes */
	bad("\xc1\xbf", 2);		/* U+007F in two bytes */
	bad("\xe0\x80\x80", 3);
	bad("\xe0\x9f\xbf", 3);		/* U+07FF in three bytes */
	bad("\xf0\x80\x80\x80", 4);
	bad("\xf0\x8f\xbf\xbf", 4);	/* U+FFFF in four bytes */
}

Test(utf8, surrogates_are_invalid)
{
	bad("\xed\xa0\x80", 3);		/* U+D800 */
	bad("\xed\xb2\x80", 3);		/* U+DC80: what an invalid byte decodes to */
	bad("\xed\xbf\xbf", 3);		/* U+DFFF */
}

Test(utf8, code_points_past_10ffff_are_invalid)
{
	bad("\xf4\x90\x80\x80", 4);	/* U+110000 */
	bad("\xf7\xbf\xbf\xbf", 4);
}

Test(utf8, bytes_f5_to_ff_are_invalid_anywhere)
{
	for (unsigned b = 0xF5; b <= 0xFF; b++) {
		char s[4] = { (char)b, (char)0x80, (char)0x80, (char)0x80 };

		bad(s, 4);
	}
}

Test(utf8, continuation_bytes_alone_are_invalid_one_by_one)
{
	for (unsigned b = 0x80; b <= 0xBF; b++) {
		char s[2] = { (char)b, (char)0x80 };

		bad(s, 2);
	}
	cr_assert_eq(ev_utf8_count("\x80\x81\x82", 3), 3);
}

Test(utf8, a_sequence_cut_by_the_buffers_end_is_its_bytes_one_each)
{
	bad("\xc3\xa9", 1);
	bad("\xe2\x80\x94", 2);
	bad("\xe2\x80\x94", 1);
	bad("\xf0\x9f\x98\x80", 3);
	/* what is left after the lead byte is read afresh: a lone continuation */
	bad("\x80", 1);
	cr_assert_eq(ev_utf8_count("a\xe2\x80", 3), 3);
	cr_assert_eq(ev_utf8_count("a\xf0\x9f\x98", 4), 4);
}

Test(utf8, a_lead_byte_never_swallows_the_byte_after_it)
{
	uint32_t cp;

	bad("\xc3" "A", 2);
	bad("\xe2\x80" "A", 3);
	bad("\xf0\x9f\x98" "A", 4);
	cr_assert_eq(ev_utf8_count("\xc3" "A", 2), 2);
	cr_assert_eq(ev_utf8_decode("A", 1, &cp), 1);
	cr_assert_eq(cp, 'A');
}

Test(utf8, every_invalid_byte_decodes_to_its_own_code_point_that_no_character_has)
{
	uint32_t cp;
	char s[1];

	for (unsigned b = 0x80; b <= 0xFF; b++) {
		s[0] = (char)b;
		cr_assert_eq(ev_utf8_decode(s, 1, &cp), 1);
		cr_assert_eq(cp, 0xDC00u + b);
		cr_assert_eq(cp, EV_UTF8_BAD(b));
	}
	cr_assert_not(EV_UTF8_IS_BAD(0xDC7Fu));
	cr_assert_not(EV_UTF8_IS_BAD(0xDD00u));
}

Test(utf8, count_is_the_number_of_characters)
{
	cr_assert_eq(ev_utf8_count("", 0), 0);
	cr_assert_eq(ev_utf8_count("caf\xc3\xa9", 5), 4);
	cr_assert_eq(ev_utf8_count("\xe6\xb5\x8b\xe8\xaf\x95", 6), 2);
	cr_assert_eq(ev_utf8_count("\xf0\x9f\x98\x80!", 5), 2);
	cr_assert_eq(ev_utf8_count("\xc0\x80", 2), 2);
}

Test(utf8, bad_names_the_first_nul_or_invalid_byte)
{
	static const struct { const char *s; size_t n, at; } cases[] = {
		{ "caf\xc3\xa9", 5, 5 }, { "ab\0cd", 5, 2 }, { "ab\xc3", 3, 2 },
		{ "\xc3\xa9\xed\xa0\x80", 5, 2 }, { "x\xf8", 2, 1 }, { "", 0, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		cr_assert_eq(ev_utf8_bad(cases[i].s, cases[i].n), cases[i].at, "case %zu", i);
}
