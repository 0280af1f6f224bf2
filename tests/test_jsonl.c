/* test_jsonl.c: lib/base/jsonl.c -- JSON Lines edge cases (long lines, CRLF, BOM,
 * invalid UTF-8, NUL bytes, blank lines, no final newline), the FILE:LINE and
 * column of errors, string-only query lines, typed field access, writing. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"
#include "test_util.h"

static char paths[4][64];

static void
remove_temp_files(void)
{
	int i;

	for (i = 0; i < 4; i++)
		if (paths[i][0] != '\0')
			unlink(paths[i]);
}

/* Write len bytes of text to a new temporary file; returns its path
 * (static storage, one per slot), removed when the test ends. */
static const char *
temp_file(int slot, const char *text, size_t len)
{
	static int registered;

	if (!registered++)
		atexit(remove_temp_files);

	snprintf(paths[slot], sizeof paths[slot], "/tmp/test_jsonl_%d_XXXXXX", slot);
	tu_tmpfile(paths[slot], 0, text, len);
	return paths[slot];
}

static struct ev_jsonl *
open1(const char *path)
{
	static char *paths[1];
	struct ev_err err = { 0 };
	struct ev_jsonl *in;

	paths[0] = (char *)path;
	in = ev_jsonl_open(paths, 1, &err);
	cr_assert_not_null(in);
	return in;
}

/* Read the next value and return its "n" field (-1 at the end). */
static long long
next_n(struct ev_jsonl *in)
{
	struct ev_err err = { 0 };
	json_t *v = NULL;
	long long n;
	int r = ev_jsonl_next(in, &v, &err);

	cr_assert_neq(r, -1, "unexpected error: %s: %s", err.where, err.msg);
	if (r == 0)
		return -1;
	n = json_integer_value(json_object_get(v, "n"));
	json_decref(v);
	return n;
}

/* Read the next value, expecting an error; returns it. */
static struct ev_err
next_err(struct ev_jsonl *in)
{
	struct ev_err err = { 0 };
	json_t *v = NULL;

	cr_assert_eq(ev_jsonl_next(in, &v, &err), -1, "expected an error");
	cr_assert_null(v);
	return err;
}

#define T(s) s, sizeof(s) - 1

/* in gives the records {"n":1} and {"n":2}, then its end. */
static void
reads_1_2(struct ev_jsonl *in)
{
	cr_assert_eq(next_n(in), 1);
	cr_assert_eq(next_n(in), 2);
	cr_assert_eq(next_n(in), -1);
}

Test(jsonl, reads_one_value_per_line)
{
	struct ev_jsonl *in = open1(temp_file(0, T("{\"n\":1}\n{\"n\":2}\n")));

	reads_1_2(in);
	cr_assert_eq(next_n(in), -1);	/* the end stays the end */
	ev_jsonl_close(in);
}

/* The end is told at the last record of the last input, not before; the
 * byte read to tell is put back. */
Test(jsonl, the_end_is_told_at_the_last_record)
{
	char *paths[2];
	struct ev_err err = { 0 };
	struct ev_jsonl *in;

	paths[0] = (char *)temp_file(0, T("{\"n\":1}\n"));
	paths[1] = (char *)temp_file(1, T("{\"n\":2}\n{\"n\":3}"));
	in = ev_jsonl_open(paths, 2, &err);
	cr_assert_eq(ev_jsonl_at_end(in), 0, "nothing read yet");
	cr_assert_eq(next_n(in), 1);
	cr_assert_eq(ev_jsonl_at_end(in), 0, "an input follows");
	cr_assert_eq(next_n(in), 2);
	cr_assert_eq(ev_jsonl_at_end(in), 0, "a line follows");
	cr_assert_eq(ev_jsonl_at_end(in), 0, "and still does");
	cr_assert_eq(next_n(in), 3, "its first byte put back");
	cr_assert_eq(ev_jsonl_at_end(in), 1);
	cr_assert_eq(next_n(in), -1);
	ev_jsonl_close(in);
}

