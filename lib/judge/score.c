/* score.c: citation scoring.  See score.h.
 *
 * Every term the tokeniser yields is interned once in a scorer-wide table
 * (open addressing over 64-bit hashes, the bytes kept in one arena), with
 * its stop-word flag and, with a store, its idf.  Per-item state lives in the
 * term entries themselves, valid while their stamp equals the item's, so
 * nothing is cleared between items and nothing is allocated per token. */
#include "score.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "jsonl.h"
#include "langid.h"

/* The vocabulary is forgotten (between items) when it grows past this. */
#define MAX_TERMS (1u << 21)

struct term {
	uint64_t hash;
	uint32_t off, len;	/* the stem, in sc->arena */
	int stop;
	double idf;		/* from the store; NAN until looked up */
	/* per item, valid while stamp == sc->stamp */
	uint32_t stamp;
	uint32_t df;		/* citations containing the term */
	uint32_t last_cite;	/* 1 + index of the last citation seen in */
	uint32_t entry;		/* its entry in that citation */
	uint32_t post_start, post_len;	/* citations containing an answer term */
	uint64_t seen;		/* last claim (sc->seq) it was counted in */
	int in_query, in_answer;
	int in_used;		/* in a citation the answer uses (coverage) */
	double w;		/* scratch weight for the pairwise products */
};

struct tokrec {			/* a content token of the text being read */
	uint32_t gid;
	uint32_t start, end;
};

struct entry {			/* a distinct term of one citation */
	uint32_t gid;
	uint32_t tf;
	double w;
};

struct range {
	size_t start, end;
};

struct ev_scorer {
	struct ev_tok *tok;
	struct ev_lex *lex;	/* stop lists, to find an item's language */
	struct ev_store *st;
	enum ev_score_redundancy how;
	enum ev_score_coverage cover;	/* the citations coverage counts */
	double nchunks;		/* N for the store's idf */
	sqlite3_stmt *vocab;	/* the store's document frequency of a term */

	struct term *terms;
	uint32_t nterms, capterms;
	uint32_t *slots;	/* gid + 1, 0 when empty */
	uint32_t nslots;	/* a power of two */
	struct ev_buf arena;
	uint32_t stamp;
	uint64_t seq;

	struct tokrec *toks;
	size_t ntoks, captoks;
	struct entry *entries;
	size_t nentries, capentries;
	size_t *cstart;		/* ncites + 1 offsets into entries */
	double *cnorm, *nearest;
	unsigned char *used;	/* per citation: it holds one of the answer's terms */
	uint32_t *cnt, *touched, *posts, *agids;
	size_t capcites, capposts, capagids;
	struct range *claims;
	size_t nclaims, capclaims;
	struct ev_strmap ids;	/* the item's citation ids, for its markers */

	struct ev_err *err;	/* for the tokeniser callback */
	int failed;
	int jfail;		/* sticky: building the details ran out of memory */

	ev_score_judge_fn judge;
	void *judge_ctx;
};

