/* X25519: the functions of x25519.h, and the choice of what runs libsodium's
 * crypto_scalarmult_curve25519 (through the --wrap of x25519_wrap.c), made once when the library
 * is loaded (before any thread can call in):
 *   x86-64 with AVX-512F/VL/IFMA, BMI2 and ADX   the faster, timed here, of four field elements
 *                                                at once with IFMA ("ifma", x25519_ifma.c) and
 *                                                the MULX ladder: the IFMA ladder is latency-
 *                                                bound (three rounds of products per step) and
 *                                                its speed depends on the core's IFMA and
 *                                                shuffle latencies; on AMD Zen 5 (family 26
 *                                                model 2) it took 0.71x the MULX ladder's TSC
 *                                                cycles (gcc -O3, C, min of 200 rounds)
 *   x86-64 with BMI2 and ADX                     radix 2^64 with MULX/ADX ("mulx"). Main API
 *                                                (bench/x25519-bars.js), per-round ratios: on
 *                                                Intel Xeon family 6 model 207 (Emerald Rapids)
 *                                                1.16x libsodium's sandy2x AVX ladder; on AMD
 *                                                Zen 4 (family 25 model 17) 0.99x (77.6k against
 *                                                76.9k TSC cycles in C): a tie there, a sixth
 *                                                faster there, so ours wherever the CPU has them
 *   x86-64 with AVX, without BMI2 or ADX         libsodium's own ("libsodium": its sandy2x
 *                                                ladder; our portable one, 97k cycles on Zen 4,
 *                                                is slower than it)
 *   x86-64 with neither                          radix 2^51, portable C ("portable"; libsodium
 *                                                would run its ref10 there)
 *   everything else (arm64 ...)                  radix 2^51, portable C ("portable"; libsodium:
 *                                                ref10's 32-bit products)
 *   wasm32 (SIMD128)                             two field elements per multiplication
 *                                                ("simd128", x25519_simd128.c); the wasm
 *                                                build wraps crypto_scalarmult_curve25519 too
 *                                                (deps/build-wasm.sh), and src/wasm.c's
 *                                                nat_curve25519_impl switches to libsodium's
 *                                                ref10 for the tests (2^51 limbs with emulated
 *                                                128-bit products ran at 0.4x ref10 there)
 * NATRIUM_X25519=portable, mulx or ifma forces ours (mulx and ifma only if the CPU has them),
 * NATRIUM_DISABLE_SIMD set (and not "0") the portable one, NATRIUM_X25519=libsodium
 * libsodium's, so the tests and the benchmarks run every path on one machine.
 * nat_x25519_scalarmult itself always runs one of ours (the C tests call it directly). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "x25519.h"
#include "x25519_impl.h"

#if defined(NAT_X25519_MULX) && !defined(__wasm__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#ifdef NAT_X25519_SIMD128
const nat_x25519_kernels *nat_x25519_kernels_chosen = &nat_x25519_simd128;
#else
const nat_x25519_kernels *nat_x25519_kernels_chosen = &nat_x25519_portable;
#endif
int nat_x25519_use_libsodium = 0;

const char *nat_x25519_impl(void) {
  return nat_x25519_use_libsodium ? "libsodium" : nat_x25519_kernels_chosen->name;
}

/* The u-coordinates libsodium's ref10 refuses before any arithmetic (its has_small_order: bit
 * 255 is not compared), little-endian; the last byte is given without bit 255. */
static const unsigned char nat_x25519_small_order[7][32] = {
  { 0 },                                                                          /* 0 */
  { 1 },                                                                          /* 1 */
  { 0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa, 0xf1, 0x9f, 0xc4, 0x6a,
    0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00 }, /* order 8 */
  { 0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1, 0x55, 0x9c, 0x83, 0xef, 0x5b,
    0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c, 0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57 }, /* order 8 */
  { 0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f }, /* p - 1 */
  { 0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f }, /* p */
  { 0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f }, /* p + 1 */
};

/* 1 if u is one of them. u is public, but the comparison reads every byte anyway. */
static int nat_x25519_has_small_order(const unsigned char u[32]) {
  unsigned int found = 0;
  for (size_t i = 0; i < 7; i++) {
    unsigned int diff = 0;
    for (size_t j = 0; j < 31; j++) diff |= u[j] ^ nat_x25519_small_order[i][j];
    diff |= (u[31] & 0x7f) ^ nat_x25519_small_order[i][31];
    found |= (diff - 1) >> 8 & 1; /* 1 iff diff == 0 */
  }
  return (int) found;
}

/* RFC 7748 section 5's decodeScalar25519 */
static void nat_x25519_clamp(unsigned char k[32], const unsigned char n[32]) {
  for (size_t i = 0; i < 32; i++) k[i] = n[i];
  k[0] &= 248;
  k[31] &= 127;
  k[31] |= 64;
}

/* Zeroing the copy of the scalar through a volatile pointer, so it is not dropped as a dead store. */
static void nat_x25519_wipe(unsigned char *k, size_t len) {
  volatile unsigned char *v = k;
  for (size_t i = 0; i < len; i++) v[i] = 0;
}

