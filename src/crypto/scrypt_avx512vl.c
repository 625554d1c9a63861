/* scrypt's ROMix with AVX-512VL: SSE2's code (scrypt_simd.h) with each rotation one vprold on
 * an xmm register instead of two shifts and an or, a third less on the critical path. */
#include "scrypt_impl.h"

#ifdef NAT_SCRYPT_X86
#include <immintrin.h>

#define NAT_V __m128i
#define NAT_V_LOAD(p) _mm_load_si128(p)
#define NAT_V_STORE(p, v) _mm_store_si128(p, v)
#define NAT_V_ADD(a, b) _mm_add_epi32(a, b)
#define NAT_V_XOR(a, b) _mm_xor_si128(a, b)
#define NAT_V_ROTL(v, n) _mm_rol_epi32(v, n)
#define NAT_V_ROT1(v) _mm_shuffle_epi32(v, 0x39)
#define NAT_V_ROT2(v) _mm_shuffle_epi32(v, 0x4e)
#define NAT_V_ROT3(v) _mm_shuffle_epi32(v, 0x93)
#define NAT_V_LANE0(v) ((uint32_t) _mm_cvtsi128_si32(v))
#define NAT_SCRYPT_ROMIX nat_scrypt_romix_avx512vl
#define NAT_SCRYPT_TARGET __attribute__((target("avx512f,avx512vl")))

#include "scrypt_simd.h"
#endif