/* Grow *p (of *cap elements of size sz) to hold at least n.  Returns 0 or -1. */
static int
grow(void *pp, size_t *cap, size_t n, size_t sz)
{
	void **p = pp;
	size_t c = *cap ? *cap : 16;
	void *q;

	if (n <= *cap)
		return 0;
	while (c < n) {
		if (c > SIZE_MAX / 2 / sz)
			return -1;
		c *= 2;
	}
	if ((q = realloc(*p, c * sz)) == NULL)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static uint64_t
hash_bytes(const char *s, int len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

static void
vocab_reset(struct ev_scorer *sc)
{
	sc->nterms = 0;
	ev_buf_reset(&sc->arena);
	if (sc->slots != NULL)
		memset(sc->slots, 0, sc->nslots * sizeof(*sc->slots));
}

static int
rehash(struct ev_scorer *sc, uint32_t nslots)
{
	uint32_t *s, i, j, mask = nslots - 1;

	if ((s = calloc(nslots, sizeof(*s))) == NULL)
		return -1;
	for (i = 0; i < sc->nterms; i++) {
		j = (uint32_t)sc->terms[i].hash & mask;
		while (s[j] != 0)
			j = (j + 1) & mask;
		s[j] = i + 1;
	}
	free(sc->slots);
	sc->slots = s;
	sc->nslots = nslots;
	return 0;
}

/* The id of term/len, interned when new.  Returns the id, or -1 when out of
 * memory. */
static int64_t
intern(struct ev_scorer *sc, const char *s, int len)
{
	uint64_t h = hash_bytes(s, len);
	uint32_t j, mask = sc->nslots - 1, g;
	struct term *t;
	size_t cap;

	for (j = (uint32_t)h & mask; sc->slots[j] != 0; j = (j + 1) & mask) {
		t = &sc->terms[sc->slots[j] - 1];
		if (t->hash == h && t->len == (uint32_t)len &&
		    memcmp(sc->arena.p + t->off, s, len) == 0)
			return sc->slots[j] - 1;
	}
	if (sc->nterms + 1 > sc->capterms) {
		cap = sc->capterms;
		if (grow(&sc->terms, &cap, (size_t)sc->nterms + 1, sizeof(*sc->terms)) == -1)
			return -1;
		sc->capterms = (uint32_t)cap;
	}
	if (sc->arena.len > UINT32_MAX - (size_t)len - 1 ||
	    ev_buf_add(&sc->arena, s, len) == -1)
		return -1;
	g = sc->nterms++;
	t = &sc->terms[g];
	memset(t, 0, sizeof(*t));
	t->hash = h;
	t->off = (uint32_t)(sc->arena.len - len);
	t->len = (uint32_t)len;
	t->stop = ev_tok_is_stop(sc->tok, s, len);
	t->idf = NAN;
	sc->slots[j] = g + 1;
	if ((uint64_t)sc->nterms * 2 > sc->nslots && rehash(sc, sc->nslots * 2) == -1)
		return -1;
	return g;
}

/* The term's per-item state, initialised on the item's first touch. */
static struct term *
touch(struct ev_scorer *sc, uint32_t gid)
{
	struct term *t = &sc->terms[gid];

	if (t->stamp != sc->stamp) {
		t->stamp = sc->stamp;
		t->df = 0;
		t->last_cite = 0;
		t->post_len = 0;
		t->seen = 0;
		t->in_query = t->in_answer = t->in_used = 0;
		t->w = 0;
	}
	return t;
}

static int
on_token(void *ctx, const char *term, int len, int start, int end)
{
	struct ev_scorer *sc = ctx;
	int64_t g;
	struct tokrec *r;

	if (len <= 0)
		return 0;
	if ((g = intern(sc, term, len)) < 0)
		goto nomem;
	if (sc->terms[g].stop)
		return 0;
	if (sc->ntoks == sc->captoks &&
	    grow(&sc->toks, &sc->captoks, sc->ntoks + 1, sizeof(*sc->toks)) == -1)
		goto nomem;
	r = &sc->toks[sc->ntoks++];
	r->gid = (uint32_t)g;
	r->start = start < 0 ? 0 : (uint32_t)start;
	r->end = end < start ? r->start : (uint32_t)end;
	return 0;
nomem:
	sc->failed = 1;
	ev_err_nomem(sc->err);
	return 1;
}

/* Tokenise text into sc->toks (content tokens only). */
static int
read_text(struct ev_scorer *sc, const char *text, size_t len, struct ev_err *err)
{
	sc->ntoks = 0;
	sc->err = err;
	sc->failed = 0;
	if (len == 0)
		return 0;
	if (len > UINT32_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "text too long (%zu bytes)", len);
	if (ev_tok_run(sc->tok, text, len, on_token, sc, err) == -1)
		return -1;
	return sc->failed ? -1 : 0;
}

struct ev_scorer *
ev_score_open(struct ev_tok *tok, struct ev_store *st, struct ev_err *err)
{
	struct ev_scorer *sc;
	sqlite3_stmt *stmt;

	if ((sc = calloc(1, sizeof(*sc))) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	sc->tok = tok;
	sc->st = st;
	sc->how = EV_SCORE_NEAREST;
	if (rehash(sc, 1024) == -1) {
		ev_err_nomem(err);
		goto fail;
	}
	if (st != NULL) {
		if ((stmt = ev_store_prepare(st, "SELECT count(*) FROM chunks", err)) == NULL)
			goto fail;
		if (sqlite3_step(stmt) != SQLITE_ROW) {
			ev_store_error(st, "counting chunks", err);
			sqlite3_reset(stmt);
			goto fail;
		}
		sc->nchunks = (double)sqlite3_column_int64(stmt, 0);
		sqlite3_reset(stmt);
		/* fail now, not at the first item, when the vocabulary is missing */
		sc->vocab = ev_store_prepare_stem_df(st, err);
		if (sc->vocab == NULL)
			goto fail;
	}
	return sc;
fail:
	ev_score_close(sc);
	return NULL;
}

void
ev_score_close(struct ev_scorer *sc)
{
	if (sc == NULL)
		return;
	free(sc->terms);
	free(sc->slots);
	ev_buf_release(&sc->arena);
	free(sc->toks);
	free(sc->entries);
	free(sc->cstart);
	free(sc->cnorm);
	free(sc->nearest);
	free(sc->used);
	free(sc->cnt);
	free(sc->touched);
	free(sc->posts);
	free(sc->agids);
	free(sc->claims);
	ev_strmap_release(&sc->ids);
	ev_lex_close(sc->lex);
	free(sc);
}

void
ev_score_set_redundancy(struct ev_scorer *sc, enum ev_score_redundancy how)
{
	sc->how = how;
}

void
ev_score_set_coverage(struct ev_scorer *sc, enum ev_score_coverage which)
{
	sc->cover = which;
}

void
ev_score_set_judge(struct ev_scorer *sc, ev_score_judge_fn fn, void *ctx)
{
	sc->judge = fn;
	sc->judge_ctx = ctx;
}

double
ev_score_overall(double faithfulness, double coverage, double redundancy,
    const struct ev_score_weights *w)
{
	double sum = w->faithfulness + w->coverage + w->redundancy;

	if (!(sum > 0))
		return 0;
	return (w->faithfulness * faithfulness + w->coverage * coverage +
	    w->redundancy * (1 - redundancy)) / sum;
}

/* idf of a term: from the store (cached in the term), else from the item's
 * citations. */
static int
idf_of(struct ev_scorer *sc, struct term *t, size_t ncites, double *out, struct ev_err *err)
{
	sqlite3_stmt *stmt;
	double df = 0;
	int rc;

	if (sc->st == NULL) {
		*out = 1 + log((1.0 + ncites) / (1.0 + t->df));
		return 0;
	}
	if (isnan(t->idf)) {
		stmt = sc->vocab;
		sqlite3_bind_text(stmt, 1, sc->arena.p + t->off, (int)t->len, SQLITE_STATIC);
		rc = sqlite3_step(stmt);
		if (rc == SQLITE_ROW)
			df = (double)sqlite3_column_int64(stmt, 0);
		else if (rc != SQLITE_DONE) {
			ev_store_error(sc->st, "reading the vocabulary", err);
			sqlite3_reset(stmt);
			return -1;
		}
		sqlite3_reset(stmt);
		sqlite3_clear_bindings(stmt);
		if (df > sc->nchunks)
			df = sc->nchunks;
		t->idf = 1 + log((1.0 + sc->nchunks) / (1.0 + df));
	}
	*out = t->idf;
	return 0;
}

/* A JSON string of text[start..end) (invalid UTF-8 cannot occur: the input
 * was checked, and token offsets fall on character boundaries). */
static json_t *
word(const char *text, uint32_t start, uint32_t end)
{
	/* NULL when out of memory: the caller's jset()/jappend() fails on it */
	return json_stringn_nocheck(text + start, end - start);
}

static void
add_claim(void *ctx, size_t start, size_t end)
{
	struct ev_scorer *sc = ctx;

	if (sc->failed)
		return;
	if (sc->nclaims == sc->capclaims &&
	    grow(&sc->claims, &sc->capclaims, sc->nclaims + 1, sizeof(*sc->claims)) == -1) {
		sc->failed = 1;
		return;
	}
	sc->claims[sc->nclaims].start = start;
	sc->claims[sc->nclaims].end = end;
	sc->nclaims++;
}

/* Building the details, with a sticky error (sc->jfail, as in FTS5's
 * fts5_buffer.c): a failed insertion (memory running out) is remembered, and
 * ev_score_answer() checks once, so that no record is written with a field
 * missing.  Both take v, also when they fail. */
static void
jset(struct ev_scorer *sc, json_t *o, const char *k, json_t *v)
{
	if (json_object_set_new(o, k, v) == -1)
		sc->jfail = 1;
}

static void
jappend(struct ev_scorer *sc, json_t *a, json_t *v)
{
	if (json_array_append_new(a, v) == -1)
		sc->jfail = 1;
}

static void
warn(struct ev_scorer *sc, struct ev_score_result *res, json_t *warnings, const char *msg)
{
	if (res->nwarnings++ == 0)
		snprintf(res->warning, sizeof(res->warning), "%s", msg);
	if (warnings != NULL)
		jappend(sc, warnings, json_string(msg));
}

static json_t *
cite_ref(struct ev_scorer *sc, const struct ev_score_item *item, size_t i, const char *idkey, json_t *o,
    const char *indexkey)
{
	jset(sc, o, indexkey, json_integer((json_int_t)i));
	if (item->cites[i].id != NULL)
		jset(sc, o, idkey, json_string(item->cites[i].id));
	return o;
}

/* Make room for n entries in each per-citation array. */
static int
reserve_cites(struct ev_scorer *sc, size_t n)
{
	size_t c = sc->capcites ? sc->capcites : 16;
	void *p;

	if (n <= sc->capcites)
		return 0;
	while (c < n)
		c *= 2;
#define RE(f) do { if ((p = realloc(sc->f, c * sizeof(*sc->f))) == NULL) return -1; \
		sc->f = p; } while (0)
	RE(cstart);
	RE(cnorm);
	RE(nearest);
	RE(cnt);
	RE(touched);
	RE(used);
#undef RE
	sc->capcites = c;
	return 0;
}

/* Read the citations: entries, document frequencies.  Returns 0 or -1. */
static int
read_citations(struct ev_scorer *sc, const struct ev_score_item *item, struct ev_err *err)
{
	size_t c, i, n = item->ncites;
	struct term *t;

	if (reserve_cites(sc, n + 1) == -1)
		return ev_err_nomem(err);
	sc->nentries = 0;
	for (c = 0; c < n; c++) {
		sc->cstart[c] = sc->nentries;
		if (read_text(sc, item->cites[c].text, item->cites[c].len, err) == -1)
			return -1;
		if (grow(&sc->entries, &sc->capentries, sc->nentries + sc->ntoks,
		    sizeof(*sc->entries)) == -1)
			return ev_err_nomem(err);
		for (i = 0; i < sc->ntoks; i++) {
			t = touch(sc, sc->toks[i].gid);
			if (t->last_cite != c + 1) {
				t->last_cite = (uint32_t)(c + 1);
				t->entry = (uint32_t)sc->nentries;
				t->df++;
				sc->entries[sc->nentries].gid = sc->toks[i].gid;
				sc->entries[sc->nentries].tf = 1;
				sc->nentries++;
			} else
				sc->entries[t->entry].tf++;
		}
	}
	sc->cstart[n] = sc->nentries;
	return 0;
}

static int
score_coverage(struct ev_scorer *sc, const struct ev_score_item *item, json_t *d,
    struct ev_score_result *res, struct ev_err *err)
{
	size_t i, nq = 0, covered = 0;
	json_t *uncovered = d != NULL ? json_array() : NULL;
	struct term *t;

	if (read_text(sc, item->query, item->query_len, err) == -1) {
		json_decref(uncovered);
		return -1;
	}
	for (i = 0; i < sc->ntoks; i++) {
		t = touch(sc, sc->toks[i].gid);
		if (t->in_query)
			continue;
		t->in_query = 1;
		nq++;
		/* (df: the citations holding the term) */
		if (sc->cover == EV_SCORE_COVER_USED ? t->in_used : t->df > 0)
			covered++;
		else if (uncovered != NULL)
			jappend(sc, uncovered,
			    word(item->query, sc->toks[i].start, sc->toks[i].end));
	}
	res->coverage = nq > 0 && item->ncites > 0 ? (double)covered / nq : 0;
	if (d != NULL) {
		jset(sc, d, "query_terms", json_integer((json_int_t)nq));
		jset(sc, d, "uncovered", uncovered);
		jset(sc, d, "coverage_of", json_string(sc->cover == EV_SCORE_COVER_USED ? "used" :
		    "cited"));
	}
	return (int)nq;
}

/* Postings: for each distinct answer term, the citations containing it. */
static int
build_postings(struct ev_scorer *sc, const struct ev_score_item *item, size_t *nagids,
    struct ev_err *err)
{
	size_t i, c, na = 0, total = 0;
	struct term *t;

	for (i = 0; i < sc->ntoks; i++) {
		t = touch(sc, sc->toks[i].gid);
		if (t->in_answer)
			continue;
		t->in_answer = 1;
		if (grow(&sc->agids, &sc->capagids, na + 1, sizeof(*sc->agids)) == -1)
			return ev_err_nomem(err);
		sc->agids[na++] = sc->toks[i].gid;
		t->post_start = (uint32_t)total;
		t->post_len = 0;
		total += t->df;
	}
	if (grow(&sc->posts, &sc->capposts, total + 1, sizeof(*sc->posts)) == -1)
		return ev_err_nomem(err);
	for (c = 0; c < item->ncites; c++)
		for (i = sc->cstart[c]; i < sc->cstart[c + 1]; i++) {
			t = &sc->terms[sc->entries[i].gid];
			if (t->in_answer)
				sc->posts[t->post_start + t->post_len++] = (uint32_t)c;
		}
	*nagids = na;
	return 0;
}

/* The citations the answer uses (those holding one of its content terms,
 * from the postings of its nag distinct terms) into sc->used, and their terms
 * marked in_used, for coverage. */
static void
mark_used(struct ev_scorer *sc, const struct ev_score_item *item, size_t nag)
{
	size_t c, i, p;
	const struct term *t;

	memset(sc->used, 0, item->ncites + 1);
	for (i = 0; i < nag; i++) {
		t = &sc->terms[sc->agids[i]];
		for (p = t->post_start; p < t->post_start + t->post_len; p++)
			sc->used[sc->posts[p]] = 1;
	}
	for (c = 0; c < item->ncites; c++)
		for (i = sc->cstart[c]; sc->used[c] && i < sc->cstart[c + 1]; i++)
			touch(sc, sc->entries[i].gid)->in_used = 1;
}

/* Ask the judge about claim r; *support becomes its verdict. */
static int
judge(struct ev_scorer *sc, const struct ev_score_item *item, const struct range *r, size_t best,
    double keyword, double *support, struct ev_err *err)
{
	struct ev_err jerr = { 0 };
	double v = NAN;

	if (sc->judge(sc->judge_ctx, item->answer + r->start, r->end - r->start,
	    best != SIZE_MAX ? &item->cites[best] : NULL, keyword, &v, &jerr) == -1) {
		if (jerr.code == 0)
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the judge failed");
		if (err != NULL)
			*err = jerr;
		return -1;
	}
	if (!(v >= 0 && v <= 1))
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the judge's verdict %g is not in [0, 1]", v);
	*support = v;
	return 0;
}

/* Citation markers. */

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

#define MAX_MARKER 256	/* bytes of a marker, brackets included */

/* The length of a reference s[0..n) of a marker's: up to three ASCII
 * letters then digits ("12", "c12"), or else 0. */
static size_t
ref_len(const char *s, size_t n)
{
	size_t k = 0, d;

	while (k < n && k < 3 && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z')))
		k++;
	for (d = k; d < n && s[d] >= '0' && s[d] <= '9'; d++)
		;
	return d > k ? d : 0;
}

/* Whether s[0..n), an item of a marker's list, is a reference: after an
 * optional '^' or '#', a key of ids (NULL: none), or a reference or a range
 * of two ("1-3", "1–3"). */
static int
marker_item(const char *s, size_t n, const struct ev_strmap *ids)
{
	size_t k;

	if (n > 0 && (s[0] == '^' || s[0] == '#')) {
		s++;
		n--;
	}
	if ((k = ref_len(s, n)) == 0)
		return n > 0 && ids != NULL && ev_strmap_find(ids, s, n) != -1;
	if (k == n)
		return 1;
	if (s[k] == '-')
		k++;
	else if (n - k >= 3 && memcmp(s + k, "\xe2\x80\x93", 3) == 0)
		k += 3;
	else
		return n > 0 && ids != NULL && ev_strmap_find(ids, s, n) != -1;
	return (k < n && ref_len(s + k, n - k) == n - k) ||
	    (ids != NULL && ev_strmap_find(ids, s, n) != -1);
}

size_t
ev_score_marker(const char *s, size_t len, size_t i, const struct ev_strmap *ids)
{
	size_t end, a, b, items = 0;

	if (i >= len || s[i] != '[')
		return 0;
	for (end = i + 1; end < len && end - i < MAX_MARKER && s[end] != ']'; end++)
		if (s[end] == '[' || s[end] == '\n')
			return 0;
	if (end >= len || s[end] != ']')
		return 0;
	for (a = i + 1; a < end; a = b) {
		while (a < end && (s[a] == ',' || s[a] == ';' || is_space((unsigned char)s[a])))
			a++;
		for (b = a; b < end && s[b] != ',' && s[b] != ';' && !is_space((unsigned char)s[b]); b++)
			;
		if (b > a && !marker_item(s + a, b - a, ids))
			return 0;
		items += b > a;
	}
	return items > 0 ? end + 1 - i : 0;
}

/* Drop from sc->toks (the answer's) the tokens inside its citation markers,
 * the item's citation ids put in sc->ids first.  Returns 0, or -1 with *err
 * set (memory). */
static int
drop_markers(struct ev_scorer *sc, const struct ev_score_item *item, struct ev_err *err)
{
	const char *s = item->answer, *p;
	size_t t, k = 0, at = 0, mstart = 0, mend = 0, n, len = item->answer_len;

	if (memchr(s, '[', len) == NULL)
		return 0;
	ev_strmap_reset(&sc->ids);
	for (t = 0; t < item->ncites; t++)
		if (item->cites[t].id != NULL && ev_strmap_add(&sc->ids, item->cites[t].id,
		    strlen(item->cites[t].id), NULL) == -1)
			return ev_err_nomem(err);
	for (t = 0; t < sc->ntoks; t++) {
		const struct tokrec *r = &sc->toks[t];

		/* the first marker ending after the token's start */
		while (mend <= r->start && at < len) {
			if ((p = memchr(s + at, '[', len - at)) == NULL) {
				at = len;
				break;
			}
			at = (size_t)(p - s);
			if ((n = ev_score_marker(s, len, at, &sc->ids)) > 0) {
				mstart = at;
				mend = at += n;
			} else
				at++;
		}
		if (r->start >= mstart && r->start < mend)
			continue;
		sc->toks[k++] = *r;
	}
	sc->ntoks = k;
	return 0;
}

static int
score_faithfulness(struct ev_scorer *sc, const struct ev_score_item *item, json_t *d,
    struct ev_score_result *res, struct ev_err *err)
{
	size_t k, i, p, nag = 0, ntouched, best, tok = 0, counted = 0;
	uint32_t distinct, supported;
	double sum = 0, support, keyword;
	json_t *claims = NULL, *cl, *unsup, *ref;
	struct term *t;
	const struct range *r;

	if (read_text(sc, item->answer, item->answer_len, err) == -1)
		return -1;
	if (drop_markers(sc, item, err) == -1)
		return -1;
	if (build_postings(sc, item, &nag, err) == -1)
		return -1;
	mark_used(sc, item, nag);
	memset(sc->cnt, 0, (item->ncites + 1) * sizeof(*sc->cnt));
	sc->nclaims = 0;
	sc->failed = 0;
	ev_score_claims(item->answer, item->answer_len, add_claim, sc);
	if (sc->failed)
		return ev_err_nomem(err);
	if (d != NULL)
		claims = json_array();
	for (k = 0; k < sc->nclaims; k++) {
		r = &sc->claims[k];
		sc->seq++;
		distinct = supported = 0;
		ntouched = 0;
		unsup = d != NULL ? json_array() : NULL;
		while (tok < sc->ntoks && sc->toks[tok].start < r->start)
			tok++;
		for (; tok < sc->ntoks && sc->toks[tok].start < r->end; tok++) {
			t = &sc->terms[sc->toks[tok].gid];
			if (t->seen == sc->seq)
				continue;
			t->seen = sc->seq;
			distinct++;
			if (t->df == 0) {
				if (unsup != NULL)
					jappend(sc, unsup, word(item->answer,
					    sc->toks[tok].start, sc->toks[tok].end));
				continue;
			}
			supported++;
			for (p = t->post_start; p < t->post_start + t->post_len; p++)
				if (sc->cnt[sc->posts[p]]++ == 0)
					sc->touched[ntouched++] = sc->posts[p];
		}
		best = SIZE_MAX;
		for (i = 0; i < ntouched; i++) {
			if (best == SIZE_MAX || sc->cnt[sc->touched[i]] > sc->cnt[best] ||
			    (sc->cnt[sc->touched[i]] == sc->cnt[best] && sc->touched[i] < best))
				best = sc->touched[i];
		}
		support = keyword = distinct > 0 ? (double)supported / distinct : 0;
		if (distinct > 0 && sc->judge != NULL && judge(sc, item, r, best, keyword, &support,
		    err) == -1) {
			for (i = 0; i < ntouched; i++)
				sc->cnt[sc->touched[i]] = 0;
			json_decref(unsup);
			json_decref(claims);
			return -1;
		}
		if (distinct > 0) {
			sum += support;
			counted++;
		}
		if (claims != NULL) {
			cl = json_object();
			jset(sc, cl, "text", json_stringn_nocheck(item->answer + r->start,
			    r->end - r->start));
			jset(sc, cl, "terms", json_integer(distinct));
			jset(sc, cl, "support", distinct > 0 ? json_real(support) : json_null());
			if (distinct > 0 && sc->judge != NULL) {
				jset(sc, cl, "keyword_support", json_real(keyword));
				jset(sc, cl, "judged", json_true());
			}
			if (best != SIZE_MAX) {
				ref = cite_ref(sc, item, best, "id", json_object(), "index");
				jset(sc, ref, "support",
				    json_real((double)sc->cnt[best] / distinct));
				jset(sc, cl, "citation", ref);
			} else
				jset(sc, cl, "citation", json_null());
			jset(sc, cl, "unsupported", unsup);
			jappend(sc, claims, cl);
		}
		for (i = 0; i < ntouched; i++)
			sc->cnt[sc->touched[i]] = 0;
	}
	res->faithfulness = counted > 0 && item->ncites > 0 ? sum / counted : 0;
	if (d != NULL) {
		jset(sc, d, "claims", claims);
		jset(sc, d, "claims_scored", json_integer((json_int_t)counted));
	}
	return (int)counted;
}

static int
score_redundancy(struct ev_scorer *sc, const struct ev_score_item *item, json_t *d,
    struct ev_score_result *res, struct ev_err *err)
{
	size_t n = item->ncites, a, b, i, pairs = 0, pa = 0, pb = 0;
	double idf, dot, cos, max = 0, sum = 0, nsum = 0, norm;
	struct term *t;
	json_t *mr;

	for (a = 0; a < n; a++) {
		norm = 0;
		for (i = sc->cstart[a]; i < sc->cstart[a + 1]; i++) {
			t = &sc->terms[sc->entries[i].gid];
			if (idf_of(sc, t, n, &idf, err) == -1)
				return -1;
			sc->entries[i].w = sc->entries[i].tf * idf;
			norm += sc->entries[i].w * sc->entries[i].w;
		}
		sc->cnorm[a] = sqrt(norm);
		sc->nearest[a] = 0;
	}
	for (a = 0; a + 1 < n; a++) {
		for (i = sc->cstart[a]; i < sc->cstart[a + 1]; i++)
			sc->terms[sc->entries[i].gid].w = sc->entries[i].w;
		for (b = a + 1; b < n; b++) {
			dot = 0;
			for (i = sc->cstart[b]; i < sc->cstart[b + 1]; i++)
				dot += sc->terms[sc->entries[i].gid].w * sc->entries[i].w;
			cos = sc->cnorm[a] > 0 && sc->cnorm[b] > 0 ?
			    dot / (sc->cnorm[a] * sc->cnorm[b]) : 0;
			if (cos > 1)
				cos = 1;
			if (!(cos > 0))
				cos = 0;
			if (pairs == 0 || cos > max) {
				max = cos;
				pa = a;
				pb = b;
			}
			sum += cos;
			pairs++;
			if (cos > sc->nearest[a])
				sc->nearest[a] = cos;
			if (cos > sc->nearest[b])
				sc->nearest[b] = cos;
		}
		for (i = sc->cstart[a]; i < sc->cstart[a + 1]; i++)
			sc->terms[sc->entries[i].gid].w = 0;
	}
	for (a = 0; a < n && n > 1; a++)
		nsum += sc->nearest[a];
	{
		double vmean = pairs > 0 ? sum / pairs : 0;
		double vnear = n > 1 ? nsum / n : 0;

		res->redundancy = sc->how == EV_SCORE_MAX ? max :
		    sc->how == EV_SCORE_MEAN ? vmean : vnear;
		if (d != NULL) {
			jset(sc, d, "pairs", json_integer((json_int_t)pairs));
			if (pairs > 0) {
				mr = cite_ref(sc, item, pa, "a_id", json_object(), "a");
				cite_ref(sc, item, pb, "b_id", mr, "b");
				jset(sc, mr, "similarity", json_real(max));
				jset(sc, d, "most_redundant", mr);
			} else
				jset(sc, d, "most_redundant", json_null());
			jset(sc, d, "redundancy_max", json_real(max));
			jset(sc, d, "redundancy_mean", json_real(vmean));
			jset(sc, d, "redundancy_nearest", json_real(vnear));
			jset(sc, d, "idf", json_string(sc->st != NULL ? "store" : "citations"));
		}
	}
	return 0;
}

static int
score_run(struct ev_scorer *sc, const struct ev_score_item *item,
    const struct ev_score_weights *w, int want_details, struct ev_score_result *res,
    struct ev_err *err)
{
	json_t *d = NULL, *warnings = NULL;
	int nq, nclaims;
	uint32_t i;
	size_t c, nused = 0;

	memset(res, 0, sizeof(*res));
	if (item->ncites > EV_SCORE_MAX_CITATIONS)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "too many citations (%zu; at most %d)",
		    item->ncites, EV_SCORE_MAX_CITATIONS);
	if (sc->nterms > MAX_TERMS)
		vocab_reset(sc);
	if (++sc->stamp == 0) {		/* after 2^32 items: forget the stamps */
		for (i = 0; i < sc->nterms; i++)
			sc->terms[i].stamp = 0;
		sc->stamp = 1;
	}
	sc->jfail = 0;
	if (want_details) {
		d = json_object();
		warnings = json_array();
		if (d == NULL || warnings == NULL)
			goto nomem;
	}
	if (read_citations(sc, item, err) == -1)
		goto fail;
	/* Coverage needs the citations the answer uses, so it is scored after
	 * faithfulness; its details keep their place before the claims. */
	if (d != NULL) {
		jset(sc, d, "query_terms", json_null());
		jset(sc, d, "uncovered", json_null());
		jset(sc, d, "coverage_of", json_null());
		jset(sc, d, "citations_used", json_null());
	}
	if ((nclaims = score_faithfulness(sc, item, d, res, err)) < 0)
		goto fail;
	if ((nq = score_coverage(sc, item, d, res, err)) < 0)
		goto fail;
	if (score_redundancy(sc, item, d, res, err) == -1)
		goto fail;
	for (c = 0; c < item->ncites; c++)
		nused += sc->used[c];
	if (d != NULL)
		jset(sc, d, "citations_used", json_integer((json_int_t)nused));
	if (item->ncites == 0)
		warn(sc, res, warnings, "no citations: faithfulness and coverage are 0");
	if (item->answer_len == 0 || nclaims == 0)
		warn(sc, res, warnings, sc->cover == EV_SCORE_COVER_CITED ? (item->answer_len == 0 ?
		    "empty answer: faithfulness is 0" : "answer has no content terms: faithfulness is 0") :
		    item->answer_len == 0 ? "empty answer: faithfulness and coverage are 0" :
		    "answer has no content terms: faithfulness and coverage are 0");
	else if (item->ncites > 0 && nused == 0)
		warn(sc, res, warnings, sc->cover == EV_SCORE_COVER_USED ?
		    "the answer uses none of its citations (no word in common):"
		    " faithfulness and coverage are 0" :
		    "the answer uses none of its citations (no word in common): faithfulness is 0");
	if (nq == 0)
		warn(sc, res, warnings, item->query_len == 0 ? "empty query: coverage is 0" :
		    "query has no content terms: coverage is 0");
	res->overall = ev_score_overall(res->faithfulness, res->coverage, res->redundancy, w);
	if (d != NULL) {
		if (json_array_size(warnings) > 0)
			jset(sc, d, "warnings", warnings);
		else
			json_decref(warnings);
		warnings = NULL;
		if (sc->jfail)
			goto nomem;	/* never details with a field missing */
		res->details = d;
	}
	return 0;
nomem:
	ev_err_nomem(err);
fail:
	json_decref(d);
	json_decref(warnings);
	return -1;
}

int
ev_score_answer(struct ev_scorer *sc, const struct ev_score_item *item,
    const struct ev_score_weights *w, int want_details, struct ev_score_result *res,
    struct ev_err *err)
{
	char lang[EV_ANALYZE_CODE_MAX];
	int rc;

	/* every text of the item stemmed alike: for its language, given or
	 * the answer's (the query's when the answer is empty) */
	if (item->language[0] != '\0') {
		memcpy(lang, item->language, sizeof lang);
	} else {
		if (sc->lex == NULL && (sc->lex = ev_lex_open(NULL, err)) == NULL)
			return -1;
		if (item->answer_len > 0)
			ev_langid(sc->lex, item->answer, item->answer_len, lang);
		else
			ev_langid(sc->lex, item->query, item->query_len, lang);
	}
	ev_tok_set_lang(sc->tok, lang);
	rc = score_run(sc, item, w, want_details, res, err);
	ev_tok_set_lang(sc->tok, NULL);
	if (rc == 0 && res->details != NULL && strcmp(lang, "en") != 0 &&
	    json_object_set_new(res->details, "language", json_string(lang)) == -1) {
		ev_score_result_release(res);
		return ev_err_nomem(err);
	}
	return rc;
}

void
ev_score_result_release(struct ev_score_result *res)
{
	if (res == NULL)
		return;
	json_decref(res->details);
	memset(res, 0, sizeof(*res));
}

/* Claims. */

static int
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether the '.' at s[i] ends a sentence, judging by the word before it:
 * not after a single letter ("e.g.", "J. Smith"), a list number at the start
 * of a claim ("1."), or a few abbreviations. */
static int
dot_ends(const char *s, size_t from, size_t i)
{
	static const char *const abbr[] = { "vs", "cf", "al", "fig", "eq", "mr", "mrs", "ms",
		"dr", "st", NULL };
	size_t w = i, k, n;
	int digits = 1;

	while (w > from && is_alnum((unsigned char)s[w - 1]))
		w--;
	n = i - w;
	if (n == 1 && !(s[w] >= '0' && s[w] <= '9'))
		return 0;
	for (k = w; k < i; k++)
		if (!(s[k] >= '0' && s[k] <= '9'))
			digits = 0;
	if (n > 0 && digits) {
		for (k = from; k < w && is_space((unsigned char)s[k]); k++)
			;
		if (k == w)	/* the claim so far is only this number */
			return 0;
	}
	for (k = 0; abbr[k] != NULL; k++)
		if (strlen(abbr[k]) == n && strncasecmp(s + w, abbr[k], n) == 0)
			return 0;
	return 1;
}

/* Whether a list item starts at s[i] (the first non-blank of a line): "- ",
 * "* ", "+ ", "• ", or "12. " / "12) ". */
static int
list_item(const char *s, size_t len, size_t i)
{
	size_t k = i;

	if (i + 1 < len && (s[i] == '-' || s[i] == '*' || s[i] == '+') &&
	    is_space((unsigned char)s[i + 1]))
		return 1;
	if (i + 3 < len && memcmp(s + i, "\xe2\x80\xa2", 3) == 0)
		return 1;
	while (k < len && s[k] >= '0' && s[k] <= '9')
		k++;
	return k > i && k - i <= 3 && k + 1 < len && (s[k] == '.' || s[k] == ')') &&
	    is_space((unsigned char)s[k + 1]);
}

static size_t
emit(const char *s, size_t start, size_t end,
    void (*fn)(void *ctx, size_t start, size_t end), void *ctx)
{
	while (start < end && is_space((unsigned char)s[start]))
		start++;
	while (end > start && is_space((unsigned char)s[end - 1]))
		end--;
	if (start == end)
		return 0;
	fn(ctx, start, end);
	return 1;
}

size_t
ev_score_claims(const char *s, size_t len,
    void (*fn)(void *ctx, size_t start, size_t end), void *ctx)
{
	size_t i = 0, from = 0, n = 0, j, k, run;
	unsigned char c;

	while (i < len) {
		c = (unsigned char)s[i];
		if (c == '.' || c == '!' || c == '?') {
			j = i;
			while (j < len && (s[j] == '.' || s[j] == '!' || s[j] == '?'))
				j++;
			run = j - i;
			/* closing quotes and brackets stay with the sentence */
			while (j < len && (s[j] == '"' || s[j] == '\'' || s[j] == ')' || s[j] == ']'))
				j++;
			if (j + 2 < len && (unsigned char)s[j] == 0xe2 &&
			    (unsigned char)s[j + 1] == 0x80 &&
			    ((unsigned char)s[j + 2] == 0x9d || (unsigned char)s[j + 2] == 0x99))
				j += 3;	/* a closing curly quote */
			if ((j == len || is_space((unsigned char)s[j])) &&
			    (c != '.' || run > 1 || dot_ends(s, from, i))) {
				n += emit(s, from, j, fn, ctx);
				from = i = j;
				continue;
			}
			i += run;
			continue;
		}
		/* 。！？ end a sentence wherever they stand */
		if (c == 0xe3 && i + 2 < len && (unsigned char)s[i + 1] == 0x80 &&
		    (unsigned char)s[i + 2] == 0x82) {
			n += emit(s, from, i + 3, fn, ctx);
			from = i = i + 3;
			continue;
		}
		if (c == 0xef && i + 2 < len && (unsigned char)s[i + 1] == 0xbc &&
		    ((unsigned char)s[i + 2] == 0x81 || (unsigned char)s[i + 2] == 0x9f)) {
			n += emit(s, from, i + 3, fn, ctx);
			from = i = i + 3;
			continue;
		}
		if (c == '\n') {
			/* a blank line, or a list item on the next line, ends a claim */
			k = i + 1;
			while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
				k++;
			if (k >= len || s[k] == '\n' || list_item(s, len, k)) {
				n += emit(s, from, i, fn, ctx);
				from = i = k;
				continue;
			}
		}
		i++;
	}
	n += emit(s, from, len, fn, ctx);
	return n;
}

/* Reading records. */

static int
add_cite(struct ev_score_item *item, const char *id, const char *text, size_t len)
{
	if (item->ncites == item->cap &&
	    grow(&item->cites, &item->cap, item->ncites + 1, sizeof(*item->cites)) == -1)
		return -1;
	item->cites[item->ncites].id = id;
	item->cites[item->ncites].text = text;
	item->cites[item->ncites].len = len;
	item->ncites++;
	return 0;
}

/* A citation id as text: a string as it is; NULL for none, or for an
 * integer (int_ids() gives its text once all are read). */
static const char *
cite_id(const json_t *o)
{
	json_t *id = json_object_get(o, "id");

	return json_is_string(id) ? json_string_value(id) : NULL;
}

/* The integer ids of the citations (which are item's cites, one for one),
 * in decimal in item->idnums.  Returns 0 or -1 (out of memory). */
static int
int_ids(struct ev_score_item *item, const json_t *citations)
{
	const json_t *c;
	size_t i, n = 0;

	json_array_foreach(citations, i, c)
		n += json_is_integer(json_object_get(c, "id"));
	free(item->idnums);
	if ((item->idnums = n ? malloc(n * 24) : NULL) == NULL)
		return n ? -1 : 0;
	n = 0;
	json_array_foreach(citations, i, c) {
		const json_t *id = json_object_get(c, "id");
		char *t = item->idnums + 24 * n;

		if (!json_is_integer(id))
			continue;
		snprintf(t, 24, "%" JSON_INTEGER_FORMAT, json_integer_value(id));
		item->cites[i].id = t;
		n++;
	}
	return 0;
}

/* Is v absent, null, or of the JSON type t (json_type)? */
static int
absent_or(const json_t *v, json_type t)
{
	return v == NULL || json_is_null(v) || json_typeof(v) == t;
}

/* The evidences of the EvidencePack rec as the item's citations, and its
 * query, short of a top-level one: the first evidence's
 * provenance.query_text, else plan.query, else plan.query_text.  Each of
 * these, and each provenance and the plan, is of its type where present
 * (null is absent): one of another type would be passed over unsaid, the
 * item scored against another query or none. */
static int
from_pack(struct ev_score_item *item, const json_t *rec, const json_t *evs, const char *where,
    struct ev_err *err)
{
	static const char *const planq[2] = { "query", "query_text" };
	size_t i;
	json_t *ev, *text, *prov, *q, *plan = json_object_get(rec, "plan");
	const char *query = NULL;

	json_array_foreach(evs, i, ev) {
		if (!json_is_object(ev))
			return ev_err_set(err, EV_EXIT_USAGE, where, "evidence %zu must be an object", i);
		text = json_object_get(ev, "snippet");
		if (text == NULL || json_is_null(text))
			text = json_object_get(ev, "text");
		if (!json_is_string(text))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "evidence %zu: field 'snippet' must be a string", i);
		if (!absent_or(json_object_get(ev, "id"), JSON_STRING))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "evidence %zu: field 'id' must be a string", i);
		if (add_cite(item, cite_id(ev), json_string_value(text), json_string_length(text)) == -1)
			return ev_err_nomem(err);
		if (!absent_or(prov = json_object_get(ev, "provenance"), JSON_OBJECT))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "evidence %zu: field 'provenance' must be an object", i);
		if (!absent_or(q = json_object_get(prov, "query_text"), JSON_STRING))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "evidence %zu: field 'provenance.query_text' must be a string", i);
		if (query == NULL && json_is_string(q) && json_string_length(q) > 0) {
			item->query = json_string_value(q);
			item->query_len = json_string_length(q);
			query = item->query;
		}
	}
	if (!absent_or(plan, JSON_OBJECT))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'plan' must be an object");
	for (i = 0; i < 2; i++) {
		if (!absent_or(q = json_object_get(plan, planq[i]), JSON_STRING))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'plan.%s' must be a string",
			    planq[i]);
		if (query == NULL && json_is_string(q)) {
			item->query = query = json_string_value(q);
			item->query_len = json_string_length(q);
		}
	}
	return 0;
}

