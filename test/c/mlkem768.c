/* Differential test of our ML-KEM-768 and X-Wing (src/crypto/mlkem768*.c, xwing.c) against
 * libsodium 1.0.22's, in C, under ASan/UBSan and valgrind (test/c/run.sh), once per kernel set
 * (run-env). Every function on random seeds: key pairs, deterministic encapsulation, and
 * decapsulation of the valid ciphertext, of tampered ones (one bit, one byte, a random
 * ciphertext: implicit rejection) and with random secret keys (whose embedded public key
 * nothing checks, so its coefficients go up to 4095); public keys with an unreduced coefficient
 * (the modulus check); the compression formula on every coefficient; each kernel against the
 * portable one (the encodings and compressions on every int16_t value). Under valgrind the secret inputs are marked undefined (the key pair's seed, the
 * message of an encapsulation, the secret parts of a decapsulation key), so a branch or a
 * memory index on a secret is reported; the public matrix seed rho, which the rejection
 * sampling branches on by design, is declassified where keygen derives it (NAT_DECLASSIFY).
 * MLKEM_TRIALS=n sets the number of random seeds (default 2000, 40 under valgrind).
 * test/c/run.sh also builds it for wasm32 and runs it under Node's WASI (wasm32: always), where
 * the SIMD128 kernels answer unless NATRIUM_MLKEM=portable or NATRIUM_DISABLE_SIMD=1 (read by
 * main below: the library reads no environment on wasm).
 *
 * cc-sources: src/crypto/mlkem768_portable.c src/crypto/mlkem768_avx2.c src/crypto/keccak4x_avx2.c src/crypto/keccak4x_avx512vl.c src/crypto/mlkem768_dispatch.c src/crypto/xwing.c src/crypto/sha3.c src/crypto/keccak.c src/crypto/keccak_portable.c
 * cc-sources: src/crypto/mlkem768_simd128.c src/crypto/keccak2x_simd128.c
 * run-env: NATRIUM_MLKEM=portable NATRIUM_MLKEM=avx2 NATRIUM_MLKEM=avx512vl NATRIUM_DISABLE_SIMD=1
 * wasm32: always */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#define NAT_DECLASSIFY(p, n) PUBLIC(p, n)

#include "../../src/crypto/mlkem768.c"

#define PK crypto_kem_mlkem768_PUBLICKEYBYTES
#define SK crypto_kem_mlkem768_SECRETKEYBYTES
#define CT crypto_kem_mlkem768_CIPHERTEXTBYTES
#define XPK crypto_kem_xwing_PUBLICKEYBYTES
#define XCT crypto_kem_xwing_CIPHERTEXTBYTES

/* Compress_d against its definition, round(2^d x / q) mod 2^d in exact integers. */
static void test_compress(void) {
  for (unsigned d = 1; d <= 11; d++) {
    for (uint16_t x = 0; x < Q; x++) {
      const uint32_t want = (((uint32_t) x << d) * 2 + Q) / (2 * Q) % (1u << d);
      CHECK(nat_mlkem_compress(x, d) == want, "d %u x %u", d, x);
    }
  }
  for (int a = -32768; a < 32768; a++) {
    const int16_t r = nat_mlkem_barrett((int16_t) a);
    CHECK(r >= -(Q - 1) / 2 && r <= (Q - 1) / 2 && (r - a) % Q == 0, "barrett %d", a);
    CHECK(nat_mlkem_canonical((int16_t) a) == ((a % Q) + Q) % Q, "canonical %d", a);
  }
}

