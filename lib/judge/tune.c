/* tune.c: the search over a plan's parameters, cross-validated.  See tune.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "config.h"
#include "hitfields.h"
#include "jscan.h"
#include "jsonl.h"
#include "pack.h"
#include "plan.h"
#include "tune.h"
#include "qfilter.h"
#include "vsearch.h"

/* ---- Seeded choices ------------------------------------------------------ */

/* Knuth's MMIX linear congruential generator; the high 32 bits are used. */
static uint64_t
rng_init(uint64_t seed)
{
	return seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
}

/* A number in [0, n), n < 2^32. */
static size_t
rng_below(uint64_t *s, size_t n)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (size_t)(((*s >> 32) * (uint64_t)n) >> 32);
}

static void
shuffle(size_t *a, size_t n, uint64_t *s)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(s, i), t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

uint64_t
ev_tune_rand_init(uint64_t seed)
{
	return rng_init(seed);
}

size_t
ev_tune_rand_below(uint64_t *state, size_t n)
{
	return rng_below(state, n);
}

void
ev_tune_shuffle(size_t *a, size_t n, uint64_t *state)
{
	shuffle(a, n, state);
}

/* ---- Metrics ------------------------------------------------------------- */

static const struct {
	const char *name;
	enum ev_tune_metric m;
} metrics[] = {
	{ "ndcg", EV_TUNE_NDCG }, { "map", EV_TUNE_MAP }, { "recall", EV_TUNE_RECALL },
	{ "p", EV_TUNE_P }, { "mrr", EV_TUNE_MRR }
};

int
ev_tune_metric_parse(const char *s, struct ev_tune_opts *o)
{
	const char *at = strchr(s, '@');
	size_t n = at ? (size_t)(at - s) : strlen(s);
	long long k = 0;
	char *end;

	if (at != NULL) {
		if (at[1] < '0' || at[1] > '9')
			return -1;
		k = strtoll(at + 1, &end, 10);
		if (*end != '\0' || k < 1 || k > 1000000)
			return -1;
	}
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		if (strlen(metrics[i].name) != n || strncmp(s, metrics[i].name, n) != 0)
			continue;
		if (at != NULL && (metrics[i].m == EV_TUNE_MAP || metrics[i].m == EV_TUNE_MRR))
			return -1;
		o->metric = metrics[i].m;
		if (metrics[i].m == EV_TUNE_NDCG && k)
			o->eval.ndcg_k = (long)k;
		else if (metrics[i].m == EV_TUNE_RECALL && k)
			o->eval.recall_k = (long)k;
		else if (metrics[i].m == EV_TUNE_P && k)
			o->eval.p_k = (long)k;
		return 0;
	}
	return -1;
}

const char *
ev_tune_metric_name(const struct ev_tune_opts *o, char *buf, size_t size)
{
	switch (o->metric) {
	case EV_TUNE_NDCG:
		snprintf(buf, size, "ndcg@%ld", o->eval.ndcg_k);
		break;
	case EV_TUNE_RECALL:
		snprintf(buf, size, "recall@%ld", o->eval.recall_k);
		break;
	case EV_TUNE_P:
		snprintf(buf, size, "p@%ld", o->eval.p_k);
		break;
	case EV_TUNE_MAP:
		snprintf(buf, size, "map");
		break;
	default:
		snprintf(buf, size, "mrr");
	}
	return buf;
}

static double
metric_value(const struct ev_eval_figures *f, enum ev_tune_metric m)
{
	switch (m) {
	case EV_TUNE_NDCG:
		return f->ndcg;
	case EV_TUNE_MAP:
		return f->map;
	case EV_TUNE_RECALL:
		return f->recall;
	case EV_TUNE_P:
		return f->p;
	default:
		return f->mrr;
	}
}

/* ---- Folds and selection ------------------------------------------------- */

