/* jscan.c: a strict validating JSON scanner.  See jscan.h. */
#include "jscan.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

#include "buf.h"

#define MAX_DEPTH 2048		/* Jansson's JSON_PARSER_MAX_DEPTH */
#define SMALL_OBJECT 16		/* objects with more keys are checked by sorting */

struct key {
	const char *p;
	size_t n;
	uint64_t h;		/* hash of the decoded key */
	int esc;
};

struct scan {
	struct ev_jscan *js;
	const char *s, *p, *end;
	const char *where;
	struct ev_err *err;
	int depth;
};

/* 1 for the bytes a string can hold as they are: printable ASCII but '"' and '\\'. */
static unsigned char plain[256];
static int plain_ready;

static void
plain_init(void)
{
	int c;

	for (c = 0x20; c < 0x80; c++)
		plain[c] = c != '"' && c != '\\';
	plain_ready = 1;
}

static int
fail(struct scan *sc, const char *at, const char *what)
{
	return ev_err_set(sc->err, EV_EXIT_USAGE, sc->where, "invalid JSON at column %zu: %s",
	    (size_t)(at - sc->s) + 1, what);
}

static inline void
skip_ws(struct scan *sc)
{
	if (sc->p < sc->end && (unsigned char)*sc->p > ' ')
		return;
	while (sc->p < sc->end && (*sc->p == ' ' || *sc->p == '\t' || *sc->p == '\n' || *sc->p == '\r'))
		sc->p++;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static long
hex4(const char *p, const char *end)
{
	long v = 0;
	int i, d;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		if ((d = hexval((unsigned char)p[i])) < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FIRST_FLAGGED(t) ((unsigned)__builtin_ctzll(t) >> 3)	/* the lowest byte flagged */
#endif

/* p advanced eight bytes at a time while none is '"', '\\', a control or
 * non-ASCII (to the first such byte, where the byte order tells it). */
static inline const unsigned char *
skip_plain8(const unsigned char *p, const unsigned char *end)
{
	while (end - p >= 8) {
		uint64_t x, t;

		memcpy(&x, p, 8);
		if ((t = ev_jscan_stops8(x, 1)) != 0) {
#ifdef FIRST_FLAGGED
			p += FIRST_FLAGGED(t);
#endif
			break;
		}
		p += 8;
	}
	return p;
}

/* The end (after the closing quote) of the string whose opening quote is
 * at p, when it is valid; NULL when it is not, or when it is not sure
 * (scan_string() then tells what is wrong).  *esc: it holds an escape. */
static inline const unsigned char *
str_end(const unsigned char *p, const unsigned char *end, int *esc)
{
	size_t n;

	p++;
	*esc = 0;
	for (;;) {
#if defined(__SSE2__) && defined(__GNUC__)
		/* sixteen bytes at a time: '"', '\\', below 0x20 or from 0x80 (a
		 * negative signed byte) */
		while (end - p >= 16) {
			__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
			__m128i t = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
			    _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))), _mm_cmplt_epi8(x, _mm_set1_epi8(0x20)));
			unsigned bits = (unsigned)_mm_movemask_epi8(t);
			if (bits != 0) {
				p += __builtin_ctz(bits);
				break;
			}
			p += 16;
		}
#else
		p = skip_plain8(p, end);
#endif
		while (p < end && plain[*p])
			p++;
		if (p >= end)
			return NULL;
		if (*p == '"')
			return p + 1;
		if (*p == '\\') {
			*esc = 1;
			if (end - p < 2)
				return NULL;
			switch (p[1]) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
				p += 2;
				continue;
			default:
				return NULL;	/* \u and the rest: scan_string() */
			}
		}
		if (*p < 0x80 || (n = ev_utf8_len(p, (size_t)(end - p))) == 0)
			return NULL;
		p += n;
	}
}

/* Scan the string whose opening quote is at sc->p; leave sc->p after the
 * closing one.  *esc tells whether it held an escape. */
