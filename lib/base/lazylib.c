/* lazylib.c: libraries loaded on first use.  See lazylib.h. */
#include "lazylib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Report that name cannot be had from lib, and end the process. */
static void
unavailable(const struct ev_lazylib *lib, const char *name, const char *why)
{
	fprintf(stderr, "%s: cannot load %s (%s); is Debian's %s installed? ('make deps'"
	    " installs it)\n", program_invocation_short_name, name,
	    why != NULL ? why : "unknown error", lib->package);
	exit(1);
}

void *
ev_lazylib_symbol(struct ev_lazylib *lib, const char *name)
{
	void *fn = NULL;

	pthread_mutex_lock(&lib->mu);
	for (size_t i = 0; !lib->loaded && i < lib->n; i++)
		if ((lib->handle[i] = dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL)) == NULL)
			unavailable(lib, lib->sonames[i], dlerror());
	lib->loaded = 1;
	for (size_t i = 0; i < lib->n && fn == NULL; i++)
		fn = dlsym(lib->handle[i], name);
	pthread_mutex_unlock(&lib->mu);
	if (fn == NULL)
		unavailable(lib, name, dlerror());
	return fn;
}
