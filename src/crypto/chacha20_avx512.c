/* ChaCha20 with AVX-512F (see chacha20_impl.h).
 *
 * Sixteen blocks at a time: zmm i holds word i of the sixteen blocks, one per lane (the AVX2
 * code's layout, twice as wide). AVX-512 rotates a lane in one instruction (vprold), and 32
 * registers hold the state and the temporaries without spilling. After the rounds a 4x4 transpose
 * within each 128-bit quarter and two rounds of quarter shuffles put the blocks back in order.
 * What is left (under sixteen blocks): eight at once in the AVX2 code, and under eight row-wise
 * on ymm registers (chacha20_rows.h) with AVX-512VL's vprold for every rotation, which takes a
 * fifth off the chain of dependent instructions a short message waits for (Zen 5: 1 to 6 blocks
 * in 0.77-0.87x the AVX2 code's TSC cycles, 9 to 15 in 0.9x); chacha20_dispatch.c offers this
 * kernel only where the CPU has AVX-512VL too. */
#include "chacha20_impl.h"

#ifdef NAT_CHACHA20_X86
#include <immintrin.h>

#define NAT_AVX512 __attribute__((target("avx512f")))

#define NAT_ROWS_TARGET __attribute__((target("avx2,avx512f,avx512vl")))
#define NAT_ROWS_ROT16(x) _mm256_rol_epi32(x, 16)
#define NAT_ROWS_ROT8(x) _mm256_rol_epi32(x, 8)
#define NAT_ROWS_ROTL(x, n) _mm256_rol_epi32(x, n)
#include "chacha20_rows.h"

#define Z_QR(a, b, c, d)                                                       \
  a = _mm512_add_epi32(a, b); d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16); \
  c = _mm512_add_epi32(c, d); b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12); \
  a = _mm512_add_epi32(a, b); d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);  \
  c = _mm512_add_epi32(c, d); b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7)

/* t[j]: words 4g..4g+3 of blocks j, j + 4, j + 8, j + 12 in its four quarters */
#define TRANSPOSE4(x0, x1, x2, x3, t0, t1, t2, t3)          \
  do {                                                      \
    const __m512i lo01 = _mm512_unpacklo_epi32(x0, x1),     \
                  hi01 = _mm512_unpackhi_epi32(x0, x1),     \
                  lo23 = _mm512_unpacklo_epi32(x2, x3),     \
                  hi23 = _mm512_unpackhi_epi32(x2, x3);     \
    t0 = _mm512_unpacklo_epi64(lo01, lo23);                 \
    t1 = _mm512_unpackhi_epi64(lo01, lo23);                 \
    t2 = _mm512_unpacklo_epi64(hi01, hi23);                 \
    t3 = _mm512_unpackhi_epi64(hi01, hi23);                 \
  } while (0)

#define XOR64(at, v)                                                         \
  _mm512_storeu_si512((void *) (out + (at)),                                 \
                      _mm512_xor_si512(v, _mm512_loadu_si512((const void *) (in + (at)))))

/* Blocks j, j + 4, j + 8, j + 12 from their four 16-byte pieces (words 0-3 in a, 4-7 in b,
 * 8-11 in c, 12-15 in d, block j + 4q in quarter q of each). */
#define STORE4(j, a, b, c, d)                                            \
  do {                                                                   \
    const __m512i ab02 = _mm512_shuffle_i32x4(a, b, 0x88),               \
                  cd02 = _mm512_shuffle_i32x4(c, d, 0x88),               \
                  ab13 = _mm512_shuffle_i32x4(a, b, 0xdd),               \
                  cd13 = _mm512_shuffle_i32x4(c, d, 0xdd);               \
    XOR64(64 * (j), _mm512_shuffle_i32x4(ab02, cd02, 0x88));             \
    XOR64(64 * ((j) + 8), _mm512_shuffle_i32x4(ab02, cd02, 0xdd));       \
    XOR64(64 * ((j) + 4), _mm512_shuffle_i32x4(ab13, cd13, 0x88));       \
    XOR64(64 * ((j) + 12), _mm512_shuffle_i32x4(ab13, cd13, 0xdd));      \
  } while (0)

