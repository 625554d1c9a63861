/* Cycles per byte of natrium's SHA-256/SHA-512 compression functions (each one src/crypto/sha2.c
 * can dispatch to) against libsodium's, through the one-shot functions at several sizes. Rounds
 * alternate between implementations; each cell is the median over the rounds (and the minimum,
 * the least disturbed round on a shared machine).
 *
 *   cc -O3 -std=c11 -Ideps/out/native/include -Isrc/crypto bench/sha2.c \
 *      deps/out/native/lib/libsodium.a -o /tmp/bench-sha2 && /tmp/bench-sha2
 *
 * With -DNAT_BENCH_OPENSSL ... -lcrypto it also times OpenSSL's SHA256()/SHA512() (node:crypto
 * runs the same assembly: check `node -p process.versions.openssl` against `openssl version`).
 *
 * Time is the thread's CPU time; on x86-64 it is reported in TSC cycles (the nominal clock, not
 * core cycles under turbo), elsewhere in nanoseconds. The file includes sha2.c itself to reach
 * its static compression functions. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include "../src/crypto/sha2.c"

#include <stdio.h>
#include <time.h>

/* This thread's CPU time, so that rounds in which the scheduler ran other work (a shared
 * machine) are not charged for it; converted to cycles at the TSC rate where there is one. */
static uint64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

#ifdef NAT_SHA2_X86
#include <x86intrin.h>
#define TICK_UNIT "TSC cycles"
static double ticks_per_ns(void) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  const uint64_t c0 = __rdtsc();
  do clock_gettime(CLOCK_MONOTONIC, &t1);
  while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 100000000L);
  return (double) (__rdtsc() - c0) / 1e8;
}
#else
#define TICK_UNIT "ns"
static double ticks_per_ns(void) {
  return 1.0;
}
#endif

typedef struct {
  const char *name;
  int (*hash)(unsigned char *out, const unsigned char *in, size_t inlen);
  sha256_blocks_fn blocks256; /* set before each run (NULL: not ours) */
  sha512_blocks_fn blocks512;
} impl;

static int sodium256(unsigned char *out, const unsigned char *in, size_t inlen) {
  return crypto_hash_sha256(out, in, inlen);
}

static int sodium512(unsigned char *out, const unsigned char *in, size_t inlen) {
  return crypto_hash_sha512(out, in, inlen);
}

#ifdef NAT_BENCH_OPENSSL
/* The same OpenSSL assembly node:crypto runs (add -DNAT_BENCH_OPENSSL -lcrypto). */
#include <openssl/sha.h>
static int openssl256(unsigned char *out, const unsigned char *in, size_t inlen) {
  return SHA256(in, inlen, out) == NULL;
}

static int openssl512(unsigned char *out, const unsigned char *in, size_t inlen) {
  return SHA512(in, inlen, out) == NULL;
}
#endif

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

#define ROUNDS 15

static double tick_rate;

static void run(const char *title, const impl *impls, size_t n_impls) {
  static const size_t sizes[] = {10, 64, 1024, 100 * 1024, 1024 * 1024};
  const size_t n_sizes = sizeof sizes / sizeof sizes[0];
  unsigned char *in = malloc(sizes[n_sizes - 1]);
  unsigned char out[64];
  unsigned char sink = 0;

  for (size_t i = 0; i < sizes[n_sizes - 1]; i++) in[i] = (unsigned char) (i * 131 + 7);
  printf("\n%s: %s per byte, median (min) of %d alternating rounds\n%-10s", title, TICK_UNIT, ROUNDS,
         "size");
  for (size_t k = 0; k < n_impls; k++) printf("%16s", impls[k].name);
  printf("\n");
  for (size_t s = 0; s < n_sizes; s++) {
    const size_t len = sizes[s];
    const size_t iters = 1 + (4 * 1024 * 1024) / (len + 64);
    double cpb[8][ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      for (size_t k = 0; k < n_impls; k++) {
        if (impls[k].blocks256 != NULL) sha256_blocks = impls[k].blocks256;
        if (impls[k].blocks512 != NULL) sha512_blocks = impls[k].blocks512;
        const uint64_t t0 = cpu_ns();
        for (size_t it = 0; it < iters; it++) {
          impls[k].hash(out, in, len);
          sink ^= out[0];
          in[0] ^= out[1]; /* a data dependence between iterations */
        }
        cpb[k][r] = (double) (cpu_ns() - t0) * tick_rate / ((double) iters * (double) len);
      }
    }
    printf("%-10zu", len);
    for (size_t k = 0; k < n_impls; k++) {
      qsort(cpb[k], ROUNDS, sizeof(double), cmp_double);
      printf("%9.2f (%4.2f)", cpb[k][ROUNDS / 2], cpb[k][0]);
    }
    printf("\n");
  }
  free(in);
  if (sink == 0x5a) printf(" ");
}

int main(void) {
  if (sodium_init() < 0) return 1;
  tick_rate = ticks_per_ns();
  printf("dispatch: sha256 %s, sha512 %s; %.3f %s per ns\n", nat_sha2_impl(256),
         nat_sha2_impl(512), tick_rate, TICK_UNIT);
  impl impls[8];
  size_t n = 0;

  impls[n++] = (impl){"portable", nat_sha256, sha256_blocks_portable, NULL};
#ifdef NAT_SHA2_X86
  if (cpu_detect().shani) impls[n++] = (impl){"shani", nat_sha256, sha256_blocks_shani, NULL};
#endif
  impls[n++] = (impl){"libsodium", sodium256, NULL, NULL};
#ifdef NAT_BENCH_OPENSSL
  impls[n++] = (impl){"openssl", openssl256, NULL, NULL};
#endif
  run("SHA-256", impls, n);

  n = 0;
  impls[n++] = (impl){"portable", nat_sha512, NULL, sha512_blocks_portable};
#ifdef NAT_SHA2_X86
  if (cpu_detect().avx2_bmi2) impls[n++] = (impl){"avx2", nat_sha512, NULL, sha512_blocks_avx2};
#endif
  impls[n++] = (impl){"libsodium", sodium512, NULL, NULL};
#ifdef NAT_BENCH_OPENSSL
  impls[n++] = (impl){"openssl", openssl512, NULL, NULL};
#endif
  run("SHA-512", impls, n);
  return 0;
}
