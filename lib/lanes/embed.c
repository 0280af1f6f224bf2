/* embed.c: latent semantic analysis, trained on the store's chunks and kept
 * in it.  See embed.h. */
#include "embed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include "analyze.h"
#include "buf.h"
#include "jsonl.h"
#include "sha256.h"
#include "strmap.h"
#include "svd.h"
#include "token.h"
#include "vload.h"

#define MAX_TERM_LEN 64		/* longer tokens (hashes, junk) are not words */
#define CACHE_MAX_TERMS 2000000	/* the embedding cache is emptied beyond this */
#define MODEL_VERSION 1
#define MAX_LANGS 64		/* distinct chunk languages counted in training */

/* ---- interned terms ---------------------------------------------------- */

/* Terms, each numbered in order of first sight: a struct ev_strmap. */

static const char *
dict_term(const struct ev_strmap *d, uint32_t id)
{
	return ev_strmap_key(d, (int32_t)id);
}

/* The number of term s[0..n), added when add is set.  Returns the number,
 * -1 when absent and not added, -2 when memory runs out. */
static int32_t
dict_find(struct ev_strmap *d, const char *s, int n, int add)
{
	int32_t id;

	if (!add)
		return ev_strmap_find(d, s, (size_t)n);
	return (id = ev_strmap_add(d, s, (size_t)n, NULL)) == -1 ? -2 : id;
}

/* ---- tokens of a text --------------------------------------------------- */

/* A growable list of term numbers, and after counting, (term, tf) pairs. */
struct termlist {
	int32_t *id;
	size_t n, cap;
};

/* A token of a text tokenised in several languages: the same word gives a
 * term for each, kept once when two languages stem it alike. */
struct tokpos {
	int32_t id;
	int text, start, end;
};

struct tok_ctx {
	struct ev_tok *tok;
	struct ev_strmap *dict;
	struct termlist *out;
	struct tokpos *pos;	/* with several languages: each token's place */
	size_t npos, poscap;
	int text;
	int several;
	int nomem;
};

static int
on_token(void *arg, const char *term, int len, int start, int end)
{
	struct tok_ctx *c = arg;
	int32_t id;

	if (len <= 0 || len > MAX_TERM_LEN || ev_tok_is_stop(c->tok, term, len))
		return 0;
	if ((id = dict_find(c->dict, term, len, 1)) == -2)
		goto nomem;
	if (c->several) {
		if (ev_grow(&c->pos, &c->poscap, c->npos, sizeof *c->pos, 256) == -1)
			goto nomem;
		c->pos[c->npos++] = (struct tokpos){ id, c->text, start, end };
		return 0;
	}
	if (ev_grow(&c->out->id, &c->out->cap, c->out->n, sizeof *c->out->id, 256) == -1)
		goto nomem;
	c->out->id[c->out->n++] = id;
	return 0;
nomem:
	c->nomem = 1;
	return 1;
}

static int
cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int
cmp_tokpos(const void *a, const void *b)
{
	const struct tokpos *x = a, *y = b;

	if (x->text != y->text)
		return (x->text > y->text) - (x->text < y->text);
	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	if (x->end != y->end)
		return (x->end > y->end) - (x->end < y->end);
	return (x->id > y->id) - (x->id < y->id);
}

/* Tokenise texts into l (emptied first): the term numbers, interned in d,
 * each text stemmed for each of langs[0..nlang) (nlang 0: English), a
 * word's term counted once however many languages give it.  Then sort them
 * and turn the list into runs: ids[k] distinct, tfs[k] counts.  Returns the
 * number of distinct terms, or -1 with *err set. */
static long
tokenise(struct ev_tok *tok, const char *const *langs, int nlang, struct ev_strmap *d,
	struct termlist *l, const char *const *texts, const size_t *lens, int n, int32_t **tfs,
	size_t *tfcap, struct ev_err *err)
{
	struct tok_ctx c = { tok, d, l, NULL, 0, 0, 0, nlang > 1, 0 };
	size_t i, k = 0;

	l->n = 0;
	if (nlang <= 1)
		ev_tok_set_lang(tok, nlang == 1 ? langs[0] : NULL);
	for (int t = 0; t < n; t++) {
		if (texts[t] == NULL || lens[t] == 0)
			continue;
		c.text = t;
		for (int g = 0; g < (nlang > 1 ? nlang : 1); g++) {
			if (nlang > 1)
				ev_tok_set_lang(tok, langs[g]);
			if (ev_tok_run(tok, texts[t], lens[t], on_token, &c, err) == -1)
				goto fail;
			if (c.nomem)
				goto nomem;
		}
	}
	if (c.several) {
		qsort(c.pos, c.npos, sizeof *c.pos, cmp_tokpos);
		for (i = 0; i < c.npos; i++) {
			if (i > 0 && cmp_tokpos(&c.pos[i - 1], &c.pos[i]) == 0)
				continue;
			if (ev_grow(&l->id, &l->cap, l->n, sizeof *l->id, 256) == -1)
				goto nomem;
			l->id[l->n++] = c.pos[i].id;
		}
		free(c.pos);
	}
	if (l->n > *tfcap) {
		int32_t *p = realloc(*tfs, l->n * sizeof *p);

		if (p == NULL)
			return ev_err_nomem(err);
		*tfs = p;
		*tfcap = l->n;
	}
	qsort(l->id, l->n, sizeof *l->id, cmp_i32);
	for (i = 0; i < l->n; i++) {
		if (k > 0 && l->id[k - 1] == l->id[i]) {
			(*tfs)[k - 1]++;
			continue;
		}
		l->id[k] = l->id[i];
		(*tfs)[k++] = 1;
	}
	l->n = k;
	return (long)k;
nomem:
	ev_err_nomem(err);
fail:
	free(c.pos);
	return -1;
}

/* ---- training ----------------------------------------------------------- */

