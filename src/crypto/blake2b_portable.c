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

/* RFC 7693 sections 3.1 and 3.2, fully unrolled with the state in 16 locals. The four G
 * functions of a step run in lockstep, each line one operation of all four: the compiler keeps
 * that order, and four independent chains side by side are what the integer units can overlap
 * (the step's critical path is one G, 12 operations). On Zen 5 (family 26) this is about 3 %
 * faster than one G after another, and the same on Zen 4. */
#define ROTR64(x, n) ((x) >> (n) | (x) << (64 - (n)))

/* Half of G (RFC 7693 section 3.1) on the four columns or diagonals: a + m first, as it does not
 * wait for b. */
#define HALF4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, x0, x1, x2, x3, r1, r2) \
  a0 += m[x0]; a1 += m[x1]; a2 += m[x2]; a3 += m[x3];                                    \
  a0 += b0; a1 += b1; a2 += b2; a3 += b3;                                                \
  d0 = ROTR64(d0 ^ a0, r1); d1 = ROTR64(d1 ^ a1, r1);                                    \
  d2 = ROTR64(d2 ^ a2, r1); d3 = ROTR64(d3 ^ a3, r1);                                    \
  c0 += d0; c1 += d1; c2 += d2; c3 += d3;                                                \
  b0 = ROTR64(b0 ^ c0, r2); b1 = ROTR64(b1 ^ c1, r2);                                    \
  b2 = ROTR64(b2 ^ c2, r2); b3 = ROTR64(b3 ^ c3, r2);

/* G on four (a, b, c, d) quadruples with message words s0..s7 (sigma's pairs in order). */
#define STEP4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, s0, s1, s2, s3, s4, \
              s5, s6, s7)                                                                    \
  HALF4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, s0, s2, s4, s6, 32, 24)   \
  HALF4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, s1, s3, s5, s7, 16, 63)

/* A round: the columns, then the diagonals. */
#define ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15)          \
  STEP4(v0, v4, v8, v12, v1, v5, v9, v13, v2, v6, v10, v14, v3, v7, v11, v15, s0, s1, s2, s3,  \
        s4, s5, s6, s7)                                                                      \
  STEP4(v0, v5, v10, v15, v1, v6, v11, v12, v2, v7, v8, v13, v3, v4, v9, v14, s8, s9, s10,    \
        s11, s12, s13, s14, s15)

/* The 16 state words want every general register x86-64 has: node-gyp builds with
 * -fno-omit-frame-pointer, which takes rbp away (about 3 % slower on Zen 5), so gcc frees it
 * here (clang has no such attribute; it keeps its own default). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define NAT_ALL_REGISTERS __attribute__((optimize("omit-frame-pointer")))
#else
#define NAT_ALL_REGISTERS
#endif

NAT_ALL_REGISTERS void nat_blake2b_compress_portable(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
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
