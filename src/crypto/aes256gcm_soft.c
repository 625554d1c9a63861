/* AES-256-GCM in portable, constant-time C: the wasm backend's only AES-256-GCM, and the native
 * one where the CPU has neither AES-NI + PCLMUL + AVX (x86-64) nor the ARMv8 crypto extension,
 * the CPUs on which libsodium has none (aes256gcm_dispatch.c chooses).
 *
 * Nothing here branches on, or indexes memory by, a key, a message byte or a tag: no S-box table.
 *
 * AES is bitsliced, four blocks at a time, in eight 64-bit words (the layout of BearSSL's
 * aes_ct64; the code is our own). Word q[i] holds bit i of all 64 state bytes; the byte in row r,
 * column c of block b sits at bit 16 r + 4 c + b, so a row is a 16-bit lane: ShiftRows rotates
 * lane r by 4 r bits, MixColumns rotates the whole word by 16 and 32 bits, and SubBytes is Boyar
 * and Peralta's 113-gate circuit for the S-box ("A depth-16 circuit for the AES S-box", 2011) run
 * on the eight words. wasm32 has 64-bit integers, so the same code serves both backends.
 *
 * GHASH multiplies in GF(2^128) with carry-less products made of integer multiplications whose
 * operands have holes (bits 4 apart), so that carries land in bits that are masked away
 * (BearSSL's ghash_ctmul64 idea, our own code): 64x64 -> 64 low bits per product, the high half
 * from the same product of the bit-reversed operands, Karatsuba for 128 bits, and the reduction
 * of Intel's carry-less multiplication white paper (Gueron and Kounavis) for the reflected bit
 * order GCM uses.
 *
 * The functions are libsodium's crypto_aead_aes256gcm_* with its signatures, answers and outputs
 * on refusal (a bad tag fills m with 0xd0, as libsodium's AES-NI code does); the state is our own
 * layout inside libsodium's 512-byte crypto_aead_aes256gcm_state. */
#include <string.h>

#include "aes256gcm.h"

#define ABYTES crypto_aead_aes256gcm_ABYTES
#define NPUBBYTES crypto_aead_aes256gcm_NPUBBYTES

/* The precomputed key: each of the 15 round keys as 8 planes of 16 bits (bit 4 r + c of plane i is
 * bit i of row r, column c; widened to four blocks per call), and H as two big-endian halves. */
typedef struct {
  uint16_t rk[15][8];
  uint64_t h1, h0;
} soft_state;

_Static_assert(sizeof(soft_state) <= sizeof(crypto_aead_aes256gcm_state),
               "our state must fit libsodium's");

static uint64_t load64_be(const unsigned char *p) {
  return (uint64_t) p[0] << 56 | (uint64_t) p[1] << 48 | (uint64_t) p[2] << 40 |
         (uint64_t) p[3] << 32 | (uint64_t) p[4] << 24 | (uint64_t) p[5] << 16 |
         (uint64_t) p[6] << 8 | (uint64_t) p[7];
}

static void store64_be(unsigned char *p, uint64_t x) {
  for (int i = 7; i >= 0; i--) {
    p[i] = (unsigned char) x;
    x >>= 8;
  }
}

/* ---- bitsliced AES, four blocks ---- */

#define SWAPMOVE(a, b, mask, n)                     \
  do {                                              \
    const uint64_t t_ = (((a) >> (n)) ^ (b)) & (mask); \
    (b) ^= t_;                                      \
    (a) ^= t_ << (n);                               \
  } while (0)

/* An 8x8 bit transpose in each byte lane of the eight words: bit i of byte r of word k trades
 * places with bit k of byte r of word i. Its own inverse. */
