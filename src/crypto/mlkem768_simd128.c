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
 * Constant time (valgrind cannot run wasm, so by construction): the arithmetic kernels, the
 * encodings, the CBD and the two-way Keccak run the same instructions on every input, with no
 * branch and no memory index that depends on a coefficient, a byte or a Keccak lane (loops and
 * table reads depend only on the position in the polynomial, and in Keccak only on the round
 * number); the noise seeds (secret) only flow through them. The rejection sampling branches and
 * indexes its swizzle table on the matrix seed's XOF output, which is public (FIPS 203's
 * Algorithm 7 is variable time by design), and matrix_hash2 schedules its jobs on that and on
 * the hash input's length, while the hashed bytes (J's secret z) are only xored into the
 * state: the structure of the AVX2 kernels' matrix_hash4, which test/c/mlkem768.c runs natively
 * under valgrind with the secret key's z marked undefined. */
#include <sodium.h>
#include <string.h>

#include "keccak.h"
#include "keccak4x.h"
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
/* a byte shuffle of one vector whose sixteen indexes come from a macro */
#define SHUFFLE_BYTES(x, ...) wasm_i8x16_shuffle(x, x, __VA_ARGS__)
/* for loops that run once at instantiation or keep the sampling's books: unrolled they cost
 * module bytes and gain nothing */
#define NO_UNROLL _Pragma("clang loop unroll(disable)")

/* zeta^BitRev7(k) mod q and, for pair i of the base multiplication, zeta^(2 BitRev7(i) + 1) mod q,
 * both centred (mlkem768_portable.c's tables without their factor R), with their Barrett
 * multipliers round(z 2^15 / q); and for the rejection sampling, the swizzle that moves the
 * 16-bit lanes picked by an 8-bit mask to the front, in order. Filled at instantiation
 * (tables_fill: the module's constructors run in its _initialize), which takes fewer module
 * bytes than 5 KB of constants. */
static int16_t zetas[128], zetas_tw[128], gammas[128], gammas_tw[128];
static _Alignas(16) unsigned char compact[256][16];

/* round(z 2^15 / q) for |z| <= q / 2, halves away from zero */
static int16_t twist(int16_t z) {
  const int32_t n = (int32_t) z * 32768;
  return (int16_t) (n >= 0 ? (n + Q / 2) / Q : -((-n + Q / 2) / Q));
}

static int16_t centred(uint32_t x) {
  return (int16_t) (x > Q / 2 ? (int32_t) x - Q : (int32_t) x);
}

__attribute__((constructor)) static void tables_fill(void) {
  uint32_t power[256];
  power[0] = 1;
  NO_UNROLL
  for (size_t i = 1; i < 256; i++) power[i] = power[i - 1] * 17 % Q;
  NO_UNROLL
  for (unsigned k = 0; k < 128; k++) {
    unsigned rev = 0;
    NO_UNROLL
    for (unsigned b = 0; b < 7; b++) rev |= (k >> b & 1) << (6 - b);
    zetas[k] = centred(power[rev]);
    zetas_tw[k] = twist(zetas[k]);
    gammas[k] = centred(power[2 * rev + 1]);
    gammas_tw[k] = twist(gammas[k]);
  }
  NO_UNROLL
  for (unsigned m = 0; m < 256; m++) {
    size_t n = 0;
    NO_UNROLL
    for (unsigned i = 0; i < 8; i++) {
      if (m >> i & 1) {
        compact[m][2 * n] = (unsigned char) (2 * i);
        compact[m][2 * n + 1] = (unsigned char) (2 * i + 1);
        n++;
      }
    }
    NO_UNROLL
    for (; n < 8; n++) compact[m][2 * n] = compact[m][2 * n + 1] = 0x80;
  }
}

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

/* The representative in [0, q) of each lane, for any int16_t. */
INLINE V canonical(V a) {
  const V r = barrett(a);
  return ADD(r, wasm_v128_and(wasm_i16x8_shr(r, 15), V16(Q)));
}

/* Eight coefficients in 12 bytes a vector: each pair a + 2^12 b in a 32-bit lane (dot product
 * with (1, 2^12)), the three low bytes of each lane gathered, stored as 16 bytes at 12 i (the
 * next store overwrites the four past them; the last vector stores 8 + 4, so nothing is written
 * beyond the 384). */