int
ev_score_item_from_json(struct ev_score_item *item, const json_t *rec, const char *where,
    struct ev_err *err)
{
	json_t *v, *cites, *evs, *c, *text;
	size_t i;

	item->ncites = 0;
	item->query = item->answer = "";
	item->query_len = item->answer_len = 0;
	item->language[0] = '\0';
	if (!json_is_object(rec))
		return ev_err_set(err, EV_EXIT_USAGE, where, "an answer record must be an object");
	/* the item's name in the score record, the gates' messages and the
	 * summary: an id, as every other record has it */
	v = json_object_get(rec, "query_id");
	if (v != NULL && !json_is_null(v) && !json_is_string(v) && !json_is_integer(v))
		return ev_err_query_id(err, where);
	/* a language code, or an EvidencePack's "other" (found from the text) */
	v = json_object_get(rec, "language");
	if (v != NULL && !json_is_null(v) && (!json_is_string(v) ||
	    (ev_analyze_norm(json_string_value(v), json_string_length(v), item->language) == -1 &&
	    strcmp(json_string_value(v), "other") != 0)))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'language' must be a language code"
		    " such as \"en\", \"fr\" or \"zh\" (or \"other\")");
	v = json_object_get(rec, "answer");
	if (v == NULL || json_is_null(v))
		return ev_err_set(err, EV_EXIT_USAGE, where, "missing field 'answer'");
	if (!json_is_string(v))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'answer' must be a string");
	item->answer = json_string_value(v);
	item->answer_len = json_string_length(v);

	cites = json_object_get(rec, "citations");
	evs = json_object_get(rec, "evidences");
	if ((cites == NULL || json_is_null(cites)) && evs != NULL && !json_is_null(evs)) {
		if (!json_is_array(evs))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'evidences' must be an array");
		if (from_pack(item, rec, evs, where, err) == -1)
			return -1;
	} else {
		if (cites == NULL || json_is_null(cites))
			return ev_err_set(err, EV_EXIT_USAGE, where,
			    "missing field 'citations' (or 'evidences')");
		if (!json_is_array(cites))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'citations' must be an array");
		json_array_foreach(cites, i, c) {
			if (json_is_string(c)) {
				if (add_cite(item, NULL, json_string_value(c), json_string_length(c)) == -1)
					return ev_err_nomem(err);
				continue;
			}
			if (!json_is_object(c))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "citation %zu must be an object or a string", i);
			text = json_object_get(c, "text");
			if (text == NULL || json_is_null(text))
				text = json_object_get(c, "snippet");
			if (text == NULL || json_is_null(text))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "citation %zu: missing field 'text'", i);
			if (!json_is_string(text))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "citation %zu: field 'text' must be a string", i);
			v = json_object_get(c, "id");
			if (v != NULL && !json_is_null(v) && !json_is_string(v) && !json_is_integer(v))
				return ev_err_set(err, EV_EXIT_USAGE, where,
				    "citation %zu: field 'id' must be a string or an integer", i);
			if (add_cite(item, cite_id(c), json_string_value(text),
			    json_string_length(text)) == -1)
				return ev_err_nomem(err);
		}
		if (int_ids(item, cites) == -1)
			return ev_err_nomem(err);
	}
	v = json_object_get(rec, "query");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_string(v))
			return ev_err_set(err, EV_EXIT_USAGE, where, "field 'query' must be a string");
		item->query = json_string_value(v);
		item->query_len = json_string_length(v);
	} else if (cites != NULL && !json_is_null(cites))
		return ev_err_set(err, EV_EXIT_USAGE, where, "missing field 'query'");
	if (item->ncites > EV_SCORE_MAX_CITATIONS)
		return ev_err_set(err, EV_EXIT_USAGE, where, "too many citations (%zu; at most %d)",
		    item->ncites, EV_SCORE_MAX_CITATIONS);
	return 0;
}

