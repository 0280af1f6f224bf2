/* texthit.c: a pass's row as a hit record.  See textstate.h. */
#include "textstate.h"

#include <stdlib.h>
#include <string.h>

#include "hitfields.h"
#include "jsonl.h"
#include "region.h"
#include "snippet.h"
#include "token.h"

/* Column i of the current row as text: *t (never NULL: "" for SQL NULL) and
 * *len.  sqlite3_column_text() also returns NULL when it runs out of memory
 * converting a value; that is an error, not an empty text.  Returns 0 or -1
 * (out of memory). */
int
ev_texthit_column_text(sqlite3_stmt *s, int i, const char **t, size_t *len)
{
	int type = sqlite3_column_type(s, i);

	*t = (const char *)sqlite3_column_text(s, i);
	*len = (size_t)sqlite3_column_bytes(s, i);
	if (*t == NULL) {
		if (type != SQLITE_NULL)
			return -1;
		*t = "";
		*len = 0;
	}
	return 0;
}

/* Column i of the current row as a JSON value (null for SQL NULL), or NULL
 * when out of memory. */
static json_t *
column_json(sqlite3_stmt *s, int i)
{
	const char *t;
	size_t len;

	switch (sqlite3_column_type(s, i)) {
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(s, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(s, i));
	case SQLITE_NULL:
		return json_null();
	default:
		if (ev_texthit_column_text(s, i, &t, &len) == -1)
			return NULL;
		return json_stringn(t, len);
	}
}

/* The current row's chunk of a paged document (region.h): its page and
 * page_end into the hit's metadata *meta (made when NULL), in place of the
 * document's own (whose page_end goes when the chunk has none), and in *regions
 * the page and box of each line holding a matched word (NULL when none).
 * Nothing for other chunks.  Returns 0, or -1 with *err set. */
static int
chunk_region(struct ev_textsearch *ts, sqlite3_stmt *s, size_t textlen, json_t **meta,
    json_t **regions, struct ev_err *err)
{
	long page, page_end;
	size_t start = (size_t)sqlite3_column_int64(s, 10), end = (size_t)sqlite3_column_int64(s, 11);
	size_t prefix, ms, me, damaged;
	int got, pos = 0;

	*regions = NULL;
	if (ts->regions == -1 && (ts->regions = ev_region_table(ts->st, err)) == -1)
		return -1;
	ev_buf_reset(&ts->lines);
	if (ts->regions == 0 ||
	    (got = ev_region_get(ts->st, sqlite3_column_int64(s, 0), &page, &page_end, &ts->lines,
	    err)) == 0)
		return 0;
	if (got == -1)
		return -1;
	if ((*meta == NULL && (*meta = json_object()) == NULL) ||
	    json_object_set_new(*meta, "page", json_integer(page)) == -1 ||
	    (page_end > page && json_object_set_new(*meta, "page_end", json_integer(page_end)) == -1))
		return ev_err_nomem(err);
	if (page_end <= page)
		json_object_del(*meta, "page_end");	/* the document's, not the chunk's */
	/* the chunk's text is the document's [start, end), after the header
	 * rows of a split table (which stand elsewhere) */
	prefix = end >= start && textlen > end - start ? textlen - (end - start) : 0;
	ts->nspans = 0;
	while (ev_snippet_next_mark(ts->sn, &pos, &ms, &me) == 1) {
		if (ms < prefix)
			continue;
		if (ev_grow(&ts->spans, &ts->capspans, 2 * ts->nspans + 2, sizeof *ts->spans, 32) == -1)
			return ev_err_nomem(err);
		ts->spans[2 * ts->nspans] = start + ms - prefix;
		ts->spans[2 * ts->nspans + 1] = start + me - prefix;
		ts->nspans++;
	}
	if (ts->nspans == 0)
		return 0;
	if ((*regions = ev_region_boxes(ts->lines.p, ts->lines.len, ts->spans, ts->nspans,
	    &damaged)) == NULL)
		return ev_err_nomem(err);
	if (damaged > 0) {	/* (as a text that is not UTF-8: ev_store_row_utf8()) */
		json_decref(*regions);
		*regions = NULL;
		return ev_err_set(err, EV_EXIT_RUNTIME, ev_store_path(ts->st), "chunk rowid %lld:"
		    " %zu of its stored lines are not as ev-ingest writes them: the store is damaged"
		    " (ingest its document again)", (long long)sqlite3_column_int64(s, 0), damaged);
	}
	if (json_array_size(*regions) == 0) {
		json_decref(*regions);
		*regions = NULL;
	}
	return 0;
}

/* How many times the query's words occurred in the fields scanned since
 * the last ev_snippet_make(). */
static long
words_found(const struct ev_textsearch *ts)
{
	long n = 0;

	for (int i = 0; i < ts->nwords; i++)
		n += ev_snippet_found(ts->sn, i);
	return n;
}

