/* test_embed.c: the LSA embedder on small stores whose tf-idf weights can be
 * computed by hand.  With as many dimensions as terms (and no more terms
 * than chunks) the projection V is square and orthogonal, and with
 * sigma_power 1 it preserves inner products: the cosine of two embeddings is
 * then exactly the cosine of their tf-idf vectors. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "embed.h"
#include "store.h"
#include "test_util.h"

TU_SUITE_WITH_DIR(embed, "test_embed");

static struct ev_store *
store_with(const char *const *texts, int n)
{
	struct ev_err err = { 0 };
	struct ev_store *st = tu_store_create(path, &err);

	for (int i = 0; i < n; i++) {
		sqlite3_stmt *s = ev_store_prepare(st, "INSERT INTO chunks(id, doc_id, section_id,"
		    " chunk_index, title, section_title, section_path, text, offset_start, offset_end,"
		    " content_hash) VALUES(?1, ?1, '_top', 0, '', '', '', ?2, 0, 0, 'sha256:0')", &err);
		char id[32];

		cr_assert_not_null(s, "%s", err.msg);
		snprintf(id, sizeof id, "d%d", i);
		sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, texts[i], -1, SQLITE_STATIC);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
	}
	return st;
}

/* wing: df 3, flow: df 2, heat: df 2, over 4 chunks; the stop words go */
static const char *const tiny[] = { "wing flow", "the wing heat", "flow heat heat", "wing" };

/* The default parameters but for dim, and min_df 1: every word of tiny kept. */
static struct ev_embed_params
params(int dim)
{
	struct ev_embed_params p;

	ev_embed_params_init(&p);
	p.dim = dim;
	p.min_df = 1;
	return p;
}

static void
train(struct ev_store *st, int dim, double sigma_power, struct ev_embed_info *info)
{
	struct ev_embed_params p = params(dim);
	struct ev_err err = { 0 };

	p.sigma_power = sigma_power;
	cr_assert_eq(ev_embed_train(st, &p, info, &err), 0, "%s", err.msg);
}

static int
embed1(struct ev_embed *e, const char *text, enum ev_embed_role role, float *out)
{
	struct ev_err err = { 0 };
	const char *texts[1] = { text };
	size_t lens[1] = { strlen(text) };
	int r = ev_embed_texts(e, texts, lens, 1, role, out, &err);

	cr_assert_neq(r, -1, "%s", err.msg);
	return r;
}

/* The text of the first column of the one row sql gives on st, into buf. */
static const char *
one_value(struct ev_store *st, const char *sql, char *buf, size_t size)
{
	struct ev_err err = { 0 };
	sqlite3_stmt *s = ev_store_prepare(st, sql, &err);

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	snprintf(buf, size, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	return buf;
}

/* The smoothed idf of a word in df of tiny's 4 chunks. */
static double
tiny_idf(int df)
{
	return log(5.0 / (1.0 + df)) + 1.0;
}

/* train(st, dim, sigma_power, info), then the model opened. */
static struct ev_embed *
open_trained(struct ev_store *st, int dim, double sigma_power, struct ev_embed_info *info)
{
	struct ev_err err = { 0 };
	struct ev_embed *e;

	train(st, dim, sigma_power, info);
	e = ev_embed_open(st, &err);
	cr_assert_not_null(e, "%s", err.msg);
	return e;
}

/* Training st with p fails: returns the error it gives. */
static struct ev_err
train_error(struct ev_store *st, const struct ev_embed_params *p)
{
	struct ev_embed_info info;
	struct ev_err err = { 0 };

	cr_expect_eq(ev_embed_train(st, p, &info, &err), -1);
	return err;
}

/* Training st with p is refused as bad usage, saying msg. */
static void
expect_refused(struct ev_store *st, const struct ev_embed_params *p, const char *msg)
{
	struct ev_err err = train_error(st, p);

	cr_expect_eq(err.code, EV_EXIT_USAGE);
	cr_expect_str_eq(err.msg, msg);
}

static double
dot(const float *a, const float *b, int n)
{
	double d = 0;

	for (int i = 0; i < n; i++)
		d += (double)a[i] * b[i];
	return d;
}

Test(embed, smoothed_idf_is_stored_for_each_term)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_info info;
	struct ev_err err = { 0 };
	sqlite3_stmt *s;
	int n = 0;

	train(st, 3, 1.0, &info);
	cr_expect_eq(info.terms, 3);
	cr_expect_eq(info.chunks, 4);
	s = ev_store_prepare(st, "SELECT term, df, idf FROM embed_vocab ORDER BY col", &err);
	cr_assert_not_null(s);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *term = (const char *)sqlite3_column_text(s, 0);
		int df = sqlite3_column_int(s, 1);
		double want = tiny_idf(df);

		cr_expect_eq(df, strcmp(term, "wing") == 0 ? 3 : 2, "df of %s", term);
		cr_expect(fabs(sqlite3_column_double(s, 2) - want) < 1e-12, "idf of %s", term);
		n++;
	}
	sqlite3_reset(s);
	cr_expect_eq(n, 3);
	ev_store_close(st);
}

