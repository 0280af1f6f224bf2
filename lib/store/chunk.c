/* chunk.c: the structure-following chunker.  See chunk.h.
 *
 * One pass over the lines finds the blocks of each section (paragraphs and
 * lists, fenced code, pipe tables) and the headings; when a section ends, its
 * blocks become units (a block, or the pieces of a block too long for a chunk:
 * list items, sentences, word runs, table row groups) and the units are packed
 * greedily into chunks. */
#include "chunk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "utf8.h"

enum { B_PARA, B_LIST, B_CODE, B_TABLE };
enum { U_TEXT, U_CODE, U_TABLE, U_TCONT };

#define NONE ((size_t)-1)

struct block {
	size_t s, e;		/* text[s, e), trimmed */
	size_t rows;		/* tables: where the first row starts (e: no rows) */
	int kind;
};

struct unit {
	size_t s, e;		/* text[s, e) */
	size_t hs, he;		/* U_TCONT: the header rows carried before */
	int kind;
};

struct line {
	size_t s, e;		/* the line's content, without CR LF */
	size_t next;		/* where the next line starts */
};

struct idset {
	struct ident {
		const char *key;	/* borrowed from a section */
		unsigned next;		/* the next "-N" suffix to try */
	} *v;
	size_t cap, n;
};

struct parser {
	const char *t;
	size_t len;
	size_t size, overlap;
	struct ev_chunks *out;
	size_t cur;		/* the current section */
	struct block *b;
	size_t nb, capb;
	struct unit *u;
	size_t nu, capu;
	struct {
		int level;
		size_t section;
	} stack[6];
	int depth;
	struct idset ids;
	size_t heading;		/* the section of the current heading (0: the top) */
	char major[EV_CHUNK_CLAUSE_MAX];	/* the current numbered clause's id, or "" */
	/* the paragraph being read */
	size_t para_s, para_e;
	int para_lines, para_kind, para_first_item;
};

static int
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Make room in array a (cap elements) for element n: 0, or -1 when out of
 * memory (a is left as it was). */
#define GROW(a, cap, n) ev_grow(&(a), &(cap), (n), sizeof *(a), 16)

static void
line_at(const char *t, size_t len, size_t pos, struct line *l)
{
	const char *nl = memchr(t + pos, '\n', len - pos);
	size_t e = nl ? (size_t)(nl - t) : len;

	l->s = pos;
	l->next = nl ? e + 1 : len;
	if (e > pos && t[e - 1] == '\r')
		e--;
	l->e = e;
}

static size_t
skip_ws(const char *t, size_t i, size_t e)
{
	while (i < e && isws((unsigned char)t[i]))
		i++;
	return i;
}

static size_t
trim_end(const char *t, size_t s, size_t e)
{
	while (e > s && isws((unsigned char)t[e - 1]))
		e--;
	return e;
}

static int
blank(const char *t, const struct line *l)
{
	return skip_ws(t, l->s, l->e) == l->e;
}

/* Up to three spaces of indentation, as Markdown allows before a heading or a
 * fence; NONE when there are more. */
static size_t
indent3(const char *t, const struct line *l)
{
	size_t i = l->s;

	while (i < l->e && t[i] == ' ' && i - l->s < 4)
		i++;
	return i - l->s > 3 || (i < l->e && t[i] == '\t') ? NONE : i;
}

/* An ATX heading: its level (1..6) with the title in [*ts, *te), or 0. */
static int
atx(const char *t, const struct line *l, size_t *ts, size_t *te)
{
	size_t i, h, e, c;
	int level;

	if ((i = indent3(t, l)) == NONE)
		return 0;
	for (h = i; i < l->e && t[i] == '#'; i++)
		;
	level = (int)(i - h);
	if (level < 1 || level > 6 || (i < l->e && t[i] != ' ' && t[i] != '\t'))
		return 0;
	i = skip_ws(t, i, l->e);
	e = trim_end(t, i, l->e);
	for (c = e; c > i && t[c - 1] == '#'; c--)
		;
	if (c < e && (c == i || t[c - 1] == ' ' || t[c - 1] == '\t'))
		e = trim_end(t, i, c);
	*ts = i;
	*te = e;
	return level;
}

