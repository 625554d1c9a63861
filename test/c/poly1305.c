/* Differential test of src/crypto/poly1305*.c against libsodium's crypto_onetimeauth_poly1305, in
 * C, so the buffering and every kernel run under ASan/UBSan and valgrind: test/c/run.sh runs it
 * once per NATRIUM_POLY1305_IMPL below (each implementation this CPU has goes through the whole
 * test; one it lacks is skipped, saying so). Exits non-zero on the first difference.
 *
 * cc-sources: src/crypto/poly1305_dispatch.c src/crypto/poly1305_portable.c
 * cc-sources: src/crypto/poly1305_avx2.c src/crypto/poly1305_avx512ifma.c src/crypto/poly1305_simd128.c
 * run-env: NATRIUM_POLY1305_IMPL=portable NATRIUM_POLY1305_IMPL=portable26 NATRIUM_POLY1305_IMPL=avx2
 * run-env: NATRIUM_POLY1305_IMPL=avx512ifma NATRIUM_POLY1305_IMPL= */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poly1305.h"
#include "poly1305_impl.h"

/* Under valgrind (test/c/run.sh runs it there), bytes marked SECRET are undefined to memcheck:
 * a branch or an address that depends on them is reported (Monocypher's test habit). */
#include "check.h"

#define MAX_IN 4200
static unsigned char msg[MAX_IN + 64];

static void unhex(unsigned char *out, const char *hex) {
  for (size_t i = 0; hex[2 * i] != '\0'; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (unsigned char) v;
  }
}

static void ours(unsigned char tag[16], const unsigned char *m, size_t len, const unsigned char key[32]) {
  CRYPTO_ALIGN(16) nat_poly1305_state st;
  nat_poly1305_init(&st, key);
  nat_poly1305_update(&st, m, len);
  nat_poly1305_final(&st, tag);
}

/* RFC 8439 section 2.5.2 and appendix A.3 #1, #4-#11 (#2 and #3 are in test/auth.test.js). */
static void test_vectors(void) {
  static const char *const v[][3] = {
    {"85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
     "43727970746f6772617068696320466f72756d2052657365617263682047726f7570", "a8061dc1305136c6c22b8baf0c0127a9"},
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000",
     "00000000000000000000000000000000"},
    {"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
     "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a446964206779726520616e642067"
     "696d626c6520696e2074686520776162653a0a416c6c206d696d737920776572652074686520626f726f676f7665732c0a41"
     "6e6420746865206d6f6d65207261746873206f757467726162652e",
     "4541669a7eaaee61e708dc7cbcc5eb62"},
    {"0200000000000000000000000000000000000000000000000000000000000000", "ffffffffffffffffffffffffffffffff",
     "03000000000000000000000000000000"},
    {"02000000000000000000000000000000ffffffffffffffffffffffffffffffff", "02000000000000000000000000000000",
     "03000000000000000000000000000000"},
    {"0100000000000000000000000000000000000000000000000000000000000000",
     "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff11000000000000000000000000000000",
     "05000000000000000000000000000000"},
    {"0100000000000000000000000000000000000000000000000000000000000000",
     "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe01010101010101010101010101010101",
     "00000000000000000000000000000000"},
    {"0200000000000000000000000000000000000000000000000000000000000000", "fdffffffffffffffffffffffffffffff",
     "faffffffffffffffffffffffffffffff"},
    {"0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000000000000000000000000000000000000100"
     "0000000000000000000000000000",
     "14000000000000005500000000000000"},
    {"0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000",
     "13000000000000000000000000000000"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    unsigned char key[32], m[128], want[16], tag[16];
    unhex(key, v[i][0]);
    unhex(m, v[i][1]);
    unhex(want, v[i][2]);
    ours(tag, m, strlen(v[i][1]) / 2, key);
    CHECK(memcmp(tag, want, 16) == 0, "vector %zu", i);
    CHECK(nat_poly1305(tag, m, strlen(v[i][1]) / 2, key) == 0 && memcmp(tag, want, 16) == 0, "one-shot %zu", i);
    CHECK(nat_poly1305_verify(want, m, strlen(v[i][1]) / 2, key) == 0, "verify %zu", i);
    want[i % 16] ^= 1;
    CHECK(nat_poly1305_verify(want, m, strlen(v[i][1]) / 2, key) == -1, "verify refuses %zu", i);
  }
}