INLINE V encode12_bytes(V x) {
  const V w = wasm_i32x4_dot_i16x8(canonical(x), wasm_i32x4_splat(1 | 1 << 28)); /* (1, 2^12) */
  return wasm_i8x16_shuffle(w, w, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
}

static void encode12_simd128(unsigned char r[384], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < 31; i++) wasm_v128_store(r + 12 * i, encode12_bytes(LOADV(p, i)));
  const V b = encode12_bytes(LOADV(p, 31));
  wasm_v128_store64_lane(r + 372, b, 0);
  wasm_v128_store32_lane(r + 380, b, 2);
}

/* The reverse: each coefficient's two bytes to a 16-bit lane, the odd ones shifted down by 4,
 * all masked to 12 bits. Vector i reads the 16 bytes from 12 i, the last one those ending at
 * byte 384 (so none beyond it), its bytes taken 4 further on. */
#define SPREAD12(o) \
  (o), (o) + 1, (o) + 1, (o) + 2, (o) + 3, (o) + 4, (o) + 4, (o) + 5, (o) + 6, (o) + 7, (o) + 7, (o) + 8, \
  (o) + 9, (o) + 10, (o) + 10, (o) + 11
INLINE V decode12_spread(V x) {
  const V y = wasm_i16x8_shuffle(x, wasm_u16x8_shr(x, 4), 0, 9, 2, 11, 4, 13, 6, 15);
  return wasm_v128_and(y, V16(0xfff));
}

static void decode12_simd128(nat_mlkem_poly *p, const unsigned char a[384]) {
  for (size_t i = 0; i < 31; i++) {
    const V raw = wasm_v128_load(a + 12 * i);
    STOREV(p, i, decode12_spread(SHUFFLE_BYTES(raw, SPREAD12(0))));
  }
  const V raw = wasm_v128_load(a + 368);
  STOREV(p, 31, decode12_spread(SHUFFLE_BYTES(raw, SPREAD12(4))));
}

/* Compress_10 of x in [0, q) in 32-bit lanes: ((x 161271 + 261911) >> 19) mod 2^10 equals
 * round(2^10 x / q) mod 2^10 for every such x (as in the AVX2 kernel). */
INLINE V compress10_32(V x) {
  const V t = wasm_i32x4_add(wasm_i32x4_mul(x, wasm_i32x4_splat(161271)), wasm_i32x4_splat(261911));
  return wasm_v128_and(wasm_u32x4_shr(t, 19), wasm_i32x4_splat(0x3ff));
}

/* Eight coefficients in 10 bytes a vector: compressed in 32-bit lanes and narrowed back to 16
 * bits, pairs joined to 20 bits (a dot product with (1, 2^10)), 32-bit pairs to 40 bits in each
 * 64-bit lane (the high half moved down by 12), whose five low bytes are gathered; stored as 16
 * bytes at 10 i (overwritten past the ten by the next store), the last as 8 + 2. */
INLINE V compress10_bytes(V v) {
  const V low32 = wasm_i64x2_splat(0xffffffff), x = canonical(v);
  const V y = wasm_u16x8_narrow_i32x4(compress10_32(wasm_u32x4_extend_low_u16x8(x)),
                                      compress10_32(wasm_u32x4_extend_high_u16x8(x)));
  const V w = wasm_i32x4_dot_i16x8(y, wasm_i32x4_splat(1 | 1 << 26)); /* (1, 2^10) */
  const V z = wasm_v128_or(wasm_v128_and(w, low32), wasm_u64x2_shr(wasm_v128_andnot(w, low32), 12));
  return wasm_i8x16_shuffle(z, z, 0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 0, 0, 0, 0, 0, 0);
}

static void compress10_simd128(unsigned char r[320], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < 31; i++) wasm_v128_store(r + 10 * i, compress10_bytes(LOADV(p, i)));
  const V b = compress10_bytes(LOADV(p, 31));
  wasm_v128_store64_lane(r + 310, b, 0);
  wasm_v128_store16_lane(r + 318, b, 4);
}

