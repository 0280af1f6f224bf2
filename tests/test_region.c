/* Tests of lib/store/region.c: reading and checking pages and lines, their
 * packed form, where a chunk stands, and the boxes of matched words. */
#include <criterion/criterion.h>
#include <string.h>

#include "region.h"
#include "test_util.h"

/* metadata of a 2-page text of 100 bytes: page 1 [0,40), page 2 [42,100),
 * lines [0,10) [11,40) on page 1, [42,60) [61,100) on page 2 */
static const char meta2[] =
	"{\"pages\":[{\"page\":1,\"offset_start\":0,\"offset_end\":40,\"width\":612,\"height\":792},"
	"{\"page\":2,\"offset_start\":42,\"offset_end\":100}],"
	"\"lines\":[{\"page\":1,\"offset_start\":0,\"offset_end\":10,\"bbox\":[72,65.64,314.26,84.14]},"
	"{\"page\":1,\"offset_start\":11,\"offset_end\":40,\"bbox\":[72,90,300,100.5]},"
	"{\"page\":2,\"offset_start\":42,\"offset_end\":60,\"bbox\":[72,50,200,60]},"
	"{\"page\":2,\"offset_start\":61,\"offset_end\":100,\"bbox\":[330,50,400.25,60]}]}";

static void
read_ok(const char *text, size_t text_len, struct ev_regions *r)
{
	struct ev_err err = { 0 };
	json_t *m = json_loads(text, 0, NULL);

	cr_assert_not_null(m);
	cr_assert_eq(ev_regions_read(m, text_len, r, "t:1", &err), 0, "%s", err.msg);
	json_decref(m);
}

static void
read_bad(const char *text, const char *want)
{
	struct ev_regions r = EV_REGIONS_INIT;
	struct ev_err err = { 0 };
	json_t *m = json_loads(text, 0, NULL);

	cr_assert_not_null(m, "%s", text);
	cr_assert_eq(ev_regions_read(m, 100, &r, "t:1", &err), -1, "%s", text);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, want);
	cr_assert_eq(r.nlines + r.npages, 0);
	json_decref(m);
}

Test(region, reads_pages_and_lines_and_packs_them_unchanged)
{
	struct ev_regions r = EV_REGIONS_INIT, back = EV_REGIONS_INIT;
	struct ev_buf b = EV_BUF_INIT;

	read_ok(meta2, 100, &r);
	cr_assert_eq(r.npages, 2);
	cr_assert_eq(r.nlines, 4);
	cr_assert_eq(r.lines[3].page, 2);
	cr_assert_float_eq(r.lines[3].bbox[2], 400.25, 1e-9);
	cr_assert_eq(ev_regions_encode(&r, &b), 0);
	cr_assert_float_eq(r.pages[0].width, 612, 1e-9);
	cr_assert_float_eq(r.pages[0].height, 792, 1e-9);
	cr_assert_float_eq(r.pages[1].width, 0, 1e-9);
	cr_assert_str_eq(ev_buf_str(&b), "P 1 0 40 612 792\nP 2 42 100 0 0\n"
	    "L 1 0 10 72 65.64 314.26 84.14\n"
	    "L 1 11 40 72 90 300 100.5\nL 2 42 60 72 50 200 60\nL 2 61 100 330 50 400.25 60\n");
	cr_assert_eq(ev_regions_decode(b.p, b.len, &back), 0);
	cr_assert_eq(back.npages, 2);
	cr_assert_eq(back.nlines, 4);
	cr_assert_eq(memcmp(back.pages, r.pages, 2 * sizeof *r.pages), 0);
	for (size_t i = 0; i < 4; i++) {
		cr_assert_eq(back.lines[i].start, r.lines[i].start);
		cr_assert_eq(back.lines[i].end, r.lines[i].end);
		cr_assert_eq(back.lines[i].page, r.lines[i].page);
		for (int k = 0; k < 4; k++)
			cr_assert_float_eq(back.lines[i].bbox[k], r.lines[i].bbox[k], 1e-9);
	}
	cr_assert_eq(ev_regions_decode("P 1 x 3 0 0\n", 12, &back), -1);
	cr_assert_eq(ev_regions_decode("P 1 0 3\n", 8, &back), -1);
	cr_assert_eq(ev_regions_decode("L 1 0 10 72 65\n", 15, &back), -1);
	cr_assert_eq(back.nlines + back.npages, 0);
	ev_buf_release(&b);
	ev_regions_release(&r);
	ev_regions_release(&back);
}

