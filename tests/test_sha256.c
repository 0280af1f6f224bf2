/* Tests of lib/base/sha256.c against FIPS 180-4's published vectors. */
#include <criterion/criterion.h>
#include <string.h>

#include "sha256.h"

static void
check(const char *msg, size_t n, const char *want)
{
	char out[EV_SHA256_TEXT];

	ev_sha256_text(msg, n, out);
	cr_assert_str_eq(out, want);
}

Test(sha256, hashes_the_empty_string)
{
	check("", 0, "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(sha256, hashes_abc)
{
	check("abc", 3, "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, hashes_the_two_block_message)
{
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	check(m, strlen(m), "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(sha256, hashes_a_million_a_fed_in_odd_pieces)
{
	struct ev_sha256 s;
	unsigned char d[32];
	char a[1000];
	size_t done = 0, step = 1;

	memset(a, 'a', sizeof a);
	ev_sha256_init(&s);
	while (done < 1000000) {
		size_t n = step < 1000000 - done ? step : 1000000 - done;

		ev_sha256_update(&s, a, n);
		done += n;
		step = step % 900 + 63;	/* at most 962, within a[] */
	}
	ev_sha256_final(&s, d);
	cr_assert_eq(d[0], 0xcd);
	cr_assert_eq(d[1], 0xc7);
	cr_assert_eq(d[31], 0xd0);
}

/* Bytes as lowercase hex, two digits each, every value's own, then a NUL;
 * nothing written past 2n + 1. */
Test(sha256, hex_lower_writes_two_digits_a_byte_and_a_nul)
{
	const unsigned char b[] = { 0x00, 0x09, 0x0a, 0x7f, 0x80, 0xab, 0xff };
	char out[20];

	memset(out, '#', sizeof out);
	ev_hex_lower(b, sizeof b, out);
	cr_assert_str_eq(out, "00090a7f80abff");
	cr_assert_eq(out[15], '#');
	ev_hex_lower(b, 0, out);
	cr_assert_str_eq(out, "");
}
