/* sqllane.h: the structured lane -- a read-only SQL query over any SQLite
 * file, run once per query record, its rows made hits.
 *
 * Canonical records kept in tables answer constraints exactly ("which
 * policies name criterion 4.2", "orders above 500 in March"): the statement
 * is the user's, its parameters are bound from the query record, never
 * pasted into SQL text: ":query" is the query's text, ":NAME" its
 * filters.NAME (NULL when absent).  Each row becomes a hit of lane
 * "structured" (or the name o->lane gives it, its signals LANE_score and
 * LANE_rank as every lane's are) whose id is stable (TABLE:ID, ID from the id column), whose
 * snippet is built from named columns, and whose evidence names the table,
 * the row and the columns.
 *
 * The connection is read-only three times over: the file is opened
 * read-only, the statement must be one that SQLite says does not write
 * (sqlite3_stmt_readonly()), and an authorizer allows only reading (no
 * ATTACH, no PRAGMA, no write of any kind).  Layer 6; includes err.h,
 * plan.h (the defaults), buf.h and Jansson. */
#ifndef EV_SQLLANE_H
#define EV_SQLLANE_H

#include <jansson.h>

#include "buf.h"
#include "err.h"
#include "plan.h"

struct ev_sqllane_opts {
	const char *sql;	/* one SELECT (or WITH ... SELECT) statement */
	const char *id_column;	/* the result column of the row's id ("rowid") */
	const char *snippet_columns;	/* comma-separated result columns, NULL: all */
	long k;			/* rows a query keeps at most */
	const char *lane;	/* the lane's name in hits ("structured") */
};

#define EV_SQLLANE_OPTS_INIT { .sql = NULL, .id_column = "rowid", .snippet_columns = NULL, \
	.k = EV_PLAN_DEFAULT(EV_PLAN_STRUCTURED_K), .lane = "structured" }

struct ev_sqllane;

/* Open the SQLite file at path read-only and prepare o->sql.  Returns the
 * lane, or NULL with *err set: code 2 for what the user gave wrongly (no such
 * file, a directory, not an SQLite database, SQL that does not compile, more
 * than one statement, a statement that writes or attaches, positional '?'
 * parameters, an id or snippet column the statement does not select), code
 * 1 for a failure of the system (a locked or corrupt database). */
struct ev_sqllane *ev_sqllane_open(const char *path, const struct ev_sqllane_opts *o,
	struct ev_err *err);

/* Run the statement for query record q (an object with "query_id" and
 * "query", as from ev_query_record(); "filters" optional) and append its
 * hits to the JSON Lines in out, one per line: query_id, query, id, doc_id,
 * rank, score, lane, signals, snippet, evidence.  The first k rows are kept
 * in the statement's order, then ordered by a numeric result column "score"
 * when there is one (highest first, ties in the statement's order), else
 * each scores 1 (an exact match).  A filter that is an array or object is
 * bound as its JSON text.  Returns the number of hits, or -1 with *err set
 * (code 2 naming where for a filter of a bad type, or an error the statement
 * raises on the values bound; code 1 for the database's own failures). */
long ev_sqllane_search(struct ev_sqllane *s, const json_t *q, struct ev_buf *out,
	const char *where, struct ev_err *err);

/* Close the lane (NULL is fine). */
void ev_sqllane_close(struct ev_sqllane *s);

#endif
