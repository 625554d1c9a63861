/* ML-KEM-768's kernels with AVX2 (see mlkem768_impl.h), written from FIPS 203 and the published
 * techniques for lattice NTTs in 16-bit lanes (Seiler, "Faster AVX2 optimized NTT
 * multiplication for Ring-LWE lattice cryptography", 2018):
 *   - sixteen coefficients per ymm; a Montgomery product by a constant zeta is vpmulhw(a, zeta)
 *     - vpmulhw(vpmullw(a, zeta q^-1), q): the low halves of a zeta and t q agree, so the high
 *     halves' difference is (a zeta - t q) / 2^16 exactly, the scalar code's value;
 *   - the NTT's layers with len >= 16 pair whole registers; len = 8, 4, 2 pair 128-bit halves,
 *     64-bit and 32-bit pieces of two registers, brought side by side by vperm2i128, vpunpck*qdq
 *     and vpblendd and put back after the butterflies, so the coefficients stay in FIPS 203's
 *     order between kernels (mlkem768.c's encodings read them as they are); the zetas of those
 *     layers are read from the scalar table with one broadcast and one vpshufb;
 *   - the base multiplication sums a0 b0 + gamma a1 b1 and a0 b1 + a1 b0 with vpmaddwd in 32-bit
 *     lanes over the three products and reduces once (a 32-bit Montgomery reduction of the even
 *     and odd sums together, their halves regrouped by vpblendw);
 *   - SHAKE128 of four matrix entries and SHAKE256 of four noise seeds at once on the four-way
 *     Keccak (keccak4x_avx2.c); the rejection sampling and the CBD stay scalar, on its output.
 * The bounds are the scalar code's (mlkem768_portable.c), as the same reductions sit at the same
 * places; test/c/mlkem768.c compares every kernel with the portable one. */
#include <sodium.h>
#include <string.h>

#include "keccak.h"
#include "keccak4x.h"
#include "mlkem768_impl.h"

#ifdef NAT_MLKEM_X86
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline, target("avx2")))

#define Q NAT_MLKEM_Q
#define N NAT_MLKEM_N
#define K NAT_MLKEM_K

#define ADD _mm256_add_epi16
#define SUB _mm256_sub_epi16
#define V16(x) _mm256_set1_epi16((short) (x))

/* a z R^-1 for zq = z q^-1 mod 2^16 (lane by lane): |result| < q for |a z| < q 2^15. */
INLINE __m256i mont_const(__m256i a, __m256i z, __m256i zq) {
  const __m256i hi = _mm256_mulhi_epi16(a, z);
  const __m256i t = _mm256_mullo_epi16(a, zq);
  return SUB(hi, _mm256_mulhi_epi16(t, V16(Q)));
}

/* a b R^-1 lane by lane, for |a b| < q 2^15. */
INLINE __m256i mont_mul(__m256i a, __m256i b) {
  const __m256i hi = _mm256_mulhi_epi16(a, b);
  const __m256i t = _mm256_mullo_epi16(_mm256_mullo_epi16(a, b), V16(NAT_MLKEM_QINV));
  return SUB(hi, _mm256_mulhi_epi16(t, V16(Q)));
}

/* a - round(a 20159 / 2^26) q, the quotient taken as round(floor(a 20159 / 2^16) / 2^10) (one
 * vpmulhw, one vpmulhrsw): |result| <= (q - 1) / 2 for every int16_t a. */
INLINE __m256i barrett(__m256i a) {
  const __m256i t = _mm256_mulhrs_epi16(_mm256_mulhi_epi16(a, V16(20159)), V16(1 << 5));
  return SUB(a, _mm256_mullo_epi16(t, V16(Q)));
}

INLINE void zeta_pair(__m256i *z, __m256i *zq, __m256i zv) {
  *z = zv;
  *zq = _mm256_mullo_epi16(zv, V16(NAT_MLKEM_QINV));
}

/* Cooley-Tukey (forward) and Gentleman-Sande (inverse) butterflies. */
#define CT(a, b, z, zq)                          \
  do {                                           \
    const __m256i t_ = mont_const(b, z, zq);     \
    b = SUB(a, t_);                              \
    a = ADD(a, t_);                              \
  } while (0)

#define GS(a, b, z, zq)                          \
  do {                                           \
    const __m256i t_ = a;                        \
    a = barrett(ADD(t_, b));                     \
    b = mont_const(SUB(b, t_), z, zq);           \
  } while (0)

/* Pieces of registers x (the lower coefficients) and y side by side: for len = 8, the 128-bit
 * halves (a = x.lo, y.lo; b = x.hi, y.hi); len = 4, 64-bit pieces (a = x.q0, y.q0, x.q2, y.q2;
 * b = x.q1, ...); len = 2, 32-bit pieces (a = x.d0, y.d0, x.d2, y.d2, ...). Each SPLIT is its
 * own inverse's mirror: JOIN takes the butterflies' outputs back. */
