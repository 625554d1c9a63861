/* ML-KEM-768's kernels in WebAssembly SIMD128 (see mlkem768_impl.h), written from FIPS 203 and
 * the published techniques for lattice NTTs in 16-bit lanes:
 *   - eight coefficients per v128, in FIPS 203's order between kernels, as the AVX2 kernels keep
 *     them; the NTT's layers with len >= 8 pair whole vectors, len = 4 and 2 pair 64-bit and
 *     32-bit pieces of two vectors, brought side by side by shuffles and put back after;
 *   - SIMD128 has no 16-bit high product (x86's pmulhw), so where the AVX2 code multiplies by
 *     Montgomery's rule this code uses Barrett multiplication (Becker, Hwang, Kannwischer, Yang
 *     and Yang, "Neon NTT", TCHES 2022/1): a z mod q = a z - q round(a z' / 2^15) for a
 *     constant z and z' = round(z 2^15 / q), from one i16x8.mul, one i16x8.q15mulr_sat_s and
 *     one more multiplication by q, all in 16-bit lanes: the result lies in (-q, q) for every
 *     |a| < 2^15, so its low 16 bits are the whole of it. Its z carries no Montgomery factor, so
 *     the tables below hold the plain zetas, and invntt's final factor is 128^-1 R = 512;
 *   - the base multiplication sums a0 b0 + gamma a1 b1 and a0 b1 + a1 b0 with i32x4.dot_i16x8_s
 *     over the three products (gamma b1 by a Barrett product first), and reduces the 32-bit
 *     sums once by Montgomery's rule (i16x8.mul gives the low halves' multiple of q^-1, one more
 *     dot product the multiple of q), which leaves the R^-1 the interface promises.
 * Each kernel's result is the portable one's mod q within the bounds mlkem768_impl.h states;
 * test/c/mlkem768.c compares them under Node's WASI.
 *
 * Constant time: the arithmetic kernels run the same instructions on every input, with no
 * branch and no memory index that depends on a coefficient (the loops and table reads depend
 * only on the position in the polynomial). */
#include <string.h>

#include "mlkem768_impl.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#define Q NAT_MLKEM_Q
#define N NAT_MLKEM_N
#define K NAT_MLKEM_K

typedef v128_t V;
#define ADD wasm_i16x8_add
#define SUB wasm_i16x8_sub
#define MUL wasm_i16x8_mul
#define V16(x) wasm_i16x8_splat((int16_t) (x))
#define LOADV(p, i) wasm_v128_load((p)->c + 8 * (i))
#define STOREV(p, i, v) wasm_v128_store((p)->c + 8 * (i), v)
#define INLINE static inline __attribute__((always_inline))

/* zeta^BitRev7(k) mod q, centred (mlkem768_portable.c's nat_mlkem_zetas without the factor R) */
static const int16_t zetas[128] = {
  1, -1600, -749, -40, -687, 630, -1432, 848, 1062, -1410, 193, 797, -543, -69, 569, -1583, 296,
  -882, 1339, 1476, -283, 56, -1089, 1333, 1426, -1235, 535, -447, -936, -450, -1355, 821, 289,
  331, -76, -1573, 1197, -1025, -1052, -1274, 650, -1352, -816, 632, -464, 33, 1320, -1414, -1010,
  1435, 807, 452, 1438, -461, 1534, -927, -682, -712, 1481, 648, -855, -219, 1227, 910, 17, -568,
  583, -680, 1637, 723, -1041, 1100, 1409, -667, -48, 233, 756, -1173, -314, -279, -1626, 1651,
  -540, -1540, -1482, 952, 1461, -642, 939, -1021, -892, -941, 733, -992, 268, 641, 1584, -1031,
  -1292, -109, 375, -780, -1239, 1645, 1063, 319, -556, 757, -1230, 561, -863, -735, -525, 1092,
  403, 1026, 1143, -1179, -554, 886, -1607, 1212, -1455, 1029, -1219, -394, 885, -1175,
};

/* round(zetas[k] 2^15 / q) */
static const int16_t zetas_tw[128] = {
  10, -15749, -7373, -394, -6762, 6201, -14095, 8347, 10453, -13879, 1900, 7845, -5345, -679, 5601,
  -15582, 2914, -8682, 13180, 14529, -2786, 551, -10719, 13121, 14036, -12156, 5266, -4400, -9213,
  -4429, -13338, 8081, 2845, 3258, -748, -15483, 11782, -10089, -10355, -12540, 6398, -13308,
  -8032, 6221, -4567, 325, 12993, -13918, -9942, 14125, 7943, 4449, 14155, -4538, 15099, -9125,
  -6713, -7008, 14578, 6378, -8416, -2156, 12078, 8957, 167, -5591, 5739, -6693, 16113, 7117,
  -10247, 10828, 13869, -6565, -472, 2293, 7441, -11546, -3091, -2746, -16005, 16251, -5315,
  -15159, -14588, 9371, 14381, -6319, 9243, -10050, -8780, -9262, 7215, -9764, 2638, 6309, 15592,
  -10148, -12717, -1073, 3691, -7678, -12196, 16192, 10463, 3140, -5473, 7451, -12107, 5522, -8495,
  -7235, -5168, 10749, 3967, 10099, 11251, -11605, -5453, 8721, -15818, 11930, -14322, 10129,
  -11999, -3878, 8711, -11566,
};

