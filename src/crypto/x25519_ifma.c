/* X25519's ladder on four field elements at once with AVX-512 IFMA (vpmadd52luq/vpmadd52huq on
 * ymm registers), x86-64 with GCC or clang; x25519_dispatch.c runs it only where CPUID and XCR0
 * report AVX-512F, VL and IFMA (and BMI2 and ADX, for the final inversion and product on the
 * radix-2^64 field), and only if it beats the MULX ladder when timed at load.
 *
 * Representation: radix 2^51, five limbs, limb i of four field elements in the four 64-bit lanes
 * of one ymm register (nat_fe4). IFMA multiplies the low 52 bits of two lanes and adds the low or
 * the high 52 bits of the 104-bit product to a 64-bit lane, so every limb that enters a product
 * must be below 2^52: each sum or difference is carried before it is multiplied.
 *
 * A ladder step (RFC 7748 section 5) is nine products in three rounds of four lanes, with the
 * state held as (x2, z2, x3, z3):
 *   round 1  (A, B, D, C) (A, B, A, B) = (AA, BB, DA, CB)        A = x2 + z2, B = x2 - z2, ...
 *   round 2  (AA, E, DA + CB, DA - CB) (BB, 121666, DA + CB, DA - CB)
 *            = (x2', 121666 E, x3', (DA - CB)^2)                  E = AA - BB
 *   round 3  (-, E, -, (DA - CB)^2) (-, BB + 121666 E, -, x1) = (-, z2', -, z3')
 * (z2 = E (BB + 121666 E), libsodium's form of E (AA + a24 E)). The conditional swap of the
 * two points is a masked exchange of the register halves: no branch or index on the scalar, and
 * IFMA's timing does not depend on its operands. The ladder ends by inverting z2 with the
 * constant-time safegcd of fe25519_64.h and one product on the MULX field (fe25519_64.h). */
#include <stdint.h>
#include <string.h>

#include "x25519_impl.h"

#ifdef NAT_X25519_IFMA
#include "fe25519_64.h"
#include "fe25519_ifma.h"

NAT_IFMA_TARGET static void nat_x25519_ifma_ladder(unsigned char q[32], const unsigned char k[32],
                                                    const unsigned char u[32]) {
  uint64_t x1[5];
  nat_fe4 v, x1v, k121666, two_p;
  uint64_t swap = 0;

  nat_fe4_limbs(x1, u);
  for (int i = 0; i < 5; i++) {
    /* (x2, z2, x3, z3) = (1, 0, u, 1), lane 0 lowest */
    v.v[i] = _mm256_set_epi64x(i == 0, (long long) x1[i], 0, i == 0);
    x1v.v[i] = _mm256_set1_epi64x((long long) x1[i]);
    k121666.v[i] = _mm256_set1_epi64x(i == 0 ? 121666 : 0);
    two_p.v[i] = _mm256_set1_epi64x((long long) (i == 0 ? NAT_2P0 : NAT_2PI));
  }
  for (int pos = 254; pos >= 0; pos--) {
    const uint64_t bit = (k[pos >> 3] >> (pos & 7)) & 1;
    swap ^= bit;
    /* the two points are exchanged as they are read, by the lane indexes: (A, B, D, C) and
     * (A, B, A, B) of the state (x2, z2, x3, z3), or with 2 xored in, of (x3, z3, x2, z2) */
    const __m256i flip = _mm256_set1_epi64x((long long) (swap << 1));
    const __m256i ix = _mm256_xor_si256(_mm256_set_epi64x(2, 3, 1, 0), flip);
    const __m256i iy = _mm256_xor_si256(_mm256_set_epi64x(1, 0, 1, 0), flip);
    swap = bit;
    nat_fe4 s, t, x, y, w, r2, r3;
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
      /* (A, B, C, D) = (x2 + z2, x2 - z2, x3 + z3, x3 - z3) */
      const __m256i p = nat_fe4_pairswap(v.v[i]);
      const __m256i sum = _mm256_add_epi64(v.v[i], p);
      const __m256i dif = _mm256_sub_epi64(_mm256_add_epi64(p, two_p.v[i]), v.v[i]);
      t.v[i] = NAT_FE4_BLEND(sum, dif, 0xa);
    }
    nat_fe4_carry(&t, &t);
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
      x.v[i] = _mm256_permutexvar_epi64(ix, t.v[i]);
      y.v[i] = _mm256_permutexvar_epi64(iy, t.v[i]);
    }
    nat_fe4_mul(&w, &x, &y); /* (AA, BB, DA, CB) */
#pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
      const __m256i p = nat_fe4_pairswap(w.v[i]); /* (BB, AA, CB, DA) */
      const __m256i sum = _mm256_add_epi64(w.v[i], p);
      const __m256i dif = _mm256_sub_epi64(_mm256_add_epi64(p, two_p.v[i]), w.v[i]);
      s.v[i] = NAT_FE4_BLEND(dif, sum, 0x4); /* (-, E, DA + CB, DA - CB) */
    }
    nat_fe4_carry(&s, &s);
    for (int i = 0; i < 5; i++) {
      x.v[i] = NAT_FE4_BLEND(s.v[i], w.v[i], 0x1); /* (AA, E, DA + CB, DA - CB) */
      y.v[i] = NAT_FE4_BLEND(s.v[i], NAT_FE4_BLEND(nat_fe4_pairswap(w.v[i]), k121666.v[i], 0x2), 0x3);
    }
    nat_fe4_mul(&r2, &x, &y); /* (x2', 121666 E, x3', (DA - CB)^2) */
    for (int i = 0; i < 5; i++) {
      x.v[i] = NAT_FE4_BLEND(s.v[i], r2.v[i], 0x8);                /* (-, E, -, (DA - CB)^2) */
      t.v[i] = _mm256_add_epi64(w.v[i], r2.v[i]);                 /* lane 1: BB + 121666 E */
    }
    nat_fe4_carry(&t, &t);
    for (int i = 0; i < 5; i++) y.v[i] = NAT_FE4_BLEND(t.v[i], x1v.v[i], 0x8);
    nat_fe4_mul(&r3, &x, &y); /* (-, z2', -, z3') */
    for (int i = 0; i < 5; i++) v.v[i] = NAT_FE4_BLEND(r2.v[i], r3.v[i], 0xa);
  }
  const __m256i m = _mm256_set1_epi64x((long long) (0 - swap));
  uint64_t lanes[5][4];
#pragma GCC unroll 5
  for (int i = 0; i < 5; i++) {
    const __m256i other = _mm256_permute2x128_si256(v.v[i], v.v[i], 0x01);
    v.v[i] = _mm256_xor_si256(v.v[i], _mm256_and_si256(m, _mm256_xor_si256(v.v[i], other)));
    _mm256_storeu_si256((__m256i *) lanes[i], v.v[i]);
  }
  uint64_t hx[5], hz[5];
  for (int i = 0; i < 5; i++) {
    hx[i] = lanes[i][0];
    hz[i] = lanes[i][1];
  }
  nat_fe64 x2, z2;
  nat_fe4_pack(&x2, hx);
  nat_fe4_pack(&z2, hz);
  nat_fe64_invert_safegcd(&z2, &z2);
  nat_fe64_mul(&x2, &x2, &z2);
  nat_fe64_tobytes(q, &x2);
  /* the ladder's state held secret-derived values */
  memset(lanes, 0, sizeof lanes);
  __asm__ volatile("" : : "r"(lanes) : "memory");
}

const nat_x25519_kernels nat_x25519_ifma = { "ifma", nat_x25519_ifma_ladder };
#endif
