/* textpass.c: a pass over the text index: its statement bound, pruned
 * (MaxScore) or swept through the postings file, and stepped.  See
 * textstate.h. */
#include "textstate.h"

#include <stdlib.h>
#include <string.h>

#include "postings.h"
#include "sweep.h"
#include "textstats.h"
#include "token.h"

int
ev_textpass_phrase_key(struct ev_textsearch *ts, const char *a, const char *b)
{
	ev_buf_reset(&ts->key);
	return ev_buf_printf(&ts->key, "%s %s%s%s", ts->lang_key, a, b != NULL ? " " : "",
	    b != NULL ? b : "");
}

/* The query's word whose stem is stem, as the query wrote it. */
static const char *
surface_of_stem(const struct ev_textsearch *ts, const char *stem)
{
	for (int i = 0; i < ts->nwords; i++)
		if (strcmp(ts->words[i].stem, stem) == 0)
			return ts->words[i].surface;
	return stem;
}

/* The rows of the statistics s holding the stem stem in any language: the
 * sum of the counts of each form an index gives a stem (analyze.h,
 * ev_analyze_stem_form(): untagged, or tagged with a stemming language), as
 * ev_store_prepare_stem_df() counts a store's; -1 when s has none. */
static long long
stem_rows(struct ev_textstats *s, const char *stem)
{
	char form[256];		/* a longer stem: its untagged form alone */
	long long rows = ev_textstats_get(s, EV_STATS_TERM, stem), n;
	size_t len = strlen(stem);

	for (int i = 0; ev_analyze_stem_tag(i) != NULL; i++)
		if (ev_analyze_stem_form(i, stem, len, form, sizeof form) != -1 &&
		    (n = ev_textstats_get(s, EV_STATS_TERM, form)) >= 0)
			rows = rows < 0 ? n : rows + n;
	return rows;
}

/* With global statistics, each weighed phrase's IDF into ts->idf, from the
 * collection's rows holding it: a query word's as counted for the queries,
 * else (an expansion, a feedback term) its stem's from the vocabulary, 0
 * when no shard has it; a pair's from the pairs counted for the queries.
 * Returns 0, or -1 with *err set (code 2 naming `where`: a pair the
 * statistics lack). */
static int
global_idf(struct ev_textsearch *ts, const char *where, struct ev_err *err)
{
	for (int i = 0; i < ts->npw; i++) {
		long long n;

		if (ts->pw[i] == 0.0)
			continue;	/* a filter: no score */
		if (ev_textpass_phrase_key(ts, ts->pka[i], ts->pkb[i]) == -1)
			return ev_err_nomem(err);
		n = ev_textstats_get(ts->o.stats, EV_STATS_PHRASE, ev_buf_str(&ts->key));
		if (ts->pkb[i] == NULL) {
			/* a query word as its queries were counted; else its stem's */
			if (n < 0)
				n = stem_rows(ts->o.stats, ts->pka[i]);
		} else {
			if (n < 0)
				return ev_err_set(err, EV_EXIT_USAGE, where, "the statistics (--stats) do not"
				    " count '%s %s' side by side: make them (--stats-out) from these queries",
				    surface_of_stem(ts, ts->pka[i]), surface_of_stem(ts, ts->pkb[i]));
		}
		ts->idf[i] = ev_bm25_idf((double)ev_textstats_rows(ts->o.stats), n > 0 ? (double)n : 0.0);
	}
	return 0;
}

/* Bind the expression e, its n phrases' weights w and IDFs idf, the limit
 * and the feedback pass's pool (?7, when the statement has it) to s (reset). */
