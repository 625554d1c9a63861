/* Poly1305 in AVX2 (see poly1305_impl.h): eight blocks at a time, in two accumulators of four.
 *
 * Lane j of the eight accumulates every eighth block by Horner's rule with r^8: with n groups of
 * eight blocks b_0 .. b_(8n-1), lane j holds sum over g of b_(8g+j) r^(8(n-1-g)), and the last
 * group multiplies lane j by r^(8-j) instead of r^8, so that the lanes add up to h's Horner sum.
 * Two independent accumulators (blocks 0-3 and 4-7 of each group) keep two multiplications in
 * flight: one alone is a chain of dependent instructions (multiply, five adds, four carry
 * steps) that leaves the vector units idle a third of the time (bench/poly1305.c on Zen 5 at 1 MB:
 * 5.6 GB/s with one, 8.1 with two). Up to 1 KB the one-accumulator code (r^1..r^4) is as fast
 * and cheaper to set up, so it stays for those lengths.
 * The scalar h enters in lane 0 with the first block. A register holds one 26-bit limb of the four
 * lanes (in 64-bit lanes, so vpmuludq makes four 26 x 29-bit products at once); products at
 * 2^130 and above come back through 5 r. The powers of r are computed at every call (a few
 * hundred cycles), which is why runs shorter than 32 blocks stay with the portable code, as do
 * the last blocks short of a whole group. */
#include "poly1305_impl.h"

#ifdef NAT_POLY1305_X86
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* From how many blocks the four-lane code and the eight-lane code take over (their powers of r
 * cost more than the blocks they speed up below that): bench/poly1305.c on Zen 5, 384 bytes
 * 2.7 GB/s four-lane against 2.9 portable, 512 bytes 3.1 against 2.9; 1 KB eight-lane and
 * four-lane alike (4.2), 2 KB 5.6 against 4.9. */
/* (NAT_POLY1305_AVX2_X4_MIN, 32 unless defined: poly1305_impl.h) */
#ifndef NAT_POLY1305_AVX2_X8_MIN
#define NAT_POLY1305_AVX2_X8_MIN 64
#endif

typedef struct {
  __m256i r[5], s[5]; /* s[i] = 5 r[i], s[0] unused */
} vpow;

/* Lane j multiplies by the power whose limbs are lane[j]. */
AVX2 static inline void vpow_set(vpow *p, const uint32_t *l0, const uint32_t *l1, const uint32_t *l2,
                                 const uint32_t *l3) {
  for (int i = 0; i < 5; i++) {
    p->r[i] = _mm256_set_epi64x(l3[i], l2[i], l1[i], l0[i]);
    p->s[i] = _mm256_set_epi64x(l3[i] * 5ULL, l2[i] * 5ULL, l1[i] * 5ULL, l0[i] * 5ULL);
  }
}

/* d = h p, each lane, then carried: limbs below 2^26 (d1, d4: 2^26 + 2^11) for limbs of h below
 * 2^27 and of p below 2^26 + 1. */
