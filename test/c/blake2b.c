/* Differential test of src/crypto/blake2b*.c against libsodium's crypto_generichash_blake2b*, in
 * C, so the buffering code and every compression function run under ASan/UBSan and valgrind:
 * test/c/run.sh runs it once per NATRIUM_BLAKE2B_IMPL below, so each implementation this CPU has
 * goes through the whole test. The states must
 * match byte for byte after every call, stale buffer bytes included. Exits non-zero on the
 * first difference.
 *
 * cc-sources: src/crypto/blake2b.c src/crypto/blake2b_dispatch.c src/crypto/blake2b_portable.c
 * cc-sources: src/crypto/blake2b_avx2.c src/crypto/blake2b_simd128.c
 * run-env: NATRIUM_BLAKE2B_IMPL=portable NATRIUM_BLAKE2B_IMPL=avx2 NATRIUM_BLAKE2B_IMPL= */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blake2b.h"
#include "blake2b_impl.h"

/* Under valgrind (test/c/run.sh runs it there), bytes marked SECRET are undefined to memcheck:
 * a branch or an address that depends on them is reported (Monocypher's test habit). */
#include "check.h"

#define MAX_IN 3000
static unsigned char msg[MAX_IN];

/* One-shot at every output and key length, and every message length up to MAX_IN, with salt
 * and personal present or absent. */
static void test_oneshot(void) {
  unsigned char key[64], salt[16], personal[16], ours[64], ref[64];
  randombytes_buf(key, sizeof key);
  randombytes_buf(salt, sizeof salt);
  randombytes_buf(personal, sizeof personal);
  for (size_t outlen = 1; outlen <= 64; outlen++) {
    for (size_t keylen = 0; keylen <= 64; keylen++) {
      const size_t inlen = (outlen * 65 + keylen) % 700;
      memset(ours, 0xa5, sizeof ours);
      CHECK(nat_blake2b(ours, outlen, msg, inlen, keylen ? key : NULL, keylen) == 0, "rc");
      crypto_generichash_blake2b(ref, outlen, msg, inlen, keylen ? key : NULL, keylen);
      CHECK(memcmp(ours, ref, outlen) == 0, "outlen %zu keylen %zu inlen %zu", outlen, keylen, inlen);
      CHECK(outlen == 64 || ours[outlen] == 0xa5, "wrote past outlen %zu", outlen);
    }
  }
  for (size_t inlen = 0; inlen <= MAX_IN; inlen++) {
    const size_t keylen = inlen % 3 == 0 ? 0 : inlen % 65;
    const int which = (int) (inlen % 4);
    const unsigned char *s = which & 1 ? salt : NULL, *p = which & 2 ? personal : NULL;
    nat_blake2b_salt_personal(ours, 64, msg, inlen, keylen ? key : NULL, keylen, s, p);
    crypto_generichash_blake2b_salt_personal(ref, 64, msg, inlen, keylen ? key : NULL, keylen, s, p);
    CHECK(memcmp(ours, ref, 64) == 0, "salt_personal inlen %zu keylen %zu (%d)", inlen, keylen, which);
  }
  CHECK(nat_blake2b(ours, 0, msg, 1, NULL, 0) == -1, "outlen 0");
  CHECK(nat_blake2b(ours, 65, msg, 1, NULL, 0) == -1, "outlen 65");
  CHECK(nat_blake2b(ours, 32, msg, 1, key, 65) == -1, "keylen 65");
}

/* Streaming in random chunks, biased to the block and buffer edges; the two states must stay
 * byte-identical after every call, final included, and a second final must fail in both. */