static void
bind_expr(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw,
    const struct ev_buf *e, double *w, double *idf, int n, long long limit)
{
	bw->n = n;
	bw->w = w;
	bw->idf = idf;
	bw->floor = 0.0;
	bw->tuned = 1;
	bw->k1 = ts->o.k1;
	bw->b = ts->o.b;
	bw->global = ts->o.stats != NULL;	/* its IDFs: global_idf() */
	if (bw->global) {
		bw->rows = (double)ev_textstats_rows(ts->o.stats);
		bw->tokens = (double)ev_textstats_tokens(ts->o.stats);
	}
	sqlite3_reset(s);
	sqlite3_bind_text(s, 1, ev_buf_str(e), (int)e->len, SQLITE_STATIC);
	sqlite3_bind_double(s, 2, ts->o.w_title);
	sqlite3_bind_double(s, 3, ts->o.w_section);
	sqlite3_bind_double(s, 4, ts->o.w_text);
	sqlite3_bind_int64(s, 5, limit);
	sqlite3_bind_pointer(s, 6, bw, EV_BM25_POINTER, NULL);
	if (sqlite3_bind_parameter_count(s) >= 7) {	/* (not the probe) */
		if (ts->use_pool)
			sqlite3_bind_text(s, 7, ev_buf_str(&ts->pooljson), (int)ts->pooljson.len, SQLITE_STATIC);
		else
			sqlite3_bind_null(s, 7);
	}
}

/* Bind the pass over ts->expr, unpruned. */
static void
bind_pass(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw, long long limit)
{
	bind_expr(ts, s, bw, &ts->expr, ts->pw, ts->idf, ts->npw, limit);
}

/* A failed step of a pass, into *err. */
int
ev_textpass_step_error(struct ev_textsearch *ts, int rc, const char *text, const char *where,
    struct ev_err *err)
{
	if (ts->o.raw_fts && rc == SQLITE_ERROR)
		return ev_err_set(err, EV_EXIT_USAGE, where, "bad FTS5 expression '%s': %s", text,
		    sqlite3_errmsg(ev_store_db(ts->st)));
	return ev_store_error(ts->st, "searching the text index", err);
}

/* Dynamic pruning (textsearch.h), after MaxScore (Turtle and Flood 1995).
 * A phrase can add at most its upper bound to a chunk's score: its weight x
 * its IDF x (k1 + 1), the limit of BM25's term as the frequency grows.  Once
 * some `limit` chunks are known to score at least theta, a chunk holding
 * only phrases whose bounds sum below theta cannot be among the best, so the
 * candidates need come only from the other phrases' chunks: "(THOSE) AND
 * (expr)", where THOSE weigh nothing and every phrase of expr weighs what it
 * did, so that each candidate's score is computed exactly as without
 * pruning.  Theta comes from a first pass over the chunks of the rarest
 * phrases (highest bounds), which hold most of the best chunks. */
#define PRUNE_MARGIN 1e-9	/* bounds are summed with this relative slack */

/* Pruning finds theta by passes of their own and a probe: on a store of few
 * chunks for each hit a pass asks for, they cost more than the candidates
 * they leave out save, and the pass ranks every chunk holding a phrase (the
 * same hits either way).  CPU time against --exhaustive, at k=10 to 200:
 * unpruned faster by 4 to 30 % at 14 to 163 chunks a hit (Cranfield, MED,
 * CACM, NPL, AILA), pruned faster by 11 to 18 % at 226 to 1,143 (NPL's and
 * CACM's queries on 45,000 chunks, NPL alone at k=10), slower by 2 % at 327
 * (AILA's long queries at k=50). */
#define PRUNE_ROWS_PER_HIT 200

/* Whether pruning may pay for a pass of `limit` chunks: the store holds at
 * least ts->o.prune_rows (0: PRUNE_ROWS_PER_HIT) chunks for each (counted
 * once; it chooses the faster way only, never the hits).  Returns 1 or 0,
 * or -1 with *err set. */
static int
prune_pays(struct ev_textsearch *ts, long long limit, struct ev_err *err)
{
	long long per_hit = ts->o.prune_rows != 0 ? ts->o.prune_rows : PRUNE_ROWS_PER_HIT;
	sqlite3_stmt *c;
	int rc;

	if (per_hit < 0)
		return 1;
	if (ts->nchunks == -1) {
		if ((c = ev_store_prepare(ts->st, "SELECT count(*) FROM chunks", err)) == NULL)
			return -1;
		rc = sqlite3_step(c);
		ts->nchunks = rc == SQLITE_ROW ? sqlite3_column_int64(c, 0) : -1;
		sqlite3_reset(c);
		if (rc != SQLITE_ROW)
			return ev_store_error(ts->st, "counting the chunks", err);
	}
	return ts->nchunks / per_hit >= limit;
}

