/* uuid.h: random version 4 UUIDs (RFC 9562) for plan and request ids.
 *
 * Bottom layer: includes err.h only.  Bytes come from getrandom(2), or
 * /dev/urandom where that is missing.  A testing aid: when the environment
 * variable EV_UUID_SEED holds a whole number, the UUIDs come from a
 * deterministic generator seeded with it instead (the same sequence in every
 * run), so that golden tests can compare whole EvidencePacks. */
#ifndef EV_UUID_H
#define EV_UUID_H

#include "err.h"

#define EV_UUID_LEN 36		/* "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx" */

/* Write a new v4 UUID, lowercase and NUL-terminated, into out.  Returns 0,
 * or -1 with *err set (code 1) when no random bytes can be had. */
int ev_uuid_v4(char out[EV_UUID_LEN + 1], struct ev_err *err);

/* Make the following UUIDs deterministic, from seed (what EV_UUID_SEED
 * does; for tests). */
void ev_uuid_seed(unsigned long long seed);

/* Whether s is a UUID in the 8-4-4-4-12 hexadecimal form (any version). */
int ev_uuid_valid(const char *s);

#endif
