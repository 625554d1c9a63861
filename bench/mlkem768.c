/* ML-KEM-768 in C: our code (src/crypto/mlkem768*.c, the kernels the dispatcher picks, or
 * NATRIUM_MLKEM=portable|avx2) against libsodium's crypto_kem_mlkem768_*, seeded key pair,
 * deterministic encapsulation and decapsulation, ours and libsodium's alternated call by call
 * (so a busy machine hurts both alike); the median of 2000 calls each, in TSC cycles (the TSC
 * ticks at the base clock, not the boosted one). x86-64 only (rdtsc).
 *
 *   S=deps/out/native; gcc -O3 -std=c11 -I$S/include -Isrc/crypto bench/mlkem768.c \
 *     src/crypto/mlkem768.c src/crypto/mlkem768_{portable,avx2,dispatch}.c src/crypto/xwing.c \
 *     src/crypto/keccak4x_avx{2,512vl}.c src/crypto/sha3.c src/crypto/keccak.c src/crypto/keccak_portable.c \
 *     $S/lib/libsodium.a -o /tmp/mlkem768 && /tmp/mlkem768 */
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "mlkem768.h"

#define CALLS 2000

static int by_value(const void *a, const void *b) {
  const unsigned long long x = *(const unsigned long long *) a, y = *(const unsigned long long *) b;
  return x < y ? -1 : x > y;
}

static unsigned long long median(unsigned long long *t) {
  qsort(t, CALLS, sizeof t[0], by_value);
  return t[CALLS / 2];
}

static unsigned long long t[6][CALLS];

int main(void) {
  static unsigned char pk[1184], sk[2400], ct[1088], ss[32], seed[64];
  static const char *ops[3] = {"keypair", "encapsulate", "decapsulate"};
  int failed = 0;

  if (sodium_init() < 0) return 1;
  randombytes_buf(seed, sizeof seed);
  for (int i = 0; i < CALLS; i++) {
    unsigned long long a = __rdtsc();
    failed |= nat_kem_mlkem768_seed_keypair(pk, sk, seed);
    unsigned long long b = __rdtsc();
    failed |= crypto_kem_mlkem768_seed_keypair(pk, sk, seed);
    unsigned long long c = __rdtsc();
    t[0][i] = b - a;
    t[1][i] = c - b;
    a = __rdtsc();
    failed |= nat_kem_mlkem768_enc_deterministic(ct, ss, pk, seed);
    b = __rdtsc();
    failed |= crypto_kem_mlkem768_enc_deterministic(ct, ss, pk, seed);
    c = __rdtsc();
    t[2][i] = b - a;
    t[3][i] = c - b;
    a = __rdtsc();
    failed |= nat_kem_mlkem768_dec(ss, ct, sk);
    b = __rdtsc();
    failed |= crypto_kem_mlkem768_dec(ss, ct, sk);
    c = __rdtsc();
    t[4][i] = b - a;
    t[5][i] = c - b;
  }
  for (int k = 0; k < 3; k++) {
    const unsigned long long ours = median(t[2 * k]), theirs = median(t[2 * k + 1]);
    printf("%-12s ours (%s) %7llu  libsodium %7llu TSC cycles  %.2fx\n", ops[k], nat_kem_mlkem768_impl(),
           ours, theirs, (double) theirs / (double) ours);
  }
  return failed != 0;
}
