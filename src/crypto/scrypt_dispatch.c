/* scrypt's ROMix: the dispatcher (see scrypt_impl.h). It picks an implementation when the
 * library is loaded, before any thread can call in, and on x86-64 looks again at the first and
 * the 16th call (see retime()).
 *
 * A Salsa20/8 in SIMD is one chain of dependent vector instructions (four lanes: the four
 * columns or rows of a half-round side by side), so its speed is the vector latency, while the
 * scalar code runs the same four quarter-rounds side by side on the integer units, where a
 * rotation is one instruction. Which wins depends on the core: on Zen 5 (2-cycle vector
 * latency) the scalar code beats SSE2, and AVX-512VL's vprold takes a third of each step off
 * the vector chain (but still loses to the scalar code there). So on x86-64 the portable code and
 * the best vector code the CPU has are timed here (about 0.2 ms at load: see retime()), on any
 * CPU, without a table of models.
 *
 * wasm32 (no clock to time anything with): the portable code. On Zen 5 in V8 (Node 20), scrypt
 * N = 2^12..2^16, r = 8 through the SIMD128 ROMix ran at 0.55-0.60x the portable one (V8's
 * i32x4 adds and shifts carry the 2-cycle vector latency, and a rotation is three of them); the
 * SIMD128 code stays built (nat_scrypt_romix_simd128, tested by test/c) for a core where that
 * turns round, but is not chosen.
 *
 * NATRIUM_DISABLE_SIMD set (and not "0") keeps the portable code; NATRIUM_SCRYPT_IMPL=portable,
 * sse2 or avx512vl forces one (if the CPU has it), so the tests run every path on one machine. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scrypt_impl.h"

#ifdef NAT_SCRYPT_X86
#include <cpuid.h>
#include <x86intrin.h>
#endif

static nat_scrypt_romix_fn romix_impl = nat_scrypt_romix_portable;
static const char *impl_name = "portable";

/* On x86-64 the choice may change while other threads call (retime()): read and written as
 * relaxed atomics there (every candidate gives the same bytes); set once at load elsewhere. */
#ifdef NAT_SCRYPT_X86
static void retime(void);
static unsigned calls; /* ROMix calls so far, up to RETIME_LAST */
#define RETIME_LAST 16U
#define NAT_SCRYPT_LOAD(p) __atomic_load_n(&(p), __ATOMIC_RELAXED)
#else
#define NAT_SCRYPT_LOAD(p) (p)
#endif

void nat_scrypt_romix(uint8_t *B, size_t r, uint32_t N, uint32_t *V, uint32_t *XY) {
#ifdef NAT_SCRYPT_X86
  if (__atomic_load_n(&calls, __ATOMIC_RELAXED) < RETIME_LAST) {
    const unsigned call = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    if (call == 1 || call == RETIME_LAST) retime();
  }
#endif
  NAT_SCRYPT_LOAD(romix_impl)(B, r, N, V, XY);
}

const char *nat_scrypt_impl(void) {
  return NAT_SCRYPT_LOAD(impl_name);
}

#ifdef NAT_SCRYPT_X86
typedef struct {
  const char *name;
  nat_scrypt_romix_fn fn;
} candidate;

/* SSE2 is part of x86-64. AVX-512VL: CPUID leaf 1 ECX bit 27 (OSXSAVE), leaf 7 EBX bits 16
 * (AVX512F) and 31 (AVX512VL); XCR0 bits 1, 2 and 5-7: the OS saves xmm, ymm and the AVX-512
 * state (opmasks and the upper halves of zmm registers). */
static size_t cpu_candidates(candidate *list) {
  unsigned int a, b, c, d, b7 = 0, xcr0 = 0, xcr0_hi;
  size_t n = 0;

  list[n++] = (candidate){"portable", nat_scrypt_romix_portable};
  list[n++] = (candidate){"sse2", nat_scrypt_romix_sse2};
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1)) return n;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c, d);
  if ((xcr0 & 0xe6) != 0xe6 || !(b7 >> 16 & 1) || !(b7 >> 31 & 1)) return n;
  list[n++] = (candidate){"avx512vl", nat_scrypt_romix_avx512vl};
  return n;
}

