/* SHA-256 and SHA-512 (FIPS 180-4), HMAC and HKDF on them, on libsodium's state structs: see
 * sha2.h.
 *
 * In this order: the portable compression functions (whole blocks); the x86-64 ones (SHA-512 on
 * AVX2 + BMI2, SHA-256 on SHA-NI) and the ARMv8 one (SHA-256); the dispatch that picks one per
 * hash once, at load time; the streaming code, which follows libsodium 1.0.22's
 * hash_sha256_cp.c and hash_sha512_cp.c step for step so that states stay byte-identical to
 * libsodium's; then HMAC, PBKDF2's inner loop and HKDF. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sha2.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NAT_SHA2_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

/* ARMv8 SHA-256 instructions: where the whole build targets them (Apple silicon, or
 * -march=...+crypto), or with gcc's target attribute behind a run-time check (clang before 16
 * cannot compile NEON intrinsics under a target attribute: portable code there). */
#if defined(__aarch64__) && \
  (defined(__ARM_FEATURE_SHA2) || (defined(__GNUC__) && !defined(__clang__)))
#define NAT_SHA2_ARM 1
#include <arm_neon.h>
#ifdef __ARM_FEATURE_SHA2
#define NAT_ARM_SHA2_TARGET
#else
#define NAT_ARM_SHA2_TARGET __attribute__((target("+crypto")))
#endif
#if defined(__linux__) && !defined(__ARM_FEATURE_SHA2)
#include <sys/auxv.h>
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1 << 6) /* Linux arch/arm64 uapi hwcap.h */
#endif
#endif
#endif

/* The one-block code is inlined into each compression function, which may be compiled for
 * other targets than the rest of the file. */
#if defined(__GNUC__) || defined(__clang__)
#define NAT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NAT_ALWAYS_INLINE inline
#endif

typedef void (*sha256_blocks_fn)(uint32_t st[8], const unsigned char *in, size_t blocks);
typedef void (*sha512_blocks_fn)(uint64_t st[8], const unsigned char *in, size_t blocks);

/* FIPS 180-4 section 4.2: the first 32 (64) bits of the fractional parts of the cube roots of
 * the first 64 (80) primes; section 5.3: the initial hash values (square roots of the first 8). */
