/* test_extract.c: lib/store/extract.c -- file kinds, ids, Markdown escaping and the
 * document record written from temporary files; lib/store/extract_html.c on small
 * pages (the PDF side is in tests/cmd/ev-extract, which writes its PDFs). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "extract.h"
#include "extract_html.h"
#include "test_util.h"

static void
id_is(const char *path, const char *want)
{
	char out[64];

	ev_extract_id(path, out, sizeof out);
	cr_assert_str_eq(out, want, "id of '%s'", path);
}

Test(extract, ids_drop_dot_components_and_repeated_slashes)
{
	id_is("./a.pdf", "a.pdf");
	id_is(".//docs/./b//c.html", "docs/b/c.html");
	id_is("/abs/./x.pdf", "/abs/x.pdf");
	id_is("a/../b.pdf", "a/../b.pdf");
	id_is("./", ".");
}

Test(extract, an_id_too_long_is_cut_not_overrun)
{
	char out[8];

	memset(out, 'X', sizeof out);
	ev_extract_id("./abcdefghij.pdf", out, 6);
	cr_assert_str_eq(out, "abcde");
	cr_assert_eq(out[6], 'X');
}

Test(extract, kinds_by_extension_in_any_case)
{
	cr_assert_eq(ev_extract_kind("a/B.PDF"), EV_EXTRACT_PDF);
	cr_assert_eq(ev_extract_kind("x.Htm"), EV_EXTRACT_HTML);
	cr_assert_eq(ev_extract_kind("x.html"), EV_EXTRACT_HTML);
	cr_assert_eq(ev_extract_kind("x.pdf.txt"), EV_EXTRACT_NONE);
	cr_assert_eq(ev_extract_kind("dir.pdf/readme"), EV_EXTRACT_NONE);
}

static void
md_is(const char *line, const char *want)
{
	struct ev_buf b = EV_BUF_INIT;

	cr_assert_eq(ev_extract_md_line(&b, line, strlen(line)), 0);
	cr_assert_str_eq(ev_buf_str(&b), want, "line '%s'", line);
	ev_buf_release(&b);
}

Test(extract, markdown_headings_fences_and_underlines_are_escaped)
{
	md_is("# not a heading", "\\# not a heading");
	md_is("  ## two", "  \\## two");
	md_is("```", "\\```");
	md_is("~~~ tilde", "\\~~~ tilde");
	md_is("----", "\\----");
	md_is("= = =", "\\= = =");
	md_is("- a list item", "- a list item");
	md_is("C# and F#", "C# and F#");
	md_is("    # code indent", "    # code indent");
}

/* The record written by r, as a string. */
static char *
written(struct ev_xrec *r, const char *head, const char *tail, const char *meta)
{
	struct ev_err err = { 0 };
	json_t *h = json_loads(head, JSON_PRESERVE_ORDER, NULL);
	json_t *t = json_loads(tail, JSON_PRESERVE_ORDER, NULL);
	json_t *m = json_loads(meta, JSON_PRESERVE_ORDER, NULL);
	char *s = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);

	cr_assert_eq(ev_xrec_write(r, fp, h, t, m, &err), 0, "%s", err.msg);
	fclose(fp);
	json_decref(h);
	json_decref(t);
	json_decref(m);
	return s;
}

Test(extract, a_record_holds_text_pages_and_lines_at_their_offsets)
{
	struct ev_xrec r = EV_XREC_INIT;
	struct ev_err err = { 0 };
	const double box[4] = { 72, 65.644, 314.256, 84.1 };
	size_t s0, s1;
	char *s;

	cr_assert_eq(ev_xrec_begin(&r, &err), 0);
	ev_xrec_break(&r, 1);		/* nothing yet: no new line */
	cr_assert_eq(ev_xrec_pos(&r), 0);
	ev_xrec_text(&r, "# T\"i\\t\x01", 8);
	ev_xrec_break(&r, 1);
	ev_xrec_break(&r, 0);		/* a blank line already pending */
	s0 = ev_xrec_pos(&r);
	cr_assert_eq(s0, 10);
	ev_xrec_text(&r, "caf\xC3\xA9", 5);
	s1 = r.len;
	ev_xrec_line(&r, 1, s0, s1, box);
	ev_xrec_page(&r, 1, 0, s1, 612, 792.5);
	ev_xrec_break(&r, 1);		/* dropped: the text ends here */
	s = written(&r, "{\"id\":\"a.pdf\"}", "{\"source_type\":\"markdown\"}",
	    "{\"format\":\"pdf\"}");
	cr_assert_str_eq(s, "{\"id\":\"a.pdf\",\"text\":\"# T\\\"i\\\\t\\u0001\\n\\ncaf\xC3\xA9\","
	    "\"source_type\":\"markdown\",\"metadata\":{\"format\":\"pdf\",\"pages\":[{\"page\":1,"
	    "\"offset_start\":0,\"offset_end\":15,\"width\":612,\"height\":792.5}],\"lines\":[{"
	    "\"page\":1,\"offset_start\":10,\"offset_end\":15,\"bbox\":[72,65.64,314.26,84.1]}]}}\n");
	free(s);

	/* the temporary files are emptied for the next record */
	cr_assert_eq(ev_xrec_begin(&r, &err), 0);
	ev_xrec_text(&r, "b", 1);
	s = written(&r, "{\"id\":\"b\"}", "{}", "{}");
	cr_assert_str_eq(s, "{\"id\":\"b\",\"text\":\"b\",\"metadata\":{}}\n");
	free(s);
	ev_xrec_release(&r);
}

