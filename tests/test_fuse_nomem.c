/* test_fuse_nomem.c: lib/merge/fuse.c when memory runs out while a hit is
 * added -- the hit is not added, and the accumulator fuses what it held
 * before, as its contract says (malloc and realloc are wrapped at link
 * time: see LDLIBS_test_fuse_nomem in the Makefile).  It reads the
 * accumulator's candidates (fuseint.h) to see that none was left behind. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fuse.h"
#include "fuseint.h"

void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);

static long fail_at;		/* 0: none fail */
static long allocs;

void *
__wrap_malloc(size_t n)
{
	return fail_at > 0 && ++allocs == fail_at ? NULL : __real_malloc(n);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return fail_at > 0 && ++allocs == fail_at ? NULL : __real_realloc(p, n);
}

/* FULL hits fill the accumulator's maps to where the next one makes them
 * grow (they double at 32 keys), so that adding one more allocates. */
#define FULL 32

/* Add the text lane's hit of document dI at rank i + 1; the add's result. */
static int
add_hit(struct ev_fuse *f, const char *doc, int i, struct ev_err *err)
{
	char line[160];
	int n = snprintf(line, sizeof line, "{\"query_id\":\"q\",\"id\":\"%s:1\","
	    "\"doc_id\":\"%s\",\"rank\":%d,\"score\":%d,\"lane\":\"text\"}", doc, doc,
	    i + 1, 1000 - i);

	return ev_fuse_add_line(f, line, (size_t)n, "t:1", err);
}

/* A new accumulator holding the hits of documents d0 .. d(FULL - 1). */
static struct ev_fuse *
full(void)
{
	struct ev_fuse_opts o;
	struct ev_err err = { 0 };
	struct ev_fuse *f;
	char doc[16];

	ev_fuse_opts_init(&o);
	cr_assert_not_null(f = ev_fuse_new(&o, &err));
	cr_assert_eq(ev_fuse_begin(f, "q", &err), 0);
	for (int i = 0; i < FULL; i++) {
		snprintf(doc, sizeof doc, "d%d", i);
		cr_assert_eq(add_hit(f, doc, i, &err), 0, "%s", err.msg);
	}
	return f;
}

/* f's fused output, f freed. */
static char *
fused(struct ev_fuse *f)
{
	struct ev_err err = { 0 };
	struct ev_buf out = EV_BUF_INIT;
	long long n;

	cr_assert_eq(ev_fuse_write(f, &out, &n, &err), 0, "%s", err.msg);
	ev_fuse_free(f);
	return out.p;
}

/* The fused output of full(), then the hit of document "refused" with the
 * at-th allocation from there failing, then the hit of "second"; *failed
 * says whether the first of those two was refused. */
static char *
fuse_with_failure(long at, int *failed)
{
	struct ev_fuse *f = full();
	struct ev_err err = { 0 };

	fail_at = at;
	allocs = 0;
	*failed = add_hit(f, "refused", FULL, &err) == -1;
	fail_at = 0;
	if (*failed) {
		cr_assert_str_eq(err.msg, "out of memory");
		/* no candidate made for it either */
		cr_assert_eq(f->nc, FULL, "allocation %ld failing", at);
		cr_assert_eq(ev_strmap_count(&f->keys), FULL, "allocation %ld failing", at);
	}
	cr_assert_eq(add_hit(f, "second", FULL + 1, &err), 0, "%s", err.msg);
	return fused(f);
}

/* Each allocation of the add failing in turn: the fused output is that of
 * the hits without the refused one, which is nowhere in it. */
Test(fuse_nomem, a_hit_refused_for_memory_leaves_no_trace)
{
	int failed, fails = 0;
	char *want = NULL, *got;

	{
		/* the same hits with the refused one never given */
		struct ev_fuse *f = full();
		struct ev_err err = { 0 };

		cr_assert_eq(add_hit(f, "second", FULL + 1, &err), 0, "%s", err.msg);
		want = fused(f);
	}
	for (long at = 1;; at++) {
		got = fuse_with_failure(at, &failed);
		if (!failed) {
			cr_assert(strstr(got, "\"refused:1\"") != NULL);
			free(got);
			break;
		}
		fails++;
		cr_assert_str_eq(got, want, "allocation %ld failing", at);
		free(got);
	}
	cr_assert_gt(fails, 2, "the add made %d allocations", fails);
	free(want);
}
