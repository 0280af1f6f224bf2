/* Tests of lib/store/show.c over a real store: references parsed (and
 * refused), the references of JSON Lines records, and chunks, documents,
 * pages and regions resolved. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "region.h"
#include "show.h"
#include "store.h"
#include "test_util.h"

static char dir[64], path[128];
static struct ev_store *st;

/* A document "p.pdf" of two chunks on pages 1 and 2 (the first crossing
 * onto 2), its lines stored, and a document "m.md" with a clause's chunk. */
static void
setup(void)
{
	struct ev_err err = { 0 };

	snprintf(dir, sizeof dir, "/tmp/evkit-show.XXXXXX");
	tu_mkdir(dir, NULL, 0);
	snprintf(path, sizeof path, "%s/store.db", dir);
	st = tu_store_create(path, &err);
	tu_exec_ok(st, "INSERT INTO documents(doc_id, title, source_uri, metadata, content_hash) VALUES"
	    " ('p.pdf', 'Hives', 'p.pdf', '{\"year\":2020}', 'x'), ('m.md', 'Plan', NULL, NULL, 'y')");
	/* the text: "Open the hive.\nLift frames.\nCount mites.\nFeed syrup." */
	tu_exec_ok(st, "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index, title, section_title,"
	    " section_path, text, offset_start, offset_end, content_hash) VALUES"
	    " (1, 'p.pdf:_top:0', 'p.pdf', '_top', 0, 'Hives', '', '',"
	    "  'Open the hive.\nLift frames.\nCount mites.', 0, 40, 'sha256:a'),"
	    " (2, 'p.pdf:_top:1', 'p.pdf', '_top', 1, 'Hives', '', '', 'Count mites.\nFeed syrup.',"
	    "  28, 52, 'sha256:b'),"
	    " (3, 'm.md:housing/1-2:0', 'm.md', 'housing/1-2', 0, 'Plan', 'Housing',"
	    "  'Housing > 1.2', '1.2 Scope\nAll homes.', 10, 30, 'sha256:c')");
	cr_assert_eq(ev_region_create(st, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_region_put(st, "p.pdf:_top:0", 1, 2, "[[0,14,1,72,100,200,110],"
	    "[15,27,1,72,120,180,130],[28,40,2,72,72,170,82]]", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_region_put(st, "p.pdf:_top:1", 2, 2, "[[28,40,2,72,72,170,82],"
	    "[41,52,2,72,90,160,100]]", &err), 0, "%s", err.msg);
}

static void
teardown(void)
{
	ev_store_close(st);
	tu_rmdir(dir);
}

TestSuite(show, .init = setup, .fini = teardown);

/* Resolve ref: its record (the caller frees it), or NULL when not found. */
static json_t *
resolve(const char *ref)
{
	struct ev_err err = { 0 };
	struct ev_ref r;
	json_t *rec;
	int got;

	cr_assert_eq(ev_ref_parse(ref, strlen(ref), &r, "arg", &err), 0, "%s", err.msg);
	got = ev_show_resolve(st, &r, ref, NULL, NULL, &rec, &err);
	free(r.id);
	cr_assert_neq(got, -1, "%s", err.msg);
	return got ? rec : NULL;
}

static const char *
str(const json_t *rec, const char *key)
{
	return json_string_value(json_object_get(rec, key));
}

Test(show, a_reference_is_parsed_by_its_prefix)
{
	struct ev_err err = { 0 };
	struct ev_ref r;

	cr_assert_eq(ev_ref_parse("doc::a::b::page-12::bbox-1,2.5,3,4", 34, &r, "x", &err), 0);
	cr_assert_eq(r.kind, EV_REF_REGION);
	cr_assert_str_eq(r.id, "a::b", "a document id may hold '::'");
	cr_assert_eq(r.page, 12);
	cr_assert_float_eq(r.box[1], 2.5, 1e-12);
	free(r.id);
	cr_assert_eq(ev_ref_parse("chunk:d:s:0", 11, &r, "x", &err), 0);
	cr_assert_eq(r.kind, EV_REF_CHUNK);
	cr_assert_str_eq(r.id, "d:s:0");
	free(r.id);
	cr_assert_eq(ev_ref_parse("d:s:0", 5, &r, "x", &err), 0);
	cr_assert_eq(r.kind, EV_REF_BARE);
	free(r.id);
}

Test(show, a_malformed_reference_is_refused_naming_where_and_why)
{
	static const char *const bad[] = { "doc::a::page-0", "doc::a::page-01", "doc::a::page-",
	    "doc::a::page-1::bbox-1,2,3", "doc::a::page-1::bbox-4,0,1,1", "doc::a::page-1::bbox-a,b,c,d",
	    "doc::a", "doc::::page-1", "chunk:", "doc:", "", "doc::a::page-1::bbox-0x1,0,2,2",
	    "doc::a::page-1::bbox-\t1,0,2,2", "doc::a::page-1::bbox-1,0,2,2,", "doc::a::page-1::bbox-1,,2,2",
	    "doc::a::page-1::bbox-inf,0,2,2", "doc::a::page-1::bbox-+1,0,2,2", NULL };
	struct ev_err err = { 0 };
	struct ev_ref r;

	for (int i = 0; bad[i]; i++) {
		cr_assert_eq(ev_ref_parse(bad[i], strlen(bad[i]), &r, "stdin:3", &err), -1, "%s", bad[i]);
		cr_assert_eq(err.code, 2);
		cr_assert_str_eq(err.where, "stdin:3");
	}
	ev_ref_parse("doc::a::page-0", 14, &r, "stdin:3", &err);
	cr_assert_str_eq(err.msg, "malformed reference 'doc::a::page-0': a page is a number from 1");
}

Test(show, an_id_may_hold_control_characters_as_ev_ingest_stores_them)
{
	struct ev_err err = { 0 };
	struct ev_buf b = EV_BUF_INIT;
	struct ev_ref r;

	cr_assert_eq(ev_ref_parse("chunk:a\tb\n\x01:_top:0", 18, &r, "x", &err), 0, "%s", err.msg);
	cr_assert_eq(r.kind, EV_REF_CHUNK);
	cr_assert_str_eq(r.id, "a\tb\n\x01:_top:0");
	free(r.id);
	cr_assert_eq(ev_ref_parse("doc::a\tb::page-0", 16, &r, "stdin:2", &err), -1);
	cr_assert_str_eq(err.msg, "malformed reference '\"doc::a\\tb::page-0\"': a page is a number from 1");
	cr_assert_eq(ev_show_put_ref(&b, "a\tb\x01", 4), 0);
	cr_assert_eq(ev_show_put_ref(&b, " c:d", 4), 0);
	cr_assert_str_eq(b.p, "\"a\\tb\\u0001\" c:d", "quoted only when it holds a control character");
	ev_buf_release(&b);
}

Test(show, records_give_their_references)
{
	struct ev_err err = { 0 };
	json_t *refs = json_array(), *pack = json_loads("{\"evidences\": [{\"raw\": {\"content_ref\":"
	    " \"chunk:a\"}}, {\"raw\": {\"content_ref\": \"doc:b\"}}]}", 0, NULL);
	json_t *hit = json_pack("{s:s,s:s}", "id", "c", "content_ref", "doc::d::page-1");
	json_t *chunk = json_pack("{s:s}", "id", "e"), *s = json_string("f"), *n = json_integer(1);

	cr_assert_eq(ev_show_refs_of(pack, refs, "w", &err), 0);
	cr_assert_eq(ev_show_refs_of(hit, refs, "w", &err), 0);
	cr_assert_eq(ev_show_refs_of(chunk, refs, "w", &err), 0);
	cr_assert_eq(ev_show_refs_of(s, refs, "w", &err), 0);
	cr_assert_eq(json_array_size(refs), 5);
	cr_assert_str_eq(json_string_value(json_array_get(refs, 2)), "doc::d::page-1",
	    "a hit's content_ref before its id");
	cr_assert_str_eq(json_string_value(json_array_get(refs, 4)), "f");
	cr_assert_eq(ev_show_refs_of(n, refs, "w", &err), -1);
	cr_assert_eq(err.code, 2);
	json_decref(refs), json_decref(pack), json_decref(hit), json_decref(chunk), json_decref(s);
	json_decref(n);
}

Test(show, a_chunk_has_its_text_page_boxes_and_clause)
{
	json_t *c = resolve("chunk:p.pdf:_top:1"), *m;

	cr_assert_not_null(c);
	cr_assert_str_eq(str(c, "kind"), "chunk");
	cr_assert_str_eq(str(c, "text"), "Count mites.\nFeed syrup.");
	cr_assert_eq(json_integer_value(json_object_get(c, "page")), 2);
	cr_assert_eq(json_array_size(json_object_get(c, "boxes")), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(c, "metadata"), "year")), 2020);
	json_decref(c);
	m = resolve("m.md:housing/1-2:0");
	cr_assert_str_eq(str(json_object_get(m, "metadata"), "clause_id"), "1.2");
	json_decref(m);
	cr_assert_null(resolve("chunk:p.pdf:_top:9"));
}

