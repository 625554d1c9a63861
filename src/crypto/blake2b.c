/* BLAKE2b (RFC 7693) on libsodium's state layout: see blake2b.h.
 *
 * In this order: the compression function (SIMD128 on wasm32, else portable C), then
 * init, update and final, which leave the state as libsodium 1.0.22's blake2b-ref.c does, and
 * the one-shot functions, which hash whole blocks straight from the input. */
#include <stdint.h>
#include <string.h>

#include "blake2b.h"

#if defined(__wasm_simd128__) && !defined(NAT_BLAKE2B_PORTABLE)
#define NAT_BLAKE2B_SIMD128 1
#include <wasm_simd128.h>
#endif

#define BLOCK 128

typedef struct {
  uint64_t h[8];
  uint64_t t[2];
  uint64_t f[2];
  uint8_t buf[2 * BLOCK];
  size_t buflen;
  uint8_t last_node;
} blake2b_state;

/* libsodium's struct is packed; ours has no padding before last_node, so the offsets agree. */
_Static_assert(offsetof(blake2b_state, buf) == 96, "blake2b_state.buf");
_Static_assert(offsetof(blake2b_state, buflen) == 352, "blake2b_state.buflen");
_Static_assert(offsetof(blake2b_state, last_node) == 352 + sizeof(size_t), "last_node");
_Static_assert(sizeof(blake2b_state) <= sizeof(crypto_generichash_blake2b_state), "state size");

/* RFC 7693 section 2.6 (SHA-512's initial hash values) and 2.7 (the message schedule). */
#define IV0 0x6a09e667f3bcc908ULL
#define IV1 0xbb67ae8584caa73bULL
#define IV2 0x3c6ef372fe94f82bULL
#define IV3 0xa54ff53a5f1d36f1ULL
#define IV4 0x510e527fade682d1ULL
#define IV5 0x9b05688c2b3e6c1fULL
#define IV6 0x1f83d9abfb41bd6bULL
#define IV7 0x5be0cd19137e2179ULL

static const uint64_t IV[8] = {IV0, IV1, IV2, IV3, IV4, IV5, IV6, IV7};

/* The twelve rounds, each a literal list of sigma[r] (rounds 10 and 11 repeat 0 and 1), so every
 * message index is a constant. */
#define ROUNDS(R)                                                  \
  R(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)          \
  R(14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3)          \
  R(11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4)          \
  R(7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8)          \
  R(9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13)          \
  R(2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9)          \
  R(12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11)          \
  R(13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10)          \
  R(6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5)          \
  R(10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0)          \
  R(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)          \
  R(14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3)

static inline uint64_t load64_le(const unsigned char *p) {
  uint64_t x = 0;
  for (int i = 7; i >= 0; i--) x = x << 8 | p[i];
  return x;
}

static inline void store64_le(unsigned char *p, uint64_t x) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char) (x >> (8 * i));
}

#ifdef NAT_BLAKE2B_SIMD128
/* The 4x4 state as rows a, b, c, d of two v128 each (two 64-bit lanes): one G step runs the
 * four columns, then, with rows a, c, d turned against b, the four diagonals.
 *
 * One message block is a chain of dependent steps, so what counts is the latency along it, as
 * V8 compiles it (x64, Node 20, 1 MB, MB/s median/best of rounds in one process, this machine;
 * libsodium's portable code in libsodium-wrappers-sumo: best rounds ~710):
 * - rotations by 24 and 16 as i8x16.shuffle: 670/700. V8 rebuilds a shuffle's byte mask from
 *   immediates at every use and turns the 16-bit one into pshuflw + pshufhw, two steps deep;
 * - as i8x16.swizzle by a constant mask (lanes < 16, so V8 drops its range fix-up): one pshufb,
 *   the mask kept in a register: 780/830;
 * - rows a and c turned for the diagonals instead of b and d: b is the last row each step
 *   computes, so its shuffle was on the chain; a's and c's fit in the slack: 850-900/950.
 * The rotation by 63 stays a shift pair and an or. Unrolled portable C compiled to wasm: 450-600/630
 * (V8 spills its 16 state and 16 message words from x64's 15 general registers). */
#define ROT32(x) wasm_i32x4_shuffle(x, x, 1, 0, 3, 2)
#define ROT24(x) \
  wasm_i8x16_swizzle(x, wasm_i8x16_const(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10))
#define ROT16(x) \
  wasm_i8x16_swizzle(x, wasm_i8x16_const(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9))
#define ROT63(x) wasm_v128_or(wasm_u64x2_shr(x, 63), wasm_i64x2_shl(x, 1))

/* The message words x and y as one vector (one unpack, blend or align). */
#define MSG(x, y) wasm_i64x2_shuffle(m[(x) / 2], m[(y) / 2], (x) % 2, 2 + (y) % 2)