#define SPLIT8(x, y, a, b) \
  do { a = _mm256_permute2x128_si256(x, y, 0x20); b = _mm256_permute2x128_si256(x, y, 0x31); } while (0)
#define JOIN8(a, b, x, y) SPLIT8(a, b, x, y)
#define SPLIT4(x, y, a, b) \
  do { a = _mm256_unpacklo_epi64(x, y); b = _mm256_unpackhi_epi64(x, y); } while (0)
#define JOIN4(a, b, x, y) SPLIT4(a, b, x, y)
#define SPLIT2(x, y, a, b)                                                  \
  do {                                                                      \
    a = _mm256_blend_epi32(x, _mm256_slli_epi64(y, 32), 0xaa);              \
    b = _mm256_blend_epi32(_mm256_srli_epi64(x, 32), y, 0xaa);              \
  } while (0)
#define JOIN2(a, b, x, y) SPLIT2(a, b, x, y)

/* The zetas of registers 2p and 2p + 1 in the len = 8, 4, 2 layers, lane by lane as SPLIT puts
 * the pieces: forward from nat_mlkem_zetas[16 + 2p], [32 + 4p], [64 + 8p] upwards, inverse
 * from [31 - 2p], [63 - 4p], [127 - 8p] downwards. */
INLINE __m256i zetas8(size_t first, int down) {
  const __m256i lo = V16(nat_mlkem_zetas[first]), hi = V16(nat_mlkem_zetas[down ? first - 1 : first + 1]);
  return _mm256_permute2x128_si256(lo, hi, 0x20);
}

INLINE __m256i zetas4(size_t at) { /* four zetas from nat_mlkem_zetas[at], as chunks 0, 2, 1, 3 */
  const __m256i w = _mm256_set1_epi64x((long long) ((uint64_t) (uint16_t) nat_mlkem_zetas[at] |
                                                    (uint64_t) (uint16_t) nat_mlkem_zetas[at + 1] << 16 |
                                                    (uint64_t) (uint16_t) nat_mlkem_zetas[at + 2] << 32 |
                                                    (uint64_t) (uint16_t) nat_mlkem_zetas[at + 3] << 48));
  return _mm256_shuffle_epi8(w, _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5,
                                                 2, 3, 2, 3, 2, 3, 2, 3, 6, 7, 6, 7, 6, 7, 6, 7));
}

INLINE __m256i zetas2(size_t at) { /* eight zetas from nat_mlkem_zetas[at], as chunks 0, 4, 1, 5, ... */
  const __m256i w = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) (const void *) &nat_mlkem_zetas[at]));
  return _mm256_shuffle_epi8(w, _mm256_setr_epi8(0, 1, 0, 1, 8, 9, 8, 9, 2, 3, 2, 3, 10, 11, 10, 11,
                                                 4, 5, 4, 5, 12, 13, 12, 13, 6, 7, 6, 7, 14, 15, 14, 15));
}

/* The same read backwards: nat_mlkem_zetas[top], [top - 1], ... */
INLINE __m256i zetas4_down(size_t top) {
  const __m256i w = _mm256_set1_epi64x((long long) ((uint64_t) (uint16_t) nat_mlkem_zetas[top] |
                                                    (uint64_t) (uint16_t) nat_mlkem_zetas[top - 1] << 16 |
                                                    (uint64_t) (uint16_t) nat_mlkem_zetas[top - 2] << 32 |
                                                    (uint64_t) (uint16_t) nat_mlkem_zetas[top - 3] << 48));
  return _mm256_shuffle_epi8(w, _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5,
                                                 2, 3, 2, 3, 2, 3, 2, 3, 6, 7, 6, 7, 6, 7, 6, 7));
}

INLINE __m256i zetas2_down(size_t top) {
  const __m256i w = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) (const void *) &nat_mlkem_zetas[top - 7]));
  return _mm256_shuffle_epi8(w, _mm256_setr_epi8(14, 15, 14, 15, 6, 7, 6, 7, 12, 13, 12, 13, 4, 5, 4, 5,
                                                 10, 11, 10, 11, 2, 3, 2, 3, 8, 9, 8, 9, 0, 1, 0, 1));
}

#define LOADV(p, i) _mm256_load_si256((const __m256i *) (const void *) ((p)->c + 16 * (i)))
#define STOREV(p, i, v) _mm256_store_si256((__m256i *) (void *) ((p)->c + 16 * (i)), v)

