/* ChaCha20 and ChaCha20-Poly1305 (IETF) in C: each ChaCha20 kernel chacha20_dispatch.c can pick,
 * alone (keystream XOR) and under our AEAD, against libsodium's crypto_aead_chacha20poly1305_ietf
 * and, with -DWITH_OPENSSL, OpenSSL's EVP chacha20-poly1305, side by side in one process.
 *
 *   S=deps/out/native; gcc -O3 -std=c11 -I$S/include -Isrc/crypto bench/chacha20poly1305.c \
 *     src/crypto/chacha20_portable.c src/crypto/chacha20_avx2.c src/crypto/chacha20_avx512.c \
 *     src/crypto/poly1305_dispatch.c src/crypto/poly1305_portable.c src/crypto/poly1305_avx2.c \
 *     src/crypto/poly1305_avx512ifma.c $S/lib/libsodium.a -o /tmp/cp && /tmp/cp
 *   (add -DWITH_OPENSSL ... -lcrypto for OpenSSL's column)
 *
 * Arguments: message sizes (default 64, 1024, 16384, 102400, 1048576). Each figure is the 10th
 * percentile of 41 rounds, every op in turn within a round (a busy machine hurts all alike), in
 * GB/s; "dispatch" is what chacha20_dispatch.c picks here at load. The Poly1305 is the one
 * poly1305_dispatch.c picks (NATRIUM_POLY1305_IMPL forces one). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* one translation unit with the dispatcher, so each kernel can be put under the AEAD in turn */
#include "../src/crypto/chacha20_dispatch.c"
#include "../src/crypto/chacha20poly1305.c"
#include "poly1305_impl.h"

#ifdef WITH_OPENSSL
#include <openssl/evp.h>
static EVP_CIPHER_CTX *openssl_ctx;
#endif

#define ROUNDS 41

static unsigned char key[32], nonce[12];
static volatile unsigned char sink;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

typedef struct {
  const char *name;
  nat_chacha20_blocks_fn kernel; /* NULL: not ours */
  nat_chacha20_blocks_fn short_kernel; /* for short messages under our AEAD; NULL: kernel */
  int aead;                      /* 0: keystream XOR only; 1: our AEAD; 2: libsodium's; 3: OpenSSL */
} op;

static void run(const op *o, unsigned char *c, const unsigned char *m, size_t len) {
  unsigned long long clen;
  if (o->aead == 0) {
    uint32_t st[16];
    nat_chacha20_init_ietf(st, key, nonce);
    st[12] = 1;
    o->kernel(st, c, m, len / 64, 0);
  } else if (o->aead == 1) {
    blocks_impl = o->kernel;
    short_impl = o->short_kernel != NULL ? o->short_kernel : o->kernel;
    nat_aead_chacha20poly1305_ietf_encrypt(c, &clen, m, len, NULL, 0, NULL, nonce, key);
  } else if (o->aead == 2) {
    crypto_aead_chacha20poly1305_ietf_encrypt(c, &clen, m, len, NULL, 0, NULL, nonce, key);
  } else {
#ifdef WITH_OPENSSL
    int outl;
    EVP_EncryptInit_ex(openssl_ctx, NULL, NULL, key, nonce);
    EVP_EncryptUpdate(openssl_ctx, c, &outl, m, (int) len);
    EVP_EncryptFinal_ex(openssl_ctx, c + outl, &outl);
    EVP_CIPHER_CTX_ctrl(openssl_ctx, EVP_CTRL_AEAD_GET_TAG, 16, c + len);
#endif
  }
  sink ^= c[len / 2];
}

int main(int argc, char **argv) {
  static const size_t defaults[] = {64, 1024, 16384, 102400, 1048576};
  candidate list[4];
  const size_t n = cpu_candidates(list);
  op ops[16];
  size_t nops = 0;

  if (sodium_init() < 0) return 1;
  randombytes_buf(key, sizeof key);
  randombytes_buf(nonce, sizeof nonce);
  for (size_t k = 0; k < n; k++) ops[nops++] = (op){list[k].name, list[k].fn, NULL, 0};
  for (size_t k = 0; k < n; k++) ops[nops++] = (op){list[k].name, list[k].fn, NULL, 1};
  /* what the dispatcher runs where libsodium's stream code is timed fastest (no AVX-512) */
  if (n > 2) ops[nops++] = (op){"libsodium+avx2", list[1].fn, list[2].fn, 1};
  ops[nops++] = (op){"libsodium AEAD", NULL, NULL, 2};
#ifdef WITH_OPENSSL
  openssl_ctx = EVP_CIPHER_CTX_new();
  EVP_EncryptInit_ex(openssl_ctx, EVP_chacha20_poly1305(), NULL, NULL, NULL);
  ops[nops++] = (op){"OpenSSL AEAD", NULL, NULL, 3};
#endif
  printf("chacha20_dispatch.c picks: %s (short messages: %s); poly1305: %s\n", impl_name,
         short_impl == blocks_impl ? impl_name : "avx2", nat_poly1305_impl());
  const nat_chacha20_blocks_fn picked = blocks_impl, picked_short = short_impl;

  const int nsizes = argc > 1 ? argc - 1 : (int) (sizeof defaults / sizeof defaults[0]);
  for (int s = 0; s < nsizes; s++) {
    const size_t len = argc > 1 ? (size_t) strtoull(argv[s + 1], NULL, 10) : defaults[s];
    unsigned char *m = malloc(len + 64), *c = malloc(len + 64);
    double t[16][ROUNDS];
    memset(m, 7, len);
    /* as many calls per round as make ~0.5 ms of libsodium's */
    const size_t reps = len >= 262144 ? 1 : 262144 / len;
    for (int r = 0; r < ROUNDS; r++) {
      for (size_t k = 0; k < nops; k++) {
        const double t0 = now_ns();
        for (size_t i = 0; i < reps; i++) run(&ops[k], c, m, len);
        t[k][r] = (now_ns() - t0) / reps;
      }
    }
    blocks_impl = picked;
    short_impl = picked_short;
    printf("%zu bytes:\n", len);
    for (size_t k = 0; k < nops; k++) {
      qsort(t[k], ROUNDS, sizeof t[k][0], cmp_double);
      const char *what = ops[k].aead == 0 ? "ChaCha20 only" : ops[k].aead == 1 ? "our AEAD" : "";
      printf("  %-16s %-14s %7.2f GB/s\n", ops[k].name, what, len / t[k][ROUNDS / 10]);
    }
    free(m);
    free(c);
  }
  return 0;
}
