/* Tests of lib/cli/cli.c's callbacks for lib/'s modules, which take a
 * void *: progress counted exactly whether or not a line is shown (here,
 * none: the progress is not active), a load's skipping and stepping, and
 * what a failed load says; and of the record loop over each query's hits. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "cli.h"
#include "jsonl.h"
#include "test_util.h"

Test(progress, the_callback_adds_the_items_and_bytes_since_the_last_call)
{
	struct ev_progress p = { 0 };

	ev_progress_cb(&p, 3, 100);
	ev_progress_cb(&p, 2, 50);
	cr_assert_eq(p.done, 5);
	cr_assert_eq(p.bytes, 150);
}

Test(progress, the_so_far_callback_brings_it_to_the_count_given)
{
	struct ev_progress p = { 0 };

	/* ev_postings_build() counts rows so far: 4, then 8, is 8 done */
	ev_progress_so_far_cb(&p, 4);
	ev_progress_so_far_cb(&p, 8);
	cr_assert_eq(p.done, 8);
	cr_assert_eq(p.bytes, 0);
}

/* A bad record (code 2) and a failure (code 1), under the name "t". */
static struct ev_err bad, broken;

static void
load_setup(void)
{
	cr_redirect_stderr();
	ev_progname = "t";
	ev_err_set(&bad, EV_EXIT_USAGE, "in:3", "bad record");
	ev_err_set(&broken, EV_EXIT_RUNTIME, "x.faiss", "disk full");
}

TestSuite(load, .init = load_setup);

Test(load, skipping_counts_bad_records_and_stepping_counts_records_and_bytes)
{
	struct ev_cli_load load = { .bytes_per = 4 };

	cr_assert_eq(ev_cli_load_skip(&load, &bad), 0, "skipping off");
	load.skip.on = 1;
	cr_assert_eq(ev_cli_load_skip(&load, &bad), 1);
	cr_assert_eq(ev_cli_load_skip(&load, &broken), 0, "only bad input is skipped");
	cr_assert_eq(load.skip.count, 1);
	ev_cli_load_step(&load, 3);
	ev_cli_load_step(&load, 5);
	cr_assert_eq(load.progress.done, 2);
	cr_assert_eq(load.progress.bytes, 32);
	fflush(stderr);
	cr_assert_stderr_eq_str("t: in:3: bad record\n");
}

Test(load, a_failed_load_is_reported_and_bad_input_says_nothing_was_loaded)
{
	struct ev_cli_load load = { .bytes_per = 1 };
	int rc = 0;

	cr_assert_eq(ev_cli_load_end(&load, &rc, &bad, "index '%s' is unchanged", "x"), 0,
	    "a read that succeeded");
	cr_assert_eq(rc, 0);
	rc = -1;
	cr_assert_eq(ev_cli_load_end(&load, &rc, &bad, "index '%s' is unchanged", "x"), -1);
	cr_assert_eq(rc, EV_EXIT_USAGE);
	load.skip.on = 1;
	rc = -1;
	cr_assert_eq(ev_cli_load_end(&load, &rc, &bad, "index '%s' is unchanged", "x"), -1);
	cr_assert_eq(rc, EV_EXIT_USAGE);
	rc = -1;
	cr_assert_eq(ev_cli_load_end(&load, &rc, &broken, "index '%s' is unchanged", "x"), -1);
	cr_assert_eq(rc, EV_EXIT_RUNTIME);
	fflush(stderr);
	cr_assert_stderr_eq_str("t: in:3: bad record\n"
	    "t: nothing loaded: index 'x' is unchanged (--skip-invalid skips bad records)\n"
	    "t: in:3: bad record\n"
	    "t: nothing loaded: index 'x' is unchanged\n"
	    "t: x.faiss: disk full\n");
}

/* What flush_record() saw: a line a query, "WHERE: ID ID ...". */
static char flushed[1024];
static int flushes_before_failing = -1;	/* -1: never fails */

/* An ev_cli_query_fn that writes down the hits' ids and where, and fails
 * (code 1) once flushes_before_failing queries have been seen. */
