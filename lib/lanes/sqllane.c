/* sqllane.c: the structured lane.  See sqllane.h. */
#include "sqllane.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "clock.h"
#include "config.h"
#include "hitfields.h"
#include "jscan.h"
#include "jsoncopy.h"
#include "jsonl.h"
#include "strmap.h"

#define SNIPPET_VALUE_MAX	200	/* bytes of one column's value in a snippet */

struct ev_sqllane {
	sqlite3 *db;
	sqlite3_stmt *stmt;
	struct ev_sqllane_opts o;
	int idcol;		/* the id column's index */
	int scorecol;		/* a numeric "score" column, or -1 */
	int ncols;
	unsigned char *snippet;	/* per column: 1 when in the snippet */
	char *table;		/* the id column's table, or "sql" */
	struct ev_strmap ids;	/* the ids of a query's rows so far */
	/* the signals' names, LANE_score and LANE_rank, as every lane's are */
	char sname[EV_PLAN_LANE_MAX + 8], rname[EV_PLAN_LANE_MAX + 8];
};

/* Only reading: every action that is not a read, a SELECT or a function
 * call is refused when the statement is prepared. */
static int
authorize(void *ctx, int action, const char *a, const char *b, const char *c, const char *d)
{
	(void)ctx, (void)a, (void)b, (void)c, (void)d;
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_FUNCTION:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	default:
		return SQLITE_DENY;
	}
}

static int
open_error(struct ev_sqllane *s, const char *path, struct ev_err *err)
{
	int code = sqlite3_errcode(s->db);
	int usage = code == SQLITE_NOTADB || code == SQLITE_CANTOPEN || code == SQLITE_ERROR ||
	    code == SQLITE_AUTH;
	/* another table-valued function (a pragma's) is refused while SQLite
	 * declares it, which it reports so */
	int vtab = strncmp(sqlite3_errmsg(s->db), "vtable constructor failed", 25) == 0;
	/* (a refused pragma function is an SQLITE_ERROR saying so) */
	int denied = code == SQLITE_AUTH || strcmp(sqlite3_errmsg(s->db), "not authorized") == 0;

	ev_err_set(err, usage ? EV_EXIT_USAGE : EV_EXIT_RUNTIME, path, "%s%s",
	    sqlite3_errmsg(s->db), denied ?
	    " (the structured lane only reads: SELECT statements, no ATTACH or PRAGMA)" : vtab ?
	    " (the structured lane only reads tables, and of table-valued functions json_each and"
	    " json_tree)" : "");
	return -1;
}

static int
find_column(const struct ev_sqllane *s, const char *name, size_t len)
{
	int i;

	for (i = 0; i < s->ncols; i++) {
		const char *c = sqlite3_column_name(s->stmt, i);

		if (c != NULL && strlen(c) == len && strncmp(c, name, len) == 0)
			return i;
	}
	return -1;
}

/* The selected column that is its table's INTEGER PRIMARY KEY, the rowid
 * under another name (SQLite names a selected rowid after it), or -1. */
static int
rowid_alias(const struct ev_sqllane *s)
{
	int i;

	for (i = 0; i < s->ncols; i++) {
		const char *table = sqlite3_column_table_name(s->stmt, i);
		const char *col = sqlite3_column_origin_name(s->stmt, i);
		const char *type = NULL;
		int pk = 0;

		if (table != NULL && col != NULL &&
		    sqlite3_table_column_metadata(s->db, sqlite3_column_database_name(s->stmt, i),
			table, col, &type, NULL, NULL, &pk, NULL) == SQLITE_OK &&
		    pk && type != NULL && strcasecmp(type, "INTEGER") == 0)
			return i;
	}
	return -1;
}

