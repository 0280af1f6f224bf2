/* icu.c: ICU, loaded on first use.  See icu.h. */
#include "icu.h"

#include "lazylib.h"

#define ICU_STR2(x) #x
#define ICU_STR(x) ICU_STR2(x)

/* "libicuuc.so.72" for ICU 72: the soname of the headers' version. */
static const char *const libraries[] = { "libicuuc.so." ICU_STR(U_ICU_VERSION_MAJOR_NUM) };
static struct ev_lazylib lib = EV_LAZYLIB(libraries, "libicu" ICU_STR(U_ICU_VERSION_MAJOR_NUM));

/* The real fn (ICU's name: the headers rename it with the version, as
 * "ubrk_open_72", and ICU_STR spells the renamed one). */
#define ICU(fn) EV_LAZYLIB_FN(&lib, real, ICU_STR(fn))

UBreakIterator *
ubrk_open(UBreakIteratorType type, const char *locale, const UChar *text, int32_t len,
    UErrorCode *status)
{
	static UBreakIterator *(*real)(UBreakIteratorType, const char *, const UChar *, int32_t,
	    UErrorCode *);

	return ICU(ubrk_open)(type, locale, text, len, status);
}

void
ubrk_close(UBreakIterator *bi)
{
	static void (*real)(UBreakIterator *);

	ICU(ubrk_close)(bi);
}

void
ubrk_setText(UBreakIterator *bi, const UChar *text, int32_t len, UErrorCode *status)
{
	static void (*real)(UBreakIterator *, const UChar *, int32_t, UErrorCode *);

	ICU(ubrk_setText)(bi, text, len, status);
}

int32_t
ubrk_first(UBreakIterator *bi)
{
	static int32_t (*real)(UBreakIterator *);

	return ICU(ubrk_first)(bi);
}

int32_t
ubrk_next(UBreakIterator *bi)
{
	static int32_t (*real)(UBreakIterator *);

	return ICU(ubrk_next)(bi);
}

UBool
u_isalpha(UChar32 c)
{
	static UBool (*real)(UChar32);

	return ICU(u_isalpha)(c);
}

UScriptCode
uscript_getScript(UChar32 c, UErrorCode *status)
{
	static UScriptCode (*real)(UChar32, UErrorCode *);

	return ICU(uscript_getScript)(c, status);
}
