/* Arithmetic in GF(p), p = 2^255 - 19, in radix 2^51: five unsigned 64-bit limbs, value
 * v[0] + v[1] 2^51 + v[2] 2^102 + v[3] 2^153 + v[4] 2^204, products in unsigned __int128 (64-bit
 * targets with 128-bit products: x86-64, arm64; on wasm32 clang emulates them). For X25519
 * (x25519_portable.c) and later Ed25519, so every function is static inline, takes and returns
 * field elements by pointer (outputs may alias inputs) and never branches on or indexes by a value.
 *
 * Bounds (checked by test/c/x25519.c against a big-integer reference at the edges):
 *   "reduced": every limb < 2^51 + 2^18 (what mul, sq, mul121666, carry and frombytes return);
 *   add of two reduced elements: limbs < 2^52.1; sub(a, b) needs b reduced, and returns limbs
 *   < 2^52.6; mul and sq take limbs < 2^54 (t0 < 2^115, the top carry fits in 64 bits times 19);
 *   tobytes takes limbs < 2^63 and writes the unique representative in [0, p). */
#ifndef NAT_CRYPTO_FE25519_51_H
#define NAT_CRYPTO_FE25519_51_H

#include <stdint.h>

typedef struct nat_fe51 {
  uint64_t v[5];
} nat_fe51;

typedef unsigned __int128 nat_u128;

#define NAT_FE51_MASK ((UINT64_C(1) << 51) - 1)

static inline uint64_t nat_fe51_load64(const unsigned char *s) {
  uint64_t w = 0;
  for (int i = 7; i >= 0; i--) w = w << 8 | s[i];
  return w;
}

static inline void nat_fe51_store64(unsigned char *s, uint64_t w) {
  for (int i = 0; i < 8; i++) s[i] = (unsigned char) (w >> (8 * i));
}

static inline void nat_fe51_0(nat_fe51 *r) {
  for (int i = 0; i < 5; i++) r->v[i] = 0;
}

static inline void nat_fe51_1(nat_fe51 *r) {
  nat_fe51_0(r);
  r->v[0] = 1;
}

/* 32 little-endian bytes, bit 255 ignored (RFC 7748 section 5, as libsodium's fe25519_frombytes);
 * a value in [p, 2^255) is kept as it is (non-canonical, reduced by the arithmetic). */
static inline void nat_fe51_frombytes(nat_fe51 *r, const unsigned char s[32]) {
  const uint64_t w0 = nat_fe51_load64(s), w1 = nat_fe51_load64(s + 8), w2 = nat_fe51_load64(s + 16),
                 w3 = nat_fe51_load64(s + 24);
  r->v[0] = w0 & NAT_FE51_MASK;
  r->v[1] = (w0 >> 51 | w1 << 13) & NAT_FE51_MASK;
  r->v[2] = (w1 >> 38 | w2 << 26) & NAT_FE51_MASK;
  r->v[3] = (w2 >> 25 | w3 << 39) & NAT_FE51_MASK;
  r->v[4] = (w3 >> 12) & NAT_FE51_MASK;
}

/* Limbs < 2^63 to limbs < 2^51 except v[0] < 2^51 + 19 * 2^12 (the value is unchanged mod p). */
static inline void nat_fe51_carry(nat_fe51 *r, const nat_fe51 *a) {
  uint64_t h0 = a->v[0], h1 = a->v[1], h2 = a->v[2], h3 = a->v[3], h4 = a->v[4];
  h1 += h0 >> 51; h0 &= NAT_FE51_MASK;
  h2 += h1 >> 51; h1 &= NAT_FE51_MASK;
  h3 += h2 >> 51; h2 &= NAT_FE51_MASK;
  h4 += h3 >> 51; h3 &= NAT_FE51_MASK;
  h0 += 19 * (h4 >> 51); h4 &= NAT_FE51_MASK;
  r->v[0] = h0; r->v[1] = h1; r->v[2] = h2; r->v[3] = h3; r->v[4] = h4;
}

