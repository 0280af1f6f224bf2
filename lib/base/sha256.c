/* sha256.c: SHA-256 as specified in FIPS 180-4.  See sha256.h. */
#include "sha256.h"

#include <stdio.h>
#include <string.h>

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

/* The x86 SHA extensions, when the processor has them: the same digests,
 * several times faster (ingest hashes every byte it reads, twice). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>



/* Whether the processor has SHA, SSSE3 and SSE4.1: 1 or 0.  Asked once; the
 * answer is kept atomically (ev-ingest hashes on two threads). */
static int
sha_fast(void)
{
	static int known = -1;
	int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
	unsigned a, b, c, d;

	if (k == -1) {
		k = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 9)) && (c & (1u << 19)) &&
		    __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
		__atomic_store_n(&known, k, __ATOMIC_RELAXED);
	}
	return k;
}

/* The compression function over n whole blocks at p. */
__attribute__((target("sha,ssse3,sse4.1"))) static void
sha_blocks(uint32_t h[8], const unsigned char *p, size_t n)
{
	const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i s0, s1, t, m, w[4], abef, cdgh;

	t = _mm_loadu_si128((const __m128i *)&h[0]);
	s1 = _mm_loadu_si128((const __m128i *)&h[4]);
	t = _mm_shuffle_epi32(t, 0xB1);
	s1 = _mm_shuffle_epi32(s1, 0x1B);
	s0 = _mm_alignr_epi8(t, s1, 8);
	s1 = _mm_blend_epi16(s1, t, 0xF0);
	for (; n > 0; n--, p += 64) {
		abef = s0;
		cdgh = s1;
		for (int i = 0; i < 16; i++) {
			if (i < 4)
				w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)),
				    mask);
			else
				w[i & 3] = _mm_sha256msg2_epu32(_mm_add_epi32(
				    _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]),
				    _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4)), w[(i + 3) & 3]);
			m = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, m);
			m = _mm_shuffle_epi32(m, 0x0E);
			s0 = _mm_sha256rnds2_epu32(s0, s1, m);
		}
		s0 = _mm_add_epi32(s0, abef);
		s1 = _mm_add_epi32(s1, cdgh);
	}
	t = _mm_shuffle_epi32(s0, 0x1B);
	s1 = _mm_shuffle_epi32(s1, 0xB1);
	s0 = _mm_blend_epi16(t, s1, 0xF0);
	s1 = _mm_alignr_epi8(s1, t, 8);
	_mm_storeu_si128((__m128i *)&h[0], s0);
	_mm_storeu_si128((__m128i *)&h[4], s1);
}
#else
static int
sha_fast(void)
{
	return 0;
}

static void
sha_blocks(uint32_t h[8], const unsigned char *p, size_t n)
{
	(void)h, (void)p, (void)n;
}
#endif

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
compress_scalar(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
	for (i = 0; i < 64; i++) {
		t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

/* Compress n whole blocks at p into h. */
static void
compress(uint32_t h[8], const unsigned char *p, size_t n)
{
	if (sha_fast()) {
		sha_blocks(h, p, n);
		return;
	}
	for (; n > 0; n--, p += 64)
		compress_scalar(h, p);
}

void
ev_sha256_init(struct ev_sha256 *s)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	};

	memcpy(s->h, h0, sizeof h0);
	s->nbytes = 0;
	s->used = 0;
}

void
ev_sha256_update(struct ev_sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;

	s->nbytes += n;
	while (n > 0) {
		size_t take = 64 - s->used < n ? 64 - s->used : n;

		if (s->used == 0 && n >= 64) {
			compress(s->h, p, n / 64);
			p += n / 64 * 64;
			n %= 64;
			continue;
		}
		memcpy(s->block + s->used, p, take);
		s->used += take, p += take, n -= take;
		if (s->used == 64) {
			compress(s->h, s->block, 1);
			s->used = 0;
		}
	}
}

void
ev_sha256_final(struct ev_sha256 *s, unsigned char digest[32])
{
	uint64_t bits = s->nbytes * 8;
	int i;

	s->block[s->used++] = 0x80;
	if (s->used > 56) {
		memset(s->block + s->used, 0, 64 - s->used);
		compress(s->h, s->block, 1);
		s->used = 0;
	}
	memset(s->block + s->used, 0, 56 - s->used);
	for (i = 0; i < 8; i++)
		s->block[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	compress(s->h, s->block, 1);
	for (i = 0; i < 8; i++) {
		digest[4 * i] = (unsigned char)(s->h[i] >> 24);
		digest[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		digest[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		digest[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void
ev_sha256_text(const void *data, size_t n, char out[EV_SHA256_TEXT])
{
	struct ev_sha256 s;

	ev_sha256_init(&s);
	ev_sha256_update(&s, data, n);
	ev_sha256_final_text(&s, out);
}

void
ev_hex_lower(const unsigned char *bytes, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[bytes[i] >> 4];
		out[2 * i + 1] = hex[bytes[i] & 15];
	}
	out[2 * n] = '\0';
}

void
ev_sha256_final_text(struct ev_sha256 *s, char out[EV_SHA256_TEXT])
{
	unsigned char d[32];

	ev_sha256_final(s, d);
	memcpy(out, "sha256:", 7);
	ev_hex_lower(d, sizeof d, out + 7);
}