/* A pipe whose writer may still write is not at its end; once the writer
 * has closed it, it is. */
Test(jsonl, a_pipe_is_at_its_end_only_once_closed)
{
	static char *const stdin_only[] = { "-" };
	struct ev_err err = { 0 };
	struct ev_jsonl *in;
	int fd[2];

	cr_assert_eq(pipe(fd), 0);
	cr_assert_eq(write(fd[1], "{\"n\":1}\n", 8), 8);
	cr_assert_neq(dup2(fd[0], 0), -1);
	close(fd[0]);
	in = ev_jsonl_open((char *const *)stdin_only, 1, &err);
	cr_assert_eq(next_n(in), 1);
	cr_assert_eq(ev_jsonl_at_end(in), 0, "the writer may write more");
	close(fd[1]);
	cr_assert_eq(ev_jsonl_at_end(in), 1);
	cr_assert_eq(next_n(in), -1);
	ev_jsonl_close(in);
}

Test(jsonl, crlf_line_ends_are_ignored)
{
	struct ev_jsonl *in = open1(temp_file(0, T("{\"n\":1}\r\n{\"n\":2}\r\n")));

	reads_1_2(in);
	ev_jsonl_close(in);
}

Test(jsonl, a_bom_at_the_start_of_each_input_is_skipped)
{
	char *paths[2];
	struct ev_err err = { 0 };
	struct ev_jsonl *in;

	paths[0] = (char *)temp_file(0, T("\xEF\xBB\xBF{\"n\":1}\n"));
	paths[1] = (char *)temp_file(1, T("\xEF\xBB\xBF{\"n\":2}\n"));
	in = ev_jsonl_open(paths, 2, &err);
	reads_1_2(in);
	ev_jsonl_close(in);
}

Test(jsonl, a_bom_inside_the_input_is_an_error)
{
	struct ev_jsonl *in = open1(temp_file(0, T("{\"n\":1}\n\xEF\xBB\xBF{\"n\":2}\n")));
	struct ev_err err;

	cr_assert_eq(next_n(in), 1);
	err = next_err(in);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	ev_jsonl_close(in);
}

Test(jsonl, a_missing_final_newline_is_fine)
{
	struct ev_jsonl *in = open1(temp_file(0, T("{\"n\":1}\n{\"n\":2}")));

	reads_1_2(in);
	ev_jsonl_close(in);
}

Test(jsonl, blank_lines_are_skipped_and_counted)
{
	struct ev_jsonl *in = open1(temp_file(0, T("\n   \n\t\r\n{\"n\":1}\n\n{\"n\":2}\n\n")));

	cr_assert_eq(next_n(in), 1);
	cr_assert_eq(ev_jsonl_lineno(in), 4);
	cr_assert_eq(next_n(in), 2);
	cr_assert_eq(ev_jsonl_lineno(in), 6);
	cr_assert_eq(next_n(in), -1);
	ev_jsonl_close(in);
}

Test(jsonl, an_empty_input_has_no_values)
{
	struct ev_jsonl *in = open1(temp_file(0, T("")));

	cr_assert_eq(next_n(in), -1);
	ev_jsonl_close(in);
}

Test(jsonl, a_line_of_several_megabytes_is_read_whole)
{
	size_t big = 6u << 20, len;
	char *text = malloc(big + 64);
	struct ev_jsonl *in;
	struct ev_err err = { 0 };
	json_t *v;

	len = (size_t)sprintf(text, "{\"n\":1,\"s\":\"");
	memset(text + len, 'x', big);
	len += big;
	len += (size_t)sprintf(text + len, "\"}\n{\"n\":2}\n");
	in = open1(temp_file(0, text, len));
	free(text);
	cr_assert_eq(ev_jsonl_next(in, &v, &err), 1, "%s", err.msg);
	cr_assert_eq(json_string_length(json_object_get(v, "s")), big);
	json_decref(v);
	cr_assert_eq(next_n(in), 2);
	ev_jsonl_close(in);
}

