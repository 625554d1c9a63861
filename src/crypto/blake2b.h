/* BLAKE2b (RFC 7693): libsodium's crypto_generichash_blake2b* functions, the same bytes, faster.
 * libsodium's update copies every block through the state's buffer, and its x86 compression is
 * AVX2 whatever the CPU (slow where vector latency is 2 cycles); ours hashes whole blocks
 * straight from the input, with the compression function blake2b_dispatch.c picks
 * (blake2b_impl.h).
 *
 * Each function is a drop-in for the libsodium function of the same name after
 * "crypto_generichash_blake2b" (with size_t lengths) and returns what it returns: -1 for an
 * output length outside 1..64 or a key longer than 64 bytes (init, one-shot), or for a final on
 * a finished state; 0 otherwise. key may be NULL (or keylen 0) for no key; salt and personal may
 * be NULL for zeros.
 *
 * The state is libsodium 1.0.22's blake2b_state (crypto_generichash/blake2b/ref/blake2.h, packed:
 * uint64_t h[8], t[2], f[2]; uint8_t buf[256]; size_t buflen; uint8_t last_node) inside the
 * opaque crypto_generichash_blake2b_state, and every field is left as libsodium's code leaves it,
 * including the stale bytes past buflen: a state passes between these functions and libsodium's
 * at any point. As in libsodium, update and final trust buflen <= 256 (src/hash.c checks it). */
#ifndef NAT_CRYPTO_BLAKE2B_H
#define NAT_CRYPTO_BLAKE2B_H

#include <sodium.h>
#include <stddef.h>

int nat_blake2b(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen,
                const unsigned char *key, size_t keylen);
int nat_blake2b_salt_personal(unsigned char *out, size_t outlen, const unsigned char *in,
                              size_t inlen, const unsigned char *key, size_t keylen,
                              const unsigned char *salt, const unsigned char *personal);

int nat_blake2b_init(crypto_generichash_blake2b_state *state, const unsigned char *key,
                     size_t keylen, size_t outlen);
int nat_blake2b_init_salt_personal(crypto_generichash_blake2b_state *state,
                                   const unsigned char *key, size_t keylen, size_t outlen,
                                   const unsigned char *salt, const unsigned char *personal);
int nat_blake2b_update(crypto_generichash_blake2b_state *state, const unsigned char *in,
                       size_t inlen);
int nat_blake2b_final(crypto_generichash_blake2b_state *state, unsigned char *out,
                      size_t outlen);

/* The wasm build links with --wrap for libsodium's six crypto_generichash_blake2b* functions
 * (deps/build-wasm.sh): every BLAKE2b libsodium computes for itself (crypto_generichash's
 * generic names, crypto_box_seal's nonce, crypto_kx, crypto_kdf, Argon2's H and H') runs ours,
 * and libsodium's blake2b-ref.c (its compression function alone is 6 KB of the module) is left
 * out of the link; so is its compression choice, made in sodium_init, whose stand-in does nothing.
 * The same functions as nat_blake2b*, with libsodium's unsigned long long input lengths;
 * compiled everywhere, so test/c/blake2b.c checks them on every target (a link without --wrap
 * never calls them). */
int __wrap_crypto_generichash_blake2b(unsigned char *out, size_t outlen, const unsigned char *in,
                                      unsigned long long inlen, const unsigned char *key,
                                      size_t keylen);
int __wrap_crypto_generichash_blake2b_salt_personal(unsigned char *out, size_t outlen,
                                                    const unsigned char *in,
                                                    unsigned long long inlen,
                                                    const unsigned char *key, size_t keylen,
                                                    const unsigned char *salt,
                                                    const unsigned char *personal);
int __wrap_crypto_generichash_blake2b_init(crypto_generichash_blake2b_state *state,
                                           const unsigned char *key, size_t keylen,
                                           size_t outlen);
int __wrap_crypto_generichash_blake2b_init_salt_personal(crypto_generichash_blake2b_state *state,
                                                         const unsigned char *key, size_t keylen,
                                                         size_t outlen,
                                                         const unsigned char *salt,
                                                         const unsigned char *personal);
int __wrap_crypto_generichash_blake2b_update(crypto_generichash_blake2b_state *state,
                                             const unsigned char *in, unsigned long long inlen);
int __wrap_crypto_generichash_blake2b_final(crypto_generichash_blake2b_state *state,
                                            unsigned char *out, size_t outlen);
int __wrap__crypto_generichash_blake2b_pick_best_implementation(void);

#endif