/* The chunk's fields that hold words of the query, from the counts after
 * its text, its title and its section title were scanned in turn, as
 * ["text", "title", "section_title"] or fewer; NULL when out of memory. */
static json_t *
matched_fields(long in_text, long in_title, long in_stitle)
{
	json_t *a = json_array();
	int bad = a == NULL;

	if (!bad && in_text > 0)
		bad = json_array_append_new(a, json_string("text")) == -1;
	if (!bad && in_title > in_text)
		bad = json_array_append_new(a, json_string("title")) == -1;
	if (!bad && in_stitle > in_title)
		bad = json_array_append_new(a, json_string("section_title")) == -1;
	if (bad) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* The text columns of SELECT_HITS (textsearch.c) a hit carries, the
 * chunk's text (9, whose snippet it carries) last. */
static const int text_cols[] = { 2, 3, 4, 6, 7, 8, 12, 13, 16, 17, 18, 9 };
static const char *const text_col_names[] = { "id", "doc_id", "section_id", "title",
	"section_title", "section_path", "content_hash", "source_uri", "language",
	"document's source_type", "document's published_date", "text" };
#define N_TEXT_COLS ((int)(sizeof text_cols / sizeof *text_cols))

/* Out of memory, or the store damaged: a text column of the current row
 * not UTF-8 (the chunk's text only when with_text: read whole only on this
 * path).  Returns -1 with *err set. */
static int
nomem_or_damaged(struct ev_textsearch *ts, sqlite3_stmt *s, int with_text, struct ev_err *err)
{
	if (ev_store_row_utf8(ts->st, s, text_cols, text_col_names, N_TEXT_COLS - !with_text,
	    "chunk rowid", (long long)sqlite3_column_int64(s, 0), err) == -1)
		return -1;
	return ev_err_nomem(err);
}

/* The hit record of the current row. */
json_t *
ev_texthit_make_hit(struct ev_textsearch *ts, sqlite3_stmt *s, json_t *q, long long rank, double best,
    struct ev_err *err)
{
	double score = sqlite3_column_double(s, 1);
	json_t *hit, *signals, *ev, *matched = NULL, *fuzzy = NULL, *fed = NULL, *meta = NULL;
	json_t *regions = NULL, *fields = NULL;
	const char *key, *text, *title, *stitle;
	size_t textlen, titlelen, stitlelen;
	long in_text, in_title, in_stitle;
	json_t *v;
	int r;

	ev_buf_reset(&ts->snip);
	if (ev_texthit_column_text(s, 9, &text, &textlen) == -1 || ev_texthit_column_text(s, 6, &title, &titlelen) == -1 ||
	    ev_texthit_column_text(s, 7, &stitle, &stitlelen) == -1)
		goto nomem;
	/* the chunk's words as they were indexed: stemmed for its language;
	 * each field's words counted after the fields before it */
	ev_tok_set_lang(ts->tok, (const char *)sqlite3_column_text(s, 16));
	r = ev_snippet_make(ts->sn, text, textlen, &ts->snip, err) == -1;
	in_text = r ? 0 : words_found(ts);
	r = r || ev_snippet_scan(ts->sn, title, titlelen, err) == -1;
	in_title = r ? 0 : words_found(ts);
	r = r || ev_snippet_scan(ts->sn, stitle, stitlelen, err) == -1;
	in_stitle = r ? 0 : words_found(ts);
	ev_tok_set_lang(ts->tok, NULL);
	if (r)
		return NULL;
	if (in_stitle > in_text && (fields = matched_fields(in_text, in_title, in_stitle)) == NULL)
		goto nomem;
	if ((matched = json_array()) == NULL)
		goto nomem;
	for (int i = 0; i < ts->nwords; i++) {
		const struct word *w = &ts->words[i];

		if (!ev_snippet_found(ts->sn, i))
			continue;
		if (json_array_append_new(matched, json_string(w->surface)) == -1)
			goto nomem;
		for (int j = 0; j < w->nexp; j++) {
			if (!ev_snippet_term_found(ts->sn, w->expidx[j]))
				continue;
			if (fuzzy == NULL && (fuzzy = json_array()) == NULL)
				goto nomem;
			if (json_array_append_new(fuzzy, json_pack("{s:s,s:s,s:s,s:i,s:s}", "term",
			    w->surface, "expansion", w->exp[j], "word", w->expword[j], "distance",
			    w->dist[j], "by", w->by[j] ? "word" : "stem")) == -1)
				goto nomem;
		}
	}
	for (int j = 0; j < ts->nfeedback; j++) {
		if (!ev_snippet_term_found(ts->sn, ts->fb[j].snipidx))
			continue;
		if ((fed == NULL && (fed = json_array()) == NULL) ||
		    json_array_append_new(fed, json_string(ts->fb[j].surface)) == -1)
			goto nomem;
	}
	if (sqlite3_column_type(s, 14) == SQLITE_TEXT) {
		/* ev_json_parse_line() tells memory running out (code 1) from
		 * metadata that is not JSON (left out, as before). */
		struct ev_err pe = { 0 };
		const char *mt;
		size_t mlen;

		if (ev_texthit_column_text(s, 14, &mt, &mlen) == -1)
			goto nomem;
		meta = ev_json_parse_line(mt, mlen, NULL, &pe);
		if (meta == NULL && pe.code == EV_EXIT_RUNTIME)
			goto nomem;
		if (meta != NULL && (!json_is_object(meta) || json_object_size(meta) == 0)) {
			json_decref(meta);
			meta = NULL;
		}
	}
	if (ev_hitfields_clause((const char *)sqlite3_column_text(s, 8), &meta) == -1)
		goto nomem;
	if (chunk_region(ts, s, textlen, &meta, &regions, err) == -1)
		goto fail;	/* err set */
	signals = json_pack("{s:f,s:I,s:f}", "fts_score", score, "fts_rank", (json_int_t)rank,
	    "fts_norm", score / (best > 1.0 ? best : 1.0));
	if (signals != NULL && ts->as_document &&
	    json_object_set_new(signals, "query_as_document", json_true()) == -1) {
		json_decref(signals);
		signals = NULL;	/* the hit below then fails as out of memory */
	}
	/* json_pack() takes matched (an "o"), even when it fails */
	ev = json_pack("{s:s,s:s,s:o}", "lane", "text", "snippet", ev_buf_str(&ts->snip),
	    "matched_terms", matched);
	matched = NULL;
	if (ev != NULL && ((fields != NULL && json_object_set(ev, "matched_fields", fields) == -1) ||
	    (fuzzy != NULL && json_object_set(ev, "fuzzy", fuzzy) == -1) ||
	    (fed != NULL && json_object_set(ev, "feedback_terms", fed) == -1) ||
	    (regions != NULL && json_object_set(ev, "regions", regions) == -1))) {
		json_decref(ev);
		ev = NULL;	/* the hit below then fails as out of memory */
	}
	json_decref(fields);
	json_decref(fuzzy);
	json_decref(fed);
	json_decref(regions);
	fields = fuzzy = fed = regions = NULL;
	hit = json_pack("{s:O,s:O,s:o,s:o,s:I,s:f,s:s,s:o,s:s,s:[o]}",
	    "query_id", json_object_get(q, "query_id"), "query", json_object_get(q, "query"),
	    "id", column_json(s, 2), "doc_id", column_json(s, 3), "rank", (json_int_t)rank,
	    "score", score, "lane", "text", "signals", signals, "snippet", ev_buf_str(&ts->snip),
	    "evidence", ev);
	if (hit == NULL) {	/* (its snippet, of its text, may be the damage) */
		json_decref(meta);
		return nomem_or_damaged(ts, s, 1, err), NULL;
	}
	r = json_object_set_new(hit, "section_id", column_json(s, 4));
	r |= json_object_set_new(hit, "title", column_json(s, 6));
	r |= json_object_set_new(hit, "section_title", column_json(s, 7));
	r |= json_object_set_new(hit, "section_path", column_json(s, 8));
	r |= json_object_set_new(hit, "source_uri", column_json(s, 13));
	r |= json_object_set_new(hit, "chunk_index", column_json(s, 5));
	r |= json_object_set_new(hit, "offset_start", column_json(s, 10));
	r |= json_object_set_new(hit, "offset_end", column_json(s, 11));
	r |= json_object_set_new(hit, "content_hash", column_json(s, 12));
	if (sqlite3_column_type(s, 16) != SQLITE_NULL)
		r |= json_object_set_new(hit, "language", column_json(s, 16));
	/* the document's source type and date, when it declared them */
	if (sqlite3_column_type(s, 17) != SQLITE_NULL)
		r |= json_object_set_new(hit, "source_type", column_json(s, 17));
	if (sqlite3_column_type(s, 18) != SQLITE_NULL)
		r |= json_object_set_new(hit, "published_date", column_json(s, 18));
	if (meta != NULL)
		r |= json_object_set_new(hit, "metadata", meta);
	/* every field of the query but a hit's own, its filters too: they
	 * were applied (a filter the lane cannot apply is refused) */
	json_object_foreach(q, key, v)
		if (!ev_hitfields_owned(key) && json_object_get(hit, key) == NULL)
			r |= json_object_set(hit, key, v);
	if (r != 0) {
		json_decref(hit);
		return nomem_or_damaged(ts, s, 0, err), NULL;
	}
	return hit;
nomem:
	ev_err_nomem(err);
fail:
	json_decref(fields);
	json_decref(matched);
	json_decref(fuzzy);
	json_decref(fed);
	json_decref(meta);
	return NULL;
}
