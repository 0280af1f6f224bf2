/* assemble.c: word overlap, cosine and contradiction.  See assemble.h. */
#include "assemble.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "lexicon.h"

/* ---- word sets ---- */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int
ev_words_set(const char *s, uint64_t **out, size_t *n)
{
	size_t cap = 0, len = 0, i, m;
	uint64_t *w = NULL, h;
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		if (!(isalnum(*p) || *p >= 0x80)) {
			p++;
			continue;
		}
		h = 1469598103934665603ULL;
		while (*p && (isalnum(*p) || *p >= 0x80)) {
			h = (h ^ (uint64_t)tolower(*p)) * 1099511628211ULL;
			p++;
		}
		if (ev_grow(&w, &cap, len, sizeof *w, 64) == -1) {
			free(w);
			return -1;
		}
		w[len++] = h;
	}
	if (len > 1)
		qsort(w, len, sizeof *w, cmp_u64);
	for (i = m = 0; i < len; i++)
		if (m == 0 || w[m - 1] != w[i])
			w[m++] = w[i];
	*out = w;
	*n = m;
	return 0;
}

double
ev_words_jaccard(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t i = 0, j = 0, both = 0;

	if (na == 0 || nb == 0)
		return 0;
	while (i < na && j < nb) {
		if (a[i] == b[j]) {
			both++;
			i++;
			j++;
		} else if (a[i] < b[j]) {
			i++;
		} else {
			j++;
		}
	}
	return (double)both / (double)(na + nb - both);
}

double
ev_cosine(const float *a, const float *b, int dim)
{
	double ab = 0, aa = 0, bb = 0;
	int i;

	for (i = 0; i < dim; i++) {
		ab += (double)a[i] * b[i];
		aa += (double)a[i] * a[i];
		bb += (double)b[i] * b[i];
	}
	if (aa == 0 || bb == 0)
		return 0;
	return ab / sqrt(aa * bb);
}

/* ---- contradiction ---- */

#define STEM_MAX 48

/* Opposite pairs, written plainly; compared by their stems. */
static const char *const opposites[][2] = {
	{ "increase", "decrease" }, { "increase", "reduce" }, { "increase", "lower" },
	{ "rise", "fall" }, { "raise", "lower" }, { "higher", "lower" }, { "high", "low" },
	{ "more", "less" }, { "more", "fewer" }, { "many", "few" }, { "most", "least" },
	{ "above", "below" }, { "before", "after" }, { "safe", "unsafe" }, { "safe", "dangerous" },
	{ "allow", "prohibit" }, { "allow", "forbid" }, { "allowed", "forbidden" },
	{ "permit", "prohibit" }, { "permitted", "forbidden" }, { "required", "optional" },
	{ "mandatory", "optional" }, { "true", "false" }, { "correct", "incorrect" },
	{ "valid", "invalid" }, { "effective", "ineffective" }, { "success", "failure" },
	{ "succeed", "fail" }, { "accept", "reject" }, { "approve", "reject" },
	{ "enable", "disable" }, { "include", "exclude" }, { "open", "closed" },
	{ "positive", "negative" }, { "benefit", "harm" }, { "improve", "worsen" },
	{ "strengthen", "weaken" }, { "support", "oppose" }, { "pass", "fail" },
	{ "win", "lose" }, { "hot", "cold" }, { "warm", "cold" }, { "large", "small" },
	{ "big", "small" }, { "fast", "slow" }, { "early", "late" }, { "maximum", "minimum" },
	{ "add", "remove" }, { "start", "stop" }, { "legal", "illegal" },
	{ "possible", "impossible" }, { "likely", "unlikely" }, { "sufficient", "insufficient" },
	{ "consistent", "inconsistent" }, { "agree", "disagree" }, { "present", "absent" },
	{ "alive", "dead" }, { "expand", "shrink" }, { "gain", "loss" }, { "strong", "weak" },
	{ "better", "worse" }, { "best", "worst" }, { "wet", "dry" }, { "full", "empty" },
	{ "easy", "difficult" }, { "necessary", "unnecessary" }, { "encourage", "discourage" },
	{ "acceptable", "unacceptable" }, { "secure", "insecure" }, { "stable", "unstable" },
	{ "harmful", "harmless" }, { "available", "unavailable" }, { "active", "inactive" },
	{ "recommended", "discouraged" }, { "healthy", "unhealthy" }
};
#define NOPP (sizeof opposites / sizeof opposites[0])