static const uint32_t K256[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
  0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint64_t K512[80] = {
  0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL,
  0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
  0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL,
  0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
  0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
  0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
  0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL,
  0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
  0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL,
  0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
  0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL,
  0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
  0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL,
  0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
  0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
  0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
  0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL,
  0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
  0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL,
  0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
  0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL,
  0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
  0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL,
  0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
  0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
  0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
  0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static const uint32_t IV256[8] = {
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static const uint64_t IV512[8] = {
  0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
  0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

/* Big-endian loads and stores; compilers turn these into one load and a byte swap. (wasm32
 * loads the message 16 bytes at a time instead: see sha256_blocks_portable.) */
#ifndef __wasm_simd128__
static inline uint32_t load32_be(const unsigned char *p) {
  return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | (uint32_t) p[3];
}

static inline uint64_t load64_be(const unsigned char *p) {
  return (uint64_t) load32_be(p) << 32 | load32_be(p + 4);
}
#endif

static inline void store32_be(unsigned char *p, uint32_t x) {
  p[0] = (unsigned char) (x >> 24);
  p[1] = (unsigned char) (x >> 16);
  p[2] = (unsigned char) (x >> 8);
  p[3] = (unsigned char) x;
}

static inline void store64_be(unsigned char *p, uint64_t x) {
  store32_be(p, (uint32_t) (x >> 32));
  store32_be(p + 4, (uint32_t) x);
}

/* FIPS 180-4 section 4.1. Maj is written as ((x ^ y) & (y ^ z)) ^ y: in the next round y ^ z is
 * this round's x ^ y, which the compiler then reuses. */
#define ROTR32(x, n) ((x) >> (n) | (x) << (32 - (n)))
#define ROTR64(x, n) ((x) >> (n) | (x) << (64 - (n)))
#define CH(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))
#define MAJ(x, y, z) ((((x) ^ (y)) & ((y) ^ (z))) ^ (y))

#define BSIG0_256(x) (ROTR32(x, 2) ^ ROTR32(x, 13) ^ ROTR32(x, 22))
#define BSIG1_256(x) (ROTR32(x, 6) ^ ROTR32(x, 11) ^ ROTR32(x, 25))
#define SSIG0_256(x) (ROTR32(x, 7) ^ ROTR32(x, 18) ^ ((x) >> 3))
#define SSIG1_256(x) (ROTR32(x, 17) ^ ROTR32(x, 19) ^ ((x) >> 10))

#define BSIG0_512(x) (ROTR64(x, 28) ^ ROTR64(x, 34) ^ ROTR64(x, 39))
#define BSIG1_512(x) (ROTR64(x, 14) ^ ROTR64(x, 18) ^ ROTR64(x, 41))
#define SSIG0_512(x) (ROTR64(x, 1) ^ ROTR64(x, 8) ^ ((x) >> 7))
#define SSIG1_512(x) (ROTR64(x, 19) ^ ROTR64(x, 61) ^ ((x) >> 6))

/* One round (section 6.2.2 step 3) with the eight working variables renamed instead of moved:
 * the caller rotates the argument list. kw is K_t + W_t. */
#define WORD_256 uint32_t
#define WORD_512 uint64_t
#define ROUND(T, a, b, c, d, e, f, g, h, kw)                                \
  do {                                                                      \
    WORD_##T t1_ = (h) + (kw) + CH(e, f, g) + BSIG1_##T(e);                 \
    (d) += t1_;                                                             \
    (h) = t1_ + BSIG0_##T(a) + MAJ(a, b, c);                                \
  } while (0)

/* Rounds t..t+7, on schedule ring words j..j+7 (j = 0 or 8, a literal, so that every ring
 * index is a constant and the ring can stay in registers). KW(T, t, j) yields K_t + W_t. */
#define ROUNDS8(T, KW, t, j)                                                \
  do {                                                                      \
    ROUND(T, a, b, c, d, e, f, g, h, KW(T, (t) + 0, (j) + 0));              \
    ROUND(T, h, a, b, c, d, e, f, g, KW(T, (t) + 1, (j) + 1));              \
    ROUND(T, g, h, a, b, c, d, e, f, KW(T, (t) + 2, (j) + 2));              \
    ROUND(T, f, g, h, a, b, c, d, e, KW(T, (t) + 3, (j) + 3));              \
    ROUND(T, e, f, g, h, a, b, c, d, KW(T, (t) + 4, (j) + 4));              \
    ROUND(T, d, e, f, g, h, a, b, c, KW(T, (t) + 5, (j) + 5));              \
    ROUND(T, c, d, e, f, g, h, a, b, KW(T, (t) + 6, (j) + 6));              \
    ROUND(T, b, c, d, e, f, g, h, a, KW(T, (t) + 7, (j) + 7));              \
  } while (0)

#define ROUNDS16(T, KW, t)                                                  \
  do {                                                                      \
    ROUNDS8(T, KW, t, 0);                                                   \
    ROUNDS8(T, KW, (t) + 8, 8);                                             \
  } while (0)

/* The message schedule (section 6.2.2 step 1) as a ring of 16 words, w[t mod 16]: the first 16
 * are the block's words, each later one replaces the word 16 rounds older. */
#define KW_LOADED(T, t, j) (K##T[t] + w[j])
#define KW_NEXT(T, t, j)                                                    \
  (K##T[t] + (w[j] += SSIG1_##T(w[((j) + 14) & 15]) + w[((j) + 9) & 15] +   \
                      SSIG0_##T(w[((j) + 1) & 15])))

#define LOAD_256 load32_be
#define LOAD_512 load64_be
#define ROUNDS_256 64
#define ROUNDS_512 80

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* wasm32: the rounds fully unrolled with the working variables renamed, the message loaded 16
 * bytes at a time and byte-swapped by one i8x16.shuffle (wasm has no byte swap: clang otherwise
 * shifts and masks each word), and the message schedule computed in SIMD128 registers, K added
 * there too; the scalar rounds take K + W out of them lane by lane. Everything stays in wasm
 * locals, outside linear memory, so there is nothing to wipe. Against libsodium-wrappers-sumo
 * 0.8.4 in one Node process (alternated rounds, median ratio, > 1 = faster; four runs), the
 * previous portable code here was at 0.85x / 0.98x / 0.99x (SHA-256 64 B / 1 KB / 1 MB) and
 * 1.00x / 0.95x / 0.88x (SHA-512); unrolling with the scalar schedule in locals and the shuffle
 * loads gained 10-25 % at 1 KB and 1 MB, and the SIMD128 schedules as much again: now
 * 1.13-1.18x / 1.34-1.46x / 1.42-1.53x and 1.01-1.10x / 1.22-1.34x / 1.42-1.50x. At 64 B most
 * of a call is the JS glue's. -O3 and clang's auto-vectorisation on this file gained nothing once
 * unrolled; nor did storing the digest with a shuffle, nor -mbulk-memory (within the noise). */
#define BSWAP32X4(v) wasm_i8x16_shuffle(v, v, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)
#define BSWAP64X2(v) wasm_i8x16_shuffle(v, v, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8)

/* SHA-256's schedule in SIMD128: x0..x3 hold words 4i..4i+3 of the 16-word ring. A step makes
 * W_t..W_{t+3}; sigma1 of W_{t+2}, W_{t+3} needs W_t, W_{t+1}, so it runs twice, on the halves. */
#define V_ROR32(x, n) wasm_v128_or(wasm_u32x4_shr(x, n), wasm_i32x4_shl(x, 32 - (n)))
#define V_ALIGN32(lo, hi) wasm_i32x4_shuffle(lo, hi, 1, 2, 3, 4)
#define V_SSIG0_256(x) \
  wasm_v128_xor(wasm_v128_xor(V_ROR32(x, 7), V_ROR32(x, 18)), wasm_u32x4_shr(x, 3))
#define V_SSIG1_256(x) \
  wasm_v128_xor(wasm_v128_xor(V_ROR32(x, 17), V_ROR32(x, 19)), wasm_u32x4_shr(x, 10))
#define V_NEXT_256(x0, x1, x2, x3)                                                        \
  do {                                                                                    \
    v128_t s_ = wasm_i32x4_add(wasm_i32x4_add(x0, V_SSIG0_256(V_ALIGN32(x0, x1))),        \
                               V_ALIGN32(x2, x3));                                        \
    v128_t lo_ = wasm_i32x4_add(s_, V_SSIG1_256(wasm_i32x4_shuffle(x3, x3, 2, 3, 2, 3))); \
    v128_t hi_ = wasm_i32x4_add(s_, V_SSIG1_256(wasm_i32x4_shuffle(lo_, lo_, 0, 1, 0, 1))); \
    x0 = wasm_i32x4_shuffle(lo_, hi_, 0, 1, 6, 7);                                        \
  } while (0)
#define V_NONE_256(x0, x1, x2, x3) (void) 0
/* Four rounds, t..t+3, on quad x. */
#define ROUND4_256(a, b, c, d, e, f, g, h, t, x)                                          \
  do {                                                                                    \
    v128_t kw_ = wasm_i32x4_add(x, wasm_v128_load(&K256[t]));                             \
    ROUND(256, a, b, c, d, e, f, g, h, (uint32_t) wasm_i32x4_extract_lane(kw_, 0));      \
    ROUND(256, h, a, b, c, d, e, f, g, (uint32_t) wasm_i32x4_extract_lane(kw_, 1));      \
    ROUND(256, g, h, a, b, c, d, e, f, (uint32_t) wasm_i32x4_extract_lane(kw_, 2));      \
    ROUND(256, f, g, h, a, b, c, d, e, (uint32_t) wasm_i32x4_extract_lane(kw_, 3));      \
  } while (0)
#define ROUNDS16_256(t, S)                                                                \
  do {                                                                                    \
    S(x0, x1, x2, x3); ROUND4_256(a, b, c, d, e, f, g, h, (t) + 0, x0);                   \
    S(x1, x2, x3, x0); ROUND4_256(e, f, g, h, a, b, c, d, (t) + 4, x1);                   \
    S(x2, x3, x0, x1); ROUND4_256(a, b, c, d, e, f, g, h, (t) + 8, x2);                   \
    S(x3, x0, x1, x2); ROUND4_256(e, f, g, h, a, b, c, d, (t) + 12, x3);                  \
  } while (0)

static void sha256_blocks_portable(uint32_t st[8], const unsigned char *in, size_t blocks) {
  for (; blocks > 0; blocks--, in += 64) {
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6],
             h = st[7];
    v128_t x0 = BSWAP32X4(wasm_v128_load(in)), x1 = BSWAP32X4(wasm_v128_load(in + 16)),
           x2 = BSWAP32X4(wasm_v128_load(in + 32)), x3 = BSWAP32X4(wasm_v128_load(in + 48));
    ROUNDS16_256(0, V_NONE_256);
    ROUNDS16_256(16, V_NEXT_256);
    ROUNDS16_256(32, V_NEXT_256);
    ROUNDS16_256(48, V_NEXT_256);
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;
    st[4] += e; st[5] += f; st[6] += g; st[7] += h;
  }
}

/* SHA-512's schedule in SIMD128: x0..x7 hold words (2i, 2i+1) of the 16-word ring, and one step
 * makes the next pair from the pair 16 words older (W_{t-16}, W_{t-15}), the two pairs around
 * W_{t-7}, W_{t-6} and the pair W_{t-2}, W_{t-1}, all in registers; K is added there too. */
#define V_ROR64(x, n) wasm_v128_or(wasm_u64x2_shr(x, n), wasm_i64x2_shl(x, 64 - (n)))
#define V_ALIGN64(lo, hi) wasm_i8x16_shuffle(lo, hi, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, \
                                             19, 20, 21, 22, 23)
#define V_SSIG0(x) \
  wasm_v128_xor(wasm_v128_xor(V_ROR64(x, 1), V_ROR64(x, 8)), wasm_u64x2_shr(x, 7))
#define V_SSIG1(x) \
  wasm_v128_xor(wasm_v128_xor(V_ROR64(x, 19), V_ROR64(x, 61)), wasm_u64x2_shr(x, 6))
#define V_NEXT(x0, x1, x4, x5, x7)                                                        \
  x0 = wasm_i64x2_add(wasm_i64x2_add(x0, V_SSIG0(V_ALIGN64(x0, x1))),                     \
                      wasm_i64x2_add(V_ALIGN64(x4, x5), V_SSIG1(x7)))
/* Two rounds, t and t + 1, on pair x. */
#define ROUND2_512(a, b, c, d, e, f, g, h, t, x)                                          \
  do {                                                                                    \
    v128_t kw_ = wasm_i64x2_add(x, wasm_v128_load(&K512[t]));                             \
    ROUND(512, a, b, c, d, e, f, g, h, (uint64_t) wasm_i64x2_extract_lane(kw_, 0));      \
    ROUND(512, h, a, b, c, d, e, f, g, (uint64_t) wasm_i64x2_extract_lane(kw_, 1));      \
  } while (0)
#define ROUNDS16_512(t, S)                                                                \
  do {                                                                                    \
    S(x0, x1, x4, x5, x7); ROUND2_512(a, b, c, d, e, f, g, h, (t) + 0, x0);               \
    S(x1, x2, x5, x6, x0); ROUND2_512(g, h, a, b, c, d, e, f, (t) + 2, x1);               \
    S(x2, x3, x6, x7, x1); ROUND2_512(e, f, g, h, a, b, c, d, (t) + 4, x2);               \
    S(x3, x4, x7, x0, x2); ROUND2_512(c, d, e, f, g, h, a, b, (t) + 6, x3);               \
    S(x4, x5, x0, x1, x3); ROUND2_512(a, b, c, d, e, f, g, h, (t) + 8, x4);               \
    S(x5, x6, x1, x2, x4); ROUND2_512(g, h, a, b, c, d, e, f, (t) + 10, x5);              \
    S(x6, x7, x2, x3, x5); ROUND2_512(e, f, g, h, a, b, c, d, (t) + 12, x6);              \
    S(x7, x0, x3, x4, x6); ROUND2_512(c, d, e, f, g, h, a, b, (t) + 14, x7);              \
  } while (0)
#define V_NONE(x0, x1, x4, x5, x7) (void) 0

static void sha512_blocks_portable(uint64_t st[8], const unsigned char *in, size_t blocks) {
  for (; blocks > 0; blocks--, in += 128) {
    uint64_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6],
             h = st[7];
    v128_t x0 = BSWAP64X2(wasm_v128_load(in)), x1 = BSWAP64X2(wasm_v128_load(in + 16)),
           x2 = BSWAP64X2(wasm_v128_load(in + 32)), x3 = BSWAP64X2(wasm_v128_load(in + 48)),
           x4 = BSWAP64X2(wasm_v128_load(in + 64)), x5 = BSWAP64X2(wasm_v128_load(in + 80)),
           x6 = BSWAP64X2(wasm_v128_load(in + 96)), x7 = BSWAP64X2(wasm_v128_load(in + 112));
    ROUNDS16_512(0, V_NONE);
    ROUNDS16_512(16, V_NEXT);
    ROUNDS16_512(32, V_NEXT);
    ROUNDS16_512(48, V_NEXT);
    ROUNDS16_512(64, V_NEXT);
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;
    st[4] += e; st[5] += f; st[6] += g; st[7] += h;
  }
}
#else
/* One block, from `in` into st; w is the caller's (it wipes it once, after its last block). */
#define COMPRESS(T)                                                                       \
  do {                                                                                    \
    WORD_##T a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], \
             h = st[7];                                                                   \
    for (int j = 0; j < 16; j++) w[j] = LOAD_##T(in + sizeof(WORD_##T) * j);             \
    ROUNDS16(T, KW_LOADED, 0);                                                            \
    for (int t = 16; t < ROUNDS_##T; t += 16) ROUNDS16(T, KW_NEXT, t);                    \
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;                                       \
    st[4] += e; st[5] += f; st[6] += g; st[7] += h;                                       \
  } while (0)

static NAT_ALWAYS_INLINE void sha256_compress(uint32_t st[8], const unsigned char *in,
                                              uint32_t w[16]) {
  COMPRESS(256);
}

static NAT_ALWAYS_INLINE void sha512_compress(uint64_t st[8], const unsigned char *in,
                                              uint64_t w[16]) {
  COMPRESS(512);
}

static void sha256_blocks_portable(uint32_t st[8], const unsigned char *in, size_t blocks) {
  uint32_t w[16];
  for (; blocks > 0; blocks--, in += 64) sha256_compress(st, in, w);
  sodium_memzero(w, sizeof w);
}

static void sha512_blocks_portable(uint64_t st[8], const unsigned char *in, size_t blocks) {
  uint64_t w[16];
  for (; blocks > 0; blocks--, in += 128) sha512_compress(st, in, w);
  sodium_memzero(w, sizeof w);
}
#endif

#ifdef NAT_SHA2_X86
/* SHA-512 on AVX2 + BMI2, two blocks at a time. The message schedule of both blocks is computed
 * in ymm registers (words 2i and 2i+1 of the first block in the low 128-bit lane, of the second
 * in the high lane), K is added there too, and the sums are stored; the rounds stay scalar (rorx
 * rotates without touching flags) and read them back. The first block's rounds are interleaved
 * in the source with the vector schedule of words they do not need yet, one schedule step every
 * two rounds, so the CPU runs them side by side on its integer and vector units (gcc schedules
 * little on x86: the source order largely stands); the second block's rounds find all their
 * words ready. Measured on Zen 3 against two alternatives: computing the next pair's
 * schedule during both blocks of this pair was 5% slower, carrying b ^ c between rounds by hand
 * for Maj (in the old round order) 4% slower. On Zen 4 (family 25, model 17), 1 MB, TSC cycles
 * per byte against OpenSSL 3.0's AVX2 + BMI2 assembly in one process: the round order of
 * ROUND_X and the unrolling 3.10 -> 2.94 (0.95x -> 1.00x OpenSSL); computing the schedule
 * first, then the rounds: 0.83x; the schedule with AVX-512VL rotates (vprorq, vpternlogq):
 * +1 %; the rounds themselves in xmm registers with AVX-512VL (vpternlogq for Ch, Maj and the
 * Sigmas: 16 operations a round instead of 22) and the schedule on the integer ALUs: 0.79x (the
 * vector latencies lengthen the round's dependency chain).
 *
 * The function is written once (NAT_SHA512_BLOCKS_X86) and built twice: with AVX2's schedule,
 * and with AVX-512VL's, whose sigmas take 4 instructions instead of 7 and 9 (vprorq, and
 * vpternlogq for the three-way xor) on the same ymm registers. On Zen 5 (family 26 model 2),
 * whose cores here run at most about four integer operations a cycle, every instruction counts:
 * TSC cycles per byte, bench/sha2.c, medians of 15 alternated rounds in four runs, AVX2 /
 * AVX-512VL / OpenSSL 3.0.19's assembly: 100 KB 3.09-3.26 / 2.98-3.10 / 2.94-3.11, 1 MB
 * 3.05-3.22 / 2.99-3.23 / 2.91-3.13. A schedule of four blocks at once in zmm registers was no
 * faster than AVX-512VL's two (the vector work is not what limits), nor was unrolling the 64
 * rounds that carry it. CPUs with AVX-512VL run it (Zen 4 +1 %, see above); NATRIUM_SHA512_IMPL
 * forces portable, avx2 or avx512vl (where the CPU has it), for the tests. */
static uint64_t K512_PAIRS[160] __attribute__((aligned(32))); /* K512 pairs, each twice: filled
                                                                 by nat_sha2_dispatch() */

#define V_ROR64(x, n) _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - (n)))
/* sigma0: ror 1 ^ ror 8 (a byte shuffle) ^ shr 7; sigma1: ror 19 ^ ror 61 ^ shr 6. */
#define V_SSIG0(x)                                                                        \
  _mm256_xor_si256(_mm256_xor_si256(V_ROR64(x, 1), _mm256_shuffle_epi8(x, V_ROR8)),       \
                   _mm256_srli_epi64(x, 7))
#define V_ROR8                                                                            \
  _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1, 8, 15, 14, 13, 12, 11, \
                  10, 9, 0, 7, 6, 5, 4, 3, 2, 1)
#define V_SSIG1(x)                                                                        \
  _mm256_xor_si256(_mm256_xor_si256(V_ROR64(x, 19), V_ROR64(x, 61)), _mm256_srli_epi64(x, 6))

/* kw[2t .. 2t+3] = K + W for words t, t+1 of both blocks. */
#define V_STORE_KW(x, t)                                                                  \
  _mm256_store_si256(                                                                     \
    (__m256i *) &kw[2 * (t)],                                                             \
    _mm256_add_epi64(x, _mm256_load_si256((const __m256i *) &K512_PAIRS[2 * (t)])))

/* One schedule step on ring slot x0 (words t, t+1): x0 = W_{t-16..t-15}, x1 the pair after it,
 * x4, x5 hold W_{t-7}, W_{t-6}, x7 = W_{t-2..t-1}. */
#define V_SCHEDULE(x0, x1, x4, x5, x7, t)                                                 \
  do {                                                                                    \
    x0 = _mm256_add_epi64(                                                                \
      _mm256_add_epi64(x0, V_SSIG0(_mm256_alignr_epi8(x1, x0, 8))),                       \
      _mm256_add_epi64(_mm256_alignr_epi8(x5, x4, 8), V_SSIG1(x7)));                      \
    V_STORE_KW(x0, t);                                                                    \
  } while (0)

/* The round for this path, in the order the instructions should issue (gcc keeps the source
 * order on x86): Ch as (e & f) + (~e & g) (disjoint bits, so + is |; andn); Maj as
 * ((a ^ b) & (b ^ c)) ^ b with b ^ c carried in bc from the round before (its a ^ b); and
 * Sigma0(a) not added to the new a at the end but at the start of the next round, in s0, so the
 * last xor of Sigma0 is off the path into the next round's Sigma1 and Ch. h becomes the new a
 * minus s0. 22 integer operations, as few as the formulas allow: on Zen 4 the four integer
 * ALUs are the limit. */
#define ROUND_X(a, b, c, d, e, f, g, h, kw)                                               \
  do {                                                                                    \
    uint64_t t0_, t1_, t2_, t4_;                                                          \
    (h) += (kw);                                                                          \
    t4_ = (f) & (e);                                                                      \
    t0_ = ROTR64(e, 41);                                                                  \
    t2_ = ROTR64(e, 18);                                                                  \
    (a) += s0;                                                                            \
    (h) += t4_;                                                                           \
    t4_ = ~(e) & (g);                                                                     \
    t0_ ^= t2_;                                                                           \
    t1_ = ROTR64(e, 14);                                                                  \
    (h) += t4_;                                                                           \
    t0_ ^= t1_;                                                                           \
    t2_ = (a) ^ (b);                                                                      \
    t4_ = ROTR64(a, 39);                                                                  \
    (h) += t0_;                                                                           \
    t1_ = ROTR64(a, 34);                                                                  \
    t0_ = ROTR64(a, 28);                                                                  \
    (d) += (h);                                                                           \
    bc &= t2_;                                                                            \
    t1_ ^= t4_;                                                                           \
    bc ^= (b);                                                                            \
    t1_ ^= t0_;                                                                           \
    (h) += bc;                                                                            \
    s0 = t1_;                                                                             \
    bc = t2_;                                                                             \
  } while (0)

/* K_t + W_t of this block: p points at the stored pair of word t0, rounds t0 + j. */
#define KW_STORED(j) p[((j) & ~1) * 2 + ((j) & 1)]

/* Rounds t0..t0+15 (words from p), and when S is V_SCHEDULE, words t0+16..t0+31 of both
 * blocks; S = NO_SCHEDULE for the last 16 rounds and the second block. */
#define NO_SCHEDULE(x0, x1, x4, x5, x7, t) ((void) 0)
#define ROUNDS16_X(S, t0)                                                                 \
  do {                                                                                    \
    ROUND_X(a, b, c, d, e, f, g, h, KW_STORED(0));                                        \
    ROUND_X(h, a, b, c, d, e, f, g, KW_STORED(1));                                        \
    S(x0, x1, x4, x5, x7, (t0) + 16);                                                     \
    ROUND_X(g, h, a, b, c, d, e, f, KW_STORED(2));                                        \
    ROUND_X(f, g, h, a, b, c, d, e, KW_STORED(3));                                        \
    S(x1, x2, x5, x6, x0, (t0) + 18);                                                     \
    ROUND_X(e, f, g, h, a, b, c, d, KW_STORED(4));                                        \
    ROUND_X(d, e, f, g, h, a, b, c, KW_STORED(5));                                        \
    S(x2, x3, x6, x7, x1, (t0) + 20);                                                     \
    ROUND_X(c, d, e, f, g, h, a, b, KW_STORED(6));                                        \
    ROUND_X(b, c, d, e, f, g, h, a, KW_STORED(7));                                        \
    S(x3, x4, x7, x0, x2, (t0) + 22);                                                     \
    ROUND_X(a, b, c, d, e, f, g, h, KW_STORED(8));                                        \
    ROUND_X(h, a, b, c, d, e, f, g, KW_STORED(9));                                        \
    S(x4, x5, x0, x1, x3, (t0) + 24);                                                     \
    ROUND_X(g, h, a, b, c, d, e, f, KW_STORED(10));                                       \
    ROUND_X(f, g, h, a, b, c, d, e, KW_STORED(11));                                       \
    S(x5, x6, x1, x2, x4, (t0) + 26);                                                     \
    ROUND_X(e, f, g, h, a, b, c, d, KW_STORED(12));                                       \
    ROUND_X(d, e, f, g, h, a, b, c, KW_STORED(13));                                       \
    S(x6, x7, x2, x3, x5, (t0) + 28);                                                     \
    ROUND_X(c, d, e, f, g, h, a, b, KW_STORED(14));                                       \
    ROUND_X(b, c, d, e, f, g, h, a, KW_STORED(15));                                       \
    S(x7, x0, x3, x4, x6, (t0) + 30);                                                     \
  } while (0)

/* Words 2i, 2i+1 of block lo in the low lane, of block hi in the high lane, byte-swapped. */
#define V_LOAD(lo, hi, i)                                                                 \
  _mm256_shuffle_epi8(                                                                    \
    _mm256_inserti128_si256(                                                              \
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *) ((lo) + 16 * (i)))),       \
      _mm_loadu_si128((const __m128i *) ((hi) + 16 * (i))), 1),                           \
    bswap)

