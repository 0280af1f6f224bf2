/* qfilter.c: a query's filters as SQL conditions.  See qfilter.h. */
#include "qfilter.h"

#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "clock.h"

/* A compilation of filters into the conditions and values of q. */
struct filters {
	struct ev_qfilter *q;
	struct ev_buf *sql;	/* &q->sql */
	json_t *binds;		/* q->binds */
	const char *where;
	struct ev_err *err;
	int oom;		/* sticky: an append to sql failed (out of memory) */
};

/* Append to the filter's SQL; a failure is remembered in f->oom (checked
 * once, after the whole statement is built), so that a dropped piece can
 * never make another, valid, statement. */
#define SQL_ADD(f, call) do { if ((call) == -1) (f)->oom = 1; } while (0)

/* The parameter number of the next value. */
static size_t
next_param(const struct filters *f)
{
	return json_array_size(f->binds) + (size_t)f->q->first;
}

static int
bind_value(struct filters *f, json_t *v)
{
	if (json_array_append(f->binds, v) == -1)
		return ev_err_nomem(f->err);
	return 0;
}

static int
filter_fail(struct filters *f, const char *fmt, const char *key)
{
	return ev_err_set(f->err, EV_EXIT_USAGE, f->where, fmt, key);
}

/* column equals parameter n (one string) or is among its strings. */
static void
string_test(struct filters *f, int one, const char *column, size_t n)
{
	if (one)
		SQL_ADD(f, ev_buf_printf(f->sql, "%s = ?%zu", column, n));
	else
		SQL_ADD(f, ev_buf_printf(f->sql, "%s IN (SELECT value FROM json_each(?%zu))", column, n));
}

/* 0 when v is a string or a non-empty array of strings, else -1 with the
 * error set. */
static int
strings_given(struct filters *f, const char *key, const json_t *v)
{
	size_t i;
	json_t *e;

	if (!json_is_string(v) && (!json_is_array(v) || json_array_size(v) == 0))
		return filter_fail(f, "filter '%s' must be a string or a non-empty array of strings", key);
	json_array_foreach(v, i, e)
		if (!json_is_string(e))
			return filter_fail(f, "filter '%s' must be a string or a non-empty array of strings", key);
	return 0;
}

/* column = one string, or any of an array of strings. */
static int
filter_strings(struct filters *f, const char *key, const char *column, json_t *v)
{
	if (strings_given(f, key, v) == -1)
		return -1;
	SQL_ADD(f, ev_buf_adds(f->sql, " AND "));
	string_test(f, json_is_string(v), column, next_param(f));
	return bind_value(f, v);
}

/* The language codes of v (a string or an array of them) that name a
 * language alone, normalised as a chunk's language is ("EN", "eng" ->
 * "en"), into the array codes; a code with a region or script ("en-GB") or
 * that is no code is left out. */
static int
bare_language_codes(struct filters *f, json_t *v, json_t *codes)
{
	size_t i, n = json_is_string(v) ? 1 : json_array_size(v);

	for (i = 0; i < n; i++) {
		json_t *e = json_is_string(v) ? v : json_array_get(v, i);
		const char *code = json_string_value(e);
		char norm[EV_ANALYZE_CODE_MAX];

		if (strpbrk(code, "-_") != NULL
		    || ev_analyze_norm(code, json_string_length(e), norm) == -1)
			continue;
		if (json_array_append_new(codes, json_string(norm)) == -1)
			return ev_err_nomem(f->err);
	}
	return 0;
}

/* "language": a chunk passes when its document declares one of the codes,
 * compared regardless of case as language tags are ("en-gb" is "en-GB"),
 * or when the chunk's own language (its document's, normalised, else the
 * one its words showed) is that of a code naming a language alone. */
