/* Differential test of src/crypto/scrypt*.c against libsodium's
 * crypto_pwhash_scryptsalsa208sha256_ll (this harness links libsodium without --wrap, so that
 * is libsodium's own escrypt), in C, so that every ROMix runs under ASan/UBSan and valgrind:
 * test/c/run.sh runs it once per NATRIUM_SCRYPT_IMPL below. RFC 7914's section 12 vectors, random
 * passwords, salts and output lengths at N from 2 to 2^12 (2^8 under valgrind), r 1..16, p 1..3,
 * libsodium's refusals with its errno, the scratch memory cached (both kinds of slot), wiped and
 * bounded, an allocation that fails, and hashes on several threads at once (also 128 MiB ones). Exits non-zero on the first
 * difference.
 *
 * Not constant time, by design: ROMix reads V at an index computed from the password (scrypt's
 * memory-hardness; libsodium's escrypt and every scrypt do the same), so no secrets are marked
 * undefined to valgrind here.
 *
 * cc-sources: src/crypto/scrypt.c src/crypto/scrypt_dispatch.c src/crypto/scrypt_portable.c
 * cc-sources: src/crypto/scrypt_sse2.c src/crypto/scrypt_avx512vl.c src/crypto/scrypt_simd128.c
 * cc-sources: src/crypto/pbkdf2.c src/crypto/sha2.c
 * run-env: NATRIUM_SCRYPT_IMPL=portable NATRIUM_SCRYPT_IMPL=sse2 NATRIUM_SCRYPT_IMPL=avx512vl NATRIUM_SCRYPT_IMPL= */
#include <errno.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scrypt.h"
#include "scrypt_impl.h"

#include "check.h"

static void hex(unsigned char *out, const char *h) {
  for (size_t i = 0; h[2 * i]; i++) {
    unsigned int b;
    sscanf(&h[2 * i], "%2x", &b);
    out[i] = (unsigned char) b;
  }
}

/* RFC 7914 section 12 (the 1 GiB one, N = 2^20, is in test/pwhash.test.js) */
static void test_rfc7914(void) {
  static const struct {
    const char *passwd, *salt;
    uint64_t N;
    uint32_t r, p;
    const char *dk;
  } v[] = {
    {"", "", 16, 1, 1,
     "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"},
    {"password", "NaCl", 1024, 8, 16,
     "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"},
    {"pleaseletmein", "SodiumChloride", 16384, 8, 1,
     "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"},
  };
  unsigned char want[64], got[64];
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    if (UNDER_VALGRIND && v[i].N * v[i].r * v[i].p > 8192) continue;
    hex(want, v[i].dk);
    CHECK(nat_scrypt((const uint8_t *) v[i].passwd, strlen(v[i].passwd), (const uint8_t *) v[i].salt,
                     strlen(v[i].salt), v[i].N, v[i].r, v[i].p, got, sizeof got) == 0, "rc %zu", i);
    CHECK(memcmp(got, want, 64) == 0, "RFC 7914 vector %zu", i);
  }
}