/* The cosine of text a embedded in role ra and text b in role rb, by the
 * model of tiny in 3 dimensions with sigma_power 1; each holds a known word. */
static double
tiny_cosine(const char *a, enum ev_embed_role ra, const char *b, enum ev_embed_role rb)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_info info;
	struct ev_embed *e = open_trained(st, 3, 1.0, &info);
	float va[3], vb[3];
	double cosine;

	cr_assert_eq(info.dim, 3);
	cr_assert_eq(embed1(e, a, ra, va), 1);
	cr_assert_eq(embed1(e, b, rb, vb), 1);
	cosine = dot(va, vb, 3);
	ev_embed_close(e);
	ev_store_close(st);
	return cosine;
}

Test(embed, document_cosines_equal_the_hand_computed_tfidf_cosines)
{
	double iw = tiny_idf(3), ih = tiny_idf(2), tf2 = 1 + log(2.0);
	/* document "wing wing flow": (tf2 iw, ih, 0); document "flow heat heat": (0, ih, tf2 ih) */
	double want = (ih * ih) / (sqrt(tf2 * iw * tf2 * iw + ih * ih) * sqrt(ih * ih + tf2 * ih * tf2 * ih));
	double cosine = tiny_cosine("wing wing flow", EV_EMBED_DOCUMENT, "flow heat heat",
	    EV_EMBED_DOCUMENT);

	cr_expect(fabs(cosine - want) < 1e-5, "cosine %.7f, want %.7f", cosine, want);
}

Test(embed, queries_weight_idf_to_the_power_1_5)
{
	double iw = tiny_idf(3), ih = tiny_idf(2);
	/* query "wing heat": (iw^1.5, 0, ih^1.5); document "wing heat": (iw, 0, ih) */
	double qw = pow(iw, 1.5), qh = pow(ih, 1.5);
	double want = (qw * iw + qh * ih) / (sqrt(qw * qw + qh * qh) * sqrt(iw * iw + ih * ih));
	double cosine = tiny_cosine("wing heat", EV_EMBED_QUERY, "wing heat", EV_EMBED_DOCUMENT);

	cr_expect(fabs(cosine - want) < 1e-5, "cosine %.7f, want %.7f", cosine, want);
	cr_expect_lt(cosine, 1 - 1e-4, "a query is weighted unlike a document");
}