/* zeta^(2 BitRev7(i) + 1) mod q, centred, for pair i, and round(gammas[i] 2^15 / q) */
static const int16_t gammas[128] = {
  17, -17, -568, 568, 583, -583, -680, 680, 1637, -1637, 723, -723, -1041, 1041, 1100, -1100, 1409,
  -1409, -667, 667, -48, 48, 233, -233, 756, -756, -1173, 1173, -314, 314, -279, 279, -1626, 1626,
  1651, -1651, -540, 540, -1540, 1540, -1482, 1482, 952, -952, 1461, -1461, -642, 642, 939, -939,
  -1021, 1021, -892, 892, -941, 941, 733, -733, -992, 992, 268, -268, 641, -641, 1584, -1584,
  -1031, 1031, -1292, 1292, -109, 109, 375, -375, -780, 780, -1239, 1239, 1645, -1645, 1063, -1063,
  319, -319, -556, 556, 757, -757, -1230, 1230, 561, -561, -863, 863, -735, 735, -525, 525, 1092,
  -1092, 403, -403, 1026, -1026, 1143, -1143, -1179, 1179, -554, 554, 886, -886, -1607, 1607, 1212,
  -1212, -1455, 1455, 1029, -1029, -1219, 1219, -394, 394, 885, -885, -1175, 1175,
};

static const int16_t gammas_tw[128] = {
  167, -167, -5591, 5591, 5739, -5739, -6693, 6693, 16113, -16113, 7117, -7117, -10247, 10247,
  10828, -10828, 13869, -13869, -6565, 6565, -472, 472, 2293, -2293, 7441, -7441, -11546, 11546,
  -3091, 3091, -2746, 2746, -16005, 16005, 16251, -16251, -5315, 5315, -15159, 15159, -14588,
  14588, 9371, -9371, 14381, -14381, -6319, 6319, 9243, -9243, -10050, 10050, -8780, 8780, -9262,
  9262, 7215, -7215, -9764, 9764, 2638, -2638, 6309, -6309, 15592, -15592, -10148, 10148, -12717,
  12717, -1073, 1073, 3691, -3691, -7678, 7678, -12196, 12196, 16192, -16192, 10463, -10463, 3140,
  -3140, -5473, 5473, 7451, -7451, -12107, 12107, 5522, -5522, -8495, 8495, -7235, 7235, -5168,
  5168, 10749, -10749, 3967, -3967, 10099, -10099, 11251, -11251, -11605, 11605, -5453, 5453, 8721,
  -8721, -15818, 15818, 11930, -11930, -14322, 14322, 10129, -10129, -11999, 11999, -3878, 3878,
  8711, -8711, -11566, 11566,
};

/* a z mod q, lane by lane, for |a| < 2^15 and zt = round(z 2^15 / q), |z| <= q / 2: t =
 * round(a zt / 2^15) is within 1 of a z / q (|a (zt - z 2^15 / q)| / 2^15 < 1/2, plus the
 * rounding), so a z - t q lies in (-q, q). q15mulr_sat saturates only at (-2^15)^2. */
INLINE V bmul(V a, V z, V zt) {
  return SUB(MUL(a, z), MUL(wasm_i16x8_q15mulr_sat(a, zt), V16(Q)));
}

/* a - round(10 a / 2^15) q, a representative of a mod q within 0.66 q for every int16_t a
 * (10 / 2^15 is 1/q within 4.8e-6 relatively: |a / q - 10 a / 2^15| <= 0.16). */
INLINE V barrett(V a) {
  return SUB(a, MUL(wasm_i16x8_q15mulr_sat(a, V16(10)), V16(Q)));
}

/* Cooley-Tukey (forward) and Gentleman-Sande (inverse) butterflies. */
#define CT(a, b, z, zt)                 \
  do {                                  \
    const V t_ = bmul(b, z, zt);        \
    b = SUB(a, t_);                     \
    a = ADD(a, t_);                     \
  } while (0)

#define GS(a, b, z, zt)                 \
  do {                                  \
    const V t_ = a;                     \
    a = ADD(t_, b);                     \
    b = bmul(SUB(b, t_), z, zt);        \
  } while (0)