AVX2 static void ntt_avx2(nat_mlkem_poly *p) {
  __m256i v[16], z, zq;

  for (size_t i = 0; i < 16; i++) v[i] = LOADV(p, i);
  /* len = 128, 64, 32, 16: registers i and i + len / 16 */
  size_t k = 1;
  for (size_t step = 8; step >= 1; step >>= 1) {
    for (size_t start = 0; start < 16; start += 2 * step) {
      zeta_pair(&z, &zq, V16(nat_mlkem_zetas[k++]));
      for (size_t i = start; i < start + step; i++) CT(v[i], v[i + step], z, zq);
    }
  }
  for (size_t pr = 0; pr < 8; pr++) {
    __m256i x = v[2 * pr], y = v[2 * pr + 1], a, b;
    SPLIT8(x, y, a, b);
    zeta_pair(&z, &zq, zetas8(16 + 2 * pr, 0));
    CT(a, b, z, zq);
    JOIN8(a, b, x, y);
    SPLIT4(x, y, a, b);
    zeta_pair(&z, &zq, zetas4(32 + 4 * pr));
    CT(a, b, z, zq);
    JOIN4(a, b, x, y);
    SPLIT2(x, y, a, b);
    zeta_pair(&z, &zq, zetas2(64 + 8 * pr));
    CT(a, b, z, zq);
    JOIN2(a, b, x, y);
    STOREV(p, 2 * pr, barrett(x));
    STOREV(p, 2 * pr + 1, barrett(y));
  }
}

AVX2 static void invntt_avx2(nat_mlkem_poly *p) {
  __m256i v[16], z, zq;

  for (size_t pr = 0; pr < 8; pr++) {
    __m256i x = LOADV(p, 2 * pr), y = LOADV(p, 2 * pr + 1), a, b;
    SPLIT2(x, y, a, b);
    zeta_pair(&z, &zq, zetas2_down(127 - 8 * pr));
    GS(a, b, z, zq);
    JOIN2(a, b, x, y);
    SPLIT4(x, y, a, b);
    zeta_pair(&z, &zq, zetas4_down(63 - 4 * pr));
    GS(a, b, z, zq);
    JOIN4(a, b, x, y);
    SPLIT8(x, y, a, b);
    zeta_pair(&z, &zq, zetas8(31 - 2 * pr, 1));
    GS(a, b, z, zq);
    JOIN8(a, b, x, y);
    v[2 * pr] = x;
    v[2 * pr + 1] = y;
  }
  size_t k = 15;
  for (size_t step = 1; step <= 8; step <<= 1) {
    for (size_t start = 0; start < 16; start += 2 * step) {
      zeta_pair(&z, &zq, V16(nat_mlkem_zetas[k--]));
      for (size_t i = start; i < start + step; i++) GS(v[i], v[i + step], z, zq);
    }
  }
  /* times 128^-1 R^2 (mlkem768_portable.c's INVNTT_F) */
  zeta_pair(&z, &zq, V16(1441));
  for (size_t i = 0; i < 16; i++) STOREV(p, i, mont_const(v[i], z, zq));
}

/* Register i of a and b holds pairs 8i..8i+7 (coefficients 16i..16i+15). even = a0 b0 +
 * gamma (a1 b1 R^-1) and odd = a0 b1 + a1 b0 per pair, as 32-bit sums over k by vpmaddwd. */
AVX2 static void basemul_acc_avx2(nat_mlkem_poly *r, const nat_mlkem_poly a[K], const nat_mlkem_poly b[K]) {
  for (size_t i = 0; i < 16; i++) {
    const __m256i gamma = _mm256_slli_epi32(
      _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *) (const void *) &nat_mlkem_gammas[8 * i])), 16);
    __m256i even = _mm256_setzero_si256(), odd = _mm256_setzero_si256();
    for (size_t k = 0; k < K; k++) {
      const __m256i x = LOADV(&a[k], i), y = LOADV(&b[k], i);
      const __m256i m = mont_mul(x, y); /* odd lanes: a1 b1 R^-1 */
      even = _mm256_add_epi32(even, _mm256_madd_epi16(_mm256_blend_epi16(x, m, 0xaa),
                                                       _mm256_blend_epi16(y, gamma, 0xaa)));
      const __m256i yswap = _mm256_or_si256(_mm256_slli_epi32(y, 16), _mm256_srli_epi32(y, 16));
      odd = _mm256_add_epi32(odd, _mm256_madd_epi16(x, yswap));
    }
    /* 32-bit Montgomery reduction of both: lows in lo (even in even lanes, odd in odd lanes),
     * highs in hi; the lows of the sum and of t q agree, so hi - (t q)_high is exact */
    const __m256i lo = _mm256_blend_epi16(even, _mm256_slli_epi32(odd, 16), 0xaa);
    const __m256i hi = _mm256_blend_epi16(_mm256_srli_epi32(even, 16), odd, 0xaa);
    const __m256i t = _mm256_mullo_epi16(lo, V16(NAT_MLKEM_QINV));
    STOREV(r, i, SUB(hi, _mm256_mulhi_epi16(t, V16(Q))));
  }
}

