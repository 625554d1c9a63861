/* ChaCha20 with AVX2 (see chacha20_impl.h).
 *
 * Eight blocks at a time, "vertically": ymm i holds word i of the eight blocks, one per lane, so
 * a quarter round is eight lanes of the scalar one and needs no shuffles; after the rounds a 4x4
 * transpose within each 128-bit half and a swap of halves put the blocks back in order. The
 * rotations by 16 and 8 are byte shuffles, the others two shifts and an or. Fewer than eight
 * blocks left (short messages, the end of a long one): two blocks per ymm, a ymm per row of the
 * 4x4 state, the diagonal round lining rows up by rotating their words, up to three such sets
 * in flight (chacha20_rows.h). */
#include "chacha20_impl.h"

#ifdef NAT_CHACHA20_X86
#include <immintrin.h>

#define NAT_AVX2 __attribute__((target("avx2")))

#define ROT16_BYTES 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
#define ROT8_BYTES 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
#define Y_ROT16(x) _mm256_shuffle_epi8(x, _mm256_setr_epi8(ROT16_BYTES, ROT16_BYTES))
#define Y_ROT8(x) _mm256_shuffle_epi8(x, _mm256_setr_epi8(ROT8_BYTES, ROT8_BYTES))
#define Y_ROTL(x, n) _mm256_or_si256(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - (n)))

#define V_QR(a, b, c, d)                                                     \
  a = _mm256_add_epi32(a, b); d = Y_ROT16(_mm256_xor_si256(d, a));           \
  c = _mm256_add_epi32(c, d); b = Y_ROTL(_mm256_xor_si256(b, c), 12);        \
  a = _mm256_add_epi32(a, b); d = Y_ROT8(_mm256_xor_si256(d, a));            \
  c = _mm256_add_epi32(c, d); b = Y_ROTL(_mm256_xor_si256(b, c), 7)

/* Words 4g..4g+3 of blocks 0..3 (low halves) and 4..7 (high halves), transposed: t[j] holds
 * block j's words in its low half and block j + 4's in its high half. */
#define TRANSPOSE4(x0, x1, x2, x3, t0, t1, t2, t3)                        \
  do {                                                                    \
    const __m256i lo01 = _mm256_unpacklo_epi32(x0, x1),                   \
                  hi01 = _mm256_unpackhi_epi32(x0, x1),                   \
                  lo23 = _mm256_unpacklo_epi32(x2, x3),                   \
                  hi23 = _mm256_unpackhi_epi32(x2, x3);                   \
    t0 = _mm256_unpacklo_epi64(lo01, lo23);                               \
    t1 = _mm256_unpackhi_epi64(lo01, lo23);                               \
    t2 = _mm256_unpacklo_epi64(hi01, hi23);                               \
    t3 = _mm256_unpackhi_epi64(hi01, hi23);                               \
  } while (0)

#define XOR32(at, v)                                                                \
  _mm256_storeu_si256((__m256i *) (out + (at)),                                     \
                      _mm256_xor_si256(v, _mm256_loadu_si256((const __m256i *) (in + (at)))))

