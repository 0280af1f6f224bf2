/* analyze.c: the "evkit" FTS5 tokeniser.  See analyze.h. */
#include "analyze.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "icu.h"
#include "stemmer.h"

/* The languages evkit knows by code: their ISO 639-2 aliases and their
 * Snowball stemmer (NULL: Porter for en, zh, ja, ko, whose Latin words are
 * mostly English ones). */
static const struct lang {
	const char *code, *alt1, *alt2, *snowball;
} langs[] = {
	{ "en", "eng", NULL, NULL },
	{ "zh", "zho", "chi", NULL },
	{ "ja", "jpn", NULL, NULL },
	{ "ko", "kor", NULL, NULL },
	{ "fr", "fra", "fre", "french" },
	{ "de", "deu", "ger", "german" },
	{ "es", "spa", NULL, "spanish" },
	{ "it", "ita", NULL, "italian" },
	{ "pt", "por", NULL, "portuguese" },
	{ "nl", "nld", "dut", "dutch" },
	{ "sv", "swe", NULL, "swedish" },
	{ "da", "dan", NULL, "danish" },
	{ "no", "nor", "nob", "norwegian" },
	{ "nb", "nno", "nn", "norwegian" },
	{ "fi", "fin", NULL, "finnish" },
	{ "ru", "rus", NULL, "russian" },
	{ "hu", "hun", NULL, "hungarian" },
	{ "ro", "ron", "rum", "romanian" },
	{ "tr", "tur", NULL, "turkish" },
	{ "el", "ell", "gre", "greek" },
	{ "ar", "ara", NULL, "arabic" },
	{ "ca", "cat", NULL, "catalan" },
	{ "eu", "eus", "baq", "basque" },
	{ "ga", "gle", NULL, "irish" },
	{ "id", "ind", NULL, "indonesian" },
	{ "lt", "lit", NULL, "lithuanian" },
	{ "ne", "nep", NULL, "nepali" },
	{ "sr", "srp", NULL, "serbian" },
	{ "ta", "tam", NULL, "tamil" },
	{ "hy", "hye", "arm", "armenian" },
	{ "yi", "yid", NULL, "yiddish" },
	{ "hi", "hin", NULL, "hindi" },
};
#define NLANGS ((int)(sizeof langs / sizeof langs[0]))

/* An analysis of Latin (and other spaced) runs: Porter, none (folding
 * only), or a Snowball stemmer (the langs[] index that names it). */
enum { A_PORTER = -1, A_PLAIN = -2, A_NONE = -3 };

/* Kinds of characters: spaced scripts (FTS5's unicode61), CJK (words and
 * bigrams), and the other scripts written without spaces (words only). */
enum { K_SPACED, K_CJK, K_UNSPACED };

struct ev_analyzer {
	fts5_tokenizer u61;		/* FTS5's unicode61 */
	fts5_tokenizer porter;		/* FTS5's porter */
	void *u61_ud, *porter_ud;	/* their xCreate's first argument (for clones) */
	Fts5Tokenizer *t_porter;	/* porter unicode61 remove_diacritics 2 */
	Fts5Tokenizer *t_raw;		/* unicode61 remove_diacritics 0 */
	Fts5Tokenizer *t_fold;		/* unicode61 remove_diacritics 2 */
	struct sb_stemmer *sb[NLANGS];
	int lang;			/* analysis of untagged text */
	int qa[EV_ANALYZE_MAX_QUERY_LANGS], nq;	/* the query's analyses */
	int sa[EV_ANALYZE_MAX_QUERY_LANGS], ns;	/* the store's (ns 0: qa's) */
	int lq;				/* the query's own language's, or A_NONE */
	int index;			/* the index's version (analyze.h) */
	UBreakIterator *brk;
	UChar *u16;			/* a run in UTF-16 */
	int32_t *u2c;			/* a UTF-16 index's character */
	int32_t *cbyte;			/* a character's byte offset */
	size_t cap;			/* of u16, u2c, cbyte */
	char *term;			/* a composed term */
	size_t tcap;
	char *tagged;			/* a term in its language's namespace */
	size_t tagcap;
	const struct ev_analyze_cue *cues;	/* texts whose tokens were recorded */
	size_t ncues, next_cue;		/* next_cue: the one expected next */
};

/* One xTokenize call. */
struct call {
	struct ev_analyzer *an;
	void *ctx;
	int (*cb)(void *, int, const char *, int, int, int);
	const char *text;
	int base;			/* the segment's offset in text */
	int analysis;			/* of this call (single analysis) */
	int query;
	int terms;			/* EV_ANALYZE_TERMS */
	int own;			/* EV_ANALYZE_OWN */
	int plain;			/* EV_ANALYZE_PLAIN, or an index of version 1 */
	int stems[EV_ANALYZE_MAX_QUERY_LANGS];	/* version 2: the analyses a word is */
	int nstems;			/* stemmed for (A_PLAIN left out), */
	int bare;			/* and whether the word itself goes beside */
};

