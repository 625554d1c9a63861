/* ChaCha20 with WebAssembly SIMD128 (see chacha20_impl.h), the wasm32 build's kernel.
 *
 * Four blocks at a time: a v128 holds word i of the four blocks, one per lane (the AVX2 code's
 * layout, four lanes wide), so a quarter round needs no shuffles; a 4x4 transpose per group of
 * four words puts the blocks back in order. The rotation by 16 is a word shuffle (pshuflw +
 * pshufhw in V8), the others two shifts and an or: V8 builds a byte shuffle's mask anew for each
 * use (rotations by shifts took 0.85x the time at 1 MB). A last 1..3 blocks: four computed into a
 * stack buffer, the ones needed XORed. */
#include <string.h>

#include "chacha20_impl.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "simd128_words.h"

#define W_ROT16(x) wasm_i8x16_shuffle(x, x, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define W_QR(a, b, c, d)                                                  \
  a = wasm_i32x4_add(a, b); d = W_ROT16(wasm_v128_xor(d, a));             \
  c = wasm_i32x4_add(c, d); b = W_ROTL(wasm_v128_xor(b, c), 12);          \
  a = wasm_i32x4_add(a, b); d = W_ROTL(wasm_v128_xor(d, a), 8);           \
  c = wasm_i32x4_add(c, d); b = W_ROTL(wasm_v128_xor(b, c), 7)

/* out = in ^ the four blocks from st's counter on (256 bytes) */
static void blocks4(const uint32_t st[16], unsigned char *out, const unsigned char *in,
                    int ctr64) {
  v128_t s[16];
  for (int i = 0; i < 16; i++) s[i] = wasm_i32x4_splat((int) st[i]);
  s[12] = wasm_i32x4_add(s[12], wasm_i32x4_make(0, 1, 2, 3));
  if (ctr64) {
    /* lanes whose low word wrapped carry into word 13 (the mask is -1 there) */
    s[13] = wasm_i32x4_sub(s[13], wasm_u32x4_lt(s[12], wasm_i32x4_splat((int) st[12])));
  }
  v128_t x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7],
         x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11], x12 = s[12], x13 = s[13], x14 = s[14],
         x15 = s[15];
  for (int i = 0; i < 10; i++) {
    W_QR(x0, x4, x8, x12);
    W_QR(x1, x5, x9, x13);
    W_QR(x2, x6, x10, x14);
    W_QR(x3, x7, x11, x15);
    W_QR(x0, x5, x10, x15);
    W_QR(x1, x6, x11, x12);
    W_QR(x2, x7, x8, x13);
    W_QR(x3, x4, x9, x14);
  }
  W_XOR_BLOCKS4(s, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
}

static void advance(uint32_t st[16], uint32_t n, int ctr64) {
  const uint32_t before = st[12];
  st[12] += n;
  if (ctr64 && st[12] < before) st[13]++;
}

void nat_chacha20_blocks_simd128(uint32_t st[16], unsigned char *out, const unsigned char *in,
                                 size_t nblocks, int ctr64) {
  for (; nblocks >= 4; nblocks -= 4, in += 256, out += 256) {
    blocks4(st, out, in, ctr64);
    advance(st, 4, ctr64);
  }
  if (nblocks > 0) {
    unsigned char buf[256];
    memcpy(buf, in, 64 * nblocks);
    blocks4(st, buf, buf, ctr64);
    memcpy(out, buf, 64 * nblocks);
    advance(st, (uint32_t) nblocks, ctr64);
    memset(buf, 0, sizeof buf);
    __asm__ __volatile__("" : : "r"(buf) : "memory");
  }
}
#endif