Test(embed, vectors_have_unit_length)
{
	static const char *const docs[] = { "wing flow lift", "lift drag wing", "heat flux flow",
		"drag heat", "lift flux", "wing heat flux drag" };
	struct ev_store *st = store_with(docs, 6);
	struct ev_embed_info info;
	struct ev_embed *e;
	float v[4];

	e = open_trained(st, 4, 1.5, &info);
	cr_assert_eq(info.dim, 4);
	cr_expect_eq(ev_embed_dim(e), 4);
	for (int i = 0; i < 6; i++) {
		embed1(e, docs[i], EV_EMBED_DOCUMENT, v);
		cr_expect(fabs(dot(v, v, 4) - 1) < 1e-6, "document %d: |v|² = %f", i, dot(v, v, 4));
		embed1(e, docs[i], EV_EMBED_QUERY, v);
		cr_expect(fabs(dot(v, v, 4) - 1) < 1e-6, "query %d: |v|² = %f", i, dot(v, v, 4));
	}
	ev_embed_close(e);
	ev_store_close(st);
}

Test(embed, text_without_known_terms_gives_a_zero_vector)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_info info;
	struct ev_embed *e;
	float v[3] = { 1, 1, 1 };

	e = open_trained(st, 3, 1.0, &info);
	cr_expect_eq(embed1(e, "the of and zebra", EV_EMBED_QUERY, v), 0);
	cr_expect(v[0] == 0 && v[1] == 0 && v[2] == 0);
	cr_expect_eq(embed1(e, "", EV_EMBED_DOCUMENT, v), 0);
	ev_embed_close(e);
	ev_store_close(st);
}

Test(embed, same_corpus_gives_the_same_model_id_and_vectors)
{
	static const char *const docs[] = { "wing flow lift", "lift drag wing", "heat flux flow",
		"drag heat", "lift flux", "wing heat flux drag", "flow flow lift" };
	struct ev_store *st = store_with(docs, 7);
	struct ev_embed_info i1, i2;
	struct ev_err err = { 0 };
	struct ev_embed *e;
	float a[3], b[3];

	e = open_trained(st, 3, 1.5, &i1);
	embed1(e, "wing drag", EV_EMBED_DOCUMENT, a);
	ev_embed_close(e);
	train(st, 3, 1.5, &i2);
	cr_expect_str_eq(i1.model_id, i2.model_id);
	cr_expect_eq(strncmp(i1.model_id, "lsa3-", 5), 0, "%s", i1.model_id);
	cr_expect_eq(strlen(i1.model_id), 5 + 16);
	e = ev_embed_open(st, &err);
	cr_assert_not_null(e, "%s", err.msg);
	cr_expect_str_eq(ev_embed_model_id(e), i1.model_id);
	embed1(e, "wing drag", EV_EMBED_DOCUMENT, b);
	cr_expect_eq(memcmp(a, b, sizeof a), 0);
	ev_embed_close(e);
	ev_store_close(st);
}

Test(embed, retraining_on_changed_chunks_makes_old_vectors_stale)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_info i1, i2;
	struct ev_err err = { 0 };
	char *cur = NULL;

	train(st, 2, 1.5, &i1);
	cr_assert_eq(ev_embed_current(st, &cur, &err), 1);
	cr_expect_str_eq(cur, i1.model_id);
	free(cur);
	cr_assert_eq(ev_store_exec(st, "UPDATE chunks SET text = 'wing wing flow' WHERE id = 'd0'",
	    &err), 0);
	train(st, 2, 1.5, &i2);
	cr_expect_str_neq(i1.model_id, i2.model_id);
	cr_assert_eq(ev_embed_current(st, &cur, &err), 1);
	cr_expect_str_eq(cur, i2.model_id);
	free(cur);
	ev_store_close(st);
}

Test(embed, other_parameters_give_another_model_id)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_info i1, i2;

	train(st, 2, 1.5, &i1);
	train(st, 2, 1.0, &i2);
	cr_expect_str_neq(i1.model_id, i2.model_id);
	ev_store_close(st);
}

Test(embed, dimensions_are_capped_by_what_the_corpus_supports)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_info info;

	train(st, 100, 1.5, &info);
	cr_expect_eq(info.dim_asked, 100);
	cr_expect_eq(info.dim, 3);	/* min(4 chunks, 3 terms) */
	cr_expect_eq(strncmp(info.model_id, "lsa3-", 5), 0, "%s", info.model_id);
	ev_store_close(st);
}

