/* BLAKE2b's compression function in wasm SIMD128 (see blake2b_impl.h). */
#include "blake2b_impl.h"

#ifdef NAT_BLAKE2B_SIMD128
#include <wasm_simd128.h>

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
void nat_blake2b_compress_simd128(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                                  const unsigned char *in, size_t blocks, uint64_t inc) {
  v128_t h0 = wasm_v128_load(h), h1 = wasm_v128_load(h + 2);
  v128_t h2 = wasm_v128_load(h + 4), h3 = wasm_v128_load(h + 6);
  const v128_t iv0 = wasm_u64x2_const(NAT_BLAKE2B_IV0, NAT_BLAKE2B_IV1);
  const v128_t iv1 = wasm_u64x2_const(NAT_BLAKE2B_IV2, NAT_BLAKE2B_IV3);
  const v128_t iv2 = wasm_u64x2_const(NAT_BLAKE2B_IV4, NAT_BLAKE2B_IV5);
  const v128_t iv3f =
    wasm_v128_xor(wasm_u64x2_const(NAT_BLAKE2B_IV6, NAT_BLAKE2B_IV7), wasm_u64x2_make(f0, f1));
  uint64_t t0 = t[0], t1 = t[1];
  for (; blocks > 0; blocks--, in += 128) {
    t0 += inc;
    t1 += t0 < inc;
    v128_t m[8];
    for (int i = 0; i < 8; i++) m[i] = wasm_v128_load(in + 16 * i);
    v128_t a0 = h0, a1 = h1, b0 = h2, b1 = h3, c0 = iv0, c1 = iv1;
    v128_t d0 = wasm_v128_xor(iv2, wasm_u64x2_make(t0, t1)), d1 = iv3f;
    NAT_BLAKE2B_ROUNDS(ROUND)
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
#endif
