/* Tests of lib/lanes/textsearch.c over a real store: query text is always text
 * (every FTS5 special character), OR and AND, raw FTS5 expressions, typo
 * tolerance and its evidence, filters inside the query (k hits still come
 * back), the hit record's fields, normalisation, k, and bad input. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bm25.h"
#include "editdist.h"
#include "lenstats.h"
#include "sweep.h"
#include "postings.h"
#include "store.h"
#include "test_util.h"
#include "textsearch.h"
#include "textstate.h"

static char dir[64], path[128];
static struct ev_store *st;
static struct ev_textsearch *ts;
static json_t *hits;

struct doc {
	const char *id, *title, *section, *text, *metadata, *date;
};

static const struct doc docs[] = {
	{ "d1", "Wing in a slipstream", "Results", "the lift of a wing in a propeller slipstream rises",
	  "{\"lang\":\"en\",\"year\":1958,\"peer\":true}", "1958-03-01" },
	{ "d2", "Shear flow past a plate", NULL, "simple shear flow past a flat plate at small viscosity",
	  "{\"lang\":\"fr\",\"year\":1960}", "1960-11-20" },
	{ "d3", "Boundary layer", NULL, "the boundary layer over a flat plate; a wing too",
	  NULL, "1961" },
	{ "d4", "Heat transfer", NULL, "heat transfer in a hypersonic boundary layer near a wall",
	  "{\"lang\":\"en\"}", NULL },
	{ "d5", "Quotes", NULL, "the \"and\" operator (AND) is not NEAR * the star: a colon ^ caret - dash",
	  NULL, NULL },
	{ "d6", "Plate plate", NULL, "plate plate plate plate plate", NULL, NULL },
};

static void
open_ts(struct ev_textsearch_opts *o)
{
	struct ev_err err = { 0 };

	ev_textsearch_close(ts);
	ts = ev_textsearch_open(st, o, &err);
	cr_assert_not_null(ts, "%s", err.msg);
}

/* Run the INSERT sql once: ?1 bound to rowid when rowid > 0, the next
 * parameters to text[0..n). */
static void
insert_row(const char *sql, long long rowid, const char *const *text, int n)
{
	sqlite3_stmt *s;
	int p = 1;

	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), sql, -1, &s, NULL), SQLITE_OK);
	if (rowid > 0)
		sqlite3_bind_int64(s, p++, rowid);
	for (int i = 0; i < n; i++)
		sqlite3_bind_text(s, p++, text[i], -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
}

/* Put docs[0..n) in the store st, a chunk each, and index them. */
static void
fill_store(const struct doc *docs_, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct doc *d = &docs_[i];

		insert_row("INSERT INTO documents(doc_id, title, source_uri, metadata, published_date,"
		    " content_hash) VALUES(?1, ?2, 'file:' || ?1, ?3, ?4, 'x')", 0,
		    (const char *const[]){ d->id, d->title, d->metadata, d->date }, 4);
		insert_row("INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, title,"
		    " section_title, section_path, text, offset_start, offset_end, content_hash)"
		    " VALUES(?1, ?2 || ':s:0', ?2, ?2 || ':s', 0, ?3, ?4, ?4, ?5, 0, length(?5),"
		    " 'sha256:' || ?2)", (long long)i + 1,
		    (const char *const[]){ d->id, d->title, d->section, d->text }, 4);
	}
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks");
}

/* A new store in a new directory /tmp/evkit-KIND.XXXXXX (dir, path, st). */
static void
new_store(const char *kind, struct ev_err *err)
{
	snprintf(dir, sizeof dir, "/tmp/evkit-%s.XXXXXX", kind);
	tu_mkdir(dir, NULL, 0);
	snprintf(path, sizeof path, "%s/store.db", dir);
	st = tu_store_create(path, err);
}

/* A new store (new_store()) of docs_[0..n), and a searcher of it with the
 * default options. */
static void
store_of(const char *kind, const struct doc *docs_, size_t n)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_err err = { 0 };

	new_store(kind, &err);
	fill_store(docs_, n);
	hits = json_array();
	open_ts(&o);
}

static void
setup(void)
{
	store_of("ts", docs, sizeof docs / sizeof docs[0]);
}

static void
teardown(void)
{
	ev_textsearch_close(ts);
	ts = NULL;
	ev_store_close(st);
	json_decref(hits);
	tu_rmdir(dir);
}

TestSuite(textsearch, .init = setup, .fini = teardown);

/* Search; returns the number of hits (or -1), fills err and flags. */
static int
search_q(json_t *q, int *flags, struct ev_err *err)
{
	int f = 0, r;

	json_array_clear(hits);
	r = ev_textsearch_query(ts, q, "stdin:7", hits, &f, err);
	if (flags != NULL)
		*flags = f;
	json_decref(q);
	return r;
}

static int
search(const char *text)
{
	struct ev_err err = { 0 };
	int r = search_q(json_pack("{s:s,s:s}", "query_id", "q1", "query", text), NULL, &err);

	cr_assert_neq(r, -1, "query '%s': %s", text, err.msg);
	return r;
}

/* The doc_ids of the hits, space-separated. */
static const char *
docs_of_hits(void)
{
	static char s[256];
	size_t i;
	json_t *h;

	s[0] = '\0';
	json_array_foreach(hits, i, h) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, json_string_value(json_object_get(h, "doc_id")));
	}
	return s;
}

static json_t *
hit(size_t i)
{
	return json_array_get(hits, i);
}

/* Reopen the searcher with o and search text; returns the number of hits. */
static int
search_with(struct ev_textsearch_opts *o, const char *text)
{
	open_ts(o);
	return search(text);
}

/* Search text, with the searcher reopened with o first unless o is NULL:
 * n hits, of the documents docs in rank order ("d3 d4"). */
static void
expect_docs(struct ev_textsearch_opts *o, const char *text, int n, const char *docs)
{
	cr_assert_eq(o != NULL ? search_with(o, text) : search(text), n, "'%s'", text);
	cr_assert_str_eq(docs_of_hits(), docs, "'%s'", text);
}

Test(textsearch, every_fts5_special_character_is_searched_as_text)
{
	static const char *const qs[] = {
		"\"wing", "wing\"", "(wing", "wing)", "wing*", "*wing", "title:wing", "text:wing",
		"^wing", "-wing", "wing -", "+wing", "wing AND", "AND wing", "wing OR", "OR wing",
		"NOT wing", "wing NOT", "NEAR(wing", "NEAR wing", "wing NEAR/3", "{wing}", "wing:",
		"wing \"\"\"", "'wing'", "wing; DROP TABLE chunks", "wing\\", "w\"i\"ng wing", NULL
	};

	for (int i = 0; qs[i] != NULL; i++) {
		cr_assert_gt(search(qs[i]), 0, "query '%s' found nothing", qs[i]);
		cr_assert_str_eq(json_string_value(json_object_get(hit(0), "doc_id")), "d1",
		    "query '%s'", qs[i]);
	}
}

Test(textsearch, operator_words_are_words_to_search_for)
{
	cr_assert_eq(search("NEAR star"), 2);
	cr_assert_str_eq(docs_of_hits(), "d5 d4");
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(json_array_get(
	    json_object_get(hit(0), "evidence"), 0), "matched_terms"), 0)), "NEAR");
}

Test(textsearch, a_query_of_stop_words_and_punctuation_has_no_terms)
{
	struct ev_err err = { 0 };
	int flags;

	cr_assert_eq(search_q(json_pack("{s:i,s:s}", "query_id", 3, "query", "AND OR NOT the (*) \"\" :^-"),
	    &flags, &err), 0);
	cr_assert_eq(flags, EV_TS_NO_TERMS);
	cr_assert_eq(search_q(json_pack("{s:i,s:s}", "query_id", 3, "query", ""), &flags, &err), 0);
	cr_assert_eq(flags, EV_TS_NO_TERMS);
}

Test(textsearch, words_are_or_ed_and_ranked_by_bm25)
{
	expect_docs(NULL, "slipstream viscosity", 2, "d1 d2");
}

Test(textsearch, all_terms_requires_every_word)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	cr_assert_eq(search("flat plate wing"), 4);
	o.all_terms = 1;
	expect_docs(&o, "flat plate wing", 1, "d3");
	cr_assert_eq(search("flat plate wing zeppelin"), 0);
}

Test(textsearch, title_weight_lifts_title_matches)
{
	static const struct { double w_title; const char *query, *docs; } runs[] = {
		{ 0, "heat boundary", "d4 d3" },
		{ 50, "boundary", "d3 d4" },
	};
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		o.w_title = runs[i].w_title;
		expect_docs(&o, runs[i].query, 2, runs[i].docs);
	}
}

Test(textsearch, raw_fts_passes_an_expression)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.raw_fts = 1;
	expect_docs(&o, "plate NOT shear", 2, "d6 d3");
	cr_assert_eq(search("title:wing"), 1);
	cr_assert_eq(search("bound*"), 2);
}

Test(textsearch, raw_fts_bad_expression_is_bad_input_naming_the_line)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_err err = { 0 };

	o.raw_fts = 1;
	open_ts(&o);
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", "wing AND ("), NULL, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "stdin:7");
	cr_assert_str_eq(err.msg, "bad FTS5 expression 'wing AND (': fts5: syntax error near \"\"");
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", "nosuch:wing"), NULL, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.msg, "bad FTS5 expression 'nosuch:wing': no such column: nosuch");
	cr_assert_eq(search("wing"), 2, "the searcher goes on after a bad expression");
}

Test(textsearch, a_word_missing_from_the_index_is_expanded_and_says_so)
{
	json_t *ev, *fz;

	cr_assert_eq(search("slipstrem"), 1);
	ev = json_array_get(json_object_get(hit(0), "evidence"), 0);
	fz = json_object_get(ev, "fuzzy");
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(ev, "matched_terms"), 0)), "slipstrem");
	cr_assert_eq(json_array_size(fz), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(fz, 0), "term")), "slipstrem");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(fz, 0), "expansion")), "slipstream");
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(fz, 0), "distance")), 1);
	cr_assert_str_eq(json_string_value(json_object_get(hit(0), "snippet")),
	    "the lift of a wing in a propeller \xc2\xabslipstream\xc2\xbb rises");
}

Test(textsearch, transpositions_count_one_edit)
{
	expect_docs(NULL, "visocsity", 1, "d2");
}

Test(textsearch, long_words_tolerate_two_edits_short_ones_one_and_tiny_none)
{
	cr_assert_eq(search("hyperosnc"), 1, "stem of 9 letters: 2 edits");
	cr_assert_eq(search("wnig"), 2, "4 letters: 1 edit (a transposition)");
	cr_assert_eq(search("wiiig"), 0, "5 letters: not 2 edits");
	cr_assert_eq(search("lfit"), 1);
	cr_assert_eq(search("jet"), 0, "3 letters are never expanded");
}

Test(textsearch, fuzzy_zero_turns_expansion_off)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.fuzzy = 0;
	cr_assert_eq(search_with(&o, "slipstrem"), 0);
}

/* A word list for the searcher: dir/dict/american-english holding words. */
static void
open_with_dict(const char *words)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	static char dd[128];	/* the searcher borrows it */
	char f[192];

	snprintf(dd, sizeof dd, "%s/dict", dir);
	cr_assert(mkdir(dd, 0700) == 0 || errno == EEXIST);
	if (words != NULL) {
		snprintf(f, sizeof f, "%s/american-english", dd);
		tu_write_file(f, words, strlen(words));
	}
	o.dict_dir = dd;
	open_ts(&o);
}

Test(textsearch, a_real_word_missing_from_the_index_is_not_expanded)
{
	struct ev_err err = { 0 };
	int flags;

	/* "wine" is one edit from the indexed "wing": a typo without a word
	 * list, a word with one */
	open_with_dict(NULL);
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", "wine"), &flags, &err), 2);
	cr_assert(flags & EV_TS_NO_DICT, "no word list for English is reported");
	cr_assert_eq(ev_textsearch_no_dict(ts), 1u << 0);
	open_with_dict("Vine\nwind\nwine\n");
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", "Wine"), &flags, &err), 0);
	cr_assert_eq(flags & EV_TS_NO_DICT, 0);
	cr_assert_eq(search("wnig"), 2, "a typo is still expanded");
	cr_assert_eq(search("vine"), 0, "a capitalised entry (a name) is a word too");
}

