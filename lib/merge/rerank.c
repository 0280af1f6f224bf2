/* rerank.c: a linear model over lane and store features, and the writing
 * of reranked hits.  See rerank.h. */
#include "rerank.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"
#include "snippet.h"
#include "token.h"

#define MAX_TERMS	EV_RERANK_MAX_TERMS
#define BM25_K1		1.2
#define BM25_B		0.75

const char *const ev_rerank_feature_names[EV_RF_COUNT] = {
	"incoming", "bm25", "doc_bm25", "ordered", "unordered", "passage", "title", "section",
	"coverage", "vector", "text_rank", "vector_rank", "length", "position"
};

/* The shipped weights, chosen on Cranfield, MED, CACM and NPL at once: of a
 * grid over coverage, title, unordered and passage on top of the default
 * hybrid's order, the point whose smallest gain over the four is largest
 * (no collection lower), then the best mean (ev-rerank(1)). */
static const double default_w[EV_RF_COUNT] = {
	[EV_RF_INCOMING] = 1.0,
	[EV_RF_TITLE] = 0.02,
	[EV_RF_COVERAGE] = 0.05,
};

void
ev_rerank_opts_init(struct ev_rerank_opts *o)
{
	o->top_n = EV_PLAN_DEFAULT(EV_PLAN_RERANK_TOP_N);
	o->k = EV_PLAN_DEFAULT(EV_PLAN_RERANK_K);
	o->window = EV_PLAN_DEFAULT(EV_PLAN_RERANK_WINDOW);
	o->passage = EV_PLAN_DEFAULT(EV_PLAN_RERANK_PASSAGE);
	memcpy(o->w, default_w, sizeof o->w);
}

int
ev_rerank_feature_index(const char *name, size_t len)
{
	int i;

	for (i = 0; i < EV_RF_COUNT; i++)
		if (strlen(ev_rerank_feature_names[i]) == len &&
		    memcmp(ev_rerank_feature_names[i], name, len) == 0)
			return i;
	return -1;
}

double
ev_rerank_combine(const double *w, const double *f)
{
	double s = 0;
	int i;

	for (i = 0; i < EV_RF_COUNT; i++)
		s += w[i] * f[i];
	return s;
}

/* A document's length and the counts of the query's words in it, kept for
 * the query being reranked. */
struct doc {
	char *id;
	double len;
	int tf[MAX_TERMS];
};

struct ev_rerank {
	struct ev_store *st;
	struct ev_rerank_opts o;
	struct ev_tok *tok;
	json_t *info;
	int have_stats;
	double nchunks, avg_chunk, avg_doc;
	/* the query */
	const char *query;
	char *terms[MAX_TERMS];
	int term_len[MAX_TERMS];
	double idf[MAX_TERMS];
	int nterms;
	int cut;		/* the query had more words than MAX_TERMS */
	long long ncut;		/* queries cut so */
	long long ntextless;	/* queries whose hits gave no query text */
	/* the text being read */
	int *toks;
	size_t ntoks, captoks;
	int tf[MAX_TERMS];
	double len;
	unsigned seen;		/* which field is being read, for field matches */
	unsigned char in_title[MAX_TERMS], in_section[MAX_TERMS];
	struct doc *docs;
	size_t ndocs, capdocs;
	struct ev_err *err;	/* where a callback reports */
};

enum { FIELD_TITLE = 1, FIELD_SECTION = 2, FIELD_TEXT = 3 };

static json_t *
config_json(const struct ev_rerank_opts *o)
{
	json_t *w = json_object(), *c;
	int i;

	for (i = 0; w != NULL && i < EV_RF_COUNT; i++)
		if (json_object_set_new(w, ev_rerank_feature_names[i], json_real(o->w[i])) == -1) {
			json_decref(w);
			return NULL;
		}
	if (w == NULL)
		return NULL;
	c = json_pack("{s:o,s:I,s:I}", "weights", w, "window", (json_int_t)o->window,
	    "passage", (json_int_t)o->passage);
	return c;
}