int
ev_analyze_norm(const char *code, size_t len, char out[EV_ANALYZE_CODE_MAX])
{
	size_t n = 0;

	while (n < len && code[n] != '-' && code[n] != '_')
		n++;
	if (n < 2 || n > 3)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isalpha((unsigned char)code[i]))
			return -1;
		out[i] = (char)tolower((unsigned char)code[i]);
	}
	out[n] = '\0';
	for (int i = 0; i < NLANGS; i++)
		if ((langs[i].alt1 != NULL && strcmp(out, langs[i].alt1) == 0) ||
		    (langs[i].alt2 != NULL && strcmp(out, langs[i].alt2) == 0))
			strcpy(out, langs[i].code);
	return 0;
}

/* The analysis of a language (code[0..len), not normalised). */
static int
analysis_of(const char *code, size_t len)
{
	char c[EV_ANALYZE_CODE_MAX];

	if (code == NULL || ev_analyze_norm(code, len, c) == -1)
		return A_PORTER;
	for (int i = 0; i < NLANGS; i++)
		if (strcmp(c, langs[i].code) == 0)
			return langs[i].snowball != NULL ? i : A_PORTER;
	return A_PLAIN;
}

int
ev_analyze_has_stemmer(const char *code)
{
	return code != NULL && analysis_of(code, strlen(code)) != A_PLAIN;
}

int
ev_analyze_porter_tag(const char *code)
{
	size_t n = code != NULL ? strlen(code) : EV_ANALYZE_CODE_MAX;

	/* (x_tokenize() takes the code between the tags when its closing tag
	 * is among the EV_ANALYZE_CODE_MAX bytes after the opening one) */
	if (n >= EV_ANALYZE_CODE_MAX || memchr(code, EV_ANALYZE_TAG, n) != NULL)
		return 0;
	return analysis_of(code, n) == A_PORTER;
}

void
ev_analyze_set_lang(struct ev_analyzer *an, const char *code)
{
	an->lang = analysis_of(code, code != NULL ? strlen(code) : 0);
}

/* Whether analyses a and b stem alike (two codes of one stemmer: no, nb). */
static int
same_analysis(int a, int b)
{
	return a == b || (a >= 0 && b >= 0 && strcmp(langs[a].snowball, langs[b].snowball) == 0);
}

const char *
ev_analyze_stem_tag(int i)
{
	for (int l = 0; l < NLANGS; l++) {
		int first = langs[l].snowball != NULL;

		for (int k = 0; k < l && first; k++)	/* no for nb */
			first = langs[k].snowball == NULL || !same_analysis(k, l);
		if (first && i-- == 0)
			return langs[l].code;
	}
	return NULL;
}

int
ev_analyze_stem_form(int i, const char *stem, size_t len, char *out, size_t cap)
{
	const char *code = i == -1 ? NULL : ev_analyze_stem_tag(i);
	size_t cl = code != NULL ? strlen(code) : 0;
	size_t n = code != NULL ? cl + 2 + len : len;

	if ((i != -1 && code == NULL) || n + 1 > cap)
		return -1;
	if (code != NULL) {
		out[0] = EV_ANALYZE_TAG;
		memcpy(out + 1, code, cl);
		out[cl + 1] = EV_ANALYZE_TAG;
	}
	memcpy(out + n - len, stem, len);
	out[n] = '\0';
	return (int)n;
}

/* The analyses of codes[0..n) into as (each once, at most
 * EV_ANALYZE_MAX_QUERY_LANGS); returns their number. */
static int
analyses_of(const char *const *codes, int n, int *as)
{
	int k = 0;

	for (int i = 0; i < n && k < EV_ANALYZE_MAX_QUERY_LANGS; i++) {
		int a = analysis_of(codes[i], strlen(codes[i])), dup = 0;

		for (int j = 0; j < k; j++)
			dup |= same_analysis(as[j], a);
		if (!dup)
			as[k++] = a;
	}
	return k;
}

void
ev_analyze_set_query_langs(struct ev_analyzer *an, const char *const *codes, int n)
{
	if ((an->nq = analyses_of(codes, n, an->qa)) == 0)
		an->qa[an->nq++] = A_PORTER;
}

void
ev_analyze_set_store_langs(struct ev_analyzer *an, const char *const *codes, int n)
{
	an->ns = analyses_of(codes, n, an->sa);
}

void
ev_analyze_set_query_lang(struct ev_analyzer *an, const char *code)
{
	an->lq = code != NULL ? analysis_of(code, strlen(code)) : A_NONE;
}

void
ev_analyze_set_index(struct ev_analyzer *an, int version)
{
	an->index = version;
}

/* The kind of code point cp.  Below U+0E00 and from U+1E00 (Latin and
 * Greek extended, punctuation, symbols) to the CJK radicals at U+2E80 no
 * script is CJK or unspaced: text in European languages, with its
 * quotation marks, dashes and currency signs, never loads ICU
 * (test_analyze checks these ranges against ICU, code point by code point). */
