/* ns per call of XChaCha20-Poly1305-IETF encryption in C: libsodium's against ours
 * (src/crypto/chacha20poly1305.c, included to time its parts too), with a reused output buffer.
 *
 *   gcc -O3 -std=c11 -Ideps/out/native/include -Isrc/crypto bench/xchacha_small.c \
 *       src/crypto/chacha20_dispatch.c src/crypto/chacha20_portable.c src/crypto/chacha20_avx2.c \
 *       src/crypto/chacha20_avx512.c src/crypto/poly1305_dispatch.c \
 *       deps/out/native/lib/libsodium.a -o /tmp/xchacha_small && /tmp/xchacha_small
 *
 * Arguments: message sizes (default: a spread from 0 to 1 KB). Each figure is the 10th percentile
 * of 101 timed runs of ~0.2 ms, every op in turn within a run, so a busy machine (where the
 * slowest runs measure the other processes) hurts all alike. The columns after "|" time the parts:
 * libsodium's HChaCha20, our whole keystream (HChaCha20 + blocks 0..n), both Poly1305s over the
 * AEAD's padded input. The kernel is the one chacha20_dispatch.c picks (NATRIUM_CHACHA20 forces
 * one); add -DNAT_CHACHA20POLY1305_PORTABLE for the portable Poly1305. To time sizes past the
 * cutoff, raise NAT_CHACHA20POLY1305_SMALL_MAX in the header for the build (its comment has the
 * figures). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../src/crypto/chacha20poly1305.c"

#define RUNS 101

static unsigned char k[32], npub[24], m[8192], c[8192 + 16], ad[64];
static volatile unsigned char sink;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

typedef void (*op_fn)(size_t len);

static void op_libsodium(size_t len) {
  crypto_aead_xchacha20poly1305_ietf_encrypt(c, NULL, m, len, NULL, 0, NULL, npub, k);
}

static void op_ours(size_t len) {
  nat_aead_xchacha20poly1305_ietf_encrypt(c, NULL, m, len, NULL, 0, NULL, npub, k);
}

static void op_hchacha_libsodium(size_t len) {
  (void) len;
  crypto_core_hchacha20(c, npub, k, NULL);
}

static void op_keystream_ours(size_t len) {
  uint32_t st[16];
  state_x(st, npub, k);
  keystream_small(c, 1 + (len + 63) / 64, st, 0);
}

static void op_poly1305_ours(size_t len) {
  poly1305 st;
  poly1305_init(&st, k);
  poly1305_padded(&st, m, len);
  poly1305_block(&st, 0, len);
  poly1305_finish(&st, c);
}

static void op_poly1305_libsodium(size_t len) {
  crypto_onetimeauth_poly1305(c, m, len + 16, k);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* ns per call of each op in ops[0..n): 10th percentile of RUNS runs, ops interleaved */
static void time_ops(const op_fn *ops, double *fast, size_t n, size_t len) {
  double t[8][RUNS];
  const long iters = (long) (2e5 / (150 + len));
  for (int r = 0; r < RUNS; r++) {
    for (size_t i = 0; i < n; i++) {
      const double t0 = now_ns();
      for (long j = 0; j < iters; j++) ops[i](len);
      t[i][r] = (now_ns() - t0) / (double) iters;
      sink ^= c[0];
    }
  }
  for (size_t i = 0; i < n; i++) {
    qsort(t[i], RUNS, sizeof(double), cmp_double);
    fast[i] = t[i][RUNS / 10];
  }
}

int main(int argc, char **argv) {
  static const size_t default_sizes[] = {0, 10, 64, 100, 128, 192, 256, 320, 384, 448, 512, 1024};
  size_t sizes[32], nsizes = 0;
  if (sodium_init() < 0) return 1;
  for (int i = 1; i < argc && nsizes < 32; i++) sizes[nsizes++] = (size_t) atol(argv[i]);
  if (nsizes == 0) {
    nsizes = sizeof default_sizes / sizeof default_sizes[0];
    memcpy(sizes, default_sizes, sizeof default_sizes);
  }
  randombytes_buf(k, sizeof k);
  randombytes_buf(npub, sizeof npub);
  randombytes_buf(m, sizeof m);
  randombytes_buf(ad, sizeof ad);

  const op_fn ops[] = {op_libsodium, op_ours, op_hchacha_libsodium, op_keystream_ours,
                       op_poly1305_libsodium, op_poly1305_ours};
  printf("%6s %10s %8s %7s | %10s %10s %10s %10s\n", "bytes", "libsodium", "ours", "speedup",
         "hchacha", "keystream", "poly sod", "poly ours");
  for (size_t s = 0; s < nsizes; s++) {
    double ns[6];
    time_ops(ops, ns, 6, sizes[s]);
    printf("%6zu %10.1f %8.1f %6.2fx | %10.1f %10.1f %10.1f %10.1f\n", sizes[s], ns[0], ns[1],
           ns[0] / ns[1], ns[2], ns[3], ns[4], ns[5]);
  }
  return 0;
}
