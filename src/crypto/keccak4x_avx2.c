/* Four Keccak-f[1600] states at once with AVX2 (see keccak4x.h): ymm register i holds lane i of
 * the four states, one per 64-bit element, so a round is the scalar round (keccak_portable.c's
 * plane-by-plane theta, rho, pi, chi, iota) on four lanes at a time and needs no shuffles
 * between lanes. AVX2 has no 64-bit rotation: two shifts and an or, except by 8 and 56 (a byte
 * shuffle). Zen 3 runs four 256-bit logic operations a cycle and two shifts, about 45 cycles a
 * round for four states, against ~27 for one state in scalar code. */
#include "keccak4x.h"

#ifdef NAT_KECCAK4X_AVX2
#include <immintrin.h>

#include "keccak.h"

#define AVX2 __attribute__((target("avx2")))

#define XOR(a, b) _mm256_xor_si256(a, b)
#define ANDNOT(a, b) _mm256_andnot_si256(a, b) /* ~a & b */
#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - (n)))
#define ROL8(x)                                                                                \
  _mm256_shuffle_epi8(x, _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, \
                                          7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14))
#define ROL56(x)                                                                               \
  _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, \
                                          1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8))

#define CHI(E, y, b0, b1, b2, b3, b4)        \
  E##y##0 = XOR(b0, ANDNOT(b1, b2));         \
  E##y##1 = XOR(b1, ANDNOT(b2, b3));         \
  E##y##2 = XOR(b2, ANDNOT(b3, b4));         \
  E##y##3 = XOR(b3, ANDNOT(b4, b0));         \
  E##y##4 = XOR(b4, ANDNOT(b0, b1))

/* Output plane y: at column x, input lane (x + 3y mod 5, x) with its rho offset (FIPS 202 table
 * 2); R0..R4 say how each is rotated. */
#define PLANE(E, y, s0, d0, R0, s1, d1, R1, s2, d2, R2, s3, d3, R3, s4, d4, R4) \
  do {                                                                      \
    const __m256i b0_ = R0(XOR(s0, d0)), b1_ = R1(XOR(s1, d1));             \
    const __m256i b2_ = R2(XOR(s2, d2)), b3_ = R3(XOR(s3, d3));             \
    const __m256i b4_ = R4(XOR(s4, d4));                                    \
    CHI(E, y, b0_, b1_, b2_, b3_, b4_);                                     \
  } while (0)

#define R_0(x) (x)
#define R_1(x) ROL(x, 1)
#define R_2(x) ROL(x, 2)
#define R_3(x) ROL(x, 3)
#define R_6(x) ROL(x, 6)
#define R_8(x) ROL8(x)
#define R_10(x) ROL(x, 10)
#define R_14(x) ROL(x, 14)
#define R_15(x) ROL(x, 15)
#define R_18(x) ROL(x, 18)
#define R_20(x) ROL(x, 20)
#define R_21(x) ROL(x, 21)
#define R_25(x) ROL(x, 25)
#define R_27(x) ROL(x, 27)
#define R_28(x) ROL(x, 28)
#define R_36(x) ROL(x, 36)
#define R_39(x) ROL(x, 39)
#define R_41(x) ROL(x, 41)
#define R_43(x) ROL(x, 43)
#define R_44(x) ROL(x, 44)
#define R_45(x) ROL(x, 45)
#define R_55(x) ROL(x, 55)
#define R_56(x) ROL56(x)
#define R_61(x) ROL(x, 61)
#define R_62(x) ROL(x, 62)

#define ROUND(A, E, rc)                                                                          \
  do {                                                                                           \
    const __m256i c0 = XOR(XOR(XOR(A##00, A##10), XOR(A##20, A##30)), A##40);                   \
    const __m256i c1 = XOR(XOR(XOR(A##01, A##11), XOR(A##21, A##31)), A##41);                   \
    const __m256i c2 = XOR(XOR(XOR(A##02, A##12), XOR(A##22, A##32)), A##42);                   \
    const __m256i c3 = XOR(XOR(XOR(A##03, A##13), XOR(A##23, A##33)), A##43);                   \
    const __m256i c4 = XOR(XOR(XOR(A##04, A##14), XOR(A##24, A##34)), A##44);                   \
    const __m256i d0 = XOR(c4, ROL(c1, 1)), d1 = XOR(c0, ROL(c2, 1));                           \
    const __m256i d2 = XOR(c1, ROL(c3, 1)), d3 = XOR(c2, ROL(c4, 1));                           \
    const __m256i d4 = XOR(c3, ROL(c0, 1));                                                     \
    PLANE(E, 0, A##00, d0, R_0, A##11, d1, R_44, A##22, d2, R_43, A##33, d3, R_21, A##44, d4,    \
          R_14);                                                                                 \
    E##00 = XOR(E##00, _mm256_set1_epi64x((long long) (rc)));                                  \
    PLANE(E, 1, A##03, d3, R_28, A##14, d4, R_20, A##20, d0, R_3, A##31, d1, R_45, A##42, d2,    \
          R_61);                                                                                 \
    PLANE(E, 2, A##01, d1, R_1, A##12, d2, R_6, A##23, d3, R_25, A##34, d4, R_8, A##40, d0,      \
          R_18);                                                                                 \
    PLANE(E, 3, A##04, d4, R_27, A##10, d0, R_36, A##21, d1, R_10, A##32, d2, R_15, A##43, d3,   \
          R_56);                                                                                 \
    PLANE(E, 4, A##02, d2, R_62, A##13, d3, R_55, A##24, d4, R_39, A##30, d0, R_41, A##41, d1,   \
          R_2);                                                                                  \
  } while (0)

#define LANES(P)                                                                          \
  P##00, P##01, P##02, P##03, P##04, P##10, P##11, P##12, P##13, P##14, P##20, P##21,     \
    P##22, P##23, P##24, P##30, P##31, P##32, P##33, P##34, P##40, P##41, P##42, P##43,   \
    P##44

#define LD(i) _mm256_loadu_si256((const __m256i *) (const void *) (s + 4 * (i)))
#define ST(i, v) _mm256_storeu_si256((__m256i *) (void *) (s + 4 * (i)), v)

AVX2 void nat_keccak4x_permute_avx2(uint64_t s[100]) {
  __m256i LANES(a), LANES(e);

  a00 = LD(0); a01 = LD(1); a02 = LD(2); a03 = LD(3); a04 = LD(4);
  a10 = LD(5); a11 = LD(6); a12 = LD(7); a13 = LD(8); a14 = LD(9);
  a20 = LD(10); a21 = LD(11); a22 = LD(12); a23 = LD(13); a24 = LD(14);
  a30 = LD(15); a31 = LD(16); a32 = LD(17); a33 = LD(18); a34 = LD(19);
  a40 = LD(20); a41 = LD(21); a42 = LD(22); a43 = LD(23); a44 = LD(24);
  for (unsigned int r = 0; r < 24; r += 2) {
    ROUND(a, e, nat_keccak_round_constants[r]);
    ROUND(e, a, nat_keccak_round_constants[r + 1]);
  }
  ST(0, a00); ST(1, a01); ST(2, a02); ST(3, a03); ST(4, a04);
  ST(5, a10); ST(6, a11); ST(7, a12); ST(8, a13); ST(9, a14);
  ST(10, a20); ST(11, a21); ST(12, a22); ST(13, a23); ST(14, a24);
  ST(15, a30); ST(16, a31); ST(17, a32); ST(18, a33); ST(19, a34);
  ST(20, a40); ST(21, a41); ST(22, a42); ST(23, a43); ST(24, a44);
}
#endif
