/* Tests of a query's filters (lib/store/qfilter.c), the one grammar of the
 * text and the vector lanes, against a real SQLite store. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qfilter.h"
#include "store.h"
#include "test_util.h"

/* The dates read (ev_clock_date_days(), wrapped at link time: see
 * LDLIBS_test_qfilter in the Makefile). */
static long date_reads;
int __real_ev_clock_date_days(const char *s, double *days);

int
__wrap_ev_clock_date_days(const char *s, double *days)
{
	date_reads++;
	return __real_ev_clock_date_days(s, days);
}

static char dir[] = "/tmp/evkit-qfilter-XXXXXX";
static char db[256];
static struct ev_store *st;

/* Six documents d1..d6, two chunks each (rowids 2i-1 and 2i of di):
 *   d1 pdf  en 2021-03-04 {"year": 1958, "lab": "NACA", "open": true}
 *   d2 pdf  fr 2021-12-31 {"year": "1958", "lab": null}
 *   d3 html en 2022       {"year": 1960.5, "open": false}
 *   d4 html de (no date)  {"lab": "RAE"}
 *   d5 (none) (none) 2020-06 "not json"
 *   d6 pdf  EN 2023-01-01 (no metadata) */
static void
setup(void)
{
	st = tu_store_made(dir, db, sizeof db, "INSERT INTO documents(doc_id, source_type, language, published_date, metadata,"
		" content_hash) VALUES"
		" ('d1', 'pdf', 'en', '2021-03-04', '{\"year\": 1958, \"lab\": \"NACA\", \"open\": true}', 'h1'),"
		" ('d2', 'pdf', 'fr', '2021-12-31', '{\"year\": \"1958\", \"lab\": null}', 'h2'),"
		" ('d3', 'html', 'en', '2022', '{\"year\": 1960.5, \"open\": false}', 'h3'),"
		" ('d4', 'html', 'de', NULL, '{\"lab\": \"RAE\"}', 'h4'),"
		" ('d5', NULL, NULL, '2020-06', 'not json', 'h5'),"
		" ('d6', 'pdf', 'EN', '2023-01-01', NULL, 'h6')");
	tu_exec_ok(st, "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 11)"
		" INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, text, content_hash)"
		" SELECT i + 1, 'd' || (i / 2 + 1) || ':s:' || (i % 2), 'd' || (i / 2 + 1), 's', i % 2,"
		" 'chunk ' || i, 'c' || i FROM n");
}

static void
teardown(void)
{
	ev_store_close(st);
	st = NULL;
	tu_rmdir(dir);
}

TestSuite(qfilter, .init = setup, .fini = teardown);

/* The documents ev_qfilter_doc_ids() lets pass, as "d1 d3 ...", rising. */
static void
doc_ids_pass(const json_t *f, char *got, size_t size)
{
	struct ev_err err = { 0 };
	json_t *set = ev_qfilter_doc_ids(st, f, "q:1", &err);

	cr_assert_not_null(set, "%s", err.msg);
	got[0] = '\0';
	for (int d = 1; d <= 9; d++) {
		char id[8];

		snprintf(id, sizeof id, "d%d", d);
		if (json_object_get(set, id) != NULL)
			snprintf(got + strlen(got), size - strlen(got), "%s%s", got[0] ? " " : "", id);
	}
	json_decref(set);
}

/* The documents whose chunks pass the filters json, as "d1 d3 ...": each
 * document's two chunks pass together, rising; and the documents
 * ev_qfilter_doc_ids() lets pass (the multi-vector lane's) are the same. */
static void
passes(const char *json, const char *want)
{
	struct ev_err err = { 0 };
	json_t *f = json_loads(json, 0, NULL);
	char got[64] = "";
	int64_t *ids;
	size_t n;

	cr_assert_not_null(f, "%s", json);
	cr_assert_eq(ev_qfilter_rowids(st, f, "q:1", &ids, &n, &err), 0, "%s: %s", json, err.msg);
	for (size_t i = 0; i < n; i += 2) {
		cr_assert(i + 1 < n && ids[i] % 2 == 1 && ids[i + 1] == ids[i] + 1, "%s: rowids", json);
		snprintf(got + strlen(got), sizeof got - strlen(got), "%sd%lld", i ? " " : "",
			(long long)(ids[i] + 1) / 2);
	}
	cr_assert_str_eq(got, want, "%s", json);
	doc_ids_pass(f, got, sizeof got);
	cr_assert_str_eq(got, want, "%s (documents)", json);
	free(ids);
	json_decref(f);
}

