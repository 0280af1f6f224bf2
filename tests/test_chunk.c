/* Tests of lib/store/chunk.c: sections, packing, splitting, offsets. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk.h"

static struct ev_chunks cs;
static const char *doc;
static struct ev_buf tb;

static void
split(const char *text, size_t size, size_t overlap, int format)
{
	struct ev_chunk_opts o = { size, overlap, format };
	struct ev_err err = { 0 };

	ev_chunks_release(&cs);
	doc = text;
	cr_assert_eq(ev_chunk_split(text, strlen(text), &o, &cs, &err), 0, "%s", err.msg);
}

/* The text split_repeated() made (doc points into it). */
static struct ev_buf rb;

/* Split, as format, at size and overlap, the text of fmt printed for each
 * i from 0 to times - 1 (fmt takes i as its one %d). */
static void
split_repeated(const char *fmt, int times, size_t size, size_t overlap, int format)
{
	ev_buf_reset(&rb);
	for (int i = 0; i < times; i++)
		cr_assert_eq(ev_buf_printf(&rb, fmt, i), 0);
	split(rb.p, size, overlap, format);
}

static void check_offsets(void);

/* There are more than more_than chunks; each is at most size bytes, its text
 * starts with prefix, and check_offsets() holds. */
static void
check_split(size_t more_than, size_t size, const char *prefix)
{
	cr_assert_gt(cs.n, more_than);
	check_offsets();
	for (size_t i = 0; i < cs.n; i++) {
		cr_assert_leq(cs.v[i].end - cs.v[i].start, size, "chunk %zu is too long", i);
		cr_assert_eq(strncmp(doc + cs.v[i].start, prefix, strlen(prefix)), 0,
		    "chunk %zu does not start with '%s'", i, prefix);
	}
}

static void
fini(void)
{
	ev_chunks_release(&cs);
	ev_buf_release(&tb);
	ev_buf_release(&rb);
}

TestSuite(chunk, .fini = fini);

/* Chunk i's text. */
static const char *
text(size_t i)
{
	cr_assert_lt(i, cs.n);
	ev_buf_reset(&tb);
	cr_assert_eq(ev_chunk_text(doc, &cs.v[i], &tb), 0);
	return ev_buf_str(&tb);
}

static const char *
sid(size_t i)
{
	return cs.sections[cs.v[i].section].id;
}

/* Every chunk without carried header rows is exactly its slice of the text,
 * and no chunk starts or ends with white space. */
static void
check_offsets(void)
{
	for (size_t i = 0; i < cs.n; i++) {
		const struct ev_chunk *c = &cs.v[i];
		const char *t = text(i);

		cr_assert_lt(c->start, c->end);
		cr_assert_leq(c->end, strlen(doc));
		if (c->head_end == c->head_start)
			cr_assert_eq(strncmp(t, doc + c->start, c->end - c->start), 0);
		cr_assert(strchr(" \t\r\n", doc[c->start]) == NULL, "chunk %zu starts with a blank", i);
		cr_assert(strchr(" \t\r\n", doc[c->end - 1]) == NULL, "chunk %zu ends with a blank", i);
	}
}

Test(chunk, headings_give_section_ids_titles_and_paths)
{
	split("# Guide\n\nIntro.\n\n## Setup\n\n### Linux\n\nUse apt.\n\n## Usage\n\nRun it.\n",
	    1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.nsections, 5);
	cr_assert_str_eq(cs.sections[0].id, "_top");
	cr_assert_str_eq(cs.sections[3].id, "guide/setup/linux");
	cr_assert_str_eq(cs.sections[3].title, "Linux");
	cr_assert_str_eq(cs.sections[3].path, "Guide > Setup > Linux");
	cr_assert_eq(cs.sections[3].level, 3);
	cr_assert_str_eq(cs.sections[4].id, "guide/usage");
	cr_assert_str_eq(cs.sections[4].path, "Guide > Usage");
	cr_assert_eq(cs.n, 3);
	cr_assert_str_eq(text(0), "Intro.");
	cr_assert_str_eq(sid(0), "guide");
	cr_assert_str_eq(text(1), "Use apt.");
	cr_assert_str_eq(sid(1), "guide/setup/linux");
	cr_assert_str_eq(text(2), "Run it.");
	cr_assert_str_eq(cs.title, "Guide");
	check_offsets();
}