#define NAT_SHA512_BLOCKS_X86(name, attributes)                                          \
  attributes static void name(uint64_t st[8], const unsigned char *in, size_t blocks) {    \
  uint64_t kw[160] __attribute__((aligned(32)));                                                 \
  const __m256i bswap = _mm256_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,    \
                                        8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);   \
  while (blocks > 0) {                                                                           \
    /* a lone last block fills both lanes (its schedule costs the same as one lane's) */         \
    const size_t n = blocks > 1 ? 2 : 1;                                                         \
    const unsigned char *hi = in + 128 * (n - 1);                                                \
    __m256i x0 = V_LOAD(in, hi, 0), x1 = V_LOAD(in, hi, 1), x2 = V_LOAD(in, hi, 2);              \
    __m256i x3 = V_LOAD(in, hi, 3), x4 = V_LOAD(in, hi, 4), x5 = V_LOAD(in, hi, 5);              \
    __m256i x6 = V_LOAD(in, hi, 6), x7 = V_LOAD(in, hi, 7);                                      \
    uint64_t a, b, c, d, e, f, g, h;                                                             \
    const uint64_t *p;                                                                           \
    V_STORE_KW(x0, 0); V_STORE_KW(x1, 2); V_STORE_KW(x2, 4); V_STORE_KW(x3, 6);                  \
    V_STORE_KW(x4, 8); V_STORE_KW(x5, 10); V_STORE_KW(x6, 12); V_STORE_KW(x7, 14);               \
    for (size_t blk = 0; blk < n; blk++) {                                                       \
      uint64_t s0 = 0, bc;                                                                       \
      a = st[0]; b = st[1]; c = st[2]; d = st[3]; e = st[4]; f = st[5]; g = st[6]; h = st[7];    \
      bc = b ^ c;                                                                                \
      p = kw + 2 * blk;                                                                          \
      /* Loops of 16 rounds, not 160 rounds unrolled: the unrolled function was ~4,000           \
       * instructions, more than Zen 3's op cache holds (4K ops), so every round went through    \
       * the 4-wide decoders, which run ~25 instructions a round slower than the four ALUs run   \
       * its 22 operations: 1 MB at 0.87x OpenSSL's assembly there (TSC cycles, one process,     \
       * alternated), the loops 0.98-1.03x. On Zen 4 (6.75K ops) the unrolled code fitted and    \
       * was 2 % faster than loops; it is the one that loses badly where the cache is small. */  \
      if (blk == 0) {                                                                            \
        _Pragma("GCC unroll 1")                                                                  \
        for (size_t t = 0; t < 64; t += 16) {                                                    \
          ROUNDS16_X(V_SCHEDULE, t);                                                             \
          p += 32;                                                                               \
        }                                                                                        \
      }                                                                                          \
      _Pragma("GCC unroll 1")                                                                    \
      for (size_t r = blk == 0 ? 4 : 0; r < 5; r++) {                                            \
        ROUNDS16_X(NO_SCHEDULE, 0);                                                              \
        p += 32;                                                                                 \
      }                                                                                          \
      a += s0;                                                                                   \
      st[0] += a; st[1] += b; st[2] += c; st[3] += d;                                            \
      st[4] += e; st[5] += f; st[6] += g; st[7] += h;                                            \
    }                                                                                            \
    in += 128 * n;                                                                               \
    blocks -= n;                                                                                 \
  }                                                                                              \
  sodium_memzero(kw, sizeof kw);                                                                 \
}

