/* Ed25519 key tweaking: the functions sodium-native 5.1.0 exports as extension_tweak_ed25519_*,
 * written here on libsodium's public crypto_core_ed25519 / crypto_scalarmult_ed25519 /
 * crypto_hash_sha512 API and giving the same bytes.
 *
 * A tweak is a scalar n derived from a namespace `ns` (n = SHA-512(ns)[0..32] with bit 255
 * cleared, rehashed in the negligible case that n*B is not a valid point) and its point n*B.
 * Adding n to a secret scalar and n*B to the matching public key gives a new key pair that anyone
 * holding only the public key and ns can derive. Signing with a bare scalar needs a nonce that
 * does not come from an Ed25519 seed: sodium-native hashes a dom2-style prefix, the scalar and
 * the message (not RFC 8032's nonce derivation), while R, S and the challenge are plain Ed25519,
 * so any Ed25519 verifier accepts the signatures. This scheme is sodium-native's experimental API. */
#ifndef NAT_CRYPTO_TWEAK_H
#define NAT_CRYPTO_TWEAK_H

#include <sodium.h>

/* Sizes, spelled like libsodium's so argument errors can name them. */
#define extension_tweak_ed25519_BYTES crypto_sign_ed25519_PUBLICKEYBYTES
#define extension_tweak_ed25519_SCALARBYTES crypto_scalarmult_ed25519_SCALARBYTES

/* p = n*B and n for the tweak of ns. */
void nat_tweak_ed25519_base(unsigned char p[32], unsigned char n[32], const unsigned char *ns,
                            size_t ns_len);

/* The clamped secret scalar of an Ed25519 secret key (its first 32 bytes are the seed). */
void nat_tweak_ed25519_sk_to_scalar(unsigned char n[32], const unsigned char sk[64]);

/* scalar_out = scalar + tweak(ns) (mod L). */
void nat_tweak_ed25519_scalar(unsigned char scalar_out[32], const unsigned char scalar[32],
                              const unsigned char *ns, size_t ns_len);

/* tpk = pk + tweak(ns)*B; -1 when pk is not a point on the curve. */
int nat_tweak_ed25519_pk(unsigned char tpk[32], const unsigned char pk[32], const unsigned char *ns,
                         size_t ns_len);

/* scalar_out = scalar + n and pk = scalar_out*B, rehashing n until pk is a valid point. */
void nat_tweak_ed25519_keypair(unsigned char pk[32], unsigned char scalar_out[32],
                               const unsigned char scalar[32], const unsigned char *ns,
                               size_t ns_len);

/* scalar_out = scalar + n (mod L). */
void nat_tweak_ed25519_scalar_add(unsigned char scalar_out[32], const unsigned char scalar[32],
                                  const unsigned char n[32]);

/* tpk = pk + q; -1 when either is not a point on the curve. */
int nat_tweak_ed25519_pk_add(unsigned char tpk[32], const unsigned char pk[32],
                             const unsigned char q[32]);

/* scalar_out = scalar + tweak and pk = scalar_out*B; -1 when scalar_out is 0 (mod L). */
int nat_tweak_ed25519_keypair_add(unsigned char pk[32], unsigned char scalar_out[32],
                                  const unsigned char scalar[32], const unsigned char tweak[32]);

/* An Ed25519 signature of m by the secret scalar n; pk may be NULL (then n*B, with bit 255 of n
 * ignored as libsodium's noclamp multiplication does). -1 when n or the nonce is 0 (mod L). */
int nat_tweak_ed25519_sign_detached(unsigned char sig[64], const unsigned char *m, size_t m_len,
                                    const unsigned char n[32], const unsigned char *pk);

#endif