Test(jsonl, invalid_utf8_names_file_line_and_column)
{
	const char *path = temp_file(0, T("{\"n\":1}\n{\"s\":\"caf\xe9\"}\n"));
	struct ev_jsonl *in = open1(path);
	struct ev_err err;
	char want[128];

	cr_assert_eq(next_n(in), 1);
	err = next_err(in);
	snprintf(want, sizeof want, "%s:2", path);
	cr_assert_str_eq(err.where, want);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.msg, "invalid JSON at column 9: unable to decode byte 0xe9 near '\"caf'");
	ev_jsonl_close(in);
}

Test(jsonl, a_nul_byte_names_its_column)
{
	const char *path = temp_file(0, T("{\"s\":\"a\0b\"}\n"));
	struct ev_jsonl *in = open1(path);
	struct ev_err err = next_err(in);
	char want[128];

	snprintf(want, sizeof want, "%s:1", path);
	cr_assert_str_eq(err.where, want);
	cr_assert_str_eq(err.msg, "invalid JSON at column 8: NUL byte in the line");
	ev_jsonl_close(in);
}

/* refused in the user's words, not with Jansson's JSON_ALLOW_NUL */
Test(jsonl, an_escaped_nul_is_refused)
{
	struct ev_jsonl *in = open1(temp_file(0, T("{\"s\":\"a\\u0000b\"}\n")));
	struct ev_err err = next_err(in);

	cr_assert_str_eq(err.msg, "invalid JSON at column 15: \\u0000 (a NUL character) in a string "
	    "near '\"a\\u0000b\"'");
	ev_jsonl_close(in);
}

Test(jsonl, after_an_error_reading_goes_on_with_the_next_line)
{
	struct ev_jsonl *in = open1(temp_file(0, T("{\"n\":1}\n{oops\n{\"n\":3}\n")));

	cr_assert_eq(next_n(in), 1);
	next_err(in);
	cr_assert_eq(next_n(in), 3);
	cr_assert_eq(ev_jsonl_lineno(in), 3);
	ev_jsonl_close(in);
}

Test(jsonl, a_truncated_record_is_called_so)
{
	struct ev_jsonl *in = open1(temp_file(0, T("{\"n\":1,\"s\":\"abc\n")));
	struct ev_err err = next_err(in);

	cr_assert(strncmp(err.msg, "invalid JSON", 12) == 0, "%s", err.msg);
	ev_jsonl_close(in);
}

Test(jsonl, the_column_of_a_syntax_error_is_given)
{
	struct ev_err err = { 0 };

	cr_assert_null(ev_json_parse_line(T("{\"a\":1,,}"), "x:9", &err));
	cr_assert_str_eq(err.where, "x:9");
	cr_assert_str_eq(err.msg, "invalid JSON at column 8: string or '}' expected near ','");
}

Test(jsonl, duplicate_keys_are_refused)
{
	struct ev_err err = { 0 };

	cr_assert_null(ev_json_parse_line(T("{\"a\":1,\"a\":2}"), "x:1", &err));
	cr_assert(strstr(err.msg, "duplicate object key") != NULL, "%s", err.msg);
}

Test(jsonl, deep_nesting_is_refused_not_a_crash)
{
	size_t n = 200000;
	char *text = malloc(n);
	struct ev_err err = { 0 };

	memset(text, '[', n);
	cr_assert_null(ev_json_parse_line(text, n, "x:1", &err));
	cr_assert(strstr(err.msg, "maximum parsing depth") != NULL, "%s", err.msg);
	free(text);
}