NAT_SHA512_BLOCKS_X86(sha512_blocks_avx2, __attribute__((target("avx2,bmi,bmi2"))))

/* The same with AVX-512VL's rotates and three-way xor in the schedule (same ymm registers). */
#undef V_SSIG0
#undef V_SSIG1
#define V_SSIG0(x)                                                                        \
  _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 1), _mm256_ror_epi64(x, 8),              \
                            _mm256_srli_epi64(x, 7), 0x96)
#define V_SSIG1(x)                                                                        \
  _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 19), _mm256_ror_epi64(x, 61),            \
                            _mm256_srli_epi64(x, 6), 0x96)
NAT_SHA512_BLOCKS_X86(sha512_blocks_avx512vl, __attribute__((target("avx2,bmi,bmi2,avx512f,avx512vl"))))

/* SHA-256 with the SHA extensions (Intel's "SHA extensions" white paper, 2013): sha256rnds2 does
 * two rounds on the state split as ABEF and CDGH; sha256msg1/msg2 compute four schedule words. */
#define SHANI_ROUNDS4(w, i)                                                               \
  do {                                                                                    \
    __m128i kw_ = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *) &K256[4 * (i)]));    \
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, kw_);                                        \
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(kw_, 0x0e));               \
  } while (0)

/* w0 = W_{t..t+3} from w0 = W_{t-16..}, w1 = W_{t-12..}, w2 = W_{t-8..}, w3 = W_{t-4..}. */
#define SHANI_SCHEDULE(w0, w1, w2, w3)                                                    \
  (w0 = _mm_sha256msg2_epu32(                                                              \
     _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4)), w3))

