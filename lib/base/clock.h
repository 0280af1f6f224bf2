/* clock.h: the wall clock as RFC 3339 UTC times, for the times a record
 * carries: when a lane retrieved its hits ("retrieved_at", with
 * milliseconds: "2026-11-29T02:10:33.123Z") and when a pack was made.
 *
 * A testing aid fixes the clock for every command alike: the environment
 * variable EV_FIXED_TIME, when it holds an RFC 3339 time (ev_clock_parse()),
 * is taken as now.
 *
 * Bottom layer: includes nothing of evkit. */
#ifndef EV_CLOCK_H
#define EV_CLOCK_H

#include <stddef.h>

/* Room for any time ev_clock_format_ms() writes, with its '\0'. */
#define EV_CLOCK_STAMP_MAX 32

/* The time s, RFC 3339 ("2026-11-29T02:10:33Z", "2026-11-29T02:10:33.123Z",
 * "2026-11-29T03:10:33.5+01:00": a date, 'T' (or 't'), a time of day, an
 * optional fraction of a second of 1 to 9 digits, and 'Z' (or 'z') or an
 * offset), as Unix time in milliseconds (the fraction cut to milliseconds)
 * into *ms.  Months, days, hours, minutes and seconds must be in range (a
 * leap second, :60, is read as :59.999).  Returns 0, or -1 when s is not
 * such a time (*ms unchanged). */
int ev_clock_parse(const char *s, long long *ms);

/* Whether s is a date as a document's published_date and a filter on it
 * take one: "YYYY", "YYYY-MM" or "YYYY-MM-DD", the last optionally followed
 * by 'T' (or 't' or a space) and a time of day, "HH", "HH:MM" or
 * "HH:MM:SS", then perhaps a fraction ('.' or ',' and digits) and perhaps a
 * zone ("Z", or '+' or '-' and "HH", "HHMM" or "HH:MM"), and nothing more.
 * The month must be 01 to 12, the day one of that month's (29 February only
 * in a leap year), the hour 00 to 23, the minute 00 to 59 and the second 00
 * to 60 (a leap second), a zone's hours 00 to 23 and minutes 00 to 59.  Returns 1 when it is, 0 when not (or s is NULL). */
int ev_clock_date_ok(const char *s);

/* The moment the date s names (as ev_clock_date_ok() takes it), in days
 * since 1970-01-01 00:00 UTC: a year is its first day, a month its first
 * day, a date its midnight, a time of day (and its fraction) a fraction of
 * the day, a zone taken off (none is UTC).  Returns 0 with *days set, or -1
 * when s is no such date (*days unchanged). */
int ev_clock_date_days(const char *s, double *days);

/* The span of time the date s names (as ev_clock_date_ok() takes it), in
 * days since 1970-01-01 00:00 UTC, at its own precision: *start is the
 * moment ev_clock_date_days() gives, *end the moment just after the span (a
 * year's next year, a month's next month, a date's next day, a time's next
 * hour, minute or second, whichever it ends at, or the next unit of its
 * fraction's last digit: "2021-06-30T10:00:01.5" ends at 10:00:01.6), a
 * zone taken off both.  Returns 0 with both set, or -1 when s is no such
 * date (both unchanged). */
int ev_clock_date_span(const char *s, double *start, double *end);

/* The moment days (in days since 1970-01-01 UTC, as ev_clock_date_days()
 * gives it) to the millisecond: the millisecond it falls in (a finer
 * fraction cut off, "23:59:59.9999" is in 23:59:59.999), after what a
 * double's rounding takes off (a moment within a microsecond below a
 * millisecond is that millisecond), so that two spellings of one moment
 * are one millisecond. */
long long ev_clock_days_ms(double days);

/* Unix time ms (milliseconds, years 0 to 9999) as RFC 3339 UTC with
 * milliseconds, "YYYY-MM-DDTHH:MM:SS.mmmZ", into buf (size at least
 * EV_CLOCK_STAMP_MAX). */
void ev_clock_format_ms(long long ms, char *buf, size_t size);

/* Now as Unix time in milliseconds: EV_FIXED_TIME's when it fixes the
 * clock (*fixed set to 1), else the system's real-time clock (*fixed 0).
 * fixed may be NULL. */
long long ev_clock_now_ms(int *fixed);

/* Now (ev_clock_now_ms()) as ev_clock_format_ms() writes it: the stamp a
 * lane gives the hits of one query, made once per query. */
void ev_clock_stamp(char *buf, size_t size);

#endif