static json_t *
info_json(const char *model, json_t *config, long top_n)
{
	if (config == NULL)
		return NULL;
	return json_pack("{s:s,s:o,s:I}", "model", model, "config", config, "top_n",
	    (json_int_t)top_n);
}

struct ev_rerank *
ev_rerank_open(struct ev_store *st, const struct ev_rerank_opts *o, struct ev_err *err)
{
	struct ev_rerank *rr = calloc(1, sizeof *rr);

	if (rr == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	rr->st = st;
	rr->o = *o;
	if ((rr->info = info_json(EV_RERANK_MODEL, config_json(o), o->top_n)) == NULL) {
		ev_err_nomem(err);
		goto fail;
	}
	if (st != NULL && (rr->tok = ev_tok_open(ev_store_db(st), err)) == NULL)
		goto fail;
	return rr;
fail:
	ev_rerank_close(rr);
	return NULL;
}

static void
clear_query(struct ev_rerank *rr)
{
	size_t i;

	for (i = 0; i < (size_t)rr->nterms; i++)
		free(rr->terms[i]);
	rr->nterms = 0;
	for (i = 0; i < rr->ndocs; i++)
		free(rr->docs[i].id);
	rr->ndocs = 0;
}

void
ev_rerank_close(struct ev_rerank *rr)
{
	if (rr == NULL)
		return;
	clear_query(rr);
	free(rr->docs);
	free(rr->toks);
	ev_tok_close(rr->tok);
	json_decref(rr->info);
	free(rr);
}

long long
ev_rerank_queries_cut(const struct ev_rerank *rr)
{
	return rr != NULL ? rr->ncut : 0;
}

long long
ev_rerank_queries_textless(const struct ev_rerank *rr)
{
	return rr != NULL ? rr->ntextless : 0;
}

json_t *
ev_rerank_info(const struct ev_rerank *rr)
{
	return rr->info;
}

int
ev_rerank_set_command(struct ev_rerank *rr, json_t *config, struct ev_err *err)
{
	json_t *info = info_json("command", config, rr->o.top_n);

	if (info == NULL)
		return ev_err_nomem(err);
	json_decref(rr->info);
	rr->info = info;
	return 0;
}

/* ---------------------------------------------------------------- maths */

double
ev_rerank_pairs(const int *toks, size_t n, const double *idf, int nterms, long window)
{
	double sum = 0;
	int t;

	for (t = 0; t + 1 < nterms; t++) {
		long count = 0;
		size_t i, j, lo, hi;

		for (i = 0; i < n; i++) {
			if (toks[i] != t)
				continue;
			if (window <= 0) {
				count += i + 1 < n && toks[i + 1] == t + 1;
				continue;
			}
			lo = i >= (size_t)window - 1 ? i - ((size_t)window - 1) : 0;
			hi = i + (size_t)window - 1 < n ? i + (size_t)window - 1 : n - 1;
			for (j = lo; j <= hi; j++)
				if (toks[j] == t + 1) {
					count++;
					break;
				}
		}
		if (count > 0)
			sum += log(1.0 + (double)count) * (idf[t] + idf[t + 1]) / 2;
	}
	return sum;
}

double
ev_rerank_passage(const int *toks, size_t n, const double *idf, int nterms, long passage)
{
	int in[MAX_TERMS] = { 0 };
	double total = 0, cur = 0, best = 0;
	size_t lo = 0, hi;
	int t;

	for (t = 0; t < nterms && t < MAX_TERMS; t++)
		total += idf[t];
	if (total <= 0)
		return 0;
	/* the window [lo, hi] slides over the tokens, at most passage long */
	for (hi = 0; hi < n; hi++) {
		if (hi - lo + 1 > (size_t)passage) {
			if (toks[lo] >= 0 && --in[toks[lo]] == 0)
				cur -= idf[toks[lo]];
			lo++;
		}
		if (toks[hi] >= 0 && toks[hi] < MAX_TERMS && in[toks[hi]]++ == 0)
			cur += idf[toks[hi]];
		if (cur > best)
			best = cur;
	}
	return best / total;
}

double
ev_rerank_bm25(const int *tf, const double *idf, int nterms, double len, double avglen)
{
	double s = 0, norm = BM25_K1 * (1 - BM25_B + BM25_B * (avglen > 0 ? len / avglen : 1));
	int t;

	for (t = 0; t < nterms; t++)
		if (tf[t] > 0)
			s += idf[t] * tf[t] * (BM25_K1 + 1) / (tf[t] + norm);
	return s;
}

/* ---------------------------------------------------------------- the store */

/* The store's chunk and document counts and mean lengths, read once. */
static int
load_stats(struct ev_rerank *rr, struct ev_err *err)
{
	sqlite3_stmt *s;
	double total = 0, ndocs = 0;

	if (rr->have_stats)
		return 0;
	if ((s = ev_store_prepare(rr->st, "SELECT count(*), count(DISTINCT doc_id) FROM chunks",
	    err)) == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_ROW)
		return ev_store_error(rr->st, "counting the chunks", err);
	rr->nchunks = (double)sqlite3_column_int64(s, 0);
	ndocs = (double)sqlite3_column_int64(s, 1);
	sqlite3_reset(s);
	/* (every token has one stem: the words themselves beside them left out) */
	if ((s = ev_store_prepare(rr->st, "SELECT sum(cnt) FROM (" EV_STORE_STEMS_SQL ")",
	    err)) == NULL)
		return -1;
	if (sqlite3_step(s) != SQLITE_ROW)
		return ev_store_error(rr->st, "reading the vocabulary", err);
	total = sqlite3_column_double(s, 0);
	sqlite3_reset(s);
	rr->avg_chunk = rr->nchunks > 0 ? total / rr->nchunks : 0;
	rr->avg_doc = ndocs > 0 ? total / ndocs : 0;
	rr->have_stats = 1;
	return 0;
}

static int
term_of(const struct ev_rerank *rr, const char *term, int len)
{
	int t;

	for (t = 0; t < rr->nterms; t++)
		if (rr->term_len[t] == len && memcmp(rr->terms[t], term, (size_t)len) == 0)
			return t;
	return -1;
}

static int
on_query_token(void *ctx, const char *term, int len, int start, int end)
{
	struct ev_rerank *rr = ctx;
	char *s;

	if (term_of(rr, term, len) >= 0 ||
	    ev_snippet_is_stop(rr->tok, term, len, rr->query + start, end - start))
		return 0;
	if (rr->nterms == MAX_TERMS) {
		rr->cut = 1;
		return 0;
	}
	if ((s = malloc((size_t)len + 1)) == NULL) {
		ev_err_nomem(rr->err);
		return 1;
	}
	memcpy(s, term, (size_t)len);
	s[len] = '\0';
	rr->terms[rr->nterms] = s;
	rr->term_len[rr->nterms++] = len;
	return 0;
}

/* The query's words, and their idf. */
static int
read_query(struct ev_rerank *rr, const char *query, struct ev_err *err)
{
	sqlite3_stmt *s;
	int t;

	clear_query(rr);
	rr->query = query;
	rr->err = err;
	rr->cut = 0;
	err->code = 0;
	if (ev_tok_run(rr->tok, query, strlen(query), on_query_token, rr, err) == -1 || err->code)
		return -1;
	rr->ncut += rr->cut;
	if (load_stats(rr, err) == -1)
		return -1;
	for (t = 0; t < rr->nterms; t++) {
		double df = 0;

		if ((s = ev_store_prepare_stem_df(rr->st, err)) == NULL)
			return -1;
		sqlite3_bind_text(s, 1, rr->terms[t], rr->term_len[t], SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_ROW)
			df = sqlite3_column_double(s, 0);
		sqlite3_reset(s);
		rr->idf[t] = log(1 + (rr->nchunks - df + 0.5) / (df + 0.5));
	}
	return 0;
}

int
ev_rerank_query_terms(struct ev_rerank *rr, const char *query, struct ev_buf *out,
    struct ev_err *err)
{
	int t;

	if (read_query(rr, query, err) == -1)
		return -1;
	for (t = 0; t < rr->nterms; t++)
		if (ev_buf_add(out, rr->terms[t], (size_t)rr->term_len[t] + 1) == -1)
			return ev_err_nomem(err);
	return rr->nterms;
}

static int
on_token(void *ctx, const char *term, int len, int start, int end)
{
	struct ev_rerank *rr = ctx;
	int t = term_of(rr, term, len);

	(void)start;
	(void)end;
	if (ev_grow(&rr->toks, &rr->captoks, rr->ntoks, sizeof *rr->toks, 256) == -1) {
		ev_err_nomem(rr->err);
		return 1;
	}
	rr->toks[rr->ntoks++] = t;
	rr->len++;
	if (t >= 0) {
		rr->tf[t]++;
		if (rr->seen == FIELD_TITLE)
			rr->in_title[t] = 1;
		else if (rr->seen == FIELD_SECTION)
			rr->in_section[t] = 1;
	}
	return 0;
}

/* Tokenise a column's text onto rr->toks, after a gap that no window spans. */
static int
read_field(struct ev_rerank *rr, sqlite3_stmt *s, int col, unsigned field, struct ev_err *err)
{
	const char *text = (const char *)sqlite3_column_text(s, col);
	long gap;

	if (text == NULL || *text == '\0')
		return 0;
	for (gap = 0; rr->ntoks > 0 && gap < rr->o.window + 1; gap++) {
		if (ev_grow(&rr->toks, &rr->captoks, rr->ntoks, sizeof *rr->toks, 256) == -1)
			return ev_err_nomem(err);
		rr->toks[rr->ntoks++] = -1;
	}
	rr->seen = field;
	rr->err = err;
	err->code = 0;
	if (ev_tok_run(rr->tok, text, strlen(text), on_token, rr, err) == -1 || err->code)
		return -1;
	return 0;
}

static void
start_text(struct ev_rerank *rr)
{
	rr->ntoks = 0;
	rr->len = 0;
	memset(rr->tf, 0, sizeof rr->tf);
	memset(rr->in_title, 0, sizeof rr->in_title);
	memset(rr->in_section, 0, sizeof rr->in_section);
}

/* The share of the query's idf whose words are flagged in in[]. */
static double
share(const struct ev_rerank *rr, const unsigned char *in, const int *tf)
{
	double total = 0, found = 0;
	int t;

	for (t = 0; t < rr->nterms; t++) {
		total += rr->idf[t];
		if ((in != NULL && in[t]) || (tf != NULL && tf[t] > 0))
			found += rr->idf[t];
	}
	return total > 0 ? found / total : 0;
}

/* The document's length and counts of the query's words (cached for the
 * query): its chunks' titles (once), section titles and texts; for a
 * document of one chunk, the chunk's just read (rr->len, rr->tf). */
static const struct doc *
read_doc(struct ev_rerank *rr, const char *doc_id, struct ev_err *err)
{
	sqlite3_stmt *s;
	struct doc *d;
	size_t i;
	int r, first = 1;

	for (i = 0; i < rr->ndocs; i++)
		if (strcmp(rr->docs[i].id, doc_id) == 0)
			return &rr->docs[i];
	if (ev_grow(&rr->docs, &rr->capdocs, rr->ndocs, sizeof *rr->docs, 64) == -1) {
		ev_err_nomem(err);
		return NULL;
	}
	d = &rr->docs[rr->ndocs];
	memset(d, 0, sizeof *d);
	if ((d->id = strdup(doc_id)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	rr->ndocs++;
	/* a document of one chunk is that chunk, whose counts are at hand */
	if ((s = ev_store_prepare(rr->st, "SELECT count(*) FROM chunks WHERE doc_id = ?",
	    err)) == NULL)
		return NULL;
	sqlite3_bind_text(s, 1, doc_id, -1, SQLITE_STATIC);
	r = sqlite3_step(s);
	first = r == SQLITE_ROW && sqlite3_column_int64(s, 0) == 1;
	sqlite3_reset(s);
	if (r != SQLITE_ROW) {
		ev_store_error(rr->st, "counting a document's chunks", err);
		return NULL;
	}
	if (first) {
		d->len = rr->len;
		memcpy(d->tf, rr->tf, sizeof d->tf);
		return d;
	}
	first = 1;
	if ((s = ev_store_prepare(rr->st, "SELECT title, section_title, text FROM chunks "
	    "WHERE doc_id = ? ORDER BY chunk_index", err)) == NULL)
		return NULL;
	sqlite3_bind_text(s, 1, doc_id, -1, SQLITE_STATIC);
	start_text(rr);
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		if ((first && read_field(rr, s, 0, FIELD_TITLE, err) == -1) ||
		    read_field(rr, s, 1, FIELD_SECTION, err) == -1 ||
		    read_field(rr, s, 2, FIELD_TEXT, err) == -1) {
			sqlite3_reset(s);
			return NULL;
		}
		first = 0;
		rr->ntoks = 0;	/* only the counts are kept */
	}
	sqlite3_reset(s);
	if (r != SQLITE_DONE) {
		ev_store_error(rr->st, "reading a document's chunks", err);
		return NULL;
	}
	d->len = rr->len;
	memcpy(d->tf, rr->tf, sizeof d->tf);
	return d;
}

/* A lane's rank (0: not found) and score (NAN: not known) for a hit. */
static void
lane_of(const json_t *hit, const char *lane, long long *rank, double *score)
{
	const json_t *lanes = json_object_get(json_object_get(hit, "explain"), "lanes"), *x;
	const json_t *sig = json_object_get(hit, "signals"), *ev = json_object_get(hit, "evidence");
	const char *own = json_string_value(json_object_get(hit, "lane"));
	int text = strcmp(lane, "text") == 0;
	size_t i;

	*rank = 0;
	*score = NAN;
	json_array_foreach(lanes, i, x) {
		const char *name = json_string_value(json_object_get(x, "lane"));

		if (name == NULL || strcmp(name, lane) != 0 ||
		    json_is_false(json_object_get(x, "found")))
			continue;
		if (json_is_integer(json_object_get(x, "rank")))
			*rank = json_integer_value(json_object_get(x, "rank"));
		if (json_is_number(json_object_get(x, "score")))
			*score = json_number_value(json_object_get(x, "score"));
		return;
	}
	if (json_is_object(sig)) {
		x = json_object_get(sig, text ? "fts_rank" : "vector_rank");
		if (json_is_integer(x))
			*rank = json_integer_value(x);
		x = json_object_get(sig, text ? "fts_score" : "vector_score");
		if (json_is_number(x))
			*score = json_number_value(x);
		if (*rank > 0)
			return;
	}
	if (own != NULL && strcmp(own, lane) == 0) {
		x = json_object_get(hit, "rank");
		if (json_is_integer(x))
			*rank = json_integer_value(x);
		*score = json_number_value(json_object_get(hit, "score"));
		return;
	}
	json_array_foreach(ev, i, x) {
		const char *name = json_string_value(json_object_get(x, "lane"));

		if (name != NULL && strcmp(name, lane) == 0 &&
		    json_is_number(json_object_get(x, "score"))) {
			*score = json_number_value(json_object_get(x, "score"));
			return;
		}
	}
}

static double
rank_feature(long long rank)
{
	return rank > 0 ? 1 / log2(1 + (double)rank) : 0;
}

/* The store's features of one hit into f; 0 when its chunk is not there. */
static int
store_features(struct ev_rerank *rr, const json_t *hit, double *f, long *missing,
    struct ev_err *err)
{
	sqlite3_stmt *s;
	const struct doc *d;
	char *doc_id;
	int r;

	if ((s = ev_store_prepare(rr->st, "SELECT doc_id, (SELECT count(*) FROM chunks b "
	    "WHERE b.doc_id = a.doc_id AND b.offset_start < a.offset_start), title, section_title, "
	    "text FROM chunks a WHERE id = ?", err)) == NULL)
		return -1;
	sqlite3_bind_text(s, 1, json_string_value(json_object_get(hit, "id")), -1, SQLITE_STATIC);
	if ((r = sqlite3_step(s)) != SQLITE_ROW) {
		sqlite3_reset(s);
		if (r != SQLITE_DONE)
			return ev_store_error(rr->st, "reading a chunk", err);
		(*missing)++;
		return 0;
	}
	start_text(rr);
	if (read_field(rr, s, 2, FIELD_TITLE, err) == -1 ||
	    read_field(rr, s, 3, FIELD_SECTION, err) == -1 ||
	    read_field(rr, s, 4, FIELD_TEXT, err) == -1) {
		sqlite3_reset(s);
		return -1;
	}
	/* the chunks of its document before it */
	f[EV_RF_POSITION] = 1 / (1 + (double)sqlite3_column_int64(s, 1));
	doc_id = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	if (doc_id == NULL)
		return ev_err_nomem(err);
	f[EV_RF_BM25] = ev_rerank_bm25(rr->tf, rr->idf, rr->nterms, rr->len, rr->avg_chunk);
	f[EV_RF_ORDERED] = ev_rerank_pairs(rr->toks, rr->ntoks, rr->idf, rr->nterms, 0);
	f[EV_RF_UNORDERED] = ev_rerank_pairs(rr->toks, rr->ntoks, rr->idf, rr->nterms,
	    rr->o.window);
	f[EV_RF_PASSAGE] = ev_rerank_passage(rr->toks, rr->ntoks, rr->idf, rr->nterms,
	    rr->o.passage);
	f[EV_RF_TITLE] = share(rr, rr->in_title, NULL);
	f[EV_RF_SECTION] = share(rr, rr->in_section, NULL);
	f[EV_RF_COVERAGE] = share(rr, NULL, rr->tf);
	f[EV_RF_LENGTH] = log(1 + rr->len);
	d = read_doc(rr, doc_id, err);
	free(doc_id);
	if (d == NULL)
		return -1;
	f[EV_RF_DOC_BM25] = ev_rerank_bm25(d->tf, rr->idf, rr->nterms, d->len, rr->avg_doc);
	return 0;
}

/* Scale feature j of f[0..n) into [0, 1]: min-max (minmax) or by the
 * largest (else). */
static void
scale(double *f, size_t n, int j, int minmax)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < n; i++) {
		double v = f[i * EV_RF_COUNT + j];

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (!minmax)
		lo = lo < 0 ? lo : 0;
	for (i = 0; i < n; i++) {
		double *v = &f[i * EV_RF_COUNT + j];

		/* halved first, so that a range wider than DBL_MAX stays finite */
		*v = hi > lo ? (*v / 2 - lo / 2) / (hi / 2 - lo / 2) : (hi > 0 ? 1 : 0);
		if (!isfinite(*v))
			*v = 0;
	}
}

int
ev_rerank_features(struct ev_rerank *rr, json_t *hits, size_t n, double *f, long *missing,
    struct ev_err *err)
{
	const char *query = NULL;
	size_t i;
	int j;

	if (n > json_array_size(hits))
		n = json_array_size(hits);
	memset(f, 0, n * EV_RF_COUNT * sizeof *f);
	if (n == 0)
		return 0;
	/* the query's text: of the first hit that gives one (ev_cli_query_hits()
	 * holds every hit that does to the same) */
	for (i = 0; query == NULL && i < json_array_size(hits); i++)
		query = json_string_value(json_object_get(json_array_get(hits, i), "query"));
	rr->ntextless += query == NULL;
	if (rr->st != NULL && read_query(rr, query != NULL ? query : "", err) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		const json_t *h = json_array_get(hits, i);
		double *fi = f + i * EV_RF_COUNT, vs;
		long long rank;

		fi[EV_RF_INCOMING] = json_number_value(json_object_get(h, "score"));
		lane_of(h, "text", &rank, &vs);
		fi[EV_RF_TEXT_RANK] = rank_feature(rank);
		lane_of(h, "vector", &rank, &vs);
		fi[EV_RF_VECTOR_RANK] = rank_feature(rank);
		fi[EV_RF_VECTOR] = isfinite(vs) ? vs : 0;
		if (rr->st != NULL && rr->nterms > 0 && store_features(rr, h, fi, missing, err) == -1)
			return -1;
	}
	scale(f, n, EV_RF_INCOMING, 1);
	for (j = 0; j < EV_RF_COUNT; j++)
		if (j == EV_RF_BM25 || j == EV_RF_DOC_BM25 || j == EV_RF_ORDERED ||
		    j == EV_RF_UNORDERED || j == EV_RF_VECTOR || j == EV_RF_LENGTH)
			scale(f, n, j, 0);
	return 0;
}

/* ---------------------------------------------------------------- ordering */

struct cand {
	json_t *hit;
	const char *id;
	double score;
	long order;
	long long rank;
};

static int
incoming_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static int
score_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->id, y->id);
}