/* Half of G (RFC 7693 section 3.1) on all four lanes: rd and rb are the two rotations. */
#define HALF_G(ma, mb, rd, rb)                                         \
  do {                                                                 \
    a0 = wasm_i64x2_add(wasm_i64x2_add(a0, ma), b0);                   \
    a1 = wasm_i64x2_add(wasm_i64x2_add(a1, mb), b1);                   \
    d0 = rd(wasm_v128_xor(d0, a0));                                    \
    d1 = rd(wasm_v128_xor(d1, a1));                                    \
    c0 = wasm_i64x2_add(c0, d0);                                       \
    c1 = wasm_i64x2_add(c1, d1);                                       \
    b0 = rb(wasm_v128_xor(b0, c0));                                    \
    b1 = rb(wasm_v128_xor(b1, c1));                                    \
  } while (0)

/* For the diagonals, lane j holds b's word j: a turns right by one lane (v3 v0 | v1 v2), c left
 * by one (v9 v10 | v11 v8), d by two (v14 v15 | v12 v13). Lane j then runs the diagonal G whose
 * b is v[4 + j]: G7, G4, G5, G6, which take message words s14, s8, s10, s12 (then s15, s9,
 * s11, s13). */
#define DIAGONALIZE()                                                  \
  do {                                                                 \
    v128_t t_ = wasm_i64x2_shuffle(a1, a0, 1, 2);                      \
    a1 = wasm_i64x2_shuffle(a0, a1, 1, 2);                             \
    a0 = t_;                                                           \
    t_ = wasm_i64x2_shuffle(c0, c1, 1, 2);                             \
    c1 = wasm_i64x2_shuffle(c1, c0, 1, 2);                             \
    c0 = t_;                                                           \
    t_ = d0; d0 = d1; d1 = t_;                                         \
  } while (0)

#define UNDIAGONALIZE()                                                \
  do {                                                                 \
    v128_t t_ = wasm_i64x2_shuffle(a0, a1, 1, 2);                      \
    a1 = wasm_i64x2_shuffle(a1, a0, 1, 2);                             \
    a0 = t_;                                                           \
    t_ = wasm_i64x2_shuffle(c1, c0, 1, 2);                             \
    c1 = wasm_i64x2_shuffle(c0, c1, 1, 2);                             \
    c0 = t_;                                                           \
    t_ = d0; d0 = d1; d1 = t_;                                         \
  } while (0)

#define ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
  HALF_G(MSG(s0, s2), MSG(s4, s6), ROT32, ROT24);                                 \
  HALF_G(MSG(s1, s3), MSG(s5, s7), ROT16, ROT63);                                 \
  DIAGONALIZE();                                                                  \
  HALF_G(MSG(s14, s8), MSG(s10, s12), ROT32, ROT24);                              \
  HALF_G(MSG(s15, s9), MSG(s11, s13), ROT16, ROT63);                              \
  UNDIAGONALIZE();

/* `blocks` blocks from in into h, adding inc to the counter t before each; f0, f1 are the
 * finalisation flags. */
static void compress(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                     const unsigned char *in, size_t blocks, uint64_t inc) {
  v128_t h0 = wasm_v128_load(h), h1 = wasm_v128_load(h + 2);
  v128_t h2 = wasm_v128_load(h + 4), h3 = wasm_v128_load(h + 6);
  const v128_t iv0 = wasm_u64x2_const(IV0, IV1), iv1 = wasm_u64x2_const(IV2, IV3);
  const v128_t iv2 = wasm_u64x2_const(IV4, IV5);
  const v128_t iv3f = wasm_v128_xor(wasm_u64x2_const(IV6, IV7), wasm_u64x2_make(f0, f1));
  uint64_t t0 = t[0], t1 = t[1];
  for (; blocks > 0; blocks--, in += BLOCK) {
    t0 += inc;
    t1 += t0 < inc;
    v128_t m[8];
    for (int i = 0; i < 8; i++) m[i] = wasm_v128_load(in + 16 * i);
    v128_t a0 = h0, a1 = h1, b0 = h2, b1 = h3, c0 = iv0, c1 = iv1;
    v128_t d0 = wasm_v128_xor(iv2, wasm_u64x2_make(t0, t1)), d1 = iv3f;
    ROUNDS(ROUND)
    h0 = wasm_v128_xor(h0, wasm_v128_xor(a0, c0));
    h1 = wasm_v128_xor(h1, wasm_v128_xor(a1, c1));
    h2 = wasm_v128_xor(h2, wasm_v128_xor(b0, d0));
    h3 = wasm_v128_xor(h3, wasm_v128_xor(b1, d1));
  }
  wasm_v128_store(h, h0);
  wasm_v128_store(h + 2, h1);
  wasm_v128_store(h + 4, h2);
  wasm_v128_store(h + 6, h3);
  t[0] = t0;
  t[1] = t1;
}
#else
/* RFC 7693 sections 3.1 and 3.2, fully unrolled with the state in 16 locals: for a wasm build
 * without SIMD128 and for test/c/blake2b.c, which runs this file natively under sanitizers
 * (the addon itself calls libsodium). */
