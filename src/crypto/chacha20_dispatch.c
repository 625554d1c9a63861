/* ChaCha20: the dispatcher (see chacha20_impl.h). It picks the block function when the library is
 * loaded, before any thread can call in.
 *
 * x86-64: the fastest, timed here at load (about 100 microseconds), of libsodium's own stream code
 * (SSSE3 or AVX2, libsodium's choice) and our AVX2 and AVX-512F kernels where the CPU and the OS
 * have them; ours must win by a twentieth (AVX2) or a tenth (AVX-512) to be taken. On Zen 5
 * (family 26, AMD EPYC; 2-cycle vector latency, full-width 512-bit units) a ChaCha20 kernel is
 * bound by the latency of its four quarter-round chains: sixteen blocks per zmm pass ran at 6.7
 * GB/s, eight per ymm pass (ours 2.5, libsodium's 2.7 GB/s) at the same number of cycles per pass.
 * Where zmm work is split in two halves (Zen 4) or lowers the clock (some Intel parts) the
 * two come closer, and on cores with 1-cycle latency and no AVX-512 (Zen 3) ours and libsodium's
 * AVX2 code may trade places: the timing picks on each, so the choice never loses badly on a core
 * nobody here measured. wasm32: SIMD128 (chacha20_simd128.c). Elsewhere (arm64): the portable C.
 *
 * NATRIUM_DISABLE_SIMD set (and not "0") keeps the portable code; NATRIUM_CHACHA20=portable,
 * libsodium, avx2 or avx512 forces one (if the CPU has it), so the tests run every path on one
 * machine. */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "chacha20_impl.h"

#ifdef NAT_CHACHA20_X86
#include <cpuid.h>
#include <x86intrin.h>
#endif

#if defined(__wasm_simd128__)
/* wasm32: the engine maps SIMD128 onto the host's vector unit; no choice to make at run time */
static nat_chacha20_blocks_fn blocks_impl = nat_chacha20_blocks_simd128;
static nat_chacha20_blocks_fn short_impl = nat_chacha20_blocks_simd128;
static const char *impl_name = "simd128";
#else
static nat_chacha20_blocks_fn blocks_impl = nat_chacha20_blocks_portable;
static nat_chacha20_blocks_fn short_impl = nat_chacha20_blocks_portable;
static const char *impl_name = "portable";
#endif

void nat_chacha20_blocks(uint32_t st[16], unsigned char *out, const unsigned char *in,
                         size_t nblocks, int ctr64) {
  blocks_impl(st, out, in, nblocks, ctr64);
}

void nat_chacha20_blocks_short(uint32_t st[16], unsigned char *out, const unsigned char *in,
                               size_t nblocks, int ctr64) {
  short_impl(st, out, in, nblocks, ctr64);
}

const char *nat_chacha20_impl(void) {
  return impl_name;
}

#ifdef NAT_CHACHA20_X86
/* libsodium's own stream functions as a kernel (its SSSE3 or AVX2 code, chosen by libsodium):
 * the key and nonce back to bytes, the counter as its ic. The AEADs never run the IETF counter
 * past 2^32 - 1, where libsodium would stop the process. */
static void blocks_libsodium(uint32_t st[16], unsigned char *out, const unsigned char *in,
                             size_t nblocks, int ctr64) {
  unsigned char k[32], n[12];
  for (int i = 0; i < 8; i++) {
    for (int j = 0; j < 4; j++) k[4 * i + j] = (unsigned char) (st[4 + i] >> (8 * j));
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 4; j++) n[4 * i + j] = (unsigned char) (st[13 + i] >> (8 * j));
  }
  if (ctr64) {
    const uint64_t ic = (uint64_t) st[12] | (uint64_t) st[13] << 32, next = ic + nblocks;
    crypto_stream_chacha20_xor_ic(out, in, 64 * (unsigned long long) nblocks, n + 4, ic, k);
    st[12] = (uint32_t) next;
    st[13] = (uint32_t) (next >> 32);
  } else {
    crypto_stream_chacha20_ietf_xor_ic(out, in, 64 * (unsigned long long) nblocks, n, st[12], k);
    st[12] += (uint32_t) nblocks;
  }
  sodium_memzero(k, sizeof k);
}