Test(region, a_span_starts_on_its_first_page_and_ends_on_its_last)
{
	struct ev_regions r = EV_REGIONS_INIT;
	struct ev_buf b = EV_BUF_INIT;
	long page = 0, page_end = 0;

	read_ok(meta2, 100, &r);
	cr_assert_eq(ev_regions_span(&r, 11, 40, &page, &page_end, &b), 1);
	cr_assert_eq(page, 1);
	cr_assert_eq(page_end, 1);
	/* page 1's size follows its lines' boxes; page 2 has none */
	cr_assert_str_eq(ev_buf_str(&b), "[[11,40,1,72,90,300,100.5,612,792]]");
	ev_buf_reset(&b);
	/* across the break, and starting in the blank between the pages */
	cr_assert_eq(ev_regions_span(&r, 20, 50, &page, &page_end, &b), 1);
	cr_assert_eq(page, 1);
	cr_assert_eq(page_end, 2);
	cr_assert_str_eq(ev_buf_str(&b),
	    "[[11,40,1,72,90,300,100.5,612,792],[42,60,2,72,50,200,60]]");
	ev_buf_reset(&b);
	cr_assert_eq(ev_regions_span(&r, 40, 60, &page, &page_end, &b), 1);
	cr_assert_eq(page, 2);
	cr_assert_eq(page_end, 2);
	cr_assert_str_eq(ev_buf_str(&b), "[[42,60,2,72,50,200,60]]");
	ev_buf_reset(&b);
	/* ending past the last page's text (or in the blank between pages) */
	r.pages[1].end = 90;
	cr_assert_eq(ev_regions_span(&r, 30, 95, &page, &page_end, &b), 1);
	cr_assert_eq(page, 1);
	cr_assert_eq(page_end, 2);
	ev_buf_reset(&b);
	cr_assert_eq(ev_regions_span(&r, 5, 41, &page, &page_end, &b), 1);
	cr_assert_eq(page_end, 1);
	ev_buf_reset(&b);
	cr_assert_eq(ev_regions_span(&r, 100, 100, &page, &page_end, &b), 0);
	cr_assert_eq(b.len, 0);
	ev_buf_release(&b);
	ev_regions_release(&r);
}

Test(region, boxes_are_those_of_the_lines_holding_the_spans)
{
	static const char lines[] = "[[11,40,1,72,90,300,100.5],[42,60,2,72,50,200,60],"
	    "[61,100,2,330,50,400.25,60]]";
	size_t spans[] = { 45, 50, 55, 65, 70, 72 };
	size_t damaged = 7;
	json_t *got = ev_region_boxes(lines, strlen(lines), spans, 3, &damaged);
	char *s;

	cr_assert_not_null(got);
	cr_assert_eq(damaged, 0);
	s = json_dumps(got, JSON_COMPACT);
	cr_assert_str_eq(s, "[{\"page\":2,\"bbox\":[72,50,200,60]},"
	    "{\"page\":2,\"bbox\":[330,50,400.25,60]}]");
	free(s);
	json_decref(got);
	got = ev_region_boxes(lines, strlen(lines), spans, 0, &damaged);
	cr_assert_eq(json_array_size(got), 0);
	json_decref(got);
	/* lines that are not JSON: none, counted as damage (NULL is out of memory) */
	got = ev_region_boxes("[[1,2", 5, spans, 1, &damaged);
	cr_assert_eq(json_array_size(got), 0);
	cr_assert_eq(damaged, 1);
	json_decref(got);
}