/* The four-way Keccak the sampling runs on (keccak4x.h): AVX2's, or AVX-512VL's where the CPU
 * has it; everything else is the same in both kernel sets. */
typedef void (*permute4_fn)(uint64_t s[100]);

/* The four-way Keccak's state j as bytes: lanes from..from + count - 1 to out. */
static void lanes_out(unsigned char *out, const uint64_t s[100], size_t j, size_t count) {
  for (size_t i = 0; i < count; i++) memcpy(out + 8 * i, &s[4 * i + j], 8);
}

/* Four sponges with a 32-byte seed and the bytes tail[j] (two for SHAKE128, one for SHAKE256)
 * and SHAKE's padding, absorbed in one block of rate bytes. */
static void absorb4(uint64_t s[100], const unsigned char seed[32], const unsigned char tail[4][2],
                    size_t tail_len, size_t rate) {
  memset(s, 0, 100 * sizeof s[0]);
  for (size_t i = 0; i < 4; i++) {
    uint64_t w;
    memcpy(&w, seed + 8 * i, 8);
    for (size_t j = 0; j < 4; j++) s[4 * i + j] = w;
  }
  for (size_t j = 0; j < 4; j++) {
    uint64_t w = (uint64_t) 0x1f << (8 * tail_len);
    for (size_t t = 0; t < tail_len; t++) w |= (uint64_t) tail[j][t] << (8 * t);
    s[16 + j] = w;
    s[4 * (rate / 8 - 1) + j] = (uint64_t) 0x80 << 56;
  }
}

#define SHAKE128_RATE 168
#define SHAKE256_RATE 136

/* The pshufb control that moves the 16-bit lanes picked by an 8-bit mask to the front, in
 * order (filled in at load by nat_mlkem768_avx2_init). */
static _Alignas(16) unsigned char compact[256][16];

void nat_mlkem768_avx2_init(void) {
  for (unsigned m = 0; m < 256; m++) {
    size_t n = 0;
    for (unsigned i = 0; i < 8; i++) {
      if (m >> i & 1) {
        compact[m][2 * n] = (unsigned char) (2 * i);
        compact[m][2 * n + 1] = (unsigned char) (2 * i + 1);
        n++;
      }
    }
    for (; n < 8; n++) compact[m][2 * n] = compact[m][2 * n + 1] = 0x80;
  }
}

/* Algorithm 7's loop on 168 bytes, sixteen candidates (24 bytes) at a time: the bytes of
 * candidates 0-7 to the low half, 8-15 to the high half, each candidate's two bytes to a 16-bit
 * lane, the odd ones shifted down by 4, all masked to 12 bits and compared with q; the accepted
 * lanes of each half are moved to the front by a table lookup and stored (up to 8 lanes beyond
 * the count: out has room) in order, as the scalar loop takes them. Public data only. */
#define SAMPLE_SLACK 16
AVX2 __attribute__((target("popcnt"))) static size_t rej_uniform_avx2(int16_t *out, size_t ctr,
                                                                       const unsigned char buf[SHAKE128_RATE + 8]) {
  const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
                                          4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
  for (size_t pos = 0; pos < SHAKE128_RATE && ctr < N; pos += 24) {
    const __m256i raw = _mm256_loadu_si256((const __m256i *) (const void *) (buf + pos));
    /* qwords 0, 1 | 1, 2: bytes 0-15 low, 8-23 high (candidate 8's bytes start at 12 = 8 + 4) */
    __m256i x = _mm256_shuffle_epi8(_mm256_permute4x64_epi64(raw, 0x94), spread);
    x = _mm256_blend_epi16(x, _mm256_srli_epi16(x, 4), 0xaa);
    x = _mm256_and_si256(x, V16(0xfff));
    const __m256i good = _mm256_cmpgt_epi16(V16(Q), x);
    const unsigned mask = (unsigned) _mm256_movemask_epi8(_mm256_packs_epi16(good, good));
    const unsigned lo = mask & 0xff, hi = mask >> 16 & 0xff;
    const __m128i xlo = _mm256_castsi256_si128(x), xhi = _mm256_extracti128_si256(x, 1);
    _mm_storeu_si128((__m128i *) (void *) (out + ctr),
                     _mm_shuffle_epi8(xlo, _mm_load_si128((const __m128i *) (const void *) compact[lo])));
    ctr += (size_t) __builtin_popcount(lo);
    _mm_storeu_si128((__m128i *) (void *) (out + ctr),
                     _mm_shuffle_epi8(xhi, _mm_load_si128((const __m128i *) (const void *) compact[hi])));
    ctr += (size_t) __builtin_popcount(hi);
  }
  return ctr;
}

