/* Tests of chunk-to-document scoring (lib/lanes/textdoc.c) through the text
 * lane over a real store: a hit's score mixes its chunk's BM25 with its
 * document's as a whole, the share from the store's chunks per document
 * (or the option), and the pruned search still equals the exhaustive one. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm25.h"
#include "store.h"
#include "test_util.h"
#include "textsearch.h"

static char dir[64] = "/tmp/evkit-textdoc.XXXXXX", db[128];
static struct ev_store *st;
static json_t *hits;

/* A chunk of document doc at rowid. */
static void
add_chunk(long long rowid, const char *doc, int index, const char *text)
{
	sqlite3 *h = ev_store_db(st);
	sqlite3_stmt *s;
	char sql[200];

	if (index == 0) {
		cr_assert_eq(sqlite3_prepare_v2(h, "INSERT INTO documents(doc_id, content_hash)"
		    " VALUES(?1, 'x')", -1, &s, NULL), SQLITE_OK);
		sqlite3_bind_text(s, 1, doc, -1, SQLITE_STATIC);
		cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
		sqlite3_finalize(s);
	}
	cr_assert_eq(sqlite3_prepare_v2(h, "INSERT INTO chunks(rowid, id, doc_id, section_id,"
	    " chunk_index, text, content_hash) VALUES(?1, ?2 || ':' || ?3, ?2, ?2 || ':s', ?3, ?4,"
	    " 'x')", -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_int64(s, 1, rowid);
	sqlite3_bind_text(s, 2, doc, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 3, index);
	sqlite3_bind_text(s, 4, text, -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	snprintf(sql, sizeof sql, "INSERT INTO chunks_fts(rowid, title, section_title, text)"
	    " SELECT rowid, title, section_title, text FROM chunks_src WHERE rowid = %lld", rowid);
	tu_exec_ok(st, sql);
}

/* The store: "long", an article cut into three chunks, each holding the
 * query's two words once; "short", one chunk holding each twice; and five
 * documents holding neither (so that the words are rare), the first in two
 * chunks.  7 documents, 10 chunks: the share the store gives a hit's
 * document is 1 - 7 / 10. */
static void
setup(void)
{
	struct ev_err err = { 0 };
	static const char *const other[] = {
		"sailing boats cross the bay at dawn", "a recipe for bread with rye flour",
		"the train to the coast leaves at noon", "notes on the history of the printing press",
		"a garden of roses and tulips in spring",
	};

	tu_mkdir(dir, db, sizeof db);
	st = tu_store_create(db, &err);
	add_chunk(1, "long", 0, "the glacier carved the valley and left a moraine");
	add_chunk(2, "long", 1, "on the moraine grow pines while the glacier retreats");
	add_chunk(3, "long", 2, "each summer the glacier melts and the moraine widens");
	add_chunk(4, "short", 0, "glacier glacier moraine moraine");
	for (int i = 0; i < 5; i++) {
		char id[16];

		snprintf(id, sizeof id, "o%d", i);
		add_chunk(5 + i, id, 0, other[i]);
	}
	add_chunk(10, "o0", 1, "the bay is calm in the evening");
	hits = json_array();
}

static void
teardown(void)
{
	json_decref(hits);
	ev_store_close(st);
	tu_rmdir(dir);
}

TestSuite(textdoc, .init = setup, .fini = teardown);

/* The hits of text with o, into hits; returns their number. */
static int
search(const struct ev_textsearch_opts *o, const char *text)
{
	struct ev_err err = { 0 };
	struct ev_textsearch *ts = ev_textsearch_open(st, o, &err);
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q", "query", text);
	int flags, n;

	cr_assert_not_null(ts, "%s", err.msg);
	json_array_clear(hits);
	n = ev_textsearch_query(ts, q, "q", hits, &flags, &err);
	cr_assert_neq(n, -1, "%s", err.msg);
	json_decref(q);
	ev_textsearch_close(ts);
	return n;
}

static const char *
doc_at(size_t i)
{
	return json_string_value(json_object_get(json_array_get(hits, i), "doc_id"));
}

/* Hit i's score, or one of its signals. */
static double
num(size_t i, const char *signal)
{
	json_t *h = json_array_get(hits, i);

	return json_number_value(signal == NULL ? json_object_get(h, "score") :
	    json_object_get(json_object_get(h, "signals"), signal));
}

/* Plain BM25 (FTS5's k1) without length normalisation (b 0), no feedback,
 * no pairs: a chunk's score grows with its words' counts alone. */
static struct ev_textsearch_opts
plain(double doc_weight)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;

	o.k1 = EV_BM25_K1;
	o.b = 0;
	o.feedback_docs = 0;
	o.proximity = 0;
	o.doc_weight = doc_weight;
	return o;
}

/* By its chunk alone, the short document (each word twice) comes first;
 * as a whole, the article (each word three times) does. */
Test(textdoc, chunk_alone_and_document_alone)
{
	struct ev_textsearch_opts o = plain(0);

	cr_assert_eq(search(&o, "glacier moraine"), 4);
	cr_assert_str_eq(doc_at(0), "short");
	cr_assert_null(json_object_get(json_object_get(json_array_get(hits, 0), "signals"), "doc_score"));
	o = plain(1);
	cr_assert_eq(search(&o, "glacier moraine"), 4);
	cr_assert_str_eq(doc_at(0), "long");
	cr_assert_str_eq(doc_at(1), "long");
	cr_assert_str_eq(doc_at(2), "long");
	cr_assert_str_eq(doc_at(3), "short");
	/* each of the article's chunks has the document's score, scaled so
	 * that the best document scores as the best chunk */
	cr_assert_float_eq(num(0, NULL), num(1, NULL), 1e-12);
	cr_assert_float_eq(num(0, "doc_score"), num(2, "doc_score"), 1e-12);
	cr_assert_gt(num(0, "doc_score"), num(3, "doc_score"));
	cr_assert_float_eq(num(0, NULL), num(3, "fts_score"), 1e-9);
}

/* The document's BM25: each word's counts over the three chunks summed
 * (3), IDF from the chunks (4 of 10 hold either word); without length
 * normalisation, 2 x IDF x 3 (k1 + 1) / (3 + k1). */
Test(textdoc, document_bm25)
{
	struct ev_textsearch_opts o = plain(1);
	double idf = log((10 - 4 + 0.5) / (4 + 0.5)), k1 = o.k1;

	search(&o, "glacier moraine");
	cr_assert_float_eq(num(0, "doc_score"), 2 * idf * 3 * (k1 + 1) / (3 + k1), 1e-9);
	cr_assert_float_eq(num(3, "doc_score"), 2 * idf * 2 * (k1 + 1) / (2 + k1), 1e-9);
}

/* By default a query read as a document (here, of more than one word)
 * gets the share the store sets: 1 - documents / chunks, 0.3 here; each hit
 * scores 0.7 x its chunk's + 0.3 x its document's, scaled by the best
 * chunk's over the best document's, and the hits are in that order. */
Test(textdoc, share_from_the_store)
{
	struct ev_textsearch_opts o = plain(NAN);
	double best_chunk = 0, best_doc = 0;
	int n;

	o.long_query = 1;
	n = search(&o, "glacier moraine");
	cr_assert_eq(n, 4);
	for (int i = 0; i < n; i++) {
		best_chunk = fmax(best_chunk, num((size_t)i, "fts_score"));
		best_doc = fmax(best_doc, num((size_t)i, "doc_score"));
	}
	for (int i = 0; i < n; i++) {
		double want = 0.7 * num((size_t)i, "fts_score") +
		    0.3 * num((size_t)i, "doc_score") * best_chunk / best_doc;

		cr_assert_float_eq(num((size_t)i, NULL), want, 1e-9, "hit %d", i + 1);
		cr_assert_eq(json_integer_value(json_object_get(json_array_get(hits, (size_t)i), "rank")),
		    i + 1);
		if (i > 0)
			cr_assert_geq(num((size_t)i - 1, NULL), num((size_t)i, NULL));
	}
}

/* By default a shorter query's hits keep their chunks' scores. */
Test(textdoc, short_query_by_chunks)
{
	struct ev_textsearch_opts o = plain(NAN);

	cr_assert_eq(search(&o, "glacier moraine"), 4);
	cr_assert_str_eq(doc_at(0), "short");
	for (size_t i = 0; i < 4; i++) {
		cr_assert_null(json_object_get(json_object_get(json_array_get(hits, i), "signals"),
		    "doc_score"));
		cr_assert_float_eq(num(i, NULL), num(i, "fts_score"), 1e-12);
	}
}

/* With feedback, pairs and every default, pruned or swept, the hits are
 * the exhaustive search's, field for field. */
Test(textdoc, same_as_exhaustive)
{
	struct ev_textsearch_opts o = EV_TEXTSEARCH_OPTS_INIT;
	static const char *const queries[] = {
		"glacier moraine", "the valley glacier", "moraine pines bay", "bread and roses at dawn",
	};

	o.doc_weight = 1;
	for (size_t q = 0; q < sizeof queries / sizeof queries[0]; q++) {
		json_t *exhaustive;

		o.exhaustive = 1;
		search(&o, queries[q]);
		exhaustive = json_deep_copy(hits);
		o.exhaustive = 0;
		search(&o, queries[q]);
		cr_assert(json_equal(hits, exhaustive), "'%s'", queries[q]);
		json_decref(exhaustive);
	}
}
