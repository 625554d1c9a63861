/* Keccak-f[1600] in 64-bit scalar C (see keccak.h), compiled for the baseline target and, on
 * x86-64, once more for BMI1 + BMI2 (chi's ~b & c becomes one andn, rotations rorx).
 *
 * The 25 lanes live in locals across all the blocks of an absorb (libsodium's reference code
 * loads and stores them around every permutation, and xors its input byte by byte). A round is
 * theta, rho, pi, chi and iota fused plane by plane (FIPS 202 section 3.2): theta's column
 * parities C, its D[x] = C[x-1] ^ rot(C[x+1], 1), then for each output plane the five lanes
 * that pi brings there, xored with D and rotated (rho), and chi across them. Two rounds per loop
 * step, the second writing back into the first's variables, so no state is copied. */
#include <string.h>

#include "keccak.h"

/* gcc's SLP vectoriser packs pairs of lanes into xmm registers here and loses (Zen 4, SHA3-256
 * 1 MB: 1047 TSC cycles per block against 773 without it); clang does not. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

/* The kernels are inlined into each entry point, which may be compiled for other targets. */
#if defined(__GNUC__) || defined(__clang__)
#define NAT_INLINE static inline __attribute__((always_inline))
#else
#define NAT_INLINE static inline
#endif