Test(jsonl, overflowing_numbers_are_refused)
{
	struct ev_err err = { 0 };

	cr_assert_null(ev_json_parse_line(T("{\"a\":1e999}"), "x:1", &err));
	cr_assert(strstr(err.msg, "real number overflow") != NULL, "%s", err.msg);
	cr_assert_null(ev_json_parse_line(T("{\"a\":99999999999999999999}"), "x:1", &err));
	cr_assert_str_eq(err.msg, "invalid JSON at column 6: integer 99999999999999999999 beyond "
	    "64 bits; a real number is written with a '.' or an exponent (99999999999999999999.0)");
	cr_assert_str_eq(err.where, "x:1");
	cr_assert_null(ev_json_parse_line(T("{\"v\":[1,-99999999999999999999]}"), "x:2", &err));
	cr_assert_str_eq(err.msg, "invalid JSON at column 9: integer -99999999999999999999 beyond "
	    "64 bits; a real number is written with a '.' or an exponent (-99999999999999999999.0)");
	cr_assert_null(ev_json_parse_line(T("[123456789012345678901234567890123456789012345]"), "x:3",
	    &err));
	cr_assert_str_eq(err.msg, "invalid JSON at column 2: integer 12345678901234567890... (45 "
	    "digits) beyond 64 bits; a real number is written with a '.' or an exponent");
	cr_assert_null(ev_json_parse_line(T("{\"a\":NaN}"), "x:1", &err));
}

Test(jsonl, lines_are_counted_per_input_and_named_by_file)
{
	char *paths[2];
	struct ev_err err = { 0 };
	struct ev_jsonl *in;
	char want[128];

	paths[0] = (char *)temp_file(0, T("{\"n\":1}\n{\"n\":2}\n"));
	paths[1] = (char *)temp_file(1, T("\n{\"n\":3\n"));
	in = ev_jsonl_open(paths, 2, &err);
	cr_assert_eq(next_n(in), 1);
	cr_assert_eq(next_n(in), 2);
	err = next_err(in);
	snprintf(want, sizeof want, "%s:2", paths[1]);
	cr_assert_str_eq(err.where, want);
	cr_assert_str_eq(ev_jsonl_file(in), paths[1]);
	ev_jsonl_close(in);
}

Test(jsonl, stdin_is_named_stdin)
{
	const char *path = temp_file(0, T("{\"n\":1}\nnope\n"));
	struct ev_jsonl *in;
	struct ev_err err;

	cr_assert_not_null(freopen(path, "r", stdin));
	in = ev_jsonl_open(NULL, 0, &err);
	cr_assert_eq(next_n(in), 1);
	err = next_err(in);
	cr_assert_str_eq(err.where, "stdin:2");
	ev_jsonl_close(in);
}

/* jsonl.h: "a missing file is reported when it is reached (exit 1)". */
Test(jsonl, a_missing_file_is_reported_when_reached_as_bad_usage)
{
	char *paths[2];
	struct ev_err err = { 0 };
	struct ev_jsonl *in;

	paths[0] = (char *)temp_file(0, T("{\"n\":1}\n"));
	paths[1] = "/nonexistent/input.jsonl";
	in = ev_jsonl_open(paths, 2, &err);
	cr_assert_eq(next_n(in), 1);
	err = next_err(in);
	cr_assert_str_eq(err.where, "/nonexistent/input.jsonl");
	cr_assert_eq(err.code, EV_EXIT_USAGE, "code %d, the header promises 2", err.code);
	ev_jsonl_close(in);
}

Test(jsonl, a_directory_is_not_an_input)
{
	static char *paths[] = { "/tmp" };
	struct ev_err err = { 0 };
	struct ev_jsonl *in = ev_jsonl_open(paths, 1, &err);

	err = next_err(in);
	cr_assert_str_eq(err.msg, "is a directory, not a JSON Lines file");
	ev_jsonl_close(in);
}