static int
scan_string(struct scan *sc, int *esc)
{
	const unsigned char *p = (const unsigned char *)sc->p + 1, *end = (const unsigned char *)sc->end;
	size_t n;
	long u, lo;

	if ((p = str_end(p - 1, end, esc)) != NULL) {
		sc->p = (const char *)p;
		return 0;
	}
	p = (const unsigned char *)sc->p + 1;
	*esc = 0;
	for (;;) {
		/* eight bytes at a time while none is '"', '\\', a control or
		 * non-ASCII; the flags are exact up to the first byte flagged */
		p = skip_plain8(p, end);
		while (p < end && plain[*p])
			p++;
		if (p >= end)
			return fail(sc, (const char *)p, "premature end of input in a string");
		if (*p == '"') {
			sc->p = (const char *)p + 1;
			return 0;
		}
		if (*p == '\\') {
			*esc = 1;
			if (p + 1 >= end)
				return fail(sc, (const char *)p, "premature end of input in a string");
			switch (p[1]) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
				p += 2;
				continue;
			case 'u':
				if ((u = hex4((const char *)p + 2, (const char *)end)) < 0)
					return fail(sc, (const char *)p, "invalid \\u escape");
				if (u == 0)
					return fail(sc, (const char *)p, "\\u0000 is not allowed");
				p += 6;
				if (u >= 0xDC00 && u <= 0xDFFF)
					return fail(sc, (const char *)p - 6, "invalid Unicode escape");
				if (u >= 0xD800 && u <= 0xDBFF) {
					if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
					    (lo = hex4((const char *)p + 2, (const char *)end)) < 0xDC00 ||
					    lo > 0xDFFF)
						return fail(sc, (const char *)p - 6, "invalid Unicode escape");
					p += 6;
				}
				continue;
			default:
				return fail(sc, (const char *)p, "invalid escape");
			}
		}
		if (*p < 0x20)
			return fail(sc, (const char *)p, *p == 0 ? "NUL byte in the line" :
			    "control character in a string");
		if ((n = ev_utf8_len(p, (size_t)(end - p))) == 0)
			return fail(sc, (const char *)p, "invalid UTF-8");
		p += n;
	}
}

/* Scan a number at sc->p; *type is EV_JINT or EV_JREAL. */
static int
scan_number(struct scan *sc, int *type)
{
	const char *p = sc->p, *start = p, *end = sc->end;
	long digits = 0, exp = 0, esign = 1;
	int real = 0;
	char small[64], *copy;
	size_t n;

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0') {
		p++;
	} else if (p < end && *p >= '1' && *p <= '9') {
		while (p < end && *p >= '0' && *p <= '9') {
			p++;
			digits++;
		}
	} else {
		return fail(sc, p, "invalid number");
	}
	if (p < end && *p == '.') {
		real = 1;
		p++;
		if (p >= end || *p < '0' || *p > '9')
			return fail(sc, p, "invalid number");
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		real = 1;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			esign = *p++ == '-' ? -1 : 1;
		if (p >= end || *p < '0' || *p > '9')
			return fail(sc, p, "invalid number");
		while (p < end && *p >= '0' && *p <= '9') {
			if (exp < 100000)
				exp = exp * 10 + (*p - '0');
			p++;
		}
	}
	sc->p = p;
	*type = real ? EV_JREAL : EV_JINT;
	/* the rare numbers that may not fit: check them as Jansson does */
	if ((!real && digits < 19) || (real && digits + esign * exp < 300))
		return 0;
	n = (size_t)(p - start);
	copy = n < sizeof small ? small : malloc(n + 1);
	if (copy == NULL)
		return ev_err_nomem(sc->err);
	memcpy(copy, start, n);
	copy[n] = '\0';
	errno = 0;
	if (real) {
		double d = strtod(copy, NULL);
		if (copy != small)
			free(copy);
		if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
			return fail(sc, start, "real number overflow");
	} else {
		(void)strtoll(copy, NULL, 10);
		if (copy != small)
			free(copy);
		if (errno == ERANGE)
			return ev_err_big_int(sc->err, sc->where, (size_t)(start - sc->s) + 1, start, n);
	}
	return 0;
}

/* Decode one character of raw string text at *p into out[0..3]; returns the
 * byte count (the text is valid). */
static size_t
decode_one(const char **pp, char *out)
{
	const char *p = *pp;
	long u, lo;

	if (*p != '\\') {
		out[0] = *p;
		*pp = p + 1;
		return 1;
	}
	switch (p[1]) {
	case 'b': out[0] = '\b'; break;
	case 'f': out[0] = '\f'; break;
	case 'n': out[0] = '\n'; break;
	case 'r': out[0] = '\r'; break;
	case 't': out[0] = '\t'; break;
	case 'u':
		u = hex4(p + 2, p + 6);
		*pp = p + 6;
		if (u >= 0xD800 && u <= 0xDBFF) {
			lo = hex4(p + 8, p + 12);
			u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
			*pp = p + 12;
		}
		if (u < 0x80) {
			out[0] = (char)u;
			return 1;
		}
		if (u < 0x800) {
			out[0] = (char)(0xC0 | (u >> 6));
			out[1] = (char)(0x80 | (u & 0x3F));
			return 2;
		}
		if (u < 0x10000) {
			out[0] = (char)(0xE0 | (u >> 12));
			out[1] = (char)(0x80 | ((u >> 6) & 0x3F));
			out[2] = (char)(0x80 | (u & 0x3F));
			return 3;
		}
		out[0] = (char)(0xF0 | (u >> 18));
		out[1] = (char)(0x80 | ((u >> 12) & 0x3F));
		out[2] = (char)(0x80 | ((u >> 6) & 0x3F));
		out[3] = (char)(0x80 | (u & 0x3F));
		return 4;
	default: out[0] = p[1];
	}
	*pp = p + 2;
	return 1;
}