/* Which columns make the snippet: the named ones, or all but the id. */
static int
choose_snippet(struct ev_sqllane *s, const char *path, struct ev_err *err)
{
	const char *p = s->o.snippet_columns;
	int i;

	if (p != NULL && ev_config_list_check(p, "--snippet-columns", err) == -1)
		return -1;
	if ((s->snippet = calloc((size_t)s->ncols + 1, 1)) == NULL)
		return ev_err_nomem(err);
	if (p == NULL) {
		for (i = 0; i < s->ncols; i++)
			s->snippet[i] = i != s->idcol && i != s->scorecol;
		return 0;
	}
	while (*p != '\0') {
		size_t n = strcspn(p, ",");

		if ((i = find_column(s, p, n)) == -1)
			return ev_err_set(err, EV_EXIT_USAGE, path,
			    "the SQL selects no column '%.*s' (--snippet-columns)", (int)n, p);
		s->snippet[i] = 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* Whether the SQL text tail, after the first statement, holds another
 * statement: anything SQLite does not read as nothing (blanks, semicolons
 * and comments), a statement it cannot prepare included.  Prepares and
 * finalizes; runs nothing. */
static int
another_statement(sqlite3 *db, const char *tail)
{
	sqlite3_stmt *next = NULL;
	int rc;

	tail += strspn(tail, " \t\r\n;");
	if (*tail == '\0')
		return 0;
	rc = sqlite3_prepare_v2(db, tail, -1, &next, NULL);
	sqlite3_finalize(next);
	return rc != SQLITE_OK || next != NULL;
}

struct ev_sqllane *
ev_sqllane_open(const char *path, const struct ev_sqllane_opts *o, struct ev_err *err)
{
	struct ev_sqllane *s;
	const char *tail, *table;
	struct stat st;
	int i;

	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode)) {
		ev_err_set(err, EV_EXIT_USAGE, path, "%s",
		    stat(path, &st) == -1 ? "no such file" : "not a file (an SQLite database is)");
		return NULL;
	}
	if ((s = calloc(1, sizeof *s)) == NULL) {
		ev_err_nomem(err);
		return NULL;
	}
	s->o = *o;
	s->scorecol = -1;
	snprintf(s->sname, sizeof s->sname, "%s_score", o->lane);
	snprintf(s->rname, sizeof s->rname, "%s_rank", o->lane);
	/* Reading the schema before the authorizer is set tells a file that is
	 * not a database (SQLite reads the header only when it needs it). */
	/* json_each() and json_tree(), the way to read a filter bound as JSON
	 * text, are tables SQLite makes on their first use by declaring them,
	 * which the authorizer would refuse: they are made here, before it. */
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_busy_timeout(s->db, 5000) != SQLITE_OK ||
	    sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_schema, json_each('[]'), json_tree('[]')",
	    NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_set_authorizer(s->db, authorize, NULL) != SQLITE_OK)
		goto fail_db;
	if (sqlite3_prepare_v2(s->db, o->sql, -1, &s->stmt, &tail) != SQLITE_OK)
		goto fail_db;
	if (s->stmt == NULL) {
		ev_err_set(err, EV_EXIT_USAGE, path, "--sql holds no statement");
		goto fail;
	}
	if (another_statement(s->db, tail)) {
		ev_err_set(err, EV_EXIT_USAGE, path, "--sql holds more than one statement");
		goto fail;
	}
	if (!sqlite3_stmt_readonly(s->stmt)) {
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "--sql writes; the structured lane only reads (a SELECT statement)");
		goto fail;
	}
	for (i = 1; i <= sqlite3_bind_parameter_count(s->stmt); i++) {
		const char *name = sqlite3_bind_parameter_name(s->stmt, i);

		if (name == NULL || name[0] == '?') {	/* ? or ?NNN: by position */
			ev_err_set(err, EV_EXIT_USAGE, path,
			    "--sql: parameter %d is not named: use :query or :NAME (from filters.NAME)", i);
			goto fail;
		}
		if (name[0] != ':') {	/* @NAME or $NAME, which SQLite also takes */
			ev_err_set(err, EV_EXIT_USAGE, path, "--sql: parameter '%s' is named with '%c':"
			    " write it ':%s' (:query, or :NAME from filters.NAME)", name, name[0], name + 1);
			goto fail;
		}
	}
	s->ncols = sqlite3_column_count(s->stmt);
	s->idcol = find_column(s, o->id_column, strlen(o->id_column));
	if (s->idcol == -1 && strcmp(o->id_column, "rowid") == 0)
		s->idcol = rowid_alias(s);
	if (s->idcol == -1) {
		ev_err_set(err, EV_EXIT_USAGE, path,
		    "the SQL selects no column '%s' for the rows' ids: select it, or name another "
		    "with --id-column", o->id_column);
		goto fail;
	}
	s->scorecol = find_column(s, "score", 5);
	table = sqlite3_column_table_name(s->stmt, s->idcol);
	if ((s->table = strdup(table ? table : "sql")) == NULL) {
		ev_err_nomem(err);
		goto fail;
	}
	if (choose_snippet(s, path, err) == -1)
		goto fail;
	return s;
fail_db:
	open_error(s, path, err);
fail:
	ev_sqllane_close(s);
	return NULL;
}