Test(embed, store_without_model_says_to_train)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_err err = { 0 };
	char msg[512], *cur = (char *)"x";

	cr_expect_null(ev_embed_open(st, &err));
	cr_expect_eq(err.code, EV_EXIT_USAGE);
	snprintf(msg, sizeof msg, "no embedding model in '%s'; run 'ev-embed --db %s --train'",
	    path, path);
	cr_expect_str_eq(err.msg, msg);
	cr_expect_eq(ev_embed_current(st, &cur, &err), 0);
	cr_expect_null(cur);
	ev_store_close(st);
}

Test(embed, empty_store_cannot_be_trained)
{
	struct ev_store *st = store_with(NULL, 0);
	struct ev_embed_params p;
	char msg[512];

	ev_embed_params_init(&p);
	snprintf(msg, sizeof msg, "no chunks to train on; add documents with 'ev-ingest --db %s' first",
	    path);
	expect_refused(st, &p, msg);
	ev_store_close(st);
}

Test(embed, no_term_in_min_df_chunks_is_refused)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_params p;

	ev_embed_params_init(&p);
	p.min_df = 5;
	expect_refused(st, &p, "no term occurs in 5 chunks or more, so there is nothing to learn "
	    "from (4 chunks); add documents, or lower min_df");
	ev_store_close(st);
}

Test(embed, a_negative_dimension_is_refused)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_params p;

	ev_embed_params_init(&p);
	p.dim = -1;
	expect_refused(st, &p, "dimension -1 is not within 1..2048");
	ev_store_close(st);
}

Test(embed, min_df_from_the_store_size)
{
	cr_expect_eq(ev_embed_min_df_rule(12), 1);
	cr_expect_eq(ev_embed_min_df_rule(999), 1);
	cr_expect_eq(ev_embed_min_df_rule(1000), 2);
}

/* A small store keeps every direction it has; a larger one a quarter of its
 * rank bound, min(chunks, terms), from 256 up to 768; one searched through an
 * inverted file (more than 200,000 chunks) 256. */
Test(embed, dimension_from_the_store_size)
{
	static const struct {
		long long chunks, terms;
		int dim;
	} rule[] = {
		{ 0, 0, 1 }, { 12, 40, 12 }, { 255, 9000, 255 },
		{ 256, 9000, 256 },	/* a quarter of 256 is less than 256 */
		{ 999, 5000, 256 },
		{ 1381, 5071, 345 },	/* chunks bound the rank */
		{ 1668, 9088, 417 },
		{ 9000, 1200, 300 },	/* terms bound it */
		{ 3261, 3471, 768 },	/* 815, capped */
		{ 62142, 35515, 768 },
		{ 200000, 16955, 768 },	/* the last size searched exactly */
		{ 200001, 16955, 256 },	/* searched through an inverted file */
		{ 1358377, 16955, 256 },
	};

	for (size_t i = 0; i < sizeof rule / sizeof rule[0]; i++)
		cr_expect_eq(ev_embed_dim_rule(rule[i].chunks, rule[i].terms), rule[i].dim,
		    "%lld chunks, %lld terms", rule[i].chunks, rule[i].terms);
}

Test(embed, the_defaults_keep_a_word_of_one_chunk_and_say_nothing_asked)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_params p;
	struct ev_embed_info info;
	struct ev_err err = { 0 };

	ev_embed_params_init(&p);
	cr_assert_eq(ev_embed_train(st, &p, &info, &err), 0, "%s", err.msg);
	cr_expect_eq(info.min_df, 1);
	cr_expect_eq(info.dim_asked, 0, "no dimension was asked for");
	cr_expect_eq(info.distinct, info.terms, "every word is kept");
	ev_store_close(st);
}