/* The reverse: each coefficient's two bytes to a 16-bit lane, shifted left (by a product) so
 * that its ten bits are the lane's top ten, then Decompress_10 as q15mulr(y 2^5, q) = (y q +
 * 2^9) >> 10. Vector i reads the 16 bytes from 10 i, the last one those ending at byte 320,
 * its bytes taken 6 further on. */
#define SPREAD10(o) \
  (o), (o) + 1, (o) + 1, (o) + 2, (o) + 2, (o) + 3, (o) + 3, (o) + 4, (o) + 5, (o) + 6, (o) + 6, (o) + 7, \
  (o) + 7, (o) + 8, (o) + 8, (o) + 9
INLINE V decompress10_spread(V x, V up) {
  const V y = wasm_v128_and(wasm_u16x8_shr(MUL(x, up), 1), V16(0x7fe0));
  return wasm_i16x8_q15mulr_sat(y, V16(Q));
}

static void decompress10_simd128(nat_mlkem_poly *p, const unsigned char a[320]) {
  V up = wasm_i16x8_make(64, 16, 4, 1, 64, 16, 4, 1);
  /* opaque to the optimiser, which would turn the product by powers of two into shifts by a
   * count per lane: SIMD128 has none, and V8 then shifts lane by lane in scalar code */
  __asm__("" : "+r"(up));
  for (size_t i = 0; i < 31; i++) {
    const V raw = wasm_v128_load(a + 10 * i);
    STOREV(p, i, decompress10_spread(SHUFFLE_BYTES(raw, SPREAD10(0)), up));
  }
  const V raw = wasm_v128_load(a + 304);
  STOREV(p, 31, decompress10_spread(SHUFFLE_BYTES(raw, SPREAD10(6)), up));
}

/* Compress_4 and Compress_1 of x in [0, q) (canonical), as the 16-bit lanes' values: Compress_4
 * is ((x 161271 + 2^24) >> 25) mod 16 in 32-bit lanes, Compress_1 is 1 exactly for x in [833,
 * 2496] (test/c/mlkem768.c checks every x against the definition through the portable kernels). */
INLINE V compress4_16(V x) {
  const V m = wasm_i32x4_splat(161271), half = wasm_i32x4_splat(1 << 24);
  const V lo = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_mul(wasm_u32x4_extend_low_u16x8(x), m), half), 25);
  const V hi = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_mul(wasm_u32x4_extend_high_u16x8(x), m), half), 25);
  return wasm_v128_and(wasm_u16x8_narrow_i32x4(lo, hi), V16(15));
}

/* Thirty-two coefficients in 16 bytes: four vectors' nibbles narrowed to bytes, each even byte
 * joined with the odd one above it (x | x >> 4 in 16-bit lanes, the low byte kept), narrowed
 * again. */
static void compress4_simd128(unsigned char r[128], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < 8; i++) {
    const V a = wasm_u8x16_narrow_i16x8(compress4_16(canonical(LOADV(p, 4 * i))), compress4_16(canonical(LOADV(p, 4 * i + 1))));
    const V b = wasm_u8x16_narrow_i16x8(compress4_16(canonical(LOADV(p, 4 * i + 2))), compress4_16(canonical(LOADV(p, 4 * i + 3))));
    const V a2 = wasm_v128_and(wasm_v128_or(a, wasm_u16x8_shr(a, 4)), V16(0xff));
    const V b2 = wasm_v128_and(wasm_v128_or(b, wasm_u16x8_shr(b, 4)), V16(0xff));
    wasm_v128_store(r + 16 * i, wasm_u8x16_narrow_i16x8(a2, b2));
  }
}

/* The reverse: the low and high nibbles of 16 bytes interleaved and widened to 32 coefficients,
 * then Decompress_4(y) = (y q + 8) >> 4 as q15mulr(y 2^11, q). */