void
ev_embed_params_init(struct ev_embed_params *p)
{
	p->dim = 0;
	p->min_df = 0;
	p->max_terms = EV_PLAN_DEFAULT(EV_PLAN_EMBED_MAX_TERMS);
	p->power_iters = EV_PLAN_DEFAULT(EV_PLAN_EMBED_POWER_ITERS);
	p->oversample = EV_PLAN_DEFAULT(EV_PLAN_EMBED_OVERSAMPLE);
	p->seed = 0x65766b6974ULL;	/* "evkit" */
	p->sigma_power = EV_PLAN_DEFAULT(EV_PLAN_EMBED_SIGMA_POWER);
	p->query_log_tf = EV_PLAN_DEFAULT(EV_PLAN_EMBED_QUERY_TF) == 0;	/* "log" */
	p->query_idf_power = EV_PLAN_DEFAULT(EV_PLAN_EMBED_QUERY_IDF_POWER);
	p->log_entropy = EV_PLAN_DEFAULT(EV_PLAN_EMBED_LOG_ENTROPY);
}

int
ev_embed_min_df_rule(long long chunks)
{
	return chunks < EV_EMBED_SMALL_STORE ? 1 : 2;
}

int
ev_embed_dim_rule(long long chunks, long long terms)
{
	long long rank = chunks < terms ? chunks : terms, dim = rank / EV_EMBED_DIM_SHARE;

	if (chunks < EV_EMBED_DIM_DEFAULT)
		return chunks < 1 ? 1 : (int)chunks;
	if (dim < EV_EMBED_DIM_DEFAULT || chunks > EV_VLOAD_FLAT_MAX)
		return EV_EMBED_DIM_DEFAULT;
	return dim > EV_EMBED_DIM_CAP ? EV_EMBED_DIM_CAP : (int)dim;
}

static double
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

static double
smoothed_idf(long long n, long long df)
{
	return log((1.0 + (double)n) / (1.0 + (double)df)) + 1.0;
}

/* Everything training holds, freed in one place. */
struct trainer {
	struct ev_strmap dict;
	int64_t *df;		/* per term */
	size_t dfcap;
	int64_t *docptr;	/* chunks + 1 offsets into ent/tf */
	size_t docptr_cap;
	int32_t *ent, *enttf;	/* (term, tf) of every chunk */
	size_t nent, entcap;
	long long chunks;
	int32_t *col;		/* per term: its column, or -1 */
	int32_t *vocab;		/* per column: its term */
	int nvocab;
	double *idf;		/* per column */
	struct ev_csr a;
	double *s, *v;
	float *proj;		/* nvocab × dim: the projection, scaled */
	float *sigma;
	struct lang_count {	/* the chunks' languages (no language: English) */
		char code[EV_ANALYZE_CODE_MAX];
		long long n;
	} lc[MAX_LANGS];
	int nlc;
	/* the model's languages as a parameter: ',"languages":[...]', or ""
	 * for English alone (so an English model is what it always was) */
	char langs[16 + EV_ANALYZE_MAX_QUERY_LANGS * (EV_ANALYZE_CODE_MAX + 3)];
};

static void
trainer_release(struct trainer *t)
{
	ev_strmap_release(&t->dict);
	free(t->df);
	free(t->docptr);
	free(t->ent);
	free(t->enttf);
	free(t->col);
	free(t->vocab);
	free(t->idf);
	free(t->a.rowptr);
	free(t->a.col);
	free(t->a.val);
	free(t->s);
	free(t->v);
	free(t->proj);
	free(t->sigma);
}

static int
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t nc;
	void *q;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 1024;
	while (nc < need)
		nc *= 2;
	if ((q = realloc(*p, nc * size)) == NULL)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* Count a chunk of language code (NULL: English) in t->lc. */
static void
count_lang(struct trainer *t, const char *code)
{
	char c[EV_ANALYZE_CODE_MAX];
	int i;

	if (code == NULL || ev_analyze_norm(code, strlen(code), c) == -1)
		strcpy(c, "en");
	for (i = 0; i < t->nlc && strcmp(t->lc[i].code, c) != 0; i++)
		;
	if (i == t->nlc) {
		if (t->nlc == MAX_LANGS)
			return;
		memcpy(t->lc[t->nlc].code, c, sizeof c);
		t->lc[t->nlc++].n = 0;
	}
	t->lc[i].n++;
}

static int
cmp_lang_count(const void *a, const void *b)
{
	const struct lang_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->code, y->code);
}

/* t->langs from t->lc: the most frequent first, at most
 * EV_ANALYZE_MAX_QUERY_LANGS (the query languages of the text lane). */
static void
model_langs(struct trainer *t)
{
	size_t len = 0;

	t->langs[0] = '\0';
	qsort(t->lc, (size_t)t->nlc, sizeof *t->lc, cmp_lang_count);
	if (t->nlc == 0 || (t->nlc == 1 && strcmp(t->lc[0].code, "en") == 0))
		return;
	len += (size_t)snprintf(t->langs, sizeof t->langs, ",\"languages\":[");
	for (int i = 0; i < t->nlc && i < EV_ANALYZE_MAX_QUERY_LANGS; i++)
		len += (size_t)snprintf(t->langs + len, sizeof t->langs - len, "%s\"%s\"",
		    i > 0 ? "," : "", t->lc[i].code);
	snprintf(t->langs + len, sizeof t->langs - len, "]");
}

