/* XChaCha20-Poly1305-IETF in one pass (draft-irtf-cfrg-xchacha-03, RFC 8439).
 *
 *   subkey  = HChaCha20(k, npub[0..16])
 *   block_i = ChaCha20(subkey, counter i, nonce 0^4 || npub[16..24])
 *   polykey = block_0[0..32];  c = m ^ (block_1 || block_2 || ...)
 *   tag     = Poly1305(polykey, ad || pad16 || c || pad16 || le64(adlen) || le64(clen))
 *
 * Short messages: HChaCha20 and all the keystream blocks a message needs are computed in one call
 * into a stack buffer (on x86-64 with AVX2: two blocks per 256-bit register, up to three register
 * sets interleaved; SIMD128 on wasm32), then the message is XORed and authenticated with a
 * Poly1305 kept in locals. Longer messages, on wasm32 only: four blocks at a time in the four
 * lanes of SIMD128 registers, streamed 256 bytes at a time, and a four-lane Poly1305. The order of
 * reads and writes is libsodium's (ad is absorbed before c is written; on decrypt, nothing is
 * written before the whole tag is checked), so even buffers that alias in ways the binding allows
 * give libsodium's answers. */
#include <string.h>

#include "xchacha20poly1305.h"

/* NAT_XCHACHA20POLY1305_PORTABLE (tests and benchmarks) forces the portable C throughout. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
  !defined(NAT_XCHACHA20POLY1305_PORTABLE)
#define NAT_XCHACHA_AVX2 1
#include <immintrin.h>
#elif defined(__wasm_simd128__) && !defined(NAT_XCHACHA20POLY1305_PORTABLE)
#define NAT_XCHACHA_SIMD128 1
#include <wasm_simd128.h>
#endif

/* Poly1305 on two 64-bit words where the CPU multiplies 64 x 64 -> 128 bits. wasm32 has no such
 * multiply (clang emulates __int128 there): 26-bit limbs are faster (14 vs 25 ns a block). */
#if defined(__SIZEOF_INT128__) && !defined(__wasm__) && !defined(NAT_XCHACHA20POLY1305_PORTABLE)
#define NAT_POLY1305_64 1
#endif

/* Keystream blocks for the largest short message, plus block 0 (the Poly1305 key). */
#define NAT_XCHACHA_MAX_BLOCKS (1 + (NAT_XCHACHA20POLY1305_SMALL_MAX + 63) / 64)