Test(chunk, text_before_the_first_heading_is_in_the_top_section)
{
	split("Preface line.\n\n# Title\n\nBody.\n", 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.n, 2);
	cr_assert_str_eq(sid(0), EV_CHUNK_TOP);
	cr_assert_str_eq(cs.sections[0].title, "");
	cr_assert_str_eq(cs.sections[0].path, "");
	cr_assert_str_eq(text(0), "Preface line.");
	cr_assert_eq(cs.v[1].start, 24);
}

Test(chunk, repeated_headings_get_numbered_ids_in_document_order)
{
	split("# A\n\none\n\n# A\n\ntwo\n\n# A\n\nthree\n\n## B\n\nfour\n", 1200, 0,
	    EV_CHUNK_MARKDOWN);
	cr_assert_str_eq(cs.sections[1].id, "a");
	cr_assert_str_eq(cs.sections[2].id, "a-2");
	cr_assert_str_eq(cs.sections[3].id, "a-3");
	cr_assert_str_eq(cs.sections[4].id, "a-3/b");
}

Test(chunk, editing_one_section_keeps_the_other_sections_ids)
{
	const char *before = "# Setup\n\n## Linux\n\nUse apt.\n\n## macOS\n\nUse brew.\n";
	const char *after = "# Setup\n\nNew intro paragraph.\n\n## Linux\n\nUse apt and dnf,"
	    " whichever you have.\n\n## macOS\n\nUse brew.\n";
	char *ids[4];

	split(before, 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.n, 2);
	for (size_t i = 0; i < cs.n; i++)
		ids[i] = strdup(sid(i));
	split(after, 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.n, 3);
	cr_assert_str_eq(sid(1), ids[0]);
	cr_assert_str_eq(sid(2), ids[1]);
	cr_assert_str_eq(text(2), "Use brew.");
	free(ids[0]);
	free(ids[1]);
}

Test(chunk, setext_headings_open_sections)
{
	split("Title\n=====\n\nText.\n\nPart\n----\n\nMore.\n", 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.nsections, 3);
	cr_assert_str_eq(cs.sections[1].id, "title");
	cr_assert_eq(cs.sections[1].level, 1);
	cr_assert_str_eq(cs.sections[2].path, "Title > Part");
	cr_assert_str_eq(text(1), "More.");
}

Test(chunk, small_blocks_of_a_section_share_a_chunk)
{
	split("# S\n\nFirst paragraph.\n\n- item one\n- item two\n\nLast.\n", 1200, 0,
	    EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.n, 1);
	cr_assert_str_eq(text(0), "First paragraph.\n\n- item one\n- item two\n\nLast.");
	check_offsets();
}

Test(chunk, a_long_list_is_split_between_items)
{
	split_repeated("- item number %d of the list,\n  with a continuation line\n", 40, 200, 0,
	    EV_CHUNK_MARKDOWN);
	check_split(5, 200, "-");	/* each starts at an item */
	for (size_t i = 0; i < cs.n; i++)
		cr_assert_eq(doc[cs.v[i].end - 1], 'e', "chunk %zu does not end an item", i);
}

Test(chunk, a_table_that_fits_stays_whole)
{
	split("# T\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n", 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.n, 1);
	cr_assert_str_eq(text(0), "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |");
}

