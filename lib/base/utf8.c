/* utf8.c: UTF-8 decoded one code point at a time.  See utf8.h. */
#include "utf8.h"

/* ev_utf8_decode_multi(), inline here for ev_utf8_len(), which needs no code
 * point (the compiler leaves its making out). */
static inline size_t
decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned c = p[0];

	/* the well-formed sequences of Unicode's Table 3-7: the lead byte
	 * bounds the second byte (no overlong form, surrogate or code point
	 * past U+10FFFF); the others are 0x80 to 0xBF */
	if (c >= 0xC2 && c <= 0xDF) {
		if (n < 2 || (p[1] & 0xC0) != 0x80)
			goto bad;
		*cp = (c & 0x1Fu) << 6 | (p[1] & 0x3Fu);
		return 2;
	}
	if (c >= 0xE0 && c <= 0xEF) {
		if (n < 3 || p[1] < (c == 0xE0 ? 0xA0 : 0x80) || p[1] > (c == 0xED ? 0x9F : 0xBF) ||
		    (p[2] & 0xC0) != 0x80)
			goto bad;
		*cp = (c & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (n < 4 || p[1] < (c == 0xF0 ? 0x90 : 0x80) || p[1] > (c == 0xF4 ? 0x8F : 0xBF) ||
		    (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
			goto bad;
		*cp = (c & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 | (p[3] & 0x3Fu);
		return 4;
	}
bad:
	*cp = EV_UTF8_BAD(c);
	return 1;
}

size_t
ev_utf8_decode_multi(const char *s, size_t n, uint32_t *cp)
{
	return decode((const unsigned char *)s, n, cp);
}

size_t
ev_utf8_len(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len = decode(p, n, &cp);

	return len > 1 ? len : 0;
}

size_t
ev_utf8_bad(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (p[i] == 0)
			return i;
		if (p[i] < 0x80)
			i++;
		else if ((k = ev_utf8_len(p + i, n - i)) == 0)
			return i;
		else
			i += k;
	}
	return n;
}

size_t
ev_utf8_count(const char *s, size_t n)
{
	size_t i = 0, count = 0;
	uint32_t cp;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80)
			i++;	/* ASCII, the most, without a call */
		else
			i += ev_utf8_decode_multi(s + i, n - i, &cp);
		count++;
	}
	return count;
}
