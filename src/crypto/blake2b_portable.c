/* BLAKE2b's compression function in 64-bit scalar C (see blake2b_impl.h). */
#include "blake2b_impl.h"

#include <string.h>

/* One load (and a byte swap on big-endian targets). gcc turns a byte loop here into vector code
 * and spills the state around it. */
static inline uint64_t load64_le(const unsigned char *p) {
  uint64_t x;
  memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}

/* RFC 7693 sections 3.1 and 3.2, fully unrolled with the state in 16 locals. */
#define ROTR64(x, n) ((x) >> (n) | (x) << (64 - (n)))

#define G(a, b, c, d, x, y)                                            \
  do {                                                                 \
    a += b + m[x];                                                     \
    d = ROTR64(d ^ a, 32);                                             \
    c += d;                                                            \
    b = ROTR64(b ^ c, 24);                                             \
    a += b + m[y];                                                     \
    d = ROTR64(d ^ a, 16);                                             \
    c += d;                                                            \
    b = ROTR64(b ^ c, 63);                                             \
  } while (0)

#define ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
  G(v0, v4, v8, v12, s0, s1);                                                     \
  G(v1, v5, v9, v13, s2, s3);                                                     \
  G(v2, v6, v10, v14, s4, s5);                                                    \
  G(v3, v7, v11, v15, s6, s7);                                                    \
  G(v0, v5, v10, v15, s8, s9);                                                    \
  G(v1, v6, v11, v12, s10, s11);                                                  \
  G(v2, v7, v8, v13, s12, s13);                                                   \
  G(v3, v4, v9, v14, s14, s15);

void nat_blake2b_compress_portable(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                                   const unsigned char *in, size_t blocks, uint64_t inc) {
  uint64_t t0 = t[0], t1 = t[1];
  for (; blocks > 0; blocks--, in += 128) {
    t0 += inc;
    t1 += t0 < inc;
    uint64_t m[16];
    for (int i = 0; i < 16; i++) m[i] = load64_le(in + 8 * i);
    uint64_t v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3], v4 = h[4], v5 = h[5], v6 = h[6];
    uint64_t v7 = h[7], v8 = NAT_BLAKE2B_IV0, v9 = NAT_BLAKE2B_IV1, v10 = NAT_BLAKE2B_IV2;
    uint64_t v11 = NAT_BLAKE2B_IV3, v12 = NAT_BLAKE2B_IV4 ^ t0, v13 = NAT_BLAKE2B_IV5 ^ t1;
    uint64_t v14 = NAT_BLAKE2B_IV6 ^ f0, v15 = NAT_BLAKE2B_IV7 ^ f1;
    NAT_BLAKE2B_ROUNDS(ROUND)
    h[0] ^= v0 ^ v8;
    h[1] ^= v1 ^ v9;
    h[2] ^= v2 ^ v10;
    h[3] ^= v3 ^ v11;
    h[4] ^= v4 ^ v12;
    h[5] ^= v5 ^ v13;
    h[6] ^= v6 ^ v14;
    h[7] ^= v7 ^ v15;
  }
  t[0] = t0;
  t[1] = t1;
}