/* A fence opening a code block: ``` or ~~~ (three or more). */
static int
fence_open(const char *t, const struct line *l, char *ch, size_t *n)
{
	size_t i, k;

	if ((i = indent3(t, l)) == NONE || i >= l->e || (t[i] != '`' && t[i] != '~'))
		return 0;
	for (k = i; k < l->e && t[k] == t[i]; k++)
		;
	if (k - i < 3 || (t[i] == '`' && memchr(t + k, '`', l->e - k) != NULL))
		return 0;
	*ch = t[i];
	*n = k - i;
	return 1;
}

static int
fence_close(const char *t, const struct line *l, char ch, size_t n)
{
	size_t i, k;

	if ((i = indent3(t, l)) == NONE)
		return 0;
	for (k = i; k < l->e && t[k] == ch; k++)
		;
	return k - i >= n && skip_ws(t, k, l->e) == l->e;
}

/* A one-line setext underline: 1 for "===", 2 for "---", else 0. */
static int
setext(const char *t, const struct line *l)
{
	size_t i, k;

	if ((i = indent3(t, l)) == NONE || i >= l->e || (t[i] != '=' && t[i] != '-'))
		return 0;
	for (k = i; k < l->e && t[k] == t[i]; k++)
		;
	if (skip_ws(t, k, l->e) != l->e || (t[i] == '-' && k - i < 2))
		return 0;
	return t[i] == '=' ? 1 : 2;
}

/* A table's delimiter row: only '|', ':', '-' and blanks, with a '-' and a '|'. */
static int
delim_row(const char *t, const struct line *l)
{
	int dash = 0, pipe = 0;

	for (size_t i = l->s; i < l->e; i++) {
		if (t[i] == '-')
			dash = 1;
		else if (t[i] == '|')
			pipe = 1;
		else if (t[i] != ':' && t[i] != ' ' && t[i] != '\t')
			return 0;
	}
	return dash && pipe;
}