/* Every length 0..MAX_IN, random key, misaligned start: one-shot. */
static void test_lengths(void) {
  unsigned char key[32], a[16], b[16];
  for (size_t len = 0; len <= MAX_IN; len++) {
    randombytes_buf(key, sizeof key);
    const unsigned char *m = msg + len % 61;
    ours(a, m, len, key);
    crypto_onetimeauth_poly1305(b, m, len, key);
    CHECK(memcmp(a, b, 16) == 0, "len %zu", len);
  }
}

/* Arbitrary chunkings: one byte at a time, and random splits biased to block and vector edges. */
static void test_chunks(void) {
  unsigned char key[32], a[16], b[16];
  CRYPTO_ALIGN(16) nat_poly1305_state st;
  for (size_t len = 0; len <= 600; len += 1 + len / 40) {
    randombytes_buf(key, sizeof key);
    nat_poly1305_init(&st, key);
    for (size_t i = 0; i < len; i++) nat_poly1305_update(&st, msg + i, 1);
    nat_poly1305_final(&st, a);
    crypto_onetimeauth_poly1305(b, msg, len, key);
    CHECK(memcmp(a, b, 16) == 0, "bytewise len %zu", len);
  }
  static const size_t edges[] = {0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 511, 512, 513, 1023, 1024};
  for (int trial = 0; trial < 400; trial++) {
    const size_t total = randombytes_uniform(MAX_IN + 1);
    randombytes_buf(key, sizeof key);
    nat_poly1305_init(&st, key);
    size_t at = 0;
    while (at < total) {
      size_t n = randombytes_uniform(2) ? edges[randombytes_uniform(16)] : randombytes_uniform(1200);
      if (n > total - at) n = total - at;
      nat_poly1305_update(&st, msg + at, n);
      CHECK(nat_poly1305_state_valid(&st), "state valid after %zu", at);
      at += n;
    }
    nat_poly1305_final(&st, a);
    crypto_onetimeauth_poly1305(b, msg, total, key);
    CHECK(memcmp(a, b, 16) == 0, "chunks, %zu bytes, trial %d", total, trial);
    /* final wipes everything but the stamp */
    static const unsigned char zero[sizeof st - 4];
    CHECK(memcmp(&st, zero, sizeof zero) == 0, "wiped");
  }
}

/* Long messages, through many vector iterations. */
static void test_long(void) {
  const size_t len = (1 << 20) + 77;
  unsigned char *big = malloc(len), key[32], a[16], b[16];
  CHECK(big != NULL, "malloc");
  randombytes_buf(big, len);
  for (int i = 0; i < 3; i++) {
    randombytes_buf(key, sizeof key);
    ours(a, big + i, len - 2 * i, key);
    crypto_onetimeauth_poly1305(b, big + i, len - 2 * i, key);
    CHECK(memcmp(a, b, 16) == 0, "long %d", i);
  }
  free(big);
}

/* The carry edges: r with every bit clamping allows, s = 2^128 - 1, all-ones messages; and with
 * r = 1 (every power of r is 1, so h is the plain sum of the blocks, in every lane of every
 * kernel), messages whose sum is p - 1, p, p + 1 (and 2p - 1, 2p, 2p + 1 over more blocks) before
 * the final reduction. */