static void
refused(const char *json, const char *want)
{
	struct ev_err err = { 0 };
	json_t *f = json_loads(json, JSON_DECODE_ANY, NULL);
	int64_t *ids = (int64_t *)&err;
	size_t n = 7;

	cr_assert_not_null(f, "%s", json);
	cr_assert_eq(ev_qfilter_rowids(st, f, "q:1", &ids, &n, &err), -1, "%s", json);
	cr_assert_eq(err.code, 2, "%s", json);
	cr_assert_str_eq(err.where, "q:1");
	cr_assert_str_eq(err.msg, want, "%s", json);
	cr_assert_null(ids);
	cr_assert_eq(n, 0);
	ev_err_clear(&err);
	cr_assert_null(ev_qfilter_doc_ids(st, f, "q:1", &err), "%s", json);
	cr_assert_eq(err.code, 2, "%s", json);
	cr_assert_str_eq(err.msg, want, "%s", json);
	json_decref(f);
}

Test(qfilter, no_filter_passes_every_chunk)
{
	passes("{}", "d1 d2 d3 d4 d5 d6");
}

/* A document without chunks (a scanned page the text lane has nothing of)
 * still passes as a document, for the multi-vector lane's pages. */
Test(qfilter, a_document_without_chunks_passes_as_a_document)
{
	json_t *f = json_loads("{\"source_type\": \"pdf\"}", 0, NULL);
	char got[64];

	tu_exec_ok(st, "INSERT INTO documents(doc_id, source_type, content_hash)"
		" VALUES ('d7', 'pdf', 'h7')");
	doc_ids_pass(f, got, sizeof got);
	cr_assert_str_eq(got, "d1 d2 d6 d7");
	json_decref(f);
}

Test(qfilter, doc_id_and_doc_ids_each_take_a_string_or_a_list)
{
	passes("{\"doc_id\": \"d2\"}", "d2");
	passes("{\"doc_id\": [\"d5\", \"d1\"]}", "d1 d5");
	passes("{\"doc_ids\": \"d3\"}", "d3");
	passes("{\"doc_ids\": [\"d6\", \"d3\", \"d9\"]}", "d3 d6");
	passes("{\"doc_id\": \"d9\"}", "");
	/* every key restricts: both keys given, a chunk passes both */
	passes("{\"doc_id\": [\"d1\", \"d2\"], \"doc_ids\": [\"d2\", \"d3\"]}", "d2");
}

Test(qfilter, source_type_and_language_match_the_document)
{
	passes("{\"source_type\": \"pdf\"}", "d1 d2 d6");
	passes("{\"source_type\": [\"html\", \"epub\"]}", "d3 d4");
	passes("{\"source_type\": \"PDF\"}", "");	/* a source type is as written */
	passes("{\"language\": \"en\"}", "d1 d3 d6");	/* d6 declares "EN" */
	passes("{\"language\": [\"fr\", \"de\"], \"source_type\": \"html\"}", "d4");
}

/* A language code is compared regardless of case, as language tags are,
 * and one naming a language alone matches a chunk's own (normalised)
 * language in any of its forms; one with a region matches what a document
 * declares, never a chunk whose region no one said. */
Test(qfilter, a_language_code_is_read_in_any_of_its_forms)
{
	tu_exec_ok(st, "UPDATE documents SET language = 'en-GB' WHERE doc_id = 'd3'");
	tu_exec_ok(st, "UPDATE chunks SET language = 'en' WHERE doc_id IN ('d3', 'd5')");
	tu_exec_ok(st, "UPDATE chunks SET language = 'fr' WHERE doc_id = 'd2'");
	passes("{\"language\": \"EN\"}", "d1 d3 d5 d6");
	passes("{\"language\": \"eng\"}", "d3 d5");	/* the chunks' "en"; no document declares "eng" */
	passes("{\"language\": \"en-gb\"}", "d3");
	passes("{\"language\": [\"EN-GB\", \"fra\"]}", "d2 d3");
	passes("{\"language\": \"fr-CA\"}", "");
	passes("{\"language\": \"english\"}", "");	/* no code, and no document declares it */
}

