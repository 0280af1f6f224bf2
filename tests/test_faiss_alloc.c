/* test_faiss_alloc.c: lib/store/faiss_alloc.cpp -- C++ allocations of 2 MB
 * or more (an IVF index's quantizer, read by every search) start on a 2 MB
 * boundary in memory marked for transparent huge pages; smaller ones are
 * malloc()'s.  Called through the mangled name of operator new(size_t),
 * which the program's C++ code (Faiss's) reaches. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *_Znwm(size_t n);	/* operator new(std::size_t) */

#define HUGE_PAGE ((size_t)2 << 20)

/* The VmFlags line of /proc/self/smaps for the mapping holding p ("" when
 * none was found). */
static const char *
vm_flags(const void *p)
{
	static char flags[512];
	char line[512];
	FILE *f = fopen("/proc/self/smaps", "r");
	int in = 0;

	cr_assert_not_null(f);
	flags[0] = '\0';
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(flags, sizeof flags, "%s", line + 8);
			break;
		}
	}
	fclose(f);
	return flags;
}

/* AddressSanitizer's allocator, and its operator new, replace both. */
#ifdef __SANITIZE_ADDRESS__
#define SKIP_UNDER_ASAN() cr_skip_test("AddressSanitizer's operator new is used in this build")
#else
#define SKIP_UNDER_ASAN() ((void)0)
#endif

Test(faiss_alloc, a_large_block_is_aligned_and_marked_for_huge_pages)
{
	char *p;

	SKIP_UNDER_ASAN();
	p = _Znwm(4 << 20);

	cr_assert_not_null(p);
	cr_assert_eq((uintptr_t)p % HUGE_PAGE, 0, "%p is not on a 2 MB boundary", (void *)p);
	memset(p, 1, 4 << 20);	/* usable to its end */
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
		cr_assert_not_null(strstr(vm_flags(p), " hg"), "VmFlags:%s", vm_flags(p));
	free(p);	/* what operator delete does */
}

Test(faiss_alloc, a_small_block_is_mallocs)
{
	char *p;

	SKIP_UNDER_ASAN();
	p = _Znwm(1000);

	cr_assert_not_null(p);
	cr_assert_null(strstr(vm_flags(p), " hg"), "VmFlags:%s", vm_flags(p));
	free(p);
}
