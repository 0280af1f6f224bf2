/* icu.h: the ICU functions evkit calls (word breaks, scripts, letters),
 * loaded from libicuuc on the first call of any of them, not at start.
 *
 * Why: linking ICU costs every command that tokenises about 0.6 ms to start
 * (libicuuc, its 30 MB data library and C++'s runtime mapped and relocated),
 * and a text in a Latin script never calls it: ICU is asked only about
 * characters outside ASCII (a letter's script, a run of Chinese, Japanese
 * or Thai to cut into words).  icu.c defines the functions below under
 * ICU's own (versioned) names; the first call loads the library
 * (lazylib.h: a library that cannot be loaded ends the process, exit 1).
 *
 * Include this header rather than ICU's: it names the ICU headers evkit's
 * calls come from.
 *
 * Low layer: includes lazylib.h's users' contract, ICU's headers. */
#ifndef EV_ICU_H
#define EV_ICU_H

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

/* The functions icu.c defines: ubrk_open, ubrk_close, ubrk_setText,
 * ubrk_first, ubrk_next, u_isalpha and uscript_getScript.  Using another
 * ICU function means adding it there. */

#endif
