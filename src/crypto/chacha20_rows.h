/* ChaCha20 row-wise on ymm registers, for runs of fewer than eight blocks (a short message, the
 * end of a long one), shared by chacha20_avx2.c and chacha20_avx512.c. The includer defines:
 *   NAT_ROWS_TARGET                    the functions' target attribute
 *   NAT_ROWS_ROT16(x) NAT_ROWS_ROT8(x) each 32-bit lane rotated left by 16 and by 8
 *   NAT_ROWS_ROTL(x, n)                each 32-bit lane rotated left by n (12 and 7)
 *
 * ymm rows a..d hold one row of two consecutive blocks (block i in the low half, i + 1 in the
 * high half), so a quarter round works on all four columns of both blocks at once and the
 * diagonal round lines the rows up by rotating their words. Rows a, c and d turn for the diagonal
 * round (never b, whose rotate ends each quarter round and starts the next). A block is one chain
 * of dependent instructions, so its speed is their latency: with AVX-512VL each rotation is one
 * vprold where AVX2 needs two shifts and an or (on Zen 5, 1 to 3 blocks took 0.8x the AVX2
 * code's TSC cycles). */
#include <immintrin.h>

#define NAT_ROWS_ROUND(a, b, c, d)                                                          \
  a = _mm256_add_epi32(a, b); d = NAT_ROWS_ROT16(_mm256_xor_si256(d, a));                   \
  c = _mm256_add_epi32(c, d); b = NAT_ROWS_ROTL(_mm256_xor_si256(b, c), 12);                \
  a = _mm256_add_epi32(a, b); d = NAT_ROWS_ROT8(_mm256_xor_si256(d, a));                    \
  c = _mm256_add_epi32(c, d); b = NAT_ROWS_ROTL(_mm256_xor_si256(b, c), 7);                 \
  a = _mm256_shuffle_epi32(a, 0x93); c = _mm256_shuffle_epi32(c, 0x39);                     \
  d = _mm256_shuffle_epi32(d, 0x4e);                                                        \
  a = _mm256_add_epi32(a, b); d = NAT_ROWS_ROT16(_mm256_xor_si256(d, a));                   \
  c = _mm256_add_epi32(c, d); b = NAT_ROWS_ROTL(_mm256_xor_si256(b, c), 12);                \
  a = _mm256_add_epi32(a, b); d = NAT_ROWS_ROT8(_mm256_xor_si256(d, a));                    \
  c = _mm256_add_epi32(c, d); b = NAT_ROWS_ROTL(_mm256_xor_si256(b, c), 7);                 \
  a = _mm256_shuffle_epi32(a, 0x39); c = _mm256_shuffle_epi32(c, 0x93);                     \
  d = _mm256_shuffle_epi32(d, 0x4e)

#define NAT_ROWS_XOR16(at, v)                                                     \
  _mm_storeu_si128((__m128i *) (out + (at)),                                      \
                   _mm_xor_si128(v, _mm_loadu_si128((const __m128i *) (in + (at)))))

/* Row 3 of blocks n and n + 1 counted from d (counter in word 0, or words 0-1 with ctr64). */
NAT_ROWS_TARGET static inline __m256i rows_row3_pair(const uint32_t st[16], uint32_t n, int ctr64) {
  uint32_t lo0 = st[12] + n, lo1 = st[12] + n + 1, hi0 = st[13], hi1 = st[13];
  if (ctr64) {
    hi0 += lo0 < st[12];
    hi1 += lo1 < st[12];
  }
  return _mm256_setr_epi32((int) lo0, (int) hi0, (int) st[14], (int) st[15], (int) lo1, (int) hi1,
                           (int) st[14], (int) st[15]);
}

/* nblocks (1..6) blocks in ceil(nblocks / 2) register sets, nsets of them. Always inlined with a
 * constant nsets, so the arrays live in registers. */
NAT_ROWS_TARGET static inline __attribute__((always_inline)) void
rows_blocks(const uint32_t st[16], unsigned char *out, const unsigned char *in, size_t nblocks,
            int nsets, int ctr64) {
  const __m256i row0 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) st)),
                row1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) (st + 4))),
                row2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) (st + 8)));
  __m256i a[3], b[3], c[3], d[3], d_in[3];
  for (int s = 0; s < nsets; s++) {
    a[s] = row0;
    b[s] = row1;
    c[s] = row2;
    d[s] = d_in[s] = rows_row3_pair(st, (uint32_t) (2 * s), ctr64);
  }
  for (int i = 0; i < 10; i++) {
    for (int s = 0; s < nsets; s++) {
      NAT_ROWS_ROUND(a[s], b[s], c[s], d[s]);
    }
  }
  for (int s = 0; s < nsets; s++) {
    const __m256i ra = _mm256_add_epi32(a[s], row0), rb = _mm256_add_epi32(b[s], row1),
                  rc = _mm256_add_epi32(c[s], row2), rd = _mm256_add_epi32(d[s], d_in[s]);
    const size_t at = (size_t) 128 * (size_t) s;
    NAT_ROWS_XOR16(at, _mm256_castsi256_si128(ra));
    NAT_ROWS_XOR16(at + 16, _mm256_castsi256_si128(rb));
    NAT_ROWS_XOR16(at + 32, _mm256_castsi256_si128(rc));
    NAT_ROWS_XOR16(at + 48, _mm256_castsi256_si128(rd));
    if ((size_t) (2 * s + 1) < nblocks) {
      NAT_ROWS_XOR16(at + 64, _mm256_extracti128_si256(ra, 1));
      NAT_ROWS_XOR16(at + 80, _mm256_extracti128_si256(rb, 1));
      NAT_ROWS_XOR16(at + 96, _mm256_extracti128_si256(rc, 1));
      NAT_ROWS_XOR16(at + 112, _mm256_extracti128_si256(rd, 1));
    }
  }
}

/* nblocks blocks (any number; up to six per pass) from st's counter on; st's counter advances. */
NAT_ROWS_TARGET static void rows_tail(uint32_t st[16], unsigned char *out, const unsigned char *in,
                                      size_t nblocks, int ctr64) {
  while (nblocks > 0) {
    const size_t n = nblocks > 6 ? 6 : nblocks;
    const uint32_t before = st[12];
    if (n > 4) {
      rows_blocks(st, out, in, n, 3, ctr64);
    } else if (n > 2) {
      rows_blocks(st, out, in, n, 2, ctr64);
    } else {
      rows_blocks(st, out, in, n, 1, ctr64);
    }
    st[12] += (uint32_t) n;
    if (ctr64) st[13] += st[12] < before;
    nblocks -= n;
    in += 64 * n;
    out += 64 * n;
  }
}