Test(textsearch, an_expansion_weighs_less_than_the_word)
{
	double exact, typo;

	cr_assert_eq(search("slipstream"), 1);
	exact = json_real_value(json_object_get(hit(0), "score"));
	cr_assert_eq(search("slipstrem"), 1);
	typo = json_real_value(json_object_get(hit(0), "score"));
	cr_assert_float_eq(typo, 0.9 * exact, 1e-9, "distance 1: 0.9 of the word (%g, %g)", typo, exact);
}

Test(textsearch, a_word_in_the_index_is_not_expanded)
{
	cr_assert_eq(search("plates"), 3);
	cr_assert_null(json_object_get(json_array_get(json_object_get(hit(0), "evidence"), 0), "fuzzy"));
}

Test(textsearch, the_hit_record_has_the_chunk_fields_and_the_query_fields)
{
	struct ev_err err = { 0 };
	json_t *h;
	char *s;

	cr_assert_eq(search_q(json_pack("{s:s,s:s,s:s,s:[f],s:{s:s}}", "query_id", "q9", "query",
	    "propeller", "tag", "keep me", "vector", 0.5, "filters", "doc_id", "d1"), NULL, &err), 1,
	    "%s", err.msg);
	h = hit(0);
	json_object_del(h, "signals");
	s = json_dumps(h, JSON_COMPACT);
	{
		const char *want = "{\"query_id\":\"q9\",\"query\":\"propeller\",\"id\":\"d1:s:0\","
		    "\"doc_id\":\"d1\",\"rank\":1,\"score\":";

		cr_assert_eq(strncmp(s, want, strlen(want)), 0, "%s", s);
	}
	free(s);
	cr_assert_str_eq(json_string_value(json_object_get(h, "lane")), "text");
	cr_assert_str_eq(json_string_value(json_object_get(h, "section_id")), "d1:s");
	cr_assert_str_eq(json_string_value(json_object_get(h, "title")), "Wing in a slipstream");
	cr_assert_str_eq(json_string_value(json_object_get(h, "section_title")), "Results");
	cr_assert_str_eq(json_string_value(json_object_get(h, "section_path")), "Results");
	cr_assert_str_eq(json_string_value(json_object_get(h, "source_uri")), "file:d1");
	cr_assert_eq(json_integer_value(json_object_get(h, "chunk_index")), 0);
	cr_assert_eq(json_integer_value(json_object_get(h, "offset_start")), 0);
	cr_assert_eq(json_integer_value(json_object_get(h, "offset_end")), 50);
	cr_assert_str_eq(json_string_value(json_object_get(h, "content_hash")), "sha256:d1");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(h, "metadata"), "lang")), "en");
	cr_assert_str_eq(json_string_value(json_object_get(h, "tag")), "keep me");
	cr_assert_str_eq(json_string_value(json_object_get(h, "published_date")), "1958-03-01");
	cr_assert_null(json_object_get(h, "source_type"));	/* the document declared none */
	cr_assert_null(json_object_get(h, "vector"));
	/* the filters the lane applied, for the pack's explain.filters_applied */
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(h, "filters"), "doc_id")),
	    "d1");
	cr_assert_str_eq(json_string_value(json_object_get(h, "snippet")),
	    "the lift of a wing in a \xc2\xabpropeller\xc2\xbb slipstream rises");
}

Test(textsearch, matched_terms_name_the_query_words_found_in_title_or_text)
{
	json_t *m;

	expect_docs(NULL, "Results, viscosity and WINGS", 3, "d1 d2 d3");
	m = json_object_get(json_array_get(json_object_get(hit(0), "evidence"), 0), "matched_terms");
	cr_assert_eq(json_array_size(m), 2);
	cr_assert_str_eq(json_string_value(json_array_get(m, 0)), "Results");
	cr_assert_str_eq(json_string_value(json_array_get(m, 1)), "WINGS");
}

Test(textsearch, scores_ranks_and_normalisation)
{
	double best, s1;

	cr_assert_eq(search("plate"), 3);
	best = json_real_value(json_object_get(hit(0), "score"));
	s1 = json_real_value(json_object_get(hit(1), "score"));
	cr_assert_gt(best, s1);
	for (size_t i = 0; i < 3; i++) {
		json_t *sig = json_object_get(hit(i), "signals");
		double sc = json_real_value(json_object_get(hit(i), "score"));

		cr_assert_eq(json_integer_value(json_object_get(hit(i), "rank")), (json_int_t)i + 1);
		cr_assert_eq(json_integer_value(json_object_get(sig, "fts_rank")), (json_int_t)i + 1);
		cr_assert_float_eq(json_real_value(json_object_get(sig, "fts_score")), sc, 1e-12);
		cr_assert_float_eq(json_real_value(json_object_get(sig, "fts_norm")),
		    sc / (best > 1 ? best : 1), 1e-12);
	}
}

Test(textsearch, normalisation_does_not_inflate_scores_below_one)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	json_t *sig;

	o.w_title = o.w_section = 0;
	o.w_text = 0.001;
	cr_assert_eq(search_with(&o, "hypersonic"), 1);
	sig = json_object_get(hit(0), "signals");
	cr_assert_lt(json_real_value(json_object_get(sig, "fts_score")), 1);
	cr_assert_float_eq(json_real_value(json_object_get(sig, "fts_norm")),
	    json_real_value(json_object_get(sig, "fts_score")), 1e-12);
}

Test(textsearch, k_limits_the_hits)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.k = 1;
	expect_docs(&o, "plate", 1, "d6");
}

static int
search_filtered(long long k, const char *filters_json, struct ev_err *err)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	json_t *f = json_loads(filters_json, 0, NULL);

	cr_assert_not_null(f, "bad test json %s", filters_json);
	o.k = k;
	open_ts(&o);
	return search_q(json_pack("{s:s,s:s,s:o}", "query_id", "q", "query", "plate wing flat layer", "filters", f),
	    NULL, err);
}

Test(textsearch, filters_apply_inside_the_query_so_k_hits_come_back)
{
	struct ev_err err = { 0 };

	cr_assert_eq(search_filtered(2, "{\"doc_ids\": [\"d1\", \"d3\", \"d4\"]}", &err), 2, "%s", err.msg);
	cr_assert_str_eq(docs_of_hits(), "d3 d1", "the best two of the documents named");
	cr_assert_eq(search_filtered(1, "{\"doc_id\": \"d1\"}", &err), 1, "%s", err.msg);
	cr_assert_str_eq(docs_of_hits(), "d1");
}

Test(textsearch, metadata_filters_compare_values_with_their_types)
{
	struct ev_err err = { 0 };

	cr_assert_eq(search_filtered(10, "{\"metadata\": {\"lang\": \"en\"}}", &err), 2, "%s", err.msg);
	cr_assert_str_eq(docs_of_hits(), "d1 d4");
	cr_assert_eq(search_filtered(10, "{\"metadata\": {\"lang\": [\"fr\", \"de\"]}}", &err), 1);
	cr_assert_str_eq(docs_of_hits(), "d2");
	cr_assert_eq(search_filtered(10, "{\"metadata\": {\"year\": 1958}}", &err), 1);
	cr_assert_str_eq(docs_of_hits(), "d1");
	cr_assert_eq(search_filtered(10, "{\"metadata\": {\"year\": \"1958\"}}", &err), 0,
	    "a string is not a number");
	cr_assert_eq(search_filtered(10, "{\"metadata\": {\"peer\": true}}", &err), 1);
	cr_assert_eq(search_filtered(10, "{\"metadata\": {\"lang\": \"en\", \"year\": 1958}}", &err), 1);
	cr_assert_eq(search_filtered(10, "{\"metadata\": {\"nosuch\": \"en\"}}", &err), 0);
}

Test(textsearch, date_ranges_include_both_ends_at_their_precision)
{
	struct ev_err err = { 0 };

	cr_assert_eq(search_filtered(10, "{\"published_date\": {\"from\": \"1960\"}}", &err), 2, "%s", err.msg);
	cr_assert_str_eq(docs_of_hits(), "d3 d2");
	cr_assert_eq(search_filtered(10, "{\"published_date\": {\"to\": \"1960-11\"}}", &err), 2);
	cr_assert_str_eq(docs_of_hits(), "d1 d2");
	cr_assert_eq(search_filtered(10, "{\"published_date\": {\"from\": \"1958-03-02\", \"to\": \"1960\"}}",
	    &err), 1);
	cr_assert_str_eq(docs_of_hits(), "d2");
}

static void
bad_filter(const char *filters_json, const char *msg)
{
	struct ev_err err = { 0 };

	cr_assert_eq(search_filtered(10, filters_json, &err), -1, "%s accepted", filters_json);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "stdin:7");
	cr_assert_str_eq(err.msg, msg);
}

Test(textsearch, bad_filters_are_bad_input)
{
	bad_filter("{\"lang\": \"en\"}", "unknown filter 'lang' (known: doc_id, doc_ids, metadata, "
	    "published_date, source_type, language)");
	bad_filter("{\"doc_id\": 3}", "filter 'doc_id' must be a string or a non-empty array of strings");
	bad_filter("{\"doc_ids\": []}", "filter 'doc_ids' must be a string or a non-empty array of strings");
	bad_filter("{\"doc_ids\": [\"a\", 1]}", "filter 'doc_ids' must be a string or a non-empty array of strings");
	bad_filter("{\"metadata\": [1]}", "filter 'metadata' must be an object of keys and values");
	bad_filter("{\"metadata\": {\"a\": {\"b\": 1}}}", "metadata filter 'a' must be a string, number, "
	    "true, false, null or an array of them");
	bad_filter("{\"metadata\": {\"a\": []}}", "metadata filter 'a' is an empty array");
	bad_filter("{\"published_date\": {\"since\": \"2020\"}}",
	    "unknown key 'since' in filter 'published_date' (known: from, to)");
	bad_filter("{\"published_date\": {\"from\": \"yesterday\"}}",
	    "'published_date.from' must be a date such as \"2021-06-30\"");
	bad_filter("{\"published_date\": {\"to\": 2020}}",
	    "'published_date.to' must be a date such as \"2021-06-30\"");
	bad_filter("[]", "field 'filters' must be an object");
}

Test(textsearch, a_query_that_is_not_a_string_is_bad_input)
{
	struct ev_err err = { 0 };

	cr_assert_eq(search_q(json_pack("{s:s,s:i}", "query_id", "q", "query", 5), NULL, &err), -1);
	cr_assert_str_eq(err.msg, "field 'query' must be a string");
	cr_assert_eq(err.code, 2);
}

Test(textsearch, a_huge_query_is_searched_by_its_first_thousand_words)
{
	struct ev_err err = { 0 };
	char *q = malloc(200000), *p = q;
	int flags;

	for (int i = 0; i < 20000; i++)
		p += sprintf(p, "w%d ", i);
	strcpy(p, "wing");
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", q), &flags, &err), 0, "%s", err.msg);
	cr_assert_eq(flags, EV_TS_TRUNCATED);
	free(q);
}

Test(textsearch, edit_distance)
{
	cr_assert_eq(ev_editdist("kitten", 6, "sitting", 7, 5), 3);
	cr_assert_eq(ev_editdist("kitten", 6, "sitting", 7, 2), 3, "over max: max + 1");
	cr_assert_eq(ev_editdist("abcd", 4, "acbd", 4, 3), 1, "a transposition");
	cr_assert_eq(ev_editdist("caf\xc3\xa9", 5, "cafe", 4, 3), 1, "code points, not bytes");
	cr_assert_eq(ev_editdist("\xe2" "ab", 3, "ab", 2, 3), 1,
	    "an invalid byte is one character, never swallowing the letters after it");
	cr_assert_eq(ev_editdist("", 0, "abc", 3, 3), 3);
	cr_assert_eq(ev_editdist("same", 4, "same", 4, 0), 0);
}