AVX2 static inline void vmul(__m256i h[5], const vpow *p) {
  const __m256i mask = _mm256_set1_epi64x(NAT_POLY1305_M26);
#define MUL(a, b) _mm256_mul_epu32(a, b)
  __m256i d0 = MUL(h[0], p->r[0]), d1 = MUL(h[0], p->r[1]), d2 = MUL(h[0], p->r[2]),
          d3 = MUL(h[0], p->r[3]), d4 = MUL(h[0], p->r[4]);
  d0 = _mm256_add_epi64(d0, MUL(h[1], p->s[4]));
  d1 = _mm256_add_epi64(d1, MUL(h[1], p->r[0]));
  d2 = _mm256_add_epi64(d2, MUL(h[1], p->r[1]));
  d3 = _mm256_add_epi64(d3, MUL(h[1], p->r[2]));
  d4 = _mm256_add_epi64(d4, MUL(h[1], p->r[3]));
  d0 = _mm256_add_epi64(d0, MUL(h[2], p->s[3]));
  d1 = _mm256_add_epi64(d1, MUL(h[2], p->s[4]));
  d2 = _mm256_add_epi64(d2, MUL(h[2], p->r[0]));
  d3 = _mm256_add_epi64(d3, MUL(h[2], p->r[1]));
  d4 = _mm256_add_epi64(d4, MUL(h[2], p->r[2]));
  d0 = _mm256_add_epi64(d0, MUL(h[3], p->s[2]));
  d1 = _mm256_add_epi64(d1, MUL(h[3], p->s[3]));
  d2 = _mm256_add_epi64(d2, MUL(h[3], p->s[4]));
  d3 = _mm256_add_epi64(d3, MUL(h[3], p->r[0]));
  d4 = _mm256_add_epi64(d4, MUL(h[3], p->r[1]));
  d0 = _mm256_add_epi64(d0, MUL(h[4], p->s[1]));
  d1 = _mm256_add_epi64(d1, MUL(h[4], p->s[2]));
  d2 = _mm256_add_epi64(d2, MUL(h[4], p->s[3]));
  d3 = _mm256_add_epi64(d3, MUL(h[4], p->s[4]));
  d4 = _mm256_add_epi64(d4, MUL(h[4], p->r[0]));
#undef MUL
  /* two carry chains side by side: d0 -> d1 -> d2 -> d3 and d3 -> d4 -> d0 (times 5) -> d1 */
  __m256i c0 = _mm256_srli_epi64(d0, 26), c3 = _mm256_srli_epi64(d3, 26);
  d0 = _mm256_and_si256(d0, mask);
  d3 = _mm256_and_si256(d3, mask);
  d1 = _mm256_add_epi64(d1, c0);
  d4 = _mm256_add_epi64(d4, c3);
  c0 = _mm256_srli_epi64(d1, 26);
  c3 = _mm256_srli_epi64(d4, 26);
  d1 = _mm256_and_si256(d1, mask);
  d4 = _mm256_and_si256(d4, mask);
  d2 = _mm256_add_epi64(d2, c0);
  d0 = _mm256_add_epi64(d0, _mm256_add_epi64(c3, _mm256_slli_epi64(c3, 2)));
  c0 = _mm256_srli_epi64(d2, 26);
  c3 = _mm256_srli_epi64(d0, 26);
  d2 = _mm256_and_si256(d2, mask);
  d0 = _mm256_and_si256(d0, mask);
  d3 = _mm256_add_epi64(d3, c0);
  d1 = _mm256_add_epi64(d1, c3);
  c0 = _mm256_srli_epi64(d3, 26);
  d3 = _mm256_and_si256(d3, mask);
  d4 = _mm256_add_epi64(d4, c0);
  h[0] = d0; h[1] = d1; h[2] = d2; h[3] = d3; h[4] = d4;
}

/* Four blocks as limbs, the 2^128 bit set: lanes 0..3 hold blocks 0, 2, 1, 3 (unpack order). */
AVX2 static inline void vload(__m256i m[5], const unsigned char *p) {
  const __m256i mask = _mm256_set1_epi64x(NAT_POLY1305_M26);
  const __m256i a = _mm256_loadu_si256((const __m256i *) (const void *) p);
  const __m256i b = _mm256_loadu_si256((const __m256i *) (const void *) (p + 32));
  const __m256i lo = _mm256_unpacklo_epi64(a, b), hi = _mm256_unpackhi_epi64(a, b);
  m[0] = _mm256_and_si256(lo, mask);
  m[1] = _mm256_and_si256(_mm256_srli_epi64(lo, 26), mask);
  m[2] = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52), _mm256_slli_epi64(hi, 12)), mask);
  m[3] = _mm256_and_si256(_mm256_srli_epi64(hi, 14), mask);
  m[4] = _mm256_or_si256(_mm256_srli_epi64(hi, 40), _mm256_set1_epi64x(1 << 24));
}