/* A stored line not as ev-ingest writes it (a damaged store) is left out
 * of the boxes and counted: a page that is no whole number from 1, offsets
 * out of order, fewer than seven numbers. */
Test(region, damaged_lines_are_left_out_and_counted)
{
	static const char lines[] = "[[0,10,1.5,1,2,3,4],[0,10,0,1,2,3,4],[10,0,1,1,2,3,4],"
	    "[0,10,1,1,2],[0,10,2,72,50,200,60]]";
	size_t spans[] = { 0, 10 }, damaged = 0;
	json_t *got = ev_region_boxes(lines, strlen(lines), spans, 1, &damaged);
	char *s;

	cr_assert_not_null(got);
	cr_assert_eq(damaged, 4);
	s = json_dumps(got, JSON_COMPACT);
	cr_assert_str_eq(s, "[{\"page\":2,\"bbox\":[72,50,200,60]}]");
	free(s);
	json_decref(got);
}

Test(region, a_box_on_a_page_of_known_size_is_also_given_in_fractions_of_it)
{
	static const char lines[] = "[[11,40,1,72,90,306,100.5,612,792],[42,60,2,72,50,200,60]]";
	size_t spans[] = { 12, 50 };
	size_t damaged;
	json_t *got = ev_region_boxes(lines, strlen(lines), spans, 1, &damaged);
	char *s;

	cr_assert_not_null(got);
	s = json_dumps(got, JSON_COMPACT | JSON_REAL_PRECISION(6));
	cr_assert_str_eq(s, "[{\"page\":1,\"bbox\":[72,90,306,100.5],"
	    "\"bbox_norm\":[0.1176,0.1136,0.5,0.1269]},{\"page\":2,\"bbox\":[72,50,200,60]}]");
	free(s);
	json_decref(got);
}

Test(region, a_page_size_must_be_positive)
{
	read_bad("{\"pages\":[{\"page\":1,\"offset_start\":0,\"offset_end\":1,\"width\":0,"
	    "\"height\":792}]}", "metadata.pages[0]: 'width' and 'height' must be positive numbers "
	    "of points (as ev-extract writes it)");
	read_bad("{\"pages\":[{\"page\":1,\"offset_start\":0,\"offset_end\":1,\"width\":612,"
	    "\"height\":\"tall\"}]}", "metadata.pages[0]: 'width' and 'height' must be positive "
	    "numbers of points (as ev-extract writes it)");
}

