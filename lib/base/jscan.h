/* jscan.h: a strict validating JSON scanner that records where the members
 * of an object lie, for commands that pass records through without building
 * a tree (ev-fuse).
 *
 * With it, the one JSON writer (ev_jscan_put_str(), _real(), _int()).
 *
 * Bottom layer: includes err.h, buf.h and utf8.h only (whose ev_utf8_len()
 * and ev_utf8_bad() check text by the rule of Jansson and of this scanner:
 * no overlong form, surrogate or code point past U+10FFFF).  The scanner accepts what
 * Jansson accepts with JSON_DECODE_ANY | JSON_REJECT_DUPLICATES (RFC 8259,
 * valid UTF-8, no NUL byte and no "\u0000", no control characters in
 * strings, paired surrogates, nesting at most 2048 deep, integers that fit in
 * 64 bits, finite reals, no key twice in any object) and refuses the rest. */
#ifndef EV_JSCAN_H
#define EV_JSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"
#include "utf8.h"

/* The bytes of x (eight bytes of a JSON string's text, as memcpy() loads
 * them) that end a run of plain characters: '"', '\\', controls (below
 * 0x20) and, with ascii_only, bytes from 0x80.  The result has the high bit
 * of each such byte set, exactly up to the first one (a later byte may be
 * flagged by a borrow), and is 0 when there is none. */
static inline uint64_t
ev_jscan_stops8(uint64_t x, int ascii_only)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
	uint64_t t = ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((bs - ones) & ~bs);

	return (ascii_only ? t | x : t) & highs;
}

enum ev_jtype {
	EV_JNULL, EV_JFALSE, EV_JTRUE, EV_JINT, EV_JREAL, EV_JSTR, EV_JARR, EV_JOBJ
};

/* One member of an object: the key's raw text between its quotes, and the
 * value's raw text (a string value with its quotes). */
struct ev_jmem {
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
	int type;		/* enum ev_jtype of the value */
	int kesc;		/* the key holds a backslash escape */
};

/* A growable list of members. */
struct ev_jmems {
	struct ev_jmem *m;
	size_t n, cap;
};

/* Scanner state, reused from line to line (zero it before first use). */
struct ev_jscan {
	struct ev_jmems top;	/* the members of the value last scanned, when an object */
	void *keys;		/* private: keys of the objects being scanned */
	size_t nkeys, capkeys;
};

/* Validate s[0..len) as exactly one JSON value, with white space around it.
 * Returns its type (enum ev_jtype) with the members of a top-level object
 * in js->top, or -1 with *err set (code 2, where = `where`, "invalid JSON at
 * column N: WHAT"), or -1 with code 1 when out of memory. */
int ev_jscan_value(struct ev_jscan *js, const char *s, size_t len, const char *where,
	struct ev_err *err);

/* Free the scanner's memory (NULL-safe); *js can be used again. */
void ev_jscan_release(struct ev_jscan *js);

/* The members of the object text s[0..len), already validated, appended to
 * *out.  Returns 0, or -1 when out of memory. */
int ev_jscan_members(const char *s, size_t len, struct ev_jmems *out);

/* The elements of the array text s[0..len), already validated: calls
 * fn(elem, elen, data) for each, stopping at the first that returns non-0
 * (that value is returned); returns 0 when all were visited. */
int ev_jscan_elements(const char *s, size_t len,
	int (*fn)(const char *elem, size_t elen, void *data), void *data);

/* The type (enum ev_jtype) of the validated value text v[0..n), such as an
 * element ev_jscan_elements() gives. */
int ev_jscan_type(const char *v, size_t n);

/* The integer the validated integer text v[0..n) holds (enum ev_jtype
 * EV_JINT, such as a member's or an element's value): it fits, since the
 * scanner refuses an integer that does not fit in 64 bits. */
long long ev_jscan_integer(const char *v, size_t n);

/* The number the validated number text v[0..n) (EV_JINT or EV_JREAL) holds
 * as Jansson reads it (json_number_value()): an integer's exact value
 * converted, a real as strtod() rounds it.  Returns 0 with *d set, or -1
 * when out of memory (a real of 64 bytes or more is copied to be read). */
int ev_jscan_number(const char *v, size_t n, double *d);

/* Does the raw string text raw[0..n) (escapes allowed, no quotes) equal the
 * C string lit once decoded? */
int ev_jscan_str_eq(const char *raw, size_t n, const char *lit);

/* Do two raw string texts decode to the same string? */
int ev_jscan_raw_eq(const char *a, size_t an, const char *b, size_t bn);

/* Append the decoded raw string text raw[0..n) (validated) to b.  Returns 0
 * or -1 (out of memory). */
int ev_jscan_decode(struct ev_buf *b, const char *raw, size_t n);

/* ---- Writing ------------------------------------------------------------
 * evkit's one JSON writer, for modules that write records as text: what
 * Jansson's json_dumps() writes for the same value (JSON_REAL_PRECISION(10)
 * for reals), without building one. */

/* Append s[0..n) as a JSON string, escaped as Jansson escapes it ('"', '\\',
 * \b, \f, \n, \r, \t, other controls as \u00XX), other UTF-8 as it is;
 * a byte that is not valid UTF-8 becomes \ufffd.  Returns 0 or -1 (out of
 * memory). */
int ev_jscan_put_str(struct ev_buf *b, const char *s, size_t n);

/* Append v as Jansson writes a real with 10 significant digits ("%.10g",
 * a ".0" when it would read as an integer, no '+' or leading zeros in the
 * exponent), or null when v is not finite.  Returns 0 or -1. */
int ev_jscan_put_real(struct ev_buf *b, double v);

/* Write v into buf as printf's "%.*g" with precision prec writes it (exactly
 * the same text), faster for the usual numbers.  size must be at least 40.
 * Returns the length. */
int ev_jscan_fmt_g(char *buf, size_t size, double v, int prec);

/* Append the integer v.  Returns 0 or -1. */
int ev_jscan_put_int(struct ev_buf *b, long long v);

/* Append the validated JSON value text v[0..n) (white space around it
 * allowed) as the writer writes the
 * value Jansson reads from it (ev_json_dump() of json_loadb()'s tree): no
 * white space, strings escaped as ev_jscan_put_str() escapes them, reals
 * as ev_jscan_put_real() writes them, members in their order.  Returns 0
 * or -1 (out of memory). */
int ev_jscan_put_value(struct ev_buf *b, const char *v, size_t n);

/* A member that ev_jscan_put_object() writes in place of an object's own:
 * its key (a C string that needs no escapes) and the JSON text
 * value[0..vlen), written as it is; value NULL: no such member. */
struct ev_jscan_set {
	const char *key;
	const char *value;
	size_t vlen;
};

/* The members m[0..n) of a scanned object (n 0: none) appended to b as an
 * object, as ev_jscan_put_value() writes them, but for those set[0..nset)
 * names (nset at most 32): each in place of the object's own member of its
 * key, else after the object's members, in set's order; left out where its
 * value is NULL.  Returns 0 or -1 (out of memory). */
int ev_jscan_put_object(struct ev_buf *b, const struct ev_jmem *m, size_t n,
	const struct ev_jscan_set *set, size_t nset);

#endif