Test(embed, max_terms_keeps_the_most_frequent)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_params p;
	struct ev_embed_info info;
	struct ev_err err = { 0 };
	char terms[64];

	ev_embed_params_init(&p);
	p.min_df = 1;
	p.max_terms = 1;
	cr_assert_eq(ev_embed_train(st, &p, &info, &err), 0, "%s", err.msg);
	cr_expect_eq(info.terms, 1);
	cr_expect_str_eq(one_value(st, "SELECT group_concat(term) FROM embed_vocab", terms,
	    sizeof terms), "wing");
	ev_store_close(st);
}

Test(embed, failed_save_keeps_the_previous_model)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_params p = params(2);
	struct ev_embed_info i1;
	struct ev_err err = { 0 };
	char *cur = NULL, count[32];

	train(st, 2, 1.5, &i1);
	/* a fault injected in the middle of saving: the term 'zeta' cannot be written */
	cr_assert_eq(ev_store_exec(st, "CREATE TRIGGER fault BEFORE INSERT ON embed_vocab"
	    " WHEN NEW.term = 'zeta' BEGIN SELECT RAISE(ABORT, 'injected fault'); END;"
	    "INSERT INTO chunks(id, doc_id, section_id, chunk_index, text, content_hash)"
	    " VALUES('d4', 'd4', '_top', 0, 'zeta flow', 'sha256:0'),"
	    " ('d5', 'd5', '_top', 0, 'zeta wing', 'sha256:0');", &err), 0,
	    "%s", err.msg);
	err = train_error(st, &p);
	cr_expect_eq(err.code, EV_EXIT_RUNTIME);
	cr_expect(strstr(err.msg, "injected fault") != NULL, "%s", err.msg);
	cr_assert_eq(ev_embed_current(st, &cur, &err), 1);
	cr_expect_str_eq(cur, i1.model_id);
	free(cur);
	cr_expect_str_eq(one_value(st, "SELECT count(*) FROM embed_vocab", count, sizeof count), "3");
	ev_store_close(st);
}

Test(embed, an_open_model_is_not_mixed_with_one_trained_meanwhile)
{
	struct ev_store *st = store_with(tiny, 4), *st2;
	struct ev_embed_info i1, i2;
	struct ev_err err = { 0 };
	struct ev_embed *e;
	float v[2];

	e = open_trained(st, 2, 1.5, &i1);
	st2 = ev_store_open(path, EV_STORE_WRITE, &err);
	cr_assert_not_null(st2, "%s", err.msg);
	cr_assert_eq(ev_store_exec(st2, "UPDATE chunks SET text = 'heat heat wing' WHERE id = 'd3'",
	    &err), 0);
	train(st2, 2, 1.5, &i2);
	cr_expect_str_neq(i1.model_id, i2.model_id);
	/* the open model still reads its own snapshot */
	cr_expect_str_eq(ev_embed_model_id(e), i1.model_id);
	cr_expect_eq(embed1(e, "heat", EV_EMBED_QUERY, v), 1);
	ev_embed_close(e);
	ev_store_close(st2);
	ev_store_close(st);
}

/* Log-entropy global weights, by hand on tiny (4 chunks, ln 4):
 *   wing: tf 1, 1, 1 (p = 1/3 each): 1 + 3 (1/3) ln(1/3) / ln 4 = 1 - ln 3 / ln 4
 *   flow: tf 1, 1 (p = 1/2 each):    1 - ln 2 / ln 4 = 0.5
 *   heat: tf 1, 2 (p = 1/3, 2/3):    1 + ((1/3) ln(1/3) + (2/3) ln(2/3)) / ln 4 */