const uint64_t nat_keccak_round_constants[24] = {
  0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
  0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
  0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
  0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
  0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
  0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

static inline uint64_t load64_le(const unsigned char *p) {
  uint64_t x;
  memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}

static inline void store64_le(unsigned char *p, uint64_t x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  memcpy(p, &x, 8);
}

#define ROL64(x, n) ((x) << (n) | (x) >> (64 - (n)))

/* Lane (x, y) is A##i with i = x + 5y. Output plane y takes, at column x, input lane
 * (x + 3y mod 5, x) rotated by that lane's rho offset (FIPS 202 table 2); s0..s4 are those
 * input lanes, n0..n4 the offsets (n0 = 0 only for lane (0, 0): s0 of plane 0 is not rotated). */
#define CHI(E, y, b0, b1, b2, b3, b4)                                  \
  E##y##0 = (b0) ^ (~(b1) & (b2));                                     \
  E##y##1 = (b1) ^ (~(b2) & (b3));                                     \
  E##y##2 = (b2) ^ (~(b3) & (b4));                                     \
  E##y##3 = (b3) ^ (~(b4) & (b0));                                     \
  E##y##4 = (b4) ^ (~(b0) & (b1))

#define PLANE(E, y, s0, d0, n0, s1, d1, n1, s2, d2, n2, s3, d3, n3, s4, d4, n4) \
  do {                                                                          \
    const uint64_t b0_ = ROL64((s0) ^ (d0), n0), b1_ = ROL64((s1) ^ (d1), n1);  \
    const uint64_t b2_ = ROL64((s2) ^ (d2), n2), b3_ = ROL64((s3) ^ (d3), n3);  \
    const uint64_t b4_ = ROL64((s4) ^ (d4), n4);                                \
    CHI(E, y, b0_, b1_, b2_, b3_, b4_);                                         \
  } while (0)

/* One round from lanes A<y><x> into E<y><x>, with round constant rc. */
#define ROUND(A, E, rc)                                                                   \
  do {                                                                                    \
    const uint64_t c0 = A##00 ^ A##10 ^ A##20 ^ A##30 ^ A##40;                            \
    const uint64_t c1 = A##01 ^ A##11 ^ A##21 ^ A##31 ^ A##41;                            \
    const uint64_t c2 = A##02 ^ A##12 ^ A##22 ^ A##32 ^ A##42;                            \
    const uint64_t c3 = A##03 ^ A##13 ^ A##23 ^ A##33 ^ A##43;                            \
    const uint64_t c4 = A##04 ^ A##14 ^ A##24 ^ A##34 ^ A##44;                            \
    const uint64_t d0 = c4 ^ ROL64(c1, 1), d1 = c0 ^ ROL64(c2, 1);                        \
    const uint64_t d2 = c1 ^ ROL64(c3, 1), d3 = c2 ^ ROL64(c4, 1);                        \
    const uint64_t d4 = c3 ^ ROL64(c0, 1);                                                \
    {                                                                                     \
      const uint64_t b0_ = A##00 ^ d0, b1_ = ROL64(A##11 ^ d1, 44);                       \
      const uint64_t b2_ = ROL64(A##22 ^ d2, 43), b3_ = ROL64(A##33 ^ d3, 21);            \
      const uint64_t b4_ = ROL64(A##44 ^ d4, 14);                                         \
      CHI(E, 0, b0_, b1_, b2_, b3_, b4_);                                                 \
      E##00 ^= (rc);                                                                      \
    }                                                                                     \
    PLANE(E, 1, A##03, d3, 28, A##14, d4, 20, A##20, d0, 3, A##31, d1, 45, A##42, d2, 61); \
    PLANE(E, 2, A##01, d1, 1, A##12, d2, 6, A##23, d3, 25, A##34, d4, 8, A##40, d0, 18);   \
    PLANE(E, 3, A##04, d4, 27, A##10, d0, 36, A##21, d1, 10, A##32, d2, 15, A##43, d3, 56); \
    PLANE(E, 4, A##02, d2, 62, A##13, d3, 55, A##24, d4, 39, A##30, d0, 41, A##41, d1, 2);  \
  } while (0)

#define LANES(P)                                                                          \
  P##00, P##01, P##02, P##03, P##04, P##10, P##11, P##12, P##13, P##14, P##20, P##21,     \
    P##22, P##23, P##24, P##30, P##31, P##32, P##33, P##34, P##40, P##41, P##42, P##43,   \
    P##44

#define LOAD_STATE(A, st)                                                                 \
  do {                                                                                    \
    A##00 = load64_le(st + 0);    A##01 = load64_le(st + 8);    A##02 = load64_le(st + 16);  \
    A##03 = load64_le(st + 24);   A##04 = load64_le(st + 32);   A##10 = load64_le(st + 40);  \
    A##11 = load64_le(st + 48);   A##12 = load64_le(st + 56);   A##13 = load64_le(st + 64);  \
    A##14 = load64_le(st + 72);   A##20 = load64_le(st + 80);   A##21 = load64_le(st + 88);  \
    A##22 = load64_le(st + 96);   A##23 = load64_le(st + 104);  A##24 = load64_le(st + 112); \
    A##30 = load64_le(st + 120);  A##31 = load64_le(st + 128);  A##32 = load64_le(st + 136); \
    A##33 = load64_le(st + 144);  A##34 = load64_le(st + 152);  A##40 = load64_le(st + 160); \
    A##41 = load64_le(st + 168);  A##42 = load64_le(st + 176);  A##43 = load64_le(st + 184); \
    A##44 = load64_le(st + 192);                                                          \
  } while (0)

#define STORE_STATE(st, A)                                                                \
  do {                                                                                    \
    store64_le(st + 0, A##00);    store64_le(st + 8, A##01);    store64_le(st + 16, A##02);  \
    store64_le(st + 24, A##03);   store64_le(st + 32, A##04);   store64_le(st + 40, A##10);  \
    store64_le(st + 48, A##11);   store64_le(st + 56, A##12);   store64_le(st + 64, A##13);  \
    store64_le(st + 72, A##14);   store64_le(st + 80, A##20);   store64_le(st + 88, A##21);  \
    store64_le(st + 96, A##22);   store64_le(st + 104, A##23);  store64_le(st + 112, A##24); \
    store64_le(st + 120, A##30);  store64_le(st + 128, A##31);  store64_le(st + 136, A##32); \
    store64_le(st + 144, A##33);  store64_le(st + 152, A##34);  store64_le(st + 160, A##40); \
    store64_le(st + 168, A##41);  store64_le(st + 176, A##42);  store64_le(st + 184, A##43); \
    store64_le(st + 192, A##44);                                                          \
  } while (0)

/* rounds (24 or 12, even) of Keccak-p[1600] on the lanes a<y><x>. In wasm one round a loop
 * step, the lanes copied back after it: V8's register allocator spills less in the shorter loop
 * body (Node 20, Zen 5: 0.84x the time of two rounds a step, and half the code). */
#if defined(__wasm__)
#define PERMUTE(rounds)                                                                   \
  do {                                                                                    \
    for (unsigned int r_ = 24 - (rounds); r_ < 24; r_++) {                                \
      ROUND(a, e, nat_keccak_round_constants[r_]);                                        \
      a00 = e00; a01 = e01; a02 = e02; a03 = e03; a04 = e04; a10 = e10; a11 = e11;        \
      a12 = e12; a13 = e13; a14 = e14; a20 = e20; a21 = e21; a22 = e22; a23 = e23;        \
      a24 = e24; a30 = e30; a31 = e31; a32 = e32; a33 = e33; a34 = e34; a40 = e40;        \
      a41 = e41; a42 = e42; a43 = e43; a44 = e44;                                         \
    }                                                                                     \
  } while (0)
#else
#define PERMUTE(rounds)                                                                   \
  do {                                                                                    \
    for (unsigned int r_ = 24 - (rounds); r_ < 24; r_ += 2) {                             \
      ROUND(a, e, nat_keccak_round_constants[r_]);                                        \
      ROUND(e, a, nat_keccak_round_constants[r_ + 1]);                                    \
    }                                                                                     \
  } while (0)
#endif

NAT_INLINE void permute(unsigned char state[200], unsigned int rounds) {
  uint64_t LANES(a), LANES(e);

  LOAD_STATE(a, state);
  PERMUTE(rounds);
  STORE_STATE(state, a);
}

/* The block's lanes xored into the first rate / 8 lanes, in lane order. Inlined with a constant
 * rate for each of libsodium's three (SHA3-512 72, SHA3-256 and SHAKE256 136, SHAKE128 168), so
 * the lane tests fold away and the lanes stay in registers. */
#define XOR_LANE(i, lane) \
  if (8 * (i) < rate) lane ^= load64_le(in + 8 * (i))

NAT_INLINE void absorb(unsigned char state[200], const unsigned char *in, size_t blocks,
                       const size_t rate, unsigned int rounds) {
  uint64_t LANES(a), LANES(e);

  LOAD_STATE(a, state);
  for (; blocks > 0; blocks--, in += rate) {
    XOR_LANE(0, a00); XOR_LANE(1, a01); XOR_LANE(2, a02); XOR_LANE(3, a03); XOR_LANE(4, a04);
    XOR_LANE(5, a10); XOR_LANE(6, a11); XOR_LANE(7, a12); XOR_LANE(8, a13); XOR_LANE(9, a14);
    XOR_LANE(10, a20); XOR_LANE(11, a21); XOR_LANE(12, a22); XOR_LANE(13, a23);
    XOR_LANE(14, a24); XOR_LANE(15, a30); XOR_LANE(16, a31); XOR_LANE(17, a32);
    XOR_LANE(18, a33); XOR_LANE(19, a34); XOR_LANE(20, a40);
    PERMUTE(rounds);
  }
  STORE_STATE(state, a);
}

NAT_INLINE void absorb_rate(unsigned char state[200], const unsigned char *in, size_t blocks,
                            size_t rate, unsigned int rounds) {
  switch (rate) {
    case 72: absorb(state, in, blocks, 72, rounds); break;
    case 136: absorb(state, in, blocks, 136, rounds); break;
    case 168: absorb(state, in, blocks, 168, rounds); break;
    default: absorb(state, in, blocks, rate, rounds); break;
  }
}

void nat_keccak_permute_portable(unsigned char state[200], unsigned int rounds) {
  permute(state, rounds);
}

void nat_keccak_absorb_portable(unsigned char state[200], const unsigned char *in, size_t blocks,
                                size_t rate, unsigned int rounds) {
  absorb_rate(state, in, blocks, rate, rounds);
}

#ifdef NAT_KECCAK_X86
__attribute__((target("bmi,bmi2"))) void nat_keccak_permute_bmi2(unsigned char state[200],
                                                                  unsigned int rounds) {
  permute(state, rounds);
}

__attribute__((target("bmi,bmi2"))) void nat_keccak_absorb_bmi2(unsigned char state[200],
                                                                 const unsigned char *in,
                                                                 size_t blocks, size_t rate,
                                                                 unsigned int rounds) {
  absorb_rate(state, in, blocks, rate, rounds);
}
#endif
