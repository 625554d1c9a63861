/* Poly1305 in AVX2 (see poly1305_impl.h): four blocks at a time.
 *
 * Lane j of the four accumulates every fourth block by Horner's rule with r^4: with n groups of
 * four blocks b_0 .. b_(4n-1), lane j holds sum over g of b_(4g+j) r^(4(n-1-g)), and the last
 * group multiplies lane j by r^(4-j) instead of r^4, so that the lanes add up to h's Horner sum.
 * The scalar h enters in lane 0 with the first block. A register holds one 26-bit limb of the four
 * lanes (in 64-bit lanes, so vpmuludq makes four 26 x 29-bit products at once); products at
 * 2^130 and above come back through 5 r. r^2, r^3, r^4 are computed at every call (a few hundred
 * cycles), which is why runs shorter than 16 blocks stay with the portable code. */
#include "poly1305_impl.h"

#ifdef NAT_POLY1305_X86
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

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

AVX2 void nat_poly1305_blocks_avx2(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  if (blocks < 16) {
    nat_poly1305_blocks_portable64(c, m, blocks, 1);
    return;
  }
  /* pw[k] = r^(k+1) */
  uint32_t pw[4][5];
  nat_poly1305_r26(pw[0], c);
  for (int k = 1; k < 4; k++) nat_poly1305_mul26(pw[k], pw[k - 1], pw[0]);
  vpow step, last;
  vpow_set(&step, pw[3], pw[3], pw[3], pw[3]);
  /* lanes hold blocks 0, 2, 1, 3 of the last group: r^4, r^2, r^3, r^1 */
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
  /* the lanes' sum: limbs below 2^29 */
  uint64_t sum[5];
  for (int i = 0; i < 5; i++) {
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(h[i]), _mm256_extracti128_si256(h[i], 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    sum[i] = (uint64_t) _mm_cvtsi128_si64(t);
  }
  nat_poly1305_pack26(c->h, sum);
  if (blocks % 4 != 0) nat_poly1305_blocks_portable64(c, m + 64 * groups, blocks % 4, 1);
}
#endif