Test(extract, invalid_utf8_and_nul_bytes_become_replacement_characters)
{
	struct ev_xrec r = EV_XREC_INIT;
	struct ev_err err = { 0 };
	char *s;

	cr_assert_eq(ev_xrec_begin(&r, &err), 0);
	ev_xrec_text(&r, "a\xFF\x80" "b\0c", 6);
	cr_assert_eq(r.len, 9);
	s = written(&r, "{}", "{}", "{}");
	cr_assert_str_eq(s, "{\"text\":\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\",\"metadata\":{}}\n");
	free(s);
	ev_xrec_release(&r);
}

/* The text ev_extract_html() makes of html. */
static json_t *
html(const char *page)
{
	char path[] = "/tmp/test_extract_XXXXXX.html", *s = NULL;
	struct ev_xrec r = EV_XREC_INIT;
	struct ev_err err = { 0 };
	size_t n = 0;
	FILE *fp = open_memstream(&s, &n);
	json_t *v;

	tu_tmpfile(path, 5, page, strlen(page));
	cr_assert_eq(ev_extract_html(path, "p.html", NULL, &r, fp, &err), 0, "%s", err.msg);
	fclose(fp);
	unlink(path);
	ev_xrec_release(&r);
	v = json_loads(s, 0, NULL);
	cr_assert_not_null(v, "%s", s);
	free(s);
	return v;
}

#define text_is(page, want) do { \
	json_t *v_ = html(page); \
	cr_assert_str_eq(json_string_value(json_object_get(v_, "text")), (want)); \
	json_decref(v_); \
} while (0)

Test(extract_html, navigation_scripts_and_page_furniture_are_left_out)
{
	text_is("<body><header>Site</header><nav>menu</nav><script>x()</script>"
	    "<p>body <b>text</b></p><aside>ad</aside><footer>(c)</footer></body>", "body text");
	text_is("<main><header>by us</header><p>a</p><footer>end</footer></main><p>out</p>",
	    "by us\n\na\n\nend");
	text_is("<div role=banner>logo</div><div role=navigation>menu</div><div>kept"
	    "<div role=search>find</div></div><div role=complementary>ad</div>"
	    "<div role=contentinfo>(c)</div>", "kept");
}

Test(extract_html, code_keeps_its_white_space_and_gets_a_longer_fence)
{
	text_is("<pre>a  b\n```\n  c</pre>", "````\na  b\n```\n  c\n````");
}

Test(extract_html, tables_become_pipe_tables_with_a_delimiter_row)
{
	text_is("<table><tr><td>a|b</td><td> c\n d </td></tr><tr><td>1</td></tr></table>",
	    "| a\\|b | c d |\n| --- | --- |\n| 1 |");
}

Test(extract_html, title_from_title_else_first_h1_and_language_from_lang)
{
	json_t *v = html("<html lang='fr'><head><title> T  one </title></head><h1>H</h1></html>");

	cr_assert_str_eq(json_string_value(json_object_get(v, "title")), "T one");
	cr_assert_str_eq(json_string_value(json_object_get(v, "language")), "fr");
	json_decref(v);
	v = html("<h2>x</h2><h1>First <i>one</i></h1><h1>second</h1>");
	cr_assert_str_eq(json_string_value(json_object_get(v, "title")), "First one");
	cr_assert_str_eq(json_string_value(json_object_get(v, "text")),
	    "## x\n\n# First one\n\n# second");
	json_decref(v);
}

/* ev_html_encoding() on s (NUL-terminated): how it found the encoding, and
 * its name, checked. */
static void
assert_encoding(const char *s, enum ev_html_found how, const char *name)
{
	char got[64];

	cr_assert_eq(ev_html_encoding(s, strlen(s), got, sizeof got), how, "%s", s);
	cr_assert_str_eq(got, name, "%s", s);
}

