/* Tests of lib/base/note.c: notes for the user handed from lib/ to the command. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "note.h"

static char got[8192];
static int calls;

static void
keep(void *ctx, const char *msg)
{
	cr_assert_eq(ctx, got, "the caller's context is handed back");
	snprintf(got, sizeof got, "%s", msg);
	calls++;
}

Test(note, formats_one_line_for_the_receiver)
{
	calls = 0;
	ev_note(keep, got, "%s: skipped %lld file%s", "docs", 3LL, "s");
	cr_assert_eq(calls, 1);
	cr_assert_str_eq(got, "docs: skipped 3 files");
}

Test(note, no_receiver_no_note)
{
	calls = 0;
	ev_note(NULL, NULL, "%s", "lost");
	cr_assert_eq(calls, 0);
}

Test(note, a_long_note_is_cut_not_overrun)
{
	static char path[6000];

	memset(path, 'a', sizeof path - 1);
	ev_note(keep, got, "%s: same text", path);
	cr_assert_eq(strlen(got), 4399, "cut at 4 KB and a bit");
	cr_assert_eq(strspn(got, "a"), 4399);
}
