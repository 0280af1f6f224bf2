/* failmalloc.c: an LD_PRELOAD shim that makes one allocation fail, for the
 * allocation-failure tests (tests/alloc/run.sh).
 *
 * Every malloc, calloc, realloc (to a non-zero size), posix_memalign,
 * aligned_alloc and memalign of the process is counted, whoever calls it:
 * evkit, Jansson, SQLite, libyaml, the C library.  With EV_FAILMALLOC_AT=N the
 * Nth one returns NULL (ENOMEM); with EV_FAILMALLOC_PERSIST=1 every one from
 * the Nth on does, as when memory is really exhausted.  With
 * EV_FAILMALLOC_COUNT=FILE the number of allocations made is written to FILE
 * at exit, so the runner knows how far N goes.  Only allocations of programs
 * named ev-*, from the start of main() on, are counted (the shim wraps __libc_start_main): what
 * shared libraries allocate while they are loaded (libgfortran, libstdc++)
 * happens before any evkit code can report anything.  The real work is done
 * by glibc's __libc_* functions. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static unsigned long calls, fail_at;
static int persist, ready, armed;

static void
setup(void)
{
	const char *s;

	ready = 1;
	if ((s = getenv("EV_FAILMALLOC_AT")) != NULL)
		fail_at = strtoul(s, NULL, 10);
	persist = (s = getenv("EV_FAILMALLOC_PERSIST")) != NULL && *s == '1';
}

/* Whether this allocation is the one to fail. */
static int
should_fail(void)
{
	if (!armed)
		return 0;
	if (!ready)
		setup();
	calls++;
	if (fail_at == 0)
		return 0;
	return persist ? calls >= fail_at : calls == fail_at;
}

/* Whether this allocation fails; when it does, errno is ENOMEM. */
static int
failing(void)
{
	if (!should_fail())
		return 0;
	errno = ENOMEM;
	return 1;
}

void *
malloc(size_t n)
{
	return failing() ? NULL : __libc_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	return failing() ? NULL : __libc_calloc(n, size);
}

void *
realloc(void *p, size_t n)
{
	return n > 0 && failing() ? NULL : __libc_realloc(p, n);
}

void
free(void *p)
{
	__libc_free(p);
}

void *
memalign(size_t align, size_t n)
{
	return failing() ? NULL : __libc_memalign(align, n);
}

void *
aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

int
posix_memalign(void **out, size_t align, size_t n)
{
	void *p = memalign(align, n);

	if (p == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}

typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void), void *);
static main_fn real_main;

/* Only evkit's commands are armed: not timeout(1) or a shell that the
 * runner starts them with (LD_PRELOAD reaches those too). */
static int
wrap_main(int argc, char **argv, char **envp)
{
	const char *base = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;

	base = base ? base + 1 : argc > 0 && argv[0] ? argv[0] : "";
	armed = strncmp(base, "ev-", 3) == 0;
	return real_main(argc, argv, envp);
}

int
__libc_start_main(main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
    void (*rtld_fini)(void), void *stack_end)
{
	start_fn next = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");

	real_main = main;
	return next(wrap_main, argc, argv, init, fini, rtld_fini, stack_end);
}

__attribute__((destructor)) static void
report(void)
{
	const char *path = getenv("EV_FAILMALLOC_COUNT");
	char buf[32];
	int fd, len;

	if (path == NULL)
		return;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		return;
	len = snprintf(buf, sizeof buf, "%lu\n", calls);
	if (write(fd, buf, (size_t)len) != len)
		len = 0;
	close(fd);
}
