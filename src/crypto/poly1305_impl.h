/* Poly1305 (RFC 8439, section 2.5) in several implementations behind poly1305.h; the dispatcher
 * (poly1305_dispatch.c) picks one when the library is loaded.
 *
 * Every implementation keeps the same state between calls, nat_poly1305_core, at the start of
 * libsodium's 256-byte state: the accumulator h = h[0] + h[1] 2^64 + h[2] 2^128 (partly reduced:
 * h[2] <= 4, so h < 2p), the clamped r = r[0] + r[1] 2^64, the pad s, and up to 15 bytes not yet
 * hashed. The vector kernels compute their powers of r and their lanes inside one call and fold
 * them back into h before they return, so a state made by any implementation, on either backend,
 * continues on any other. (The words are in the host's byte order; every target natrium builds for
 * is little-endian, and a big-endian build stamps its states differently: see poly1305.h.)
 *
 * A blocks function hashes `blocks` whole 16-byte blocks, each with the 2^128 bit set. */
#ifndef NAT_CRYPTO_POLY1305_IMPL_H
#define NAT_CRYPTO_POLY1305_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "poly1305.h"

typedef struct nat_poly1305_core {
  uint64_t h[3];
  uint64_t r[2];
  uint64_t pad[2];
  uint64_t leftover; /* bytes in buf, 0..15 */
  unsigned char buf[16];
} nat_poly1305_core;

_Static_assert(sizeof(nat_poly1305_core) + 4 <= sizeof(nat_poly1305_state), "the core leaves the stamp alone");

typedef void (*nat_poly1305_blocks_fn)(nat_poly1305_core *c, const unsigned char *m, size_t blocks);

/* Portable C, every platform: five 26-bit limbs (products in 64 bits). hibit is 1 for whole
 * blocks, 0 for the padded last block. */
void nat_poly1305_blocks_portable26(nat_poly1305_core *c, const unsigned char *m, size_t blocks,
                                    unsigned hibit);
/* h + pad mod 2^128 (h reduced mod p first), in 32-bit arithmetic. */
void nat_poly1305_finish_portable(const nat_poly1305_core *c, unsigned char tag[16]);

#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
#define NAT_POLY1305_64 1
/* Portable C where the compiler has a 64 x 64 -> 128-bit product: h in three 64-bit words. */
void nat_poly1305_blocks_portable64(nat_poly1305_core *c, const unsigned char *m, size_t blocks,
                                    unsigned hibit);
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(NAT_POLY1305_64)
#define NAT_POLY1305_X86 1
/* AVX2: 26-bit limbs, four lanes (r^1..r^4) from 32 blocks, two accumulators of four (r^1..r^8)
 * from 64; fewer go to portable64. */
void nat_poly1305_blocks_avx2(nat_poly1305_core *c, const unsigned char *m, size_t blocks);
/* AVX-512 IFMA: eight blocks at a time in 44-bit limbs (52-bit multiply-adds), r^1..r^8, from 16
 * blocks; fewer go to the AVX2 kernel. */
void nat_poly1305_blocks_avx512ifma(nat_poly1305_core *c, const unsigned char *m, size_t blocks);
/* From how many blocks the AVX2 kernel's four-lane code takes over (fewer: portable64), and from
 * how many the IFMA kernel's own code does (fewer: the AVX2 kernel). poly1305_dispatch.c hands
 * a run shorter than what the chosen kernel would itself pass on to portable64 straight to it. */
#ifndef NAT_POLY1305_AVX2_X4_MIN
#define NAT_POLY1305_AVX2_X4_MIN 32
#endif
#ifndef NAT_POLY1305_IFMA_MIN
#define NAT_POLY1305_IFMA_MIN 16
#endif
#endif

#if defined(__wasm_simd128__)
#define NAT_POLY1305_SIMD128 1
/* WebAssembly SIMD128: four blocks at a time in 26-bit limbs, r^1..r^4. From 16 blocks. */
void nat_poly1305_blocks_simd128(nat_poly1305_core *c, const unsigned char *m, size_t blocks);
#endif

/* The implementation the dispatcher chose: "portable", "avx2", "avx512ifma" or "simd128" (or
 * "portable26", forced for tests on a 64-bit build). */
