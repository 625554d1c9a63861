/* natrium's SHA-2 against libsodium in C: first a correctness check of every compression
 * function src/crypto/sha2.c can dispatch to (through every entry point, HMAC and HKDF included),
 * then cycles per byte through the one-shot functions at several sizes. Rounds alternate
 * between implementations; each cell is the median over the rounds (and the minimum, the least
 * disturbed round on a shared machine).
 *
 *   cc -O3 -std=c11 -Ideps/out/native/include -Isrc/crypto bench/sha2.c \
 *      deps/out/native/lib/libsodium.a -o /tmp/bench-sha2 && /tmp/bench-sha2
 *
 * `--check` runs only the check; under the sanitizers:
 *
 *   cc -g -O1 -std=c11 -fsanitize=address,undefined -fno-sanitize-recover=all \
 *      -Ideps/out/native/include -Isrc/crypto bench/sha2.c deps/out/native/lib/libsodium.a \
 *      -o /tmp/check-sha2 && /tmp/check-sha2 --check
 *
 * With -DNAT_BENCH_OPENSSL ... -lcrypto it also times OpenSSL's SHA256()/SHA512() (node:crypto
 * runs the same assembly: check `node -p process.versions.openssl` against `openssl version`).
 *
 * It also builds for aarch64 (run under qemu-aarch64 -cpu max: it checks the ARMv8 SHA-256
 * code) and wasm32-wasi (the portable code with a 32-bit size_t).
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
  printf("\n%s: %s per byte, median (min) of %d alternating rounds\n%-10s", title, TICK_UNIT,
         ROUNDS, "size");
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

/* Correctness first: every compression function against libsodium, through every entry point
 * (one-shot, streaming with random splits and libsodium-identical state bytes after each call,
 * states handed back and forth, garbage states, HMAC and HKDF). Returns the number of failures. */
#define CHECK(cond, what, len)                                                   \
  do {                                                                           \
    if (!(cond)) {                                                               \
      if (failures++ < 10) printf("FAIL %s: %s (length %zu)\n", name, what, (size_t) (len)); \
    }                                                                            \
  } while (0)

static size_t rnd(size_t n) {
  return n == 0 ? 0 : randombytes_uniform((uint32_t) n);
}