int
ev_rerank_incoming(json_t *hits, struct ev_err *err)
{
	size_t i, n = json_array_size(hits);
	struct cand *c = calloc(n ? n : 1, sizeof *c);
	int r = 0;

	if (c == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < n; i++) {
		const json_t *rk = json_object_get(json_array_get(hits, i), "rank");

		c[i].hit = json_incref(json_array_get(hits, i));
		c[i].order = (long)i;
		c[i].rank = json_is_integer(rk) ? json_integer_value(rk) : LLONG_MAX;
	}
	qsort(c, n, sizeof *c, incoming_cmp);
	for (i = 0; i < n; i++)
		if (json_array_set_new(hits, i, c[i].hit) == -1)
			r = ev_err_nomem(err);
	free(c);
	return r;
}

/* Set an object member of the hit's explain (made when missing). */
static int
set_explain(json_t *hit, json_t *what)
{
	json_t *ex = json_object_get(hit, "explain");

	if (what == NULL)
		return -1;
	if (!json_is_object(ex)) {
		if ((ex = json_object()) == NULL || json_object_set_new(hit, "explain", ex) == -1) {
			json_decref(what);
			return -1;
		}
	}
	return json_object_set_new(ex, "rerank", what);
}

/* Write the hits c[0..n) in their order, ranks from 1, at most k. */
static int
write_hits(struct ev_rerank *rr, struct cand *c, size_t n, struct ev_buf *out,
    struct ev_err *err)
{
	size_t i;

