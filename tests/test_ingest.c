/* Tests of lib/store/ingest.c: checking records, plain files, directory walks, and
 * documents into a real store with the chunk records they print. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunk.h"
#include "ingest.h"
#include "jsonl.h"
#include "sha256.h"
#include "store.h"
#include "test_util.h"

/* opendir(), wrapped at link time (LDLIBS_test_ingest in the Makefile):
 * when opendir_nomem is set, it fails as when memory runs out. */
static int opendir_nomem;
DIR *__real_opendir(const char *name);

DIR *
__wrap_opendir(const char *name)
{
	if (opendir_nomem) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_opendir(name);
}

static char dir[] = "/tmp/evkit-ingest-XXXXXX";
static char path[256];
static struct ev_store *st;
static struct ev_err err;
static struct ev_buf out;

static void
setup(void)
{
	tu_mkdir(dir, path, sizeof path);
	st = tu_store_create(path, &err);
}

static void
teardown(void)
{
	ev_store_close(st);
	ev_buf_release(&out);
	tu_rmdir(dir);
}

TestSuite(ingest, .init = setup, .fini = teardown);

static void
check_fails(const char *json, const char *msg)
{
	json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);

	cr_assert_not_null(v, "%s", json);
	ev_err_clear(&err);
	cr_assert_eq(ev_docread_check(v, "in.jsonl:3", &err), -1, "%s", json);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, "in.jsonl:3");
	cr_assert_str_eq(err.msg, msg);
	json_decref(v);
}

Test(ingest, check_accepts_a_full_document)
{
	json_t *v = json_loads("{\"id\":\"a\",\"text\":\"\",\"title\":null,\"language\":\"en\","
	    "\"published_date\":\"2024-02-29T10:00:00Z\",\"metadata\":{\"k\":[1]},\"x\":1}", 0, NULL);

	cr_assert_eq(ev_docread_check(v, "w", &err), 0, "%s", err.msg);
	json_decref(v);
}

Test(ingest, check_names_what_is_wrong)
{
	check_fails("[1]", "a document must be a JSON object with 'id' and 'text'");
	check_fails("\"text\"", "a document must be a JSON object with 'id' and 'text'");
	check_fails("{\"text\":\"t\"}", "missing field 'id'");
	check_fails("{\"id\":7,\"text\":\"t\"}", "field 'id' must be a string");
	check_fails("{\"id\":\"\",\"text\":\"t\"}", "field 'id' must not be empty");
	check_fails("{\"id\":\"a\"}", "missing field 'text'");
	check_fails("{\"id\":\"a\",\"text\":{}}", "field 'text' must be a string");
	check_fails("{\"id\":\"a\",\"text\":\"t\",\"title\":5}", "field 'title' must be a string");
	check_fails("{\"id\":\"a\",\"text\":\"t\",\"metadata\":[]}", "field 'metadata' must be an object");
	check_fails("{\"id\":\"a\",\"text\":\"t\",\"published_date\":\"yesterday\"}",
	    "field 'published_date' must be a date (YYYY-MM-DD): 'yesterday'");
	check_fails("{\"id\":\"a\",\"text\":\"t\",\"published_date\":\"2024-13-01\"}",
	    "field 'published_date' must be a date (YYYY-MM-DD): '2024-13-01'");
}

static void
write_file(const char *name, const char *data, size_t n)
{
	char p[512];
	FILE *fp;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	cr_assert_not_null(fp = fopen(p, "wb"));
	cr_assert_eq(fwrite(data, 1, n, fp), n);
	cr_assert_eq(fclose(fp), 0);
}

Test(ingest, a_plain_file_becomes_a_document_without_its_bom)
{
	char p[512];
	json_t *d;

	write_file("note.md", "\xEF\xBB\xBF# Hi\n\ntext\n", 14);
	snprintf(p, sizeof p, "%s/note.md", dir);
	d = ev_docread_read_file(p, NULL, EV_INGEST_AUTO, &err);
	cr_assert_not_null(d, "%s", err.msg);
	cr_assert_str_eq(json_string_value(json_object_get(d, "id")), p);
	cr_assert_str_eq(json_string_value(json_object_get(d, "source_uri")), p);
	cr_assert_str_eq(json_string_value(json_object_get(d, "text")), "# Hi\n\ntext\n");
	cr_assert_str_eq(json_string_value(json_object_get(d, "source_type")), "markdown");
	json_decref(d);
}