void
ev_score_item_release(struct ev_score_item *item)
{
	if (item == NULL)
		return;
	free(item->cites);
	free(item->idnums);
	item->cites = NULL;
	item->idnums = NULL;
	item->ncites = item->cap = 0;
}

json_t *
ev_score_record_id(const json_t *rec, size_t lineno)
{
	json_t *id = json_object_get(rec, "query_id");

	if (id == NULL || json_is_null(id))
		id = json_object_get(json_object_get(rec, "plan"), "query_id");
	if (id != NULL && !json_is_null(id))
		return json_incref(id);
	return json_integer((json_int_t)lineno);
}

json_t *
ev_score_record(const json_t *rec, size_t lineno, const struct ev_score_result *res, int passed)
{
	json_t *out = json_object(), *id;
	int r;

	/* a failed insertion (memory running out) fails the whole record: r
	 * collects every result (json_object_set_new takes its value, also
	 * when it fails) */
	r = json_object_set_new(out, "query_id", ev_score_record_id(rec, lineno));
	if ((id = json_object_get(rec, "request_id")) != NULL)
		r |= json_object_set(out, "request_id", id);
	if ((id = json_object_get(rec, "plan_id")) != NULL)
		r |= json_object_set(out, "plan_id", id);
	r |= json_object_set_new(out, "faithfulness", json_real(res->faithfulness));
	r |= json_object_set_new(out, "coverage", json_real(res->coverage));
	r |= json_object_set_new(out, "redundancy", json_real(res->redundancy));
	r |= json_object_set_new(out, "overall", json_real(res->overall));
	if (passed >= 0)
		r |= json_object_set_new(out, "passed", json_boolean(passed));
	r |= json_object_set(out, "details", res->details);
	if (r != 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}
