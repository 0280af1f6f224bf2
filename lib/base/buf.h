/* buf.h: a growable byte buffer, always NUL-terminated.
 *
 * Bottom layer: includes only err.h.  Functions that grow the buffer return 0,
 * or -1 when memory runs out; the buffer then keeps its old contents. */
#ifndef EV_BUF_H
#define EV_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ev_buf {
	char *p;		/* NUL-terminated; NULL until the first append */
	size_t len;		/* bytes in use, the terminator not counted */
	size_t cap;		/* bytes allocated */
};

#define EV_BUF_INIT { NULL, 0, 0 }

/* Make room for n more bytes beyond len (and the terminator). */
int ev_buf_reserve(struct ev_buf *b, size_t n);

/* Append n bytes of s. */
int ev_buf_add(struct ev_buf *b, const void *s, size_t n);

/* Append the string s. */
int ev_buf_adds(struct ev_buf *b, const char *s);

/* Append one byte. */
int ev_buf_addc(struct ev_buf *b, int c);

/* ev_buf_add(), ev_buf_addc() and ev_buf_adds() inlined where the buffer
 * has room (a writer's hot path: most appends need no growth); they call
 * them otherwise. */
static inline int
ev_buf_put(struct ev_buf *b, const void *s, size_t n)
{
	if (b->len + n < b->cap) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
		b->p[b->len] = '\0';
		return 0;
	}
	return ev_buf_add(b, s, n);
}

static inline int
ev_buf_putc(struct ev_buf *b, int c)
{
	if (b->len + 1 < b->cap) {
		b->p[b->len++] = (char)c;
		b->p[b->len] = '\0';
		return 0;
	}
	return ev_buf_addc(b, c);
}

static inline int
ev_buf_puts(struct ev_buf *b, const char *s)
{
	return ev_buf_put(b, s, strlen(s));
}

/* Write v at p as an unsigned LEB128 varint (7 bits a byte, low first, the
 * high bit set on every byte but the last): 1 to 10 bytes, which the caller
 * makes room for.  Returns the byte after it. */
static inline unsigned char *
ev_varint_put(unsigned char *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	return p;
}

/* Append v as a varint (ev_varint_put()). */
int ev_buf_add_varint(struct ev_buf *b, uint64_t v);

/* Read one varint that ev_buf_add_varint() wrote from *p (not past end)
 * into *v, moving *p past it.  Returns 0, or -1 when it is cut short or
 * longer than 64 bits. */
static inline int
ev_varint_get(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;
	int shift = 0;

	if (*p < end && **p < 0x80) {	/* one byte: most of them */
		*v = *(*p)++;
		return 0;
	}
	while (*p < end && shift < 64) {
		unsigned char c = *(*p)++;

		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
		shift += 7;
	}
	return -1;
}

/* Read one SQLite varint (SQLite's records and FTS5's index: big-endian
 * groups of 7 bits, the high bit set on all but the last, the ninth byte
 * whole) from p[0..n) into *v.  Returns its bytes (1 to 9), or 0 when it
 * runs past n (*v then untouched). */
static inline int
ev_sqlite_varint(const unsigned char *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (n > 0 && p[0] < 0x80) {	/* one byte: most of them */
		*v = p[0];
		return 1;
	}
	for (size_t i = 0; i < n && i < 9; i++) {
		if (i == 8) {
			*v = (x << 8) | p[i];
			return 9;
		}
		x = (x << 7) | (p[i] & 0x7f);
		if (!(p[i] & 0x80)) {
			*v = x;
			return (int)i + 1;
		}
	}
	return 0;
}

/* Append printf-style text. */
int ev_buf_printf(struct ev_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Empty the buffer, keeping its memory. */
void ev_buf_reset(struct ev_buf *b);

/* Free the memory and return to EV_BUF_INIT (NULL-safe). */
void ev_buf_release(struct ev_buf *b);

/* The contents as a C string ("" when nothing was appended). */
const char *ev_buf_str(const struct ev_buf *b);

/*
 * Make the array *pv -- *cap elements of elem bytes each allocated -- hold
 * element n (at least n + 1 elements): when it does not, double *cap
 * (starting from first when it is 0) until it does and reallocate.  pv is
 * the address of the array's pointer (a T ** passed as void *).  Returns 0,
 * or -1 when memory runs out or the size would overflow; the array is then
 * left as it was.
 */
int ev_grow(void *pv, size_t *cap, size_t n, size_t elem, size_t first);

/*
 * Append the pointer p to the array *pv of *n pointers (*cap allocated,
 * grown as ev_grow() does from first), taking p: when memory runs out, p is
 * freed and -1 returned, the array left as it was.  pv is the address of the
 * array (a T ** as void *, its T * elements pointers to free()able memory).
 */
int ev_ptr_take(void *pv, size_t *n, size_t *cap, void *p, size_t first);

/* FNV-1a of s[0..n): the hash of lib/'s small string tables (stop words,
 * snippet terms, vocabularies). */
static inline uint32_t
ev_hash_fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* A 64-bit hash of the string s, FNV-1a's xor-then-multiply by the 64-bit
 * FNV prime (from the basis 1469598103934665603): the hash of lib/'s larger
 * tables (section ids, hit ids).  Not stored anywhere: only lookups use it. */
static inline uint64_t
ev_hash_str64(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

#endif
