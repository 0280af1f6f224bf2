/* stemmer.c: libstemmer, loaded on first use.  See stemmer.h. */
#include "stemmer.h"

#include "lazylib.h"

static const char *const libraries[] = { "libstemmer.so.0d" };
static struct ev_lazylib lib = EV_LAZYLIB(libraries, "libstemmer0d");

struct sb_stemmer *
sb_stemmer_new(const char *algorithm, const char *charenc)
{
	static struct sb_stemmer *(*real)(const char *, const char *);

	return EV_LAZYLIB_FN(&lib, real, "sb_stemmer_new")(algorithm, charenc);
}

void
sb_stemmer_delete(struct sb_stemmer *stemmer)
{
	static void (*real)(struct sb_stemmer *);

	EV_LAZYLIB_FN(&lib, real, "sb_stemmer_delete")(stemmer);
}

const sb_symbol *
sb_stemmer_stem(struct sb_stemmer *stemmer, const sb_symbol *word, int size)
{
	static const sb_symbol *(*real)(struct sb_stemmer *, const sb_symbol *, int);

	return EV_LAZYLIB_FN(&lib, real, "sb_stemmer_stem")(stemmer, word, size);
}

int
sb_stemmer_length(struct sb_stemmer *stemmer)
{
	static int (*real)(struct sb_stemmer *);

	return EV_LAZYLIB_FN(&lib, real, "sb_stemmer_length")(stemmer);
}