void
ev_tune_folds(size_t n, int k, uint64_t seed, int *fold)
{
	size_t *order = malloc((n ? n : 1) * sizeof *order);
	uint64_t s = rng_init(seed);

	if (order == NULL) {	/* the deal without the shuffle is still a deal */
		for (size_t i = 0; i < n; i++)
			fold[i] = (int)(i % (size_t)k);
		return;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	shuffle(order, n, &s);
	for (size_t i = 0; i < n; i++)
		fold[order[i]] = (int)(i % (size_t)k);
	free(order);
}

size_t
ev_tune_select(const double *fig, size_t ncfg, size_t nq, const int *fold, int held)
{
	size_t best = 0;
	double best_sum = -INFINITY;

	for (size_t c = 0; c < ncfg; c++) {
		double sum = 0;

		for (size_t q = 0; q < nq; q++)
			if (fold[q] != held)
				sum += fig[c * nq + q];
		/* Sums over the same queries order as their means do. */
		if (sum > best_sum + 1e-12) {
			best_sum = sum;
			best = c;
		}
	}
	return best;
}

size_t
ev_tune_cross_validate(const double *fig, size_t ncfg, size_t nq, const int *fold, int k,
    struct ev_tune_result *r)
{
	size_t best = ev_tune_select(fig, ncfg, nq, fold, -1);
	double tuned = 0, defaults = 0;

	r->folds = k;
	r->fold_agree = 0;
	for (int f = 0; f < k; f++) {
		size_t c = ev_tune_select(fig, ncfg, nq, fold, f), n = 0;
		double t = 0, d = 0;

		for (size_t q = 0; q < nq; q++) {
			if (fold[q] != f)
				continue;
			t += fig[c * nq + q];
			d += fig[q];
			n++;
		}
		tuned += t;
		defaults += d;
		r->fold_queries[f] = n;
		r->fold_tuned[f] = n ? t / (double)n : 0;
		r->fold_defaults[f] = n ? d / (double)n : 0;
		r->fold_trial[f] = c;
		r->fold_agree += c == best;
	}
	r->tuned = nq ? tuned / (double)nq : 0;
	r->defaults = nq ? defaults / (double)nq : 0;
	return best;
}

/* ---- Reading a plan ------------------------------------------------------ */

/* The fusion's keys that take words or names, set as ev-fuse sets them
 * (ev_plan_field's setters; value is the trial's struct ev_fuse_opts). */
static int
set_method(void *value, const char *arg, struct ev_err *err)
{
	struct ev_fuse_opts *f = value;

	if (ev_fuse_method_parse(arg, &f->method) == -1 || f->method == EV_FUSE_MERGE)
		return ev_err_set(err, EV_EXIT_USAGE, NULL, "ev-tune tunes rrf, weighted, combsum or "
		    "combmnz, not '%s'", arg);
	return 0;
}

static int
set_norm(void *value, const char *arg, struct ev_err *err)
{
	return ev_fuse_norm_parse(arg, &((struct ev_fuse_opts *)value)->norm) == -1 ?
	    ev_err_set(err, EV_EXIT_USAGE, NULL, "not a normalisation: '%s'", arg) : 0;
}

static int
set_adapt(void *value, const char *arg, struct ev_err *err)
{
	return ev_fuse_adapt_parse(arg, &((struct ev_fuse_opts *)value)->adapt) == -1 ?
	    ev_err_set(err, EV_EXIT_USAGE, NULL, "not an adaptation: '%s'", arg) : 0;
}

static int
set_group(void *value, const char *arg, struct ev_err *err)
{
	(void)err;
	((struct ev_fuse_opts *)value)->group = strcmp(arg, "doc") == 0 ? EV_GROUP_DOC :
	    EV_GROUP_CHUNK;
	return 0;
}

static int
set_anchor(void *value, const char *arg, struct ev_err *err)
{
	return ev_fuse_anchor_set(value, arg, err);
}

static int
set_weight(void *value, const char *arg, struct ev_err *err)
{
	return ev_fuse_weight_parse(value, arg, err);
}

static int
set_floor(void *value, const char *arg, struct ev_err *err)
{
	return ev_fuse_floor_parse(value, arg, err);
}

static int
set_agree_from(void *value, const char *arg, struct ev_err *err)
{
	return ev_fuse_agree_from_parse(value, arg, err);
}

/* The stages whose plan keys a trial holds: every key of theirs is read
 * (or passed over, named) by ev_tune_plan_read(). */
static const char *const tune_stages[] = { "ev-search-text", "ev-search-vec", "ev-fuse", NULL };

int
ev_tune_plan_read(const json_t *plan, const char *file, struct ev_tune_trial *t,
    struct ev_err *err)
{
	struct ev_textsearch_opts *x = &t->text;
	struct ev_fuse_opts *f = &t->fuse;
	/* feedback as a number of chunks with its flat keys, or as a mapping
	 * (docs, terms, weight, focus, pool), as ev-search-text reads it */
	const struct ev_plan_field fields[] = {
		EV_PLAN_FIELD(EV_PLAN_TEXT_K, &x->k),
		EV_PLAN_FIELD(EV_PLAN_TEXT_PROXIMITY, &x->proximity),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK, &x->feedback_docs),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_TERMS, &x->feedback_terms),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_WEIGHT, &x->feedback_weight),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_FOCUS, &x->feedback_focus),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_POOL, &x->feedback_pool),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_DOCS_M, &x->feedback_docs),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_TERMS_M, &x->feedback_terms),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_WEIGHT_M, &x->feedback_weight),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_FOCUS_M, &x->feedback_focus),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FEEDBACK_POOL_M, &x->feedback_pool),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FUZZY, &x->fuzzy),
		EV_PLAN_FIELD(EV_PLAN_TEXT_FUZZY_EXPANSIONS, &x->fuzzy_expansions),
		EV_PLAN_FIELD(EV_PLAN_TEXT_DROP_REQUEST_WORDS, &x->drop_request_words),
		EV_PLAN_FIELD(EV_PLAN_TEXT_LONG_QUERY, &x->long_query),
		EV_PLAN_FIELD(EV_PLAN_TEXT_DOC_WEIGHT, &x->doc_weight),
		EV_PLAN_FIELD(EV_PLAN_TEXT_K1, &x->k1),
		EV_PLAN_FIELD(EV_PLAN_TEXT_K1_SCALE, &x->k1_scale),
		EV_PLAN_FIELD(EV_PLAN_TEXT_B, &x->b),
		EV_PLAN_FIELD(EV_PLAN_TEXT_NORM_SPREAD, &x->norm_spread),
		EV_PLAN_FIELD(EV_PLAN_TEXT_WEIGHT_TITLE, &x->w_title),
		EV_PLAN_FIELD(EV_PLAN_TEXT_WEIGHT_SECTION, &x->w_section),
		EV_PLAN_FIELD(EV_PLAN_TEXT_WEIGHT_TEXT, &x->w_text),
		EV_PLAN_FIELD(EV_PLAN_VECTOR_K, &t->vector_k),
		EV_PLAN_FIELD(EV_PLAN_VECTOR_FEEDBACK, &t->vector_feedback),
		EV_PLAN_FIELD(EV_PLAN_VECTOR_FEEDBACK_WEIGHT, &t->vector_feedback_weight),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_METHOD, f, set_method),
		EV_PLAN_FIELD(EV_PLAN_FUSION_RRF_K, &f->rrf_k),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_NORMALIZATION, f, set_norm),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_WEIGHTS, f, set_weight),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_FLOOR, f, set_floor),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_GROUP, f, set_group),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_ADAPT, f, set_adapt),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_ANCHOR, f, set_anchor),
		EV_PLAN_FIELD(EV_PLAN_FUSION_AGREEMENT_DEPTH, &f->agree_depth),
		EV_PLAN_FIELD(EV_PLAN_FUSION_AGREEMENT_FULL, &f->agree_full),
		EV_PLAN_FIELD_SET(EV_PLAN_FUSION_AGREEMENT_FROM, f, set_agree_from),
		/* the lanes' other keys, which a trial does not vary: checked as
		 * their stages check them, not kept */
		EV_PLAN_CHECKED(EV_PLAN_TEXT_ALL_TERMS),
		EV_PLAN_CHECKED(EV_PLAN_TEXT_RAW_FTS),
		EV_PLAN_CHECKED(EV_PLAN_TEXT_SNIPPET_OPEN),
		EV_PLAN_CHECKED(EV_PLAN_TEXT_SNIPPET_CLOSE),
		EV_PLAN_CHECKED(EV_PLAN_TEXT_SNIPPET_TOKENS),
		EV_PLAN_CHECKED(EV_PLAN_TEXT_EXHAUSTIVE),
		EV_PLAN_CHECKED(EV_PLAN_TEXT_THREADS),
		EV_PLAN_CHECKED(EV_PLAN_TEXT_SKIP_INVALID),
		EV_PLAN_CHECKED(EV_PLAN_VECTOR_MIN_SCORE),
		EV_PLAN_CHECKED(EV_PLAN_VECTOR_EF_SEARCH),
		EV_PLAN_CHECKED(EV_PLAN_VECTOR_NPROBE),
		EV_PLAN_CHECKED(EV_PLAN_VECTOR_PAIRWISE),
		EV_PLAN_CHECKED(EV_PLAN_VECTOR_SNIPPET),
		/* how many fused hits are kept and written: not the ranking judged */
		EV_PLAN_CHECKED(EV_PLAN_FUSION_K),
		EV_PLAN_CHECKED(EV_PLAN_FUSION_EXPLAIN),
		EV_PLAN_CHECKED(EV_PLAN_FUSION_SKIP_INVALID),
	};

	return ev_plan_read_stages(plan, file, tune_stages, fields, sizeof fields / sizeof fields[0],
	    NULL, err);
}

/* ---- Reading the queries ------------------------------------------------ */

json_t *
ev_tune_read_queries(struct ev_jsonl *in, int (*skip)(void *ctx, struct ev_err *err), void *ctx,
    struct ev_err *err)
{
	json_t *all = json_array(), *v, *q;
	int r = -1;

	while (all != NULL && (r = ev_jsonl_next(in, &v, err)) != 0) {
		q = r == 1 ? ev_query_record(v, ev_jsonl_seqno(in), ev_jsonl_where(in), err) : NULL;
		if (r == 1)
			json_decref(v);
		if (q != NULL && json_array_append_new(all, q) == -1) {
			r = ev_err_nomem(err);
			break;
		}
		if (q == NULL && (skip == NULL || !skip(ctx, err))) {
			r = -1;
			break;
		}
	}
	if (all == NULL)
		ev_err_nomem(err);
	if (r != 0) {
		json_decref(all);
		return NULL;
	}
	return all;
}

/* ---- Pseudo-queries ------------------------------------------------------ */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Sentences of text: [start, end) pairs into se (at most max), ending at
 * '.', '?' or '!' before a blank, or at a blank line.  Returns the count. */
