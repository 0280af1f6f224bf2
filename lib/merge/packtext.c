/* packtext.c: a pack as a readable report.  See packtext.h. */
#include "packtext.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "jsonl.h"
#include "packstate.h"
#include "utf8.h"

size_t
ev_utf8_prefix(const char *s, size_t len, size_t max)
{
	size_t i = 0, chars = 0;
	uint32_t c;

	while (i < len && chars < max) {
		i += ev_utf8_decode(s + i, len - i, &c);
		chars++;
	}
	return i;
}

/* Columns a code point takes on a terminal, without the locale (tests run
 * with LC_ALL=C): 2 for East Asian wide and full-width characters (Unicode's
 * East_Asian_Width W and F: CJK, kana, Hangul, full-width forms, emoji), 0
 * for combining marks and zero-width characters, else 1. */
int
ev_pack_char_width(unsigned c)
{
	static const unsigned wide[][2] = {
		{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x2329, 0x232a }, { 0x2e80, 0x303e },
		{ 0x3041, 0x33ff }, { 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
		{ 0xa960, 0xa97f }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe10, 0xfe19 },
		{ 0xfe30, 0xfe6f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd }, { 0x30000, 0x3fffd }
	};
	static const unsigned zero[][2] = {
		{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x0610, 0x061a },
		{ 0x064b, 0x065f }, { 0x200b, 0x200f }, { 0x202a, 0x202e }, { 0x2060, 0x2064 },
		{ 0x20d0, 0x20ff }, { 0x3099, 0x309a }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
		{ 0xfeff, 0xfeff }
	};
	size_t i;

	for (i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (c >= wide[i][0] && c <= wide[i][1])
			return 2;
	for (i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (c >= zero[i][0] && c <= zero[i][1])
			return 0;
	return 1;
}

size_t
ev_pack_text_width(const char *s, size_t len)
{
	size_t i = 0, w = 0;
	uint32_t c;

	while (i < len) {
		i += ev_utf8_decode(s + i, len - i, &c);
		w += (size_t)ev_pack_char_width(c);
	}
	return w;
}

/* Append s[0..len) to b, white space (tabs, line breaks) as one space each,
 * other control characters left out. */
static void
add_clean(struct ev_buf *b, const char *s, size_t len, int *bad)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\t' || c == '\n' || c == '\r')
			*bad |= ev_buf_addc(b, ' ');
		else if (c >= 0x20 && c != 0x7f)
			*bad |= ev_buf_addc(b, c);
	}
}

/* Append s[start..end) with its trailing spaces left out. */
static void
add_line_part(struct ev_buf *b, const char *s, size_t start, size_t end, int *bad)
{
	while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\n' ||
	    s[end - 1] == '\r'))
		end--;
	add_clean(b, s + start, end - start, bad);
}

/* Append s wrapped to width columns: the first line after what is already
 * written (col0 columns), the others after indent spaces; a line break ends
 * it.  Lines break at spaces, or between wide (CJK) characters, which need
 * none, or anywhere in a word longer than a line (an id). */
static void
add_wrapped(struct ev_buf *b, const char *s, size_t col0, size_t indent, size_t width,
    int *bad)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = s ? strlen(s) : 0, i = 0, n, start, brk, skip = 0, col = col0, w, k;
	uint32_t c;

	if (width < indent + 10)
		width = indent + 10;
	while (i < len && isspace(p[i]))
		i++;
	start = i;
	brk = start;	/* brk > start: where the line may break */
	while (i < len) {
		n = ev_utf8_decode(s + i, len - i, &c);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			brk = i;
			skip = 1;
			col++;
			i += n;
			continue;
		}
		w = c < 0x20 || c == 0x7f ? 0 : (size_t)ev_pack_char_width(c);
		if (w == 2 && i > start) {
			brk = i;
			skip = 0;
		}
		if (col + w > width && i > start) {
			if (brk > start) {
				add_line_part(b, s, start, brk, bad);
				start = brk + skip;
			} else {
				add_line_part(b, s, start, i, bad);
				start = i;
			}
			while (start < len && isspace(p[start]))
				start++;
			*bad |= ev_buf_addc(b, '\n');
			for (k = 0; k < indent; k++)
				*bad |= ev_buf_addc(b, ' ');
			col = indent;
			i = brk = start;	/* measured again from the new line's start */
			continue;
		}
		col += w;
		i += n;
	}
	add_line_part(b, s, start, len, bad);
	*bad |= ev_buf_addc(b, '\n');
}

/* The snippet to show: all of it when it fits in `lines` lines of `avail`
 * columns; else a window of that many columns that starts a little before
 * the first matched word (marked «word» or [word] by the text lane), cut at
 * word boundaries, with an ellipsis where text was left out. */
