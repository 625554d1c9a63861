/* Two elements of GF(2^255 - 19) side by side, for WebAssembly SIMD128: what the wasm build's
 * X25519 and Ed25519 (x25519_simd128.c, ed25519_simd128.c) compute on.
 *
 * Why: wasm has no 64x64->128 multiply, and V8 compiles libsodium's radix-2^25.5 fe25519_mul
 * (int64 products of int32 limbs) to ~630 x86 instructions, libsodium.js's as well. SIMD128's
 * i64x2.extmul_{low,high}_i32x4_u is one pmuludq (plus two unpacks) for two 32x32->64
 * products, so two independent multiplications cost about 1.2 of one (Zen 5, family 26 model
 * 2, Node 20: 17 ns per element against 29 ns). The curve formulas are written so that their
 * multiplications come in pairs (the Montgomery ladder has five per step, as in Chou's
 * sandy2x; Edwards doubling and addition have two each).
 *
 * Layout: nat_fe2 is five vectors; vector k holds the u32 lanes (a[2k], b[2k], a[2k+1],
 * b[2k+1]) of elements a ("lane A") and b ("lane B"), limbs in radix 2^25.5 (limb i weighs
 * 2^ceil(25.5 i): 26, 25, 26 ... bits), unsigned. extmul_low of two such vectors multiplies the
 * even limbs of both elements at once, extmul_high the odd ones.
 *
 * Bounds (checked at the edges by test/c/curve25519_x2.c):
 *   reduced ("R"): even limbs < 2^26 + 2^11, odd limbs < 2^25 + 2^18: what nat_fe2_mul,
 *     nat_fe2_sq, nat_fe2_carry and nat_fe2_frombytes give;
 *   mul/sq inputs: even limbs < 3 2^26 + 2^12, odd < 3 2^25 + 2^19: a sum of two R, or a
 *     nat_fe2_sub of two R (f + 2p - g), but not a sum of those;
 *   nat_fe2_carry takes any limbs < 2^31.
 * With them no 32-bit lane (19 g, 4 f) and no 64-bit column sum (< 2^62.2) overflows.
 *
 * Without SIMD128 (the C harness natively, under ASan and valgrind) the same code runs on a
 * portable stand-in of the nine vector operations it uses. */
#ifndef NAT_CRYPTO_FE25519_X2_H
#define NAT_CRYPTO_FE25519_X2_H

#include <stdint.h>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
typedef v128_t nat_x2v;
/* acc + the products of lanes 0, 1 (lo) or 2, 3 (hi) of a and b, as 64-bit lanes: written as
 * the wasm instructions themselves, in order (volatile), since clang otherwise shares one
 * i64x2.extend between products and multiplies with i64x2.mul (eight x86 instructions, no
 * pmuludq), factors a f + a g into a (f + g), and hoists every product to the top, where V8
 * then spills them. */