Test(ingest, a_plain_file_with_invalid_utf8_is_refused_naming_the_line)
{
	char p[512], where[600];

	write_file("bad.txt", "one\ntwo \xC3\x28 three\n", 17);
	snprintf(p, sizeof p, "%s/bad.txt", dir);
	cr_assert_null(ev_docread_read_file(p, NULL, EV_INGEST_AUTO, &err));
	cr_assert_eq(err.code, 2);
	snprintf(where, sizeof where, "%s:2", p);
	cr_assert_str_eq(err.where, where);
	cr_assert_str_eq(err.msg, "invalid UTF-8 at column 5");
	write_file("nul.txt", "a\0b", 3);
	snprintf(p, sizeof p, "%s/nul.txt", dir);
	cr_assert_null(ev_docread_read_file(p, NULL, EV_INGEST_AUTO, &err));
	cr_assert_str_eq(err.msg, "NUL byte at column 2");
	write_file("over.txt", "\xC0\xAF", 2);
	snprintf(p, sizeof p, "%s/over.txt", dir);
	cr_assert_null(ev_docread_read_file(p, NULL, EV_INGEST_AUTO, &err));
	cr_assert_str_eq(err.msg, "invalid UTF-8 at column 1");
}

Test(ingest, walk_finds_plain_documents_recursively_in_name_order)
{
	char p[512], sub[600];
	char **paths;
	size_t n;

	snprintf(sub, sizeof sub, "%s/tree", dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof sub, "%s/tree/b", dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof sub, "%s/tree/.git", dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	write_file("tree/z.txt", "z", 1);
	write_file("tree/a.MD", "a", 1);
	write_file("tree/b/c.markdown", "c", 1);
	write_file("tree/b/d.jsonl", "{}", 2);
	write_file("tree/.git/e.md", "e", 1);
	write_file("tree/.hidden.md", "h", 1);
	snprintf(p, sizeof p, "%s/tree", dir);
	cr_assert_eq(ev_ingest_walk(p, &paths, &n, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 3);
	snprintf(sub, sizeof sub, "%s/tree/a.MD", dir);
	cr_assert_str_eq(paths[0], sub);
	snprintf(sub, sizeof sub, "%s/tree/b/c.markdown", dir);
	cr_assert_str_eq(paths[1], sub);
	snprintf(sub, sizeof sub, "%s/tree/z.txt", dir);
	cr_assert_str_eq(paths[2], sub);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

static struct ev_ingest *
open_ingest(int output)
{
	struct ev_ingest_opts o = { 1200, 200, EV_INGEST_AUTO, output, 0, 0 };
	struct ev_ingest *ig = ev_ingest_open(st, &o, &err);

	cr_assert_not_null(ig, "%s", err.msg);
	return ig;
}

/* Ingest one record in a transaction; the result of ev_ingest_doc(). */
static int
ingest(struct ev_ingest *ig, const char *json, const char *source, int from_file)
{
	json_t *v = json_loads(json, 0, NULL);
	int r;

	cr_assert_not_null(v, "%s", json);
	cr_assert_eq(ev_store_begin(st, &err), 0);
	r = ev_ingest_doc(ig, v, source, from_file, &out, &err);
	cr_assert_neq(r, -1, "%s", err.msg);
	cr_assert_eq(ev_ingest_commit(ig, &err), 0, "%s", err.msg);
	json_decref(v);
	return r;
}

static int
lines(void)
{
	int n = 0;

	for (size_t i = 0; i < out.len; i++)
		n += out.p[i] == '\n';
	return n;
}

Test(ingest, a_document_prints_its_chunk_records_with_unknown_fields)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_CHANGED);

	cr_assert_eq(ingest(ig, "{\"id\":\"g.md\",\"text\":\"# Guide\\n\\nHello there.\\n\","
	    "\"source_uri\":\"file:///g.md\",\"owner\":\"ops\",\"doc_id\":\"ignored\"}", "in", 0), 1);
	cr_assert_str_eq(ev_buf_str(&out), "{\"id\":\"g.md:guide:0\",\"doc_id\":\"g.md\","
	    "\"section_id\":\"guide\",\"chunk_index\":0,\"title\":\"Guide\",\"section_title\":\"Guide\","
	    "\"section_path\":\"Guide\",\"text\":\"Hello there.\",\"source_uri\":\"file:///g.md\","
	    "\"offset_start\":9,\"offset_end\":21,\"content_hash\":"
	    "\"sha256:23ea498e82f4435b1c135324eedef4ba64061600897077bf76082a50b41a9c13\","
	    "\"owner\":\"ops\"}\n");
	cr_assert(strstr(ev_buf_str(&out), "ignored") == NULL);
	ev_ingest_free(ig);
}

Test(ingest, chunk_text_is_escaped_as_jansson_escapes_it_at_any_alignment)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_ALL);
	char text[200], id[16];

	/* every ASCII byte that needs an escape, and UTF-8, once at each offset
	 * of an 8-byte block, in runs long enough to be scanned 8 at a time */
	for (int shift = 0; shift < 8; shift++) {
		for (int c = 1; c < 0x80; c++) {
			if (!(c < 0x20 || c == '"' || c == '\\' || c == 'a'))
				continue;
			size_t n = 0;

			text[n++] = 'y';	/* the chunker trims white space at the ends */
			for (int i = 0; i < shift; i++)
				text[n++] = 'x';
			text[n++] = (char)c;
			memcpy(text + n, "abcdefgh\xc3\xa9ijklmnopq", 20);
			n += 20;
			text[n++] = (char)c;
			text[n++] = 'z';
			text[n] = '\0';
			json_t *doc = json_pack("{s:s,s:s,s:s}", "id", "d", "text", text,
			    "source_type", "text"), *rec, *want;
			json_error_t je;
			char *line;

			snprintf(id, sizeof id, "d%d-%d", shift, c);
			json_object_set_new(doc, "id", json_string(id));
			ev_buf_reset(&out);
			cr_assert_eq(ev_store_begin(st, &err), 0);
			cr_assert_neq(ev_ingest_doc(ig, doc, "in", 0, &out, &err), -1, "%s", err.msg);
			cr_assert_eq(ev_ingest_commit(ig, &err), 0, "%s", err.msg);
			rec = json_loads(ev_buf_str(&out), 0, &je);
			cr_assert_not_null(rec, "%s: %s", je.text, ev_buf_str(&out));
			want = json_object_get(doc, "text");
			line = json_dumps(want, JSON_ENCODE_ANY);
			cr_assert(strstr(ev_buf_str(&out), line) != NULL, "%s not in %s", line,
			    ev_buf_str(&out));
			free(line);
			json_decref(rec);
			json_decref(doc);
		}
	}
	ev_ingest_free(ig);
}