Test(jsonl, next_line_returns_raw_lines_blank_ones_too)
{
	struct ev_jsonl *in = open1(temp_file(0, T("\xEF\xBB\xBFq1 d1 1\r\n\nlast")));
	struct ev_err err = { 0 };
	const char *line;
	size_t len;

	cr_assert_eq(ev_jsonl_next_line(in, &line, &len, &err), 1);
	cr_assert_eq(len, 7);
	cr_assert(memcmp(line, "q1 d1 1", 7) == 0);
	cr_assert_eq(ev_jsonl_next_line(in, &line, &len, &err), 1);
	cr_assert_eq(len, 0);
	cr_assert_eq(ev_jsonl_next_line(in, &line, &len, &err), 1);
	cr_assert_eq(len, 4);
	cr_assert_eq(ev_jsonl_next_line(in, &line, &len, &err), 0);
	ev_jsonl_close(in);
}

Test(jsonl, a_string_only_line_is_a_query_numbered_by_its_line)
{
	struct ev_jsonl *in = open1(temp_file(0, T("\n\"what is lift\"\n{\"query\":\"drag\"}\n")));
	struct ev_err err = { 0 };
	json_t *v, *q;

	cr_assert_eq(ev_jsonl_next(in, &v, &err), 1);
	q = ev_query_record(v, ev_jsonl_lineno(in), ev_jsonl_where(in), &err);
	cr_assert_not_null(q);
	cr_assert_eq(json_integer_value(json_object_get(q, "query_id")), 2);
	cr_assert_str_eq(json_string_value(json_object_get(q, "query")), "what is lift");
	json_decref(q);
	json_decref(v);
	cr_assert_eq(ev_jsonl_next(in, &v, &err), 1);
	q = ev_query_record(v, ev_jsonl_lineno(in), ev_jsonl_where(in), &err);
	cr_assert_eq(json_integer_value(json_object_get(q, "query_id")), 3);
	json_decref(q);
	json_decref(v);
	ev_jsonl_close(in);
}

Test(jsonl, a_query_record_is_checked)
{
	struct ev_err err = { 0 };
	json_t *v = json_loads("{\"query_id\":\"q1\"}", 0, NULL);

	cr_assert_null(ev_query_record(v, 4, "f:4", &err));
	cr_assert_str_eq(err.where, "f:4");
	cr_assert_str_eq(err.msg, "missing field 'query'");
	json_decref(v);
	v = json_loads("{\"query_id\":1.5,\"query\":\"x\"}", 0, NULL);
	cr_assert_null(ev_query_record(v, 4, "f:4", &err));
	cr_assert_str_eq(err.msg, "field 'query_id' must be a string or an integer");
	json_decref(v);
	v = json_loads("[\"x\"]", 0, NULL);
	cr_assert_null(ev_query_record(v, 4, "f:4", &err));
	cr_assert_str_eq(err.msg, "a query must be an object or a string");
	json_decref(v);
	v = json_loads("{\"query_id\":\"q\",\"query\":\"x\",\"extra\":[1]}", 0, NULL);
	json_t *q = ev_query_record(v, 4, "f:4", &err);
	cr_assert_not_null(json_object_get(q, "extra"));	/* passed through */
	json_decref(q);
	json_decref(v);
}

Test(jsonl, typed_fields_say_what_is_wrong)
{
	json_t *o = json_loads("{\"s\":\"x\",\"n\":2.5,\"i\":3.0,\"z\":null,\"a\":[],\"o\":{}}", 0, NULL);
	struct ev_err err = { 0 };
	const char *s = "unset";
	double d = 0;
	long long i = 0;
	json_t *j;

	cr_assert_eq(ev_field_str(o, "s", 1, &s, "f:1", &err), 1);
	cr_assert_str_eq(s, "x");
	cr_assert_eq(ev_field_str(o, "n", 1, &s, "f:1", &err), -1);
	cr_assert_str_eq(err.where, "f:1");
	cr_assert_str_eq(err.msg, "field 'n' must be a string");
	cr_assert_eq(ev_field_str(o, "z", 0, &s, "f:1", &err), 0);	/* null: absent */
	cr_assert_str_eq(s, "x");
	cr_assert_eq(ev_field_str(o, "missing", 1, &s, "f:1", &err), -1);
	cr_assert_str_eq(err.msg, "missing field 'missing'");
	cr_assert_eq(ev_field_num(o, "n", 1, &d, "f:1", &err), 1);
	cr_assert_eq(d, 2.5);
	cr_assert_eq(ev_field_int(o, "i", 1, &i, "f:1", &err), 1);
	cr_assert_eq(i, 3);
	cr_assert_eq(ev_field_int(o, "n", 1, &i, "f:1", &err), -1);
	cr_assert_str_eq(err.msg, "field 'n' must be an integer");
	cr_assert_eq(ev_field_arr(o, "a", 1, &j, "f:1", &err), 1);
	cr_assert_eq(ev_field_obj(o, "a", 1, &j, "f:1", &err), -1);
	cr_assert_str_eq(err.msg, "field 'a' must be an object");
	cr_assert_eq(ev_field_obj(o, "o", 1, &j, "f:1", &err), 1);
	json_decref(o);
}

