/* Keccak-f[1600] (FIPS 202 section 3) for src/crypto/sha3.c: the permutation and the sponge's
 * absorbing loop, in several implementations, one chosen once at load time (keccak.c).
 *
 * A state is 200 bytes: the 25 lanes in little-endian byte order, lane (x, y) at byte
 * 8 * (x + 5 * y), exactly as libsodium's crypto_core_keccak1600_state holds them, so states pass
 * between this code and libsodium's. rounds is 24 (Keccak-p[1600, 24] = Keccak-f[1600]: SHA-3,
 * SHAKE) or 12 (Keccak-p[1600, 12], its last 12 rounds: TurboSHAKE, RFC 9861).
 *
 * absorb: for each of `blocks` blocks of rate bytes (rate a multiple of 8, at most 168), the
 * state ^= the block (at its first rate bytes), then the permutation. */
#ifndef NAT_CRYPTO_KECCAK_H
#define NAT_CRYPTO_KECCAK_H

#include <stddef.h>
#include <stdint.h>

typedef void (*nat_keccak_permute_fn)(unsigned char state[200], unsigned int rounds);
typedef void (*nat_keccak_absorb_fn)(unsigned char state[200], const unsigned char *in,
                                     size_t blocks, size_t rate, unsigned int rounds);

/* FIPS 202 section 3.2.5: the round constants of Keccak-f[1600]'s 24 rounds. */
extern const uint64_t nat_keccak_round_constants[24];

/* 64-bit scalar C (keccak_portable.c): every platform; on x86-64 also compiled for BMI1 + BMI2. */
void nat_keccak_permute_portable(unsigned char state[200], unsigned int rounds);
void nat_keccak_absorb_portable(unsigned char state[200], const unsigned char *in, size_t blocks,
                                size_t rate, unsigned int rounds);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NAT_KECCAK_X86 1
void nat_keccak_permute_bmi2(unsigned char state[200], unsigned int rounds);
void nat_keccak_absorb_bmi2(unsigned char state[200], const unsigned char *in, size_t blocks,
                            size_t rate, unsigned int rounds);
#endif

/* The implementation keccak.c chose once, at load time: */
void nat_keccak_permute(unsigned char state[200], unsigned int rounds);
void nat_keccak_absorb(unsigned char state[200], const unsigned char *in, size_t blocks,
                       size_t rate, unsigned int rounds);
/* "portable" or "bmi2" */
const char *nat_keccak_impl(void);

#endif