/* Eight blocks from st's counter on. */
NAT_AVX2 static void blocks8(const uint32_t st[16], unsigned char *out, const unsigned char *in,
                             int ctr64) {
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i c12 = _mm256_add_epi32(_mm256_set1_epi32((int) st[12]), iota);
  __m256i c13 = _mm256_set1_epi32((int) st[13]);
  if (ctr64) {
    /* the lanes whose low word wrapped carry into word 13 (unsigned c12 < st[12]) */
    const __m256i bias = _mm256_set1_epi32((int) 0x80000000U);
    const __m256i wrapped = _mm256_cmpgt_epi32(_mm256_xor_si256(_mm256_set1_epi32((int) st[12]), bias),
                                               _mm256_xor_si256(c12, bias));
    c13 = _mm256_sub_epi32(c13, wrapped);
  }
  __m256i ctr[2];
  _mm256_storeu_si256(ctr, c12);
  _mm256_storeu_si256(ctr + 1, c13);
  __m256i x0 = _mm256_set1_epi32((int) st[0]), x1 = _mm256_set1_epi32((int) st[1]),
          x2 = _mm256_set1_epi32((int) st[2]), x3 = _mm256_set1_epi32((int) st[3]),
          x4 = _mm256_set1_epi32((int) st[4]), x5 = _mm256_set1_epi32((int) st[5]),
          x6 = _mm256_set1_epi32((int) st[6]), x7 = _mm256_set1_epi32((int) st[7]),
          x8 = _mm256_set1_epi32((int) st[8]), x9 = _mm256_set1_epi32((int) st[9]),
          x10 = _mm256_set1_epi32((int) st[10]), x11 = _mm256_set1_epi32((int) st[11]),
          x12 = c12, x13 = c13, x14 = _mm256_set1_epi32((int) st[14]),
          x15 = _mm256_set1_epi32((int) st[15]);
  for (int i = 0; i < 10; i++) {
    V_QR(x0, x4, x8, x12);
    V_QR(x1, x5, x9, x13);
    V_QR(x2, x6, x10, x14);
    V_QR(x3, x7, x11, x15);
    V_QR(x0, x5, x10, x15);
    V_QR(x1, x6, x11, x12);
    V_QR(x2, x7, x8, x13);
    V_QR(x3, x4, x9, x14);
  }
  /* The input words again, broadcast anew from memory: kept in registers through the rounds
   * they would double the live values, and GCC then spills state words inside the loop (0.6x
   * the speed). The opaque pointer stops it reusing the first broadcasts. */
  const uint32_t *in_words = st;
  const __m256i *in_ctr = ctr;
  __asm__("" : "+r"(in_words), "+r"(in_ctr));
#define ADD_IN(x, i) x = _mm256_add_epi32(x, _mm256_set1_epi32((int) in_words[i]))
  ADD_IN(x0, 0); ADD_IN(x1, 1); ADD_IN(x2, 2); ADD_IN(x3, 3);
  ADD_IN(x4, 4); ADD_IN(x5, 5); ADD_IN(x6, 6); ADD_IN(x7, 7);
  ADD_IN(x8, 8); ADD_IN(x9, 9); ADD_IN(x10, 10); ADD_IN(x11, 11);
  ADD_IN(x14, 14); ADD_IN(x15, 15);
#undef ADD_IN
  x12 = _mm256_add_epi32(x12, _mm256_loadu_si256(in_ctr));
  x13 = _mm256_add_epi32(x13, _mm256_loadu_si256(in_ctr + 1));
  __m256i a0, a1, a2, a3, b0, b1, b2, b3;
  /* words 0..7 of every block */
  TRANSPOSE4(x0, x1, x2, x3, a0, a1, a2, a3);
  TRANSPOSE4(x4, x5, x6, x7, b0, b1, b2, b3);
  XOR32(0, _mm256_permute2x128_si256(a0, b0, 0x20));
  XOR32(64, _mm256_permute2x128_si256(a1, b1, 0x20));
  XOR32(128, _mm256_permute2x128_si256(a2, b2, 0x20));
  XOR32(192, _mm256_permute2x128_si256(a3, b3, 0x20));
  XOR32(256, _mm256_permute2x128_si256(a0, b0, 0x31));
  XOR32(320, _mm256_permute2x128_si256(a1, b1, 0x31));
  XOR32(384, _mm256_permute2x128_si256(a2, b2, 0x31));
  XOR32(448, _mm256_permute2x128_si256(a3, b3, 0x31));
  /* words 8..15 */
  TRANSPOSE4(x8, x9, x10, x11, a0, a1, a2, a3);
  TRANSPOSE4(x12, x13, x14, x15, b0, b1, b2, b3);
  XOR32(32, _mm256_permute2x128_si256(a0, b0, 0x20));
  XOR32(96, _mm256_permute2x128_si256(a1, b1, 0x20));
  XOR32(160, _mm256_permute2x128_si256(a2, b2, 0x20));
  XOR32(224, _mm256_permute2x128_si256(a3, b3, 0x20));
  XOR32(288, _mm256_permute2x128_si256(a0, b0, 0x31));
  XOR32(352, _mm256_permute2x128_si256(a1, b1, 0x31));
  XOR32(416, _mm256_permute2x128_si256(a2, b2, 0x31));
  XOR32(480, _mm256_permute2x128_si256(a3, b3, 0x31));
}

/* Row-wise, for the last 1..7 blocks (chacha20_rows.h), rotations by shifts and an or. */
#define NAT_ROWS_TARGET NAT_AVX2
#define NAT_ROWS_ROT16 Y_ROT16
#define NAT_ROWS_ROT8 Y_ROT8
#define NAT_ROWS_ROTL Y_ROTL
#include "chacha20_rows.h"

NAT_AVX2 void nat_chacha20_blocks_avx2(uint32_t st[16], unsigned char *out,
                                       const unsigned char *in, size_t nblocks, int ctr64) {
  for (; nblocks >= 8; nblocks -= 8, in += 512, out += 512) {
    blocks8(st, out, in, ctr64);
    const uint32_t before = st[12];
    st[12] += 8;
    if (ctr64) st[13] += st[12] < before;
  }
  if (nblocks > 0) rows_tail(st, out, in, nblocks, ctr64);
}
#endif