/* A list item: "- ", "* ", "+ ", "1. ", "1) " after any indentation. */
static int
list_item(const char *t, const struct line *l)
{
	size_t i = l->s, d;

	while (i < l->e && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (i + 1 < l->e && (t[i] == '-' || t[i] == '*' || t[i] == '+') &&
	    (t[i + 1] == ' ' || t[i + 1] == '\t'))
		return 1;
	for (d = i; i < l->e && i - d < 9 && t[i] >= '0' && t[i] <= '9'; i++)
		;
	return i > d && i + 1 < l->e && (t[i] == '.' || t[i] == ')') &&
	    (t[i + 1] == ' ' || t[i + 1] == '\t');
}

/* ---- clauses ---- */

/* The words that name a numbered clause ("Article 5"). */
static const char *const clause_words[] = {
	"Article", "Clause", "Paragraph", "Policy", "Rule", "Section", NULL
};

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether t[i, e) ends a clause number: the end of the line, white space, or
 * ':' or '.' before white space or the end. */
static int
number_ends(const char *t, size_t i, size_t e)
{
	if (i == e || isws((unsigned char)t[i]))
		return 1;
	return (t[i] == ':' || t[i] == '.') && (i + 1 == e || isws((unsigned char)t[i + 1]));
}

/* Whether t[i, e) may follow a plain clause number after a clause word, so
 * that "Section 5 of the Act ..." stays prose: the end of the line, ':' or
 * '.' (then white space or the end), ')' or a dash after white space. */
static int
title_follows(const char *t, size_t i, size_t e)
{
	size_t j = skip_ws(t, i, e);

	if (j == e || t[i] == ')')
		return 1;
	if ((t[i] == ':' || t[i] == '.') && (i + 1 == e || isws((unsigned char)t[i + 1])))
		return 1;
	return j > i && (t[j] == '-' || (j + 2 < e && (unsigned char)t[j] == 0xe2 &&
	    (unsigned char)t[j + 1] == 0x80 && ((unsigned char)t[j + 2] == 0x93 ||
	    (unsigned char)t[j + 2] == 0x94)));	/* en or em dash */
}

/* A clause id token at t[i, e): letters, digits and inner dots, holding a
 * digit, at most 24 bytes.  Returns its end (a final '.' left out), or i. */
static size_t
clause_token(const char *t, size_t i, size_t e, int *letters)
{
	size_t j = i;
	int digits = 0;

	*letters = 0;
	while (j < e && j - i < 24 && (is_alpha(t[j]) || is_digit(t[j]) ||
	    (t[j] == '.' && j > i && j + 1 < e && (is_alpha(t[j + 1]) || is_digit(t[j + 1]))))) {
		digits |= is_digit(t[j]);
		*letters |= is_alpha(t[j]);
		j++;
	}
	return digits ? j : i;
}

/* A lowercase roman numeral of 1 to 6 letters, or one letter, or 1 to 3
 * digits, at t[i, j). */
static int
minor_number(const char *t, size_t i, size_t j)
{
	size_t n = j - i, k;

	if (n == 0)
		return 0;
	for (k = i; k < j && is_digit(t[k]); k++)
		;
	if (k == j)
		return n <= 3;
	if (n == 1)
		return is_alpha(t[i]);
	for (k = i; k < j && (t[k] == 'i' || t[k] == 'v' || t[k] == 'x'); k++)
		;
	return k == j && n <= 6;
}

/* The clause a line opens (chunk.h): 1 for a numbered clause ("1.2",
 * "Article 5", "Policy H2.1", "§ 3"), 2 for a lettered one ("(a)"), with its
 * id into label (EV_CHUNK_CLAUSE_MAX bytes); 0 for none. */
static int
clause_marker(const char *t, const struct line *l, char *label)
{
	size_t i = indent3(t, l), e = l->e, j;
	int letters;

	if (i == NONE || i >= e)
		return 0;
	if (t[i] == '(') {	/* (a), (iv), (12) */
		for (j = i + 1; j < e && j - i < 8 && (is_alpha(t[j]) || is_digit(t[j])); j++)
			;
		if (j < e && t[j] == ')' && minor_number(t, i + 1, j) &&
		    (j + 1 == e || isws((unsigned char)t[j + 1]))) {
			snprintf(label, EV_CHUNK_CLAUSE_MAX, "%.*s", (int)(j + 1 - i), t + i);
			return 2;
		}
		return 0;
	}
	if (is_digit(t[i])) {	/* 1.2, 3.1.4 */
		int parts = 1;

		for (j = i; j < e && j - i < 24; j++) {
			if (t[j] == '.' && j + 1 < e && is_digit(t[j + 1]) && is_digit(t[j - 1]))
				parts++;
			else if (!is_digit(t[j]))
				break;
		}
		if (parts < 2 || !number_ends(t, j, e))
			return 0;
		/* "1.5 million" is a number: two parts need a capital, '(' or
		 * nothing after them */
		size_t k = skip_ws(t, j + (j < e && (t[j] == ':' || t[j] == '.')), e);

		if (parts == 2 && k < e && !(t[k] >= 'A' && t[k] <= 'Z') && t[k] != '(')
			return 0;
		snprintf(label, EV_CHUNK_CLAUSE_MAX, "%.*s", (int)(j - i), t + i);
		return 1;
	}
	if ((unsigned char)t[i] == 0xc2 && i + 1 < e && (unsigned char)t[i + 1] == 0xa7) {
		size_t k = skip_ws(t, i + 2, e);	/* § 3 */

		j = clause_token(t, k, e, &letters);
		if (j == k || !number_ends(t, j, e))
			return 0;
		snprintf(label, EV_CHUNK_CLAUSE_MAX, "\xc2\xa7 %.*s", (int)(j - k), t + k);
		return 1;
	}
	for (int w = 0; clause_words[w] != NULL; w++) {
		size_t n = strlen(clause_words[w]), k;

		if (e - i <= n || strncasecmp(t + i, clause_words[w], n) != 0 || t[i] != clause_words[w][0] ||
		    (t[i + n] != ' ' && t[i + n] != '\t'))
			continue;
		k = skip_ws(t, i + n, e);
		j = clause_token(t, k, e, &letters);
		/* "Policy H2.1 Housing": an id of letters and digits says
		 * enough; "Article 5" must end the line or be followed by ':',
		 * '.' or a dash */
		if (j == k || !(letters ? number_ends(t, j, e) : title_follows(t, j, e)))
			return 0;
		snprintf(label, EV_CHUNK_CLAUSE_MAX, "%s %.*s", clause_words[w], (int)(j - k), t + k);
		return 1;
	}
	return 0;
}

/* ---- section ids ---- */

static struct ident *
ids_find(struct idset *set, const char *key)
{
	size_t i;

	if (set->cap == 0)
		return NULL;
	for (i = ev_hash_str64(key) & (set->cap - 1); set->v[i].key; i = (i + 1) & (set->cap - 1))
		if (strcmp(set->v[i].key, key) == 0)
			return &set->v[i];
	return &set->v[i];	/* the empty slot */
}

static int
ids_add(struct idset *set, const char *key)
{
	struct ident *slot;

	if ((set->n + 1) * 2 > set->cap) {
		struct idset big = { NULL, set->cap ? set->cap * 2 : 64, 0 };

		if ((big.v = calloc(big.cap, sizeof *big.v)) == NULL)
			return -1;
		for (size_t i = 0; i < set->cap; i++)
			if (set->v[i].key) {
				*ids_find(&big, set->v[i].key) = set->v[i];
				big.n++;
			}
		free(set->v);
		*set = big;
	}
	slot = ids_find(set, key);
	slot->key = key;
	slot->next = 2;
	set->n++;
	return 0;
}

void
ev_chunk_slug(const char *s, size_t n, char out[61])
{
	size_t k = 0, j;
	int dash = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80 ||
		    (c >= 'A' && c <= 'Z')) {
			if (k + (dash && k > 0) + 1 > 60)
				break;
			if (dash && k > 0)
				out[k++] = '-';
			dash = 0;
			out[k++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : (char)c;
		} else
			dash = 1;
	}
	/* Drop a character cut at the limit (the last that begins with a lead
	 * byte, invalid where it stands). */
	for (j = k; j > 0 && ((unsigned char)out[j - 1] & 0xC0) == 0x80; j--)
		;
	if (j > 0 && (unsigned char)out[j - 1] >= 0xC0 &&
	    ev_utf8_len((const unsigned char *)out + j - 1, k - (j - 1)) == 0)
		k = j - 1;
	while (k > 0 && out[k - 1] == '-')
		k--;
	if (k == 0) {
		memcpy(out, "section", 8);
		return;
	}
	out[k] = '\0';
}