/* Four blocks at a time, one accumulator: lanes hold blocks 0, 2, 1, 3 of each group of four. */
AVX2 static void blocks_x4(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  uint32_t pw[4][5];
  nat_poly1305_powers64_26(pw, 4, c);
  vpow step, last;
  vpow_set(&step, pw[3], pw[3], pw[3], pw[3]);
  vpow_set(&last, pw[3], pw[1], pw[2], pw[0]);
  const size_t groups = blocks / 4;
  __m256i h[5], x[5];
  uint32_t h26[5];
  nat_poly1305_split26(h26, c->h);
  vload(h, m);
  for (int i = 0; i < 5; i++) h[i] = _mm256_add_epi64(h[i], _mm256_set_epi64x(0, 0, 0, h26[i]));
  for (size_t g = 1; g < groups; g++) {
    vmul(h, &step);
    vload(x, m + 64 * g);
    for (int i = 0; i < 5; i++) h[i] = _mm256_add_epi64(h[i], x[i]);
  }
  vmul(h, &last);
  uint64_t sum[5];
  for (int i = 0; i < 5; i++) {
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(h[i]), _mm256_extracti128_si256(h[i], 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    sum[i] = (uint64_t) _mm_cvtsi128_si64(t);
  }
  nat_poly1305_pack26(c->h, sum);
  if (blocks % 4 != 0) nat_poly1305_blocks_portable64(c, m + 64 * groups, blocks % 4, 1);
}

AVX2 void nat_poly1305_blocks_avx2(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  if (blocks < NAT_POLY1305_AVX2_X4_MIN) {
    nat_poly1305_blocks_portable64(c, m, blocks, 1);
    return;
  }
  if (blocks < NAT_POLY1305_AVX2_X8_MIN) {
    blocks_x4(c, m, blocks);
    return;
  }
  uint32_t pw[8][5];
  nat_poly1305_powers64_26(pw, 8, c);
  vpow step, last_a, last_b;
  vpow_set(&step, pw[7], pw[7], pw[7], pw[7]);
  /* a's lanes hold blocks 0, 2, 1, 3 of the last eight, b's blocks 4, 6, 5, 7 */
  vpow_set(&last_a, pw[7], pw[5], pw[6], pw[4]);
  vpow_set(&last_b, pw[3], pw[1], pw[2], pw[0]);
  const size_t groups = blocks / 8;
  __m256i a[5], b[5], x[5], y[5];
  uint32_t h26[5];
  nat_poly1305_split26(h26, c->h);
  vload(a, m);
  vload(b, m + 64);
  for (int i = 0; i < 5; i++) a[i] = _mm256_add_epi64(a[i], _mm256_set_epi64x(0, 0, 0, h26[i]));
  for (size_t g = 1; g < groups; g++) {
    vmul(a, &step);
    vmul(b, &step);
    vload(x, m + 128 * g);
    vload(y, m + 128 * g + 64);
    for (int i = 0; i < 5; i++) {
      a[i] = _mm256_add_epi64(a[i], x[i]);
      b[i] = _mm256_add_epi64(b[i], y[i]);
    }
  }
  vmul(a, &last_a);
  vmul(b, &last_b);
  /* the lanes' sum: limbs below 2^30 */
  uint64_t sum[5];
  for (int i = 0; i < 5; i++) {
    const __m256i ab = _mm256_add_epi64(a[i], b[i]);
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(ab), _mm256_extracti128_si256(ab, 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    sum[i] = (uint64_t) _mm_cvtsi128_si64(t);
  }
  nat_poly1305_pack26(c->h, sum);
  if (blocks % 8 != 0) nat_poly1305_blocks_portable64(c, m + 128 * groups, blocks % 8, 1);
}
#endif
