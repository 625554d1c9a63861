/* Two Keccak-f[1600] states at once in WebAssembly SIMD128 (see keccak4x.h), on the round of
 * keccak4x_round.h (v128 i holds lane i of the two states), one round a loop step (V8 spills
 * less there: 0.81x the time of two rounds a step). SIMD128 has no 64-bit rotation: two shifts
 * and an or, except by 8 and 56 (a byte shuffle, one pshufb under V8 on x86-64). About 185
 * operations a round for two states against ~155 for one in scalar code (~180 with the moves
 * of 16 registers for 25 lanes, in both); in Node 20 on Zen 5 (family 26, CPU time, loaded) a
 * permutation of the two states takes 0.52-0.64x the time of two scalar ones
 * (keccak_portable.c, also one round a step in wasm). */
#include "keccak4x.h"

#ifdef NAT_KECCAK2X_SIMD128
#include <wasm_simd128.h>

#include "keccak.h"

#define XOR(a, b) wasm_v128_xor(a, b)
#define XOR5(a, b, c, d, e) XOR(XOR(XOR(a, b), XOR(c, d)), e)
#define CHI1(a, b, c) XOR(a, wasm_v128_andnot(c, b)) /* andnot(c, b): c & ~b */
#define ROL(x, n) wasm_v128_or(wasm_i64x2_shl(x, n), wasm_u64x2_shr(x, 64 - (n)))
#define ROL8(x) wasm_i8x16_shuffle(x, x, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14)
#define ROL56(x) wasm_i8x16_shuffle(x, x, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8)

#include "keccak_rot.h"

#define KECCAK4X_VEC v128_t
#define KECCAK4X_STATES 2
#define KECCAK4X_SPLAT(rc) wasm_i64x2_splat((int64_t) (rc))
#define KECCAK4X_LD(i) wasm_v128_load(s + 2 * (i))
#define KECCAK4X_ST(i, v) wasm_v128_store(s + 2 * (i), v)
#include "keccak4x_round.h"

NAT_KECCAK4X_PERMUTE_STEP1(nat_keccak2x_permute_simd128, )
#endif