Test(show, a_document_is_its_chunks_without_their_overlap)
{
	json_t *d = resolve("doc:p.pdf");

	cr_assert_str_eq(str(d, "kind"), "document");
	cr_assert_str_eq(str(d, "text"), "Open the hive.\nLift frames.\nCount mites.\nFeed syrup.");
	cr_assert_eq(json_integer_value(json_object_get(d, "offset_end")), 52);
	json_decref(d);
	d = resolve("p.pdf");
	cr_assert_str_eq(str(d, "kind"), "document", "a bare id: a chunk's, else a document's");
	json_decref(d);
	cr_assert_null(resolve("doc:nope"));
}

Test(show, a_page_is_its_lines_and_a_region_those_in_its_box)
{
	json_t *p = resolve("doc::p.pdf::page-2"), *r;

	cr_assert_str_eq(str(p, "kind"), "page");
	cr_assert_str_eq(str(p, "text"), "Count mites.\nFeed syrup.", "a line two chunks hold once");
	cr_assert_eq(json_integer_value(json_object_get(p, "offset_start")), 28);
	cr_assert_eq(json_array_size(json_object_get(p, "boxes")), 2);
	json_decref(p);
	r = resolve("doc::p.pdf::page-1::bbox-0,115,600,200");
	cr_assert_str_eq(str(r, "kind"), "region");
	cr_assert_str_eq(str(r, "text"), "Lift frames.");
	json_decref(r);
	cr_assert_null(resolve("doc::p.pdf::page-3"));
	cr_assert_null(resolve("doc::m.md::page-1"), "a document without pages");
	cr_assert_null(resolve("doc::p.pdf::page-1::bbox-0,300,10,400"), "no line in the box");
}

