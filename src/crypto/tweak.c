/* Ed25519 key tweaking (sodium-native's extension_tweak_ed25519_*): see tweak.h for the scheme.
 * Every result is computed into locals and copied out last, so outputs may alias inputs. */
#include <string.h>

#include "tweak.h"

/* RFC 8032 dom2(0, "crypto_tweak_ed25519"): the prefix of the scalar-signing nonce hash. Split
 * literals keep "\x14" from swallowing the hex digit 'c' that follows it. */
static const char TWEAK_NONCE_PREFIX[] =
  "SigEd25519 no Ed25519 collisions" "\x00" "\x14" "crypto_tweak_ed25519";

static void clear_bit_255(unsigned char n[32]) {
  n[31] &= 0x7f;
}

/* The tweak of ns: h[0..32] (a scalar below 2^255) and q = h*B. The first hash all but always
 * gives a valid point; the rehash only guards h = 0 (mod L), which yields the identity. */
static void tweak_of(unsigned char q[32], unsigned char h[64], const unsigned char *ns,
                     size_t ns_len) {
  crypto_hash_sha512(h, ns, ns_len);
  for (;;) {
    clear_bit_255(h);
    if (crypto_scalarmult_ed25519_base_noclamp(q, h) == 0 &&
        crypto_core_ed25519_is_valid_point(q) == 1) {
      return;
    }
    crypto_hash_sha512(h, h, 32);
  }
}

void nat_tweak_ed25519_base(unsigned char p[32], unsigned char n[32], const unsigned char *ns,
                            size_t ns_len) {
  unsigned char h[64], q[32];
  tweak_of(q, h, ns, ns_len);
  memcpy(p, q, 32);
  memcpy(n, h, 32);
  sodium_memzero(h, sizeof h);
}

void nat_tweak_ed25519_sk_to_scalar(unsigned char n[32], const unsigned char sk[64]) {
  unsigned char h[64];
  /* RFC 8032 5.1.5: the secret scalar is the clamped first half of SHA-512(seed). */
  crypto_hash_sha512(h, sk, 32);
  h[0] &= 248;
  h[31] &= 127;
  h[31] |= 64;
  memcpy(n, h, 32);
  sodium_memzero(h, sizeof h);
}

void nat_tweak_ed25519_scalar(unsigned char scalar_out[32], const unsigned char scalar[32],
                              const unsigned char *ns, size_t ns_len) {
  unsigned char h[64], q[32];
  tweak_of(q, h, ns, ns_len);
  crypto_core_ed25519_scalar_add(scalar_out, scalar, h);
  sodium_memzero(h, sizeof h);
}

int nat_tweak_ed25519_pk(unsigned char tpk[32], const unsigned char pk[32], const unsigned char *ns,
                         size_t ns_len) {
  unsigned char h[64], q[32];
  tweak_of(q, h, ns, ns_len);
  sodium_memzero(h, sizeof h);
  return crypto_core_ed25519_add(tpk, q, pk);
}

void nat_tweak_ed25519_keypair(unsigned char pk[32], unsigned char scalar_out[32],
                               const unsigned char scalar[32], const unsigned char *ns,
                               size_t ns_len) {
  unsigned char h[64], s[32], p[32];
  /* Unlike tweak_of, validity is checked on the sum's point, and h is rehashed until it is valid. */
  crypto_hash_sha512(h, ns, ns_len);
  for (;;) {
    clear_bit_255(h);
    crypto_core_ed25519_scalar_add(s, scalar, h);
    if (crypto_scalarmult_ed25519_base_noclamp(p, s) == 0 &&
        crypto_core_ed25519_is_valid_point(p) == 1) {
      break;
    }
    crypto_hash_sha512(h, h, 32);
  }
  memcpy(pk, p, 32);
  memcpy(scalar_out, s, 32);
  sodium_memzero(h, sizeof h);
  sodium_memzero(s, sizeof s);
}

void nat_tweak_ed25519_scalar_add(unsigned char scalar_out[32], const unsigned char scalar[32],
                                  const unsigned char n[32]) {
  crypto_core_ed25519_scalar_add(scalar_out, scalar, n);
}

int nat_tweak_ed25519_pk_add(unsigned char tpk[32], const unsigned char pk[32],
                             const unsigned char q[32]) {
  return crypto_core_ed25519_add(tpk, pk, q);
}

int nat_tweak_ed25519_keypair_add(unsigned char pk[32], unsigned char scalar_out[32],
                                  const unsigned char scalar[32], const unsigned char tweak[32]) {
  unsigned char s[32], p[32];
  crypto_core_ed25519_scalar_add(s, scalar, tweak);
  /* libsodium writes the identity's encoding when s = 0 (mod L) and then refuses; both outputs are
   * written either way, as sodium-native does. */
  int rc = crypto_scalarmult_ed25519_base_noclamp(p, s);
  memcpy(pk, p, 32);
  memcpy(scalar_out, s, 32);
  sodium_memzero(s, sizeof s);
  return rc;
}

int nat_tweak_ed25519_sign_detached(unsigned char sig[64], const unsigned char *m, size_t m_len,
                                    const unsigned char n[32], const unsigned char *pk) {
  crypto_hash_sha512_state hs;
  unsigned char A[32], r[64], R[32], k[64], ks[32], S[32];
  int rc = -1;

  if (pk == NULL) {
    if (crypto_scalarmult_ed25519_base_noclamp(A, n) != 0) goto done;
    pk = A;
  }
  /* r = H(dom2 || n || m) mod L: deterministic, secret, and distinct from any RFC 8032 nonce. */
  crypto_hash_sha512_init(&hs);
  crypto_hash_sha512_update(&hs, (const unsigned char *) TWEAK_NONCE_PREFIX,
                            sizeof TWEAK_NONCE_PREFIX - 1);
  crypto_hash_sha512_update(&hs, n, 32);
  crypto_hash_sha512_update(&hs, m, m_len);
  crypto_hash_sha512_final(&hs, r);
  crypto_core_ed25519_scalar_reduce(r, r);
  if (crypto_scalarmult_ed25519_base_noclamp(R, r) != 0) goto done;

  /* RFC 8032 5.1.6: k = H(R || A || m) mod L, S = r + k*n mod L, signature R || S. */
  crypto_hash_sha512_init(&hs);
  crypto_hash_sha512_update(&hs, R, 32);
  crypto_hash_sha512_update(&hs, pk, 32);
  crypto_hash_sha512_update(&hs, m, m_len);
  crypto_hash_sha512_final(&hs, k);
  crypto_core_ed25519_scalar_reduce(k, k);
  crypto_core_ed25519_scalar_mul(ks, k, n);
  crypto_core_ed25519_scalar_add(S, r, ks);
  memcpy(sig, R, 32);
  memcpy(sig + 32, S, 32);
  rc = 0;

done:
  sodium_memzero(&hs, sizeof hs);
  sodium_memzero(r, sizeof r);
  sodium_memzero(ks, sizeof ks);
  return rc;
}