Test(chunk, a_split_table_keeps_its_header_row_in_every_part)
{
	struct ev_buf b = EV_BUF_INIT;
	const char *head = "| name | value |\n|------|-------|\n";

	ev_buf_adds(&b, "# Table\n\n");
	ev_buf_adds(&b, head);
	for (int i = 0; i < 30; i++)
		ev_buf_printf(&b, "| row%02d | some value for row %02d |\n", i, i);
	split(b.p, 160, 40, EV_CHUNK_MARKDOWN);
	cr_assert_gt(cs.n, 3);
	cr_assert_eq(cs.v[0].head_start, cs.v[0].head_end);
	cr_assert_eq(strncmp(text(0), head, strlen(head)), 0);
	for (size_t i = 1; i < cs.n; i++) {
		const struct ev_chunk *c = &cs.v[i];
		const char *t = text(i);

		cr_assert_eq(strncmp(t, head, strlen(head)), 0, "part %zu lacks the header", i);
		cr_assert_eq(strncmp(t + strlen(head), doc + c->start, c->end - c->start), 0);
		cr_assert_eq(strlen(t), strlen(head) + c->end - c->start);
		cr_assert_leq(strlen(t), 160);
		cr_assert_eq(doc[c->start], '|');
		cr_assert_eq(c->start, cs.v[i - 1].end + 1, "rows lost or repeated before part %zu", i);
	}
	cr_assert_eq(cs.v[cs.n - 1].end, b.len - 1);
	check_offsets();
	ev_buf_release(&b);
}

Test(chunk, a_code_block_longer_than_the_chunk_size_stays_whole)
{
	struct ev_buf b = EV_BUF_INIT;
	size_t start, end;

	ev_buf_adds(&b, "# Code\n\nBefore the code.\n\n");
	start = b.len;
	ev_buf_adds(&b, "```c\n");
	for (int i = 0; i < 50; i++)
		ev_buf_printf(&b, "int x%d = %d;\n\n", i, i);
	ev_buf_adds(&b, "```");
	end = b.len;
	ev_buf_adds(&b, "\n\nAfter the code.\n");
	split(b.p, 100, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.n, 3);
	cr_assert_str_eq(text(0), "Before the code.");
	cr_assert_eq(cs.v[1].start, start);
	cr_assert_eq(cs.v[1].end, end);
	cr_assert_str_eq(text(2), "After the code.");
	check_offsets();
	ev_buf_release(&b);
}