/* The probe: whether expr matches anything, and every weighted phrase's
 * IDF (the weights' idf, filled by ev_bm25() on the first row). */
static const char sql_probe[] = "SELECT ev_bm25(chunks_fts, ?2, ?3, ?4, ?6) FROM chunks_fts"
	" WHERE chunks_fts MATCH ?1 LIMIT ?5";

/* "(P1 OR ... Pm) AND (expr)" for the first m phrases of ts->order into
 * ts->pexpr, and its weights and IDFs into ts->ppw and ts->pidf.  Returns 0
 * or -1 (out of memory). */
static int
build_pruned(struct ev_textsearch *ts, int m)
{
	struct ev_buf *b = &ts->pexpr;
	const char *e = ev_buf_str(&ts->expr);
	int n = m + ts->npw, r;

	if (n > ts->cappp) {
		if (ev_textsearch_resize(&ts->ppw, n, sizeof *ts->ppw) == -1 ||
		    ev_textsearch_resize(&ts->pidf, n, sizeof *ts->pidf) == -1)
			return -1;
		ts->cappp = n;
	}
	ev_buf_reset(b);
	r = ev_buf_addc(b, '(');
	for (int i = 0; i < m && r == 0; i++) {
		int j = ts->order[i];

		if (i > 0)
			r = ev_buf_adds(b, " OR ");
		if (r == 0)
			r = ev_buf_add(b, e + ts->pstart[j], (size_t)ts->plen[j]);
		ts->ppw[i] = 0.0;
		ts->pidf[i] = 0.0;
	}
	if (r == 0 && (r = ev_buf_adds(b, ") AND (")) == 0 &&
	    (r = ev_buf_add(b, e, ts->expr.len)) == 0)
		r = ev_buf_addc(b, ')');
	memcpy(ts->ppw + m, ts->pw, (size_t)ts->npw * sizeof *ts->ppw);
	memcpy(ts->pidf + m, ts->idf, (size_t)ts->npw * sizeof *ts->pidf);
	ts->npp = n;
	return r;
}

/* Keep the phrases of this pass and the IDFs counted for them, for the
 * next pass of the query (the feedback pass's words and pairs are searched
 * again by the last).  Returns 0 or -1 (out of memory). */
int
ev_textpass_save_pass(struct ev_textsearch *ts)
{
	if (ts->npw > ts->capprev) {
		if (ev_textsearch_resize(&ts->previdf, ts->npw, sizeof *ts->previdf) == -1 ||
		    ev_textsearch_resize(&ts->prevstart, ts->npw, sizeof *ts->prevstart) == -1 ||
		    ev_textsearch_resize(&ts->prevlen, ts->npw, sizeof *ts->prevlen) == -1)
			return -1;
		ts->capprev = ts->npw;
	}
	ev_buf_reset(&ts->prevexpr);
	if (ev_buf_add(&ts->prevexpr, ev_buf_str(&ts->expr), ts->expr.len) == -1)
		return -1;
	memcpy(ts->previdf, ts->idf, (size_t)ts->npw * sizeof *ts->previdf);
	memcpy(ts->prevstart, ts->pstart, (size_t)ts->npw * sizeof *ts->prevstart);
	memcpy(ts->prevlen, ts->plen, (size_t)ts->npw * sizeof *ts->prevlen);
	ts->nprev = ts->npw;
	return 0;
}

/* The IDF of each phrase of ts->expr that the previous pass counted (the
 * same phrase, in the same snapshot of the store: the same IDF). */
static void
reuse_idf(struct ev_textsearch *ts)
{
	const char *e = ev_buf_str(&ts->expr), *pe = ev_buf_str(&ts->prevexpr);

	for (int i = 0; i < ts->npw; i++)
		for (int j = 0; j < ts->nprev && ts->idf[i] == 0; j++)
			if (ts->previdf[j] > 0 && ts->plen[i] == ts->prevlen[j] &&
			    memcmp(e + ts->pstart[i], pe + ts->prevstart[j], (size_t)ts->plen[i]) == 0)
				ts->idf[i] = ts->previdf[j];
}

