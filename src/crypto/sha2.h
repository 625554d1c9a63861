/* SHA-256 and SHA-512 (FIPS 180-4) on libsodium's own state structs, and HMAC (RFC 2104) on
 * libsodium's HMAC states: our C, faster than libsodium's, giving the same bytes.
 *
 * Every state field is used exactly as libsodium 1.0.22 uses it (crypto_hash_sha256_state:
 * uint32_t state[8], uint64_t count of bits, uint8_t buf[64]; crypto_hash_sha512_state: uint64_t
 * state[8], uint64_t count[2] of bits, high word first, uint8_t buf[128]), and every function
 * leaves a state byte for byte as libsodium's would, so a state may go back and forth between
 * these functions and libsodium's at any point, and HMAC states, which embed them, too. As in
 * libsodium, the buffer position is the bit count modulo the block size: any state bytes are
 * memory-safe. final wipes the state, as libsodium does.
 *
 * The compression function is chosen once, when the library loads: SHA-NI for SHA-256 and
 * BMI2 (with an AVX2 message schedule) for SHA-512 on x86-64 CPUs that have them, portable C
 * everywhere else. NATRIUM_DISABLE_SIMD=1 in the environment at load time forces the portable
 * code (for tests and comparisons). nat_sha2_impl() names the choice. */
#ifndef NAT_CRYPTO_SHA2_H
#define NAT_CRYPTO_SHA2_H

#include <sodium.h>
#include <stddef.h>

int nat_sha256_init(crypto_hash_sha256_state *state);
int nat_sha256_update(crypto_hash_sha256_state *state, const unsigned char *in, size_t inlen);
int nat_sha256_final(crypto_hash_sha256_state *state, unsigned char out[32]);
int nat_sha256(unsigned char out[32], const unsigned char *in, size_t inlen);

int nat_sha512_init(crypto_hash_sha512_state *state);
int nat_sha512_update(crypto_hash_sha512_state *state, const unsigned char *in, size_t inlen);
int nat_sha512_final(crypto_hash_sha512_state *state, unsigned char out[64]);
int nat_sha512(unsigned char out[64], const unsigned char *in, size_t inlen);

/* libsodium's crypto_auth_hmacsha256_* and crypto_auth_hmacsha512_* (keys of any length; longer
 * than a block, they are hashed first), on our SHA-2. */
int nat_hmacsha256_init(crypto_auth_hmacsha256_state *state, const unsigned char *key,
                        size_t keylen);
int nat_hmacsha256_update(crypto_auth_hmacsha256_state *state, const unsigned char *in,
                          size_t inlen);
int nat_hmacsha256_final(crypto_auth_hmacsha256_state *state, unsigned char out[32]);

int nat_hmacsha512_init(crypto_auth_hmacsha512_state *state, const unsigned char *key,
                        size_t keylen);
int nat_hmacsha512_update(crypto_auth_hmacsha512_state *state, const unsigned char *in,
                          size_t inlen);
int nat_hmacsha512_final(crypto_auth_hmacsha512_state *state, unsigned char out[64]);

/* The compression function in use for SHA-256 (bits = 256) or SHA-512 (512): "portable",
 * "shani" (SHA-256) or "avx2" (SHA-512). */
const char *nat_sha2_impl(unsigned int bits);

#endif