	for (i = 0; i < n && (rr->o.k == 0 || (long)i < rr->o.k); i++) {
		json_t *h = c[i].hit;

		if (json_object_set_new(h, "rank", json_integer((json_int_t)i + 1)) == -1 ||
		    json_object_set_new(h, "score", json_real(c[i].score)) == -1 ||
		    json_object_set(h, "rerank", rr->info) == -1 ||
		    ev_json_dump(out, h) == -1 || ev_buf_addc(out, '\n') == -1)
			return ev_err_nomem(err);
	}
	return 0;
}

/* The distance below lo, the lowest reranked score, of the first of ntail
 * hits past the top, which fall evenly from lo - gap to lo - 2 gap: 1, or
 * more when lo is so large that steps of 1 / ntail would be lost, in the
 * double or in the ten significant digits a score is written with (a tail
 * of equal scores, or one equal to a reranked hit's, would contradict the
 * ranks). */
static double
tail_gap(double lo, size_t ntail)
{
	double gap = 1e-8 * fabs(lo) * (double)ntail;

	return gap > 1 ? gap : 1;
}

/* The candidates of hits, in incoming order, with their incoming figures
 * in explain.rerank: the first n as reranked (scores[i], and with f the
 * features), the rest below them. */
static struct cand *
candidates(struct ev_rerank *rr, json_t *hits, size_t n, const double *scores, const double *f,
    struct ev_err *err)
{
	size_t i, j, all = json_array_size(hits);
	struct cand *c = calloc(all ? all : 1, sizeof *c);
	double lo = n > 0 ? INFINITY : 0, gap;