static int check(const char *name) {
  enum { MAX = 4096 };
  static unsigned char m[MAX + 300];
  unsigned char a[64], b[64], key[300];
  int failures = 0;

  randombytes_buf(m, sizeof m);
  for (size_t len = 0; len <= MAX; len += len < 600 ? 1 : 1 + rnd(97)) {
    nat_sha256(a, m, len); crypto_hash_sha256(b, m, len);
    CHECK(memcmp(a, b, 32) == 0, "sha256 one-shot", len);
    nat_sha512(a, m, len); crypto_hash_sha512(b, m, len);
    CHECK(memcmp(a, b, 64) == 0, "sha512 one-shot", len);
    /* unaligned input */
    nat_sha512(a, m + 1 + len % 7, len); crypto_hash_sha512(b, m + 1 + len % 7, len);
    CHECK(memcmp(a, b, 64) == 0, "sha512 one-shot, unaligned", len);
  }
  for (int i = 0; i < 300; i++) {
    const size_t len = rnd(MAX);
    crypto_hash_sha256_state s1, s2;
    crypto_hash_sha512_state t1, t2;
    /* garbage states half the time: any bytes, as a JS caller may pass */
    if (i & 1) {
      randombytes_buf(&s1, sizeof s1);
      randombytes_buf(&t1, sizeof t1);
      if (i & 2) { /* bit counts about to wrap (SHA-512: carry into the high word) */
        s1.count = UINT64_MAX - rnd(8 * len + 8);
        t1.count[1] = UINT64_MAX - rnd(8 * len + 8);
      }
    } else {
      crypto_hash_sha256_init(&s1);
      crypto_hash_sha512_init(&t1);
    }
    s2 = s1;
    t2 = t1;
    for (size_t at = 0; at < len;) {
      const size_t n = rnd(len - at + 1);
      /* ours on s1, libsodium on s2, and every third piece swapped: states must agree */
      if (at % 3 == 0) {
        crypto_hash_sha256_update(&s1, m + at, n); nat_sha256_update(&s2, m + at, n);
        crypto_hash_sha512_update(&t1, m + at, n); nat_sha512_update(&t2, m + at, n);
      } else {
        nat_sha256_update(&s1, m + at, n); crypto_hash_sha256_update(&s2, m + at, n);
        nat_sha512_update(&t1, m + at, n); crypto_hash_sha512_update(&t2, m + at, n);
      }
      CHECK(memcmp(&s1, &s2, sizeof s1) == 0, "sha256 state after update", n);
      CHECK(memcmp(&t1, &t2, sizeof t1) == 0, "sha512 state after update", n);
      at += n;
    }
    nat_sha256_final(&s1, a); crypto_hash_sha256_final(&s2, b);
    CHECK(memcmp(a, b, 32) == 0 && memcmp(&s1, &s2, sizeof s1) == 0, "sha256 final", len);
    nat_sha512_final(&t1, a); crypto_hash_sha512_final(&t2, b);
    CHECK(memcmp(a, b, 64) == 0 && memcmp(&t1, &t2, sizeof t1) == 0, "sha512 final", len);
  }
  for (int i = 0; i < 300; i++) {
    const size_t len = rnd(600), keylen = rnd(sizeof key + 1);
    crypto_auth_hmacsha256_state h1, h2;
    crypto_auth_hmacsha512_state g1, g2;
    unsigned char prk[64], okm1[600], okm2[600];
    const size_t outlen = rnd(sizeof okm1);

    randombytes_buf(key, sizeof key);
    nat_hmacsha256_init(&h1, key, keylen); crypto_auth_hmacsha256_init(&h2, key, keylen);
    nat_hmacsha512_init(&g1, key, keylen); crypto_auth_hmacsha512_init(&g2, key, keylen);
    CHECK(memcmp(&h1, &h2, sizeof h1) == 0 && memcmp(&g1, &g2, sizeof g1) == 0, "hmac init",
          keylen);
    nat_hmacsha256_update(&h1, m, len); crypto_auth_hmacsha256_update(&h2, m, len);
    nat_hmacsha512_update(&g1, m, len); crypto_auth_hmacsha512_update(&g2, m, len);
    nat_hmacsha256_final(&h1, a); crypto_auth_hmacsha256_final(&h2, b);
    CHECK(memcmp(a, b, 32) == 0 && memcmp(&h1, &h2, sizeof h1) == 0, "hmacsha256 final", len);
    nat_hmacsha512_final(&g1, a); crypto_auth_hmacsha512_final(&g2, b);
    CHECK(memcmp(a, b, 64) == 0 && memcmp(&g1, &g2, sizeof g1) == 0, "hmacsha512 final", len);
    nat_hmacsha256(a, m, len, key); crypto_auth_hmacsha256(b, m, len, key);
    CHECK(memcmp(a, b, 32) == 0 && nat_hmacsha256_verify(b, m, len, key) == 0, "hmacsha256", len);
    nat_hmacsha512(a, m, len, key); crypto_auth_hmacsha512(b, m, len, key);
    CHECK(memcmp(a, b, 64) == 0 && nat_hmacsha512_verify(b, m, len, key) == 0, "hmacsha512", len);
    nat_hmacsha512256(a, m, len, key); crypto_auth_hmacsha512256(b, m, len, key);
    CHECK(memcmp(a, b, 32) == 0 && nat_hmacsha512256_verify(b, m, len, key) == 0,
          "hmacsha512256", len);
    b[len % 32] ^= 1;
    CHECK(nat_hmacsha512256_verify(b, m, len, key) == -1, "hmacsha512256 verify refuses", len);

    { /* PBKDF2's inner loop against libsodium's HMAC, from a random U and T */
      const uint64_t iterations = rnd(5);
      unsigned char u1[64], t1[64], u2[64], t2[64];
      randombytes_buf(u1, sizeof u1);
      randombytes_buf(t1, sizeof t1);
      memcpy(u2, u1, 64);
      memcpy(t2, t1, 64);
      nat_hmacsha256_init(&h1, key, keylen);
      nat_hmacsha256_iterate(&h1, u1, t1, iterations);
      for (uint64_t j = 0; j < iterations; j++) {
        crypto_auth_hmacsha256_init(&h2, key, keylen);
        crypto_auth_hmacsha256_update(&h2, u2, 32);
        crypto_auth_hmacsha256_final(&h2, u2);
        for (int k = 0; k < 32; k++) t2[k] ^= u2[k];
      }
      CHECK(memcmp(u1, u2, 32) == 0 && memcmp(t1, t2, 32) == 0, "hmacsha256_iterate", iterations);
      nat_hmacsha512_init(&g1, key, keylen);
      nat_hmacsha512_iterate(&g1, u1, t1, iterations);
      for (uint64_t j = 0; j < iterations; j++) {
        crypto_auth_hmacsha512_init(&g2, key, keylen);
        crypto_auth_hmacsha512_update(&g2, u2, 64);
        crypto_auth_hmacsha512_final(&g2, u2);
        for (int k = 0; k < 64; k++) t2[k] ^= u2[k];
      }
      CHECK(memcmp(u1, u2, 64) == 0 && memcmp(t1, t2, 64) == 0, "hmacsha512_iterate", iterations);
    }
    nat_hkdf_sha256_extract(a, key, keylen, m, len);
    crypto_kdf_hkdf_sha256_extract(b, key, keylen, m, len);
    CHECK(memcmp(a, b, 32) == 0, "hkdf_sha256_extract", len);
    memcpy(prk, a, 32);
    nat_hkdf_sha256_expand(okm1, outlen, (const char *) m, len % 100, prk);
    crypto_kdf_hkdf_sha256_expand(okm2, outlen, (const char *) m, len % 100, prk);
    CHECK(memcmp(okm1, okm2, outlen) == 0, "hkdf_sha256_expand", outlen);
    nat_hkdf_sha512_extract(a, key, keylen, m, len);
    crypto_kdf_hkdf_sha512_extract(b, key, keylen, m, len);
    CHECK(memcmp(a, b, 64) == 0, "hkdf_sha512_extract", len);
    memcpy(prk, a, 64);
    nat_hkdf_sha512_expand(okm1, outlen, (const char *) m, len % 100, prk);
    crypto_kdf_hkdf_sha512_expand(okm2, outlen, (const char *) m, len % 100, prk);
    CHECK(memcmp(okm1, okm2, outlen) == 0, "hkdf_sha512_expand", outlen);
  }
  printf("check %-10s %s\n", name, failures ? "FAILED" : "ok");
  return failures;
}

