/* ChaCha20: the dispatcher (see chacha20_impl.h). It picks the block function when the library is
 * loaded, before any thread can call in.
 *
 * x86-64: AVX-512F where the CPU and the OS have it (zmm state saved) and it is not measured
 * slower than AVX2 here, else AVX2, else the portable C. Both vector kernels are one instruction
 * stream of independent lanes, so their speed is throughput, not latency: on Zen 5 (family 26,
 * full-width 512-bit units) sixteen blocks per zmm pass ran at about twice the eight-block AVX2
 * rate; on cores that split zmm work in two halves (Zen 4) or lower the clock under it (some
 * Intel parts) the two come closer, and a load-time timing of both (about 50 microseconds)
 * keeps AVX-512 only where it wins by a tenth, so the choice never loses badly on a core nobody
 * measured.
 *
 * NATRIUM_DISABLE_SIMD set (and not "0") keeps the portable code; NATRIUM_CHACHA20=portable, avx2
 * or avx512 forces one (if the CPU has it), so the tests run every path on one machine. */
#include <stdlib.h>
#include <string.h>

#include "chacha20_impl.h"

#ifdef NAT_CHACHA20_X86
#include <cpuid.h>
#include <x86intrin.h>
#endif

static nat_chacha20_blocks_fn blocks_impl = nat_chacha20_blocks_portable;
static const char *impl_name = "portable";
/* 1 unless x86-64 found no vector kernel and nothing was forced */
static int preferred = 1;

void nat_chacha20_blocks(uint32_t st[16], unsigned char *out, const unsigned char *in,
                         size_t nblocks, int ctr64) {
  blocks_impl(st, out, in, nblocks, ctr64);
}

const char *nat_chacha20_impl(void) {
  return impl_name;
}

int nat_chacha20_preferred(void) {
  return preferred;
}

#ifdef NAT_CHACHA20_X86
typedef struct {
  const char *name;
  nat_chacha20_blocks_fn fn;
} candidate;

/* CPUID leaf 1 ECX bits 27 (OSXSAVE), 28 (AVX); leaf 7 EBX bits 5 (AVX2), 16 (AVX-512F); XCR0
 * bits 1, 2 (xmm, ymm state) and 5, 6, 7 (opmask, zmm state) saved by the OS. */
static size_t cpu_candidates(candidate *list) {
  unsigned int a, b, c, d, b7 = 0, xcr0 = 0, xcr0_hi;
  size_t n = 0;

  list[n++] = (candidate){"portable", nat_chacha20_blocks_portable};
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1) || !(c >> 28 & 1)) return n;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c, d);
  if ((xcr0 & 0x06) != 0x06 || !(b7 >> 5 & 1)) return n;
  list[n++] = (candidate){"avx2", nat_chacha20_blocks_avx2};
  if ((xcr0 & 0xe0) != 0xe0 || !(b7 >> 16 & 1)) return n;
  list[n++] = (candidate){"avx512", nat_chacha20_blocks_avx512};
  return n;
}

/* 1 if AVX-512 (list[2]) beats AVX2 (list[1]) by a tenth: TSC cycles for 32 blocks, the least of
 * 12 alternated rounds after 20 that warm up (code pages, and the upper halves of the vector
 * units, which some cores power up only on first use). */
static int avx512_faster(const candidate *list) {
  static unsigned char buf[32 * 64];
  uint64_t best[2] = {UINT64_MAX, UINT64_MAX};

  for (int round = 0; round < 32; round++) {
    for (size_t k = 0; k < 2; k++) {
      uint32_t st[16] = {NAT_CHACHA20_SIGMA0, NAT_CHACHA20_SIGMA1, NAT_CHACHA20_SIGMA2,
                         NAT_CHACHA20_SIGMA3};
      const uint64_t start = __rdtsc();
      list[1 + k].fn(st, buf, buf, 32, 0);
      const uint64_t took = __rdtsc() - start;
      if (round >= 20 && took < best[k]) best[k] = took;
    }
  }
  return best[1] + best[1] / 10 < best[0];
}

__attribute__((constructor)) static void nat_chacha20_dispatch(void) {
  candidate list[3];
  const size_t n = cpu_candidates(list);
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_CHACHA20");
  size_t pick = n - 1;

  if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) {
    pick = 0;
  } else if (force != NULL && force[0] != '\0') {
    pick = 0;
    for (size_t k = 0; k < n; k++) {
      if (strcmp(force, list[k].name) == 0) pick = k;
    }
  } else {
    if (n == 3 && !avx512_faster(list)) pick = 1;
    preferred = n > 1;
  }
  blocks_impl = list[pick].fn;
  impl_name = list[pick].name;
}
#endif
