/* snippet.c: the best passage of a text, terms marked.  See snippet.h. */
#include "snippet.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strmap.h"

#define ELLIPSIS "\xe2\x80\xa6"

struct term {
	int len;
	int group;
	int found;
};

struct tokpos {
	int start, end;
	int term;		/* index in sn->terms, or -1 */
	int cost;		/* its share of the window (token_cost()) */
};

/* A window of opts.tokens words holds WORD_COST * opts.tokens of cost: a
 * word of a script written with spaces costs WORD_COST, a Chinese or
 * Japanese token (a word of one or two characters, or a pair of adjacent
 * characters beside it) 1, so that a snippet of such text spans about as
 * much meaning as one of words, not a third of it (each character is
 * about 1.6 tokens, and a word about 1.5 characters). */
#define WORD_COST 3

struct ev_snippet {
	struct ev_tok *tok;
	struct ev_snippet_opts opts;
	struct term *terms;
	int nterms, capterms;
	struct ev_strmap map;	/* the terms, numbered as in terms */
	uint64_t seen[256];	/* by first byte: bit len_bit(len) of each term's length */
	int *found;		/* per group */
	int *wincount;		/* per group, while choosing a window */
	int ngroups, capgroups;
	struct tokpos *toks;	/* the tokens of the text being snipped */
	int ntoks, captoks;
	int scan_only;
	const char *text;	/* the text being snipped (for token_cost()) */
	int adding_group;	/* ev_snippet_add_query: next group number */
	int added;
	struct ev_err *err;	/* where a callback reports */
};

/* A length's bit in seen[]: lengths of 63 bytes and over share the last. */
static inline uint64_t
len_bit(int len)
{
	return (uint64_t)1 << (len < 63 ? len : 63);
}

/* The number of term s, or -1.  Most words of a text are no term: seen[]
 * answers for them without hashing (a snippet looks up every word). */
static inline int
lookup(const struct ev_snippet *sn, const char *s, int len)
{
	if (len <= 0 || !(sn->seen[(unsigned char)s[0]] & len_bit(len)))
		return -1;
	return ev_strmap_find(&sn->map, s, (size_t)len);
}

static int
grow_groups(struct ev_snippet *sn, int group)
{
	int cap = sn->capgroups ? sn->capgroups : 16;
	int *f, *w;

	while (cap <= group)
		cap *= 2;
	if (cap == sn->capgroups)
		return 0;
	if ((f = realloc(sn->found, (size_t)cap * sizeof *f)) == NULL)
		return -1;
	sn->found = f;
	if ((w = realloc(sn->wincount, (size_t)cap * sizeof *w)) == NULL)
		return -1;
	sn->wincount = w;
	memset(f + sn->capgroups, 0, (size_t)(cap - sn->capgroups) * sizeof *f);
	sn->capgroups = cap;
	return 0;
}

struct ev_snippet *
ev_snippet_new(struct ev_tok *tok, const struct ev_snippet_opts *opts, struct ev_err *err)
{
	struct ev_snippet *sn = calloc(1, sizeof *sn);

	if (sn == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	sn->tok = tok;
	sn->opts = *opts;
	if (sn->opts.tokens < 1)
		sn->opts.tokens = 1;
	if (sn->opts.open == NULL)
		sn->opts.open = "";
	if (sn->opts.close == NULL)
		sn->opts.close = "";
	return sn;
}

void
ev_snippet_reset(struct ev_snippet *sn)
{
	ev_strmap_reset(&sn->map);
	memset(sn->seen, 0, sizeof sn->seen);
	sn->nterms = 0;
	sn->ngroups = 0;
	if (sn->found != NULL)
		memset(sn->found, 0, (size_t)sn->capgroups * sizeof *sn->found);
}

/* A term to mark in group, or only to count (WATCH). */
#define WATCH (-1)

int
ev_snippet_term_lookup(const struct ev_snippet *sn, const char *term, int len, int *group)
{
	int t = lookup(sn, term, len);

	if (t >= 0)
		*group = sn->terms[t].group;
	return t;
}

static int
add_term(struct ev_snippet *sn, const char *term, int len, int group, struct ev_err *err)
{
	struct term *t;
	int old;

	if ((old = lookup(sn, term, len)) >= 0)
		return old;
	if (sn->nterms == sn->capterms) {
		int cap = sn->capterms ? 2 * sn->capterms : 16;

		if ((t = realloc(sn->terms, (size_t)cap * sizeof *t)) == NULL)
			return ev_err_nomem(err);
		sn->terms = t;
		sn->capterms = cap;
	}
	if (group != WATCH && group >= sn->capgroups && grow_groups(sn, group) == -1)
		return ev_err_nomem(err);
	/* the term's number is its index in terms */
	if (ev_strmap_add(&sn->map, term, (size_t)len, NULL) == -1)
		return ev_err_nomem(err);
	sn->seen[(unsigned char)term[0]] |= len_bit(len);
	t = &sn->terms[sn->nterms];
	t->len = len;
	t->group = group;
	t->found = 0;
	sn->nterms++;
	if (group >= sn->ngroups)
		sn->ngroups = group + 1;
	return sn->nterms - 1;
}

int
ev_snippet_add_term(struct ev_snippet *sn, const char *term, int len, int group, struct ev_err *err)
{
	if (len <= 0 || group < 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "an empty term or a negative group to mark");
	return add_term(sn, term, len, group, err);
}

int
ev_snippet_add_watch(struct ev_snippet *sn, const char *term, int len, struct ev_err *err)
{
	if (len <= 0)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "an empty term to watch for");
	return add_term(sn, term, len, WATCH, err);
}

