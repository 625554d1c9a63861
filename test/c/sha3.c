/* Differential test of src/crypto/sha3.c and the Keccak kernels (keccak*.c) against libsodium's
 * crypto_hash_sha3*, crypto_xof_* and crypto_core_keccak1600_*, in C, under ASan/UBSan and
 * valgrind (test/c/run.sh), once per kernel this CPU has (NATRIUM_DISABLE_SIMD=1 keeps the
 * portable one; the wasm32 and arm64 runs have only it). States must match libsodium's byte for
 * byte after every call (the bytes past the fields included); return values too. Exits non-zero
 * on the first difference. The wasm32 run is always made (wasm32: always): the wasm build of
 * keccak_portable.c runs one round a loop step.
 *
 * cc-sources: src/crypto/sha3.c src/crypto/keccak.c src/crypto/keccak_portable.c
 * run-env: NATRIUM_DISABLE_SIMD=1 NATRIUM_DISABLE_SIMD=
 * wasm32: always */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak.h"
#include "sha3.h"

#include "check.h"

#define MAX_IN 4000
static unsigned char msg[MAX_IN + 8];

/* The kernels on random states: permutation (24 and 12 rounds) and absorbing at each rate,
 * against libsodium's core functions, from misaligned input. */
static void test_kernels(void) {
  crypto_core_keccak1600_state ours, ref;
  for (int trial = 0; trial < 200; trial++) {
    const unsigned int rounds = trial % 2 ? 24 : 12;
    randombytes_buf(&ours, sizeof ours);
    memcpy(&ref, &ours, sizeof ours);
    nat_keccak_permute(ours.opaque, rounds);
    if (rounds == 24) crypto_core_keccak1600_permute_24(&ref);
    else crypto_core_keccak1600_permute_12(&ref);
    CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "permute %u, trial %d", rounds, trial);
    const size_t rates[] = {72, 104, 136, 144, 168, 8};
    const size_t rate = rates[trial % 6], blocks = randombytes_uniform(MAX_IN / rate + 1);
    const unsigned char *in = msg + trial % 8;
    nat_keccak_absorb(ours.opaque, in, blocks, rate, rounds);
    for (size_t b = 0; b < blocks; b++) {
      crypto_core_keccak1600_xor_bytes(&ref, in + b * rate, 0, rate);
      if (rounds == 24) crypto_core_keccak1600_permute_24(&ref);
      else crypto_core_keccak1600_permute_12(&ref);
    }
    CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "absorb rate %zu x %zu, %u rounds", rate, blocks, rounds);
  }
}

/* The six functions behind one table, so each test runs over all of them. */
typedef struct {
  const char *name;
  int is_xof;
  size_t rate, outlen;
  int (*ours_oneshot_hash)(unsigned char *, const unsigned char *, size_t);
  int (*ref_oneshot_hash)(unsigned char *, const unsigned char *, unsigned long long);
  int (*ours_oneshot_xof)(unsigned char *, size_t, const unsigned char *, size_t);
  int (*ref_oneshot_xof)(unsigned char *, size_t, const unsigned char *, unsigned long long);
  int (*ours_init)(void *);
  int (*ref_init)(void *);
  int (*ours_init_domain)(void *, unsigned char);
  int (*ref_init_domain)(void *, unsigned char);
  int (*ours_update)(void *, const unsigned char *, size_t);
  int (*ref_update)(void *, const unsigned char *, unsigned long long);
  int (*ours_out)(void *, unsigned char *, size_t); /* final (outlen ignored) or squeeze */
  int (*ref_out)(void *, unsigned char *, size_t);
} primitive;

