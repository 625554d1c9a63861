/* scrypt's ROMix (RFC 7914 section 5, "SMix" in libsodium's escrypt) in several implementations,
 * for scrypt.c; scrypt_dispatch.c picks one when the library is loaded.
 *
 * Each computes B <- ROMix_r(B, N) in place: B is 128 * r bytes (one of the p blocks PBKDF2
 * wrote), V is scratch for N * 32 * r words and XY for 64 * r + 16 words, both 64-byte aligned.
 * N is a power of two, 2 <= N <= 2^31, and r >= 1 (scrypt.c checks as libsodium does). V and XY
 * hold words derived from the password afterwards: the caller wipes them. How the words are
 * laid out in V and XY is each implementation's own (the SIMD ones keep Salsa20's diagonals
 * together, so one 128-bit vector is one diagonal and a round needs no gathering). */
#ifndef NAT_CRYPTO_SCRYPT_IMPL_H
#define NAT_CRYPTO_SCRYPT_IMPL_H

#include <stddef.h>
#include <stdint.h>

typedef void (*nat_scrypt_romix_fn)(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY);

/* 32-bit scalar C, the 16 state words in locals: every platform. */
void nat_scrypt_romix_portable(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NAT_SCRYPT_X86 1
/* SSE2 (every x86-64): four xmm diagonals, rotations as two shifts and an or. */
void nat_scrypt_romix_sse2(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY);
/* AVX-512VL: the same on xmm registers, rotations as one vprold. */
void nat_scrypt_romix_avx512vl(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY);
#endif

#if defined(__wasm_simd128__)
#define NAT_SCRYPT_SIMD128 1
/* WebAssembly SIMD128: four v128 diagonals. */
void nat_scrypt_romix_simd128(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY);
#endif

/* The implementation scrypt_dispatch.c chose, and its name. */
void nat_scrypt_romix(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY);
const char *nat_scrypt_impl(void);

#endif