/* The pieces of vectors x (the lower coefficients) and y side by side: for len = 4 the 64-bit
 * halves (a = x.lo, y.lo; b = x.hi, y.hi), for len = 2 from those the 32-bit pieces (a2 =
 * x.d0, x.d2, y.d0, y.d2; b2 = x.d1, x.d3, y.d1, y.d3). Each is its own inverse. */
#define SPLIT4(x, y, a, b) \
  do { a = wasm_i64x2_shuffle(x, y, 0, 2); b = wasm_i64x2_shuffle(x, y, 1, 3); } while (0)
#define SPLIT2(a, b, a2, b2) \
  do { a2 = wasm_i32x4_shuffle(a, b, 0, 4, 2, 6); b2 = wasm_i32x4_shuffle(a, b, 1, 5, 3, 7); } while (0)

/* The zetas of the len = 4 layer for the vector pair x, y: t[at] in lanes 0-3 and t[at + 1] in
 * lanes 4-7 (up), or t[at + 1] then t[at] (down, for invntt's descending order). */
INLINE V zetas4(const int16_t *t, size_t at, int down) {
  const V w = wasm_v128_load32_splat(t + at);
  return down ? wasm_i16x8_shuffle(w, w, 1, 1, 1, 1, 0, 0, 0, 0) : wasm_i16x8_shuffle(w, w, 0, 0, 0, 0, 1, 1, 1, 1);
}

/* len = 2: the four zetas t[at..at + 3] each in two lanes, in order, or reversed. */
INLINE V zetas2(const int16_t *t, size_t at, int down) {
  const V w = wasm_v128_load64_splat(t + at);
  return down ? wasm_i16x8_shuffle(w, w, 3, 3, 2, 2, 1, 1, 0, 0) : wasm_i16x8_shuffle(w, w, 0, 0, 1, 1, 2, 2, 3, 3);
}

/* Seven layers; a butterfly adds less than q to a coefficient's bound (|bmul| < q), so the
 * coefficients stay below 8 q < 2^15, then one Barrett reduction each. */
static void ntt_simd128(nat_mlkem_poly *p) {
  V v[32];

  for (size_t i = 0; i < 32; i++) v[i] = LOADV(p, i);
  size_t k = 1;
  for (size_t step = 16; step >= 2; step >>= 1) { /* len = 128, 64, 32, 16 */
    for (size_t start = 0; start < 32; start += 2 * step, k++) {
      const V z = wasm_v128_load16_splat(zetas + k), zt = wasm_v128_load16_splat(zetas_tw + k);
      for (size_t i = start; i < start + step; i++) CT(v[i], v[i + step], z, zt);
    }
  }
  for (size_t pr = 0; pr < 16; pr++) {
    V x = v[2 * pr], y = v[2 * pr + 1], a, b, a2, b2;
    CT(x, y, wasm_v128_load16_splat(zetas + 16 + pr), wasm_v128_load16_splat(zetas_tw + 16 + pr));
    SPLIT4(x, y, a, b);
    CT(a, b, zetas4(zetas, 32 + 2 * pr, 0), zetas4(zetas_tw, 32 + 2 * pr, 0));
    SPLIT2(a, b, a2, b2);
    CT(a2, b2, zetas2(zetas, 64 + 4 * pr, 0), zetas2(zetas_tw, 64 + 4 * pr, 0));
    SPLIT2(a2, b2, a, b);
    SPLIT4(a, b, x, y);
    STOREV(p, 2 * pr, barrett(x));
    STOREV(p, 2 * pr + 1, barrett(y));
  }
}

/* The sums double their bound at each layer and the differences come out of bmul below q, so
 * from |c| < q the sums reach 8 q < 2^15 at the third layer: they are reduced there (len = 8)
 * and at the sixth (len = 64), and the seventh's below 2 q meet the final factor's bmul. */