Test(textsearch, request_words_are_dropped_unless_they_are_the_whole_query)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	json_t *m;

	cr_assert_eq(search("find papers with information on heat"), 1);
	m = json_object_get(json_array_get(json_object_get(hit(0), "evidence"), 0), "matched_terms");
	cr_assert_eq(json_array_size(m), 1);
	cr_assert_str_eq(json_string_value(json_array_get(m, 0)), "heat");
	cr_assert_eq(search("find the plates"), 3, "'plates' is searched");
	cr_assert_eq(search("known"), 0, "alone, a request word is searched (and absent)");
	o.drop_request_words = 0;
	cr_assert_eq(search_with(&o, "plate or documents"), 3);
}

Test(textsearch, stem_collisions_with_stop_words_are_searched)
{
	struct ev_err err = { 0 };
	int flags;

	/* "used" and "one" stem to "us" and "on", stems of stop words. */
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", "used"), &flags, &err), 0);
	cr_assert_eq(flags, 0, "'used' is a word to search for");
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", "one"), &flags, &err), 0);
	cr_assert_eq(flags, 0, "'one' is a word to search for");
	cr_assert_eq(search_q(json_pack("{s:s,s:s}", "query_id", "q", "query", "us on"), &flags, &err), 0);
	cr_assert_eq(flags, EV_TS_NO_TERMS, "'us' and 'on' are stop words");
}

/* Allocation failure: SQLite's and Jansson's allocations are counted
 * together and the fail_at-th fails (0: none). */
static sqlite3_mem_methods sqlite_mem;
static long oom_at, oom_count;
static int oom_armed;

static int
oom_now(void)
{
	return oom_armed && ++oom_count == oom_at;
}

static void *
oom_sqlite_malloc(int n)
{
	return oom_now() ? NULL : sqlite_mem.xMalloc(n);
}

static void *
oom_sqlite_realloc(void *p, int n)
{
	return oom_now() ? NULL : sqlite_mem.xRealloc(p, n);
}

static void *
oom_json_malloc(size_t n)
{
	return oom_now() ? NULL : malloc(n);
}

/* Open the store, search "wing plate" (hits with metadata, titles, section
 * paths) with the fail_at-th allocation failing, close.  Returns the hits
 * as text (malloc'd), or NULL with *err set. */
static char *
hits_failing_at(long fail_at, struct ev_err *err)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q1", "query", "wing plate slipstrem");
	char *s = NULL;
	int r, flags;

	st = ev_store_open(path, EV_STORE_READ, err);
	cr_assert_not_null(st, "%s", err->msg);
	open_ts(&o);
	json_array_clear(hits);
	oom_count = 0;
	oom_at = fail_at;
	oom_armed = 1;
	json_set_alloc_funcs(oom_json_malloc, free);
	r = ev_textsearch_query(ts, q, "stdin:1", hits, &flags, err);
	json_set_alloc_funcs(malloc, free);
	oom_armed = 0;
	if (r >= 0) {
		s = json_dumps(hits, JSON_SORT_KEYS | JSON_COMPACT);
		cr_assert_not_null(s);
	}
	json_decref(q);
	ev_textsearch_close(ts);
	ts = NULL;
	ev_store_close(st);
	st = NULL;
	return s;
}

/* Regression (finding F11): sqlite3_column_text() returns NULL when it runs
 * out of memory; a hit was then written with "section_id": null (or
 * "section_path": null), exit 0.  Now any allocation failure fails the query
 * as a runtime error (exit 1), and hits returned are always the right ones. */
Test(textsearch, out_of_memory_fails_the_query_and_never_writes_a_null_field)
{
	sqlite3_mem_methods m;
	struct ev_err err = { 0 };
	char *want, *got;
	long n, total;

	ev_textsearch_close(ts);
	ts = NULL;
	ev_store_close(st);
	st = NULL;
	cr_assert_eq(sqlite3_shutdown(), SQLITE_OK);
	cr_assert_eq(sqlite3_config(SQLITE_CONFIG_GETMALLOC, &sqlite_mem), SQLITE_OK);
	m = sqlite_mem;
	m.xMalloc = oom_sqlite_malloc;
	m.xRealloc = oom_sqlite_realloc;
	cr_assert_eq(sqlite3_config(SQLITE_CONFIG_MALLOC, &m), SQLITE_OK);
	cr_assert_eq(sqlite3_initialize(), SQLITE_OK);

	want = hits_failing_at(0, &err);
	cr_assert_not_null(want, "%s", err.msg);
	cr_assert_neq(strstr(want, "\"section_path\""), NULL);
	total = oom_count;
	cr_assert_gt(total, 20);
	for (n = 1; n <= total; n++) {
		struct ev_err e = { 0 };

		if ((got = hits_failing_at(n, &e)) == NULL) {
			/* (SQLite names some of its failures otherwise, e.g. "unable
			 * to open a temporary database file": a runtime error too) */
			cr_assert_eq(e.code, EV_EXIT_RUNTIME, "N=%ld: code %d: %s", n, e.code, e.msg);
			cr_assert_neq(e.msg[0], '\0', "N=%ld: no message", n);
			continue;
		}
		cr_assert_str_eq(got, want, "N=%ld: hits differ from the right ones:\n%s", n, got);
		free(got);
	}
	free(want);
}

/* The score of the hit of document doc, or 0 when none. */
static double
score_of(const char *doc)
{
	size_t i;
	json_t *h;

	json_array_foreach(hits, i, h)
		if (strcmp(json_string_value(json_object_get(h, "doc_id")), doc) == 0)
			return json_real_value(json_object_get(h, "score"));
	return 0;
}

/* -bm25() of one row for an FTS5 expression, with the column weights of
 * the title, the section title and the text. */
static double
fts5_bm25_weighed(const char *expr, long long rowid, double title, double section, double text)
{
	sqlite3_stmt *s;
	double v = 0;
	char sql[200];

	snprintf(sql, sizeof sql, "SELECT -bm25(chunks_fts, %.17g, %.17g, %.17g) FROM chunks_fts"
	    " WHERE chunks_fts MATCH ?1 AND rowid = ?2", title, section, text);
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), sql, -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, expr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, rowid);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_double(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* -bm25() of one row for an FTS5 expression, with the lane's default column
 * weights. */
static double
fts5_bm25(const char *expr, long long rowid)
{
	const struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	return fts5_bm25_weighed(expr, rowid, o.w_title, o.w_section, o.w_text);
}

/* FTS5's own bm25() parameters in o (k1 1.2, b 0.75), for scores compared
 * with FTS5's. */
static void
fts5_k1_b(struct ev_textsearch_opts *o)
{
	o->k1 = EV_BM25_K1;
	o->b = EV_BM25_B;
}

static const char *
evidence_str(size_t i, const char *key, size_t j)
{
	json_t *ev = json_array_get(json_object_get(hit(i), "evidence"), 0);

	return json_string_value(json_array_get(json_object_get(ev, key), j));
}

Test(textsearch, without_proximity_or_feedback_scores_are_fts5_bm25s)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.proximity = 0;
	o.feedback_docs = 0;
	fts5_k1_b(&o);
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	cr_assert_eq(score_of("d2"), fts5_bm25("\"flat\" OR \"plate\" OR \"wing\"", 2));
	cr_assert_eq(score_of("d3"), fts5_bm25("\"flat\" OR \"plate\" OR \"wing\"", 3));
	cr_assert_eq(score_of("d1"), fts5_bm25("\"flat\" OR \"plate\" OR \"wing\"", 1));
}

/* A title or section title weighs w_text + (w - w_text) x the share of the
 * chunks that have one: d1 alone has a section title, and a seventh chunk
 * without a title makes the titled six of seven. */
Test(textsearch, a_field_weighs_by_the_share_of_the_chunks_that_have_it)
{
	static const char expr[] = "\"results\" OR \"wing\"";
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.proximity = 0;
	o.feedback_docs = 0;
	fts5_k1_b(&o);
	cr_assert_eq(search_with(&o, "results wing"), 2);
	cr_assert_float_eq(score_of("d1"), fts5_bm25_weighed(expr, 1, 4, 1 + 3 * (1.0 / 6), 1), 1e-12);
	cr_assert_float_neq(score_of("d1"), fts5_bm25_weighed(expr, 1, 4, 4, 1), 1e-6);
	o.w_text = 2;
	cr_assert_eq(search_with(&o, "results wing"), 2);
	cr_assert_float_eq(score_of("d1"), fts5_bm25_weighed(expr, 1, 4, 2 + 2 * (1.0 / 6), 2), 1e-12);
	insert_row("INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash)"
	    " VALUES(7, 'd1:s:1', 'd1', 'd1:s', 1, 'an untitled wing', 'x')", 0, NULL, 0);
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks WHERE rowid = 7");
	o.w_text = 1;
	cr_assert_eq(search_with(&o, "results wing"), 3);
	cr_assert_float_eq(score_of("d1"),
	    fts5_bm25_weighed(expr, 1, 1 + 3 * (6.0 / 7), 1 + 3 * (1.0 / 7), 1), 1e-12);
}

/* d2's score for "flat plate wing" with BM25's k1 and b, and no more. */
static double
d2_score(double k1, double b)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.proximity = 0;
	o.feedback_docs = 0;
	o.k1 = k1;
	o.b = b;
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	return score_of("d2");
}

Test(textsearch, k1_and_b_reach_the_ranking)
{
	double fts5 = fts5_bm25("\"flat\" OR \"plate\" OR \"wing\"", 2);

	cr_assert_eq(d2_score(1.2, 0.75), fts5);
	cr_assert_neq(d2_score(1.2, 0.3), fts5);
	cr_assert_neq(d2_score(2.0, 0.75), fts5);
}

/* Without a k1, the store sets it: k1_scale x ln(the mean chunk length in
 * tokens).  The six chunks hold 75 tokens (titles, section titles and
 * texts): a mean of 12.5, so k1 0.25 x ln 12.5 = 0.631 by default. */
Test(textsearch, k1_is_from_the_mean_chunk_length_unless_set)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_lenstats ls;
	struct ev_err err = { 0 };
	double got;

	cr_assert_eq(ev_lenstats_get(st, NULL, &ls, &err), 0, "%s", err.msg);
	cr_assert_eq(ls.rows, 6);
	cr_assert_eq(ls.tokens, 75);
	cr_assert(isnan(o.k1));
	cr_assert_eq(o.k1_scale, 0.25);
	o.proximity = 0;
	o.feedback_docs = 0;
	o.b = 0.75;
	/* each score is read before d2_score() searches again */
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	got = score_of("d2");
	cr_assert_eq(got, d2_score(0.25 * log(75.0 / 6.0), 0.75));
	cr_assert_neq(got, d2_score(1.1, 0.75));
	o.k1_scale = 0.5;
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	got = score_of("d2");
	cr_assert_eq(got, d2_score(0.5 * log(75.0 / 6.0), 0.75));
	o.k1 = 2;
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	got = score_of("d2");
	cr_assert_eq(got, d2_score(2, 0.75));
	cr_assert_neq(got, d2_score(0.5 * log(75.0 / 6.0), 0.75));
}

Test(textsearch, proximity_adds_the_pair_of_words_side_by_side)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	double d2, d3, d6;

	o.proximity = 0;
	fts5_k1_b(&o);
	cr_assert_eq(search_with(&o, "flat plate"), 3);
	d2 = score_of("d2"), d3 = score_of("d3"), d6 = score_of("d6");
	o.proximity = 0.5;
	cr_assert_eq(search_with(&o, "flat plate"), 3);
	/* d2 and d3 hold "flat plate"; d6 only "plate". */
	cr_assert_float_eq(score_of("d2"), d2 + 0.5 * fts5_bm25("\"flat plate\"", 2), 1e-12);
	cr_assert_float_eq(score_of("d3"), d3 + 0.5 * fts5_bm25("\"flat plate\"", 3), 1e-12);
	cr_assert_gt(score_of("d2"), d2);
	cr_assert_eq(score_of("d6"), d6);
}