/* The canonical encoding: the representative in [0, p), little-endian (bit 255 clear). */
static inline void nat_fe51_tobytes(unsigned char s[32], const nat_fe51 *a) {
  nat_fe51 t;
  nat_fe51_carry(&t, a);
  uint64_t h0 = t.v[0], h1 = t.v[1], h2 = t.v[2], h3 = t.v[3], h4 = t.v[4];
  /* now h < 2^255 + 2^17 < 2p: q = 1 exactly when h >= p, i.e. when h + 19 carries out of bit 255 */
  uint64_t q = (h0 + 19) >> 51;
  q = (h1 + q) >> 51;
  q = (h2 + q) >> 51;
  q = (h3 + q) >> 51;
  q = (h4 + q) >> 51;
  h0 += 19 * q; /* h - q p = h + 19 q - q 2^255: the carry into bit 255 is dropped */
  h1 += h0 >> 51; h0 &= NAT_FE51_MASK;
  h2 += h1 >> 51; h1 &= NAT_FE51_MASK;
  h3 += h2 >> 51; h2 &= NAT_FE51_MASK;
  h4 += h3 >> 51; h3 &= NAT_FE51_MASK;
  h4 &= NAT_FE51_MASK;
  nat_fe51_store64(s, h0 | h1 << 51);
  nat_fe51_store64(s + 8, h1 >> 13 | h2 << 38);
  nat_fe51_store64(s + 16, h2 >> 26 | h3 << 25);
  nat_fe51_store64(s + 24, h3 >> 39 | h4 << 12);
}

static inline void nat_fe51_add(nat_fe51 *r, const nat_fe51 *a, const nat_fe51 *b) {
  for (int i = 0; i < 5; i++) r->v[i] = a->v[i] + b->v[i];
}

/* a - b + 2p, limb by limb (2p = 2^52 - 38, then 2^52 - 2 four times): no limb goes negative
 * while b is reduced. */
static inline void nat_fe51_sub(nat_fe51 *r, const nat_fe51 *a, const nat_fe51 *b) {
  r->v[0] = (a->v[0] + UINT64_C(0xfffffffffffda)) - b->v[0];
  for (int i = 1; i < 5; i++) r->v[i] = (a->v[i] + UINT64_C(0xffffffffffffe)) - b->v[i];
}

/* The five column sums of a product, reduced to limbs (19 = 2^255 mod p folds the upper half). */
static inline void nat_fe51_reduce128(nat_fe51 *r, nat_u128 t0, nat_u128 t1, nat_u128 t2, nat_u128 t3,
                                      nat_u128 t4) {
  uint64_t r0, r1, r2, r3, r4, c;
  r0 = (uint64_t) t0 & NAT_FE51_MASK; t1 += (uint64_t) (t0 >> 51);
  r1 = (uint64_t) t1 & NAT_FE51_MASK; t2 += (uint64_t) (t1 >> 51);
  r2 = (uint64_t) t2 & NAT_FE51_MASK; t3 += (uint64_t) (t2 >> 51);
  r3 = (uint64_t) t3 & NAT_FE51_MASK; t4 += (uint64_t) (t3 >> 51);
  r4 = (uint64_t) t4 & NAT_FE51_MASK; c = (uint64_t) (t4 >> 51);
  r0 += c * 19;
  r1 += r0 >> 51; r0 &= NAT_FE51_MASK;
  r->v[0] = r0; r->v[1] = r1; r->v[2] = r2; r->v[3] = r3; r->v[4] = r4;
}

static inline void nat_fe51_mul(nat_fe51 *r, const nat_fe51 *a, const nat_fe51 *b) {
  const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3], a4 = a->v[4];
  const uint64_t b0 = b->v[0], b1 = b->v[1], b2 = b->v[2], b3 = b->v[3], b4 = b->v[4];
  const uint64_t b1_19 = 19 * b1, b2_19 = 19 * b2, b3_19 = 19 * b3, b4_19 = 19 * b4;
  nat_u128 t0, t1, t2, t3, t4;
  t0 = (nat_u128) a0 * b0 + (nat_u128) a1 * b4_19 + (nat_u128) a2 * b3_19 + (nat_u128) a3 * b2_19 +
       (nat_u128) a4 * b1_19;
  t1 = (nat_u128) a0 * b1 + (nat_u128) a1 * b0 + (nat_u128) a2 * b4_19 + (nat_u128) a3 * b3_19 +
       (nat_u128) a4 * b2_19;
  t2 = (nat_u128) a0 * b2 + (nat_u128) a1 * b1 + (nat_u128) a2 * b0 + (nat_u128) a3 * b4_19 +
       (nat_u128) a4 * b3_19;
  t3 = (nat_u128) a0 * b3 + (nat_u128) a1 * b2 + (nat_u128) a2 * b1 + (nat_u128) a3 * b0 +
       (nat_u128) a4 * b4_19;
  t4 = (nat_u128) a0 * b4 + (nat_u128) a1 * b3 + (nat_u128) a2 * b2 + (nat_u128) a3 * b1 +
       (nat_u128) a4 * b0;
  nat_fe51_reduce128(r, t0, t1, t2, t3, t4);
}

