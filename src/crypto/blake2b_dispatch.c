/* BLAKE2b: the dispatcher (see blake2b_impl.h). It picks a compression function when the library
 * is loaded, before any thread can call in.
 *
 * A vector BLAKE2b is one chain of dependent instructions per block, so its speed is the
 * vector latency; the scalar code runs the four G functions of a step side by side on the
 * integer ALUs. Which is faster depends on the core, and by up to 2x either way.
 *
 * wasm32 (no clock to time anything with): the portable C, whose worst case is mild. On Zen 4
 * (family 25: 1-cycle vector latency), through the main API in one process against
 * libsodium-wrappers-sumo 0.8.4's scalar wasm, our SIMD128 kernel (v128 rows, rows a, c, d
 * turned for the diagonals, rotations as one pshufb) ran at 0.91x / 1.40x / 1.06x (1 KB / 100 KB
 * / 1 MB) and this code at 0.78x / 1.05x / 1.05x (V8 spills the 16 state words from x64's
 * general registers, as it does libsodium.js's); on Zen 5 (family 26: 2-cycle vector latency)
 * that SIMD128 kernel ran at 0.62x of libsodium.js (0.74 against 1.2 GB/s, issue 10), and
 * NEON's 2-cycle adds on arm64 cores (where V8 has 31 registers for the scalar code) point
 * the same way. The SIMD128 kernel is in git history (src/crypto/blake2b_simd128.c).
 *
 * x86-64: the faster, timed here, of the portable C and AVX2 (where the CPU has it). On Zen 4
 * (family 25: 1-cycle vector latency, 4 ALUs) at 1 MB, in TSC cycles per byte: AVX2 2.25, portable
 * 2.54 (OpenSSL 3.0's C 2.75, libsodium's AVX2 2.35); on Zen 5 (family 26: 2-cycle vector
 * latency, 6 ALUs) libsodium's AVX2 code ran at half the speed of OpenSSL's scalar C (0.72
 * against 1.42 GB/s, issue 10). Timing both on the running CPU (about 150 microseconds at load:
 * see faster()) picks right on both, and on CPUs nobody measured, without a table of models.
 *
 * Zen 5 (EPYC, family 26 model 2), TSC cycles per byte at 1 MB, min of 200 alternated rounds in
 * one process: portable (four G in lockstep, rbp free) 1.77, the one-G-after-another version it
 * replaced 1.90 (1.83 with rbp), OpenSSL 3.0's C 1.98, AVX2 3.70, and the AVX2 kernel with
 * AVX-512VL's vprorq for the three rotations that are not shuffles 4.00 (the chain is the vector
 * latency, which vprorq does not shorten there): so no AVX-512 kernel; the measurement below picks
 * the portable code on Zen 5 and keeps AVX2 where it wins (Zen 3/4).
 *
 * NATRIUM_DISABLE_SIMD set (and not "0") keeps the portable code; NATRIUM_BLAKE2B_IMPL=portable
 * or avx2 forces one (if the CPU has it), so the tests run every path on one machine. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blake2b_impl.h"

#ifdef NAT_BLAKE2B_X86
#include <cpuid.h>
#include <x86intrin.h>
#endif

static nat_blake2b_compress_fn compress_impl = nat_blake2b_compress_portable;
static const char *impl_name = "portable";

void nat_blake2b_compress(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                          const unsigned char *in, size_t blocks, uint64_t inc) {
  compress_impl(h, t, f0, f1, in, blocks, inc);
}

const char *nat_blake2b_impl(void) {
  return impl_name;
}

#ifdef NAT_BLAKE2B_X86
typedef struct {
  const char *name;
  nat_blake2b_compress_fn fn;
} candidate;

/* CPUID leaf 1 ECX bits 27 (OSXSAVE), 28 (AVX); leaf 7 EBX bit 5 (AVX2); XCR0 bits 1, 2: the
 * OS saves xmm and ymm state. */
static size_t cpu_candidates(candidate *list) {
  unsigned int a, b, c, d, b7 = 0, xcr0 = 0, xcr0_hi;
  size_t n = 0;

  list[n++] = (candidate){"portable", nat_blake2b_compress_portable};
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1) || !(c >> 28 & 1)) return n;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c, d);
  if ((xcr0 & 0x06) != 0x06 || !(b7 >> 5 & 1)) return n;
  list[n++] = (candidate){"avx2", nat_blake2b_compress_avx2};
  return n;
}

/* Which of list[0] (the portable code) and list[1] (the vector code) is faster here: TSC cycles
 * for 16 blocks, the least of 12 alternated rounds after 20 that warm up (code pages, caches,
 * the clock and the vector units of a core that has just woken). The portable code must win by
 * a tenth: where the two are that close either will do, and a busy machine skews a single
 * measurement more than that only rarely (Zen 4 with the other core busy: 24 of 24 runs chose
 * AVX2, 13 % ahead; Zen 5 runs the portable code about twice as fast). */
static size_t faster(const candidate *list) {
  static unsigned char block[16 * 128];
  uint64_t best[2] = {UINT64_MAX, UINT64_MAX};

  for (size_t i = 0; i < sizeof block; i++) block[i] = (unsigned char) (i * 131 + 7);
  for (int round = 0; round < 32; round++) {
    for (size_t k = 0; k < 2; k++) {
      uint64_t h[8] = {0}, t[2] = {0, 0};
      const uint64_t start = __rdtsc();
      list[k].fn(h, t, 0, 0, block, 16, 128);
      const uint64_t took = __rdtsc() - start;
      if (round >= 20 && took < best[k]) best[k] = took;
    }
  }
  return best[0] + best[0] / 10 < best[1] ? 0 : 1;
}

__attribute__((constructor)) static void nat_blake2b_dispatch(void) {
  candidate list[2];
  const size_t n = cpu_candidates(list);
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_BLAKE2B_IMPL");
  size_t pick = 0;

  if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) return;
  if (force != NULL && force[0] != '\0') {
    for (size_t k = 0; k < n; k++) {
      if (strcmp(force, list[k].name) == 0) pick = k;
    }
  } else if (n > 1) {
    pick = faster(list);
  }
  compress_impl = list[pick].fn;
  impl_name = list[pick].name;
}
#endif