static uint32_t load32_le(const unsigned char *p) {
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static void store32_le(unsigned char *p, uint32_t w) {
  p[0] = (unsigned char) w;
  p[1] = (unsigned char) (w >> 8);
  p[2] = (unsigned char) (w >> 16);
  p[3] = (unsigned char) (w >> 24);
}

static uint64_t load64_le(const unsigned char *p) {
  return (uint64_t) load32_le(p) | (uint64_t) load32_le(p + 4) << 32;
}

/* ---- ChaCha20 ---------------------------------------------------------------------------- */
/* Each build has one xchacha20_keystream: AVX2 (x86-64, called only when the CPU has it),
 * SIMD128 (wasm32) or portable C. It computes HChaCha20 and then the keystream blocks 0..nblocks-1
 * under the subkey: all the ChaCha20 work of one call. */

/* "expand 32-byte k" */
#define SIGMA0 0x61707865U
#define SIGMA1 0x3320646eU
#define SIGMA2 0x79622d32U
#define SIGMA3 0x6b206574U

#if defined(NAT_XCHACHA_AVX2) || defined(NAT_XCHACHA_SIMD128)
/* Row-wise: a register holds one row of the 4x4 state, so a quarter round works on all four
 * columns at once, and the diagonal round lines the rows up by rotating their words. Rows a, c
 * and d move (never b, whose rotate ends each quarter round and starts the next): their shuffles
 * run while b is still being computed, off the chain of dependent instructions that sets the
 * speed of a single block. */
#define ROWS_ROUND(add, xor, rot16, rot8, rotl, shuffle, a, b, c, d) \
  a = add(a, b); d = rot16(xor(d, a));                                  \
  c = add(c, d); b = rotl(xor(b, c), 12);                               \
  a = add(a, b); d = rot8(xor(d, a));                                   \
  c = add(c, d); b = rotl(xor(b, c), 7);                                \
  a = shuffle(a, 0x93); c = shuffle(c, 0x39); d = shuffle(d, 0x4e);     \
  a = add(a, b); d = rot16(xor(d, a));                                  \
  c = add(c, d); b = rotl(xor(b, c), 12);                               \
  a = add(a, b); d = rot8(xor(d, a));                                   \
  c = add(c, d); b = rotl(xor(b, c), 7);                                \
  a = shuffle(a, 0x39); c = shuffle(c, 0x93); d = shuffle(d, 0x4e)

/* byte shuffles that rotate each 32-bit word left by 16 and by 8 */
#define ROT16_BYTES 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
#define ROT8_BYTES 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
#endif

#if defined(NAT_XCHACHA_AVX2)
/* A 256-bit register carries the same row of two blocks (counters i and i + 1); HChaCha20 uses
 * 128-bit registers. */
#define NAT_AVX2 __attribute__((target("avx2")))

#define X_ROT16(x) _mm_shuffle_epi8(x, _mm_setr_epi8(ROT16_BYTES))
#define X_ROT8(x) _mm_shuffle_epi8(x, _mm_setr_epi8(ROT8_BYTES))
#define X_ROTL(x, n) _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - (n)))
#define X_ROUND(a, b, c, d) \
  ROWS_ROUND(_mm_add_epi32, _mm_xor_si128, X_ROT16, X_ROT8, X_ROTL, _mm_shuffle_epi32, a, b, c, d)

#define Y_ROT16(x) _mm256_shuffle_epi8(x, _mm256_setr_epi8(ROT16_BYTES, ROT16_BYTES))
#define Y_ROT8(x) _mm256_shuffle_epi8(x, _mm256_setr_epi8(ROT8_BYTES, ROT8_BYTES))
#define Y_ROTL(x, n) _mm256_or_si256(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - (n)))
#define Y_ROUND(a, b, c, d)                                                               \
  ROWS_ROUND(_mm256_add_epi32, _mm256_xor_si256, Y_ROT16, Y_ROT8, Y_ROTL,              \
             _mm256_shuffle_epi32, a, b, c, d)

/* Store the two blocks in rows a..d (block i in the low halves, i + 1 in the high halves). */
NAT_AVX2 static void store_block_pair(unsigned char *out, size_t nblocks, __m256i a, __m256i b,
                                      __m256i c, __m256i d) {
  _mm256_storeu_si256((__m256i *) out, _mm256_permute2x128_si256(a, b, 0x20));
  _mm256_storeu_si256((__m256i *) (out + 32), _mm256_permute2x128_si256(c, d, 0x20));
  if (nblocks > 1) {
    _mm256_storeu_si256((__m256i *) (out + 64), _mm256_permute2x128_si256(a, b, 0x31));
    _mm256_storeu_si256((__m256i *) (out + 96), _mm256_permute2x128_si256(c, d, 0x31));
  }
}

/* Blocks with counters row3's and up, 2 * nsets of them (nblocks of them stored), in nsets
 * independent register sets: their rounds overlap in the pipeline, so up to three sets take about
 * the time of one. Always inlined with a constant nsets, so the arrays live in registers. */
NAT_AVX2 static inline __attribute__((always_inline)) void
chacha20_block_pairs_avx2(unsigned char *out, size_t nblocks, int nsets, __m256i row0,
                          __m256i row1, __m256i row2, __m256i row3) {
  __m256i a[3], b[3], c[3], d[3], d_in[3];
  for (int s = 0; s < nsets; s++) {
    a[s] = row0;
    b[s] = row1;
    c[s] = row2;
    d[s] = d_in[s] = row3;
    row3 = _mm256_add_epi32(row3, _mm256_setr_epi32(2, 0, 0, 0, 2, 0, 0, 0));
  }
  for (int i = 0; i < 10; i++) {
    for (int s = 0; s < nsets; s++) {
      Y_ROUND(a[s], b[s], c[s], d[s]);
    }
  }
  for (int s = 0; s < nsets && (size_t) (2 * s) < nblocks; s++) {
    store_block_pair(out + 128 * s, nblocks - (size_t) (2 * s), _mm256_add_epi32(a[s], row0),
                     _mm256_add_epi32(b[s], row1), _mm256_add_epi32(c[s], row2),
                     _mm256_add_epi32(d[s], d_in[s]));
  }
}

NAT_AVX2 static void xchacha20_keystream(unsigned char *ks, size_t nblocks,
                                         const unsigned char npub[24], const unsigned char k[32]) {
  const __m128i sigma = _mm_setr_epi32((int) SIGMA0, (int) SIGMA1, (int) SIGMA2, (int) SIGMA3);
  __m128i a = sigma, b = _mm_loadu_si128((const __m128i *) k),
          c = _mm_loadu_si128((const __m128i *) (k + 16)),
          d = _mm_loadu_si128((const __m128i *) npub);
  for (int i = 0; i < 10; i++) {
    X_ROUND(a, b, c, d);
  }
  /* HChaCha20's output rows a and d are the subkey: rows 1 and 2 of every block's state */
  const __m256i row0 = _mm256_broadcastsi128_si256(sigma), row1 = _mm256_broadcastsi128_si256(a),
                row2 = _mm256_broadcastsi128_si256(d);
  const int n1 = (int) load32_le(npub + 16), n2 = (int) load32_le(npub + 20);

  for (size_t blk = 0; blk < nblocks; blk += 6) {
    const size_t left = nblocks - blk;
    const __m256i row3 = _mm256_setr_epi32((int) blk, 0, n1, n2, (int) blk + 1, 0, n1, n2);
    unsigned char *out = ks + 64 * blk;
    if (left > 4) {
      chacha20_block_pairs_avx2(out, left, 3, row0, row1, row2, row3);
    } else if (left > 2) {
      chacha20_block_pairs_avx2(out, left, 2, row0, row1, row2, row3);
    } else {
      chacha20_block_pairs_avx2(out, left, 1, row0, row1, row2, row3);
    }
  }
}

#elif defined(NAT_XCHACHA_SIMD128)
/* One block per set of four 128-bit registers; the engine maps them to SSE or NEON registers. */
/* (an extra level, so the byte lists expand into sixteen arguments before the shuffle sees them) */
#define W_BYTES(x, ...) wasm_i8x16_shuffle(x, x, __VA_ARGS__)
#define W_ROT16(x) W_BYTES(x, ROT16_BYTES)
#define W_ROT8(x) W_BYTES(x, ROT8_BYTES)
#define W_ROTL(x, n) wasm_v128_or(wasm_i32x4_shl(x, n), wasm_u32x4_shr(x, 32 - (n)))
#define W_SHUFFLE(x, imm) \
  wasm_i32x4_shuffle(x, x, (imm) & 3, ((imm) >> 2) & 3, ((imm) >> 4) & 3, ((imm) >> 6) & 3)
#define W_ROUND(a, b, c, d) \
  ROWS_ROUND(wasm_i32x4_add, wasm_v128_xor, W_ROT16, W_ROT8, W_ROTL, W_SHUFFLE, a, b, c, d)

/* nsets blocks from row3's counter on, in independent register sets whose rounds overlap.
 * Always inlined with a constant nsets, so the arrays live in registers. */
static inline __attribute__((always_inline)) void
chacha20_blocks_simd128(unsigned char *out, int nsets, v128_t row0, v128_t row1, v128_t row2,
                        v128_t row3) {
  v128_t a[3], b[3], c[3], d[3], d_in[3];
  for (int s = 0; s < nsets; s++) {
    a[s] = row0;
    b[s] = row1;
    c[s] = row2;
    d[s] = d_in[s] = row3;
    row3 = wasm_i32x4_add(row3, wasm_i32x4_make(1, 0, 0, 0));
  }
  for (int i = 0; i < 10; i++) {
    for (int s = 0; s < nsets; s++) {
      W_ROUND(a[s], b[s], c[s], d[s]);
    }
  }
  for (int s = 0; s < nsets; s++) {
    wasm_v128_store(out + 64 * s, wasm_i32x4_add(a[s], row0));
    wasm_v128_store(out + 64 * s + 16, wasm_i32x4_add(b[s], row1));
    wasm_v128_store(out + 64 * s + 32, wasm_i32x4_add(c[s], row2));
    wasm_v128_store(out + 64 * s + 48, wasm_i32x4_add(d[s], d_in[s]));
  }
}

#define W_SIGMA wasm_i32x4_make((int) SIGMA0, (int) SIGMA1, (int) SIGMA2, (int) SIGMA3)

/* HChaCha20: its output rows a and d are the subkey, rows 1 and 2 of every block's state. */
static inline __attribute__((always_inline)) void
hchacha20_simd128(v128_t *row1, v128_t *row2, const unsigned char npub[24],
                  const unsigned char k[32]) {
  v128_t a = W_SIGMA, b = wasm_v128_load(k), c = wasm_v128_load(k + 16), d = wasm_v128_load(npub);
  for (int i = 0; i < 10; i++) {
    W_ROUND(a, b, c, d);
  }
  *row1 = a;
  *row2 = d;
}

static void xchacha20_keystream(unsigned char *ks, size_t nblocks, const unsigned char npub[24],
                                const unsigned char k[32]) {
  const v128_t sigma = W_SIGMA;
  v128_t a, d;
  hchacha20_simd128(&a, &d, npub, k);
  v128_t row3 = wasm_i32x4_make(0, 0, (int) load32_le(npub + 16), (int) load32_le(npub + 20));
  for (size_t blk = 0; blk < nblocks; blk += 3) {
    const size_t left = nblocks - blk;
    unsigned char *out = ks + 64 * blk;
    if (left > 2) {
      chacha20_blocks_simd128(out, 3, sigma, a, d, row3);
    } else if (left > 1) {
      chacha20_blocks_simd128(out, 2, sigma, a, d, row3);
    } else {
      chacha20_blocks_simd128(out, 1, sigma, a, d, row3);
    }
    row3 = wasm_i32x4_add(row3, wasm_i32x4_make(3, 0, 0, 0));
  }
}

/* Long messages: four blocks at once, one in each lane. A register holds the same state word of
 * four consecutive blocks, so a quarter round needs no shuffles; a 4x4 transpose per group of four
 * words puts the blocks back in order. s holds the 16 input words, s[12] the four counters. The
 * rotation by 8 is two shifts and an or here: V8 builds the byte shuffle's mask anew for each use
 * (rotations by shifts took 0.85x the time at 1 MB); the one by 16 stays a word shuffle
 * (pshuflw + pshufhw). */
#define W_QUARTERROUND(a, b, c, d)                                           \
  a = wasm_i32x4_add(a, b); d = W_ROT16(wasm_v128_xor(d, a));               \
  c = wasm_i32x4_add(c, d); b = W_ROTL(wasm_v128_xor(b, c), 12);           \
  a = wasm_i32x4_add(a, b); d = W_ROTL(wasm_v128_xor(d, a), 8);             \
  c = wasm_i32x4_add(c, d); b = W_ROTL(wasm_v128_xor(b, c), 7)

static void chacha20_x4_init(v128_t s[16], const unsigned char npub[24],
                             const unsigned char k[32]) {
  v128_t row1, row2;
  hchacha20_simd128(&row1, &row2, npub, k);
  s[0] = wasm_i32x4_splat((int) SIGMA0);
  s[1] = wasm_i32x4_splat((int) SIGMA1);
  s[2] = wasm_i32x4_splat((int) SIGMA2);
  s[3] = wasm_i32x4_splat((int) SIGMA3);
  s[4] = wasm_i32x4_shuffle(row1, row1, 0, 0, 0, 0);
  s[5] = wasm_i32x4_shuffle(row1, row1, 1, 1, 1, 1);
  s[6] = wasm_i32x4_shuffle(row1, row1, 2, 2, 2, 2);
  s[7] = wasm_i32x4_shuffle(row1, row1, 3, 3, 3, 3);
  s[8] = wasm_i32x4_shuffle(row2, row2, 0, 0, 0, 0);
  s[9] = wasm_i32x4_shuffle(row2, row2, 1, 1, 1, 1);
  s[10] = wasm_i32x4_shuffle(row2, row2, 2, 2, 2, 2);
  s[11] = wasm_i32x4_shuffle(row2, row2, 3, 3, 3, 3);
  s[12] = wasm_i32x4_make(0, 1, 2, 3);
  s[13] = wasm_i32x4_splat(0);
  s[14] = wasm_i32x4_splat((int) load32_le(npub + 16));
  s[15] = wasm_i32x4_splat((int) load32_le(npub + 20));
}

/* Words 4g..4g+3 of the four blocks, transposed (block j's bytes 16g..16g+15 are lane j), XORed
 * into out from in. */
#define W_XOR_GROUP(g, x0, x1, x2, x3)                                                       \
  do {                                                                                       \
    const v128_t lo01 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5),                              \
                 hi01 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7),                              \
                 lo23 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5),                              \
                 hi23 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);                              \
    W_XOR16(16 * (g), wasm_i64x2_shuffle(lo01, lo23, 0, 2));                                 \
    W_XOR16(64 + 16 * (g), wasm_i64x2_shuffle(lo01, lo23, 1, 3));                            \
    W_XOR16(128 + 16 * (g), wasm_i64x2_shuffle(hi01, hi23, 0, 2));                           \
    W_XOR16(192 + 16 * (g), wasm_i64x2_shuffle(hi01, hi23, 1, 3));                           \
  } while (0)