/* The bytes p[0..n), n <= 8, as a little-endian integer; room: p[0..8)
 * may be read. */
static inline uint64_t
load_le(const unsigned char *p, size_t n, int room)
{
	uint64_t x = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (room) {
		memcpy(&x, p, 8);
		return n == 8 ? x : x & ((1ULL << (8 * n)) - 1);
	}
#else
	(void)room;
#endif
	while (n-- > 0)
		x |= (uint64_t)p[n] << (8 * n);
	return x;
}

/* A hash of a decoded key from its length and its first and last eight
 * bytes (as little-endian integers; the same when n <= 8). */
static inline uint64_t
key_hash(size_t n, uint64_t first, uint64_t last)
{
	uint64_t h = (first * 0x9E3779B97F4A7C15ULL) ^ (last * 0xC2B2AE3D27D4EB4FULL) ^ n;

	return h ^ (h >> 29) ^ (h >> 47);
}

/* The hash of the key whose raw text is raw[0..n) (esc: it holds escapes),
 * that of its decoded bytes. */
static uint64_t
hash_esc(const char *raw, size_t n)
{
	const char *p = raw, *end = raw + n;
	uint64_t first = 0, last = 0;
	size_t k, i, len = 0;
	char c[4];

	while (p < end) {
		k = decode_one(&p, c);
		for (i = 0; i < k; i++, len++) {
			if (len < 8)
				first |= (uint64_t)(unsigned char)c[i] << (8 * len);
			last = (last >> 8) | (uint64_t)(unsigned char)c[i] << 56;
		}
	}
	return key_hash(len, first, len <= 8 ? first : last);
}

static inline uint64_t
hash_raw(const char *raw, size_t n, int esc, int room)
{
	const unsigned char *u = (const unsigned char *)raw;
	uint64_t x;

	if (esc)
		return hash_esc(raw, n);
	if (n > 8)
		return key_hash(n, load_le(u, 8, 1), load_le(u + n - 8, 8, 1));
	x = load_le(u, n, room);
	return key_hash(n, x, x);
}

int
ev_jscan_raw_eq(const char *a, size_t an, const char *b, size_t bn)
{
	const char *pa = a, *pb = b, *ea = a + an, *eb = b + bn;
	char ca[4], cb[4];
	size_t na = 0, nb = 0, ia = 0, ib = 0;

	if (memchr(a, '\\', an) == NULL && memchr(b, '\\', bn) == NULL)
		return an == bn && memcmp(a, b, an) == 0;
	for (;;) {	/* the decoded bytes of both, one by one */
		if (na == 0 && pa < ea) {
			na = decode_one(&pa, ca);
			ia = 0;
		}
		if (nb == 0 && pb < eb) {
			nb = decode_one(&pb, cb);
			ib = 0;
		}
		if (na == 0 || nb == 0)
			return na == 0 && nb == 0;
		if (ca[ia++] != cb[ib++])
			return 0;
		na--;
		nb--;
	}
}

int
ev_jscan_str_eq(const char *raw, size_t n, const char *lit)
{
	return ev_jscan_raw_eq(raw, n, lit, strlen(lit));
}

int
ev_jscan_decode(struct ev_buf *b, const char *raw, size_t n)
{
	const char *p = raw, *end = raw + n;
	char c[4];
	size_t k;

	if (memchr(raw, '\\', n) == NULL)
		return ev_buf_add(b, raw, n);
	if (ev_buf_reserve(b, n) == -1)
		return -1;
	while (p < end) {
		/* the run up to the next escape whole, then the escape */
		const char *bs = memchr(p, '\\', (size_t)(end - p));
		size_t run = (size_t)((bs ? bs : end) - p);

		memcpy(b->p + b->len, p, run);	/* decoding never lengthens */
		b->len += run;
		p += run;
		if (bs == NULL)
			break;
		k = decode_one(&p, c);
		memcpy(b->p + b->len, c, k);
		b->len += k;
	}
	b->p[b->len] = '\0';
	return 0;
}

static int
cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	return x->h < y->h ? -1 : x->h > y->h;
}

/* Is any key of keys[from..nkeys) there twice? */
static int
dup_keys(struct scan *sc, size_t from)
{
	struct key *k = (struct key *)sc->js->keys + from, *t;
	size_t n = sc->js->nkeys - from, i, j;
	int dup = 0;

	if (n <= SMALL_OBJECT) {
		for (i = 1; i < n; i++)
			for (j = 0; j < i; j++)
				if (k[i].h == k[j].h && ev_jscan_raw_eq(k[i].p, k[i].n, k[j].p, k[j].n))
					return 1;
		return 0;
	}
	if ((t = malloc(n * sizeof *t)) == NULL)
		return -1;
	memcpy(t, k, n * sizeof *t);
	qsort(t, n, sizeof *t, cmp_key);
	for (i = 0; i + 1 < n && !dup; i++)
		for (j = i + 1; j < n && t[j].h == t[i].h && !dup; j++)
			dup = ev_jscan_raw_eq(t[i].p, t[i].n, t[j].p, t[j].n);
	free(t);
	return dup;
}

