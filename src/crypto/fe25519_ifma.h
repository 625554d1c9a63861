/* Arithmetic in GF(p), p = 2^255 - 19, on four elements at once with AVX-512 IFMA, for the X25519
 * ladder of x25519_ifma.c: radix 2^51, five limbs, limb i of the four elements in the four 64-bit
 * lanes of one ymm register. IFMA (vpmadd52luq / vpmadd52huq) multiplies the low 52 bits of two
 * lanes and adds the low or the high 52 bits of the 104-bit product to a 64-bit lane, so a limb
 * that enters a product must be below 2^52 (bits above are ignored, silently): the callers carry
 * every sum or difference before multiplying it. static inline, x86-64 with GCC or clang only
 * (NAT_FE25519_IFMA); the functions carry their own target attribute, and run only where
 * x25519_dispatch.c found AVX-512F, VL and IFMA. No branch or index on a value. */
#ifndef NAT_CRYPTO_FE25519_IFMA_H
#define NAT_CRYPTO_FE25519_IFMA_H

#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(_MSC_VER)
#define NAT_FE25519_IFMA 1
#include <immintrin.h>

#include "fe25519_64.h"

#define NAT_IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define NAT_IFMA_INLINE NAT_IFMA_TARGET static inline __attribute__((always_inline))
#define NAT_M51 ((UINT64_C(1) << 51) - 1)

typedef struct nat_fe4 {
  __m256i v[5];
} nat_fe4;

/* Limbs below 2^64 in, below 2^51 + 2^18 out: every carry at once (limb i's carry from its own
 * value, not from the carried limb below), the top one back into limb 0 as 19 times it. */
NAT_IFMA_INLINE void nat_fe4_carry(nat_fe4 *r, const nat_fe4 *a) {
  const __m256i m = _mm256_set1_epi64x((long long) NAT_M51);
  __m256i c[5];
  for (int i = 0; i < 5; i++) c[i] = _mm256_srli_epi64(a->v[i], 51);
  const __m256i c19 = _mm256_add_epi64(_mm256_add_epi64(c[4], _mm256_slli_epi64(c[4], 1)), _mm256_slli_epi64(c[4], 4));
  r->v[0] = _mm256_add_epi64(_mm256_and_si256(a->v[0], m), c19);
  for (int i = 1; i < 5; i++) r->v[i] = _mm256_add_epi64(_mm256_and_si256(a->v[i], m), c[i - 1]);
}

/* r = a b lane by lane, limbs below 2^52 in, below 2^51 + 2^18 out. The product of limbs i and
 * j adds its low 52 bits at weight 2^(51 (i + j)) and its high 52 bits at 2^(51 (i + j) + 52),
 * i.e. twice at column i + j + 1; columns 5..9 come back times 19 (2^255 = 19 mod p). Column
 * sums stay below 15 2^52 and the folded limbs below 20 2^56 < 2^61. */
NAT_IFMA_INLINE void nat_fe4_mul(nat_fe4 *r, const nat_fe4 *a, const nat_fe4 *b) {
  /* two accumulators per column and half (products with i even, i odd), so that no chain of
   * dependent multiply-adds is longer than three */
  __m256i lo[2][9], hi[2][9];
#pragma GCC unroll 9
  for (int k = 0; k < 9; k++) lo[0][k] = lo[1][k] = hi[0][k] = hi[1][k] = _mm256_setzero_si256();
#pragma GCC unroll 5
  for (int i = 0; i < 5; i++) {
#pragma GCC unroll 5
    for (int j = 0; j < 5; j++) {
      lo[i & 1][i + j] = _mm256_madd52lo_epu64(lo[i & 1][i + j], a->v[i], b->v[j]);
      hi[i & 1][i + j] = _mm256_madd52hi_epu64(hi[i & 1][i + j], a->v[i], b->v[j]);
    }
  }
  nat_fe4 t;
  /* column k = lo[k] + 2 hi[k - 1]; limb k = column k + 19 column (k + 5) */
#pragma GCC unroll 5
  for (int k = 0; k < 5; k++) {
    __m256i low = _mm256_add_epi64(lo[0][k], lo[1][k]);
    __m256i up = _mm256_slli_epi64(_mm256_add_epi64(hi[0][k + 4], hi[1][k + 4]), 1);
    if (k > 0) low = _mm256_add_epi64(low, _mm256_slli_epi64(_mm256_add_epi64(hi[0][k - 1], hi[1][k - 1]), 1));
    if (k < 4) up = _mm256_add_epi64(up, _mm256_add_epi64(lo[0][k + 5], lo[1][k + 5]));
    const __m256i up19 = _mm256_add_epi64(_mm256_add_epi64(up, _mm256_slli_epi64(up, 1)), _mm256_slli_epi64(up, 4));
    t.v[k] = _mm256_add_epi64(low, up19);
  }
  nat_fe4_carry(r, &t);
}

/* The lanes of b where the bit of mask (one per lane: 1, 2, 4, 8) is set, of a elsewhere. */
#define NAT_FE4_BLEND(a, b, mask) _mm256_blend_epi32((a), (b), NAT_FE4_MASK32(mask))
#define NAT_FE4_MASK32(m) ((((m) & 1) ? 0x03 : 0) | (((m) & 2) ? 0x0c : 0) | (((m) & 4) ? 0x30 : 0) | (((m) & 8) ? 0xc0 : 0))

/* 2p, limb by limb (2^52 - 38, then 2^52 - 2): added before a subtraction, so that no limb goes
 * below zero (every subtrahend limb is below 2^51 + 2^18). */
#define NAT_2P0 ((UINT64_C(1) << 52) - 38)
#define NAT_2PI ((UINT64_C(1) << 52) - 2)

/* The lanes (1 0 3 2): the two halves of each 128-bit half exchanged. */
NAT_IFMA_INLINE __m256i nat_fe4_pairswap(__m256i a) {
  return _mm256_shuffle_epi32(a, 0x4e);
}

/* The 51-bit limbs of 32 little-endian bytes, bit 255 ignored. */
static inline void nat_fe4_limbs(uint64_t h[5], const unsigned char s[32]) {
  const uint64_t w0 = nat_fe64_load64(s), w1 = nat_fe64_load64(s + 8), w2 = nat_fe64_load64(s + 16),
                 w3 = nat_fe64_load64(s + 24) & UINT64_C(0x7fffffffffffffff);
  h[0] = w0 & NAT_M51;
  h[1] = (w0 >> 51 | w1 << 13) & NAT_M51;
  h[2] = (w1 >> 38 | w2 << 26) & NAT_M51;
  h[3] = (w2 >> 25 | w3 << 39) & NAT_M51;
  h[4] = w3 >> 12;
}

/* sum h[i] 2^(51 i), h[i] < 2^52, as four 64-bit words (below 2^256). */
static inline void nat_fe4_pack(nat_fe64 *r, const uint64_t h[5]) {
  typedef unsigned __int128 u128;
  u128 acc = (u128) h[0] + ((u128) h[1] << 51);
  r->v[0] = (uint64_t) acc;
  acc = (acc >> 64) + ((u128) h[2] << 38);
  r->v[1] = (uint64_t) acc;
  acc = (acc >> 64) + ((u128) h[3] << 25);
  r->v[2] = (uint64_t) acc;
  acc = (acc >> 64) + ((u128) h[4] << 12);
  r->v[3] = (uint64_t) acc;
}

#endif
#endif