static inline nat_x2v nat_x2v_maclo(nat_x2v acc, nat_x2v a, nat_x2v b) {
  nat_x2v r;
  __asm__ volatile("local.get %1\n\tlocal.get %2\n\ti64x2.extmul_low_i32x4_u\n\tlocal.get %3\n\ti64x2.add\n\tlocal.set %0"
                   : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}
static inline nat_x2v nat_x2v_machi(nat_x2v acc, nat_x2v a, nat_x2v b) {
  nat_x2v r;
  __asm__ volatile("local.get %1\n\tlocal.get %2\n\ti64x2.extmul_high_i32x4_u\n\tlocal.get %3\n\ti64x2.add\n\tlocal.set %0"
                   : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}
#define nat_x2v_add32(a, b) wasm_i32x4_add(a, b)
#define nat_x2v_sub32(a, b) wasm_i32x4_sub(a, b)
#define nat_x2v_mul32(a, b) wasm_i32x4_mul(a, b)
#define nat_x2v_shl32(a, n) wasm_i32x4_shl(a, n)
#define nat_x2v_shr32(a, n) wasm_u32x4_shr(a, n)
#define nat_x2v_add64(a, b) wasm_i64x2_add(a, b)
#define nat_x2v_shl64(a, n) wasm_i64x2_shl(a, n)
#define nat_x2v_shr64(a, n) wasm_u64x2_shr(a, n)
#define nat_x2v_and(a, b) wasm_v128_and(a, b)
#define nat_x2v_or(a, b) wasm_v128_or(a, b)
#define nat_x2v_xor(a, b) wasm_v128_xor(a, b)
#define nat_x2v_make32(a, b, c, d) wasm_u32x4_make(a, b, c, d)
#define nat_x2v_splat32(a) wasm_i32x4_splat((int32_t) (a))
#define nat_x2v_splat64(a) wasm_i64x2_splat((int64_t) (a))
/* lanes i0..i3 of the eight (a's 0..3, b's 4..7), constants */
#define nat_x2v_shuffle(a, b, i0, i1, i2, i3) wasm_i32x4_shuffle(a, b, i0, i1, i2, i3)
#define nat_x2v_lane(a, i) wasm_u32x4_extract_lane(a, i)
#else
typedef struct { uint32_t w[4]; } nat_x2v;
static inline uint64_t nat_x2v_q(nat_x2v a, int i) { return (uint64_t) a.w[2 * i] | (uint64_t) a.w[2 * i + 1] << 32; }
static inline nat_x2v nat_x2v_fromq(uint64_t q0, uint64_t q1) {
  nat_x2v r = { { (uint32_t) q0, (uint32_t) (q0 >> 32), (uint32_t) q1, (uint32_t) (q1 >> 32) } };
  return r;
}
static inline nat_x2v nat_x2v_make32(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  nat_x2v r = { { a, b, c, d } };
  return r;
}
static inline nat_x2v nat_x2v_splat32(uint32_t a) { return nat_x2v_make32(a, a, a, a); }
static inline nat_x2v nat_x2v_splat64(uint64_t a) { return nat_x2v_fromq(a, a); }
static inline nat_x2v nat_x2v_maclo(nat_x2v acc, nat_x2v a, nat_x2v b) {
  return nat_x2v_fromq(nat_x2v_q(acc, 0) + (uint64_t) a.w[0] * b.w[0], nat_x2v_q(acc, 1) + (uint64_t) a.w[1] * b.w[1]);
}
static inline nat_x2v nat_x2v_machi(nat_x2v acc, nat_x2v a, nat_x2v b) {
  return nat_x2v_fromq(nat_x2v_q(acc, 0) + (uint64_t) a.w[2] * b.w[2], nat_x2v_q(acc, 1) + (uint64_t) a.w[3] * b.w[3]);
}
#define NAT_X2V_MAP32(name, expr)                                  \
  static inline nat_x2v name(nat_x2v a, nat_x2v b) {              \
    nat_x2v r;                                                     \
    for (int i = 0; i < 4; i++) r.w[i] = (uint32_t) (expr);       \
    return r;                                                      \
  }
NAT_X2V_MAP32(nat_x2v_add32, a.w[i] + b.w[i])
NAT_X2V_MAP32(nat_x2v_sub32, a.w[i] - b.w[i])
NAT_X2V_MAP32(nat_x2v_mul32, a.w[i] * b.w[i])
NAT_X2V_MAP32(nat_x2v_and, a.w[i] & b.w[i])
NAT_X2V_MAP32(nat_x2v_or, a.w[i] | b.w[i])
NAT_X2V_MAP32(nat_x2v_xor, a.w[i] ^ b.w[i])
#undef NAT_X2V_MAP32
static inline nat_x2v nat_x2v_shl32(nat_x2v a, int n) {
  return nat_x2v_make32(a.w[0] << n, a.w[1] << n, a.w[2] << n, a.w[3] << n);
}
static inline nat_x2v nat_x2v_shr32(nat_x2v a, int n) {
  return nat_x2v_make32(a.w[0] >> n, a.w[1] >> n, a.w[2] >> n, a.w[3] >> n);
}
static inline nat_x2v nat_x2v_add64(nat_x2v a, nat_x2v b) {
  return nat_x2v_fromq(nat_x2v_q(a, 0) + nat_x2v_q(b, 0), nat_x2v_q(a, 1) + nat_x2v_q(b, 1));
}
static inline nat_x2v nat_x2v_shl64(nat_x2v a, int n) { return nat_x2v_fromq(nat_x2v_q(a, 0) << n, nat_x2v_q(a, 1) << n); }
static inline nat_x2v nat_x2v_shr64(nat_x2v a, int n) { return nat_x2v_fromq(nat_x2v_q(a, 0) >> n, nat_x2v_q(a, 1) >> n); }
static inline nat_x2v nat_x2v_shuffle(nat_x2v a, nat_x2v b, int i0, int i1, int i2, int i3) {
  const uint32_t ab[8] = { a.w[0], a.w[1], a.w[2], a.w[3], b.w[0], b.w[1], b.w[2], b.w[3] };
  return nat_x2v_make32(ab[i0], ab[i1], ab[i2], ab[i3]);
}
#define nat_x2v_lane(a, i) ((a).w[i])
#endif

typedef struct { nat_x2v v[5]; } nat_fe2;

/* h = f + g, both lanes (no carry) */
static inline void nat_fe2_add(nat_fe2 *h, const nat_fe2 *f, const nat_fe2 *g) {
  for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_add32(f->v[k], g->v[k]);
}

/* h = f + 2p - g, both lanes; g reduced */
static inline void nat_fe2_sub(nat_fe2 *h, const nat_fe2 *f, const nat_fe2 *g) {
  const nat_x2v p2_0 = nat_x2v_make32(0x7ffffda, 0x7ffffda, 0x3fffffe, 0x3fffffe);
  const nat_x2v p2_k = nat_x2v_make32(0x7fffffe, 0x7fffffe, 0x3fffffe, 0x3fffffe);
  h->v[0] = nat_x2v_sub32(nat_x2v_add32(f->v[0], p2_0), g->v[0]);
  for (int k = 1; k < 5; k++) h->v[k] = nat_x2v_sub32(nat_x2v_add32(f->v[k], p2_k), g->v[k]);
}

/* lanes exchanged: (b, a) */
static inline void nat_fe2_swap(nat_fe2 *h, const nat_fe2 *f) {
  for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_shuffle(f->v[k], f->v[k], 1, 0, 3, 2);
}

/* (lane A of f, lane A of g) */
static inline void nat_fe2_aa(nat_fe2 *h, const nat_fe2 *f, const nat_fe2 *g) {
  for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_shuffle(f->v[k], g->v[k], 0, 4, 2, 6);
}

/* (lane B of f, lane B of g) */
static inline void nat_fe2_bb(nat_fe2 *h, const nat_fe2 *f, const nat_fe2 *g) {
  for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_shuffle(f->v[k], g->v[k], 1, 5, 3, 7);
}

/* (lane A of f, lane B of g) */
static inline void nat_fe2_ab(nat_fe2 *h, const nat_fe2 *f, const nat_fe2 *g) {
  for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_shuffle(f->v[k], g->v[k], 0, 5, 2, 7);
}

/* (lane B of f, lane A of g) */
static inline void nat_fe2_ba(nat_fe2 *h, const nat_fe2 *f, const nat_fe2 *g) {
  for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_shuffle(f->v[k], g->v[k], 1, 4, 3, 6);
}

/* f and g exchanged where mask is all ones (0 or 0xffffffff in each lane: the two lanes may
 * differ), no branch */
static inline void nat_fe2_cswap(nat_fe2 *f, nat_fe2 *g, nat_x2v mask) {
  for (int k = 0; k < 5; k++) {
    const nat_x2v x = nat_x2v_and(mask, nat_x2v_xor(f->v[k], g->v[k]));
    f->v[k] = nat_x2v_xor(f->v[k], x);
    g->v[k] = nat_x2v_xor(g->v[k], x);
  }
}

/* h = f g, h = f^2 (inputs within the mul bounds, output reduced; h may be f or g) */
void nat_fe2_mul(nat_fe2 *h, const nat_fe2 *f, const nat_fe2 *g);
void nat_fe2_sq(nat_fe2 *h, const nat_fe2 *f);
/* h = f g for one element (ten limbs, the same bounds), in scalar code */
void nat_fe25_mul(uint32_t h[10], const uint32_t f[10], const uint32_t g[10]);
/* h = f with limbs < 2^31 brought to the reduced bounds (the same values mod p) */
void nat_fe2_carry(nat_fe2 *h, const nat_fe2 *f);

/* one element as ten limbs: from 32 bytes (bit 255 ignored; limbs exact, reduced), to its
 * canonical 32 bytes (any limbs < 2^32), in and out of a lane */
void nat_fe25_frombytes(uint32_t h[10], const unsigned char s[32]);
void nat_fe25_tobytes(unsigned char s[32], const uint32_t h[10]);
void nat_fe2_pack(nat_fe2 *h, const uint32_t a[10], const uint32_t b[10]);
void nat_fe2_unpack(uint32_t a[10], uint32_t b[10], const nat_fe2 *h);
/* out = 1 / in mod p (0 for 0), out's limbs reduced, in constant time (safegcd) */
void nat_fe25_invert(uint32_t out[10], const uint32_t in[10]);

#endif