/* Read every chunk: intern its terms, count document frequencies. */
static int
read_chunks(struct ev_store *st, struct trainer *t, struct ev_err *err)
{
	struct ev_tok *tok = NULL;
	struct termlist l = { 0 };
	int32_t *tfs = NULL;
	size_t tfcap = 0, dcap;
	sqlite3_stmt *s;
	int rc = -1, r;

	if ((tok = ev_tok_open(ev_store_db(st), err)) == NULL)
		return -1;
	s = ev_store_prepare(st, "SELECT title, section_title, text, language FROM chunks"
	    " ORDER BY rowid", err);
	if (s == NULL)
		goto out;
	if (grow((void **)&t->docptr, &t->docptr_cap, 1, sizeof *t->docptr) == -1)
		goto nomem;
	t->docptr[0] = 0;
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		const char *texts[3], *lang = (const char *)sqlite3_column_text(s, 3);
		size_t lens[3];
		long k;

		for (int f = 0; f < 3; f++) {
			texts[f] = (const char *)sqlite3_column_text(s, f);
			lens[f] = texts[f] ? (size_t)sqlite3_column_bytes(s, f) : 0;
		}
		count_lang(t, lang);
		/* its words as the text index has them: stemmed for its language */
		if ((k = tokenise(tok, &lang, lang != NULL, &t->dict, &l, texts, lens, 3, &tfs, &tfcap,
		    err)) == -1)
			goto out;
		if (grow((void **)&t->docptr, &t->docptr_cap, (size_t)t->chunks + 2, sizeof *t->docptr) == -1)
			goto nomem;
		dcap = t->entcap;
		if (grow((void **)&t->ent, &t->entcap, t->nent + (size_t)k, sizeof *t->ent) == -1)
			goto nomem;
		if (grow((void **)&t->enttf, &dcap, t->nent + (size_t)k, sizeof *t->enttf) == -1)
			goto nomem;
		if (dcap != t->entcap)	/* both grew alike */
			goto nomem;
		dcap = t->dfcap;
		if (grow((void **)&t->df, &t->dfcap, ev_strmap_count(&t->dict), sizeof *t->df) == -1)
			goto nomem;
		if (t->dfcap != dcap)
			memset(t->df + dcap, 0, (t->dfcap - dcap) * sizeof *t->df);
		for (long i = 0; i < k; i++) {
			t->ent[t->nent] = l.id[i];
			t->enttf[t->nent++] = tfs[i];
			t->df[l.id[i]]++;
		}
		t->docptr[++t->chunks] = (int64_t)t->nent;
	}
	if (r != SQLITE_DONE) {
		ev_store_error(st, "reading the chunks", err);
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	ev_err_nomem(err);
out:
	if (s != NULL)
		sqlite3_reset(s);
	free(l.id);
	free(tfs);
	ev_tok_close(tok);
	return rc;
}

static const struct ev_strmap *sort_dict;
static const int64_t *sort_df;

static int
cmp_by_df(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	if (sort_df[x] != sort_df[y])
		return sort_df[x] > sort_df[y] ? -1 : 1;
	return strcmp(dict_term(sort_dict, x), dict_term(sort_dict, y));
}

static int
cmp_by_term(const void *a, const void *b)
{
	return strcmp(dict_term(sort_dict, *(const int32_t *)a), dict_term(sort_dict, *(const int32_t *)b));
}

/* Choose the vocabulary and number its columns in term order. */
static int
choose_vocab(struct trainer *t, const struct ev_embed_params *p, struct ev_err *err)
{
	uint32_t i;
	int n = 0;

	t->col = malloc(((size_t)ev_strmap_count(&t->dict) + 1) * sizeof *t->col);
	t->vocab = malloc(((size_t)ev_strmap_count(&t->dict) + 1) * sizeof *t->vocab);
	if (t->col == NULL || t->vocab == NULL)
		return ev_err_nomem(err);
	for (i = 0; i < ev_strmap_count(&t->dict); i++) {
		t->col[i] = -1;
		if (t->df[i] >= p->min_df)
			t->vocab[n++] = (int32_t)i;
	}
	sort_dict = &t->dict;
	sort_df = t->df;
	if (n > p->max_terms) {
		qsort(t->vocab, (size_t)n, sizeof *t->vocab, cmp_by_df);
		n = p->max_terms;
	}
	qsort(t->vocab, (size_t)n, sizeof *t->vocab, cmp_by_term);
	t->nvocab = n;
	if ((t->idf = malloc(((size_t)n + 1) * sizeof *t->idf)) == NULL)
		return ev_err_nomem(err);
	for (int c = 0; c < n; c++) {
		t->col[t->vocab[c]] = c;
		t->idf[c] = smoothed_idf(t->chunks, t->df[t->vocab[c]]);
	}
	return 0;
}

/* Replace each column's idf by the term's log-entropy weight,
 * 1 + sum_d p ln p / ln N with p = tf / (the term's count in every chunk):
 * 1 for a term in one chunk, 0 for one spread evenly over all of them. */
static int
entropy_weights(struct trainer *t, struct ev_err *err)
{
	double *gf = calloc((size_t)t->nvocab + 1, sizeof *gf);
	double *h = calloc((size_t)t->nvocab + 1, sizeof *h);
	double ln_n = log((double)(t->chunks > 1 ? t->chunks : 2));
	int64_t p;
	int c;

	if (gf == NULL || h == NULL) {
		free(gf);
		free(h);
		return ev_err_nomem(err);
	}
	for (p = 0; p < (int64_t)t->nent; p++)
		if ((c = t->col[t->ent[p]]) >= 0)
			gf[c] += t->enttf[p];
	for (p = 0; p < (int64_t)t->nent; p++)
		if ((c = t->col[t->ent[p]]) >= 0) {
			double pr = t->enttf[p] / gf[c];

			h[c] += pr * log(pr);
		}
	for (c = 0; c < t->nvocab; c++)
		t->idf[c] = 1.0 + h[c] / ln_n;
	free(gf);
	free(h);
	return 0;
}

/* The tf-idf matrix, rows of unit length; counts the empty rows. */
static int
build_matrix(struct trainer *t, long long *empty, struct ev_err *err)
{
	int64_t nnz = 0, p, q;
	long long i;

	for (p = 0; p < (int64_t)t->nent; p++)
		if (t->col[t->ent[p]] >= 0)
			nnz++;
	t->a.rows = (int)t->chunks;
	t->a.cols = t->nvocab;
	t->a.rowptr = malloc(((size_t)t->chunks + 1) * sizeof *t->a.rowptr);
	t->a.col = malloc(((size_t)nnz + 1) * sizeof *t->a.col);
	t->a.val = malloc(((size_t)nnz + 1) * sizeof *t->a.val);
	if (t->a.rowptr == NULL || t->a.col == NULL || t->a.val == NULL)
		return ev_err_nomem(err);
	*empty = 0;
	q = 0;
	t->a.rowptr[0] = 0;
	for (i = 0; i < t->chunks; i++) {
		int64_t start = q;
		double norm = 0;

		for (p = t->docptr[i]; p < t->docptr[i + 1]; p++) {
			int32_t c = t->col[t->ent[p]];
			double w;

			if (c < 0)
				continue;
			w = (1.0 + log((double)t->enttf[p])) * t->idf[c];
			t->a.col[q] = c;
			t->a.val[q++] = (float)w;
			norm += w * w;
		}
		if (q == start)
			(*empty)++;
		norm = norm > 0 ? 1.0 / sqrt(norm) : 0;
		for (p = start; p < q; p++)
			t->a.val[p] = (float)(t->a.val[p] * norm);
		t->a.rowptr[i + 1] = q;
	}
	return 0;
}