static int scan_value(struct scan *sc, int *type, int top);

static int
push_key(struct scan *sc, const char *p, size_t n, int esc)
{
	struct ev_jscan *js = sc->js;
	struct key *k;

	if (js->nkeys == js->capkeys) {
		size_t cap = js->capkeys ? js->capkeys * 2 : 64;
		void *q = realloc(js->keys, cap * sizeof(struct key));
		if (q == NULL)
			return ev_err_nomem(sc->err);
		js->keys = q;
		js->capkeys = cap;
	}
	k = (struct key *)js->keys + js->nkeys++;
	k->p = p;
	k->n = n;
	k->esc = esc;
	k->h = hash_raw(p, n, esc, sc->end - p >= 8);
	return 0;
}

static inline int
push_mem(struct ev_jmems *ms, const struct ev_jmem *m)
{
	if (ms->n == ms->cap && ev_grow(&ms->m, &ms->cap, ms->n, sizeof *ms->m, 32) == -1)
		return -1;
	ms->m[ms->n++] = *m;
	return 0;
}

static int
scan_object(struct scan *sc, int top)
{
	size_t from = sc->js->nkeys, j;
	uint64_t seen = 0, bit;	/* a bit per key hash, for small objects */
	struct ev_jmem m;
	const struct key *kk;
	const char *k;
	size_t kn;
	int esc, type, r;

	sc->p++;
	skip_ws(sc);
	if (sc->p < sc->end && *sc->p == '}') {
		sc->p++;
		return 0;
	}
	for (;;) {
		if (sc->p >= sc->end)
			return fail(sc, sc->p, "premature end of input");
		if (*sc->p != '"')
			return fail(sc, sc->p, "string or '}' expected");
		k = sc->p;
		if (scan_string(sc, &esc) == -1)
			return -1;
		kn = (size_t)(sc->p - k - 2);
		if (push_key(sc, k + 1, kn, esc) == -1)
			return -1;
		if (sc->js->nkeys - from <= SMALL_OBJECT) {
			/* a key seen before in this object: compare only on a hash bit hit */
			kk = (const struct key *)sc->js->keys + sc->js->nkeys - 1;
			bit = 1ULL << (kk->h & 63);
			if (seen & bit)
				for (j = from; j < sc->js->nkeys - 1; j++) {
					const struct key *o = (const struct key *)sc->js->keys + j;
					if (o->h == kk->h && ev_jscan_raw_eq(o->p, o->n, kk->p, kk->n)) {
						sc->js->nkeys = from;
						return fail(sc, k, "duplicate object key");
					}
				}
			seen |= bit;
		}
		skip_ws(sc);
		if (sc->p >= sc->end || *sc->p != ':')
			return fail(sc, sc->p, "':' expected");
		sc->p++;
		skip_ws(sc);
		m.key = k + 1;
		m.klen = kn;
		m.kesc = esc;
		m.val = sc->p;
		if (scan_value(sc, &type, 0) == -1)
			return -1;
		m.vlen = (size_t)(sc->p - m.val);
		m.type = type;
		if (top && push_mem(&sc->js->top, &m) == -1)
			return ev_err_nomem(sc->err);
		skip_ws(sc);
		if (sc->p < sc->end && *sc->p == ',') {
			sc->p++;
			skip_ws(sc);
			continue;
		}
		if (sc->p < sc->end && *sc->p == '}') {
			sc->p++;
			break;
		}
		return fail(sc, sc->p, sc->p < sc->end ? "',' or '}' expected" : "premature end of input");
	}
	if (sc->js->nkeys - from > SMALL_OBJECT && (r = dup_keys(sc, from)) != 0) {
		sc->js->nkeys = from;
		return r == -1 ? ev_err_nomem(sc->err) : fail(sc, sc->p - 1, "duplicate object key");
	}
	sc->js->nkeys = from;
	return 0;
}

static int
scan_array(struct scan *sc)
{
	int type;

	sc->p++;
	skip_ws(sc);
	if (sc->p < sc->end && *sc->p == ']') {
		sc->p++;
		return 0;
	}
	for (;;) {
		if (scan_value(sc, &type, 0) == -1)
			return -1;
		skip_ws(sc);
		if (sc->p < sc->end && *sc->p == ',') {
			sc->p++;
			skip_ws(sc);
			continue;
		}
		if (sc->p < sc->end && *sc->p == ']') {
			sc->p++;
			return 0;
		}
		return fail(sc, sc->p, sc->p < sc->end ? "',' or ']' expected" : "premature end of input");
	}
}