#define ROTR64(x, n) ((x) >> (n) | (x) << (64 - (n)))

#define G(a, b, c, d, x, y)                                            \
  do {                                                                 \
    a += b + m[x];                                                     \
    d = ROTR64(d ^ a, 32);                                             \
    c += d;                                                            \
    b = ROTR64(b ^ c, 24);                                             \
    a += b + m[y];                                                     \
    d = ROTR64(d ^ a, 16);                                             \
    c += d;                                                            \
    b = ROTR64(b ^ c, 63);                                             \
  } while (0)

#define ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
  G(v0, v4, v8, v12, s0, s1);                                                     \
  G(v1, v5, v9, v13, s2, s3);                                                     \
  G(v2, v6, v10, v14, s4, s5);                                                    \
  G(v3, v7, v11, v15, s6, s7);                                                    \
  G(v0, v5, v10, v15, s8, s9);                                                    \
  G(v1, v6, v11, v12, s10, s11);                                                  \
  G(v2, v7, v8, v13, s12, s13);                                                   \
  G(v3, v4, v9, v14, s14, s15);

static void compress(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                     const unsigned char *in, size_t blocks, uint64_t inc) {
  uint64_t t0 = t[0], t1 = t[1];
  for (; blocks > 0; blocks--, in += BLOCK) {
    t0 += inc;
    t1 += t0 < inc;
    uint64_t m[16];
    for (int i = 0; i < 16; i++) m[i] = load64_le(in + 8 * i);
    uint64_t v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3], v4 = h[4], v5 = h[5], v6 = h[6],
             v7 = h[7], v8 = IV0, v9 = IV1, v10 = IV2, v11 = IV3, v12 = IV4 ^ t0,
             v13 = IV5 ^ t1, v14 = IV6 ^ f0, v15 = IV7 ^ f1;
    ROUNDS(ROUND)
    h[0] ^= v0 ^ v8;
    h[1] ^= v1 ^ v9;
    h[2] ^= v2 ^ v10;
    h[3] ^= v3 ^ v11;
    h[4] ^= v4 ^ v12;
    h[5] ^= v5 ^ v13;
    h[6] ^= v6 ^ v14;
    h[7] ^= v7 ^ v15;
  }
  t[0] = t0;
  t[1] = t1;
}
#endif

/* RFC 7693 section 2.5: h = IV xor the parameter block (digest length, key length, fanout 1,
 * depth 1, then zeros but for salt and personal). */
static void init_h(uint64_t h[8], size_t outlen, size_t keylen, const unsigned char *salt,
                   const unsigned char *personal) {
  memcpy(h, IV, sizeof IV);
  h[0] ^= (uint64_t) outlen | (uint64_t) keylen << 8 | 1U << 16 | 1U << 24;
  if (salt != NULL) {
    h[4] ^= load64_le(salt);
    h[5] ^= load64_le(salt + 8);
  }
  if (personal != NULL) {
    h[6] ^= load64_le(personal);
    h[7] ^= load64_le(personal + 8);
  }
}

/* Streaming, following blake2b-ref.c: a key is the first block; update keeps the last 129..256
 * bytes buffered (only final compresses with the last-block flag). */
int nat_blake2b_init_salt_personal(crypto_generichash_blake2b_state *state,
                                   const unsigned char *key, size_t keylen, size_t outlen,
                                   const unsigned char *salt, const unsigned char *personal) {
  blake2b_state *S = (blake2b_state *) (void *) state;
  if (outlen == 0 || outlen > 64 || keylen > 64) return -1;
  if (key == NULL) keylen = 0;
  init_h(S->h, outlen, keylen, salt, personal);
  /* blake2b_init0 zeroes t through last_node (not the bytes after it) */
  memset(S->t, 0, offsetof(blake2b_state, last_node) + 1 - offsetof(blake2b_state, t));
  if (keylen > 0) {
    memcpy(S->buf, key, keylen);
    S->buflen = BLOCK;
  }
  return 0;
}

int nat_blake2b_init(crypto_generichash_blake2b_state *state, const unsigned char *key,
                     size_t keylen, size_t outlen) {
  return nat_blake2b_init_salt_personal(state, key, keylen, outlen, NULL, NULL);
}