static void
params_json(struct ev_buf *b, const struct ev_embed_params *p, int dim, const char *langs)
{
	ev_buf_printf(b, "{\"algorithm\":\"lsa\",\"version\":%d,\"dim\":%d,\"min_df\":%d,"
	    "\"max_terms\":%d,\"power_iters\":%d,\"oversample\":%d,\"seed\":%llu,"
	    "\"doc_tf\":\"log\",\"doc_idf_power\":1,%s\"sigma_power\":%.17g,"
	    "\"query_tf\":\"%s\",\"query_idf_power\":%.17g,"
	    "\"fields\":[\"title\",\"section_title\",\"text\"]%s}",
	    MODEL_VERSION, dim, p->min_df, p->max_terms, p->power_iters, p->oversample,
	    (unsigned long long)p->seed, p->log_entropy ? "\"global_weight\":\"log_entropy\"," : "",
	    p->sigma_power, p->query_log_tf ? "log" : "raw",
	    p->query_idf_power, langs);
}

/* The model id: a hash of everything the model is computed from (the
 * parameters, the vocabulary and the tf-idf matrix), not of the SVD's
 * output, whose last bits vary with the BLAS kernels and threads of the
 * machine: the same corpus and parameters give the same id everywhere. */
static void
model_hash(const struct trainer *t, const char *params, int dim, char id[EV_EMBED_ID_SIZE])
{
	struct ev_sha256 h;
	unsigned char dg[32];
	int c;

	ev_sha256_init(&h);
	ev_sha256_update(&h, params, strlen(params) + 1);
	for (c = 0; c < t->nvocab; c++) {
		const char *term = dict_term(&t->dict, t->vocab[c]);
		int64_t df = t->df[t->vocab[c]];

		ev_sha256_update(&h, term, strlen(term) + 1);
		ev_sha256_update(&h, &df, sizeof df);
		ev_sha256_update(&h, &t->idf[c], sizeof t->idf[c]);
	}
	ev_sha256_update(&h, t->a.rowptr, ((size_t)t->a.rows + 1) * sizeof *t->a.rowptr);
	ev_sha256_update(&h, t->a.col, (size_t)t->a.rowptr[t->a.rows] * sizeof *t->a.col);
	ev_sha256_update(&h, t->a.val, (size_t)t->a.rowptr[t->a.rows] * sizeof *t->a.val);
	ev_sha256_final(&h, dg);
	snprintf(id, EV_EMBED_ID_SIZE, "lsa%d-", dim);
	ev_hex_lower(dg, 8, id + strlen(id));
}

/* The projection V Σ^(p-1), as float32. */
static int
make_projection(struct trainer *t, const struct ev_embed_params *p, int dim, struct ev_err *err)
{
	double *scale = malloc((size_t)dim * sizeof *scale);
	int c, i;

	t->proj = malloc((size_t)t->nvocab * dim * sizeof *t->proj);
	t->sigma = malloc((size_t)dim * sizeof *t->sigma);
	if (scale == NULL || t->proj == NULL || t->sigma == NULL) {
		free(scale);
		return ev_err_nomem(err);
	}
	for (i = 0; i < dim; i++) {
		/* a singular value of (numerically) zero would blow up Σ^(p-1) */
		double s = t->s[i] > t->s[0] * 1e-6 ? t->s[i] : t->s[0] * 1e-6;

		scale[i] = s > 0 ? pow(s, p->sigma_power - 1.0) : 0;
		t->sigma[i] = (float)t->s[i];
	}
	for (c = 0; c < t->nvocab; c++)
		for (i = 0; i < dim; i++)
			t->proj[(size_t)c * dim + i] = (float)(t->v[(size_t)c * dim + i] * scale[i]);
	free(scale);

	return 0;
}

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS embed_model (model_id TEXT PRIMARY KEY, dim INTEGER,"
	" terms INTEGER, chunks INTEGER, params TEXT, sigma BLOB, created_at TEXT);"
	"CREATE TABLE IF NOT EXISTS embed_vocab (term TEXT PRIMARY KEY, col INTEGER,"
	" df INTEGER, idf REAL, vec BLOB) WITHOUT ROWID;";

static int
save_model(struct ev_store *st, struct trainer *t, int dim, const char *params, const char *id,
	struct ev_err *err)
{
	sqlite3_stmt *s;
	char num[32];
	int c;

	if (ev_store_begin(st, err) == -1)
		return -1;
	if (ev_store_exec(st, schema_sql, err) == -1 ||
	    ev_store_exec(st, "DELETE FROM embed_model; DELETE FROM embed_vocab;", err) == -1)
		goto fail;
	s = ev_store_prepare(st, "INSERT INTO embed_model(model_id, dim, terms, chunks, params,"
	    " sigma, created_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6,"
	    " strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))", err);
	if (s == NULL)
		goto fail;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 2, dim);
	sqlite3_bind_int(s, 3, t->nvocab);
	sqlite3_bind_int64(s, 4, t->chunks);
	sqlite3_bind_text(s, 5, params, -1, SQLITE_STATIC);
	sqlite3_bind_blob(s, 6, t->sigma, dim * (int)sizeof *t->sigma, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		ev_store_error(st, "saving the embedding model", err);
		sqlite3_reset(s);
		goto fail;
	}
	sqlite3_reset(s);
	s = ev_store_prepare(st, "INSERT INTO embed_vocab(term, col, df, idf, vec)"
	    " VALUES(?1, ?2, ?3, ?4, ?5)", err);
	if (s == NULL)
		goto fail;
	for (c = 0; c < t->nvocab; c++) {
		sqlite3_bind_text(s, 1, dict_term(&t->dict, t->vocab[c]), -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 2, c);
		sqlite3_bind_int64(s, 3, t->df[t->vocab[c]]);
		sqlite3_bind_double(s, 4, t->idf[c]);
		sqlite3_bind_blob(s, 5, t->proj + (size_t)c * dim, dim * (int)sizeof *t->proj,
		    SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE) {
			ev_store_error(st, "saving the embedding vocabulary", err);
			sqlite3_reset(s);
			goto fail;
		}
		sqlite3_reset(s);
	}
	snprintf(num, sizeof num, "%d", dim);
	if (ev_store_meta_set(st, EV_EMBED_META_MODEL, id, err) == -1 ||
	    ev_store_meta_set(st, EV_EMBED_META_DIM, num, err) == -1)
		goto fail;
	if (ev_store_commit(st, err) == -1)
		goto fail;
	return 0;
fail:
	ev_store_rollback(st);
	return -1;
}

