/* AES-256-GCM on every CPU and on wasm32: libsodium's crypto_aead_aes256gcm_* API, answered by
 * libsodium's AES-NI / ARMv8 crypto code where it has it (crypto_aead_aes256gcm_is_available()),
 * else by our constant-time portable C (aes256gcm_soft.c). aes256gcm_dispatch.c chooses once, at
 * load; NATRIUM_AES=soft forces the portable code, so the tests run it on any machine.
 *
 * Each function has the signature, results, aliasing rules (c == m in place; ad may be NULL when
 * adlen is 0; nsec unused) and outputs on refusal of libsodium's function of the same name with
 * crypto_aead_ for nat_, and gives the same bytes. A state is valid only in the process that made
 * it (its layout is the chosen implementation's). */
#ifndef NAT_CRYPTO_AES256GCM_H
#define NAT_CRYPTO_AES256GCM_H

#include <sodium.h>

/* "libsodium" (its AES-NI or ARMv8 crypto code) or "soft" (ours). */
const char *nat_aes256gcm_impl(void);

int nat_aes256gcm_is_available(void);

int nat_aes256gcm_encrypt(unsigned char *c, unsigned long long *clen_p, const unsigned char *m,
                          unsigned long long mlen, const unsigned char *ad,
                          unsigned long long adlen, const unsigned char *nsec,
                          const unsigned char *npub, const unsigned char *k);

int nat_aes256gcm_decrypt(unsigned char *m, unsigned long long *mlen_p, unsigned char *nsec,
                          const unsigned char *c, unsigned long long clen,
                          const unsigned char *ad, unsigned long long adlen,
                          const unsigned char *npub, const unsigned char *k);

int nat_aes256gcm_encrypt_detached(unsigned char *c, unsigned char *mac,
                                   unsigned long long *maclen_p, const unsigned char *m,
                                   unsigned long long mlen, const unsigned char *ad,
                                   unsigned long long adlen, const unsigned char *nsec,
                                   const unsigned char *npub, const unsigned char *k);

int nat_aes256gcm_decrypt_detached(unsigned char *m, unsigned char *nsec, const unsigned char *c,
                                   unsigned long long clen, const unsigned char *mac,
                                   const unsigned char *ad, unsigned long long adlen,
                                   const unsigned char *npub, const unsigned char *k);

int nat_aes256gcm_beforenm(crypto_aead_aes256gcm_state *st, const unsigned char *k);

int nat_aes256gcm_encrypt_afternm(unsigned char *c, unsigned long long *clen_p,
                                  const unsigned char *m, unsigned long long mlen,
                                  const unsigned char *ad, unsigned long long adlen,
                                  const unsigned char *nsec, const unsigned char *npub,
                                  const crypto_aead_aes256gcm_state *st);

int nat_aes256gcm_decrypt_afternm(unsigned char *m, unsigned long long *mlen_p,
                                  unsigned char *nsec, const unsigned char *c,
                                  unsigned long long clen, const unsigned char *ad,
                                  unsigned long long adlen, const unsigned char *npub,
                                  const crypto_aead_aes256gcm_state *st);

int nat_aes256gcm_encrypt_detached_afternm(unsigned char *c, unsigned char *mac,
                                           unsigned long long *maclen_p, const unsigned char *m,
                                           unsigned long long mlen, const unsigned char *ad,
                                           unsigned long long adlen, const unsigned char *nsec,
                                           const unsigned char *npub,
                                           const crypto_aead_aes256gcm_state *st);

int nat_aes256gcm_decrypt_detached_afternm(unsigned char *m, unsigned char *nsec,
                                           const unsigned char *c, unsigned long long clen,
                                           const unsigned char *mac, const unsigned char *ad,
                                           unsigned long long adlen, const unsigned char *npub,
                                           const crypto_aead_aes256gcm_state *st);

/* The portable code (aes256gcm_soft.c); the dispatcher builds the rest of the API on these. */
int nat_aes256gcm_soft_beforenm(crypto_aead_aes256gcm_state *st, const unsigned char *k);

int nat_aes256gcm_soft_encrypt_detached_afternm(unsigned char *c, unsigned char *mac,
                                                unsigned long long *maclen_p,
                                                const unsigned char *m, unsigned long long mlen,
                                                const unsigned char *ad, unsigned long long adlen,
                                                const unsigned char *nsec,
                                                const unsigned char *npub,
                                                const crypto_aead_aes256gcm_state *st);

int nat_aes256gcm_soft_decrypt_detached_afternm(unsigned char *m, unsigned char *nsec,
                                                const unsigned char *c, unsigned long long clen,
                                                const unsigned char *mac, const unsigned char *ad,
                                                unsigned long long adlen,
                                                const unsigned char *npub,
                                                const crypto_aead_aes256gcm_state *st);

int nat_aes256gcm_soft_encrypt_detached(unsigned char *c, unsigned char *mac,
                                        unsigned long long *maclen_p, const unsigned char *m,
                                        unsigned long long mlen, const unsigned char *ad,
                                        unsigned long long adlen, const unsigned char *nsec,
                                        const unsigned char *npub, const unsigned char *k);

int nat_aes256gcm_soft_decrypt_detached(unsigned char *m, unsigned char *nsec,
                                        const unsigned char *c, unsigned long long clen,
                                        const unsigned char *mac, const unsigned char *ad,
                                        unsigned long long adlen, const unsigned char *npub,
                                        const unsigned char *k);

#endif