Test(ingest, metadata_text_is_what_jansson_dumps_with_sorted_keys)
{
	static const char *const docs[] = {
		"{\"id\":\"a\",\"text\":\"x\",\"zeta\":\"1\",\"Alpha\":\"q\\\"\\\\\\n\\u0001\","
		"\"metadata\":{\"\u00e9t\u00e9\":\"\u00e9\\t/\\u007f\",\"b\":\"\",\"ab\":\"2\","
		"\"a\":\"3\",\"a b\":\"\\u2028\"}}",
		"{\"id\":\"a\",\"text\":\"x\",\"n\":1.5,\"metadata\":{\"k\":[true,null],\"s\":\"v\"}}",
		"{\"id\":\"a\",\"text\":\"x\",\"metadata\":{}}",
		NULL
	};
	struct ev_buf meta = EV_BUF_INIT, extra = EV_BUF_INIT;

	for (int i = 0; docs[i]; i++) {
		json_t *doc = json_loads(docs[i], 0, NULL), *m = json_object(), *v;
		struct ev_ingest_rec rec;
		const char *k;
		char *want;

		cr_assert_not_null(doc, "%s", docs[i]);
		json_object_foreach(doc, k, v)
			if (strcmp(k, "id") != 0 && strcmp(k, "text") != 0 && strcmp(k, "metadata") != 0)
				json_object_set(m, k, v);
		json_object_update(m, json_object_get(doc, "metadata"));
		want = json_object_size(m) ? json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		cr_assert_eq(ev_ingest_rec_make(doc, 0, &rec, &meta, &extra), 0);
		if (want == NULL)
			cr_assert_null(rec.metadata, "%s", rec.metadata);
		else
			cr_assert_str_eq(rec.metadata, want);
		free(want);
		json_decref(m);
		json_decref(doc);
	}
	ev_buf_release(&meta);
	ev_buf_release(&extra);
}

Test(ingest, unknown_fields_and_metadata_are_stored_for_filters)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_CHANGED);
	sqlite3_stmt *s;

	ingest(ig, "{\"id\":\"a\",\"text\":\"x\",\"owner\":\"ops\",\"metadata\":{\"team\":\"db\","
	    "\"owner\":\"dba\"},\"language\":\"en\"}", "in", 0);
	s = ev_store_prepare(st, "SELECT metadata, language, source FROM documents", &err);
	cr_assert_eq(sqlite3_step(s), SQLITE_ROW);
	cr_assert_str_eq((const char *)sqlite3_column_text(s, 0), "{\"owner\":\"dba\",\"team\":\"db\"}");
	cr_assert_str_eq((const char *)sqlite3_column_text(s, 1), "en");
	cr_assert_str_eq((const char *)sqlite3_column_text(s, 2), "in");
	sqlite3_reset(s);
	ev_ingest_free(ig);
}

Test(ingest, a_file_without_a_heading_takes_its_base_name_as_title)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_CHANGED);

	ingest(ig, "{\"id\":\"notes/on-call.txt\",\"text\":\"tips\",\"source_type\":\"text\"}",
	    "notes", 1);
	cr_assert(strstr(ev_buf_str(&out), "\"title\":\"on-call\"") != NULL, "%s", out.p);
	ev_buf_reset(&out);
	ingest(ig, "{\"id\":\"j1\",\"text\":\"tips\"}", "in", 0);
	cr_assert(strstr(ev_buf_str(&out), "\"title\":null") != NULL, "%s", out.p);
	ev_ingest_free(ig);
}

