/* BLAKE2b's compression function (RFC 7693 section 3.2) in several implementations, for
 * blake2b.c; blake2b_dispatch.c picks one when the library is loaded.
 *
 * Each compresses `blocks` consecutive 128-byte blocks from in into h, adding inc to the 128-bit
 * counter t (t[0] low, t[1] high) before each block; f0 and f1 are the finalisation flags. */
#ifndef NAT_CRYPTO_BLAKE2B_IMPL_H
#define NAT_CRYPTO_BLAKE2B_IMPL_H

#include <stddef.h>
#include <stdint.h>

typedef void (*nat_blake2b_compress_fn)(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                                        const unsigned char *in, size_t blocks, uint64_t inc);

/* 64-bit scalar C, state and message in locals: every platform. */
void nat_blake2b_compress_portable(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                                   const unsigned char *in, size_t blocks, uint64_t inc);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NAT_BLAKE2B_X86 1
/* AVX2: the state as four ymm rows, the message laid out ahead by the integer units. */
void nat_blake2b_compress_avx2(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                               const unsigned char *in, size_t blocks, uint64_t inc);
#endif

#if defined(__wasm_simd128__)
#define NAT_BLAKE2B_SIMD128 1
/* wasm SIMD128: the state as rows of two v128 (blake2b_simd128.c). */
void nat_blake2b_compress_simd128(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                                  const unsigned char *in, size_t blocks, uint64_t inc);
/* Which compression function runs from now on, for the tests (the wasm build has no environment
 * to read a NATRIUM_BLAKE2B_IMPL from): NAT_BLAKE2B_TIMED the portable code and the timings
 * again from 4096 blocks on (as at load), NAT_BLAKE2B_PORTABLE or NAT_BLAKE2B_SIMD128_ONLY that one
 * for good. */
enum { NAT_BLAKE2B_TIMED = 1, NAT_BLAKE2B_PORTABLE = 2, NAT_BLAKE2B_SIMD128_ONLY = 3 };
void nat_blake2b_use(int which);
#endif

/* The implementation blake2b_dispatch.c chose, and its name. */
void nat_blake2b_compress(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                          const unsigned char *in, size_t blocks, uint64_t inc);
const char *nat_blake2b_impl(void);

/* RFC 7693 section 2.6: the IV (SHA-512's initial hash values). */
#define NAT_BLAKE2B_IV0 0x6a09e667f3bcc908ULL
#define NAT_BLAKE2B_IV1 0xbb67ae8584caa73bULL
#define NAT_BLAKE2B_IV2 0x3c6ef372fe94f82bULL
#define NAT_BLAKE2B_IV3 0xa54ff53a5f1d36f1ULL
#define NAT_BLAKE2B_IV4 0x510e527fade682d1ULL
#define NAT_BLAKE2B_IV5 0x9b05688c2b3e6c1fULL
#define NAT_BLAKE2B_IV6 0x1f83d9abfb41bd6bULL
#define NAT_BLAKE2B_IV7 0x5be0cd19137e2179ULL

/* RFC 7693 section 2.7: the twelve rounds, each a literal list of sigma[r] (rounds 10 and 11
 * repeat 0 and 1), so every message index is a constant. */
#define NAT_BLAKE2B_ROUNDS(R)                                      \
  R(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)          \
  R(14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3)          \
  R(11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4)          \
  R(7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8)          \
  R(9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13)          \
  R(2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9)          \
  R(12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11)          \
  R(13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10)          \
  R(6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5)          \
  R(10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0)          \
  R(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)          \
  R(14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3)

#endif
