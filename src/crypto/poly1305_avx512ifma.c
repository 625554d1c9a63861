/* Poly1305 in AVX-512 IFMA (see poly1305_impl.h): eight blocks at a time, or sixteen in two
 * accumulators of eight from 2 KB (one accumulator is a chain of dependent multiply-adds and
 * carries: bench/poly1305.c on Zen 5 at 1 MB, 16.6 GB/s with one, 28.9 with two; at 1 KB 8.5
 * against 6.9, at 2 KB alike, where r^9..r^16 stop costing more than they save).
 *
 * As the AVX2 kernel, lane j accumulates every eighth block by Horner's rule with r^8 and the last
 * group multiplies lane j by the power that lines it up (r^(8-j) for block j of the group). A
 * register holds one limb of the eight lanes in radix 2^44 (44 + 44 + 42 bits): vpmadd52luq and
 * vpmadd52huq add the low and high 52 bits of 52 x 52-bit products, and 44-bit limbs leave 8 bits
 * of headroom so that the message is added without a carry. A product's high half sits 52 bits up,
 * that is 8 bits into the next limb; products at 2^132 and above come back times 20
 * (2^132 = 4 2^130 = 20 mod p). r^1..r^8 come from the 64-bit scalar multiply (three products
 * each; with poly1305-donna's 26-bit one, 25 each, 1 KB ran at 5.3 GB/s instead of 8.5). Runs
 * shorter than 16 blocks go to the AVX2 kernel (and so to the portable code), where the powers
 * cost more than the lanes save: bench/poly1305.c on Zen 5, 192 bytes 2.1 GB/s against 2.7
 * portable, 256 bytes 3.5 against 2.8. */
#include "poly1305_impl.h"

#ifdef NAT_POLY1305_X86
#include <immintrin.h>

#define IFMA __attribute__((target("avx512f,avx512ifma,avx512vl")))
#define M44 0xfffffffffffULL
#define M42 0x3ffffffffffULL

/* (NAT_POLY1305_IFMA_MIN, 16 unless defined: poly1305_impl.h) */
#ifndef NAT_POLY1305_IFMA_X16_MIN
#define NAT_POLY1305_IFMA_X16_MIN 128
#endif

typedef struct {
  __m512i r[3], s[3]; /* s[i] = 20 r[i], s[0] unused */
} vpow;

/* h (h[2] <= 4) in radix 2^44: l2 < 2^43. */
static inline void split44(uint64_t l[3], const uint64_t h[3]) {
  l[0] = h[0] & M44;
  l[1] = (h[0] >> 44 | h[1] << 20) & M44;
  l[2] = h[1] >> 24 | h[2] << 40;
}

/* lane j of p is the power whose limbs are l[pick[j]] */
IFMA static inline void vpow_set(vpow *p, const uint64_t (*l)[3], const int pick[8]) {
  for (int i = 0; i < 3; i++) {
    p->r[i] = _mm512_set_epi64((long long) l[pick[7]][i], (long long) l[pick[6]][i], (long long) l[pick[5]][i],
                               (long long) l[pick[4]][i], (long long) l[pick[3]][i], (long long) l[pick[2]][i],
                               (long long) l[pick[1]][i], (long long) l[pick[0]][i]);
    p->s[i] = _mm512_add_epi64(_mm512_slli_epi64(p->r[i], 4), _mm512_slli_epi64(p->r[i], 2));
  }
}

/* h = h p + a, each lane, carried: h0 < 2^44, h1 < 2^44 + 2, h2 < 2^42 + 2^12, for limbs of h below
 * 2^45 (h2: 2^43), of p below 2^44 (p2: 2^43) and of a below 2^44. */
