/* test_strmap.c: lib/base/strmap.c -- numbering in order of first sight,
 * growth (keys' copies staying put), keys that collide, keys of any bytes,
 * reset, and every allocation failing in turn (malloc and realloc are
 * wrapped at link time: see LDLIBS_test_strmap in the Makefile). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

/* ---- allocation failure: the fail_at-th allocation from now fails ---- */

void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);

static long fail_at;		/* 0: none fail */
static long allocs;

static int
fail_now(void)
{
	return fail_at > 0 && ++allocs == fail_at;
}

void *
__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

static void
fail_arm(long n)
{
	fail_at = n;
	allocs = 0;
}

/* ---- helpers ---- */

static void
key_of(char *s, size_t size, long i)
{
	snprintf(s, size, "key-%ld", i);
}

/* Every key 0..n-1 of key_of() is in m under its own number. */
static void
assert_keys(const struct ev_strmap *m, long n)
{
	char k[32];

	cr_assert_eq(ev_strmap_count(m), (uint32_t)n);
	for (long i = 0; i < n; i++) {
		key_of(k, sizeof k, i);
		cr_assert_eq(ev_strmap_find(m, k, strlen(k)), i, "%s", k);
		cr_assert_str_eq(ev_strmap_key(m, (int32_t)i), k);
		cr_assert_eq(ev_strmap_len(m, (int32_t)i), strlen(k));
	}
}

Test(strmap, empty_map_finds_nothing)
{
	struct ev_strmap m = EV_STRMAP_INIT;

	cr_assert_eq(ev_strmap_find(&m, "a", 1), -1);
	cr_assert_eq(ev_strmap_count(&m), 0);
	ev_strmap_reset(&m);
	ev_strmap_release(&m);
	ev_strmap_release(NULL);
}

Test(strmap, numbers_in_order_of_first_sight)
{
	struct ev_strmap m = EV_STRMAP_INIT;
	int added;

	cr_assert_eq(ev_strmap_add(&m, "b", 1, &added), 0);
	cr_assert_eq(added, 1);
	cr_assert_eq(ev_strmap_add(&m, "a", 1, &added), 1);
	cr_assert_eq(added, 1);
	cr_assert_eq(ev_strmap_add(&m, "b", 1, &added), 0);
	cr_assert_eq(added, 0);
	cr_assert_eq(ev_strmap_count(&m), 2);
	/* a prefix, an extension and the empty key are keys of their own */
	cr_assert_eq(ev_strmap_add(&m, "bb", 2, NULL), 2);
	cr_assert_eq(ev_strmap_add(&m, "", 0, NULL), 3);
	cr_assert_eq(ev_strmap_find(&m, "", 0), 3);
	cr_assert_eq(ev_strmap_find(&m, "bb", 1), 0);
	cr_assert_eq(ev_strmap_find(&m, "bbb", 3), -1);
	cr_assert_str_eq(ev_strmap_key(&m, 3), "");
	ev_strmap_release(&m);
}

Test(strmap, growth_keeps_every_key_and_its_number)
{
	struct ev_strmap m = EV_STRMAP_INIT;
	const char *first;
	char k[32];

	cr_assert_eq(ev_strmap_add(&m, "key-0", 5, NULL), 0);
	first = ev_strmap_key(&m, 0);
	for (long i = 1; i < 100000; i++) {
		key_of(k, sizeof k, i);
		cr_assert_eq(ev_strmap_add(&m, k, strlen(k), NULL), i);
	}
	assert_keys(&m, 100000);
	cr_assert_eq(ev_strmap_key(&m, 0), first, "a key's copy moved");
	cr_assert_eq(ev_strmap_find(&m, "key-100000", 10), -1);
	cr_assert_geq(m.cap, 2 * m.n);
	ev_strmap_release(&m);
}

Test(strmap, keys_of_one_hash_are_told_apart)
{
	struct ev_strmap m = EV_STRMAP_INIT;
	const uint64_t h = 0x123456789abcdef0ULL;	/* every key hashes alike */
	char k[32];

	for (long i = 0; i < 500; i++) {
		key_of(k, sizeof k, i);
		cr_assert_eq(ev_strmap_add_h(&m, k, strlen(k), h, NULL), i);
	}
	for (long i = 0; i < 500; i++) {
		key_of(k, sizeof k, i);
		cr_assert_eq(ev_strmap_find_h(&m, k, strlen(k), h), i);
		cr_assert_eq(ev_strmap_add_h(&m, k, strlen(k), h, NULL), i);
	}
	cr_assert_eq(ev_strmap_find_h(&m, "key-500", 7, h), -1);
	cr_assert_eq(ev_strmap_count(&m), 500);
	ev_strmap_release(&m);
}