static void transpose(uint64_t q[8]) {
  SWAPMOVE(q[0], q[1], 0x5555555555555555ULL, 1);
  SWAPMOVE(q[2], q[3], 0x5555555555555555ULL, 1);
  SWAPMOVE(q[4], q[5], 0x5555555555555555ULL, 1);
  SWAPMOVE(q[6], q[7], 0x5555555555555555ULL, 1);
  SWAPMOVE(q[0], q[2], 0x3333333333333333ULL, 2);
  SWAPMOVE(q[1], q[3], 0x3333333333333333ULL, 2);
  SWAPMOVE(q[4], q[6], 0x3333333333333333ULL, 2);
  SWAPMOVE(q[5], q[7], 0x3333333333333333ULL, 2);
  SWAPMOVE(q[0], q[4], 0x0f0f0f0f0f0f0f0fULL, 4);
  SWAPMOVE(q[1], q[5], 0x0f0f0f0f0f0f0f0fULL, 4);
  SWAPMOVE(q[2], q[6], 0x0f0f0f0f0f0f0f0fULL, 4);
  SWAPMOVE(q[3], q[7], 0x0f0f0f0f0f0f0f0fULL, 4);
}

/* Byte j (row j % 4, column j / 4) of block b goes to bit position p = 16 (j % 4) + 4 (j / 4) + b,
 * which the transpose takes from byte p / 8 of word p % 8. */
static void pack(uint64_t q[8], const unsigned char in[64]) {
  for (int k = 0; k < 8; k++) q[k] = 0;
  for (int b = 0; b < 4; b++) {
    for (int j = 0; j < 16; j++) {
      const int p = 16 * (j & 3) + 4 * (j >> 2) + b;
      q[p & 7] |= (uint64_t) in[16 * b + j] << (8 * (p >> 3));
    }
  }
  transpose(q);
}

static void unpack(unsigned char out[64], uint64_t q[8]) {
  transpose(q);
  for (int b = 0; b < 4; b++) {
    for (int j = 0; j < 16; j++) {
      const int p = 16 * (j & 3) + 4 * (j >> 2) + b;
      out[16 * b + j] = (unsigned char) (q[p & 7] >> (8 * (p >> 3)));
    }
  }
}

