/* scrypt's ROMix with SSE2 (every x86-64 CPU): see scrypt_simd.h. */
#include "scrypt_impl.h"

#ifdef NAT_SCRYPT_X86
#include <emmintrin.h>

#define NAT_V __m128i
#define NAT_V_LOAD(p) _mm_load_si128(p)
#define NAT_V_STORE(p, v) _mm_store_si128(p, v)
#define NAT_V_ADD(a, b) _mm_add_epi32(a, b)
#define NAT_V_XOR(a, b) _mm_xor_si128(a, b)
#define NAT_V_ROTL(v, n) _mm_or_si128(_mm_slli_epi32(v, n), _mm_srli_epi32(v, 32 - (n)))
#define NAT_V_ROT1(v) _mm_shuffle_epi32(v, 0x39)
#define NAT_V_ROT2(v) _mm_shuffle_epi32(v, 0x4e)
#define NAT_V_ROT3(v) _mm_shuffle_epi32(v, 0x93)
#define NAT_V_LANE0(v) ((uint32_t) _mm_cvtsi128_si32(v))
#define NAT_SCRYPT_ROMIX nat_scrypt_romix_sse2
#define NAT_SCRYPT_TARGET

#include "scrypt_simd.h"
#endif
