/* wasm SIMD128 helpers shared by the four-block ARX kernels (chacha20_simd128.c,
 * chacha20poly1305.c, salsa20.c): a v128 holds word i of four blocks, one block per lane. */
#ifndef NAT_CRYPTO_SIMD128_WORDS_H
#define NAT_CRYPTO_SIMD128_WORDS_H

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

/* rotate each 32-bit lane left by n (two shifts and an or) */
#define W_ROTL(x, n) wasm_v128_or(wasm_i32x4_shl(x, n), wasm_u32x4_shr(x, 32 - (n)))

/* out[at..at+15] = in[at..at+15] ^ v (out and in are the caller's) */
#define W_XOR16(at, v) wasm_v128_store(out + (at), wasm_v128_xor(v, wasm_v128_load(in + (at))))

/* words 4g..4g+3 of the four blocks, transposed (block j's bytes 16g..16g+15 are lane j), XORed
 * onto in into out at block j's offset 64j */
#define W_XOR_GROUP(g, x0, x1, x2, x3)                                  \
  do {                                                                  \
    const v128_t lo01 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5),         \
                 hi01 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7),         \
                 lo23 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5),         \
                 hi23 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);         \
    W_XOR16(16 * (g), wasm_i64x2_shuffle(lo01, lo23, 0, 2));            \
    W_XOR16(64 + 16 * (g), wasm_i64x2_shuffle(lo01, lo23, 1, 3));       \
    W_XOR16(128 + 16 * (g), wasm_i64x2_shuffle(hi01, hi23, 0, 2));      \
    W_XOR16(192 + 16 * (g), wasm_i64x2_shuffle(hi01, hi23, 1, 3));      \
  } while (0)

/* all sixteen words of the four blocks: x[0..15] + s[0..15] (the feed-forward), transposed and
 * XORed onto in's 256 bytes into out */
#define W_XOR_BLOCKS4(s, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15)        \
  do {                                                                                              \
    W_XOR_GROUP(0, wasm_i32x4_add(x0, (s)[0]), wasm_i32x4_add(x1, (s)[1]),                          \
                wasm_i32x4_add(x2, (s)[2]), wasm_i32x4_add(x3, (s)[3]));                            \
    W_XOR_GROUP(1, wasm_i32x4_add(x4, (s)[4]), wasm_i32x4_add(x5, (s)[5]),                          \
                wasm_i32x4_add(x6, (s)[6]), wasm_i32x4_add(x7, (s)[7]));                            \
    W_XOR_GROUP(2, wasm_i32x4_add(x8, (s)[8]), wasm_i32x4_add(x9, (s)[9]),                          \
                wasm_i32x4_add(x10, (s)[10]), wasm_i32x4_add(x11, (s)[11]));                        \
    W_XOR_GROUP(3, wasm_i32x4_add(x12, (s)[12]), wasm_i32x4_add(x13, (s)[13]),                      \
                wasm_i32x4_add(x14, (s)[14]), wasm_i32x4_add(x15, (s)[15]));                        \
  } while (0)
#endif

#endif
