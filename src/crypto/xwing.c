/* X-Wing (draft-connolly-cfrg-xwing-kem) as libsodium 1.0.22 builds it (crypto_kem/xwing/),
 * on our ML-KEM-768 (nat_kem_mlkem768_*), our SHAKE256 and SHA3-256, and libsodium's X25519:
 *   the secret key is the 32-byte seed; SHAKE256(seed, 96) = ML-KEM seed (64) || X25519 secret;
 *   pk = ML-KEM ek || X25519(sk_X, 9); ct = ML-KEM c || X25519(ek_X, 9) for the 64-byte
 *   randomness = ML-KEM m || ek_X; ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || "\.//^\").
 * An X25519 share that gives the all-zero secret fails (-1), as crypto_scalarmult_curve25519
 * does, with nothing written. */
#include <sodium.h>
#include <string.h>

#include "mlkem768.h"
#include "mlkem768_impl.h"
#include "sha3.h"

#define MLKEM_PK crypto_kem_mlkem768_PUBLICKEYBYTES
#define MLKEM_SK crypto_kem_mlkem768_SECRETKEYBYTES
#define MLKEM_CT crypto_kem_mlkem768_CIPHERTEXTBYTES
#define X_BYTES crypto_scalarmult_curve25519_BYTES

_Static_assert(crypto_kem_xwing_PUBLICKEYBYTES == MLKEM_PK + X_BYTES, "pk");
_Static_assert(crypto_kem_xwing_CIPHERTEXTBYTES == MLKEM_CT + X_BYTES, "ct");
_Static_assert(crypto_kem_xwing_SECRETKEYBYTES == crypto_kem_xwing_SEEDBYTES, "sk = seed");

static const unsigned char label[6] = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};

/* The draft's expandDecapsulationKey. */
static void expand(unsigned char pk_m[MLKEM_PK], unsigned char sk_m[MLKEM_SK],
                   unsigned char pk_x[X_BYTES], unsigned char sk_x[X_BYTES],
                   const unsigned char seed[crypto_kem_xwing_SEEDBYTES]) {
  unsigned char expanded[96];

  nat_shake256(expanded, sizeof expanded, seed, crypto_kem_xwing_SEEDBYTES);
  nat_kem_mlkem768_seed_keypair(pk_m, sk_m, expanded);
  memcpy(sk_x, expanded + 64, X_BYTES);
  crypto_scalarmult_curve25519_base(pk_x, sk_x);
  sodium_memzero(expanded, sizeof expanded);
}

static void combine(unsigned char ss[crypto_kem_xwing_SHAREDSECRETBYTES], const unsigned char ss_m[32],
                    const unsigned char ss_x[X_BYTES], const unsigned char ct_x[X_BYTES],
                    const unsigned char pk_x[X_BYTES]) {
  unsigned char in[32 + 3 * X_BYTES + sizeof label];

  memcpy(in, ss_m, 32);
  memcpy(in + 32, ss_x, X_BYTES);
  memcpy(in + 32 + X_BYTES, ct_x, X_BYTES);
  memcpy(in + 32 + 2 * X_BYTES, pk_x, X_BYTES);
  memcpy(in + 32 + 3 * X_BYTES, label, sizeof label);
  nat_sha3256(ss, in, sizeof in);
  sodium_memzero(in, sizeof in);
}

int nat_xwing_ours_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed) {
  unsigned char sk_m[MLKEM_SK], sk_x[X_BYTES];

  expand(pk, sk_m, pk + MLKEM_PK, sk_x, seed);
  memmove(sk, seed, crypto_kem_xwing_SEEDBYTES);
  sodium_memzero(sk_m, sizeof sk_m);
  sodium_memzero(sk_x, sizeof sk_x);
  return 0;
}

int nat_xwing_ours_enc_deterministic(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
                                     const unsigned char *seed) {
  const unsigned char *pk_x = pk + MLKEM_PK, *ek_x = seed + 32;
  unsigned char ct_m[MLKEM_CT], ss_m[32], ct_x[X_BYTES], ss_x[X_BYTES];

  if (nat_kem_mlkem768_enc_deterministic(ct_m, ss_m, pk, seed) != 0) return -1;
  crypto_scalarmult_curve25519_base(ct_x, ek_x);
  if (crypto_scalarmult_curve25519(ss_x, ek_x, pk_x) != 0) {
    sodium_memzero(ss_m, sizeof ss_m);
    return -1;
  }
  memcpy(ct, ct_m, MLKEM_CT);
  memcpy(ct + MLKEM_CT, ct_x, X_BYTES);
  combine(ss, ss_m, ss_x, ct_x, pk_x);
  sodium_memzero(ss_m, sizeof ss_m);
  sodium_memzero(ss_x, sizeof ss_x);
  return 0;
}

int nat_xwing_ours_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
  unsigned char pk_m[MLKEM_PK], sk_m[MLKEM_SK], pk_x[X_BYTES], sk_x[X_BYTES];
  unsigned char ss_m[32], ss_x[X_BYTES];
  const unsigned char *ct_x = ct + MLKEM_CT;
  int ret = -1;

  expand(pk_m, sk_m, pk_x, sk_x, sk);
  if (nat_kem_mlkem768_dec(ss_m, ct, sk_m) == 0 && crypto_scalarmult_curve25519(ss_x, sk_x, ct_x) == 0) {
    combine(ss, ss_m, ss_x, ct_x, pk_x);
    ret = 0;
  }
  sodium_memzero(ss_m, sizeof ss_m);
  sodium_memzero(ss_x, sizeof ss_x);
  sodium_memzero(sk_m, sizeof sk_m);
  sodium_memzero(sk_x, sizeof sk_x);
  return ret;
}
