/* sha256.h: SHA-256 (FIPS 180-4), for content hashes ("sha256:" + 64 hex),
 * with the x86 SHA extensions when the processor has them.
 * Bottom layer: includes nothing of evkit. */
#ifndef EV_SHA256_H
#define EV_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct ev_sha256 {
	uint32_t h[8];
	uint64_t nbytes;
	unsigned char block[64];
	size_t used;
};

void ev_sha256_init(struct ev_sha256 *s);
void ev_sha256_update(struct ev_sha256 *s, const void *data, size_t n);
/* Finish and write the 32-byte digest. */
void ev_sha256_final(struct ev_sha256 *s, unsigned char digest[32]);

/* Hash data[0..n) and write "sha256:<64 lowercase hex>" and a NUL into out,
 * which holds at least EV_SHA256_TEXT bytes. */
#define EV_SHA256_TEXT 72
void ev_sha256_text(const void *data, size_t n, char out[EV_SHA256_TEXT]);

/* Finish *s and write "sha256:<64 lowercase hex>" and a NUL into out. */
void ev_sha256_final_text(struct ev_sha256 *s, char out[EV_SHA256_TEXT]);

/* Write bytes[0..n) as 2n lowercase hex digits and a NUL into out (a
 * digest, or any bytes, as text); out holds at least 2n + 1 bytes. */
void ev_hex_lower(const unsigned char *bytes, size_t n, char *out);

#endif