static const char *const negations[] = { "not", "no", "never", "none", "nothing", "nobody",
	"neither", "nor", "without", "cannot", "nowhere" };

struct ev_contra {
	struct ev_lex *lex;
	char opp[NOPP][2][STEM_MAX];	/* the stems of opposites */
	unsigned short by_stem[NOPP * 2];	/* pair * 2 + side, sorted by stem */
};

static const struct ev_contra *sorting;	/* (for cmp_side: qsort has no context) */

static int
cmp_side(const void *a, const void *b)
{
	unsigned x = *(const unsigned short *)a, y = *(const unsigned short *)b;

	return strcmp(sorting->opp[x / 2][x % 2], sorting->opp[y / 2][y % 2]);
}

/* The stem of word w[0..n) (lower case) into out: plural -s/-es/-ies, -ed,
 * -ing and a final -e taken off, in that order, leaving 3 letters or more. */
static void
stem(const char *w, size_t n, char *out)
{
	size_t i;

	if (n >= STEM_MAX)
		n = STEM_MAX - 1;
	for (i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)w[i]);
	out[n] = '\0';
	if (n > 4 && strcmp(out + n - 3, "ies") == 0) {
		strcpy(out + n - 3, "y");
		n -= 2;
	} else if (n > 4 && strcmp(out + n - 4, "sses") == 0) {
		out[n -= 2] = '\0';
	} else if (n > 3 && out[n - 1] == 's' && out[n - 2] != 's' && out[n - 2] != 'u' &&
	    out[n - 2] != 'i') {
		out[--n] = '\0';
	}
	if (n > 5 && strcmp(out + n - 3, "ing") == 0)
		out[n -= 3] = '\0';
	else if (n > 4 && strcmp(out + n - 2, "ed") == 0)
		out[n -= 2] = '\0';
	if (n > 4 && out[n - 1] == 'e')
		out[--n] = '\0';
}

struct ev_contra *
ev_contra_new(struct ev_err *err)
{
	struct ev_contra *c = calloc(1, sizeof *c);
	size_t i, j;

	if (c == NULL || (c->lex = ev_lex_open(NULL, err)) == NULL) {
		free(c);
		if (c == NULL)
			ev_err_nomem(err);
		return NULL;
	}
	for (i = 0; i < NOPP; i++)
		for (j = 0; j < 2; j++) {
			stem(opposites[i][j], strlen(opposites[i][j]), c->opp[i][j]);
			c->by_stem[i * 2 + j] = (unsigned short)(i * 2 + j);
		}
	sorting = c;
	qsort(c->by_stem, NOPP * 2, sizeof *c->by_stem, cmp_side);
	sorting = NULL;
	return c;
}

void
ev_contra_free(struct ev_contra *c)
{
	if (c == NULL)
		return;
	ev_lex_close(c->lex);
	free(c);
}

/* A word of a sentence. */
struct word {
	const char *w;		/* as written */
	size_t n;
	char stem[STEM_MAX];
	int neg;		/* a negation word */
	int content;		/* neither a negation nor a function word */
	unsigned char nopp;	/* the opposite pairs it is a side of: */
	unsigned char opp[6];	/* pair * 2 + side */
};

struct sent {
	size_t first, n;	/* its words, in the text's array */
	int neg;		/* negation words */
};

struct text {
	struct word *w;
	size_t nw, capw;
	struct sent *s;
	size_t ns, caps;
};

static int
word_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80 || c == '\'';
}

/* The length of a sequence at p that separates words though its bytes are
 * >= 0x80: guillemets (the text lane's marks), ellipsis, curly quotes and
 * dashes; 0 for none.  A curly apostrophe (U+2019) is a separator too, but
 * n’t is seen by the caller. */
static size_t
sep_seq(const unsigned char *p)
{
	if (p[0] == 0xc2 && (p[1] == 0xab || p[1] == 0xbb))
		return 2;
	if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa6 || p[2] == 0x98 || p[2] == 0x99 ||
	    p[2] == 0x9c || p[2] == 0x9d || p[2] == 0x93 || p[2] == 0x94))
		return 3;
	return 0;
}