static int
sentences(const char *text, size_t len, size_t (*se)[2], int max)
{
	size_t start = 0;
	int n = 0;

	for (size_t i = 0; i <= len && n < max; i++) {
		int stop = i == len ||
		    ((text[i] == '.' || text[i] == '?' || text[i] == '!') &&
		    (i + 1 == len || is_blank(text[i + 1]))) ||
		    (text[i] == '\n' && i + 1 < len && text[i + 1] == '\n');

		if (!stop)
			continue;
		if (i > start) {
			se[n][0] = start;
			se[n][1] = i;
			n++;
		}
		start = i + 1;
	}
	return n;
}

static int
count_words(const char *s, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		if (!is_blank(s[i]) && (i == 0 || is_blank(s[i - 1])))
			n++;
	return n;
}

/* Every other word of s[0..len), from word `first` (0 or 1), into b. */
static int
every_other_word(struct ev_buf *b, const char *s, size_t len, int first)
{
	int w = -1;

	ev_buf_reset(b);
	for (size_t i = 0; i < len; i++) {
		if (is_blank(s[i]))
			continue;
		if (i == 0 || is_blank(s[i - 1]))
			w++;
		if (w % 2 != first)
			continue;
		if ((i == 0 || is_blank(s[i - 1])) && b->len > 0 && ev_buf_addc(b, ' ') == -1)
			return -1;
		if (ev_buf_addc(b, s[i]) == -1)
			return -1;
	}
	return 0;
}

#define PSEUDO_MIN_WORDS 6
#define PSEUDO_MAX_WORDS 40
#define PSEUDO_SENTENCES 64

/* The pseudo-query of one chunk into q (empty when it has no usable
 * sentence). */
static int
pseudo_text(const char *text, size_t len, uint64_t *s, struct ev_buf *q)
{
	size_t se[PSEUDO_SENTENCES][2];
	int idx[PSEUDO_SENTENCES], n = sentences(text, len, se, PSEUDO_SENTENCES), m = 0;

	ev_buf_reset(q);
	for (int i = 0; i < n; i++) {
		int w = count_words(text + se[i][0], se[i][1] - se[i][0]);

		if (w >= PSEUDO_MIN_WORDS && w <= PSEUDO_MAX_WORDS)
			idx[m++] = i;
	}
	if (m == 0)
		return 0;
	int pick = idx[rng_below(s, (size_t)m)];

	return every_other_word(q, text + se[pick][0], se[pick][1] - se[pick][0],
	    (int)rng_below(s, 2));
}

long
ev_tune_pseudo(struct ev_store *st, long n, uint64_t seed, json_t *queries,
    struct ev_qrels *qrels, struct ev_err *err)
{
	sqlite3_stmt *all = NULL, *one = NULL;
	size_t *rowids = NULL, nrow = 0, cap = 0;
	struct ev_buf q = EV_BUF_INIT, line = EV_BUF_INIT;
	uint64_t s = rng_init(seed ^ 0x5bd1e995ULL);
	long made = 0;
	int rc = -1, r;

	if ((all = ev_store_prepare(st, "SELECT rowid FROM chunks ORDER BY rowid", err)) == NULL ||
	    (one = ev_store_prepare(st, "SELECT doc_id, text FROM chunks WHERE rowid = ?", err)) == NULL)
		goto out;
	while ((r = sqlite3_step(all)) == SQLITE_ROW) {
		if (nrow == cap) {
			size_t *p = realloc(rowids, (cap = cap ? cap * 2 : 1024) * sizeof *p);

			if (p == NULL) {
				ev_err_nomem(err);
				goto out;
			}
			rowids = p;
		}
		rowids[nrow++] = (size_t)sqlite3_column_int64(all, 0);
	}
	if (r != SQLITE_DONE) {
		ev_store_error(st, "reading the chunks", err);
		goto out;
	}
	shuffle(rowids, nrow, &s);
	for (size_t i = 0; i < nrow && made < n; i++) {
		const char *doc, *text;
		char qid[32];

		sqlite3_reset(one);
		sqlite3_bind_int64(one, 1, (sqlite3_int64)rowids[i]);
		if ((r = sqlite3_step(one)) != SQLITE_ROW) {
			if (r == SQLITE_DONE)
				continue;
			ev_store_error(st, "reading a chunk", err);
			goto out;
		}
		doc = (const char *)sqlite3_column_text(one, 0);
		text = (const char *)sqlite3_column_text(one, 1);
		if (doc == NULL || text == NULL || doc[0] == '\0' || strpbrk(doc, " \t\r\n") != NULL)
			continue;	/* a qrels line could not name it */
		if (pseudo_text(text, (size_t)sqlite3_column_bytes(one, 1), &s, &q) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		if (q.len == 0)
			continue;
		snprintf(qid, sizeof qid, "pseudo-%ld", made + 1);
		ev_buf_reset(&line);
		if (ev_buf_printf(&line, "%s %s 1", qid, doc) == -1 ||
		    json_array_append_new(queries, json_pack("{s:s,s:s}", "query_id", qid, "query",
		    ev_buf_str(&q))) == -1) {
			ev_err_nomem(err);
			goto out;
		}
		if (ev_qrels_add_line(qrels, line.p, line.len, "pseudo-queries", err) == -1)
			goto out;
		made++;
	}
	if (made < 2) {	/* ev_tune_search() would blame the qrels, which are these */
		ev_err_set(err, EV_EXIT_USAGE, ev_store_path(st), "%ld pseudo-queries could be made "
		    "(each of a chunk with a sentence of 6 to 40 words), and cross-validation "
		    "needs two: give --qrels FILE and the queries it judges", made);
		goto out;
	}
	rc = 0;
out:
	if (all != NULL)	/* the store's cached statements: reset, never finalized */
		sqlite3_reset(all);
	if (one != NULL)
		sqlite3_reset(one);
	free(rowids);
	ev_buf_release(&q);
	ev_buf_release(&line);
	return rc == -1 ? -1 : made;
}

/* ---- The grid ------------------------------------------------------------ */

/* The text lane's grid: proximity x feedback x title weight (the section
 * title weighing as the title, the text 1), fixed points that need not hold
 * the lane's defaults (plan.h): grid_text() tries the plan's own values
 * first (the defaults where the plan gives none), then each point of the
 * grid that differs from them. */
static const double grid_proximity[] = { 0, 0.2, 0.4 };
static const struct { int docs, terms; double weight; } grid_feedback[] = {
	{ 0, 20, 0.5 }, { 10, 20, 0.3 }, { 10, 20, 0.5 }
};
static const double grid_title[] = { 1, 2.5 };

/* The fusion's grid: the share of the two lanes' weight of the vector lane (or of
 * the feedback lane, when the plan has it). */
static const double grid_share[] = { 0.3, 0.5, 0.7 };
static const double grid_rrf_share[] = { 0.5, 0.7 };
static const double grid_rrf_k[] = { 20, 60 };

#define NTEXT (1 + sizeof grid_proximity / sizeof grid_proximity[0] * \
	(sizeof grid_feedback / sizeof grid_feedback[0]) * (sizeof grid_title / sizeof grid_title[0]))
#define NFUSE (1 + 2 + 1 + 3 * sizeof grid_share / sizeof grid_share[0] + \
	sizeof grid_rrf_k / sizeof grid_rrf_k[0] * (sizeof grid_rrf_share / sizeof grid_rrf_share[0]))

static int
same_text(const struct ev_textsearch_opts *a, const struct ev_textsearch_opts *b)
{
	return a->proximity == b->proximity && a->w_title == b->w_title &&
	    a->w_section == b->w_section && a->w_text == b->w_text &&
	    a->feedback_docs == b->feedback_docs &&
	    (a->feedback_docs == 0 || (a->feedback_terms == b->feedback_terms &&
	    a->feedback_weight == b->feedback_weight));
}