/* The sweep (textsearch.h "The postings file").  A token of a phrase's
 * string, as FTS5 tokenises it in a query. */
struct phrase_toks {
	struct ev_textsearch *ts;
	int n;			/* positions of the phrase so far */
	int last_start;
	int too_many;		/* more positions or alternatives than a sweep takes */
	int oom;
};

/* Room for one more position in ts->nalt.  Returns 0 or -1. */
static int
grow_positions(struct ev_textsearch *ts)
{
	if (ts->npos == ts->cappos) {
		int cap = ts->cappos ? 2 * ts->cappos : 64;

		if (ev_textsearch_resize(&ts->nalt, cap, sizeof *ts->nalt) == -1)
			return -1;
		ts->cappos = cap;
	}
	return 0;
}

static int
on_phrase_token(void *ctx, const char *term, int len, int start, int end)
{
	struct phrase_toks *pt = ctx;
	struct ev_textsearch *ts = pt->ts;
	int k = ts->ntok;

	(void)end;
	if (k == ts->captok) {
		int cap = ts->captok ? 2 * ts->captok : 64;

		if (ev_textsearch_resize(&ts->tokoff, cap, sizeof *ts->tokoff) == -1 ||
		    ev_textsearch_resize(&ts->toklen, cap, sizeof *ts->toklen) == -1 ||
		    ev_textsearch_resize(&ts->tokp, cap, sizeof *ts->tokp) == -1) {
			pt->oom = 1;
			return 1;
		}
		ts->captok = cap;
	}
	/* an alternative of the word before shares its offsets */
	if (pt->n > 0 && start == pt->last_start) {
		if (++ts->nalt[ts->npos - 1] > EV_BM25_MAX_ALT) {
			pt->too_many = 1;
			return 1;
		}
	} else {
		if (pt->n == EV_BM25_MAX_PHRASE || grow_positions(ts) == -1) {
			pt->too_many = pt->n == EV_BM25_MAX_PHRASE;
			pt->oom = !pt->too_many;
			return 1;
		}
		ts->nalt[ts->npos++] = 1;
		pt->n++;
	}
	pt->last_start = start;
	ts->tokoff[k] = (int)ts->toks.len;
	ts->toklen[k] = len;
	if (ev_buf_add(&ts->toks, term, (size_t)len) == -1) {
		pt->oom = 1;
		return 1;
	}
	ts->ntok++;
	return 0;
}

/* Room for n phrases in ts->ph, and no tokens yet.  Returns 0, or -1
 * with *err set. */
static int
begin_phrases(struct ev_textsearch *ts, int n, struct ev_err *err)
{
	ev_buf_reset(&ts->toks);
	ts->ntok = 0;
	ts->npos = 0;
	if (n > ts->capph) {
		if (ev_textsearch_resize(&ts->ph, n, sizeof *ts->ph) == -1)
			return ev_err_nomem(err);
		ts->capph = n;
	}
	return 0;
}

/* Phrase i of ts->ph: the string s[0..len) (an FTS5 string's inside, its
 * quotes undone) as the tokens FTS5 searches for.  Returns 1, 0 when it
 * cannot be swept (more positions or alternatives than a sweep takes, or
 * no token), or -1 with *err set. */
static int
phrase_of(struct ev_textsearch *ts, int i, const char *s, size_t len, struct ev_err *err)
{
	struct phrase_toks pt = { ts, 0, -1, 0, 0 };

	ts->ph[i].ntok = 0;
	if (ev_tok_run_query(ts->tok, s, len, on_phrase_token, &pt, err) == -1)
		return err->code != 0 ? -1 : ev_err_nomem(err);
	if (pt.oom)
		return ev_err_nomem(err);
	ts->ph[i].ntok = pt.n;
	return !pt.too_many && pt.n > 0;
}