const char *nat_poly1305_impl(void);

/* ---- 26-bit limb arithmetic, shared by the portable code and the vector kernels' setup ------ */

#define NAT_POLY1305_M26 0x3ffffffu

static inline uint64_t nat_poly1305_load64(const unsigned char *p) {
  return (uint64_t) p[0] | (uint64_t) p[1] << 8 | (uint64_t) p[2] << 16 | (uint64_t) p[3] << 24 |
         (uint64_t) p[4] << 32 | (uint64_t) p[5] << 40 | (uint64_t) p[6] << 48 | (uint64_t) p[7] << 56;
}

/* h (h[2] <= 4) as limbs: l4 < 2^27. */
static inline void nat_poly1305_split26(uint32_t l[5], const uint64_t h[3]) {
  l[0] = (uint32_t) h[0] & NAT_POLY1305_M26;
  l[1] = (uint32_t) (h[0] >> 26) & NAT_POLY1305_M26;
  l[2] = (uint32_t) (h[0] >> 52 | h[1] << 12) & NAT_POLY1305_M26;
  l[3] = (uint32_t) (h[1] >> 14) & NAT_POLY1305_M26;
  l[4] = (uint32_t) (h[1] >> 40 | h[2] << 24);
}

/* Limbs below 2^63 each, carried so that l0..l3 < 2^26 and l4 <= 2^26: the value stays below
 * 2^130 + 2^104 (the excess above 2^130 comes back times 5). */
static inline void nat_poly1305_carry26(uint64_t l[5]) {
  l[1] += l[0] >> 26; l[0] &= NAT_POLY1305_M26;
  l[2] += l[1] >> 26; l[1] &= NAT_POLY1305_M26;
  l[3] += l[2] >> 26; l[2] &= NAT_POLY1305_M26;
  l[4] += l[3] >> 26; l[3] &= NAT_POLY1305_M26;
  l[0] += (l[4] >> 26) * 5; l[4] &= NAT_POLY1305_M26;
  l[1] += l[0] >> 26; l[0] &= NAT_POLY1305_M26;
  l[2] += l[1] >> 26; l[1] &= NAT_POLY1305_M26;
  l[3] += l[2] >> 26; l[2] &= NAT_POLY1305_M26;
  l[4] += l[3] >> 26; l[3] &= NAT_POLY1305_M26;
}

/* Carried limbs back into words: h[2] <= 4. */
static inline void nat_poly1305_pack26(uint64_t h[3], uint64_t l[5]) {
  nat_poly1305_carry26(l);
  h[0] = l[0] | l[1] << 26 | l[2] << 52;
  h[1] = l[2] >> 12 | l[3] << 14 | l[4] << 40;
  h[2] = l[4] >> 24;
}

/* out = a b mod 2^130 - 5 for any limbs below 2^27 (no clamping assumed), carried as carry26
 * leaves them. */
static inline void nat_poly1305_mul26(uint32_t out[5], const uint32_t a[5], const uint32_t b[5]) {
  const uint64_t s1 = (uint64_t) b[1] * 5, s2 = (uint64_t) b[2] * 5, s3 = (uint64_t) b[3] * 5,
                 s4 = (uint64_t) b[4] * 5;
  uint64_t d[5];
  d[0] = (uint64_t) a[0] * b[0] + a[1] * s4 + a[2] * s3 + a[3] * s2 + a[4] * s1;
  d[1] = (uint64_t) a[0] * b[1] + (uint64_t) a[1] * b[0] + a[2] * s4 + a[3] * s3 + a[4] * s2;
  d[2] = (uint64_t) a[0] * b[2] + (uint64_t) a[1] * b[1] + (uint64_t) a[2] * b[0] + a[3] * s4 + a[4] * s3;
  d[3] = (uint64_t) a[0] * b[3] + (uint64_t) a[1] * b[2] + (uint64_t) a[2] * b[1] + (uint64_t) a[3] * b[0] +
         a[4] * s4;
  d[4] = (uint64_t) a[0] * b[4] + (uint64_t) a[1] * b[3] + (uint64_t) a[2] * b[2] + (uint64_t) a[3] * b[1] +
         (uint64_t) a[4] * b[0];
  /* d < 2^61: carry in 64 bits, then once more to bring every limb under 2^26 (+1 on l4) */
  d[1] += d[0] >> 26; d[0] &= NAT_POLY1305_M26;
  d[2] += d[1] >> 26; d[1] &= NAT_POLY1305_M26;
  d[3] += d[2] >> 26; d[2] &= NAT_POLY1305_M26;
  d[4] += d[3] >> 26; d[3] &= NAT_POLY1305_M26;
  d[0] += (d[4] >> 26) * 5; d[4] &= NAT_POLY1305_M26;
  nat_poly1305_carry26(d);
  for (int i = 0; i < 5; i++) out[i] = (uint32_t) d[i];
}