static int
same_fuse(const struct ev_fuse_opts *a, const struct ev_fuse_opts *b)
{
	return a->method == b->method && a->group == b->group &&
	    (a->method == EV_FUSE_RRF ? a->rrf_k == b->rrf_k :
	    ev_fuse_norm_effective(a) == ev_fuse_norm_effective(b)) &&
	    ev_fuse_weight_get(a, "text") == ev_fuse_weight_get(b, "text") &&
	    ev_fuse_weight_get(a, "vector") == ev_fuse_weight_get(b, "vector") &&
	    ev_fuse_weight_get(a, "vector_feedback") == ev_fuse_weight_get(b, "vector_feedback");
}

static size_t
grid_text(const struct ev_textsearch_opts *def, struct ev_textsearch_opts *out)
{
	size_t n = 1;

	out[0] = *def;
	for (size_t p = 0; p < sizeof grid_proximity / sizeof grid_proximity[0]; p++)
		for (size_t f = 0; f < sizeof grid_feedback / sizeof grid_feedback[0]; f++)
			for (size_t t = 0; t < sizeof grid_title / sizeof grid_title[0]; t++) {
				struct ev_textsearch_opts x = *def;
				size_t i;

				x.proximity = grid_proximity[p];
				x.feedback_docs = grid_feedback[f].docs;
				x.feedback_terms = grid_feedback[f].terms;
				x.feedback_weight = grid_feedback[f].weight;
				x.w_title = x.w_section = grid_title[t];
				x.w_text = 1;
				for (i = 0; i < n && !same_text(&out[i], &x); i++)
					;
				if (i == n)
					out[n++] = x;
			}
	return n;
}

/* Add to out[0..n) the fusion by method m (normalisation norm, rrf_k) of
 * the text lane and lane `lane` ("vector", or "vector_feedback" when the
 * plan has the feedback lane) weighing share of the two, the rest of *def
 * kept, unless out holds it already.  Returns the new count. */
static size_t
add_fuse(struct ev_fuse_opts *out, size_t n, const struct ev_fuse_opts *def, const char *lane,
    enum ev_fuse_method m, enum ev_fuse_norm norm, double rrf_k, double share)
{
	struct ev_fuse_opts o = *def;
	struct ev_err err;
	size_t i;

	o.method = m;
	o.norm = norm;
	o.rrf_k = rrf_k;
	if (ev_fuse_weight_set(&o, lane, share, &err) == -1 ||
	    ev_fuse_weight_set(&o, "text", round((1 - share) * 1e6) / 1e6, &err) == -1)
		return n;	/* cannot happen: two known lanes, finite weights */
	for (i = 0; i < n && !same_fuse(&out[i], &o); i++)
		;
	if (i == n)
		out[n++] = o;
	return n;
}

static size_t
grid_fuse(const struct ev_fuse_opts *def, const char *lane, struct ev_fuse_opts *out)
{
	static const enum ev_fuse_norm norms[] = { EV_NORM_MAX, EV_NORM_MINMAX, EV_NORM_ZSCORE };
	size_t n = 1;

	out[0] = *def;
	n = add_fuse(out, n, def, lane, EV_FUSE_WEIGHTED, EV_NORM_NONE, def->rrf_k, 0);	/* text alone */
	n = add_fuse(out, n, def, lane, EV_FUSE_WEIGHTED, EV_NORM_NONE, def->rrf_k, 1);	/* vector alone */
	for (size_t s = 0; s < sizeof grid_share / sizeof grid_share[0]; s++)
		for (size_t k = 0; k < sizeof norms / sizeof norms[0]; k++)
			n = add_fuse(out, n, def, lane, EV_FUSE_WEIGHTED, norms[k], def->rrf_k, grid_share[s]);
	n = add_fuse(out, n, def, lane, EV_FUSE_COMBMNZ, EV_NORM_MINMAX, def->rrf_k, 0.5);
	for (size_t k = 0; k < sizeof grid_rrf_k / sizeof grid_rrf_k[0]; k++)
		for (size_t s = 0; s < sizeof grid_rrf_share / sizeof grid_rrf_share[0]; s++)
			n = add_fuse(out, n, def, lane, EV_FUSE_RRF, def->norm, grid_rrf_k[k], grid_rrf_share[s]);
	return n;
}

/* ---- The search ---------------------------------------------------------- */

/* A query being tuned on: its record, its id, and each lane's hits as
 * compact hit lines (newline-separated). */
struct tq {
	json_t *rec;
	char *qid;		/* of any length (owned) */
	struct ev_buf text, vector, feedback;
};

struct search {
	struct ev_store *st;
	struct ev_vindex *ix;
	const struct ev_qrels *qrels;
	const struct ev_tune_opts *o;
	struct tq *q;
	size_t nq;
	json_t *index;		/* query id -> its position in q[] */
	double *fig;		/* fig[trial * nq + query] */
	size_t trial;		/* the trial being judged */
	json_t *judged;		/* the qrels' query ids (while finding them) */
	float *qvec;		/* the queries' vectors (nq × dim), or NULL */
	int *qok;		/* ... whether each has a direction */
};

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
collect_judged(const char *qid, const struct ev_eval_figures *f, void *ctx, struct ev_err *err)
{
	struct search *S = ctx;

	(void)f;
	if (json_object_set_new(S->judged, qid, json_true()) == -1)
		return ev_err_nomem(err);
	return 0;
}

static int
record_figure(const char *qid, const struct ev_eval_figures *f, void *ctx, struct ev_err *err)
{
	struct search *S = ctx;
	json_t *i = json_object_get(S->index, qid);

	(void)err;
	if (i != NULL)
		S->fig[S->trial * S->nq + (size_t)json_integer_value(i)] = metric_value(f, S->o->metric);
	return 0;
}