/* Words whose Porter stem is the stem of a stop word although they are not
 * stop words ("used" -> "us", "one" -> "on"). */
static const char *const stem_collisions[] = {
	"use", "used", "uses", "using", "useful", "usefully", "usefulness", "one", "ones", NULL
};

int
ev_snippet_is_stop(const struct ev_tok *tok, const char *term, int len, const char *word, int wlen)
{
	if (!ev_tok_is_stop(tok, term, len))
		return 0;
	for (int i = 0; stem_collisions[i] != NULL; i++)
		if ((int)strlen(stem_collisions[i]) == wlen &&
		    strncasecmp(stem_collisions[i], word, (size_t)wlen) == 0)
			return 0;
	return 1;
}

struct query_ctx {
	struct ev_snippet *sn;
	const char *text;
	const struct ev_lex *lex;	/* with lang: function words left out */
	int lang;
};

static int
on_query_token(void *ctx, const char *term, int len, int start, int end)
{
	struct query_ctx *q = ctx;
	struct ev_snippet *sn = q->sn;

	if (ev_snippet_is_stop(sn->tok, term, len, q->text + start, end - start) ||
	    (q->lex != NULL && q->lang >= 0 && (ev_lex_stop_langs(q->lex, q->text + start,
	    (size_t)(end - start)) & EV_LEX_BIT(q->lang)) != 0) ||
	    lookup(sn, term, len) >= 0)
		return 0;
	if (ev_snippet_add_term(sn, term, len, sn->adding_group, sn->err) == -1)
		return 1;
	sn->adding_group++;
	sn->added++;
	return 0;
}

int
ev_snippet_add_query_in(struct ev_snippet *sn, const char *query, size_t len,
    const struct ev_lex *lex, int lang, struct ev_err *err)
{
	struct query_ctx q = { sn, query, lex, lang };

	sn->adding_group = sn->ngroups;
	sn->added = 0;
	sn->err = err;
	ev_err_clear(err);
	if (ev_tok_run_terms(sn->tok, query, len, on_query_token, &q, err) == -1 ||
	    (err != NULL && err->code != 0))
		return -1;
	if (sn->added == 0 && lex != NULL && lang >= 0)	/* function words alone: keep them */
		return ev_snippet_add_query_in(sn, query, len, NULL, -1, err);
	return sn->added;
}

int
ev_snippet_add_query(struct ev_snippet *sn, const char *query, size_t len, struct ev_err *err)
{
	return ev_snippet_add_query_in(sn, query, len, NULL, -1, err);
}

int
ev_snippet_groups(const struct ev_snippet *sn)
{
	return sn->ngroups;
}

/* A token's cost in a window (WORD_COST): 1 for one of Chinese or Japanese
 * (its first character from U+3000 to U+9FFF: kana, CJK ideographs; UTF-8
 * lead bytes 0xE3 to 0xE9), else WORD_COST. */
static int
token_cost(const char *text, int start)
{
	unsigned char c = text != NULL ? (unsigned char)text[start] : 0;

	return c >= 0xE3 && c <= 0xE9 ? 1 : WORD_COST;
}