/* The first 21 lanes (168 bytes) of each state to out[j]: 4 x 4 blocks of lanes transposed in
 * registers, so that each 32-byte load of the sampling finds one 32-byte store to read from. */
AVX2 static void squeeze4_168(unsigned char out[4][SHAKE128_RATE + 8], const uint64_t s[100]) {
  for (size_t g = 0; g < 5; g++) {
    const __m256i a0 = _mm256_load_si256((const __m256i *) (const void *) (s + 16 * g));
    const __m256i a1 = _mm256_load_si256((const __m256i *) (const void *) (s + 16 * g + 4));
    const __m256i a2 = _mm256_load_si256((const __m256i *) (const void *) (s + 16 * g + 8));
    const __m256i a3 = _mm256_load_si256((const __m256i *) (const void *) (s + 16 * g + 12));
    const __m256i t0 = _mm256_unpacklo_epi64(a0, a1), t1 = _mm256_unpackhi_epi64(a0, a1);
    const __m256i t2 = _mm256_unpacklo_epi64(a2, a3), t3 = _mm256_unpackhi_epi64(a2, a3);
    _mm256_storeu_si256((__m256i *) (void *) (out[0] + 32 * g), _mm256_permute2x128_si256(t0, t2, 0x20));
    _mm256_storeu_si256((__m256i *) (void *) (out[1] + 32 * g), _mm256_permute2x128_si256(t1, t3, 0x20));
    _mm256_storeu_si256((__m256i *) (void *) (out[2] + 32 * g), _mm256_permute2x128_si256(t0, t2, 0x31));
    _mm256_storeu_si256((__m256i *) (void *) (out[3] + 32 * g), _mm256_permute2x128_si256(t1, t3, 0x31));
  }
  for (size_t j = 0; j < 4; j++) memcpy(out[j] + 160, &s[80 + j], 8);
}

/* Four matrix entries: SHAKE128(rho || x || y) each, squeezed a block at a time for all four
 * until each has 256 coefficients (public data: the loop may stop early). */
static void sample_ntt4(nat_mlkem_poly *p[4], const unsigned char rho[32], const unsigned char xy[4][2],
                        permute4_fn permute4) {
  _Alignas(32) uint64_t s[100];
  _Alignas(32) unsigned char buf[4][SHAKE128_RATE + 8] = {{0}};
  int16_t out[4][N + SAMPLE_SLACK];
  size_t ctr[4] = {0, 0, 0, 0};

  absorb4(s, rho, xy, 2, SHAKE128_RATE);
  while (ctr[0] < N || ctr[1] < N || ctr[2] < N || ctr[3] < N) {
    permute4(s);
    squeeze4_168(buf, s);
    for (size_t j = 0; j < 4; j++) {
      if (ctr[j] < N) ctr[j] = rej_uniform_avx2(out[j], ctr[j], buf[j]);
    }
  }
  for (size_t j = 0; j < 4; j++) memcpy(p[j]->c, out[j], sizeof p[j]->c);
}

static void matrix4(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed, permute4_fn permute4) {
  nat_mlkem_poly *p[4];
  unsigned char xy[4][2];

  for (size_t e = 0; e + 4 <= K * K; e += 4) {
    for (size_t j = 0; j < 4; j++) {
      const size_t i = (e + j) / K, l = (e + j) % K;
      p[j] = &a[i][l];
      xy[j][0] = (unsigned char) (transposed ? i : l);
      xy[j][1] = (unsigned char) (transposed ? l : i);
    }
    sample_ntt4(p, rho, xy, permute4);
  }
  /* the ninth on one state: four-way Keccak for one is slower than the scalar one */
  nat_mlkem_sample_ntt(&a[K - 1][K - 1], rho, K - 1, K - 1);
}

/* The matrix's nine entries (SHAKE128(rho || x || y) each, squeezed until 256 coefficients)
 * and the sponge of rate 136 beside it (H(ek) or J(z || c): its blocks, then 32 bytes out), as
 * jobs on the four lanes of the four-way Keccak: the hash on lane 0, the entries on the others,
 * and a lane whose job is done takes the next entry, so few permutations run with idle lanes
 * (the hash's 9 blocks against 3 lanes of three entries of about 3 blocks each) and none on the
 * scalar Keccak. The loop branches on the sampling's progress, i.e. on rho (public), and on
 * the hash input's length; the hash's bytes are only xored in. Without a hash (in = NULL, as in
 * keygen) all four lanes sample: that pays on the AVX-512VL Keccak, but on AVX2's 27 lane-blocks
 * on 4 lanes measured slower than matrix4's two groups of four and the ninth entry on the
 * scalar Keccak. */