/* The chosen kernels against the portable ones on random inputs at their bounds. */
static void test_kernels(void) {
  const nat_mlkem768_kernels *kn = kernels(), *ref = &nat_mlkem768_portable;
  for (int trial = 0; trial < 300; trial++) {
    nat_mlkem_poly a[K], b[K], x, y;
    uint16_t r[K * N * 2];
    randombytes_buf(r, sizeof r);
    const int wide = trial % 3;
    for (size_t k = 0; k < K; k++) {
      for (size_t i = 0; i < N; i++) {
        a[k].c[i] = (int16_t) (wide == 0 ? r[k * N + i] % 4096 : (int) (r[k * N + i] % (2 * Q - 1)) - (Q - 1));
        b[k].c[i] = (int16_t) ((int) (r[K * N + k * N + i] % (2 * Q - 1)) - (Q - 1));
      }
    }
    kn->basemul_acc(&x, a, b);
    ref->basemul_acc(&y, a, b);
    for (size_t i = 0; i < N; i++) {
      CHECK(x.c[i] > -Q && x.c[i] < Q && nat_mlkem_canonical(x.c[i]) == nat_mlkem_canonical(y.c[i]), "basemul %d %zu", trial, i);
    }
    x = b[0];
    y = b[0];
    if (wide == 2) for (size_t i = 0; i < N; i++) x.c[i] = y.c[i] = (int16_t) (r[i] % 2 ? Q : -Q);
    kn->ntt(&x);
    ref->ntt(&y);
    for (size_t i = 0; i < N; i++) {
      CHECK(x.c[i] > -Q && x.c[i] < Q && nat_mlkem_canonical(x.c[i]) == nat_mlkem_canonical(y.c[i]), "ntt %d %zu", trial, i);
    }
    x = b[1];
    y = b[1];
    kn->invntt(&x);
    ref->invntt(&y);
    for (size_t i = 0; i < N; i++) {
      CHECK(x.c[i] > -Q && x.c[i] < Q && nat_mlkem_canonical(x.c[i]) == nat_mlkem_canonical(y.c[i]), "invntt %d %zu", trial, i);
    }
    unsigned char seed[32];
    randombytes_buf(seed, sizeof seed);
    nat_mlkem_poly m1[K][K], m2[K][K], n1[2 * K + 1], n2[2 * K + 1];
    kn->matrix(m1, seed, trial & 1);
    ref->matrix(m2, seed, trial & 1);
    CHECK(memcmp(m1, m2, sizeof m1) == 0, "matrix %d", trial);
    /* with a hash beside: every length up to 2 blocks and around each multiple of the rate */
    unsigned char msg[1300], h1[32], h2[32];
    const size_t lens[6] = {PK, 32 + CT, 136 * (size_t) (trial % 9) + 135, 136 * (size_t) (trial % 9),
                            136 * (size_t) (trial % 9) + 1, (size_t) trial};
    const size_t len = lens[trial % 6];
    const unsigned char domain = trial & 2 ? 0x06 : 0x1f;
    randombytes_buf(msg, sizeof msg);
    kn->matrix_hash(m1, seed, trial & 1, h1, msg, len, domain);
    ref->matrix_hash(m2, seed, trial & 1, h2, msg, len, domain);
    CHECK(memcmp(m1, m2, sizeof m1) == 0 && memcmp(h1, h2, 32) == 0, "matrix_hash %d %zu", trial, len);
    const size_t n = 1 + (size_t) trial % (2 * K + 1);
    kn->noise(n1, n, seed);
    ref->noise(n2, n, seed);
    CHECK(memcmp(n1, n2, n * sizeof n1[0]) == 0, "noise %d", trial);
    /* the encodings: any int16_t in (every 16-bit value across the trials), any bytes back */
    unsigned char e1[POLYBYTES + 1], e2[POLYBYTES + 1];
    for (size_t i = 0; i < N; i++) x.c[i] = (int16_t) (trial < 256 ? 256 * trial + i : r[i]);
    memset(e1, 0xa5, sizeof e1);
    memset(e2, 0xa5, sizeof e2);
    kn->encode12(e1, &x);
    ref->encode12(e2, &x);
    CHECK(memcmp(e1, e2, sizeof e1) == 0, "encode12 %d", trial);
    memset(e1, 0xa5, sizeof e1);
    memset(e2, 0xa5, sizeof e2);
    kn->compress10(e1, &x);
    ref->compress10(e2, &x);
    CHECK(memcmp(e1, e2, sizeof e1) == 0 && e1[DU_BYTES] == 0xa5, "compress10 %d", trial);
    memset(e1, 0xa5, sizeof e1);
    memset(e2, 0xa5, sizeof e2);
    kn->compress4(e1, &x);
    ref->compress4(e2, &x);
    CHECK(memcmp(e1, e2, sizeof e1) == 0 && e1[DV_BYTES] == 0xa5, "compress4 %d", trial);
    memset(e1, 0xa5, sizeof e1);
    memset(e2, 0xa5, sizeof e2);
    kn->to_message(e1, &x);
    ref->to_message(e2, &x);
    CHECK(memcmp(e1, e2, sizeof e1) == 0 && e1[32] == 0xa5, "to_message %d", trial);
    randombytes_buf(e1, POLYBYTES);
    kn->decode12(&x, e1);
    ref->decode12(&y, e1);
    CHECK(memcmp(&x, &y, sizeof x) == 0, "decode12 %d", trial);
    kn->decompress10(&x, e1);
    ref->decompress10(&y, e1);
    CHECK(memcmp(&x, &y, sizeof x) == 0, "decompress10 %d", trial);
    kn->decompress4(&x, e1);
    ref->decompress4(&y, e1);
    CHECK(memcmp(&x, &y, sizeof x) == 0, "decompress4 %d", trial);
    kn->from_message(&x, e1);
    ref->from_message(&y, e1);
    CHECK(memcmp(&x, &y, sizeof x) == 0, "from_message %d", trial);
  }
}