int main(int argc, char **argv) {
  const int check_only = argc > 1 && strcmp(argv[1], "--check") == 0;
  impl i256[4], i512[5];
  size_t n256 = 0, n512 = 0;
  int failures = 0;

  if (sodium_init() < 0) return 1;
  i256[n256++] = (impl){"portable", nat_sha256, sha256_blocks_portable, NULL};
  i512[n512++] = (impl){"portable", nat_sha512, NULL, sha512_blocks_portable};
#ifdef NAT_SHA2_X86
  if (cpu_detect().shani) i256[n256++] = (impl){"shani", nat_sha256, sha256_blocks_shani, NULL};
  if (cpu_detect().avx2_bmi2) i512[n512++] = (impl){"avx2", nat_sha512, NULL, sha512_blocks_avx2};
  if (cpu_detect().avx512vl) i512[n512++] = (impl){"avx512vl", nat_sha512, NULL, sha512_blocks_avx512vl};
#endif
#ifdef NAT_SHA2_ARM
  if (cpu_has_armv8_sha2()) i256[n256++] = (impl){"armv8", nat_sha256, sha256_blocks_armv8, NULL};
#endif
  /* every pairing of a SHA-256 and a SHA-512 compression function */
  for (size_t x = 0; x < n256; x++) {
    for (size_t y = 0; y < n512; y++) {
      char name[64];
      snprintf(name, sizeof name, "%s+%s", i256[x].name, i512[y].name);
      sha256_blocks = i256[x].blocks256;
      sha512_blocks = i512[y].blocks512;
      failures += check(name);
    }
  }
  if (failures || check_only) return failures != 0;

  tick_rate = ticks_per_ns();
  printf("dispatch: sha256 %s, sha512 %s; %.3f %s per ns\n", nat_sha2_impl(256),
         nat_sha2_impl(512), tick_rate, TICK_UNIT);
  i256[n256++] = (impl){"libsodium", sodium256, NULL, NULL};
  i512[n512++] = (impl){"libsodium", sodium512, NULL, NULL};
#ifdef NAT_BENCH_OPENSSL
  i256[n256++] = (impl){"openssl", openssl256, NULL, NULL};
  i512[n512++] = (impl){"openssl", openssl512, NULL, NULL};
#endif
  run("SHA-256", i256, n256);
  run("SHA-512", i512, n512);
  return 0;
}