	if (c == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	for (i = 0; i < n; i++)
		lo = scores[i] < lo ? scores[i] : lo;
	gap = tail_gap(lo, all - n);
	for (i = 0; i < all; i++) {
		json_t *h = json_array_get(hits, i), *ex, *rk = json_object_get(h, "rank");
		json_int_t inrank = json_is_integer(rk) ? json_integer_value(rk) : (json_int_t)i + 1;
		double inscore = json_number_value(json_object_get(h, "score"));

		c[i].hit = h;
		c[i].id = json_string_value(json_object_get(h, "id"));
		c[i].order = (long)i;
		if (i < n) {
			c[i].score = scores[i];
			ex = json_pack("{s:I,s:f,s:f}", "incoming_rank", inrank, "incoming_score",
			    inscore, "score", scores[i]);
			if (ex != NULL && f != NULL) {
				json_t *fv = json_object(), *cv = json_object();

				if (json_object_set_new(ex, "features", fv) == -1 ||
				    json_object_set_new(ex, "contributions", cv) == -1)
					fv = cv = NULL;
				for (j = 0; fv != NULL && cv != NULL && j < EV_RF_COUNT; j++) {
					double v = f[i * EV_RF_COUNT + j];

					if (json_object_set_new(fv, ev_rerank_feature_names[j],
					    json_real(v)) == -1 || (rr->o.w[j] != 0 &&
					    json_object_set_new(cv, ev_rerank_feature_names[j],
					    json_real(rr->o.w[j] * v)) == -1))
						fv = NULL;
				}
				if (fv == NULL || cv == NULL) {
					json_decref(ex);
					ex = NULL;
				}
			}
		} else {
			/* below every reranked hit, falling with the incoming rank */
			c[i].score = lo - gap - gap * (double)(i - n) / (double)(all - n);
			if (!isfinite(c[i].score))
				c[i].score = -DBL_MAX;
			ex = json_pack("{s:b,s:I,s:f}", "reranked", 0, "incoming_rank", inrank,
			    "incoming_score", inscore);
		}
		if (set_explain(h, ex) == -1) {
			free(c);
			ev_err_nomem(err);
			return NULL;
		}
	}
	return c;
}

int
ev_rerank_query(struct ev_rerank *rr, json_t *hits, long *missing, struct ev_buf *out,
    struct ev_err *err)
{
	size_t i, n = json_array_size(hits);
	double *f, *scores;
	struct cand *c = NULL;
	int r = -1;

