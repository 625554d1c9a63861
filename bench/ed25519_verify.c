/* Ed25519 verify in C: crypto_sign_verify_detached (10 B and 1 KB) with our double-base product,
 * decoding and encoding (src/crypto/ed25519_mulx.c, reached through the addon's --wrap) against
 * libsodium's own, and the three functions alone against libsodium's (__real_), ours and
 * libsodium's alternated call by call (so a busy machine hurts both alike); the median of 2000
 * calls each, in TSC cycles (the TSC ticks at the base clock, not the boosted one). x86-64 with
 * BMI2/ADX only (rdtsc).
 *
 *   S=deps/out/native; W=ge25519_double_scalarmult_vartime,ge25519_tobytes,ge25519_frombytes_negate_vartime
 *   gcc -O3 -std=c11 -I$S/include -Isrc/crypto -DNAT_ED25519_WRAP \
 *     -Wl,--wrap=ge25519_scalarmult_base,--wrap=ge25519_p3_tobytes,--wrap=crypto_scalarmult_curve25519_base \
 *     -Wl,--wrap=${W//,/,--wrap=} bench/ed25519_verify.c src/crypto/ed25519_mulx.c src/crypto/sha2.c \
 *     $S/lib/libsodium.a -o build/ed25519_verify && build/ed25519_verify */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "ed25519.h"

#define CALLS 2000

void __real_ge25519_double_scalarmult_vartime(nat_ge25519_p2_51 *r, const unsigned char *a, const nat_ge25519_p3_51 *A,
                                              const unsigned char *b);
void __real_ge25519_tobytes(unsigned char *s, const nat_ge25519_p2_51 *h);
int __real_ge25519_frombytes_negate_vartime(nat_ge25519_p3_51 *h, const unsigned char *s);

static int by_value(const void *a, const void *b) {
  const unsigned long long x = *(const unsigned long long *) a, y = *(const unsigned long long *) b;
  return x < y ? -1 : x > y;
}

static unsigned long long median(unsigned long long *t) {
  qsort(t, CALLS, sizeof t[0], by_value);
  return t[CALLS / 2];
}

static unsigned long long t[2][CALLS];
static unsigned char msg[1024];

int main(void) {
  if (sodium_init() < 0 || !nat_ed25519_use_mulx) {
    printf("needs BMI2/ADX and ours switched on\n");
    return 1;
  }
  unsigned char pk[32], sk[64], sig10[64], sig1k[64], h[32], s[32], enc[32];
  unsigned long long x;
  randombytes_buf(msg, sizeof msg);
  crypto_sign_keypair(pk, sk);
  crypto_sign_detached(sig10, NULL, msg, 10, sk);
  crypto_sign_detached(sig1k, NULL, msg, 1024, sk);
  int bad = 0;
  for (int len = 0; len < 2; len++) {
    const unsigned char *sig = len ? sig1k : sig10;
    const size_t mlen = len ? 1024 : 10;
    for (int i = 0; i < CALLS; i++) {
      nat_ed25519_use_mulx = 1;
      x = __rdtsc(); bad |= crypto_sign_verify_detached(sig, msg, mlen, pk); t[0][i] = __rdtsc() - x;
      nat_ed25519_use_mulx = 0;
      x = __rdtsc(); bad |= crypto_sign_verify_detached(sig, msg, mlen, pk); t[1][i] = __rdtsc() - x;
    }
    const unsigned long long o = median(t[0]), l = median(t[1]);
    printf("verify %s: ours %llu, libsodium %llu TSC cycles (%.2fx)\n", len ? "1 KB" : "10 B", o, l, (double) l / o);
  }
  nat_ed25519_use_mulx = 1;
  nat_ge25519_p3_51 A;
  nat_ge25519_p2_51 R;
  randombytes_buf(h, 32);
  h[31] &= 0x0f;
  memcpy(s, sig10 + 32, 32);
  for (int i = 0; i < CALLS; i++) {
    x = __rdtsc(); bad |= nat_ed25519_frombytes_negate_vartime_mulx(&A, pk); t[0][i] = __rdtsc() - x;
    x = __rdtsc(); bad |= __real_ge25519_frombytes_negate_vartime(&A, pk); t[1][i] = __rdtsc() - x;
  }
  printf("frombytes_negate_vartime: ours %llu, libsodium %llu\n", median(t[0]), median(t[1]));
  for (int i = 0; i < CALLS; i++) {
    x = __rdtsc(); nat_ed25519_double_scalarmult_vartime_mulx(&R, h, &A, s); t[0][i] = __rdtsc() - x;
    x = __rdtsc(); __real_ge25519_double_scalarmult_vartime(&R, h, &A, s); t[1][i] = __rdtsc() - x;
  }
  printf("double_scalarmult_vartime: ours %llu, libsodium %llu\n", median(t[0]), median(t[1]));
  for (int i = 0; i < CALLS; i++) {
    x = __rdtsc(); nat_ed25519_tobytes_mulx(enc, &R); t[0][i] = __rdtsc() - x;
    x = __rdtsc(); __real_ge25519_tobytes(enc, &R); t[1][i] = __rdtsc() - x;
  }
  printf("tobytes: ours %llu, libsodium %llu\n", median(t[0]), median(t[1]));
  return bad;
}
