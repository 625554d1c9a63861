/* Poly1305 in WebAssembly SIMD128 (see poly1305_impl.h): four blocks at a time.
 *
 * As the AVX2 kernel's four-lane code: lane j accumulates blocks j, j + 4, ... by Horner's rule
 * with r^4, and the last group multiplies lane j by r^(4-j). A register holds one 26-bit limb of
 * the four lanes in 32-bit lanes; u64x2.extmul_{low,high}_u32x4 (one pmuludq each under V8 on
 * x86-64, umull on arm64) make the products two lanes at a time. The powers of r are computed at
 * every call, so runs shorter than 16 blocks stay with the portable 26-bit code. */
#include "poly1305_impl.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#define MASK26 wasm_i32x4_splat(0x3ffffff)

/* h = h r per lane, s = 5 r: limbs of h below 2^27 and of r at most 2^26 in, below 2^26 out
 * (h1: 2^26 + 2^6). d4 stays below 5 2^53 (+ 2^33), so 5 (d4 >> 26) fits the 32-bit lanes. */
static inline __attribute__((always_inline)) void vmul(v128_t h[5], const v128_t r[5], const v128_t s[5]) {
  const v128_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
  v128_t r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], s1 = s[1], s2 = s[2], s3 = s[3], s4 = s[4];
  /* Opaque to the optimiser: otherwise clang hoists the zero-extension of the loop-invariant r
   * and multiplies with i64x2.mul, which V8 expands to several instructions per product. */
  __asm__ volatile("" : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3), "+r"(r4));
  __asm__ volatile("" : "+r"(s1), "+r"(s2), "+r"(s3), "+r"(s4));
  v128_t d[2][5];
#define ADD wasm_i64x2_add
#define HALF(k, mul)                                                                              \
  do {                                                                                            \
    d[k][0] = ADD(ADD(ADD(mul(h0, r0), mul(h1, s4)), ADD(mul(h2, s3), mul(h3, s2))), mul(h4, s1)); \
    d[k][1] = ADD(ADD(ADD(mul(h0, r1), mul(h1, r0)), ADD(mul(h2, s4), mul(h3, s3))), mul(h4, s2)); \
    d[k][2] = ADD(ADD(ADD(mul(h0, r2), mul(h1, r1)), ADD(mul(h2, r0), mul(h3, s4))), mul(h4, s3)); \
    d[k][3] = ADD(ADD(ADD(mul(h0, r3), mul(h1, r2)), ADD(mul(h2, r1), mul(h3, r0))), mul(h4, s4)); \
    d[k][4] = ADD(ADD(ADD(mul(h0, r4), mul(h1, r3)), ADD(mul(h2, r2), mul(h3, r1))), mul(h4, r0)); \
    d[k][1] = ADD(d[k][1], wasm_u64x2_shr(d[k][0], 26));                                          \
    d[k][2] = ADD(d[k][2], wasm_u64x2_shr(d[k][1], 26));                                          \
    d[k][3] = ADD(d[k][3], wasm_u64x2_shr(d[k][2], 26));                                          \
    d[k][4] = ADD(d[k][4], wasm_u64x2_shr(d[k][3], 26));                                          \
  } while (0)
  HALF(0, wasm_u64x2_extmul_low_u32x4);
  HALF(1, wasm_u64x2_extmul_high_u32x4);
#undef HALF
#undef ADD
  /* the low 32 bits of each 64-bit lane, lanes 0 and 1 from the low half, 2 and 3 from the high */
#define PACK(i) wasm_i32x4_shuffle(d[0][i], d[1][i], 0, 2, 4, 6)
  const v128_t c = wasm_i32x4_shuffle(wasm_u64x2_shr(d[0][4], 26), wasm_u64x2_shr(d[1][4], 26), 0, 2, 4, 6);
  const v128_t g0 = wasm_i32x4_add(wasm_v128_and(PACK(0), MASK26), wasm_i32x4_add(c, wasm_i32x4_shl(c, 2)));
  h[1] = wasm_i32x4_add(wasm_v128_and(PACK(1), MASK26), wasm_u32x4_shr(g0, 26));
  h[0] = wasm_v128_and(g0, MASK26);
  h[2] = wasm_v128_and(PACK(2), MASK26);
  h[3] = wasm_v128_and(PACK(3), MASK26);
  h[4] = wasm_v128_and(PACK(4), MASK26);
