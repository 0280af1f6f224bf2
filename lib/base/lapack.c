/* lapack.c: BLAS and LAPACK, loaded on first use.  See lapack.h. */
#include "lapack.h"

#include "lazylib.h"

/* The libraries, most specific first: LAPACK's routines are in the first,
 * BLAS's in the second (and, with OpenBLAS, in both). */
static const char *const libraries[] = { "liblapack.so.3", "libblas.so.3" };
static struct ev_lazylib lib = EV_LAZYLIB(libraries, "liblapack3 or libopenblas0");

/* Each routine: its address found once, then a plain call. */
#define EV_LAPACK_DEFINE(name, params, args)					\
	void name params							\
	{									\
		static void (*real) params;					\
										\
		EV_LAZYLIB_FN(&lib, real, #name) args;				\
	}
EV_LAPACK_ROUTINES(EV_LAPACK_DEFINE)