Test(jsonl, id_buf_of_strings_and_integers)
{
	struct ev_buf b = EV_BUF_INIT;
	json_t *s = json_string("q7"), *i = json_integer(-12), *r = json_real(1.5);

	ev_buf_adds(&b, "left over");
	cr_assert_eq(ev_json_id_buf(s, &b), 0);
	cr_assert_str_eq(ev_buf_str(&b), "q7");
	cr_assert_eq(ev_json_id_buf(i, &b), 0);
	cr_assert_str_eq(ev_buf_str(&b), "-12");
	cr_assert_eq(ev_json_id_buf(r, &b), -1);
	cr_assert_eq(ev_json_id_buf(NULL, &b), -1);
	cr_assert_eq(b.len, 0);
	ev_buf_release(&b);
	json_decref(s);
	json_decref(i);
	json_decref(r);
}

/* jsonl.h: "The same text, of any length": a query id of 300 bytes whole,
 * neither refused nor cut, as the fixed buffers of old did at 256. */
Test(jsonl, id_buf_of_any_length)
{
	struct ev_buf b = EV_BUF_INIT;
	char id[301];
	json_t *s;

	memset(id, 'q', 300);
	id[300] = '\0';
	s = json_string(id);
	cr_assert_eq(ev_json_id_buf(s, &b), 0);
	cr_assert_eq(b.len, 300);
	cr_assert_str_eq(ev_buf_str(&b), id);
	ev_buf_release(&b);
	json_decref(s);
}

Test(jsonl, write_is_compact_with_a_newline)
{
	char buf[256] = "";
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	json_t *v = json_loads("{\"b\": [1, 2.5, \"x\"], \"a\": {\"c\": null}}", 0, NULL);
	struct ev_err err = { 0 };

	cr_assert_eq(ev_jsonl_write(fp, v, &err), 0);
	fclose(fp);
	cr_assert_str_eq(buf, "{\"b\":[1,2.5,\"x\"],\"a\":{\"c\":null}}\n");
	json_decref(v);
}

Test(jsonl, dump_appends_to_a_buffer)
{
	struct ev_buf b = EV_BUF_INIT;
	json_t *v = json_pack("{s:f}", "score", 0.1);

	ev_buf_adds(&b, ">");
	cr_assert_eq(ev_json_dump(&b, v), 0);
	cr_assert_str_eq(ev_buf_str(&b), ">{\"score\":0.1}");
	ev_buf_release(&b);
	json_decref(v);
}

Test(jsonl, close_accepts_null)
{
	ev_jsonl_close(NULL);
}

/* Two names of one file (a hard link, the same name) share a key and are
 * refused together, naming both and the option; two files, standard input
 * and a missing file are not. */