/* Point ts->ph[0..n) at their tokens, now that ts->toks is whole. */
static void
end_phrases(struct ev_textsearch *ts, int n)
{
	int k = 0;

	for (int t = 0; t < ts->ntok; t++)
		ts->tokp[t] = ts->toks.p + ts->tokoff[t];
	for (int i = 0, pos = 0; i < n; i++) {
		ts->ph[i].tok = ts->tokp + k;
		ts->ph[i].len = ts->toklen + k;
		ts->ph[i].nalt = ts->nalt + pos;
		for (int j = 0; j < ts->ph[i].ntok; j++)
			k += ts->nalt[pos++];
	}
}

/* Each phrase of ts->expr as the tokens FTS5 searches for, into ts->ph.
 * Returns 1, 0 when a phrase cannot be swept (a word with alternatives,
 * a phrase of no token), or -1 with *err set. */
static int
sweep_phrases(struct ev_textsearch *ts, struct ev_err *err)
{
	const char *e = ev_buf_str(&ts->expr);
	struct ev_buf inner = EV_BUF_INIT;
	int r = 1;

	if (begin_phrases(ts, ts->npw, err) == -1)
		return -1;
	for (int i = 0; i < ts->npw && r == 1; i++) {
		/* the string's inside, its doubled quotes undone */
		const char *p = e + ts->pstart[i] + 1, *end = e + ts->pstart[i] + ts->plen[i] - 1;

		ev_buf_reset(&inner);
		for (; p < end && r == 1; p++) {
			if (*p == '"')
				p++;
			if (ev_buf_addc(&inner, *p) == -1)
				r = ev_err_nomem(err);
		}
		if (r == 1)
			r = phrase_of(ts, i, ev_buf_str(&inner), inner.len, err);
		ts->ph[i].filter = i < ts->nfilter;
	}
	ev_buf_release(&inner);
	if (r != 1)
		return r;
	end_phrases(ts, ts->npw);
	return 1;
}

int
ev_textpass_word_phrases(struct ev_textsearch *ts, const char *a, const char *b, struct ev_err *err)
{
	int r;

	if (begin_phrases(ts, 2, err) == -1)
		return -1;
	if ((r = phrase_of(ts, 0, a, strlen(a), err)) == 1)
		r = phrase_of(ts, 1, b, strlen(b), err);
	if (r != 1)
		return r;
	end_phrases(ts, 2);
	ts->ph[0].filter = ts->ph[1].filter = 0;
	return ts->ph[0].ntok == 1 && ts->ph[1].ntok == 1;
}

/* Whether the postings file holds the index this query reads (once per
 * query, in its transaction).  Returns 1 or 0, or -1 with *err set. */
int
ev_textpass_postings_fresh(struct ev_textsearch *ts, struct ev_err *err)
{
	if (ts->fresh == -1)
		ts->fresh = ev_postings_fresh(ts->post, ts->st, err);
	return ts->fresh;
}

static void
run_read_ahead(void *arg)
{
	struct read_ahead *ra = arg;

	if (ra->n > 0)
		ev_store_readahead_walk(ra->st, ra->rowid, ra->n, NULL);
	if (ra->release != NULL)
		ev_bm25_sweep_release(ra->release);
}

/* Ask for the pages of the swept hits' rows, read next one by one
 * (ev_textpass_step_pass()), in one go: when they are out of the page cache, the disk
 * reads them side by side (store.h).  On the sweeper's second thread when
 * it has one, while this one reads the rows: the asking (the trees walked
 * in the page cache) takes a millisecond for 100 hits, all of it lost when
 * the pages are there already.  Out of memory, they are not asked for.
 * After the last sweep of the last query (ts->last_sweep), the same job
 * then gives back the sweeper's pages (ev_bm25_sweep_release()), which
 * closing it would give back after the hits were written. */