/* random inputs against libsodium, misaligned buffers, output lengths across the 32-byte blocks */
static void test_random(void) {
  static unsigned char pw[300], salt[300], ours[301], ref[301];
  const unsigned max_log = UNDER_VALGRIND ? 8 : 12;
  const int trials = UNDER_VALGRIND ? 40 : 400;
  for (int t = 0; t < trials; t++) {
    const size_t pwlen = randombytes_uniform(200), saltlen = randombytes_uniform(200);
    const size_t outlen = 1 + randombytes_uniform(200), off = randombytes_uniform(64);
    const uint64_t N = (uint64_t) 1 << (1 + randombytes_uniform(max_log));
    const uint32_t r = 1 + randombytes_uniform(16), p = 1 + randombytes_uniform(3);
    if (N * r * p > ((uint64_t) 1 << (max_log + 3))) continue; /* keep the run short */
    randombytes_buf(pw, pwlen + off);
    randombytes_buf(salt, saltlen + off);
    memset(ours, 0xa5, sizeof ours);
    CHECK(nat_scrypt(pw + off, pwlen, salt + off % 7, saltlen, N, r, p, ours + off % 5, outlen) == 0,
          "rc");
    CHECK(crypto_pwhash_scryptsalsa208sha256_ll(pw + off, pwlen, salt + off % 7, saltlen, N, r, p,
                                                ref, outlen) == 0, "libsodium rc");
    CHECK(memcmp(ours + off % 5, ref, outlen) == 0, "N %llu r %u p %u pwlen %zu saltlen %zu outlen %zu",
          (unsigned long long) N, r, p, pwlen, saltlen, outlen);
    CHECK(ours[off % 5 + outlen] == 0xa5 && (off % 5 == 0 || ours[off % 5 - 1] == 0xa5),
          "wrote outside the output");
  }
  /* every N up to 2^10 at r = 1..3, p = 1 */
  for (unsigned lg = 1; lg <= 10; lg++) {
    for (uint32_t r = 1; r <= 3; r++) {
      randombytes_buf(pw, 20);
      CHECK(nat_scrypt(pw, 20, pw + 20, 16, (uint64_t) 1 << lg, r, 1, ours, 64) == 0, "rc");
      CHECK(crypto_pwhash_scryptsalsa208sha256_ll(pw, 20, pw + 20, 16, (uint64_t) 1 << lg, r, 1, ref, 64) == 0,
            "libsodium rc");
      CHECK(memcmp(ours, ref, 64) == 0, "N 2^%u r %u", lg, r);
    }
  }
}

/* libsodium's refusals: the same return value and errno, the output left alone */
static void test_refusals(void) {
  static const struct {
    uint64_t N;
    uint32_t r, p;
  } bad[] = {{0, 1, 1}, {1, 1, 1}, {3, 1, 1}, {24, 1, 1}, {16, 0, 1}, {16, 1, 0},
             {16, 1u << 15, 1u << 15}, {(uint64_t) 1 << 32, 1, 1}, {((uint64_t) 1 << 32) + 1, 1, 1},
             {(uint64_t) 1 << 33, 1, 1}, {16, 1u << 30, 1}, {16, 1, 1u << 30}};
  unsigned char out[32], ref[32];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(out, 0x5a, sizeof out);
    memset(ref, 0x5a, sizeof ref);
    errno = 0;
    const int rc = nat_scrypt((const uint8_t *) "pw", 2, (const uint8_t *) "salt", 4, bad[i].N,
                              bad[i].r, bad[i].p, out, sizeof out);
    const int e = errno;
    errno = 0;
    const int rc_ref = crypto_pwhash_scryptsalsa208sha256_ll((const uint8_t *) "pw", 2,
                                                             (const uint8_t *) "salt", 4, bad[i].N,
                                                             bad[i].r, bad[i].p, ref, sizeof ref);
    CHECK(rc == -1 && rc_ref == -1, "case %zu: %d %d", i, rc, rc_ref);
    CHECK(e == errno, "case %zu: errno %d, libsodium's %d", i, e, errno);
    CHECK(memcmp(out, ref, sizeof out) == 0, "case %zu: output touched", i);
  }
  /* 2 TiB of V: the mapping fails, -1 and ENOMEM, nothing written, nothing cached */
  if (!UNDER_VALGRIND) {
    const size_t before = nat_scrypt_cached_regions();
    memset(out, 0x5a, sizeof out);
    errno = 0;
    CHECK(nat_scrypt((const uint8_t *) "pw", 2, (const uint8_t *) "s", 1, (uint64_t) 1 << 31, 8, 1,
                     out, sizeof out) == -1, "2 TiB allocated?");
    CHECK(errno == ENOMEM, "errno %d", errno);
    for (size_t i = 0; i < sizeof out; i++) CHECK(out[i] == 0x5a, "output touched");
    CHECK(nat_scrypt_cached_regions() <= before, "a failed call cached a region");
  }
}

/* What scrypt.c may keep at most: two regions of 65 MiB and one of 1 GiB + 1 MiB. */
#define KEPT_MAX (((size_t) 130 << 20) + ((size_t) 1 << 30) + ((size_t) 1 << 20))