static int
is_negation(const char *w, size_t n)
{
	size_t i;

	if (n > 3 && (strncasecmp(w + n - 3, "n't", 3) == 0 ||
	    (n > 5 && strncasecmp(w + n - 5, "n\xe2\x80\x99t", 5) == 0)))
		return 1;
	for (i = 0; i < sizeof negations / sizeof *negations; i++)
		if (strlen(negations[i]) == n && strncasecmp(w, negations[i], n) == 0)
			return 1;
	return 0;
}

static int
text_add_word(struct ev_contra *c, struct text *t, const char *w, size_t n)
{
	struct word *x;
	char low[STEM_MAX];
	size_t i;

	/* a trailing 's or ' is not part of the word */
	while (n > 0 && w[n - 1] == '\'')
		n--;
	if (n > 2 && w[n - 2] == '\'' && (w[n - 1] == 's' || w[n - 1] == 'S'))
		n -= 2;
	while (n > 0 && w[0] == '\'') {
		w++;
		n--;
	}
	if (n == 0)
		return 0;
	if (ev_grow(&t->w, &t->capw, t->nw, sizeof *t->w, 64) == -1)
		return -1;
	x = &t->w[t->nw++];
	x->w = w;
	x->n = n;
	x->neg = is_negation(w, n);
	stem(w, n, x->stem);
	x->nopp = 0;
	if (!x->neg) {
		/* the first side with this stem, then the others after it */
		size_t lo = 0, hi = NOPP * 2, mid;
		while (lo < hi) {
			mid = (lo + hi) / 2;
			unsigned e = c->by_stem[mid];
			if (strcmp(c->opp[e / 2][e % 2], x->stem) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < NOPP * 2 && x->nopp < sizeof x->opp; lo++) {
			unsigned e = c->by_stem[lo];
			if (strcmp(c->opp[e / 2][e % 2], x->stem) != 0)
				break;
			x->opp[x->nopp++] = (unsigned char)e;
		}
	}
	for (i = 0; i < n && i < STEM_MAX - 1; i++)
		low[i] = (char)tolower((unsigned char)w[i]);
	low[i] = '\0';
	x->content = !x->neg && n >= 2 &&
	    !(ev_lex_stop_langs(c->lex, low, i) & EV_LEX_BIT(EV_LEX_EN));
	if (x->neg)
		t->s[t->ns - 1].neg++;
	t->s[t->ns - 1].n++;
	return 0;
}

static int
text_new_sentence(struct text *t)
{
	if (t->ns > 0 && t->s[t->ns - 1].n == 0)
		return 0;
	if (ev_grow(&t->s, &t->caps, t->ns, sizeof *t->s, 16) == -1)
		return -1;
	t->s[t->ns].first = t->nw;
	t->s[t->ns].n = 0;
	t->s[t->ns].neg = 0;
	t->ns++;
	return 0;
}

/* Cut s into sentences of words. */
static int
text_read(struct ev_contra *c, const char *s, struct text *t)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	if (text_new_sentence(t) == -1)
		return -1;
	while (*p) {
		if (*p == '.' || *p == '!' || *p == '?' || *p == ';' || *p == ':' || *p == '\n') {
			if (text_new_sentence(t) == -1)
				return -1;
			p++;
			continue;
		}
		if ((k = sep_seq(p)) > 0) {
			p += k;
			continue;
		}
		if (!word_byte(*p)) {
			p++;
			continue;
		}
		{
			const unsigned char *w = p;
			for (;;) {
				if (*p == 0xe2 && p[1] == 0x80 && p[2] == 0x99 && p > w &&
				    (p[-1] == 'n' || p[-1] == 'N') && (p[3] == 't' || p[3] == 'T')) {
					p += 4;		/* n’t */
					continue;
				}
				if (*p == 0 || !word_byte(*p) || sep_seq(p) > 0)
					break;
				p++;
			}
			if (text_add_word(c, t, (const char *)w, (size_t)(p - w)) == -1)
				return -1;
		}
	}
	return 0;
}

static void
text_release(struct text *t)
{
	free(t->w);
	free(t->s);
}

/* Is stem x a content word of sentence s of t (any word but a negation,
 * with any)? */
static int
has_stem_of(const struct text *t, const struct sent *s, const char *x, int any)
{
	size_t i;

	for (i = s->first; i < s->first + s->n; i++)
		if ((any ? !t->w[i].neg : t->w[i].content) && strcmp(t->w[i].stem, x) == 0)
			return 1;
	return 0;
}