/* The queries of `queries` the qrels judge, into S->q. */
static int
pick_queries(struct search *S, json_t *queries, size_t *unjudged, struct ev_err *err)
{
	struct ev_run *run = ev_run_new(err);
	struct ev_eval_summary sum;
	struct ev_buf id = EV_BUF_INIT;
	size_t i;
	json_t *v;
	int rc = -1, r;

	*unjudged = 0;
	if (run == NULL)
		return -1;
	if ((S->judged = json_object()) == NULL || (S->index = json_object()) == NULL ||
	    (S->q = calloc(json_array_size(queries) + 1, sizeof *S->q)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	if (ev_eval_measure(S->qrels, run, &S->o->eval, collect_judged, S, &sum, err) == -1)
		goto out;
	json_array_foreach(queries, i, v) {
		struct tq *t = &S->q[S->nq];

		if ((r = ev_json_id_buf(json_object_get(v, "query_id"), &id)) == -2) {
			ev_err_nomem(err);
			goto out;
		}
		if (r == -1 || json_object_get(S->judged, ev_buf_str(&id)) == NULL) {
			(*unjudged)++;
			continue;
		}
		if (json_object_get(S->index, ev_buf_str(&id)) != NULL) {
			rc = ev_err_set(err, EV_EXIT_USAGE, NULL,
			    "query '%s' is given twice: query ids must be unique", ev_buf_str(&id));
			goto out;
		}
		if ((t->qid = strdup(ev_buf_str(&id))) == NULL ||
		    json_object_set_new(S->index, t->qid, json_integer((json_int_t)S->nq)) == -1) {
			free(t->qid);
			t->qid = NULL;
			ev_err_nomem(err);
			goto out;
		}
		t->rec = v;
		S->nq++;
	}
	rc = 0;
out:
	ev_buf_release(&id);
	ev_run_free(run);
	return rc;
}

/* "id":ID,"doc_id":DOC into b (emptied).  Returns 0 or -1. */
static int
id_fields(struct ev_buf *b, const char *id, const char *doc)
{
	ev_buf_reset(b);
	return ev_buf_adds(b, "\"id\":") == -1 || ev_jscan_put_str(b, id, strlen(id)) == -1 ||
	    ev_buf_adds(b, ",\"doc_id\":") == -1 || ev_jscan_put_str(b, doc, strlen(doc)) == -1 ?
	    -1 : 0;
}

/* Append the start of one compact hit line of lane to b, up to its score:
 * the fields fusion and judging read.  The caller adds the score and "}\n". */
static int
hit_line(struct ev_buf *b, const char *lane, const char *fields, size_t flen, long rank)
{
	return ev_buf_addc(b, '{') == -1 || ev_buf_add(b, fields, flen) == -1 ||
	    ev_buf_printf(b, ",\"lane\":\"%s\",\"rank\":%ld,\"score\":", lane, rank) == -1 ? -1 : 0;
}

/* The fields of a compact hit line: "id":...,"doc_id":... of chunk rowid,
 * into b (emptied).  Returns 1, 0 when no chunk has that rowid, or -1. */
static int
chunk_fields(struct ev_store *st, int64_t rowid, struct ev_buf *b, struct ev_err *err)
{
	json_t *obj = json_object();
	char *text = NULL;
	int r;

	ev_buf_reset(b);
	if (obj == NULL)
		return ev_err_nomem(err);
	r = ev_hitfields_add(st, rowid, obj, &text, err);
	free(text);
	if (r == 1)
		r = id_fields(b, json_string_value(json_object_get(obj, "id")),
		    json_string_value(json_object_get(obj, "doc_id"))) == -1 ? ev_err_nomem(err) : 1;
	json_decref(obj);
	return r;
}

/* Every query's vector, by the store's embedder (whose read transaction
 * ends before the searches begin theirs), into vecs[nq * dim]; ok[i] is 0
 * for a query without a word the model knows. */
static int
embed_queries(struct search *S, float *vecs, int *ok, struct ev_err *err)
{
	struct ev_embed *em = ev_embed_open(S->st, err);
	int dim = ev_vindex_dim(S->ix), rc = -1, r;

	if (em == NULL)
		return -1;
	if (strcmp(ev_embed_model_id(em), ev_vindex_model(S->ix)) != 0 || ev_embed_dim(em) != dim) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, "the index holds vectors of model '%s', not of the "
		    "store's embedder ('%s'): ev-tune embeds queries with the store's embedder",
		    ev_vindex_model(S->ix), ev_embed_model_id(em));
		goto out;
	}
	for (size_t i = 0; i < S->nq; i++) {
		const char *text = json_string_value(json_object_get(S->q[i].rec, "query"));
		const char *lang = json_string_value(json_object_get(S->q[i].rec, "language"));
		size_t len = strlen(text);

		/* its own language, else the store's (a bad code: the store's too,
		 * as the text lane's searches of this query are checked) */
		if (ev_embed_set_lang(em, lang) == -1)
			ev_embed_set_lang(em, NULL);
		if ((r = ev_embed_texts(em, &text, &len, 1, EV_EMBED_QUERY, vecs + i * (size_t)dim,
		    err)) == -1)
			goto out;
		ok[i] = r;
	}
	rc = 0;
out:
	ev_embed_close(em);
	return rc;
}

/* Search the queries' vectors vecs (those with ok[i] set) for k hits each
 * and write them as hit lines into each query's vector lines (lane
 * "vector"), or with feedback set its feedback lines (lane
 * "vector_feedback"), reset first: the queries without filters in one batch
 * (as ev-search-vec does), the others one by one.  Returns 0 or -1 with
 * *err set. */
static int
search_lane(struct search *S, const float *vecs, const int *ok, long long k, int feedback,
    struct ev_err *err)
{
	const char *lane = feedback ? "vector_feedback" : "vector";
	int dim = ev_vindex_dim(S->ix), rc = -1, began = 0;
	float *scores = malloc(S->nq * (size_t)k * sizeof *scores);
	int64_t *ids = malloc(S->nq * (size_t)k * sizeof *ids), *allowed = NULL;
	struct ev_buf fields = EV_BUF_INIT;