static void
read_ahead(struct ev_textsearch *ts)
{
	struct read_ahead *ra = &ts->ra;
	long long want = ts->read_max > 0 && ts->read_max < ts->nswept ? ts->read_max : ts->nswept;

	/* (the last job ended: the sweep that made these hits waited for it) */
	ra->st = ts->st;
	ra->n = 0;
	ra->release = ts->last_sweep ? ts->sweep : NULL;
	if (ev_store_readahead_ready(ts->st) && ((size_t)want <= ra->cap ||
	    ev_grow(&ra->rowid, &ra->cap, (size_t)want, sizeof *ra->rowid, 128) == 0)) {
		ra->n = (size_t)want;
		for (size_t i = 0; i < ra->n; i++)
			ra->rowid[i] = ts->swept[i].rowid;
	}
	if (ra->n > 0 || ra->release != NULL)
		ev_bm25_sweep_background(ts->sweep, run_read_ahead, ra);
}

/* Sweep the pass of `limit` chunks over ts->expr through the postings file
 * (bm25.h, ev_bm25_sweep()) when it can: the store has a fresh one, the
 * query is not filtered, its words are OR-ed and its phrases are plain.
 * Returns 1 (ts->swept holds the hits), 0 (the pass is FTS5's), or -1
 * with *err set. */
static int
try_sweep(struct ev_textsearch *ts, struct ev_bm25_weights *bw, long long limit,
    struct ev_err *err)
{
	double colw[3] = { ts->o.w_title, ts->o.w_section, ts->o.w_text };
	long long n;
	int r;

	if (ts->sweep == NULL || ts->filtered || ts->o.all_terms || ts->o.raw_fts || ts->npw == 0)
		return 0;
	if ((r = ev_textpass_postings_fresh(ts, err)) != 1 || (r = sweep_phrases(ts, err)) != 1)
		return r;
	if (ts->use_pool)
		n = ev_bm25_sweep_rows(ts->sweep, ts->ph, ts->npw, colw, 3, bw, ts->pool, ts->npool,
		    limit, &ts->swept, err);
	else
		n = ev_bm25_sweep(ts->sweep, ts->ph, ts->npw, colw, 3, bw, limit, &ts->swept, err);
	if (n < 0)
		return -1;
	ts->nswept = n;
	ts->next_swept = 0;
	ts->used_sweep = 1;
	ts->pruned = ev_bm25_sweep_pruned(ts->sweep);
	read_ahead(ts);
	return 1;
}

/* The chunk row of a swept hit, with the columns of SELECT_HITS. */
static const char sql_swept_row[] =
	"SELECT c.rowid, ?2, c.id, c.doc_id, c.section_id, c.chunk_index, c.title, c.section_title,"
	" c.section_path, c.text, c.offset_start, c.offset_end, c.content_hash, d.source_uri, d.metadata,"
	" d.language, c.language, d.source_type, d.published_date"
	" FROM chunks c LEFT JOIN documents d ON d.doc_id = c.doc_id"
	" WHERE c.rowid = ?1";

/* Step the pass: s itself, or when it was swept, the next swept hit's
 * chunk row.  *row is the statement to read the row's columns from.
 * Returns SQLITE_ROW, SQLITE_DONE or an error code. */
int
ev_textpass_step_pass(struct ev_textsearch *ts, sqlite3_stmt *s, sqlite3_stmt **row)
{
	sqlite3_stmt *r;
	int rc;

	*row = s;
	if (ts->swept == NULL)
		return sqlite3_step(s);
	if ((r = ev_store_prepare(ts->st, sql_swept_row, NULL)) == NULL)
		return SQLITE_NOMEM;
	*row = r;
	while (ts->next_swept < ts->nswept) {
		const struct ev_bm25_hit *h = &ts->swept[ts->next_swept++];

		sqlite3_reset(r);
		if (sqlite3_bind_int64(r, 1, h->rowid) != SQLITE_OK ||
		    sqlite3_bind_double(r, 2, -h->s) != SQLITE_OK)
			return SQLITE_NOMEM;
		if ((rc = sqlite3_step(r)) != SQLITE_DONE)
			return rc;	/* a row, or an error */
		/* a chunk gone from the table (FTS5's JOIN drops it too) */
	}
	sqlite3_reset(r);
	return SQLITE_DONE;
}