Test(extract_html, encoding_from_bom_then_meta_then_utf8_then_a_guess)
{
	static const char latin[] = "<html><body><p>Les \xe9l\xe8ves de l'\xe9" "cole fran\xe7"
	    "aise \xe9tudient \xe0 Gen\xe8ve, pr\xe8s du lac. Le caf\xe9 est d\xe9licieux.</p>";
	char got[64];

	assert_encoding("\xEF\xBB\xBF<p>x <meta charset=latin1>", EV_HTML_BOM, "UTF-8");
	cr_assert_eq(ev_html_encoding("\xFF\xFE<\0p\0>\0", 8, got, sizeof got), EV_HTML_BOM);
	cr_assert_str_eq(got, "UTF-16LE");
	assert_encoding("<head><META CHARSET=\"Shift_JIS\"><title>x</title>", EV_HTML_DECLARED, "Shift_JIS");
	assert_encoding("<meta http-equiv='Content-Type' content='text/html; charset=iso-8859-2'>",
	    EV_HTML_DECLARED, "iso-8859-2");
	/* a commented-out <meta>, and a charset outside a <meta>, declare nothing */
	assert_encoding("<!-- <meta charset=koi8-r> --><p>charset=koi8-r K\xc3\xb6ln</p>", EV_HTML_UTF8,
	    "UTF-8");
	assert_encoding("<p>Wi\xc5\x9bniewski, K\xc3\xb6ln, \xe5\x8c\x97\xe4\xba\xac</p>", EV_HTML_UTF8, "UTF-8");
	cr_assert_eq(ev_html_encoding(latin, strlen(latin), got, sizeof got), EV_HTML_GUESSED);
	cr_assert(strcmp(got, "ISO-8859-1") == 0 || strcmp(got, "WINDOWS-1252") == 0, "%s", got);
}

/* A byte the page's encoding has no character for is one U+FFFD, as in a
 * browser, and the text after it is read in the same encoding: libxml2 read
 * the rest of a page declared (or marked by its BOM as) UTF-8 as Latin-1
 * after such a byte ("Ã©tÃ©"), and dropped all the rest of a page in a
 * legacy encoding after a byte its converter refuses (0x81 in
 * windows-1252, 0xFF in Shift_JIS), saying "encoding error" on stderr. */
Test(extract_html, a_byte_the_encoding_lacks_is_one_replacement_character_and_the_text_goes_on)
{
	text_is("<meta charset=utf-8><p>caf\xc3\xa9</p><p>stray \xff byte</p><p>\xc3\xa9t\xc3\xa9</p>",
	    "caf\xc3\xa9\n\nstray \xEF\xBF\xBD byte\n\n\xc3\xa9t\xc3\xa9");
	text_is("\xEF\xBB\xBF<p>a \xff b</p><p>\xc3\xa9t\xc3\xa9</p>", "a \xEF\xBF\xBD b\n\n\xc3\xa9t\xc3\xa9");
	text_is("<meta charset=windows-1252><p>caf\xe9 \x81 x</p><h2>Second</h2><p>after</p>",
	    "caf\xc3\xa9 \xEF\xBF\xBD x\n\n## Second\n\nafter");
	text_is("<meta charset=shift_jis><p>\x82\xa0 ok \xff bad</p><p>after</p>",
	    "\xe3\x81\x82 ok \xEF\xBF\xBD bad\n\nafter");
}

/* A declared encoding iconv does not know is passed over, as a browser
 * passes over a label it does not know; one declaring UTF-16 means UTF-8. */
Test(extract_html, an_unknown_or_utf16_declaration_is_passed_over)
{
	assert_encoding("<meta charset=x-bogus><p>caf\xc3\xa9</p>", EV_HTML_UTF8, "UTF-8");
	assert_encoding("<meta charset=utf-16le><p>caf\xc3\xa9</p>", EV_HTML_DECLARED, "UTF-8");
	text_is("<meta charset=utf-16><p>caf\xc3\xa9</p>", "caf\xc3\xa9");
}

/* The labels of ASCII and ISO-8859-1 (-9, -11) are read as windows-1252
 * (-1254, -874), as browsers read them (the WHATWG Encoding Standard): the
 * curly quotes, dashes and euro signs most such pages hold were C1 control
 * characters, and a page "in us-ascii" lost all its text after its first
 * byte from 0x80. */
Test(extract_html, latin1_and_ascii_labels_are_read_as_windows_1252)
{
	assert_encoding("<meta charset=ISO-8859-1><p>x</p>", EV_HTML_DECLARED, "WINDOWS-1252");
	assert_encoding("<meta charset=latin5><p>x</p>", EV_HTML_DECLARED, "WINDOWS-1254");
	text_is("<meta charset=iso-8859-1><p>\x93q\x94 \x96 \x80</p>",
	    "\xe2\x80\x9cq\xe2\x80\x9d \xe2\x80\x93 \xe2\x82\xac");
	text_is("<meta charset=us-ascii><p>caf\xe9</p><p>after</p>", "caf\xc3\xa9\n\nafter");
}

Test(extract_html, binary_bytes_are_found_text_bytes_are_not)
{
	static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
	static const char text[] = "<p>tab\tform\ffeed\r\nescape \x1b$B (ISO-2022-JP)</p>";

	cr_assert_eq(ev_html_binary_at(png, sizeof png - 1), 6);
	cr_assert_eq(ev_html_binary_at(text, strlen(text)), strlen(text));
	cr_assert_eq(ev_html_binary_at("\xFF\xFE<\0p\0>\0", 8), 8, "UTF-16 holds NUL bytes");
	cr_assert_eq(ev_html_binary_at("<p>a\0b</p>", 10), 4);
}
