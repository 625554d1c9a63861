/* ML-KEM-768 and X-Wing: the functions of mlkem768.h, and the choice of what runs them, made
 * once when the library is loaded (before any thread can call in):
 *   x86-64 with AVX-512F + VL (and the OS saving zmm state)   the AVX2 kernels on the
 *                                      AVX-512VL four-way Keccak ("avx512vl")
 *   x86-64 with AVX2 (and the OS saving ymm state)   the AVX2 kernels ("avx2")
 *   wasm32 (SIMD128)                                  the SIMD128 kernels ("simd128")
 *   everything else                                   the portable C ("portable")
 * NATRIUM_DISABLE_SIMD set (and not "0") keeps the portable C; NATRIUM_MLKEM=portable, avx2 or
 * avx512vl forces those kernels (if the CPU has them; else the best it has), NATRIUM_MLKEM=libsodium libsodium's own
 * crypto_kem_mlkem768_* and crypto_kem_xwing_* (reference C on every CPU), so the tests and the
 * benchmarks run every path on one machine. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "mlkem768.h"
#include "mlkem768_impl.h"

#ifdef NAT_MLKEM_X86
#include <cpuid.h>
#endif

const nat_mlkem768_kernels *nat_mlkem768_kernels_chosen = &NAT_MLKEM768_BASELINE;

/* Whether libsodium's own ML-KEM and X-Wing run (NATRIUM_MLKEM=libsodium). wasm32 has no
 * environment to read, so there it is never: libsodium's reference ML-KEM (its K-PKE, Keccak and
 * NTT, about 50 KB of the module) is then referenced by nothing and left out of the link. */
#if defined(__wasm__)
#define LIBSODIUM_CHOSEN() 0
#else
#define LIBSODIUM_CHOSEN() (nat_mlkem768_kernels_chosen == NULL)
#endif

const char *nat_kem_mlkem768_impl(void) {
  return nat_mlkem768_kernels_chosen != NULL ? nat_mlkem768_kernels_chosen->name : "libsodium";
}

int nat_kem_mlkem768_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed) {
  if (LIBSODIUM_CHOSEN()) return crypto_kem_mlkem768_seed_keypair(pk, sk, seed);
  return nat_mlkem768_ours_seed_keypair(pk, sk, seed);
}

int nat_kem_mlkem768_keypair(unsigned char *pk, unsigned char *sk) {
  unsigned char seed[crypto_kem_mlkem768_SEEDBYTES];

  randombytes_buf(seed, sizeof seed);
  const int ret = nat_kem_mlkem768_seed_keypair(pk, sk, seed);
  sodium_memzero(seed, sizeof seed);
  return ret;
}

int nat_kem_mlkem768_enc_deterministic(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
                                       const unsigned char *seed) {
  if (LIBSODIUM_CHOSEN()) return crypto_kem_mlkem768_enc_deterministic(ct, ss, pk, seed);
  return nat_mlkem768_ours_enc_deterministic(ct, ss, pk, seed);
}

int nat_kem_mlkem768_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
  unsigned char seed[32];

  randombytes_buf(seed, sizeof seed);
  const int ret = nat_kem_mlkem768_enc_deterministic(ct, ss, pk, seed);
  sodium_memzero(seed, sizeof seed);
  return ret;
}

int nat_kem_mlkem768_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
  if (LIBSODIUM_CHOSEN()) return crypto_kem_mlkem768_dec(ss, ct, sk);
  return nat_mlkem768_ours_dec(ss, ct, sk);
}

int nat_kem_xwing_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed) {
  if (LIBSODIUM_CHOSEN()) return crypto_kem_xwing_seed_keypair(pk, sk, seed);
  return nat_xwing_ours_seed_keypair(pk, sk, seed);
}

int nat_kem_xwing_keypair(unsigned char *pk, unsigned char *sk) {
  unsigned char seed[crypto_kem_xwing_SEEDBYTES];

  randombytes_buf(seed, sizeof seed);
  const int ret = nat_kem_xwing_seed_keypair(pk, sk, seed);
  sodium_memzero(seed, sizeof seed);
  return ret;
}

int nat_kem_xwing_enc_deterministic(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
                                    const unsigned char *seed) {
  if (LIBSODIUM_CHOSEN()) return crypto_kem_xwing_enc_deterministic(ct, ss, pk, seed);
  return nat_xwing_ours_enc_deterministic(ct, ss, pk, seed);
}

int nat_kem_xwing_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
  unsigned char seed[64];

  randombytes_buf(seed, sizeof seed);
  const int ret = nat_kem_xwing_enc_deterministic(ct, ss, pk, seed);
  sodium_memzero(seed, sizeof seed);
  return ret;
}

int nat_kem_xwing_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
  if (LIBSODIUM_CHOSEN()) return crypto_kem_xwing_dec(ss, ct, sk);
  return nat_xwing_ours_dec(ss, ct, sk);
}

/* wasm32: no environment to read, and the SIMD128 kernels. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__wasm__)
#ifdef NAT_MLKEM_X86
/* CPUID leaf 1 ECX bits 23 (POPCNT), 27 (OSXSAVE) and 28 (AVX), leaf 7 EBX bit 5 (AVX2); XCR0
 * bits 1 and 2: the OS saves xmm and ymm state. */
static int cpu_has_avx2(void) {
  unsigned int a, b, c, d, b7 = 0, xcr0, xcr0_hi;

  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 23 & 1) || !(c >> 27 & 1) || !(c >> 28 & 1)) return 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c, d);
  return (xcr0 & 0x06) == 0x06 && (b7 >> 5 & 1);
}

/* CPUID leaf 7 EBX bits 16 (AVX512F) and 31 (AVX512VL); XCR0 bits 5 to 7: the OS saves the
 * opmask and zmm state, without which EVEX instructions fault even on ymm registers. */
static int cpu_has_avx512vl(void) {
  unsigned int a, b7 = 0, c, d, xcr0, xcr0_hi;

  if (!cpu_has_avx2()) return 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  __cpuid_count(7, 0, a, b7, c, d);
  return (xcr0 & 0xe6) == 0xe6 && (b7 >> 16 & 1) && (b7 >> 31 & 1);
}
#endif

__attribute__((constructor)) static void nat_mlkem768_dispatch(void) {
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_MLKEM");
  const nat_mlkem768_kernels *best = &nat_mlkem768_portable;

#ifdef NAT_MLKEM_X86
  const nat_mlkem768_kernels *avx2 = NULL;
  if (cpu_has_avx2()) {
    nat_mlkem768_avx2_init();
    best = avx2 = &nat_mlkem768_avx2;
    if (cpu_has_avx512vl()) best = &nat_mlkem768_avx512vl;
  }
#endif
  if (force != NULL && strcmp(force, "libsodium") == 0) {
    nat_mlkem768_kernels_chosen = NULL;
  } else if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) {
    nat_mlkem768_kernels_chosen = &nat_mlkem768_portable;
  } else if (force != NULL && strcmp(force, "portable") == 0) {
    nat_mlkem768_kernels_chosen = &nat_mlkem768_portable;
#ifdef NAT_MLKEM_X86
  } else if (force != NULL && strcmp(force, "avx2") == 0 && avx2 != NULL) {
    nat_mlkem768_kernels_chosen = avx2;
#endif
  } else {
    nat_mlkem768_kernels_chosen = best; /* "avx512vl" forced or not: the best this CPU has */
  }
}
#endif