/* SubBytes on every byte: Boyar-Peralta's circuit, input bit 7 first (u0 = q[7]). */
static void sub_bytes(uint64_t q[8]) {
  const uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4], u4 = q[3], u5 = q[2], u6 = q[1],
                 u7 = q[0];
  /* top linear layer */
  const uint64_t t1 = u0 ^ u3, t2 = u0 ^ u5, t3 = u0 ^ u6, t4 = u3 ^ u5, t5 = u4 ^ u6;
  const uint64_t t6 = t1 ^ t5, t7 = u1 ^ u2, t8 = u7 ^ t6, t9 = u7 ^ t7, t10 = t6 ^ t7;
  const uint64_t t11 = u1 ^ u5, t12 = u2 ^ u5, t13 = t3 ^ t4, t14 = t6 ^ t11, t15 = t5 ^ t11;
  const uint64_t t16 = t5 ^ t12, t17 = t9 ^ t16, t18 = u3 ^ u7, t19 = t7 ^ t18, t20 = t1 ^ t19;
  const uint64_t t21 = u6 ^ u7, t22 = t7 ^ t21, t23 = t2 ^ t22, t24 = t2 ^ t10, t25 = t20 ^ t17;
  const uint64_t t26 = t3 ^ t16, t27 = t1 ^ t12;
  /* middle, non-linear layer: the inversion in GF(2^8) */
  const uint64_t m1 = t13 & t6, m2 = t23 & t8, m3 = t14 ^ m1, m4 = t19 & u7, m5 = m4 ^ m1;
  const uint64_t m6 = t3 & t16, m7 = t22 & t9, m8 = t26 ^ m6, m9 = t20 & t17, m10 = m9 ^ m6;
  const uint64_t m11 = t1 & t15, m12 = t4 & t27, m13 = m12 ^ m11, m14 = t2 & t10;
  const uint64_t m15 = m14 ^ m11, m16 = m3 ^ m2, m17 = m5 ^ t24, m18 = m8 ^ m7, m19 = m10 ^ m15;
  const uint64_t m20 = m16 ^ m13, m21 = m17 ^ m15, m22 = m18 ^ m13, m23 = m19 ^ t25;
  const uint64_t m24 = m22 ^ m23, m25 = m22 & m20, m26 = m21 ^ m25, m27 = m20 ^ m21;
  const uint64_t m28 = m23 ^ m25, m29 = m28 & m27, m30 = m26 & m24, m31 = m20 & m23;
  const uint64_t m32 = m27 & m31, m33 = m27 ^ m25, m34 = m21 & m22, m35 = m24 & m34;
  const uint64_t m36 = m24 ^ m25, m37 = m21 ^ m29, m38 = m32 ^ m33, m39 = m23 ^ m30;
  const uint64_t m40 = m35 ^ m36, m41 = m38 ^ m40, m42 = m37 ^ m39, m43 = m37 ^ m38;
  const uint64_t m44 = m39 ^ m40, m45 = m42 ^ m41, m46 = m44 & t6, m47 = m40 & t8;
  const uint64_t m48 = m39 & u7, m49 = m43 & t16, m50 = m38 & t9, m51 = m37 & t17;
  const uint64_t m52 = m42 & t15, m53 = m45 & t27, m54 = m41 & t10, m55 = m44 & t13;
  const uint64_t m56 = m40 & t23, m57 = m39 & t19, m58 = m43 & t3, m59 = m38 & t22;
  const uint64_t m60 = m37 & t20, m61 = m42 & t1, m62 = m45 & t4, m63 = m41 & t2;
  /* bottom linear layer, with the affine constant 0x63 as the four complements */
  const uint64_t l0 = m61 ^ m62, l1 = m50 ^ m56, l2 = m46 ^ m48, l3 = m47 ^ m55, l4 = m54 ^ m58;
  const uint64_t l5 = m49 ^ m61, l6 = m62 ^ l5, l7 = m46 ^ l3, l8 = m51 ^ m59, l9 = m52 ^ m53;
  const uint64_t l10 = m53 ^ l4, l11 = m60 ^ l2, l12 = m48 ^ m51, l13 = m50 ^ l0;
  const uint64_t l14 = m52 ^ m61, l15 = m55 ^ l1, l16 = m56 ^ l0, l17 = m57 ^ l1;
  const uint64_t l18 = m58 ^ l8, l19 = m63 ^ l4, l20 = l0 ^ l1, l21 = l1 ^ l7, l22 = l3 ^ l12;
  const uint64_t l23 = l18 ^ l2, l24 = l15 ^ l9, l25 = l6 ^ l10, l26 = l7 ^ l9, l27 = l8 ^ l10;
  const uint64_t l28 = l11 ^ l14, l29 = l11 ^ l17;
  q[7] = l6 ^ l24;
  q[6] = ~(l16 ^ l26);
  q[5] = ~(l19 ^ l28);
  q[4] = l6 ^ l21;
  q[3] = l20 ^ l22;
  q[2] = l25 ^ l29;
  q[1] = ~(l13 ^ l27);
  q[0] = ~(l6 ^ l23);
}

/* Row r (bits 16 r .. 16 r + 15) turns left by r columns: column c takes column c + r. */
static uint64_t shift_row_lanes(uint64_t x) {
  return (x & 0x000000000000ffffULL) | (x & 0x00000000fff00000ULL) >> 4 |
         (x & 0x00000000000f0000ULL) << 12 | (x & 0x0000ff0000000000ULL) >> 8 |
         (x & 0x000000ff00000000ULL) << 8 | (x & 0xf000000000000000ULL) >> 12 |
         (x & 0x0fff000000000000ULL) << 4;
}

static uint64_t rotr64(uint64_t x, int n) {
  return x >> n | x << (64 - n);
}

/* out[r] = 2 (a[r] ^ a[r+1]) ^ a[r+1] ^ a[r+2] ^ a[r+3] for each column; rotating a word right by
 * 16 bits brings row r + 1 to row r. 2 x is the xtime of each byte: x^8 = x^4 + x^3 + x + 1. */
static void shift_rows_mix_columns(uint64_t q[8]) {
  uint64_t t[8], s[8];
  for (int i = 0; i < 8; i++) {
    const uint64_t x = shift_row_lanes(q[i]);
    const uint64_t r1 = rotr64(x, 16);
    t[i] = x ^ r1;
    s[i] = r1 ^ rotr64(t[i], 32);
  }
  q[0] = t[7] ^ s[0];
  q[1] = t[0] ^ t[7] ^ s[1];
  q[2] = t[1] ^ s[2];
  q[3] = t[2] ^ t[7] ^ s[3];
  q[4] = t[3] ^ t[7] ^ s[4];
  q[5] = t[4] ^ s[5];
  q[6] = t[5] ^ s[6];
  q[7] = t[6] ^ s[7];
}