/* Adapters to one signature per role; each casts the state to the function's own type. */
#define HASH_ADAPTERS(p)                                                                       \
  static int ours_init_##p(void *s) { return nat_##p##_init(s); }                              \
  static int ref_init_##p(void *s) { return crypto_hash_##p##_init(s); }                       \
  static int ours_update_##p(void *s, const unsigned char *in, size_t n) {                     \
    return nat_##p##_update(s, in, n);                                                         \
  }                                                                                            \
  static int ref_update_##p(void *s, const unsigned char *in, unsigned long long n) {          \
    return crypto_hash_##p##_update(s, in, n);                                                 \
  }                                                                                            \
  static int ours_final_##p(void *s, unsigned char *out, size_t n) {                           \
    (void) n;                                                                                  \
    return nat_##p##_final(s, out);                                                            \
  }                                                                                            \
  static int ref_final_##p(void *s, unsigned char *out, size_t n) {                            \
    (void) n;                                                                                  \
    return crypto_hash_##p##_final(s, out);                                                    \
  }
#define XOF_ADAPTERS(p)                                                                        \
  static int ours_init_##p(void *s) { return nat_##p##_init(s); }                              \
  static int ref_init_##p(void *s) { return crypto_xof_##p##_init(s); }                        \
  static int ours_domain_##p(void *s, unsigned char d) { return nat_##p##_init_with_domain(s, d); } \
  static int ref_domain_##p(void *s, unsigned char d) {                                        \
    return crypto_xof_##p##_init_with_domain(s, d);                                            \
  }                                                                                            \
  static int ours_update_##p(void *s, const unsigned char *in, size_t n) {                     \
    return nat_##p##_update(s, in, n);                                                         \
  }                                                                                            \
  static int ref_update_##p(void *s, const unsigned char *in, unsigned long long n) {          \
    return crypto_xof_##p##_update(s, in, n);                                                  \
  }                                                                                            \
  static int ours_squeeze_##p(void *s, unsigned char *out, size_t n) {                         \
    return nat_##p##_squeeze(s, out, n);                                                       \
  }                                                                                            \
  static int ref_squeeze_##p(void *s, unsigned char *out, size_t n) {                          \
    return crypto_xof_##p##_squeeze(s, out, n);                                                \
  }

HASH_ADAPTERS(sha3256)
HASH_ADAPTERS(sha3512)
XOF_ADAPTERS(shake128)
XOF_ADAPTERS(shake256)
XOF_ADAPTERS(turboshake128)
XOF_ADAPTERS(turboshake256)

