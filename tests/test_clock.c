/* Unit tests: clock.c (RFC 3339 times, the lanes' retrieved_at stamps). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

static long long
parsed(const char *s)
{
	long long ms = -42;

	cr_assert_eq(ev_clock_parse(s, &ms), 0, "%s", s);
	return ms;
}

Test(clock, parse_reads_rfc3339_to_the_millisecond)
{
	cr_assert_eq(parsed("1970-01-01T00:00:00Z"), 0);
	cr_assert_eq(parsed("2026-11-29T02:10:33Z"), 1795918233000LL);
	cr_assert_eq(parsed("2026-11-29T02:10:33.123Z"), 1795918233123LL);
	cr_assert_eq(parsed("2026-11-29T02:10:33.1239z"), 1795918233123LL);	/* cut, not rounded */
	cr_assert_eq(parsed("2026-11-29t03:10:33.5+01:00"), 1795918233500LL);
	cr_assert_eq(parsed("2026-11-28T21:40:33-04:30"), 1795918233000LL);
	cr_assert_eq(parsed("2024-02-29T00:00:00Z"), 1709164800000LL);	/* a leap day */
	cr_assert_eq(parsed("2016-12-31T23:59:60Z"), 1483228799999LL);	/* a leap second */
	cr_assert_eq(parsed("1969-12-31T23:59:59.250Z"), -750);
}

Test(clock, parse_refuses_what_is_not_such_a_time)
{
	static const char *const bad[] = {
		"", "yesterday", "2026-11-29", "2026-11-29 02:10:33Z", "2026-11-29T02:10:33",
		"2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2026-11-31T00:00:00Z",
		"2026-11-29T24:00:00Z", "2026-11-29T02:60:00Z", "2026-11-29T02:10:61Z",
		"2026-11-29T02:10:33.Z", "2026-11-29T02:10:33.1234567890Z", "2026-11-29T02:10:33ZZ",
		"2026-11-29T02:10:33+0100", "2026-11-29T02:10:33+01:00x", "+2026-11-29T02:10:33Z",
		"2026-1-29T02:10:33Z", "2026", "2026-11-29T02:10:33+0", "2026-11-29T02:10:33+01:0",
		"2026-11-29T02:10:33.5-",
	};
	long long ms = 7;

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		/* a copy of its own size: a read past its end is an overflow
		 * the address sanitizer sees (make asan) */
		char *own = strdup(bad[i]);

		cr_assert_eq(ev_clock_parse(own, &ms), -1, "%s", bad[i]);
		free(own);
	}
	cr_assert_eq(ev_clock_parse(NULL, &ms), -1);
	cr_assert_eq(ms, 7);
}

Test(clock, format_writes_utc_with_milliseconds_and_reads_back)
{
	char buf[EV_CLOCK_STAMP_MAX];
	static const char *const t[] = {
		"1970-01-01T00:00:00.000Z", "2026-11-29T02:10:33.123Z", "1969-12-31T23:59:59.250Z",
		"9999-12-31T23:59:59.999Z",
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		ev_clock_format_ms(parsed(t[i]), buf, sizeof buf);
		cr_assert_str_eq(buf, t[i]);
	}
}

Test(clock, ev_fixed_time_fixes_the_stamp_else_it_is_now)
{
	char buf[EV_CLOCK_STAMP_MAX];
	long long before, after, ms;
	int fixed = -1;

	setenv("EV_FIXED_TIME", "2026-02-20T12:00:00Z", 1);
	ev_clock_stamp(buf, sizeof buf);
	cr_assert_str_eq(buf, "2026-02-20T12:00:00.000Z");
	setenv("EV_FIXED_TIME", "2026-11-29T03:10:33.5+01:00", 1);
	cr_assert_eq(ev_clock_now_ms(&fixed), 1795918233500LL);
	cr_assert_eq(fixed, 1);
	setenv("EV_FIXED_TIME", "yesterday", 1);	/* not a time: the clock runs */
	before = ev_clock_now_ms(&fixed);
	cr_assert_eq(fixed, 0);
	ev_clock_stamp(buf, sizeof buf);
	after = ev_clock_now_ms(NULL);
	cr_assert_eq(strlen(buf), 24);
	ms = parsed(buf);
	cr_assert(before <= ms && ms <= after, "%lld <= %lld <= %lld", before, ms, after);
	unsetenv("EV_FIXED_TIME");
}