Test(jsonl, distinct_inputs_tell_two_names_of_one_file)
{
	char a[] = "/tmp/ev-jsonl-XXXXXX", b[] = "/tmp/ev-jsonl-XXXXXX", other[64];
	char ka[EV_FILE_KEY_MAX], kb[EV_FILE_KEY_MAX];
	struct ev_err err = { 0 };

	tu_tmpfile(a, 0, "1\n", 2);
	tu_tmpfile(b, 0, "1\n", 2);
	snprintf(other, sizeof other, "%s.link", a);
	cr_assert_eq(link(a, other), 0);
	cr_assert_eq(ev_file_key(a, ka), 1);
	cr_assert_eq(ev_file_key(other, kb), 1);
	cr_assert_str_eq(ka, kb);
	cr_assert_eq(ev_file_key("/nonexistent/x", ka), 0);
	const char *const fine[] = { a, b, "-", "/nonexistent/x" };
	cr_assert_eq(ev_input_distinct(fine, 4, "--stats", &err), 0, "%s", err.msg);
	const char *const twice[] = { b, a, other };
	cr_assert_eq(ev_input_distinct(twice, 3, "--stats", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, other);
	cr_assert_not_null(strstr(err.msg, a), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "--stats names it twice"), "%s", err.msg);
	unlink(other);
}

/* Standard input ("-") that is the file another name gives has its key
 * (a pipe has none) and is refused as two names of one file, and "-" twice
 * as standard input named twice, naming the option. */
Test(jsonl, distinct_inputs_tell_standard_input)
{
	char a[] = "/tmp/ev-jsonl-XXXXXX", b[] = "/tmp/ev-jsonl-XXXXXX";
	char ka[EV_FILE_KEY_MAX], kin[EV_FILE_KEY_MAX];
	struct ev_err err = { 0 };
	int fd, p[2];

	tu_tmpfile(a, 0, "1\n", 2);
	tu_tmpfile(b, 0, "1\n", 2);
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
	cr_assert_eq(ev_file_key("-", kin), 0);
	cr_assert_neq(fd = open(a, O_RDONLY), -1);
	cr_assert_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	cr_assert_eq(ev_file_key(a, ka), 1);
	cr_assert_eq(ev_file_key("-", kin), 1);
	cr_assert_str_eq(kin, ka);
	const char *const fine[] = { b, "-" };
	cr_assert_eq(ev_input_distinct(fine, 2, "--stats", &err), 0, "%s", err.msg);
	const char *const same[] = { "-", a };
	cr_assert_eq(ev_input_distinct(same, 2, "--stats", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_str_eq(err.where, a);
	cr_assert_not_null(strstr(err.msg, "standard input '-'"), "%s", err.msg);
	const char *const later[] = { a, "-" };
	cr_assert_eq(ev_input_distinct(later, 2, "--stats", &err), -1);
	cr_assert_str_eq(err.where, "-");
	const char *const twice[] = { "-", b, "-" };
	cr_assert_eq(ev_input_distinct(twice, 3, "--stats", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_not_null(strstr(err.msg, "more than once by --stats"), "%s", err.msg);
	unlink(a);
	unlink(b);
}

/* A member written as a whole real (3.0, 1e1) is made that integer; one of
 * 2.5, an integer, a string, a missing member or a non-object stay as they
 * were. */
Test(jsonl, whole_member_makes_a_whole_real_its_integer)
{
	json_t *o = json_loads("{\"a\":3.0,\"b\":1e1,\"c\":2.5,\"d\":4,\"e\":\"5\",\"f\":-0.0}", 0, NULL);
	json_t *s = json_string("x");
	char *t;

	cr_assert_not_null(o);
	for (const char *k = "abcdefg"; *k; k++) {
		char key[2] = { *k, '\0' };

		cr_assert_eq(ev_json_whole_member(o, key), 0);
	}
	cr_assert_eq(ev_json_whole_member(s, "a"), 0);
	cr_assert_eq(ev_json_whole_member(NULL, "a"), 0);
	t = json_dumps(o, JSON_COMPACT);
	cr_assert_str_eq(t, "{\"a\":3,\"b\":10,\"c\":2.5,\"d\":4,\"e\":\"5\",\"f\":0}");
	free(t);
	json_decref(o);
	json_decref(s);
}
