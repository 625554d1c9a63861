/* A timing-distribution test of the code that handles secrets in our public-key C: does the
 * time a call takes depend on the secret? (issue 13's second constant-time check, beside
 * valgrind's, which cannot see AVX-512 code or data-dependent instruction timings). dudect's
 * method (Reparaz, Balasch and Verbauwhede, "Dude, is my code constant time?", 2017): TSC cycles
 * of one call per sample, the secret of each sample a fixed value or a fresh random one by a coin
 * flip, all inputs made before any timing; then Welch's t-statistic between the two classes, on
 * all samples and on those below several percentiles of the whole (which drops interrupts and
 * other outliers). Code whose time does not depend on the secret gives |t| of a few units at
 * most, whatever the machine is doing (both classes share the noise); |t| above 10 fails. The
 * same test of a deliberately leaky ladder (the MULX ladder followed by one branch on each bit of
 * the scalar, around nothing: only branch prediction differs) must fail, or the harness proves
 * nothing.
 * Checked: the X25519 ladders (portable, mulx, ifma, as the CPU has them; fixed scalar: clamp(0)),
 * crypto_sign_detached with our fixed-base multiplication and with libsodium's (fixed secret
 * key: the one from an all-zero seed; message fixed), crypto_sign_seed_keypair both ways.
 * Timings mean nothing under ASan or valgrind: there the harness only says so.
 * TIMING_SAMPLES=n sets the samples per function (default 30000).
 *
 * cc-sources: src/crypto/x25519_portable.c src/crypto/x25519_mulx.c src/crypto/x25519_ifma.c
 * cc-sources: src/crypto/x25519_dispatch.c src/crypto/ed25519_mulx.c src/crypto/sha2.c
 * cc-flags: -DNAT_ED25519_WRAP -Wl,--wrap=ge25519_scalarmult_base -Wl,--wrap=ge25519_p3_tobytes
 * cc-flags: -Wl,--wrap=crypto_scalarmult_curve25519_base -Wl,--wrap=ge25519_double_scalarmult_vartime
 * cc-flags: -Wl,--wrap=ge25519_tobytes -Wl,--wrap=ge25519_frombytes_negate_vartime */
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "../../src/crypto/ed25519.h"
#include "../../src/crypto/fe25519_64.h"
#include "../../src/crypto/x25519_impl.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <x86intrin.h>
#define HAVE_TSC 1
static inline uint64_t ticks(void) {
  _mm_lfence();
  const uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
}
#endif

#ifdef HAVE_TSC
/* One secret input and the public rest of a call; class 0: the fixed secret, 1: a random one. */
typedef void (*timed_fn)(const unsigned char *secret, const unsigned char *pub);

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static int by_value(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return (x > y) - (x < y);
}

/* |x| and the square root without libm (the harnesses link only libsodium) */
static double absd(double x) { return x < 0 ? -x : x; }
static double root(double x) {
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 200; i++) r = 0.5 * (r + x / r);
  return r;
}

/* Welch's t of the samples below limit, class by class */
static double welch(const uint64_t *t, const unsigned char *cls, size_t n, uint64_t limit) {
  double sum[2] = { 0, 0 }, sq[2] = { 0, 0 }, cnt[2] = { 0, 0 };
  for (size_t i = 0; i < n; i++) {
    if (t[i] > limit) continue;
    const double x = (double) t[i];
    sum[cls[i]] += x;
    sq[cls[i]] += x * x;
    cnt[cls[i]] += 1;
  }
  if (cnt[0] < 100 || cnt[1] < 100) return 0;
  const double m0 = sum[0] / cnt[0], m1 = sum[1] / cnt[1];
  const double v0 = (sq[0] - cnt[0] * m0 * m0) / (cnt[0] - 1), v1 = (sq[1] - cnt[1] * m1 * m1) / (cnt[1] - 1);
  return (m0 - m1) / root(v0 / cnt[0] + v1 / cnt[1]);
}

/* The largest |t| over all samples and those below the 10th..90th percentiles (dudect's crops). */
static double max_t(const char *name, timed_fn fn, const unsigned char fixed[32], size_t samples, size_t publen) {
  unsigned char *secrets = malloc(samples * 32), *pubs = malloc(samples * (publen ? publen : 1)), *cls = malloc(samples);
  uint64_t *t = malloc(samples * sizeof *t), *sorted = malloc(samples * sizeof *t);
  CHECK(secrets && pubs && cls && t && sorted, "out of memory");
  for (size_t i = 0; i < samples; i++) {
    cls[i] = (unsigned char) (rng() & 1);
    if (cls[i] == 0) {
      memcpy(secrets + 32 * i, fixed, 32);
    } else {
      for (int j = 0; j < 32; j++) secrets[32 * i + j] = (unsigned char) rng();
    }
    for (size_t j = 0; j < publen; j++) pubs[publen * i + j] = (unsigned char) (j * 7 + 1); /* the same for both */
  }
  for (size_t i = 0; i < 200; i++) fn(secrets + 32 * (i % samples), pubs); /* warm up */
  for (size_t i = 0; i < samples; i++) {
    const uint64_t start = ticks();
    fn(secrets + 32 * i, pubs + publen * i);
    t[i] = ticks() - start;
  }
  memcpy(sorted, t, samples * sizeof *t);
  qsort(sorted, samples, sizeof *sorted, by_value);
  double worst = 0, at = 0;
  int worst_pct = 100;
  for (int pct = 10; pct <= 100; pct += 10) {
    const uint64_t limit = pct == 100 ? UINT64_MAX : sorted[samples * (size_t) pct / 100];
    const double x = welch(t, cls, samples, limit);
    if (absd(x) > absd(worst)) worst = x, worst_pct = pct;
    if (pct == 50) at = (double) sorted[samples / 2];
  }
  printf("  %-44s median %8.0f TSC cycles, max |t| %6.2f (below the %d%% percentile)\n", name, at, absd(worst), worst_pct);
  free(secrets), free(pubs), free(cls), free(t), free(sorted);
  return absd(worst);
}