static void decompress4_simd128(nat_mlkem_poly *p, const unsigned char a[128]) {
  for (size_t i = 0; i < 8; i++) {
    const V t = wasm_v128_load(a + 16 * i);
    const V lo = wasm_v128_and(t, wasm_i8x16_splat(15)), hi = wasm_u8x16_shr(t, 4);
    const V e0 = wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const V e1 = wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const V q = V16(Q);
    STOREV(p, 4 * i, wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_low_u8x16(e0), 11), q));
    STOREV(p, 4 * i + 1, wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_high_u8x16(e0), 11), q));
    STOREV(p, 4 * i + 2, wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_low_u8x16(e1), 11), q));
    STOREV(p, 4 * i + 3, wasm_i16x8_q15mulr_sat(wasm_i16x8_shl(wasm_u16x8_extend_high_u8x16(e1), 11), q));
  }
}

/* Decompress_1(ByteDecode_1(m)): byte i in all eight lanes, each lane's bit picked by a mask and
 * compared, the all-ones lanes times 1665 (an and). */
static void from_message_simd128(nat_mlkem_poly *p, const unsigned char m[32]) {
  const V bits = wasm_i16x8_make(1, 2, 4, 8, 16, 32, 64, 128);
  for (size_t i = 0; i < 32; i++) {
    const V set = wasm_i16x8_eq(wasm_v128_and(wasm_v128_load8_splat(m + i), bits), bits);
    STOREV(p, i, wasm_v128_and(set, V16((Q + 1) / 2)));
  }
}

/* ByteEncode_1(Compress_1): the comparison's lanes as the byte's bits (i16x8.bitmask). */
static void to_message_simd128(unsigned char m[32], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < 32; i++) {
    const V x = canonical(LOADV(p, i));
    const V one = wasm_v128_and(wasm_i16x8_gt(x, V16(832)), wasm_i16x8_lt(x, V16(2497)));
    m[i] = (unsigned char) wasm_i16x8_bitmask(one);
  }
}

/* The matrix and the noise: SHAKE128 and SHAKE256 on the two-way Keccak (keccak2x_simd128.c),
 * the rejection sampling and the CBD in vectors on its output. */
#define SHAKE128_RATE 168
#define SHAKE256_RATE 136
/* the rejection sampling stores eight lanes from the count on, so up to 8 beyond N */
#define SAMPLE_SLACK 8

/* Algorithm 7's loop on 168 bytes (buf readable to byte 172), eight candidates (12 bytes) at a
 * time: decoded as ByteDecode_12's pairs, compared with q, the accepted lanes moved to the front
 * (a swizzle from the table, by the comparison's bitmask) and stored at the count, which grows
 * by their number; so the first N are the scalar loop's, in its order. Variable time and
 * indexes on public data only (the matrix seed rho and its XOF output). */
__attribute__((noinline)) static size_t rej_uniform_simd128(int16_t *out, size_t ctr, const unsigned char *buf) {
  for (size_t pos = 0; pos < SHAKE128_RATE && ctr < N; pos += 12) {
    const V x = decode12_spread(SHUFFLE_BYTES(wasm_v128_load(buf + pos), SPREAD12(0)));
    const unsigned m = (unsigned) wasm_i16x8_bitmask(wasm_u16x8_lt(x, V16(Q)));
    wasm_v128_store(out + ctr, wasm_i8x16_swizzle(x, wasm_v128_load(compact[m])));
    ctr += (size_t) __builtin_popcount(m);
  }
  return ctr;
}

/* The first `lanes` 64-bit lanes of the two interleaved states, each to its own buffer. */
__attribute__((noinline)) static void squeeze2(unsigned char out0[], unsigned char out1[], const uint64_t s[50],
                                                size_t lanes) {
  NO_UNROLL
  for (size_t i = 0; i < lanes; i += 2) {
    const V a = wasm_v128_load(s + 2 * i), b = wasm_v128_load(s + 2 * i + 2);
    wasm_v128_store(out0 + 8 * i, wasm_i64x2_shuffle(a, b, 0, 2));
    wasm_v128_store(out1 + 8 * i, wasm_i64x2_shuffle(a, b, 1, 3));
  }
}

/* The matrix's nine entries (SHAKE128(rho || x || y) each, squeezed until 256 coefficients)
 * and, with in given, the sponge of rate 136 beside them (H(ek) or J(z || c): its blocks, then
 * 32 bytes out), as jobs on the two states of the two-way Keccak: the hash on state 0 first,
 * the entries on the other, and a state whose job is done takes the next entry (the AVX2
 * kernels' matrix_hash4 on four). The loop branches on the sampling's progress, i.e. on rho
 * (public), and on the hash input's length; the hash's bytes are only xored in. */
