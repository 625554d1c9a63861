/* scrypt's ROMix on 128-bit vectors of four 32-bit lanes (see scrypt_impl.h), shared by
 * scrypt_sse2.c, scrypt_avx512vl.c and scrypt_simd128.c, which define before including it:
 *   NAT_V                          the vector type
 *   NAT_V_LOAD(p) NAT_V_STORE(p,v) 16-byte loads and stores (p is 16-byte aligned)
 *   NAT_V_ADD NAT_V_XOR            lane-wise 32-bit add, xor
 *   NAT_V_ROTL(v, n)               lane-wise rotation left by n
 *   NAT_V_ROT1 NAT_V_ROT2 NAT_V_ROT3  lanes (a, b, c, d) to (b, c, d, a), (c, d, a, b), (d, a, b, c)
 *   NAT_V_LANE0(v)                 lane 0 as a uint32_t
 *   NAT_SCRYPT_ROMIX               the function's name; NAT_SCRYPT_TARGET its attributes
 *
 * Salsa20's 16 words are kept as four diagonals: word 5 * i mod 16 at position i, so the
 * vectors are (0 5 10 15) (4 9 14 3) (8 13 2 7) (12 1 6 11). A column round is then four
 * vector steps with no data movement, the rows need each of three vectors turned by one, two
 * or three lanes and back. Every block in V and XY is stored in this order; B is converted on
 * the way in and out. Integerify reads word 0, which stays at position 0. */
#include <stddef.h>
#include <stdint.h>

#include "scrypt_impl.h"

#define NAT_SCRYPT_QUARTER(a, b, c, n) a = NAT_V_XOR(a, NAT_V_ROTL(NAT_V_ADD(b, c), n))

#define NAT_SCRYPT_SALSA20_8(X0, X1, X2, X3)    \
  do {                                          \
    for (int round = 0; round < 8; round += 2) { \
      NAT_SCRYPT_QUARTER(X1, X0, X3, 7);        \
      NAT_SCRYPT_QUARTER(X2, X1, X0, 9);        \
      NAT_SCRYPT_QUARTER(X3, X2, X1, 13);       \
      NAT_SCRYPT_QUARTER(X0, X3, X2, 18);       \
      X1 = NAT_V_ROT3(X1);                      \
      X2 = NAT_V_ROT2(X2);                      \
      X3 = NAT_V_ROT1(X3);                      \
      NAT_SCRYPT_QUARTER(X3, X0, X1, 7);        \
      NAT_SCRYPT_QUARTER(X2, X3, X0, 9);        \
      NAT_SCRYPT_QUARTER(X1, X2, X3, 13);       \
      NAT_SCRYPT_QUARTER(X0, X1, X2, 18);       \
      X1 = NAT_V_ROT1(X1);                      \
      X2 = NAT_V_ROT2(X2);                      \
      X3 = NAT_V_ROT3(X3);                      \
    }                                           \
  } while (0)

/* out <- BlockMix(in1 ^ in2) (in2 NULL: BlockMix(in1)); see scrypt_portable.c. Returns the
 * first word of out's last block. */