Test(textsearch, proximity_keeps_all_terms_and)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.all_terms = 1;
	o.proximity = 1;
	/* "flat plate" side by side in d2 does not admit it: no "wing". */
	expect_docs(&o, "flat plate wing", 1, "d3");
}

Test(textsearch, a_query_longer_than_long_query_is_read_as_a_document_without_pairs)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	double plain, paired;

	o.proximity = 0;
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	plain = score_of("d2");
	cr_assert_null(json_object_get(json_object_get(hit(0), "signals"), "query_as_document"));
	o.proximity = 0.5;
	o.long_query = 3;	/* three searched words: a request */
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	paired = score_of("d2");
	cr_assert_gt(paired, plain);
	cr_assert_null(json_object_get(json_object_get(hit(0), "signals"), "query_as_document"));
	o.long_query = 2;	/* more than two: a document, no pairs */
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	cr_assert_float_eq(score_of("d2"), plain, 1e-12);
	for (size_t i = 0; i < 4; i++)
		cr_assert(json_is_true(json_object_get(json_object_get(hit(i), "signals"),
		    "query_as_document")));
	o.long_query = 0;	/* never */
	cr_assert_eq(search_with(&o, "flat plate wing"), 4);
	cr_assert_float_eq(score_of("d2"), paired, 1e-12);
}

/* A query read as a document is not typo-repaired, as a document is not:
 * "wnig" is one transposition from "wing" (d1, d3). */
Test(textsearch, a_query_read_as_a_document_is_not_repaired)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.feedback_docs = 0;
	o.long_query = 0;	/* never a document: the typo is repaired */
	cr_assert_eq(search_with(&o, "hypersonic wnig"), 3);
	cr_assert_str_eq(docs_of_hits(), "d4 d1 d3");
	o.long_query = 1;	/* two searched words: a document */
	expect_docs(&o, "hypersonic wnig", 1, "d4");
}

/* A long query weighs a word it repeats by 1 + ln(its count), as a document
 * weighs a term (SMART's logarithmic tf); a request counts it once. */
Test(textsearch, a_long_query_weighs_a_repeated_word_by_one_plus_the_log_of_its_count)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	double plate, flat_wing;

	o.proximity = 0;
	o.feedback_docs = 0;
	o.long_query = 0;
	cr_assert_eq(search_with(&o, "plate"), 3);
	plate = score_of("d2");
	cr_assert_eq(search("flat wing"), 3);
	flat_wing = score_of("d2");
	cr_assert_eq(search("flat plate wing plate plate"), 4);	/* a request */
	cr_assert_float_eq(score_of("d2"), flat_wing + plate, 1e-9);
	o.long_query = 2;	/* three words: a document */
	cr_assert_eq(search_with(&o, "flat plate wing plate plate"), 4);
	cr_assert_float_eq(score_of("d2"), flat_wing + (1.0 + log(3.0)) * plate, 1e-9);
	cr_assert_eq(search("flat plates wing plating plate"), 4);	/* one stem, three times */
	cr_assert_float_eq(score_of("d2"), flat_wing + (1.0 + log(3.0)) * plate, 1e-9);
}

Test(textsearch, feedback_reranks_by_the_best_chunks_words_and_lists_them)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.feedback_docs = 0;
	expect_docs(&o, "plate", 3, "d6 d2 d3");
	o.feedback_docs = 2;
	expect_docs(&o, "plate", 3, "d2 d3 d6");
	for (size_t i = 0; i < 3; i++)
		cr_assert_str_eq(evidence_str(i, "matched_terms", 0), "plate");
	/* d2's words, the most frequent first, then by stem; each as the
	 * chunk first wrote it. */
	{
		json_t *ev = json_array_get(json_object_get(hit(0), "evidence"), 0);
		char *got = json_dumps(json_object_get(ev, "feedback_terms"), JSON_COMPACT);

		cr_assert_str_eq(got, "[\"flow\",\"past\",\"Shear\",\"flat\",\"simple\",\"small\","
		    "\"viscosity\"]");
		free(got);
	}
	/* d3 holds "flat", which d2 fed back; d6 holds only the query's word. */
	cr_assert_str_eq(evidence_str(1, "feedback_terms", 0), "flat");
	cr_assert_null(evidence_str(1, "feedback_terms", 1));
	cr_assert_null(evidence_str(2, "feedback_terms", 0));
}

Test(textsearch, feedback_never_admits_a_chunk_without_a_query_word)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	/* d1's words (lift, propel, slipstream, ...) feed back, weighing as
	 * much as the query; d3 holds "wing" but d4, with none of them, is
	 * never found. */
	o.feedback_docs = 1;
	o.feedback_weight = 1;
	expect_docs(&o, "slipstream", 1, "d1");
}

Test(textsearch, feedback_needs_as_many_chunks_as_it_learns_from)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	double d2, d3, d6;

	o.feedback_docs = 0;
	cr_assert_eq(search_with(&o, "plate"), 3);
	d2 = score_of("d2"), d3 = score_of("d3"), d6 = score_of("d6");
	o.feedback_docs = 4;	/* only 3 chunks hold "plate" */
	cr_assert_eq(search_with(&o, "plate"), 3);
	cr_assert_eq(score_of("d2"), d2);
	cr_assert_eq(score_of("d3"), d3);
	cr_assert_eq(score_of("d6"), d6);
	cr_assert_null(evidence_str(0, "feedback_terms", 0));
}

Test(textsearch, feedback_is_off_with_all_terms_and_raw_fts)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.feedback_docs = 1;
	o.all_terms = 1;
	cr_assert_eq(search_with(&o, "plate"), 3);
	cr_assert_null(evidence_str(0, "feedback_terms", 0));
	o.all_terms = 0;
	o.raw_fts = 1;
	cr_assert_eq(search_with(&o, "plate"), 3);
	cr_assert_null(evidence_str(0, "feedback_terms", 0));
}

/* ---- Dynamic pruning: the same hits as ranking every chunk ------------------ */

#define PRUNE_VOCAB 600
#define PRUNE_CHUNKS 4000

/* Word i of a made-up vocabulary (two to four syllables, no stop word). */
static void
prune_word(unsigned i, char *w)
{
	static const char *const syl[] = { "ka", "lo", "mi", "ne", "pu", "ra", "so", "ti", "vu", "ze",
		"bal", "dor", "fen", "gul", "hir", "jam" };
	int n = 0;

	w[0] = '\0';
	do {
		strcat(w, syl[i % 16]);
		i /= 16;
		n++;
	} while (i > 0 || n < 2);
	strcat(w, "x");	/* no word of English, whatever the syllables */
}

/* A new store (new_store()) in a transaction, and insert_sql, the
 * statement that puts its chunks, prepared. */
static sqlite3_stmt *
begin_store(const char *kind, const char *insert_sql)
{
	struct ev_err err = { 0 };
	sqlite3_stmt *s;

	new_store(kind, &err);
	tu_exec_ok(st, "BEGIN");
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), insert_sql, -1, &s, NULL), SQLITE_OK);
	return s;
}

/* A word drawn with a skew: low indices (common words) far more often. */
static unsigned
prune_draw(unsigned long long *rng)
{
	double u = (double)(tu_xorshift(rng) % 1000000) / 1e6;

	return (unsigned)(PRUNE_VOCAB * u * u * u);
}

/* A store of PRUNE_CHUNKS chunks of skewed made-up words: large enough that
 * a query's common words hold most chunks and its rare words few. */
static void
prune_setup(void)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	unsigned long long rng = 88172645463325252ULL;
	struct ev_buf text = EV_BUF_INIT, title = EV_BUF_INIT;
	sqlite3_stmt *s = begin_store("prune", "INSERT INTO chunks(rowid, id, doc_id, section_id,"
	    " chunk_index, title, section_title, section_path, text, offset_start, offset_end,"
	    " content_hash) VALUES(?1, 'p' || ?1 || ':s:0', 'p' || ?1, 'p' || ?1 || ':s', 0, ?2, NULL,"
	    " NULL, ?3, 0, length(?3), 'sha256:' || ?1)");
	char w[32];

	for (int i = 1; i <= PRUNE_CHUNKS; i++) {
		int n = 20 + (int)(tu_xorshift(&rng) % 120);

		ev_buf_reset(&text);
		ev_buf_reset(&title);
		for (int j = 0; j < 4; j++) {
			prune_word(prune_draw(&rng), w);
			cr_assert_eq(ev_buf_printf(&title, "%s%s", j ? " " : "", w), 0);
		}
		for (int j = 0; j < n; j++) {
			prune_word(prune_draw(&rng), w);
			cr_assert_eq(ev_buf_printf(&text, "%s%s", j ? " " : "", w), 0);
		}
		sqlite3_bind_int(s, 1, i);
		sqlite3_bind_text(s, 2, ev_buf_str(&title), -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, ev_buf_str(&text), -1, SQLITE_STATIC);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	tu_exec_ok(st, "INSERT INTO documents(doc_id, title, source_uri, published_date, content_hash)"
	    " SELECT doc_id, title, 'file:' || doc_id, CASE WHEN rowid % 3 = 0 THEN '2021' ELSE"
	    " '2019' END, 'x' FROM chunks");
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks");
	tu_exec_ok(st, "COMMIT");
	ev_buf_release(&text);
	ev_buf_release(&title);
	hits = json_array();
	open_ts(&o);
}

TestSuite(prune, .init = prune_setup, .fini = teardown);

static int swept_queries;	/* queries whose last pass was swept (postings.h) */

/* Query rec with o, exhaustive and not: the same hit records, field for
 * field (ids, ranks, scores to the bit, snippets, evidence).  Returns the
 * number of hits. */
static int
same_hits(struct ev_textsearch_opts *o, json_t *rec, const char *text)
{
	json_t *exhaustive = json_array();
	struct ev_err err = { 0 };
	int f, n1, n2;

	o->exhaustive = 1;
	open_ts(o);
	n1 = ev_textsearch_query(ts, rec, "q", exhaustive, &f, &err);
	cr_assert_geq(n1, 0, "%s: %s", text, err.msg);
	cr_assert_eq(ev_textsearch_pruned(ts), 0);
	cr_assert_eq(ev_textsearch_swept(ts), 0);
	o->exhaustive = 0;
	open_ts(o);
	json_array_clear(hits);
	n2 = ev_textsearch_query(ts, rec, "q", hits, &f, &err);
	cr_assert_eq(n2, n1, "'%s': %d hits, %d exhaustive (%s)", text, n2, n1, err.msg);
	for (int i = 0; i < n1; i++)
		cr_assert(json_equal(json_array_get(hits, (size_t)i),
		    json_array_get(exhaustive, (size_t)i)), "'%s': hit %d differs", text, i + 1);
	swept_queries += ev_textsearch_swept(ts);
	json_decref(exhaustive);
	return n1;
}

/* Query q's nw words, drawn with *rng, into text. */
typedef void draw_words(unsigned long long *rng, int q, int nw, struct ev_buf *text);

/* Every query of nq, its words from draw (every third filtered by date
 * when filtered): same_hits(), and, with below_k, fewer hits than o->k.
 * Returns the number of queries whose last pass left phrases out. */
static int
queries_as_exhaustive(struct ev_textsearch_opts *o, int nq, int nw, unsigned long long rng,
    draw_words *draw, int filtered, int below_k)
{
	int pruned = 0;

	for (int q = 0; q < nq; q++) {
		struct ev_buf text = EV_BUF_INIT;
		json_t *rec;

		draw(&rng, q, nw, &text);
		rec = json_pack("{s:s,s:s}", "query_id", "q", "query", ev_buf_str(&text));
		if (filtered && q % 3 == 2)
			json_object_set_new(rec, "filters", json_pack("{s:{s:s}}", "published_date",
			    "from", "2020"));
		cr_assert_gt(same_hits(o, rec, ev_buf_str(&text)), 0, "%s", ev_buf_str(&text));
		if (below_k)
			cr_assert_lt(json_array_size(hits), (size_t)o->k, "%s", ev_buf_str(&text));
		pruned += ev_textsearch_pruned(ts) > 0;
		json_decref(rec);
		ev_buf_release(&text);
	}
	return pruned;
}