#define W_XOR16(at, v) wasm_v128_store(out + (at), wasm_v128_xor(v, wasm_v128_load(in + (at))))

/* out = in ^ the next four blocks (256 bytes; out == in allowed) */
static void chacha20_x4_xor(unsigned char *out, const unsigned char *in, v128_t s[16]) {
  v128_t x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7],
         x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11], x12 = s[12], x13 = s[13], x14 = s[14],
         x15 = s[15];
  for (int i = 0; i < 10; i++) {
    W_QUARTERROUND(x0, x4, x8, x12);
    W_QUARTERROUND(x1, x5, x9, x13);
    W_QUARTERROUND(x2, x6, x10, x14);
    W_QUARTERROUND(x3, x7, x11, x15);
    W_QUARTERROUND(x0, x5, x10, x15);
    W_QUARTERROUND(x1, x6, x11, x12);
    W_QUARTERROUND(x2, x7, x8, x13);
    W_QUARTERROUND(x3, x4, x9, x14);
  }
  W_XOR_GROUP(0, wasm_i32x4_add(x0, s[0]), wasm_i32x4_add(x1, s[1]), wasm_i32x4_add(x2, s[2]),
              wasm_i32x4_add(x3, s[3]));
  W_XOR_GROUP(1, wasm_i32x4_add(x4, s[4]), wasm_i32x4_add(x5, s[5]), wasm_i32x4_add(x6, s[6]),
              wasm_i32x4_add(x7, s[7]));
  W_XOR_GROUP(2, wasm_i32x4_add(x8, s[8]), wasm_i32x4_add(x9, s[9]), wasm_i32x4_add(x10, s[10]),
              wasm_i32x4_add(x11, s[11]));
  W_XOR_GROUP(3, wasm_i32x4_add(x12, s[12]), wasm_i32x4_add(x13, s[13]),
              wasm_i32x4_add(x14, s[14]), wasm_i32x4_add(x15, s[15]));
  s[12] = wasm_i32x4_add(s[12], wasm_i32x4_splat(4));
}

/* ks = the next four blocks */
static void chacha20_x4_keystream(unsigned char ks[256], v128_t s[16]) {
  memset(ks, 0, 256);
  chacha20_x4_xor(ks, ks, s);
}

#else
#define ROTL32(x, n) ((uint32_t) (((x) << (n)) | ((x) >> (32 - (n)))))
#define QUARTERROUND(a, b, c, d) \
  a += b; d = ROTL32(d ^ a, 16); \
  c += d; b = ROTL32(b ^ c, 12); \
  a += b; d = ROTL32(d ^ a, 8);  \
  c += d; b = ROTL32(b ^ c, 7)