Test(region, bad_pages_and_lines_are_named)
{
	read_bad("{\"lines\":{}}", "metadata.lines must be an array of lines (as ev-extract writes it)");
	read_bad("{\"pages\":[{\"page\":0,\"offset_start\":0,\"offset_end\":1}]}",
	    "metadata.pages[0]: 'page' must be a page number from 1 (as ev-extract writes it)");
	read_bad("{\"lines\":[{\"page\":1,\"offset_start\":0,\"offset_end\":101,\"bbox\":[0,0,1,1]}]}",
	    "metadata.lines[0]: 'offset_start' and 'offset_end' must be byte offsets of the text,"
	    " start <= end (as ev-extract writes it)");
	read_bad("{\"lines\":[{\"page\":1,\"offset_start\":5,\"offset_end\":9,\"bbox\":[0,0,1,1]},"
	    "{\"page\":1,\"offset_start\":2,\"offset_end\":3,\"bbox\":[0,0,1,1]}]}",
	    "metadata.lines[1]: entries must be in text order (as ev-extract writes it)");
	read_bad("{\"lines\":[{\"page\":1,\"offset_start\":0,\"offset_end\":1,\"bbox\":[0,0,1]}]}",
	    "metadata.lines[0]: 'bbox' must be [x0, y0, x1, y1] (as ev-extract writes it)");
	read_bad("{\"lines\":[{\"page\":1,\"offset_start\":0,\"offset_end\":1,\"bbox\":[0,0,1,\"x\"]}]}",
	    "metadata.lines[0]: 'bbox' must be four finite numbers (as ev-extract writes it)");
	read_bad("{\"lines\":[{\"page\":1,\"offset_start\":0,\"offset_end\":1,\"bbox\":[50,0,10,1]}]}",
	    "metadata.lines[0]: 'bbox' must be [x0, y0, x1, y1] with x0 <= x1 and y0 <= y1 "
	    "(as ev-extract writes it)");
	read_bad("{\"lines\":[{\"page\":1,\"offset_start\":0,\"offset_end\":1,\"bbox\":[0,9,1,8.5]}]}",
	    "metadata.lines[0]: 'bbox' must be [x0, y0, x1, y1] with x0 <= x1 and y0 <= y1 "
	    "(as ev-extract writes it)");
	read_bad("{\"pages\":[{\"page\":2,\"offset_start\":0,\"offset_end\":5},"
	    "{\"page\":1,\"offset_start\":6,\"offset_end\":9}]}", "metadata.pages[1]: pages must be "
	    "numbered upward in text order, each page's text after the one before (as ev-extract "
	    "writes it)");
	read_bad("{\"pages\":[{\"page\":1,\"offset_start\":0,\"offset_end\":5},"
	    "{\"page\":2,\"offset_start\":4,\"offset_end\":9}]}", "metadata.pages[1]: pages must be "
	    "numbered upward in text order, each page's text after the one before (as ev-extract "
	    "writes it)");
	read_bad("{\"lines\":[{\"page\":2,\"offset_start\":0,\"offset_end\":5,\"bbox\":[0,0,1,1]},"
	    "{\"page\":1,\"offset_start\":6,\"offset_end\":9,\"bbox\":[0,0,1,1]}]}",
	    "metadata.lines[1]: lines must follow the pages in text order (as ev-extract writes it)");
}

Test(region, stored_by_chunk_and_gone_with_it)
{
	char dir[] = "/tmp/evkit-region-XXXXXX", db[300];
	struct ev_err err = { 0 };
	struct ev_store *st;
	struct ev_buf b = EV_BUF_INIT;
	long page = 0, page_end = 0;

	tu_mkdir(dir, db, sizeof db);
	st = ev_store_open(db, EV_STORE_CREATE, &err);
	cr_assert_not_null(st, "%s", err.msg);
	cr_assert_eq(ev_region_table(st, &err), 0);
	cr_assert_eq(ev_store_exec(st, "INSERT INTO chunks(rowid, id, doc_id, section_id, chunk_index,"
	    " text, content_hash) VALUES(7, 'd:_top:0', 'd', '_top', 0, 'x', 'h')", &err), 0);
	cr_assert_eq(ev_region_create(st, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_region_table(st, &err), 1);
	cr_assert_eq(ev_region_put(st, "d:_top:0", 3, 4, "[[0,1,3,1,2,3,4]]", &err), 0, "%s", err.msg);
	cr_assert_eq(ev_region_get(st, 7, &page, &page_end, &b, &err), 1);
	cr_assert_eq(page, 3);
	cr_assert_eq(page_end, 4);
	cr_assert_str_eq(ev_buf_str(&b), "[[0,1,3,1,2,3,4]]");
	cr_assert_eq(ev_region_forget(st, "d", &err), 0);
	cr_assert_eq(ev_region_get(st, 7, &page, &page_end, &b, &err), 0);
	cr_assert_eq(ev_region_put(st, "d:_top:0", 3, 3, "[]", &err), 0);
	cr_assert_eq(ev_store_exec(st, "DELETE FROM chunks WHERE rowid = 7", &err), 0);
	cr_assert_eq(ev_region_get(st, 7, &page, &page_end, &b, &err), 0);
	ev_buf_release(&b);
	ev_store_close(st);
	tu_rmdir(dir);
}