	if (scores == NULL || ids == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	if (ev_vindex_batch_begin(S->ix, err) == -1)
		goto out;
	began = 1;
	if (ev_vindex_search(S->ix, (long long)S->nq, vecs, (int)k, scores, ids, err) == -1)
		goto out;
	for (size_t i = 0; i < S->nq; i++) {
		struct ev_buf *b = feedback ? &S->q[i].feedback : &S->q[i].vector;
		json_t *filters = json_object_get(S->q[i].rec, "filters");
		float *sc = scores + i * (size_t)k;
		int64_t *id = ids + i * (size_t)k;
		size_t nallowed;
		long rank = 0;
		int nout = (int)k, r;

		ev_buf_reset(b);
		if (!ok[i])
			continue;	/* no direction: no hits, as ev-search-vec */
		if (filters != NULL) {
			free(allowed);
			allowed = NULL;
			if (ev_qfilter_rowids(S->st, filters, S->q[i].qid, &allowed, &nallowed,
			    err) == -1 ||
			    ev_vindex_search_among(S->ix, vecs + i * (size_t)dim, (int)k, allowed,
			    nallowed, sc, id, &nout, err) == -1)
				goto out;
		}
		for (int j = 0; j < nout && id[j] >= 0; j++) {
			if ((r = chunk_fields(S->st, id[j], &fields, err)) == -1)
				goto out;
			if (r == 0)
				continue;
			/* the score as ev-search-vec writes it */
			if (hit_line(b, lane, fields.p, fields.len, ++rank) == -1 ||
			    ev_jscan_put_real(b, sc[j]) == -1 || ev_buf_adds(b, "}\n") == -1) {
				ev_err_nomem(err);
				goto out;
			}
		}
	}
	rc = 0;
out:
	if (began)
		ev_vindex_batch_end(S->ix);
	free(scores);
	free(ids);
	free(allowed);
	ev_buf_release(&fields);
	return rc;
}

/* The vector lane's hits of every query, once; the queries' vectors are
 * kept (S->qvec, S->qok) for the feedback lane. */
static int
search_vector(struct search *S, long long k, struct ev_err *err)
{
	int dim = ev_vindex_dim(S->ix);

	if ((S->qvec = malloc(S->nq * (size_t)dim * sizeof *S->qvec)) == NULL ||
	    (S->qok = malloc(S->nq * sizeof *S->qok)) == NULL)
		return ev_err_nomem(err);
	if (embed_queries(S, S->qvec, S->qok, err) == -1)
		return -1;
	return search_lane(S, S->qvec, S->qok, k, 0, err);
}

/* The feedback lane's hits of every query, for the text hits held now: each
 * query's vector folded with the stored vectors of its first n text hits
 * (as ev-search-vec --feedback-hits does), searched for k. */
static int
search_feedback(struct search *S, long long k, int n, double weight, struct ev_err *err)
{
	int dim = ev_vindex_dim(S->ix), rc = -1;
	float *vecs = malloc(S->nq * (size_t)dim * sizeof *vecs);
	float *scratch = malloc(2 * (size_t)dim * sizeof *scratch);
	int *ok = malloc(S->nq * sizeof *ok);
	json_t *hits = json_array();
	const char *ids[EV_VSEARCH_FEEDBACK_MAX];

	if (vecs == NULL || scratch == NULL || ok == NULL || hits == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	memcpy(vecs, S->qvec, S->nq * (size_t)dim * sizeof *vecs);
	for (size_t i = 0; i < S->nq; i++) {
		const char *p = S->q[i].text.p, *end = p + S->q[i].text.len;
		float *x = vecs + i * (size_t)dim;
		int m = 0;

		json_array_clear(hits);
		while (p < end && m < n) {	/* the text lane's lines, best first */
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			json_t *h = ev_json_parse_line(p, (size_t)(nl - p), NULL, err);

			if (h == NULL)
				goto out;
			if (json_array_append_new(hits, h) == -1) {
				ev_err_nomem(err);
				goto out;
			}
			ids[m++] = json_string_value(json_object_get(h, "id"));
			p = nl + 1;
		}
		if ((ok[i] = ev_vsearch_fold(S->ix, x, ids, m, weight, scratch, NULL, err)) == -1)
			goto out;
	}
	rc = search_lane(S, vecs, ok, k, 1, err);
out:
	json_decref(hits);
	free(vecs);
	free(scratch);
	free(ok);
	return rc;
}

/* The text lane's hits of every query with options *x. */
static int
search_text(struct search *S, const struct ev_textsearch_opts *x, struct ev_err *err)
{
	struct ev_textsearch *ts = ev_textsearch_open(S->st, x, err);
	json_t *hits = json_array(), *h;
	struct ev_buf fields = EV_BUF_INIT;
	size_t j;
	int flags, rc = -1;

	if (ts == NULL || hits == NULL) {
		if (ts != NULL)
			ev_err_nomem(err);
		goto out;
	}
	for (size_t i = 0; i < S->nq; i++) {
		ev_buf_reset(&S->q[i].text);
		json_array_clear(hits);
		if (ev_textsearch_query(ts, S->q[i].rec, S->q[i].qid, hits, &flags, err) == -1)
			goto out;
		json_array_foreach(hits, j, h) {
			const char *id = json_string_value(json_object_get(h, "id"));
			const char *doc = json_string_value(json_object_get(h, "doc_id"));
			json_t *signals = json_object_get(h, "signals");

			/* written as ev-search-text writes them: reals to 10
			 * digits; and the signal by which the fusion gives the
			 * feedback lane no weight for a query read as a document */
			if (id_fields(&fields, id, doc) == -1 ||
			    hit_line(&S->q[i].text, "text", fields.p, fields.len, (long)(j + 1)) == -1 ||
			    ev_jscan_put_real(&S->q[i].text,
			    json_number_value(json_object_get(h, "score"))) == -1 ||
			    (json_is_true(json_object_get(signals, "query_as_document")) &&
			    ev_buf_adds(&S->q[i].text, ",\"signals\":{\"query_as_document\":true}") == -1) ||
			    ev_buf_adds(&S->q[i].text, "}\n") == -1) {
				ev_err_nomem(err);
				goto out;
			}
		}
	}
	rc = 0;
out:
	ev_buf_release(&fields);
	json_decref(hits);
	ev_textsearch_close(ts);
	return rc;
}

/* Feed the hit lines of b to the fusion. */
static int
add_lines(struct ev_fuse *f, const struct ev_buf *b, const char *where, struct ev_err *err)
{
	const char *p = b->p, *end = b->p + b->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (ev_fuse_add_line(f, p, (size_t)(nl - p), where, err) == -1)
			return -1;
		p = nl + 1;
	}
	return 0;
}

/* The depth of a ranking the metric looks at (0: all of it). */
static long
metric_depth(const struct ev_tune_opts *o)
{
	switch (o->metric) {
	case EV_TUNE_NDCG:
		return o->eval.ndcg_k;
	case EV_TUNE_RECALL:
		return o->eval.recall_k;
	case EV_TUNE_P:
		return o->eval.p_k;
	default:
		return 0;
	}
}

/* Fuse the current query's hits and add the ranking to run.  Only the
 * first `depth` fused hits are made when they hold `depth` documents (the
 * metric sees no further); else all of them. */
static int
fuse_query(struct ev_fuse *f, struct ev_fuse *all, const struct tq *q, int fused,
    struct ev_run *run, long depth, struct ev_err *err)
{
	json_t *out = NULL, *h, *docs = NULL;
	size_t j, n;
	int rc = -1;

