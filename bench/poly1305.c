/* Poly1305 in C: every implementation in src/crypto/poly1305_*.c against libsodium's
 * crypto_onetimeauth_poly1305, one whole tag (init, update, final) per op, side by side.
 *
 *   S=deps/out/native; gcc -O3 -std=c11 -I$S/include -Isrc/crypto bench/poly1305.c \
 *     src/crypto/poly1305_dispatch.c src/crypto/poly1305_portable.c src/crypto/poly1305_avx2.c \
 *     src/crypto/poly1305_avx512ifma.c $S/lib/libsodium.a -o /tmp/poly1305 && /tmp/poly1305
 *
 * Arguments: message sizes (default 64, 1024, 16384, 1048576). Each figure is the 10th
 * percentile of 41 rounds, every op in turn within a round (so a busy machine hurts all alike),
 * in GB/s and TSC cycles per byte (the TSC ticks at the base clock, not the boosted one). An
 * implementation this CPU lacks is left out. With -DWITH_OPENSSL ... -lcrypto, OpenSSL's
 * Poly1305 (EVP_MAC "POLY1305", OpenSSL 3) is timed alongside: `openssl speed` has no Poly1305
 * of its own in OpenSSL 3.0. For wasm32 (SIMD128 and the 26-bit C, timed in Node's WASI):
 *   clang --target=wasm32-wasi -O2 -msimd128 -I$W/include -Isrc/crypto bench/poly1305.c \
 *     src/crypto/poly1305_{dispatch,portable,simd128}.c $W/lib/libsodium.a -o /tmp/poly1305.wasm
 * with W the wasm32 libsodium (deps/out/wasm32). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poly1305_impl.h"

#ifdef NAT_POLY1305_X86
#include <x86intrin.h>
#endif
#ifdef WITH_OPENSSL
#include <openssl/evp.h>

static EVP_MAC_CTX *openssl_ctx;
#endif

#define ROUNDS 41

static volatile unsigned char sink;
static unsigned char key[32];

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t ticks(void) {
#ifdef NAT_POLY1305_X86
  return __rdtsc();
#else
  return 0;
#endif
}

/* as nat_poly1305_update + final do, with the kernel given */
static void tag_with(nat_poly1305_blocks_fn fn, const unsigned char *m, size_t len, unsigned char tag[16]) {
  CRYPTO_ALIGN(16) nat_poly1305_state st;
  nat_poly1305_core *c = (nat_poly1305_core *) (void *) &st;
  nat_poly1305_init(&st, key);
  if (len >= 16) fn(c, m, len / 16);
  nat_poly1305_update(&st, m + (len & ~(size_t) 15), len & 15);
  nat_poly1305_final(&st, tag);
}

static void portable(nat_poly1305_core *c, const unsigned char *m, size_t b) {
#ifdef NAT_POLY1305_64
  nat_poly1305_blocks_portable64(c, m, b, 1);
#else
  nat_poly1305_blocks_portable26(c, m, b, 1);
#endif
}
static void portable26(nat_poly1305_core *c, const unsigned char *m, size_t b) {
  nat_poly1305_blocks_portable26(c, m, b, 1);
}

typedef struct {
  const char *name;
  nat_poly1305_blocks_fn fn; /* NULL: libsodium */
} op;

#ifdef WITH_OPENSSL
static void openssl_tag(const unsigned char *m, size_t len, unsigned char tag[16]) {
  size_t outl = 16;
  EVP_MAC_init(openssl_ctx, key, 32, NULL);
  EVP_MAC_update(openssl_ctx, m, len);
  EVP_MAC_final(openssl_ctx, tag, &outl, 16);
}

static void openssl_marker(nat_poly1305_core *c, const unsigned char *m, size_t b) {
  (void) c, (void) m, (void) b;
}
#endif

static int cmp(const void *a, const void *b) {
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  size_t sizes[16] = {64, 1024, 16384, 1048576};
  size_t nsizes = 4;
  if (argc > 1) {
    nsizes = 0;
    for (int i = 1; i < argc && nsizes < 16; i++) sizes[nsizes++] = (size_t) strtoull(argv[i], NULL, 10);
  }
  if (sodium_init() < 0) return 1;
  op ops[8];
  size_t nops = 0;
  ops[nops++] = (op){"libsodium", NULL};
  ops[nops++] = (op){"portable", portable};
  ops[nops++] = (op){"portable26", portable26};
#ifdef NAT_POLY1305_SIMD128
  ops[nops++] = (op){"simd128", nat_poly1305_blocks_simd128};
#endif
#ifdef NAT_POLY1305_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) ops[nops++] = (op){"avx2", nat_poly1305_blocks_avx2};
  if (__builtin_cpu_supports("avx512ifma") && __builtin_cpu_supports("avx512vl"))
    ops[nops++] = (op){"avx512ifma", nat_poly1305_blocks_avx512ifma};
#endif
#ifdef WITH_OPENSSL
  EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
  openssl_ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
  if (openssl_ctx != NULL) ops[nops++] = (op){"openssl", openssl_marker};
#endif
  randombytes_buf(key, sizeof key);
  printf("dispatcher's choice here: %s\n", nat_poly1305_impl());
  for (size_t s = 0; s < nsizes; s++) {
    const size_t len = sizes[s];
    unsigned char *m = malloc(len + 1), tag[16], ref[16];
    randombytes_buf(m, len);
    crypto_onetimeauth_poly1305(ref, m, len, key);
    const size_t reps = len >= (1 << 20) ? 4 : (size_t) (1 << 22) / (len + 64);
    double ns[8][ROUNDS], cyc[8][ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      for (size_t o = 0; o < nops; o++) {
        const double t0 = now_ns();
        const uint64_t c0 = ticks();
        for (size_t r = 0; r < reps; r++) {
          if (ops[o].fn == NULL) crypto_onetimeauth_poly1305(tag, m, len, key);
#ifdef WITH_OPENSSL
          else if (ops[o].fn == openssl_marker) openssl_tag(m, len, tag);
#endif
          else tag_with(ops[o].fn, m, len, tag);
          sink ^= tag[0];
        }
        cyc[o][round] = (double) (ticks() - c0) / (double) reps;
        ns[o][round] = (now_ns() - t0) / (double) reps;
        if (memcmp(tag, ref, 16) != 0) {
          fprintf(stderr, "%s: wrong tag at %zu bytes\n", ops[o].name, len);
          return 1;
        }
      }
    }
    printf("%8zu B:", len);
    double base = 0;
    for (size_t o = 0; o < nops; o++) {
      qsort(ns[o], ROUNDS, sizeof(double), cmp);
      qsort(cyc[o], ROUNDS, sizeof(double), cmp);
      const double t = ns[o][ROUNDS / 10], gbs = (double) len / t;
      if (o == 0) base = t;
      printf("  %s %.2f GB/s %.3f c/B (%.2fx)", ops[o].name, gbs, cyc[o][ROUNDS / 10] / (double) len, base / t);
    }
    printf("\n");
    free(m);
  }
  return 0;
}