	if (n > (size_t)rr->o.top_n)
		n = (size_t)rr->o.top_n;
	f = malloc((n ? n : 1) * EV_RF_COUNT * sizeof *f);
	scores = malloc((n ? n : 1) * sizeof *scores);
	if (f == NULL || scores == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	if (ev_rerank_features(rr, hits, n, f, missing, err) == -1)
		goto out;
	for (i = 0; i < n; i++)
		scores[i] = ev_rerank_combine(rr->o.w, f + i * EV_RF_COUNT);
	if ((c = candidates(rr, hits, n, scores, f, err)) == NULL)
		goto out;
	qsort(c, n, sizeof *c, score_cmp);
	r = write_hits(rr, c, json_array_size(hits), out, err);
out:
	free(c);
	free(f);
	free(scores);
	return r;
}

int
ev_rerank_apply(struct ev_rerank *rr, json_t *hits, size_t n, const double *scores,
    const char *warning, struct ev_buf *out, struct ev_err *err)
{
	size_t i, all = json_array_size(hits);
	struct cand *c = NULL;
	int r = -1;

	if (n > all)
		n = all;
	if (scores != NULL) {
		if ((c = candidates(rr, hits, n, scores, NULL, err)) == NULL)
			return -1;
		qsort(c, n, sizeof *c, score_cmp);
		r = write_hits(rr, c, all, out, err);
		free(c);
		return r;
	}
	/* the incoming order, and the incoming scores made to fall with it, and why */
	if ((c = candidates(rr, hits, 0, NULL, NULL, err)) == NULL)
		return -1;
	for (i = 0; i < all; i++) {
		json_t *h = c[i].hit, *w = json_object_get(h, "warnings");

		c[i].score = json_number_value(json_object_get(h, "score"));
		if (i > 0 && c[i].score > c[i - 1].score)
			c[i].score = c[i - 1].score;
		if (warning != NULL) {
			if (!json_is_array(w) && (json_object_set_new(h, "warnings",
			    w = json_array()) == -1 || w == NULL))
				goto nomem;
			if (json_array_append_new(w, json_string(warning)) == -1)
				goto nomem;
		}
	}
	r = write_hits(rr, c, all, out, err);
	free(c);
	return r;
nomem:
	free(c);
	return ev_err_nomem(err);
}