static int
literal(struct scan *sc, const char *word, int t, int *type)
{
	size_t n = strlen(word);

	if ((size_t)(sc->end - sc->p) < n || memcmp(sc->p, word, n) != 0)
		return fail(sc, sc->p, "invalid token");
	sc->p += n;
	*type = t;
	return 0;
}

static int
scan_value(struct scan *sc, int *type, int top)
{
	int esc, r;

	if (sc->p >= sc->end)
		return fail(sc, sc->p, "premature end of input");
	switch (*sc->p) {
	case '{':
	case '[':
		if (++sc->depth > MAX_DEPTH)
			return fail(sc, sc->p, "maximum parsing depth reached");
		*type = *sc->p == '{' ? EV_JOBJ : EV_JARR;
		r = *type == EV_JOBJ ? scan_object(sc, top) : scan_array(sc);
		sc->depth--;
		return r;
	case '"':
		*type = EV_JSTR;
		return scan_string(sc, &esc);
	case 't':
		return literal(sc, "true", EV_JTRUE, type);
	case 'f':
		return literal(sc, "false", EV_JFALSE, type);
	case 'n':
		return literal(sc, "null", EV_JNULL, type);
	default:
		return scan_number(sc, type);
	}
}

#define WS(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r')

/* The end of the valid number at p whose range needs no checking, or NULL
 * (scan_number() then decides); *type is EV_JINT or EV_JREAL. */
static inline const char *
num_end(const char *p, const char *end, int *type)
{
	const char *d;
	int real = 0;

	if (p < end && *p == '-')
		p++;
	d = p;
	if (p < end && *p == '0')
		p++;
	else
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	if (p == d || p - d >= 19)
		return NULL;
	if (p < end && *p == '.') {
		real = 1;
		d = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return NULL;
	}
	if (p < end && (*p == 'e' || *p == 'E'))
		return NULL;
	*type = real ? EV_JREAL : EV_JINT;
	return p;
}

/* The usual record at s[0..len): an object of at most SMALL_OBJECT members
 * whose keys hold no \u escape, with white space anywhere.  Returns 0 with
 * its members in js->top, or -1 when it is not sure that the text is valid
 * (the caller then scans it again with scan_value(), which tells what is
 * wrong). */
static int
scan_top(struct scan *sc)
{
	const char *p = sc->p + 1, *end = sc->end, *k, *q;
	struct ev_jscan *js = sc->js;
	struct key keys[SMALL_OBJECT];
	uint64_t seen = 0, bit, h;
	struct ev_jmem m;
	size_t nk = 0, j;
	int esc, type;

	while (p < end && WS(*p))
		p++;
	if (p < end && *p == '}') {
		p++;
		goto done;
	}
	for (;;) {
		if (p >= end || *p != '"' || nk == SMALL_OBJECT)
			return -1;
		k = p;
		if ((q = (const char *)str_end((const unsigned char *)p, (const unsigned char *)end,
		    &esc)) == NULL)
			return -1;
		m.key = k + 1;
		m.klen = (size_t)(q - k - 2);
		m.kesc = esc;
		h = hash_raw(m.key, m.klen, esc, end - m.key >= 8);
		bit = 1ULL << (h & 63);
		if (seen & bit)
			for (j = 0; j < nk; j++)
				if (keys[j].h == h && ev_jscan_raw_eq(keys[j].p, keys[j].n, m.key, m.klen))
					return -1;
		seen |= bit;
		keys[nk].p = m.key;
		keys[nk].n = m.klen;
		keys[nk++].h = h;
		p = q;
		while (p < end && WS(*p))
			p++;
		if (p >= end || *p != ':')
			return -1;
		p++;
		while (p < end && WS(*p))
			p++;
		if (p >= end)
			return -1;
		m.val = p;
		switch (*p) {
		case '"':
			q = (const char *)str_end((const unsigned char *)p, (const unsigned char *)end, &esc);
			type = EV_JSTR;
			break;
		case '{':
		case '[':
			sc->p = p;
			sc->depth = 1;
			q = scan_value(sc, &type, 0) == -1 ? NULL : sc->p;
			break;
		case 't':
			q = end - p >= 4 && memcmp(p, "true", 4) == 0 ? p + 4 : NULL;
			type = EV_JTRUE;
			break;
		case 'f':
			q = end - p >= 5 && memcmp(p, "false", 5) == 0 ? p + 5 : NULL;
			type = EV_JFALSE;
			break;
		case 'n':
			q = end - p >= 4 && memcmp(p, "null", 4) == 0 ? p + 4 : NULL;
			type = EV_JNULL;
			break;
		default:
			q = num_end(p, end, &type);
		}
		if (q == NULL)
			return -1;
		m.vlen = (size_t)(q - p);
		m.type = type;
		if (push_mem(&js->top, &m) == -1)
			return -1;
		p = q;
		while (p < end && WS(*p))
			p++;
		if (p < end && *p == ',') {
			p++;
			while (p < end && WS(*p))
				p++;
			continue;
		}
		if (p < end && *p == '}') {
			p++;
			break;
		}
		return -1;
	}
done:
	while (p < end && WS(*p))
		p++;
	return p == end ? 0 : -1;
}