static int
has_stem(const struct text *t, const struct sent *s, const char *x)
{
	return has_stem_of(t, s, x, 0);
}

static void
add_word_text(char *buf, size_t size, const char *w, size_t n)
{
	size_t len = strlen(buf);

	if (len + n + 2 >= size)
		return;
	if (len > 0)
		buf[len++] = ' ';
	memcpy(buf + len, w, n);
	buf[len + n] = '\0';
}

/* Do sentences s (of a) and u (of b) make opposite claims about one subject? */
static int
sentences_oppose(const struct ev_contra *c, const struct text *a, const struct sent *s,
    const struct text *b, const struct sent *u, struct ev_contra_why *why)
{
	size_t i, j, k, shared = 0, ns = 0, nu = 0, nopp = 0, small;
	const struct word *oa = NULL, *ob = NULL;
	char subject[sizeof why->subject] = "";

	/* opposite pairs: a word of s whose opposite is in u, neither in both
	 * (function words count: "more" and "less" are opposites) */
	for (i = s->first; i < s->first + s->n; i++) {
		const struct word *x = &a->w[i];
		size_t o;
		if (x->nopp == 0 || has_stem_of(b, u, x->stem, 1))
			continue;
		for (o = 0; o < x->nopp; o++) {
			int side = x->opp[o] % 2;
			k = x->opp[o] / 2;
			{
				if (has_stem_of(a, s, c->opp[k][!side], 1))
					continue;
				for (j = u->first; j < u->first + u->n; j++)
					if (!b->w[j].neg && strcmp(b->w[j].stem, c->opp[k][!side]) == 0)
						break;
				if (j < u->first + u->n) {
					nopp++;
					if (oa == NULL) {
						oa = x;
						ob = &b->w[j];
					}
				}
			}
		}
	}
	/* the subject: content words of both, the opposite words left out */
	for (i = s->first; i < s->first + s->n; i++) {
		const struct word *x = &a->w[i];
		int dup = 0;
		if (!x->content)
			continue;
		for (j = s->first; j < i; j++)
			if (a->w[j].content && strcmp(a->w[j].stem, x->stem) == 0)
				dup = 1;
		if (dup || (oa != NULL && strcmp(x->stem, oa->stem) == 0))
			continue;
		ns++;
		if (has_stem(b, u, x->stem)) {
			shared++;
			add_word_text(subject, sizeof subject, x->w, x->n);
		}
	}
	for (i = u->first; i < u->first + u->n; i++) {
		const struct word *x = &b->w[i];
		int dup = 0;
		if (!x->content || (ob != NULL && strcmp(x->stem, ob->stem) == 0))
			continue;
		for (j = u->first; j < i; j++)
			if (b->w[j].content && strcmp(b->w[j].stem, x->stem) == 0)
				dup = 1;
		if (!dup)
			nu++;
	}
	small = ns < nu ? ns : nu;
	if (shared < 2 || 2 * shared < small)
		return 0;
	if ((s->neg + u->neg + nopp) % 2 == 0)
		return 0;
	memcpy(why->subject, subject, sizeof subject);
	why->words[0] = '\0';
	if (oa != NULL && nopp % 2 == 1) {
		why->cue = "opposite";
		snprintf(why->words, sizeof why->words, "%.*s/%.*s", (int)oa->n, oa->w, (int)ob->n,
		    ob->w);
	} else {
		const struct text *t = s->neg >= u->neg ? a : b;
		const struct sent *n = s->neg >= u->neg ? s : u;
		why->cue = "negation";
		for (i = n->first; i < n->first + n->n; i++)
			if (t->w[i].neg)
				add_word_text(why->words, sizeof why->words, t->w[i].w, t->w[i].n);
	}
	return 1;
}

int
ev_contra_check(struct ev_contra *c, const char *a, const char *b, struct ev_contra_why *why,
    struct ev_err *err)
{
	struct text ta = { 0 }, tb = { 0 };
	size_t i, j;
	int r = 0;

	if (text_read(c, a, &ta) == -1 || text_read(c, b, &tb) == -1) {
		r = ev_err_nomem(err);
		goto out;
	}
	for (i = 0; i < ta.ns && r == 0; i++)
		for (j = 0; j < tb.ns && r == 0; j++)
			r = sentences_oppose(c, &ta, &ta.s[i], &tb, &tb.s[j], why);
out:
	text_release(&ta);
	text_release(&tb);
	return r;
}
