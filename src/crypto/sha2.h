/* SHA-256 and SHA-512 (FIPS 180-4), and HMAC (RFC 2104) and HKDF (RFC 5869) on them: our C,
 * faster than libsodium's, giving the same bytes. Each function is a drop-in for the libsodium
 * function of the same name after "crypto_hash_" / "crypto_auth_" / "crypto_kdf_hkdf_" (with
 * size_t lengths), and returns what it returns (0, or -1 where noted).
 *
 * The states are libsodium's own structs, and every field is used exactly as libsodium 1.0.22
 * uses it (crypto_hash_sha256_state: uint32_t state[8], uint64_t count of bits, uint8_t buf[64];
 * crypto_hash_sha512_state: uint64_t state[8], uint64_t count[2] of bits, high word first,
 * uint8_t buf[128]): each function leaves a state byte for byte as libsodium's would, so a state
 * may pass between these functions and libsodium's at any point, and HMAC and HKDF states, which
 * embed them, too. As in libsodium, the buffer position is the bit count modulo the block size,
 * so any state bytes are memory-safe; final wipes the state.
 *
 * The compression function is chosen once, when the library is loaded: on x86-64, SHA-NI for
 * SHA-256 and AVX2 + BMI2 for SHA-512 where the CPU has them; portable C everywhere else.
 * NATRIUM_DISABLE_SIMD=1 in the environment at load time keeps the portable code (tests use it
 * to run that code on CPUs that have the extensions). */
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

/* libsodium's own prototypes (unsigned long long lengths), for libsodium's Ed25519: deps/build.sh
 * renames its calls of crypto_hash_sha512* to these (native archives: objcopy). */
int nat_sodium_sha512_init(crypto_hash_sha512_state *state);
int nat_sodium_sha512_update(crypto_hash_sha512_state *state, const unsigned char *in,
                                  unsigned long long inlen);
int nat_sodium_sha512_final(crypto_hash_sha512_state *state, unsigned char *out);
int nat_sodium_sha512(unsigned char *out, const unsigned char *in, unsigned long long inlen);

/* The wasm build, whose objects llvm-objcopy cannot rename, links with --wrap for these four
 * names instead (deps/build-wasm.sh): every call libsodium makes to its SHA-512 (Ed25519's
 * signing and verification above all, also ed25519ph, HMAC-SHA-512, HKDF-SHA-512, tweak.c)
 * runs ours. The same functions as nat_sodium_sha512*; compiled everywhere, so test/c/sha2.c
 * checks them on every target (a link without --wrap never calls them). */
int __wrap_crypto_hash_sha512_init(crypto_hash_sha512_state *state);
int __wrap_crypto_hash_sha512_update(crypto_hash_sha512_state *state, const unsigned char *in,
                                     unsigned long long inlen);
int __wrap_crypto_hash_sha512_final(crypto_hash_sha512_state *state, unsigned char *out);
int __wrap_crypto_hash_sha512(unsigned char *out, const unsigned char *in,
                              unsigned long long inlen);

/* HMAC: init takes a key of any length (longer than a block, it is hashed first); the one-shot
 * and verify functions take libsodium's 32-byte keys. verify returns 0 or -1 (constant time). */
int nat_hmacsha256_init(crypto_auth_hmacsha256_state *state, const unsigned char *key,
                        size_t keylen);
int nat_hmacsha256_update(crypto_auth_hmacsha256_state *state, const unsigned char *in,
                          size_t inlen);
int nat_hmacsha256_final(crypto_auth_hmacsha256_state *state, unsigned char out[32]);
int nat_hmacsha256(unsigned char out[32], const unsigned char *in, size_t inlen,
                   const unsigned char k[32]);
int nat_hmacsha256_verify(const unsigned char h[32], const unsigned char *in, size_t inlen,
                          const unsigned char k[32]);

int nat_hmacsha512_init(crypto_auth_hmacsha512_state *state, const unsigned char *key,
                        size_t keylen);
int nat_hmacsha512_update(crypto_auth_hmacsha512_state *state, const unsigned char *in,
                          size_t inlen);
int nat_hmacsha512_final(crypto_auth_hmacsha512_state *state, unsigned char out[64]);
int nat_hmacsha512(unsigned char out[64], const unsigned char *in, size_t inlen,
                   const unsigned char k[32]);
int nat_hmacsha512_verify(const unsigned char h[64], const unsigned char *in, size_t inlen,
                          const unsigned char k[32]);

/* PBKDF2's inner loop: `iterations` times u = HMAC(key, u) and t ^= u, where keyed is a state
 * just initialised with the key (and not updated). */
void nat_hmacsha256_iterate(const crypto_auth_hmacsha256_state *keyed, unsigned char u[32],
                            unsigned char t[32], uint64_t iterations);
void nat_hmacsha512_iterate(const crypto_auth_hmacsha512_state *keyed, unsigned char u[64],
                            unsigned char t[64], uint64_t iterations);

/* HMAC-SHA-512 truncated to 32 bytes (crypto_auth); its state is HMAC-SHA-512's. */
#define nat_hmacsha512256_init nat_hmacsha512_init
#define nat_hmacsha512256_update nat_hmacsha512_update
int nat_hmacsha512256_final(crypto_auth_hmacsha512256_state *state, unsigned char out[32]);
int nat_hmacsha512256(unsigned char out[32], const unsigned char *in, size_t inlen,
                      const unsigned char k[32]);
int nat_hmacsha512256_verify(const unsigned char h[32], const unsigned char *in, size_t inlen,
                             const unsigned char k[32]);

/* HKDF: expand returns -1 (writing nothing) when out_len > crypto_kdf_hkdf_*_BYTES_MAX; it
 * reads ctx for every output block, so out must not overlap ctx. */
int nat_hkdf_sha256_extract_init(crypto_kdf_hkdf_sha256_state *state, const unsigned char *salt,
                                 size_t salt_len);
int nat_hkdf_sha256_extract_update(crypto_kdf_hkdf_sha256_state *state, const unsigned char *ikm,
                                   size_t ikm_len);
int nat_hkdf_sha256_extract_final(crypto_kdf_hkdf_sha256_state *state, unsigned char prk[32]);
int nat_hkdf_sha256_extract(unsigned char prk[32], const unsigned char *salt, size_t salt_len,
                            const unsigned char *ikm, size_t ikm_len);
int nat_hkdf_sha256_expand(unsigned char *out, size_t out_len, const char *ctx, size_t ctx_len,
                           const unsigned char prk[32]);

int nat_hkdf_sha512_extract_init(crypto_kdf_hkdf_sha512_state *state, const unsigned char *salt,
                                 size_t salt_len);
int nat_hkdf_sha512_extract_update(crypto_kdf_hkdf_sha512_state *state, const unsigned char *ikm,
                                   size_t ikm_len);
int nat_hkdf_sha512_extract_final(crypto_kdf_hkdf_sha512_state *state, unsigned char prk[64]);
int nat_hkdf_sha512_extract(unsigned char prk[64], const unsigned char *salt, size_t salt_len,
                            const unsigned char *ikm, size_t ikm_len);
int nat_hkdf_sha512_expand(unsigned char *out, size_t out_len, const char *ctx, size_t ctx_len,
                           const unsigned char prk[64]);

/* The compression function in use for SHA-256 (bits = 256) or SHA-512 (512): "portable",
 * "shani" (SHA-256) or "avx2" (SHA-512). */
const char *nat_sha2_impl(unsigned int bits);

#endif