static void invntt_simd128(nat_mlkem_poly *p) {
  V v[32];

  for (size_t pr = 0; pr < 16; pr++) {
    V x = LOADV(p, 2 * pr), y = LOADV(p, 2 * pr + 1), a, b, a2, b2;
    SPLIT4(x, y, a, b);
    SPLIT2(a, b, a2, b2);
    GS(a2, b2, zetas2(zetas, 124 - 4 * pr, 1), zetas2(zetas_tw, 124 - 4 * pr, 1));
    SPLIT2(a2, b2, a, b);
    GS(a, b, zetas4(zetas, 62 - 2 * pr, 1), zetas4(zetas_tw, 62 - 2 * pr, 1));
    SPLIT4(a, b, x, y);
    GS(x, y, wasm_v128_load16_splat(zetas + 31 - pr), wasm_v128_load16_splat(zetas_tw + 31 - pr));
    v[2 * pr] = barrett(x);
    v[2 * pr + 1] = y;
  }
  size_t k = 15;
  for (size_t step = 2; step <= 16; step <<= 1) { /* len = 16, 32, 64, 128 */
    for (size_t start = 0; start < 32; start += 2 * step, k--) {
      const V z = wasm_v128_load16_splat(zetas + k), zt = wasm_v128_load16_splat(zetas_tw + k);
      for (size_t i = start; i < start + step; i++) {
        GS(v[i], v[i + step], z, zt);
        if (step == 8) v[i] = barrett(v[i]);
      }
    }
  }
  /* times 128^-1 R mod q = 512 (FIPS 203's 3303 = 128^-1, and the R the interface promises) */
  for (size_t i = 0; i < 32; i++) STOREV(p, i, bmul(v[i], V16(512), V16(5040)));
}

/* Vector i of a and b holds pairs 4i..4i+3. even = a0 b0 + a1 (gamma b1) and odd = a0 b1 +
 * a1 b0 per pair as 32-bit sums over k (|sum| < 3 2 2^12 q < q 2^15), then x R^-1 = (x - m q)
 * / 2^16 with m = x q^-1 mod 2^16: i16x8.mul on the even 16-bit lanes (the low halves) gives m
 * there, a dot product with (q, 0) m q, and the result is the high half, picked by a shuffle
 * that interleaves the even and odd sums back into pairs. */
static void basemul_acc_simd128(nat_mlkem_poly *r, const nat_mlkem_poly a[K], const nat_mlkem_poly b[K]) {
  const V one = V16(1), one_tw = V16(10); /* the even lanes' b0 times 1, reduced alike */
  const V q0 = wasm_i32x4_splat(Q), qinv = V16(NAT_MLKEM_QINV);
  for (size_t i = 0; i < 32; i++) {
    const V g = wasm_i16x8_shuffle(wasm_v128_load64_zero(gammas + 4 * i), one, 8, 0, 8, 1, 8, 2, 8, 3);
    const V gt = wasm_i16x8_shuffle(wasm_v128_load64_zero(gammas_tw + 4 * i), one_tw, 8, 0, 8, 1, 8, 2, 8, 3);
    V even = wasm_i32x4_splat(0), odd = wasm_i32x4_splat(0);
    for (size_t k = 0; k < K; k++) {
      const V x = LOADV(&a[k], i), y = LOADV(&b[k], i);
      even = wasm_i32x4_add(even, wasm_i32x4_dot_i16x8(x, bmul(y, g, gt)));
      odd = wasm_i32x4_add(odd, wasm_i32x4_dot_i16x8(x, wasm_i16x8_shuffle(y, y, 1, 0, 3, 2, 5, 4, 7, 6)));
    }
    even = wasm_i32x4_sub(even, wasm_i32x4_dot_i16x8(MUL(even, qinv), q0));
    odd = wasm_i32x4_sub(odd, wasm_i32x4_dot_i16x8(MUL(odd, qinv), q0));
    STOREV(r, i, wasm_i16x8_shuffle(even, odd, 1, 9, 3, 11, 5, 13, 7, 15));
  }
}

static void matrix_simd128(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed) {
  nat_mlkem768_portable.matrix(a, rho, transposed);
}

static void matrix_hash_simd128(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed,
                                unsigned char out[32], const unsigned char *in, size_t inlen,
                                unsigned char domain) {
  nat_mlkem768_portable.matrix_hash(a, rho, transposed, out, in, inlen, domain);
}

static void noise_simd128(nat_mlkem_poly *p, size_t n, const unsigned char sigma[32]) {
  nat_mlkem768_portable.noise(p, n, sigma);
}

static void encode12_simd128(unsigned char r[384], const nat_mlkem_poly *p) {
  nat_mlkem768_portable.encode12(r, p);
}

static void decode12_simd128(nat_mlkem_poly *p, const unsigned char a[384]) {
  nat_mlkem768_portable.decode12(p, a);
}

static void compress10_simd128(unsigned char r[320], const nat_mlkem_poly *p) {
  nat_mlkem768_portable.compress10(r, p);
}

static void decompress10_simd128(nat_mlkem_poly *p, const unsigned char a[320]) {
  nat_mlkem768_portable.decompress10(p, a);
}

const nat_mlkem768_kernels nat_mlkem768_simd128 = {
  "simd128", ntt_simd128, invntt_simd128, basemul_acc_simd128, matrix_simd128,
  matrix_hash_simd128, noise_simd128,
  encode12_simd128, decode12_simd128, compress10_simd128, decompress10_simd128,
};
#endif