/* nw skewed words, the first three rarer. */
static void
skewed_words(unsigned long long *rng, int q, int nw, struct ev_buf *text)
{
	char w[32];

	(void)q;
	for (int j = 0; j < nw; j++) {
		prune_word(j < 3 && nw > 3 ? 200 + (unsigned)(tu_xorshift(rng) % 400) : prune_draw(rng), w);
		cr_assert_eq(ev_buf_printf(text, "%s%s", j ? " " : "", w), 0);
	}
}

/* Every query of nq (nw skewed words each, the first three rarer, every third
 * query filtered by date): same_hits().  Returns the number of queries
 * whose last pass left phrases out. */
static int
same_as_exhaustive(struct ev_textsearch_opts *o, int nq, int nw)
{
	o->prune_rows = -1;	/* pruned on this small store too */
	return queries_as_exhaustive(o, nq, nw, 2463534242ULL, skewed_words, 1, 0);
}

/* same_as_exhaustive() of 12 queries at k 10, then at k 100 without
 * feedback: more than 6 of them pruned each time. */
static void
at_k_10_then_without_feedback(struct ev_textsearch_opts *o)
{
	o->k = 10;
	cr_assert_gt(same_as_exhaustive(o, 12, 12), 6);
	o->k = 100;
	o->feedback_docs = 0;
	cr_assert_gt(same_as_exhaustive(o, 12, 12), 6);
}

Test(prune, with_the_defaults_the_hits_are_those_of_ranking_every_chunk)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	cr_assert_gt(same_as_exhaustive(&o, 24, 12), 12);
}

Test(prune, at_k_10_and_without_feedback_or_proximity_too)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	at_k_10_then_without_feedback(&o);
	o.proximity = 0;
	cr_assert_gt(same_as_exhaustive(&o, 12, 12), 6);
}

Test(prune, all_terms_and_fts5_defaults_too)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	fts5_k1_b(&o);
	o.feedback_docs = 0;
	cr_assert_gt(same_as_exhaustive(&o, 12, 12), 6);
	o.all_terms = 1;
	same_as_exhaustive(&o, 6, 2);
}

/* On a store of fewer chunks than 200 for each hit asked for (4,000 here),
 * a pass ranks every chunk: pruning's own passes would cost more than they
 * save.  At k=20 and below it prunes; the hits are the same either way. */
Test(prune, not_on_a_store_of_few_chunks_for_each_hit)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.feedback_docs = 0;
	o.k = 21;
	cr_assert_eq(queries_as_exhaustive(&o, 6, 12, 2463534242ULL, skewed_words, 0, 0), 0);
	o.k = 20;
	cr_assert_gt(queries_as_exhaustive(&o, 6, 12, 2463534242ULL, skewed_words, 0, 0), 0);
}

/* ---- The postings file: the same hits as FTS5, swept ------------------------ */

/* Real words, some that English and German stem apart (a query word of a
 * store of both languages then has two alternatives). */
static const char *const sweep_words[] = { "measurements", "boundary", "layers", "flows", "heating",
	"wings", "pressures", "plates", "turbulent", "nozzles", "engines", "waves", "shocks",
	"vortices", "temperatures", "stations" };
#define SWEEP_NWORDS (sizeof sweep_words / sizeof *sweep_words)
#define SWEEP_REAL 300
_Static_assert(PRUNE_CHUNKS == 4000, "sweep_setup() names the first real chunk's rowid");

/* Make the store's postings file. */
static void
build_postings(void)
{
	struct ev_err err = { 0 };

	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
}

static int german_every = 3;	/* every german_every-th real chunk is German */

/* The prune store, SWEEP_REAL chunks of real words after it (a third of
 * them German, or one in german_every), and its postings file. */
static void
sweep_setup(void)
{
	unsigned long long rng = 362436069ULL;
	struct ev_buf text = EV_BUF_INIT;
	sqlite3_stmt *s;

	prune_setup();
	tu_exec_ok(st, "BEGIN");
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "INSERT INTO chunks(rowid, id, doc_id,"
	    " section_id, chunk_index, title, text, content_hash, language) VALUES(?1, 'r' || ?1,"
	    " 'r' || ?1, 'r' || ?1 || ':s', 0, 'real', ?2, 'x', ?3)", -1, &s, NULL), SQLITE_OK);
	for (int i = 1; i <= SWEEP_REAL; i++) {
		int n = 5 + (int)(tu_xorshift(&rng) % 30);

		ev_buf_reset(&text);
		for (int j = 0; j < n; j++)
			cr_assert_eq(ev_buf_printf(&text, "%s%s", j ? " " : "",
			    sweep_words[tu_xorshift(&rng) % SWEEP_NWORDS]), 0);
		sqlite3_bind_int(s, 1, PRUNE_CHUNKS + i);
		sqlite3_bind_text(s, 2, ev_buf_str(&text), -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, i % german_every == 0 ? "de" : "en", -1, SQLITE_STATIC);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	tu_exec_ok(st, "INSERT INTO documents(doc_id, title, content_hash) SELECT doc_id, title, 'x' FROM"
	    " chunks WHERE rowid > 4000");
	/* (through chunks_src, as a writer does: each chunk stemmed for its
	 * language) */
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text) SELECT rowid, title,"
	    " section_title, text FROM chunks_src WHERE rowid > 4000");
	tu_exec_ok(st, "COMMIT");
	ev_buf_release(&text);
	build_postings();
	swept_queries = 0;
}

TestSuite(sweep, .init = sweep_setup, .fini = teardown);

/* Queries of real words (every other with a typo the vocabulary repairs):
 * same_hits() with o.  Returns how many were swept. */
static int
real_queries(struct ev_textsearch_opts *o, int nq)
{
	unsigned long long rng = 521288629ULL;
	int before = swept_queries;

	for (int q = 0; q < nq; q++) {
		struct ev_buf text = EV_BUF_INIT;
		json_t *rec;

		for (int j = 0; j < 2 + q % 5; j++)
			cr_assert_eq(ev_buf_printf(&text, "%s%s", j ? " " : "",
			    sweep_words[tu_xorshift(&rng) % SWEEP_NWORDS]), 0);
		if (q % 2 == 1)
			cr_assert_eq(ev_buf_adds(&text, " turbulant"), 0);
		rec = json_pack("{s:s,s:s}", "query_id", "q", "query", ev_buf_str(&text));
		cr_assert_gt(same_hits(o, rec, ev_buf_str(&text)), 0, "%s", ev_buf_str(&text));
		json_decref(rec);
		ev_buf_release(&text);
	}
	return swept_queries - before;
}

Test(sweep, with_the_defaults_the_hits_are_fts5s_to_the_bit)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	/* every query but the filtered ones (a third), the feedback pass
	 * scoring its pool */
	same_as_exhaustive(&o, 24, 12);
	cr_assert_eq(swept_queries, 16);
	/* the feedback pass over every chunk: most of them pruned (MaxScore
	 * over the postings) */
	o.feedback_pool = 0;
	cr_assert_gt(same_as_exhaustive(&o, 24, 12), 12);
	cr_assert_eq(swept_queries, 32);
}

/* The ids of the hits of query text with o, as a JSON array. */
static json_t *
hit_ids(struct ev_textsearch_opts *o, const char *text)
{
	json_t *rec = json_pack("{s:s,s:s}", "query_id", "q", "query", text), *ids = json_array();
	struct ev_err err = { 0 };
	int f;

	open_ts(o);
	json_array_clear(hits);
	cr_assert_geq(ev_textsearch_query(ts, rec, "q", hits, &f, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < json_array_size(hits); i++)
		json_array_append(ids, json_object_get(json_array_get(hits, i), "id"));
	json_decref(rec);
	return ids;
}

/* Whether every id of a is one of b's. */
static int
ids_within(const json_t *a, const json_t *b)
{
	for (size_t i = 0; i < json_array_size(a); i++) {
		size_t j = 0;

		while (j < json_array_size(b) && !json_equal(json_array_get(a, i), json_array_get(b, j)))
			j++;
		if (j == json_array_size(b))
			return 0;
	}
	return 1;
}

/* Each of 12 queries (skewed words) at k 5, the feedback pass (weighing
 * 0.9) ranking the first pass's best 8 chunks (its 5 feedback chunks among them): its
 * hits are FTS5's (filtered queries and --exhaustive rank the same pool),
 * and all among the best 8 of the query without feedback (the first
 * pass); over every chunk, some are not. */
Test(sweep, the_feedback_pass_ranks_only_the_first_pass_s_best_chunks)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT, first = EV_TEXTSEARCH_OPTS_INIT;
	unsigned long long rng = 2463534242ULL;
	int outside = 0;

	o.k = 5;
	o.feedback_docs = 5;
	o.feedback_weight = 0.9;	/* (the terms reorder the chunks most) */
	o.feedback_pool = 8;
	same_as_exhaustive(&o, 12, 12);
	cr_assert_eq(swept_queries, 8);
	first.k = 8;
	first.feedback_docs = 0;
	for (int q = 0; q < 12; q++) {
		struct ev_buf text = EV_BUF_INIT;
		json_t *pool, *ids;

		skewed_words(&rng, q, 12, &text);
		pool = hit_ids(&first, ev_buf_str(&text));
		cr_assert_eq(json_array_size(pool), 8);
		ids = hit_ids(&o, ev_buf_str(&text));
		cr_assert_eq(json_array_size(ids), 5);
		cr_assert(ids_within(ids, pool), "%s", ev_buf_str(&text));
		json_decref(ids);
		o.feedback_pool = 0;
		ids = hit_ids(&o, ev_buf_str(&text));
		outside += !ids_within(ids, pool);
		o.feedback_pool = 8;
		json_decref(ids);
		json_decref(pool);
		ev_buf_release(&text);
	}
	cr_assert_gt(outside, 0);
}

/* With the feedback all of the last pass's weight, the user's words weigh
 * nothing there: that pass cannot be pruned, and every row it touches is
 * scored (bm25.c, sweep_all()), most of them past the list of rows touched
 * (the marks read instead). */
Test(sweep, with_the_users_words_weighing_nothing_unpruned_and_the_same)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.feedback_weight = 1.0;
	/* (a third of the queries, the filtered ones, are ranked by FTS5; of
	 * those swept, the ones with feedback terms are not pruned) */
	cr_assert_lt(same_as_exhaustive(&o, 24, 12), 12);
	cr_assert_eq(swept_queries, 16);
}

Test(sweep, words_with_alternatives_typos_and_pairs_too)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	cr_assert_eq(real_queries(&o, 12), 12);
	o.k = 10;
	o.feedback_docs = 0;
	cr_assert_eq(real_queries(&o, 12), 12);
}

Test(sweep, split_over_two_threads_the_hits_are_the_same)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.split_rows = 1;	/* this small store too: its rows in two halves */
	same_as_exhaustive(&o, 24, 12);	/* (the pool's scores split too) */
	cr_assert_eq(swept_queries, 16);
	o.feedback_pool = 0;
	cr_assert_gt(same_as_exhaustive(&o, 24, 12), 12);
	cr_assert_eq(swept_queries, 32);
	cr_assert_eq(real_queries(&o, 12), 12);
	o.k = 10;
	o.feedback_docs = 0;
	cr_assert_gt(same_as_exhaustive(&o, 12, 12), 6);
	cr_assert_eq(real_queries(&o, 12), 12);
}