#undef PACK
}

/* h += four blocks from p, block j in lane j, the 2^128 bit set */
static inline __attribute__((always_inline)) void vadd(v128_t h[5], const unsigned char *p) {
  const v128_t b0 = wasm_v128_load(p), b1 = wasm_v128_load(p + 16), b2 = wasm_v128_load(p + 32),
               b3 = wasm_v128_load(p + 48);
  const v128_t lo01 = wasm_i32x4_shuffle(b0, b1, 0, 4, 1, 5), hi01 = wasm_i32x4_shuffle(b0, b1, 2, 6, 3, 7),
               lo23 = wasm_i32x4_shuffle(b2, b3, 0, 4, 1, 5), hi23 = wasm_i32x4_shuffle(b2, b3, 2, 6, 3, 7);
  /* w_k: 32-bit word k of each block */
  const v128_t w0 = wasm_i64x2_shuffle(lo01, lo23, 0, 2), w1 = wasm_i64x2_shuffle(lo01, lo23, 1, 3),
               w2 = wasm_i64x2_shuffle(hi01, hi23, 0, 2), w3 = wasm_i64x2_shuffle(hi01, hi23, 1, 3);
  h[0] = wasm_i32x4_add(h[0], wasm_v128_and(w0, MASK26));
  h[1] = wasm_i32x4_add(h[1], wasm_v128_and(wasm_v128_or(wasm_u32x4_shr(w0, 26), wasm_i32x4_shl(w1, 6)), MASK26));
  h[2] = wasm_i32x4_add(h[2], wasm_v128_and(wasm_v128_or(wasm_u32x4_shr(w1, 20), wasm_i32x4_shl(w2, 12)), MASK26));
  h[3] = wasm_i32x4_add(h[3], wasm_v128_and(wasm_v128_or(wasm_u32x4_shr(w2, 14), wasm_i32x4_shl(w3, 18)), MASK26));
  h[4] = wasm_i32x4_add(h[4], wasm_v128_or(wasm_u32x4_shr(w3, 8), wasm_i32x4_splat(1 << 24)));
}

void nat_poly1305_blocks_simd128(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  if (blocks < 16) {
    nat_poly1305_blocks_portable26(c, m, blocks, 1);
    return;
  }
  uint32_t pw[4][5], h26[5];
  nat_poly1305_powers26(pw, 4, c);
  nat_poly1305_split26(h26, c->h);
  v128_t step[5], step5[5], last[5], last5[5], h[5];
  for (int i = 0; i < 5; i++) {
    step[i] = wasm_i32x4_splat((int) pw[3][i]);
    step5[i] = wasm_i32x4_splat((int) (pw[3][i] * 5));
    /* lane j holds block j of the last group: r^(4-j) */
    last[i] = wasm_i32x4_make((int) pw[3][i], (int) pw[2][i], (int) pw[1][i], (int) pw[0][i]);
    last5[i] = wasm_i32x4_make((int) (pw[3][i] * 5), (int) (pw[2][i] * 5), (int) (pw[1][i] * 5), (int) (pw[0][i] * 5));
    h[i] = wasm_i32x4_make((int) h26[i], 0, 0, 0);
  }
  const size_t groups = blocks / 4;
  vadd(h, m);
  for (size_t g = 1; g < groups; g++) {
    vmul(h, step, step5);
    vadd(h, m + 64 * g);
  }
  vmul(h, last, last5);
  uint64_t sum[5];
  for (int i = 0; i < 5; i++) {
    sum[i] = (uint64_t) (uint32_t) wasm_i32x4_extract_lane(h[i], 0) + (uint32_t) wasm_i32x4_extract_lane(h[i], 1) +
             (uint32_t) wasm_i32x4_extract_lane(h[i], 2) + (uint32_t) wasm_i32x4_extract_lane(h[i], 3);
  }
  nat_poly1305_pack26(c->h, sum);
  if (blocks % 4 != 0) nat_poly1305_blocks_portable26(c, m + 64 * groups, blocks % 4, 1);
}
#endif