static void
snippet_window(const char *s, size_t avail, size_t lines, struct ev_buf *out, int *bad)
{
	/* (wrapping at spaces leaves the ends of lines unused: a fifth is kept
	 * for that) */
	size_t len = strlen(s), budget = avail * lines * 4 / 5, total = ev_pack_text_width(s, len);
	const char *m1 = strstr(s, "\xc2\xab"), *m2 = strchr(s, '[');
	const char *mark = m1 && (!m2 || m1 < m2) ? m1 : m2;
	size_t from = 0, to, lead, n, w = 0, i;

	if (total <= budget) {
		*bad |= ev_buf_adds(out, s);
		return;
	}
	budget -= 2;	/* the ellipses */
	if (mark != NULL) {
		/* start about a fifth of the window before the mark, at a space */
		lead = budget / 5;
		from = (size_t)(mark - s);
		for (i = from; i > 0 && w < lead; ) {
			i--;
			while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
				i--;
			w += ev_pack_text_width(s + i, ev_utf8_prefix(s + i, len - i, 1));
		}
		from = i;
		if (from > 0) {
			const char *sp = memchr(s + from, ' ', (size_t)(mark - s) - from);
			if (sp != NULL)
				from = (size_t)(sp - s) + 1;
		}
	}
	/* as many characters as fit, then back to a space */
	for (to = from, w = 0; to < len; to += n) {
		n = ev_utf8_prefix(s + to, len - to, 1);
		if (w + ev_pack_text_width(s + to, n) > budget)
			break;
		w += ev_pack_text_width(s + to, n);
	}
	if (to < len) {
		for (i = to; i > from && s[i] != ' '; i--)
			;
		if (i > from + (to - from) / 2)
			to = i;
	}
	if (from > 0)
		*bad |= ev_buf_adds(out, "\xe2\x80\xa6");
	*bad |= ev_buf_add(out, s + from, to - from);
	if (to < len)
		*bad |= ev_buf_adds(out, "\xe2\x80\xa6");
}

#define SNIPPET_LINES 4		/* lines of snippet per evidence in the report */

/* "query ID: TEXT" wrapped into b (line is scratch); *bad set on failure. */
static void
add_query_line(struct ev_buf *b, struct ev_buf *line, const json_t *id, const char *text,
	size_t width, int *bad)
{
	struct ev_buf qid = EV_BUF_INIT;
	int r = ev_json_id_buf(id, &qid);

	*bad |= r == -2;
	ev_buf_reset(line);
	*bad |= ev_buf_printf(line, "query %s: %s", r == 0 ? ev_buf_str(&qid) : "?",
	    text ? text : "");
	add_wrapped(b, ev_buf_str(line), 0, 4, width, bad);
	ev_buf_release(&qid);
}