void
ev_sqllane_close(struct ev_sqllane *s)
{
	if (s == NULL)
		return;
	sqlite3_finalize(s->stmt);
	sqlite3_close(s->db);
	free(s->snippet);
	free(s->table);
	ev_strmap_release(&s->ids);
	free(s);
}

/* The bytes of valid UTF-8 text t that fit in max, not cutting a character. */
static size_t
utf8_clip(const char *t, size_t max)
{
	size_t n = strlen(t);

	if (n <= max)
		return n;
	n = max;
	while (n > 0 && ((unsigned char)t[n] & 0xC0) == 0x80)
		n--;
	return n;
}

/* Column i of the current row as JSON (a blob as its length: evidence, not data). */
static json_t *
column_value(sqlite3_stmt *stmt, int i)
{
	double x;

	switch (sqlite3_column_type(stmt, i)) {
	case SQLITE_INTEGER:
		return json_integer((json_int_t)sqlite3_column_int64(stmt, i));
	case SQLITE_FLOAT:
		x = sqlite3_column_double(stmt, i);
		return isfinite(x) ? json_real(x) : json_null();
	case SQLITE_TEXT:
		return ev_jsoncopy_text((const char *)sqlite3_column_text(stmt, i),
		    (size_t)sqlite3_column_bytes(stmt, i));
	case SQLITE_BLOB:
		return json_pack("{s:I}", "blob_bytes", (json_int_t)sqlite3_column_bytes(stmt, i));
	default:
		return json_null();
	}
}

/* The value of the id column i of the current row: column_value(), but a
 * blob as the text of its SQL literal, x'00ff', so that blobs of one length
 * are not one id.  NULL when out of memory. */
static json_t *
id_value(sqlite3_stmt *stmt, int i)
{
	const unsigned char *b;
	struct ev_buf hex = EV_BUF_INIT;
	json_t *v;
	int n, r;

	if (sqlite3_column_type(stmt, i) != SQLITE_BLOB)
		return column_value(stmt, i);
	b = sqlite3_column_blob(stmt, i);
	n = sqlite3_column_bytes(stmt, i);
	r = ev_buf_adds(&hex, "x'");
	for (int k = 0; k < n && r == 0; k++)
		r = ev_buf_printf(&hex, "%02x", b[k]);
	v = r == 0 && ev_buf_addc(&hex, '\'') == 0 ? json_string(ev_buf_str(&hex)) : NULL;
	ev_buf_release(&hex);
	return v;
}

/* Bind :query and every :NAME from the query record. */
static int
bind_all(struct ev_sqllane *s, const json_t *q, const char *where, struct ev_err *err)
{
	const json_t *filters = json_object_get(q, "filters");
	int i, rc = SQLITE_OK;

	/* as in the other lanes: ignored, they would leave every :NAME NULL */
	if (filters != NULL && !json_is_object(filters))
		return ev_err_set(err, EV_EXIT_USAGE, where, "field 'filters' must be an object");
	sqlite3_reset(s->stmt);
	sqlite3_clear_bindings(s->stmt);
	for (i = 1; i <= sqlite3_bind_parameter_count(s->stmt) && rc == SQLITE_OK; i++) {
		const char *name = sqlite3_bind_parameter_name(s->stmt, i) + 1;
		const json_t *v;

		if (strcmp(name, "query") == 0)
			v = json_object_get(q, "query");
		else
			v = filters != NULL ? json_object_get(filters, name) : NULL;
		if (v == NULL || json_is_null(v))
			continue;	/* NULL */
		if (json_is_string(v))
			rc = sqlite3_bind_text(s->stmt, i, json_string_value(v),
			    (int)json_string_length(v), SQLITE_TRANSIENT);
		else if (json_is_integer(v))
			rc = sqlite3_bind_int64(s->stmt, i, json_integer_value(v));
		else if (json_is_real(v))
			rc = sqlite3_bind_double(s->stmt, i, json_real_value(v));
		else if (json_is_boolean(v))
			rc = sqlite3_bind_int(s->stmt, i, json_is_true(v));
		else {
			char *text = json_dumps(v, JSON_COMPACT);

			if (text == NULL)
				return ev_err_nomem(err);
			rc = sqlite3_bind_text(s->stmt, i, text, -1, free);
		}
	}
	if (rc != SQLITE_OK)
		return rc == SQLITE_NOMEM ? ev_err_nomem(err) :
		    ev_err_set(err, EV_EXIT_USAGE, where, "cannot bind :%s: %s",
			sqlite3_bind_parameter_name(s->stmt, i - 1) + 1, sqlite3_errmsg(s->db));
	return 0;
}

