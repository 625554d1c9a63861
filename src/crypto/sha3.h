/* SHA3-256 and SHA3-512 (FIPS 202), SHAKE128 and SHAKE256 (FIPS 202), TurboSHAKE128 and
 * TurboSHAKE256 (RFC 9861): libsodium 1.0.22's crypto_hash_sha3* and crypto_xof_* functions, the
 * same bytes, on our Keccak-f[1600] (keccak.h). Each function is a drop-in for the libsodium
 * function of the same name after "crypto_hash_" / "crypto_xof_" (with size_t lengths) and
 * returns what it returns.
 *
 * The states are libsodium's: its Keccak state (crypto_core_keccak1600_state, the 25 lanes as
 * little-endian bytes), then for SHA-3 size_t offset, rate, outlen and uint8_t phase
 * (crypto_hash/sha3/hash_sha3.c), for the XOFs size_t offset, uint8_t phase, unsigned char domain
 * (crypto_xof/<name>/ref/<name>_ref.h). Every field is left as libsodium's code leaves it, after
 * every call (its absorbing defers the permutation of a full block until more input or the
 * final comes, and so does this code), so a state passes between these functions and
 * libsodium's at any point. As in libsodium, the functions trust offset <= rate, SHA-3's rate
 * and outlen fields and phase <= 1 (src/hash.c checks them): an update after a final or a
 * squeeze permutes, restarts absorbing and returns -1; a second SHA-3 final permutes, writes
 * out and returns -1. */
#ifndef NAT_CRYPTO_SHA3_H
#define NAT_CRYPTO_SHA3_H

#include <sodium.h>
#include <stddef.h>

int nat_sha3256_init(crypto_hash_sha3256_state *state);
int nat_sha3256_update(crypto_hash_sha3256_state *state, const unsigned char *in, size_t inlen);
int nat_sha3256_final(crypto_hash_sha3256_state *state, unsigned char *out);
int nat_sha3256(unsigned char *out, const unsigned char *in, size_t inlen);

int nat_sha3512_init(crypto_hash_sha3512_state *state);
int nat_sha3512_update(crypto_hash_sha3512_state *state, const unsigned char *in, size_t inlen);
int nat_sha3512_final(crypto_hash_sha3512_state *state, unsigned char *out);
int nat_sha3512(unsigned char *out, const unsigned char *in, size_t inlen);

int nat_shake128(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);
int nat_shake128_init(crypto_xof_shake128_state *state);
int nat_shake128_init_with_domain(crypto_xof_shake128_state *state, unsigned char domain);
int nat_shake128_update(crypto_xof_shake128_state *state, const unsigned char *in, size_t inlen);
int nat_shake128_squeeze(crypto_xof_shake128_state *state, unsigned char *out, size_t outlen);

int nat_shake256(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);
int nat_shake256_init(crypto_xof_shake256_state *state);
int nat_shake256_init_with_domain(crypto_xof_shake256_state *state, unsigned char domain);
int nat_shake256_update(crypto_xof_shake256_state *state, const unsigned char *in, size_t inlen);
int nat_shake256_squeeze(crypto_xof_shake256_state *state, unsigned char *out, size_t outlen);

int nat_turboshake128(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);
int nat_turboshake128_init(crypto_xof_turboshake128_state *state);
int nat_turboshake128_init_with_domain(crypto_xof_turboshake128_state *state,
                                       unsigned char domain);
int nat_turboshake128_update(crypto_xof_turboshake128_state *state, const unsigned char *in,
                             size_t inlen);
int nat_turboshake128_squeeze(crypto_xof_turboshake128_state *state, unsigned char *out,
                              size_t outlen);

int nat_turboshake256(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen);
int nat_turboshake256_init(crypto_xof_turboshake256_state *state);
int nat_turboshake256_init_with_domain(crypto_xof_turboshake256_state *state,
                                       unsigned char domain);
int nat_turboshake256_update(crypto_xof_turboshake256_state *state, const unsigned char *in,
                             size_t inlen);
int nat_turboshake256_squeeze(crypto_xof_turboshake256_state *state, unsigned char *out,
                              size_t outlen);

#endif