/* The 20 rounds, on 16 locals so the compiler keeps the state in registers. */
static void chacha20_rounds(uint32_t x[16]) {
  uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6],
           x7 = x[7], x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11], x12 = x[12], x13 = x[13],
           x14 = x[14], x15 = x[15];
  for (int i = 0; i < 10; i++) {
    QUARTERROUND(x0, x4, x8, x12);
    QUARTERROUND(x1, x5, x9, x13);
    QUARTERROUND(x2, x6, x10, x14);
    QUARTERROUND(x3, x7, x11, x15);
    QUARTERROUND(x0, x5, x10, x15);
    QUARTERROUND(x1, x6, x11, x12);
    QUARTERROUND(x2, x7, x8, x13);
    QUARTERROUND(x3, x4, x9, x14);
  }
  x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3; x[4] = x4; x[5] = x5; x[6] = x6; x[7] = x7;
  x[8] = x8; x[9] = x9; x[10] = x10; x[11] = x11; x[12] = x12; x[13] = x13; x[14] = x14;
  x[15] = x15;
}

static void xchacha20_keystream(unsigned char *ks, size_t nblocks, const unsigned char npub[24],
                                const unsigned char k[32]) {
  uint32_t x[16], subkey[8];
  int i;

  /* HChaCha20: the rounds without the final addition; the subkey is words 0..3 and 12..15. */
  x[0] = SIGMA0; x[1] = SIGMA1; x[2] = SIGMA2; x[3] = SIGMA3;
  for (i = 0; i < 8; i++) x[4 + i] = load32_le(k + 4 * i);
  for (i = 0; i < 4; i++) x[12 + i] = load32_le(npub + 4 * i);
  chacha20_rounds(x);
  for (i = 0; i < 4; i++) {
    subkey[i] = x[i];
    subkey[4 + i] = x[12 + i];
  }

  for (size_t b = 0; b < nblocks; b++) {
    uint32_t s[16] = {SIGMA0, SIGMA1, SIGMA2, SIGMA3};
    for (i = 0; i < 8; i++) s[4 + i] = subkey[i];
    s[12] = (uint32_t) b;
    s[13] = 0;
    s[14] = load32_le(npub + 16);
    s[15] = load32_le(npub + 20);
    memcpy(x, s, sizeof x);
    chacha20_rounds(x);
    for (i = 0; i < 16; i++) store32_le(ks + 64 * b + 4 * i, x[i] + s[i]);
  }
  sodium_memzero(x, sizeof x);
  sodium_memzero(subkey, sizeof subkey);
}
#endif

/* ---- Poly1305 ----------------------------------------------------------------------------- */
/* Only whole 16-byte blocks with the 2^128 bit set: the AEAD zero-pads ad and c itself. */
#ifdef NAT_POLY1305_64
typedef unsigned __int128 u128;

static void store64_le(unsigned char *p, uint64_t w) {
  store32_le(p, (uint32_t) w);
  store32_le(p + 4, (uint32_t) (w >> 32));
}

/* h = h0 + h1 2^64 + h2 2^128 with h2 small; r = r0 + r1 2^64. Clamping clears r1's low two
 * bits, so r1 2^128 = (r1 / 4) 2^130 = 5 (r1 / 4) = s1 (mod 2^130 - 5) with s1 = r1 + r1 / 4. */
typedef struct poly1305 {
  uint64_t r0, r1, s1, h0, h1, h2, pad0, pad1;
} poly1305;

static void poly1305_init(poly1305 *st, const unsigned char key[32]) {
  st->r0 = load64_le(key) & 0x0ffffffc0fffffffULL;
  st->r1 = load64_le(key + 8) & 0x0ffffffc0ffffffcULL;
  st->s1 = st->r1 + (st->r1 >> 2);
  st->h0 = st->h1 = st->h2 = 0;
  st->pad0 = load64_le(key + 16);
  st->pad1 = load64_le(key + 24);
}

/* One block m0 + m1 2^64 + 2^128. The sums of products stay 128-bit; the other carries are
 * spelled out in 64 bits, which GCC compiles without the stack round trips it makes of
 * (u128) x + y. */
static void poly1305_block(poly1305 *st, uint64_t m0, uint64_t m1) {
  const uint64_t r0 = st->r0, r1 = st->r1, s1 = st->s1;
  uint64_t h0 = st->h0 + m0, h1 = st->h1, h2 = st->h2, c = h0 < m0;
  h1 += c;
  c = h1 < c;
  h1 += m1;
  c += h1 < m1;
  h2 += c + 1;
  /* h * r, with the terms at 2^128 and above folded back down by s1 */
  const u128 d0 = (u128) h0 * r0 + (u128) h1 * s1;
  const u128 d1 = (u128) h0 * r1 + (u128) h1 * r0 + (u128) h2 * s1 + (uint64_t) (d0 >> 64);
  const uint64_t d2 = h2 * r0 + (uint64_t) (d1 >> 64);
  /* keep 130 bits; what lies above 2^130 comes back times 5 */
  c = (d2 >> 2) + (d2 & ~(uint64_t) 3);
  h0 = (uint64_t) d0 + c;
  c = h0 < c;
  h1 = (uint64_t) d1 + c;
  st->h0 = h0;
  st->h1 = h1;
  st->h2 = (d2 & 3) + (h1 < c);
}

static void poly1305_finish(poly1305 *st, unsigned char tag[16]) {
  /* h < 2^130 + 2^128 < 2p: subtract p once if h + 5 reaches 2^130 */
  u128 t = (u128) st->h0 + 5;
  const uint64_t g0 = (uint64_t) t;
  t = (u128) st->h1 + (uint64_t) (t >> 64);
  const uint64_t g1 = (uint64_t) t;
  const uint64_t g2 = st->h2 + (uint64_t) (t >> 64);
  const uint64_t use_g = 0 - (g2 >> 2);
  const uint64_t h0 = (st->h0 & ~use_g) | (g0 & use_g), h1 = (st->h1 & ~use_g) | (g1 & use_g);
  t = (u128) h0 + st->pad0;
  store64_le(tag, (uint64_t) t);
  store64_le(tag + 8, h1 + st->pad1 + (uint64_t) (t >> 64));
}
#else
/* Targets without a 64 x 64 -> 128 multiply (wasm32, 32-bit CPUs) or a 128-bit type: h and r in
 * five 26-bit limbs, so products of two limbs fit in 64 bits (poly1305-donna's 32-bit layout). */
typedef struct poly1305 {
  uint32_t r[5], s[5], h[5], pad[4];
} poly1305;

static void poly1305_init(poly1305 *st, const unsigned char key[32]) {
  st->r[0] = load32_le(key) & 0x3ffffff;
  st->r[1] = (load32_le(key + 3) >> 2) & 0x3ffff03;
  st->r[2] = (load32_le(key + 6) >> 4) & 0x3ffc0ff;
  st->r[3] = (load32_le(key + 9) >> 6) & 0x3f03fff;
  st->r[4] = (load32_le(key + 12) >> 8) & 0x00fffff;
  for (int i = 0; i < 5; i++) {
    st->s[i] = st->r[i] * 5;
    st->h[i] = 0;
  }
  for (int i = 0; i < 4; i++) st->pad[i] = load32_le(key + 16 + 4 * i);
}