static int
filter_languages(struct filters *f, json_t *v)
{
	json_t *all, *bare;
	int r;

	if (strings_given(f, "language", v) == -1)
		return -1;
	if ((all = json_is_string(v) ? json_pack("[O]", v) : json_incref(v)) == NULL
	    || (bare = json_array()) == NULL) {
		json_decref(all);
		return ev_err_nomem(f->err);
	}
	SQL_ADD(f, ev_buf_printf(f->sql, " AND (lower(fd.language) IN"
	    " (SELECT lower(value) FROM json_each(?%zu))", next_param(f)));
	r = bind_value(f, all);
	if (r == 0)
		r = bare_language_codes(f, v, bare);
	if (r == 0 && json_array_size(bare) > 0) {
		SQL_ADD(f, ev_buf_printf(f->sql, " OR fc.language IN"
		    " (SELECT value FROM json_each(?%zu))", next_param(f)));
		r = bind_value(f, bare);
	}
	SQL_ADD(f, ev_buf_addc(f->sql, ')'));
	json_decref(all);
	json_decref(bare);
	return r;
}

/* One metadata value test, over json_each row m. */
static int
meta_value(struct filters *f, const char *key, json_t *v)
{
	const char *type = NULL;

	if (json_is_true(v))
		type = "true";
	else if (json_is_false(v))
		type = "false";
	else if (json_is_null(v))
		type = "null";
	if (type != NULL)
		return ev_buf_printf(f->sql, "m.type = '%s'", type) == -1 ? ev_err_nomem(f->err) : 0;
	if (json_is_string(v))
		SQL_ADD(f, ev_buf_printf(f->sql, "(m.type = 'text' AND m.atom = ?%zu)",
		    next_param(f)));
	else if (json_is_number(v)) {
		double d = json_number_value(v);

		if (d != d || d - d != 0)
			return filter_fail(f, "metadata filter '%s' must be finite", key);
		SQL_ADD(f, ev_buf_printf(f->sql, "(m.type IN ('integer', 'real') AND m.atom = ?%zu)",
		    next_param(f)));
	} else
		return filter_fail(f, "metadata filter '%s' must be a string, number, true, false, "
		    "null or an array of them", key);
	return bind_value(f, v);
}

static int
filter_metadata(struct filters *f, json_t *obj)
{
	const char *key;
	json_t *v, *e;
	size_t i;

	if (!json_is_object(obj))
		return filter_fail(f, "filter '%s' must be an object of keys and values", "metadata");
	json_object_foreach(obj, key, v) {
		json_t *k = json_string(key);

		if (k == NULL)
			return ev_err_nomem(f->err);
		SQL_ADD(f, ev_buf_printf(f->sql, " AND EXISTS (SELECT 1 FROM json_each(CASE WHEN"
		    " json_valid(fd.metadata) THEN fd.metadata END) AS m WHERE m.key = ?%zu AND (",
		    next_param(f)));
		if (json_array_append_new(f->binds, k) == -1)
			return ev_err_nomem(f->err);
		if (json_is_array(v)) {
			if (json_array_size(v) == 0)
				return filter_fail(f, "metadata filter '%s' is an empty array", key);
			json_array_foreach(v, i, e) {
				if (i > 0)
					SQL_ADD(f, ev_buf_adds(f->sql, " OR "));
				if (json_is_array(e) || json_is_object(e))
					return filter_fail(f, "metadata filter '%s' must be a string, number, "
					    "true, false, null or an array of them", key);
				if (meta_value(f, key, e) == -1)
					return -1;
			}
		} else if (meta_value(f, key, v) == -1)
			return -1;
		SQL_ADD(f, ev_buf_adds(f->sql, "))"));
	}
	return 0;
}

/* "published_date": from and to as ev_clock_date_span() reads them, the
 * document's date as the SQL function evkit_date_ms() does (store.h),
 * compared as moments to the millisecond (ev_clock_days_ms(): a finer
 * fraction cut off, never rounded up into the next day): a document passes
 * from when it is not before from's start, and to when it is before to's
 * end (to at its own precision).  A document whose date is none (or not a date) fails both. */