Test(ingest, an_unchanged_document_is_skipped_and_prints_nothing)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_CHANGED);
	const char *d = "{\"id\":\"a.md\",\"text\":\"# A\\n\\none\\n\\n# B\\n\\ntwo\\n\"}";

	cr_assert_eq(ingest(ig, d, "in", 0), 1);
	cr_assert_eq(lines(), 2);
	ev_buf_reset(&out);
	cr_assert_eq(ingest(ig, d, "in", 0), 0);
	cr_assert_eq(out.len, 0);
	cr_assert_eq(ev_ingest_stats(ig)->unchanged, 1);
	ev_ingest_free(ig);
}

Test(ingest, all_prints_the_chunks_of_unchanged_documents_too)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_CHANGED);
	const char *d = "{\"id\":\"a.md\",\"text\":\"# A\\n\\none\\n\\n# B\\n\\ntwo\\n\"}";

	ingest(ig, d, "in", 0);
	ev_ingest_free(ig);
	ig = open_ingest(EV_INGEST_ALL);
	ev_buf_reset(&out);
	cr_assert_eq(ingest(ig, d, "in", 0), 0);
	cr_assert_eq(lines(), 2);
	ev_ingest_free(ig);
}

Test(ingest, a_changed_document_prints_only_its_changed_chunks)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_CHANGED);

	ingest(ig, "{\"id\":\"a.md\",\"text\":\"# A\\n\\none\\n\\n# B\\n\\ntwo\\n\\n# C\\n\\nthree\\n\"}",
	    "in", 0);
	ev_buf_reset(&out);
	cr_assert_eq(ingest(ig, "{\"id\":\"a.md\",\"text\":\"# A\\n\\none\\n\\n# B\\n\\nTWO\\n\\n"
	    "# C\\n\\nthree\\n\"}", "in", 0), 1);
	cr_assert_eq(lines(), 1);
	cr_assert(strstr(out.p, "\"id\":\"a.md:b:0\"") != NULL, "%s", out.p);
	cr_assert_eq(ev_ingest_stats(ig)->chunks, 4);
	ev_ingest_free(ig);
}

Test(ingest, a_new_chunk_size_rechunks_an_unchanged_document)
{
	struct ev_ingest *ig = open_ingest(EV_INGEST_CHANGED);
	struct ev_ingest_opts o = { 64, 0, EV_INGEST_AUTO, EV_INGEST_CHANGED, 0, 0 };
	const char *d = "{\"id\":\"a\",\"text\":\"one two three four five six seven eight nine ten"
	    " eleven twelve thirteen fourteen fifteen sixteen\"}";

	cr_assert_eq(ingest(ig, d, "in", 0), 1);
	ev_ingest_free(ig);
	ig = ev_ingest_open(st, &o, &err);
	cr_assert_eq(ingest(ig, d, "in", 0), 1);
	ev_ingest_free(ig);
}

Test(ingest, open_refuses_an_overlap_above_half_the_size)
{
	struct ev_ingest_opts o = { 100, 51, EV_INGEST_AUTO, EV_INGEST_CHANGED, 0, 0 };

	cr_assert_null(ev_ingest_open(st, &o, &err));
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.msg, "chunk overlap must be at most half the chunk size (50): 51");
}

/* ev_docread_parse() and ev_json_parse_line() on line: the same value (as
 * compact JSON) or the same error. */
static void
check_parse_same(const char *line)
{
	struct ev_err e1 = { 0 }, e2 = { 0 };
	size_t len = strlen(line);
	json_t *a = ev_docread_parse(line, len, "in.jsonl:7", &e1);
	json_t *b = ev_json_parse_line(line, len, "in.jsonl:7", &e2);

	if (b == NULL) {
		cr_assert_null(a, "%s", line);
		cr_assert_eq(e1.code, e2.code, "%s", line);
		cr_assert_str_eq(e1.where, e2.where, "%s", line);
		cr_assert_str_eq(e1.msg, e2.msg, "%s", line);
	} else {
		char *sa, *sb;

		cr_assert_not_null(a, "%s: %s", line, e1.msg);
		sa = json_dumps(a, JSON_COMPACT | JSON_ENCODE_ANY);
		sb = json_dumps(b, JSON_COMPACT | JSON_ENCODE_ANY);
		cr_assert_str_eq(sa, sb, "%s", line);
		free(sa);
		free(sb);
	}
	json_decref(a);
	json_decref(b);
}