static int
flush_record(void *ctx, json_t *hits, const char *where, struct ev_buf *out, struct ev_err *err)
{
	size_t i;
	json_t *h;

	(void)ctx;
	cr_assert_eq(out->len, 0, "an empty buffer each query");
	if (flushes_before_failing-- == 0)
		return ev_err_set(err, EV_EXIT_RUNTIME, "t.faiss", "disk full");
	cr_assert_eq(ev_buf_printf(out, "%s:", strrchr(where, ':') + 1), 0);
	json_array_foreach(hits, i, h)
		cr_assert_eq(ev_buf_printf(out, " %s", json_string_value(json_object_get(h, "id"))), 0);
	cr_assert_eq(ev_buf_adds(out, "\n"), 0);
	snprintf(flushed + strlen(flushed), sizeof flushed - strlen(flushed), "%s", ev_buf_str(out));
	return 0;
}

/* Runs ev_cli_query_hits() over a file holding text, with skipping as
 * skip_invalid; returns its exit code, the records counted in *nhits and
 * the skipped ones in *skipped. */
static int
query_hits(const char *text, int skip_invalid, long long *nhits, long long *skipped)
{
	char path[] = "/tmp/evkit-cli-XXXXXX.jsonl", *files[] = { path };
	struct ev_cli cli = { .prog = "t", .counts = json_object() };
	struct ev_err err = { 0 };
	struct ev_jsonl *in;
	int rc;

	tu_tmpfile(path, 6, text, strlen(text));
	in = ev_jsonl_open(files, 1, &err);
	cr_assert_not_null(in, "%s", err.msg);
	flushed[0] = '\0';
	*nhits = 0;
	rc = ev_cli_query_hits(&cli, in, skip_invalid, NULL, flush_record, NULL, nhits);
	*skipped = json_integer_value(json_object_get(cli.counts, "skipped"));
	json_decref(cli.counts);
	ev_jsonl_close(in);
	return rc;
}

#define HIT(q, id) "{\"query_id\":\"" q "\",\"id\":\"" id "\",\"score\":1}\n"

static void
query_hits_setup(void)
{
	load_setup();
	cr_redirect_stdout();
}

TestSuite(query_hits, .init = query_hits_setup, .fini = tu_tmpfiles_remove);

Test(query_hits, each_run_of_one_query_id_is_flushed_once_with_its_last_line)
{
	long long n, skipped;

	cr_assert_eq(query_hits(HIT("q1", "a") HIT("q1", "b") HIT("q2", "c") HIT("q3", "d"), 0,
	    &n, &skipped), EV_EXIT_OK);
	cr_assert_str_eq(flushed, "2: a b\n3: c\n4: d\n");
	cr_assert_eq(n, 4);
	cr_assert_eq(skipped, 0);
	cr_assert_eq(query_hits("", 0, &n, &skipped), EV_EXIT_OK);
	cr_assert_str_eq(flushed, "", "no hits, no query");
	fflush(stdout);
	cr_assert_stdout_eq_str("2: a b\n3: c\n4: d\n", "what flush put in out, written");
}

Test(query_hits, a_query_that_comes_back_is_a_bad_record)
{
	long long n, skipped;

	cr_assert_eq(query_hits(HIT("q1", "a") HIT("q2", "b") HIT("q1", "c"), 0, &n, &skipped),
	    EV_EXIT_USAGE);
	cr_assert_str_eq(flushed, "1: a\n2: b\n", "the queries before it, not q1 a second time");
	cr_assert_eq(skipped, 0);
	cr_assert_eq(query_hits(HIT("q1", "a") HIT("q2", "b") HIT("q1", "c") HIT("q2", "d")
	    HIT("q3", "e"), 1, &n, &skipped), EV_EXIT_OK);
	cr_assert_str_eq(flushed, "1: a\n2: b\n5: e\n", "q2 after the skipped q1 comes back too");
	cr_assert_eq(skipped, 2);
}

Test(query_hits, a_bad_record_ends_the_loop_unless_skipped)
{
	long long n, skipped;

	cr_assert_eq(query_hits(HIT("q1", "a") HIT("q2", "b") "{\"id\":\"c\"}\n" HIT("q2", "d"),
	    1, &n, &skipped), EV_EXIT_OK);
	cr_assert_str_eq(flushed, "1: a\n4: b d\n");
	cr_assert_eq(n, 3);
	cr_assert_eq(skipped, 1);
	cr_assert_eq(query_hits(HIT("q1", "a") HIT("q2", "b") "{\"id\":\"c\"}\n" HIT("q2", "d"),
	    0, &n, &skipped), EV_EXIT_USAGE);
	cr_assert_str_eq(flushed, "1: a\n", "the query the bad record stopped is not flushed");
	cr_assert_eq(n, 2);
	cr_assert_eq(skipped, 0);
}