static int
filter_dates(struct filters *f, json_t *obj)
{
	const char *key;
	json_t *v, *ms;

	if (!json_is_object(obj))
		return filter_fail(f, "filter '%s' must be an object with 'from' and/or 'to'",
		    "published_date");
	json_object_foreach(obj, key, v) {
		int to = strcmp(key, "to") == 0;
		double start, end;

		if (!to && strcmp(key, "from") != 0)
			return filter_fail(f, "unknown key '%s' in filter 'published_date' "
			    "(known: from, to)", key);
		if (json_is_null(v))
			continue;
		if (!json_is_string(v) || ev_clock_date_span(json_string_value(v), &start, &end) == -1)
			return filter_fail(f, "'published_date.%s' must be a date such as "
			    "\"2021-06-30\"", key);
		SQL_ADD(f, ev_buf_printf(f->sql, " AND evkit_date_ms(fd.published_date) %s ?%zu",
		    to ? "<" : ">=", next_param(f)));
		if ((ms = json_integer(ev_clock_days_ms(to ? end : start))) == NULL)
			return ev_err_nomem(f->err);
		if (json_array_append_new(f->binds, ms) == -1)
			return ev_err_nomem(f->err);
	}
	return 0;
}

static int
build_filters(struct filters *f, const json_t *filters)
{
	const char *key;
	json_t *v;

	if (!json_is_object(filters))
		return ev_err_set(f->err, EV_EXIT_USAGE, f->where, "field 'filters' must be an object");
	json_object_foreach((json_t *)filters, key, v) {
		int r;

		if (strcmp(key, "doc_id") == 0 || strcmp(key, "doc_ids") == 0)
			r = filter_strings(f, key, "fc.doc_id", v);
		else if (strcmp(key, "metadata") == 0)
			r = filter_metadata(f, v);
		else if (strcmp(key, "published_date") == 0)
			r = filter_dates(f, v);
		else if (strcmp(key, "source_type") == 0)
			r = filter_strings(f, key, "fd.source_type", v);
		else if (strcmp(key, "language") == 0)
			r = filter_languages(f, v);
		else
			return filter_fail(f, "unknown filter '%s' (known: doc_id, doc_ids, metadata, "
			    "published_date, source_type, language)", key);
		if (r == -1)
			return -1;
	}
	return 0;
}

int
ev_qfilter_build(struct ev_qfilter *q, const json_t *filters, int first, const char *where,
    struct ev_err *err)
{
	struct filters f = { q, &q->sql, NULL, where, err, 0 };

	ev_buf_reset(&q->sql);
	json_decref(q->binds);
	q->first = first;
	if ((q->binds = f.binds = json_array()) == NULL)
		return ev_err_nomem(err);
	if (build_filters(&f, filters) == -1)
		return -1;
	if (f.oom)
		return ev_err_nomem(err);
	return 0;
}

int
ev_qfilter_bind(const struct ev_qfilter *q, struct ev_store *st, sqlite3_stmt *s,
    struct ev_err *err)
{
	for (size_t i = 0; i < json_array_size(q->binds); i++) {
		json_t *v = json_array_get(q->binds, i);
		int p = (int)i + q->first, brc;

		if (json_is_string(v))
			brc = sqlite3_bind_text(s, p, json_string_value(v), (int)json_string_length(v),
			    SQLITE_STATIC);
		else if (json_is_integer(v))
			brc = sqlite3_bind_int64(s, p, json_integer_value(v));
		else if (json_is_real(v))
			brc = sqlite3_bind_double(s, p, json_real_value(v));
		else {
			char *dump = json_dumps(v, JSON_COMPACT);

			if (dump == NULL)
				return ev_err_nomem(err);
			brc = sqlite3_bind_text(s, p, dump, -1, SQLITE_TRANSIENT);
			free(dump);
		}
		if (brc != SQLITE_OK)
			return ev_store_error(st, "binding a filter value", err);
	}
	return 0;
}