static int
kind(UChar32 cp)
{
	UErrorCode st = U_ZERO_ERROR;

	if (cp < 0x0E00 || (cp >= 0x1E00 && cp < 0x2E80))
		return K_SPACED;
	/* iteration marks and the prolonged sound mark are Common, not Han or kana */
	if ((cp >= 0x3005 && cp <= 0x3007) || (cp >= 0x3031 && cp <= 0x3035) || cp == 0x309D ||
	    cp == 0x309E || (cp >= 0x30FC && cp <= 0x30FE))
		return K_CJK;
	switch (uscript_getScript(cp, &st)) {
	case USCRIPT_HAN:
	case USCRIPT_HIRAGANA:
	case USCRIPT_KATAKANA:
	case USCRIPT_HANGUL:
		return K_CJK;
	case USCRIPT_THAI:
	case USCRIPT_LAO:
	case USCRIPT_KHMER:
	case USCRIPT_MYANMAR:
		return K_UNSPACED;
	default:
		return K_SPACED;
	}
}

int
ev_analyze_has_unspaced(const char *text, size_t len)
{
	int32_t i = 0, n = len > INT32_MAX ? INT32_MAX : (int32_t)len;
	UChar32 cp;

	while (i < n) {
		if ((unsigned char)text[i] < 0x80) {
			i++;
			continue;
		}
		U8_NEXT(text, i, n, cp);
		if (cp >= 0 && kind(cp) != K_SPACED)
			return 1;
	}
	return 0;
}

/* Whether code point cp, from U+0080 to U+024F (Latin-1 Supplement,
 * Latin Extended-A and -B), is a letter, as u_isalpha() says: all from
 * U+00C0 but the signs of multiplication and division, and the feminine
 * and masculine ordinals and the micro sign before. */
static int
latin1_letter(UChar32 cp)
{
	if (cp >= 0xC0)
		return cp != 0xD7 && cp != 0xF7;
	return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
}

/* Whether text[0..len) is all ASCII, eight bytes at a time. */
static int
is_ascii(const char *text, size_t len)
{
	uint64_t any = 0, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, text + i, 8);
		any |= w;
	}
	for (; i < len; i++)
		any |= (unsigned char)text[i];
	return (any & 0x8080808080808080ULL) == 0;
}

const char *
ev_analyze_script_lang(const char *text, size_t len)
{
	enum { LATIN, HAN, KANA, HANGUL, CYRILLIC, GREEK, ARABIC, HEBREW, THAI, NS };
	static const char *const code[NS] = { "", "zh", "ja", "ko", "ru", "el", "ar", "he", "th" };
	size_t count[NS] = { 0 };
	int32_t i = 0, n = len > 65536 ? 65536 : (int32_t)len;
	UChar32 cp;
	int best = LATIN;

	if (is_ascii(text, (size_t)n))
		return code[LATIN];	/* the Latin count is all there is */
	while (i < n) {
		UErrorCode st = U_ZERO_ERROR;
		int s;

		if ((unsigned char)text[i] < 0x80) {
			count[LATIN] += isalpha((unsigned char)text[i]) != 0;
			i++;
			continue;
		}
		U8_NEXT(text, i, n, cp);
		if (cp < 0)
			continue;
		/* the Latin letters of European languages, and punctuation,
		 * answered without ICU (test_analyze checks them against it) */
		if (cp < 0x0250) {
			count[LATIN] += latin1_letter(cp);
			continue;
		}
		if (cp >= 0x2000 && cp < 0x2070)
			continue;	/* General Punctuation: no letter */
		if (!u_isalpha(cp))
			continue;
		switch (uscript_getScript(cp, &st)) {
		case USCRIPT_HAN: s = HAN; break;
		case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA: s = KANA; break;
		case USCRIPT_HANGUL: s = HANGUL; break;
		case USCRIPT_CYRILLIC: s = CYRILLIC; break;
		case USCRIPT_GREEK: s = GREEK; break;
		case USCRIPT_ARABIC: s = ARABIC; break;
		case USCRIPT_HEBREW: s = HEBREW; break;
		case USCRIPT_THAI: s = THAI; break;
		default: s = LATIN; break;
		}
		count[s]++;
	}
	count[HAN] += count[KANA];	/* Chinese and Japanese share Han */
	for (int s = 0; s < NS; s++)
		if (s != KANA && count[s] > count[best])
			best = s;
	if (best == HAN && count[KANA] * 8 >= count[HAN])
		best = KANA;
	return code[best];
}

/* Room for a run of n bytes (at most n characters and UTF-16 units). */
static int
run_room(struct ev_analyzer *an, size_t n)
{
	void *p;

	if (n + 1 <= an->cap)
		return 0;
	if ((p = realloc(an->u16, (n + 1) * sizeof *an->u16)) == NULL)
		return -1;
	an->u16 = p;
	if ((p = realloc(an->u2c, (n + 1) * sizeof *an->u2c)) == NULL)
		return -1;
	an->u2c = p;
	if ((p = realloc(an->cbyte, (n + 1) * sizeof *an->cbyte)) == NULL)
		return -1;
	an->cbyte = p;
	an->cap = n + 1;
	return 0;
}

/* Room for n bytes in *buf (of *cap): 0, or -1 when out of memory. */
static int
room(char **buf, size_t *cap, size_t n)
{
	char *p;

	if (n <= *cap)
		return 0;
	if ((p = realloc(*buf, n * 2)) == NULL)
		return -1;
	*buf = p;
	*cap = n * 2;
	return 0;
}

static int
term_room(struct ev_analyzer *an, size_t n)
{
	return room(&an->term, &an->tcap, n);
}