int nat_x25519_scalarmult(unsigned char *q, const unsigned char *n, const unsigned char *p) {
  unsigned char k[32];
  unsigned char d = 0;

  if (nat_x25519_has_small_order(p)) return -1;
  nat_x25519_clamp(k, n);
  nat_x25519_kernels_chosen->ladder(q, k, p);
  nat_x25519_wipe(k, sizeof k);
  for (size_t i = 0; i < 32; i++) d |= q[i];
  return -(int) (1 & ((unsigned int) d - 1) >> 8); /* -1 iff q is all zeros */
}

int nat_x25519_scalarmult_base(unsigned char *q, const unsigned char *n) {
  static const unsigned char nine[32] = { 9 };
  unsigned char k[32];

  nat_x25519_clamp(k, n);
  nat_x25519_kernels_chosen->ladder(q, k, nine);
  nat_x25519_wipe(k, sizeof k);
  return 0;
}

/* wasm32: no environment to read; the SIMD128 ladder. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__wasm__)
#ifdef NAT_X25519_MULX
/* CPUID leaf 7 (subleaf 0) EBX bit 8: BMI2 (MULX); bit 19: ADX (ADCX/ADOX). General-purpose
 * registers only, so nothing to ask of the OS. */
static int nat_x25519_cpu_has_mulx(void) {
  unsigned int a, b = 0, c, d;
  if (__get_cpuid_max(0, NULL) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return (b >> 8 & 1) && (b >> 19 & 1);
}

/* What libsodium asks before it picks its sandy2x ladder: CPUID leaf 1 ECX bits 27 (OSXSAVE)
 * and 28 (AVX), and XCR0 bits 1 and 2 (the OS saves xmm and ymm state). */
static int nat_x25519_cpu_has_avx(void) {
  unsigned int a, b, c, d, xcr0, xcr0_hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1) || !(c >> 28 & 1)) return 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  return (xcr0 & 0x06) == 0x06;
}
/* CPUID leaf 7 EBX bits 16 (AVX512F), 21 (AVX512IFMA) and 31 (AVX512VL), with leaf 1 ECX bit 27
 * (OSXSAVE) and XCR0 bits 1, 2 and 5-7: the OS saves xmm, ymm and the AVX-512 state (EVEX-encoded
 * instructions need it even on ymm registers). */
static int nat_x25519_cpu_has_ifma(void) {
  unsigned int a, b, c, d, b7 = 0, xcr0, xcr0_hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1) || __get_cpuid_max(0, NULL) < 7) return 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  __cpuid_count(7, 0, a, b7, c, d);
  return (xcr0 & 0xe6) == 0xe6 && (b7 >> 16 & 1) && (b7 >> 21 & 1) && (b7 >> 31 & 1);
}

/* Whether the IFMA ladder beats the MULX one here: TSC cycles of one ladder each, the least of 6
 * alternated rounds after 2 that warm up (code pages, the clock and the vector units of a core
 * that has just woken); about 0.3 ms at load. */
static int nat_x25519_ifma_faster(void) {
  unsigned char q[32], k[32], u[32];
  uint64_t best[2] = { UINT64_MAX, UINT64_MAX };
  const nat_x25519_kernels *kernels[2] = { &nat_x25519_mulx, &nat_x25519_ifma };

  for (int i = 0; i < 32; i++) k[i] = (unsigned char) (i * 131 + 7), u[i] = (unsigned char) (i * 29 + 3);
  k[31] = (k[31] & 127) | 64;
  for (int round = 0; round < 8; round++) {
    for (int w = 0; w < 2; w++) {
      const uint64_t start = __rdtsc();
      kernels[w]->ladder(q, k, u);
      const uint64_t took = __rdtsc() - start;
      if (round >= 2 && took < best[w]) best[w] = took;
    }
  }
  return best[1] < best[0];
}
#endif

__attribute__((constructor)) static void nat_x25519_dispatch(void) {
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_X25519");
  const nat_x25519_kernels *best = &nat_x25519_portable;
  int libsodium_faster = 0;
  const int simd_off = off != NULL && off[0] != '\0' && strcmp(off, "0") != 0;
  const int forced_ours = force != NULL && (strcmp(force, "portable") == 0 || strcmp(force, "mulx") == 0 ||
                                            strcmp(force, "ifma") == 0);

#ifdef NAT_X25519_MULX
  if (nat_x25519_cpu_has_mulx()) {
    best = &nat_x25519_mulx;
    if (!simd_off && nat_x25519_cpu_has_ifma() &&
        ((force != NULL && strcmp(force, "ifma") == 0) ||
         (!forced_ours && (force == NULL || strcmp(force, "libsodium") != 0) && nat_x25519_ifma_faster()))) {
      best = &nat_x25519_ifma;
    }
  } else {
    libsodium_faster = nat_x25519_cpu_has_avx();
  }
#endif
  if (simd_off || (force != NULL && strcmp(force, "portable") == 0)) {
    nat_x25519_kernels_chosen = &nat_x25519_portable;
  } else {
    nat_x25519_kernels_chosen = best; /* "mulx" or "ifma" forced or not: the best of ours this CPU has */
  }
  nat_x25519_use_libsodium = (force != NULL && strcmp(force, "libsodium") == 0) ||
                             (libsodium_faster && !forced_ours && !simd_off);
}
#endif