#define SHANI_NEXT16(i)                                                                   \
  do {                                                                                    \
    SHANI_SCHEDULE(w0, w1, w2, w3); SHANI_ROUNDS4(w0, (i) + 0);                           \
    SHANI_SCHEDULE(w1, w2, w3, w0); SHANI_ROUNDS4(w1, (i) + 1);                           \
    SHANI_SCHEDULE(w2, w3, w0, w1); SHANI_ROUNDS4(w2, (i) + 2);                           \
    SHANI_SCHEDULE(w3, w0, w1, w2); SHANI_ROUNDS4(w3, (i) + 3);                           \
  } while (0)

__attribute__((target("sha,sse4.1"))) static void sha256_blocks_shani(uint32_t st[8],
                                                                       const unsigned char *in,
                                                                       size_t blocks) {
  const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
  __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *) &st[0]), 0xb1); /* B A D C */
  __m128i u = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *) &st[4]), 0x1b); /* H G F E */
  /* lanes from low to high: abef = F E B A, cdgh = H G D C */
  __m128i abef = _mm_alignr_epi8(t, u, 8);
  __m128i cdgh = _mm_blend_epi16(u, t, 0xf0);

  for (; blocks > 0; blocks--, in += 64) {
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (in + 0)), bswap);
    __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (in + 16)), bswap);
    __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (in + 32)), bswap);
    __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (in + 48)), bswap);
    SHANI_ROUNDS4(w0, 0);
    SHANI_ROUNDS4(w1, 1);
    SHANI_ROUNDS4(w2, 2);
    SHANI_ROUNDS4(w3, 3);
    SHANI_NEXT16(4);
    SHANI_NEXT16(8);
    SHANI_NEXT16(12);
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
  }
  t = _mm_shuffle_epi32(abef, 0x1b); /* A B E F */
  u = _mm_shuffle_epi32(cdgh, 0xb1); /* G H C D */
  _mm_storeu_si128((__m128i *) &st[0], _mm_blend_epi16(t, u, 0xf0));
  _mm_storeu_si128((__m128i *) &st[4], _mm_alignr_epi8(u, t, 8));
}
#endif

#ifdef NAT_SHA2_ARM
/* SHA-256 with the ARMv8 cryptography extension: sha256h/sha256h2 do four rounds on the state
 * halves ABCD and EFGH, sha256su0/su1 compute four schedule words. */
#define ARM_ROUNDS4(w, i)                                                                 \
  do {                                                                                    \
    const uint32x4_t kw_ = vaddq_u32(w, vld1q_u32(&K256[4 * (i)]));                       \
    const uint32x4_t abcd_ = abcd;                                                        \
    abcd = vsha256hq_u32(abcd, efgh, kw_);                                                \
    efgh = vsha256h2q_u32(efgh, abcd_, kw_);                                              \
  } while (0)

#define ARM_SCHEDULE(w0, w1, w2, w3) (w0 = vsha256su1q_u32(vsha256su0q_u32(w0, w1), w2, w3))

