/* Differential test of src/crypto/sha2.c against libsodium's SHA-2, in C, under ASan/UBSan and
 * valgrind (test/c/run.sh), once per compression function this CPU has (NATRIUM_DISABLE_SIMD=1
 * keeps the portable ones): SHA-256 and SHA-512 one-shot at every length, streaming with the
 * state bytes compared after every call, the entry points libsodium's Ed25519 calls
 * (nat_sodium_sha512*, deps/build.sh; __wrap_crypto_hash_sha512*, deps/build-wasm.sh), and HMAC with its key marked secret under valgrind, so a
 * key-dependent branch or index is reported. Exits non-zero on the first difference.
 *
 * cc-sources: src/crypto/sha2.c
 * run-env: NATRIUM_DISABLE_SIMD=1 NATRIUM_DISABLE_SIMD= NATRIUM_SHA512_IMPL=avx2 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha2.h"

#include "check.h"

#define MAX_IN 3000
static unsigned char msg[MAX_IN + 8];

static void test_oneshot(void) {
  unsigned char a[64], b[64];
  for (size_t n = 0; n <= MAX_IN; n++) {
    const unsigned char *in = msg + n % 8;
    nat_sha256(a, in, n);
    crypto_hash_sha256(b, in, n);
    CHECK(memcmp(a, b, 32) == 0, "sha256 %zu", n);
    nat_sha512(a, in, n);
    crypto_hash_sha512(b, in, n);
    CHECK(memcmp(a, b, 64) == 0, "sha512 %zu", n);
    nat_sodium_sha512(a, in, n);
    CHECK(memcmp(a, b, 64) == 0, "nat_sodium_sha512 %zu", n);
    memset(a, 0, 64);
    __wrap_crypto_hash_sha512(a, in, n);
    CHECK(memcmp(a, b, 64) == 0, "__wrap_crypto_hash_sha512 %zu", n);
  }
}

/* Random chunks biased to the block edges, the state compared after every call. */
static void test_stream_once(size_t total) {
  crypto_hash_sha256_state s256, r256;
  crypto_hash_sha512_state s512, r512, w512, x512;
  unsigned char a[64], b[64];
  static const size_t edges[] = {0, 1, 63, 64, 65, 111, 112, 127, 128, 129, 255, 256};
  randombytes_buf(&s512, sizeof s512); /* libsodium's init leaves the buffer as it was */
  memcpy(&r512, &s512, sizeof s512);
  memcpy(&w512, &s512, sizeof s512);
  memcpy(&x512, &s512, sizeof s512);
  memcpy(&s256, &s512, sizeof s256);
  memcpy(&r256, &s512, sizeof r256);
  nat_sha256_init(&s256);
  crypto_hash_sha256_init(&r256);
  nat_sha512_init(&s512);
  nat_sodium_sha512_init(&w512);
  __wrap_crypto_hash_sha512_init(&x512);
  crypto_hash_sha512_init(&r512);
  for (size_t at = 0; at < total;) {
    size_t n = randombytes_uniform(2) ? edges[randombytes_uniform(12)] : randombytes_uniform(400);
    if (n > total - at) n = total - at;
    nat_sha256_update(&s256, msg + at, n);
    crypto_hash_sha256_update(&r256, msg + at, n);
    nat_sha512_update(&s512, msg + at, n);
    nat_sodium_sha512_update(&w512, msg + at, n);
    __wrap_crypto_hash_sha512_update(&x512, msg + at, n);
    crypto_hash_sha512_update(&r512, msg + at, n);
    at += n;
    CHECK(memcmp(&s256, &r256, sizeof s256) == 0, "sha256 state after %zu", at);
    CHECK(memcmp(&s512, &r512, sizeof s512) == 0, "sha512 state after %zu", at);
    CHECK(memcmp(&w512, &r512, sizeof w512) == 0, "nat_sodium_sha512 state after %zu", at);
    CHECK(memcmp(&x512, &r512, sizeof x512) == 0, "__wrap_crypto_hash_sha512 state after %zu", at);
  }
  nat_sha256_final(&s256, a);
  crypto_hash_sha256_final(&r256, b);
  CHECK(memcmp(a, b, 32) == 0 && memcmp(&s256, &r256, sizeof s256) == 0, "sha256 final %zu", total);
  nat_sha512_final(&s512, a);
  crypto_hash_sha512_final(&r512, b);
  CHECK(memcmp(a, b, 64) == 0 && memcmp(&s512, &r512, sizeof s512) == 0, "sha512 final %zu", total);
  nat_sodium_sha512_final(&w512, a);
  CHECK(memcmp(a, b, 64) == 0 && memcmp(&w512, &r512, sizeof w512) == 0, "final %zu", total);
  __wrap_crypto_hash_sha512_final(&x512, a);
  CHECK(memcmp(a, b, 64) == 0 && memcmp(&x512, &r512, sizeof x512) == 0, "__wrap final %zu", total);
}