struct row {
	json_t *hit;
	double score;
	long seq;
};

static int
row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The "score" column of the current row, the n-th, into *score.  Returns 0,
 * or -1 with *err set (code 2 naming where) when it is not a finite number:
 * NULL, a text or a blob would rank the row as some number of our choosing
 * (NULL was 1, a text 0), which the statement never said. */
static int
row_score(struct ev_sqllane *s, long n, double *score, const char *where, struct ev_err *err)
{
	const char *kind;

	switch (sqlite3_column_type(s->stmt, s->scorecol)) {
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		*score = sqlite3_column_double(s->stmt, s->scorecol);
		if (isfinite(*score))
			return 0;
		kind = "infinite";
		break;
	case SQLITE_NULL:
		kind = "NULL";
		break;
	case SQLITE_TEXT:
		kind = "a text";
		break;
	default:
		kind = "a blob";
		break;
	}
	return ev_err_set(err, EV_EXIT_USAGE, where, "row %ld of the statement has no score to rank"
	    " it by: its column 'score' is %s; select a finite number as 'score' (for example"
	    " coalesce(CAST(x AS REAL), 0) AS score)", n + 1, kind);
}

/* The hit of the current row, the n-th (rank and score are set later), or
 * NULL with *err set: out of memory, or code 2 naming where when the row's
 * id is NULL (rows without one would share the id "TABLE:null", and the
 * stages after merge hits by id) or its score no finite number
 * (row_score()). */
static json_t *
row_hit(struct ev_sqllane *s, const json_t *q, long n, double *score, const char *where,
    struct ev_err *err)
{
	struct ev_buf id = EV_BUF_INIT, snip = EV_BUF_INIT;
	json_t *cols, *rowid, *hit = NULL;
	int i, ok;

	if (sqlite3_column_type(s->stmt, s->idcol) == SQLITE_NULL) {
		ev_err_set(err, EV_EXIT_USAGE, where, "row %ld of the statement has no id: its column"
		    " '%s' is NULL; every hit needs one (add '%s IS NOT NULL' to the statement's"
		    " WHERE)", n + 1, s->o.id_column, s->o.id_column);
		return NULL;
	}
	*score = 1;
	if (s->scorecol >= 0 && row_score(s, n, score, where, err) == -1)
		return NULL;
	cols = json_object();
	rowid = id_value(s->stmt, s->idcol);
	ok = cols != NULL && rowid != NULL;
	for (i = 0; ok && i < s->ncols; i++) {
		json_t *v = column_value(s->stmt, i);
		const char *name = sqlite3_column_name(s->stmt, i);

		ok = v != NULL && json_object_set_new(cols, name, v) == 0;
		if (ok && s->snippet[i] && !json_is_null(v)) {
			const char *t = json_is_string(v) ? json_string_value(v) : NULL;
			char num[64];

			if (t == NULL) {
				char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
				snprintf(num, sizeof num, "%s", d ? d : "");
				free(d);
				t = num;
			}
			ok = ev_buf_printf(&snip, "%s%s: %.*s", snip.len ? "; " : "", name,
			    (int)utf8_clip(t, SNIPPET_VALUE_MAX), t) == 0;
		}
	}
	/* TABLE:ID, the id as text (a string as it is, a number in decimal) */
	if (ok && json_is_string(rowid))
		ok = ev_buf_printf(&id, "%s:%s", s->table, json_string_value(rowid)) == 0;
	else if (ok) {
		char *d = json_dumps(rowid, JSON_ENCODE_ANY | JSON_COMPACT);

		ok = d != NULL && ev_buf_printf(&id, "%s:%s", s->table, d) == 0;
		free(d);
	}
	if (ok)
		hit = json_pack("{s:O,s:O,s:s,s:s,s:i,s:f,s:s,s:{s:f},s:s,s:[{s:s,s:s,s:O,s:O}]}",
		    "query_id", json_object_get(q, "query_id"), "query", json_object_get(q, "query"),
		    "id", id.p, "doc_id", id.p, "rank", 0, "score", *score, "lane", s->o.lane,
		    "signals", s->sname, *score,
		    "snippet", snip.p ? snip.p : "",
		    "evidence", "lane", s->o.lane, "table", s->table, "row", rowid, "columns", cols);
	json_decref(cols);
	json_decref(rowid);
	ev_buf_release(&id);
	ev_buf_release(&snip);
	if (hit == NULL)
		ev_err_nomem(err);
	return hit;
}