void
ev_qfilter_release(struct ev_qfilter *q)
{
	if (q == NULL)
		return;
	ev_buf_release(&q->sql);
	json_decref(q->binds);
	q->binds = NULL;
	q->first = 1;
}

/* Run "head WHERE 1 <filters> tail" on st and hand each row's statement to
 * row(ctx, s).  Returns 0, or -1 with *err set as ev_qfilter_build() does
 * (code 1 for a database failure or row's -1). */
static int
select_passing(struct ev_store *st, const json_t *filters, const char *where, const char *head,
    const char *tail, int (*row)(void *ctx, sqlite3_stmt *s, struct ev_err *err), void *ctx,
    struct ev_err *err)
{
	struct ev_qfilter f = EV_QFILTER_INIT;
	struct ev_buf sql = EV_BUF_INIT;
	sqlite3_stmt *s = NULL;
	int rc, ret = -1;

	if (ev_qfilter_build(&f, filters, 1, where, err) == -1)
		goto out;
	if (ev_buf_adds(&sql, head) == -1 || ev_buf_adds(&sql, " WHERE 1") == -1 ||
	    ev_buf_add(&sql, f.sql.p, f.sql.len) == -1 || ev_buf_adds(&sql, tail) == -1) {
		ev_err_nomem(err);
		goto out;
	}
	if (sqlite3_prepare_v2(ev_store_db(st), ev_buf_str(&sql), -1, &s, NULL) != SQLITE_OK) {
		ev_store_error(st, "preparing a filter", err);
		goto out;
	}
	if (ev_qfilter_bind(&f, st, s, err) == -1)
		goto out;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (row(ctx, s, err) == -1)
			goto out;
	if (rc != SQLITE_DONE) {
		ev_store_error(st, "applying a filter", err);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(s);
	ev_buf_release(&sql);
	ev_qfilter_release(&f);
	return ret;
}

struct rowids {
	int64_t *got;
	size_t n, cap;
};

static int
add_rowid(void *ctx, sqlite3_stmt *s, struct ev_err *err)
{
	struct rowids *r = ctx;

	if (ev_grow(&r->got, &r->cap, r->n + 1, sizeof *r->got, 256) == -1)
		return ev_err_nomem(err);
	r->got[r->n++] = sqlite3_column_int64(s, 0);
	return 0;
}

int
ev_qfilter_rowids(struct ev_store *st, const json_t *filters, const char *where, int64_t **ids,
    size_t *n, struct ev_err *err)
{
	struct rowids r = { NULL, 0, 0 };

	*ids = NULL;
	*n = 0;
	if (select_passing(st, filters, where, "SELECT fc.rowid FROM chunks fc LEFT JOIN documents fd"
	    " ON fd.doc_id = fc.doc_id", " ORDER BY fc.rowid", add_rowid, &r, err) == -1) {
		free(r.got);
		return -1;
	}
	*ids = r.got;
	*n = r.n;
	return 0;
}

static int
add_doc_id(void *ctx, sqlite3_stmt *s, struct ev_err *err)
{
	const char *id = (const char *)sqlite3_column_text(s, 0);

	if (id != NULL && json_object_set_new(ctx, id, json_true()) == -1)
		return ev_err_nomem(err);
	return 0;
}

json_t *
ev_qfilter_doc_ids(struct ev_store *st, const json_t *filters, const char *where,
    struct ev_err *err)
{
	json_t *set = json_object();

	if (set == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	/* every document, with or without chunks: fc stands for the document,
	 * once with each of its chunks' languages and once with none */
	if (select_passing(st, filters, where, "SELECT DISTINCT fd.doc_id FROM documents fd JOIN "
	    "(SELECT doc_id, language FROM chunks UNION SELECT doc_id, NULL FROM documents) fc"
	    " ON fc.doc_id = fd.doc_id", "", add_doc_id, set,
	    err) == -1) {
		json_decref(set);
		return NULL;
	}
	return set;
}
