/* Tests of lib/cli/cli.c's callbacks for lib/'s modules, which take a
 * void *: progress counted exactly whether or not a line is shown (here,
 * none: the progress is not active), a load's skipping and stepping, and
 * what a failed load says. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "cli.h"

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