/* dec of ct under sk by both, the secret parts of sk marked undefined for ours. */
static void check_dec(const unsigned char ct[CT], const unsigned char sk[SK], const char *what, int trial) {
  unsigned char ours[32], ref[32], skc[SK];
  memcpy(skc, sk, SK);
  SECRET(skc, POLYVECBYTES);
  SECRET(skc + SK - 32, 32);
  CHECK(nat_kem_mlkem768_dec(ours, ct, skc) == 0, "%s %d", what, trial);
  PUBLIC(ours, sizeof ours);
  CHECK(crypto_kem_mlkem768_dec(ref, ct, sk) == 0, "%s %d", what, trial);
  CHECK(memcmp(ours, ref, 32) == 0, "dec %s %d", what, trial);
}

static void test_mlkem(int trials) {
  for (int trial = 0; trial < trials; trial++) {
    unsigned char seed[64], pk[PK], sk[SK], pk2[PK], sk2[SK];
    unsigned char m[32], ct[CT], ss[32], ct2[CT], ss2[32];
    randombytes_buf(seed, sizeof seed);
    SECRET(seed, sizeof seed);
    CHECK(nat_kem_mlkem768_seed_keypair(pk, sk, seed) == 0, "keypair");
    PUBLIC(seed, sizeof seed);
    PUBLIC(pk, sizeof pk);
    PUBLIC(sk, sizeof sk);
    CHECK(crypto_kem_mlkem768_seed_keypair(pk2, sk2, seed) == 0, "keypair");
    CHECK(memcmp(pk, pk2, PK) == 0 && memcmp(sk, sk2, SK) == 0, "keypair %d", trial);

    randombytes_buf(m, sizeof m);
    SECRET(m, sizeof m);
    CHECK(nat_kem_mlkem768_enc_deterministic(ct, ss, pk, m) == 0, "enc");
    PUBLIC(m, sizeof m);
    PUBLIC(ct, sizeof ct);
    PUBLIC(ss, sizeof ss);
    CHECK(crypto_kem_mlkem768_enc_deterministic(ct2, ss2, pk, m) == 0, "enc");
    CHECK(memcmp(ct, ct2, CT) == 0 && memcmp(ss, ss2, 32) == 0, "enc %d", trial);

    check_dec(ct, sk, "valid", trial);
    unsigned char bad[CT];
    memcpy(bad, ct, CT);
    bad[randombytes_uniform(CT)] ^= (unsigned char) (1u << randombytes_uniform(8));
    check_dec(bad, sk, "one bit", trial);
    memcpy(bad, ct, CT);
    bad[randombytes_uniform(CT)] ^= (unsigned char) (1 + randombytes_uniform(255));
    check_dec(bad, sk, "one byte", trial);
    randombytes_buf(bad, CT);
    check_dec(bad, sk, "random ct", trial);
    if (trial % 8 == 0) {
      unsigned char junk[SK];
      randombytes_buf(junk, SK);
      check_dec(ct, junk, "random sk", trial);
    }

    /* one coefficient of t-hat pushed to q..4095: refused by both, with nothing written */
    memcpy(pk2, pk, PK);
    const size_t at = randombytes_uniform(POLYVECBYTES / 3) * 3;
    const unsigned v = Q + randombytes_uniform(4096 - Q);
    if (trial & 1) {
      pk2[at] = (unsigned char) v;
      pk2[at + 1] = (unsigned char) ((pk2[at + 1] & 0xf0) | v >> 8);
    } else {
      pk2[at + 1] = (unsigned char) ((pk2[at + 1] & 0x0f) | (v & 15) << 4);
      pk2[at + 2] = (unsigned char) (v >> 4);
    }
    memset(ct2, 0x5a, CT);
    CHECK(nat_kem_mlkem768_enc_deterministic(ct2, ss2, pk2, m) == -1, "modulus check %d", trial);
    CHECK(crypto_kem_mlkem768_enc_deterministic(ct, ss, pk2, m) == -1, "modulus check %d", trial);
    for (size_t i = 0; i < CT; i++) CHECK(ct2[i] == 0x5a, "written on refusal");
  }
}