/* A chunk passes "language" by its own language too (its document's
 * declared one, else the one its words showed when it was ingested): a
 * document that declares none is found by what its chunks are; a document
 * passes as a document when any of its chunks does. */
Test(qfilter, language_also_matches_the_chunks_own_language)
{
	struct ev_err err = { 0 };
	json_t *f = json_loads("{\"language\": \"fr\"}", 0, NULL);
	int64_t *ids;
	size_t n;
	char got[64];

	tu_exec_ok(st, "UPDATE chunks SET language = 'en' WHERE doc_id IN ('d1', 'd3', 'd5')");
	tu_exec_ok(st, "UPDATE chunks SET language = 'fr' WHERE id = 'd4:s:1'");
	passes("{\"language\": \"en\"}", "d1 d3 d5 d6");
	passes("{\"language\": [\"de\", \"en\"], \"source_type\": \"html\"}", "d3 d4");
	cr_assert_eq(ev_qfilter_rowids(st, f, "q:1", &ids, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 3);
	cr_assert_eq(ids[0], 3);	/* d2's two chunks, declared French */
	cr_assert_eq(ids[1], 4);
	cr_assert_eq(ids[2], 8);	/* d4:s:1, German declared, French found */
	doc_ids_pass(f, got, sizeof got);
	cr_assert_str_eq(got, "d2 d4");
	free(ids);
	json_decref(f);
}

Test(qfilter, metadata_compares_with_the_type_and_a_list_means_any)
{
	passes("{\"metadata\": {\"year\": 1958}}", "d1");
	passes("{\"metadata\": {\"year\": \"1958\"}}", "d2");
	passes("{\"metadata\": {\"year\": 1960.5}}", "d3");
	passes("{\"metadata\": {\"year\": [1958, \"1958\"]}}", "d1 d2");
	passes("{\"metadata\": {\"open\": true}}", "d1");
	passes("{\"metadata\": {\"open\": false}}", "d3");
	/* null: the key is there, and null; a document without the key does not pass */
	passes("{\"metadata\": {\"lab\": null}}", "d2");
	passes("{\"metadata\": {\"lab\": \"NACA\", \"year\": 1958}}", "d1");
	passes("{\"metadata\": {\"lab\": \"NACA\", \"year\": 1960.5}}", "");
}

Test(qfilter, published_date_is_an_inclusive_range_at_the_bounds_precision)
{
	passes("{\"published_date\": {\"from\": \"2021-06\"}}", "d2 d3 d6");
	passes("{\"published_date\": {\"to\": \"2021\"}}", "d1 d2 d5");
	passes("{\"published_date\": {\"from\": \"2021-03-04\", \"to\": \"2021-03-04\"}}", "d1");
	passes("{\"published_date\": {\"from\": null, \"to\": \"2020\"}}", "d5");
	passes("{\"published_date\": {}}", "d1 d2 d3 d4 d5 d6");
}

/* The bounds and the documents' dates are compared as the moments they
 * name, not as text: a year is its first day, a space or a 't' may stand
 * for the 'T', a zone is taken off, and to ends where its precision does. */
Test(qfilter, published_date_compares_moments_not_spellings)
{
	tu_exec_ok(st, "UPDATE documents SET published_date = CASE doc_id"
		" WHEN 'd1' THEN '2024' WHEN 'd2' THEN '2024-01-05 10:00'"
		" WHEN 'd3' THEN '2024-01-05T01:00+05:00' WHEN 'd4' THEN '2024-01-05'"
		" WHEN 'd5' THEN '2024-01-04t23:00' ELSE 'not a date' END");
	passes("{\"published_date\": {\"from\": \"2024-01-01\"}}", "d1 d2 d3 d4 d5");
	passes("{\"published_date\": {\"from\": \"2024-01-05\"}}", "d2 d4");
	passes("{\"published_date\": {\"from\": \"2024-01-05T00:00\"}}", "d2 d4");
	passes("{\"published_date\": {\"to\": \"2024-01-04\"}}", "d1 d3 d5");
	passes("{\"published_date\": {\"to\": \"2024-01-05T05\"}}", "d1 d3 d4 d5");
	passes("{\"published_date\": {\"from\": \"2024-01-05T05:00Z\", \"to\": \"2024-01-05T10\"}}",
		"d2");
	passes("{\"published_date\": {\"from\": \"2024-01-04T20:00Z\", \"to\": \"2024-01-04T20:00Z\"}}",
		"d3");
	passes("{\"published_date\": {\"from\": \"2024-01-04T21:00+01\", \"to\": \"2024-01-04T19:59:59.9-00:00\"}}",
		"");
	/* a fraction finer than a millisecond is cut off, never rounded up into
	 * the next day */
	tu_exec_ok(st, "UPDATE documents SET published_date = '2024-06-30T23:59:59.9999'"
		" WHERE doc_id = 'd6'");
	passes("{\"published_date\": {\"to\": \"2024-06-30\"}}", "d1 d2 d3 d4 d5 d6");
	passes("{\"published_date\": {\"from\": \"2024-07-01\"}}", "");
}

Test(qfilter, a_bad_filter_is_refused_naming_the_key)
{
	refused("[]", "field 'filters' must be an object");
	refused("{\"author\": \"x\"}", "unknown filter 'author' (known: doc_id, doc_ids, metadata, "
		"published_date, source_type, language)");
	refused("{\"doc_id\": 3}", "filter 'doc_id' must be a string or a non-empty array of strings");
	refused("{\"doc_ids\": []}", "filter 'doc_ids' must be a string or a non-empty array of strings");
	refused("{\"doc_ids\": [\"d1\", 2]}",
		"filter 'doc_ids' must be a string or a non-empty array of strings");
	refused("{\"language\": {}}", "filter 'language' must be a string or a non-empty array of strings");
	refused("{\"metadata\": [\"a\"]}", "filter 'metadata' must be an object of keys and values");
	refused("{\"metadata\": {\"a\": {\"b\": 1}}}", "metadata filter 'a' must be a string, number, "
		"true, false, null or an array of them");
	refused("{\"metadata\": {\"a\": []}}", "metadata filter 'a' is an empty array");
	refused("{\"published_date\": \"2021\"}",
		"filter 'published_date' must be an object with 'from' and/or 'to'");
	refused("{\"published_date\": {\"since\": \"2020\"}}",
		"unknown key 'since' in filter 'published_date' (known: from, to)");
	refused("{\"published_date\": {\"from\": \"June\"}}",
		"'published_date.from' must be a date such as \"2021-06-30\"");
}

Test(qfilter, the_conditions_number_their_values_from_the_first_parameter)
{
	struct ev_qfilter f = EV_QFILTER_INIT;
	struct ev_err err = { 0 };
	json_t *j = json_loads("{\"doc_id\": \"d1\", \"published_date\": {\"to\": \"2021\"}}", 0, NULL);

	cr_assert_eq(ev_qfilter_build(&f, j, 7, "q:1", &err), 0, "%s", err.msg);
	cr_assert_str_eq(ev_buf_str(&f.sql), " AND fc.doc_id = ?7"
		" AND evkit_date_ms(fd.published_date) < ?8");
	cr_assert_eq(json_array_size(f.binds), 2);
	ev_qfilter_release(&f);
	ev_qfilter_release(&f);	/* released twice: harmless */
	json_decref(j);
}

/* A filter by date reads each document's date once, not at each of its
 * chunks' rows and for each of "from" and "to"; the same query again reads
 * none: five documents of five dates (d4 has none), two chunks each. */
Test(qfilter, a_date_filter_reads_each_date_once)
{
	const char *q = "{\"published_date\": {\"from\": \"2021\", \"to\": \"2022\"}}";

	date_reads = 0;
	passes(q, "d1 d2 d3");
	cr_assert_leq(date_reads, 5, "%ld dates read", date_reads);
	date_reads = 0;
	passes(q, "d1 d2 d3");
	cr_assert_eq(date_reads, 0, "%ld dates read again", date_reads);
}
