/* PBKDF2 (RFC 8018, section 5.2) with HMAC-SHA-512 or HMAC-SHA-256 as the PRF.
 *
 * The constant names are the JS names (sodium-native 5.1.0's for SHA-512, the same shape for
 * SHA-256), so argument errors read as the constants users see. src/constants.c repeats these
 * values in its `extras: kdf` section; test/kdf.test.js checks the two agree. */
#ifndef NAT_CRYPTO_PBKDF2_H
#define NAT_CRYPTO_PBKDF2_H

#include <sodium.h>
#include <stddef.h>
#include <stdint.h>

#define extension_pbkdf2_sha512_SALTBYTES 16U
#define extension_pbkdf2_sha512_HASHBYTES crypto_auth_hmacsha512_BYTES
#define extension_pbkdf2_sha512_ITERATIONS_MIN 1U
/* RFC 8018: dkLen <= (2^32 - 1) * hLen; also whatever size_t can hold (wasm32). */
#define extension_pbkdf2_sha512_BYTES_MAX \
  SODIUM_MIN(SODIUM_SIZE_MAX, 0xffffffffULL * crypto_auth_hmacsha512_BYTES)

#define extension_pbkdf2_sha256_SALTBYTES 16U
#define extension_pbkdf2_sha256_HASHBYTES crypto_auth_hmacsha256_BYTES
#define extension_pbkdf2_sha256_ITERATIONS_MIN 1U
#define extension_pbkdf2_sha256_BYTES_MAX \
  SODIUM_MIN(SODIUM_SIZE_MAX, 0xffffffffULL * crypto_auth_hmacsha256_BYTES)

/* Write outlen bytes of PBKDF2(passwd, salt, iter) to out. Returns 0, or -1 (writing nothing)
 * when iter < ITERATIONS_MIN or outlen > BYTES_MAX. out may overlap passwd or salt: both are
 * absorbed into keyed states before the first byte is written. */
int nat_pbkdf2_sha512(unsigned char *out, size_t outlen, const unsigned char *passwd,
                      size_t passwd_len, const unsigned char *salt, size_t salt_len, uint64_t iter);
int nat_pbkdf2_sha256(unsigned char *out, size_t outlen, const unsigned char *passwd,
                      size_t passwd_len, const unsigned char *salt, size_t salt_len, uint64_t iter);

#endif