typedef struct {
  const char *name;
  nat_chacha20_blocks_fn fn;
} candidate;

/* portable, libsodium, then what the CPU has. CPUID leaf 1 ECX bits 27 (OSXSAVE), 28 (AVX);
 * leaf 7 EBX bits 5 (AVX2), 16 (AVX-512F), 31 (AVX-512VL: the avx512 kernel's short runs); XCR0
 * bits 1, 2 (xmm, ymm state) and 5, 6, 7 (opmask, zmm state) saved by the OS. */
static size_t cpu_candidates(candidate *list) {
  unsigned int a, b, c, d, b7 = 0, xcr0 = 0, xcr0_hi;
  size_t n = 0;

  list[n++] = (candidate){"portable", nat_chacha20_blocks_portable};
  list[n++] = (candidate){"libsodium", blocks_libsodium};
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1) || !(c >> 28 & 1)) return n;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c, d);
  if ((xcr0 & 0x06) != 0x06 || !(b7 >> 5 & 1)) return n;
  list[n++] = (candidate){"avx2", nat_chacha20_blocks_avx2};
  if ((xcr0 & 0xe0) != 0xe0 || !(b7 >> 16 & 1) || !(b7 >> 31 & 1)) return n;
  list[n++] = (candidate){"avx512", nat_chacha20_blocks_avx512};
  return n;
}

/* TSC cycles for 64 blocks (the 4 KB of a message's middle) by fn: the least of 12 rounds after
 * 20 that warm up (code pages, and the upper halves of the vector units, which some cores power up
 * only on first use). */
static uint64_t cycles(nat_chacha20_blocks_fn fn, int round) {
  static unsigned char buf[64 * 64];
  uint32_t st[16] = {NAT_CHACHA20_SIGMA0, NAT_CHACHA20_SIGMA1, NAT_CHACHA20_SIGMA2,
                     NAT_CHACHA20_SIGMA3};
  const uint64_t start = __rdtsc();
  fn(st, buf, buf, 64, round & 1);
  return __rdtsc() - start;
}

/* The candidate to use: libsodium's (list[1]) unless a kernel of ours is faster here, AVX2 by a
 * twentieth, AVX-512 by a tenth (frequency effects of zmm code on some cores are not seen in a
 * short timing). Rounds alternate the candidates, so a busy machine slows them alike. */
static size_t fastest(const candidate *list, size_t n) {
  uint64_t best[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
  size_t pick = 1;

  for (int round = 0; round < 32; round++) {
    for (size_t k = 1; k < n; k++) {
      const uint64_t took = cycles(list[k].fn, round);
      if (round >= 20 && took < best[k]) best[k] = took;
    }
  }
  if (n > 2 && best[2] + best[2] / 20 < best[pick]) pick = 2;
  if (n > 3 && best[3] + best[3] / 10 < best[pick]) pick = 3;
  return pick;
}

__attribute__((constructor)) static void nat_chacha20_dispatch(void) {
  candidate list[4];
  const size_t n = cpu_candidates(list);
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_CHACHA20");
  size_t pick;

  if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) {
    pick = 0;
  } else if (force != NULL && force[0] != '\0') {
    pick = 0;
    for (size_t k = 0; k < n; k++) {
      if (strcmp(force, list[k].name) == 0) pick = k;
    }
  } else if (sodium_init() >= 0) {
    /* (libsodium picks its own stream code in sodium_init: before it, its portable code runs) */
    pick = fastest(list, n);
  } else {
    pick = n - 1;
  }
  blocks_impl = short_impl = list[pick].fn;
  impl_name = list[pick].name;
  /* unforced, short messages take our AVX2 code (one call, no key schedule) even where
   * libsodium's stream code is faster for long ones */
  if (pick == 1 && n > 2 && (force == NULL || force[0] == '\0')) short_impl = list[2].fn;
}
#endif