/* A token of a sub-tokeniser over a segment: its offsets moved to the text. */
static int
shifted(void *pctx, int tflags, const char *term, int len, int start, int end)
{
	struct call *c = pctx;

	return c->cb(c->ctx, tflags, term, len, c->base + start, c->base + end);
}

/* The one token a sub-tokeniser makes of a word, copied into cap. */
struct capture {
	struct ev_analyzer *an;
	int len;		/* -1: none yet */
	int oom;
};

static int
capture_token(void *pctx, int tflags, const char *term, int len, int start, int end)
{
	struct capture *k = pctx;

	(void)tflags, (void)start, (void)end;
	if (k->len >= 0)
		return SQLITE_OK;
	if (term_room(k->an, (size_t)len + 1) == -1) {
		k->oom = 1;
		return SQLITE_NOMEM;
	}
	memcpy(k->an->term, term, (size_t)len);
	k->len = len;
	return SQLITE_OK;
}

/* The term of analysis a for the word w[0..n) (as written) and its raw
 * token raw[0..rlen) (lowercased, accents kept): into an->term, its length
 * returned (0: none), or -1 when out of memory. */
static int
word_term(struct ev_analyzer *an, int a, const char *w, int n, const char *raw, int rlen)
{
	struct capture k = { an, -1, 0 };
	const sb_symbol *stem;
	char *copy;
	int r;

	if (a == A_PORTER)
		r = an->porter.xTokenize(an->t_porter, &k, FTS5_TOKENIZE_DOCUMENT, w, n, capture_token);
	else if (a == A_PLAIN)
		r = an->u61.xTokenize(an->t_fold, &k, FTS5_TOKENIZE_DOCUMENT, w, n, capture_token);
	else {
		if (an->sb[a] == NULL && (an->sb[a] = sb_stemmer_new(langs[a].snowball, "UTF_8")) == NULL)
			return -1;
		if ((stem = sb_stemmer_stem(an->sb[a], (const sb_symbol *)raw, rlen)) == NULL)
			return -1;
		/* fold the stem's accents: a copy, as an->term receives the result */
		r = sb_stemmer_length(an->sb[a]);
		if ((copy = malloc((size_t)r + 1)) == NULL)
			return -1;
		memcpy(copy, stem, (size_t)r);
		r = an->u61.xTokenize(an->t_fold, &k, FTS5_TOKENIZE_DOCUMENT, copy, r, capture_token);
		free(copy);
	}
	if (k.oom || (r != SQLITE_OK && k.len < 0))
		return -1;
	return k.len < 0 ? 0 : k.len;
}

/* A raw token (unicode61, accents kept) of a segment: its term for each of
 * the call's analyses, the first a new position, the others colocated. */
