/* calibrate.c: the store's calibration of the fusion's weights.  See
 * calibrate.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "buf.h"
#include "calibrate.h"
#include "jsonl.h"
#include "tune.h"

/* ---- Known-item pseudo-queries ----------------------------------------- */

/* A word of a text: bytes that are ASCII letters or digits, or not ASCII. */
static int
word_byte(unsigned char c)
{
	return c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* Call fn(word, ctx) for each word of text worth drawing (3 to 40 bytes,
 * not only digits), ASCII lowercased, into w (a 41-byte buffer).  Returns
 * 0, or -1 when fn does. */
static int
each_word(const char *text, int (*fn)(const char *word, void *ctx), void *ctx)
{
	const unsigned char *p = (const unsigned char *)text;
	char w[41];

	while (*p != '\0') {
		size_t n = 0;
		int letters = 0;

		while (*p != '\0' && !word_byte(*p))
			p++;
		for (; *p != '\0' && word_byte(*p); p++, n++)
			if (n < 40) {
				w[n] = (char)(*p >= 'A' && *p <= 'Z' ? *p | 0x20 : *p);
				letters |= !(*p >= '0' && *p <= '9');
			}
		if (n < 3 || n > 40 || !letters)
			continue;
		w[n] = '\0';
		if (fn(w, ctx) == -1)
			return -1;
	}
	return 0;
}

/* Counting words: counts[word] += 1, once a text when seen is given. */
struct counting {
	json_t *counts, *seen;
};

static int
count_word(const char *w, void *ctx)
{
	struct counting *c = ctx;
	json_t *v = json_object_get(c->counts, w);

	if (c->seen != NULL) {
		if (json_object_get(c->seen, w) != NULL)
			return 0;
		if (json_object_set_new(c->seen, w, json_true()) == -1)
			return -1;
	}
	if (v != NULL)
		return json_integer_set(v, json_integer_value(v) + 1);
	return json_object_set_new(c->counts, w, json_integer(1));
}

/* Every value of the column of sql (one text column; NULLs skipped) into
 * a new array, in the statement's order; with bind, ?1 bound to it. */
static json_t *
column(struct ev_store *st, const char *sql, const char *bind, struct ev_err *err)
{
	sqlite3_stmt *s = ev_store_prepare(st, sql, err);
	json_t *a = json_array();
	int r;

	if (s == NULL || a == NULL) {
		json_decref(a);
		if (s != NULL)
			ev_err_nomem(err);
		return NULL;
	}
	if (bind != NULL)
		sqlite3_bind_text(s, 1, bind, -1, SQLITE_TRANSIENT);
	while ((r = sqlite3_step(s)) == SQLITE_ROW)
		if (sqlite3_column_text(s, 0) != NULL &&
		    json_array_append_new(a, json_string((const char *)sqlite3_column_text(s, 0))) == -1) {
			r = SQLITE_NOMEM;
			break;
		}
	sqlite3_reset(s);	/* the store's cached statement: reset, never finalized */
	if (r != SQLITE_DONE) {
		json_decref(a);
		ev_store_error(st, "reading the chunks", err);
		return NULL;
	}
	return a;
}

/* The document frequencies of words over a seeded sample of at most
 * EV_CALIB_DF_SAMPLE chunks; *sampled gets the sample's size (at least 1
 * when the store has a chunk). */
static json_t *
sample_df(struct ev_store *st, uint64_t *rng, size_t *sampled, struct ev_err *err)
{
	json_t *texts = column(st, "SELECT text FROM chunks ORDER BY rowid", NULL, err);
	struct counting c = { json_object(), json_object() };
	size_t n = texts != NULL ? json_array_size(texts) : 0, *ix = malloc((n + 1) * sizeof *ix);
	int bad = texts == NULL || c.counts == NULL || c.seen == NULL || ix == NULL;

	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	if (!bad)
		ev_tune_shuffle(ix, n, rng);
	*sampled = n < EV_CALIB_DF_SAMPLE ? n : EV_CALIB_DF_SAMPLE;
	for (size_t i = 0; !bad && i < *sampled; i++) {
		json_object_clear(c.seen);
		bad = each_word(json_string_value(json_array_get(texts, ix[i])), count_word, &c) == -1;
	}
	if (bad && texts != NULL)
		ev_err_nomem(err);
	free(ix);
	json_decref(texts);
	json_decref(c.seen);
	if (bad) {
		json_decref(c.counts);
		return NULL;
	}
	return c.counts;
}

/* A uniform number in [0, 1). */
static double
uniform(uint64_t *rng)
{
	return (double)ev_tune_rand_below(rng, (size_t)1 << 31) / 2147483648.0;
}

/* The query of a document's text into q: its words drawn without
 * replacement by their counts (calibrate.h), 3 to 6 of them.  q is empty when
 * the text has fewer than 3 words worth drawing. */
static int
draw_query(const char *text, const json_t *df, size_t sampled, uint64_t *rng, struct ev_buf *q)
{
	struct counting c = { json_object(), NULL };
	size_t n, len = 3 + ev_tune_rand_below(rng, 4), i = 0;
	double *w = NULL, total = 0;
	const char **words = NULL;
	const char *k;
	json_t *v;
	int rc = -1;

	ev_buf_reset(q);
	if (c.counts == NULL || each_word(text, count_word, &c) == -1)
		goto out;
	n = json_object_size(c.counts);
	if ((w = malloc((n + 1) * sizeof *w)) == NULL || (words = malloc((n + 1) * sizeof *words)) == NULL)
		goto out;
	/* (Jansson keeps an object's keys in the order they were set: the
	 * document's order, so that the draw depends on nothing else) */
	json_object_foreach(c.counts, k, v) {
		json_t *d = json_object_get(df, k);

		double df_share = d ? (double)json_integer_value(d) / (double)sampled : 0;

		words[i] = k;
		/* popular selection, function words (in a tenth of the chunks) left out */
		w[i] = df_share > EV_CALIB_COMMON ? 0 : (double)json_integer_value(v);
		total += w[i++];
	}
	for (size_t m = 0; n >= 3 && m < len && m < n && total > 0; m++) {
		double x = uniform(rng) * total;

		for (i = 0; i + 1 < n && (w[i] == 0 || x >= w[i]); i++)
			x -= w[i];
		if ((q->len > 0 && ev_buf_addc(q, ' ') == -1) || ev_buf_adds(q, words[i]) == -1)
			goto out;
		total -= w[i];
		w[i] = 0;
	}
	rc = 0;
out:
	free(w);
	free(words);
	json_decref(c.counts);
	return rc;
}

long
ev_calib_pseudo(struct ev_store *st, long n, uint64_t seed, json_t *queries,
    struct ev_qrels *qrels, struct ev_err *err)
{
	uint64_t rng = ev_tune_rand_init(seed ^ 0x6b6e6f776eULL);
	json_t *docs = NULL, *df = NULL, *texts = NULL;
	struct ev_buf q = EV_BUF_INIT, text = EV_BUF_INIT, line = EV_BUF_INIT;
	size_t nd, sampled, *order = NULL;
	long made = 0;
	int rc = -1;

	if ((docs = column(st, "SELECT doc_id FROM chunks GROUP BY doc_id ORDER BY MIN(rowid)",
	    NULL, err)) == NULL || (df = sample_df(st, &rng, &sampled, err)) == NULL)
		goto out;
	nd = json_array_size(docs);
	if ((order = malloc((nd + 1) * sizeof *order)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	for (size_t i = 0; i < nd; i++)
		order[i] = i;
	ev_tune_shuffle(order, nd, &rng);
	for (size_t i = 0; i < nd && made < n; i++) {
		const char *doc = json_string_value(json_array_get(docs, order[i]));
		char qid[32];

		if (doc[0] == '\0' || strpbrk(doc, " \t\r\n") != NULL)
			continue;	/* a qrels line could not name it */
		json_decref(texts);
		ev_buf_reset(&text);
		if ((texts = column(st, "SELECT text FROM chunks WHERE doc_id = ?1 ORDER BY rowid",
		    doc, err)) == NULL)
			goto out;
		for (size_t j = 0; j < json_array_size(texts); j++)
			if (ev_buf_adds(&text, json_string_value(json_array_get(texts, j))) == -1 ||
			    ev_buf_addc(&text, '\n') == -1)
				goto nomem;
		if (draw_query(ev_buf_str(&text), df, sampled, &rng, &q) == -1)
			goto nomem;
		if (q.len == 0)
			continue;
		snprintf(qid, sizeof qid, "known-%ld", made + 1);
		ev_buf_reset(&line);
		if (ev_buf_printf(&line, "%s %s 1", qid, doc) == -1 ||
		    json_array_append_new(queries, json_pack("{s:s,s:s}", "query_id", qid, "query",
		    ev_buf_str(&q))) == -1)
			goto nomem;
		if (ev_qrels_add_line(qrels, line.p, line.len, "pseudo-queries", err) == -1)
			goto out;
		made++;
	}
	rc = 0;
	goto out;
nomem:
	ev_err_nomem(err);
out:
	free(order);
	json_decref(docs);
	json_decref(df);
	json_decref(texts);
	ev_buf_release(&q);
	ev_buf_release(&text);
	ev_buf_release(&line);
	return rc == -1 ? -1 : made;
}

/* ---- The fusion grid ----------------------------------------------------- */

/* The pipeline's lanes and fusion as samples/plan.yaml sets what the store
 * does not calibrate (pipeline_trial() adds the defaults of what it does,
 * the weights and the adaptive rule): what scripts/ev-hybrid runs. */
static const char pipeline[] =
	"{\"lanes\": {\"vector\": {\"k\": 100, \"feedback\": 3, \"feedback_weight\": 1}},"
	" \"fusion\": {\"method\": \"weighted\", \"normalization\": \"minmax\","
	" \"anchor\": \"text\", \"agreement_depth\": 10,"
	" \"agreement_full\": 1, \"agreement_from\": {\"vector_feedback\": \"vector\"},"
	" \"group\": \"chunk\", \"floor\": {\"text\": \"zero\"}}}";

/* The feedback lane's weights tried beside the text lane's 1, each without
 * and with agreement; the defaults (1.25, without agreement) first. */
static const double grid_feedback[] = { 1.25, 0, 0.25, 0.5, 1, 1.5, 2, 3 };
#define NGRID (2 * sizeof grid_feedback / sizeof grid_feedback[0])

static int
pipeline_trial(struct ev_tune_trial *t, struct ev_err *err)
{
	json_t *plan = json_loads(pipeline, 0, NULL);
	int rc;

	memset(t, 0, sizeof *t);
	t->text = (struct ev_textsearch_opts)EV_TEXTSEARCH_OPTS_INIT;
	t->vector_k = 100;
	t->vector_feedback_weight = 1;
	ev_fuse_opts_init(&t->fuse);
	if (plan == NULL)
		return ev_err_nomem(err);
	rc = ev_tune_plan_read(plan, "(calibration)", t, err);
	json_decref(plan);
	if (rc == 0)
		rc = ev_calib_apply(NULL, 1, 1, &t->fuse, err);
	t->fused = 1;
	return rc;
}

static int
make_grid(const struct ev_fuse_opts *def, struct ev_fuse_opts *grid, struct ev_err *err)
{
	for (size_t i = 0; i < NGRID; i++) {
		grid[i] = *def;
		grid[i].adapt = i < NGRID / 2 ? EV_ADAPT_NONE : EV_ADAPT_AGREEMENT;
		if (ev_fuse_weight_set(&grid[i], "vector_feedback", grid_feedback[i % (NGRID / 2)],
		    err) == -1)
			return -1;
	}
	return 0;
}

/* ---- Calibrating --------------------------------------------------------- */

static json_t *
make_row(const struct ev_vindex *ix, long n, uint64_t seed, const struct ev_tune_result *r)
{
	const struct ev_fuse_opts *f = &r->best.fuse;

	return json_pack("{s:i,s:s,s:I,s:I,s:s,s:I,s:{s:f,s:f,s:f},s:s,s:{s:f,s:f}}",
	    "version", EV_CALIB_VERSION,
	    "method", "known-item queries, popular term selection (Azzopardi, de Rijke & Balog 2007)",
	    "seed", (json_int_t)seed, "queries", (json_int_t)n,
	    "model", ev_vindex_model(ix), "vectors", (json_int_t)ev_vindex_count(ix),
	    "weights", "text", ev_fuse_weight_get(f, "text"),
	    "vector", ev_fuse_weight_get(f, "vector"),
	    "vector_feedback", ev_fuse_weight_get(f, "vector_feedback"),
	    "adapt", ev_fuse_adapt_name(f->adapt),
	    "ndcg@10", "defaults", round(r->defaults * 1e4) / 1e4,
	    "cross_validated", round(r->tuned * 1e4) / 1e4);
}

int
ev_calib_compute(struct ev_store *st, struct ev_vindex *ix, long n, uint64_t seed, json_t **row,
    struct ev_err *err)
{
	struct ev_tune_opts o = EV_TUNE_OPTS_INIT;
	struct ev_fuse_opts grid[NGRID];
	struct ev_tune_trial def;
	struct ev_tune_result r;
	struct ev_qrels *qrels = ev_qrels_new(err);
	json_t *queries = json_array();
	size_t unjudged;
	long made;
	int rc = -1;

	*row = NULL;
	if (qrels == NULL || queries == NULL) {
		if (qrels != NULL)
			ev_err_nomem(err);
		goto out;
	}
	if (pipeline_trial(&def, err) == -1 || make_grid(&def.fuse, grid, err) == -1 ||
	    (made = ev_calib_pseudo(st, n, seed, queries, qrels, err)) == -1)
		goto out;
	if (made < EV_CALIB_MIN_DOCS) {
		rc = 0;
		goto out;
	}
	o.seed = seed;
	o.fuse_grid = grid;
	o.nfuse_grid = NGRID;
	if (ev_tune_search(st, ix, queries, qrels, &def, &o, NULL, NULL, &unjudged, &r, err) == -1)
		goto out;
	if (!(r.tuned > r.defaults))
		r.best.fuse = def.fuse;	/* a choice that does not carry to held-out queries */
	if ((*row = make_row(ix, made, seed, &r)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	rc = 1;
out:
	ev_qrels_free(qrels);
	json_decref(queries);
	return rc;
}

int
ev_calib_save(struct ev_store *st, const json_t *row, struct ev_err *err)
{
	char *s = json_dumps(row, JSON_COMPACT | JSON_REAL_PRECISION(10));
	int rc;

	if (s == NULL)
		return ev_err_nomem(err);
	rc = ev_store_meta_set(st, EV_CALIB_KEY, s, err);
	free(s);
	return rc;
}