static char *
dupn(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* Add a section (id and path are taken over; title is copied). */
static int
add_section(struct parser *p, char *id, const char *title, size_t tn, char *path, int level)
{
	struct ev_chunks *o = p->out;
	struct ev_section *s;

	if (GROW(o->sections, o->cap_sections, o->nsections) == -1) {
		free(id);
		free(path);
		return -1;
	}
	s = &o->sections[o->nsections];
	s->id = id;
	s->path = path;
	s->level = level;
	s->clause = NULL;
	if ((s->title = dupn(title, tn)) == NULL) {
		free(id);
		free(path);
		return -1;
	}
	o->nsections++;
	if (ids_add(&p->ids, s->id) == -1)
		return -1;
	p->cur = o->nsections - 1;
	return 0;
}

/* A unique id from base (taken over): base, else base-2, base-3, ... */
static char *
unique_id(struct parser *p, char *base)
{
	struct ident *first = ids_find(&p->ids, base);
	size_t n = strlen(base);
	char *id;

	if (first == NULL || first->key == NULL)
		return base;
	if ((id = malloc(n + 24)) == NULL) {
		free(base);
		return NULL;
	}
	for (;;) {
		struct ident *slot;

		snprintf(id, n + 24, "%s-%u", base, first->next++);
		slot = ids_find(&p->ids, id);
		if (slot->key == NULL)
			break;
	}
	free(base);
	return id;
}

/* ---- units and packing ---- */

static int
add_unit(struct parser *p, int kind, size_t s, size_t e, size_t hs, size_t he)
{
	if (GROW(p->u, p->capu, p->nu) == -1)
		return -1;
	p->u[p->nu++] = (struct unit){ s, e, hs, he, kind };
	return 0;
}

/* Pieces of at most size bytes, cut between words (a longer word stays whole). */
static int
split_words(struct parser *p, size_t s, size_t e)
{
	const char *t = p->t;

	while (e - s > p->size) {
		size_t q = s + p->size, pe;

		while (q > s && !isws((unsigned char)t[q]))
			q--;
		if (q == s)
			for (q = s + p->size; q < e && !isws((unsigned char)t[q]); q++)
				;
		pe = trim_end(t, s, q);
		if (add_unit(p, U_TEXT, s, pe, 0, 0) == -1)
			return -1;
		if ((s = skip_ws(t, q, e)) >= e)
			return 0;
	}
	return add_unit(p, U_TEXT, s, e, 0, 0);
}

/* The length of the sentence end at t[i] (i < e): 1 for '.', '!' or '?'
 * before a space or e; 3 for the ideographic full stop or the full-width
 * exclamation or question mark (U+3002, U+FF01, U+FF1F), which Chinese and
 * Japanese put no space after; else 0. */
static size_t
sentence_end(const char *t, size_t i, size_t e)
{
	const unsigned char *u = (const unsigned char *)t + i;

	if (*u == '.' || *u == '!' || *u == '?')
		return i + 1 == e || isws(u[1]) ? 1 : 0;
	if (e - i < 3)
		return 0;
	if (u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x82)
		return 3;
	return u[0] == 0xef && u[1] == 0xbc && (u[2] == 0x81 || u[2] == 0x9f) ? 3 : 0;
}

/* Sentences; a sentence longer than size is cut between words. */
static int
split_sentences(struct parser *p, size_t s, size_t e)
{
	const char *t = p->t;
	size_t cur = s, n;

	for (size_t i = s; i < e; i++) {
		if ((n = sentence_end(t, i, e)) > 0) {
			int r = i + n - cur > p->size ? split_words(p, cur, i + n) :
			    add_unit(p, U_TEXT, cur, i + n, 0, 0);

			if (r == -1)
				return -1;
			cur = i = skip_ws(t, i + n, e);
			if (cur >= e)
				return 0;
			i--;
		}
	}
	if (cur < e)
		return e - cur > p->size ? split_words(p, cur, e) : add_unit(p, U_TEXT, cur, e, 0, 0);
	return 0;
}

/* A list: item by item (lines before the first item are one piece). */
static int
split_list(struct parser *p, size_t s, size_t e)
{
	struct line l;
	size_t cur = s, pos;

	line_at(p->t, p->len, s, &l);
	for (pos = l.next; pos < e; pos = l.next) {
		line_at(p->t, p->len, pos, &l);
		if (!list_item(p->t, &l))
			continue;
		size_t ue = trim_end(p->t, cur, l.s);
		if ((ue - cur > p->size ? split_sentences(p, cur, ue) :
		    add_unit(p, U_TEXT, cur, ue, 0, 0)) == -1)
			return -1;
		cur = skip_ws(p->t, l.s, e);
	}
	return e - cur > p->size ? split_sentences(p, cur, e) : add_unit(p, U_TEXT, cur, e, 0, 0);
}

/* A table in row groups; the later groups carry the header rows. */
static int
split_table(struct parser *p, const struct block *b)
{
	size_t hs = b->s, he = b->rows, hlen = he - hs;
	size_t part = b->s, pend = NONE, pos;
	int first = 1;
	struct line l;

	for (pos = b->rows; pos < b->e; pos = l.next) {
		size_t rs, re;

		line_at(p->t, p->len, pos, &l);
		rs = skip_ws(p->t, l.s, l.e);
		re = trim_end(p->t, l.s, l.e);
		if (re > b->e)
			re = b->e;
		if (pend != NONE && (first ? re - part : hlen + re - part) > p->size) {
			if (add_unit(p, first ? U_TABLE : U_TCONT, part, pend, first ? 0 : hs,
			    first ? 0 : he) == -1)
				return -1;
			first = 0;
			part = rs;
		}
		pend = re;
	}
	return add_unit(p, first ? U_TABLE : U_TCONT, part, b->e, first ? 0 : hs, first ? 0 : he);
}

static int
sentence_start(const char *t, size_t p)
{
	while (p > 0 && isws((unsigned char)t[p - 1]))
		p--;
	return p > 0 && (t[p - 1] == '.' || t[p - 1] == '!' || t[p - 1] == '?' || t[p - 1] == ':');
}

/* Where the chunk after units [i0, i) (which span [ps, pe)) starts so that it
 * overlaps the previous one: a unit start, a sentence start or a word start in
 * the window, the earliest of the first kind found, else of the last; NONE. */
static size_t
overlap_start(struct parser *p, size_t i0, size_t i, size_t ps, size_t pe)
{
	const char *t = p->t;
	size_t lo, word = NONE;

	if (p->overlap == 0 || p->u[i].kind == U_TCONT)
		return NONE;
	lo = pe > p->overlap ? pe - p->overlap : 0;
	if (lo < ps + 1)
		lo = ps + 1;
	if (p->u[i].e > p->size && lo < p->u[i].e - p->size)
		lo = p->u[i].e - p->size;
	if (lo >= pe)
		return NONE;
	for (size_t k = i0; k < i; k++) {
		const struct unit *u = &p->u[k];

		if (u->e <= lo)
			continue;
		if (u->s >= lo) {
			if (u->kind != U_TCONT)
				return u->s;
			continue;
		}
		if (u->kind != U_TEXT)
			continue;
		for (size_t q = lo; q < u->e; q++)
			if (isws((unsigned char)t[q - 1]) && !isws((unsigned char)t[q])) {
				if (sentence_start(t, q))
					return q;
				if (word == NONE)
					word = q;
			}
	}
	return word;
}

static int
pack(struct parser *p)
{
	struct ev_chunks *o = p->out;
	size_t i = 0, i0 = 0, ps = 0, pe = 0;
	int index = 0;

	while (i < p->nu) {
		struct ev_chunk c = { p->cur, index, p->u[i].s, p->u[i].e, 0, 0 };
		size_t j, hlen, os;

		if (p->u[i].kind == U_TCONT) {
			c.head_start = p->u[i].hs;
			c.head_end = p->u[i].he;
		} else if (index > 0 && (os = overlap_start(p, i0, i, ps, pe)) != NONE)
			c.start = os;
		hlen = c.head_end - c.head_start;
		for (j = i + 1; j < p->nu && p->u[j].kind != U_TCONT &&
		    hlen + p->u[j].e - c.start <= p->size; j++)
			c.end = p->u[j].e;
		if (GROW(o->v, o->cap_v, o->n) == -1)
			return -1;
		o->v[o->n++] = c;
		index++;
		i0 = i;
		ps = c.start;
		pe = c.end;
		i = j;
	}
	return 0;
}

/* The section's blocks become units, packed into chunks. */
static int
end_section(struct parser *p)
{
	p->nu = 0;
	for (size_t k = 0; k < p->nb; k++) {
		const struct block *b = &p->b[k];
		int r;

		if (b->e - b->s <= p->size || b->kind == B_CODE)
			r = add_unit(p, b->kind == B_CODE ? U_CODE : b->kind == B_TABLE ? U_TABLE :
			    U_TEXT, b->s, b->e, 0, 0);
		else if (b->kind == B_TABLE)
			r = b->rows >= b->e ? add_unit(p, U_TABLE, b->s, b->e, 0, 0) :
			    split_table(p, b);
		else if (b->kind == B_LIST)
			r = split_list(p, b->s, b->e);
		else
			r = split_sentences(p, b->s, b->e);
		if (r == -1)
			return -1;
	}
	p->nb = 0;
	return pack(p);
}

static int
add_block(struct parser *p, int kind, size_t s, size_t e, size_t rows)
{
	if (GROW(p->b, p->capb, p->nb) == -1)
		return -1;
	p->b[p->nb++] = (struct block){ s, e, rows, kind };
	return 0;
}

static int
end_para(struct parser *p)
{
	if (p->para_s == NONE)
		return 0;
	size_t s = p->para_s;

	p->para_s = NONE;
	return add_block(p, p->para_kind, s, p->para_e, 0);
}

static int
heading(struct parser *p, int level, size_t ts, size_t te)
{
	struct ev_chunks *o = p->out;
	const struct ev_section *parent;
	char slug[61], *id, *path;
	size_t n;

	if (end_section(p) == -1)
		return -1;
	while (p->depth > 0 && p->stack[p->depth - 1].level >= level)
		p->depth--;
	parent = p->depth > 0 ? &o->sections[p->stack[p->depth - 1].section] : NULL;
	ev_chunk_slug(p->t + ts, te - ts, slug);
	n = (parent ? strlen(parent->id) + strlen(parent->path) : 0) + 64 + (te - ts);
	if ((id = malloc(n)) == NULL || (path = malloc(n)) == NULL) {
		free(id);
		return -1;
	}
	if (parent) {
		snprintf(id, n, "%s/%s", parent->id, slug);
		snprintf(path, n, "%s > %.*s", parent->path, (int)(te - ts), p->t + ts);
	} else {
		snprintf(id, n, "%s", slug);
		snprintf(path, n, "%.*s", (int)(te - ts), p->t + ts);
	}
	if ((id = unique_id(p, id)) == NULL) {
		free(path);
		return -1;
	}
	if (add_section(p, id, p->t + ts, te - ts, path, level) == -1)
		return -1;
	p->heading = p->cur;
	p->major[0] = '\0';
	p->stack[p->depth].level = level;
	p->stack[p->depth].section = p->cur;
	p->depth++;
	if (level == 1 && o->title == NULL && (o->title = dupn(p->t + ts, te - ts)) == NULL)
		return -1;
	return 0;
}

/* Open the section of the clause whose id is label (kind: 1 numbered, 2
 * lettered, under the current numbered one) under the current heading. */
static int
clause(struct parser *p, int kind, const char *label)
{
	const struct ev_section *parent;
	char cid[2 * EV_CHUNK_CLAUSE_MAX], slug[61], *id, *path, *title;
	size_t n;
	int r;

	if (end_section(p) == -1)
		return -1;
	if (kind == 1)
		snprintf(p->major, sizeof p->major, "%s", label);
	snprintf(cid, sizeof cid, "%s%s", kind == 2 ? p->major : "", label);
	parent = &p->out->sections[p->heading];
	ev_chunk_slug(cid, strlen(cid), slug);
	n = strlen(parent->id) + strlen(parent->path) + sizeof cid + 64;
	if ((id = malloc(n)) == NULL || (path = malloc(n)) == NULL) {
		free(id);
		return -1;
	}
	snprintf(id, n, "%s%s%s", p->heading ? parent->id : "", p->heading ? "/" : "", slug);
	snprintf(path, n, "%s%s%s", parent->path, p->heading ? " > " : "", cid);
	if ((title = dupn(parent->title, strlen(parent->title))) == NULL) {
		free(id);
		free(path);
		return -1;
	}
	if ((id = unique_id(p, id)) == NULL) {
		free(path);
		free(title);
		return -1;
	}
	r = add_section(p, id, title, strlen(title), path, parent->level + 1);
	free(title);
	if (r == -1)
		return -1;
	return (p->out->sections[p->cur].clause = dupn(cid, strlen(cid))) == NULL ? -1 : 0;
}

static int
parse(struct parser *p, int markdown)
{
	const char *t = p->t;
	size_t pos = 0, ts, te;
	struct line l, m;
	int level;
	char ch, label[EV_CHUNK_CLAUSE_MAX];

	while (pos < p->len) {
		line_at(t, p->len, pos, &l);
		if (blank(t, &l)) {
			if (end_para(p) == -1)
				return -1;
			pos = l.next;
			continue;
		}
		if (markdown) {
			size_t n;

			if (fence_open(t, &l, &ch, &n)) {
				size_t q = l.next, e = NONE;

				if (end_para(p) == -1)
					return -1;
				while (q < p->len) {
					line_at(t, p->len, q, &m);
					q = m.next;
					if (fence_close(t, &m, ch, n)) {
						e = trim_end(t, m.s, m.e);
						break;
					}
				}
				if (e == NONE)
					e = trim_end(t, l.s, p->len);
				if (add_block(p, B_CODE, skip_ws(t, l.s, l.e), e, 0) == -1)
					return -1;
				pos = q;
				continue;
			}
			if ((level = atx(t, &l, &ts, &te)) > 0) {
				if (end_para(p) == -1 || heading(p, level, ts, te) == -1)
					return -1;
				pos = l.next;
				continue;
			}
			if (p->para_s != NONE && p->para_lines == 1 && !p->para_first_item &&
			    (level = setext(t, &l)) > 0) {
				ts = p->para_s;
				te = p->para_e;
				p->para_s = NONE;
				if (heading(p, level, ts, te) == -1)
					return -1;
				pos = l.next;
				continue;
			}
			if (memchr(t + l.s, '|', l.e - l.s) != NULL && l.next < p->len) {
				line_at(t, p->len, l.next, &m);
				if (delim_row(t, &m)) {
					size_t s = skip_ws(t, l.s, l.e), e = trim_end(t, m.s, m.e);
					size_t rows = m.next, q = m.next;
					struct line r;

					if (end_para(p) == -1)
						return -1;
					while (q < p->len) {
						line_at(t, p->len, q, &r);
						if (blank(t, &r) || fence_open(t, &r, &ch, &n) ||
						    atx(t, &r, &ts, &te))
							break;
						e = trim_end(t, r.s, r.e);
						q = r.next;
					}
					if (add_block(p, B_TABLE, s, e, rows < e ? rows : e) == -1)
						return -1;
					pos = q;
					continue;
				}
			}
		}
		if ((level = clause_marker(t, &l, label)) > 0) {
			if (end_para(p) == -1 || clause(p, level, label) == -1)
				return -1;
		}
		if (p->para_s == NONE) {
			p->para_s = skip_ws(t, l.s, l.e);
			p->para_lines = 0;
			p->para_kind = B_PARA;
			p->para_first_item = markdown && list_item(t, &l);
		}
		if (markdown && list_item(t, &l))
			p->para_kind = B_LIST;
		p->para_e = trim_end(t, l.s, l.e);
		p->para_lines++;
		pos = l.next;
	}
	if (end_para(p) == -1)
		return -1;
	return end_section(p);
}

int
ev_chunk_split(const char *text, size_t len, const struct ev_chunk_opts *o,
	struct ev_chunks *out, struct ev_err *err)
{
	struct parser p;
	char *id, *path;
	int r;

	*out = (struct ev_chunks)EV_CHUNKS_INIT;
	if (o->size < EV_CHUNK_SIZE_MIN || o->size > EV_CHUNK_SIZE_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "chunk size must be from %d to %d bytes: %zu", EV_CHUNK_SIZE_MIN,
		    EV_CHUNK_SIZE_MAX, o->size);
	if (o->overlap > o->size / 2)
		return ev_err_set(err, EV_EXIT_USAGE, NULL,
		    "chunk overlap must be at most half the chunk size (%zu): %zu",
		    o->size / 2, o->overlap);
	memset(&p, 0, sizeof p);
	p.t = text ? text : "";
	p.len = text ? len : 0;
	p.size = o->size;
	p.overlap = o->overlap;
	p.out = out;
	p.para_s = NONE;
	id = dupn(EV_CHUNK_TOP, strlen(EV_CHUNK_TOP));
	path = dupn("", 0);
	if (id == NULL || path == NULL) {
		free(id);
		free(path);
		r = -1;
	} else
		r = add_section(&p, id, "", 0, path, 0);
	if (r == 0)
		r = parse(&p, o->format == EV_CHUNK_MARKDOWN);
	free(p.b);
	free(p.u);
	free(p.ids.v);
	if (r == -1) {
		ev_chunks_release(out);
		return ev_err_nomem(err);
	}
	return 0;
}

void
ev_chunks_release(struct ev_chunks *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->nsections; i++) {
		free(c->sections[i].id);
		free(c->sections[i].title);
		free(c->sections[i].path);
		free(c->sections[i].clause);
	}
	free(c->sections);
	free(c->v);
	free(c->title);
	*c = (struct ev_chunks)EV_CHUNKS_INIT;
}