/* The sweep store with one real chunk in 40 German: a query word's German
 * stem (its minor alternative) holds a few rows, its English one (the
 * major) most, and the phrases are walked along their majors but for the
 * minors' rows (sweep.c: a word added as its major's list is read,
 * ev_sweep_add_alternatives(); a pair walked so, ev_sweep_major_rows()). */
static void
few_german_setup(void)
{
	german_every = 40;
	sweep_setup();
}

TestSuite(sweep_few_german, .init = few_german_setup, .fini = teardown);

Test(sweep_few_german, words_walked_along_their_major_stems_rank_as_fts5)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	cr_assert_eq(real_queries(&o, 16), 16);
	o.split_rows = 1;
	cr_assert_eq(real_queries(&o, 16), 16);
	o.k = 10;
	o.feedback_docs = 0;
	cr_assert_eq(real_queries(&o, 16), 16);
}

/* Each word itself's narrowed list (postings.h) in st's postings file
 * holds its entries in the chunks out of the Porter namespace (the German
 * ones and the made-up words' chunks, of no language), counts and
 * positions as its whole list has them, and only those: the words itself
 * into *words, those narrowed to fewer rows than their whole list's into
 * *narrowed. */
static void
check_narrowed_lists(int *words, int *narrowed)
{
	struct ev_err err = { 0 };
	struct ev_postings *p;
	sqlite3_stmt *s;
	int stale;

	*words = *narrowed = 0;
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_eq(stale, 0);
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT v.term, (SELECT count(DISTINCT i.doc)"
	    " FROM temp.test_instances i JOIN chunks c ON c.rowid = i.doc WHERE i.term = v.term AND"
	    " (c.language IS NULL OR c.language = 'de')) FROM chunks_vocab v WHERE v.term GLOB char(31) || char(31) || '*'",
	    -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		struct ev_postings_cursor whole, c;
		const char *t = (const char *)sqlite3_column_text(s, 0);
		int len = sqlite3_column_bytes(s, 0), r;
		long long german = sqlite3_column_int64(s, 1), seen = 0;
		char name[256];
		uint64_t kw[2000], kn[2000];

		cr_assert_lt(len + 1, (int)sizeof name);
		name[0] = EV_POSTINGS_NARROWED;
		memcpy(name + 1, t, (size_t)len);
		cr_assert_eq(ev_postings_term(p, name, len + 1, &c), german, "%s", t + 2);
		*narrowed += german < ev_postings_term(p, t, len, &whole);
		while ((r = ev_postings_next(&c)) == 1) {
			int m;

			cr_assert_eq(ev_postings_seek(&whole, c.rowid), 1);
			cr_assert_eq(whole.rowid, c.rowid, "%s", t + 2);
			cr_assert_eq(memcmp(whole.count, c.count, sizeof c.count), 0, "%s", t + 2);
			cr_assert_geq(m = ev_postings_positions(&c, kn), 0);
			cr_assert_eq(ev_postings_positions(&whole, kw), m);
			cr_assert_eq(memcmp(kw, kn, (size_t)m * sizeof *kn), 0, "%s", t + 2);
			seen++;
		}
		cr_assert_eq(r, 0);
		cr_assert_eq(seen, german, "%s", t + 2);
		(*words)++;
	}
	sqlite3_finalize(s);
	ev_postings_close(p);
}

/* (A query word searched as its English stem or itself reads the stem's
 * list and the narrowed one: the rankings above are FTS5's.) */
Test(sweep_few_german, each_word_itselfs_narrowed_list_is_its_entries_out_of_english_chunks)
{
	struct ev_err err = { 0 };
	int words, narrowed;

	tu_exec_ok(st, "CREATE VIRTUAL TABLE temp.test_instances USING fts5vocab(main, chunks_fts,"
	    " instance)");
	/* English chunks hold no word itself: each narrowed list is whole */
	check_narrowed_lists(&words, &narrowed);
	cr_assert_eq(narrowed, 0, "%d of %d", narrowed, words);
	cr_assert_gt(words, 10);
	/* in an index of version 2, the real words and the real chunks'
	 * title, "real", are in English chunks too; the made-up words in no
	 * English chunk */
	tu_index_of_version_2(st);
	cr_assert_eq(ev_postings_build(st, NULL, NULL, &err), 0, "%s", err.msg);
	check_narrowed_lists(&words, &narrowed);
	cr_assert_eq(narrowed, (int)SWEEP_NWORDS + 1, "%d of %d", narrowed, words);
	cr_assert_gt(words, 500);
}

/* A job of ev_bm25_sweep_background(): it says it has begun, waits (5 s at
 * most) for its caller to say go, which the caller says only once the call
 * returned, and ends 20 ms later. */
struct bg_job {
	pthread_t ran_on;
	int begun, go, saw_go, done;
};

static void
sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static void
bg_run(void *arg)
{
	struct bg_job *j = arg;

	j->ran_on = pthread_self();
	__atomic_store_n(&j->begun, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 5000 && !__atomic_load_n(&j->go, __ATOMIC_ACQUIRE); i++)
		sleep_ms(1);
	j->saw_go = __atomic_load_n(&j->go, __ATOMIC_ACQUIRE);
	sleep_ms(20);
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
}

Test(sweep, a_background_job_runs_beside_its_caller_and_ends_before_the_next_sweep)
{
	struct ev_err err = { 0 };
	struct ev_postings *p;
	struct ev_bm25_sweep *sw;
	const char *tok[] = { "boundari" };
	int len[] = { 8 }, nalt[] = { 1 }, stale = 0;
	struct ev_bm25_phrase ph = { 1, nalt, tok, len, 0 };
	const struct ev_bm25_hit *h;
	double colw[3] = { 1.0, 1.0, 1.0 };
	struct bg_job j = { 0 }, inline_job = { 0 }, last = { 0 };

	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_not_null(sw = ev_bm25_sweep_new(p, &err), "%s", err.msg);
	ev_bm25_sweep_split(sw, 1);	/* a second thread, even for this store */
	cr_assert_eq(ev_bm25_sweep_background(sw, bg_run, &j), 1);
	/* (a job the thread has not begun when waited for is run by the
	 * waiter: worker.h) */
	while (!__atomic_load_n(&j.begun, __ATOMIC_ACQUIRE))
		sched_yield();
	__atomic_store_n(&j.go, 1, __ATOMIC_RELEASE);
	/* the sweep, split over the same thread, waits for the job first */
	cr_assert_gt(ev_bm25_sweep(sw, &ph, 1, colw, 3, NULL, 10, &h, &err), 0, "%s", err.msg);
	cr_assert_eq(__atomic_load_n(&j.done, __ATOMIC_ACQUIRE), 1);
	cr_assert_eq(j.saw_go, 1);
	cr_assert(!pthread_equal(j.ran_on, pthread_self()));
	/* without the thread, here and now */
	ev_bm25_sweep_split(sw, 0);
	inline_job.go = 1;
	cr_assert_eq(ev_bm25_sweep_background(sw, bg_run, &inline_job), 0);
	cr_assert_eq(inline_job.done, 1);
	cr_assert(pthread_equal(inline_job.ran_on, pthread_self()));
	/* freed, the sweeper waits for its job */
	ev_bm25_sweep_split(sw, 1);
	cr_assert_eq(ev_bm25_sweep_background(sw, bg_run, &last), 1);
	__atomic_store_n(&last.go, 1, __ATOMIC_RELEASE);
	ev_bm25_sweep_free(sw);
	cr_assert_eq(__atomic_load_n(&last.done, __ATOMIC_ACQUIRE), 1);
	ev_postings_close(p);
}

/* ---- A large vocabulary: typo repair scans it in two halves --------------- */

#define VOCAB_CHUNKS 21000	/* made-up words: past textsearch.c's SPLIT_VOCAB */

/* A store of VOCAB_CHUNKS chunks, chunk i holding made-up word i and two
 * of the first 50, and its postings file. */
static void
vocab_setup(void)
{
	struct ev_buf text = EV_BUF_INIT;
	sqlite3_stmt *s = begin_store("vocab", "INSERT INTO chunks(rowid, id, doc_id, section_id,"
	    " chunk_index, title, text, content_hash) VALUES(?1, 'v' || ?1, 'v' || ?1, 'v' || ?1 ||"
	    " ':s', 0, 'words', ?2, 'x')");
	char w[32];

	for (int i = 0; i < VOCAB_CHUNKS; i++) {
		ev_buf_reset(&text);
		prune_word((unsigned)i, w);
		cr_assert_eq(ev_buf_adds(&text, w), 0);
		prune_word((unsigned)(i % 50), w);
		cr_assert_eq(ev_buf_printf(&text, " %s", w), 0);
		prune_word((unsigned)(i % 37), w);
		cr_assert_eq(ev_buf_printf(&text, " %s", w), 0);
		sqlite3_bind_int(s, 1, i + 1);
		sqlite3_bind_text(s, 2, ev_buf_str(&text), -1, SQLITE_STATIC);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	tu_exec_ok(st, "INSERT INTO documents(doc_id, title, content_hash) SELECT doc_id, title, 'x' FROM"
	    " chunks");
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text) SELECT rowid, title,"
	    " section_title, text FROM chunks_src");
	tu_exec_ok(st, "COMMIT");
	ev_buf_release(&text);
	hits = json_array();
	build_postings();
}

TestSuite(vocab, .init = vocab_setup, .fini = teardown);

/* Queries of a made-up word with one letter changed (not in the store)
 * and a common one: same_hits(), the swept search (its vocabulary scanned
 * in two halves) against the exhaustive one (in one).  Returns how many
 * hits had more than one expansion. */
static int
typo_queries(struct ev_textsearch_opts *o, int nq)
{
	unsigned long long rng = 2654435761ULL;
	int several = 0;

	for (int q = 0; q < nq; q++) {
		char w[32], c[32], text[80];
		json_t *rec;

		prune_word((unsigned)(tu_xorshift(&rng) % VOCAB_CHUNKS), w);
		w[1] = w[1] == 'o' ? 'e' : 'o';	/* "kalox" -> "kolox" */
		prune_word((unsigned)(q % 50), c);
		snprintf(text, sizeof text, "%s %s", w, c);
		rec = json_pack("{s:s,s:s}", "query_id", "q", "query", text);
		json_t *seen = json_object();

		same_hits(o, rec, text);
		cr_assert_eq(ev_textsearch_swept(ts), 1, "%s", text);
		/* the expansions found, over the hits (a chunk holds one) */
		for (size_t i = 0; i < json_array_size(hits); i++) {
			json_t *ev = json_array_get(json_object_get(json_array_get(hits, i), "evidence"), 0);
			json_t *fz = json_object_get(ev, "fuzzy");

			for (size_t k = 0; k < json_array_size(fz); k++)
				json_object_set(seen, json_string_value(json_object_get(
				    json_array_get(fz, k), "expansion")), json_true());
		}
		several += json_object_size(seen) > 1;
		json_decref(seen);
		json_decref(rec);
	}
	return several;
}

Test(vocab, a_typo_is_repaired_to_the_same_stems_scanned_in_halves_as_whole)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	/* one stem a word (the default): the best of the two halves' best */
	cr_assert_eq(typo_queries(&o, 12), 0);
	o.fuzzy_expansions = 5;
	cr_assert_gt(typo_queries(&o, 12), 6);
	o.split_rows = 1;	/* the halves on two threads */
	cr_assert_gt(typo_queries(&o, 12), 6);
	o.fuzzy_expansions = 1;
	cr_assert_eq(typo_queries(&o, 12), 0);
}

/* One of the rarer made-up words for an even query q, two for an odd one. */
static void
rare_words(unsigned long long *rng, int q, int nw, struct ev_buf *text)
{
	char w[32];

	(void)nw;
	for (int j = 0; j <= q % 2; j++) {
		prune_word(300 + (unsigned)(tu_xorshift(rng) % 300), w);
		cr_assert_eq(ev_buf_printf(text, "%s%s", j ? " " : "", w), 0);
	}
}

