/* ChaCha20-Poly1305: the IETF construction (RFC 8439), the original one (64-bit nonce, libsodium's
 * crypto_aead_chacha20poly1305_*) and XChaCha20-Poly1305-IETF (draft-irtf-cfrg-xchacha-03).
 *
 *   IETF:     state = ChaCha20(k, counter i in word 12, nonce npub[0..12] in words 13..15)
 *   original: state = ChaCha20(k, counter i in words 12..13, nonce npub[0..8] in words 14..15)
 *   X:        subkey = HChaCha20(k, npub[0..16]); then IETF with the subkey, nonce 0^4||npub[16..24]
 *   polykey = block_0[0..32];  c = m ^ (block_1 || block_2 || ...)
 *   IETF, X:  tag = Poly1305(polykey, ad || pad16 || c || pad16 || le64(adlen) || le64(clen))
 *   original: tag = Poly1305(polykey, ad || le64(adlen) || c || le64(clen))
 *
 * Short messages (up to NAT_CHACHA20POLY1305_SMALL_MAX bytes): all the keystream blocks a message
 * needs are computed in one call into a stack buffer, then the message is XORed and authenticated
 * with a Poly1305 kept in locals: libsodium's general path spends most of a short message's time
 * in calls, function pointers and wipes. Longer messages, natively: the ChaCha20 kernel
 * chacha20_dispatch.c chose (AVX-512, AVX2 or portable) and the Poly1305 behind poly1305.h, a few
 * KB at a time so c is authenticated while it is still in the L1 cache. On wasm32: four blocks at a
 * time in the four lanes of SIMD128 registers, streamed 256 bytes at a time, and a four-lane
 * Poly1305. The order of reads and writes is libsodium's (ad is absorbed before c is written; on
 * decrypt, nothing is written before the whole tag is checked), so even buffers that alias in ways
 * the binding allows give libsodium's answers. */
#include <string.h>

#include "chacha20_impl.h"
#include "chacha20poly1305.h"
#include "poly1305.h"

/* NAT_CHACHA20POLY1305_PORTABLE (tests and benchmarks) forces the portable C throughout this
 * file's own code (the 26-bit Poly1305, no SIMD128). */
#if defined(__wasm_simd128__) && !defined(NAT_CHACHA20POLY1305_PORTABLE)
#define NAT_CHACHA_SIMD128 1
#include <wasm_simd128.h>

#include "simd128_words.h"
#endif

/* Poly1305 on two 64-bit words where the CPU multiplies 64 x 64 -> 128 bits. wasm32 has no such
 * multiply (clang emulates __int128 there): 26-bit limbs are faster (14 vs 25 ns a block). */
#if defined(__SIZEOF_INT128__) && !defined(__wasm__) && !defined(NAT_CHACHA20POLY1305_PORTABLE)
#define NAT_POLY1305_64 1
#endif

/* Keystream blocks for the largest short message, plus block 0 (the Poly1305 key). */
#define NAT_CHACHA_MAX_BLOCKS (1 + (NAT_CHACHA20POLY1305_SMALL_MAX + 63) / 64)

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
/* Natively, keystream_small runs the kernel chacha20_dispatch.c chose; on wasm32 this file has its
 * own SIMD128 code: whole blocks row by row for short messages, four lanes for long ones. */

#if defined(NAT_CHACHA_SIMD128)
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

#if defined(NAT_CHACHA_SIMD128)
/* One block per set of four 128-bit registers; the engine maps them to SSE or NEON registers. */
/* (an extra level, so the byte lists expand into sixteen arguments before the shuffle sees them) */
#define W_BYTES(x, ...) wasm_i8x16_shuffle(x, x, __VA_ARGS__)
#define W_ROT16(x) W_BYTES(x, ROT16_BYTES)
#define W_ROT8(x) W_BYTES(x, ROT8_BYTES)
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