#define NO_JOB 255
static void matrix_hash4(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed,
                         unsigned char out[32], const unsigned char *in, size_t inlen,
                         unsigned char domain, permute4_fn permute4) {
  _Alignas(32) uint64_t s[100];
  _Alignas(32) unsigned char buf[4][SHAKE128_RATE + 8] = {{0}};
  unsigned char last[SHAKE256_RATE];
  int16_t coeffs[4][N + SAMPLE_SLACK];
  size_t ctr[4] = {0, 0, 0, 0};
  unsigned char entry[4], fresh[4];
  uint64_t rho_words[4];
  const size_t hash_blocks = in != NULL ? inlen / SHAKE256_RATE + 1 : 0, tail = inlen % SHAKE256_RATE;
  size_t hashed = 0, next = 0;

  memcpy(rho_words, rho, 32);
  memset(s, 0, sizeof s);
  for (size_t j = 0; j < 4; j++) {
    entry[j] = j == 0 && hash_blocks > 0 ? NO_JOB : (unsigned char) next++;
    fresh[j] = 1;
  }
  memset(last, 0, sizeof last);
  if (hash_blocks > 0) {
    memcpy(last, in + inlen - tail, tail);
    last[tail] = domain;
    last[SHAKE256_RATE - 1] |= 0x80;
  }
  for (;;) {
    /* a new matrix entry's one block: rho, x, y and SHAKE128's padding */
    for (size_t j = 0; j < 4; j++) {
      if (entry[j] == NO_JOB || !fresh[j]) continue;
      const unsigned i = entry[j] / K, l = entry[j] % K;
      const unsigned x = transposed ? i : l, y = transposed ? l : i;
      for (size_t w = 0; w < 25; w++) s[4 * w + j] = 0;
      for (size_t w = 0; w < 4; w++) s[4 * w + j] = rho_words[w];
      s[16 + j] = (uint64_t) x | (uint64_t) y << 8 | (uint64_t) 0x1f << 16;
      s[4 * (SHAKE128_RATE / 8 - 1) + j] = (uint64_t) 0x80 << 56;
      fresh[j] = 0;
      ctr[j] = 0;
    }
    /* the hash's next block into lane 0 */
    const int hashing = hashed < hash_blocks;
    if (hashing) {
      const unsigned char *block = hashed + 1 < hash_blocks ? in + hashed * SHAKE256_RATE : last;
      for (size_t w = 0; w < SHAKE256_RATE / 8; w++) {
        uint64_t v;
        memcpy(&v, block + 8 * w, 8);
        s[4 * w] ^= v;
      }
    }
    permute4(s);
    if (hashing && ++hashed == hash_blocks) lanes_out(out, s, 0, 4);
    squeeze4_168(buf, s);
    int busy = hashed < hash_blocks;
    for (size_t j = 0; j < 4; j++) {
      if (entry[j] != NO_JOB) {
        ctr[j] = rej_uniform_avx2(coeffs[j], ctr[j], buf[j]);
        if (ctr[j] >= N) {
          memcpy(a[entry[j] / K][entry[j] % K].c, coeffs[j], sizeof a[0][0].c);
          entry[j] = NO_JOB;
        }
      }
      /* a free lane (lane 0 once the hash is out) takes the next entry */
      if (entry[j] == NO_JOB && !(j == 0 && hashed < hash_blocks) && next < K * K) {
        entry[j] = (unsigned char) next++;
        fresh[j] = 1;
      }
      if (entry[j] != NO_JOB) busy = 1;
    }
    if (!busy) break;
  }
  /* lane 0's states are the hash's (J's input holds the secret z, and Keccak is invertible) */
  sodium_memzero(s, sizeof s);
  sodium_memzero(buf[0], sizeof buf[0]);
  sodium_memzero(last, sizeof last);
}

/* SamplePolyCBD_2 of 128 bytes as nat_mlkem_cbd2, sixteen bytes (32 coefficients) at a time: in
 * each byte the sums of bit pairs (x & 0x55) + (x >> 1 & 0x55), the low 2-bit sum minus the next
 * one for the even coefficient and the high two's difference for the odd one, interleaved
 * (vpunpck*bw) and widened to 16 bits. */
AVX2 static void cbd2_avx2(nat_mlkem_poly *p, const unsigned char buf[128]) {
  const __m128i m55 = _mm_set1_epi8(0x55), m03 = _mm_set1_epi8(0x03);
  for (size_t i = 0; i < 8; i++) {
    const __m128i t = _mm_loadu_si128((const __m128i *) (const void *) (buf + 16 * i));
    const __m128i u = _mm_add_epi8(_mm_and_si128(t, m55), _mm_and_si128(_mm_srli_epi16(t, 1), m55));
    const __m128i lo = _mm_sub_epi8(_mm_and_si128(u, m03), _mm_and_si128(_mm_srli_epi16(u, 2), m03));
    const __m128i hi = _mm_sub_epi8(_mm_and_si128(_mm_srli_epi16(u, 4), m03),
                                    _mm_and_si128(_mm_srli_epi16(u, 6), m03));
    STOREV(p, 2 * i, _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(lo, hi)));
    STOREV(p, 2 * i + 1, _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(lo, hi)));
  }
}

