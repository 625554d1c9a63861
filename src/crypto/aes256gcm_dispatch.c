/* AES-256-GCM: the dispatcher (see aes256gcm.h). It chooses when the library is loaded, before
 * any thread can call in.
 *
 * Natively, libsodium's AES-NI code (x86-64 with AES-NI, PCLMUL and AVX) or ARMv8 crypto code
 * (arm64) wherever libsodium says it can run: at ~5 GB/s it is far beyond any portable code.
 * Elsewhere, and always on wasm32 (libsodium has no AES-256-GCM there), the portable
 * constant-time code. NATRIUM_AES=soft forces the latter, for the tests. */
#include <stdlib.h>
#include <string.h>

#include "aes256gcm.h"

#define ABYTES crypto_aead_aes256gcm_ABYTES

static int use_soft = 1;

#if !defined(__wasm__)
/* libsodium's CPU detection runs in sodium_init(), which is idempotent and thread-safe; natrium's
 * module init calls it again later. */
__attribute__((constructor)) static void nat_aes256gcm_dispatch(void) {
  const char *force = getenv("NATRIUM_AES");
  if (sodium_init() < 0) return;
  if (force != NULL && strcmp(force, "soft") == 0) return;
  use_soft = crypto_aead_aes256gcm_is_available() != 1;
}
#endif

const char *nat_aes256gcm_impl(void) {
  return use_soft ? "soft" : "libsodium";
}

int nat_aes256gcm_is_available(void) {
  return 1;
}

int nat_aes256gcm_beforenm(crypto_aead_aes256gcm_state *st, const unsigned char *k) {
  if (!use_soft) return crypto_aead_aes256gcm_beforenm(st, k);
  return nat_aes256gcm_soft_beforenm(st, k);
}

int nat_aes256gcm_encrypt_detached_afternm(unsigned char *c, unsigned char *mac,
                                           unsigned long long *maclen_p, const unsigned char *m,
                                           unsigned long long mlen, const unsigned char *ad,
                                           unsigned long long adlen, const unsigned char *nsec,
                                           const unsigned char *npub,
                                           const crypto_aead_aes256gcm_state *st) {
  if (!use_soft) {
    return crypto_aead_aes256gcm_encrypt_detached_afternm(c, mac, maclen_p, m, mlen, ad, adlen,
                                                          nsec, npub, st);
  }
  return nat_aes256gcm_soft_encrypt_detached_afternm(c, mac, maclen_p, m, mlen, ad, adlen, nsec,
                                                     npub, st);
}

int nat_aes256gcm_decrypt_detached_afternm(unsigned char *m, unsigned char *nsec,
                                           const unsigned char *c, unsigned long long clen,
                                           const unsigned char *mac, const unsigned char *ad,
                                           unsigned long long adlen, const unsigned char *npub,
                                           const crypto_aead_aes256gcm_state *st) {
  if (!use_soft) {
    return crypto_aead_aes256gcm_decrypt_detached_afternm(m, nsec, c, clen, mac, ad, adlen, npub,
                                                          st);
  }
  return nat_aes256gcm_soft_decrypt_detached_afternm(m, nsec, c, clen, mac, ad, adlen, npub, st);
}

/* The combined and one-shot forms, as libsodium 1.0.22 writes them over the two above
 * (crypto_aead/aes256gcm/aesni/aead_aes256gcm_aesni.c): the same lengths reported on failure. */
int nat_aes256gcm_encrypt_afternm(unsigned char *c, unsigned long long *clen_p,
                                  const unsigned char *m, unsigned long long mlen,
                                  const unsigned char *ad, unsigned long long adlen,
                                  const unsigned char *nsec, const unsigned char *npub,
                                  const crypto_aead_aes256gcm_state *st) {
  const int ret = nat_aes256gcm_encrypt_detached_afternm(c, c + mlen, NULL, m, mlen, ad, adlen,
                                                         nsec, npub, st);
  if (clen_p != NULL) *clen_p = mlen + ABYTES;
  return ret;
}

int nat_aes256gcm_decrypt_afternm(unsigned char *m, unsigned long long *mlen_p,
                                  unsigned char *nsec, const unsigned char *c,
                                  unsigned long long clen, const unsigned char *ad,
                                  unsigned long long adlen, const unsigned char *npub,
                                  const crypto_aead_aes256gcm_state *st) {
  int ret = -1;
  if (clen >= ABYTES) {
    ret = nat_aes256gcm_decrypt_detached_afternm(m, nsec, c, clen - ABYTES, c + clen - ABYTES, ad,
                                                 adlen, npub, st);
  }
  if (mlen_p != NULL) *mlen_p = ret == 0 ? clen - ABYTES : 0;
  return ret;
}

int nat_aes256gcm_encrypt_detached(unsigned char *c, unsigned char *mac,
                                   unsigned long long *maclen_p, const unsigned char *m,
                                   unsigned long long mlen, const unsigned char *ad,
                                   unsigned long long adlen, const unsigned char *nsec,
                                   const unsigned char *npub, const unsigned char *k) {
  if (!use_soft) {
    return crypto_aead_aes256gcm_encrypt_detached(c, mac, maclen_p, m, mlen, ad, adlen, nsec, npub,
                                                  k);
  }
  return nat_aes256gcm_soft_encrypt_detached(c, mac, maclen_p, m, mlen, ad, adlen, nsec, npub, k);
}

int nat_aes256gcm_decrypt_detached(unsigned char *m, unsigned char *nsec, const unsigned char *c,
                                   unsigned long long clen, const unsigned char *mac,
                                   const unsigned char *ad, unsigned long long adlen,
                                   const unsigned char *npub, const unsigned char *k) {
  if (!use_soft) {
    return crypto_aead_aes256gcm_decrypt_detached(m, nsec, c, clen, mac, ad, adlen, npub, k);
  }
  return nat_aes256gcm_soft_decrypt_detached(m, nsec, c, clen, mac, ad, adlen, npub, k);
}

int nat_aes256gcm_encrypt(unsigned char *c, unsigned long long *clen_p, const unsigned char *m,
                          unsigned long long mlen, const unsigned char *ad,
                          unsigned long long adlen, const unsigned char *nsec,
                          const unsigned char *npub, const unsigned char *k) {
  const int ret = nat_aes256gcm_encrypt_detached(c, c + mlen, NULL, m, mlen, ad, adlen, nsec,
                                                 npub, k);
  if (clen_p != NULL) *clen_p = ret == 0 ? mlen + ABYTES : 0;
  return ret;
}

int nat_aes256gcm_decrypt(unsigned char *m, unsigned long long *mlen_p, unsigned char *nsec,
                          const unsigned char *c, unsigned long long clen,
                          const unsigned char *ad, unsigned long long adlen,
                          const unsigned char *npub, const unsigned char *k) {
  int ret = -1;
  if (clen >= ABYTES) {
    ret = nat_aes256gcm_decrypt_detached(m, nsec, c, clen - ABYTES, c + clen - ABYTES, ad, adlen,
                                         npub, k);
  }
  if (mlen_p != NULL) *mlen_p = ret == 0 ? clen - ABYTES : 0;
  return ret;
}
