/* scrypt (RFC 7914) as libsodium's crypto_pwhash_scryptsalsa208sha256_ll computes it, with
 * our ROMix (scrypt_impl.h), PBKDF2-HMAC-SHA-256 (pbkdf2.c) and scratch memory reused between
 * calls.
 *
 * libsodium's crypto_pwhash_scryptsalsa208sha256, _str, _str_verify and _ll all reach scrypt
 * through escrypt_kdf_sse or escrypt_kdf_nosse (its core: parameter checks, memory, PBKDF2,
 * SMix). The addon and the wasm build link with --wrap for both names (binding.gyp,
 * deps/build-wasm.sh, scripts/build-mingw.sh), so libsodium's own parameter logic, encoding,
 * verification and refusals run unchanged and only that core is ours. A linker without --wrap
 * (macOS, MSVC) keeps libsodium's core: the same bytes, slower. */
#ifndef NAT_CRYPTO_SCRYPT_H
#define NAT_CRYPTO_SCRYPT_H

#include <stddef.h>
#include <stdint.h>

/* escrypt_kdf's contract: buf <- scrypt(passwd, salt, N, r, p, buflen); 0, or -1 with errno
 * EFBIG (buflen > (2^32 - 1) * 32, r * p >= 2^30, N > 2^32 - 1), EINVAL (N not a power of two
 * >= 2, r or p 0) or ENOMEM (the sizes overflow, or no memory), buf then left as it was. */
int nat_scrypt(const uint8_t *passwd, size_t passwdlen, const uint8_t *salt, size_t saltlen,
               uint64_t N, uint32_t r, uint32_t p, uint8_t *buf, size_t buflen);

/* The names libsodium's references are redirected to; local (libsodium's escrypt_local_t, whose
 * region it allocates and frees itself) is not used. */
int __wrap_escrypt_kdf_sse(void *local, const uint8_t *passwd, size_t passwdlen,
                           const uint8_t *salt, size_t saltlen, uint64_t N, uint32_t r,
                           uint32_t p, uint8_t *buf, size_t buflen);
int __wrap_escrypt_kdf_nosse(void *local, const uint8_t *passwd, size_t passwdlen,
                             const uint8_t *salt, size_t saltlen, uint64_t N, uint32_t r,
                             uint32_t p, uint8_t *buf, size_t buflen);

/* Test hooks: how many scratch regions are cached now (0 .. 3: scrypt.c's two slots and its
 * lazily freed one), and their usable bytes in all (at most 2 x 65 MiB + 1 GiB + 1 MiB). */
size_t nat_scrypt_cached_regions(void);
size_t nat_scrypt_cached_bytes(void);
/* Test hook: 1 if every cached region is all zero bytes. */
int nat_scrypt_cache_wiped(void);

#endif