#define ARM_NEXT16(i)                                                                     \
  do {                                                                                    \
    ARM_SCHEDULE(w0, w1, w2, w3); ARM_ROUNDS4(w0, (i) + 0);                               \
    ARM_SCHEDULE(w1, w2, w3, w0); ARM_ROUNDS4(w1, (i) + 1);                               \
    ARM_SCHEDULE(w2, w3, w0, w1); ARM_ROUNDS4(w2, (i) + 2);                               \
    ARM_SCHEDULE(w3, w0, w1, w2); ARM_ROUNDS4(w3, (i) + 3);                               \
  } while (0)

#define ARM_LOAD(p) vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)))

NAT_ARM_SHA2_TARGET static void sha256_blocks_armv8(uint32_t st[8], const unsigned char *in,
                                                    size_t blocks) {
  uint32x4_t abcd = vld1q_u32(&st[0]), efgh = vld1q_u32(&st[4]);

  for (; blocks > 0; blocks--, in += 64) {
    const uint32x4_t abcd0 = abcd, efgh0 = efgh;
    uint32x4_t w0 = ARM_LOAD(in), w1 = ARM_LOAD(in + 16), w2 = ARM_LOAD(in + 32),
               w3 = ARM_LOAD(in + 48);
    ARM_ROUNDS4(w0, 0);
    ARM_ROUNDS4(w1, 1);
    ARM_ROUNDS4(w2, 2);
    ARM_ROUNDS4(w3, 3);
    ARM_NEXT16(4);
    ARM_NEXT16(8);
    ARM_NEXT16(12);
    abcd = vaddq_u32(abcd, abcd0);
    efgh = vaddq_u32(efgh, efgh0);
  }
  vst1q_u32(&st[0], abcd);
  vst1q_u32(&st[4], efgh);
}

static bool cpu_has_armv8_sha2(void) {
#if defined(__ARM_FEATURE_SHA2)
  return true;
#elif defined(__linux__)
  return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0;
#else
  return false;
#endif
}
#endif

/* The compression functions in use, set once by nat_sha2_dispatch() before any call. */
static sha256_blocks_fn sha256_blocks = sha256_blocks_portable;
static sha512_blocks_fn sha512_blocks = sha512_blocks_portable;
static const char *sha256_impl = "portable";
static const char *sha512_impl = "portable";

const char *nat_sha2_impl(unsigned int bits) {
  return bits == 256 ? sha256_impl : sha512_impl;
}

#ifdef NAT_SHA2_X86
typedef struct {
  bool shani;     /* SHA extensions and SSE4.1 */
  bool avx2_bmi2; /* AVX2, BMI1, BMI2, with ymm state saved by the OS */
  bool avx512vl;  /* and AVX-512F + VL, with the opmask and zmm state saved too */
} cpu_features;

/* CPUID leaf 1 ECX: bit 19 SSE4.1 (implies SSSE3), 27 OSXSAVE, 28 AVX; leaf 7 EBX: bit 3 BMI1,
 * 5 AVX2, 8 BMI2, 16 AVX512F, 29 SHA, 31 AVX512VL. XCR0 bits 1 and 2: the OS saves xmm and ymm
 * registers; 5, 6, 7: opmask and zmm. */
static cpu_features cpu_detect(void) {
  cpu_features f = {false, false, false};
  unsigned int a, b, c1, d, c, b7 = 0;

  if (!__get_cpuid(1, &a, &b, &c1, &d)) return f;
  if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c, d);
  f.shani = (c1 >> 19 & 1) && (b7 >> 29 & 1);
  if ((c1 >> 27 & 1) && (c1 >> 28 & 1)) {
    unsigned int xcr0, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
    f.avx2_bmi2 = (xcr0 & 6) == 6 && (b7 >> 3 & 1) && (b7 >> 5 & 1) && (b7 >> 8 & 1);
    f.avx512vl = f.avx2_bmi2 && (xcr0 & 0xe0) == 0xe0 && (b7 >> 16 & 1) && (b7 >> 31 & 1);
  }
  return f;
}

#endif

#if defined(NAT_SHA2_X86) || defined(NAT_SHA2_ARM)
static bool simd_disabled(void) {
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  return off != NULL && off[0] != '\0' && strcmp(off, "0") != 0;
}

/* Runs when the addon (or a test harness) is loaded, before any thread can call in.
 * NATRIUM_DISABLE_SIMD (set, and not "0") keeps the portable code; NATRIUM_SHA512_IMPL=portable,
 * avx2 or avx512vl forces that SHA-512 code where the CPU has it, for the tests. */
__attribute__((constructor)) static void nat_sha2_dispatch(void) {
#ifdef NAT_SHA2_X86
  cpu_features cpu;

  for (int i = 0; i < 80; i += 2) {
    memcpy(&K512_PAIRS[2 * i], &K512[i], 2 * sizeof K512[0]);
    memcpy(&K512_PAIRS[2 * i + 2], &K512[i], 2 * sizeof K512[0]);
  }
  if (simd_disabled()) return;
  cpu = cpu_detect();
  if (cpu.shani) {
    sha256_blocks = sha256_blocks_shani;
    sha256_impl = "shani";
  }
  const char *force = getenv("NATRIUM_SHA512_IMPL");
  if (force == NULL) force = "";
  if (cpu.avx512vl && strcmp(force, "avx2") != 0 && strcmp(force, "portable") != 0) {
    sha512_blocks = sha512_blocks_avx512vl;
    sha512_impl = "avx512vl";
  } else if (cpu.avx2_bmi2 && strcmp(force, "portable") != 0) {
    sha512_blocks = sha512_blocks_avx2;
    sha512_impl = "avx2";
  }
#else
  if (!simd_disabled() && cpu_has_armv8_sha2()) {
    sha256_blocks = sha256_blocks_armv8;
    sha256_impl = "armv8";
  }
#endif
}
#endif

/* Streaming, following libsodium: the buffer position is the bit count modulo the block size;
 * an update that completes the buffered block fills the buffer and compresses it, then
 * compresses whole blocks straight from the input and buffers the rest (bytes past it stay
 * as they were). */
int nat_sha256_init(crypto_hash_sha256_state *state) {
  state->count = 0;
  memcpy(state->state, IV256, sizeof IV256);
  return 0;
}

int nat_sha256_update(crypto_hash_sha256_state *state, const unsigned char *in, size_t inlen) {
  size_t r, fill;

  if (inlen == 0) return 0;
  r = (size_t) (state->count >> 3) & 63;
  state->count += (uint64_t) inlen << 3;
  fill = 64 - r;
  if (inlen < fill) {
    memcpy(state->buf + r, in, inlen);
    return 0;
  }
  memcpy(state->buf + r, in, fill);
  sha256_blocks(state->state, state->buf, 1);
  in += fill;
  inlen -= fill;
  if (inlen >= 64) {
    sha256_blocks(state->state, in, inlen / 64);
    in += inlen & ~(size_t) 63;
  }
  memcpy(state->buf, in, inlen & 63);
  return 0;
}

/* Section 5.1.1: 0x80, zeros, the 64-bit big-endian bit count. */
static void sha256_pad(crypto_hash_sha256_state *state) {
  size_t r = (size_t) (state->count >> 3) & 63;

  state->buf[r++] = 0x80;
  if (r > 56) {
    memset(state->buf + r, 0, 64 - r);
    sha256_blocks(state->state, state->buf, 1);
    r = 0;
  }
  memset(state->buf + r, 0, 56 - r);
  store64_be(state->buf + 56, state->count);
  sha256_blocks(state->state, state->buf, 1);
}