static inline void nat_fe51_sq(nat_fe51 *r, const nat_fe51 *a) {
  const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3], a4 = a->v[4];
  const uint64_t d0 = 2 * a0, d1 = 2 * a1, a3_19 = 19 * a3, a4_19 = 19 * a4;
  const uint64_t a3_38 = 2 * a3_19, a4_38 = 2 * a4_19;
  nat_u128 t0, t1, t2, t3, t4;
  t0 = (nat_u128) a0 * a0 + (nat_u128) a1 * a4_38 + (nat_u128) a2 * a3_38;
  t1 = (nat_u128) d0 * a1 + (nat_u128) a2 * a4_38 + (nat_u128) a3 * a3_19;
  t2 = (nat_u128) d0 * a2 + (nat_u128) a1 * a1 + (nat_u128) a3 * a4_38;
  t3 = (nat_u128) d0 * a3 + (nat_u128) d1 * a2 + (nat_u128) a4 * a4_19;
  t4 = (nat_u128) d0 * a4 + (nat_u128) d1 * a3 + (nat_u128) a2 * a2;
  nat_fe51_reduce128(r, t0, t1, t2, t3, t4);
}

/* r = a^(2^n), n >= 1 */
static inline void nat_fe51_sqn(nat_fe51 *r, const nat_fe51 *a, int n) {
  nat_fe51_sq(r, a);
  while (--n > 0) nat_fe51_sq(r, r);
}

/* r = 121666 a: (A + 2) / 4 for Curve25519's A = 486662 (RFC 7748's a24 is 121665 with AA;
 * libsodium's ladder uses 121666 with BB, the same value). */
static inline void nat_fe51_mul121666(nat_fe51 *r, const nat_fe51 *a) {
  nat_fe51_reduce128(r, (nat_u128) a->v[0] * 121666, (nat_u128) a->v[1] * 121666,
                     (nat_u128) a->v[2] * 121666, (nat_u128) a->v[3] * 121666,
                     (nat_u128) a->v[4] * 121666);
}

/* Swap a and b when swap is 1, leave them when 0, without a branch: the mask goes through an
 * empty asm so the compiler cannot tell it is 0 or all ones and turn the xors into a jump. */
static inline void nat_fe51_cswap(nat_fe51 *a, nat_fe51 *b, uint64_t swap) {
  uint64_t mask = 0 - swap;
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(mask));
#endif
  for (int i = 0; i < 5; i++) {
    const uint64_t x = mask & (a->v[i] ^ b->v[i]);
    a->v[i] ^= x;
    b->v[i] ^= x;
  }
}

/* r = a^(p - 2) = 1 / a (0 for 0), p - 2 = 2^255 - 21, by the usual fixed chain of 254 squarings
 * and 11 multiplications. */
static inline void nat_fe51_invert(nat_fe51 *r, const nat_fe51 *a) {
  nat_fe51 t0, t1, t2, t3;
  nat_fe51_sq(&t0, a);               /* 2 */
  nat_fe51_sqn(&t1, &t0, 2);         /* 8 */
  nat_fe51_mul(&t1, a, &t1);         /* 9 */
  nat_fe51_mul(&t0, &t0, &t1);       /* 11 */
  nat_fe51_sq(&t2, &t0);             /* 22 */
  nat_fe51_mul(&t1, &t1, &t2);       /* 2^5 - 1 */
  nat_fe51_sqn(&t2, &t1, 5);
  nat_fe51_mul(&t1, &t2, &t1);       /* 2^10 - 1 */
  nat_fe51_sqn(&t2, &t1, 10);
  nat_fe51_mul(&t2, &t2, &t1);       /* 2^20 - 1 */
  nat_fe51_sqn(&t3, &t2, 20);
  nat_fe51_mul(&t2, &t3, &t2);       /* 2^40 - 1 */
  nat_fe51_sqn(&t2, &t2, 10);
  nat_fe51_mul(&t1, &t2, &t1);       /* 2^50 - 1 */
  nat_fe51_sqn(&t2, &t1, 50);
  nat_fe51_mul(&t2, &t2, &t1);       /* 2^100 - 1 */
  nat_fe51_sqn(&t3, &t2, 100);
  nat_fe51_mul(&t2, &t3, &t2);       /* 2^200 - 1 */
  nat_fe51_sqn(&t2, &t2, 50);
  nat_fe51_mul(&t1, &t2, &t1);       /* 2^250 - 1 */
  nat_fe51_sqn(&t1, &t1, 5);         /* 2^255 - 32 */
  nat_fe51_mul(r, &t1, &t0);         /* 2^255 - 21 */
}

#endif