/* Queries of rare_words(), more hits asked for than they have (no theta:
 * the bounds alone never stop the walks), with feedback: same_hits(), and
 * each last pass stops walking once the query words' rows are all
 * touched, for no other row can be a hit.  Returns how many left phrases
 * out. */
static int
rare_word_queries(struct ev_textsearch_opts *o, int nq)
{
	return queries_as_exhaustive(o, nq, 2, 1181783497276652981ULL, rare_words, 0, 1);
}

Test(sweep, once_the_query_words_rows_are_walked_no_other_row_is_a_candidate)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.k = 1000;
	o.feedback_pool = 0;	/* (the feedback pass over every chunk) */
	cr_assert_eq(rare_word_queries(&o, 8), 8);
	o.split_rows = 1;
	cr_assert_eq(rare_word_queries(&o, 8), 8);
	cr_assert_eq(swept_queries, 16);
}

Test(sweep, a_query_nothing_matches_is_swept_to_no_hit)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	json_t *rec = json_pack("{s:s,s:s}", "query_id", "q", "query", "qqqqzzzz wwwwvvvv");

	cr_assert_eq(same_hits(&o, rec, "qqqqzzzz wwwwvvvv"), 0);
	cr_assert_eq(swept_queries, 1);
	json_decref(rec);
}

Test(sweep, at_k_10_without_feedback_or_proximity_and_with_fts5s_k1_and_b)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.feedback_pool = 0;	/* (the feedback pass over every chunk) */
	at_k_10_then_without_feedback(&o);
	o.proximity = 0;
	fts5_k1_b(&o);
	o.w_title = 0.3;
	cr_assert_gt(same_as_exhaustive(&o, 12, 12), 6);
	/* the words weighing 0 after feedback: that pass walks every phrase */
	o.feedback_docs = 15;
	o.feedback_weight = 1.0;
	same_as_exhaustive(&o, 6, 12);
	cr_assert_eq(swept_queries, 28);	/* every third query is filtered */
}

/* The notes ev_textsearch_advise() gives of the searcher ts, one a line. */
static char advice[1024];

static void
keep_advice(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(advice + strlen(advice), sizeof advice - strlen(advice), "%s\n", msg);
}

static const char *
advised(void)
{
	advice[0] = '\0';
	ev_textsearch_advise(ts, "kb.db", keep_advice, NULL);
	return advice;
}

Test(sweep, a_stale_file_is_never_read_and_ranking_goes_on_through_fts5)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	tu_exec_ok(st, "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash)"
	    " VALUES(99999, 'n', 'r1', 'r1:s', 1, 'measurements of new boundary layers', 'x')");
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text) VALUES(99999, NULL, NULL,"
	    " 'measurements of new boundary layers')");
	open_ts(&o);
	cr_assert_str_eq(advised(), "kb.db: its postings file is stale (the store was written since,"
	    " or another version of evkit made it): queries rank through FTS5, more slowly; run"
	    " 'ev-ingest --db kb.db --postings' to make it again\n");
	cr_assert_eq(real_queries(&o, 6), 0);
	build_postings();
	open_ts(&o);
	cr_assert_str_eq(advised(), "");
	cr_assert_eq(real_queries(&o, 6), 6);
}

/* A digest of positions key[0..n), their order included. */
static uint64_t
positions_signature(const uint64_t *key, int n)
{
	uint64_t h = (uint64_t)n;

	for (int i = 0; i < n; i++)
		h = h * 1099511628211u + key[i];
	return h;
}

/* The signatures of term's positions in each row that holds it, as the
 * index holds them, into sig[0..), in rowid order; returns their number. */
static int
index_positions(const char *term, uint64_t *sig, int cap)
{
	static const char *const cols[] = { "title", "section_title", "text" };
	uint64_t key[2000];
	sqlite3_stmt *s;
	long long row = -1;
	int n = 0, rows = 0;

	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT doc, col, offset FROM"
	    " temp.test_instances WHERE term = ?1", -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, term, -1, SQLITE_STATIC);
	for (int rc = sqlite3_step(s);; rc = sqlite3_step(s)) {
		int col = 0;

		if (rc != SQLITE_ROW || sqlite3_column_int64(s, 0) != row) {
			if (row >= 0) {
				cr_assert_lt(rows, cap);
				sig[rows++] = positions_signature(key, n);
			}
			if (rc != SQLITE_ROW)
				break;
			row = sqlite3_column_int64(s, 0);
			n = 0;
		}
		while (col < 3 && strcmp((const char *)sqlite3_column_text(s, 1), cols[col]) != 0)
			col++;
		cr_assert_lt(col, 3);
		cr_assert_lt(n, 2000);
		key[n++] = ((uint64_t)col << 32) | (uint64_t)sqlite3_column_int64(s, 2);
	}
	sqlite3_finalize(s);
	return rows;
}

Test(sweep, each_terms_rows_are_the_indexs)
{
	struct ev_err err = { 0 };
	struct ev_postings *p;
	sqlite3_stmt *s;
	int stale, n = 0;

	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_eq(ev_postings_rows(p), PRUNE_CHUNKS + SWEEP_REAL);
	cr_assert_eq(ev_postings_maxrowid(p), PRUNE_CHUNKS + SWEEP_REAL);
	cr_assert_eq(ev_postings_nlangs(p), 2);
	cr_assert_str_eq(ev_postings_lang(p, 0, NULL), "en");
	cr_assert_str_eq(ev_postings_lang(p, 1, NULL), "de");
	tu_exec_ok(st, "CREATE VIRTUAL TABLE temp.test_instances USING fts5vocab(main, chunks_fts,"
	    " instance)");
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT term, doc, cnt FROM chunks_vocab",
	    -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		struct ev_postings_cursor c;
		const char *t = (const char *)sqlite3_column_text(s, 0);
		long long rows = ev_postings_term(p, t, sqlite3_column_bytes(s, 0), &c), seen = 0;
		long long inst = 0, last = 0, all[5000];
		uint64_t sig[5000], key[2000];
		int r, m;

		cr_assert_eq(rows, sqlite3_column_int64(s, 1), "%s", t);
		cr_assert_eq(index_positions(t, sig, 5000), rows, "%s", t);
		while ((r = ev_postings_next(&c)) == 1) {
			cr_assert_gt(c.rowid, last);
			cr_assert_lt(seen, 5000);
			all[seen] = c.rowid;
			last = c.rowid;
			/* every third entry's positions, the others stepped over,
			 * are the index's */
			if (seen % 3 == 0) {
				cr_assert_geq(m = ev_postings_positions(&c, key), 0, "%s", t);
				cr_assert_eq(positions_signature(key, m), sig[seen], "%s, row %lld", t,
				    c.rowid);
			}
			seen++;
			for (int col = 0; col < c.ncol; col++)
				inst += c.count[col];
		}
		cr_assert_eq(r, 0);
		cr_assert_eq(seen, rows, "%s", t);
		cr_assert_eq(inst, sqlite3_column_int64(s, 2), "%s", t);
		/* seeking, over the skips: the first row at or after each target */
		ev_postings_term(p, t, sqlite3_column_bytes(s, 0), &c);
		for (long long target = 1, i = 0; target < 4400; target += 1 + target / 3) {
			while (i < seen && all[i] < target)
				i++;
			r = ev_postings_seek(&c, target);
			cr_assert_eq(r, i < seen, "%s: seek %lld", t, target);
			if (r != 1)
				break;
			cr_assert_eq(c.rowid, all[i], "%s: seek %lld", t, target);
			/* the positions of an entry a seek lands on, in a block
			 * the cursor skipped to or not, are those read in order */
			if (i % 3 == 0) {
				cr_assert_geq(m = ev_postings_positions(&c, key), 0, "%s", t);
				cr_assert_eq(positions_signature(key, m), sig[i], "%s: seek %lld", t,
				    target);
			}
		}
		n++;
	}
	sqlite3_finalize(s);
	cr_assert_gt(n, 600);
	{
		struct ev_postings_cursor c;

		cr_assert_eq(ev_postings_term(p, "nosuchterm", 10, &c), 0);
		cr_assert_eq(ev_postings_next(&c), 0);
	}
	ev_postings_close(p);
}

/* Text of n times word, space-separated, into b. */
static const char *
repeated(struct ev_buf *b, const char *word, int n)
{
	ev_buf_reset(b);
	for (int i = 0; i < n; i++)
		cr_assert_eq(ev_buf_printf(b, "%s%s", i ? " " : "", word), 0);
	return ev_buf_str(b);
}

/* An entry's counts are a byte when every column but the last holds the
 * word at most once and the last at most 31 times, else varints: both read
 * back as the index holds them, column by column. */
Test(sweep, an_entrys_counts_in_a_byte_or_not_are_the_indexs)
{
	static const int want[][3] = {
		{ 0, 0, 1 }, { 1, 1, 31 }, { 1, 0, 32 }, { 3, 0, 40 }, { 0, 2, 1 }, { 1, 1, 0 },
		{ 0, 0, 200 }, { 1, 0, 5 }, { 0, 1, 2 },
	};
	const int n = (int)(sizeof want / sizeof want[0]);
	struct ev_buf t = EV_BUF_INIT, sec = EV_BUF_INIT, x = EV_BUF_INIT;
	struct ev_err err = { 0 };
	struct ev_postings_cursor c;
	struct ev_postings *p;
	sqlite3_stmt *s;
	char term[64] = "";
	int stale, i = 0, r;

	tu_exec_ok(st, "BEGIN");
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "INSERT INTO chunks(rowid, id, doc_id,"
	    " section_id, chunk_index, title, section_title, text, content_hash) VALUES(?1, 'q' || ?1,"
	    " 'q' || ?1, 'q' || ?1 || ':s', 0, ?2, ?3, ?4, 'x')", -1, &s, NULL), SQLITE_OK);
	for (int k = 0; k < n; k++) {
		sqlite3_bind_int(s, 1, 9000 + k);
		sqlite3_bind_text(s, 2, repeated(&t, "quokka", want[k][0]), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, repeated(&sec, "quokka", want[k][1]), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 4, want[k][2] ? repeated(&x, "quokka", want[k][2]) : "wombat", -1,
		    SQLITE_TRANSIENT);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text) SELECT rowid, title,"
	    " section_title, text FROM chunks WHERE rowid >= 9000");
	tu_exec_ok(st, "COMMIT");
	build_postings();
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT term FROM chunks_vocab WHERE term"
	    " GLOB 'quokk*'", -1, &s, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	snprintf(term, sizeof term, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	cr_assert_not_null(p = ev_postings_open(st, &stale, &err), "%s", err.msg);
	cr_assert_eq(ev_postings_ncol(p), 3);
	cr_assert_eq(ev_postings_term(p, term, (int)strlen(term), &c), n);
	while ((r = ev_postings_next(&c)) == 1) {
		uint64_t key[400];

		cr_assert_lt(i, n);
		cr_assert_eq(c.rowid, 9000 + i);
		for (int col = 0; col < 3; col++)
			cr_assert_eq(c.count[col], (uint32_t)want[i][col], "row %d, column %d: %u", i, col,
			    c.count[col]);
		cr_assert_eq(ev_postings_positions(&c, key), want[i][0] + want[i][1] + want[i][2]);
		i++;
	}
	cr_assert_eq(r, 0);
	cr_assert_eq(i, n);
	ev_postings_close(p);
	ev_buf_release(&t);
	ev_buf_release(&sec);
	ev_buf_release(&x);
}

