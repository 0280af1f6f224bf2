/* lapack.c: BLAS and LAPACK, loaded on first use.  See lapack.h. */
#include "lapack.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* The libraries, most specific first: LAPACK's routines are in the first,
 * BLAS's in the second (and, with OpenBLAS, in both). */
static const char *const libraries[] = { "liblapack.so.3", "libblas.so.3" };
#define NLIB (sizeof libraries / sizeof libraries[0])

static void *handle[NLIB];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* Report that name cannot be had, and end the process. */
static void
unavailable(const char *name, const char *why)
{
	fprintf(stderr, "%s: cannot load %s (%s); is Debian's liblapack3 or libopenblas0"
	    " installed? ('make deps' installs it)\n", program_invocation_short_name, name,
	    why != NULL ? why : "unknown error");
	exit(1);
}

static void
load(void)
{
	for (size_t i = 0; i < NLIB; i++)
		if ((handle[i] = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL)) == NULL)
			unavailable(libraries[i], dlerror());
}

/* The address of routine name, the libraries loaded on the first call. */
static void *
routine(const char *name)
{
	void *fn = NULL;

	pthread_once(&load_once, load);
	for (size_t i = 0; i < NLIB && fn == NULL; i++)
		fn = dlsym(handle[i], name);
	if (fn == NULL)
		unavailable(name, dlerror());
	return fn;
}

/* Each routine: its address found once (threads racing to find it find the
 * same), then a plain call. */
#define EV_LAPACK_DEFINE(name, params, args)					\
	void name params							\
	{									\
		static void (*real) params;					\
		void (*fn) params = __atomic_load_n(&real, __ATOMIC_ACQUIRE);	\
										\
		if (fn == NULL) {						\
			*(void **)&fn = routine(#name);				\
			__atomic_store_n(&real, fn, __ATOMIC_RELEASE);		\
		}								\
		fn args;							\
	}
EV_LAPACK_ROUTINES(EV_LAPACK_DEFINE)