/* Bind s for a pass of `limit` chunks over ts->expr, pruned when the
 * options allow it and it pays (ts->pruned: the phrases left out of the
 * candidates), or swept.  Returns 0, or -1 with *err set. */
int
ev_textpass_prepare_pass(struct ev_textsearch *ts, sqlite3_stmt *s, struct ev_bm25_weights *bw,
    long long limit, const char *text, const char *where, struct ev_err *err)
{
	sqlite3_stmt *probe;
	int rc, nscore = 0, found = 0, out = 0;
	double theta = 0, sum = 0;

	ts->pruned = 0;
	ts->swept = NULL;
	ts->used_sweep = 0;
	if (ts->o.stats != NULL ? global_idf(ts, where, err) == -1 : (reuse_idf(ts), 0))
		return -1;
	bind_pass(ts, s, bw, limit);
	if ((rc = try_sweep(ts, bw, limit, err)) != 0)
		return rc == -1 ? -1 : 0;
	if (ts->o.exhaustive || ts->o.raw_fts || ts->npw < 2)
		return 0;
	for (int i = 0; i < ts->npw; i++) {
		if (ts->pw[i] < 0)
			return 0;	/* a bound needs every term >= 0 */
		nscore += ts->pw[i] > 0;
	}
	if (nscore < 2 || (rc = prune_pays(ts, limit, err)) == 0)
		return 0;
	if (rc == -1)
		return -1;
	if ((probe = ev_store_prepare(ts->st, sql_probe, err)) == NULL)
		return -1;
	bind_pass(ts, probe, bw, 1);
	rc = sqlite3_step(probe);
	sqlite3_reset(probe);
	if (rc == SQLITE_DONE)
		return 0;	/* nothing matches */
	if (rc != SQLITE_ROW)
		return ev_textpass_step_error(ts, rc, text, where, err);
	if (ev_textsearch_resize(&ts->ub, ts->cappw, sizeof *ts->ub) == -1 ||
	    ev_textsearch_resize(&ts->order, ts->cappw, sizeof *ts->order) == -1)
		return ev_err_nomem(err);
	/* The scoring phrases by bound, highest first (insertion: few). */
	nscore = 0;
	for (int i = 0; i < ts->npw; i++) {
		int j;

		ts->ub[i] = ts->pw[i] * ts->idf[i] * (ts->o.k1 + 1.0);
		if (ts->pw[i] == 0)
			continue;
		for (j = nscore; j > 0 && ts->ub[ts->order[j - 1]] < ts->ub[i]; j--)
			ts->order[j] = ts->order[j - 1];
		ts->order[j] = i;
		nscore++;
	}
	/* Theta: the limit-th best score among the chunks of the m rarest
	 * phrases, m doubling until there are that many chunks. */
	for (int m = 1; m < nscore && !found; m *= 2) {
		long long n = 0;

		if (build_pruned(ts, m) == -1)
			return ev_err_nomem(err);
		bind_expr(ts, s, bw, &ts->pexpr, ts->ppw, ts->pidf, ts->npp, limit);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW)
			if (++n == limit) {
				theta = sqlite3_column_double(s, 1);
				found = 1;
			}
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return ev_textpass_step_error(ts, rc, text, where, err);
	}
	/* The lowest bounds that sum below theta: their phrases alone cannot
	 * make a chunk one of the best. */
	for (int i = nscore - 1; found && i > 0; i--) {
		double u = ts->ub[ts->order[i]];

		if ((sum + u) * (1.0 + PRUNE_MARGIN) >= theta)
			break;
		sum += u;
		out++;
	}
	if (out == 0)
		bind_pass(ts, s, bw, limit);
	else if (build_pruned(ts, nscore - out) == -1)
		return ev_err_nomem(err);
	else
		bind_expr(ts, s, bw, &ts->pexpr, ts->ppw, ts->pidf, ts->npp, limit);
	/* A candidate is left (ev_bm25()'s floor) as soon as its phrases show
	 * it cannot reach theta. */
	bw->floor = found ? theta : 0.0;
	ts->pruned = out;
	return 0;
}