Test(ingest, parse_reads_records_as_jansson_does)
{
	static const char *const ok[] = {
		"{\"id\": \"a\", \"text\": \"x\", \"metadata\": {\"k\": [true, false, null, \"v\"]}}",
		" \t{\"id\":\"\\u00e9\\u20ac\\ud83d\\ude00\",\"text\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"} \r",
		"{\"id\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\",\"text\":\"\x7f\"}",
		"{\"\":\"\",\"e\":{},\"f\":[],\"g\":[[{\"h\":[]}]]}",
		"{\"n\":1,\"r\":2.5e3,\"big\":123456789012345678901234567890}",	/* numbers */
		"[1, 2]", "\"s\"", "null", "{}",
	};

	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		check_parse_same(ok[i]);
}

Test(ingest, parse_builds_numbers_as_jansson_does)
{
	/* numbers are read from jscan's validated text, not handed to Jansson:
	 * the same type (integer or real) and the same value to the bit */
	static const char *const ok[] = {
		"{\"a\":-0,\"b\":0,\"c\":-0.0,\"d\":0.1,\"e\":1E5,\"f\":1e+21,\"g\":5e-05}",
		"{\"min\":-9223372036854775808,\"max\":9223372036854775807}",
		"{\"tiny\":1e-400,\"sub\":4.9e-324,\"pi\":3.14159265358979323846264338}",
		"{\"box\":[0.125,-2,3E+2,[1.5e-7,{\"x\":12}]],\"k\":\"v\"}",
	};

	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		check_parse_same(ok[i]);
}

Test(ingest, parse_refuses_what_jansson_refuses_with_its_message)
{
	static const char *const bad[] = {
		"{\"id\":\"a\",\"id\":\"b\"}", "{\"id\":\"a\\u0000b\"}", "{\"id\":\"\\ud800\"}",
		"{\"id\":\"\\udc00\\ud800\"}", "{\"id\":\"\\ud800\\u0041\"}", "{\"id\":\"\\x\"}",
		"{\"id\":\"\\u12g4\"}", "{\"id\":\"a\tb\"}", "{\"id\":\"\xc3\"}", "{\"id\":\"\xc0\xaf\"}",
		"{\"id\":\"\xed\xa0\x80\"}", "{\"id\":\"\xf4\x90\x80\x80\"}", "{\"id\":\"\xff\"}",
		"{\"id\":\"a\"} x", "{\"id\":\"a\",}", "{\"id\" \"a\"}", "{\"id\":\"a\"", "{\"id\":tru}",
		"{\"id\":[1,]}", "{\"id\":[1 2]}", "{id:1}", "", "   ", "{\"id\":nul}",
	};

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		check_parse_same(bad[i]);
}

Test(ingest, parse_hands_deep_nesting_to_jansson)
{
	char line[20100];
	size_t n = 0;

	n += (size_t)sprintf(line, "{\"id\":\"a\",\"m\":");
	for (int i = 0; i < 100; i++)
		line[n++] = '[';
	for (int i = 0; i < 100; i++)
		line[n++] = ']';
	line[n++] = '}';
	line[n] = '\0';
	check_parse_same(line);
	n = 0;
	for (int i = 0; i < 10000; i++)
		line[n++] = '[';
	line[n] = '\0';
	check_parse_same(line);
}

Test(ingest, chunk_hashes_are_sha256_of_the_text_across_block_boundaries)
{
	struct ev_ingest_opts o = { 64, 0, EV_CHUNK_TEXT, EV_INGEST_ALL, 1, 0 };
	struct ev_ingest *ig;
	char want[EV_SHA256_TEXT];

	cr_assert_not_null(ig = ev_ingest_open(st, &o, &err), "%s", err.msg);
	/* Paragraphs of 1 to 130 bytes: every length around 55, 56, 64, 119, 128. */
	for (int len = 1; len <= 130; len++) {
		char text[200], json[400];
		json_t *v, *rec;
		const char *nl;

		for (int i = 0; i < len; i++)
			text[i] = (char)('a' + (i * 7 + len) % 26);
		text[len] = '\0';
		snprintf(json, sizeof json, "{\"id\":\"d%d\",\"text\":\"%s\"}", len, text);
		ev_buf_reset(&out);
		cr_assert_eq(ingest(ig, json, "s", 0), 1);
		cr_assert_not_null(nl = memchr(out.p, '\n', out.len));
		cr_assert_not_null(rec = json_loadb(out.p, (size_t)(nl - out.p), 0, NULL));
		v = json_object_get(rec, "text");
		ev_sha256_text(json_string_value(v), json_string_length(v), want);
		cr_assert_str_eq(json_string_value(json_object_get(rec, "content_hash")), want,
		    "length %d", len);
		json_decref(rec);
	}
	ev_ingest_free(ig);
}

