/* utf8.h: UTF-8 decoded one code point at a time, by one rule for every
 * module that reads text by characters (typo repair's edit distances, the
 * JSON scanners, the pack's report, the router's punctuation).
 *
 * Bottom layer: includes nothing of evkit.
 *
 * The rule.  A sequence is valid as RFC 3629 defines it: the shortest form
 * of a code point from U+0000 to U+10FFFF that is not a surrogate (U+D800 to
 * U+DFFF), lying whole within the buffer.  Anything else is invalid one byte
 * at a time: its first byte alone is taken, and decodes to EV_UTF8_BAD(b),
 * U+DC80 to U+DCFF (the rule of Python's "surrogateescape"), a code point
 * that no valid sequence decodes to.  So an invalid byte is one character,
 * distinct from every real one and from every other invalid byte, and the
 * bytes after it are read afresh: a stray lead byte never swallows the
 * letter after it, and a sequence cut at the buffer's end is its bytes, one
 * character each.  Invalid are: a byte 0x80 to 0xBF where a character
 * begins; 0xC0, 0xC1 and 0xF5 to 0xFF anywhere; a lead byte without all its
 * continuation bytes (cut by the end of the buffer or by another byte); an
 * overlong form; a surrogate; a code point past U+10FFFF. */
#ifndef EV_UTF8_H
#define EV_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The code point an invalid byte b (0x80 to 0xFF) decodes to. */
#define EV_UTF8_BAD(b)		(0xDC00u + (uint32_t)(unsigned char)(b))

/* Whether code point cp is what an invalid byte decodes to. */
#define EV_UTF8_IS_BAD(cp)	((cp) >= 0xDC80u && (cp) <= 0xDCFFu)

/* ev_utf8_decode() of a sequence whose first byte is 0x80 or more. */
size_t ev_utf8_decode_multi(const char *s, size_t n, uint32_t *cp);

/* Decode the character at s[0..n) (n at least 1) by the rule above: its
 * code point into *cp, and return its length in bytes, 1 to 4 (1 for an
 * invalid byte, *cp then EV_UTF8_BAD(s[0])).  ASCII inline (typo repair and
 * the JSON scanners call this for every character they read), the rest by
 * ev_utf8_decode_multi(). */
static inline size_t
ev_utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	if ((unsigned char)s[0] < 0x80) {
		*cp = (unsigned char)s[0];
		return 1;
	}
	return ev_utf8_decode_multi(s, n, cp);
}

/* The length of the valid sequence at p (whose first byte is 0x80 or more)
 * within n bytes (at least 1), or 0 when it is invalid. */
size_t ev_utf8_len(const unsigned char *p, size_t n);

/* The offset of the first NUL byte or invalid sequence in s[0..n), or n
 * when there is none. */
size_t ev_utf8_bad(const char *s, size_t n);

/* The number of characters in s[0..n), as ev_utf8_decode() splits it. */
size_t ev_utf8_count(const char *s, size_t n);

#endif