/* HMAC-SHA-256/512/512-256 with the key secret: one-shot, verify, streaming with keys of every
 * length around the block size (longer ones are hashed first). */
static void test_hmac_constant_time(void) {
  unsigned char key[300], a[64], b[64], c[64];
  crypto_auth_hmacsha256_state s256;
  crypto_auth_hmacsha512_state s512;
  for (size_t keylen = 0; keylen <= sizeof key; keylen += 13) {
    const size_t n = (keylen * 7) % 500;
    randombytes_buf(key, sizeof key);
    crypto_auth_hmacsha256(b, msg, n, key);
    SECRET(key, sizeof key);
    nat_hmacsha256(a, msg, n, key);
    PUBLIC(a, 32);
    CHECK(memcmp(a, b, 32) == 0, "hmacsha256");
    int ok = nat_hmacsha256_verify(b, msg, n, key);
    PUBLIC(&ok, sizeof ok);
    CHECK(ok == 0, "hmacsha256_verify");
    nat_hmacsha512256(a, msg, n, key);
    PUBLIC(a, 32);
    PUBLIC(key, sizeof key);
    crypto_auth_hmacsha512256(b, msg, n, key);
    CHECK(memcmp(a, b, 32) == 0, "hmacsha512256");
    crypto_auth_hmacsha512(b, msg, n, key);
    SECRET(key, sizeof key);
    nat_hmacsha512(a, msg, n, key);
    PUBLIC(a, 64);
    CHECK(memcmp(a, b, 64) == 0, "hmacsha512");
    nat_hmacsha256_init(&s256, key, keylen);
    nat_hmacsha256_update(&s256, msg, n);
    nat_hmacsha256_final(&s256, a);
    nat_hmacsha512_init(&s512, key, keylen);
    nat_hmacsha512_update(&s512, msg, n);
    nat_hmacsha512_final(&s512, c);
    PUBLIC(a, 64);
    PUBLIC(c, 64);
    PUBLIC(key, sizeof key);
    crypto_auth_hmacsha256_init(&s256, key, keylen);
    crypto_auth_hmacsha256_update(&s256, msg, n);
    crypto_auth_hmacsha256_final(&s256, b);
    CHECK(memcmp(a, b, 32) == 0, "hmacsha256 streaming, key %zu", keylen);
    crypto_auth_hmacsha512_init(&s512, key, keylen);
    crypto_auth_hmacsha512_update(&s512, msg, n);
    crypto_auth_hmacsha512_final(&s512, b);
    CHECK(memcmp(c, b, 64) == 0, "hmacsha512 streaming, key %zu", keylen);
  }
}

int main(void) {
  if (sodium_init() < 0) return 1;
  randombytes_buf(msg, sizeof msg);
  printf("compression: SHA-256 %s, SHA-512 %s\n", nat_sha2_impl(256), nat_sha2_impl(512));
  test_oneshot();
  for (size_t total = 0; total <= 600; total++) test_stream_once(total);
  for (int trial = 0; trial < 300; trial++) test_stream_once(randombytes_uniform(MAX_IN + 1));
  test_hmac_constant_time();
  printf("ok: %lu checks\n", checks);
  return 0;
}
