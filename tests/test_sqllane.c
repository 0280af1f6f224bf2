/* test_sqllane.c: lib/lanes/sqllane.c -- rows of a read-only statement as hits. */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqllane.h"
#include "test_util.h"

static char path[] = "/tmp/test_sqllane_XXXXXX";

static void
make_db(void)
{
	sqlite3 *db;

	tu_tmpfile(path, 0, "", 0);
	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, w REAL);"
	    "INSERT INTO t(name, w) VALUES ('alpha', 0.5), ('beta', 2), ('gamma', 2);",
	    NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void
drop_db(void)
{
	unlink(path);
}

TestSuite(sqllane, .init = make_db, .fini = drop_db);

static struct ev_sqllane *
open_sql(const char *sql, long k, struct ev_err *err)
{
	struct ev_sqllane_opts o = EV_SQLLANE_OPTS_INIT;

	o.sql = sql;
	o.k = k;
	return ev_sqllane_open(path, &o, err);
}

Test(sqllane, score_column_orders_ties_keep_the_statement_order)
{
	struct ev_err err = { 0 };
	struct ev_sqllane *s = open_sql("SELECT id, name, w AS score FROM t ORDER BY id", 10, &err);
	json_t *q = json_pack("{s:s,s:s}", "query_id", "q", "query", "x");
	struct ev_buf out = EV_BUF_INIT;

	cr_assert_not_null(s, "%s", err.msg);
	setenv("EV_FIXED_TIME", "2026-11-29T02:10:33.123Z", 1);	/* the rows' retrieved_at */
	cr_assert_eq(ev_sqllane_search(s, q, &out, "t", &err), 3);
	unsetenv("EV_FIXED_TIME");
	cr_assert_str_eq(out.p,
	    "{\"query_id\":\"q\",\"query\":\"x\",\"id\":\"t:2\",\"doc_id\":\"t:2\",\"rank\":1,"
	    "\"score\":2.0,\"lane\":\"structured\",\"signals\":{\"structured_score\":2.0,"
	    "\"structured_rank\":1},\"snippet\":\"name: beta\",\"evidence\":[{\"lane\":"
	    "\"structured\",\"table\":\"t\",\"row\":2,\"columns\":{\"id\":2,\"name\":\"beta\","
	    "\"score\":2.0},\"retrieved_at\":\"2026-11-29T02:10:33.123Z\"}]}\n"
	    "{\"query_id\":\"q\",\"query\":\"x\",\"id\":\"t:3\",\"doc_id\":\"t:3\",\"rank\":2,"
	    "\"score\":2.0,\"lane\":\"structured\",\"signals\":{\"structured_score\":2.0,"
	    "\"structured_rank\":2},\"snippet\":\"name: gamma\",\"evidence\":[{\"lane\":"
	    "\"structured\",\"table\":\"t\",\"row\":3,\"columns\":{\"id\":3,\"name\":\"gamma\","
	    "\"score\":2.0},\"retrieved_at\":\"2026-11-29T02:10:33.123Z\"}]}\n"
	    "{\"query_id\":\"q\",\"query\":\"x\",\"id\":\"t:1\",\"doc_id\":\"t:1\",\"rank\":3,"
	    "\"score\":0.5,\"lane\":\"structured\",\"signals\":{\"structured_score\":0.5,"
	    "\"structured_rank\":3},\"snippet\":\"name: alpha\",\"evidence\":[{\"lane\":"
	    "\"structured\",\"table\":\"t\",\"row\":1,\"columns\":{\"id\":1,\"name\":\"alpha\","
	    "\"score\":0.5},\"retrieved_at\":\"2026-11-29T02:10:33.123Z\"}]}\n");
	ev_buf_release(&out);
	json_decref(q);
	ev_sqllane_close(s);
}

Test(sqllane, k_keeps_the_first_rows_and_filters_bind_by_name)
{
	struct ev_err err = { 0 };
	struct ev_sqllane *s = open_sql("SELECT id FROM t WHERE w >= :min ORDER BY id", 1, &err);
	json_t *q = json_pack("{s:i,s:s,s:{s:f}}", "query_id", 7, "query", "x", "filters", "min", 1.0);
	struct ev_buf out = EV_BUF_INIT;

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(ev_sqllane_search(s, q, &out, "t", &err), 1);
	cr_assert(strstr(out.p, "\"id\":\"t:2\"") != NULL, "%s", out.p);
	ev_buf_reset(&out);
	json_object_del(json_object_get(q, "filters"), "min");	/* NULL: no row passes */
	cr_assert_eq(ev_sqllane_search(s, q, &out, "t", &err), 0);
	cr_assert_eq(out.len, 0);
	ev_buf_release(&out);
	json_decref(q);
	ev_sqllane_close(s);
}

Test(sqllane, a_statement_that_writes_is_bad_usage)
{
	struct ev_err err = { 0 };

	cr_assert_null(open_sql("UPDATE t SET name = 'x'", 10, &err));
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_null(open_sql("SELECT id FROM t; SELECT 1", 10, &err));
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "--sql holds more than one statement");
}