IFMA static inline void vmuladd(__m512i h[3], const vpow *p, const __m512i a[3]) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i l0 = a[0], l1 = a[1], l2 = a[2], u0 = zero, u1 = zero, u2 = zero;
  l0 = _mm512_madd52lo_epu64(l0, h[0], p->r[0]);
  u0 = _mm512_madd52hi_epu64(u0, h[0], p->r[0]);
  l1 = _mm512_madd52lo_epu64(l1, h[0], p->r[1]);
  u1 = _mm512_madd52hi_epu64(u1, h[0], p->r[1]);
  l2 = _mm512_madd52lo_epu64(l2, h[0], p->r[2]);
  u2 = _mm512_madd52hi_epu64(u2, h[0], p->r[2]);
  l0 = _mm512_madd52lo_epu64(l0, h[1], p->s[2]);
  u0 = _mm512_madd52hi_epu64(u0, h[1], p->s[2]);
  l1 = _mm512_madd52lo_epu64(l1, h[1], p->r[0]);
  u1 = _mm512_madd52hi_epu64(u1, h[1], p->r[0]);
  l2 = _mm512_madd52lo_epu64(l2, h[1], p->r[1]);
  u2 = _mm512_madd52hi_epu64(u2, h[1], p->r[1]);
  l0 = _mm512_madd52lo_epu64(l0, h[2], p->s[1]);
  u0 = _mm512_madd52hi_epu64(u0, h[2], p->s[1]);
  l1 = _mm512_madd52lo_epu64(l1, h[2], p->s[2]);
  u1 = _mm512_madd52hi_epu64(u1, h[2], p->s[2]);
  l2 = _mm512_madd52lo_epu64(l2, h[2], p->r[0]);
  u2 = _mm512_madd52hi_epu64(u2, h[2], p->r[0]);
  /* the high halves: u0 at 2^96 = 2^8 2^88 ... u2 at 2^140 = 5 2^10 (mod p) */
  __m512i d0 = _mm512_add_epi64(l0, _mm512_add_epi64(_mm512_slli_epi64(u2, 12), _mm512_slli_epi64(u2, 10)));
  __m512i d1 = _mm512_add_epi64(l1, _mm512_slli_epi64(u0, 8));
  __m512i d2 = _mm512_add_epi64(l2, _mm512_slli_epi64(u1, 8));
  /* two carry chains side by side: d0 -> d1 -> d2 and d2 -> d0 (times 5) -> d1 */
  const __m512i m44 = _mm512_set1_epi64((long long) M44), m42 = _mm512_set1_epi64((long long) M42);
  __m512i c0 = _mm512_srli_epi64(d0, 44), c2 = _mm512_srli_epi64(d2, 42);
  d0 = _mm512_and_si512(d0, m44);
  d2 = _mm512_and_si512(d2, m42);
  d1 = _mm512_add_epi64(d1, c0);
  d0 = _mm512_add_epi64(d0, _mm512_add_epi64(c2, _mm512_slli_epi64(c2, 2)));
  __m512i c1 = _mm512_srli_epi64(d1, 44);
  c0 = _mm512_srli_epi64(d0, 44);
  d1 = _mm512_and_si512(d1, m44);
  d0 = _mm512_and_si512(d0, m44);
  h[2] = _mm512_add_epi64(d2, c1);
  h[1] = _mm512_add_epi64(d1, c0);
  h[0] = d0;
}

/* Eight blocks as limbs, the 2^128 bit set: lane j holds block j / 2 + 4 (j % 2) (unpack order). */
IFMA static inline void vload(__m512i m[3], const unsigned char *p) {
  const __m512i a = _mm512_loadu_si512((const void *) p), b = _mm512_loadu_si512((const void *) (p + 64));
  const __m512i lo = _mm512_unpacklo_epi64(a, b), hi = _mm512_unpackhi_epi64(a, b);
  const __m512i m44 = _mm512_set1_epi64((long long) M44);
  m[0] = _mm512_and_si512(lo, m44);
  m[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), m44);
  m[2] = _mm512_or_si512(_mm512_srli_epi64(hi, 24), _mm512_set1_epi64(1LL << 40));
}

/* The lanes' sum back into c->h: limbs below 2^49. */
IFMA static inline void fold(nat_poly1305_core *c, const __m512i h[3]) {
  uint64_t l0 = (uint64_t) _mm512_reduce_add_epi64(h[0]), l1 = (uint64_t) _mm512_reduce_add_epi64(h[1]),
           l2 = (uint64_t) _mm512_reduce_add_epi64(h[2]);
  l1 += l0 >> 44; l0 &= M44;
  l2 += l1 >> 44; l1 &= M44;
  l0 += (l2 >> 42) * 5; l2 &= M42;
  l1 += l0 >> 44; l0 &= M44;
  l2 += l1 >> 44; l1 &= M44;
  c->h[0] = l0 | l1 << 44;
  c->h[1] = l1 >> 20 | l2 << 24;
  c->h[2] = l2 >> 40;
}

