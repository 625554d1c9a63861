/* Four Keccak-f[1600] states at once with AVX2 (see keccak4x.h), on the round of
 * keccak4x_round.h (ymm register i holds lane i of the four states). AVX2 has no 64-bit
 * rotation: two shifts and an or, except by 8 and 56 (a byte shuffle). Zen 3 runs four 256-bit logic operations a cycle and two shifts, about 45 cycles a
 * round for four states, against ~27 for one state in scalar code. */
#include "keccak4x.h"

#ifdef NAT_KECCAK4X_AVX2
#include <immintrin.h>

#include "keccak.h"

#define AVX2 __attribute__((target("avx2")))

#define XOR(a, b) _mm256_xor_si256(a, b)
#define XOR5(a, b, c, d, e) XOR(XOR(XOR(a, b), XOR(c, d)), e)
#define CHI1(a, b, c) XOR(a, _mm256_andnot_si256(b, c)) /* andnot: ~b & c */
#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - (n)))
#define ROL8(x)                                                                                \
  _mm256_shuffle_epi8(x, _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, \
                                          7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14))
#define ROL56(x)                                                                               \
  _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, \
                                          1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8))

#include "keccak_rot.h"

#define KECCAK4X_VEC __m256i
#define KECCAK4X_STATES 4
#define KECCAK4X_SPLAT(rc) _mm256_set1_epi64x((long long) (rc))
#define KECCAK4X_LD(i) _mm256_loadu_si256((const __m256i *) (const void *) (s + 4 * (i)))
#define KECCAK4X_ST(i, v) _mm256_storeu_si256((__m256i *) (void *) (s + 4 * (i)), v)
#include "keccak4x_round.h"

NAT_KECCAK4X_PERMUTE(nat_keccak4x_permute_avx2, AVX2)
#endif