Test(strmap, keys_of_any_bytes)
{
	struct ev_strmap m = EV_STRMAP_INIT;
	unsigned char all[255], nul[] = { 'a', 0, 'b' }, nul2[] = { 'a', 0, 'c' };

	for (int i = 0; i < 255; i++)
		all[i] = (unsigned char)(255 - i);	/* every byte but NUL, high bytes first */
	cr_assert_eq(ev_strmap_add(&m, all, sizeof all, NULL), 0);
	cr_assert_eq(ev_strmap_add(&m, nul, sizeof nul, NULL), 1);
	cr_assert_eq(ev_strmap_add(&m, nul2, sizeof nul2, NULL), 2);
	cr_assert_eq(ev_strmap_add(&m, "a", 1, NULL), 3);	/* not nul's prefix */
	cr_assert_eq(ev_strmap_find(&m, all, sizeof all), 0);
	cr_assert_eq(ev_strmap_find(&m, all, sizeof all - 1), -1);
	cr_assert_eq(ev_strmap_find(&m, nul, sizeof nul), 1);
	cr_assert_eq(ev_strmap_find(&m, nul2, sizeof nul2), 2);
	cr_assert_eq(memcmp(ev_strmap_key(&m, 0), all, sizeof all), 0);
	cr_assert_eq(ev_strmap_key(&m, 0)[sizeof all], '\0');
	cr_assert_eq(ev_strmap_len(&m, 1), 3);
	ev_strmap_release(&m);
}

Test(strmap, reset_forgets_and_numbers_again)
{
	struct ev_strmap m = EV_STRMAP_INIT;
	char k[32];

	for (long i = 0; i < 1000; i++) {
		key_of(k, sizeof k, i);
		ev_strmap_add(&m, k, strlen(k), NULL);
	}
	ev_strmap_reset(&m);
	cr_assert_eq(ev_strmap_count(&m), 0);
	cr_assert_eq(ev_strmap_find(&m, "key-1", 5), -1);
	cr_assert_eq(ev_strmap_add(&m, "key-999", 7, NULL), 0);
	cr_assert_eq(ev_strmap_find(&m, "key-0", 5), -1);
	cr_assert_eq(ev_strmap_find(&m, "key-999", 7), 0);
	ev_strmap_release(&m);
}

/* Dropping the key added last, at every size from 1 to 200 (so also just
 * after the slots grew), and among keys of one hash (one probe chain):
 * the other keys keep their numbers, the dropped one is gone, and adding it
 * again gives it the same number. */
Test(strmap, drop_last_undoes_the_last_add)
{
	struct ev_strmap m = EV_STRMAP_INIT, same = EV_STRMAP_INIT;
	char k[32];

	for (long n = 1; n <= 200; n++) {
		key_of(k, sizeof k, n - 1);
		cr_assert_eq(ev_strmap_add(&m, k, strlen(k), NULL), n - 1);
		ev_strmap_drop_last(&m);
		assert_keys(&m, n - 1);
		cr_assert_eq(ev_strmap_find(&m, k, strlen(k)), -1, "%s", k);
		cr_assert_eq(ev_strmap_add(&m, k, strlen(k), NULL), n - 1);
		assert_keys(&m, n);

		cr_assert_eq(ev_strmap_add_h(&same, k, strlen(k), 7, NULL), n - 1);
		ev_strmap_drop_last(&same);
		cr_assert_eq(ev_strmap_find_h(&same, k, strlen(k), 7), -1, "%s", k);
		cr_assert_eq(ev_strmap_add_h(&same, k, strlen(k), 7, NULL), n - 1);
		for (long i = 0; i < n; i++) {
			key_of(k, sizeof k, i);
			cr_assert_eq(ev_strmap_find_h(&same, k, strlen(k), 7), i, "%s", k);
		}
	}
	ev_strmap_release(&m);
	ev_strmap_drop_last(&m);	/* empty: nothing */
	cr_assert_eq(ev_strmap_count(&m), 0);
	ev_strmap_release(&same);
}

/* Make the nth allocation fail while keys are added: the add that meets it
 * returns -1 and leaves the map as it was; with the failure gone, adding
 * goes on from there. */
Test(strmap, every_allocation_failing_in_turn_leaves_the_map_as_it_was)
{
	char k[48];
	long n, failed;

	for (n = 1;; n++) {
		struct ev_strmap m = EV_STRMAP_INIT;
		long i;

		failed = -1;
		fail_arm(n);
		for (i = 0; i < 3000; i++) {
			key_of(k, sizeof k, i);
			/* long keys too, so that the pool grows */
			if (i % 7 == 0)
				snprintf(k, sizeof k, "key-%ld-%020ld", i, i);
			if (ev_strmap_add(&m, k, strlen(k), NULL) == -1) {
				failed = i;
				break;
			}
		}
		fail_arm(0);
		if (failed == -1) {	/* the adds make fewer than n allocations */
			ev_strmap_release(&m);
			break;
		}
		cr_assert_eq(ev_strmap_count(&m), (uint32_t)failed);
		cr_assert_eq(ev_strmap_find(&m, k, strlen(k)), -1);
		for (i = 0; i < failed; i++) {
			char j[48];

			key_of(j, sizeof j, i);
			if (i % 7 == 0)
				snprintf(j, sizeof j, "key-%ld-%020ld", i, i);
			cr_assert_eq(ev_strmap_find(&m, j, strlen(j)), i);
		}
		cr_assert_eq(ev_strmap_add(&m, k, strlen(k), NULL), failed);
		cr_assert_eq(ev_strmap_find(&m, k, strlen(k)), failed);
		ev_strmap_release(&m);
	}
	/* the slots, the per-key arrays and the arena's blocks grew many times */
	cr_assert_gt(n, 30, "only %ld allocations", n - 1);
}
