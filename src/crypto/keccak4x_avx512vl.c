/* Four Keccak-f[1600] states at once with AVX-512VL on ymm registers (see keccak4x.h): the
 * round of keccak4x_round.h, as keccak4x_avx2.c runs it, with the instructions AVX2 lacks:
 * vprolq rotates in one instruction (AVX2: two shifts and an or), and vpternlogq computes the
 * column parities three lanes at a time and each chi output a ^ (~b & c) in one. About 95 operations a round instead of ~190;
 * the 256-bit registers run at full rate on Zen 4, which splits 512-bit operations in two. */
#include "keccak4x.h"

#ifdef NAT_KECCAK4X_AVX2
#include <immintrin.h>

#include "keccak.h"

#define AVX512VL __attribute__((target("avx2,avx512f,avx512vl")))

#define XOR(a, b) _mm256_xor_si256(a, b)
/* truth table 0x96: a ^ b ^ c */
#define XOR5(a, b, c, d, e) _mm256_ternarylogic_epi64(_mm256_ternarylogic_epi64(a, b, c, 0x96), d, e, 0x96)
/* a ^ (~b & c): truth table 0xd2 */
#define CHI1(a, b, c) _mm256_ternarylogic_epi64(a, b, c, 0xd2)
#define ROT(x, n) _mm256_rol_epi64(x, n)

#define KECCAK4X_VEC __m256i
#define KECCAK4X_STATES 4
#define KECCAK4X_SPLAT(rc) _mm256_set1_epi64x((long long) (rc))
#define KECCAK4X_LD(i) _mm256_loadu_si256((const __m256i *) (const void *) (s + 4 * (i)))
#define KECCAK4X_ST(i, v) _mm256_storeu_si256((__m256i *) (void *) (s + 4 * (i)), v)
#include "keccak4x_round.h"

NAT_KECCAK4X_PERMUTE(nat_keccak4x_permute_avx512vl, AVX512VL)
#endif