/* Bit n of a 16-bit plane to bits 4 n .. 4 n + 3: the same round key bit in all four blocks. */
static uint64_t widen(uint16_t v) {
  uint64_t x = v;
  x = (x | x << 24) & 0x000000ff000000ffULL;
  x = (x | x << 12) & 0x000f000f000f000fULL;
  x = (x | x << 6) & 0x0303030303030303ULL;
  x = (x | x << 3) & 0x1111111111111111ULL;
  return x * 15;
}

typedef uint64_t round_keys[15][8];

static void widen_keys(round_keys sk, const soft_state *st) {
  for (int r = 0; r < 15; r++) {
    for (int i = 0; i < 8; i++) sk[r][i] = widen(st->rk[r][i]);
  }
}

static void encrypt4(uint64_t q[8], const round_keys sk) {
  for (int i = 0; i < 8; i++) q[i] ^= sk[0][i];
  for (int r = 1; r < 14; r++) {
    sub_bytes(q);
    shift_rows_mix_columns(q);
    for (int i = 0; i < 8; i++) q[i] ^= sk[r][i];
  }
  sub_bytes(q);
  for (int i = 0; i < 8; i++) q[i] = shift_row_lanes(q[i]) ^ sk[14][i];
}

/* Four counter blocks npub || ctr, ctr + 1, ctr + 2, ctr + 3 (32-bit big-endian), encrypted; with
 * h_first, block 0 is the zero block instead (its encryption is GHASH's key H). */
static void ctr4(unsigned char out[64], const round_keys sk, const unsigned char npub[12],
                 uint32_t ctr, int h_first) {
  uint64_t q[8];
  for (int b = 0; b < 4; b++) {
    const uint32_t n = ctr + (uint32_t) b;
    memcpy(out + 16 * b, npub, 12);
    out[16 * b + 12] = (unsigned char) (n >> 24);
    out[16 * b + 13] = (unsigned char) (n >> 16);
    out[16 * b + 14] = (unsigned char) (n >> 8);
    out[16 * b + 15] = (unsigned char) n;
  }
  if (h_first) memset(out, 0, 16);
  pack(q, out);
  encrypt4(q, sk);
  unpack(out, q);
  sodium_memzero(q, sizeof q);
}

/* SubWord of a key schedule word (byte n of w is b[n]): bit i of every byte in plane i, at bits
 * 0, 8, 16, 24. */
static void sub_word(unsigned char b[4]) {
  const uint64_t w = (uint64_t) b[0] | (uint64_t) b[1] << 8 | (uint64_t) b[2] << 16 |
                     (uint64_t) b[3] << 24;
  uint64_t q[8], out = 0;
  for (int i = 0; i < 8; i++) q[i] = w >> i & 0x01010101;
  sub_bytes(q);
  for (int i = 0; i < 8; i++) out |= (q[i] & 0x01010101) << i;
  for (int n = 0; n < 4; n++) b[n] = (unsigned char) (out >> 8 * n);
  sodium_memzero(q, sizeof q);
}

/* The inverse of widen(): bits 4 n + b (block b's copy) back to bits n. */
static uint16_t narrow(uint64_t x, int b) {
  x = x >> b & 0x1111111111111111ULL;
  x = (x | x >> 3) & 0x0303030303030303ULL;
  x = (x | x >> 6) & 0x000f000f000f000fULL;
  x = (x | x >> 12) & 0x000000ff000000ffULL;
  return (uint16_t) (x | x >> 24);
}