Test(ingest, prune_is_refused_when_documents_were_not_marked_seen)
{
	struct ev_ingest_opts o = { 1200, 200, EV_INGEST_AUTO, EV_INGEST_CHANGED, 1, 0 };
	struct ev_ingest *ig = ev_ingest_open(st, &o, &err);
	long long n = 0;

	cr_assert_not_null(ig, "%s", err.msg);
	cr_assert_eq(ingest(ig, "{\"id\":\"a\",\"text\":\"alpha\"}", "s", 0), 1);
	cr_assert_eq(ev_ingest_prune(ig, "s", &n, &err), -1);
	cr_assert_eq(err.code, 1);
	cr_assert_str_eq(err.msg, "cannot prune: the documents were not marked seen (no_prune)");
	cr_assert_eq(n, 0);
	ev_ingest_free(ig);
}

Test(ingest, kind_of_a_file_by_its_name)
{
	static const struct {
		const char *name;
		int kind;
	} want[] = {
		{ "a/b.MD", EV_CHUNK_MARKDOWN }, { "b.markdown", EV_CHUNK_MARKDOWN },
		{ "notes.txt", EV_CHUNK_TEXT }, { "guide.rst", EV_CHUNK_TEXT },
		{ "docs.d/README", EV_CHUNK_MARKDOWN }, { "Readme", EV_CHUNK_MARKDOWN },
		{ "docs.d/LICENSE", EV_CHUNK_TEXT }, { "README.txt", EV_CHUNK_TEXT },
		{ "NOT-README", EV_CHUNK_TEXT }, { ".profile", EV_CHUNK_TEXT },
		{ "x.jsonl", EV_DOCREAD_KIND_JSONL }, { "x.json", EV_DOCREAD_KIND_JSONL },
		{ "logo.png", EV_DOCREAD_KIND_OTHER }, { "manual.PDF", EV_DOCREAD_KIND_EXTRACT },
		{ "site/index.html", EV_DOCREAD_KIND_EXTRACT }, { "old.htm", EV_DOCREAD_KIND_EXTRACT },
	};

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert_eq(ev_docread_kind(want[i].name), want[i].kind, "%s", want[i].name);
}

Test(ingest, ids_of_files_are_relative_to_the_base_however_spelled)
{
	char base[512], p[700], *real, *id;
	struct ev_ingest_ids *ids;

	snprintf(base, sizeof base, "%s/proj", dir);
	cr_assert_eq(mkdir(base, 0755), 0);
	write_file("proj/a.md", "a", 1);
	cr_assert_not_null(real = ev_ingest_resolve(base, 1, &err), "%s", err.msg);
	cr_assert_not_null(ids = ev_ingest_ids_new(real, &err));
	snprintf(p, sizeof p, "%s/proj/a.md", dir);
	cr_assert_str_eq(id = ev_ingest_ids_of(ids, p, &err), "a.md");
	free(id);
	snprintf(p, sizeof p, "%s/proj/./../proj/a.md", dir);
	cr_assert_str_eq(id = ev_ingest_ids_of(ids, p, &err), "a.md");
	free(id);
	snprintf(p, sizeof p, "%s/proj/", dir);
	cr_assert_str_eq(id = ev_ingest_ids_of(ids, p, &err), ".");
	free(id);
	snprintf(p, sizeof p, "%s/kb.db", dir);	/* outside: absolute */
	id = ev_ingest_ids_of(ids, p, &err);
	cr_assert_not_null(id);
	cr_assert_eq(id[0], '/');
	cr_assert_not_null(strstr(id, "/kb.db"));
	free(id);
	snprintf(p, sizeof p, "%s/nosuch/a.md", dir);
	cr_assert_null(ev_ingest_ids_of(ids, p, &err));
	cr_assert_eq(err.code, 2);
	ev_ingest_ids_free(ids);
	free(real);
}

Test(ingest, a_title_without_text_is_one_chunk_and_nothing_is_counted_empty)
{
	json_t *d = json_pack("{s:s,s:s,s:s}", "id", "t1", "text", "", "title", "Quarterly report");
	json_t *e = json_pack("{s:s,s:s}", "id", "e1", "text", "  ");
	struct ev_ingest_opts o = { EV_CHUNK_SIZE, EV_CHUNK_OVERLAP, EV_INGEST_AUTO,
		EV_INGEST_CHANGED, 1, 0 };
	struct ev_ingest *ig = ev_ingest_open(st, &o, &err);

	cr_assert_not_null(ig, "%s", err.msg);
	cr_assert_eq(ev_store_begin(st, &err), 0);
	cr_assert_eq(ev_ingest_doc(ig, d, "s", 0, &out, &err), 1, "%s", err.msg);
	cr_assert_eq(ev_ingest_stats(ig)->empty, 0);
	cr_assert_eq(ev_ingest_doc(ig, e, "s", 0, &out, &err), 1, "%s", err.msg);
	cr_assert_eq(ev_ingest_stats(ig)->empty, 1);
	cr_assert_eq(ev_ingest_commit(ig, &err), 0, "%s", err.msg);
	cr_assert_not_null(strstr(ev_buf_str(&out), "\"id\":\"t1:_top:0\""));
	cr_assert_not_null(strstr(ev_buf_str(&out), "\"text\":\"Quarterly report\",\"source_uri\":null,"
	    "\"offset_start\":0,\"offset_end\":0"));
	ev_ingest_free(ig);
	json_decref(d);
	json_decref(e);
}

