/* scrypt's ROMix in portable C (see scrypt_impl.h): BlockMix with Salsa20/8 (RFC 7914 sections
 * 3 and 4), the 16 state words in locals so the four quarter-rounds of a half-round run side by
 * side on the integer units. Words in V and XY are in Salsa20's own order, host-endian. */
#include <string.h>

#include "scrypt_impl.h"

#define ROTL32(x, n) ((uint32_t) (((x) << (n)) | ((x) >> (32 - (n)))))

static inline uint32_t load32_le(const uint8_t *p) {
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static inline void store32_le(uint8_t *p, uint32_t w) {
  p[0] = (uint8_t) w;
  p[1] = (uint8_t) (w >> 8);
  p[2] = (uint8_t) (w >> 16);
  p[3] = (uint8_t) (w >> 24);
}

/* Y <- BlockMix(in1 ^ in2) (in2 NULL: BlockMix(in1)), 2 * r 64-byte blocks, Y_i written to
 * out's block i / 2 + (i odd ? r : 0) as RFC 7914 orders them. Returns the first word of the
 * last block of out, which Integerify reads. in1, in2 and out do not overlap. */
#if defined(__GNUC__) || defined(__clang__)
#define NAT_SCRYPT_INLINE inline __attribute__((always_inline))
#else
#define NAT_SCRYPT_INLINE inline
#endif

static NAT_SCRYPT_INLINE uint32_t blockmix(const uint32_t *in1, const uint32_t *in2, uint32_t *out,
                                size_t r) {
  const uint32_t *last1 = in1 + (2 * r - 1) * 16, *last2 = in2 ? in2 + (2 * r - 1) * 16 : NULL;
  uint32_t x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15;

#define NAT_SCRYPT_X(k) ((last2 ? last1[k] ^ last2[k] : last1[k]))
  x0 = NAT_SCRYPT_X(0), x1 = NAT_SCRYPT_X(1), x2 = NAT_SCRYPT_X(2), x3 = NAT_SCRYPT_X(3);
  x4 = NAT_SCRYPT_X(4), x5 = NAT_SCRYPT_X(5), x6 = NAT_SCRYPT_X(6), x7 = NAT_SCRYPT_X(7);
  x8 = NAT_SCRYPT_X(8), x9 = NAT_SCRYPT_X(9), x10 = NAT_SCRYPT_X(10), x11 = NAT_SCRYPT_X(11);
  x12 = NAT_SCRYPT_X(12), x13 = NAT_SCRYPT_X(13), x14 = NAT_SCRYPT_X(14), x15 = NAT_SCRYPT_X(15);
#undef NAT_SCRYPT_X

  for (size_t i = 0; i < 2 * r; i++) {
    const uint32_t *b1 = in1 + i * 16, *b2 = in2 ? in2 + i * 16 : NULL;
    uint32_t *y = out + ((i >> 1) + (i & 1) * r) * 16;

    /* X <- X ^ B_i, kept in y as Salsa20's input for the final addition */
#define NAT_SCRYPT_IN(k, x) (x ^= b2 ? b1[k] ^ b2[k] : b1[k], y[k] = x)
    NAT_SCRYPT_IN(0, x0), NAT_SCRYPT_IN(1, x1), NAT_SCRYPT_IN(2, x2), NAT_SCRYPT_IN(3, x3);
    NAT_SCRYPT_IN(4, x4), NAT_SCRYPT_IN(5, x5), NAT_SCRYPT_IN(6, x6), NAT_SCRYPT_IN(7, x7);
    NAT_SCRYPT_IN(8, x8), NAT_SCRYPT_IN(9, x9), NAT_SCRYPT_IN(10, x10), NAT_SCRYPT_IN(11, x11);
    NAT_SCRYPT_IN(12, x12), NAT_SCRYPT_IN(13, x13), NAT_SCRYPT_IN(14, x14), NAT_SCRYPT_IN(15, x15);
#undef NAT_SCRYPT_IN

#if defined(__clang__)
#pragma clang loop unroll(full)
#elif defined(__GNUC__)
#pragma GCC unroll 4
#endif
    for (int round = 0; round < 8; round += 2) {
      /* columns */
      x4 ^= ROTL32(x0 + x12, 7), x9 ^= ROTL32(x5 + x1, 7);
      x14 ^= ROTL32(x10 + x6, 7), x3 ^= ROTL32(x15 + x11, 7);
      x8 ^= ROTL32(x4 + x0, 9), x13 ^= ROTL32(x9 + x5, 9);
      x2 ^= ROTL32(x14 + x10, 9), x7 ^= ROTL32(x3 + x15, 9);
      x12 ^= ROTL32(x8 + x4, 13), x1 ^= ROTL32(x13 + x9, 13);
      x6 ^= ROTL32(x2 + x14, 13), x11 ^= ROTL32(x7 + x3, 13);
      x0 ^= ROTL32(x12 + x8, 18), x5 ^= ROTL32(x1 + x13, 18);
      x10 ^= ROTL32(x6 + x2, 18), x15 ^= ROTL32(x11 + x7, 18);
      /* rows */
      x1 ^= ROTL32(x0 + x3, 7), x6 ^= ROTL32(x5 + x4, 7);
      x11 ^= ROTL32(x10 + x9, 7), x12 ^= ROTL32(x15 + x14, 7);
      x2 ^= ROTL32(x1 + x0, 9), x7 ^= ROTL32(x6 + x5, 9);
      x8 ^= ROTL32(x11 + x10, 9), x13 ^= ROTL32(x12 + x15, 9);
      x3 ^= ROTL32(x2 + x1, 13), x4 ^= ROTL32(x7 + x6, 13);
      x9 ^= ROTL32(x8 + x11, 13), x14 ^= ROTL32(x13 + x12, 13);
      x0 ^= ROTL32(x3 + x2, 18), x5 ^= ROTL32(x4 + x7, 18);
      x10 ^= ROTL32(x9 + x8, 18), x15 ^= ROTL32(x14 + x13, 18);
    }

#define NAT_SCRYPT_OUT(k, x) (x += y[k], y[k] = x)
    NAT_SCRYPT_OUT(0, x0), NAT_SCRYPT_OUT(1, x1), NAT_SCRYPT_OUT(2, x2), NAT_SCRYPT_OUT(3, x3);
    NAT_SCRYPT_OUT(4, x4), NAT_SCRYPT_OUT(5, x5), NAT_SCRYPT_OUT(6, x6), NAT_SCRYPT_OUT(7, x7);
    NAT_SCRYPT_OUT(8, x8), NAT_SCRYPT_OUT(9, x9), NAT_SCRYPT_OUT(10, x10), NAT_SCRYPT_OUT(11, x11);
    NAT_SCRYPT_OUT(12, x12), NAT_SCRYPT_OUT(13, x13), NAT_SCRYPT_OUT(14, x14);
    NAT_SCRYPT_OUT(15, x15);
#undef NAT_SCRYPT_OUT
  }
  return x0;
}

static uint32_t blockmix_plain(const uint32_t *in, uint32_t *out, size_t r) {
  return blockmix(in, NULL, out, r);
}

static uint32_t blockmix_xor(const uint32_t *in1, const uint32_t *in2, uint32_t *out, size_t r) {
#if defined(__GNUC__) || defined(__clang__)
  /* V_j was chosen a moment ago and is in no cache: ask for all of it at once */
  for (size_t k = 0; k < 32 * r; k += 16) __builtin_prefetch(&in2[k]);
#endif
  return blockmix(in1, in2, out, r);
}

void nat_scrypt_romix_portable(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY) {
  const size_t words = 32 * r;
  uint32_t *X = XY, *Y = XY + words;
  uint32_t j;

  /* 1: X <- B, straight into V_0 */
  for (size_t k = 0; k < words; k++) V[k] = load32_le(&B[k * 4]);
  /* 2-4: V_i <- X, X <- BlockMix(X), each step writing the next V_i itself */
  for (uint32_t i = 0; i < N - 1; i++) blockmix_plain(&V[i * words], &V[(i + 1) * words], r);
  j = blockmix_plain(&V[(size_t) (N - 1) * words], X, r) & (N - 1);
  /* 6-9: j <- Integerify(X) mod N, X <- BlockMix(X ^ V_j); N is even */
  for (uint32_t i = 0; i < N; i += 2) {
    j = blockmix_xor(X, &V[(size_t) j * words], Y, r) & (N - 1);
    j = blockmix_xor(Y, &V[(size_t) j * words], X, r) & (N - 1);
  }
  /* 10: B' <- X */
  for (size_t k = 0; k < words; k++) store32_le(&B[k * 4], X[k]);
}