/* The first nblocks keystream blocks of state st (its counter unchanged), for short messages. */
static void keystream_small(unsigned char *ks, size_t nblocks, const uint32_t st[16], int ctr64) {
  (void) ctr64; /* short messages: the counter stays far from 2^32 */
  const v128_t row0 = wasm_v128_load(st), row1 = wasm_v128_load(st + 4),
               row2 = wasm_v128_load(st + 8);
  v128_t row3 = wasm_v128_load(st + 12);
  for (size_t blk = 0; blk < nblocks; blk += 3) {
    const size_t left = nblocks - blk;
    unsigned char *out = ks + 64 * blk;
    if (left > 2) {
      chacha20_blocks_simd128(out, 3, row0, row1, row2, row3);
    } else if (left > 1) {
      chacha20_blocks_simd128(out, 2, row0, row1, row2, row3);
    } else {
      chacha20_blocks_simd128(out, 1, row0, row1, row2, row3);
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

/* s = the four-lane state for the four blocks from st's counter on. wasm32 memory is below 4 GB:
 * a message's counter never carries out of word 12. */
static void chacha20_x4_init(v128_t s[16], const uint32_t st[16]) {
  for (int i = 0; i < 16; i++) s[i] = wasm_i32x4_splat((int) st[i]);
  s[12] = wasm_i32x4_add(s[12], wasm_i32x4_make(0, 1, 2, 3));
}

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
  W_XOR_BLOCKS4(s, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
  s[12] = wasm_i32x4_add(s[12], wasm_i32x4_splat(4));
}

/* ks = the next four blocks */
static void chacha20_x4_keystream(unsigned char ks[256], v128_t s[16]) {
  memset(ks, 0, 256);
  chacha20_x4_xor(ks, ks, s);
}
#endif

#if !defined(NAT_CHACHA_SIMD128)
/* The first nblocks keystream blocks of state st (its counter unchanged), for short messages. */
static void keystream_small(unsigned char *ks, size_t nblocks, const uint32_t st[16], int ctr64) {
  uint32_t s[16];
  memcpy(s, st, sizeof s);
  memset(ks, 0, 64 * nblocks);
  nat_chacha20_blocks_short(s, ks, ks, nblocks, ctr64);
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

/* One block m0 + m1 2^64 + hibit 2^128 (hibit 0 only for the original construction's last,
 * padded block). The sums of products stay 128-bit; the other carries are spelled out in 64
 * bits, which GCC compiles without the stack round trips it makes of (u128) x + y. */
static inline void poly1305_block_hi(poly1305 *st, uint64_t m0, uint64_t m1, uint64_t hibit) {
  const uint64_t r0 = st->r0, r1 = st->r1, s1 = st->s1;
  uint64_t h0 = st->h0 + m0, h1 = st->h1, h2 = st->h2, c = h0 < m0;
  h1 += c;
  c = h1 < c;
  h1 += m1;
  c += h1 < m1;
  h2 += c + hibit;
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

/* One block m0 + m1 2^64 + hibit 2^128 (hibit 0 only for the original construction's last,
 * padded block). */
static inline void poly1305_block_hi(poly1305 *st, uint64_t m0, uint64_t m1, uint64_t hibit) {
  const uint32_t r0 = st->r[0], r1 = st->r[1], r2 = st->r[2], r3 = st->r[3], r4 = st->r[4];
  const uint32_t s1 = st->s[1], s2 = st->s[2], s3 = st->s[3], s4 = st->s[4];
  const uint32_t h0 = st->h[0] + ((uint32_t) m0 & 0x3ffffff),
                 h1 = st->h[1] + ((uint32_t) (m0 >> 26) & 0x3ffffff),
                 h2 = st->h[2] + ((uint32_t) (m0 >> 52 | m1 << 12) & 0x3ffffff),
                 h3 = st->h[3] + ((uint32_t) (m1 >> 14) & 0x3ffffff),
                 h4 = st->h[4] + ((uint32_t) (m1 >> 40) | ((uint32_t) hibit << 24));
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

static void poly1305_block(poly1305 *st, uint64_t m0, uint64_t m1) {
  poly1305_block_hi(st, m0, m1, 1);
}

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

#if defined(NAT_CHACHA_SIMD128)
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
/* ---- the AEADs ---------------------------------------------------------------------------- */

/* Which construction: the IETF one and X share their MAC layout and 32-bit counter. */
enum { NAT_CP_IETF = 0, NAT_CP_ORIG = 1 };

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

static void store64_le_bytes(unsigned char p[8], uint64_t w) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char) (w >> (8 * i));
}

/* The original construction's MAC input is not padded: a byte stream over the local Poly1305,
 * with a partial block held back until more bytes or the end come. */
typedef struct mac_stream {
  poly1305 p;
  unsigned char buf[16];
  size_t n;
} mac_stream;

static void mac_stream_update(mac_stream *s, const unsigned char *m, size_t len) {
  if (s->n > 0) {
    size_t take = 16 - s->n;
    if (take > len) take = len;
    memcpy(s->buf + s->n, m, take);
    s->n += take;
    m += take;
    len -= take;
    if (s->n < 16) return;
    poly1305_blocks(&s->p, s->buf, 1);
    s->n = 0;
  }
  poly1305_blocks(&s->p, m, len / 16);
  memcpy(s->buf, m + (len & ~(size_t) 15), len % 16);
  s->n = len % 16;
}

/* RFC 8439's last partial block: the bytes, a 1, zeros, and no 2^128 bit. */
static void mac_stream_final(mac_stream *s, unsigned char tag[16]) {
  if (s->n > 0) {
    s->buf[s->n] = 1;
    memset(s->buf + s->n + 1, 0, 15 - s->n);
    poly1305_block_hi(&s->p, load64_le(s->buf), load64_le(s->buf + 8), 0);
  }
  poly1305_finish(&s->p, tag);
}

/* The tag over ad and c with the local Poly1305, keyed by polykey. */
static void mac_small(unsigned char tag[16], const unsigned char polykey[32], int kind,
                      const unsigned char *ad, size_t adlen, const unsigned char *c, size_t clen) {
  if (kind == NAT_CP_IETF) {
    poly1305 st;
    poly1305_init(&st, polykey);
    if (adlen > 0) poly1305_padded(&st, ad, adlen);
    poly1305_padded(&st, c, clen);
    poly1305_block(&st, (uint64_t) adlen, (uint64_t) clen);
    poly1305_finish(&st, tag);
    sodium_memzero(&st, sizeof st);
  } else {
    mac_stream s;
    unsigned char len8[8];
    poly1305_init(&s.p, polykey);
    s.n = 0;
    if (adlen > 0) mac_stream_update(&s, ad, adlen);
    store64_le_bytes(len8, (uint64_t) adlen);
    mac_stream_update(&s, len8, 8);
    mac_stream_update(&s, c, clen);
    store64_le_bytes(len8, (uint64_t) clen);
    mac_stream_update(&s, len8, 8);
    mac_stream_final(&s, tag);
    sodium_memzero(&s, sizeof s);
  }
}

static void seal_small(unsigned char *c, unsigned char mac[16], const unsigned char *m,
                       size_t mlen, const unsigned char *ad, size_t adlen, const uint32_t st[16],
                       int kind) {
  unsigned char ks[64 * NAT_CHACHA_MAX_BLOCKS];
  const size_t nblocks = 1 + (mlen + 63) / 64;

  keystream_small(ks, nblocks, st, kind == NAT_CP_ORIG);
  if (kind == NAT_CP_IETF) {
    /* inline here: the common case, without the mac_small call's branches */
    poly1305 p;
    poly1305_init(&p, ks);
    if (adlen > 0) poly1305_padded(&p, ad, adlen);
    xor_keystream(c, m, ks + 64, mlen);
    poly1305_padded(&p, c, mlen);
    poly1305_block(&p, (uint64_t) adlen, (uint64_t) mlen);
    poly1305_finish(&p, mac);
    sodium_memzero(&p, sizeof p);
  } else {
    /* ad first, then c: in libsodium's order, for the aliasing the binding allows */
    mac_stream s;
    unsigned char len8[8];
    poly1305_init(&s.p, ks);
    s.n = 0;
    if (adlen > 0) mac_stream_update(&s, ad, adlen);
    store64_le_bytes(len8, (uint64_t) adlen);
    mac_stream_update(&s, len8, 8);
    xor_keystream(c, m, ks + 64, mlen);
    mac_stream_update(&s, c, mlen);
    store64_le_bytes(len8, (uint64_t) mlen);
    mac_stream_update(&s, len8, 8);
    mac_stream_final(&s, mac);
    sodium_memzero(&s, sizeof s);
  }
  sodium_memzero(ks, 64 * nblocks);
}

static int open_small(unsigned char *m, const unsigned char *c, size_t clen,
                      const unsigned char mac[16], const unsigned char *ad, size_t adlen,
                      const uint32_t st[16], int kind) {
  unsigned char ks[64 * NAT_CHACHA_MAX_BLOCKS], computed[16];
  const size_t nblocks = 1 + (clen + 63) / 64;
  int ret;

  keystream_small(ks, nblocks, st, kind == NAT_CP_ORIG);
  mac_small(computed, ks, kind, ad, adlen, c, clen);
  ret = crypto_verify_16(computed, mac);
  if (ret == 0) {
    xor_keystream(m, c, ks + 64, clen);
  } else {
    memset(m, 0, clen);
    ret = -1;
  }
  sodium_memzero(ks, 64 * nblocks);
  sodium_memzero(computed, sizeof computed);
  return ret;
}

/* ---- long messages, natively: the dispatched ChaCha20 kernel and poly1305.h ---------------- */
#if !defined(NAT_CHACHA_SIMD128)
/* c is authenticated this many bytes at a time, right after it is written (a multiple of 64, so
 * every piece but the last is whole blocks). */
#define NAT_CP_CHUNK 8192U

static const unsigned char zero_pad[16];

static void big_mac_begin(nat_poly1305_state *ps, uint32_t st[16], int kind,
                          const unsigned char *ad, size_t adlen) {
  unsigned char block0[64];
  memset(block0, 0, sizeof block0);
  /* one block: the short kernel (see nat_chacha20_xor) */
  nat_chacha20_blocks_short(st, block0, block0, 1, kind == NAT_CP_ORIG);
  nat_poly1305_init(ps, block0);
  sodium_memzero(block0, sizeof block0);
  if (adlen > 0) nat_poly1305_update(ps, ad, adlen);
  if (kind == NAT_CP_IETF) {
    nat_poly1305_update(ps, zero_pad, (16 - adlen % 16) % 16);
  } else {
    unsigned char len8[8];
    store64_le_bytes(len8, (uint64_t) adlen);
    nat_poly1305_update(ps, len8, 8);
  }
}

static void big_mac_end(nat_poly1305_state *ps, int kind, size_t adlen, size_t clen,
                        unsigned char tag[16]) {
  unsigned char lens[16];
  store64_le_bytes(lens, (uint64_t) adlen);
  store64_le_bytes(lens + 8, (uint64_t) clen);
  if (kind == NAT_CP_IETF) {
    nat_poly1305_update(ps, zero_pad, (16 - clen % 16) % 16);
    nat_poly1305_update(ps, lens, 16);
  } else {
    nat_poly1305_update(ps, lens + 8, 8);
  }
  nat_poly1305_final(ps, tag);
}

static void seal_big(unsigned char *c, unsigned char mac[16], const unsigned char *m,
                     size_t mlen, const unsigned char *ad, size_t adlen, uint32_t st[16],
                     int kind) {
  nat_poly1305_state ps;
  big_mac_begin(&ps, st, kind, ad, adlen);
  for (size_t i = 0; i < mlen; i += NAT_CP_CHUNK) {
    const size_t n = mlen - i < NAT_CP_CHUNK ? mlen - i : NAT_CP_CHUNK;
    nat_chacha20_xor(st, c + i, m + i, n, kind == NAT_CP_ORIG);
    nat_poly1305_update(&ps, c + i, n);
  }
  big_mac_end(&ps, kind, adlen, mlen, mac);
  sodium_memzero(&ps, sizeof ps);
}

/* As libsodium: the whole tag is checked before anything is written to m. */
static int open_big(unsigned char *m, const unsigned char *c, size_t clen,
                    const unsigned char mac[16], const unsigned char *ad, size_t adlen,
                    uint32_t st[16], int kind) {
  nat_poly1305_state ps;
  unsigned char computed[16];
  int ret;
  big_mac_begin(&ps, st, kind, ad, adlen);
  nat_poly1305_update(&ps, c, clen);
  big_mac_end(&ps, kind, adlen, clen, computed);
  ret = crypto_verify_16(computed, mac);
  if (ret == 0) {
    nat_chacha20_xor(st, m, c, clen, kind == NAT_CP_ORIG);
  } else {
    memset(m, 0, clen);
    ret = -1;
  }
  sodium_memzero(&ps, sizeof ps);
  sodium_memzero(computed, sizeof computed);
  return ret;
}
#endif

/* ---- long messages on wasm32 --------------------------------------------------------------- */
#if defined(NAT_CHACHA_SIMD128)
/* The original construction's MAC from c on (clen >= 80), ad and its length absorbed into ms: c's
 * first bytes complete ms's partial block, then the blocks that follow lie whole in c, whatever
 * their alignment, and the four-lane code takes them 64 bytes at a time; the rest and c's length
 * go through ms. */
static void mac_orig_rest(mac_stream *ms, poly1305_x4 *px, const unsigned char *c, size_t clen,
                          unsigned char tag[16]) {
  unsigned char len8[8];
  size_t i = 0;
  if (ms->n > 0) {
    i = 16 - ms->n;
    mac_stream_update(ms, c, i);
  }
  const size_t groups = (clen - i) / 64;
  poly1305_x4_begin(px, &ms->p, c + i);
  poly1305_x4_blocks(px, c + i + 64, 4 * (groups - 1));
  poly1305_x4_end(px, &ms->p);
  i += 64 * groups;
  mac_stream_update(ms, c + i, clen - i);
  store64_le_bytes(len8, (uint64_t) clen);
  mac_stream_update(ms, len8, 8);
  mac_stream_final(ms, tag);
}

/* Longer messages (mlen >= 192; the callers: above NAT_CHACHA20POLY1305_SMALL_MAX) stream through
 * the four-block kernels with nothing buffered but 256 bytes of keystream: blocks 0..3 first
 * (block 0 is the Poly1305 key, 1..3 cover bytes 0..191), then four blocks per 256 bytes, the
 * last < 256 bytes through ks again. IETF and X: Poly1305 takes c four blocks at a time up to the
 * last whole 64 bytes (encryption: as c is written, while it is still in the cache), the rest and
 * the lengths one block at a time. The original construction's c starts where ad and its length
 * end, rarely on a block boundary: its MAC is a second pass over c (mac_orig_rest). Kept out of line, so
 * the short-message path's code (and its stack frame) stays as it was. */
__attribute__((noinline)) static void seal_long(unsigned char *c, unsigned char mac[16],
                                                const unsigned char *m, size_t mlen,
                                                const unsigned char *ad, size_t adlen,
                                                const uint32_t st[16], int kind) {
  unsigned char ks[256], len8[8];
  v128_t s[16];
  mac_stream ms;
  poly1305_x4 px;
  size_t i;

  chacha20_x4_init(s, st);
  chacha20_x4_keystream(ks, s);
  poly1305_init(&ms.p, ks);
  ms.n = 0;
  if (kind == NAT_CP_IETF) {
    if (adlen > 0) poly1305_padded(&ms.p, ad, adlen);
    xor_keystream(c, m, ks + 64, 192);
    poly1305_x4_begin(&px, &ms.p, c);
    poly1305_x4_blocks(&px, c + 64, 8);
    for (i = 192; mlen - i >= 256; i += 256) {
      chacha20_x4_xor(c + i, m + i, s);
      poly1305_x4_blocks(&px, c + i, 16);
    }
    poly1305_x4_end(&px, &ms.p);
    if (i < mlen) {
      chacha20_x4_keystream(ks, s);
      xor_keystream(c + i, m + i, ks, mlen - i);
      poly1305_padded(&ms.p, c + i, mlen - i);
    }
    poly1305_block(&ms.p, (uint64_t) adlen, (uint64_t) mlen);
    poly1305_finish(&ms.p, mac);
  } else {
    /* ad and its length first (libsodium's order), then c, then its MAC */
    if (adlen > 0) mac_stream_update(&ms, ad, adlen);
    store64_le_bytes(len8, (uint64_t) adlen);
    mac_stream_update(&ms, len8, 8);
    xor_keystream(c, m, ks + 64, 192);
    for (i = 192; mlen - i >= 256; i += 256) chacha20_x4_xor(c + i, m + i, s);
    if (i < mlen) {
      chacha20_x4_keystream(ks, s);
      xor_keystream(c + i, m + i, ks, mlen - i);
    }
    mac_orig_rest(&ms, &px, c, mlen, mac);
  }
  sodium_memzero(ks, sizeof ks);
  sodium_memzero(s, sizeof s);
  sodium_memzero(&ms, sizeof ms);
  sodium_memzero(&px, sizeof px);
}

/* As libsodium: the whole tag is checked before anything is written to m. */
__attribute__((noinline)) static int open_long(unsigned char *m, const unsigned char *c,
                                               size_t clen, const unsigned char mac[16],
                                               const unsigned char *ad, size_t adlen,
                                               const uint32_t st[16], int kind) {
  unsigned char ks[256], computed[16];
  v128_t s[16];
  poly1305 p;
  poly1305_x4 px;
  const size_t groups = clen / 64;
  size_t i;
  int ret;

  chacha20_x4_init(s, st);
  chacha20_x4_keystream(ks, s);
  if (kind == NAT_CP_IETF) {
    poly1305_init(&p, ks);
    if (adlen > 0) poly1305_padded(&p, ad, adlen);
    poly1305_x4_begin(&px, &p, c);
    poly1305_x4_blocks(&px, c + 64, 4 * (groups - 1));
    poly1305_x4_end(&px, &p);
    poly1305_padded(&p, c + 64 * groups, clen - 64 * groups);
    poly1305_block(&p, (uint64_t) adlen, (uint64_t) clen);
    poly1305_finish(&p, computed);
  } else {
    mac_stream ms;
    unsigned char len8[8];
    poly1305_init(&ms.p, ks);
    ms.n = 0;
    if (adlen > 0) mac_stream_update(&ms, ad, adlen);
    store64_le_bytes(len8, (uint64_t) adlen);
    mac_stream_update(&ms, len8, 8);
    mac_orig_rest(&ms, &px, c, clen, computed);
    sodium_memzero(&ms, sizeof ms);
  }
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
  sodium_memzero(&p, sizeof p);
  sodium_memzero(&px, sizeof px);
  sodium_memzero(computed, sizeof computed);
  return ret;
}
#endif

static void aead_seal(unsigned char *c, unsigned char mac[16], const unsigned char *m,
                      size_t mlen, const unsigned char *ad, size_t adlen, uint32_t st[16],
                      int kind) {
  if (mlen > NAT_CHACHA20POLY1305_SMALL_MAX) {
#if defined(NAT_CHACHA_SIMD128)
    seal_long(c, mac, m, mlen, ad, adlen, st, kind);
#else
    seal_big(c, mac, m, mlen, ad, adlen, st, kind);
#endif
    return;
  }
  seal_small(c, mac, m, mlen, ad, adlen, st, kind);
}

static int aead_open(unsigned char *m, const unsigned char *c, size_t clen,
                     const unsigned char mac[16], const unsigned char *ad, size_t adlen,
                     uint32_t st[16], int kind) {
  if (clen > NAT_CHACHA20POLY1305_SMALL_MAX) {
#if defined(NAT_CHACHA_SIMD128)
    return open_long(m, c, clen, mac, ad, adlen, st, kind);
#else
    return open_big(m, c, clen, mac, ad, adlen, st, kind);
#endif
  }
  return open_small(m, c, clen, mac, ad, adlen, st, kind);
}

/* Whether our code takes a message: not beyond libsodium's MESSAGEBYTES_MAX (libsodium's own call
 * then stops the process, as libsodium does). */
static int ours(unsigned long long mlen, unsigned long long max) {
  return mlen <= max;
}

/* The state of each construction for its nonce and key, counter 0. */
static void state_ietf(uint32_t st[16], const unsigned char npub[12], const unsigned char k[32]) {
  nat_chacha20_init_ietf(st, k, npub);
}

static void state_orig(uint32_t st[16], const unsigned char npub[8], const unsigned char k[32]) {
  nat_chacha20_init_orig(st, k, npub);
}

static void state_x(uint32_t st[16], const unsigned char npub[24], const unsigned char k[32]) {
  uint32_t subkey[8];
  unsigned char n[12] = {0};
  memcpy(n + 4, npub + 16, 8);
  nat_chacha20_init_ietf(st, k, n);
  nat_hchacha20(subkey, npub, k);
  memcpy(st + 4, subkey, sizeof subkey);
  sodium_memzero(subkey, sizeof subkey);
}

/* The four functions of one construction, with libsodium's signatures, results and aliasing
 * rules (c == m in place; ad may be NULL when adlen is 0; nsec is unused): what ours() takes
 * here, the rest (and libsodium's m == NULL "verify only" decrypt) to libsodium. ad and m are
 * caller memory, so their lengths fit in a size_t. */
#define NAT_CP_DEFINE(name, kind, make_state)                                                    \
  int nat_##name##_encrypt_detached(unsigned char *c, unsigned char *mac,                        \
                                    unsigned long long *maclen_p, const unsigned char *m,        \
                                    unsigned long long mlen, const unsigned char *ad,            \
                                    unsigned long long adlen, const unsigned char *nsec,         \
                                    const unsigned char *npub, const unsigned char *k) {         \
    uint32_t st[16];                                                                             \
    if (!ours(mlen, crypto_##name##_MESSAGEBYTES_MAX)) {                                         \
      return crypto_##name##_encrypt_detached(c, mac, maclen_p, m, mlen, ad, adlen, nsec, npub, \
                                              k);                                                \
    }                                                                                            \
    make_state(st, npub, k);                                                                     \
    aead_seal(c, mac, m, (size_t) mlen, ad, (size_t) adlen, st, kind);                           \
    sodium_memzero(st, sizeof st);                                                               \
    if (maclen_p != NULL) *maclen_p = crypto_##name##_ABYTES;                                    \
    return 0;                                                                                    \
  }                                                                                              \
                                                                                                 \
  int nat_##name##_encrypt(unsigned char *c, unsigned long long *clen_p, const unsigned char *m, \
                           unsigned long long mlen, const unsigned char *ad,                     \
                           unsigned long long adlen, const unsigned char *nsec,                  \
                           const unsigned char *npub, const unsigned char *k) {                  \
    uint32_t st[16];                                                                             \
    if (!ours(mlen, crypto_##name##_MESSAGEBYTES_MAX)) {                                         \
      return crypto_##name##_encrypt(c, clen_p, m, mlen, ad, adlen, nsec, npub, k);              \
    }                                                                                            \
    make_state(st, npub, k);                                                                     \
    aead_seal(c, c + mlen, m, (size_t) mlen, ad, (size_t) adlen, st, kind);                      \
    sodium_memzero(st, sizeof st);                                                               \
    if (clen_p != NULL) *clen_p = mlen + crypto_##name##_ABYTES;                                 \
    return 0;                                                                                    \
  }                                                                                              \
                                                                                                 \
  int nat_##name##_decrypt_detached(unsigned char *m, unsigned char *nsec,                       \
                                    const unsigned char *c, unsigned long long clen,             \
                                    const unsigned char *mac, const unsigned char *ad,           \
                                    unsigned long long adlen, const unsigned char *npub,         \
                                    const unsigned char *k) {                                    \
    uint32_t st[16];                                                                             \
    if (!ours(clen, crypto_##name##_MESSAGEBYTES_MAX) || m == NULL) {                            \
      return crypto_##name##_decrypt_detached(m, nsec, c, clen, mac, ad, adlen, npub, k);        \
    }                                                                                            \
    make_state(st, npub, k);                                                                     \
    const int ret = aead_open(m, c, (size_t) clen, mac, ad, (size_t) adlen, st, kind);           \
    sodium_memzero(st, sizeof st);                                                               \
    return ret;                                                                                  \
  }                                                                                              \
                                                                                                 \
  int nat_##name##_decrypt(unsigned char *m, unsigned long long *mlen_p, unsigned char *nsec,    \
                           const unsigned char *c, unsigned long long clen,                      \
                           const unsigned char *ad, unsigned long long adlen,                    \
                           const unsigned char *npub, const unsigned char *k) {                  \
    const unsigned long long abytes = crypto_##name##_ABYTES;                                    \
    uint32_t st[16];                                                                             \
    if (clen < abytes || !ours(clen - abytes, crypto_##name##_MESSAGEBYTES_MAX) || m == NULL) {  \
      return crypto_##name##_decrypt(m, mlen_p, nsec, c, clen, ad, adlen, npub, k);              \
    }                                                                                            \
    make_state(st, npub, k);                                                                     \
    const int ret = aead_open(m, c, (size_t) (clen - abytes), c + clen - abytes, ad,             \
                              (size_t) adlen, st, kind);                                         \
    sodium_memzero(st, sizeof st);                                                               \
    if (mlen_p != NULL) *mlen_p = ret == 0 ? clen - abytes : 0;                                  \
    return ret;                                                                                  \
  }

NAT_CP_DEFINE(aead_chacha20poly1305_ietf, NAT_CP_IETF, state_ietf)
NAT_CP_DEFINE(aead_chacha20poly1305, NAT_CP_ORIG, state_orig)
NAT_CP_DEFINE(aead_xchacha20poly1305_ietf, NAT_CP_IETF, state_x)