Test(embed, log_entropy_weights_replace_idf)
{
	struct ev_store *st = store_with(tiny, 4);
	struct ev_embed_params p = params(3);
	struct ev_embed_info info, plain;
	struct ev_err err = { 0 };
	sqlite3_stmt *s;
	int n = 0;

	cr_expect_eq(p.log_entropy, 0);
	train(st, 3, 1.5, &plain);
	p.log_entropy = 1;
	cr_assert_eq(ev_embed_train(st, &p, &info, &err), 0, "%s", err.msg);
	cr_expect_str_neq(info.model_id, plain.model_id);
	s = ev_store_prepare(st, "SELECT term, idf FROM embed_vocab ORDER BY col", &err);
	cr_assert_not_null(s);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *term = (const char *)sqlite3_column_text(s, 0);
		double g = sqlite3_column_double(s, 1), want;

		if (strcmp(term, "wing") == 0)
			want = 1 - log(3) / log(4);
		else if (strcmp(term, "flow") == 0)
			want = 0.5;
		else
			want = 1 + (log(1.0 / 3) / 3 + 2 * log(2.0 / 3) / 3) / log(4);
		cr_expect(fabs(g - want) < 1e-12, "weight of %s: %.15g, want %.15g", term, g, want);
		n++;
	}
	sqlite3_reset(s);
	cr_expect_eq(n, 3);
	ev_store_close(st);
}

/* The chunks' full-text index, which --drift reads its terms from. */
static void
index_text(struct ev_store *st)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_store_exec(st, "INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild')", &err),
		0, "%s", err.msg);
}

Test(embed, drift_is_the_share_of_occurrences_of_learnable_terms_the_model_lacks)
{
	static const char *const more[] = { "wing flow", "the wing heat", "flow heat heat", "wing",
		"lift lift drag", "lift wing" };
	struct ev_embed_params p;
	struct ev_embed_info info;
	struct ev_embed_drift d;
	struct ev_err err = { 0 };
	struct ev_store *st = store_with(more, 4);

	index_text(st);
	cr_assert_eq(ev_embed_drift(st, &d, &err), 0, "%s", err.msg);
	cr_assert_str_eq(d.model_id, "");
	cr_assert_float_eq(d.drift, 1.0, 1e-12, "no model: every term is unseen");
	ev_embed_params_init(&p);
	p.dim = 2;
	p.min_df = 2;	/* (a word of one chunk is not learnt: drag, below) */
	cr_assert_eq(ev_embed_train(st, &p, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_embed_drift(st, &d, &err), 0, "%s", err.msg);
	cr_assert_str_eq(d.model_id, info.model_id);
	cr_assert_eq(d.occurrences, 8, "wing 3, flow 2, heat 3; 'the' is a stop word");
	cr_assert_eq(d.unseen, 0);
	cr_assert_float_eq(d.drift, 0.0, 1e-12);
	ev_store_close(st);
	st = ev_store_open(path, EV_STORE_WRITE, &err);
	cr_assert_not_null(st, "%s", err.msg);
	for (int i = 4; i < 6; i++) {
		char sql[200];
		snprintf(sql, sizeof sql, "INSERT INTO chunks(id, doc_id, section_id, chunk_index, text,"
			" content_hash) VALUES('n%d', 'n%d', '_top', 0, '%s', 'h')", i, i, more[i]);
		cr_assert_eq(ev_store_exec(st, sql, &err), 0, "%s", err.msg);
	}
	index_text(st);
	cr_assert_eq(ev_embed_drift(st, &d, &err), 0, "%s", err.msg);
	/* lift (2 chunks, 3 occurrences) would be learnt; drag (1 chunk) not */
	cr_assert_eq(d.occurrences, 13);
	cr_assert_eq(d.unseen, 3);
	cr_assert_eq(d.new_terms, 1);
	cr_assert_float_eq(d.drift, 3.0 / 13.0, 1e-12);
	cr_assert_eq(d.chunks, 6);
	cr_assert_eq(d.trained_chunks, 4);
	/* a vocabulary cut at max_terms: terms rarer than its rarest do not count */
	p.max_terms = 1;
	p.dim = 1;
	cr_assert_eq(ev_embed_train(st, &p, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_embed_drift(st, &d, &err), 0, "%s", err.msg);
	cr_assert_float_eq(d.drift, 0.0, 1e-12, "right after a training");
	ev_store_close(st);
}
