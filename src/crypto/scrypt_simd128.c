/* scrypt's ROMix with WebAssembly SIMD128: see scrypt_simd.h. */
#include "scrypt_impl.h"

#ifdef NAT_SCRYPT_SIMD128
#include <wasm_simd128.h>

#define NAT_V v128_t
#define NAT_V_LOAD(p) wasm_v128_load(p)
#define NAT_V_STORE(p, v) wasm_v128_store(p, v)
#define NAT_V_ADD(a, b) wasm_i32x4_add(a, b)
#define NAT_V_XOR(a, b) wasm_v128_xor(a, b)
#define NAT_V_ROTL(v, n) wasm_v128_or(wasm_i32x4_shl(v, n), wasm_u32x4_shr(v, 32 - (n)))
#define NAT_V_ROT1(v) wasm_i32x4_shuffle(v, v, 1, 2, 3, 0)
#define NAT_V_ROT2(v) wasm_i32x4_shuffle(v, v, 2, 3, 0, 1)
#define NAT_V_ROT3(v) wasm_i32x4_shuffle(v, v, 3, 0, 1, 2)
#define NAT_V_LANE0(v) ((uint32_t) wasm_i32x4_extract_lane(v, 0))
#define NAT_SCRYPT_ROMIX nat_scrypt_romix_simd128
#define NAT_SCRYPT_TARGET

#include "scrypt_simd.h"
#endif