/* CPUID leaf 7 EBX: BMI2 (bit 8) and ADX (19) for MULX; AVX512F (16), IFMA (21) and VL (31) with
 * the OS's AVX-512 state for IFMA, as x25519_dispatch.c asks */
static int cpu_has(int ifma) {
  unsigned int a, b, c, d, b7 = 0, xcr0, xcr0_hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || __get_cpuid_max(0, NULL) < 7) return 0;
  __cpuid_count(7, 0, a, b7, c, d);
  if (!(b7 >> 8 & 1) || !(b7 >> 19 & 1)) return 0;
  if (!ifma) return 1;
  if (!(c >> 27 & 1)) return 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  return (xcr0 & 0xe6) == 0xe6 && (b7 >> 16 & 1) && (b7 >> 21 & 1) && (b7 >> 31 & 1);
}

static const nat_x25519_kernels *ladder;
static void clamp(unsigned char k[32], const unsigned char *n) {
  memcpy(k, n, 32);
  k[0] &= 248, k[31] &= 127, k[31] |= 64;
}
static void run_ladder(const unsigned char *secret, const unsigned char *pub) {
  unsigned char k[32], q[32];
  clamp(k, secret);
  ladder->ladder(q, k, pub);
}

#ifdef NAT_FE25519_64
/* The planted leak: the MULX ladder, then a branch on every bit of the scalar that skips an empty
 * statement: no work differs, only how well the branches are predicted (a fixed scalar's always,
 * a random one's half the time), a few hundred cycles in 65 000. */
static void run_leaky(const unsigned char *secret, const unsigned char *pub) {
  unsigned char k[32], q[32];
  clamp(k, secret);
  nat_x25519_mulx.ladder(q, k, pub);
  for (int i = 0; i < 255; i++) {
    if ((k[i >> 3] >> (i & 7)) & 1) __asm__ volatile("" ::: "memory");
    __asm__ volatile("" ::: "memory");
  }
}
#endif

static void run_sign(const unsigned char *secret, const unsigned char *pub) {
  unsigned char pk[32], sk[64], sig[64];
  memcpy(sk, secret, 32);
  memcpy(sk + 32, pub, 32); /* the public half: fixed, as libsodium only hashes the seed for the nonce and scalar */
  (void) pk;
  crypto_sign_detached(sig, NULL, pub + 32, 10, sk);
}

static void run_keypair(const unsigned char *secret, const unsigned char *pub) {
  unsigned char pk[32], sk[64];
  (void) pub;
  crypto_sign_seed_keypair(pk, sk, secret);
}

int main(void) {
  if (sodium_init() < 0) return 1;
  if (SANITIZED || UNDER_VALGRIND) {
    printf("timing: not run under sanitizers or valgrind (timings mean nothing there)\n");
    return 0;
  }
  const char *env = getenv("TIMING_SAMPLES");
  const size_t samples = env != NULL ? strtoul(env, NULL, 10) : 30000;
  const double bound = 10.0;
  unsigned char zero[32] = { 0 };

  printf("timing: %zu samples per function, fixed secret against random ones, fail above |t| = %.0f\n", samples, bound);
  const nat_x25519_kernels *ladders[3] = { &nat_x25519_portable, NULL, NULL };
#ifdef NAT_X25519_MULX
  ladders[1] = &nat_x25519_mulx;
  ladders[2] = &nat_x25519_ifma;
#endif
  for (int i = 0; i < 3; i++) {
    if (ladders[i] == NULL || (i > 0 && !cpu_has(i == 2))) continue;
    ladder = ladders[i];
    char name[64];
    snprintf(name, sizeof name, "X25519 ladder (%s)", ladder->name);
    CHECK(max_t(name, run_ladder, zero, samples, 32) < bound, "%s: the time depends on the scalar", name);
  }
#ifdef NAT_FE25519_64
  if (cpu_has(0)) {
    const double leak = max_t("planted leak (a branch per scalar bit)", run_leaky, zero, samples, 32);
    CHECK(leak > bound, "the planted leak went unseen (|t| = %.2f): this test cannot fail", leak);
  }
#endif
  unsigned char seed0_sk[64], pk0[32];
  crypto_sign_seed_keypair(pk0, seed0_sk, zero);
  for (int ours = 1; ours >= 0; ours--) {
    const int had = nat_ed25519_use_mulx;
    if (!ours) nat_ed25519_use_mulx = 0;
    if (ours && !had) continue;
    char name[80];
    snprintf(name, sizeof name, "crypto_sign_detached 10 B (%s)", nat_ed25519_impl());
    CHECK(max_t(name, run_sign, zero, samples, 64) < bound, "%s: the time depends on the secret key", name);
    snprintf(name, sizeof name, "crypto_sign_seed_keypair (%s)", nat_ed25519_impl());
    CHECK(max_t(name, run_keypair, zero, samples, 0) < bound, "%s: the time depends on the seed", name);
    nat_ed25519_use_mulx = had;
  }
  printf("timing: %lu checks passed\n", checks);
  return 0;
}
#else
int main(void) {
  printf("timing: no cycle counter on this target; nothing measured\n");
  return 0;
}
#endif