static int
raw_token(void *pctx, int tflags, const char *raw, int rlen, int start, int end)
{
	struct call *c = pctx;
	struct ev_analyzer *an = c->an;
	const int *as = c->query ? an->qa : &c->analysis;
	int na = c->query ? an->nq : 1, nemitted = 0;
	char *seen[EV_ANALYZE_MAX_QUERY_LANGS];
	int seenlen[EV_ANALYZE_MAX_QUERY_LANGS];
	int rc = SQLITE_OK;

	(void)tflags;
	for (int i = 0; i < na && rc == SQLITE_OK; i++) {
		int len = word_term(an, as[i], c->text + c->base + start, end - start, raw, rlen), dup = 0;

		if (len == -1) {
			rc = SQLITE_NOMEM;
			break;
		}
		if (len == 0)
			continue;
		for (int j = 0; j < nemitted; j++)
			dup |= seenlen[j] == len && memcmp(seen[j], an->term, (size_t)len) == 0;
		if (dup)
			continue;
		if ((seen[nemitted] = malloc((size_t)len)) == NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		memcpy(seen[nemitted], an->term, (size_t)len);
		seenlen[nemitted] = len;
		rc = c->cb(c->ctx, nemitted ? FTS5_TOKEN_COLOCATED : 0, seen[nemitted], len,
		    c->base + start, c->base + end);
		nemitted++;
	}
	for (int j = 0; j < nemitted; j++)
		free(seen[j]);
	return rc;
}

/* The term t[0..len) of analysis a in its language's namespace (a
 * Snowball language's code, or none for the word itself, A_PLAIN), into
 * an->tagged: its length, or -1 when out of memory. */
static int
namespaced(struct ev_analyzer *an, int a, const char *t, int len)
{
	const char *code = "";
	size_t cl;

	for (int i = 0; a >= 0 && i <= a; i++)
		if (langs[i].snowball != NULL && same_analysis(i, a)) {	/* no for nb */
			code = langs[i].code;
			break;
		}
	cl = strlen(code);
	if (room(&an->tagged, &an->tagcap, (size_t)len + cl + 2) == -1)
		return -1;
	an->tagged[0] = EV_ANALYZE_TAG;
	memcpy(an->tagged + 1, code, cl);
	an->tagged[cl + 1] = EV_ANALYZE_TAG;
	memcpy(an->tagged + cl + 2, t, (size_t)len);
	return len + (int)cl + 2;
}

/* A word of a segment, text[base + start, base + end) (raw: its raw token,
 * or NULL when no Snowball stemmer needs it), into an index of version 2:
 * its stem for each of the call's analyses, then the word itself (when the
 * call wants it), the first a new position, the others colocated. */
static int
indexed_word(struct call *c, const char *raw, int rlen, int start, int end)
{
	struct ev_analyzer *an = c->an;
	const char *w = c->text + c->base + start;
	int emitted = 0, rc = SQLITE_OK;

	for (int i = 0; i < c->nstems + c->bare && rc == SQLITE_OK; i++) {
		int a = i < c->nstems ? c->stems[i] : A_PLAIN;
		int len = word_term(an, a, w, end - start, raw, rlen);

		if (len == 0)
			continue;
		if (len == -1 || (a != A_PORTER && (len = namespaced(an, a, an->term, len)) == -1))
			return SQLITE_NOMEM;
		rc = c->cb(c->ctx, emitted++ ? FTS5_TOKEN_COLOCATED : 0, a == A_PORTER ? an->term :
		    an->tagged, len, c->base + start, c->base + end);
	}
	return rc;
}

static int
indexed_raw_token(void *pctx, int tflags, const char *raw, int rlen, int start, int end)
{
	(void)tflags;
	return indexed_word(pctx, raw, rlen, start, end);
}

/* The word itself of the token w[0..n) as written, into an->tagged, when
 * its bytes are ASCII letters and digits: unicode61 reads them as one token
 * and folds them to lowercase, the term namespaced() makes of A_PLAIN's
 * (word_term()) without tokenising the word again.  Returns the term's
 * length; 0 when w holds another byte (or none), -1 when out of memory. */
static int
ascii_word_itself(struct ev_analyzer *an, const char *w, int n)
{
	char *t;

	if (n <= 0 || room(&an->tagged, &an->tagcap, (size_t)n + 2) == -1)
		return n <= 0 ? 0 : -1;
	t = an->tagged + 2;
	for (int i = 0; i < n; i++) {
		unsigned ch = (unsigned char)w[i];

		if (ch - '0' < 10u || ch - 'a' < 26u)
			t[i] = (char)ch;
		else if (ch - 'A' < 26u)
			t[i] = (char)(ch + 32);
		else
			return 0;
	}
	an->tagged[0] = an->tagged[1] = EV_ANALYZE_TAG;
	return n + 2;
}

/* A Porter stem of the run (English's), then the word itself beside it. */
static int
indexed_porter_token(void *pctx, int tflags, const char *term, int len, int start, int end)
{
	struct call *c = pctx;
	const char *w = c->text + c->base + start;
	int rc;

	(void)tflags;
	if ((rc = c->cb(c->ctx, 0, term, len, c->base + start, c->base + end)) != SQLITE_OK ||
	    !c->bare)
		return rc;
	if ((len = ascii_word_itself(c->an, w, end - start)) == 0) {
		if ((len = word_term(c->an, A_PLAIN, w, end - start, NULL, 0)) <= 0)
			return len == 0 ? SQLITE_OK : SQLITE_NOMEM;
		len = namespaced(c->an, A_PLAIN, c->an->term, len);
	}
	if (len == -1)
		return SQLITE_NOMEM;
	return c->cb(c->ctx, FTS5_TOKEN_COLOCATED, c->an->tagged, len, c->base + start, c->base + end);
}

/* A folded word of the run, as itself (a language without a stemmer). */
static int
indexed_bare_token(void *pctx, int tflags, const char *term, int len, int start, int end)
{
	struct call *c = pctx;

	(void)tflags;
	if ((len = namespaced(c->an, A_PLAIN, term, len)) == -1)
		return SQLITE_NOMEM;
	return c->cb(c->ctx, 0, c->an->tagged, len, c->base + start, c->base + end);
}

/* A run of spaced scripts, text[s..e), into an index of version 2. */
static int
indexed_run(struct call *c, int s, int e)
{
	struct ev_analyzer *an = c->an;

	c->base = s;
	if (c->nstems == 1 && c->stems[0] == A_PORTER)
		return an->porter.xTokenize(an->t_porter, c, FTS5_TOKENIZE_DOCUMENT, c->text + s, e - s,
		    indexed_porter_token);
	if (c->nstems == 0)
		return an->u61.xTokenize(an->t_fold, c, FTS5_TOKENIZE_DOCUMENT, c->text + s, e - s,
		    indexed_bare_token);
	return an->u61.xTokenize(an->t_raw, c, FTS5_TOKENIZE_DOCUMENT, c->text + s, e - s,
	    indexed_raw_token);
}

/* A run of spaced scripts, text[s..e). */
static int
spaced_run(struct call *c, int s, int e)
{
	struct ev_analyzer *an = c->an;
	int a = c->query ? an->qa[0] : c->analysis;

	if (!c->plain)
		return indexed_run(c, s, e);
	c->base = s;
	if (!c->query || an->nq == 1) {
		if (a == A_PORTER)
			return an->porter.xTokenize(an->t_porter, c, FTS5_TOKENIZE_DOCUMENT, c->text + s,
			    e - s, shifted);
		if (a == A_PLAIN)
			return an->u61.xTokenize(an->t_fold, c, FTS5_TOKENIZE_DOCUMENT, c->text + s, e - s,
			    shifted);
	}
	return an->u61.xTokenize(an->t_raw, c, FTS5_TOKENIZE_DOCUMENT, c->text + s, e - s, raw_token);
}

/* A run of one unspaced kind k, text[s..e): its words (ICU), and for CJK
 * its bigrams beside them. */
static int
unspaced_run(struct call *c, int s, int e, int k)
{
	struct ev_analyzer *an = c->an;
	const char *t = c->text;
	UErrorCode st = U_ZERO_ERROR;
	int32_t i = s, nu = 0, nc = 0, b, nx;
	int rc = SQLITE_OK;
	UChar32 cp;

	if (run_room(an, (size_t)(e - s)) == -1)
		return SQLITE_NOMEM;
	while (i < e) {
		an->cbyte[nc] = i;
		U8_NEXT(t, i, e, cp);
		int32_t u0 = nu;

		U16_APPEND_UNSAFE(an->u16, nu, cp);
		while (u0 < nu)		/* one unit, or a surrogate pair */
			an->u2c[u0++] = nc;
		nc++;
	}
	an->cbyte[nc] = e;
	an->u2c[nu] = nc;
	if (nc == 1 || (c->query && k == K_CJK && nc <= 2))
		return c->cb(c->ctx, 0, t + s, e - s, s, e);
	if (an->brk == NULL) {
		an->brk = ubrk_open(UBRK_WORD, "ja", NULL, 0, &st);
		if (U_FAILURE(st)) {
			an->brk = NULL;
			return SQLITE_ERROR;
		}
	}
	ubrk_setText(an->brk, an->u16, nu, &st);
	if (U_FAILURE(st))
		return SQLITE_ERROR;
	if (c->query) {
		/* the run as one token when it is one word */
		b = ubrk_first(an->brk);
		if ((nx = ubrk_next(an->brk)) == nu || nx == UBRK_DONE)
			return c->cb(c->ctx, 0, t + s, e - s, s, e);
	}
	for (b = ubrk_first(an->brk); rc == SQLITE_OK && (nx = ubrk_next(an->brk)) != UBRK_DONE;
	    b = nx) {
		int wa = an->u2c[b], wb = an->u2c[nx];

		if (wb <= wa)
			continue;
		if (!(c->terms && k == K_CJK && wb - wa == 1))
			rc = c->cb(c->ctx, 0, t + an->cbyte[wa], an->cbyte[wb] - an->cbyte[wa],
			    an->cbyte[wa], an->cbyte[wb]);
		if (k != K_CJK || c->query)
			continue;
		for (int j = wa; j < wb && j + 1 < nc && rc == SQLITE_OK; j++)
			if (!(wb - wa == 2 && j == wa))
				rc = c->cb(c->ctx, FTS5_TOKEN_COLOCATED, t + an->cbyte[j],
				    an->cbyte[j + 2] - an->cbyte[j], an->cbyte[j], an->cbyte[j + 2]);
	}
	return rc;
}

/* Recorded tokens: for each, its flags (one byte), then its length, start
 * and end as varints (ev_buf_add_varint()), then its bytes. */
static int
record_token(void *pctx, int tflags, const char *term, int len, int start, int end)
{
	struct ev_buf *b = &((struct ev_analyze_tape *)pctx)->b;
	size_t need = 1 + 3 * 5 + (size_t)len;	/* an int's varint: 5 bytes at most */
	unsigned char *p;

	/* written in place, room made once: the recording thread's hot path */
	if (len < 0 || start < 0 || end < 0 ||
	    (b->cap - b->len <= need && ev_buf_reserve(b, need) == -1))
		return SQLITE_NOMEM;
	p = (unsigned char *)b->p + b->len;
	*p++ = (unsigned char)tflags;
	p = ev_varint_put(p, (uint64_t)len);
	p = ev_varint_put(p, (uint64_t)start);
	p = ev_varint_put(p, (uint64_t)end);
	memcpy(p, term, (size_t)len);
	b->len = (size_t)(p + len - (unsigned char *)b->p);
	b->p[b->len] = '\0';
	return SQLITE_OK;
}

/* The cue whose text is text[0..n) and whose tokens an's analysis made, or
 * NULL: the one expected next first. */
static const struct ev_analyze_cue *
cued(struct ev_analyzer *an, const char *text, int n)
{
	for (size_t k = 0; k < an->ncues; k++) {
		size_t i = (an->next_cue + k) % an->ncues;
		const struct ev_analyze_cue *q = &an->cues[i];

		if (q->n == n && q->tape->lang == an->lang &&
		    (q->text == text || memcmp(q->text, text, (size_t)n) == 0)) {
			an->next_cue = i + 1;
			return q;
		}
	}
	return NULL;
}

/* Hand cue q's recorded tokens to cb, as tokenising its text would. */
static int
replay(const struct ev_analyze_cue *q, void *ctx, int (*cb)(void *, int, const char *, int, int, int))
{
	const unsigned char *p = (const unsigned char *)q->tape->b.p + q->at;
	const unsigned char *e = (const unsigned char *)q->tape->b.p + q->end;
	int rc = SQLITE_OK;

	while (p < e && rc == SQLITE_OK) {
		uint64_t len, start, end;
		int tflags = *p++;

		if (ev_varint_get(&p, e, &len) == -1 || ev_varint_get(&p, e, &start) == -1 ||
		    ev_varint_get(&p, e, &end) == -1 || len > (uint64_t)(e - p))
			return SQLITE_ERROR;	/* not a tape ev_analyze_record() wrote */
		rc = cb(ctx, tflags, (const char *)p, (int)len, (int)start, (int)end);
		p += len;
	}
	return rc;
}

/* What the call c gives each word of a spaced script in an index of
 * version 2 or more: a document, its stem in its language and the word
 * itself (from version 3, an English one its stem alone); a query, its
 * stem in the query's language (in each query language when that is not
 * known), from version 3 its English stem too when some of the store is
 * English and none of those is (unless EV_ANALYZE_OWN), and the word itself
 * unless every language of the store is one of those. */
static void
plan_words(struct call *c)
{
	struct ev_analyzer *an = c->an;
	const int *as = an->lq != A_NONE ? &an->lq : an->qa;
	const int *store = an->ns > 0 ? an->sa : an->qa;
	int na = an->lq != A_NONE ? 1 : an->nq, ns = an->ns > 0 ? an->ns : an->nq;
	int english = 0;

	c->nstems = 0;
	c->bare = 1;
	if (!c->query) {
		if (c->analysis != A_PLAIN)
			c->stems[c->nstems++] = c->analysis;
		c->bare = c->analysis != A_PORTER || an->index < 3;
		return;
	}
	c->bare = 0;
	for (int i = 0; i < na; i++)
		if (as[i] == A_PLAIN)
			c->bare = 1;
		else
			c->stems[c->nstems++] = as[i];
	for (int i = 0; i < ns && an->index >= 3 && !c->own; i++)
		english |= store[i] == A_PORTER;
	for (int i = 0; i < c->nstems; i++)
		english &= c->stems[i] != A_PORTER;
	if (english && c->nstems < EV_ANALYZE_MAX_QUERY_LANGS)
		c->stems[c->nstems++] = A_PORTER;	/* English text holds no word itself */
	for (int i = 0; i < ns && !c->bare; i++) {
		int stemmed = 0;

		for (int j = 0; j < c->nstems; j++)
			stemmed |= same_analysis(store[i], c->stems[j]);
		c->bare = !stemmed;
	}
	if (c->nstems == 0)
		c->bare = 1;
}

static int
x_create(void *udata, const char **args, int nargs, Fts5Tokenizer **out)
{
	(void)args;
	if (nargs != 0)
		return SQLITE_ERROR;	/* the tokeniser takes no options */
	*out = udata;
	return SQLITE_OK;
}

static void
x_delete(Fts5Tokenizer *tok)
{
	(void)tok;	/* the analyzer belongs to the connection */
}

static int
x_tokenize(Fts5Tokenizer *tok, void *ctx, int flags, const char *text, int n,
    int (*cb)(void *, int, const char *, int, int, int))
{
	struct call c = { .an = (struct ev_analyzer *)tok, .ctx = ctx, .cb = cb, .text = text };
	const struct ev_analyze_cue *q;
	int i, seg, rc = SQLITE_OK;

	if (flags == FTS5_TOKENIZE_DOCUMENT && (q = cued(c.an, text, n)) != NULL)
		return replay(q, ctx, cb);
	c.analysis = c.an->lang;
	c.query = (flags & FTS5_TOKENIZE_QUERY) != 0;
	c.terms = (flags & EV_ANALYZE_TERMS) != 0;
	c.own = (flags & EV_ANALYZE_OWN) != 0;
	c.plain = (flags & EV_ANALYZE_PLAIN) != 0 || c.an->index < 2;
	i = 0;
	if (n >= 2 && text[0] == EV_ANALYZE_TAG) {
		const char *close = memchr(text + 1, EV_ANALYZE_TAG,
		    (size_t)(n - 1 < EV_ANALYZE_CODE_MAX ? n - 1 : EV_ANALYZE_CODE_MAX));

		if (close != NULL) {
			c.analysis = analysis_of(text + 1, (size_t)(close - text - 1));
			i = (int)(close - text) + 1;
		}
	}
	if (!c.plain)
		plan_words(&c);
	seg = i;
	while (i < n && rc == SQLITE_OK) {
		int at = i, k;
		UChar32 cp;

		if ((unsigned char)text[i] < 0x80) {
			i++;
			continue;
		}
		U8_NEXT(text, i, n, cp);
		if (cp < 0 || (k = kind(cp)) == K_SPACED)
			continue;
		/* the run of kind k from at */
		int end = i;
		while (end < n) {
			int j = end;

			U8_NEXT(text, j, n, cp);
			if (cp < 0 || kind(cp) != k)
				break;
			end = j;
		}
		if (at > seg)
			rc = spaced_run(&c, seg, at);
		if (rc == SQLITE_OK)
			rc = unspaced_run(&c, at, end, k);
		seg = i = end;
	}
	if (rc == SQLITE_OK && n > seg)
		rc = spaced_run(&c, seg, n);
	return rc;
}

static void
destroy(void *p)
{
	struct ev_analyzer *an = p;

	if (an == NULL)
		return;
	if (an->t_porter != NULL)
		an->porter.xDelete(an->t_porter);
	if (an->t_raw != NULL)
		an->u61.xDelete(an->t_raw);
	if (an->t_fold != NULL)
		an->u61.xDelete(an->t_fold);
	for (int i = 0; i < NLANGS; i++)
		if (an->sb[i] != NULL)
			sb_stemmer_delete(an->sb[i]);
	if (an->brk != NULL)
		ubrk_close(an->brk);
	free(an->u16);
	free(an->u2c);
	free(an->cbyte);
	free(an->term);
	free(an->tagged);
	free(an);
}

fts5_api *
ev_analyze_fts5_api(sqlite3 *db)
{
	fts5_api *api = NULL;
	sqlite3_stmt *s = NULL;

	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_pointer(s, 1, (void *)&api, "fts5_api_ptr", NULL);
		sqlite3_step(s);
	}
	sqlite3_finalize(s);
	return api;
}