int nat_sha256_final(crypto_hash_sha256_state *state, unsigned char out[32]) {
  sha256_pad(state);
  for (int i = 0; i < 8; i++) store32_be(out + 4 * i, state->state[i]);
  sodium_memzero(state, sizeof *state);
  return 0;
}

/* One shot: whole blocks straight from in, only the tail through the buffer. */
int nat_sha256(unsigned char out[32], const unsigned char *in, size_t inlen) {
  crypto_hash_sha256_state state;
  size_t tail = inlen & 63;

  nat_sha256_init(&state);
  if (inlen >= 64) sha256_blocks(state.state, in, inlen / 64);
  if (tail > 0) memcpy(state.buf, in + (inlen - tail), tail);
  state.count = (uint64_t) inlen << 3;
  return nat_sha256_final(&state, out);
}

/* SHA-512: the same, with a 128-bit bit count kept as count[0] (high) and count[1] (low). */
int nat_sha512_init(crypto_hash_sha512_state *state) {
  state->count[0] = state->count[1] = 0;
  memcpy(state->state, IV512, sizeof IV512);
  return 0;
}

int nat_sha512_update(crypto_hash_sha512_state *state, const unsigned char *in, size_t inlen) {
  const uint64_t bits_lo = (uint64_t) inlen << 3, bits_hi = (uint64_t) inlen >> 61;
  size_t r, fill;

  if (inlen == 0) return 0;
  r = (size_t) (state->count[1] >> 3) & 127;
  state->count[1] += bits_lo;
  state->count[0] += bits_hi + (state->count[1] < bits_lo);
  fill = 128 - r;
  if (inlen < fill) {
    memcpy(state->buf + r, in, inlen);
    return 0;
  }
  memcpy(state->buf + r, in, fill);
  sha512_blocks(state->state, state->buf, 1);
  in += fill;
  inlen -= fill;
  if (inlen >= 128) {
    sha512_blocks(state->state, in, inlen / 128);
    in += inlen & ~(size_t) 127;
  }
  memcpy(state->buf, in, inlen & 127);
  return 0;
}

static void sha512_pad(crypto_hash_sha512_state *state) {
  size_t r = (size_t) (state->count[1] >> 3) & 127;

  state->buf[r++] = 0x80;
  if (r > 112) {
    memset(state->buf + r, 0, 128 - r);
    sha512_blocks(state->state, state->buf, 1);
    r = 0;
  }
  memset(state->buf + r, 0, 112 - r);
  store64_be(state->buf + 112, state->count[0]);
  store64_be(state->buf + 120, state->count[1]);
  sha512_blocks(state->state, state->buf, 1);
}

int nat_sha512_final(crypto_hash_sha512_state *state, unsigned char out[64]) {
  sha512_pad(state);
  for (int i = 0; i < 8; i++) store64_be(out + 8 * i, state->state[i]);
  sodium_memzero(state, sizeof *state);
  return 0;
}

int nat_sha512(unsigned char out[64], const unsigned char *in, size_t inlen) {
  crypto_hash_sha512_state state;
  size_t tail = inlen & 127;

  nat_sha512_init(&state);
  if (inlen >= 128) sha512_blocks(state.state, in, inlen / 128);
  if (tail > 0) memcpy(state.buf, in + (inlen - tail), tail);
  state.count[0] = (uint64_t) inlen >> 61;
  state.count[1] = (uint64_t) inlen << 3;
  return nat_sha512_final(&state, out);
}

/* For libsodium's Ed25519 (deps/build.sh points its SHA-512 calls here). A message in memory is
 * never longer than SIZE_MAX, so the lengths convert without loss. */
int nat_sodium_sha512_init(crypto_hash_sha512_state *state) {
  return nat_sha512_init(state);
}

int nat_sodium_sha512_update(crypto_hash_sha512_state *state, const unsigned char *in,
                                  unsigned long long inlen) {
  return nat_sha512_update(state, in, (size_t) inlen);
}

int nat_sodium_sha512_final(crypto_hash_sha512_state *state, unsigned char *out) {
  return nat_sha512_final(state, out);
}

int nat_sodium_sha512(unsigned char *out, const unsigned char *in, unsigned long long inlen) {
  return nat_sha512(out, in, (size_t) inlen);
}

/* For the wasm link's --wrap (sha2.h). */
int __wrap_crypto_hash_sha512_init(crypto_hash_sha512_state *state) {
  return nat_sodium_sha512_init(state);
}

int __wrap_crypto_hash_sha512_update(crypto_hash_sha512_state *state, const unsigned char *in,
                                     unsigned long long inlen) {
  return nat_sodium_sha512_update(state, in, inlen);
}

int __wrap_crypto_hash_sha512_final(crypto_hash_sha512_state *state, unsigned char *out) {
  return nat_sodium_sha512_final(state, out);
}

int __wrap_crypto_hash_sha512(unsigned char *out, const unsigned char *in,
                              unsigned long long inlen) {
  return nat_sodium_sha512(out, in, inlen);
}

/* HMAC (RFC 2104) as libsodium's auth_hmacsha256.c / auth_hmacsha512.c compute it: a key
 * longer than a block is hashed first; ictx absorbs key ^ ipad and octx key ^ opad; final
 * hashes the inner digest into octx (both hash finals leave their halves zeroed). */
#define HMAC_SHA2(H, BLOCK, BYTES)                                                           \
  int nat_hmac##H##_init(crypto_auth_hmac##H##_state *state, const unsigned char *key,       \
                         size_t keylen) {                                                    \
    unsigned char pad[BLOCK], khash[BYTES];                                                  \
                                                                                             \
    if (keylen > (BLOCK)) {                                                                  \
      nat_##H##_init(&state->ictx);                                                          \
      nat_##H##_update(&state->ictx, key, keylen);                                           \
      nat_##H##_final(&state->ictx, khash);                                                  \
      key = khash;                                                                           \
      keylen = BYTES;                                                                        \
    }                                                                                        \
    nat_##H##_init(&state->ictx);                                                            \
    memset(pad, 0x36, BLOCK);                                                                \
    for (size_t i = 0; i < keylen; i++) pad[i] ^= key[i];                                    \
    nat_##H##_update(&state->ictx, pad, BLOCK);                                              \
    nat_##H##_init(&state->octx);                                                            \
    memset(pad, 0x5c, BLOCK);                                                                \
    for (size_t i = 0; i < keylen; i++) pad[i] ^= key[i];                                    \
    nat_##H##_update(&state->octx, pad, BLOCK);                                              \
    sodium_memzero(pad, sizeof pad);                                                         \
    sodium_memzero(khash, sizeof khash);                                                     \
    return 0;                                                                                \
  }                                                                                          \
                                                                                             \
  int nat_hmac##H##_update(crypto_auth_hmac##H##_state *state, const unsigned char *in,      \
                           size_t inlen) {                                                   \
    return nat_##H##_update(&state->ictx, in, inlen);                                        \
  }                                                                                          \
                                                                                             \
  int nat_hmac##H##_final(crypto_auth_hmac##H##_state *state, unsigned char out[BYTES]) {    \
    unsigned char ihash[BYTES];                                                              \
                                                                                             \
    nat_##H##_final(&state->ictx, ihash);                                                    \
    nat_##H##_update(&state->octx, ihash, BYTES);                                            \
    nat_##H##_final(&state->octx, out);                                                      \
    sodium_memzero(ihash, sizeof ihash);                                                     \
    return 0;                                                                                \
  }

HMAC_SHA2(sha256, 64, 32)
HMAC_SHA2(sha512, 128, 64)