/* FIPS 197 section 5.2 for Nk = 8: 60 words, each round key 4 of them. */
static void key_schedule(soft_state *st, const unsigned char k[32]) {
  unsigned char w[60][4];
  unsigned char rcon = 1;
  memcpy(w, k, 32);
  for (int i = 8; i < 60; i++) {
    unsigned char t[4];
    memcpy(t, w[i - 1], 4);
    if (i % 8 == 0) {
      const unsigned char t0 = t[0];
      t[0] = t[1];
      t[1] = t[2];
      t[2] = t[3];
      t[3] = t0;
      sub_word(t);
      t[0] ^= rcon;
      rcon = (unsigned char) (rcon << 1);
    } else if (i % 8 == 4) {
      sub_word(t);
    }
    for (int n = 0; n < 4; n++) w[i][n] = (unsigned char) (w[i - 8][n] ^ t[n]);
    sodium_memzero(t, sizeof t);
  }
  /* the round keys, four at a time as the four blocks of a bitsliced state */
  for (int r = 0; r < 15; r += 4) {
    unsigned char four[64] = {0};
    uint64_t q[8];
    memcpy(four, w[4 * r], r + 4 <= 15 ? 64 : 16 * (15 - r));
    pack(q, four);
    for (int b = 0; b < 4 && r + b < 15; b++) {
      for (int i = 0; i < 8; i++) st->rk[r + b][i] = narrow(q[i], b);
    }
    sodium_memzero(four, sizeof four);
    sodium_memzero(q, sizeof q);
  }
  sodium_memzero(w, sizeof w);
}

/* ---- GHASH ---- */

/* The low 64 bits of the carry-less product of x and y. Each part has a bit every 4th place, so
 * a column of an integer product sums at most 16 bits: up to the 15th column the count fits in
 * the column's 4 bits and never carries into the next wanted bit, and the 16th column (bit 60 and
 * up) carries only past bit 63. */