/* How many bytes of a hash's scratch a region of usable size `size` held: B, V and XY. */
static size_t scratch_bytes(uint64_t N, uint32_t r, uint32_t p) {
  return (size_t) 128 * r * p + (size_t) 128 * r * N + (size_t) 256 * r + 64;
}

/* The scratch regions are kept, wiped (every byte zero, where the hash wrote derived words into
 * all of them), and bounded: 128 MiB goes to the lazily freed slot (Linux), 1.1 GiB to none. */
static void test_cache(void) {
  unsigned char out[32];
  CHECK(nat_scrypt((const uint8_t *) "pw", 2, (const uint8_t *) "s", 1, 1024, 8, 1, out, 32) == 0, "rc");
  CHECK(nat_scrypt_cached_regions() >= 1, "nothing cached");
  CHECK(nat_scrypt_cached_bytes() >= scratch_bytes(1024, 8, 1), "%zu bytes cached", nat_scrypt_cached_bytes());
  CHECK(nat_scrypt_cache_wiped(), "a cached region holds non-zero bytes");
  if (UNDER_VALGRIND) return;
  const size_t before = nat_scrypt_cached_regions();
  CHECK(nat_scrypt((const uint8_t *) "pw", 2, (const uint8_t *) "s", 1, 1u << 17, 8, 1, out, 32) == 0,
        "rc");
#if defined(__linux__)
  /* MADV_FREE since Linux 4.5 */
  CHECK(nat_scrypt_cached_regions() == before + 1, "the 128 MiB region was not kept");
  CHECK(nat_scrypt_cached_bytes() >= scratch_bytes(1u << 17, 8, 1), "%zu bytes cached",
        nat_scrypt_cached_bytes());
#endif
  CHECK(nat_scrypt_cached_bytes() <= KEPT_MAX, "%zu bytes cached", nat_scrypt_cached_bytes());
  CHECK(nat_scrypt_cache_wiped(), "a cached region holds non-zero bytes");
  /* over the bound (N = 2^20 at r = 9: 1.13 GiB), given back: a few seconds, so only in the
   * plain build's default run */
  const char *forced = getenv("NATRIUM_SCRYPT_IMPL");
  if (!SANITIZED && (forced == NULL || forced[0] == '\0')) {
    const size_t bytes = nat_scrypt_cached_bytes();
    CHECK(nat_scrypt((const uint8_t *) "pw", 2, (const uint8_t *) "s", 1, 1u << 20, 9, 1, out, 32) == 0,
          "rc");
    CHECK(nat_scrypt_cached_bytes() <= bytes, "a 1.13 GiB region was kept (%zu bytes cached)",
          nat_scrypt_cached_bytes());
    CHECK(nat_scrypt_cache_wiped(), "a cached region holds non-zero bytes");
  }
}

/* three 128 MiB hashes at once: each keeps its answer, one region is kept lazily, wiped */
#define BIG_THREADS 3
static unsigned char big_ref[BIG_THREADS][32];

static void *big_thread_main(void *arg) {
  const int t = (int) (intptr_t) arg;
  uint8_t pw[8] = {(uint8_t) t, 1, 2, 3, 4, 5, 6, 7}, out[32];
  if (nat_scrypt(pw, 8, pw, 4, 1u << 17, 8, 1, out, sizeof out) != 0) return (void *) 1;
  if (memcmp(out, big_ref[t], sizeof out) != 0) return (void *) 2;
  return NULL;
}

static void test_big_threads(void) {
  pthread_t th[BIG_THREADS];
  if (UNDER_VALGRIND) return;
  for (int t = 0; t < BIG_THREADS; t++) {
    uint8_t pw[8] = {(uint8_t) t, 1, 2, 3, 4, 5, 6, 7};
    CHECK(crypto_pwhash_scryptsalsa208sha256_ll(pw, 8, pw, 4, 1u << 17, 8, 1, big_ref[t], 32) == 0,
          "libsodium rc");
  }
  for (int t = 0; t < BIG_THREADS; t++) {
    CHECK(pthread_create(&th[t], NULL, big_thread_main, (void *) (intptr_t) t) == 0, "thread");
  }
  for (int t = 0; t < BIG_THREADS; t++) {
    void *res;
    CHECK(pthread_join(th[t], &res) == 0, "join");
    CHECK(res == NULL, "thread %d: %s", t, res == (void *) 1 ? "rc" : "wrong answer");
  }
  CHECK(nat_scrypt_cached_bytes() <= KEPT_MAX, "%zu bytes cached", nat_scrypt_cached_bytes());
  CHECK(nat_scrypt_cache_wiped(), "a cached region holds non-zero bytes");
}