static void test_stream_once(size_t total, int trial) {
  CRYPTO_ALIGN(64) crypto_generichash_blake2b_state ours, ref;
  unsigned char key[64], salt[16], personal[16], a[64], b[64];
  const size_t keylen = trial % 3 == 0 ? 0 : 1 + randombytes_uniform(64);
  const size_t outlen = 1 + randombytes_uniform(64);
  randombytes_buf(key, sizeof key);
  randombytes_buf(salt, sizeof salt);
  randombytes_buf(personal, sizeof personal);
  randombytes_buf(&ours, sizeof ours); /* what init does not write must stay as it was */
  memcpy(&ref, &ours, sizeof ours);
  if (trial % 2) {
    nat_blake2b_init_salt_personal(&ours, keylen ? key : NULL, keylen, outlen, salt, personal);
    crypto_generichash_blake2b_init_salt_personal(&ref, keylen ? key : NULL, keylen, outlen, salt,
                                                  personal);
  } else {
    nat_blake2b_init(&ours, keylen ? key : NULL, keylen, outlen);
    crypto_generichash_blake2b_init(&ref, keylen ? key : NULL, keylen, outlen);
  }
  CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "init, trial %d", trial);
  static const size_t edges[] = {0, 1, 127, 128, 129, 255, 256, 257, 383, 384, 385};
  size_t at = 0;
  while (at < total) {
    size_t n = randombytes_uniform(2) ? edges[randombytes_uniform(11)] : randombytes_uniform(600);
    if (n > total - at) n = total - at;
    nat_blake2b_update(&ours, msg + at, n);
    crypto_generichash_blake2b_update(&ref, msg + at, n);
    at += n;
    CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "after %zu of %zu bytes, trial %d", at, total, trial);
  }
  CHECK(nat_blake2b_final(&ours, a, outlen) == 0, "final");
  crypto_generichash_blake2b_final(&ref, b, outlen);
  CHECK(memcmp(a, b, outlen) == 0, "output, %zu bytes, trial %d", total, trial);
  CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "state after final, trial %d", trial);
  CHECK(nat_blake2b_final(&ours, a, outlen) == -1, "second final");
}

/* Every whole-block count the compression functions see from update (1, 2, 3, ...), checked
 * against the portable one: each implementation's loop over blocks, counters and flags. */
static void test_compress_against_portable(nat_blake2b_compress_fn fn) {
  for (size_t blocks = 0; blocks <= MAX_IN / 128; blocks++) {
    uint64_t h1[8], h2[8], t1[2] = {~(uint64_t) 0 - 200, 7}, t2[2];
    randombytes_buf(h1, sizeof h1);
    memcpy(h2, h1, sizeof h1);
    memcpy(t2, t1, sizeof t1);
    const uint64_t f0 = blocks % 2 ? ~(uint64_t) 0 : 0, f1 = blocks % 3 ? 0 : ~(uint64_t) 0;
    fn(h1, t1, f0, f1, msg, blocks, 128 - blocks % 2);
    nat_blake2b_compress_portable(h2, t2, f0, f1, msg, blocks, 128 - blocks % 2);
    CHECK(memcmp(h1, h2, sizeof h1) == 0 && memcmp(t1, t2, sizeof t1) == 0, "%zu blocks", blocks);
  }
}

/* Keyed BLAKE2b (a MAC) must not branch on or index by its key: one-shot and streaming, every key
 * length, through the compression function in use, with the key marked secret. */
static void test_constant_time(void) {
  unsigned char key[64], out[64], ref[64];
  CRYPTO_ALIGN(64) crypto_generichash_blake2b_state st;
  for (size_t keylen = 1; keylen <= 64; keylen += 7) {
    const size_t inlen = (keylen * 37) % 600;
    randombytes_buf(key, sizeof key);
    crypto_generichash_blake2b(ref, 64, msg, inlen, key, keylen);
    SECRET(key, sizeof key);
    nat_blake2b(out, 64, msg, inlen, key, keylen);
    PUBLIC(out, sizeof out);
    CHECK(memcmp(out, ref, 64) == 0, "secret key %zu", keylen);
    nat_blake2b_init(&st, key, keylen, 64);
    nat_blake2b_update(&st, msg, inlen / 2);
    nat_blake2b_update(&st, msg + inlen / 2, inlen - inlen / 2);
    nat_blake2b_final(&st, out, 64);
    PUBLIC(out, sizeof out);
    PUBLIC(&st, sizeof st);
    PUBLIC(key, sizeof key);
    CHECK(memcmp(out, ref, 64) == 0, "streaming, secret key %zu", keylen);
  }
}

int main(void) {
  const char *forced = getenv("NATRIUM_BLAKE2B_IMPL");
  if (sodium_init() < 0) return 1;
  randombytes_buf(msg, sizeof msg);
  printf("compression: %s (NATRIUM_BLAKE2B_IMPL=%s)\n", nat_blake2b_impl(), forced ? forced : "");
  /* a forced implementation the CPU has must be the one in use */
  if (forced != NULL && forced[0] != '\0' && strcmp(forced, nat_blake2b_impl()) != 0) {
    printf("%s: not on this CPU, skipped\n", forced);
    return 0;
  }
  test_compress_against_portable(nat_blake2b_compress);
  test_constant_time();
  test_oneshot();
  for (size_t total = 0; total <= 700; total++) test_stream_once(total, (int) total);
  for (int trial = 0; trial < 200; trial++) test_stream_once(randombytes_uniform(MAX_IN + 1), trial);
  printf("ok: %lu checks\n", checks);
  return 0;
}