/* HMAC-SHA-512-256 (crypto_auth): HMAC-SHA-512 on the same state, truncated to 32 bytes. */
int nat_hmacsha512256_final(crypto_auth_hmacsha512256_state *state, unsigned char out[32]) {
  unsigned char out64[64];

  nat_hmacsha512_final(state, out64);
  memcpy(out, out64, 32);
  sodium_memzero(out64, sizeof out64);
  return 0;
}

/* PBKDF2's inner loop (RFC 8018 section 5.2, the U_j): `iterations` times u = HMAC(key, u) and
 * t ^= u, where keyed is a state fresh from init (one block absorbed in each half). Every
 * message is one digest long, so each HMAC is two compressions of a block of fixed layout
 * (digest, 0x80, zeros, the bit length of block + digest) from the chaining values init left:
 * no buffering, no per-iteration state copies. */
#define HMAC_ITERATE(H, WORD, BLOCK, BYTES, STORE)                                            \
  void nat_hmac##H##_iterate(const crypto_auth_hmac##H##_state *keyed, unsigned char u[BYTES], \
                             unsigned char t[BYTES], uint64_t iterations) {                   \
    unsigned char block[BLOCK];                                                               \
    WORD st[8];                                                                               \
                                                                                              \
    memcpy(block, u, BYTES);                                                                  \
    block[BYTES] = 0x80;                                                                      \
    memset(block + (BYTES) + 1, 0, (BLOCK) - (BYTES) - 1);                                    \
    store64_be(block + (BLOCK) - 8, 8 * (uint64_t) ((BLOCK) + (BYTES)));                      \
    for (; iterations > 0; iterations--) {                                                    \
      memcpy(st, keyed->ictx.state, sizeof st);                                               \
      H##_blocks(st, block, 1);                                                               \
      for (int i = 0; i < 8; i++) STORE(block + sizeof(WORD) * i, st[i]);                    \
      memcpy(st, keyed->octx.state, sizeof st);                                               \
      H##_blocks(st, block, 1);                                                               \
      for (int i = 0; i < 8; i++) STORE(block + sizeof(WORD) * i, st[i]);                    \
      for (int i = 0; i < (BYTES); i++) t[i] ^= block[i];                                     \
    }                                                                                         \
    memcpy(u, block, BYTES);                                                                  \
    sodium_memzero(block, sizeof block);                                                      \
    sodium_memzero(st, sizeof st);                                                            \
  }

HMAC_ITERATE(sha256, uint32_t, 64, 32, store32_be)
HMAC_ITERATE(sha512, uint64_t, 128, 64, store64_be)

/* One-shot MACs under libsodium's fixed-size keys, and their constant-time verification. */
#define HMAC_ONESHOT(P, H, BYTES)                                                            \
  int nat_hmac##P(unsigned char out[BYTES], const unsigned char *in, size_t inlen,           \
                  const unsigned char k[crypto_auth_hmac##P##_KEYBYTES]) {                   \
    crypto_auth_hmac##P##_state state;                                                       \
                                                                                             \
    nat_hmac##H##_init(&state, k, crypto_auth_hmac##P##_KEYBYTES);                           \
    nat_hmac##H##_update(&state, in, inlen);                                                 \
    return nat_hmac##P##_final(&state, out);                                                 \
  }                                                                                          \
                                                                                             \
  int nat_hmac##P##_verify(const unsigned char h[BYTES], const unsigned char *in,            \
                           size_t inlen, const unsigned char k[crypto_auth_hmac##P##_KEYBYTES]) { \
    unsigned char correct[BYTES];                                                            \
    int rc;                                                                                  \
                                                                                             \
    nat_hmac##P(correct, in, inlen, k);                                                      \
    rc = crypto_verify_##BYTES(h, correct);                                                  \
    sodium_memzero(correct, sizeof correct);                                                 \
    return rc;                                                                               \
  }

HMAC_ONESHOT(sha256, sha256, 32)
HMAC_ONESHOT(sha512, sha512, 64)
HMAC_ONESHOT(sha512256, sha512, 32)

/* HKDF (RFC 5869) as libsodium's kdf_hkdf_sha256.c / kdf_hkdf_sha512.c compute it: extract is
 * HMAC(salt, ikm); expand makes T(i) = HMAC(prk, T(i-1) || ctx || i) for i = 1, 2, ... and
 * refuses more than BYTES_MAX bytes (255 blocks). out must not overlap ctx or prk. */
#define HKDF_SHA2(H, BYTES)                                                                  \
  int nat_hkdf_##H##_extract_init(crypto_kdf_hkdf_##H##_state *state,                        \
                                  const unsigned char *salt, size_t salt_len) {              \
    return nat_hmac##H##_init(&state->st, salt, salt_len);                                   \
  }                                                                                          \
                                                                                             \
  int nat_hkdf_##H##_extract_update(crypto_kdf_hkdf_##H##_state *state,                      \
                                    const unsigned char *ikm, size_t ikm_len) {              \
    return nat_hmac##H##_update(&state->st, ikm, ikm_len);                                   \
  }                                                                                          \
                                                                                             \
  int nat_hkdf_##H##_extract_final(crypto_kdf_hkdf_##H##_state *state,                       \
                                   unsigned char prk[BYTES]) {                               \
    nat_hmac##H##_final(&state->st, prk);                                                    \
    sodium_memzero(state, sizeof *state);                                                    \
    return 0;                                                                                \
  }                                                                                          \
                                                                                             \
  int nat_hkdf_##H##_extract(unsigned char prk[BYTES], const unsigned char *salt,            \
                             size_t salt_len, const unsigned char *ikm, size_t ikm_len) {    \
    crypto_kdf_hkdf_##H##_state state;                                                       \
                                                                                             \
    nat_hkdf_##H##_extract_init(&state, salt, salt_len);                                     \
    nat_hkdf_##H##_extract_update(&state, ikm, ikm_len);                                     \
    return nat_hkdf_##H##_extract_final(&state, prk);                                        \
  }                                                                                          \
                                                                                             \
  int nat_hkdf_##H##_expand(unsigned char *out, size_t out_len, const char *ctx,             \
                            size_t ctx_len, const unsigned char prk[BYTES]) {                \
    crypto_auth_hmac##H##_state keyed, st;                                                   \
    unsigned char t[BYTES];                                                                  \
    unsigned char counter = 1;                                                               \
                                                                                             \
    if (out_len > crypto_kdf_hkdf_##H##_BYTES_MAX) return -1;                                \
    nat_hmac##H##_init(&keyed, prk, BYTES);                                                  \
    for (size_t i = 0; i < out_len; i += BYTES, counter++) {                                 \
      const size_t n = out_len - i < (BYTES) ? out_len - i : (BYTES);                        \
      st = keyed;                                                                            \
      if (i > 0) nat_hmac##H##_update(&st, t, BYTES);                                        \
      nat_hmac##H##_update(&st, (const unsigned char *) ctx, ctx_len);                       \
      nat_hmac##H##_update(&st, &counter, 1);                                                \
      nat_hmac##H##_final(&st, t);                                                           \
      memcpy(out + i, t, n);                                                                 \
    }                                                                                        \
    sodium_memzero(&keyed, sizeof keyed);                                                    \
    sodium_memzero(&st, sizeof st);                                                          \
    sodium_memzero(t, sizeof t);                                                             \
    return 0;                                                                                \
  }

HKDF_SHA2(sha256, 32)
HKDF_SHA2(sha512, 64)