int
ev_jscan_value(struct ev_jscan *js, const char *s, size_t len, const char *where,
    struct ev_err *err)
{
	struct scan sc = { js, s, s, s + len, where, err, 0 };
	int type;

	if (!plain_ready)
		plain_init();
	js->top.n = 0;
	js->nkeys = 0;
	skip_ws(&sc);
	if (sc.p < sc.end && *sc.p == '{') {
		if (scan_top(&sc) == 0)
			return EV_JOBJ;
		js->top.n = 0;	/* not sure: the whole line again, carefully */
		js->nkeys = 0;
		sc.p = s;
		sc.depth = 0;
		skip_ws(&sc);
	}
	if (scan_value(&sc, &type, 1) == -1)
		return -1;
	skip_ws(&sc);
	if (sc.p != sc.end)
		return fail(&sc, sc.p, "end of input expected");
	return type;
}

void
ev_jscan_release(struct ev_jscan *js)
{
	if (js == NULL)
		return;
	free(js->top.m);
	free(js->keys);
	memset(js, 0, sizeof *js);
}

/* ---- walking validated text ---- */

/* The end of the valid value at p. */
static const char *
skip_value(const char *p, const char *end)
{
	int depth = 0;

	do {
		if (*p == '"') {
			for (p++; *p != '"'; p++)
				if (*p == '\\')
					p++;
			p++;
		} else if (*p == '{' || *p == '[') {
			depth++;
			p++;
		} else if (*p == '}' || *p == ']') {
			depth--;
			p++;
		} else if (depth > 0) {
			p++;
		} else {
			while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' &&
			    *p != '\t' && *p != '\n' && *p != '\r')
				p++;
		}
	} while (depth > 0 && p < end);
	return p;
}

static const char *
ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

int
ev_jscan_type(const char *v, size_t n)
{
	switch (*v) {
	case '{': return EV_JOBJ;
	case '[': return EV_JARR;
	case '"': return EV_JSTR;
	case 't': return EV_JTRUE;
	case 'f': return EV_JFALSE;
	case 'n': return EV_JNULL;
	default:
		return memchr(v, '.', n) || memchr(v, 'e', n) || memchr(v, 'E', n) ? EV_JREAL : EV_JINT;
	}
}

long long
ev_jscan_integer(const char *v, size_t n)
{
	const char *p = v, *end = v + n;
	int neg = n > 0 && *p == '-';
	long long x = 0;

	for (p += neg; p < end; p++)	/* below zero, where the least integer fits */
		x = x * 10 - (*p - '0');
	return neg ? x : -x;
}

int
ev_jscan_number(const char *v, size_t n, double *d)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	    1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const char *p = v, *end = v + n, *dot;
	char small[64], *copy;
	int neg = n > 0 && *p == '-';
	long long x = 0;

	if (ev_jscan_type(v, n) == EV_JINT) {
		*d = (double)ev_jscan_integer(v, n);
		return 0;
	}
	if (n - (size_t)neg <= 16) {
		/* a plain decimal of at most 15 digits (16 bytes with the point):
		 * one exact division, which rounds as strtod() rounds */
		for (p += neg; p < end && *p >= '0' && *p <= '9'; p++)
			x = x * 10 + (*p - '0');
		if (p < end && *p == '.') {
			dot = p;
			for (p++; p < end && *p >= '0' && *p <= '9'; p++)
				x = x * 10 + (*p - '0');
			if (p == end) {
				*d = (neg ? -(double)x : (double)x) / p10[end - dot - 1];
				return 0;
			}
		}
	}
	if ((copy = n < sizeof small ? small : malloc(n + 1)) == NULL)
		return -1;
	memcpy(copy, v, n);
	copy[n] = '\0';
	*d = strtod(copy, NULL);
	if (copy != small)
		free(copy);
	return 0;
}

int
ev_jscan_members(const char *s, size_t len, struct ev_jmems *out)
{
	const char *p = s + 1, *end = s + len, *k;
	struct ev_jmem m;

	for (;;) {
		p = ws(p, end);
		if (p >= end || *p != '"')
			return 0;
		k = p;
		p = skip_value(p, end);
		m.key = k + 1;
		m.klen = (size_t)(p - k - 2);
		m.kesc = memchr(m.key, '\\', m.klen) != NULL;
		p = ws(p, end) + 1;	/* the ':' */
		p = ws(p, end);
		m.val = p;
		p = skip_value(p, end);
		m.vlen = (size_t)(p - m.val);
		m.type = ev_jscan_type(m.val, m.vlen);
		if (push_mem(out, &m) == -1)
			return -1;
		p = ws(p, end);
		if (p < end && *p == ',')
			p++;
	}
}