/* The two candidates timed: the portable code and the last vector path the CPU has (AVX-512VL is
 * SSE2's code with each rotation one vprold instead of two shifts and an or, so where it exists
 * SSE2 cannot win and is not timed). Set at load; left empty, so that retime() does nothing, where
 * a path is forced or NATRIUM_DISABLE_SIMD is set. */
static candidate timed[2];
static uint64_t least[2] = {UINT64_MAX, UINT64_MAX};
static int timing = 1; /* 0 while nobody times (taken by an atomic exchange) */

/* Times the two candidates and switches to the faster, by the least TSC cycles each ever took:
 * ROMix with N = 4, r = 8 (128 Salsa20/8 cores, the block size everybody uses: libsodium's scrypt
 * is r = 8 only), 12 alternated rounds after 4 that warm up (code pages, caches, the clock and the
 * vector units of a core that has just woken); about 0.2 ms. The portable code must win by a
 * tenth: where it and a vector path are that close either will do.
 *
 * Why three times (at load, then at the first and the 16th ROMix call, by whichever thread makes
 * it, while the others run the choice of the moment): the two trade places by core by up to 2x
 * (Zen 5, family 26 model 2: portable 94 TSC cycles per core, AVX-512VL 141; an Intel Xeon family
 * 6 model 207: AVX-512VL takes 0.47-0.66x the portable code's time), and one timing can see the
 * scalar code slowed for all its 0.2 ms by a busy sibling thread of the core: at load, timed once,
 * Zen 5 picked AVX-512VL in 1 of 30 processes on an idle machine and 3 of 30 with both cores busy.
 * The least time over three timings apart in time reads the core, not the moment.
 *
 * Not r = 1, as before: per BlockMix the portable code has more to do around its 2r cores than the
 * vector code, so r = 1 understates it: on Zen 5, r = 1 portable 136, AVX-512VL 148 TSC cycles per
 * core (within the tenth, so AVX-512VL was picked), r = 8 97-111 against 143; through the API, N =
 * 2^12..2^14, portable 1.28-1.31x crypto.scryptSync, AVX-512VL 0.87-0.92x. */
static void retime(void) {
  static uint32_t V[4 * 32 * 8] __attribute__((aligned(64)));
  static uint32_t XY[64 * 8 + 16] __attribute__((aligned(64)));
  static uint8_t B[128 * 8];

  if (timed[1].fn == NULL || !__atomic_exchange_n(&timing, 0, __ATOMIC_ACQUIRE)) return;
  for (size_t i = 0; i < sizeof B; i++) B[i] = (uint8_t) (i * 131 + 7);
  for (int round = 0; round < 16; round++) {
    for (size_t k = 0; k < 2; k++) {
      const uint64_t start = __rdtsc();
      timed[k].fn(B, 8, 4, V, XY);
      const uint64_t took = __rdtsc() - start;
      if (round >= 4 && took < least[k]) least[k] = took;
    }
  }
  memset(V, 0, sizeof V), memset(XY, 0, sizeof XY);
  const candidate *pick = &timed[least[1] < least[0] + least[0] / 10];
  __atomic_store_n(&romix_impl, pick->fn, __ATOMIC_RELAXED);
  __atomic_store_n(&impl_name, pick->name, __ATOMIC_RELAXED);
  __atomic_store_n(&timing, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void nat_scrypt_dispatch(void) {
  candidate list[3];
  const size_t n = cpu_candidates(list);
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_SCRYPT_IMPL");

  if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) return;
  if (force != NULL && force[0] != '\0') {
    for (size_t k = 0; k < n; k++) {
      if (strcmp(force, list[k].name) == 0) romix_impl = list[k].fn, impl_name = list[k].name;
    }
    return;
  }
  timed[0] = list[0], timed[1] = list[n - 1];
  retime();
}
#endif
