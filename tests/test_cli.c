/* Tests of lib/cli/cli.c's progress callbacks, which lib/'s modules call
 * with a void *: counted exactly whether or not a line is shown (here,
 * none: the progress is not active). */
#include <criterion/criterion.h>

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
