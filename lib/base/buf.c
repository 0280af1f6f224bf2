/* buf.c: a growable byte buffer.  See buf.h. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
ev_buf_reserve(struct ev_buf *b, size_t n)
{
	size_t need, cap;
	char *p;

	if (n > (size_t)-1 / 2 - b->len)
		return -1;
	need = b->len + n + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	if ((p = realloc(b->p, cap)) == NULL)
		return -1;
	if (b->p == NULL)
		p[0] = '\0';
	b->p = p;
	b->cap = cap;
	return 0;
}

int
ev_buf_add(struct ev_buf *b, const void *s, size_t n)
{
	if (ev_buf_reserve(b, n) == -1)
		return -1;
	if (n > 0)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int
ev_buf_add_varint(struct ev_buf *b, uint64_t v)
{
	unsigned char *p;

	/* written in place: ingest records two varints or more for every
	 * token it indexes, and the postings file's build for every entry */
	if (b->cap - b->len < 12 && ev_buf_reserve(b, 10) == -1)
		return -1;
	p = ev_varint_put((unsigned char *)b->p + b->len, v);
	b->len = (size_t)(p - (unsigned char *)b->p);
	b->p[b->len] = '\0';
	return 0;
}

int
ev_buf_adds(struct ev_buf *b, const char *s)
{
	return ev_buf_add(b, s, strlen(s));
}

int
ev_buf_addc(struct ev_buf *b, int c)
{
	char ch = (char)c;

	return ev_buf_add(b, &ch, 1);
}

int
ev_buf_printf(struct ev_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || ev_buf_reserve(b, (size_t)n) == -1)
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void
ev_buf_reset(struct ev_buf *b)
{
	b->len = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

void
ev_buf_release(struct ev_buf *b)
{
	if (b == NULL)
		return;
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

const char *
ev_buf_str(const struct ev_buf *b)
{
	return b->p ? b->p : "";
}

int
ev_grow(void *pv, size_t *cap, size_t n, size_t elem, size_t first)
{
	size_t nc = *cap ? *cap : first ? first : 1;
	void *p;

	if (n < *cap)
		return 0;
	while (nc <= n) {
		if (nc > SIZE_MAX / 2)
			return -1;
		nc *= 2;
	}
	if (elem != 0 && nc > SIZE_MAX / elem)
		return -1;
	memcpy(&p, pv, sizeof p);
	if ((p = realloc(p, nc * elem)) == NULL)
		return -1;
	memcpy(pv, &p, sizeof p);
	*cap = nc;
	return 0;
}

int
ev_ptr_take(void *pv, size_t *n, size_t *cap, void *p, size_t first)
{
	char *v;

	if (ev_grow(pv, cap, *n, sizeof p, first) == -1) {
		free(p);
		return -1;
	}
	memcpy(&v, pv, sizeof v);
	memcpy(v + *n * sizeof p, &p, sizeof p);
	(*n)++;
	return 0;
}