Test(query_hits, a_failed_flush_ends_the_loop_and_is_reported)
{
	long long n, skipped;

	flushes_before_failing = 1;
	cr_assert_eq(query_hits(HIT("q1", "a") HIT("q2", "b") HIT("q3", "c"), 0, &n, &skipped),
	    EV_EXIT_RUNTIME);
	cr_assert_str_eq(flushed, "1: a\n");
	cr_assert_eq(n, 2, "the record that began the next query was read");
	fflush(stderr);
	cr_assert_stderr_eq_str("t: t.faiss: disk full\n");
}

/* Standard input read once: a flag's "-" passes only with files for the
 * operands; each refusal is a usage error, exit 2, saying which. */
Test(stdin_once, a_flag_s_stdin_passes_with_files_and_with_no_dash)
{
	struct ev_cli cli = { .prog = "t" };
	char *files[] = { "a.jsonl", "b.jsonl" }, *none[] = { NULL };

	ev_cli_stdin_once(&cli, "--qrels", "-", "the judgements", "the run", files, 2);
	ev_cli_stdin_once(&cli, "--qrels", "q.txt", "the judgements", "the run", none, 0);
	ev_cli_stdin_once(&cli, "--qrels", NULL, "the judgements", "the run", none, 0);
}

Test(stdin_once, no_operand_is_refused, .init = cr_redirect_stderr, .exit_code = 2)
{
	struct ev_cli cli = { .prog = "t" };
	char *none[] = { NULL };

	ev_cli_stdin_once(&cli, "--qrels", "-", "the judgements", "the run", none, 0);
}

Test(stdin_once, an_operand_dash_is_refused, .init = cr_redirect_stderr, .exit_code = 2)
{
	struct ev_cli cli = { .prog = "t" };
	char *files[] = { "a.jsonl", "-" };

	ev_cli_stdin_once(&cli, "--queries", "-", "the queries", "the hits", files, 2);
}

Test(parse, an_option_number_is_plain_decimal)
{
	static const char *const reals[] = { "1", "-1.5", "+2", "1e-1", "2.5E+1", ".5", "2.", "0",
		NULL };
	static const double values[] = { 1, -1.5, 2, 0.1, 25, 0.5, 2, 0 };
	static const char *const bad[] = { "", " 1", "\t1", "\n1", "1 ", "1\t", "0x1p0", "0x1",
		"0X1P-1", "inf", "-Infinity", "nan", "1e", "1e+", ".", "-", "+", "e1", "1.2.3", "1,5",
		"1_000", "--1", "1e1.5", NULL };
	static const char *const counts[] = { "7", "+7", "-3", "0", "007", NULL };
	static const long long whole[] = { 7, 7, -3, 0, 7 };
	static const char *const bad_counts[] = { "", " 7", "\t7", "7 ", "0x7", "7.0", "7e0",
		"1.5", "inf", "+", "-", "--7", "7\n", NULL };
	double x;
	long long n;

	for (int i = 0; reals[i]; i++) {
		cr_assert_eq(ev_parse_double(reals[i], -100, 100, &x), 0, "'%s'", reals[i]);
		cr_assert_float_eq(x, values[i], 1e-12, "'%s'", reals[i]);
	}
	for (int i = 0; bad[i]; i++)
		cr_assert_eq(ev_parse_double(bad[i], -100, 100, &x), -1, "'%s'", bad[i]);
	for (int i = 0; counts[i]; i++) {
		cr_assert_eq(ev_parse_count(counts[i], -100, 100, &n), 0, "'%s'", counts[i]);
		cr_assert_eq(n, whole[i], "'%s'", counts[i]);
	}
	for (int i = 0; bad_counts[i]; i++)
		cr_assert_eq(ev_parse_count(bad_counts[i], -100, 100, &n), -1, "'%s'", bad_counts[i]);
	cr_assert_eq(ev_parse_double("1e400", -1e308, 1e308, &x), -1);
	/* too small for a double is its nearest, not out of range */
	cr_assert_eq(ev_parse_double("1e-400", 0, 1, &x), 0);
	cr_assert_eq(x, 0);
	cr_assert_eq(ev_parse_double("-1e-400", -1, 1, &x), 0);
	cr_assert_eq(x, 0);
	cr_assert_eq(ev_parse_count("99999999999999999999", 0, 100, &n), -1);
}
