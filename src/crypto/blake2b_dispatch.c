/* BLAKE2b: the dispatcher (see blake2b_impl.h). It picks a compression function when the library
 * is loaded, before any thread can call in.
 *
 * A vector BLAKE2b is one chain of dependent instructions per block, so its speed is the
 * vector latency; the scalar code runs the four G functions of a step side by side on the
 * integer ALUs. Which is faster depends on the core, and by up to 2x either way.
 *
 * wasm32: the faster of the portable C and our SIMD128 kernel (v128 rows, rows a, c, d turned for
 * the diagonals, rotations as one pshufb), timed once with the runtime's clock (performance.now
 * through WASI's clock_time_get) after the first 4096 blocks hashed (the portable C until then;
 * the choice is timed again after 32768 and 262144 blocks, as a busy machine can skew one
 * timing), since the two trade places by core. Against
 * libsodium-wrappers-sumo 0.8.4's scalar wasm in one process: on Zen 4 (family 25: 1-cycle
 * vector latency) SIMD128 0.91x / 1.40x / 1.06x (1 KB / 100 KB / 1 MB), portable 0.78x / 1.05x
 * / 1.05x; on Zen 5 (family 26 model 2: 2-cycle vector latency) SIMD128 0.62-0.73x, portable
 * 1.2-1.3x (the kernels alone, 1 MB; the scalar code is at the integer ALUs' bound there, as
 * natively); on an Intel Xeon (family 6 model 207, raw calls, CPU time) SIMD128 1.31x / 1.32x /
 * 1.30x / 1.86x (10 B / 1 KB / 100 KB / 1 MB), portable 1.08x / 1.15x / 1.16x / 1.14x. Where the
 * clock does not move (workerd freezes it while a request runs) or is missing, the portable code,
 * whose worst case is mild. Each timing compresses 1536 blocks with each kernel (about 0.8 ms),
 * at most three times.
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
#if defined(__wasm__) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blake2b_impl.h"

#ifdef NAT_BLAKE2B_X86
#include <cpuid.h>
#include <x86intrin.h>
#endif

static nat_blake2b_compress_fn compress_impl = nat_blake2b_compress_portable;
static const char *impl_name = "portable";

#ifdef NAT_BLAKE2B_SIMD128
/* Blocks compressed before the two kernels are timed: V8 first runs wasm in baseline code and
 * optimises what runs hot in the background, so timing at the first call would time baseline
 * code (and take tens of ms); the last WARM_BLOCKS of these also run the SIMD128 kernel once per
 * call on one block, so that both are optimised code when timed. */
#define UNTIMED_BLOCKS 4096U
#define WARM_BLOCKS 2048U
static size_t before_timing = UNTIMED_BLOCKS;
static int timings = 0; /* the choice is timed again after 8x as many blocks, twice */
static void countdown(size_t blocks);
#endif

void nat_blake2b_compress(uint64_t h[8], uint64_t t[2], uint64_t f0, uint64_t f1,
                          const unsigned char *in, size_t blocks, uint64_t inc) {
#ifdef NAT_BLAKE2B_SIMD128
  if (before_timing > 0) countdown(blocks);
#endif
  compress_impl(h, t, f0, f1, in, blocks, inc);
}

const char *nat_blake2b_impl(void) {
  return impl_name;
}

#ifdef NAT_BLAKE2B_SIMD128
/* milliseconds on the runtime's monotonic clock, or a negative number without one */
static double now_ms(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return -1;
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

/* the portable C (0) or SIMD128 (1) from now on */
static void install(int simd) {
  compress_impl = simd ? nat_blake2b_compress_simd128 : nat_blake2b_compress_portable;
  impl_name = simd ? "simd128" : "portable";
}

/* The middle of v[0..n-1] (sorted in place; n is small). */
static double median(double *v, int n) {
  for (int i = 1; i < n; i++) {
    const double x = v[i];
    int j = i;
    for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
    v[j] = x;
  }
  return v[n / 2];
}

/* The two timed in turns, 16 blocks at a time, 96 turns each (the first 32 warm up): both see
 * the same machine (a busy sibling thread, a coarse clock's jitter), where separate windows saw
 * the portable code's speed double from one run to the next under load. SIMD128 must take a
 * tenth less time (where the two are that close either will do). The verdict is the median, over
 * the 64 pairs of turns, of the portable turn's time less the SIMD128 one's: the sums it replaced
 * let one turn that the scheduler preempted (a millisecond, against 16 blocks' 2-3 microseconds)
 * decide, and on Zen 5 (family 26) with the two cores busy, 6 of 60 fresh instances kept SIMD128,
 * at 0.6x the portable code's speed, for good. Where the clock does not resolve a turn (browsers
 * round performance.now() to 5-100 microseconds) most turns read 0 and the median says nothing,
 * so there the sums decide; a clock that does not move, or none, keeps the portable code. */
#define TURNS 96
#define WARM_TURNS 32
static void choose(void) {
  static unsigned char block[16 * 128];
  const nat_blake2b_compress_fn fns[2] = {nat_blake2b_compress_portable, nat_blake2b_compress_simd128};
  double took[2][TURNS - WARM_TURNS], diff[TURNS - WARM_TURNS], sum[2] = {0, 0};
  const int n = TURNS - WARM_TURNS;
  int unresolved = 0, clockless = 0;
  uint64_t h[8] = {0}, t[2] = {0, 0};
  for (size_t i = 0; i < sizeof block; i++) block[i] = (unsigned char) (i * 131 + 7);
  for (int turn = 0; turn < TURNS; turn++) {
    for (int k = 0; k < 2; k++) {
      const double start = now_ms();
      fns[k](h, t, 0, 0, block, 16, 128);
      const double end = now_ms();
      if (turn < WARM_TURNS) continue;
      if (start < 0) clockless = 1;
      took[k][turn - WARM_TURNS] = end - start;
      sum[k] += end - start;
    }
  }
  for (int i = 0; i < n; i++) {
    diff[i] = took[0][i] - took[1][i];
    unresolved += took[0][i] <= 0 || took[1][i] <= 0;
  }
  int simd;
  if (clockless) {
    simd = 0;
  } else if (unresolved <= n / 4) {
    simd = median(diff, n) > median(took[1], n) / 10;
  } else {
    simd = sum[0] > 0 && sum[1] > 0 && sum[1] + sum[1] / 10 < sum[0];
  }
  install(simd);
  /* timed again after 8x and 64x as many blocks: by then V8 has optimised both kernels (the first
   * timing may catch one still in its baseline code), and a busy moment is not the last word */
  if (++timings < 3) before_timing = (size_t) UNTIMED_BLOCKS << (3 * timings);
}

static void countdown(size_t blocks) {
  static unsigned char block[128];
  before_timing = blocks < before_timing ? before_timing - blocks : 0;
  if (before_timing == 0) {
    choose();
  } else if (timings == 0 && before_timing <= WARM_BLOCKS) {
    uint64_t h[8] = {0}, t[2] = {0, 0};
    nat_blake2b_compress_simd128(h, t, 0, 0, block, 1, 128);
  }
}

void nat_blake2b_use(int which) {
  install(which == NAT_BLAKE2B_SIMD128_ONLY);
  before_timing = which == NAT_BLAKE2B_TIMED ? UNTIMED_BLOCKS : 0;
  timings = 0;
}
#endif

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