static void test_edges(void) {
  unsigned char key[32], a[16], b[16], m[MAX_IN];
  memset(key, 0xff, 32); /* clamping leaves r = 0x0ffffffc0ffffffc0ffffffc0fffffff */
  memset(m, 0xff, sizeof m);
  for (size_t len = 0; len <= 2100; len += 1 + (len % 7)) {
    ours(a, m, len, key);
    crypto_onetimeauth_poly1305(b, m, len, key);
    CHECK(memcmp(a, b, 16) == 0, "r max, s max, ones, len %zu", len);
  }
  /* r = 1, s = 2^128 - 1. With n blocks b_i = 2^128 + m_i, the sum is n 2^128 + sum m_i; for
   * k p + d that is sum m_i = (4k - n) 2^128 - 5k + d = F (2^128 - 1) + (F - 5k + d) with F = 4k - n:
   * F all-ones blocks last, the first of them lowered by 5k - F - d, zero blocks before. k = n / 4
   * + 1 makes F 1..4; h passes 2^130 (and is folded) on the way when k > 1. */
  memset(key, 0, 32);
  key[0] = 1;
  memset(key + 16, 0xff, 16);
  for (size_t n = 1; n <= 160; n += n < 40 ? 1 : 17) {
    for (int d = -3; d <= 3; d++) {
      const int k = (int) (n / 4) + 1, f = 4 * k - (int) n, fix = f - 5 * k + d;
      if (f > (int) n || fix > 0) continue;
      memset(m, 0, 16 * n);
      memset(m + 16 * (n - (size_t) f), 0xff, 16 * (size_t) f);
      m[16 * (n - (size_t) f)] = (unsigned char) (0xff + fix);
      ours(a, m, 16 * n, key);
      crypto_onetimeauth_poly1305(b, m, 16 * n, key);
      CHECK(memcmp(a, b, 16) == 0, "r = 1: blocks sum to %d p %+d, %zu blocks", k, d, n);
    }
  }
}

/* The key is secret: no branch and no address may depend on it, one-shot or streaming, in the
 * kernel in use (under valgrind; elsewhere a plain comparison). The message is public. */
static void test_constant_time(void) {
  unsigned char key[32], a[16], b[16];
  CRYPTO_ALIGN(16) nat_poly1305_state st;
  for (size_t len = 0; len <= 2100; len += 97) {
    randombytes_buf(key, sizeof key);
    crypto_onetimeauth_poly1305(b, msg, len, key);
    SECRET(key, sizeof key);
    ours(a, msg, len, key);
    PUBLIC(a, sizeof a);
    CHECK(memcmp(a, b, 16) == 0, "secret key, len %zu", len);
    nat_poly1305_init(&st, key);
    nat_poly1305_update(&st, msg, len / 3);
    nat_poly1305_update(&st, msg + len / 3, len - len / 3);
    CHECK(nat_poly1305_state_valid(&st), "valid (looks at no secret), len %zu", len);
    nat_poly1305_final(&st, a);
    PUBLIC(a, sizeof a);
    PUBLIC(&st, sizeof st);
    PUBLIC(key, sizeof key);
    CHECK(memcmp(a, b, 16) == 0, "streaming, secret key, len %zu", len);
  }
}

/* Whether this CPU can run the named implementation (so that a forced one must be in use). */
static int cpu_has(const char *name) {
#ifdef NAT_POLY1305_X86
  __builtin_cpu_init();
  if (strcmp(name, "avx2") == 0) return __builtin_cpu_supports("avx2");
  if (strcmp(name, "avx512ifma") == 0)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
           __builtin_cpu_supports("avx512vl");
#endif
  return strcmp(name, "portable") == 0 || strcmp(name, "portable26") == 0;
}

int main(void) {
  const char *forced = getenv("NATRIUM_POLY1305_IMPL");
  if (sodium_init() < 0) return 1;
  randombytes_buf(msg, sizeof msg);
  printf("poly1305: %s (NATRIUM_POLY1305_IMPL=%s)\n", nat_poly1305_impl(), forced ? forced : "");
  if (forced != NULL && forced[0] != '\0') {
    if (!cpu_has(forced)) {
      printf("%s: not on this CPU, skipped\n", forced);
      return 0;
    }
    CHECK(strcmp(forced, nat_poly1305_impl()) == 0, "forced %s, running %s", forced, nat_poly1305_impl());
  }
  test_vectors();
  test_constant_time();
  test_edges();
  test_lengths();
  test_chunks();
  test_long();
  printf("ok: %lu checks\n", checks);
  return 0;
}