Test(ingest, paged_records_are_parsed_without_their_lines_in_the_tree)
{
	static const char rec[] = "{\"id\":\"p\",\"text\":\"one two\\n\\nthree\",\"metadata\":{\"lines\":["
	    "{\"page\":1,\"offset_start\":0,\"offset_end\":7,\"bbox\":[1,2,3,4.5]},"
	    "{\"page\":2,\"offset_start\":9,\"offset_end\":14,\"bbox\":[5,6,7,8]}],\"format\":\"pdf\","
	    "\"pages\":[{\"page\":1,\"offset_start\":0,\"offset_end\":7},"
	    "{\"page\":2,\"offset_start\":9,\"offset_end\":14}]}}";
	static const char past[] = "{\"id\":\"p\",\"text\":\"ab\",\"metadata\":{\"lines\":[{\"page\":1,"
	    "\"offset_start\":0,\"offset_end\":3,\"bbox\":[1,2,3,4]}]}}";
	struct ev_regions r = EV_REGIONS_INIT;
	struct ev_err err = { 0 };
	json_t *doc = ev_docread_parse_paged(rec, strlen(rec), "t:1", &r, &err);
	char *s;

	cr_assert_not_null(doc, "%s", err.msg);
	s = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	cr_assert_str_eq(s, "{\"id\":\"p\",\"metadata\":{\"format\":\"pdf\"},\"text\":\"one two\\n\\nthree\"}");
	free(s);
	cr_assert_eq(r.npages, 2);
	cr_assert_eq(r.nlines, 2);
	cr_assert_eq(r.lines[1].page, 2);
	cr_assert_eq(r.lines[1].start, 9);
	cr_assert_float_eq(r.lines[0].bbox[3], 4.5, 1e-9);
	json_decref(doc);

	/* an entry past the text is named; a line that is not JSON keeps its message */
	doc = ev_docread_parse_paged(past, strlen(past), "t:2", &r, &err);
	cr_assert_null(doc);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, "t:2");
	cr_assert_str_eq(err.msg, "metadata.lines[0]: 'offset_start' and 'offset_end' must be byte"
	    " offsets of the text, start <= end (as ev-extract writes it)");
	cr_assert_eq(r.nlines, 0);
	ev_err_clear(&err);
	doc = ev_docread_parse_paged("{\"lines\": [", 11, "t:3", &r, &err);
	cr_assert_null(doc);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert(strstr(err.msg, "JSON") != NULL || strstr(err.msg, "end") != NULL, "%s", err.msg);
	ev_regions_release(&r);
}