static int
on_text_token(void *ctx, const char *term, int len, int start, int end)
{
	struct ev_snippet *sn = ctx;
	int t = lookup(sn, term, len);

	if (t >= 0) {
		sn->terms[t].found++;
		if (sn->terms[t].group == WATCH)
			t = -1;
		else
			sn->found[sn->terms[t].group]++;
	}
	if (sn->scan_only)
		return 0;
	if (sn->ntoks == sn->captoks) {
		int cap = sn->captoks ? 2 * sn->captoks : 256;
		struct tokpos *p = realloc(sn->toks, (size_t)cap * sizeof *p);

		if (p == NULL) {
			ev_err_nomem(sn->err);
			return 1;
		}
		sn->toks = p;
		sn->captoks = cap;
	}
	sn->toks[sn->ntoks].start = start;
	sn->toks[sn->ntoks].end = end;
	sn->toks[sn->ntoks].term = t;
	sn->toks[sn->ntoks].cost = token_cost(sn->text, start);
	sn->ntoks++;
	return 0;
}

int
ev_snippet_scan(struct ev_snippet *sn, const char *text, size_t len, struct ev_err *err)
{
	sn->scan_only = 1;
	sn->err = err;
	if (text == NULL || len == 0 || sn->nterms == 0)
		return 0;
	return ev_tok_run(sn->tok, text, len, on_text_token, sn, err);
}

/* Append text[from..to) with whitespace runs (and control characters) as
 * single spaces; *space says whether the output ends in one. */
static int
add_squeezed(struct ev_buf *out, const char *text, int from, int to, int *space)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	int run = from;

	for (int i = from; i < to; i++) {
		unsigned char c;
		uint64_t w, d;

		/* eight bytes at a time while none is below '!' or 0x7f */
		for (; i + 8 <= to; i += 8) {
			memcpy(&w, text + i, 8);
			d = w ^ (ones * 0x7f);
			if ((((w - ones * 0x21) & ~w) | ((d - ones) & ~d)) & highs)
				break;
		}
		if (i >= to)
			break;
		c = (unsigned char)text[i];
		if (c > ' ' && c != 0x7f)
			continue;
		if (i > run && ev_buf_add(out, text + run, (size_t)(i - run)) == -1)
			return -1;
		if (i > run)
			*space = 0;
		if (!*space && ev_buf_addc(out, ' ') == -1)
			return -1;
		*space = 1;
		run = i + 1;
	}
	if (to > run) {
		if (ev_buf_add(out, text + run, (size_t)(to - run)) == -1)
			return -1;
		*space = 0;
	}
	return 0;
}

/* The end (one past the last token) of the window that starts at token
 * start: as many tokens as fit in cap of cost. */
static int
window_end(const struct ev_snippet *sn, int start, long cap)
{
	int e = start;

	for (long cost = 0; e < sn->ntoks && cost + sn->toks[e].cost <= cap; e++)
		cost += sn->toks[e].cost;
	return e > start ? e : start + 1;
}

/* The first token of the best window of cap cost, its end in *endp: the
 * window holding the most distinct groups, then the most marked tokens,
 * then the earliest, moved so that its marked span is centred in it. */
static int
best_window(struct ev_snippet *sn, long cap, int *endp)
{
	int n = sn->ntoks, best = 0, i, s = 0, f, l, start;
	long distinct = 0, marked = 0, score, best_score = -1, cost = 0, total = 0, slack;

	memset(sn->wincount, 0, (size_t)sn->capgroups * sizeof *sn->wincount);
	for (i = 0; i < n; i++) {
		int t = sn->toks[i].term;

		total += sn->toks[i].cost;
		cost += sn->toks[i].cost;
		if (t >= 0) {
			marked++;
			if (sn->wincount[sn->terms[t].group]++ == 0)
				distinct++;
		}
		for (; cost > cap && s < i; s++) {
			cost -= sn->toks[s].cost;
			if ((t = sn->toks[s].term) >= 0) {
				marked--;
				if (--sn->wincount[sn->terms[t].group] == 0)
					distinct--;
			}
		}
		if (total >= cap || i == n - 1) {
			score = distinct * 1000000L + marked;
			if (score > best_score) {
				best_score = score;
				best = s;
			}
		}
	}
	if (total <= cap) {
		*endp = n;
		return 0;
	}
	/* Centre the marked span of the window in it. */
	*endp = window_end(sn, best, cap);
	for (f = best; f < *endp && sn->toks[f].term < 0; f++)
		;
	if (f == *endp)
		return best;
	for (l = *endp - 1; sn->toks[l].term < 0; l--)
		;
	for (slack = cap, i = f; i <= l; i++)
		slack -= sn->toks[i].cost;
	for (start = f, cost = 0; start > 0 && cost + sn->toks[start - 1].cost <= slack / 2; start--)
		cost += sn->toks[start - 1].cost;
	/* (no later than the last window that is full) */
	for (i = n, cost = 0; i > 0 && cost + sn->toks[i - 1].cost <= cap; i--)
		cost += sn->toks[i - 1].cost;
	if (start > i)
		start = i;
	*endp = window_end(sn, start, cap);
	return start;
}