#define NO_JOB 255
static void matrix_hash2(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed,
                         unsigned char out[32], const unsigned char *in, size_t inlen,
                         unsigned char domain) {
  _Alignas(16) uint64_t s[50];
  _Alignas(16) unsigned char buf[2][SHAKE128_RATE + 8];
  _Alignas(16) int16_t coeffs[2][N + SAMPLE_SLACK];
  unsigned char last[SHAKE256_RATE];
  size_t ctr[2] = {0, 0};
  unsigned char entry[2], fresh[2] = {1, 1};
  uint64_t rho_words[4];
  const size_t hash_blocks = in != NULL ? inlen / SHAKE256_RATE + 1 : 0, tail = inlen % SHAKE256_RATE;
  size_t hashed = 0, next = 0;

  memcpy(rho_words, rho, 32);
  memset(s, 0, sizeof s);
  entry[0] = hash_blocks > 0 ? NO_JOB : (unsigned char) next++;
  entry[1] = (unsigned char) next++;
  memset(last, 0, sizeof last);
  if (hash_blocks > 0) {
    memcpy(last, in + inlen - tail, tail);
    last[tail] = domain;
    last[SHAKE256_RATE - 1] |= 0x80;
  }
  for (;;) {
    /* a new matrix entry's one block: rho, x, y and SHAKE128's padding */
    for (size_t j = 0; j < 2; j++) {
      if (entry[j] == NO_JOB || !fresh[j]) continue;
      const unsigned i = entry[j] / K, l = entry[j] % K;
      const unsigned x = transposed ? i : l, y = transposed ? l : i;
      NO_UNROLL
      for (size_t w = 0; w < 25; w++) s[2 * w + j] = 0;
      for (size_t w = 0; w < 4; w++) s[2 * w + j] = rho_words[w];
      s[8 + j] = (uint64_t) x | (uint64_t) y << 8 | (uint64_t) 0x1f << 16;
      s[2 * (SHAKE128_RATE / 8 - 1) + j] = (uint64_t) 0x80 << 56;
      fresh[j] = 0;
      ctr[j] = 0;
    }
    /* the hash's next block into state 0 */
    const int hashing = hashed < hash_blocks;
    if (hashing) {
      const unsigned char *block = hashed + 1 < hash_blocks ? in + hashed * SHAKE256_RATE : last;
      NO_UNROLL
      for (size_t w = 0; w < SHAKE256_RATE / 8; w++) {
        uint64_t v;
        memcpy(&v, block + 8 * w, 8);
        s[2 * w] ^= v;
      }
    }
    nat_keccak2x_permute_simd128(s);
    if (hashing && ++hashed == hash_blocks) {
      for (size_t w = 0; w < 4; w++) memcpy(out + 8 * w, &s[2 * w], 8);
    }
    squeeze2(buf[0], buf[1], s, 22);
    int busy = hashed < hash_blocks;
    for (size_t j = 0; j < 2; j++) {
      if (entry[j] != NO_JOB) {
        ctr[j] = rej_uniform_simd128(coeffs[j], ctr[j], buf[j]);
        if (ctr[j] >= N) {
          memcpy(a[entry[j] / K][entry[j] % K].c, coeffs[j], sizeof a[0][0].c);
          entry[j] = NO_JOB;
        }
      }
      /* a free state (state 0 once the hash is out) takes the next entry */
      if (entry[j] == NO_JOB && !(j == 0 && hashed < hash_blocks) && next < K * K) {
        entry[j] = (unsigned char) next++;
        fresh[j] = 1;
      }
      if (entry[j] != NO_JOB) busy = 1;
    }
    if (!busy) break;
  }
  /* state 0's words are the hash's (J's input holds the secret z, and Keccak is invertible) */
  sodium_memzero(s, sizeof s);
  sodium_memzero(buf[0], sizeof buf[0]);
  sodium_memzero(last, sizeof last);
}

static void matrix_simd128(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed) {
  matrix_hash2(a, rho, transposed, NULL, NULL, 0, 0);
}