/* Why ref shows nothing, as ev_show_why_missing() says it. */
static const char *
why(const char *ref, struct ev_buf *b)
{
	struct ev_err err = { 0 };
	struct ev_ref r;

	cr_assert_eq(ev_ref_parse(ref, strlen(ref), &r, "arg", &err), 0, "%s", err.msg);
	ev_buf_reset(b);
	cr_assert_eq(ev_show_why_missing(st, &r, b, &err), 0, "%s", err.msg);
	free(r.id);
	return ev_buf_str(b);
}

/* A page of a document the store holds was "not in the store (deleted,
 * ...)" whatever kept it from showing: it says which. */
Test(show, a_page_that_shows_nothing_says_why)
{
	struct ev_buf b = EV_BUF_INIT;

	tu_exec_ok(st, "INSERT INTO documents(doc_id, metadata, content_hash) VALUES"
	    " ('s.pdf', '{\"page_count\":4}', 'z')");
	cr_assert_str_eq(why("doc::p.pdf::page-3", &b), "is not in the store: the document 'p.pdf'"
	    " has 2 pages", "the last its lines reach");
	cr_assert_str_eq(why("doc::s.pdf::page-5", &b), "is not in the store: the document 's.pdf'"
	    " has 4 pages", "its page_count");
	cr_assert_null(resolve("doc::s.pdf::page-2"));
	cr_assert_not_null(strstr(why("doc::s.pdf::page-2", &b), "shows nothing: the store holds no"
	    " text of page 2 (a scanned page"));
	cr_assert_str_eq(why("doc::m.md::page-1", &b), "is not in the store: the document 'm.md' has"
	    " no pages (a PDF's document has)");
	cr_assert_str_eq(why("doc::p.pdf::page-1::bbox-0,300,10,400", &b), "shows nothing: no line of"
	    " text on page 1 lies in the box");
	cr_assert_str_eq(why("doc::gone.pdf::page-1", &b), "is not in the store (deleted, or stored"
	    " again under another id: search for it again)");
	cr_assert_str_eq(why("chunk:p.pdf:_top:9", &b), "is not in the store (deleted, or stored"
	    " again under another id: search for it again)");
	ev_buf_release(&b);
}

Test(show, the_text_form_lists_the_fields_then_the_text)
{
	struct ev_buf b = EV_BUF_INIT;
	json_t *c = resolve("m.md:housing/1-2:0");

	cr_assert_eq(ev_show_text(c, &b), 0);
	cr_assert_str_eq(ev_buf_str(&b), "m.md:housing/1-2:0\n  kind: chunk\n  title: Plan\n"
	    "  section: Housing > 1.2\n  clause: 1.2\n  offsets: 10-30\n\n    1.2 Scope\n"
	    "    All homes.\n\n");
	json_decref(c);
	ev_buf_release(&b);
}

/* What a terminal would obey is left out of the text form (C0 but a tab,
 * DEL, C1), as a store another program wrote may hold it; a field is one
 * line. */
Test(show, the_text_form_leaves_out_what_a_terminal_obeys)
{
	struct ev_buf b = EV_BUF_INIT;
	json_t *c = json_pack("{s:s,s:s,s:s,s:s}", "ref", "x", "title", "A\x1b[2J\tB\nC",
	    "section_path", "S\xc2\x9b" "1m\x7f", "text", "\x1b]0;t\x07red\ttext\r\b\bover\r\nnext \xc2\xa0\xc2\x85z");

	cr_assert_eq(ev_show_text(c, &b), 0);
	cr_assert_str_eq(ev_buf_str(&b), "x\n  title: A[2J B C\n  section: S1m\n\n"
	    "    ]0;tred\ttextover\n    next \xc2\xa0z\n\n");
	json_decref(c);
	ev_buf_release(&b);
}