/* One block m0 + m1 2^64 + 2^128. */
static void poly1305_block(poly1305 *st, uint64_t m0, uint64_t m1) {
  const uint32_t r0 = st->r[0], r1 = st->r[1], r2 = st->r[2], r3 = st->r[3], r4 = st->r[4];
  const uint32_t s1 = st->s[1], s2 = st->s[2], s3 = st->s[3], s4 = st->s[4];
  const uint32_t h0 = st->h[0] + ((uint32_t) m0 & 0x3ffffff),
                 h1 = st->h[1] + ((uint32_t) (m0 >> 26) & 0x3ffffff),
                 h2 = st->h[2] + ((uint32_t) (m0 >> 52 | m1 << 12) & 0x3ffffff),
                 h3 = st->h[3] + ((uint32_t) (m1 >> 14) & 0x3ffffff),
                 h4 = st->h[4] + ((uint32_t) (m1 >> 40) | (1U << 24));
  /* limb products at 2^130 and above come back times 5 (the s = 5 r terms) */
  const uint64_t d0 = (uint64_t) h0 * r0 + (uint64_t) h1 * s4 + (uint64_t) h2 * s3 +
                      (uint64_t) h3 * s2 + (uint64_t) h4 * s1;
  uint64_t d1 = (uint64_t) h0 * r1 + (uint64_t) h1 * r0 + (uint64_t) h2 * s4 +
                (uint64_t) h3 * s3 + (uint64_t) h4 * s2;
  uint64_t d2 = (uint64_t) h0 * r2 + (uint64_t) h1 * r1 + (uint64_t) h2 * r0 +
                (uint64_t) h3 * s4 + (uint64_t) h4 * s3;
  uint64_t d3 = (uint64_t) h0 * r3 + (uint64_t) h1 * r2 + (uint64_t) h2 * r1 +
                (uint64_t) h3 * r0 + (uint64_t) h4 * s4;
  uint64_t d4 = (uint64_t) h0 * r4 + (uint64_t) h1 * r3 + (uint64_t) h2 * r2 +
                (uint64_t) h3 * r1 + (uint64_t) h4 * r0;
  d1 += d0 >> 26;
  d2 += d1 >> 26;
  d3 += d2 >> 26;
  d4 += d3 >> 26;
  const uint32_t g0 = ((uint32_t) d0 & 0x3ffffff) + (uint32_t) (d4 >> 26) * 5;
  st->h[0] = g0 & 0x3ffffff;
  st->h[1] = ((uint32_t) d1 & 0x3ffffff) + (g0 >> 26);
  st->h[2] = (uint32_t) d2 & 0x3ffffff;
  st->h[3] = (uint32_t) d3 & 0x3ffffff;
  st->h[4] = (uint32_t) d4 & 0x3ffffff;
}

static void poly1305_finish(poly1305 *st, unsigned char tag[16]) {
  uint32_t h0 = st->h[0], h1 = st->h[1], h2 = st->h[2], h3 = st->h[3], h4 = st->h[4];
  /* carry fully, then subtract p once if h + 5 reaches 2^130 */
  h2 += h1 >> 26; h1 &= 0x3ffffff;
  h3 += h2 >> 26; h2 &= 0x3ffffff;
  h4 += h3 >> 26; h3 &= 0x3ffffff;
  h0 += (h4 >> 26) * 5; h4 &= 0x3ffffff;
  h1 += h0 >> 26; h0 &= 0x3ffffff;
  uint32_t g0 = h0 + 5, g1 = h1 + (g0 >> 26), g2, g3, g4;
  g0 &= 0x3ffffff;
  g2 = h2 + (g1 >> 26); g1 &= 0x3ffffff;
  g3 = h3 + (g2 >> 26); g2 &= 0x3ffffff;
  g4 = h4 + (g3 >> 26) - (1U << 26); g3 &= 0x3ffffff;
  const uint32_t use_g = ~(0 - (g4 >> 31)); /* g4 did not borrow: h >= p */
  h0 = (h0 & ~use_g) | (g0 & use_g);
  h1 = (h1 & ~use_g) | (g1 & use_g);
  h2 = (h2 & ~use_g) | (g2 & use_g);
  h3 = (h3 & ~use_g) | (g3 & use_g);
  h4 = (h4 & ~use_g) | (g4 & use_g);
  /* h mod 2^128 in 32-bit words, plus the pad */
  const uint32_t w0 = h0 | h1 << 26, w1 = h1 >> 6 | h2 << 20, w2 = h2 >> 12 | h3 << 14,
                 w3 = h3 >> 18 | h4 << 8;
  uint64_t f = (uint64_t) w0 + st->pad[0];
  store32_le(tag, (uint32_t) f);
  f = (uint64_t) w1 + st->pad[1] + (f >> 32);
  store32_le(tag + 4, (uint32_t) f);
  f = (uint64_t) w2 + st->pad[2] + (f >> 32);
  store32_le(tag + 8, (uint32_t) f);
  f = (uint64_t) w3 + st->pad[3] + (f >> 32);
  store32_le(tag + 12, (uint32_t) f);
}
#endif

static void poly1305_blocks(poly1305 *st, const unsigned char *p, size_t nblocks) {
  for (; nblocks > 0; nblocks--, p += 16) poly1305_block(st, load64_le(p), load64_le(p + 8));
}

/* p, then zeros up to a multiple of 16 bytes. The last block is gathered in registers: going
 * through a zeroed buffer in memory stalls on store-to-load forwarding. */
static void poly1305_padded(poly1305 *st, const unsigned char *p, size_t len) {
  poly1305_blocks(st, p, len / 16);
  if (len % 16 != 0) {
    uint64_t m[2] = {0, 0};
    p += len & ~(size_t) 15;
    for (size_t i = 0; i < len % 16; i++) m[i / 8] |= (uint64_t) p[i] << (8 * (i % 8));
    poly1305_block(st, m[0], m[1]);
  }
}

#if defined(NAT_XCHACHA_SIMD128)
/* Four blocks at a time on wasm32, for long messages: lane j accumulates blocks j, j + 4, ...
 * by Horner's rule with r^4; at the end lane j is multiplied by r^(4-j) and the lanes are summed
 * back into the scalar state. The 26-bit limbs are those of the scalar code; a register holds one
 * limb of the four lanes, and u64x2 extmul (pmuludq) makes two limb products at once. */
typedef struct poly1305_x4 {
  v128_t h[5], r4[5], s4[5], rfin[5], sfin[5];
} poly1305_x4;

#define W_MASK26 wasm_i32x4_splat(0x3ffffff)

/* h = h r (mod 2^130 - 5) per lane, s = 5 r; limbs below 2^27 in, below 2^26 (h1: 2^26 + 2^6)
 * out, as poly1305_block's. */