/* Noise four at a time; fewer than `fewest` left go to the scalar Keccak: on AVX2 two or fewer
 * are quicker there, on AVX-512VL the four-way permutation beats even one scalar one. */
static void noise4(nat_mlkem_poly *p, size_t n, const unsigned char sigma[32], permute4_fn permute4,
                   size_t fewest) {
  _Alignas(32) uint64_t s[100];
  unsigned char buf[128], nonces[4][2];
  size_t k = 0;

  while (n - k >= fewest) {
    const size_t m = n - k < 4 ? n - k : 4;
    for (size_t j = 0; j < 4; j++) nonces[j][0] = (unsigned char) (k + j);
    absorb4(s, sigma, nonces, 1, SHAKE256_RATE);
    permute4(s);
    for (size_t j = 0; j < m; j++) {
      lanes_out(buf, s, j, 16);
      cbd2_avx2(&p[k + j], buf);
    }
    k += m;
  }
  for (; k < n; k++) nat_mlkem_noise1(&p[k], sigma, (unsigned char) k);
  sodium_memzero(s, sizeof s);
  sodium_memzero(buf, sizeof buf);
}

static void matrix_avx2(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed) {
  matrix4(a, rho, transposed, nat_keccak4x_permute_avx2);
}

static void matrix_hash_avx2(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed,
                             unsigned char out[32], const unsigned char *in, size_t inlen,
                             unsigned char domain) {
  matrix_hash4(a, rho, transposed, out, in, inlen, domain, nat_keccak4x_permute_avx2);
}

static void noise_avx2(nat_mlkem_poly *p, size_t n, const unsigned char sigma[32]) {
  noise4(p, n, sigma, nat_keccak4x_permute_avx2, 3);
}

static void matrix_avx512vl(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed) {
  matrix_hash4(a, rho, transposed, NULL, NULL, 0, 0, nat_keccak4x_permute_avx512vl);
}

static void matrix_hash_avx512vl(nat_mlkem_poly a[K][K], const unsigned char rho[32], int transposed,
                                 unsigned char out[32], const unsigned char *in, size_t inlen,
                                 unsigned char domain) {
  matrix_hash4(a, rho, transposed, out, in, inlen, domain, nat_keccak4x_permute_avx512vl);
}

static void noise_avx512vl(nat_mlkem_poly *p, size_t n, const unsigned char sigma[32]) {
  noise4(p, n, sigma, nat_keccak4x_permute_avx512vl, 1);
}

/* The representative in [0, q) of each lane, for any int16_t. */
INLINE __m256i canonical(__m256i a) {
  const __m256i r = barrett(a);
  return ADD(r, _mm256_and_si256(_mm256_srai_epi16(r, 15), V16(Q)));
}

/* Sixteen coefficients in 24 bytes a register: each pair a + 2^12 b in a 32-bit lane (vpmaddwd),
 * its three low bytes gathered per 128-bit half (vpshufb), the halves' twelve bytes joined
 * (vpermd) and stored as 16 + 8 bytes. */
AVX2 static void encode12_avx2(unsigned char r[384], const nat_mlkem_poly *p) {
  const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
  for (size_t i = 0; i < 16; i++) {
    const __m256i w = _mm256_madd_epi16(canonical(LOADV(p, i)), _mm256_set1_epi32(0x10000001));
    const __m256i b = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(w, pack), join);
    _mm_storeu_si128((__m128i *) (void *) (r + 24 * i), _mm256_castsi256_si128(b));
    _mm_storel_epi64((__m128i *) (void *) (r + 24 * i + 16), _mm256_extracti128_si256(b, 1));
  }
}

/* The reverse: 24 bytes read as 16 + 8 (no byte beyond the 384), bytes 0-11 to the low half and
 * 12-23 to the high one (vpermd), each coefficient's two bytes to a 16-bit lane (vpshufb), the
 * odd ones shifted down by 4, all masked to 12 bits (as the matrix sampling does). */
AVX2 static void decode12_avx2(nat_mlkem_poly *p, const unsigned char a[384]) {
  const __m256i split = _mm256_setr_epi32(0, 1, 2, 2, 3, 4, 5, 5);
  const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
                                          0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11);
  for (size_t i = 0; i < 16; i++) {
    const __m128i lo = _mm_loadu_si128((const __m128i *) (const void *) (a + 24 * i));
    const __m128i hi = _mm_loadl_epi64((const __m128i *) (const void *) (a + 24 * i + 16));
    const __m256i v = _mm256_permutevar8x32_epi32(_mm256_set_m128i(hi, lo), split);
    __m256i x = _mm256_shuffle_epi8(v, spread);
    x = _mm256_blend_epi16(x, _mm256_srli_epi16(x, 4), 0xaa);
    STOREV(p, i, _mm256_and_si256(x, V16(0xfff)));
  }
}