/* Sixteen blocks at a time in two accumulators of eight (blocks 0-7 and 8-15 of each group),
 * r^1..r^16: two multiplications in flight. */
IFMA static void blocks_x16(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  uint64_t w[16][3], pw[16][3];
  nat_poly1305_powers64(w, 16, c);
  for (int k = 0; k < 16; k++) split44(pw[k], w[k]);
  static const int all16[8] = {15, 15, 15, 15, 15, 15, 15, 15};
  /* block j of the last sixteen takes r^(16-j); lane i of a holds block i / 2 + 4 (i % 2), of b
   * block 8 + i / 2 + 4 (i % 2) */
  static const int lanes_a[8] = {15, 11, 14, 10, 13, 9, 12, 8}, lanes_b[8] = {7, 3, 6, 2, 5, 1, 4, 0};
  vpow step, last_a, last_b;
  vpow_set(&step, (const uint64_t(*)[3]) pw, all16);
  vpow_set(&last_a, (const uint64_t(*)[3]) pw, lanes_a);
  vpow_set(&last_b, (const uint64_t(*)[3]) pw, lanes_b);
  const size_t groups = blocks / 16;
  __m512i a[3], b[3], x[3], y[3];
  uint64_t h44[3];
  split44(h44, c->h);
  vload(a, m);
  vload(b, m + 128);
  for (int i = 0; i < 3; i++) a[i] = _mm512_add_epi64(a[i], _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long) h44[i]));
  for (size_t g = 1; g < groups; g++) {
    vload(x, m + 256 * g);
    vload(y, m + 256 * g + 128);
    vmuladd(a, &step, x);
    vmuladd(b, &step, y);
  }
  const __m512i zero[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  vmuladd(a, &last_a, zero);
  vmuladd(b, &last_b, zero);
  for (int i = 0; i < 3; i++) a[i] = _mm512_add_epi64(a[i], b[i]);
  fold(c, a);
  if (blocks % 16 != 0) nat_poly1305_blocks_avx512ifma(c, m + 256 * groups, blocks % 16);
}

IFMA void nat_poly1305_blocks_avx512ifma(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  if (blocks < NAT_POLY1305_IFMA_MIN) {
    nat_poly1305_blocks_avx2(c, m, blocks);
    return;
  }
  if (blocks >= NAT_POLY1305_IFMA_X16_MIN) {
    blocks_x16(c, m, blocks);
    return;
  }
  /* pw[k] = r^(k+1), in radix 2^44 */
  uint64_t w[8][3], pw[8][3];
  nat_poly1305_powers64(w, 8, c);
  for (int k = 0; k < 8; k++) split44(pw[k], w[k]);
  static const int all8[8] = {7, 7, 7, 7, 7, 7, 7, 7};
  /* block j of the last group takes r^(8-j), i.e. pw[7-j]; lane j holds block j / 2 + 4 (j % 2) */
  static const int lanes[8] = {7, 3, 6, 2, 5, 1, 4, 0};
  vpow step, last;
  vpow_set(&step, (const uint64_t(*)[3]) pw, all8);
  vpow_set(&last, (const uint64_t(*)[3]) pw, lanes);

  const size_t groups = blocks / 8;
  __m512i h[3], x[3];
  uint64_t h44[3];
  split44(h44, c->h);
  vload(h, m);
  for (int i = 0; i < 3; i++) h[i] = _mm512_add_epi64(h[i], _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long) h44[i]));
  for (size_t g = 1; g < groups; g++) {
    vload(x, m + 128 * g);
    vmuladd(h, &step, x);
  }
  const __m512i zero[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  vmuladd(h, &last, zero);
  fold(c, h);
  if (blocks % 8 != 0) nat_poly1305_blocks_avx2(c, m + 128 * groups, blocks % 8);
}
#endif