int
ev_embed_train(struct ev_store *st, const struct ev_embed_params *given,
	struct ev_embed_info *info, struct ev_err *err)
{
	struct trainer t;
	struct ev_svd_opts so = EV_SVD_OPTS_INIT;
	struct ev_buf params = EV_BUF_INIT;
	struct ev_embed_params used = *given;	/* with the store's size's defaults */
	const struct ev_embed_params *p = &used;
	struct timespec t0;
	double total = 0, kept = 0;
	int dim, rc = -1;

	memset(&t, 0, sizeof t);
	memset(info, 0, sizeof *info);
	info->dim_asked = p->dim;
	if (p->dim < 0 || p->dim > EV_EMBED_DIM_MAX)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "dimension %d is not within 1..%d",
			p->dim, EV_EMBED_DIM_MAX);
	if (p->min_df < 0 || p->max_terms < 1)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "min_df and max_terms must be at least 1");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (read_chunks(st, &t, err) == -1)
		goto out;
	model_langs(&t);
	info->chunks = t.chunks;
	info->distinct = ev_strmap_count(&t.dict);
	if (t.chunks == 0) {
		ev_err_set(err, EV_EXIT_USAGE, ev_store_path(st),
			"no chunks to train on; add documents with 'ev-ingest --db %s' first",
			ev_store_path(st));
		goto out;
	}
	if (t.chunks > 0x7fffffff - 1) {
		ev_err_set(err, EV_EXIT_USAGE, ev_store_path(st), "too many chunks to train on (%lld)",
			t.chunks);
		goto out;
	}
	used.min_df = given->min_df > 0 ? given->min_df : ev_embed_min_df_rule(t.chunks);
	info->min_df = used.min_df;
	if (choose_vocab(&t, p, err) == -1)
		goto out;
	info->terms = t.nvocab;
	used.dim = given->dim > 0 ? given->dim : ev_embed_dim_rule(t.chunks, t.nvocab);
	if (t.nvocab == 0) {
		ev_err_set(err, EV_EXIT_USAGE, ev_store_path(st),
			"no term occurs in %d chunks or more, so there is nothing to learn from "
			"(%lld chunks); add documents, or lower min_df", p->min_df, t.chunks);
		goto out;
	}
	if ((p->log_entropy && entropy_weights(&t, err) == -1) ||
	    build_matrix(&t, &info->empty, err) == -1)
		goto out;
	/* the chunks' terms as read are in the matrix now: their memory goes to the SVD */
	free(t.docptr);
	free(t.ent);
	free(t.enttf);
	t.docptr = NULL;
	t.ent = t.enttf = NULL;
	info->ms_read = ms_since(&t0);

	/* the rank cannot exceed either side of the matrix */
	dim = p->dim;
	if (dim > t.a.rows)
		dim = t.a.rows;
	if (dim > t.a.cols)
		dim = t.a.cols;
	info->dim = dim;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t.s = malloc((size_t)dim * sizeof *t.s);
	t.v = malloc((size_t)t.nvocab * dim * sizeof *t.v);
	if (t.s == NULL || t.v == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	so.oversample = p->oversample;
	so.power_iters = p->power_iters;
	so.seed = p->seed;
	if (ev_svd_sparse(&t.a, dim, &so, t.s, t.v, NULL, err) == -1)
		goto out;
	for (int64_t q = 0; q < t.a.rowptr[t.a.rows]; q++)
		total += (double)t.a.val[q] * t.a.val[q];
	for (int i = 0; i < dim; i++)
		kept += t.s[i] * t.s[i];
	info->energy = total > 0 ? kept / total : 0;
	params_json(&params, p, dim, t.langs);
	if (params.p == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	model_hash(&t, params.p, dim, info->model_id);
	if (make_projection(&t, p, dim, err) == -1)
		goto out;
	info->ms_svd = ms_since(&t0);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (save_model(st, &t, dim, params.p, info->model_id, err) == -1)
		goto out;
	info->ms_save = ms_since(&t0);
	rc = 0;
out:
	ev_buf_release(&params);
	trainer_release(&t);
	return rc;
}

/* ---- embedding ------------------------------------------------------------ */

struct ev_embed {
	struct ev_store *st;
	struct ev_tok *tok;
	int own_txn;		/* we began the read transaction */
	char model_id[EV_EMBED_ID_SIZE];
	int dim;
	int doc_log_tf, query_log_tf;
	double query_idf_power;
	/* the cache of terms seen: per dict number, 0 not looked up, 1 in the
	 * vocabulary (idf, and vec at vecs + slot * dim), 2 not in it */
	struct ev_strmap dict;
	unsigned char *state;
	double *idf;
	uint32_t *slot;
	size_t cachecap;
	float *vecs;
	size_t nvecs, vecscap;
	struct termlist l;
	int32_t *tfs;
	size_t tfcap;
	double *acc;
	char lang[EV_ANALYZE_CODE_MAX];	/* ev_embed_set_lang()'s, or "" */
	char qlang[EV_ANALYZE_MAX_QUERY_LANGS][EV_ANALYZE_CODE_MAX];	/* the model's */
	int nqlang;		/* 0: English */
};

static int
table_exists(struct ev_store *st, const char *name, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st,
	    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1", err);
	int n;

	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_reset(s);
		return ev_store_error(st, "reading the schema", err);
	}
	n = sqlite3_column_int(s, 0);
	sqlite3_reset(s);
	return n > 0;
}