Test(ingest, ids_open_takes_the_stores_recorded_base_else_the_one_given)
{
	char proj[512], other[512], spelled[600], fresh[512], notdir[600];
	char *real = NULL;
	struct ev_ingest_ids *ids;
	struct ev_store *s = NULL;

	snprintf(proj, sizeof proj, "%s/proj", dir);
	snprintf(other, sizeof other, "%s/other", dir);
	snprintf(spelled, sizeof spelled, "%s/other/../proj/.", dir);
	snprintf(fresh, sizeof fresh, "%s/fresh.db", dir);
	snprintf(notdir, sizeof notdir, "%s/proj/a.md", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	cr_assert_eq(mkdir(other, 0755), 0);
	write_file("proj/a.md", "a", 1);
	cr_assert_not_null(real = ev_ingest_resolve(proj, 1, &err), "%s", err.msg);
	/* no store yet: none opened, the base given */
	cr_assert_not_null(ids = ev_ingest_ids_open(fresh, proj, &s, &err), "%s", err.msg);
	cr_assert_null(s);
	cr_assert_str_eq(ev_ingest_ids_base(ids), real);
	ev_ingest_ids_free(ids);
	cr_assert_neq(access(fresh, F_OK), 0, "no store made");
	/* a base that is not a directory */
	cr_assert_null(ev_ingest_ids_open(fresh, notdir, &s, &err));
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.msg, "not a directory");
	/* a store with a recorded base: opened, and its base is the ids' */
	cr_assert_eq(ev_store_meta_set(st, EV_INGEST_BASE_KEY, real, &err), 0, "%s", err.msg);
	cr_assert_not_null(ids = ev_ingest_ids_open(path, NULL, &s, &err), "%s", err.msg);
	cr_assert_not_null(s);
	cr_assert_str_eq(ev_ingest_ids_base(ids), real);
	ev_ingest_ids_free(ids);
	ev_store_close(s);
	s = NULL;
	/* the same base however spelled */
	cr_assert_not_null(ids = ev_ingest_ids_open(path, spelled, &s, &err), "%s", err.msg);
	cr_assert_str_eq(ev_ingest_ids_base(ids), real);
	ev_ingest_ids_free(ids);
	ev_store_close(s);
	s = NULL;
	/* another base: refused, naming the store */
	ev_err_clear(&err);
	cr_assert_null(ev_ingest_ids_open(path, other, &s, &err));
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.where, path);
	cr_assert_not_null(strstr(err.msg, "the store's base is '"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/proj', not '"), "%s", err.msg);
	ev_store_close(s);
	free(real);
}

Test(ingest, reindex_upgrades_a_store_of_schema_1_once)
{
	char old[512];
	sqlite3 *db;
	struct ev_store *s;
	sqlite3_stmt *q;

	snprintf(old, sizeof old, "%s/old.db", dir);
	cr_assert_eq(sqlite3_open(old, &db), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(db,
	    "CREATE TABLE documents (doc_id TEXT PRIMARY KEY, source TEXT, title TEXT,"
	    "  source_uri TEXT, source_type TEXT, language TEXT, published_date TEXT, metadata TEXT,"
	    "  content_hash TEXT NOT NULL, length INTEGER, ingested_at TEXT);"
	    "CREATE TABLE chunks (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
	    "  doc_id TEXT NOT NULL REFERENCES documents(doc_id), section_id TEXT NOT NULL,"
	    "  chunk_index INTEGER NOT NULL, title TEXT, section_title TEXT, section_path TEXT,"
	    "  text TEXT NOT NULL, offset_start INTEGER, offset_end INTEGER,"
	    "  content_hash TEXT NOT NULL);"
	    "CREATE VIRTUAL TABLE chunks_fts USING fts5(title, section_title, text,"
	    "  content='chunks', content_rowid='rowid', tokenize='porter unicode61');"
	    "CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');"
	    "CREATE TABLE chunk_tombstones (rowid INTEGER PRIMARY KEY);"
	    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
	    "INSERT INTO meta VALUES ('schema_version', '1');"
	    "INSERT INTO documents(doc_id, language, content_hash) VALUES ('zh', NULL, 'a'),"
	    "  ('fr', 'fr', 'b');"
	    "INSERT INTO chunks VALUES (7, 'zh:_top:0', 'zh', '_top', 0, '', '', '',"
	    "  '养蜂人常用草酸防治蜂螨。', 0, 36, 'c');"
	    "INSERT INTO chunks VALUES (9, 'fr:_top:0', 'fr', '_top', 0, '', '', '',"
	    "  'The hives in winter.', 0, 20, 'd');"
	    "INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild');", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	/* each chunk's language: the declared one, else its text's */
	cr_assert_eq(ev_ingest_reindex(old, &err), 1, "%s", err.msg);
	cr_assert_not_null(s = ev_store_open(old, EV_STORE_READ, &err), "%s", err.msg);
	cr_assert_eq(sqlite3_prepare_v2(ev_store_db(s), "SELECT group_concat(rowid || '=' ||"
	    " language, ' ') FROM (SELECT rowid, language FROM chunks ORDER BY rowid)", -1, &q,
	    NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(q), SQLITE_ROW);
	cr_assert_str_eq((const char *)sqlite3_column_text(q, 0), "7=zh 9=fr");
	sqlite3_finalize(q);
	ev_store_close(s);
	/* current now, as a store made today is */
	cr_assert_eq(ev_ingest_reindex(old, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_ingest_reindex(path, &err), 0, "%s", err.msg);
	/* no store: the error of opening it */
	snprintf(old, sizeof old, "%s/none.db", dir);
	cr_assert_eq(ev_ingest_reindex(old, &err), -1);
	cr_assert_neq(err.code, 0);
	cr_assert_neq(access(old, F_OK), 0, "no store made");
}

/* A directory that cannot be opened for want of memory is out of memory
 * (code 1: the run failed), not a bad operand (code 2). */
Test(ingest, a_walk_out_of_memory_is_a_runtime_failure)
{
	char **paths = NULL;
	size_t n = 0;

	opendir_nomem = 1;
	cr_assert_eq(ev_ingest_walk(dir, &paths, &n, NULL, NULL, &err), -1);
	opendir_nomem = 0;
	cr_assert_eq(err.code, 1, "%s", err.msg);
	cr_assert_str_eq(err.msg, "out of memory");
	cr_assert_eq(ev_ingest_walk("/nonexistent-evkit-dir", &paths, &n, NULL, NULL, &err), -1);
	cr_assert_eq(err.code, 2, "%s", err.msg);
}