static void test_xwing(int trials) {
  for (int trial = 0; trial < trials; trial++) {
    unsigned char seed[32], pk[XPK], sk[32], pk2[XPK], sk2[32], e[64];
    unsigned char ct[XCT], ss[32], ct2[XCT], ss2[32];
    randombytes_buf(seed, sizeof seed);
    CHECK(nat_kem_xwing_seed_keypair(pk, sk, seed) == 0, "xwing keypair");
    CHECK(crypto_kem_xwing_seed_keypair(pk2, sk2, seed) == 0, "xwing keypair");
    CHECK(memcmp(pk, pk2, XPK) == 0 && memcmp(sk, sk2, 32) == 0, "xwing keypair %d", trial);
    randombytes_buf(e, sizeof e);
    CHECK(nat_kem_xwing_enc_deterministic(ct, ss, pk, e) == 0, "xwing enc");
    CHECK(crypto_kem_xwing_enc_deterministic(ct2, ss2, pk, e) == 0, "xwing enc");
    CHECK(memcmp(ct, ct2, XCT) == 0 && memcmp(ss, ss2, 32) == 0, "xwing enc %d", trial);
    if (trial & 1) ct[randombytes_uniform(XCT)] ^= 1;
    const int a = nat_kem_xwing_dec(ss, ct, sk), b = crypto_kem_xwing_dec(ss2, ct, sk);
    CHECK(a == b && (a != 0 || memcmp(ss, ss2, 32) == 0), "xwing dec %d", trial);
    /* X25519 share 0 (low order): both refuse */
    memset(ct + CT, 0, 32);
    CHECK(nat_kem_xwing_dec(ss, ct, sk) == -1 && crypto_kem_xwing_dec(ss2, ct, sk) == -1, "xwing low order");
    memset(pk + PK, 0, 32);
    CHECK(nat_kem_xwing_enc_deterministic(ct, ss, pk, e) == -1, "xwing low order pk");
  }
}

int main(void) {
  if (sodium_init() < 0) return 1;
#ifdef NAT_MLKEM_SIMD128
  const char *force = getenv("NATRIUM_MLKEM"), *off = getenv("NATRIUM_DISABLE_SIMD");
  if ((force != NULL && strcmp(force, "portable") == 0) || (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0)) {
    nat_mlkem768_kernels_chosen = &nat_mlkem768_portable;
  }
#endif
  const char *env = getenv("MLKEM_TRIALS");
  const int trials = env != NULL ? atoi(env) : UNDER_VALGRIND ? 40 : 2000;
  test_compress();
  test_kernels();
  test_mlkem(trials);
  test_xwing(trials / 4 + 1);
  printf("mlkem768 (%s): %lu checks, %d trials, passed\n", nat_kem_mlkem768_impl(), checks, trials);
  return 0;
}
