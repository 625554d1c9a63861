/* Four (or, in WebAssembly SIMD128, two) independent Keccak-f[1600] states permuted at once
 * (FIPS 202 section 3, 24 rounds), for the sponges ML-KEM runs side by side (matrix rows with
 * SHAKE128, noise with SHAKE256): s[4 i + j] (s[2 i + j]) is lane i (lane (x, y) at i = x + 5 y,
 * as in keccak.h) of state j, as a host-order uint64_t. One implementation per vector extension
 * (keccak4x_<ext>.c, keccak2x_simd128.c); the callers choose. */
#ifndef NAT_CRYPTO_KECCAK4X_H
#define NAT_CRYPTO_KECCAK4X_H

#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NAT_KECCAK4X_AVX2 1
/* AVX2 (the caller checks the CPU has it). */
void nat_keccak4x_permute_avx2(uint64_t s[100]);
/* AVX-512F + VL on ymm registers (the caller checks the CPU and the OS's zmm state). */
void nat_keccak4x_permute_avx512vl(uint64_t s[100]);
#endif

#if defined(__wasm_simd128__)
#define NAT_KECCAK2X_SIMD128 1
/* SIMD128: two states, one per 64-bit element of a v128. */
void nat_keccak2x_permute_simd128(uint64_t s[50]);
#endif

#endif