int
ev_jscan_elements(const char *s, size_t len,
    int (*fn)(const char *elem, size_t elen, void *data), void *data)
{
	const char *p = s + 1, *end = s + len, *e;
	int r;

	for (;;) {
		p = ws(p, end);
		if (p >= end || *p == ']')
			return 0;
		e = p;
		p = skip_value(p, end);
		if ((r = fn(e, (size_t)(p - e), data)) != 0)
			return r;
		p = ws(p, end);
		if (p < end && *p == ',')
			p++;
	}
}

/* ---- writing numbers ---- */

/* Powers of ten exact in a long double (64-bit mantissa: up to 10^27). */
static const long double pow10l_exact[] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
	1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
	1e26L, 1e27L
};

/* The prec significant digits of |v| (v finite, not 0) as an integer in
 * [10^(prec-1), 10^prec) and the decimal exponent of the first, correctly
 * rounded as printf rounds (to nearest, ties to even on the exact binary
 * value).  Returns 0, or -1 when the fast way cannot be sure (near a tie, or
 * out of its range): the caller then asks snprintf. */
static int
digits_of(double v, int prec, unsigned long long *digits, int *exp10)
{
	long double m, r;
	double a = fabs(v);
	unsigned long long d, lo = 1, hi;
	int e, s, i;

	for (i = 1; i < prec; i++)
		lo *= 10;
	hi = lo * 10;
	(void)frexp(a, &e);
	e = (int)floor((e - 1) * 0.30102999566398120);	/* within one of floor(log10(a)) */
	for (i = 0; i < 3; i++) {
		s = prec - 1 - e;
		if (s > 27 || s < -27)
			return -1;
		m = s >= 0 ? (long double)a * pow10l_exact[s] : (long double)a / pow10l_exact[-s];
		if (m < (long double)lo)
			e--;
		else if (m >= (long double)hi)
			e++;
		else
			break;
	}
	if (i == 3)
		return -1;
	d = (unsigned long long)m;
	r = m - (long double)d;
	if (r > 0.4999L && r < 0.5001L)
		return -1;	/* too near a tie to trust one rounding */
	d += r > 0.5L;
	if (d == hi) {
		d = lo;
		e++;
	}
	*digits = d;
	*exp10 = e;
	return 0;
}

