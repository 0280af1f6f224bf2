/*
 * Allocation failure for the unit tests linked with malloc, realloc and
 * calloc wrapped (-Wl,--wrap=malloc,--wrap=realloc,--wrap=calloc: see
 * LDLIBS_test_textsearch_nomem in the Makefile): evkit's own allocations go
 * through the wrappers below, the C library's and the shared libraries'
 * (SQLite's, Jansson's) do not.  From fail_arm(at) on they are counted, the
 * at-th failing.  Header only, for the one test file of such a test.
 */
#ifndef EV_TEST_NOMEM_H
#define EV_TEST_NOMEM_H

#include <errno.h>
#include <stdlib.h>

void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_calloc(size_t n, size_t size);

static int counting;		/* allocations are counted (fail_arm()) */
static long fail_at;		/* 0: none fails */
static long allocs;

/* Whether this allocation fails; when it does, errno is ENOMEM, as the C
 * library's malloc leaves it. */
static int
fail_now(void)
{
	if (!counting || ++allocs != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *
__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return n > 0 && fail_now() ? NULL : __real_realloc(p, n);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

/* Count the allocations from now, the at-th failing (0: none). */
static inline void
fail_arm(long at)
{
	allocs = 0;
	fail_at = at;
	counting = 1;
}

/* Stop counting.  Returns the allocations counted. */
static inline long
fail_disarm(void)
{
	counting = 0;
	fail_at = 0;
	return allocs;
}

#endif