/* r's limbs (clamped: r < 2^124). */
static inline void nat_poly1305_r26(uint32_t l[5], const nat_poly1305_core *c) {
  const uint64_t r[3] = {c->r[0], c->r[1], 0};
  nat_poly1305_split26(l, r);
}

#ifdef NAT_POLY1305_64
/* h = h r for the clamped r (h[2] <= 4 in and out): the portable64 block without a message. Its
 * three 64 x 64-bit products make the powers of r a few times quicker than mul26's 25. */
static inline void nat_poly1305_mulr64(uint64_t h[3], const nat_poly1305_core *c) {
  const uint64_t r0 = c->r[0], r1 = c->r[1], s1 = r1 + (r1 >> 2);
  const uint64_t h0 = h[0], h1 = h[1], h2 = h[2];
  const unsigned __int128 d0 = (unsigned __int128) h0 * r0 + (unsigned __int128) h1 * s1;
  const unsigned __int128 d1 =
    (unsigned __int128) h0 * r1 + (unsigned __int128) h1 * r0 + (unsigned __int128) h2 * s1 + (uint64_t) (d0 >> 64);
  const uint64_t d2 = h2 * r0 + (uint64_t) (d1 >> 64);
  uint64_t k = (d2 >> 2) + (d2 & ~(uint64_t) 3);
  h[0] = (uint64_t) d0 + k;
  k = h[0] < k;
  h[1] = (uint64_t) d1 + k;
  h[2] = (d2 & 3) + (h[1] < k);
}

/* pw[k] = r^(k+1) for k < n, as words (h[2] <= 4). */
static inline void nat_poly1305_powers64(uint64_t pw[][3], int n, const nat_poly1305_core *c) {
  pw[0][0] = c->r[0];
  pw[0][1] = c->r[1];
  pw[0][2] = 0;
  for (int k = 1; k < n; k++) {
    pw[k][0] = pw[k - 1][0];
    pw[k][1] = pw[k - 1][1];
    pw[k][2] = pw[k - 1][2];
    nat_poly1305_mulr64(pw[k], c);
  }
}

/* The same as 26-bit limbs, carried (l0..l3 < 2^26, l4 <= 2^26). */
static inline void nat_poly1305_powers64_26(uint32_t pw[][5], int n, const nat_poly1305_core *c) {
  uint64_t w[8][3];
  nat_poly1305_powers64(w, n, c);
  for (int k = 0; k < n; k++) {
    uint32_t l[5];
    nat_poly1305_split26(l, w[k]);
    uint64_t x[5] = {l[0], l[1], l[2], l[3], l[4]};
    nat_poly1305_carry26(x);
    for (int i = 0; i < 5; i++) pw[k][i] = (uint32_t) x[i];
  }
}
#endif

/* pw[k] = r^(k+1) for k < n (4 or 8), as few multiplications deep as can be: r^3 and r^4 side
 * by side, then r^5 .. r^8 side by side. */
static inline void nat_poly1305_powers26(uint32_t pw[][5], int n, const nat_poly1305_core *c) {
  nat_poly1305_r26(pw[0], c);
  nat_poly1305_mul26(pw[1], pw[0], pw[0]);
  nat_poly1305_mul26(pw[2], pw[1], pw[0]);
  nat_poly1305_mul26(pw[3], pw[1], pw[1]);
  for (int k = 4; k < n; k++) nat_poly1305_mul26(pw[k], pw[3], pw[k - 4]);
}

#endif