/* The failure of a step of the statement into *err.  The database's own
 * troubles (busy, locked, I/O, corrupt, out of memory) are the system's,
 * code 1; any other (an error a function raises, as json_extract() on text
 * that is not JSON, or an integer overflow) comes of the statement and the
 * values this query bound to it, code 2 naming the query, so that
 * --skip-invalid can pass over the query and the others are answered. */
static void
step_error(struct ev_sqllane *s, int step, const char *where, struct ev_err *err)
{
	switch (step & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_IOERR:
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
	case SQLITE_CANTOPEN:
	case SQLITE_FULL:
	case SQLITE_PROTOCOL:
	case SQLITE_INTERRUPT:
	case SQLITE_SCHEMA:
		ev_err_set(err, EV_EXIT_RUNTIME, where, "the structured lane's query failed: %s",
		    sqlite3_errmsg(s->db));
		break;
	case SQLITE_NOMEM:
		ev_err_nomem(err);
		break;
	default:
		ev_err_set(err, EV_EXIT_USAGE, where, "the structured lane's query failed on this "
		    "query's values: %s (check --sql against its :query and filters)",
		    sqlite3_errmsg(s->db));
	}
}

/* Take the id of hit, the n-th row's, into s->ids.  Returns 0, or -1 with
 * *err set: code 2 naming where when a row before had that id (a query's
 * hits need an id each: the stages after merge them by it), 1 out of
 * memory. */
static int
row_id_new(struct ev_sqllane *s, const json_t *hit, long n, const char *where,
    struct ev_err *err)
{
	const json_t *id = json_object_get(hit, "id");
	int added;
	int32_t first = ev_strmap_add(&s->ids, json_string_value(id), json_string_length(id),
	    &added);

	if (first < 0)
		return ev_err_nomem(err);
	if (!added)
		return ev_err_set(err, EV_EXIT_USAGE, where, "rows %ld and %ld of the statement have "
		    "the same id '%s'; a query's hits need one id each (SELECT DISTINCT, or GROUP BY "
		    "the id column '%s')", (long)first + 1, n + 1, json_string_value(id),
		    s->o.id_column);
	return 0;
}

long
ev_sqllane_search(struct ev_sqllane *s, const json_t *q, struct ev_buf *out, const char *where,
	struct ev_err *err)
{
	struct row *rows = NULL;
	json_t *stamp = NULL;
	char now[EV_CLOCK_STAMP_MAX];
	long n = 0, i, rc = -1;
	int step = SQLITE_DONE;	/* when k is 0 */

	ev_strmap_reset(&s->ids);
	if (bind_all(s, q, where, err) == -1)
		return -1;
	while (n < s->o.k && (step = sqlite3_step(s->stmt)) == SQLITE_ROW) {
		struct row *more = realloc(rows, (size_t)(n + 1) * sizeof *rows);

		if (more == NULL) {
			ev_err_nomem(err);
			goto out;
		}
		rows = more;
		if ((rows[n].hit = row_hit(s, q, n, &rows[n].score, where, err)) == NULL)
			goto out;
		rows[n].seq = n;
		if (row_id_new(s, rows[n].hit, n, where, err) == -1) {
			json_decref(rows[n].hit);
			goto out;
		}
		n++;
	}
	if (n < s->o.k && step != SQLITE_DONE) {
		step_error(s, step, where, err);
		goto out;
	}
	if (s->scorecol >= 0)
		qsort(rows, (size_t)n, sizeof *rows, row_cmp);
	ev_clock_stamp(now, sizeof now);	/* when the rows were retrieved */
	if ((stamp = json_string(now)) == NULL) {
		ev_err_nomem(err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		json_t *h = rows[i].hit;
		json_t *sig = json_object_get(h, "signals");

		if (ev_hitfields_stamp(h, stamp) == -1 ||
		    json_object_set_new(h, "rank", json_integer(i + 1)) == -1 ||
		    json_object_set_new(h, "score", json_real(rows[i].score)) == -1 ||
		    json_object_set_new(sig, s->rname, json_integer(i + 1)) == -1 ||
		    ev_json_dump(out, h) == -1 || ev_buf_addc(out, '\n') == -1) {
			ev_err_nomem(err);
			goto out;
		}
	}
	rc = n;
out:
	for (i = 0; i < n; i++)
		json_decref(rows[i].hit);
	free(rows);
	json_decref(stamp);
	sqlite3_reset(s->stmt);
	return rc;
}