	for (int pass = 0; pass < 2; pass++) {
		struct ev_fuse *g = pass == 0 ? f : all;

		if (ev_fuse_begin(g, q->qid, err) == -1 || add_lines(g, &q->text, q->qid, err) == -1 ||
		    (fused && add_lines(g, &q->vector, q->qid, err) == -1) ||
		    (fused && add_lines(g, &q->feedback, q->qid, err) == -1) ||
		    (out = ev_fuse_hits(g, err)) == NULL)
			goto out;
		if (pass == 1 || depth == 0 || (long)json_array_size(out) < depth)
			break;	/* the whole ranking */
		if ((docs = json_object()) == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		json_array_foreach(out, j, h)
			json_object_set(docs, json_string_value(json_object_get(h, "doc_id")), json_true());
		if ((long)json_object_size(docs) >= depth)
			break;	/* every document the metric sees */
		json_decref(out);
		out = NULL;
	}
	json_array_foreach(out, j, h)
		if (ev_run_add(run, q->qid, json_string_value(json_object_get(h, "doc_id")), 1,
		    (double)json_integer_value(json_object_get(h, "rank")), 1,
		    json_number_value(json_object_get(h, "score")), q->qid, err) == -1)
			break;
	n = json_array_size(out);
	rc = j < n ? -1 : 0;
out:
	json_decref(docs);
	json_decref(out);
	return rc;
}

/* Judge trial S->trial: the text hits held now fused by *fo (or alone). */
static int
judge(struct search *S, const struct ev_fuse_opts *fo, int fused, struct ev_err *err)
{
	struct ev_fuse_opts o = *fo;
	struct ev_fuse *f = NULL, *all = NULL;
	struct ev_run *run = NULL;
	struct ev_eval_summary sum;
	long depth = metric_depth(S->o);
	int rc = -1;

	if (!fused) {	/* the text lane's order, as fusion of one lane keeps it */
		ev_fuse_opts_init(&o);
		o.method = EV_FUSE_WEIGHTED;
		o.norm = EV_NORM_NONE;
	}
	o.explain = 0;
	o.k = 0;
	if ((all = ev_fuse_new(&o, err)) == NULL)
		goto out;
	o.k = depth;
	if ((f = ev_fuse_new(&o, err)) == NULL || (run = ev_run_new(err)) == NULL)
		goto out;
	for (size_t i = 0; i < S->nq; i++)
		if (fuse_query(f, all, &S->q[i], fused, run, depth, err) == -1)
			goto out;
	for (size_t i = 0; i < S->nq; i++)
		S->fig[S->trial * S->nq + i] = 0;	/* a query without hits scores 0 */
	rc = ev_eval_measure(S->qrels, run, &S->o->eval, record_figure, S, &sum, err);
out:
	ev_run_free(run);
	ev_fuse_free(f);
	ev_fuse_free(all);
	return rc;
}

static void
search_free(struct search *S)
{
	for (size_t i = 0; S->q != NULL && i < S->nq; i++) {
		free(S->q[i].qid);
		ev_buf_release(&S->q[i].text);
		ev_buf_release(&S->q[i].vector);
		ev_buf_release(&S->q[i].feedback);
	}
	free(S->qvec);
	free(S->qok);
	free(S->q);
	free(S->fig);
	json_decref(S->index);
	json_decref(S->judged);
}

/* Each fold's choice that is not the plan's trial best, described into
 * r->fold_choice ("the defaults" for trial 0; r->best holding the rest of
 * the trial). */
static int
describe_folds(struct ev_tune_result *r, size_t best, const struct ev_textsearch_opts *texts,
    const struct ev_fuse_opts *fuses, size_t nf, struct ev_err *err)
{
	struct ev_buf b = EV_BUF_INIT;
	int rc = 0;

	for (int f = 0; f < r->folds && rc == 0; f++) {
		struct ev_tune_trial t = r->best;

		r->fold_choice[f][0] = '\0';
		if (r->fold_trial[f] == best)
			continue;
		if (r->fold_trial[f] == 0) {
			snprintf(r->fold_choice[f], sizeof r->fold_choice[f], "the defaults");
			continue;
		}
		t.text = texts[r->fold_trial[f] / nf];
		if (fuses != NULL)
			t.fuse = fuses[r->fold_trial[f] % nf];
		ev_buf_reset(&b);
		if (ev_tune_describe(&b, &t) == -1)
			rc = ev_err_nomem(err);
		else
			snprintf(r->fold_choice[f], sizeof r->fold_choice[f], "%s", ev_buf_str(&b));
	}
	ev_buf_release(&b);
	return rc;
}

int
ev_tune_search(struct ev_store *st, struct ev_vindex *ix, json_t *queries,
    const struct ev_qrels *qrels, const struct ev_tune_trial *defaults,
    const struct ev_tune_opts *o, ev_tune_progress_fn *progress, void *ctx,
    size_t *unjudged, struct ev_tune_result *r, struct ev_err *err)
{
	struct search S = { .st = st, .ix = ix, .qrels = qrels, .o = o };
	struct ev_textsearch_opts texts[NTEXT];
	struct ev_fuse_opts grid[NFUSE];
	const struct ev_fuse_opts *fuses = o->fuse_grid != NULL ? o->fuse_grid : grid;
	size_t nt = o->fuse_grid != NULL ? (texts[0] = defaults->text, 1) :
	    grid_text(&defaults->text, texts);
	size_t nf = ix == NULL ? 1 : o->fuse_grid != NULL ? o->nfuse_grid : grid_fuse(&defaults->fuse,
	    defaults->vector_feedback > 0 ? "vector_feedback" : "vector", grid);
	double start = now_s();
	size_t best;
	int *fold = NULL, k, rc = -1;

	memset(r, 0, sizeof *r);
	r->grid = (long long)(nt * nf);
	if (pick_queries(&S, queries, unjudged, err) == -1)
		goto out;
	if (S.nq < 2) {
		ev_err_set(err, EV_EXIT_USAGE, NULL, S.nq == 0 ?
		    "no query is judged: the qrels name none of the queries' ids" :
		    "only one query is judged: cross-validation needs at least two");
		goto out;
	}
	if ((S.fig = malloc(nt * nf * S.nq * sizeof *S.fig)) == NULL ||
	    (fold = malloc(S.nq * sizeof *fold)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	if (ix != NULL && search_vector(&S, defaults->vector_k, err) == -1)
		goto out;
	for (size_t t = 0; t < nt && !r->budget_hit; t++) {
		if (search_text(&S, &texts[t], err) == -1 ||
		    (ix != NULL && defaults->vector_feedback > 0 &&
		    search_feedback(&S, defaults->vector_k, defaults->vector_feedback,
		    defaults->vector_feedback_weight, err) == -1))
			goto out;
		for (size_t f = 0; f < nf; f++) {
			if (r->trials > 0 && o->budget > 0 && now_s() - start > o->budget) {
				r->budget_hit = 1;
				break;
			}
			S.trial = t * nf + f;
			if (judge(&S, ix != NULL ? &fuses[f] : &defaults->fuse, ix != NULL, err) == -1)
				goto out;
			r->trials++;
			if (progress != NULL)
				progress(ctx, r->trials, r->grid);
		}
	}
	r->queries = S.nq;
	k = o->folds < (int)S.nq ? o->folds : (int)S.nq;
	ev_tune_folds(S.nq, k, o->seed, fold);
	best = ev_tune_cross_validate(S.fig, (size_t)r->trials, S.nq, fold, k, r);

	r->best = *defaults;
	r->best.text = texts[best / nf];
	if (ix != NULL)
		r->best.fuse = fuses[best % nf];
	r->best.fused = ix != NULL;
	r->best_defaults = best == 0;
	if (describe_folds(r, best, texts, ix != NULL ? fuses : NULL, nf, err) == -1)
		goto out;
	r->seconds = now_s() - start;
	rc = 0;
out:
	free(fold);
	search_free(&S);
	return rc;
}

/* ---- Writing a plan ------------------------------------------------------ */

/* Set the dotted path of doc to v (stolen), making the mappings on the way. */
static int
set_path(json_t *doc, const char *path, json_t *v)
{
	char key[128];
	const char *dot;
	json_t *sub;

	if (v == NULL)
		return -1;
	while ((dot = strchr(path, '.')) != NULL) {
		snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
		sub = json_object_get(doc, key);
		if (!json_is_object(sub)) {
			if ((sub = json_object()) == NULL || json_object_set_new(doc, key, sub) == -1) {
				json_decref(v);
				return -1;
			}
		}
		doc = sub;
		path = dot + 1;
	}
	return json_object_set_new(doc, path, v);
}

static int
plan_keys(json_t *doc, const struct ev_tune_trial *t)
{
	const struct ev_textsearch_opts *x = &t->text;
	const struct ev_fuse_opts *f = &t->fuse;
	int bad = 0;

	bad |= set_path(doc, "lanes.text.k", json_integer(x->k));
	bad |= set_path(doc, "lanes.text.proximity", json_real(x->proximity));
	if (json_is_object(ev_config_get(doc, "lanes.text.feedback"))) {	/* the mapping form */
		bad |= set_path(doc, "lanes.text.feedback.docs", json_integer(x->feedback_docs));
		bad |= set_path(doc, "lanes.text.feedback.terms", json_integer(x->feedback_terms));
		bad |= set_path(doc, "lanes.text.feedback.weight", json_real(x->feedback_weight));
	} else {
		bad |= set_path(doc, "lanes.text.feedback", json_integer(x->feedback_docs));
		bad |= set_path(doc, "lanes.text.feedback_terms", json_integer(x->feedback_terms));
		bad |= set_path(doc, "lanes.text.feedback_weight", json_real(x->feedback_weight));
	}
	bad |= set_path(doc, "lanes.text.fuzzy", json_integer(x->fuzzy));
	bad |= set_path(doc, "lanes.text.weights.title", json_real(x->w_title));
	bad |= set_path(doc, "lanes.text.weights.section_title", json_real(x->w_section));
	bad |= set_path(doc, "lanes.text.weights.text", json_real(x->w_text));
	if (!t->fused)
		return bad;
	bad |= set_path(doc, "lanes.vector.k", json_integer(t->vector_k));
	bad |= set_path(doc, "fusion.method", json_string(ev_fuse_method_name(f->method)));
	bad |= set_path(doc, "fusion.normalization",
	    json_string(ev_fuse_norm_name(ev_fuse_norm_effective(f))));
	bad |= set_path(doc, "fusion.rrf_k", json_real(f->rrf_k));
	for (int i = 0; i < f->nweights; i++) {
		char path[64];

		snprintf(path, sizeof path, "fusion.weights.%s", f->weights[i].lane);
		bad |= set_path(doc, path, json_real(f->weights[i].w));
	}
	bad |= set_path(doc, "fusion.group",
	    json_string(f->group == EV_GROUP_DOC ? "doc" : "chunk"));
	return bad;
}

static int
yaml_key(struct ev_buf *b, const char *k)
{
	size_t n = strspn(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

	if (k[0] != '\0' && k[n] == '\0' && k[0] != '-')
		return ev_buf_adds(b, k);
	return ev_jscan_put_str(b, k, strlen(k));
}

/* A scalar or a flow collection: JSON text is YAML too; a real keeps a
 * point so that it reads back as a real. */
static int
yaml_value(struct ev_buf *b, const json_t *v)
{
	if (json_is_real(v)) {
		char num[64];

		snprintf(num, sizeof num, "%.15g", json_real_value(v));
		if (strtod(num, NULL) != json_real_value(v))
			snprintf(num, sizeof num, "%.17g", json_real_value(v));
		if (strpbrk(num, ".eEn") == NULL)
			strcat(num, ".0");
		return ev_buf_adds(b, num);
	}
	if (json_is_string(v))
		return ev_jscan_put_str(b, json_string_value(v), json_string_length(v));
	if (json_is_integer(v))
		return ev_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	if (json_is_object(v))
		return ev_buf_adds(b, "{}");	/* a mapping with keys is a block */
	if (json_is_array(v) && json_array_size(v) == 0)
		return ev_buf_adds(b, "[]");
	if (json_is_array(v))
		return ev_json_dump(b, v);
	return ev_buf_adds(b, json_is_true(v) ? "true" : json_is_false(v) ? "false" : "null");
}

static int
yaml_map(struct ev_buf *b, const json_t *obj, int indent)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		if (ev_buf_printf(b, "%*s", indent, "") == -1 || yaml_key(b, k) == -1 ||
		    ev_buf_addc(b, ':') == -1)
			return -1;
		if (json_is_object(v) && json_object_size(v) > 0) {
			if (ev_buf_addc(b, '\n') == -1 || yaml_map(b, v, indent + 2) == -1)
				return -1;
		} else if (ev_buf_addc(b, ' ') == -1 || yaml_value(b, v) == -1 ||
		    ev_buf_addc(b, '\n') == -1) {
			return -1;
		}
	}
	return 0;
}

int
ev_tune_plan_write(struct ev_buf *b, const json_t *base, const struct ev_tune_trial *t,
    const char *header, struct ev_err *err)
{
	json_t *doc;
	int rc = -1;

	if (base != NULL) {
		doc = json_deep_copy(base);
	} else if ((doc = json_object()) != NULL) {
		struct ev_pack_opts p;

		ev_pack_opts_init(&p);
		if (set_path(doc, "version", json_string(EV_PACK_VERSION)) == -1 ||
		    set_path(doc, "lanes.text.k", json_integer(t->text.k)) == -1 ||
		    (t->fused && set_path(doc, "fusion.method", json_string("rrf")) == -1) ||
		    set_path(doc, "k", json_integer(p.k)) == -1 ||
		    set_path(doc, "diversity.by_document", json_integer(p.by_document)) == -1 ||
		    set_path(doc, "diversity.near_duplicates", json_boolean(p.near_duplicates)) == -1 ||
		    set_path(doc, "diversity.overlap", json_real(p.overlap)) == -1 ||
		    set_path(doc, "output.max_snippet_chars", json_integer(p.max_snippet_chars)) == -1) {
			json_decref(doc);
			doc = NULL;
		}
	}
	if (doc == NULL || plan_keys(doc, t) != 0 ||
	    (header != NULL && ev_buf_adds(b, header) == -1) || yaml_map(b, doc, 0) == -1)
		ev_err_nomem(err);
	else
		rc = 0;
	json_decref(doc);
	return rc;
}

int
ev_tune_yaml_write(struct ev_buf *b, const json_t *doc)
{
	return yaml_map(b, doc, 0);
}

int
ev_tune_describe(struct ev_buf *b, const struct ev_tune_trial *t)
{
	const struct ev_textsearch_opts *x = &t->text;
	const struct ev_fuse_opts *f = &t->fuse;
	int bad = ev_buf_printf(b, "proximity %g, feedback %d", x->proximity, x->feedback_docs);

	if (x->feedback_docs > 0)
		bad |= ev_buf_printf(b, "/%d/%g", x->feedback_terms, x->feedback_weight);
	bad |= ev_buf_printf(b, ", titles %g", x->w_title);
	if (x->w_section != x->w_title)
		bad |= ev_buf_printf(b, "/%g", x->w_section);
	if (!t->fused)
		return bad ? -1 : 0;
	if (f->method == EV_FUSE_RRF)
		bad |= ev_buf_printf(b, "; rrf k %g", f->rrf_k);
	else
		bad |= ev_buf_printf(b, "; %s %s", ev_fuse_method_name(f->method),
		    ev_fuse_norm_name(ev_fuse_norm_effective(f)));
	for (int i = 0; i < f->nweights; i++)
		bad |= ev_buf_printf(b, ", %s %g", f->weights[i].lane, f->weights[i].w);
	return bad ? -1 : 0;
}

int
ev_tune_report(struct ev_buf *b, const char *pre, const struct ev_tune_opts *o, const char *qrels,
    const struct ev_tune_result *r, long pseudo)
{
	char m[64];
	int bad = 0;

	ev_tune_metric_name(o, m, sizeof m);
	if (pseudo)
		bad |= ev_buf_printf(b, "%sno judgements given: calibrated on %ld pseudo-queries made from\n"
		    "%sthe store (every other word of a sentence, its document the one answer): a\n"
		    "%sfigure of finding known passages, not of answering real questions\n",
		    pre, pseudo, pre, pre);
	bad |= ev_buf_printf(b, "%stuned on %zu queries%s%s, %d folds, seed %llu:\n", pre,
	    r->queries, qrels ? " judged in " : "", qrels ? qrels : "", r->folds,
	    (unsigned long long)o->seed);
	bad |= ev_buf_printf(b, "%s%s %.4f cross-validated, against %.4f for the defaults on the same"
	    " folds (%+.1f %%)\n%sper fold, tuned/defaults:", pre, m, r->tuned, r->defaults,
	    r->defaults > 0 ? 100 * (r->tuned / r->defaults - 1) : 0.0, pre);
	for (int f = 0; f < r->folds; f++)
		bad |= ev_buf_printf(b, " %.4f/%.4f", r->fold_tuned[f], r->fold_defaults[f]);
	bad |= ev_buf_printf(b, "\n%sthis plan (the best on all queries%s) was the choice of %d of %d"
	    " folds;\n", pre, r->best_defaults ? ": the defaults" : "", r->fold_agree, r->folds);
	for (int f = 0; f < r->folds; f++)
		if (r->fold_choice[f][0] != '\0')
			bad |= ev_buf_printf(b, "%sfold %d chose: %s\n", pre, f + 1, r->fold_choice[f]);
	bad |= ev_buf_printf(b, "%s%lld of %lld configurations searched%s\n", pre, r->trials, r->grid,
	    r->budget_hit ? " (the budget ran out)" : "");
	return bad ? -1 : 0;
}
