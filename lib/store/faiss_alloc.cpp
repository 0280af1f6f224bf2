/* faiss_alloc.cpp: C++'s operator new in the commands that link Faiss: an
 * allocation of 2 MB or more is placed on transparent huge pages.
 *
 * Bottom layer: no evkit includes, nothing to call (the linker takes this
 * operator new for every C++ allocation of the program, Faiss's included).
 *
 * Why: reading an IVF index copies its coarse quantizer into a std::vector,
 * 4 MB for 4,096 centroids of 256 dimensions, in every process that searches
 * it.  On 4 KB pages that is a thousand page faults, each page cleared by the
 * kernel, cleared again by the vector and then overwritten by the read, and
 * a thousand pages to unmap at exit: about 2 ms of a 20 ms query.  Aligned to
 * 2 MB and marked MADV_HUGEPAGE it takes two faults.  Smaller allocations go
 * to malloc() as before, and every block is released by the library's
 * operator delete (free()), which takes both kinds. */
#include <cstdlib>
#include <new>

#include <sys/mman.h>

/* Not under AddressSanitizer: its own operator new and delete check that
 * each block is released as it was allocated. */
#ifndef __SANITIZE_ADDRESS__

namespace {

constexpr std::size_t huge_page = std::size_t(2) << 20;

}  // namespace

void *
operator new(std::size_t n)
{
	for (;;) {
		void *p = nullptr;

		if (n >= huge_page) {
			if (posix_memalign(&p, huge_page, n) == 0) {
				/* advice only: a kernel without huge pages ignores it */
				(void)madvise(p, n & ~(huge_page - 1), MADV_HUGEPAGE);
				return p;
			}
		} else if ((p = std::malloc(n != 0 ? n : 1)) != nullptr)
			return p;
		std::new_handler handler = std::get_new_handler();
		if (handler == nullptr)
			throw std::bad_alloc();
		handler();
	}
}

#endif