Test(clock, date_ok_takes_the_days_and_times_of_the_calendar)
{
	static const char *const good[] = {
		"1999", "2025-06", "2025-01-31", "2024-02-29", "2000-02-29", "2025-01-01T10",
		"2025-01-01T00:00", "2025-01-01 23:59:59", "2016-12-31T23:59:60Z",
		"2025-01-01T10:30:00.5+01:00", "2025-01-01t10Z", "2025-01-01T10:30:00,25",
		"2025-01-01T10:30-0500", "2025-01-01T10:30:00.123456789+0530", "2025-01-01T10+01",
		NULL
	};
	static const char *const bad[] = {
		"", "199", "19999", "2025-", "2025-00", "2025-13", "2025-1", "2025-01-00",
		"2025-02-30", "2023-02-29", "1900-02-29", "2025-04-31", "2025-01-32",
		"2025-01-01T", "2025-01-01T1", "2025-01-01Tnoon", "2025-01-01T24:00",
		"2025-01-01T25:00", "2025-01-01T23:60", "2025-01-01 10:00:61", "2025-01-01T10:300",
		"2025-01-01X", "last week", "2020-01-01xyz", "2025-01-01T10xyz",
		"2025-01-01T10:00xyz", "2025-01-01T10:00:00 junk", "2025-01-01T10:00:00.",
		"2025-01-01T10:00:00.5.5", "2025-01-01T10:00:00Zx", "2025-01-01T10:00:00+1",
		"2025-01-01T10:00:00+24:00", "2025-01-01T10:00:00+01:60", "2025-01-01T10:00:00+01:",
		"2025-01-01T10:00:00+01:000", "2025-01-01T10:00:00-", NULL
	};

	for (int i = 0; good[i]; i++)
		cr_assert_eq(ev_clock_date_ok(good[i]), 1, "%s", good[i]);
	for (int i = 0; bad[i]; i++)
		cr_assert_eq(ev_clock_date_ok(bad[i]), 0, "%s", bad[i]);
	cr_assert_eq(ev_clock_date_ok(NULL), 0);
}

Test(clock, date_days_is_the_moment_a_date_names)
{
	static const struct {
		const char *s;
		double days;
	} cases[] = {
		{ "1970", 0 }, { "1970-01-01", 0 }, { "1970-02", 31 }, { "2025", 20089 },
		{ "2024-12-31", 20088 }, { "1970-01-01T12", 0.5 }, { "1970-01-01 06:00", 0.25 },
		{ "1970-01-02T00:00:00Z", 1 }, { "1970-01-01T12:00+12:00", 0 },
		{ "1970-01-01T12:00-1200", 1 }, { "1970-01-01T12+06", 0.25 },
		{ "1970-01-01T12.5", 0.5 + 0.5 / 24 }, { "1970-01-01T00:00:43.2", 0.0005 },
		{ "1969-12-31T18:00", -0.25 },
	};
	double d = -1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert_eq(ev_clock_date_days(cases[i].s, &d), 0, "%s", cases[i].s);
		cr_assert_float_eq(d, cases[i].days, 1e-9, "%s: %.9f", cases[i].s, d);
	}
	d = 7;
	cr_assert_eq(ev_clock_date_days("2025-13", &d), -1);
	cr_assert_eq(ev_clock_date_days("2025-01-01Z", &d), -1);
	cr_assert_eq(ev_clock_date_days(NULL, &d), -1);
	cr_assert_eq(d, 7);
}

Test(clock, date_span_ends_at_the_dates_own_precision)
{
	static const struct {
		const char *s;
		double start, end;
	} cases[] = {
		{ "1970", 0, 365 }, { "2024", 19723, 19723 + 366 }, { "1970-02", 31, 59 },
		{ "1970-12", 334, 365 }, { "1970-01-02", 1, 2 }, { "1970-01-01T12", 0.5, 0.5 + 1.0 / 24 },
		{ "1970-01-01 06:00", 0.25, 0.25 + 1.0 / 1440 },
		{ "1970-01-01T00:00:01", 1.0 / 86400, 2.0 / 86400 },
		{ "1970-01-01T00:00:01.5", 1.5 / 86400, 1.6 / 86400 },
		{ "1970-01-01T00:00:01,25", 1.25 / 86400, 1.26 / 86400 },
		{ "1970-01-01T12+06", 0.25, 0.25 + 1.0 / 24 },
		{ "1970-01-01T12:00-1200", 1, 1 + 1.0 / 1440 },
	};
	double a = -1, b = -1;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert_eq(ev_clock_date_span(cases[i].s, &a, &b), 0, "%s", cases[i].s);
		cr_assert_float_eq(a, cases[i].start, 1e-9, "%s: %.9f", cases[i].s, a);
		cr_assert_float_eq(b, cases[i].end, 1e-9, "%s: %.9f", cases[i].s, b);
	}
	a = b = 7;
	cr_assert_eq(ev_clock_date_span("2025-02-29", &a, &b), -1);
	cr_assert_eq(ev_clock_date_span("2025-01-01T", &a, &b), -1);
	cr_assert_eq(a, 7);
	cr_assert_eq(b, 7);
}

Test(clock, days_ms_is_the_millisecond_a_moment_falls_in)
{
	double d;

	cr_assert_eq(ev_clock_days_ms(0), 0);
	cr_assert_eq(ev_clock_days_ms(-1), -86400000LL);
	cr_assert_eq(ev_clock_date_days("2024-06-30T23:59:59.9999", &d), 0);
	cr_assert_eq(ev_clock_days_ms(d), 19905LL * 86400000 - 1);
	cr_assert_eq(ev_clock_date_days("1969-12-31T23:59:59.9999", &d), 0);
	cr_assert_eq(ev_clock_days_ms(d), -1);
	/* two spellings of one moment, whose days a double rounds apart */
	cr_assert_eq(ev_clock_date_days("2024-01-05T11:00+01:00", &d), 0);
	cr_assert_eq(ev_clock_days_ms(d), 19727LL * 86400000 + 10 * 3600000LL);
	cr_assert_eq(ev_clock_date_days("2024-01-05T10:00Z", &d), 0);
	cr_assert_eq(ev_clock_days_ms(d), 19727LL * 86400000 + 10 * 3600000LL);
}