static inline __attribute__((always_inline)) void
poly1305_x4_mul(v128_t h[5], const v128_t r[5], const v128_t s[5]) {
  const v128_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
  v128_t r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], s1 = s[1], s2 = s[2], s3 = s[3],
         s4 = s[4];
  /* Opaque to the optimiser: left alone, clang hoists the zero-extension of a loop-invariant r
   * out of the loop and multiplies with i64x2.mul, which V8 expands to three pmuludq and five more
   * instructions per product, where an extmul is one pmuludq and two unpacks (the loop took
   * 1.6x as long). */
  __asm__ volatile("" : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3), "+r"(r4));
  __asm__ volatile("" : "+r"(s1), "+r"(s2), "+r"(s3), "+r"(s4));
  v128_t d0, d1, d2, d3, d4, lo0, lo1, lo2, lo3, lo4;
  /* the products in two halves of two lanes each; what lies at 2^130 and above comes back
   * times 5 (the s = 5 r terms), as in poly1305_block */
#define W_SUM5(a, b, c, d, e) \
  wasm_i64x2_add(wasm_i64x2_add(wasm_i64x2_add(a, b), wasm_i64x2_add(c, d)), e)
#define W_MUL_HALF(mul)                                                                \
  d0 = W_SUM5(mul(h0, r0), mul(h1, s4), mul(h2, s3), mul(h3, s2), mul(h4, s1));        \
  d1 = W_SUM5(mul(h0, r1), mul(h1, r0), mul(h2, s4), mul(h3, s3), mul(h4, s2));        \
  d2 = W_SUM5(mul(h0, r2), mul(h1, r1), mul(h2, r0), mul(h3, s4), mul(h4, s3));        \
  d3 = W_SUM5(mul(h0, r3), mul(h1, r2), mul(h2, r1), mul(h3, r0), mul(h4, s4));        \
  d4 = W_SUM5(mul(h0, r4), mul(h1, r3), mul(h2, r2), mul(h3, r1), mul(h4, r0));        \
  d1 = wasm_i64x2_add(d1, wasm_u64x2_shr(d0, 26));                                      \
  d2 = wasm_i64x2_add(d2, wasm_u64x2_shr(d1, 26));                                      \
  d3 = wasm_i64x2_add(d3, wasm_u64x2_shr(d2, 26));                                      \
  d4 = wasm_i64x2_add(d4, wasm_u64x2_shr(d3, 26))
  W_MUL_HALF(wasm_u64x2_extmul_low_u32x4);
  lo0 = d0; lo1 = d1; lo2 = d2; lo3 = d3; lo4 = d4;
  W_MUL_HALF(wasm_u64x2_extmul_high_u32x4);
#undef W_MUL_HALF
#undef W_SUM5
  /* the low 32 bits of each 64-bit lane: lanes 0 and 1 from lo, 2 and 3 from d */
#define W_PACK(l, d) wasm_i32x4_shuffle(l, d, 0, 2, 4, 6)
  const v128_t c = W_PACK(wasm_u64x2_shr(lo4, 26), wasm_u64x2_shr(d4, 26));
  v128_t g0 = wasm_i32x4_add(wasm_v128_and(W_PACK(lo0, d0), W_MASK26),
                             wasm_i32x4_add(c, wasm_i32x4_shl(c, 2)));
  h[1] = wasm_i32x4_add(wasm_v128_and(W_PACK(lo1, d1), W_MASK26), wasm_u32x4_shr(g0, 26));
  h[0] = wasm_v128_and(g0, W_MASK26);
  h[2] = wasm_v128_and(W_PACK(lo2, d2), W_MASK26);
  h[3] = wasm_v128_and(W_PACK(lo3, d3), W_MASK26);
  h[4] = wasm_v128_and(W_PACK(lo4, d4), W_MASK26);
#undef W_PACK
}

/* h += four blocks from p, block j in lane j */
static inline __attribute__((always_inline)) void poly1305_x4_add(v128_t h[5],
                                                                  const unsigned char *p) {
  const v128_t b0 = wasm_v128_load(p), b1 = wasm_v128_load(p + 16), b2 = wasm_v128_load(p + 32),
               b3 = wasm_v128_load(p + 48);
  const v128_t lo01 = wasm_i32x4_shuffle(b0, b1, 0, 4, 1, 5),
               hi01 = wasm_i32x4_shuffle(b0, b1, 2, 6, 3, 7),
               lo23 = wasm_i32x4_shuffle(b2, b3, 0, 4, 1, 5),
               hi23 = wasm_i32x4_shuffle(b2, b3, 2, 6, 3, 7);
  /* w[k]: word k of each block */
  const v128_t w0 = wasm_i64x2_shuffle(lo01, lo23, 0, 2), w1 = wasm_i64x2_shuffle(lo01, lo23, 1, 3),
               w2 = wasm_i64x2_shuffle(hi01, hi23, 0, 2), w3 = wasm_i64x2_shuffle(hi01, hi23, 1, 3);
  h[0] = wasm_i32x4_add(h[0], wasm_v128_and(w0, W_MASK26));
  h[1] = wasm_i32x4_add(
    h[1], wasm_v128_and(wasm_v128_or(wasm_u32x4_shr(w0, 26), wasm_i32x4_shl(w1, 6)), W_MASK26));
  h[2] = wasm_i32x4_add(
    h[2], wasm_v128_and(wasm_v128_or(wasm_u32x4_shr(w1, 20), wasm_i32x4_shl(w2, 12)), W_MASK26));
  h[3] = wasm_i32x4_add(
    h[3], wasm_v128_and(wasm_v128_or(wasm_u32x4_shr(w2, 14), wasm_i32x4_shl(w3, 18)), W_MASK26));
  h[4] = wasm_i32x4_add(h[4], wasm_v128_or(wasm_u32x4_shr(w3, 8), wasm_i32x4_splat(1 << 24)));
}

/* Start from st's state with the four blocks at p. The powers of r come from the vector multiply
 * itself: (r, r, r, r) times (r, r, r, 1), then (r, r, 1, 1), then (r, 1, 1, 1). */
static void poly1305_x4_begin(poly1305_x4 *x, const poly1305 *st, const unsigned char *p) {
  v128_t m[5], ms[5];
  for (int i = 0; i < 5; i++) x->rfin[i] = wasm_i32x4_splat((int) st->r[i]);
  for (int lanes = 3; lanes >= 1; lanes--) {
    for (int i = 0; i < 5; i++) {
      const int one = i == 0;
      m[i] = wasm_i32x4_make((int) st->r[i], lanes > 1 ? (int) st->r[i] : one,
                             lanes > 2 ? (int) st->r[i] : one, one);
      ms[i] = wasm_i32x4_add(m[i], wasm_i32x4_shl(m[i], 2));
    }
    poly1305_x4_mul(x->rfin, m, ms);
  }
  for (int i = 0; i < 5; i++) {
    x->sfin[i] = wasm_i32x4_add(x->rfin[i], wasm_i32x4_shl(x->rfin[i], 2));
    x->r4[i] = wasm_i32x4_shuffle(x->rfin[i], x->rfin[i], 0, 0, 0, 0);
    x->s4[i] = wasm_i32x4_shuffle(x->sfin[i], x->sfin[i], 0, 0, 0, 0);
    x->h[i] = wasm_i32x4_make((int) st->h[i], 0, 0, 0);
  }
  poly1305_x4_add(x->h, p);
}

