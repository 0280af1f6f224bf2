/* Tests of lib/base/qidset.c: the query ids of one input. */
#include <criterion/criterion.h>

#include "qidset.h"

/* Add id (JSON text, or NULL for none) read at line; returns 0 or -1, with
 * the error's code and message in *err. */
static int
add(struct ev_qidset *s, const char *id, size_t line, struct ev_err *err)
{
	json_t *v = id != NULL ? json_loads(id, JSON_DECODE_ANY, NULL) : NULL;
	char where[32];
	int r;

	snprintf(where, sizeof where, "q.jsonl:%zu", line);
	ev_err_clear(err);
	r = ev_qidset_add(s, v, line, where, err);
	json_decref(v);
	return r;
}

Test(qidset, a_second_query_of_an_id_is_bad_input_naming_the_first_line)
{
	struct ev_qidset s = EV_QIDSET_INIT;
	struct ev_err err;

	cr_assert_eq(add(&s, "\"q1\"", 1, &err), 0);
	cr_assert_eq(add(&s, "\"q2\"", 2, &err), 0);
	cr_assert_eq(add(&s, "\"q1\"", 5, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, "q.jsonl:5");
	cr_assert_not_null(strstr(err.msg, "query_id 'q1' was taken by the query of line 1"), "%s",
	    err.msg);
	cr_assert_eq(add(&s, "\"q3\"", 6, &err), 0, "a refused id is not taken");
	ev_qidset_release(&s);
}

Test(qidset, an_integer_and_its_decimal_string_are_one_id)
{
	struct ev_qidset s = EV_QIDSET_INIT;
	struct ev_err err;

	cr_assert_eq(add(&s, "7", 1, &err), 0);
	cr_assert_eq(add(&s, "\"7\"", 2, &err), -1);
	cr_assert_eq(add(&s, "\"07\"", 3, &err), 0);
	ev_qidset_release(&s);
}

Test(qidset, a_query_without_an_id_takes_its_line_number)
{
	struct ev_qidset s = EV_QIDSET_INIT;
	struct ev_err err;

	cr_assert_eq(add(&s, NULL, 3, &err), 0);
	cr_assert_eq(add(&s, "null", 4, &err), 0);
	cr_assert_eq(add(&s, "3", 9, &err), -1);
	cr_assert_not_null(strstr(err.msg, "taken by the query of line 3"), "%s", err.msg);
	cr_assert_eq(add(&s, "\"4\"", 10, &err), -1);
	ev_qidset_release(&s);
}

Test(qidset, an_id_of_another_type_is_bad_input_and_takes_nothing)
{
	struct ev_qidset s = EV_QIDSET_INIT;
	struct ev_err err;

	cr_assert_eq(add(&s, "[1]", 1, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_not_null(strstr(err.msg, "must be a string or an integer"), "%s", err.msg);
	cr_assert_eq(add(&s, "1.5", 2, &err), -1);
	cr_assert_eq(add(&s, "\"x\"", 3, &err), 0);
	ev_qidset_release(&s);
}

Test(qidset, the_id_dropped_last_is_free_again)
{
	struct ev_qidset s = EV_QIDSET_INIT;
	struct ev_err err;

	cr_assert_eq(add(&s, "\"a\"", 1, &err), 0);
	cr_assert_eq(add(&s, "\"b\"", 2, &err), 0);
	ev_qidset_drop_last(&s);
	cr_assert_eq(add(&s, "\"b\"", 3, &err), 0);
	cr_assert_eq(add(&s, "\"a\"", 4, &err), -1);
	cr_assert_not_null(strstr(err.msg, "line 1"), "%s", err.msg);
	cr_assert_eq(add(&s, "\"b\"", 5, &err), -1);
	cr_assert_not_null(strstr(err.msg, "line 3"), "%s", err.msg);
	ev_qidset_release(&s);
	ev_qidset_release(&s);	/* (twice: a released set is an empty one) */
}