int
ev_snippet_make(struct ev_snippet *sn, const char *text, size_t len, struct ev_buf *out,
    struct ev_err *err)
{
	int start, end, from, to, marks = 0, space = 1;

	for (int t = 0; t < sn->nterms; t++)
		sn->terms[t].found = 0;
	if (sn->found != NULL)
		memset(sn->found, 0, (size_t)sn->capgroups * sizeof *sn->found);
	sn->ntoks = 0;
	sn->scan_only = 0;
	sn->err = err;
	sn->text = text;
	ev_err_clear(err);
	if (text == NULL || len == 0)
		return 0;
	if (sn->wincount == NULL && grow_groups(sn, 0) == -1)
		return ev_err_nomem(err);
	if (ev_tok_run(sn->tok, text, len, on_text_token, sn, err) == -1 ||
	    (err != NULL && err->code != 0))
		return -1;
	if (sn->ntoks == 0)
		return 0;
	start = best_window(sn, (long)WORD_COST * sn->opts.tokens, &end);
	from = start > 0 ? sn->toks[start].start : 0;
	if (from > 0 && ev_buf_adds(out, ELLIPSIS " ") == -1)
		return ev_err_nomem(err);
	/* Marked spans: the marked tokens, those that overlap (a Chinese word
	 * and its bigrams) made one; the text between them as it is. */
	for (int i = start, ms = -1, me = -1; i <= end; i++) {
		const struct tokpos *tp = i < end ? &sn->toks[i] : NULL;

		if (tp != NULL && tp->term < 0)
			continue;
		if (tp != NULL && ms >= 0 && tp->start < me) {
			if (tp->end > me)
				me = tp->end;
			continue;
		}
		if (ms >= 0) {
			if (add_squeezed(out, text, from, ms, &space) == -1 ||
			    ev_buf_adds(out, sn->opts.open) == -1 ||
			    ev_buf_add(out, text + ms, (size_t)(me - ms)) == -1 ||
			    ev_buf_adds(out, sn->opts.close) == -1)
				return ev_err_nomem(err);
			marks++;
			space = 0;
			from = me;
		}
		if (tp != NULL) {
			ms = tp->start > from ? tp->start : from;
			me = tp->end;
		}
	}
	to = from;
	for (int i = start; i < end; i++)
		if (sn->toks[i].end > to)
			to = sn->toks[i].end;
	if (end == sn->ntoks)
		to = (int)len;
	if (add_squeezed(out, text, from, to, &space) == -1)
		return ev_err_nomem(err);
	while (out->len > 0 && out->p[out->len - 1] == ' ')
		out->p[--out->len] = '\0';
	if (end < sn->ntoks && sn->toks[sn->ntoks - 1].end > to && ev_buf_adds(out, " " ELLIPSIS) == -1)
		return ev_err_nomem(err);
	return marks;
}

int
ev_snippet_found(const struct ev_snippet *sn, int group)
{
	if (group < 0 || group >= sn->ngroups)
		return 0;
	return sn->found[group];
}

int
ev_snippet_term_found(const struct ev_snippet *sn, int i)
{
	if (i < 0 || i >= sn->nterms)
		return 0;
	return sn->terms[i].found;
}

int
ev_snippet_next_mark(const struct ev_snippet *sn, int *pos, size_t *start, size_t *end)
{
	for (; *pos >= 0 && *pos < sn->ntoks; (*pos)++)
		if (sn->toks[*pos].term >= 0) {
			*start = (size_t)sn->toks[*pos].start;
			*end = (size_t)sn->toks[*pos].end;
			(*pos)++;
			return 1;
		}
	return 0;
}

void
ev_snippet_free(struct ev_snippet *sn)
{
	if (sn == NULL)
		return;
	free(sn->terms);
	ev_strmap_release(&sn->map);
	free(sn->found);
	free(sn->wincount);
	free(sn->toks);
	free(sn);
}