int
ev_jscan_fmt_g(char *buf, size_t size, double v, int prec)
{
	unsigned long long d;
	char dig[24], *p = buf;
	int e, nd, i, n;

	if (size < 40 || prec < 1 || prec > 17 || !isfinite(v) || v == 0 ||
	    digits_of(v, prec, &d, &e) == -1)
		return snprintf(buf, size, "%.*g", prec, v);
	for (i = prec - 1; i >= 0; i--) {
		dig[i] = (char)('0' + d % 10);
		d /= 10;
	}
	for (nd = prec; nd > 1 && dig[nd - 1] == '0'; nd--)
		;
	if (v < 0)
		*p++ = '-';
	if (e >= -4 && e < prec) {
		if (e >= 0) {
			for (i = 0; i <= e; i++)
				*p++ = i < nd ? dig[i] : '0';
			if (nd > e + 1) {
				*p++ = '.';
				for (; i < nd; i++)
					*p++ = dig[i];
			}
		} else {
			*p++ = '0';
			*p++ = '.';
			for (i = 0; i < -e - 1; i++)
				*p++ = '0';
			for (i = 0; i < nd; i++)
				*p++ = dig[i];
		}
	} else {
		*p++ = dig[0];
		if (nd > 1) {
			*p++ = '.';
			for (i = 1; i < nd; i++)
				*p++ = dig[i];
		}
		n = sprintf(p, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
		p += n;
	}
	*p = '\0';
	return (int)(p - buf);
}

int
ev_jscan_put_real(struct ev_buf *b, double v)
{
	char s[48], *e, *q;
	int n;

	if (!isfinite(v))
		return ev_buf_add(b, "null", 4);
	n = ev_jscan_fmt_g(s, sizeof s - 2, v, 10);
	if ((e = memchr(s, 'e', (size_t)n)) == NULL) {
		if (memchr(s, '.', (size_t)n) == NULL) {
			s[n++] = '.';
			s[n++] = '0';
			s[n] = '\0';
		}
	} else {
		e++;
		if (*e == '+')
			memmove(e, e + 1, strlen(e + 1) + 1);
		else if (*e == '-')
			e++;
		for (q = e; *q == '0' && q[1] != '\0'; q++)
			;
		if (q != e)
			memmove(e, q, strlen(q) + 1);
		n = (int)strlen(s);
	}
	return ev_buf_add(b, s, (size_t)n);
}

int
ev_jscan_put_str(struct ev_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, l;

	if (ev_buf_reserve(b, n + 2) == -1 || ev_buf_addc(b, '"') == -1)
		return -1;
	while (i < n) {
		char esc[7] = "\\u0000";
		const char *e;
		unsigned c;
		uint64_t x;

		/* eight bytes at a time while all are plain ASCII */
		while (n - i >= 8 && (memcpy(&x, p + i, 8), !ev_jscan_stops8(x, 1)))
			i += 8;
		if (i == n)
			break;
		c = p[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0x80 && (l = ev_utf8_len(p + i, n - i)) > 0) {
			i += l;
			continue;
		}
		if (ev_buf_add(b, p + run, i - run) == -1)
			return -1;
		switch (c) {
		case '"': e = "\\\""; break;
		case '\\': e = "\\\\"; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		default:
			if (c >= 0x80) {
				e = "\\ufffd";	/* not UTF-8 */
				break;
			}
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			e = esc;
		}
		if (ev_buf_adds(b, e) == -1)
			return -1;
		run = ++i;
	}
	if (ev_buf_add(b, p + run, n - run) == -1)
		return -1;
	return ev_buf_addc(b, '"');
}

int
ev_jscan_put_int(struct ev_buf *b, long long v)
{
	char s[24], *p = s + sizeof s;
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	if (v < 0)
		*--p = '-';
	return ev_buf_add(b, p, (size_t)(s + sizeof s - p));
}

/* The raw string text raw[0..n) (validated, no quotes) as the writer
 * writes its decoded string. */
static int
put_raw_str(struct ev_buf *b, const char *raw, size_t n)
{
	struct ev_buf s = EV_BUF_INIT;
	int r;

	if (memchr(raw, '\\', n) == NULL)	/* nothing to escape either */
		return ev_buf_addc(b, '"') | ev_buf_add(b, raw, n) | ev_buf_addc(b, '"');
	r = ev_jscan_decode(&s, raw, n) == -1 ? -1 : ev_jscan_put_str(b, s.p, s.len);
	ev_buf_release(&s);
	return r;
}

int
ev_jscan_put_value(struct ev_buf *b, const char *v, size_t n)
{
	const char *p, *end = v + n, *e;
	char close;
	double d;
	int r = 0;

	v = ws(v, end);	/* white space around the value */
	while (end > v && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		end--;
	n = (size_t)(end - v);
	p = v + 1;
	close = *v == '{' ? '}' : ']';
	switch (*v) {
	case '"':
		return put_raw_str(b, v + 1, n - 2);
	case 't': case 'f': case 'n':
		return ev_buf_add(b, v, n);
	case '{': case '[':
		break;
	default:
		if (ev_jscan_type(v, n) == EV_JINT)
			return ev_jscan_put_int(b, ev_jscan_integer(v, n));
		return ev_jscan_number(v, n, &d) == -1 ? -1 : ev_jscan_put_real(b, d);
	}
	r |= ev_buf_addc(b, *v);
	for (int first = 1;; first = 0) {
		p = ws(p, end);
		if (p >= end || *p == close)
			break;
		if (!first)
			r |= ev_buf_addc(b, ',');
		if (*v == '{') {	/* the key, its ':' */
			e = skip_value(p, end);
			r |= put_raw_str(b, p + 1, (size_t)(e - p - 2)) | ev_buf_addc(b, ':');
			p = ws(ws(e, end) + 1, end);
		}
		e = skip_value(p, end);
		r |= ev_jscan_put_value(b, p, (size_t)(e - p));
		p = ws(e, end);
		if (p < end && *p == ',')
			p++;
	}
	return r | ev_buf_addc(b, close) ? -1 : 0;
}

int
ev_jscan_put_object(struct ev_buf *b, const struct ev_jmem *m, size_t n,
	const struct ev_jscan_set *set, size_t nset)
{
	uint32_t placed = 0;	/* the members of set written in place */
	int bad = ev_buf_addc(b, '{'), first = 1;
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < nset && !ev_jscan_str_eq(m[i].key, m[i].klen, set[k].key); k++)
			;
		placed |= k < nset ? (uint32_t)1 << k : 0;
		if (k < nset && set[k].value == NULL)
			continue;
		/* (a key's raw text stands between its quotes) */
		bad |= (first ? 0 : ev_buf_addc(b, ',')) |
		    ev_jscan_put_value(b, m[i].key - 1, m[i].klen + 2) | ev_buf_addc(b, ':') |
		    (k < nset ? ev_buf_add(b, set[k].value, set[k].vlen) :
		    ev_jscan_put_value(b, m[i].val, m[i].vlen));
		first = 0;
	}
	for (k = 0; k < nset; k++)
		if (!(placed >> k & 1) && set[k].value != NULL) {
			bad |= (first ? 0 : ev_buf_addc(b, ',')) |
			    ev_jscan_put_str(b, set[k].key, strlen(set[k].key)) | ev_buf_addc(b, ':') |
			    ev_buf_add(b, set[k].value, set[k].vlen);
			first = 0;
		}
	return bad | ev_buf_addc(b, '}') ? -1 : 0;
}