#define HASH_ENTRY(p, rate, n)                                                                 \
  {#p, 0, rate, n, nat_##p, crypto_hash_##p, NULL, NULL, ours_init_##p, ref_init_##p, NULL,    \
   NULL, ours_update_##p, ref_update_##p, ours_final_##p, ref_final_##p}
#define XOF_ENTRY(p, rate)                                                                     \
  {#p, 1, rate, 0, NULL, NULL, nat_##p, crypto_xof_##p, ours_init_##p, ref_init_##p,           \
   ours_domain_##p, ref_domain_##p, ours_update_##p, ref_update_##p, ours_squeeze_##p,         \
   ref_squeeze_##p}

static const primitive primitives[] = {
  HASH_ENTRY(sha3256, 136, 32), HASH_ENTRY(sha3512, 72, 64),
  XOF_ENTRY(shake128, 168), XOF_ENTRY(shake256, 136),
  XOF_ENTRY(turboshake128, 168), XOF_ENTRY(turboshake256, 136),
};

/* One-shot at every length 0..MAX_IN, at every alignment mod 8; XOF outputs of random lengths
 * up to a few blocks. */
static void test_oneshot(const primitive *p) {
  unsigned char ours[600], ref[600];
  for (size_t n = 0; n <= MAX_IN; n++) {
    const unsigned char *in = msg + n % 8;
    if (p->is_xof) {
      const size_t outlen = n < 700 ? n % 600 : randombytes_uniform(600);
      memset(ours, 0xa5, sizeof ours);
      CHECK(p->ours_oneshot_xof(ours, outlen, in, n) == 0, "rc");
      p->ref_oneshot_xof(ref, outlen, in, n);
      CHECK(memcmp(ours, ref, outlen) == 0, "%s %zu bytes -> %zu", p->name, n, outlen);
      CHECK(outlen == sizeof ours || ours[outlen] == 0xa5, "%s wrote past %zu", p->name, outlen);
    } else {
      CHECK(p->ours_oneshot_hash(ours, in, n) == 0, "rc");
      p->ref_oneshot_hash(ref, in, n);
      CHECK(memcmp(ours, ref, p->outlen) == 0, "%s %zu bytes", p->name, n);
    }
  }
}

/* Streaming: random chunks biased to the rate's edges, state bytes compared after every call;
 * the output in chunks (XOF) or a final, then calls on the finished state (an update restarts
 * absorbing and returns -1; a second final permutes, writes and returns -1). */
static void test_stream_once(const primitive *p, size_t total, int trial) {
  crypto_xof_shake128_state ours, ref; /* 256 bytes: the size of all six */
  unsigned char a[700], b[700];
  const size_t r = p->rate;
  const size_t edges[] = {0, 1, r - 1, r, r + 1, 2 * r - 1, 2 * r, 2 * r + 1, 7};
  _Static_assert(sizeof(crypto_hash_sha3256_state) == sizeof ours, "state sizes");
  randombytes_buf(&ours, sizeof ours); /* what init does not write must stay as it was */
  memcpy(&ref, &ours, sizeof ours);
  if (p->is_xof && trial % 3 == 0) {
    const unsigned char domain = (unsigned char) (1 + randombytes_uniform(255));
    CHECK(p->ours_init_domain(&ours, domain) == p->ref_init_domain(&ref, domain), "rc");
  } else {
    CHECK(p->ours_init(&ours) == p->ref_init(&ref), "rc");
  }
  CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "%s init", p->name);
  for (size_t at = 0; at < total;) {
    size_t n = randombytes_uniform(2) ? edges[randombytes_uniform(9)] : randombytes_uniform(3 * r);
    if (n > total - at) n = total - at;
    CHECK(p->ours_update(&ours, msg + at, n) == p->ref_update(&ref, msg + at, n), "rc");
    at += n;
    CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "%s after %zu of %zu bytes", p->name, at, total);
  }
  if (p->is_xof) {
    for (int k = 0; k < 4; k++) {
      const size_t n = randombytes_uniform(2) ? edges[randombytes_uniform(9)] : randombytes_uniform(700);
      CHECK(p->ours_out(&ours, a, n) == p->ref_out(&ref, b, n), "rc");
      CHECK(memcmp(a, b, n) == 0, "%s squeeze %zu", p->name, n);
      CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "%s state after squeeze", p->name);
    }
  } else {
    CHECK(p->ours_out(&ours, a, 0) == 0 && p->ref_out(&ref, b, 0) == 0, "final");
    CHECK(memcmp(a, b, p->outlen) == 0, "%s output, %zu bytes", p->name, total);
    CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "%s state after final", p->name);
    if (trial % 2) {
      CHECK(p->ours_out(&ours, a, 0) == -1 && p->ref_out(&ref, b, 0) == -1, "second final");
      CHECK(memcmp(a, b, p->outlen) == 0 && memcmp(&ours, &ref, sizeof ours) == 0, "second final");
    }
  }
  const size_t n = randombytes_uniform(400);
  CHECK(p->ours_update(&ours, msg, n) == -1 && p->ref_update(&ref, msg, n) == -1, "update after");
  CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "%s state after a late update", p->name);
}

int main(void) {
  if (sodium_init() < 0) return 1;
  randombytes_buf(msg, sizeof msg);
  printf("keccak kernel: %s\n", nat_keccak_impl());
  test_kernels();
  for (size_t k = 0; k < sizeof primitives / sizeof primitives[0]; k++) {
    const primitive *p = &primitives[k];
    test_oneshot(p);
    for (size_t total = 0; total <= 3 * p->rate + 2; total++) test_stream_once(p, total, (int) total);
    for (int trial = 0; trial < 150; trial++) {
      test_stream_once(p, randombytes_uniform(MAX_IN + 1), trial);
    }
  }
  printf("ok: %lu checks\n", checks);
  return 0;
}
