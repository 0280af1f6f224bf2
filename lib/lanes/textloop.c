/* textloop.c: the text lane's query loop.  See textloop.h. */
#include "textloop.h"

#include "clock.h"
#include "hitfields.h"
#include "lexicon.h"
#include "qidset.h"

static void
warn(const struct ev_textloop *loop, const char *where, const char *what)
{
	if (loop->warn != NULL)
		loop->warn(loop->ctx, where, what);
}

/* Warn once for each language found without a word list (*warned: those
 * warned about). */
static void
warn_no_dict(const struct ev_textsearch *ts, const struct ev_textloop *loop, const char *where,
    unsigned *warned)
{
	unsigned langs = ev_textsearch_no_dict(ts) & ~*warned;
	char what[256];

	for (int l = 0; l < EV_LEX_NLANG; l++)
		if (langs & EV_LEX_BIT(l)) {
			snprintf(what, sizeof what, "no word list for language '%s' (install %s): its"
			    " real words missing from the index may be taken for typos",
			    ev_lex_code(l), ev_lex_dict_package(l));
			warn(loop, where, what);
		}
	*warned |= langs;
}

/* Whether the bad record of *err is skipped. */
static int
skipped(struct ev_textloop *loop, struct ev_err *err)
{
	return loop->skip != NULL && loop->skip(loop->ctx, err);
}

/* Search one query record q (consumed), read from in, and write its hits.
 * Returns 0, -1 with *err set for a bad query or a database failure, -2 for
 * a write error. */
static int
answer(struct ev_textsearch *ts, json_t *q, struct ev_jsonl *in, FILE *out, json_t *hits,
    struct ev_textloop *loop, unsigned *warned, struct ev_err *err)
{
	const char *where = ev_jsonl_where(in);
	size_t i;
	json_t *h, *stamp;
	char now[EV_CLOCK_STAMP_MAX];
	int r, flags = 0;

	json_array_clear(hits);
	ev_textsearch_last_query(ts, ev_jsonl_at_end(in));
	r = ev_textsearch_query(ts, q, where, hits, &flags, err);
	json_decref(q);
	if (r == -1)
		return -1;
	/* when the hits were retrieved: one stamp for the query's hits */
	ev_clock_stamp(now, sizeof now);
	if ((stamp = json_string(now)) == NULL)
		return ev_err_nomem(err);
	json_array_foreach(hits, i, h)
		if (ev_hitfields_stamp(h, stamp) == -1) {
			json_decref(stamp);
			return ev_err_nomem(err);
		}
	json_decref(stamp);
	if (flags & EV_TS_NO_TERMS)
		warn(loop, where, "query has no words to search for (only stop words or punctuation):"
		    " no hits");
	if (flags & EV_TS_NO_DICT)
		warn_no_dict(ts, loop, where, warned);
	if (flags & EV_TS_TRUNCATED)
		warn(loop, where, "query has over 1000 distinct words: only the first 1000 were"
		    " searched");
	json_array_foreach(hits, i, h)
		if (ev_jsonl_write(out, h, err) == -1)
			return -2;
	loop->queries++;
	loop->hits += (long long)json_array_size(hits);
	return 0;
}

int
ev_textloop_search(struct ev_textsearch *ts, struct ev_jsonl *in, FILE *out, struct ev_textloop *loop,
    struct ev_err *err)
{
	struct ev_qidset ids = EV_QIDSET_INIT;
	json_t *v, *q, *hits = json_array();
	unsigned warned = 0;
	int r;

	if (hits == NULL)
		return ev_err_nomem(err);
	for (;;) {
		if ((r = ev_jsonl_next(in, &v, err)) == 0)
			break;
		if (r == 1) {
			int fresh;

			q = ev_query_record(v, ev_jsonl_seqno(in), ev_jsonl_where(in), err);
			json_decref(v);
			/* (a query whose id came before is bad input: qidset.h) */
			fresh = q != NULL && ev_qidset_add(&ids, json_object_get(q, "query_id"),
			    ev_jsonl_seqno(in), ev_jsonl_where(in), err) == 0;
			if (!fresh) {
				json_decref(q);
				r = -1;
			} else if (loop->stats_out != NULL) {
				r = ev_textsearch_stats_query(ts, q, ev_jsonl_where(in), loop->stats_out, err);
				json_decref(q);
				loop->queries += r == 0;
			} else {
				r = answer(ts, q, in, out, hits, loop, &warned, err);
			}
			if (fresh && r < 0)
				ev_qidset_drop_last(&ids);	/* its id is free again */
		}
		if (r == -2 || (r == -1 && !skipped(loop, err))) {
			r = -1;
			break;
		}
		r = 0;
	}
	json_decref(hits);
	ev_qidset_release(&ids);
	return r;
}

int
ev_textloop_stats(struct ev_textsearch *ts, struct ev_jsonl *in, struct ev_textloop *loop,
    const char *const *paths, size_t n, const char *out_path, struct ev_err *err)
{
	struct ev_textstats *out = ev_textstats_new(err);
	int r = -1;

	if (out == NULL)
		return -1;
	loop->stats_out = out;
	if ((ts == NULL || (ev_textsearch_stats_store(ts, out, err) == 0 &&
	    ev_textloop_search(ts, in, stdout, loop, err) == 0)) &&
	    ev_textstats_read_all(out, paths, n, err) == 0)
		r = ev_textstats_save(out, out_path, err);
	loop->stats_out = NULL;
	ev_textstats_free(out);
	return r;
}