/* nblocks (a multiple of 4) more blocks from p */
static void poly1305_x4_blocks(poly1305_x4 *x, const unsigned char *p, size_t nblocks) {
  v128_t h[5] = {x->h[0], x->h[1], x->h[2], x->h[3], x->h[4]};
  for (; nblocks >= 4; nblocks -= 4, p += 64) {
    poly1305_x4_mul(h, x->r4, x->s4);
    poly1305_x4_add(h, p);
  }
  for (int i = 0; i < 5; i++) x->h[i] = h[i];
}

/* Back to st: lane j times r^(4-j), the lanes summed and carried into 26-bit limbs. */
static void poly1305_x4_end(poly1305_x4 *x, poly1305 *st) {
  uint32_t h[5];
  poly1305_x4_mul(x->h, x->rfin, x->sfin);
  for (int i = 0; i < 5; i++) {
    const v128_t v = x->h[i];
    h[i] = (uint32_t) wasm_i32x4_extract_lane(v, 0) + (uint32_t) wasm_i32x4_extract_lane(v, 1) +
           (uint32_t) wasm_i32x4_extract_lane(v, 2) + (uint32_t) wasm_i32x4_extract_lane(v, 3);
  }
  /* each sum is below 2^29: carry once around */
  h[1] += h[0] >> 26; h[0] &= 0x3ffffff;
  h[2] += h[1] >> 26; h[1] &= 0x3ffffff;
  h[3] += h[2] >> 26; h[2] &= 0x3ffffff;
  h[4] += h[3] >> 26; h[3] &= 0x3ffffff;
  h[0] += (h[4] >> 26) * 5; h[4] &= 0x3ffffff;
  h[1] += h[0] >> 26; h[0] &= 0x3ffffff;
  for (int i = 0; i < 5; i++) st->h[i] = h[i];
}
#endif

/* ---- the AEAD ----------------------------------------------------------------------------- */

static void xor_keystream(unsigned char *out, const unsigned char *in, const unsigned char *ks,
                          size_t len) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t x, y;
    memcpy(&x, in + i, 8);
    memcpy(&y, ks + i, 8);
    x ^= y;
    memcpy(out + i, &x, 8);
  }
  for (; i < len; i++) out[i] = in[i] ^ ks[i];
}

static void seal_small(unsigned char *c, unsigned char mac[16], const unsigned char *m,
                       size_t mlen, const unsigned char *ad, size_t adlen,
                       const unsigned char npub[24], const unsigned char k[32]) {
  unsigned char ks[64 * NAT_XCHACHA_MAX_BLOCKS];
  const size_t nblocks = 1 + (mlen + 63) / 64;
  poly1305 st;

  xchacha20_keystream(ks, nblocks, npub, k);
  poly1305_init(&st, ks);
  if (adlen > 0) poly1305_padded(&st, ad, adlen);
  xor_keystream(c, m, ks + 64, mlen);
  poly1305_padded(&st, c, mlen);
  poly1305_block(&st, (uint64_t) adlen, (uint64_t) mlen);
  poly1305_finish(&st, mac);
  sodium_memzero(ks, 64 * nblocks);
  sodium_memzero(&st, sizeof st);
}

static int open_small(unsigned char *m, const unsigned char *c, size_t clen,
                      const unsigned char mac[16], const unsigned char *ad, size_t adlen,
                      const unsigned char npub[24], const unsigned char k[32]) {
  unsigned char ks[64 * NAT_XCHACHA_MAX_BLOCKS], computed[16];
  const size_t nblocks = 1 + (clen + 63) / 64;
  poly1305 st;
  int ret;

  xchacha20_keystream(ks, nblocks, npub, k);
  poly1305_init(&st, ks);
  if (adlen > 0) poly1305_padded(&st, ad, adlen);
  poly1305_padded(&st, c, clen);
  poly1305_block(&st, (uint64_t) adlen, (uint64_t) clen);
  poly1305_finish(&st, computed);
  ret = crypto_verify_16(computed, mac);
  if (ret == 0) {
    xor_keystream(m, c, ks + 64, clen);
  } else {
    memset(m, 0, clen);
    ret = -1;
  }
  sodium_memzero(ks, 64 * nblocks);
  sodium_memzero(&st, sizeof st);
  sodium_memzero(computed, sizeof computed);
  return ret;
}

#if defined(NAT_XCHACHA_SIMD128)
/* Longer messages on wasm32 (mlen >= 192; the callers: above NAT_XCHACHA20POLY1305_SMALL_MAX)
 * stream through the four-block kernels with nothing buffered but 256 bytes of keystream: blocks
 * 0..3 first (block 0 is the Poly1305 key, 1..3 cover bytes 0..191), then four blocks per 256
 * bytes, the last < 256 bytes through ks again. Poly1305 takes c four blocks at a time up to the
 * last whole 64 bytes (encryption: as c is written, while it is still in the cache), the rest and
 * the lengths one block at a time. Kept out of line, so the short-message path's code (and its
 * stack frame) stays as it was. */
__attribute__((noinline)) static void seal_long(unsigned char *c, unsigned char mac[16], const unsigned char *m,
                      size_t mlen, const unsigned char *ad, size_t adlen,
                      const unsigned char npub[24], const unsigned char k[32]) {
  unsigned char ks[256];
  v128_t s[16];
  poly1305 st;
  poly1305_x4 px;
  size_t i;

  chacha20_x4_init(s, npub, k);
  chacha20_x4_keystream(ks, s);
  poly1305_init(&st, ks);
  if (adlen > 0) poly1305_padded(&st, ad, adlen);
  xor_keystream(c, m, ks + 64, 192);
  poly1305_x4_begin(&px, &st, c);
  poly1305_x4_blocks(&px, c + 64, 8);
  for (i = 192; mlen - i >= 256; i += 256) {
    chacha20_x4_xor(c + i, m + i, s);
    poly1305_x4_blocks(&px, c + i, 16);
  }
  poly1305_x4_end(&px, &st);
  if (i < mlen) {
    chacha20_x4_keystream(ks, s);
    xor_keystream(c + i, m + i, ks, mlen - i);
    poly1305_padded(&st, c + i, mlen - i);
  }
  poly1305_block(&st, (uint64_t) adlen, (uint64_t) mlen);
  poly1305_finish(&st, mac);
  sodium_memzero(ks, sizeof ks);
  sodium_memzero(s, sizeof s);
  sodium_memzero(&st, sizeof st);
  sodium_memzero(&px, sizeof px);
}