static void matrix_hash_simd128(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed,
                                unsigned char out[32], const unsigned char *in, size_t inlen,
                                unsigned char domain) {
  matrix_hash2(a, rho, transposed, out, in, inlen, domain);
}

/* SamplePolyCBD_2 of 128 bytes as nat_mlkem_cbd2, sixteen bytes (32 coefficients) at a time: in
 * each byte the sums of bit pairs (x & 0x55) + (x >> 1 & 0x55), the low 2-bit sum minus the next
 * one for the even coefficient and the high two's difference for the odd one, interleaved and
 * widened to 16 bits. The shifts are 16-bit ones; the masks drop the bits they move across
 * bytes. */
__attribute__((noinline)) static void cbd2_simd128(nat_mlkem_poly *p, const unsigned char buf[128]) {
  const V m55 = wasm_i8x16_splat(0x55), m03 = wasm_i8x16_splat(0x03);
  for (size_t i = 0; i < 8; i++) {
    const V t = wasm_v128_load(buf + 16 * i);
    const V u = wasm_i8x16_add(wasm_v128_and(t, m55), wasm_v128_and(wasm_u16x8_shr(t, 1), m55));
    const V lo = wasm_i8x16_sub(wasm_v128_and(u, m03), wasm_v128_and(wasm_u16x8_shr(u, 2), m03));
    const V hi = wasm_i8x16_sub(wasm_v128_and(wasm_u16x8_shr(u, 4), m03), wasm_v128_and(wasm_u16x8_shr(u, 6), m03));
    const V e0 = wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const V e1 = wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    STOREV(p, 4 * i, wasm_i16x8_extend_low_i8x16(e0));
    STOREV(p, 4 * i + 1, wasm_i16x8_extend_high_i8x16(e0));
    STOREV(p, 4 * i + 2, wasm_i16x8_extend_low_i8x16(e1));
    STOREV(p, 4 * i + 3, wasm_i16x8_extend_high_i8x16(e1));
  }
}

/* PRF_2(sigma, k) = SHAKE256(sigma || k, 128) for two nonces at a time on the two-way Keccak
 * (33 bytes and the padding in one block, 128 bytes out of one permutation), an odd last one on
 * the scalar Keccak. */
static void noise_simd128(nat_mlkem_poly *p, size_t n, const unsigned char sigma[32]) {
  _Alignas(16) uint64_t s[50];
  _Alignas(16) unsigned char buf[2][128];
  unsigned char st[200];
  size_t k = 0;

  for (; k + 2 <= n; k += 2) {
    memset(s, 0, sizeof s);
    for (size_t w = 0; w < 4; w++) {
      uint64_t v;
      memcpy(&v, sigma + 8 * w, 8);
      s[2 * w] = s[2 * w + 1] = v;
    }
    for (size_t j = 0; j < 2; j++) {
      s[8 + j] = (uint64_t) (k + j) | (uint64_t) 0x1f << 8;
      s[2 * (SHAKE256_RATE / 8 - 1) + j] = (uint64_t) 0x80 << 56;
    }
    nat_keccak2x_permute_simd128(s);
    squeeze2(buf[0], buf[1], s, 16);
    cbd2_simd128(&p[k], buf[0]);
    cbd2_simd128(&p[k + 1], buf[1]);
  }
  if (k < n) {
    memset(st, 0, sizeof st);
    memcpy(st, sigma, 32);
    st[32] = (unsigned char) k;
    st[33] = 0x1f;
    st[SHAKE256_RATE - 1] = 0x80;
    nat_keccak_permute(st, 24);
    cbd2_simd128(&p[k], st);
  }
  sodium_memzero(s, sizeof s);
  sodium_memzero(buf, sizeof buf);
  sodium_memzero(st, sizeof st);
}

const nat_mlkem768_kernels nat_mlkem768_simd128 = {
  "simd128", ntt_simd128, invntt_simd128, basemul_acc_simd128, matrix_simd128,
  matrix_hash_simd128, noise_simd128,
  encode12_simd128, decode12_simd128, compress10_simd128, decompress10_simd128,
  compress4_simd128, decompress4_simd128, from_message_simd128, to_message_simd128,
};
#endif
