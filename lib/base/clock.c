/* clock.c: RFC 3339 times.  See clock.h. */
#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The n digits at s as a number, or -1 when one is not a digit. */
static int
digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days from 1970-01-01 to the date y-m-d of the proleptic Gregorian
 * calendar (negative before). */
static long long
days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

static int
month_days(int y, int m)
{
	static const int n[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 ? 28 + leap : n[m - 1];
}

int
ev_clock_parse(const char *s, long long *ms)
{
	int y, mo, d, h, mi, sec, frac = 0, scale = 100, off = 0;
	long long t;

	/* the shortest such time, "2026-11-29T02:10:33Z", has 20 bytes: every
	 * fixed place read below is within the string */
	if (s == NULL || strlen(s) < 20)
		return -1;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	if (y < 0 || s[4] != '-' || mo < 1 || mo > 12 || s[7] != '-' || d < 1 ||
	    d > month_days(y, mo) || (s[10] != 'T' && s[10] != 't'))
		return -1;
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	sec = digits(s + 17, 2);
	if (h < 0 || h > 23 || s[13] != ':' || mi < 0 || mi > 59 || s[16] != ':' ||
	    sec < 0 || sec > 60)
		return -1;
	s += 19;
	if (*s == '.') {
		int n = 0;

		for (s++; *s >= '0' && *s <= '9'; s++, n++) {
			frac += (*s - '0') * scale;
			scale /= 10;
		}
		if (n < 1 || n > 9)
			return -1;
	}
	if (sec == 60) {	/* a leap second: the last moment of the minute */
		sec = 59;
		frac = 999;
	}
	if ((*s == 'Z' || *s == 'z') && s[1] == '\0') {
		off = 0;
	} else if ((*s == '+' || *s == '-') && strlen(s) == 6) {
		int oh = digits(s + 1, 2), om = digits(s + 4, 2);

		if (oh < 0 || oh > 23 || s[3] != ':' || om < 0 || om > 59)
			return -1;
		off = (oh * 60 + om) * (*s == '-' ? -1 : 1);
	} else {
		return -1;
	}
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off * 60;
	*ms = t * 1000 + frac;
	return 0;
}

/* The 2-digit field at s, when it is in lo..hi, else -1. */
static int
field(const char *s, int lo, int hi)
{
	int v = digits(s, 2);

	return v < lo || v > hi ? -1 : v;
}

/* The fraction at *s ('.' or ',' and at least one digit), when one begins
 * there: its value into *frac (0 to 1) and *s past it.  Returns 0, or -1
 * when a '.' or ',' has no digit after it. */
static int
fraction(const char **s, double *frac)
{
	const char *p = *s;
	double scale = 0.1;

	*frac = 0;
	if (*p != '.' && *p != ',')
		return 0;
	if (*++p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++, scale /= 10)
		*frac += (*p - '0') * scale;
	*s = p;
	return 0;
}

/* The zone s is, and nothing more, into *off (minutes east of UTC): none
 * (UTC), "Z" (or "z"), or a sign and an offset, "HH", "HHMM" or "HH:MM"
 * (hours 00 to 23, minutes 00 to 59).  Returns 0, or -1 when s is none. */
static int
zone(const char *s, int *off)
{
	int h, m = 0;

	*off = 0;
	if (*s == '\0')
		return 0;
	if (*s == 'Z' || *s == 'z')
		return s[1] == '\0' ? 0 : -1;
	if ((*s != '+' && *s != '-') || (h = field(s + 1, 0, 23)) < 0)
		return -1;
	if (s[3] != '\0' && ((m = field(s + 3 + (s[3] == ':'), 0, 59)) < 0 ||
	    s[5 + (s[3] == ':')] != '\0'))
		return -1;
	*off = (h * 60 + m) * (*s == '-' ? -1 : 1);
	return 0;
}

/* The fraction at *s, as fraction() reads it, and the part of one unit its
 * last digit is (0.1 for one digit; 1 when there is none). */
static int
fraction_step(const char **s, double *frac, double *step)
{
	const char *p = *s;

	if (fraction(s, frac) == -1)
		return -1;
	*step = 1;
	if (*s > p)	/* past the '.' or ',', a tenth a digit */
		for (p++; p < *s; p++)
			*step /= 10;
	return 0;
}

int
ev_clock_date_span(const char *s, double *start, double *end)
{
	int y, mo = 1, d = 1, t[3] = { 0, 0, 0 }, n = 0, off;
	static const double unit[3] = { 1.0 / 24, 1.0 / 1440, 1.0 / 86400 };
	double frac = 0, step = 1, at;
	long long next;		/* the first day after a date of no time */

	if (s == NULL || (y = digits(s, 4)) < 0)
		return -1;
	if (s[4] == '\0') {
		s += 4;		/* a year */
		next = days_from_civil(y + 1, 1, 1);
	} else if (s[4] != '-' || (mo = field(s + 5, 1, 12)) < 0)
		return -1;
	else if (s[7] == '\0') {
		s += 7;		/* a month */
		next = days_from_civil(y + (mo == 12), mo % 12 + 1, 1);
	} else if (s[7] != '-' || (d = digits(s + 8, 2)) < 1 || d > month_days(y, mo))
		return -1;
	else {
		next = days_from_civil(y, mo, d) + 1;
		if (*(s += 10) != '\0') {
			/* a day, then a time of day: "HH", "HH:MM" or "HH:MM:SS", a fraction */
			if ((*s != 'T' && *s != 't' && *s != ' ') || (t[n++] = field(s + 1, 0, 23)) < 0)
				return -1;
			for (s += 3; n < 3 && *s == ':'; n++, s += 3)
				if ((t[n] = field(s + 1, 0, n == 1 ? 59 : 60)) < 0)
					return -1;
			if (fraction_step(&s, &frac, &step) == -1)
				return -1;
		}
	}
	if ((n == 0 && *s != '\0') || zone(s, &off) == -1)
		return -1;
	at = (double)days_from_civil(y, mo, d) + t[0] * unit[0] + t[1] * unit[1] +
	    t[2] * unit[2] + (n > 0 ? frac * unit[n - 1] : 0);
	*start = at - off / 1440.0;
	*end = (n > 0 ? at + step * unit[n - 1] : (double)next) - off / 1440.0;
	return 0;
}

int
ev_clock_date_days(const char *s, double *days)
{
	double end;

	return ev_clock_date_span(s, days, &end);
}

long long
ev_clock_days_ms(double days)
{
	return (long long)floor(days * 86400000.0 + 1e-3);
}

int
ev_clock_date_ok(const char *s)
{
	double days;

	return ev_clock_date_days(s, &days) == 0;
}

void
ev_clock_format_ms(long long ms, char *buf, size_t size)
{
	long long sec = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
	time_t t = (time_t)sec;
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms - sec * 1000));
}

long long
ev_clock_now_ms(int *fixed)
{
	const char *env = getenv("EV_FIXED_TIME");
	struct timespec ts;
	long long ms;

	if (env != NULL && ev_clock_parse(env, &ms) == 0) {
		if (fixed != NULL)
			*fixed = 1;
		return ms;
	}
	if (fixed != NULL)
		*fixed = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
ev_clock_stamp(char *buf, size_t size)
{
	ev_clock_format_ms(ev_clock_now_ms(NULL), buf, size);
}