int
ev_embed_current(struct ev_store *st, char **id, struct ev_err *err)
{
	*id = NULL;
	return ev_store_meta_get(st, EV_EMBED_META_MODEL, id, err);
}

static int no_model(struct ev_store *st, struct ev_err *err);

/* Copy the rows of sel (on the source) into ins (on the destination), column
 * by column.  Returns the rows copied, or -1 with *err set. */
static long long
copy_rows(struct ev_store *src, sqlite3_stmt *sel, struct ev_store *dst, sqlite3_stmt *ins,
    struct ev_err *err)
{
	long long n = 0;
	int rc;

	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(sel); i++)
			sqlite3_bind_value(ins, i + 1, sqlite3_column_value(sel, i));
		rc = sqlite3_step(ins);
		sqlite3_reset(ins);
		if (rc != SQLITE_DONE) {
			sqlite3_reset(sel);
			return ev_store_error(dst, "saving the embedding model", err);
		}
		n++;
	}
	sqlite3_reset(sel);
	if (rc != SQLITE_DONE)
		return ev_store_error(src, "reading the embedding model", err);
	return n;
}

int
ev_embed_copy(struct ev_store *dst, struct ev_store *src, char *id, struct ev_err *err)
{
	sqlite3_stmt *sel, *ins;
	char *sid = NULL, *did = NULL, num[32];
	int r, dim = 0;

	if ((r = table_exists(src, "embed_model", err)) == -1 ||
	    (r == 1 && (r = ev_embed_current(src, &sid, err)) == -1))
		return -1;
	if (r == 0)
		return no_model(src, err);
	snprintf(id, EV_EMBED_ID_SIZE, "%s", sid);
	if (ev_embed_current(dst, &did, err) == -1) {
		free(sid);
		return -1;
	}
	r = did != NULL && strcmp(did, sid) == 0;
	free(did);
	free(sid);
	if (r)
		return 0;	/* the same model already (or the same store) */
	if (ev_store_begin(dst, err) == -1)
		return -1;
	if (ev_store_exec(dst, schema_sql, err) == -1 ||
	    ev_store_exec(dst, "DELETE FROM embed_model; DELETE FROM embed_vocab;", err) == -1)
		goto fail;
	if ((sel = ev_store_prepare(src, "SELECT model_id, dim, terms, chunks, params, sigma,"
	    " created_at FROM embed_model WHERE model_id = ?1", err)) == NULL ||
	    (ins = ev_store_prepare(dst, "INSERT INTO embed_model(model_id, dim, terms, chunks,"
	    " params, sigma, created_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", err)) == NULL)
		goto fail;
	if (sqlite3_bind_text(sel, 1, id, -1, SQLITE_TRANSIENT) != SQLITE_OK) {
		ev_store_error(src, "reading the embedding model", err);
		goto fail;
	}
	if (sqlite3_step(sel) == SQLITE_ROW)
		dim = sqlite3_column_int(sel, 1);
	sqlite3_reset(sel);
	if (dim < 1 || dim > EV_EMBED_DIM_MAX) {
		ev_err_set(err, EV_EXIT_RUNTIME, ev_store_path(src), "the embedding model '%s' is"
		    " damaged; run 'ev-embed --db %s --train'", id, ev_store_path(src));
		goto fail;
	}
	if (copy_rows(src, sel, dst, ins, err) != 1)
		goto fail;
	if ((sel = ev_store_prepare(src, "SELECT term, col, df, idf, vec FROM embed_vocab", err)) == NULL ||
	    (ins = ev_store_prepare(dst, "INSERT INTO embed_vocab(term, col, df, idf, vec)"
	    " VALUES(?1, ?2, ?3, ?4, ?5)", err)) == NULL ||
	    copy_rows(src, sel, dst, ins, err) == -1)
		goto fail;
	snprintf(num, sizeof num, "%d", dim);
	if (ev_store_meta_set(dst, EV_EMBED_META_MODEL, id, err) == -1 ||
	    ev_store_meta_set(dst, EV_EMBED_META_DIM, num, err) == -1 ||
	    ev_store_commit(dst, err) == -1)
		goto fail;
	return 0;
fail:
	ev_store_rollback(dst);
	return -1;
}

static int
no_model(struct ev_store *st, struct ev_err *err)
{
	return ev_err_set(err, EV_EXIT_USAGE, NULL,
		"no embedding model in '%s'; run 'ev-embed --db %s --train'",
		ev_store_path(st), ev_store_path(st));
}

static int
load_params(struct ev_embed *e, const char *text, struct ev_err *err)
{
	/* ev_json_parse_line(): Jansson's own parse can drop a byte of a
	 * number when an allocation fails, and so change the model. */
	json_t *j = ev_json_parse_line(text, strlen(text), NULL, err), *v;
	const char *qtf;
	size_t i;

	if (j == NULL && err->code == EV_EXIT_RUNTIME)
		return -1;	/* out of memory */
	if (j == NULL || !json_is_object(j)) {
		json_decref(j);
		return ev_err_set(err, EV_EXIT_RUNTIME, ev_store_path(e->st),
			"the embedding model's parameters are damaged; run 'ev-embed --db %s --train'",
			ev_store_path(e->st));
	}
	e->doc_log_tf = 1;
	qtf = json_string_value(json_object_get(j, "query_tf"));
	e->query_log_tf = qtf == NULL || strcmp(qtf, "raw") != 0;
	v = json_object_get(j, "query_idf_power");
	e->query_idf_power = json_is_number(v) ? json_number_value(v) : 1.0;
	/* the languages of the chunks it was trained on (none: English) */
	json_array_foreach(json_object_get(j, "languages"), i, v)
		if (e->nqlang < EV_ANALYZE_MAX_QUERY_LANGS && json_is_string(v) &&
		    ev_analyze_norm(json_string_value(v), json_string_length(v),
		    e->qlang[e->nqlang]) == 0)
			e->nqlang++;
	json_decref(j);
	return 0;
}