Test(sweep, a_file_cut_short_or_of_another_kind_is_damaged_not_a_crash)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_err err = { 0 };
	char file[160];
	struct stat sb;
	FILE *f;

	snprintf(file, sizeof file, "%s" EV_POSTINGS_SUFFIX, path);
	cr_assert_eq(stat(file, &sb), 0);
	cr_assert_eq(truncate(file, sb.st_size - 1), 0);
	cr_assert_eq(ev_postings_state(st, &err), -1);
	open_ts(&o);
	cr_assert_str_eq(advised(), "kb.db: its postings file is damaged (cut short, or its header"
	    " is not a postings file's): queries rank through FTS5, more slowly; run"
	    " 'ev-ingest --db kb.db --postings' to make it again\n");
	cr_assert_eq(real_queries(&o, 2), 0);
	cr_assert_not_null(f = fopen(file, "w"));
	fputs("not a postings file at all, but long enough to have a header of its own......"
	    "..................................................................................", f);
	fclose(f);
	cr_assert_eq(ev_postings_state(st, &err), -1);
	open_ts(&o);
	cr_assert(strstr(advised(), "its postings file is damaged") != NULL, "%s", advised());
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(ev_postings_state(st, &err), 0);
	build_postings();
	cr_assert_eq(ev_postings_state(st, &err), 1);
}

/* ---- Typos repaired by the word as typed, and by their neighbours -------- */

static const struct doc typo_docs[] = {
	{ "r1", "Servers", NULL, "database replication keeps a copy of every table on a second server",
	  NULL, NULL },
	{ "r2", "Pumps", NULL, "we replace the old pump", NULL, NULL },
	{ "k1", "Services", NULL, "run the service in a docker container", NULL, NULL },
	{ "v1", "Parsers", NULL, "a vulnerability in the parser lets an attacker read memory", NULL,
	  NULL },
	{ "b1", "Tomatoes", NULL, "blossom end rot on tomatoes comes from a lack of calcium", NULL,
	  NULL },
	{ "b2", "Cherries", NULL, "the bloom of the cherry trees in spring", NULL, NULL },
	{ "b3", "Frost", NULL, "a late bloom after the end of the frost", NULL, NULL },
	{ "b4", "Lakes", NULL, "algae bloom in warm lakes", NULL, NULL },
};

static void
typo_setup(void)
{
	store_of("typo", typo_docs, sizeof typo_docs / sizeof typo_docs[0]);
}

TestSuite(typo, .init = typo_setup, .fini = teardown);

/* The first hit's first repair, as "term>word (expansion) distance by". */
static const char *
repair(void)
{
	static char s[160];
	json_t *fz = json_array_get(json_object_get(json_array_get(json_object_get(hit(0),
	    "evidence"), 0), "fuzzy"), 0);

	snprintf(s, sizeof s, "%s>%s (%s) %lld %s", json_string_value(json_object_get(fz, "term")),
	    json_string_value(json_object_get(fz, "word")),
	    json_string_value(json_object_get(fz, "expansion")),
	    (long long)json_integer_value(json_object_get(fz, "distance")),
	    json_string_value(json_object_get(fz, "by")));
	return s;
}

Test(typo, two_letters_missing_from_a_long_word_are_repaired_by_the_word_as_typed)
{
	/* its stem "replcaton" is 5 edits from the indexed stem "replic", the
	 * word 2 from "replic" + "ation" */
	expect_docs(NULL, "replcaton", 1, "r1");
	cr_assert_str_eq(repair(), "replcaton>replication (replic) 2 word");
	cr_assert_eq(search("vulnerabilty"), 1);
	cr_assert_str_eq(repair(), "vulnerabilty>vulnerability (vulner) 1 word");
}

Test(typo, a_word_of_six_letters_takes_two_edits_one_of_five_one)
{
	cr_assert_eq(search("dcokre"), 1, "6 letters: two transpositions");
	cr_assert_str_eq(repair(), "dcokre>docker (docker) 2 word");
	cr_assert_eq(search("dcokr"), 0, "5 letters: not 2 edits");
	cr_assert_eq(search("dokcer"), 1, "6 letters: one edit");
}

Test(typo, among_equally_close_stems_the_one_found_with_the_other_words_wins)
{
	/* "bloom" is in three chunks, "blossom" in one, both one edit away */
	cr_assert_eq(search("blosom"), 3, "alone: the more frequent");
	cr_assert_str_eq(repair(), "blosom>bloom (bloom) 1 word");
	cr_assert_geq(search("blosom end rot"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(hit(0), "doc_id")), "b1");
	cr_assert_str_eq(repair(), "blosom>blossom (blossom) 1 word");
}

Test(typo, the_word_distance_adds_the_cheapest_ending)
{
	cr_assert_eq(ev_editdist_word("replcaton", 9, "replic", 6, 2), 2);
	cr_assert_eq(ev_editdist_word("Vulnerabilty", 12, "vulner", 6, 2), 1);
	cr_assert_eq(ev_editdist_word("docker", 6, "docker", 6, 2), 0);
	cr_assert_eq(ev_editdist_word("dockers", 7, "docker", 6, 2), 0, "ending 's'");
	cr_assert_eq(ev_editdist_word("replcaton", 9, "rep", 3, 2), 3, "over max");
	cr_assert_eq(ev_editdist_word("", 0, "abc", 3, 2), 3);
}

Test(typo, a_number_or_a_code_is_never_repaired)
{
	/* 2 edits from replic + ation, but a code */
	cr_assert_eq(search("replic4ton"), 0);
}

/* ---- Typo repair's look-ups: the postings file's answers are FTS5's -------- */

/* Chunks whose words share stems in several forms, in every column, in
 * English and in German (language, title, section title, text). */
static const char *const typo_rows[][4] = {
	{ "en", "Connecting rods", "Connections", "the rod connected to a wing connects the plates" },
	{ "en", "Plates", "Connected flows", "connecting heated plates: the connection of flowing layers" },
	{ "de", "Verbindungen der Platten", "Verbindung", "die Platten verbinden die Wellen, verbunden mit Strömungen" },
	{ "de", "Strömung", "Strömungen und Wellen", "die Wellen verbinden Strömungen der Messungen" },
	{ "en", "Heating", NULL, "heats heated heating heater measured measurements" },
};
#define TYPO_ROWS (sizeof typo_rows / sizeof *typo_rows)
#define FILLER_ROWS 10050	/* "alpha beta": more than typo repair counts */
#define FILLER_GAMMA 335	/* every so many of them "gamma" too */

/* The sweep store (English and German chunks, and made-up words), then
 * typo_rows and FILLER_ROWS chunks after it, and its postings file. */
static void
typo_postings_setup(void)
{
	sweep_setup();
	tu_exec_ok(st, "BEGIN");
	for (size_t i = 0; i < TYPO_ROWS; i++) {
		char rowid[24];

		snprintf(rowid, sizeof rowid, "%zu", PRUNE_CHUNKS + SWEEP_REAL + 1 + i);
		insert_row("INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, title,"
		    " section_title, text, content_hash, language) VALUES(?1, 't' || ?1, 't' || ?1,"
		    " 't' || ?1 || ':s', 0, ?3, ?4, ?5, 'x', ?2)", atoll(rowid),
		    (const char *const[]){ typo_rows[i][0], typo_rows[i][1], typo_rows[i][2],
		    typo_rows[i][3] }, 4);
	}
	tu_exec_ok(st, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10050)"
	    " INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, title, text, content_hash,"
	    " language) SELECT 5000 + i, 'f' || i, 'f' || i, 'f' || i || ':s', 0, 'filler',"
	    " CASE WHEN i % 335 = 0 THEN 'alpha gamma beta' ELSE 'alpha beta' END, 'x', 'en' FROM n");
	tu_exec_ok(st, "INSERT INTO documents(doc_id, title, content_hash) SELECT doc_id, title, 'x' FROM"
	    " chunks WHERE rowid > 4300");
	tu_exec_ok(st, "INSERT INTO chunks_fts(rowid, title, section_title, text) SELECT rowid, title,"
	    " section_title, text FROM chunks_src WHERE rowid > 4300");
	tu_exec_ok(st, "COMMIT");
	build_postings();
}

TestSuite(typo_postings, .init = typo_postings_setup, .fini = teardown);
_Static_assert(PRUNE_CHUNKS + SWEEP_REAL + TYPO_ROWS < 5000 && FILLER_ROWS == 10050 &&
    FILLER_GAMMA == 335, "typo_postings_setup() names the rows");

/* Two searchers of the store: *fts without its postings file (moved
 * away while it opens), *post with it. */
static void
both_searchers(struct ev_textsearch **fts, struct ev_textsearch **post)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	struct ev_err err = { 0 };
	char file[160], away[170];

	snprintf(file, sizeof file, "%s%s", path, EV_POSTINGS_SUFFIX);
	snprintf(away, sizeof away, "%s.away", file);
	cr_assert_eq(rename(file, away), 0);
	cr_assert_not_null(*fts = ev_textsearch_open(st, &o, &err), "%s", err.msg);
	cr_assert_eq(rename(away, file), 0);
	cr_assert_not_null(*post = ev_textsearch_open(st, &o, &err), "%s", err.msg);
	cr_assert_null((*fts)->post);
	cr_assert_not_null((*post)->post);
}

/* The word of the index found for each of its terms (stems, German ones,
 * the words themselves) is the same from the postings file as from FTS5's
 * instance table: the first instance's, by rowid, column, then offset. */
Test(typo_postings, every_terms_first_word_is_fts5s)
{
	struct ev_textsearch *fts, *post;
	struct ev_err err = { 0 };
	sqlite3_stmt *s;
	int terms = 0, found = 0, german = 0;

	both_searchers(&fts, &post);
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(st), "SELECT term FROM chunks_vocab", -1, &s, NULL),
	    SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		char *a = NULL, *b = NULL;
		int ra = ev_texttypo_surface_of(fts, t, &a, &err), rb;

		cr_assert_neq(ra, -1, "%s", err.msg);
		cr_assert_eq(rb = ev_texttypo_surface_of(post, t, &b, &err), ra, "%s: %s", t, err.msg);
		if (ra == 1)
			cr_assert_str_eq(b, a, "%s", t);
		terms++;
		found += ra;
		german += ra && strncmp(t, "\x1f" "de\x1f", 4) == 0;
		free(a);
		free(b);
	}
	sqlite3_finalize(s);
	cr_assert_gt(terms, 100);
	cr_assert_gt(found, terms / 2);
	cr_assert_gt(german, 10);
	/* the first of the stem's forms: the title's, before the others' */
	{
		char *w = NULL;

		cr_assert_eq(ev_texttypo_surface_of(post, "connect", &w, &err), 1, "%s", err.msg);
		cr_assert_str_eq(w, "Connecting");
		free(w);
	}
	ev_textsearch_close(fts);
	ev_textsearch_close(post);
}

/* The chunks holding two words, each as a query searches it (its stems in
 * the store's languages and itself), counted from the postings file as
 * FTS5 counts them, up to 10,000. */
Test(typo_postings, the_chunks_holding_two_words_are_fts5s_count)
{
	static const char *const words[] = { "measurements", "measured", "flows", "flowing",
		"connecting", "Connections", "plates", "Platten", "Strömungen", "verbinden", "Wellen",
		"waves", "heating", "turbulent", "kakax", "lokax", "boundary-layer", "nosuchword",
		"alpha", "beta", "gamma", "die" };
	struct ev_textsearch *fts, *post;
	struct ev_err err = { 0 };
	long long sum = 0;
	size_t nw = sizeof words / sizeof *words;

	both_searchers(&fts, &post);
	for (size_t i = 0; i < nw; i++)
		for (size_t j = 0; j < nw; j++) {
			long long a = ev_texttypo_together(fts, words[i], words[j], &err), b;

			cr_assert_geq(a, 0, "%s", err.msg);
			b = ev_texttypo_together(post, words[i], words[j], &err);
			cr_assert_eq(b, a, "%s %s: %lld, FTS5 %lld (%s)", words[i], words[j], b, a, err.msg);
			sum += a;
		}
	cr_assert_gt(sum, 20000);
	cr_assert_eq(ev_texttypo_together(post, "alpha", "beta", &err), 10000);
	cr_assert_eq(ev_texttypo_together(post, "gamma", "beta", &err), FILLER_ROWS / FILLER_GAMMA);
	/* "measurements" in German chunks as its German stem and itself */
	cr_assert_eq(ev_texttypo_together(post, "Messungen", "measurements", &err), 0);
	ev_textsearch_close(fts);
	ev_textsearch_close(post);
}