/* An analyzer of FTS5's porter and unicode61 (with their xCreate
 * arguments), English by default; NULL when out of memory. */
static struct ev_analyzer *
analyzer_new(const fts5_tokenizer *porter, void *porter_ud, const fts5_tokenizer *u61,
	void *u61_ud)
{
	static const char *porter_args[] = { "unicode61", "remove_diacritics", "2" };
	static const char *raw_args[] = { "remove_diacritics", "0" };
	static const char *fold_args[] = { "remove_diacritics", "2" };
	struct ev_analyzer *an = calloc(1, sizeof *an);

	if (an == NULL)
		return NULL;
	an->porter = *porter;
	an->porter_ud = porter_ud;
	an->u61 = *u61;
	an->u61_ud = u61_ud;
	an->lang = A_PORTER;
	an->qa[an->nq++] = A_PORTER;
	an->lq = A_NONE;
	an->index = EV_ANALYZE_INDEX_VERSION;
	if (an->porter.xCreate(porter_ud, porter_args, 3, &an->t_porter) != SQLITE_OK ||
	    an->u61.xCreate(u61_ud, raw_args, 2, &an->t_raw) != SQLITE_OK ||
	    an->u61.xCreate(u61_ud, fold_args, 2, &an->t_fold) != SQLITE_OK) {
		destroy(an);
		return NULL;
	}
	return an;
}