NAT_AVX512 static void blocks16(const uint32_t st[16], unsigned char *out,
                                const unsigned char *in, int ctr64) {
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i base = _mm512_set1_epi32((int) st[12]);
  const __m512i c12 = _mm512_add_epi32(base, iota);
  __m512i c13 = _mm512_set1_epi32((int) st[13]);
  if (ctr64) {
    /* lanes whose low word wrapped carry into word 13 */
    const __mmask16 wrapped = _mm512_cmplt_epu32_mask(c12, base);
    c13 = _mm512_mask_add_epi32(c13, wrapped, c13, _mm512_set1_epi32(1));
  }
  __m512i x[16];
  for (int i = 0; i < 16; i++) x[i] = _mm512_set1_epi32((int) st[i]);
  x[12] = c12;
  x[13] = c13;
  __m512i x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6],
          x7 = x[7], x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11], x12 = x[12], x13 = x[13],
          x14 = x[14], x15 = x[15];
  for (int i = 0; i < 10; i++) {
    Z_QR(x0, x4, x8, x12);
    Z_QR(x1, x5, x9, x13);
    Z_QR(x2, x6, x10, x14);
    Z_QR(x3, x7, x11, x15);
    Z_QR(x0, x5, x10, x15);
    Z_QR(x1, x6, x11, x12);
    Z_QR(x2, x7, x8, x13);
    Z_QR(x3, x4, x9, x14);
  }
  x0 = _mm512_add_epi32(x0, x[0]); x1 = _mm512_add_epi32(x1, x[1]);
  x2 = _mm512_add_epi32(x2, x[2]); x3 = _mm512_add_epi32(x3, x[3]);
  x4 = _mm512_add_epi32(x4, x[4]); x5 = _mm512_add_epi32(x5, x[5]);
  x6 = _mm512_add_epi32(x6, x[6]); x7 = _mm512_add_epi32(x7, x[7]);
  x8 = _mm512_add_epi32(x8, x[8]); x9 = _mm512_add_epi32(x9, x[9]);
  x10 = _mm512_add_epi32(x10, x[10]); x11 = _mm512_add_epi32(x11, x[11]);
  x12 = _mm512_add_epi32(x12, x[12]); x13 = _mm512_add_epi32(x13, x[13]);
  x14 = _mm512_add_epi32(x14, x[14]); x15 = _mm512_add_epi32(x15, x[15]);
  __m512i a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3;
  TRANSPOSE4(x0, x1, x2, x3, a0, a1, a2, a3);
  TRANSPOSE4(x4, x5, x6, x7, b0, b1, b2, b3);
  TRANSPOSE4(x8, x9, x10, x11, c0, c1, c2, c3);
  TRANSPOSE4(x12, x13, x14, x15, d0, d1, d2, d3);
  STORE4(0, a0, b0, c0, d0);
  STORE4(1, a1, b1, c1, d1);
  STORE4(2, a2, b2, c2, d2);
  STORE4(3, a3, b3, c3, d3);
}

NAT_AVX512 void nat_chacha20_blocks_avx512(uint32_t st[16], unsigned char *out,
                                           const unsigned char *in, size_t nblocks, int ctr64) {
  for (; nblocks >= 16; nblocks -= 16, in += 1024, out += 1024) {
    blocks16(st, out, in, ctr64);
    const uint32_t before = st[12];
    st[12] += 16;
    if (ctr64) st[13] += st[12] < before;
  }
  if (nblocks >= 8) {
    /* eight at once in the AVX2 code's columns beat row-wise sets for eight and more */
    nat_chacha20_blocks_avx2(st, out, in, 8, ctr64);
    nblocks -= 8, in += 512, out += 512;
  }
  if (nblocks > 0) rows_tail(st, out, in, nblocks, ctr64);
}
#endif