int
ev_chunk_text(const char *text, const struct ev_chunk *c, struct ev_buf *out)
{
	if (c->head_end > c->head_start &&
	    ev_buf_add(out, text + c->head_start, c->head_end - c->head_start) == -1)
		return -1;
	return ev_buf_add(out, text + c->start, c->end - c->start);
}

const char *
ev_chunk_clause_of(const char *path, size_t *len)
{
	const char *last = path, *q;
	struct line l;
	char label[EV_CHUNK_CLAUSE_MAX];
	size_t n, k;

	if (path == NULL)
		return NULL;
	while ((q = strstr(last, " > ")) != NULL)
		last = q + 3;
	n = strlen(last);
	l.s = 0, l.e = l.next = n;
	if (n == 0 || n >= 2 * EV_CHUNK_CLAUSE_MAX)
		return NULL;
	if (clause_marker(last, &l, label) > 0 && strlen(label) == n) {
		*len = n;
		return last;
	}
	/* "1.2(a)": a numbered clause's id, then a lettered one's */
	if ((q = strrchr(last, '(')) == NULL || (k = (size_t)(q - last)) == 0)
		return NULL;
	l.e = l.next = k;
	if (clause_marker(last, &l, label) != 1 || strlen(label) != k)
		return NULL;
	l.s = k, l.e = l.next = n;
	if (clause_marker(last, &l, label) != 2 || strlen(label) != n - k)
		return NULL;
	*len = n;
	return last;
}