struct ev_analyzer *
ev_analyze_register(sqlite3 *db, struct ev_err *err)
{
	static const fts5_tokenizer evkit = { x_create, x_delete, x_tokenize };
	fts5_tokenizer porter, u61;
	void *porter_ud = NULL, *u61_ud = NULL;
	struct ev_analyzer *an;
	fts5_api *api;

	if ((api = ev_analyze_fts5_api(db)) == NULL || api->iVersion < 2) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "this SQLite has no FTS5; install libsqlite3 with FTS5");
		return NULL;
	}
	if (api->xFindTokenizer(api, "porter", &porter_ud, &porter) != SQLITE_OK ||
	    api->xFindTokenizer(api, "unicode61", &u61_ud, &u61) != SQLITE_OK ||
	    (an = analyzer_new(&porter, porter_ud, &u61, u61_ud)) == NULL) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot create FTS5's unicode61 and porter tokenisers");
		return NULL;
	}
	if (api->xCreateTokenizer(api, EV_ANALYZE_TOKENIZER, an, (fts5_tokenizer *)&evkit, destroy) !=
	    SQLITE_OK) {
		destroy(an);
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot register the evkit tokeniser");
		return NULL;
	}
	return an;
}

struct ev_analyzer *
ev_analyze_clone(const struct ev_analyzer *an)
{
	struct ev_analyzer *c = analyzer_new(&an->porter, an->porter_ud, &an->u61, an->u61_ud);

	if (c == NULL)
		return NULL;
	c->lang = an->lang;
	memcpy(c->qa, an->qa, sizeof c->qa);
	c->nq = an->nq;
	memcpy(c->sa, an->sa, sizeof c->sa);
	c->ns = an->ns;
	c->lq = an->lq;
	c->index = an->index;
	return c;
}

void
ev_analyze_free(struct ev_analyzer *an)
{
	destroy(an);
}

int
ev_analyze_record(struct ev_analyzer *an, const char *text, int n, struct ev_analyze_tape *tape)
{
	size_t len = tape->b.len;

	tape->lang = an->lang;
	if (x_tokenize((Fts5Tokenizer *)an, tape, FTS5_TOKENIZE_DOCUMENT, text, n,
	    record_token) != SQLITE_OK) {
		tape->b.len = len;
		return -1;
	}
	return 0;
}

void
ev_analyze_expect(struct ev_analyzer *an, const struct ev_analyze_cue *cues, size_t n)
{
	an->cues = cues;
	an->ncues = n;
	an->next_cue = 0;
}

struct ev_analyzer *
ev_analyze_find(sqlite3 *db)
{
	fts5_api *api = ev_analyze_fts5_api(db);
	fts5_tokenizer t;
	void *ud = NULL;

	if (api == NULL || api->xFindTokenizer(api, EV_ANALYZE_TOKENIZER, &ud, &t) != SQLITE_OK ||
	    t.xTokenize != x_tokenize)
		return NULL;
	return ud;
}
