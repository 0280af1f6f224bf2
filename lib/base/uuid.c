/* uuid.c: random v4 UUIDs.  See uuid.h. */
#include "uuid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static int seeded = -1;		/* -1: EV_UUID_SEED not looked at yet */
static uint64_t state;

void
ev_uuid_seed(unsigned long long seed)
{
	seeded = 1;
	state = seed;
}

/* splitmix64: a small generator with a full period, for the test mode. */
static uint64_t
next64(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int
random_bytes(unsigned char *p, size_t n, struct ev_err *err)
{
	size_t got = 0;
	ssize_t r;
	int fd;

	while (got < n) {
		r = getrandom(p + got, n - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		got += (size_t)r;
	}
	if (got == n)
		return 0;
	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) == -1)
		return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "no random bytes for a uuid: %s",
		    strerror(errno));
	while (got < n) {
		r = read(fd, p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL,
			    "no random bytes for a uuid: /dev/urandom unreadable");
		}
		got += (size_t)r;
	}
	close(fd);
	return 0;
}

int
ev_uuid_v4(char out[EV_UUID_LEN + 1], struct ev_err *err)
{
	unsigned char b[16];
	const char *env;
	char *end;
	uint64_t x;
	int i;

	if (seeded == -1) {
		env = getenv("EV_UUID_SEED");
		seeded = 0;
		if (env != NULL && *env != '\0') {
			unsigned long long s = strtoull(env, &end, 10);
			if (*end == '\0')
				ev_uuid_seed(s);
		}
	}
	if (seeded == 1) {
		for (i = 0; i < 16; i += 8) {
			x = next64();
			memcpy(b + i, &x, 8);
		}
	} else if (random_bytes(b, sizeof b, err) == -1) {
		return -1;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* variant 10 */
	snprintf(out, EV_UUID_LEN + 1,
	    "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
	    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
	    b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
	return 0;
}

int
ev_uuid_valid(const char *s)
{
	int i;

	for (i = 0; i < EV_UUID_LEN; i++) {
		char c = s[i];
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				return 0;
		} else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		    (c >= 'A' && c <= 'F'))) {
			return 0;
		}
	}
	return s[EV_UUID_LEN] == '\0';
}