/* several threads at once, each checking its answers against libsodium's computed beforehand */
#define THREADS 4
#define PER_THREAD 6
static unsigned char thread_ref[THREADS][PER_THREAD][48];

static void thread_params(int t, int k, uint8_t pw[16], uint64_t *N, uint32_t *r) {
  for (int i = 0; i < 16; i++) pw[i] = (uint8_t) (t * 31 + k * 7 + i);
  *N = (uint64_t) 1 << (4 + (t + k) % (UNDER_VALGRIND ? 4 : 8));
  *r = 1 + (uint32_t) ((t * 3 + k) % 8);
}

static void *thread_main(void *arg) {
  const int t = (int) (intptr_t) arg;
  for (int k = 0; k < PER_THREAD; k++) {
    uint8_t pw[16], out[48];
    uint64_t N;
    uint32_t r;
    thread_params(t, k, pw, &N, &r);
    if (nat_scrypt(pw, 16, pw, 8, N, r, 2, out, sizeof out) != 0) return (void *) 1;
    if (memcmp(out, thread_ref[t][k], sizeof out) != 0) return (void *) 2;
  }
  return NULL;
}

static void test_threads(void) {
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) {
    for (int k = 0; k < PER_THREAD; k++) {
      uint8_t pw[16];
      uint64_t N;
      uint32_t r;
      thread_params(t, k, pw, &N, &r);
      CHECK(crypto_pwhash_scryptsalsa208sha256_ll(pw, 16, pw, 8, N, r, 2, thread_ref[t][k], 48) == 0,
            "libsodium rc");
    }
  }
  for (int t = 0; t < THREADS; t++) CHECK(pthread_create(&th[t], NULL, thread_main, (void *) (intptr_t) t) == 0, "thread");
  for (int t = 0; t < THREADS; t++) {
    void *res;
    CHECK(pthread_join(th[t], &res) == 0, "join");
    CHECK(res == NULL, "thread %d: %s", t, res == (void *) 1 ? "rc" : "wrong answer");
  }
  CHECK(nat_scrypt_cache_wiped(), "a cached region holds non-zero bytes");
}

int main(void) {
  const char *forced = getenv("NATRIUM_SCRYPT_IMPL");
  if (sodium_init() < 0) return 1;
  printf("ROMix: %s (NATRIUM_SCRYPT_IMPL=%s)\n", nat_scrypt_impl(), forced ? forced : "");
  /* a forced implementation must be the one in use, unless the CPU (or valgrind's) lacks it */
  if (forced != NULL && forced[0] != '\0' && strcmp(forced, nat_scrypt_impl()) != 0) {
    CHECK(UNDER_VALGRIND || strcmp(forced, "avx512vl") == 0, "%s not chosen", forced);
    printf("%s: not on this CPU, skipped\n", forced);
    return 0;
  }
  test_rfc7914();
  test_random();
  test_refusals();
  test_cache();
  test_threads();
  test_big_threads();
  /* the dispatcher times again at the first and the 16th call (some of them from the threads
   * above): a forced implementation stays, and an unforced choice is still one of the three */
  const char *now = nat_scrypt_impl();
  printf("ROMix after the tests: %s\n", now);
  if (forced != NULL && forced[0] != '\0') CHECK(strcmp(forced, now) == 0, "%s replaced by %s", forced, now);
  CHECK(strcmp(now, "portable") == 0 || strcmp(now, "sse2") == 0 || strcmp(now, "avx512vl") == 0,
        "unknown ROMix %s", now);
  printf("ok: %lu checks\n", checks);
  return 0;
}