Test(chunk, headings_and_tables_inside_a_code_fence_are_code_to_its_end)
{
	static const struct {
		const char *doc, *chunk;
	} cases[] = {
		{ "# Real\n\n~~~\n# not a heading\n| a | b |\n| - | - |\n~~~\n",
		    "~~~\n# not a heading\n| a | b |\n| - | - |\n~~~" },
		/* a fence never closed runs to the end */
		{ "# H\n\n```\ncode\n\n# still code\n", "```\ncode\n\n# still code" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		split(cases[i].doc, 1200, 0, EV_CHUNK_MARKDOWN);
		cr_assert_eq(cs.nsections, 2, "%s", cases[i].doc);
		cr_assert_eq(cs.n, 1, "%s", cases[i].doc);
		cr_assert_str_eq(text(0), cases[i].chunk);
	}
}

Test(chunk, plain_text_is_packed_by_paragraphs_without_markdown)
{
	split("# not a heading\n\nfirst paragraph\nsecond line\n\n\n\nsecond paragraph\n", 1200, 0,
	    EV_CHUNK_TEXT);
	cr_assert_eq(cs.nsections, 1);
	cr_assert_eq(cs.n, 1);
	cr_assert_str_eq(sid(0), "_top");
	cr_assert_null(cs.title);
	cr_assert_str_eq(text(0), "# not a heading\n\nfirst paragraph\nsecond line\n\n\n\n"
	    "second paragraph");
}

Test(chunk, plain_paragraphs_too_long_together_go_to_separate_chunks)
{
	split("alpha beta gamma delta.\n\nepsilon zeta eta theta.\n\niota kappa lambda mu.\n",
	    64, 0, EV_CHUNK_TEXT);
	cr_assert_eq(cs.n, 2);
	cr_assert_str_eq(text(0), "alpha beta gamma delta.\n\nepsilon zeta eta theta.");
	cr_assert_str_eq(text(1), "iota kappa lambda mu.");
	cr_assert_eq(cs.v[1].index, 1);
}

Test(chunk, crlf_line_ends_keep_offsets_into_the_original)
{
	split("# A\r\n\r\nfirst line\r\nsecond line\r\n\r\n## B\r\n\r\nthird\r\n", 1200, 0,
	    EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.nsections, 3);
	cr_assert_str_eq(cs.sections[1].title, "A");
	cr_assert_str_eq(cs.sections[2].id, "a/b");
	cr_assert_eq(cs.n, 2);
	cr_assert_str_eq(text(0), "first line\r\nsecond line");
	cr_assert_eq(cs.v[0].start, 7);
	cr_assert_eq(cs.v[1].start, 42);
	cr_assert_str_eq(text(1), "third");
	check_offsets();
}

Test(chunk, a_long_paragraph_is_split_between_sentences_never_in_a_word)
{
	split_repeated("Sentence number %d says something short. ", 60, 300, 0, EV_CHUNK_TEXT);
	check_split(5, 300, "Sentence");
	for (size_t i = 0; i < cs.n; i++)
		cr_assert_eq(doc[cs.v[i].end - 1], '.');
}

Test(chunk, a_sentence_longer_than_the_size_is_split_between_words)
{
	split_repeated("word%d ", 200, 100, 0, EV_CHUNK_TEXT);
	check_split(10, 100, "word");
	for (size_t i = 0; i < cs.n; i++)
		cr_assert(cs.v[i].end == strlen(doc) - 1 || doc[cs.v[i].end] == ' ');
}

Test(chunk, a_word_longer_than_the_size_stays_whole)
{
	char word[301];

	memset(word, 'x', 300);
	word[300] = '\0';
	char *t;

	cr_assert_neq(asprintf(&t, "short start %s short end", word), -1);
	split(t, 100, 0, EV_CHUNK_TEXT);
	cr_assert_eq(cs.n, 3);
	cr_assert_str_eq(text(0), "short start");
	cr_assert_str_eq(text(1), word);
	cr_assert_str_eq(text(2), "short end");
	ev_chunks_release(&cs);
	free(t);
}

Test(chunk, consecutive_chunks_overlap_by_at_most_the_overlap)
{
	size_t overlapped = 0;

	split_repeated("Fact %d is stated here. ", 80, 200, 60, EV_CHUNK_TEXT);
	cr_assert_gt(cs.n, 5);
	for (size_t i = 1; i < cs.n; i++) {
		cr_assert_lt(cs.v[i].start, cs.v[i - 1].end, "chunk %zu does not overlap", i);
		cr_assert_gt(cs.v[i].start, cs.v[i - 1].start);
		cr_assert_leq(cs.v[i - 1].end - cs.v[i].start, 60);
		cr_assert_leq(cs.v[i].end - cs.v[i].start, 200);
		cr_assert_eq(strncmp(doc + cs.v[i].start, "Fact", 4), 0, "not at a sentence start");
		overlapped++;
	}
	cr_assert_eq(cs.v[cs.n - 1].end, rb.len - 1);
	cr_assert_gt(overlapped, 0);
	check_offsets();
}

Test(chunk, no_overlap_reaches_into_another_section)
{
	split("# A\n\nOne two three four five six seven eight nine ten eleven twelve.\n\n"
	    "# B\n\nThirteen fourteen.\n", 64, 32, EV_CHUNK_MARKDOWN);
	cr_assert_str_eq(sid(cs.n - 1), "b");
	cr_assert_str_eq(text(cs.n - 1), "Thirteen fourteen.");
}

Test(chunk, empty_text_has_one_section_and_no_chunks)
{
	split("", 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.nsections, 1);
	cr_assert_eq(cs.n, 0);
	split("\n\n   \r\n\t\n", 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.n, 0);
}

Test(chunk, a_section_with_only_a_heading_has_no_chunks)
{
	split("# Parent\n## Child\n\ntext\n", 1200, 0, EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.nsections, 3);
	cr_assert_eq(cs.n, 1);
	cr_assert_str_eq(sid(0), "parent/child");
}

Test(chunk, refuses_options_out_of_range)
{
	struct ev_chunk_opts o = { 10, 0, EV_CHUNK_TEXT };
	struct ev_err err = { 0 };
	struct ev_chunks c = EV_CHUNKS_INIT;

	cr_assert_eq(ev_chunk_split("x", 1, &o, &c, &err), -1);
	cr_assert_eq(err.code, 2);
	cr_assert_str_eq(err.msg, "chunk size must be from 64 to 10000000 bytes: 10");
	o.size = 100;
	o.overlap = 51;
	cr_assert_eq(ev_chunk_split("x", 1, &o, &c, &err), -1);
	cr_assert_str_eq(err.msg, "chunk overlap must be at most half the chunk size (50): 51");
	cr_assert_eq(c.n, 0);
}

Test(chunk, slugs_are_lowercase_words_joined_by_dashes)
{
	char s[61];

	ev_chunk_slug("Setup & Linux!", 14, s);
	cr_assert_str_eq(s, "setup-linux");
	ev_chunk_slug("  --API v2 (beta)-- ", 20, s);
	cr_assert_str_eq(s, "api-v2-beta");
	ev_chunk_slug("Über Café", strlen("Über Café"), s);
	cr_assert_str_eq(s, "\xc3\x9c" "ber-caf\xc3\xa9");
	ev_chunk_slug("!!!", 3, s);
	cr_assert_str_eq(s, "section");
}

Test(chunk, slugs_are_cut_at_sixty_bytes_on_a_character_boundary)
{
	char s[61], in[200];

	memset(in, 'a', 59);
	strcpy(in + 59, "\xc3\xa9xyz");
	ev_chunk_slug(in, strlen(in), s);
	cr_assert_eq(strlen(s), 59);
	memset(in, 'b', 100);
	ev_chunk_slug(in, 100, s);
	cr_assert_eq(strlen(s), 60);
}

Test(chunk, atx_closing_hashes_and_indentation)
{
	split("   ## Title ##\n\nx\n\n    # indented four is not a heading\n", 1200, 0,
	    EV_CHUNK_MARKDOWN);
	cr_assert_eq(cs.nsections, 2);
	cr_assert_str_eq(cs.sections[1].title, "Title");
	cr_assert_eq(cs.n, 1);
	cr_assert_str_eq(text(0), "x\n\n    # indented four is not a heading");
}

/* ---- clauses ---- */

/* Chunk i's section path and clause id, as "PATH | CLAUSE". */
static const char *
clause_of(size_t i)
{
	static char s[256];
	const struct ev_section *sec = &cs.sections[cs.v[i].section];

	cr_assert_lt(i, cs.n);
	snprintf(s, sizeof s, "%s | %s", sec->path, sec->clause ? sec->clause : "-");
	return s;
}

static const char policy[] =
	"# Local Plan\n\nIntro.\n\n## Housing\n\n"
	"Policy H2.1 Affordable housing\nNew homes must include affordable units.\n\n"
	"(a) at least 30% on sites of 10 homes or more;\n(b) on site, unless justified.\n\n"
	"Policy H2.2: Housing mix\nA mix of sizes.\n\n"
	"Policy H2.3\nDensity.\n\n"
	"## Transport\n\nArticle 5 - Parking\nTwo spaces.\n\n\xc2\xa7 3 Cycles\nRacks.\n";

Test(chunk, each_numbered_clause_is_a_chunk_under_its_heading_with_its_id)
{
	static const char *const want[] = {
		"Local Plan | -",
		"Local Plan > Housing > Policy H2.1 | Policy H2.1",
		"Local Plan > Housing > Policy H2.1(a) | Policy H2.1(a)",
		"Local Plan > Housing > Policy H2.1(b) | Policy H2.1(b)",
		"Local Plan > Housing > Policy H2.2 | Policy H2.2",
		"Local Plan > Housing > Policy H2.3 | Policy H2.3",
		"Local Plan > Transport > Article 5 | Article 5",
		"Local Plan > Transport > \xc2\xa7 3 | \xc2\xa7 3",
	};

	split(policy, 1200, 200, EV_CHUNK_MARKDOWN);
	check_offsets();
	cr_assert_eq(cs.n, 8);
	for (size_t i = 0; i < cs.n; i++)
		cr_assert_str_eq(clause_of(i), want[i], "chunk %zu", i);
	cr_assert_str_eq(sid(1), "local-plan/housing/policy-h2-1");
	cr_assert_str_eq(sid(2), "local-plan/housing/policy-h2-1-a");
	cr_assert_str_eq(sid(7), "local-plan/transport/\xc2\xa7-3");
	cr_assert_str_eq(text(1), "Policy H2.1 Affordable housing\nNew homes must include affordable units.");
	cr_assert_str_eq(text(2), "(a) at least 30% on sites of 10 homes or more;");
	cr_assert_str_eq(text(6), "Article 5 - Parking\nTwo spaces.");
	cr_assert_str_eq(cs.sections[cs.v[6].section].title, "Transport",
	    "a clause keeps its heading's title");
}

Test(chunk, clause_ids_are_the_same_after_an_edit_elsewhere)
{
	static const char edited[] =
	    "# Local Plan\n\nA longer introduction, rewritten.\n\n## Housing\n\n"
	    "Policy H2.1 Affordable housing\nNew homes must include affordable units.\n\n"
	    "(a) at least 35% on sites of 10 homes or more;\n(b) on site, unless justified.\n";

	split(edited, 1200, 200, EV_CHUNK_MARKDOWN);
	cr_assert_str_eq(sid(2), "local-plan/housing/policy-h2-1-a");
	cr_assert_str_eq(clause_of(2), "Local Plan > Housing > Policy H2.1(a) | Policy H2.1(a)");
}

Test(chunk, prose_and_list_items_are_not_clauses)
{
	split("Section 5 of the Act says this.\n\n1. a list item\n2. another\n\n"
	    "1.5 million people\n\n(a)bc is not one either\n", 1200, 200, EV_CHUNK_TEXT);
	for (size_t i = 0; i < cs.n; i++)
		cr_assert_null(cs.sections[cs.v[i].section].clause, "chunk %zu: %s", i, text(i));
	split("1.2 Scope\nText.\n1.3 Terms\nMore text.\n", 1200, 200, EV_CHUNK_TEXT);
	cr_assert_eq(cs.n, 2, "a clause number starts a clause even within a paragraph of plain text");
	cr_assert_str_eq(clause_of(0), "1.2 | 1.2");
	cr_assert_str_eq(sid(0), "1-2");
	cr_assert_str_eq(clause_of(1), "1.3 | 1.3");
}

Test(chunk, the_clause_of_a_path_is_its_last_part_when_that_is_a_clause_id)
{
	static const char *const yes[] = { "A > 1.2", "1.2(a)", "H > Policy H2.1(iv)", "\xc2\xa7 3",
	    "X > Article 5", NULL };
	static const char *const no[] = { "", "Housing", "1.2 Scope", "A > 1", "(a) > B",
	    "Policy", "Section 5 of", NULL };
	size_t n;

	for (int i = 0; yes[i]; i++) {
		const char *c = ev_chunk_clause_of(yes[i], &n);

		cr_assert_not_null(c, "%s", yes[i]);
		cr_assert_eq(c + n, yes[i] + strlen(yes[i]), "%s", yes[i]);
	}
	cr_assert_str_eq(ev_chunk_clause_of("A > 1.2", &n), "1.2");
	for (int i = 0; no[i]; i++)
		cr_assert_null(ev_chunk_clause_of(no[i], &n), "%s", no[i]);
	cr_assert_null(ev_chunk_clause_of(NULL, &n));
}