int
ev_pack_render_text(const json_t *pack, size_t width, struct ev_buf *b)
{
	json_t *evs = json_object_get(pack, "evidences"), *e, *sig, *prov, *v, *docs, *stats;
	const char *q = json_string_value(json_object_get(pack, "query")), *fm, *doc, *title, *sec;
	struct ev_buf line = EV_BUF_INIT;
	char num[64], lanes[64];
	size_t i, indent, k;
	int bad = 0;

	if ((docs = json_object()) == NULL)
		return -1;
	json_array_foreach(evs, i, e) {
		prov = json_object_get(e, "provenance");
		if (q == NULL)
			q = json_string_value(json_object_get(prov, "query_text"));
	}
	fm = json_string_value(json_object_get(json_object_get(json_object_get(pack, "explain"),
	    "fusion"), "method"));
	stats = json_object_get(pack, "stats");
	/* the query (each query of a request of several), then what was done */
	if (json_array_size(json_object_get(pack, "queries")) > 1)
		json_array_foreach(json_object_get(pack, "queries"), i, v)
			add_query_line(b, &line, json_object_get(v, "query_id"),
			    json_string_value(json_object_get(v, "query")), width, &bad);
	else
		add_query_line(b, &line, json_object_get(pack, "query_id"), q, width, &bad);
	ev_buf_reset(&line);
	bad |= ev_buf_printf(&line, "%lld of %lld candidates, fusion %s, request %s",
	    (long long)json_integer_value(json_object_get(stats, "returned")),
	    (long long)json_integer_value(json_object_get(stats, "candidates")),
	    fm ? fm : "none", json_string_value(json_object_get(pack, "request_id")));
	add_wrapped(b, ev_buf_str(&line), 0, 4, width, &bad);
	json_array_foreach(json_object_get(pack, "warnings"), i, v) {
		bad |= ev_buf_adds(b, "warning: ");
		add_wrapped(b, json_string_value(v), 9, 4, width, &bad);
	}
	json_array_foreach(evs, i, e) {
		sig = json_object_get(e, "signals");
		prov = json_object_get(e, "provenance");
		doc = json_string_value(json_object_get(e, "document_id"));
		title = json_string_value(json_object_get(e, "title"));
		sec = json_string_value(json_object_get(json_object_get(e, "metadata"), "section_title"));
		snprintf(num, sizeof num, "%2zu. ", i + 1);
		indent = strlen(num);
		bad |= ev_buf_addc(b, '\n');
		/* the document's title the first time it comes, then its section */
		ev_buf_reset(&line);
		v = doc ? json_object_get(docs, doc) : NULL;
		if (v != NULL)
			bad |= ev_buf_printf(&line, "(same document as %lld)", (long long)json_integer_value(v));
		else
			bad |= ev_buf_adds(&line, title ? title : doc ? doc : "(untitled)");
		if (sec != NULL && sec[0] != '\0' && (title == NULL || strcmp(sec, title) != 0))
			bad |= ev_buf_printf(&line, " > %s", sec);
		/* the page of a paged document's evidence: "p. 3", "p. 3-4" */
		v = json_object_get(json_object_get(e, "metadata"), "page");
		if (json_is_integer(v))
			bad |= ev_buf_printf(&line, ", p. %lld", (long long)json_integer_value(v));
		v = json_object_get(json_object_get(e, "metadata"), "page_end");
		if (json_is_integer(v))
			bad |= ev_buf_printf(&line, "-%lld", (long long)json_integer_value(v));
		v = doc ? json_object_get(docs, doc) : NULL;
		if (doc != NULL && v == NULL &&
		    json_object_set_new(docs, doc, json_integer((json_int_t)i + 1)) == -1)
			bad = 1;
		bad |= ev_buf_adds(b, num);
		add_wrapped(b, ev_buf_str(&line), indent, indent, width, &bad);
		/* its id, in full */
		for (k = 0; k < indent; k++)
			bad |= ev_buf_addc(b, ' ');
		add_wrapped(b, json_string_value(json_object_get(e, "id")), indent, indent, width, &bad);
		/* the lanes and the scores */
		ev_pack_lanes_text((json_object_get(sig, "vector_score") ||
		    json_object_get(sig, "vector_feedback_score") ? LANE_VECTOR : 0) |
		    (json_object_get(sig, "fts_score") ? LANE_TEXT : 0), lanes, sizeof lanes);
		ev_buf_reset(&line);
		bad |= ev_buf_adds(&line, lanes[0] ? lanes :
		    json_string_value(json_object_get(prov, "mode")));
		{
			/* the fused score of whatever method ran, then each lane's */
			static const char *const keys[] = { "fused_score", "fts_score", "vector_score",
				"vector_feedback_score" };
			static const char *const names[] = { "score", "fts", "vector", "feedback" };
			const char *own;
			size_t had = line.len;
			int j;
			for (j = 0; j < 4; j++) {
				v = json_object_get(sig, keys[j]);
				if (j == 0 && v == NULL)
					v = json_object_get(sig, "rrf_score");
				if (json_is_number(v))
					bad |= ev_buf_printf(&line, "  %s %.4g", names[j], json_number_value(v));
			}
			/* a lane of no score above (structured, an expansion, the
			 * caller's own): its own, "structured 4" */
			if (line.len == had && (own = ev_pack_ranking_score(sig)) != NULL)
				bad |= ev_buf_printf(&line, "  %.*s %.4g", (int)(strlen(own) - 6), own,
				    json_number_value(json_object_get(sig, own)));
		}
		for (k = 0; k < indent; k++)
			bad |= ev_buf_addc(b, ' ');
		add_wrapped(b, ev_buf_str(&line), indent, indent, width, &bad);
		/* what the lanes line does not say: the badges of expansion and
		 * structured lanes, countervailing, the group */
		ev_buf_reset(&line);
		{
			json_t *bg;
			size_t j;
			json_array_foreach(json_object_get(e, "badges"), j, bg) {
				const char *kind = json_string_value(json_object_get(bg, "badge"));
				if (kind == NULL || strcmp(kind, "exact_match") == 0 ||
				    strcmp(kind, "semantic_match") == 0 ||
				    strcmp(kind, "feedback_match") == 0)
					continue;
				bad |= ev_buf_printf(&line, "%s%s", line.len ? "; " : "",
				    json_string_value(json_object_get(bg, "label")));
			}
			if ((v = json_object_get(e, "group")) != NULL)
				bad |= ev_buf_printf(&line, "%sgroup %s", line.len ? "; " : "",
				    json_string_value(v));
		}
		if (line.len > 0) {
			for (k = 0; k < indent; k++)
				bad |= ev_buf_addc(b, ' ');
			add_wrapped(b, ev_buf_str(&line), indent, indent + 2, width, &bad);
		}
		/* the snippet, around its first matched word */
		ev_buf_reset(&line);
		snippet_window(json_string_value(json_object_get(e, "snippet")),
		    width > indent + 10 ? width - indent : 10, SNIPPET_LINES, &line, &bad);
		if (line.len > 0) {
			for (k = 0; k < indent; k++)
				bad |= ev_buf_addc(b, ' ');
			add_wrapped(b, ev_buf_str(&line), indent, indent, width, &bad);
		}
	}
	if (json_array_size(evs) == 0)
		bad |= ev_buf_adds(b, "\nno evidence\n");
	bad |= ev_buf_addc(b, '\n');
	ev_buf_release(&line);
	json_decref(docs);
	return bad ? -1 : 0;
}