static uint64_t clmul_lo(uint64_t x, uint64_t y) {
  const uint64_t m0 = 0x1111111111111111ULL, m1 = 0x2222222222222222ULL,
                 m2 = 0x4444444444444444ULL, m3 = 0x8888888888888888ULL;
  const uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
  const uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
  uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
  uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
  uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
  uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
  return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

static uint64_t rev64(uint64_t x) {
#if defined(__clang__)
  return __builtin_bitreverse64(x);
#else
  x = (x & 0x5555555555555555ULL) << 1 | (x >> 1 & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) << 2 | (x >> 2 & 0x3333333333333333ULL);
  x = (x & 0x0f0f0f0f0f0f0f0fULL) << 4 | (x >> 4 & 0x0f0f0f0f0f0f0f0fULL);
  x = (x & 0x00ff00ff00ff00ffULL) << 8 | (x >> 8 & 0x00ff00ff00ff00ffULL);
  x = (x & 0x0000ffff0000ffffULL) << 16 | (x >> 16 & 0x0000ffff0000ffffULL);
  return x << 32 | x >> 32;
#endif
}

typedef struct {
  uint64_t h1, h0, h2;    /* H's big-endian halves, h2 = h1 ^ h0 (Karatsuba) */
  uint64_t r1, r0, r2;    /* the same bit-reversed */
  uint64_t y1, y0;        /* the running hash */
} ghash;

static void ghash_init(ghash *g, const soft_state *st) {
  g->h1 = st->h1;
  g->h0 = st->h0;
  g->h2 = g->h1 ^ g->h0;
  g->r1 = rev64(g->h1);
  g->r0 = rev64(g->h0);
  g->r2 = rev64(g->h2);
  g->y1 = g->y0 = 0;
}

/* Y = (Y ^ X) H for each 16-byte block X. The 128-bit values hold the block's bytes big-endian,
 * so bit 127 - i is the coefficient of x^i; their carry-less product shifted left by one is the
 * 256-bit product in the same order, and x^128 = x^7 + x^2 + x + 1 folds its low half (the high
 * powers) into its high half. */
static void ghash_blocks(ghash *g, const unsigned char *in, size_t blocks) {
  uint64_t y1 = g->y1, y0 = g->y0;
  for (size_t n = 0; n < blocks; n++, in += 16) {
    y1 ^= load64_be(in);
    y0 ^= load64_be(in + 8);
    const uint64_t y2 = y1 ^ y0;
    const uint64_t lo0 = clmul_lo(y0, g->h0), lo1 = clmul_lo(y1, g->h1),
                   lo2 = clmul_lo(y2, g->h2);
    const uint64_t hi0 = rev64(clmul_lo(rev64(y0), g->r0)) >> 1;
    const uint64_t hi1 = rev64(clmul_lo(rev64(y1), g->r1)) >> 1;
    const uint64_t hi2 = rev64(clmul_lo(rev64(y2), g->r2)) >> 1;
    const uint64_t mid_lo = lo2 ^ lo0 ^ lo1, mid_hi = hi2 ^ hi0 ^ hi1;
    /* the 255-bit product v3:v2:v1:v0, then shifted left by one */
    uint64_t v0 = lo0, v1 = hi0 ^ mid_lo, v2 = lo1 ^ mid_hi, v3 = hi1;
    v3 = v3 << 1 | v2 >> 63;
    v2 = v2 << 1 | v1 >> 63;
    v1 = v1 << 1 | v0 >> 63;
    v0 <<= 1;
    /* reduce: the bits of v1:v0 that x, x^2 and x^7 push past x^127 come back first */
    const uint64_t d = v1 ^ v0 << 63 ^ v0 << 62 ^ v0 << 57;
    y1 = v3 ^ d ^ d >> 1 ^ d >> 2 ^ d >> 7;
    y0 = v2 ^ v0 ^ (v0 >> 1 | d << 63) ^ (v0 >> 2 | d << 62) ^ (v0 >> 7 | d << 57);
  }
  g->y1 = y1;
  g->y0 = y0;
}

/* The bytes of in, zero-padded to whole blocks. */
static void ghash_padded(ghash *g, const unsigned char *in, size_t len) {
  ghash_blocks(g, in, len / 16);
  if (len % 16 != 0) {
    unsigned char pad[16] = {0};
    memcpy(pad, in + len - len % 16, len % 16);
    ghash_blocks(g, pad, 1);
    sodium_memzero(pad, sizeof pad);
  }
}

/* The tag, GHASH(ad, c, lengths) ^ E(K, npub || 1), in two steps: ad first, before anything is
 * written (ad may lie inside c, and libsodium hashes it first too), then c and the lengths. */
static void gcm_tag_ad(ghash *g, const soft_state *st, const unsigned char *ad, size_t ad_len) {
  ghash_init(g, st);
  ghash_padded(g, ad, ad_len);
}

static void gcm_tag_final(unsigned char tag[16], ghash *g, size_t ad_len, const unsigned char *c,
                          size_t c_len, const unsigned char ekj0[16]) {
  unsigned char lens[16];
  ghash_padded(g, c, c_len);
  store64_be(lens, (uint64_t) ad_len * 8);
  store64_be(lens + 8, (uint64_t) c_len * 8);
  ghash_blocks(g, lens, 1);
  store64_be(tag, g->y1);
  store64_be(tag + 8, g->y0);
  for (int i = 0; i < 16; i++) tag[i] ^= ekj0[i];
  sodium_memzero(g, sizeof *g);
}

/* libsodium's limit (required_blocks() in its AES-NI code): fewer than 2^32 - 2 message blocks. */
static int too_long(unsigned long long len) {
  return (len + 15) / 16 >= (1ULL << 32) - 2;
}

/* A message's first batch of four blocks. With a precomputed key: E(K, npub || 1..4), the tag mask
 * E(K, J0) then three keystream blocks. In a one-shot call, which makes the key schedule itself:
 * E(K, 0) = H, the tag mask, two keystream blocks, so that H costs no batch of its own. used: the
 * bytes of ks taken (the tag mask ends there); next: the counter of the next batch. */
typedef struct {
  unsigned char ks[64];
  size_t used;
  uint32_t next;
} first_batch;

static void first_afternm(first_batch *f, const round_keys sk, const unsigned char npub[12]) {
  ctr4(f->ks, sk, npub, 1, 0);
  f->used = 16;
  f->next = 5;
}

/* The key schedule of k into st and sk, and the first batch, H included. */
static void first_one_shot(first_batch *f, soft_state *st, round_keys sk, const unsigned char *k,
                           const unsigned char npub[12]) {
  key_schedule(st, k);
  widen_keys(sk, st);
  ctr4(f->ks, sk, npub, 0, 1);
  st->h1 = load64_be(f->ks);
  st->h0 = load64_be(f->ks + 8);
  f->used = 32;
  f->next = 4;
}

/* out = in ^ the keystream from counter 2 on. */
static void gcm_ctr(unsigned char *out, const unsigned char *in, size_t len,
                    const first_batch *f, const round_keys sk, const unsigned char npub[12]) {
  unsigned char ks[64];
  size_t used = f->used;
  uint32_t ctr = f->next;
  memcpy(ks, f->ks, 64);
  for (size_t off = 0; off < len;) {
    if (used == 64) {
      ctr4(ks, sk, npub, ctr, 0);
      ctr += 4;
      used = 0;
    }
    const size_t n = len - off < 64 - used ? len - off : 64 - used;
    for (size_t i = 0; i < n; i++) out[off + i] = in[off + i] ^ ks[used + i];
    off += n;
    used += n;
  }
  sodium_memzero(ks, sizeof ks);
}

/* What libsodium leaves when it refuses a message that is too long. Not inlined: gcc 12 at -O3
 * would otherwise warn about these sizes at call sites that can never reach here. */
__attribute__((noinline)) static int refuse_encrypt(unsigned char *c, unsigned char *mac,
                                                    size_t mlen) {
  memset(mac, 0xd0, ABYTES);
  memset(c, 0, mlen);
  return -1;
}

static void seal(unsigned char *c, unsigned char *mac, const unsigned char *m, size_t mlen,
                 const unsigned char *ad, size_t adlen, const unsigned char *npub,
                 const soft_state *st, const round_keys sk, const first_batch *f) {
  ghash g;
  gcm_tag_ad(&g, st, ad, adlen);
  gcm_ctr(c, m, mlen, f, sk, npub);
  gcm_tag_final(mac, &g, adlen, c, mlen, f->ks + f->used - 16);
}

/* The tag first: no plaintext is made from a forgery. A bad tag fills m with 0xd0, as libsodium
 * does; m NULL only checks the tag. */
static int open(unsigned char *m, const unsigned char *c, size_t clen, const unsigned char *mac,
                const unsigned char *ad, size_t adlen, const unsigned char *npub,
                const soft_state *st, const round_keys sk, const first_batch *f) {
  unsigned char computed[16];
  ghash g;
  gcm_tag_ad(&g, st, ad, adlen);
  gcm_tag_final(computed, &g, adlen, c, clen, f->ks + f->used - 16);
  const int ret = crypto_verify_16(mac, computed);
  sodium_memzero(computed, sizeof computed);
  if (ret != 0) {
    if (m != NULL) memset(m, 0xd0, clen);
  } else if (m != NULL) {
    gcm_ctr(m, c, clen, f, sk, npub);
  }
  return ret;
}

int nat_aes256gcm_soft_beforenm(crypto_aead_aes256gcm_state *st_, const unsigned char *k) {
  static const unsigned char no_nonce[12];
  soft_state *st = (soft_state *) (void *) st_;
  round_keys sk;
  first_batch f;

  memset(st_, 0, sizeof *st_);
  first_one_shot(&f, st, sk, k, no_nonce);
  sodium_memzero(sk, sizeof sk);
  sodium_memzero(&f, sizeof f);
  return 0;
}

int nat_aes256gcm_soft_encrypt_detached_afternm(unsigned char *c, unsigned char *mac,
                                                unsigned long long *maclen_p,
                                                const unsigned char *m, unsigned long long mlen,
                                                const unsigned char *ad, unsigned long long adlen,
                                                const unsigned char *nsec,
                                                const unsigned char *npub,
                                                const crypto_aead_aes256gcm_state *st_) {
  const soft_state *st = (const soft_state *) (const void *) st_;
  round_keys sk;
  first_batch f;
  unsigned char n[NPUBBYTES];

  (void) nsec;
  if (maclen_p != NULL) *maclen_p = 0;
  if (adlen > SODIUM_SIZE_MAX || mlen > SODIUM_SIZE_MAX) sodium_misuse();
  if (too_long(mlen)) return refuse_encrypt(c, mac, (size_t) mlen);
  widen_keys(sk, st);
  memcpy(n, npub, sizeof n); /* npub may lie inside the output */
  first_afternm(&f, sk, n);
  seal(c, mac, m, (size_t) mlen, ad, (size_t) adlen, n, st, sk, &f);
  sodium_memzero(sk, sizeof sk);
  sodium_memzero(&f, sizeof f);
  sodium_memzero(n, sizeof n);
  if (maclen_p != NULL) *maclen_p = ABYTES;
  return 0;
}

int nat_aes256gcm_soft_decrypt_detached_afternm(unsigned char *m, unsigned char *nsec,
                                                const unsigned char *c, unsigned long long clen,
                                                const unsigned char *mac, const unsigned char *ad,
                                                unsigned long long adlen,
                                                const unsigned char *npub,
                                                const crypto_aead_aes256gcm_state *st_) {
  const soft_state *st = (const soft_state *) (const void *) st_;
  round_keys sk;
  first_batch f;
  unsigned char n[NPUBBYTES];

  (void) nsec;
  if (adlen > SODIUM_SIZE_MAX || clen > SODIUM_SIZE_MAX) sodium_misuse();
  if (too_long(clen)) return -1;
  widen_keys(sk, st);
  memcpy(n, npub, sizeof n); /* npub may lie inside the output */
  first_afternm(&f, sk, n);
  const int ret = open(m, c, (size_t) clen, mac, ad, (size_t) adlen, n, st, sk, &f);
  sodium_memzero(sk, sizeof sk);
  sodium_memzero(&f, sizeof f);
  sodium_memzero(n, sizeof n);
  return ret;
}

/* One-shot: libsodium's crypto_aead_aes256gcm_{en,de}crypt_detached, which run beforenm then the
 * afternm function; the same answers for one batch of AES fewer. */
int nat_aes256gcm_soft_encrypt_detached(unsigned char *c, unsigned char *mac,
                                        unsigned long long *maclen_p, const unsigned char *m,
                                        unsigned long long mlen, const unsigned char *ad,
                                        unsigned long long adlen, const unsigned char *nsec,
                                        const unsigned char *npub, const unsigned char *k) {
  soft_state st;
  round_keys sk;
  first_batch f;
  unsigned char n[NPUBBYTES];

  (void) nsec;
  if (maclen_p != NULL) *maclen_p = 0;
  if (adlen > SODIUM_SIZE_MAX || mlen > SODIUM_SIZE_MAX) sodium_misuse();
  if (too_long(mlen)) return refuse_encrypt(c, mac, (size_t) mlen);
  memcpy(n, npub, sizeof n); /* npub may lie inside the output */
  first_one_shot(&f, &st, sk, k, n);
  seal(c, mac, m, (size_t) mlen, ad, (size_t) adlen, n, &st, sk, &f);
  sodium_memzero(&st, sizeof st);
  sodium_memzero(sk, sizeof sk);
  sodium_memzero(&f, sizeof f);
  sodium_memzero(n, sizeof n);
  if (maclen_p != NULL) *maclen_p = ABYTES;
  return 0;
}

int nat_aes256gcm_soft_decrypt_detached(unsigned char *m, unsigned char *nsec,
                                        const unsigned char *c, unsigned long long clen,
                                        const unsigned char *mac, const unsigned char *ad,
                                        unsigned long long adlen, const unsigned char *npub,
                                        const unsigned char *k) {
  soft_state st;
  round_keys sk;
  first_batch f;
  unsigned char n[NPUBBYTES];

  (void) nsec;
  if (adlen > SODIUM_SIZE_MAX || clen > SODIUM_SIZE_MAX) sodium_misuse();
  if (too_long(clen)) return -1;
  memcpy(n, npub, sizeof n); /* npub may lie inside the output */
  first_one_shot(&f, &st, sk, k, n);
  const int ret = open(m, c, (size_t) clen, mac, ad, (size_t) adlen, n, &st, sk, &f);
  sodium_memzero(&st, sizeof st);
  sodium_memzero(sk, sizeof sk);
  sodium_memzero(&f, sizeof f);
  sodium_memzero(n, sizeof n);
  return ret;
}