/* As libsodium: the whole tag is checked before anything is written to m. */
__attribute__((noinline)) static int open_long(unsigned char *m, const unsigned char *c, size_t clen,
                     const unsigned char mac[16], const unsigned char *ad, size_t adlen,
                     const unsigned char npub[24], const unsigned char k[32]) {
  unsigned char ks[256], computed[16];
  v128_t s[16];
  poly1305 st;
  poly1305_x4 px;
  const size_t groups = clen / 64;
  size_t i;
  int ret;

  chacha20_x4_init(s, npub, k);
  chacha20_x4_keystream(ks, s);
  poly1305_init(&st, ks);
  if (adlen > 0) poly1305_padded(&st, ad, adlen);
  poly1305_x4_begin(&px, &st, c);
  poly1305_x4_blocks(&px, c + 64, 4 * (groups - 1));
  poly1305_x4_end(&px, &st);
  poly1305_padded(&st, c + 64 * groups, clen - 64 * groups);
  poly1305_block(&st, (uint64_t) adlen, (uint64_t) clen);
  poly1305_finish(&st, computed);
  ret = crypto_verify_16(computed, mac);
  if (ret == 0) {
    xor_keystream(m, c, ks + 64, 192);
    for (i = 192; clen - i >= 256; i += 256) chacha20_x4_xor(m + i, c + i, s);
    if (i < clen) {
      chacha20_x4_keystream(ks, s);
      xor_keystream(m + i, c + i, ks, clen - i);
    }
  } else {
    memset(m, 0, clen);
    ret = -1;
  }
  sodium_memzero(ks, sizeof ks);
  sodium_memzero(s, sizeof s);
  sodium_memzero(&st, sizeof st);
  sodium_memzero(&px, sizeof px);
  sodium_memzero(computed, sizeof computed);
  return ret;
}
#endif

/* Whether our code takes a message of mlen bytes. On x86 only with AVX2: without it, libsodium's
 * SSSE3 ChaCha20 beats our portable one. Elsewhere (arm64, wasm32) libsodium's ChaCha20 is
 * portable C as well, and ours saves its per-call overhead; on wasm32, where ours also has the
 * SIMD128 kernels, it runs messages of every length. */
static int fused(unsigned long long mlen) {
#if defined(NAT_XCHACHA_SIMD128)
  return mlen <= crypto_aead_xchacha20poly1305_ietf_MESSAGEBYTES_MAX;
#else
  if (mlen > NAT_XCHACHA20POLY1305_SMALL_MAX) return 0;
#if defined(NAT_XCHACHA_AVX2)
  return sodium_runtime_has_avx2();
#elif (defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)) && \
  !defined(NAT_XCHACHA20POLY1305_PORTABLE)
  return 0;
#else
  return 1;
#endif
#endif
}

static void aead_seal(unsigned char *c, unsigned char mac[16], const unsigned char *m,
                      size_t mlen, const unsigned char *ad, size_t adlen,
                      const unsigned char npub[24], const unsigned char k[32]) {
#if defined(NAT_XCHACHA_SIMD128)
  if (mlen > NAT_XCHACHA20POLY1305_SMALL_MAX) {
    seal_long(c, mac, m, mlen, ad, adlen, npub, k);
    return;
  }
#endif
  seal_small(c, mac, m, mlen, ad, adlen, npub, k);
}

static int aead_open(unsigned char *m, const unsigned char *c, size_t clen,
                     const unsigned char mac[16], const unsigned char *ad, size_t adlen,
                     const unsigned char npub[24], const unsigned char k[32]) {
#if defined(NAT_XCHACHA_SIMD128)
  if (clen > NAT_XCHACHA20POLY1305_SMALL_MAX) {
    return open_long(m, c, clen, mac, ad, adlen, npub, k);
  }
#endif
  return open_small(m, c, clen, mac, ad, adlen, npub, k);
}

/* The public functions: what fused() takes here, the rest (and libsodium's m == NULL "verify
 * only" decrypt) to libsodium. ad and m are caller memory, so their lengths fit in a size_t. */
int nat_xchacha20poly1305_ietf_encrypt_detached(unsigned char *c, unsigned char *mac,
                                                unsigned long long *maclen_p,
                                                const unsigned char *m, unsigned long long mlen,
                                                const unsigned char *ad, unsigned long long adlen,
                                                const unsigned char *nsec,
                                                const unsigned char *npub, const unsigned char *k) {
  if (!fused(mlen)) {
    return crypto_aead_xchacha20poly1305_ietf_encrypt_detached(c, mac, maclen_p, m, mlen, ad,
                                                               adlen, nsec, npub, k);
  }
  aead_seal(c, mac, m, (size_t) mlen, ad, (size_t) adlen, npub, k);
  if (maclen_p != NULL) *maclen_p = crypto_aead_xchacha20poly1305_ietf_ABYTES;
  return 0;
}

int nat_xchacha20poly1305_ietf_encrypt(unsigned char *c, unsigned long long *clen_p,
                                       const unsigned char *m, unsigned long long mlen,
                                       const unsigned char *ad, unsigned long long adlen,
                                       const unsigned char *nsec, const unsigned char *npub,
                                       const unsigned char *k) {
  if (!fused(mlen)) {
    return crypto_aead_xchacha20poly1305_ietf_encrypt(c, clen_p, m, mlen, ad, adlen, nsec, npub,
                                                      k);
  }
  aead_seal(c, c + mlen, m, (size_t) mlen, ad, (size_t) adlen, npub, k);
  if (clen_p != NULL) *clen_p = mlen + crypto_aead_xchacha20poly1305_ietf_ABYTES;
  return 0;
}

int nat_xchacha20poly1305_ietf_decrypt_detached(unsigned char *m, unsigned char *nsec,
                                                const unsigned char *c, unsigned long long clen,
                                                const unsigned char *mac, const unsigned char *ad,
                                                unsigned long long adlen,
                                                const unsigned char *npub, const unsigned char *k) {
  if (!fused(clen) || m == NULL) {
    return crypto_aead_xchacha20poly1305_ietf_decrypt_detached(m, nsec, c, clen, mac, ad, adlen,
                                                               npub, k);
  }
  return aead_open(m, c, (size_t) clen, mac, ad, (size_t) adlen, npub, k);
}

int nat_xchacha20poly1305_ietf_decrypt(unsigned char *m, unsigned long long *mlen_p,
                                       unsigned char *nsec, const unsigned char *c,
                                       unsigned long long clen, const unsigned char *ad,
                                       unsigned long long adlen, const unsigned char *npub,
                                       const unsigned char *k) {
  const unsigned long long abytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;

  if (clen < abytes || !fused(clen - abytes) || m == NULL) {
    return crypto_aead_xchacha20poly1305_ietf_decrypt(m, mlen_p, nsec, c, clen, ad, adlen, npub,
                                                      k);
  }
  const int ret = aead_open(m, c, (size_t) (clen - abytes), c + clen - abytes, ad, (size_t) adlen,
                            npub, k);
  if (mlen_p != NULL) *mlen_p = ret == 0 ? clen - abytes : 0;
  return ret;
}