NAT_SCRYPT_TARGET static inline __attribute__((always_inline)) uint32_t nat_scrypt_simd_blockmix(const NAT_V *in1,
                                                                  const NAT_V *in2, NAT_V *out,
                                                                  size_t r) {
  const size_t last = (2 * r - 1) * 4;
  NAT_V X0 = NAT_V_LOAD(&in1[last]), X1 = NAT_V_LOAD(&in1[last + 1]);
  NAT_V X2 = NAT_V_LOAD(&in1[last + 2]), X3 = NAT_V_LOAD(&in1[last + 3]);

  if (in2) {
    X0 = NAT_V_XOR(X0, NAT_V_LOAD(&in2[last])), X1 = NAT_V_XOR(X1, NAT_V_LOAD(&in2[last + 1]));
    X2 = NAT_V_XOR(X2, NAT_V_LOAD(&in2[last + 2])), X3 = NAT_V_XOR(X3, NAT_V_LOAD(&in2[last + 3]));
  }
  for (size_t i = 0; i < 2 * r; i++) {
    const NAT_V *b1 = &in1[i * 4];
    NAT_V *y = &out[((i >> 1) + (i & 1) * r) * 4];
    NAT_V T0, T1, T2, T3;

    X0 = NAT_V_XOR(X0, NAT_V_LOAD(&b1[0])), X1 = NAT_V_XOR(X1, NAT_V_LOAD(&b1[1]));
    X2 = NAT_V_XOR(X2, NAT_V_LOAD(&b1[2])), X3 = NAT_V_XOR(X3, NAT_V_LOAD(&b1[3]));
    if (in2) {
      const NAT_V *b2 = &in2[i * 4];
      X0 = NAT_V_XOR(X0, NAT_V_LOAD(&b2[0])), X1 = NAT_V_XOR(X1, NAT_V_LOAD(&b2[1]));
      X2 = NAT_V_XOR(X2, NAT_V_LOAD(&b2[2])), X3 = NAT_V_XOR(X3, NAT_V_LOAD(&b2[3]));
    }
    T0 = X0, T1 = X1, T2 = X2, T3 = X3;
    NAT_SCRYPT_SALSA20_8(X0, X1, X2, X3);
    X0 = NAT_V_ADD(X0, T0), X1 = NAT_V_ADD(X1, T1), X2 = NAT_V_ADD(X2, T2), X3 = NAT_V_ADD(X3, T3);
    NAT_V_STORE(&y[0], X0), NAT_V_STORE(&y[1], X1), NAT_V_STORE(&y[2], X2), NAT_V_STORE(&y[3], X3);
  }
  return NAT_V_LANE0(X0);
}

NAT_SCRYPT_TARGET static uint32_t nat_scrypt_simd_blockmix_plain(const NAT_V *in, NAT_V *out,
                                                                 size_t r) {
  return nat_scrypt_simd_blockmix(in, NULL, out, r);
}

NAT_SCRYPT_TARGET static uint32_t nat_scrypt_simd_blockmix_xor(const NAT_V *in1, const NAT_V *in2,
                                                               NAT_V *out, size_t r) {
  return nat_scrypt_simd_blockmix(in1, in2, out, r);
}

NAT_SCRYPT_TARGET void NAT_SCRYPT_ROMIX(uint8_t *B, size_t r, uint32_t N, uint32_t *V,
                                        uint32_t *XY) {
  const size_t words = 32 * r, vecs = 8 * r;
  NAT_V *Vv = (NAT_V *) (void *) V, *X = (NAT_V *) (void *) XY, *Y = X + vecs;
  uint32_t j;

  /* 1: X <- B in diagonal order, straight into V_0 */
  for (size_t k = 0; k < words; k += 16) {
    for (size_t i = 0; i < 16; i++) {
      const uint8_t *p = &B[(k + (i * 5 & 15)) * 4];
      V[k + i] = (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
                 (uint32_t) p[3] << 24;
    }
  }
  /* 2-4: V_i <- X, X <- BlockMix(X), each step writing the next V_i itself */
  for (uint32_t i = 0; i < N - 1; i++) {
    nat_scrypt_simd_blockmix_plain(&Vv[i * vecs], &Vv[(i + 1) * vecs], r);
  }
  j = nat_scrypt_simd_blockmix_plain(&Vv[(size_t) (N - 1) * vecs], X, r) & (N - 1);
  /* 6-9: j <- Integerify(X) mod N, X <- BlockMix(X ^ V_j); N is even */
  for (uint32_t i = 0; i < N; i += 2) {
    j = nat_scrypt_simd_blockmix_xor(X, &Vv[(size_t) j * vecs], Y, r) & (N - 1);
    j = nat_scrypt_simd_blockmix_xor(Y, &Vv[(size_t) j * vecs], X, r) & (N - 1);
  }
  /* 10: B' <- X, back in Salsa20's order */
  for (size_t k = 0; k < words; k += 16) {
    for (size_t i = 0; i < 16; i++) {
      const uint32_t w = XY[k + i];
      uint8_t *p = &B[(k + (i * 5 & 15)) * 4];
      p[0] = (uint8_t) w, p[1] = (uint8_t) (w >> 8), p[2] = (uint8_t) (w >> 16);
      p[3] = (uint8_t) (w >> 24);
    }
  }
}