/* libsodium's update compresses the first buffered block whenever more than 256 bytes are at
 * hand, then moves the second down: the state afterwards holds the last 129..256 bytes of
 * everything absorbed, and past them the bytes 128 before (the last block moved down left its
 * copy there). We compress the same blocks, whole ones straight from in, and leave the same
 * bytes. */
int nat_blake2b_update(crypto_generichash_blake2b_state *state, const unsigned char *in,
                       size_t inlen) {
  blake2b_state *S = (blake2b_state *) (void *) state;
  size_t left = S->buflen, fill = 2 * BLOCK - left;
  if (inlen <= fill) {
    if (inlen > 0) memcpy(S->buf + left, in, inlen);
    S->buflen = left + inlen;
    return 0;
  }
  memcpy(S->buf + left, in, fill);
  in += fill;
  inlen -= fill;
  compress(S->h, S->t, S->f[0], S->f[1], S->buf, 1, BLOCK);
  if (inlen <= BLOCK) {
    memcpy(S->buf, S->buf + BLOCK, BLOCK);
    memcpy(S->buf + BLOCK, in, inlen);
    S->buflen = BLOCK + inlen;
    return 0;
  }
  compress(S->h, S->t, S->f[0], S->f[1], S->buf + BLOCK, 1, BLOCK);
  const size_t blocks = (inlen - BLOCK - 1) / BLOCK;
  compress(S->h, S->t, S->f[0], S->f[1], in, blocks, BLOCK);
  in += blocks * BLOCK;
  inlen -= blocks * BLOCK; /* 129..256 */
  memcpy(S->buf, in, inlen);
  memcpy(S->buf + inlen, S->buf + inlen - BLOCK, 2 * BLOCK - inlen);
  S->buflen = inlen;
  return 0;
}

int nat_blake2b_final(crypto_generichash_blake2b_state *state, unsigned char *out,
                      size_t outlen) {
  blake2b_state *S = (blake2b_state *) (void *) state;
  unsigned char buffer[64];
  if (outlen == 0 || outlen > 64 || S->f[0] != 0) return -1;
  if (S->buflen > BLOCK) {
    compress(S->h, S->t, S->f[0], S->f[1], S->buf, 1, BLOCK);
    S->buflen -= BLOCK;
    memcpy(S->buf, S->buf + BLOCK, S->buflen);
  }
  if (S->last_node) S->f[1] = (uint64_t) -1;
  S->f[0] = (uint64_t) -1;
  memset(S->buf + S->buflen, 0, 2 * BLOCK - S->buflen);
  compress(S->h, S->t, S->f[0], S->f[1], S->buf, 1, S->buflen);
  for (int i = 0; i < 8; i++) store64_le(buffer + 8 * i, S->h[i]);
  memcpy(out, buffer, outlen);
  sodium_memzero(S->h, sizeof S->h);
  sodium_memzero(S->buf, sizeof S->buf);
  sodium_memzero(buffer, sizeof buffer);
  return 0;
}

/* One-shot: the key block (if any), the whole blocks but the last straight from in, then the
 * last 0..128 bytes zero-padded with the last-block flag (a key alone is the last block). */
int nat_blake2b_salt_personal(unsigned char *out, size_t outlen, const unsigned char *in,
                              size_t inlen, const unsigned char *key, size_t keylen,
                              const unsigned char *salt, const unsigned char *personal) {
  uint64_t h[8], t[2] = {0, 0};
  unsigned char block[BLOCK];
  if (outlen == 0 || outlen > 64 || keylen > 64) return -1;
  if (key == NULL) keylen = 0;
  init_h(h, outlen, keylen, salt, personal);
  if (keylen > 0) {
    memset(block, 0, BLOCK);
    memcpy(block, key, keylen);
    if (inlen > 0) compress(h, t, 0, 0, block, 1, BLOCK);
  }
  if (keylen == 0 || inlen > 0) {
    const size_t blocks = inlen > 0 ? (inlen - 1) / BLOCK : 0;
    compress(h, t, 0, 0, in, blocks, BLOCK);
    in += blocks * BLOCK;
    inlen -= blocks * BLOCK; /* 0..128 */
    memset(block, 0, BLOCK);
    if (inlen > 0) memcpy(block, in, inlen);
  } else {
    inlen = BLOCK;
  }
  compress(h, t, (uint64_t) -1, 0, block, 1, inlen);
  for (int i = 0; i < 8; i++) store64_le(block + 8 * i, h[i]);
  memcpy(out, block, outlen);
  sodium_memzero(h, sizeof h);
  sodium_memzero(block, sizeof block);
  return 0;
}

int nat_blake2b(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen,
                const unsigned char *key, size_t keylen) {
  return nat_blake2b_salt_personal(out, outlen, in, inlen, key, keylen, NULL, NULL);
}