/* Compress_10 of x in [0, q) in 32-bit lanes: ((x 161271 + 261911) >> 19) mod 2^10 equals
 * round(2^10 x / q) mod 2^10 for every such x (test/c/mlkem768.c compares the kernel with the
 * portable one on every coefficient value). */
INLINE __m256i compress10_32(__m256i x) {
  const __m256i t = _mm256_add_epi32(_mm256_mullo_epi32(x, _mm256_set1_epi32(161271)), _mm256_set1_epi32(261911));
  return _mm256_and_si256(_mm256_srli_epi32(t, 19), _mm256_set1_epi32(0x3ff));
}

/* Sixteen coefficients in 20 bytes a register: compressed in 32-bit lanes and packed back to
 * 16 bits in order, pairs joined to 20 bits (vpmaddwd), 32-bit pairs to 40 bits in each 64-bit
 * lane, whose five bytes vpshufb gathers: ten per 128-bit half, stored at 20 i and 20 i + 10 as
 * 16 bytes each (the six bytes past them are overwritten by the next store; the last register
 * goes through a buffer, so nothing is written beyond the 320). */
AVX2 static void compress10_avx2(unsigned char r[320], const nat_mlkem_poly *p) {
  const __m256i pack = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                        0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
  const __m256i low32 = _mm256_set1_epi64x(0xffffffff);
  unsigned char last[32];
  for (size_t i = 0; i < 16; i++) {
    const __m256i x = canonical(LOADV(p, i));
    const __m256i ylo = compress10_32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(x)));
    const __m256i yhi = compress10_32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(x, 1)));
    const __m256i y = _mm256_permute4x64_epi64(_mm256_packus_epi32(ylo, yhi), 0xd8);
    const __m256i w = _mm256_madd_epi16(y, _mm256_set1_epi32(0x04000001));
    const __m256i z = _mm256_or_si256(_mm256_and_si256(w, low32), _mm256_srli_epi64(_mm256_andnot_si256(low32, w), 12));
    const __m256i b = _mm256_shuffle_epi8(z, pack);
    unsigned char *out = i < 15 ? r + 20 * i : last;
    _mm_storeu_si128((__m128i *) (void *) out, _mm256_castsi256_si128(b));
    _mm_storeu_si128((__m128i *) (void *) (out + 10), _mm256_extracti128_si256(b, 1));
  }
  memcpy(r + 300, last, 20);
}

/* The reverse: bytes 0-9 of each 20 to the low half, 10-19 to the high one (read as the last
 * ten of the 16 at 20 i + 4, so no byte beyond the 320 is read), each coefficient's two bytes
 * to a 16-bit lane, shifted left (by a product) so its ten bits are the lane's top ten, then
 * Decompress_10 as vpmulhrsw(y 2^5, q) = (y q + 2^9) >> 10. */
AVX2 static void decompress10_avx2(nat_mlkem_poly *p, const unsigned char a[320]) {
  const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9,
                                          6, 7, 7, 8, 8, 9, 9, 10, 11, 12, 12, 13, 13, 14, 14, 15);
  const __m256i up = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1);
  for (size_t i = 0; i < 16; i++) {
    const __m128i lo = _mm_loadu_si128((const __m128i *) (const void *) (a + 20 * i));
    const __m128i hi = _mm_loadu_si128((const __m128i *) (const void *) (a + 20 * i + 4));
    const __m256i x = _mm256_mullo_epi16(_mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), spread), up);
    const __m256i y32 = _mm256_and_si256(_mm256_srli_epi16(x, 1), V16(0x7fe0));
    STOREV(p, i, _mm256_mulhrs_epi16(y32, V16(Q)));
  }
}

const nat_mlkem768_kernels nat_mlkem768_avx2 = {
  "avx2", ntt_avx2, invntt_avx2, basemul_acc_avx2, matrix_avx2, matrix_hash_avx2, noise_avx2,
  encode12_avx2, decode12_avx2, compress10_avx2, decompress10_avx2,
  nat_mlkem_compress4, nat_mlkem_decompress4, nat_mlkem_from_message, nat_mlkem_to_message,
};

const nat_mlkem768_kernels nat_mlkem768_avx512vl = {
  "avx512vl", ntt_avx2, invntt_avx2, basemul_acc_avx2, matrix_avx512vl, matrix_hash_avx512vl,
  noise_avx512vl, encode12_avx2, decode12_avx2, compress10_avx2, decompress10_avx2,
  nat_mlkem_compress4, nat_mlkem_decompress4, nat_mlkem_from_message, nat_mlkem_to_message,
};
#endif