struct ev_embed *
ev_embed_open(struct ev_store *st, struct ev_err *err)
{
	struct ev_embed *e;
	sqlite3_stmt *s;
	int r;

	if ((e = calloc(1, sizeof *e)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	e->st = st;
	if (sqlite3_get_autocommit(ev_store_db(st))) {
		if (ev_store_exec(st, "BEGIN", err) == -1)
			goto fail;
		e->own_txn = 1;
	}
	if ((r = table_exists(st, "embed_model", err)) == -1)
		goto fail;
	if (r == 0) {
		no_model(st, err);
		goto fail;
	}
	s = ev_store_prepare(st, "SELECT model_id, dim, params FROM embed_model LIMIT 1", err);
	if (s == NULL)
		goto fail;
	if ((r = sqlite3_step(s)) != SQLITE_ROW) {
		if (r == SQLITE_DONE)
			no_model(st, err);
		else
			ev_store_error(st, "reading the embedding model", err);
		sqlite3_reset(s);
		goto fail;
	}
	snprintf(e->model_id, sizeof e->model_id, "%s", (const char *)sqlite3_column_text(s, 0));
	e->dim = sqlite3_column_int(s, 1);
	r = load_params(e, sqlite3_column_text(s, 2) ? (const char *)sqlite3_column_text(s, 2) : "",
	    err);
	sqlite3_reset(s);
	if (r == -1)
		goto fail;
	if (e->dim < 1 || e->dim > EV_EMBED_DIM_MAX) {
		ev_err_set(err, EV_EXIT_RUNTIME, ev_store_path(st),
			"the embedding model's dimension %d is damaged; run 'ev-embed --db %s --train'",
			e->dim, ev_store_path(st));
		goto fail;
	}
	if ((e->acc = malloc((size_t)e->dim * sizeof *e->acc)) == NULL) {
		ev_err_nomem(err);
		goto fail;
	}
	if ((e->tok = ev_tok_open(ev_store_db(st), err)) == NULL)
		goto fail;
	return e;
fail:
	ev_embed_close(e);
	return NULL;
}

static void
cache_release(struct ev_embed *e)
{
	ev_strmap_release(&e->dict);
	free(e->state);
	free(e->idf);
	free(e->slot);
	free(e->vecs);
	e->state = NULL;
	e->idf = NULL;
	e->slot = NULL;
	e->vecs = NULL;
	e->cachecap = e->nvecs = e->vecscap = 0;
}

void
ev_embed_close(struct ev_embed *e)
{
	if (e == NULL)
		return;
	if (e->own_txn)
		ev_store_exec(e->st, "COMMIT", NULL);
	ev_tok_close(e->tok);
	cache_release(e);
	free(e->l.id);
	free(e->tfs);
	free(e->acc);
	free(e);
}

const char *
ev_embed_model_id(const struct ev_embed *e)
{
	return e->model_id;
}

int
ev_embed_dim(const struct ev_embed *e)
{
	return e->dim;
}

int
ev_embed_set_lang(struct ev_embed *e, const char *code)
{
	if (code == NULL) {
		e->lang[0] = '\0';
		return 0;
	}
	return ev_analyze_norm(code, strlen(code), e->lang);
}

/* Look term id up in the store, once. */
static int
lookup(struct ev_embed *e, int32_t id, struct ev_err *err)
{
	sqlite3_stmt *s;
	const void *blob;
	int r;

	s = ev_store_prepare(e->st, "SELECT idf, vec FROM embed_vocab WHERE term = ?1", err);
	if (s == NULL)
		return -1;
	sqlite3_bind_text(s, 1, dict_term(&e->dict, (uint32_t)id), (int)ev_strmap_len(&e->dict, id), SQLITE_STATIC);
	r = sqlite3_step(s);
	if (r == SQLITE_DONE) {
		e->state[id] = 2;
		sqlite3_reset(s);
		return 0;
	}
	if (r != SQLITE_ROW) {
		sqlite3_reset(s);
		return ev_store_error(e->st, "reading the embedding vocabulary", err);
	}
	blob = sqlite3_column_blob(s, 1);
	if (blob == NULL || sqlite3_column_bytes(s, 1) != e->dim * (int)sizeof(float)) {
		sqlite3_reset(s);
		return ev_err_set(err, EV_EXIT_RUNTIME, ev_store_path(e->st),
			"the embedding vocabulary is damaged at term '%s'; run 'ev-embed --db %s --train'",
			dict_term(&e->dict, (uint32_t)id), ev_store_path(e->st));
	}
	if (grow((void **)&e->vecs, &e->vecscap, (e->nvecs + 1) * e->dim, sizeof *e->vecs) == -1) {
		sqlite3_reset(s);
		return ev_err_nomem(err);
	}
	memcpy(e->vecs + e->nvecs * e->dim, blob, (size_t)e->dim * sizeof(float));
	e->idf[id] = sqlite3_column_double(s, 0);
	e->slot[id] = (uint32_t)e->nvecs++;
	e->state[id] = 1;
	sqlite3_reset(s);
	return 0;
}

int
ev_embed_texts(struct ev_embed *e, const char *const *texts, const size_t *lens, int n,
	enum ev_embed_role role, float *out, struct ev_err *err)
{
	const char *langs[EV_ANALYZE_MAX_QUERY_LANGS];
	long k, i;
	double norm = 0;
	int d, dim = e->dim, nlang;

	if (ev_strmap_count(&e->dict) > CACHE_MAX_TERMS)
		cache_release(e);
	if (e->lang[0] != '\0' || role == EV_EMBED_DOCUMENT) {
		langs[0] = e->lang[0] != '\0' ? e->lang : NULL;
		nlang = langs[0] != NULL;
	} else {
		for (nlang = 0; nlang < e->nqlang; nlang++)	/* the model's */
			langs[nlang] = e->qlang[nlang];
	}
	if ((k = tokenise(e->tok, langs, nlang, &e->dict, &e->l, texts, lens, n, &e->tfs, &e->tfcap,
	    err)) == -1)
		return -1;
	/* make room for the new terms' state, zeroed */
	if (ev_strmap_count(&e->dict) > e->cachecap) {
		size_t old = e->cachecap;

		double *idf;
		uint32_t *slot;

		if (grow((void **)&e->state, &e->cachecap, ev_strmap_count(&e->dict), 1) == -1)
			return ev_err_nomem(err);
		memset(e->state + old, 0, e->cachecap - old);
		if ((idf = realloc(e->idf, e->cachecap * sizeof *idf)) == NULL)
			goto nomem;
		e->idf = idf;
		if ((slot = realloc(e->slot, e->cachecap * sizeof *slot)) == NULL)
			goto nomem;
		e->slot = slot;
	}
	memset(e->acc, 0, (size_t)dim * sizeof *e->acc);
	for (i = 0; i < k; i++) {
		int32_t id = e->l.id[i];
		double tf = e->tfs[i], w;
		const float *vec;

		if (e->state[id] == 0 && lookup(e, id, err) == -1)
			return -1;
		if (e->state[id] != 1)
			continue;
		if (role == EV_EMBED_QUERY) {
			w = (e->query_log_tf ? 1.0 + log(tf) : tf) * pow(e->idf[id], e->query_idf_power);
		} else {
			w = (1.0 + log(tf)) * e->idf[id];
		}
		vec = e->vecs + (size_t)e->slot[id] * dim;
		for (d = 0; d < dim; d++)
			e->acc[d] += w * vec[d];
	}
	for (d = 0; d < dim; d++)
		norm += e->acc[d] * e->acc[d];
	if (norm <= 0 || !isfinite(norm)) {
		memset(out, 0, (size_t)dim * sizeof *out);
		return 0;
	}
	norm = 1.0 / sqrt(norm);
	for (d = 0; d < dim; d++)
		out[d] = (float)(e->acc[d] * norm);
	return 1;
nomem:
	/* the cache is inconsistent now: start it again */
	cache_release(e);
	return ev_err_nomem(err);
}

/* ---- drift ------------------------------------------------------------------ */

/* The model's id, min_df, vocabulary cap, vocabulary size, smallest df and
 * training chunks.  Returns 1, 0 when the store has no model, -1 on error. */
static int
model_facts(struct ev_store *st, struct ev_embed_drift *d, long long *min_df, long long *cap,
	long long *terms, long long *least_df, struct ev_err *err)
{
	struct ev_err pe = { 0 };
	sqlite3_stmt *s;
	json_t *j, *v;
	int r;

	if ((r = table_exists(st, "embed_model", err)) != 1)
		return r;
	s = ev_store_prepare(st, "SELECT model_id, chunks, params, terms,"
	    " (SELECT min(df) FROM embed_vocab) FROM embed_model LIMIT 1", err);
	if (s == NULL)
		return -1;
	if ((r = sqlite3_step(s)) != SQLITE_ROW) {
		sqlite3_reset(s);
		return r == SQLITE_DONE ? 0 : ev_store_error(st, "reading the embedding model", err);
	}
	snprintf(d->model_id, sizeof d->model_id, "%s", (const char *)sqlite3_column_text(s, 0));
	d->trained_chunks = sqlite3_column_int64(s, 1);
	*terms = sqlite3_column_int64(s, 3);
	*least_df = sqlite3_column_int64(s, 4);
	j = sqlite3_column_text(s, 2) == NULL ? NULL :
	    ev_json_parse_line((const char *)sqlite3_column_text(s, 2),
	    (size_t)sqlite3_column_bytes(s, 2), NULL, &pe);
	sqlite3_reset(s);
	if (j == NULL && pe.code == EV_EXIT_RUNTIME)
		return ev_err_nomem(err);
	*min_df = json_is_integer(v = json_object_get(j, "min_df")) ? json_integer_value(v) : 2;
	*cap = json_is_integer(v = json_object_get(j, "max_terms")) ? json_integer_value(v) : 0;
	json_decref(j);
	return 1;
}

int
ev_embed_drift(struct ev_store *st, struct ev_embed_drift *d, struct ev_err *err)
{
	struct ev_tok *tok = NULL;
	sqlite3_stmt *s;
	long long min_df = 2, cap = 0, terms = 0, least_df = 0;
	int have, r, own_txn = 0, rc = -1;

	memset(d, 0, sizeof *d);
	if (sqlite3_get_autocommit(ev_store_db(st))) {
		if (ev_store_exec(st, "BEGIN", err) == -1)
			return -1;
		own_txn = 1;
	}
	if ((have = model_facts(st, d, &min_df, &cap, &terms, &least_df, err)) == -1)
		goto out;
	if ((tok = ev_tok_open(ev_store_db(st), err)) == NULL)
		goto out;
	/* the index's stems as the embedder's words are (untagged) */
	s = ev_store_prepare(st, have ?
	    "SELECT v.term, v.doc, v.cnt, e.term IS NOT NULL FROM (" EV_STORE_STEMS_SQL ") v"
	    " LEFT JOIN embed_vocab e ON e.term = v.term" :
	    "SELECT term, doc, cnt, 0 FROM (" EV_STORE_STEMS_SQL ")", err);
	if (s == NULL)
		goto out;
	while ((r = sqlite3_step(s)) == SQLITE_ROW) {
		const char *term = (const char *)sqlite3_column_text(s, 0);
		int len = sqlite3_column_bytes(s, 0);
		long long df = sqlite3_column_int64(s, 1), cnt = sqlite3_column_int64(s, 2);

		if (term == NULL || len <= 0 || len > MAX_TERM_LEN || ev_tok_is_stop(tok, term, len))
			continue;
		d->occurrences += cnt;
		if (sqlite3_column_int(s, 3))
			continue;
		/* learnable: a training now would keep it */
		if (have && (df < min_df || (cap > 0 && terms >= cap && df <= least_df)))
			continue;
		d->unseen += cnt;
		d->new_terms++;
	}
	sqlite3_reset(s);
	if (r != SQLITE_DONE) {
		ev_store_error(st, "reading the store's vocabulary", err);
		goto out;
	}
	if ((s = ev_store_prepare(st, "SELECT count(*) FROM chunks", err)) == NULL)
		goto out;
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_reset(s);
		ev_store_error(st, "counting the chunks", err);
		goto out;
	}
	d->chunks = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	d->drift = d->occurrences > 0 ? (double)d->unseen / (double)d->occurrences : 0;
	rc = 0;
out:
	ev_tok_close(tok);
	if (own_txn)
		ev_store_exec(st, "COMMIT", NULL);
	return rc;
}
