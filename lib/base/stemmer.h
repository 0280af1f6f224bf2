/* stemmer.h: the Snowball stemmers (libstemmer) evkit calls, loaded from
 * libstemmer.so on the first call of any of them, not at start.
 *
 * Why: libstemmer's tables of 26 languages hold about 10,000 pointers, each
 * relocated as a program starts, on about 80 pages copied for it: linked
 * into every command, they were 2 ms of CPU and 88 page faults of each
 * process's start (ev-fuse --help: 5.9 ms, 3.9 without them), and a text
 * in English never calls them (English, and the Latin words of Chinese,
 * Japanese and Korean text, are stemmed by FTS5's Porter stemmer).
 * stemmer.c defines the functions below under libstemmer's own names; the
 * first call loads the library (lazylib.h: a library that cannot be loaded
 * ends the process, exit 1, naming the package to install).
 *
 * Include this header rather than libstemmer's.
 *
 * Low layer: includes lazylib.h's users' contract, libstemmer's header. */
#ifndef EV_STEMMER_H
#define EV_STEMMER_H

#include <libstemmer.h>

/* The functions stemmer.c defines: sb_stemmer_new, sb_stemmer_delete,
 * sb_stemmer_stem and sb_stemmer_length.  Using another libstemmer
 * function means adding it there. */

#endif
