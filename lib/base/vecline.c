/* vecline.c: a fast reader of vector records (see vecline.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "utf8.h"
#include "vecline.h"

#define DEPTH_MAX 64

struct cur {
	const unsigned char *p, *end;
};

static void
ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

/* A string at c->p (the opening quote); its body in [*s, *e) when it has no
 * escapes (*esc = 0).  Returns 0 when invalid or holding \u escapes. */
static int
string(struct cur *c, const unsigned char **s, const unsigned char **e, int *esc)
{
	const unsigned char *p = c->p + 1;
	size_t len;

	*esc = 0;
	*s = p;
	while (p < c->end) {
		unsigned ch = *p;
		if (ch == '"') {
			*e = p;
			c->p = p + 1;
			return 1;
		}
		if (ch < 0x20)
			return 0;
		if (ch == '\\') {
			if (p + 1 >= c->end || strchr("\"\\/bfnrt", p[1]) == NULL || p[1] == '\0')
				return 0;	/* \u (surrogates to check) and bad escapes */
			*esc = 1;
			p += 2;
			continue;
		}
		if (ch < 0x80)
			len = 1;
		else if ((len = ev_utf8_len(p, (size_t)(c->end - p))) == 0)
			return 0;	/* invalid UTF-8 */
		p += len;
	}
	return 0;
}

/* A number at c->p, strictly by the JSON grammar, into *out.  Returns 0 for
 * what Jansson refuses (integers beyond 64 bits, reals that overflow). */
static int
number(struct cur *c, double *out)
{
	const unsigned char *p = c->p, *start = p;
	int real = 0;
	char *endp;

	if (p < c->end && *p == '-')
		p++;
	if (p >= c->end)
		return 0;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (p < c->end && *p >= '0' && *p <= '9')
			p++;
	else
		return 0;
	if (p < c->end && *p == '.') {
		real = 1;
		p++;
		if (p >= c->end || *p < '0' || *p > '9')
			return 0;
		while (p < c->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < c->end && (*p == 'e' || *p == 'E')) {
		real = 1;
		p++;
		if (p < c->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= c->end || *p < '0' || *p > '9')
			return 0;
		while (p < c->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (!real && p - start > 18)
		return 0;	/* may not fit 64 bits: let Jansson judge */
	errno = 0;
	*out = strtod((const char *)start, &endp);
	if ((const unsigned char *)endp != p)
		return 0;
	if (errno == ERANGE && (*out == HUGE_VAL || *out == -HUGE_VAL))
		return 0;
	c->p = p;
	return 1;
}

static int
literal(struct cur *c, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

/* Skip any JSON value. */
static int
value(struct cur *c, int depth)
{
	const unsigned char *s, *e;
	double d;
	int esc;

	if (c->p >= c->end)
		return 0;
	switch (*c->p) {
	case '"':
		return string(c, &s, &e, &esc);
	case '{':
	case '[': {
		unsigned char close = *c->p == '{' ? '}' : ']';
		int obj = close == '}';
		if (depth >= DEPTH_MAX)
			return 0;
		c->p++;
		ws(c);
		if (c->p < c->end && *c->p == close) {
			c->p++;
			return 1;
		}
		for (;;) {
			if (obj) {
				if (c->p >= c->end || *c->p != '"' || !string(c, &s, &e, &esc))
					return 0;
				ws(c);
				if (c->p >= c->end || *c->p != ':')
					return 0;
				c->p++;
				ws(c);
			}
			if (!value(c, depth + 1))
				return 0;
			ws(c);
			if (c->p < c->end && *c->p == ',') {
				c->p++;
				ws(c);
				continue;
			}
			if (c->p < c->end && *c->p == close) {
				c->p++;
				return 1;
			}
			return 0;
		}
	}
	case 't':
		return literal(c, "true");
	case 'f':
		return literal(c, "false");
	case 'n':
		return literal(c, "null");
	default:
		return number(c, &d);
	}
}

static int
keep(char **dst, size_t *cap, const unsigned char *s, const unsigned char *e)
{
	size_t n = (size_t)(e - s);

	if (n + 1 > *cap) {
		char *p = realloc(*dst, n + 1);
		if (p == NULL)
			return -1;
		*dst = p;
		*cap = n + 1;
	}
	memcpy(*dst, s, n);
	(*dst)[n] = '\0';
	return 0;
}

/* The "vector" array of numbers. */
static int
vector(struct ev_vecline *r, struct cur *c)
{
	double d;

	r->dim = 0;
	if (c->p >= c->end || *c->p != '[')
		return 0;
	c->p++;
	ws(c);
	if (c->p < c->end && *c->p == ']') {
		c->p++;
		return 1;
	}
	for (;;) {
		if (!number(c, &d))
			return 0;
		if (ev_grow(&r->v, &r->v_cap, r->dim, sizeof *r->v, 256) == -1)
			return -1;
		r->v[r->dim++] = (float)d;
		ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			ws(c);
			continue;
		}
		if (c->p < c->end && *c->p == ']') {
			c->p++;
			return 1;
		}
		return 0;
	}
}

int
ev_vecline_parse(struct ev_vecline *r, const char *line, size_t len)
{
	struct cur c = { (const unsigned char *)line, (const unsigned char *)line + len };
	int have_id = 0, have_vector = 0;

	r->dim = 0;
	r->has_model = 0;
	r->has_hash = 0;
	ws(&c);
	if (c.p >= c.end || *c.p != '{')
		return 0;
	c.p++;
	ws(&c);
	if (c.p < c.end && *c.p == '}')
		c.p++;
	else
		for (;;) {
			const unsigned char *s, *e, *vs, *ve;
			int esc, vesc;
			if (c.p >= c.end || *c.p != '"' || !string(&c, &s, &e, &esc))
				return 0;
			ws(&c);
			if (c.p >= c.end || *c.p != ':')
				return 0;
			c.p++;
			ws(&c);
			if (!esc && e - s == 6 && memcmp(s, "vector", 6) == 0) {
				int v = vector(r, &c);
				if (v != 1)
					return v;
				have_vector = 1;
			} else if (!esc && ((e - s == 2 && memcmp(s, "id", 2) == 0) ||
			    (e - s == 5 && memcmp(s, "model", 5) == 0) ||
			    (e - s == 12 && memcmp(s, "content_hash", 12) == 0))) {
				size_t klen = (size_t)(e - s);
				if (c.p >= c.end || *c.p != '"' || !string(&c, &vs, &ve, &vesc) || vesc)
					return 0;
				if (klen == 2 ? keep(&r->id, &r->id_cap, vs, ve) : klen == 5 ?
				    keep(&r->model, &r->model_cap, vs, ve) : keep(&r->hash, &r->hash_cap, vs, ve))
					return -1;
				if (klen == 2)
					have_id = 1;
				else if (klen == 5)
					r->has_model = 1;
				else
					r->has_hash = 1;
			} else if (esc) {
				return 0;	/* an escaped key might spell one of ours */
			} else if (!value(&c, 1)) {
				return 0;
			}
			ws(&c);
			if (c.p < c.end && *c.p == ',') {
				c.p++;
				ws(&c);
				continue;
			}
			if (c.p < c.end && *c.p == '}') {
				c.p++;
				break;
			}
			return 0;
		}
	ws(&c);
	if (c.p != c.end)
		return 0;
	/* Without an id or a vector, the Jansson path words the error. */
	return have_id && have_vector;
}

void
ev_vecline_release(struct ev_vecline *r)
{
	if (r == NULL)
		return;
	free(r->id);
	free(r->model);
	free(r->v);
	free(r->hash);
	memset(r, 0, sizeof *r);
}
