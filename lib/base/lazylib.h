/* lazylib.h: a system library loaded on the first call of one of its
 * functions, not when the program starts.
 *
 * Why: every shared library a program links is mapped and relocated before
 * main(), whether or not the run needs it.  OpenBLAS costs about 4 ms and a
 * spinning thread (lapack.h); ICU about 0.6 ms and C++'s runtime with it
 * (icu.h), though a query in English never calls it.  A command starts
 * about 1 ms sooner for each of these it leaves unloaded.
 *
 * A module defines each function it wants under the library's own name,
 * finding the real one with ev_lazylib_symbol() on its first call.  A
 * library that cannot be loaded, or a function it lacks, ends the process
 * with exit status 1 and a message naming the Debian package to install:
 * such functions have no way to report a failure.
 *
 * Bottom layer: includes nothing of evkit's. */
#ifndef EV_LAZYLIB_H
#define EV_LAZYLIB_H

#include <pthread.h>
#include <stddef.h>
#include <string.h>

#define EV_LAZYLIB_MAX 4	/* sonames of one library */

struct ev_lazylib {
	const char *const *sonames;	/* tried in order for each symbol */
	size_t n;
	const char *package;		/* what to install, for the message */
	pthread_mutex_t mu;
	int loaded;
	void *handle[EV_LAZYLIB_MAX];
};

/* A static struct ev_lazylib of the array sonames (at most EV_LAZYLIB_MAX)
 * and the package that installs them. */
#define EV_LAZYLIB(sonames, package)						\
	{ sonames, sizeof sonames / sizeof sonames[0], package,			\
	  PTHREAD_MUTEX_INITIALIZER, 0, { NULL } }

/* The address of symbol name in lib (the first of its sonames that has it),
 * every soname loaded on the first call (from any thread).  Never returns
 * NULL: exits 1 instead (see above). */
void *ev_lazylib_symbol(struct ev_lazylib *lib, const char *name);

/* The address of function name in lib, of the type of the variable fn
 * (a static function pointer of the caller's, NULL at first): found once
 * and kept in fn; threads racing to find it find the same address. */
#define EV_LAZYLIB_FN(lib, fn, name)						\
	({									\
		__typeof__(fn) found_ = __atomic_load_n(&(fn), __ATOMIC_ACQUIRE); \
										\
		if (found_ == NULL) {						\
			void *sym_ = ev_lazylib_symbol(lib, name);		\
										\
			memcpy(&found_, &sym_, sizeof found_);			\
			__atomic_store_n(&(fn), found_, __ATOMIC_RELEASE);	\
		}								\
		found_;								\
	})

#endif
